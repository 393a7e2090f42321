//! AXI DMA (Xilinx PG021) in simple (register direct) mode: one MM2S
//! transfer from a source buffer into the accelerator stream and one S2MM
//! transfer of the accelerator's answer into a destination buffer, with the
//! cache maintenance that makes both sides see the same bytes.
//!
//! Register offsets and bits come from [`crate::regmap::dma`], the map
//! shared with the HDL.
//!
//! The transfer is synchronous and bounded: it polls the status registers a
//! fixed number of times and, on timeout or a reported error, resets the
//! engine so it stops writing into the destination before the borrow ends.

use crate::bus::RegisterBus;
use crate::cache::{is_line_aligned, CacheMaintenance};
use crate::poll::{poll_until, PollTimeout};
use crate::regmap::dma as reg;

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
    /// (8..=26 bits, 14 by default in Vivado); `poll_limit` bounds every wait.
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
        self.bus.write32(reg::MM2S_DMACR, reg::DMACR_RESET);
        let bus = &mut self.bus;
        poll_until(self.poll_limit, || {
            (bus.read32(reg::MM2S_DMACR) & reg::DMACR_RESET == 0).then_some(())
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
        self.wait(true, true)?;
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
        self.wait(true, false)?;
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
        self.wait(false, true)?;
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
        let clear = reg::DMASR_IOC_IRQ | reg::DMASR_ERR_IRQ;
        self.bus.write32(reg::S2MM_DMASR, clear);
        self.bus.write32(reg::MM2S_DMASR, clear);
    }

    fn arm_s2mm(&mut self, destination: u32, len: usize) {
        self.bus.write32(reg::S2MM_DMACR, reg::DMACR_RS);
        self.bus.write32(reg::S2MM_DA, destination);
        self.bus.write32(reg::S2MM_LENGTH, len as u32);
    }

    fn start_mm2s(&mut self, source: u32, len: usize) {
        self.bus.write32(reg::MM2S_DMACR, reg::DMACR_RS);
        self.bus.write32(reg::MM2S_SA, source);
        self.bus.write32(reg::MM2S_LENGTH, len as u32);
    }

    /// Polls the channels in use until both are idle; on an error or a
    /// timeout resets the engine (so it stops writing) and reports.
    fn wait(&mut self, mm2s_used: bool, s2mm_used: bool) -> Result<(), DmaError> {
        let done = reg::DMASR_IOC_IRQ | reg::DMASR_IDLE;
        let mut last = (0, 0);
        let bus = &mut self.bus;
        let outcome = poll_until(self.poll_limit, || {
            let mm2s = if mm2s_used {
                bus.read32(reg::MM2S_DMASR)
            } else {
                done
            };
            let s2mm = if s2mm_used {
                bus.read32(reg::S2MM_DMASR)
            } else {
                done
            };
            last = (mm2s, s2mm);
            if mm2s & reg::DMASR_ERRORS != 0 {
                Some(Err((Channel::Mm2s, mm2s)))
            } else if s2mm & reg::DMASR_ERRORS != 0 {
                Some(Err((Channel::S2mm, s2mm)))
            } else if mm2s & done == done && s2mm & done == done {
                Some(Ok(()))
            } else {
                None
            }
        });
        match outcome {
            Ok(Ok(())) => Ok(()),
            Ok(Err((channel, status))) => {
                self.reset()?;
                Err(DmaError::Device { channel, status })
            }
            Err(_) => {
                self.reset()?;
                Err(DmaError::Timeout {
                    mm2s_status: last.0,
                    s2mm_status: last.1,
                })
            }
        }
    }

    fn finish_s2mm(
        &mut self,
        cache: &mut impl CacheMaintenance,
        dst: &mut [u8],
    ) -> Result<usize, DmaError> {
        let received = self.bus.read32(reg::S2MM_LENGTH) as usize;
        self.clear_status();
        // Lines the CPU may have speculatively fetched during the transfer.
        cache.invalidate(dst)?;
        Ok(received.min(dst.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::vec::Vec;

    const BUS_BASE: u32 = 0x0100_0000;
    const STALE: u8 = 0xEE;

    #[derive(Clone, Debug, PartialEq)]
    enum Event {
        Clean(u32, usize),
        Invalidate(u32, usize),
        Write(usize, u32),
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Behaviour {
        /// Answer = source with every byte plus one (stands in for a core).
        Increment,
        /// Answer only the first n bytes, then TLAST.
        Short(usize),
        /// Never completes.
        Hang,
        /// Reports a slave error on S2MM.
        SlaveError,
        /// Reset never clears.
        HangAndStuckReset,
        /// A stream source: n bytes `0xA0 + i` as soon as S2MM is armed.
        Source(usize),
    }

    /// What DDR holds (the engine's view) and the event log.
    struct System {
        memory: Vec<u8>,
        log: Vec<Event>,
        /// What the engine read from memory on MM2S.
        streamed: Vec<u8>,
    }

    impl System {
        fn range(&mut self, addr: u32, len: usize) -> &mut [u8] {
            let at = (addr - BUS_BASE) as usize;
            &mut self.memory[at..at + len]
        }
    }

    /// A write-back cache model: the engine sees CPU writes only after a
    /// clean, the CPU sees engine writes only after an invalidate.
    struct SimCache {
        system: Rc<RefCell<System>>,
        map: OffsetMap,
    }

    impl CacheMaintenance for SimCache {
        fn clean(&mut self, buf: &[u8]) -> Result<(), PollTimeout> {
            let addr = self.map.bus_address(buf).unwrap();
            let mut s = self.system.borrow_mut();
            s.range(addr, buf.len()).copy_from_slice(buf);
            s.log.push(Event::Clean(addr, buf.len()));
            Ok(())
        }
        fn invalidate(&mut self, buf: &mut [u8]) -> Result<(), PollTimeout> {
            assert!(is_line_aligned(buf));
            let addr = self.map.bus_address(buf).unwrap();
            let mut s = self.system.borrow_mut();
            buf.copy_from_slice(s.range(addr, buf.len()));
            s.log.push(Event::Invalidate(addr, buf.len()));
            Ok(())
        }
    }

    struct SimDma {
        system: Rc<RefCell<System>>,
        behaviour: Behaviour,
        regs: [u32; 0x60 / 4],
    }

    impl SimDma {
        fn start_stream(&mut self) {
            let r = |o: usize| o / 4;
            let s2mm_armed = self.regs[r(reg::S2MM_DMACR)] & reg::DMACR_RS != 0
                && self.regs[r(reg::S2MM_LENGTH)] != 0;
            let (sa, len) = (
                self.regs[r(reg::MM2S_SA)],
                self.regs[r(reg::MM2S_LENGTH)] as usize,
            );
            let (da, room) = (
                self.regs[r(reg::S2MM_DA)],
                self.regs[r(reg::S2MM_LENGTH)] as usize,
            );
            match self.behaviour {
                Behaviour::Hang | Behaviour::HangAndStuckReset | Behaviour::Source(_) => return,
                Behaviour::SlaveError => {
                    self.regs[r(reg::S2MM_DMASR)] |= 1 << 5;
                    return;
                }
                _ => {}
            }
            self.regs[r(reg::MM2S_DMASR)] |= reg::DMASR_IOC_IRQ | reg::DMASR_IDLE;
            let streamed = self.system.borrow_mut().range(sa, len).to_vec();
            self.system.borrow_mut().streamed = streamed;
            if !s2mm_armed {
                return; // stream data lost: the receiver never completes
            }
            let mut s = self.system.borrow_mut();
            let mut answer: Vec<u8> = s.range(sa, len).iter().map(|b| b.wrapping_add(1)).collect();
            if let Behaviour::Short(n) = self.behaviour {
                answer.truncate(n);
            }
            answer.truncate(room);
            s.range(da, answer.len()).copy_from_slice(&answer);
            self.regs[r(reg::S2MM_LENGTH)] = answer.len() as u32;
            self.regs[r(reg::S2MM_DMASR)] |= reg::DMASR_IOC_IRQ | reg::DMASR_IDLE;
        }
    }

    impl RegisterBus for SimDma {
        fn read32(&mut self, offset: usize) -> u32 {
            self.regs[offset / 4]
        }
        fn write32(&mut self, offset: usize, value: u32) {
            self.system
                .borrow_mut()
                .log
                .push(Event::Write(offset, value));
            match offset {
                reg::MM2S_DMASR | reg::S2MM_DMASR => self.regs[offset / 4] &= !value,
                reg::MM2S_DMACR if value & reg::DMACR_RESET != 0 => {
                    if self.behaviour == Behaviour::HangAndStuckReset {
                        self.regs[offset / 4] = value;
                    } else {
                        self.regs = [0; 0x60 / 4];
                        self.regs[reg::MM2S_DMASR / 4] = reg::DMASR_HALTED;
                        self.regs[reg::S2MM_DMASR / 4] = reg::DMASR_HALTED;
                    }
                }
                _ => {
                    self.regs[offset / 4] = value;
                    if offset == reg::MM2S_LENGTH {
                        self.start_stream();
                    }
                    if let (reg::S2MM_LENGTH, Behaviour::Source(n)) = (offset, self.behaviour) {
                        let n = n.min(value as usize);
                        let da = self.regs[reg::S2MM_DA / 4];
                        let answer: Vec<u8> =
                            (0..n).map(|i| 0xA0u8.wrapping_add(i as u8)).collect();
                        self.system
                            .borrow_mut()
                            .range(da, n)
                            .copy_from_slice(&answer);
                        self.regs[reg::S2MM_LENGTH / 4] = n as u32;
                        self.regs[reg::S2MM_DMASR / 4] |= reg::DMASR_IOC_IRQ | reg::DMASR_IDLE;
                    }
                }
            }
        }
    }

    #[repr(C, align(32))]
    struct Arena([u8; 512]);

    struct Rig {
        arena: Arena,
        system: Rc<RefCell<System>>,
        dma: AxiDma<SimDma>,
    }

    fn rig(behaviour: Behaviour) -> Rig {
        let system = Rc::new(RefCell::new(System {
            memory: vec![STALE; 512],
            log: Vec::new(),
            streamed: Vec::new(),
        }));
        let dma = AxiDma::new(
            SimDma {
                system: system.clone(),
                behaviour,
                regs: [0; 0x60 / 4],
            },
            14,
            100,
        );
        Rig {
            arena: Arena([0; 512]),
            system,
            dma,
        }
    }

    /// Runs one transfer of 100 source bytes into a 128-byte destination.
    fn run(rig: &mut Rig) -> (Result<usize, DmaError>, Vec<u8>) {
        let map = OffsetMap::new(rig.arena.0.as_ptr() as usize, 512, BUS_BASE);
        let mut cache = SimCache {
            system: rig.system.clone(),
            map,
        };
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
        let log = rig.system.borrow().log.clone();
        let at = |e: &Event| log.iter().position(|x| x == e).unwrap();
        let src_bus = BUS_BASE + 256;
        let clean = at(&Event::Clean(src_bus, 100));
        let s2mm_len = at(&Event::Write(reg::S2MM_LENGTH, 128));
        let mm2s_len = at(&Event::Write(reg::MM2S_LENGTH, 100));
        let last_invalidate = log
            .iter()
            .rposition(|e| *e == Event::Invalidate(BUS_BASE, 128))
            .unwrap();
        assert!(clean < s2mm_len && s2mm_len < mm2s_len && mm2s_len < last_invalidate);
        assert!(log.contains(&Event::Write(reg::MM2S_SA, src_bus)));
        assert!(log.contains(&Event::Write(reg::S2MM_DA, BUS_BASE)));
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
        let log = rig.system.borrow().log.clone();
        assert_eq!(
            log.last(),
            Some(&Event::Write(reg::MM2S_DMACR, reg::DMACR_RESET))
        );
    }

    #[test]
    fn a_reset_that_never_completes_is_reported() {
        let mut rig = rig(Behaviour::HangAndStuckReset);
        assert_eq!(run(&mut rig).0, Err(DmaError::ResetStuck));
    }

    #[test]
    fn device_errors_are_reported_with_their_status() {
        let mut rig = rig(Behaviour::SlaveError);
        let (got, _) = run(&mut rig);
        assert_eq!(
            got,
            Err(DmaError::Device {
                channel: Channel::S2mm,
                status: 1 << 5
            })
        );
    }

    #[test]
    fn bad_buffers_are_refused_before_touching_the_engine() {
        let mut rig = rig(Behaviour::Increment);
        let map = OffsetMap::new(rig.arena.0.as_ptr() as usize, 512, BUS_BASE);
        let mut cache = SimCache {
            system: rig.system.clone(),
            map,
        };
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
            SimDma {
                system: rig.system.clone(),
                behaviour: Behaviour::Increment,
                regs: [0; 24],
            },
            8,
            10,
        );
        let e = small.transfer(&mut cache, &map, &src[..], &mut dst[..32]);
        assert_eq!(e, Err(DmaError::TooLong { len: 256, max: 255 }));
        assert!(rig.system.borrow().log.is_empty(), "nothing touched");
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

    fn sim_cache(rig: &Rig) -> (OffsetMap, SimCache) {
        let map = OffsetMap::new(rig.arena.0.as_ptr() as usize, 512, BUS_BASE);
        let cache = SimCache {
            system: rig.system.clone(),
            map,
        };
        (map, cache)
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
        let s = rig.system.borrow();
        assert_eq!(s.streamed, src.to_vec());
        let clean = s
            .log
            .iter()
            .position(|e| *e == Event::Clean(BUS_BASE + 256, 100));
        let start = s
            .log
            .iter()
            .position(|e| *e == Event::Write(reg::MM2S_LENGTH, 100));
        assert!(clean.unwrap() < start.unwrap());
        assert!(!s
            .log
            .iter()
            .any(|e| matches!(e, Event::Write(reg::S2MM_LENGTH | reg::S2MM_DMACR, _))));
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
        let s = rig.system.borrow();
        let inv: Vec<usize> = s
            .log
            .iter()
            .enumerate()
            .filter(|(_, e)| **e == Event::Invalidate(BUS_BASE, 128))
            .map(|(i, _)| i)
            .collect();
        let arm = s
            .log
            .iter()
            .position(|e| *e == Event::Write(reg::S2MM_LENGTH, 128));
        assert_eq!(inv.len(), 2);
        assert!(inv[0] < arm.unwrap() && arm.unwrap() < inv[1]);
        assert!(!s
            .log
            .iter()
            .any(|e| matches!(e, Event::Write(reg::MM2S_LENGTH | reg::MM2S_DMACR, _))));
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
            rig.system.borrow().log.last(),
            Some(&Event::Write(reg::MM2S_DMACR, reg::DMACR_RESET))
        );
        let mut rig2 = self::rig(Behaviour::SlaveError);
        let (map, mut cache) = sim_cache(&rig2);
        let src = &rig2.arena.0[256..300];
        let got = rig2.dma.send(&mut cache, &map, src);
        // The slave error sits on S2MM, which a send does not watch: it
        // never reports MM2S idle either, so the send times out.
        assert!(matches!(got, Err(DmaError::Timeout { .. })), "{got:?}");
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
