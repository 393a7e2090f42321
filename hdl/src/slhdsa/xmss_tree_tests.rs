//! Tests of the XMSS tree job: AUTH ‖ root against a tree built in the test
//! from `pqc`'s `wots_pk` and H (SHAKE, software Keccak), the root against
//! the ACVP PK.root of SLH-DSA-SHAKE-128f, the clock count of
//! `xmss_tree.rs` (the same for every leaf index), a stalling sink, refused
//! requests, abort, the yosys check, and the Verilator cross-check of the
//! exported Verilog, clock for clock.

use super::job_bench::{
    apply_common_inputs, common_outputs, words_of, Job, JobBench, KeyMaterial, Outcome,
    COMMON_INPUTS, OUTPUTS, START,
};
use super::wots_leaf::{
    fors_leaf_from_sk_clocks, fors_prefix_clocks, pk_from_sig_clocks, SPONGE_ROUNDS_PER_CLOCK,
};
use super::wots_leaf_tests::{fors_adrs, fors_sk_and_leaf, wots_digits, wots_signature};
use super::xmss_tree::{
    climb_clocks, fors_sign_tree_clocks, fors_tree_clocks, sign_tree_clocks, tree_clocks,
    XmssTreeEngine,
};
use crate::ntt::sim::Lcg;
use crate::verilator::verilator_required;
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::{params, HashEngine, Params};
use rust_hdl::prelude::*;

/// Row indices of the tree inputs.
const TREE_HEIGHT: usize = 11;
const LEAF_INDEX: usize = 12;
const SIGN: usize = 13;
const MSG_WRITE: usize = 14;
/// Row indices of the FORS inputs.
const FORS: usize = 17;
const FORS_TREE: usize = 18;
const START_ROOTS: usize = 19;
const FORS_TREES: usize = 20;
/// Row indices of the climb inputs.
const CLIMB: usize = 21;
const AUTH_WRITE: usize = 22;
const SIG_WRITE: usize = 25;
const NODE_WRITE: usize = 28;

impl Job for XmssTreeEngine<SPONGE_ROUNDS_PER_CLOCK> {
    fn inputs() -> Vec<&'static str> {
        let mut names = COMMON_INPUTS.to_vec();
        names.extend([
            "tree_height",
            "leaf_index",
            "sign",
            "msg_write",
            "msg_index",
            "msg_word",
            "fors",
            "fors_tree",
            "start_roots",
            "fors_trees",
            "climb",
            "auth_write",
            "auth_index",
            "auth_word",
            "sig_write",
            "sig_index",
            "sig_word",
            "node_write",
            "node_index",
            "node_word",
        ]);
        names
    }

    fn output_names() -> Vec<&'static str> {
        let mut names = OUTPUTS.to_vec();
        names.push("out_root");
        names
    }

    fn apply(&mut self, v: &[u64]) {
        apply_common_inputs!(self, v, adrs_write, adrs_index, adrs_word);
        self.tree_height.next = v[11].into();
        self.leaf_index.next = v[12].into();
        self.sign.next = v[13] != 0;
        self.msg_write.next = v[14] != 0;
        self.msg_index.next = v[15].into();
        self.msg_word.next = v[16].into();
        self.fors.next = v[17] != 0;
        self.fors_tree.next = v[18].into();
        self.start_roots.next = v[19] != 0;
        self.fors_trees.next = v[20].into();
        self.climb.next = v[21] != 0;
        self.auth_write.next = v[22] != 0;
        self.auth_index.next = v[23].into();
        self.auth_word.next = v[24].into();
        self.sig_write.next = v[25] != 0;
        self.sig_index.next = v[26].into();
        self.sig_word.next = v[27].into();
        self.node_write.next = v[28] != 0;
        self.node_index.next = v[29].into();
        self.node_word.next = v[30].into();
    }

    fn clock_input(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn outputs(&self) -> Vec<u64> {
        let mut values = common_outputs!(self);
        values.push(u64::from(self.out_root.val()));
        values
    }
}

type Bench = JobBench<XmssTreeEngine<SPONGE_ROUNDS_PER_CLOCK>>;

/// AUTH ‖ root of the tree of `keys` (its layer and tree address) for leaf
/// `index`, built here level by level from `pqc`'s WOTS+ public keys and H.
pub(super) fn reference(keys: &KeyMaterial, height: u32, index: u32) -> Vec<u8> {
    let n = keys.n;
    keys.with_engine(|e| {
        let mut level: Vec<Vec<u8>> = (0..1u32 << height)
            .map(|i| {
                let mut adrs = keys.adrs;
                adrs.set_type_and_clear(AddressType::WotsHash);
                adrs.set_keypair(i);
                let mut pk = vec![0; n];
                e.wots_pk(&adrs, &mut pk);
                pk
            })
            .collect();
        let mut out = Vec::new();
        for z in 0..height {
            out.extend_from_slice(&level[((index >> z) ^ 1) as usize]);
            let mut adrs = keys.adrs;
            adrs.set_type_and_clear(AddressType::Tree);
            adrs.set_tree_height(z + 1);
            level = level
                .chunks_exact(2)
                .enumerate()
                .map(|(j, pair)| {
                    adrs.set_tree_index(j as u32);
                    let mut node = vec![0; n];
                    e.thash(&adrs, &pair[0], &pair[1], &mut node);
                    node
                })
                .collect();
        }
        out.extend_from_slice(&level[0]);
        out
    })
}

/// Loads `keys`, runs the tree for leaf `index`, checks AUTH ‖ root.
fn check_tree(
    bench: &mut Bench,
    keys: &KeyMaterial,
    height: u32,
    index: u32,
    ready_one_in: u32,
) -> Outcome {
    bench.load(keys);
    bench.set(TREE_HEIGHT, u64::from(height));
    bench.set(LEAF_INDEX, u64::from(index));
    let outcome = bench.run(START, keys.n as u64, ready_one_in, None);
    let n = keys.n;
    assert!(!outcome.error, "n = {n}, h′ = {height}: error");
    assert_eq!(
        outcome.bytes(),
        reference(keys, height, index),
        "n = {n}, h′ = {height}, leaf {index}: AUTH ‖ root"
    );
    assert_eq!(outcome.last_at, Some((height as usize + 1) * n / 4 - 1));
    outcome
}

/// xmss_sign (FIPS 205 Algorithm 10) of `msg` with leaf `index`, and the
/// root: σ_WOTS ‖ AUTH ‖ root against the test's own WOTS+ signature and
/// tree.
fn check_signing_tree(
    bench: &mut Bench,
    keys: &KeyMaterial,
    height: u32,
    index: u32,
    msg: &[u8],
    ready_one_in: u32,
) -> Outcome {
    bench.load(keys);
    bench.write_words(MSG_WRITE, 0, words_of(msg));
    bench.set(TREE_HEIGHT, u64::from(height));
    bench.set(LEAF_INDEX, u64::from(index));
    bench.set(SIGN, 1);
    let outcome = bench.run(START, keys.n as u64, ready_one_in, None);
    bench.set(SIGN, 0);
    assert!(!outcome.error);
    let mut leaf_adrs = keys.adrs;
    leaf_adrs.set_keypair(index);
    let leaf_keys = KeyMaterial {
        n: keys.n,
        pk_seed: keys.pk_seed.clone(),
        sk_seed: keys.sk_seed.clone(),
        adrs: leaf_adrs,
    };
    let mut want = wots_signature(&leaf_keys, msg);
    want.extend(reference(keys, height, index));
    assert_eq!(
        outcome.bytes(),
        want,
        "n = {}, leaf {index}: σ ‖ AUTH ‖ root",
        keys.n
    );
    assert_eq!(outcome.last_at, Some(want.len() / 4 - 1));
    outcome
}

/// Signing trees with messages of all-0, all-15 and random digits and
/// several leaves: the clock count is the same for every message and leaf;
/// and one with a stalling sink.
#[test]
fn signing_tree_is_xmss_sign_for_every_message() {
    let mut bench = Bench::new(7);
    let mut rng = Lcg::new(10);
    let keys = KeyMaterial::random(16, &mut rng);
    let random: Vec<u8> = (0..16).map(|_| rng.next_u32() as u8).collect();
    for (index, msg) in [(3, random), (0, vec![0; 16]), (2, vec![0xFF; 16])] {
        let outcome = check_signing_tree(&mut bench, &keys, 2, index, &msg, 1);
        assert_eq!(outcome.clocks, sign_tree_clocks(16, 2), "leaf {index}");
    }
    check_signing_tree(&mut bench, &keys, 1, 1, &[0x3C; 16], 3);
}

/// The seeds of an ACVP-checked key and the address of the top XMSS tree
/// (layer d − 1, tree 0), whose root is PK.root (FIPS 205 Algorithm 18).
fn top_tree(p: &Params, sk_seed: &[u8], pk_seed: &[u8]) -> KeyMaterial {
    let mut adrs = Adrs::default();
    adrs.set_layer(p.d as u32 - 1);
    KeyMaterial {
        n: p.n,
        pk_seed: pk_seed.to_vec(),
        sk_seed: sk_seed.to_vec(),
        adrs,
    }
}

/// SLH-DSA-SHAKE-128f's top tree (h′ = 3) from the ACVP keyGen case of
/// `pqc_selftest`: the root is the case's PK.root, the authentication path
/// that of the test's own tree, and the clock count the formula's for two
/// leaf indices.
#[test]
fn xmss_tree_root_is_the_acvp_pk_root_of_shake_128f() {
    let p = &params::SHAKE_128F;
    let case = &pqc_selftest::vectors::SLH_DSA[0];
    assert_eq!(case.name, p.name);
    let keygen = &case.keygen;
    let keys = top_tree(p, keygen.sk_seed, keygen.pk_seed);
    let mut bench = Bench::new(1);
    let mut counts = vec![];
    for index in [5, 0] {
        let outcome = check_tree(&mut bench, &keys, p.hp as u32, index, 1);
        let bytes = outcome.bytes();
        assert_eq!(&bytes[p.hp * p.n..], &keygen.pk[p.n..], "PK.root (ACVP)");
        counts.push(outcome.clocks);
    }
    eprintln!("XMSS tree, SHAKE-128f (n = 16, h′ = 3): {counts:?} clocks");
    assert_eq!(counts, [tree_clocks(16, 3); 2]);
}

/// n = 24 and 32 on small trees (h′ = 1), with random seeds and address.
#[test]
fn xmss_tree_matches_for_n_24_and_32() {
    let mut bench = Bench::new(2);
    let mut rng = Lcg::new(24);
    for (n, index) in [(24, 1), (32, 0)] {
        let keys = KeyMaterial::random(n, &mut rng);
        let outcome = check_tree(&mut bench, &keys, 1, index, 1);
        assert_eq!(outcome.clocks, tree_clocks(n, 1), "n = {n}");
    }
}

/// The top trees of SLH-DSA-SHAKE-192f (h′ = 3) and 256f (h′ = 4): roots
/// against `pqc`'s key generation (itself checked against every ACVP
/// keyGen case), about 700,000 simulated clocks.
#[test]
#[ignore = "about a minute of rust-hdl simulation; PQC_FULL=1 runs it"]
fn xmss_tree_roots_of_shake_192f_and_256f() {
    let mut rng = Lcg::new(192);
    for p in [&params::SHAKE_192F, &params::SHAKE_256F] {
        let mut seed = || (0..p.n).map(|_| rng.next_u32() as u8).collect::<Vec<u8>>();
        let (sk_seed, sk_prf, pk_seed) = (seed(), seed(), seed());
        let mut sk = vec![0; p.sk_bytes()];
        let mut pk = vec![0; p.pk_bytes()];
        pqc::slhdsa::slh_keygen_internal(p, &sk_seed, &sk_prf, &pk_seed, &mut sk, &mut pk).unwrap();
        let keys = top_tree(p, &sk_seed, &pk_seed);
        let mut bench = Bench::new(3);
        let outcome = check_tree(&mut bench, &keys, p.hp as u32, 1, 1);
        assert_eq!(
            &outcome.bytes()[p.hp * p.n..],
            &pk[p.n..],
            "{}: PK.root",
            p.name
        );
        assert_eq!(outcome.clocks, tree_clocks(p.n, p.hp as u32), "{}", p.name);
    }
}

/// The secret value of leaf `index` of FORS tree `tree` (height a), its
/// AUTH and the tree's root, built here from `pqc`'s PRF, F and H.
pub(super) fn fors_reference(keys: &KeyMaterial, a: u32, tree: u32, index: u32) -> [Vec<u8>; 3] {
    let n = keys.n;
    let base = tree << a;
    let sk = fors_sk_and_leaf(keys, base + index).0;
    let mut level: Vec<Vec<u8>> = (0..1u32 << a)
        .map(|j| fors_sk_and_leaf(keys, base + j).1)
        .collect();
    let mut auth = Vec::new();
    keys.with_engine(|e| {
        for z in 0..a {
            auth.extend_from_slice(&level[((index >> z) ^ 1) as usize]);
            let mut adrs = fors_adrs(keys, AddressType::ForsTree);
            adrs.set_tree_height(z + 1);
            level = level
                .chunks_exact(2)
                .enumerate()
                .map(|(j, pair)| {
                    adrs.set_tree_index((base >> (z + 1)) + j as u32);
                    let mut node = vec![0; n];
                    e.thash(&adrs, &pair[0], &pair[1], &mut node);
                    node
                })
                .collect();
        }
    });
    [sk, auth, level.remove(0)]
}

/// FORS tree `tree` of height a for leaf `index` ([sk ‖] AUTH ‖ root, the
/// root words flagged `out_root`) against the test's own tree; the outcome
/// and the root.
fn check_fors_tree(
    bench: &mut Bench,
    keys: &KeyMaterial,
    (a, tree, index): (u32, u32, u32),
    sign: bool,
    ready_one_in: u32,
) -> (Outcome, Vec<u8>) {
    let n = keys.n;
    bench.set(FORS, 1);
    bench.set(FORS_TREE, u64::from(tree));
    bench.set(TREE_HEIGHT, u64::from(a));
    bench.set(LEAF_INDEX, u64::from(index));
    bench.set(SIGN, u64::from(sign));
    let outcome = bench.run(START, n as u64, ready_one_in, None);
    bench.set(FORS, 0);
    bench.set(SIGN, 0);
    let [sk, auth, root] = fors_reference(keys, a, tree, index);
    let want = [if sign { sk } else { vec![] }, auth, root.clone()].concat();
    assert!(!outcome.error, "n = {n}, a = {a}, tree {tree}");
    assert_eq!(
        outcome.bytes(),
        want,
        "n = {n}, a = {a}, tree {tree}, leaf {index}: [sk ‖] AUTH ‖ root"
    );
    let words = want.len() / 4;
    assert_eq!(outcome.last_at, Some(words - 1));
    let flags: Vec<u64> = (0..words).map(|i| u64::from(i >= words - n / 4)).collect();
    assert_eq!(outcome.kinds, flags, "out_root on the root only");
    (outcome, root)
}

/// The FORS public key over the roots the trees wrote into the leaf
/// engine's memory, against `pqc`'s T_k.
fn check_fors_roots(bench: &mut Bench, keys: &KeyMaterial, roots: &[u8], ready_one_in: u32) {
    let n = keys.n;
    let k = roots.len() / n;
    bench.set(FORS_TREES, k as u64);
    let outcome = bench.run(START_ROOTS, n as u64, ready_one_in, None);
    let mut want = vec![0; n];
    let adrs = fors_adrs(keys, AddressType::ForsRoots);
    keys.with_engine(|e| e.thash(&adrs, roots, &[], &mut want));
    assert!(!outcome.error, "n = {n}, k = {k}");
    assert_eq!(outcome.bytes(), want, "n = {n}, k = {k}: FORS pk");
    assert_eq!(outcome.last_at, Some(n / 4 - 1));
}

/// FORS trees (fors_sign's per-tree part, FIPS 205 Algorithms 15–16) for
/// every n, signing and not, each in the clocks of `fors_tree_clocks`,
/// and the FORS public key over their roots (Algorithm 16's T_k); an
/// XMSS tree after them (the mode is per start).
#[test]
fn fors_trees_and_their_public_key_match_pqc() {
    let mut bench = Bench::new(8);
    let mut rng = Lcg::new(1416);
    for (n, a, k) in [(16, 3, 3), (24, 2, 2), (32, 1, 2)] {
        let keys = KeyMaterial::random(n, &mut rng);
        bench.load(&keys);
        let mut roots = vec![];
        for tree in 0..k {
            let index = rng.next_u32() % (1 << a);
            let sign = tree != 1;
            let (outcome, root) = check_fors_tree(&mut bench, &keys, (a, tree, index), sign, 1);
            // The first tree after the address writes sets the FORS prefix.
            let prefix = if tree == 0 { fors_prefix_clocks(n) } else { 0 };
            let clocks = if sign {
                fors_sign_tree_clocks(n, a)
            } else {
                fors_tree_clocks(n, a)
            };
            assert_eq!(outcome.clocks, prefix + clocks, "n = {n}, a = {a}");
            roots.extend(root);
        }
        check_fors_roots(&mut bench, &keys, &roots, 2);
        check_tree(&mut bench, &keys, 1, 0, 1);
    }
}

/// The leaf signature of a climb: σ_WOTS of a message, or a FORS tree's
/// secret value.
enum LeafSignature<'a> {
    Wots { sig: &'a [u8], msg: &'a [u8] },
    Fors { tree: u32, sk: &'a [u8] },
}

/// Climbs from leaf `index`'s signature and `auth` (h′ nodes) to the root
/// (xmss_pkFromSig, or a FORS tree's part of fors_pkFromSig).
fn climb(
    bench: &mut Bench,
    keys: &KeyMaterial,
    (height, index): (u32, u32),
    leaf: LeafSignature<'_>,
    auth: &[u8],
) -> Outcome {
    let n = keys.n;
    bench.load(keys);
    for (z, node) in auth.chunks_exact(n).enumerate() {
        bench.write_words(AUTH_WRITE, 8 * z, words_of(node));
    }
    match leaf {
        LeafSignature::Wots { sig, msg } => {
            bench.write_words(MSG_WRITE, 0, words_of(msg));
            bench.write_words(SIG_WRITE, 0, words_of(sig));
        }
        LeafSignature::Fors { tree, sk } => {
            bench.write_words(NODE_WRITE, 0, words_of(sk));
            bench.set(FORS, 1);
            bench.set(FORS_TREE, u64::from(tree));
        }
    }
    bench.set(CLIMB, 1);
    bench.set(TREE_HEIGHT, u64::from(height));
    bench.set(LEAF_INDEX, u64::from(index));
    let outcome = bench.run(START, n as u64, 1, None);
    bench.set(CLIMB, 0);
    bench.set(FORS, 0);
    assert!(!outcome.error, "n = {n}: climb error");
    assert_eq!(outcome.last_at, Some(n / 4 - 1));
    assert!(outcome.kinds.iter().all(|&k| k == 1), "root words flagged");
    outcome
}

/// xmss_pkFromSig (FIPS 205 Algorithm 11) from a WOTS+ signature and AUTH
/// the tests make gives the tree's root, and a flipped AUTH bit another;
/// FORS climbs (Algorithm 17, per tree) give the FORS roots, and the
/// FORS public key over them follows; for every n, in the clocks of
/// `climb_clocks` (which follow the public digits for WOTS+).
#[test]
fn climbs_from_signatures_give_the_roots() {
    let mut bench = Bench::new(9);
    let mut rng = Lcg::new(1117);
    for (n, height) in [(16, 3), (24, 2), (32, 2)] {
        let keys = KeyMaterial::random(n, &mut rng);
        let index = rng.next_u32() % (1 << height);
        let msg: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
        let want = reference(&keys, height, index);
        let (auth, root) = want.split_at(height as usize * n);
        let mut leaf_keys = KeyMaterial::random(n, &mut rng);
        leaf_keys.pk_seed = keys.pk_seed.clone();
        leaf_keys.sk_seed = keys.sk_seed.clone();
        leaf_keys.adrs = keys.adrs;
        leaf_keys.adrs.set_keypair(index);
        let sig = wots_signature(&leaf_keys, &msg);
        let wots = LeafSignature::Wots {
            sig: &sig,
            msg: &msg,
        };
        let outcome = climb(&mut bench, &keys, (height, index), wots, auth);
        assert_eq!(outcome.bytes(), root, "n = {n}: xmss_pkFromSig");
        let leaf_clocks = pk_from_sig_clocks(n, &wots_digits(&msg));
        assert_eq!(outcome.clocks, climb_clocks(n, height, leaf_clocks));
        let mut forged = auth.to_vec();
        forged[n + 1] ^= 0x40;
        let wots = LeafSignature::Wots {
            sig: &sig,
            msg: &msg,
        };
        let outcome = climb(&mut bench, &keys, (height, index), wots, &forged);
        assert_ne!(outcome.bytes(), root, "n = {n}: forged AUTH");

        let mut roots = vec![];
        for tree in 0..2 {
            let index = rng.next_u32() % (1 << height);
            let [sk, auth, root] = fors_reference(&keys, height, tree, index);
            let fors = LeafSignature::Fors { tree, sk: &sk };
            let outcome = climb(&mut bench, &keys, (height, index), fors, &auth);
            assert_eq!(outcome.bytes(), root, "n = {n}: FORS tree {tree} from sk");
            let leaf_clocks = fors_leaf_from_sk_clocks(n);
            assert_eq!(outcome.clocks, climb_clocks(n, height, leaf_clocks));
            roots.extend(root);
        }
        check_fors_roots(&mut bench, &keys, &roots, 1);
    }
}

#[test]
fn xmss_tree_refuses_bad_requests_at_once() {
    let mut bench = Bench::new(4);
    let mut rng = Lcg::new(4);
    for (n, height, index) in [(20, 3, 0), (16, 0, 0), (16, 10, 0), (16, 3, 8), (32, 1, 2)] {
        bench.set(TREE_HEIGHT, height);
        bench.set(LEAF_INDEX, index);
        let outcome = bench.run(START, n, 1, None);
        assert!(
            outcome.error,
            "n = {n}, h′ = {height}, leaf {index} accepted"
        );
        assert_eq!(outcome.clocks, 1, "refused at once");
        assert!(outcome.words.is_empty());
    }
    // FORS: a ∉ 1..=14, a leaf ≥ 2^a.
    bench.set(FORS, 1);
    for (height, index) in [(0, 0), (15, 0), (12, 4096), (6, 64)] {
        bench.set(TREE_HEIGHT, height);
        bench.set(LEAF_INDEX, index);
        let outcome = bench.run(START, 16, 1, None);
        assert!(outcome.error, "FORS a = {height}, leaf {index} accepted");
        assert_eq!(outcome.clocks, 1, "refused at once");
    }
    bench.set(FORS, 0);
    // k ∉ 1..=35: the leaf engine refuses, the tree job ends with it.
    for k in [0, 36] {
        bench.set(FORS_TREES, k);
        let outcome = bench.run(START_ROOTS, 16, 1, None);
        assert!(outcome.error && outcome.words.is_empty(), "k = {k}");
        assert_eq!(outcome.clocks, 3, "k = {k}: refused at once");
    }
    check_tree(&mut bench, &KeyMaterial::random(16, &mut rng), 1, 1, 1);
}

/// Abort in the first leaf, in the parent node and in the output, then a
/// good tree with a stalling sink.
#[test]
fn xmss_tree_abort_then_a_good_tree_with_a_stalling_sink() {
    let mut bench = Bench::new(5);
    let mut rng = Lcg::new(5);
    let keys = KeyMaterial::random(16, &mut rng);
    let total = tree_clocks(16, 1);
    for abort_at in [100, total - 20, total - 3] {
        bench.load(&keys);
        bench.set(TREE_HEIGHT, 1);
        bench.set(LEAF_INDEX, 0);
        let outcome = bench.run(START, 16, 1, Some(abort_at));
        assert!(outcome.error, "abort at {abort_at}");
        assert_eq!(outcome.clocks, abort_at + 1, "idle on the abort clock");
    }
    let outcome = check_tree(&mut bench, &keys, 1, 1, 3);
    assert!(outcome.clocks > total, "the sink stalled");
}

#[test]
fn xmss_tree_yosys_validates() {
    let mut uut = XmssTreeEngine::<SPONGE_ROUNDS_PER_CLOCK>::default();
    uut.connect_all();
    yosys_validate("slh_xmss_tree", &generate_verilog(&uut)).unwrap();
}

/// A tree of 4 leaves with a stalling sink, a signing tree, a refused
/// request and an abort, recorded on the rust-hdl model and replayed on the Verilated RTL.
#[test]
fn xmss_tree_rtl_equals_rust_hdl_clock_for_clock() {
    if !verilator_required("xmss_tree_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let mut bench = Bench::new(6);
    let mut rng = Lcg::new(6);
    let keys = KeyMaterial::random(16, &mut rng);
    check_tree(&mut bench, &keys, 2, 2, 2);
    check_signing_tree(&mut bench, &keys, 1, 0, &[0xA5; 16], 2);
    bench.set(TREE_HEIGHT, 9);
    bench.set(LEAF_INDEX, 512);
    assert!(bench.run(START, 16, 1, None).error);
    bench.set(TREE_HEIGHT, 1);
    bench.set(LEAF_INDEX, 1);
    // Aborted in the second of the two leaves.
    let abort_at = super::wots_leaf::leaf_clocks(16) + 100;
    assert!(bench.run(START, 16, 1, Some(abort_at)).error);
    let keys = KeyMaterial::random(24, &mut rng);
    bench.load(&keys);
    let (_, first) = check_fors_tree(&mut bench, &keys, (2, 0, 3), true, 2);
    let (_, second) = check_fors_tree(&mut bench, &keys, (2, 1, 0), false, 1);
    check_fors_roots(&mut bench, &keys, &[first, second].concat(), 2);
    let [sk, auth, _] = fors_reference(&keys, 2, 1, 2);
    let fors = LeafSignature::Fors { tree: 1, sk: &sk };
    climb(&mut bench, &keys, (2, 2), fors, &auth);
    let want = reference(&keys, 2, 1);
    let mut leaf_keys = KeyMaterial::random(24, &mut rng);
    leaf_keys.pk_seed = keys.pk_seed.clone();
    leaf_keys.sk_seed = keys.sk_seed.clone();
    leaf_keys.adrs = keys.adrs;
    leaf_keys.adrs.set_keypair(1);
    let msg = [0x69; 24];
    let sig = wots_signature(&leaf_keys, &msg);
    let wots = LeafSignature::Wots {
        sig: &sig,
        msg: &msg,
    };
    let outcome = climb(&mut bench, &keys, (2, 1), wots, &want[..48]);
    assert_eq!(outcome.bytes(), &want[48..]);
    bench.assert_rtl_matches("slh_xmss_tree");
}
