//! Building blocks of the SLH-DSA engine (FIPS 205): jobs that keep a whole
//! unit of SLH-DSA in the PL around the Keccak sponge engine.
//!
//! - [`WotsLeafEngine`] ([`wots_leaf`](mod@wots_leaf)): one XMSS leaf, the
//!   WOTS+ public key of a key pair (FIPS 205 Algorithm 6) for the SHAKE
//!   sets: every secret value by PRF, every chain to its end and the T_len
//!   compression, with no bus in between; and one Merkle node (H) on the
//!   same sponge.
//!
//! # Measured figures
//!
//! Clock counts are asserted by the tests (`cargo test -p hdl --release
//! slhdsa`); resources from `cargo run -p hdl --release -- report --design
//! slh_wots_leaf` (`bitstream/reports/resources.md`) and cell delay from
//! `cargo run -p hdl --release -- timing --design slh_wots_leaf`
//! (`bitstream/reports/timing.md`, budget 4.5 ns, asserted by
//! `slhdsa_blocks_meet_the_cell_delay_budget`).
//!
//! | figure | `slh_wots_leaf` |
//! |---|---:|
//! | clocks a leaf, n = 16 / 24 / 32 (`wots_leaf::leaf_clocks`) | 15,856 / 23,878 / 32,396 |
//! | clocks a node, n = 16 / 24 / 32 (`wots_leaf::node_clocks`) | 53 / 61 / 69 |
//! | LUT / FF / BRAM18 / DSP | 8,316 / 3,777 / 2 / 0 |
//! | sta cell delay (ns), worst path | 4.11 |
//!
//! The sponge engine alone (`keccak_r1`) is 7,899 LUT / 2,237 FF: the job
//! adds about 1,500 flip-flops (the seeds, the address, sk_i, the two
//! children and the counters), two block RAMs and about 400 LUTs (mostly
//! the message word select). The worst path starts at the chain-end memory's
//! output (2.55 ns of RAMB18E1 clock-to-out) and goes through the message
//! word select into the sponge's registers.
//!
//! At 100 MHz a leaf of SLH-DSA-SHAKE-128f takes 159 µs, and the 8 leaves
//! of one XMSS tree (h′ = 3) 1.27 ms: this one sponge is the limit, and the
//! parallel sponge cores of the engine to come are what will divide it.

pub mod wots_leaf;
#[cfg(test)]
mod wots_leaf_tests;

pub use self::wots_leaf::WotsLeafEngine;

use crate::export::{raw_verilog, Design};

/// The SLH-DSA designs of the `hdl` tool's export/report registry.
pub fn designs() -> Vec<Design> {
    vec![Design {
        name: "slh_wots_leaf",
        description: "SLH-DSA-SHAKE XMSS leaf (WOTS+ public key) and Merkle node jobs on a 1-round sponge engine",
        verilog: || raw_verilog(WotsLeafEngine::<1>::default()),
        vcd: None,
    }]
}
