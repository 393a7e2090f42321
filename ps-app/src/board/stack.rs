//! Peak stack measurement by painting: fill the unused part of the SYS
//! stack with a pattern, run the operation, find the lowest overwritten word.
//!
//! What is measured is the stack the call itself uses below the caller's
//! frame; buffers the caller passes in (keys, signature output) are not
//! counted.

const PAINT: u32 = 0x5AFE_C0DE;
/// Bytes just below the painter's own stack pointer left unpainted. The
/// painting loop keeps everything in registers and no interrupt is enabled,
/// so a small margin suffices; whatever is left unpainted between the
/// measuring frame and the painter is counted as used, so it sets the
/// floor of the measurement (reported as the "harness" figure).
const GUARD_BYTES: usize = 32;

extern "C" {
    static __sys_stack_bottom: u8;
    static __sys_stack_top: u8;
}

fn bottom() -> usize {
    core::ptr::addr_of!(__sys_stack_bottom) as usize
}

/// Size of the application stack.
pub fn capacity() -> usize {
    core::ptr::addr_of!(__sys_stack_top) as usize - bottom()
}

#[inline(always)]
fn sp() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer.
    unsafe { core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack)) };
    sp
}

#[inline(never)]
fn paint() {
    let limit = sp() - GUARD_BYTES;
    let mut at = bottom();
    while at < limit {
        // SAFETY: `bottom()..limit` is the unused part of the SYS stack
        // (below our own frame and guard), which nothing references.
        unsafe { core::ptr::write_volatile(at as *mut u32, PAINT) };
        at += 4;
    }
}

fn lowest_touched() -> usize {
    let mut at = bottom();
    // SAFETY: reads of the stack area below the live frames; words.
    while at < sp() && unsafe { core::ptr::read_volatile(at as *const u32) } == PAINT {
        at += 4;
    }
    at
}

/// Runs `f` and returns the peak stack bytes it used.
#[inline(never)]
pub fn measure(f: &mut dyn FnMut()) -> usize {
    paint();
    let base = sp();
    // Through black_box so the call stays a real call below `base`.
    (core::hint::black_box(f))();
    base.saturating_sub(lowest_touched())
}
