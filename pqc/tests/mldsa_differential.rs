//! Differential test against the independent `fips204` crate: for random
//! (ξ, message, context, rnd) the two implementations must produce the same
//! public key, secret key and signature, and each must accept the other's
//! signatures. Seeded, so a failure reproduces; `PQC_FULL=1` runs 10× more.
//!
//! Every 8th case also compares HashML-DSA (cycling through all pre-hashes)
//! and checks that a modified message is rejected by both.

use fips204::traits::{KeyGen, SerDes, Signer, Verifier};
use pqc::mldsa::{self, ParameterSet, PreHash};

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

fn cases() -> usize {
    if std::env::var("PQC_FULL").is_ok_and(|v| v == "1") {
        10_000
    } else {
        1_000
    }
}

macro_rules! differential {
    ($name:ident, $set:expr, $theirs:ident, $seed:expr) => {
        #[test]
        fn $name() {
            use fips204::$theirs as theirs;
            let set: ParameterSet = $set;
            let mut rng = TestRng($seed);
            let n = cases();
            let (mut hashed, mut deterministic) = (0, 0);
            for case in 0..n {
                let mut xi = [0u8; 32];
                rng.fill(&mut xi);
                let mut msg = vec![0u8; rng.below(300)];
                rng.fill(&mut msg);
                let mut ctx = vec![0u8; rng.below(256)];
                rng.fill(&mut ctx);
                let mut rnd = [0u8; 32];
                if case % 10 == 0 {
                    deterministic += 1;
                } else {
                    rng.fill(&mut rnd);
                }
                let tag = format!("{set:?} case {case} seed {:#x}", $seed);

                let mut pk = vec![0u8; set.public_key_len()];
                let mut sk = vec![0u8; set.secret_key_len()];
                mldsa::keygen_internal(set, &xi, &mut pk, &mut sk).unwrap();
                let (their_pk, their_sk) = theirs::KG::keygen_from_seed(&xi);
                assert_eq!(pk, their_pk.clone().into_bytes().to_vec(), "pk {tag}");
                assert_eq!(sk, their_sk.clone().into_bytes().to_vec(), "sk {tag}");

                let mut sig = vec![0u8; set.signature_len()];
                mldsa::sign(set, &sk, &msg, &ctx, &rnd, &mut sig).unwrap();
                let their_sig = their_sk.try_sign_with_seed(&rnd, &msg, &ctx).unwrap();
                assert_eq!(sig, their_sig.to_vec(), "signature {tag}");
                let ours_as_theirs: [u8; theirs::SIG_LEN] = sig.clone().try_into().unwrap();
                assert!(their_pk.verify(&msg, &ours_as_theirs, &ctx), "theirs rejects ours {tag}");
                mldsa::verify(set, &pk, &msg, &ctx, &their_sig).expect(&tag);

                if case % 8 == 0 {
                    let ph = PreHash::ALL[(case / 8) % PreHash::ALL.len()];
                    let mut hsig = vec![0u8; set.signature_len()];
                    mldsa::hash_sign(set, &sk, &msg, &ctx, ph, &rnd, &mut hsig).unwrap();
                    let mut digest = [0u8; 64];
                    let len = ph.digest(&msg, &mut digest);
                    let digest = &digest[..len];
                    let their_hsig = their_sk
                        .try_hash_sign_with_seed(&rnd, digest, &ctx, &ph.oid())
                        .unwrap();
                    assert_eq!(hsig, their_hsig.to_vec(), "HashML-DSA {ph:?} {tag}");
                    assert!(their_pk.hash_verify(digest, &their_hsig, &ctx, &ph.oid()));
                    mldsa::hash_verify(set, &pk, &msg, &ctx, ph, &their_hsig).expect(&tag);
                    // A different message must fail on both sides.
                    msg.push(1);
                    assert!(mldsa::verify(set, &pk, &msg, &ctx, &sig).is_err(), "{tag}");
                    assert!(!their_pk.verify(&msg, &ours_as_theirs, &ctx), "{tag}");
                    hashed += 1;
                }
            }
            println!(
                "{set:?}: {n} cases identical to fips204 ({deterministic} deterministic, {hashed} HashML-DSA)"
            );
        }
    };
}

differential!(
    differential_ml_dsa_44,
    ParameterSet::MlDsa44,
    ml_dsa_44,
    0x44_0001
);
differential!(
    differential_ml_dsa_65,
    ParameterSet::MlDsa65,
    ml_dsa_65,
    0x65_0001
);
differential!(
    differential_ml_dsa_87,
    ParameterSet::MlDsa87,
    ml_dsa_87,
    0x87_0001
);
