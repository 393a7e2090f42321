//! Fault injection around the DMA model: the engine misbehaves from a
//! chosen transfer on, the rest of PG021 stays as modelled.

use super::axi_dma::{AxiDmaModel, DmaDevice, StreamEndpoint};
use crate::dma::Channel;
use ps_pl_contract::dma::{offset as o, Dmacr, Dmasr};

/// How the engine misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DmaFault {
    /// A LENGTH write to this channel (`None`: to either) makes it report
    /// DMASlvErr instead of transferring.
    SlaveError(Option<Channel>),
    /// LENGTH writes start nothing: the transfer never completes.
    NeverCompletes,
    /// As `NeverCompletes`, and a soft reset never finishes (DMACR.Reset
    /// stays set).
    StuckReset,
    /// `cycles` PL cycles after the fault becomes active, the channel stops
    /// with DMASlvErr if a transfer is in flight on it then (PG021: an
    /// error response in the middle of a transfer halts the channel). It
    /// fires once; transfers go on normally before and after. This puts
    /// a DMA error in the middle of a long PL job, e.g. several attempts
    /// into an engine signature with its S2MM buffer armed.
    SlaveErrorAfter(Channel, u64),
}

/// An [`AxiDmaModel`] with a fault from transfer number `from` (counting
/// LENGTH writes of both channels from 0) on.
pub struct FaultyDma {
    inner: AxiDmaModel,
    fault: Option<(DmaFault, u64)>,
    transfers: u64,
    reset_stuck: bool,
    /// PL cycles since a [`DmaFault::SlaveErrorAfter`] became active.
    active_cycles: u64,
}

impl FaultyDma {
    /// `inner` with no fault yet.
    pub fn new(inner: AxiDmaModel) -> Self {
        FaultyDma {
            inner,
            fault: None,
            transfers: 0,
            reset_stuck: false,
            active_cycles: 0,
        }
    }

    /// Injects `fault` from transfer number `from` on.
    pub fn inject(&mut self, fault: DmaFault, from: u64) {
        self.fault = Some((fault, from));
        self.active_cycles = 0;
    }

    /// Sets or clears the fault from now on (for owners that decide when a
    /// fault starts by something else than the transfer count).
    pub fn set_now(&mut self, fault: Option<DmaFault>) {
        self.fault = fault.map(|f| (f, self.transfers));
        self.active_cycles = 0;
    }

    /// Whether `channel` has a transfer in flight (neither idle nor halted).
    fn busy(&mut self, channel: Channel) -> bool {
        let status = match channel {
            Channel::Mm2s => o::MM2S_DMASR,
            Channel::S2mm => o::S2MM_DMASR,
        };
        let sr = Dmasr(self.inner.read(status));
        !sr.intersects(Dmasr::IDLE | Dmasr::HALTED)
    }

    /// Cycles left before a [`DmaFault::SlaveErrorAfter`] fires.
    fn timed_fault_left(&self) -> Option<u64> {
        match self.active() {
            Some(DmaFault::SlaveErrorAfter(_, after)) => {
                Some(after.saturating_sub(self.active_cycles))
            }
            _ => None,
        }
    }

    fn active(&self) -> Option<DmaFault> {
        match self.fault {
            Some((f, from)) if self.transfers > from => Some(f),
            _ => None,
        }
    }
}

impl DmaDevice for FaultyDma {
    fn read(&mut self, offset: usize) -> u32 {
        let value = self.inner.read(offset);
        match offset {
            o::MM2S_DMACR | o::S2MM_DMACR if self.reset_stuck => value | Dmacr::RESET.bits(),
            _ => value,
        }
    }

    fn write(&mut self, offset: usize, value: u32, endpoint: &mut dyn StreamEndpoint) {
        let channel = match offset {
            o::MM2S_LENGTH => Some(Channel::Mm2s),
            o::S2MM_LENGTH => Some(Channel::S2mm),
            _ => None,
        };
        if channel.is_some() {
            self.transfers += 1;
        }
        let reset =
            matches!(offset, o::MM2S_DMACR | o::S2MM_DMACR) && Dmacr(value).contains(Dmacr::RESET);
        match (self.active(), channel) {
            (Some(DmaFault::SlaveError(on)), Some(ch)) if on.is_none_or(|on| on == ch) => {
                self.inner.fail(ch, Dmasr::DMA_SLV_ERR)
            }
            (Some(DmaFault::NeverCompletes | DmaFault::StuckReset), Some(_)) => {}
            (Some(DmaFault::StuckReset), None) if reset => self.reset_stuck = true,
            _ => self.inner.write(offset, value, endpoint),
        }
    }

    fn service(&mut self, endpoint: &mut dyn StreamEndpoint) {
        self.inner.service(endpoint)
    }

    fn advance(&mut self, cycles: u64, endpoint: &mut dyn StreamEndpoint) {
        self.inner.advance(cycles, endpoint);
        if let Some(DmaFault::SlaveErrorAfter(channel, after)) = self.active() {
            self.active_cycles = self.active_cycles.saturating_add(cycles);
            if self.active_cycles >= after {
                if self.busy(channel) {
                    self.inner.fail(channel, Dmasr::DMA_SLV_ERR);
                }
                self.fault = None;
            }
        }
    }

    fn cycles_to_next_event(&self) -> Option<u64> {
        match (self.inner.cycles_to_next_event(), self.timed_fault_left()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn model(&self) -> &AxiDmaModel {
        &self.inner
    }
}
