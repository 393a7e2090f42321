//! Building blocks of the SLH-DSA engine (FIPS 205): jobs that keep a whole
//! unit of SLH-DSA in the PL around the Keccak sponge engine.
//!
//! - [`WotsLeafEngine`] ([`wots_leaf`](mod@wots_leaf)): one XMSS leaf, the
//!   WOTS+ public key of a key pair (FIPS 205 Algorithm 6) for the SHAKE
//!   sets: every secret value by PRF, every chain to its end and the T_len
//!   compression, with no bus in between; and one Merkle node (H) on the
//!   same sponge.
//! - [`XmssTreeEngine`] ([`xmss_tree`](mod@xmss_tree)): one whole XMSS
//!   tree on the leaf job: every leaf, the Merkle tree, the authentication
//!   path of one leaf and the root (FIPS 205 Algorithms 9 and 10 without
//!   the WOTS+ signature), streamed out as AUTH ‖ root.
//!
//! # Measured figures
//!
//! Clock counts are asserted by the tests (`cargo test -p hdl --release
//! slhdsa`); resources from `cargo run -p hdl --release -- report --design
//! NAME` (`bitstream/reports/resources.md`) and cell delay from
//! `cargo run -p hdl --release -- timing --design NAME`
//! (`bitstream/reports/timing.md`, budget 4.5 ns, asserted by
//! `slhdsa_blocks_meet_the_cell_delay_budget`).
//!
//! | figure | `slh_wots_leaf` | `slh_xmss_tree` |
//! |---|---:|---:|
//! | clocks, n = 16 / 24 / 32 | a leaf: 15,856 / 23,878 / 32,396 | see below |
//! | clocks a node, n = 16 / 24 / 32 | 53 / 61 / 69 | |
//! | LUT / LUTRAM / FF / BRAM18 / DSP | 8,430 / 0 / 3,777 / 2 / 0 | 8,669 / 32 / 3,857 / 3 / 0 |
//! | sta cell delay (ns), worst path | 3.98 | 3.91 |
//!
//! Tree job clocks (`xmss_tree::tree_clocks`, asserted): 127,280 for the
//! top tree of SLH-DSA-SHAKE-128f (n = 16, h′ = 3, which is the whole of
//! key generation: 1.27 ms at 100 MHz; SLotH needs 202,180 cycles), 191,534
//! for 192f (n = 24, h′ = 3), 519,564 for 256f (n = 32, h′ = 4) and
//! 8,148,464 for a tree of 128s (h′ = 9).
//!
//! The sponge engine alone (`keccak_r1`) is 7,899 LUT / 2,237 FF: the leaf
//! job adds about 1,500 flip-flops (the seeds, the address, sk_i, the two
//! children and the counters), two block RAMs and about 500 LUTs (mostly
//! the message word select); the tree job adds its level and
//! authentication memories and about 250 LUTs. The worst paths start at
//! the chain-end memory's output (2.55 ns of RAMB18E1 clock-to-out) and go
//! through the message word select into the sponge's registers.
//!
//! The 15 F calls of each chain are 83 % of a leaf and leaves are 99.7 % of
//! a tree: the one sponge is the limit, and parallel sponge cores are what
//! will divide it.

#[cfg(test)]
mod job_bench;
pub mod wots_leaf;
#[cfg(test)]
mod wots_leaf_tests;
pub mod xmss_tree;
#[cfg(test)]
mod xmss_tree_tests;

pub use self::wots_leaf::WotsLeafEngine;
pub use self::xmss_tree::XmssTreeEngine;

use crate::export::{raw_verilog, Design};

/// The SLH-DSA designs of the `hdl` tool's export/report registry.
pub fn designs() -> Vec<Design> {
    vec![Design {
        name: "slh_wots_leaf",
        description: "SLH-DSA-SHAKE XMSS leaf (WOTS+ public key) and Merkle node jobs on a 1-round sponge engine",
        verilog: || raw_verilog(WotsLeafEngine::<1>::default()),
        vcd: None,
    },
    Design {
        name: "slh_xmss_tree",
        description: "SLH-DSA-SHAKE XMSS tree job (leaves, Merkle tree, AUTH and root) on the leaf job",
        verilog: || raw_verilog(XmssTreeEngine::<1>::default()),
        vcd: None,
    }]
}
