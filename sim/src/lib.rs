//! The `sim` crate: the `pqc-zynq` command's library.
//!
//! - [`report`]: the software-vs-accelerated timing report (ps-app table
//!   parser, time model, markdown and SVG).
//! - [`cosim`]: the PL co-simulation (the tops on Verilator or rust-hdl,
//!   DMA and DDR models) behind the driver's hardware backends.
//! - [`generate`]: `pqc-zynq report`, from inputs to files.
//! - [`progress`]: the progress bar of long simulations.
//! - [`hooked`]: one backend wrapper running a hook around every call.
//! - [`workload`]: the benchmark operations with ps-app's inputs, generic
//!   over the `pqc` backends, and host measurements.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cosim;
pub mod generate;
pub mod hooked;
pub mod mcu_transcript;
pub mod progress;
pub mod report;
pub mod workload;
