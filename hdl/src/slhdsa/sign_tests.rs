//! Tests of the SLH-DSA engine's signing and key generation: SIG_FORS ‖
//! SIG_HT ‖ root against the signatures the verification tests build from
//! `pqc`'s primitives, for every n, with a stalling sink too; the clock
//! counts of `engine.rs` (the same for every md); SIG_FORS and the first
//! layer of the ACVP SLH-DSA-SHAKE-128f sigGen signature, and PK.root of
//! its keyGen case; refused requests and abort; and (opt-in) the whole
//! ACVP SHAKE-128f signature.

use super::engine::{keygen_clocks, sign_clocks, OP_KEYGEN, OP_SIGN, OP_VERIFY};
use super::fors_reference::digest_parts;
use super::job_bench::{Job, JobBench};
use super::verify_tests::{Bench, Case, SharedEngine};
use crate::ntt::sim::Lcg;
use pqc::slhdsa::params;
use sha3::{Digest, Sha3_256};

/// Signs `case` and checks the stream (SIG_FORS ‖ SIG_HT ‖ root, TLAST on
/// the root's final word), the verdict against PK.root and the clock
/// count; returns the clocks.
fn check_sign<B: Job>(bench: &mut JobBench<B>, case: &Case, ready_one_in: u32) -> u64 {
    let (outcome, verdict) = case.run_operation(bench, OP_SIGN, &[], ready_one_in, None);
    let n = case.n;
    assert!(!outcome.error, "n = {n}: error");
    let want = [&case.signature[..], &case.pk_root].concat();
    assert_eq!(outcome.bytes().len(), want.len(), "n = {n}: length");
    assert_eq!(outcome.bytes(), want, "n = {n}: signature");
    assert_eq!(outcome.last_at, Some(want.len() / 4 - 1), "n = {n}: TLAST");
    assert!(verdict, "n = {n}: the signature's root is not PK.root");
    outcome.clocks
}

/// For every n: the engine's signature equals the one built from `pqc`'s
/// primitives, in `sign_clocks` clocks (a > 6 included, where the first
/// index outlasts the address writes); the same with a sink that stalls;
/// key generation gives PK.root in `keygen_clocks`.
#[test]
fn sign_and_keygen_match_pqc_for_every_n() {
    let mut bench = Bench::new(21);
    let mut rng = Lcg::new(2105);
    for (n, (a, k), (height, layers)) in [
        (16, (7, 2), (2, 2)),
        (24, (2, 3), (1, 3)),
        (32, (3, 2), (2, 1)),
    ] {
        let case = Case::built(n, (a, k), (height, layers), &mut rng);
        let clocks = check_sign(&mut bench, &case, 1);
        assert_eq!(
            clocks,
            sign_clocks(n, a, k, height, u64::from(layers)),
            "n = {n}"
        );
        let (outcome, verdict) = case.run_operation(&mut bench, OP_KEYGEN, &[], 1, None);
        assert!(!outcome.error && verdict, "n = {n}: key generation");
        assert_eq!(outcome.bytes(), case.pk_root, "n = {n}: PK.root");
        assert_eq!(outcome.clocks, keygen_clocks(n, height), "n = {n}");
    }
    // The count is the same for every md; a stalling sink loses nothing.
    let case = Case::built(16, (3, 3), (1, 2), &mut rng);
    for md in [[0x00; 2], [0xFF; 2]] {
        let other = case.with_md(&md);
        assert_eq!(
            check_sign(&mut bench, &other, 1),
            sign_clocks(16, 3, 3, 1, 2)
        );
    }
    assert!(check_sign(&mut bench, &case, 3) > sign_clocks(16, 3, 3, 1, 2));
}

/// The engine built to hash on an outside sponge, given one of the
/// shared configuration (kept chains and the squeeze tail, R = 2): the
/// same signatures, roots and verdicts as on its own sponge, in the same
/// clocks (no SLH-DSA hash squeezes past a block, so the tail never
/// acts); an abort mid-signature and the next request too. n = 16 here
/// (about a minute of rust-hdl simulation); `PQC_FULL=1` adds n = 24, 32.
#[test]
fn engine_on_the_shared_sponge_matches_its_own() {
    let mut own = Bench::new(31);
    let mut shared = JobBench::<SharedEngine>::new(31);
    let mut rng = Lcg::new(3105);
    let full = crate::keccak::testutil::full_run();
    let cases = [
        (16, (3, 2), (2, 2)),
        (24, (2, 3), (1, 2)),
        (32, (2, 2), (2, 1)),
    ];
    for &(n, (a, k), (height, layers)) in &cases[..if full { 3 } else { 1 }] {
        let case = Case::built(n, (a, k), (height, layers), &mut rng);
        let clocks = check_sign(&mut shared, &case, 1);
        assert_eq!(
            clocks,
            check_sign(&mut own, &case, 1),
            "n = {n}: sign clocks"
        );
        let (kg, verdict) = case.run_operation(&mut shared, OP_KEYGEN, &[], 1, None);
        assert!(!kg.error && verdict, "n = {n}: key generation");
        assert_eq!(kg.bytes(), case.pk_root, "n = {n}: PK.root");
        assert_eq!(kg.clocks, keygen_clocks(n, height), "n = {n}");
        let (checked, verdict) =
            case.run_operation(&mut shared, OP_VERIFY, &case.signature, 1, None);
        assert!(!checked.error && verdict, "n = {n}: verification");
        let (mine, _) = case.run_operation(&mut own, OP_VERIFY, &case.signature, 1, None);
        assert_eq!(checked.clocks, mine.clocks, "n = {n}: verify clocks");
        let mut forged = case.signature.clone();
        forged[n + 1] ^= 0x40;
        let (_, verdict) = case.run_operation(&mut shared, OP_VERIFY, &forged, 1, None);
        assert!(!verdict, "n = {n}: forged signature accepted");
        // An abort in the middle of a signature, then a good one.
        let (aborted, _) = case.run_operation(&mut shared, OP_SIGN, &[], 1, Some(clocks / 2));
        assert!(aborted.error, "n = {n}: abort");
        assert_eq!(
            check_sign(&mut shared, &case, 1),
            clocks,
            "n = {n}: after abort"
        );
    }
}

/// The ACVP SLH-DSA-SHAKE-128f sigGen case (tcId 61), on the engine with
/// its n, a, k and h′ but one layer (d = 1): SIG_FORS and the first
/// layer's σ_WOTS ‖ AUTH (which signs PK_FORS) equal those of the ACVP
/// signature, which `pqc` reproduces (its SHA3-256 is the case's). 33
/// FORS trees and one XMSS tree: about 456,000 clocks.
#[test]
fn sign_gives_the_acvp_signatures_fors_and_first_layer_for_shake_128f() {
    let p = &params::SHAKE_128F;
    let sg = &pqc_selftest::vectors::SLH_DSA[0].siggen;
    let n = p.n;
    let mut sig = vec![0; p.sig_bytes()];
    pqc::slhdsa::slh_sign(p, sg.sk, sg.message, sg.context, None, &mut sig).unwrap();
    let digest: [u8; 32] = Sha3_256::digest(&sig).into();
    assert_eq!(digest, sg.signature_sha3_256, "pqc's signature (ACVP)");
    let header = [0, sg.context.len() as u8];
    let mut case = Case::of_signature(p, &sg.sk[2 * n..], &sig, &[&header, sg.context, sg.message]);
    case.sk_seed = sg.sk[..n].to_vec();
    case.layers = 1;
    let mut bench = Bench::new(25);
    let (outcome, _) = case.run_operation(&mut bench, OP_SIGN, &[], 1, None);
    assert!(!outcome.error);
    let layer_bytes = p.xmss_sig_bytes();
    let part = n..n + p.fors_sig_bytes() + layer_bytes;
    let words = outcome.bytes();
    assert_eq!(words.len(), part.len() + n, "SIG_FORS ‖ one layer ‖ root");
    assert_eq!(
        &words[..p.fors_sig_bytes()],
        &sig[n..n + p.fors_sig_bytes()],
        "SIG_FORS"
    );
    assert_eq!(&words[..part.len()], &sig[part], "the first layer");
    assert_eq!(
        outcome.clocks,
        sign_clocks(n, p.a as u32, p.k, p.hp as u32, 1)
    );
    eprintln!(
        "FORS and one layer, SHAKE-128f (ACVP): {} clocks",
        outcome.clocks
    );
}

/// Another PK.root: the signature is the same, the verdict reject (the
/// check of the seeds and the top tree); an unknown operation is refused at once; abort
/// during signing ends the job; then a good signature.
#[test]
fn sign_verdict_refusal_and_abort() {
    let mut bench = Bench::new(22);
    let mut rng = Lcg::new(22);
    let case = Case::built(16, (2, 2), (1, 2), &mut rng);
    let mut other = Case::built(16, (2, 2), (1, 2), &mut Lcg::new(22));
    other.pk_root[3] ^= 0x40;
    let (outcome, verdict) = other.run_operation(&mut bench, OP_SIGN, &[], 1, None);
    assert!(!outcome.error && !verdict, "wrong PK.root accepted");
    assert_eq!(
        outcome.bytes(),
        [&case.signature[..], &case.pk_root].concat()
    );

    let (outcome, _) = case.run_operation(&mut bench, 3, &[], 1, None);
    assert!(outcome.error && outcome.clocks == 1, "operation 3");
    for abort_at in [2, 7, 400, 20_000] {
        let (outcome, _) = case.run_operation(&mut bench, OP_SIGN, &[], 1, Some(abort_at));
        assert!(
            outcome.error && outcome.clocks == abort_at + 1,
            "abort at {abort_at}"
        );
    }
    check_sign(&mut bench, &case, 1);
}

/// The ACVP SLH-DSA-SHAKE-128f keyGen case: the engine's PK.root from its
/// SK.seed and PK.seed (59,430 clocks).
#[test]
fn keygen_acvp_shake_128f() {
    let p = &params::SHAKE_128F;
    let set = &pqc_selftest::vectors::SLH_DSA[0];
    assert_eq!(set.name, p.name);
    let kg = &set.keygen;
    let mut case = Case::built(16, (1, 1), (1, 1), &mut Lcg::new(1));
    case.pk_seed = kg.pk_seed.to_vec();
    case.sk_seed = kg.sk_seed.to_vec();
    (case.a, case.k, case.height, case.layers) = (p.a as u32, p.k, p.hp as u32, p.d as u32);
    let mut bench = Bench::new(23);
    let (outcome, _) = case.run_operation(&mut bench, OP_KEYGEN, &[], 1, None);
    assert!(!outcome.error);
    assert_eq!(outcome.bytes(), kg.pk[p.n..], "tcId {}: PK.root", kg.tc_id);
    assert_eq!(outcome.clocks, keygen_clocks(p.n, p.hp as u32));
    eprintln!("keygen, SHAKE-128f (ACVP): {} clocks", outcome.clocks);
}

/// The ACVP SLH-DSA-SHAKE-128f sigGen case as a whole: R from `pqc`
/// (PRF_msg, on the PS), md, idx_tree and idx_leaf from H_msg, the rest
/// from the engine; R ‖ SIG_FORS ‖ SIG_HT has the case's SHA3-256.
#[test]
#[ignore = "1.5 million clocks, about three to four minutes of rust-hdl simulation; PQC_FULL=1 runs it"]
fn sign_acvp_shake_128f_whole_signature() {
    let p = &params::SHAKE_128F;
    let set = &pqc_selftest::vectors::SLH_DSA[0];
    let sg = &set.siggen;
    let n = p.n;
    let mut sig = vec![0; p.sig_bytes()];
    pqc::slhdsa::slh_sign(p, sg.sk, sg.message, sg.context, None, &mut sig).unwrap();
    let r = &sig[..n];
    let header = [0, sg.context.len() as u8];
    let pk = &sg.sk[2 * n..];
    let mut case = Case::of_signature(p, pk, &sig, &[&header, sg.context, sg.message]);
    case.sk_seed = sg.sk[..n].to_vec();
    let (md, _, _) = digest_parts(p, sg.sk, &sig, &[&header, sg.context, sg.message]);
    assert_eq!(md, case.md);
    let mut bench = Bench::new(24);
    let (outcome, verdict) = case.run_operation(&mut bench, OP_SIGN, &[], 1, None);
    assert!(!outcome.error && verdict);
    let words = outcome.bytes();
    let engine_sig = [r, &words[..words.len() - n]].concat();
    let digest: [u8; 32] = Sha3_256::digest(&engine_sig).into();
    assert_eq!(digest, sg.signature_sha3_256, "tcId {}", sg.tc_id);
    assert_eq!(
        outcome.clocks,
        sign_clocks(n, p.a as u32, p.k, p.hp as u32, p.d as u64)
    );
    eprintln!("sign, SHAKE-128f (ACVP): {} clocks", outcome.clocks);
}
