//! The MMU memory map: one short-descriptor section (1 MiB) per entry of
//! the level-1 table, identity-mapped (virtual = physical = bus address).
//!
//! | range | what | memory type |
//! |---|---|---|
//! | 0x0000_0000–0x1FFF_FFFF | DDR (512 MiB on the ZedBoard) | Normal, inner/outer write-back write-allocate |
//! | 0x4000_0000–0x7FFF_FFFF | PL, M_AXI_GP0 | Strongly-ordered, execute-never |
//! | 0x8000_0000–0xBFFF_FFFF | PL, M_AXI_GP1 | Strongly-ordered, execute-never |
//! | 0xE000_0000–0xE02F_FFFF | I/O peripherals (UART, …) | Device, execute-never |
//! | 0xE100_0000–0xE5FF_FFFF | static memory controller, NAND/NOR | Device, execute-never |
//! | 0xF800_0000–0xF8FF_FFFF | SLCR, PS system registers, CPU private (SCU, timers, PL310) | Device, execute-never |
//! | 0xFC00_0000–0xFDFF_FFFF | quad-SPI linear window | Device, execute-never |
//! | 0xFFF0_0000–0xFFFF_FFFF | high OCM | Normal, non-cacheable |
//! | everything else | nothing | fault (catches stray pointers) |
//!
//! Strongly-ordered for the PL means every access reaches the AXI port in
//! program order and completes before the next one, which the accelerator
//! control protocol relies on (write arguments, then COMMAND).

/// Size of the DDR mapped as RAM (ZedBoard: 512 MiB; QEMU run with `-m 512M`).
pub const DDR_BYTES: u32 = 512 << 20;

/// Section descriptor bits (ARMv7-A short-descriptor format).
mod bits {
    pub const SECTION: u32 = 0b10;
    pub const B: u32 = 1 << 2;
    pub const C: u32 = 1 << 3;
    pub const XN: u32 = 1 << 4;
    /// AP\[1:0\] = 0b11: read/write at every privilege level.
    pub const AP_FULL: u32 = 0b11 << 10;
    pub const TEX_1: u32 = 0b001 << 12;
}

/// The memory types the map uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryType {
    /// Unmapped: any access aborts.
    Fault,
    /// Normal, write-back write-allocate in L1 and L2.
    NormalCached,
    /// Normal, not cached.
    NormalUncached,
    /// Device (shareable): no speculation, ordered among device accesses.
    Device,
    /// Strongly-ordered: every access ordered and completed before the next.
    StronglyOrdered,
}

impl MemoryType {
    /// The section descriptor attributes of this type.
    pub const fn attributes(self) -> u32 {
        use bits::*;
        match self {
            MemoryType::Fault => 0,
            MemoryType::NormalCached => SECTION | AP_FULL | TEX_1 | C | B,
            MemoryType::NormalUncached => SECTION | AP_FULL | TEX_1,
            MemoryType::Device => SECTION | AP_FULL | XN | B,
            MemoryType::StronglyOrdered => SECTION | AP_FULL | XN,
        }
    }
}

/// The memory type of the 1 MiB section starting at `megabyte << 20`.
pub const fn section_type(megabyte: u32) -> MemoryType {
    let address = megabyte << 20;
    match address {
        a if a < DDR_BYTES => MemoryType::NormalCached,
        0x4000_0000..=0xBFFF_FFFF => MemoryType::StronglyOrdered,
        0xE000_0000..=0xE02F_FFFF
        | 0xE100_0000..=0xE5FF_FFFF
        | 0xF800_0000..=0xF8FF_FFFF
        | 0xFC00_0000..=0xFDFF_FFFF => MemoryType::Device,
        0xFFF0_0000..=0xFFFF_FFFF => MemoryType::NormalUncached,
        _ => MemoryType::Fault,
    }
}

/// The level-1 descriptor for section `megabyte`.
pub const fn section_descriptor(megabyte: u32) -> u32 {
    match section_type(megabyte) {
        MemoryType::Fault => 0,
        t => (megabyte << 20) | t.attributes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(address: u32) -> MemoryType {
        section_type(address >> 20)
    }

    #[test]
    fn the_regions_the_application_uses_have_the_right_types() {
        assert_eq!(kind(0x0010_0000), MemoryType::NormalCached); // image
        assert_eq!(kind(0x1FFF_FFFF), MemoryType::NormalCached);
        assert_eq!(kind(0x2000_0000), MemoryType::Fault);
        assert_eq!(kind(0x4000_0000), MemoryType::StronglyOrdered);
        assert_eq!(kind(0x43C0_0000), MemoryType::StronglyOrdered);
        assert_eq!(kind(0x7FFF_FFFF), MemoryType::StronglyOrdered);
        assert_eq!(kind(0xE000_1000), MemoryType::Device); // UART1
        assert_eq!(kind(0xF800_7000), MemoryType::Device); // DEVCFG
        assert_eq!(kind(0xF8F0_0200), MemoryType::Device); // global timer
        assert_eq!(kind(0xF8F0_2000), MemoryType::Device); // PL310
        assert_eq!(kind(0xD000_0000), MemoryType::Fault);
    }

    #[test]
    fn descriptors_encode_the_architectural_fields() {
        // Identity mapping: the base of each section is its own address.
        assert_eq!(section_descriptor(0x001) >> 20, 0x001);
        // Normal WBWA: TEX=001 C=1 B=1, AP=11, section.
        assert_eq!(section_descriptor(0x001), 0x0010_1C0E);
        // Strongly-ordered: TEX=000 C=0 B=0, XN.
        assert_eq!(section_descriptor(0x400), 0x4000_0C12);
        // Device: TEX=000 C=0 B=1, XN.
        assert_eq!(section_descriptor(0xE00), 0xE000_0C16);
        assert_eq!(section_descriptor(0x200), 0);
    }
}
