//! Low layers of the Zynq-7000 PL accelerator driver: register access,
//! cache maintenance, bounded polling, the AXI DMA (PG021) simple-mode
//! driver and the PL probe. [`regmap`] is the register map shared with the
//! HDL: every PL address and register offset used here comes from it.
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
#![cfg_attr(not(test), no_std)]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod accel;
pub mod bus;
pub mod cache;
pub mod dma;
#[allow(unsafe_code)]
pub mod mmio;
pub mod pl310;
pub mod poll;
pub mod probe;
pub mod regmap;
