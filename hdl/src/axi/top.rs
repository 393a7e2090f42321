//! The two PL top levels: each core behind the [`CtrlRegs`] AXI4-Lite
//! block, with AXI4-Stream ports for an AXI DMA in simple mode.
//!
//! Port names follow the Xilinx conventions (`aclk`, `aresetn`, `s_axi_*`,
//! `s_axis_*`, `m_axis_*`), so a Vivado module reference infers one aximm
//! slave, two axis interfaces, the clock and the reset. `busy` drives a LED.

use super::ctrl::{CtrlRegs, ADDR_BITS};
use crate::keccak::SpongeEngine;
use crate::ntt::core::NttCoreB4;
use ps_pl_contract::regmap;
use rust_hdl::prelude::*;

/// Stamps a PL top: the ports every top has (Xilinx names: `aclk`,
/// `aresetn`, the AXI4-Lite slave `s_axi_*`, the AXI4-Stream slave and
/// master `s_axis_*` / `m_axis_*`, the `busy` LED), in this order, then
/// the top's own parts (private unless given a visibility), and a
/// `Default` that fills the ports and builds the parts from the given
/// expressions.
macro_rules! pl_top {
    (
        $(#[$meta:meta])*
        $name:ident {
            $($(#[$part_meta:meta])* $part_vis:vis $part:ident : $ty:ty = $init:expr,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// AXI clock (`FCLK_CLK0`); clocks the bus, the streams and the core.
            pub aclk: Signal<In, Clock>,
            /// Active-low synchronous reset of the bus interface and the core
            /// (peripheral reset).
            pub aresetn: Signal<In, Bit>,
            /// AXI4-Lite write address (byte offset in the control window).
            pub s_axi_awaddr: Signal<In, Bits<ADDR_BITS>>,
            /// AXI4-Lite write address valid.
            pub s_axi_awvalid: Signal<In, Bit>,
            /// AXI4-Lite write address ready.
            pub s_axi_awready: Signal<Out, Bit>,
            /// AXI4-Lite write data.
            pub s_axi_wdata: Signal<In, Bits<32>>,
            /// AXI4-Lite write strobes.
            pub s_axi_wstrb: Signal<In, Bits<4>>,
            /// AXI4-Lite write data valid.
            pub s_axi_wvalid: Signal<In, Bit>,
            /// AXI4-Lite write data ready.
            pub s_axi_wready: Signal<Out, Bit>,
            /// AXI4-Lite write response.
            pub s_axi_bresp: Signal<Out, Bits<2>>,
            /// AXI4-Lite write response valid.
            pub s_axi_bvalid: Signal<Out, Bit>,
            /// AXI4-Lite write response ready.
            pub s_axi_bready: Signal<In, Bit>,
            /// AXI4-Lite read address.
            pub s_axi_araddr: Signal<In, Bits<ADDR_BITS>>,
            /// AXI4-Lite read address valid.
            pub s_axi_arvalid: Signal<In, Bit>,
            /// AXI4-Lite read address ready.
            pub s_axi_arready: Signal<Out, Bit>,
            /// AXI4-Lite read data.
            pub s_axi_rdata: Signal<Out, Bits<32>>,
            /// AXI4-Lite read response.
            pub s_axi_rresp: Signal<Out, Bits<2>>,
            /// AXI4-Lite read data valid.
            pub s_axi_rvalid: Signal<Out, Bit>,
            /// AXI4-Lite read data ready.
            pub s_axi_rready: Signal<In, Bit>,
            /// Input stream data (from the DMA's MM2S channel).
            pub s_axis_tdata: Signal<In, Bits<32>>,
            /// Input stream valid.
            pub s_axis_tvalid: Signal<In, Bit>,
            /// Input stream last.
            pub s_axis_tlast: Signal<In, Bit>,
            /// Input stream byte enables (the AXI DMA's `M_AXIS_MM2S` has TKEEP);
            /// the cores take whole 32-bit words, so it is ignored.
            pub s_axis_tkeep: Signal<In, Bits<4>>,
            /// Input stream ready.
            pub s_axis_tready: Signal<Out, Bit>,
            /// Output stream data (to the DMA's S2MM channel).
            pub m_axis_tdata: Signal<Out, Bits<32>>,
            /// Output stream byte enables: always all four bytes.
            pub m_axis_tkeep: Signal<Out, Bits<4>>,
            /// Output stream valid.
            pub m_axis_tvalid: Signal<Out, Bit>,
            /// Output stream last.
            pub m_axis_tlast: Signal<Out, Bit>,
            /// Output stream ready.
            pub m_axis_tready: Signal<In, Bit>,
            /// The core is busy (drives a ZedBoard LED).
            pub busy: Signal<Out, Bit>,
            $($(#[$part_meta])* $part_vis $part: $ty,)*
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    aclk: Default::default(),
                    aresetn: Default::default(),
                    s_axi_awaddr: Default::default(),
                    s_axi_awvalid: Default::default(),
                    s_axi_awready: Default::default(),
                    s_axi_wdata: Default::default(),
                    s_axi_wstrb: Default::default(),
                    s_axi_wvalid: Default::default(),
                    s_axi_wready: Default::default(),
                    s_axi_bresp: Default::default(),
                    s_axi_bvalid: Default::default(),
                    s_axi_bready: Default::default(),
                    s_axi_araddr: Default::default(),
                    s_axi_arvalid: Default::default(),
                    s_axi_arready: Default::default(),
                    s_axi_rdata: Default::default(),
                    s_axi_rresp: Default::default(),
                    s_axi_rvalid: Default::default(),
                    s_axi_rready: Default::default(),
                    s_axis_tdata: Default::default(),
                    s_axis_tvalid: Default::default(),
                    s_axis_tlast: Default::default(),
                    s_axis_tkeep: Default::default(),
                    s_axis_tready: Default::default(),
                    m_axis_tdata: Default::default(),
                    m_axis_tkeep: Default::default(),
                    m_axis_tvalid: Default::default(),
                    m_axis_tlast: Default::default(),
                    m_axis_tready: Default::default(),
                    busy: Default::default(),
                    $($part: $init,)*
                }
            }
        }
    };
}

pub(crate) use pl_top;

/// Stamps a PL top of its own around an engine's block (a [`pl_top!`]
/// with a `sponge_port` to an outside sponge and a `sponge_taken` input):
/// every port passed through, `sponge_taken` low, and the outside
/// sponge's answers tied to zero (a block built with its own sponge) or,
/// with `hashing on`, the port wired to an engine that takes the sponge's
/// requests (`crate::sha2::Sha2TweakEngine`). So the exported top has
/// only the ports every top has, and the block can sit in a top that
/// gives it a shared sponge (`super::EnginesAccel`).
macro_rules! pl_top_around {
    (
        $(#[$meta:meta])*
        $name:ident around $inner:ty = $init:expr
        $(, hashing on $hash:ident: $hash_ty:ty = $hash_init:expr)?
    ) => {
        pl_top! {
            $(#[$meta])*
            $name {
                inner: $inner = $init,
                $($hash: $hash_ty = $hash_init,)?
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                self.inner.aclk.next = self.aclk.val();
                self.inner.aresetn.next = self.aresetn.val();
                self.inner.s_axi_awaddr.next = self.s_axi_awaddr.val();
                self.inner.s_axi_awvalid.next = self.s_axi_awvalid.val();
                self.inner.s_axi_wdata.next = self.s_axi_wdata.val();
                self.inner.s_axi_wstrb.next = self.s_axi_wstrb.val();
                self.inner.s_axi_wvalid.next = self.s_axi_wvalid.val();
                self.inner.s_axi_bready.next = self.s_axi_bready.val();
                self.inner.s_axi_araddr.next = self.s_axi_araddr.val();
                self.inner.s_axi_arvalid.next = self.s_axi_arvalid.val();
                self.inner.s_axi_rready.next = self.s_axi_rready.val();
                self.inner.s_axis_tdata.next = self.s_axis_tdata.val();
                self.inner.s_axis_tvalid.next = self.s_axis_tvalid.val();
                self.inner.s_axis_tlast.next = self.s_axis_tlast.val();
                self.inner.s_axis_tkeep.next = self.s_axis_tkeep.val();
                self.inner.m_axis_tready.next = self.m_axis_tready.val();
                self.s_axi_awready.next = self.inner.s_axi_awready.val();
                self.s_axi_wready.next = self.inner.s_axi_wready.val();
                self.s_axi_bresp.next = self.inner.s_axi_bresp.val();
                self.s_axi_bvalid.next = self.inner.s_axi_bvalid.val();
                self.s_axi_arready.next = self.inner.s_axi_arready.val();
                self.s_axi_rdata.next = self.inner.s_axi_rdata.val();
                self.s_axi_rresp.next = self.inner.s_axi_rresp.val();
                self.s_axi_rvalid.next = self.inner.s_axi_rvalid.val();
                self.s_axis_tready.next = self.inner.s_axis_tready.val();
                self.m_axis_tdata.next = self.inner.m_axis_tdata.val();
                self.m_axis_tkeep.next = self.inner.m_axis_tkeep.val();
                self.m_axis_tvalid.next = self.inner.m_axis_tvalid.val();
                self.m_axis_tlast.next = self.inner.m_axis_tlast.val();
                self.busy.next = self.inner.busy.val();
                self.inner.sponge_taken.next = false;
                self.inner.sponge_port.busy.next = false;
                self.inner.sponge_port.done.next = false;
                self.inner.sponge_port.error.next = false;
                self.inner.sponge_port.in_ready.next = false;
                self.inner.sponge_port.out_data.next = 0.into();
                self.inner.sponge_port.out_valid.next = false;
                self.inner.sponge_port.out_last.next = false;
                // The hash engine's answers (later assignments win).
                $(
                    self.$hash.clock.next = self.aclk.val();
                    self.$hash.abort_job.next = false;
                    self.$hash.reset.next = self.inner.sponge_port.reset.val();
                    self.$hash.start.next = self.inner.sponge_port.start.val();
                    self.$hash.op.next = self.inner.sponge_port.op.val();
                    self.$hash.arg0.next = self.inner.sponge_port.arg0.val();
                    self.$hash.arg1.next = self.inner.sponge_port.arg1.val();
                    self.$hash.arg2.next = self.inner.sponge_port.arg2.val();
                    self.$hash.in_data.next = self.inner.sponge_port.in_data.val();
                    self.$hash.in_valid.next = self.inner.sponge_port.in_valid.val();
                    self.$hash.in_last.next = self.inner.sponge_port.in_last.val();
                    self.$hash.out_ready.next = self.inner.sponge_port.out_ready.val();
                    self.inner.sponge_port.busy.next = self.$hash.busy.val();
                    self.inner.sponge_port.done.next = self.$hash.done.val();
                    self.inner.sponge_port.error.next = self.$hash.error.val();
                    self.inner.sponge_port.in_ready.next = self.$hash.in_ready.val();
                    self.inner.sponge_port.out_data.next = self.$hash.out_data.val();
                    self.inner.sponge_port.out_valid.next = self.$hash.out_valid.val();
                    self.inner.sponge_port.out_last.next = self.$hash.out_last.val();
                )?
            }
        }
    };
}

pub(crate) use pl_top_around;

pl_top! {
    /// The NTT core (B = 4) behind the AXI4-Lite control block. `CYCLES` is
    /// the core's own count of busy cycles (`hdl::ntt::core::transform_cycles`
    /// and friends).
    NttAccel {
        regs: CtrlRegs = CtrlRegs::new(regmap::ntt::ID),
        core: NttCoreB4 = NttCoreB4::new(),
        all_bytes: Constant<Bits<4>> = Constant::new(0xF.into()),
    }
}

impl Logic for NttAccel {
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

        self.core.clock.next = self.aclk.val();
        self.core.reset.next = !self.aresetn.val();
        self.core.start.next = self.regs.start.val();
        self.core.op.next = self.regs.op.val();
        self.core.arg0.next = self.regs.arg0.val();
        self.core.arg1.next = self.regs.arg1.val();
        self.core.arg2.next = self.regs.arg2.val();
        self.regs.busy.next = self.core.busy.val();
        self.regs.done.next = self.core.done.val();
        self.regs.error.next = self.core.error.val();
        // This core has no row port (its ops are refused): tie it off.
        for k in 0..8 {
            self.core.row_in[k].next = 0.into();
        }
        self.core.row_in_valid.next = false;
        self.regs.core_config.next = self.core.config_word.val();
        self.regs.cycles.next = self.core.cycles.val();
        self.regs.result.next = 0.into();
        self.busy.next = self.core.busy.val();

        self.core.s_tdata.next = self.s_axis_tdata.val();
        self.core.s_tvalid.next = self.s_axis_tvalid.val();
        self.core.s_tlast.next = self.s_axis_tlast.val();
        self.s_axis_tready.next = self.core.s_tready.val();
        self.m_axis_tdata.next = self.core.m_tdata.val();
        self.m_axis_tvalid.next = self.core.m_tvalid.val();
        self.m_axis_tlast.next = self.core.m_tlast.val();
        self.core.m_tready.next = self.m_axis_tready.val();
    }
}

pl_top! {
    /// The sponge engine (1 round per clock) behind the AXI4-Lite control
    /// block. `CYCLES` is counted here: clocks from the start edge to the edge
    /// after which `done` is high (1 for a refused request), the timing of
    /// `hdl::keccak::harness::Response::cycles`. An `OP_ABORT` while busy
    /// leaves the aborted operation's count, the abort clock included.
    KeccakAccel {
        regs: CtrlRegs = CtrlRegs::new(regmap::keccak::ID),
        core: SpongeEngine<1> = SpongeEngine::<1>::default(),
        all_bytes: Constant<Bits<4>> = Constant::new(0xF.into()),
        cycle_count: DFF<Bits<32>> = Default::default(),
    }
}

impl Logic for KeccakAccel {
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

        self.core.clock.next = self.aclk.val();
        self.core.reset.next = !self.aresetn.val();
        self.core.start.next = self.regs.start.val();
        self.core.op.next = self.regs.op.val();
        self.core.arg0.next = self.regs.arg0.val();
        self.core.arg1.next = self.regs.arg1.val();
        self.core.arg2.next = self.regs.arg2.val();
        self.regs.busy.next = self.core.busy.val();
        self.regs.done.next = self.core.done.val();
        self.regs.error.next = self.core.error.val();
        self.regs.core_config.next = self.core.core_config.val();
        self.regs.cycles.next = self.cycle_count.q.val();
        self.regs.result.next = 0.into();
        self.busy.next = self.core.busy.val();

        // Clocks since the accepted start, until done.
        self.cycle_count.clock.next = self.aclk.val();
        self.cycle_count.d.next = self.cycle_count.q.val();
        if self.regs.start.val() & !self.core.busy.val() {
            self.cycle_count.d.next = 1.into();
        } else if self.core.busy.val() {
            self.cycle_count.d.next = self.cycle_count.q.val() + 1;
        }
        if !self.aresetn.val() {
            self.cycle_count.d.next = 0.into();
        }

        self.core.in_data.next = self.s_axis_tdata.val();
        self.core.in_valid.next = self.s_axis_tvalid.val();
        self.core.in_last.next = self.s_axis_tlast.val();
        self.s_axis_tready.next = self.core.in_ready.val();
        self.m_axis_tdata.next = self.core.out_data.val();
        self.m_axis_tvalid.next = self.core.out_valid.val();
        self.m_axis_tlast.next = self.core.out_last.val();
        self.core.out_ready.next = self.m_axis_tready.val();
    }
}
