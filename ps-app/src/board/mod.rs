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
pub mod semihosting;
mod stack;
mod timer;
mod uart;

use crate::app::{self, Measurement, Platform};
use crate::uart_config;
use core::fmt::Write;
use driver::accel::{AccelStats, Control, DmaPort, HwKeccak, HwRing};
use driver::bus::RegisterBus;
use driver::cache::{CacheMaintenance, ZynqCaches};
use driver::dma::{AxiDma, IdentityMap};
use driver::mmio::Mmio;
use driver::pl310::{Pl310, PL310_BASE, PL310_WINDOW};
use driver::probe::{self, Probe, DEVCFG_BASE, DEVCFG_WINDOW};
use ps_pl_contract::regmap;

/// SLCR unlock/lock keys and the L2C RAM control register (UG585 §3.4.10).
const SLCR_BASE: usize = 0xF800_0000;
const SLCR_LOCK: usize = 0x004;
const SLCR_UNLOCK: usize = 0x008;
const SLCR_L2C_RAM: usize = 0xA1C;
const SLCR_LOCK_KEY: u32 = 0x767B;
const SLCR_UNLOCK_KEY: u32 = 0xDF0D;
const L2C_RAM_VALUE: u32 = 0x0002_0202;

/// Snoop control unit (CPU private space).
const SCU_BASE: usize = 0xF8F0_0000;

struct Board {
    timer: timer::GlobalTimer,
}

impl Platform for Board {
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
        // SAFETY: DEVCFG, the SLCR and the two PL control windows
        // (addresses from the shared register map) are device registers; the
        // probe only reads, and touches GP0 only after DEVCFG and the SLCR
        // report a configured PL behind enabled level shifters.
        let (mut devcfg, mut slcr, mut ntt, mut keccak) = unsafe {
            (
                Mmio::new(DEVCFG_BASE, DEVCFG_WINDOW),
                Mmio::new(SLCR_BASE, 0x1000),
                Mmio::new(regmap::NTT_BASE, regmap::CTRL_WINDOW_BYTES),
                Mmio::new(regmap::KECCAK_BASE, regmap::CTRL_WINDOW_BYTES),
            )
        };
        probe::probe(&mut devcfg, &mut slcr, &mut ntt, &mut keccak)
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

/// "Width of Buffer Length Register" of the AXI DMA cores (Vivado default).
const DMA_LENGTH_WIDTH: u32 = 14;
/// Poll budget of every accelerator wait (`driver::poll`: well under a second).
const ACCEL_POLL_LIMIT: u32 = 1_000_000;

/// The DMA buffers: one polynomial each way for the NTT core; 4 KiB each
/// way for the Keccak engine (the longest message the protocols hash is
/// ML-DSA-87's 2592-byte public key; longer requests run in software).
/// Every field starts on a cache line, as the destinations must.
#[repr(C, align(32))]
struct DmaArea {
    ntt_src: [u8; 1024],
    ntt_dst: [u8; 1024],
    keccak_src: [u8; 4096],
    keccak_dst: [u8; 4096],
}

type Caches = ZynqCaches<Mmio>;

/// The hardware backends over the PL windows of `ps_pl_contract::regmap`.
struct Accelerator<'a> {
    ring: HwRing<'a, Mmio, Mmio, Caches, IdentityMap>,
    keccak: HwKeccak<'a, Mmio, Mmio, Caches, IdentityMap>,
}

impl<'a> Accelerator<'a> {
    /// Builds both backends without touching the PL (they read ID and
    /// VERSION on first use, which the application makes only after the
    /// probe found the cores); `None` if a buffer is unusable for DMA.
    fn new(area: &'a mut DmaArea, l2_enabled: bool) -> Option<Self> {
        let caches = || {
            // SAFETY: the PL310 register window; only by-address
            // maintenance is issued, one call at a time.
            ZynqCaches::new(
                l2_enabled
                    .then(|| Pl310::new(unsafe { Mmio::new(PL310_BASE, PL310_WINDOW) }, 1_000_000)),
            )
        };
        // SAFETY: the accelerators' control blocks and AXI DMA register
        // windows from the shared register map (strongly ordered in the
        // MMU map); single-threaded, so no two users of a window overlap.
        let (ntt, ntt_dma, keccak, keccak_dma) = unsafe {
            (
                Mmio::new(regmap::NTT_BASE, regmap::CTRL_WINDOW_BYTES),
                Mmio::new(regmap::NTT_DMA_BASE, regmap::CTRL_WINDOW_BYTES),
                Mmio::new(regmap::KECCAK_BASE, regmap::CTRL_WINDOW_BYTES),
                Mmio::new(regmap::KECCAK_DMA_BASE, regmap::CTRL_WINDOW_BYTES),
            )
        };
        let dma = |bus| AxiDma::new(bus, DMA_LENGTH_WIDTH, ACCEL_POLL_LIMIT);
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

/// The board plus the hardware backends (when the DMA buffers are usable).
struct BoardWithAccelerator<'a> {
    board: Board,
    accelerator: Option<Accelerator<'a>>,
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
        let mut line = |name: &str, stats: AccelStats, fault: Option<driver::accel::AccelError>| {
            let _ = write!(
                out,
                "accel: {name}: {} calls in hw, {} in sw, {} jobs, {} PL busy cycles, {} DMA bytes, fault: ",
                stats.hw_calls, stats.sw_calls, stats.jobs, stats.busy_cycles, stats.dma_bytes
            );
            let _ = match fault {
                Some(e) => writeln!(out, "{e}"),
                None => writeln!(out, "none"),
            };
        };
        line("NTT core", a.ring.stats(), a.ring.fault());
        line("Keccak engine", a.keccak.stats(), a.keccak.fault());
    }
}

/// Enables the SCU and joins the Cortex-A9 to coherency (ACTLR.SMP, FW),
/// as the Zynq boot flow does before the D-cache is turned on.
fn scu_and_smp_bits() {
    // SAFETY: the SCU control register window.
    let mut scu = unsafe { Mmio::new(SCU_BASE, 0x100) };
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

/// Programs the SLCR L2C RAM register and enables the PL310.
fn l2_enable() -> Result<(), driver::poll::PollTimeout> {
    // SAFETY: SLCR registers, written with the unlock/lock protocol.
    let mut slcr = unsafe { Mmio::new(SLCR_BASE, 0x1000) };
    slcr.write32(SLCR_UNLOCK, SLCR_UNLOCK_KEY);
    slcr.write32(SLCR_L2C_RAM, L2C_RAM_VALUE);
    slcr.write32(SLCR_LOCK, SLCR_LOCK_KEY);
    // SAFETY: the PL310 register window.
    let l2 = unsafe { Mmio::new(PL310_BASE, PL310_WINDOW) };
    Pl310::new(l2, 1_000_000).enable()
}

/// Exit status bit: the cache-maintenance check failed.
const STATUS_CACHE_CHECK_FAILED: u32 = 4;

/// Runs the DMA cache maintenance (`driver::cache::ZynqCaches`: L1 by MVA,
/// then PL310 by PA) on a line-aligned buffer: write a pattern, clean,
/// invalidate, read back. On the board a clean that did not reach DDR
/// would lose the pattern at the invalidate; on QEMU (no cache model) it
/// shows that every maintenance operation executes.
fn cache_check(l2_enabled: bool) -> Result<(), &'static str> {
    #[repr(C, align(32))]
    struct Lines([u8; 4096]);
    let mut buf = Lines([0; 4096]);
    for (i, b) in buf.0.iter_mut().enumerate() {
        *b = (i * 7 + 3) as u8;
    }
    // SAFETY: the PL310 register window; the controller is enabled and only
    // by-address maintenance is issued.
    let l2 =
        l2_enabled.then(|| Pl310::new(unsafe { Mmio::new(PL310_BASE, PL310_WINDOW) }, 1_000_000));
    let mut caches = ZynqCaches::new(l2);
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
    let mut uart = uart::Uart::init();
    let _ = writeln!(
        uart,
        "\nps-app: Zynq-7000 PS, ML-DSA (FIPS 204) / SLH-DSA (FIPS 205)"
    );
    let l2 = l2_enable();
    scu_and_smp_bits();
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
    let cache = cache_check(l2.is_ok());
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
        ntt_src: [0; 1024],
        ntt_dst: [0; 1024],
        keccak_src: [0; 4096],
        keccak_dst: [0; 4096],
    };
    let mut board = BoardWithAccelerator {
        board: Board {
            timer: timer::GlobalTimer::start(),
        },
        accelerator: Accelerator::new(&mut dma_area, l2.is_ok()),
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
    let mut uart = uart::Uart::init();
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
    let mut uart = uart::Uart::init();
    let _ = writeln!(uart, "\nPANIC: {info}");
    let _ = writeln!(uart, "EXIT status={}", app::STATUS_PANIC);
    semihosting::exit(app::STATUS_PANIC)
}
