//! The ML-DSA NTT/INTT butterfly core (q = 8380417).
//!
//! - [`arith`]: DSP48E1 23×23 product and shift-add reduction mod q.
//! - [`butterfly`]: unified pipelined CT/GS butterfly (one multiplier).
//! - [`schedule`]: constant-geometry schedule, bank layout, twiddle ROMs.
//! - [`core`]: the core (`B` = 1, 2, 4 lanes) with its ports and cycle
//!   formulas; [`harness`] drives it in simulation; [`crosscheck`] runs the
//!   exported RTL under Verilator and writes VCDs.
//!
//! Cycle counts (busy cycles, asserted by the tests): NTT/INTT
//! `1024/B + 11` (1035, 523, 267), PWM/PWMAC `256/B + 11` (267, 139, 75);
//! the 11 are the issue-to-write pipeline (RAM read, registered crossbar,
//! butterfly stage 1, the 4-stage DSP48E1 product, 3 reduction stages, the
//! last butterfly stage). Timing estimate: `bitstream/reports/timing.md`
//! (`cargo run -p hdl --release -- timing --out bitstream/reports`).
//! Resources: `bitstream/reports/resources.md`
//! (`cargo run -p hdl --release -- report --out bitstream/reports`).
//! Waveform: `cargo run -p hdl --release -- vcd --design ntt_b4 --out ntt_b4.vcd`.

pub mod arith;
pub mod butterfly;
pub mod core;
pub mod crosscheck;
pub mod harness;
pub mod schedule;
#[doc(hidden)]
pub mod sim;
#[cfg(test)]
mod tests;

use crate::export::{raw_verilog, Design};

/// The NTT designs of the export/report/VCD registry.
pub fn designs() -> Vec<Design> {
    vec![
        Design {
            name: "ntt_modmul",
            description: "pipelined multiplier mod q (DSP48E1 product, shift-add reduction)",
            verilog: || raw_verilog(arith::ModMul::default()),
            vcd: None,
        },
        Design {
            name: "ntt_butterfly",
            description: "unified CT/GS butterfly (one modular multiplier)",
            verilog: || raw_verilog(butterfly::Butterfly::default()),
            vcd: None,
        },
        Design {
            name: "ntt_b1",
            description: "NTT core, B = 1 butterfly per cycle",
            verilog: || raw_verilog(core::NttCoreB1::new()),
            vcd: Some(crosscheck::write_ntt_vcd::<1, 2, 7, 9>),
        },
        Design {
            name: "ntt_b2",
            description: "NTT core, B = 2 butterflies per cycle",
            verilog: || raw_verilog(core::NttCoreB2::new()),
            vcd: Some(crosscheck::write_ntt_vcd::<2, 4, 6, 8>),
        },
        Design {
            name: "ntt_b4",
            description: "NTT core, B = 4 butterflies per cycle",
            verilog: || raw_verilog(core::NttCoreB4::new()),
            vcd: Some(crosscheck::write_ntt_vcd::<4, 8, 5, 8>),
        },
    ]
}
