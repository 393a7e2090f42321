//! [`HwMlDsa`]: whole ML-DSA operations on the PL's ML-DSA engine
//! (`ps_pl_contract::regmap::mldsa`): KeyGen_internal, Sign_internal and
//! Verify_internal.
//!
//! # Verification: what crosses the bus
//!
//! pk, σ and M′ go to the engine in one stream, which hashes tr and μ
//! itself: the CPU does no Keccak at all. Only an M′ too long for the DMA
//! buffer makes the CPU compute μ (two SHAKE256 calls, over pk and M′) and
//! send it instead. The engine answers with one verdict word; a reject is
//! confirmed in software, which also gives `pqc`'s exact error (a
//! malformed hint field and a failed check are different errors there) and
//! means the engine can never turn a valid signature into a rejected one.
//!
//! # Signing: what crosses the bus
//!
//! sk ‖ rnd ‖ M′ go out in one stream (again μ is computed on the CPU
//! only for an M′ too long for the DMA buffer), σ comes back, and `RESULT`
//! holds the number of attempts the rejection loop made
//! ([`HwMlDsa::last_sign_attempts`]). The engine refuses an sk whose s1 or
//! s2 is out of range (`STATUS_ERROR`, no σ): the driver watches `STATUS`
//! while it waits for σ, so a refusal ends the wait at once, and the call
//! is computed in software. For a key `pqc` refuses too, the refusal was
//! the engine's right answer: the call returns `pqc`'s error and no fault
//! is recorded. A refusal of a key `pqc` signs with is a failed job like
//! any other (recorded, counted towards giving the engine up), and the
//! call returns that software signature. Signing is only issued when the
//! engine's `CONFIG` has `CONFIG_SIGN`.

use super::{AccelStats, Control, DmaPort, Engine};
use crate::bus::RegisterBus;
use crate::cache::CacheMaintenance;
use crate::dma::AddressMap;
use pqc::keccak::SoftKeccak;
use pqc::mldsa::{MPrime, MlDsa, MlDsaOperations, ParameterSet};
use ps_pl_contract::regmap::ctrl::STATUS_ERROR;
use ps_pl_contract::regmap::mldsa as op;

/// The engine's code for a parameter set (`ARG0`).
fn set_code(set: ParameterSet) -> u32 {
    match set {
        ParameterSet::MlDsa44 => op::SET_44,
        ParameterSet::MlDsa65 => op::SET_65,
        ParameterSet::MlDsa87 => op::SET_87,
    }
}

/// Copies `fields` into `src` one after another, each the concatenation
/// of its parts, starting on a whole word and padded with zero bytes (the
/// layout of the engine's input streams); returns the stream's length in
/// bytes. The caller has checked that the stream fits.
fn fill_stream(src: &mut [u8], fields: &[&[&[u8]]]) -> usize {
    let mut at = 0;
    for field in fields {
        for part in *field {
            src[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        let end = at.next_multiple_of(4);
        src[at..end].fill(0);
        at = end;
    }
    at
}

/// Checks the check word that follows `payload_bytes` of output in `out`
/// (`op::output_check` of the payload's little-endian words).
fn check_output(out: &[u8], payload_bytes: usize) -> Result<(), super::AccelError> {
    let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let expected = op::output_check(out[..payload_bytes].chunks_exact(4).map(word));
    let got = word(&out[payload_bytes..payload_bytes + 4]);
    if got == expected {
        Ok(())
    } else {
        Err(super::AccelError::BadCheck { got, expected })
    }
}

/// The length of a field given in parts.
fn field_len(parts: &[&[u8]]) -> usize {
    parts.iter().map(|p| p.len()).sum()
}

/// `pqc`'s software implementation, for the fallbacks.
fn software() -> MlDsa {
    MlDsa::default()
}

/// ML-DSA on the PL engine, with the guarantees of the other backends (see
/// the [module docs](super)): every wait bounded; a failed job is aborted,
/// the DMA reset, and the call computed in software; the keys and
/// signatures are written only after a job ended with DONE and no error.
///
/// KeyGen: the CPU sends ξ (32 bytes) and receives pk ‖ sk in one stream;
/// nothing else crosses the bus. Sign and Verify: see the module docs.
pub struct HwMlDsa<'a, B, D, C, M> {
    engine: Engine<'a, B, D, C, M>,
    /// `RESULT` of the last signature the engine made, if the last
    /// signature was made there.
    last_sign_attempts: Option<u32>,
}

impl<'a, B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>
    HwMlDsa<'a, B, D, C, M>
{
    /// A backend over the engine's control block and its DMA port. Touches
    /// no register: ID and version are checked on first use.
    pub fn new(ctrl: Control<B>, port: DmaPort<'a, D, C, M>) -> Self {
        HwMlDsa {
            engine: Engine::new(ctrl, port, op::ID, op::OP_ABORT),
            last_sign_attempts: None,
        }
    }

    /// The first fault seen (the hardware may have recovered from it).
    pub fn fault(&self) -> Option<super::AccelError> {
        self.engine.fault
    }

    /// Whether the engine was given up: every call then runs in software.
    pub fn abandoned(&self) -> bool {
        self.engine.abandoned()
    }

    /// Job, cycle and DMA counters.
    pub fn stats(&self) -> AccelStats {
        self.engine.stats()
    }

    /// The control-block client (for tests and probing).
    pub fn control(&mut self) -> &mut Control<B> {
        &mut self.engine.ctrl
    }

    /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) of `sig` on M′ under
    /// `pk`: `Ok` exactly when `pqc::mldsa::verify_internal` is, with the
    /// same error otherwise. On the engine when it is there (M′ streamed if
    /// it fits the DMA buffer, else μ computed here); otherwise, or after a
    /// failed job, in software.
    pub fn verify_internal(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &[u8],
        sig: &[u8],
    ) -> pqc::Result<()> {
        self.verify_m_prime(set, pk, &MPrime::raw(m_prime), sig)
    }

    /// [`Self::verify_internal`] on M′ in parts (ML-DSA.Verify and
    /// HashML-DSA.Verify through [`MlDsaOperations`]).
    pub fn verify_m_prime(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &MPrime<'_>,
        sig: &[u8],
    ) -> pqc::Result<()> {
        let software = || software().verify_m_prime(set, pk, m_prime, sig);
        if pk.len() != set.public_key_len() || sig.len() != set.signature_len() {
            // pqc reports the mismatch.
            return software();
        }
        let parts = m_prime.parts();
        let stream = op::verify_stream_words(pk.len(), sig.len(), m_prime.len()) * 4;
        if stream > self.engine.port.source_capacity()
            || m_prime.len() >= op::VERIFY_MAX_MSG_BYTES as usize
        {
            // μ = H(H(pk, 64) ‖ M′, 64), FIPS 204's H.
            let (mut tr, mut mu) = ([0u8; 64], [0u8; 64]);
            pqc::mldsa::sample::h(&mut SoftKeccak, &[pk], &mut tr);
            let [a, b, c, d] = parts;
            pqc::mldsa::sample::h(&mut SoftKeccak, &[&tr, a, b, c, d], &mut mu);
            return self.verify_mu(set, pk, &mu, sig);
        }
        let verdict = self.verify_job(set, pk, sig, &parts, false);
        self.conclude(verdict, software)
    }

    /// Verify_internal with an externally computed μ: as
    /// [`Self::verify_internal`], against `pqc::mldsa::verify_mu`.
    pub fn verify_mu(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        mu: &[u8; 64],
        sig: &[u8],
    ) -> pqc::Result<()> {
        let software = || pqc::mldsa::verify_mu(set, pk, mu, sig);
        if pk.len() != set.public_key_len() || sig.len() != set.signature_len() {
            return software();
        }
        if op::verify_stream_words(pk.len(), sig.len(), mu.len()) * 4
            > self.engine.port.source_capacity()
        {
            self.engine.software();
            return software();
        }
        let verdict = self.verify_job(set, pk, sig, &[mu], true);
        self.conclude(verdict, software)
    }

    /// One `OP_VERIFY` job: pk ‖ σ ‖ `tail` (M′ in parts, or μ when
    /// `external_mu`) in, the verdict word out. `None`: compute in
    /// software.
    fn verify_job(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        sig: &[u8],
        tail: &[&[u8]],
        external_mu: bool,
    ) -> Option<bool> {
        let arg0 = set_code(set)
            | if external_mu {
                op::VERIFY_EXTERNAL_MU
            } else {
                0
            };
        let msg_bytes = if external_mu {
            0
        } else {
            field_len(tail) as u32
        };
        self.engine.run(|ctrl, port| {
            let len = fill_stream(port.source(), &[&[pk], &[sig], tail]);
            ctrl.start(op::OP_VERIFY, [arg0, msg_bytes, 0]);
            let out = port.transfer(len, 4)?;
            let word = u32::from_le_bytes([out[0], out[1], out[2], out[3]]);
            ctrl.wait(op::OP_VERIFY)?;
            match word {
                op::VERDICT_VALID => Ok(true),
                op::VERDICT_INVALID => Ok(false),
                value => Err(super::AccelError::BadVerdict { value }),
            }
        })
    }

    /// The call's result from the engine's verdict: a valid one stands; a
    /// reject (or no verdict) is computed in software, and a reject that
    /// software accepts is recorded as a fault.
    fn conclude(
        &mut self,
        verdict: Option<bool>,
        software: impl FnOnce() -> pqc::Result<()>,
    ) -> pqc::Result<()> {
        if verdict == Some(true) {
            return Ok(());
        }
        let result = software();
        if verdict == Some(false) && result.is_ok() {
            self.engine
                .fault
                .get_or_insert(super::AccelError::BadVerdict {
                    value: op::VERDICT_INVALID,
                });
        }
        result
    }

    /// The attempts the engine's rejection loop made for the last
    /// signature (its `RESULT`); `None` if the last signature was computed
    /// in software, or none was made yet.
    pub fn last_sign_attempts(&self) -> Option<u32> {
        self.last_sign_attempts
    }

    /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) of M′ under `sk` with
    /// `rnd` (all zero for deterministic signing) into `sig`: the
    /// signature of `pqc::mldsa::sign_internal`, or its error (a malformed
    /// sk; a key or signature buffer of the wrong length, and then nothing
    /// runs). On the engine when it is there and runs `OP_SIGN` (M′
    /// streamed if it fits the DMA buffer, else μ computed here);
    /// otherwise, or after a failed job, in software.
    pub fn sign_internal(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &[u8],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> pqc::Result<()> {
        self.sign_m_prime(set, sk, &MPrime::raw(m_prime), rnd, sig)
    }

    /// [`Self::sign_internal`] on M′ in parts (ML-DSA.Sign and
    /// HashML-DSA.Sign through [`MlDsaOperations`]).
    pub fn sign_m_prime(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &MPrime<'_>,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> pqc::Result<()> {
        let software = |sig: &mut [u8]| software().sign_m_prime(set, sk, m_prime, rnd, sig);
        self.last_sign_attempts = None;
        if sk.len() != set.secret_key_len() || sig.len() != set.signature_len() {
            // pqc reports the mismatch.
            return software(sig);
        }
        let parts = m_prime.parts();
        if op::sign_stream_words(sk.len(), m_prime.len()) * 4 > self.engine.port.source_capacity()
            || m_prime.len() >= op::VERIFY_MAX_MSG_BYTES as usize
        {
            // μ = H(tr ‖ M′, 64) with tr = sk[64..128], FIPS 204's H.
            let mut mu = [0u8; 64];
            let [a, b, c, d] = parts;
            pqc::mldsa::sample::h(&mut SoftKeccak, &[&sk[64..128], a, b, c, d], &mut mu);
            return self.sign_mu(set, sk, &mu, rnd, sig);
        }
        self.sign_on_engine(set, sk, rnd, (&parts, false), sig, &software)
    }

    /// Sign_internal with an externally computed μ: as
    /// [`Self::sign_internal`], against `pqc::mldsa::sign_mu`.
    pub fn sign_mu(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> pqc::Result<()> {
        let software = |sig: &mut [u8]| pqc::mldsa::sign_mu(set, sk, mu, rnd, sig);
        self.last_sign_attempts = None;
        if sk.len() != set.secret_key_len() || sig.len() != set.signature_len() {
            return software(sig);
        }
        self.sign_on_engine(set, sk, rnd, (&[mu], true), sig, &software)
    }

    /// One `OP_SIGN` job: sk ‖ rnd ‖ `tail` (M′ in parts, or μ when `external_mu`)
    /// in, σ out into `sig` (only after DONE without error). In software
    /// (`software`) when the engine does not sign, the streams do not fit
    /// the buffers, or the job failed. A refusal is checked in software at
    /// once: a key `pqc` refuses too is the engine's right answer (`pqc`'s
    /// error, no fault); otherwise the job failed.
    fn sign_on_engine(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        rnd: &[u8; 32],
        (tail, external_mu): (&[&[u8]], bool),
        sig: &mut [u8],
        software: &dyn Fn(&mut [u8]) -> pqc::Result<()>,
    ) -> pqc::Result<()> {
        let sig_len = set.signature_len();
        // σ padded to a word, then the check word.
        let padded_len = sig_len.next_multiple_of(4);
        let out_len = padded_len + 4 * op::OUTPUT_CHECK_WORDS;
        if op::sign_stream_words(sk.len(), field_len(tail)) * 4 > self.engine.port.source_capacity()
            || out_len > self.engine.port.destination_capacity()
            || !self.engine.supports(op::CONFIG_SIGN)
        {
            self.engine.software();
            return software(sig);
        }
        let arg0 = set_code(set) | if external_mu { op::SIGN_EXTERNAL_MU } else { 0 };
        let msg_bytes = if external_mu {
            0
        } else {
            field_len(tail) as u32
        };
        // pqc's result of a call the engine refused.
        let mut checked = None;
        let attempts = self.engine.run(|ctrl, port| {
            let len = fill_stream(port.source(), &[&[sk], &[rnd], tail]);
            ctrl.start(op::OP_SIGN, [arg0, msg_bytes, 0]);
            // A refused request sends no σ: stop waiting for it at once.
            let mut refused = None;
            let received = port.transfer_while(len, out_len, || {
                let status = ctrl.status();
                let error = status & STATUS_ERROR != 0;
                if error {
                    refused = Some(status);
                }
                !error
            });
            if let Some(status) = refused {
                let result = software(&mut *sig);
                let confirmed = result.is_err();
                checked = Some(result);
                return if confirmed {
                    Ok(None)
                } else {
                    Err(super::AccelError::Refused {
                        op: op::OP_SIGN,
                        status,
                    })
                };
            }
            let out = received?;
            check_output(out, padded_len)?;
            if out[sig_len..padded_len].iter().any(|&b| b != 0) {
                let last = &out[padded_len - 4..padded_len];
                return Err(super::AccelError::BadPadding {
                    value: u32::from_le_bytes([last[0], last[1], last[2], last[3]]),
                });
            }
            ctrl.wait(op::OP_SIGN)?;
            Ok(Some(ctrl.result()))
        });
        match (attempts, checked) {
            (Some(Some(attempts)), _) => {
                sig.copy_from_slice(&self.engine.port.dst[..sig_len]);
                self.last_sign_attempts = Some(attempts);
                Ok(())
            }
            (_, Some(result)) => result,
            _ => software(sig),
        }
    }

    /// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) of `set` from ξ into
    /// `pk` and `sk`, which must have the set's key lengths (else the same
    /// error as `pqc::mldsa::keygen_internal`, and nothing runs). On the
    /// engine when it is there and the keys fit the DMA buffers; otherwise,
    /// or after a failed job, in software.
    pub fn keygen_internal(
        &mut self,
        set: ParameterSet,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> pqc::Result<()> {
        let (pk_len, sk_len) = (set.public_key_len(), set.secret_key_len());
        if pk.len() != pk_len || sk.len() != sk_len {
            // pqc reports the mismatch.
            return pqc::mldsa::keygen_internal(set, xi, pk, sk);
        }
        // pk ‖ sk (whole words in every set), then the check word.
        let keys_len = pk_len + sk_len;
        let out_len = keys_len + 4 * op::OUTPUT_CHECK_WORDS;
        if xi.len() > self.engine.port.source_capacity()
            || out_len > self.engine.port.destination_capacity()
        {
            self.engine.software();
            return pqc::mldsa::keygen_internal(set, xi, pk, sk);
        }
        let done = self.engine.run(|ctrl, port| {
            port.source()[..xi.len()].copy_from_slice(xi);
            ctrl.start(op::OP_KEYGEN, [set_code(set), 0, 0]);
            let out = port.transfer(xi.len(), out_len)?;
            check_output(out, keys_len)?;
            ctrl.wait(op::OP_KEYGEN)?;
            Ok(())
        });
        match done {
            Some(()) => {
                let keys = &self.engine.port.dst[..keys_len];
                pk.copy_from_slice(&keys[..pk_len]);
                sk.copy_from_slice(&keys[pk_len..]);
                Ok(())
            }
            None => pqc::mldsa::keygen_internal(set, xi, pk, sk),
        }
    }
}

/// The engine as a provider of whole operations: `pqc`'s external
/// functions (ML-DSA.Sign / Verify with a context, HashML-DSA) and the
/// typed keys' `*_on` methods run on it. The CPU formats M′ (for
/// HashML-DSA it also computes PH(M)); the engine gets M′ in its stream
/// and hashes μ itself.
impl<B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap> MlDsaOperations
    for HwMlDsa<'_, B, D, C, M>
{
    fn keygen_internal(
        &mut self,
        set: ParameterSet,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> pqc::Result<()> {
        HwMlDsa::keygen_internal(self, set, xi, pk, sk)
    }

    fn sign_m_prime(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        m_prime: &MPrime<'_>,
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> pqc::Result<()> {
        HwMlDsa::sign_m_prime(self, set, sk, m_prime, rnd, sig)
    }

    fn sign_mu(
        &mut self,
        set: ParameterSet,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
        sig: &mut [u8],
    ) -> pqc::Result<()> {
        HwMlDsa::sign_mu(self, set, sk, mu, rnd, sig)
    }

    fn verify_m_prime(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        m_prime: &MPrime<'_>,
        sig: &[u8],
    ) -> pqc::Result<()> {
        HwMlDsa::verify_m_prime(self, set, pk, m_prime, sig)
    }

    fn verify_mu(
        &mut self,
        set: ParameterSet,
        pk: &[u8],
        mu: &[u8; 64],
        sig: &[u8],
    ) -> pqc::Result<()> {
        HwMlDsa::verify_mu(self, set, pk, mu, sig)
    }
}
