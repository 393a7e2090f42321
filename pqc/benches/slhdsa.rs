//! SLH-DSA (FIPS 205) sign and verify for the 128f, 128s, 192f and 256f sets,
//! SHAKE and SHA2: ours against `fips205` and RustCrypto `slh-dsa`, measured
//! in the same run.
//!
//! What is timed is the same FIPS 205 work for every implementation:
//! - sign: encoded secret key bytes + message + context → signature bytes,
//!   deterministic variant (opt_rand = PK.seed);
//! - verify: encoded public key + signature bytes + message + context → bool.
//!
//! Ours is the byte-slice API (`pqc::slhdsa::{slh_sign, slh_verify}` on the
//! software backends).
//!
//! The setup checks that all implementations derive the same public key and
//! produce the same signature, so they do identical work.
//!
//! `cargo bench -p pqc --bench slhdsa` (add `PQC_BENCH_QUICK=1` for a smoke
//! run); the ratio table is printed at the end. Signing the `s` sets takes a
//! few hundred milliseconds, so every group uses 10 flat samples.

mod common;

use criterion::{BenchmarkId, Criterion, SamplingMode};
use fips205::traits::{KeyGen as _, SerDes as _, Signer as _, Verifier as _};
use pqc::slhdsa;
use std::hint::black_box;
use std::time::{Duration, SystemTime};

const FIPS205: &str = "fips205";
const RUSTCRYPTO: &str = "slh-dsa";
const PEERS: [&str; 2] = [FIPS205, RUSTCRYPTO];

const MESSAGE: &[u8] = b"SLH-DSA benchmark message, 48 bytes long........";
const CONTEXT: &[u8] = b"pqc bench";

/// fips205 asks for a random source even for the deterministic variant,
/// where it never reads it; this one yields zeros.
struct NoRandomness;

impl fips205::RngCore for NoRandomness {
    fn next_u32(&mut self) -> u32 {
        0
    }
    fn next_u64(&mut self) -> u64 {
        0
    }
    fn fill_bytes(&mut self, out: &mut [u8]) {
        out.fill(0);
    }
    fn try_fill_bytes(&mut self, out: &mut [u8]) -> Result<(), fips205::RngError> {
        out.fill(0);
        Ok(())
    }
}

impl fips205::CryptoRng for NoRandomness {}

/// Sample count and time for one group: `s`-set signing needs the longest.
fn configure(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, slow: bool) {
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    if common::quick_mode() {
        g.warm_up_time(Duration::from_millis(100))
            .measurement_time(Duration::from_millis(300));
    } else if slow {
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(6));
    } else {
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
    }
}

macro_rules! bench_set {
    ($c:expr, $name:literal, $ours:ident, $fips:ident, $rc:ty, $n:literal, $slow:expr) => {{
        let c: &mut Criterion = $c;
        let set = $name;
        let sk_seed: [u8; $n] = core::array::from_fn(|i| i as u8);
        let sk_prf: [u8; $n] = core::array::from_fn(|i| 0x40 + i as u8);
        let pk_seed: [u8; $n] = core::array::from_fn(|i| 0x80 + i as u8);

        let (f_pk, f_sk) = fips205::$fips::KG::keygen_from_seed(&sk_seed, &sk_prf, &pk_seed);
        let pk_bytes = f_pk.into_bytes();
        let sk_bytes = f_sk.into_bytes();
        let sign_fips205 = |sk_bytes: &[u8; fips205::$fips::SK_LEN]| {
            fips205::$fips::PrivateKey::try_from_bytes(*sk_bytes)
                .unwrap()
                .try_sign_with_rng(&mut NoRandomness, MESSAGE, CONTEXT, false)
                .unwrap()
        };
        let f_sig = sign_fips205(&sk_bytes);

        // RustCrypto slh-dsa, cross-checked against fips205.
        let sign_rustcrypto = |sk_bytes: &[u8]| {
            slh_dsa::SigningKey::<$rc>::try_from(sk_bytes)
                .unwrap()
                .try_sign_with_context(MESSAGE, CONTEXT, None)
                .unwrap()
                .to_bytes()
        };
        let rc_key = slh_dsa::SigningKey::<$rc>::slh_keygen_internal(&sk_seed, &sk_prf, &pk_seed);
        assert_eq!(
            rc_key.to_bytes().as_slice(),
            &sk_bytes[..],
            "{set}: keys differ"
        );
        let rc_sig = sign_rustcrypto(&sk_bytes[..]);
        assert_eq!(rc_sig.as_slice(), &f_sig[..], "{set}: signatures differ");

        // Ours, cross-checked against both.
        let ours = &slhdsa::params::$ours;
        let mut our_sk = vec![0u8; ours.sk_bytes()];
        let mut our_pk = vec![0u8; ours.pk_bytes()];
        slhdsa::slh_keygen_internal(ours, &sk_seed, &sk_prf, &pk_seed, &mut our_sk, &mut our_pk)
            .unwrap();
        assert_eq!(our_pk, pk_bytes, "{set}: our public key differs");
        let mut our_sig = vec![0u8; ours.sig_bytes()];
        let sign_ours = |sk: &[u8], sig: &mut [u8]| {
            slhdsa::slh_sign(ours, sk, MESSAGE, CONTEXT, None, sig).unwrap()
        };
        assert_eq!(sign_ours(&sk_bytes, &mut our_sig), our_sig.len());
        assert_eq!(our_sig, f_sig, "{set}: our signature differs");

        let mut g = c.benchmark_group("SLH-DSA sign");
        configure(&mut g, $slow);
        g.bench_function(BenchmarkId::new(common::OURS, set), |b| {
            b.iter(|| sign_ours(black_box(&sk_bytes), &mut our_sig))
        });
        g.bench_function(BenchmarkId::new(FIPS205, set), |b| {
            b.iter(|| sign_fips205(black_box(&sk_bytes)))
        });
        g.bench_function(BenchmarkId::new(RUSTCRYPTO, set), |b| {
            b.iter(|| sign_rustcrypto(black_box(&sk_bytes[..])))
        });
        g.finish();

        let mut g = c.benchmark_group("SLH-DSA verify");
        configure(&mut g, false);
        g.bench_function(BenchmarkId::new(common::OURS, set), |b| {
            b.iter(|| {
                slhdsa::slh_verify(
                    ours,
                    black_box(&pk_bytes),
                    MESSAGE,
                    CONTEXT,
                    black_box(&f_sig),
                )
                .unwrap()
            })
        });
        g.bench_function(BenchmarkId::new(FIPS205, set), |b| {
            b.iter(|| {
                let pk = fips205::$fips::PublicKey::try_from_bytes(black_box(pk_bytes)).unwrap();
                assert!(pk.verify(MESSAGE, black_box(&f_sig), CONTEXT));
            })
        });
        g.bench_function(BenchmarkId::new(RUSTCRYPTO, set), |b| {
            b.iter(|| {
                let pk = slh_dsa::VerifyingKey::<$rc>::try_from(black_box(&pk_bytes[..])).unwrap();
                let sig = slh_dsa::Signature::<$rc>::try_from(black_box(&f_sig[..])).unwrap();
                assert!(pk.try_verify_with_context(MESSAGE, CONTEXT, &sig).is_ok());
            })
        });
        g.finish();
    }};
}

fn main() {
    let started = SystemTime::now();
    let mut c = common::criterion();
    bench_set!(
        &mut c,
        "SHAKE-128f",
        SHAKE_128F,
        slh_dsa_shake_128f,
        slh_dsa::Shake128f,
        16,
        false
    );
    bench_set!(
        &mut c,
        "SHA2-128f",
        SHA2_128F,
        slh_dsa_sha2_128f,
        slh_dsa::Sha2_128f,
        16,
        false
    );
    bench_set!(
        &mut c,
        "SHAKE-128s",
        SHAKE_128S,
        slh_dsa_shake_128s,
        slh_dsa::Shake128s,
        16,
        true
    );
    bench_set!(
        &mut c,
        "SHA2-128s",
        SHA2_128S,
        slh_dsa_sha2_128s,
        slh_dsa::Sha2_128s,
        16,
        true
    );
    bench_set!(
        &mut c,
        "SHAKE-192f",
        SHAKE_192F,
        slh_dsa_shake_192f,
        slh_dsa::Shake192f,
        24,
        false
    );
    bench_set!(
        &mut c,
        "SHA2-192f",
        SHA2_192F,
        slh_dsa_sha2_192f,
        slh_dsa::Sha2_192f,
        24,
        false
    );
    bench_set!(
        &mut c,
        "SHAKE-256f",
        SHAKE_256F,
        slh_dsa_shake_256f,
        slh_dsa::Shake256f,
        32,
        false
    );
    bench_set!(
        &mut c,
        "SHA2-256f",
        SHA2_256F,
        slh_dsa_sha2_256f,
        slh_dsa::Sha2_256f,
        32,
        false
    );
    c.final_summary();
    common::print_summary("SLH-DSA", started, &PEERS);
}
