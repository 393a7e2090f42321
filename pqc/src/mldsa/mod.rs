//! ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87.
//!
//! Three layers, all without heap allocation:
//!
//! - Typed keys per parameter set ([`ml_dsa_44`], [`ml_dsa_65`],
//!   [`ml_dsa_87`]): `SigningKey`, `VerifyingKey`, `Signature`, with the
//!   RustCrypto [`signature`] traits (`Signer`, `Verifier`, `Keypair`,
//!   `SignatureEncoding`).
//! - Free functions over byte slices that mirror the FIPS 204 algorithms
//!   one to one ([`keygen_internal`], [`sign`], [`sign_internal`],
//!   [`sign_mu`], [`hash_sign`], [`verify`], [`hash_verify`],
//!   [`verify_internal`], [`verify_mu`]), for test harnesses and firmware.
//!   They use the portable software backends.
//! - The engine [`MlDsa`], generic over a [`RingBackend`] and a
//!   [`KeccakBackend`], with the same methods: plug a hardware backend in here.
//!
//! ```
//! use pqc::mldsa::{ml_dsa_44, PreHash};
//! use signature::{Keypair, Signer, Verifier};
//!
//! // KeyGen_internal from a 32-byte seed ξ (use a real RNG for ξ).
//! let sk = ml_dsa_44::SigningKey::from_seed(&[7u8; 32]);
//! let vk = sk.verifying_key();
//!
//! // The RustCrypto traits: deterministic signing, empty context.
//! let sig = sk.sign(b"firmware image v1.2");
//! assert!(vk.verify(b"firmware image v1.2", &sig).is_ok());
//! assert!(vk.verify(b"firmware image v1.3", &sig).is_err());
//!
//! // Hedged signing with a context string and caller randomness.
//! let rnd = [0x5Au8; 32];
//! let sig = sk.sign_with_context(b"msg", b"my-protocol", &rnd)?;
//! vk.verify_with_context(b"msg", b"my-protocol", &sig)?;
//!
//! // HashML-DSA with a SHA-512 pre-hash.
//! let sig = sk.hash_sign(b"msg", b"", PreHash::Sha2_512, &rnd)?;
//! vk.hash_verify(b"msg", b"", PreHash::Sha2_512, &sig)?;
//!
//! // Keys and signatures round-trip through bytes with checked decoding.
//! let vk2 = ml_dsa_44::VerifyingKey::try_from(&vk.as_bytes()[..])?;
//! let sig2 = ml_dsa_44::Signature::try_from(&sig.as_bytes()[..])?;
//! assert_eq!((vk, sig), (vk2, sig2));
//! assert!(ml_dsa_44::Signature::try_from(&[0u8; 10][..]).is_err());
//! # Ok::<(), pqc::Error>(())
//! ```
//!
//! # Backend seams
//!
//! All polynomial arithmetic goes through [`RingBackend`] at vector grain:
//! `ntt_vec`/`intt_vec` on whole vectors, `dot` for each row of Â·v and
//! `scale_vec` for c·s1, c·s2, c·t0 and c·t1. All Keccak work goes through
//! [`KeccakBackend::sponge`]: H and the samplers absorb whole inputs and
//! squeeze their whole output in one call. Coefficients crossing the ring
//! backend are canonical and in the plain domain; the protocol code centres
//! and checks them itself.
//!
//! Backend calls per operation (asserted by `tests/mldsa_api.rs`), for a
//! hardware implementer sizing transfers:
//!
//! | operation | ring calls | sponge calls |
//! |---|---|---|
//! | keygen | 1 `ntt_vec`(l), k `dot`(l), 1 `intt_vec`(k) | 1 + k·l + k + l + 1 |
//! | sign, once | 3 `ntt_vec` (s1, s2, t0) | k·l (Â), 2 (μ, ρ″) |
//! | sign, per attempt | 1 `ntt_vec`(l), k `dot`(l), 1 `ntt` (c), 3 `scale_vec`, 4 `intt_vec` | l (ExpandMask), 1 (c̃), 1 (SampleInBall) |
//! | verify | 1 `ntt` (c), 2 `ntt_vec`, 1 `scale_vec`(k), k `dot`(l), 1 `intt_vec`(k) | 2 (tr, μ), k·l, 1, 1 |
//!
//! The per-polynomial `pointwise_mul`/`pointwise_mul_acc` and `intt` are
//! never called directly, and `KeccakBackend::permute` is reached only if a
//! rejection sampler falls short twice (probability far below 2^-256).
//!
//! # Memory
//!
//! No heap. Buffers are sized by the parameter set (const generics `K`, `L`).
//! Signing keeps Â (K·L polynomials) for all rejection attempts, s1, s2, t0
//! in the NTT domain, and three working vectors (y/z, w, and one K-vector
//! reused for ĉ∘ŝ1, cs2, ct0 and the hints): for ML-DSA-44 that is
//! 16 + 12 + 12 KiB of polynomials. Key generation and verification
//! generate Â one row at a time. Peak stack measured by
//! `tests/mldsa_stack.rs` (stack painting, x86_64 release build):
//! ML-DSA-44 keygen 18.5 KiB, sign 44.8 KiB, verify 17.8 KiB;
//! ML-DSA-65 24.5 / 68.8 / 23.3 KiB; ML-DSA-87 32.5 / 106.8 / 29.8 KiB.
//!
//! For microcontrollers, [`SigningMode::SmallStack`] (chosen at run time
//! with [`MlDsa::with_signing_mode`], or made the default by the cargo
//! feature `small-stack-sign`) signs with the same output but regenerates Â
//! row by row in every attempt and keeps s1, s2 and t0 packed, unpacking
//! one polynomial at a time: 2l + k + 1 polynomials and k·256 hint bytes
//! live. Measured the same way: ML-DSA-44 sign 17.7 KiB, ML-DSA-65
//! 22.2 KiB, ML-DSA-87 28.7 KiB. It costs k·l ExpandA calls and l + 2k
//! NTTs more per rejection attempt; its ring calls are per polynomial
//! (`ntt`, `pointwise_mul`, `intt`) except `ntt_vec`(y), `dot` and
//! `intt_vec`(w). `tests/mldsa_small_stack.rs` checks it against the fast
//! mode, `tests/mldsa_acvp.rs` runs the sigGen vectors through it.
//!
//! # Constant time (audit)
//!
//! Secret inputs: ξ, ρ′, K, s1, s2, t0, rnd, ρ″, y, and per rejected attempt
//! w, c̃, c. Checked two ways: by reading the code (list below), and for
//! signing by `tests/mldsa_ctgrind.rs`, which runs sign for all three sets
//! in both signing modes
//! under valgrind memcheck with K, s1, s2, t0 and rnd marked undefined and
//! fails on any secret-dependent branch or address outside the lines listed
//! here (it caught LLVM turning SampleInBall's masked select back into a
//! data-dependent select; the mask now goes through `black_box`; and a
//! cmov from Decompose's γ2 = (q−1)/88 wrap in the small-stack mode's
//! scalar loop, now a shift instead of a sign mask). Timing
//! measurements (dudect-style) were not done.
//!
//! - NTT, pointwise products, reductions ([`crate::ring`]): fixed loops,
//!   Montgomery/Barrett arithmetic, no data-dependent branch or index.
//! - Secret-key decoding: fixed-width bit unpacking; the range check of
//!   s1/s2 ORs a flag and branches once, on key validity only.
//! - Signing attempt: ExpandMask (no rejection), w1 packing, Decompose,
//!   centring, norm checks and MakeHint are shift/mask arithmetic; the four
//!   rejection conditions are ORed into one flag evaluated once per attempt
//!   (all checks always run), so the only secret-dependent branch is
//!   accept/reject, i.e. the public attempt count. Hints are packed only
//!   after acceptance, when they are part of the public signature.
//! - SampleInBall: the swap `c[i] = c[j]; c[j] = ±1` reads and writes c with
//!   a full masked scan, not by index j. The loop skips bytes with j > i;
//!   that count shows in timing but those bytes are discarded and
//!   independent of the kept positions. (c̃ and c of the accepted attempt
//!   are public; those of rejected attempts are not published.)
//! - ExpandS (key generation): the rejection of nibbles ≥ 15 (η = 2) or ≥ 9
//!   (η = 4) branches; rejected nibbles are independent of the accepted
//!   coefficients, as in every FIPS 204 implementation.
//! - Not constant time by design: ExpandA (public ρ), verification (public
//!   inputs), and the error returns for malformed input.
//!
//! Secrets held in buffers (the signing/keygen working state, signing keys)
//! are zeroized on drop with [`zeroize`].

pub mod arith;
pub mod encode;
mod internal;
pub use internal::MAX_SIGN_ATTEMPTS;
mod operations;
pub use operations::{MPrime, MlDsaOperations};
pub mod params;
pub mod sample;
mod typed;

pub use crate::prehash::PreHash;
pub use params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};
pub use typed::{ml_dsa_44, ml_dsa_65, ml_dsa_87};

use crate::error::{check_ctx, check_len, Result};
use crate::keccak::{KeccakBackend, SoftKeccak};
use crate::ring::{RingBackend, SoftRing};

/// One of the three ML-DSA parameter sets, for the byte-slice API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterSet {
    /// ML-DSA-44.
    MlDsa44,
    /// ML-DSA-65.
    MlDsa65,
    /// ML-DSA-87.
    MlDsa87,
}

impl ParameterSet {
    /// The three sets.
    pub const ALL: [ParameterSet; 3] = [
        ParameterSet::MlDsa44,
        ParameterSet::MlDsa65,
        ParameterSet::MlDsa87,
    ];

    /// The FIPS 204 parameters of this set.
    pub const fn params(self) -> &'static Params {
        match self {
            ParameterSet::MlDsa44 => &ML_DSA_44,
            ParameterSet::MlDsa65 => &ML_DSA_65,
            ParameterSet::MlDsa87 => &ML_DSA_87,
        }
    }

    /// The set named `"ML-DSA-44"`, `"ML-DSA-65"` or `"ML-DSA-87"`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.params().name == name)
    }

    /// Public key length in bytes.
    pub const fn public_key_len(self) -> usize {
        self.params().pk_len()
    }
    /// Secret key length in bytes.
    pub const fn secret_key_len(self) -> usize {
        self.params().sk_len()
    }
    /// Signature length in bytes.
    pub const fn signature_len(self) -> usize {
        self.params().sig_len()
    }
}

/// Calls `internal::$f::<K, L, _, _>(&params, args…)` with the dimensions of `$set`.
macro_rules! dispatch {
    ($set:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $set {
            ParameterSet::MlDsa44 => internal::$f::<{ ML_DSA_44.k }, { ML_DSA_44.l }, _, _>(&ML_DSA_44, $($arg),*),
            ParameterSet::MlDsa65 => internal::$f::<{ ML_DSA_65.k }, { ML_DSA_65.l }, _, _>(&ML_DSA_65, $($arg),*),
            ParameterSet::MlDsa87 => internal::$f::<{ ML_DSA_87.k }, { ML_DSA_87.l }, _, _>(&ML_DSA_87, $($arg),*),
        }
    };
}

/// How signing trades stack for time; both produce identical signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SigningMode {
    /// Â, s1, s2 and t0 expanded once per signature and kept for every
    /// rejection attempt (ML-DSA-44: about 46 KiB of stack on x86_64).
    Fast,
    /// Â regenerated row by row in every attempt, s1, s2 and t0 kept packed
    /// and unpacked one polynomial at a time (ML-DSA-44: about 17 KiB), at
    /// the price of k·l ExpandA calls and l + 2k extra NTTs per attempt.
    SmallStack,
}

impl SigningMode {
    /// The build's default: [`SigningMode::SmallStack`] with the cargo
    /// feature `small-stack-sign`, else [`SigningMode::Fast`]. The free
    /// functions ([`sign`], …) and the typed keys use it.
    pub const DEFAULT: SigningMode = if cfg!(feature = "small-stack-sign") {
        SigningMode::SmallStack
    } else {
        SigningMode::Fast
    };
}

impl Default for SigningMode {
    fn default() -> Self {
        SigningMode::DEFAULT
    }
}

/// The ML-DSA engine over a ring backend `R` and a Keccak backend `H`.
///
/// `MlDsa::default()` uses the portable software backends; construct it with
/// [`MlDsa::new`] to run on an accelerator. Every method checks the lengths
/// of its inputs and outputs against the parameter set and returns
/// [`Error`](crate::Error) on bad input; none panics. Signing follows
/// [`MlDsa::signing_mode`] (see [`MlDsa::with_signing_mode`]).
#[derive(Clone, Debug, Default)]
pub struct MlDsa<R = SoftRing, H = SoftKeccak> {
    /// The ring-arithmetic backend.
    pub ring: R,
    /// The Keccak backend.
    pub keccak: H,
    /// Fast or small-stack signing ([`SigningMode::DEFAULT`] unless set).
    pub signing_mode: SigningMode,
}

impl<R: RingBackend, H: KeccakBackend> MlDsa<R, H> {
    /// An engine over the given backends, signing in
    /// [`SigningMode::DEFAULT`].
    pub fn new(ring: R, keccak: H) -> Self {
        MlDsa {
            ring,
            keccak,
            signing_mode: SigningMode::DEFAULT,
        }
    }

    /// The same engine signing in `mode`.
    pub fn with_signing_mode(mut self, mode: SigningMode) -> Self {
        self.signing_mode = mode;
        self
    }

    /// Sign_internal from μ in the engine's signing mode; lengths checked.
    fn sign_mu_checked(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<usize> {
        let (ring, keccak) = (&mut self.ring, &mut self.keccak);
        match self.signing_mode {
            SigningMode::Fast => dispatch!(set, sign_mu(ring, keccak, sk, mu, rnd, sig)),
            SigningMode::SmallStack => {
                dispatch!(set, sign_mu_small_stack(ring, keccak, sk, mu, rnd, sig))
            }
        }
    }

    /// ML-DSA.KeyGen_internal (Algorithm 6): key pair from the seed ξ.
    /// `pk` and `sk` must have the set's exact lengths.
    pub fn keygen_internal(
        &mut self,
        set: ParameterSet,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> Result<()> {
        check_len("ML-DSA public key buffer", set.public_key_len(), pk.len())?;
        check_len("ML-DSA secret key buffer", set.secret_key_len(), sk.len())?;
        dispatch!(
            set,
            keygen_internal(&mut self.ring, &mut self.keccak, xi, pk, sk)
        );
        Ok(())
    }

    /// Recomputes the public key of `sk` and checks that `sk` is internally
    /// consistent (s1, s2 in range; t0 and tr match).
    pub fn public_key_from_secret(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        pk: &mut [u8],
    ) -> Result<()> {
        check_len("ML-DSA secret key", set.secret_key_len(), sk.len())?;
        check_len("ML-DSA public key buffer", set.public_key_len(), pk.len())?;
        dispatch!(
            set,
            public_from_secret(&mut self.ring, &mut self.keccak, sk, pk)
        )
    }

    /// The message representative μ = H(tr ‖ M′, 64) with tr = H(pk, 64) and
    /// M′ = 0x00 ‖ |ctx| ‖ ctx ‖ M: what an "external μ" signer receives.
    pub fn external_mu(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<[u8; 64]> {
        check_len("ML-DSA public key", set.public_key_len(), pk.len())?;
        let ctx_len = check_ctx(ctx)?;
        let mut tr = [0u8; 64];
        sample::h(&mut self.keccak, &[pk], &mut tr);
        let mut mu = [0u8; 64];
        internal::message_representative(
            &mut self.keccak,
            &tr,
            &[&[0, ctx_len], ctx, msg],
            &mut mu,
        );
        Ok(mu)
    }

    fn sign_parts(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &[&[u8]],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<usize> {
        check_len("ML-DSA secret key", set.secret_key_len(), sk.len())?;
        check_len("ML-DSA signature buffer", set.signature_len(), sig.len())?;
        let mut mu = [0u8; 64];
        internal::message_representative(&mut self.keccak, &sk[64..128], m_prime, &mut mu);
        self.sign_mu_checked(set, sk, &mu, rnd, sig)
    }

    /// ML-DSA.Sign (Algorithm 2) with caller randomness `rnd` (32 fresh
    /// random bytes for the hedged variant, all zero for the deterministic
    /// one) and context string `ctx` (at most 255 bytes).
    pub fn sign(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        MlDsaOperations::sign(self, set, sk, msg, ctx, rnd, sig)
    }

    /// ML-DSA.Sign_internal (Algorithm 7) on the formatted message M′.
    pub fn sign_internal(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &[u8],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        self.sign_parts(set, sk, &[m_prime], rnd, sig).map(|_| ())
    }

    /// [`MlDsa::sign_internal`] that also returns the number of attempts
    /// the rejection loop made (see [`MlDsa::sign_mu_counting`]).
    pub fn sign_internal_counting(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &[u8],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<usize> {
        self.sign_parts(set, sk, &[m_prime], rnd, sig)
    }

    /// Sign_internal from an externally computed μ (see [`MlDsa::external_mu`]).
    pub fn sign_mu(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        self.sign_mu_counting(set, sk, mu, rnd, sig).map(|_| ())
    }

    /// [`MlDsa::sign_mu`] that also returns the number of attempts the
    /// rejection loop made (the accepted one included). FIPS 204 treats
    /// that count as public; it is here to measure signing and to check
    /// accelerators that report it.
    pub fn sign_mu_counting(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<usize> {
        check_len("ML-DSA secret key", set.secret_key_len(), sk.len())?;
        check_len("ML-DSA signature buffer", set.signature_len(), sig.len())?;
        self.sign_mu_checked(set, sk, mu, rnd, sig)
    }

    /// HashML-DSA.Sign (Algorithm 4): signs PH(msg) for the pre-hash `ph`.
    #[allow(clippy::too_many_arguments)]
    pub fn hash_sign(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        ph: PreHash,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        MlDsaOperations::hash_sign(self, set, sk, msg, ctx, ph, rnd, sig)
    }

    /// HashML-DSA.Sign with a digest the caller computed (`digest` must be
    /// exactly `ph.digest_bytes()` bytes, else [`Error::UnsupportedHash`](crate::Error::UnsupportedHash)).
    #[allow(clippy::too_many_arguments)]
    pub fn hash_sign_prehashed(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        digest: &[u8],
        ctx: &[u8],
        ph: PreHash,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        MlDsaOperations::hash_sign_prehashed(self, set, sk, digest, ctx, ph, rnd, sig)
    }

    fn verify_parts(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &[&[u8]],
        sig: &[u8],
    ) -> Result<()> {
        check_len("ML-DSA public key", set.public_key_len(), pk.len())?;
        check_len("ML-DSA signature", set.signature_len(), sig.len())?;
        let mut tr = [0u8; 64];
        sample::h(&mut self.keccak, &[pk], &mut tr);
        let mut mu = [0u8; 64];
        internal::message_representative(&mut self.keccak, &tr, m_prime, &mut mu);
        dispatch!(
            set,
            verify_mu(&mut self.ring, &mut self.keccak, pk, &mu, sig)
        )
    }

    /// ML-DSA.Verify (Algorithm 3): `Ok(())` iff `sig` is valid for `msg`
    /// and `ctx` under `pk`.
    pub fn verify(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<()> {
        MlDsaOperations::verify(self, set, pk, msg, ctx, sig)
    }

    /// ML-DSA.Verify_internal (Algorithm 8) on the formatted message M′.
    pub fn verify_internal(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &[u8],
        sig: &[u8],
    ) -> Result<()> {
        self.verify_parts(set, pk, &[m_prime], sig)
    }

    /// Verify_internal with an externally computed μ.
    pub fn verify_mu(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        mu: &[u8; 64],
        sig: &[u8],
    ) -> Result<()> {
        check_len("ML-DSA public key", set.public_key_len(), pk.len())?;
        check_len("ML-DSA signature", set.signature_len(), sig.len())?;
        dispatch!(
            set,
            verify_mu(&mut self.ring, &mut self.keccak, pk, mu, sig)
        )
    }

    /// HashML-DSA.Verify (Algorithm 5).
    pub fn hash_verify(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        ph: PreHash,
        sig: &[u8],
    ) -> Result<()> {
        MlDsaOperations::hash_verify(self, set, pk, msg, ctx, ph, sig)
    }

    /// HashML-DSA.Verify with a digest the caller computed.
    pub fn hash_verify_prehashed(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        digest: &[u8],
        ctx: &[u8],
        ph: PreHash,
        sig: &[u8],
    ) -> Result<()> {
        MlDsaOperations::hash_verify_prehashed(self, set, pk, digest, ctx, ph, sig)
    }
}

impl<R: RingBackend, H: KeccakBackend> MlDsaOperations for MlDsa<R, H> {
    fn keygen_internal(
        &mut self,
        set: ParameterSet,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> Result<()> {
        MlDsa::keygen_internal(self, set, xi, pk, sk)
    }

    fn sign_m_prime(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &MPrime<'_>,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        self.sign_parts(set, sk, &m_prime.parts(), rnd, sig)
            .map(|_| ())
    }

    fn sign_mu(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> Result<()> {
        MlDsa::sign_mu(self, set, sk, mu, rnd, sig)
    }

    fn verify_m_prime(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &MPrime<'_>,
        sig: &[u8],
    ) -> Result<()> {
        self.verify_parts(set, pk, &m_prime.parts(), sig)
    }

    fn verify_mu(&mut self, set: ParameterSet, pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> Result<()> {
        MlDsa::verify_mu(self, set, pk, mu, sig)
    }
}

/// [`MlDsa::keygen_internal`] with the software backends.
pub fn keygen_internal(
    set: ParameterSet,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().keygen_internal(set, xi, pk, sk)
}

/// [`MlDsa::sign`] with the software backends.
pub fn sign(
    set: ParameterSet,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().sign(set, sk, msg, ctx, rnd, sig)
}

/// [`MlDsa::sign_internal`] with the software backends.
pub fn sign_internal(
    set: ParameterSet,
    sk: &[u8],
    m_prime: &[u8],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().sign_internal(set, sk, m_prime, rnd, sig)
}

/// [`MlDsa::sign_mu`] (external μ) with the software backends.
pub fn sign_mu(
    set: ParameterSet,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().sign_mu(set, sk, mu, rnd, sig)
}

/// [`MlDsa::sign_mu_counting`] with the software backends.
pub fn sign_mu_counting(
    set: ParameterSet,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<usize> {
    MlDsa::<SoftRing, SoftKeccak>::default().sign_mu_counting(set, sk, mu, rnd, sig)
}

/// [`MlDsa::sign_internal_counting`] with the software backends: σ of M′
/// and the number of attempts the rejection loop made.
pub fn sign_internal_counting(
    set: ParameterSet,
    sk: &[u8],
    m_prime: &[u8],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<usize> {
    MlDsa::<SoftRing, SoftKeccak>::default().sign_internal_counting(set, sk, m_prime, rnd, sig)
}

/// [`MlDsa::hash_sign`] with the software backends.
pub fn hash_sign(
    set: ParameterSet,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    ph: PreHash,
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().hash_sign(set, sk, msg, ctx, ph, rnd, sig)
}

/// [`MlDsa::verify`] with the software backends.
pub fn verify(set: ParameterSet, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().verify(set, pk, msg, ctx, sig)
}

/// [`MlDsa::verify_internal`] with the software backends.
pub fn verify_internal(set: ParameterSet, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().verify_internal(set, pk, m_prime, sig)
}

/// [`MlDsa::verify_mu`] (external μ) with the software backends.
pub fn verify_mu(set: ParameterSet, pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().verify_mu(set, pk, mu, sig)
}

/// [`MlDsa::hash_verify`] with the software backends.
pub fn hash_verify(
    set: ParameterSet,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    ph: PreHash,
    sig: &[u8],
) -> Result<()> {
    MlDsa::<SoftRing, SoftKeccak>::default().hash_verify(set, pk, msg, ctx, ph, sig)
}

/// [`MlDsa::external_mu`] with the software backends.
pub fn external_mu(set: ParameterSet, pk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<[u8; 64]> {
    MlDsa::<SoftRing, SoftKeccak>::default().external_mu(set, pk, msg, ctx)
}
