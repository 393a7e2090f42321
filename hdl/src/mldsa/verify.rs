//! ML-DSA.Verify_internal (FIPS 204 Algorithm 8) for all three parameter
//! sets behind one command: pk, σ and M′ (or an external μ) in on one
//! stream, the verdict out. The second whole operation of the ML-DSA
//! engine.
//!
//! # Input stream
//!
//! 32-bit little-endian words, each part starting on a word boundary:
//! pk (whole words for every set), σ (its last word padded with zero
//! bytes), then either M′ (`msg_bytes` bytes, the last word padded) or,
//! with `external_mu`, the 64 bytes of μ. `last` must come on the final
//! word and nowhere else; anything else ends the job with `error` (a
//! stream of the wrong length). The layout is
//! [`ps_pl_contract::regmap::mldsa`]'s `OP_VERIFY` format.
//!
//! # Datapath
//!
//! This is the sequencer: it drives the sponge engine, the NTT core and
//! SampleInBall of [`super::engine::MlDsaEngine`] through its `sponge_*`,
//! `ntt_*` and `ball_*` ports (the engine shares them between the
//! sequencers). One Keccak
//! sponge engine, one NTT core (B = 4; slot 0 the accumulator
//! w̃, slots 1 and 2 the operands), the bit unpacker, HintBitUnpack,
//! SampleInBall, RejNTTPoly, the ‖z‖∞ check, Decompose with UseHint, a
//! w1 packer and three buffers in block RAM (pk, σ, w1Encode(w′1)):
//!
//! 1. pk into its buffer while tr = H(pk, 64) is absorbed; σ into its
//!    buffer; μ = H(tr ‖ M′, 64) absorbing M′ straight from the stream
//!    (or μ taken from it).
//! 2. The hint field through HintBitUnpack: a malformed field is a reject
//!    at once (σ is public, so leaving early leaks nothing).
//! 3. c = SampleInBall(c̃) (SHAKE256 into the unit, which holds c).
//! 4. For each row i: slot 1 = NTT(c), slot 2 = NTT(−t1\[i\]·2^d) (t1
//!    unpacked from pk and negated on its way into LOAD), slot 0 = their
//!    product; then for each j: slot 1 = NTT(z\[j\]) (unpacked from σ two
//!    bytes a clock, its ‖z\[j\]‖∞ checked), slot 2 = Â\[i\]\[j\] from
//!    the sampling ring, slot 0 += product; INTT; STORE through UseHint
//!    with h\[i\] into the w1 packer.
//! 5. c̃′ = H(μ ‖ w1Encode(w′1), λ/4) compared word by word with c̃.
//!
//! The verdict is accept exactly when the hint field is well formed,
//! ‖z‖∞ < γ1 − β and c̃′ = c̃, the three conditions of Algorithm 8.
//!
//! NTT(c) and NTT(z\[j\]) are made on row 0 and kept in the engine's
//! polynomial memory ([`super::poly_memory`]); the later rows load them
//! back a row (8 coefficients) a clock.
//!
//! From the end of step 3 to the last row, a sampler beside the phases
//! ([`MatrixSampler`]) drives the sponge: it samples Â\[i\]\[j\] in row order (SHAKE128 into
//! RejNTTPoly), a coefficient a clock, into the polynomial memory's
//! sampling ring (4 slots), and the phase [`VerifyPhase::LoadA`] takes
//! each into slot 2 with `OP_LOAD_ROWS` (33 clocks). Sampling thus
//! overlaps the core's work: ML-DSA-44 went from 16,876 clocks, 32 % of
//! them sampling Â, to 12,024 (`verify_phase_clocks`), and the core
//! never waits for the sampler there: the core's phases, the NTTs above
//! all, now set the pace.
//!
//! # Timing
//!
//! Every input of verification is public (pk, σ, M′), so the clocks may
//! depend on all of them: on the message length, on RejNTTPoly's
//! rejections (ρ), on SampleInBall's (c̃) and on an early reject of a
//! malformed hint field. Nothing secret is involved. (The sampler's
//! clocks depend on ρ alone.)
//!
//! # Interface
//!
//! `start` (taken when idle) with `parameter_set` (0, 1, 2: ML-DSA-44,
//! -65, -87), `external_mu` and `msg_bytes` (below 2^24); set 3 or a longer
//! message is refused at once with `done` and `error`. `busy` until the
//! verdict, then `done` with `verdict` (1 = valid signature), or with
//! `error` (a wrong stream length or a core error; `verdict` low).
//! `abort_job` returns to idle from any state with `done` and `error`.
//! The engine does not drain a stream that is longer than declared: the
//! top (or the DMA reset of the driver) does.

use crate::mldsa::bit_pack::BytePacker;
use crate::mldsa::bit_unpack::BitUnpacker;
use crate::mldsa::c;
use crate::mldsa::coeffwise::InfNormCheck;
use crate::mldsa::decompose::{Decompose, DECOMPOSE_LATENCY};
use crate::mldsa::expand_a::SQUEEZE_BYTES;
use crate::mldsa::hint_codec::HintUnpacker;
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
// The refusal tests bits 31..24 of `msg_bytes`.
const _: () = assert!(MAX_MSG_BYTES == 1 << 24);
// The valid pipeline beside Decompose is written out for 3 stages.
const _: () = assert!(DECOMPOSE_LATENCY == 3);
/// Messages of this many bytes or more are refused.
pub const MAX_MSG_BYTES: u64 = ps_pl_contract::regmap::mldsa::VERIFY_MAX_MSG_BYTES as u64;

/// Phases of the verification.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum VerifyPhase {
    /// Waiting for `start`.
    Idle,
    /// pk into its buffer, tr = H(pk).
    LoadPk,
    /// σ into its buffer.
    LoadSig,
    /// μ = H(tr ‖ M′), or μ from the stream.
    Mu,
    /// The hint field through HintBitUnpack.
    Hints,
    /// c = SampleInBall(c̃).
    Challenge,
    /// c into slot 1.
    LoadC,
    /// NTT of slot 1 (c).
    NttC,
    /// Slot 1 (ĉ) into the polynomial memory (row 0).
    StoreCRows,
    /// ĉ from the polynomial memory into slot 1 (rows after the first).
    LoadCRows,
    /// −t1\[i\]·2^d into slot 2.
    LoadT,
    /// NTT of slot 2.
    NttT,
    /// Slot 0 = slot 1 ∘ slot 2.
    MulCt,
    /// z\[j\] into slot 1.
    LoadZ,
    /// NTT of slot 1 (z\[j\]).
    NttZ,
    /// Slot 1 (NTT(z\[j\])) into the polynomial memory (row 0).
    StoreZRows,
    /// NTT(z\[j\]) from the polynomial memory into slot 1 (rows after the
    /// first).
    LoadZRows,
    /// Â\[i\]\[j\] from the sampling ring into slot 2 (waiting for the
    /// sampler if it is not there yet).
    LoadA,
    /// Slot 0 += slot 1 ∘ slot 2.
    MulAz,
    /// INTT of slot 0.
    Intt,
    /// Slot 0 out through UseHint into the w1 packer.
    StoreW,
    /// c̃′ = H(μ ‖ w1Encode(w′1)) against c̃.
    Commit,
}

/// The Verify sequencer (its cores are [`super::engine::MlDsaEngine`]'s).
#[derive(LogicBlock)]
pub struct MlDsaVerify {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Start a verification (taken when idle).
    pub start: Signal<In, Bit>,
    /// Parameter set: 0, 1, 2 for ML-DSA-44, -65, -87.
    pub parameter_set: Signal<In, Bits<2>>,
    /// μ comes on the stream instead of M′.
    pub external_mu: Signal<In, Bit>,
    /// Length of M′ in bytes (ignored with `external_mu`).
    pub msg_bytes: Signal<In, Bits<32>>,
    /// Abandon the verification (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// A verification runs.
    pub busy: Signal<Out, Bit>,
    /// The last verification ended (until the next start).
    pub done: Signal<Out, Bit>,
    /// It ended with an error (refusal, stream length, core error, abort).
    pub error: Signal<Out, Bit>,
    /// With `done` and not `error`: the signature is valid.
    pub verdict: Signal<Out, Bit>,
    /// Input stream TDATA: pk ‖ σ ‖ (M′ or μ).
    pub s_data: Signal<In, Bits<32>>,
    /// Input stream TVALID.
    pub s_valid: Signal<In, Bit>,
    /// Input stream TLAST.
    pub s_last: Signal<In, Bit>,
    /// Input stream TREADY.
    pub s_ready: Signal<Out, Bit>,
    // The shared cores' ports (`super::engine::MlDsaEngine` connects
    // them to its sponge engine and NTT core while this job runs).
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
    hints: HintUnpacker,
    /// ExpandA into the sampling ring.
    matrix: MatrixSampler,
    z_norm: InfNormCheck,
    decompose: Decompose,
    w1_packer: BytePacker,
    pk_buf: KeyBuffer<10, 12>,
    sig_buf: KeyBuffer<11, 13>,
    w1_buf: KeyBuffer<8, 10>,
    rho: [DFF<Bits<32>>; 8],
    mu: [DFF<Bits<32>>; MU_WORDS],
    phase: DFF<VerifyPhase>,
    launched: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    verdict_flag: DFF<Bit>,
    // Parameter-set values, latched at start.
    external: DFF<Bit>,
    k: DFF<Bits<4>>,
    l: DFF<Bits<4>>,
    wide: DFF<Bit>,
    tau: DFF<Bits<7>>,
    omega: DFF<Bits<7>>,
    gamma1: DFF<Bits<23>>,
    gamma1_bits: DFF<Bits<5>>,
    z_bound: DFF<Bits<24>>,
    w1_bits: DFF<Bits<5>>,
    ct_words: DFF<Bits<5>>,
    z_words: DFF<Bits<8>>,
    hint_base: DFF<Bits<11>>,
    hint_bytes: DFF<Bits<7>>,
    hint_words: DFF<Bits<8>>,
    pk_words: DFF<Bits<11>>,
    sig_words: DFF<Bits<11>>,
    w1_words: DFF<Bits<9>>,
    msg_len: DFF<Bits<24>>,
    in_words: DFF<Bits<24>>,
    // Word indices of the last word of each streamed part, latched so no
    // adder sits in front of the compares (24-bit counters).
    mu_end: DFF<Bits<24>>,
    mu_last: DFF<Bits<24>>,
    pk_last: DFF<Bits<24>>,
    sig_last: DFF<Bits<24>>,
    ct_last: DFF<Bits<24>>,
    commit_end: DFF<Bits<24>>,
    commit_last: DFF<Bits<24>>,
    // Loop state.
    row: DFF<Bits<4>>,
    col: DFF<Bits<4>>,
    count: DFF<Bits<9>>,
    words_in: DFF<Bits<24>>,
    rd_ptr: DFF<Bits<11>>,
    words_left: DFF<Bits<8>>,
    z_ptr: DFF<Bits<11>>,
    t_ptr: DFF<Bits<11>>,
    w1_ptr: DFF<Bits<10>>,
    ser_word: DFF<Bits<32>>,
    ser_left: DFF<Bits<3>>,
    stopped: DFF<Bit>,
    z_bad: DFF<Bit>,
    z_checking: DFF<Bit>,
    mismatch: DFF<Bit>,
    /// The sponge's next input word, valid and last (see `feed_take`).
    feed_word: DFF<Bits<32>>,
    feed_valid: DFF<Bit>,
    feed_last: DFF<Bit>,
    /// The last c̃′ word differed from c̃: registered, so the σ buffer's
    /// read feeds a flip-flop rather than the verdict logic.
    word_differs: DFF<Bit>,
    pipe: [DFF<Bit>; DECOMPOSE_LATENCY],
    // Combinational.
    rd_next: Signal<Local, Bits<11>>,
    ser_byte: Signal<Local, Bits<8>>,
    ser_valid: Signal<Local, Bit>,
    ser_take: Signal<Local, Bit>,
    ser_take_pair: Signal<Local, Bit>,
    ser_byte_pair: Signal<Local, Bits<8>>,
    ser_load: Signal<Local, Bit>,
    ser_room: Signal<Local, Bit>,
    mu_word: Signal<Local, Bits<32>>,
    c_ring_first: Constant<Bits<7>>,
    stream_take: Signal<Local, Bit>,
    last_expected: Signal<Local, Bit>,
    t1_scaled: Signal<Local, Bits<23>>,
    t1_negated: Signal<Local, Bits<23>>,
    store_take: Signal<Local, Bit>,
    count_next: Signal<Local, Bits<9>>,
    fail: Signal<Local, Bit>,
    msg_words: Signal<Local, Bits<32>>,
    msg_end: Signal<Local, Bits<32>>,
    msg_last: Signal<Local, Bits<32>>,
    feed_data: Signal<Local, Bits<32>>,
    feed_valid_in: Signal<Local, Bit>,
    feed_last_in: Signal<Local, Bit>,
    feed_room: Signal<Local, Bit>,
    feed_take: Signal<Local, Bit>,
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
    c_q: Constant<Bits<23>>,
    c_set_k: [Constant<Bits<4>>; 3],
    c_set_l: [Constant<Bits<4>>; 3],
    c_set_tau: [Constant<Bits<7>>; 3],
    c_set_omega: [Constant<Bits<7>>; 3],
    c_set_gamma1: [Constant<Bits<23>>; 3],
    c_set_gamma1_bits: [Constant<Bits<5>>; 3],
    c_set_z_bound: [Constant<Bits<24>>; 3],
    c_set_w1_bits: [Constant<Bits<5>>; 3],
    c_set_ct_words: [Constant<Bits<5>>; 3],
    c_set_z_words: [Constant<Bits<8>>; 3],
    c_set_hint_base: [Constant<Bits<11>>; 3],
    c_set_hint_bytes: [Constant<Bits<7>>; 3],
    c_set_hint_words: [Constant<Bits<8>>; 3],
    c_set_pk_words: [Constant<Bits<11>>; 3],
    c_set_sig_words: [Constant<Bits<11>>; 3],
    c_set_w1_words: [Constant<Bits<9>>; 3],
    c_set_pk_last: [Constant<Bits<24>>; 3],
    c_set_sig_last: [Constant<Bits<24>>; 3],
    c_set_ct_last: [Constant<Bits<24>>; 3],
    c_set_commit_end: [Constant<Bits<24>>; 3],
    c_set_commit_last: [Constant<Bits<24>>; 3],
}

/// Clocks from start to done of the NIST ACVP sigVer valid cases
/// (`pqc_selftest::vectors::ML_DSA[set].sigver[0]`, M′ of the external
/// interface) with a source that never stalls, for ML-DSA-44, -65, -87:
/// measured on the model and asserted on it and on the exported RTL
/// (`verify_rtl_equals_the_model_clock_for_clock_on_every_set`).
pub const ACVP_VERIFY_CLOCKS: [usize; 3] = [12_024, 17_464, 26_990];

/// The clocks of the same cases on an outside sponge of the shared
/// configuration (R = 2), as in `crate::axi::EnginesAccel`: measured on
/// its exported RTL and asserted at the bus.
pub const SHARED_ACVP_VERIFY_CLOCKS: [usize; 3] = [11_736, 17_152, 26_126];

/// Words of the σ part of the input stream (σ padded to a word).
pub const fn sig_stream_words(p: &Params) -> usize {
    p.sig_len().div_ceil(4)
}

/// Words of the whole input stream of a verification of an `msg_bytes`
/// M′ (or of an external μ).
pub const fn verify_stream_words(p: &Params, external_mu: bool, msg_bytes: usize) -> usize {
    let tail = if external_mu { 4 * MU_WORDS } else { msg_bytes };
    ps_pl_contract::regmap::mldsa::verify_stream_words(p.pk_len(), p.sig_len(), tail)
}

/// M′ of FIPS 204's external interface (pure ML-DSA, Algorithm 3):
/// 0 ‖ |ctx| ‖ ctx ‖ M, what the stream carries after σ.
pub fn pure_m_prime(message: &[u8], context: &[u8]) -> Vec<u8> {
    [&[0, context.len() as u8][..], context, message].concat()
}

/// The input stream of a verification as words (the layout above).
pub fn verify_stream(pk: &[u8], sig: &[u8], tail: &[u8]) -> Vec<u32> {
    let mut words = Vec::new();
    for part in [pk, sig, tail] {
        words.extend(part.chunks(4).map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        }));
    }
    words
}

impl Default for MlDsaVerify {
    fn default() -> Self {
        let z_poly = |p: &Params| Params::poly_bytes(p.gamma1_bits());
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
            verdict: Default::default(),
            s_data: Default::default(),
            s_valid: Default::default(),
            s_last: Default::default(),
            s_ready: Default::default(),
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
            hints: Default::default(),
            ball_start: Default::default(),
            ball_tau: Default::default(),
            ball_data: Default::default(),
            ball_data_valid: Default::default(),
            ball_read_index: Default::default(),
            ball_data_ready: Default::default(),
            ball_done: Default::default(),
            ball_coeff: Default::default(),
            matrix: Default::default(),
            z_norm: Default::default(),
            decompose: Default::default(),
            w1_packer: Default::default(),
            pk_buf: Default::default(),
            sig_buf: Default::default(),
            w1_buf: Default::default(),
            rho: Default::default(),
            mu: Default::default(),
            phase: Default::default(),
            launched: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            verdict_flag: Default::default(),
            external: Default::default(),
            k: Default::default(),
            l: Default::default(),
            wide: Default::default(),
            tau: Default::default(),
            omega: Default::default(),
            gamma1: Default::default(),
            gamma1_bits: Default::default(),
            z_bound: Default::default(),
            w1_bits: Default::default(),
            ct_words: Default::default(),
            z_words: Default::default(),
            hint_base: Default::default(),
            hint_bytes: Default::default(),
            hint_words: Default::default(),
            pk_words: Default::default(),
            sig_words: Default::default(),
            w1_words: Default::default(),
            msg_len: Default::default(),
            in_words: Default::default(),
            mu_end: Default::default(),
            mu_last: Default::default(),
            pk_last: Default::default(),
            sig_last: Default::default(),
            ct_last: Default::default(),
            commit_end: Default::default(),
            commit_last: Default::default(),
            row: Default::default(),
            col: Default::default(),
            count: Default::default(),
            words_in: Default::default(),
            rd_ptr: Default::default(),
            words_left: Default::default(),
            z_ptr: Default::default(),
            t_ptr: Default::default(),
            w1_ptr: Default::default(),
            ser_word: Default::default(),
            ser_left: Default::default(),
            stopped: Default::default(),
            z_bad: Default::default(),
            z_checking: Default::default(),
            mismatch: Default::default(),
            pipe: Default::default(),
            rd_next: Default::default(),
            ser_byte: Default::default(),
            ser_valid: Default::default(),
            ser_take: Default::default(),
            ser_take_pair: Default::default(),
            ser_byte_pair: Default::default(),
            ser_load: Default::default(),
            ser_room: Default::default(),
            mu_word: Default::default(),
            c_ring_first: Constant::new((RING_FIRST_POLY as u64).into()),
            stream_take: Default::default(),
            last_expected: Default::default(),
            t1_scaled: Default::default(),
            t1_negated: Default::default(),
            store_take: Default::default(),
            count_next: Default::default(),
            fail: Default::default(),
            msg_words: Default::default(),
            msg_end: Default::default(),
            msg_last: Default::default(),
            word_differs: Default::default(),
            feed_word: Default::default(),
            feed_valid: Default::default(),
            feed_last: Default::default(),
            feed_data: Default::default(),
            feed_valid_in: Default::default(),
            feed_last_in: Default::default(),
            feed_room: Default::default(),
            feed_take: Default::default(),
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
            c_set_k: SETS.map(|p| c(p.k as u64)),
            c_set_l: SETS.map(|p| c(p.l as u64)),
            c_set_tau: SETS.map(|p| c(p.tau as u64)),
            c_set_omega: SETS.map(|p| c(p.omega as u64)),
            c_set_gamma1: SETS.map(|p| c(p.gamma1 as u64)),
            c_set_gamma1_bits: SETS.map(|p| c(p.gamma1_bits() as u64)),
            c_set_z_bound: SETS.map(|p| c((p.gamma1 - p.beta()) as u64)),
            c_set_w1_bits: SETS.map(|p| c(p.w1_bits() as u64)),
            c_set_ct_words: SETS.map(|p| c(p.ctilde_bytes() as u64 / 4)),
            c_set_z_words: SETS.map(|p| c(z_poly(&p) as u64 / 4)),
            c_set_hint_base: SETS.map(|p| c((p.ctilde_bytes() + p.l * z_poly(&p)) as u64 / 4)),
            c_set_hint_bytes: SETS.map(|p| c((p.omega + p.k) as u64)),
            c_set_hint_words: SETS.map(|p| c((p.omega + p.k).div_ceil(4) as u64)),
            c_set_pk_words: SETS.map(|p| c(p.pk_len() as u64 / 4)),
            c_set_sig_words: SETS.map(|p| c(sig_stream_words(&p) as u64)),
            c_set_w1_words: SETS.map(|p| c(p.w1_packed_len() as u64 / 4)),
            c_set_pk_last: SETS.map(|p| c(p.pk_len() as u64 / 4 - 1)),
            c_set_sig_last: SETS.map(|p| c(sig_stream_words(&p) as u64 - 1)),
            c_set_ct_last: SETS.map(|p| c(p.ctilde_bytes() as u64 / 4 - 1)),
            c_set_commit_end: SETS.map(|p| c((MU_WORDS + p.w1_packed_len() / 4) as u64)),
            c_set_commit_last: SETS.map(|p| c((MU_WORDS + p.w1_packed_len() / 4) as u64 - 1)),
        }
    }
}

impl Logic for MlDsaVerify {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            launched,
            done_flag,
            error_flag,
            verdict_flag,
            external,
            k,
            l,
            wide,
            tau,
            omega,
            gamma1,
            gamma1_bits,
            z_bound,
            w1_bits,
            ct_words,
            z_words,
            hint_base,
            hint_bytes,
            hint_words,
            pk_words,
            sig_words,
            w1_words,
            msg_len,
            in_words,
            mu_end,
            mu_last,
            pk_last,
            sig_last,
            ct_last,
            commit_end,
            commit_last,
            row,
            col,
            count,
            words_in,
            rd_ptr,
            words_left,
            z_ptr,
            t_ptr,
            w1_ptr,
            ser_word,
            ser_left,
            stopped,
            z_bad,
            z_checking,
            mismatch,
            word_differs,
            feed_word,
            feed_valid,
            feed_last
        );
        for w in 0..8 {
            self.rho[w].clock.next = self.clock.val();
            self.rho[w].d.next = self.rho[w].q.val();
        }
        for w in 0..MU_WORDS {
            self.mu[w].clock.next = self.clock.val();
            self.mu[w].d.next = self.mu[w].q.val();
        }
        for s in 0..3 {
            self.pipe[s].clock.next = self.clock.val();
        }
        clock!(
            self, clock, unpacker, hints, matrix, z_norm, decompose, w1_packer, pk_buf, sig_buf,
            w1_buf
        );

        // ---- The serializer's output byte (see below).
        self.ser_byte.next = self.ser_word.q.val().get_bits::<8>(0);
        self.ser_byte_pair.next = self.ser_word.q.val().get_bits::<8>(8);
        self.ser_valid.next = self.ser_left.q.val() != 0;
        self.ser_room.next = false;

        // ---- Defaults: no requests, no stream traffic, no writes.
        self.sponge_reset.next = self.reset.val();
        self.sponge_start.next = false;
        self.sponge_op.next = self.c_op_sponge.val();
        self.sponge_arg0.next = self.c_shake256.val();
        self.sponge_arg1.next = 0.into();
        self.sponge_arg2.next = 64.into();
        // The phases offer the next input word on `feed_*`; it is taken
        // (`feed_take`) into the feed register when that is empty or being
        // emptied, and the sponge absorbs from the register (its sources
        // include block-RAM reads, and the sponge absorbs its input
        // straight into the state).
        self.feed_data.next = self.s_data.val();
        self.feed_valid_in.next = false;
        self.feed_last_in.next = false;
        self.feed_room.next = !self.feed_valid.q.val() | self.sponge_in_ready.val();
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
        // ĉ at 0, NTT(z[j]) at 1 + j.
        self.pm_store_poly.next = 0.into();
        self.pm_load_poly.next = 0.into();
        if (self.phase.q.val() == VerifyPhase::StoreZRows)
            | (self.phase.q.val() == VerifyPhase::LoadZRows)
        {
            self.pm_store_poly.next = bit_cast::<7, 4>(self.col.q.val()) + 1;
            self.pm_load_poly.next = bit_cast::<7, 4>(self.col.q.val()) + 1;
        }
        if self.phase.q.val() == VerifyPhase::LoadA {
            self.pm_load_poly.next =
                self.c_ring_first.val() | bit_cast::<7, 2>(self.matrix.read_slot.val());
        }
        self.matrix.consume.next = false;
        self.matrix.start.next = false;
        self.matrix.halt.next = false;
        self.unpacker.reset.next = self.reset.val();
        self.unpacker.width.next = self.gamma1_bits.q.val();
        self.unpacker.centred.next = true;
        self.unpacker.offset.next = self.gamma1.q.val();
        self.unpacker.max_value.next = 0xF_FFFF.into();
        self.unpacker.data.next = self.ser_byte.val();
        self.unpacker.data_valid.next = false;
        self.unpacker.data_pair.next = self.ser_byte_pair.val();
        self.unpacker.pair_valid.next = false;
        self.hints.reset.next = self.reset.val();
        self.hints.k.next = self.k.q.val();
        self.hints.omega.next = self.omega.q.val();
        self.hints.data.next = self.ser_byte.val();
        self.hints.data_valid.next = false;
        self.hints.data_last.next = false;
        self.hints.hint_ready.next = false;
        self.ball_start.next = false;
        self.ball_tau.next = self.tau.q.val();
        self.ball_data.next = self.ser_byte.val();
        self.ball_data_valid.next = false;
        self.ball_read_index.next = self.count.q.val().get_bits::<8>(0);
        self.z_norm.x.next = bit_cast::<25, 23>(self.unpacker.coeff.val());
        self.z_norm.canonical.next = true;
        self.z_norm.bound.next = self.z_bound.q.val();
        self.decompose.r.next = self.ntt_m_tdata.val().get_bits::<23>(0);
        self.decompose.wide.next = self.wide.q.val();
        self.decompose.hint.next = self.hints.hint.val();
        self.w1_packer.reset.next = self.reset.val();
        self.w1_packer.width.next = self.w1_bits.q.val();
        self.w1_packer.centred.next = false;
        self.w1_packer.offset.next = 0.into();
        self.w1_packer.coeff.next = bit_cast::<23, 6>(self.decompose.r1_hinted.val());
        self.w1_packer.coeff_valid.next = self.pipe[2].q.val();
        self.w1_packer.data_ready.next = true;
        self.pk_buf.byte_write.next = false;
        self.pk_buf.byte_address.next = 0.into();
        self.pk_buf.byte_data.next = 0.into();
        self.pk_buf.word_write.next = false;
        self.pk_buf.word_address.next = self.words_in.q.val().get_bits::<10>(0);
        self.pk_buf.word_data.next = self.s_data.val();
        self.sig_buf.byte_write.next = false;
        self.sig_buf.byte_address.next = 0.into();
        self.sig_buf.byte_data.next = 0.into();
        self.sig_buf.word_write.next = false;
        self.sig_buf.word_address.next = self.words_in.q.val().get_bits::<11>(0);
        self.sig_buf.word_data.next = self.s_data.val();
        self.w1_buf.byte_write.next = self.w1_packer.data_valid.val();
        self.w1_buf.byte_address.next = self.w1_ptr.q.val();
        self.w1_buf.byte_data.next = self.w1_packer.data.val();
        self.w1_buf.word_write.next = false;
        self.w1_buf.word_address.next = 0.into();
        self.w1_buf.word_data.next = 0.into();
        self.s_ready.next = false;
        self.stream_take.next = false;
        self.last_expected.next = false;
        self.store_take.next = false;
        self.fail.next = false;
        self.msg_words.next = (self.msg_bytes.val() + 3) >> 2;
        // 16 + ⌈|M′| / 4⌉ and one less, each with a single adder.
        self.msg_end.next = (self.msg_bytes.val() + 67) >> 2;
        self.msg_last.next = (self.msg_bytes.val() + 63) >> 2;
        self.word_differs.d.next = false;
        for s in 1..3 {
            self.pipe[s].d.next = self.pipe[s - 1].q.val();
        }
        self.pipe[0].d.next = false;
        // z\[j\]'s norm check runs one clock behind the unpacker.
        self.z_checking.d.next = false;
        if self.z_checking.q.val() & self.z_norm.exceeds.val() {
            self.z_bad.d.next = true;
        }
        if self.w1_packer.data_valid.val() {
            self.w1_ptr.d.next = self.w1_ptr.q.val() + 1;
        }

        // ---- −t1·2^d mod q (t1·2^d ≤ q − 1, so one subtraction).
        self.t1_scaled.next = self.unpacker.coeff.val() << 13;
        self.t1_negated.next = 0.into();
        if self.unpacker.coeff.val() != 0 {
            self.t1_negated.next = self.c_q.val() - self.t1_scaled.val();
        }

        // ---- Word selects.
        self.mu_word.next = self.mu[0].q.val();
        for w in 0..MU_WORDS {
            if self.words_in.q.val().index() == w {
                self.mu_word.next = self.mu[w].q.val();
            }
        }
        self.matrix.rho_word.next = self.rho[0].q.val();
        for w in 0..8 {
            if self.matrix.rho_index.val().index() == w {
                self.matrix.rho_word.next = self.rho[w].q.val();
            }
        }

        // ---- Word-to-byte serializer, fed from a buffer (at `rd_ptr`,
        // read one clock ahead) or from the sponge. A word is loaded when
        // the last byte goes, so bytes flow one a clock.
        self.ser_take.next = false;
        self.ser_take_pair.next = false;
        self.ser_load.next = false;
        self.rd_next.next = self.rd_ptr.q.val();
        self.count_next.next = self.count.q.val();

        match self.phase.q.val() {
            VerifyPhase::Idle => {
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.verdict_flag.d.next = false;
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
                                self.gamma1.d.next = self.c_set_gamma1[s].val();
                                self.gamma1_bits.d.next = self.c_set_gamma1_bits[s].val();
                                self.z_bound.d.next = self.c_set_z_bound[s].val();
                                self.w1_bits.d.next = self.c_set_w1_bits[s].val();
                                self.ct_words.d.next = self.c_set_ct_words[s].val();
                                self.z_words.d.next = self.c_set_z_words[s].val();
                                self.hint_base.d.next = self.c_set_hint_base[s].val();
                                self.hint_bytes.d.next = self.c_set_hint_bytes[s].val();
                                self.hint_words.d.next = self.c_set_hint_words[s].val();
                                self.pk_words.d.next = self.c_set_pk_words[s].val();
                                self.sig_words.d.next = self.c_set_sig_words[s].val();
                                self.w1_words.d.next = self.c_set_w1_words[s].val();
                                self.pk_last.d.next = self.c_set_pk_last[s].val();
                                self.sig_last.d.next = self.c_set_sig_last[s].val();
                                self.ct_last.d.next = self.c_set_ct_last[s].val();
                                self.commit_end.d.next = self.c_set_commit_end[s].val();
                                self.commit_last.d.next = self.c_set_commit_last[s].val();
                            }
                        }
                        self.wide.d.next = self.parameter_set.val() != 0;
                        self.external.d.next = self.external_mu.val();
                        self.msg_len.d.next = self.msg_bytes.val().get_bits::<24>(0);
                        // Words after σ: 16 for μ, ⌈|M′| / 4⌉ for M′.
                        self.in_words.d.next = 16.into();
                        self.mu_end.d.next = self.msg_end.val().get_bits::<24>(0);
                        self.mu_last.d.next = self.msg_last.val().get_bits::<24>(0);
                        if !self.external_mu.val() {
                            self.in_words.d.next = self.msg_words.val().get_bits::<24>(0);
                        }
                        self.z_bad.d.next = false;
                        self.mismatch.d.next = false;
                        // An abort may have left bits in the packer.
                        self.w1_packer.reset.next = true;
                        self.phase.d.next = VerifyPhase::LoadPk;
                        self.launched.d.next = false;
                    }
                }
            }
            VerifyPhase::LoadPk => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    // tr = H(pk, 64), unless μ comes from outside.
                    self.sponge_start.next = !self.external.q.val();
                    self.sponge_arg1.next = bit_cast::<32, 11>(self.pk_words.q.val()) << 2;
                    self.words_in.d.next = 0.into();
                    self.count.d.next = 0.into();
                } else {
                    self.s_ready.next = (self.words_in.q.val()
                        < bit_cast::<24, 11>(self.pk_words.q.val()))
                        & (self.external.q.val() | self.feed_room.val());
                    self.stream_take.next = self.s_ready.val() & self.s_valid.val();
                    self.feed_data.next = self.s_data.val();
                    self.feed_valid_in.next = self.s_valid.val()
                        & (self.words_in.q.val() < bit_cast::<24, 11>(self.pk_words.q.val()))
                        & !self.external.q.val();
                    self.feed_last_in.next = self.words_in.q.val() == self.pk_last.q.val();
                    if self.stream_take.val() {
                        self.pk_buf.word_write.next = true;
                        for w in 0..8 {
                            if self.words_in.q.val().index() == w {
                                self.rho[w].d.next = self.s_data.val();
                            }
                        }
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        self.fail.next = self.s_last.val();
                    }
                    // tr into the μ registers.
                    self.sponge_out_ready.next = true;
                    if self.sponge_out_valid.val() {
                        for w in 0..MU_WORDS {
                            if self.count.q.val().index() == w {
                                self.mu[w].d.next = self.sponge_out_data.val();
                            }
                        }
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    if (self.words_in.q.val() == bit_cast::<24, 11>(self.pk_words.q.val()))
                        & (self.external.q.val() | self.sponge_done.val())
                    {
                        self.error_flag.d.next = self.sponge_error.val() & !self.external.q.val();
                        self.phase.d.next = VerifyPhase::LoadSig;
                        self.launched.d.next = false;
                    }
                }
            }
            VerifyPhase::LoadSig => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.words_in.d.next = 0.into();
                } else {
                    self.s_ready.next =
                        self.words_in.q.val() < bit_cast::<24, 11>(self.sig_words.q.val());
                    self.stream_take.next = self.s_ready.val() & self.s_valid.val();
                    // σ ends the stream only when an empty M′ follows.
                    self.last_expected.next = !self.external.q.val()
                        & (self.in_words.q.val() == 0)
                        & (self.words_in.q.val() == self.sig_last.q.val());
                    if self.stream_take.val() {
                        self.sig_buf.word_write.next = true;
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        self.fail.next = self.s_last.val() != self.last_expected.val();
                    }
                    if self.words_in.q.val() == bit_cast::<24, 11>(self.sig_words.q.val()) {
                        self.phase.d.next = VerifyPhase::Mu;
                        self.launched.d.next = false;
                    }
                }
            }
            VerifyPhase::Mu => {
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
                            if self.words_in.q.val().index() == w {
                                self.mu[w].d.next = self.s_data.val();
                            }
                        }
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        self.fail.next = self.s_last.val() != (self.words_in.q.val() == 15);
                    }
                    if self.words_in.q.val() == 16 {
                        self.phase.d.next = VerifyPhase::Hints;
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
                    if self.feed_valid_in.val() & self.feed_room.val() {
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
                        self.phase.d.next = VerifyPhase::Hints;
                        self.launched.d.next = false;
                    }
                }
            }
            VerifyPhase::Hints => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.hints.reset.next = true;
                    self.rd_next.next = self.hint_base.q.val();
                    self.rd_ptr.d.next = self.hint_base.q.val();
                    self.words_left.d.next = self.hint_words.q.val();
                    self.ser_left.d.next = 0.into();
                    self.count.d.next = 0.into();
                } else {
                    self.ser_valid.next = (self.ser_left.q.val() != 0)
                        & (self.count.q.val() < bit_cast::<9, 7>(self.hint_bytes.q.val()));
                    self.hints.data_valid.next = self.ser_valid.val();
                    self.hints.data_last.next =
                        self.count.q.val() + 1 == bit_cast::<9, 7>(self.hint_bytes.q.val());
                    self.ser_take.next = self.ser_valid.val() & self.hints.data_ready.val();
                    if self.ser_take.val() {
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    self.ser_room.next = (self.ser_left.q.val() == 0)
                        | ((self.ser_left.q.val() == 1) & self.ser_take.val());
                    self.ser_load.next = self.ser_room.val() & (self.words_left.q.val() != 0);
                    if self.ser_load.val() {
                        self.rd_next.next = self.rd_ptr.q.val() + 1;
                        self.rd_ptr.d.next = self.rd_ptr.q.val() + 1;
                        self.words_left.d.next = self.words_left.q.val() - 1;
                    }
                    if self.hints.checked.val() {
                        self.launched.d.next = false;
                        if self.hints.malformed.val() {
                            self.done_flag.d.next = true;
                            self.phase.d.next = VerifyPhase::Idle;
                        } else {
                            self.phase.d.next = VerifyPhase::Challenge;
                        }
                    }
                }
            }
            VerifyPhase::Challenge => {
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
                } else {
                    // c̃ from the σ buffer into the sponge.
                    self.feed_data.next = self.sig_buf.read_word.val();
                    self.feed_valid_in.next =
                        self.words_in.q.val() < bit_cast::<24, 5>(self.ct_words.q.val());
                    self.feed_last_in.next = self.words_in.q.val() == self.ct_last.q.val();
                    if self.feed_valid_in.val() & self.feed_room.val() {
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
                        self.row.d.next = 0.into();
                        self.t_ptr.d.next = 8.into();
                        self.w1_ptr.d.next = 0.into();
                    }
                    if self.stopped.q.val() {
                        self.launched.d.next = false;
                        self.phase.d.next = VerifyPhase::LoadC;
                        // The sponge is free: the sampler starts on Â[0][0].
                        self.matrix.start.next = true;
                    }
                }
            }
            VerifyPhase::LoadC => {
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
                        self.phase.d.next = VerifyPhase::NttC;
                    }
                }
            }
            VerifyPhase::NttC => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_ntt.val();
                    self.ntt_arg0.next = 1.into();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = VerifyPhase::StoreCRows;
                }
            }
            VerifyPhase::StoreCRows => {}
            VerifyPhase::LoadCRows => {}
            VerifyPhase::StoreZRows => {}
            VerifyPhase::LoadZRows => {}
            VerifyPhase::LoadT => {}
            VerifyPhase::LoadZ => {}
            VerifyPhase::NttT => {}
            VerifyPhase::NttZ => {}
            VerifyPhase::MulCt => {}
            VerifyPhase::MulAz => {}
            VerifyPhase::LoadA => {
                if !self.launched.q.val() {
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
                    self.phase.d.next = VerifyPhase::MulAz;
                }
            }
            VerifyPhase::Intt => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_intt.val();
                    self.ntt_arg0.next = 0.into();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = VerifyPhase::StoreW;
                }
            }
            VerifyPhase::StoreW => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_store.val();
                    self.ntt_arg0.next = 0.into();
                } else {
                    // A coefficient leaves the core with its hint bit; the
                    // packer (at most 6 bits in, 8 out a clock) always has
                    // room when it arrives.
                    self.ntt_m_tready.next =
                        self.hints.hint_valid.val() & self.w1_packer.coeff_ready.val();
                    self.store_take.next = self.ntt_m_tvalid.val() & self.ntt_m_tready.val();
                    self.hints.hint_ready.next = self.store_take.val();
                    self.pipe[0].d.next = self.store_take.val();
                    if self.ntt_done.val()
                        & !self.pipe[0].q.val()
                        & !self.pipe[1].q.val()
                        & !self.pipe[2].q.val()
                        & !self.w1_packer.data_valid.val()
                    {
                        self.error_flag.d.next = self.ntt_error.val();
                        self.launched.d.next = false;
                        if self.row.q.val() + 1 == self.k.q.val() {
                            self.phase.d.next = VerifyPhase::Commit;
                        } else {
                            self.row.d.next = self.row.q.val() + 1;
                            self.phase.d.next = VerifyPhase::LoadCRows;
                        }
                    }
                }
            }
            VerifyPhase::Commit => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = (bit_cast::<32, 9>(self.w1_words.q.val()) << 2) + 64;
                    self.sponge_arg2.next = bit_cast::<32, 5>(self.ct_words.q.val()) << 2;
                    self.words_in.d.next = 0.into();
                    self.count.d.next = 0.into();
                    self.count_next.next = 0.into();
                    self.rd_next.next = 0.into();
                    self.rd_ptr.d.next = 0.into();
                } else {
                    // μ, then w1Encode(w′1) from its buffer.
                    self.feed_data.next = self.mu_word.val();
                    if self.words_in.q.val() >= 16 {
                        self.feed_data.next = self.w1_buf.read_word.val();
                    }
                    self.feed_valid_in.next = self.words_in.q.val() < self.commit_end.q.val();
                    self.feed_last_in.next = self.words_in.q.val() == self.commit_last.q.val();
                    if self.feed_valid_in.val() & self.feed_room.val() {
                        self.words_in.d.next = self.words_in.q.val() + 1;
                        if self.words_in.q.val() >= 16 {
                            self.rd_next.next = self.rd_ptr.q.val() + 1;
                            self.rd_ptr.d.next = self.rd_ptr.q.val() + 1;
                        }
                    }
                    // c̃′ word by word against c̃ (σ words from 0).
                    self.sponge_out_ready.next = true;
                    if self.sponge_out_valid.val() {
                        self.count_next.next = self.count.q.val() + 1;
                        self.word_differs.d.next =
                            self.sponge_out_data.val() != self.sig_buf.read_word.val();
                    }
                    if self.word_differs.q.val() {
                        self.mismatch.d.next = true;
                    }
                    self.count.d.next = self.count_next.val();
                    // `sponge_done` comes at least a clock after the last
                    // word (the engine's FIFO is empty only then), so that
                    // word's comparison is in `word_differs` by now.
                    if self.sponge_done.val() {
                        self.error_flag.d.next = self.sponge_error.val();
                        self.verdict_flag.d.next = !self.mismatch.q.val()
                            & !self.word_differs.q.val()
                            & !self.z_bad.q.val()
                            & !self.sponge_error.val();
                        self.done_flag.d.next = true;
                        self.phase.d.next = VerifyPhase::Idle;
                    }
                }
            }
            _ => {
                self.phase.d.next = VerifyPhase::Idle;
            }
        }
        // ---- Shared by LoadT and LoadZ.
        if (self.phase.q.val() == VerifyPhase::LoadT) | (self.phase.q.val() == VerifyPhase::LoadZ) {
            if self.phase.q.val() == VerifyPhase::LoadT {
                self.unpacker.width.next = 10.into();
                self.unpacker.centred.next = false;
                self.ntt_s_tdata.next = bit_cast::<32, 23>(self.t1_negated.val());
            }
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_load.val();
                self.unpacker.reset.next = true;
                self.ser_left.d.next = 0.into();
                self.count.d.next = 0.into();
                if self.phase.q.val() == VerifyPhase::LoadT {
                    self.ntt_arg0.next = 2.into();
                    self.rd_next.next = self.t_ptr.q.val();
                    self.rd_ptr.d.next = self.t_ptr.q.val();
                    self.words_left.d.next = 80.into();
                } else {
                    self.ntt_arg0.next = 1.into();
                    self.rd_next.next = self.z_ptr.q.val();
                    self.rd_ptr.d.next = self.z_ptr.q.val();
                    self.words_left.d.next = self.z_words.q.val();
                }
            } else {
                // Two bytes a clock while the word holds two.
                self.unpacker.data_valid.next = self.ser_valid.val();
                self.unpacker.pair_valid.next = self.ser_left.q.val() >= 2;
                self.ser_take_pair.next = self.unpacker.pair_taken.val();
                self.ser_take.next = self.ser_valid.val()
                    & self.unpacker.data_ready.val()
                    & !self.unpacker.pair_taken.val();
                self.ser_room.next = (self.ser_left.q.val() == 0)
                    | ((self.ser_left.q.val() == 1) & self.ser_take.val())
                    | ((self.ser_left.q.val() == 2) & self.ser_take_pair.val());
                self.ser_load.next = self.ser_room.val() & (self.words_left.q.val() != 0);
                if self.ser_load.val() {
                    self.rd_next.next = self.rd_ptr.q.val() + 1;
                    self.rd_ptr.d.next = self.rd_ptr.q.val() + 1;
                    self.words_left.d.next = self.words_left.q.val() - 1;
                }
                if self.unpacker.coeff_valid.val() & !self.count.q.val().get_bit(8) {
                    self.ntt_s_tvalid.next = true;
                    self.count.d.next = self.count.q.val() + 1;
                    self.z_checking.d.next = self.phase.q.val() == VerifyPhase::LoadZ;
                }
                if self.ntt_done.val() {
                    self.error_flag.d.next = self.ntt_error.val();
                    self.launched.d.next = false;
                    if self.phase.q.val() == VerifyPhase::LoadT {
                        self.t_ptr.d.next = self.rd_ptr.q.val();
                        self.phase.d.next = VerifyPhase::NttT;
                    } else {
                        self.z_ptr.d.next = self.rd_ptr.q.val();
                        self.phase.d.next = VerifyPhase::NttZ;
                    }
                }
            }
        }
        // ---- Shared by NttT and NttZ.
        if (self.phase.q.val() == VerifyPhase::NttT) | (self.phase.q.val() == VerifyPhase::NttZ) {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_ntt.val();
                self.ntt_arg0.next = 1.into();
                if self.phase.q.val() == VerifyPhase::NttT {
                    self.ntt_arg0.next = 2.into();
                }
            } else if self.ntt_done.val() {
                self.launched.d.next = false;
                if self.phase.q.val() == VerifyPhase::NttT {
                    self.phase.d.next = VerifyPhase::MulCt;
                } else {
                    self.phase.d.next = VerifyPhase::StoreZRows;
                }
            }
        }
        // ---- Shared by MulCt and MulAz.
        if (self.phase.q.val() == VerifyPhase::MulCt) | (self.phase.q.val() == VerifyPhase::MulAz) {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_pwmac.val();
                if self.phase.q.val() == VerifyPhase::MulCt {
                    self.ntt_op.next = self.c_op_pwm.val();
                }
            } else if self.ntt_done.val() {
                self.launched.d.next = false;
                if self.phase.q.val() == VerifyPhase::MulCt {
                    self.col.d.next = 0.into();
                    self.z_ptr.d.next = bit_cast::<11, 5>(self.ct_words.q.val());
                    self.phase.d.next = VerifyPhase::LoadZRows;
                    if self.row.q.val() == 0 {
                        self.phase.d.next = VerifyPhase::LoadZ;
                    }
                } else if self.col.q.val() + 1 == self.l.q.val() {
                    self.phase.d.next = VerifyPhase::Intt;
                } else {
                    self.col.d.next = self.col.q.val() + 1;
                    self.phase.d.next = VerifyPhase::LoadZRows;
                    if self.row.q.val() == 0 {
                        self.phase.d.next = VerifyPhase::LoadZ;
                    }
                }
            }
        }
        // ---- The row moves between slot 1 and the polynomial memory:
        // ĉ and NTT(z[j]) are made on row 0 and kept for the others.
        if (self.phase.q.val() == VerifyPhase::StoreCRows)
            | (self.phase.q.val() == VerifyPhase::LoadCRows)
            | (self.phase.q.val() == VerifyPhase::StoreZRows)
            | (self.phase.q.val() == VerifyPhase::LoadZRows)
        {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_arg0.next = 1.into();
                self.ntt_op.next = self.c_op_load_rows.val();
                if (self.phase.q.val() == VerifyPhase::StoreCRows)
                    | (self.phase.q.val() == VerifyPhase::StoreZRows)
                {
                    self.ntt_op.next = self.c_op_store_rows.val();
                }
            } else if self.ntt_done.val() {
                self.error_flag.d.next = self.ntt_error.val();
                self.launched.d.next = false;
                if (self.phase.q.val() == VerifyPhase::StoreCRows)
                    | (self.phase.q.val() == VerifyPhase::LoadCRows)
                {
                    self.phase.d.next = VerifyPhase::LoadT;
                } else {
                    self.phase.d.next = VerifyPhase::LoadA;
                }
            }
        }
        // ---- The sampler: Â[i][j] in row order into the ring, a coefficient
        // a clock, up to RING_SLOTS ahead of the core, from the end of the
        // challenge (the sponge's last other use before the commitment,
        // which comes after the last row). Its clocks depend on ρ only.
        self.matrix.k.next = self.k.q.val();
        self.matrix.l.next = self.l.q.val();
        self.matrix.feed_room.next = self.feed_room.val();
        self.matrix.squeeze_data.next = self.sponge_out_data.val();
        self.matrix.squeeze_valid.next = self.sponge_out_valid.val();
        self.matrix.produce_other.next = false;
        self.matrix.hold.next = false;
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
        }
        if self.matrix.sponge_abort.val() {
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
        }
        // ---- Buffer reads: the word at `rd_ptr` is on `read_word` (the RAM
        // reads `rd_next`, the pointer's next value); the commitment
        // compares c̃ at `count`.
        self.pk_buf.read_address.next = self.rd_next.val().get_bits::<10>(0);
        self.sig_buf.read_address.next = self.rd_next.val();
        self.w1_buf.read_address.next = self.rd_next.val().get_bits::<8>(0);
        if self.phase.q.val() == VerifyPhase::Commit {
            self.sig_buf.read_address.next = bit_cast::<11, 9>(self.count_next.val());
        }
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
            self.ser_word.d.next = self.pk_buf.read_word.val();
            if (self.phase.q.val() == VerifyPhase::LoadZ)
                | (self.phase.q.val() == VerifyPhase::Hints)
            {
                self.ser_word.d.next = self.sig_buf.read_word.val();
            }
            if self.phase.q.val() == VerifyPhase::Challenge {
                self.ser_word.d.next = self.sponge_out_data.val();
            }
            self.ser_left.d.next = 4.into();
        }
        // A stream of the wrong length, a core error or an abort ends the
        // job with `error`; the cores are stopped.
        if (self.fail.val() | (self.error_flag.q.val() & !self.done_flag.q.val()))
            & (self.phase.q.val() != VerifyPhase::Idle)
        {
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.verdict_flag.d.next = false;
            self.phase.d.next = VerifyPhase::Idle;
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
            self.ntt_start.next = true;
            self.ntt_op.next = self.c_ntt_abort.val();
            self.matrix.halt.next = true;
        }
        if self.abort_job.val() & (self.phase.q.val() != VerifyPhase::Idle) {
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.verdict_flag.d.next = false;
            self.phase.d.next = VerifyPhase::Idle;
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
            self.ntt_start.next = true;
            self.ntt_op.next = self.c_ntt_abort.val();
            self.matrix.halt.next = true;
        }
        if self.reset.val() {
            self.matrix.halt.next = true;
            self.phase.d.next = VerifyPhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
            self.verdict_flag.d.next = false;
        }
        // ---- The feed register.
        self.feed_take.next = self.feed_valid_in.val() & self.feed_room.val();
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
        if self.reset.val() | self.sponge_start.val() {
            self.feed_valid.d.next = false;
        }
        self.busy.next = self.phase.q.val() != VerifyPhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
        self.verdict.next = self.verdict_flag.q.val() & !self.error_flag.q.val();
    }
}

#[cfg(test)]
impl MlDsaVerify {
    /// The running phase.
    pub(crate) fn phase(&self) -> VerifyPhase {
        self.phase.q.val()
    }

    /// The last verification found ‖z‖∞ ≥ γ1 − β (a changed z also
    /// changes c̃′, so the verdict alone does not show the check ran).
    pub(crate) fn z_out_of_range(&self) -> bool {
        self.z_bad.q.val()
    }
}
