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
}

/// An [`AxiDmaModel`] with a fault from transfer number `from` (counting
/// LENGTH writes of both channels from 0) on.
pub struct FaultyDma {
    inner: AxiDmaModel,
    fault: Option<(DmaFault, u64)>,
    transfers: u64,
    reset_stuck: bool,
}

impl FaultyDma {
    /// `inner` with no fault yet.
    pub fn new(inner: AxiDmaModel) -> Self {
        FaultyDma {
            inner,
            fault: None,
            transfers: 0,
            reset_stuck: false,
        }
    }

    /// Injects `fault` from transfer number `from` on.
    pub fn inject(&mut self, fault: DmaFault, from: u64) {
        self.fault = Some((fault, from));
    }

    /// Sets or clears the fault from now on (for owners that decide when a
    /// fault starts by something else than the transfer count).
    pub fn set_now(&mut self, fault: Option<DmaFault>) {
        self.fault = fault.map(|f| (f, self.transfers));
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
        self.inner.advance(cycles, endpoint)
    }

    fn model(&self) -> &AxiDmaModel {
        &self.inner
    }
}
