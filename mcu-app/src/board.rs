//! The Cortex-M side: semihosting console and exit, SysTick counting,
//! stack painting, the memory report, and the fault and panic handlers.
//! The only `unsafe` of the application is here.

use core::fmt::Write;
use core::sync::atomic::{AtomicU32, Ordering};
use cortex_m::peripheral::{syst::SystClkSource, DCB, DWT, SYST};
use cortex_m_rt::{exception, ExceptionFrame};

/// Exit status when a panic occurred.
pub const STATUS_PANIC: u32 = 101;
/// Exit status when a fault was taken (e.g. a stack overflow).
pub const STATUS_FAULT: u32 = 102;

/// The board this build is linked for.
pub const BOARD: &str = if cfg!(feature = "board-netduinoplus2") {
    "QEMU netduinoplus2 (STM32F405, Cortex-M4F)"
} else if cfg!(feature = "board-mps2-an500") {
    "QEMU mps2-an500 (Cortex-M7)"
} else {
    "STM32F407-DISC1 (Cortex-M4F)"
};

/// The CPUID part number of the core this build is for (Cortex-M4: 0xC24,
/// Cortex-M7: 0xC27) and its name.
pub const EXPECTED_CORE: (u32, &str) = if cfg!(feature = "board-mps2-an500") {
    (0xC27, "Cortex-M7")
} else {
    (0xC24, "Cortex-M4")
};

/// Whether the build runs under QEMU (counts are then instructions).
pub const EMULATED: bool = !cfg!(feature = "board-stm32f407-disc1");

/// Semihosting console: QEMU's stdout with `-semihosting-config
/// enable=on,target=native` (both machines), the debugger's console on a
/// board.
pub struct Console;

impl Write for Console {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        cortex_m_semihosting::hio::hstdout()
            .and_then(|mut out| out.write_all(s.as_bytes()))
            .map_err(|()| core::fmt::Error)
    }
}

const SYS_EXIT_EXTENDED: u32 = 0x20;
const ADP_STOPPED_APPLICATION_EXIT: u32 = 0x20026;

/// Ends the program with `status` through semihosting SYS_EXIT_EXTENDED
/// (QEMU exits with `status`; plain SYS_EXIT on 32-bit Arm carries only
/// success or failure).
pub fn exit(status: u32) -> ! {
    let _ = writeln!(Console, "EXIT status={status}");
    let block = [ADP_STOPPED_APPLICATION_EXIT, status];
    // SAFETY: the semihosting call reads the two-word block, which lives
    // until the call returns (it does not, under a semihosting host).
    unsafe {
        core::arch::asm!(
            "bkpt 0xab",
            inout("r0") SYS_EXIT_EXTENDED => _,
            in("r1") block.as_ptr(),
            options(nostack)
        );
    }
    loop {
        cortex_m::asm::wfi();
    }
}

/// SysTick wraps (every 2^24 ticks), counted by the SysTick exception.
static WRAPS: AtomicU32 = AtomicU32::new(0);
const RELOAD: u32 = 0xFF_FFFF;

#[exception]
fn SysTick() {
    WRAPS.fetch_add(1, Ordering::Relaxed);
}

/// Starts SysTick on the core clock, free running, wraps counted.
pub fn start_counter(syst: &mut SYST) {
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(RELOAD);
    syst.clear_current();
    syst.enable_interrupt();
    syst.enable_counter();
}

/// SysTick ticks since [`start_counter`], 64 bits.
pub fn ticks() -> u64 {
    loop {
        let wraps = WRAPS.load(Ordering::SeqCst);
        let value = SYST::get_current();
        // A wrap between the two loads has been counted by now: read again.
        if WRAPS.load(Ordering::SeqCst) == wraps {
            return ((wraps as u64) << 24) | (RELOAD - value) as u64;
        }
    }
}

/// Runs a loop of exactly `2 · iterations` instructions (`subs`, `bne`)
/// and returns the ticks it took.
pub fn time_reference_loop(iterations: u32) -> u64 {
    let start = ticks();
    // SAFETY: register-only loop.
    unsafe {
        core::arch::asm!(
            "2:",
            "subs {n}, {n}, #1",
            "bne 2b",
            n = inout(reg) iterations => _,
            options(nomem, nostack)
        );
    }
    ticks() - start
}

/// Whether a DWT cycle counter runs: enables it and checks that it moves.
/// QEMU 7.2 models no DWT on these machines (the registers read as zero,
/// writes are ignored), so there SysTick is the only counter.
pub fn dwt_cycle_counter_runs(dcb: &mut DCB, dwt: &mut DWT) -> bool {
    dcb.enable_trace();
    dwt.enable_cycle_counter();
    let before = DWT::cycle_count();
    time_reference_loop(1000);
    DWT::cycle_count() != before
}

extern "C" {
    static _stack_start: u8;
    static _stack_end: u8;
    static _flash_start: u8;
    static _flash_length: u8;
    static _ram_length: u8;
    static __sdata: u8;
    static __edata: u8;
    static __sidata: u8;
    static __euninit: u8;
}

fn symbol(s: &u8) -> usize {
    s as *const u8 as usize
}

/// Flash, static RAM and stack: (used, available) each, in bytes.
pub fn memory_use() -> [(usize, usize); 3] {
    // SAFETY: linker symbols; only their addresses are taken.
    unsafe {
        let data = symbol(&__edata) - symbol(&__sdata);
        [
            (
                symbol(&__sidata) + data - symbol(&_flash_start),
                symbol(&_flash_length),
            ),
            (symbol(&__euninit) - symbol(&__sdata), symbol(&_ram_length)),
            (0, symbol(&_stack_start) - symbol(&_stack_end)),
        ]
    }
}

const PAINT: u32 = 0x5AFE_C0DE;
/// Left unpainted below the painter's stack pointer (its own spills and a
/// SysTick exception frame with FPU context, 104 bytes).
const GUARD_BYTES: usize = 256;

fn stack_bottom() -> usize {
    // SAFETY: linker symbol; only its address is taken.
    unsafe { symbol(&_stack_end) }
}

#[inline(always)]
fn sp() -> usize {
    cortex_m::register::msp::read() as usize
}

#[inline(never)]
fn paint() {
    let limit = sp() - GUARD_BYTES;
    let mut at = stack_bottom();
    while at < limit {
        // SAFETY: stack_bottom()..limit is the unused part of the stack,
        // below our frame and guard, referenced by nothing.
        unsafe { core::ptr::write_volatile(at as *mut u32, PAINT) };
        at += 4;
    }
}

fn lowest_touched() -> usize {
    let mut at = stack_bottom();
    // SAFETY: word reads of the stack area below the live frames.
    while at < sp() && unsafe { core::ptr::read_volatile(at as *const u32) } == PAINT {
        at += 4;
    }
    at
}

/// Runs `f` once; returns its SysTick ticks and the peak stack it used
/// below this frame (SysTick exception frames taken meanwhile included).
#[inline(never)]
pub fn measure(f: &mut dyn FnMut()) -> (u64, usize) {
    paint();
    let base = sp();
    let start = ticks();
    (core::hint::black_box(f))();
    let elapsed = ticks() - start;
    (elapsed, base.saturating_sub(lowest_touched()))
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    // SAFETY: reads of the System Control Block's fault status registers.
    let (cfsr, bfar) = unsafe {
        (
            core::ptr::read_volatile(0xE000_ED28 as *const u32),
            core::ptr::read_volatile(0xE000_ED38 as *const u32),
        )
    };
    let _ = writeln!(
        Console,
        "FAULT: HardFault at pc {:#010x}, CFSR {cfsr:#010x}, BFAR {bfar:#010x} (a stack overflow faults below the stack region)",
        frame.pc()
    );
    exit(STATUS_FAULT)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let _ = writeln!(Console, "PANIC: {info}");
    exit(STATUS_PANIC)
}
