//! The SHAKE/SHA3 sponge engine and the SLH-DSA WOTS+ chain engine.
//!
//! One [`SpongeEngine`] serves both operations of `ps_pl_contract::regmap::keccak`
//! (read the op-code docs there for the argument and stream formats):
//!
//! - `OP_SPONGE`: absorbs an `ARG1`-byte message from the 32-bit input
//!   stream, pads it in hardware (the mode's domain byte after the message,
//!   `0x80` in the last byte of the rate block), and squeezes `ARG2` bytes to
//!   the output stream, permuting again whenever a rate block is used up.
//!   The message length comes with the request, so the final stream word
//!   needs no byte count; bytes past the length are masked off.
//! - `OP_WOTS_CHAIN`: receives PK.seed ‖ ADRS ‖ X, then runs `steps` F
//!   calls, each one a single-block SHAKE256 whose input block is loaded in
//!   parallel from PK.seed, ADRS (hash address `j` inserted big-endian in
//!   bytes 28..32) and the previous result, already padded. One F costs
//!   1 + 24/R clocks.
//!
//! # Handshake and errors
//!
//! `start` is taken when `busy` is low: it clears `done` and `error` and
//! samples `op` and `arg0..2`. The state is cleared on the clock after the
//! start (the clear is registered, see `clear_r`), so a sponge request takes
//! its first message word one clock later than the start clock. When the operation ends, `done` rises (and
//! stays until the next start), with `error` set if the request was
//! malformed:
//!
//! - refused at once, touching neither stream: unknown op code, sponge mode
//!   > 3, zero output length, n ∉ {16, 24, 32}, `start + steps` ≥ 2^32;
//! - stream shorter than declared (`in_last` before the final word): the
//!   engine stops at that `in_last`;
//! - stream longer than declared (no `in_last` on the final word): the engine
//!   drains the stream up to its `in_last` (so the DMA transfer completes and
//!   the next request starts aligned), then stops.
//!
//! # The kept-prefix chain (PL-internal)
//!
//! An engine built with [`SpongeEngine::with_kept_chain`] (the SLH-DSA leaf
//! job's) also takes [`OP_WOTS_CHAIN_KEPT`]: a chain whose message is X
//! alone. PK.seed and ADRS are those of the last `OP_WOTS_CHAIN`, with the
//! chain address replaced by `ARG0` bits 15:8; `ARG0` bits 7:0 are n (as for
//! `OP_WOTS_CHAIN`, and it must be that request's n), `ARG1` the start and
//! `ARG2` the steps. With [`KEPT_PRF_FIRST`] in `ARG0`, X is SK.seed and
//! the first block is PRF(PK.seed, SK.seed, ADRS) (type WOTS_PRF, hash
//! address 0: FIPS 205 Algorithm 6, line 5), whose output then runs the
//! `ARG2` steps: a WOTS+ secret value and its chain in one request, with
//! no PK.seed ‖ ADRS on the stream. With [`KEPT_FORS`] as well, the kept
//! address is a FORS_TREE address and the PRF is a FORS secret value
//! (FIPS 205 Algorithm 14: type FORS_PRF, the tree index `ARG1` kept in
//! the hash field), so a FORS leaf F(sk) is one request too. The op is not in
//! `ps_pl_contract::regmap::keccak`: an engine built with `default()` (the
//! Keccak top's) refuses it as an unknown op.
//!
//! Such an engine also fuses its chains (both ops): each block after the
//! first is loaded by the permutation's `reload` on the last round clock
//! of the block before, so a chain request costs 2 + blocks · 24/R clocks
//! after its input (one load clock, the blocks, one clock to turn to the
//! output) in place of 1 + blocks · (1 + 24/R). A request with no block
//! waits one clock more, so the formula holds for it too and a signing
//! chain split at any digit costs the same.
//!
//! # The squeeze tail (PL-internal)
//!
//! An engine built with [`SpongeEngine::with_squeeze_tail`] (the ML-DSA
//! engine's) overlaps a squeeze with the next permutation. In SHAKE128,
//! SHAKE256 and SHA3-256, when the word before the last [`TAIL_WORDS`] of
//! a rate block goes out and the request wants bytes past the block, the
//! engine copies those last words into a buffer and starts the
//! permutation on the same edge; the tail words then go out of the
//! buffer while the permutation runs. A further output block thus costs
//! `max(0, 24/R − TAIL_WORDS)` idle clocks instead of 24/R: 12 at R = 1,
//! none at R = 2. The output bytes are the same. SHA3-512 (rate 18 words)
//! squeezes as before.
//!
//! `OP_ABORT` is taken even while busy and returns to idle at once with
//! `done` and `error`: the recovery for a source that never sends `in_last`
//! or a sink that never takes the output. Nothing else waits on the outside.
//!
//! `reset` (synchronous, active high; the top drives it from `aresetn`)
//! returns the engine to idle with the state cleared and `done`/`error` low.

use super::permutation::{KeccakPermutation, XOR_LANES};
use super::round::ROUNDS;
use pqc::keccak::SpongeMode;
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// Largest n of SLH-DSA (bytes): PK.seed, X and the output are n bytes.
pub const CHAIN_MAX_N: usize = 32;
/// Bytes of an SLH-DSA address.
pub const ADRS_BYTES: usize = 32;
/// PL-internal op: a WOTS+ chain on the kept PK.seed and ADRS (module
/// docs); outside the contract's op codes.
pub const OP_WOTS_CHAIN_KEPT: u32 = 0x10;
const _: () = assert!(
    OP_WOTS_CHAIN_KEPT != regs::OP_SPONGE
        && OP_WOTS_CHAIN_KEPT != regs::OP_WOTS_CHAIN
        && OP_WOTS_CHAIN_KEPT != regs::OP_ABORT
);
/// `ARG0` flag of [`OP_WOTS_CHAIN_KEPT`]: X is SK.seed and the PRF runs first.
pub const KEPT_PRF_FIRST: u32 = 1 << 16;
/// `ARG0` flag of [`OP_WOTS_CHAIN_KEPT`]: the PRF is FORS_PRF (FIPS 205
/// Algorithm 14): type FORS_PRF, and the tree index (`ARG1`, the chain's
/// start) stays in the hash field; the kept address is then a FORS_TREE
/// address and the chain address (tree height) 0.
pub const KEPT_FORS: u32 = 1 << 17;
/// `ARG0` bit of [`OP_WOTS_CHAIN_KEPT`]'s chain address (bits 15:8).
pub const KEPT_CHAIN_SHIFT: u32 = 8;
/// Words of the squeeze tail (module docs): the last six lanes of a
/// rate block.
pub const TAIL_WORDS: usize = 12;
const TAIL_LANES: usize = TAIL_WORDS / 2;
/// First lane of the tail: SHAKE128's rate is 21 lanes, SHAKE256's and
/// SHA3-256's 17.
const TAIL_FIRST_LANE_SHAKE128: usize = 21 - TAIL_LANES;
const TAIL_FIRST_LANE_RATE136: usize = 17 - TAIL_LANES;
const _: () = assert!(SpongeMode::Shake128.rate_bytes() == 8 * 21);
const _: () = assert!(SpongeMode::Shake256.rate_bytes() == 8 * 17);
const _: () = assert!(SpongeMode::Sha3_256.rate_bytes() == 8 * 17);
// `update` writes these first lanes as literals.
const _: () = assert!(TAIL_FIRST_LANE_SHAKE128 == 15 && TAIL_FIRST_LANE_RATE136 == 11);
/// FIPS 205 address types WOTS_PRF and FORS_PRF, which the PRF block puts
/// in ADRS byte 19.
const TYPE_WOTS_PRF: u64 = 5;
const TYPE_FORS_PRF: u64 = 6;
/// The chain's hash function (F is SHAKE256 in SLH-DSA-SHAKE).
const CHAIN_MODE: SpongeMode = SpongeMode::Shake256;

// The chain block PK.seed ‖ ADRS ‖ tmp plus padding must fit one rate block,
// and the padding must start on a lane boundary for the parallel load.
const _: () = assert!(2 * CHAIN_MAX_N + ADRS_BYTES < CHAIN_MODE.rate_bytes());
const _: () = assert!(CHAIN_MODE.rate_bytes() % 8 == 0);

/// Phases of the engine.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum Phase {
    /// Waiting for `start`.
    Idle,
    /// Taking message words.
    Absorb,
    /// XOR the domain byte at the next free word.
    PadDomain,
    /// XOR 0x80 into the last rate byte and permute.
    PadFinal,
    /// Giving output words.
    Squeeze,
    /// Taking PK.seed ‖ ADRS ‖ X.
    ChainInput,
    /// Loading the next F block and permuting, or finishing.
    ChainStep,
    /// Discarding input up to `in_last` after a too-long stream.
    Drain,
}

/// The sponge engine with an `R`-rounds-per-clock permutation.
#[derive(LogicBlock)]
pub struct SpongeEngine<const R: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, state cleared, flags low.
    pub reset: Signal<In, Bit>,
    /// Start the operation `op` (taken when not busy; `OP_ABORT` always).
    pub start: Signal<In, Bit>,
    /// Operation code (`ps_pl_contract::regmap::keccak::OP_*`).
    pub op: Signal<In, Bits<8>>,
    /// First argument.
    pub arg0: Signal<In, Bits<32>>,
    /// Second argument.
    pub arg1: Signal<In, Bits<32>>,
    /// Third argument.
    pub arg2: Signal<In, Bits<32>>,
    /// An operation is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last operation finished (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last operation was malformed or aborted (cleared by the next start).
    pub error: Signal<Out, Bit>,
    /// The `CONFIG` register value.
    pub core_config: Signal<Out, Bits<32>>,
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
    perm: KeccakPermutation<R>,
    /// The permutation's `clear`, registered: the synchronous reset of the
    /// 1,600 state flip-flops comes straight from this flip-flop (no logic
    /// in front of the high-fanout net, which the tools can replicate).
    clear_r: DFF<Bit>,
    phase: DFF<Phase>,
    mode: DFF<Bits<2>>,
    msg_left: DFF<Bits<32>>,
    /// `msg_left < 4` and `msg_left == 4`, registered with it: the
    /// absorb's decisions and the final word's mask then take no
    /// 32-bit compare in front of the state's inputs.
    msg_short: DFF<Bit>,
    msg_four: DFF<Bit>,
    out_left: DFF<Bits<32>>,
    word_pos: DFF<Bits<6>>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    chain_lanes: DFF<Bits<3>>,
    segment: DFF<Bits<2>>,
    segment_word: DFF<Bits<4>>,
    hash_address: DFF<Bits<32>>,
    steps_left: DFF<Bits<32>>,
    /// The next chain block is the PRF's (kept-prefix op with the flag).
    prf_step: DFF<Bit>,
    /// That PRF is a FORS secret value's ([`KEPT_FORS`]).
    prf_fors: DFF<Bit>,
    /// The chain block being permuted is followed by another: the
    /// permutation's `reload` (fused chain engines only).
    chain_fuse: DFF<Bit>,
    /// A chain request has just taken its input: a chain of no block waits
    /// one clock here, so that every request of a fused engine costs
    /// 2 + blocks·24/R clocks after its input.
    chain_wait: DFF<Bit>,
    pk_seed: [DFF<Bits<64>>; 4],
    adrs: [DFF<Bits<64>>; 4],
    /// The squeeze tail: the last lanes of the block being squeezed,
    /// copied while `tail_active` is low.
    tail: [DFF<Bits<64>>; TAIL_LANES],
    /// The output words come from `tail` (the permutation runs).
    tail_active: DFF<Bit>,
    /// The next tail word to go out.
    tail_pos: DFF<Bits<4>>,
    /// `tail_active` in an engine built with the tail: constant low in
    /// the others, so synthesis drops the tail there.
    tail_out: Signal<Local, Bit>,
    perm_busy: Signal<Local, Bit>,
    perm_free: Signal<Local, Bit>,
    rate_words: Signal<Local, Bits<6>>,
    domain: Signal<Local, Bits<8>>,
    in_word: Signal<Local, Bits<32>>,
    squeeze_lane: Signal<Local, Bits<64>>,
    squeeze_word: Signal<Local, Bits<32>>,
    segment_words: Signal<Local, Bits<4>>,
    chain_last_word: Signal<Local, Bit>,
    adrs_hashed: Signal<Local, Bits<64>>,
    adrs_typed: Signal<Local, Bits<64>>,
    prf_type: Signal<Local, Bits<64>>,
    chain_in_ready: Signal<Local, Bit>,
    chain_end: Signal<Local, Bits<33>>,
    /// The start is an accepted `OP_WOTS_CHAIN_KEPT`.
    kept_op: Signal<Local, Bit>,
    /// The chain block's tmp lanes: the state (the first block) or the
    /// last round's result (a reload).
    chain_tmp: [Signal<Local, Bits<64>>; 4],
    /// The request's mode squeezes through the tail (engine built with it,
    /// not SHA3-512).
    tail_mode: Signal<Local, Bit>,
    /// The word taken now is the one before the block's tail.
    tail_next: Signal<Local, Bit>,
    /// More than the tail's bytes remain after the word taken now.
    out_past_tail: Signal<Local, Bit>,
    tail_lane: Signal<Local, Bits<64>>,
    rate_words_table: [Constant<Bits<6>>; 4],
    domain_table: [Constant<Bits<8>>; 4],
    op_sponge: Constant<Bits<8>>,
    op_chain: Constant<Bits<8>>,
    op_abort: Constant<Bits<8>>,
    op_chain_kept: Constant<Bits<8>>,
    /// Whether [`OP_WOTS_CHAIN_KEPT`] is taken (else refused) and chains
    /// are fused (module docs).
    kept_chain: Constant<Bit>,
    /// Whether the squeeze goes through the tail (module docs).
    squeeze_tail: Constant<Bit>,
    tail_words: Constant<Bits<6>>,
    tail_last_pos: Constant<Bits<4>>,
    tail_bytes_after: Constant<Bits<32>>,
    prf_type_lane: Constant<Bits<64>>,
    fors_prf_type_lane: Constant<Bits<64>>,
    final_pad_word: Constant<Bits<32>>,
    chain_mode: Constant<Bits<2>>,
    chain_domain_lane: Constant<Bits<64>>,
    chain_pad_lane: Constant<Bits<64>>,
    chain_pad_lane_index: Constant<Bits<5>>,
    config_constant: Constant<Bits<32>>,
}

/// Index of `mode` in `SpongeMode::ALL`, the hardware mode code.
pub fn mode_code(mode: SpongeMode) -> u32 {
    SpongeMode::ALL.iter().position(|m| *m == mode).unwrap() as u32
}

impl<const R: usize> SpongeEngine<R> {
    /// An engine that also takes [`OP_WOTS_CHAIN_KEPT`] (the SLH-DSA leaf
    /// job's; module docs).
    pub fn with_kept_chain() -> Self {
        Self {
            kept_chain: Constant::new(true),
            ..Self::default()
        }
    }

    /// An engine whose squeeze overlaps the next permutation (the ML-DSA
    /// engine's; module docs).
    pub fn with_squeeze_tail() -> Self {
        Self {
            squeeze_tail: Constant::new(true),
            ..Self::default()
        }
    }

    /// An engine with both: the one the ML-DSA and SLH-DSA engines are to share
    /// (design `keccak_shared_r2`; see [`super::select`]).
    pub fn with_kept_chain_and_squeeze_tail() -> Self {
        Self {
            kept_chain: Constant::new(true),
            squeeze_tail: Constant::new(true),
            ..Self::default()
        }
    }
}

impl<const R: usize> Default for SpongeEngine<R> {
    fn default() -> Self {
        assert!(R >= 1 && ROUNDS % R == 0);
        assert!((R as u32) <= regs::CONFIG_ROUNDS_PER_CLOCK_MASK);
        let chain_rate = CHAIN_MODE.rate_bytes();
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            op: Default::default(),
            arg0: Default::default(),
            arg1: Default::default(),
            arg2: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            core_config: Default::default(),
            in_data: Default::default(),
            in_valid: Default::default(),
            in_last: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            out_ready: Default::default(),
            perm: Default::default(),
            clear_r: Default::default(),
            phase: Default::default(),
            mode: Default::default(),
            msg_left: Default::default(),
            msg_short: Default::default(),
            msg_four: Default::default(),
            out_left: Default::default(),
            word_pos: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            chain_lanes: Default::default(),
            segment: Default::default(),
            segment_word: Default::default(),
            hash_address: Default::default(),
            steps_left: Default::default(),
            prf_step: Default::default(),
            prf_fors: Default::default(),
            chain_fuse: Default::default(),
            chain_wait: Default::default(),
            pk_seed: Default::default(),
            adrs: Default::default(),
            tail: Default::default(),
            tail_active: Default::default(),
            tail_pos: Default::default(),
            tail_out: Default::default(),
            perm_busy: Default::default(),
            perm_free: Default::default(),
            rate_words: Default::default(),
            domain: Default::default(),
            in_word: Default::default(),
            squeeze_lane: Default::default(),
            squeeze_word: Default::default(),
            segment_words: Default::default(),
            chain_last_word: Default::default(),
            adrs_hashed: Default::default(),
            adrs_typed: Default::default(),
            prf_type: Default::default(),
            chain_in_ready: Default::default(),
            chain_end: Default::default(),
            kept_op: Default::default(),
            chain_tmp: Default::default(),
            tail_mode: Default::default(),
            tail_next: Default::default(),
            out_past_tail: Default::default(),
            tail_lane: Default::default(),
            rate_words_table: core::array::from_fn(|m| {
                Constant::new(((SpongeMode::ALL[m].rate_bytes() / 4) as u64).into())
            }),
            domain_table: core::array::from_fn(|m| {
                Constant::new((SpongeMode::ALL[m].domain_byte() as u64).into())
            }),
            op_sponge: Constant::new((regs::OP_SPONGE as u64).into()),
            op_chain: Constant::new((regs::OP_WOTS_CHAIN as u64).into()),
            op_abort: Constant::new((regs::OP_ABORT as u64).into()),
            op_chain_kept: Constant::new((OP_WOTS_CHAIN_KEPT as u64).into()),
            kept_chain: Constant::new(false),
            squeeze_tail: Constant::new(false),
            tail_words: Constant::new((TAIL_WORDS as u64).into()),
            tail_last_pos: Constant::new(((TAIL_WORDS - 1) as u64).into()),
            // The word taken now leaves 4 bytes fewer; the tail holds
            // 4 · TAIL_WORDS.
            tail_bytes_after: Constant::new((4 * TAIL_WORDS as u64 + 4).into()),
            // The big-endian type is ADRS bytes 16..20: byte 19 is bits
            // 31:24 of lane 2.
            prf_type_lane: Constant::new((TYPE_WOTS_PRF << 24).into()),
            fors_prf_type_lane: Constant::new((TYPE_FORS_PRF << 24).into()),
            final_pad_word: Constant::new((0x80u64 << 24).into()),
            chain_mode: Constant::new((mode_code(CHAIN_MODE) as u64).into()),
            chain_domain_lane: Constant::new((CHAIN_MODE.domain_byte() as u64).into()),
            chain_pad_lane: Constant::new((0x80u64 << (8 * ((chain_rate - 1) % 8))).into()),
            chain_pad_lane_index: Constant::new((((chain_rate - 1) / 8) as u64).into()),
            config_constant: Constant::new((R as u64).into()),
        }
    }
}

impl<const R: usize> Logic for SpongeEngine<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            clear_r,
            phase,
            mode,
            msg_left,
            msg_short,
            msg_four,
            out_left,
            word_pos,
            done_flag,
            error_flag,
            chain_lanes,
            segment,
            segment_word,
            hash_address,
            steps_left,
            prf_step,
            prf_fors,
            chain_fuse,
            chain_wait,
            tail_active,
            tail_pos
        );
        for i in 0..4 {
            self.pk_seed[i].clock.next = self.clock.val();
            self.pk_seed[i].d.next = self.pk_seed[i].q.val();
            self.adrs[i].clock.next = self.clock.val();
            self.adrs[i].d.next = self.adrs[i].q.val();
        }
        self.tail_out.next = self.squeeze_tail.val() & self.tail_active.q.val();
        // The tail follows the state's last rate lanes until it is in use.
        for t in 0..TAIL_LANES {
            self.tail[t].clock.next = self.clock.val();
            self.tail[t].d.next = self.tail[t].q.val();
            if self.squeeze_tail.val() & !self.tail_active.q.val() {
                self.tail[t].d.next = self.perm.lanes[11 + t].val();
                if self.mode.q.val() == 0 {
                    self.tail[t].d.next = self.perm.lanes[15 + t].val();
                }
            }
        }
        self.perm.clock.next = self.clock.val();

        // Mode parameters, from pqc::keccak::SpongeMode.
        self.rate_words.next = self.rate_words_table[0].val();
        self.domain.next = self.domain_table[0].val();
        for m in 0..4 {
            if self.mode.q.val().index() == m {
                self.rate_words.next = self.rate_words_table[m].val();
                self.domain.next = self.domain_table[m].val();
            }
        }

        // The message word as absorbed: a partial final word keeps only the
        // message bytes and takes the domain byte right after them.
        self.in_word.next = self.in_data.val();
        if self.msg_short.q.val() {
            match self.msg_left.q.val().get_bits::<2>(0).index() {
                1 => {
                    self.in_word.next = ((self.in_data.val() << 24) >> 24)
                        | (bit_cast::<32, 8>(self.domain.val()) << 8);
                }
                2 => {
                    self.in_word.next = ((self.in_data.val() << 16) >> 16)
                        | (bit_cast::<32, 8>(self.domain.val()) << 16);
                }
                3 => {
                    self.in_word.next = ((self.in_data.val() << 8) >> 8)
                        | (bit_cast::<32, 8>(self.domain.val()) << 24);
                }
                _ => {}
            }
        }

        // Output word: lane word_pos / 2, half word_pos % 2 (a case statement,
        // so synthesis builds a balanced multiplexer).
        self.squeeze_lane.next = self.perm.lanes[0].val();
        match self.word_pos.q.val().get_bits::<5>(1).index() {
            0 => self.squeeze_lane.next = self.perm.lanes[0].val(),
            1 => self.squeeze_lane.next = self.perm.lanes[1].val(),
            2 => self.squeeze_lane.next = self.perm.lanes[2].val(),
            3 => self.squeeze_lane.next = self.perm.lanes[3].val(),
            4 => self.squeeze_lane.next = self.perm.lanes[4].val(),
            5 => self.squeeze_lane.next = self.perm.lanes[5].val(),
            6 => self.squeeze_lane.next = self.perm.lanes[6].val(),
            7 => self.squeeze_lane.next = self.perm.lanes[7].val(),
            8 => self.squeeze_lane.next = self.perm.lanes[8].val(),
            9 => self.squeeze_lane.next = self.perm.lanes[9].val(),
            10 => self.squeeze_lane.next = self.perm.lanes[10].val(),
            11 => self.squeeze_lane.next = self.perm.lanes[11].val(),
            12 => self.squeeze_lane.next = self.perm.lanes[12].val(),
            13 => self.squeeze_lane.next = self.perm.lanes[13].val(),
            14 => self.squeeze_lane.next = self.perm.lanes[14].val(),
            15 => self.squeeze_lane.next = self.perm.lanes[15].val(),
            16 => self.squeeze_lane.next = self.perm.lanes[16].val(),
            17 => self.squeeze_lane.next = self.perm.lanes[17].val(),
            18 => self.squeeze_lane.next = self.perm.lanes[18].val(),
            19 => self.squeeze_lane.next = self.perm.lanes[19].val(),
            20 => self.squeeze_lane.next = self.perm.lanes[20].val(),
            _ => {}
        }
        self.squeeze_word.next = self.squeeze_lane.val().get_bits::<32>(0);
        if self.word_pos.q.val().get_bit(0) {
            self.squeeze_word.next = self.squeeze_lane.val().get_bits::<32>(32);
        }
        self.tail_lane.next = self.tail[0].q.val();
        for t in 1..TAIL_LANES {
            if self.tail_pos.q.val().get_bits::<3>(1).index() == t {
                self.tail_lane.next = self.tail[t].q.val();
            }
        }
        if self.tail_out.val() {
            self.squeeze_word.next = self.tail_lane.val().get_bits::<32>(0);
            if self.tail_pos.q.val().get_bit(0) {
                self.squeeze_word.next = self.tail_lane.val().get_bits::<32>(32);
            }
        }
        self.tail_mode.next = self.squeeze_tail.val() & (self.mode.q.val() != 3);
        self.tail_next.next =
            self.word_pos.q.val() + 1 + self.tail_words.val() == self.rate_words.val();
        self.out_past_tail.next = self.out_left.q.val() > self.tail_bytes_after.val();
        self.out_data.next = self.squeeze_word.val();
        if self.out_left.q.val() < 4 {
            match self.out_left.q.val().get_bits::<2>(0).index() {
                1 => self.out_data.next = (self.squeeze_word.val() << 24) >> 24,
                2 => self.out_data.next = (self.squeeze_word.val() << 16) >> 16,
                3 => self.out_data.next = (self.squeeze_word.val() << 8) >> 8,
                _ => {}
            }
        }

        // Chain input segments: PK.seed (n/4 words), ADRS (8), X (n/4).
        self.segment_words.next = bit_cast::<4, 3>(self.chain_lanes.q.val()) << 1;
        if self.segment.q.val() == 1 {
            self.segment_words.next = 8.into();
        }
        self.chain_last_word.next = (self.segment.q.val() == 2)
            & (self.segment_word.q.val() + 1 == self.segment_words.val());
        // ADRS with the hash address j in bytes 28..32, big-endian; the
        // PRF's block has hash address 0 and type WOTS_PRF (the kept ADRS
        // is a WOTS_HASH address, type 0).
        self.adrs_hashed.next = ((self.adrs[3].q.val() << 32) >> 32)
            | (bit_cast::<64, 8>(self.hash_address.q.val().get_bits::<8>(24)) << 32)
            | (bit_cast::<64, 8>(self.hash_address.q.val().get_bits::<8>(16)) << 40)
            | (bit_cast::<64, 8>(self.hash_address.q.val().get_bits::<8>(8)) << 48)
            | (bit_cast::<64, 8>(self.hash_address.q.val().get_bits::<8>(0)) << 56);
        // The PRF's type replaces the kept one (WOTS_HASH or FORS_TREE);
        // a FORS PRF keeps the tree index in the hash field.
        self.prf_type.next = self.prf_type_lane.val();
        if self.prf_fors.q.val() {
            self.prf_type.next = self.fors_prf_type_lane.val();
        }
        self.adrs_typed.next = self.adrs[2].q.val();
        if self.prf_step.q.val() {
            self.adrs_typed.next = ((self.adrs[2].q.val() >> 32) << 32) | self.prf_type.val();
        }
        if self.prf_step.q.val() & !self.prf_fors.q.val() {
            self.adrs_hashed.next = (self.adrs[3].q.val() << 32) >> 32;
        }
        self.chain_end.next =
            bit_cast::<33, 32>(self.arg1.val()) + bit_cast::<33, 32>(self.arg2.val());
        self.kept_op.next = (self.op.val() == self.op_chain_kept.val()) & self.kept_chain.val();
        for i in 0..4 {
            self.chain_tmp[i].next = self.perm.lanes[i].val();
            if self.perm.reloading.val() {
                self.chain_tmp[i].next = self.perm.next_lanes[i].val();
            }
        }

        // The F input block PK.seed ‖ ADRS ‖ tmp ‖ pad, tmp being the state's
        // first n bytes (X at the first step, the last F output after).
        for i in 0..25 {
            self.perm.load_lanes[i].next = 0.into();
        }
        match self.chain_lanes.q.val().index() {
            2 => {
                for i in 0..2 {
                    self.perm.load_lanes[i].next = self.pk_seed[i].q.val();
                    self.perm.load_lanes[i + 6].next = self.chain_tmp[i].val();
                }
                for i in 0..2 {
                    self.perm.load_lanes[i + 2].next = self.adrs[i].q.val();
                }
                self.perm.load_lanes[4].next = self.adrs_typed.val();
                self.perm.load_lanes[5].next = self.adrs_hashed.val();
                self.perm.load_lanes[8].next = self.chain_domain_lane.val();
            }
            3 => {
                for i in 0..3 {
                    self.perm.load_lanes[i].next = self.pk_seed[i].q.val();
                    self.perm.load_lanes[i + 7].next = self.chain_tmp[i].val();
                }
                for i in 0..2 {
                    self.perm.load_lanes[i + 3].next = self.adrs[i].q.val();
                }
                self.perm.load_lanes[5].next = self.adrs_typed.val();
                self.perm.load_lanes[6].next = self.adrs_hashed.val();
                self.perm.load_lanes[10].next = self.chain_domain_lane.val();
            }
            _ => {
                for i in 0..4 {
                    self.perm.load_lanes[i].next = self.pk_seed[i].q.val();
                    self.perm.load_lanes[i + 8].next = self.chain_tmp[i].val();
                }
                for i in 0..2 {
                    self.perm.load_lanes[i + 4].next = self.adrs[i].q.val();
                }
                self.perm.load_lanes[6].next = self.adrs_typed.val();
                self.perm.load_lanes[7].next = self.adrs_hashed.val();
                self.perm.load_lanes[12].next = self.chain_domain_lane.val();
            }
        }
        for i in 0..25 {
            if self.chain_pad_lane_index.val().index() == i {
                self.perm.load_lanes[i].next = self.chain_pad_lane.val();
            }
        }

        // Defaults.
        self.perm.start.next = false;
        self.perm.load.next = false;
        // Constant low in an engine that does not fuse, so synthesis drops
        // the permutation's reload path there.
        self.perm.reload.next = self.chain_fuse.q.val() & self.kept_chain.val();
        self.clear_r.d.next = false;
        self.perm.clear.next = self.clear_r.q.val();
        // The permutation is busy unless a clear is on its way (the clear
        // stops it on the next edge); it takes words only when neither.
        self.perm_busy.next = self.perm.busy.val() & !self.clear_r.q.val();
        self.perm_free.next = !self.perm.busy.val() & !self.clear_r.q.val();
        self.perm.xor_enable.next = false;
        self.perm.xor_word_index.next = self.word_pos.q.val();
        self.perm.xor_word.next = self.in_word.val();
        self.in_ready.next = false;
        self.chain_in_ready.next = false;
        self.out_valid.next = false;
        self.out_last.next = self.out_left.q.val() <= 4;
        self.busy.next = (self.phase.q.val() != Phase::Idle) | self.perm_busy.val();
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
        self.core_config.next = self.config_constant.val();

        match self.phase.q.val() {
            Phase::Idle => {
                if self.start.val() & !self.perm_busy.val() {
                    self.tail_active.d.next = false;
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.clear_r.d.next = true;
                    self.word_pos.d.next = 0.into();
                    self.chain_fuse.d.next = false;
                    if self.op.val() == self.op_sponge.val() {
                        self.mode.d.next = self.arg0.val().get_bits::<2>(0);
                        self.msg_left.d.next = self.arg1.val();
                        self.msg_short.d.next = self.arg1.val() < 4;
                        self.msg_four.d.next = self.arg1.val() == 4;
                        self.out_left.d.next = self.arg2.val();
                        if (self.arg0.val() >= 4) | (self.arg2.val() == 0) {
                            self.done_flag.d.next = true;
                            self.error_flag.d.next = true;
                        } else if self.arg1.val() == 0 {
                            self.phase.d.next = Phase::PadDomain;
                        } else {
                            self.phase.d.next = Phase::Absorb;
                        }
                    } else if (self.op.val() == self.op_chain.val()) | self.kept_op.val() {
                        // n is ARG0 bits 7:0 for both chain ops; the full
                        // op's bits 31:8 must be zero.
                        self.mode.d.next = self.chain_mode.val();
                        self.chain_lanes.d.next = self.arg0.val().get_bits::<3>(3);
                        self.out_left.d.next = bit_cast::<32, 8>(self.arg0.val().get_bits::<8>(0));
                        self.hash_address.d.next = self.arg1.val();
                        self.steps_left.d.next = self.arg2.val();
                        self.segment.d.next = 0.into();
                        self.segment_word.d.next = 0.into();
                        self.prf_step.d.next = false;
                        if self.kept_op.val() {
                            // X alone: PK.seed and ADRS stay; the chain
                            // address (big-endian, < 256) is byte 27, bits
                            // 31:24 of lane 3's low word.
                            self.segment.d.next = 2.into();
                            self.prf_step.d.next = self.arg0.val().get_bit(16);
                            self.prf_fors.d.next = self.arg0.val().get_bit(17);
                            self.adrs[3].d.next = ((self.adrs[3].q.val() >> 32) << 32)
                                | (bit_cast::<64, 8>(self.arg0.val().get_bits::<8>(8)) << 24);
                        }
                        if ((self.arg0.val().get_bits::<8>(0) != 16)
                            & (self.arg0.val().get_bits::<8>(0) != 24)
                            & (self.arg0.val().get_bits::<8>(0) != 32))
                            | (!self.kept_op.val() & (self.arg0.val().get_bits::<24>(8) != 0))
                            | self.chain_end.val().get_bit(32)
                        {
                            self.done_flag.d.next = true;
                            self.error_flag.d.next = true;
                        } else {
                            self.phase.d.next = Phase::ChainInput;
                        }
                    } else if self.op.val() != self.op_abort.val() {
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                }
            }
            Phase::Absorb => {
                self.in_ready.next = self.perm_free.val();
                if self.in_valid.val() & self.perm_free.val() {
                    if self.in_last.val() & !self.msg_short.q.val() & !self.msg_four.q.val() {
                        // Shorter than declared: stop at its end.
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                        self.phase.d.next = Phase::Idle;
                    } else if !self.in_last.val() & (self.msg_short.q.val() | self.msg_four.q.val())
                    {
                        // Longer than declared: drain to its end.
                        self.error_flag.d.next = true;
                        self.phase.d.next = Phase::Drain;
                    } else {
                        self.perm.xor_enable.next = true;
                        self.word_pos.d.next = self.word_pos.q.val() + 1;
                        if self.msg_short.q.val() {
                            self.msg_left.d.next = 0.into();
                            self.msg_four.d.next = false;
                            self.phase.d.next = Phase::PadFinal;
                        } else {
                            self.msg_left.d.next = self.msg_left.q.val() - 4;
                            self.msg_short.d.next = self.msg_left.q.val() < 8;
                            self.msg_four.d.next = self.msg_left.q.val() == 8;
                            if self.word_pos.q.val() + 1 == self.rate_words.val() {
                                self.perm.start.next = true;
                                self.word_pos.d.next = 0.into();
                            }
                            if self.msg_four.q.val() {
                                self.phase.d.next = Phase::PadDomain;
                            }
                        }
                    }
                }
            }
            Phase::PadDomain => {
                if self.perm_free.val() {
                    self.perm.xor_enable.next = true;
                    self.perm.xor_word.next = bit_cast::<32, 8>(self.domain.val());
                    if self.word_pos.q.val() + 1 == self.rate_words.val() {
                        self.perm.xor_word.next =
                            bit_cast::<32, 8>(self.domain.val()) | self.final_pad_word.val();
                        self.perm.start.next = true;
                        self.word_pos.d.next = 0.into();
                        self.phase.d.next = Phase::Squeeze;
                    } else {
                        self.phase.d.next = Phase::PadFinal;
                    }
                }
            }
            Phase::PadFinal => {
                if self.perm_free.val() {
                    self.perm.xor_enable.next = true;
                    self.perm.xor_word_index.next = self.rate_words.val() - 1;
                    self.perm.xor_word.next = self.final_pad_word.val();
                    self.perm.start.next = true;
                    self.word_pos.d.next = 0.into();
                    self.phase.d.next = Phase::Squeeze;
                }
            }
            Phase::Squeeze => {
                self.out_valid.next = self.perm_free.val() | self.tail_out.val();
                if self.out_ready.val() & (self.perm_free.val() | self.tail_out.val()) {
                    if self.out_left.q.val() <= 4 {
                        self.out_left.d.next = 0.into();
                        self.done_flag.d.next = true;
                        self.phase.d.next = Phase::Idle;
                    } else if self.tail_out.val() {
                        // A tail word: the state is the permutation's.
                        self.out_left.d.next = self.out_left.q.val() - 4;
                        self.tail_pos.d.next = self.tail_pos.q.val() + 1;
                        if self.tail_pos.q.val() == self.tail_last_pos.val() {
                            self.tail_active.d.next = false;
                        }
                    } else {
                        self.out_left.d.next = self.out_left.q.val() - 4;
                        self.word_pos.d.next = self.word_pos.q.val() + 1;
                        if self.word_pos.q.val() + 1 == self.rate_words.val() {
                            self.perm.start.next = true;
                            self.word_pos.d.next = 0.into();
                        }
                        if self.tail_mode.val() & self.tail_next.val() & self.out_past_tail.val() {
                            // The tail is copied on this edge, and the
                            // next block's permutation starts.
                            self.perm.start.next = true;
                            self.word_pos.d.next = 0.into();
                            self.tail_active.d.next = true;
                            self.tail_pos.d.next = 0.into();
                        }
                    }
                }
            }
            Phase::ChainInput => {
                // X goes into the state, so it waits for the start's clear
                // (a kept-prefix chain's X comes first).
                self.chain_in_ready.next = (self.segment.q.val() != 2) | self.perm_free.val();
                self.in_ready.next = self.chain_in_ready.val();
                if self.in_valid.val() & self.chain_in_ready.val() {
                    if self.in_last.val() & !self.chain_last_word.val() {
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                        self.phase.d.next = Phase::Idle;
                    } else if !self.in_last.val() & self.chain_last_word.val() {
                        self.error_flag.d.next = true;
                        self.phase.d.next = Phase::Drain;
                    } else {
                        for i in 0..4 {
                            if self.segment_word.q.val().index() == 2 * i {
                                if self.segment.q.val() == 0 {
                                    self.pk_seed[i].d.next = ((self.pk_seed[i].q.val() >> 32)
                                        << 32)
                                        | bit_cast::<64, 32>(self.in_data.val());
                                }
                                if self.segment.q.val() == 1 {
                                    self.adrs[i].d.next = ((self.adrs[i].q.val() >> 32) << 32)
                                        | bit_cast::<64, 32>(self.in_data.val());
                                }
                            }
                            if self.segment_word.q.val().index() == 2 * i + 1 {
                                if self.segment.q.val() == 0 {
                                    self.pk_seed[i].d.next = ((self.pk_seed[i].q.val() << 32)
                                        >> 32)
                                        | (bit_cast::<64, 32>(self.in_data.val()) << 32);
                                }
                                if self.segment.q.val() == 1 {
                                    self.adrs[i].d.next = ((self.adrs[i].q.val() << 32) >> 32)
                                        | (bit_cast::<64, 32>(self.in_data.val()) << 32);
                                }
                            }
                        }
                        if self.segment.q.val() == 2 {
                            // X goes straight into the (cleared) state.
                            self.perm.xor_enable.next = true;
                            self.perm.xor_word_index.next =
                                bit_cast::<6, 4>(self.segment_word.q.val());
                            self.perm.xor_word.next = self.in_data.val();
                        }
                        self.segment_word.d.next = self.segment_word.q.val() + 1;
                        if self.segment_word.q.val() + 1 == self.segment_words.val() {
                            self.segment_word.d.next = 0.into();
                            self.segment.d.next = self.segment.q.val() + 1;
                        }
                        if self.chain_last_word.val() {
                            self.chain_wait.d.next = self.kept_chain.val();
                            self.phase.d.next = Phase::ChainStep;
                        }
                    }
                }
            }
            Phase::ChainStep => {
                // A fused engine reloads the permutation with the next
                // block on the last clock of the one before; only the
                // chain's first block takes a load clock.
                if self.perm_free.val() {
                    if self.prf_step.q.val() {
                        // The PRF's block: no step of the chain.
                        self.perm.load.next = true;
                        self.perm.start.next = true;
                        self.prf_step.d.next = false;
                        self.chain_wait.d.next = false;
                        self.chain_fuse.d.next =
                            self.kept_chain.val() & (self.steps_left.q.val() != 0);
                    } else if self.steps_left.q.val() == 0 {
                        if self.chain_wait.q.val() {
                            self.chain_wait.d.next = false;
                        } else {
                            self.word_pos.d.next = 0.into();
                            self.phase.d.next = Phase::Squeeze;
                        }
                    } else {
                        self.perm.load.next = true;
                        self.perm.start.next = true;
                        self.hash_address.d.next = self.hash_address.q.val() + 1;
                        self.steps_left.d.next = self.steps_left.q.val() - 1;
                        self.chain_wait.d.next = false;
                        self.chain_fuse.d.next =
                            self.kept_chain.val() & (self.steps_left.q.val() > 1);
                    }
                } else if self.perm.reloading.val() {
                    self.hash_address.d.next = self.hash_address.q.val() + 1;
                    self.steps_left.d.next = self.steps_left.q.val() - 1;
                    self.chain_fuse.d.next = self.steps_left.q.val() > 1;
                }
            }
            Phase::Drain => {
                self.in_ready.next = true;
                if self.in_valid.val() & self.in_last.val() {
                    self.done_flag.d.next = true;
                    self.phase.d.next = Phase::Idle;
                }
            }
        }
        // Abort wins over everything, busy or not.
        if self.start.val() & (self.op.val() == self.op_abort.val()) {
            // Clearing the core also stops a permutation in progress (on the
            // next edge; `perm_busy` already reads low).
            self.clear_r.d.next = true;
            self.chain_fuse.d.next = false;
            self.tail_active.d.next = false;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.phase.d.next = Phase::Idle;
        }
        if self.reset.val() {
            self.clear_r.d.next = true;
            self.chain_fuse.d.next = false;
            self.tail_active.d.next = false;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
            self.phase.d.next = Phase::Idle;
        }
    }
}

/// `XOR_LANES` must cover every rate this engine uses.
const _: () = assert!(XOR_LANES * 8 >= SpongeMode::Shake128.rate_bytes());
