//! ML-DSA against the NIST ACVP vectors (keyGen, sigGen, sigVer), every
//! interface: external pure, external pre-hash (all hash functions),
//! internal with M′ and with external μ; deterministic and hedged.
//! Field mapping: /work/shared/vectors/README.md (copied in tests/vectors).
mod acvp;

use pqc::keccak::SoftKeccak;
use pqc::mldsa::{self, MlDsa, ParameterSet, PreHash, SigningMode};
use pqc::ring::SoftRing;

fn set_of(case: &acvp::Case) -> ParameterSet {
    let name = case.group_str("parameterSet");
    ParameterSet::from_name(name).unwrap_or_else(|| panic!("unknown set {name}"))
}

fn arr<const N: usize>(v: &[u8]) -> [u8; N] {
    v.try_into().expect("fixed-length field")
}

#[test]
fn acvp_keygen_all_75() {
    let cases = acvp::load("ML-DSA-keyGen-FIPS204");
    let mut passed = 0;
    for case in &cases {
        let set = set_of(case);
        let seed = arr::<32>(&case.input_hex("seed"));
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        mldsa::keygen_internal(set, &seed, &mut pk, &mut sk).unwrap();
        assert_eq!(pk, case.expected_hex("pk"), "tcId {} pk", case.tc_id());
        assert_eq!(sk, case.expected_hex("sk"), "tcId {} sk", case.tc_id());
        // The import path recomputes pk from sk and checks consistency.
        let mut pk2 = vec![0u8; set.public_key_len()];
        MlDsa::<SoftRing, SoftKeccak>::default()
            .public_key_from_secret(set, &sk, &mut pk2)
            .unwrap();
        assert_eq!(pk2, pk);
        passed += 1;
    }
    println!("ML-DSA keyGen: {passed}/{} passed", cases.len());
    assert_eq!(passed, 75);
}

/// Every sigGen case through an engine in `mode`; returns the cases passed
/// per interface.
fn siggen_all(mode: SigningMode) -> std::collections::BTreeMap<String, usize> {
    let cases = acvp::load("ML-DSA-sigGen-FIPS204");
    let mut engine = MlDsa::<SoftRing, SoftKeccak>::default().with_signing_mode(mode);
    let mut by_interface = std::collections::BTreeMap::<String, usize>::new();
    for case in &cases {
        let set = set_of(case);
        let sk = case.input_hex("sk");
        let rnd = case.mldsa_rnd();
        let mut sig = vec![0u8; set.signature_len()];
        let interface = case.group_str("signatureInterface");
        let label = if interface == "internal" {
            if case.group_bool("externalMu") {
                let mu = arr::<64>(&case.input_hex("mu"));
                engine.sign_mu(set, &sk, &mu, &rnd, &mut sig).unwrap();
                "internal/externalMu"
            } else {
                let m = case.input_hex("message");
                engine.sign_internal(set, &sk, &m, &rnd, &mut sig).unwrap();
                "internal/message"
            }
        } else {
            let m = case.input_hex("message");
            let ctx = case.input_hex("context");
            match case.group_str("preHash") {
                "pure" => {
                    engine.sign(set, &sk, &m, &ctx, &rnd, &mut sig).unwrap();
                    "external/pure"
                }
                "preHash" => {
                    let name = case.prompt["hashAlg"].as_str().expect("hashAlg");
                    let ph = PreHash::from_name(name).unwrap_or_else(|| panic!("hash {name}"));
                    engine
                        .hash_sign(set, &sk, &m, &ctx, ph, &rnd, &mut sig)
                        .unwrap();
                    "external/preHash"
                }
                other => panic!("preHash {other}"),
            }
        };
        assert_eq!(
            hex::encode(&sig),
            hex::encode(case.expected_hex("signature")),
            "tcId {} ({label}, {mode:?})",
            case.tc_id()
        );
        *by_interface.entry(label.to_string()).or_default() += 1;
    }
    by_interface
}

#[test]
fn acvp_siggen_all_360() {
    let by_interface = siggen_all(SigningMode::Fast);
    let passed: usize = by_interface.values().sum();
    println!("ML-DSA sigGen: {passed}/360 passed {by_interface:?}");
    assert_eq!(passed, 360);
    assert_eq!(by_interface.len(), 4, "every interface exercised");
}

/// The same 360 cases through the small-stack signing mode.
#[test]
fn acvp_siggen_all_360_small_stack() {
    let by_interface = siggen_all(SigningMode::SmallStack);
    let passed: usize = by_interface.values().sum();
    println!("ML-DSA sigGen (small-stack mode): {passed}/360 passed {by_interface:?}");
    assert_eq!(passed, 360);
    assert_eq!(by_interface.len(), 4, "every interface exercised");
}

#[test]
fn acvp_sigver_all_180() {
    let cases = acvp::load("ML-DSA-sigVer-FIPS204");
    let (mut passed, mut valid, mut invalid) = (0, 0, 0);
    for case in &cases {
        let set = set_of(case);
        let pk = case.input_hex("pk");
        let sig = case.input_hex("signature");
        let want = case.expected["testPassed"].as_bool().expect("testPassed");
        let result = if case.group_str("signatureInterface") == "internal" {
            if case.group_bool("externalMu") {
                let mu = arr::<64>(&case.input_hex("mu"));
                mldsa::verify_mu(set, &pk, &mu, &sig)
            } else {
                mldsa::verify_internal(set, &pk, &case.input_hex("message"), &sig)
            }
        } else {
            let m = case.input_hex("message");
            let ctx = case.input_hex("context");
            if case.group_str("preHash") == "preHash" {
                let name = case.prompt["hashAlg"].as_str().expect("hashAlg");
                let ph = PreHash::from_name(name).expect("hash");
                mldsa::hash_verify(set, &pk, &m, &ctx, ph, &sig)
            } else {
                mldsa::verify(set, &pk, &m, &ctx, &sig)
            }
        };
        assert_eq!(result.is_ok(), want, "tcId {}: {result:?}", case.tc_id());
        if want {
            valid += 1;
        } else {
            invalid += 1;
        }
        passed += 1;
    }
    println!(
        "ML-DSA sigVer: {passed}/{} passed ({valid} valid accepted, {invalid} invalid rejected with Err)",
        cases.len()
    );
    assert_eq!(passed, 180);
    assert_eq!((valid, invalid), (36, 144));
}
