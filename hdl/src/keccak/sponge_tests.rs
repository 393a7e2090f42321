//! rust-hdl simulation tests of the sponge engine: bit-exact against the
//! `sha3` crate (and `pqc::keccak::soft_sponge` for SHA3 outputs of other
//! than digest length), the WOTS+ chain against `pqc::slhdsa`, clock counts
//! against the timing documented in `sponge.rs`, malformed requests and
//! their recovery. `PQC_FULL=1` widens the random sweeps.

use super::bench::Bench;
use super::harness::{
    engine_bench, kept_chain_bench, run_request, shared_bench, tail_bench, unpack_words, wait_idle,
    FullSpeed, Pacing, Request, Response,
};
use super::round::ROUNDS;
use super::sponge::{SpongeEngine, TAIL_WORDS};
use super::testutil::{full_run, SplitMix64};
use pqc::keccak::{soft_sponge, SoftKeccak, SpongeMode};
use ps_pl_contract::regmap::keccak as regs;
use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};

/// The tail engine at R = 1; at R = 2 the shared engine (kept chain and
/// tail, the one the engines' top builds).
fn tail_or_shared_bench<const R: usize>() -> Bench<SpongeEngine<R>> {
    if R == 2 {
        shared_bench::<R>()
    } else {
        tail_bench::<R>()
    }
}

/// The kept-chain engine at R = 1; at R = 2 the shared engine.
fn kept_or_shared_bench<const R: usize>() -> Bench<SpongeEngine<R>> {
    if R == 2 {
        shared_bench::<R>()
    } else {
        kept_chain_bench::<R>()
    }
}

/// Reference output: `sha3` where it defines one, else `soft_sponge`
/// (itself checked against `sha3` in `pqc`).
pub(crate) fn reference(mode: SpongeMode, message: &[u8], out_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; out_len];
    match mode {
        SpongeMode::Shake128 => {
            let mut h = sha3::Shake128::default();
            h.update(message);
            h.finalize_xof().read(&mut out);
        }
        SpongeMode::Shake256 => {
            let mut h = sha3::Shake256::default();
            h.update(message);
            h.finalize_xof().read(&mut out);
        }
        SpongeMode::Sha3_256 if out_len == 32 => {
            out.copy_from_slice(&sha3::Sha3_256::digest(message));
        }
        SpongeMode::Sha3_512 if out_len == 64 => {
            out.copy_from_slice(&sha3::Sha3_512::digest(message));
        }
        _ => soft_sponge(pqc::keccak::keccak_f1600, mode, &[message], &mut out),
    }
    out
}

/// Clocks of an `OP_SPONGE` request at full stream speed (see `sponge.rs`):
/// start, the clear clock, one per input word, a permutation per full block, one or two
/// padding clocks, the final permutation, one per output word and a
/// permutation per further output block.
pub(crate) fn sponge_cycles(r: usize, mode: SpongeMode, len: usize, out_len: usize) -> u64 {
    sponge_cycles_with(r, mode, len, out_len, ROUNDS / r)
}

/// [`sponge_cycles`] for an engine with the squeeze tail: a further output
/// block waits only for the part of the permutation the tail does not
/// cover (SHA3-512 has no tail).
pub(crate) fn tail_sponge_cycles(r: usize, mode: SpongeMode, len: usize, out_len: usize) -> u64 {
    let perm = ROUNDS / r;
    let wait = if mode == SpongeMode::Sha3_512 {
        perm
    } else {
        perm.saturating_sub(TAIL_WORDS)
    };
    sponge_cycles_with(r, mode, len, out_len, wait)
}

/// The sponge's clocks with `squeeze_wait` idle clocks before each
/// further output block.
fn sponge_cycles_with(
    r: usize,
    mode: SpongeMode,
    len: usize,
    out_len: usize,
    squeeze_wait: usize,
) -> u64 {
    let perm = ROUNDS / r;
    let rate = mode.rate_bytes();
    let in_words = len.div_ceil(4);
    let out_words = out_len.div_ceil(4);
    let pad = if len % 4 != 0 || len % rate == rate - 4 {
        1
    } else {
        2
    };
    // The start clock, then one clock while the registered clear empties
    // the state (no word is taken), then the words.
    (2 + in_words
        + (len / rate) * perm
        + pad
        + perm
        + out_words
        + ((out_words - 1) / (rate / 4)) * squeeze_wait) as u64
}

/// Clocks of an `OP_WOTS_CHAIN` request at full stream speed.
pub(crate) fn chain_cycles(r: usize, n: usize, steps: u32) -> u64 {
    (1 + (n / 2 + 8) + steps as usize * (1 + ROUNDS / r) + 1 + n / 4) as u64
}

/// Clocks of the chain blocks of a request on a fused engine
/// (`with_kept_chain`): one load clock, 24/R per block, and one clock to
/// turn to the output, or two clocks when there is no block.
fn fused_blocks_cycles(r: usize, blocks: u32) -> u64 {
    2 + u64::from(blocks) * (ROUNDS / r) as u64
}

/// Clocks of an `OP_WOTS_CHAIN` request on a fused engine at full stream
/// speed: the start, PK.seed ‖ ADRS ‖ X, the blocks, the squeeze.
pub(crate) fn fused_chain_cycles(r: usize, n: usize, steps: u32) -> u64 {
    1 + (n / 2 + 8) as u64 + fused_blocks_cycles(r, steps) + (n / 4) as u64
}

fn check_sponge<const R: usize>(
    bench: &mut Bench<SpongeEngine<R>>,
    mode: SpongeMode,
    message: &[u8],
    out_len: usize,
    filler: u8,
    tail: bool,
) {
    let request = Request::sponge(mode, message, out_len as u32, filler);
    let response = run_request(bench, &request, &mut FullSpeed, 100_000);
    let what = format!(
        "R={R} tail {tail} {mode:?} len {} out {out_len}",
        message.len()
    );
    assert!(!response.error, "{what}: error");
    assert_eq!(
        response.consumed,
        request.words.len(),
        "{what}: words taken"
    );
    assert_eq!(
        response.words.len(),
        out_len.div_ceil(4),
        "{what}: words given"
    );
    assert_eq!(
        response.last_at,
        Some(response.words.len() - 1),
        "{what}: TLAST"
    );
    assert_eq!(
        unpack_words(&response.words, out_len),
        reference(mode, message, out_len),
        "{what}: output"
    );
    // Bytes past the requested length in the final word read as zero.
    let final_word = response.words.last().unwrap().to_le_bytes();
    assert!(
        final_word[(out_len - 1) % 4 + 1..].iter().all(|&b| b == 0),
        "{what}: final word's padding"
    );
    let cycles = if tail {
        tail_sponge_cycles(R, mode, message.len(), out_len)
    } else {
        sponge_cycles(R, mode, message.len(), out_len)
    };
    assert_eq!(response.cycles, cycles, "{what}: clocks");
}

/// Every rate boundary of every mode (71/72/73, 135/136/137, 167/168/169
/// and the next block's), lengths 0–8, and outputs from 1 byte to several
/// rate blocks.
fn rate_boundaries<const R: usize>(tail: bool) {
    let mut bench = if tail {
        tail_or_shared_bench::<R>()
    } else {
        engine_bench::<R>()
    };
    let mut rng = SplitMix64(0xB0DA + R as u64);
    let mut lengths: Vec<usize> = (0..=8).collect();
    for rate in [72, 136, 168] {
        for block in [1, 2] {
            for delta in [-5i64, -4, -1, 0, 1, 4] {
                lengths.push((rate * block) as usize + delta as usize);
            }
        }
    }
    lengths.extend([500, 1000]);
    for (i, &len) in lengths.iter().enumerate() {
        let message = rng.bytes(len);
        for (j, mode) in SpongeMode::ALL.into_iter().enumerate() {
            let rate = mode.rate_bytes();
            // Walk the output lengths across the cases that matter.
            let outs = [
                1,
                2,
                3,
                4,
                5,
                rate - 1,
                rate,
                rate + 1,
                3 * rate + 7,
                mode.digest_bytes().unwrap_or(32),
            ];
            let out_len = outs[(i + j) % outs.len()];
            check_sponge(
                &mut bench,
                mode,
                &message,
                out_len,
                rng.next_u64() as u8,
                tail,
            );
        }
    }
    // Digest lengths for the SHA3 modes at every boundary, against `sha3` itself.
    for &len in &lengths {
        let message = rng.bytes(len);
        check_sponge(&mut bench, SpongeMode::Sha3_256, &message, 32, 0xA5, tail);
        check_sponge(&mut bench, SpongeMode::Sha3_512, &message, 64, 0x5A, tail);
    }
}

#[test]
fn sponge_rate_boundaries_one_round() {
    rate_boundaries::<1>(false);
}

#[test]
fn sponge_rate_boundaries_two_rounds() {
    rate_boundaries::<2>(false);
}

#[test]
fn squeeze_tail_rate_boundaries_one_round() {
    rate_boundaries::<1>(true);
}

#[test]
fn squeeze_tail_rate_boundaries_two_rounds() {
    rate_boundaries::<2>(true);
}

/// Random messages of 0–1000 bytes and outputs of 1 byte to 4 rate blocks.
fn random_messages<const R: usize>(per_mode: usize, tail: bool) {
    let mut bench = if tail {
        tail_or_shared_bench::<R>()
    } else {
        engine_bench::<R>()
    };
    let mut rng = SplitMix64(0x5EED + R as u64);
    for mode in SpongeMode::ALL {
        for _ in 0..per_mode {
            let len = rng.below(1001) as usize;
            let out_len = 1 + rng.below(4 * mode.rate_bytes() as u64) as usize;
            let message = rng.bytes(len);
            check_sponge(
                &mut bench,
                mode,
                &message,
                out_len,
                rng.next_u64() as u8,
                tail,
            );
        }
    }
}

#[test]
fn sponge_random_messages_one_round() {
    random_messages::<1>(if full_run() { 250 } else { 12 }, false);
}

#[test]
fn sponge_random_messages_two_rounds() {
    random_messages::<2>(if full_run() { 250 } else { 6 }, false);
}

#[test]
fn squeeze_tail_random_messages() {
    random_messages::<1>(if full_run() { 250 } else { 12 }, true);
    random_messages::<2>(if full_run() { 250 } else { 12 }, true);
}

/// Source and sink that pause at random: the result must not change.
struct RandomStalls(SplitMix64);

impl Pacing for RandomStalls {
    fn source_valid(&mut self, _: u64) -> bool {
        self.0.below(3) != 0
    }
    fn sink_ready(&mut self, _: u64) -> bool {
        self.0.below(3) != 0
    }
}

#[test]
fn sponge_with_stalling_streams() {
    stalling_streams(engine_bench::<1>());
}

#[test]
fn squeeze_tail_with_stalling_streams() {
    stalling_streams(tail_bench::<1>());
    stalling_streams(shared_bench::<2>());
}

fn stalling_streams<const R: usize>(mut bench: Bench<SpongeEngine<R>>) {
    let mut rng = SplitMix64(77);
    let mut pacing = RandomStalls(SplitMix64(78));
    for mode in SpongeMode::ALL {
        for len in [0usize, 5, mode.rate_bytes(), 2 * mode.rate_bytes() + 3] {
            let message = rng.bytes(len);
            // Three blocks and a bit: the tail is crossed twice.
            let out_len = 3 * mode.rate_bytes() + 9;
            let request = Request::sponge(mode, &message, out_len as u32, 0xEE);
            let response = run_request(&mut bench, &request, &mut pacing, 100_000);
            assert!(!response.error);
            assert_eq!(
                unpack_words(&response.words, out_len),
                reference(mode, &message, out_len)
            );
            assert_eq!(response.last_at, Some(response.words.len() - 1));
        }
    }
}

fn chain_reference(pk_seed: &[u8], adrs: &[u8; 32], x: &[u8], start: u32, steps: u32) -> Vec<u8> {
    let mut out = vec![0u8; x.len()];
    pqc::slhdsa::shake_wots_chain(&mut SoftKeccak, pk_seed, adrs, x, start, steps, &mut out);
    out
}

fn check_chain<const R: usize>(
    bench: &mut Bench<SpongeEngine<R>>,
    rng: &mut SplitMix64,
    n: usize,
    start: u32,
    steps: u32,
) {
    let pk_seed = rng.bytes(n);
    let adrs: [u8; 32] = rng.bytes(32).try_into().unwrap();
    let x = rng.bytes(n);
    let request = Request::wots_chain(&pk_seed, &adrs, &x, start, steps);
    let response = run_request(bench, &request, &mut FullSpeed, 100_000);
    assert_chain_response(
        &format!("R={R} n={n} start={start} steps={steps}"),
        &request,
        &response,
        &chain_reference(&pk_seed, &adrs, &x, start, steps),
        chain_cycles(R, n, steps),
    );
}

/// A chain request ran cleanly: every input word taken, `want` (n bytes)
/// out with TLAST on its final word, in `cycles` clocks.
fn assert_chain_response(
    what: &str,
    request: &Request,
    response: &Response,
    want: &[u8],
    cycles: u64,
) {
    let n = want.len();
    assert!(!response.error, "{what}: error");
    assert_eq!(response.consumed, request.words.len(), "{what}");
    assert_eq!(response.last_at, Some(n / 4 - 1), "{what}: TLAST");
    assert_eq!(unpack_words(&response.words, n), want, "{what}: output");
    assert_eq!(response.cycles, cycles, "{what}: clocks");
}

fn wots_chains<const R: usize>() {
    let mut bench = engine_bench::<R>();
    let mut rng = SplitMix64(0xC4A1 + R as u64);
    for n in [16, 24, 32] {
        // w = 16: chains of 0..15 steps from any start with start + steps ≤ 15,
        // plus a hash address that carries across bytes.
        for (start, steps) in [(0, 0), (0, 1), (3, 5), (0, 15), (7, 8), (0x00FF_FFFE, 3)] {
            check_chain(&mut bench, &mut rng, n, start, steps);
        }
    }
    if full_run() {
        for _ in 0..60 {
            let n = [16, 24, 32][rng.below(3) as usize];
            let start = rng.below(16) as u32;
            let steps = rng.below(16 - start as u64) as u32;
            check_chain(&mut bench, &mut rng, n, start, steps);
        }
    }
}

#[test]
fn wots_chain_matches_pqc_one_round() {
    wots_chains::<1>();
}

#[test]
fn wots_chain_matches_pqc_two_rounds() {
    wots_chains::<2>();
}

/// Clocks of an `OP_WOTS_CHAIN_KEPT` request at full stream speed: the
/// start, the clear clock, X, the blocks (the PRF's if asked, then the
/// steps), the squeeze.
pub(crate) fn kept_chain_cycles(r: usize, n: usize, steps: u32, prf_first: bool) -> u64 {
    2 + (n / 4) as u64 + fused_blocks_cycles(r, u32::from(prf_first) + steps) + (n / 4) as u64
}

/// A WOTS_HASH address with chain address `chain` and hash address 0.
fn hash_adrs(rng: &mut SplitMix64, chain: u8) -> [u8; 32] {
    let mut adrs: [u8; 32] = rng.bytes(32).try_into().unwrap();
    adrs[16..20].fill(0);
    adrs[24..32].fill(0);
    adrs[27] = chain;
    adrs
}

/// `OP_WOTS_CHAIN_KEPT` on the PK.seed and ADRS of the last full chain,
/// with and without the PRF first, against `pqc`'s chain and the `sha3`
/// crate's SHAKE256 for the PRF; the full chains between them re-key it.
fn kept_chains<const R: usize>() {
    let mut bench = kept_or_shared_bench::<R>();
    let mut rng = SplitMix64(0x4E97 + R as u64);
    for n in [16, 24, 32] {
        for round in 0..2 {
            let pk_seed = rng.bytes(n);
            let chain = rng.below(67) as u8;
            let adrs = hash_adrs(&mut rng, chain);
            let x = rng.bytes(n);
            // A full chain, fused: every step after the first without its
            // load clock.
            // (The first one's hash address carries across bytes.)
            let (start, steps) = if round == 0 {
                (0x00FF_FFFE, 3)
            } else {
                let start = rng.below(16) as u32;
                (start, rng.below(16 - start as u64) as u32)
            };
            let full = Request::wots_chain(&pk_seed, &adrs, &x, start, steps);
            let response = run_request(&mut bench, &full, &mut FullSpeed, 1_000);
            assert_chain_response(
                &format!("R={R} n={n} full chain {start}+{steps}"),
                &full,
                &response,
                &chain_reference(&pk_seed, &adrs, &x, start, steps),
                fused_chain_cycles(R, n, steps),
            );
            for (chain, prf_first, start, steps) in [
                (0, true, 0, 15),
                (66, true, 0, 4),
                (9, false, 4, 11),
                (3, true, 0, 0),
                (5, false, 15, 0),
            ] {
                let what = format!("R={R} n={n} chain={chain} prf={prf_first} {start}+{steps}");
                let x = rng.bytes(n);
                let request = Request::wots_chain_kept(chain, prf_first, &x, start, steps);
                assert_eq!(request.words.len(), n / 4, "{what}: X alone");
                let response = run_request(&mut bench, &request, &mut FullSpeed, 1_000);
                let chain_adrs = {
                    let mut a = adrs;
                    a[27] = chain;
                    a
                };
                let chain_in = if prf_first {
                    let mut prf_adrs = chain_adrs;
                    prf_adrs[19] = 5;
                    let message = [&pk_seed[..], &prf_adrs, &x].concat();
                    reference(SpongeMode::Shake256, &message, n)
                } else {
                    x.clone()
                };
                assert_chain_response(
                    &what,
                    &request,
                    &response,
                    &chain_reference(&pk_seed, &chain_adrs, &chain_in, start, steps),
                    kept_chain_cycles(R, n, steps, prf_first),
                );
            }
        }
    }
}

/// `OP_WOTS_CHAIN_KEPT` with `KEPT_FORS` on a kept FORS_TREE address:
/// the FORS secret value PRF(PK.seed, SK.seed, FORS_PRF address of tree
/// index i) alone, and with the leaf F(PK.seed, FORS_TREE address of
/// height 0 and index i, sk) after it, and the leaf from a given secret
/// value; against the `sha3` crate's SHAKE256 and `pqc`'s chain, in the
/// clocks of `kept_chain_cycles`.
fn fors_kept<const R: usize>() {
    let mut bench = kept_or_shared_bench::<R>();
    let mut rng = SplitMix64(0xF025 + R as u64);
    for n in [16, 24, 32] {
        let pk_seed = rng.bytes(n);
        let sk_seed = rng.bytes(n);
        // FORS_TREE (type 3) with layer, tree and key pair; height 0.
        let mut adrs: [u8; 32] = rng.bytes(32).try_into().unwrap();
        adrs[16..20].copy_from_slice(&3u32.to_be_bytes());
        adrs[24..32].fill(0);
        let prefix = Request::wots_chain(&pk_seed, &adrs, &sk_seed, 0, 0);
        assert!(!run_request(&mut bench, &prefix, &mut FullSpeed, 1_000).error);
        for index in [0, 0x1FF, 0x5_7FFF, rng.below(1 << 20) as u32] {
            let what = format!("R={R} n={n} FORS index {index:#x}");
            let mut sk_adrs = adrs;
            sk_adrs[16..20].copy_from_slice(&6u32.to_be_bytes());
            sk_adrs[28..32].copy_from_slice(&index.to_be_bytes());
            let sk = reference(
                SpongeMode::Shake256,
                &[&pk_seed[..], &sk_adrs, &sk_seed].concat(),
                n,
            );
            let leaf = chain_reference(&pk_seed, &adrs, &sk, index, 1);
            // The secret value; the leaf from SK.seed; the leaf from sk.
            for (prf_first, x, steps, want) in [
                (true, &sk_seed, 0, &sk),
                (true, &sk_seed, 1, &leaf),
                (false, &sk, 1, &leaf),
            ] {
                let request = Request::fors_kept(prf_first, x, index, steps);
                let response = run_request(&mut bench, &request, &mut FullSpeed, 1_000);
                let cycles = kept_chain_cycles(R, n, steps, prf_first);
                assert_chain_response(&what, &request, &response, want, cycles);
            }
        }
    }
}

#[test]
fn fors_kept_chain_matches_prf_and_leaf() {
    fors_kept::<1>();
    fors_kept::<2>();
}

#[test]
fn kept_chain_matches_prf_and_chain_one_round() {
    kept_chains::<1>();
}

#[test]
fn kept_chain_matches_prf_and_chain_two_rounds() {
    kept_chains::<2>();
}

/// Only an engine built for it takes the kept-prefix op; on it, a bad n or
/// start + steps past 2^32 is refused as for `OP_WOTS_CHAIN`, and a short
/// X stream stops at its TLAST.
#[test]
fn kept_chain_is_refused_where_not_built_and_checks_its_arguments() {
    let request = Request::wots_chain_kept(1, true, &[7; 16], 0, 3);
    let mut plain = engine_bench::<1>();
    expect_refused(&run_request(&mut plain, &request, &mut FullSpeed, 100));
    let mut bench = kept_chain_bench::<1>();
    for args in [[20 | 1 << 8, 0, 1], [0, 0, 1], [16, u32::MAX, 1]] {
        let bad = Request {
            args,
            ..request.clone()
        };
        expect_refused(&run_request(&mut bench, &bad, &mut FullSpeed, 100));
    }
    // The full op on this engine still takes n alone in ARG0.
    let full = Request::wots_chain(&[1; 16], &[2; 32], &[3; 16], 0, 2);
    for high in [1 << 8, 1 << 16, 1 << 31] {
        let bad = Request {
            args: [16 | high, 0, 2],
            ..full.clone()
        };
        expect_refused(&run_request(&mut bench, &bad, &mut FullSpeed, 100));
    }
    let mut short = request.clone();
    short.last_at = Some(1);
    let response = run_request(&mut bench, &short, &mut FullSpeed, 1_000);
    assert!(response.error && response.consumed == 2);
    wait_idle(&mut bench, 100);
    assert!(!run_request(&mut bench, &request, &mut FullSpeed, 1_000).error);
}

/// An abort on any clock around a fused chain's reloads (the second-to-last
/// round clock, the reloading clock, the first round after it) stops it,
/// and the next chain is exact.
#[test]
fn fused_chain_abort_at_a_reload_recovers() {
    let mut bench = kept_chain_bench::<2>();
    let pk_seed = [0x5A; 16];
    let adrs = [0x11; 32];
    let x = [0x77; 16];
    let request = Request::wots_chain(&pk_seed, &adrs, &x, 0, 6);
    let want = chain_reference(&pk_seed, &adrs, &x, 0, 6);
    let response = run_request(&mut bench, &request, &mut FullSpeed, 1_000);
    assert_eq!(unpack_words(&response.words, 16), want);
    // Input ends on clock 17 and the first load follows; blocks of 12
    // clocks reload on clocks 30, 42, ...
    for clocks in 27..=45 {
        start_then_abort(&mut bench, &request, &mut FullSpeed, clocks);
        let response = run_request(&mut bench, &request, &mut FullSpeed, 1_000);
        assert!(!response.error, "after an abort at clock {clocks}");
        assert_eq!(
            unpack_words(&response.words, 16),
            want,
            "after an abort at clock {clocks}"
        );
    }
}

fn expect_refused(response: &Response) {
    assert!(response.error, "malformed request not flagged");
    assert_eq!(response.consumed, 0, "refused request touched the stream");
    assert!(response.words.is_empty());
    assert_eq!(response.cycles, 1, "refusal is immediate");
}

/// Every malformed request ends with `error`, never hangs, and the next
/// request runs normally.
#[test]
fn malformed_requests_flag_error_and_recover() {
    let mut bench = engine_bench::<1>();
    let mut rng = SplitMix64(99);
    let good = |bench: &mut Bench<SpongeEngine<1>>, rng: &mut SplitMix64| {
        wait_idle(bench, 100);
        let message = rng.bytes(40);
        check_sponge(bench, SpongeMode::Shake128, &message, 20, 0, false);
    };
    let message = rng.bytes(40);
    let base = Request::sponge(SpongeMode::Shake256, &message, 32, 0);

    // Refused at start.
    for (op, args) in [
        (0x00, base.args),
        (0x7E, base.args),
        (regs::OP_SPONGE, [4, 40, 32]),
        (regs::OP_SPONGE, [u32::MAX, 40, 32]),
        (regs::OP_SPONGE, [regs::MODE_SHA3_256, 40, 0]),
        (regs::OP_SPONGE, [regs::MODE_SHAKE128, 0, 0]),
        (regs::OP_WOTS_CHAIN, [20, 0, 1]),
        (regs::OP_WOTS_CHAIN, [0, 0, 1]),
        (regs::OP_WOTS_CHAIN, [16, u32::MAX, 1]),
        (regs::OP_WOTS_CHAIN, [32, 1 << 31, 1 << 31]),
    ] {
        let request = Request {
            op,
            args,
            ..base.clone()
        };
        expect_refused(&run_request(&mut bench, &request, &mut FullSpeed, 100));
        good(&mut bench, &mut rng);
    }
    // start + steps = 2^32 - 1 is the largest accepted (checked_add in pqc).
    let ok_end = Request::wots_chain(&[1; 16], &[2; 32], &[3; 16], u32::MAX - 1, 1);
    assert!(!run_request(&mut bench, &ok_end, &mut FullSpeed, 1_000).error);

    // Stream shorter than declared: stops at TLAST.
    let mut short = base.clone();
    short.last_at = Some(4);
    let response = run_request(&mut bench, &short, &mut FullSpeed, 1_000);
    assert!(response.error);
    assert_eq!(response.consumed, 5);
    good(&mut bench, &mut rng);

    // Longer than declared: drains to its TLAST.
    let mut long = base.clone();
    long.words.extend([0xDEAD_BEEF; 7]);
    long.last_at = Some(long.words.len() - 1);
    let response = run_request(&mut bench, &long, &mut FullSpeed, 1_000);
    assert!(response.error);
    assert_eq!(response.consumed, long.words.len());
    assert!(response.words.is_empty());
    good(&mut bench, &mut rng);

    // The same for the chain's stream.
    let mut chain = Request::wots_chain(&[1; 24], &[2; 32], &[3; 24], 0, 2);
    chain.last_at = Some(3);
    let response = run_request(&mut bench, &chain, &mut FullSpeed, 1_000);
    assert!(response.error && response.consumed == 4);
    let mut chain = Request::wots_chain(&[1; 24], &[2; 32], &[3; 24], 0, 2);
    chain.words.push(0);
    chain.last_at = Some(chain.words.len() - 1);
    let response = run_request(&mut bench, &chain, &mut FullSpeed, 1_000);
    assert!(response.error && response.consumed == chain.words.len());
    good(&mut bench, &mut rng);

    // A stream that never ends (no TLAST): the engine waits; OP_ABORT frees it.
    let mut endless = base.clone();
    endless.words.extend([0; 40]);
    endless.last_at = None;
    abort_after(&mut bench, &endless, 120);
    good(&mut bench, &mut rng);

    // A sink that never takes the output: OP_ABORT frees it too.
    struct DeadSink;
    impl Pacing for DeadSink {
        fn source_valid(&mut self, _: u64) -> bool {
            true
        }
        fn sink_ready(&mut self, _: u64) -> bool {
            false
        }
    }
    start_then_abort(&mut bench, &base, &mut DeadSink, 200);
    good(&mut bench, &mut rng);

    // Abort in the middle of a permutation.
    start_then_abort(&mut bench, &base, &mut FullSpeed, 12);
    good(&mut bench, &mut rng);
}

/// Runs `request` for `clocks` clocks without waiting for done, then aborts.
fn start_then_abort<const R: usize>(
    bench: &mut Bench<SpongeEngine<R>>,
    request: &Request,
    pacing: &mut dyn Pacing,
    clocks: u64,
) {
    let uut = &mut bench.uut;
    uut.start.next = true;
    uut.op.next = (request.op as u64).into();
    uut.arg0.next = (request.args[0] as u64).into();
    uut.arg1.next = (request.args[1] as u64).into();
    uut.arg2.next = (request.args[2] as u64).into();
    bench.settle();
    bench.clock();
    bench.uut.start.next = false;
    let mut consumed = 0;
    for cycle in 0..clocks {
        let offer = consumed < request.words.len() && pacing.source_valid(cycle);
        bench.uut.in_valid.next = offer;
        bench.uut.in_data.next = (*request.words.get(consumed).unwrap_or(&0) as u64).into();
        bench.uut.in_last.next = request.last_at == Some(consumed);
        bench.uut.out_ready.next = pacing.sink_ready(cycle);
        bench.settle();
        if offer && bench.uut.in_ready.val() {
            consumed += 1;
        }
        bench.clock();
        assert!(!bench.uut.done.val(), "finished before the abort");
    }
    bench.uut.in_valid.next = false;
    bench.uut.out_ready.next = false;
    bench.uut.start.next = true;
    bench.uut.op.next = (regs::OP_ABORT as u64).into();
    bench.settle();
    bench.clock();
    bench.uut.start.next = false;
    bench.settle();
    assert!(
        bench.uut.done.val() && bench.uut.error.val(),
        "abort not reported"
    );
    // The abort also stops a permutation in progress: idle at once.
    assert_eq!(wait_idle(bench, ROUNDS as u64), 0);
}

fn abort_after(bench: &mut Bench<SpongeEngine<1>>, request: &Request, clocks: u64) {
    start_then_abort(bench, request, &mut FullSpeed, clocks);
}

#[test]
fn config_reports_rounds_per_clock() {
    let one = engine_bench::<1>();
    let two = engine_bench::<2>();
    assert_eq!(
        one.uut.core_config.val().to_u64() as u32 & regs::CONFIG_ROUNDS_PER_CLOCK_MASK,
        1
    );
    assert_eq!(
        two.uut.core_config.val().to_u64() as u32 & regs::CONFIG_ROUNDS_PER_CLOCK_MASK,
        2
    );
    for (code, mode) in [
        (regs::MODE_SHAKE128, SpongeMode::Shake128),
        (regs::MODE_SHAKE256, SpongeMode::Shake256),
        (regs::MODE_SHA3_256, SpongeMode::Sha3_256),
        (regs::MODE_SHA3_512, SpongeMode::Sha3_512),
    ] {
        assert_eq!(SpongeMode::ALL[code as usize], mode);
    }
}

/// The throughput goals, measured: one more SHAKE128 block of message costs
/// 42 word clocks plus one permutation (24 clocks at R = 1, 12 at R = 2).
fn block_cost<const R: usize>() -> u64 {
    let mut bench = engine_bench::<R>();
    let message = SplitMix64(5).bytes(3 * 168);
    let mut clocks = |len: usize| {
        let request = Request::sponge(SpongeMode::Shake128, &message[..len], 32, 0);
        let response = run_request(&mut bench, &request, &mut FullSpeed, 10_000);
        assert_eq!(
            unpack_words(&response.words, 32),
            reference(SpongeMode::Shake128, &message[..len], 32)
        );
        response.cycles
    };
    let (one, two, three) = (clocks(168), clocks(2 * 168), clocks(3 * 168));
    assert_eq!(two - one, three - two);
    two - one
}

#[test]
fn shake128_block_absorb_cost() {
    assert_eq!(block_cost::<1>(), 42 + 24);
    assert_eq!(block_cost::<2>(), 42 + 12);
}

/// An abort on any clock of a squeeze that crosses the tail twice (the
/// copy, the tail words, the wait for the permutation) returns the engine
/// to idle at once, and the next request's output is right: nothing of
/// the tail is left behind.
#[test]
fn squeeze_tail_abort_on_any_clock_recovers() {
    tail_abort_on_any_clock(tail_bench::<1>());
    tail_abort_on_any_clock(shared_bench::<2>());
}

fn tail_abort_on_any_clock<const R: usize>(mut bench: Bench<SpongeEngine<R>>) {
    let mut rng = SplitMix64(0x7A11);
    for mode in [SpongeMode::Shake128, SpongeMode::Shake256] {
        let message = rng.bytes(5);
        let out_len = 3 * mode.rate_bytes();
        let request = Request::sponge(mode, &message, out_len as u32, 0);
        let whole = tail_sponge_cycles(R, mode, message.len(), out_len);
        for clocks in 1..whole - 1 {
            start_then_abort(&mut bench, &request, &mut FullSpeed, clocks);
            let after_len = rng.below(200) as usize;
            let after = rng.bytes(after_len);
            check_sponge(&mut bench, mode, &after, out_len, 0x3C, true);
        }
    }
}
