//! The PL top levels: each accelerator core behind an AXI4-Lite control
//! block (`ps_pl_contract::regmap::ctrl`) with AXI4-Stream ports for an AXI DMA.
//!
//! - [`ctrl`]: the AXI4-Lite slave register block shared by both tops.
//! - [`top`]: [`NttAccel`] (NTT core, B = 4) and [`KeccakAccel`] (sponge
//!   engine, 1 round per clock), with Xilinx port names for Vivado's
//!   module reference.
//! - [`mldsa_top`]: [`MlDsaAccel`], the ML-DSA engine (whole operations).
//! - [`slhdsa_top`]: [`SlhDsaAccel`], the SLH-DSA engine (whole operations,
//!   SHAKE sets), and [`SlhDsaSha2Accel`], the same on SHA-2 (SHA-256,
//!   and SHA-512 for H and T_l of categories 3 and 5) for the SHA2 sets.
//! - [`engines_top`]: [`EnginesAccel`], both engines on one shared sponge
//!   behind one AXI4-Lite slave and one stream pair.
//! - [`bench`](mod@bench): [`AccelBench`], a clock-by-clock driver of either top
//!   (AXI4-Lite transactions, both streams) for tests and co-simulation.
//! - [`pl_top`]: [`PlTop`], the interface a co-simulation drives, for
//!   AccelBench and the Verilated tops (`crate::verilated`).
//! - [`vivado`]: the Vivado build script, generated from `ps_pl_contract::regmap`.

pub mod bench;
pub mod ctrl;
pub mod engines_top;
#[cfg(test)]
mod engines_top_tests;
pub mod mldsa_top;
pub mod pl_top;
pub mod slhdsa_top;
#[cfg(test)]
mod slhdsa_top_tests;
#[cfg(test)]
mod tests;
pub mod top;
#[cfg(test)]
mod verilator_check;
pub mod vivado;

pub use bench::{AccelBench, AccelTop, AxiTimeout, StreamWord, WriteOrder};
pub use engines_top::EnginesAccel;
pub use mldsa_top::MlDsaAccel;
pub use pl_top::PlTop;
pub use slhdsa_top::{SlhDsaAccel, SlhDsaSha2Accel};
pub use top::{KeccakAccel, NttAccel};

use crate::export::{raw_verilog, Design};

/// Frequency of the one PL clock, `FCLK_CLK0` (Hz): the `FREQ_HZ` of the
/// tops' `aclk` interface and the PS7 fabric clock of the build script
/// (the contract's [`ps_pl_contract::clock::FCLK0_HZ`]).
pub const FCLK0_HZ: u64 = ps_pl_contract::clock::FCLK0_HZ as u64;

/// Module name and file stem of the NTT top (`bitstream/rtl/ntt_accel.v`).
pub const NTT_ACCEL: &str = "ntt_accel";
/// Module name and file stem of the Keccak top (`bitstream/rtl/keccak_accel.v`).
pub const KECCAK_ACCEL: &str = "keccak_accel";

/// Module name and file stem of the ML-DSA engine top (`bitstream/rtl/mldsa_accel.v`).
pub const MLDSA_ACCEL: &str = "mldsa_accel";

/// Module name and file stem of the SLH-DSA engine top (`bitstream/rtl/slhdsa_accel.v`).
pub const SLHDSA_ACCEL: &str = "slhdsa_accel";

/// Module name and file stem of the SLH-DSA engine top of the SHA2 sets
/// on SHA-256 (`bitstream/rtl/slhdsa_sha2_accel.v`).
pub const SLHDSA_SHA2_ACCEL: &str = "slhdsa_sha2_accel";

/// Module name and file stem of the top of both engines on one sponge
/// (`bitstream/rtl/engines_accel.v`).
pub const ENGINES_ACCEL: &str = "engines_accel";

/// The tops in the export/report registry.
pub fn designs() -> Vec<Design> {
    vec![
        Design {
            name: NTT_ACCEL,
            description: "PL top: NTT core (B = 4) behind AXI4-Lite control, AXI4-Stream data",
            verilog: || raw_verilog(NttAccel::default()),
            vcd: Some(ntt_vcd),
        },
        Design {
            name: KECCAK_ACCEL,
            description:
                "PL top: sponge engine (1 round per clock) behind AXI4-Lite control, AXI4-Stream data",
            verilog: || raw_verilog(KeccakAccel::default()),
            vcd: Some(keccak_vcd),
        },
        Design {
            name: MLDSA_ACCEL,
            description: "PL top: ML-DSA engine (KeyGen, Sign, Verify) behind AXI4-Lite control, AXI4-Stream data",
            verilog: || raw_verilog(MlDsaAccel::default()),
            vcd: None,
        },
        Design {
            name: SLHDSA_ACCEL,
            description: "PL top: SLH-DSA engine (SHAKE sets: keygen, sign, verify on one tree job) behind AXI4-Lite control, AXI4-Stream data",
            verilog: || raw_verilog(SlhDsaAccel::default()),
            vcd: None,
        },
        Design {
            name: SLHDSA_SHA2_ACCEL,
            description: "PL top: SLH-DSA engine of the six SHA2 sets on the SHA-2 hash engine (SHA-256; SHA-512 for H and T_l of categories 3 and 5), behind AXI4-Lite control, AXI4-Stream data",
            verilog: || raw_verilog(SlhDsaSha2Accel::default()),
            vcd: None,
        },
        Design {
            name: ENGINES_ACCEL,
            description: "PL top: the ML-DSA and SLH-DSA engines on one shared sponge (R = 2) behind one AXI4-Lite slave and one stream pair",
            verilog: || raw_verilog(EnginesAccel::default()),
            vcd: None,
        },
    ]
}

/// STATUS polls of a VCD run before it counts as hung.
const VCD_POLL_LIMIT: u32 = 10_000;

/// Writes the arguments and the start command over the bus, then polls
/// STATUS until the core is idle; returns STATUS.
fn bus_job<T: AccelTop>(b: &mut AccelBench<T>, op: u32, args: [u32; 3]) -> Result<u32, String> {
    use ps_pl_contract::regmap::ctrl;
    let e = |e: AxiTimeout| e.to_string();
    for (off, a) in [ctrl::ARG0, ctrl::ARG1, ctrl::ARG2].into_iter().zip(args) {
        b.write(off as u32, a).map_err(e)?;
    }
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | op)
        .map_err(e)?;
    for _ in 0..VCD_POLL_LIMIT {
        let status = b.read(ctrl::STATUS as u32).map_err(e)?;
        if status & ctrl::STATUS_BUSY == 0 {
            return Ok(status);
        }
    }
    Err(format!(
        "op {op:#x} still busy after {VCD_POLL_LIMIT} polls"
    ))
}

fn traced<T: AccelTop>(path: &std::path::Path) -> Result<AccelBench<T>, String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut b = AccelBench::<T>::new();
    b.trace_to(Box::new(std::io::BufWriter::new(file)));
    Ok(b)
}

/// VCD of LOAD, NTT and STORE of one polynomial over the bus.
fn ntt_vcd(path: &std::path::Path) -> Result<(), String> {
    use ps_pl_contract::regmap::{ctrl, ntt as reg};
    let mut b = traced::<NttAccel>(path)?;
    let poly = crate::ntt::sim::Lcg::new(2026).poly();
    b.stream_in
        .extend(poly.iter().enumerate().map(|(i, &c)| StreamWord {
            data: c as u32,
            last: i + 1 == poly.len(),
        }));
    for op in [reg::OP_LOAD, reg::OP_NTT, reg::OP_STORE] {
        if bus_job(&mut b, op, [0, 0, 0])? & ctrl::STATUS_ERROR != 0 {
            return Err(format!("op {op:#x} flagged an error"));
        }
    }
    Ok(())
}

/// VCD of a SHAKE256 request (200 bytes in, 64 out) over the bus.
fn keccak_vcd(path: &std::path::Path) -> Result<(), String> {
    use ps_pl_contract::regmap::{ctrl, keccak as reg};
    let mut b = traced::<KeccakAccel>(path)?;
    let msg: Vec<u8> = (0..200u32).map(|i| (i * 7) as u8).collect();
    let words = crate::keccak::harness::pack_words(&msg, 0);
    let n = words.len();
    b.stream_in
        .extend(words.into_iter().enumerate().map(|(i, data)| StreamWord {
            data,
            last: i + 1 == n,
        }));
    let status = bus_job(&mut b, reg::OP_SPONGE, [reg::MODE_SHAKE256, 200, 64])?;
    if status & ctrl::STATUS_ERROR != 0 {
        return Err("the sponge request flagged an error".into());
    }
    Ok(())
}
