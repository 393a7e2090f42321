//! SLH-DSA public API: decoding and argument errors (never a panic), the
//! typed keys with the RustCrypto `signature` traits, and domain separation
//! between the interfaces.

use pqc::slhdsa::{self, params, sha2_128f, shake_128f, PreHash};
use pqc::Error;
use signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};

/// Counter-based test RNG (rand_core 0.10 through `signature`).
struct CountingRng(u8);

impl signature::rand_core::TryRng for CountingRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            self.0 = self.0.wrapping_add(1);
            *b = self.0;
        }
        Ok(())
    }
}

impl signature::rand_core::TryCryptoRng for CountingRng {}

fn keypair(p: &slhdsa::Params) -> (Vec<u8>, Vec<u8>) {
    let mut sk = vec![0u8; p.sk_bytes()];
    let mut pk = vec![0u8; p.pk_bytes()];
    slhdsa::slh_keygen(p, &mut CountingRng(0), &mut sk, &mut pk).unwrap();
    (sk, pk)
}

#[test]
fn byte_api_rejects_bad_lengths_with_errors() {
    for p in [&params::SHAKE_128F, &params::SHA2_128F] {
        let (sk, pk) = keypair(p);
        let mut sig = vec![0u8; p.sig_bytes()];
        slhdsa::slh_sign(p, &sk, b"m", b"", None, &mut sig).unwrap();

        for bad in [0, p.sk_bytes() - 1, p.sk_bytes() + 1] {
            let sk_bad = vec![0u8; bad];
            assert_eq!(
                slhdsa::slh_sign(p, &sk_bad, b"m", b"", None, &mut sig.clone()),
                Err(Error::InvalidLength {
                    what: "SLH-DSA secret key",
                    expected: p.sk_bytes(),
                    got: bad
                })
            );
        }
        for bad in [0, p.pk_bytes() - 1, p.pk_bytes() + 1, p.sk_bytes()] {
            assert_eq!(
                slhdsa::slh_verify(p, &vec![0u8; bad], b"m", b"", &sig),
                Err(Error::InvalidLength {
                    what: "SLH-DSA public key",
                    expected: p.pk_bytes(),
                    got: bad
                })
            );
        }
        for bad in [
            0,
            1,
            p.sig_bytes() - 1,
            p.sig_bytes() + 1,
            2 * p.sig_bytes(),
        ] {
            let mut s = sig.clone();
            s.resize(bad, 0);
            let expected = Err(Error::InvalidLength {
                what: "SLH-DSA signature",
                expected: p.sig_bytes(),
                got: bad,
            });
            assert_eq!(slhdsa::slh_verify(p, &pk, b"m", b"", &s), expected);
            assert_eq!(slhdsa::slh_verify_internal(p, &pk, b"m", &s), expected);
            assert_eq!(
                slhdsa::hash_slh_verify(p, &pk, b"m", b"", PreHash::Sha2_256, &s),
                expected
            );
        }
        // Context strings longer than 255 bytes.
        let long_ctx = [0u8; 256];
        assert_eq!(
            slhdsa::slh_sign(p, &sk, b"m", &long_ctx, None, &mut sig.clone()),
            Err(Error::ContextTooLong { got: 256 })
        );
        assert_eq!(
            slhdsa::slh_verify(p, &pk, b"m", &long_ctx, &sig),
            Err(Error::ContextTooLong { got: 256 })
        );
        assert_eq!(
            slhdsa::hash_slh_sign(
                p,
                &sk,
                b"m",
                &long_ctx,
                PreHash::Shake128,
                None,
                &mut sig.clone()
            ),
            Err(Error::ContextTooLong { got: 256 })
        );
        // Output buffer too small, addrnd of the wrong length.
        let mut short = vec![0u8; p.sig_bytes() - 1];
        assert_eq!(
            slhdsa::slh_sign(p, &sk, b"m", b"", None, &mut short),
            Err(Error::BufferTooSmall {
                needed: p.sig_bytes(),
                got: p.sig_bytes() - 1
            })
        );
        assert_eq!(
            slhdsa::slh_sign_internal(p, &sk, b"m", Some(&[0u8; 15]), &mut sig.clone()),
            Err(Error::InvalidLength {
                what: "SLH-DSA addrnd",
                expected: p.n,
                got: 15
            })
        );
        // Key generation seeds and buffers.
        let (mut sk_out, mut pk_out) = (vec![0u8; p.sk_bytes()], vec![0u8; p.pk_bytes()]);
        assert!(matches!(
            slhdsa::slh_keygen_internal(p, &[0; 15], &[0; 16], &[0; 16], &mut sk_out, &mut pk_out),
            Err(Error::InvalidLength {
                what: "SLH-DSA SK.seed",
                ..
            })
        ));
        assert!(matches!(
            slhdsa::slh_keygen_internal(
                p,
                &[0; 16],
                &[0; 16],
                &[0; 16],
                &mut sk_out[1..],
                &mut pk_out
            ),
            Err(Error::InvalidLength {
                what: "SLH-DSA secret key buffer",
                ..
            })
        ));
        // A larger output buffer is fine: the length written is returned.
        let mut long = vec![0xAAu8; p.sig_bytes() + 7];
        assert_eq!(
            slhdsa::slh_sign(p, &sk, b"m", b"", None, &mut long),
            Ok(p.sig_bytes())
        );
        assert_eq!(long[..p.sig_bytes()], sig[..]);
        assert_eq!(long[p.sig_bytes()..], [0xAA; 7]);
    }
}

#[test]
fn parameter_sets_outside_fips_205_are_refused() {
    let mut odd = params::SHAKE_128F;
    odd.n = 20;
    let refused =
        |r: Result<(), Error>| assert!(matches!(r, Err(Error::MalformedEncoding { .. })), "{r:?}");
    let (mut sk, mut pk, mut sig) = (vec![0u8; 80], vec![0u8; 40], vec![0u8; 40_000]);
    refused(slhdsa::slh_keygen_internal(
        &odd, &[0; 20], &[0; 20], &[0; 20], &mut sk, &mut pk,
    ));
    refused(slhdsa::slh_keygen(
        &odd,
        &mut CountingRng(0),
        &mut sk,
        &mut pk,
    ));
    refused(slhdsa::slh_sign(&odd, &sk, b"m", b"", None, &mut sig).map(|_| ()));
    refused(slhdsa::slh_verify(&odd, &pk, b"m", b"", &sig));
    let mut deep = params::SHA2_128S;
    deep.hp = 20;
    refused(slhdsa::slh_verify(&deep, &[0; 32], b"m", b"", &[0; 7856]));
}

#[test]
fn verification_binds_message_context_key_and_interface() {
    let p = &params::SHAKE_128F;
    let (sk, pk) = keypair(p);
    let (_, other_pk) = {
        let mut sk2 = vec![0u8; p.sk_bytes()];
        let mut pk2 = vec![0u8; p.pk_bytes()];
        slhdsa::slh_keygen(p, &mut CountingRng(100), &mut sk2, &mut pk2).unwrap();
        (sk2, pk2)
    };
    let mut sig = vec![0u8; p.sig_bytes()];
    slhdsa::slh_sign(p, &sk, b"message", b"ctx", Some(&[9u8; 16]), &mut sig).unwrap();
    assert_eq!(slhdsa::slh_verify(p, &pk, b"message", b"ctx", &sig), Ok(()));
    let bad = Err(Error::InvalidSignature);
    assert_eq!(slhdsa::slh_verify(p, &pk, b"messagE", b"ctx", &sig), bad);
    assert_eq!(slhdsa::slh_verify(p, &pk, b"message", b"ctX", &sig), bad);
    assert_eq!(slhdsa::slh_verify(p, &pk, b"message", b"", &sig), bad);
    assert_eq!(
        slhdsa::slh_verify(p, &other_pk, b"message", b"ctx", &sig),
        bad
    );
    assert_eq!(
        slhdsa::hash_slh_verify(p, &pk, b"message", b"ctx", PreHash::Sha2_256, &sig),
        bad
    );
    assert_eq!(slhdsa::slh_verify_internal(p, &pk, b"message", &sig), bad);

    // Pre-hash signatures are bound to the pre-hash function.
    slhdsa::hash_slh_sign(
        p,
        &sk,
        b"message",
        b"ctx",
        PreHash::Sha3_256,
        None,
        &mut sig,
    )
    .unwrap();
    assert_eq!(
        slhdsa::hash_slh_verify(p, &pk, b"message", b"ctx", PreHash::Sha3_256, &sig),
        Ok(())
    );
    assert_eq!(
        slhdsa::hash_slh_verify(p, &pk, b"message", b"ctx", PreHash::Sha2_256, &sig),
        bad
    );
    assert_eq!(slhdsa::slh_verify(p, &pk, b"message", b"ctx", &sig), bad);

    // The pre-hashed entry points agree with hashing inside; a digest of the
    // wrong length is refused.
    let mut digest = [0u8; 64];
    let len = PreHash::Sha3_256.digest(b"message", &mut digest);
    assert_eq!(
        slhdsa::hash_slh_verify_prehashed(p, &pk, &digest[..len], b"ctx", PreHash::Sha3_256, &sig),
        Ok(())
    );
    let mut sig2 = vec![0u8; p.sig_bytes()];
    slhdsa::hash_slh_sign_prehashed(
        p,
        &sk,
        &digest[..len],
        b"ctx",
        PreHash::Sha3_256,
        None,
        &mut sig2,
    )
    .unwrap();
    assert_eq!(sig2, sig);
    assert_eq!(
        slhdsa::hash_slh_sign_prehashed(
            p,
            &sk,
            &digest[..len - 1],
            b"ctx",
            PreHash::Sha3_256,
            None,
            &mut sig2
        ),
        Err(Error::UnsupportedHash)
    );
    assert_eq!(
        slhdsa::hash_slh_verify_prehashed(p, &pk, &digest[..48], b"ctx", PreHash::Sha3_256, &sig),
        Err(Error::UnsupportedHash)
    );

    // Hedged signing differs from deterministic signing; both verify.
    let mut det = vec![0u8; p.sig_bytes()];
    slhdsa::slh_sign(p, &sk, b"message", b"", None, &mut det).unwrap();
    let mut det_again = vec![0u8; p.sig_bytes()];
    slhdsa::slh_sign(p, &sk, b"message", b"", None, &mut det_again).unwrap();
    assert_eq!(det, det_again);
    slhdsa::slh_sign(p, &sk, b"message", b"", Some(&[1u8; 16]), &mut sig).unwrap();
    assert_ne!(det, sig);
    assert_eq!(slhdsa::slh_verify(p, &pk, b"message", b"", &sig), Ok(()));
}

#[test]
fn prehash_names_oids_and_lengths() {
    for ph in PreHash::ALL {
        assert_eq!(PreHash::from_name(ph.name()), Some(ph));
        let oid = ph.oid();
        assert_eq!(
            oid[..10],
            [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02]
        );
        let mut d = [0u8; 64];
        assert_eq!(ph.digest(b"abc", &mut d), ph.digest_bytes());
    }
    // SHA-256("abc") and SHAKE128("abc", 256 bits), FIPS 180-4 / FIPS 202 examples.
    let mut d = [0u8; 64];
    PreHash::Sha2_256.digest(b"abc", &mut d);
    assert_eq!(
        hex::encode(&d[..32]),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    PreHash::Shake128.digest(b"", &mut d);
    assert_eq!(
        hex::encode(&d[..32]),
        "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
    );
    assert_eq!(PreHash::from_name("MD5"), None);
}

#[test]
fn typed_keys_with_signature_traits() {
    let sk = shake_128f::SigningKey::generate(&mut CountingRng(7));
    let vk = Keypair::verifying_key(&sk);
    let sig: shake_128f::Signature = sk.sign(b"typed");
    vk.verify(b"typed", &sig).unwrap();
    assert!(vk.verify(b"other", &sig).is_err());
    // Signer is deterministic slh_sign with an empty context.
    let mut bytes = vec![0u8; shake_128f::SIGNATURE_LEN];
    slhdsa::slh_sign(
        &shake_128f::PARAMS,
        &sk.to_bytes(),
        b"typed",
        b"",
        None,
        &mut bytes,
    )
    .unwrap();
    assert_eq!(sig.to_bytes()[..], bytes[..]);
    // RandomizedSigner draws addrnd.
    let hedged = sk.sign_with_rng(&mut CountingRng(1), b"typed");
    assert_ne!(hedged, sig);
    vk.verify(b"typed", &hedged).unwrap();
    // Encoding round trips and checked decoding.
    let decoded = shake_128f::Signature::try_from(&bytes[..]).unwrap();
    assert_eq!(decoded, sig);
    assert!(shake_128f::Signature::try_from(&bytes[1..]).is_err());
    assert_eq!(
        shake_128f::Signature::from_bytes(&bytes[1..]),
        Err(Error::InvalidLength {
            what: "SLH-DSA signature",
            expected: shake_128f::SIGNATURE_LEN,
            got: bytes.len() - 1
        })
    );
    let vk2 = shake_128f::VerifyingKey::from_bytes(&vk.to_bytes()).unwrap();
    assert_eq!(vk2, vk);
    assert!(shake_128f::VerifyingKey::from_bytes(&[0u8; 31]).is_err());
    let sk2 = shake_128f::SigningKey::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(sk2.verifying_key(), vk);
    assert!(matches!(
        shake_128f::SigningKey::from_bytes(&[0u8; 63]),
        Err(Error::InvalidLength {
            what: "SLH-DSA secret key",
            expected: 64,
            got: 63
        })
    ));
    // Context and pre-hash methods.
    let with_ctx = sk
        .sign_with_context(b"typed", b"ctx", Some(&[3u8; 16]))
        .unwrap();
    vk.verify_with_context(b"typed", b"ctx", &with_ctx).unwrap();
    assert_eq!(
        vk.verify_with_context(b"typed", b"", &with_ctx),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        sk.sign_with_context(b"typed", &[0u8; 300], None),
        Err(Error::ContextTooLong { got: 300 })
    );
    let ph = sk
        .hash_sign(b"typed", b"", PreHash::Shake256, None)
        .unwrap();
    vk.hash_verify(b"typed", b"", PreHash::Shake256, &ph)
        .unwrap();
    // Keys from seeds match the byte API, and Debug never prints secrets.
    let sk3 = sha2_128f::SigningKey::from_seeds(&[1; 16], &[2; 16], &[3; 16]).unwrap();
    let dbg = format!("{sk3:?}");
    assert!(!dbg.contains("[1, 1"), "{dbg}");
    assert!(sha2_128f::SigningKey::from_seeds(&[1; 15], &[2; 16], &[3; 16]).is_err());
}
