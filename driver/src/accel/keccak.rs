//! [`HwKeccak`]: `pqc::keccak::KeccakBackend` on the Keccak/sponge engine.

use super::{AccelStats, Control, DmaPort, Engine, WotsChainOffload};
use crate::bus::RegisterBus;
use crate::cache::CacheMaintenance;
use crate::dma::AddressMap;
use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use ps_pl_contract::regmap::keccak as op;

/// The engine's mode code (`ARG0` of `OP_SPONGE`).
fn mode_code(mode: SpongeMode) -> u32 {
    match mode {
        SpongeMode::Shake128 => op::MODE_SHAKE128,
        SpongeMode::Shake256 => op::MODE_SHAKE256,
        SpongeMode::Sha3_256 => op::MODE_SHA3_256,
        SpongeMode::Sha3_512 => op::MODE_SHA3_512,
    }
}

/// Keccak work on the PL sponge engine (see the [module docs](super)).
///
/// - [`KeccakBackend::sponge`] is one `OP_SPONGE` job: the message parts
///   are copied into the DMA source buffer as one stream and the whole
///   output comes back in one stream. A sponge cannot be split into
///   several jobs (the engine keeps no state between jobs), so a request
///   whose message or output does not fit the DMA buffers or the DMA
///   length register runs in software ([`SoftKeccak`]), as does an empty
///   output (the engine refuses a zero output length).
/// - A WOTS+ chain ([`super::WotsChainOffload::wots_chain`]) is one
///   `OP_WOTS_CHAIN` job; [`super::SlhOnPl`] makes it the chain of the
///   SLH-DSA hash engine, so WOTS+ keys and signatures run their chains
///   on the PL.
/// - [`KeccakBackend::permute`] runs in software: the engine has no bare
///   permutation, and a bus round trip (two DMA transfers, ~20 register
///   accesses of 100–200 ns each) costs more than one software
///   Keccak-f\[1600\] on the Cortex-A9. The short tweakable hashes that the
///   `pqc` defaults build from single permutations (F, H, PRF) stay in
///   software for the same reason; longer ones (T_len) go through `sponge`.
pub struct HwKeccak<'a, B, D, C, M> {
    engine: Engine<'a, B, D, C, M>,
}

impl<'a, B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>
    HwKeccak<'a, B, D, C, M>
{
    /// A backend over the Keccak engine's control block and its DMA port.
    /// Touches no register: ID and version are checked on first use.
    pub fn new(ctrl: Control<B>, port: DmaPort<'a, D, C, M>) -> Self {
        HwKeccak {
            engine: Engine::new(ctrl, port, op::ID, op::OP_ABORT),
        }
    }

    /// The first fault seen (the hardware may have recovered from it).
    pub fn fault(&self) -> Option<super::AccelError> {
        self.engine.fault
    }

    /// Whether the core was given up (wrong ID or version, a core or DMA
    /// that did not recover, or repeated failures): every call then runs
    /// in software.
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

    /// Whether a stream of `src` bytes in and `dst` bytes out fits the port.
    fn fits(&self, src: usize, dst: usize) -> bool {
        src <= self.engine.port.source_capacity() && dst <= self.engine.port.destination_capacity()
    }
}

impl<B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap> KeccakBackend
    for HwKeccak<'_, B, D, C, M>
{
    fn permute(&mut self, state: &mut [u64; 25]) {
        SoftKeccak.permute(state)
    }

    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let (src_len, dst_len) = (len.next_multiple_of(4), out.len().next_multiple_of(4));
        let args = match (u32::try_from(len), u32::try_from(out.len())) {
            (Ok(l), Ok(o)) if o > 0 && self.fits(src_len, dst_len) => [mode_code(mode), l, o],
            _ => {
                self.engine.software();
                return SoftKeccak.sponge(mode, parts, out);
            }
        };
        let done = self.engine.run(|ctrl, port| {
            let src = port.source();
            let mut at = 0;
            for part in parts {
                src[at..at + part.len()].copy_from_slice(part);
                at += part.len();
            }
            src[at..src_len].fill(0);
            ctrl.start(op::OP_SPONGE, args);
            if len == 0 {
                port.receive(dst_len)?;
            } else {
                port.transfer(src_len, dst_len)?;
            }
            // `out` is written only after DONE without STATUS_ERROR.
            ctrl.wait(op::OP_SPONGE)?;
            Ok(())
        });
        match done {
            Some(()) => out.copy_from_slice(&self.engine.port.dst[..out.len()]),
            None => SoftKeccak.sponge(mode, parts, out),
        }
    }
}

impl<B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap> WotsChainOffload
    for HwKeccak<'_, B, D, C, M>
{
    fn wots_chain(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        x: &[u8],
        start: u32,
        steps: u32,
        out: &mut [u8],
    ) {
        let n = pk_seed.len();
        let well_formed = matches!(n, 16 | 24 | 32)
            && x.len() == n
            && out.len() == n
            && start.checked_add(steps).is_some();
        if !well_formed || !self.fits(2 * n + 32, n) {
            // Software panics on malformed requests, as it would without the PL.
            self.engine.software();
            return SoftKeccak.wots_chain(pk_seed, adrs, x, start, steps, out);
        }
        if steps == 0 {
            return out.copy_from_slice(x);
        }
        let done = self.engine.run(|ctrl, port| {
            let src = port.source();
            src[..n].copy_from_slice(pk_seed);
            src[n..n + 32].copy_from_slice(adrs);
            src[n + 32..2 * n + 32].copy_from_slice(x);
            ctrl.start(op::OP_WOTS_CHAIN, [n as u32, start, steps]);
            port.transfer(2 * n + 32, n)?;
            ctrl.wait(op::OP_WOTS_CHAIN)?;
            Ok(())
        });
        match done {
            Some(()) => out.copy_from_slice(&self.engine.port.dst[..n]),
            None => SoftKeccak.wots_chain(pk_seed, adrs, x, start, steps, out),
        }
    }
}
