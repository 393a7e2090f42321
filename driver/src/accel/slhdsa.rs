//! [`HwSlhDsa`]: SLH-DSA after the message hashes on the PL's SLH-DSA
//! engine (`ps_pl_contract::regmap::slhdsa`): PK.root, SIG_FORS ‖ SIG_HT of
//! a digest, and the verification of one. It implements `pqc`'s
//! [`SlhDsaOperations`], so `pqc::slhdsa::slh_sign_on` and the other
//! `*_on` functions run on it; the CPU computes R = PRF_msg and the digest
//! H_msg (one SHAKE call each) and nothing else.
//!
//! # What crosses the bus
//!
//! One stream in (the contract's header: the seeds and PK.root each padded
//! to 32 bytes, md padded to 40, idx_tree and idx_leaf; for verification
//! the signature without R after it) and one out (PK.root; or SIG_FORS ‖
//! SIG_HT and the verdict word; or the verdict word).
//!
//! # Results
//!
//! - A signature is taken only with the engine's VALID verdict (its top
//!   root is PK.root: the seeds and the top tree are right); INVALID, any
//!   other word, a short stream or an error is a failed job, and the call
//!   is computed in software.
//! - A VALID verification stands; an INVALID one is confirmed in software,
//!   and a signature the software accepts is recorded as a fault (the
//!   engine can never turn a valid signature into a rejected one).
//! - A set the engine's `CONFIG` does not offer
//!   (`regmap::slhdsa::set_arg`: the SHAKE sets need its sponge, the
//!   SHA2 sets `CONFIG_SHA2`), an
//!   operation it was built without, and streams longer than the DMA
//!   buffers run in software.

use super::{AccelError, AccelStats, Control, DmaPort, Engine};
use crate::bus::RegisterBus;
use crate::cache::CacheMaintenance;
use crate::dma::AddressMap;
use pqc::keccak::SoftKeccak;
use pqc::slhdsa::{MessageDigest, OnBackend, Params, SlhDsaOperations};
use ps_pl_contract::regmap::slhdsa as op;

/// Bytes of each n-byte value in the header.
const VALUE_BYTES: usize = 4 * op::VALUE_WORDS;

/// Writes the header fields into `src` from byte `at`: `values` each
/// padded to 32 bytes, then (with a digest) md padded to 40 bytes,
/// idx_tree (low word first) and idx_leaf. Returns the end.
fn put_header(src: &mut [u8], values: &[&[u8]], digest: Option<&MessageDigest>) -> usize {
    let mut at = 0;
    for v in values {
        src[at..at + v.len()].copy_from_slice(v);
        src[at + v.len()..at + VALUE_BYTES].fill(0);
        at += VALUE_BYTES;
    }
    if let Some(d) = digest {
        let md_bytes = 4 * op::MD_WORDS;
        src[at..at + d.md().len()].copy_from_slice(d.md());
        src[at + d.md().len()..at + md_bytes].fill(0);
        at += md_bytes;
        src[at..at + 8].copy_from_slice(&d.idx_tree.to_le_bytes());
        src[at + 8..at + 12].copy_from_slice(&d.idx_leaf.to_le_bytes());
        at += 12;
    }
    at
}

/// The verdict in the word at `out[at..at + 4]`.
fn verdict(out: &[u8], at: usize) -> Result<bool, AccelError> {
    match u32::from_le_bytes([out[at], out[at + 1], out[at + 2], out[at + 3]]) {
        op::VERDICT_VALID => Ok(true),
        op::VERDICT_INVALID => Ok(false),
        value => Err(AccelError::BadVerdict { value }),
    }
}

/// SLH-DSA on the PL engine, with the guarantees of the other backends
/// (see the [module docs](super)): every wait bounded; a failed job is
/// aborted, the DMA reset, and the call computed in software; outputs are
/// written only after a job ended with DONE and no error.
pub struct HwSlhDsa<'a, B, D, C, M> {
    engine: Engine<'a, B, D, C, M>,
}

impl<'a, B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>
    HwSlhDsa<'a, B, D, C, M>
{
    /// A backend over the engine's control block and its DMA port. Touches
    /// no register: ID and version are checked on first use.
    pub fn new(ctrl: Control<B>, port: DmaPort<'a, D, C, M>) -> Self {
        HwSlhDsa {
            engine: Engine::new(ctrl, port, op::ID, op::OP_ABORT),
        }
    }

    /// The first fault seen (the hardware may have recovered from it).
    pub fn fault(&self) -> Option<AccelError> {
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

    /// Whether the engine runs `p` (identifying it on first use): its
    /// `CONFIG` offers the set (`regmap::slhdsa::set_arg`).
    pub fn offers(&mut self, p: &Params) -> bool {
        self.set_arg(p, 0).is_some()
    }

    /// `ARG0` of `p` if the engine is in use, its `CONFIG` has every bit
    /// of `operations` and offers the set (identifying it on first use).
    fn set_arg(&mut self, p: &Params, operations: u32) -> Option<u32> {
        if !self.engine.supports(operations) {
            return None;
        }
        op::set_arg(p.name, self.engine.config)
    }

    /// The set's `ARG0` if a job of `p` needing the `CONFIG` bit
    /// `operation`, with `src` bytes in and `dst` bytes out, can run on
    /// the engine; counts the call as software if not.
    fn fits(&mut self, p: &Params, operation: u32, src: usize, dst: usize) -> Option<u32> {
        let code = self.set_arg(p, operation);
        if code.is_none()
            || src > self.engine.port.source_capacity()
            || dst > self.engine.port.destination_capacity()
        {
            self.engine.software();
            return None;
        }
        code
    }
}

impl<B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap> SlhDsaOperations
    for HwSlhDsa<'_, B, D, C, M>
{
    fn pk_root(&mut self, p: &Params, sk_seed: &[u8], pk_seed: &[u8], root: &mut [u8]) {
        let n = p.n;
        let src = 4 * op::KEYGEN_INPUT_WORDS;
        let done = self.fits(p, op::CONFIG_KEYGEN, src, n).and_then(|set| {
            self.engine.run(|ctrl, port| {
                let len = put_header(port.source(), &[sk_seed, pk_seed], None);
                ctrl.start(op::OP_KEYGEN, [set, 0, 0]);
                port.transfer(len, n)?;
                ctrl.wait(op::OP_KEYGEN)?;
                Ok(())
            })
        });
        match done {
            Some(()) => root.copy_from_slice(&self.engine.port.dst[..n]),
            None => OnBackend(&mut SoftKeccak).pk_root(p, sk_seed, pk_seed, root),
        }
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
        let src = 4 * op::SIGN_INPUT_WORDS;
        let out_len = body.len() + 4;
        let done = self.fits(p, op::CONFIG_SIGN, src, out_len).and_then(|set| {
            self.engine.run(|ctrl, port| {
                let values = [sk_seed, pk_seed, pk_root];
                let len = put_header(port.source(), &values, Some(digest));
                ctrl.start(op::OP_SIGN, [set, 0, 0]);
                let out = port.transfer(len, out_len)?;
                // INVALID: a wrong seed or a fault in the top tree.
                if !verdict(out, out_len - 4)? {
                    return Err(AccelError::BadVerdict {
                        value: op::VERDICT_INVALID,
                    });
                }
                ctrl.wait(op::OP_SIGN)?;
                Ok(())
            })
        });
        match done {
            Some(()) => body.copy_from_slice(&self.engine.port.dst[..body.len()]),
            None => {
                OnBackend(&mut SoftKeccak).sign_digest(p, sk_seed, pk_seed, pk_root, digest, body)
            }
        }
    }

    fn verify_digest(
        &mut self,
        p: &Params,
        pk_seed: &[u8],
        pk_root: &[u8],
        digest: &MessageDigest,
        body: &[u8],
    ) -> bool {
        let header = 4 * op::VERIFY_HEADER_WORDS;
        let accepted = self
            .fits(p, op::CONFIG_VERIFY, header + body.len(), 4)
            .and_then(|set| {
                self.engine.run(|ctrl, port| {
                    let at = put_header(port.source(), &[pk_seed, pk_root], Some(digest));
                    port.source()[at..at + body.len()].copy_from_slice(body);
                    ctrl.start(op::OP_VERIFY, [set, 0, 0]);
                    let out = port.transfer(at + body.len(), 4)?;
                    let valid = verdict(out, 0)?;
                    ctrl.wait(op::OP_VERIFY)?;
                    Ok(valid)
                })
            });
        if accepted == Some(true) {
            return true;
        }
        let valid = OnBackend(&mut SoftKeccak).verify_digest(p, pk_seed, pk_root, digest, body);
        if accepted == Some(false) && valid {
            self.engine.fault.get_or_insert(AccelError::BadVerdict {
                value: op::VERDICT_INVALID,
            });
        }
        valid
    }
}
