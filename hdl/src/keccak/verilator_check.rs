//! Cross-check of the exported Verilog under Verilator: the same requests
//! through the rust-hdl simulation and through the Verilated engine
//! (`sponge_tb.sv`) must give the same output words, TLAST position, error
//! flag, words consumed and clock counts.
//!
//! The Verilog is the exact text `hdl export` writes. Skipped with a
//! message only when `verilator` is missing and `CI` is unset; in CI a
//! missing Verilator fails the test.

use super::bench::Bench;
use super::harness::{
    engine_bench, run_request, shared_bench, tail_bench, FullSpeed, Request, Response,
};
use super::sponge::SpongeEngine;
use super::testutil::SplitMix64;
use crate::export::{design_verilog, Design};
use crate::verilator::{verilator_required, VerilatorRun};
use pqc::keccak::SpongeMode;
use ps_pl_contract::regmap::keccak as regs;
use std::fmt::Write as _;

const TESTBENCH: &str = include_str!("sponge_tb.sv");

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

/// Builds the Verilated engine from the exported text of `design`, runs
/// `requests` through it and returns its responses.
fn run_verilated(design: &Design, requests: &[Request]) -> Vec<Response> {
    let run = VerilatorRun::new(design.name).expect("verilator work dir");
    run.write_input("vectors.hex", &vectors_hex(requests))
        .unwrap();
    let define = format!("+define+DUT={}", design.name);
    run.build_and_run(&design_verilog(design), TESTBENCH, "sponge_tb", &[&define])
        .unwrap_or_else(|e| panic!("{e}"));
    let results = run.read_output("results.txt").expect("results.txt");
    parse_results(&results, requests.len())
}

/// Requests covering every mode and boundary class, the chain for each n,
/// the kept-prefix chains, and malformed requests (refused, short stream, long stream).
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
        // On the prefix just kept (refused where the engine has none).
        requests.push(Request::wots_chain_kept(7, true, &x, 1, 3));
        requests.push(Request::fors_kept(false, &x, 0x1234, 1));
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

fn cross_check<const R: usize>(name: &str, mut bench: Bench<SpongeEngine<R>>) {
    if !verilator_required(name) {
        return;
    }
    let requests = cross_check_requests();
    let simulated: Vec<Response> = requests
        .iter()
        .map(|r| run_request(&mut bench, r, &mut FullSpeed, 100_000))
        .collect();
    let design = super::designs()
        .into_iter()
        .find(|d| d.name == name)
        .expect("design in the registry");
    let verilated = run_verilated(&design, &requests);
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
    cross_check::<1>("keccak_r1", engine_bench::<1>());
}

#[test]
fn verilated_engine_matches_simulation_two_rounds() {
    cross_check::<2>("keccak_r2", engine_bench::<2>());
}

#[test]
fn verilated_tail_engine_matches_simulation() {
    cross_check::<1>("keccak_tail_r1", tail_bench::<1>());
}

#[test]
fn verilated_shared_engine_matches_simulation() {
    cross_check::<2>("keccak_shared_r2", shared_bench::<2>());
}
