//! ML-DSA.Sign_internal (FIPS 204 Algorithm 7) for all three parameter
//! sets behind one command, the rejection loop included: sk, rnd and M′
//! (or an external μ) in on one stream, σ out on the other. The third
//! whole operation of the ML-DSA engine.
//!
//! # Streams
//!
//! Input, 32-bit little-endian words: sk (whole words for every set),
//! rnd (8 words: zero for deterministic signing), then either M′
//! (`msg_bytes` bytes, the last word padded) or, with `external_mu`, the
//! 64 bytes of μ. `last` must come on the final word and nowhere else;
//! anything else ends the job with `error`. Output: σ, its last word
//! padded with zero bytes, `last` on it.
//!
//! # Datapath
//!
//! The sequencer drives the engine's sponge engine and NTT core (slot 0
//! the accumulator, slot 1 NTT(y\[j\]) and then ĉ, slot 2 the second
//! operand), with the engine's polynomial memory ([`super::poly_memory`])
//! on the core's row port: ŷ = NTT(y), and from the first attempt
//! NTT(s1), NTT(s2), NTT(t0) and Â, each loaded back a row (8
//! coefficients) a clock. It owns: sk, σ and w1Encode(w1) buffers, a
//! memory for w, then r = w − cs2 (k polynomials), the bit unpacker, a
//! byte packer for w1 and a word packer for z (a coefficient a clock),
//! RejNTTPoly, Decompose, a modular subtractor, three ‖·‖∞ checks,
//! MakeHint and HintBitPack; SampleInBall is the engine's (`ball_*`
//! ports), shared with Verify.
//!
//! 1. sk into its buffer (ρ, K and tr into registers); rnd; μ = H(tr ‖ M′)
//!    with M′ from the stream (or μ from it); ρ″ = H(K ‖ rnd ‖ μ).
//! 2. Each attempt κ = 0, l, 2l, …:
//!    - ExpandMask: y\[j\] = γ1 − BitUnpack(H(ρ″ ‖ κ+j)) into the
//!      polynomial memory's sampling ring, a coefficient a clock, while
//!      the core loads the y before from the ring, transforms it and puts
//!      ŷ\[j\] into the polynomial memory;
//!    - w\[i\] = INTT(Σ_j Â\[i\]\[j\] ∘ ŷ\[j\]) with Â in the first
//!      attempt from the polynomial memory's sampling ring, which a
//!      sampler beside the core ([`MatrixSampler`]) fills from the end of ExpandMask (Â is
//!      kept), loaded in the others; w\[i\]
//!      stored, and HighBits(w\[i\]) into the w1 packer;
//!    - c̃ = H(μ ‖ w1Encode(w1)) into σ; c = SampleInBall(c̃); ĉ = NTT(c);
//!    - z\[j\] = INTT(ŷ\[j\] + ĉ ∘ NTT(s1\[j\])) (s1 unpacked from sk and
//!      transformed in the first attempt, kept for the others, as are
//!      NTT(s2) and NTT(t0)), ‖z\[j\]‖∞ checked and packed into σ;
//!    - for each row, r = w − INTT(ĉ ∘ NTT(s2\[i\])), ‖LowBits(r)‖∞
//!      checked and r stored; then ct0 = INTT(ĉ ∘ NTT(t0\[i\])), ‖ct0‖∞
//!      checked, and MakeHint(LowBits(r) + ct0, HighBits(r)) into
//!      HintBitPack, which counts the ones against ω;
//!    - any failed check rejects the attempt (all run, every time).
//! 3. The hint encoding into σ; σ out.
//!
//! # Timing
//!
//! Every attempt after the first runs the same steps for the same number
//! of clocks; the first also samples Â (RejNTTPoly's rejections of the
//! public ρ) and unpacks and transforms s1, s2 and t0, a fixed number of
//! clocks. Beyond that only SampleInBall's rejections vary. SampleInBall
//! reads c̃, which is public only for the attempt that is kept, so its
//! phase lasts at least [`CHALLENGE_CLOCKS`] clocks: it ends later than
//! that only when it needs a second SHAKE256 block, which the tests never
//! met. The number of attempts is public (FIPS 204 §3.6.2). The secret
//! data (s1, s2, t0, K, y, w, c of a rejected attempt) moves through
//! fixed-rate units; no transition reads it except the final reject flag.
//!
//! # Interface
//!
//! `start` (taken when idle) with `parameter_set` (0, 1, 2), `external_mu`
//! and `msg_bytes` (below 2^24); set 3 or a longer message is refused at
//! once with `done` and `error`. `busy` until σ has gone out, then `done`;
//! `error` for a wrong stream length, a core error, an sk whose s1 or s2
//! has a coefficient out of range, or [`MAX_ATTEMPTS`] rejected attempts.
//! `attempts` counts the attempts of the last signature. `abort_job`
//! returns to idle from any state with `done` and `error`.

use crate::mldsa::bit_pack::{BytePacker, WordPacker};
use crate::mldsa::bit_unpack::BitUnpacker;
use crate::mldsa::c;
use crate::mldsa::coeffwise::{InfNormCheck, MakeHint, ModAddSub};
use crate::mldsa::decompose::{Decompose, DECOMPOSE_LATENCY};
use crate::mldsa::expand_a::SQUEEZE_BYTES;
use crate::mldsa::hint_codec::HintPacker;
use crate::mldsa::key_buffer::KeyBuffer;
use crate::mldsa::keygen::SETS;
use crate::mldsa::matrix_sampler::MatrixSampler;
use crate::mldsa::poly_memory::RING_FIRST_POLY;
use crate::ntt::core::{OP_LOAD_ROWS, OP_STORE_ROWS};
use pqc::mldsa::params::Params;
use ps_pl_contract::regmap::{keccak as kregs, ntt as nregs};
use rust_hdl::prelude::*;

/// Words of μ (and of tr, which μ overwrites once absorbed).
const MU_WORDS: usize = 16;
/// Minimum clocks of the SampleInBall phase (see the module docs): more
/// than absorbing c̃, one permutation and the whole first output block.
pub const CHALLENGE_CLOCKS: usize = 232;
/// Attempts before signing gives up (as `pqc`).
pub const MAX_ATTEMPTS: usize = pqc::mldsa::MAX_SIGN_ATTEMPTS;
/// Messages of this many bytes or more are refused.
pub const MAX_MSG_BYTES: u64 = ps_pl_contract::regmap::mldsa::VERIFY_MAX_MSG_BYTES as u64;
/// Words of t0\[i\] in sk (13 bits a coefficient).
const T0_WORDS: u64 = 104;
// The refusal tests bits 31..24 of `msg_bytes`.
const _: () = assert!(MAX_MSG_BYTES == 1 << 24);
// The pipelines beside Decompose are written out for 3 stages.
const _: () = assert!(DECOMPOSE_LATENCY == 3);
const _: () = assert!(MAX_ATTEMPTS < 1 << 10);
const _: () = assert!(CHALLENGE_CLOCKS < 1 << 9);

/// Phases of signing.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum SignPhase {
    /// Waiting for `start`.
    Idle,
    /// sk into its buffer.
    LoadSk,
    /// rnd into registers.
    LoadRnd,
    /// μ = H(tr ‖ M′), or μ from the stream.
    Mu,
    /// ρ″ = H(K ‖ rnd ‖ μ).
    RhoPrime,
    /// y\[col\] from the sampling ring into slot 1 (ExpandMask fills
    /// the ring beside the phases).
    Mask,
    /// NTT of slot 1.
    MaskNtt,
    /// Slot 1 into the ŷ memory.
    MaskStore,
    /// ŷ\[col\] into slot 1.
    LoadY,
    /// Â\[row\]\[col\] into slot 2: in the first attempt from the
    /// sampling ring (waiting for the sampler if it is not there yet), in
    /// the others by way of [`SignPhase::LoadARows`].
    LoadA,
    /// Slot 2 (Â\[row\]\[col\]) into the polynomial memory (first attempt).
    StoreARows,
    /// Â\[row\]\[col\] from the polynomial memory into slot 2 (later
    /// attempts).
    LoadARows,
    /// Slot 0 (+)= slot 1 ∘ slot 2.
    MulAy,
    /// INTT of slot 0 (w\[row\]).
    InttW,
    /// w\[row\] into the w memory and HighBits into the w1 packer.
    StoreW,
    /// c̃ = H(μ ‖ w1Encode(w1)) into σ.
    Commit,
    /// c = SampleInBall(c̃).
    Challenge,
    /// c into slot 1.
    LoadC,
    /// NTT of slot 1 (ĉ, kept for the attempt).
    NttC,
    /// s1\[col\], s2\[row\] or t0\[row\] (by `stage`) into slot 2.
    LoadS,
    /// NTT of slot 2.
    NttS,
    /// Slot 2 into the polynomial memory (first attempt).
    StoreSRows,
    /// NTT(s1\[col\]), NTT(s2\[row\]) or NTT(t0\[row\]) from the
    /// polynomial memory into slot 2 (later attempts).
    LoadSRows,
    /// ŷ\[col\] into slot 0.
    LoadYAcc,
    /// Slot 0 (+)= ĉ ∘ slot 2.
    MulCs,
    /// INTT of slot 0.
    InttCs,
    /// z\[col\]: checked and packed into σ.
    StoreZ,
    /// r = w\[row\] − cs2: LowBits checked, r stored.
    StoreR,
    /// ct0: checked, MakeHint into HintBitPack.
    StoreH,
    /// Keep the attempt or start the next.
    Decide,
    /// The hint encoding into σ.
    PackHints,
    /// σ out.
    Output,
}

/// The Sign sequencer (its cores are [`super::engine::MlDsaEngine`]'s).
#[derive(LogicBlock)]
pub struct MlDsaSign {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Start a signature (taken when idle).
    pub start: Signal<In, Bit>,
    /// Parameter set: 0, 1, 2 for ML-DSA-44, -65, -87.
    pub parameter_set: Signal<In, Bits<2>>,
    /// μ comes on the stream instead of M′.
    pub external_mu: Signal<In, Bit>,
    /// Length of M′ in bytes (ignored with `external_mu`).
    pub msg_bytes: Signal<In, Bits<32>>,
    /// Abandon the signature (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// A signature is being made.
    pub busy: Signal<Out, Bit>,
    /// The last signature ended (until the next start).
    pub done: Signal<Out, Bit>,
    /// It ended with an error.
    pub error: Signal<Out, Bit>,
    /// Attempts of the last signature (the accepted one included).
    pub attempts: Signal<Out, Bits<10>>,
    /// Input stream TDATA: sk ‖ rnd ‖ (M′ or μ).
    pub s_data: Signal<In, Bits<32>>,
    /// Input stream TVALID.
    pub s_valid: Signal<In, Bit>,
    /// Input stream TLAST.
    pub s_last: Signal<In, Bit>,
    /// Input stream TREADY.
    pub s_ready: Signal<Out, Bit>,
    /// Output stream TDATA: σ.
    pub m_data: Signal<Out, Bits<32>>,
    /// Output stream TVALID.
    pub m_valid: Signal<Out, Bit>,
    /// Output stream TLAST.
    pub m_last: Signal<Out, Bit>,
    /// Output stream TREADY.
    pub m_ready: Signal<In, Bit>,
    /// To the sponge: reset.
    pub sponge_reset: Signal<Out, Bit>,
    /// To the sponge: start a request.
    pub sponge_start: Signal<Out, Bit>,
    /// To the sponge: op code.
    pub sponge_op: Signal<Out, Bits<8>>,
    /// To the sponge: ARG0.
    pub sponge_arg0: Signal<Out, Bits<32>>,
    /// To the sponge: ARG1.
    pub sponge_arg1: Signal<Out, Bits<32>>,
    /// To the sponge: ARG2.
    pub sponge_arg2: Signal<Out, Bits<32>>,
    /// To the sponge: input stream word.
    pub sponge_in_data: Signal<Out, Bits<32>>,
    /// To the sponge: input stream valid.
    pub sponge_in_valid: Signal<Out, Bit>,
    /// To the sponge: input stream last.
    pub sponge_in_last: Signal<Out, Bit>,
    /// To the sponge: output stream ready.
    pub sponge_out_ready: Signal<Out, Bit>,
    /// From the sponge: done.
    pub sponge_done: Signal<In, Bit>,
    /// From the sponge: error.
    pub sponge_error: Signal<In, Bit>,
    /// From the sponge: input stream ready.
    pub sponge_in_ready: Signal<In, Bit>,
    /// From the sponge: output stream word.
    pub sponge_out_data: Signal<In, Bits<32>>,
    /// From the sponge: output stream valid.
    pub sponge_out_valid: Signal<In, Bit>,
    /// To the NTT core: reset.
    pub ntt_reset: Signal<Out, Bit>,
    /// To the NTT core: start an operation.
    pub ntt_start: Signal<Out, Bit>,
    /// To the NTT core: op code.
    pub ntt_op: Signal<Out, Bits<8>>,
    /// To the NTT core: ARG0.
    pub ntt_arg0: Signal<Out, Bits<32>>,
    /// To the NTT core: ARG1.
    pub ntt_arg1: Signal<Out, Bits<32>>,
    /// To the NTT core: ARG2.
    pub ntt_arg2: Signal<Out, Bits<32>>,
    /// To the NTT core: LOAD stream word.
    pub ntt_s_tdata: Signal<Out, Bits<32>>,
    /// To the NTT core: LOAD stream valid.
    pub ntt_s_tvalid: Signal<Out, Bit>,
    /// To the NTT core: LOAD stream last.
    pub ntt_s_tlast: Signal<Out, Bit>,
    /// To the NTT core: STORE stream ready.
    pub ntt_m_tready: Signal<Out, Bit>,
    /// From the NTT core: done.
    pub ntt_done: Signal<In, Bit>,
    /// From the NTT core: error.
    pub ntt_error: Signal<In, Bit>,
    /// From the NTT core: LOAD stream ready.
    pub ntt_s_tready: Signal<In, Bit>,
    /// From the NTT core: STORE stream word.
    pub ntt_m_tdata: Signal<In, Bits<32>>,
    /// From the NTT core: STORE stream valid.
    pub ntt_m_tvalid: Signal<In, Bit>,
    /// To the polynomial memory: where the core's stored rows go.
    pub pm_store_poly: Signal<Out, Bits<7>>,
    /// To the polynomial memory: which polynomial the core loads.
    pub pm_load_poly: Signal<Out, Bits<7>>,
    /// To the polynomial memory: a sampled coefficient into the ring.
    pub pm_coeff_write: Signal<Out, Bit>,
    /// To the polynomial memory: its ring slot.
    pub pm_coeff_slot: Signal<Out, Bits<4>>,
    /// To the polynomial memory: its index (load order).
    pub pm_coeff_index: Signal<Out, Bits<8>>,
    /// To the polynomial memory: the coefficient.
    pub pm_coeff_data: Signal<Out, Bits<23>>,
    /// To the engine's SampleInBall: start (clear c, sample τ positions).
    pub ball_start: Signal<Out, Bit>,
    /// To SampleInBall: τ.
    pub ball_tau: Signal<Out, Bits<7>>,
    /// To SampleInBall: the next byte of c̃'s SHAKE256 stream.
    pub ball_data: Signal<Out, Bits<8>>,
    /// To SampleInBall: `ball_data` is valid.
    pub ball_data_valid: Signal<Out, Bit>,
    /// To SampleInBall: the index of the coefficient of c to read.
    pub ball_read_index: Signal<Out, Bits<8>>,
    /// From SampleInBall: it takes `ball_data` this clock.
    pub ball_data_ready: Signal<In, Bit>,
    /// From SampleInBall: c is complete.
    pub ball_done: Signal<In, Bit>,
    /// From SampleInBall: c\[`ball_read_index`\] of the previous clock.
    pub ball_coeff: Signal<In, Bits<23>>,
    unpacker: BitUnpacker,
    /// ExpandA into the sampling ring.
    matrix: MatrixSampler,
    decompose: Decompose,
    subtract: ModAddSub,
    z_norm: InfNormCheck,
    r0_norm: InfNormCheck,
    ct0_norm: InfNormCheck,
    make_hint: MakeHint,
    hints: HintPacker,
    w1_packer: BytePacker,
    z_packer: WordPacker,
    sk_buf: KeyBuffer<11, 13>,
    sig_buf: KeyBuffer<11, 13>,
    w1_buf: KeyBuffer<8, 10>,
    w_mem: RAM<Bits<23>, 11>,
    rho: [DFF<Bits<32>>; 8],
    key: [DFF<Bits<32>>; 8],
    rnd: [DFF<Bits<32>>; 8],
    mu: [DFF<Bits<32>>; MU_WORDS],
    rho_prime: [DFF<Bits<32>>; MU_WORDS],
    phase: DFF<SignPhase>,
    launched: DFF<Bit>,
    /// ExpandMask is producing this attempt's y into the ring.
    mask_on: DFF<Bit>,
    /// Its sponge request for y\[mask_col\] runs.
    mask_launched: DFF<Bit>,
    mask_col: DFF<Bits<4>>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    // Parameter-set values, latched at start.
    external: DFF<Bit>,
    k: DFF<Bits<4>>,
    l: DFF<Bits<4>>,
    wide: DFF<Bit>,
    tau: DFF<Bits<7>>,
    omega: DFF<Bits<7>>,
    eta: DFF<Bits<23>>,
    eta_bits: DFF<Bits<5>>,
    eta_max: DFF<Bits<20>>,
    gamma1: DFF<Bits<23>>,
    gamma1_bits: DFF<Bits<5>>,
    z_bound: DFF<Bits<24>>,
    r0_bound: DFF<Bits<24>>,
    gamma2: DFF<Bits<24>>,
    w1_bits: DFF<Bits<5>>,
    ct_words: DFF<Bits<5>>,
    s_words: DFF<Bits<8>>,
    s2_base: DFF<Bits<11>>,
    t0_base: DFF<Bits<11>>,
    sk_words: DFF<Bits<11>>,
    sig_last: DFF<Bits<11>>,
    sig_last_mask: DFF<Bits<32>>,
    w1_words: DFF<Bits<9>>,
    hint_base: DFF<Bits<13>>,
    mask_bytes: DFF<Bits<11>>,
    msg_len: DFF<Bits<24>>,
    in_words: DFF<Bits<24>>,
    // Last-word indices, latched so no adder sits in front of a compare.
    mu_end: DFF<Bits<24>>,
    mu_last: DFF<Bits<24>>,
    sk_last: DFF<Bits<24>>,
    ct_last: DFF<Bits<24>>,
    commit_end: DFF<Bits<24>>,
    commit_last: DFF<Bits<24>>,
    // Loop state.
    kappa: DFF<Bits<16>>,
    attempt_count: DFF<Bits<10>>,
    stage: DFF<Bits<2>>,
    row: DFF<Bits<4>>,
    col: DFF<Bits<4>>,
    count: DFF<Bits<9>>,
    pad: DFF<Bits<9>>,
    words_in: DFF<Bits<24>>,
    rd_ptr: DFF<Bits<11>>,
    words_left: DFF<Bits<8>>,
    s1_ptr: DFF<Bits<11>>,
    s2_ptr: DFF<Bits<11>>,
    t0_ptr: DFF<Bits<11>>,
    w1_ptr: DFF<Bits<10>>,
    sig_ptr: DFF<Bits<13>>,
    out_index: DFF<Bits<11>>,
    primed: DFF<Bit>,
    ser_word: DFF<Bits<32>>,
    ser_left: DFF<Bits<3>>,
    stopped: DFF<Bit>,
    reject: DFF<Bit>,
    sk_bad: DFF<Bit>,
    z_checking: DFF<Bit>,
    // The store pipeline: valid bits, the word taken from the core (and
    // StoreZ's hold flag), the w word read beside it, addresses.
    pipe: [DFF<Bit>; 7],
    store_word: DFF<Bits<23>>,
    hold_valid: DFF<Bit>,
    w_s0: DFF<Bits<23>>,
    addr_s0: DFF<Bits<8>>,
    // LoadY's registered ŷ word (a block-RAM read straight into the core's
    // range check was the worst path).
    // The sponge's input word goes through a register (the sources include
    // block-RAM reads, and the sponge absorbs its input straight into the
    // state).
    feed_word: DFF<Bits<32>>,
    // The unpacker's field, set when a load starts (a phase decode in
    // front of the unpacker was the worst path).
    unpack_width: DFF<Bits<5>>,
    unpack_offset: DFF<Bits<23>>,
    unpack_max: DFF<Bits<20>>,
    feed_valid: DFF<Bit>,
    feed_last: DFF<Bit>,
    addr_s1: DFF<Bits<8>>,
    ct0_s1: DFF<Bits<23>>,
    v_pipe: [DFF<Bits<25>>; DECOMPOSE_LATENCY],
    a0: DFF<Bits<25>>,
    a1: DFF<Bits<6>>,
    // Combinational.
    rd_next: Signal<Local, Bits<11>>,
    ser_byte: Signal<Local, Bits<8>>,
    ser_byte_pair: Signal<Local, Bits<8>>,
    ser_valid: Signal<Local, Bit>,
    ser_take: Signal<Local, Bit>,
    ser_take_pair: Signal<Local, Bit>,
    ser_load: Signal<Local, Bit>,
    ser_room: Signal<Local, Bit>,
    mu_word: Signal<Local, Bits<32>>,
    c_ring_first: Constant<Bits<7>>,
    key_word: Signal<Local, Bits<32>>,
    rnd_word: Signal<Local, Bits<32>>,
    rho_prime_word: Signal<Local, Bits<32>>,
    stream_take: Signal<Local, Bit>,
    last_expected: Signal<Local, Bit>,
    store_take: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<9>>,
    out_next: Signal<Local, Bits<11>>,
    pipe_busy: Signal<Local, Bit>,
    pack_take: Signal<Local, Bit>,
    feed_data: Signal<Local, Bits<32>>,
    feed_valid_in: Signal<Local, Bit>,
    feed_last_in: Signal<Local, Bit>,
    feed_room: Signal<Local, Bit>,
    feed_take: Signal<Local, Bit>,
    ct0_centred: Signal<Local, Bits<25>>,
    r0_signed: Signal<Local, Bits<25>>,
    fail: Signal<Local, Bit>,
    msg_words: Signal<Local, Bits<32>>,
    msg_end: Signal<Local, Bits<32>>,
    msg_last: Signal<Local, Bits<32>>,
    c_op_sponge: Constant<Bits<8>>,
    c_op_abort: Constant<Bits<8>>,
    c_shake256: Constant<Bits<32>>,
    c_squeeze: Constant<Bits<32>>,
    c_op_load: Constant<Bits<8>>,
    c_op_store: Constant<Bits<8>>,
    c_op_store_rows: Constant<Bits<8>>,
    c_op_load_rows: Constant<Bits<8>>,
    c_op_ntt: Constant<Bits<8>>,
    c_op_intt: Constant<Bits<8>>,
    c_op_pwm: Constant<Bits<8>>,
    c_op_pwmac: Constant<Bits<8>>,
    c_ntt_abort: Constant<Bits<8>>,
    c_q: Constant<Bits<25>>,
    c_half_q: Constant<Bits<23>>,
    c_sign_bit: Constant<Bits<25>>,
    c_max_attempts: Constant<Bits<10>>,
    c_challenge_clocks: Constant<Bits<9>>,
    c_t0_words: Constant<Bits<8>>,
    c_set_k: [Constant<Bits<4>>; 3],
    c_set_l: [Constant<Bits<4>>; 3],
    c_set_tau: [Constant<Bits<7>>; 3],
    c_set_omega: [Constant<Bits<7>>; 3],
    c_set_eta: [Constant<Bits<23>>; 3],
    c_set_eta_bits: [Constant<Bits<5>>; 3],
    c_set_eta_max: [Constant<Bits<20>>; 3],
    c_set_gamma1: [Constant<Bits<23>>; 3],
    c_set_gamma1_bits: [Constant<Bits<5>>; 3],
    c_set_z_bound: [Constant<Bits<24>>; 3],
    c_set_r0_bound: [Constant<Bits<24>>; 3],
    c_set_gamma2: [Constant<Bits<24>>; 3],
    c_set_w1_bits: [Constant<Bits<5>>; 3],
    c_set_ct_words: [Constant<Bits<5>>; 3],
    c_set_s_words: [Constant<Bits<8>>; 3],
    c_set_s2_base: [Constant<Bits<11>>; 3],
    c_set_t0_base: [Constant<Bits<11>>; 3],
    c_set_sk_words: [Constant<Bits<11>>; 3],
    c_set_sig_last: [Constant<Bits<11>>; 3],
    c_set_sig_last_mask: [Constant<Bits<32>>; 3],
    c_set_w1_words: [Constant<Bits<9>>; 3],
    c_set_hint_base: [Constant<Bits<13>>; 3],
    c_set_mask_bytes: [Constant<Bits<11>>; 3],
    c_set_sk_last: [Constant<Bits<24>>; 3],
    c_set_ct_last: [Constant<Bits<24>>; 3],
    c_set_commit_end: [Constant<Bits<24>>; 3],
    c_set_commit_last: [Constant<Bits<24>>; 3],
}

/// Words of the σ output stream (σ padded to a word).
pub const fn sig_stream_words(p: &Params) -> usize {
    p.sig_len().div_ceil(4)
}

/// The input stream of a signature as words: sk ‖ rnd ‖ tail (M′ or μ).
pub fn sign_stream(sk: &[u8], rnd: &[u8; 32], tail: &[u8]) -> Vec<u32> {
    super::verify::verify_stream(sk, rnd, tail)
}

impl Default for MlDsaSign {
    fn default() -> Self {
        let z_poly = |p: &Params| Params::poly_bytes(p.gamma1_bits());
        let s_words = |p: &Params| Params::poly_bytes(p.eta_bits()) / 4;
        let last_mask = |p: &Params| match p.sig_len() % 4 {
            0 => 0xFFFF_FFFF,
            r => (1u64 << (8 * r)) - 1,
        };
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            parameter_set: Default::default(),
            external_mu: Default::default(),
            msg_bytes: Default::default(),
            abort_job: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            attempts: Default::default(),
            s_data: Default::default(),
            s_valid: Default::default(),
            s_last: Default::default(),
            s_ready: Default::default(),
            m_data: Default::default(),
            m_valid: Default::default(),
            m_last: Default::default(),
            m_ready: Default::default(),
            sponge_reset: Default::default(),
            sponge_start: Default::default(),
            sponge_op: Default::default(),
            sponge_arg0: Default::default(),
            sponge_arg1: Default::default(),
            sponge_arg2: Default::default(),
            sponge_in_data: Default::default(),
            sponge_in_valid: Default::default(),
            sponge_in_last: Default::default(),
            sponge_out_ready: Default::default(),
            sponge_done: Default::default(),
            sponge_error: Default::default(),
            sponge_in_ready: Default::default(),
            sponge_out_data: Default::default(),
            sponge_out_valid: Default::default(),
            ntt_reset: Default::default(),
            ntt_start: Default::default(),
            ntt_op: Default::default(),
            ntt_arg0: Default::default(),
            ntt_arg1: Default::default(),
            ntt_arg2: Default::default(),
            ntt_s_tdata: Default::default(),
            ntt_s_tvalid: Default::default(),
            ntt_s_tlast: Default::default(),
            ntt_m_tready: Default::default(),
            ntt_done: Default::default(),
            ntt_error: Default::default(),
            ntt_s_tready: Default::default(),
            ntt_m_tdata: Default::default(),
            ntt_m_tvalid: Default::default(),
            pm_store_poly: Default::default(),
            pm_load_poly: Default::default(),
            pm_coeff_write: Default::default(),
            pm_coeff_slot: Default::default(),
            pm_coeff_index: Default::default(),
            pm_coeff_data: Default::default(),
            unpacker: Default::default(),
            ball_start: Default::default(),
            ball_tau: Default::default(),
            ball_data: Default::default(),
            ball_data_valid: Default::default(),
            ball_read_index: Default::default(),
            ball_data_ready: Default::default(),
            ball_done: Default::default(),
            ball_coeff: Default::default(),
            matrix: Default::default(),
            decompose: Default::default(),
            subtract: Default::default(),
            z_norm: Default::default(),
            r0_norm: Default::default(),
            ct0_norm: Default::default(),
            make_hint: Default::default(),
            hints: Default::default(),
            w1_packer: Default::default(),
            z_packer: Default::default(),
            sk_buf: Default::default(),
            sig_buf: Default::default(),
            w1_buf: Default::default(),
            w_mem: Default::default(),
            rho: Default::default(),
            key: Default::default(),
            rnd: Default::default(),
            mu: Default::default(),
            rho_prime: Default::default(),
            phase: Default::default(),
            launched: Default::default(),
            mask_on: Default::default(),
            mask_launched: Default::default(),
            mask_col: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            external: Default::default(),
            k: Default::default(),
            l: Default::default(),
            wide: Default::default(),
            tau: Default::default(),
            omega: Default::default(),
            eta: Default::default(),
            eta_bits: Default::default(),
            eta_max: Default::default(),
            gamma1: Default::default(),
            gamma1_bits: Default::default(),
            z_bound: Default::default(),
            r0_bound: Default::default(),
            gamma2: Default::default(),
            w1_bits: Default::default(),
            ct_words: Default::default(),
            s_words: Default::default(),
            s2_base: Default::default(),
            t0_base: Default::default(),
            sk_words: Default::default(),
            sig_last: Default::default(),
            sig_last_mask: Default::default(),
            w1_words: Default::default(),
            hint_base: Default::default(),
            mask_bytes: Default::default(),
            msg_len: Default::default(),
            in_words: Default::default(),
            mu_end: Default::default(),
            mu_last: Default::default(),
            sk_last: Default::default(),
            ct_last: Default::default(),
            commit_end: Default::default(),
            commit_last: Default::default(),
            kappa: Default::default(),
            attempt_count: Default::default(),
            stage: Default::default(),
            row: Default::default(),
            col: Default::default(),
            count: Default::default(),
            pad: Default::default(),
            words_in: Default::default(),
            rd_ptr: Default::default(),
            words_left: Default::default(),
            s1_ptr: Default::default(),
            s2_ptr: Default::default(),
            t0_ptr: Default::default(),
            w1_ptr: Default::default(),
            sig_ptr: Default::default(),
            out_index: Default::default(),
            primed: Default::default(),
            ser_word: Default::default(),
            ser_left: Default::default(),
            stopped: Default::default(),
            reject: Default::default(),
            sk_bad: Default::default(),
            z_checking: Default::default(),
            pipe: Default::default(),
            store_word: Default::default(),
            hold_valid: Default::default(),
            w_s0: Default::default(),
            addr_s0: Default::default(),
            feed_word: Default::default(),
            unpack_width: Default::default(),
            unpack_offset: Default::default(),
            unpack_max: Default::default(),
            feed_valid: Default::default(),
            feed_last: Default::default(),
            addr_s1: Default::default(),
            ct0_s1: Default::default(),
            v_pipe: Default::default(),
            a0: Default::default(),
            a1: Default::default(),
            rd_next: Default::default(),
            ser_byte: Default::default(),
            ser_byte_pair: Default::default(),
            ser_valid: Default::default(),
            ser_take: Default::default(),
            ser_take_pair: Default::default(),
            ser_load: Default::default(),
            ser_room: Default::default(),
            mu_word: Default::default(),
            c_ring_first: Constant::new((RING_FIRST_POLY as u64).into()),
            key_word: Default::default(),
            rnd_word: Default::default(),
            rho_prime_word: Default::default(),
            stream_take: Default::default(),
            last_expected: Default::default(),
            store_take: Default::default(),
            count_next: Default::default(),
            out_next: Default::default(),
            pipe_busy: Default::default(),
            pack_take: Default::default(),
            feed_data: Default::default(),
            feed_valid_in: Default::default(),
            feed_last_in: Default::default(),
            feed_room: Default::default(),
            feed_take: Default::default(),
            ct0_centred: Default::default(),
            r0_signed: Default::default(),
            fail: Default::default(),
            msg_words: Default::default(),
            msg_end: Default::default(),
            msg_last: Default::default(),
            c_op_sponge: c(kregs::OP_SPONGE as u64),
            c_op_abort: c(kregs::OP_ABORT as u64),
            c_shake256: c(kregs::MODE_SHAKE256 as u64),
            c_squeeze: c(u64::from(SQUEEZE_BYTES)),
            c_op_load: c(nregs::OP_LOAD as u64),
            c_op_store: c(nregs::OP_STORE as u64),
            c_op_store_rows: c(OP_STORE_ROWS as u64),
            c_op_load_rows: c(OP_LOAD_ROWS as u64),
            c_op_ntt: c(nregs::OP_NTT as u64),
            c_op_intt: c(nregs::OP_INTT as u64),
            c_op_pwm: c(nregs::OP_PWM as u64),
            c_op_pwmac: c(nregs::OP_PWMAC as u64),
            c_ntt_abort: c(nregs::OP_ABORT as u64),
            c_q: c(pqc::ring::Q as u64),
            c_half_q: c((pqc::ring::Q as u64 - 1) / 2),
            c_sign_bit: c(1 << 24),
            c_max_attempts: c(MAX_ATTEMPTS as u64),
            c_challenge_clocks: c(CHALLENGE_CLOCKS as u64),
            c_t0_words: c(T0_WORDS),
            c_set_k: SETS.map(|p| c(p.k as u64)),
            c_set_l: SETS.map(|p| c(p.l as u64)),
            c_set_tau: SETS.map(|p| c(p.tau as u64)),
            c_set_omega: SETS.map(|p| c(p.omega as u64)),
            c_set_eta: SETS.map(|p| c(p.eta as u64)),
            c_set_eta_bits: SETS.map(|p| c(p.eta_bits() as u64)),
            c_set_eta_max: SETS.map(|p| c(2 * p.eta as u64)),
            c_set_gamma1: SETS.map(|p| c(p.gamma1 as u64)),
            c_set_gamma1_bits: SETS.map(|p| c(p.gamma1_bits() as u64)),
            c_set_z_bound: SETS.map(|p| c((p.gamma1 - p.beta()) as u64)),
            c_set_r0_bound: SETS.map(|p| c((p.gamma2 - p.beta()) as u64)),
            c_set_gamma2: SETS.map(|p| c(p.gamma2 as u64)),
            c_set_w1_bits: SETS.map(|p| c(p.w1_bits() as u64)),
            c_set_ct_words: SETS.map(|p| c(p.ctilde_bytes() as u64 / 4)),
            c_set_s_words: SETS.map(|p| c(s_words(&p) as u64)),
            c_set_s2_base: SETS.map(|p| c((32 + p.l * s_words(&p)) as u64)),
            c_set_t0_base: SETS.map(|p| c((32 + (p.l + p.k) * s_words(&p)) as u64)),
            c_set_sk_words: SETS.map(|p| c(p.sk_len() as u64 / 4)),
            c_set_sig_last: SETS.map(|p| c(sig_stream_words(&p) as u64 - 1)),
            c_set_sig_last_mask: SETS.map(|p| c(last_mask(&p))),
            c_set_w1_words: SETS.map(|p| c(p.w1_packed_len() as u64 / 4)),
            c_set_hint_base: SETS.map(|p| c((p.ctilde_bytes() + p.l * z_poly(&p)) as u64)),
            c_set_mask_bytes: SETS.map(|p| c(z_poly(&p) as u64)),
            c_set_sk_last: SETS.map(|p| c(p.sk_len() as u64 / 4 - 1)),
            c_set_ct_last: SETS.map(|p| c(p.ctilde_bytes() as u64 / 4 - 1)),
            c_set_commit_end: SETS.map(|p| c((MU_WORDS + p.w1_packed_len() / 4) as u64)),
            c_set_commit_last: SETS.map(|p| c((MU_WORDS + p.w1_packed_len() / 4) as u64 - 1)),
        }
    }
}

impl Logic for MlDsaSign {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            launched,
            mask_on,
            mask_launched,
            mask_col,
            done_flag,
            error_flag,
            external,
            k,
            l,
            wide,
            tau,
            omega,
            eta,
            eta_bits,
            eta_max,
            gamma1,
            gamma1_bits,
            z_bound,
            r0_bound,
            gamma2,
            w1_bits,
            ct_words,
            s_words,
            s2_base,
            t0_base,
            sk_words,
            sig_last,
            sig_last_mask,
            w1_words,
            hint_base,
            mask_bytes,
            msg_len,
            in_words,
            mu_end,
            mu_last,
            sk_last,
            ct_last,
            commit_end,
            commit_last,
            kappa,
            attempt_count,
            stage,
            row,
            col,
            count,
            pad,
            words_in,
            rd_ptr,
            words_left,
            s1_ptr,
            s2_ptr,
            t0_ptr,
            w1_ptr,
            sig_ptr,
            out_index,
            primed,
            ser_word,
            ser_left,
            stopped,
            reject,
            sk_bad,
            z_checking,
            store_word,
            hold_valid,
            w_s0,
            addr_s0,
            feed_word,
            unpack_width,
            unpack_offset,
            unpack_max,
            feed_valid,
            feed_last,
            addr_s1,
            ct0_s1,
            a0,
            a1
        );
        for w in 0..8 {
            self.rho[w].clock.next = self.clock.val();
            self.rho[w].d.next = self.rho[w].q.val();
            self.key[w].clock.next = self.clock.val();
            self.key[w].d.next = self.key[w].q.val();
            self.rnd[w].clock.next = self.clock.val();
            self.rnd[w].d.next = self.rnd[w].q.val();
        }
        for w in 0..MU_WORDS {
            self.mu[w].clock.next = self.clock.val();
            self.mu[w].d.next = self.mu[w].q.val();
            self.rho_prime[w].clock.next = self.clock.val();
            self.rho_prime[w].d.next = self.rho_prime[w].q.val();
        }
        for s in 0..7 {
            self.pipe[s].clock.next = self.clock.val();
        }
        for s in 0..3 {
            self.v_pipe[s].clock.next = self.clock.val();
        }
        clock!(
            self, clock, unpacker, matrix, decompose, subtract, z_norm, r0_norm, ct0_norm,
            make_hint, hints, w1_packer, z_packer, sk_buf, sig_buf, w1_buf
        );
        self.w_mem.read_clock.next = self.clock.val();
        self.w_mem.write_clock.next = self.clock.val();

        // ---- The serializer's output bytes (see below).
        self.ser_byte.next = self.ser_word.q.val().get_bits::<8>(0);
        self.ser_byte_pair.next = self.ser_word.q.val().get_bits::<8>(8);
        self.ser_valid.next = self.ser_left.q.val() != 0;
        self.ser_room.next = false;
        self.ser_take.next = false;
        self.ser_take_pair.next = false;
        self.ser_load.next = false;
        self.rd_next.next = self.rd_ptr.q.val();
        self.count_next.next = self.count.q.val();
        self.out_next.next = self.out_index.q.val();

        // ---- Defaults: no requests, no stream traffic, no writes.
        self.sponge_reset.next = self.reset.val();
        self.sponge_start.next = false;
        self.sponge_op.next = self.c_op_sponge.val();
        self.sponge_arg0.next = self.c_shake256.val();
        self.sponge_arg1.next = 0.into();
        self.sponge_arg2.next = 64.into();
        // The phases offer the next input word on `feed_*`; it is taken
        // (`feed_take`) when the register is empty or being emptied.
        self.feed_data.next = self.s_data.val();
        self.feed_valid_in.next = false;
        self.feed_last_in.next = false;
        self.feed_room.next = !self.feed_valid.q.val() | self.sponge_in_ready.val();
        self.feed_take.next = false;
        self.sponge_out_ready.next = false;
        self.ntt_reset.next = self.reset.val();
        self.ntt_start.next = false;
        self.ntt_op.next = self.c_op_load.val();
        self.ntt_arg0.next = 0.into();
        self.ntt_arg1.next = 1.into();
        self.ntt_arg2.next = 2.into();
        self.ntt_s_tvalid.next = false;
        self.ntt_s_tlast.next = self.count.q.val() == 255;
        self.ntt_s_tdata.next = bit_cast::<32, 23>(self.unpacker.coeff.val());
        self.ntt_m_tready.next = false;
        self.unpacker.reset.next = self.reset.val();
        self.unpacker.width.next = self.unpack_width.q.val();
        self.unpacker.centred.next = true;
        self.unpacker.offset.next = self.unpack_offset.q.val();
        self.unpacker.max_value.next = self.unpack_max.q.val();
        self.unpacker.data.next = self.ser_byte.val();
        self.unpacker.data_valid.next = false;
        self.unpacker.data_pair.next = self.ser_byte_pair.val();
        self.unpacker.pair_valid.next = false;
        self.ball_start.next = false;
        self.ball_tau.next = self.tau.q.val();
        self.ball_data.next = self.ser_byte.val();
        self.ball_data_valid.next = false;
        self.ball_read_index.next = self.count.q.val().get_bits::<8>(0);
        self.decompose.r.next = self.subtract.r.val();
        self.decompose.wide.next = self.wide.q.val();
        self.decompose.hint.next = false;
        self.subtract.a.next = self.w_s0.q.val();
        self.subtract.b.next = self.store_word.q.val();
        self.subtract.sub.next = true;
        self.z_norm.x.next = bit_cast::<25, 23>(self.store_word.q.val());
        self.z_norm.canonical.next = true;
        self.z_norm.bound.next = self.z_bound.q.val();
        // LowBits(r), sign-extended to 25 bits.
        self.r0_signed.next = bit_cast::<25, 24>(self.decompose.r0.val());
        if self.decompose.r0.val().get_bit(23) {
            self.r0_signed.next =
                bit_cast::<25, 24>(self.decompose.r0.val()) | self.c_sign_bit.val();
        }
        self.r0_norm.x.next = self.r0_signed.val();
        self.r0_norm.canonical.next = false;
        self.r0_norm.bound.next = self.r0_bound.q.val();
        self.ct0_norm.x.next = bit_cast::<25, 23>(self.ct0_s1.q.val());
        self.ct0_norm.canonical.next = true;
        self.ct0_norm.bound.next = self.gamma2.q.val();
        self.make_hint.a0.next = self.a0.q.val();
        self.make_hint.a1.next = self.a1.q.val();
        self.make_hint.wide.next = self.wide.q.val();
        self.hints.reset.next = self.reset.val();
        self.hints.k.next = self.k.q.val();
        self.hints.omega.next = self.omega.q.val();
        self.hints.hint.next = self.make_hint.hint.val();
        self.hints.hint_valid.next =
            self.pipe[6].q.val() & (self.phase.q.val() == SignPhase::StoreH);
        self.hints.data_ready.next = false;
        self.w1_packer.reset.next = self.reset.val();
        self.w1_packer.width.next = self.w1_bits.q.val();
        self.w1_packer.centred.next = false;
        self.w1_packer.offset.next = 0.into();
        self.w1_packer.coeff.next = bit_cast::<23, 6>(self.decompose.r1.val());
        self.w1_packer.coeff_valid.next =
            self.pipe[2].q.val() & (self.phase.q.val() == SignPhase::StoreW);
        self.w1_packer.data_ready.next = true;
        self.z_packer.reset.next = self.reset.val();
        self.z_packer.width.next = self.gamma1_bits.q.val();
        self.z_packer.centred.next = true;
        self.z_packer.offset.next = self.gamma1.q.val();
        self.z_packer.coeff.next = self.store_word.q.val();
        self.z_packer.coeff_valid.next = false;
        self.z_packer.data_ready.next = true;
        self.sk_buf.byte_write.next = false;
        self.sk_buf.byte_address.next = 0.into();
        self.sk_buf.byte_data.next = 0.into();
        self.sk_buf.word_write.next = false;
        self.sk_buf.word_address.next = self.words_in.q.val().get_bits::<11>(0);
        self.sk_buf.word_data.next = self.s_data.val();
        self.sig_buf.byte_write.next = false;
        self.sig_buf.byte_address.next = self.sig_ptr.q.val();
        self.sig_buf.byte_data.next = 0.into();
        self.sig_buf.word_write.next = false;
        self.sig_buf.word_address.next = bit_cast::<11, 9>(self.count.q.val());
        self.sig_buf.word_data.next = self.sponge_out_data.val();
        self.w1_buf.byte_write.next = self.w1_packer.data_valid.val();
        self.w1_buf.byte_address.next = self.w1_ptr.q.val();
        self.w1_buf.byte_data.next = self.w1_packer.data.val();
        self.w1_buf.word_write.next = false;
        self.w1_buf.word_address.next = 0.into();
        self.w1_buf.word_data.next = 0.into();
        // The polynomial memory: ŷ[j] at j, NTT(s1[j]) at 8 + j, NTT(s2[i])
        // at 16 + i, NTT(t0[i]) at 24 + i, Â[i][j] at 32 + 8i + j.
        self.pm_store_poly.next = bit_cast::<7, 4>(self.col.q.val());
        self.pm_load_poly.next = bit_cast::<7, 4>(self.col.q.val());
        if (self.phase.q.val() == SignPhase::StoreSRows)
            | (self.phase.q.val() == SignPhase::LoadSRows)
        {
            self.pm_store_poly.next = bit_cast::<7, 4>(self.col.q.val()) + 8;
            if self.stage.q.val() == 1 {
                self.pm_store_poly.next = bit_cast::<7, 4>(self.row.q.val()) + 16;
            }
            if self.stage.q.val() == 2 {
                self.pm_store_poly.next = bit_cast::<7, 4>(self.row.q.val()) + 24;
            }
            self.pm_load_poly.next = self.pm_store_poly.val();
        }
        if (self.phase.q.val() == SignPhase::StoreARows)
            | (self.phase.q.val() == SignPhase::LoadARows)
        {
            self.pm_store_poly.next =
                (bit_cast::<7, 4>(self.row.q.val()) << 3) + bit_cast::<7, 4>(self.col.q.val()) + 32;
            self.pm_load_poly.next = self.pm_store_poly.val();
        }
        if (self.phase.q.val() == SignPhase::LoadA) | (self.phase.q.val() == SignPhase::Mask) {
            self.pm_load_poly.next =
                self.c_ring_first.val() | bit_cast::<7, 2>(self.matrix.read_slot.val());
        }
        self.matrix.consume.next = false;
        self.matrix.start.next = false;
        self.matrix.halt.next = false;
        self.w_mem.write_enable.next = false;
        self.w_mem.write_address.next =
            (bit_cast::<11, 4>(self.row.q.val()) << 8) | bit_cast::<11, 9>(self.count.q.val());
        self.w_mem.write_data.next = self.ntt_m_tdata.val().get_bits::<23>(0);
        self.m_data.next = self.sig_buf.read_word.val();
        self.m_valid.next = false;
        self.m_last.next = false;
        self.s_ready.next = false;
        self.stream_take.next = false;
        self.last_expected.next = false;
        self.store_take.next = false;
        self.fail.next = false;
        self.msg_words.next = (self.msg_bytes.val() + 3) >> 2;
        // 16 + ⌈|M′| / 4⌉ and one less, each with a single adder.
        self.msg_end.next = (self.msg_bytes.val() + 67) >> 2;
        self.msg_last.next = (self.msg_bytes.val() + 63) >> 2;
        if self.w1_packer.data_valid.val() {
            self.w1_ptr.d.next = self.w1_ptr.q.val() + 1;
        }

        // ---- The store pipeline (StoreW, StoreR, StoreH): stage s is
        // `pipe[s]`, the clock after the word was taken is stage 0. StoreR
        // and StoreH register the core's word and the w word first (the
        // core's STORE output comes straight from its RAM read mux).
        for s in 1..7 {
            self.pipe[s].d.next = self.pipe[s - 1].q.val();
        }
        self.pipe[0].d.next = false;
        self.pipe_busy.next = self.pipe[0].q.val()
            | self.pipe[1].q.val()
            | self.pipe[2].q.val()
            | self.pipe[3].q.val()
            | self.pipe[4].q.val()
            | self.pipe[5].q.val()
            | self.pipe[6].q.val();
        self.addr_s1.d.next = self.addr_s0.q.val();
        self.ct0_s1.d.next = self.store_word.q.val();
        self.pack_take.next = false;
        // ct0 centred (stage 1), carried beside Decompose to stage 4.
        self.ct0_centred.next = bit_cast::<25, 23>(self.ct0_s1.q.val());
        if self.ct0_s1.q.val() > self.c_half_q.val() {
            self.ct0_centred.next = bit_cast::<25, 23>(self.ct0_s1.q.val()) - self.c_q.val();
        }
        self.v_pipe[0].d.next = self.ct0_centred.val();
        self.v_pipe[1].d.next = self.v_pipe[0].q.val();
        self.v_pipe[2].d.next = self.v_pipe[1].q.val();
        // Stage 4: a0 = LowBits(r) + ct0, a1 = HighBits(r) for MakeHint.
        self.a0.d.next = self.r0_signed.val() + self.v_pipe[2].q.val();
        self.a1.d.next = self.decompose.r1.val();
        // The checks: z one clock behind the packer's take, LowBits(r) at
        // stage 5, ct0 at stage 2.
        self.z_checking.d.next = false;
        if self.z_checking.q.val() & self.z_norm.exceeds.val() {
            self.reject.d.next = true;
        }
        if self.pipe[5].q.val()
            & (self.phase.q.val() == SignPhase::StoreR)
            & self.r0_norm.exceeds.val()
        {
            self.reject.d.next = true;
        }
        if self.pipe[2].q.val()
            & (self.phase.q.val() == SignPhase::StoreH)
            & self.ct0_norm.exceeds.val()
        {
            self.reject.d.next = true;
        }
        // r back into the w memory at stage 1.
        if self.pipe[1].q.val() & (self.phase.q.val() == SignPhase::StoreR) {
            self.w_mem.write_enable.next = true;
            self.w_mem.write_address.next = (bit_cast::<11, 4>(self.row.q.val()) << 8)
                | bit_cast::<11, 8>(self.addr_s1.q.val());
            self.w_mem.write_data.next = self.subtract.r.val();
        }

        // ---- Word selects.
        self.mu_word.next = self.mu[0].q.val();
        self.rho_prime_word.next = self.rho_prime[0].q.val();
        for w in 0..MU_WORDS {
            if self.words_in.q.val().get_bits::<4>(0).index() == w {
                self.mu_word.next = self.mu[w].q.val();
                self.rho_prime_word.next = self.rho_prime[w].q.val();
            }
        }
        self.matrix.rho_word.next = self.rho[0].q.val();
        for w in 0..8 {
            if self.matrix.rho_index.val().index() == w {
                self.matrix.rho_word.next = self.rho[w].q.val();
            }
        }
        self.key_word.next = self.key[0].q.val();
        self.rnd_word.next = self.rnd[0].q.val();
        for w in 0..8 {
            if self.words_in.q.val().get_bits::<3>(0).index() == w {
                self.key_word.next = self.key[w].q.val();
                self.rnd_word.next = self.rnd[w].q.val();
            }
        }

        // ---- The serializer for LoadS (sk words) and ExpandMask (the squeeze):
        // two bytes a clock while the word holds two.
        if ((self.phase.q.val() == SignPhase::LoadS) & self.launched.q.val())
            | (self.mask_on.q.val() & self.mask_launched.q.val())
        {
            self.unpacker.data_valid.next = self.ser_valid.val();
            self.unpacker.pair_valid.next = self.ser_left.q.val() >= 2;
            self.ser_take_pair.next = self.unpacker.pair_taken.val();
            self.ser_take.next = self.ser_valid.val()
                & self.unpacker.data_ready.val()
                & !self.unpacker.pair_taken.val();
            self.ser_room.next = (self.ser_left.q.val() == 0)
                | ((self.ser_left.q.val() == 1) & self.ser_take.val())
                | ((self.ser_left.q.val() == 2) & self.ser_take_pair.val());
            if self.unpacker.coeff_valid.val() & !self.count.q.val().get_bit(8) {
                // LoadS into the core's stream; y into the ring (below).
                self.ntt_s_tvalid.next = !self.mask_on.q.val();
                self.count.d.next = self.count.q.val() + 1;
            }
        }
        match self.phase.q.val() {
            SignPhase::Idle => {
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    if (self.parameter_set.val() == 3)
                        | (self.msg_bytes.val().get_bits::<8>(24) != 0)
                    {
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    } else {
                        for s in 0..3 {
                            if self.parameter_set.val().index() == s {
                                self.k.d.next = self.c_set_k[s].val();
                                self.l.d.next = self.c_set_l[s].val();
                                self.tau.d.next = self.c_set_tau[s].val();
                                self.omega.d.next = self.c_set_omega[s].val();
                                self.eta.d.next = self.c_set_eta[s].val();
                                self.eta_bits.d.next = self.c_set_eta_bits[s].val();
                                self.eta_max.d.next = self.c_set_eta_max[s].val();
                                self.gamma1.d.next = self.c_set_gamma1[s].val();
                                self.gamma1_bits.d.next = self.c_set_gamma1_bits[s].val();
                                self.z_bound.d.next = self.c_set_z_bound[s].val();
                                self.r0_bound.d.next = self.c_set_r0_bound[s].val();
                                self.gamma2.d.next = self.c_set_gamma2[s].val();
                                self.w1_bits.d.next = self.c_set_w1_bits[s].val();
                                self.ct_words.d.next = self.c_set_ct_words[s].val();
                                self.s_words.d.next = self.c_set_s_words[s].val();
                                self.s2_base.d.next = self.c_set_s2_base[s].val();
                                self.t0_base.d.next = self.c_set_t0_base[s].val();
                                self.sk_words.d.next = self.c_set_sk_words[s].val();
                                self.sig_last.d.next = self.c_set_sig_last[s].val();
                                self.sig_last_mask.d.next = self.c_set_sig_last_mask[s].val();
                                self.w1_words.d.next = self.c_set_w1_words[s].val();
                                self.hint_base.d.next = self.c_set_hint_base[s].val();
                                self.mask_bytes.d.next = self.c_set_mask_bytes[s].val();
                                self.sk_last.d.next = self.c_set_sk_last[s].val();
                                self.ct_last.d.next = self.c_set_ct_last[s].val();
                                self.commit_end.d.next = self.c_set_commit_end[s].val();
                                self.commit_last.d.next = self.c_set_commit_last[s].val();
                            }
                        }
                        self.wide.d.next = self.parameter_set.val() != 0;
                        self.external.d.next = self.external_mu.val();
                        self.msg_len.d.next = self.msg_bytes.val().get_bits::<24>(0);
                        self.in_words.d.next = 16.into();
                        self.mu_end.d.next = self.msg_end.val().get_bits::<24>(0);
                        self.mu_last.d.next = self.msg_last.val().get_bits::<24>(0);
                        if !self.external_mu.val() {
                            self.in_words.d.next = self.msg_words.val().get_bits::<24>(0);
                        }
                        self.kappa.d.next = 0.into();
                        self.attempt_count.d.next = 0.into();
                        self.sk_bad.d.next = false;
                        self.phase.d.next = SignPhase::LoadSk;
                        self.launched.d.next = false;
                    }
                }
            }
            SignPhase::LoadSk => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.words_in.d.next = 0.into();
                } else {
                    self.s_ready.next =
                        self.words_in.q.val() < bit_cast::<24, 11>(self.sk_words.q.val());
                    self.stream_take.next = self.s_ready.val() & self.s_valid.val();
                    if self.stream_take.val() {
                        self.sk_buf.word_write.next = true;
                        // ρ, K and tr (into the μ registers).
                        if self.words_in.q.val() < 8 {
                            for w in 0..8 {
                                if self.words_in.q.val().get_bits::<3>(0).index() == w {
                                    self.rho[w].d.next = self.s_data.val();
                                }
                            }
                        } else if self.words_in.q.val() < 16 {
                            for w in 0..8 {
                                if self.words_in.q.val().get_bits::<3>(0).index() == w {
                                    self.key[w].d.next = self.s_data.val();
                                }
                            }
                        } else if self.words_in.q.val() < 32 {
                            for w in 0..MU_WORDS {
                                if self.words_in.q.val().get_bits::<4>(0).index() == w {
                                    self.mu[w].d.next = self.s_data.val();
                                }
                            }
                        }
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        self.fail.next = self.s_last.val();
                    }
                    if self.words_in.q.val() == bit_cast::<24, 11>(self.sk_words.q.val()) {
                        self.phase.d.next = SignPhase::LoadRnd;
                        self.launched.d.next = false;
                    }
                }
            }
            SignPhase::LoadRnd => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.words_in.d.next = 0.into();
                } else {
                    self.s_ready.next = self.words_in.q.val() < 8;
                    self.stream_take.next = self.s_ready.val() & self.s_valid.val();
                    // rnd ends the stream only when an empty M′ follows.
                    self.last_expected.next = !self.external.q.val()
                        & (self.in_words.q.val() == 0)
                        & (self.words_in.q.val() == 7);
                    if self.stream_take.val() {
                        for w in 0..8 {
                            if self.words_in.q.val().get_bits::<3>(0).index() == w {
                                self.rnd[w].d.next = self.s_data.val();
                            }
                        }
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        self.fail.next = self.s_last.val() != self.last_expected.val();
                    }
                    if self.words_in.q.val() == 8 {
                        self.phase.d.next = SignPhase::Mu;
                        self.launched.d.next = false;
                    }
                }
            }
            SignPhase::Mu => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.sponge_start.next = !self.external.q.val();
                    self.sponge_arg1.next = bit_cast::<32, 24>(self.msg_len.q.val()) + 64;
                    self.words_in.d.next = 0.into();
                    self.count.d.next = 0.into();
                } else if self.external.q.val() {
                    self.s_ready.next = self.words_in.q.val() < 16;
                    self.stream_take.next = self.s_ready.val() & self.s_valid.val();
                    if self.stream_take.val() {
                        for w in 0..MU_WORDS {
                            if self.words_in.q.val().get_bits::<4>(0).index() == w {
                                self.mu[w].d.next = self.s_data.val();
                            }
                        }
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        self.fail.next = self.s_last.val() != (self.words_in.q.val() == 15);
                    }
                    if self.words_in.q.val() == 16 {
                        self.phase.d.next = SignPhase::RhoPrime;
                        self.launched.d.next = false;
                    }
                } else {
                    // tr (16 words from the μ registers), then M′ from the
                    // stream.
                    self.feed_data.next = self.mu_word.val();
                    self.feed_valid_in.next = self.words_in.q.val() < 16;
                    self.feed_last_in.next = self.words_in.q.val() == self.mu_last.q.val();
                    if self.words_in.q.val() >= 16 {
                        self.feed_data.next = self.s_data.val();
                        self.s_ready.next =
                            (self.words_in.q.val() < self.mu_end.q.val()) & self.feed_room.val();
                        self.feed_valid_in.next =
                            self.s_valid.val() & (self.words_in.q.val() < self.mu_end.q.val());
                    }
                    self.stream_take.next = self.s_ready.val() & self.s_valid.val();
                    self.feed_take.next = self.feed_valid_in.val() & self.feed_room.val();
                    if self.feed_take.val() {
                        self.words_in.d.next = self.words_in.q.val() + 1;
                    }
                    if self.stream_take.val() {
                        self.fail.next =
                            self.s_last.val() != (self.words_in.q.val() == self.mu_last.q.val());
                    }
                    self.sponge_out_ready.next = true;
                    if self.sponge_out_valid.val() {
                        for w in 0..MU_WORDS {
                            if self.count.q.val().index() == w {
                                self.mu[w].d.next = self.sponge_out_data.val();
                            }
                        }
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    if self.sponge_done.val() {
                        self.error_flag.d.next = self.sponge_error.val();
                        self.phase.d.next = SignPhase::RhoPrime;
                        self.launched.d.next = false;
                    }
                }
            }
            SignPhase::RhoPrime => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = 128.into();
                    self.words_in.d.next = 0.into();
                    self.count.d.next = 0.into();
                } else {
                    // K ‖ rnd ‖ μ.
                    self.feed_data.next = self.mu_word.val();
                    if self.words_in.q.val() < 8 {
                        self.feed_data.next = self.key_word.val();
                    } else if self.words_in.q.val() < 16 {
                        self.feed_data.next = self.rnd_word.val();
                    }
                    self.feed_valid_in.next = self.words_in.q.val() < 32;
                    self.feed_last_in.next = self.words_in.q.val() == 31;
                    self.feed_take.next = self.feed_valid_in.val() & self.feed_room.val();
                    if self.feed_take.val() {
                        self.words_in.d.next = self.words_in.q.val() + 1;
                    }
                    self.sponge_out_ready.next = true;
                    if self.sponge_out_valid.val() {
                        for w in 0..MU_WORDS {
                            if self.count.q.val().index() == w {
                                self.rho_prime[w].d.next = self.sponge_out_data.val();
                            }
                        }
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    if self.sponge_done.val() {
                        self.error_flag.d.next = self.sponge_error.val();
                        self.phase.d.next = SignPhase::Mask;
                        self.launched.d.next = false;
                        self.mask_on.d.next = true;
                        self.mask_col.d.next = 0.into();
                        // Held until ExpandMask is done (`hold`), Â's
                        // sampler then fills the ring behind the y.
                        self.matrix.start.next = true;
                        self.col.d.next = 0.into();
                        self.w1_ptr.d.next = 0.into();
                        self.w1_packer.reset.next = true;
                        self.reject.d.next = false;
                        self.attempt_count.d.next = 1.into();
                    }
                }
            }
            SignPhase::Mask => {
                // y[col] from the ring (ExpandMask fills it, below).
                if !self.launched.q.val() {
                    if self.matrix.ring_ready.val() {
                        self.launched.d.next = true;
                        self.ntt_start.next = true;
                        self.ntt_op.next = self.c_op_load_rows.val();
                        self.ntt_arg0.next = 1.into();
                    }
                } else if self.ntt_done.val() {
                    self.error_flag.d.next = self.ntt_error.val();
                    self.matrix.consume.next = true;
                    self.launched.d.next = false;
                    self.phase.d.next = SignPhase::MaskNtt;
                }
            }
            SignPhase::MaskNtt => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_ntt.val();
                    self.ntt_arg0.next = 1.into();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = SignPhase::MaskStore;
                }
            }
            SignPhase::MaskStore => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_store_rows.val();
                    self.ntt_arg0.next = 1.into();
                } else {
                    if self.ntt_done.val() {
                        self.error_flag.d.next = self.ntt_error.val();
                        self.launched.d.next = false;
                        if self.col.q.val() + 1 == self.l.q.val() {
                            self.col.d.next = 0.into();
                            self.row.d.next = 0.into();
                            self.phase.d.next = SignPhase::LoadY;
                        } else {
                            self.col.d.next = self.col.q.val() + 1;
                            self.phase.d.next = SignPhase::Mask;
                        }
                    }
                }
            }
            SignPhase::LoadY => {}
            SignPhase::LoadYAcc => {}
            SignPhase::LoadA => {
                if self.attempt_count.q.val() != 1 {
                    // Â was kept by the first attempt.
                    self.phase.d.next = SignPhase::LoadARows;
                } else if !self.launched.q.val() {
                    if self.matrix.ring_ready.val() {
                        self.launched.d.next = true;
                        self.ntt_start.next = true;
                        self.ntt_op.next = self.c_op_load_rows.val();
                        self.ntt_arg0.next = 2.into();
                    }
                } else if self.ntt_done.val() {
                    self.error_flag.d.next = self.ntt_error.val();
                    self.matrix.consume.next = true;
                    self.launched.d.next = false;
                    self.phase.d.next = SignPhase::StoreARows;
                }
            }
            SignPhase::MulAy => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_pwmac.val();
                    if self.col.q.val() == 0 {
                        self.ntt_op.next = self.c_op_pwm.val();
                    }
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    if self.col.q.val() + 1 == self.l.q.val() {
                        self.phase.d.next = SignPhase::InttW;
                    } else {
                        self.col.d.next = self.col.q.val() + 1;
                        self.phase.d.next = SignPhase::LoadY;
                    }
                }
            }
            SignPhase::InttW => {}
            SignPhase::InttCs => {}
            SignPhase::StoreW => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_store.val();
                    self.count.d.next = 0.into();
                } else {
                    // w\[row\] into its memory and through HighBits into
                    // the w1 packer (at most 6 bits in, 8 out a clock: it
                    // always has room).
                    self.decompose.r.next = self.ntt_m_tdata.val().get_bits::<23>(0);
                    self.ntt_m_tready.next = self.w1_packer.coeff_ready.val();
                    self.store_take.next = self.ntt_m_tvalid.val() & self.ntt_m_tready.val();
                    self.pipe[0].d.next = self.store_take.val();
                    if self.store_take.val() {
                        self.w_mem.write_enable.next = true;
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    if self.ntt_done.val()
                        & !self.pipe_busy.val()
                        & !self.w1_packer.data_valid.val()
                    {
                        self.error_flag.d.next = self.ntt_error.val();
                        self.launched.d.next = false;
                        if self.row.q.val() + 1 == self.k.q.val() {
                            self.phase.d.next = SignPhase::Commit;
                        } else {
                            self.row.d.next = self.row.q.val() + 1;
                            self.col.d.next = 0.into();
                            self.phase.d.next = SignPhase::LoadY;
                        }
                    }
                }
            }
            SignPhase::Commit => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = (bit_cast::<32, 9>(self.w1_words.q.val()) << 2) + 64;
                    self.sponge_arg2.next = bit_cast::<32, 5>(self.ct_words.q.val()) << 2;
                    self.words_in.d.next = 0.into();
                    self.count.d.next = 0.into();
                    self.rd_next.next = 0.into();
                    self.rd_ptr.d.next = 0.into();
                } else {
                    // μ, then w1Encode(w1) from its buffer.
                    self.feed_data.next = self.mu_word.val();
                    if self.words_in.q.val() >= 16 {
                        self.feed_data.next = self.w1_buf.read_word.val();
                    }
                    self.feed_valid_in.next = self.words_in.q.val() < self.commit_end.q.val();
                    self.feed_last_in.next = self.words_in.q.val() == self.commit_last.q.val();
                    self.feed_take.next = self.feed_valid_in.val() & self.feed_room.val();
                    if self.feed_take.val() {
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        if self.words_in.q.val() >= 16 {
                            self.rd_next.next = self.rd_ptr.q.val() + 1;
                            self.rd_ptr.d.next = self.rd_ptr.q.val() + 1;
                        }
                    }
                    // c̃ into σ.
                    self.sponge_out_ready.next = true;
                    if self.sponge_out_valid.val() {
                        self.sig_buf.word_write.next = true;
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    if self.sponge_done.val() {
                        self.error_flag.d.next = self.sponge_error.val();
                        self.launched.d.next = false;
                        self.phase.d.next = SignPhase::Challenge;
                    }
                }
            }
            SignPhase::Challenge => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = bit_cast::<32, 5>(self.ct_words.q.val()) << 2;
                    self.sponge_arg2.next = self.c_squeeze.val();
                    self.ball_start.next = true;
                    self.rd_next.next = 0.into();
                    self.rd_ptr.d.next = 0.into();
                    self.words_in.d.next = 0.into();
                    self.ser_left.d.next = 0.into();
                    self.stopped.d.next = false;
                    self.pad.d.next = 0.into();
                } else {
                    if self.pad.q.val() != self.c_challenge_clocks.val() {
                        self.pad.d.next = self.pad.q.val() + 1;
                    }
                    // c̃ from σ into the sponge.
                    self.feed_data.next = self.sig_buf.read_word.val();
                    self.feed_valid_in.next =
                        self.words_in.q.val() < bit_cast::<24, 5>(self.ct_words.q.val());
                    self.feed_last_in.next = self.words_in.q.val() == self.ct_last.q.val();
                    self.feed_take.next = self.feed_valid_in.val() & self.feed_room.val();
                    if self.feed_take.val() {
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        self.rd_next.next = self.rd_ptr.q.val() + 1;
                        self.rd_ptr.d.next = self.rd_ptr.q.val() + 1;
                    }
                    // Its output a byte at a time into SampleInBall.
                    self.ball_data_valid.next = self.ser_valid.val();
                    self.ser_take.next = self.ser_valid.val() & self.ball_data_ready.val();
                    self.ser_room.next = (self.ser_left.q.val() == 0)
                        | ((self.ser_left.q.val() == 1) & self.ser_take.val());
                    self.sponge_out_ready.next = self.ser_room.val() & !self.stopped.q.val();
                    self.ser_load.next = self.sponge_out_ready.val() & self.sponge_out_valid.val();
                    if self.ball_done.val() & !self.stopped.q.val() {
                        self.stopped.d.next = true;
                        self.sponge_start.next = true;
                        self.sponge_op.next = self.c_op_abort.val();
                    }
                    // The phase lasts at least CHALLENGE_CLOCKS (timing).
                    if self.stopped.q.val() & (self.pad.q.val() == self.c_challenge_clocks.val()) {
                        self.launched.d.next = false;
                        self.phase.d.next = SignPhase::LoadC;
                    }
                }
            }
            SignPhase::LoadC => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_load.val();
                    self.ntt_arg0.next = 1.into();
                    self.count.d.next = 0.into();
                    self.ball_read_index.next = 0.into();
                } else {
                    // c\[count\] is on `coeff`, read the clock before.
                    self.ntt_s_tdata.next = bit_cast::<32, 23>(self.ball_coeff.val());
                    self.ntt_s_tvalid.next = !self.count.q.val().get_bit(8);
                    if self.ntt_s_tready.val() & !self.count.q.val().get_bit(8) {
                        self.count_next.next = self.count.q.val() + 1;
                    }
                    self.count.d.next = self.count_next.val();
                    self.ball_read_index.next = self.count_next.val().get_bits::<8>(0);
                    if self.ntt_done.val() {
                        self.error_flag.d.next = self.ntt_error.val();
                        self.launched.d.next = false;
                        self.phase.d.next = SignPhase::NttC;
                    }
                }
            }
            SignPhase::NttC => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_ntt.val();
                    self.ntt_arg0.next = 1.into();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.stage.d.next = 0.into();
                    self.col.d.next = 0.into();
                    self.row.d.next = 0.into();
                    self.s1_ptr.d.next = 32.into();
                    self.s2_ptr.d.next = self.s2_base.q.val();
                    self.t0_ptr.d.next = self.t0_base.q.val();
                    self.sig_ptr.d.next = bit_cast::<13, 5>(self.ct_words.q.val()) << 2;
                    // An abort may have left bits in the packers.
                    self.z_packer.reset.next = true;
                    self.phase.d.next = SignPhase::LoadS;
                }
            }
            SignPhase::LoadS => {
                if self.attempt_count.q.val() != 1 {
                    // NTT(s1), NTT(s2) and NTT(t0) were kept by the first
                    // attempt.
                    self.phase.d.next = SignPhase::LoadSRows;
                } else if !self.launched.q.val() {
                    self.launched.d.next = true;
                    // s1 (stage 0), s2 (1): η − v, v ≤ 2η; t0 (2): 2^12 − v.
                    self.unpack_width.d.next = self.eta_bits.q.val();
                    self.unpack_offset.d.next = self.eta.q.val();
                    self.unpack_max.d.next = self.eta_max.q.val();
                    if self.stage.q.val() == 2 {
                        self.unpack_width.d.next = 13.into();
                        self.unpack_offset.d.next = 4096.into();
                        self.unpack_max.d.next = 0xF_FFFF.into();
                    }
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_load.val();
                    self.ntt_arg0.next = 2.into();
                    self.unpacker.reset.next = true;
                    self.ser_left.d.next = 0.into();
                    self.count.d.next = 0.into();
                    self.words_left.d.next = self.s_words.q.val();
                    self.rd_next.next = self.s1_ptr.q.val();
                    self.rd_ptr.d.next = self.s1_ptr.q.val();
                    if self.stage.q.val() == 1 {
                        self.rd_next.next = self.s2_ptr.q.val();
                        self.rd_ptr.d.next = self.s2_ptr.q.val();
                    }
                    if self.stage.q.val() == 2 {
                        self.rd_next.next = self.t0_ptr.q.val();
                        self.rd_ptr.d.next = self.t0_ptr.q.val();
                        self.words_left.d.next = self.c_t0_words.val();
                    }
                } else {
                    self.ser_load.next = self.ser_room.val() & (self.words_left.q.val() != 0);
                    if self.ser_load.val() {
                        self.rd_next.next = self.rd_ptr.q.val() + 1;
                        self.rd_ptr.d.next = self.rd_ptr.q.val() + 1;
                        self.words_left.d.next = self.words_left.q.val() - 1;
                    }
                    if self.unpacker.coeff_valid.val()
                        & self.unpacker.out_of_range.val()
                        & (self.stage.q.val() != 2)
                    {
                        self.sk_bad.d.next = true;
                    }
                    if self.ntt_done.val() {
                        self.error_flag.d.next = self.ntt_error.val();
                        self.launched.d.next = false;
                        self.phase.d.next = SignPhase::NttS;
                        if self.stage.q.val() == 0 {
                            self.s1_ptr.d.next = self.rd_ptr.q.val();
                        }
                        if self.stage.q.val() == 1 {
                            self.s2_ptr.d.next = self.rd_ptr.q.val();
                        }
                        if self.stage.q.val() == 2 {
                            self.t0_ptr.d.next = self.rd_ptr.q.val();
                        }
                    }
                }
            }
            SignPhase::NttS => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_ntt.val();
                    self.ntt_arg0.next = 2.into();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = SignPhase::StoreSRows;
                }
            }
            SignPhase::StoreSRows => {}
            SignPhase::LoadSRows => {}
            SignPhase::StoreARows => {}
            SignPhase::LoadARows => {}
            SignPhase::MulCs => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_pwm.val();
                    if self.stage.q.val() == 0 {
                        self.ntt_op.next = self.c_op_pwmac.val();
                    }
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = SignPhase::InttCs;
                }
            }
            SignPhase::StoreZ => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_store.val();
                    self.hold_valid.d.next = false;
                } else {
                    // z\[col\] through a holding register into the packer
                    // (γ1 − z into σ) and the ‖z‖∞ check.
                    self.z_packer.coeff_valid.next = self.hold_valid.q.val();
                    self.pack_take.next = self.hold_valid.q.val() & self.z_packer.coeff_ready.val();
                    self.ntt_m_tready.next =
                        !self.hold_valid.q.val() | self.z_packer.coeff_ready.val();
                    self.store_take.next = self.ntt_m_tvalid.val() & self.ntt_m_tready.val();
                    self.z_checking.d.next = self.pack_take.val();
                    if self.store_take.val() {
                        self.store_word.d.next = self.ntt_m_tdata.val().get_bits::<23>(0);
                        self.hold_valid.d.next = true;
                    } else if self.pack_take.val() {
                        self.hold_valid.d.next = false;
                    }
                    // z\[col\] fills whole words from a word boundary.
                    if self.z_packer.data_valid.val() {
                        self.sig_buf.word_write.next = true;
                        self.sig_buf.word_address.next = self.sig_ptr.q.val().get_bits::<11>(2);
                        self.sig_buf.word_data.next = self.z_packer.data.val();
                        self.sig_ptr.d.next = self.sig_ptr.q.val() + 4;
                    }
                    if self.ntt_done.val()
                        & !self.hold_valid.q.val()
                        & !self.z_checking.q.val()
                        & !self.z_packer.data_valid.val()
                    {
                        self.error_flag.d.next = self.ntt_error.val();
                        self.launched.d.next = false;
                        self.phase.d.next = SignPhase::LoadS;
                        if self.col.q.val() + 1 == self.l.q.val() {
                            self.stage.d.next = 1.into();
                            self.hints.reset.next = true;
                        } else {
                            self.col.d.next = self.col.q.val() + 1;
                        }
                    }
                }
            }
            SignPhase::StoreR => {}
            SignPhase::StoreH => {}
            SignPhase::Decide => {
                self.launched.d.next = false;
                if self.sk_bad.q.val() {
                    self.error_flag.d.next = true;
                } else if self.reject.q.val() | self.hints.too_many.val() {
                    if self.attempt_count.q.val() == self.c_max_attempts.val() {
                        self.error_flag.d.next = true;
                    } else {
                        self.attempt_count.d.next = self.attempt_count.q.val() + 1;
                        self.kappa.d.next = self.kappa.q.val() + bit_cast::<16, 4>(self.l.q.val());
                        self.reject.d.next = false;
                        self.col.d.next = 0.into();
                        self.w1_ptr.d.next = 0.into();
                        self.w1_packer.reset.next = true;
                        self.phase.d.next = SignPhase::Mask;
                        self.mask_on.d.next = true;
                        self.mask_col.d.next = 0.into();
                    }
                } else {
                    self.sig_ptr.d.next = self.hint_base.q.val();
                    self.phase.d.next = SignPhase::PackHints;
                }
            }
            SignPhase::PackHints => {
                self.hints.data_ready.next = true;
                self.sig_buf.byte_data.next = self.hints.data.val();
                if self.hints.data_valid.val() {
                    self.sig_buf.byte_write.next = true;
                    self.sig_ptr.d.next = self.sig_ptr.q.val() + 1;
                }
                if self.hints.done.val() {
                    self.phase.d.next = SignPhase::Output;
                }
            }
            SignPhase::Output => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.out_index.d.next = 0.into();
                    self.out_next.next = 0.into();
                    self.primed.d.next = false;
                } else {
                    self.primed.d.next = true;
                    // The phase ends when the last word is taken.
                    self.m_valid.next = self.primed.q.val();
                    self.m_last.next = self.out_index.q.val() == self.sig_last.q.val();
                    if self.m_last.val() {
                        self.m_data.next =
                            self.sig_buf.read_word.val() & self.sig_last_mask.q.val();
                    }
                    if self.m_valid.val() & self.m_ready.val() {
                        self.out_next.next = self.out_index.q.val() + 1;
                        self.out_index.d.next = self.out_index.q.val() + 1;
                        if self.m_last.val() {
                            self.done_flag.d.next = true;
                            self.phase.d.next = SignPhase::Idle;
                        }
                    }
                }
            }
            _ => {
                self.phase.d.next = SignPhase::Idle;
            }
        }
        // ---- LoadY and LoadYAcc: ŷ\[col\] from its memory into slot 1 or
        // slot 0 through a register. `count` words have been read; the word
        // at `count` is on `read_data`. The core takes a word on every
        // clock of its LOAD, so the words flow one a clock.
        if (self.phase.q.val() == SignPhase::LoadY) | (self.phase.q.val() == SignPhase::LoadYAcc) {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_load_rows.val();
                self.ntt_arg0.next = 1.into();
                if self.phase.q.val() == SignPhase::LoadYAcc {
                    self.ntt_arg0.next = 0.into();
                }
            } else if self.ntt_done.val() {
                self.error_flag.d.next = self.ntt_error.val();
                self.launched.d.next = false;
                if self.phase.q.val() == SignPhase::LoadY {
                    self.phase.d.next = SignPhase::LoadA;
                } else {
                    self.phase.d.next = SignPhase::MulCs;
                }
            }
        }
        // ---- StoreSRows and LoadSRows: NTT(s1[col]), NTT(s2[row]) or
        // NTT(t0[row]) (by `stage`) between slot 2 and the polynomial
        // memory; StoreARows and LoadARows: Â[row][col]. Made in the first
        // attempt, loaded in the others.
        if (self.phase.q.val() == SignPhase::StoreSRows)
            | (self.phase.q.val() == SignPhase::LoadSRows)
            | (self.phase.q.val() == SignPhase::StoreARows)
            | (self.phase.q.val() == SignPhase::LoadARows)
        {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_load_rows.val();
                if (self.phase.q.val() == SignPhase::StoreSRows)
                    | (self.phase.q.val() == SignPhase::StoreARows)
                {
                    self.ntt_op.next = self.c_op_store_rows.val();
                }
                self.ntt_arg0.next = 2.into();
            } else if self.ntt_done.val() {
                self.error_flag.d.next = self.ntt_error.val();
                self.launched.d.next = false;
                if (self.phase.q.val() == SignPhase::StoreARows)
                    | (self.phase.q.val() == SignPhase::LoadARows)
                {
                    self.phase.d.next = SignPhase::MulAy;
                } else if self.stage.q.val() == 0 {
                    self.phase.d.next = SignPhase::LoadYAcc;
                } else {
                    self.phase.d.next = SignPhase::MulCs;
                }
            }
        }
        // ---- InttW and InttCs: INTT of slot 0.
        if (self.phase.q.val() == SignPhase::InttW) | (self.phase.q.val() == SignPhase::InttCs) {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_intt.val();
            } else if self.ntt_done.val() {
                self.launched.d.next = false;
                if self.phase.q.val() == SignPhase::InttW {
                    self.phase.d.next = SignPhase::StoreW;
                } else if self.stage.q.val() == 0 {
                    self.phase.d.next = SignPhase::StoreZ;
                } else if self.stage.q.val() == 1 {
                    self.phase.d.next = SignPhase::StoreR;
                } else {
                    self.phase.d.next = SignPhase::StoreH;
                }
            }
        }
        // ---- StoreR and StoreH: slot 0 (cs2 or ct0) beside w\[row\] (r
        // after StoreR) read from the w memory at `count`.
        if (self.phase.q.val() == SignPhase::StoreR) | (self.phase.q.val() == SignPhase::StoreH) {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_store.val();
                self.count.d.next = 0.into();
                self.count_next.next = 0.into();
            } else {
                self.ntt_m_tready.next = true;
                self.store_take.next = self.ntt_m_tvalid.val();
                self.pipe[0].d.next = self.store_take.val();
                if self.store_take.val() {
                    self.count_next.next = self.count.q.val() + 1;
                    self.addr_s0.d.next = self.count.q.val().get_bits::<8>(0);
                    self.store_word.d.next = self.ntt_m_tdata.val().get_bits::<23>(0);
                    self.w_s0.d.next = self.w_mem.read_data.val();
                }
                self.count.d.next = self.count_next.val();
                if self.phase.q.val() == SignPhase::StoreH {
                    // Stage 1 holds r itself (r − 0).
                    self.subtract.b.next = 0.into();
                }
                if self.ntt_done.val() & !self.pipe_busy.val() {
                    self.error_flag.d.next = self.ntt_error.val();
                    self.launched.d.next = false;
                    self.phase.d.next = SignPhase::LoadS;
                    if self.phase.q.val() == SignPhase::StoreR {
                        self.stage.d.next = 2.into();
                    } else if self.row.q.val() + 1 == self.k.q.val() {
                        self.phase.d.next = SignPhase::Decide;
                    } else {
                        self.stage.d.next = 1.into();
                        self.row.d.next = self.row.q.val() + 1;
                    }
                }
            }
        }
        // ---- The first attempt's sampler: Â[i][j] in row order into the
        // ring, a coefficient a clock, up to RING_SLOTS ahead of the core,
        // from the end of the last ExpandMask to the last entry (before
        // the commitment, the sponge's next use). Its clocks depend on ρ
        // only.
        self.matrix.k.next = self.k.q.val();
        self.matrix.l.next = self.l.q.val();
        self.matrix.feed_room.next = self.feed_room.val();
        self.matrix.squeeze_data.next = self.sponge_out_data.val();
        self.matrix.squeeze_valid.next = self.sponge_out_valid.val();
        self.matrix.produce_other.next = false;
        self.pm_coeff_write.next = self.matrix.coeff_write.val();
        self.pm_coeff_slot.next = bit_cast::<4, 2>(self.matrix.write_slot.val());
        self.pm_coeff_index.next = self.matrix.coeff_index.val();
        self.pm_coeff_data.next = self.matrix.coeff_data.val();
        if self.matrix.sponge_launch.val() {
            self.sponge_start.next = true;
            self.sponge_arg0.next = self.matrix.sponge_arg0.val();
            self.sponge_arg1.next = self.matrix.sponge_arg1.val();
            self.sponge_arg2.next = self.matrix.sponge_arg2.val();
        }
        if self.matrix.sponge_owned.val() {
            self.feed_data.next = self.matrix.feed_data.val();
            self.feed_valid_in.next = self.matrix.feed_valid.val();
            self.feed_last_in.next = self.matrix.feed_last.val();
            self.sponge_out_ready.next = self.matrix.squeeze_ready.val();
            self.feed_take.next = self.feed_valid_in.val() & self.feed_room.val();
        }
        if self.matrix.sponge_abort.val() {
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
        }
        // ---- ExpandMask: y[0..l] of the attempt into the ring, a
        // request each (ρ″ ‖ IntegerToBytes(κ + j, 2), the whole squeeze
        // through the unpacker), while the core transforms the y before
        // (phases Mask, MaskNtt, MaskStore). Â's sampler waits for it.
        // Its clocks depend on the parameter set alone.
        self.matrix.hold.next = self.mask_on.q.val();
        if self.mask_on.q.val() {
            if !self.mask_launched.q.val() {
                if !self.matrix.ring_full.val() {
                    self.mask_launched.d.next = true;
                    // y = γ1 − v, every v allowed.
                    self.unpack_width.d.next = self.gamma1_bits.q.val();
                    self.unpack_offset.d.next = self.gamma1.q.val();
                    self.unpack_max.d.next = 0xF_FFFF.into();
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = 66.into();
                    self.sponge_arg2.next = bit_cast::<32, 11>(self.mask_bytes.q.val());
                    self.unpacker.reset.next = true;
                    self.ser_left.d.next = 0.into();
                    self.words_in.d.next = 0.into();
                    self.count.d.next = 0.into();
                }
            } else {
                self.feed_data.next = self.rho_prime_word.val();
                if self.words_in.q.val() == 16 {
                    self.feed_data.next = bit_cast::<32, 16>(
                        self.kappa.q.val() + bit_cast::<16, 4>(self.mask_col.q.val()),
                    );
                }
                self.feed_valid_in.next = self.words_in.q.val() <= 16;
                self.feed_last_in.next = self.words_in.q.val() == 16;
                self.feed_take.next = self.feed_valid_in.val() & self.feed_room.val();
                if self.feed_take.val() {
                    self.words_in.d.next = self.words_in.q.val() + 1;
                }
                // The squeeze, two bytes a clock, into the unpacker; its
                // coefficients into the ring's next slot.
                self.sponge_out_ready.next = self.ser_room.val();
                self.ser_load.next = self.ser_room.val() & self.sponge_out_valid.val();
                self.pm_coeff_write.next =
                    self.unpacker.coeff_valid.val() & !self.count.q.val().get_bit(8);
                self.pm_coeff_index.next = self.count.q.val().get_bits::<8>(0);
                self.pm_coeff_data.next = self.unpacker.coeff.val();
                if self.count.q.val().get_bit(8) & self.sponge_done.val() {
                    self.error_flag.d.next = self.sponge_error.val();
                    self.matrix.produce_other.next = true;
                    self.mask_launched.d.next = false;
                    self.mask_col.d.next = self.mask_col.q.val() + 1;
                    if self.mask_col.q.val() + 1 == self.l.q.val() {
                        self.mask_on.d.next = false;
                    }
                }
            }
        }
        // ---- The sponge's input register.
        self.sponge_in_data.next = self.feed_word.q.val();
        self.sponge_in_valid.next = self.feed_valid.q.val();
        self.sponge_in_last.next = self.feed_last.q.val();
        if self.feed_take.val() {
            self.feed_word.d.next = self.feed_data.val();
            self.feed_valid.d.next = true;
            self.feed_last.d.next = self.feed_last_in.val();
        } else if self.sponge_in_ready.val() {
            self.feed_valid.d.next = false;
        }
        // ---- Addresses, after the phases set the pointers' next values:
        // a RAM reads on the edge, so each reads the next value.
        self.sk_buf.read_address.next = self.rd_next.val();
        self.sig_buf.read_address.next = self.rd_next.val();
        self.w1_buf.read_address.next = self.rd_next.val().get_bits::<8>(0);
        if self.phase.q.val() == SignPhase::Output {
            self.sig_buf.read_address.next = self.out_next.val();
        }
        self.w_mem.read_address.next =
            (bit_cast::<11, 4>(self.row.q.val()) << 8) | bit_cast::<11, 9>(self.count_next.val());
        // ---- The serializer's registers (the phases set take and load).
        if self.ser_take.val() {
            self.ser_word.d.next = self.ser_word.q.val() >> 8;
            self.ser_left.d.next = self.ser_left.q.val() - 1;
        }
        if self.ser_take_pair.val() {
            self.ser_word.d.next = self.ser_word.q.val() >> 16;
            self.ser_left.d.next = self.ser_left.q.val() - 2;
        }
        if self.ser_load.val() {
            self.ser_word.d.next = self.sk_buf.read_word.val();
            if self.mask_on.q.val() | (self.phase.q.val() == SignPhase::Challenge) {
                self.ser_word.d.next = self.sponge_out_data.val();
            }
            self.ser_left.d.next = 4.into();
        }
        // A stream of the wrong length, a core error, a bad sk or too many
        // attempts end the job with `error`; the cores are stopped.
        if (self.fail.val() | (self.error_flag.q.val() & !self.done_flag.q.val()))
            & (self.phase.q.val() != SignPhase::Idle)
        {
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.phase.d.next = SignPhase::Idle;
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
            self.ntt_start.next = true;
            self.ntt_op.next = self.c_ntt_abort.val();
            self.feed_valid.d.next = false;
            self.matrix.halt.next = true;
            self.mask_on.d.next = false;
            self.mask_launched.d.next = false;
        }
        if self.abort_job.val() & (self.phase.q.val() != SignPhase::Idle) {
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.phase.d.next = SignPhase::Idle;
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
            self.ntt_start.next = true;
            self.ntt_op.next = self.c_ntt_abort.val();
            self.feed_valid.d.next = false;
            self.matrix.halt.next = true;
            self.mask_on.d.next = false;
            self.mask_launched.d.next = false;
        }
        if self.reset.val() {
            self.matrix.halt.next = true;
            self.mask_on.d.next = false;
            self.mask_launched.d.next = false;
            self.feed_valid.d.next = false;
            self.phase.d.next = SignPhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
        }
        self.busy.next = self.phase.q.val() != SignPhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
        self.attempts.next = self.attempt_count.q.val();
    }
}

#[cfg(test)]
impl MlDsaSign {
    /// The running phase.
    pub(crate) fn phase(&self) -> SignPhase {
        self.phase.q.val()
    }
}
