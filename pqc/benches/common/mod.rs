//! Shared by the benchmark binaries: run-length settings (full or quick) and
//! the ratio table built from criterion's `estimates.json` files.
//!
//! Every benchmark is named `group / implementation / parameter set`, e.g.
//! `ML-DSA sign / ours / ML-DSA-44`; the table puts the implementations of one
//! group and parameter set side by side and divides ours by each peer.

#![allow(dead_code)] // each bench binary uses a different subset

use criterion::Criterion;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Name of our implementation in every benchmark id.
pub const OURS: &str = "ours";

/// `PQC_BENCH_QUICK=1` shortens every measurement to a smoke run (the
/// figures are then only indicative).
pub fn quick_mode() -> bool {
    std::env::var("PQC_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Criterion configured for this machine (2 shared cores): short warm-up,
/// a few seconds per benchmark, or much less in quick mode.
pub fn criterion() -> Criterion {
    let c = Criterion::default().without_plots();
    let c = if quick_mode() {
        c.sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_millis(500))
    } else {
        c.sample_size(30)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
    };
    c.configure_from_args()
}

/// Where criterion writes its results: `$CRITERION_HOME`, else
/// `$CARGO_TARGET_DIR/criterion`, else `<target>/criterion` next to the
/// `<target>/<profile>/deps/<bench>` executable (the order criterion uses).
pub fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    let exe = std::env::current_exe().expect("path of the running benchmark");
    exe.ancestors()
        .nth(3)
        .map(|target| target.join("criterion"))
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
}

/// One finished benchmark as criterion recorded it.
#[derive(Clone, Debug)]
pub struct Measured {
    pub group: String,
    pub implementation: String,
    pub set: String,
    /// Median time of one operation in nanoseconds.
    pub median_ns: f64,
    pub when: SystemTime,
}

/// Reads every `*/new/benchmark.json` + `estimates.json` pair under `dir`
/// written at or after `since`.
pub fn load(dir: &Path, since: SystemTime) -> Vec<Measured> {
    let mut found = Vec::new();
    visit(dir, since, &mut found);
    found
}

fn visit(dir: &Path, since: SystemTime, found: &mut Vec<Measured>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            if let Some(m) = read_one(&path) {
                if m.when >= since {
                    found.push(m);
                }
            }
        } else {
            visit(&path, since, found);
        }
    }
}

fn read_one(new_dir: &Path) -> Option<Measured> {
    let id: serde_json::Value =
        serde_json::from_slice(&fs::read(new_dir.join("benchmark.json")).ok()?).ok()?;
    let estimates_path = new_dir.join("estimates.json");
    let estimates: serde_json::Value =
        serde_json::from_slice(&fs::read(&estimates_path).ok()?).ok()?;
    Some(Measured {
        group: id["group_id"].as_str()?.to_owned(),
        implementation: id["function_id"].as_str()?.to_owned(),
        set: id["value_str"].as_str()?.to_owned(),
        median_ns: estimates["median"]["point_estimate"].as_f64()?,
        when: fs::metadata(&estimates_path).ok()?.modified().ok()?,
    })
}

/// Human-readable duration with three significant digits.
pub fn format_ns(ns: f64) -> String {
    let (value, unit) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else if ns >= 1e3 {
        (ns / 1e3, "µs")
    } else {
        (ns, "ns")
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$} {unit}")
}

/// Markdown table of medians and ratios ours/peer for every group and
/// parameter set in `measured`; `peers` fixes the column order.
pub fn ratio_table(measured: &[Measured], peers: &[&str]) -> String {
    // (group, set) -> implementation -> median
    let mut rows: BTreeMap<(String, String), BTreeMap<String, f64>> = BTreeMap::new();
    for m in measured {
        rows.entry((m.group.clone(), m.set.clone()))
            .or_default()
            .insert(m.implementation.clone(), m.median_ns);
    }
    let mut out = String::from("| operation | parameter set | ours |");
    for p in peers {
        out += &format!(" {p} |");
    }
    for p in peers {
        out += &format!(" ours/{p} |");
    }
    out += " ours/min(peer) |\n|---|---|---:|";
    for _ in 0..2 * peers.len() + 1 {
        out += "---:|";
    }
    out.push('\n');
    for ((group, set), by_impl) in &rows {
        let ours = by_impl.get(OURS).copied();
        let cell = |v: Option<f64>| v.map_or("–".to_owned(), format_ns);
        out += &format!("| {group} | {set} | {} |", cell(ours));
        for p in peers {
            out += &format!(" {} |", cell(by_impl.get(*p).copied()));
        }
        let ratio = |peer: Option<f64>| match (ours, peer) {
            (Some(o), Some(p)) if p > 0.0 => format!("{:.2}", o / p),
            _ => "–".to_owned(),
        };
        for p in peers {
            out += &format!(" {} |", ratio(by_impl.get(*p).copied()));
        }
        let fastest_peer = peers
            .iter()
            .filter_map(|p| by_impl.get(*p).copied())
            .reduce(f64::min);
        out += &format!(" {} |\n", ratio(fastest_peer));
    }
    out
}

/// Prints the ratio table of the benchmarks this process measured (results
/// written since `started`).
pub fn print_summary(title: &str, started: SystemTime, peers: &[&str]) {
    let dir = criterion_dir();
    let measured = load(&dir, started);
    println!("\n## {title}: medians and ratios (ratio < 1.00: ours is faster)\n");
    if measured.is_empty() {
        println!("(no results under {} from this run)", dir.display());
        return;
    }
    print!("{}", ratio_table(&measured, peers));
    if quick_mode() {
        println!("\nPQC_BENCH_QUICK is set: smoke-run figures, not for the record.");
    }
}

/// The ML-DSA inputs shared by the criterion bench (`benches/mldsa.rs`) and
/// the instruction-count bench (`benches/mldsa_icount.rs`), so both measure
/// the same work.
pub mod mldsa_inputs {
    /// Messages cycled through by the sign and verify benchmarks.
    pub const MESSAGES: usize = 16;
    /// Context string of every signature.
    pub const CONTEXT: &[u8] = b"pqc bench";

    /// The key-generation seed ξ.
    pub fn seed() -> [u8; 32] {
        core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(11))
    }

    /// The 64-byte messages, `MESSAGES` of them.
    pub fn messages() -> Vec<[u8; 64]> {
        (0..MESSAGES)
            .map(|m| core::array::from_fn(|i| (i as u8) ^ (m as u8).wrapping_mul(101)))
            .collect()
    }
}
