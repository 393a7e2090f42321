//! The Cortex-A9 MPCore global timer (0xF8F0_0200): a 64-bit up-counter
//! clocked by PERIPHCLK / (prescaler + 1).
//!
//! PERIPHCLK is CPU_3x2x = CPU clock / 2. With prescaler 0 (set here) one
//! tick is two CPU cycles: on a ZedBoard at 666.67 MHz, 333.33 MHz ticks,
//! cycles = 2 × ticks. On QEMU the counter runs at a fixed 100 MHz of
//! virtual time whatever the prescaler says (with `-icount shift=0`, one
//! instruction = 1 ns, i.e. a tick per 10 guest instructions), so QEMU
//! tick counts measure emulated work, not Cortex-A9 cycles.

use driver::bus::RegisterBus;
use driver::mmio::Mmio;

/// Prescaler programmed into the control register.
pub const PRESCALER: u32 = 0;
/// CPU cycles per tick on the ZedBoard (CPU_3x2x = CPU/2, prescaler 0).
pub const CPU_CYCLES_PER_TICK: u64 = 2 * (PRESCALER as u64 + 1);

const COUNTER_LOW: usize = 0x00;
const COUNTER_HIGH: usize = 0x04;
const CONTROL: usize = 0x08;

/// The global timer.
pub struct GlobalTimer {
    regs: Mmio,
}

impl GlobalTimer {
    /// Starts the counter in window `regs` (comparator and interrupt off).
    pub fn start(mut regs: Mmio) -> GlobalTimer {
        regs.write32(CONTROL, (PRESCALER << 8) | 1);
        GlobalTimer { regs }
    }

    /// The 64-bit count; the high word is re-read so a carry between the
    /// two reads is never half-seen.
    pub fn now(&mut self) -> u64 {
        let mut high = self.regs.read32(COUNTER_HIGH);
        // A carry can happen at most once per 2^32 ticks, so the second
        // round always agrees.
        for _ in 0..3 {
            let low = self.regs.read32(COUNTER_LOW);
            let again = self.regs.read32(COUNTER_HIGH);
            if again == high {
                return ((high as u64) << 32) | low as u64;
            }
            high = again;
        }
        (high as u64) << 32
    }
}
