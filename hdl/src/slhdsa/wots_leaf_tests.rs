//! Tests of the XMSS leaf job: the public key against `pqc`'s
//! `HashEngine::wots_pk` (SHAKE, software Keccak) for every n, the clock
//! count of `wots_leaf.rs`, a stalling sink, a refused n, abort and reset in
//! every request of the job, the yosys check, and the Verilator
//! cross-check of the exported Verilog, clock for clock.

use super::job_bench::{
    apply_common_inputs, common_outputs, words_of, Job, JobBench, KeyMaterial, Outcome,
    COMMON_INPUTS, OUTPUTS, START,
};
use super::wots_leaf::{
    fors_leaf_clocks, fors_leaf_from_sk_clocks, fors_prefix_clocks, fors_roots_clocks,
    fors_sign_leaf_clocks, leaf_clocks, node_clocks, pk_from_sig_clocks, sign_leaf_clocks,
    WotsLeafEngine, SPONGE_ROUNDS_PER_CLOCK,
};
use crate::ntt::sim::Lcg;
use crate::verilator::verilator_required;
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::HashEngine;
use rust_hdl::prelude::*;

/// Row indices of the node inputs.
const NODE_WRITE: usize = 11;
const START_NODE: usize = 14;
const NODE_HEIGHT: usize = 15;
const NODE_TREE_INDEX: usize = 16;
/// Row indices of the signing inputs.
const SIGN_LEAF: usize = 17;
const MSG_WRITE: usize = 18;
/// Row indices of the inputs of the public key from a signature.
const FROM_SIG: usize = 21;
const SIG_WRITE: usize = 22;
/// Row indices of the FORS inputs.
const FORS: usize = 25;
const FORS_TREES: usize = 26;

impl Job for WotsLeafEngine<SPONGE_ROUNDS_PER_CLOCK> {
    fn inputs() -> Vec<&'static str> {
        let mut names = COMMON_INPUTS.to_vec();
        names.extend([
            "node_write",
            "node_index",
            "node_word",
            "start_node",
            "node_height",
            "node_tree_index",
            "sign_leaf",
            "msg_write",
            "msg_index",
            "msg_word",
            "from_sig",
            "sig_write",
            "sig_index",
            "sig_word",
            "fors",
            "fors_trees",
        ]);
        names
    }

    fn output_names() -> Vec<&'static str> {
        let mut names = OUTPUTS.to_vec();
        names.push("out_sig");
        names
    }

    fn apply(&mut self, v: &[u64]) {
        apply_common_inputs!(self, v, adrs_write, adrs_index, adrs_word);
        self.node_write.next = v[11] != 0;
        self.node_index.next = v[12].into();
        self.node_word.next = v[13].into();
        self.start_node.next = v[14] != 0;
        self.node_height.next = v[15].into();
        self.node_tree_index.next = v[16].into();
        self.sign_leaf.next = v[17] != 0;
        self.msg_write.next = v[18] != 0;
        self.msg_index.next = v[19].into();
        self.msg_word.next = v[20].into();
        self.from_sig.next = v[21] != 0;
        self.sig_write.next = v[22] != 0;
        self.sig_index.next = v[23].into();
        self.sig_word.next = v[24].into();
        self.fors.next = v[25] != 0;
        self.fors_trees.next = v[26].into();
    }

    fn clock_input(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn outputs(&self) -> Vec<u64> {
        let mut values = common_outputs!(self);
        values.push(u64::from(self.out_sig.val()));
        values
    }
}

type Bench = JobBench<WotsLeafEngine<SPONGE_ROUNDS_PER_CLOCK>>;

/// The public key by `pqc` (software SHAKE).
fn reference(keys: &KeyMaterial) -> Vec<u8> {
    let mut pk = vec![0; keys.n];
    keys.with_engine(|e| e.wots_pk(&keys.adrs, &mut pk));
    pk
}

/// The WOTS+ digits of an n-byte message (FIPS 205 Algorithm 7 with
/// lg_w = 4): its nibbles, high first, then the checksum's three.
pub(super) fn wots_digits(msg: &[u8]) -> Vec<u32> {
    let mut digits: Vec<u32> = msg
        .iter()
        .flat_map(|b| [u32::from(b >> 4), u32::from(b & 15)])
        .collect();
    let checksum: u32 = digits.iter().map(|d| 15 - d).sum::<u32>() << 4;
    digits.extend([
        (checksum >> 12) & 15,
        (checksum >> 8) & 15,
        (checksum >> 4) & 15,
    ]);
    digits
}

/// The WOTS+ signature of `msg` under the key pair of `keys`, built here
/// from `pqc`'s PRF and chain.
pub(super) fn wots_signature(keys: &KeyMaterial, msg: &[u8]) -> Vec<u8> {
    let n = keys.n;
    keys.with_engine(|e| {
        let mut sig = Vec::new();
        for (i, d) in wots_digits(msg).into_iter().enumerate() {
            let mut sk_adrs = keys.adrs;
            sk_adrs.set_type_and_clear(AddressType::WotsPrf);
            sk_adrs.set_keypair(keys.adrs.keypair());
            sk_adrs.set_chain(i as u32);
            let mut sk = vec![0; n];
            e.prf(&sk_adrs, &mut sk);
            let mut adrs = keys.adrs;
            adrs.set_chain(i as u32);
            let mut value = vec![0; n];
            e.chain(&adrs, &sk, 0, d, &mut value);
            sig.extend(value);
        }
        sig
    })
}

/// A signing leaf: σ (flagged `out_sig`) then the same public key as
/// without signing.
fn check_signing_leaf(bench: &mut Bench, keys: &KeyMaterial, msg: &[u8], ready: u32) -> u64 {
    let n = keys.n;
    bench.load(keys);
    bench.write_words(MSG_WRITE, 0, words_of(msg));
    bench.set(SIGN_LEAF, 1);
    let outcome = bench.run(START, n as u64, ready, None);
    bench.set(SIGN_LEAF, 0);
    assert!(!outcome.error);
    let sig_words = (2 * n + 3) * n / 4;
    let bytes = outcome.bytes();
    assert_eq!(bytes.len(), (sig_words + n / 4) * 4);
    assert_eq!(
        &bytes[..sig_words * 4],
        wots_signature(keys, msg),
        "n = {n}: σ"
    );
    assert_eq!(&bytes[sig_words * 4..], reference(keys), "n = {n}: pk");
    assert!(
        outcome.kinds[..sig_words].iter().all(|&k| k == 1),
        "σ flagged"
    );
    assert!(
        outcome.kinds[sig_words..].iter().all(|&k| k == 0),
        "pk not flagged"
    );
    assert_eq!(
        outcome.last_at,
        Some(sig_words + n / 4 - 1),
        "TLAST on pk only"
    );
    outcome.clocks
}

/// The public key from σ of `msg` (wots_pkFromSig): its bytes and clocks.
fn pk_from_signature(bench: &mut Bench, keys: &KeyMaterial, msg: &[u8], sig: &[u8]) -> Outcome {
    bench.load(keys);
    bench.write_words(MSG_WRITE, 0, words_of(msg));
    bench.write_words(SIG_WRITE, 0, words_of(sig));
    bench.set(FROM_SIG, 1);
    let outcome = bench.run(START, keys.n as u64, 1, None);
    bench.set(FROM_SIG, 0);
    assert!(!outcome.error);
    assert_eq!(outcome.last_at, Some(keys.n / 4 - 1));
    assert!(outcome.kinds.iter().all(|&k| k == 0), "no σ words");
    outcome
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
    bench.write_words(NODE_WRITE, 0, words_of(children));
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
        for (height, index) in [(1, 0), (3, 5), (9, 0x0102_0304 % 512), (12, 0x000B_CDEF)] {
            let children: Vec<u8> = (0..2 * n).map(|_| rng.next_u32() as u8).collect();
            let clocks = check_node(&mut bench, &keys, &children, height, index);
            assert_eq!(clocks, node_clocks(n), "n = {n}");
        }
        // A leaf after nodes: the request state was left clean.
        check_leaf(&mut bench, &keys, 1);
    }
    assert!(bench.run(START_NODE, 20, 1, None).error, "n = 20 node");
}

/// Signing while computing the leaf, for every n, with messages of all-0
/// digits (empty first chains), all-15 digits (empty second chains) and
/// random ones: σ and pk right, and the same clock count for every
/// message.
#[test]
fn signing_leaf_gives_the_wots_signature_and_the_same_key() {
    let mut bench = Bench::new(10);
    let mut rng = Lcg::new(7205);
    for n in [16, 24, 32] {
        let keys = KeyMaterial::random(n, &mut rng);
        let random: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
        for msg in [vec![0; n], vec![0xFF; n], random] {
            let clocks = check_signing_leaf(&mut bench, &keys, &msg, 1);
            assert_eq!(clocks, sign_leaf_clocks(n), "n = {n}, message {msg:02x?}");
        }
    }
    // With a stalling sink, and then a plain leaf (signing is per start).
    let keys = KeyMaterial::random(16, &mut rng);
    check_signing_leaf(&mut bench, &keys, &[0x5A; 16], 3);
    check_leaf(&mut bench, &keys, 1);
}

/// wots_pkFromSig on a signature made by the test from `pqc`'s PRF and
/// chain gives `pqc`'s public key, for every n and for messages of all-0,
/// all-15 and random digits, in the clocks of `pk_from_sig_clocks`; a
/// signature with one flipped bit gives another key.
#[test]
fn pk_from_signature_is_the_key_for_every_n() {
    let mut bench = Bench::new(11);
    let mut rng = Lcg::new(8205);
    for n in [16, 24, 32] {
        let keys = KeyMaterial::random(n, &mut rng);
        let random: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
        for msg in [random, vec![0; n], vec![0xFF; n]] {
            let sig = wots_signature(&keys, &msg);
            let outcome = pk_from_signature(&mut bench, &keys, &msg, &sig);
            assert_eq!(outcome.bytes(), reference(&keys), "n = {n}: pk from σ");
            assert_eq!(outcome.clocks, pk_from_sig_clocks(n, &wots_digits(&msg)));
        }
        let msg: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
        let mut sig = wots_signature(&keys, &msg);
        sig[5 * n + 3] ^= 0x10;
        let outcome = pk_from_signature(&mut bench, &keys, &msg, &sig);
        assert_ne!(outcome.bytes(), reference(&keys), "n = {n}: forged σ");
        // A leaf after: the mode is per start.
        check_leaf(&mut bench, &keys, 1);
    }
}

/// The address of type `t` with the layer, tree and key pair of `keys`
/// (FORS addresses keep the key pair).
pub(super) fn fors_adrs(keys: &KeyMaterial, t: AddressType) -> Adrs {
    let mut adrs = keys.adrs;
    adrs.set_type_and_clear(t);
    adrs.set_keypair(keys.adrs.keypair());
    adrs
}

/// The FORS secret value and leaf of global leaf index `index` (FIPS 205
/// Algorithms 14 and 15: PRF with a FORS_PRF address, then F), by `pqc`.
pub(super) fn fors_sk_and_leaf(keys: &KeyMaterial, index: u32) -> (Vec<u8>, Vec<u8>) {
    let n = keys.n;
    keys.with_engine(|e| {
        let mut sk_adrs = fors_adrs(keys, AddressType::ForsPrf);
        sk_adrs.set_tree_index(index);
        let mut sk = vec![0; n];
        e.prf(&sk_adrs, &mut sk);
        let mut adrs = fors_adrs(keys, AddressType::ForsTree);
        adrs.set_tree_index(index);
        let mut leaf = vec![0; n];
        e.thash(&adrs, &sk, &[], &mut leaf);
        (sk, leaf)
    })
}

/// A FORS leaf (and with `sign_leaf` its secret value first, flagged
/// `out_sig`) against `pqc`; its clocks.
fn check_fors_leaf(
    bench: &mut Bench,
    keys: &KeyMaterial,
    index: u32,
    sign: bool,
    ready_one_in: u32,
) -> u64 {
    let n = keys.n;
    let (sk, leaf) = fors_sk_and_leaf(keys, index);
    bench.set(FORS, 1);
    bench.set(SIGN_LEAF, u64::from(sign));
    bench.set(NODE_TREE_INDEX, u64::from(index));
    let outcome = bench.run(START, n as u64, ready_one_in, None);
    bench.set(FORS, 0);
    bench.set(SIGN_LEAF, 0);
    let (want, sig_words) = if sign {
        ([sk, leaf].concat(), n / 4)
    } else {
        (leaf, 0)
    };
    assert!(!outcome.error, "n = {n}: FORS leaf {index}");
    assert_eq!(outcome.bytes(), want, "n = {n}: FORS leaf {index}");
    assert_eq!(outcome.last_at, Some(want.len() / 4 - 1));
    let flags: Vec<u64> = (0..want.len() / 4)
        .map(|i| u64::from(i < sig_words))
        .collect();
    assert_eq!(outcome.kinds, flags, "out_sig on the secret value only");
    outcome.clocks
}

/// The FORS public key T_k over `roots` (written into the chain-end memory)
/// against `pqc`; its clocks.
fn check_fors_roots(bench: &mut Bench, keys: &KeyMaterial, roots: &[u8]) -> u64 {
    let n = keys.n;
    let k = roots.len() / n;
    bench.write_words(SIG_WRITE, 0, words_of(roots));
    bench.set(FORS, 1);
    bench.set(FROM_SIG, 1);
    bench.set(FORS_TREES, k as u64);
    let outcome = bench.run(START, n as u64, 1, None);
    bench.set(FORS, 0);
    bench.set(FROM_SIG, 0);
    let mut want = vec![0; n];
    let adrs = fors_adrs(keys, AddressType::ForsRoots);
    keys.with_engine(|e| e.thash(&adrs, roots, &[], &mut want));
    assert!(!outcome.error, "n = {n}, k = {k}");
    assert_eq!(outcome.bytes(), want, "n = {n}, k = {k}: FORS pk");
    assert_eq!(outcome.last_at, Some(n / 4 - 1));
    outcome.clocks
}

/// FORS leaves (low, middle and 19-bit indices, with and without the
/// secret value), a FORS node and the FORS public key over 1, 14 and 35
/// roots, for every n, against `pqc`, in the clocks of the formulas; a
/// WOTS+ leaf after them (the mode is per start); k = 0 and 36 refused.
#[test]
fn fors_leaf_node_and_public_key_match_pqc_for_every_n() {
    let mut bench = Bench::new(12);
    let mut rng = Lcg::new(14205);
    for n in [16, 24, 32] {
        let keys = KeyMaterial::random(n, &mut rng);
        bench.load(&keys);
        // The first leaf after the address writes sets the FORS prefix.
        for (i, index) in [0, 37, 0x5_7FFF].into_iter().enumerate() {
            let plain = check_fors_leaf(&mut bench, &keys, index, false, 1);
            let prefix = if i == 0 { fors_prefix_clocks(n) } else { 0 };
            assert_eq!(plain, prefix + fors_leaf_clocks(n), "n = {n}");
            let signed = check_fors_leaf(&mut bench, &keys, index, true, 1);
            assert_eq!(signed, fors_sign_leaf_clocks(n), "n = {n}");
            // A stalling sink gives the same output.
            check_fors_leaf(&mut bench, &keys, index, true, 2);
        }
        let children: Vec<u8> = (0..2 * n).map(|_| rng.next_u32() as u8).collect();
        bench.write_words(NODE_WRITE, 0, words_of(&children));
        bench.set(NODE_HEIGHT, 5);
        bench.set(NODE_TREE_INDEX, 0x1234);
        bench.set(FORS, 1);
        let node = bench.run(START_NODE, n as u64, 1, None);
        bench.set(FORS, 0);
        let mut adrs = fors_adrs(&keys, AddressType::ForsTree);
        adrs.set_tree_height(5);
        adrs.set_tree_index(0x1234);
        let mut want = vec![0; n];
        keys.with_engine(|e| e.thash(&adrs, &children[..n], &children[n..], &mut want));
        assert_eq!(node.bytes(), want, "n = {n}: FORS node");
        assert_eq!(node.clocks, node_clocks(n));
        // Height 0: the FORS leaf F(sk) of child words 0..n/4 − 1.
        let (sk, leaf) = fors_sk_and_leaf(&keys, 0x2_1234);
        bench.write_words(NODE_WRITE, 0, words_of(&sk));
        bench.set(NODE_HEIGHT, 0);
        bench.set(NODE_TREE_INDEX, 0x2_1234);
        bench.set(FORS, 1);
        let from_sk = bench.run(START_NODE, n as u64, 1, None);
        bench.set(FORS, 0);
        assert_eq!(from_sk.bytes(), leaf, "n = {n}: FORS leaf from sk");
        assert_eq!(from_sk.clocks, fors_leaf_from_sk_clocks(n));
        for k in [1, 14, 35] {
            let roots: Vec<u8> = (0..k * n).map(|_| rng.next_u32() as u8).collect();
            let clocks = check_fors_roots(&mut bench, &keys, &roots);
            assert_eq!(clocks, fors_roots_clocks(n, k), "n = {n}, k = {k}");
        }
        check_leaf(&mut bench, &keys, 1);
        // The WOTS+ leaf replaced the prefix: the next FORS leaf sets it
        // again, and is exact.
        let plain = check_fors_leaf(&mut bench, &keys, 0x1_0203, false, 1);
        assert_eq!(plain, fors_prefix_clocks(n) + fors_leaf_clocks(n));
    }
    bench.set(FORS, 1);
    bench.set(FROM_SIG, 1);
    for k in [0, 36] {
        bench.set(FORS_TREES, k);
        let outcome = bench.run(START, 16, 1, None);
        assert!(
            outcome.error && outcome.clocks == 1,
            "k = {k} refused at once"
        );
    }
    bench.set(FORS, 0);
    bench.set(FROM_SIG, 0);
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

/// Abort in the first PRF (clock 3), in the first chain (clock 200: the PRF
/// request takes about 50, a chain about 400), in a later chain and in the
/// compression (its last 281 clocks): idle at once with `done` and `error`,
/// and the next leaf is right (the sponge was returned to idle too).
#[test]
fn wots_leaf_abort_in_any_request_then_a_good_leaf() {
    let mut bench = Bench::new(4);
    let mut rng = Lcg::new(11);
    let total = leaf_clocks(16);
    for abort_at in [3, 200, 3_000, total - 60] {
        let keys = KeyMaterial::random(16, &mut rng);
        bench.load(&keys);
        let outcome = bench.run(START, 16, 1, Some(abort_at));
        assert!(outcome.error, "abort at {abort_at}");
        assert_eq!(outcome.clocks, abort_at + 1, "idle on the abort clock");
        check_leaf(&mut bench, &keys, 1);
    }
    // FORS leaves: an abort in the prefix or in a kept-prefix request
    // drops the kept prefix, so the next leaf sets it again.
    let keys = KeyMaterial::random(16, &mut rng);
    bench.load(&keys);
    for (in_prefix, abort_at) in [(true, 5), (true, 20), (false, 5), (false, 30)] {
        if in_prefix {
            bench.load(&keys);
        } else {
            check_fors_leaf(&mut bench, &keys, 9, false, 1);
        }
        bench.set(FORS, 1);
        bench.set(NODE_TREE_INDEX, 10);
        let outcome = bench.run(START, 16, 1, Some(abort_at));
        bench.set(FORS, 0);
        assert!(outcome.error, "FORS abort at {abort_at}");
        let plain = check_fors_leaf(&mut bench, &keys, 11, false, 1);
        assert_eq!(plain, fors_prefix_clocks(16) + fors_leaf_clocks(16));
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
    let mut uut = WotsLeafEngine::<SPONGE_ROUNDS_PER_CLOCK>::default();
    uut.connect_all();
    yosys_validate("slh_wots_leaf", &generate_verilog(&uut)).unwrap();
}

/// Good leaves for n = 16 and 24 (the second with a stalling sink), a
/// refused n, an abort, a node, a signing leaf, a key from a signature, a
/// signing FORS leaf and one on its kept prefix, a FORS public key and a FORS leaf from its secret
/// value, recorded on the rust-hdl model and
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
    check_signing_leaf(&mut bench, &keys, &children[..24], 2);
    let sig = wots_signature(&keys, &children[24..]);
    pk_from_signature(&mut bench, &keys, &children[24..], &sig);
    check_fors_leaf(&mut bench, &keys, 0x1_0203, true, 2);
    check_fors_leaf(&mut bench, &keys, 0x1_0204, false, 1);
    check_fors_roots(&mut bench, &keys, &children);
    let (sk, _) = fors_sk_and_leaf(&keys, 7);
    bench.write_words(NODE_WRITE, 0, words_of(&sk));
    bench.set(NODE_HEIGHT, 0);
    bench.set(NODE_TREE_INDEX, 7);
    bench.set(FORS, 1);
    bench.run(START_NODE, 24, 2, None);
    bench.set(FORS, 0);
    bench.assert_rtl_matches("slh_wots_leaf");
}

#[test]
fn slhdsa_blocks_meet_the_cell_delay_budget() {
    crate::export::assert_designs_meet_cell_delay_budget(&super::designs());
}
