//! SLH-DSA over [`SlhDsaOperations`] (the seam of a whole-operation
//! engine): the `*_on` functions give the keys and signatures of the
//! byte-slice API, call the engine once per operation with the digest the
//! signature's R and M′ give, and check their inputs as the API does.

use pqc::keccak::SoftKeccak;
use pqc::slhdsa::{self, params, MessageDigest, OnBackend, Params, SlhDsaOperations};
use pqc::Error;

/// The software operations, counting the calls and keeping the last
/// digest.
struct Counting<'a> {
    inner: OnBackend<'a, SoftKeccak>,
    calls: [usize; 3],
    last: Option<MessageDigest>,
}

impl SlhDsaOperations for Counting<'_> {
    fn pk_root(&mut self, p: &Params, sk_seed: &[u8], pk_seed: &[u8], root: &mut [u8]) {
        self.calls[0] += 1;
        self.inner.pk_root(p, sk_seed, pk_seed, root)
    }
    fn sign_digest(
        &mut self,
        p: &Params,
        sk_seed: &[u8],
        pk_seed: &[u8],
        pk_root: &[u8],
        digest: &MessageDigest,
        body: &mut [u8],
    ) {
        self.calls[1] += 1;
        self.last = Some(digest.clone());
        self.inner
            .sign_digest(p, sk_seed, pk_seed, pk_root, digest, body)
    }
    fn verify_digest(
        &mut self,
        p: &Params,
        pk_seed: &[u8],
        pk_root: &[u8],
        digest: &MessageDigest,
        body: &[u8],
    ) -> bool {
        self.calls[2] += 1;
        self.last = Some(digest.clone());
        self.inner.verify_digest(p, pk_seed, pk_root, digest, body)
    }
}

/// Keys, deterministic and randomized signatures, verification (valid,
/// forged, another context) for a SHAKE and a SHA2 set of each category:
/// the same bytes and results as the byte-slice API, one engine call each.
#[test]
fn operations_give_the_api_results() {
    let mut keccak = SoftKeccak;
    let mut ops = Counting {
        inner: OnBackend(&mut keccak),
        calls: [0; 3],
        last: None,
    };
    for p in [
        &params::SHAKE_128F,
        &params::SHA2_128F,
        &params::SHAKE_192F,
        &params::SHA2_256F,
    ] {
        let n = p.n;
        let seeds: Vec<u8> = (0..3 * n as u8).map(|i| i.wrapping_mul(37)).collect();
        let (sk_seed, rest) = seeds.split_at(n);
        let (sk_prf, pk_seed) = rest.split_at(n);
        let (mut sk, mut pk) = (vec![0; p.sk_bytes()], vec![0; p.pk_bytes()]);
        let (mut sk_on, mut pk_on) = (sk.clone(), pk.clone());
        slhdsa::slh_keygen_internal(p, sk_seed, sk_prf, pk_seed, &mut sk, &mut pk).unwrap();
        slhdsa::slh_keygen_internal_on(
            &mut ops, p, sk_seed, sk_prf, pk_seed, &mut sk_on, &mut pk_on,
        )
        .unwrap();
        assert_eq!((&sk_on, &pk_on), (&sk, &pk), "{}: keys", p.name);

        let addrnd = vec![0xA5; n];
        for random in [None, Some(&addrnd[..])] {
            let (mut sig, mut sig_on) = (vec![0; p.sig_bytes()], vec![0; p.sig_bytes()]);
            slhdsa::slh_sign(p, &sk, b"message", b"ctx", random, &mut sig).unwrap();
            let len =
                slhdsa::slh_sign_on(&mut ops, p, &sk, b"message", b"ctx", random, &mut sig_on)
                    .unwrap();
            assert_eq!(len, p.sig_bytes());
            assert!(sig_on == sig, "{}: signature", p.name);
            slhdsa::slh_verify_on(&mut ops, p, &pk, b"message", b"ctx", &sig).unwrap();
            let mut forged = sig.clone();
            forged[n + 3] ^= 1;
            assert_eq!(
                slhdsa::slh_verify_on(&mut ops, p, &pk, b"message", b"ctx", &forged),
                Err(Error::InvalidSignature)
            );
            assert_eq!(
                slhdsa::slh_verify_on(&mut ops, p, &pk, b"message", b"other", &sig),
                Err(Error::InvalidSignature)
            );
        }
        let mut sig = vec![0; p.sig_bytes()];
        slhdsa::slh_sign_internal_on(&mut ops, p, &sk, b"M'", None, &mut sig).unwrap();
        slhdsa::slh_verify_internal(p, &pk, b"M'", &sig).unwrap();
        slhdsa::slh_verify_internal_on(&mut ops, p, &pk, b"M'", &sig).unwrap();
        let digest = ops.last.clone().unwrap();
        assert_eq!(digest.md().len(), p.md_bytes());
        assert!(digest.idx_leaf < 1 << p.hp);
    }
    // Per set: one key, 3 signatures, 7 verifications.
    assert_eq!(ops.calls, [4, 12, 28]);
}

/// Bad arguments are refused before the engine is called, as by the API.
#[test]
fn operations_refuse_bad_arguments() {
    let mut keccak = SoftKeccak;
    let mut ops = Counting {
        inner: OnBackend(&mut keccak),
        calls: [0; 3],
        last: None,
    };
    let p = &params::SHAKE_128F;
    let mut sig = vec![0; p.sig_bytes()];
    let sk = vec![7; p.sk_bytes()];
    assert!(slhdsa::slh_sign_on(&mut ops, p, &sk[1..], b"m", b"", None, &mut sig).is_err());
    assert!(slhdsa::slh_sign_on(&mut ops, p, &sk, b"m", &[0; 256], None, &mut sig).is_err());
    assert!(slhdsa::slh_sign_on(&mut ops, p, &sk, b"m", b"", Some(&[1; 3]), &mut sig).is_err());
    assert!(slhdsa::slh_sign_on(&mut ops, p, &sk, b"m", b"", None, &mut sig[1..]).is_err());
    let pk = vec![7; p.pk_bytes()];
    assert!(slhdsa::slh_verify_on(&mut ops, p, &pk, b"m", b"", &sig[1..]).is_err());
    assert!(slhdsa::slh_verify_on(&mut ops, p, &pk[1..], b"m", b"", &sig).is_err());
    let mut odd = *p;
    odd.k += 1;
    assert!(slhdsa::slh_verify_on(&mut ops, &odd, &pk, b"m", b"", &sig).is_err());
    let (mut sk_out, mut pk_out) = (vec![0; p.sk_bytes()], vec![0; p.pk_bytes()]);
    assert!(slhdsa::slh_keygen_internal_on(
        &mut ops,
        p,
        &[0; 15],
        &[0; 16],
        &[0; 16],
        &mut sk_out,
        &mut pk_out
    )
    .is_err());
    assert_eq!(ops.calls, [0, 0, 0], "the engine was called");
}
