//! Instruction counts of ML-DSA sign (and keygen, verify) for ours and
//! `fips204`, for `valgrind --tool=callgrind`: unlike wall time, the count is
//! the same however loaded the machine is, so the ratio is repeatable on the
//! shared 2-core machines where the criterion ratios are noisy.
//!
//! `scripts/icount.sh` runs this binary once per (implementation, set,
//! operation) under callgrind, collecting only inside `measured_region`, and
//! prints the ratios. Run alone, it just checks that both implementations
//! produce the same signatures and exits.
//!
//! Arguments: `<ours|fips204> <44|65|87> <keygen|sign|verify>`.

use fips204::traits::{KeyGen as _, SerDes as _, Signer as _, Verifier as _};
use pqc::mldsa::{self, ParameterSet};
use std::hint::black_box;

mod common;
use common::mldsa_inputs::{messages, seed, CONTEXT, MESSAGES};

/// The only function callgrind counts (`--toggle-collect=*measured_region*`).
#[inline(never)]
fn measured_region(work: &mut dyn FnMut()) {
    work();
}

macro_rules! run_set {
    ($imp:expr, $op:expr, $ours:ident, $fips:ident) => {{
        let set = ParameterSet::$ours;
        let xi = seed();
        let msgs = messages();
        let (f_pk, f_sk) = fips204::$fips::KG::keygen_from_seed(&xi);
        let pk = f_pk.into_bytes();
        let sk = f_sk.into_bytes();
        let mut our_pk = vec![0u8; set.public_key_len()];
        let mut our_sk = vec![0u8; set.secret_key_len()];
        mldsa::keygen_internal(set, &xi, &mut our_pk, &mut our_sk).unwrap();
        assert_eq!(
            (&our_pk[..], &our_sk[..]),
            (&pk[..], &sk[..]),
            "keys differ"
        );
        let mut sig = vec![0u8; set.signature_len()];
        let sigs: Vec<Vec<u8>> = msgs
            .iter()
            .map(|m| {
                mldsa::sign(set, &sk, m, CONTEXT, &[0u8; 32], &mut sig).unwrap();
                let theirs = fips204::$fips::PrivateKey::try_from_bytes(sk)
                    .unwrap()
                    .try_sign_with_seed(&[0u8; 32], m, CONTEXT)
                    .unwrap();
                assert_eq!(&sig[..], &theirs[..], "signatures differ");
                sig.clone()
            })
            .collect();

        // Each measured region does MESSAGES operations, like one pass of the
        // criterion bench's message cycle.
        match ($imp, $op) {
            ("ours", "keygen") => measured_region(&mut || {
                for _ in 0..MESSAGES {
                    mldsa::keygen_internal(set, black_box(&xi), &mut our_pk, &mut our_sk).unwrap();
                }
            }),
            ("fips204", "keygen") => measured_region(&mut || {
                for _ in 0..MESSAGES {
                    black_box(fips204::$fips::KG::keygen_from_seed(black_box(&xi)));
                }
            }),
            ("ours", "sign") => measured_region(&mut || {
                for m in &msgs {
                    mldsa::sign(
                        set,
                        black_box(&sk),
                        black_box(m),
                        CONTEXT,
                        &[0u8; 32],
                        &mut sig,
                    )
                    .unwrap();
                }
            }),
            ("fips204", "sign") => measured_region(&mut || {
                for m in &msgs {
                    let key = fips204::$fips::PrivateKey::try_from_bytes(black_box(sk)).unwrap();
                    black_box(
                        key.try_sign_with_seed(&[0u8; 32], black_box(m), CONTEXT)
                            .unwrap(),
                    );
                }
            }),
            ("ours", "verify") => measured_region(&mut || {
                for (m, s) in msgs.iter().zip(&sigs) {
                    mldsa::verify(set, black_box(&pk), black_box(m), CONTEXT, s).unwrap();
                }
            }),
            ("fips204", "verify") => measured_region(&mut || {
                for (m, s) in msgs.iter().zip(&sigs) {
                    let key = fips204::$fips::PublicKey::try_from_bytes(black_box(pk)).unwrap();
                    let s: [u8; fips204::$fips::SIG_LEN] = s[..].try_into().unwrap();
                    assert!(key.verify(black_box(m), &s, CONTEXT));
                }
            }),
            (imp, op) => return Err(format!("unknown implementation or operation: {imp} {op}")),
        }
    }};
}

fn main() -> Result<(), String> {
    // `cargo bench` passes `--bench`; keep only the positional arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let [imp, set, op] = match &args[..] {
        [] => ["ours", "44", "sign"].map(String::from),
        [a, b, c] => [a.clone(), b.clone(), c.clone()],
        _ => {
            return Err("usage: mldsa_icount <ours|fips204> <44|65|87> <keygen|sign|verify>".into())
        }
    };
    match set.as_str() {
        "44" => run_set!(imp.as_str(), op.as_str(), MlDsa44, ml_dsa_44),
        "65" => run_set!(imp.as_str(), op.as_str(), MlDsa65, ml_dsa_65),
        "87" => run_set!(imp.as_str(), op.as_str(), MlDsa87, ml_dsa_87),
        other => return Err(format!("unknown parameter set: {other}")),
    }
    Ok(())
}
