//! Firmware driver for the PL accelerators of the Zynq-7000 design.
//!
//! [`regmap`] is the register map shared with the HDL.
#![no_std]

pub mod regmap;
