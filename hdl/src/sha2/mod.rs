//! SHA-256 and SHA-512 compression cores (FIPS 180-4) for the SLH-DSA SHA2
//! parameter sets (FIPS 205 §11.2). Security category 1 uses SHA-256 for
//! every function; categories 3 and 5 use SHA-256 for F and PRF and
//! SHA-512 for H, T_l, H_msg (MGF1-SHA-512) and PRF_msg (HMAC-SHA-512), as
//! `pqc::slhdsa::hash::Sha2Engine` does. F, H, T_l and PRF restart from the
//! state after the PK.seed block: compute it once, keep it, and start each
//! call from it (`init_from_port`, no extra clock).
//!
//! One generic block, [`Sha2Core`], instantiated as [`Sha256Core`] (32-bit
//! words, 64 rounds) and [`Sha512Core`] (64-bit words, 80 rounds); the
//! constants below and the carry-select split of SHA-512 are the only
//! differences. Interface, clock counts and timing measures: [`core`](mod@core).
//!
//! [`Sha256TweakEngine`] ([`tweak`](mod@tweak)) is the hash engine of the
//! SLH-DSA jobs for the sets of security category 1 (SLH-DSA-SHA2-128s and
//! -128f) on one [`Sha256Core`]: it takes the requests and streams of the
//! Keccak sponge engine that the jobs send (chains, kept-prefix chains
//! with their PRF, and the SHAKE256 requests of H and T_l, which it
//! computes with SHA-256), so the SLH-DSA engine runs on it unchanged
//! behind its sponge port (`slhdsa::sha2_tests`: the ACVP SHA2-128f keyGen
//! root and the verification of its sigGen signature). A chain step is
//! 66 clocks: one compression, the next starting in its `done` clock from
//! the kept PK.seed state while the digest is taken (74 until stop 44,
//! with an 8-clock state reload).
//!
//! [`Sha512TweakEngine`] ([`tweak512`](mod@tweak512)) computes the H and
//! T_l of categories 3 and 5 (SLH-DSA-SHA2-192s/f, -256s/f) with SHA-512
//! on one [`Sha512Core`], from the same `OP_SPONGE` requests, and
//! [`Sha2TweakEngine`] ([`tweak_router`](mod@tweak_router)) puts both
//! engines behind one port: the hash engine of every SHA2 set. The PL top
//! `slhdsa_sha2_accel` ([`crate::axi::SlhDsaSha2Accel`]) puts it and the
//! SLH-DSA engine together at the bus, and the built `engines_accel` has
//! it beside its shared sponge for the SHA2 sets.
//!
//! # Measured figures
//!
//! Clock counts are asserted by the tests (`cargo test -p hdl sha2`);
//! resources from `cargo run -p hdl --release -- report --design NAME`
//! (yosys 0.23 `synth_xilinx -family xc7`, `bitstream/reports/resources.md`;
//! the SRL16E cells of the message schedule are not in the LUT column) and
//! cell delay from `cargo run -p hdl --release -- timing --design NAME`
//! (`synth_xilinx -abc9` and `sta`, `bitstream/reports/timing.md`, budget
//! 4.5 ns, asserted by `sha2_cores_meet_the_cell_delay_budget`).
//!
//! | figure | `sha256_core` | `sha512_core` |
//! |---|---:|---:|
//! | clocks a block (start to done, words on time) | 66 | 82 |
//! | clocks to start from `init_value` / load a chaining value / read a word | 0 / 8 / 1 | 0 / 8 / 1 |
//! | LUT / FF / SRL16E / DSP | 1,963 / 745 / 64 / 0 | 3,960 / 1,481 / 128 / 0 |
//! | sta cell delay (ns), worst path | 3.31 | 4.17 |
//!
//! The LUT counts are of the cores alone, whose `init_value` ports are
//! then inputs (1,709 and 3,515 before stop 44 added them); in the hash
//! engines the SHA-512 one is tied to zero.
//!
//! `sha256_tweak` (the hash engine with its core): 66 clocks a chain
//! step, 1 + (n/2 + 8) + 66 + 66·s + 1 + n/4 clocks a chain of s ≥ 1
//! steps, 1 + (n/4 + 8) + 66 + 1 + 67·b + n/4 an H or T_l of b blocks;
//! 3,698 LUT / 1,830 FF / 0 DSP (3,856 LUT with the state reload of
//! stops 39–43, 74 clocks a step; 3,275 / 1,519 as the chain engine
//! alone, before the kept prefix, the PRF and H / T_l); sta cell delay
//! 3.31 ns, 6.01 ns estimated, worst path inside the core. The core's
//! start selects come from registers (`seeding`, `tweak`, `count`) and
//! its h + K + W select from `running`, not from `start`: with the
//! engine's start logic in front of that adder it measured 3.81 ns and
//! 7.41 ns estimated. The core's message word reads
//! registers only: the stream word `hold`, the ADRSc words `adrsc`, and
//! the flags `adrsc_phase`, `have_words` and `at_length` that select
//! among them; `out_last` is registered too (`last_word`). Without them
//! `slhdsa_sha2_accel` measured 5.20 ns and 11.05 ns estimated (the leaf
//! job's stream word through the select into the h + K + W adder), then
//! 3.71 / 7.76, 3.79 / 8.29, 3.60 / 8.10 and 3.54 / 7.59 ns as each went
//! in, and 3.52 / 6.22 ns with all. An SLH-DSA-SHA2-128f verification
//! of the ACVP signature takes 450,149 cycles at the bus on it (499,003
//! before stop 44), against 104,412 on the two-round sponge: one
//! compression is 66 clocks where a permutation is 12.
//!
//! `sha512_tweak`: 98 clocks a message block (the core's 82 and 15 clocks
//! of stall: the engine gives its 64-bit words at one per two clocks, from
//! registers), 1 + (n/4 + 8) + 100 + 98·b + n/4 clocks an H or T_l of b
//! message blocks (the PK.seed block is computed at every request);
//! 4,729 LUT / 2,302 FF; sta 4.17 ns, 7.32 ns estimated, inside the core.
//! `sha2_tweak`, both engines and the router: 8,385 LUT / 4,133 FF,
//! 4.17 ns (8,561 LUT before stop 44).
//!
//! Worst paths: SHA-256 from e through Σ1/Ch and the carry-save tree into
//! the 32-bit adder of a'; SHA-512 from `p` through the carry-save tree into
//! a 32-bit half of a carry-select adder and its select. How the design got
//! there (SHA-256 / SHA-512 ns): 4.01 / 4.92 with a shared T1 signal (two
//! carry chains in series) and the schedule taps in SRL16E; 3.89 / 4.80
//! with flip-flop taps; 3.62 / 4.53 with flat multi-operand sums (yosys
//! builds the carry-save tree); 3.56 / 4.17 with the explicit carry-save
//! form and the carry-select adders on SHA-512.

pub mod core;
#[cfg(test)]
mod tests;
pub mod tweak;
pub mod tweak512;
#[cfg(test)]
mod tweak512_tests;
#[cfg(test)]
mod tweak_bench;
pub mod tweak_router;
#[cfg(test)]
mod tweak_tests;
#[cfg(test)]
mod verilator_check;

pub use self::core::{Sha256Core, Sha2Core, Sha512Core};
pub use self::tweak::Sha256TweakEngine;
pub use self::tweak512::Sha512TweakEngine;
pub use self::tweak_router::Sha2TweakEngine;

use crate::export::{raw_verilog, Design};

/// SHA-256 round constants K_0..K_63 (FIPS 180-4 §4.2.2).
#[rustfmt::skip]
pub const K256: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// SHA-512 round constants K_0..K_79 (FIPS 180-4 §4.2.3).
#[rustfmt::skip]
pub const K512: [u64; 80] = [
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
];

/// SHA-256 initial hash value H(0) (FIPS 180-4 §5.3.3).
pub const IV256: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// SHA-512 initial hash value H(0) (FIPS 180-4 §5.3.5).
pub const IV512: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// The SHA-2 designs of the `hdl` tool's export/report registry.
pub fn designs() -> Vec<Design> {
    vec![
        Design {
            name: "sha256_core",
            description: "SHA-256 compression core, 1 round per clock (66 clocks a block)",
            verilog: || raw_verilog(Sha256Core::default()),
            vcd: None,
        },
        Design {
            name: "sha512_core",
            description: "SHA-512 compression core, 1 round per clock (82 clocks a block)",
            verilog: || raw_verilog(Sha512Core::default()),
            vcd: None,
        },
        Design {
            name: "sha256_tweak",
            description: "SLH-DSA-SHA2 category-1 hash engine on the SHA-256 core: WOTS+ chains (66 clocks a step), kept-prefix chains with PRF, H and T_l",
            verilog: || raw_verilog(Sha256TweakEngine::default()),
            vcd: None,
        },
        Design {
            name: "sha512_tweak",
            description: "SLH-DSA-SHA2 categories 3 and 5: H and T_l on the SHA-512 core (98 clocks a block)",
            verilog: || raw_verilog(Sha512TweakEngine::default()),
            vcd: None,
        },
        Design {
            name: "sha2_tweak",
            description: "SLH-DSA-SHA2 hash engine of every category: the SHA-256 engine and the SHA-512 H / T_l engine behind one port",
            verilog: || raw_verilog(Sha2TweakEngine::default()),
            vcd: None,
        },
    ]
}
