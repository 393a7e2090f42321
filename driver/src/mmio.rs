//! The only module of the driver with `unsafe`: volatile access to a
//! memory-mapped register window, and the Cortex-A9 CP15 L1 data-cache
//! maintenance by virtual address (the MMU maps memory one-to-one, so the
//! address of a buffer is also its physical and bus address).
//!
//! Every other module reaches hardware through the safe wrappers here.

use crate::bus::RegisterBus;

/// A window of 32-bit device registers at a fixed physical address.
#[derive(Debug)]
pub struct Mmio {
    base: usize,
    len: usize,
}

impl Mmio {
    /// A register window of `len` bytes at `base`.
    ///
    /// # Safety
    ///
    /// `base..base + len` must be device registers (mapped as Device or
    /// Strongly-ordered memory, or the MMU off) that reading and writing
    /// cannot turn into a memory-safety violation: they must not alias RAM
    /// the program uses, and no other `Mmio` for the same window may be used
    /// concurrently. `base` must be 4-byte aligned.
    pub const unsafe fn new(base: usize, len: usize) -> Self {
        Mmio { base, len }
    }

    /// Base address of the window.
    pub fn base(&self) -> usize {
        self.base
    }

    fn address(&self, offset: usize) -> usize {
        assert!(
            offset % 4 == 0 && offset + 4 <= self.len,
            "register offset {offset:#x} outside a {:#x}-byte window",
            self.len
        );
        self.base + offset
    }
}

impl RegisterBus for Mmio {
    fn read32(&mut self, offset: usize) -> u32 {
        let address = self.address(offset);
        // SAFETY: `address` is 4-aligned and inside the register window that
        // the caller of `Mmio::new` vouched for.
        unsafe { core::ptr::read_volatile(address as *const u32) }
    }

    fn write32(&mut self, offset: usize, value: u32) {
        let address = self.address(offset);
        // SAFETY: as in `read32`; the window is device registers, not memory
        // owned by Rust code.
        unsafe { core::ptr::write_volatile(address as *mut u32, value) }
    }
}

/// L1 data-cache line size of the Cortex-A9.
pub const L1_LINE_BYTES: usize = 32;

/// The line-aligned addresses covering `start..start + len`.
fn lines(start: usize, len: usize) -> impl Iterator<Item = usize> {
    let first = start & !(L1_LINE_BYTES - 1);
    let end = start + len;
    (first..end).step_by(L1_LINE_BYTES)
}

/// Writes back (cleans) every L1 D-cache line covering `buf` to the next
/// level, then waits for completion (DSB).
pub fn l1_clean(buf: &[u8]) {
    for _line in lines(buf.as_ptr() as usize, buf.len()) {
        #[cfg(target_arch = "arm")]
        // SAFETY: DCCMVAC only writes dirty data back; it never changes what
        // the CPU reads, so it cannot break any Rust invariant.
        unsafe {
            core::arch::asm!("mcr p15, 0, {0}, c7, c10, 1", in(reg) _line, options(nostack, preserves_flags));
        }
    }
    dsb();
}

/// Discards every L1 D-cache line covering `buf`, so the next reads fetch
/// what a bus master wrote.
///
/// # Panics
///
/// If `buf` does not start and end on a cache-line boundary: discarding a
/// line shared with other data would lose that data's pending writes.
pub fn l1_invalidate(buf: &mut [u8]) {
    let start = buf.as_ptr() as usize;
    assert!(
        start % L1_LINE_BYTES == 0 && buf.len() % L1_LINE_BYTES == 0,
        "invalidate needs a {L1_LINE_BYTES}-byte aligned buffer"
    );
    for _line in lines(start, buf.len()) {
        #[cfg(target_arch = "arm")]
        // SAFETY: DCIMVAC drops the line; the line lies wholly inside `buf`
        // (checked above), which we borrow exclusively, and any byte pattern
        // is a valid `u8`, so whatever memory holds becomes the buffer's
        // defined contents.
        unsafe {
            core::arch::asm!("mcr p15, 0, {0}, c7, c6, 1", in(reg) _line, options(nostack, preserves_flags));
        }
    }
    dsb();
}

/// Data synchronisation barrier: earlier memory accesses and cache
/// maintenance complete before later instructions execute.
pub fn dsb() {
    #[cfg(target_arch = "arm")]
    // SAFETY: a barrier has no effect on memory contents.
    unsafe {
        core::arch::asm!("dsb", options(nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "arm"))]
    core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_cover_an_unaligned_range_exactly() {
        let got: std::vec::Vec<usize> = lines(0x1010, 0x31).collect();
        assert_eq!(got, [0x1000, 0x1020, 0x1040]);
        assert_eq!(lines(0x1000, 0).count(), 0);
        assert_eq!(lines(0x1000, 32).count(), 1);
    }

    #[test]
    fn register_window_reads_and_writes_memory() {
        let mut backing = [0u32; 4];
        // SAFETY (test): the window is a local array we own exclusively.
        #[allow(unsafe_code)]
        let mut window = unsafe { Mmio::new(backing.as_mut_ptr() as usize, 16) };
        window.write32(8, 0xdead_beef);
        assert_eq!(window.read32(8), 0xdead_beef);
        window.modify32(8, 0xffff, 0x12);
        assert_eq!(window.read32(8), 0xdead_0012);
        assert_eq!(backing[2], 0xdead_0012);
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn register_offsets_past_the_window_panic() {
        let mut backing = [0u32; 1];
        #[allow(unsafe_code)]
        // SAFETY (test): local array owned exclusively.
        let mut window = unsafe { Mmio::new(backing.as_mut_ptr() as usize, 4) };
        window.read32(4);
    }
}
