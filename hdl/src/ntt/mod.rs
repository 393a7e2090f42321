//! The ML-DSA NTT/INTT butterfly core (q = 8380417).

pub mod arith;
pub mod butterfly;
pub mod core;
pub mod schedule;
#[doc(hidden)]
pub mod sim;

use crate::export::{raw_verilog, Design};

/// The NTT designs of the export/report/VCD registry.
pub fn designs() -> Vec<Design> {
    vec![Design {
        name: "ntt_modmul",
        description: "pipelined multiplier mod q (DSP48E1 product, shift-add reduction)",
        verilog: || raw_verilog(arith::ModMul::default()),
        vcd: None,
    }]
}
