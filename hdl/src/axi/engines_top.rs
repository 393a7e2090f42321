//! The engines' PL top: the blocks of [`super::MlDsaAccel`] and
//! [`super::SlhDsaAccel`] ([`MlDsaBlock`], [`SlhDsaBlock`]) on one shared
//! sponge (`SpongeEngine::with_kept_chain_and_squeeze_tail`, R = 2), behind
//! one AXI4-Lite slave and one stream pair, for one AXI DMA
//! (`ps_pl_contract::regmap::ENGINES_BASE`).
//!
//! - **Bus.** The window's top address bit selects the engine: the ML-DSA
//!   control block below `ENGINE_BLOCK_BYTES`, the SLH-DSA block above. A
//!   write goes to a block with its address and data together (AW and W
//!   ready only when both are valid, which AXI allows), and a new write or
//!   read waits for the previous one's response, so the two blocks never
//!   answer in the same clock.
//! - **Streams.** The input goes to the engine that is busy (only it can
//!   take a word); the output comes from the engine that has a word.
//! - **Sponge.** The SLH-DSA engine owns it while it is busy, and after
//!   that while the sponge still is; the ML-DSA engine otherwise. The
//!   other engine sees an idle port. A start of either engine while the
//!   other holds the sponge is refused with `STATUS_DONE | STATUS_ERROR`,
//!   so one operation runs at a time.
//! - **SHA-2.** For the SLH-DSA-SHA2 sets (`regmap::slhdsa::SHA2_SETS`,
//!   `CONFIG_SHA2`) the SLH-DSA block's requests go to a
//!   [`Sha2TweakEngine`] (SHA-256, and SHA-512 for the H and T_l of
//!   categories 3 and 5) instead of the sponge (its
//!   `hash_sha2`, set at the accepted start); the sponge idles, and the
//!   ML-DSA engine is still refused while the SLH-DSA engine is busy.
//!
//! Each engine's registers, operations, clock counts and streams are those
//! of its own top on an outside sponge of the shared configuration.

use super::ctrl::ADDR_BITS;
use super::mldsa_top::MlDsaBlock;
use super::slhdsa_top::SlhDsaBlock;
use super::top::pl_top;
use crate::keccak::SpongeEngine;
use crate::sha2::Sha2TweakEngine;
use crate::slhdsa::wots_leaf::SPONGE_ROUNDS_PER_CLOCK;
use ps_pl_contract::regmap::{CTRL_WINDOW_BYTES, ENGINE_BLOCK_BYTES};
use rust_hdl::prelude::*;

// Bit 15 of the window selects the engine (the literal in `update`).
const _: () = assert!(ENGINE_BLOCK_BYTES == 1 << 15 && CTRL_WINDOW_BYTES == 1 << ADDR_BITS);
// The shared sponge runs the SLH-DSA jobs' rounds per clock.
const _: () = assert!(SPONGE_ROUNDS_PER_CLOCK == 2);

pl_top! {
    /// Both engines on one shared sponge, behind one AXI4-Lite slave and
    /// one stream pair (see the module docs).
    EnginesAccel {
        mldsa: MlDsaBlock = MlDsaBlock::with_outside_sponge(),
        slhdsa: SlhDsaBlock = SlhDsaBlock::on_sponge_and_sha2(),
        sponge: SpongeEngine<2> = SpongeEngine::with_kept_chain_and_squeeze_tail(),
        /// The SLH-DSA-SHA2 sets' hash engine, SHA-256 and SHA-512 (the
        /// SLH-DSA block's while it runs a SHA2 set).
        sha2: Sha2TweakEngine = Sha2TweakEngine::default(),
        slh_sha2: Signal<Local, Bit> = Default::default(),
        write_pending: DFF<Bit> = Default::default(),
        read_pending: DFF<Bit> = Default::default(),
        slh_held: DFF<Bit> = Default::default(),
        slh_owns: Signal<Local, Bit> = Default::default(),
        write_to_slh: Signal<Local, Bit> = Default::default(),
        read_to_slh: Signal<Local, Bit> = Default::default(),
        write_offered: Signal<Local, Bit> = Default::default(),
        read_offered: Signal<Local, Bit> = Default::default(),
        block_mask: Constant<Bits<16>> = Constant::new(((ENGINE_BLOCK_BYTES - 1) as u64).into()),
        block_awaddr: Signal<Local, Bits<16>> = Default::default(),
        block_araddr: Signal<Local, Bits<16>> = Default::default(),
    }
}

impl Logic for EnginesAccel {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, aclk, write_pending, read_pending, slh_held);
        self.mldsa.aclk.next = self.aclk.val();
        self.slhdsa.aclk.next = self.aclk.val();
        self.mldsa.aresetn.next = self.aresetn.val();
        self.slhdsa.aresetn.next = self.aresetn.val();
        self.busy.next = self.mldsa.busy.val() | self.slhdsa.busy.val();

        // Writes: address and data together, to the block of address bit
        // 15, one at a time.
        self.write_to_slh.next = self.s_axi_awaddr.val().get_bit(15);
        self.block_awaddr.next = self.s_axi_awaddr.val() & self.block_mask.val();
        self.write_offered.next =
            self.s_axi_awvalid.val() & self.s_axi_wvalid.val() & !self.write_pending.q.val();
        self.mldsa.s_axi_awaddr.next = self.block_awaddr.val();
        self.slhdsa.s_axi_awaddr.next = self.block_awaddr.val();
        self.mldsa.s_axi_wdata.next = self.s_axi_wdata.val();
        self.slhdsa.s_axi_wdata.next = self.s_axi_wdata.val();
        self.mldsa.s_axi_wstrb.next = self.s_axi_wstrb.val();
        self.slhdsa.s_axi_wstrb.next = self.s_axi_wstrb.val();
        self.mldsa.s_axi_awvalid.next = self.write_offered.val() & !self.write_to_slh.val();
        self.mldsa.s_axi_wvalid.next = self.write_offered.val() & !self.write_to_slh.val();
        self.slhdsa.s_axi_awvalid.next = self.write_offered.val() & self.write_to_slh.val();
        self.slhdsa.s_axi_wvalid.next = self.write_offered.val() & self.write_to_slh.val();
        // Both of the block's holding registers are free when no response
        // is pending, so it takes AW and W in the same clock.
        self.s_axi_awready.next = self.write_offered.val()
            & ((self.mldsa.s_axi_awready.val() & !self.write_to_slh.val())
                | (self.slhdsa.s_axi_awready.val() & self.write_to_slh.val()));
        self.s_axi_wready.next = self.write_offered.val()
            & ((self.mldsa.s_axi_wready.val() & !self.write_to_slh.val())
                | (self.slhdsa.s_axi_wready.val() & self.write_to_slh.val()));
        self.mldsa.s_axi_bready.next = self.s_axi_bready.val();
        self.slhdsa.s_axi_bready.next = self.s_axi_bready.val();
        self.s_axi_bvalid.next = self.mldsa.s_axi_bvalid.val() | self.slhdsa.s_axi_bvalid.val();
        self.s_axi_bresp.next = self.mldsa.s_axi_bresp.val();
        if self.slhdsa.s_axi_bvalid.val() {
            self.s_axi_bresp.next = self.slhdsa.s_axi_bresp.val();
        }
        if self.s_axi_awvalid.val() & self.s_axi_awready.val() {
            self.write_pending.d.next = true;
        } else if self.s_axi_bvalid.val() & self.s_axi_bready.val() {
            self.write_pending.d.next = false;
        }

        // Reads: to the block of address bit 15, one at a time.
        self.read_to_slh.next = self.s_axi_araddr.val().get_bit(15);
        self.block_araddr.next = self.s_axi_araddr.val() & self.block_mask.val();
        self.read_offered.next = self.s_axi_arvalid.val() & !self.read_pending.q.val();
        self.mldsa.s_axi_araddr.next = self.block_araddr.val();
        self.slhdsa.s_axi_araddr.next = self.block_araddr.val();
        self.mldsa.s_axi_arvalid.next = self.read_offered.val() & !self.read_to_slh.val();
        self.slhdsa.s_axi_arvalid.next = self.read_offered.val() & self.read_to_slh.val();
        self.s_axi_arready.next = self.read_offered.val()
            & ((self.mldsa.s_axi_arready.val() & !self.read_to_slh.val())
                | (self.slhdsa.s_axi_arready.val() & self.read_to_slh.val()));
        self.mldsa.s_axi_rready.next = self.s_axi_rready.val();
        self.slhdsa.s_axi_rready.next = self.s_axi_rready.val();
        self.s_axi_rvalid.next = self.mldsa.s_axi_rvalid.val() | self.slhdsa.s_axi_rvalid.val();
        self.s_axi_rdata.next = self.mldsa.s_axi_rdata.val();
        self.s_axi_rresp.next = self.mldsa.s_axi_rresp.val();
        if self.slhdsa.s_axi_rvalid.val() {
            self.s_axi_rdata.next = self.slhdsa.s_axi_rdata.val();
            self.s_axi_rresp.next = self.slhdsa.s_axi_rresp.val();
        }
        if self.s_axi_arvalid.val() & self.s_axi_arready.val() {
            self.read_pending.d.next = true;
        } else if self.s_axi_rvalid.val() & self.s_axi_rready.val() {
            self.read_pending.d.next = false;
        }

        // Input stream: to the busy engine.
        self.mldsa.s_axis_tdata.next = self.s_axis_tdata.val();
        self.slhdsa.s_axis_tdata.next = self.s_axis_tdata.val();
        self.mldsa.s_axis_tlast.next = self.s_axis_tlast.val();
        self.slhdsa.s_axis_tlast.next = self.s_axis_tlast.val();
        self.mldsa.s_axis_tkeep.next = self.s_axis_tkeep.val();
        self.slhdsa.s_axis_tkeep.next = self.s_axis_tkeep.val();
        self.mldsa.s_axis_tvalid.next = self.s_axis_tvalid.val() & self.mldsa.busy.val();
        self.slhdsa.s_axis_tvalid.next = self.s_axis_tvalid.val() & self.slhdsa.busy.val();
        self.s_axis_tready.next = (self.mldsa.s_axis_tready.val() & self.mldsa.busy.val())
            | (self.slhdsa.s_axis_tready.val() & self.slhdsa.busy.val());

        // Output stream: from the engine that has a word.
        self.mldsa.m_axis_tready.next = self.m_axis_tready.val();
        self.slhdsa.m_axis_tready.next = self.m_axis_tready.val();
        self.m_axis_tkeep.next = self.mldsa.m_axis_tkeep.val();
        self.m_axis_tvalid.next = self.mldsa.m_axis_tvalid.val() | self.slhdsa.m_axis_tvalid.val();
        self.m_axis_tdata.next = self.mldsa.m_axis_tdata.val();
        self.m_axis_tlast.next = self.mldsa.m_axis_tlast.val();
        if self.slhdsa.m_axis_tvalid.val() {
            self.m_axis_tdata.next = self.slhdsa.m_axis_tdata.val();
            self.m_axis_tlast.next = self.slhdsa.m_axis_tlast.val();
        }

        // The sponge: the SLH-DSA engine's while it is busy and until the
        // sponge is idle after it; the ML-DSA engine's otherwise.
        self.slh_owns.next = self.slhdsa.busy.val() | self.slh_held.q.val();
        self.slh_held.d.next = self.slh_owns.val() & self.sponge.busy.val();
        self.slhdsa.sponge_taken.next =
            !self.slh_owns.val() & (self.mldsa.busy.val() | self.sponge.busy.val());
        self.mldsa.sponge_taken.next = self.slh_owns.val();
        self.sponge.clock.next = self.aclk.val();
        self.sponge.reset.next = !self.aresetn.val() | self.mldsa.sponge_port.reset.val();
        self.sponge.start.next = self.mldsa.sponge_port.start.val();
        self.sponge.op.next = self.mldsa.sponge_port.op.val();
        self.sponge.arg0.next = self.mldsa.sponge_port.arg0.val();
        self.sponge.arg1.next = self.mldsa.sponge_port.arg1.val();
        self.sponge.arg2.next = self.mldsa.sponge_port.arg2.val();
        self.sponge.in_data.next = self.mldsa.sponge_port.in_data.val();
        self.sponge.in_valid.next = self.mldsa.sponge_port.in_valid.val();
        self.sponge.in_last.next = self.mldsa.sponge_port.in_last.val();
        self.sponge.out_ready.next = self.mldsa.sponge_port.out_ready.val();
        // The SLH-DSA block's requests: to the SHA-2 engine for a SHA2
        // set, else to the shared sponge, which it owns while busy.
        self.slh_sha2.next = self.slhdsa.hash_sha2.val();
        self.sha2.clock.next = self.aclk.val();
        self.sha2.abort_job.next = false;
        self.sha2.reset.next = !self.aresetn.val() | self.slhdsa.sponge_port.reset.val();
        self.sha2.start.next = self.slhdsa.sponge_port.start.val() & self.slh_sha2.val();
        self.sha2.op.next = self.slhdsa.sponge_port.op.val();
        self.sha2.arg0.next = self.slhdsa.sponge_port.arg0.val();
        self.sha2.arg1.next = self.slhdsa.sponge_port.arg1.val();
        self.sha2.arg2.next = self.slhdsa.sponge_port.arg2.val();
        self.sha2.in_data.next = self.slhdsa.sponge_port.in_data.val();
        self.sha2.in_valid.next = self.slhdsa.sponge_port.in_valid.val() & self.slh_sha2.val();
        self.sha2.in_last.next = self.slhdsa.sponge_port.in_last.val();
        self.sha2.out_ready.next = self.slhdsa.sponge_port.out_ready.val() & self.slh_sha2.val();
        if self.slh_owns.val() & !self.slh_sha2.val() {
            self.sponge.reset.next = !self.aresetn.val() | self.slhdsa.sponge_port.reset.val();
            self.sponge.start.next = self.slhdsa.sponge_port.start.val();
            self.sponge.op.next = self.slhdsa.sponge_port.op.val();
            self.sponge.arg0.next = self.slhdsa.sponge_port.arg0.val();
            self.sponge.arg1.next = self.slhdsa.sponge_port.arg1.val();
            self.sponge.arg2.next = self.slhdsa.sponge_port.arg2.val();
            self.sponge.in_data.next = self.slhdsa.sponge_port.in_data.val();
            self.sponge.in_valid.next = self.slhdsa.sponge_port.in_valid.val();
            self.sponge.in_last.next = self.slhdsa.sponge_port.in_last.val();
            self.sponge.out_ready.next = self.slhdsa.sponge_port.out_ready.val();
        }
        // Each engine sees the sponge's answers while it owns it, an idle
        // engine otherwise.
        self.mldsa.sponge_port.out_data.next = self.sponge.out_data.val();
        self.slhdsa.sponge_port.out_data.next = self.sponge.out_data.val();
        self.mldsa.sponge_port.busy.next = self.sponge.busy.val() & !self.slh_owns.val();
        self.mldsa.sponge_port.done.next = self.sponge.done.val() & !self.slh_owns.val();
        self.mldsa.sponge_port.error.next = self.sponge.error.val() & !self.slh_owns.val();
        self.mldsa.sponge_port.in_ready.next = self.sponge.in_ready.val() & !self.slh_owns.val();
        self.mldsa.sponge_port.out_valid.next = self.sponge.out_valid.val() & !self.slh_owns.val();
        self.mldsa.sponge_port.out_last.next = self.sponge.out_last.val() & !self.slh_owns.val();
        self.slhdsa.sponge_port.busy.next = self.sponge.busy.val() & self.slh_owns.val();
        self.slhdsa.sponge_port.done.next = self.sponge.done.val() & self.slh_owns.val();
        self.slhdsa.sponge_port.error.next = self.sponge.error.val() & self.slh_owns.val();
        self.slhdsa.sponge_port.in_ready.next = self.sponge.in_ready.val() & self.slh_owns.val();
        self.slhdsa.sponge_port.out_valid.next = self.sponge.out_valid.val() & self.slh_owns.val();
        self.slhdsa.sponge_port.out_last.next = self.sponge.out_last.val() & self.slh_owns.val();
        if self.slh_sha2.val() {
            self.slhdsa.sponge_port.out_data.next = self.sha2.out_data.val();
            self.slhdsa.sponge_port.busy.next = self.sha2.busy.val();
            self.slhdsa.sponge_port.done.next = self.sha2.done.val();
            self.slhdsa.sponge_port.error.next = self.sha2.error.val();
            self.slhdsa.sponge_port.in_ready.next = self.sha2.in_ready.val();
            self.slhdsa.sponge_port.out_valid.next = self.sha2.out_valid.val();
            self.slhdsa.sponge_port.out_last.next = self.sha2.out_last.val();
        }

        if !self.aresetn.val() {
            self.write_pending.d.next = false;
            self.read_pending.d.next = false;
            self.slh_held.d.next = false;
        }
    }
}
