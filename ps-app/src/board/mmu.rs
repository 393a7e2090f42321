//! Builds the level-1 translation table from [`crate::memory_map`] and
//! turns on the MMU, the L1 caches and branch prediction.

use crate::memory_map::section_descriptor;

#[repr(C, align(16384))]
struct TranslationTable([u32; 4096]);

static mut TABLE: TranslationTable = TranslationTable([0; 4096]);

/// Fills the table and enables MMU, D-cache, I-cache and branch prediction.
/// Must run once, with caches off (the table is then written straight to
/// DDR, where the table walker reads it).
pub fn enable() {
    // SAFETY: single-threaded start-up, nothing else references TABLE.
    let table = unsafe { &mut *core::ptr::addr_of_mut!(TABLE) };
    for (megabyte, entry) in table.0.iter_mut().enumerate() {
        *entry = section_descriptor(megabyte as u32);
    }
    // TTBR0 walk attributes: inner and outer write-back write-allocate.
    let ttbr0 = table.0.as_ptr() as u32 | 0x48;
    // SCTLR: M (MMU), C (D-cache), Z (branch prediction), I (I-cache).
    let enable_bits: u32 = (1 << 0) | (1 << 2) | (1 << 11) | (1 << 12);
    // SAFETY: the table maps the running code and data one-to-one with the
    // same addresses, so enabling translation changes no address; all
    // domains are "client" so the AP bits apply.
    unsafe {
        core::arch::asm!(
            "dsb",
            "mcr p15, 0, {zero}, c2, c0, 2", // TTBCR = 0: TTBR0 for everything
            "mcr p15, 0, {ttbr0}, c2, c0, 0",
            "mcr p15, 0, {dacr}, c3, c0, 0",
            "mcr p15, 0, {zero}, c8, c7, 0", // TLBIALL
            "mcr p15, 0, {zero}, c7, c5, 0", // ICIALLU
            "mcr p15, 0, {zero}, c7, c5, 6", // BPIALL
            "dsb",
            "isb",
            "mrc p15, 0, {tmp}, c1, c0, 0",
            "orr {tmp}, {tmp}, {bits}",
            "mcr p15, 0, {tmp}, c1, c0, 0",
            "dsb",
            "isb",
            zero = in(reg) 0u32,
            ttbr0 = in(reg) ttbr0,
            dacr = in(reg) 0x5555_5555u32,
            bits = in(reg) enable_bits,
            tmp = out(reg) _,
            options(nostack)
        );
    }
}

/// Whether the MMU and D-cache are on (SCTLR.M and SCTLR.C).
pub fn caches_on() -> bool {
    let sctlr: u32;
    // SAFETY: reading SCTLR has no side effect.
    unsafe {
        core::arch::asm!("mrc p15, 0, {}, c1, c0, 0", out(reg) sctlr, options(nomem, nostack))
    };
    sctlr & 0b101 == 0b101
}
