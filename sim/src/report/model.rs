//! Counts into time: the conversion model, and the report's rows.

use super::transcript::{PsRow, PsTable, SoftwareSource};
use crate::cosim::AccelCounts;
use crate::mcu_transcript::PQM4;

/// The numbers that turn counts into time. Every accelerated figure in the
/// report is computed from these; `report.md` prints them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Cortex-A9 clock (ZedBoard: 666.67 MHz).
    pub cpu_hz: f64,
    /// PL clock FCLK0 of the accelerators and DMA engines.
    pub fclk_hz: f64,
    /// Global-timer ticks per second on QEMU (100 MHz of virtual time).
    pub qemu_timer_hz: f64,
    /// Guest instructions per second of QEMU virtual time (`-icount shift=0`).
    pub qemu_instructions_per_s: f64,
    /// A9 cycles per QEMU guest instruction assumed for QEMU-derived times.
    pub cycles_per_instruction: f64,
    /// PL cycles one AXI-Lite register access blocks the CPU (GP0 round
    /// trip); the co-simulation clocks the design this long per access.
    pub axi_lite_cycles: u32,
    /// CPU cycles per byte to pack/unpack DMA buffers (copy + conversion).
    pub copy_cycles_per_byte: f64,
    /// CPU cycles per 32-byte line of cache maintenance (L1 by MVA + PL310 by PA).
    pub cache_cycles_per_line: f64,
}

/// The estimated Fmax (MHz) of the slowest of `tops` in a
/// `bitstream/reports/timing.md` (`hdl timing`), if every one has a row.
pub fn slowest_top_fmax_mhz(timing_md: &str, tops: &[&str]) -> Option<f64> {
    let mut slowest: Option<f64> = None;
    for top in tops {
        let row = timing_md
            .lines()
            .find(|l| l.starts_with(&format!("| `{top}` |")))?;
        let fmax: f64 = row.split('|').nth(6)?.trim().parse().ok()?;
        slowest = Some(slowest.map_or(fmax, |s: f64| s.min(fmax)));
    }
    slowest
}

impl Model {
    /// The model used for the committed report: FCLK0 and the AXI-Lite
    /// access time of the contract's conservative bus model
    /// (`ps_pl_contract::bus_model`). The report lowers `fclk_hz` to the
    /// slowest PL top's estimated Fmax if that is below FCLK0
    /// ([`Model::with_pl_clock_limit`]).
    pub const DEFAULT: Model = Model {
        cpu_hz: 666.666_667e6,
        fclk_hz: ps_pl_contract::clock::FCLK0_HZ as f64,
        qemu_timer_hz: 100e6,
        qemu_instructions_per_s: 1e9,
        cycles_per_instruction: 1.0,
        axi_lite_cycles: ps_pl_contract::bus_model::AXI_LITE_ACCESS_CYCLES,
        copy_cycles_per_byte: 1.0,
        cache_cycles_per_line: 40.0,
    };

    /// The PL clock: the lower of FCLK0 and `fmax_hz`, the estimated Fmax
    /// of the slowest PL top.
    pub fn with_pl_clock_limit(self, fmax_hz: f64) -> Model {
        Model {
            fclk_hz: self.fclk_hz.min(fmax_hz),
            ..self
        }
    }

    /// Seconds of A9 time for `ticks` global-timer ticks from `source`
    /// (prescaler as printed by ps-app).
    pub fn software_seconds(&self, source: SoftwareSource, ticks: u64, prescaler: u32) -> f64 {
        let ticks = ticks as f64 * f64::from(prescaler + 1);
        match source {
            // PERIPHCLK = CPU/2: one tick is 2 CPU cycles.
            SoftwareSource::ZedBoard => ticks * 2.0 / self.cpu_hz,
            SoftwareSource::QemuIcount => {
                let instructions = ticks * self.qemu_instructions_per_s / self.qemu_timer_hz;
                instructions * self.cycles_per_instruction / self.cpu_hz
            }
        }
    }
}

/// The accelerated figure of one operation.
#[derive(Clone, Debug, PartialEq)]
pub struct AccelFigure {
    /// Co-simulation counts.
    pub counts: AccelCounts,
    /// Share of the software operation's time spent in the calls the
    /// accelerators take over (host-measured, same inputs).
    pub offload_fraction: f64,
    /// The accelerated output was byte-identical to the software output.
    pub identical: bool,
    /// Which backends ran on the simulated PL, e.g. `HwRing + HwKeccak`.
    pub backends: String,
}

/// Accelerated time split into its modelled parts (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AccelTime {
    /// Software the CPU still runs: (1 − offloaded share) × software time.
    pub cpu_rest: f64,
    /// CPU blocked on the PL: PL cycles at FCLK0.
    pub pl: f64,
    /// Driver work between bus accesses: buffer packing and cache maintenance.
    pub protocol: f64,
}

impl AccelTime {
    /// Sum of the parts.
    pub fn total(&self) -> f64 {
        self.cpu_rest + self.pl + self.protocol
    }
}

impl Model {
    /// Accelerated time of an operation whose software time is `software_s`.
    pub fn accelerated(&self, software_s: f64, a: &AccelFigure) -> AccelTime {
        let c = &a.counts;
        AccelTime {
            cpu_rest: (1.0 - a.offload_fraction).clamp(0.0, 1.0) * software_s,
            pl: c.pl_cycles as f64 / self.fclk_hz,
            protocol: (c.dma_bytes() as f64 * self.copy_cycles_per_byte
                + c.cache_lines as f64 * self.cache_cycles_per_line)
                / self.cpu_hz,
        }
    }
}

/// One operation of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Parameter set.
    pub algorithm: String,
    /// keygen / sign / verify.
    pub operation: String,
    /// ps-app software figure (mean ticks, iterations), if the transcript has it.
    pub software: Option<PsRow>,
    /// ps-app `hw` row (the accelerators on a board), if the transcript has it.
    pub measured_accel: Option<PsRow>,
    /// The ps-app `engine` row of a board transcript (the whole operation
    /// on the PL engine, measured), if any.
    pub measured_engine: Option<PsRow>,
    /// Host software median (seconds) and runs, measured in this run.
    pub host: Option<(f64, usize)>,
    /// Accelerated figure from the co-simulation.
    pub accel: Option<AccelFigure>,
    /// The whole operation on a PL engine (the `engine` tier), from the
    /// co-simulation: everything runs in the PL (offloaded share 1).
    pub engine: Option<AccelFigure>,
    /// Sign: the mean attempts of the rejection loop over the sign row's
    /// messages (`workload::SIGN_MESSAGES` of them), as the engine reported
    /// them (each checked against `pqc`). Every tier signs the same
    /// messages with the same rnd, so every tier makes these attempts.
    pub attempts: Option<f64>,
    /// Why there is no accelerated figure, or other remarks.
    pub note: String,
}

/// Everything the report shows.
#[derive(Clone, Debug)]
pub struct Report {
    /// Where the software figures come from.
    pub source: SoftwareSource,
    /// Global-timer prescaler of the transcript.
    pub prescaler: u32,
    /// Name of the transcript file (for the provenance line).
    pub transcript: String,
    /// Description of the host the host figures were measured on.
    pub host: String,
    /// Conversion model.
    pub model: Model,
    /// The simulator of the PL tops in the co-simulation, as the report
    /// names it (e.g. `Verilator`).
    pub engine: String,
    /// Where the PL clock of the model comes from.
    pub pl_clock: String,
    /// Rows in order.
    pub entries: Vec<Entry>,
    /// Operations co-simulated although the transcript has no row for
    /// them (parameter sets ps-app does not benchmark): PL counts only.
    pub cosim_only: Vec<CosimOnly>,
    /// The microcontroller baseline (mcu-app transcripts), tier by tier.
    pub mcu: Vec<McuTier>,
}

/// A published figure the report shows as a reference mark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    /// Short name on the chart.
    pub label: &'static str,
    /// Where the figure comes from.
    pub source: &'static str,
    /// Parameter set the figures are for.
    pub algorithm: &'static str,
    /// Seconds of keygen, sign (mean), verify; `None` where the source
    /// gives no figure.
    pub seconds: [Option<f64>; 3],
}

impl Anchor {
    /// Seconds of `operation` (keygen / sign / verify).
    pub fn seconds_of(&self, operation: &str) -> Option<f64> {
        ["keygen", "sign", "verify"]
            .iter()
            .position(|o| *o == operation)
            .and_then(|i| self.seconds[i])
    }
}

/// The published anchors the project answers (issues "ML-DSA engine end
/// to end" and "SLH-DSA engine in the PL"), converted to seconds at the
/// stated clocks.
pub const ANCHORS: [Anchor; 5] = [
    Anchor {
        label: "Zynq-7000 co-design (study)",
        source: "\"Comparative Performance Analysis of NIST PQC Standards: From STM32 Software Limitations to FPGA-SoC Acceleration\": 1.109 / 5.94 / 1.17 ms",
        algorithm: "ML-DSA-44",
        seconds: [Some(1.109e-3), Some(5.94e-3), Some(1.17e-3)],
    },
    Anchor {
        label: "full hardware, Artix-7 (Beckwith et al.)",
        source: "Beckwith, Nguyen, Gaj, FPT 2021, round-3 Dilithium2: 4,875 / 29,876 (mean sign) / 6,582 cycles at 116 MHz",
        algorithm: "ML-DSA-44",
        seconds: [
            Some(4875.0 / 116e6),
            Some(29876.0 / 116e6),
            Some(6582.0 / 116e6),
        ],
    },
    Anchor {
        label: "pqm4, Cortex-M4 at 168 MHz",
        source: "pqm4 benchmarks.md (mupq/pqm4), ml-dsa-44 m4f cycles (crate::mcu_transcript::PQM4), at 168 MHz",
        algorithm: "ML-DSA-44",
        seconds: [
            Some(PQM4[0].keygen as f64 / MCU_CLOCK_HZ),
            Some(PQM4[0].sign as f64 / MCU_CLOCK_HZ),
            Some(PQM4[0].verify as f64 / MCU_CLOCK_HZ),
        ],
    },
    Anchor {
        label: "SLotH, Artix-7 at 100 MHz (Saarinen)",
        source: "Saarinen 2024, SLotH (hash unit driven by a RISC-V core), SLH-DSA-SHAKE-128f: 202,180 / 4,923,932 / 438,901 cycles at 100 MHz",
        algorithm: "SLH-DSA-SHAKE-128f",
        seconds: [
            Some(202_180.0 / 100e6),
            Some(4_923_932.0 / 100e6),
            Some(438_901.0 / 100e6),
        ],
    },
    Anchor {
        label: "full-hardware SPHINCS+, 7-series at 250 MHz (Amiet et al.)",
        source: "Amiet et al. 2020, full-hardware SPHINCS+ on a 7-series FPGA in 48 k LUTs: 128f signing about 1 ms at 250 MHz, as the project's SLH-DSA engine issue cites it (no keygen or verify figure cited)",
        algorithm: "SLH-DSA-SHAKE-128f",
        seconds: [None, Some(1e-3), None],
    },
];

/// The expected number of signing attempts of each parameter set over
/// messages (FIPS 204, Table 1, "expected number of repetitions").
pub const FIPS204_EXPECTED_ATTEMPTS: [(&str, f64); 3] =
    [("ML-DSA-44", 4.25), ("ML-DSA-65", 5.1), ("ML-DSA-87", 3.85)];

/// Clock at which mcu-app instruction counts become time: the STM32F407's
/// 168 MHz, assuming one instruction per cycle (QEMU counts instructions;
/// a real Cortex-M4 takes at least one cycle for most of them).
pub const MCU_CLOCK_HZ: f64 = 168e6;

/// One microcontroller tier of the report.
#[derive(Clone, Debug)]
pub struct McuTier {
    /// `sw-m4` or `sw-m7`.
    pub tier: &'static str,
    /// The transcript file, as the report names it.
    pub file: String,
    /// Its rows.
    pub transcript: crate::mcu_transcript::McuTranscript,
}

impl McuTier {
    /// Seconds of `algorithm` / `operation` at [`MCU_CLOCK_HZ`], if the
    /// transcript has the row.
    pub fn seconds(&self, algorithm: &str, operation: &str) -> Option<f64> {
        self.transcript
            .row(algorithm, operation)
            .map(|r| r.count as f64 / MCU_CLOCK_HZ)
    }
}

/// A co-simulated operation without a software figure.
#[derive(Clone, Debug)]
pub struct CosimOnly {
    /// Parameter set.
    pub algorithm: String,
    /// `keygen`, `sign` or `verify`.
    pub operation: String,
    /// What the co-simulation counted.
    pub counts: AccelCounts,
    /// Output identical to software.
    pub identical: bool,
}

impl Report {
    /// Builds the entries from a parsed table: one per `sw` row. Failing rows
    /// are refused: a failed operation has no meaningful time.
    pub fn from_table(
        table: &PsTable,
        source: SoftwareSource,
        transcript: &str,
        model: Model,
    ) -> Result<Report, String> {
        let mut entries = Vec::new();
        for row in table.rows.iter().filter(|r| r.backend == "sw") {
            if !row.ok {
                return Err(format!(
                    "{} {} reported FAIL in {transcript}: not a timing",
                    row.algorithm, row.operation
                ));
            }
            entries.push(Entry {
                algorithm: row.algorithm.clone(),
                operation: row.operation.clone(),
                software: Some(row.clone()),
                measured_accel: None,
                measured_engine: None,
                host: None,
                accel: None,
                engine: None,
                attempts: None,
                note: String::new(),
            });
        }
        if entries.is_empty() {
            return Err(format!("{transcript}: no software (`sw`) rows"));
        }
        for row in table.rows.iter().filter(|r| r.backend != "sw") {
            if !row.ok {
                return Err(format!(
                    "{} {} ({}) reported FAIL in {transcript}: not a timing",
                    row.algorithm, row.operation, row.backend
                ));
            }
            let entry = entries
                .iter_mut()
                .find(|e| e.algorithm == row.algorithm && e.operation == row.operation)
                .ok_or_else(|| {
                    format!(
                        "{transcript}: {} row {} {} has no software row",
                        row.backend, row.algorithm, row.operation
                    )
                })?;
            match row.backend.as_str() {
                "hw" => entry.measured_accel = Some(row.clone()),
                "engine" => entry.measured_engine = Some(row.clone()),
                other => {
                    return Err(format!(
                        "{transcript}: unknown backend `{other}` in row {} {}",
                        row.algorithm, row.operation
                    ))
                }
            }
        }
        Ok(Report {
            source,
            prescaler: table.prescaler,
            transcript: transcript.to_string(),
            host: String::new(),
            model,
            engine: "Verilator".into(),
            pl_clock: "FCLK0".into(),
            entries,
            cosim_only: Vec::new(),
            mcu: Vec::new(),
        })
    }

    /// The entry for `algorithm`/`operation`, if present.
    pub fn entry_mut(&mut self, algorithm: &str, operation: &str) -> Option<&mut Entry> {
        self.entries
            .iter_mut()
            .find(|e| e.algorithm == algorithm && e.operation == operation)
    }

    /// Software seconds of an entry.
    pub fn software_seconds(&self, e: &Entry) -> Option<f64> {
        e.software.as_ref().map(|r| {
            self.model
                .software_seconds(self.source, r.mean_ticks, self.prescaler)
        })
    }

    /// Seconds of an entry's ps-app `hw` row (accelerators on the board).
    pub fn measured_accel_seconds(&self, e: &Entry) -> Option<f64> {
        e.measured_accel.as_ref().map(|r| {
            self.model
                .software_seconds(self.source, r.mean_ticks, self.prescaler)
        })
    }

    /// Seconds of an entry's ps-app `engine` row (the PL engine on the board).
    pub fn measured_engine_seconds(&self, e: &Entry) -> Option<f64> {
        e.measured_engine.as_ref().map(|r| {
            self.model
                .software_seconds(self.source, r.mean_ticks, self.prescaler)
        })
    }

    /// Modelled time of an entry on its PL engine: the PL cycles at the PL
    /// clock plus the driver's copies and cache maintenance (no CPU share:
    /// the whole operation runs in the PL).
    pub fn engine_time(&self, e: &Entry) -> Option<AccelTime> {
        Some(self.model.accelerated(0.0, e.engine.as_ref()?))
    }

    /// Modelled accelerated time of an entry (needs its software time for
    /// the CPU share that stays in software).
    pub fn accel_time(&self, e: &Entry) -> Option<AccelTime> {
        Some(
            self.model
                .accelerated(self.software_seconds(e)?, e.accel.as_ref()?),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine figure shows up in the JSON rows (tier `engine`, PL time
    /// plus driver work, no CPU share), in its report section with both
    /// ratios, and as a bar; the anchors are rows and a table.
    #[test]
    fn engine_tier_and_anchors_reach_every_output() {
        let mut r = crate::report::fixtures::sample_report();
        let counts = AccelCounts {
            pl_cycles: 27_000,
            axi_lite_reads: 800,
            axi_lite_writes: 60,
            mm2s_bytes: 32,
            s2mm_bytes: 3_872,
            dma_transfers: 2,
            cache_lines: 122,
            fallbacks: 0,
            jobs: 1,
            core_busy_cycles: 26_700,
        };
        let fig = AccelFigure {
            counts,
            offload_fraction: 1.0,
            identical: true,
            backends: "HwMlDsa (ML-DSA engine)".into(),
        };
        r.entry_mut("ML-DSA-44", "keygen").unwrap().engine = Some(fig.clone());
        let e = r.entries.iter().find(|e| e.engine.is_some()).unwrap();
        let t = r.engine_time(e).unwrap();
        assert_eq!(t.cpu_rest, 0.0);
        assert!((t.pl - 27_000.0 / r.model.fclk_hz).abs() < 1e-15);
        assert_eq!(
            t,
            r.model.accelerated(123.0, &fig),
            "no CPU share at any software time"
        );
        let rows = crate::report::json::rows(&r);
        let engine: Vec<_> = rows.iter().filter(|x| x.tier == "engine").collect();
        assert_eq!(engine.len(), 1);
        assert_eq!(
            (engine[0].algorithm.as_str(), engine[0].op.as_str()),
            ("ML-DSA-44", "keygen")
        );
        assert_eq!(engine[0].seconds, t.total());
        assert_eq!(
            rows.iter().filter(|x| x.tier == "anchor").count(),
            ANCHORS.iter().flat_map(|a| a.seconds).flatten().count()
        );
        let md = render_markdown(&r);
        assert!(md.contains("## Whole operations on a PL engine"));
        assert!(md.contains("| ML-DSA-44 | keygen |"));
        assert!(md.contains("## Published anchors"));
        assert!(md.contains("SLotH"));
        assert!(md.contains("Beckwith"));
        let chart = chart_of(&r);
        assert!(chart.series.iter().any(|s| s.contains("PL engine")));
        let keygen = chart
            .groups
            .iter()
            .find(|g| g.label == "ML-DSA-44 keygen")
            .unwrap();
        assert_eq!(
            keygen.values[chart
                .series
                .iter()
                .position(|s| s.contains("PL engine"))
                .unwrap()],
            Some(t.total())
        );
        assert!(render_svg(&chart).contains("ML-DSA-44 keygen"));
    }

    /// A set with no software row (ps-app does not benchmark it) and an
    /// engine figure: an engine row with no software time and no ratio to
    /// it, a main-table row that says why, a JSON engine row and no
    /// `sw-a9` one, and a bar.
    #[test]
    fn engine_only_rows_have_no_software_time() {
        let mut r = crate::report::fixtures::sample_report();
        let counts = AccelCounts {
            pl_cycles: 14_297_296,
            axi_lite_reads: 446_000,
            axi_lite_writes: 40,
            mm2s_bytes: 148,
            s2mm_bytes: 35_664,
            dma_transfers: 2,
            cache_lines: 600,
            fallbacks: 0,
            jobs: 1,
            core_busy_cycles: 14_296_900,
        };
        let note = "not benchmarked on the A9";
        r.entries.push(Entry {
            algorithm: "SLH-DSA-SHA2-192f".into(),
            operation: "sign".into(),
            software: None,
            measured_accel: None,
            measured_engine: None,
            host: None,
            accel: None,
            engine: Some(AccelFigure {
                counts,
                offload_fraction: 1.0,
                identical: true,
                backends: "HwSlhDsa (SLH-DSA engine)".into(),
            }),
            attempts: None,
            note: note.into(),
        });
        let e = r.entries.last().unwrap();
        let t = r.engine_time(e).unwrap().total();
        assert!(t > 14_297_296.0 / r.model.fclk_hz);
        let md = render_markdown(&r);
        let engine_row = md
            .lines()
            .find(|l| l.starts_with("| SLH-DSA-SHA2-192f | sign |") && l.contains("14,297,296"))
            .expect("engine row");
        assert!(
            engine_row.starts_with(&format!(
                "| SLH-DSA-SHA2-192f | sign | — | — | {} | — | — |",
                crate::report::fmt_seconds(t)
            )),
            "{engine_row}"
        );
        assert!(md
            .lines()
            .any(|l| l.starts_with("| SLH-DSA-SHA2-192f | sign | — |")
                && l.ends_with(&format!("{note} |"))));
        assert!(md.contains("ps-app does not benchmark SLH-DSA-SHA2-192f on the A9"));
        let rows = crate::report::json::rows(&r);
        let of_set = |tier: &str| {
            rows.iter()
                .filter(|x| x.algorithm == "SLH-DSA-SHA2-192f" && x.tier == tier)
                .count()
        };
        assert_eq!((of_set("engine"), of_set("sw-a9")), (1, 0));
        let chart = chart_of(&r);
        let bar = chart
            .groups
            .iter()
            .find(|g| g.label == "SLH-DSA-SHA2-192f sign")
            .expect("a bar group");
        assert_eq!(bar.values[0], None, "no software bar");
        assert!(bar.values.contains(&Some(t)));
    }

    /// An engine sign row shows its attempts in its table row, in the
    /// sentence that says which signature every tier timed, and in its
    /// JSON source; rows without attempts show none.
    #[test]
    fn engine_sign_rows_state_their_attempts() {
        let mut r = crate::report::fixtures::sample_report();
        let fig = AccelFigure {
            counts: AccelCounts {
                pl_cycles: 460_000,
                ..Default::default()
            },
            offload_fraction: 1.0,
            identical: true,
            backends: "HwMlDsa (ML-DSA engine)".into(),
        };
        let sign = r.entry_mut("ML-DSA-44", "sign").unwrap();
        sign.engine = Some(fig.clone());
        sign.attempts = Some(4.8125);
        r.entry_mut("ML-DSA-44", "verify").unwrap().engine = Some(fig);
        let md = render_markdown(&r);
        assert!(md.contains("| 460,000 | 0 | 4.81 |"), "{md}");
        assert!(md.contains("| 460,000 | 0 | — |"), "{md}");
        assert!(md.contains("Mean attempts per signature: ML-DSA-44 4.81 ("));
        // No engine CYCLES in the fixture: every PL cycle counts as bus.
        assert!(
            md.contains("Of ML-DSA-44's modelled signing time, the bus takes 100.0 % and the CPU's copies and cache work 0.0 %."),
            "{md}"
        );
        assert!(md.contains("FIPS 204 expects ML-DSA-44 4.25, ML-DSA-65 5.1, ML-DSA-87 3.85"));
        let rows = crate::report::json::rows(&r);
        let engine: Vec<_> = rows.iter().filter(|x| x.tier == "engine").collect();
        assert_eq!(engine.len(), 2);
        assert!(engine[0]
            .source
            .ends_with("; mean over the sign messages, 4.81 attempts per signature"));
        assert!(!engine[1].source.contains("attempts"));
    }

    #[test]
    fn the_pqm4_anchor_is_pqm4s_ml_dsa_44_row() {
        assert_eq!(PQM4[0].algorithm, ANCHORS[2].algorithm);
        assert_eq!(
            ANCHORS[2].seconds_of("sign"),
            Some(PQM4[0].sign as f64 / MCU_CLOCK_HZ)
        );
        assert_eq!(ANCHORS[1].seconds_of("keygen"), Some(4875.0 / 116e6));
        assert_eq!(ANCHORS[0].seconds_of("other"), None);
        // A figure the source does not give is no mark.
        assert_eq!(ANCHORS[4].seconds_of("keygen"), None);
        assert_eq!(ANCHORS[4].seconds_of("sign"), Some(1e-3));
    }
    use crate::report::fixtures::TRANSCRIPT;
    use crate::report::{chart_of, parse_transcript, render_markdown, render_svg};

    /// A board transcript's `engine` row is kept apart from the `hw` rows
    /// (measured engine time, listed under the engine table); an unknown
    /// backend is an error, not a silently overwritten figure.
    #[test]
    fn engine_rows_of_a_board_transcript_are_kept_apart() {
        let table = |backend: &str| {
            format!(
                "\n| algorithm            | op     | backend | iters | ticks (mean)  | peak stack (B) | result |\n\
                 |----------------------|--------|---------|-------|---------------|----------------|--------|\n\
                 | ML-DSA-44            | keygen | hw      |    10 |        200000 |          46000 | ok     |\n\
                 | ML-DSA-44            | keygen | {backend:<7} |    10 |         50000 |          46000 | ok     |\n\
                 accel: ntt ...\n"
            )
        };
        let text = TRANSCRIPT.replace(
            "stack: ML-DSA-87 sign",
            &format!("{}stack: ML-DSA-87 sign", table("engine")),
        );
        let t = parse_transcript(&text).unwrap();
        let mut r =
            Report::from_table(&t, SoftwareSource::ZedBoard, "board.txt", Model::DEFAULT).unwrap();
        let e = r.entry_mut("ML-DSA-44", "keygen").unwrap().clone();
        assert_eq!(e.measured_accel.as_ref().unwrap().mean_ticks, 200_000);
        assert_eq!(e.measured_engine.as_ref().unwrap().mean_ticks, 50_000);
        // 50,000 ticks = 100,000 cycles at 666.67 MHz = 150 µs.
        assert!((r.measured_engine_seconds(&e).unwrap() - 150e-6).abs() < 1e-9);
        r.entry_mut("ML-DSA-44", "keygen").unwrap().engine = Some(AccelFigure {
            counts: crate::cosim::AccelCounts::default(),
            offload_fraction: 1.0,
            identical: true,
            backends: "engine".into(),
        });
        assert!(render_markdown(&r).contains("(ps-app `engine` row): ML-DSA-44 keygen 150 µs"));
        let text = TRANSCRIPT.replace(
            "stack: ML-DSA-87 sign",
            &format!("{}stack: ML-DSA-87 sign", table("magic")),
        );
        let t = parse_transcript(&text).unwrap();
        let e = Report::from_table(&t, SoftwareSource::ZedBoard, "board.txt", Model::DEFAULT)
            .unwrap_err();
        assert!(e.contains("unknown backend `magic`"), "{e}");
    }

    /// A board transcript with the `hw` table after the software table.
    #[test]
    fn hw_table_rows_become_measured_accelerated_figures() {
        let hw = "\n| algorithm            | op     | backend | iters | ticks (mean)  | peak stack (B) | result |\n\
                  |----------------------|--------|---------|-------|---------------|----------------|--------|\n\
                  | ML-DSA-44            | sign   | hw      |    10 |        200000 |          46000 | ok     |\n\
                  accel: ntt ...\n";
        let text = TRANSCRIPT.replace(
            "stack: ML-DSA-87 sign",
            &format!("{hw}stack: ML-DSA-87 sign"),
        );
        let t = parse_transcript(&text).unwrap();
        assert_eq!(t.rows.len(), 22);
        assert_eq!(t.rows[21].backend, "hw");
        let r =
            Report::from_table(&t, SoftwareSource::ZedBoard, "board.txt", Model::DEFAULT).unwrap();
        assert_eq!(r.entries.len(), 21);
        let e = r
            .entries
            .iter()
            .find(|e| e.measured_accel.is_some())
            .unwrap();
        assert_eq!(
            (e.algorithm.as_str(), e.operation.as_str()),
            ("ML-DSA-44", "sign")
        );
        // ZedBoard: 200,000 ticks = 400,000 cycles at 666.67 MHz = 600 µs.
        let s = r.measured_accel_seconds(e).unwrap();
        assert!((s - 600e-6).abs() < 1e-9, "{s}");
        let md = render_markdown(&r);
        assert!(md.contains("accelerated (measured)"));
        assert!(md.contains("| 600 µs |"), "{md}");
        let svg = render_svg(&chart_of(&r));
        roxmltree::Document::parse(&svg).expect("well-formed XML");
        assert!(svg.contains("accelerated (measured on the board)"));
        // A hw row that failed (result differs from software) is refused.
        let bad = text.replace("|          46000 | ok     |", "|          46000 | FAIL   |");
        let e = Report::from_table(
            &parse_transcript(&bad).unwrap(),
            SoftwareSource::ZedBoard,
            "b",
            Model::DEFAULT,
        )
        .unwrap_err();
        assert!(e.contains("(hw) reported FAIL"), "{e}");
    }

    #[test]
    fn failing_rows_are_not_reported_as_timings() {
        let failed = TRANSCRIPT.replacen("| ok     |", "| FAIL   |", 1);
        let t = parse_transcript(&failed).unwrap();
        assert!(!t.rows[0].ok);
        let e =
            Report::from_table(&t, SoftwareSource::QemuIcount, "x", Model::DEFAULT).unwrap_err();
        assert!(e.contains("ML-DSA-44 keygen reported FAIL"), "{e}");
    }

    #[test]
    fn ticks_convert_per_source() {
        let m = Model::DEFAULT;
        // ZedBoard: 333.33 M ticks = 1 s.
        let s = m.software_seconds(SoftwareSource::ZedBoard, 333_333_333, 0);
        assert!((s - 1.0).abs() < 1e-6, "{s}");
        // QEMU: 1 tick = 10 instructions = 10 cycles at CPI 1.
        let s = m.software_seconds(SoftwareSource::QemuIcount, 66_666_667, 0);
        assert!((s - 1.0).abs() < 1e-6, "{s}");
        // Prescaler p divides the timer clock by p + 1.
        let s2 = m.software_seconds(SoftwareSource::ZedBoard, 1000, 1);
        assert!((s2 - 2.0 * m.software_seconds(SoftwareSource::ZedBoard, 1000, 0)).abs() < 1e-15);
    }

    #[test]
    fn accelerated_time_adds_its_modelled_parts() {
        let m = Model::DEFAULT;
        let a = AccelFigure {
            counts: AccelCounts {
                pl_cycles: 100_000,
                mm2s_bytes: 3000,
                s2mm_bytes: 1000,
                cache_lines: 100,
                ..Default::default()
            },
            offload_fraction: 0.75,
            identical: true,
            backends: "HwRing".into(),
        };
        let t = m.accelerated(0.004, &a);
        assert!((t.cpu_rest - 0.001).abs() < 1e-12);
        // 100,000 PL cycles at FCLK0 = 125,000,000 Hz (8 ns each).
        let pl = 100_000.0 / 125_000_000.0;
        assert!((t.pl - pl).abs() < 1e-12);
        let protocol = (4000.0 + 100.0 * 40.0) / m.cpu_hz;
        assert!((t.protocol - protocol).abs() < 1e-15);
        assert!((t.total() - (0.001 + pl + protocol)).abs() < 1e-12);
    }

    #[test]
    fn the_pl_clock_is_the_lower_of_fclk0_and_the_slowest_top() {
        let md = "| design | cell | levels | nets | period | est. Fmax (MHz) | start | end |\n\
                  | `ntt_accel` | 4.13 | 10 | 6 | 6.83 | 146 | a | b |\n\
                  | `keccak_accel` | 3.03 | 9 | 5 | 5.3 | 151 | a | b |\n";
        let fmax = slowest_top_fmax_mhz(md, &["ntt_accel", "keccak_accel"]).unwrap();
        assert_eq!(fmax, 146.0);
        assert_eq!(
            Model::DEFAULT.with_pl_clock_limit(fmax * 1e6).fclk_hz,
            125_000_000.0
        );
        assert_eq!(Model::DEFAULT.with_pl_clock_limit(90e6).fclk_hz, 90e6);
        assert_eq!(slowest_top_fmax_mhz(md, &["ntt_accel", "missing"]), None);
        // The committed estimate parses.
        let committed = include_str!("../../../bitstream/reports/timing.md");
        assert!(slowest_top_fmax_mhz(committed, &["ntt_accel", "keccak_accel"]).is_some());
    }
}
