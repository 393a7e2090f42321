//! Host models of the hardware around the PL, one of each, shared by every
//! test that needs them: the driver's unit tests, the behavioural PL model
//! of the accelerator tests (fault injection included) and the `sim`
//! co-simulation of the rust-hdl (and Verilator) tops.
//!
//! - [`Ddr`]: the memory the DMA engines reach, regions at bus addresses;
//! - [`CacheModel`]: a write-back data cache in front of it, so a test sees
//!   exactly the bytes a missing clean or invalidate would lose;
//! - [`AxiDmaModel`]: the Xilinx AXI DMA (PG021) in simple mode, register
//!   for register, moving beats between [`Ddr`] and a [`StreamEndpoint`]
//!   (the PL side: a behavioural model, a simulated top);
//! - [`FaultyDma`]: fault injection around it.
//!
//! Built for the driver's own tests and, with the `host-model` feature, for
//! other crates (std only; never in firmware).

mod axi_dma;
mod cache;
mod ddr;
mod fault;
mod trace;

pub use axi_dma::{
    AxiDmaModel, Beat, DmaCounts, DmaDevice, DmaLatency, DmaWithEndpoint, StreamEndpoint,
};
pub use cache::CacheModel;
pub use ddr::{Ddr, SharedDdr, STALE_BYTE};
pub use fault::{DmaFault, FaultyDma};
pub use trace::{HostEvent, Trace};
