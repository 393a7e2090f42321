//! The FORS reference of the engine tests, built from `pqc`'s PRF, F and
//! H: base_2b, SIG_FORS ‖ PK_FORS of md (FIPS 205 Algorithms 4, 15–16),
//! and md, idx_tree and idx_leaf from the digest of a signature (Algorithm
//! 19, lines 7–12).

use super::job_bench::{words_of, KeyMaterial};
use super::wots_leaf_tests::fors_adrs;
use super::xmss_tree_tests::fors_reference;
use crate::ntt::sim::Lcg;
use pqc::keccak::SoftKeccak;
use pqc::slhdsa::address::AddressType;
use pqc::slhdsa::{HashEngine, HashFamily, Params};

/// FIPS 205 Algorithm 4 (base_2b): k integers of a bits from md, most
/// significant bit first.
pub(super) fn base_2b(md: &[u8], a: u32, k: usize) -> Vec<u32> {
    let mut bits = md
        .iter()
        .flat_map(|byte| (0..8).rev().map(move |i| u32::from(byte >> i) & 1));
    (0..k)
        .map(|_| (0..a).fold(0, |acc, _| (acc << 1) | bits.next().unwrap()))
        .collect()
}

/// md padded to whole words.
pub(super) fn md_words(md: &[u8]) -> Vec<u64> {
    let mut padded = md.to_vec();
    padded.resize(md.len().div_ceil(4) * 4, 0);
    words_of(&padded).collect()
}

/// fors_sign and the FORS public key (FIPS 205 Algorithms 15–16) of md,
/// built here tree by tree from `pqc`'s PRF, F and H.
pub(super) fn reference(keys: &KeyMaterial, md: &[u8], a: u32, k: usize) -> Vec<u8> {
    let n = keys.n;
    let mut sig = Vec::new();
    let mut roots = Vec::new();
    for (tree, index) in base_2b(md, a, k).into_iter().enumerate() {
        let [sk, auth, root] = fors_reference(keys, a, tree as u32, index);
        sig.extend(sk);
        sig.extend(auth);
        roots.extend(root);
    }
    let mut pk = vec![0; n];
    let adrs = fors_adrs(keys, AddressType::ForsRoots);
    keys.with_engine(|e| e.thash(&adrs, &roots, &[], &mut pk));
    sig.extend(pk);
    sig
}

/// Key material with a FORS address: layer 0, random tree and key pair.
pub(super) fn fors_keys(n: usize, rng: &mut Lcg) -> KeyMaterial {
    let mut keys = KeyMaterial::random(n, rng);
    keys.adrs.set_layer(0);
    keys
}

/// md, idx_tree and idx_leaf of SLH-DSA signing for `p`, from the digest
/// of the signature's R and M′ (FIPS 205 Algorithm 19, lines 7–12).
pub(crate) fn digest_parts(
    p: &Params,
    sk: &[u8],
    sig: &[u8],
    m_prime: &[&[u8]],
) -> (Vec<u8>, u64, u32) {
    let n = p.n;
    let (pk_seed, pk_root) = (&sk[2 * n..3 * n], &sk[3 * n..4 * n]);
    let mut digest = vec![0; p.m()];
    match p.family {
        HashFamily::Shake => {
            let mut keccak = SoftKeccak;
            let mut engine = pqc::slhdsa::ShakeEngine::new(&mut keccak, pk_seed, &sk[..n]);
            engine.h_msg(&sig[..n], pk_root, m_prime, &mut digest);
        }
        HashFamily::Sha2 => {
            let mut engine = pqc::slhdsa::Sha2Engine::new(p, pk_seed, &sk[..n]);
            engine.h_msg(&sig[..n], pk_root, m_prime, &mut digest);
        }
    }
    let parts = pqc::slhdsa::MessageDigest::split(p, &digest);
    (parts.md().to_vec(), parts.idx_tree, parts.idx_leaf)
}
