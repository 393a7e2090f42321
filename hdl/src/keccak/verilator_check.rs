//! Cross-check of the exported Verilog under Verilator: the same requests
//! through the rust-hdl simulation and through the Verilated engine
//! (`sponge_tb.sv`) must give the same output words, TLAST position, error
//! flag, words consumed and clock counts.
//!
//! Skipped with a message only when `verilator` is missing and `CI` is
//! unset; in CI a missing Verilator fails the test.

use super::bench::Bench;
use super::harness::{engine_bench, run_request, FullSpeed, Request, Response};
use super::sponge::SpongeEngine;
use super::testutil::SplitMix64;
use driver::regmap::keccak as regs;
use pqc::keccak::SpongeMode;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

const TESTBENCH: &str = include_str!("sponge_tb.sv");

fn verilator_available() -> bool {
    let found = Command::new("verilator")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "verilator is required in CI (scripts/setup.sh installs it)"
        );
        eprintln!(
            "SKIPPED: verilator not found; install it (scripts/setup.sh) to run this cross-check"
        );
    }
    found
}

/// A scratch directory under the cargo target directory.
fn work_dir(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // <target>/<profile>/deps/<test exe>
    let target = exe
        .ancestors()
        .nth(3)
        .expect("test executable sits in <target>/<profile>/deps");
    let dir = target.join("hdl-verilator").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create verilator work dir");
    dir
}

fn vectors_hex(requests: &[Request]) -> String {
    let mut text = format!("{:08x}\n", requests.len());
    for r in requests {
        let last = r.last_at.map_or(u32::MAX, |i| i as u32);
        for v in [
            r.op,
            r.args[0],
            r.args[1],
            r.args[2],
            r.words.len() as u32,
            last,
        ] {
            writeln!(text, "{v:08x}").unwrap();
        }
        for w in &r.words {
            writeln!(text, "{w:08x}").unwrap();
        }
    }
    text
}

fn parse_results(text: &str, count: usize) -> Vec<Response> {
    let mut lines = text.lines();
    let mut responses = vec![];
    for _ in 0..count {
        let header = lines.next().expect("result line per request");
        assert_ne!(header, "timeout", "Verilated engine hung");
        let f: Vec<i64> = header
            .split_whitespace()
            .map(|t| t.parse().expect("decimal field"))
            .collect();
        assert_eq!(f.len(), 5, "bad result line {header:?}");
        let words = (0..f[3])
            .map(|_| u32::from_str_radix(lines.next().expect("output word"), 16).unwrap())
            .collect();
        responses.push(Response {
            words,
            last_at: usize::try_from(f[4]).ok(),
            consumed: f[2] as usize,
            error: f[0] != 0,
            cycles: f[1] as u64,
        });
    }
    responses
}

/// Builds the Verilated engine from `verilog` (top module `top_name`), runs
/// `requests` through it and returns its responses.
fn run_verilated(name: &str, verilog: &str, top_name: &str, requests: &[Request]) -> Vec<Response> {
    let dir = work_dir(name);
    std::fs::write(dir.join("engine.v"), verilog).unwrap();
    std::fs::write(dir.join("sponge_tb.sv"), TESTBENCH).unwrap();
    std::fs::write(dir.join("vectors.hex"), vectors_hex(requests)).unwrap();
    // rust-hdl emits width-mismatched expressions (WIDTH), cases without a
    // default (CASEINCOMPLETE) and unused bits of wide signals (UNUSED).
    let build = Command::new("verilator")
        .current_dir(&dir)
        .args([
            "--binary",
            "-j",
            "2",
            "-Wno-WIDTH",
            "-Wno-CASEINCOMPLETE",
            "-Wno-UNUSED",
            "-Wno-DECLFILENAME",
            "--top-module",
            "sponge_tb",
            &format!("+define+DUT={top_name}"),
            "-o",
            "sponge_sim",
            "sponge_tb.sv",
            "engine.v",
        ])
        .output()
        .expect("run verilator");
    assert!(
        build.status.success(),
        "verilator build failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let run = Command::new(dir.join("obj_dir").join("sponge_sim"))
        .current_dir(&dir)
        .output()
        .expect("run the verilated engine");
    assert!(
        run.status.success(),
        "verilated run failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let results = std::fs::read_to_string(dir.join("results.txt")).expect("results.txt");
    parse_results(&results, requests.len())
}

/// Requests covering every mode and boundary class, the chain for each n,
/// and malformed requests (refused, short stream, long stream).
fn cross_check_requests() -> Vec<Request> {
    let mut rng = SplitMix64(0x7E57);
    let mut requests = vec![];
    for mode in SpongeMode::ALL {
        let rate = mode.rate_bytes();
        for (len, out_len) in [
            (0, 1),
            (3, 32),
            (rate - 1, rate),
            (rate, rate + 1),
            (rate + 1, 64),
            (2 * rate + 6, 3 * rate + 2),
        ] {
            let message = rng.bytes(len);
            requests.push(Request::sponge(mode, &message, out_len as u32, 0xC3));
        }
    }
    for n in [16, 24, 32] {
        let (pk, adrs, x) = (rng.bytes(n), rng.bytes(32), rng.bytes(n));
        let adrs: [u8; 32] = adrs.try_into().unwrap();
        requests.push(Request::wots_chain(&pk, &adrs, &x, 2, 13));
        requests.push(Request::wots_chain(&pk, &adrs, &x, 0, 0));
    }
    let base = Request::sponge(SpongeMode::Shake256, &rng.bytes(30), 16, 0);
    requests.push(Request {
        op: 0x55,
        ..base.clone()
    });
    requests.push(Request {
        args: [regs::MODE_SHAKE128, 30, 0],
        ..base.clone()
    });
    let mut short = base.clone();
    short.last_at = Some(2);
    requests.push(short);
    let mut long = base.clone();
    long.words.extend([1, 2, 3]);
    long.last_at = Some(long.words.len() - 1);
    requests.push(long);
    requests.push(base);
    requests
}

fn cross_check<const R: usize>(name: &str) {
    if !verilator_available() {
        return;
    }
    let requests = cross_check_requests();
    let mut bench: Bench<SpongeEngine<R>> = engine_bench::<R>();
    let simulated: Vec<Response> = requests
        .iter()
        .map(|r| run_request(&mut bench, r, &mut FullSpeed, 100_000))
        .collect();
    let top = super::design_top_name::<R>();
    let verilated = run_verilated(name, &super::sponge_verilog::<R>(), &top, &requests);
    for (i, (sim, ver)) in simulated.iter().zip(&verilated).enumerate() {
        assert_eq!(
            sim, ver,
            "request {i} ({:?}): rust-hdl vs Verilator",
            requests[i].args
        );
    }
    assert_eq!(simulated.len(), verilated.len());
}

#[test]
fn verilated_engine_matches_simulation_one_round() {
    cross_check::<1>("keccak_r1");
}

#[test]
fn verilated_engine_matches_simulation_two_rounds() {
    cross_check::<2>("keccak_r2");
}
