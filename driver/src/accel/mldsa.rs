//! [`HwMlDsa`]: whole ML-DSA operations on the PL's ML-DSA engine
//! (`ps_pl_contract::regmap::mldsa`). So far the engine runs
//! KeyGen_internal; signing and verification stay with `pqc` on the CPU
//! (with the primitive offload of [`super::HwRing`] / [`super::HwKeccak`]
//! if the caller uses it).

use super::{AccelStats, Control, DmaPort, Engine};
use crate::bus::RegisterBus;
use crate::cache::CacheMaintenance;
use crate::dma::AddressMap;
use pqc::mldsa::ParameterSet;
use ps_pl_contract::regmap::mldsa as op;

/// The engine's code for a parameter set (`ARG0`).
fn set_code(set: ParameterSet) -> u32 {
    match set {
        ParameterSet::MlDsa44 => op::SET_44,
        ParameterSet::MlDsa65 => op::SET_65,
        ParameterSet::MlDsa87 => op::SET_87,
    }
}

/// ML-DSA on the PL engine, with the guarantees of the other backends (see
/// the [module docs](super)): every wait bounded; a failed job is aborted,
/// the DMA reset, and the call computed in software; the keys are written
/// only after a job ended with DONE and no error.
///
/// The CPU sends ξ (32 bytes) and receives pk ‖ sk in one stream; nothing
/// else crosses the bus.
pub struct HwMlDsa<'a, B, D, C, M> {
    engine: Engine<'a, B, D, C, M>,
}

impl<'a, B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>
    HwMlDsa<'a, B, D, C, M>
{
    /// A backend over the engine's control block and its DMA port. Touches
    /// no register: ID and version are checked on first use.
    pub fn new(ctrl: Control<B>, port: DmaPort<'a, D, C, M>) -> Self {
        HwMlDsa {
            engine: Engine::new(ctrl, port, op::ID, op::OP_ABORT),
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
        let out_len = pk_len + sk_len;
        if xi.len() > self.engine.port.source_capacity()
            || out_len > self.engine.port.destination_capacity()
        {
            self.engine.software();
            return pqc::mldsa::keygen_internal(set, xi, pk, sk);
        }
        let done = self.engine.run(|ctrl, port| {
            port.source()[..xi.len()].copy_from_slice(xi);
            ctrl.start(op::OP_KEYGEN, [set_code(set), 0, 0]);
            port.transfer(xi.len(), out_len)?;
            ctrl.wait(op::OP_KEYGEN)?;
            Ok(())
        });
        match done {
            Some(()) => {
                let keys = &self.engine.port.dst[..out_len];
                pk.copy_from_slice(&keys[..pk_len]);
                sk.copy_from_slice(&keys[pk_len..]);
                Ok(())
            }
            None => pqc::mldsa::keygen_internal(set, xi, pk, sk),
        }
    }
}
