//! rust-hdl simulation tests of the SHA-256 hash engine of the SLH-DSA-SHA2
//! jobs: chains, kept-prefix chains with their PRF, and H / T_l, against
//! `pqc::slhdsa::Sha2Engine`; the clock counts of `tweak.rs`, malformed
//! requests, abort, and the yosys check. The driver also records every
//! clock's inputs and outputs for the Verilator cross-check.

use super::tweak::{
    chain_clocks, kept_clocks, tweak_clocks, Sha256TweakEngine, CLOCKS_PER_STEP, TWEAK_N,
};
use super::tweak_bench::{Bench, Request, TweakPorts};
use crate::keccak::select::{serve_sponge_port, PortEngine, SpongePort};
use crate::keccak::sponge::{KEPT_FORS, KEPT_PRF_FIRST};
use crate::ntt::sim::Lcg;
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::{HashEngine, Params, Sha2Engine};
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// The SHA-256 engine at the test bench.
type Bench256 = Bench<Sha256TweakEngine>;

/// The engine behind an SLH-DSA job's sponge port, as a sponge would be:
/// the jobs send their aborts as `OP_ABORT`.
impl PortEngine for Sha256TweakEngine {
    fn for_jobs() -> Self {
        Self::default()
    }
    fn serve(&mut self, clock: Clock, port: &mut SpongePort) {
        self.abort_job.next = false;
        serve_sponge_port!(self, port, clock);
    }
}

pub(crate) fn params(n: usize) -> &'static Params {
    match n {
        16 => &pqc::slhdsa::params::SHA2_128S,
        24 => &pqc::slhdsa::params::SHA2_192S,
        _ => &pqc::slhdsa::params::SHA2_256S,
    }
}

pub(crate) fn bytes(rng: &mut Lcg, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.next_u32() as u8).collect()
}

/// A random request of `n`, with the reference output.
fn random_chain(rng: &mut Lcg, n: usize, first: u32, steps: u32) -> (Request, Vec<u8>) {
    let pk_seed = bytes(rng, n);
    let adrs: [u8; 32] = bytes(rng, 32).try_into().unwrap();
    let x = bytes(rng, n);
    let mut out = vec![0u8; n];
    let mut engine = Sha2Engine::new(params(n), &pk_seed, &[]);
    engine.chain(
        &pqc::slhdsa::address::Adrs(adrs),
        &x,
        first,
        steps,
        &mut out,
    );
    (Request::chain(&pk_seed, &adrs, &x, first, steps), out)
}

pub(crate) fn unpack(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn check_chain(bench: &mut Bench256, rng: &mut Lcg, n: usize, first: u32, steps: u32) {
    let (req, expected) = random_chain(rng, n, first, steps);
    let what = format!("n = {n}, i = {first}, s = {steps}");
    check(bench, &req, &expected, chain_clocks(n, steps), &what);
}

/// Random PK.seed/ADRS/X and random (i, s) with i + s ≤ 15 (w = 16) for
/// every n, s = 0 included, plus starts near 2^32 and the hash address
/// carrying across its 16-bit halves; at full stream speed the clock count
/// is exact.
#[test]
fn sha256_tweak_chain_matches_pqc_sha2_chain() {
    let mut bench = Bench256::new(1);
    let mut rng = Lcg::new(205);
    for n in [16, 24, 32] {
        for _ in 0..6 {
            let first = rng.next_u32() % 16;
            let steps = rng.next_u32() % (16 - first);
            check_chain(&mut bench, &mut rng, n, first, steps);
        }
        check_chain(&mut bench, &mut rng, n, 3, 0);
        check_chain(&mut bench, &mut rng, n, 0, 1);
        check_chain(&mut bench, &mut rng, n, 0xFFFE, 3);
        check_chain(&mut bench, &mut rng, n, u32::MAX - 2, 2);
    }
}

/// The same with streams that stall at random on both sides.
#[test]
fn sha256_tweak_chain_waits_for_slow_streams() {
    let mut bench = Bench256::new(2);
    let mut rng = Lcg::new(206);
    for (k, n) in [16, 24, 32, 16, 24, 32].into_iter().enumerate() {
        bench.pace = 1 + (k as u32 % 4) * 2;
        let first = rng.next_u32() % 8;
        let steps = rng.next_u32() % 4;
        check_chain(&mut bench, &mut rng, n, first, steps);
    }
}

/// One step costs exactly [`CLOCKS_PER_STEP`] = 66 clocks: one compression,
/// the next starting in its `done` clock from the kept PK.seed state,
/// measured as the difference of s + 1 and s.
#[test]
fn sha256_tweak_chain_step_takes_66_clocks() {
    assert_eq!(CLOCKS_PER_STEP, 66);
    let mut bench = Bench256::new(3);
    let mut rng = Lcg::new(207);
    for n in [16, 24, 32] {
        let mut last = None;
        for steps in 1..4 {
            let (req, _) = random_chain(&mut rng, n, 0, steps);
            let cycles = bench.run(&req, None).cycles;
            if let Some(prev) = last {
                assert_eq!(cycles - prev, 66, "n = {n}, s = {steps}");
            }
            last = Some(cycles);
        }
    }
}

/// Malformed requests end with `done` and `error`, never hang, and leave
/// the engine ready for a good request.
#[test]
fn sha256_tweak_chain_rejects_bad_requests() {
    let mut bench = Bench256::new(4);
    let mut rng = Lcg::new(208);
    let (good, _) = random_chain(&mut rng, 16, 0, 1);
    // n outside {16, 24, 32} and i + s ≥ 2^32: refused at once.
    for (n, first, steps) in [
        (0, 0, 1),
        (20, 0, 1),
        (48, 0, 1),
        (64, 0, 1),
        (16 + (1 << 8), 0, 1),
        (16, u32::MAX, 1),
        (24, 1, u32::MAX),
        (32, u32::MAX - 1, 2),
        (32, 1 << 31, 1 << 31),
    ] {
        let req = Request {
            arg0: n,
            arg1: first,
            arg2: steps,
            ..good.clone()
        };
        let r = bench.run(&req, None);
        assert!(r.error, "n = {n}, i = {first}, s = {steps}: no error");
        assert_eq!(r.consumed, 0, "n = {n}: took words");
        assert!(r.words.is_empty());
        assert_eq!(r.cycles, 1, "refused at once");
    }
    // i + s = 2^32 − 1 is fine (the last hash address is 2^32 − 2).
    check_chain(&mut bench, &mut rng, 24, u32::MAX - 1, 1);

    // A stream that ends early stops at its in_last.
    let mut short = good.clone();
    short.last_at = Some(5);
    let r = bench.run(&short, None);
    assert!(r.error && r.consumed == 6 && r.words.is_empty(), "{r:?}");
    // A stream without in_last on its final word is drained to in_last.
    let mut long = good.clone();
    long.words.extend([7, 8, 9]);
    long.last_at = Some(long.words.len() - 1);
    let r = bench.run(&long, None);
    assert!(r.error && r.consumed == long.words.len() && r.words.is_empty());

    // Still good.
    check_chain(&mut bench, &mut rng, 16, 2, 3);
}

/// `abort_job` returns to idle from every phase (input, the PK.seed block, its
/// capture, a step, the reload, the output), with `done` and `error`, and
/// the next request is right.
#[test]
fn sha256_tweak_chain_aborts_from_any_phase() {
    let mut bench = Bench256::new(5);
    let mut rng = Lcg::new(209);
    let n = 16;
    let s = 2u32;
    let full = chain_clocks(n, s);
    // Clocks (counted from the start clock) inside each phase of an
    // n = 16, s = 2 run: the input words are clocks 1..=16.
    let words = (n / 2 + 8) as u64;
    let input = 4;
    let seed_block = 1 + words + 30;
    let capture = 1 + words + 66 + 3;
    let step = 1 + words + 74 + 40;
    let reload = 1 + words + 74 + 66 + 4;
    let output = full - 2;
    for at in [input, seed_block, capture, step, reload, output, 1] {
        let (req, _) = random_chain(&mut rng, n, 0, s);
        let r = bench.run(&req, Some(at));
        assert!(r.error, "abort at {at}: no error");
        assert_eq!(r.cycles, at + 1, "abort at {at}: not at once");
        // The rest of an aborted input stream is the source's to drop.
        check_chain(&mut bench, &mut rng, n, 1, 3);
        check_chain(&mut bench, &mut rng, 32, 0, 2);
    }
    // Abort while idle: done and error, nothing else.
    bench.inputs.abort_job = true;
    bench.clock();
    bench.inputs.abort_job = false;
    let o = bench.outputs();
    assert!(o.done && o.error && !o.busy);
    check_chain(&mut bench, &mut rng, 24, 5, 4);
}

/// A reset in the middle of a chain returns to idle with the flags low.
#[test]
fn sha256_tweak_chain_resets_from_a_step() {
    let mut bench = Bench256::new(6);
    let mut rng = Lcg::new(210);
    let (req, _) = random_chain(&mut rng, 32, 0, 3);
    bench.set_request(&req);
    bench.clock();
    bench.inputs.start = false;
    for (i, &w) in req.words.iter().enumerate() {
        bench.inputs.in_valid = true;
        bench.inputs.in_data = w;
        bench.inputs.in_last = i + 1 == req.words.len();
        bench.clock();
    }
    bench.inputs.in_last = false;
    bench.inputs.in_valid = false;
    for _ in 0..200 {
        bench.clock();
    }
    assert!(bench.outputs().busy);
    bench.inputs.reset = true;
    bench.clock();
    bench.inputs.reset = false;
    let o = bench.outputs();
    assert!(!o.busy && !o.done && !o.error);
    check_chain(&mut bench, &mut rng, 32, 7, 2);
}

#[test]
fn sha256_tweak_yosys_validate() {
    let mut uut = Sha256TweakEngine::default();
    uut.connect_all();
    yosys_validate("sha256_tweak", &generate_verilog(&uut)).unwrap();
}

/// A key pair's WOTS_HASH address with random layer, tree and key pair
/// (type, chain and hash zero), or its FORS_TREE address.
pub(crate) fn random_adrs(rng: &mut Lcg, fors: bool) -> Adrs {
    let mut adrs = Adrs([0; 32]);
    adrs.set_layer(rng.next_u32() % 22);
    adrs.set_tree(u64::from(rng.next_u32()) << 8 | u64::from(rng.next_u32() % 256));
    if fors {
        adrs.set_type_and_clear(AddressType::ForsTree);
    }
    adrs.set_keypair(rng.next_u32() % 512);
    adrs
}

/// Runs `req` and checks its output against `expected` and, at full
/// stream speed, its clocks against `clocks`.
pub(crate) fn check<E: TweakPorts>(
    bench: &mut Bench<E>,
    req: &Request,
    expected: &[u8],
    clocks: u64,
    what: &str,
) {
    let r = bench.run(req, None);
    assert!(!r.error, "{what}: error");
    assert_eq!(r.consumed, req.words.len(), "{what}: words taken");
    assert_eq!(unpack(&r.words), expected, "{what}: output");
    assert_eq!(r.last_at, Some(expected.len() / 4 - 1), "{what}: out_last");
    if bench.pace >= 8 {
        assert_eq!(r.cycles, clocks, "{what}: clocks");
    }
}

/// The leaf job's kept-prefix requests for every n: a full chain of no
/// step leaves PK.seed and ADRS; then WOTS+ secret values and their
/// chains (PRF first, hash address 0), chains from a given X, a FORS
/// secret value alone and a FORS leaf (PRF with the tree index, then F),
/// each equal to `pqc`'s PRF and chain. The first kept request after the
/// prefix computes the PK.seed block; the clock counts are exact.
fn kept_chains_match_pqc(pace: u32, seed: u64) {
    let mut bench = Bench256::new(seed);
    bench.pace = pace;
    let mut rng = Lcg::new(seed + 300);
    for n in [16, 24, 32] {
        let pk_seed = bytes(&mut rng, n);
        let sk_seed = bytes(&mut rng, n);
        let mut engine = Sha2Engine::new(params(n), &pk_seed, &sk_seed);
        for fors in [false, true] {
            let adrs = random_adrs(&mut rng, fors);
            let x = bytes(&mut rng, n);
            let prefix = Request::chain(&pk_seed, &adrs.0, &x, 0, 0);
            check(&mut bench, &prefix, &x, chain_clocks(n, 0), "prefix");
            let mut seeds = true;
            for k in 0..4u32 {
                let what = format!("n = {n}, fors = {fors}, request {k}");
                let (req, expected, blocks) = if fors {
                    let index = rng.next_u32() % (1 << 12);
                    let mut sk_adrs = adrs;
                    sk_adrs.set_type_and_clear(AddressType::ForsPrf);
                    sk_adrs.set_keypair(adrs.keypair());
                    sk_adrs.set_tree_index(index);
                    let mut sk = vec![0u8; n];
                    engine.prf(&sk_adrs, &mut sk);
                    let mut leaf_adrs = adrs;
                    leaf_adrs.set_tree_index(index);
                    let mut leaf = vec![0u8; n];
                    engine.thash(&leaf_adrs, &sk, &[], &mut leaf);
                    match k % 3 {
                        // The signed leaf's two requests, then a whole leaf.
                        0 => (
                            Request::kept(&sk_seed, 0, KEPT_PRF_FIRST | KEPT_FORS, index, 0),
                            sk,
                            1,
                        ),
                        1 => (Request::kept(&sk, 0, KEPT_FORS, index, 1), leaf, 1),
                        _ => (
                            Request::kept(&sk_seed, 0, KEPT_PRF_FIRST | KEPT_FORS, index, 1),
                            leaf,
                            2,
                        ),
                    }
                } else {
                    let chain = rng.next_u32() % (2 * n as u32 + 3);
                    let mut chain_adrs = adrs;
                    chain_adrs.set_chain(chain);
                    if k % 2 == 0 {
                        let steps = rng.next_u32() % 16;
                        let mut sk_adrs = adrs;
                        sk_adrs.set_type_and_clear(AddressType::WotsPrf);
                        sk_adrs.set_keypair(adrs.keypair());
                        sk_adrs.set_chain(chain);
                        let mut sk = vec![0u8; n];
                        engine.prf(&sk_adrs, &mut sk);
                        let mut end = vec![0u8; n];
                        engine.chain(&chain_adrs, &sk, 0, steps, &mut end);
                        (
                            Request::kept(&sk_seed, chain, KEPT_PRF_FIRST, 0, steps),
                            end,
                            1 + steps,
                        )
                    } else {
                        let first = rng.next_u32() % 15;
                        let steps = 1 + rng.next_u32() % (15 - first);
                        let x = bytes(&mut rng, n);
                        let mut end = vec![0u8; n];
                        engine.chain(&chain_adrs, &x, first, steps, &mut end);
                        (Request::kept(&x, chain, 0, first, steps), end, steps)
                    }
                };
                let clocks = kept_clocks(n, blocks, seeds);
                check(&mut bench, &req, &expected, clocks, &what);
                seeds = false;
            }
        }
    }
}

#[test]
fn sha256_tweak_kept_chains_match_pqc() {
    kept_chains_match_pqc(8, 21);
}

#[test]
fn sha256_tweak_kept_chains_wait_for_slow_streams() {
    kept_chains_match_pqc(3, 22);
}

/// A random H or T_l request of `m_words` message words for n = the
/// length of `pk_seed`, with `pqc`'s output (SHA-256 for n = 16, SHA-512
/// for n ∈ {24, 32}).
pub(crate) fn random_tweak(rng: &mut Lcg, pk_seed: &[u8], m_words: usize) -> (Request, Vec<u8>) {
    let n = pk_seed.len();
    let mut adrs = random_adrs(rng, false);
    adrs.set_type_and_clear(AddressType::Tree);
    adrs.set_tree_height(rng.next_u32() % 10);
    adrs.set_tree_index(rng.next_u32());
    let m = bytes(rng, 4 * m_words);
    let mut out = vec![0u8; n];
    let mut engine = Sha2Engine::new(params(n), pk_seed, &[]);
    engine.thash(&adrs, &m, &[], &mut out);
    (Request::tweak(pk_seed, &adrs.0, &m), out)
}

/// H (8 words) and T_l of every length from 1 to 40 words (the 0x80 word
/// and the length in every position of a block, one to three blocks),
/// T_len (35 parts of n = 16: 140 words) and T_k of 128f (33 parts) and
/// 128s (14 parts), each equal to `pqc`'s `thash` in category 1, in
/// exactly [`tweak_clocks`]; then a kept chain runs on the PK.seed state
/// an `OP_SPONGE` left, with no PK.seed block.
fn tweaks_match_pqc(pace: u32, seed: u64) {
    let mut bench = Bench256::new(seed);
    bench.pace = pace;
    let mut rng = Lcg::new(seed + 400);
    let pk_seed = bytes(&mut rng, TWEAK_N);
    let lengths: Vec<usize> = (1..=40).chain([140, 132, 56, 8]).collect();
    for m_words in lengths {
        let (req, expected) = random_tweak(&mut rng, &pk_seed, m_words);
        let what = format!("{m_words} words");
        check(&mut bench, &req, &expected, tweak_clocks(m_words), &what);
    }
    // The prefix, a T_len, then a kept chain: the T left the PK.seed state.
    let adrs = random_adrs(&mut rng, false);
    let x = bytes(&mut rng, TWEAK_N);
    let prefix = Request::chain(&pk_seed, &adrs.0, &x, 0, 0);
    check(&mut bench, &prefix, &x, chain_clocks(TWEAK_N, 0), "prefix");
    let (req, expected) = random_tweak(&mut rng, &pk_seed, 140);
    check(&mut bench, &req, &expected, tweak_clocks(140), "T_len");
    let mut chain_adrs = adrs;
    chain_adrs.set_chain(9);
    let mut end = vec![0u8; TWEAK_N];
    let mut engine = Sha2Engine::new(params(TWEAK_N), &pk_seed, &[]);
    engine.chain(&chain_adrs, &x, 2, 5, &mut end);
    let kept = Request::kept(&x, 9, 0, 2, 5);
    check(
        &mut bench,
        &kept,
        &end,
        kept_clocks(TWEAK_N, 5, false),
        "kept after T",
    );
}

#[test]
fn sha256_tweak_h_and_t_match_pqc() {
    tweaks_match_pqc(8, 31);
}

#[test]
fn sha256_tweak_h_and_t_wait_for_slow_streams() {
    tweaks_match_pqc(2, 32);
}

/// Bad `OP_SPONGE` and kept requests are refused at once; a kept chain
/// needs a prefix of its n, which an error, an abort and a reset forget;
/// an `OP_SPONGE` stream that ends early or late, and an abort while it
/// absorbs, end with `error`; good requests then run right.
#[test]
fn sha256_tweak_rejects_bad_requests() {
    let mut bench = Bench256::new(41);
    let mut rng = Lcg::new(441);
    let pk_seed = bytes(&mut rng, TWEAK_N);
    let (good, expected) = random_tweak(&mut rng, &pk_seed, 20);
    let refused = |bench: &mut Bench256, req: &Request, what: &str| {
        let r = bench.run(req, None);
        assert!(r.error, "{what}: no error");
        assert_eq!((r.consumed, r.words.len(), r.cycles), (0, 0, 1), "{what}");
    };
    for (arg0, arg1, arg2, what) in [
        (regs::MODE_SHAKE128, good.arg1, 16, "mode SHAKE128"),
        (regs::MODE_SHA3_256, good.arg1, 16, "mode SHA3-256"),
        (regs::MODE_SHAKE256, good.arg1, 24, "n = 24"),
        (regs::MODE_SHAKE256, good.arg1, 32, "n = 32"),
        (
            regs::MODE_SHAKE256,
            good.arg1 + 2,
            16,
            "length not whole words",
        ),
        (regs::MODE_SHAKE256, 48, 16, "no message"),
        (regs::MODE_SHAKE256, 16384, 16, "too long"),
        (regs::MODE_SHAKE256, u32::MAX, 16, "length 2^32 - 1"),
    ] {
        let req = Request {
            arg0,
            arg1,
            arg2,
            ..good.clone()
        };
        refused(&mut bench, &req, what);
    }
    let unknown = Request {
        op: 0x33,
        ..good.clone()
    };
    refused(&mut bench, &unknown, "unknown op");

    // No prefix since the reset; then a prefix of n = 16 refuses n = 24.
    let x16 = bytes(&mut rng, 16);
    let x24 = bytes(&mut rng, 24);
    refused(&mut bench, &Request::kept(&x16, 1, 0, 0, 1), "no prefix");
    let adrs = random_adrs(&mut rng, false);
    let prefix = Request::chain(&pk_seed, &adrs.0, &x16, 0, 0);
    check(&mut bench, &prefix, &x16, chain_clocks(16, 0), "prefix");
    refused(&mut bench, &Request::kept(&x24, 1, 0, 0, 1), "other n");
    refused(
        &mut bench,
        &Request::kept(&x16, 1, 0, u32::MAX, 1),
        "j overflows",
    );

    // Short, long and aborted OP_SPONGE streams: error, prefix forgotten.
    let mut short = good.clone();
    short.last_at = Some(15);
    let r = bench.run(&short, None);
    assert!(
        r.error && r.consumed == 16 && r.words.is_empty(),
        "short: {r:?}"
    );
    refused(
        &mut bench,
        &Request::kept(&x16, 1, 0, 0, 1),
        "prefix after short",
    );
    check(
        &mut bench,
        &prefix,
        &x16,
        chain_clocks(16, 0),
        "prefix again",
    );
    let mut long = good.clone();
    long.words.extend([1, 2, 3]);
    long.last_at = Some(long.words.len() - 1);
    let r = bench.run(&long, None);
    assert!(
        r.error && r.consumed == long.words.len() && r.words.is_empty(),
        "long: {r:?}"
    );
    refused(
        &mut bench,
        &Request::kept(&x16, 1, 0, 0, 1),
        "prefix after long",
    );
    // Aborts in the message's first and second block, and by OP_ABORT.
    for at in [100, 150] {
        let r = bench.run(&good, Some(at));
        assert!(r.error && r.cycles == at + 1, "abort at {at}: {r:?}");
    }
    check(
        &mut bench,
        &good,
        &expected,
        tweak_clocks(20),
        "after aborts",
    );
    bench.set_request(&Request {
        op: regs::OP_ABORT,
        ..good.clone()
    });
    bench.clock();
    bench.inputs.start = false;
    let o = bench.outputs();
    assert!(o.done && o.error && !o.busy);
    check(
        &mut bench,
        &good,
        &expected,
        tweak_clocks(20),
        "after OP_ABORT",
    );
}
