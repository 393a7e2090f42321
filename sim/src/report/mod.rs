//! The software-vs-accelerated timing report: parses the ps-app benchmark
//! table, combines it with host measurements and co-simulation counts, and
//! renders `report.md` (tables with the provenance of every figure) and
//! `report.svg` (a grouped bar chart).
//!
//! Three kinds of figure, never mixed up in the output:
//! - **measured on QEMU**: ps-app global-timer ticks under `-icount shift=0`
//!   count guest instructions (10 per tick), not Cortex-A9 cycles; they are
//!   turned into A9 time with a stated cycles-per-instruction model;
//! - **measured on a ZedBoard**: ticks of the global timer (PERIPHCLK =
//!   CPU/2), exact board time;
//! - **modelled**: the accelerated figures, from cycle-accurate
//!   co-simulation counts (Verilator or rust-hdl; identical) (PL cycles at
//!   FCLK0, AXI-Lite transactions, DMA bytes) and the CPU-side model in
//!   [`Model`].
//!
//! One module per job: [`transcript`] parses the firmware's benchmark
//! table, [`model`] turns counts into time and holds the report's rows,
//! [`markdown`] and [`svg`] render them, [`json`] writes the
//! machine-readable rows. The co-simulation's counters live with the
//! co-simulation ([`crate::cosim::AccelCounts`]).

pub mod json;
pub use json::render_json;
pub mod markdown;
pub mod model;
pub mod svg;
pub mod transcript;

pub use crate::cosim::AccelCounts;
pub use markdown::{fmt_count, fmt_seconds, render_markdown};
pub use model::{
    AccelFigure, AccelTime, Anchor, CosimOnly, Entry, McuTier, Model, Report, ANCHORS, MCU_CLOCK_HZ,
};
pub use svg::{chart_of, render_svg, xml_escape, BarGroup, Chart};
pub use transcript::{parse_transcript, ParseError, PsRow, PsTable, SoftwareSource};

/// Test fixtures shared by the modules' tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A verbatim ps-app transcript (QEMU, commit e6bf477, README).
    pub const TRANSCRIPT: &str = include_str!("../../testdata/qemu-ps-app-e6bf477.txt");

    pub fn sample_report() -> Report {
        let t = parse_transcript(TRANSCRIPT).unwrap();
        let mut r = Report::from_table(
            &t,
            SoftwareSource::QemuIcount,
            "a <file> & co",
            Model::DEFAULT,
        )
        .unwrap();
        let e = r.entry_mut("ML-DSA-44", "sign").unwrap();
        e.accel = Some(AccelFigure {
            counts: AccelCounts {
                pl_cycles: 200_000,
                axi_lite_reads: 900,
                axi_lite_writes: 1100,
                mm2s_bytes: 40_000,
                s2mm_bytes: 30_000,
                dma_transfers: 80,
                cache_lines: 2_200,
                fallbacks: 0,
                jobs: 300,
                core_busy_cycles: 90_000,
            },
            offload_fraction: 0.6,
            identical: true,
            backends: "HwRing + HwKeccak".into(),
        });
        r.entry_mut("SLH-DSA-SHA2-128f", "sign").unwrap().note = "no SHA-2 core".into();
        r
    }
}
