//! The ML-DSA engine: the KeyGen, Sign and Verify sequencers around one
//! shared sponge engine (R = 1, with the squeeze tail of
//! [`SpongeEngine::with_squeeze_tail`]) and one NTT core (B = 4). Only one
//! operation runs at a time, so the sequencers take turns on the cores:
//! the Verify or the Sign sequencer drives them while it is busy, the
//! KeyGen sequencer otherwise (each drives idle requests when it is idle).
//! Sharing saves a sponge engine and an NTT core per sequencer, about
//! 11,700 LUT and 8 DSP48E1 each in yosys. The sequencers share the
//! polynomial memory on the core's row port the same way
//! ([`EnginePolyMemory`]), and Verify and Sign share SampleInBall (1,791
//! LUT alone in yosys). The sponge's output reaches them through a
//! 16-word FIFO ([`SpongeOutFifo`]), flushed on every sponge request; a
//! request counts as done for a sequencer once its last word has left
//! the FIFO. The sponge sits behind a [`SpongeSelect`]: the engine's own,
//! or, built with [`MlDsaEngine::with_outside_sponge`], one outside behind
//! `sponge_port` (to share it with the SLH-DSA engine; on the shared
//! configuration, R = 2 with the kept chain, KeyGen takes 1.4–4.1 % fewer
//! clocks: `hdl::mldsa::keygen`'s `keygen_on_the_shared_sponge_matches_pqc`).
//!
//! # Interface
//!
//! `start` (taken when no operation runs) with `op_verify` (Verify_internal,
//! see [`super::verify`]), else `op_sign` (Sign_internal, see
//! [`super::sign`]), else KeyGen_internal ([`super::keygen`]), and
//! `parameter_set`. KeyGen takes ξ on the `xi_*` ports and gives pk ‖ sk
//! on the `m_*` stream; Sign takes sk ‖ rnd ‖ M′ (or μ) on the `s_*`
//! stream and gives σ on the `m_*` stream (`attempts` then counts its
//! attempts); Verify takes pk ‖ σ ‖ M′ (or μ) on the `s_*` stream and
//! gives `verdict`. `busy`, `done`, `error` are those of the operation
//! started last. `abort_job` stops whichever runs.

use crate::keccak::select::{SpongePort, SpongeSelect};
use crate::keccak::SpongeEngine;
use crate::mldsa::keygen::MlDsaKeyGen;
use crate::mldsa::poly_memory::{PolyRowMemory, BANKS};
use crate::mldsa::sample_in_ball::SampleInBall;
use crate::mldsa::sign::MlDsaSign;
use crate::mldsa::verify::MlDsaVerify;
use crate::mldsa::word_fifo::SpongeOutFifo;
use crate::ntt::core::NttCoreB4;
use rust_hdl::prelude::*;

/// The engine's polynomial memory: 6 pages, 96 polynomials, 48 RAMB18.
/// KeyGen keeps NTT(s1\[j\]) at j and all ones at 15; Verify NTT(c) at 0
/// and NTT(z\[j\]) at 1 + j; Sign ŷ\[j\] at j, NTT(s1\[j\]) at 8 + j,
/// NTT(s2\[i\]) at 16 + i, NTT(t0\[i\]) at 24 + i and Â\[i\]\[j\] at
/// 32 + 8i + j (up to 94 for ML-DSA-87). The sequencers' samplers (KeyGen's
/// s and Â, Verify's Â, Sign's first-attempt Â) fill its sampling ring
/// (8 RAMB18 more, polynomials 112 to 115).
pub type EnginePolyMemory = PolyRowMemory<6, 48>;
// Sign's last index: Â[7][6] of ML-DSA-87.
const _: () = assert!(EnginePolyMemory::POLYS > 32 + 8 * 7 + 6);

/// The ML-DSA engine.
#[derive(LogicBlock)]
pub struct MlDsaEngine {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Start an operation (taken when none runs).
    pub start: Signal<In, Bit>,
    /// The operation of `start`: Verify_internal when set, else KeyGen_internal.
    pub op_verify: Signal<In, Bit>,
    /// The operation of `start`: Sign_internal when set (and `op_verify` low).
    pub op_sign: Signal<In, Bit>,
    /// Parameter set: 0, 1, 2 for ML-DSA-44, -65, -87.
    pub parameter_set: Signal<In, Bits<2>>,
    /// Abandon the running operation (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// KeyGen: write `xi_word` into ξ word `xi_index` (when idle).
    pub xi_write: Signal<In, Bit>,
    /// KeyGen: which ξ word.
    pub xi_index: Signal<In, Bits<3>>,
    /// KeyGen: the ξ word.
    pub xi_word: Signal<In, Bits<32>>,
    /// Verify and Sign: μ comes on the stream instead of M′.
    pub external_mu: Signal<In, Bit>,
    /// Verify and Sign: length of M′ in bytes.
    pub msg_bytes: Signal<In, Bits<32>>,
    /// An operation runs.
    pub busy: Signal<Out, Bit>,
    /// The last operation ended (until the next start).
    pub done: Signal<Out, Bit>,
    /// It ended with an error.
    pub error: Signal<Out, Bit>,
    /// Verify: with `done` and not `error`, the signature is valid.
    pub verdict: Signal<Out, Bit>,
    /// Sign: attempts of the last signature.
    pub attempts: Signal<Out, Bits<10>>,
    /// Input stream TDATA: Verify pk ‖ σ ‖ (M′ or μ), Sign sk ‖ rnd ‖ (M′ or μ).
    pub s_data: Signal<In, Bits<32>>,
    /// Input stream TVALID.
    pub s_valid: Signal<In, Bit>,
    /// Input stream TLAST.
    pub s_last: Signal<In, Bit>,
    /// Input stream TREADY.
    pub s_ready: Signal<Out, Bit>,
    /// Output stream TDATA: KeyGen pk ‖ sk, Sign σ.
    pub m_data: Signal<Out, Bits<32>>,
    /// Output stream TVALID.
    pub m_valid: Signal<Out, Bit>,
    /// Output stream TLAST.
    pub m_last: Signal<Out, Bit>,
    /// Output stream TREADY.
    pub m_ready: Signal<In, Bit>,
    pub(crate) keygen: MlDsaKeyGen,
    pub(crate) verify: MlDsaVerify,
    pub(crate) sign: MlDsaSign,
    /// The sponge the engine hashes on when built with
    /// [`MlDsaEngine::with_outside_sponge`] (zeros otherwise).
    pub sponge_port: SpongePort,
    /// Its own engine (R = 1, with the squeeze tail), or the port.
    pub(crate) sponge: SpongeSelect<1>,
    /// The sponge's output words on their way to the sequencers.
    sponge_out: SpongeOutFifo,
    pub(crate) ntt: NttCoreB4,
    pub(crate) poly_memory: EnginePolyMemory,
    /// SampleInBall, Verify's or Sign's (c is loaded into the core before
    /// either starts another operation).
    ball: SampleInBall,
    last_verify: DFF<Bit>,
    last_sign: DFF<Bit>,
    any_busy: Signal<Local, Bit>,
    take_start: Signal<Local, Bit>,
}

impl Default for MlDsaEngine {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            op_verify: Default::default(),
            op_sign: Default::default(),
            parameter_set: Default::default(),
            abort_job: Default::default(),
            xi_write: Default::default(),
            xi_index: Default::default(),
            xi_word: Default::default(),
            external_mu: Default::default(),
            msg_bytes: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            verdict: Default::default(),
            attempts: Default::default(),
            s_data: Default::default(),
            s_valid: Default::default(),
            s_last: Default::default(),
            s_ready: Default::default(),
            m_data: Default::default(),
            m_valid: Default::default(),
            m_last: Default::default(),
            m_ready: Default::default(),
            keygen: Default::default(),
            verify: Default::default(),
            sign: Default::default(),
            sponge_port: Default::default(),
            sponge: SpongeSelect::own(SpongeEngine::with_squeeze_tail()),
            sponge_out: Default::default(),
            // The engine's core has the row port to its polynomial memory.
            ntt: NttCoreB4::with_row_port(),
            poly_memory: Default::default(),
            ball: Default::default(),
            last_verify: Default::default(),
            last_sign: Default::default(),
            any_busy: Default::default(),
            take_start: Default::default(),
        }
    }
}

impl MlDsaEngine {
    /// An engine that hashes on the sponge behind
    /// [`MlDsaEngine::sponge_port`] (which must have the squeeze tail).
    pub fn with_outside_sponge() -> Self {
        Self {
            sponge: SpongeSelect::outside(),
            ..Self::default()
        }
    }
}

impl Logic for MlDsaEngine {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last_verify, last_sign);
        clock!(
            self,
            clock,
            keygen,
            verify,
            sign,
            sponge,
            sponge_out,
            ntt,
            poly_memory,
            ball
        );
        SpongePort::link(&mut self.sponge_port, &mut self.sponge.port);
        self.any_busy.next = self.keygen.busy.val() | self.verify.busy.val() | self.sign.busy.val();
        self.take_start.next = self.start.val() & !self.any_busy.val();
        if self.take_start.val() {
            self.last_verify.d.next = self.op_verify.val();
            self.last_sign.d.next = self.op_sign.val() & !self.op_verify.val();
        }

        // ---- The sequencers.
        self.keygen.reset.next = self.reset.val();
        self.keygen.start.next =
            self.take_start.val() & !self.op_verify.val() & !self.op_sign.val();
        self.keygen.parameter_set.next = self.parameter_set.val();
        self.keygen.abort_job.next = self.abort_job.val();
        self.keygen.xi_write.next = self.xi_write.val();
        self.keygen.xi_index.next = self.xi_index.val();
        self.keygen.xi_word.next = self.xi_word.val();
        self.keygen.m_ready.next = self.m_ready.val();
        self.m_data.next = self.keygen.m_data.val();
        self.m_valid.next = self.keygen.m_valid.val();
        self.m_last.next = self.keygen.m_last.val();
        self.verify.reset.next = self.reset.val();
        self.verify.start.next = self.take_start.val() & self.op_verify.val();
        self.verify.parameter_set.next = self.parameter_set.val();
        self.verify.abort_job.next = self.abort_job.val();
        self.verify.external_mu.next = self.external_mu.val();
        self.verify.msg_bytes.next = self.msg_bytes.val();
        self.verify.s_data.next = self.s_data.val();
        self.verify.s_valid.next = self.s_valid.val();
        self.verify.s_last.next = self.s_last.val();
        self.sign.reset.next = self.reset.val();
        self.sign.start.next = self.take_start.val() & self.op_sign.val() & !self.op_verify.val();
        self.sign.parameter_set.next = self.parameter_set.val();
        self.sign.abort_job.next = self.abort_job.val();
        self.sign.external_mu.next = self.external_mu.val();
        self.sign.msg_bytes.next = self.msg_bytes.val();
        self.sign.s_data.next = self.s_data.val();
        self.sign.s_valid.next = self.s_valid.val();
        self.sign.s_last.next = self.s_last.val();
        self.sign.m_ready.next = self.m_ready.val();
        self.s_ready.next = self.verify.s_ready.val() | self.sign.s_ready.val();
        self.attempts.next = self.sign.attempts.val();
        self.busy.next = self.any_busy.val();
        self.done.next = self.keygen.done.val();
        self.error.next = self.keygen.error.val();
        self.verdict.next = false;
        if self.last_verify.q.val() {
            self.done.next = self.verify.done.val();
            self.error.next = self.verify.error.val();
            self.verdict.next = self.verify.verdict.val();
        }
        if self.last_sign.q.val() {
            self.done.next = self.sign.done.val();
            self.error.next = self.sign.error.val();
            self.m_data.next = self.sign.m_data.val();
            self.m_valid.next = self.sign.m_valid.val();
            self.m_last.next = self.sign.m_last.val();
        }

        // ---- The shared cores: the Verify or Sign sequencer's requests
        // while it runs, the KeyGen sequencer's otherwise.
        self.sponge.reset.next = self.reset.val();
        // The sponge's output goes through the FIFO (flushed on every
        // request, so an aborted squeeze leaves no word behind); a request
        // is done for the sequencer once its last word has left the FIFO.
        self.sponge_out.in_data.next = self.sponge.out_data.val();
        self.sponge_out.in_valid.next = self.sponge.out_valid.val();
        self.sponge.out_ready.next = self.sponge_out.in_ready.val();
        self.ntt.reset.next = self.reset.val();
        // The polynomial memory sits on the core's row port.
        for k in 0..BANKS {
            self.poly_memory.core_row_out[k].next = self.ntt.row_out[k].val();
            self.ntt.row_in[k].next = self.poly_memory.core_row_in[k].val();
        }
        self.poly_memory.core_row_out_valid.next = self.ntt.row_out_valid.val();
        self.poly_memory.core_row_in_ready.next = self.ntt.row_in_ready.val();
        self.ntt.row_in_valid.next = self.poly_memory.core_row_in_valid.val();
        self.poly_memory.store_poly.next = self.keygen.pm_store_poly.val();
        self.poly_memory.load_poly.next = self.keygen.pm_load_poly.val();
        // The sequencers' samplers write the ring (each one's write is low
        // while it is off).
        self.poly_memory.coeff_write.next = self.keygen.pm_coeff_write.val()
            | self.verify.pm_coeff_write.val()
            | self.sign.pm_coeff_write.val();
        self.poly_memory.coeff_slot.next = self.keygen.pm_coeff_slot.val();
        self.poly_memory.coeff_index.next = self.keygen.pm_coeff_index.val();
        self.poly_memory.coeff_data.next = self.keygen.pm_coeff_data.val();
        if self.verify.busy.val() {
            self.poly_memory.coeff_slot.next = self.verify.pm_coeff_slot.val();
            self.poly_memory.coeff_index.next = self.verify.pm_coeff_index.val();
            self.poly_memory.coeff_data.next = self.verify.pm_coeff_data.val();
        } else if self.sign.busy.val() {
            self.poly_memory.coeff_slot.next = self.sign.pm_coeff_slot.val();
            self.poly_memory.coeff_index.next = self.sign.pm_coeff_index.val();
            self.poly_memory.coeff_data.next = self.sign.pm_coeff_data.val();
        }
        if self.verify.busy.val() {
            self.poly_memory.store_poly.next = self.verify.pm_store_poly.val();
            self.poly_memory.load_poly.next = self.verify.pm_load_poly.val();
        } else if self.sign.busy.val() {
            self.poly_memory.store_poly.next = self.sign.pm_store_poly.val();
            self.poly_memory.load_poly.next = self.sign.pm_load_poly.val();
        }
        if self.verify.busy.val() {
            self.sponge.start.next = self.verify.sponge_start.val();
            self.sponge.op.next = self.verify.sponge_op.val();
            self.sponge.arg0.next = self.verify.sponge_arg0.val();
            self.sponge.arg1.next = self.verify.sponge_arg1.val();
            self.sponge.arg2.next = self.verify.sponge_arg2.val();
            self.sponge.in_data.next = self.verify.sponge_in_data.val();
            self.sponge.in_valid.next = self.verify.sponge_in_valid.val();
            self.sponge.in_last.next = self.verify.sponge_in_last.val();
            self.sponge_out.out_ready.next = self.verify.sponge_out_ready.val();
            self.sponge_out.flush.next = self.reset.val() | self.verify.sponge_start.val();
            self.ntt.start.next = self.verify.ntt_start.val();
            self.ntt.op.next = self.verify.ntt_op.val();
            self.ntt.arg0.next = self.verify.ntt_arg0.val();
            self.ntt.arg1.next = self.verify.ntt_arg1.val();
            self.ntt.arg2.next = self.verify.ntt_arg2.val();
            self.ntt.s_tdata.next = self.verify.ntt_s_tdata.val();
            self.ntt.s_tvalid.next = self.verify.ntt_s_tvalid.val();
            self.ntt.s_tlast.next = self.verify.ntt_s_tlast.val();
            self.ntt.m_tready.next = self.verify.ntt_m_tready.val();
        } else if self.sign.busy.val() {
            self.sponge.start.next = self.sign.sponge_start.val();
            self.sponge.op.next = self.sign.sponge_op.val();
            self.sponge.arg0.next = self.sign.sponge_arg0.val();
            self.sponge.arg1.next = self.sign.sponge_arg1.val();
            self.sponge.arg2.next = self.sign.sponge_arg2.val();
            self.sponge.in_data.next = self.sign.sponge_in_data.val();
            self.sponge.in_valid.next = self.sign.sponge_in_valid.val();
            self.sponge.in_last.next = self.sign.sponge_in_last.val();
            self.sponge_out.out_ready.next = self.sign.sponge_out_ready.val();
            self.sponge_out.flush.next = self.reset.val() | self.sign.sponge_start.val();
            self.ntt.start.next = self.sign.ntt_start.val();
            self.ntt.op.next = self.sign.ntt_op.val();
            self.ntt.arg0.next = self.sign.ntt_arg0.val();
            self.ntt.arg1.next = self.sign.ntt_arg1.val();
            self.ntt.arg2.next = self.sign.ntt_arg2.val();
            self.ntt.s_tdata.next = self.sign.ntt_s_tdata.val();
            self.ntt.s_tvalid.next = self.sign.ntt_s_tvalid.val();
            self.ntt.s_tlast.next = self.sign.ntt_s_tlast.val();
            self.ntt.m_tready.next = self.sign.ntt_m_tready.val();
        } else {
            self.sponge.start.next = self.keygen.sponge_start.val();
            self.sponge.op.next = self.keygen.sponge_op.val();
            self.sponge.arg0.next = self.keygen.sponge_arg0.val();
            self.sponge.arg1.next = self.keygen.sponge_arg1.val();
            self.sponge.arg2.next = self.keygen.sponge_arg2.val();
            self.sponge.in_data.next = self.keygen.sponge_in_data.val();
            self.sponge.in_valid.next = self.keygen.sponge_in_valid.val();
            self.sponge.in_last.next = self.keygen.sponge_in_last.val();
            self.sponge_out.out_ready.next = self.keygen.sponge_out_ready.val();
            self.sponge_out.flush.next = self.reset.val() | self.keygen.sponge_start.val();
            self.ntt.start.next = self.keygen.ntt_start.val();
            self.ntt.op.next = self.keygen.ntt_op.val();
            self.ntt.arg0.next = self.keygen.ntt_arg0.val();
            self.ntt.arg1.next = self.keygen.ntt_arg1.val();
            self.ntt.arg2.next = self.keygen.ntt_arg2.val();
            self.ntt.s_tdata.next = self.keygen.ntt_s_tdata.val();
            self.ntt.s_tvalid.next = self.keygen.ntt_s_tvalid.val();
            self.ntt.s_tlast.next = self.keygen.ntt_s_tlast.val();
            self.ntt.m_tready.next = self.keygen.ntt_m_tready.val();
        }
        self.keygen.sponge_done.next = self.sponge.done.val() & self.sponge_out.empty.val();
        self.keygen.sponge_error.next = self.sponge.error.val();
        self.keygen.sponge_in_ready.next = self.sponge.in_ready.val();
        self.keygen.sponge_out_data.next = self.sponge_out.out_data.val();
        self.keygen.sponge_out_valid.next = self.sponge_out.out_valid.val();
        self.keygen.ntt_done.next = self.ntt.done.val();
        self.keygen.ntt_error.next = self.ntt.error.val();
        self.keygen.ntt_s_tready.next = self.ntt.s_tready.val();
        self.keygen.ntt_m_tdata.next = self.ntt.m_tdata.val();
        self.keygen.ntt_m_tvalid.next = self.ntt.m_tvalid.val();
        self.verify.sponge_done.next = self.sponge.done.val() & self.sponge_out.empty.val();
        self.verify.sponge_error.next = self.sponge.error.val();
        self.verify.sponge_in_ready.next = self.sponge.in_ready.val();
        self.verify.sponge_out_data.next = self.sponge_out.out_data.val();
        self.verify.sponge_out_valid.next = self.sponge_out.out_valid.val();
        self.verify.ntt_done.next = self.ntt.done.val();
        self.verify.ntt_error.next = self.ntt.error.val();
        self.verify.ntt_s_tready.next = self.ntt.s_tready.val();
        self.verify.ntt_m_tdata.next = self.ntt.m_tdata.val();
        self.verify.ntt_m_tvalid.next = self.ntt.m_tvalid.val();
        self.sign.sponge_done.next = self.sponge.done.val() & self.sponge_out.empty.val();
        self.sign.sponge_error.next = self.sponge.error.val();
        self.sign.sponge_in_ready.next = self.sponge.in_ready.val();
        self.sign.sponge_out_data.next = self.sponge_out.out_data.val();
        self.sign.sponge_out_valid.next = self.sponge_out.out_valid.val();
        self.sign.ntt_done.next = self.ntt.done.val();
        self.sign.ntt_error.next = self.ntt.error.val();
        self.sign.ntt_s_tready.next = self.ntt.s_tready.val();
        self.sign.ntt_m_tdata.next = self.ntt.m_tdata.val();
        self.sign.ntt_m_tvalid.next = self.ntt.m_tvalid.val();

        // ---- SampleInBall: Verify's while it runs, Sign's otherwise.
        self.ball.reset.next = self.reset.val();
        if self.verify.busy.val() {
            self.ball.start.next = self.verify.ball_start.val();
            self.ball.tau.next = self.verify.ball_tau.val();
            self.ball.data.next = self.verify.ball_data.val();
            self.ball.data_valid.next = self.verify.ball_data_valid.val();
            self.ball.read_index.next = self.verify.ball_read_index.val();
        } else {
            self.ball.start.next = self.sign.ball_start.val();
            self.ball.tau.next = self.sign.ball_tau.val();
            self.ball.data.next = self.sign.ball_data.val();
            self.ball.data_valid.next = self.sign.ball_data_valid.val();
            self.ball.read_index.next = self.sign.ball_read_index.val();
        }
        self.verify.ball_data_ready.next = self.ball.data_ready.val();
        self.verify.ball_done.next = self.ball.done.val();
        self.verify.ball_coeff.next = self.ball.coeff.val();
        self.sign.ball_data_ready.next = self.ball.data_ready.val();
        self.sign.ball_done.next = self.ball.done.val();
        self.sign.ball_coeff.next = self.ball.coeff.val();
    }
}

#[cfg(test)]
impl crate::keccak::select::OutsideSpongeJob for MlDsaEngine {
    fn on_outside_sponge() -> Self {
        Self::with_outside_sponge()
    }
    fn sponge_port(&mut self) -> &mut SpongePort {
        &mut self.sponge_port
    }
    fn job_clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
}

#[cfg(test)]
impl MlDsaEngine {
    /// The sponge and the NTT core are idle (after an abort).
    pub(crate) fn cores_idle(&self) -> bool {
        !self.sponge.busy.val() && !self.ntt.busy.val()
    }
}

/// A checker of the sampling ring's protocol, fed the engine clock by
/// clock (after each edge) by the sequencers' whole-operation tests: every
/// ring slot the core loads holds 256 coefficients written at least two
/// clocks before the load starts (the memory registers a write for a
/// clock), and no coefficient is written into a slot that holds one not
/// yet loaded, or that is being loaded. The ring is forgotten whenever
/// the engine is idle (an aborted job may leave a slot half written).
#[cfg(test)]
pub(crate) struct RingScoreboard {
    /// The clock each coefficient of each slot was written on.
    written: Vec<[Option<usize>; 256]>,
    /// The slot the core is loading.
    loading: Option<usize>,
    clock: usize,
    /// Ring loads seen (each checked whole).
    pub loads: usize,
    /// Coefficient writes seen.
    pub writes: usize,
}

#[cfg(test)]
impl Default for RingScoreboard {
    fn default() -> Self {
        Self {
            written: vec![[None; 256]; crate::mldsa::poly_memory::PAGE_POLYS],
            loading: None,
            clock: 0,
            loads: 0,
            writes: 0,
        }
    }
}

#[cfg(test)]
impl RingScoreboard {
    /// Checks this clock's ring traffic; panics on a breach.
    pub(crate) fn observe(&mut self, uut: &MlDsaEngine) {
        use crate::mldsa::poly_memory::RING_FIRST_POLY;
        self.clock += 1;
        let pm = &uut.poly_memory;
        if !uut.busy.val() {
            self.written.iter_mut().for_each(|s| *s = [None; 256]);
            self.loading = None;
            return;
        }
        if pm.coeff_write.val() {
            let (slot, i) = (pm.coeff_slot.val().index(), pm.coeff_index.val().index());
            assert_ne!(
                self.loading,
                Some(slot),
                "clock {}: ring slot {slot} written while the core loads it",
                self.clock
            );
            assert!(
                self.written[slot][i].is_none(),
                "clock {}: coefficient {i} of ring slot {slot} written again before the core loaded it",
                self.clock
            );
            self.written[slot][i] = Some(self.clock);
            self.writes += 1;
        }
        let poly = pm.load_poly.val().index();
        let ring_load = pm.core_row_in_ready.val() && poly >= RING_FIRST_POLY;
        match (self.loading, ring_load) {
            (None, true) => {
                let slot = poly - RING_FIRST_POLY;
                for (i, at) in self.written[slot].iter().enumerate() {
                    assert!(
                        matches!(at, Some(c) if c + 2 <= self.clock),
                        "clock {}: the core loads ring slot {slot} before its coefficient {i} is in ({at:?})",
                        self.clock
                    );
                }
                self.loading = Some(slot);
                self.loads += 1;
            }
            (Some(slot), false) => {
                self.written[slot] = [None; 256];
                self.loading = None;
            }
            _ => {}
        }
    }
}
