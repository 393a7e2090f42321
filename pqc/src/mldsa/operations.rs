//! The seam for whole-operation backends: [`MlDsaOperations`] is what a
//! provider of FIPS 204's internal functions implements (KeyGen_internal,
//! Sign_internal and Verify_internal, on M′ or on an external μ), and the
//! external functions (ML-DSA.Sign / Verify with a context, HashML-DSA)
//! come with it, formatted here once. [`MlDsa`](super::MlDsa) implements
//! it with its ring and Keccak backends; a PL engine that runs whole
//! operations (the driver's `HwMlDsa`) implements it too, so the byte-slice
//! functions and the typed keys (their `*_on` methods) run on either.

use crate::error::{check_ctx, Error, Result};
use crate::prehash::{PreHash, MAX_DIGEST_BYTES};

use super::ParameterSet;

/// The formatted message M′ of Sign_internal / Verify_internal (FIPS 204
/// Algorithms 2–5), kept in its parts so that no buffer has to hold it:
/// a raw M′ as given, 0 ‖ |ctx| ‖ ctx ‖ M (pure ML-DSA), or
/// 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M) (HashML-DSA).
#[derive(Clone, Copy, Debug)]
pub struct MPrime<'a> {
    header: [u8; 2],
    /// Whether `header` is part of M′ (not for a raw M′).
    headed: bool,
    parts: [&'a [u8]; 3],
}

impl<'a> MPrime<'a> {
    /// M′ as the caller formatted it (Sign_internal's input).
    pub fn raw(m_prime: &'a [u8]) -> Self {
        MPrime {
            header: [0; 2],
            headed: false,
            parts: [m_prime, &[], &[]],
        }
    }

    /// Pure ML-DSA: 0 ‖ |ctx| ‖ ctx ‖ `msg`; a context over 255 bytes is
    /// [`Error::ContextTooLong`].
    pub fn pure(msg: &'a [u8], ctx: &'a [u8]) -> Result<Self> {
        Ok(MPrime {
            header: [0, check_ctx(ctx)?],
            headed: true,
            parts: [ctx, msg, &[]],
        })
    }

    /// HashML-DSA: 1 ‖ |ctx| ‖ ctx ‖ OID(`ph`) ‖ `digest`, where `oid` is
    /// `ph.oid()` (the caller keeps it alive) and `digest` must be
    /// `ph.digest_bytes()` long ([`Error::UnsupportedHash`] otherwise).
    pub fn pre_hashed(
        digest: &'a [u8],
        ctx: &'a [u8],
        ph: PreHash,
        oid: &'a [u8; 11],
    ) -> Result<Self> {
        let ctx_len = check_ctx(ctx)?;
        if digest.len() != ph.digest_bytes() || *oid != ph.oid() {
            return Err(Error::UnsupportedHash);
        }
        Ok(MPrime {
            header: [1, ctx_len],
            headed: true,
            parts: [ctx, oid, digest],
        })
    }

    /// M′ as byte strings to be concatenated in order (some may be empty).
    pub fn parts(&self) -> [&[u8]; 4] {
        let header: &[u8] = if self.headed { &self.header } else { &[] };
        [header, self.parts[0], self.parts[1], self.parts[2]]
    }

    /// The length of M′ in bytes.
    pub fn len(&self) -> usize {
        self.parts().iter().map(|p| p.len()).sum()
    }

    /// Whether M′ is empty (only a raw one can be).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copies M′ to the start of `out`, which must hold [`Self::len`]
    /// bytes ([`Error::BufferTooSmall`] otherwise); returns that length.
    pub fn copy_to(&self, out: &mut [u8]) -> Result<usize> {
        let len = self.len();
        if out.len() < len {
            return Err(Error::BufferTooSmall {
                needed: len,
                got: out.len(),
            });
        }
        let mut at = 0;
        for part in self.parts() {
            out[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        Ok(len)
    }
}

/// Whole ML-DSA operations, at the level of FIPS 204's internal functions.
/// Implementors give KeyGen_internal, Sign_internal and Verify_internal
/// (each on M′ and on an external μ) with `pqc`'s results and errors; the
/// external functions are provided on top.
pub trait MlDsaOperations {
    /// ML-DSA.KeyGen_internal (Algorithm 6): `pk` and `sk` must have the
    /// set's lengths.
    fn keygen_internal(
        &mut self,
        set: ParameterSet,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> Result<()>;

    /// ML-DSA.Sign_internal (Algorithm 7) on M′.
    fn sign_m_prime(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &MPrime<'_>,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()>;

    /// Sign_internal from an externally computed μ.
    fn sign_mu(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()>;

    /// ML-DSA.Verify_internal (Algorithm 8) on M′.
    fn verify_m_prime(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &MPrime<'_>,
        sig: &[u8],
    ) -> Result<()>;

    /// Verify_internal with an externally computed μ.
    fn verify_mu(&mut self, set: ParameterSet, pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> Result<()>;

    /// Sign_internal on M′ given as one byte string.
    fn sign_internal(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &[u8],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        self.sign_m_prime(set, sk, &MPrime::raw(m_prime), rnd, sig)
    }

    /// Verify_internal on M′ given as one byte string.
    fn verify_internal(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &[u8],
        sig: &[u8],
    ) -> Result<()> {
        self.verify_m_prime(set, pk, &MPrime::raw(m_prime), sig)
    }

    /// ML-DSA.Sign (Algorithm 2) with context `ctx` (at most 255 bytes)
    /// and randomness `rnd` (all zero: deterministic).
    fn sign(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        self.sign_m_prime(set, sk, &MPrime::pure(msg, ctx)?, rnd, sig)
    }

    /// HashML-DSA.Sign (Algorithm 4): signs PH(`msg`).
    #[allow(clippy::too_many_arguments)]
    fn hash_sign(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        ph: PreHash,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        let mut digest = [0u8; MAX_DIGEST_BYTES];
        let len = ph.digest(msg, &mut digest);
        self.hash_sign_prehashed(set, sk, &digest[..len], ctx, ph, rnd, sig)
    }

    /// HashML-DSA.Sign with a digest the caller computed (exactly
    /// `ph.digest_bytes()` bytes, else [`Error::UnsupportedHash`]).
    #[allow(clippy::too_many_arguments)]
    fn hash_sign_prehashed(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        digest: &[u8],
        ctx: &[u8],
        ph: PreHash,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        let oid = ph.oid();
        let m_prime = MPrime::pre_hashed(digest, ctx, ph, &oid)?;
        self.sign_m_prime(set, sk, &m_prime, rnd, sig)
    }

    /// ML-DSA.Verify (Algorithm 3).
    fn verify(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<()> {
        self.verify_m_prime(set, pk, &MPrime::pure(msg, ctx)?, sig)
    }

    /// HashML-DSA.Verify (Algorithm 5).
    fn hash_verify(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        ph: PreHash,
        sig: &[u8],
    ) -> Result<()> {
        let mut digest = [0u8; MAX_DIGEST_BYTES];
        let len = ph.digest(msg, &mut digest);
        self.hash_verify_prehashed(set, pk, &digest[..len], ctx, ph, sig)
    }

    /// HashML-DSA.Verify with a digest the caller computed.
    fn hash_verify_prehashed(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        digest: &[u8],
        ctx: &[u8],
        ph: PreHash,
        sig: &[u8],
    ) -> Result<()> {
        let oid = ph.oid();
        let m_prime = MPrime::pre_hashed(digest, ctx, ph, &oid)?;
        self.verify_m_prime(set, pk, &m_prime, sig)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn concat(m: &MPrime<'_>) -> ([u8; 128], usize) {
        let mut out = [0u8; 128];
        let len = m.copy_to(&mut out).unwrap();
        assert_eq!(len, m.len());
        (out, len)
    }

    #[test]
    fn m_prime_formats_follow_fips_204() {
        let (out, len) = concat(&MPrime::pure(b"msg", b"ctx").unwrap());
        assert_eq!(&out[..len], b"\x00\x03ctxmsg");
        let (out, len) = concat(&MPrime::raw(b"\x07raw"));
        assert_eq!(&out[..len], b"\x07raw");
        assert!(MPrime::raw(&[]).is_empty());

        let ph = PreHash::Sha2_256;
        let oid = ph.oid();
        let digest = [0xAB; 32];
        let m = MPrime::pre_hashed(&digest, b"c", ph, &oid).unwrap();
        let (out, len) = concat(&m);
        assert_eq!(len, 2 + 1 + 11 + 32);
        assert_eq!(&out[..3], b"\x01\x01c");
        assert_eq!(&out[3..14], &oid);
        assert_eq!(&out[14..len], &digest);
    }

    #[test]
    fn bad_m_prime_inputs_are_errors() {
        let long = [0u8; 256];
        assert_eq!(
            MPrime::pure(b"m", &long).unwrap_err(),
            Error::ContextTooLong { got: 256 }
        );
        let ph = PreHash::Sha2_256;
        let oid = ph.oid();
        assert_eq!(
            MPrime::pre_hashed(&[0; 31], b"", ph, &oid).unwrap_err(),
            Error::UnsupportedHash
        );
        let other = PreHash::Sha2_512.oid();
        assert_eq!(
            MPrime::pre_hashed(&[0; 32], b"", ph, &other).unwrap_err(),
            Error::UnsupportedHash
        );
        let m = MPrime::pure(b"message", b"").unwrap();
        assert_eq!(
            m.copy_to(&mut [0u8; 4]).unwrap_err(),
            Error::BufferTooSmall { needed: 9, got: 4 }
        );
    }
}
