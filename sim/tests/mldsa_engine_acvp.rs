//! Every NIST ACVP ML-DSA case on the PL engine: the driver's `HwMlDsa`
//! on the exported ML-DSA engine top under Verilator, through the DMA,
//! DDR and cache models. keyGen (75 cases), sigGen (360: internal with M′
//! and with an external μ, external pure and pre-hash, each deterministic
//! and hedged) and sigVer (180, valid and invalid). The external
//! interfaces run through `pqc`'s own external functions on the engine
//! (`pqc::mldsa::MlDsaOperations`, which `HwMlDsa` implements): the CPU
//! forms M′ (0 or 1 ‖ |ctx| ‖ ctx ‖ (M or OID ‖ PH(M)), FIPS 204
//! Algorithms 2–5) and the engine signs or verifies it. Every case must
//! run on the engine (no fallback, no fault) and give the vector's
//! answer. keyGen, sigVer and each half of sigGen (the internal and the
//! external interfaces) are test functions of their own, each on its own
//! engine top, so that the test harness runs two at a time. Field
//! mapping: /work/shared/vectors/README.md.

#[path = "../../pqc/tests/acvp/mod.rs"]
mod acvp;

use pqc::mldsa::{MlDsaOperations, ParameterSet, PreHash};
use sim::cosim::{Arena, Config, Pl, SimMlDsa, MLDSA_BUFFER_BYTES};

fn set_of(case: &acvp::Case) -> ParameterSet {
    let name = case.group_str("parameterSet");
    ParameterSet::from_name(name).unwrap_or_else(|| panic!("unknown set {name}"))
}

fn arr<const N: usize>(v: &[u8]) -> [u8; N] {
    v.try_into().expect("fixed-length field")
}

/// The pre-hash of a HashML-DSA case, `None` for pure ML-DSA.
fn pre_hash(case: &acvp::Case) -> Option<PreHash> {
    (case.group["preHash"].as_str() == Some("preHash")).then(|| {
        let name = case.prompt["hashAlg"].as_str().expect("hashAlg");
        PreHash::from_name(name).unwrap_or_else(|| panic!("hash {name}"))
    })
}

/// The interface label of a sigGen or sigVer case.
fn label(case: &acvp::Case) -> String {
    if case.group_str("signatureInterface") == "internal" {
        if case.group_bool("externalMu") {
            "internal/externalMu".into()
        } else {
            "internal/message".into()
        }
    } else {
        format!("external/{}", case.group_str("preHash"))
    }
}

/// Runs `cases` on the ML-DSA engine of a fresh engines configuration
/// (its own PL, arena and driver, so that the test functions can run side
/// by side); each call must have run on the engine without a fault.
fn on_the_engine(
    what: &str,
    cases: impl FnOnce(&mut SimMlDsa<'_>, &mut dyn FnMut(&SimMlDsa<'_>, &str)),
) {
    if !hdl::verilator::verilator_required(what) {
        return;
    }
    let pl = Pl::new(Config::DEFAULT).unwrap();
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena).unwrap();
    let mut calls = 0;
    let mut on_engine = |hw: &SimMlDsa<'_>, what: &str| {
        calls += 1;
        assert_eq!(hw.fault(), None, "{what}");
        assert_eq!(hw.stats().hw_calls, calls, "{what}: ran on the engine");
    };
    cases(&mut hw, &mut on_engine);
    assert!(pl.errors().is_empty(), "{:?}", pl.errors());
}

#[test]
fn every_acvp_mldsa_keygen_case_runs_on_the_engine() {
    on_the_engine("ACVP ML-DSA keyGen on the engine", |hw, on_engine| {
        let cases = acvp::load("ML-DSA-keyGen-FIPS204");
        for case in &cases {
            let set = set_of(case);
            let (mut pk, mut sk) = (
                vec![0u8; set.public_key_len()],
                vec![0u8; set.secret_key_len()],
            );
            let seed = arr::<32>(&case.input_hex("seed"));
            hw.keygen_internal(set, &seed, &mut pk, &mut sk).unwrap();
            on_engine(hw, &format!("keyGen tcId {}", case.tc_id()));
            assert_eq!(pk, case.expected_hex("pk"), "keyGen tcId {}", case.tc_id());
            assert_eq!(sk, case.expected_hex("sk"), "keyGen tcId {}", case.tc_id());
        }
        println!("ML-DSA keyGen on the engine: {}/75", cases.len());
        assert_eq!(cases.len(), 75);
    });
}

#[test]
fn every_acvp_mldsa_internal_siggen_case_runs_on_the_engine() {
    sign_cases("internal");
}

#[test]
fn every_acvp_mldsa_external_siggen_case_runs_on_the_engine() {
    sign_cases("external");
}

/// The sigGen cases of one signature interface ("internal": M′ and
/// external μ; "external": pure and pre-hash), 180 of each.
fn sign_cases(interface: &str) {
    let what = format!("ACVP ML-DSA sigGen ({interface}) on the engine");
    on_the_engine(&what, |hw, on_engine| {
        let cases: Vec<_> = acvp::load("ML-DSA-sigGen-FIPS204")
            .into_iter()
            .filter(|case| case.group_str("signatureInterface") == interface)
            .collect();
        let mut by_label = std::collections::BTreeMap::<String, usize>::new();
        let mut attempts = 0u64;
        for case in &cases {
            let set = set_of(case);
            let sk = case.input_hex("sk");
            let rnd = case.mldsa_rnd();
            let mut sig = vec![0u8; set.signature_len()];
            let label = label(case);
            let what = format!("sigGen tcId {} ({label})", case.tc_id());
            let (message, context) = (|| case.input_hex("message"), || case.input_hex("context"));
            match (label.as_str(), pre_hash(case)) {
                ("internal/externalMu", _) => {
                    let mu = arr::<64>(&case.input_hex("mu"));
                    hw.sign_mu(set, &sk, &mu, &rnd, &mut sig).unwrap();
                }
                ("internal/message", _) => hw
                    .sign_internal(set, &sk, &message(), &rnd, &mut sig)
                    .unwrap(),
                (_, None) => {
                    MlDsaOperations::sign(hw, set, &sk, &message(), &context(), &rnd, &mut sig)
                        .unwrap()
                }
                (_, Some(ph)) => MlDsaOperations::hash_sign(
                    hw,
                    set,
                    &sk,
                    &message(),
                    &context(),
                    ph,
                    &rnd,
                    &mut sig,
                )
                .unwrap(),
            }
            on_engine(hw, &what);
            attempts += u64::from(hw.last_sign_attempts().expect("RESULT"));
            assert_eq!(sig, case.expected_hex("signature"), "{what}");
            *by_label.entry(label).or_default() += 1;
        }
        println!(
            "ML-DSA sigGen ({interface}) on the engine: {}/180 {by_label:?}, {attempts} attempts",
            cases.len()
        );
        assert_eq!(cases.len(), 180);
        assert_eq!(by_label.len(), 2, "both labels of the interface");
    });
}

#[test]
fn every_acvp_mldsa_sigver_case_runs_on_the_engine() {
    on_the_engine("ACVP ML-DSA sigVer on the engine", |hw, on_engine| {
        let cases = acvp::load("ML-DSA-sigVer-FIPS204");
        let (mut valid, mut invalid) = (0, 0);
        for case in &cases {
            let set = set_of(case);
            let pk = case.input_hex("pk");
            let sig = case.input_hex("signature");
            let want = case.expected["testPassed"].as_bool().expect("testPassed");
            let label = label(case);
            let (message, context) = (|| case.input_hex("message"), || case.input_hex("context"));
            let result = match (label.as_str(), pre_hash(case)) {
                ("internal/externalMu", _) => {
                    hw.verify_mu(set, &pk, &arr::<64>(&case.input_hex("mu")), &sig)
                }
                ("internal/message", _) => hw.verify_internal(set, &pk, &message(), &sig),
                (_, None) => MlDsaOperations::verify(hw, set, &pk, &message(), &context(), &sig),
                (_, Some(ph)) => {
                    MlDsaOperations::hash_verify(hw, set, &pk, &message(), &context(), ph, &sig)
                }
            };
            let what = format!("sigVer tcId {} ({label})", case.tc_id());
            assert_eq!(result.is_ok(), want, "{what}: {result:?}");
            if want {
                valid += 1;
            } else {
                invalid += 1;
            }
            // A signature of the wrong length never reaches the engine.
            if sig.len() == set.signature_len() {
                on_engine(hw, &what);
            }
        }
        println!("ML-DSA sigVer on the engine: {valid} valid accepted, {invalid} invalid rejected");
        assert_eq!((valid, invalid), (36, 144));
    });
}
