//! The SLH-DSA-SHA2 hash engine of security category 1 (SLH-DSA-SHA2-128s
//! and -128f) on one [`Sha256Core`], behind the request and stream ports
//! of the Keccak sponge engine, so that the SLH-DSA jobs can run on it
//! unchanged (FIPS 205 §11.2.1). Every function of category 1 is SHA-256
//! after the PK.seed block:
//!
//! - F(PK.seed, ADRS, M1) and PRF(PK.seed, SK.seed, ADRS) =
//!   Trunc_n(SHA-256(PK.seed ‖ toByte(0, 64 − n) ‖ ADRSc ‖ M)), at every
//!   category (F and PRF are SHA-256 in categories 3 and 5 too);
//! - H and T_l: the same with M = M1 ‖ M2 or the l n-byte parts, over as
//!   many blocks as they take.
//!
//! # Requests
//!
//! `start` (taken when `busy` is low) samples `op` and `arg0..2` and
//! clears `done` and `error`. Streams carry 32-bit little-endian words
//! (byte k of a part in bits 8·(k mod 4) of its word k/4); ADRS is the full
//! 32-byte address, which the engine compresses to the 22-byte ADRSc in
//! wiring. The ops are those of `ps_pl_contract::regmap::keccak` and the
//! sponge's PL-internal [`OP_WOTS_CHAIN_KEPT`], read for SHA-2:
//!
//! - `OP_WOTS_CHAIN` (`ARG0` = n ∈ {16, 24, 32}, `ARG1` = start i,
//!   `ARG2` = steps s): PK.seed ‖ ADRS ‖ X in, chain(X, i, s) out (FIPS
//!   205 Algorithm 5), hash address j = i + step. The request also leaves
//!   PK.seed, ADRS and n as the kept prefix.
//! - `OP_WOTS_CHAIN_KEPT` (`ARG0` = n | chain ≪ [`KEPT_CHAIN_SHIFT`] |
//!   flags, `ARG1` = i, `ARG2` = s): X alone in, on the kept PK.seed and
//!   ADRS with the chain address replaced. With [`KEPT_PRF_FIRST`], X is
//!   SK.seed and the first block is PRF with type WOTS_PRF and hash
//!   address 0 (Algorithm 6 line 5), or with [`KEPT_FORS`] as well type
//!   FORS_PRF and hash address (tree index) i (Algorithm 14); the s steps
//!   run on its output. Refused unless a full chain of the same n set the
//!   prefix since the last error, abort or reset.
//! - `OP_SPONGE` in SHAKE256 mode (`ARG0` = `MODE_SHAKE256`, `ARG1` = the
//!   stream's bytes, `ARG2` = n = 16): the stream is PK.seed ‖ ADRS ‖ M as
//!   the SHAKE jobs send it for SHAKE256(PK.seed ‖ ADRS ‖ M, 8n), and the
//!   engine computes H or T_l of M instead (M a whole number of words, at
//!   least one). The request leaves its PK.seed kept (the jobs send one
//!   PK.seed to all) and keeps the kept ADRS.
//! - `OP_ABORT`: as `abort_job`.
//!
//! Refused at once, touching neither stream, with `done` and `error`:
//! an unknown op; a chain's n ∉ {16, 24, 32} or i + s ≥ 2^32; an
//! `OP_SPONGE` in another mode, with another n (categories 3 and 5 take
//! H and T_l with SHA-512, not built here), or whose length is not
//! n + 32 plus a positive multiple of 4 below 2^14; a kept chain without
//! its prefix.
//!
//! # Datapath and clock counts
//!
//! The engine keeps the state after the block PK.seed ‖ toByte(0, 64 − n)
//! in eight registers (`seed`), which every later block of the request,
//! and of the kept chains after it, starts from (the core's `init_value`):
//! a kept chain computes no seed block, and no block reloads a state. The
//! digest of a block goes from the core's `chain_value` into `tmp` in its
//! `done` clock, which starts the next block. Each F or PRF is one block,
//! ADRSc (hash address j in ADRSc bytes 18..22) ‖ M ‖ 0x80 ‖ 0… ‖ the bit
//! length (22 + n + 9 ≤ 64), built in wiring; the core's `word_in` comes
//! from the register `feed`, selected a clock ahead. An `OP_SPONGE`'s
//! blocks take ADRSc, then M from the input stream through a one-word
//! register (`hold`, refilled in the clock the core takes it, so the
//! stream runs at a word a clock and the core's adder does not hang on
//! the stream's source): ADRSc puts M on a 16-bit offset, so each message
//! word is the low half of one stream word and the high half of the next
//! (`prev_half`).
//!
//! With the streams at full speed (asserted by the tests):
//!
//! - a chain of s ≥ 1 steps takes 1 + (n/2 + 8) + 66 + 66·s + 1 + n/4
//!   clocks from the `start` clock to the clock after the final output
//!   word ([`chain_clocks`]), s = 0 takes 1 + (n/2 + 8) + n/4: one clock
//!   per input word, the PK.seed block, 66 per step (a compression; the
//!   next starts in its `done` clock), the last `done` clock, one clock
//!   per output word;
//! - a kept chain takes 1 + n/4 + 66·b + 1 + n/4 with b ≥ 1 blocks (s,
//!   plus one with the PRF; 1 + n/4 + n/4 for neither), and 66 more on the
//!   first one after a full chain of no step, which computes the PK.seed
//!   block then ([`kept_clocks`]);
//! - an `OP_SPONGE` of m message words takes
//!   1 + (n/4 + 8) + 66 + 1 + 67·blocks + n/4 with blocks = ⌈(m + 8)/16⌉
//!   ([`tweak_clocks`]): each block is a start clock and a compression,
//!   and the output follows the last one's `done` clock.
//!
//! Until stop 44 the state was loaded back into the core before each
//! block (8 clocks, while the digest shifted out): 74 clocks a step.
//!
//! # Errors
//!
//! `done` rises when the request ends (it stays until the next `start`),
//! with `error` set if it was refused, aborted or its stream malformed:
//!
//! - `in_last` before the final word: the engine stops at that word;
//! - no `in_last` on the final word: the engine drains the stream up to its
//!   `in_last`, then stops.
//!
//! Both, an abort and a reset forget the kept prefix. `abort_job` (taken
//! in any state, busy or not) returns to idle at once with `done` and
//! `error`, and resets the core on the next clock (a request that the
//! engine then takes streams at least 12 words before the core starts).
//! `reset` (synchronous, active high) returns to idle with `done`/`error`
//! low.
//!
//! Measured figures are in the [`super`] module documentation.

use super::core::Sha256Core;
use crate::keccak::sponge::{
    CHAIN_MAX_N, KEPT_CHAIN_SHIFT, KEPT_FORS, KEPT_PRF_FIRST, OP_WOTS_CHAIN_KEPT,
};
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// Clocks of one compression of the core.
const BLOCK_CLOCKS: u64 = super::core::clocks_per_block(32) as u64;
/// Clocks of one chain step at full speed: a compression (the next one
/// starts in its `done` clock, from `seed`).
pub const CLOCKS_PER_STEP: u64 = BLOCK_CLOCKS;
/// Words of ADRS, bytes of ADRSc.
const ADRS_WORDS: usize = 8;
const ADRSC_BYTES: usize = 22;
/// FIPS 205 address types WOTS_PRF and FORS_PRF (ADRS byte 19).
const TYPE_WOTS_PRF: u64 = 5;
const TYPE_FORS_PRF: u64 = 6;
/// The one n an `OP_SPONGE` takes (category 1).
pub const TWEAK_N: usize = 16;
/// Bytes of an `OP_SPONGE` stream are below this.
pub const TWEAK_MAX_BYTES: u32 = 1 << 14;

// The PRF's flags and chain field sit where `update` reads them.
const _: () = assert!(KEPT_PRF_FIRST == 1 << 16 && KEPT_FORS == 1 << 17 && KEPT_CHAIN_SHIFT == 8);
const _: () = assert!(TYPE_WOTS_PRF == 5 && TYPE_FORS_PRF == 6);
const _: () = assert!(regs::MODE_SHAKE256 == 1 && TWEAK_N == 16 && TWEAK_MAX_BYTES == 1 << 14);
// PK.seed ‖ toByte(0, 64 − n) is one block; an F block fits ADRSc ‖ M
// ‖ 0x80 ‖ 64-bit length.
const _: () = assert!(ADRSC_BYTES + CHAIN_MAX_N + 9 <= 64);

/// Clocks of an `OP_WOTS_CHAIN` at full stream speed, from the `start`
/// clock to the clock after the final output word (module docs).
pub const fn chain_clocks(n: usize, steps: u32) -> u64 {
    let io = (1 + n / 2 + ADRS_WORDS + n / 4) as u64;
    if steps == 0 {
        io
    } else {
        io + BLOCK_CLOCKS + CLOCKS_PER_STEP * steps as u64 + 1
    }
}

/// Clocks of an `OP_WOTS_CHAIN_KEPT` of `blocks` compressions (steps,
/// plus one with the PRF); `seeds` when the PK.seed block is still to be
/// made (the first kept chain after a full chain of no step).
pub const fn kept_clocks(n: usize, blocks: u32, seeds: bool) -> u64 {
    let io = (1 + n / 4 + n / 4) as u64;
    if blocks == 0 {
        return io;
    }
    let seed = if seeds { BLOCK_CLOCKS } else { 0 };
    io + seed + CLOCKS_PER_STEP * blocks as u64 + 1
}

/// Compressions of an `OP_SPONGE` of `m_words` message words: ADRSc (5.5
/// words), M, the 0x80 half word and the 2-word length.
pub const fn tweak_blocks(m_words: usize) -> usize {
    (m_words + 8).div_ceil(16)
}

/// Clocks of an `OP_SPONGE` of `m_words` message words (module docs).
pub const fn tweak_clocks(m_words: usize) -> u64 {
    let io = (1 + TWEAK_N / 4 + ADRS_WORDS + TWEAK_N / 4) as u64;
    io + BLOCK_CLOCKS + 1 + (BLOCK_CLOCKS + 1) * tweak_blocks(m_words) as u64
}

/// Phases of the engine.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum Phase {
    /// Waiting for `start`.
    Idle,
    /// Taking PK.seed ‖ ADRS ‖ X (or X alone, or PK.seed ‖ ADRS).
    Input,
    /// Discarding input up to `in_last` after a too-long stream.
    Drain,
    /// Feeding a block to the core (the PK.seed block, a PRF or a step).
    Compress,
    /// Feeding an `OP_SPONGE`'s blocks, M from the input stream.
    Absorb,
    /// Giving the output words.
    Output,
}

/// The SHA-256 hash engine of the SLH-DSA-SHA2 jobs; see the module
/// documentation.
#[derive(LogicBlock)]
pub struct Sha256TweakEngine {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, `done`/`error` low.
    pub reset: Signal<In, Bit>,
    /// Start a request (taken when not busy; `OP_ABORT` always).
    pub start: Signal<In, Bit>,
    /// Abort: return to idle from any state, with `done` and `error` (not
    /// called `abort`, a C++ name Verilator refuses as a port).
    pub abort_job: Signal<In, Bit>,
    /// The request's op code.
    pub op: Signal<In, Bits<8>>,
    /// First argument (module docs).
    pub arg0: Signal<In, Bits<32>>,
    /// Second argument.
    pub arg1: Signal<In, Bits<32>>,
    /// Third argument.
    pub arg2: Signal<In, Bits<32>>,
    /// A request is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last request ended (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last request was refused, malformed or aborted (cleared by the
    /// next start).
    pub error: Signal<Out, Bit>,
    /// Input stream data (AXI4-Stream TDATA).
    pub in_data: Signal<In, Bits<32>>,
    /// Input stream TVALID.
    pub in_valid: Signal<In, Bit>,
    /// Input stream TLAST.
    pub in_last: Signal<In, Bit>,
    /// Input stream TREADY.
    pub in_ready: Signal<Out, Bit>,
    /// Output stream TDATA.
    pub out_data: Signal<Out, Bits<32>>,
    /// Output stream TVALID.
    pub out_valid: Signal<Out, Bit>,
    /// Output stream TLAST.
    pub out_last: Signal<Out, Bit>,
    /// Output stream TREADY.
    pub out_ready: Signal<In, Bit>,
    core: Sha256Core,
    phase: DFF<Phase>,
    /// n/4: 4, 6 or 8.
    nw: DFF<Bits<4>>,
    /// The request is an `OP_SPONGE` (H or T_l).
    tweak: DFF<Bit>,
    /// The hash address j of the current block (an `OP_SPONGE`'s: ADRS
    /// word 7).
    hash_address: DFF<Bits<32>>,
    /// The chain's start i, the hash address of its first step.
    first: DFF<Bits<32>>,
    /// Steps not yet started (counted down when a step's compression ends).
    steps_left: DFF<Bits<32>>,
    /// The block in flight is a PRF (type WOTS_PRF, or FORS_PRF with
    /// `prf_fors`).
    prf_block: DFF<Bit>,
    prf_fors: DFF<Bit>,
    /// A full chain has left PK.seed (in `seed`), ADRS and `kept_nw`.
    prefix_valid: DFF<Bit>,
    kept_nw: DFF<Bits<4>>,
    /// `seed` holds the PK.seed state (else PK.seed).
    state_kept: DFF<Bit>,
    /// Input part (0 PK.seed, 1 ADRS, 2 X) and word within it.
    segment: DFF<Bits<2>>,
    segment_word: DFF<Bits<4>>,
    /// Message word being fed (`Compress`, `Absorb`), output word.
    count: DFF<Bits<5>>,
    /// The compression running is the PK.seed block.
    seeding: DFF<Bit>,
    /// PK.seed (big-endian words) while taking input, then the state after
    /// the PK.seed block, which every F and PRF block starts from (the
    /// core's `init_value`).
    seed: [DFF<Bits<32>>; 8],
    /// The kept ADRS as big-endian words (words 1 and 7 are not used;
    /// yosys drops whatever the compression does not keep).
    adrs: [DFF<Bits<32>>; 8],
    /// X, then the output of the last block (big-endian words); an
    /// `OP_SPONGE`'s ADRS until its digest.
    tmp: [DFF<Bits<32>>; 8],
    /// The core's `word_in` outside `Absorb`.
    feed: DFF<Bits<32>>,
    /// `OP_SPONGE` feed: message words still on the stream, the low half
    /// of the last stream word, the 0x80 word given, the length goes in
    /// this block, the length was given, the first block, start the core.
    words_left: DFF<Bits<12>>,
    /// `words_left` is not zero, registered (it selects the core's word).
    have_words: DFF<Bit>,
    /// ADRSc's first five words, shifted out into the first block (so
    /// the core's word does not hang on the ADRS select).
    adrsc: [DFF<Bits<32>>; 5],
    /// The next message word from the stream (big-endian), registered so
    /// that the core's input does not hang on the stream's source; words
    /// still to take from the stream.
    hold: DFF<Bits<32>>,
    hold_valid: DFF<Bit>,
    fetch_left: DFF<Bits<12>>,
    prev_half: DFF<Bits<16>>,
    pad_done: DFF<Bit>,
    length_here: DFF<Bit>,
    final_block: DFF<Bit>,
    /// The first block's ADRSc words are going in; the next word is the
    /// length (registered, so the core's word does not hang on `count`).
    adrsc_phase: DFF<Bit>,
    at_length: DFF<Bit>,
    go: DFF<Bit>,
    tweak_length_bits: DFF<Bits<32>>,
    /// The output word now is the last, registered (it ends the jobs'
    /// requests).
    last_word: DFF<Bit>,
    /// The core's reset, registered.
    core_reset: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    is16: Signal<Local, Bit>,
    is32: Signal<Local, Bit>,
    n_good: Signal<Local, Bit>,
    in_word: Signal<Local, Bits<32>>,
    segment_words: Signal<Local, Bits<4>>,
    last_in_word: Signal<Local, Bit>,
    chain_end: Signal<Local, Bits<33>>,
    /// The ADRS the block takes: the kept one, or an `OP_SPONGE`'s.
    a: [Signal<Local, Bits<32>>; 8],
    type_byte: Signal<Local, Bits<32>>,
    /// tmp ‖ 0x80 ‖ 0… as nine words.
    text: [Signal<Local, Bits<32>>; 9],
    /// The F or PRF block (its words 0..4 also begin an `OP_SPONGE`).
    msg: [Signal<Local, Bits<32>>; 16],
    /// The block being fed: the PK.seed block or `msg`.
    block: [Signal<Local, Bits<32>>; 16],
    /// The word after the one being fed.
    block_next: Signal<Local, Bits<32>>,
    length_bits: Signal<Local, Bits<32>>,
    /// `OP_SPONGE`: the word at `count`, whether it is there, whether it
    /// takes a stream word.
    t_word: Signal<Local, Bits<32>>,
    t_valid: Signal<Local, Bit>,
    t_takes_stream: Signal<Local, Bit>,
    /// `OP_SPONGE`: the held word goes into the core this clock.
    hold_taken: Signal<Local, Bit>,
    t_taken: Signal<Local, Bit>,
    /// An `OP_SPONGE`'s message bytes (`ARG1` less PK.seed and ADRS).
    message_bytes: Signal<Local, Bits<32>>,
    /// Abort: the port or an `OP_ABORT` request.
    abort_now: Signal<Local, Bit>,
    /// The last word of the Input phase (an `OP_SPONGE`'s M follows it).
    input_done: Signal<Local, Bit>,
    /// `OP_SPONGE`: the word at `count` is the 0x80 word / the length.
    t_pad: Signal<Local, Bit>,
    t_len: Signal<Local, Bit>,
    pad_word: Constant<Bits<32>>,
    length16: Constant<Bits<32>>,
    length24: Constant<Bits<32>>,
    length32: Constant<Bits<32>>,
    op_sponge: Constant<Bits<8>>,
    op_chain: Constant<Bits<8>>,
    op_kept: Constant<Bits<8>>,
    op_abort: Constant<Bits<8>>,
}

impl Default for Sha256TweakEngine {
    fn default() -> Self {
        // Bit length of PK.seed block ‖ ADRSc ‖ tmp.
        let length = |n: u64| Constant::new(((64 + 22 + n) * 8).into());
        let op = |code: u32| Constant::new(u64::from(code).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            abort_job: Default::default(),
            op: Default::default(),
            arg0: Default::default(),
            arg1: Default::default(),
            arg2: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            in_data: Default::default(),
            in_valid: Default::default(),
            in_last: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            out_ready: Default::default(),
            core: Default::default(),
            phase: Default::default(),
            nw: Default::default(),
            tweak: Default::default(),
            hash_address: Default::default(),
            first: Default::default(),
            steps_left: Default::default(),
            prf_block: Default::default(),
            prf_fors: Default::default(),
            prefix_valid: Default::default(),
            kept_nw: Default::default(),
            state_kept: Default::default(),
            segment: Default::default(),
            segment_word: Default::default(),
            count: Default::default(),
            seeding: Default::default(),
            seed: Default::default(),
            adrs: Default::default(),
            tmp: Default::default(),
            feed: Default::default(),
            words_left: Default::default(),
            have_words: Default::default(),
            adrsc: Default::default(),
            hold: Default::default(),
            hold_valid: Default::default(),
            fetch_left: Default::default(),
            prev_half: Default::default(),
            pad_done: Default::default(),
            length_here: Default::default(),
            final_block: Default::default(),
            adrsc_phase: Default::default(),
            at_length: Default::default(),
            go: Default::default(),
            tweak_length_bits: Default::default(),
            last_word: Default::default(),
            core_reset: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            is16: Default::default(),
            is32: Default::default(),
            n_good: Default::default(),
            in_word: Default::default(),
            segment_words: Default::default(),
            last_in_word: Default::default(),
            chain_end: Default::default(),
            a: Default::default(),
            type_byte: Default::default(),
            text: Default::default(),
            msg: Default::default(),
            block: Default::default(),
            block_next: Default::default(),
            length_bits: Default::default(),
            t_word: Default::default(),
            t_valid: Default::default(),
            t_takes_stream: Default::default(),
            hold_taken: Default::default(),
            t_taken: Default::default(),
            message_bytes: Default::default(),
            abort_now: Default::default(),
            input_done: Default::default(),
            t_pad: Default::default(),
            t_len: Default::default(),
            pad_word: Constant::new((0x80u64 << 24).into()),
            length16: length(16),
            length24: length(24),
            length32: length(32),
            op_sponge: op(regs::OP_SPONGE),
            op_chain: op(regs::OP_WOTS_CHAIN),
            op_kept: op(OP_WOTS_CHAIN_KEPT),
            op_abort: op(regs::OP_ABORT),
        }
    }
}

impl Logic for Sha256TweakEngine {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, core);
        dff_setup!(
            self,
            clock,
            phase,
            nw,
            tweak,
            hash_address,
            first,
            steps_left,
            prf_block,
            prf_fors,
            prefix_valid,
            kept_nw,
            state_kept,
            segment,
            segment_word,
            count,
            seeding,
            feed,
            words_left,
            have_words,
            hold,
            hold_valid,
            fetch_left,
            prev_half,
            pad_done,
            length_here,
            final_block,
            adrsc_phase,
            at_length,
            go,
            tweak_length_bits,
            last_word,
            core_reset,
            done_flag,
            error_flag
        );
        for i in 0..5 {
            self.adrsc[i].clock.next = self.clock.val();
            self.adrsc[i].d.next = self.adrsc[i].q.val();
        }
        for i in 0..8 {
            self.seed[i].clock.next = self.clock.val();
            self.seed[i].d.next = self.seed[i].q.val();
            self.adrs[i].clock.next = self.clock.val();
            self.adrs[i].d.next = self.adrs[i].q.val();
            self.tmp[i].clock.next = self.clock.val();
            self.tmp[i].d.next = self.tmp[i].q.val();
        }

        self.is16.next = self.nw.q.val() == 4;
        self.is32.next = self.nw.q.val() == 8;
        self.n_good.next = (self.arg0.val().get_bits::<8>(0) == 16)
            | (self.arg0.val().get_bits::<8>(0) == 24)
            | (self.arg0.val().get_bits::<8>(0) == 32);
        // Stream words are little-endian, SHA-256 words big-endian.
        self.in_word.next = (bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(24));
        self.out_data.next = (bit_cast::<32, 8>(self.tmp[0].q.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.tmp[0].q.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.tmp[0].q.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.tmp[0].q.val().get_bits::<8>(24));
        self.segment_words.next = self.nw.q.val();
        if self.segment.q.val() == 1 {
            self.segment_words.next = 8.into();
        }
        self.last_in_word.next = (self.segment.q.val() == 2)
            & (self.segment_word.q.val() + 1 == self.segment_words.val());
        // An OP_SPONGE's input phase ends with ADRS; M follows in Absorb.
        self.input_done.next = self.last_in_word.val()
            | (self.tweak.q.val() & (self.segment.q.val() == 1) & (self.segment_word.q.val() == 7));
        self.chain_end.next =
            bit_cast::<33, 32>(self.arg1.val()) + bit_cast::<33, 32>(self.arg2.val());
        self.message_bytes.next = self.arg1.val() - 48;
        self.abort_now.next =
            self.abort_job.val() | (self.start.val() & (self.op.val() == self.op_abort.val()));

        // The block's ADRS: an OP_SPONGE's own (in tmp) or the kept one;
        // a PRF block's type is WOTS_PRF or FORS_PRF.
        for k in 0..8 {
            self.a[k].next = self.adrs[k].q.val();
            if self.tweak.q.val() {
                self.a[k].next = self.tmp[k].q.val();
            }
        }
        self.type_byte.next = bit_cast::<32, 8>(self.a[4].val().get_bits::<8>(0));
        if self.prf_block.q.val() {
            self.type_byte.next = 5.into();
            if self.prf_fors.q.val() {
                self.type_byte.next = 6.into();
            }
        }

        // tmp ‖ 0x80 ‖ 0…: words past n/4 are padding whatever tmp holds.
        for m in 0..4 {
            self.text[m].next = self.tmp[m].q.val();
        }
        self.text[4].next = self.tmp[4].q.val();
        self.text[5].next = self.tmp[5].q.val();
        self.text[6].next = 0.into();
        self.text[7].next = 0.into();
        self.text[8].next = 0.into();
        self.length_bits.next = self.length24.val();
        if self.is16.val() {
            self.text[4].next = self.pad_word.val();
            self.text[5].next = 0.into();
            self.length_bits.next = self.length16.val();
        } else if self.is32.val() {
            self.text[6].next = self.tmp[6].q.val();
            self.text[7].next = self.tmp[7].q.val();
            self.text[8].next = self.pad_word.val();
            self.length_bits.next = self.length32.val();
        } else {
            self.text[6].next = self.pad_word.val();
        }
        // ADRSc = ADRS bytes 3, 8..16, 19, 20..32 with j in bytes 28..32.
        self.msg[0].next = (self.a[0].val() << 24) | (self.a[2].val() >> 8);
        self.msg[1].next = (self.a[2].val() << 24) | (self.a[3].val() >> 8);
        self.msg[2].next =
            (self.a[3].val() << 24) | (self.type_byte.val() << 16) | (self.a[5].val() >> 16);
        self.msg[3].next = (self.a[5].val() << 16) | (self.a[6].val() >> 16);
        self.msg[4].next = (self.a[6].val() << 16) | (self.hash_address.q.val() >> 16);
        self.msg[5].next = (self.hash_address.q.val() << 16) | (self.text[0].val() >> 16);
        for m in 1..9 {
            self.msg[m + 5].next = (self.text[m - 1].val() << 16) | (self.text[m].val() >> 16);
        }
        self.msg[14].next = 0.into();
        self.msg[15].next = self.length_bits.val();
        // The PK.seed block: PK.seed ‖ toByte(0, 64 − n), no padding (it is
        // the first block of a longer message).
        for k in 0..16 {
            self.block[k].next = self.msg[k].val();
            if self.seeding.q.val() {
                self.block[k].next = 0.into();
            }
        }
        if self.seeding.q.val() {
            for k in 0..4 {
                self.block[k].next = self.seed[k].q.val();
            }
            if !self.is16.val() {
                self.block[4].next = self.seed[4].q.val();
                self.block[5].next = self.seed[5].q.val();
            }
            if self.is32.val() {
                self.block[6].next = self.seed[6].q.val();
                self.block[7].next = self.seed[7].q.val();
            }
        }
        // After W15 the next word is W0 of the next F or PRF block.
        self.block_next.next = self.msg[0].val();
        for k in 0..15 {
            if self.count.q.val().index() == k {
                self.block_next.next = self.block[k + 1].val();
            }
        }

        // An OP_SPONGE's word `count`: ADRSc words 0..4 in its first
        // block, then the halves of two stream words (the first one's low
        // half is ADRSc bytes 20..22), the 0x80 word, zeros and the length.
        self.t_word.next = 0.into();
        self.t_valid.next = true;
        self.t_takes_stream.next = false;
        self.t_pad.next = false;
        self.t_len.next = false;
        if self.adrsc_phase.q.val() {
            self.t_word.next = self.adrsc[0].q.val();
        } else if self.have_words.q.val() {
            self.t_word.next =
                (bit_cast::<32, 16>(self.prev_half.q.val()) << 16) | (self.hold.q.val() >> 16);
            self.t_valid.next = self.hold_valid.q.val();
            self.t_takes_stream.next = true;
        } else if !self.pad_done.q.val() {
            self.t_word.next = (bit_cast::<32, 16>(self.prev_half.q.val()) << 16) | 0x8000_u64;
            self.t_pad.next = true;
        } else if self.at_length.q.val() {
            self.t_word.next = self.tweak_length_bits.q.val();
            self.t_len.next = true;
        }
        self.t_taken.next = (self.phase.q.val() == Phase::Absorb)
            & (self.count.q.val() < 16)
            & self.core.word_ready.val()
            & self.t_valid.val();
        self.hold_taken.next = self.t_taken.val() & self.t_takes_stream.val();

        // Core defaults: idle, words always valid (`feed` is on time).
        self.core.reset.next = self.core_reset.q.val();
        self.core.start.next = false;
        // Where a block starts, from registers only (they reach the core's
        // h + K + W adder): the PK.seed block from the IV (`count` is 0 in
        // its start clock, 16 in the done clock that starts the block
        // after it, from the held state); an F or PRF from `seed`; an
        // `OP_SPONGE`'s blocks from the held state (the PK.seed block's,
        // then each block's).
        self.core.init_from_iv.next = self.seeding.q.val() & (self.count.q.val() == 0);
        self.core.init_from_port.next = !self.seeding.q.val() & !self.tweak.q.val();
        for i in 0..8 {
            self.core.init_value[i].next = self.seed[i].q.val();
        }
        self.core.load_state.next = false;
        self.core.word_in.next = self.feed.q.val();
        self.core.word_valid.next = true;
        self.core.out_index.next = 0.into();
        self.core_reset.d.next = false;

        self.in_ready.next = false;
        self.out_valid.next = false;
        self.out_last.next = self.last_word.q.val();
        // n/4 ≥ 4 words: the first is never the last.
        self.last_word.d.next = false;
        self.busy.next = self.phase.q.val() != Phase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();

        match self.phase.q.val() {
            Phase::Idle => {
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.nw.d.next = self.arg0.val().get_bits::<4>(2);
                    self.hash_address.d.next = self.arg1.val();
                    self.first.d.next = self.arg1.val();
                    self.steps_left.d.next = self.arg2.val();
                    self.segment.d.next = 0.into();
                    self.segment_word.d.next = 0.into();
                    self.tweak.d.next = false;
                    self.prf_block.d.next = false;
                    self.prf_fors.d.next = false;
                    // Refused unless a case below takes it.
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = true;
                    if self.op.val() == self.op_chain.val() {
                        if self.n_good.val()
                            & (self.arg0.val().get_bits::<24>(8) == 0)
                            & !self.chain_end.val().get_bit(32)
                        {
                            self.done_flag.d.next = false;
                            self.error_flag.d.next = false;
                            self.prefix_valid.d.next = false;
                            self.state_kept.d.next = false;
                            self.phase.d.next = Phase::Input;
                        }
                    } else if self.op.val() == self.op_kept.val() {
                        self.segment.d.next = 2.into();
                        self.prf_block.d.next = self.arg0.val().get_bit(16);
                        self.prf_fors.d.next = self.arg0.val().get_bit(17);
                        if self.arg0.val().get_bit(16) & !self.arg0.val().get_bit(17) {
                            self.hash_address.d.next = 0.into();
                        }
                        if self.n_good.val()
                            & !self.chain_end.val().get_bit(32)
                            & self.prefix_valid.q.val()
                            & (self.arg0.val().get_bits::<4>(2) == self.kept_nw.q.val())
                        {
                            self.done_flag.d.next = false;
                            self.error_flag.d.next = false;
                            self.adrs[6].d.next =
                                bit_cast::<32, 8>(self.arg0.val().get_bits::<8>(8));
                            self.phase.d.next = Phase::Input;
                        }
                    } else if self.op.val() == self.op_sponge.val() {
                        self.nw.d.next = 4.into();
                        self.tweak.d.next = true;
                        self.words_left.d.next = self.message_bytes.val().get_bits::<12>(2);
                        self.fetch_left.d.next = self.message_bytes.val().get_bits::<12>(2);
                        self.have_words.d.next = true;
                        self.hold_valid.d.next = false;
                        self.tweak_length_bits.d.next = (self.arg1.val() + 38) << 3;
                        if (self.arg0.val() == 1)
                            & (self.arg2.val() == 16)
                            & (self.arg1.val().get_bits::<2>(0) == 0)
                            & (self.arg1.val() >= 52)
                            & (self.arg1.val() < 16384)
                        {
                            self.done_flag.d.next = false;
                            self.error_flag.d.next = false;
                            self.state_kept.d.next = false;
                            self.phase.d.next = Phase::Input;
                        }
                    }
                }
            }
            Phase::Input => {
                self.in_ready.next = true;
                if self.in_valid.val() {
                    if self.in_last.val() & !self.last_in_word.val() {
                        // Shorter than declared: stop at its end.
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                        self.prefix_valid.d.next = false;
                        self.state_kept.d.next = false;
                        self.phase.d.next = Phase::Idle;
                    } else if !self.in_last.val() & self.last_in_word.val() {
                        // Longer than declared: drain to its end.
                        self.error_flag.d.next = true;
                        self.prefix_valid.d.next = false;
                        self.state_kept.d.next = false;
                        self.phase.d.next = Phase::Drain;
                    } else {
                        for k in 0..8 {
                            if self.segment_word.q.val().index() == k {
                                if self.segment.q.val() == 0 {
                                    self.seed[k].d.next = self.in_word.val();
                                }
                                if self.segment.q.val() == 1 {
                                    if self.tweak.q.val() {
                                        self.tmp[k].d.next = self.in_word.val();
                                    } else {
                                        self.adrs[k].d.next = self.in_word.val();
                                    }
                                }
                                if self.segment.q.val() == 2 {
                                    self.tmp[k].d.next = self.in_word.val();
                                }
                            }
                        }
                        self.segment_word.d.next = self.segment_word.q.val() + 1;
                        if self.segment_word.q.val() + 1 == self.segment_words.val() {
                            self.segment_word.d.next = 0.into();
                            self.segment.d.next = self.segment.q.val() + 1;
                        }
                        if self.input_done.val() {
                            self.count.d.next = 0.into();
                            if self.tweak.q.val() {
                                // ADRS word 7 is the hash field; its low
                                // half begins M's first message word.
                                self.hash_address.d.next = self.in_word.val();
                                self.prev_half.d.next = self.in_word.val().get_bits::<16>(0);
                                self.seeding.d.next = true;
                                self.feed.d.next = self.seed[0].q.val();
                                self.phase.d.next = Phase::Compress;
                            } else {
                                self.prefix_valid.d.next = true;
                                self.kept_nw.d.next = self.nw.q.val();
                                if (self.steps_left.q.val() == 0) & !self.prf_block.q.val() {
                                    self.phase.d.next = Phase::Output;
                                } else if self.state_kept.q.val() {
                                    self.feed.d.next = self.msg[0].val();
                                    self.phase.d.next = Phase::Compress;
                                } else {
                                    // The PK.seed block first; its W_0 is seed[0].
                                    self.seeding.d.next = true;
                                    self.feed.d.next = self.seed[0].q.val();
                                    self.phase.d.next = Phase::Compress;
                                }
                            }
                        }
                    }
                }
            }
            Phase::Drain => {
                self.in_ready.next = true;
                if self.in_valid.val() & self.in_last.val() {
                    self.done_flag.d.next = true;
                    self.phase.d.next = Phase::Idle;
                }
            }
            Phase::Compress => {
                // The core takes W_count each clock from its start clock.
                if self.count.q.val() == 0 {
                    self.core.start.next = true;
                }
                if self.count.q.val() < 16 {
                    self.count.d.next = self.count.q.val() + 1;
                    self.feed.d.next = self.block_next.val();
                }
                if self.core.done.val() {
                    if self.seeding.q.val() {
                        // The PK.seed state, kept for every later block.
                        for i in 0..8 {
                            self.seed[i].d.next = self.core.chain_value[i].val();
                        }
                        self.seeding.d.next = false;
                        self.state_kept.d.next = true;
                        if self.tweak.q.val() {
                            for k in 0..5 {
                                self.adrsc[k].d.next = self.msg[k].val();
                            }
                            self.count.d.next = 0.into();
                            self.go.d.next = true;
                            self.adrsc_phase.d.next = true;
                            self.at_length.d.next = false;
                            self.pad_done.d.next = false;
                            self.length_here.d.next = false;
                            self.final_block.d.next = false;
                            self.phase.d.next = Phase::Absorb;
                        } else {
                            // The first block starts now, from the state
                            // the core holds (`feed` holds its W0).
                            self.core.start.next = true;
                            self.count.d.next = 1.into();
                            self.feed.d.next = self.msg[1].val();
                        }
                    } else {
                        // The digest, and the next block starts now from
                        // `seed` unless that was the last.
                        for i in 0..8 {
                            self.tmp[i].d.next = self.core.chain_value[i].val();
                        }
                        self.core.start.next = true;
                        self.count.d.next = 1.into();
                        self.feed.d.next = self.msg[1].val();
                        if self.prf_block.q.val() {
                            // The chain starts from the PRF's output.
                            self.prf_block.d.next = false;
                            self.hash_address.d.next = self.first.q.val();
                            if self.steps_left.q.val() == 0 {
                                self.core.start.next = false;
                                self.count.d.next = 0.into();
                                self.phase.d.next = Phase::Output;
                            }
                        } else {
                            self.hash_address.d.next = self.hash_address.q.val() + 1;
                            self.steps_left.d.next = self.steps_left.q.val() - 1;
                            if self.steps_left.q.val() == 1 {
                                self.core.start.next = false;
                                self.count.d.next = 0.into();
                                self.phase.d.next = Phase::Output;
                            }
                        }
                    }
                }
            }
            Phase::Absorb => {
                self.core.start.next = self.go.q.val();
                self.go.d.next = false;
                self.core.word_in.next = self.t_word.val();
                self.core.word_valid.next = self.t_valid.val() & (self.count.q.val() < 16);
                // The stream refills the held word as the core takes it.
                self.in_ready.next = (self.fetch_left.q.val() != 0)
                    & (!self.hold_valid.q.val() | self.hold_taken.val());
                if self.hold_taken.val() {
                    self.prev_half.d.next = self.hold.q.val().get_bits::<16>(0);
                    self.words_left.d.next = self.words_left.q.val() - 1;
                    self.have_words.d.next = self.words_left.q.val() != 1;
                    self.hold_valid.d.next = false;
                }
                if self.in_ready.val() & self.in_valid.val() {
                    self.hold.d.next = self.in_word.val();
                    self.hold_valid.d.next = true;
                    self.fetch_left.d.next = self.fetch_left.q.val() - 1;
                    if self.in_last.val() & (self.fetch_left.q.val() != 1) {
                        // Shorter than declared: stop at its end.
                        self.core_reset.d.next = true;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                        self.prefix_valid.d.next = false;
                        self.state_kept.d.next = false;
                        self.phase.d.next = Phase::Idle;
                    }
                    if !self.in_last.val() & (self.fetch_left.q.val() == 1) {
                        // Longer than declared: drain to its end.
                        self.core_reset.d.next = true;
                        self.error_flag.d.next = true;
                        self.prefix_valid.d.next = false;
                        self.state_kept.d.next = false;
                        self.phase.d.next = Phase::Drain;
                    }
                }
                if self.t_taken.val() {
                    self.count.d.next = self.count.q.val() + 1;
                    for k in 0..4 {
                        self.adrsc[k].d.next = self.adrsc[k + 1].q.val();
                    }
                    if self.count.q.val() == 4 {
                        self.adrsc_phase.d.next = false;
                    }
                    // Word 15 is the length if the 0x80 word is in this
                    // block at 13 or before, or was in the one before.
                    if self.count.q.val() == 14 {
                        self.at_length.d.next = self.length_here.q.val();
                    }
                    if self.t_pad.val() {
                        self.pad_done.d.next = true;
                        if self.count.q.val() < 14 {
                            self.length_here.d.next = true;
                        }
                    }
                    if self.t_len.val() {
                        self.final_block.d.next = true;
                        self.at_length.d.next = false;
                    }
                }
                if self.core.done.val() {
                    if self.final_block.q.val() {
                        for i in 0..8 {
                            self.tmp[i].d.next = self.core.chain_value[i].val();
                        }
                        self.count.d.next = 0.into();
                        self.phase.d.next = Phase::Output;
                    } else {
                        self.count.d.next = 0.into();
                        self.go.d.next = true;
                        if self.pad_done.q.val() {
                            self.length_here.d.next = true;
                        }
                    }
                }
            }
            Phase::Output => {
                self.out_valid.next = true;
                self.last_word.d.next = self.last_word.q.val();
                if self.out_ready.val() {
                    self.last_word.d.next =
                        bit_cast::<5, 4>(self.nw.q.val()) == self.count.q.val() + 2;
                    for i in 0..7 {
                        self.tmp[i].d.next = self.tmp[i + 1].q.val();
                    }
                    self.count.d.next = self.count.q.val() + 1;
                    if self.out_last.val() {
                        self.done_flag.d.next = true;
                        self.phase.d.next = Phase::Idle;
                    }
                }
            }
        }
        // Abort wins over everything but reset, busy or not.
        if self.abort_now.val() {
            self.core_reset.d.next = true;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.prefix_valid.d.next = false;
            self.state_kept.d.next = false;
            self.phase.d.next = Phase::Idle;
        }
        if self.reset.val() {
            self.core_reset.d.next = true;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
            self.prefix_valid.d.next = false;
            self.state_kept.d.next = false;
            self.phase.d.next = Phase::Idle;
        }
    }
}
