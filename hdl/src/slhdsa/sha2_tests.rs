//! The SLH-DSA engine on the SHA-2 hash engine
//! ([`crate::sha2::Sha2TweakEngine`]: SHA-256, and SHA-512 for the H and
//! T_l of categories 3 and 5) in place of the sponge: the SLH-DSA-SHA2
//! sets with the jobs unchanged. The ACVP SLH-DSA-SHA2-128f keyGen case
//! gives its PK.root; `pqc`'s signature of the sigGen case verifies, and
//! with a flipped bit does not; SLH-DSA-SHA2-192f gives `pqc`'s PK.root.

use super::engine::{SlhDsaEngine, OP_KEYGEN, OP_VERIFY};
use super::job_bench::JobBench;
use super::verify_tests::Case;
use super::wots_leaf::SPONGE_ROUNDS_PER_CLOCK;
use crate::keccak::select::OnOutsideEngine;
use crate::ntt::sim::Lcg;
use crate::sha2::Sha2TweakEngine;
use pqc::slhdsa::params;
use pqc_selftest::selftest::SlhDsaSet;
use pqc_selftest::vectors::SLH_DSA;

/// The engine hashing on the SHA-2 engine.
type OnSha2 = OnOutsideEngine<SlhDsaEngine<SPONGE_ROUNDS_PER_CLOCK>, Sha2TweakEngine>;

fn sha2_128f() -> (&'static params::Params, &'static SlhDsaSet) {
    let p = &params::SHA2_128F;
    let set = &SLH_DSA[1];
    assert_eq!(set.name, p.name);
    (p, set)
}

/// Clocks of the ACVP SLH-DSA-SHA2-128f key generation on the engine over
/// the SHA-2 engine, from `start` to `done`: measured by
/// [`keygen_acvp_sha2_128f_on_the_sha2_engine`], which asserts it. The
/// Verilated SHA2 tops' CYCLES are checked against it
/// (`crate::axi::slhdsa_top_tests::sha2_acvp_keygen`), so the rust-hdl
/// model and the exported RTL agree on the whole operation's clocks
/// without the slow rust-hdl run of the top.
pub(crate) const SHA2_128F_ACVP_KEYGEN_CLOCKS: u64 = 306_351;

/// The ACVP SLH-DSA-SHA2-128f keyGen case: PK.root from SK.seed and
/// PK.seed (the top tree: 280 WOTS+ secret values and chains, 8 T_len
/// and 7 H) in [`SHA2_128F_ACVP_KEYGEN_CLOCKS`].
#[test]
fn keygen_acvp_sha2_128f_on_the_sha2_engine() {
    let (p, set) = sha2_128f();
    let kg = &set.keygen;
    let mut case = Case::built(16, (1, 1), (1, 1), &mut Lcg::new(1));
    case.pk_seed = kg.pk_seed.to_vec();
    case.sk_seed = kg.sk_seed.to_vec();
    case.pk_root = kg.pk[p.n..].to_vec();
    (case.a, case.k, case.height, case.layers) = (p.a as u32, p.k, p.hp as u32, p.d as u32);
    let mut bench = JobBench::<OnSha2>::new(51);
    let (outcome, verdict) = case.run_operation(&mut bench, OP_KEYGEN, &[], 1, None);
    assert!(!outcome.error);
    assert_eq!(outcome.bytes(), kg.pk[p.n..], "tcId {}: PK.root", kg.tc_id);
    assert!(verdict, "root = PK.root");
    assert_eq!(outcome.clocks, SHA2_128F_ACVP_KEYGEN_CLOCKS, "clocks");
}

/// `pqc`'s signature of the ACVP SLH-DSA-SHA2-128f sigGen case verifies
/// on the engine (FORS: 33 leaves from their secret values, H up the
/// trees, T_k; 22 layers of chains from the signature, T_len and H); the
/// same signature with one bit flipped in the last layer's WOTS+
/// signature is rejected. By default the exported RTL runs these (and the
/// ACVP sigVer cases) instead: `crate::axi::slhdsa_top_tests` and
/// `sim/tests/slhdsa_engine_acvp.rs`.
#[test]
#[ignore = "two verifications of 0.5 million clocks, five minutes of rust-hdl simulation; PQC_FULL=1 runs it"]
fn verify_acvp_sha2_128f_on_the_sha2_engine() {
    let (p, set) = sha2_128f();
    let sg = &set.siggen;
    let mut sig = vec![0; p.sig_bytes()];
    pqc::slhdsa::slh_sign(p, sg.sk, sg.message, sg.context, None, &mut sig).unwrap();
    let header = [0, sg.context.len() as u8];
    let pk = &sg.sk[2 * p.n..];
    let case = Case::of_signature(p, pk, &sig, &[&header, sg.context, sg.message]);
    let mut bench = JobBench::<OnSha2>::new(52);
    let (outcome, verdict) = case.run_operation(&mut bench, OP_VERIFY, &case.signature, 1, None);
    assert!(!outcome.error, "error");
    assert_eq!(outcome.taken, case.signature.len() / 4, "every word taken");
    assert_eq!(outcome.bytes(), case.pk_root, "root");
    assert!(verdict, "the signature is rejected");
    eprintln!(
        "verify, SHA2-128f (ACVP sigGen) on SHA-256: {} clocks",
        outcome.clocks
    );

    let layer_bytes = p.xmss_sig_bytes();
    let mut forged = case.signature.clone();
    forged[case.signature.len() - layer_bytes + 3] ^= 0x10;
    let (outcome, verdict) = case.run_operation(&mut bench, OP_VERIFY, &forged, 1, None);
    assert!(!outcome.error, "forged: error");
    assert_ne!(outcome.bytes(), case.pk_root, "forged: root");
    assert!(!verdict, "the forged signature is accepted");
}

/// SLH-DSA-SHA2-192f key generation from random seeds gives `pqc`'s
/// PK.root: its 8 leaves' chains (SHA-256), their T_len and the 7 H of
/// the top tree (SHA-512).
#[test]
fn keygen_sha2_192f_on_the_sha2_engine_equals_pqc() {
    let p = &params::SHA2_192F;
    let mut rng = Lcg::new(3);
    let mut case = Case::built(p.n, (1, 1), (1, 1), &mut rng);
    let mut seeds = vec![0u8; 3 * p.n];
    seeds.iter_mut().for_each(|b| *b = rng.next_u32() as u8);
    let (mut sk, mut pk) = (vec![0u8; p.sk_bytes()], vec![0u8; p.pk_bytes()]);
    let (sk_seed, rest) = seeds.split_at(p.n);
    let (sk_prf, pk_seed) = rest.split_at(p.n);
    pqc::slhdsa::slh_keygen_internal(p, sk_seed, sk_prf, pk_seed, &mut sk, &mut pk).unwrap();
    case.pk_seed = pk_seed.to_vec();
    case.sk_seed = sk_seed.to_vec();
    case.pk_root = pk[p.n..].to_vec();
    (case.a, case.k, case.height, case.layers) = (p.a as u32, p.k, p.hp as u32, p.d as u32);
    let mut bench = JobBench::<OnSha2>::new(53);
    let (outcome, verdict) = case.run_operation(&mut bench, OP_KEYGEN, &[], 1, None);
    assert!(!outcome.error);
    assert_eq!(outcome.bytes(), pk[p.n..], "PK.root");
    assert!(verdict, "root = PK.root");
    eprintln!(
        "keygen, SHA2-192f on SHA-256 and SHA-512: {} clocks",
        outcome.clocks
    );
}
