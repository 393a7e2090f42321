//! Tests of the XMSS leaf job: the public key against `pqc`'s
//! `HashEngine::wots_pk` (SHAKE, software Keccak) for every n, the clock
//! count of `wots_leaf.rs`, a stalling sink, a refused n, abort and reset in
//! every request of the job, the yosys check, and the Verilator
//! cross-check of the exported Verilog, clock for clock.

use super::wots_leaf::{leaf_clocks, node_clocks, WotsLeafEngine};
use crate::mldsa::verilator_check::verilated_outputs_in;
use crate::ntt::sim::{settle, tick, Lcg};
use crate::verilator::verilator_required;
use pqc::keccak::SoftKeccak;
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::{HashEngine, ShakeEngine};
use rust_hdl::prelude::*;

/// Clocks after which a job that has not finished counts as hung.
const HANG_LIMIT: u64 = 100_000;

/// Input ports in the order of a recorded row.
const INPUTS: [&str; 17] = [
    "reset",
    "seed_write",
    "seed_index",
    "seed_word",
    "adrs_write",
    "adrs_index",
    "adrs_word",
    "start",
    "n_bytes",
    "abort_job",
    "out_ready",
    "node_write",
    "node_index",
    "node_word",
    "start_node",
    "node_height",
    "node_tree_index",
];
/// Output ports in the order of a recorded line.
const OUTPUTS: [&str; 6] = ["busy", "done", "error", "out_data", "out_valid", "out_last"];

/// Row index of `start` and of `start_node`.
const START: usize = 7;
const START_NODE: usize = 14;

/// One key pair's inputs.
struct Leaf {
    n: usize,
    pk_seed: Vec<u8>,
    sk_seed: Vec<u8>,
    adrs: Adrs,
}

impl Leaf {
    /// Random seeds and a WOTS_HASH address with random layer, tree and key
    /// pair.
    fn random(n: usize, rng: &mut Lcg) -> Self {
        let mut bytes = || (0..n).map(|_| rng.next_u32() as u8).collect::<Vec<u8>>();
        let pk_seed = bytes();
        let sk_seed = bytes();
        let mut adrs = Adrs::default();
        adrs.set_layer(rng.next_u32() % 22);
        adrs.set_tree((u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32()));
        adrs.set_type_and_clear(AddressType::WotsHash);
        adrs.set_keypair(rng.next_u32() % 512);
        Self {
            n,
            pk_seed,
            sk_seed,
            adrs,
        }
    }

    /// The public key by `pqc` (software SHAKE).
    fn reference(&self) -> Vec<u8> {
        let mut keccak = SoftKeccak;
        let mut engine = ShakeEngine::new(&mut keccak, &self.pk_seed, &self.sk_seed);
        let mut pk = vec![0; self.n];
        engine.wots_pk(&self.adrs, &mut pk);
        pk
    }
}

/// What a job gave.
#[derive(Debug, Default)]
struct Outcome {
    words: Vec<u32>,
    last_at: Option<usize>,
    error: bool,
    /// Clocks from the `start` clock to the first clock with `done` high.
    clocks: u64,
}

impl Outcome {
    fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// The job under the stepper; every clock's inputs and outputs are
/// recorded for the Verilator cross-check.
struct Bench {
    uut: WotsLeafEngine<1>,
    inputs: [u64; 17],
    rows: Vec<Vec<u64>>,
    lines: Vec<String>,
    rng: Lcg,
}

impl Bench {
    fn new(seed: u64) -> Self {
        let mut uut = WotsLeafEngine::<1>::default();
        uut.connect_all();
        settle(&mut uut);
        let mut bench = Self {
            uut,
            inputs: [0; 17],
            rows: vec![],
            lines: vec![],
            rng: Lcg::new(seed),
        };
        bench.set(0, 1);
        bench.clock();
        bench.set(0, 0);
        bench
    }

    fn set(&mut self, port: usize, value: u64) {
        self.inputs[port] = value;
    }

    fn apply(&mut self) {
        let v = self.inputs;
        let u = &mut self.uut;
        u.reset.next = v[0] != 0;
        u.seed_write.next = v[1] != 0;
        u.seed_index.next = v[2].into();
        u.seed_word.next = v[3].into();
        u.adrs_write.next = v[4] != 0;
        u.adrs_index.next = v[5].into();
        u.adrs_word.next = v[6].into();
        u.start.next = v[7] != 0;
        u.n_bytes.next = v[8].into();
        u.abort_job.next = v[9] != 0;
        u.out_ready.next = v[10] != 0;
        u.node_write.next = v[11] != 0;
        u.node_index.next = v[12].into();
        u.node_word.next = v[13].into();
        u.start_node.next = v[14] != 0;
        u.node_height.next = v[15].into();
        u.node_tree_index.next = v[16].into();
        settle(u);
    }

    /// One clock with the current inputs; records them and the outputs.
    fn clock(&mut self) {
        self.apply();
        tick(&mut self.uut, |u| &mut u.clock);
        let u = &self.uut;
        let out = [
            u64::from(u.busy.val()),
            u64::from(u.done.val()),
            u64::from(u.error.val()),
            u.out_data.val().to_u64(),
            u64::from(u.out_valid.val()),
            u64::from(u.out_last.val()),
        ];
        let line: Vec<String> = out.iter().map(|x| format!("{x:x}")).collect();
        self.lines.push(line.join(" "));
        self.rows.push(self.inputs.to_vec());
    }

    /// Writes the seeds and the address (with junk in the words the job
    /// sets itself, which it must ignore).
    fn load(&mut self, leaf: &Leaf) {
        for (k, seed) in [&leaf.pk_seed, &leaf.sk_seed].into_iter().enumerate() {
            for (i, w) in seed.chunks_exact(4).enumerate() {
                self.set(1, 1);
                self.set(2, (8 * k + i) as u64);
                self.set(3, u64::from(u32::from_le_bytes(w.try_into().unwrap())));
                self.clock();
            }
        }
        self.set(1, 0);
        for (i, w) in leaf.adrs.0.chunks_exact(4).enumerate() {
            let word = u64::from(u32::from_le_bytes(w.try_into().unwrap()));
            let junk = u64::from(self.rng.next_u32());
            self.set(4, 1);
            self.set(5, i as u64);
            self.set(6, if [4, 6, 7].contains(&i) { junk } else { word });
            self.clock();
        }
        self.set(4, 0);
    }

    /// Starts a job for n and runs it until `done`; `ready_one_in` paces
    /// the sink (1: always ready), `abort_at` raises `abort_job` for one
    /// clock that many clocks after the start.
    fn run(&mut self, n: u64, ready_one_in: u32, abort_at: Option<u64>) -> Outcome {
        self.run_from(START, n, ready_one_in, abort_at)
    }

    /// [`Self::run`] for the job started by the input `start_port`.
    fn run_from(
        &mut self,
        start_port: usize,
        n: u64,
        ready_one_in: u32,
        abort_at: Option<u64>,
    ) -> Outcome {
        self.set(start_port, 1);
        self.set(8, n);
        self.clock();
        self.set(start_port, 0);
        let mut outcome = Outcome::default();
        let mut clocks = 1;
        loop {
            self.set(9, u64::from(abort_at == Some(clocks)));
            let ready = self.rng.next_u32() % ready_one_in == 0;
            self.set(10, u64::from(ready));
            self.apply();
            let u = &self.uut;
            if u.done.val() && !u.abort_job.val() {
                outcome.error = u.error.val();
                outcome.clocks = clocks;
                assert!(!u.busy.val(), "done while busy");
                break;
            }
            if u.out_valid.val() && ready {
                if u.out_last.val() {
                    assert!(outcome.last_at.is_none(), "two TLAST beats");
                    outcome.last_at = Some(outcome.words.len());
                }
                outcome.words.push(u.out_data.val().to_u64() as u32);
            }
            assert!(
                clocks < HANG_LIMIT,
                "job not done after {HANG_LIMIT} clocks"
            );
            self.clock();
            clocks += 1;
        }
        self.set(9, 0);
        self.set(10, 0);
        outcome
    }

    /// A whole good leaf: load, run, compare with `pqc`.
    fn check_leaf(&mut self, leaf: &Leaf, ready_one_in: u32) -> Outcome {
        self.load(leaf);
        let outcome = self.run(leaf.n as u64, ready_one_in, None);
        assert!(!outcome.error, "n = {}: error", leaf.n);
        assert_eq!(
            outcome.bytes(),
            leaf.reference(),
            "n = {}: public key",
            leaf.n
        );
        assert_eq!(
            outcome.last_at,
            Some(leaf.n / 4 - 1),
            "TLAST on the final word"
        );
        outcome
    }
}

#[test]
fn wots_leaf_matches_pqc_for_every_n_and_its_clock_count_is_public() {
    let mut bench = Bench::new(1);
    let mut rng = Lcg::new(205);
    let mut measured = vec![];
    for n in [16, 24, 32] {
        for _ in 0..2 {
            let leaf = Leaf::random(n, &mut rng);
            measured.push((n, bench.check_leaf(&leaf, 1).clocks));
        }
    }
    eprintln!("WOTS+ leaf (n, clocks): {measured:?}");
    for (n, clocks) in measured {
        assert_eq!(clocks, leaf_clocks(n), "n = {n}");
    }
}

/// Writes left ‖ right, computes the node at (height, index) and checks
/// it against `pqc`'s H with the TREE address built from `leaf`'s layer
/// and tree.
fn check_node(bench: &mut Bench, leaf: &Leaf, children: &[u8], height: u32, index: u32) -> u64 {
    let n = leaf.n;
    for (i, w) in children.chunks_exact(4).enumerate() {
        bench.set(11, 1);
        bench.set(12, i as u64);
        bench.set(13, u64::from(u32::from_le_bytes(w.try_into().unwrap())));
        bench.clock();
    }
    bench.set(11, 0);
    bench.set(15, u64::from(height));
    bench.set(16, u64::from(index));
    let outcome = bench.run_from(START_NODE, n as u64, 1, None);
    let mut keccak = SoftKeccak;
    let mut engine = ShakeEngine::new(&mut keccak, &leaf.pk_seed, &leaf.sk_seed);
    let mut adrs = leaf.adrs;
    adrs.set_type_and_clear(AddressType::Tree);
    adrs.set_tree_height(height);
    adrs.set_tree_index(index);
    let mut want = vec![0; n];
    engine.thash(&adrs, &children[..n], &children[n..], &mut want);
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
        let leaf = Leaf::random(n, &mut rng);
        bench.load(&leaf);
        for (height, index) in [(1, 0), (3, 5), (9, 0x0102_0304 % 512), (12, 0x00AB_CDEF)] {
            let children: Vec<u8> = (0..2 * n).map(|_| rng.next_u32() as u8).collect();
            let clocks = check_node(&mut bench, &leaf, &children, height, index);
            assert_eq!(clocks, node_clocks(n), "n = {n}");
        }
        // A leaf after nodes: the request state was left clean.
        bench.check_leaf(&leaf, 1);
    }
    assert!(bench.run_from(START_NODE, 20, 1, None).error, "n = 20 node");
}

#[test]
fn wots_leaf_with_a_stalling_sink_gives_the_same_key() {
    let mut bench = Bench::new(2);
    let mut rng = Lcg::new(7);
    let leaf = Leaf::random(24, &mut rng);
    let outcome = bench.check_leaf(&leaf, 3);
    assert!(outcome.clocks > leaf_clocks(24), "the sink stalled");
}

#[test]
fn wots_leaf_refuses_a_bad_n_at_once() {
    let mut bench = Bench::new(3);
    let mut rng = Lcg::new(9);
    for n in [0, 8, 20, 33, 63] {
        let outcome = bench.run(n, 1, None);
        assert!(outcome.error, "n = {n} accepted");
        assert_eq!(outcome.clocks, 1, "n = {n}: refused at once");
        assert!(outcome.words.is_empty(), "n = {n}: output");
    }
    bench.check_leaf(&Leaf::random(16, &mut rng), 1);
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
        let leaf = Leaf::random(16, &mut rng);
        bench.load(&leaf);
        let outcome = bench.run(16, 1, Some(abort_at));
        assert!(outcome.error, "abort at {abort_at}");
        assert_eq!(outcome.clocks, abort_at + 1, "idle on the abort clock");
        bench.check_leaf(&leaf, 1);
    }
}

#[test]
fn wots_leaf_reset_in_the_middle_then_a_good_leaf() {
    let mut bench = Bench::new(5);
    let mut rng = Lcg::new(13);
    let leaf = Leaf::random(16, &mut rng);
    bench.load(&leaf);
    bench.set(START, 1);
    bench.set(8, 16);
    bench.clock();
    bench.set(START, 0);
    bench.set(10, 1);
    for _ in 0..2_000 {
        bench.clock();
    }
    assert!(bench.uut.busy.val());
    bench.set(0, 1);
    bench.clock();
    bench.set(0, 0);
    let u = &bench.uut;
    assert!(!u.busy.val() && !u.done.val() && !u.error.val());
    // Reset keeps the seeds and the address: only the job state is reset.
    let outcome = bench.run(16, 1, None);
    assert_eq!(outcome.bytes(), leaf.reference());
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
    bench.check_leaf(&Leaf::random(16, &mut rng), 1);
    assert!(bench.run(20, 1, None).error);
    let leaf = Leaf::random(24, &mut rng);
    bench.load(&leaf);
    assert!(bench.run(24, 1, Some(5_000)).error);
    bench.check_leaf(&leaf, 2);
    let children: Vec<u8> = (0..48).map(|_| rng.next_u32() as u8).collect();
    check_node(&mut bench, &leaf, &children, 2, 3);
    let got = verilated_outputs_in(
        "slhdsa-wots-leaf",
        WotsLeafEngine::<1>::default(),
        "slh_wots_leaf",
        &INPUTS,
        &OUTPUTS,
        &bench.rows,
    )
    .unwrap();
    assert_eq!(got.len(), bench.lines.len());
    for (i, (g, e)) in got.iter().zip(&bench.lines).enumerate() {
        assert_eq!(g, e, "slh_wots_leaf: clock {i}");
    }
}

#[test]
fn slhdsa_blocks_meet_the_cell_delay_budget() {
    crate::export::assert_designs_meet_cell_delay_budget(&super::designs());
}
