//! `pqc-zynq report`: gathers the figures (ps-app transcript, host
//! measurements, co-simulation) into a [`Report`] and writes
//! `report.md` and `report.svg`.

use std::path::{Path, PathBuf};

use crate::cosim::{self, Config, Pl};
use crate::progress::Progress;
use crate::report::{self, AccelFigure, Entry, Model, Report, SoftwareSource};
use crate::workload::{self, Operation, PlCalls, Scheme};
use ps_pl_contract::regmap::slhdsa::ENGINES_CONFIG;

/// Which operations the co-simulation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CosimSet {
    /// None: software rows only.
    None,
    /// Every ML-DSA operation and every SLH-DSA-SHAKE operation, the `s`
    /// sets included, on the primitive offload; the engine tier of every
    /// set the engines offer but [`SLOW_ENGINE_SETS`].
    Default,
    /// As `Default`, and the engine tier of [`SLOW_ENGINE_SETS`] too.
    Full,
}

/// The SLH-DSA sets whose engine rows only `--cosim full` runs: signing
/// is 333 and 314 million clocks, 17 to 29 min of Verilator each here.
pub const SLOW_ENGINE_SETS: [&str; 2] = ["SLH-DSA-SHA2-192s", "SLH-DSA-SHA2-256s"];

/// The note of a row whose engine figure this run left out.
pub const SLOW_ENGINE_NOTE: &str =
    "no SHA-2 primitive core to offload to; the engine tier runs the set with --cosim full (not in this run)";

impl CosimSet {
    /// Parses `none`, `default` or `full`.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "none" => Ok(Self::None),
            "default" => Ok(Self::Default),
            "full" => Ok(Self::Full),
            o => Err(format!("--cosim: `{o}` is not none, default or full")),
        }
    }

    /// Whether the engine tier runs the SLH-DSA set `name` (if the engines
    /// offer it).
    pub fn engine_covers(self, name: &str) -> bool {
        match self {
            Self::None => false,
            Self::Default => !SLOW_ENGINE_SETS.contains(&name),
            Self::Full => true,
        }
    }

    /// Whether `op` of `scheme` is simulated; otherwise why not.
    pub fn covers(self, scheme: Scheme, _op: Operation) -> Result<(), &'static str> {
        match scheme {
            Scheme::SlhDsa(p) if p.family != pqc::slhdsa::HashFamily::Shake => {
                match ps_pl_contract::regmap::slhdsa::set_arg(p.name, ENGINES_CONFIG) {
                    Some(_) => Err("no SHA-2 primitive core to offload to; the engine tier runs the set (SHA-2 hash engine)"),
                    None => Err("no SHA-2 primitive core to offload to, and no engine offers the set"),
                }
            }
            _ if self == Self::None => Err("co-simulation not run for this report"),
            Scheme::MlDsa(_) | Scheme::SlhDsa(_) => Ok(()),
        }
    }
}

/// Options of `pqc-zynq report`.
#[derive(Clone, Debug)]
pub struct Options {
    /// Output directory (created if missing).
    pub out: PathBuf,
    /// ps-app console transcript.
    pub transcript: PathBuf,
    /// Where the transcript came from.
    pub source: SoftwareSource,
    /// Host runs per operation (at least 1 when the co-simulation runs:
    /// it needs the offloaded share).
    pub host_runs: usize,
    /// Operations to co-simulate.
    pub cosim: CosimSet,
    /// The simulator of the PL tops.
    pub engine: cosim::Engine,
    /// mcu-app transcripts: (tier, file).
    pub mcu: Vec<(&'static str, PathBuf)>,
}

/// The committed mcu-app transcripts, relative to the repository root.
pub const DEFAULT_MCU_TRANSCRIPTS: [(&str, &str); 2] = [
    ("sw-m4", "report/inputs/mcu-m4-qemu.txt"),
    ("sw-m7", "report/inputs/mcu-m7-qemu.txt"),
];

/// [`DEFAULT_MCU_TRANSCRIPTS`] as paths.
pub fn default_mcu_transcripts() -> Vec<(&'static str, PathBuf)> {
    DEFAULT_MCU_TRANSCRIPTS
        .iter()
        .map(|&(tier, file)| {
            (
                tier,
                Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file),
            )
        })
        .collect()
}

/// The committed QEMU transcript, relative to the repository root; the
/// suffix is the commit `scripts/report.sh --capture` booted (44c01e5: with
/// `PS_APP_BENCH_SLHDSA_SETS=all`, so every SLH-DSA set has software rows).
pub const DEFAULT_TRANSCRIPT: &str = "report/inputs/ps-app-qemu-44c01e5.txt";

/// The committed QEMU transcript ([`DEFAULT_TRANSCRIPT`]).
pub fn default_transcript() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(DEFAULT_TRANSCRIPT)
}

/// `path` relative to the repository when it lies inside it, else as given.
fn shown_path(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match (root.canonicalize(), path.canonicalize()) {
        (Ok(root), Ok(p)) => p
            .strip_prefix(&root)
            .map(|r| r.display().to_string())
            .unwrap_or_else(|_| path.display().to_string()),
        _ => path.display().to_string(),
    }
}

/// Every parameter set the transcript has no row for, in `pqc`'s order.
fn unbenchmarked(r: &Report) -> Vec<Scheme> {
    let names = pqc::mldsa::ParameterSet::ALL
        .iter()
        .map(|s| s.params().name)
        .chain(pqc::slhdsa::params::ALL.iter().map(|p| p.name));
    names
        .filter(|n| !r.entries.iter().any(|e| e.algorithm == *n))
        .filter_map(Scheme::from_name)
        .collect()
}

/// Parses the transcript and measures the host figures.
pub fn build(opts: &Options) -> Result<Report, String> {
    let text = std::fs::read_to_string(&opts.transcript)
        .map_err(|e| format!("{}: {e}", opts.transcript.display()))?;
    let table = report::parse_transcript(&text).map_err(|e| e.to_string())?;
    let name = shown_path(&opts.transcript);
    // The PL clock: FCLK0, or the slowest top's estimated Fmax if lower.
    let timing_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bitstream/reports/timing.md");
    let timing = std::fs::read_to_string(&timing_path)
        .map_err(|e| format!("{}: {e}", timing_path.display()))?;
    // Every top of every configuration (the SLH-DSA top was missing here
    // until stop 30).
    let tops = hdl::axi::vivado::ACCELS.map(|a| a.top);
    let fmax_mhz = report::model::slowest_top_fmax_mhz(&timing, &tops)
        .ok_or_else(|| format!("{}: no Fmax row for {tops:?}", timing_path.display()))?;
    let model = Model::DEFAULT.with_pl_clock_limit(fmax_mhz * 1e6);
    let mut r = Report::from_table(&table, opts.source, &name, model)?;
    for (tier, path) in &opts.mcu {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let transcript =
            crate::mcu_transcript::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        r.mcu.push(report::McuTier {
            tier,
            file: shown_path(path),
            transcript,
        });
    }
    r.pl_clock = format!(
        "the lower of FCLK0 = {:.1} MHz and the slowest PL top's estimated Fmax, {fmax_mhz:.0} MHz (bitstream/reports/timing.md)",
        ps_pl_contract::clock::FCLK0_HZ as f64 / 1e6
    );
    let pl = match opts.cosim {
        CosimSet::None => None,
        _ => Some(Pl::new(Config::DEFAULT.on(opts.engine))?),
    };
    let mut plan = Vec::new();
    for e in &mut r.entries {
        let (Some(scheme), Some(op)) = (
            Scheme::from_name(&e.algorithm),
            Operation::ALL.into_iter().find(|o| o.name() == e.operation),
        ) else {
            e.note = "unknown parameter set or operation".into();
            plan.push(None);
            continue;
        };
        match opts.cosim.covers(scheme, op) {
            Ok(()) => e.note.clear(),
            Err(why) => e.note = why.into(),
        }
        let messages = messages_of(scheme, op);
        if let Some(row) = e.software.as_ref().filter(|r| r.iterations % messages != 0) {
            e.note = format!(
                "the transcript's sign row ran {} iterations, not a multiple of the {messages} sign messages: \
                 its software figure is not the mean over the messages the other tiers sign (a ps-app older than the sign messages)",
                row.iterations
            );
        }
        plan.push(Some((scheme, op)));
    }
    let simulated = plan
        .iter()
        .flatten()
        .copied()
        .chain(
            unbenchmarked(&r)
                .into_iter()
                .flat_map(|s| Operation::ALL.map(|o| (s, o))),
        )
        .filter(|(s, o)| opts.cosim.covers(*s, *o).is_ok())
        .count();
    if let Some(pl) = &pl {
        r.engine = match pl.engine() {
            cosim::Engine::Verilator => "Verilator (exported Verilog)".into(),
            cosim::Engine::RustHdl => "rust-hdl".into(),
        };
    }
    let progress = pl.as_ref().map(|pl| {
        Progress::start(
            &format!("co-simulation ({})", pl.engine().name()),
            simulated as u64,
            pl.progress_counter(),
        )
    });
    let cosim_started = std::time::Instant::now();
    for (e, planned) in r.entries.iter_mut().zip(&plan) {
        let (Some((scheme, op)), Some(pl), Some(progress)) = (planned, &pl, &progress) else {
            continue;
        };
        if opts.cosim.covers(*scheme, *op).is_err() {
            continue;
        }
        let t = std::time::Instant::now();
        let (figure, messages) = offload_figure(pl, *scheme, *op, opts.host_runs.max(1))?;
        progress.op_done();
        progress.note(&format!(
            "cosim: {} {}: {} PL cycles, {} AXI-Lite, {} DMA bytes{}, output {} software, offloaded share {:.1} % ({:.0} s)",
            e.algorithm,
            e.operation,
            figure.counts.pl_cycles,
            figure.counts.axi_lite(),
            figure.counts.dma_bytes(),
            if messages > 1 {
                format!(" (mean over {messages} messages)")
            } else {
                String::new()
            },
            if figure.identical { "=" } else { "!=" },
            figure.offload_fraction * 100.0,
            t.elapsed().as_secs_f64()
        ));
        e.accel = Some(figure);
    }
    // The engine tier: whole operations on a PL engine (keygen, sign and
    // verify of ML-DSA and of the SLH-DSA sets the engines configuration
    // offers, on the workload of the other tiers).
    // The SLH-DSA sets the engines configuration offers (asked once).
    let slh_offered = match &pl {
        Some(pl) => cosim::slh_engine_sets(pl)?,
        None => Vec::new(),
    };
    if let Some(pl) = &pl {
        for e in &mut r.entries {
            if let Some(p) = pqc::slhdsa::params::by_name(&e.algorithm) {
                if !slh_offered.contains(&p) {
                    continue;
                }
                if !opts.cosim.engine_covers(p.name) {
                    e.note = SLOW_ENGINE_NOTE.into();
                    continue;
                }
                let Some(op) = Operation::ALL.into_iter().find(|o| o.name() == e.operation) else {
                    continue;
                };
                e.engine = Some(slh_engine_figure(pl, p, op)?);
                continue;
            }
            let set = match e.algorithm.as_str() {
                "ML-DSA-44" => pqc::mldsa::ParameterSet::MlDsa44,
                "ML-DSA-65" => pqc::mldsa::ParameterSet::MlDsa65,
                "ML-DSA-87" => pqc::mldsa::ParameterSet::MlDsa87,
                _ => continue,
            };
            let (counts, identical, attempts) = match e.operation.as_str() {
                "keygen" => {
                    let o = cosim::run_engine_keygen(pl, set)?;
                    (o.counts, o.identical, None)
                }
                "sign" => engine_sign_mean(pl, set)?,
                "verify" => {
                    let o = cosim::run_engine_verify(pl, set)?;
                    (o.counts, o.identical, None)
                }
                _ => continue,
            };
            eprintln!(
                "cosim: {} {} on the ML-DSA engine: {} PL cycles, {} AXI-Lite, {} DMA bytes, output {} software{}",
                e.algorithm,
                e.operation,
                counts.pl_cycles,
                counts.axi_lite(),
                counts.dma_bytes(),
                if identical { "=" } else { "!=" },
                attempts
                    .map(|a| format!(", mean over {} messages, {a:.2} attempts", workload::SIGN_MESSAGES))
                    .unwrap_or_default(),
            );
            e.attempts = attempts;
            e.engine = Some(AccelFigure {
                counts,
                offload_fraction: 1.0,
                identical,
                backends: "HwMlDsa (ML-DSA engine)".into(),
            });
        }
    }
    if let (Some(pl), Some(progress)) = (&pl, &progress) {
        for scheme in unbenchmarked(&r) {
            for op in Operation::ALL {
                if opts.cosim.covers(scheme, op).is_err() {
                    continue;
                }
                let t = std::time::Instant::now();
                let o = cosim::run_operation(pl, scheme, op)?;
                progress.op_done();
                if !o.faults.is_empty() {
                    return Err(format!(
                        "{} {}: co-simulation faults: {:?}",
                        scheme.name(),
                        op.name(),
                        o.faults
                    ));
                }
                progress.note(&format!(
                    "cosim: {} {}: {} PL cycles, {} AXI-Lite, {} DMA bytes, output {} software ({:.0} s)",
                    scheme.name(),
                    op.name(),
                    o.counts.pl_cycles,
                    o.counts.axi_lite(),
                    o.counts.dma_bytes(),
                    if o.identical() { "=" } else { "!=" },
                    t.elapsed().as_secs_f64()
                ));
                r.cosim_only.push(report::CosimOnly {
                    algorithm: scheme.name().into(),
                    operation: op.name().into(),
                    counts: o.counts,
                    identical: o.identical(),
                });
            }
        }
    }
    // The SLH-DSA sets the engine offers and ps-app does not benchmark on
    // the A9 (no software row): engine rows only.
    if let Some(pl) = &pl {
        for &p in &slh_offered {
            if r.entries.iter().any(|e| e.algorithm == p.name) || !opts.cosim.engine_covers(p.name)
            {
                continue;
            }
            for op in Operation::ALL {
                r.entries.push(Entry {
                    algorithm: p.name.into(),
                    operation: op.name().into(),
                    software: None,
                    measured_accel: None,
                    measured_engine: None,
                    host: None,
                    accel: None,
                    engine: Some(slh_engine_figure(pl, p, op)?),
                    attempts: None,
                    note: ENGINE_ONLY_NOTE.into(),
                });
            }
        }
    }
    if let (Some(pl), Some(progress)) = (&pl, progress) {
        drop(progress);
        eprintln!(
            "cosim: {simulated} operations on {} in {:.0} s",
            pl.engine().name(),
            cosim_started.elapsed().as_secs_f64()
        );
    }
    if opts.host_runs > 0 {
        r.host = format!(
            "{} {}, {} logical CPUs, release build, median of {} runs",
            std::env::consts::OS,
            std::env::consts::ARCH,
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            opts.host_runs
        );
        for e in &mut r.entries {
            let (Some(scheme), Some(op)) = (
                Scheme::from_name(&e.algorithm),
                Operation::ALL.into_iter().find(|o| o.name() == e.operation),
            ) else {
                continue;
            };
            // The `s` sets sign for seconds: one run is enough for scale.
            let runs = if e.algorithm.ends_with('s') {
                1
            } else {
                opts.host_runs
            };
            // ML-DSA sign: the mean of the medians over the sign messages.
            let n = messages_of(scheme, op);
            let mut seconds = 0.0;
            for i in 0..n {
                let message = workload::sign_message(i);
                seconds += workload::host_timing_on(scheme, op, &message, runs, None)?
                    .median
                    .as_secs_f64();
            }
            e.host = Some((seconds / f64::from(n), runs));
            eprintln!(
                "host: {} {}: {}",
                e.algorithm,
                e.operation,
                report::fmt_seconds(e.host.map_or(0.0, |h| h.0)),
            );
        }
    }
    Ok(r)
}

/// How many messages the figure of `op` is the mean over: ML-DSA sign
/// rows sign the benchmark's [`workload::SIGN_MESSAGES`] messages (the
/// attempts vary with the message), every other operation its one input.
pub fn messages_of(scheme: Scheme, op: Operation) -> u32 {
    match (scheme, op) {
        (Scheme::MlDsa(_), Operation::Sign) => workload::SIGN_MESSAGES,
        _ => 1,
    }
}

/// The offload tier's figure of `op`: the co-simulated counts through
/// HwRing and HwKeccak and the host-measured offloaded share, each the
/// mean over [`messages_of`] messages (the share weighted by each
/// message's software time); and that number of messages.
fn offload_figure(
    pl: &Pl,
    scheme: Scheme,
    op: Operation,
    host_runs: usize,
) -> Result<(AccelFigure, u32), String> {
    let n = messages_of(scheme, op);
    let mut counts = report::AccelCounts::default();
    let mut identical = true;
    let mut backends = String::new();
    let (mut offloaded, mut total) = (0.0, 0.0);
    for i in 0..n {
        let message = workload::sign_message(i);
        let o = cosim::run_operation_on(pl, scheme, op, &message)?;
        if !o.faults.is_empty() {
            return Err(format!(
                "{} {} (message {i}): co-simulation faults: {:?}",
                scheme.name(),
                op.name(),
                o.faults
            ));
        }
        let calls = PlCalls {
            ring: o.ring_on_pl.clone(),
            keccak: o.keccak_on_pl.clone(),
        };
        let h = workload::host_timing_on(scheme, op, &message, host_runs, Some(&calls))?;
        let seconds = h.median.as_secs_f64();
        offloaded += h.offload_fraction * seconds;
        total += seconds;
        counts.add(&o.counts);
        identical &= o.identical();
        backends = o.backends;
    }
    Ok((
        AccelFigure {
            counts: counts.mean_of(u64::from(n)),
            offload_fraction: if total > 0.0 { offloaded / total } else { 0.0 },
            identical,
            backends,
        },
        n,
    ))
}

/// The note of an engine-only row (a set without a software row).
pub const ENGINE_ONLY_NOTE: &str =
    "ps-app does not benchmark this set on the A9; the engine tier ran it (co-simulation)";

/// An SLH-DSA operation of the workload on the SLH-DSA engine, as an
/// engine-tier figure.
fn slh_engine_figure(
    pl: &Pl,
    p: &'static pqc::slhdsa::Params,
    op: Operation,
) -> Result<AccelFigure, String> {
    let t = std::time::Instant::now();
    let o = cosim::run_slh_engine(pl, p, op)?;
    eprintln!(
        "cosim: {} {} on the SLH-DSA engine: {} PL cycles, {} AXI-Lite, {} DMA bytes, output {} software ({:.0} s)",
        p.name,
        op.name(),
        o.counts.pl_cycles,
        o.counts.axi_lite(),
        o.counts.dma_bytes(),
        if o.identical { "=" } else { "!=" },
        t.elapsed().as_secs_f64()
    );
    Ok(AccelFigure {
        counts: o.counts,
        offload_fraction: 1.0,
        identical: o.identical,
        backends: "HwSlhDsa (SLH-DSA engine)".into(),
    })
}

/// Engine sign of `set` over the benchmark's sign messages: the mean
/// counts, whether every σ and attempt count equalled `pqc`'s, and the
/// mean attempts.
fn engine_sign_mean(
    pl: &Pl,
    set: pqc::mldsa::ParameterSet,
) -> Result<(report::AccelCounts, bool, Option<f64>), String> {
    let n = workload::SIGN_MESSAGES;
    let mut counts = report::AccelCounts::default();
    let (mut identical, mut attempts) = (true, 0u64);
    for i in 0..n {
        let o = cosim::run_engine_sign(pl, set, &workload::sign_message(i))?;
        counts.add(&o.counts);
        identical &= o.identical;
        attempts += u64::from(o.attempts.ok_or("the engine reported no attempts")?);
    }
    Ok((
        counts.mean_of(u64::from(n)),
        identical,
        Some(attempts as f64 / f64::from(n)),
    ))
}

/// Writes `report.md`, `report.svg` and `report.json` into `out`.
pub fn write(r: &Report, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let md = out.join("report.md");
    std::fs::write(&md, report::render_markdown(r))
        .map_err(|e| format!("{}: {e}", md.display()))?;
    let svg = out.join("report.svg");
    std::fs::write(&svg, report::render_svg(&report::chart_of(r)))
        .map_err(|e| format!("{}: {e}", svg.display()))?;
    let json = out.join("report.json");
    std::fs::write(&json, report::render_json(r))
        .map_err(|e| format!("{}: {e}", json.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_are_named_relative_to_the_repository() {
        assert_eq!(shown_path(&default_transcript()), DEFAULT_TRANSCRIPT);
        assert!(
            default_transcript().is_file(),
            "committed transcript missing"
        );
        let outside = std::env::temp_dir().join("no-such-transcript.txt");
        assert_eq!(shown_path(&outside), outside.display().to_string());
    }

    /// A transcript from before the sign messages (its sign rows ran 10
    /// iterations of one message) gets a note on those rows; the committed
    /// one, whose sign rows are over the 32 messages, does not.
    #[test]
    fn sign_rows_not_over_the_sign_messages_are_flagged() {
        let options = |transcript: PathBuf| Options {
            out: std::env::temp_dir(),
            transcript,
            source: SoftwareSource::QemuIcount,
            host_runs: 0,
            cosim: CosimSet::None,
            engine: cosim::Engine::Verilator,
            mcu: Vec::new(),
        };
        let old = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/qemu-ps-app-e6bf477.txt");
        let r = build(&options(old)).unwrap();
        for e in &r.entries {
            let flagged = e.note.contains("not a multiple of the 32 sign messages");
            let sign_row = e.operation == "sign" && e.algorithm.starts_with("ML-DSA");
            assert_eq!(
                flagged, sign_row,
                "{} {}: {}",
                e.algorithm, e.operation, e.note
            );
        }
        let r = build(&options(default_transcript())).unwrap();
        assert!(r.entries.iter().all(|e| !e.note.contains("not a multiple")));
        assert_eq!(
            messages_of(Scheme::from_name("ML-DSA-65").unwrap(), Operation::Sign),
            32
        );
        assert_eq!(
            messages_of(Scheme::from_name("ML-DSA-65").unwrap(), Operation::Verify),
            1
        );
    }

    #[test]
    fn every_shake_set_is_co_simulated_and_sha2_says_why_not() {
        let sha2 = Scheme::from_name("SLH-DSA-SHA2-128f").unwrap();
        let ml = Scheme::from_name("ML-DSA-44").unwrap();
        let why = CosimSet::Default
            .covers(sha2, Operation::Keygen)
            .unwrap_err();
        assert!(
            why.contains("SHA-2") && why.contains("engine tier runs"),
            "{why}"
        );
        let sha2_192 = Scheme::from_name("SLH-DSA-SHA2-192s").unwrap();
        let why = CosimSet::Default
            .covers(sha2_192, Operation::Sign)
            .unwrap_err();
        assert!(why.contains("engine tier runs"), "{why}");
        for name in ["128s", "128f", "192s", "192f", "256s", "256f"] {
            let s = Scheme::from_name(&format!("SLH-DSA-SHAKE-{name}")).unwrap();
            for op in Operation::ALL {
                assert!(CosimSet::Default.covers(s, op).is_ok(), "{name}");
            }
        }
        assert!(CosimSet::Default.covers(ml, Operation::Sign).is_ok());
        assert!(CosimSet::None.covers(ml, Operation::Sign).is_err());
        assert_eq!(CosimSet::parse("full"), Ok(CosimSet::Full));
        assert_eq!(CosimSet::parse("default"), Ok(CosimSet::Default));
        for name in SLOW_ENGINE_SETS {
            assert!(pqc::slhdsa::params::by_name(name).is_some(), "{name}");
            assert!(!CosimSet::Default.engine_covers(name));
            assert!(CosimSet::Full.engine_covers(name));
        }
        assert!(CosimSet::Default.engine_covers("SLH-DSA-SHA2-128s"));
        assert!(!CosimSet::None.engine_covers("SLH-DSA-SHAKE-128f"));
        assert!(CosimSet::parse("most").is_err());
    }
}
