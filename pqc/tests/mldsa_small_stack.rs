//! The small-stack signing mode against the fast one: for seeded random
//! keys, messages, contexts and rnd, both modes must produce the same
//! signature through every signing interface, and the same error for a
//! malformed secret key. (`tests/mldsa_acvp.rs` runs the ACVP sigGen
//! vectors through both modes; `tests/mldsa_stack.rs` measures their stack.)

use pqc::keccak::SoftKeccak;
use pqc::mldsa::{MlDsa, ParameterSet, Params, PreHash, SigningMode};
use pqc::ring::SoftRing;

/// SplitMix64: a tiny seeded generator for test inputs.
struct TestRng(u64);

impl TestRng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next_u64() as u8;
        }
    }
    fn below(&mut self, n: u64) -> usize {
        (self.next_u64() % n) as usize
    }
}

fn engine(mode: SigningMode) -> MlDsa<SoftRing, SoftKeccak> {
    MlDsa::default().with_signing_mode(mode)
}

fn cases() -> usize {
    if std::env::var("PQC_FULL").is_ok_and(|v| v == "1") {
        2_000
    } else {
        200
    }
}

#[test]
fn small_stack_signatures_equal_fast_ones_on_random_inputs() {
    let mut rng = TestRng(0x5EED_0016);
    let (mut fast, mut small) = (engine(SigningMode::Fast), engine(SigningMode::SmallStack));
    let prehashes = [PreHash::Sha2_256, PreHash::Sha3_512, PreHash::Shake128];
    for set in ParameterSet::ALL {
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        let (mut sig_fast, mut sig_small) = (
            vec![0u8; set.signature_len()],
            vec![0u8; set.signature_len()],
        );
        for case in 0..cases() {
            let mut xi = [0u8; 32];
            rng.fill(&mut xi);
            fast.keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
            let mut msg = vec![0u8; rng.below(200)];
            rng.fill(&mut msg);
            let mut ctx = vec![0u8; rng.below(40)];
            rng.fill(&mut ctx);
            let mut rnd = [0u8; 32];
            if case % 2 == 0 {
                rng.fill(&mut rnd); // hedged; odd cases deterministic
            }
            let what = format!("{} case {case}", set.params().name);
            match case % 4 {
                0 | 1 => {
                    fast.sign(set, &sk, &msg, &ctx, &rnd, &mut sig_fast)
                        .unwrap();
                    small
                        .sign(set, &sk, &msg, &ctx, &rnd, &mut sig_small)
                        .unwrap();
                }
                2 => {
                    let ph = prehashes[case / 4 % prehashes.len()];
                    fast.hash_sign(set, &sk, &msg, &ctx, ph, &rnd, &mut sig_fast)
                        .unwrap();
                    small
                        .hash_sign(set, &sk, &msg, &ctx, ph, &rnd, &mut sig_small)
                        .unwrap();
                }
                _ => {
                    let mut mu = [0u8; 64];
                    rng.fill(&mut mu);
                    fast.sign_mu(set, &sk, &mu, &rnd, &mut sig_fast).unwrap();
                    small.sign_mu(set, &sk, &mu, &rnd, &mut sig_small).unwrap();
                }
            }
            assert_eq!(sig_fast, sig_small, "{what}");
            if case % 4 <= 1 {
                fast.verify(set, &pk, &msg, &ctx, &sig_small).unwrap();
            }
        }
    }
}

#[test]
fn both_modes_reject_an_out_of_range_secret_key_alike() {
    for set in ParameterSet::ALL {
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        engine(SigningMode::Fast)
            .keygen_internal(set, &[9; 32], &mut pk, &mut sk)
            .unwrap();
        // The first byte of s2: all ones decodes to η − 7 (η = 2, 3 bits)
        // or η − 15 (η = 4, 4 bits), below −η.
        let eb = Params::poly_bytes(set.params().eta_bits());
        sk[128 + set.params().l * eb] = 0xFF;
        let mut results = Vec::new();
        for mode in [SigningMode::Fast, SigningMode::SmallStack] {
            let mut sig = vec![0xA5u8; set.signature_len()];
            let r = engine(mode).sign(set, &sk, b"m", b"", &[0; 32], &mut sig);
            assert!(r.is_err(), "{mode:?} accepted a malformed key");
            results.push((format!("{r:?}"), sig));
        }
        assert_eq!(results[0], results[1], "{}", set.params().name);
    }
}

#[test]
fn the_default_mode_follows_the_cargo_feature() {
    let want = if cfg!(feature = "small-stack-sign") {
        SigningMode::SmallStack
    } else {
        SigningMode::Fast
    };
    assert_eq!(MlDsa::<SoftRing, SoftKeccak>::default().signing_mode, want);
    assert_eq!(MlDsa::new(SoftRing, SoftKeccak).signing_mode, want);
}
