//! Everything that only exists on the Zynq-7000 PS: boot, MMU and caches,
//! console, timer, stack painting, semihosting exit.
//!
//! The boot code is our own rather than the us-irs `zynq7000-rt`: that
//! crate leaves the MMU and L2 set-up to `zynq7000-hal`, whose dependency
//! tree (embassy, embedded-hal, …) is far larger than the ~150 lines needed
//! here, and we want the memory attributes of the PL window (strongly
//! ordered) and the cache start-up order under our own, reviewable control.

mod boot;
mod mmu;
mod peripherals;
pub mod semihosting;
mod stack;
mod timer;
mod uart;

use crate::app::{self, Measurement, Platform};
use crate::{bench, uart_config};
use core::cell::RefCell;
use core::fmt::Write;
use driver::accel::{Control, DmaPort, HwKeccak, HwMlDsa, HwRing, HwSlhDsa};
use driver::bus::RegisterBus;
use driver::cache::{CacheMaintenance, ZynqCaches, LINE_BYTES};
use driver::dma::{AxiDma, IdentityMap};
use driver::mmio::Mmio;
use driver::pl310::Pl310;
use driver::probe::{self, Probe};
use peripherals::Peripherals;
use ps_pl_contract::dma::{
    KECCAK_BUFFER_BYTES, LENGTH_WIDTH_BITS, MLDSA_MAX_STREAM_BYTES, NTT_BUFFER_BYTES,
    SLHDSA_MAX_STREAM_BYTES,
};
use ps_pl_contract::ps::{
    SLCR_L2C_RAM, SLCR_L2C_RAM_VALUE, SLCR_LOCK, SLCR_LOCK_KEY, SLCR_UNLOCK, SLCR_UNLOCK_KEY,
};
use ps_pl_contract::regmap::mldsa::verify_stream_words;

/// A register window shared in turn by several users.
type Shared<'a> = &'a RefCell<Mmio>;

struct Board<'a> {
    timer: timer::GlobalTimer,
    devcfg: Mmio,
    slcr: Shared<'a>,
    ntt: Shared<'a>,
    keccak: Shared<'a>,
    mldsa: Shared<'a>,
    slhdsa: Shared<'a>,
}

impl Platform for Board<'_> {
    fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
        let timer = &mut self.timer;
        let mut ticks = 0;
        let stack_bytes = stack::measure(&mut || {
            let start = timer.now();
            f();
            ticks = timer.now().wrapping_sub(start);
        });
        Measurement {
            ticks,
            stack_bytes: Some(stack_bytes),
        }
    }

    fn probe(&mut self) -> Probe {
        // The probe only reads, and touches GP0 only after DEVCFG and the
        // SLCR report a configured PL behind enabled level shifters.
        probe::probe(
            &mut self.devcfg,
            &mut self.slcr,
            &mut self.ntt,
            &mut self.keccak,
            &mut self.mldsa,
            &mut self.slhdsa,
        )
    }

    fn platform_notes(&self, out: &mut dyn Write) {
        let _ = writeln!(
            out,
            "timer: Cortex-A9 global timer, prescaler {} (ZedBoard: 1 tick = {} CPU cycles at 666.67 MHz; QEMU: 100 MHz of virtual time, 10 guest instructions per tick under -icount shift=0)",
            timer::PRESCALER,
            timer::CPU_CYCLES_PER_TICK
        );
        let _ = writeln!(
            out,
            "stack: {} KiB for the application (SYS mode)",
            stack::capacity() / 1024
        );
        let _ = writeln!(
            out,
            "console: UART1 8N1, CD={} BDIV={}: {} baud from a {} MHz UART_REF_CLK",
            uart_config::CD,
            uart_config::BDIV,
            uart_config::actual_baud(
                uart_config::UART_REF_CLK_HZ,
                uart_config::CD,
                uart_config::BDIV
            ),
            uart_config::UART_REF_CLK_HZ / 1_000_000
        );
    }
}

/// Poll budget of every accelerator wait (`driver::poll`: well under a second).
const ACCEL_POLL_LIMIT: u32 = 1_000_000;

/// The DMA buffers of the contract (`ps_pl_contract::dma`): one polynomial
/// each way for the NTT core, the Keccak engine's for sponge requests.
/// Every field starts on a cache line, as the destinations must.
#[repr(C, align(32))]
struct DmaArea {
    ntt_src: [u8; NTT_BUFFER_BYTES],
    ntt_dst: [u8; NTT_BUFFER_BYTES],
    keccak_src: [u8; KECCAK_BUFFER_BYTES],
    keccak_dst: [u8; KECCAK_BUFFER_BYTES],
}

type Caches<'a> = ZynqCaches<Shared<'a>>;

/// The hardware backends over the PL windows of the contract's register map.
struct Accelerator<'a> {
    ring: HwRing<'a, Shared<'a>, Mmio, Caches<'a>, IdentityMap>,
    keccak: HwKeccak<'a, Shared<'a>, Mmio, Caches<'a>, IdentityMap>,
}

/// The windows the accelerators use.
struct AcceleratorWindows<'a> {
    ntt: Shared<'a>,
    ntt_dma: Mmio,
    keccak: Shared<'a>,
    keccak_dma: Mmio,
    /// The PL310, when it was enabled.
    l2: Option<Shared<'a>>,
}

impl<'a> Accelerator<'a> {
    /// Builds both backends without touching the PL (they read ID and
    /// VERSION on first use, which the application makes only after the
    /// probe found the cores); `None` if a buffer is unusable for DMA.
    fn new(area: &'a mut DmaArea, windows: AcceleratorWindows<'a>) -> Option<Self> {
        let AcceleratorWindows {
            ntt,
            ntt_dma,
            keccak,
            keccak_dma,
            l2,
        } = windows;
        // Only by-address maintenance is issued, one call at a time.
        let caches = || ZynqCaches::new(l2.map(|w| Pl310::new(w, 1_000_000)));
        let dma = |bus| AxiDma::new(bus, LENGTH_WIDTH_BITS, ACCEL_POLL_LIMIT);
        let ntt_port = DmaPort::new(
            dma(ntt_dma),
            caches(),
            IdentityMap,
            &mut area.ntt_src,
            &mut area.ntt_dst,
        )
        .ok()?;
        let keccak_port = DmaPort::new(
            dma(keccak_dma),
            caches(),
            IdentityMap,
            &mut area.keccak_src,
            &mut area.keccak_dst,
        )
        .ok()?;
        Some(Accelerator {
            ring: HwRing::new(Control::new(ntt, ACCEL_POLL_LIMIT), ntt_port),
            keccak: HwKeccak::new(Control::new(keccak, ACCEL_POLL_LIMIT), keccak_port),
        })
    }
}

/// The ML-DSA engine's DMA buffers: out, ξ or pk ‖ σ ‖ M′ (the verify
/// stream of ML-DSA-87 with the benchmark's 50-byte M′ is 7,272 bytes; for
/// an M′ that does not fit, the driver sends μ instead); back, pk ‖ sk of
/// the largest set (whole cache lines, as a destination must be) or the
/// verdict word.
#[repr(C, align(32))]
struct MlDsaDmaArea {
    src: [u8; MLDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
    dst: [u8; MLDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
}

// The largest set's verify stream with μ (so every set's) fits the source
// buffer: no verification falls back to software for want of room.
const _: () = {
    let set = pqc::mldsa::ParameterSet::MlDsa87;
    let words = verify_stream_words(set.public_key_len(), set.signature_len(), 64);
    assert!(words * 4 <= MLDSA_MAX_STREAM_BYTES);
};

/// The SLH-DSA engine's DMA buffers: out, the largest verification stream
/// (the header and SLH-DSA-SHAKE-256f's signature without R); back, the
/// largest signature without R and the verdict word.
#[repr(C, align(32))]
struct SlhDsaDmaArea {
    src: [u8; SLHDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
    dst: [u8; SLHDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
}

/// An engine's DMA port over its buffers, on the engines' one DMA; `None`
/// if a buffer is unusable for DMA.
fn engine_port<'a>(
    (src, dst): (&'a mut [u8], &'a mut [u8]),
    dma: Shared<'a>,
    l2: Option<Shared<'a>>,
) -> Option<DmaPort<'a, Shared<'a>, Caches<'a>, IdentityMap>> {
    DmaPort::new(
        AxiDma::new(dma, LENGTH_WIDTH_BITS, ACCEL_POLL_LIMIT),
        ZynqCaches::new(l2.map(|w| Pl310::new(w, 1_000_000))),
        IdentityMap,
        src,
        dst,
    )
    .ok()
}

/// [`HwMlDsa`] over the engine's windows.
type BoardMlDsa<'a> = HwMlDsa<'a, Shared<'a>, Shared<'a>, Caches<'a>, IdentityMap>;

/// [`HwSlhDsa`] over the engine's windows.
type BoardSlhDsa<'a> = HwSlhDsa<'a, Shared<'a>, Shared<'a>, Caches<'a>, IdentityMap>;

/// Builds the ML-DSA engine backend without touching the PL (it reads ID
/// and VERSION on first use, made only after the probe found the engine);
/// `None` if a buffer is unusable for DMA.
fn mldsa_engine<'a>(
    area: &'a mut MlDsaDmaArea,
    ctrl: Shared<'a>,
    dma: Shared<'a>,
    l2: Option<Shared<'a>>,
) -> Option<BoardMlDsa<'a>> {
    let port = engine_port((&mut area.src, &mut area.dst), dma, l2)?;
    Some(HwMlDsa::new(Control::new(ctrl, ACCEL_POLL_LIMIT), port))
}

/// Builds the SLH-DSA engine backend, as [`mldsa_engine`].
fn slhdsa_engine<'a>(
    area: &'a mut SlhDsaDmaArea,
    ctrl: Shared<'a>,
    dma: Shared<'a>,
    l2: Option<Shared<'a>>,
) -> Option<BoardSlhDsa<'a>> {
    let port = engine_port((&mut area.src, &mut area.dst), dma, l2)?;
    Some(HwSlhDsa::new(Control::new(ctrl, ACCEL_POLL_LIMIT), port))
}

/// The board plus the hardware backends (when the DMA buffers are usable).
struct BoardWithAccelerator<'a> {
    board: Board<'a>,
    accelerator: Option<Accelerator<'a>>,
    mldsa_engine: Option<BoardMlDsa<'a>>,
    slhdsa_engine: Option<BoardSlhDsa<'a>>,
}

impl Platform for BoardWithAccelerator<'_> {
    fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
        self.board.measure(f)
    }

    fn probe(&mut self) -> Probe {
        self.board.probe()
    }

    fn platform_notes(&self, out: &mut dyn Write) {
        self.board.platform_notes(out)
    }

    fn with_accelerator(&mut self, body: &mut app::AcceleratedBody<'_>) -> bool {
        let Some(accelerator) = &mut self.accelerator else {
            return false;
        };
        body(
            &mut self.board,
            &mut accelerator.ring,
            &mut accelerator.keccak,
        );
        true
    }

    fn accelerator_report(&mut self, out: &mut dyn Write) {
        let Some(a) = &self.accelerator else { return };
        let ring = &a.ring;
        bench::print_accel_line(
            out,
            "NTT core",
            ring.stats(),
            ring.fault(),
            ring.abandoned(),
        );
        let keccak = &a.keccak;
        bench::print_accel_line(
            out,
            "Keccak engine",
            keccak.stats(),
            keccak.fault(),
            keccak.abandoned(),
        );
    }

    fn with_mldsa_engine(&mut self, body: &mut app::EngineBody<'_>) -> bool {
        let Some(engine) = &mut self.mldsa_engine else {
            return false;
        };
        body(&mut self.board, engine);
        true
    }

    fn with_slhdsa_engine(&mut self, body: &mut app::SlhEngineBody<'_>) -> bool {
        let Some(engine) = &mut self.slhdsa_engine else {
            return false;
        };
        body(&mut self.board, engine);
        true
    }
}

/// Enables the SCU and joins the Cortex-A9 to coherency (ACTLR.SMP, FW),
/// as the Zynq boot flow does before the D-cache is turned on.
fn scu_and_smp_bits(scu: &mut Mmio) {
    scu.modify32(0, 0, 1);
    // SAFETY: ACTLR read-modify-write of the SMP (bit 6) and FW (bit 0)
    // bits, legal in Secure PL1 before caches are enabled.
    unsafe {
        core::arch::asm!(
            "mrc p15, 0, {t}, c1, c0, 1",
            "orr {t}, {t}, #0x41",
            "mcr p15, 0, {t}, c1, c0, 1",
            "isb",
            t = out(reg) _,
            options(nostack)
        );
    }
}

/// Programs the SLCR L2C RAM register (unlock/lock protocol) and enables
/// the PL310.
fn l2_enable(slcr: Shared<'_>, pl310: Shared<'_>) -> Result<(), driver::poll::PollTimeout> {
    let mut slcr = slcr.borrow_mut();
    slcr.write32(SLCR_UNLOCK, SLCR_UNLOCK_KEY);
    slcr.write32(SLCR_L2C_RAM, SLCR_L2C_RAM_VALUE);
    slcr.write32(SLCR_LOCK, SLCR_LOCK_KEY);
    Pl310::new(pl310, 1_000_000).enable()
}

/// Exit status bit: the cache-maintenance check failed.
const STATUS_CACHE_CHECK_FAILED: u32 = 4;

/// Runs the DMA cache maintenance (`driver::cache::ZynqCaches`: L1 by MVA,
/// then PL310 by PA) on a line-aligned buffer: write a pattern, clean,
/// invalidate, read back. On the board a clean that did not reach DDR
/// would lose the pattern at the invalidate; on QEMU (no cache model) it
/// shows that every maintenance operation executes.
fn cache_check(l2: Option<Shared<'_>>) -> Result<(), &'static str> {
    #[repr(C, align(32))]
    struct Lines([u8; 4096]);
    let mut buf = Lines([0; 4096]);
    for (i, b) in buf.0.iter_mut().enumerate() {
        *b = (i * 7 + 3) as u8;
    }
    // The controller is enabled; only by-address maintenance is issued.
    let mut caches = ZynqCaches::new(l2.map(|w| Pl310::new(w, 1_000_000)));
    caches
        .clean(&buf.0)
        .map_err(|_| "L2 clean did not complete")?;
    caches
        .invalidate(&mut buf.0)
        .map_err(|_| "L2 invalidate did not complete")?;
    let intact = buf
        .0
        .iter()
        .enumerate()
        .all(|(i, &b)| b == (i * 7 + 3) as u8);
    if intact {
        Ok(())
    } else {
        Err("data lost: clean did not reach memory")
    }
}

/// Called by `_start` in SYS mode with a stack, `.bss` and `.data` ready.
#[no_mangle]
extern "C" fn ps_app_start() -> ! {
    let Some(Peripherals {
        slcr,
        devcfg,
        mut scu,
        pl310,
        global_timer,
        uart1,
        ntt,
        ntt_dma,
        keccak,
        keccak_dma,
        mldsa,
        slhdsa,
        engines_dma,
    }) = Peripherals::take()
    else {
        unreachable!("ps_app_start runs once")
    };
    let mut uart = uart::Uart::init(uart1);
    let _ = writeln!(
        uart,
        "\nps-app: Zynq-7000 PS, ML-DSA (FIPS 204) / SLH-DSA (FIPS 205)"
    );
    let l2 = l2_enable(&slcr, &pl310);
    scu_and_smp_bits(&mut scu);
    mmu::enable();
    let _ = writeln!(
        uart,
        "boot: MMU {}, L1 caches on, PL310 L2 {}, VFP/NEON on",
        if mmu::caches_on() { "on" } else { "OFF" },
        match l2 {
            Ok(()) => "enabled",
            Err(_) => "FAILED (invalidate-by-way did not finish)",
        }
    );
    let l2_window = l2.is_ok().then_some(&pl310);
    let cache = cache_check(l2_window);
    let _ = match cache {
        Ok(()) => writeln!(
            uart,
            "cache: clean + invalidate by address over 4 KiB (L1 CP15, PL310 by PA): data intact"
        ),
        Err(why) => writeln!(uart, "cache: maintenance check FAILED: {why}"),
    };
    // In this frame, which never returns: static in effect, without a
    // `static mut`. DDR, write-back cached: hence the cache maintenance.
    let mut dma_area = DmaArea {
        ntt_src: [0; NTT_BUFFER_BYTES],
        ntt_dst: [0; NTT_BUFFER_BYTES],
        keccak_src: [0; KECCAK_BUFFER_BYTES],
        keccak_dst: [0; KECCAK_BUFFER_BYTES],
    };
    let mut mldsa_area = MlDsaDmaArea {
        src: [0; MLDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
        dst: [0; MLDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
    };
    let mut slhdsa_area = SlhDsaDmaArea {
        src: [0; SLHDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
        dst: [0; SLHDSA_MAX_STREAM_BYTES.next_multiple_of(LINE_BYTES)],
    };
    let windows = AcceleratorWindows {
        ntt: &ntt,
        ntt_dma,
        keccak: &keccak,
        keccak_dma,
        l2: l2_window,
    };
    let mut board = BoardWithAccelerator {
        board: Board {
            timer: timer::GlobalTimer::start(global_timer),
            devcfg,
            slcr: &slcr,
            ntt: &ntt,
            keccak: &keccak,
            mldsa: &mldsa,
            slhdsa: &slhdsa,
        },
        accelerator: Accelerator::new(&mut dma_area, windows),
        mldsa_engine: mldsa_engine(&mut mldsa_area, &mldsa, &engines_dma, l2_window),
        slhdsa_engine: slhdsa_engine(&mut slhdsa_area, &slhdsa, &engines_dma, l2_window),
    };
    let mut status = app::run(&mut uart, &mut board);
    if cache.is_err() {
        status |= STATUS_CACHE_CHECK_FAILED;
    }
    let _ = writeln!(uart, "EXIT status={status}");
    let dropped = uart.dropped;
    if dropped != 0 {
        let _ = writeln!(uart, "console: {dropped} characters dropped");
    }
    semihosting::exit(status)
}

/// Exceptions are bugs here (no interrupts are enabled): report and stop.
#[no_mangle]
extern "C" fn ps_app_exception_trap(kind: u32, return_address: u32) -> ! {
    let (dfsr, dfar): (u32, u32);
    // SAFETY: reads of the data fault status and address registers.
    unsafe {
        core::arch::asm!("mrc p15, 0, {}, c5, c0, 0", out(reg) dfsr, options(nomem, nostack));
        core::arch::asm!("mrc p15, 0, {}, c6, c0, 0", out(reg) dfar, options(nomem, nostack));
    }
    let name = match kind {
        1 => "undefined instruction",
        2 => "SVC (no semihosting host?)",
        3 => "prefetch abort",
        4 => "data abort",
        6 => "IRQ",
        7 => "FIQ",
        _ => "reserved vector",
    };
    let mut uart = uart::Uart::emergency();
    let _ = writeln!(
        uart,
        "\nEXCEPTION: {name}, lr={return_address:#010x} DFSR={dfsr:#010x} DFAR={dfar:#010x}"
    );
    if kind == 2 {
        // Our own semihosting exit landed here: there is no host to stop us.
        let _ = writeln!(uart, "EXIT status=unknown (halted)");
        semihosting::park()
    }
    let _ = writeln!(uart, "EXIT status={}", app::STATUS_EXCEPTION);
    semihosting::exit(app::STATUS_EXCEPTION)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let mut uart = uart::Uart::emergency();
    let _ = writeln!(uart, "\nPANIC: {info}");
    let _ = writeln!(uart, "EXIT status={}", app::STATUS_PANIC);
    semihosting::exit(app::STATUS_PANIC)
}
