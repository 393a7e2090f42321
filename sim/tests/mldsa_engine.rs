//! The driver's ML-DSA engine backend (`driver::accel::HwMlDsa`, unmodified)
//! against the exported ML-DSA engine top under Verilator, through the
//! PG021 DMA model and the DDR and cache models (`sim::cosim`): KeyGen,
//! Sign and Verify of the NIST ACVP cases of every set, equal to `pqc`
//! (keys and signatures byte for byte, signing attempts too); then the
//! faults of the bus (a DMA slave error, and a transfer that never
//! completes, on an operation's transfers), each ending in `pqc`'s result
//! by the software fallback, and the engine usable again after them.

use driver::dma::Channel;
use driver::host::DmaFault;
use hdl::mldsa::verify::pure_m_prime;
use pqc::mldsa::{keygen_internal, ParameterSet};
use sha3::{Digest, Sha3_256};
use sim::cosim::{software_signature, Arena, Config, Pl, MLDSA_BUFFER_BYTES};

const SETS: [ParameterSet; 3] = [
    ParameterSet::MlDsa44,
    ParameterSet::MlDsa65,
    ParameterSet::MlDsa87,
];

fn software_keys(set: ParameterSet, xi: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    let mut pk = vec![0u8; set.public_key_len()];
    let mut sk = vec![0u8; set.secret_key_len()];
    keygen_internal(set, xi, &mut pk, &mut sk).unwrap();
    (pk, sk)
}

#[test]
fn hw_mldsa_keygen_runs_acvp_cases_on_the_engine_byte_identical() {
    if !hdl::verilator::verilator_required("hw_mldsa_keygen co-simulation") {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    for (i, case) in pqc_selftest::vectors::ML_DSA.iter().enumerate() {
        let set = SETS[i];
        let before = pl.mldsa_unit().unwrap().borrow().counts();
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        hw.keygen_internal(set, &case.keygen.seed, &mut pk, &mut sk)
            .unwrap();
        let after = pl.mldsa_unit().unwrap().borrow().counts();
        assert_eq!(hw.fault(), None, "{}", case.name);
        assert_eq!(
            hw.stats().hw_calls,
            i as u64 + 1,
            "{}: ran on the engine",
            case.name
        );
        assert_eq!(
            Sha3_256::digest(&pk)[..],
            case.keygen.pk_sha3_256[..],
            "{} pk",
            case.name
        );
        assert_eq!(
            Sha3_256::digest(&sk)[..],
            case.keygen.sk_sha3_256[..],
            "{} sk",
            case.name
        );
        assert_eq!(
            (pk.clone(), sk.clone()),
            software_keys(set, &case.keygen.seed)
        );
        let cycles = after.pl_cycles - before.pl_cycles;
        // The engine's own clocks, plus ξ, plus the bus: never less.
        assert!(cycles > hw.stats().last_cycles as u64, "{cycles}");
        eprintln!(
            "{}: keygen at the bus {} PL cycles (engine CYCLES {}), {} register accesses, {} DMA bytes",
            case.name,
            cycles,
            hw.stats().last_cycles,
            after.axi_lite() - before.axi_lite(),
            after.dma_bytes() - before.dma_bytes()
        );
    }
    assert!(pl.errors().is_empty(), "{:?}", pl.errors());
}

#[test]
fn hw_mldsa_keygen_survives_bus_faults_with_the_right_keys() {
    if !hdl::verilator::verilator_required("hw_mldsa_keygen faults") {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    let unit = pl.mldsa_unit().unwrap();
    let set = ParameterSet::MlDsa44;
    let faults = [DmaFault::SlaveError(None), DmaFault::NeverCompletes];
    for (round, fault) in faults.into_iter().enumerate() {
        let xi = [round as u8 + 1; 32];
        // The next job's first LENGTH write (S2MM is armed first) fails.
        let done = unit.borrow().counts().dma_transfers;
        unit.borrow_mut().dma().inject(fault, done);
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        hw.keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
        assert_eq!(
            (pk, sk),
            software_keys(set, &xi),
            "{fault:?}: software fallback"
        );
        assert!(hw.stats().failed_jobs > round as u64, "{fault:?}: counted");
        unit.borrow_mut().dma().set_now(None);
    }
    assert!(hw.fault().is_some());
    assert!(!hw.abandoned(), "two failures are below the abandon limit");
    // The engine works again once the bus does.
    let xi = [0x77; 32];
    let calls = hw.stats().hw_calls;
    let mut pk = vec![0u8; set.public_key_len()];
    let mut sk = vec![0u8; set.secret_key_len()];
    hw.keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
    assert_eq!(hw.stats().hw_calls, calls + 1, "back on the engine");
    assert_eq!((pk, sk), software_keys(set, &xi));
    // Wrong key-buffer sizes are refused before anything runs.
    let mut short = vec![0u8; 10];
    let mut sk = vec![0u8; set.secret_key_len()];
    assert!(hw.keygen_internal(set, &xi, &mut short, &mut sk).is_err());
}

/// Verify of the NIST ACVP sigVer cases of every set (valid and invalid)
/// through the driver on the exported engine top: the result equals
/// `pqc`'s, the valid ones on the engine alone (one job, no fallback).
#[test]
fn hw_mldsa_verify_runs_acvp_cases_on_the_engine_like_pqc() {
    if !hdl::verilator::verilator_required("hw_mldsa_verify co-simulation") {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    let unit = pl.mldsa_unit().unwrap();
    for (i, vectors) in pqc_selftest::vectors::ML_DSA.iter().enumerate() {
        let set = SETS[i];
        for case in &vectors.sigver {
            let m = pure_m_prime(case.message, case.context);
            let before = unit.borrow().counts();
            let jobs = hw.stats().jobs;
            let got = hw.verify_internal(set, case.pk, &m, case.signature);
            let after = unit.borrow().counts();
            let want = pqc::mldsa::verify_internal(set, case.pk, &m, case.signature);
            assert_eq!(got, want, "{} tcId {}", vectors.name, case.tc_id);
            assert_eq!(want.is_ok(), case.valid);
            assert_eq!(
                hw.stats().jobs,
                jobs + 1,
                "{}: one engine job",
                vectors.name
            );
            eprintln!(
                "{} tcId {} ({}): verify at the bus {} PL cycles (engine CYCLES {}), {} DMA bytes",
                vectors.name,
                case.tc_id,
                if case.valid { "valid" } else { "invalid" },
                after.pl_cycles - before.pl_cycles,
                hw.stats().last_cycles,
                after.dma_bytes() - before.dma_bytes()
            );
        }
    }
    assert_eq!(hw.fault(), None);
    assert_eq!(hw.stats().sw_calls, 0);
    assert!(pl.errors().is_empty(), "{:?}", pl.errors());
}

/// A DMA slave error and a transfer that never completes, each on a
/// verification's transfers: `pqc`'s result by the fallback, and the
/// engine verifies again once the bus works.
#[test]
fn hw_mldsa_verify_survives_bus_faults_with_the_right_verdict() {
    if !hdl::verilator::verilator_required("hw_mldsa_verify faults") {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    let unit = pl.mldsa_unit().unwrap();
    let case = &pqc_selftest::vectors::ML_DSA[0].sigver[0];
    let set = ParameterSet::MlDsa44;
    let m = pure_m_prime(case.message, case.context);
    for (round, fault) in [DmaFault::SlaveError(None), DmaFault::NeverCompletes]
        .into_iter()
        .enumerate()
    {
        let done = unit.borrow().counts().dma_transfers;
        // The MM2S transfer (the second LENGTH write) of the next job.
        unit.borrow_mut().dma().inject(fault, done + 1);
        hw.verify_internal(set, case.pk, &m, case.signature)
            .unwrap_or_else(|e| panic!("{fault:?}: {e:?}"));
        assert!(hw.stats().failed_jobs > round as u64, "{fault:?}: counted");
        unit.borrow_mut().dma().set_now(None);
    }
    assert!(hw.fault().is_some());
    assert!(!hw.abandoned());
    let calls = hw.stats().hw_calls;
    hw.verify_internal(set, case.pk, &m, case.signature)
        .unwrap();
    assert_eq!(hw.stats().hw_calls, calls + 1, "back on the engine");
}

/// Sign of the NIST ACVP sigGen case of every set (deterministic, M′ of
/// the external interface) through the driver on the exported engine
/// top: the ACVP signature byte for byte, the engine's attempts equal to
/// `pqc::mldsa::sign_mu_counting`'s, one job each; then the report's
/// workload (`sim::cosim::run_engine_sign`) of every set, equal to `pqc`.
#[test]
fn hw_mldsa_sign_runs_acvp_siggen_on_the_engine_byte_identical() {
    if !hdl::verilator::verilator_required("hw_mldsa_sign co-simulation") {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    let unit = pl.mldsa_unit().unwrap();
    for (i, vectors) in pqc_selftest::vectors::ML_DSA.iter().enumerate() {
        let set = SETS[i];
        let case = &vectors.siggen;
        let m = pure_m_prime(case.message, case.context);
        let (want, attempts) = software_signature(set, case.sk, &m, &[0; 32]).unwrap();
        assert_eq!(want, case.signature, "{}: pqc", vectors.name);
        let before = unit.borrow().counts();
        let mut sig = vec![0u8; set.signature_len()];
        hw.sign_internal(set, case.sk, &m, &[0; 32], &mut sig)
            .unwrap();
        let after = unit.borrow().counts();
        assert_eq!(hw.fault(), None, "{}", vectors.name);
        assert_eq!(
            (hw.stats().jobs, hw.stats().hw_calls),
            (i as u64 + 1, i as u64 + 1),
            "{}: one engine job",
            vectors.name
        );
        assert_eq!(sig, case.signature, "{} tcId {}", vectors.name, case.tc_id);
        assert_eq!(hw.last_sign_attempts(), Some(attempts), "{}", vectors.name);
        let cycles = after.pl_cycles - before.pl_cycles;
        assert!(cycles > hw.stats().last_cycles as u64, "{cycles}");
        eprintln!(
            "{} ACVP sigGen tcId {}: {attempts} attempts, sign at the bus {cycles} PL cycles (engine CYCLES {}), {} register accesses, {} DMA bytes",
            vectors.name,
            case.tc_id,
            hw.stats().last_cycles,
            after.axi_lite() - before.axi_lite(),
            after.dma_bytes() - before.dma_bytes()
        );
    }
    assert_eq!(hw.stats().sw_calls, 0);
    for set in SETS {
        let o = sim::cosim::run_engine_sign(&pl, set, sim::workload::MESSAGE).unwrap();
        assert!(o.identical, "{set:?}: the report workload equals pqc");
        eprintln!(
            "{set:?} report workload: sign at the bus {} PL cycles (engine CYCLES {}), {} attempts, {} register accesses, {} DMA bytes, {} cache lines",
            o.counts.pl_cycles,
            o.counts.core_busy_cycles,
            o.attempts.unwrap(),
            o.counts.axi_lite(),
            o.counts.dma_bytes(),
            o.counts.cache_lines
        );
    }
    assert!(pl.errors().is_empty(), "{:?}", pl.errors());
}

/// A DMA slave error on a signature's transfers, with the engine busy
/// signing (S2MM refused, the input already streaming) and with it
/// waiting for its input (MM2S refused): `pqc`'s σ by the fallback, the
/// engine aborted and kept, and it signs again once the bus works.
#[test]
fn hw_mldsa_sign_survives_bus_faults_with_the_right_signature() {
    if !hdl::verilator::verilator_required("hw_mldsa_sign faults") {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    let unit = pl.mldsa_unit().unwrap();
    let set = ParameterSet::MlDsa44;
    let (_, sk) = software_keys(set, &[0x2B; 32]);
    let m = pure_m_prime(b"signed while the bus fails", b"");
    let rnd = [0x5C; 32];
    let (want, attempts) = software_signature(set, &sk, &m, &rnd).unwrap();
    // S2MM is armed first (transfer `done`), then MM2S (`done + 1`).
    for (round, (channel, nth)) in [(Channel::S2mm, 0), (Channel::Mm2s, 1)]
        .into_iter()
        .enumerate()
    {
        let done = unit.borrow().counts().dma_transfers;
        unit.borrow_mut()
            .dma()
            .inject(DmaFault::SlaveError(Some(channel)), done + nth);
        let mut sig = vec![0u8; set.signature_len()];
        hw.sign_internal(set, &sk, &m, &rnd, &mut sig)
            .unwrap_or_else(|e| panic!("{channel:?}: {e:?}"));
        assert_eq!(sig, want, "{channel:?}: software fallback");
        assert_eq!(hw.last_sign_attempts(), None, "{channel:?}");
        assert_eq!(hw.stats().failed_jobs, round as u64 + 1, "{channel:?}");
        unit.borrow_mut().dma().set_now(None);
    }
    assert!(hw.fault().is_some());
    assert!(!hw.abandoned(), "two failures are below the abandon limit");
    let calls = hw.stats().hw_calls;
    let mut sig = vec![0u8; set.signature_len()];
    hw.sign_internal(set, &sk, &m, &rnd, &mut sig).unwrap();
    assert_eq!(hw.stats().hw_calls, calls + 1, "back on the engine");
    assert_eq!(sig, want);
    assert_eq!(hw.last_sign_attempts(), Some(attempts));
    assert!(pl.errors().is_empty(), "{:?}", pl.errors());
}

/// A DMA error in the middle of a signature: S2MM, armed for σ, stops with
/// DMASlvErr 100,000 PL cycles into the job, with the engine busy several
/// attempts into its rejection loop. The driver sees the error while it
/// waits, aborts the busy engine, resets the DMA and signs in software:
/// `pqc`'s σ. The engine then signs the same input itself, and its own
/// run shows the fault came before the job's end.
#[test]
fn hw_mldsa_sign_survives_a_dma_error_several_attempts_in() {
    if !hdl::verilator::verilator_required("hw_mldsa_sign mid-signature fault") {
        return;
    }
    const FAULT_AT: u64 = 100_000;
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    let unit = pl.mldsa_unit().unwrap();
    let set = ParameterSet::MlDsa44;
    let (_, sk) = software_keys(set, &[0x3C; 32]);
    let m = pure_m_prime(b"a DMA error several attempts in", b"");
    // The first rnd whose signature takes at least 5 attempts (about
    // 35,000 clocks each), so the fault lands inside the loop.
    let (rnd, want, attempts) = (0u8..=255)
        .map(|b| {
            let rnd = [b; 32];
            let (sig, attempts) = software_signature(set, &sk, &m, &rnd).unwrap();
            (rnd, sig, attempts)
        })
        .find(|(_, _, attempts)| *attempts >= 5)
        .expect("some rnd needs 5 attempts");

    let done = unit.borrow().counts().dma_transfers;
    unit.borrow_mut()
        .dma()
        .inject(DmaFault::SlaveErrorAfter(Channel::S2mm, FAULT_AT), done);
    let before = unit.borrow().counts();
    let mut sig = vec![0u8; set.signature_len()];
    hw.sign_internal(set, &sk, &m, &rnd, &mut sig).unwrap();
    let faulted_cycles = unit.borrow().counts().pl_cycles - before.pl_cycles;
    assert_eq!(sig, want, "software fallback");
    assert_eq!(hw.last_sign_attempts(), None);
    assert_eq!(hw.stats().failed_jobs, 1);
    assert!(hw.fault().is_some());
    assert!(!hw.abandoned());

    let before = unit.borrow().counts();
    hw.sign_internal(set, &sk, &m, &rnd, &mut sig).unwrap();
    let clean_cycles = unit.borrow().counts().pl_cycles - before.pl_cycles;
    assert_eq!(sig, want, "on the engine after the abort");
    assert_eq!(hw.last_sign_attempts(), Some(attempts));
    assert_eq!(hw.stats().failed_jobs, 1, "no new failure");
    let engine_cycles = u64::from(hw.stats().last_cycles);
    assert!(
        FAULT_AT < engine_cycles && faulted_cycles < clean_cycles,
        "the fault at {FAULT_AT} came inside the job ({engine_cycles} engine clocks); \
         the faulted call took {faulted_cycles} PL cycles, the clean one {clean_cycles}"
    );
    eprintln!(
        "ML-DSA-44 sign of {attempts} attempts ({engine_cycles} engine clocks): DMA error at \
         {FAULT_AT} cycles, the faulted call (abort, reset, software) {faulted_cycles} PL cycles, \
         the clean call {clean_cycles}"
    );
    assert!(pl.errors().is_empty(), "{:?}", pl.errors());
}
