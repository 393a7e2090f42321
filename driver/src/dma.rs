//! AXI DMA (Xilinx PG021) in simple (register direct) mode: one MM2S
//! transfer from a source buffer into the accelerator stream and one S2MM
//! transfer of the accelerator's answer into a destination buffer, with the
//! cache maintenance that makes both sides see the same bytes.
//!
//! Registers, their typed values and the engine's configuration come from
//! [`ps_pl_contract::dma`], the contract shared with the Vivado script and
//! the host models.
//!
//! The transfer is synchronous and bounded: it polls the status registers a
//! fixed number of times and, on timeout or a reported error, resets the
//! engine so it stops writing into the destination before the borrow ends.

use crate::bus::RegisterBus;
use crate::cache::{is_line_aligned, CacheMaintenance};
use crate::poll::{poll_until, PollTimeout};
use ps_pl_contract::dma::{
    self as reg, BusAddress, ChannelRegisters, Dmacr, Dmasr, Length, MM2S, S2MM,
};

/// Which half of the engine reported something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Memory to stream (CPU buffer to accelerator).
    Mm2s,
    /// Stream to memory (accelerator to CPU buffer).
    S2mm,
}

/// Why a transfer was refused or failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DmaError {
    /// Source or destination is empty.
    Empty,
    /// A buffer exceeds the engine's length register width.
    TooLong {
        /// Buffer length.
        len: usize,
        /// Largest length the configured core accepts.
        max: usize,
    },
    /// The destination does not cover whole cache lines (32-byte aligned
    /// start and length), so invalidating it could lose neighbouring data.
    MisalignedDestination,
    /// A buffer lies outside what the DMA engine can address.
    Unreachable,
    /// The engine reported DMAIntErr/DMASlvErr/DMADecErr.
    Device {
        /// Channel that reported the error.
        channel: Channel,
        /// Its DMASR value.
        status: u32,
    },
    /// The transfer did not complete within the poll budget.
    Timeout {
        /// MM2S DMASR at the last poll.
        mm2s_status: u32,
        /// S2MM DMASR at the last poll.
        s2mm_status: u32,
    },
    /// The caller stopped waiting ([`AxiDma::transfer_while`]: its
    /// accelerator ended the request without the stream, e.g. refused it);
    /// the engine was reset.
    Stopped {
        /// MM2S DMASR at the last poll.
        mm2s_status: u32,
        /// S2MM DMASR at the last poll.
        s2mm_status: u32,
    },
    /// The soft reset did not complete: the engine may still be writing.
    ResetStuck,
    /// A cache maintenance operation timed out.
    Cache(PollTimeout),
}

impl From<PollTimeout> for DmaError {
    fn from(t: PollTimeout) -> Self {
        DmaError::Cache(t)
    }
}

/// Maps CPU buffers to the engine's 32-bit bus addresses.
pub trait AddressMap {
    /// The bus address of `buf`'s first byte, if the engine can reach all of `buf`.
    fn bus_address(&self, buf: &[u8]) -> Option<u32>;
}

/// The Zynq-7000 mapping: MMU one-to-one, so a pointer is the bus address.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdentityMap;

impl AddressMap for IdentityMap {
    fn bus_address(&self, buf: &[u8]) -> Option<u32> {
        let start = u32::try_from(buf.as_ptr() as usize).ok()?;
        start.checked_add(u32::try_from(buf.len()).ok()?)?;
        Some(start)
    }
}

/// A region of CPU memory that the engine sees at `bus_base` onwards: a
/// buffer inside the region has bus address `bus_base` + its offset in the
/// region. Host models of the PL use it (their DDR model holds the region at
/// `bus_base`); so would a system whose DMA sees memory through an offset.
#[derive(Clone, Copy, Debug)]
pub struct OffsetMap {
    cpu_start: usize,
    len: usize,
    bus_base: u32,
}

impl OffsetMap {
    /// The `len` bytes of CPU memory from address `cpu_start`, seen by the
    /// engine from `bus_base`.
    pub fn new(cpu_start: usize, len: usize, bus_base: u32) -> Self {
        OffsetMap {
            cpu_start,
            len,
            bus_base,
        }
    }

    /// Bytes in the region.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the region is empty (reaches nothing).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl AddressMap for OffsetMap {
    fn bus_address(&self, buf: &[u8]) -> Option<u32> {
        let at = (buf.as_ptr() as usize).checked_sub(self.cpu_start)?;
        if at.checked_add(buf.len())? > self.len {
            return None;
        }
        let start = self.bus_base.checked_add(u32::try_from(at).ok()?)?;
        start.checked_add(u32::try_from(buf.len()).ok()?)?;
        Some(start)
    }
}

/// An AXI DMA core in simple mode behind a register bus.
pub struct AxiDma<B> {
    bus: B,
    max_len: usize,
    poll_limit: u32,
}

impl<B: RegisterBus> AxiDma<B> {
    /// `length_width` is the core's "Width of Buffer Length Register"
    /// (8..=26 bits; the design's is [`reg::LENGTH_WIDTH_BITS`]);
    /// `poll_limit` bounds every wait.
    pub fn new(bus: B, length_width: u32, poll_limit: u32) -> Self {
        let width = length_width.clamp(8, 26);
        AxiDma {
            bus,
            max_len: (1usize << width) - 1,
            poll_limit,
        }
    }

    /// Largest transfer in bytes.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// The register bus (for probing and tests).
    pub fn bus(&mut self) -> &mut B {
        &mut self.bus
    }

    /// Soft-resets both channels and waits until the reset bit clears.
    pub fn reset(&mut self) -> Result<(), DmaError> {
        self.bus.write(reg::MM2S_DMACR, Dmacr::RESET);
        let bus = &mut self.bus;
        poll_until(self.poll_limit, || {
            (!bus.read(reg::MM2S_DMACR).intersects(Dmacr::RESET)).then_some(())
        })
        .map_err(|_| DmaError::ResetStuck)
    }

    /// Streams `src` to the accelerator and receives its answer into `dst`;
    /// returns the number of bytes received (the stream may end early with
    /// TLAST). Cleans `src`, invalidates `dst` before and after.
    pub fn transfer(
        &mut self,
        cache: &mut impl CacheMaintenance,
        map: &impl AddressMap,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<usize, DmaError> {
        self.transfer_while(cache, map, src, dst, || true)
    }

    /// [`AxiDma::transfer`] for an accelerator that may end a request
    /// without answering on the stream: `running` is asked on every poll
    /// while the channels are busy (e.g. it reads the core's status), and
    /// once it says no the engine is reset and the transfer ends with
    /// [`DmaError::Stopped`] instead of waiting out the poll budget.
    pub fn transfer_while(
        &mut self,
        cache: &mut impl CacheMaintenance,
        map: &impl AddressMap,
        src: &[u8],
        dst: &mut [u8],
        running: impl FnMut() -> bool,
    ) -> Result<usize, DmaError> {
        let source = self.check_source(map, src)?;
        let destination = self.check_destination(map, dst)?;
        cache.clean(src)?;
        // Drop destination lines now so no dirty line is evicted over the
        // engine's writes during the transfer.
        cache.invalidate(dst)?;
        self.clear_status();
        // Arm the receiver first: an MM2S stream with no S2MM buffer would
        // stall the accelerator's output.
        self.arm_s2mm(destination, dst.len());
        self.start_mm2s(source, src.len());
        self.wait_while(true, true, running)?;
        self.finish_s2mm(cache, dst)
    }

    /// Streams `src` to the accelerator (MM2S only, for cores that answer
    /// nothing on the stream, e.g. the NTT core's load). Cleans `src` first.
    pub fn send(
        &mut self,
        cache: &mut impl CacheMaintenance,
        map: &impl AddressMap,
        src: &[u8],
    ) -> Result<(), DmaError> {
        let source = self.check_source(map, src)?;
        cache.clean(src)?;
        self.clear_status();
        self.start_mm2s(source, src.len());
        self.wait_while(true, false, || true)?;
        self.clear_status();
        Ok(())
    }

    /// Receives the accelerator's stream into `dst` (S2MM only, for output
    /// that needs no input, e.g. the NTT core's store); returns the number
    /// of bytes received. Invalidates `dst` before and after.
    pub fn receive(
        &mut self,
        cache: &mut impl CacheMaintenance,
        map: &impl AddressMap,
        dst: &mut [u8],
    ) -> Result<usize, DmaError> {
        let destination = self.check_destination(map, dst)?;
        cache.invalidate(dst)?;
        self.clear_status();
        self.arm_s2mm(destination, dst.len());
        self.wait_while(false, true, || true)?;
        self.finish_s2mm(cache, dst)
    }

    fn check_len(&self, len: usize) -> Result<(), DmaError> {
        if len == 0 {
            return Err(DmaError::Empty);
        }
        if len > self.max_len {
            return Err(DmaError::TooLong {
                len,
                max: self.max_len,
            });
        }
        Ok(())
    }

    fn check_source(&self, map: &impl AddressMap, src: &[u8]) -> Result<u32, DmaError> {
        self.check_len(src.len())?;
        map.bus_address(src).ok_or(DmaError::Unreachable)
    }

    fn check_destination(&self, map: &impl AddressMap, dst: &[u8]) -> Result<u32, DmaError> {
        self.check_len(dst.len())?;
        if !is_line_aligned(dst) {
            return Err(DmaError::MisalignedDestination);
        }
        map.bus_address(dst).ok_or(DmaError::Unreachable)
    }

    fn clear_status(&mut self) {
        let clear = Dmasr::IOC_IRQ | Dmasr::ERR_IRQ;
        self.bus.write(reg::S2MM_DMASR, clear);
        self.bus.write(reg::MM2S_DMASR, clear);
    }

    fn start(&mut self, channel: ChannelRegisters, address: u32, len: usize) {
        self.bus.write(channel.dmacr, Dmacr::RS);
        self.bus.write(channel.address, BusAddress(address));
        // check_len bounds len by max_len < 2^26.
        self.bus.write(channel.length, Length(len as u32));
    }

    fn arm_s2mm(&mut self, destination: u32, len: usize) {
        self.start(S2MM, destination, len);
    }

    fn start_mm2s(&mut self, source: u32, len: usize) {
        self.start(MM2S, source, len);
    }

    /// Polls the channels in use until both are idle; on an error, a
    /// timeout or `running` saying no (asked while they are busy) resets
    /// the engine (so it stops writing) and reports.
    fn wait_while(
        &mut self,
        mm2s_used: bool,
        s2mm_used: bool,
        mut running: impl FnMut() -> bool,
    ) -> Result<(), DmaError> {
        let done = Dmasr::IOC_IRQ | Dmasr::IDLE;
        let mut last = (Dmasr(0), Dmasr(0));
        let mut stopped = false;
        let bus = &mut self.bus;
        let outcome = poll_until(self.poll_limit, || {
            let mm2s = if mm2s_used {
                bus.read(reg::MM2S_DMASR)
            } else {
                done
            };
            let s2mm = if s2mm_used {
                bus.read(reg::S2MM_DMASR)
            } else {
                done
            };
            last = (mm2s, s2mm);
            if mm2s.intersects(Dmasr::ERRORS) {
                Some(Err((Channel::Mm2s, mm2s)))
            } else if s2mm.intersects(Dmasr::ERRORS) {
                Some(Err((Channel::S2mm, s2mm)))
            } else if mm2s.contains(done) && s2mm.contains(done) {
                Some(Ok(()))
            } else if !running() {
                stopped = true;
                Some(Ok(()))
            } else {
                None
            }
        });
        match outcome {
            Ok(Ok(())) if stopped => {
                self.reset()?;
                Err(DmaError::Stopped {
                    mm2s_status: last.0.bits(),
                    s2mm_status: last.1.bits(),
                })
            }
            Ok(Ok(())) => Ok(()),
            Ok(Err((channel, status))) => {
                self.reset()?;
                Err(DmaError::Device {
                    channel,
                    status: status.bits(),
                })
            }
            Err(_) => {
                self.reset()?;
                Err(DmaError::Timeout {
                    mm2s_status: last.0.bits(),
                    s2mm_status: last.1.bits(),
                })
            }
        }
    }

    fn finish_s2mm(
        &mut self,
        cache: &mut impl CacheMaintenance,
        dst: &mut [u8],
    ) -> Result<usize, DmaError> {
        let received = self.bus.read(reg::S2MM_LENGTH).0 as usize;
        self.clear_status();
        // Lines the CPU may have speculatively fetched during the transfer.
        cache.invalidate(dst)?;
        Ok(received.min(dst.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{
        AxiDmaModel, Beat, CacheModel, Ddr, DmaFault, DmaWithEndpoint, FaultyDma, HostEvent,
        SharedDdr, StreamEndpoint, Trace,
    };
    use std::collections::VecDeque;
    use std::vec::Vec;

    const BUS_BASE: u32 = 0x0100_0000;
    const STALE: u8 = crate::host::STALE_BYTE;
    use ps_pl_contract::dma::offset as off;

    #[derive(Clone, Copy, PartialEq)]
    enum Behaviour {
        /// Answer = source with every byte plus one (stands in for a core).
        Increment,
        /// Answer only the first n bytes, then TLAST.
        Short(usize),
        /// Never takes its input.
        Hang,
        /// A stream source: n bytes `0xA0 + i`, ready from the start.
        Source(usize),
    }

    /// The PL side of the test: what it received and what it answers.
    struct TestCore {
        behaviour: Behaviour,
        streamed: Vec<u8>,
        pending: usize,
        output: VecDeque<Beat>,
    }

    fn beats(bytes: &[u8]) -> VecDeque<Beat> {
        let n = bytes.len().div_ceil(4);
        bytes
            .chunks(4)
            .enumerate()
            .map(|(i, c)| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                Beat {
                    data: u32::from_le_bytes(w),
                    last: i + 1 == n,
                }
            })
            .collect()
    }

    impl TestCore {
        fn new(behaviour: Behaviour) -> Self {
            let output = match behaviour {
                Behaviour::Source(n) => beats(
                    &(0..n)
                        .map(|i| 0xA0u8.wrapping_add(i as u8))
                        .collect::<Vec<_>>(),
                ),
                _ => VecDeque::new(),
            };
            TestCore {
                behaviour,
                streamed: Vec::new(),
                pending: 0,
                output,
            }
        }
    }

    impl StreamEndpoint for TestCore {
        fn push_input(&mut self, input: &[Beat]) {
            if self.behaviour == Behaviour::Hang {
                self.pending += input.len();
                return;
            }
            let bytes: Vec<u8> = input.iter().flat_map(|b| b.data.to_le_bytes()).collect();
            self.streamed.extend_from_slice(&bytes);
            let mut answer: Vec<u8> = bytes.iter().map(|b| b.wrapping_add(1)).collect();
            if let Behaviour::Short(n) = self.behaviour {
                answer.truncate(n);
            }
            self.output = beats(&answer);
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
        fn set_output_ready(&mut self, _ready: bool) {}
    }

    type TestBus = DmaWithEndpoint<FaultyDma, TestCore>;

    #[repr(C, align(32))]
    struct Arena([u8; 512]);

    struct Rig {
        arena: Arena,
        ddr: SharedDdr,
        trace: Trace,
        dma: AxiDma<TestBus>,
    }

    fn rig_with(behaviour: Behaviour, fault: Option<DmaFault>) -> Rig {
        let ddr = Ddr::shared();
        ddr.borrow_mut().add_region(BUS_BASE, 512);
        let trace = Trace::default();
        let mut faulty =
            FaultyDma::new(AxiDmaModel::new(ddr.clone(), 14).with_trace(trace.clone()));
        if let Some(f) = fault {
            faulty.inject(f, 0);
        }
        let dma = AxiDma::new(
            DmaWithEndpoint {
                dma: faulty,
                endpoint: TestCore::new(behaviour),
            },
            14,
            100,
        );
        Rig {
            arena: Arena([0; 512]),
            ddr,
            trace,
            dma,
        }
    }

    fn rig(behaviour: Behaviour) -> Rig {
        rig_with(behaviour, None)
    }

    fn sim_cache(rig: &Rig) -> (OffsetMap, CacheModel) {
        let map = OffsetMap::new(rig.arena.0.as_ptr() as usize, 512, BUS_BASE);
        let cache = CacheModel::new(rig.ddr.clone(), map).with_trace(rig.trace.clone());
        (map, cache)
    }

    /// Runs one transfer of 100 source bytes into a 128-byte destination.
    fn run(rig: &mut Rig) -> (Result<usize, DmaError>, Vec<u8>) {
        let (map, mut cache) = sim_cache(rig);
        let (dst, src) = rig.arena.0.split_at_mut(256);
        for (i, b) in src.iter_mut().enumerate() {
            *b = i as u8;
        }
        let dst = &mut dst[..128];
        dst.fill(0x55); // what the CPU's cache holds before the transfer
        let got = rig.dma.transfer(&mut cache, &map, &src[..100], dst);
        (got, dst.to_vec())
    }

    #[test]
    fn round_trip_sees_cleaned_source_and_invalidated_answer() {
        let mut rig = rig(Behaviour::Increment);
        let (got, dst) = run(&mut rig);
        assert_eq!(got, Ok(100));
        let expected: Vec<u8> = (0..100u8).map(|i| i + 1).collect();
        assert_eq!(&dst[..100], &expected[..]);
        // Bytes the engine did not write read back as memory held them.
        assert!(dst[100..].iter().all(|&b| b == STALE));
    }

    #[test]
    fn receiver_is_armed_before_the_stream_starts_and_caches_bracket_it() {
        let mut rig = rig(Behaviour::Increment);
        run(&mut rig).0.unwrap();
        let log = rig.trace.events();
        let at = |e: &HostEvent| log.iter().position(|x| x == e).unwrap();
        let src_bus = BUS_BASE + 256;
        let clean = at(&HostEvent::Clean(src_bus, 100));
        let s2mm_len = at(&HostEvent::DmaWrite(off::S2MM_LENGTH, 128));
        let mm2s_len = at(&HostEvent::DmaWrite(off::MM2S_LENGTH, 100));
        let last_invalidate = log
            .iter()
            .rposition(|e| *e == HostEvent::Invalidate(BUS_BASE, 128))
            .unwrap();
        assert!(clean < s2mm_len && s2mm_len < mm2s_len && mm2s_len < last_invalidate);
        assert!(log.contains(&HostEvent::DmaWrite(off::MM2S_SA, src_bus)));
        assert!(log.contains(&HostEvent::DmaWrite(off::S2MM_DA, BUS_BASE)));
    }

    #[test]
    fn a_short_stream_reports_the_bytes_received() {
        let mut rig = rig(Behaviour::Short(40));
        let (got, dst) = run(&mut rig);
        assert_eq!(got, Ok(40));
        assert_eq!(dst[39], 40);
        assert_eq!(dst[40], STALE);
    }

    #[test]
    fn a_hung_engine_times_out_and_is_reset() {
        let mut rig = rig(Behaviour::Hang);
        let (got, _) = run(&mut rig);
        assert!(matches!(got, Err(DmaError::Timeout { .. })), "{got:?}");
        assert_eq!(
            rig.trace.events().last(),
            Some(&HostEvent::DmaWrite(off::MM2S_DMACR, Dmacr::RESET.bits()))
        );
    }

    /// `transfer_while` stops a transfer its caller gives up on at the
    /// poll where `running` says no (not at the budget), and resets the
    /// engine; a transfer that completes never asks again.
    #[test]
    fn a_transfer_the_caller_stops_ends_at_once_and_is_reset() {
        let mut rig = rig(Behaviour::Hang);
        let (map, mut cache) = sim_cache(&rig);
        let (dst, src) = rig.arena.0.split_at_mut(256);
        let mut asked = 0;
        let got = rig
            .dma
            .transfer_while(&mut cache, &map, &src[..64], &mut dst[..128], || {
                asked += 1;
                asked < 3
            });
        assert!(matches!(got, Err(DmaError::Stopped { .. })), "{got:?}");
        assert_eq!(asked, 3, "stopped at the third poll, budget 100");
        assert_eq!(
            rig.trace.events().last(),
            Some(&HostEvent::DmaWrite(off::MM2S_DMACR, Dmacr::RESET.bits()))
        );
        let mut rig = rig_with(Behaviour::Increment, None);
        let (map, mut cache) = sim_cache(&rig);
        let (dst, src) = rig.arena.0.split_at_mut(256);
        let mut asked = 0;
        let got = rig
            .dma
            .transfer_while(&mut cache, &map, &src[..64], &mut dst[..128], || {
                asked += 1;
                false
            });
        assert_eq!((got, asked), (Ok(64), 0));
    }

    #[test]
    fn a_reset_that_never_completes_is_reported() {
        let mut rig = rig_with(Behaviour::Hang, Some(DmaFault::StuckReset));
        assert_eq!(run(&mut rig).0, Err(DmaError::ResetStuck));
    }

    #[test]
    fn device_errors_are_reported_with_their_status() {
        let mut rig = rig_with(
            Behaviour::Increment,
            Some(DmaFault::SlaveError(Some(Channel::S2mm))),
        );
        let (got, _) = run(&mut rig);
        assert_eq!(
            got,
            Err(DmaError::Device {
                channel: Channel::S2mm,
                status: (Dmasr::DMA_SLV_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED).bits()
            })
        );
    }

    #[test]
    fn bad_buffers_are_refused_before_touching_the_engine() {
        let mut rig = rig(Behaviour::Increment);
        let (map, mut cache) = sim_cache(&rig);
        let (dst, src) = rig.arena.0.split_at_mut(256);
        let e = rig
            .dma
            .transfer(&mut cache, &map, &src[..10], &mut dst[8..40]);
        assert_eq!(e, Err(DmaError::MisalignedDestination));
        let e = rig
            .dma
            .transfer(&mut cache, &map, &src[..10], &mut dst[..33]);
        assert_eq!(e, Err(DmaError::MisalignedDestination));
        let e = rig.dma.transfer(&mut cache, &map, &[], &mut dst[..32]);
        assert_eq!(e, Err(DmaError::Empty));
        let outside = [0u8; 64];
        let e = rig.dma.transfer(&mut cache, &map, &outside, &mut dst[..32]);
        assert_eq!(e, Err(DmaError::Unreachable));
        let mut small = AxiDma::new(
            DmaWithEndpoint {
                dma: AxiDmaModel::new(rig.ddr.clone(), 8).with_trace(rig.trace.clone()),
                endpoint: TestCore::new(Behaviour::Increment),
            },
            8,
            10,
        );
        let e = small.transfer(&mut cache, &map, &src[..], &mut dst[..32]);
        assert_eq!(e, Err(DmaError::TooLong { len: 256, max: 255 }));
        assert!(rig.trace.events().is_empty(), "nothing touched");
    }

    #[test]
    fn offset_map_reaches_exactly_its_region() {
        let arena = [0u8; 64];
        let map = OffsetMap::new(arena.as_ptr() as usize, 32, 0x1000);
        assert_eq!(map.bus_address(&arena[..32]), Some(0x1000));
        assert_eq!(map.bus_address(&arena[8..16]), Some(0x1008));
        // Past the region's end, or before its start.
        assert_eq!(map.bus_address(&arena[16..40]), None);
        let inner = OffsetMap::new(arena.as_ptr() as usize + 8, 32, 0x1000);
        assert_eq!(inner.bus_address(&arena[..16]), None);
        // A bus address that would pass 2^32 is refused, not wrapped.
        let high = OffsetMap::new(arena.as_ptr() as usize, 64, u32::MAX - 16);
        assert_eq!(high.bus_address(&arena[..8]), Some(u32::MAX - 16));
        assert_eq!(high.bus_address(&arena[..32]), None);
        assert!(OffsetMap::new(0, 0, 0).is_empty());
    }

    #[test]
    fn send_streams_the_cleaned_source_and_leaves_s2mm_alone() {
        let mut rig = rig(Behaviour::Increment);
        let (map, mut cache) = sim_cache(&rig);
        let src = &mut rig.arena.0[256..356];
        for (i, b) in src.iter_mut().enumerate() {
            *b = (i * 3) as u8;
        }
        rig.dma.send(&mut cache, &map, src).unwrap();
        assert_eq!(rig.dma.bus().endpoint.streamed, src.to_vec());
        let log = rig.trace.events();
        let clean = log
            .iter()
            .position(|e| *e == HostEvent::Clean(BUS_BASE + 256, 100));
        let start = log
            .iter()
            .position(|e| *e == HostEvent::DmaWrite(off::MM2S_LENGTH, 100));
        assert!(clean.unwrap() < start.unwrap());
        assert!(!log.iter().any(|e| matches!(
            e,
            HostEvent::DmaWrite(off::S2MM_LENGTH | off::S2MM_DMACR, _)
        )));
    }

    #[test]
    fn receive_takes_a_stream_with_no_source_and_invalidates_around_it() {
        let mut rig = rig(Behaviour::Source(40));
        let (map, mut cache) = sim_cache(&rig);
        let dst = &mut rig.arena.0[..128];
        dst.fill(0x55);
        assert_eq!(rig.dma.receive(&mut cache, &map, dst), Ok(40));
        assert_eq!(dst[0], 0xA0);
        assert_eq!(dst[39], 0xA0 + 39);
        assert_eq!(dst[40], STALE);
        let log = rig.trace.events();
        let inv: Vec<usize> = log
            .iter()
            .enumerate()
            .filter(|(_, e)| **e == HostEvent::Invalidate(BUS_BASE, 128))
            .map(|(i, _)| i)
            .collect();
        let arm = log
            .iter()
            .position(|e| *e == HostEvent::DmaWrite(off::S2MM_LENGTH, 128));
        assert_eq!(inv.len(), 2);
        assert!(inv[0] < arm.unwrap() && arm.unwrap() < inv[1]);
        assert!(!log.iter().any(|e| matches!(
            e,
            HostEvent::DmaWrite(off::MM2S_LENGTH | off::MM2S_DMACR, _)
        )));
    }

    #[test]
    fn one_direction_transfers_time_out_report_errors_and_reset() {
        let mut rig = rig(Behaviour::Hang);
        let (map, mut cache) = sim_cache(&rig);
        let (dst, src) = rig.arena.0.split_at_mut(256);
        let got = rig.dma.send(&mut cache, &map, &src[..64]);
        assert!(matches!(got, Err(DmaError::Timeout { .. })), "{got:?}");
        let got = rig.dma.receive(&mut cache, &map, &mut dst[..64]);
        assert!(matches!(got, Err(DmaError::Timeout { .. })), "{got:?}");
        assert_eq!(
            rig.trace.events().last(),
            Some(&HostEvent::DmaWrite(off::MM2S_DMACR, Dmacr::RESET.bits()))
        );
        let mut rig2 = rig_with(
            Behaviour::Increment,
            Some(DmaFault::SlaveError(Some(Channel::Mm2s))),
        );
        let (map2, mut cache2) = sim_cache(&rig2);
        let src = &rig2.arena.0[256..300];
        let got = rig2.dma.send(&mut cache2, &map2, src);
        assert!(
            matches!(
                got,
                Err(DmaError::Device {
                    channel: Channel::Mm2s,
                    ..
                })
            ),
            "{got:?}"
        );
        assert_eq!(
            rig.dma.receive(&mut cache, &map, &mut dst[8..40]),
            Err(DmaError::MisalignedDestination)
        );
        assert_eq!(rig.dma.send(&mut cache, &map, &[]), Err(DmaError::Empty));
    }

    #[test]
    fn identity_map_rejects_buffers_beyond_32_bits_only() {
        let buf = [0u8; 8];
        let fits = (buf.as_ptr() as usize) < (u32::MAX as usize - 8);
        assert_eq!(IdentityMap.bus_address(&buf).is_some(), fits);
    }
}
