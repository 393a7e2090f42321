//! The Keccak-f\[1600\] core and the SHAKE/SHA3 sponge engine for the PL.
//!
//! - [`round`]: `R` combinational rounds (θ, ρ, π, χ, ι) on 25 × 64-bit lanes.
//! - [`permutation`]: the iterative core, 24/R clocks a permutation.
//! - [`sponge`]: the SHAKE/SHA3 sponge and WOTS+ chain engine (streams, handshake).
//! - [`select`]: a job's sponge, its own engine or one it shares.
//! - [`harness`]: drives requests through the streams (tests, cross-checks).
//! - [`bench`](mod@bench): a clock-by-clock driver for rust-hdl simulations.
//!
//! # Measured figures
//!
//! Clock counts are asserted by the tests (`cargo test -p hdl --release --
//! keccak`); resources come from `cargo run -p hdl --release -- report`
//! (yosys 0.23 `synth_xilinx -family xc7`, `bitstream/reports/resources.md`).
//!
//! | figure | goal | R = 1 | R = 2 |
//! |---|---|---:|---:|
//! | clocks a permutation, load/start handshake included | ≤ 25 | 25 | 13 |
//! | clocks a SHAKE128 block (42 words + permutation) | ≤ 66 | 66 | 54 |
//! | clocks a WOTS+ chain step (one F) | | 25 | 13 |
//! | permutation core LUT / FF (`keccak_perm_r*`) | ≤ 5,000 LUT | 7,900 / 1,607 | 12,492 / 1,606 |
//! | whole engine LUT / FF (`keccak_r*`) | | 7,216 / 2,237 | 11,578 / 2,236 |
//! | clocks a further squeezed SHAKE128 block, squeeze tail | | 54 | 42 |
//! | engine with the squeeze tail LUT / FF (`keccak_tail_r1`) | | 8,007 / 2,628 | |
//! | engine with the kept chain and the tail, the one the engines are to share, LUT / FF (`keccak_shared_r2`) | | | 12,218 / 2,632 |
//!
//! Longest paths (logic cells between registers): 4 (core R = 1), 8 (core
//! R = 2), 15 and 14 (engines, through the 32-bit length counters). Timing
//! estimate (yosys `sta`, `bitstream/reports/timing.md`): 1.84 ns (core
//! R = 1), 3.67 ns (core R = 2), 3.09 / 3.27 ns (engines) of cell delay.
//! The cores alone carry the `reload` path of the fused chains (a port
//! there; every sponge but the SLH-DSA jobs' ties it low): 5,735 and 9,515
//! LUT and 3.03 ns at R = 2 before it.
//!
//! The 1-round core misses the LUT goal by 15 %: every state bit takes the
//! round output, the parallel load (the chain's one-clock block load), the
//! absorb XOR, clear and hold, and yosys maps that to more than the ideal
//! one LUT6 per bit of θ/χ plus one of input multiplexing. (An earlier
//! variant with clear below load in priority synthesised to 5,016 LUT.)

pub mod bench;
pub mod harness;
pub mod permutation;
pub mod round;
pub mod select;
pub mod sponge;

pub use permutation::KeccakPermutation;
pub use round::KeccakRounds;
pub use sponge::SpongeEngine;
#[cfg(test)]
pub(crate) mod sponge_tests;
#[cfg(test)]
pub(crate) mod testutil;
#[cfg(test)]
mod verilator_check;

use crate::export::{raw_verilog, Design};
use std::path::Path;

/// The Keccak designs of the `hdl` tool's export/report/vcd registry: the
/// permutation cores alone (the area figure of the core) and the whole
/// engines, each with 1 and 2 rounds per clock.
pub fn designs() -> Vec<Design> {
    vec![
        Design {
            name: "keccak_perm_r1",
            description:
                "Keccak-f[1600] core, 1 round per clock (25 clocks a permutation with load)",
            verilog: || raw_verilog(KeccakPermutation::<1>::default()),
            vcd: None,
        },
        Design {
            name: "keccak_perm_r2",
            description:
                "Keccak-f[1600] core, 2 rounds per clock (13 clocks a permutation with load)",
            verilog: || raw_verilog(KeccakPermutation::<2>::default()),
            vcd: None,
        },
        Design {
            name: "keccak_perm_r3",
            description:
                "Keccak-f[1600] core, 3 rounds per clock (9 clocks a permutation with load)",
            verilog: || raw_verilog(KeccakPermutation::<3>::default()),
            vcd: None,
        },
        Design {
            name: "keccak_kept_r2",
            description: "the SLH-DSA jobs' sponge (kept chains), 2 rounds per clock",
            verilog: || raw_verilog(SpongeEngine::<2>::with_kept_chain()),
            vcd: None,
        },
        Design {
            name: "keccak_kept_r3",
            description: "the SLH-DSA jobs' sponge (kept chains), 3 rounds per clock",
            verilog: || raw_verilog(SpongeEngine::<3>::with_kept_chain()),
            vcd: None,
        },
        Design {
            name: "keccak_tail_r1",
            description: "the ML-DSA engine's sponge (squeeze tail), 1 round per clock",
            verilog: || raw_verilog(SpongeEngine::<1>::with_squeeze_tail()),
            vcd: None,
        },
        Design {
            name: "keccak_shared_r2",
            description: "the sponge the ML-DSA and SLH-DSA engines share (kept chains, squeeze tail), 2 rounds per clock",
            verilog: || raw_verilog(SpongeEngine::<2>::with_kept_chain_and_squeeze_tail()),
            vcd: None,
        },
        Design {
            name: "keccak_r1",
            description: "SHAKE/SHA3 sponge and WOTS+ chain engine, 1 round per clock",
            verilog: || raw_verilog(SpongeEngine::<1>::default()),
            vcd: Some(engine_vcd::<1>),
        },
        Design {
            name: "keccak_r2",
            description: "SHAKE/SHA3 sponge and WOTS+ chain engine, 2 rounds per clock",
            verilog: || raw_verilog(SpongeEngine::<2>::default()),
            vcd: Some(engine_vcd::<2>),
        },
    ]
}

/// VCD of a representative run: SHAKE128 of 200 bytes to 200 bytes (two
/// blocks in, two out), then a 3-step WOTS+ chain with n = 16.
fn engine_vcd<const R: usize>(path: &Path) -> Result<(), String> {
    use harness::{engine_bench, run_request, FullSpeed, Request};
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bench = engine_bench::<R>();
    bench.trace_to(Box::new(std::io::BufWriter::new(file)));
    let message: Vec<u8> = (0..200u32).map(|i| (i * 7) as u8).collect();
    let sponge = Request::sponge(pqc::keccak::SpongeMode::Shake128, &message, 200, 0);
    let chain = Request::wots_chain(&[1; 16], &[2; 32], &[3; 16], 4, 3);
    for request in [sponge, chain] {
        if run_request(&mut bench, &request, &mut FullSpeed, 10_000).error {
            return Err("engine flagged an error on the VCD run".into());
        }
    }
    Ok(())
}
