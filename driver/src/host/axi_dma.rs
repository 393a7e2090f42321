//! The Xilinx AXI DMA (PG021) in simple (register direct) mode, as the
//! driver sees it through its register window, moving data between the
//! DDR model and the PL's streams.
//!
//! PG021 behaviour modelled, each with a test below:
//! - reset: both channels halted (DMASR.Halted = 1), not idle;
//! - DMACR.RS = 1 runs a channel (Halted = 0); RS = 0 halts it;
//! - writing LENGTH starts a transfer (S2MM: arms the channel); the value
//!   keeps only the low [`ps_pl_contract::dma::LENGTH_WIDTH_BITS`] bits (the
//!   configured width); a LENGTH write to a halted channel does nothing;
//! - completion sets Idle and IOC_Irq;
//! - of DMASR only IOC_Irq, Dly_Irq and Err_Irq are writable, write 1 to
//!   clear; writing 1 to any other bit changes nothing;
//! - DMACR.Reset (either channel) resets both channels and drops the data in
//!   flight; it reads back 0 once done (at once here);
//! - errors halt the channel (RS = 0, Halted = 1) and set Err_Irq: a zero
//!   length or a packet longer than the S2MM buffer is DMAIntErr, an
//!   address outside DDR DMADecErr (DMASlvErr comes from [`super::FaultyDma`]);
//! - S2MM ends early on TLAST: LENGTH then reads back the bytes received.
//!
//! Time is the owner's business: a behavioural model services the streams
//! after every access, a cycle-accurate one on every PL clock and calls
//! [`DmaDevice::clock`] once per PL cycle. With a [`DmaLatency`] the engine
//! also takes the time a real one does from LENGTH to the first MM2S beat
//! and from TLAST to S2MM completion (the conservative bus model of
//! `ps_pl_contract::bus_model`); with none (the default) both are instant.

use super::ddr::SharedDdr;
use super::trace::{HostEvent, Trace};
use crate::bus::RegisterBus;
use crate::dma::Channel;
use ps_pl_contract::dma::{offset as o, Dmacr, Dmasr};
use std::format;
use std::string::String;
use std::vec::Vec;

/// One 32-bit stream beat (TDATA, TLAST; TKEEP is all ones except in the
/// last MM2S beat of a length that is not a multiple of 4, where the bytes
/// past the length are what DDR holds there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beat {
    /// TDATA, little-endian bytes.
    pub data: u32,
    /// TLAST.
    pub last: bool,
}

/// The PL side of the two streams.
pub trait StreamEndpoint {
    /// MM2S: beats the engine fetched from DDR, queued for the PL's input.
    fn push_input(&mut self, beats: &[Beat]);
    /// Whether the PL has taken every queued input beat.
    fn input_drained(&self) -> bool;
    /// Drops queued input beats (soft reset).
    fn drop_input(&mut self);
    /// S2MM: the PL's next output beat, if one is ready.
    fn pop_output(&mut self) -> Option<Beat>;
    /// Drops output beats the PL already produced (after an S2MM error).
    fn drop_output(&mut self);
    /// S2MM TREADY: whether the engine accepts output beats now.
    fn set_output_ready(&mut self, ready: bool);
}

/// What the engine moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DmaCounts {
    /// Bytes read from DDR into the input stream (the LENGTH written).
    pub mm2s_bytes: u64,
    /// Bytes written to DDR from the output stream (whole beats).
    pub s2mm_bytes: u64,
    /// Transfers started (MM2S) and armed (S2MM).
    pub transfers: u64,
}

/// Latencies of the engine, in PL cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DmaLatency {
    /// From the LENGTH write of MM2S to its first stream beat.
    pub first_beat_cycles: u32,
    /// From the S2MM beat with TLAST to Idle and IOC.
    pub s2mm_completion_cycles: u32,
}

impl DmaLatency {
    /// The conservative bus model of the contract.
    pub const CONSERVATIVE: DmaLatency = DmaLatency {
        first_beat_cycles: ps_pl_contract::bus_model::DMA_FIRST_BEAT_CYCLES,
        s2mm_completion_cycles: ps_pl_contract::bus_model::S2MM_COMPLETION_CYCLES,
    };
}

/// The register interface of a DMA model, with or without fault injection.
pub trait DmaDevice {
    /// A register read.
    fn read(&mut self, offset: usize) -> u32;
    /// A register write; `endpoint` receives what a started MM2S fetched.
    fn write(&mut self, offset: usize, value: u32, endpoint: &mut dyn StreamEndpoint);
    /// Moves stream data: completes MM2S once the PL took every beat,
    /// writes the PL's output beats to DDR, sets TREADY.
    fn service(&mut self, endpoint: &mut dyn StreamEndpoint);
    /// `cycles` PL cycles pass: latencies count down (then
    /// [`DmaDevice::service`]). Owners that run several clocks at once stop
    /// at [`DmaDevice::cycles_to_next_event`] so no latency is overshot.
    fn advance(&mut self, cycles: u64, endpoint: &mut dyn StreamEndpoint);
    /// One PL cycle passes.
    fn clock(&mut self, endpoint: &mut dyn StreamEndpoint) {
        self.advance(1, endpoint)
    }
    /// Cycles until a latency expires, if one is counting.
    fn cycles_to_next_event(&self) -> Option<u64> {
        self.model().cycles_to_next_event()
    }
    /// The plain model underneath.
    fn model(&self) -> &AxiDmaModel;
}

/// An S2MM channel armed with a buffer.
#[derive(Clone, Copy, Debug)]
struct Armed {
    destination: u32,
    room: usize,
    written: usize,
}

/// The AXI DMA model.
#[derive(Debug)]
pub struct AxiDmaModel {
    regs: [u32; o::REGISTER_FILE_BYTES / 4],
    length_mask: u32,
    ddr: SharedDdr,
    mm2s_busy: bool,
    /// MM2S beats fetched and the cycles left before the first goes out.
    mm2s_waiting: Option<(u32, Vec<Beat>)>,
    s2mm: Option<Armed>,
    /// S2MM saw TLAST: cycles left before it reports completion.
    s2mm_completing: Option<u32>,
    latency: DmaLatency,
    counts: DmaCounts,
    errors: Vec<String>,
    trace: Option<Trace>,
}

impl AxiDmaModel {
    /// An engine with `length_width_bits` wide LENGTH registers reaching `ddr`.
    pub fn new(ddr: SharedDdr, length_width_bits: u32) -> Self {
        let mut m = AxiDmaModel {
            regs: [0; o::REGISTER_FILE_BYTES / 4],
            length_mask: (1u32 << length_width_bits.clamp(8, 26)) - 1,
            ddr,
            mm2s_busy: false,
            mm2s_waiting: None,
            s2mm: None,
            s2mm_completing: None,
            latency: DmaLatency::default(),
            counts: DmaCounts::default(),
            errors: Vec::new(),
            trace: None,
        };
        m.reset_registers();
        m
    }

    /// Logs every register write to `trace`.
    pub fn with_trace(mut self, trace: Trace) -> Self {
        self.trace = Some(trace);
        self
    }

    /// Cycles until the first beat goes out or S2MM completes, whichever
    /// comes first, if either is pending.
    pub fn cycles_to_next_event(&self) -> Option<u64> {
        let beat = self.mm2s_waiting.as_ref().map(|(left, _)| u64::from(*left));
        let done = self.s2mm_completing.map(u64::from);
        match (beat, done) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Takes `latency` (counted by [`DmaDevice::advance`]).
    pub fn with_latency(mut self, latency: DmaLatency) -> Self {
        self.latency = latency;
        self
    }

    /// What the engine moved so far.
    pub fn counts(&self) -> DmaCounts {
        self.counts
    }

    /// Protocol violations by the driver (e.g. LENGTH written to a halted
    /// channel). PG021 ignores them silently; the model records them so
    /// tests can require none.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The DDR the engine reaches.
    pub fn ddr(&self) -> &SharedDdr {
        &self.ddr
    }

    fn reset_registers(&mut self) {
        self.regs = [0; o::REGISTER_FILE_BYTES / 4];
        self.regs[o::MM2S_DMASR / 4] = Dmasr::HALTED.bits();
        self.regs[o::S2MM_DMASR / 4] = Dmasr::HALTED.bits();
        self.mm2s_busy = false;
        self.mm2s_waiting = None;
        self.s2mm = None;
        self.s2mm_completing = None;
    }

    fn record(&mut self, e: String) {
        if self.errors.len() < 16 {
            self.errors.push(e);
        }
    }

    fn set(&mut self, status: usize, bits: Dmasr) {
        self.regs[status / 4] |= bits.bits();
    }

    fn running(&self, dmacr: usize) -> bool {
        Dmacr(self.regs[dmacr / 4]).contains(Dmacr::RS)
    }

    /// Stops `channel` with error `bits` (+ Err_Irq), as PG021 does on any
    /// DMA error: RS cleared, Halted set, the transfer abandoned.
    pub fn fail(&mut self, channel: Channel, bits: Dmasr) {
        let (dmacr, status) = match channel {
            Channel::Mm2s => {
                self.mm2s_busy = false;
                self.mm2s_waiting = None;
                (o::MM2S_DMACR, o::MM2S_DMASR)
            }
            Channel::S2mm => {
                self.s2mm = None;
                self.s2mm_completing = None;
                (o::S2MM_DMACR, o::S2MM_DMASR)
            }
        };
        self.regs[dmacr / 4] &= !Dmacr::RS.bits();
        self.set(status, bits | Dmasr::ERR_IRQ | Dmasr::HALTED);
        self.regs[status / 4] &= !Dmasr::IDLE.bits();
    }

    fn start_mm2s(&mut self, len: usize, endpoint: &mut dyn StreamEndpoint) {
        if !self.running(o::MM2S_DMACR) {
            self.record("MM2S_LENGTH written while the channel is halted".into());
            return;
        }
        if len == 0 {
            return self.fail(Channel::Mm2s, Dmasr::DMA_INT_ERR);
        }
        let sa = self.regs[o::MM2S_SA / 4];
        let mut ddr = self.ddr.borrow_mut();
        let Some(bytes) = ddr.range(sa, len) else {
            drop(ddr);
            return self.fail(Channel::Mm2s, Dmasr::DMA_DEC_ERR);
        };
        let mut bytes = bytes.to_vec();
        // The last beat's bytes past the length: what DDR holds (TKEEP masks them).
        let padded = len.next_multiple_of(4);
        let tail = ddr.range(sa, padded).map(|b| b[len..].to_vec());
        bytes.extend(tail.unwrap_or_else(|| std::vec![0; padded - len]));
        drop(ddr);
        let n = bytes.len() / 4;
        let beats: Vec<Beat> = bytes
            .chunks_exact(4)
            .enumerate()
            .map(|(i, c)| Beat {
                data: u32::from_le_bytes(c.try_into().expect("4 bytes")),
                last: i + 1 == n,
            })
            .collect();
        if self.latency.first_beat_cycles == 0 {
            endpoint.push_input(&beats);
        } else {
            self.mm2s_waiting = Some((self.latency.first_beat_cycles, beats));
        }
        self.regs[o::MM2S_DMASR / 4] &= !Dmasr::IDLE.bits();
        self.mm2s_busy = true;
        self.counts.mm2s_bytes += len as u64;
        self.counts.transfers += 1;
    }

    fn arm_s2mm(&mut self, len: usize, endpoint: &mut dyn StreamEndpoint) {
        if !self.running(o::S2MM_DMACR) {
            self.record("S2MM_LENGTH written while the channel is halted".into());
            return;
        }
        if len == 0 {
            return self.fail(Channel::S2mm, Dmasr::DMA_INT_ERR);
        }
        self.regs[o::S2MM_DMASR / 4] &= !Dmasr::IDLE.bits();
        self.s2mm = Some(Armed {
            destination: self.regs[o::S2MM_DA / 4],
            room: len,
            written: 0,
        });
        self.counts.transfers += 1;
        self.service(endpoint);
    }
}

impl DmaDevice for AxiDmaModel {
    fn read(&mut self, offset: usize) -> u32 {
        match offset {
            // Soft reset completes at once (self-clearing).
            o::MM2S_DMACR | o::S2MM_DMACR => self.regs[offset / 4] & !Dmacr::RESET.bits(),
            x if x % 4 == 0 && x < o::REGISTER_FILE_BYTES => self.regs[x / 4],
            _ => 0,
        }
    }

    fn write(&mut self, offset: usize, value: u32, endpoint: &mut dyn StreamEndpoint) {
        if let Some(t) = &self.trace {
            t.push(HostEvent::DmaWrite(offset, value));
        }
        match offset {
            o::MM2S_DMASR | o::S2MM_DMASR => {
                self.regs[offset / 4] &= !(value & Dmasr::WRITE_1_TO_CLEAR.bits());
            }
            o::MM2S_DMACR | o::S2MM_DMACR if Dmacr(value).contains(Dmacr::RESET) => {
                self.reset_registers();
                endpoint.drop_input();
                self.service(endpoint);
            }
            o::MM2S_DMACR | o::S2MM_DMACR => {
                let status = offset + (o::MM2S_DMASR - o::MM2S_DMACR);
                self.regs[offset / 4] = value;
                if Dmacr(value).contains(Dmacr::RS) {
                    self.regs[status / 4] &= !Dmasr::HALTED.bits();
                } else {
                    self.regs[status / 4] |= Dmasr::HALTED.bits();
                }
            }
            o::MM2S_LENGTH | o::S2MM_LENGTH => {
                let len = value & self.length_mask;
                self.regs[offset / 4] = len;
                if offset == o::MM2S_LENGTH {
                    self.start_mm2s(len as usize, endpoint);
                } else {
                    self.arm_s2mm(len as usize, endpoint);
                }
            }
            x if x % 4 == 0 && x < o::REGISTER_FILE_BYTES => self.regs[x / 4] = value,
            _ => self.record(format!("DMA write outside the register file: {offset:#x}")),
        }
    }

    fn advance(&mut self, cycles: u64, endpoint: &mut dyn StreamEndpoint) {
        let step = |left: &mut u32| {
            *left = left.saturating_sub(u32::try_from(cycles).unwrap_or(u32::MAX));
            *left == 0
        };
        if let Some((left, _)) = &mut self.mm2s_waiting {
            if step(left) {
                let (_, beats) = self.mm2s_waiting.take().expect("waiting");
                endpoint.push_input(&beats);
            }
        }
        if let Some(left) = &mut self.s2mm_completing {
            if step(left) {
                self.s2mm_completing = None;
                self.set(o::S2MM_DMASR, Dmasr::IDLE | Dmasr::IOC_IRQ);
            }
        }
        self.service(endpoint);
    }

    fn service(&mut self, endpoint: &mut dyn StreamEndpoint) {
        if self.mm2s_busy && self.mm2s_waiting.is_none() && endpoint.input_drained() {
            self.mm2s_busy = false;
            self.set(o::MM2S_DMASR, Dmasr::IDLE | Dmasr::IOC_IRQ);
        }
        while let Some(Armed {
            destination,
            room,
            written,
        }) = self.s2mm
        {
            let Some(beat) = endpoint.pop_output() else {
                break;
            };
            if written + 4 > room {
                // PG021: a packet longer than the buffer is an internal error.
                self.fail(Channel::S2mm, Dmasr::DMA_INT_ERR);
                endpoint.drop_output();
                break;
            }
            let landed = match self.ddr.borrow_mut().range(destination + written as u32, 4) {
                Some(bytes) => {
                    bytes.copy_from_slice(&beat.data.to_le_bytes());
                    true
                }
                None => false,
            };
            if !landed {
                self.fail(Channel::S2mm, Dmasr::DMA_DEC_ERR);
                break;
            }
            self.counts.s2mm_bytes += 4;
            let written = written + 4;
            if beat.last {
                self.s2mm = None;
                self.regs[o::S2MM_LENGTH / 4] = written as u32;
                match self.latency.s2mm_completion_cycles {
                    0 => self.set(o::S2MM_DMASR, Dmasr::IDLE | Dmasr::IOC_IRQ),
                    n => self.s2mm_completing = Some(n),
                }
            } else {
                self.s2mm = Some(Armed {
                    destination,
                    room,
                    written,
                });
            }
        }
        // Back-pressure: output moves only into an armed buffer.
        endpoint.set_output_ready(self.s2mm.is_some());
    }

    fn model(&self) -> &AxiDmaModel {
        self
    }
}

/// A DMA model and its stream endpoint as one register window: each
/// access is followed by servicing the streams (no PL time passes).
pub struct DmaWithEndpoint<D, E> {
    /// The engine.
    pub dma: D,
    /// The PL side of its streams.
    pub endpoint: E,
}

impl<D: DmaDevice, E: StreamEndpoint> RegisterBus for DmaWithEndpoint<D, E> {
    fn read32(&mut self, offset: usize) -> u32 {
        self.dma.service(&mut self.endpoint);
        self.dma.read(offset)
    }

    fn write32(&mut self, offset: usize, value: u32) {
        self.dma.write(offset, value, &mut self.endpoint);
        self.dma.service(&mut self.endpoint);
    }
}

#[cfg(test)]
mod tests {
    //! One test per PG021 behaviour listed in the module docs.
    use super::*;
    use crate::host::{Ddr, DmaFault, FaultyDma};
    use ps_pl_contract::dma::LENGTH_WIDTH_BITS;
    use std::collections::VecDeque;
    use std::vec;

    const BASE: u32 = 0x0100_0000;

    /// Takes input beats when told to; answers with queued beats.
    #[derive(Default)]
    struct Pipe {
        input: Vec<Beat>,
        taking: bool,
        pending: usize,
        output: VecDeque<Beat>,
        ready: bool,
    }

    impl StreamEndpoint for Pipe {
        fn push_input(&mut self, beats: &[Beat]) {
            self.input.extend_from_slice(beats);
            if !self.taking {
                self.pending += beats.len();
            }
        }
        fn input_drained(&self) -> bool {
            self.pending == 0
        }
        fn drop_input(&mut self) {
            self.pending = 0;
        }
        fn pop_output(&mut self) -> Option<Beat> {
            self.output.pop_front()
        }
        fn drop_output(&mut self) {
            self.output.clear();
        }
        fn set_output_ready(&mut self, ready: bool) {
            self.ready = ready;
        }
    }

    fn rig() -> DmaWithEndpoint<AxiDmaModel, Pipe> {
        let ddr = Ddr::shared();
        ddr.borrow_mut().add_region(BASE, 4096);
        DmaWithEndpoint {
            dma: AxiDmaModel::new(ddr, LENGTH_WIDTH_BITS),
            endpoint: Pipe {
                taking: true,
                ..Pipe::default()
            },
        }
    }

    /// A DMA model with `fault` injected from transfer `from` on, over 64
    /// bytes of DDR at [`BASE`], and a pipe that takes every word.
    fn faulty_rig(fault: DmaFault, from: u64) -> DmaWithEndpoint<FaultyDma, Pipe> {
        let ddr = Ddr::shared();
        ddr.borrow_mut().add_region(BASE, 64);
        let mut faulty = FaultyDma::new(AxiDmaModel::new(ddr, LENGTH_WIDTH_BITS));
        faulty.inject(fault, from);
        DmaWithEndpoint {
            dma: faulty,
            endpoint: Pipe {
                taking: true,
                ..Pipe::default()
            },
        }
    }

    fn sr(bus: &mut impl RegisterBus, status: usize) -> Dmasr {
        Dmasr(bus.read32(status))
    }

    fn word(data: u32, last: bool) -> Beat {
        Beat { data, last }
    }

    #[test]
    fn reset_state_is_halted_and_not_idle() {
        let mut b = rig();
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr::HALTED);
        assert_eq!(sr(&mut b, o::S2MM_DMASR), Dmasr::HALTED);
        assert_eq!(b.read32(o::MM2S_DMACR), 0);
    }

    #[test]
    fn run_stop_clears_and_sets_halted() {
        let mut b = rig();
        b.write32(o::MM2S_DMACR, Dmacr::RS.bits());
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr(0), "running, not idle");
        assert_eq!(
            sr(&mut b, o::S2MM_DMASR),
            Dmasr::HALTED,
            "other channel untouched"
        );
        b.write32(o::MM2S_DMACR, 0);
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr::HALTED);
    }

    #[test]
    fn a_completed_transfer_is_idle_with_ioc() {
        let mut b = rig();
        b.dma
            .ddr()
            .borrow_mut()
            .range(BASE, 8)
            .unwrap()
            .copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        b.write32(o::MM2S_DMACR, Dmacr::RS.bits());
        b.write32(o::MM2S_SA, BASE);
        b.write32(o::MM2S_LENGTH, 6);
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr::IDLE | Dmasr::IOC_IRQ);
        // Two beats, TLAST on the second; the last beat's bytes past the
        // length are what DDR holds.
        assert_eq!(
            b.endpoint.input,
            vec![word(0x0403_0201, false), word(0x0807_0605, true)]
        );
        assert_eq!(b.dma.counts().mm2s_bytes, 6);
    }

    #[test]
    fn mm2s_completes_only_when_the_pl_took_every_beat() {
        let mut b = rig();
        b.endpoint.taking = false;
        b.write32(o::MM2S_DMACR, Dmacr::RS.bits());
        b.write32(o::MM2S_SA, BASE);
        b.write32(o::MM2S_LENGTH, 16);
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr(0));
        b.endpoint.pending = 0;
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr::IDLE | Dmasr::IOC_IRQ);
    }

    #[test]
    fn only_the_interrupt_bits_are_write_1_to_clear() {
        let mut b = rig();
        b.write32(o::MM2S_DMACR, Dmacr::RS.bits());
        b.write32(o::MM2S_SA, BASE);
        b.write32(o::MM2S_LENGTH, 4);
        let done = Dmasr::IDLE | Dmasr::IOC_IRQ;
        assert_eq!(sr(&mut b, o::MM2S_DMASR), done);
        // Writing 1 to Idle, Halted and the error bits changes nothing.
        b.write32(
            o::MM2S_DMASR,
            (Dmasr::IDLE | Dmasr::HALTED | Dmasr::ERRORS).bits(),
        );
        assert_eq!(sr(&mut b, o::MM2S_DMASR), done);
        // Writing 0 clears nothing either.
        b.write32(o::MM2S_DMASR, 0);
        assert_eq!(sr(&mut b, o::MM2S_DMASR), done);
        b.write32(o::MM2S_DMASR, Dmasr::IOC_IRQ.bits());
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr::IDLE);
        // Err_Irq too, and the error bit it reports stays.
        b.write32(o::MM2S_LENGTH, 0);
        let failed = sr(&mut b, o::MM2S_DMASR);
        assert!(failed.contains(Dmasr::DMA_INT_ERR | Dmasr::ERR_IRQ));
        b.write32(o::MM2S_DMASR, Dmasr::ERR_IRQ.bits());
        let after = sr(&mut b, o::MM2S_DMASR);
        assert!(after.contains(Dmasr::DMA_INT_ERR) && !after.intersects(Dmasr::ERR_IRQ));
    }

    #[test]
    fn soft_reset_resets_both_channels_and_drops_data_in_flight() {
        let mut b = rig();
        b.endpoint.taking = false;
        for cr in [o::MM2S_DMACR, o::S2MM_DMACR] {
            b.write32(cr, Dmacr::RS.bits());
        }
        b.write32(o::MM2S_SA, BASE);
        b.write32(o::MM2S_LENGTH, 64);
        b.write32(o::S2MM_DA, BASE + 512);
        b.write32(o::S2MM_LENGTH, 64);
        b.write32(o::S2MM_DMACR, Dmacr::RESET.bits());
        assert_eq!(
            b.read32(o::S2MM_DMACR) & Dmacr::RESET.bits(),
            0,
            "self-clearing"
        );
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr::HALTED);
        assert_eq!(sr(&mut b, o::S2MM_DMASR), Dmasr::HALTED);
        assert!(b.endpoint.input_drained(), "input in flight dropped");
        assert!(!b.endpoint.ready, "S2MM disarmed");
        // Output after the reset goes nowhere.
        b.endpoint.output.push_back(word(7, true));
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        assert_eq!(b.endpoint.output.len(), 1);
    }

    #[test]
    fn zero_length_is_an_internal_error_that_halts_the_channel() {
        let mut b = rig();
        for (cr, len, st) in [
            (o::MM2S_DMACR, o::MM2S_LENGTH, o::MM2S_DMASR),
            (o::S2MM_DMACR, o::S2MM_LENGTH, o::S2MM_DMASR),
        ] {
            b.write32(cr, Dmacr::RS.bits());
            b.write32(len, 0);
            assert_eq!(
                sr(&mut b, st),
                Dmasr::DMA_INT_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED
            );
            assert_eq!(b.read32(cr) & Dmacr::RS.bits(), 0, "RS cleared");
        }
    }

    #[test]
    fn addresses_outside_ddr_are_decode_errors() {
        let mut b = rig();
        b.write32(o::MM2S_DMACR, Dmacr::RS.bits());
        b.write32(o::MM2S_SA, 0x3000_0000);
        b.write32(o::MM2S_LENGTH, 8);
        assert_eq!(
            sr(&mut b, o::MM2S_DMASR),
            Dmasr::DMA_DEC_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED
        );
        // S2MM: the first beat that lands outside.
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        b.write32(o::S2MM_DA, BASE + 4092);
        b.write32(o::S2MM_LENGTH, 16);
        b.endpoint.output.extend([word(1, false), word(2, true)]);
        assert_eq!(
            sr(&mut b, o::S2MM_DMASR),
            Dmasr::DMA_DEC_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED
        );
    }

    #[test]
    fn slave_errors_come_from_the_fault_wrapper() {
        let mut b = faulty_rig(DmaFault::SlaveError(Some(Channel::S2mm)), 1);
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        b.write32(o::S2MM_DA, BASE);
        b.endpoint.output.push_back(word(5, true));
        b.write32(o::S2MM_LENGTH, 4); // transfer 0: before the fault
        assert_eq!(sr(&mut b, o::S2MM_DMASR), Dmasr::IDLE | Dmasr::IOC_IRQ);
        b.write32(o::S2MM_LENGTH, 4); // transfer 1: faulted
        assert_eq!(
            sr(&mut b, o::S2MM_DMASR),
            Dmasr::IOC_IRQ | Dmasr::DMA_SLV_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED
        );
    }

    /// A timed slave error: an armed S2MM keeps waiting until the given
    /// cycle, then halts with DMASlvErr; the fault fires once, and an idle
    /// channel at that cycle is left alone.
    #[test]
    fn a_timed_slave_error_halts_a_waiting_channel_once() {
        let mut b = faulty_rig(DmaFault::SlaveErrorAfter(Channel::S2mm, 100), 0);
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        b.write32(o::S2MM_DA, BASE);
        b.write32(o::S2MM_LENGTH, 8); // transfer 0: armed, no output yet
        assert_eq!(b.dma.cycles_to_next_event(), Some(100));
        b.dma.advance(99, &mut b.endpoint);
        assert_eq!(sr(&mut b, o::S2MM_DMASR), Dmasr(0), "still waiting");
        assert_eq!(b.dma.cycles_to_next_event(), Some(1));
        b.dma.advance(1, &mut b.endpoint);
        assert_eq!(
            sr(&mut b, o::S2MM_DMASR),
            Dmasr::DMA_SLV_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED
        );
        assert_eq!(b.dma.cycles_to_next_event(), None, "fired once");
        // After a reset the channel works again.
        b.write32(o::S2MM_DMACR, Dmacr::RESET.bits());
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        b.write32(o::S2MM_DA, BASE);
        b.endpoint.output.push_back(word(5, true));
        b.write32(o::S2MM_LENGTH, 4);
        assert_eq!(sr(&mut b, o::S2MM_DMASR), Dmasr::IDLE | Dmasr::IOC_IRQ);

        // Idle when the time comes: nothing happens.
        let mut b = faulty_rig(DmaFault::SlaveErrorAfter(Channel::S2mm, 10), 0);
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        b.write32(o::S2MM_DA, BASE);
        b.endpoint.output.push_back(word(7, true));
        b.write32(o::S2MM_LENGTH, 4);
        b.dma.advance(10, &mut b.endpoint);
        assert_eq!(sr(&mut b, o::S2MM_DMASR), Dmasr::IDLE | Dmasr::IOC_IRQ);
    }

    #[test]
    fn lengths_keep_only_the_configured_width() {
        let ddr = Ddr::shared();
        ddr.borrow_mut().add_region(BASE, 4096);
        let mut b = DmaWithEndpoint {
            dma: AxiDmaModel::new(ddr, 10),
            endpoint: Pipe {
                taking: true,
                ..Pipe::default()
            },
        };
        b.write32(o::MM2S_DMACR, Dmacr::RS.bits());
        b.write32(o::MM2S_SA, BASE);
        b.write32(o::MM2S_LENGTH, (1 << 10) + 8);
        assert_eq!(b.read32(o::MM2S_LENGTH), 8);
        assert_eq!(b.endpoint.input.len(), 2);
        // A length of exactly 2^width truncates to zero: an internal error.
        b.write32(o::MM2S_LENGTH, 1 << 10);
        assert!(sr(&mut b, o::MM2S_DMASR).contains(Dmasr::DMA_INT_ERR));
    }

    #[test]
    fn s2mm_ends_early_on_tlast_and_length_reads_back_the_bytes_received() {
        let mut b = rig();
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        b.write32(o::S2MM_DA, BASE);
        b.endpoint.output.extend([
            word(0x1111_1111, false),
            word(0x2222_2222, true),
            word(9, true),
        ]);
        b.write32(o::S2MM_LENGTH, 64);
        assert_eq!(sr(&mut b, o::S2MM_DMASR), Dmasr::IDLE | Dmasr::IOC_IRQ);
        assert_eq!(b.read32(o::S2MM_LENGTH), 8);
        assert_eq!(b.endpoint.output.len(), 1, "the next packet waits");
        assert!(!b.endpoint.ready, "no buffer: TREADY low");
        let ddr = b.dma.ddr().clone();
        let mut ddr = ddr.borrow_mut();
        let got = ddr.range(BASE, 12).unwrap();
        assert_eq!(&got[..8], &[0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22]);
        assert_eq!(got[8], crate::host::STALE_BYTE);
    }

    #[test]
    fn a_packet_longer_than_the_s2mm_buffer_is_an_internal_error() {
        let mut b = rig();
        b.write32(o::S2MM_DMACR, Dmacr::RS.bits());
        b.write32(o::S2MM_DA, BASE);
        b.endpoint
            .output
            .extend([word(1, false), word(2, false), word(3, true)]);
        b.write32(o::S2MM_LENGTH, 8);
        assert_eq!(
            sr(&mut b, o::S2MM_DMASR),
            Dmasr::DMA_INT_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED
        );
        assert!(
            b.endpoint.output.is_empty(),
            "the rest of the packet is dropped"
        );
    }

    #[test]
    fn a_length_write_to_a_halted_channel_does_nothing_and_is_recorded() {
        let mut b = rig();
        b.write32(o::MM2S_SA, BASE);
        b.write32(o::MM2S_LENGTH, 8);
        assert!(b.endpoint.input.is_empty());
        assert_eq!(sr(&mut b, o::MM2S_DMASR), Dmasr::HALTED);
        assert!(b.dma.errors()[0].contains("halted"));
    }
}

#[cfg(test)]
mod latency_tests {
    use super::*;
    use crate::host::Ddr;
    use ps_pl_contract::dma::LENGTH_WIDTH_BITS;
    use std::collections::VecDeque;

    /// Takes every beat at once; answers with queued beats.
    #[derive(Default)]
    struct Sink {
        input: Vec<Beat>,
        output: VecDeque<Beat>,
    }

    impl StreamEndpoint for Sink {
        fn push_input(&mut self, beats: &[Beat]) {
            self.input.extend_from_slice(beats);
        }
        fn input_drained(&self) -> bool {
            true
        }
        fn drop_input(&mut self) {}
        fn pop_output(&mut self) -> Option<Beat> {
            self.output.pop_front()
        }
        fn drop_output(&mut self) {}
        fn set_output_ready(&mut self, _: bool) {}
    }

    #[test]
    fn the_conservative_latencies_delay_the_first_beat_and_s2mm_completion() {
        let ddr = Ddr::shared();
        ddr.borrow_mut().add_region(0x1000, 64);
        let lat = DmaLatency::CONSERVATIVE;
        let mut dma = AxiDmaModel::new(ddr, LENGTH_WIDTH_BITS).with_latency(lat);
        let mut sink = Sink::default();
        for (reg, v) in [
            (o::MM2S_DMACR, Dmacr::RS.bits()),
            (o::MM2S_SA, 0x1000),
            (o::MM2S_LENGTH, 8),
        ] {
            dma.write(reg, v, &mut sink);
        }
        let mut first_beat_at = None;
        for cycle in 1..=200u32 {
            dma.clock(&mut sink);
            if first_beat_at.is_none() && !sink.input.is_empty() {
                first_beat_at = Some(cycle);
            }
        }
        assert_eq!(first_beat_at, Some(lat.first_beat_cycles));
        assert!(Dmasr(dma.read(o::MM2S_DMASR)).contains(Dmasr::IDLE));

        sink.output.push_back(Beat {
            data: 1,
            last: true,
        });
        for (reg, v) in [
            (o::S2MM_DMACR, Dmacr::RS.bits()),
            (o::S2MM_DA, 0x1020),
            (o::S2MM_LENGTH, 16),
        ] {
            dma.write(reg, v, &mut sink);
        }
        let mut done_at = None;
        for cycle in 1..=200u32 {
            dma.clock(&mut sink);
            if done_at.is_none() && Dmasr(dma.read(o::S2MM_DMASR)).contains(Dmasr::IDLE) {
                done_at = Some(cycle);
            }
        }
        assert_eq!(done_at, Some(lat.s2mm_completion_cycles));
        assert_eq!(dma.read(o::S2MM_LENGTH), 4);
    }
}
