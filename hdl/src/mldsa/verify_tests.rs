//! rust-hdl simulation tests of the Verify sequencer on its cores
//! ([`MlDsaEngine`] with `op_verify`): whole verifications
//! against `pqc` (ACVP sigVer, valid and invalid), every early reject and
//! refusal, abort. The exported RTL runs the same cases for all three sets
//! in `verilator_check`, where a verification is a fraction of a second.

use super::engine::MlDsaEngine;
use super::keygen::SETS;
use super::verify::*;
use crate::ntt::sim::{settle, tick};
use pqc::mldsa::ParameterSet;
use rust_hdl::prelude::*;

/// What a verification ended with.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub(crate) struct VerifyOutcome {
    pub accepted: bool,
    pub error: bool,
    /// Clocks from the start clock to the clock `done` is seen.
    pub clocks: usize,
}

pub(crate) const PARAMETER_SETS: [ParameterSet; 3] = [
    ParameterSet::MlDsa44,
    ParameterSet::MlDsa65,
    ParameterSet::MlDsa87,
];

/// Input rows (as the Verilator testbench takes them) and output lines (as
/// it prints them) of a run of the model, for the RTL cross-check.
#[derive(Default)]
pub(crate) struct Trace {
    pub rows: Vec<Vec<u64>>,
    pub lines: Vec<String>,
    /// The sampling ring's protocol, checked on every clock.
    pub ring: crate::mldsa::engine::RingScoreboard,
}

/// Input ports in row order.
pub(crate) const INPUTS: [&str; 10] = [
    "reset",
    "start",
    "parameter_set",
    "external_mu",
    "msg_bytes",
    "abort_job",
    "s_data",
    "s_valid",
    "s_last",
    "op_verify",
];
/// Output ports in line order.
pub(crate) const OUTPUTS: [&str; 5] = ["busy", "done", "error", "verdict", "s_ready"];

impl Trace {
    /// Drives one row into the model, clocks it and records both sides.
    fn step(&mut self, uut: &mut MlDsaEngine, row: [u64; 9]) {
        let row = [
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], 1,
        ];
        uut.op_verify.next = true;
        uut.reset.next = row[0] != 0;
        uut.start.next = row[1] != 0;
        uut.parameter_set.next = row[2].into();
        uut.external_mu.next = row[3] != 0;
        uut.msg_bytes.next = row[4].into();
        uut.abort_job.next = row[5] != 0;
        uut.s_data.next = row[6].into();
        uut.s_valid.next = row[7] != 0;
        uut.s_last.next = row[8] != 0;
        tick(uut, |u| &mut u.clock);
        self.ring.observe(uut);
        let out = [
            uut.busy.val(),
            uut.done.val(),
            uut.error.val(),
            uut.verdict.val(),
            uut.s_ready.val(),
        ];
        let out: Vec<String> = out.iter().map(|&b| format!("{:x}", u64::from(b))).collect();
        self.rows.push(row.to_vec());
        self.lines.push(out.join(" "));
    }
}

/// A model after a reset clock (recorded in `trace`).
fn engine_traced(trace: &mut Trace) -> MlDsaEngine {
    let mut uut = MlDsaEngine::default();
    uut.connect_all();
    settle(&mut uut);
    trace.step(&mut uut, [1, 0, 0, 0, 0, 0, 0, 0, 0]);
    uut.reset.next = false;
    uut
}

fn engine() -> MlDsaEngine {
    engine_traced(&mut Trace::default())
}

/// One verification: `words` on the input stream (`last` on `last_at`)
/// from a source that offers a word on every clock except every
/// `stall`-th (none when 0), recorded in `trace`; `abort_at` raises
/// `abort_job` on that clock.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_traced(
    uut: &mut MlDsaEngine,
    trace: &mut Trace,
    set: usize,
    external_mu: bool,
    msg_bytes: u64,
    words: &[u32],
    last_at: usize,
    stall: usize,
    abort_at: Option<usize>,
    limit: usize,
) -> VerifyOutcome {
    let (set, ext) = (set as u64, u64::from(external_mu));
    trace.step(uut, [0, 1, set, ext, msg_bytes, 0, 0, 0, 0]);
    let mut sent = 0;
    for clocks in 1..limit {
        settle(uut);
        if uut.done.val() {
            return VerifyOutcome {
                accepted: uut.verdict.val(),
                error: uut.error.val(),
                clocks,
            };
        }
        let offered = sent < words.len() && (stall == 0 || clocks % stall != 0);
        let data = u64::from(*words.get(sent).unwrap_or(&0));
        let abort = u64::from(abort_at == Some(clocks));
        let row = [
            0,
            0,
            set,
            ext,
            msg_bytes,
            abort,
            data,
            u64::from(offered),
            u64::from(offered && sent == last_at),
        ];
        // The word goes on this clock's edge if the engine is ready for it
        // with these inputs.
        uut.s_valid.next = offered;
        uut.s_data.next = data.into();
        uut.s_last.next = offered && sent == last_at;
        uut.abort_job.next = abort != 0;
        settle(uut);
        let taken = offered && uut.s_ready.val();
        trace.step(uut, row);
        if taken {
            sent += 1;
        }
    }
    panic!("no verdict within {limit} clocks");
}

fn run(
    uut: &mut MlDsaEngine,
    set: usize,
    external_mu: bool,
    msg_bytes: u64,
    words: &[u32],
    last_at: usize,
    limit: usize,
) -> VerifyOutcome {
    let mut trace = Trace::default();
    run_traced(
        uut,
        &mut trace,
        set,
        external_mu,
        msg_bytes,
        words,
        last_at,
        0,
        None,
        limit,
    )
}

fn run_case(uut: &mut MlDsaEngine, set: usize, pk: &[u8], sig: &[u8], m: &[u8]) -> VerifyOutcome {
    let words = verify_stream(pk, sig, m);
    assert_eq!(words.len(), verify_stream_words(&SETS[set], false, m.len()));
    let last = words.len() - 1;
    run(uut, set, false, m.len() as u64, &words, last, 200_000)
}

#[test]
fn verify_engine_matches_acvp_sigver_on_mldsa44() {
    let mut uut = engine();
    for case in &pqc_selftest::vectors::ML_DSA[0].sigver {
        let m = pure_m_prime(case.message, case.context);
        let expected = pqc::mldsa::verify_internal(PARAMETER_SETS[0], case.pk, &m, case.signature);
        assert_eq!(expected.is_ok(), case.valid, "pqc on tcId {}", case.tc_id);
        let got = run_case(&mut uut, 0, case.pk, case.signature, &m);
        assert!(!got.error, "tcId {}: {got:?}", case.tc_id);
        assert_eq!(got.accepted, case.valid, "tcId {}: {got:?}", case.tc_id);
        eprintln!("ML-DSA-44 tcId {}: {got:?}", case.tc_id);
    }
}

/// A fresh key pair and signature of `pqc`, with M′ (`msg_len` + 5
/// bytes: a 3-byte context) and μ.
pub(crate) fn signed(
    set: usize,
    seed: u8,
    msg_len: usize,
) -> (Vec<u8>, Vec<u8>, Vec<u8>, [u8; 64]) {
    let p = &SETS[set];
    let ps = PARAMETER_SETS[set];
    let (mut pk, mut sk) = (vec![0u8; p.pk_len()], vec![0u8; p.sk_len()]);
    pqc::mldsa::keygen_internal(ps, &[seed; 32], &mut pk, &mut sk).unwrap();
    let msg: Vec<u8> = (0..msg_len)
        .map(|i| (i as u8).wrapping_mul(seed | 1))
        .collect();
    let m = pure_m_prime(&msg, b"ctx");
    let mut sig = vec![0u8; p.sig_len()];
    pqc::mldsa::sign_internal(ps, &sk, &m, &[seed ^ 0x5A; 32], &mut sig).unwrap();
    let mu = pqc::mldsa::external_mu(ps, &pk, &msg, b"ctx").unwrap();
    assert!(pqc::mldsa::verify_mu(ps, &pk, &mu, &sig).is_ok());
    (pk, sig, m, mu)
}

/// Every reject of Algorithm 8 that needs the whole datapath: a message
/// changed after signing (c̃′ ≠ c̃) and a z coefficient at γ1 (‖z‖∞ too
/// large, with c̃ intact); and the valid signature through M′ (of a length
/// that is not a multiple of 4) and through an external μ.
#[test]
fn verify_engine_matches_pqc_on_fresh_signatures_and_their_forgeries() {
    let mut uut = engine();
    let p = &SETS[0];
    let (pk, sig, m, mu) = signed(0, 3, 32);
    let got = run_case(&mut uut, 0, &pk, &sig, &m);
    assert!(got.accepted && !got.error, "valid: {got:?}");
    assert!(!uut.verify.z_out_of_range());

    let words = verify_stream(&pk, &sig, &mu);
    let mu_got = run(&mut uut, 0, true, 0, &words, words.len() - 1, 200_000);
    assert!(mu_got.accepted && !mu_got.error, "external μ: {mu_got:?}");

    let mut other = m.clone();
    other[5] ^= 1;
    assert!(pqc::mldsa::verify_internal(PARAMETER_SETS[0], &pk, &other, &sig).is_err());
    let got = run_case(&mut uut, 0, &pk, &sig, &other);
    assert!(!got.accepted && !got.error, "changed message: {got:?}");

    // z[0][0] = γ1 − 0: its packed field is 0 (the first 18 bits after c̃).
    let mut forged = sig.clone();
    let ct = p.ctilde_bytes();
    forged[ct] = 0;
    forged[ct + 1] = 0;
    forged[ct + 2] &= 0xFC;
    assert!(pqc::mldsa::verify_internal(PARAMETER_SETS[0], &pk, &m, &forged).is_err());
    let got = run_case(&mut uut, 0, &pk, &forged, &m);
    assert!(!got.accepted && !got.error, "z out of range: {got:?}");
    assert!(uut.verify.z_out_of_range());
}

/// A hint field that is not canonical is a reject before any arithmetic.
#[test]
fn verify_engine_rejects_a_malformed_hint_field_early() {
    let mut uut = engine();
    let case = &pqc_selftest::vectors::ML_DSA[0].sigver[0];
    let p = &SETS[0];
    let m = pure_m_prime(case.message, case.context);
    let mut sig = case.signature.to_vec();
    // The first count byte above ω.
    sig[p.sig_len() - p.k] = (p.omega + 1) as u8;
    assert!(pqc::mldsa::verify_internal(PARAMETER_SETS[0], case.pk, &m, &sig).is_err());
    let got = run_case(&mut uut, 0, case.pk, &sig, &m);
    assert!(!got.accepted && !got.error, "{got:?}");
    assert!(got.clocks < 3_000, "{got:?}");
}

#[test]
fn verify_engine_refuses_set_3_and_long_messages_at_once() {
    let mut uut = engine();
    for (set, bytes) in [(3, 0), (0, MAX_MSG_BYTES)] {
        let got = run(&mut uut, set, false, bytes, &[], usize::MAX, 10);
        assert!(got.error && !got.accepted && got.clocks == 1, "{got:?}");
    }
}

/// A stream whose `last` comes early (a truncated σ) or not on the
/// declared final word ends in `error`, and the next job is right.
#[test]
fn verify_engine_ends_a_stream_of_the_wrong_length_with_error() {
    let mut uut = engine();
    let case = &pqc_selftest::vectors::ML_DSA[0].sigver[0];
    let p = &SETS[0];
    let m = pure_m_prime(case.message, case.context);
    let words = verify_stream(case.pk, case.signature, &m);
    let pk_words = p.pk_len() / 4;
    for last_at in [100, pk_words + 10, words.len() - 2, words.len()] {
        let got = run(&mut uut, 0, false, m.len() as u64, &words, last_at, 5_000);
        assert!(got.error && !got.accepted, "last at {last_at}: {got:?}");
    }
    // μ declared one word longer than sent: `last` comes one word early.
    let got = run(
        &mut uut,
        0,
        false,
        m.len() as u64 + 4,
        &words,
        words.len() - 1,
        5_000,
    );
    assert!(got.error, "{got:?}");
}

#[test]
fn verify_engine_aborts_from_loading_and_from_the_row_loop() {
    let mut uut = engine();
    let case = &pqc_selftest::vectors::ML_DSA[0].sigver[0];
    let m = pure_m_prime(case.message, case.context);
    let words = verify_stream(case.pk, case.signature, &m);
    let mut trace = Trace::default();
    for abort_at in [30, 2_000, 6_000] {
        let got = run_traced(
            &mut uut,
            &mut trace,
            0,
            false,
            m.len() as u64,
            &words,
            words.len() - 1,
            0,
            Some(abort_at),
            10_000,
        );
        assert!(got.error && !got.accepted, "abort at {abort_at}: {got:?}");
        assert_eq!(got.clocks, abort_at + 1, "abort at {abort_at}");
        tick(&mut uut, |u| &mut u.clock);
        settle(&mut uut);
        assert!(uut.cores_idle(), "abort at {abort_at}");
    }
    // The engine is usable again.
    let got = run_case(&mut uut, 0, case.pk, case.signature, &m);
    assert!(got.accepted && !got.error, "{got:?}");
}

/// Every set on the exported RTL, clock for clock against the model: the
/// ACVP sigVer cases (valid and invalid) of each set, checked against
/// `pqc` on the model; for ML-DSA-44 also an external μ from a stalling
/// source, a truncated stream, and an abort followed by a right verdict.
/// The ACVP valid cases' clocks are [`ACVP_VERIFY_CLOCKS`].
#[test]
fn verify_rtl_equals_the_model_clock_for_clock_on_every_set() {
    use crate::mldsa::verilator_check::verilated_outputs_in;
    use crate::verilator::verilator_required;
    if !verilator_required("verify_rtl_equals_the_model_clock_for_clock_on_every_set") {
        return;
    }
    let mut trace = Trace::default();
    let mut uut = engine_traced(&mut trace);
    let mut traced = |uut: &mut MlDsaEngine, set, ext, msg: u64, words: &[u32], stall, abort| {
        run_traced(
            uut,
            &mut trace,
            set,
            ext,
            msg,
            words,
            words.len() - 1,
            stall,
            abort,
            200_000,
        )
    };
    let mut clocks = [0; 3];
    for set in 0..3 {
        let vectors = &pqc_selftest::vectors::ML_DSA[set];
        assert!(vectors
            .name
            .ends_with(SETS[set].name.trim_start_matches("ML-DSA")));
        for case in &vectors.sigver {
            let m = pure_m_prime(case.message, case.context);
            let want =
                pqc::mldsa::verify_internal(PARAMETER_SETS[set], case.pk, &m, case.signature);
            assert_eq!(want.is_ok(), case.valid);
            let words = verify_stream(case.pk, case.signature, &m);
            let got = traced(&mut uut, set, false, m.len() as u64, &words, 0, None);
            let name = SETS[set].name;
            assert!(
                !got.error && got.accepted == case.valid,
                "{name} tcId {}: {got:?}",
                case.tc_id
            );
            eprintln!(
                "{name} ACVP tcId {} ({}): {} clocks",
                case.tc_id,
                if case.valid { "valid" } else { "invalid" },
                got.clocks
            );
            if case.valid {
                clocks[set] = got.clocks;
            }
        }
    }
    assert_eq!(clocks, ACVP_VERIFY_CLOCKS, "clocks of the ACVP valid cases");
    let (pk, sig, m, mu) = signed(0, 7, 19);
    let words = verify_stream(&pk, &sig, &mu);
    let got = traced(&mut uut, 0, true, 0, &words, 3, None);
    assert!(
        got.accepted && !got.error,
        "external μ, stalling source: {got:?}"
    );
    let mut truncated = verify_stream(&pk, &sig, &m);
    truncated.truncate(400);
    let got = traced(&mut uut, 0, false, m.len() as u64, &truncated, 0, None);
    assert!(got.error, "truncated: {got:?}");
    let words = verify_stream(&pk, &sig, &m);
    let got = traced(&mut uut, 0, false, m.len() as u64, &words, 0, Some(9_000));
    assert!(got.error && got.clocks == 9_001, "abort: {got:?}");
    let got = traced(&mut uut, 0, false, m.len() as u64, &words, 0, None);
    assert!(got.accepted && !got.error, "after the abort: {got:?}");
    // The valid cases loaded its k·l entries of Â from the ring (the
    // scoreboard checked each whole).
    assert!(
        trace.ring.loads >= SETS.iter().map(|p| p.k * p.l).sum::<usize>(),
        "ring loads: {}",
        trace.ring.loads
    );

    let rtl = verilated_outputs_in(
        "mldsa-verify-every-set",
        MlDsaEngine::default(),
        "mldsa_engine",
        &INPUTS,
        &OUTPUTS,
        &trace.rows,
    )
    .unwrap();
    assert_eq!(rtl.len(), trace.lines.len());
    if let Some(c) = (0..rtl.len()).find(|&c| rtl[c] != trace.lines[c]) {
        panic!("clock {c}: RTL {} model {}", rtl[c], trace.lines[c]);
    }
}

#[test]
fn verify_sequencer_yosys_validates() {
    let mut uut = MlDsaVerify::default();
    uut.connect_all();
    yosys_validate("mldsa_verify", &generate_verilog(&uut)).unwrap();
}

/// Clocks per phase of the ML-DSA-44 ACVP valid verification on the
/// rust-hdl model, printed (`cargo test -p hdl --release -- --ignored
/// verify_phase_clocks --nocapture`): where the engine's time goes.
#[test]
#[ignore = "a measurement (10 s of rust-hdl simulation), not a check"]
fn verify_phase_clocks() {
    let mut uut = engine();
    let case = &pqc_selftest::vectors::ML_DSA[0].sigver[0];
    let m = pure_m_prime(case.message, case.context);
    let words = verify_stream(case.pk, case.signature, &m);
    uut.parameter_set.next = 0.into();
    uut.op_verify.next = true;
    uut.msg_bytes.next = (m.len() as u64).into();
    uut.start.next = true;
    tick(&mut uut, |u| &mut u.clock);
    uut.start.next = false;
    let mut clocks = std::collections::BTreeMap::<String, u64>::new();
    let (mut total, mut sent) = (1u64, 0);
    while uut.busy.val() {
        uut.s_valid.next = sent < words.len();
        uut.s_data.next = u64::from(*words.get(sent).unwrap_or(&0)).into();
        uut.s_last.next = sent + 1 == words.len();
        settle(&mut uut);
        if uut.s_ready.val() && sent < words.len() {
            sent += 1;
        }
        *clocks
            .entry(format!("{:?}", uut.verify.phase()))
            .or_default() += 1;
        tick(&mut uut, |u| &mut u.clock);
        total += 1;
    }
    assert!(
        uut.verdict.val() && !uut.error.val(),
        "done {} error {} after {total} clocks",
        uut.done.val(),
        uut.error.val()
    );
    for (phase, n) in &clocks {
        eprintln!(
            "{phase:>10}: {n:>6} clocks ({:.1} %)",
            100.0 * *n as f64 / total as f64
        );
    }
    eprintln!("     total: {total}");
}
