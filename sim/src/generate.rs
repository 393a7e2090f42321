//! `pqc-zynq report`: gathers the figures (ps-app transcript, host
//! measurements, co-simulation) into a [`Report`] and writes
//! `report.md` and `report.svg`.

use std::path::{Path, PathBuf};

use crate::report::{self, Model, Report, SoftwareSource};
use crate::workload::{self, Operation, Scheme};

/// Options of `pqc-zynq report`.
#[derive(Clone, Debug)]
pub struct Options {
    /// Output directory (created if missing).
    pub out: PathBuf,
    /// ps-app console transcript.
    pub transcript: PathBuf,
    /// Where the transcript came from.
    pub source: SoftwareSource,
    /// Host runs per operation (0: no host figures and no offloaded share).
    pub host_runs: usize,
}

/// The committed QEMU transcript (`report/inputs/`).
pub fn default_transcript() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../report/inputs/ps-app-qemu-f92718a.txt")
}

/// Parses the transcript and measures the host figures.
pub fn build(opts: &Options) -> Result<Report, String> {
    let text = std::fs::read_to_string(&opts.transcript)
        .map_err(|e| format!("{}: {e}", opts.transcript.display()))?;
    let table = report::parse_transcript(&text).map_err(|e| e.to_string())?;
    let name = opts
        .transcript
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut r = Report::from_table(
        &table,
        opts.source,
        &format!("report/inputs/{name}"),
        Model::DEFAULT,
    )?;
    for e in &mut r.entries {
        e.note = match Scheme::from_name(&e.algorithm) {
            Some(Scheme::SlhDsa(p)) if !p.name.contains("SHAKE") => {
                "no SHA-2 core: the PL has the Keccak engine (SHAKE) only".into()
            }
            Some(_) => "accelerated figure not simulated in this report".into(),
            None => "unknown parameter set".into(),
        };
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
            let h = workload::host_timing(scheme, op, runs, None)?;
            e.host = Some((h.median.as_secs_f64(), h.runs));
            eprintln!(
                "host: {} {}: {} (offloadable share {:.1} %)",
                e.algorithm,
                e.operation,
                report::fmt_seconds(h.median.as_secs_f64()),
                h.offload_fraction * 100.0
            );
        }
    }
    Ok(r)
}

/// Writes `report.md` and `report.svg` into `out`.
pub fn write(r: &Report, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let md = out.join("report.md");
    std::fs::write(&md, report::render_markdown(r))
        .map_err(|e| format!("{}: {e}", md.display()))?;
    let svg = out.join("report.svg");
    std::fs::write(&svg, report::render_svg(&report::chart_of(r)))
        .map_err(|e| format!("{}: {e}", svg.display()))?;
    Ok(())
}
