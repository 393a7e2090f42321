//! ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) for all three parameter
//! sets behind one command: ξ in, pk ‖ sk out, nothing in between on the
//! bus. The first whole operation of the ML-DSA engine.
//!
//! # Datapath
//!
//! This is the sequencer: it drives the sponge engine and the NTT core
//! of [`super::engine::MlDsaEngine`] through its `sponge_*` and `ntt_*`
//! ports (the engine shares them between the sequencers). One Keccak
//! sponge engine, one NTT core (B = 4, its three slots: 0 the
//! accumulator t̂, 1 the ŝ operand, 2 the Â entry), the RejNTTPoly and
//! RejBoundedPoly samplers, Power2Round, three word packers (s, t0, t1: a
//! coefficient in and up to a 32-bit word out a clock) and two key
//! buffers (pk, sk) in block RAM.
//!
//! Two processes run side by side once the seeds are in:
//!
//! - **The sampler** ([`SamplerPhase`]) drives the sponge. It samples
//!   every polynomial the core needs, in the order the core takes them
//!   (row 0: s1\[0\], Â\[0\]\[0\], s1\[1\], …, Â\[0\]\[l−1\], s2\[0\];
//!   row i: Â\[i\]\[0..l\], s2\[i\]), a coefficient a clock into the
//!   polynomial memory's sampling ring ([`super::poly_memory`], 4 slots),
//!   and η-packs each s polynomial into sk. The Â entries and the ring's
//!   accounting are the [`MatrixSampler`]'s, held while an s polynomial
//!   has the sponge.
//! - **The core's phases** ([`KeyGenPhase`]) take each polynomial from the
//!   ring into a slot (`OP_LOAD_ROWS`, 33 clocks), waiting only if the
//!   sampler has not finished it. Row 0: NTT(s1\[j\]) is made and kept in
//!   the polynomial memory; the other rows load it back. slot 0 (+)=
//!   slot 1 ∘ slot 2 for each Â\[i\]\[j\]; then NTT(s2\[i\]) is added in
//!   the NTT domain (slot 0 += NTT(s2\[i\]) ∘ 1, slot 2 loaded with ones:
//!   the core has no add); INTT; STORE through Power2Round into the t1
//!   (pk) and t0 (sk) packers, a coefficient a clock.
//!
//! Before and after them: (ρ, ρ′, K) = H(ξ ‖ k ‖ l, 128), squeezed into
//! seed registers, with ρ and K copied into the key buffers; at the end
//! tr = H(pk, 64) from the pk buffer into sk, each pk word leaving on the
//! output stream as the sponge absorbs it, then sk; 32-bit little-endian
//! words, `last` on the final sk word. tr's hash starts when the sampler
//! ends, the sponge being free, and takes each pk word once StoreT has
//! written it, so it runs beside the last row's phases (it ran after
//! them until stop 36: 544 clocks more for ML-DSA-44; pk went out after
//! tr until stop 35: 330 more).
//!
//! The sampler is the bottleneck: for ML-DSA-44 it is busy 7,461 of the
//! 9,381 clocks (`keygen_phase_clocks`), and every NTT, product, INTT and
//! STORE but those of the last row runs while it samples. Until this
//! overlap the samplers fed the core's LOAD directly and everything ran
//! one step after another: 16,400 clocks. The engine's sponge has the
//! squeeze tail ([`crate::keccak::SpongeEngine::with_squeeze_tail`]),
//! so an Â entry's next block costs 12 idle clocks where it cost 24
//! (10,246 → 9,925 clocks at stop 36).
//!
//! Earlier steps: the engine's FIFO on the sponge's output lets the
//! sponge permute while the sampler works through the words of the block
//! before, and RejBoundedPoly takes a byte a clock (21,528 → 18,444
//! clocks); word packers took the STORE of t from about 3 clocks a
//! coefficient to one (→ 16,400).
//!
//! More Keccak rounds a clock would now pay more than they did: the
//! sponge and the samplers set the pace. Measured before the overlap and
//! the word packers, with the engine's sponge at two rounds a clock
//! (`SpongeEngine<2>`, the three `*_phase_clocks` tests on ML-DSA-44),
//! KeyGen took 17,384 clocks instead of 18,444; ExpandA's entries are
//! held to a candidate a clock and the s polynomials to their fixed bytes
//! at a byte a clock, which limit what faster permutations give.
//!
//! # Timing
//!
//! The cycle count depends on the parameter set and on RejNTTPoly's
//! rejections, which depend on ρ (public), as FIPS 204 allows. The core's
//! phases have fixed lengths and wait only for the sampler, whose clocks
//! follow from those two and from the s polynomials' fixed lengths below;
//! s words wait for sk's write port only on clocks set by StoreT's t0
//! words, whose timing is the core's. ExpandS's
//! rejections depend on ρ′ (secret), so every s polynomial consumes the
//! same number of squeezed bytes ([`s_squeeze_bytes`]) whatever they are:
//! the sampler takes a byte a clock whatever it holds, keeps reading (and
//! discarding) after its 256th coefficient, and its queue hands the core
//! a coefficient a clock, the 256th 12 (η = 2) or 142 to 148 (η = 4)
//! clocks before the last of those bytes arrives; being that late would
//! take odds below 2^−100 ([`super::rej_bounded`]). Only if those bytes
//! held fewer than 256 acceptable nibbles (probability below 2^−40) would
//! it read on. Checked by
//! `expand_s_clocks_do_not_depend_on_the_secret_seed`: the first s
//! polynomial takes the same clocks for eight ξ, for η = 2 and 4, and its
//! 256th coefficient comes before the last fixed byte (the test fails for
//! η = 4 if the phase ends at the 256th coefficient instead). The
//! reading on, forced in
//! `expand_s_reads_on_past_its_fixed_bytes_and_stops_at_the_256th_coefficient`,
//! stops at the 256th coefficient with the byte count held at its target.
//!
//! # Interface
//!
//! Write ξ a word at a time (`xi_write`, `xi_index`, `xi_word`, little-endian)
//! while idle, then `start` with `parameter_set` (0, 1, 2: ML-DSA-44, -65, -87; 3 is
//! refused with `error`). `busy` until the last output word is taken, then
//! `done` (with `error` if a core reported one). `abort_job` returns to idle
//! from any state with `done` and `error`. `reset` returns to idle. (The port names avoid C++ words, which
//! Verilator refuses: `set`, `abort`.)

use crate::mldsa::bit_pack::WordPacker;
use crate::mldsa::c;
use crate::mldsa::expand_a::SQUEEZE_BYTES;
use crate::mldsa::key_buffer::KeyBuffer;
use crate::mldsa::matrix_sampler::MatrixSampler;
use crate::mldsa::poly_memory::RING_FIRST_POLY;
use crate::mldsa::power2round::Power2Round;
use crate::mldsa::rej_bounded::RejBoundedSampler;
use crate::ntt::core::{OP_LOAD_ROWS, OP_STORE_ROWS};
use pqc::mldsa::params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};
use ps_pl_contract::regmap::{keccak as kregs, ntt as nregs};
use rust_hdl::prelude::*;

/// The parameter sets in `set` order.
pub const SETS: [Params; 3] = [ML_DSA_44, ML_DSA_65, ML_DSA_87];
/// Where the all-ones polynomial is kept in the polynomial memory (after
/// the l ≤ 7 of NTT(s1)).
const ONES_POLY: u64 = 15;
/// Seed registers: ρ (8 words), ρ′ (16), K (8).
const SEED_WORDS: usize = 32;

/// Phases of the key generation.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum KeyGenPhase {
    /// Waiting for `start`.
    Idle,
    /// (ρ, ρ′, K) = H(ξ ‖ k ‖ l).
    Seed,
    /// ρ into pk; ρ and K into sk.
    Copy,
    /// s1\[j\] (or s2\[i\]) from the sampling ring into slot 1 (waiting
    /// for the sampler if it is not there yet).
    LoadS,
    /// NTT of slot 1.
    NttS,
    /// Slot 1 (NTT(s1\[j\])) into the polynomial memory (row 0).
    StoreS1Rows,
    /// NTT(s1\[j\]) from the polynomial memory into slot 1 (rows after the
    /// first).
    LoadS1Rows,
    /// Â\[i\]\[j\] from the sampling ring into slot 2 (waiting for the
    /// sampler if it is not there yet).
    LoadA,
    /// Slot 0 (+)= slot 1 ∘ slot 2.
    Multiply,
    /// Slot 2 = all ones.
    Ones,
    /// Slot 2 (all ones) into the polynomial memory (row 0).
    StoreOnesRows,
    /// All ones from the polynomial memory into slot 2 (rows after the
    /// first).
    LoadOnesRows,
    /// Slot 0 += slot 1 ∘ slot 2 (adds NTT(s2\[i\])).
    AddS2,
    /// INTT of slot 0.
    Intt,
    /// Slot 0 out through Power2Round into the t1 and t0 packers.
    StoreT,
    /// Until tr = H(pk) has ended: the hash (pk out on the stream as the
    /// sponge absorbs it) starts when the sampler ends, beside the last
    /// row's phases.
    HashTr,
    /// sk out.
    OutSk,
}

/// What the sampler does: it runs beside the core's phases, from the end
/// of [`KeyGenPhase::Copy`] to the last s2\[i\].
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum SamplerPhase {
    /// Nothing to sample.
    Off,
    /// s1\[j\] or s2\[i\] (SHAKE256 into RejBoundedPoly) into the ring,
    /// packed into sk.
    SampleS,
    /// Â\[i\]\[j\] (SHAKE128 into RejNTTPoly) into the ring.
    SampleA,
}

/// The KeyGen sequencer (its cores are [`super::engine::MlDsaEngine`]'s).
#[derive(LogicBlock)]
pub struct MlDsaKeyGen {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Write `xi_word` into ξ word `xi_index` (when idle).
    pub xi_write: Signal<In, Bit>,
    /// Which ξ word.
    pub xi_index: Signal<In, Bits<3>>,
    /// The ξ word.
    pub xi_word: Signal<In, Bits<32>>,
    /// Start a key generation (taken when idle).
    pub start: Signal<In, Bit>,
    /// Parameter set: 0, 1, 2 for ML-DSA-44, -65, -87.
    pub parameter_set: Signal<In, Bits<2>>,
    /// Abandon the key generation (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// A key generation runs.
    pub busy: Signal<Out, Bit>,
    /// The last key generation ended (until the next start).
    pub done: Signal<Out, Bit>,
    /// It ended with an error (refused set, core error, or abort).
    pub error: Signal<Out, Bit>,
    /// Output stream TDATA: pk ‖ sk.
    pub m_data: Signal<Out, Bits<32>>,
    /// Output stream TVALID.
    pub m_valid: Signal<Out, Bit>,
    /// Output stream TLAST (final sk word).
    pub m_last: Signal<Out, Bit>,
    /// Output stream TREADY.
    pub m_ready: Signal<In, Bit>,
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
    /// ExpandA into the sampling ring (the Â entries of the sampler).
    matrix: MatrixSampler,
    rej_bounded: RejBoundedSampler,
    p2r: Power2Round,
    sk_packer: WordPacker,
    t0_packer: WordPacker,
    pk_packer: WordPacker,
    pk_buf: KeyBuffer<10, 12>,
    sk_buf: KeyBuffer<11, 13>,
    xi: [DFF<Bits<32>>; 8],
    seed: [DFF<Bits<32>>; SEED_WORDS],
    phase: DFF<KeyGenPhase>,
    launched: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    // Parameter-set values, latched at start.
    k: DFF<Bits<4>>,
    l: DFF<Bits<4>>,
    eta4: DFF<Bit>,
    eta_bits: DFF<Bits<5>>,
    eta: DFF<Bits<23>>,
    t0_base: DFF<Bits<13>>,
    pk_words: DFF<Bits<11>>,
    sk_words: DFF<Bits<11>>,
    // Loop state.
    row: DFF<Bits<4>>,
    col: DFF<Bits<4>>,
    on_s2: DFF<Bit>,
    count: DFF<Bits<9>>,
    s_bytes: DFF<Bits<9>>,
    words_in: DFF<Bits<5>>,
    stopped: DFF<Bit>,
    pending: DFF<Bit>,
    pk_ptr: DFF<Bits<12>>,
    sk_s_ptr: DFF<Bits<13>>,
    sk_t0_ptr: DFF<Bits<13>>,
    ser_word: DFF<Bits<32>>,
    ser_left: DFF<Bits<3>>,
    /// The sampler takes the serializer's byte this clock.
    byte_taken: Signal<Local, Bit>,
    /// The s polynomial's fixed bytes are all in (`s_bytes` holds there).
    s_bytes_in: Signal<Local, Bit>,
    out_index: DFF<Bits<11>>,
    primed: DFF<Bit>,
    /// tr's hash runs (from the sampler's end; see HashTr).
    hashing: DFF<Bit>,
    /// Its sponge request has started.
    hash_launched: DFF<Bit>,
    /// It has ended: HashTr moves on to sk.
    hash_finished: DFF<Bit>,
    /// tr words written into sk.
    tr_count: DFF<Bits<5>>,
    /// pk words in the pk buffer and readable (`pk_ptr / 4` a clock late).
    pk_readable: DFF<Bits<10>>,
    /// sk's write port is free for a tr word this clock.
    tr_port_free: Signal<Local, Bit>,
    /// The hash: the sponge, or the output stream, has taken the pk word
    /// at `out_index` (it moves on once both have).
    hash_taken: DFF<Bit>,
    out_taken: DFF<Bit>,
    hash_take: Signal<Local, Bit>,
    out_take: Signal<Local, Bit>,
    /// The sponge's next pk word, valid and last: a register between the
    /// pk buffer's read port and the sponge (a block-RAM read into the
    /// shared sponge's state was over the cell-delay budget).
    pk_feed_word: DFF<Bits<32>>,
    pk_feed_valid: DFF<Bit>,
    pk_feed_last: DFF<Bit>,
    pk_feed_room: Signal<Local, Bit>,
    // Combinational.
    message_word: Signal<Local, Bits<32>>,
    seed_word: Signal<Local, Bits<32>>,
    s_index: Signal<Local, Bits<16>>,
    sample_coeff: Signal<Local, Bits<23>>,
    sample_valid: Signal<Local, Bit>,
    stream_valid: Signal<Local, Bit>,
    stream_take: Signal<Local, Bit>,
    stream_next: Signal<Local, Bits<11>>,
    stream_count: Signal<Local, Bits<11>>,
    store_take: Signal<Local, Bit>,
    copy_word: Signal<Local, Bits<32>>,
    t0_field: Signal<Local, Bits<14>>,
    packers_idle: Signal<Local, Bit>,
    c_op_sponge: Constant<Bits<8>>,
    c_op_abort: Constant<Bits<8>>,
    c_shake256: Constant<Bits<32>>,
    c_squeeze: Constant<Bits<32>>,
    c_op_load: Constant<Bits<8>>,
    c_op_store: Constant<Bits<8>>,
    c_op_store_rows: Constant<Bits<8>>,
    c_ones_poly: Constant<Bits<7>>,
    c_op_load_rows: Constant<Bits<8>>,
    c_op_ntt: Constant<Bits<8>>,
    c_op_intt: Constant<Bits<8>>,
    c_op_pwm: Constant<Bits<8>>,
    c_op_pwmac: Constant<Bits<8>>,
    c_ntt_abort: Constant<Bits<8>>,
    c_set_k: [Constant<Bits<4>>; 3],
    c_set_l: [Constant<Bits<4>>; 3],
    c_set_eta: [Constant<Bits<23>>; 3],
    c_set_eta_bits: [Constant<Bits<5>>; 3],
    c_set_t0_base: [Constant<Bits<13>>; 3],
    c_set_pk_words: [Constant<Bits<11>>; 3],
    c_set_sk_words: [Constant<Bits<11>>; 3],
    c_set_s_bytes: [Constant<Bits<9>>; 3],
    s_bytes_target: DFF<Bits<9>>,
    c_two_to_12: Constant<Bits<14>>,
    // The sampler (s polynomials here, Â in `matrix`).
    sampler: DFF<SamplerPhase>,
    s_launched: DFF<Bit>,
    s_on_s2: DFF<Bit>,
    s_count: DFF<Bits<9>>,
    c_ring_first: Constant<Bits<7>>,
    // An s word waiting for a clock StoreT's t0 words leave free.
    s_word: DFF<Bits<32>>,
    s_word_valid: DFF<Bit>,
    t0_writing: Signal<Local, Bit>,
}

/// Byte offset of t0 in sk: ρ ‖ K ‖ tr ‖ s1 ‖ s2 come first.
const fn t0_offset(p: &Params) -> usize {
    128 + (p.k + p.l) * Params::poly_bytes(p.eta_bits())
}

/// Clocks from start to done of the NIST ACVP keyGen cases (ξ of
/// `pqc_selftest::vectors::ML_DSA`) with a sink that never stalls, for
/// ML-DSA-44, -65, -87: measured on the exported RTL and asserted by the
/// tests (`verilator_check`, and at the bus with the top's 8 clocks of ξ).
pub const ACVP_KEYGEN_CLOCKS: [usize; 3] = [9_384, 16_145, 24_066];

/// The clocks of the same key generations on an outside sponge of the
/// shared configuration (R = 2, `SpongeEngine::with_kept_chain_and_squeeze_tail`),
/// as in `crate::axi::EnginesAccel`.
pub const SHARED_ACVP_KEYGEN_CLOCKS: [usize; 3] = [9_252, 15_677, 23_087];

/// Bytes of SHAKE256 output every ExpandS polynomial consumes, whatever
/// its rejections: `pqc`'s first request (2 blocks for η = 2, 3 for η = 4),
/// which holds fewer than 256 acceptable nibbles with probability below
/// 2^−40 (η = 4: 816 nibbles at 9/16, 256 needed; η = 2: 544 at 15/16).
pub const fn s_squeeze_bytes(p: &Params) -> usize {
    if p.eta == 2 {
        pqc::mldsa::sample::REJ_ETA2_FIRST
    } else {
        pqc::mldsa::sample::REJ_ETA4_FIRST
    }
}

impl Default for MlDsaKeyGen {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            xi_write: Default::default(),
            xi_index: Default::default(),
            xi_word: Default::default(),
            start: Default::default(),
            parameter_set: Default::default(),
            abort_job: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
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
            matrix: Default::default(),
            rej_bounded: Default::default(),
            p2r: Default::default(),
            sk_packer: Default::default(),
            t0_packer: Default::default(),
            pk_packer: Default::default(),
            pk_buf: Default::default(),
            sk_buf: Default::default(),
            xi: Default::default(),
            seed: Default::default(),
            phase: Default::default(),
            launched: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            k: Default::default(),
            l: Default::default(),
            eta4: Default::default(),
            eta_bits: Default::default(),
            eta: Default::default(),
            t0_base: Default::default(),
            pk_words: Default::default(),
            sk_words: Default::default(),
            row: Default::default(),
            col: Default::default(),
            on_s2: Default::default(),
            count: Default::default(),
            s_bytes: Default::default(),
            words_in: Default::default(),
            stopped: Default::default(),
            pending: Default::default(),
            pk_ptr: Default::default(),
            sk_s_ptr: Default::default(),
            sk_t0_ptr: Default::default(),
            ser_word: Default::default(),
            ser_left: Default::default(),
            byte_taken: Default::default(),
            s_bytes_in: Default::default(),
            out_index: Default::default(),
            primed: Default::default(),
            hashing: Default::default(),
            hash_launched: Default::default(),
            hash_finished: Default::default(),
            tr_count: Default::default(),
            pk_readable: Default::default(),
            tr_port_free: Default::default(),
            hash_taken: Default::default(),
            out_taken: Default::default(),
            hash_take: Default::default(),
            pk_feed_word: Default::default(),
            pk_feed_valid: Default::default(),
            pk_feed_last: Default::default(),
            pk_feed_room: Default::default(),
            out_take: Default::default(),
            message_word: Default::default(),
            seed_word: Default::default(),
            s_index: Default::default(),
            sample_coeff: Default::default(),
            sample_valid: Default::default(),
            stream_valid: Default::default(),
            stream_take: Default::default(),
            stream_next: Default::default(),
            stream_count: Default::default(),
            store_take: Default::default(),
            copy_word: Default::default(),
            t0_field: Default::default(),
            packers_idle: Default::default(),
            c_op_sponge: c(kregs::OP_SPONGE as u64),
            c_op_abort: c(kregs::OP_ABORT as u64),
            c_shake256: c(kregs::MODE_SHAKE256 as u64),
            c_squeeze: c(u64::from(SQUEEZE_BYTES)),
            c_op_load: c(nregs::OP_LOAD as u64),
            c_op_store: c(nregs::OP_STORE as u64),
            c_op_store_rows: c(OP_STORE_ROWS as u64),
            c_ones_poly: Constant::new(ONES_POLY.into()),
            c_op_load_rows: c(OP_LOAD_ROWS as u64),
            c_op_ntt: c(nregs::OP_NTT as u64),
            c_op_intt: c(nregs::OP_INTT as u64),
            c_op_pwm: c(nregs::OP_PWM as u64),
            c_op_pwmac: c(nregs::OP_PWMAC as u64),
            c_ntt_abort: c(nregs::OP_ABORT as u64),
            c_set_k: SETS.map(|p| c(p.k as u64)),
            c_set_l: SETS.map(|p| c(p.l as u64)),
            c_set_eta: SETS.map(|p| c(p.eta as u64)),
            c_set_eta_bits: SETS.map(|p| c(p.eta_bits() as u64)),
            c_set_t0_base: SETS.map(|p| c(t0_offset(&p) as u64)),
            c_set_pk_words: SETS.map(|p| c(p.pk_len() as u64 / 4)),
            c_set_sk_words: SETS.map(|p| c(p.sk_len() as u64 / 4)),
            c_set_s_bytes: SETS.map(|p| c(s_squeeze_bytes(&p) as u64)),
            s_bytes_target: Default::default(),
            c_two_to_12: c(1 << 12),
            sampler: Default::default(),
            s_launched: Default::default(),
            s_on_s2: Default::default(),
            s_count: Default::default(),
            c_ring_first: c(RING_FIRST_POLY as u64),
            s_word: Default::default(),
            s_word_valid: Default::default(),
            t0_writing: Default::default(),
        }
    }
}

impl Logic for MlDsaKeyGen {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            launched,
            done_flag,
            error_flag,
            k,
            l,
            eta4,
            eta_bits,
            eta,
            t0_base,
            pk_words,
            sk_words,
            row,
            col,
            on_s2,
            count,
            s_bytes,
            s_bytes_target,
            words_in,
            stopped,
            pending,
            pk_ptr,
            sk_s_ptr,
            sk_t0_ptr,
            ser_word,
            ser_left,
            out_index,
            primed,
            hashing,
            hash_launched,
            hash_finished,
            tr_count,
            pk_readable,
            hash_taken,
            pk_feed_word,
            pk_feed_valid,
            pk_feed_last,
            out_taken,
            sampler,
            s_launched,
            s_on_s2,
            s_count,
            s_word,
            s_word_valid
        );
        for w in 0..8 {
            self.xi[w].clock.next = self.clock.val();
            self.xi[w].d.next = self.xi[w].q.val();
        }
        for w in 0..SEED_WORDS {
            self.seed[w].clock.next = self.clock.val();
            self.seed[w].d.next = self.seed[w].q.val();
        }
        clock!(
            self,
            clock,
            matrix,
            rej_bounded,
            p2r,
            sk_packer,
            t0_packer,
            pk_packer,
            pk_buf,
            sk_buf
        );

        // ---- Defaults: no requests, no stream traffic, no writes.
        self.sponge_reset.next = self.reset.val();
        self.sponge_start.next = false;
        self.sponge_op.next = self.c_op_sponge.val();
        self.sponge_arg0.next = self.c_shake256.val();
        self.sponge_arg1.next = 0.into();
        self.sponge_arg2.next = self.c_squeeze.val();
        self.sponge_in_valid.next = false;
        self.sponge_in_last.next = false;
        self.sponge_out_ready.next = false;
        self.byte_taken.next = false;
        self.s_bytes_in.next = self.s_bytes.q.val() >= self.s_bytes_target.q.val();
        self.ntt_reset.next = self.reset.val();
        self.ntt_start.next = false;
        self.ntt_op.next = self.c_op_load.val();
        self.ntt_arg0.next = 0.into();
        self.ntt_arg1.next = 1.into();
        self.ntt_arg2.next = 2.into();
        self.ntt_s_tdata.next = 1.into();
        self.ntt_s_tvalid.next = false;
        self.ntt_s_tlast.next = self.count.q.val() == 255;
        self.ntt_m_tready.next = false;
        // NTT(s1[j]) at j, all ones at ONES_POLY.
        self.pm_store_poly.next = bit_cast::<7, 4>(self.col.q.val());
        self.pm_load_poly.next = bit_cast::<7, 4>(self.col.q.val());
        if (self.phase.q.val() == KeyGenPhase::StoreOnesRows)
            | (self.phase.q.val() == KeyGenPhase::LoadOnesRows)
        {
            self.pm_store_poly.next = self.c_ones_poly.val();
            self.pm_load_poly.next = self.c_ones_poly.val();
        }
        if (self.phase.q.val() == KeyGenPhase::LoadS) | (self.phase.q.val() == KeyGenPhase::LoadA) {
            self.pm_load_poly.next =
                self.c_ring_first.val() | bit_cast::<7, 2>(self.matrix.read_slot.val());
        }
        self.matrix.consume.next = false;
        self.matrix.start.next = false;
        self.matrix.halt.next = false;
        self.rej_bounded.reset.next = self.reset.val();
        self.rej_bounded.eta4.next = self.eta4.q.val();
        self.sk_packer.reset.next = self.reset.val();
        self.t0_packer.reset.next = self.reset.val();
        self.pk_packer.reset.next = self.reset.val();
        self.sk_packer.coeff_valid.next = false;
        self.t0_packer.coeff_valid.next = false;
        self.pk_packer.coeff_valid.next = false;
        self.sk_packer.data_ready.next = true;
        self.t0_packer.data_ready.next = true;
        self.pk_packer.data_ready.next = true;
        self.pk_packer.width.next = 10.into();
        self.pk_packer.centred.next = false;
        self.pk_packer.offset.next = 0.into();
        self.pk_packer.coeff.next = bit_cast::<23, 10>(self.p2r.t1.val());
        self.sk_packer.width.next = self.eta_bits.q.val();
        self.sk_packer.centred.next = true;
        self.sk_packer.offset.next = self.eta.q.val();
        self.sk_packer.coeff.next = self.rej_bounded.coeff.val();
        self.t0_packer.width.next = 13.into();
        self.t0_packer.centred.next = false;
        self.t0_packer.offset.next = 0.into();
        self.pk_buf.byte_write.next = false;
        self.pk_buf.word_write.next = false;
        self.sk_buf.byte_write.next = false;
        self.sk_buf.word_write.next = false;
        // The packers write whole words (every packed polynomial starts on
        // a word boundary); the byte ports are unused.
        self.pk_buf.byte_address.next = 0.into();
        self.pk_buf.byte_data.next = 0.into();
        self.sk_buf.byte_address.next = 0.into();
        self.sk_buf.byte_data.next = 0.into();
        self.pk_buf.word_address.next = bit_cast::<10, 9>(self.count.q.val());
        self.sk_buf.word_address.next = bit_cast::<11, 9>(self.count.q.val());
        self.m_valid.next = false;
        self.m_last.next = false;
        self.m_data.next = self.pk_buf.read_word.val();
        self.p2r.t.next = self.ntt_m_tdata.val().get_bits::<23>(0);

        // ---- Seed word w (ρ ‖ ρ′ ‖ K) by the message / copy counters.
        self.seed_word.next = self.seed[0].q.val();
        self.copy_word.next = self.seed[0].q.val();
        for w in 0..8 {
            if self.count.q.val().index() == w {
                self.seed_word.next = self.seed[w].q.val();
                self.copy_word.next = self.seed[w].q.val();
            }
        }
        // sk words 8..16 are K = seed words 24..32.
        for w in 8..16 {
            if self.count.q.val().index() == w {
                self.copy_word.next = self.seed[w + 16].q.val();
            }
        }
        self.pk_buf.word_data.next = self.seed_word.val();
        self.sk_buf.word_data.next = self.copy_word.val();
        // ---- Message word of the running sponge job (the sampler's
        // counters name the polynomial).
        // (s1[j] comes before Â[0][j], s2[i] after Â[i][l−1], when the
        // matrix sampler has moved on to row i + 1.)
        if self.s_on_s2.q.val() {
            self.s_index.next =
                bit_cast::<16, 4>(self.l.q.val()) + bit_cast::<16, 4>(self.matrix.row.val()) - 1;
        } else {
            self.s_index.next = bit_cast::<16, 4>(self.matrix.col.val());
        }
        self.message_word.next = 0.into();
        if self.phase.q.val() == KeyGenPhase::Seed {
            for w in 0..8 {
                if self.words_in.q.val().index() == w {
                    self.message_word.next = self.xi[w].q.val();
                }
            }
            if self.words_in.q.val() == 8 {
                self.message_word.next =
                    bit_cast::<32, 4>(self.k.q.val()) | (bit_cast::<32, 4>(self.l.q.val()) << 8);
            }
        } else if self.sampler.q.val() == SamplerPhase::SampleA {
            self.message_word.next = self.matrix.feed_data.val();
        } else {
            for w in 0..16 {
                if self.words_in.q.val().index() == w {
                    self.message_word.next = self.seed[w + 8].q.val();
                }
            }
            if self.words_in.q.val() == 16 {
                self.message_word.next = bit_cast::<32, 16>(self.s_index.val());
            }
        }
        self.sponge_in_data.next = self.message_word.val();

        // ---- Samplers into the ring (and the s packer).
        self.rej_bounded.data.next = self.ser_word.q.val().get_bits::<8>(0);
        self.rej_bounded.data_valid.next = false;
        self.sample_coeff.next = self.rej_bounded.coeff.val();
        self.sample_valid.next = self.rej_bounded.coeff_valid.val();

        // ---- RAM-to-stream reader (tr's message, the output): the word at
        // `out_index` is on `read_word` once `primed`.
        self.stream_count.next = self.pk_words.q.val();
        if self.phase.q.val() == KeyGenPhase::OutSk {
            self.stream_count.next = self.sk_words.q.val();
        }
        self.stream_valid.next =
            self.primed.q.val() & (self.out_index.q.val() < self.stream_count.val());
        if (self.phase.q.val() != KeyGenPhase::OutSk)
            & (bit_cast::<11, 10>(self.pk_readable.q.val()) <= self.out_index.q.val())
        {
            self.stream_valid.next = false;
        }
        self.stream_take.next = false;
        self.hash_take.next = false;
        self.pk_feed_room.next = false;
        self.out_take.next = false;
        self.stream_next.next = self.out_index.q.val();
        self.pk_buf.read_address.next = self.out_index.q.val().get_bits::<10>(0);
        self.sk_buf.read_address.next = self.out_index.q.val();

        // ---- t0 field for the packer: 2^12 − t0 in [0, 2^13).
        self.t0_field.next = self.c_two_to_12.val() - self.p2r.t0.val();
        self.t0_packer.coeff.next = bit_cast::<23, 14>(self.t0_field.val());
        self.packers_idle.next =
            !self.t0_packer.data_valid.val() & !self.pk_packer.data_valid.val();
        self.store_take.next = false;

        match self.phase.q.val() {
            KeyGenPhase::Idle => {
                if self.xi_write.val() {
                    for w in 0..8 {
                        if self.xi_index.val().index() == w {
                            self.xi[w].d.next = self.xi_word.val();
                        }
                    }
                }
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    if self.parameter_set.val() == 3 {
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    } else {
                        for s in 0..3 {
                            if self.parameter_set.val().index() == s {
                                self.k.d.next = self.c_set_k[s].val();
                                self.l.d.next = self.c_set_l[s].val();
                                self.eta.d.next = self.c_set_eta[s].val();
                                self.eta_bits.d.next = self.c_set_eta_bits[s].val();
                                self.t0_base.d.next = self.c_set_t0_base[s].val();
                                self.pk_words.d.next = self.c_set_pk_words[s].val();
                                self.sk_words.d.next = self.c_set_sk_words[s].val();
                                self.s_bytes_target.d.next = self.c_set_s_bytes[s].val();
                            }
                        }
                        self.eta4.d.next = self.parameter_set.val() == 1;
                        self.phase.d.next = KeyGenPhase::Seed;
                        self.launched.d.next = false;
                    }
                }
            }
            KeyGenPhase::Seed => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = 34.into();
                    self.sponge_arg2.next = 128.into();
                    self.words_in.d.next = 0.into();
                    self.count.d.next = 0.into();
                } else {
                    self.sponge_in_valid.next = self.words_in.q.val() <= 8;
                    self.sponge_in_last.next = self.words_in.q.val() == 8;
                    if self.sponge_in_ready.val() & (self.words_in.q.val() <= 8) {
                        self.words_in.d.next = self.words_in.q.val() + 1;
                    }
                    self.sponge_out_ready.next = true;
                    if self.sponge_out_valid.val() {
                        for w in 0..SEED_WORDS {
                            if self.count.q.val().index() == w {
                                self.seed[w].d.next = self.sponge_out_data.val();
                            }
                        }
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    if self.sponge_done.val() {
                        self.error_flag.d.next = self.sponge_error.val();
                        self.count.d.next = 0.into();
                        self.phase.d.next = KeyGenPhase::Copy;
                    }
                }
            }
            KeyGenPhase::Copy => {
                // ρ to pk words 0..8; ρ ‖ K to sk words 0..16.
                self.pk_buf.word_write.next = self.count.q.val() < 8;
                self.sk_buf.word_write.next = true;
                self.count.d.next = self.count.q.val() + 1;
                if self.count.q.val() == 15 {
                    self.row.d.next = 0.into();
                    self.col.d.next = 0.into();
                    self.on_s2.d.next = false;
                    self.pk_ptr.d.next = 32.into();
                    self.sk_s_ptr.d.next = 128.into();
                    self.sk_t0_ptr.d.next = self.t0_base.q.val();
                    self.phase.d.next = KeyGenPhase::LoadS;
                    self.launched.d.next = false;
                    // The sampler starts on s1[0].
                    self.sampler.d.next = SamplerPhase::SampleS;
                    self.s_launched.d.next = false;
                    self.s_on_s2.d.next = false;
                    self.matrix.start.next = true;
                    self.s_word_valid.d.next = false;
                }
            }
            KeyGenPhase::LoadS => {
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
                    self.phase.d.next = KeyGenPhase::NttS;
                }
            }
            KeyGenPhase::NttS => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_ntt.val();
                    self.ntt_arg0.next = 1.into();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    if self.on_s2.q.val() {
                        self.phase.d.next = KeyGenPhase::LoadOnesRows;
                        if self.row.q.val() == 0 {
                            self.phase.d.next = KeyGenPhase::Ones;
                        }
                    } else {
                        // Only row 0 samples s1 (the others load NTT(s1)).
                        self.phase.d.next = KeyGenPhase::StoreS1Rows;
                    }
                }
            }
            KeyGenPhase::LoadA => {
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
                    self.phase.d.next = KeyGenPhase::Multiply;
                }
            }
            KeyGenPhase::Multiply => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_pwmac.val();
                    if self.col.q.val() == 0 {
                        self.ntt_op.next = self.c_op_pwm.val();
                    }
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = KeyGenPhase::LoadS;
                    if self.col.q.val() + 1 == self.l.q.val() {
                        self.on_s2.d.next = true;
                    } else {
                        self.col.d.next = self.col.q.val() + 1;
                        if self.row.q.val() != 0 {
                            self.phase.d.next = KeyGenPhase::LoadS1Rows;
                        }
                    }
                }
            }
            KeyGenPhase::Ones => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_load.val();
                    self.ntt_arg0.next = 2.into();
                    self.count.d.next = 0.into();
                } else {
                    self.ntt_s_tdata.next = 1.into();
                    self.ntt_s_tvalid.next = !self.count.q.val().get_bit(8);
                    if self.ntt_s_tready.val() & !self.count.q.val().get_bit(8) {
                        self.count.d.next = self.count.q.val() + 1;
                    }
                    if self.ntt_done.val() {
                        self.launched.d.next = false;
                        self.phase.d.next = KeyGenPhase::StoreOnesRows;
                    }
                }
            }
            KeyGenPhase::StoreS1Rows => {}
            KeyGenPhase::LoadS1Rows => {}
            KeyGenPhase::StoreOnesRows => {}
            KeyGenPhase::LoadOnesRows => {}
            KeyGenPhase::AddS2 => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_pwmac.val();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = KeyGenPhase::Intt;
                }
            }
            KeyGenPhase::Intt => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_intt.val();
                    self.ntt_arg0.next = 0.into();
                } else if self.ntt_done.val() {
                    self.launched.d.next = false;
                    self.phase.d.next = KeyGenPhase::StoreT;
                }
            }
            KeyGenPhase::StoreT => {
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.ntt_start.next = true;
                    self.ntt_op.next = self.c_op_store.val();
                    self.ntt_arg0.next = 0.into();
                    self.pending.d.next = false;
                    self.t0_packer.reset.next = true;
                    self.pk_packer.reset.next = true;
                } else {
                    // A word a clock: the word packers, their sinks always
                    // ready, take a coefficient every clock (the `bit_pack`
                    // tests), so each Power2Round result, a clock after its
                    // word, is taken as it arrives.
                    self.store_take.next = self.ntt_m_tvalid.val()
                        & self.pk_packer.coeff_ready.val()
                        & self.t0_packer.coeff_ready.val();
                    self.ntt_m_tready.next =
                        self.pk_packer.coeff_ready.val() & self.t0_packer.coeff_ready.val();
                    self.pending.d.next = self.store_take.val();
                    self.pk_packer.coeff_valid.next = self.pending.q.val();
                    self.t0_packer.coeff_valid.next = self.pending.q.val();
                    if self.pk_packer.data_valid.val() {
                        self.pk_buf.word_write.next = true;
                        self.pk_buf.word_address.next = self.pk_ptr.q.val().get_bits::<10>(2);
                        self.pk_buf.word_data.next = self.pk_packer.data.val();
                        self.pk_ptr.d.next = self.pk_ptr.q.val() + 4;
                    }
                    if self.t0_packer.data_valid.val() {
                        self.sk_buf.word_write.next = true;
                        self.sk_buf.word_address.next = self.sk_t0_ptr.q.val().get_bits::<11>(2);
                        self.sk_buf.word_data.next = self.t0_packer.data.val();
                        self.sk_t0_ptr.d.next = self.sk_t0_ptr.q.val() + 4;
                    }
                    if self.ntt_done.val() & !self.pending.q.val() & self.packers_idle.val() {
                        self.error_flag.d.next = self.ntt_error.val();
                        self.launched.d.next = false;
                        self.col.d.next = 0.into();
                        self.on_s2.d.next = false;
                        if self.row.q.val() + 1 == self.k.q.val() {
                            self.phase.d.next = KeyGenPhase::HashTr;
                        } else {
                            self.row.d.next = self.row.q.val() + 1;
                            self.phase.d.next = KeyGenPhase::LoadS1Rows;
                        }
                    }
                }
            }
            KeyGenPhase::HashTr => {
                // tr's hash started when the sampler ended (below) and
                // has taken the pk words as StoreT wrote them: sk follows
                // once it has ended.
                if self.hash_finished.q.val() {
                    self.hash_finished.d.next = false;
                    self.launched.d.next = false;
                    self.phase.d.next = KeyGenPhase::OutSk;
                }
            }
            KeyGenPhase::OutSk => {
                self.m_data.next = self.sk_buf.read_word.val();
                if !self.launched.q.val() {
                    self.launched.d.next = true;
                    self.out_index.d.next = 0.into();
                    self.primed.d.next = false;
                } else {
                    self.primed.d.next = true;
                    self.m_valid.next = self.stream_valid.val();
                    self.m_last.next = self.out_index.q.val() + 1 == self.sk_words.q.val();
                    self.stream_take.next = self.stream_valid.val() & self.m_ready.val();
                    if self.stream_take.val()
                        & (self.out_index.q.val() + 1 == self.sk_words.q.val())
                    {
                        self.done_flag.d.next = true;
                        self.phase.d.next = KeyGenPhase::Idle;
                    }
                }
            }
            _ => {
                self.phase.d.next = KeyGenPhase::Idle;
            }
        }
        // ---- tr = H(pk, 64) into sk, each pk word leaving on the output
        // stream as the sponge absorbs it. It starts when the sampler has
        // ended (the sponge is free) and reads a pk word once StoreT has
        // written it, so it runs beside the last row's core phases; a tr
        // word waits for sk's write port while t0 or an s word has it.
        self.t0_writing.next =
            (self.phase.q.val() == KeyGenPhase::StoreT) & self.t0_packer.data_valid.val();
        self.tr_port_free.next = !self.t0_writing.val() & !self.s_word_valid.q.val();
        self.pk_readable.d.next = self.pk_ptr.q.val().get_bits::<10>(2);
        if self.hashing.q.val() {
            if !self.hash_launched.q.val() {
                if !self.s_word_valid.q.val() {
                    self.hash_launched.d.next = true;
                    self.pk_feed_valid.d.next = false;
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = bit_cast::<32, 11>(self.pk_words.q.val()) << 2;
                    self.sponge_arg2.next = 64.into();
                    self.out_index.d.next = 0.into();
                    self.primed.d.next = false;
                    self.tr_count.d.next = 0.into();
                    self.hash_taken.d.next = false;
                    self.out_taken.d.next = false;
                }
            } else {
                self.primed.d.next = true;
                // Each pk word goes to the sponge (through its feed
                // register) and out on the stream; the reader moves on
                // once both have it.
                self.sponge_in_valid.next = self.pk_feed_valid.q.val();
                self.sponge_in_last.next = self.pk_feed_last.q.val();
                self.sponge_in_data.next = self.pk_feed_word.q.val();
                if self.sponge_in_ready.val() {
                    self.pk_feed_valid.d.next = false;
                }
                self.pk_feed_room.next = !self.pk_feed_valid.q.val() | self.sponge_in_ready.val();
                self.m_valid.next = self.stream_valid.val() & !self.out_taken.q.val();
                self.hash_take.next =
                    self.stream_valid.val() & !self.hash_taken.q.val() & self.pk_feed_room.val();
                if self.hash_take.val() {
                    self.pk_feed_word.d.next = self.pk_buf.read_word.val();
                    self.pk_feed_valid.d.next = true;
                    self.pk_feed_last.d.next = self.out_index.q.val() + 1 == self.pk_words.q.val();
                }
                self.out_take.next = self.m_valid.val() & self.m_ready.val();
                self.stream_take.next = (self.hash_taken.q.val() | self.hash_take.val())
                    & (self.out_taken.q.val() | self.out_take.val());
                if self.stream_take.val() {
                    self.hash_taken.d.next = false;
                    self.out_taken.d.next = false;
                } else {
                    if self.hash_take.val() {
                        self.hash_taken.d.next = true;
                    }
                    if self.out_take.val() {
                        self.out_taken.d.next = true;
                    }
                }
                // tr: sk words 16..32.
                self.sponge_out_ready.next = self.tr_port_free.val();
                if self.sponge_out_valid.val() & self.tr_port_free.val() {
                    self.sk_buf.word_write.next = true;
                    self.sk_buf.word_address.next = bit_cast::<11, 5>(self.tr_count.q.val()) + 16;
                    self.sk_buf.word_data.next = self.sponge_out_data.val();
                    self.tr_count.d.next = self.tr_count.q.val() + 1;
                }
                // The sponge ends (`done` stays up) after the last pk
                // word; the stream may take that word later.
                if self.sponge_done.val() & (self.out_index.q.val() == self.pk_words.q.val()) {
                    self.error_flag.d.next = self.sponge_error.val();
                    self.hashing.d.next = false;
                    self.hash_launched.d.next = false;
                    self.hash_finished.d.next = true;
                }
            }
        }
        // The reader moves on when its word is taken; the RAM reads the
        // next address on the same edge.
        if self.stream_take.val() {
            self.stream_next.next = self.out_index.q.val() + 1;
            self.out_index.d.next = self.out_index.q.val() + 1;
        }
        self.pk_buf.read_address.next = self.stream_next.val().get_bits::<10>(0);
        self.sk_buf.read_address.next = self.stream_next.val();
        // A core error ends the job.
        // ---- The row moves between a slot and the polynomial memory:
        // NTT(s1[j]) and the ones are made on row 0 and kept for the others.
        if (self.phase.q.val() == KeyGenPhase::StoreS1Rows)
            | (self.phase.q.val() == KeyGenPhase::LoadS1Rows)
            | (self.phase.q.val() == KeyGenPhase::StoreOnesRows)
            | (self.phase.q.val() == KeyGenPhase::LoadOnesRows)
        {
            if !self.launched.q.val() {
                self.launched.d.next = true;
                self.ntt_start.next = true;
                self.ntt_op.next = self.c_op_load_rows.val();
                if (self.phase.q.val() == KeyGenPhase::StoreS1Rows)
                    | (self.phase.q.val() == KeyGenPhase::StoreOnesRows)
                {
                    self.ntt_op.next = self.c_op_store_rows.val();
                }
                self.ntt_arg0.next = 1.into();
                if (self.phase.q.val() == KeyGenPhase::StoreOnesRows)
                    | (self.phase.q.val() == KeyGenPhase::LoadOnesRows)
                {
                    self.ntt_arg0.next = 2.into();
                }
            } else if self.ntt_done.val() {
                self.error_flag.d.next = self.ntt_error.val();
                self.launched.d.next = false;
                self.phase.d.next = KeyGenPhase::LoadA;
                if (self.phase.q.val() == KeyGenPhase::StoreOnesRows)
                    | (self.phase.q.val() == KeyGenPhase::LoadOnesRows)
                {
                    self.phase.d.next = KeyGenPhase::AddS2;
                }
            }
        }

        // ---- The sampler: s1[j], Â[i][j] and s2[i] into the ring, in the
        // order the core takes them (row 0: s1[0], Â[0][0], s1[1], …,
        // Â[0][l−1], s2[0]; row i: Â[i][0..l], s2[i]), up to RING_SLOTS
        // ahead of the core, while the core transforms, multiplies and
        // stores. Its clocks depend on the parameter set and on Â's
        // rejections (ρ is public); every s polynomial reads a fixed number
        // of bytes, so ρ′ (secret) sets none of them (module docs).
        self.matrix.produce_other.next = false;
        self.pm_coeff_write.next = self.matrix.coeff_write.val();
        self.pm_coeff_slot.next = bit_cast::<4, 2>(self.matrix.write_slot.val());
        self.pm_coeff_index.next = self.s_count.q.val().get_bits::<8>(0);
        self.pm_coeff_data.next = self.sample_coeff.val();
        if self.sampler.q.val() == SamplerPhase::SampleA {
            self.pm_coeff_index.next = self.matrix.coeff_index.val();
            self.pm_coeff_data.next = self.matrix.coeff_data.val();
        }
        if self.sampler.q.val() == SamplerPhase::SampleS {
            if !self.s_launched.q.val() {
                // A free slot (the one written next).
                if !self.matrix.ring_full.val() {
                    self.s_launched.d.next = true;
                    self.sponge_start.next = true;
                    self.sponge_arg1.next = 66.into();
                    self.rej_bounded.reset.next = true;
                    self.sk_packer.reset.next = true;
                    self.s_bytes.d.next = 0.into();
                    self.words_in.d.next = 0.into();
                    self.s_count.d.next = 0.into();
                    self.stopped.d.next = false;
                    self.ser_left.d.next = 0.into();
                }
            } else {
                self.sponge_in_valid.next = self.words_in.q.val() <= 16;
                self.sponge_in_last.next = self.words_in.q.val() == 16;
                if self.sponge_in_ready.val() & (self.words_in.q.val() <= 16) {
                    self.words_in.d.next = self.words_in.q.val() + 1;
                }
                // Word to bytes for the sampler, a byte a clock: the
                // next word comes in on the clock the last byte goes.
                self.rej_bounded.data_valid.next = self.ser_left.q.val() != 0;
                self.byte_taken.next =
                    (self.ser_left.q.val() != 0) & self.rej_bounded.data_ready.val();
                self.sponge_out_ready.next = ((self.ser_left.q.val() == 0)
                    | ((self.ser_left.q.val() == 1) & self.byte_taken.val()))
                    & !self.stopped.q.val();
                if self.byte_taken.val() {
                    self.ser_word.d.next = self.ser_word.q.val() >> 8;
                    self.ser_left.d.next = self.ser_left.q.val() - 1;
                    // Held at the target, so reading on (below) cannot
                    // wrap the count.
                    if !self.s_bytes_in.val() {
                        self.s_bytes.d.next = self.s_bytes.q.val() + 1;
                    }
                }
                if self.sponge_out_ready.val() & self.sponge_out_valid.val() {
                    self.ser_word.d.next = self.sponge_out_data.val();
                    self.ser_left.d.next = 4.into();
                }
                // The first 256 coefficients go to the ring and the packer.
                if self.sample_valid.val() & !self.s_count.q.val().get_bit(8) {
                    self.pm_coeff_write.next = true;
                    self.sk_packer.coeff_valid.next = true;
                    self.s_count.d.next = self.s_count.q.val() + 1;
                }
                // Stop after a fixed number of bytes (or later, if they
                // held fewer than 256 coefficients: negligible odds),
                // so the clocks do not depend on ρ′'s rejections.
                if self.s_count.q.val().get_bit(8) & self.s_bytes_in.val() & !self.stopped.q.val() {
                    self.stopped.d.next = true;
                    self.sponge_start.next = true;
                    self.sponge_op.next = self.c_op_abort.val();
                }
                if self.stopped.q.val() & !self.sk_packer.data_valid.val() {
                    self.matrix.produce_other.next = true;
                    self.s_launched.d.next = false;
                    self.sampler.d.next = SamplerPhase::SampleA;
                    if self.s_on_s2.q.val() {
                        self.s_on_s2.d.next = false;
                        if self.matrix.row.val() == self.k.q.val() {
                            self.sampler.d.next = SamplerPhase::Off;
                            self.hashing.d.next = true;
                        }
                    }
                }
            }
        }
        // In SampleA the matrix sampler runs Â[i][j] (wired below); after
        // it, s1[j + 1] in row 0, and s2[i] after a row's last entry.
        if (self.sampler.q.val() == SamplerPhase::SampleA) & self.matrix.entry_done.val() {
            if self.matrix.col.val() + 1 == self.l.q.val() {
                self.s_on_s2.d.next = true;
                self.sampler.d.next = SamplerPhase::SampleS;
            } else if self.matrix.row.val() == 0 {
                self.sampler.d.next = SamplerPhase::SampleS;
            }
        }
        // Â's entries, and the ring (the s polynomials count in it too).
        self.matrix.k.next = self.k.q.val();
        self.matrix.l.next = self.l.q.val();
        self.matrix.hold.next = self.sampler.q.val() != SamplerPhase::SampleA;
        self.matrix.rho_word.next = self.seed[0].q.val();
        for w in 0..8 {
            if self.matrix.rho_index.val().index() == w {
                self.matrix.rho_word.next = self.seed[w].q.val();
            }
        }
        self.matrix.feed_room.next = self.sponge_in_ready.val();
        self.matrix.squeeze_data.next = self.sponge_out_data.val();
        self.matrix.squeeze_valid.next = self.sponge_out_valid.val();
        if self.matrix.sponge_launch.val() {
            self.sponge_start.next = true;
            self.sponge_arg0.next = self.matrix.sponge_arg0.val();
            self.sponge_arg1.next = self.matrix.sponge_arg1.val();
            self.sponge_arg2.next = self.matrix.sponge_arg2.val();
        }
        if self.matrix.sponge_owned.val() {
            self.sponge_in_valid.next = self.matrix.feed_valid.val();
            self.sponge_in_last.next = self.matrix.feed_last.val();
            self.sponge_out_ready.next = self.matrix.squeeze_ready.val();
        }
        if self.matrix.sponge_abort.val() {
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
        }
        // ---- s words into sk. The packer leaves a word at most every 8
        // clocks (η = 4: 4 bits a coefficient, a coefficient a clock), and
        // StoreT's t0 packer never two clocks running (13 of 32 bits a
        // clock), so one holding register is enough; a word that would be
        // lost ends the job with an error instead.
        if self.s_word_valid.q.val() & !self.t0_writing.val() {
            self.sk_buf.word_write.next = true;
            self.sk_buf.word_address.next = self.sk_s_ptr.q.val().get_bits::<11>(2);
            self.sk_buf.word_data.next = self.s_word.q.val();
            self.sk_s_ptr.d.next = self.sk_s_ptr.q.val() + 4;
            self.s_word_valid.d.next = false;
        }
        if self.sk_packer.data_valid.val() {
            self.s_word.d.next = self.sk_packer.data.val();
            self.s_word_valid.d.next = true;
            if self.s_word_valid.q.val() & self.t0_writing.val() {
                self.error_flag.d.next = true;
            }
        }

        if self.error_flag.q.val() & (self.phase.q.val() != KeyGenPhase::Idle) {
            self.done_flag.d.next = true;
            self.phase.d.next = KeyGenPhase::Idle;
            // The sampler may be in a squeeze: leave both cores idle.
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
            self.ntt_start.next = true;
            self.ntt_op.next = self.c_ntt_abort.val();
            self.sampler.d.next = SamplerPhase::Off;
            self.matrix.halt.next = true;
            self.hashing.d.next = false;
            self.hash_launched.d.next = false;
            self.hash_finished.d.next = false;
            self.pk_feed_valid.d.next = false;
        }
        if self.abort_job.val() & (self.phase.q.val() != KeyGenPhase::Idle) {
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
            self.phase.d.next = KeyGenPhase::Idle;
            self.sponge_start.next = true;
            self.sponge_op.next = self.c_op_abort.val();
            self.ntt_start.next = true;
            self.ntt_op.next = self.c_ntt_abort.val();
            self.sampler.d.next = SamplerPhase::Off;
            self.matrix.halt.next = true;
            self.hashing.d.next = false;
            self.hash_launched.d.next = false;
            self.hash_finished.d.next = false;
            self.pk_feed_valid.d.next = false;
        }
        if self.reset.val() {
            self.sampler.d.next = SamplerPhase::Off;
            self.matrix.halt.next = true;
            self.hashing.d.next = false;
            self.hash_launched.d.next = false;
            self.hash_finished.d.next = false;
            self.pk_feed_valid.d.next = false;
            self.phase.d.next = KeyGenPhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
        }
        self.busy.next = self.phase.q.val() != KeyGenPhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick};

    use crate::mldsa::engine::MlDsaEngine;
    use crate::mldsa::verilator_check::tests::pqc_keygen;

    /// The sequencer with its cores.
    fn engine() -> MlDsaEngine {
        let mut uut = MlDsaEngine::default();
        uut.connect_all();
        settle(&mut uut);
        uut.reset.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.reset.next = false;
        uut
    }

    // Whole key generations run on the exported RTL in
    // `verilator_check` (every set, ACVP, against `pqc`, clock for clock);
    // the rust-hdl model is too slow for more than one there.

    #[test]
    fn keygen_engine_refuses_set_3_at_once() {
        let mut uut = engine();
        uut.parameter_set.next = 3.into();
        uut.start.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.start.next = false;
        settle(&mut uut);
        assert!(uut.done.val() && uut.error.val() && !uut.busy.val());
    }

    #[test]
    fn keygen_engine_aborts_from_the_row_loop_and_from_sampling() {
        let mut uut = engine();
        for abort_at in [30, 900, 2_500] {
            uut.parameter_set.next = 0.into();
            uut.start.next = true;
            tick(&mut uut, |u| &mut u.clock);
            uut.start.next = false;
            for _ in 0..abort_at {
                tick(&mut uut, |u| &mut u.clock);
            }
            settle(&mut uut);
            assert!(uut.busy.val(), "still running at clock {abort_at}");
            uut.abort_job.next = true;
            tick(&mut uut, |u| &mut u.clock);
            uut.abort_job.next = false;
            settle(&mut uut);
            assert!(uut.done.val() && uut.error.val() && !uut.busy.val());
            // The cores are idle again: the next request starts cleanly.
            tick(&mut uut, |u| &mut u.clock);
            settle(&mut uut);
            assert!(uut.cores_idle());
        }
    }

    /// ExpandS reads a fixed number of bytes, so the clocks of an s
    /// polynomial are the same for every ξ (ρ′ is secret); without that
    /// they would follow the rejected nibbles. Measured on the sampler's
    /// first s polynomial (s1[0]), which nothing else can delay.
    #[test]
    fn expand_s_clocks_do_not_depend_on_the_secret_seed() {
        for set in [0u64, 1] {
            let mut seen = Vec::new();
            for seed in 0..8u8 {
                let mut uut = engine();
                let xi: [u8; 32] = core::array::from_fn(|i| {
                    let word = u32::from(seed) * 0x0101_0101 + (i / 4) as u32;
                    word.to_le_bytes()[i % 4]
                });
                start_keygen(&mut uut, &xi, set);
                let mut clocks = 0;
                let mut guard = 0;
                // The 256th coefficient into the ring, and the first clock
                // with the fixed bytes all in.
                let (mut full_at, mut bytes_in_at) = (None, None);
                while uut.keygen.sampler.q.val() != SamplerPhase::SampleA {
                    if uut.keygen.sampler.q.val() == SamplerPhase::SampleS {
                        clocks += 1;
                        if full_at.is_none() && uut.keygen.s_count.q.val().get_bit(8) {
                            full_at = Some(clocks);
                        }
                        if bytes_in_at.is_none()
                            && uut.keygen.s_bytes.q.val() >= uut.keygen.s_bytes_target.q.val()
                        {
                            bytes_in_at = Some(clocks);
                        }
                    }
                    tick(&mut uut, |u| &mut u.clock);
                    guard += 1;
                    assert!(guard < 5_000, "no first s polynomial");
                }
                // The queue must be done before the fixed read ends: the
                // phase then ends on the read, not on the rejections. The
                // margin sets the odds of a late polynomial
                // (`rej_bounded` module docs).
                let full_at = full_at.expect("256 coefficients");
                let bytes_in_at = bytes_in_at.expect("the fixed bytes");
                assert!(
                    full_at < bytes_in_at,
                    "set {set}: the 256th coefficient at {full_at}, the bytes in at {bytes_in_at}"
                );
                eprintln!(
                    "set {set}, seed {seed}: {clocks} clocks, the 256th coefficient {} clocks before the last byte",
                    bytes_in_at - full_at - 1
                );
                seen.push(clocks);
            }
            assert!(seen.iter().all(|&c| c == seen[0]), "set {set}: {seen:?}");
            // At least the fixed squeeze, a byte a clock.
            let bytes = s_squeeze_bytes(&SETS[set as usize]);
            assert!(seen[0] >= bytes, "set {set}: {seen:?}");
        }
    }

    /// The path no real ξ reaches (odds below 2^−40): the fixed bytes are
    /// all in before the 256th coefficient, so the sampler reads on and
    /// stops at that coefficient. Forced by setting the byte count near
    /// its 9-bit limit early in s1\[0\]: the count must hold there (with
    /// the count let wrap, s1\[0\] ended 41 clocks after its 256th
    /// coefficient, reading on to the target again), and the key must
    /// still be `pqc`'s.
    /// Writes ξ and starts a key generation of `set` (the sink always
    /// ready).
    fn start_keygen(uut: &mut MlDsaEngine, xi: &[u8; 32], set: u64) {
        start_keygen_in(uut, |u| u, |u| &mut u.clock, xi, set);
    }

    /// [`start_keygen`] on the engine `engine` finds in a block clocked
    /// by `clock`.
    fn start_keygen_in<B: Block>(
        uut: &mut B,
        engine: fn(&mut B) -> &mut MlDsaEngine,
        clock: fn(&mut B) -> &mut Signal<In, Clock>,
        xi: &[u8; 32],
        set: u64,
    ) {
        for (w, word) in xi.chunks_exact(4).enumerate() {
            let e = engine(uut);
            e.xi_write.next = true;
            e.xi_index.next = (w as u64).into();
            e.xi_word.next = u64::from(u32::from_le_bytes(word.try_into().unwrap())).into();
            tick(uut, clock);
        }
        let e = engine(uut);
        e.xi_write.next = false;
        e.parameter_set.next = set.into();
        e.m_ready.next = true;
        e.start.next = true;
        tick(uut, clock);
        engine(uut).start.next = false;
    }

    #[test]
    fn expand_s_reads_on_past_its_fixed_bytes_and_stops_at_the_256th_coefficient() {
        let mut uut = engine();
        let xi: [u8; 32] = core::array::from_fn(|i| (7 * i + 3) as u8);
        start_keygen(&mut uut, &xi, 0);
        let (mut forced, mut full_at, mut s_end) = (false, None, None);
        let mut out = Vec::new();
        for clock in 0..40_000 {
            settle(&mut uut);
            if uut.m_valid.val() {
                out.extend_from_slice(&(uut.m_data.val().to_u64() as u32).to_le_bytes());
            }
            if uut.done.val() {
                break;
            }
            let keygen = &mut uut.keygen;
            let s_phase = keygen.sampler.q.val() == SamplerPhase::SampleS;
            if s_phase && !forced && keygen.s_count.q.val() == 16 {
                keygen.s_bytes.q.next = 505.into();
                forced = true;
            }
            if forced && full_at.is_none() && keygen.s_count.q.val().get_bit(8) {
                full_at = Some(clock);
            }
            if full_at.is_some() && s_end.is_none() && !s_phase {
                s_end = Some(clock);
            }
            tick(&mut uut, |u| &mut u.clock);
        }
        settle(&mut uut);
        assert!(uut.done.val() && !uut.error.val(), "no clean end");
        let (full_at, s_end) = (full_at.unwrap(), s_end.unwrap());
        assert!(
            s_end - full_at <= 4,
            "s1[0] ended {} clocks after its 256th coefficient",
            s_end - full_at
        );
        assert_eq!(out, pqc_keygen(0, &xi), "pk ‖ sk");
    }

    /// pk leaves on the stream as tr's sponge absorbs it; a word moves on
    /// once both have taken it. Here the sink stops for 200 clocks when
    /// the last pk word is offered, so the sponge finishes tr first: the
    /// phase must wait for the stream before sk goes out.
    #[test]
    fn keygen_streams_pk_while_hashing_it_and_waits_for_a_slow_sink() {
        let mut uut = engine();
        let xi: [u8; 32] = core::array::from_fn(|i| (5 * i + 1) as u8);
        start_keygen(&mut uut, &xi, 0);
        let (mut stall_from, mut waited) = (None, 0);
        let mut out = Vec::new();
        for clock in 0..40_000 {
            let keygen = &uut.keygen;
            let hashing = keygen.hashing.q.val();
            if hashing
                && stall_from.is_none()
                && keygen.primed.q.val()
                && keygen.out_index.q.val().index() + 1 == keygen.pk_words.q.val().index()
            {
                stall_from = Some(clock);
            }
            uut.m_ready.next = !matches!(stall_from, Some(t) if clock < t + 200);
            settle(&mut uut);
            if hashing && uut.keygen.sponge_done.val() && !uut.m_ready.val() {
                waited += 1;
            }
            if uut.m_valid.val() && uut.m_ready.val() {
                out.extend_from_slice(&(uut.m_data.val().to_u64() as u32).to_le_bytes());
            }
            if uut.done.val() {
                break;
            }
            tick(&mut uut, |u| &mut u.clock);
        }
        assert!(uut.done.val() && !uut.error.val(), "no clean end");
        assert!(
            waited > 100,
            "the sponge was done {waited} clocks before the stream"
        );
        assert_eq!(out, pqc_keygen(0, &xi), "pk ‖ sk");
    }

    /// The engine built to hash on an outside sponge, given one of the
    /// shared configuration (R = 2, kept chains, squeeze tail): KeyGen of
    /// the ACVP ξ of every set gives `pqc`'s pk ‖ sk, in the clocks
    /// measured here (fewer than on its own R = 1 sponge,
    /// [`ACVP_KEYGEN_CLOCKS`]).
    #[test]
    fn keygen_on_the_shared_sponge_matches_pqc() {
        use crate::keccak::select::OnSharedSponge;
        let mut measured = [0usize; 3];
        for (set, measured) in measured.iter_mut().enumerate() {
            let mut uut = OnSharedSponge::<MlDsaEngine, 2>::default();
            uut.connect_all();
            settle(&mut uut);
            uut.job.reset.next = true;
            tick(&mut uut, |u| &mut u.clock);
            uut.job.reset.next = false;
            let xi = pqc_selftest::vectors::ML_DSA[set].keygen.seed;
            start_keygen_in(&mut uut, |u| &mut u.job, |u| &mut u.clock, &xi, set as u64);
            let mut out = Vec::new();
            let mut clocks = 1;
            loop {
                settle(&mut uut);
                if uut.job.done.val() {
                    break;
                }
                if uut.job.m_valid.val() {
                    out.extend_from_slice(&(uut.job.m_data.val().to_u64() as u32).to_le_bytes());
                }
                tick(&mut uut, |u| &mut u.clock);
                clocks += 1;
                assert!(clocks < 100_000, "set {set}: hung");
            }
            assert!(!uut.job.error.val(), "set {set}: error");
            assert_eq!(out, pqc_keygen(set, &xi), "set {set}: pk ‖ sk");
            *measured = clocks;
        }
        eprintln!(
            "KeyGen on the shared sponge (ACVP ξ): {measured:?} clocks; on its own: {ACVP_KEYGEN_CLOCKS:?}"
        );
        assert_eq!(measured, SHARED_ACVP_KEYGEN_CLOCKS);
    }

    #[test]
    fn keygen_engine_yosys_validates() {
        let mut uut = MlDsaKeyGen::default();
        uut.connect_all();
        yosys_validate("mldsa_keygen", &generate_verilog(&uut)).unwrap();
    }
}

/// Clocks per phase of one ML-DSA-44 key generation on the rust-hdl model,
/// printed (`cargo test -p hdl --release -- --ignored keygen_phase_clocks
/// --nocapture`): where the engine's time goes.
#[cfg(test)]
#[test]
#[ignore = "a measurement (30 s of rust-hdl simulation), not a check"]
fn keygen_phase_clocks() {
    use crate::ntt::sim::{settle, tick};
    let mut uut = crate::mldsa::engine::MlDsaEngine::default();
    uut.connect_all();
    settle(&mut uut);
    uut.reset.next = true;
    tick(&mut uut, |u| &mut u.clock);
    uut.reset.next = false;
    uut.parameter_set.next = 0.into();
    uut.start.next = true;
    uut.m_ready.next = true;
    tick(&mut uut, |u| &mut u.clock);
    uut.start.next = false;
    let mut clocks = std::collections::BTreeMap::<String, u64>::new();
    let mut total = 1u64;
    while uut.busy.val() {
        *clocks
            .entry(format!("{:?}", uut.keygen.phase.q.val()))
            .or_default() += 1;
        *clocks
            .entry(format!("sampler {:?}", uut.keygen.sampler.q.val()))
            .or_default() += 1;
        tick(&mut uut, |u| &mut u.clock);
        total += 1;
    }
    for (phase, n) in &clocks {
        eprintln!(
            "{phase:>10}: {n:>6} clocks ({:.1} %)",
            100.0 * *n as f64 / total as f64
        );
    }
    eprintln!("     total: {total}");
}
