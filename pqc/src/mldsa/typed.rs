//! Typed keys and signatures per parameter set, with the RustCrypto
//! `signature` traits. Generated once by a macro from the parameter table.

macro_rules! parameter_set_module {
    ($module:ident, $set:ident, $params:ident, $doc:literal) => {
        #[doc = $doc]
        pub mod $module {
            use ::core::fmt;
            use zeroize::Zeroize;

            use crate::error::{Error, Result};
            use crate::mldsa::{encode, $params, MlDsa, MlDsaOperations, ParameterSet, PreHash};

            /// The parameter set of this module.
            pub const PARAMETER_SET: ParameterSet = ParameterSet::$set;
            /// Public (verifying) key length in bytes.
            pub const PUBLIC_KEY_LEN: usize = $params.pk_len();
            /// Secret (signing) key length in bytes.
            pub const SECRET_KEY_LEN: usize = $params.sk_len();
            /// Signature length in bytes.
            pub const SIGNATURE_LEN: usize = $params.sig_len();

            /// A verifying (public) key. Every byte string of the right
            /// length is a valid encoding (FIPS 204 pkDecode has no checks).
            #[derive(Clone, PartialEq, Eq)]
            pub struct VerifyingKey {
                bytes: [u8; PUBLIC_KEY_LEN],
            }

            /// A signing (secret) key together with its verifying key.
            /// Zeroized on drop.
            #[derive(Clone)]
            pub struct SigningKey {
                bytes: [u8; SECRET_KEY_LEN],
                verifying_key: VerifyingKey,
            }

            /// A signature whose hint encoding has been checked.
            #[derive(Clone, PartialEq, Eq)]
            pub struct Signature {
                bytes: [u8; SIGNATURE_LEN],
            }

            impl VerifyingKey {
                /// Decodes a public key (length check only).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
                    let bytes = bytes.try_into().map_err(|_| Error::InvalidLength {
                        what: concat!(stringify!($set), " public key"),
                        expected: PUBLIC_KEY_LEN,
                        got: bytes.len(),
                    })?;
                    Ok(VerifyingKey { bytes })
                }
                /// The encoded key.
                pub fn as_bytes(&self) -> &[u8; PUBLIC_KEY_LEN] {
                    &self.bytes
                }
                /// The encoded key, by value.
                pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LEN] {
                    self.bytes
                }
                /// ML-DSA.Verify with a context string.
                pub fn verify_with_context(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    sig: &Signature,
                ) -> Result<()> {
                    self.verify_with_context_on(&mut <MlDsa>::default(), msg, ctx, sig)
                }
                /// [`Self::verify_with_context`] on `ops` (e.g. a PL
                /// engine's backend).
                pub fn verify_with_context_on(
                    &self,
                    ops: &mut (impl MlDsaOperations + ?Sized),
                    msg: &[u8],
                    ctx: &[u8],
                    sig: &Signature,
                ) -> Result<()> {
                    ops.verify(PARAMETER_SET, &self.bytes, msg, ctx, &sig.bytes)
                }
                /// HashML-DSA.Verify: hashes `msg` with `ph` first.
                pub fn hash_verify(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    ph: PreHash,
                    sig: &Signature,
                ) -> Result<()> {
                    self.hash_verify_on(&mut <MlDsa>::default(), msg, ctx, ph, sig)
                }
                /// [`Self::hash_verify`] on `ops`.
                pub fn hash_verify_on(
                    &self,
                    ops: &mut (impl MlDsaOperations + ?Sized),
                    msg: &[u8],
                    ctx: &[u8],
                    ph: PreHash,
                    sig: &Signature,
                ) -> Result<()> {
                    ops.hash_verify(PARAMETER_SET, &self.bytes, msg, ctx, ph, &sig.bytes)
                }
                /// Verify_internal against an externally computed μ.
                pub fn verify_mu(&self, mu: &[u8; 64], sig: &Signature) -> Result<()> {
                    self.verify_mu_on(&mut <MlDsa>::default(), mu, sig)
                }
                /// [`Self::verify_mu`] on `ops`.
                pub fn verify_mu_on(
                    &self,
                    ops: &mut (impl MlDsaOperations + ?Sized),
                    mu: &[u8; 64],
                    sig: &Signature,
                ) -> Result<()> {
                    ops.verify_mu(PARAMETER_SET, &self.bytes, mu, &sig.bytes)
                }
                /// μ for `msg` and `ctx` (to hand to an external-μ signer).
                pub fn external_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; 64]> {
                    <MlDsa>::default().external_mu(PARAMETER_SET, &self.bytes, msg, ctx)
                }
            }

            impl SigningKey {
                /// ML-DSA.KeyGen_internal from the 32-byte seed ξ. Draw ξ
                /// from a cryptographic RNG; the seed is the whole secret.
                pub fn from_seed(xi: &[u8; 32]) -> Self {
                    Self::from_seed_on(&mut <MlDsa>::default(), xi)
                        .expect("buffers have the parameter set's lengths")
                }
                /// [`Self::from_seed`] on `ops` (e.g. a PL engine's
                /// backend); its error if it has one.
                pub fn from_seed_on(
                    ops: &mut (impl MlDsaOperations + ?Sized),
                    xi: &[u8; 32],
                ) -> Result<Self> {
                    let mut key = SigningKey {
                        bytes: [0; SECRET_KEY_LEN],
                        verifying_key: VerifyingKey {
                            bytes: [0; PUBLIC_KEY_LEN],
                        },
                    };
                    ops.keygen_internal(
                        PARAMETER_SET,
                        xi,
                        &mut key.verifying_key.bytes,
                        &mut key.bytes,
                    )?;
                    Ok(key)
                }
                /// ML-DSA.KeyGen (Algorithm 1): draws ξ from `rng`, then
                /// KeyGen_internal. ξ is zeroized afterwards.
                pub fn generate<R: signature::rand_core::CryptoRng + ?Sized>(rng: &mut R) -> Self {
                    let mut xi = [0u8; 32];
                    rng.fill_bytes(&mut xi);
                    let key = Self::from_seed(&xi);
                    xi.zeroize();
                    key
                }
                /// Decodes a secret key, checking the s1/s2 ranges and that
                /// t0 and tr agree with s1, s2 (this recomputes the public key).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
                    let bytes: [u8; SECRET_KEY_LEN] =
                        bytes.try_into().map_err(|_| Error::InvalidLength {
                            what: concat!(stringify!($set), " secret key"),
                            expected: SECRET_KEY_LEN,
                            got: bytes.len(),
                        })?;
                    let mut key = SigningKey {
                        bytes,
                        verifying_key: VerifyingKey {
                            bytes: [0; PUBLIC_KEY_LEN],
                        },
                    };
                    <MlDsa>::default().public_key_from_secret(
                        PARAMETER_SET,
                        &key.bytes,
                        &mut key.verifying_key.bytes,
                    )?;
                    Ok(key)
                }
                /// The encoded secret key. Handle with care.
                pub fn as_bytes(&self) -> &[u8; SECRET_KEY_LEN] {
                    &self.bytes
                }
                /// The verifying key (also available through `Keypair`).
                pub fn verifying_key(&self) -> VerifyingKey {
                    self.verifying_key.clone()
                }
                /// ML-DSA.Sign with a context string. `rnd`: 32 fresh random
                /// bytes (hedged) or all zero (deterministic).
                pub fn sign_with_context(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    rnd: &[u8; 32],
                ) -> Result<Signature> {
                    self.sign_with_context_on(&mut <MlDsa>::default(), msg, ctx, rnd)
                }
                /// [`Self::sign_with_context`] on `ops`.
                pub fn sign_with_context_on(
                    &self,
                    ops: &mut (impl MlDsaOperations + ?Sized),
                    msg: &[u8],
                    ctx: &[u8],
                    rnd: &[u8; 32],
                ) -> Result<Signature> {
                    let mut sig = Signature {
                        bytes: [0; SIGNATURE_LEN],
                    };
                    ops.sign(PARAMETER_SET, &self.bytes, msg, ctx, rnd, &mut sig.bytes)?;
                    Ok(sig)
                }
                /// HashML-DSA.Sign: hashes `msg` with `ph`, then signs.
                pub fn hash_sign(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    ph: PreHash,
                    rnd: &[u8; 32],
                ) -> Result<Signature> {
                    self.hash_sign_on(&mut <MlDsa>::default(), msg, ctx, ph, rnd)
                }
                /// [`Self::hash_sign`] on `ops`.
                pub fn hash_sign_on(
                    &self,
                    ops: &mut (impl MlDsaOperations + ?Sized),
                    msg: &[u8],
                    ctx: &[u8],
                    ph: PreHash,
                    rnd: &[u8; 32],
                ) -> Result<Signature> {
                    let mut sig = Signature {
                        bytes: [0; SIGNATURE_LEN],
                    };
                    ops.hash_sign(
                        PARAMETER_SET,
                        &self.bytes,
                        msg,
                        ctx,
                        ph,
                        rnd,
                        &mut sig.bytes,
                    )?;
                    Ok(sig)
                }
                /// Sign_internal from an externally computed μ.
                pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Signature> {
                    self.sign_mu_on(&mut <MlDsa>::default(), mu, rnd)
                }
                /// [`Self::sign_mu`] on `ops`.
                pub fn sign_mu_on(
                    &self,
                    ops: &mut (impl MlDsaOperations + ?Sized),
                    mu: &[u8; 64],
                    rnd: &[u8; 32],
                ) -> Result<Signature> {
                    let mut sig = Signature {
                        bytes: [0; SIGNATURE_LEN],
                    };
                    ops.sign_mu(PARAMETER_SET, &self.bytes, mu, rnd, &mut sig.bytes)?;
                    Ok(sig)
                }
            }

            impl Drop for SigningKey {
                fn drop(&mut self) {
                    self.bytes.zeroize();
                }
            }

            impl zeroize::ZeroizeOnDrop for SigningKey {}

            impl fmt::Debug for SigningKey {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.debug_struct(concat!(stringify!($module), "::SigningKey"))
                        .field("verifying_key", &self.verifying_key)
                        .finish_non_exhaustive()
                }
            }

            impl fmt::Debug for VerifyingKey {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    write!(f, concat!(stringify!($module), "::VerifyingKey("))?;
                    for b in &self.bytes[..8] {
                        write!(f, "{b:02x}")?;
                    }
                    write!(f, "…)")
                }
            }

            impl Signature {
                /// Decodes a signature: checks the length and the hint
                /// encoding (the other checks happen in verification).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
                    let bytes: [u8; SIGNATURE_LEN] =
                        bytes.try_into().map_err(|_| Error::InvalidLength {
                            what: concat!(stringify!($set), " signature"),
                            expected: SIGNATURE_LEN,
                            got: bytes.len(),
                        })?;
                    let p = &$params;
                    let hint_start = SIGNATURE_LEN - p.omega - p.k;
                    if !encode::hints_well_formed(p.k, p.omega, &bytes[hint_start..]) {
                        return Err(Error::MalformedEncoding {
                            what: concat!(stringify!($set), " signature hint"),
                        });
                    }
                    Ok(Signature { bytes })
                }
                /// The encoded signature.
                pub fn as_bytes(&self) -> &[u8; SIGNATURE_LEN] {
                    &self.bytes
                }
            }

            impl fmt::Debug for Signature {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    write!(f, concat!(stringify!($module), "::Signature("))?;
                    for b in &self.bytes[..8] {
                        write!(f, "{b:02x}")?;
                    }
                    write!(f, "…)")
                }
            }

            impl TryFrom<&[u8]> for VerifyingKey {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self> {
                    Self::from_bytes(bytes)
                }
            }

            impl TryFrom<&[u8]> for SigningKey {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self> {
                    Self::from_bytes(bytes)
                }
            }

            impl TryFrom<&[u8]> for Signature {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self> {
                    Self::from_bytes(bytes)
                }
            }

            impl From<Signature> for [u8; SIGNATURE_LEN] {
                fn from(sig: Signature) -> Self {
                    sig.bytes
                }
            }

            impl AsRef<[u8]> for Signature {
                fn as_ref(&self) -> &[u8] {
                    &self.bytes
                }
            }

            impl AsRef<[u8]> for VerifyingKey {
                fn as_ref(&self) -> &[u8] {
                    &self.bytes
                }
            }

            impl signature::SignatureEncoding for Signature {
                type Repr = [u8; SIGNATURE_LEN];
            }

            impl signature::Keypair for SigningKey {
                type VerifyingKey = VerifyingKey;
                fn verifying_key(&self) -> VerifyingKey {
                    self.verifying_key.clone()
                }
            }

            /// Deterministic ML-DSA.Sign with an empty context (rnd = 0³²).
            /// Use [`SigningKey::sign_with_context`] for hedged signing.
            impl signature::Signer<Signature> for SigningKey {
                fn try_sign(
                    &self,
                    msg: &[u8],
                ) -> ::core::result::Result<Signature, signature::Error> {
                    self.sign_with_context(msg, &[], &[0; 32])
                        .map_err(|_| signature::Error::new())
                }
            }

            /// Hedged ML-DSA.Sign with an empty context: rnd is drawn from
            /// `rng` (an RNG failure becomes a `signature::Error`).
            impl signature::RandomizedSigner<Signature> for SigningKey {
                fn try_sign_with_rng<R: signature::rand_core::TryCryptoRng + ?Sized>(
                    &self,
                    rng: &mut R,
                    msg: &[u8],
                ) -> ::core::result::Result<Signature, signature::Error> {
                    let mut rnd = [0u8; 32];
                    rng.try_fill_bytes(&mut rnd)
                        .map_err(|_| signature::Error::new())?;
                    let sig = self.sign_with_context(msg, &[], &rnd);
                    rnd.zeroize();
                    sig.map_err(|_| signature::Error::new())
                }
            }

            /// ML-DSA.Verify with an empty context.
            impl signature::Verifier<Signature> for VerifyingKey {
                fn verify(
                    &self,
                    msg: &[u8],
                    sig: &Signature,
                ) -> ::core::result::Result<(), signature::Error> {
                    self.verify_with_context(msg, &[], sig)
                        .map_err(|_| signature::Error::new())
                }
            }
        }
    };
}

parameter_set_module!(
    ml_dsa_44,
    MlDsa44,
    ML_DSA_44,
    "ML-DSA-44: typed keys and signatures (security category 2)."
);
parameter_set_module!(
    ml_dsa_65,
    MlDsa65,
    ML_DSA_65,
    "ML-DSA-65: typed keys and signatures (security category 3)."
);
parameter_set_module!(
    ml_dsa_87,
    MlDsa87,
    ML_DSA_87,
    "ML-DSA-87: typed keys and signatures (security category 5)."
);
