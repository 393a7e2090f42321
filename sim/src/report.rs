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
//!   co-simulation counts (Verilator or rust-hdl; identical) (PL cycles at FCLK0, AXI-Lite transactions, DMA
//!   bytes) and the CPU-side model in [`Model`].

use std::fmt::{self, Write as _};

/// Where a ps-app transcript came from; decides how ticks become time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftwareSource {
    /// QEMU `xilinx-zynq-a9` with `-icount shift=0` (scripts/qemu.sh).
    QemuIcount,
    /// A ZedBoard (Cortex-A9 at 666.67 MHz).
    ZedBoard,
}

impl SoftwareSource {
    /// Parses `qemu` or `zedboard`.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "qemu" => Ok(Self::QemuIcount),
            "zedboard" => Ok(Self::ZedBoard),
            other => Err(format!(
                "unknown software source `{other}` (expected qemu or zedboard)"
            )),
        }
    }

    /// How figures from this source are labelled in the report.
    pub fn label(self) -> &'static str {
        match self {
            Self::QemuIcount => "QEMU icount (instructions, modelled as A9 time)",
            Self::ZedBoard => "ZedBoard (measured)",
        }
    }
}

/// One row of the ps-app benchmark table.
#[derive(Clone, Debug, PartialEq)]
pub struct PsRow {
    /// Parameter set, e.g. `ML-DSA-44`.
    pub algorithm: String,
    /// `keygen`, `sign` or `verify`.
    pub operation: String,
    /// `sw` or `hw`.
    pub backend: String,
    /// Iterations averaged.
    pub iterations: u32,
    /// Mean global-timer ticks per call.
    pub mean_ticks: u64,
    /// Peak stack in bytes, if the platform measured it.
    pub peak_stack: Option<u64>,
    /// The row reported `ok` (every call succeeded).
    pub ok: bool,
}

/// The benchmark table of one ps-app transcript.
#[derive(Clone, Debug, PartialEq)]
pub struct PsTable {
    /// Global-timer prescaler from the `timer:` line.
    pub prescaler: u32,
    /// The rows in printed order.
    pub rows: Vec<PsRow>,
}

/// Why a transcript could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number (0: the transcript as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "ps-app transcript: {}", self.message)
        } else {
            write!(f, "ps-app transcript line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// The header cells ps-app prints (ps-app/src/bench.rs, `print_header`).
const HEADER: [&str; 7] = [
    "algorithm",
    "op",
    "backend",
    "iters",
    "ticks (mean)",
    "peak stack (B)",
    "result",
];

fn cells(line: &str) -> Option<Vec<&str>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// Parses the benchmark table and the timer prescaler out of a ps-app
/// console transcript (QEMU or board; serial noise around it is ignored).
pub fn parse_transcript(text: &str) -> Result<PsTable, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let prescaler = lines
        .iter()
        .find_map(|l| {
            let rest = l.trim().strip_prefix("timer:")?;
            let after = rest.split("prescaler").nth(1)?;
            let digits: String = after
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            Some(digits.parse::<u32>().map_err(|_| rest.to_string()))
        })
        .ok_or_else(|| {
            err(
                0,
                "no `timer: ... prescaler N` line: ticks cannot be converted to time",
            )
        })?
        .map_err(|line| err(0, format!("unreadable prescaler in timer line `{line}`")))?;

    let headers: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| cells(l).is_some_and(|c| c.first() == Some(&"algorithm")))
        .map(|(i, _)| i)
        .collect();
    if headers.is_empty() {
        return Err(err(
            0,
            "no benchmark table (no `| algorithm | op | ...` header)",
        ));
    }
    // ps-app prints the software table, then (with the PL present) the
    // `hw` table in the same format.
    let mut rows = Vec::new();
    for header_at in headers {
        rows.extend(parse_table(&lines, header_at)?);
    }
    Ok(PsTable { prescaler, rows })
}

/// The rows of the table whose header is line `header_at` (0-based).
fn parse_table(lines: &[&str], header_at: usize) -> Result<Vec<PsRow>, ParseError> {
    let header = cells(lines[header_at]).unwrap_or_default();
    if header != HEADER {
        return Err(err(
            header_at + 1,
            format!("unexpected table header {header:?}, expected {HEADER:?}"),
        ));
    }
    let separator = lines.get(header_at + 1).copied().unwrap_or("");
    if !separator.trim().starts_with("|--") {
        return Err(err(
            header_at + 2,
            "missing `|---|` separator under the header",
        ));
    }

    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(header_at + 2) {
        let n = i + 1;
        if !line.trim_start().starts_with('|') {
            break;
        }
        let c = cells(line).ok_or_else(|| err(n, "table row does not end with `|`"))?;
        if c.len() != HEADER.len() {
            return Err(err(
                n,
                format!("{} cells, expected {}", c.len(), HEADER.len()),
            ));
        }
        let number = |what: &str, s: &str| {
            s.parse::<u64>()
                .map_err(|_| err(n, format!("{what} `{s}` is not a decimal number")))
        };
        let iterations = u32::try_from(number("iterations", c[3])?)
            .map_err(|_| err(n, "iteration count out of range"))?;
        if iterations == 0 {
            return Err(err(n, "zero iterations"));
        }
        let peak_stack = match c[5] {
            "n/a" => None,
            s => Some(number("peak stack", s)?),
        };
        let ok = match c[6] {
            "ok" => true,
            "FAIL" => false,
            other => return Err(err(n, format!("result `{other}` is neither ok nor FAIL"))),
        };
        if c[0].is_empty() || c[1].is_empty() || c[2].is_empty() {
            return Err(err(n, "empty algorithm, op or backend cell"));
        }
        rows.push(PsRow {
            algorithm: c[0].to_string(),
            operation: c[1].to_string(),
            backend: c[2].to_string(),
            iterations,
            mean_ticks: number("ticks", c[4])?,
            peak_stack,
            ok,
        });
    }
    if rows.is_empty() {
        return Err(err(header_at + 1, "benchmark table has no rows"));
    }
    Ok(rows)
}

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

impl Model {
    /// The model used for the committed report.
    pub const DEFAULT: Model = Model {
        cpu_hz: 666.666_667e6,
        fclk_hz: 100e6,
        qemu_timer_hz: 100e6,
        qemu_instructions_per_s: 1e9,
        cycles_per_instruction: 1.0,
        axi_lite_cycles: 20,
        copy_cycles_per_byte: 1.0,
        cache_cycles_per_line: 40.0,
    };

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

/// What the co-simulation counted for one operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccelCounts {
    /// PL clock cycles the CPU spent waiting on the PL: every AXI-Lite
    /// access (padded to [`Model::axi_lite_cycles`]) including status
    /// polls, which cover DMA streaming and core busy time.
    pub pl_cycles: u64,
    /// AXI-Lite reads (control windows and DMA registers).
    pub axi_lite_reads: u64,
    /// AXI-Lite writes.
    pub axi_lite_writes: u64,
    /// Bytes the DMA engines read from DDR into the cores (MM2S).
    pub mm2s_bytes: u64,
    /// Bytes the DMA engines wrote from the cores to DDR (S2MM).
    pub s2mm_bytes: u64,
    /// Started MM2S transfers.
    pub dma_transfers: u64,
    /// Cache lines cleaned or invalidated around the transfers.
    pub cache_lines: u64,
    /// Backend calls that fell back to software after a fault (must be 0).
    pub fallbacks: u64,
    /// Core jobs (LOAD, NTT, SPONGE, …) run.
    pub jobs: u64,
    /// Sum of the cores' `CYCLES` registers: cycles the cores computed.
    pub core_busy_cycles: u64,
}

impl AccelCounts {
    /// Element-wise sum.
    pub fn add(&mut self, o: &AccelCounts) {
        self.pl_cycles += o.pl_cycles;
        self.axi_lite_reads += o.axi_lite_reads;
        self.axi_lite_writes += o.axi_lite_writes;
        self.mm2s_bytes += o.mm2s_bytes;
        self.s2mm_bytes += o.s2mm_bytes;
        self.dma_transfers += o.dma_transfers;
        self.cache_lines += o.cache_lines;
        self.fallbacks += o.fallbacks;
        self.jobs += o.jobs;
        self.core_busy_cycles += o.core_busy_cycles;
    }

    /// All AXI-Lite transactions.
    pub fn axi_lite(&self) -> u64 {
        self.axi_lite_reads + self.axi_lite_writes
    }

    /// All DMA bytes, both directions.
    pub fn dma_bytes(&self) -> u64 {
        self.mm2s_bytes + self.s2mm_bytes
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
    /// Host software median (seconds) and runs, measured in this run.
    pub host: Option<(f64, usize)>,
    /// Accelerated figure from the co-simulation.
    pub accel: Option<AccelFigure>,
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
    /// Rows in order.
    pub entries: Vec<Entry>,
    /// Operations co-simulated although the transcript has no row for
    /// them (parameter sets ps-app does not benchmark): PL counts only.
    pub cosim_only: Vec<CosimOnly>,
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
                host: None,
                accel: None,
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
            entry.measured_accel = Some(row.clone());
        }
        Ok(Report {
            source,
            prescaler: table.prescaler,
            transcript: transcript.to_string(),
            host: String::new(),
            model,
            engine: "Verilator".into(),
            entries,
            cosim_only: Vec::new(),
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

    /// Modelled accelerated time of an entry (needs its software time for
    /// the CPU share that stays in software).
    pub fn accel_time(&self, e: &Entry) -> Option<AccelTime> {
        Some(
            self.model
                .accelerated(self.software_seconds(e)?, e.accel.as_ref()?),
        )
    }
}

/// Human time with three significant digits.
pub fn fmt_seconds(s: f64) -> String {
    let (v, unit) = if s >= 1.0 {
        (s, "s")
    } else if s >= 1e-3 {
        (s * 1e3, "ms")
    } else {
        (s * 1e6, "µs")
    };
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {unit}")
}

/// Integer with thousands separators.
pub fn fmt_count(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Renders `report.md`.
pub fn render_markdown(r: &Report) -> String {
    let m = &r.model;
    let mut o = String::new();
    let _ = writeln!(o, "# Software vs accelerated timing (Zynq-7000)\n");
    let _ = writeln!(
        o,
        "Generated by `pqc-zynq report` (sim/src/report.rs). Chart: [report.svg](report.svg).\n"
    );
    let _ = writeln!(o, "## Where each figure comes from\n");
    match r.source {
        SoftwareSource::QemuIcount => {
            let _ = writeln!(
                o,
                "- **Software, Cortex-A9 — QEMU-derived, not board time.** Mean global-timer ticks of the \
                 ps-app benchmark table in `{}` (QEMU `xilinx-zynq-a9`, `-icount shift=0`, prescaler {}). \
                 Under icount a tick is {} guest instructions, so these count instructions; they are turned \
                 into A9 time at an assumed {} cycle(s) per instruction and {:.2} MHz. A real A9 \
                 (dual-issue, cache misses) will differ.",
                r.transcript,
                r.prescaler,
                m.qemu_instructions_per_s / m.qemu_timer_hz,
                m.cycles_per_instruction,
                m.cpu_hz / 1e6
            );
        }
        SoftwareSource::ZedBoard => {
            let _ = writeln!(
                o,
                "- **Software, Cortex-A9 — measured on a ZedBoard.** Mean global-timer ticks of the ps-app \
                 table in `{}` (prescaler {}): 1 tick = 2 CPU cycles at {:.2} MHz.",
                r.transcript,
                r.prescaler,
                m.cpu_hz / 1e6
            );
        }
    }
    if !r.host.is_empty() {
        let _ = writeln!(
            o,
            "- **Software, host — measured** with `std::time` in this run ({}), same inputs; \
             for scale only, a different CPU.",
            r.host
        );
    }
    let _ = writeln!(
        o,
        "- **Accelerated — modelled from cycle-accurate simulation, not measured on a board.** The unmodified \
         driver backends (`driver::accel::HwRing`/`HwKeccak`) run against the {} simulation of the \
         AXI tops (`hdl::axi`; both engines give identical counts) with a PG021 simple-mode DMA model and a DDR model (`sim/src/cosim.rs`), \
         same inputs as ps-app; the output is checked byte-identical to software. Time = CPU share left in \
         software + CPU blocked on the PL + driver work:\n\
         \x20 - CPU share left in software = (1 − offloaded share) × the software A9 time above. The \
         offloaded share is host-measured: the co-simulation records, call by call, which backend calls \
         touched the PL; the host replays the same call sequence on the software backends and times those \
         calls against the whole operation (x86 proportions stand in for the A9's);\n\
         \x20 - CPU blocked on the PL = PL cycles / {:.0} MHz (FCLK0). The co-simulation clocks the design \
         {} cycles per AXI-Lite access (GP0 round trip, every status poll included), so DMA streaming \
         (one 32-bit word per cycle, 4 bytes/cycle at most) and core busy time are covered by the polls. \
         DDR latency of the DMA is not modelled;\n\
         \x20 - driver work = DMA bytes × {} CPU cycle(s)/byte (packing) + cache lines × {} CPU cycles \
         (L1 + PL310 maintenance), at {:.2} MHz.",
        r.engine,
        m.fclk_hz / 1e6,
        m.axi_lite_cycles,
        m.copy_cycles_per_byte,
        m.cache_cycles_per_line,
        m.cpu_hz / 1e6
    );
    let measured = r.entries.iter().any(|e| e.measured_accel.is_some());
    if measured {
        let _ = writeln!(
            o,
            "- **Accelerated — measured**: the ps-app `hw` table of the same transcript (HwRing/HwKeccak on the \
             PL; each row checked byte-identical to software by ps-app)."
        );
    }
    let _ = writeln!(o, "\n## Per operation\n");
    let _ = writeln!(
        o,
        "| algorithm | op | software A9 ({}) | host software (measured) |{} accelerated (modelled) | speed-up | PL cycles | AXI-Lite | DMA bytes | output = software |",
        match r.source {
            SoftwareSource::QemuIcount => "QEMU-derived",
            SoftwareSource::ZedBoard => "ZedBoard",
        },
        if measured { " accelerated (measured) |" } else { "" }
    );
    let _ = writeln!(
        o,
        "|---|---|---:|---:|{}---:|---:|---:|---:|---:|---|",
        if measured { "---:|" } else { "" }
    );
    for e in &r.entries {
        let sw = r
            .software_seconds(e)
            .map(fmt_seconds)
            .unwrap_or_else(|| "—".into());
        let host = e
            .host
            .map(|(s, _)| fmt_seconds(s))
            .unwrap_or_else(|| "—".into());
        let (acc, ratio) = match (r.accel_time(e), r.software_seconds(e)) {
            (Some(t), Some(sw)) => (fmt_seconds(t.total()), format!("{:.2}×", sw / t.total())),
            _ => ("—".into(), "—".into()),
        };
        let (pl, axi, dma, same) = match &e.accel {
            Some(a) => (
                fmt_count(a.counts.pl_cycles),
                fmt_count(a.counts.axi_lite()),
                fmt_count(a.counts.dma_bytes()),
                if a.identical { "yes" } else { "**NO**" }.to_string(),
            ),
            None => ("—".into(), "—".into(), "—".into(), e.note.clone()),
        };
        let meas = if measured {
            let v = r
                .measured_accel_seconds(e)
                .map(fmt_seconds)
                .unwrap_or_else(|| "—".into());
            format!(" {v} |")
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "| {} | {} | {sw} | {host} |{meas} {acc} | {ratio} | {pl} | {axi} | {dma} | {same} |",
            e.algorithm, e.operation
        );
    }
    let accel: Vec<&Entry> = r.entries.iter().filter(|e| e.accel.is_some()).collect();
    if accel.is_empty() {
        let _ = writeln!(
            o,
            "\nNo accelerated rows: the co-simulation was not run (or not available) for this report."
        );
    } else {
        let _ = writeln!(o, "\n## Accelerated time, broken down (modelled)\n");
        let _ = writeln!(
            o,
            "| algorithm | op | backends | offloaded share | CPU left in software | CPU blocked on PL | driver work | total | core jobs | core busy cycles | AXI-Lite reads / writes | DMA in / out bytes | DMA transfers | cache lines | faults |"
        );
        let _ = writeln!(
            o,
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for e in accel {
            let a = e.accel.as_ref().expect("filtered");
            let t = r.accel_time(e);
            let part = |f: fn(&AccelTime) -> f64| t.as_ref().map(f).map(fmt_seconds);
            let dash = || "—".to_string();
            let c = &a.counts;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {:.1} % | {} | {} | {} | {} | {} | {} | {} / {} | {} / {} | {} | {} | {} |",
                e.algorithm,
                e.operation,
                a.backends,
                a.offload_fraction * 100.0,
                part(|t| t.cpu_rest).unwrap_or_else(dash),
                part(|t| t.pl).unwrap_or_else(dash),
                part(|t| t.protocol).unwrap_or_else(dash),
                part(AccelTime::total).unwrap_or_else(dash),
                fmt_count(c.jobs),
                fmt_count(c.core_busy_cycles),
                fmt_count(c.axi_lite_reads),
                fmt_count(c.axi_lite_writes),
                fmt_count(c.mm2s_bytes),
                fmt_count(c.s2mm_bytes),
                fmt_count(c.dma_transfers),
                fmt_count(c.cache_lines),
                c.fallbacks
            );
        }
    }
    let notes: Vec<&Entry> = r
        .entries
        .iter()
        .filter(|e| e.accel.is_some() && !e.note.is_empty())
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(o, "\nNotes:\n");
        for e in notes {
            let _ = writeln!(o, "- {} {}: {}", e.algorithm, e.operation, e.note);
        }
    }
    if !r.cosim_only.is_empty() {
        let _ = writeln!(
            o,
            "\n## Co-simulated sets without a software row\n\n\
             The transcript has no row for these sets (ps-app does not benchmark them), so there is \
             no A9 time and no speed-up; the co-simulation ran them all the same (ps-app's inputs, \
             output checked against software). PL time = PL cycles / {:.0} MHz.\n",
            m.fclk_hz / 1e6
        );
        let _ = writeln!(
            o,
            "| algorithm | op | PL cycles | PL time | AXI-Lite reads / writes | DMA bytes | jobs | output = software |"
        );
        let _ = writeln!(o, "|---|---|---:|---:|---:|---:|---:|---|");
        for c in &r.cosim_only {
            let n = &c.counts;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} / {} | {} | {} | {} |",
                c.algorithm,
                c.operation,
                fmt_count(n.pl_cycles),
                fmt_seconds(n.pl_cycles as f64 / m.fclk_hz),
                fmt_count(n.axi_lite_reads),
                fmt_count(n.axi_lite_writes),
                fmt_count(n.dma_bytes()),
                fmt_count(n.jobs),
                if c.identical { "yes" } else { "**no**" }
            );
        }
    }
    o
}

/// Escapes text for XML content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c => o.push(c),
        }
    }
    o
}

/// One group of bars: a label and one optional value per series.
#[derive(Clone, Debug, PartialEq)]
pub struct BarGroup {
    /// Shown under the group.
    pub label: String,
    /// One value per series (seconds); `None` leaves a gap.
    pub values: Vec<Option<f64>>,
    /// Written above the group's tallest bar (e.g. the speed-up).
    pub annotation: Option<String>,
}

/// A grouped bar chart (values in seconds, positive).
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Title line.
    pub title: String,
    /// Series names (legend), one colour each.
    pub series: Vec<String>,
    /// The groups, left to right.
    pub groups: Vec<BarGroup>,
    /// Lines printed under the chart (provenance).
    pub footnotes: Vec<String>,
}

/// An axis label: `fmt_seconds` without trailing zero decimals.
fn fmt_tick(v: f64) -> String {
    let s = fmt_seconds(v);
    let (num, unit) = s.split_once(' ').unwrap_or((&s, ""));
    let num = if num.contains('.') {
        num.trim_end_matches('0').trim_end_matches('.')
    } else {
        num
    };
    format!("{num} {unit}")
}

const COLOURS: [&str; 4] = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759"];

/// Renders a chart as a standalone SVG document. The value axis is
/// logarithmic when the values span more than a factor of 20.
pub fn render_svg(chart: &Chart) -> String {
    let values: Vec<f64> = chart
        .groups
        .iter()
        .flat_map(|g| g.values.iter().flatten().copied())
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let (lo, hi) = values.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    let log = !values.is_empty() && hi / lo > 20.0;

    let (left, right, top) = (90.0, 20.0, 60.0);
    let bottom = 170.0 + 16.0 * chart.footnotes.len() as f64;
    let bar_w = 14.0;
    let n_series = chart.series.len().max(1) as f64;
    let group_w = bar_w * n_series + 16.0;
    let plot_w = (group_w * chart.groups.len().max(1) as f64).max(300.0);
    let plot_h = 360.0;
    // Wide enough for the footnotes (about 5.8 px per character at 10 px).
    let footnote_w = chart
        .footnotes
        .iter()
        .map(|f| 20.0 + 5.8 * f.chars().count() as f64)
        .fold(0.0, f64::max);
    let (width, height) = (
        (left + plot_w + right).max(footnote_w),
        top + plot_h + bottom,
    );

    // Axis range and ticks (values in µs for labels).
    let (axis_lo, axis_hi, ticks): (f64, f64, Vec<f64>) = if values.is_empty() {
        (0.0, 1.0, vec![0.0, 1.0])
    } else if log {
        let a = lo.log10().floor() as i32;
        let b = hi.log10().ceil() as i32;
        let b = if b == a { a + 1 } else { b };
        (
            10f64.powi(a),
            10f64.powi(b),
            (a..=b).map(|e| 10f64.powi(e)).collect(),
        )
    } else {
        let step = nice_step(hi / 5.0);
        let top_v = (hi / step).ceil() * step;
        let n = (top_v / step).round() as usize;
        (0.0, top_v, (0..=n).map(|i| i as f64 * step).collect())
    };
    let y_of = |v: f64| -> f64 {
        let frac = if log {
            (v.log10() - axis_lo.log10()) / (axis_hi.log10() - axis_lo.log10())
        } else {
            (v - axis_lo) / (axis_hi - axis_lo)
        };
        top + plot_h - frac.clamp(0.0, 1.0) * plot_h
    };

    let mut s = String::new();
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="white"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        width / 2.0,
        xml_escape(&chart.title)
    );
    // Grid lines and value labels.
    for &t in &ticks {
        let y = y_of(t);
        let _ = writeln!(
            s,
            r##"<line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/>"##,
            left + plot_w
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y + 4.0,
            xml_escape(&fmt_tick(t))
        );
    }
    // Axes.
    let _ = writeln!(
        s,
        r#"<line x1="{left:.1}" y1="{top:.1}" x2="{left:.1}" y2="{:.1}" stroke="black"/>"#,
        top + plot_h
    );
    let _ = writeln!(
        s,
        r#"<line x1="{left:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black"/>"#,
        top + plot_h,
        left + plot_w,
        top + plot_h
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">time per operation{}</text>"#,
        top + plot_h / 2.0,
        if log { " (log scale)" } else { "" }
    );
    // Bars.
    for (gi, g) in chart.groups.iter().enumerate() {
        let gx = left + gi as f64 * group_w + 8.0;
        for (si, v) in g.values.iter().enumerate() {
            let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) else {
                continue;
            };
            let x = gx + si as f64 * bar_w;
            let y = y_of(v);
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {}</title></rect>"#,
                bar_w - 2.0,
                (top + plot_h - y).max(0.5),
                COLOURS[si % COLOURS.len()],
                xml_escape(&format!(
                    "{} — {}",
                    g.label,
                    chart.series.get(si).map_or("", |s| s)
                )),
                xml_escape(&fmt_seconds(v))
            );
        }
        if let Some(text) = &g.annotation {
            let tallest = g
                .values
                .iter()
                .flatten()
                .filter(|v| v.is_finite() && **v > 0.0)
                .fold(0.0f64, |a, &b| a.max(b));
            if tallest > 0.0 {
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="10">{}</text>"#,
                    gx + bar_w * n_series / 2.0 - 1.0,
                    y_of(tallest) - 4.0,
                    xml_escape(text)
                );
            }
        }
        let lx = gx + bar_w * n_series / 2.0;
        let ly = top + plot_h + 12.0;
        let _ = writeln!(
            s,
            r#"<text transform="translate({lx:.1},{ly:.1}) rotate(-50)" text-anchor="end">{}</text>"#,
            xml_escape(&g.label)
        );
    }
    // Legend.
    for (si, name) in chart.series.iter().enumerate() {
        let y = 36.0;
        let x = left + si as f64 * (plot_w / n_series);
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="12" height="12" fill="{}"/>"#,
            y,
            COLOURS[si % COLOURS.len()]
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            x + 16.0,
            y + 10.0,
            xml_escape(name)
        );
    }
    for (i, line) in chart.footnotes.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="10" y="{:.1}" font-size="10">{}</text>"#,
            height - 10.0 - 16.0 * (chart.footnotes.len() - 1 - i) as f64,
            xml_escape(line)
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

/// The report's chart: software A9 and accelerated time per operation
/// (the operations with both figures; every software row if none has an
/// accelerated figure), the speed-up above each pair.
pub fn chart_of(r: &Report) -> Chart {
    let m = &r.model;
    let (sw_name, sw_note) = match r.source {
        SoftwareSource::QemuIcount => (
            "software, Cortex-A9 (QEMU-derived)",
            format!(
                "Software: QEMU -icount instruction counts of the ps-app table at {} cycle/instruction, {:.2} MHz: not board time.",
                m.cycles_per_instruction,
                m.cpu_hz / 1e6
            ),
        ),
        SoftwareSource::ZedBoard => (
            "software, Cortex-A9 (ZedBoard)",
            "Software: measured on a ZedBoard (global timer).".to_string(),
        ),
    };
    let with_accel = r.entries.iter().any(|e| r.accel_time(e).is_some());
    let measured = r.entries.iter().any(|e| e.measured_accel.is_some());
    let mut series = vec![
        sw_name.to_string(),
        "accelerated (modelled from co-simulation)".to_string(),
    ];
    if measured {
        series.push("accelerated (measured on the board)".into());
    }
    Chart {
        title: "ML-DSA / SLH-DSA on the Zynq-7000: software vs PL-accelerated (modelled)".into(),
        series,
        groups: r
            .entries
            .iter()
            .filter(|e| !with_accel || r.accel_time(e).is_some() || e.measured_accel.is_some())
            .map(|e| {
                let sw = r.software_seconds(e);
                let acc = r.accel_time(e).map(|t| t.total());
                let mut values = vec![sw, acc];
                if measured {
                    values.push(r.measured_accel_seconds(e));
                }
                BarGroup {
                    label: format!("{} {}", e.algorithm, e.operation),
                    values,
                    annotation: sw.zip(acc).map(|(s, a)| format!("{:.1}×", s / a)),
                }
            })
            .collect(),
        footnotes: vec![
            sw_note,
            format!(
                "Accelerated: PL cycles of the {} co-simulation at {:.0} MHz + CPU share left in software + driver work (model in report.md), not measured on a board.",
                r.engine,
                m.fclk_hz / 1e6
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verbatim ps-app transcript (QEMU, commit e6bf477, README).
    const TRANSCRIPT: &str = include_str!("../testdata/qemu-ps-app-e6bf477.txt");

    #[test]
    fn parses_a_captured_qemu_transcript() {
        let t = parse_transcript(TRANSCRIPT).unwrap();
        assert_eq!(t.prescaler, 0);
        assert_eq!(t.rows.len(), 21);
        assert_eq!(
            t.rows[1],
            PsRow {
                algorithm: "ML-DSA-44".into(),
                operation: "sign".into(),
                backend: "sw".into(),
                iterations: 10,
                mean_ticks: 522830,
                peak_stack: Some(46556),
                ok: true,
            }
        );
        let last = t.rows.last().unwrap();
        assert_eq!(
            (
                last.algorithm.as_str(),
                last.operation.as_str(),
                last.mean_ticks
            ),
            ("SLH-DSA-SHA2-128s", "verify", 598057)
        );
    }

    #[test]
    fn malformed_transcripts_give_a_clear_error() {
        let no_timer = TRANSCRIPT.replace("timer:", "tiemr:");
        let e = parse_transcript(&no_timer).unwrap_err();
        assert!(e.message.contains("prescaler"), "{e}");

        let e = parse_transcript("timer: prescaler 0\nnothing else\n").unwrap_err();
        assert!(e.to_string().contains("no benchmark table"), "{e}");

        let bad_ticks = TRANSCRIPT.replace("522830", "52x830");
        let e = parse_transcript(&bad_ticks).unwrap_err();
        assert!(e.message.contains("`52x830` is not a decimal"), "{e}");
        assert_eq!(e.line, 33);
        assert!(e.to_string().starts_with("ps-app transcript line 33:"));

        let missing_cell = TRANSCRIPT.replace("|          46556 |", "|");
        let e = parse_transcript(&missing_cell).unwrap_err();
        assert!(e.message.contains("6 cells, expected 7"), "{e}");

        let truncated: String = TRANSCRIPT
            .lines()
            .take_while(|l| !l.starts_with("|-"))
            .map(|l| format!("{l}\n"))
            .collect();
        let e = parse_transcript(&truncated).unwrap_err();
        assert!(e.message.contains("separator"), "{e}");

        let weird = TRANSCRIPT.replacen("| ok     |", "| maybe  |", 1);
        assert!(parse_transcript(&weird)
            .unwrap_err()
            .message
            .contains("neither ok nor FAIL"));
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
        assert!((t.pl - 0.001).abs() < 1e-12);
        let protocol = (4000.0 + 100.0 * 40.0) / m.cpu_hz;
        assert!((t.protocol - protocol).abs() < 1e-15);
        assert!((t.total() - (0.002 + protocol)).abs() < 1e-12);
    }

    fn sample_report() -> Report {
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

    #[test]
    fn markdown_has_a_row_per_operation_with_provenance() {
        let r = sample_report();
        let md = render_markdown(&r);
        assert!(md.contains("QEMU-derived, not board time"));
        assert!(md.contains("modelled from cycle-accurate simulation"));
        let row = md
            .lines()
            .find(|l| l.starts_with("| ML-DSA-44 | sign |"))
            .unwrap();
        // 522830 ticks = 5.2283 M instructions = 7.84 ms at CPI 1, 666.67 MHz.
        assert!(row.contains("7.84 ms"), "{row}");
        assert!(row.contains("200,000") && row.contains("2,000") && row.contains("70,000"));
        assert!(md.contains("| SLH-DSA-SHA2-128f | sign |"));
        assert!(md.contains("no SHA-2 core"));
        assert_eq!(
            md.lines()
                .filter(|l| l.starts_with("| ML-DSA-44 |"))
                .count(),
            4
        );
    }

    /// Well-formedness and content of the chart, read back with an XML parser.
    #[test]
    fn svg_is_well_formed_and_has_every_bar_and_label() {
        let r = sample_report();
        let svg = render_svg(&chart_of(&r));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let bars = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.children().any(|c| c.has_tag_name("title")))
            .count();
        // Only the operation with both figures: two bars, and its speed-up.
        assert_eq!(bars, 2);
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(str::to_string))
            .collect();
        assert!(!texts.iter().any(|t| t == "ML-DSA-44 keygen"));
        assert!(texts.iter().any(|t| t == "ML-DSA-44 sign"));
        assert!(texts.iter().any(|t| t.ends_with('×')));
        assert!(texts.iter().any(|t| t.contains("not board time")));
        // Without accelerated figures every software row is drawn, on a
        // log axis (they span 10^4).
        let mut sw_only = r.clone();
        sw_only.entries.iter_mut().for_each(|e| e.accel = None);
        let svg = render_svg(&chart_of(&sw_only));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let bars = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.children().any(|c| c.has_tag_name("title")))
            .count();
        assert_eq!(bars, 21);
        assert!(svg.contains("log scale"));
        assert!(texts.iter().any(|t| t.contains("accelerated (modelled")));
        // Escaping: a label with markup characters survives the round trip.
        let chart = Chart {
            title: "a < b & \"c\"".into(),
            series: vec!["s".into()],
            groups: vec![BarGroup {
                label: "<x>".into(),
                values: vec![Some(1e-3)],
                annotation: Some("a&b".into()),
            }],
            footnotes: vec!["<note>".into()],
        };
        let svg = render_svg(&chart);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        assert!(doc.descendants().any(|n| n.text() == Some("a < b & \"c\"")));
        assert!(doc.descendants().any(|n| n.text() == Some("<x>")));
        assert!(doc.descendants().any(|n| n.text() == Some("a&b")));
        assert!(doc.descendants().any(|n| n.text() == Some("<note>")));
    }

    #[test]
    fn linear_axis_for_close_values_and_bars_scale() {
        let chart = Chart {
            title: "t".into(),
            series: vec!["a".into(), "b".into()],
            groups: vec![BarGroup {
                label: "g".into(),
                values: vec![Some(2e-3), Some(1e-3)],
                annotation: None,
            }],
            footnotes: vec![],
        };
        let svg = render_svg(&chart);
        assert!(!svg.contains("log scale"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let heights: Vec<f64> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.children().any(|c| c.has_tag_name("title")))
            .map(|n| n.attribute("height").unwrap().parse().unwrap())
            .collect();
        assert_eq!(heights.len(), 2);
        assert!((heights[0] / heights[1] - 2.0).abs() < 0.01, "{heights:?}");
    }

    #[test]
    fn counts_format_with_separators() {
        assert_eq!(fmt_count(0), "0");
        assert_eq!(fmt_count(999), "999");
        assert_eq!(fmt_count(1000), "1,000");
        assert_eq!(fmt_count(1234567), "1,234,567");
        assert_eq!(fmt_seconds(0.00784), "7.84 ms");
        assert_eq!(fmt_seconds(12.5), "12.5 s");
        assert_eq!(fmt_tick(10.0), "10 s");
        assert_eq!(fmt_tick(1e-3), "1 ms");
        assert_eq!(fmt_tick(2.5e-3), "2.5 ms");
        assert_eq!(fmt_tick(100e-6), "100 µs");
    }
}
