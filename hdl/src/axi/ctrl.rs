//! The AXI4-Lite slave register block of `ps_pl_contract::regmap::ctrl`, shared by
//! both accelerator tops.
//!
//! - Writes: AW and W are taken independently (either order, or together)
//!   into holding registers; once both are held the write is performed and
//!   `B` is answered (OKAY) on the next clock. No new AW/W is taken while a
//!   response is pending: one outstanding write.
//! - Reads: AR is taken when no read response is pending; `R` (OKAY) carries
//!   the register value sampled at the AR handshake. Unmapped offsets read 0
//!   and ignore writes.
//! - Only the low [`ADDR_BITS`] address bits are decoded: the block aliases
//!   nothing inside its `CTRL_WINDOW_BYTES` window.
//! - `WSTRB` is honoured byte by byte on `ARG0..2` and `COMMAND`.
//! - `COMMAND` with `COMMAND_START` set gives a one-clock `start` pulse with
//!   `op` = bits 7..0, whether or not the core is busy: the core decides
//!   (both cores take their `OP_ABORT` while busy and ignore other ops then).
//! - `aresetn` low clears the handshake state, the pulse and the arguments
//!   (the tops reset their cores with it too).

use ps_pl_contract::regmap::{ctrl, CTRL_WINDOW_BYTES};
use rust_hdl::prelude::*;

/// Address bits decoded: log2 of the control window (0x1_0000 -> 16).
pub const ADDR_BITS: usize = CTRL_WINDOW_BYTES.trailing_zeros() as usize;
const _: () = assert!(1 << ADDR_BITS == CTRL_WINDOW_BYTES);

/// AXI4-Lite register block for one core; see the module docs.
#[derive(LogicBlock)]
pub struct CtrlRegs {
    /// Bus and core clock.
    pub clock: Signal<In, Clock>,
    /// Active-low synchronous reset of the bus state.
    pub resetn: Signal<In, Bit>,
    /// Write address.
    pub awaddr: Signal<In, Bits<ADDR_BITS>>,
    /// Write address valid.
    pub awvalid: Signal<In, Bit>,
    /// Write address ready.
    pub awready: Signal<Out, Bit>,
    /// Write data.
    pub wdata: Signal<In, Bits<32>>,
    /// Write byte strobes.
    pub wstrb: Signal<In, Bits<4>>,
    /// Write data valid.
    pub wvalid: Signal<In, Bit>,
    /// Write data ready.
    pub wready: Signal<Out, Bit>,
    /// Write response (always OKAY).
    pub bresp: Signal<Out, Bits<2>>,
    /// Write response valid.
    pub bvalid: Signal<Out, Bit>,
    /// Write response ready.
    pub bready: Signal<In, Bit>,
    /// Read address.
    pub araddr: Signal<In, Bits<ADDR_BITS>>,
    /// Read address valid.
    pub arvalid: Signal<In, Bit>,
    /// Read address ready.
    pub arready: Signal<Out, Bit>,
    /// Read data.
    pub rdata: Signal<Out, Bits<32>>,
    /// Read response (always OKAY).
    pub rresp: Signal<Out, Bits<2>>,
    /// Read data valid.
    pub rvalid: Signal<Out, Bit>,
    /// Read data ready.
    pub rready: Signal<In, Bit>,
    /// One-clock start pulse to the core.
    pub start: Signal<Out, Bit>,
    /// Operation code (valid with `start`).
    pub op: Signal<Out, Bits<8>>,
    /// `ARG0`.
    pub arg0: Signal<Out, Bits<32>>,
    /// `ARG1`.
    pub arg1: Signal<Out, Bits<32>>,
    /// `ARG2`.
    pub arg2: Signal<Out, Bits<32>>,
    /// Core busy.
    pub busy: Signal<In, Bit>,
    /// Core done.
    pub done: Signal<In, Bit>,
    /// Core error.
    pub error: Signal<In, Bit>,
    /// Core `CONFIG` word.
    pub core_config: Signal<In, Bits<32>>,
    /// Cycles of the last operation.
    pub cycles: Signal<In, Bits<32>>,
    /// `RESULT` (a per-core result of the last operation).
    pub result: Signal<In, Bits<32>>,
    aw_held: DFF<Bit>,
    aw_addr: DFF<Bits<ADDR_BITS>>,
    w_held: DFF<Bit>,
    w_data: DFF<Bits<32>>,
    w_strb: DFF<Bits<4>>,
    b_pending: DFF<Bit>,
    r_pending: DFF<Bit>,
    r_data: DFF<Bits<32>>,
    start_r: DFF<Bit>,
    op_r: DFF<Bits<8>>,
    args: [DFF<Bits<32>>; 3],
    strobe_mask: Signal<Local, Bits<32>>,
    read_word: Signal<Local, Bits<32>>,
    status_busy: Signal<Local, Bits<32>>,
    status_done: Signal<Local, Bits<32>>,
    status_error: Signal<Local, Bits<32>>,
    merged: [Signal<Local, Bits<32>>; 3],
    command_word: Signal<Local, Bits<32>>,
    masks: [Constant<Bits<32>>; 16],
    id_value: Constant<Bits<32>>,
    version_value: Constant<Bits<32>>,
    bit_busy: Constant<Bits<32>>,
    bit_done: Constant<Bits<32>>,
    bit_error: Constant<Bits<32>>,
    bit_start: Constant<Bits<32>>,
    zero: Constant<Bits<32>>,
    resp_okay: Constant<Bits<2>>,
    off_id: Constant<Bits<ADDR_BITS>>,
    off_version: Constant<Bits<ADDR_BITS>>,
    off_config: Constant<Bits<ADDR_BITS>>,
    off_command: Constant<Bits<ADDR_BITS>>,
    off_status: Constant<Bits<ADDR_BITS>>,
    off_args: [Constant<Bits<ADDR_BITS>>; 3],
    off_cycles: Constant<Bits<ADDR_BITS>>,
    off_result: Constant<Bits<ADDR_BITS>>,
}

fn konst<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

impl CtrlRegs {
    /// The register block of a core whose `ID` register reads `id`.
    pub fn new(id: u32) -> Self {
        // Byte-lane mask of each WSTRB value.
        let mask = |strb: usize| -> u64 {
            (0..4)
                .filter(|b| strb >> b & 1 == 1)
                .map(|b| 0xFFu64 << (8 * b))
                .sum()
        };
        Self {
            clock: Default::default(),
            resetn: Default::default(),
            awaddr: Default::default(),
            awvalid: Default::default(),
            awready: Default::default(),
            wdata: Default::default(),
            wstrb: Default::default(),
            wvalid: Default::default(),
            wready: Default::default(),
            bresp: Default::default(),
            bvalid: Default::default(),
            bready: Default::default(),
            araddr: Default::default(),
            arvalid: Default::default(),
            arready: Default::default(),
            rdata: Default::default(),
            rresp: Default::default(),
            rvalid: Default::default(),
            rready: Default::default(),
            start: Default::default(),
            op: Default::default(),
            arg0: Default::default(),
            arg1: Default::default(),
            arg2: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            core_config: Default::default(),
            cycles: Default::default(),
            result: Default::default(),
            aw_held: Default::default(),
            aw_addr: Default::default(),
            w_held: Default::default(),
            w_data: Default::default(),
            w_strb: Default::default(),
            b_pending: Default::default(),
            r_pending: Default::default(),
            r_data: Default::default(),
            start_r: Default::default(),
            op_r: Default::default(),
            args: Default::default(),
            strobe_mask: Default::default(),
            read_word: Default::default(),
            status_busy: Default::default(),
            status_done: Default::default(),
            status_error: Default::default(),
            merged: Default::default(),
            command_word: Default::default(),
            masks: std::array::from_fn(|s| konst(mask(s))),
            id_value: konst(id as u64),
            version_value: konst(ctrl::VERSION_VALUE as u64),
            bit_busy: konst(ctrl::STATUS_BUSY as u64),
            bit_done: konst(ctrl::STATUS_DONE as u64),
            bit_error: konst(ctrl::STATUS_ERROR as u64),
            bit_start: konst(ctrl::COMMAND_START as u64),
            zero: konst(0),
            // AXI RESP encoding: 0b00 = OKAY.
            resp_okay: konst(0),
            off_id: konst(ctrl::ID as u64),
            off_version: konst(ctrl::VERSION as u64),
            off_config: konst(ctrl::CONFIG as u64),
            off_command: konst(ctrl::COMMAND as u64),
            off_status: konst(ctrl::STATUS as u64),
            off_args: [
                konst(ctrl::ARG0 as u64),
                konst(ctrl::ARG1 as u64),
                konst(ctrl::ARG2 as u64),
            ],
            off_cycles: konst(ctrl::CYCLES as u64),
            off_result: konst(ctrl::RESULT as u64),
        }
    }
}

impl Logic for CtrlRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, aw_held, aw_addr, w_held, w_data, w_strb, b_pending, r_pending, r_data,
            start_r, op_r
        );
        for i in 0..3 {
            self.args[i].clock.next = self.clock.val();
            self.args[i].d.next = self.args[i].q.val();
        }

        // Outputs.
        self.awready.next = !self.aw_held.q.val() & !self.b_pending.q.val();
        self.wready.next = !self.w_held.q.val() & !self.b_pending.q.val();
        self.bvalid.next = self.b_pending.q.val();
        self.bresp.next = self.resp_okay.val();
        self.arready.next = !self.r_pending.q.val();
        self.rvalid.next = self.r_pending.q.val();
        self.rdata.next = self.r_data.q.val();
        self.rresp.next = self.resp_okay.val();
        self.start.next = self.start_r.q.val();
        self.op.next = self.op_r.q.val();
        self.arg0.next = self.args[0].q.val();
        self.arg1.next = self.args[1].q.val();
        self.arg2.next = self.args[2].q.val();

        // Held write data merged into each argument under the byte strobes.
        self.strobe_mask.next = self.masks[0].val();
        for s in 0..16 {
            if self.w_strb.q.val().index() == s {
                self.strobe_mask.next = self.masks[s].val();
            }
        }
        for i in 0..3 {
            self.merged[i].next = (self.args[i].q.val() & !self.strobe_mask.val())
                | (self.w_data.q.val() & self.strobe_mask.val());
        }
        self.command_word.next = self.w_data.q.val() & self.strobe_mask.val();

        // Read multiplexer.
        self.status_busy.next = self.zero.val();
        if self.busy.val() {
            self.status_busy.next = self.bit_busy.val();
        }
        self.status_done.next = self.zero.val();
        if self.done.val() {
            self.status_done.next = self.bit_done.val();
        }
        self.status_error.next = self.zero.val();
        if self.error.val() {
            self.status_error.next = self.bit_error.val();
        }
        self.read_word.next = self.zero.val();
        if self.araddr.val() == self.off_id.val() {
            self.read_word.next = self.id_value.val();
        }
        if self.araddr.val() == self.off_version.val() {
            self.read_word.next = self.version_value.val();
        }
        if self.araddr.val() == self.off_config.val() {
            self.read_word.next = self.core_config.val();
        }
        if self.araddr.val() == self.off_status.val() {
            self.read_word.next =
                self.status_busy.val() | self.status_done.val() | self.status_error.val();
        }
        for i in 0..3 {
            if self.araddr.val() == self.off_args[i].val() {
                self.read_word.next = self.args[i].q.val();
            }
        }
        if self.araddr.val() == self.off_cycles.val() {
            self.read_word.next = self.cycles.val();
        }
        if self.araddr.val() == self.off_result.val() {
            self.read_word.next = self.result.val();
        }

        // Write channel: hold AW and W, then perform the write.
        self.start_r.d.next = false;
        if self.awvalid.val() & !self.aw_held.q.val() & !self.b_pending.q.val() {
            self.aw_held.d.next = true;
            self.aw_addr.d.next = self.awaddr.val();
        }
        if self.wvalid.val() & !self.w_held.q.val() & !self.b_pending.q.val() {
            self.w_held.d.next = true;
            self.w_data.d.next = self.wdata.val();
            self.w_strb.d.next = self.wstrb.val();
        }
        if self.aw_held.q.val() & self.w_held.q.val() & !self.b_pending.q.val() {
            self.aw_held.d.next = false;
            self.w_held.d.next = false;
            self.b_pending.d.next = true;
            for i in 0..3 {
                if self.aw_addr.q.val() == self.off_args[i].val() {
                    self.args[i].d.next = self.merged[i].val();
                }
            }
            if (self.aw_addr.q.val() == self.off_command.val())
                & (self.command_word.val() & self.bit_start.val()).any()
            {
                self.start_r.d.next = true;
                self.op_r.d.next = self.command_word.val().get_bits::<8>(0);
            }
        }
        if self.b_pending.q.val() & self.bready.val() {
            self.b_pending.d.next = false;
        }

        // Read channel.
        if self.arvalid.val() & !self.r_pending.q.val() {
            self.r_pending.d.next = true;
            self.r_data.d.next = self.read_word.val();
        }
        if self.r_pending.q.val() & self.rready.val() {
            self.r_pending.d.next = false;
        }

        if !self.resetn.val() {
            self.aw_held.d.next = false;
            self.w_held.d.next = false;
            self.b_pending.d.next = false;
            self.r_pending.d.next = false;
            self.start_r.d.next = false;
            for i in 0..3 {
                self.args[i].d.next = self.zero.val();
            }
        }
    }
}
