//! SLH-DSA against the NIST ACVP vectors (FIPS 205): keyGen and sigVer in
//! full; sigGen two cases per parameter set and interface (one
//! deterministic, one hedged where the set has both) by default, all 624
//! with `PQC_FULL=1`.
mod acvp;

use pqc::slhdsa::{self, params, PreHash};
use std::collections::HashMap;

fn full_run() -> bool {
    std::env::var("PQC_FULL").is_ok_and(|v| v == "1")
}

fn params_of(case: &acvp::Case) -> &'static slhdsa::Params {
    let name = case.group_str("parameterSet");
    params::by_name(name).unwrap_or_else(|| panic!("unknown parameter set {name}"))
}

fn prehash_of(case: &acvp::Case) -> PreHash {
    let name = case.prompt["hashAlg"].as_str().expect("hashAlg");
    PreHash::from_name(name).unwrap_or_else(|| panic!("unknown hashAlg {name}"))
}

#[test]
fn acvp_keygen_all_cases() {
    let cases = acvp::load("SLH-DSA-keyGen-FIPS205");
    let mut passed = 0;
    for case in &cases {
        let p = params_of(case);
        let mut sk = vec![0u8; p.sk_bytes()];
        let mut pk = vec![0u8; p.pk_bytes()];
        slhdsa::slh_keygen_internal(
            p,
            &case.input_hex("skSeed"),
            &case.input_hex("skPrf"),
            &case.input_hex("pkSeed"),
            &mut sk,
            &mut pk,
        )
        .expect("keygen");
        assert_eq!(sk, case.expected_hex("sk"), "tcId {} sk", case.tc_id());
        assert_eq!(pk, case.expected_hex("pk"), "tcId {} pk", case.tc_id());
        passed += 1;
    }
    println!("SLH-DSA keyGen: {passed}/{} passed", cases.len());
    assert_eq!(passed, 120);
}

#[test]
fn acvp_sigver_all_cases() {
    let cases = acvp::load("SLH-DSA-sigVer-FIPS205");
    let mut agreed = 0;
    let (mut valid, mut invalid) = (0, 0);
    for case in &cases {
        let p = params_of(case);
        let pk = case.input_hex("pk");
        let msg = case.input_hex("message");
        let sig = case.input_hex("signature");
        let expected = case.expected["testPassed"].as_bool().expect("testPassed");
        let result = match case.group_str("signatureInterface") {
            "internal" => slhdsa::slh_verify_internal(p, &pk, &msg, &sig),
            "external" => {
                let ctx = case.input_hex("context");
                match case.group_str("preHash") {
                    "pure" => slhdsa::slh_verify(p, &pk, &msg, &ctx, &sig),
                    "preHash" => {
                        slhdsa::hash_slh_verify(p, &pk, &msg, &ctx, prehash_of(case), &sig)
                    }
                    other => panic!("preHash {other}"),
                }
            }
            other => panic!("signatureInterface {other}"),
        };
        assert_eq!(
            result.is_ok(),
            expected,
            "tcId {} ({}): {result:?}",
            case.tc_id(),
            p.name
        );
        if expected {
            valid += 1;
        } else {
            invalid += 1;
        }
        agreed += 1;
    }
    println!(
        "SLH-DSA sigVer: {agreed}/{} agree ({valid} valid, {invalid} invalid)",
        cases.len()
    );
    assert_eq!(agreed, 504);
}

fn sign_case(case: &acvp::Case) -> Vec<u8> {
    let p = params_of(case);
    let sk = case.input_hex("sk");
    let msg = case.input_hex("message");
    let addrnd = if case.group_bool("deterministic") {
        None
    } else {
        Some(case.input_hex("additionalRandomness"))
    };
    let mut sig = vec![0u8; p.sig_bytes()];
    let written = match case.group_str("signatureInterface") {
        "internal" => slhdsa::slh_sign_internal(p, &sk, &msg, addrnd.as_deref(), &mut sig),
        "external" => {
            let ctx = case.input_hex("context");
            match case.group_str("preHash") {
                "pure" => slhdsa::slh_sign(p, &sk, &msg, &ctx, addrnd.as_deref(), &mut sig),
                "preHash" => slhdsa::hash_slh_sign(
                    p,
                    &sk,
                    &msg,
                    &ctx,
                    prehash_of(case),
                    addrnd.as_deref(),
                    &mut sig,
                ),
                other => panic!("preHash {other}"),
            }
        }
        other => panic!("signatureInterface {other}"),
    }
    .expect("sign");
    assert_eq!(written, p.sig_bytes());
    sig
}

fn interface_of(case: &acvp::Case) -> String {
    match case.group_str("signatureInterface") {
        "internal" => "internal".into(),
        _ => case.group_str("preHash").into(),
    }
}

#[test]
fn acvp_siggen() {
    let cases = acvp::load("SLH-DSA-sigGen-FIPS205");
    let full = full_run();
    // Default: per (parameter set, interface), the first deterministic and
    // the first hedged case.
    let mut taken: HashMap<(String, String, bool), usize> = HashMap::new();
    let start = std::time::Instant::now();
    let mut passed = 0;
    for case in &cases {
        let key = (
            case.group_str("parameterSet").to_string(),
            interface_of(case),
            case.group_bool("deterministic"),
        );
        let count = taken.entry(key).or_default();
        if !full && *count >= 1 {
            continue;
        }
        *count += 1;
        let sig = sign_case(case);
        assert_eq!(
            hex::encode_upper(&sig),
            hex::encode_upper(case.expected_hex("signature")),
            "tcId {} ({})",
            case.tc_id(),
            case.group_str("parameterSet")
        );
        passed += 1;
    }
    let mut per_set: HashMap<(String, String), usize> = HashMap::new();
    for ((set, iface, _), n) in &taken {
        *per_set.entry((set.clone(), iface.clone())).or_default() += n.min(&usize::MAX);
    }
    println!(
        "SLH-DSA sigGen: {passed}/{} passed ({}) in {:.1} s",
        if full { cases.len() } else { passed },
        if full {
            "full set, PQC_FULL=1"
        } else {
            "subset; PQC_FULL=1 runs all 624"
        },
        start.elapsed().as_secs_f64()
    );
    if full {
        assert_eq!(passed, 624);
    } else {
        assert_eq!(per_set.len(), 36, "every parameter set × interface covered");
        assert!(per_set.values().all(|&n| n >= 2));
    }
}
