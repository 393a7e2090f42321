//! Differential tests against the independent `fips205` crate: identical
//! keys and signatures (deterministic, hedged with the same `addrnd`, and
//! HashSLH-DSA) on pseudo-random inputs for every parameter set, and
//! cross-verification both ways. Few cases for the slow `s` sets;
//! `PQC_FULL=1` runs more.

use fips205::traits::{KeyGen, SerDes, Signer as _, Verifier as _};
use pqc::slhdsa::{self, PreHash};

/// splitmix64: reproducible inputs without an RNG dependency.
struct TestRng(u64);

impl TestRng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// Hands `fips205` a fixed `opt_rand`.
struct FixedRng(Vec<u8>);

impl fips205::RngCore for FixedRng {
    fn next_u32(&mut self) -> u32 {
        unreachable!("fips205 only fills bytes")
    }
    fn next_u64(&mut self) -> u64 {
        unreachable!("fips205 only fills bytes")
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.copy_from_slice(&self.0[..dest.len()]);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), fips205::RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl fips205::CryptoRng for FixedRng {}

fn cases(p: &slhdsa::Params) -> usize {
    let full = std::env::var("PQC_FULL").is_ok_and(|v| v == "1");
    let slow = p.name.ends_with('s');
    match (slow, full) {
        (true, false) => 1,
        (false, false) => 2,
        (true, true) => 3,
        (false, true) => 10,
    }
}

macro_rules! differential {
    ($test:ident, $params:ident, $theirs:ident) => {
        #[test]
        fn $test() {
            use fips205::$theirs as theirs;
            let p = &slhdsa::params::$params;
            let n = p.n;
            let mut rng = TestRng(0x5EED_0000 ^ p.sig_bytes() as u64 ^ ((p.family as u64) << 40));
            for case in 0..cases(p) {
                let sk_seed = rng.bytes(n);
                let sk_prf = rng.bytes(n);
                let pk_seed = rng.bytes(n);
                let mut sk = vec![0u8; p.sk_bytes()];
                let mut pk = vec![0u8; p.pk_bytes()];
                slhdsa::slh_keygen_internal(p, &sk_seed, &sk_prf, &pk_seed, &mut sk, &mut pk)
                    .unwrap();
                let (their_pk, their_sk) =
                    theirs::KG::keygen_from_seed::<{ slhdsa::params::$params.n }>(
                        &sk_seed.clone().try_into().unwrap(),
                        &sk_prf.clone().try_into().unwrap(),
                        &pk_seed.clone().try_into().unwrap(),
                    );
                assert_eq!(
                    sk,
                    their_sk.clone().into_bytes().to_vec(),
                    "{} case {case}: sk",
                    p.name
                );
                assert_eq!(
                    pk,
                    their_pk.clone().into_bytes().to_vec(),
                    "{} case {case}: pk",
                    p.name
                );

                let msg_len = rng.below(300);
                let msg = rng.bytes(msg_len);
                let ctx_len = rng.below(256);
                let ctx = rng.bytes(ctx_len);
                let addrnd = rng.bytes(n);
                let mut sig = vec![0u8; p.sig_bytes()];

                // Pure, deterministic (case 0) or hedged with the same addrnd.
                let hedged = case % 2 == 1 || p.name.ends_with('s');
                let ours_addrnd = if hedged { Some(&addrnd[..]) } else { None };
                slhdsa::slh_sign(p, &sk, &msg, &ctx, ours_addrnd, &mut sig).unwrap();
                let their_sig = their_sk
                    .try_sign_with_rng(&mut FixedRng(addrnd.clone()), &msg, &ctx, hedged)
                    .unwrap();
                assert_eq!(
                    sig,
                    their_sig.to_vec(),
                    "{} case {case}: pure sig (hedged {hedged})",
                    p.name
                );
                assert!(their_pk.verify(&msg, &sig.clone().try_into().unwrap(), &ctx));
                slhdsa::slh_verify(p, &pk, &msg, &ctx, &their_sig).unwrap();

                // A one-bit change anywhere is rejected by both.
                let flip = rng.below(sig.len());
                sig[flip] ^= 1 << rng.below(8);
                assert!(
                    slhdsa::slh_verify(p, &pk, &msg, &ctx, &sig).is_err(),
                    "tampered byte {flip}"
                );
                assert!(!their_pk.verify(&msg, &sig.clone().try_into().unwrap(), &ctx));

                // HashSLH-DSA with a pseudo-randomly chosen pre-hash.
                let ph = PreHash::ALL[rng.below(PreHash::ALL.len())];
                let hedged = !hedged;
                let ours_addrnd = if hedged { Some(&addrnd[..]) } else { None };
                slhdsa::hash_slh_sign(p, &sk, &msg, &ctx, ph, ours_addrnd, &mut sig).unwrap();
                let mut digest = [0u8; 64];
                let len = ph.digest(&msg, &mut digest);
                let their_sig = their_sk
                    .try_hash_sign_with_rng(
                        &mut FixedRng(addrnd.clone()),
                        &digest[..len],
                        &ctx,
                        &ph.oid(),
                        hedged,
                    )
                    .unwrap();
                assert_eq!(
                    sig,
                    their_sig.to_vec(),
                    "{} case {case}: {ph:?} sig",
                    p.name
                );
                assert!(their_pk.hash_verify(
                    &digest[..len],
                    &sig.clone().try_into().unwrap(),
                    &ctx,
                    &ph.oid()
                ));
                slhdsa::hash_slh_verify(p, &pk, &msg, &ctx, ph, &their_sig).unwrap();
            }
            println!(
                "{}: {} differential case(s) agree with fips205",
                p.name,
                cases(p)
            );
        }
    };
}

differential!(sha2_128s, SHA2_128S, slh_dsa_sha2_128s);
differential!(shake_128s, SHAKE_128S, slh_dsa_shake_128s);
differential!(sha2_128f, SHA2_128F, slh_dsa_sha2_128f);
differential!(shake_128f, SHAKE_128F, slh_dsa_shake_128f);
differential!(sha2_192s, SHA2_192S, slh_dsa_sha2_192s);
differential!(shake_192s, SHAKE_192S, slh_dsa_shake_192s);
differential!(sha2_192f, SHA2_192F, slh_dsa_sha2_192f);
differential!(shake_192f, SHAKE_192F, slh_dsa_shake_192f);
differential!(sha2_256s, SHA2_256S, slh_dsa_sha2_256s);
differential!(shake_256s, SHAKE_256S, slh_dsa_shake_256s);
differential!(sha2_256f, SHA2_256F, slh_dsa_sha2_256f);
differential!(shake_256f, SHAKE_256F, slh_dsa_shake_256f);
