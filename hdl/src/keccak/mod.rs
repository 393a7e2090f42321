//! The Keccak-f[1600] core and the SHAKE/SHA3 sponge engine for the PL.
//!
//! - [`round`]: `R` combinational rounds (θ, ρ, π, χ, ι) on 25 × 64-bit lanes.
//! - [`permutation`]: the iterative core, 24/R clocks a permutation.
//! - [`sponge`]: the SHAKE/SHA3 sponge and WOTS+ chain engine (streams, handshake).
//! - [`harness`]: drives requests through the streams (tests, cross-checks).
//! - [`bench`]: a clock-by-clock driver for rust-hdl simulations.

pub mod bench;
pub mod harness;
pub mod permutation;
pub mod round;
pub mod sponge;

pub use permutation::KeccakPermutation;
pub use round::KeccakRounds;
pub use sponge::SpongeEngine;
#[cfg(test)]
mod sponge_tests;
#[cfg(test)]
pub(crate) mod testutil;
#[cfg(test)]
mod verilator_check;

use rust_hdl::prelude::*;

/// Module-name prefix of the engine with `R` rounds per clock in exported
/// Verilog (`keccak_r1`, `keccak_r2`): each design has its own module set.
pub fn design_top_name<const R: usize>() -> String {
    format!("keccak_r{R}")
}

/// Verilog of the sponge engine with `R` rounds per clock; the top module
/// is [`design_top_name`], its sub-modules `<top>$…`.
pub fn sponge_verilog<const R: usize>() -> String {
    let mut uut = SpongeEngine::<R>::default();
    uut.connect_all();
    rename_top(&generate_verilog(&uut), &design_top_name::<R>())
}

/// Renames rust-hdl's fixed `top` / `top$…` module names.
fn rename_top(verilog: &str, name: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    for line in verilog.lines() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let renamed = if let Some(rest) = trimmed.strip_prefix("module top") {
            format!("module {name}{rest}")
        } else if let Some(rest) = trimmed.strip_prefix("top$") {
            // Instantiation of a sub-module.
            format!("{name}${rest}")
        } else {
            trimmed.to_string()
        };
        out.push_str(indent);
        out.push_str(&renamed);
        out.push('\n');
    }
    out
}
