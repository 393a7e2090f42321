//! Tests of the hypertree signature job: SIG_HT ‖ root against ht_sign
//! built in the test from `pqc`'s primitives (the WOTS+ signature and tree
//! helpers of the leaf and tree tests), the clock count of `hypertree.rs`
//! (the same for every message and index), refused requests, abort, the
//! yosys check, the Verilator cross-check clock for clock, and (opt-in) the
//! whole SLH-DSA-SHAKE-128f hypertree against PK.root.

use super::hypertree::{hypertree_clocks, HypertreeEngine};
use super::job_bench::{
    apply_common_inputs, common_outputs, words_of, Job, JobBench, KeyMaterial, Outcome, ADRS_WRITE,
    COMMON_INPUTS, START,
};
use super::wots_leaf_tests::wots_signature;
use super::xmss_tree_tests::reference as tree_reference;
use crate::ntt::sim::Lcg;
use crate::verilator::verilator_required;
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::params;
use rust_hdl::prelude::*;

/// Row indices of the hypertree inputs.
const TREE_HEIGHT: usize = 11;
const LAYERS: usize = 12;
const IDX_TREE: usize = 13;
const IDX_LEAF: usize = 14;

impl Job for HypertreeEngine<1> {
    const ADDRESSED: bool = false;

    fn inputs() -> Vec<&'static str> {
        let mut names = COMMON_INPUTS.to_vec();
        names[ADRS_WRITE..ADRS_WRITE + 3].copy_from_slice(&["msg_write", "msg_index", "msg_word"]);
        names.extend(["tree_height", "layers", "idx_tree", "idx_leaf"]);
        names
    }

    fn apply(&mut self, v: &[u64]) {
        apply_common_inputs!(self, v, msg_write, msg_index, msg_word);
        self.tree_height.next = v[11].into();
        self.layers.next = v[12].into();
        self.idx_tree.next = v[13].into();
        self.idx_leaf.next = v[14].into();
    }

    fn clock_input(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn outputs(&self) -> Vec<u64> {
        common_outputs!(self)
    }
}

type Bench = JobBench<HypertreeEngine<1>>;

/// One hypertree request.
struct Request {
    n: usize,
    height: u32,
    layers: u32,
    pk_seed: Vec<u8>,
    sk_seed: Vec<u8>,
    msg: Vec<u8>,
    idx_tree: u64,
    idx_leaf: u32,
}

impl Request {
    fn random(n: usize, height: u32, layers: u32, rng: &mut Lcg) -> Self {
        let mut bytes = || (0..n).map(|_| rng.next_u32() as u8).collect::<Vec<u8>>();
        let (pk_seed, sk_seed, msg) = (bytes(), bytes(), bytes());
        let tree_bits = height * (layers - 1);
        let wide = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
        Self {
            n,
            height,
            layers,
            pk_seed,
            sk_seed,
            msg,
            idx_tree: if tree_bits == 0 {
                0
            } else {
                wide >> (64 - tree_bits)
            },
            idx_leaf: rng.next_u32() % (1 << height),
        }
    }

    fn keys(&self) -> KeyMaterial {
        KeyMaterial {
            n: self.n,
            pk_seed: self.pk_seed.clone(),
            sk_seed: self.sk_seed.clone(),
            adrs: Adrs::default(),
        }
    }

    /// SIG_HT ‖ root by ht_sign (FIPS 205 Algorithm 12) built here from the
    /// WOTS+ signature and the tree of each layer.
    fn reference(&self) -> Vec<u8> {
        let (n, h) = (self.n, self.height as usize);
        let mut out = Vec::new();
        let mut msg = self.msg.clone();
        let (mut tree, mut leaf) = (self.idx_tree, self.idx_leaf);
        for layer in 0..self.layers {
            let mut keys = self.keys();
            keys.adrs.set_layer(layer);
            keys.adrs.set_tree(tree);
            keys.adrs.set_type_and_clear(AddressType::WotsHash);
            keys.adrs.set_keypair(leaf);
            out.extend(wots_signature(&keys, &msg));
            let auth_root = tree_reference(&keys, self.height, leaf);
            out.extend_from_slice(&auth_root[..h * n]);
            msg = auth_root[h * n..].to_vec();
            leaf = (tree & ((1 << h) - 1)) as u32;
            tree >>= h;
        }
        out.extend(msg);
        out
    }

    /// Loads seeds and M, sets the request and runs it.
    fn run(&self, bench: &mut Bench, ready_one_in: u32, abort_at: Option<u64>) -> Outcome {
        bench.load(&self.keys());
        bench.write_words(ADRS_WRITE, 0, words_of(&self.msg));
        bench.set(TREE_HEIGHT, u64::from(self.height));
        bench.set(LAYERS, u64::from(self.layers));
        bench.set(IDX_TREE, self.idx_tree);
        bench.set(IDX_LEAF, u64::from(self.idx_leaf));
        bench.run(START, self.n as u64, ready_one_in, abort_at)
    }

    fn check(&self, bench: &mut Bench, ready_one_in: u32) -> Outcome {
        let outcome = self.run(bench, ready_one_in, None);
        assert!(!outcome.error, "error");
        let want = self.reference();
        assert_eq!(
            outcome.bytes(),
            want,
            "SIG_HT ‖ root (h′ = {})",
            self.height
        );
        assert_eq!(outcome.last_at, Some(want.len() / 4 - 1));
        outcome
    }
}

#[test]
fn hypertree_is_ht_sign_and_its_clock_count_is_public() {
    let mut bench = Bench::new(1);
    let mut rng = Lcg::new(12);
    for (height, layers) in [(1, 3), (2, 2), (1, 3)] {
        let request = Request::random(16, height, layers, &mut rng);
        let outcome = request.check(&mut bench, 1);
        assert_eq!(
            outcome.clocks,
            hypertree_clocks(16, height, u64::from(layers)),
            "h′ = {height}, d = {layers}"
        );
    }
}

#[test]
fn hypertree_refuses_bad_requests() {
    let mut bench = Bench::new(2);
    let mut rng = Lcg::new(13);
    for (n, height, layers, leaf, at_once) in [
        (20, 1, 2, 0, true),
        (16, 1, 0, 0, true),
        (16, 1, 23, 0, true),
        (16, 0, 2, 0, false),
        (16, 2, 2, 4, false),
    ] {
        let mut request = Request::random(n, 1, 2, &mut rng);
        request.height = height;
        request.layers = layers;
        request.idx_leaf = leaf;
        let outcome = request.run(&mut bench, 1, None);
        assert!(
            outcome.error,
            "n = {n}, h′ = {height}, d = {layers}, leaf {leaf}"
        );
        assert!(outcome.words.is_empty());
        if at_once {
            assert_eq!(outcome.clocks, 1, "refused at once");
        } else {
            assert!(outcome.clocks < 20, "refused by the tree job");
        }
    }
    Request::random(16, 1, 2, &mut rng).check(&mut bench, 1);
}

/// Abort in the second layer, then a good hypertree with a stalling sink.
#[test]
fn hypertree_abort_then_a_good_one_with_a_stalling_sink() {
    let mut bench = Bench::new(3);
    let mut rng = Lcg::new(14);
    let request = Request::random(16, 1, 2, &mut rng);
    let abort_at = hypertree_clocks(16, 1, 2) - 1_000;
    let outcome = request.run(&mut bench, 1, Some(abort_at));
    assert!(outcome.error);
    assert_eq!(outcome.clocks, abort_at + 1, "idle on the abort clock");
    let outcome = request.check(&mut bench, 3);
    assert!(
        outcome.clocks > hypertree_clocks(16, 1, 2),
        "the sink stalled"
    );
}

#[test]
fn hypertree_yosys_validates() {
    let mut uut = HypertreeEngine::<1>::default();
    uut.connect_all();
    yosys_validate("slh_hypertree", &generate_verilog(&uut)).unwrap();
}

/// Two layers with a stalling sink, a refused request and an abort,
/// recorded on the rust-hdl model and replayed on the Verilated RTL.
#[test]
fn hypertree_rtl_equals_rust_hdl_clock_for_clock() {
    if !verilator_required("hypertree_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let mut bench = Bench::new(4);
    let mut rng = Lcg::new(15);
    let request = Request::random(16, 1, 2, &mut rng);
    request.check(&mut bench, 2);
    let mut bad = Request::random(16, 1, 2, &mut rng);
    bad.layers = 0;
    assert!(bad.run(&mut bench, 1, None).error);
    assert!(request.run(&mut bench, 1, Some(40_000)).error);
    bench.assert_rtl_matches("slh_hypertree");
}

/// The whole hypertree of SLH-DSA-SHAKE-128f (d = 22, h′ = 3): SIG_HT
/// against the test's ht_sign and the top root against PK.root of `pqc`'s
/// key generation; about 2.8 M simulated clocks.
#[test]
#[ignore = "about four minutes of rust-hdl simulation; PQC_FULL=1 runs it"]
fn hypertree_of_shake_128f_ends_at_pk_root() {
    let p = &params::SHAKE_128F;
    let mut rng = Lcg::new(128);
    let mut request = Request::random(p.n, p.hp as u32, p.d as u32, &mut rng);
    let sk_prf: Vec<u8> = (0..p.n).map(|_| rng.next_u32() as u8).collect();
    let mut sk = vec![0; p.sk_bytes()];
    let mut pk = vec![0; p.pk_bytes()];
    pqc::slhdsa::slh_keygen_internal(
        p,
        &request.sk_seed,
        &sk_prf,
        &request.pk_seed,
        &mut sk,
        &mut pk,
    )
    .unwrap();
    request.idx_tree &= (1 << (p.h - p.hp)) - 1;
    let mut bench = Bench::new(5);
    let outcome = request.check(&mut bench, 1);
    let bytes = outcome.bytes();
    assert_eq!(
        &bytes[bytes.len() - p.n..],
        &pk[p.n..],
        "top root = PK.root"
    );
    assert_eq!(
        outcome.clocks,
        hypertree_clocks(p.n, p.hp as u32, p.d as u64)
    );
}
