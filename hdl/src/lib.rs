//! Accelerator cores for the Zynq-7000 PL, written in rust-hdl.
//!
//! - [`ntt`]: the ML-DSA NTT/INTT butterfly core (q = 8380417).
//! - [`keccak`]: the Keccak-f\[1600\] core and the SHAKE/SHA3 sponge engine.
//! - [`mldsa`]: building blocks of the ML-DSA engine (coefficient units).
//! - [`sha2`](mod@sha2): the SHA-256 and SHA-512 compression cores (SLH-DSA SHA2 sets).
//! - [`slhdsa`]: jobs of the SLH-DSA engine (the XMSS leaf job).
//! - [`axi`]: the PL top levels (AXI4-Lite control, AXI4-Stream data).
//! - [`export`]: Verilog export with per-design module names.
//! - [`verilator`]: runs exported Verilog under Verilator for cross-checks.
//! - [`verilated`]: the PL tops under Verilator in this process, for the
//!   fast co-simulation engine.

pub mod axi;
pub mod export;
pub mod keccak;
pub mod mldsa;
pub mod ntt;
pub mod sha2;
pub mod slhdsa;
pub mod verilated;
pub mod verilator;
