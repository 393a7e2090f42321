//! ML-DSA (FIPS 204) keygen, sign and verify for ML-DSA-44/65/87: ours
//! against `fips204` and RustCrypto `ml-dsa`, measured in the same run.
//!
//! What is timed is the same FIPS 204 work for every implementation:
//! - keygen: 32-byte seed ξ → key pair (`ML-DSA.KeyGen_internal`);
//! - sign: encoded secret key bytes + message + context → signature
//!   (deterministic variant, rnd = 0), decoding the key included, since
//!   every implementation must expand Â from ρ either way;
//! - verify: encoded public key + signature bytes + message + context → bool.
//!
//! Ours is the byte-slice API (`pqc::mldsa::{keygen_internal, sign, verify}`
//! on the software backends). The peers' keygen returns their key objects
//! (which also precompute, e.g. Â in the NTT domain), ours the encoded keys.
//!
//! Signing cycles through several messages because the number of rejection
//! rounds depends on the message; all implementations get the same messages
//! and, being deterministic, do the same number of rounds (the setup checks
//! that they produce identical signatures and public keys).
//!
//! `cargo bench -p pqc --bench mldsa` (add `PQC_BENCH_QUICK=1` for a smoke
//! run); the ratio table is printed at the end.

mod common;

use criterion::{BenchmarkId, Criterion};
use fips204::traits::{KeyGen as _, SerDes as _, Signer as _, Verifier as _};
use pqc::mldsa;
use std::hint::black_box;
use std::time::SystemTime;

const FIPS204: &str = "fips204";
const RUSTCRYPTO: &str = "ml-dsa";
const PEERS: [&str; 2] = [FIPS204, RUSTCRYPTO];

use common::mldsa_inputs::{messages, seed, CONTEXT, MESSAGES};

macro_rules! bench_set {
    ($c:expr, $name:literal, $ours:ident, $fips:ident, $rc:ty) => {{
        let c: &mut Criterion = $c;
        let set = $name;
        let xi = seed();
        let msgs = messages();

        // fips204
        let (f_pk, f_sk) = fips204::$fips::KG::keygen_from_seed(&xi);
        let pk_bytes = f_pk.into_bytes();
        let sk_bytes = f_sk.into_bytes();
        let f_sigs: Vec<_> = msgs
            .iter()
            .map(|m| {
                fips204::$fips::PrivateKey::try_from_bytes(sk_bytes)
                    .unwrap()
                    .try_sign_with_seed(&[0u8; 32], m, CONTEXT)
                    .unwrap()
            })
            .collect();

        // RustCrypto ml-dsa, cross-checked against fips204.
        let rc_seed = ml_dsa::Seed::from(xi);
        let rc_key = ml_dsa::SigningKey::<$rc>::from_seed(&rc_seed);
        let rc_pk = ml_dsa::Keypair::verifying_key(&rc_key).encode();
        assert_eq!(rc_pk.as_slice(), &pk_bytes[..], "{set}: public keys differ");
        #[allow(deprecated)] // the expanded encoding is what FIPS 204 calls sk
        let rc_sk = rc_key.expanded_key().to_expanded();
        assert_eq!(rc_sk.as_slice(), &sk_bytes[..], "{set}: secret keys differ");
        for (m, s) in msgs.iter().zip(&f_sigs) {
            let rc_sig = rc_key
                .expanded_key()
                .sign_deterministic(m, CONTEXT)
                .unwrap()
                .encode();
            assert_eq!(rc_sig.as_slice(), &s[..], "{set}: signatures differ");
        }

        // Ours, cross-checked against both.
        let ours = mldsa::ParameterSet::$ours;
        let mut our_pk = vec![0u8; ours.public_key_len()];
        let mut our_sk = vec![0u8; ours.secret_key_len()];
        mldsa::keygen_internal(ours, &xi, &mut our_pk, &mut our_sk).unwrap();
        assert_eq!(our_pk, pk_bytes, "{set}: our public key differs");
        assert_eq!(our_sk, sk_bytes, "{set}: our secret key differs");
        let mut our_sig = vec![0u8; ours.signature_len()];
        for (m, s) in msgs.iter().zip(&f_sigs) {
            mldsa::sign(ours, &our_sk, m, CONTEXT, &[0u8; 32], &mut our_sig).unwrap();
            assert_eq!(our_sig, s, "{set}: our signature differs");
        }

        let mut g = c.benchmark_group("ML-DSA keygen");
        g.bench_function(BenchmarkId::new(common::OURS, set), |b| {
            b.iter(|| {
                mldsa::keygen_internal(ours, black_box(&xi), &mut our_pk, &mut our_sk).unwrap()
            })
        });
        g.bench_function(BenchmarkId::new(FIPS204, set), |b| {
            b.iter(|| fips204::$fips::KG::keygen_from_seed(black_box(&xi)))
        });
        g.bench_function(BenchmarkId::new(RUSTCRYPTO, set), |b| {
            b.iter(|| ml_dsa::SigningKey::<$rc>::from_seed(black_box(&rc_seed)))
        });
        g.finish();

        let mut g = c.benchmark_group("ML-DSA sign");
        g.bench_function(BenchmarkId::new(common::OURS, set), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % MESSAGES;
                mldsa::sign(
                    ours,
                    black_box(&sk_bytes),
                    black_box(&msgs[i]),
                    CONTEXT,
                    &[0u8; 32],
                    &mut our_sig,
                )
                .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new(FIPS204, set), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % MESSAGES;
                let sk = fips204::$fips::PrivateKey::try_from_bytes(black_box(sk_bytes)).unwrap();
                sk.try_sign_with_seed(&[0u8; 32], black_box(&msgs[i]), CONTEXT)
                    .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new(RUSTCRYPTO, set), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % MESSAGES;
                #[allow(deprecated)]
                let sk = ml_dsa::ExpandedSigningKey::<$rc>::from_expanded(black_box(&rc_sk));
                sk.sign_deterministic(black_box(&msgs[i]), CONTEXT)
                    .unwrap()
                    .encode()
            })
        });
        g.finish();

        let mut g = c.benchmark_group("ML-DSA verify");
        g.bench_function(BenchmarkId::new(common::OURS, set), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % MESSAGES;
                mldsa::verify(
                    ours,
                    black_box(&pk_bytes),
                    black_box(&msgs[i]),
                    CONTEXT,
                    &f_sigs[i],
                )
                .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new(FIPS204, set), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % MESSAGES;
                let pk = fips204::$fips::PublicKey::try_from_bytes(black_box(pk_bytes)).unwrap();
                assert!(pk.verify(black_box(&msgs[i]), &f_sigs[i], CONTEXT));
            })
        });
        let rc_sigs: Vec<ml_dsa::EncodedSignature<$rc>> = f_sigs
            .iter()
            .map(|s| ml_dsa::EncodedSignature::<$rc>::try_from(&s[..]).unwrap())
            .collect();
        g.bench_function(BenchmarkId::new(RUSTCRYPTO, set), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % MESSAGES;
                let pk = ml_dsa::VerifyingKey::<$rc>::decode(black_box(&rc_pk));
                let sig = ml_dsa::Signature::<$rc>::decode(&rc_sigs[i]).unwrap();
                assert!(pk.verify_with_context(black_box(&msgs[i]), CONTEXT, &sig));
            })
        });
        g.finish();
    }};
}

fn main() {
    let started = SystemTime::now();
    let mut c = common::criterion();
    bench_set!(&mut c, "ML-DSA-44", MlDsa44, ml_dsa_44, ml_dsa::MlDsa44);
    bench_set!(&mut c, "ML-DSA-65", MlDsa65, ml_dsa_65, ml_dsa::MlDsa65);
    bench_set!(&mut c, "ML-DSA-87", MlDsa87, ml_dsa_87, ml_dsa::MlDsa87);
    c.final_summary();
    common::print_summary("ML-DSA", started, &PEERS);
}
