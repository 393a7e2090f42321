//! The ML-DSA engine's PL top: [`MlDsaEngine`] (KeyGen, Sign and Verify on one
//! shared sponge engine and NTT core) behind the AXI4-Lite control block
//! and the two streams (`ps_pl_contract::regmap::mldsa`).
//!
//! - `OP_KEYGEN`: the top takes the 8 words of ξ (`TLAST` on the 8th) into
//!   the KeyGen engine's ξ registers, then starts it; pk ‖ sk leave on the
//!   output stream.
//! - `OP_SIGN`: the Sign engine takes the input stream itself (it checks
//!   its length) and sends σ; `RESULT` holds its attempts.
//! - After pk ‖ sk and after σ the top sends the check word
//!   (`reg::output_check`, folded from a register copy of each word one
//!   clock later, off the data path) with `TLAST`; DONE waits for it.
//! - `OP_VERIFY`: the Verify engine takes the input stream itself (it
//!   checks its length); once it is done the top sends the verdict word.
//!
//! A set it does not know, a `TLAST` before the 8th ξ word or none on it,
//! a stream of the wrong length and an unknown operation end the request
//! with `STATUS_DONE | STATUS_ERROR`; `OP_ABORT` ends whatever runs the
//! same way. `CYCLES` counts the clocks from the accepted start to done.
//! While `sponge_taken` is high (the other engine of
//! [`super::EnginesAccel`] holds the shared sponge) a start is refused the
//! same way.

use super::ctrl::{CtrlRegs, ADDR_BITS};
use super::top::{pl_top, pl_top_around};
use crate::keccak::select::SpongePort;
use crate::mldsa::engine::MlDsaEngine;
use ps_pl_contract::regmap::{self, mldsa as reg};
use rust_hdl::prelude::*;

// The engine numbers the sets as the contract does.
const _: () = assert!(reg::SET_44 == 0 && reg::SET_65 == 1 && reg::SET_87 == 2);
const _: () = assert!(reg::KEYGEN_INPUT_WORDS == 8);
const _: () = assert!(reg::VERIFY_EXTERNAL_MU == 1 << 8);
const _: () = assert!(reg::SIGN_EXTERNAL_MU == reg::VERIFY_EXTERNAL_MU);
const _: () = assert!(reg::SIGN_RND_WORDS == 8);

pl_top! {
    /// The ML-DSA engine's block: the top's logic, with a port to an
    /// outside sponge ([`MlDsaAccel`] gives it its own; [`super::EnginesAccel`]
    /// the shared one).
    MlDsaBlock {
        regs: CtrlRegs = CtrlRegs::new(regmap::mldsa::ID),
        core: MlDsaEngine = MlDsaEngine::default(),
        /// The core's port to an outside sponge (see
        /// [`Self::with_outside_sponge`]).
        pub(crate) sponge_port: SpongePort = Default::default(),
        /// Another block holds the outside sponge: a start is refused
        /// (`STATUS_DONE | STATUS_ERROR`). Low in a top of its own.
        pub(crate) sponge_taken: Signal<In, Bit> = Default::default(),
        all_bytes: Constant<Bits<4>> = Constant::new(0xF.into()),
        op_keygen: Constant<Bits<8>> = Constant::new((reg::OP_KEYGEN as u64).into()),
        op_verify: Constant<Bits<8>> = Constant::new((reg::OP_VERIFY as u64).into()),
        op_sign: Constant<Bits<8>> = Constant::new((reg::OP_SIGN as u64).into()),
        op_abort: Constant<Bits<8>> = Constant::new((reg::OP_ABORT as u64).into()),
        config_word: Constant<Bits<32>> =
            Constant::new(((reg::CONFIG_KEYGEN | reg::CONFIG_SIGN | reg::CONFIG_VERIFY) as u64).into()),
        verdict_valid: Constant<Bits<32>> = Constant::new((reg::VERDICT_VALID as u64).into()),
        verdict_invalid: Constant<Bits<32>> = Constant::new((reg::VERDICT_INVALID as u64).into()),
        check_seed: Constant<Bits<32>> = Constant::new((reg::OUTPUT_CHECK_SEED as u64).into()),
        check: DFF<Bits<32>> = Default::default(),
        held_word: DFF<Bits<32>> = Default::default(),
        holding: DFF<Bit> = Default::default(),
        trailer: DFF<Bit> = Default::default(),
        core_beat: Signal<Local, Bit> = Default::default(),
        verifying: DFF<Bit> = Default::default(),
        sending: DFF<Bit> = Default::default(),
        verdict_word: DFF<Bits<32>> = Default::default(),
        loading: DFF<Bit> = Default::default(),
        xi_count: DFF<Bits<3>> = Default::default(),
        set_reg: DFF<Bits<2>> = Default::default(),
        handed: DFF<Bit> = Default::default(),
        top_done: DFF<Bit> = Default::default(),
        top_error: DFF<Bit> = Default::default(),
        cycle_count: DFF<Bits<32>> = Default::default(),
        any_busy: Signal<Local, Bit> = Default::default(),
        take_word: Signal<Local, Bit> = Default::default(),
    }
}

pl_top_around! {
    /// The ML-DSA engine (KeyGen, Sign and Verify) behind the AXI4-Lite
    /// control block.
    MlDsaAccel around MlDsaBlock = MlDsaBlock::default()
}

impl MlDsaBlock {
    /// The block whose engine hashes on a sponge outside it, behind
    /// `sponge_port` (the shared configuration,
    /// `SpongeEngine::with_kept_chain_and_squeeze_tail`), as in
    /// [`super::EnginesAccel`].
    pub fn with_outside_sponge() -> Self {
        Self {
            core: MlDsaEngine::with_outside_sponge(),
            ..Self::default()
        }
    }
}

impl Logic for MlDsaBlock {
    #[hdl_gen]
    fn update(&mut self) {
        self.regs.clock.next = self.aclk.val();
        self.regs.resetn.next = self.aresetn.val();
        self.regs.awaddr.next = self.s_axi_awaddr.val();
        self.regs.awvalid.next = self.s_axi_awvalid.val();
        self.s_axi_awready.next = self.regs.awready.val();
        self.regs.wdata.next = self.s_axi_wdata.val();
        self.regs.wstrb.next = self.s_axi_wstrb.val();
        self.regs.wvalid.next = self.s_axi_wvalid.val();
        self.s_axi_wready.next = self.regs.wready.val();
        self.s_axi_bresp.next = self.regs.bresp.val();
        self.s_axi_bvalid.next = self.regs.bvalid.val();
        self.regs.bready.next = self.s_axi_bready.val();
        self.regs.araddr.next = self.s_axi_araddr.val();
        self.regs.arvalid.next = self.s_axi_arvalid.val();
        self.s_axi_arready.next = self.regs.arready.val();
        self.s_axi_rdata.next = self.regs.rdata.val();
        self.s_axi_rresp.next = self.regs.rresp.val();
        self.s_axi_rvalid.next = self.regs.rvalid.val();
        self.regs.rready.next = self.s_axi_rready.val();
        self.m_axis_tkeep.next = self.all_bytes.val();

        dff_setup!(
            self,
            aclk,
            loading,
            xi_count,
            set_reg,
            handed,
            top_done,
            top_error,
            cycle_count,
            verifying,
            sending,
            verdict_word,
            check,
            held_word,
            holding,
            trailer
        );
        self.core.clock.next = self.aclk.val();
        self.core.reset.next = !self.aresetn.val();
        // The core's port to an outside sponge (zeros, unused, unless the
        // top is built with one).
        SpongePort::link(&mut self.sponge_port, &mut self.core.sponge_port);
        self.core.start.next = false;
        self.core.abort_job.next = false;
        self.core.parameter_set.next = self.set_reg.q.val();
        self.core.xi_write.next = false;
        self.core.xi_index.next = self.xi_count.q.val();
        self.core.xi_word.next = self.s_axis_tdata.val();
        self.core.op_verify.next = false;
        self.core.op_sign.next = false;
        self.core.external_mu.next = self.regs.arg0.val().get_bit(8);
        self.core.msg_bytes.next = self.regs.arg1.val();
        self.core.s_data.next = self.s_axis_tdata.val();
        self.core.s_valid.next = self.s_axis_tvalid.val();
        self.core.s_last.next = self.s_axis_tlast.val();
        self.any_busy.next = self.loading.q.val()
            | self.core.busy.val()
            | self.verifying.q.val()
            | self.sending.q.val()
            | self.trailer.q.val();

        // ξ from the input stream, a word a clock; or the Verify or Sign
        // engine's.
        self.s_axis_tready.next = self.loading.q.val() | self.core.s_ready.val();
        self.take_word.next = self.loading.q.val() & self.s_axis_tvalid.val();
        if self.take_word.val() {
            self.core.xi_write.next = true;
            self.xi_count.d.next = self.xi_count.q.val() + 1;
            if self.xi_count.q.val() == 7 {
                self.loading.d.next = false;
                if self.s_axis_tlast.val() {
                    self.core.start.next = true;
                    self.handed.d.next = true;
                } else {
                    self.top_done.d.next = true;
                    self.top_error.d.next = true;
                }
            } else if self.s_axis_tlast.val() {
                self.loading.d.next = false;
                self.top_done.d.next = true;
                self.top_error.d.next = true;
            }
        }
        if self.regs.start.val() {
            if self.regs.op.val() == self.op_abort.val() {
                self.loading.d.next = false;
                self.core.abort_job.next = true;
                self.verifying.d.next = false;
                self.sending.d.next = false;
                self.trailer.d.next = false;
                self.handed.d.next = false;
                self.top_done.d.next = true;
                self.top_error.d.next = true;
            } else if !self.any_busy.val() {
                self.handed.d.next = false;
                self.top_done.d.next = false;
                self.top_error.d.next = false;
                self.check.d.next = self.check_seed.val();
                if (self.regs.op.val() == self.op_keygen.val()) & (self.regs.arg0.val() < 3) {
                    self.loading.d.next = true;
                    self.xi_count.d.next = 0.into();
                    self.set_reg.d.next = self.regs.arg0.val().get_bits::<2>(0);
                } else if self.regs.op.val() == self.op_sign.val() {
                    // The engine refuses set 3 and long messages itself.
                    self.core.start.next = true;
                    self.core.op_sign.next = true;
                    self.core.parameter_set.next = self.regs.arg0.val().get_bits::<2>(0);
                    self.handed.d.next = true;
                } else if self.regs.op.val() == self.op_verify.val() {
                    // The engine refuses set 3 and long messages itself.
                    self.core.start.next = true;
                    self.core.op_verify.next = true;
                    self.core.parameter_set.next = self.regs.arg0.val().get_bits::<2>(0);
                    self.verifying.d.next = true;
                } else {
                    self.top_done.d.next = true;
                    self.top_error.d.next = true;
                }
                if self.sponge_taken.val() {
                    self.loading.d.next = false;
                    self.core.start.next = false;
                    self.handed.d.next = false;
                    self.verifying.d.next = false;
                    self.top_done.d.next = true;
                    self.top_error.d.next = true;
                }
            }
        }

        // The verdict: an error ends the request; otherwise one word.
        if self.verifying.q.val() & self.core.done.val() {
            self.verifying.d.next = false;
            if self.core.error.val() {
                self.top_done.d.next = true;
                self.top_error.d.next = true;
            } else {
                self.sending.d.next = true;
                self.verdict_word.d.next = self.verdict_invalid.val();
                if self.core.verdict.val() {
                    self.verdict_word.d.next = self.verdict_valid.val();
                }
            }
        }
        if self.sending.q.val() & self.m_axis_tready.val() {
            self.sending.d.next = false;
            self.top_done.d.next = true;
        }

        // The output check: each accepted engine word is held for a clock,
        // then folded in; after the last one the check word follows.
        self.core_beat.next =
            self.core.m_valid.val() & self.m_axis_tready.val() & !self.trailer.q.val();
        self.holding.d.next = false;
        if self.holding.q.val() {
            self.check.d.next =
                ((self.check.q.val() << 1) | (self.check.q.val() >> 31)) ^ self.held_word.q.val();
        }
        if self.core_beat.val() {
            self.held_word.d.next = self.core.m_data.val();
            self.holding.d.next = true;
            if self.core.m_last.val() {
                self.trailer.d.next = true;
            }
        }
        if self.trailer.q.val() & !self.holding.q.val() & self.m_axis_tready.val() {
            self.trailer.d.next = false;
        }

        self.regs.busy.next = self.any_busy.val();
        self.regs.done.next = self.top_done.q.val()
            | (self.handed.q.val() & self.core.done.val() & !self.trailer.q.val());
        self.regs.error.next =
            self.top_error.q.val() | (self.handed.q.val() & self.core.error.val());
        self.regs.core_config.next = self.config_word.val();
        self.regs.cycles.next = self.cycle_count.q.val();
        self.regs.result.next = bit_cast::<32, 10>(self.core.attempts.val());
        self.busy.next = self.any_busy.val();

        // Clocks since the accepted start, until done.
        self.cycle_count.d.next = self.cycle_count.q.val();
        if self.regs.start.val() & !self.any_busy.val() {
            self.cycle_count.d.next = 1.into();
        } else if self.any_busy.val() {
            self.cycle_count.d.next = self.cycle_count.q.val() + 1;
        }
        if !self.aresetn.val() {
            self.loading.d.next = false;
            self.handed.d.next = false;
            self.top_done.d.next = false;
            self.top_error.d.next = false;
            self.cycle_count.d.next = 0.into();
            self.verifying.d.next = false;
            self.sending.d.next = false;
            self.trailer.d.next = false;
            self.holding.d.next = false;
        }

        self.m_axis_tdata.next = self.core.m_data.val();
        self.m_axis_tvalid.next = self.core.m_valid.val() & !self.trailer.q.val();
        self.m_axis_tlast.next = false;
        if self.sending.q.val() {
            self.m_axis_tdata.next = self.verdict_word.q.val();
            self.m_axis_tvalid.next = true;
            self.m_axis_tlast.next = true;
        }
        if self.trailer.q.val() {
            self.m_axis_tdata.next = self.check.q.val();
            self.m_axis_tvalid.next = !self.holding.q.val();
            self.m_axis_tlast.next = true;
        }
        self.core.m_ready.next = self.m_axis_tready.val() & !self.trailer.q.val();
    }
}
