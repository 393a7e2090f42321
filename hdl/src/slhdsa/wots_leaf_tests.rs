//! Tests of the XMSS leaf job: the public key against `pqc`'s
//! `HashEngine::wots_pk` (SHAKE, software Keccak) for every n, the clock
//! count of `wots_leaf.rs`, a stalling sink, a refused n, abort and reset in
//! every request of the job, the yosys check, and the Verilator
//! cross-check of the exported Verilog, clock for clock.

use super::job_bench::{words_of, Job, JobBench, KeyMaterial, Outcome, COMMON_INPUTS, START};
use super::wots_leaf::{leaf_clocks, node_clocks, WotsLeafEngine};
use crate::ntt::sim::Lcg;
use crate::verilator::verilator_required;
use pqc::slhdsa::address::AddressType;
use pqc::slhdsa::HashEngine;
use rust_hdl::prelude::*;

/// Row indices of the node inputs.
const NODE_WRITE: usize = 11;
const START_NODE: usize = 14;
const NODE_HEIGHT: usize = 15;
const NODE_TREE_INDEX: usize = 16;

impl Job for WotsLeafEngine<1> {
    fn inputs() -> Vec<&'static str> {
        let mut names = COMMON_INPUTS.to_vec();
        names.extend([
            "node_write",
            "node_index",
            "node_word",
            "start_node",
            "node_height",
            "node_tree_index",
        ]);
        names
    }

    fn apply(&mut self, v: &[u64]) {
        self.reset.next = v[0] != 0;
        self.seed_write.next = v[1] != 0;
        self.seed_index.next = v[2].into();
        self.seed_word.next = v[3].into();
        self.adrs_write.next = v[4] != 0;
        self.adrs_index.next = v[5].into();
        self.adrs_word.next = v[6].into();
        self.start.next = v[7] != 0;
        self.n_bytes.next = v[8].into();
        self.abort_job.next = v[9] != 0;
        self.out_ready.next = v[10] != 0;
        self.node_write.next = v[11] != 0;
        self.node_index.next = v[12].into();
        self.node_word.next = v[13].into();
        self.start_node.next = v[14] != 0;
        self.node_height.next = v[15].into();
        self.node_tree_index.next = v[16].into();
    }

    fn clock_input(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn outputs(&self) -> [u64; 6] {
        [
            u64::from(self.busy.val()),
            u64::from(self.done.val()),
            u64::from(self.error.val()),
            self.out_data.val().to_u64(),
            u64::from(self.out_valid.val()),
            u64::from(self.out_last.val()),
        ]
    }
}

type Bench = JobBench<WotsLeafEngine<1>>;

/// The public key by `pqc` (software SHAKE).
fn reference(keys: &KeyMaterial) -> Vec<u8> {
    let mut pk = vec![0; keys.n];
    keys.with_engine(|e| e.wots_pk(&keys.adrs, &mut pk));
    pk
}

/// A whole good leaf: load, run, compare with `pqc`.
fn check_leaf(bench: &mut Bench, keys: &KeyMaterial, ready_one_in: u32) -> Outcome {
    bench.load(keys);
    let outcome = bench.run(START, keys.n as u64, ready_one_in, None);
    assert!(!outcome.error, "n = {}: error", keys.n);
    assert_eq!(
        outcome.bytes(),
        reference(keys),
        "n = {}: public key",
        keys.n
    );
    assert_eq!(
        outcome.last_at,
        Some(keys.n / 4 - 1),
        "TLAST on the final word"
    );
    outcome
}

#[test]
fn wots_leaf_matches_pqc_for_every_n_and_its_clock_count_is_public() {
    let mut bench = Bench::new(1);
    let mut rng = Lcg::new(205);
    let mut measured = vec![];
    for n in [16, 24, 32] {
        for _ in 0..2 {
            let keys = KeyMaterial::random(n, &mut rng);
            measured.push((n, check_leaf(&mut bench, &keys, 1).clocks));
        }
    }
    eprintln!("WOTS+ leaf (n, clocks): {measured:?}");
    for (n, clocks) in measured {
        assert_eq!(clocks, leaf_clocks(n), "n = {n}");
    }
}

/// Writes left ‖ right, computes the node at (height, index) and checks
/// it against `pqc`'s H with the TREE address built from the layer and
/// tree of `keys`.
fn check_node(
    bench: &mut Bench,
    keys: &KeyMaterial,
    children: &[u8],
    height: u32,
    index: u32,
) -> u64 {
    let n = keys.n;
    for (i, w) in words_of(children).enumerate() {
        bench.set(NODE_WRITE, 1);
        bench.set(NODE_WRITE + 1, i as u64);
        bench.set(NODE_WRITE + 2, w);
        bench.clock();
    }
    bench.set(NODE_WRITE, 0);
    bench.set(NODE_HEIGHT, u64::from(height));
    bench.set(NODE_TREE_INDEX, u64::from(index));
    let outcome = bench.run(START_NODE, n as u64, 1, None);
    let mut adrs = keys.adrs;
    adrs.set_type_and_clear(AddressType::Tree);
    adrs.set_tree_height(height);
    adrs.set_tree_index(index);
    let mut want = vec![0; n];
    keys.with_engine(|e| e.thash(&adrs, &children[..n], &children[n..], &mut want));
    assert!(!outcome.error, "n = {n}: node error");
    assert_eq!(outcome.bytes(), want, "n = {n}: node ({height}, {index})");
    assert_eq!(outcome.last_at, Some(n / 4 - 1));
    outcome.clocks
}

#[test]
fn merkle_node_matches_pqc_for_every_n_and_its_clock_count_is_public() {
    let mut bench = Bench::new(8);
    let mut rng = Lcg::new(9205);
    for n in [16, 24, 32] {
        let keys = KeyMaterial::random(n, &mut rng);
        bench.load(&keys);
        for (height, index) in [(1, 0), (3, 5), (9, 0x0102_0304 % 512), (12, 0x00AB_CDEF)] {
            let children: Vec<u8> = (0..2 * n).map(|_| rng.next_u32() as u8).collect();
            let clocks = check_node(&mut bench, &keys, &children, height, index);
            assert_eq!(clocks, node_clocks(n), "n = {n}");
        }
        // A leaf after nodes: the request state was left clean.
        check_leaf(&mut bench, &keys, 1);
    }
    assert!(bench.run(START_NODE, 20, 1, None).error, "n = 20 node");
}

#[test]
fn wots_leaf_with_a_stalling_sink_gives_the_same_key() {
    let mut bench = Bench::new(2);
    let mut rng = Lcg::new(7);
    let keys = KeyMaterial::random(24, &mut rng);
    let outcome = check_leaf(&mut bench, &keys, 3);
    assert!(outcome.clocks > leaf_clocks(24), "the sink stalled");
}

#[test]
fn wots_leaf_refuses_a_bad_n_at_once() {
    let mut bench = Bench::new(3);
    let mut rng = Lcg::new(9);
    for n in [0, 8, 20, 33, 63] {
        let outcome = bench.run(START, n, 1, None);
        assert!(outcome.error, "n = {n} accepted");
        assert_eq!(outcome.clocks, 1, "n = {n}: refused at once");
        assert!(outcome.words.is_empty(), "n = {n}: output");
    }
    check_leaf(&mut bench, &KeyMaterial::random(16, &mut rng), 1);
}

/// Abort in the first PRF, in the first chain, in a later chain and in
/// the compression: idle at once with `done` and `error`, and the next
/// leaf is right (the sponge was returned to idle too).
#[test]
fn wots_leaf_abort_in_any_request_then_a_good_leaf() {
    let mut bench = Bench::new(4);
    let mut rng = Lcg::new(11);
    let total = leaf_clocks(16);
    for abort_at in [3, 40, 3_000, total - 60] {
        let keys = KeyMaterial::random(16, &mut rng);
        bench.load(&keys);
        let outcome = bench.run(START, 16, 1, Some(abort_at));
        assert!(outcome.error, "abort at {abort_at}");
        assert_eq!(outcome.clocks, abort_at + 1, "idle on the abort clock");
        check_leaf(&mut bench, &keys, 1);
    }
}

#[test]
fn wots_leaf_reset_in_the_middle_then_a_good_leaf() {
    let mut bench = Bench::new(5);
    let mut rng = Lcg::new(13);
    let keys = KeyMaterial::random(16, &mut rng);
    bench.load(&keys);
    bench.set(START, 1);
    bench.set(8, 16);
    bench.clock();
    bench.set(START, 0);
    for _ in 0..2_000 {
        bench.clock();
    }
    assert_eq!(bench.outputs()[0], 1, "busy");
    bench.set(0, 1);
    bench.clock();
    bench.set(0, 0);
    assert_eq!(bench.outputs()[..3], [0, 0, 0], "idle, flags low");
    // Reset keeps the seeds and the address: only the job state is reset.
    let outcome = bench.run(START, 16, 1, None);
    assert_eq!(outcome.bytes(), reference(&keys));
}

#[test]
fn wots_leaf_yosys_validates() {
    let mut uut = WotsLeafEngine::<1>::default();
    uut.connect_all();
    yosys_validate("slh_wots_leaf", &generate_verilog(&uut)).unwrap();
}

/// Good leaves for n = 16 and 24 (the second with a stalling sink), a
/// refused n, an abort and a node, recorded on the rust-hdl model and
/// replayed on the Verilated RTL: every output equal on every clock.
#[test]
fn wots_leaf_rtl_equals_rust_hdl_clock_for_clock() {
    if !verilator_required("wots_leaf_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let mut bench = Bench::new(6);
    let mut rng = Lcg::new(17);
    check_leaf(&mut bench, &KeyMaterial::random(16, &mut rng), 1);
    assert!(bench.run(START, 20, 1, None).error);
    let keys = KeyMaterial::random(24, &mut rng);
    bench.load(&keys);
    assert!(bench.run(START, 24, 1, Some(5_000)).error);
    check_leaf(&mut bench, &keys, 2);
    let children: Vec<u8> = (0..48).map(|_| rng.next_u32() as u8).collect();
    check_node(&mut bench, &keys, &children, 2, 3);
    bench.assert_rtl_matches("slh_wots_leaf");
}

#[test]
fn slhdsa_blocks_meet_the_cell_delay_budget() {
    crate::export::assert_designs_meet_cell_delay_budget(&super::designs());
}
