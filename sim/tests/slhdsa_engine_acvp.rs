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
//! - sigVer: every case, valid and invalid.
//! - sigGen: the f sets, per (set, interface: internal, pure, pre-hash) the
//!   first deterministic and the first hedged case (SHA2-128f: of any
//!   interface, since only M′ differs, on the CPU; SHA2-192f and -256f,
//!   14 and 30 million clocks a signature: the first case of any kind);
//!   `PQC_FULL=1`: every case (s-set signatures take 31 to 333 million
//!   clocks, 14 s to a few minutes each).
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

#[test]
fn acvp_cases_of_the_offered_sets_run_on_the_slhdsa_engine() {
    if !hdl::verilator::verilator_required("ACVP on the SLH-DSA engine") {
        return;
    }
    let full = full_run();
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(SLHDSA_BUFFER_BYTES);
    let mut hw = pl.slhdsa(&mut arena).unwrap();
    let mut engine = EngineCalls { calls: 0 };
    let offered: Vec<&str> = sim::cosim::slh_engine_sets(&pl)
        .unwrap()
        .iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(offered.len(), OFFERED, "{offered:?}");
    assert!(params::ALL.iter().all(|p| offered.contains(&p.name)));
    let on_engine = |p: &Params| offered.contains(&p.name);
    let start = std::time::Instant::now();

    // keyGen.
    let mut tally = Tally::default();
    let mut s_sets_taken = BTreeMap::<&str, usize>::new();
    for case in &acvp::load("SLH-DSA-keyGen-FIPS205") {
        let p = params_of(case);
        let taken = s_sets_taken.entry(p.name).or_default();
        if !on_engine(p) || (!full && *taken >= default_keygen_cases(p)) {
            tally.add(p.name, false);
            continue;
        }
        *taken += 1;
        let (mut sk, mut pk) = (vec![0u8; p.sk_bytes()], vec![0u8; p.pk_bytes()]);
        slhdsa::slh_keygen_internal_on(
            &mut hw,
            p,
            &case.input_hex("skSeed"),
            &case.input_hex("skPrf"),
            &case.input_hex("pkSeed"),
            &mut sk,
            &mut pk,
        )
        .unwrap();
        let what = format!("keyGen tcId {} ({})", case.tc_id(), p.name);
        engine.check(&hw, &what);
        assert_eq!(pk, case.expected_hex("pk"), "{what}");
        assert_eq!(sk, case.expected_hex("sk"), "{what}");
        tally.add(p.name, true);
    }
    tally.print("keyGen");
    // Every offered set but the two slowest keyGen sets by default.
    let keygen_sets = if full { OFFERED } else { OFFERED - 2 };
    assert_eq!(tally.sets_run(), keygen_sets);

    // sigVer.
    let mut tally = Tally::default();
    let (mut valid, mut invalid, mut refused) = (0, 0, 0);
    for case in &acvp::load("SLH-DSA-sigVer-FIPS205") {
        let p = params_of(case);
        if !on_engine(p) {
            tally.add(p.name, false);
            continue;
        }
        let what = format!(
            "sigVer tcId {} ({}, {})",
            case.tc_id(),
            p.name,
            interface_of(case)
        );
        let (pk, sig) = (case.input_hex("pk"), case.input_hex("signature"));
        let expected = case.expected["testPassed"].as_bool().expect("testPassed");
        let result = match internal_message(case) {
            Some(m) => slhdsa::slh_verify_internal_on(&mut hw, p, &pk, &m, &sig),
            None => slhdsa::slh_verify_on(
                &mut hw,
                p,
                &pk,
                &case.input_hex("message"),
                &case.input_hex("context"),
                &sig,
            ),
        };
        assert_eq!(result.is_ok(), expected, "{what}: {result:?}");
        if sig.len() == p.sig_bytes() && pk.len() == p.pk_bytes() {
            // The engine's verdict stands: a VALID one returns at once, and
            // an INVALID one of a signature the software accepts would be
            // a fault.
            engine.check(&hw, &what);
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

    // sigGen.
    let mut tally = Tally::default();
    let mut taken = BTreeMap::<(String, String, bool), usize>::new();
    for case in &acvp::load("SLH-DSA-sigGen-FIPS205") {
        let p = params_of(case);
        let deterministic = case.group_bool("deterministic");
        // The interfaces differ only in M′, formed on the CPU: by default a
        // SHA2 set (8.2 million clocks a signature, twice SHAKE-128f's)
        // takes one deterministic and one hedged case of any interface.
        // SHA2-192f and -256f take one case of any kind.
        let interface = match p.family {
            HashFamily::Sha2 if !full => "any",
            _ => interface_of(case),
        };
        let one_case = !full && p.family == HashFamily::Sha2 && p.n != 16;
        let kind = deterministic && !one_case;
        let key = (p.name.to_string(), interface.to_string(), kind);
        let count = taken.entry(key).or_default();
        let small = p.name.ends_with('s');
        if !on_engine(p) || (!full && (small || *count >= 1)) {
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
                slhdsa::slh_sign_internal_on(&mut hw, p, &sk, &m, addrnd.as_deref(), &mut sig)
            }
            None => slhdsa::slh_sign_on(
                &mut hw,
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
        engine.check(&hw, &what);
        assert!(
            sig == case.expected_hex("signature"),
            "{what}: the signature differs from the vector's"
        );
        tally.add(p.name, true);
        if full {
            // Progress of the long run (an s-set signature takes 14 s to a
            // few minutes).
            eprintln!("{what}: equal ({:.0} s)", start.elapsed().as_secs_f64());
        }
    }
    tally.print("sigGen");
    // Default: the three SHAKE f sets × three interfaces ×
    // {deterministic, hedged} (where the vectors have both), SHA2-128f ×
    // {deterministic, hedged}, one case each of SHA2-192f and -256f.
    for p in params::ALL.iter().filter(|p| p.name.ends_with('f')) {
        assert!(
            taken.iter().any(|((set, _, _), &n)| set == p.name && n > 0),
            "no sigGen case of {} ran",
            p.name
        );
    }
    let f_keys = taken
        .iter()
        .filter(|((set, _, _), &n)| set.ends_with('f') && n > 0)
        .count();
    assert!(
        f_keys >= 11,
        "{f_keys} (set, interface, kind) groups of the f sets ran"
    );
    if full {
        assert!(taken
            .iter()
            .filter(|((set, _, _), _)| offered.contains(&set.as_str()))
            .all(|(_, &n)| n > 0));
    }
    println!(
        "SLH-DSA ACVP on the engine: {} engine calls ({} sigGen) in {:.1} s{}",
        engine.calls,
        tally.ran(),
        start.elapsed().as_secs_f64(),
        if full {
            " (PQC_FULL=1)"
        } else {
            " (subset; PQC_FULL=1 runs every case of the offered sets)"
        }
    );
}
