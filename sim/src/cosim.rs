//! Co-simulation of the PL: the driver's hardware backends
//! (`driver::accel::{HwRing, HwKeccak}`, unmodified) run against a
//! cycle-accurate simulation of the AXI tops, through a PG021 simple-mode
//! DMA model and a DDR model (`driver::host`).
//!
//! Two engines run the tops ([`Engine`]), both behind `hdl::axi::PlTop`:
//! the exported Verilog under Verilator (`hdl::verilated`, the default,
//! well over a hundred times faster) and the rust-hdl simulation
//! (`hdl::axi::AccelBench`, the reference). They give identical
//! transcripts: every register access at the same PL cycle with the same
//! value ([`Pl::record_accesses`]; checked by the tests below).
//!
//! ```text
//!  HwRing / HwKeccak ──RegisterBus──► CtrlBus ──► PlTop::write/read (control window)
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

use std::cell::{Cell, RefCell};
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use driver::accel::{
    AccelError, AccelStats, Control, DmaPort, HwKeccak, HwMlDsa, HwRing, HwSlhDsa,
};
use driver::bus::RegisterBus;
use driver::cache::LINE_BYTES;
use driver::dma::{AxiDma, OffsetMap};
use driver::host::{
    AxiDmaModel, Beat, CacheModel, Ddr, DmaDevice, DmaLatency, FaultyDma, SharedDdr, StreamEndpoint,
};
use hdl::axi::{AccelBench, PlTop, StreamWord};
use hdl::verilated::VerilatedTop;
use pqc::mldsa::MlDsa;
use ps_pl_contract::dma::{KECCAK_BUFFER_BYTES, LENGTH_WIDTH_BITS, NTT_BUFFER_BYTES};
use ps_pl_contract::regmap;

use crate::hooked::{CallHook, Hooked};
use crate::workload::{self, Operation, Outputs, Scheme};

/// The simulator that runs the PL tops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The exported Verilog under Verilator (`hdl::verilated`): fast.
    Verilator,
    /// The rust-hdl simulation (`hdl::axi::AccelBench`): the reference.
    RustHdl,
}

impl Engine {
    /// Both engines, the default first.
    pub const ALL: [Engine; 2] = [Engine::Verilator, Engine::RustHdl];

    /// Parses `verilator` or `rust-hdl`.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "verilator" => Ok(Self::Verilator),
            "rust-hdl" => Ok(Self::RustHdl),
            o => Err(format!("--engine: `{o}` is not verilator or rust-hdl")),
        }
    }

    /// The name [`Engine::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Self::Verilator => "verilator",
            Self::RustHdl => "rust-hdl",
        }
    }
}

/// Co-simulation parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// PL cycles one register access takes (see the module docs).
    pub axi_lite_cycles: u32,
    /// Bound on every wait of the driver (register reads).
    pub poll_limit: u32,
    /// The simulator of the tops.
    pub engine: Engine,
    /// DMA latencies (the conservative bus model by default).
    pub dma_latency: DmaLatency,
}

impl Config {
    /// The configuration of the report (matches [`crate::report::Model::DEFAULT`]),
    /// on Verilator.
    pub const DEFAULT: Config = Config {
        axi_lite_cycles: crate::report::Model::DEFAULT.axi_lite_cycles,
        poll_limit: 20_000,
        engine: Engine::Verilator,
        dma_latency: DmaLatency::CONSERVATIVE,
    };

    /// This configuration on `engine`.
    pub fn on(self, engine: Engine) -> Config {
        Config { engine, ..self }
    }
}

/// What the co-simulation counted for one operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccelCounts {
    /// PL clock cycles the CPU spent waiting on the PL: every AXI-Lite
    /// access (padded to [`crate::report::Model::axi_lite_cycles`]) including status
    /// polls, which cover DMA streaming and core busy time.
    pub pl_cycles: u64,
    /// AXI-Lite reads (control windows and DMA registers).
    pub axi_lite_reads: u64,
    /// AXI-Lite writes.
    pub axi_lite_writes: u64,
    /// Bytes the DMA engines read from DDR into the cores (MM2S).
    pub mm2s_bytes: u64,
    /// Bytes the DMA engines wrote from the cores to DDR (S2MM).
    pub s2mm_bytes: u64,
    /// Started MM2S transfers.
    pub dma_transfers: u64,
    /// Cache lines cleaned or invalidated around the transfers.
    pub cache_lines: u64,
    /// Backend calls that fell back to software after a fault (must be 0).
    pub fallbacks: u64,
    /// Core jobs (LOAD, NTT, SPONGE, …) run.
    pub jobs: u64,
    /// Sum of the cores' `CYCLES` registers: cycles the cores computed.
    pub core_busy_cycles: u64,
}

impl AccelCounts {
    /// Element-wise sum.
    pub fn add(&mut self, o: &AccelCounts) {
        self.pl_cycles += o.pl_cycles;
        self.axi_lite_reads += o.axi_lite_reads;
        self.axi_lite_writes += o.axi_lite_writes;
        self.mm2s_bytes += o.mm2s_bytes;
        self.s2mm_bytes += o.s2mm_bytes;
        self.dma_transfers += o.dma_transfers;
        self.cache_lines += o.cache_lines;
        self.fallbacks += o.fallbacks;
        self.jobs += o.jobs;
        self.core_busy_cycles += o.core_busy_cycles;
    }

    /// The bus, DMA and cache counts gained since `before` (a reading of
    /// the same counters); the backend counts (`fallbacks`, `jobs`,
    /// `core_busy_cycles`) are left 0 for the caller to fill in.
    pub fn bus_since(&self, before: &AccelCounts) -> AccelCounts {
        AccelCounts {
            pl_cycles: self.pl_cycles - before.pl_cycles,
            axi_lite_reads: self.axi_lite_reads - before.axi_lite_reads,
            axi_lite_writes: self.axi_lite_writes - before.axi_lite_writes,
            mm2s_bytes: self.mm2s_bytes - before.mm2s_bytes,
            s2mm_bytes: self.s2mm_bytes - before.s2mm_bytes,
            dma_transfers: self.dma_transfers - before.dma_transfers,
            cache_lines: self.cache_lines - before.cache_lines,
            ..AccelCounts::default()
        }
    }

    /// Each count divided by `n` (at least 1), rounded to the nearest: the
    /// mean of `n` operations whose counts were summed with [`Self::add`].
    pub fn mean_of(&self, n: u64) -> AccelCounts {
        let n = n.max(1);
        let d = |v: u64| (v + n / 2) / n;
        AccelCounts {
            pl_cycles: d(self.pl_cycles),
            axi_lite_reads: d(self.axi_lite_reads),
            axi_lite_writes: d(self.axi_lite_writes),
            mm2s_bytes: d(self.mm2s_bytes),
            s2mm_bytes: d(self.s2mm_bytes),
            dma_transfers: d(self.dma_transfers),
            cache_lines: d(self.cache_lines),
            fallbacks: d(self.fallbacks),
            jobs: d(self.jobs),
            core_busy_cycles: d(self.core_busy_cycles),
        }
    }

    /// All AXI-Lite transactions.
    pub fn axi_lite(&self) -> u64 {
        self.axi_lite_reads + self.axi_lite_writes
    }

    /// All DMA bytes, both directions.
    pub fn dma_bytes(&self) -> u64 {
        self.mm2s_bytes + self.s2mm_bytes
    }
}

/// A simulated top's two streams as the DMA model's endpoint.
struct TopStreams<'a, P: PlTop>(&'a mut P);

impl<P: PlTop> StreamEndpoint for TopStreams<'_, P> {
    fn push_input(&mut self, beats: &[Beat]) {
        let words: Vec<StreamWord> = beats
            .iter()
            .map(|b| StreamWord {
                data: b.data,
                last: b.last,
            })
            .collect();
        self.0.push_input(&words);
    }
    fn input_drained(&self) -> bool {
        self.0.input_drained()
    }
    fn drop_input(&mut self) {
        self.0.drop_input();
    }
    fn pop_output(&mut self) -> Option<Beat> {
        self.0.pop_output().map(|w| Beat {
            data: w.data,
            last: w.last,
        })
    }
    fn drop_output(&mut self) {
        self.0.drop_output();
    }
    fn set_output_ready(&mut self, ready: bool) {
        self.0.set_sink_ready(ready);
    }
}

/// Which register window of a unit an access went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The accelerator's control block (the simulated top).
    Control,
    /// The AXI DMA's registers (the host model).
    Dma,
}

/// One register access as the driver saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// PL cycle (since reset) at which the access ended.
    pub cycle: u64,
    /// The window.
    pub window: Window,
    /// Write (else read).
    pub write: bool,
    /// Byte offset in the window.
    pub offset: u32,
    /// Value written or read.
    pub value: u32,
}

/// One accelerator: its simulated top, its DMA engine (with the fault
/// wrapper, idle unless a test injects a fault) and its counters.
pub struct Unit<P: PlTop> {
    top: P,
    dma: FaultyDma,
    counts: AccelCounts,
    cache_lines: Rc<Cell<u64>>,
    cycles_at_reset: u64,
    axi_lite_cycles: u32,
    errors: Vec<String>,
    accesses: Option<Vec<Access>>,
    progress: Arc<AtomicU64>,
}

impl<P: PlTop> Unit<P> {
    /// A unit over `top`, whose DMA reaches `ddr`; PL cycles it runs are
    /// also added to `progress`.
    pub fn new(top: P, ddr: SharedDdr, cfg: &Config, progress: Arc<AtomicU64>) -> Self {
        let cycles_at_reset = top.cycles();
        let mut unit = Unit {
            top,
            dma: FaultyDma::new(
                AxiDmaModel::new(ddr, LENGTH_WIDTH_BITS).with_latency(cfg.dma_latency),
            ),
            counts: AccelCounts::default(),
            cache_lines: Rc::default(),
            cycles_at_reset,
            axi_lite_cycles: cfg.axi_lite_cycles,
            errors: Vec::new(),
            accesses: None,
            progress,
        };
        unit.top.set_sink_ready(false);
        unit
    }

    /// Starts recording every register access (drops what was recorded).
    pub fn record_accesses(&mut self) {
        self.accesses = Some(Vec::new());
    }

    /// The accesses recorded so far (recording goes on).
    pub fn take_accesses(&mut self) -> Vec<Access> {
        self.accesses
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn log(&mut self, window: Window, write: bool, offset: usize, value: u32, start: u64) {
        let end = self.top.cycles();
        self.progress.fetch_add(end - start, Ordering::Relaxed);
        if let Some(log) = &mut self.accesses {
            log.push(Access {
                cycle: end - self.cycles_at_reset,
                window,
                write,
                offset: offset as u32,
                value,
            });
        }
    }

    /// Counts so far (PL cycles since reset).
    pub fn counts(&self) -> AccelCounts {
        let dma = self.dma.model().counts();
        AccelCounts {
            pl_cycles: self.top.cycles() - self.cycles_at_reset,
            mm2s_bytes: dma.mm2s_bytes,
            s2mm_bytes: dma.s2mm_bytes,
            dma_transfers: dma.transfers,
            cache_lines: self.cache_lines.get(),
            ..self.counts
        }
    }

    /// The DMA engine, for fault injection.
    pub fn dma(&mut self) -> &mut FaultyDma {
        &mut self.dma
    }

    fn error(&mut self, e: String) {
        if self.errors.len() < 16 {
            self.errors.push(e);
        }
    }

    /// Bus errors of the top and protocol errors seen by the DMA model.
    fn all_errors(&self) -> Vec<String> {
        let mut e = self.errors.clone();
        e.extend(self.dma.model().errors().iter().cloned());
        e
    }

    /// Moves stream words between the core and DDR; updates DMASR.
    fn service(&mut self) {
        self.dma.service(&mut TopStreams(&mut self.top));
    }

    /// Clocks the design `n` times with the DMA serviced before every
    /// clock. `PlTop::run` returns after every clock the DMA model could
    /// react to, so skipping the calls in between changes nothing.
    fn clock(&mut self, n: u64) {
        let mut left = n;
        while left > 0 {
            self.service();
            // Stop where a DMA latency expires, so the DMA reacts on time.
            let limit = self
                .dma
                .cycles_to_next_event()
                .map_or(left, |c| c.min(left));
            let ran = self.top.run(limit);
            self.dma.advance(ran, &mut TopStreams(&mut self.top));
            left -= ran;
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
        let start = self.top.cycles();
        let value = match self.top.read(offset as u32) {
            Ok(v) => v,
            Err(e) => {
                self.error(e.to_string());
                0
            }
        };
        self.service();
        self.pad(self.top.cycles() - start);
        self.log(Window::Control, false, offset, value, start);
        value
    }

    fn ctrl_write(&mut self, offset: usize, value: u32) {
        self.counts.axi_lite_writes += 1;
        self.service();
        let start = self.top.cycles();
        if let Err(e) = self.top.write(offset as u32, value) {
            self.error(e.to_string());
        }
        self.service();
        self.pad(self.top.cycles() - start);
        self.log(Window::Control, true, offset, value, start);
    }

    fn dma_read(&mut self, offset: usize) -> u32 {
        self.counts.axi_lite_reads += 1;
        let start = self.top.cycles();
        // The value at the end of the access, as the read data phase returns it.
        self.pad(0);
        let value = self.dma.read(offset);
        self.log(Window::Dma, false, offset, value, start);
        value
    }

    fn dma_write(&mut self, offset: usize, value: u32) {
        self.counts.axi_lite_writes += 1;
        let start = self.top.cycles();
        self.pad(0);
        self.dma
            .write(offset, value, &mut TopStreams(&mut self.top));
        self.log(Window::Dma, true, offset, value, start);
    }
}

/// A control block of a unit as the driver's [`RegisterBus`]: the unit
/// and the block's offset in its window (non-zero for the SLH-DSA block
/// of the engines' window).
pub struct CtrlBus<P: PlTop>(Rc<RefCell<Unit<P>>>, usize);

impl<P: PlTop> RegisterBus for CtrlBus<P> {
    fn read32(&mut self, offset: usize) -> u32 {
        self.0.borrow_mut().ctrl_read(self.1 + offset)
    }
    fn write32(&mut self, offset: usize, value: u32) {
        self.0.borrow_mut().ctrl_write(self.1 + offset, value)
    }
}

/// The DMA register window of a unit as the driver's [`RegisterBus`].
pub struct DmaBus<P: PlTop>(Rc<RefCell<Unit<P>>>);

impl<P: PlTop> RegisterBus for DmaBus<P> {
    fn read32(&mut self, offset: usize) -> u32 {
        self.0.borrow_mut().dma_read(offset)
    }
    fn write32(&mut self, offset: usize, value: u32) {
        self.0.borrow_mut().dma_write(offset, value)
    }
}

/// A simulated top of either engine.
pub type AnyTop = Box<dyn PlTop>;
/// The DMA port type of a unit.
pub type Port<'a, P> = DmaPort<'a, DmaBus<P>, CacheModel, OffsetMap>;
/// [`HwRing`] on the simulated NTT top.
pub type SimRing<'a> = HwRing<'a, CtrlBus<AnyTop>, DmaBus<AnyTop>, CacheModel, OffsetMap>;
/// [`HwKeccak`] on the simulated Keccak top.
pub type SimKeccak<'a> = HwKeccak<'a, CtrlBus<AnyTop>, DmaBus<AnyTop>, CacheModel, OffsetMap>;
/// [`HwMlDsa`] on the simulated ML-DSA engine top.
pub type SimMlDsa<'a> = HwMlDsa<'a, CtrlBus<AnyTop>, DmaBus<AnyTop>, CacheModel, OffsetMap>;
/// [`HwSlhDsa`] on the simulated SLH-DSA engine top.
pub type SimSlhDsa<'a> = HwSlhDsa<'a, CtrlBus<AnyTop>, DmaBus<AnyTop>, CacheModel, OffsetMap>;

/// Bus base of each port's DDR region (inside the Zynq's DDR, above the
/// firmware image; distinct per unit).
const NTT_DDR_BASE: u32 = 0x0800_0000;
const KECCAK_DDR_BASE: u32 = 0x0900_0000;
const MLDSA_DDR_BASE: u32 = 0x0A00_0000;
const SLHDSA_DDR_BASE: u32 = 0x0B00_0000;
/// DMA buffer bytes (each way) of the SLH-DSA engine's port: room for its
/// largest stream (a 256f signature without R, and the verdict word).
pub const SLHDSA_BUFFER_BYTES: usize =
    ps_pl_contract::dma::SLHDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES);
/// DMA buffer bytes (each way) of the ML-DSA engine's port: room for the
/// engine's largest stream (pk ‖ sk of ML-DSA-87), in whole cache lines.
pub const MLDSA_BUFFER_BYTES: usize =
    ps_pl_contract::dma::MLDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES);

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
    pub ntt: Rc<RefCell<Unit<AnyTop>>>,
    /// The Keccak unit.
    pub keccak: Rc<RefCell<Unit<AnyTop>>>,
    /// The engines' unit (`hdl::axi::EnginesAccel`: both engines on one
    /// sponge, one DMA), elaborated on first use ([`Pl::engines_unit`]):
    /// the report's primitive tiers never need it.
    engines: std::cell::OnceCell<Rc<RefCell<Unit<AnyTop>>>>,
    ddr: SharedDdr,
    cfg: Config,
    progress: Arc<AtomicU64>,
}

fn port<'a, P: PlTop>(
    unit: &Rc<RefCell<Unit<P>>>,
    ddr: &SharedDdr,
    cfg: &Config,
    base: u32,
    arena: &'a mut Arena,
    bytes: usize,
) -> Port<'a, P> {
    // Bus addresses keep the CPU buffers' line alignment (as the Zynq's
    // identity map does), so cache-line counts do not depend on where the
    // allocator put the arena.
    let skip = arena.0.as_ptr().align_offset(LINE_BYTES);
    let map = OffsetMap::new(arena.0.as_ptr() as usize + skip, arena.0.len() - skip, base);
    ddr.borrow_mut().add_region(base, map.len());
    let aligned = driver::accel::line_aligned(&mut arena.0, 2 * bytes).expect("arena size");
    let (dst, src) = aligned.split_at_mut(bytes);
    let engine = AxiDma::new(DmaBus(unit.clone()), LENGTH_WIDTH_BITS, cfg.poll_limit);
    let cache =
        CacheModel::new(ddr.clone(), map).with_line_counter(unit.borrow().cache_lines.clone());
    DmaPort::new(engine, cache, map, src, dst).expect("co-simulation buffers")
}

impl Pl {
    /// Elaborates both tops on `cfg.engine` and resets them. The
    /// Verilator engine builds its models on first use (a minute or two,
    /// cached by the Verilog's hash); that is the only way this fails.
    pub fn new(cfg: Config) -> Result<Self, String> {
        Self::build(cfg, None)
    }

    /// As [`Pl::new`] on Verilator, writing a VCD of each top:
    /// `<stem>.ntt_accel.vcd` and `<stem>.keccak_accel.vcd`.
    pub fn traced(cfg: Config, stem: &Path) -> Result<Self, String> {
        Self::build(cfg.on(Engine::Verilator), Some(stem))
    }

    /// The VCD file of `top` for a trace stem.
    pub fn vcd_path(stem: &Path, top: &str) -> std::path::PathBuf {
        let mut name = stem.as_os_str().to_owned();
        name.push(format!(".{top}.vcd"));
        name.into()
    }

    fn build(cfg: Config, trace: Option<&Path>) -> Result<Self, String> {
        let (ntt, keccak): (AnyTop, AnyTop) = match cfg.engine {
            Engine::RustHdl => (Box::new(AccelBench::ntt()), Box::new(AccelBench::keccak())),
            Engine::Verilator => {
                let traced = |mut top: VerilatedTop, name: &str| -> Result<AnyTop, String> {
                    if let Some(stem) = trace {
                        top.trace_to(&Self::vcd_path(stem, name))?;
                    }
                    Ok(Box::new(top))
                };
                (
                    traced(VerilatedTop::ntt(trace.is_some())?, hdl::axi::NTT_ACCEL)?,
                    traced(
                        VerilatedTop::keccak(trace.is_some())?,
                        hdl::axi::KECCAK_ACCEL,
                    )?,
                )
            }
        };
        let ddr = Ddr::shared();
        let progress = Arc::new(AtomicU64::new(0));
        let unit = |top| {
            Rc::new(RefCell::new(Unit::new(
                top,
                ddr.clone(),
                &cfg,
                progress.clone(),
            )))
        };
        Ok(Pl {
            ntt: unit(ntt),
            keccak: unit(keccak),
            engines: std::cell::OnceCell::new(),
            ddr: ddr.clone(),
            cfg,
            progress,
        })
    }

    /// The engine the tops run on.
    pub fn engine(&self) -> Engine {
        self.cfg.engine
    }

    /// PL cycles both units have run so far, readable from another thread
    /// (for a progress display).
    pub fn progress_counter(&self) -> Arc<AtomicU64> {
        self.progress.clone()
    }

    /// Starts recording every register access of both units.
    pub fn record_accesses(&self) {
        self.ntt.borrow_mut().record_accesses();
        self.keccak.borrow_mut().record_accesses();
    }

    /// The accesses recorded so far: (NTT unit, Keccak unit).
    pub fn take_accesses(&self) -> (Vec<Access>, Vec<Access>) {
        (
            self.ntt.borrow_mut().take_accesses(),
            self.keccak.borrow_mut().take_accesses(),
        )
    }

    /// [`HwRing`] over the NTT unit, its buffers in `arena`
    /// (`Arena::new(NTT_BUFFER_BYTES)`).
    pub fn ring<'a>(&self, arena: &'a mut Arena) -> SimRing<'a> {
        let bytes = (arena.0.len() - 2 * LINE_BYTES) / 2;
        HwRing::new(
            Control::new(CtrlBus(self.ntt.clone(), 0), self.cfg.poll_limit),
            port(&self.ntt, &self.ddr, &self.cfg, NTT_DDR_BASE, arena, bytes),
        )
    }

    /// [`HwKeccak`] over the Keccak unit, its buffers in `arena`.
    pub fn keccak<'a>(&self, arena: &'a mut Arena) -> SimKeccak<'a> {
        let bytes = (arena.0.len() - 2 * LINE_BYTES) / 2;
        HwKeccak::new(
            Control::new(CtrlBus(self.keccak.clone(), 0), self.cfg.poll_limit),
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

    /// The engines' unit, elaborated (and reset) on the first call, on
    /// the same simulator as the other tops.
    pub fn engines_unit(&self) -> Result<Rc<RefCell<Unit<AnyTop>>>, String> {
        if let Some(u) = self.engines.get() {
            return Ok(u.clone());
        }
        let top: AnyTop = match self.cfg.engine {
            Engine::RustHdl => Box::new(AccelBench::<hdl::axi::EnginesAccel>::new()),
            Engine::Verilator => Box::new(VerilatedTop::engines(false)?),
        };
        let unit = Rc::new(RefCell::new(Unit::new(
            top,
            self.ddr.clone(),
            &self.cfg,
            self.progress.clone(),
        )));
        Ok(self.engines.get_or_init(|| unit).clone())
    }

    /// The unit of the ML-DSA engine: the engines' unit.
    pub fn mldsa_unit(&self) -> Result<Rc<RefCell<Unit<AnyTop>>>, String> {
        self.engines_unit()
    }

    /// [`HwMlDsa`] over the ML-DSA engine unit, its buffers in `arena`
    /// (`Arena::new(MLDSA_BUFFER_BYTES)`).
    pub fn mldsa<'a>(&self, arena: &'a mut Arena) -> Result<SimMlDsa<'a>, String> {
        let unit = self.mldsa_unit()?;
        let bytes = (arena.0.len() - 2 * LINE_BYTES) / 2;
        Ok(HwMlDsa::new(
            Control::new(
                CtrlBus(unit.clone(), regmap::MLDSA_BASE - regmap::ENGINES_BASE),
                self.cfg.poll_limit,
            ),
            port(&unit, &self.ddr, &self.cfg, MLDSA_DDR_BASE, arena, bytes),
        ))
    }

    /// The unit of the SLH-DSA engine: the engines' unit.
    pub fn slhdsa_unit(&self) -> Result<Rc<RefCell<Unit<AnyTop>>>, String> {
        self.engines_unit()
    }

    /// [`HwSlhDsa`] over the SLH-DSA engine unit, its buffers in `arena`
    /// (`Arena::new(SLHDSA_BUFFER_BYTES)`).
    /// Its waits cover the engine's longest job
    /// (`regmap::slhdsa::MAX_JOB_CYCLES`), one poll per padded AXI-Lite
    /// access.
    pub fn slhdsa<'a>(&self, arena: &'a mut Arena) -> Result<SimSlhDsa<'a>, String> {
        let unit = self.slhdsa_unit()?;
        let bytes = (arena.0.len() - 2 * LINE_BYTES) / 2;
        let polls = ps_pl_contract::regmap::slhdsa::MAX_JOB_CYCLES
            / u64::from(self.cfg.axi_lite_cycles.max(1));
        let cfg = Config {
            poll_limit: self.cfg.poll_limit.max(polls as u32),
            ..self.cfg
        };
        Ok(HwSlhDsa::new(
            Control::new(
                CtrlBus(unit.clone(), regmap::SLHDSA_BASE - regmap::ENGINES_BASE),
                cfg.poll_limit,
            ),
            port(&unit, &self.ddr, &cfg, SLHDSA_DDR_BASE, arena, bytes),
        ))
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
        let mut e = self.ntt.borrow().all_errors();
        e.extend(self.keccak.borrow().all_errors());
        e
    }
}

/// Reads the register-access count of a [`Pl`] without holding it.
#[derive(Clone)]
pub struct Probe {
    ntt: Rc<RefCell<Unit<AnyTop>>>,
    keccak: Rc<RefCell<Unit<AnyTop>>>,
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
    /// Wall time of the accelerated run (simulation included), seconds.
    pub sim_seconds: f64,
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
    run_operation_on(pl, scheme, op, workload::MESSAGE)
}

/// [`run_operation`] on another message (for sign: one of the sign rows'
/// [`workload::sign_message`]s).
pub fn run_operation_on(
    pl: &Pl,
    scheme: Scheme,
    op: Operation,
    message: &[u8],
) -> Result<Outcome, String> {
    let base = workload::prerequisites(scheme, op)?;
    let mut software = base.clone();
    workload::run_on(&mut workload::soft(), scheme, op, message, &mut software)?;

    let mut ntt_arena = Arena::new(NTT_BUFFER_BYTES);
    let mut keccak_arena = Arena::new(KECCAK_BUFFER_BYTES);
    let probe = Probe::of(pl);
    let mut engine = MlDsa::new(
        Hooked::new(pl.ring(&mut ntt_arena), PlUse::new(probe.clone())),
        Hooked::new(pl.keccak(&mut keccak_arena), PlUse::new(probe)),
    );
    let before = pl.counts();
    let mut outputs = base;
    let started = Instant::now();
    workload::run_on(&mut engine, scheme, op, message, &mut outputs)?;
    let sim_seconds = started.elapsed().as_secs_f64();
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
        fallbacks: if ring.fault().is_some() || keccak.fault().is_some() {
            rs.sw_calls + ks.sw_calls
        } else {
            0
        },
        jobs: rs.jobs + ks.jobs,
        core_busy_cycles: rs.busy_cycles + ks.busy_cycles,
        ..after.bus_since(&before)
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
        sim_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use driver::accel::WotsChainOffload;
    use pqc::keccak::SoftKeccak;
    use pqc::keccak::{KeccakBackend, SpongeMode};
    use pqc::ring::RingBackend;
    use pqc::ring::SoftRing;
    use ps_pl_contract::dma::{self as reg, BusAddress, Dmacr, Dmasr, Length};
    use ps_pl_contract::regmap::{ctrl, keccak as kreg};
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    use std::time::Instant;

    fn shake256(msg: &[u8], out_len: usize) -> Vec<u8> {
        let mut h = sha3::Shake256::default();
        h.update(msg);
        let mut out = vec![0; out_len];
        h.finalize_xof().read(&mut out);
        out
    }

    #[test]
    fn every_register_access_takes_the_configured_time() {
        let pl = Pl::new(Config::DEFAULT).unwrap();
        let mut bus = CtrlBus(pl.keccak.clone(), 0);
        let c0 = pl.counts().pl_cycles;
        assert_eq!(bus.read32(ctrl::ID), kreg::ID);
        let mut dma = DmaBus(pl.keccak.clone());
        assert_eq!(dma.read(reg::MM2S_DMASR), Dmasr::HALTED);
        let c = pl.counts();
        assert_eq!(
            c.pl_cycles - c0,
            2 * u64::from(Config::DEFAULT.axi_lite_cycles)
        );
        assert_eq!((c.axi_lite_reads, c.axi_lite_writes), (2, 0));
    }

    /// The DMA model against the simulated top (its PG021 semantics have
    /// their own tests in `driver::host`): a SHAKE256 job whose 64-byte
    /// answer meets a 32-byte S2MM buffer is an internal error, the first
    /// 32 bytes land, MM2S completes normally.
    #[test]
    fn an_answer_longer_than_the_s2mm_buffer_is_an_internal_error() {
        let pl = Pl::new(Config::DEFAULT).unwrap();
        pl.ddr.borrow_mut().add_region(0x0100_0000, 4096);
        let mut dma = DmaBus(pl.keccak.clone());
        let mut ctl = CtrlBus(pl.keccak.clone(), 0);
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
        dma.write(reg::S2MM_DMACR, Dmacr::RS);
        dma.write(reg::S2MM_DA, BusAddress(0x0100_0100));
        dma.write(reg::S2MM_LENGTH, Length(32));
        dma.write(reg::MM2S_DMACR, Dmacr::RS);
        dma.write(reg::MM2S_SA, BusAddress(0x0100_0000));
        dma.write(reg::MM2S_LENGTH, Length(3));
        let mut s2mm = Dmasr(0);
        for _ in 0..100 {
            s2mm = dma.read(reg::S2MM_DMASR);
            if s2mm.intersects(Dmasr::ERR_IRQ) {
                break;
            }
        }
        assert_eq!(s2mm, Dmasr::DMA_INT_ERR | Dmasr::ERR_IRQ | Dmasr::HALTED);
        assert_eq!(dma.read(reg::MM2S_DMASR), Dmasr::IDLE | Dmasr::IOC_IRQ);
        let got = pl.ddr.borrow_mut().range(0x0100_0100, 32).unwrap().to_vec();
        assert_eq!(got, shake256(b"abc", 32));
        assert!(pl.errors().is_empty(), "{:?}", pl.errors());
    }

    #[test]
    fn shake256_requests_through_hw_keccak_equal_the_sha3_crate() {
        let pl = Pl::new(Config::DEFAULT).unwrap();
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
        let pl = Pl::new(Config::DEFAULT).unwrap();
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
                k.wots_chain(&seed, &adrs, &x, start, steps, &mut hw);
                SoftKeccak.wots_chain(&seed, &adrs, &x, start, steps, &mut sw);
                assert_eq!(hw, sw, "n {n}, start {start}, steps {steps}");
            }
        }
        assert_eq!(k.fault(), None);
        assert_eq!(k.stats().sw_calls, 0);
        assert!(pl.errors().is_empty(), "{:?}", pl.errors());
    }

    fn check_scheme(name: &str, ops: &[Operation]) {
        let scheme = Scheme::from_name(name).unwrap();
        let pl = Pl::new(Config::DEFAULT).unwrap();
        assert_eq!(pl.engine(), Engine::Verilator);
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

    // On Verilator (the default engine); `sim/tests/engine_equivalence.rs`
    // checks that rust-hdl gives the same transcripts.
    #[test]
    fn ml_dsa_on_the_simulated_pl_equals_software() {
        check_scheme("ML-DSA-44", &Operation::ALL);
        check_scheme("ML-DSA-65", &Operation::ALL);
        check_scheme("ML-DSA-87", &Operation::ALL);
    }

    #[test]
    fn slh_dsa_shake_128f_on_the_simulated_pl_equals_software() {
        check_scheme("SLH-DSA-SHAKE-128f", &Operation::ALL);
    }

    /// Key generation, signing and verification of the workload's
    /// SHAKE-128f rows on the Verilated SLH-DSA engine through the DMA
    /// model and `HwSlhDsa`: one engine job each, `pqc`'s keys, signature
    /// and verdict; the engine's CYCLES against the asserted formulas and
    /// the bus traffic of the contract's streams.
    #[test]
    fn slh_dsa_engine_on_the_simulated_pl_equals_software() {
        use hdl::slhdsa::engine::{keygen_clocks, sign_clocks};
        use ps_pl_contract::regmap::slhdsa as sreg;
        let pl = Pl::new(Config::DEFAULT).unwrap();
        assert_eq!(pl.engine(), Engine::Verilator);
        let p = &pqc::slhdsa::params::SHAKE_128F;
        let n = p.n;
        for op in Operation::ALL {
            let t = Instant::now();
            let o = run_slh_engine(&pl, p, op).unwrap();
            let c = &o.counts;
            eprintln!(
                "{} {} on the SLH-DSA engine: {} PL cycles, {} engine cycles, {} AXI-Lite, {} DMA bytes ({:.1} s)",
                p.name,
                op.name(),
                c.pl_cycles,
                c.core_busy_cycles,
                c.axi_lite(),
                c.dma_bytes(),
                t.elapsed().as_secs_f64()
            );
            assert!(
                o.identical,
                "{} {} differs from software",
                p.name,
                op.name()
            );
            assert_eq!((c.jobs, c.fallbacks), (1, 0));
            let (stream_in, stream_out, engine) = match op {
                Operation::Keygen => (
                    4 * sreg::KEYGEN_INPUT_WORDS,
                    n,
                    1 + sreg::KEYGEN_INPUT_WORDS as u64 + keygen_clocks(n, p.hp as u32) + 1,
                ),
                Operation::Sign => (
                    4 * sreg::SIGN_INPUT_WORDS,
                    p.sig_bytes() - n + 4,
                    1 + sreg::SIGN_INPUT_WORDS as u64
                        + sign_clocks(n, p.a as u32, p.k, p.hp as u32, p.d as u64)
                        + 2,
                ),
                Operation::Verify => (4 * sreg::verify_stream_words(n, p.sig_bytes()), 4, 0),
            };
            assert_eq!(c.dma_bytes(), (stream_in + stream_out) as u64);
            // CYCLES runs from the command: the DMA set-up after it (padded
            // AXI-Lite accesses) delays the header by a few hundred clocks.
            if engine != 0 {
                let waited = c.core_busy_cycles - engine;
                assert!(waited < 1_000, "{} {}: {waited}", p.name, op.name());
            }
        }
    }

    #[test]
    fn software_ring_is_untouched_by_the_wrapper() {
        // The recorder sees no PL traffic for a software backend.
        let pl = Pl::new(Config::DEFAULT).unwrap();
        let mut r = Hooked::new(SoftRing, PlUse::new(Probe::of(&pl)));
        let mut p = [1i32; pqc::ring::N];
        r.ntt(&mut p);
        assert_eq!(r.hook.on_pl, vec![false]);
    }
}

/// What one whole operation on a PL engine cost (`engine` tier).
#[derive(Clone, Debug)]
pub struct EngineOutcome {
    /// Co-simulation counts of the engine's unit for the operation.
    pub counts: AccelCounts,
    /// The keys (or outputs) equal the software ones byte for byte (and,
    /// for a signature, the engine's attempts equal `pqc`'s).
    pub identical: bool,
    /// Sign: the attempts of the rejection loop the engine reported.
    pub attempts: Option<u32>,
}

/// The counts of one engine call: the unit's bus traffic from `before` to
/// `after`, the backend's job count and the engine's CYCLES. Fails if the
/// backend recorded a fault or did not run the call as one engine job (a
/// fault or a software fallback must not pass as an engine figure).
fn engine_counts(
    what: &str,
    (before, after): (AccelCounts, AccelCounts),
    fault: Option<AccelError>,
    stats: AccelStats,
) -> Result<AccelCounts, String> {
    if let Some(f) = fault {
        return Err(format!("{what} on the engine: {f}"));
    }
    if stats.sw_calls != 0 || stats.jobs != 1 {
        return Err(format!("{what} did not run as one engine job"));
    }
    Ok(AccelCounts {
        fallbacks: stats.sw_calls,
        jobs: stats.jobs,
        core_busy_cycles: u64::from(stats.last_cycles),
        ..after.bus_since(&before)
    })
}

/// Runs `call` on a fresh `HwMlDsa` over the ML-DSA engine unit: its
/// result and the counts of the engine operation ([`engine_counts`]).
fn on_engine<T>(
    pl: &Pl,
    what: &str,
    call: impl FnOnce(&mut SimMlDsa<'_>) -> T,
) -> Result<(T, AccelCounts), String> {
    let unit = pl.mldsa_unit()?;
    let mut arena = Arena::new(MLDSA_BUFFER_BYTES);
    let mut hw = pl.mldsa(&mut arena)?;
    let before = unit.borrow().counts();
    let out = call(&mut hw);
    let after = unit.borrow().counts();
    let counts = engine_counts(what, (before, after), hw.fault(), hw.stats())?;
    Ok((out, counts))
}

/// [`on_engine`] on a fresh `HwSlhDsa` over the SLH-DSA engine unit.
fn on_slh_engine<T>(
    pl: &Pl,
    what: &str,
    call: impl FnOnce(&mut SimSlhDsa<'_>) -> T,
) -> Result<(T, AccelCounts), String> {
    let unit = pl.slhdsa_unit()?;
    let mut arena = Arena::new(SLHDSA_BUFFER_BYTES);
    let mut hw = pl.slhdsa(&mut arena)?;
    let before = unit.borrow().counts();
    let out = call(&mut hw);
    let after = unit.borrow().counts();
    let counts = engine_counts(what, (before, after), hw.fault(), hw.stats())?;
    Ok((out, counts))
}

/// The SLH-DSA sets the simulated engine runs, in `pqc`'s order: those
/// its `CONFIG` offers (read through the driver, as the firmware does).
pub fn slh_engine_sets(pl: &Pl) -> Result<Vec<&'static pqc::slhdsa::Params>, String> {
    let mut arena = Arena::new(SLHDSA_BUFFER_BYTES);
    let mut hw = pl.slhdsa(&mut arena)?;
    Ok(pqc::slhdsa::params::ALL
        .iter()
        .copied()
        .filter(|p| hw.offers(p))
        .collect())
}

/// An SLH-DSA operation of the workload (the keys, message and signature
/// of the other tiers' rows; pure SLH-DSA, empty context, deterministic)
/// on the SLH-DSA engine (driver backend `HwSlhDsa`: R and H_msg on the
/// CPU, the rest one engine job); compared with `pqc`'s software. Fails if
/// the backend fell back to software.
pub fn run_slh_engine(
    pl: &Pl,
    p: &'static pqc::slhdsa::Params,
    op: Operation,
) -> Result<EngineOutcome, String> {
    use pqc::slhdsa;
    let scheme = Scheme::SlhDsa(p);
    let what = format!("{} {}", p.name, op.name());
    let mut prior = workload::prerequisites(scheme, op)?;
    let (identical, counts) = match op {
        Operation::Keygen => {
            let n = p.n;
            let seeds = vec![workload::SLH_SEED_BYTE; 3 * n];
            let (mut sk, mut pk) = (vec![0; p.sk_bytes()], vec![0; p.pk_bytes()]);
            let (made, counts) = on_slh_engine(pl, &what, |hw| {
                slhdsa::slh_keygen_internal_on(
                    hw,
                    p,
                    &seeds[..n],
                    &seeds[n..2 * n],
                    &seeds[2 * n..],
                    &mut sk,
                    &mut pk,
                )
            })?;
            made.map_err(|e| format!("{what}: {e:?}"))?;
            workload::run(&mut workload::soft(), scheme, op, &mut prior)?;
            (sk == prior.sk && pk == prior.pk, counts)
        }
        Operation::Sign => {
            let mut sig = vec![0; p.sig_bytes()];
            let (signed, counts) = on_slh_engine(pl, &what, |hw| {
                slhdsa::slh_sign_on(hw, p, &prior.sk, workload::MESSAGE, b"", None, &mut sig)
            })?;
            signed.map_err(|e| format!("{what}: {e:?}"))?;
            workload::run(&mut workload::soft(), scheme, op, &mut prior)?;
            (sig == prior.sig, counts)
        }
        Operation::Verify => {
            let (verdict, counts) = on_slh_engine(pl, &what, |hw| {
                slhdsa::slh_verify_on(hw, p, &prior.pk, workload::MESSAGE, b"", &prior.sig)
            })?;
            let software = slhdsa::slh_verify(p, &prior.pk, workload::MESSAGE, b"", &prior.sig);
            (verdict.is_ok() && software.is_ok(), counts)
        }
    };
    Ok(EngineOutcome {
        counts,
        identical,
        attempts: None,
    })
}

/// ML-DSA KeyGen_internal of `set` on the ML-DSA engine (driver backend
/// `HwMlDsa`), from the workload's fixed seed; compared with `pqc`.
/// Fails if the backend fell back to software.
pub fn run_engine_keygen(pl: &Pl, set: pqc::mldsa::ParameterSet) -> Result<EngineOutcome, String> {
    let (mut pk, mut sk) = (
        vec![0u8; set.public_key_len()],
        vec![0u8; set.secret_key_len()],
    );
    let (made, counts) = on_engine(pl, &format!("{set:?} keygen"), |hw| {
        hw.keygen_internal(set, &workload::MLDSA_SEED, &mut pk, &mut sk)
    })?;
    made.map_err(|e| format!("{set:?} keygen: {e:?}"))?;
    let (mut spk, mut ssk) = (vec![0u8; pk.len()], vec![0u8; sk.len()]);
    pqc::mldsa::keygen_internal(set, &workload::MLDSA_SEED, &mut spk, &mut ssk)
        .map_err(|e| format!("{e:?}"))?;
    Ok(EngineOutcome {
        counts,
        identical: pk == spk && sk == ssk,
        attempts: None,
    })
}

/// M′ of the workload's sign and verify rows on `message`: pure ML-DSA
/// with an empty context, so 0 ‖ 0 ‖ message.
fn workload_m_prime(message: &[u8]) -> Vec<u8> {
    hdl::mldsa::verify::pure_m_prime(message, b"")
}

/// ML-DSA Sign of the workload on `message` (the keys and rnd of the other
/// tiers' sign rows, M′ = 0 ‖ 0 ‖ message; the sign rows use
/// [`workload::sign_message`]s) on the ML-DSA engine (driver backend
/// `HwMlDsa`, M′ streamed to the engine); compared with `pqc`: σ byte for
/// byte and the attempts (`RESULT` against `pqc::mldsa::sign_mu_counting`).
/// Fails if the backend fell back to software.
pub fn run_engine_sign(
    pl: &Pl,
    set: pqc::mldsa::ParameterSet,
    message: &[u8],
) -> Result<EngineOutcome, String> {
    let scheme = workload::Scheme::MlDsa(set);
    let prior = workload::prerequisites(scheme, workload::Operation::Sign)?;
    let m_prime = workload_m_prime(message);
    let mut sig = vec![0u8; set.signature_len()];
    let ((signed, attempts), counts) = on_engine(pl, &format!("{set:?} sign"), |hw| {
        let signed = hw.sign_internal(set, &prior.sk, &m_prime, &workload::MLDSA_RND, &mut sig);
        (signed, hw.last_sign_attempts())
    })?;
    signed.map_err(|e| format!("{set:?} sign: {e:?}"))?;
    let (want, want_attempts) = software_signature(set, &prior.sk, &m_prime, &workload::MLDSA_RND)?;
    Ok(EngineOutcome {
        counts,
        identical: sig == want && attempts == Some(want_attempts),
        attempts,
    })
}

/// `pqc`'s signature of `m_prime` under `sk` with `rnd`, and its attempts
/// (`pqc::mldsa::sign_internal_counting`).
pub fn software_signature(
    set: pqc::mldsa::ParameterSet,
    sk: &[u8],
    m_prime: &[u8],
    rnd: &[u8; 32],
) -> Result<(Vec<u8>, u32), String> {
    let mut sig = vec![0u8; set.signature_len()];
    let attempts = pqc::mldsa::sign_internal_counting(set, sk, m_prime, rnd, &mut sig)
        .map_err(|e| format!("{set:?} sign in software: {e:?}"))?;
    Ok((sig, attempts as u32))
}

/// ML-DSA Verify of the workload's signature (pure ML-DSA, empty context,
/// so M′ = 0 ‖ 0 ‖ message) on the ML-DSA engine (driver backend
/// `HwMlDsa`, M′ streamed to the engine); compared with `pqc`. Fails if the
/// backend fell back to software.
pub fn run_engine_verify(pl: &Pl, set: pqc::mldsa::ParameterSet) -> Result<EngineOutcome, String> {
    let scheme = workload::Scheme::MlDsa(set);
    let prior = workload::prerequisites(scheme, workload::Operation::Verify)?;
    let m_prime = workload_m_prime(workload::MESSAGE);
    let (verdict, counts) = on_engine(pl, &format!("{set:?} verify"), |hw| {
        hw.verify_internal(set, &prior.pk, &m_prime, &prior.sig)
    })?;
    let software = pqc::mldsa::verify_internal(set, &prior.pk, &m_prime, &prior.sig);
    Ok(EngineOutcome {
        counts,
        identical: verdict.is_ok() && software.is_ok(),
        attempts: None,
    })
}
