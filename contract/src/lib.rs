//! The PS–PL contract of the pqc-zynq design: every fact that the
//! firmware (`driver`, `ps-app`), the hardware (`hdl`, the generated Vivado
//! script) and the host models (`sim`) must agree on, defined once.
//!
//! | fact | where |
//! |---|---|
//! | PL block addresses on M_AXI_GP0, control-block registers, op codes | [`regmap`] |
//! | AXI DMA (PG021) registers, typed values, length width, stream width, buffer sizes | [`dma`] |
//! | FCLK0 | [`clock`] |
//! | elaboration parameters of the cores (NTT lanes and slots, Keccak rounds per clock) | [`cores`] |
//! | PS addresses the firmware and the probe use (SLCR, DEVCFG, PL310, UART1, timer, SCU) | [`ps`] |
//! | the conservative bus-timing model of the co-simulation and the report | [`bus_model`] |
//!
//! `no_std`, no dependencies, no code that runs on either side beyond
//! `const` helpers: a consumer that disagrees with a fact here fails to
//! build or fails its contract test.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bus_model;
pub mod clock;
pub mod cores;
pub mod dma;
pub mod ps;
pub mod regmap;
pub mod typed;
