//! The PL top levels: each accelerator core behind an AXI4-Lite control
//! block (`driver::regmap::ctrl`) with AXI4-Stream ports for an AXI DMA.
//!
//! - [`ctrl`]: the AXI4-Lite slave register block shared by both tops.
//! - [`top`]: [`NttAccel`] (NTT core, B = 4) and [`KeccakAccel`] (sponge
//!   engine, 1 round per clock), with Xilinx port names for Vivado's
//!   module reference.
//! - [`bench`]: [`AccelBench`], a clock-by-clock driver of either top
//!   (AXI4-Lite transactions, both streams) for tests and co-simulation.
//! - [`vivado`]: the Vivado build script, generated from `driver::regmap`.

pub mod bench;
pub mod ctrl;
#[cfg(test)]
mod tests;
pub mod top;
#[cfg(test)]
mod verilator_check;
pub mod vivado;

pub use bench::{AccelBench, AccelTop, AxiTimeout, StreamWord, WriteOrder};
pub use top::{KeccakAccel, NttAccel};

use crate::export::{raw_verilog, Design};

/// Module name and file stem of the NTT top (`bitstream/rtl/ntt_accel.v`).
pub const NTT_ACCEL: &str = "ntt_accel";
/// Module name and file stem of the Keccak top (`bitstream/rtl/keccak_accel.v`).
pub const KECCAK_ACCEL: &str = "keccak_accel";

/// The two tops in the export/report registry.
pub fn designs() -> Vec<Design> {
    vec![
        Design {
            name: NTT_ACCEL,
            description: "PL top: NTT core (B = 4) behind AXI4-Lite control, AXI4-Stream data",
            verilog: || raw_verilog(NttAccel::default()),
            vcd: None,
        },
        Design {
            name: KECCAK_ACCEL,
            description:
                "PL top: sponge engine (1 round per clock) behind AXI4-Lite control, AXI4-Stream data",
            verilog: || raw_verilog(KeccakAccel::default()),
            vcd: None,
        },
    ]
}
