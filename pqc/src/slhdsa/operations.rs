//! Whole SLH-DSA operations after the message hashes: the seam of an
//! engine that runs key generation's top tree, FORS and the hypertree as
//! whole jobs (the PL's SLH-DSA engine), while the caller keeps PRF_msg
//! and H_msg (FIPS 205 Algorithm 19, lines 4–12; Algorithm 20, lines 7–11).
//!
//! [`SlhDsaOperations`] is what such an engine provides; [`OnBackend`] is
//! the same work on any [`SlhBackend`] (pqc's own software, or the
//! primitive-offload engines). The `*_on` functions are FIPS 205's
//! internal and pure functions over either.

use super::address::{AddressType, Adrs};
use super::api::{check_out, check_params, decode_pk, decode_sk};
use super::hash::{HashEngine, Sha2Engine, SlhBackend};
use super::params::{HashFamily, Params, MAX_M, MAX_N};
use super::tree;
use crate::error::{check_ctx, check_len, Error, Result};
use crate::keccak::SoftKeccak;

/// Largest md: ⌈k·a/8⌉ bytes (40 for SLH-DSA-*-256f).
pub const MAX_MD_BYTES: usize = 40;

/// The digest's parts (FIPS 205 Algorithm 19, lines 7–12): md, idx_tree
/// and idx_leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageDigest {
    md: [u8; MAX_MD_BYTES],
    md_len: usize,
    /// idx_tree, reduced mod 2^(h − h′).
    pub idx_tree: u64,
    /// idx_leaf, reduced mod 2^h′.
    pub idx_leaf: u32,
}

impl MessageDigest {
    /// Splits H_msg's output `digest` (m bytes) for `p`.
    pub fn split(p: &Params, digest: &[u8]) -> Self {
        let md_len = p.md_bytes();
        let tree_end = md_len + p.tree_idx_bytes();
        let leaf_end = tree_end + p.leaf_idx_bytes();
        let mut md = [0u8; MAX_MD_BYTES];
        md[..md_len].copy_from_slice(&digest[..md_len]);
        MessageDigest {
            md,
            md_len,
            idx_tree: to_int_mod(&digest[md_len..tree_end], p.h - p.hp),
            idx_leaf: to_int_mod(&digest[tree_end..leaf_end], p.hp) as u32,
        }
    }

    /// The digest's parts as an engine receives them: md (⌈k·a/8⌉ bytes
    /// for `p`) and the indices, reduced as [`Self::split`] reduces them.
    pub fn from_parts(p: &Params, md: &[u8], idx_tree: u64, idx_leaf: u32) -> Self {
        let md_len = p.md_bytes();
        let mut bytes = [0u8; MAX_MD_BYTES];
        bytes[..md_len].copy_from_slice(&md[..md_len]);
        MessageDigest {
            md: bytes,
            md_len,
            idx_tree: reduce(idx_tree, p.h - p.hp),
            idx_leaf: reduce(u64::from(idx_leaf), p.hp) as u32,
        }
    }

    /// md (⌈k·a/8⌉ bytes).
    pub fn md(&self) -> &[u8] {
        &self.md[..self.md_len]
    }
}

/// Big-endian integer of up to 8 bytes, reduced mod `2^bits` (bits ≤ 64).
fn to_int_mod(bytes: &[u8], bits: usize) -> u64 {
    reduce(
        bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
        bits,
    )
}

/// `v` mod `2^bits` (bits ≤ 64).
fn reduce(v: u64, bits: usize) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// SLH-DSA after the message hashes. The inputs have been checked: `p` is
/// one of the twelve sets and every value has its length.
pub trait SlhDsaOperations {
    /// PK.root: the root of the top layer's tree 0 (FIPS 205 Algorithm 18,
    /// line 5), into `root` (n bytes).
    fn pk_root(&mut self, p: &Params, sk_seed: &[u8], pk_seed: &[u8], root: &mut [u8]);

    /// SIG_FORS ‖ SIG_HT of `digest` (Algorithm 19, lines 13–17) into
    /// `body` (the signature without R: `sig_bytes − n` bytes). `pk_root`
    /// is the key's, for an engine that checks its work against it.
    fn sign_digest(
        &mut self,
        p: &Params,
        sk_seed: &[u8],
        pk_seed: &[u8],
        pk_root: &[u8],
        digest: &MessageDigest,
        body: &mut [u8],
    );

    /// Whether `body` (SIG_FORS ‖ SIG_HT) verifies for `digest` under
    /// PK.seed and PK.root (Algorithm 20, lines 12–16).
    fn verify_digest(
        &mut self,
        p: &Params,
        pk_seed: &[u8],
        pk_root: &[u8],
        digest: &MessageDigest,
        body: &[u8],
    ) -> bool;
}

/// The operations on an [`SlhBackend`] (the SHA2 sets always in software).
pub struct OnBackend<'b, B>(pub &'b mut B);

impl<B: SlhBackend> SlhDsaOperations for OnBackend<'_, B> {
    fn pk_root(&mut self, p: &Params, sk_seed: &[u8], pk_seed: &[u8], root: &mut [u8]) {
        match p.family {
            HashFamily::Sha2 => tree::ht_root(&mut Sha2Engine::new(p, pk_seed, sk_seed), p, root),
            HashFamily::Shake => tree::ht_root(&mut self.0.shake_hashes(pk_seed, sk_seed), p, root),
        }
    }

    fn sign_digest(
        &mut self,
        p: &Params,
        sk_seed: &[u8],
        pk_seed: &[u8],
        _pk_root: &[u8],
        digest: &MessageDigest,
        body: &mut [u8],
    ) {
        match p.family {
            HashFamily::Sha2 => {
                sign_body(&mut Sha2Engine::new(p, pk_seed, sk_seed), p, digest, body)
            }
            HashFamily::Shake => {
                sign_body(&mut self.0.shake_hashes(pk_seed, sk_seed), p, digest, body)
            }
        }
    }

    fn verify_digest(
        &mut self,
        p: &Params,
        pk_seed: &[u8],
        pk_root: &[u8],
        digest: &MessageDigest,
        body: &[u8],
    ) -> bool {
        match p.family {
            HashFamily::Sha2 => verify_body(
                &mut Sha2Engine::new(p, pk_seed, &[]),
                p,
                pk_root,
                digest,
                body,
            ),
            HashFamily::Shake => verify_body(
                &mut self.0.shake_hashes(pk_seed, &[]),
                p,
                pk_root,
                digest,
                body,
            ),
        }
    }
}

/// The FORS address of a digest: layer 0, tree idx_tree, key pair idx_leaf.
fn fors_adrs(digest: &MessageDigest) -> Adrs {
    let mut adrs = Adrs::default();
    adrs.set_tree(digest.idx_tree);
    adrs.set_type_and_clear(AddressType::ForsTree);
    adrs.set_keypair(digest.idx_leaf);
    adrs
}

/// SIG_FORS ‖ SIG_HT of a digest (Algorithm 19, lines 13–17).
pub(crate) fn sign_body<E: HashEngine>(
    e: &mut E,
    p: &Params,
    digest: &MessageDigest,
    body: &mut [u8],
) {
    let (sig_fors, sig_ht) = body.split_at_mut(p.fors_sig_bytes());
    let mut pk_fors = [0u8; MAX_N];
    tree::fors_sign(
        e,
        p,
        digest.md(),
        &fors_adrs(digest),
        sig_fors,
        &mut pk_fors[..p.n],
    );
    tree::ht_sign(
        e,
        p,
        &pk_fors[..p.n],
        digest.idx_tree,
        digest.idx_leaf,
        sig_ht,
    );
}

/// Whether SIG_FORS ‖ SIG_HT verifies for a digest (Algorithm 20, lines
/// 12–16).
pub(crate) fn verify_body<E: HashEngine>(
    e: &mut E,
    p: &Params,
    pk_root: &[u8],
    digest: &MessageDigest,
    body: &[u8],
) -> bool {
    let (sig_fors, sig_ht) = body.split_at(p.fors_sig_bytes());
    let mut pk_fors = [0u8; MAX_N];
    tree::fors_pk_from_sig(
        e,
        p,
        sig_fors,
        digest.md(),
        &fors_adrs(digest),
        &mut pk_fors[..p.n],
    );
    tree::ht_verify(
        e,
        p,
        &pk_fors[..p.n],
        sig_ht,
        digest.idx_tree,
        digest.idx_leaf,
        pk_root,
    )
}

/// R = PRF_msg(SK.prf, opt_rand, M′) and the digest H_msg(R, PK.seed,
/// PK.root, M′) of Algorithm 19, lines 4–12, in software.
fn randomizer_and_digest(
    p: &Params,
    seeds: (&[u8], &[u8], &[u8]),
    pk_root: &[u8],
    opt_rand: &[u8],
    msg: &[&[u8]],
    r: &mut [u8],
) -> MessageDigest {
    let (sk_seed, sk_prf, pk_seed) = seeds;
    let mut digest = [0u8; MAX_M];
    let digest = &mut digest[..p.m()];
    match p.family {
        HashFamily::Sha2 => {
            let mut e = Sha2Engine::new(p, pk_seed, sk_seed);
            e.prf_msg(sk_prf, opt_rand, msg, r);
            e.h_msg(r, pk_root, msg, digest);
        }
        HashFamily::Shake => {
            let mut keccak = SoftKeccak;
            let mut e = super::hash::ShakeEngine::new(&mut keccak, pk_seed, sk_seed);
            e.prf_msg(sk_prf, opt_rand, msg, r);
            e.h_msg(r, pk_root, msg, digest);
        }
    }
    MessageDigest::split(p, digest)
}

/// The digest of a signature's R and M′ (Algorithm 20, lines 7–11), in
/// software.
fn digest_of(p: &Params, pk_seed: &[u8], pk_root: &[u8], r: &[u8], msg: &[&[u8]]) -> MessageDigest {
    let mut digest = [0u8; MAX_M];
    let digest = &mut digest[..p.m()];
    match p.family {
        HashFamily::Sha2 => Sha2Engine::new(p, pk_seed, &[]).h_msg(r, pk_root, msg, digest),
        HashFamily::Shake => {
            let mut keccak = SoftKeccak;
            let mut e = super::hash::ShakeEngine::new(&mut keccak, pk_seed, &[]);
            e.h_msg(r, pk_root, msg, digest);
        }
    }
    MessageDigest::split(p, digest)
}

/// `slh_keygen_internal` (Algorithm 18) with PK.root from `ops`: writes
/// `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` to `sk` and `PK.seed ‖ PK.root`
/// to `pk`.
pub fn slh_keygen_internal_on<O: SlhDsaOperations + ?Sized>(
    ops: &mut O,
    p: &Params,
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    sk: &mut [u8],
    pk: &mut [u8],
) -> Result<()> {
    check_params(p)?;
    let n = p.n;
    check_len("SLH-DSA SK.seed", n, sk_seed.len())?;
    check_len("SLH-DSA SK.prf", n, sk_prf.len())?;
    check_len("SLH-DSA PK.seed", n, pk_seed.len())?;
    check_len("SLH-DSA secret key buffer", p.sk_bytes(), sk.len())?;
    check_len("SLH-DSA public key buffer", p.pk_bytes(), pk.len())?;
    let mut root = [0u8; MAX_N];
    ops.pk_root(p, sk_seed, pk_seed, &mut root[..n]);
    sk[..n].copy_from_slice(sk_seed);
    sk[n..2 * n].copy_from_slice(sk_prf);
    sk[2 * n..3 * n].copy_from_slice(pk_seed);
    sk[3 * n..].copy_from_slice(&root[..n]);
    pk[..n].copy_from_slice(pk_seed);
    pk[n..].copy_from_slice(&root[..n]);
    Ok(())
}

/// Signs M′ given as parts with `ops` after the message hashes; returns
/// the signature length.
fn sign_parts_on<O: SlhDsaOperations + ?Sized>(
    ops: &mut O,
    p: &Params,
    sk: &[u8],
    msg: &[&[u8]],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    check_params(p)?;
    let key = decode_sk(p, sk)?;
    check_out(p.sig_bytes(), sig.len())?;
    if let Some(r) = addrnd {
        check_len("SLH-DSA addrnd", p.n, r.len())?;
    }
    let opt_rand = addrnd.unwrap_or(key.pk_seed);
    let (r, body) = sig[..p.sig_bytes()].split_at_mut(p.n);
    let seeds = (key.sk_seed, key.sk_prf, key.pk_seed);
    let digest = randomizer_and_digest(p, seeds, key.pk_root, opt_rand, msg, r);
    ops.sign_digest(p, key.sk_seed, key.pk_seed, key.pk_root, &digest, body);
    Ok(p.sig_bytes())
}

/// Verifies a signature on M′ given as parts with `ops` after the digest.
fn verify_parts_on<O: SlhDsaOperations + ?Sized>(
    ops: &mut O,
    p: &Params,
    pk: &[u8],
    msg: &[&[u8]],
    sig: &[u8],
) -> Result<()> {
    check_params(p)?;
    let (pk_seed, pk_root) = decode_pk(p, pk)?;
    check_len("SLH-DSA signature", p.sig_bytes(), sig.len())?;
    let (r, body) = sig.split_at(p.n);
    let digest = digest_of(p, pk_seed, pk_root, r, msg);
    if ops.verify_digest(p, pk_seed, pk_root, &digest, body) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

/// `slh_sign_internal` (Algorithm 19) with FORS and the hypertree on
/// `ops`. `addrnd = None` signs deterministically.
pub fn slh_sign_internal_on<O: SlhDsaOperations + ?Sized>(
    ops: &mut O,
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    sign_parts_on(ops, p, sk, &[msg], addrnd, sig)
}

/// `slh_sign` (Algorithm 22) with FORS and the hypertree on `ops`.
pub fn slh_sign_on<O: SlhDsaOperations + ?Sized>(
    ops: &mut O,
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    let header = [0u8, check_ctx(ctx)?];
    sign_parts_on(ops, p, sk, &[&header, ctx, msg], addrnd, sig)
}

/// `slh_verify_internal` (Algorithm 20) with FORS and the hypertree on
/// `ops`.
pub fn slh_verify_internal_on<O: SlhDsaOperations + ?Sized>(
    ops: &mut O,
    p: &Params,
    pk: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> Result<()> {
    verify_parts_on(ops, p, pk, &[msg], sig)
}

/// `slh_verify` (Algorithm 24) with FORS and the hypertree on `ops`.
pub fn slh_verify_on<O: SlhDsaOperations + ?Sized>(
    ops: &mut O,
    p: &Params,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Result<()> {
    let header = [0u8, check_ctx(ctx)?];
    verify_parts_on(ops, p, pk, &[&header, ctx, msg], sig)
}
