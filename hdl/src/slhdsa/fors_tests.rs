//! Tests of the FORS signature job: SIG_FORS ‖ PK_FORS against a FORS
//! signature built in the test from `pqc`'s PRF, F and H for every n, the
//! SIG_FORS of the ACVP SLH-DSA-SHAKE-128f signature (whose SHA3-256 the
//! case gives) and PK_FORS recovered from it, the clock count of `fors.rs`
//! (the same for every md), a stalling sink, refused requests, abort, the
//! yosys check, and the Verilator cross-check of the exported Verilog,
//! clock for clock.

use super::fors::{fors_clocks, ForsEngine};
use super::job_bench::{
    apply_common_inputs, common_outputs, words_of, Job, JobBench, KeyMaterial, Outcome,
    COMMON_INPUTS, OUTPUTS, START,
};
use super::wots_leaf_tests::fors_adrs;
use super::xmss_tree_tests::fors_reference;
use crate::ntt::sim::Lcg;
use crate::verilator::verilator_required;
use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::{params, HashEngine, Params};
use rust_hdl::prelude::*;

/// Row indices of the FORS job's own inputs.
const TREE_HEIGHT: usize = 11;
const TREES: usize = 12;
const MD_WRITE: usize = 13;

impl Job for ForsEngine<1> {
    fn inputs() -> Vec<&'static str> {
        let mut names = COMMON_INPUTS.to_vec();
        names.extend(["tree_height", "trees", "md_write", "md_index", "md_word"]);
        names
    }

    fn output_names() -> Vec<&'static str> {
        let mut names = OUTPUTS.to_vec();
        names.push("out_pk");
        names
    }

    fn apply(&mut self, v: &[u64]) {
        apply_common_inputs!(self, v, adrs_write, adrs_index, adrs_word);
        self.tree_height.next = v[11].into();
        self.trees.next = v[12].into();
        self.md_write.next = v[13] != 0;
        self.md_index.next = v[14].into();
        self.md_word.next = v[15].into();
    }

    fn clock_input(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn outputs(&self) -> Vec<u64> {
        let mut values = common_outputs!(self);
        values.push(u64::from(self.out_pk.val()));
        values
    }
}

type Bench = JobBench<ForsEngine<1>>;

/// FIPS 205 Algorithm 4 (base_2b): k integers of a bits from md, most
/// significant bit first.
pub(super) fn base_2b(md: &[u8], a: u32, k: usize) -> Vec<u32> {
    let mut bits = md
        .iter()
        .flat_map(|byte| (0..8).rev().map(move |i| u32::from(byte >> i) & 1));
    (0..k)
        .map(|_| (0..a).fold(0, |acc, _| (acc << 1) | bits.next().unwrap()))
        .collect()
}

/// md padded to whole words.
pub(super) fn md_words(md: &[u8]) -> Vec<u64> {
    let mut padded = md.to_vec();
    padded.resize(md.len().div_ceil(4) * 4, 0);
    words_of(&padded).collect()
}

/// Runs the job on md for a and k; checks the stream's shape (PK_FORS
/// flagged and last) and returns SIG_FORS ‖ PK_FORS.
fn run_fors(bench: &mut Bench, keys: &KeyMaterial, md: &[u8], a: u32, k: usize) -> Outcome {
    let n = keys.n;
    bench.load(keys);
    bench.write_words(MD_WRITE, 0, md_words(md));
    bench.set(TREE_HEIGHT, u64::from(a));
    bench.set(TREES, k as u64);
    let outcome = bench.run(START, n as u64, 1, None);
    assert!(!outcome.error, "n = {n}, a = {a}, k = {k}: error");
    let words = (k * (1 + a as usize) + 1) * n / 4;
    assert_eq!(outcome.words.len(), words, "SIG_FORS ‖ PK_FORS length");
    assert_eq!(outcome.last_at, Some(words - 1));
    let flags: Vec<u64> = (0..words).map(|i| u64::from(i >= words - n / 4)).collect();
    assert_eq!(outcome.kinds, flags, "out_pk on PK_FORS only");
    outcome
}

/// fors_sign and the FORS public key (FIPS 205 Algorithms 15–16) of md,
/// built here tree by tree from `pqc`'s PRF, F and H.
pub(super) fn reference(keys: &KeyMaterial, md: &[u8], a: u32, k: usize) -> Vec<u8> {
    let n = keys.n;
    let mut sig = Vec::new();
    let mut roots = Vec::new();
    for (tree, index) in base_2b(md, a, k).into_iter().enumerate() {
        let [sk, auth, root] = fors_reference(keys, a, tree as u32, index);
        sig.extend(sk);
        sig.extend(auth);
        roots.extend(root);
    }
    let mut pk = vec![0; n];
    let adrs = fors_adrs(keys, AddressType::ForsRoots);
    keys.with_engine(|e| e.thash(&adrs, &roots, &[], &mut pk));
    sig.extend(pk);
    sig
}

/// Key material with a FORS address: layer 0, random tree and key pair.
pub(super) fn fors_keys(n: usize, rng: &mut Lcg) -> KeyMaterial {
    let mut keys = KeyMaterial::random(n, rng);
    keys.adrs.set_layer(0);
    keys
}

/// Every n, with md of all-zero, all-one and random bits: SIG_FORS ‖
/// PK_FORS right, in the same clock count for every md.
#[test]
fn fors_sign_matches_pqc_for_every_n_and_its_clock_count_is_public() {
    let mut bench = Bench::new(1);
    let mut rng = Lcg::new(1605);
    for (n, a, k) in [(16, 3, 4), (24, 2, 3), (32, 2, 2)] {
        let keys = fors_keys(n, &mut rng);
        let bytes = (k * a as usize).div_ceil(8);
        let random: Vec<u8> = (0..bytes).map(|_| rng.next_u32() as u8).collect();
        for md in [random, vec![0; bytes], vec![0xFF; bytes]] {
            let outcome = run_fors(&mut bench, &keys, &md, a, k);
            assert_eq!(
                outcome.bytes(),
                reference(&keys, &md, a, k),
                "n = {n}, md {md:02x?}"
            );
            assert_eq!(outcome.clocks, fors_clocks(n, a, k), "n = {n}");
        }
    }
}

/// The FORS part of SLH-DSA signing for `p`: md and the FORS address from
/// the digest of the signature's R and M′ (FIPS 205 Algorithm 19, lines
/// 7–12).
pub(super) fn digest_parts(
    p: &Params,
    sk: &[u8],
    sig: &[u8],
    m_prime: &[&[u8]],
) -> (Vec<u8>, Adrs) {
    let n = p.n;
    let (pk_seed, pk_root) = (&sk[2 * n..3 * n], &sk[3 * n..4 * n]);
    let mut digest = vec![0; p.m()];
    let mut keccak = SoftKeccak;
    let mut engine = pqc::slhdsa::ShakeEngine::new(&mut keccak, pk_seed, &sk[..n]);
    engine.h_msg(&sig[..n], pk_root, m_prime, &mut digest);
    let md = digest[..p.md_bytes()].to_vec();
    let be = |bytes: &[u8]| bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    let tree_bytes = &digest[p.md_bytes()..p.md_bytes() + p.tree_idx_bytes()];
    let leaf_bytes = &digest[p.md_bytes() + p.tree_idx_bytes()..];
    let tree_bits = (p.h - p.hp) as u32;
    let idx_tree = be(tree_bytes) & (u64::MAX >> (64 - tree_bits));
    let idx_leaf = be(leaf_bytes) as u32 & ((1 << p.hp) - 1);
    let mut adrs = Adrs::default();
    adrs.set_tree(idx_tree);
    adrs.set_type_and_clear(AddressType::ForsTree);
    adrs.set_keypair(idx_leaf);
    (md, adrs)
}

/// fors_pkFromSig (FIPS 205 Algorithm 17), written here: each tree's leaf
/// from its secret value, up its AUTH path, then T_k of the roots.
fn fors_pk_from_sig(keys: &KeyMaterial, sig_fors: &[u8], md: &[u8], a: u32, k: usize) -> Vec<u8> {
    let n = keys.n;
    keys.with_engine(|e| {
        let mut roots = Vec::new();
        for (tree, index) in base_2b(md, a, k).into_iter().enumerate() {
            let values = &sig_fors[tree * (1 + a as usize) * n..];
            let mut position = ((tree as u32) << a) + index;
            let mut adrs = fors_adrs(keys, AddressType::ForsTree);
            adrs.set_tree_index(position);
            let mut node = vec![0; n];
            e.thash(&adrs, &values[..n], &[], &mut node);
            for z in 0..a as usize {
                let sibling = &values[(1 + z) * n..(2 + z) * n];
                let (left, right) = if position & 1 == 0 {
                    (node.clone(), sibling.to_vec())
                } else {
                    (sibling.to_vec(), node.clone())
                };
                position >>= 1;
                adrs.set_tree_height(z as u32 + 1);
                adrs.set_tree_index(position);
                e.thash(&adrs, &left, &right, &mut node);
            }
            roots.extend(node);
        }
        let mut pk = vec![0; n];
        e.thash(
            &fors_adrs(keys, AddressType::ForsRoots),
            &roots,
            &[],
            &mut pk,
        );
        pk
    })
}

/// The ACVP sigGen case of SLH-DSA-SHAKE-128f in `pqc_selftest` (tcId 61,
/// deterministic): `pqc` signs, its signature hashes to the case's
/// SHA3-256; the job's SIG_FORS put in place of `pqc`'s still does, and
/// its PK_FORS is the one Algorithm 17 recovers from the signature. 33
/// trees of 64 leaves, in `fors_clocks(16, 6, 33)`.
#[test]
fn fors_sign_is_the_acvp_signatures_sig_fors_for_shake_128f() {
    let p = &params::SHAKE_128F;
    let case = &pqc_selftest::vectors::SLH_DSA[0];
    assert_eq!(case.name, p.name);
    let sg = &case.siggen;
    let mut sig = vec![0; p.sig_bytes()];
    pqc::slhdsa::slh_sign(p, sg.sk, sg.message, sg.context, None, &mut sig).unwrap();
    let sha3 = |bytes: &[u8]| {
        let mut digest = [0; 32];
        SoftKeccak.sponge(SpongeMode::Sha3_256, &[bytes], &mut digest);
        digest
    };
    assert_eq!(sha3(&sig), sg.signature_sha3_256, "pqc's signature (ACVP)");

    let header = [0, sg.context.len() as u8];
    let (md, adrs) = digest_parts(p, sg.sk, &sig, &[&header, sg.context, sg.message]);
    let n = p.n;
    let keys = KeyMaterial {
        n,
        pk_seed: sg.sk[2 * n..3 * n].to_vec(),
        sk_seed: sg.sk[..n].to_vec(),
        adrs,
    };
    let mut bench = Bench::new(2);
    let outcome = run_fors(&mut bench, &keys, &md, p.a as u32, p.k);
    eprintln!(
        "FORS, SHAKE-128f (n = 16, a = 6, k = 33): {} clocks",
        outcome.clocks
    );
    let bytes = outcome.bytes();
    let (sig_fors, pk_fors) = bytes.split_at(p.fors_sig_bytes());
    let fors_range = n..n + p.fors_sig_bytes();
    assert_eq!(sig_fors, &sig[fors_range.clone()], "SIG_FORS");
    let mut replaced = sig.clone();
    replaced[fors_range].copy_from_slice(sig_fors);
    assert_eq!(sha3(&replaced), sg.signature_sha3_256, "ACVP");
    assert_eq!(
        pk_fors,
        fors_pk_from_sig(&keys, sig_fors, &md, p.a as u32, p.k),
        "PK_FORS"
    );
    assert_eq!(outcome.clocks, fors_clocks(n, p.a as u32, p.k));
}

/// k ∉ 1..=35 refused at once; n and a the tree job refuses end the job
/// with an error; then a good job.
#[test]
fn fors_refuses_bad_requests() {
    let mut bench = Bench::new(3);
    let mut rng = Lcg::new(3);
    for (n, a, k, at_once) in [
        (16, 3, 0, true),
        (16, 3, 36, true),
        (20, 3, 2, false),
        (16, 0, 2, false),
        (16, 15, 2, false),
    ] {
        bench.set(TREE_HEIGHT, a);
        bench.set(TREES, k);
        let outcome = bench.run(START, n, 1, None);
        assert!(outcome.error, "n = {n}, a = {a}, k = {k} accepted");
        assert!(outcome.words.is_empty());
        if at_once {
            assert_eq!(outcome.clocks, 1, "k = {k}: refused at once");
        }
    }
    let keys = fors_keys(16, &mut rng);
    let md = [0x5A, 0xC3];
    let outcome = run_fors(&mut bench, &keys, &md, 2, 3);
    assert_eq!(outcome.bytes(), reference(&keys, &md, 2, 3));
}

/// Abort in the index bits, in a tree and in the roots, then a good job
/// with a stalling sink.
#[test]
fn fors_abort_then_a_good_job_with_a_stalling_sink() {
    let mut bench = Bench::new(4);
    let mut rng = Lcg::new(4);
    let keys = fors_keys(16, &mut rng);
    let md = [0x96, 0x3C];
    let total = fors_clocks(16, 2, 3);
    for abort_at in [2, 300, total - 10] {
        bench.load(&keys);
        bench.write_words(MD_WRITE, 0, md_words(&md));
        bench.set(TREE_HEIGHT, 2);
        bench.set(TREES, 3);
        let outcome = bench.run(START, 16, 1, Some(abort_at));
        assert!(outcome.error, "abort at {abort_at}");
        assert_eq!(outcome.clocks, abort_at + 1, "idle on the abort clock");
    }
    bench.load(&keys);
    bench.write_words(MD_WRITE, 0, md_words(&md));
    let outcome = bench.run(START, 16, 3, None);
    assert!(!outcome.error);
    assert_eq!(outcome.bytes(), reference(&keys, &md, 2, 3));
    assert!(outcome.clocks > total, "the sink stalled");
}

#[test]
fn fors_yosys_validates() {
    let mut uut = ForsEngine::<1>::default();
    uut.connect_all();
    yosys_validate("slh_fors", &generate_verilog(&uut)).unwrap();
}

/// A job with a stalling sink, a refused k and an abort, recorded on the
/// rust-hdl model and replayed on the Verilated RTL.
#[test]
fn fors_rtl_equals_rust_hdl_clock_for_clock() {
    if !verilator_required("fors_rtl_equals_rust_hdl_clock_for_clock") {
        return;
    }
    let mut bench = Bench::new(5);
    let mut rng = Lcg::new(5);
    let keys = fors_keys(24, &mut rng);
    let md = [0xE1, 0x2D];
    let outcome = run_fors(&mut bench, &keys, &md, 2, 2);
    assert_eq!(outcome.bytes(), reference(&keys, &md, 2, 2));
    bench.set(TREES, 0);
    assert!(bench.run(START, 24, 1, None).error);
    bench.set(TREES, 2);
    assert!(bench.run(START, 24, 2, Some(400)).error);
    bench.assert_rtl_matches("slh_fors");
}
