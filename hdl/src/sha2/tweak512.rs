//! The SHA-512 H and T_l of SLH-DSA-SHA2 security categories 3 and 5
//! (SLH-DSA-SHA2-192s/f and -256s/f) on one [`Sha512Core`], behind the
//! request and stream ports of the Keccak sponge engine (FIPS 205 §11.2.2):
//!
//! H(PK.seed, ADRS, M1 ‖ M2) and T_l(PK.seed, ADRS, M) =
//! Trunc_n(SHA-512(PK.seed ‖ toByte(0, 128 − n) ‖ ADRSc ‖ M)).
//!
//! F and PRF stay SHA-256 in these categories: [`super::Sha256TweakEngine`]
//! runs them, and [`super::Sha2TweakEngine`] puts the two engines behind
//! one port.
//!
//! # Requests
//!
//! `start` (taken when `busy` is low) samples `op` and `arg0..2` and
//! clears `done` and `error`. Streams carry 32-bit little-endian words
//! (byte k of a part in bits 8·(k mod 4) of its word k/4), as the SLH-DSA
//! jobs send them to the sponge:
//!
//! - `OP_SPONGE` in SHAKE256 mode (`ARG0` = `MODE_SHAKE256`, `ARG1` = the
//!   stream's bytes, `ARG2` = n ∈ {24, 32}): the stream is PK.seed ‖ ADRS
//!   (the full 32 bytes; the engine compresses it to the 22-byte ADRSc in
//!   wiring) ‖ M, M at least 2n bytes (H is the shortest; an F is
//!   SHA-256 and not taken here) and a whole number of words. The output
//!   is the n-byte result, n/4 words.
//! - `OP_ABORT`: as `abort_job`.
//!
//! Refused at once, touching neither stream, with `done` and `error`:
//! any other op, another mode or n, and a length that is not n + 32 + 2n
//! or more, a multiple of 4, below 2^14.
//!
//! # Datapath and clock counts
//!
//! The engine computes the PK.seed block at every request (the stream
//! brings PK.seed each time). A generator gives the message as 32-bit
//! big-endian half-words, one a clock: the PK.seed block (PK.seed, then
//! zeros), ADRSc, M from the input stream through the one-word register
//! `hold` (ADRSc puts M on a 16-bit offset: each half-word is the low half
//! of one stream word and the high half of the next, `prev_half`), the
//! 0x80 half-word, zeros and the 32-bit bit length at half-word 31 of the
//! final block (the length is below 2^32, so its upper 96 bits are the
//! zeros before it). Two half-words make the core's 64-bit word in the
//! register `word`, so the core's input reads registers only; the
//! generator stops when both `hi` and `word` are full, so it gives one
//! 64-bit word per two clocks and each block's 16 words stall the core 15
//! clocks (17 on the first, which starts with the stream). With the
//! streams at full speed (asserted by the tests) a request of m message
//! words takes [`tweak512_clocks`]:
//! 1 + (n/4 + 8) + 100 + 98·b + n/4 clocks from the `start` clock to the
//! clock after the final output word, b = ⌈(m + 10)/32⌉ message blocks.
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
//! `abort_job` (taken in any state, busy or not) returns to idle at once
//! with `done` and `error`, and resets the core on the next clock.
//! `reset` (synchronous, active high) returns to idle with `done`/`error`
//! low.

use super::core::Sha512Core;
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// Words of ADRS.
const ADRS_WORDS: usize = 8;
/// Bytes of an `OP_SPONGE` stream are below this.
pub const TWEAK512_MAX_BYTES: u32 = 1 << 14;

const _: () = assert!(regs::MODE_SHAKE256 == 1 && TWEAK512_MAX_BYTES == 1 << 14);
// The bit length, (128 + 22 + m)·8, fits the one length half-word.
const _: () = assert!((128 + 22 + TWEAK512_MAX_BYTES as u64) * 8 < 1 << 32);

/// Message blocks after the PK.seed block of an `OP_SPONGE` of `m_words`
/// message words: 5.5 half-words of ADRSc, M, the 0x80 half-word and the
/// four length half-words, 32 half-words a block.
pub const fn tweak512_blocks(m_words: usize) -> usize {
    (m_words + 10).div_ceil(32)
}

/// Clocks of an `OP_SPONGE` of `m_words` message words for `n` at full
/// stream speed, from the `start` clock to the clock after the final
/// output word (module docs).
pub const fn tweak512_clocks(n: usize, m_words: usize) -> u64 {
    let io = (1 + n / 4 + ADRS_WORDS + n / 4) as u64;
    io + 100 + 98 * tweak512_blocks(m_words) as u64
}

/// Phases of the engine.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum Phase512 {
    /// Waiting for `start`.
    Idle,
    /// Taking PK.seed ‖ ADRS.
    Input,
    /// Discarding input up to `in_last` after a too-long stream.
    Drain,
    /// The compressions, M from the input stream.
    Hash,
    /// Giving the output words.
    Output,
}

/// What the half-word generator gives.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum Feed {
    /// PK.seed ‖ toByte(0, 128 − n).
    Seed,
    /// ADRSc half-words 0..4.
    Adrsc,
    /// The half-words with M's bytes.
    Message,
    /// M's last two bytes ‖ 0x80 ‖ 0x00.
    Pad,
    /// Zeros, and the bit length at the final block's half-word 31.
    Zeros,
    /// Everything given.
    Stop,
}

/// The SHA-512 H / T_l engine; see the module documentation.
#[derive(LogicBlock)]
pub struct Sha512TweakEngine {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, `done`/`error` low.
    pub reset: Signal<In, Bit>,
    /// Start a request (taken when not busy; `OP_ABORT` always).
    pub start: Signal<In, Bit>,
    /// Abort: return to idle from any state, with `done` and `error`.
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
    /// The last request was refused, malformed or aborted.
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
    core: Sha512Core,
    phase: DFF<Phase512>,
    /// n/4: 6 or 8.
    nw: DFF<Bits<4>>,
    /// Input: taking ADRS (else PK.seed), and the word within it.
    in_adrs: DFF<Bit>,
    in_index: DFF<Bits<3>>,
    /// PK.seed as big-endian half-words, zero past n/4; shifted out into
    /// the PK.seed block.
    seed: [DFF<Bits<32>>; 8],
    /// ADRS as big-endian words (words 1 and 4's upper bytes are not used).
    adrs: [DFF<Bits<32>>; 8],
    /// ADRSc half-words 0..4, shifted out into the first message block.
    adrsc: [DFF<Bits<32>>; 5],
    gen: DFF<Feed>,
    /// The generator's half-word within its block.
    gen_index: DFF<Bits<5>>,
    /// Message blocks not yet fully given (1: the final block).
    blocks_left: DFF<Bits<8>>,
    /// Message words still to give / to take from the stream.
    words_left: DFF<Bits<12>>,
    fetch_left: DFF<Bits<12>>,
    /// The next message word from the stream (big-endian).
    hold: DFF<Bits<32>>,
    hold_valid: DFF<Bit>,
    /// The low half of the last word given (ADRS word 7's at first).
    prev_half: DFF<Bits<16>>,
    length_bits: DFF<Bits<32>>,
    /// The first half-word of the core's next word.
    hi: DFF<Bits<32>>,
    hi_full: DFF<Bit>,
    /// The core's next word.
    word: DFF<Bits<64>>,
    word_full: DFF<Bit>,
    /// Compressions not yet done, the PK.seed block's included.
    compressions_left: DFF<Bits<8>>,
    /// Start the core; the compression is the PK.seed block's.
    go: DFF<Bit>,
    first_block: DFF<Bit>,
    /// Output word.
    count: DFF<Bits<4>>,
    /// The output word now is the last, registered.
    last_word: DFF<Bit>,
    /// The core's reset, registered.
    core_reset: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    in_word: Signal<Local, Bits<32>>,
    /// The generator's half-word and whether it is there.
    gen_word: Signal<Local, Bits<32>>,
    gen_valid: Signal<Local, Bit>,
    /// The generator gives its half-word this clock.
    emit: Signal<Local, Bit>,
    /// The held stream word is given this clock.
    hold_taken: Signal<Local, Bit>,
    /// An `OP_SPONGE`'s message bytes and words (`ARG1` less PK.seed and
    /// ADRS).
    message_bytes: Signal<Local, Bits<32>>,
    message_words: Signal<Local, Bits<12>>,
    message_blocks: Signal<Local, Bits<13>>,
    compressions: Signal<Local, Bits<13>>,
    args_good: Signal<Local, Bit>,
    abort_now: Signal<Local, Bit>,
    adrsc_w: [Signal<Local, Bits<32>>; 5],
    out_half: Signal<Local, Bits<32>>,
    op_sponge: Constant<Bits<8>>,
    op_abort: Constant<Bits<8>>,
}

impl Default for Sha512TweakEngine {
    fn default() -> Self {
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
            in_adrs: Default::default(),
            in_index: Default::default(),
            seed: Default::default(),
            adrs: Default::default(),
            adrsc: Default::default(),
            gen: Default::default(),
            gen_index: Default::default(),
            blocks_left: Default::default(),
            words_left: Default::default(),
            fetch_left: Default::default(),
            hold: Default::default(),
            hold_valid: Default::default(),
            prev_half: Default::default(),
            length_bits: Default::default(),
            hi: Default::default(),
            hi_full: Default::default(),
            word: Default::default(),
            word_full: Default::default(),
            compressions_left: Default::default(),
            go: Default::default(),
            first_block: Default::default(),
            count: Default::default(),
            last_word: Default::default(),
            core_reset: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            in_word: Default::default(),
            gen_word: Default::default(),
            gen_valid: Default::default(),
            emit: Default::default(),
            hold_taken: Default::default(),
            message_bytes: Default::default(),
            message_words: Default::default(),
            message_blocks: Default::default(),
            compressions: Default::default(),
            args_good: Default::default(),
            abort_now: Default::default(),
            adrsc_w: Default::default(),
            out_half: Default::default(),
            op_sponge: op(regs::OP_SPONGE),
            op_abort: op(regs::OP_ABORT),
        }
    }
}

impl Logic for Sha512TweakEngine {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, core);
        dff_setup!(
            self,
            clock,
            phase,
            nw,
            in_adrs,
            in_index,
            gen,
            gen_index,
            blocks_left,
            words_left,
            fetch_left,
            hold,
            hold_valid,
            prev_half,
            length_bits,
            hi,
            hi_full,
            word,
            word_full,
            compressions_left,
            go,
            first_block,
            count,
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
        }

        // Stream words are little-endian, SHA-2 words big-endian.
        self.in_word.next = (bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.in_data.val().get_bits::<8>(24));
        self.message_bytes.next = self.arg1.val() - self.arg2.val() - 32;
        self.message_words.next = self.message_bytes.val().get_bits::<12>(2);
        // ⌈(m + 10)/32⌉ message blocks, and the PK.seed block: bits 12..5.
        self.message_blocks.next = bit_cast::<13, 12>(self.message_words.val()) + 41;
        self.compressions.next = bit_cast::<13, 12>(self.message_words.val()) + 73;
        // n ∈ {24, 32}, M at least 2n bytes, whole words, below 2^14 bytes.
        self.args_good.next = (self.arg0.val() == 1)
            & (((self.arg2.val() == 24) & (self.arg1.val() >= 104))
                | ((self.arg2.val() == 32) & (self.arg1.val() >= 128)))
            & (self.arg1.val().get_bits::<2>(0) == 0)
            & (self.arg1.val() < 16384);
        self.abort_now.next =
            self.abort_job.val() | (self.start.val() & (self.op.val() == self.op_abort.val()));

        // ADRSc = ADRS bytes 3, 8..16, 19, 20..32; half-word 5 is ADRS
        // word 7's low half (`prev_half`) ‖ M's first two bytes.
        self.adrsc_w[0].next = (self.adrs[0].q.val() << 24) | (self.adrs[2].q.val() >> 8);
        self.adrsc_w[1].next = (self.adrs[2].q.val() << 24) | (self.adrs[3].q.val() >> 8);
        self.adrsc_w[2].next = (self.adrs[3].q.val() << 24)
            | (bit_cast::<32, 8>(self.adrs[4].q.val().get_bits::<8>(0)) << 16)
            | (self.adrs[5].q.val() >> 16);
        self.adrsc_w[3].next = (self.adrs[5].q.val() << 16) | (self.adrs[6].q.val() >> 16);
        self.adrsc_w[4].next = (self.adrs[6].q.val() << 16) | (self.adrs[7].q.val() >> 16);

        // The generator's half-word.
        self.gen_word.next = 0.into();
        self.gen_valid.next = true;
        match self.gen.q.val() {
            Feed::Seed => {
                self.gen_word.next = self.seed[0].q.val();
            }
            Feed::Adrsc => {
                self.gen_word.next = self.adrsc[0].q.val();
            }
            Feed::Message => {
                self.gen_word.next =
                    (bit_cast::<32, 16>(self.prev_half.q.val()) << 16) | (self.hold.q.val() >> 16);
                self.gen_valid.next = self.hold_valid.q.val();
            }
            Feed::Pad => {
                self.gen_word.next =
                    (bit_cast::<32, 16>(self.prev_half.q.val()) << 16) | 0x8000_u64;
            }
            Feed::Zeros => {
                if (self.blocks_left.q.val() == 1) & (self.gen_index.q.val() == 31) {
                    self.gen_word.next = self.length_bits.q.val();
                }
            }
            Feed::Stop => {
                self.gen_valid.next = false;
            }
        }
        self.emit.next = (self.phase.q.val() == Phase512::Hash)
            & self.gen_valid.val()
            & (!self.hi_full.q.val() | !self.word_full.q.val());
        self.hold_taken.next = self.emit.val() & (self.gen.q.val() == Feed::Message);

        // Core defaults: idle, its word from `word`.
        self.core.reset.next = self.core_reset.q.val();
        // `go` rises only into Hash (an abort there resets the core too).
        self.core.start.next = self.go.q.val();
        self.core.init_from_iv.next = self.first_block.q.val();
        self.core.load_state.next = false;
        self.core.init_from_port.next = false;
        for i in 0..8 {
            self.core.init_value[i].next = 0.into();
        }
        self.core.word_in.next = self.word.q.val();
        self.core.word_valid.next = self.word_full.q.val();
        self.core.out_index.next = self.count.q.val().get_bits::<3>(1);
        self.core_reset.d.next = false;
        self.go.d.next = false;

        // Output words: H0's upper half first, bytes little-endian.
        self.out_half.next = self.core.out_word.val().get_bits::<32>(32);
        if self.count.q.val().get_bit(0) {
            self.out_half.next = self.core.out_word.val().get_bits::<32>(0);
        }
        self.out_data.next = (bit_cast::<32, 8>(self.out_half.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.out_half.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.out_half.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.out_half.val().get_bits::<8>(24));

        self.in_ready.next = false;
        self.out_valid.next = false;
        self.out_last.next = self.last_word.q.val();
        self.busy.next = self.phase.q.val() != Phase512::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();

        match self.phase.q.val() {
            Phase512::Idle => {
                if self.start.val() {
                    // Refused unless the request is a good OP_SPONGE.
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = true;
                    if (self.op.val() == self.op_sponge.val()) & self.args_good.val() {
                        self.done_flag.d.next = false;
                        self.error_flag.d.next = false;
                        self.nw.d.next = self.arg2.val().get_bits::<4>(2);
                        self.in_adrs.d.next = false;
                        self.in_index.d.next = 0.into();
                        for i in 0..8 {
                            self.seed[i].d.next = 0.into();
                        }
                        self.words_left.d.next = self.message_words.val();
                        self.fetch_left.d.next = self.message_words.val();
                        self.blocks_left.d.next = self.message_blocks.val().get_bits::<8>(5);
                        self.compressions_left.d.next = self.compressions.val().get_bits::<8>(5);
                        self.length_bits.d.next = (self.arg1.val() + 118 - self.arg2.val()) << 3;
                        self.phase.d.next = Phase512::Input;
                    }
                }
            }
            Phase512::Input => {
                self.in_ready.next = true;
                if self.in_valid.val() {
                    if self.in_last.val() {
                        // M follows: a stream that ends here is short.
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                        self.phase.d.next = Phase512::Idle;
                    } else {
                        for k in 0..8 {
                            if self.in_index.q.val().index() == k {
                                if self.in_adrs.q.val() {
                                    self.adrs[k].d.next = self.in_word.val();
                                } else {
                                    self.seed[k].d.next = self.in_word.val();
                                }
                            }
                        }
                        self.in_index.d.next = self.in_index.q.val() + 1;
                        if !self.in_adrs.q.val()
                            & (bit_cast::<4, 3>(self.in_index.q.val()) + 1 == self.nw.q.val())
                        {
                            self.in_adrs.d.next = true;
                            self.in_index.d.next = 0.into();
                        }
                        if self.in_adrs.q.val() & (self.in_index.q.val() == 7) {
                            self.prev_half.d.next = self.in_word.val().get_bits::<16>(0);
                            self.gen.d.next = Feed::Seed;
                            self.gen_index.d.next = 0.into();
                            self.hold_valid.d.next = false;
                            self.hi_full.d.next = false;
                            self.word_full.d.next = false;
                            self.go.d.next = true;
                            self.first_block.d.next = true;
                            self.phase.d.next = Phase512::Hash;
                        }
                    }
                }
            }
            Phase512::Drain => {
                self.in_ready.next = true;
                if self.in_valid.val() & self.in_last.val() {
                    self.done_flag.d.next = true;
                    self.phase.d.next = Phase512::Idle;
                }
            }
            Phase512::Hash => {
                // The stream refills the held word as the generator takes it.
                self.in_ready.next = (self.fetch_left.q.val() != 0)
                    & (!self.hold_valid.q.val() | self.hold_taken.val());
                if self.gen.q.val() == Feed::Seed {
                    for k in 0..5 {
                        self.adrsc[k].d.next = self.adrsc_w[k].val();
                    }
                }
                if self.emit.val() {
                    self.gen_index.d.next = self.gen_index.q.val() + 1;
                    if (self.gen_index.q.val() == 31) & (self.gen.q.val() != Feed::Seed) {
                        self.blocks_left.d.next = self.blocks_left.q.val() - 1;
                    }
                    match self.gen.q.val() {
                        Feed::Seed => {
                            for k in 0..7 {
                                self.seed[k].d.next = self.seed[k + 1].q.val();
                            }
                            self.seed[7].d.next = 0.into();
                            if self.gen_index.q.val() == 31 {
                                self.gen.d.next = Feed::Adrsc;
                            }
                        }
                        Feed::Adrsc => {
                            for k in 0..4 {
                                self.adrsc[k].d.next = self.adrsc[k + 1].q.val();
                            }
                            if self.gen_index.q.val() == 4 {
                                self.gen.d.next = Feed::Message;
                            }
                        }
                        Feed::Message => {
                            self.prev_half.d.next = self.hold.q.val().get_bits::<16>(0);
                            self.words_left.d.next = self.words_left.q.val() - 1;
                            self.hold_valid.d.next = false;
                            if self.words_left.q.val() == 1 {
                                self.gen.d.next = Feed::Pad;
                            }
                        }
                        Feed::Pad => {
                            self.gen.d.next = Feed::Zeros;
                        }
                        Feed::Zeros => {
                            if (self.blocks_left.q.val() == 1) & (self.gen_index.q.val() == 31) {
                                self.gen.d.next = Feed::Stop;
                            }
                        }
                        Feed::Stop => {}
                    }
                    // Two half-words make the core's word.
                    if self.hi_full.q.val() {
                        self.word.d.next = (bit_cast::<64, 32>(self.hi.q.val()) << 32)
                            | bit_cast::<64, 32>(self.gen_word.val());
                        self.hi_full.d.next = false;
                    } else {
                        self.hi.d.next = self.gen_word.val();
                        self.hi_full.d.next = true;
                    }
                }
                if self.word_full.q.val() & self.core.word_ready.val() {
                    self.word_full.d.next = false;
                }
                if self.emit.val() & self.hi_full.q.val() {
                    self.word_full.d.next = true;
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
                        self.phase.d.next = Phase512::Idle;
                    }
                    if !self.in_last.val() & (self.fetch_left.q.val() == 1) {
                        // Longer than declared: drain to its end.
                        self.core_reset.d.next = true;
                        self.error_flag.d.next = true;
                        self.phase.d.next = Phase512::Drain;
                    }
                }
                if self.core.done.val() {
                    self.first_block.d.next = false;
                    self.compressions_left.d.next = self.compressions_left.q.val() - 1;
                    if self.compressions_left.q.val() == 1 {
                        self.count.d.next = 0.into();
                        self.last_word.d.next = false;
                        self.phase.d.next = Phase512::Output;
                    } else {
                        self.go.d.next = true;
                    }
                }
            }
            Phase512::Output => {
                self.out_valid.next = true;
                if self.out_ready.val() {
                    self.last_word.d.next = bit_cast::<5, 4>(self.nw.q.val())
                        == bit_cast::<5, 4>(self.count.q.val()) + 2;
                    self.count.d.next = self.count.q.val() + 1;
                    if self.out_last.val() {
                        self.done_flag.d.next = true;
                        self.phase.d.next = Phase512::Idle;
                    }
                }
            }
        }
        // Abort wins over everything but reset, busy or not.
        if self.abort_now.val() {
            self.core_reset.d.next = true;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.phase.d.next = Phase512::Idle;
        }
        if self.reset.val() {
            self.core_reset.d.next = true;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
            self.phase.d.next = Phase512::Idle;
        }
    }
}
