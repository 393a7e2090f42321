//! Co-simulation of the PL: the driver's hardware backends
//! (`driver::accel::{HwRing, HwKeccak}`, unmodified) run against the
//! cycle-accurate rust-hdl simulation of the AXI tops (`hdl::axi`), through
//! a PG021 simple-mode DMA model and a DDR model, all in safe code.
//!
//! ```text
//!  HwRing / HwKeccak ──RegisterBus──► CtrlBus ──► AccelBench::write/read (control window)
//!          │          ──RegisterBus──► DmaBus  ──► DmaModel: MM2S DDR → stream_in,
//!          │                                                  S2MM stream_out → DDR
//!          └── CacheMaintenance ─────► CacheModel: clean = CPU buffer → DDR,
//!                                                  invalidate = DDR → CPU buffer
//! ```
//!
//! Time: every register access, control or DMA, clocks the design for
//! [`Config::axi_lite_cycles`] PL cycles (the GP0 round trip the CPU waits
//! for; the control window's own AXI4-Lite handshake cycles count towards
//! it), and the DMA model moves stream words on each of those clocks. So
//! the design advances exactly while the CPU is blocked on the bus — status
//! polls included — and the PL cycle count is the time the CPU spends
//! waiting on the PL. The CPU work between accesses (packing buffers,
//! cache maintenance) takes no PL time here; the report models it.
//!
//! Counts per unit: PL cycles, register reads/writes, DMA bytes and
//! transfers, cache lines maintained. Bus errors (an AXI4-Lite timeout of
//! the simulated top, a DMA outside the DDR model) are recorded, never
//! hidden: [`Pl::errors`].

use std::cell::RefCell;
use std::rc::Rc;

use driver::accel::{Control, DmaPort, HwKeccak, HwRing};
use driver::bus::RegisterBus;
use driver::cache::{is_line_aligned, CacheMaintenance, LINE_BYTES};
use driver::dma::{AddressMap, AxiDma, OffsetMap};
use driver::poll::PollTimeout;
use driver::regmap::dma as reg;
use hdl::axi::{AccelBench, AccelTop, KeccakAccel, NttAccel, StreamWord};
use pqc::mldsa::MlDsa;

use crate::hooked::{CallHook, Hooked};
use crate::report::AccelCounts;
use crate::workload::{self, Operation, Outputs, Scheme};

/// Co-simulation parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// PL cycles one register access takes (see the module docs).
    pub axi_lite_cycles: u32,
    /// Bound on every wait of the driver (register reads).
    pub poll_limit: u32,
    /// DMA "Width of Buffer Length Register" (bits).
    pub dma_length_width: u32,
}

impl Config {
    /// The configuration of the report (matches [`crate::report::Model::DEFAULT`]).
    pub const DEFAULT: Config = Config {
        axi_lite_cycles: crate::report::Model::DEFAULT.axi_lite_cycles,
        poll_limit: 20_000,
        dma_length_width: 14,
    };
}

/// The DDR as the DMA engines see it: regions of bytes at bus addresses.
#[derive(Debug, Default)]
pub struct Ddr {
    regions: Vec<(u32, Vec<u8>)>,
}

impl Ddr {
    /// Adds a region of `len` bytes (initially 0xEE, "stale") at `base`.
    pub fn add_region(&mut self, base: u32, len: usize) {
        self.regions.push((base, vec![0xEE; len]));
    }

    /// The bytes at `addr..addr + len`, if one region holds all of them.
    pub fn range(&mut self, addr: u32, len: usize) -> Option<&mut [u8]> {
        self.regions.iter_mut().find_map(|(base, bytes)| {
            let at = addr.checked_sub(*base)? as usize;
            bytes.get_mut(at..at.checked_add(len)?)
        })
    }
}

/// Shared handle to the DDR model.
pub type SharedDdr = Rc<RefCell<Ddr>>;

/// One simple-mode channel's state beyond its registers.
#[derive(Debug, Default)]
struct DmaModel {
    regs: [u32; 0x60 / 4],
    /// MM2S words handed to the stream and not yet taken by the core.
    mm2s_busy: bool,
    /// S2MM: (destination, room, bytes written so far) while armed.
    s2mm: Option<(u32, usize, usize)>,
}

impl DmaModel {
    fn reset() -> Self {
        let mut d = DmaModel::default();
        d.regs[reg::MM2S_DMASR / 4] = reg::DMASR_HALTED;
        d.regs[reg::S2MM_DMASR / 4] = reg::DMASR_HALTED;
        d
    }

    fn set(&mut self, offset: usize, bits: u32) {
        self.regs[offset / 4] |= bits;
    }

    fn running(&self, dmacr: usize) -> bool {
        self.regs[dmacr / 4] & reg::DMACR_RS != 0
    }
}

/// One accelerator: its simulated top, its DMA engine and its counters.
pub struct Unit<T: AccelTop> {
    bench: AccelBench<T>,
    dma: DmaModel,
    ddr: SharedDdr,
    counts: AccelCounts,
    cycles_at_reset: u64,
    axi_lite_cycles: u32,
    errors: Vec<String>,
}

impl<T: AccelTop> Unit<T> {
    fn new(bench: AccelBench<T>, ddr: SharedDdr, cfg: &Config) -> Self {
        let cycles_at_reset = bench.cycles();
        let mut unit = Unit {
            bench,
            dma: DmaModel::reset(),
            ddr,
            counts: AccelCounts::default(),
            cycles_at_reset,
            axi_lite_cycles: cfg.axi_lite_cycles,
            errors: Vec::new(),
        };
        unit.bench.sink_ready = false;
        unit
    }

    /// Counts so far (PL cycles since reset).
    pub fn counts(&self) -> AccelCounts {
        AccelCounts {
            pl_cycles: self.bench.cycles() - self.cycles_at_reset,
            ..self.counts
        }
    }

    fn error(&mut self, e: String) {
        if self.errors.len() < 16 {
            self.errors.push(e);
        }
    }

    /// Moves stream words between the core and DDR; updates DMASR.
    fn service(&mut self) {
        // MM2S: complete once the core has taken every word.
        if self.dma.mm2s_busy && self.bench.stream_in.is_empty() {
            self.dma.mm2s_busy = false;
            self.dma
                .set(reg::MM2S_DMASR, reg::DMASR_IDLE | reg::DMASR_IOC_IRQ);
        }
        // S2MM: write what the core sent; TLAST completes the transfer.
        while let Some(word) = self.bench.stream_out.pop_front() {
            let Some((da, room, at)) = self.dma.s2mm else {
                self.error(format!(
                    "stream word {word:?} taken while S2MM was not armed"
                ));
                continue;
            };
            if at + 4 > room {
                // PG021: a packet longer than the buffer is an internal error.
                self.dma.s2mm = None;
                self.dma
                    .set(reg::S2MM_DMASR, reg::DMASR_DMA_INT_ERR | reg::DMASR_ERR_IRQ);
                self.bench.stream_out.clear();
                break;
            }
            let ok = match self.ddr.borrow_mut().range(da + at as u32, 4) {
                Some(bytes) => {
                    bytes.copy_from_slice(&word.data.to_le_bytes());
                    true
                }
                None => false,
            };
            if !ok {
                self.dma.s2mm = None;
                self.dma
                    .set(reg::S2MM_DMASR, reg::DMASR_DMA_DEC_ERR | reg::DMASR_ERR_IRQ);
                break;
            }
            self.counts.s2mm_bytes += 4;
            let at = at + 4;
            if word.last {
                self.dma.s2mm = None;
                self.dma.regs[reg::S2MM_LENGTH / 4] = at as u32;
                self.dma
                    .set(reg::S2MM_DMASR, reg::DMASR_IDLE | reg::DMASR_IOC_IRQ);
            } else {
                self.dma.s2mm = Some((da, room, at));
            }
        }
        // Back-pressure: the core's output moves only into an armed buffer.
        self.bench.sink_ready = self.dma.s2mm.is_some();
    }

    /// Clocks the design `n` times with the DMA moving data.
    fn clock(&mut self, n: u64) {
        for _ in 0..n {
            self.service();
            self.bench.clock();
        }
        self.service();
    }

    /// Pads a register access that took `used` cycles to the access time.
    fn pad(&mut self, used: u64) {
        self.clock(u64::from(self.axi_lite_cycles).saturating_sub(used));
    }

    fn ctrl_read(&mut self, offset: usize) -> u32 {
        self.counts.axi_lite_reads += 1;
        self.service();
        let start = self.bench.cycles();
        let value = match self.bench.read(offset as u32) {
            Ok(v) => v,
            Err(e) => {
                self.error(e.to_string());
                0
            }
        };
        self.service();
        self.pad(self.bench.cycles() - start);
        value
    }

    fn ctrl_write(&mut self, offset: usize, value: u32) {
        self.counts.axi_lite_writes += 1;
        self.service();
        let start = self.bench.cycles();
        if let Err(e) = self.bench.write(offset as u32, value) {
            self.error(e.to_string());
        }
        self.service();
        self.pad(self.bench.cycles() - start);
    }

    fn dma_read(&mut self, offset: usize) -> u32 {
        self.counts.axi_lite_reads += 1;
        // The value at the end of the access, as the read data phase returns it.
        self.pad(0);
        match offset {
            // Soft reset completes at once in the model (self-clearing).
            reg::MM2S_DMACR | reg::S2MM_DMACR => self.dma.regs[offset / 4] & !reg::DMACR_RESET,
            o if o % 4 == 0 && o < 0x60 => self.dma.regs[o / 4],
            _ => 0,
        }
    }

    fn dma_write(&mut self, offset: usize, value: u32) {
        self.counts.axi_lite_writes += 1;
        self.pad(0);
        let d = &mut self.dma;
        match offset {
            reg::MM2S_DMASR | reg::S2MM_DMASR => {
                // IOC and error interrupts are write-1-to-clear.
                d.regs[offset / 4] &= !(value & (reg::DMASR_IOC_IRQ | reg::DMASR_ERR_IRQ));
            }
            reg::MM2S_DMACR | reg::S2MM_DMACR if value & reg::DMACR_RESET != 0 => {
                // Resets both channels; data in flight is dropped.
                *d = DmaModel::reset();
                self.bench.stream_in.clear();
                self.service();
            }
            reg::MM2S_DMACR | reg::S2MM_DMACR => {
                let status = offset + (reg::MM2S_DMASR - reg::MM2S_DMACR);
                d.regs[offset / 4] = value;
                if value & reg::DMACR_RS != 0 {
                    d.regs[status / 4] &= !reg::DMASR_HALTED;
                } else {
                    d.regs[status / 4] |= reg::DMASR_HALTED;
                }
            }
            reg::MM2S_LENGTH => {
                d.regs[offset / 4] = value;
                self.start_mm2s(value as usize);
            }
            reg::S2MM_LENGTH => {
                d.regs[offset / 4] = value;
                if !d.running(reg::S2MM_DMACR) {
                    self.error("S2MM_LENGTH written while the channel is halted".into());
                } else if value == 0 {
                    d.set(reg::S2MM_DMASR, reg::DMASR_DMA_INT_ERR | reg::DMASR_ERR_IRQ);
                } else {
                    d.regs[reg::S2MM_DMASR / 4] &= !reg::DMASR_IDLE;
                    d.s2mm = Some((d.regs[reg::S2MM_DA / 4], value as usize, 0));
                    self.counts.dma_transfers += 1;
                    self.service();
                }
            }
            o if o % 4 == 0 && o < 0x60 => d.regs[o / 4] = value,
            _ => self.error(format!("DMA write outside the register file: {offset:#x}")),
        }
    }

    /// MM2S: reads `len` bytes at SA from DDR into the core's input stream
    /// (little-endian 32-bit beats, TLAST on the last; the bytes past `len`
    /// in the last beat are what DDR holds there, as TKEEP masks them).
    fn start_mm2s(&mut self, len: usize) {
        let d = &mut self.dma;
        if !d.running(reg::MM2S_DMACR) {
            self.error("MM2S_LENGTH written while the channel is halted".into());
            return;
        }
        if len == 0 {
            d.set(reg::MM2S_DMASR, reg::DMASR_DMA_INT_ERR | reg::DMASR_ERR_IRQ);
            return;
        }
        let sa = d.regs[reg::MM2S_SA / 4];
        let mut ddr = self.ddr.borrow_mut();
        let Some(bytes) = ddr.range(sa, len) else {
            d.set(reg::MM2S_DMASR, reg::DMASR_DMA_DEC_ERR | reg::DMASR_ERR_IRQ);
            return;
        };
        let mut bytes = bytes.to_vec();
        let padded = len.next_multiple_of(4);
        let tail = ddr.range(sa, padded).map(|b| b[len..].to_vec());
        bytes.extend(tail.unwrap_or_else(|| vec![0; padded - len]));
        drop(ddr);
        let words = bytes.len() / 4;
        self.bench
            .stream_in
            .extend(bytes.chunks_exact(4).enumerate().map(|(i, c)| StreamWord {
                data: u32::from_le_bytes(c.try_into().expect("4 bytes")),
                last: i + 1 == words,
            }));
        d.regs[reg::MM2S_DMASR / 4] &= !reg::DMASR_IDLE;
        d.mm2s_busy = true;
        self.counts.mm2s_bytes += len as u64;
        self.counts.dma_transfers += 1;
    }
}

/// The control window of a unit as the driver's [`RegisterBus`].
pub struct CtrlBus<T: AccelTop>(Rc<RefCell<Unit<T>>>);

impl<T: AccelTop> RegisterBus for CtrlBus<T> {
    fn read32(&mut self, offset: usize) -> u32 {
        self.0.borrow_mut().ctrl_read(offset)
    }
    fn write32(&mut self, offset: usize, value: u32) {
        self.0.borrow_mut().ctrl_write(offset, value)
    }
}

/// The DMA register window of a unit as the driver's [`RegisterBus`].
pub struct DmaBus<T: AccelTop>(Rc<RefCell<Unit<T>>>);

impl<T: AccelTop> RegisterBus for DmaBus<T> {
    fn read32(&mut self, offset: usize) -> u32 {
        self.0.borrow_mut().dma_read(offset)
    }
    fn write32(&mut self, offset: usize, value: u32) {
        self.0.borrow_mut().dma_write(offset, value)
    }
}

/// A write-back data cache in front of the DDR model: the engine sees the
/// CPU's writes only after `clean`, the CPU the engine's only after
/// `invalidate`. Counts the lines maintained.
pub struct CacheModel<T: AccelTop> {
    unit: Rc<RefCell<Unit<T>>>,
    map: OffsetMap,
}

impl<T: AccelTop> CacheMaintenance for CacheModel<T> {
    fn clean(&mut self, buf: &[u8]) -> Result<(), PollTimeout> {
        let addr = self.map.bus_address(buf).expect("clean outside the arena");
        let unit = &mut *self.unit.borrow_mut();
        let first = addr as usize / LINE_BYTES;
        let last = (addr as usize + buf.len()).div_ceil(LINE_BYTES);
        unit.counts.cache_lines += (last - first) as u64;
        unit.ddr
            .borrow_mut()
            .range(addr, buf.len())
            .expect("arena region in DDR")
            .copy_from_slice(buf);
        Ok(())
    }

    fn invalidate(&mut self, buf: &mut [u8]) -> Result<(), PollTimeout> {
        assert!(is_line_aligned(buf), "invalidate of a partial line");
        let addr = self
            .map
            .bus_address(buf)
            .expect("invalidate outside the arena");
        let unit = &mut *self.unit.borrow_mut();
        unit.counts.cache_lines += (buf.len() / LINE_BYTES) as u64;
        buf.copy_from_slice(
            unit.ddr
                .borrow_mut()
                .range(addr, buf.len())
                .expect("arena region in DDR"),
        );
        Ok(())
    }
}

/// The DMA port type of a unit.
pub type Port<'a, T> = DmaPort<'a, DmaBus<T>, CacheModel<T>, OffsetMap>;
/// [`HwRing`] on the simulated NTT top.
pub type SimRing<'a> =
    HwRing<'a, CtrlBus<NttAccel>, DmaBus<NttAccel>, CacheModel<NttAccel>, OffsetMap>;
/// [`HwKeccak`] on the simulated Keccak top.
pub type SimKeccak<'a> =
    HwKeccak<'a, CtrlBus<KeccakAccel>, DmaBus<KeccakAccel>, CacheModel<KeccakAccel>, OffsetMap>;

/// Source and destination buffer sizes of the NTT port: one polynomial
/// each way, as ps-app's (HwRing streams one polynomial per job).
pub const NTT_BUFFER_BYTES: usize = 1024;
/// Source and destination buffer sizes of the Keccak port, as ps-app's
/// (longer sponge requests run in software, and are counted as CPU time).
pub const KECCAK_BUFFER_BYTES: usize = 4096;

/// Bus base of each port's DDR region (inside the Zynq's DDR, above the
/// firmware image; distinct per unit).
const NTT_DDR_BASE: u32 = 0x0800_0000;
const KECCAK_DDR_BASE: u32 = 0x0900_0000;

/// CPU memory for one port's DMA buffers.
pub struct Arena(Vec<u8>);

impl Arena {
    /// Room for a source and a destination of `bytes` each, line-aligned.
    pub fn new(bytes: usize) -> Self {
        Arena(vec![0; 2 * bytes + 2 * LINE_BYTES])
    }
}

/// The simulated PL: both tops with their DMA engines, and the DDR.
pub struct Pl {
    /// The NTT unit.
    pub ntt: Rc<RefCell<Unit<NttAccel>>>,
    /// The Keccak unit.
    pub keccak: Rc<RefCell<Unit<KeccakAccel>>>,
    ddr: SharedDdr,
    cfg: Config,
}

fn port<'a, T: AccelTop>(
    unit: &Rc<RefCell<Unit<T>>>,
    ddr: &SharedDdr,
    cfg: &Config,
    base: u32,
    arena: &'a mut Arena,
    bytes: usize,
) -> Port<'a, T> {
    // Bus addresses keep the CPU buffers' line alignment (as the Zynq's
    // identity map does), so cache-line counts do not depend on where the
    // allocator put the arena.
    let skip = arena.0.as_ptr().align_offset(LINE_BYTES);
    let map = OffsetMap::new(arena.0.as_ptr() as usize + skip, arena.0.len() - skip, base);
    ddr.borrow_mut().add_region(base, map.len());
    let aligned = driver::accel::line_aligned(&mut arena.0, 2 * bytes).expect("arena size");
    let (dst, src) = aligned.split_at_mut(bytes);
    let engine = AxiDma::new(DmaBus(unit.clone()), cfg.dma_length_width, cfg.poll_limit);
    let cache = CacheModel {
        unit: unit.clone(),
        map,
    };
    DmaPort::new(engine, cache, map, src, dst).expect("co-simulation buffers")
}

impl Pl {
    /// Elaborates both tops and resets them.
    pub fn new(cfg: Config) -> Self {
        let ddr: SharedDdr = Rc::default();
        Pl {
            ntt: Rc::new(RefCell::new(Unit::new(
                AccelBench::ntt(),
                ddr.clone(),
                &cfg,
            ))),
            keccak: Rc::new(RefCell::new(Unit::new(
                AccelBench::keccak(),
                ddr.clone(),
                &cfg,
            ))),
            ddr,
            cfg,
        }
    }

    /// [`HwRing`] over the NTT unit, its buffers in `arena`
    /// (`Arena::new(NTT_BUFFER_BYTES)`).
    pub fn ring<'a>(&self, arena: &'a mut Arena) -> SimRing<'a> {
        let bytes = (arena.0.len() - 2 * LINE_BYTES) / 2;
        HwRing::new(
            Control::new(CtrlBus(self.ntt.clone()), self.cfg.poll_limit),
            port(&self.ntt, &self.ddr, &self.cfg, NTT_DDR_BASE, arena, bytes),
        )
    }

    /// [`HwKeccak`] over the Keccak unit, its buffers in `arena`.
    pub fn keccak<'a>(&self, arena: &'a mut Arena) -> SimKeccak<'a> {
        let bytes = (arena.0.len() - 2 * LINE_BYTES) / 2;
        HwKeccak::new(
            Control::new(CtrlBus(self.keccak.clone()), self.cfg.poll_limit),
            port(
                &self.keccak,
                &self.ddr,
                &self.cfg,
                KECCAK_DDR_BASE,
                arena,
                bytes,
            ),
        )
    }

    /// Counts of both units together.
    pub fn counts(&self) -> AccelCounts {
        let mut c = self.ntt.borrow().counts();
        c.add(&self.keccak.borrow().counts());
        c
    }

    /// Register accesses of both units so far (to tell whether a call used the bus).
    pub fn accesses(&self) -> u64 {
        self.counts().axi_lite()
    }

    /// Bus-level errors seen by either unit (must be empty).
    pub fn errors(&self) -> Vec<String> {
        let mut e = self.ntt.borrow().errors.clone();
        e.extend(self.keccak.borrow().errors.iter().cloned());
        e
    }
}

/// Reads the register-access count of a [`Pl`] without holding it.
#[derive(Clone)]
pub struct Probe {
    ntt: Rc<RefCell<Unit<NttAccel>>>,
    keccak: Rc<RefCell<Unit<KeccakAccel>>>,
}

impl Probe {
    /// A probe of `pl`.
    pub fn of(pl: &Pl) -> Self {
        Probe {
            ntt: pl.ntt.clone(),
            keccak: pl.keccak.clone(),
        }
    }

    fn accesses(&self) -> u64 {
        self.ntt.borrow().counts.axi_lite() + self.keccak.borrow().counts.axi_lite()
    }
}

/// A [`CallHook`] that records, for every top-level call, whether it touched
/// the PL (any register access). The host measurement replays the same call
/// sequence on software and times exactly these calls.
pub struct PlUse {
    probe: Probe,
    /// One entry per call: did it use the PL?
    pub on_pl: Vec<bool>,
}

impl PlUse {
    /// Watches the PL that `probe` counts accesses of.
    pub fn new(probe: Probe) -> Self {
        PlUse {
            probe,
            on_pl: Vec::new(),
        }
    }
}

impl CallHook for PlUse {
    type Start = u64;
    fn before(&mut self) -> u64 {
        self.probe.accesses()
    }
    fn after(&mut self, accesses_before: u64) {
        self.on_pl.push(self.probe.accesses() > accesses_before);
    }
}

/// A backend that records which of its calls used the PL.
pub type Recorder<B> = Hooked<B, PlUse>;

/// What one operation on the simulated PL gave.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Counts of this operation alone.
    pub counts: AccelCounts,
    /// Keys / signature / verdict after the operation.
    pub outputs: Outputs,
    /// The same operation on the software backends.
    pub software: Outputs,
    /// Per ring call (in order): computed on the PL?
    pub ring_on_pl: Vec<bool>,
    /// Per Keccak call (in order): computed on the PL?
    pub keccak_on_pl: Vec<bool>,
    /// Sticky faults of the backends and bus errors (must be empty).
    pub faults: Vec<String>,
    /// Which backends did work on the PL, e.g. `HwRing + HwKeccak`.
    pub backends: String,
}

impl Outcome {
    /// Accelerated output equals software output.
    pub fn identical(&self) -> bool {
        self.outputs == self.software
    }
}

/// Runs `op` of `scheme` (ps-app's inputs) on `pl` through HwRing and
/// HwKeccak, and on software for comparison. Earlier operations' outputs
/// (keys, signature) are computed in software first.
pub fn run_operation(pl: &Pl, scheme: Scheme, op: Operation) -> Result<Outcome, String> {
    let base = workload::prerequisites(scheme, op)?;
    let mut software = base.clone();
    workload::run(&mut workload::soft(), scheme, op, &mut software)?;

    let mut ntt_arena = Arena::new(NTT_BUFFER_BYTES);
    let mut keccak_arena = Arena::new(KECCAK_BUFFER_BYTES);
    let probe = Probe::of(pl);
    let mut engine = MlDsa::new(
        Hooked::new(pl.ring(&mut ntt_arena), PlUse::new(probe.clone())),
        Hooked::new(pl.keccak(&mut keccak_arena), PlUse::new(probe)),
    );
    let before = pl.counts();
    let mut outputs = base;
    workload::run(&mut engine, scheme, op, &mut outputs)?;
    let after = pl.counts();

    let (ring, keccak) = (&engine.ring.inner, &engine.keccak.inner);
    let mut faults = pl.errors();
    if let Some(f) = ring.fault() {
        faults.push(format!("HwRing fault: {f}"));
    }
    if let Some(f) = keccak.fault() {
        faults.push(format!("HwKeccak fault: {f}"));
    }
    let (rs, ks) = (ring.stats(), keccak.stats());
    let counts = AccelCounts {
        pl_cycles: after.pl_cycles - before.pl_cycles,
        axi_lite_reads: after.axi_lite_reads - before.axi_lite_reads,
        axi_lite_writes: after.axi_lite_writes - before.axi_lite_writes,
        mm2s_bytes: after.mm2s_bytes - before.mm2s_bytes,
        s2mm_bytes: after.s2mm_bytes - before.s2mm_bytes,
        dma_transfers: after.dma_transfers - before.dma_transfers,
        cache_lines: after.cache_lines - before.cache_lines,
        fallbacks: if ring.fault().is_some() || keccak.fault().is_some() {
            rs.sw_calls + ks.sw_calls
        } else {
            0
        },
        jobs: rs.jobs + ks.jobs,
        core_busy_cycles: rs.busy_cycles + ks.busy_cycles,
    };
    let names: Vec<&str> = [("HwRing", rs.hw_calls), ("HwKeccak", ks.hw_calls)]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(name, _)| name)
        .collect();
    Ok(Outcome {
        counts,
        outputs,
        software,
        ring_on_pl: engine.ring.hook.on_pl.clone(),
        keccak_on_pl: engine.keccak.hook.on_pl.clone(),
        faults,
        backends: names.join(" + "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use driver::regmap::{ctrl, keccak as kreg};
    use pqc::keccak::SoftKeccak;
    use pqc::keccak::{KeccakBackend, SpongeMode};
    use pqc::ring::RingBackend;
    use pqc::ring::SoftRing;
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    use std::time::Instant;

    fn full() -> bool {
        std::env::var_os("PQC_FULL").is_some_and(|v| v == "1")
    }

    fn shake256(msg: &[u8], out_len: usize) -> Vec<u8> {
        let mut h = sha3::Shake256::default();
        h.update(msg);
        let mut out = vec![0; out_len];
        h.finalize_xof().read(&mut out);
        out
    }

    #[test]
    fn every_register_access_takes_the_configured_time() {
        let pl = Pl::new(Config::DEFAULT);
        let mut bus = CtrlBus(pl.keccak.clone());
        let c0 = pl.counts().pl_cycles;
        assert_eq!(bus.read32(ctrl::ID), kreg::ID);
        let mut dma = DmaBus(pl.keccak.clone());
        assert_eq!(dma.read32(reg::MM2S_DMASR), reg::DMASR_HALTED);
        let c = pl.counts();
        assert_eq!(
            c.pl_cycles - c0,
            2 * u64::from(Config::DEFAULT.axi_lite_cycles)
        );
        assert_eq!((c.axi_lite_reads, c.axi_lite_writes), (2, 0));
    }

    /// PG021 status behaviour of the DMA model: decode error outside DDR,
    /// internal error for a zero length and for a packet longer than the
    /// S2MM buffer, soft reset back to halted, IOC write-1-to-clear.
    #[test]
    fn dma_model_reports_pg021_status() {
        let pl = Pl::new(Config::DEFAULT);
        pl.ddr.borrow_mut().add_region(0x0100_0000, 4096);
        let mut dma = DmaBus(pl.keccak.clone());
        let mut ctl = CtrlBus(pl.keccak.clone());
        let err = reg::DMASR_ERR_IRQ;

        dma.write32(reg::MM2S_DMACR, reg::DMACR_RS);
        assert_eq!(dma.read32(reg::MM2S_DMASR), 0, "running, not idle");
        dma.write32(reg::MM2S_SA, 0x3000_0000);
        dma.write32(reg::MM2S_LENGTH, 8);
        assert_eq!(
            dma.read32(reg::MM2S_DMASR),
            reg::DMASR_DMA_DEC_ERR | err,
            "outside DDR"
        );

        dma.write32(reg::MM2S_DMACR, reg::DMACR_RESET);
        assert_eq!(dma.read32(reg::MM2S_DMACR) & reg::DMACR_RESET, 0);
        assert_eq!(dma.read32(reg::MM2S_DMASR), reg::DMASR_HALTED);
        assert_eq!(dma.read32(reg::S2MM_DMASR), reg::DMASR_HALTED);

        dma.write32(reg::MM2S_DMACR, reg::DMACR_RS);
        dma.write32(reg::MM2S_LENGTH, 0);
        assert_eq!(dma.read32(reg::MM2S_DMASR), reg::DMASR_DMA_INT_ERR | err);
        dma.write32(reg::MM2S_DMACR, reg::DMACR_RESET);

        // A SHAKE256 job with a 64-byte answer into a 32-byte S2MM buffer.
        pl.ddr
            .borrow_mut()
            .range(0x0100_0000, 4)
            .unwrap()
            .copy_from_slice(b"abc\0");
        for (o, v) in [
            (ctrl::ARG0, kreg::MODE_SHAKE256),
            (ctrl::ARG1, 3),
            (ctrl::ARG2, 64),
            (ctrl::COMMAND, kreg::OP_SPONGE | ctrl::COMMAND_START),
        ] {
            ctl.write32(o, v);
        }
        dma.write32(reg::S2MM_DMACR, reg::DMACR_RS);
        dma.write32(reg::S2MM_DA, 0x0100_0100);
        dma.write32(reg::S2MM_LENGTH, 32);
        dma.write32(reg::MM2S_DMACR, reg::DMACR_RS);
        dma.write32(reg::MM2S_SA, 0x0100_0000);
        dma.write32(reg::MM2S_LENGTH, 3);
        let mut s2mm = 0;
        for _ in 0..100 {
            s2mm = dma.read32(reg::S2MM_DMASR);
            if s2mm & err != 0 {
                break;
            }
        }
        assert_eq!(s2mm, reg::DMASR_DMA_INT_ERR | err);
        let mm2s = dma.read32(reg::MM2S_DMASR);
        assert_eq!(mm2s, reg::DMASR_IDLE | reg::DMASR_IOC_IRQ);
        dma.write32(reg::MM2S_DMASR, reg::DMASR_IOC_IRQ);
        assert_eq!(dma.read32(reg::MM2S_DMASR), reg::DMASR_IDLE);
        // The first 32 bytes of the answer did land.
        let got = pl.ddr.borrow_mut().range(0x0100_0100, 32).unwrap().to_vec();
        assert_eq!(got, shake256(b"abc", 32));

        // A length write on a halted channel is a driver bug: recorded.
        dma.write32(reg::MM2S_DMACR, reg::DMACR_RESET);
        dma.write32(reg::MM2S_LENGTH, 4);
        assert!(pl.errors().iter().any(|e| e.contains("halted")));
    }

    #[test]
    fn shake256_requests_through_hw_keccak_equal_the_sha3_crate() {
        let pl = Pl::new(Config::DEFAULT);
        let mut arena = Arena::new(KECCAK_BUFFER_BYTES);
        let mut k = pl.keccak(&mut arena);
        let msg: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        // Lengths around the 136-byte rate and the 4-byte stream word.
        for (m, o) in [
            (0, 32),
            (1, 1),
            (3, 33),
            (135, 136),
            (136, 137),
            (137, 64),
            (300, 500),
        ] {
            let before = pl.counts();
            let mut out = vec![0u8; o];
            k.sponge(SpongeMode::Shake256, &[&msg[..m]], &mut out);
            assert_eq!(out, shake256(&msg[..m], o), "message {m} B, output {o} B");
            let c = pl.counts();
            assert_eq!(
                c.mm2s_bytes - before.mm2s_bytes,
                m.next_multiple_of(4) as u64
            );
            assert_eq!(
                c.s2mm_bytes - before.s2mm_bytes,
                o.next_multiple_of(4) as u64
            );
        }
        // Parts are one logical message.
        let mut out = [0u8; 48];
        k.sponge(SpongeMode::Shake256, &[&msg[..5], &msg[5..140]], &mut out);
        assert_eq!(out[..], shake256(&msg[..140], 48)[..]);
        assert_eq!(k.fault(), None);
        assert_eq!(k.stats().sw_calls, 0, "every request ran on the PL");
        assert!(pl.errors().is_empty(), "{:?}", pl.errors());
    }

    #[test]
    fn slh_dsa_shake_chains_through_hw_keccak_equal_software() {
        let pl = Pl::new(Config::DEFAULT);
        let mut arena = Arena::new(KECCAK_BUFFER_BYTES);
        let mut k = pl.keccak(&mut arena);
        for n in [16usize, 24, 32] {
            let seed: Vec<u8> = (0..n as u8).collect();
            let x: Vec<u8> = (0..n as u8).map(|b| b ^ 0x5A).collect();
            let mut adrs = [0u8; 32];
            adrs[19] = 1;
            adrs[23] = n as u8;
            for (start, steps) in [(0, 1), (3, 12), (0, 15)] {
                let mut hw = vec![0u8; n];
                let mut sw = vec![0u8; n];
                k.slh_shake_chain(&seed, &adrs, &x, start, steps, &mut hw);
                SoftKeccak.slh_shake_chain(&seed, &adrs, &x, start, steps, &mut sw);
                assert_eq!(hw, sw, "n {n}, start {start}, steps {steps}");
            }
        }
        assert_eq!(k.fault(), None);
        assert_eq!(k.stats().sw_calls, 0);
        assert!(pl.errors().is_empty(), "{:?}", pl.errors());
    }

    fn check_scheme(name: &str, ops: &[Operation]) {
        let scheme = Scheme::from_name(name).unwrap();
        let pl = Pl::new(Config::DEFAULT);
        for &op in ops {
            let t = Instant::now();
            let o = run_operation(&pl, scheme, op).unwrap();
            eprintln!(
                "{name} {}: {} PL cycles, {} AXI-Lite, {} DMA bytes, {} jobs, {} on {:.1} s",
                op.name(),
                o.counts.pl_cycles,
                o.counts.axi_lite(),
                o.counts.dma_bytes(),
                o.counts.jobs,
                o.backends,
                t.elapsed().as_secs_f64()
            );
            assert!(o.faults.is_empty(), "{:?}", o.faults);
            assert!(o.identical(), "{name} {} differs from software", op.name());
            assert!(o.counts.pl_cycles > 0 && o.counts.dma_bytes() > 0);
            assert_eq!(o.counts.fallbacks, 0);
            // Every register access is padded to the same time.
            assert_eq!(
                o.counts.pl_cycles,
                o.counts.axi_lite() * u64::from(Config::DEFAULT.axi_lite_cycles)
            );
            if let Scheme::MlDsa(_) = scheme {
                assert!(
                    o.ring_on_pl.iter().all(|&b| b),
                    "a ring call ran in software"
                );
                assert!(o.keccak_on_pl.iter().any(|&b| b));
            }
            assert!(
                o.counts.core_busy_cycles > 0 && o.counts.core_busy_cycles < o.counts.pl_cycles
            );
            if op == Operation::Verify {
                assert!(o.outputs.verified);
            }
        }
    }

    #[test]
    fn ml_dsa_44_on_the_simulated_pl_equals_software() {
        check_scheme("ML-DSA-44", &Operation::ALL);
    }

    #[test]
    fn ml_dsa_65_87_on_the_simulated_pl_equal_software_full() {
        if !full() {
            eprintln!("skipped: set PQC_FULL=1");
            return;
        }
        check_scheme("ML-DSA-65", &Operation::ALL);
        check_scheme("ML-DSA-87", &Operation::ALL);
    }

    #[test]
    fn slh_dsa_shake_128f_keygen_on_the_simulated_pl_equals_software() {
        check_scheme("SLH-DSA-SHAKE-128f", &[Operation::Keygen]);
    }

    #[test]
    fn slh_dsa_shake_128f_sign_verify_on_the_simulated_pl_equal_software_full() {
        if !full() {
            eprintln!("skipped: set PQC_FULL=1");
            return;
        }
        check_scheme("SLH-DSA-SHAKE-128f", &[Operation::Sign, Operation::Verify]);
    }

    #[test]
    fn software_ring_is_untouched_by_the_wrapper() {
        // The recorder sees no PL traffic for a software backend.
        let pl = Pl::new(Config::DEFAULT);
        let mut r = Hooked::new(SoftRing, PlUse::new(Probe::of(&pl)));
        let mut p = [1i32; pqc::ring::N];
        r.ntt(&mut p);
        assert_eq!(r.hook.on_pl, vec![false]);
    }
}
