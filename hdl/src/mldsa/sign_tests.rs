//! rust-hdl simulation tests of the Sign sequencer on its cores
//! ([`MlDsaEngine`] with `op_sign`): whole signatures against `pqc` (the
//! NIST ACVP sigGen case, fresh keys with hedged and external-μ signing),
//! refusals, a bad sk and an abort.

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

fn engine() -> MlDsaEngine {
    let mut uut = MlDsaEngine::default();
    uut.connect_all();
    settle(&mut uut);
    uut.reset.next = true;
    tick(&mut uut, |u| &mut u.clock);
    uut.reset.next = false;
    uut
}

/// One signature: `words` offered one a clock (`last` on the final one),
/// the output taken on every clock; `abort_at` raises `abort_job` then.
pub(crate) fn run_sign(
    uut: &mut MlDsaEngine,
    set: usize,
    external_mu: bool,
    msg_bytes: usize,
    words: &[u32],
    abort_at: Option<usize>,
    limit: usize,
) -> SignOutcome {
    uut.op_sign.next = true;
    uut.op_verify.next = false;
    uut.parameter_set.next = (set as u64).into();
    uut.external_mu.next = external_mu;
    uut.msg_bytes.next = (msg_bytes as u64).into();
    uut.m_ready.next = true;
    uut.start.next = true;
    tick(uut, |u| &mut u.clock);
    uut.start.next = false;
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
        let offered = sent < words.len();
        uut.s_valid.next = offered;
        uut.s_data.next = u64::from(*words.get(sent).unwrap_or(&0)).into();
        uut.s_last.next = offered && sent + 1 == words.len();
        uut.abort_job.next = abort_at == Some(clocks);
        settle(uut);
        if offered && uut.s_ready.val() {
            sent += 1;
        }
        if uut.m_valid.val() {
            out.extend_from_slice(&(uut.m_data.val().index() as u32).to_le_bytes());
        }
        tick(uut, |u| &mut u.clock);
    }
    panic!("no end within {limit} clocks");
}

/// σ as `pqc` gives it, padded to the output stream's whole words.
fn padded(sig: &[u8]) -> Vec<u8> {
    let mut v = sig.to_vec();
    v.resize(sig.len().div_ceil(4) * 4, 0);
    v
}

#[test]
fn sign_engine_matches_acvp_siggen_on_mldsa44() {
    let mut uut = engine();
    let case = &pqc_selftest::vectors::ML_DSA[0].siggen;
    let m = pure_m_prime(case.message, case.context);
    let mut expected = vec![0u8; SETS[0].sig_len()];
    pqc::mldsa::sign_internal(PARAMETER_SETS[0], case.sk, &m, &[0; 32], &mut expected).unwrap();
    assert_eq!(&expected[..], case.signature, "pqc on tcId {}", case.tc_id);
    let words = sign_stream(case.sk, &[0; 32], &m);
    let got = run_sign(&mut uut, 0, false, m.len(), &words, None, 3_000_000);
    eprintln!(
        "ML-DSA-44 sigGen tcId {}: {} attempts, {} clocks",
        case.tc_id, got.attempts, got.clocks
    );
    assert!(!got.error, "{got:?}");
    assert_eq!(got.sig, padded(&expected));
}
