//! rust-hdl simulation test of the Sign sequencer on its cores
//! ([`MlDsaEngine`] with `op_sign`): whole signatures against `pqc` and the
//! exported RTL against the model clock for clock. Every set, bad input
//! and the cycle table run on the Verilated top at the bus
//! (`crate::verilated::tests`), where a signature takes well under a
//! second.

use super::engine::MlDsaEngine;
use super::keygen::SETS;
use super::sign::*;
use super::verify::pure_m_prime;
use super::verify_tests::PARAMETER_SETS;
use crate::ntt::sim::{settle, tick};
use rust_hdl::prelude::*;

/// What a signature ended with.
#[derive(Debug, PartialEq, Eq, Clone)]
pub(crate) struct SignOutcome {
    /// The output stream's words as bytes (σ padded to a word).
    pub sig: Vec<u8>,
    pub error: bool,
    pub attempts: usize,
    /// Clocks from the start clock to the clock `done` is seen.
    pub clocks: usize,
}

/// Input rows (as the Verilator testbench takes them) and output lines (as
/// it prints them) of a run of the model, for the RTL cross-check.
#[derive(Default)]
struct Trace {
    rows: Vec<Vec<u64>>,
    lines: Vec<String>,
    /// The sampling ring's protocol, checked on every clock.
    ring: crate::mldsa::engine::RingScoreboard,
}

/// Input ports in row order.
const INPUTS: [&str; 11] = [
    "reset",
    "start",
    "op_sign",
    "parameter_set",
    "external_mu",
    "msg_bytes",
    "abort_job",
    "s_data",
    "s_valid",
    "s_last",
    "m_ready",
];
/// Output ports in line order.
const OUTPUTS: [&str; 8] = [
    "busy", "done", "error", "attempts", "s_ready", "m_valid", "m_last", "m_data",
];

impl Trace {
    /// Drives one row into the model, clocks it and records both sides.
    fn step(&mut self, uut: &mut MlDsaEngine, row: [u64; 11]) {
        uut.reset.next = row[0] != 0;
        uut.start.next = row[1] != 0;
        uut.op_sign.next = row[2] != 0;
        uut.op_verify.next = false;
        uut.parameter_set.next = row[3].into();
        uut.external_mu.next = row[4] != 0;
        uut.msg_bytes.next = row[5].into();
        uut.abort_job.next = row[6] != 0;
        uut.s_data.next = row[7].into();
        uut.s_valid.next = row[8] != 0;
        uut.s_last.next = row[9] != 0;
        uut.m_ready.next = row[10] != 0;
        tick(uut, |u| &mut u.clock);
        self.ring.observe(uut);
        let out = [
            u64::from(uut.busy.val()),
            u64::from(uut.done.val()),
            u64::from(uut.error.val()),
            uut.attempts.val().to_u64(),
            u64::from(uut.s_ready.val()),
            u64::from(uut.m_valid.val()),
            u64::from(uut.m_last.val()),
            uut.m_data.val().to_u64(),
        ];
        let out: Vec<String> = out.iter().map(|v| format!("{v:x}")).collect();
        self.rows.push(row.to_vec());
        self.lines.push(out.join(" "));
    }
}

/// A model after a reset clock (recorded in `trace`).
fn engine_traced(trace: &mut Trace) -> MlDsaEngine {
    let mut uut = MlDsaEngine::default();
    uut.connect_all();
    settle(&mut uut);
    trace.step(&mut uut, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    uut
}

/// How a run offers its input and takes its output.
#[derive(Clone, Copy)]
struct Drive {
    external_mu: bool,
    msg_bytes: usize,
    /// The source skips every `source_stall`-th clock (never when 0).
    source_stall: usize,
    /// The sink refuses every `sink_stall`-th clock (never when 0).
    sink_stall: usize,
    /// Raise `abort_job` on this clock.
    abort_at: Option<usize>,
}

/// One signature: `words` on the input stream (`last` on the final one),
/// recorded in `trace`.
fn run_sign_traced(
    uut: &mut MlDsaEngine,
    trace: &mut Trace,
    set: usize,
    drive: Drive,
    words: &[u32],
    limit: usize,
) -> SignOutcome {
    let (set, ext, msg) = (
        set as u64,
        u64::from(drive.external_mu),
        drive.msg_bytes as u64,
    );
    trace.step(uut, [0, 1, 1, set, ext, msg, 0, 0, 0, 0, 1]);
    let (mut sent, mut out) = (0, Vec::new());
    for clocks in 1..limit {
        settle(uut);
        if uut.done.val() {
            return SignOutcome {
                sig: out,
                error: uut.error.val(),
                attempts: uut.attempts.val().index(),
                clocks,
            };
        }
        let stalls = |every: usize| every != 0 && clocks % every == 0;
        let offered = sent < words.len() && !stalls(drive.source_stall);
        let ready = !stalls(drive.sink_stall);
        let row = [
            0,
            0,
            1,
            set,
            ext,
            msg,
            u64::from(drive.abort_at == Some(clocks)),
            u64::from(*words.get(sent).unwrap_or(&0)),
            u64::from(offered),
            u64::from(offered && sent + 1 == words.len()),
            u64::from(ready),
        ];
        // What this clock's edge takes, with these inputs.
        uut.s_valid.next = offered;
        uut.s_data.next = row[7].into();
        uut.s_last.next = row[9] != 0;
        uut.m_ready.next = ready;
        uut.abort_job.next = row[6] != 0;
        settle(uut);
        if offered && uut.s_ready.val() {
            sent += 1;
        }
        if ready && uut.m_valid.val() {
            out.extend_from_slice(&(uut.m_data.val().index() as u32).to_le_bytes());
        }
        trace.step(uut, row);
    }
    panic!("no end within {limit} clocks");
}

/// σ as `pqc` gives it, padded to the output stream's whole words.
pub(crate) fn padded(sig: &[u8]) -> Vec<u8> {
    let mut v = sig.to_vec();
    v.resize(sig.len().div_ceil(4) * 4, 0);
    v
}

/// σ and the attempts of `pqc` from μ.
fn pqc_sign_mu(set: usize, sk: &[u8], mu: &[u8; 64], rnd: &[u8; 32]) -> (Vec<u8>, usize) {
    let ps = PARAMETER_SETS[set];
    let mut sig = vec![0u8; SETS[set].sig_len()];
    let attempts = pqc::mldsa::sign_mu_counting(ps, sk, mu, rnd, &mut sig).unwrap();
    (sig, attempts)
}

/// ML-DSA-44 on the rust-hdl model against `pqc`: the NIST ACVP sigGen
/// case (deterministic, M′ of the external interface; 13 attempts), a
/// hedged signature through an external μ from a stalling source into a
/// stalling sink, an abort in the first attempt, a refused set. Then the
/// exported RTL against the model, clock for clock over all of it.
#[test]
fn sign_engine_matches_pqc_and_its_rtl_clock_for_clock() {
    use crate::mldsa::verilator_check::verilated_outputs_in;
    use crate::verilator::verilator_required;
    let mut trace = Trace::default();
    let mut uut = engine_traced(&mut trace);
    let plain = |msg_bytes| Drive {
        external_mu: false,
        msg_bytes,
        source_stall: 0,
        sink_stall: 0,
        abort_at: None,
    };

    let case = &pqc_selftest::vectors::ML_DSA[0].siggen;
    let m = pure_m_prime(case.message, case.context);
    let mut mu = [0u8; 64];
    pqc::mldsa::sample::h(
        &mut pqc::keccak::SoftKeccak,
        &[&case.sk[64..128], &m],
        &mut mu,
    );
    let (want, attempts) = pqc_sign_mu(0, case.sk, &mu, &[0; 32]);
    assert_eq!(&want[..], case.signature, "pqc on tcId {}", case.tc_id);
    let words = sign_stream(case.sk, &[0; 32], &m);
    let got = run_sign_traced(&mut uut, &mut trace, 0, plain(m.len()), &words, 1_000_000);
    eprintln!(
        "ML-DSA-44 sigGen tcId {}: {} attempts, {} clocks",
        case.tc_id, got.attempts, got.clocks
    );
    assert!(!got.error, "ACVP: error");
    assert_eq!(got.sig, padded(&want), "ACVP σ");
    assert_eq!(got.attempts, attempts, "ACVP attempts");
    // Every attempt loaded its l masks from the ring, and the first all
    // k·l entries of Â (the scoreboard checked each whole).
    let p = &SETS[0];
    assert_eq!(
        trace.ring.loads,
        attempts * p.l + p.k * p.l,
        "ring loads of the ACVP signature"
    );

    let ps = PARAMETER_SETS[0];
    let (mut pk, mut sk) = (vec![0u8; SETS[0].pk_len()], vec![0u8; SETS[0].sk_len()]);
    pqc::mldsa::keygen_internal(ps, &[5; 32], &mut pk, &mut sk).unwrap();
    let mu = pqc::mldsa::external_mu(ps, &pk, b"model against RTL", b"").unwrap();
    let rnd = [0x3C; 32];
    let (want, attempts) = pqc_sign_mu(0, &sk, &mu, &rnd);
    let stalled = Drive {
        external_mu: true,
        msg_bytes: 0,
        source_stall: 3,
        sink_stall: 4,
        abort_at: None,
    };
    let words = sign_stream(&sk, &rnd, &mu);
    let got = run_sign_traced(&mut uut, &mut trace, 0, stalled, &words, 1_000_000);
    assert!(!got.error, "hedged, external μ: error");
    assert_eq!(got.sig, padded(&want), "hedged, external μ: σ");
    assert_eq!(got.attempts, attempts, "hedged, external μ: attempts");

    let aborted = Drive {
        abort_at: Some(20_000),
        ..stalled
    };
    let got = run_sign_traced(&mut uut, &mut trace, 0, aborted, &words, 1_000_000);
    assert!(
        got.error && got.sig.is_empty() && got.clocks == 20_001,
        "abort: {got:?}"
    );
    let got = run_sign_traced(&mut uut, &mut trace, 3, stalled, &words, 100);
    assert!(got.error && got.clocks <= 2, "set 3: {got:?}");

    if !verilator_required("sign_engine_matches_pqc_and_its_rtl_clock_for_clock") {
        return;
    }
    let rtl = verilated_outputs_in(
        "mldsa-sign",
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

/// Where a signature's clocks go (ML-DSA-44, a fresh key and message):
/// `cargo test -p hdl --release -- --ignored sign_phase_clocks --nocapture`.
#[test]
#[ignore = "measurement: prints the clocks per phase"]
fn sign_phase_clocks() {
    let ps = PARAMETER_SETS[0];
    let (mut pk, mut sk) = (vec![0u8; SETS[0].pk_len()], vec![0u8; SETS[0].sk_len()]);
    pqc::mldsa::keygen_internal(ps, &[5; 32], &mut pk, &mut sk).unwrap();
    let mu = pqc::mldsa::external_mu(ps, &pk, b"phase clocks", b"").unwrap();
    let (want, attempts) = pqc_sign_mu(0, &sk, &mu, &[0; 32]);
    let words = sign_stream(&sk, &[0; 32], &mu);
    let mut trace = Trace::default();
    let mut uut = engine_traced(&mut trace);
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    // One clock at a time so the phase of every clock is seen.
    let (mut sent, mut out) = (0, Vec::new());
    trace.step(&mut uut, [0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1]);
    let mut clocks = 0;
    while !uut.done.val() {
        *counts.entry(format!("{:?}", uut.sign.phase())).or_default() += 1;
        let offered = sent < words.len();
        uut.s_valid.next = offered;
        uut.s_data.next = u64::from(*words.get(sent).unwrap_or(&0)).into();
        uut.s_last.next = offered && sent + 1 == words.len();
        settle(&mut uut);
        if offered && uut.s_ready.val() {
            sent += 1;
        }
        if uut.m_valid.val() {
            out.extend_from_slice(&(uut.m_data.val().index() as u32).to_le_bytes());
        }
        tick(&mut uut, |u| &mut u.clock);
        settle(&mut uut);
        clocks += 1;
        assert!(clocks < 1_000_000);
    }
    assert_eq!(out, padded(&want));
    eprintln!("ML-DSA-44: {attempts} attempts, {clocks} clocks");
    for (phase, n) in counts {
        eprintln!(
            "  {phase:>10}: {n:>7} ({:.1} %)",
            100.0 * n as f64 / clocks as f64
        );
    }
}
