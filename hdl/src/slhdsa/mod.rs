//! Building blocks of the SLH-DSA engine (FIPS 205): jobs that keep a whole
//! unit of SLH-DSA in the PL around the Keccak sponge engine.
//!
//! - [`WotsLeafEngine`] ([`wots_leaf`](mod@wots_leaf)): one XMSS leaf, the
//!   WOTS+ public key of a key pair (FIPS 205 Algorithm 6) for the SHAKE
//!   sets: every secret value by PRF, every chain to its end and the T_len
//!   compression, with no bus in between; optionally the WOTS+ signature
//!   of an n-byte message on the way (FIPS 205 Algorithm 7); or the public
//!   key from a signature (Algorithm 8); and one Merkle node (H). With
//!   `fors`: a FORS leaf (Algorithms 14–15, optionally with its secret
//!   value), a FORS node, F of a given secret value, and T_k of the k FORS
//!   roots; all on the same sponge.
//! - [`XmssTreeEngine`] ([`xmss_tree`](mod@xmss_tree)): one whole XMSS
//!   tree on the leaf job: every leaf, the Merkle tree, the authentication
//!   path of one leaf and the root (FIPS 205 Algorithm 9), and optionally
//!   that leaf's WOTS+ signature (Algorithm 10, xmss_sign), streamed out as
//!   [σ_WOTS ‖] AUTH ‖ root; the same for one FORS tree (`fors`); and the
//!   root from a leaf's signature and AUTH (`climb`: Algorithm 11, or one
//!   tree of Algorithm 17).
//! - [`SlhDsaEngine`] ([`engine`](mod@engine)): the whole of SLH-DSA
//!   after the message hashes, on one tree job (so on one leaf job and
//!   one sponge): key generation (the top tree's root, Algorithm 18),
//!   signing (fors_sign with PK_FORS, then ht_sign on it: Algorithms 16
//!   and 12, streamed out as SIG_FORS ‖ SIG_HT) and verification
//!   (fors_pkFromSig and ht_verify, Algorithm 20 after the digest, the
//!   signature streamed in), each ending with the top root and a verdict
//!   (root = PK.root).
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
//! The jobs run on a sponge engine of
//! [`wots_leaf::SPONGE_ROUNDS_PER_CLOCK`] = 2 Keccak rounds a clock (from
//! `ps_pl_contract::cores`): a permutation is 12 clocks. The sponge fuses
//! chain blocks: each PRF or F block after a request's first is loaded on
//! the last round clock of the one before, so a chain request's blocks
//! cost 2 + 12·blocks clocks (`wots_leaf::chain_blocks_clocks`).
//!
//! | figure | clocks, n = 16 / 24 / 32 |
//! |---|---:|
//! | a WOTS+ leaf | 7,384 / 11,088 / 15,008 |
//! | a WOTS+ leaf, signing | 7,804 / 11,904 / 16,348 |
//! | a FORS leaf | 37 / 41 / 45 |
//! | a FORS leaf, signed (secret value out) | 49 / 57 / 65 |
//! | the FORS prefix, once per FORS operation | 23 / 29 / 35 |
//! | a Merkle node | 41 / 49 / 57 |
//!
//! A leaf's WOTS+ chains run on a PK.seed and ADRS kept in the sponge (its
//! PL-internal `OP_WOTS_CHAIN_KEPT`): one full chain of no step per job,
//! then one request per chain that streams X alone and, in key generation
//! and signing, starts with the PRF of SK.seed. FORS leaves do the same on
//! a FORS prefix kept across a FORS operation's leaves: one request of the
//! secret value's PRF and the leaf's F. Before the kept prefixes, a 128f
//! leaf took 9,076 clocks, a signing leaf 9,846 and a FORS leaf 72; with
//! kept prefixes and a load clock per block, 7,908, 8,293 and 72.
//!
//! Tree job clocks (`xmss_tree::tree_clocks`, asserted): 59,420 for the
//! top tree of SLH-DSA-SHAKE-128f (n = 16, h′ = 3, which is the whole of
//! key generation: 0.48 ms at FCLK0 = 125 MHz; SLotH needs 202,180 cycles), 89,130
//! for 192f (n = 24, h′ = 3), 241,176 for 256f (n = 32, h′ = 4) and
//! 3,804,668 for a tree of 128s (h′ = 9). Signing adds 420 / 816 / 1,340
//! clocks (n = 16 / 24 / 32), the same for every message: one xmss_sign of
//! 128f is 59,840 clocks.
//!
//! Engine clocks (`engine::keygen_clocks`, `engine::sign_clocks`,
//! `engine::verify_clocks`, asserted): key generation of 128f 59,430
//! clocks; signing of 128f 1,494,429 clocks (12.0 ms at 125 MHz; SLotH's
//! whole 128f signature is 4,923,932 cycles), of which the FORS part (33
//! trees, the prefix and T_k) is 177,747, the 22 layers 22 × (9 + 59,840)
//! and the root 4; 128s signing 31,453,181 (252 ms). Verification follows
//! the public WOTS+ digits: 104,380 clocks for the ACVP 128f signature
//! (0.84 ms at 125 MHz; SLotH 438,901 cycles), of which the signature's
//! 4,268 input words are one clock each. Before the fused chains and the
//! kept FORS prefix they were 63,622, 1,659,384, 35,337,801 and 109,468;
//! before the kept-prefix chains 72,966, 1,873,422, 39,526,608 and
//! 116,684; with one round a clock 127,290, 3,144,246, 65,933,304 and
//! 192,188.
//!
//! | design | LUT / LUTRAM / FF / BRAM18 / DSP | sta cell delay (ns) |
//! |---|---:|---:|
//! | `slh_wots_leaf` | 13,711 / 0 / 4,101 / 2 / 0 | 3.50 |
//! | `slh_xmss_tree` | 14,026 / 32 / 4,262 / 3 / 0 | 4.02 |
//! | `slh_engine` | 15,169 / 32 / 5,266 / 3 / 0 | 3.61 |
//!
//! The sponge engine alone is 11,869 LUT / 2,238 FF (`keccak_r2`; 7,564 LUT
//! with one round a clock, `keccak_r1`). With the sponge engine as a black
//! box (`yosys -p "read_verilog
//! slh_engine.v; blackbox slh_engine__tree__wots__sponge; synth_xilinx
//! -family xc7 -flatten -top slh_engine; stat"`), the engine is 4,264 LUT
//! / 3,022 FF with 32 LUTRAM and 3 BRAM18: the seeds, the address, sk_i,
//! the message, the two children, the counters and the index and root
//! registers, with their selects. The chain-end memory's output is
//! registered: with the block RAM's 2.55 ns clock-to-out in front of the
//! message word select, the tree job measured 4.82 ns. The worst paths
//! are now inside the sponge engine and the leaf job's request muxes.
//!
//! The PRF and the 15 F calls of each chain are 94 % of a leaf's chain
//! (192 of 204 clocks at n = 16: 16 permutations; the load, streaming
//! and turnaround are the other 12) and leaves are 99.4 % of a tree: the
//! one sponge is the limit, and parallel sponge cores are what will
//! divide it.
//!
//! More rounds a clock are not the cheaper way to a shorter permutation.
//! The jobs' sponge alone (`SpongeEngine::with_kept_chain`) measures
//! 11,704 LUT, 3.59 ns and 7.19 ns estimated at two rounds a clock
//! (`keccak_kept_r2`); at three (`keccak_kept_r3`, 8 clocks a
//! permutation) it is 16,592 LUT, 4.40 ns and 8.45 ns estimated: within
//! the cell-delay budget, but not FCLK0's 8 ns (the worst path runs
//! through the three rounds). The 4,888 LUT more do not fit the engines
//! configuration either (see
//! `hdl::axi::tests::pl_tops_meet_the_cell_delay_budget`), unless the two
//! engines share one sponge. The jobs can take theirs from outside
//! ([`WotsLeafEngine::with_outside_sponge`], passed up by the tree job and
//! the engine), and the engine gives the same signatures, roots and
//! verdicts in the same clocks on the shared configuration
//! (`keccak_shared_r2`: the kept chain and the ML-DSA engine's squeeze
//! tail, 12,218 LUT); the top that gives both engines that one sponge is
//! not built yet.

mod digest_indices;
pub mod engine;
#[cfg(test)]
pub(crate) mod fors_reference;
#[cfg(test)]
mod job_bench;
mod layer_address;
#[cfg(test)]
pub(crate) mod sha2_tests;
#[cfg(test)]
mod sign_tests;
#[cfg(test)]
mod verify_tests;
pub mod wots_leaf;
#[cfg(test)]
mod wots_leaf_tests;
pub mod xmss_tree;
#[cfg(test)]
mod xmss_tree_tests;

pub use self::engine::SlhDsaEngine;
pub use self::wots_leaf::WotsLeafEngine;
pub use self::xmss_tree::XmssTreeEngine;

use self::wots_leaf::SPONGE_ROUNDS_PER_CLOCK;
use crate::export::{raw_verilog, Design};

/// The SLH-DSA designs of the `hdl` tool's export/report registry.
pub fn designs() -> Vec<Design> {
    vec![Design {
        name: "slh_wots_leaf",
        description: "SLH-DSA-SHAKE XMSS leaf (WOTS+ public key, signing, or key from a signature) and Merkle node jobs on a sponge engine of 2 rounds per clock",
        verilog: || raw_verilog(WotsLeafEngine::<SPONGE_ROUNDS_PER_CLOCK>::default()),
        vcd: None,
    },
    Design {
        name: "slh_xmss_tree",
        description: "SLH-DSA-SHAKE XMSS tree job (xmss_sign: WOTS+ signature, AUTH and root) on the leaf job",
        verilog: || raw_verilog(XmssTreeEngine::<SPONGE_ROUNDS_PER_CLOCK>::default()),
        vcd: None,
    },
    Design {
        name: "slh_engine",
        description: "SLH-DSA-SHAKE engine: key generation (the top tree's root), signing (FORS and hypertree: SIG_FORS ‖ SIG_HT out) and verification (the signature streamed in, the verdict out) on one tree job",
        verilog: || raw_verilog(SlhDsaEngine::<SPONGE_ROUNDS_PER_CLOCK>::default()),
        vcd: None,
    }]
}
