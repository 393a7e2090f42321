//! NIST ACVP SLH-DSA cases of all twelve sets, which the engines
//! configuration runs (the six SHAKE sets on its sponge, the six SHA2 sets
//! on its SHA-2 hash engine) on the PL engine: the driver's `HwSlhDsa` on the
//! exported engines top under Verilator,
//! through the DMA, DDR and cache models. The CPU computes R = PRF_msg and
//! H_msg; key generation, signing and verification after them are one
//! engine job each. Every case must run on the engine (no software
//! fallback, no fault) and give the vector's answer.
//!
//! - keyGen: every case of the category-1 f sets and of the SHAKE f sets,
//!   the first two of SLH-DSA-SHA2-192f and -256f, and the first of each s
//!   set but SLH-DSA-SHA2-192s and -256s (21 and 32 million clocks, about
//!   2 min each here; their sigVer cases run, and `PQC_FULL=1` keyGen);
//!   `PQC_FULL=1`: every case.
//! - sigVer: every case of the sets of category 1 and of the SHAKE sets;
//!   of SLH-DSA-SHA2-192f/s and -256f/s (0.3 to 0.8 million clocks a
//!   verification), per test group the valid cases, those of a refused
//!   length and the first two invalid cases that reach the engine;
//!   `PQC_FULL=1`: every case.
//! - sigGen: the f sets. SLH-DSA-SHAKE-128f: per interface (internal,
//!   pure, pre-hash) the first deterministic and the first hedged case,
//!   so each of the driver's signing calls runs. The other f sets: since
//!   the interfaces differ only in M′, formed on the CPU, the first
//!   deterministic and the first hedged case of any interface
//!   (SLH-DSA-SHA2-192f and -256f, 14 and 30 million clocks a signature:
//!   the first case of any kind);
//!   `PQC_FULL=1`: every case (s-set signatures take 31 to 333 million
//!   clocks, 14 s to a few minutes each).
//!
//! keyGen, sigVer and the sigGen cases of each hash family are four test
//! functions, each on an engines configuration of its own, so that the
//! test harness runs two at a time.
//!
//! The pre-hash interface runs as FIPS 205 defines it, `slh_sign_internal`
//! / `slh_verify_internal` of M′ = 1 ‖ |ctx| ‖ ctx ‖ OID(PH) ‖ PH(M), with
//! M′ formed on the CPU. Cases left out are counted and printed as not
//! run here.
//! Field mapping: /work/shared/vectors/README.md.

#[path = "../../pqc/tests/acvp/mod.rs"]
mod acvp;

use pqc::prehash::MAX_DIGEST_BYTES;
use pqc::slhdsa::{self, params, HashFamily, Params, PreHash};
use sim::cosim::{Arena, Config, Pl, SimSlhDsa, SLHDSA_BUFFER_BYTES};
use std::collections::BTreeMap;

fn full_run() -> bool {
    std::env::var("PQC_FULL").is_ok_and(|v| v == "1")
}

/// keyGen cases of a set in the default run: every case of an f set but
/// SHA2-192f and -256f (two each, 0.5 and 1.3 million clocks a case), one
/// of an s set but SHA2-192s and -256s (none: 32 and 21 million clocks).
fn default_keygen_cases(p: &Params) -> usize {
    match (p.name.ends_with('s'), p.family, p.n) {
        (false, HashFamily::Sha2, 24 | 32) => 2,
        (false, _, _) => usize::MAX,
        (true, HashFamily::Sha2, 24 | 32) => 0,
        (true, _, _) => 1,
    }
}

/// sigVer cases of a set that reach the engine in the default run, per
/// test group: every one but for SHA2-192f/s and -256f/s, whose invalid
/// cases are limited to two a group (valid ones all run).
fn default_sigver_invalid_cases(p: &Params) -> usize {
    match (p.family, p.n) {
        (HashFamily::Sha2, 24 | 32) => 2,
        _ => usize::MAX,
    }
}

/// Whether the default run takes every sigGen interface of a set apart
/// (SLH-DSA-SHAKE-128f), or one of any interface.
fn sign_every_interface(p: &Params) -> bool {
    p.family == HashFamily::Shake && p.n == 16
}

fn params_of(case: &acvp::Case) -> &'static Params {
    let name = case.group_str("parameterSet");
    params::by_name(name).unwrap_or_else(|| panic!("unknown parameter set {name}"))
}

/// "internal", "pure" or "preHash".
fn interface_of(case: &acvp::Case) -> &str {
    match case.group_str("signatureInterface") {
        "internal" => "internal",
        _ => case.group_str("preHash"),
    }
}

/// The message of the internal functions for a case: M for the internal
/// interface, M′ = 1 ‖ |ctx| ‖ ctx ‖ OID(PH) ‖ PH(M) of Algorithm 23 for
/// pre-hash; `None` for pure SLH-DSA, whose `slh_*_on` form 0 ‖ |ctx| ‖
/// ctx ‖ M themselves.
fn internal_message(case: &acvp::Case) -> Option<Vec<u8>> {
    match interface_of(case) {
        "internal" => return Some(case.input_hex("message")),
        "preHash" => {}
        _ => return None,
    }
    let name = case.prompt["hashAlg"].as_str().expect("hashAlg");
    let ph = PreHash::from_name(name).unwrap_or_else(|| panic!("unknown hashAlg {name}"));
    let ctx = case.input_hex("context");
    let mut digest = [0u8; MAX_DIGEST_BYTES];
    let len = ph.digest(&case.input_hex("message"), &mut digest);
    let mut m = vec![1, u8::try_from(ctx.len()).expect("context ≤ 255 bytes")];
    m.extend_from_slice(&ctx);
    m.extend_from_slice(&ph.oid());
    m.extend_from_slice(&digest[..len]);
    Some(m)
}

/// Counts engine calls: each call must have run on the engine, without a
/// fault or a failed job.
struct EngineCalls {
    calls: u64,
}

impl EngineCalls {
    fn check(&mut self, hw: &SimSlhDsa<'_>, what: &str) {
        self.calls += 1;
        let stats = hw.stats();
        assert_eq!(hw.fault(), None, "{what}");
        assert_eq!(stats.failed_jobs, 0, "{what}");
        assert_eq!(stats.sw_calls, 0, "{what}: a call ran in software");
        assert_eq!(stats.hw_calls, self.calls, "{what}: ran on the engine");
    }
}

/// Tallies per parameter set, printed at the end.
#[derive(Default)]
struct Tally(BTreeMap<String, [usize; 2]>);

impl Tally {
    fn add(&mut self, set: &str, ran: bool) {
        self.0.entry(set.to_string()).or_default()[usize::from(!ran)] += 1;
    }
    fn print(&self, what: &str) {
        for (set, [ran, not_run]) in &self.0 {
            println!("{what} {set}: {ran} on the engine, {not_run} not run here");
        }
    }
    /// Sets with at least one case on the engine.
    fn sets_run(&self) -> usize {
        self.0.values().filter(|[ran, _]| *ran > 0).count()
    }
    fn ran(&self) -> usize {
        self.0.values().map(|[r, _]| r).sum()
    }
}

/// The sets the engines configuration offers: all twelve.
const OFFERED: usize = 12;

/// Runs `cases` on the SLH-DSA engine of a fresh engines configuration
/// (its own PL, arena and driver, so that the test functions can run side
/// by side), after checking that it offers all twelve sets; prints the
/// engine calls and the time.
fn on_the_engine(what: &str, cases: impl FnOnce(&mut SimSlhDsa<'_>, &mut EngineCalls)) {
    if !hdl::verilator::verilator_required(what) {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(SLHDSA_BUFFER_BYTES);
    let mut hw = pl.slhdsa(&mut arena).unwrap();
    let offered: Vec<&str> = sim::cosim::slh_engine_sets(&pl)
        .unwrap()
        .iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(offered.len(), OFFERED, "{offered:?}");
    assert!(params::ALL.iter().all(|p| offered.contains(&p.name)));
    let start = std::time::Instant::now();
    let mut engine = EngineCalls { calls: 0 };
    cases(&mut hw, &mut engine);
    assert!(pl.errors().is_empty(), "{:?}", pl.errors());
    println!(
        "{what}: {} engine calls in {:.1} s{}",
        engine.calls,
        start.elapsed().as_secs_f64(),
        if full_run() {
            " (PQC_FULL=1)"
        } else {
            " (subset; PQC_FULL=1 runs every case)"
        }
    );
}

#[test]
fn acvp_keygen_cases_run_on_the_slhdsa_engine() {
    on_the_engine("SLH-DSA ACVP keyGen", |hw, engine| {
        let full = full_run();
        let mut tally = Tally::default();
        let mut s_sets_taken = BTreeMap::<&str, usize>::new();
        for case in &acvp::load("SLH-DSA-keyGen-FIPS205") {
            let p = params_of(case);
            let taken = s_sets_taken.entry(p.name).or_default();
            if !full && *taken >= default_keygen_cases(p) {
                tally.add(p.name, false);
                continue;
            }
            *taken += 1;
            let (mut sk, mut pk) = (vec![0u8; p.sk_bytes()], vec![0u8; p.pk_bytes()]);
            slhdsa::slh_keygen_internal_on(
                hw,
                p,
                &case.input_hex("skSeed"),
                &case.input_hex("skPrf"),
                &case.input_hex("pkSeed"),
                &mut sk,
                &mut pk,
            )
            .unwrap();
            let what = format!("keyGen tcId {} ({})", case.tc_id(), p.name);
            engine.check(hw, &what);
            assert_eq!(pk, case.expected_hex("pk"), "{what}");
            assert_eq!(sk, case.expected_hex("sk"), "{what}");
            tally.add(p.name, true);
        }
        tally.print("keyGen");
        // Every set but the two slowest keyGen sets by default.
        let keygen_sets = if full { OFFERED } else { OFFERED - 2 };
        assert_eq!(tally.sets_run(), keygen_sets);
    });
}

#[test]
fn acvp_sigver_cases_run_on_the_slhdsa_engine() {
    on_the_engine("SLH-DSA ACVP sigVer", |hw, engine| {
        let full = full_run();
        let mut tally = Tally::default();
        let (mut valid, mut invalid, mut refused) = (0, 0, 0);
        let mut invalid_taken = BTreeMap::<u64, usize>::new();
        for case in &acvp::load("SLH-DSA-sigVer-FIPS205") {
            let p = params_of(case);
            let (pk, sig) = (case.input_hex("pk"), case.input_hex("signature"));
            let expected = case.expected["testPassed"].as_bool().expect("testPassed");
            let reaches_engine = sig.len() == p.sig_bytes() && pk.len() == p.pk_bytes();
            let taken = invalid_taken.entry(case.tg_id()).or_default();
            if !full && reaches_engine && !expected {
                *taken += 1;
                if *taken > default_sigver_invalid_cases(p) {
                    tally.add(p.name, false);
                    continue;
                }
            }
            let what = format!(
                "sigVer tcId {} ({}, {})",
                case.tc_id(),
                p.name,
                interface_of(case)
            );
            let result = match internal_message(case) {
                Some(m) => slhdsa::slh_verify_internal_on(hw, p, &pk, &m, &sig),
                None => slhdsa::slh_verify_on(
                    hw,
                    p,
                    &pk,
                    &case.input_hex("message"),
                    &case.input_hex("context"),
                    &sig,
                ),
            };
            assert_eq!(result.is_ok(), expected, "{what}: {result:?}");
            if reaches_engine {
                // The engine's verdict stands: a VALID one returns at once,
                // and an INVALID one of a signature the software accepts
                // would be a fault.
                engine.check(hw, &what);
                tally.add(p.name, true);
            } else {
                // A length the scheme refuses never reaches the bus.
                assert!(!expected, "{what}");
                assert_eq!(hw.stats().hw_calls, engine.calls, "{what}");
                refused += 1;
            }
            if expected {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
        tally.print("sigVer");
        println!("sigVer: {valid} valid, {invalid} invalid ({refused} refused by length)");
        assert!(valid > 0 && invalid > 0);
        assert_eq!(tally.sets_run(), OFFERED);
        // The vectors: 36 groups (three a set) of 14 cases, of which 2 are
        // valid, 8 invalid and reach the engine, 4 of a refused length. By
        // default the 12 groups of SHA2-192f/s and -256f/s run 2 + 2 each.
        let sigver_on_engine = if full { 36 * 10 } else { 24 * 10 + 12 * 4 };
        assert_eq!(tally.ran(), sigver_on_engine);
    });
}

#[test]
fn acvp_siggen_cases_of_the_shake_sets_run_on_the_slhdsa_engine() {
    // SHAKE-128f × three interfaces × {deterministic, hedged}, SHAKE-192f
    // and -256f × {deterministic, hedged}.
    sign_cases(HashFamily::Shake, 6 + 2 + 2);
}

#[test]
fn acvp_siggen_cases_of_the_sha2_sets_run_on_the_slhdsa_engine() {
    // SHA2-128f × {deterministic, hedged}, one case each of SHA2-192f and
    // -256f.
    sign_cases(HashFamily::Sha2, 2 + 1 + 1);
}

/// The sigGen cases of one hash family; by default `default_groups`
/// (set, interface, kind) groups of the f sets run.
fn sign_cases(family: HashFamily, default_groups: usize) {
    let what = format!("SLH-DSA ACVP sigGen, {family:?} sets");
    on_the_engine(&what, |hw, engine| {
        let full = full_run();
        let start = std::time::Instant::now();
        let mut tally = Tally::default();
        let mut taken = BTreeMap::<(String, String, bool), usize>::new();
        for case in &acvp::load("SLH-DSA-sigGen-FIPS205") {
            let p = params_of(case);
            if p.family != family {
                continue;
            }
            let deterministic = case.group_bool("deterministic");
            // The interfaces differ only in M′, formed on the CPU: by
            // default a set other than SHAKE-128f takes one deterministic
            // and one hedged case of any interface; SHA2-192f and -256f
            // one case of any kind.
            let interface = if full || sign_every_interface(p) {
                interface_of(case)
            } else {
                "any"
            };
            let one_case = !full && p.family == HashFamily::Sha2 && p.n != 16;
            let kind = deterministic && !one_case;
            let key = (p.name.to_string(), interface.to_string(), kind);
            let count = taken.entry(key).or_default();
            let small = p.name.ends_with('s');
            if !full && (small || *count >= 1) {
                tally.add(p.name, false);
                continue;
            }
            *count += 1;
            let what = format!(
                "sigGen tcId {} ({}, {}, {})",
                case.tc_id(),
                p.name,
                interface_of(case),
                if deterministic {
                    "deterministic"
                } else {
                    "hedged"
                }
            );
            let sk = case.input_hex("sk");
            let addrnd = (!deterministic).then(|| case.input_hex("additionalRandomness"));
            let mut sig = vec![0u8; p.sig_bytes()];
            let written = match internal_message(case) {
                Some(m) => {
                    slhdsa::slh_sign_internal_on(hw, p, &sk, &m, addrnd.as_deref(), &mut sig)
                }
                None => slhdsa::slh_sign_on(
                    hw,
                    p,
                    &sk,
                    &case.input_hex("message"),
                    &case.input_hex("context"),
                    addrnd.as_deref(),
                    &mut sig,
                ),
            }
            .unwrap();
            assert_eq!(written, p.sig_bytes(), "{what}");
            engine.check(hw, &what);
            assert!(
                sig == case.expected_hex("signature"),
                "{what}: the signature differs from the vector's"
            );
            tally.add(p.name, true);
            if full {
                // Progress of the long run (an s-set signature takes 14 s
                // to a few minutes).
                eprintln!("{what}: equal ({:.0} s)", start.elapsed().as_secs_f64());
            }
        }
        tally.print("sigGen");
        for p in params::ALL
            .iter()
            .filter(|p| p.family == family && p.name.ends_with('f'))
        {
            assert!(
                taken.iter().any(|((set, _, _), &n)| set == p.name && n > 0),
                "no sigGen case of {} ran",
                p.name
            );
        }
        if full {
            assert!(taken.values().all(|&n| n > 0));
        } else {
            let f_groups = taken
                .iter()
                .filter(|((set, _, _), &n)| set.ends_with('f') && n > 0)
                .count();
            assert_eq!(
                f_groups, default_groups,
                "(set, interface, kind) groups of the f sets that ran"
            );
        }
    });
}
