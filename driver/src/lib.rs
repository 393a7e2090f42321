//! Low layers of the Zynq-7000 PL accelerator driver: register access,
//! cache maintenance, bounded polling, the AXI DMA (PG021) simple-mode
//! driver and the PL probe. Every PL address, register offset and DMA
//! setting used here comes from the PS–PL contract, [`ps_pl_contract`].
//!
//! Everything except [`mmio`] is safe code written against two small traits,
//! [`bus::RegisterBus`] and [`cache::CacheMaintenance`], so the protocol
//! logic (DMA sequencing, PL310 maintenance, probing) runs in host unit tests
//! against simulated devices. [`mmio`] is the one module with `unsafe`: the
//! volatile register window and the CP15 L1 cache operations.
//!
//! [`accel`] puts the `pqc` backend traits on the PL: [`accel::HwRing`] on
//! the NTT core and [`accel::HwKeccak`] on the sponge engine, each falling
//! back to software on any fault.
//!
//! `host` (tests, and the `host-model` feature) holds the one host model of
//! the AXI DMA, the DDR and the caches that every test of the workspace uses.
#![cfg_attr(not(any(test, feature = "host-model")), no_std)]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod accel;
pub mod bus;
pub mod cache;
pub mod dma;
#[cfg(any(test, feature = "host-model"))]
pub mod host;
#[allow(unsafe_code)]
pub mod mmio;
pub mod pl310;
pub mod poll;
pub mod probe;
