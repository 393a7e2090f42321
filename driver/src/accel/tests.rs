//! Host tests of the backends against the behavioural PL model: results
//! equal to the software backends, whole protocols byte-identical, faults
//! fall back and stick, control traffic per job is constant.

use super::model::{self, Fault, Pl, SharedPl, Which};
use super::{AccelError, SlhOnPl, WotsChainOffload};
use crate::dma::DmaError;
use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::mldsa::{MlDsa, ParameterSet};
use pqc::ring::{Poly, RingBackend, SoftRing, N, Q};
use pqc::slhdsa::address::Adrs;
use pqc::slhdsa::{self, params as slh, shake_wots_chain, HashEngine, ShakeEngine, SlhBackend};

/// xorshift, enough for test data without a dependency.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn random_poly(state: &mut u64) -> Poly {
    core::array::from_fn(|_| (next(state) % Q as u64) as i32)
}

fn arena() -> Vec<u8> {
    vec![0u8; 12 * 1024]
}

#[test]
fn ring_operations_equal_the_software_backend() {
    let pl = Pl::new();
    let mut mem = arena();
    let mut hw = model::ring(&pl, &mut mem);
    let mut s = 0x5eed_1234u64;
    let mut polys: Vec<Poly> = (0..8).map(|_| random_poly(&mut s)).collect();
    polys[0] = [Q - 1; N];
    polys[1] = [0; N];
    for p in &polys {
        let (mut h, mut w) = (*p, *p);
        hw.ntt(&mut h);
        SoftRing.ntt(&mut w);
        assert_eq!(h, w, "ntt");
        hw.intt(&mut h);
        SoftRing.intt(&mut w);
        assert_eq!(h, w, "intt");
    }
    let (a, b) = (&polys[2], &polys[3]);
    let (mut h, mut w) = ([0; N], [0; N]);
    hw.pointwise_mul(a, b, &mut h);
    SoftRing.pointwise_mul(a, b, &mut w);
    assert_eq!(h, w, "pointwise_mul");
    let (mut h, mut w) = (polys[4], polys[4]);
    hw.pointwise_mul_acc(&mut h, a, b);
    SoftRing.pointwise_mul_acc(&mut w, a, b);
    assert_eq!(h, w, "pointwise_mul_acc");
    for len in 1..=4 {
        let (mut h, mut w) = ([1; N], [2; N]);
        hw.dot(&polys[..len], &polys[4..4 + len], &mut h);
        SoftRing.dot(&polys[..len], &polys[4..4 + len], &mut w);
        assert_eq!(h, w, "dot of {len}");
    }
    let (mut h, mut w) = (vec![[0; N]; 5], vec![[0; N]; 5]);
    hw.scale_vec(&polys[7], &polys[..5], &mut h);
    SoftRing.scale_vec(&polys[7], &polys[..5], &mut w);
    assert_eq!(h, w, "scale_vec");
    let (mut h, mut w) = (polys.clone(), polys.clone());
    hw.ntt_vec(&mut h);
    SoftRing.ntt_vec(&mut w);
    assert_eq!(h, w, "ntt_vec");
    hw.intt_vec(&mut h);
    SoftRing.intt_vec(&mut w);
    assert_eq!(h, w, "intt_vec");

    assert_eq!(hw.fault(), None);
    let stats = hw.stats();
    assert_eq!(stats.sw_calls, 0);
    assert!(
        stats.hw_calls >= 30 && stats.jobs > stats.hw_calls,
        "{stats:?}"
    );
    assert_eq!(stats.last_cycles, 256 + 4, "the last job was a STORE");
    assert!(stats.busy_cycles > 16 * 1100, "{stats:?}");
}

#[test]
fn dot_keeps_the_accumulator_resident_and_loads_each_operand_once() {
    let pl = Pl::new();
    let mut mem = arena();
    let mut hw = model::ring(&pl, &mut mem);
    let mut s = 99u64;
    let row: Vec<Poly> = (0..4).map(|_| random_poly(&mut s)).collect();
    let v: Vec<Poly> = (0..4).map(|_| random_poly(&mut s)).collect();
    let mut out = [0; N];
    hw.dot(&row, &v, &mut out);
    let stats = hw.stats();
    // 8 loads + 4 PWM/PWMAC + 1 store; 8 polynomials in, 1 out.
    assert_eq!(stats.jobs, 13);
    assert_eq!(stats.dma_bytes, 9 * 1024);
}

#[test]
fn non_canonical_input_gives_the_software_result() {
    let pl = Pl::new();
    let mut mem = arena();
    let mut hw = model::ring(&pl, &mut mem);
    let p: Poly = core::array::from_fn(|i| i as i32 - 128);
    let (mut h, mut w) = (p, p);
    hw.ntt(&mut h);
    SoftRing.ntt(&mut w);
    assert_eq!(h, w);
    assert_eq!(hw.fault(), None, "the core saw only canonical words");
}

#[test]
fn one_ntt_costs_a_constant_handful_of_register_accesses() {
    let pl = Pl::new();
    let mut mem = arena();
    let mut hw = model::ring(&pl, &mut mem);
    let mut s = 7u64;
    let mut p = random_poly(&mut s);
    hw.ntt(&mut p); // first call also reads ID/VERSION/CONFIG
    let mut per_call = Vec::new();
    for _ in 0..3 {
        let before = pl.borrow_mut().accesses(Which::Ntt);
        let mut p = random_poly(&mut s);
        hw.ntt(&mut p);
        let after = pl.borrow_mut().accesses(Which::Ntt);
        per_call.push((after.0 - before.0, after.1 - before.1));
    }
    assert!(per_call.windows(2).all(|w| w[0] == w[1]), "{per_call:?}");
    let (ctrl, dma) = per_call[0];
    // LOAD, NTT, STORE: 4 writes + STATUS + CYCLES each; two DMA set-ups.
    assert_eq!(ctrl, 3 * 6, "control accesses per NTT");
    assert!(dma <= 24, "DMA register accesses per NTT: {dma}");
}

#[test]
fn sponge_and_chain_equal_the_software_backend() {
    let pl = Pl::new();
    let mut mem = arena();
    let mut hw = model::keccak(&pl, &mut mem);
    let msg: Vec<u8> = (0..700u32).map(|i| (i * 7 + 3) as u8).collect();
    for mode in SpongeMode::ALL {
        for (len, out_len) in [
            (0, 1),
            (1, 32),
            (3, 64),
            (135, 137),
            (136, 168),
            (137, 500),
            (700, 3),
        ] {
            let parts: [&[u8]; 3] = [&msg[..len / 3], &msg[len / 3..len / 2], &msg[len / 2..len]];
            let (mut h, mut w) = (vec![0u8; out_len], vec![0u8; out_len]);
            hw.sponge(mode, &parts, &mut h);
            SoftKeccak.sponge(mode, &parts, &mut w);
            assert_eq!(h, w, "{mode:?} {len} -> {out_len}");
        }
    }
    for n in [16, 24, 32] {
        let adrs: [u8; 32] = core::array::from_fn(|i| i as u8);
        for (start, steps) in [(0, 15), (3, 7), (5, 0)] {
            let (mut h, mut w) = (vec![0u8; n], vec![0u8; n]);
            hw.wots_chain(&msg[..n], &adrs, &msg[50..50 + n], start, steps, &mut h);
            shake_wots_chain(
                &mut SoftKeccak,
                &msg[..n],
                &adrs,
                &msg[50..50 + n],
                start,
                steps,
                &mut w,
            );
            assert_eq!(h, w, "chain n={n} {start}+{steps}");
        }
        let (mut h, mut w) = (vec![0u8; n], vec![0u8; n]);
        let (pk_seed, sk_seed) = (&msg[..n], &msg[100..100 + n]);
        let jobs = hw.stats().jobs;
        SlhOnPl(&mut hw)
            .shake_hashes(pk_seed, sk_seed)
            .wots_pk(&Adrs(adrs), &mut h);
        ShakeEngine::new(&mut SoftKeccak, pk_seed, sk_seed).wots_pk(&Adrs(adrs), &mut w);
        assert_eq!(h, w, "wots_pk n={n}");
        // One job per chain, and one sponge for T_len over the 2n + 3 ends
        // (longer than one SHAKE256 block).
        assert_eq!(hw.stats().jobs - jobs, 2 * n as u64 + 3 + 1);
    }
    assert_eq!(hw.fault(), None);
    assert_eq!(hw.stats().sw_calls, 0);
}

#[test]
fn requests_beyond_the_buffers_run_in_software_without_a_fault() {
    let pl = Pl::new();
    let mut mem = arena();
    let mut hw = model::keccak(&pl, &mut mem);
    let long = vec![0xA5u8; 5000];
    let (mut h, mut w) = (vec![0u8; 64], vec![0u8; 64]);
    hw.sponge(SpongeMode::Shake256, &[&long], &mut h);
    SoftKeccak.sponge(SpongeMode::Shake256, &[&long], &mut w);
    assert_eq!(h, w);
    let (mut h, mut w) = (vec![0u8; 4097], vec![0u8; 4097]);
    hw.sponge(SpongeMode::Shake128, &[b"x"], &mut h);
    SoftKeccak.sponge(SpongeMode::Shake128, &[b"x"], &mut w);
    assert_eq!(h, w);
    hw.sponge(SpongeMode::Shake128, &[b"x"], &mut []);
    assert_eq!(hw.fault(), None);
    assert_eq!(hw.stats().sw_calls, 3);
    assert_eq!(hw.stats().hw_calls, 0);
    assert_eq!(
        pl.borrow_mut().accesses(Which::Keccak),
        (0, 0),
        "hardware untouched"
    );
}

fn accesses(pl: &SharedPl) -> ((u64, u64), (u64, u64)) {
    let ntt = pl.borrow_mut().accesses(Which::Ntt);
    let keccak = pl.borrow_mut().accesses(Which::Keccak);
    (ntt, keccak)
}

/// Runs a fixed workload on both backends with `fault` injected from job
/// `from_job`; checks results against software and returns the faults.
fn workload_under_fault(
    fault: Fault,
    from_job: u64,
) -> (Option<AccelError>, Option<AccelError>, SharedPl) {
    let pl = Pl::new();
    pl.borrow_mut().inject(Which::Ntt, fault, from_job);
    pl.borrow_mut().inject(Which::Keccak, fault, from_job);
    let (mut m1, mut m2) = (arena(), arena());
    let mut ring = model::ring(&pl, &mut m1);
    let mut keccak = model::keccak(&pl, &mut m2);
    let mut s = 3u64;
    let v: Vec<Poly> = (0..4).map(|_| random_poly(&mut s)).collect();
    let row: Vec<Poly> = (0..4).map(|_| random_poly(&mut s)).collect();
    for round in 0..2 {
        let (mut h, mut w) = (v.clone(), v.clone());
        ring.ntt_vec(&mut h);
        SoftRing.ntt_vec(&mut w);
        assert_eq!(h, w, "{fault:?} ntt_vec round {round}");
        let (mut h, mut w) = ([0; N], [0; N]);
        ring.dot(&row, &v, &mut h);
        SoftRing.dot(&row, &v, &mut w);
        assert_eq!(h, w, "{fault:?} dot");
        let (mut h, mut w) = (v.clone(), v.clone());
        ring.scale_vec(&row[0], &v, &mut h);
        SoftRing.scale_vec(&row[0], &v, &mut w);
        assert_eq!(h, w, "{fault:?} scale_vec");
        let (mut h, mut w) = (v[0], v[0]);
        ring.pointwise_mul_acc(&mut h, &v[1], &v[2]);
        SoftRing.pointwise_mul_acc(&mut w, &v[1], &v[2]);
        assert_eq!(h, w, "{fault:?} pointwise_mul_acc");
        for len in [0, 10, 200] {
            let msg = vec![round as u8; len];
            let (mut h, mut w) = ([0u8; 100], [0u8; 100]);
            keccak.sponge(SpongeMode::Shake128, &[&msg], &mut h);
            SoftKeccak.sponge(SpongeMode::Shake128, &[&msg], &mut w);
            assert_eq!(h, w, "{fault:?} sponge {len}");
        }
        let (mut h, mut w) = ([0u8; 16], [0u8; 16]);
        keccak.wots_chain(&[1; 16], &[2; 32], &[3; 16], 1, 9, &mut h);
        SoftKeccak.wots_chain(&[1; 16], &[2; 32], &[3; 16], 1, 9, &mut w);
        assert_eq!(h, w, "{fault:?} chain");
    }
    let faults = (ring.fault(), keccak.fault());
    // A fault that persists makes the backend give the core up: more
    // calls touch nothing.
    assert_eq!(ring.abandoned(), faults.0.is_some(), "{fault:?}");
    assert_eq!(keccak.abandoned(), faults.1.is_some(), "{fault:?}");
    let before = accesses(&pl);
    let mut p = v[0];
    ring.ntt(&mut p);
    keccak.sponge(SpongeMode::Shake256, &[b"abc"], &mut [0u8; 8]);
    let after = accesses(&pl);
    if ring.abandoned() {
        assert_eq!(
            before.0, after.0,
            "{fault:?}: NTT core touched after it was abandoned"
        );
    }
    if keccak.abandoned() {
        assert_eq!(
            before.1, after.1,
            "{fault:?}: Keccak engine touched after it was abandoned"
        );
    }
    (faults.0, faults.1, pl)
}

#[test]
fn a_hung_core_times_out_falls_back_and_is_abandoned() {
    for from_job in [0, 5] {
        let (r, k, _) = workload_under_fault(Fault::Hang, from_job);
        assert!(
            matches!(r, Some(AccelError::Dma(DmaError::Timeout { .. }))),
            "{r:?}"
        );
        assert!(
            matches!(k, Some(AccelError::Dma(DmaError::Timeout { .. }))),
            "{k:?}"
        );
    }
}

#[test]
fn a_core_that_never_finishes_an_operation_times_out() {
    // Jobs of the first ntt_vec: LOAD, NTT, STORE, LOAD, NTT: the fifth
    // (an NTT, no stream) hangs, so the control block's poll gives up.
    let (r, _, _) = workload_under_fault(Fault::Hang, 4);
    assert_eq!(
        r,
        Some(AccelError::Timeout {
            op: ps_pl_contract::regmap::ntt::OP_NTT,
            status: ps_pl_contract::regmap::ctrl::STATUS_BUSY
        })
    );
}

#[test]
fn a_dma_slave_error_falls_back() {
    let (r, k, _) = workload_under_fault(Fault::SlaveError, 2);
    for f in [r, k] {
        assert!(
            matches!(f, Some(AccelError::Dma(DmaError::Device { status, .. })) if status & ps_pl_contract::dma::Dmasr::DMA_SLV_ERR.bits() != 0),
            "{f:?}"
        );
    }
}

#[test]
fn a_wrong_id_means_software_from_the_first_call() {
    let (r, k, pl) = workload_under_fault(Fault::WrongId, 0);
    assert_eq!(
        r,
        Some(AccelError::WrongId {
            expected: ps_pl_contract::regmap::ntt::ID,
            found: 0
        })
    );
    assert_eq!(
        k,
        Some(AccelError::WrongId {
            expected: ps_pl_contract::regmap::keccak::ID,
            found: 0
        })
    );
    // Only the ID was read: no command, no DMA.
    assert_eq!(pl.borrow_mut().accesses(Which::Ntt), (1, 0));
    assert_eq!(pl.borrow_mut().accesses(Which::Keccak), (1, 0));
}

#[test]
fn another_register_interface_version_is_a_fault() {
    let (r, k, pl) = workload_under_fault(Fault::WrongVersion, 0);
    assert_eq!(r, Some(AccelError::WrongVersion { found: 2 << 16 }));
    assert_eq!(k, Some(AccelError::WrongVersion { found: 2 << 16 }));
    assert_eq!(pl.borrow_mut().accesses(Which::Ntt), (2, 0));
}

#[test]
fn ports_refuse_buffers_the_engine_cannot_use() {
    use crate::cache::{is_line_aligned, LINE_BYTES};
    let mut mem = arena();
    assert!(
        super::line_aligned(&mut mem[..20], 20).is_none(),
        "less than a line"
    );
    assert!(
        super::line_aligned(&mut mem[..64], 96).is_none(),
        "too short"
    );
    let got = super::line_aligned(&mut mem, 100).unwrap();
    assert_eq!(got.len(), 96);
    assert!(is_line_aligned(got));

    let pl = Pl::new();
    let mut src = vec![0u8; 64];
    let skip = mem.as_ptr().align_offset(LINE_BYTES);
    let (_, rest) = mem.split_at_mut(skip);
    let dst_ok = &mut rest[..64];
    let err = |r: Result<model::ModelPort<'_>, DmaError>| r.err();
    assert_eq!(
        err(model::try_port(&pl, Which::Ntt, true, &mut [], dst_ok)),
        Some(DmaError::Empty)
    );
    let dst_ok = &mut rest[..64];
    assert_eq!(
        err(model::try_port(&pl, Which::Ntt, false, &mut src, dst_ok)),
        Some(DmaError::Unreachable)
    );
    assert_eq!(
        err(model::try_port(
            &pl,
            Which::Ntt,
            true,
            &mut src,
            &mut rest[8..72]
        )),
        Some(DmaError::MisalignedDestination)
    );
    assert_eq!(
        err(model::try_port(
            &pl,
            Which::Ntt,
            true,
            &mut src,
            &mut rest[..48]
        )),
        Some(DmaError::MisalignedDestination)
    );
    assert!(model::try_port(&pl, Which::Ntt, true, &mut src, &mut rest[..64]).is_ok());
}

#[test]
fn status_error_and_bad_output_fall_back() {
    let (r, k, _) = workload_under_fault(Fault::StatusError, 3);
    assert!(matches!(r, Some(AccelError::Refused { .. })), "{r:?}");
    assert!(matches!(k, Some(AccelError::Refused { .. })), "{k:?}");
    let (r, k, _) = workload_under_fault(Fault::BadOutput, 4);
    assert!(
        matches!(r, Some(AccelError::BadCoefficient { index: 5, value }) if value == Q as u32),
        "{r:?}"
    );
    assert!(matches!(k, Some(AccelError::ShortStream { .. })), "{k:?}");
}

#[test]
fn ml_dsa_44_through_the_hardware_backends_is_byte_identical() {
    let pl = Pl::new();
    let (mut m1, mut m2) = (arena(), arena());
    let mut hw = MlDsa::new(model::ring(&pl, &mut m1), model::keccak(&pl, &mut m2));
    let mut sw: MlDsa = MlDsa::default();
    let set = ParameterSet::MlDsa44;
    let xi = [0x42u8; 32];
    let (mut pk_h, mut sk_h) = (
        vec![0u8; set.public_key_len()],
        vec![0u8; set.secret_key_len()],
    );
    let (mut pk_s, mut sk_s) = (pk_h.clone(), sk_h.clone());
    hw.keygen_internal(set, &xi, &mut pk_h, &mut sk_h).unwrap();
    sw.keygen_internal(set, &xi, &mut pk_s, &mut sk_s).unwrap();
    assert_eq!((&pk_h, &sk_h), (&pk_s, &sk_s), "keys");
    let (mut sig_h, mut sig_s) = (
        vec![0u8; set.signature_len()],
        vec![0u8; set.signature_len()],
    );
    let rnd = [7u8; 32];
    hw.sign(set, &sk_h, b"message", b"ctx", &rnd, &mut sig_h)
        .unwrap();
    sw.sign(set, &sk_s, b"message", b"ctx", &rnd, &mut sig_s)
        .unwrap();
    assert_eq!(sig_h, sig_s, "signature");
    hw.verify(set, &pk_h, b"message", b"ctx", &sig_h).unwrap();
    sig_h[10] ^= 1;
    assert!(hw.verify(set, &pk_h, b"message", b"ctx", &sig_h).is_err());
    assert_eq!((hw.ring.fault(), hw.keccak.fault()), (None, None));
    let (r, k) = (hw.ring.stats(), hw.keccak.stats());
    assert!(r.hw_calls > 50 && r.sw_calls == 0, "{r:?}");
    assert!(k.hw_calls > 50, "{k:?}");
}

#[test]
fn slh_dsa_shake_128f_through_the_hardware_backend_is_byte_identical() {
    let pl = Pl::new();
    let mut mem = arena();
    let mut hw = model::keccak(&pl, &mut mem);
    let p = &slh::SHAKE_128F;
    let seeds = [0x24u8; 48];
    let (mut sk_h, mut pk_h) = (vec![0u8; p.sk_bytes()], vec![0u8; p.pk_bytes()]);
    let (mut sk_s, mut pk_s) = (sk_h.clone(), pk_h.clone());
    let (a, b, c) = (&seeds[..16], &seeds[16..32], &seeds[32..]);
    slhdsa::slh_keygen_internal_with(&mut SlhOnPl(&mut hw), p, a, b, c, &mut sk_h, &mut pk_h)
        .unwrap();
    slhdsa::slh_keygen_internal_with(&mut SoftKeccak, p, a, b, c, &mut sk_s, &mut pk_s).unwrap();
    assert_eq!((&sk_h, &pk_h), (&sk_s, &pk_s), "keys");
    let (mut sig_h, mut sig_s) = (vec![0u8; p.sig_bytes()], vec![0u8; p.sig_bytes()]);
    slhdsa::slh_sign_with(
        &mut SlhOnPl(&mut hw),
        p,
        &sk_h,
        b"message",
        b"",
        None,
        &mut sig_h,
    )
    .unwrap();
    slhdsa::slh_sign_with(&mut SoftKeccak, p, &sk_s, b"message", b"", None, &mut sig_s).unwrap();
    assert_eq!(sig_h, sig_s, "signature");
    slhdsa::slh_verify_with(&mut SlhOnPl(&mut hw), p, &pk_h, b"message", b"", &sig_h).unwrap();
    sig_h[100] ^= 1;
    assert!(
        slhdsa::slh_verify_with(&mut SlhOnPl(&mut hw), p, &pk_h, b"message", b"", &sig_h).is_err()
    );
    assert_eq!(hw.fault(), None);
    let stats = hw.stats();
    assert!(stats.hw_calls > 1000 && stats.sw_calls == 0, "{stats:?}");
}

/// A single failed job (for every kind of misbehaviour) is recovered from:
/// the core is aborted, the DMA reset, the call computed in software, and
/// the hardware takes the next calls again.
#[test]
fn a_transient_fault_is_aborted_recovered_and_the_pl_kept() {
    for fault in [
        Fault::Hang,
        Fault::SlaveError,
        Fault::StatusError,
        Fault::BadOutput,
    ] {
        let pl = Pl::new();
        pl.borrow_mut().inject_once(Which::Ntt, fault, 2);
        pl.borrow_mut().inject_once(Which::Keccak, fault, 2);
        let (mut m1, mut m2) = (arena(), arena());
        let mut ring = model::ring(&pl, &mut m1);
        let mut keccak = model::keccak(&pl, &mut m2);
        let mut s = 11u64;
        for call in 0..6 {
            let mut h = random_poly(&mut s);
            let mut w = h;
            ring.ntt(&mut h);
            SoftRing.ntt(&mut w);
            assert_eq!(h, w, "{fault:?} ntt call {call}");
            let msg = [call as u8; 40];
            let (mut h, mut w) = ([0u8; 64], [0u8; 64]);
            keccak.sponge(SpongeMode::Shake256, &[&msg], &mut h);
            SoftKeccak.sponge(SpongeMode::Shake256, &[&msg], &mut w);
            assert_eq!(h, w, "{fault:?} sponge call {call}");
        }
        for (name, fault_seen, abandoned, stats) in [
            ("NTT", ring.fault(), ring.abandoned(), ring.stats()),
            ("Keccak", keccak.fault(), keccak.abandoned(), keccak.stats()),
        ] {
            assert!(fault_seen.is_some(), "{fault:?} {name}: fault recorded");
            assert!(!abandoned, "{fault:?} {name}: the PL is kept");
            assert_eq!(stats.failed_jobs, 1, "{fault:?} {name}");
            assert!(stats.hw_calls >= 4, "{fault:?} {name}: {stats:?}");
        }
    }
}

/// A fault that persists abandons the core after exactly
/// `FAILED_JOBS_BEFORE_SOFTWARE` failed jobs in a row.
#[test]
fn a_persistent_fault_abandons_the_core_after_the_limit() {
    let pl = Pl::new();
    pl.borrow_mut().inject(Which::Keccak, Fault::StatusError, 1);
    let mut mem = arena();
    let mut keccak = model::keccak(&pl, &mut mem);
    for call in 0..10u8 {
        let (mut h, mut w) = ([0u8; 32], [0u8; 32]);
        keccak.sponge(SpongeMode::Shake128, &[&[call]], &mut h);
        SoftKeccak.sponge(SpongeMode::Shake128, &[&[call]], &mut w);
        assert_eq!(h, w);
    }
    let stats = keccak.stats();
    assert!(keccak.abandoned());
    assert_eq!(stats.hw_calls, 1);
    assert_eq!(
        stats.failed_jobs,
        u64::from(super::FAILED_JOBS_BEFORE_SOFTWARE)
    );
    assert_eq!(stats.sw_calls, 9);
}

fn mldsa_arena() -> Vec<u8> {
    vec![0u8; 2 * ps_pl_contract::dma::MLDSA_MAX_STREAM_BYTES + 4 * crate::cache::LINE_BYTES]
}

fn software_keys(set: ParameterSet, xi: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    let mut pk = vec![0u8; set.public_key_len()];
    let mut sk = vec![0u8; set.secret_key_len()];
    pqc::mldsa::keygen_internal(set, xi, &mut pk, &mut sk).unwrap();
    (pk, sk)
}

/// KeyGen on the engine model, every set: the keys of software, one job
/// each, ξ out and pk ‖ sk back (the only DMA traffic).
#[test]
fn hw_mldsa_keygen_equals_software_for_every_set() {
    let pl = Pl::new();
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    for (i, set) in [
        ParameterSet::MlDsa44,
        ParameterSet::MlDsa65,
        ParameterSet::MlDsa87,
    ]
    .into_iter()
    .enumerate()
    {
        let xi = [i as u8 + 3; 32];
        let (mut pk, mut sk) = (
            vec![0u8; set.public_key_len()],
            vec![0u8; set.secret_key_len()],
        );
        hw.keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
        assert_eq!((pk, sk), software_keys(set, &xi), "{set:?}");
    }
    let stats = hw.stats();
    assert_eq!((stats.hw_calls, stats.sw_calls, stats.jobs), (3, 0, 3));
    assert_eq!(
        stats.dma_bytes,
        3 * 32
            + [
                ParameterSet::MlDsa44,
                ParameterSet::MlDsa65,
                ParameterSet::MlDsa87
            ]
            .iter()
            .map(|s| (s.public_key_len() + s.secret_key_len() + 4) as u64)
            .sum::<u64>()
    );
    assert_eq!(hw.fault(), None);
}

/// Every fault in the middle of a key generation (a core that never shows
/// DONE, a DMA slave error, STATUS_ERROR, an output stream one word short,
/// a key word corrupted on its way)
/// gives the right keys by the software fallback; the fault is recorded,
/// the engine is aborted and kept, and the next key generation runs on it.
#[test]
fn hw_mldsa_keygen_falls_back_on_every_fault_and_recovers() {
    for fault in [
        Fault::Hang,
        Fault::SlaveError,
        Fault::StatusError,
        Fault::BadOutput,
        Fault::CorruptWord,
    ] {
        let pl = Pl::new();
        pl.borrow_mut().inject_once(Which::MlDsa, fault, 1);
        let mut m = mldsa_arena();
        let mut hw = model::mldsa(&pl, &mut m);
        let set = ParameterSet::MlDsa44;
        for call in 0..3u8 {
            let xi = [call; 32];
            let (mut pk, mut sk) = (
                vec![0u8; set.public_key_len()],
                vec![0u8; set.secret_key_len()],
            );
            hw.keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
            assert_eq!((pk, sk), software_keys(set, &xi), "{fault:?} call {call}");
        }
        let stats = hw.stats();
        assert!(hw.fault().is_some(), "{fault:?}: recorded");
        assert!(!hw.abandoned(), "{fault:?}: the engine is kept");
        assert_eq!(stats.failed_jobs, 1, "{fault:?}");
        assert_eq!(
            stats.hw_calls, 2,
            "{fault:?}: the other calls ran on the engine"
        );
    }
}

/// A persistent fault abandons the engine after the limit; a wrong ID
/// means software from the first call; key buffers of the wrong size are
/// refused before anything runs.
#[test]
fn hw_mldsa_abandons_a_broken_engine_and_refuses_bad_buffers() {
    let set = ParameterSet::MlDsa65;
    let xi = [9u8; 32];
    let pl = Pl::new();
    pl.borrow_mut().inject(Which::MlDsa, Fault::Hang, 0);
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    for _ in 0..super::FAILED_JOBS_BEFORE_SOFTWARE + 2 {
        let (mut pk, mut sk) = (
            vec![0u8; set.public_key_len()],
            vec![0u8; set.secret_key_len()],
        );
        hw.keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
        assert_eq!((pk, sk), software_keys(set, &xi));
    }
    assert!(hw.abandoned());
    assert_eq!(
        hw.stats().failed_jobs,
        u64::from(super::FAILED_JOBS_BEFORE_SOFTWARE)
    );

    let pl = Pl::new();
    pl.borrow_mut().inject(Which::MlDsa, Fault::WrongId, 0);
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    let (mut pk, mut sk) = (
        vec![0u8; set.public_key_len()],
        vec![0u8; set.secret_key_len()],
    );
    hw.keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
    assert_eq!((pk, sk.clone()), software_keys(set, &xi));
    assert!(matches!(hw.fault(), Some(AccelError::WrongId { .. })));
    let mut short = vec![0u8; 5];
    assert!(hw.keygen_internal(set, &xi, &mut short, &mut sk).is_err());
}

/// A key pair of `set`, a signature of M′ and its μ (all software).
fn signed(set: ParameterSet, seed: u8, m_prime: &[u8]) -> (Vec<u8>, Vec<u8>, [u8; 64]) {
    let (pk, sk) = software_keys(set, &[seed; 32]);
    let mut sig = vec![0u8; set.signature_len()];
    pqc::mldsa::sign_internal(set, &sk, m_prime, &[seed ^ 0x33; 32], &mut sig).unwrap();
    let (mut tr, mut mu) = ([0u8; 64], [0u8; 64]);
    let keccak = &mut pqc::keccak::SoftKeccak;
    pqc::mldsa::sample::h(keccak, &[&pk], &mut tr);
    pqc::mldsa::sample::h(keccak, &[&tr, m_prime], &mut mu);
    (pk, sig, mu)
}

/// Verify on the engine model, every set: a valid signature through M′
/// and through μ, a changed message and a malformed hint field (both with
/// `pqc`'s own error), and an M′ too long for the DMA buffer (μ computed
/// on the CPU, still one engine job). One job per call; only pk ‖ σ ‖ M′
/// (or μ) and the verdict word cross the bus.
#[test]
fn hw_mldsa_verify_equals_software_for_every_set() {
    let pl = Pl::new();
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    let mut dma = 0u64;
    let mut jobs = 0;
    for (i, set) in [
        ParameterSet::MlDsa44,
        ParameterSet::MlDsa65,
        ParameterSet::MlDsa87,
    ]
    .into_iter()
    .enumerate()
    {
        let msg: Vec<u8> = (0..41u8).collect();
        let (pk, sig, mu) = signed(set, i as u8, &msg);
        let stream = |tail: usize| {
            4 * ps_pl_contract::regmap::mldsa::verify_stream_words(pk.len(), sig.len(), tail) as u64
                + 4
        };
        hw.verify_internal(set, &pk, &msg, &sig).unwrap();
        hw.verify_mu(set, &pk, &mu, &sig).unwrap();
        dma += stream(msg.len()) + stream(64);
        let mut other = msg.clone();
        other[3] ^= 0x10;
        assert_eq!(
            hw.verify_internal(set, &pk, &other, &sig),
            pqc::mldsa::verify_internal(set, &pk, &other, &sig),
            "{set:?}: changed message"
        );
        dma += stream(msg.len());
        let mut malformed = sig.clone();
        let n = malformed.len();
        malformed[n - 1] = 0xFF;
        let want = pqc::mldsa::verify_internal(set, &pk, &msg, &malformed);
        assert!(
            matches!(want, Err(pqc::Error::MalformedEncoding { .. })),
            "{want:?}"
        );
        assert_eq!(hw.verify_internal(set, &pk, &msg, &malformed), want);
        dma += stream(msg.len());
        let long: Vec<u8> = (0..10_000u32).map(|b| b as u8).collect();
        let (pk, sig, _) = signed(set, i as u8 + 10, &long);
        hw.verify_internal(set, &pk, &long, &sig).unwrap();
        dma += stream(64);
        jobs += 5;
    }
    let stats = hw.stats();
    assert_eq!(
        (stats.hw_calls, stats.sw_calls, stats.jobs),
        (jobs, 0, jobs)
    );
    assert_eq!(stats.dma_bytes, dma);
    assert_eq!(hw.fault(), None);
}

/// Every fault in the middle of a verification (a core that never shows
/// DONE, a DMA slave error, STATUS_ERROR, a corrupted verdict word) gives
/// `pqc`'s result by the software fallback; the fault is recorded, the
/// engine is aborted and kept, and the next verification runs on it.
#[test]
fn hw_mldsa_verify_falls_back_on_every_fault_and_recovers() {
    let set = ParameterSet::MlDsa44;
    let msg = b"a message of 27 bytes, no c";
    let (pk, sig, _) = signed(set, 5, msg);
    let mut bad = sig.clone();
    bad[40] ^= 1;
    for fault in [
        Fault::Hang,
        Fault::SlaveError,
        Fault::StatusError,
        Fault::BadOutput,
    ] {
        let pl = Pl::new();
        pl.borrow_mut().inject_once(Which::MlDsa, fault, 1);
        let mut m = mldsa_arena();
        let mut hw = model::mldsa(&pl, &mut m);
        for call in 0..3 {
            hw.verify_internal(set, &pk, msg, &sig)
                .unwrap_or_else(|e| panic!("{fault:?} call {call}: {e:?}"));
            assert_eq!(
                hw.verify_internal(set, &pk, msg, &bad),
                pqc::mldsa::verify_internal(set, &pk, msg, &bad),
                "{fault:?} call {call}"
            );
        }
        let stats = hw.stats();
        assert!(hw.fault().is_some(), "{fault:?}: recorded");
        assert!(!hw.abandoned(), "{fault:?}: the engine is kept");
        assert_eq!(stats.failed_jobs, 1, "{fault:?}");
        assert_eq!(
            stats.hw_calls, 5,
            "{fault:?}: the other calls ran on the engine"
        );
    }
}

/// σ of `pqc` for M′ (μ from tr = sk[64..128]) and its attempts.
fn software_signature(
    set: ParameterSet,
    sk: &[u8],
    m_prime: &[u8],
    rnd: &[u8; 32],
) -> (Vec<u8>, u32) {
    let mut sig = vec![0u8; set.signature_len()];
    let attempts = pqc::mldsa::sign_internal_counting(set, sk, m_prime, rnd, &mut sig).unwrap();
    (sig, attempts as u32)
}

/// Sign on the engine model, every set: deterministic and hedged through
/// M′, hedged through an external μ, and an M′ too long for the DMA
/// buffer (μ computed on the CPU, still one engine job): `pqc`'s σ byte
/// for byte, and `RESULT` = `pqc`'s attempts. One job per call; only
/// sk ‖ rnd ‖ M′ (or μ) and σ cross the bus.
#[test]
fn hw_mldsa_sign_equals_software_for_every_set() {
    use ps_pl_contract::regmap::mldsa::sign_stream_words;
    let pl = Pl::new();
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    let mut dma = 0u64;
    let mut jobs = 0;
    for (i, set) in [
        ParameterSet::MlDsa44,
        ParameterSet::MlDsa65,
        ParameterSet::MlDsa87,
    ]
    .into_iter()
    .enumerate()
    {
        let (pk, sk) = software_keys(set, &[i as u8 + 20; 32]);
        let stream = |tail: usize| {
            // In, then σ padded and the check word out.
            4 * sign_stream_words(sk.len(), tail) as u64
                + set.signature_len().next_multiple_of(4) as u64
                + 4
        };
        let msg: Vec<u8> = (0..41u8).collect();
        let long: Vec<u8> = (0..10_000u32).map(|b| b as u8).collect();
        let hedged = [0xC3 ^ i as u8; 32];
        for (what, m_prime, rnd, tail) in [
            ("deterministic", &msg, [0u8; 32], msg.len()),
            ("hedged", &msg, hedged, msg.len()),
            ("long M′", &long, hedged, 64),
        ] {
            let (want, attempts) = software_signature(set, &sk, m_prime, &rnd);
            let mut sig = vec![0u8; set.signature_len()];
            hw.sign_internal(set, &sk, m_prime, &rnd, &mut sig).unwrap();
            assert_eq!(sig, want, "{set:?} {what}");
            assert_eq!(hw.last_sign_attempts(), Some(attempts), "{set:?} {what}");
            assert!(pqc::mldsa::verify_internal(set, &pk, m_prime, &sig).is_ok());
            dma += stream(tail);
        }
        let mu = pqc::mldsa::external_mu(set, &pk, b"external mu", b"").unwrap();
        let mut want = vec![0u8; set.signature_len()];
        let attempts = pqc::mldsa::sign_mu_counting(set, &sk, &mu, &hedged, &mut want).unwrap();
        let mut sig = vec![0u8; set.signature_len()];
        hw.sign_mu(set, &sk, &mu, &hedged, &mut sig).unwrap();
        assert_eq!(sig, want, "{set:?} external μ");
        assert_eq!(hw.last_sign_attempts(), Some(attempts as u32));
        dma += stream(64);
        jobs += 4;
    }
    let stats = hw.stats();
    assert_eq!(
        (stats.hw_calls, stats.sw_calls, stats.jobs),
        (jobs, 0, jobs)
    );
    assert_eq!(stats.dma_bytes, dma);
    assert_eq!(hw.fault(), None);
}

/// `pqc`'s external functions and typed keys on the engine (through
/// `MlDsaOperations`): ML-DSA.Sign / Verify with a context and
/// HashML-DSA with a pre-hash, byte for byte as in software, each call one
/// engine job; a context over 255 bytes is `pqc`'s error before any job.
#[test]
fn pqc_external_functions_and_typed_keys_run_on_the_engine() {
    use pqc::mldsa::{ml_dsa_65, MlDsaOperations, PreHash};
    let pl = Pl::new();
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    let set = ParameterSet::MlDsa44;
    let (pk, sk) = software_keys(set, &[0x61; 32]);
    let rnd = [0x17; 32];
    let (msg, ctx) = (b"signed on the engine".as_slice(), b"ctx".as_slice());
    let mut sig = vec![0u8; set.signature_len()];
    let mut want = vec![0u8; set.signature_len()];

    MlDsaOperations::sign(&mut hw, set, &sk, msg, ctx, &rnd, &mut sig).unwrap();
    pqc::mldsa::sign(set, &sk, msg, ctx, &rnd, &mut want).unwrap();
    assert_eq!(sig, want, "ML-DSA.Sign with a context");
    assert!(hw.last_sign_attempts().is_some(), "signed on the engine");
    MlDsaOperations::verify(&mut hw, set, &pk, msg, ctx, &sig).unwrap();
    assert_eq!(
        MlDsaOperations::verify(&mut hw, set, &pk, msg, b"other", &sig),
        pqc::mldsa::verify(set, &pk, msg, b"other", &sig)
    );

    for ph in [PreHash::Sha2_256, PreHash::Shake128, PreHash::Sha3_512] {
        MlDsaOperations::hash_sign(&mut hw, set, &sk, msg, ctx, ph, &rnd, &mut sig).unwrap();
        pqc::mldsa::hash_sign(set, &sk, msg, ctx, ph, &rnd, &mut want).unwrap();
        assert_eq!(sig, want, "HashML-DSA {ph:?}");
        MlDsaOperations::hash_verify(&mut hw, set, &pk, msg, ctx, ph, &sig).unwrap();
    }
    let jobs = hw.stats().jobs;
    assert_eq!((hw.stats().hw_calls, hw.stats().sw_calls), (jobs, 0));
    assert_eq!(jobs, 9, "every call was one engine job");

    let long_ctx = [0u8; 256];
    assert_eq!(
        MlDsaOperations::sign(&mut hw, set, &sk, msg, &long_ctx, &rnd, &mut sig),
        Err(pqc::Error::ContextTooLong { got: 256 })
    );
    assert_eq!(hw.stats().jobs, jobs, "refused before any job");

    // The typed keys of ML-DSA-65 on the engine.
    let key = ml_dsa_65::SigningKey::from_seed_on(&mut hw, &[0x62; 32]).unwrap();
    let soft = ml_dsa_65::SigningKey::from_seed(&[0x62; 32]);
    assert_eq!(key.as_bytes(), soft.as_bytes());
    let vk = key.verifying_key();
    let typed = key.sign_with_context_on(&mut hw, msg, ctx, &rnd).unwrap();
    assert_eq!(typed, soft.sign_with_context(msg, ctx, &rnd).unwrap());
    vk.verify_with_context_on(&mut hw, msg, ctx, &typed)
        .unwrap();
    let typed = key
        .hash_sign_on(&mut hw, msg, b"", PreHash::Sha2_512, &rnd)
        .unwrap();
    assert_eq!(
        typed,
        soft.hash_sign(msg, b"", PreHash::Sha2_512, &rnd).unwrap()
    );
    vk.hash_verify_on(&mut hw, msg, b"", PreHash::Sha2_512, &typed)
        .unwrap();
    let mu = vk.external_mu(msg, ctx).unwrap();
    let typed = key.sign_mu_on(&mut hw, &mu, &rnd).unwrap();
    vk.verify_mu_on(&mut hw, &mu, &typed).unwrap();
    vk.verify_with_context(msg, ctx, &typed).unwrap();
    assert_eq!(hw.stats().jobs, jobs + 7);
    assert_eq!(hw.stats().sw_calls, 0);
    assert_eq!(hw.fault(), None);
}

/// Every fault in the middle of a signature gives `pqc`'s σ by the
/// software fallback, is recorded as a failed job (aborted, DMA reset),
/// and the engine is kept and signs the next call: a core that never
/// shows DONE, a DMA slave error, an output stream one word short, `TLAST`
/// one word early, non-zero pad bytes, a σ word corrupted on its way (the
/// check word catches it), and `STATUS_ERROR` with no σ (a refusal of a
/// key `pqc` signs with).
#[test]
fn hw_mldsa_sign_falls_back_on_every_fault_and_recovers() {
    // ML-DSA-65: its σ (3,309 bytes) ends with three pad bytes.
    let set = ParameterSet::MlDsa65;
    let (_, sk) = software_keys(set, &[8; 32]);
    let msg = b"a message of 27 bytes, no c";
    let rnd = [0x11; 32];
    let (want, attempts) = software_signature(set, &sk, msg, &rnd);
    for fault in [
        Fault::Hang,
        Fault::SlaveError,
        Fault::BadOutput,
        Fault::EarlyLast,
        Fault::NonZeroPad,
        Fault::CorruptWord,
        Fault::StatusError,
    ] {
        let pl = Pl::new();
        pl.borrow_mut().inject_once(Which::MlDsa, fault, 1);
        let mut m = mldsa_arena();
        let mut hw = model::mldsa(&pl, &mut m);
        for call in 0..3 {
            let mut sig = vec![0u8; set.signature_len()];
            hw.sign_internal(set, &sk, msg, &rnd, &mut sig)
                .unwrap_or_else(|e| panic!("{fault:?} call {call}: {e:?}"));
            assert_eq!(sig, want, "{fault:?} call {call}");
            let on_engine = (call != 1).then_some(attempts);
            assert_eq!(hw.last_sign_attempts(), on_engine, "{fault:?} call {call}");
        }
        let stats = hw.stats();
        assert!(!hw.abandoned(), "{fault:?}: the engine is kept");
        assert_eq!((stats.failed_jobs, stats.hw_calls), (1, 2), "{fault:?}");
        let recorded = hw.fault().expect("recorded");
        match fault {
            Fault::Hang => assert!(matches!(
                recorded,
                AccelError::Dma(DmaError::Timeout { .. })
            )),
            Fault::SlaveError => {
                assert!(matches!(recorded, AccelError::Dma(DmaError::Device { .. })))
            }
            Fault::BadOutput | Fault::EarlyLast => {
                assert!(matches!(recorded, AccelError::ShortStream { .. }))
            }
            Fault::NonZeroPad => assert!(matches!(recorded, AccelError::BadPadding { .. })),
            Fault::CorruptWord => assert!(matches!(recorded, AccelError::BadCheck { .. })),
            _ => assert!(
                matches!(recorded, AccelError::Refused { op, .. } if op == ps_pl_contract::regmap::mldsa::OP_SIGN)
            ),
        }
    }
}

/// A malformed sk (an s1 coefficient out of range) gives `pqc`'s error:
/// the engine refuses it, which ends the job at once, and `pqc` refusing
/// it too makes that no fault.
/// Buffers of the wrong size are refused before anything runs; an engine
/// whose CONFIG has no sign bit is never sent OP_SIGN; a persistent fault
/// abandons the engine and a wrong ID means software at once, each with
/// `pqc`'s σ.
#[test]
fn hw_mldsa_sign_refuses_bad_keys_and_buffers_and_abandons_a_broken_engine() {
    use ps_pl_contract::regmap::mldsa as mreg;
    let set = ParameterSet::MlDsa44;
    let (_, sk) = software_keys(set, &[4; 32]);
    let msg = b"bad input";
    let rnd = [0u8; 32];
    let (want, _) = software_signature(set, &sk, msg, &rnd);
    let pl = Pl::new();
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    let mut bad_sk = sk.clone();
    bad_sk[128] |= 0x07; // s1[0][0] = η − 7 < −η
    let mut sig = vec![0u8; set.signature_len()];
    let pqc_error = pqc::mldsa::sign_internal(set, &bad_sk, msg, &rnd, &mut sig);
    assert!(pqc_error.is_err());
    let mut sig = vec![0u8; set.signature_len()];
    assert_eq!(
        hw.sign_internal(set, &bad_sk, msg, &rnd, &mut sig),
        pqc_error
    );
    assert_eq!(hw.last_sign_attempts(), None);
    assert_eq!(hw.fault(), None, "a refused malformed key is no fault");
    assert_eq!(hw.stats().failed_jobs, 0);
    hw.sign_internal(set, &sk, msg, &rnd, &mut sig).unwrap();
    assert_eq!(sig, want);
    assert_eq!(hw.stats().hw_calls, 2);
    let before = pl.borrow_mut().accesses(Which::MlDsa);
    let mut short = vec![0u8; set.signature_len() - 1];
    assert!(hw.sign_internal(set, &sk, msg, &rnd, &mut short).is_err());
    assert!(hw.sign_mu(set, &sk[1..], &[0; 64], &rnd, &mut sig).is_err());
    assert_eq!(pl.borrow_mut().accesses(Which::MlDsa), before);

    let pl = Pl::new();
    pl.borrow_mut()
        .set_config(Which::MlDsa, mreg::CONFIG_KEYGEN | mreg::CONFIG_VERIFY);
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    let mut sig = vec![0u8; set.signature_len()];
    hw.sign_internal(set, &sk, msg, &rnd, &mut sig).unwrap();
    assert_eq!(sig, want);
    let stats = hw.stats();
    assert_eq!((stats.jobs, stats.hw_calls, stats.sw_calls), (0, 0, 1));
    assert_eq!(pl.borrow_mut().accesses(Which::MlDsa).1, 0, "no DMA");
    assert_eq!((hw.fault(), hw.last_sign_attempts()), (None, None));

    let pl = Pl::new();
    pl.borrow_mut().inject(Which::MlDsa, Fault::Hang, 0);
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    for _ in 0..super::FAILED_JOBS_BEFORE_SOFTWARE + 2 {
        let mut sig = vec![0u8; set.signature_len()];
        hw.sign_internal(set, &sk, msg, &rnd, &mut sig).unwrap();
        assert_eq!(sig, want);
    }
    assert!(hw.abandoned());
    assert_eq!(
        hw.stats().failed_jobs,
        u64::from(super::FAILED_JOBS_BEFORE_SOFTWARE)
    );

    let pl = Pl::new();
    pl.borrow_mut().inject(Which::MlDsa, Fault::WrongId, 0);
    let mut m = mldsa_arena();
    let mut hw = model::mldsa(&pl, &mut m);
    let mut sig = vec![0u8; set.signature_len()];
    hw.sign_internal(set, &sk, msg, &rnd, &mut sig).unwrap();
    assert_eq!(sig, want);
    assert!(matches!(hw.fault(), Some(AccelError::WrongId { .. })));
    assert_eq!(hw.stats().sw_calls, 1);
}
