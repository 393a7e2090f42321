//! The WOTS+ chain job of the SLH-DSA-SHA2 sets (FIPS 205 Algorithm 5 with
//! F of §11.2.1/§11.2.2) on one [`Sha256Core`]: F(PK.seed, ADRS, M1) =
//! Trunc_n(SHA-256(PK.seed ‖ toByte(0, 64 − n) ‖ ADRSc ‖ M1)) at every
//! security level, so n ∈ {16, 24, 32} all run on SHA-256.
//!
//! # Request and streams
//!
//! The same request as the Keccak engine's `OP_WOTS_CHAIN`
//! (`ps_pl_contract::regmap::keccak`), so a driver sends the same stream:
//!
//! - `start` (taken when `busy` is low) samples `n_bytes` = n, `first` = the
//!   start index i and `steps` = s, and clears `done` and `error`.
//! - Input stream (`in_data`/`in_valid`/`in_ready`/`in_last`): PK.seed ‖
//!   ADRS ‖ X as n/4 + 8 + n/4 little-endian words (byte k of a part in bits
//!   8·(k mod 4) of its word k/4), `in_last` on the final word. ADRS is the
//!   full 32-byte address; the engine compresses it to the 22-byte ADRSc in
//!   wiring and ignores its hash address (bytes 28..32), which it sets to
//!   j = i + step for each step.
//! - Output stream (`out_data`/`out_valid`/`out_ready`/`out_last`): the
//!   chain value, n/4 words in the same byte order, `out_last` on the final.
//!
//! The engine takes PK.seed itself and computes the state after the block
//! PK.seed ‖ toByte(0, 64 − n) with one compression from the IV, then keeps
//! that state in eight registers (`seed`): the driver needs no SHA-256.
//!
//! # Clock counts
//!
//! With the streams at full speed, a request with s ≥ 1 takes
//! 1 + (n/2 + 8) + 66 + 8 + 74·s + n/4 clocks from the `start` clock to the
//! clock after the final output word (`done` high), and one with s = 0 takes
//! 1 + (n/2 + 8) + n/4 (no compression at all); asserted by the tests:
//!
//! - 1: the `start` clock; n/2 + 8: one clock per input word;
//! - 66 + 8: the PK.seed block (one compression from the IV) and reading its
//!   state H0..H7 into `seed` (8 clocks, the first one the `done` clock of
//!   the compression); the core keeps the state, so the first step needs no
//!   reload;
//! - 74 per step: one compression (66 clocks, [`super::core`]) from the
//!   PK.seed state and 8 clocks that load that state back into the core
//!   (`load_state`, the first one the compression's `done` clock) while the
//!   digest words shift out of it into `tmp`: the load shifts H0 out of
//!   `out_word` each clock, so the reload and the read of the next tmp are
//!   the same 8 clocks;
//! - n/4: one clock per output word.
//!
//! Each step's message block is ADRSc (hash address j in ADRSc bytes
//! 18..22, big-endian: j\[31:16\] is the low half of message word 4 and
//! j\[15:0\] the high half of word 5) ‖ tmp ‖ 0x80 ‖ 0… ‖ (64 + 22 + n)·8
//! as a 64-bit length, one 64-byte block (22 + 32 + 9 ≤ 64). The 22-byte
//! ADRSc puts tmp on a 16-bit offset, so message words 5..13 are halves of
//! two tmp words. The core's input `word_in` comes straight from the
//! register `feed`, which holds the next message word (or state word while
//! loading), selected a clock ahead.
//!
//! # Errors
//!
//! `done` rises when the request ends (it stays until the next `start`),
//! with `error` set if it was malformed, like the Keccak engine:
//!
//! - refused at once, touching neither stream: n ∉ {16, 24, 32},
//!   i + s ≥ 2^32;
//! - `in_last` before the final word: the engine stops at that word;
//! - no `in_last` on the final word: the engine drains the stream up to its
//!   `in_last`, then stops.
//!
//! `abort_job` (taken in any state, busy or not) returns to idle at once with
//! `done` and `error`, and resets the core on the next clock (the engine
//! does not use the core for at least 16 clocks after a `start`). `reset`
//! (synchronous, active high) returns to idle with `done`/`error` low.
//!
//! Measured figures are in the [`super`] module documentation.

use super::core::Sha256Core;
use rust_hdl::prelude::*;

/// Clocks of one chain step at full speed: a compression plus the reload.
pub const CLOCKS_PER_STEP: u64 = super::core::clocks_per_block(32) as u64 + 8;

/// Clocks of a request at full stream speed, from the `start` clock to the
/// clock after the final output word (see the module documentation).
pub const fn chain_clocks(n: usize, steps: u32) -> u64 {
    let io = (1 + n / 2 + 8 + n / 4) as u64;
    if steps == 0 {
        io
    } else {
        io + super::core::clocks_per_block(32) as u64 + 8 + CLOCKS_PER_STEP * steps as u64
    }
}

/// Phases of the engine.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum Phase {
    /// Waiting for `start`.
    Idle,
    /// Taking PK.seed ‖ ADRS ‖ X.
    Input,
    /// Discarding input up to `in_last` after a too-long stream.
    Drain,
    /// Feeding a block to the core (the PK.seed block or a chain step).
    Compress,
    /// Reading the PK.seed state out of the core into `seed`.
    Capture,
    /// Loading the PK.seed state back into the core, the digest into `tmp`.
    Load,
    /// Giving the output words.
    Output,
}

/// The SHA-256 WOTS+ chain engine; see the module documentation.
#[derive(LogicBlock)]
pub struct Sha256ChainEngine {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, `done`/`error` low.
    pub reset: Signal<In, Bit>,
    /// Start a request (taken when not busy).
    pub start: Signal<In, Bit>,
    /// Abort: return to idle from any state, with `done` and `error` (not
    /// called `abort`, a C++ name Verilator refuses as a port).
    pub abort_job: Signal<In, Bit>,
    /// n in bytes: 16, 24 or 32.
    pub n_bytes: Signal<In, Bits<32>>,
    /// Start index i (hash address of the first step).
    pub first: Signal<In, Bits<32>>,
    /// Steps s.
    pub steps: Signal<In, Bits<32>>,
    /// A request is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last request ended (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last request was malformed or aborted (cleared by the next start).
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
    /// The hash address j of the current step.
    hash_address: DFF<Bits<32>>,
    /// Steps not yet started (counted down when a step's compression ends).
    steps_left: DFF<Bits<32>>,
    /// Input part (0 PK.seed, 1 ADRS, 2 X) and word within it.
    segment: DFF<Bits<2>>,
    segment_word: DFF<Bits<4>>,
    /// Message word being fed (`Compress`), load/capture clock, output word.
    count: DFF<Bits<5>>,
    /// The compression running is the PK.seed block.
    seeding: DFF<Bit>,
    /// PK.seed (big-endian words) while taking input, then the state after
    /// the PK.seed block.
    seed: [DFF<Bits<32>>; 8],
    /// ADRS as big-endian words (words 1 and 7 are not used; yosys drops
    /// whatever the compression does not keep).
    adrs: [DFF<Bits<32>>; 8],
    /// X, then the output of the last step (big-endian words).
    tmp: [DFF<Bits<32>>; 8],
    /// The core's `word_in`.
    feed: DFF<Bits<32>>,
    /// The core's reset, registered.
    core_reset: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    is16: Signal<Local, Bit>,
    is32: Signal<Local, Bit>,
    in_word: Signal<Local, Bits<32>>,
    segment_words: Signal<Local, Bits<4>>,
    last_in_word: Signal<Local, Bit>,
    chain_end: Signal<Local, Bits<33>>,
    /// tmp ‖ 0x80 ‖ 0… as nine words.
    text: [Signal<Local, Bits<32>>; 9],
    /// The step's message block.
    msg: [Signal<Local, Bits<32>>; 16],
    /// The block being fed: the PK.seed block or `msg`.
    block: [Signal<Local, Bits<32>>; 16],
    /// The word after the one being fed.
    block_next: Signal<Local, Bits<32>>,
    length_bits: Signal<Local, Bits<32>>,
    pad_word: Constant<Bits<32>>,
    length16: Constant<Bits<32>>,
    length24: Constant<Bits<32>>,
    length32: Constant<Bits<32>>,
}

impl Default for Sha256ChainEngine {
    fn default() -> Self {
        // Bit length of PK.seed block ‖ ADRSc ‖ tmp.
        let length = |n: u64| Constant::new(((64 + 22 + n) * 8).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            abort_job: Default::default(),
            n_bytes: Default::default(),
            first: Default::default(),
            steps: Default::default(),
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
            hash_address: Default::default(),
            steps_left: Default::default(),
            segment: Default::default(),
            segment_word: Default::default(),
            count: Default::default(),
            seeding: Default::default(),
            seed: Default::default(),
            adrs: Default::default(),
            tmp: Default::default(),
            feed: Default::default(),
            core_reset: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            is16: Default::default(),
            is32: Default::default(),
            in_word: Default::default(),
            segment_words: Default::default(),
            last_in_word: Default::default(),
            chain_end: Default::default(),
            text: Default::default(),
            msg: Default::default(),
            block: Default::default(),
            block_next: Default::default(),
            length_bits: Default::default(),
            pad_word: Constant::new((0x80u64 << 24).into()),
            length16: length(16),
            length24: length(24),
            length32: length(32),
        }
    }
}

impl Logic for Sha256ChainEngine {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, core);
        dff_setup!(
            self,
            clock,
            phase,
            nw,
            hash_address,
            steps_left,
            segment,
            segment_word,
            count,
            seeding,
            feed,
            core_reset,
            done_flag,
            error_flag
        );
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
        self.chain_end.next =
            bit_cast::<33, 32>(self.first.val()) + bit_cast::<33, 32>(self.steps.val());

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
        self.msg[0].next = (self.adrs[0].q.val() << 24) | (self.adrs[2].q.val() >> 8);
        self.msg[1].next = (self.adrs[2].q.val() << 24) | (self.adrs[3].q.val() >> 8);
        self.msg[2].next = (self.adrs[3].q.val() << 24)
            | ((self.adrs[4].q.val() << 24) >> 8)
            | (self.adrs[5].q.val() >> 16);
        self.msg[3].next = (self.adrs[5].q.val() << 16) | (self.adrs[6].q.val() >> 16);
        self.msg[4].next = (self.adrs[6].q.val() << 16) | (self.hash_address.q.val() >> 16);
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
        // After W15 the next word is the first state word of the reload.
        self.block_next.next = self.seed[0].q.val();
        for k in 0..15 {
            if self.count.q.val().index() == k {
                self.block_next.next = self.block[k + 1].val();
            }
        }

        // Core defaults: idle, words always valid (`feed` is on time).
        self.core.reset.next = self.core_reset.q.val();
        self.core.start.next = false;
        self.core.init_from_iv.next = self.seeding.q.val();
        self.core.load_state.next = false;
        self.core.word_in.next = self.feed.q.val();
        self.core.word_valid.next = true;
        self.core.out_index.next = 0.into();
        self.core_reset.d.next = false;

        self.in_ready.next = false;
        self.out_valid.next = false;
        self.out_last.next = bit_cast::<5, 4>(self.nw.q.val()) == self.count.q.val() + 1;
        self.busy.next = self.phase.q.val() != Phase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();

        match self.phase.q.val() {
            Phase::Idle => {
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.nw.d.next = self.n_bytes.val().get_bits::<4>(2);
                    self.hash_address.d.next = self.first.val();
                    self.steps_left.d.next = self.steps.val();
                    self.segment.d.next = 0.into();
                    self.segment_word.d.next = 0.into();
                    if ((self.n_bytes.val() != 16)
                        & (self.n_bytes.val() != 24)
                        & (self.n_bytes.val() != 32))
                        | self.chain_end.val().get_bit(32)
                    {
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    } else {
                        self.phase.d.next = Phase::Input;
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
                        self.phase.d.next = Phase::Idle;
                    } else if !self.in_last.val() & self.last_in_word.val() {
                        // Longer than declared: drain to its end.
                        self.error_flag.d.next = true;
                        self.phase.d.next = Phase::Drain;
                    } else {
                        for k in 0..8 {
                            if self.segment_word.q.val().index() == k {
                                if self.segment.q.val() == 0 {
                                    self.seed[k].d.next = self.in_word.val();
                                }
                                if self.segment.q.val() == 1 {
                                    self.adrs[k].d.next = self.in_word.val();
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
                        if self.last_in_word.val() {
                            self.count.d.next = 0.into();
                            if self.steps_left.q.val() == 0 {
                                self.phase.d.next = Phase::Output;
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
                    self.count.d.next = 1.into();
                    if self.seeding.q.val() {
                        // Capture clock 0: H0 of the PK.seed state.
                        for i in 0..7 {
                            self.seed[i].d.next = self.seed[i + 1].q.val();
                        }
                        self.seed[7].d.next = self.core.out_word.val();
                        self.phase.d.next = Phase::Capture;
                    } else {
                        // Load clock 0 (`feed` holds seed[0]).
                        self.core.load_state.next = true;
                        for i in 0..7 {
                            self.seed[i].d.next = self.seed[i + 1].q.val();
                            self.tmp[i].d.next = self.tmp[i + 1].q.val();
                        }
                        self.seed[7].d.next = self.seed[0].q.val();
                        self.tmp[7].d.next = self.core.out_word.val();
                        self.feed.d.next = self.seed[1].q.val();
                        self.hash_address.d.next = self.hash_address.q.val() + 1;
                        self.steps_left.d.next = self.steps_left.q.val() - 1;
                        self.phase.d.next = Phase::Load;
                    }
                }
            }
            Phase::Capture => {
                // The core keeps the state: the first step starts from it.
                self.core.out_index.next = self.count.q.val().get_bits::<3>(0);
                for i in 0..7 {
                    self.seed[i].d.next = self.seed[i + 1].q.val();
                }
                self.seed[7].d.next = self.core.out_word.val();
                self.count.d.next = self.count.q.val() + 1;
                if self.count.q.val() == 7 {
                    self.count.d.next = 0.into();
                    self.seeding.d.next = false;
                    self.feed.d.next = self.msg[0].val();
                    self.phase.d.next = Phase::Compress;
                }
            }
            Phase::Load => {
                // The state goes back in from `seed` (rotating, so it is
                // kept) while H0..H7 shift out of `out_word` into tmp.
                self.core.load_state.next = true;
                for i in 0..7 {
                    self.seed[i].d.next = self.seed[i + 1].q.val();
                    self.tmp[i].d.next = self.tmp[i + 1].q.val();
                }
                self.seed[7].d.next = self.seed[0].q.val();
                self.tmp[7].d.next = self.core.out_word.val();
                self.feed.d.next = self.seed[1].q.val();
                self.count.d.next = self.count.q.val() + 1;
                if self.count.q.val() == 7 {
                    self.count.d.next = 0.into();
                    self.feed.d.next = self.msg[0].val();
                    if self.steps_left.q.val() == 0 {
                        self.phase.d.next = Phase::Output;
                    } else {
                        self.phase.d.next = Phase::Compress;
                    }
                }
            }
            Phase::Output => {
                self.out_valid.next = true;
                if self.out_ready.val() {
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
        if self.abort_job.val() {
            self.core_reset.d.next = true;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.phase.d.next = Phase::Idle;
        }
        if self.reset.val() {
            self.core_reset.d.next = true;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
            self.phase.d.next = Phase::Idle;
        }
    }
}
