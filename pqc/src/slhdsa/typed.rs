//! Typed keys and signatures, one module per parameter set, with the
//! RustCrypto `signature` traits.
//!
//! `Signer::try_sign` is the deterministic variant of `slh_sign` with an
//! empty context; `RandomizedSigner` draws `addrnd` from the caller's RNG.
//! Context strings, HashSLH-DSA and an explicit `addrnd` are methods.

macro_rules! parameter_set_module {
    ($module:ident, $params:ident, $doc:literal) => {
        #[doc = $doc]
        pub mod $module {
            use crate::error::{Error, Result};
            use crate::keccak::SoftKeccak;
            use crate::slhdsa::SlhBackend;
            use crate::slhdsa::{api, params, PreHash};
            use signature::rand_core::{CryptoRng, TryCryptoRng};
            use zeroize::{Zeroize, ZeroizeOnDrop};

            /// The parameter set.
            pub const PARAMS: params::Params = params::$params;
            /// Security parameter n (bytes).
            pub const N: usize = PARAMS.n;
            /// Public key length.
            pub const PUBLIC_KEY_LEN: usize = PARAMS.pk_bytes();
            /// Secret key length.
            pub const SECRET_KEY_LEN: usize = PARAMS.sk_bytes();
            /// Signature length.
            pub const SIGNATURE_LEN: usize = PARAMS.sig_bytes();

            /// A signature (fixed length).
            #[derive(Clone, PartialEq, Eq)]
            pub struct Signature(pub [u8; SIGNATURE_LEN]);

            impl core::fmt::Debug for Signature {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    write!(f, "Signature({}, {} bytes)", PARAMS.name, SIGNATURE_LEN)
                }
            }

            impl Signature {
                /// Decodes a signature, checking its length.
                pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
                    let array = <[u8; SIGNATURE_LEN]>::try_from(bytes).map_err(|_| {
                        Error::InvalidLength {
                            what: "SLH-DSA signature",
                            expected: SIGNATURE_LEN,
                            got: bytes.len(),
                        }
                    })?;
                    Ok(Signature(array))
                }
                /// The encoded signature.
                pub fn as_bytes(&self) -> &[u8; SIGNATURE_LEN] {
                    &self.0
                }
            }

            impl TryFrom<&[u8]> for Signature {
                type Error = signature::Error;
                fn try_from(bytes: &[u8]) -> core::result::Result<Self, signature::Error> {
                    Signature::from_bytes(bytes).map_err(|_| signature::Error::new())
                }
            }

            impl From<Signature> for [u8; SIGNATURE_LEN] {
                fn from(s: Signature) -> Self {
                    s.0
                }
            }

            impl signature::SignatureEncoding for Signature {
                type Repr = [u8; SIGNATURE_LEN];
            }

            /// A public key `PK.seed ‖ PK.root`.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub struct VerifyingKey([u8; PUBLIC_KEY_LEN]);

            impl VerifyingKey {
                /// Decodes a public key, checking its length.
                pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
                    let array = <[u8; PUBLIC_KEY_LEN]>::try_from(bytes).map_err(|_| {
                        Error::InvalidLength {
                            what: "SLH-DSA public key",
                            expected: PUBLIC_KEY_LEN,
                            got: bytes.len(),
                        }
                    })?;
                    Ok(VerifyingKey(array))
                }
                /// The encoded public key.
                pub fn as_bytes(&self) -> &[u8; PUBLIC_KEY_LEN] {
                    &self.0
                }
                /// The encoded public key, by value.
                pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LEN] {
                    self.0
                }
                /// `slh_verify` with a context string.
                pub fn verify_with_context(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    sig: &Signature,
                ) -> Result<()> {
                    api::slh_verify(&PARAMS, &self.0, msg, ctx, &sig.0)
                }
                /// `slh_verify` with a context string on a given backend ([`crate::slhdsa::SlhBackend`]).
                pub fn verify_with_backend<B: SlhBackend>(
                    &self,
                    backend: &mut B,
                    msg: &[u8],
                    ctx: &[u8],
                    sig: &Signature,
                ) -> Result<()> {
                    api::slh_verify_with(backend, &PARAMS, &self.0, msg, ctx, &sig.0)
                }
                /// `hash_slh_verify` (HashSLH-DSA).
                pub fn hash_verify(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    ph: PreHash,
                    sig: &Signature,
                ) -> Result<()> {
                    api::hash_slh_verify(&PARAMS, &self.0, msg, ctx, ph, &sig.0)
                }
            }

            impl TryFrom<&[u8]> for VerifyingKey {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self> {
                    VerifyingKey::from_bytes(bytes)
                }
            }

            impl AsRef<[u8]> for VerifyingKey {
                fn as_ref(&self) -> &[u8] {
                    &self.0
                }
            }

            impl AsRef<[u8]> for Signature {
                fn as_ref(&self) -> &[u8] {
                    &self.0
                }
            }

            impl signature::Verifier<Signature> for VerifyingKey {
                fn verify(
                    &self,
                    msg: &[u8],
                    sig: &Signature,
                ) -> core::result::Result<(), signature::Error> {
                    self.verify_with_context(msg, &[], sig)
                        .map_err(|_| signature::Error::new())
                }
            }

            /// A secret key `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`, zeroized on drop.
            #[derive(Clone)]
            pub struct SigningKey {
                bytes: [u8; SECRET_KEY_LEN],
                verifying_key: VerifyingKey,
            }

            impl core::fmt::Debug for SigningKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("SigningKey")
                        .field("params", &PARAMS.name)
                        .field("verifying_key", &self.verifying_key)
                        .finish_non_exhaustive()
                }
            }

            impl Drop for SigningKey {
                fn drop(&mut self) {
                    self.bytes.zeroize();
                }
            }

            impl ZeroizeOnDrop for SigningKey {}

            impl SigningKey {
                /// `slh_keygen_internal` from the three seeds (n bytes each).
                pub fn from_seeds(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> Result<Self> {
                    Self::from_seeds_with(&mut SoftKeccak, sk_seed, sk_prf, pk_seed)
                }
                /// `slh_keygen_internal` on a given backend ([`crate::slhdsa::SlhBackend`]).
                pub fn from_seeds_with<B: SlhBackend>(
                    backend: &mut B,
                    sk_seed: &[u8],
                    sk_prf: &[u8],
                    pk_seed: &[u8],
                ) -> Result<Self> {
                    let mut bytes = [0u8; SECRET_KEY_LEN];
                    let mut pk = [0u8; PUBLIC_KEY_LEN];
                    api::slh_keygen_internal_with(
                        backend, &PARAMS, sk_seed, sk_prf, pk_seed, &mut bytes, &mut pk,
                    )?;
                    Ok(SigningKey {
                        bytes,
                        verifying_key: VerifyingKey(pk),
                    })
                }
                /// `slh_keygen`: fresh seeds from `rng`.
                pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
                    let mut seeds = [0u8; 3 * N];
                    rng.fill_bytes(&mut seeds);
                    let key = Self::from_seeds(&seeds[..N], &seeds[N..2 * N], &seeds[2 * N..])
                        .expect("seed lengths are n by construction");
                    seeds.zeroize();
                    key
                }
                /// Decodes a secret key, checking its length. `PK.root` is
                /// taken as stored (recomputing it costs a key generation).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
                    let array = <[u8; SECRET_KEY_LEN]>::try_from(bytes).map_err(|_| {
                        Error::InvalidLength {
                            what: "SLH-DSA secret key",
                            expected: SECRET_KEY_LEN,
                            got: bytes.len(),
                        }
                    })?;
                    let mut pk = [0u8; PUBLIC_KEY_LEN];
                    pk.copy_from_slice(&array[2 * N..]);
                    Ok(SigningKey {
                        bytes: array,
                        verifying_key: VerifyingKey(pk),
                    })
                }
                /// The encoded secret key (handle with care).
                pub fn as_bytes(&self) -> &[u8; SECRET_KEY_LEN] {
                    &self.bytes
                }
                /// The encoded secret key, by value (the copy is the
                /// caller's to zeroize).
                pub fn to_bytes(&self) -> [u8; SECRET_KEY_LEN] {
                    self.bytes
                }
                /// The public key.
                pub fn verifying_key(&self) -> VerifyingKey {
                    self.verifying_key
                }
                /// `slh_sign` with a context; `addrnd = None` is deterministic.
                pub fn sign_with_context(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    addrnd: Option<&[u8; N]>,
                ) -> Result<Signature> {
                    self.sign_with_backend(&mut SoftKeccak, msg, ctx, addrnd)
                }
                /// `slh_sign` on a given backend ([`crate::slhdsa::SlhBackend`]).
                pub fn sign_with_backend<B: SlhBackend>(
                    &self,
                    backend: &mut B,
                    msg: &[u8],
                    ctx: &[u8],
                    addrnd: Option<&[u8; N]>,
                ) -> Result<Signature> {
                    let mut sig = Signature([0u8; SIGNATURE_LEN]);
                    api::slh_sign_with(
                        backend,
                        &PARAMS,
                        &self.bytes,
                        msg,
                        ctx,
                        addrnd.map(|r| &r[..]),
                        &mut sig.0,
                    )?;
                    Ok(sig)
                }
                /// `hash_slh_sign` (HashSLH-DSA); `addrnd = None` is deterministic.
                pub fn hash_sign(
                    &self,
                    msg: &[u8],
                    ctx: &[u8],
                    ph: PreHash,
                    addrnd: Option<&[u8; N]>,
                ) -> Result<Signature> {
                    let mut sig = Signature([0u8; SIGNATURE_LEN]);
                    api::hash_slh_sign(
                        &PARAMS,
                        &self.bytes,
                        msg,
                        ctx,
                        ph,
                        addrnd.map(|r| &r[..]),
                        &mut sig.0,
                    )?;
                    Ok(sig)
                }
            }

            impl TryFrom<&[u8]> for SigningKey {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self> {
                    SigningKey::from_bytes(bytes)
                }
            }

            impl signature::Signer<Signature> for SigningKey {
                fn try_sign(
                    &self,
                    msg: &[u8],
                ) -> core::result::Result<Signature, signature::Error> {
                    self.sign_with_context(msg, &[], None)
                        .map_err(|_| signature::Error::new())
                }
            }

            impl signature::RandomizedSigner<Signature> for SigningKey {
                fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
                    &self,
                    rng: &mut R,
                    msg: &[u8],
                ) -> core::result::Result<Signature, signature::Error> {
                    let mut addrnd = [0u8; N];
                    rng.try_fill_bytes(&mut addrnd)
                        .map_err(|_| signature::Error::new())?;
                    self.sign_with_context(msg, &[], Some(&addrnd))
                        .map_err(|_| signature::Error::new())
                }
            }

            impl signature::Keypair for SigningKey {
                type VerifyingKey = VerifyingKey;
                fn verifying_key(&self) -> VerifyingKey {
                    self.verifying_key
                }
            }

            impl AsRef<VerifyingKey> for SigningKey {
                fn as_ref(&self) -> &VerifyingKey {
                    &self.verifying_key
                }
            }
        }
    };
}

parameter_set_module!(sha2_128s, SHA2_128S, "SLH-DSA-SHA2-128s.");
parameter_set_module!(shake_128s, SHAKE_128S, "SLH-DSA-SHAKE-128s.");
parameter_set_module!(sha2_128f, SHA2_128F, "SLH-DSA-SHA2-128f.");
parameter_set_module!(shake_128f, SHAKE_128F, "SLH-DSA-SHAKE-128f.");
parameter_set_module!(sha2_192s, SHA2_192S, "SLH-DSA-SHA2-192s.");
parameter_set_module!(shake_192s, SHAKE_192S, "SLH-DSA-SHAKE-192s.");
parameter_set_module!(sha2_192f, SHA2_192F, "SLH-DSA-SHA2-192f.");
parameter_set_module!(shake_192f, SHAKE_192F, "SLH-DSA-SHAKE-192f.");
parameter_set_module!(sha2_256s, SHA2_256S, "SLH-DSA-SHA2-256s.");
parameter_set_module!(shake_256s, SHAKE_256S, "SLH-DSA-SHAKE-256s.");
parameter_set_module!(sha2_256f, SHA2_256F, "SLH-DSA-SHA2-256f.");
parameter_set_module!(shake_256f, SHAKE_256F, "SLH-DSA-SHAKE-256f.");
