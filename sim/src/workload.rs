//! The benchmark operations, generic over the `pqc` backends, with the
//! inputs of the firmware benchmark tables (`pqc_selftest::bench_inputs`),
//! so a software figure from the board or QEMU and an
//! accelerated figure from the co-simulation describe the same work (for
//! ML-DSA signing: the same number of rejection attempts).
//!
//! Also the host measurements: median wall time of each operation, and the
//! share of it spent inside backend calls (timing wrappers around the
//! software backends), which the report uses as the offloaded share.

use std::time::{Duration, Instant};

use crate::hooked::{CallHook, Hooked};
use driver::accel::{SlhOnPl, WotsChainOffload};
use pqc::keccak::SoftKeccak;
use pqc::mldsa::{MlDsa, ParameterSet};
use pqc::ring::{RingBackend, SoftRing};
use pqc::slhdsa::{self, params::Params};

// The firmware's benchmark inputs, from the crate that defines them.
pub use pqc_selftest::bench_inputs::{
    sign_message, MESSAGE, MLDSA_RND, MLDSA_SEED, SIGN_MESSAGES, SLH_SEED_BYTE,
};

/// keygen, sign or verify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// Key generation (from the fixed seeds).
    Keygen,
    /// Deterministic signing of [`MESSAGE`].
    Sign,
    /// Verification of that signature.
    Verify,
}

impl Operation {
    /// All three, in table order.
    pub const ALL: [Operation; 3] = [Operation::Keygen, Operation::Sign, Operation::Verify];

    /// The name ps-app prints.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Keygen => "keygen",
            Operation::Sign => "sign",
            Operation::Verify => "verify",
        }
    }
}

/// A scheme and parameter set of the benchmark table.
#[derive(Clone, Copy, Debug)]
pub enum Scheme {
    /// ML-DSA.
    MlDsa(ParameterSet),
    /// SLH-DSA.
    SlhDsa(&'static Params),
}

impl Scheme {
    /// The parameter-set name ps-app prints.
    pub fn name(&self) -> &'static str {
        match self {
            Scheme::MlDsa(set) => set.params().name,
            Scheme::SlhDsa(p) => p.name,
        }
    }

    /// Finds a scheme by its printed name.
    pub fn from_name(name: &str) -> Option<Scheme> {
        if let Some(set) = ParameterSet::from_name(name) {
            return Some(Scheme::MlDsa(set));
        }
        slhdsa::params::ALL
            .iter()
            .copied()
            .find(|p| p.name == name)
            .map(Scheme::SlhDsa)
    }

    /// Whether the Keccak engine can run it (SHAKE instances only).
    pub fn keccak_only(&self) -> bool {
        matches!(self, Scheme::SlhDsa(p) if p.name.contains("SHAKE"))
    }
}

/// Keys and signature of one run: what the co-simulation compares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Public key.
    pub pk: Vec<u8>,
    /// Secret key.
    pub sk: Vec<u8>,
    /// Signature of [`MESSAGE`].
    pub sig: Vec<u8>,
    /// The signature verified.
    pub verified: bool,
}

/// Runs one operation of `scheme` on the backends of `engine` (SLH-DSA
/// uses only its Keccak backend), on [`MESSAGE`]. `prior` holds the keys
/// (for sign) and signature (for verify) made by earlier operations; the
/// result is written back into it.
pub fn run<R: RingBackend, H: WotsChainOffload>(
    engine: &mut MlDsa<R, H>,
    scheme: Scheme,
    op: Operation,
    prior: &mut Outputs,
) -> Result<(), String> {
    run_on(engine, scheme, op, MESSAGE, prior)
}

/// [`run`] with another message (sign and verify), e.g. one of the sign
/// rows' [`sign_message`]s.
pub fn run_on<R: RingBackend, H: WotsChainOffload>(
    engine: &mut MlDsa<R, H>,
    scheme: Scheme,
    op: Operation,
    message: &[u8],
    prior: &mut Outputs,
) -> Result<(), String> {
    let fail = |e: pqc::Error| format!("{} {}: {e}", scheme.name(), op.name());
    match scheme {
        Scheme::MlDsa(set) => match op {
            Operation::Keygen => {
                prior.pk = vec![0; set.public_key_len()];
                prior.sk = vec![0; set.secret_key_len()];
                engine
                    .keygen_internal(set, &MLDSA_SEED, &mut prior.pk, &mut prior.sk)
                    .map_err(fail)?;
            }
            Operation::Sign => {
                prior.sig = vec![0; set.signature_len()];
                engine
                    .sign(set, &prior.sk, message, b"", &MLDSA_RND, &mut prior.sig)
                    .map_err(fail)?;
            }
            Operation::Verify => {
                prior.verified = engine
                    .verify(set, &prior.pk, message, b"", &prior.sig)
                    .is_ok();
            }
        },
        Scheme::SlhDsa(p) => {
            // WOTS+ chains as whole jobs when `H` runs them on the PL.
            let keccak = &mut SlhOnPl(&mut engine.keccak);
            let n = p.n;
            let seeds = vec![SLH_SEED_BYTE; 3 * n];
            match op {
                Operation::Keygen => {
                    prior.pk = vec![0; p.pk_bytes()];
                    prior.sk = vec![0; p.sk_bytes()];
                    slhdsa::slh_keygen_internal_with(
                        keccak,
                        p,
                        &seeds[..n],
                        &seeds[n..2 * n],
                        &seeds[2 * n..],
                        &mut prior.sk,
                        &mut prior.pk,
                    )
                    .map_err(fail)?;
                }
                Operation::Sign => {
                    prior.sig = vec![0; p.sig_bytes()];
                    slhdsa::slh_sign_with(keccak, p, &prior.sk, message, b"", None, &mut prior.sig)
                        .map_err(fail)?;
                }
                Operation::Verify => {
                    prior.verified =
                        slhdsa::slh_verify_with(keccak, p, &prior.pk, message, b"", &prior.sig)
                            .is_ok();
                }
            }
        }
    }
    Ok(())
}

/// An engine on the portable software backends.
pub fn soft() -> MlDsa<SoftRing, SoftKeccak> {
    MlDsa::new(SoftRing, SoftKeccak)
}

/// The inputs an operation needs, computed in software (keys for sign,
/// keys and signature for verify).
pub fn prerequisites(scheme: Scheme, op: Operation) -> Result<Outputs, String> {
    let mut out = Outputs::default();
    for earlier in Operation::ALL.into_iter().take_while(|&o| o != op) {
        run(&mut soft(), scheme, earlier, &mut out)?;
    }
    Ok(out)
}

/// A [`CallHook`] that records the wall time of every call, in order.
#[derive(Debug, Default)]
pub struct CallTimer {
    /// Time of each call, in order.
    pub calls: Vec<Duration>,
}

impl CallHook for CallTimer {
    type Start = Instant;
    fn before(&mut self) -> Instant {
        Instant::now()
    }
    fn after(&mut self, start: Instant) {
        self.calls.push(start.elapsed());
    }
}

/// A backend that records the wall time of every top-level call.
pub type Timed<B> = Hooked<B, CallTimer>;

/// Which backend calls of an operation ran on the PL, in call order
/// (recorded by the co-simulation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlCalls {
    /// Per ring call.
    pub ring: Vec<bool>,
    /// Per Keccak call.
    pub keccak: Vec<bool>,
}

/// Host figures of one operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostTiming {
    /// Median wall time on the plain software backends.
    pub median: Duration,
    /// Runs measured.
    pub runs: usize,
    /// Median share of the operation's time spent inside the backend calls
    /// that run on the PL (all backend calls when no [`PlCalls`] is given).
    pub offload_fraction: f64,
}

/// The median (upper median for an even count) of a non-empty list.
pub fn median<T: PartialOrd + Copy>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v[v.len() / 2]
}

/// Sum of the call times marked in `mask` (all of them without a mask).
fn marked(calls: &[Duration], mask: Option<&[bool]>, what: &str) -> Result<Duration, String> {
    match mask {
        None => Ok(calls.iter().sum()),
        Some(m) if m.len() == calls.len() => Ok(calls
            .iter()
            .zip(m)
            .filter(|(_, &on)| on)
            .map(|(d, _)| *d)
            .sum()),
        Some(m) => Err(format!(
            "{what}: {} calls on the host, {} in the co-simulation: not the same work",
            calls.len(),
            m.len()
        )),
    }
}

/// Measures one operation on the host `runs` times (at least 1). With
/// `pl`, the offloaded share counts only the calls that ran on the PL.
pub fn host_timing(
    scheme: Scheme,
    op: Operation,
    runs: usize,
    pl: Option<&PlCalls>,
) -> Result<HostTiming, String> {
    host_timing_on(scheme, op, MESSAGE, runs, pl)
}

/// [`host_timing`] of the operation on `message` ([`run_on`]).
pub fn host_timing_on(
    scheme: Scheme,
    op: Operation,
    message: &[u8],
    runs: usize,
    pl: Option<&PlCalls>,
) -> Result<HostTiming, String> {
    let runs = runs.max(1);
    let base = prerequisites(scheme, op)?;
    let mut plain = Vec::with_capacity(runs);
    let mut shares = Vec::with_capacity(runs);
    for _ in 0..runs {
        let mut state = base.clone();
        let t = Instant::now();
        run_on(&mut soft(), scheme, op, message, &mut state)?;
        plain.push(t.elapsed());

        let mut state = base.clone();
        let mut timed = MlDsa::new(Timed::<SoftRing>::default(), Timed::<SoftKeccak>::default());
        let t = Instant::now();
        run_on(&mut timed, scheme, op, message, &mut state)?;
        let total = t.elapsed().as_secs_f64();
        let ring = marked(&timed.ring.hook.calls, pl.map(|p| &p.ring[..]), "ring")?;
        let keccak = marked(
            &timed.keccak.hook.calls,
            pl.map(|p| &p.keccak[..]),
            "Keccak",
        )?;
        let inside = (ring + keccak).as_secs_f64();
        shares.push(if total > 0.0 { inside / total } else { 0.0 });
    }
    Ok(HostTiming {
        median: median(plain),
        runs,
        offload_fraction: median(shares),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_chain_and_verify() {
        let scheme = Scheme::from_name("ML-DSA-44").unwrap();
        let mut out = Outputs::default();
        for op in Operation::ALL {
            run(&mut soft(), scheme, op, &mut out).unwrap();
        }
        assert!(out.verified);
        // Deterministic: the same inputs give the same signature.
        let again = prerequisites(scheme, Operation::Verify).unwrap();
        assert_eq!(again.sig, out.sig);
        assert!(Scheme::from_name("SLH-DSA-SHAKE-128f")
            .unwrap()
            .keccak_only());
        assert!(!Scheme::from_name("SLH-DSA-SHA2-128f")
            .unwrap()
            .keccak_only());
        assert!(Scheme::from_name("ML-DSA-45").is_none());
    }

    #[test]
    fn timing_wrappers_pass_results_through_and_measure_a_share() {
        let scheme = Scheme::from_name("ML-DSA-44").unwrap();
        let h = host_timing(scheme, Operation::Sign, 3, None).unwrap();
        assert_eq!(h.runs, 3);
        assert!(h.median > Duration::ZERO);
        // Most of ML-DSA is NTT arithmetic and SHAKE: a clear majority, not all.
        assert!(
            h.offload_fraction > 0.3 && h.offload_fraction < 1.0,
            "{}",
            h.offload_fraction
        );
        // With a mask, only the marked calls count; a mask of another
        // length is refused.
        let calls = {
            let mut e = MlDsa::new(Timed::<SoftRing>::default(), Timed::<SoftKeccak>::default());
            let mut state = prerequisites(scheme, Operation::Sign).unwrap();
            run(&mut e, scheme, Operation::Sign, &mut state).unwrap();
            (e.ring.hook.calls.len(), e.keccak.hook.calls.len())
        };
        let only_keccak = PlCalls {
            ring: vec![false; calls.0],
            keccak: vec![true; calls.1],
        };
        let k = host_timing(scheme, Operation::Sign, 1, Some(&only_keccak)).unwrap();
        assert!(k.offload_fraction > 0.0 && k.offload_fraction < h.offload_fraction);
        let wrong = PlCalls {
            ring: vec![true; calls.0 + 1],
            keccak: vec![true; calls.1],
        };
        let e = host_timing(scheme, Operation::Sign, 1, Some(&wrong)).unwrap_err();
        assert!(e.contains("not the same work"), "{e}");
    }
}
