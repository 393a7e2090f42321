//! Verilator cross-checks of the exported SHA-2 core Verilog: the same
//! random input sequence (starts, resets, state loads, words with gaps,
//! output selects), clock by clock, on the rust-hdl model and on the
//! Verilated RTL must give the same outputs on every clock.

use super::core::Sha2Core;
use crate::mldsa::verilator_check::{array_port_names, verilated_outputs};
use crate::ntt::sim::{settle, tick, Lcg};
use crate::verilator::verilator_required;
use rust_hdl::prelude::*;

/// The scalar inputs; `init_value$0..7` follow them.
const SCALAR_INPUTS: [&str; 8] = [
    "reset",
    "start",
    "init_from_iv",
    "init_from_port",
    "load_state",
    "word_in",
    "word_valid",
    "out_index",
];
/// The scalar outputs; `chain_value$0..7` follow them.
const SCALAR_OUTPUTS: [&str; 4] = ["word_ready", "out_word", "busy", "done"];

/// The scalar ports, then the eight of `array`.
fn ports(scalars: &[&str], array: &str) -> Vec<String> {
    let mut names: Vec<String> = scalars.iter().map(|s| s.to_string()).collect();
    names.extend(array_port_names(array, 8));
    names
}

/// Random input rows: mostly valid words and frequent starts, so most
/// clocks are inside a compression; starts from the IV, from `init_value`
/// and from the held value; rare resets; loads while idle.
fn rows(w: usize, clocks: usize, seed: u64) -> Vec<Vec<u64>> {
    let mut rng = Lcg::new(seed);
    let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    let mut word = || ((u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32())) & mask;
    (0..clocks)
        .map(|_| {
            let r = word() as u32;
            let mut row = vec![
                u64::from(r % 500 == 0),
                u64::from(r % 8 == 1),
                u64::from((r >> 8) % 4 == 0),
                u64::from((r >> 10) & 1),
                u64::from((r >> 11) % 4 == 0),
                word(),
                u64::from((r >> 14) % 8 != 0),
                u64::from((r >> 17) & 7),
            ];
            row.extend((0..8).map(|_| word()));
            row
        })
        .collect()
}

fn cross_check<const W: usize>(design: &str, clocks: usize, seed: u64) {
    let rows = rows(W, clocks, seed);
    let mut uut = Sha2Core::<W>::default();
    uut.connect_all();
    settle(&mut uut);
    let mut expected = Vec::new();
    let mut dones = 0;
    for r in &rows {
        uut.reset.next = r[0] != 0;
        uut.start.next = r[1] != 0;
        uut.init_from_iv.next = r[2] != 0;
        uut.init_from_port.next = r[3] != 0;
        uut.load_state.next = r[4] != 0;
        uut.word_in.next = r[5].into();
        uut.word_valid.next = r[6] != 0;
        uut.out_index.next = r[7].into();
        for k in 0..8 {
            uut.init_value[k].next = r[8 + k].into();
        }
        tick(&mut uut, |u| &mut u.clock);
        dones += usize::from(uut.done.val());
        let mut out = vec![
            u64::from(uut.word_ready.val()),
            uut.out_word.val().to_u64(),
            u64::from(uut.busy.val()),
            u64::from(uut.done.val()),
        ];
        out.extend(uut.chain_value.iter().map(|v| v.val().to_u64()));
        let v: Vec<String> = out.iter().map(|x| format!("{x:x}")).collect();
        expected.push(v.join(" "));
    }
    // The sequence must finish several compressions to mean anything.
    assert!(dones >= 10, "only {dones} compressions finished");
    let inputs = ports(&SCALAR_INPUTS, "init_value");
    let outputs = ports(&SCALAR_OUTPUTS, "chain_value");
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let outputs: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let got =
        verilated_outputs(Sha2Core::<W>::default(), design, &inputs, &outputs, &rows).unwrap();
    assert_eq!(got.len(), expected.len());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "{design}: clock {i}");
    }
}

#[test]
fn sha256_core_rtl_equals_rust_hdl_clock_for_clock() {
    if !verilator_required("sha256_core_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    cross_check::<32>("sha256_core", 2_000, 2565);
}

#[test]
fn sha512_core_rtl_equals_rust_hdl_clock_for_clock() {
    if !verilator_required("sha512_core_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    cross_check::<64>("sha512_core", 2_000, 5125);
}

/// The hash engine: random good requests (chains of every n, s = 0
/// included, kept chains with their PRF, H and T_l; at full speed and with
/// stalling streams), bad requests and aborts, recorded on the rust-hdl
/// model and replayed on the Verilated RTL.
#[test]
fn sha256_tweak_rtl_equals_rust_hdl_clock_for_clock() {
    use super::tweak::Sha256TweakEngine;
    use super::tweak_bench::{Bench, Request};
    use crate::keccak::sponge::{KEPT_FORS, KEPT_PRF_FIRST};
    if !verilator_required("sha256_tweak_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let mut bench = Bench::<Sha256TweakEngine>::new(11);
    let mut rng = Lcg::new(2051);
    let mut finished = 0;
    for k in 0..12u32 {
        let n = [16usize, 24, 32][k as usize % 3];
        let bytes: Vec<u8> = (0..n + 32 + n).map(|_| rng.next_u32() as u8).collect();
        let adrs: [u8; 32] = bytes[n..n + 32].try_into().unwrap();
        let mut req = Request::chain(&bytes[..n], &adrs, &bytes[n + 32..], k % 5, k % 3);
        bench.pace = if k % 2 == 0 { 8 } else { 3 };
        let abort_at = (k % 4 == 3).then_some(20 + u64::from(rng.next_u32() % 150));
        if k % 6 == 5 {
            req.arg0 = 20;
        }
        let r = bench.run(&req, abort_at);
        finished += usize::from(!r.error);
        // Kept chains on the prefix a good chain left, and H / T_l.
        let x = &bytes[n + 32..];
        let flags = [0, KEPT_PRF_FIRST, KEPT_PRF_FIRST | KEPT_FORS][k as usize % 3];
        let r = bench.run(&Request::kept(x, k, flags, k % 4, k % 3), abort_at);
        finished += usize::from(!r.error);
        let m: Vec<u8> = (0..4 * (1 + k as usize * 7))
            .map(|_| rng.next_u32() as u8)
            .collect();
        let r = bench.run(
            &Request::tweak(&bytes[..16], &adrs, &m),
            abort_at.map(|a| a + 60),
        );
        finished += usize::from(!r.error);
    }
    assert!(finished >= 18, "only {finished} requests finished");
    replay(Sha256TweakEngine::default(), "sha256_tweak", &bench);
}

/// Records good SHA-512 H / T_l requests of n = 24 and 32 (at full speed
/// and with stalling streams), refused ones, and aborts on a bench of
/// `E`, for the Verilator cross-checks; with `chains`, a chain before
/// each, which the router gives to its SHA-256 engine.
fn record_sha512_requests<E: super::tweak_bench::TweakPorts>(
    seed: u64,
    chains: bool,
) -> super::tweak_bench::Bench<E> {
    use super::tweak_bench::{Bench, Request};
    let mut bench = Bench::<E>::new(seed);
    let mut rng = Lcg::new(seed + 1000);
    let mut finished = 0;
    for k in 0..10u32 {
        let n = [24usize, 32][k as usize % 2];
        let m_words = n / 2 + 9 * k as usize;
        let bytes: Vec<u8> = (0..n + 32 + 4 * m_words)
            .map(|_| rng.next_u32() as u8)
            .collect();
        let adrs: [u8; 32] = bytes[n..n + 32].try_into().unwrap();
        bench.pace = if k % 3 == 1 { 3 } else { 8 };
        if chains {
            let x = &bytes[n + 32..2 * n + 32];
            let r = bench.run(&Request::chain(&bytes[..n], &adrs, x, k % 4, 1), None);
            finished += usize::from(!r.error);
        }
        let mut req = Request::tweak(&bytes[..n], &adrs, &bytes[n + 32..]);
        if k % 5 == 4 {
            req.arg2 = 20;
        }
        let abort_at = (k % 4 == 3).then_some(10 + u64::from(rng.next_u32() % 250));
        let r = bench.run(&req, abort_at);
        finished += usize::from(!r.error);
    }
    assert!(finished >= 6, "only {finished} requests finished");
    bench
}

/// Replays `bench`'s recorded inputs on the Verilated RTL of `uut` and
/// asserts every clock's outputs equal the rust-hdl model's.
fn replay<E: super::tweak_bench::TweakPorts>(
    uut: E,
    name: &str,
    bench: &super::tweak_bench::Bench<E>,
) {
    use super::tweak_bench::{INPUTS, OUTPUTS};
    let got = verilated_outputs(uut, name, &INPUTS, &OUTPUTS, &bench.rows).unwrap();
    assert_eq!(got.len(), bench.lines.len());
    for (i, (g, e)) in got.iter().zip(&bench.lines).enumerate() {
        assert_eq!(g, e, "{name}: clock {i}");
    }
}

/// The SHA-512 H / T_l engine: random good requests of n = 24 and 32,
/// refused ones and aborts, recorded on the rust-hdl model and replayed on
/// the Verilated RTL.
#[test]
fn sha512_tweak_rtl_equals_rust_hdl_clock_for_clock() {
    use super::Sha512TweakEngine;
    if !verilator_required("sha512_tweak_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let bench = record_sha512_requests::<Sha512TweakEngine>(71, false);
    replay(Sha512TweakEngine::default(), "sha512_tweak", &bench);
}

/// The router with both engines: chains (SHA-256) and H / T_l (SHA-512)
/// in turn, refused requests and aborts, clock for clock.
#[test]
fn sha2_tweak_rtl_equals_rust_hdl_clock_for_clock() {
    use super::Sha2TweakEngine;
    if !verilator_required("sha2_tweak_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let bench = record_sha512_requests::<Sha2TweakEngine>(72, true);
    replay(Sha2TweakEngine::default(), "sha2_tweak", &bench);
}
