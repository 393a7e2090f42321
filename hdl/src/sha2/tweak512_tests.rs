//! rust-hdl simulation tests of the SHA-512 H / T_l engine of SLH-DSA-SHA2
//! categories 3 and 5, alone and behind the router with the SHA-256
//! engine, against `pqc::slhdsa::Sha2Engine`: outputs, clock counts,
//! malformed requests, abort, and the yosys checks.

use super::tweak512::{tweak512_blocks, tweak512_clocks, Sha512TweakEngine};
use super::tweak_bench::{Bench, Request, TweakPorts};
use super::tweak_tests::{bytes, check, params, random_adrs, random_tweak};
use super::{tweak::chain_clocks, tweak::kept_clocks, Sha2TweakEngine};
use crate::keccak::select::{serve_sponge_port, PortEngine, SpongePort};
use crate::ntt::sim::Lcg;
use pqc::slhdsa::address::AddressType;
use pqc::slhdsa::{HashEngine, Sha2Engine};
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// The router behind an SLH-DSA job's sponge port, as a sponge would
/// be: the jobs send their aborts as `OP_ABORT`.
impl PortEngine for Sha2TweakEngine {
    fn for_jobs() -> Self {
        Self::default()
    }
    fn serve(&mut self, clock: Clock, port: &mut SpongePort) {
        self.abort_job.next = false;
        serve_sponge_port!(self, port, clock);
    }
}

type Bench512 = Bench<Sha512TweakEngine>;
type BenchRouter = Bench<Sha2TweakEngine>;

/// The message lengths of the tests for `n`: H (2n bytes), every length
/// up to 70 words (the 0x80 half-word and the length in every position of
/// a block, one to three blocks), and T_len and T_k of the sets of `n`.
fn lengths(n: usize) -> Vec<usize> {
    let (t_len, t_k) = if n == 24 {
        (51 * 6, [33 * 6, 17 * 6])
    } else {
        (67 * 8, [35 * 8, 22 * 8])
    };
    (n / 2..=70).chain([t_len]).chain(t_k).collect()
}

fn tweaks_match_pqc<E: TweakPorts>(bench: &mut Bench<E>, rng: &mut Lcg, n: usize) {
    let pk_seed = bytes(rng, n);
    for m_words in lengths(n) {
        let (req, expected) = random_tweak(rng, &pk_seed, m_words);
        let what = format!("n = {n}, {m_words} words");
        check(bench, &req, &expected, tweak512_clocks(n, m_words), &what);
    }
}

/// H and T_l of n = 24 and 32 equal `pqc`'s SHA-512 `thash`, in exactly
/// [`tweak512_clocks`] at full stream speed.
#[test]
fn sha512_tweak_h_and_t_match_pqc() {
    assert_eq!((tweak512_blocks(22), tweak512_blocks(23)), (1, 2));
    let mut bench = Bench512::new(51);
    let mut rng = Lcg::new(510);
    for n in [24, 32] {
        tweaks_match_pqc(&mut bench, &mut rng, n);
    }
}

#[test]
fn sha512_tweak_h_and_t_wait_for_slow_streams() {
    let mut bench = Bench512::new(52);
    bench.pace = 2;
    let mut rng = Lcg::new(520);
    for n in [24, 32] {
        tweaks_match_pqc(&mut bench, &mut rng, n);
    }
}

/// Bad requests are refused at once; streams that end early or late and
/// aborts in every phase end with `error`; good requests then run right.
#[test]
fn sha512_tweak_rejects_bad_requests() {
    let mut bench = Bench512::new(53);
    let mut rng = Lcg::new(530);
    let pk_seed = bytes(&mut rng, 24);
    let (good, expected) = random_tweak(&mut rng, &pk_seed, 40);
    let clocks = tweak512_clocks(24, 40);
    let refused = |bench: &mut Bench512, req: &Request, what: &str| {
        let r = bench.run(req, None);
        assert!(r.error, "{what}: no error");
        assert_eq!((r.consumed, r.words.len(), r.cycles), (0, 0, 1), "{what}");
    };
    for (op, arg0, arg1, arg2, what) in [
        (
            regs::OP_SPONGE,
            regs::MODE_SHAKE128,
            good.arg1,
            24,
            "mode SHAKE128",
        ),
        (
            regs::OP_SPONGE,
            regs::MODE_SHAKE256,
            good.arg1,
            16,
            "n = 16",
        ),
        (
            regs::OP_SPONGE,
            regs::MODE_SHAKE256,
            good.arg1,
            28,
            "n = 28",
        ),
        (
            regs::OP_SPONGE,
            regs::MODE_SHAKE256,
            good.arg1 + 2,
            24,
            "not whole words",
        ),
        (
            regs::OP_SPONGE,
            regs::MODE_SHAKE256,
            24 + 32 + 44,
            24,
            "shorter than H",
        ),
        (
            regs::OP_SPONGE,
            regs::MODE_SHAKE256,
            32 + 32 + 60,
            32,
            "shorter than H, n = 32",
        ),
        (regs::OP_SPONGE, regs::MODE_SHAKE256, 16384, 24, "too long"),
        (
            regs::OP_SPONGE,
            regs::MODE_SHAKE256,
            u32::MAX,
            24,
            "length 2^32 - 1",
        ),
        (regs::OP_WOTS_CHAIN, 24, 0, 1, "a chain"),
        (0x33, good.arg0, good.arg1, 24, "unknown op"),
    ] {
        let req = Request {
            op,
            arg0,
            arg1,
            arg2,
            ..good.clone()
        };
        refused(&mut bench, &req, what);
    }
    // Short streams: in PK.seed ‖ ADRS, at ADRS' last word, in M.
    for last in [3, 13, 20] {
        let mut short = good.clone();
        short.last_at = Some(last);
        let r = bench.run(&short, None);
        assert!(
            r.error && r.consumed == last + 1 && r.words.is_empty(),
            "short at {last}: {r:?}"
        );
    }
    let mut long = good.clone();
    long.words.extend([1, 2, 3]);
    long.last_at = Some(long.words.len() - 1);
    let r = bench.run(&long, None);
    assert!(
        r.error && r.consumed == long.words.len() && r.words.is_empty(),
        "long: {r:?}"
    );
    check(&mut bench, &good, &expected, clocks, "after bad streams");
    // Aborts in the input, the PK.seed block, the message block, the output.
    for at in [5, 60, 150, clocks - 3] {
        let r = bench.run(&good, Some(at));
        assert!(r.error && r.cycles == at + 1, "abort at {at}: {r:?}");
        check(&mut bench, &good, &expected, clocks, "after an abort");
    }
    bench.set_request(&Request {
        op: regs::OP_ABORT,
        ..good.clone()
    });
    bench.clock();
    bench.inputs.start = false;
    let o = bench.outputs();
    assert!(o.done && o.error && !o.busy);
    check(&mut bench, &good, &expected, clocks, "after OP_ABORT");
}

/// Behind the router, the SLH-DSA-SHA2 requests of n = 24 and 32 go where
/// FIPS 205 §11.2.2 says: a full chain (F, SHA-256), kept chains with the
/// PRF, H and T_l (SHA-512), and a kept chain after them on the prefix the
/// chain left, every output equal to `pqc`'s and every count the engine's
/// own; then a category-1 H goes to the SHA-256 engine.
#[test]
fn sha2_tweak_router_sends_each_request_to_its_engine() {
    use crate::keccak::sponge::KEPT_PRF_FIRST;
    let mut bench = BenchRouter::new(54);
    let mut rng = Lcg::new(540);
    for n in [24usize, 32] {
        let pk_seed = bytes(&mut rng, n);
        let sk_seed = bytes(&mut rng, n);
        let p = params(n);
        let adrs = random_adrs(&mut rng, false);
        let x = bytes(&mut rng, n);
        let mut engine = Sha2Engine::new(p, &pk_seed, &sk_seed);
        let mut end = vec![0u8; n];
        engine.chain(&adrs, &x, 3, 4, &mut end);
        let chain = Request::chain(&pk_seed, &adrs.0, &x, 3, 4);
        check(&mut bench, &chain, &end, chain_clocks(n, 4), "chain");
        let (h, h_out) = random_tweak(&mut rng, &pk_seed, n / 2);
        check(&mut bench, &h, &h_out, tweak512_clocks(n, n / 2), "H");
        // A WOTS+ secret value and its chain on the kept prefix.
        let mut chain_adrs = adrs;
        chain_adrs.set_chain(5);
        let mut prf_adrs = chain_adrs;
        prf_adrs.set_type_and_clear(AddressType::WotsPrf);
        prf_adrs.set_keypair(adrs.keypair());
        prf_adrs.set_chain(5);
        let mut sk = vec![0u8; n];
        engine.prf(&prf_adrs, &mut sk);
        engine.chain(&chain_adrs, &sk.clone(), 0, 2, &mut end);
        let kept = Request::kept(&sk_seed, 5, KEPT_PRF_FIRST, 0, 2);
        check(&mut bench, &kept, &end, kept_clocks(n, 3, false), "kept");
        let (t, t_out) = random_tweak(&mut rng, &pk_seed, 67 * n / 4);
        check(&mut bench, &t, &t_out, tweak512_clocks(n, 67 * n / 4), "T");
    }
    let pk_seed = bytes(&mut rng, 16);
    let mut adrs = random_adrs(&mut rng, false);
    adrs.set_type_and_clear(AddressType::Tree);
    let m = bytes(&mut rng, 32);
    let mut out = vec![0u8; 16];
    Sha2Engine::new(params(16), &pk_seed, &[]).thash(&adrs, &m, &[], &mut out);
    let h = Request::tweak(&pk_seed, &adrs.0, &m);
    check(
        &mut bench,
        &h,
        &out,
        super::tweak::tweak_clocks(8),
        "category-1 H",
    );
}

/// Aborts reach both engines, a request is not taken while the other
/// engine is busy, and a refused request of either engine shows its error.
#[test]
fn sha2_tweak_router_aborts_and_refuses() {
    let mut bench = BenchRouter::new(55);
    let mut rng = Lcg::new(550);
    let pk_seed = bytes(&mut rng, 32);
    let (good, expected) = random_tweak(&mut rng, &pk_seed, 16);
    let clocks = tweak512_clocks(32, 16);
    for at in [3, 40, 120] {
        let r = bench.run(&good, Some(at));
        assert!(r.error && r.cycles == at + 1, "abort at {at}: {r:?}");
    }
    check(&mut bench, &good, &expected, clocks, "after aborts");
    // A chain's start while the SHA-512 engine runs is not taken.
    bench.set_request(&good);
    bench.clock();
    let x = bytes(&mut rng, 32);
    let adrs = random_adrs(&mut rng, false);
    let chain = Request::chain(&pk_seed, &adrs.0, &x, 0, 1);
    bench.set_request(&chain);
    bench.clock();
    bench.inputs.start = false;
    let o = bench.outputs();
    assert!(o.busy && !o.done && o.in_ready, "{o:?}");
    bench.inputs.abort_job = true;
    bench.clock();
    bench.inputs.abort_job = false;
    let o = bench.outputs();
    assert!(o.done && o.error && !o.busy, "{o:?}");
    for (arg0, arg2, what) in [
        (regs::MODE_SHAKE256, 28, "n = 28 (SHA-256 engine)"),
        (regs::MODE_SHAKE128, 16, "SHAKE128 (SHA-256 engine)"),
        (regs::MODE_SHAKE128, 24, "SHAKE128 (SHA-512 engine)"),
    ] {
        let r = bench.run(
            &Request {
                arg0,
                arg2,
                ..good.clone()
            },
            None,
        );
        assert!(r.error && r.cycles == 1 && r.consumed == 0, "{what}: {r:?}");
    }
    check(&mut bench, &good, &expected, clocks, "after refusals");
}

#[test]
fn sha512_tweak_yosys_validate() {
    let mut uut = Sha512TweakEngine::default();
    uut.connect_all();
    yosys_validate("sha512_tweak", &generate_verilog(&uut)).unwrap();
    let mut uut = Sha2TweakEngine::default();
    uut.connect_all();
    yosys_validate("sha2_tweak", &generate_verilog(&uut)).unwrap();
}
