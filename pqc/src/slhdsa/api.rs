//! Byte-slice SLH-DSA functions mirroring FIPS 205 §9–§10.

use super::hash::{HashEngine, Sha2Engine, SlhBackend};
use super::operations::{sign_body, slh_keygen_internal_on, verify_body, MessageDigest, OnBackend};
use super::params::{HashFamily, Params, MAX_M, MAX_N};
use crate::error::{check_ctx, check_len, Error, Result};
use crate::keccak::SoftKeccak;
use crate::prehash::{PreHash, MAX_DIGEST_BYTES};
use signature::rand_core::CryptoRng;
use zeroize::Zeroize;

pub(super) fn check_out(needed: usize, got: usize) -> Result<()> {
    if got < needed {
        Err(Error::BufferTooSmall { needed, got })
    } else {
        Ok(())
    }
}

/// `Params` has public fields; only the twelve FIPS 205 sets (for which the
/// buffer bounds in `params` hold) are accepted.
pub(super) fn check_params(p: &Params) -> Result<()> {
    if super::params::ALL.contains(&p) {
        Ok(())
    } else {
        Err(Error::MalformedEncoding {
            what: "SLH-DSA parameter set (not one of the twelve FIPS 205 sets)",
        })
    }
}

/// `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`, split after a length check.
pub(super) struct SecretKey<'a> {
    pub(super) sk_seed: &'a [u8],
    pub(super) sk_prf: &'a [u8],
    pub(super) pk_seed: &'a [u8],
    pub(super) pk_root: &'a [u8],
}

pub(super) fn decode_sk<'a>(p: &Params, sk: &'a [u8]) -> Result<SecretKey<'a>> {
    check_len("SLH-DSA secret key", p.sk_bytes(), sk.len())?;
    let n = p.n;
    Ok(SecretKey {
        sk_seed: &sk[..n],
        sk_prf: &sk[n..2 * n],
        pk_seed: &sk[2 * n..3 * n],
        pk_root: &sk[3 * n..],
    })
}

pub(super) fn decode_pk<'a>(p: &Params, pk: &'a [u8]) -> Result<(&'a [u8], &'a [u8])> {
    check_len("SLH-DSA public key", p.pk_bytes(), pk.len())?;
    Ok(pk.split_at(p.n))
}

/// Signs the message given as concatenated parts (Algorithm 19).
fn sign_core<E: HashEngine>(
    e: &mut E,
    p: &Params,
    sk: &SecretKey<'_>,
    msg: &[&[u8]],
    opt_rand: &[u8],
    sig: &mut [u8],
) {
    let n = p.n;
    let (r, rest) = sig.split_at_mut(n);
    e.prf_msg(sk.sk_prf, opt_rand, msg, r);
    let mut digest = [0u8; MAX_M];
    e.h_msg(r, sk.pk_root, msg, &mut digest[..p.m()]);
    let digest = MessageDigest::split(p, &digest[..p.m()]);
    sign_body(e, p, &digest, rest);
}

/// Verifies (Algorithm 20, after the length check).
fn verify_core<E: HashEngine>(
    e: &mut E,
    p: &Params,
    pk_root: &[u8],
    msg: &[&[u8]],
    sig: &[u8],
) -> bool {
    let n = p.n;
    let (r, rest) = sig.split_at(n);
    let mut digest = [0u8; MAX_M];
    e.h_msg(r, pk_root, msg, &mut digest[..p.m()]);
    let digest = MessageDigest::split(p, &digest[..p.m()]);
    verify_body(e, p, pk_root, &digest, rest)
}

/// `slh_keygen_internal` (Algorithm 18) with an explicit backend ([`SlhBackend`]: any Keccak backend, or a hardware hash engine).
///
/// Writes `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` to `sk` (`4n` bytes) and
/// `PK.seed ‖ PK.root` to `pk` (`2n` bytes).
pub fn slh_keygen_internal_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    sk: &mut [u8],
    pk: &mut [u8],
) -> Result<()> {
    // OnBackend runs the SHA2 sets on Sha2Engine and the SHAKE sets on
    // `backend`, as every other function here.
    slh_keygen_internal_on(&mut OnBackend(backend), p, sk_seed, sk_prf, pk_seed, sk, pk)
}

/// `slh_keygen_internal` (Algorithm 18) on the software backend.
pub fn slh_keygen_internal(
    p: &Params,
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    sk: &mut [u8],
    pk: &mut [u8],
) -> Result<()> {
    slh_keygen_internal_with(&mut SoftKeccak, p, sk_seed, sk_prf, pk_seed, sk, pk)
}

/// `slh_keygen` (Algorithm 21): draws `SK.seed`, `SK.prf`, `PK.seed` from `rng`.
pub fn slh_keygen_with<B: SlhBackend, R: CryptoRng + ?Sized>(
    backend: &mut B,
    p: &Params,
    rng: &mut R,
    sk: &mut [u8],
    pk: &mut [u8],
) -> Result<()> {
    check_params(p)?;
    let n = p.n;
    let mut seeds = [0u8; 3 * MAX_N];
    rng.fill_bytes(&mut seeds[..3 * n]);
    let result = slh_keygen_internal_with(
        backend,
        p,
        &seeds[..n],
        &seeds[n..2 * n],
        &seeds[2 * n..3 * n],
        sk,
        pk,
    );
    seeds.zeroize();
    result
}

/// `slh_keygen` (Algorithm 21) on the software backend.
pub fn slh_keygen<R: CryptoRng + ?Sized>(
    p: &Params,
    rng: &mut R,
    sk: &mut [u8],
    pk: &mut [u8],
) -> Result<()> {
    slh_keygen_with(&mut SoftKeccak, p, rng, sk, pk)
}

/// Signs `M′` given as parts; `addrnd = None` is the deterministic variant
/// (`opt_rand = PK.seed`). Returns the signature length.
fn sign_parts<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    sk: &[u8],
    msg: &[&[u8]],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    check_params(p)?;
    let key = decode_sk(p, sk)?;
    check_out(p.sig_bytes(), sig.len())?;
    if let Some(r) = addrnd {
        check_len("SLH-DSA addrnd", p.n, r.len())?;
    }
    let opt_rand = addrnd.unwrap_or(key.pk_seed);
    let sig = &mut sig[..p.sig_bytes()];
    match p.family {
        HashFamily::Sha2 => {
            let mut e = Sha2Engine::new(p, key.pk_seed, key.sk_seed);
            sign_core(&mut e, p, &key, msg, opt_rand, sig)
        }
        HashFamily::Shake => {
            let mut e = backend.shake_hashes(key.pk_seed, key.sk_seed);
            sign_core(&mut e, p, &key, msg, opt_rand, sig)
        }
    }
    Ok(p.sig_bytes())
}

fn verify_parts<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    pk: &[u8],
    msg: &[&[u8]],
    sig: &[u8],
) -> Result<()> {
    check_params(p)?;
    let (pk_seed, pk_root) = decode_pk(p, pk)?;
    check_len("SLH-DSA signature", p.sig_bytes(), sig.len())?;
    let valid = match p.family {
        HashFamily::Sha2 => {
            verify_core(&mut Sha2Engine::new(p, pk_seed, &[]), p, pk_root, msg, sig)
        }
        HashFamily::Shake => verify_core(
            &mut backend.shake_hashes(pk_seed, &[]),
            p,
            pk_root,
            msg,
            sig,
        ),
    };
    if valid {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

/// `slh_sign_internal` (Algorithm 19) with an explicit backend ([`SlhBackend`]: any Keccak backend, or a hardware hash engine).
///
/// `addrnd = None` signs deterministically (`opt_rand = PK.seed`); otherwise
/// it must be `n` bytes. Writes `sig_bytes()` bytes to the front of `sig`
/// and returns that length.
pub fn slh_sign_internal_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    sign_parts(backend, p, sk, &[msg], addrnd, sig)
}

/// `slh_sign_internal` (Algorithm 19) on the software backend.
pub fn slh_sign_internal(
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    slh_sign_internal_with(&mut SoftKeccak, p, sk, msg, addrnd, sig)
}

/// `slh_sign` (Algorithm 22): pure SLH-DSA with context string `ctx`
/// (at most 255 bytes). `addrnd = None` is the deterministic variant.
pub fn slh_sign_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    let header = [0u8, check_ctx(ctx)?];
    sign_parts(backend, p, sk, &[&header, ctx, msg], addrnd, sig)
}

/// `slh_sign` (Algorithm 22) on the software backend.
pub fn slh_sign(
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    slh_sign_with(&mut SoftKeccak, p, sk, msg, ctx, addrnd, sig)
}

/// `hash_slh_sign` (Algorithm 23): HashSLH-DSA, `M′ = 1 ‖ |ctx| ‖ ctx ‖
/// OID(PH) ‖ PH(msg)`.
#[allow(clippy::too_many_arguments)]
pub fn hash_slh_sign_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    ph: PreHash,
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    let header = [1u8, check_ctx(ctx)?];
    let oid = ph.oid();
    let mut digest = [0u8; MAX_DIGEST_BYTES];
    let len = ph.digest(msg, &mut digest);
    sign_parts(
        backend,
        p,
        sk,
        &[&header, ctx, &oid, &digest[..len]],
        addrnd,
        sig,
    )
}

/// `hash_slh_sign` (Algorithm 23) for a digest the caller computed with
/// `ph`; a digest of the wrong length gives [`Error::UnsupportedHash`].
#[allow(clippy::too_many_arguments)]
pub fn hash_slh_sign_prehashed_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    sk: &[u8],
    digest: &[u8],
    ctx: &[u8],
    ph: PreHash,
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    let header = [1u8, check_ctx(ctx)?];
    if digest.len() != ph.digest_bytes() {
        return Err(Error::UnsupportedHash);
    }
    let oid = ph.oid();
    sign_parts(backend, p, sk, &[&header, ctx, &oid, digest], addrnd, sig)
}

/// [`hash_slh_sign_prehashed_with`] on the software backend.
pub fn hash_slh_sign_prehashed(
    p: &Params,
    sk: &[u8],
    digest: &[u8],
    ctx: &[u8],
    ph: PreHash,
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    hash_slh_sign_prehashed_with(&mut SoftKeccak, p, sk, digest, ctx, ph, addrnd, sig)
}

/// `hash_slh_sign` (Algorithm 23) on the software backend.
pub fn hash_slh_sign(
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    ph: PreHash,
    addrnd: Option<&[u8]>,
    sig: &mut [u8],
) -> Result<usize> {
    hash_slh_sign_with(&mut SoftKeccak, p, sk, msg, ctx, ph, addrnd, sig)
}

/// `slh_verify_internal` (Algorithm 20). `Ok(())` iff the signature is
/// valid; wrong key or signature lengths give [`Error::InvalidLength`].
pub fn slh_verify_internal_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    pk: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> Result<()> {
    verify_parts(backend, p, pk, &[msg], sig)
}

/// `slh_verify_internal` (Algorithm 20) on the software backend.
pub fn slh_verify_internal(p: &Params, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<()> {
    slh_verify_internal_with(&mut SoftKeccak, p, pk, msg, sig)
}

/// `slh_verify` (Algorithm 24) with context string `ctx`.
pub fn slh_verify_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Result<()> {
    let header = [0u8, check_ctx(ctx)?];
    verify_parts(backend, p, pk, &[&header, ctx, msg], sig)
}

/// `slh_verify` (Algorithm 24) on the software backend.
pub fn slh_verify(p: &Params, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<()> {
    slh_verify_with(&mut SoftKeccak, p, pk, msg, ctx, sig)
}

/// `hash_slh_verify` (Algorithm 25).
pub fn hash_slh_verify_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    ph: PreHash,
    sig: &[u8],
) -> Result<()> {
    let header = [1u8, check_ctx(ctx)?];
    let oid = ph.oid();
    let mut digest = [0u8; MAX_DIGEST_BYTES];
    let len = ph.digest(msg, &mut digest);
    verify_parts(backend, p, pk, &[&header, ctx, &oid, &digest[..len]], sig)
}

/// `hash_slh_verify` (Algorithm 25) on the software backend.
pub fn hash_slh_verify(
    p: &Params,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    ph: PreHash,
    sig: &[u8],
) -> Result<()> {
    hash_slh_verify_with(&mut SoftKeccak, p, pk, msg, ctx, ph, sig)
}

/// `hash_slh_verify` (Algorithm 25) for a digest the caller computed with
/// `ph`; a digest of the wrong length gives [`Error::UnsupportedHash`].
pub fn hash_slh_verify_prehashed_with<B: SlhBackend>(
    backend: &mut B,
    p: &Params,
    pk: &[u8],
    digest: &[u8],
    ctx: &[u8],
    ph: PreHash,
    sig: &[u8],
) -> Result<()> {
    let header = [1u8, check_ctx(ctx)?];
    if digest.len() != ph.digest_bytes() {
        return Err(Error::UnsupportedHash);
    }
    let oid = ph.oid();
    verify_parts(backend, p, pk, &[&header, ctx, &oid, digest], sig)
}

/// [`hash_slh_verify_prehashed_with`] on the software backend.
pub fn hash_slh_verify_prehashed(
    p: &Params,
    pk: &[u8],
    digest: &[u8],
    ctx: &[u8],
    ph: PreHash,
    sig: &[u8],
) -> Result<()> {
    hash_slh_verify_prehashed_with(&mut SoftKeccak, p, pk, digest, ctx, ph, sig)
}
