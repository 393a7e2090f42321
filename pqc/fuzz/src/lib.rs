//! Bodies of the fuzz targets, shared with `pqc/tests/fuzz_smoke.rs` (which
//! includes this file) so that plain `cargo test` runs the same checks.
//!
//! Each body turns arbitrary bytes into a decode + verify call on our API
//! and checks it against an oracle; any violation panics:
//!
//! - arbitrary mode: public key, signature, context and message come from
//!   the input (lengths exact or arbitrary, contexts over 255 bytes too).
//!   Wrong lengths and long contexts must give the matching [`Error`];
//!   well-formed inputs must get the same verdict as the peer
//!   implementation (`fips204`, `fips205`), and a rejection must be
//!   `InvalidSignature` or `MalformedEncoding`.
//! - mutated-valid mode: a valid (key, message, context, signature) of the
//!   set, with up to 8 bytes XORed; it must verify iff nothing changed,
//!   and the peer must agree.
//!
//! Input layout (both schemes): byte 0 selects the parameter set (low bits)
//! and the mode (high bits); the rest drives the chosen mode. Work per input
//! is one or two verifications, plus a one-off key generation and signature
//! per set in mutated-valid mode (cached for the process).

use pqc::mldsa::{self, ParameterSet};
use pqc::slhdsa::{self, params::Params};
use pqc::Error;
use std::sync::OnceLock;

/// Consumes the fuzzer's bytes front to back; reading past the end yields
/// zeros or shorter slices, never a panic.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n.min(self.0.len()));
        self.0 = rest;
        head
    }
    fn rest(&mut self) -> &'a [u8] {
        self.take(self.0.len())
    }
}

/// `len` bytes: `seed` repeated (zeros if `seed` is empty), so short fuzzer
/// inputs still reach full-length keys and signatures.
fn stretch(seed: &[u8], len: usize) -> Vec<u8> {
    if seed.is_empty() {
        return vec![0; len];
    }
    seed.iter().copied().cycle().take(len).collect()
}

/// A length chosen by the input: mostly `exact`, otherwise anything up to
/// `exact + 1` (flag set).
fn length(input: &mut Input, exact: usize, arbitrary: bool) -> usize {
    if arbitrary {
        input.u16() as usize % (exact + 2)
    } else {
        exact
    }
}

/// A context string: up to 255 bytes from the input, or (flag set) 256 to
/// 511 bytes, which every API must refuse.
fn context(input: &mut Input, too_long: bool) -> Vec<u8> {
    let len = input.byte() as usize + if too_long { 256 } else { 0 };
    stretch(input.take(len), len)
}

/// The error a call must return for these input lengths, if any.
fn expect_length_errors(result: &pqc::Result<()>, ctx_len: usize, lengths_ok: bool) {
    if ctx_len > 255 || !lengths_ok {
        match result {
            Err(Error::ContextTooLong { got }) => {
                assert!(ctx_len > 255 && *got == ctx_len, "{result:?}")
            }
            Err(Error::InvalidLength { .. }) => assert!(!lengths_ok, "{result:?}"),
            other => panic!("malformed lengths (ctx {ctx_len}) gave {other:?}"),
        }
    }
}

fn expect_rejection_kind(result: &pqc::Result<()>) {
    if let Err(e) = result {
        assert!(
            matches!(e, Error::InvalidSignature | Error::MalformedEncoding { .. }),
            "a well-formed input was refused with {e:?}"
        );
    }
}

/// Applies up to 8 (position, xor) pairs from the input to one of the four
/// fields. XORs may cancel out, so callers compare with the original.
fn mutate(input: &mut Input, fields: [&mut Vec<u8>; 4]) {
    let target = input.byte() as usize % 4;
    let count = input.byte() as usize % 8 + 1;
    let field = fields.into_iter().nth(target).expect("4 fields");
    for _ in 0..count {
        let pos = input.u16() as usize;
        let xor = input.byte();
        if !field.is_empty() {
            let i = pos % field.len();
            field[i] ^= xor;
        }
    }
}

// ---------------------------------------------------------------- ML-DSA

/// A valid ML-DSA tuple made by our keygen and signer.
pub struct ValidTuple {
    pub pk: Vec<u8>,
    pub msg: Vec<u8>,
    pub ctx: Vec<u8>,
    pub sig: Vec<u8>,
}

fn mldsa_valid(set: ParameterSet) -> &'static ValidTuple {
    static CACHE: [OnceLock<ValidTuple>; 3] = [const { OnceLock::new() }; 3];
    let index = ParameterSet::ALL
        .iter()
        .position(|s| *s == set)
        .expect("set");
    CACHE[index].get_or_init(|| {
        let mut pk = vec![0u8; set.public_key_len()];
        let mut sk = vec![0u8; set.secret_key_len()];
        mldsa::keygen_internal(set, &[0x42; 32], &mut pk, &mut sk).expect("keygen");
        let msg = b"fuzz: a message signed once".to_vec();
        let ctx = b"fuzz ctx".to_vec();
        let mut sig = vec![0u8; set.signature_len()];
        mldsa::sign(set, &sk, &msg, &ctx, &[7; 32], &mut sig).expect("sign");
        assert_eq!(mldsa_peer_verdict(set, &pk, &msg, &ctx, &sig), Some(true));
        ValidTuple { pk, msg, ctx, sig }
    })
}

/// `fips204`'s verdict, or `None` if the lengths do not fit its types.
fn mldsa_peer_verdict(
    set: ParameterSet,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Option<bool> {
    use fips204::traits::{SerDes, Verifier};
    macro_rules! peer {
        ($m:ident) => {{
            let pk = fips204::$m::PublicKey::try_from_bytes(pk.try_into().ok()?);
            let sig: [u8; fips204::$m::SIG_LEN] = sig.try_into().ok()?;
            Some(pk.is_ok_and(|pk| pk.verify(msg, &sig, ctx)))
        }};
    }
    match set {
        ParameterSet::MlDsa44 => peer!(ml_dsa_44),
        ParameterSet::MlDsa65 => peer!(ml_dsa_65),
        ParameterSet::MlDsa87 => peer!(ml_dsa_87),
    }
}

/// Fuzz body for ML-DSA decoding + verification (all three sets).
pub fn mldsa_decode_verify(data: &[u8]) {
    let mut input = Input(data);
    let mode = input.byte();
    let set = ParameterSet::ALL[(mode & 0x0f) as usize % 3];
    if mode & 0x80 != 0 {
        let valid = mldsa_valid(set);
        let (mut pk, mut msg, mut ctx, mut sig) = (
            valid.pk.clone(),
            valid.msg.clone(),
            valid.ctx.clone(),
            valid.sig.clone(),
        );
        mutate(&mut input, [&mut pk, &mut msg, &mut ctx, &mut sig]);
        let unchanged = pk == valid.pk && msg == valid.msg && ctx == valid.ctx && sig == valid.sig;
        let result = mldsa::verify(set, &pk, &msg, &ctx, &sig);
        assert_eq!(
            result.is_ok(),
            unchanged,
            "{}: mutated tuple gave {result:?}",
            set.params().name
        );
        expect_rejection_kind(&result);
        assert_eq!(
            mldsa_peer_verdict(set, &pk, &msg, &ctx, &sig),
            Some(unchanged)
        );
        return;
    }
    let pk_len = length(&mut input, set.public_key_len(), mode & 0x40 != 0);
    let sig_len = length(&mut input, set.signature_len(), mode & 0x20 != 0);
    let ctx = context(&mut input, mode & 0x10 != 0);
    let pk = stretch(input.take(pk_len), pk_len);
    let sig = stretch(input.take(sig_len), sig_len);
    let msg = input.rest();

    let result = mldsa::verify(set, &pk, msg, &ctx, &sig);
    let lengths_ok = pk.len() == set.public_key_len() && sig.len() == set.signature_len();
    expect_length_errors(&result, ctx.len(), lengths_ok);
    if lengths_ok && ctx.len() <= 255 {
        expect_rejection_kind(&result);
        assert_eq!(
            mldsa_peer_verdict(set, &pk, msg, &ctx, &sig),
            Some(result.is_ok()),
            "{}: fips204 disagrees with {result:?}",
            set.params().name
        );
    }
}

// --------------------------------------------------------------- SLH-DSA

fn slhdsa_valid(index: usize) -> &'static ValidTuple {
    static CACHE: [OnceLock<ValidTuple>; 12] = [const { OnceLock::new() }; 12];
    CACHE[index].get_or_init(|| {
        let p = slhdsa::params::ALL[index];
        let seeds: Vec<u8> = (0..3 * p.n as u8).collect();
        let (sk_seed, rest) = seeds.split_at(p.n);
        let (sk_prf, pk_seed) = rest.split_at(p.n);
        let mut sk = vec![0u8; p.sk_bytes()];
        let mut pk = vec![0u8; p.pk_bytes()];
        slhdsa::slh_keygen_internal(p, sk_seed, sk_prf, pk_seed, &mut sk, &mut pk).expect("keygen");
        let msg = b"fuzz: a message signed once".to_vec();
        let ctx = b"fuzz ctx".to_vec();
        let mut sig = vec![0u8; p.sig_bytes()];
        slhdsa::slh_sign(p, &sk, &msg, &ctx, None, &mut sig).expect("sign");
        assert_eq!(slhdsa_peer_verdict(p, &pk, &msg, &ctx, &sig), Some(true));
        ValidTuple { pk, msg, ctx, sig }
    })
}

/// `fips205`'s verdict, or `None` if the lengths do not fit its types.
fn slhdsa_peer_verdict(p: &Params, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Option<bool> {
    use fips205::traits::{SerDes, Verifier};
    macro_rules! peer {
        ($m:ident) => {{
            let pk = fips205::$m::PublicKey::try_from_bytes(pk.try_into().ok()?);
            let sig: &[u8; fips205::$m::SIG_LEN] = sig.try_into().ok()?;
            Some(pk.is_ok_and(|pk| pk.verify(msg, sig, ctx)))
        }};
    }
    match p.name {
        "SLH-DSA-SHA2-128s" => peer!(slh_dsa_sha2_128s),
        "SLH-DSA-SHAKE-128s" => peer!(slh_dsa_shake_128s),
        "SLH-DSA-SHA2-128f" => peer!(slh_dsa_sha2_128f),
        "SLH-DSA-SHAKE-128f" => peer!(slh_dsa_shake_128f),
        "SLH-DSA-SHA2-192s" => peer!(slh_dsa_sha2_192s),
        "SLH-DSA-SHAKE-192s" => peer!(slh_dsa_shake_192s),
        "SLH-DSA-SHA2-192f" => peer!(slh_dsa_sha2_192f),
        "SLH-DSA-SHAKE-192f" => peer!(slh_dsa_shake_192f),
        "SLH-DSA-SHA2-256s" => peer!(slh_dsa_sha2_256s),
        "SLH-DSA-SHAKE-256s" => peer!(slh_dsa_shake_256s),
        "SLH-DSA-SHA2-256f" => peer!(slh_dsa_sha2_256f),
        "SLH-DSA-SHAKE-256f" => peer!(slh_dsa_shake_256f),
        other => panic!("unknown parameter set {other}"),
    }
}

/// Fuzz body for SLH-DSA decoding + verification (all twelve sets).
pub fn slhdsa_decode_verify(data: &[u8]) {
    let mut input = Input(data);
    let selector = input.byte();
    let mode = input.byte();
    let index = selector as usize % slhdsa::params::ALL.len();
    let p = slhdsa::params::ALL[index];
    if mode & 0x80 != 0 {
        let valid = slhdsa_valid(index);
        let (mut pk, mut msg, mut ctx, mut sig) = (
            valid.pk.clone(),
            valid.msg.clone(),
            valid.ctx.clone(),
            valid.sig.clone(),
        );
        mutate(&mut input, [&mut pk, &mut msg, &mut ctx, &mut sig]);
        let unchanged = pk == valid.pk && msg == valid.msg && ctx == valid.ctx && sig == valid.sig;
        let result = slhdsa::slh_verify(p, &pk, &msg, &ctx, &sig);
        assert_eq!(
            result.is_ok(),
            unchanged,
            "{}: mutated tuple gave {result:?}",
            p.name
        );
        expect_rejection_kind(&result);
        assert_eq!(
            slhdsa_peer_verdict(p, &pk, &msg, &ctx, &sig),
            Some(unchanged)
        );
        return;
    }
    let pk_len = length(&mut input, p.pk_bytes(), mode & 0x40 != 0);
    let sig_len = length(&mut input, p.sig_bytes(), mode & 0x20 != 0);
    let ctx = context(&mut input, mode & 0x10 != 0);
    let pk = stretch(input.take(pk_len), pk_len);
    let sig = stretch(input.take(sig_len), sig_len);
    let msg = input.rest();

    let result = slhdsa::slh_verify(p, &pk, msg, &ctx, &sig);
    let lengths_ok = pk.len() == p.pk_bytes() && sig.len() == p.sig_bytes();
    expect_length_errors(&result, ctx.len(), lengths_ok);
    if lengths_ok && ctx.len() <= 255 {
        expect_rejection_kind(&result);
        assert_eq!(
            slhdsa_peer_verdict(p, &pk, msg, &ctx, &sig),
            Some(result.is_ok()),
            "{}: fips205 disagrees with {result:?}",
            p.name
        );
    }
}
