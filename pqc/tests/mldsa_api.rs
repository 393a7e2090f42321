//! ML-DSA public API: error paths of every entry point (lengths, context,
//! malformed encodings), the typed keys and RustCrypto traits, and the
//! backend seams (all Keccak work through `sponge`, ring work at vector grain).

use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::mldsa::{self, ml_dsa_44, ml_dsa_65, ml_dsa_87, MlDsa, ParameterSet, PreHash};
use pqc::ring::{Poly, RingBackend, SoftRing};
use pqc::Error;
use signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};

struct Keys {
    set: ParameterSet,
    pk: Vec<u8>,
    sk: Vec<u8>,
    sig: Vec<u8>,
}

const MSG: &[u8] = b"the quick brown fox";
const CTX: &[u8] = b"ctx";

fn keys(set: ParameterSet) -> Keys {
    let mut pk = vec![0u8; set.public_key_len()];
    let mut sk = vec![0u8; set.secret_key_len()];
    mldsa::keygen_internal(set, &[9; 32], &mut pk, &mut sk).unwrap();
    let mut sig = vec![0u8; set.signature_len()];
    mldsa::sign(set, &sk, MSG, CTX, &[1; 32], &mut sig).unwrap();
    mldsa::verify(set, &pk, MSG, CTX, &sig).unwrap();
    Keys { set, pk, sk, sig }
}

fn is_length_error(r: Result<(), Error>, expected: usize, got: usize) -> bool {
    matches!(r, Err(Error::InvalidLength { expected: e, got: g, .. }) if e == expected && g == got)
}

#[test]
fn wrong_lengths_are_errors_for_every_entry_point() {
    for set in ParameterSet::ALL {
        let k = keys(set);
        let (pkl, skl, sigl) = (
            set.public_key_len(),
            set.secret_key_len(),
            set.signature_len(),
        );
        for delta in [-1i64, 1, -(pkl as i64)] {
            let pk = vec![0u8; (pkl as i64 + delta) as usize];
            assert!(is_length_error(
                mldsa::verify(set, &pk, MSG, CTX, &k.sig),
                pkl,
                pk.len()
            ));
            assert!(is_length_error(
                mldsa::verify_internal(set, &pk, MSG, &k.sig),
                pkl,
                pk.len()
            ));
            assert!(is_length_error(
                mldsa::verify_mu(set, &pk, &[0; 64], &k.sig),
                pkl,
                pk.len()
            ));
            assert!(mldsa::external_mu(set, &pk, MSG, CTX).is_err());
        }
        for bad in [0usize, 1, sigl - 1, sigl + 1] {
            let sig = vec![0u8; bad];
            assert!(is_length_error(
                mldsa::verify(set, &k.pk, MSG, CTX, &sig),
                sigl,
                bad
            ));
            let r = mldsa::hash_verify(set, &k.pk, MSG, CTX, PreHash::Sha2_256, &sig);
            assert!(is_length_error(r, sigl, bad));
            let mut out = vec![0u8; bad];
            let r = mldsa::sign(set, &k.sk, MSG, CTX, &[0; 32], &mut out);
            assert!(is_length_error(r, sigl, bad));
        }
        for bad in [0usize, skl - 1, skl + 1] {
            let sk = vec![0u8; bad];
            let mut out = vec![0u8; sigl];
            assert!(is_length_error(
                mldsa::sign(set, &sk, MSG, CTX, &[0; 32], &mut out),
                skl,
                bad
            ));
            assert!(is_length_error(
                mldsa::sign_internal(set, &sk, MSG, &[0; 32], &mut out),
                skl,
                bad
            ));
            assert!(is_length_error(
                mldsa::sign_mu(set, &sk, &[0; 64], &[0; 32], &mut out),
                skl,
                bad
            ));
            let mut pk = vec![0u8; pkl];
            assert!(is_length_error(
                mldsa::keygen_internal(set, &[0; 32], &mut pk, &mut vec![0; bad]),
                skl,
                bad
            ));
        }
    }
    assert!(ml_dsa_44::VerifyingKey::try_from(&[0u8; 1311][..]).is_err());
    assert!(ml_dsa_65::SigningKey::try_from(&[0u8; 10][..]).is_err());
    assert!(ml_dsa_87::Signature::try_from(&[0u8; 4628][..]).is_err());
}

#[test]
fn context_longer_than_255_bytes_is_refused() {
    let k = keys(ParameterSet::MlDsa44);
    let long = [0u8; 256];
    let mut sig = vec![0u8; k.set.signature_len()];
    let too_long = Err(Error::ContextTooLong { got: 256 });
    assert_eq!(
        mldsa::sign(k.set, &k.sk, MSG, &long, &[0; 32], &mut sig),
        too_long
    );
    assert_eq!(mldsa::verify(k.set, &k.pk, MSG, &long, &k.sig), too_long);
    let ph = PreHash::Shake256;
    assert_eq!(
        mldsa::hash_sign(k.set, &k.sk, MSG, &long, ph, &[0; 32], &mut sig),
        too_long
    );
    assert_eq!(
        mldsa::hash_verify(k.set, &k.pk, MSG, &long, ph, &k.sig),
        too_long
    );
    assert_eq!(
        mldsa::external_mu(k.set, &k.pk, MSG, &long).map(|_| ()),
        too_long
    );
    // 255 bytes is the maximum and works.
    let max = [7u8; 255];
    mldsa::sign(k.set, &k.sk, MSG, &max, &[0; 32], &mut sig).unwrap();
    mldsa::verify(k.set, &k.pk, MSG, &max, &sig).unwrap();
    assert!(mldsa::verify(k.set, &k.pk, MSG, &max[..254], &sig).is_err());
}

#[test]
fn malformed_signatures_are_errors_not_panics() {
    for set in ParameterSet::ALL {
        let k = keys(set);
        let p = set.params();
        let hints = set.signature_len() - p.omega - p.k;
        let malformed = |sig: &[u8]| {
            matches!(
                mldsa::verify(set, &k.pk, MSG, CTX, sig),
                Err(Error::MalformedEncoding { .. })
            )
        };
        // Count beyond ω.
        let mut s = k.sig.clone();
        s[hints + p.omega + p.k - 1] = p.omega as u8 + 1;
        assert!(malformed(&s));
        // Decreasing cumulative counts.
        let mut s = k.sig.clone();
        s[hints + p.omega] = s[hints + p.omega + 1].wrapping_add(1);
        if s[hints + p.omega] as usize <= p.omega {
            assert!(malformed(&s));
        }
        // Non-zero padding after the last index.
        let mut s = k.sig.clone();
        let used = s[hints + p.omega + p.k - 1] as usize;
        if used < p.omega {
            s[hints + p.omega - 1] = 1;
            assert!(malformed(&s));
        }
        // Indices not strictly increasing within a polynomial.
        let mut s = k.sig.clone();
        let first_count = s[hints + p.omega] as usize;
        if first_count >= 2 {
            s[hints + 1] = s[hints];
            assert!(malformed(&s));
        }
        // z with a coefficient equal to γ1 (encoded 0): valid encoding, fails the norm check.
        let mut s = k.sig.clone();
        let z0 = p.ctilde_bytes();
        s[z0] = 0;
        s[z0 + 1] = 0;
        s[z0 + 2] &= !((1u8 << (p.gamma1_bits() - 16)) - 1);
        assert_eq!(
            mldsa::verify(set, &k.pk, MSG, CTX, &s),
            Err(Error::InvalidSignature)
        );
        // Flipped c̃ bit.
        let mut s = k.sig.clone();
        s[0] ^= 1;
        assert_eq!(
            mldsa::verify(set, &k.pk, MSG, CTX, &s),
            Err(Error::InvalidSignature)
        );
        // Random garbage of the right length never panics.
        let mut x = 0x1234_5678u32;
        for _ in 0..50 {
            let garbage: Vec<u8> = (0..set.signature_len())
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect();
            assert!(mldsa::verify(set, &k.pk, MSG, CTX, &garbage).is_err());
        }
    }
    // The typed signature checks the hint encoding at decoding time.
    let k = keys(ParameterSet::MlDsa44);
    let mut s = k.sig.clone();
    let n = s.len();
    s[n - 1] = 81;
    assert!(matches!(
        ml_dsa_44::Signature::try_from(&s[..]),
        Err(Error::MalformedEncoding { .. })
    ));
}

#[test]
fn secret_key_decoding_checks_ranges_and_consistency() {
    for set in ParameterSet::ALL {
        let k = keys(set);
        let mut sig = vec![0u8; set.signature_len()];
        // First s1 coefficient: η − value with value > 2η is out of range.
        let mut sk = k.sk.clone();
        sk[128] |= if set.params().eta == 2 { 0x07 } else { 0x0F };
        assert!(matches!(
            mldsa::sign(set, &sk, MSG, CTX, &[0; 32], &mut sig),
            Err(Error::MalformedEncoding { .. })
        ));
        // A changed tr: signing works (FIPS 204 does not check), import refuses.
        let mut sk = k.sk.clone();
        sk[64] ^= 1;
        mldsa::sign(set, &sk, MSG, CTX, &[0; 32], &mut sig).unwrap();
        let mut pk = vec![0u8; set.public_key_len()];
        let mut engine = MlDsa::<SoftRing, SoftKeccak>::default();
        assert!(engine.public_key_from_secret(set, &sk, &mut pk).is_err());
        // A changed t0 coefficient: import refuses.
        let mut sk = k.sk.clone();
        let last = sk.len() - 1;
        sk[last] ^= 0x10;
        assert!(engine.public_key_from_secret(set, &sk, &mut pk).is_err());
        engine.public_key_from_secret(set, &k.sk, &mut pk).unwrap();
        assert_eq!(pk, k.pk);
    }
    let k = keys(ParameterSet::MlDsa44);
    let mut sk = k.sk.clone();
    sk[200] ^= 0x01;
    assert!(ml_dsa_44::SigningKey::try_from(&sk[..]).is_err());
}

#[test]
fn prehashed_digest_of_wrong_length_is_unsupported() {
    let k = keys(ParameterSet::MlDsa65);
    let mut e = MlDsa::<SoftRing, SoftKeccak>::default();
    let mut sig = vec![0u8; k.set.signature_len()];
    for ph in PreHash::ALL {
        let digest = vec![0u8; ph.digest_bytes() + 1];
        let r = e.hash_sign_prehashed(k.set, &k.sk, &digest, CTX, ph, &[0; 32], &mut sig);
        assert_eq!(r, Err(Error::UnsupportedHash));
        let r = e.hash_verify_prehashed(k.set, &k.pk, &digest[1..], CTX, ph, &k.sig);
        assert!(r.is_err());
        // The pre-hashed and hashing entry points agree.
        let mut buf = [0u8; 64];
        let len = ph.digest(MSG, &mut buf);
        let d = buf[..len].to_vec();
        e.hash_sign_prehashed(k.set, &k.sk, &d, CTX, ph, &[3; 32], &mut sig)
            .unwrap();
        e.hash_verify(k.set, &k.pk, MSG, CTX, ph, &sig).unwrap();
        // A HashML-DSA signature is not a pure ML-DSA signature.
        assert!(e.verify(k.set, &k.pk, MSG, CTX, &sig).is_err());
    }
}

#[test]
fn external_mu_and_internal_interfaces_agree_with_sign() {
    for set in ParameterSet::ALL {
        let k = keys(set);
        let mu = mldsa::external_mu(set, &k.pk, MSG, CTX).unwrap();
        let mut sig = vec![0u8; set.signature_len()];
        mldsa::sign_mu(set, &k.sk, &mu, &[1; 32], &mut sig).unwrap();
        assert_eq!(sig, k.sig);
        mldsa::verify_mu(set, &k.pk, &mu, &k.sig).unwrap();
        let m_prime = [&[0u8, CTX.len() as u8][..], CTX, MSG].concat();
        mldsa::sign_internal(set, &k.sk, &m_prime, &[1; 32], &mut sig).unwrap();
        assert_eq!(sig, k.sig);
        mldsa::verify_internal(set, &k.pk, &m_prime, &k.sig).unwrap();
        // Hedged: a different rnd gives a different, also valid, signature.
        mldsa::sign(set, &k.sk, MSG, CTX, &[2; 32], &mut sig).unwrap();
        assert_ne!(sig, k.sig);
        mldsa::verify(set, &k.pk, MSG, CTX, &sig).unwrap();
    }
}

/// Infallible test RNG (SplitMix64) for the rand_core 0.10 traits.
struct TestRng(u64);
impl signature::rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.try_next_u64().map(|x| x as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Ok(z ^ (z >> 31))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = self.try_next_u64()? as u8;
        }
        Ok(())
    }
}
impl signature::rand_core::TryCryptoRng for TestRng {}

#[test]
fn typed_keys_and_rustcrypto_traits() {
    fn assert_zeroize_on_drop<T: zeroize::ZeroizeOnDrop>() {}
    assert_zeroize_on_drop::<ml_dsa_44::SigningKey>();
    assert_zeroize_on_drop::<ml_dsa_87::SigningKey>();

    let k = keys(ParameterSet::MlDsa44);
    let sk = ml_dsa_44::SigningKey::from_seed(&[9; 32]);
    assert_eq!(&sk.as_bytes()[..], &k.sk[..]);
    let vk: ml_dsa_44::VerifyingKey = Keypair::verifying_key(&sk);
    assert_eq!(&vk.as_bytes()[..], &k.pk[..]);
    assert_eq!(
        ml_dsa_44::SigningKey::try_from(&k.sk[..])
            .unwrap()
            .verifying_key(),
        vk
    );

    // Signer = deterministic, empty context.
    let sig = sk.sign(MSG);
    let mut want = vec![0u8; ml_dsa_44::SIGNATURE_LEN];
    mldsa::sign(ParameterSet::MlDsa44, &k.sk, MSG, &[], &[0; 32], &mut want).unwrap();
    assert_eq!(&sig.to_bytes()[..], &want[..]);
    assert_eq!(sig.encoded_len(), ml_dsa_44::SIGNATURE_LEN);
    vk.verify(MSG, &sig).unwrap();
    assert!(vk.verify(b"other", &sig).is_err());

    // RandomizedSigner = hedged, empty context.
    let mut rng = TestRng(1);
    let hedged = sk.sign_with_rng(&mut rng, MSG);
    assert_ne!(hedged, sig);
    vk.verify(MSG, &hedged).unwrap();
    let generated = ml_dsa_65::SigningKey::generate(&mut rng);
    let s = generated.sign_with_context(MSG, CTX, &[5; 32]).unwrap();
    generated
        .verifying_key()
        .verify_with_context(MSG, CTX, &s)
        .unwrap();
    assert!(generated
        .verifying_key()
        .verify_with_context(MSG, b"", &s)
        .is_err());

    // Debug output never shows the secret key bytes.
    let dbg = format!("{sk:?}");
    assert!(dbg.contains("SigningKey") && !dbg.contains(&hex::encode(&k.sk[128..140])));

    let sk87 = ml_dsa_87::SigningKey::from_seed(&[1; 32]);
    let mu = sk87.verifying_key().external_mu(MSG, CTX).unwrap();
    let s = sk87.sign_mu(&mu, &[0; 32]).unwrap();
    sk87.verifying_key().verify_mu(&mu, &s).unwrap();
    sk87.verifying_key()
        .verify_with_context(MSG, CTX, &s)
        .unwrap();
    let s = sk87
        .hash_sign(MSG, CTX, PreHash::Sha3_256, &[0; 32])
        .unwrap();
    sk87.verifying_key()
        .hash_verify(MSG, CTX, PreHash::Sha3_256, &s)
        .unwrap();
    assert!(sk87
        .verifying_key()
        .hash_verify(MSG, CTX, PreHash::Sha2_256, &s)
        .is_err());
}

/// A Keccak backend that only serves whole sponge requests: any call to
/// `permute` would mean a sampler fell back to block-by-block work.
#[derive(Default)]
struct SpongeOnly {
    calls: usize,
}
impl KeccakBackend for SpongeOnly {
    fn permute(&mut self, _: &mut [u64; 25]) {
        panic!("protocol code called permute");
    }
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        self.calls += 1;
        SoftKeccak.sponge(mode, parts, out)
    }
}

/// Counts which ring methods the protocol uses.
#[derive(Default, Debug)]
struct CountingRing {
    ntt: usize,
    intt: usize,
    pointwise: usize,
    ntt_vec: usize,
    intt_vec: usize,
    dot: usize,
    scale_vec: usize,
}
impl RingBackend for CountingRing {
    fn ntt(&mut self, a: &mut Poly) {
        self.ntt += 1;
        SoftRing.ntt(a)
    }
    fn intt(&mut self, a: &mut Poly) {
        self.intt += 1;
        SoftRing.intt(a)
    }
    fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly) {
        self.pointwise += 1;
        SoftRing.pointwise_mul(a, b, out)
    }
    fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly) {
        self.pointwise += 1;
        SoftRing.pointwise_mul_acc(acc, a, b)
    }
    fn ntt_vec(&mut self, v: &mut [Poly]) {
        self.ntt_vec += 1;
        SoftRing.ntt_vec(v)
    }
    fn intt_vec(&mut self, v: &mut [Poly]) {
        self.intt_vec += 1;
        SoftRing.intt_vec(v)
    }
    fn dot(&mut self, row: &[Poly], v: &[Poly], out: &mut Poly) {
        self.dot += 1;
        SoftRing.dot(row, v, out)
    }
    fn scale_vec(&mut self, c: &Poly, v: &[Poly], out: &mut [Poly]) {
        self.scale_vec += 1;
        SoftRing.scale_vec(c, v, out)
    }
}

#[test]
fn protocol_uses_whole_sponge_requests_and_vector_grain_ring_calls() {
    for set in ParameterSet::ALL {
        let (k, l) = (set.params().k, set.params().l);
        let mut e = MlDsa::new(CountingRing::default(), SpongeOnly::default());
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        e.keygen_internal(set, &[4; 32], &mut pk, &mut sk).unwrap();
        // One H for the seed, k·l ExpandA, k + l ExpandS, one H for tr.
        assert_eq!(e.keccak.calls, 1 + k * l + k + l + 1);
        assert_eq!((e.ring.ntt_vec, e.ring.intt_vec, e.ring.dot), (1, 1, k));
        assert_eq!((e.ring.ntt, e.ring.intt, e.ring.pointwise), (0, 0, 0));

        e.ring = CountingRing::default();
        let mut sig = vec![0u8; set.signature_len()];
        e.sign(set, &sk, MSG, CTX, &[8; 32], &mut sig).unwrap();
        let attempts = e.ring.ntt; // c is the only single-polynomial NTT per attempt
        assert!(attempts >= 1);
        assert_eq!(
            e.ring.ntt_vec,
            3 + attempts,
            "s1, s2, t0 once; y per attempt"
        );
        assert_eq!(e.ring.intt_vec, 4 * attempts, "w, cs1, cs2, ct0");
        assert_eq!(e.ring.dot, k * attempts);
        assert_eq!(e.ring.scale_vec, 3 * attempts);
        assert_eq!((e.ring.intt, e.ring.pointwise), (0, 0));

        e.ring = CountingRing::default();
        e.verify(set, &pk, MSG, CTX, &sig).unwrap();
        assert_eq!((e.ring.ntt, e.ring.ntt_vec, e.ring.intt_vec), (1, 2, 1));
        assert_eq!((e.ring.dot, e.ring.scale_vec, e.ring.pointwise), (k, 1, 0));
        println!(
            "{set:?}: sign took {attempts} attempts; {} sponge calls in total",
            e.keccak.calls
        );
    }
}
