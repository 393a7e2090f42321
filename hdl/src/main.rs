//! `hdl`: exports the accelerator designs as Verilog, writes the yosys
//! resource report, records VCD waveforms and generates the Vivado script.
//!
//! ```text
//! cargo run -p hdl --release -- export [--out bitstream/rtl]
//! cargo run -p hdl --release -- report [--out bitstream/reports] [--design NAME[,NAME…]] [--jobs N]
//! cargo run -p hdl --release -- timing [--out bitstream/reports] [--design NAME[,NAME…]] [--jobs N]
//! cargo run -p hdl --release -- vcd --design ntt_b4 [--out ntt_b4.vcd]
//! cargo run -p hdl --release -- vivado [--out bitstream/vivado]
//! cargo run -p hdl --release -- list
//! ```
//!
//! `report` and `timing` run one yosys per design, `--jobs` of them at a
//! time (default: the machine's cores); with `--design` they replace (or
//! add) those designs' rows only.

use hdl::export::{self, Design, Resources, StaRun};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Every exportable design. To add one, append an entry (unique `name`).
fn designs() -> Vec<Design> {
    let mut all = Vec::new();
    all.extend(hdl::ntt::designs());
    all.extend(hdl::keccak::designs());
    all.extend(hdl::mldsa::designs());
    all.extend(hdl::sha2::designs());
    all.extend(hdl::slhdsa::designs());
    all.extend(hdl::axi::designs());
    all
}

const USAGE: &str =
    "usage: hdl <export [--out DIR] | report [--out DIR] [--design NAME[,NAME...]] [--jobs N] | timing [--out DIR] [--design NAME[,NAME...]] [--jobs N] | vcd --design NAME [--out FILE] | vivado [--out DIR] | list>";

fn flag(args: &[String], name: &str) -> Result<Option<String>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .cloned()
            .map(Some)
            .ok_or_else(|| format!("{name} needs a value")),
    }
}

fn check_flags(args: &[String], allowed: &[&str]) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        if !allowed.contains(&args[i].as_str()) {
            return Err(format!("unknown argument {:?}\n{USAGE}", args[i]));
        }
        i += 2;
    }
    Ok(())
}

/// The designs of `--design` (comma-separated names), or every design.
fn selected_designs(rest: &[String]) -> Result<(Vec<Design>, bool), String> {
    match flag(rest, "--design")? {
        Some(names) => Ok((
            names
                .split(',')
                .map(find_design)
                .collect::<Result<Vec<_>, _>>()?,
            true,
        )),
        None => Ok((designs(), false)),
    }
}

/// The arguments of `report` and `timing`: the output directory (created),
/// the designs, whether to merge their rows, and the worker count.
fn yosys_run_args(rest: &[String]) -> Result<(PathBuf, Vec<Design>, bool, usize), String> {
    check_flags(rest, &["--out", "--design", "--jobs"])?;
    let out = PathBuf::from(flag(rest, "--out")?.unwrap_or_else(|| "bitstream/reports".into()));
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let (selected, merge) = selected_designs(rest)?;
    Ok((out, selected, merge, jobs(rest)?))
}

/// Writes the table `fresh` to `path`, or with `merge` (and an existing
/// file) its rows into the file's table ([`merge_rows`]).
fn write_table(path: &Path, merge: bool, fresh: &str) -> Result<(), String> {
    let text = if merge && path.exists() {
        let old = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        merge_rows(&old, fresh)
    } else {
        fresh.to_owned()
    };
    std::fs::write(path, text).map_err(|e| e.to_string())?;
    println!("wrote {}", path.display());
    Ok(())
}

/// `--jobs N` (N ≥ 1), or the machine's cores.
fn jobs(rest: &[String]) -> Result<usize, String> {
    match flag(rest, "--jobs")? {
        Some(n) => match n.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("--jobs needs a positive count, not {n:?}")),
        },
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Stack of each worker of [`run_parallel`] (as `.cargo/config.toml`'s
/// `RUST_MIN_STACK` gives the test threads).
const WORKER_STACK_BYTES: usize = 64 << 20;

/// Runs `job` on every design, `workers` at a time (each job is one
/// single-threaded yosys), and returns the results in the designs' order;
/// the first error (in that order) if any job failed.
fn run_parallel<T: Send>(
    designs: Vec<Design>,
    workers: usize,
    job: impl Fn(&Design) -> Result<T, String> + Sync,
) -> Result<Vec<(Design, T)>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<T, String>>>> =
        Mutex::new((0..designs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(designs.len()) {
            // rust-hdl builds a design by value: the engines' tops need
            // far more than a spawned thread's default 2 MiB.
            std::thread::Builder::new()
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(d) = designs.get(i) else { break };
                    let result = job(d);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
                })
                .expect("a worker thread");
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    designs
        .into_iter()
        .zip(results)
        .map(|(d, r)| {
            let r = r.unwrap_or_else(|| Err(format!("{}: no result", d.name)))?;
            Ok((d, r))
        })
        .collect()
}

fn find_design(name: &str) -> Result<Design, String> {
    designs()
        .into_iter()
        .find(|d| d.name == name)
        .ok_or_else(|| {
            let names: Vec<_> = designs().iter().map(|d| d.name).collect();
            format!("no design {name:?}; known: {}", names.join(", "))
        })
}

fn report_markdown(rows: &[(Design, Resources)]) -> String {
    let mut md = String::from(
        "# Resource report (yosys `synth_xilinx -family xc7`)\n\n\
         Generated by `cargo run -p hdl --release -- report --out bitstream/reports`; do not edit.\n\
         Target: xc7z020 (53,200 LUT, 106,400 FF, 220 DSP48E1, 280 RAMB18).\n\
         LUT counts LUT1–LUT6 cells; LUTRAM cells are listed apart. The longest\n\
         path is the longest chain of logic cells (LUT, CARRY4, MUXF7/8, INV)\n\
         between registers, RAMs, DSPs and ports, from yosys `ltp` after deleting\n\
         all other cells: an Fmax proxy, not a timing analysis.\n\n\
         | design | LUT | LUTRAM cells | FF | DSP48E1 | BRAM18 | longest path (cells) | description |\n\
         |---|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for (d, r) in rows {
        md.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} |\n",
            d.name,
            r.luts,
            r.lutram_cells,
            r.ffs,
            r.dsps,
            r.bram18,
            r.longest_path_luts,
            d.description
        ));
    }
    md
}

fn timing_markdown(rows: &[(Design, StaRun)]) -> String {
    let mut md = format!(
        "# Timing estimate (yosys `sta`, cell delays only)\n\n\
         Generated by `cargo run -p hdl --release -- timing --out bitstream/reports`; do not edit.\n\n\
         **This is an estimate, not Vivado's timing analysis.** Each design is\n\
         synthesised with yosys 0.23 `synth_xilinx -family xc7 -abc9 -flatten`;\n\
         then `read_verilog -lib -specify +/xilinx/cells_sim.v; sta` times the\n\
         netlist with the cell delays of the yosys xc7 models (taken, per the\n\
         comments in `cells_sim.v`, from the Project X-Ray Artix-7 timing\n\
         database); no placement, no routing, no setup time of the capturing\n\
         cell, no clock skew or uncertainty. The cell delay is the latest arrival,\n\
         counted from the clock port, so it includes the clock buffers (0.1 ns)\n\
         and the launching clock-to-out. Per-design `sta` output: `<design>.sta.txt`.\n\n\
         Fmax estimate for xc7z020-1: 1 / (cell delay + {route} ns × routed nets),\n\
         where the routed nets are the hops of the worst path except the\n\
         dedicated carry cascade (CARRY4 CO → CI). {route} ns per net is the middle\n\
         of the 0.3–0.6 ns that local nets between neighbouring slices take in\n\
         7-series -1 routed designs; the real figure depends on placement and\n\
         fanout, and the worst routed path need not be this one. Budget for the\n\
         PL tops: at most {budget} ns of cell delay, and an estimated period\n\
         within FCLK_CLK0's ({fclk0_mhz:.1} MHz, {period} ns), both asserted by a\n\
         test.\n\n\
         † yosys 0.23's ABC aborted on this netlist in `&if` mapping\n\
         (`If_ObjPerformMappingAnd()`, return code 134); it was timed with an\n\
         abc9 delay target of {target} ps (`scratchpad -set abc9.D {target}`),\n\
         which changes the mapping's objective.\n\n\
         | design | cell delay (ns) | levels (LUT + CARRY4 + MUXF) | routed nets | est. period (ns) | est. Fmax (MHz) | start point | end point |\n\
         |---|---:|---|---:|---:|---:|---|---|\n",
        route = export::ROUTE_NS_PER_NET,
        budget = export::CELL_DELAY_BUDGET_NS,
        fclk0_mhz = f64::from(ps_pl_contract::clock::FCLK0_HZ) / 1e6,
        period = f64::from(ps_pl_contract::clock::FCLK0_PERIOD_PS) / 1000.0,
        target = export::ABC_RETRY_DELAY_TARGET_PS,
    );
    for (d, run) in rows {
        let p = &run.path;
        let mark = if run.delay_target_ps.is_some() {
            " †"
        } else {
            ""
        };
        md.push_str(&format!(
            "| `{}` | {:.2}{mark} | {} ({} + {} + {}) | {} | {:.2} | {:.0} | `{}` | `{}` |\n",
            d.name,
            p.cell_ns(),
            p.levels(),
            p.luts,
            p.carry4,
            p.muxf,
            p.routed_nets,
            p.estimated_period_ns(),
            p.estimated_fmax_mhz(),
            p.start,
            p.end
        ));
    }
    md
}

/// The table rows (`| \`name\` | …`) of `fresh` put into `report`: a row of
/// the same design is replaced, a new design's row appended to the table.
/// The text before the table's first row is `fresh`'s (the generator's
/// current header).
fn merge_rows(report: &str, fresh: &str) -> String {
    let row_name = |l: &str| {
        l.strip_prefix("| `")
            .and_then(|r| r.split('`').next().map(str::to_owned))
    };
    let new_rows: Vec<&str> = fresh.lines().filter(|l| row_name(l).is_some()).collect();
    let mut lines: Vec<String> = fresh
        .lines()
        .take_while(|l| row_name(l).is_none())
        .map(str::to_owned)
        .collect();
    let mut used = vec![false; new_rows.len()];
    for l in report.lines().skip_while(|l| row_name(l).is_none()) {
        match row_name(l).and_then(|n| new_rows.iter().position(|r| row_name(r) == Some(n.clone())))
        {
            Some(i) => {
                lines.push(new_rows[i].to_string());
                used[i] = true;
            }
            None => lines.push(l.to_string()),
        }
    }
    let last_row = lines
        .iter()
        .rposition(|l| row_name(l).is_some())
        .map_or(lines.len(), |i| i + 1);
    let extra: Vec<String> = new_rows
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(r, _)| r.to_string())
        .collect();
    lines.splice(last_row..last_row, extra);
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

fn run(args: &[String]) -> Result<(), String> {
    let (cmd, rest) = args.split_first().ok_or(USAGE)?;
    match cmd.as_str() {
        "list" => {
            for d in designs() {
                println!("{:<16} {}", d.name, d.description);
            }
            Ok(())
        }
        "export" => {
            check_flags(rest, &["--out"])?;
            let out = flag(rest, "--out")?.unwrap_or_else(|| "bitstream/rtl".into());
            let written = export::write_designs(&designs(), Path::new(&out))
                .map_err(|e| format!("writing {out}: {e}"))?;
            for p in written {
                println!("wrote {}", p.display());
            }
            Ok(())
        }
        "report" => {
            let (out, selected, merge, workers) = yosys_run_args(rest)?;
            let rows = run_parallel(selected, workers, |d| {
                let work = hdl::verilator::work_dir(&format!("synth-{}", d.name));
                eprintln!("synthesising {} ...", d.name);
                let (res, stat) = export::synth_xc7(d, &work)?;
                std::fs::write(out.join(format!("{}.stat.txt", d.name)), stat)
                    .map_err(|e| e.to_string())?;
                Ok(res)
            })?;
            write_table(&out.join("resources.md"), merge, &report_markdown(&rows))
        }
        "timing" => {
            let (out, selected, merge, workers) = yosys_run_args(rest)?;
            let rows = run_parallel(selected, workers, |d| {
                let work = hdl::verilator::work_dir(&format!("sta-{}", d.name));
                eprintln!("timing {} ...", d.name);
                let run = export::sta_xc7(d, &work)?;
                std::fs::write(out.join(format!("{}.sta.txt", d.name)), &run.listing)
                    .map_err(|e| e.to_string())?;
                Ok(run)
            })?;
            write_table(&out.join("timing.md"), merge, &timing_markdown(&rows))
        }
        "vivado" => {
            check_flags(rest, &["--out"])?;
            let out = flag(rest, "--out")?.unwrap_or_else(|| "bitstream/vivado".into());
            let paths = hdl::axi::vivado::write(Path::new(&out))
                .map_err(|e| format!("writing {out}: {e}"))?;
            for path in paths {
                println!("wrote {}", path.display());
            }
            Ok(())
        }
        "vcd" => {
            check_flags(rest, &["--design", "--out"])?;
            let name = flag(rest, "--design")?.ok_or("vcd needs --design NAME")?;
            let d = find_design(&name)?;
            let out = flag(rest, "--out")?.unwrap_or_else(|| format!("{name}.vcd"));
            let write = d
                .vcd
                .ok_or_else(|| format!("design {name} has no VCD run"))?;
            write(Path::new(&out))?;
            println!("wrote {out}");
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hdl: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_names_are_unique_identifiers() {
        let all = designs();
        for (i, d) in all.iter().enumerate() {
            assert!(d
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_'));
            assert!(all[i + 1..].iter().all(|e| e.name != d.name), "{}", d.name);
        }
    }

    /// The committed RTL must be what the code generates: regenerate with
    /// `cargo run -p hdl --release -- export` after changing a design.
    #[test]
    fn committed_rtl_matches_generated() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bitstream/rtl");
        for d in designs() {
            let path = dir.join(format!("{}.v", d.name));
            let committed = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run the export command)", path.display()));
            assert!(
                committed == export::design_verilog(&d),
                "{} differs from the generated RTL; run `cargo run -p hdl --release -- export`",
                path.display()
            );
        }
    }

    #[test]
    fn merge_rows_replaces_and_appends() {
        let old = "# R\n\n| design | LUT |\n|---|---:|\n| `a` | 1 |\n| `b` | 2 |\n\ntail\n";
        let fresh = "# R, new\n\n| design | LUT |\n|---|---:|\n| `b` | 20 |\n| `c` | 3 |\n";
        assert_eq!(
            merge_rows(old, fresh),
            "# R, new\n\n| design | LUT |\n|---|---:|\n| `a` | 1 |\n| `b` | 20 |\n| `c` | 3 |\n\ntail\n"
        );
    }

    /// Results come back in the designs' order whatever the workers'
    /// interleaving, and a failed job's error is returned (the first in
    /// that order).
    #[test]
    fn parallel_runs_keep_the_order_and_report_the_first_error() {
        let all = designs();
        let names: Vec<&str> = all.iter().map(|d| d.name).collect();
        for workers in [1, 2, 5, 64] {
            let rows = run_parallel(all.clone(), workers, |d| Ok(d.name.len())).unwrap();
            let got: Vec<&str> = rows.iter().map(|(d, _)| d.name).collect();
            assert_eq!(got, names);
            assert!(rows.iter().all(|(d, n)| d.name.len() == *n));
            let failing = |d: &Design| {
                if d.name == names[3] || d.name == names[7] {
                    Err(format!("{} failed", d.name))
                } else {
                    Ok(())
                }
            };
            let result = run_parallel(all.clone(), workers, failing);
            assert_eq!(result.err(), Some(format!("{} failed", names[3])));
        }
        assert!(run_parallel(Vec::new(), 2, |_| Ok(())).unwrap().is_empty());
    }

    #[test]
    fn export_is_reproducible() {
        for d in designs() {
            assert_eq!(export::design_verilog(&d), export::design_verilog(&d));
        }
    }
}
