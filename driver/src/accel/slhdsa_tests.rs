//! [`super::HwSlhDsa`] on the behavioural model: keys, signatures and
//! verdicts equal to `pqc`'s software for the sets the engine's CONFIG
//! offers, one job each, the others in software; every fault falls back
//! to the right result and
//! the engine is kept, a persistent one abandons it, a wrong ID means
//! software from the first call.

use super::model::{self, Fault, Pl, Which};
use pqc::slhdsa::{self, params, Params};
use ps_pl_contract::dma::SLHDSA_MAX_STREAM_BYTES;

fn arena() -> Vec<u8> {
    vec![0u8; 2 * SLHDSA_MAX_STREAM_BYTES + 4 * crate::cache::LINE_BYTES]
}

/// `pqc`'s key pair of `p` from seeds made of `seed`.
fn keys(p: &Params, seed: u8) -> (Vec<u8>, Vec<u8>) {
    let n = p.n;
    let seeds: Vec<u8> = (0..3 * n as u8).map(|i| i.wrapping_mul(seed)).collect();
    let (mut sk, mut pk) = (vec![0; p.sk_bytes()], vec![0; p.pk_bytes()]);
    slhdsa::slh_keygen_internal(
        p,
        &seeds[..n],
        &seeds[n..2 * n],
        &seeds[2 * n..],
        &mut sk,
        &mut pk,
    )
    .unwrap();
    (sk, pk)
}

/// Key generation from the seeds of `sk`, the signature of "message" and
/// its verification on `hw`, each equal to `pqc`'s software (`what`
/// names the case); returns the signature.
fn equal_to_software(
    hw: &mut model::ModelSlhDsa<'_>,
    p: &Params,
    (sk, pk): (&[u8], &[u8]),
    what: &str,
) -> Vec<u8> {
    let n = p.n;
    let (mut sk_hw, mut pk_hw) = (vec![0; p.sk_bytes()], vec![0; p.pk_bytes()]);
    let seeds = (&sk[..n], &sk[n..2 * n], &sk[2 * n..3 * n]);
    slhdsa::slh_keygen_internal_on(hw, p, seeds.0, seeds.1, seeds.2, &mut sk_hw, &mut pk_hw)
        .unwrap();
    assert_eq!((&sk_hw[..], &pk_hw[..]), (sk, pk), "{what}: keys");
    let (mut sig, mut sig_hw) = (vec![0; p.sig_bytes()], vec![0; p.sig_bytes()]);
    slhdsa::slh_sign(p, sk, b"message", b"", None, &mut sig).unwrap();
    slhdsa::slh_sign_on(hw, p, sk, b"message", b"", None, &mut sig_hw).unwrap();
    assert!(sig_hw == sig, "{what}: signature");
    slhdsa::slh_verify_on(hw, p, pk, b"message", b"", &sig).unwrap();
    sig
}

/// Key generation, signing and verification (valid, forged) on the model
/// of the engines configuration (`ENGINES_CONFIG`) for SHAKE-128f,
/// SHAKE-192f, SHA2-128f and SHA2-192f (H and T_l on SHA-512) give
/// `pqc`'s results in one job each. The contract's buffer is the largest
/// stream of any set: SLH-DSA-*-256f's verification input (its header and
/// the signature without R).
#[test]
fn hw_slhdsa_equals_software() {
    let largest = params::ALL
        .iter()
        .flat_map(|p| {
            let body = p.sig_bytes() - p.n;
            [
                4 * ps_pl_contract::regmap::slhdsa::KEYGEN_INPUT_WORDS,
                4 * ps_pl_contract::regmap::slhdsa::SIGN_INPUT_WORDS,
                body + 4,
                4 * ps_pl_contract::regmap::slhdsa::VERIFY_HEADER_WORDS + body,
            ]
        })
        .max()
        .unwrap();
    assert_eq!(SLHDSA_MAX_STREAM_BYTES, largest);
    assert_eq!(
        largest,
        4 * ps_pl_contract::regmap::slhdsa::VERIFY_HEADER_WORDS + params::SHAKE_256F.sig_bytes()
            - params::SHAKE_256F.n
    );
    let pl = Pl::new();
    let mut m = arena();
    let mut hw = model::slhdsa(&pl, &mut m);
    let sets = [
        &params::SHAKE_128F,
        &params::SHAKE_192F,
        &params::SHA2_128F,
        &params::SHA2_192F,
    ];
    for (i, p) in sets.into_iter().enumerate() {
        let (sk, pk) = keys(p, 11 + i as u8);
        let mut sig = equal_to_software(&mut hw, p, (&sk, &pk), p.name);
        sig[p.n + 7] ^= 0x10;
        assert!(slhdsa::slh_verify_on(&mut hw, p, &pk, b"message", b"", &sig).is_err());
    }
    let stats = hw.stats();
    // Four sets on the engine, 4 jobs each: key, signature, two
    // verifications.
    assert_eq!((stats.hw_calls, stats.sw_calls, stats.jobs), (16, 0, 16));
    // The rejected verification was confirmed in software: no fault.
    assert_eq!(hw.fault(), None);
}

/// Each fault in the middle of a signing (a core that never shows DONE, a
/// DMA slave error, STATUS_ERROR, an output one word short) gives the
/// right signature by the software fallback; the fault is recorded, the
/// engine is aborted and kept, and the next calls run on it. The same for
/// a verification.
#[test]
fn hw_slhdsa_falls_back_on_every_fault_and_recovers() {
    let p = &params::SHAKE_128F;
    let (sk, pk) = keys(p, 5);
    let mut want = vec![0; p.sig_bytes()];
    slhdsa::slh_sign(p, &sk, b"m", b"", None, &mut want).unwrap();
    for fault in [
        Fault::Hang,
        Fault::SlaveError,
        Fault::StatusError,
        Fault::BadOutput,
    ] {
        let pl = Pl::new();
        pl.borrow_mut().inject_once(Which::SlhDsa, fault, 1);
        let mut m = arena();
        let mut hw = model::slhdsa(&pl, &mut m);
        for call in 0..3 {
            let mut sig = vec![0; p.sig_bytes()];
            slhdsa::slh_sign_on(&mut hw, p, &sk, b"m", b"", None, &mut sig).unwrap();
            assert!(sig == want, "{fault:?} call {call}");
        }
        assert!(hw.fault().is_some(), "{fault:?}: recorded");
        assert!(!hw.abandoned(), "{fault:?}: the engine is kept");
        let stats = hw.stats();
        assert_eq!((stats.failed_jobs, stats.hw_calls), (1, 2), "{fault:?}");

        pl.borrow_mut().inject_once(Which::SlhDsa, fault, 3);
        for call in 0..2 {
            slhdsa::slh_verify_on(&mut hw, p, &pk, b"m", b"", &want)
                .unwrap_or_else(|e| panic!("{fault:?} verify {call}: {e:?}"));
        }
        let stats = hw.stats();
        assert_eq!((stats.failed_jobs, stats.hw_calls), (2, 3), "{fault:?}");
    }
}

/// A persistent fault abandons the engine after the limit (then software
/// only); a wrong ID means software from the first call. The results are
/// right throughout.
#[test]
fn hw_slhdsa_abandons_a_broken_engine() {
    let p = &params::SHAKE_128F;
    let (sk, pk) = keys(p, 7);
    let mut want = vec![0; p.sig_bytes()];
    slhdsa::slh_sign(p, &sk, b"m", b"ctx", None, &mut want).unwrap();
    for (fault, failed) in [
        (
            Fault::StatusError,
            u64::from(super::FAILED_JOBS_BEFORE_SOFTWARE),
        ),
        (Fault::WrongId, 0),
    ] {
        let pl = Pl::new();
        pl.borrow_mut().inject(Which::SlhDsa, fault, 0);
        let mut m = arena();
        let mut hw = model::slhdsa(&pl, &mut m);
        for _ in 0..5 {
            let mut sig = vec![0; p.sig_bytes()];
            slhdsa::slh_sign_on(&mut hw, p, &sk, b"m", b"ctx", None, &mut sig).unwrap();
            assert!(sig == want, "{fault:?}");
            slhdsa::slh_verify_on(&mut hw, p, &pk, b"m", b"ctx", &sig).unwrap();
        }
        assert!(hw.abandoned(), "{fault:?}");
        let stats = hw.stats();
        assert_eq!(
            (stats.hw_calls, stats.failed_jobs),
            (0, failed),
            "{fault:?}"
        );
        assert_eq!(stats.sw_calls, 10, "{fault:?}");
    }
}

/// The backend offers what the engine's CONFIG says (the contract's
/// `set_arg`): a SHAKE-only engine (`slhdsa_accel`) runs SHAKE-128f and
/// not SHA2-128f, a SHA2-only one (`slhdsa_sha2_accel`) the reverse, and
/// an engine built without signing is never sent `OP_SIGN`. Every result
/// equals software's, and no job is refused (no fault).
#[test]
fn hw_slhdsa_offers_the_sets_and_operations_its_config_has() {
    use ps_pl_contract::regmap::slhdsa as sreg;
    let shake_only = sreg::config(2, false);
    let sha2_only = sreg::config(0, true);
    let no_sign = sreg::ENGINES_CONFIG & !sreg::CONFIG_SIGN;
    let shake = &params::SHAKE_128F;
    let sha2 = &params::SHA2_128F;
    for (config, p, on_engine) in [
        (shake_only, shake, [true; 3]),
        (shake_only, sha2, [false; 3]),
        (sha2_only, shake, [false; 3]),
        (sha2_only, sha2, [true; 3]),
        (no_sign, sha2, [true, false, true]),
    ] {
        let pl = Pl::new();
        pl.borrow_mut().set_config(Which::SlhDsa, config);
        let mut m = arena();
        let mut hw = model::slhdsa(&pl, &mut m);
        assert_eq!(hw.offers(p), sreg::set_arg(p.name, config).is_some());
        let (sk, pk) = keys(p, 3);
        equal_to_software(&mut hw, p, (&sk, &pk), &format!("{config:#x} {}", p.name));
        let jobs = on_engine.iter().filter(|&&on| on).count() as u64;
        let stats = hw.stats();
        assert_eq!(
            (
                stats.hw_calls,
                stats.sw_calls,
                stats.jobs,
                stats.failed_jobs
            ),
            (jobs, 3 - jobs, jobs, 0),
            "{config:#x} {}",
            p.name
        );
        assert_eq!(hw.fault(), None, "{config:#x} {}", p.name);
    }
}
