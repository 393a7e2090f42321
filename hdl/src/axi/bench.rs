//! [`AccelBench`]: drives an accelerator top in the rust-hdl simulation the
//! way the PS and the AXI DMA do: whole AXI4-Lite transactions, and both
//! streams moving on every clock.

use super::ctrl::ADDR_BITS;
use super::engines_top::EnginesAccel;
use super::mldsa_top::MlDsaAccel;
use super::slhdsa_top::{SlhDsaAccel, SlhDsaSha2Accel};
use super::top::{KeccakAccel, NttAccel};
use crate::keccak::bench::Bench;
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// Clocks an AXI4-Lite transaction may take before it counts as hung. The
/// register block answers in 2–3 clocks; the margin is for the tests that
/// delay one channel on purpose.
pub const AXI_CYCLE_LIMIT: u64 = 64;

/// The address bits the interconnect passes to the block (the low bits).
fn window_offset(offset: u32) -> Bits<ADDR_BITS> {
    ((offset as u64) & ((1 << ADDR_BITS) - 1)).into()
}

/// One AXI4-Stream beat (`repr(C)`: the Verilator shim shares the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct StreamWord {
    /// TDATA.
    pub data: u32,
    /// TLAST.
    pub last: bool,
}

/// An AXI4-Lite transaction was not answered within [`AXI_CYCLE_LIMIT`] clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxiTimeout {
    /// `"write"` or `"read"`.
    pub kind: &'static str,
    /// Byte offset in the control window.
    pub offset: u32,
}

impl std::fmt::Display for AxiTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "AXI4-Lite {} at offset {:#x} not answered within {AXI_CYCLE_LIMIT} clocks",
            self.kind, self.offset
        )
    }
}

impl std::error::Error for AxiTimeout {}

/// Access to every port of an accelerator top except `aclk` (both tops
/// have the same ports). Field names are the port names without the
/// `s_axi_` prefix; `s_t*`/`m_t*` are `s_axis_t*`/`m_axis_t*`. Inputs are
/// `&mut` (to drive), outputs `&` (to read).
#[allow(missing_docs)]
pub struct Ports<'a> {
    pub aresetn: &'a mut Signal<In, Bit>,
    pub awaddr: &'a mut Signal<In, Bits<ADDR_BITS>>,
    pub awvalid: &'a mut Signal<In, Bit>,
    pub awready: &'a Signal<Out, Bit>,
    pub wdata: &'a mut Signal<In, Bits<32>>,
    pub wstrb: &'a mut Signal<In, Bits<4>>,
    pub wvalid: &'a mut Signal<In, Bit>,
    pub wready: &'a Signal<Out, Bit>,
    pub bresp: &'a Signal<Out, Bits<2>>,
    pub bvalid: &'a Signal<Out, Bit>,
    pub bready: &'a mut Signal<In, Bit>,
    pub araddr: &'a mut Signal<In, Bits<ADDR_BITS>>,
    pub arvalid: &'a mut Signal<In, Bit>,
    pub arready: &'a Signal<Out, Bit>,
    pub rdata: &'a Signal<Out, Bits<32>>,
    pub rresp: &'a Signal<Out, Bits<2>>,
    pub rvalid: &'a Signal<Out, Bit>,
    pub rready: &'a mut Signal<In, Bit>,
    pub s_tdata: &'a mut Signal<In, Bits<32>>,
    pub s_tvalid: &'a mut Signal<In, Bit>,
    pub s_tlast: &'a mut Signal<In, Bit>,
    pub s_tready: &'a Signal<Out, Bit>,
    pub m_tdata: &'a Signal<Out, Bits<32>>,
    pub m_tvalid: &'a Signal<Out, Bit>,
    pub m_tlast: &'a Signal<Out, Bit>,
    pub m_tready: &'a mut Signal<In, Bit>,
    pub busy: &'a Signal<Out, Bit>,
}

/// An accelerator top level: [`NttAccel`] or [`KeccakAccel`].
pub trait AccelTop: Block + Sized {
    /// The elaborated design.
    fn elaborate() -> Self;
    /// The `aclk` input.
    fn aclk(&mut self) -> &mut Signal<In, Clock>;
    /// Every other port.
    fn ports(&mut self) -> Ports<'_>;
}

macro_rules! accel_top {
    ($t:ty) => {
        impl AccelTop for $t {
            fn elaborate() -> Self {
                <$t>::default()
            }
            fn aclk(&mut self) -> &mut Signal<In, Clock> {
                &mut self.aclk
            }
            fn ports(&mut self) -> Ports<'_> {
                Ports {
                    aresetn: &mut self.aresetn,
                    awaddr: &mut self.s_axi_awaddr,
                    awvalid: &mut self.s_axi_awvalid,
                    awready: &self.s_axi_awready,
                    wdata: &mut self.s_axi_wdata,
                    wstrb: &mut self.s_axi_wstrb,
                    wvalid: &mut self.s_axi_wvalid,
                    wready: &self.s_axi_wready,
                    bresp: &self.s_axi_bresp,
                    bvalid: &self.s_axi_bvalid,
                    bready: &mut self.s_axi_bready,
                    araddr: &mut self.s_axi_araddr,
                    arvalid: &mut self.s_axi_arvalid,
                    arready: &self.s_axi_arready,
                    rdata: &self.s_axi_rdata,
                    rresp: &self.s_axi_rresp,
                    rvalid: &self.s_axi_rvalid,
                    rready: &mut self.s_axi_rready,
                    s_tdata: &mut self.s_axis_tdata,
                    s_tvalid: &mut self.s_axis_tvalid,
                    s_tlast: &mut self.s_axis_tlast,
                    s_tready: &self.s_axis_tready,
                    m_tdata: &self.m_axis_tdata,
                    m_tvalid: &self.m_axis_tvalid,
                    m_tlast: &self.m_axis_tlast,
                    m_tready: &mut self.m_axis_tready,
                    busy: &self.busy,
                }
            }
        }
    };
}
accel_top!(NttAccel);
accel_top!(KeccakAccel);
accel_top!(MlDsaAccel);
accel_top!(SlhDsaAccel);
accel_top!(SlhDsaSha2Accel);
accel_top!(EnginesAccel);

/// How the two halves of an AXI4-Lite write are presented (for the tests of
/// the register block; [`AccelBench::write`] uses [`WriteOrder::Together`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteOrder {
    /// AW and W valid in the same clock.
    Together,
    /// W is offered only `n` clocks after AW was accepted.
    AddressFirst(u32),
    /// AW is offered only `n` clocks after W was accepted.
    DataFirst(u32),
}

/// A cycle stepper over an accelerator top (see the module docs).
pub struct AccelBench<T: AccelTop> {
    bench: Bench<T>,
    /// Words offered on `s_axis`, front first; popped on each handshake.
    pub stream_in: VecDeque<StreamWord>,
    /// Words taken from `m_axis` (while [`AccelBench::sink_ready`] is true).
    pub stream_out: VecDeque<StreamWord>,
    /// Drives `m_axis_tready`.
    pub sink_ready: bool,
    /// Delay `BREADY`/`RREADY` by this many clocks after `BVALID`/`RVALID`.
    pub response_delay: u32,
}

impl AccelBench<NttAccel> {
    /// A bench over a fresh [`NttAccel`].
    pub fn ntt() -> Self {
        Self::new()
    }
}

impl AccelBench<KeccakAccel> {
    /// A bench over a fresh [`KeccakAccel`].
    pub fn keccak() -> Self {
        Self::new()
    }
}

impl<T: AccelTop> Default for AccelBench<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: AccelTop> AccelBench<T> {
    /// Elaborates the top, holds `aresetn` low for two clocks, then releases it.
    pub fn new() -> Self {
        let mut bench = Bench::new(T::elaborate(), |t| t.aclk());
        bench.uut.ports().aresetn.next = false;
        bench.clock();
        bench.clock();
        bench.uut.ports().aresetn.next = true;
        bench.uut.ports().wstrb.next = 0xF.into();
        bench.settle();
        Self {
            bench,
            stream_in: VecDeque::new(),
            stream_out: VecDeque::new(),
            sink_ready: true,
            response_delay: 0,
        }
    }

    /// Records every signal from now on as a VCD waveform into `out`.
    pub fn trace_to(&mut self, out: Box<dyn std::io::Write>) {
        self.bench.trace_to(out);
    }

    /// The design (to read a port directly).
    pub fn uut(&mut self) -> &mut T {
        &mut self.bench.uut
    }

    /// Clock cycles so far (reset clocks included).
    pub fn cycles(&self) -> u64 {
        self.bench.cycles
    }

    /// `busy` output (the LED).
    pub fn busy(&mut self) -> bool {
        self.bench.uut.ports().busy.val()
    }

    /// One clock: offers the front of `stream_in`, takes an output word if
    /// `sink_ready`, then the edge. AXI4-Lite inputs keep their values.
    pub fn clock(&mut self) {
        let front = self.stream_in.front().copied();
        let sink_ready = self.sink_ready;
        {
            let p = self.bench.uut.ports();
            p.s_tvalid.next = front.is_some();
            let w = front.unwrap_or(StreamWord {
                data: 0,
                last: false,
            });
            p.s_tdata.next = (w.data as u64).into();
            p.s_tlast.next = w.last;
            p.m_tready.next = sink_ready;
        }
        self.bench.settle();
        let p = self.bench.uut.ports();
        if front.is_some() && p.s_tready.val() {
            self.stream_in.pop_front();
        }
        if sink_ready && p.m_tvalid.val() {
            self.stream_out.push_back(StreamWord {
                data: p.m_tdata.val().to_u64() as u32,
                last: p.m_tlast.val(),
            });
        }
        self.bench.clock();
    }

    /// One AXI4-Lite write of `value` at byte `offset` (AW and W together,
    /// all byte lanes). Returns once the response has been taken.
    pub fn write(&mut self, offset: u32, value: u32) -> Result<(), AxiTimeout> {
        self.write_with(offset, value, 0xF, WriteOrder::Together)
    }

    /// A write with explicit strobes and channel order; checks BRESP = OKAY.
    pub fn write_with(
        &mut self,
        offset: u32,
        value: u32,
        strobes: u32,
        order: WriteOrder,
    ) -> Result<(), AxiTimeout> {
        let timeout = AxiTimeout {
            kind: "write",
            offset,
        };
        let (mut aw_wait, mut w_wait) = match order {
            WriteOrder::Together => (Some(0u32), Some(0u32)),
            WriteOrder::AddressFirst(_) => (Some(0), None),
            WriteOrder::DataFirst(_) => (None, Some(0)),
        };
        let (mut aw_done, mut w_done) = (false, false);
        let mut b_seen = 0;
        let start = self.bench.cycles;
        loop {
            if self.bench.cycles - start >= AXI_CYCLE_LIMIT {
                let p = self.bench.uut.ports();
                p.awvalid.next = false;
                p.wvalid.next = false;
                p.bready.next = false;
                return Err(timeout);
            }
            let aw_on = !aw_done && aw_wait == Some(0);
            let w_on = !w_done && w_wait == Some(0);
            let b_ready = b_seen >= self.response_delay;
            {
                let p = self.bench.uut.ports();
                p.awvalid.next = aw_on;
                p.awaddr.next = window_offset(offset);
                p.wvalid.next = w_on;
                p.wdata.next = (value as u64).into();
                p.wstrb.next = (strobes as u64).into();
                p.bready.next = b_ready;
            }
            self.bench.settle();
            let p = self.bench.uut.ports();
            let aw_fire = aw_on && p.awready.val();
            let w_fire = w_on && p.wready.val();
            let b_fire = b_ready && p.bvalid.val();
            if b_fire {
                assert_eq!(p.bresp.val().to_u64(), 0, "BRESP not OKAY");
            }
            if p.bvalid.val() {
                b_seen += 1;
            }
            self.clock();
            aw_done |= aw_fire;
            w_done |= w_fire;
            aw_wait = aw_wait.map(|n| n.saturating_sub(1));
            w_wait = w_wait.map(|n| n.saturating_sub(1));
            // The delayed channel's countdown starts after the other's handshake.
            if let WriteOrder::AddressFirst(n) = order {
                if aw_fire {
                    w_wait = Some(n);
                }
            }
            if let WriteOrder::DataFirst(n) = order {
                if w_fire {
                    aw_wait = Some(n);
                }
            }
            if b_fire {
                let p = self.bench.uut.ports();
                p.awvalid.next = false;
                p.wvalid.next = false;
                p.bready.next = false;
                self.bench.settle();
                return Ok(());
            }
        }
    }

    /// One AXI4-Lite read at byte `offset`; checks RRESP = OKAY.
    pub fn read(&mut self, offset: u32) -> Result<u32, AxiTimeout> {
        let start = self.bench.cycles;
        let mut ar_done = false;
        let mut r_seen = 0;
        loop {
            if self.bench.cycles - start >= AXI_CYCLE_LIMIT {
                let p = self.bench.uut.ports();
                p.arvalid.next = false;
                p.rready.next = false;
                return Err(AxiTimeout {
                    kind: "read",
                    offset,
                });
            }
            let r_ready = r_seen >= self.response_delay;
            {
                let p = self.bench.uut.ports();
                p.arvalid.next = !ar_done;
                p.araddr.next = window_offset(offset);
                p.rready.next = r_ready;
            }
            self.bench.settle();
            let p = self.bench.uut.ports();
            let ar_fire = !ar_done && p.arready.val();
            let r_fire = r_ready && p.rvalid.val();
            let data = p.rdata.val().to_u64() as u32;
            if r_fire {
                assert_eq!(p.rresp.val().to_u64(), 0, "RRESP not OKAY");
            }
            if p.rvalid.val() {
                r_seen += 1;
            }
            self.clock();
            ar_done |= ar_fire;
            if r_fire {
                let p = self.bench.uut.ports();
                p.arvalid.next = false;
                p.rready.next = false;
                self.bench.settle();
                return Ok(data);
            }
        }
    }
}
