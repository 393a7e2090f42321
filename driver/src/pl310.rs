//! The PL310 (L2C-310) level-2 cache controller of the Zynq-7000 PS:
//! start-up and maintenance by physical address.
//!
//! QEMU's `xilinx-zynq-a9` exposes the PL310 registers but caches nothing,
//! so on the emulator this code runs but its effect is invisible; it exists
//! for the real board, where a DMA buffer must be cleaned/invalidated in L2
//! as well as in L1.

use crate::bus::RegisterBus;
use crate::poll::{poll_until, PollTimeout};

/// L2 line size in bytes.
pub const L2_LINE_BYTES: u32 = 32;

/// Register offsets (ARM L2C-310 TRM, r3p2 in the Zynq-7000).
pub mod reg {
    /// reg1_control: bit 0 enables the cache.
    pub const CONTROL: usize = 0x100;
    /// reg1_aux_control.
    pub const AUX_CONTROL: usize = 0x104;
    /// reg1_tag_ram_control: setup/read/write latencies.
    pub const TAG_RAM_CONTROL: usize = 0x108;
    /// reg1_data_ram_control: setup/read/write latencies.
    pub const DATA_RAM_CONTROL: usize = 0x10C;
    /// reg2_int_clear.
    pub const INT_CLEAR: usize = 0x220;
    /// reg7_cache_sync: write 0, then wait for bit 0 to clear.
    pub const CACHE_SYNC: usize = 0x730;
    /// reg7_inv_pa: invalidate the line holding a physical address.
    pub const INV_PA: usize = 0x770;
    /// reg7_inv_way: invalidate the ways whose bits are set (background op).
    pub const INV_WAY: usize = 0x77C;
    /// reg7_clean_pa: clean the line holding a physical address.
    pub const CLEAN_PA: usize = 0x7B0;
}

/// Auxiliary control as Xilinx's standalone BSP and UG585 §3.4 set it:
/// early BRESP, instruction and data prefetch, round-robin replacement,
/// shared-attribute handling, 8 ways of 64 KiB (512 KiB).
pub const AUX_CONTROL_VALUE: u32 = 0x7236_0000;
/// Tag RAM latencies (setup 2, read 2, write 2 cycles; encoded n-1).
pub const TAG_RAM_LATENCY: u32 = 0x0000_0111;
/// Data RAM latencies (setup 2, read 3, write 2 cycles; encoded n-1).
pub const DATA_RAM_LATENCY: u32 = 0x0000_0121;
/// All eight ways.
const ALL_WAYS: u32 = 0xFF;

/// A PL310 behind a register bus.
pub struct Pl310<B> {
    bus: B,
    poll_limit: u32,
}

impl<B: RegisterBus> Pl310<B> {
    /// Wraps the controller's register window; `poll_limit` bounds each wait.
    pub fn new(bus: B, poll_limit: u32) -> Self {
        Pl310 { bus, poll_limit }
    }

    /// Whether the cache is enabled.
    pub fn is_enabled(&mut self) -> bool {
        self.bus.read32(reg::CONTROL) & 1 != 0
    }

    /// Programs latencies and auxiliary control, invalidates all ways and
    /// enables the cache. Call with the L1 D-cache still off. Does nothing
    /// if the cache is already on (a debugger's init script may have done
    /// it; reprogramming an enabled PL310 is not allowed).
    ///
    /// The SLCR's L2C RAM register (0xF800_0A1C = 0x0002_0202, UG585
    /// §3.4.10) must be written by the caller, which owns the SLCR.
    pub fn enable(&mut self) -> Result<(), PollTimeout> {
        if self.is_enabled() {
            return Ok(());
        }
        self.bus.write32(reg::AUX_CONTROL, AUX_CONTROL_VALUE);
        self.bus.write32(reg::TAG_RAM_CONTROL, TAG_RAM_LATENCY);
        self.bus.write32(reg::DATA_RAM_CONTROL, DATA_RAM_LATENCY);
        self.bus.write32(reg::INV_WAY, ALL_WAYS);
        let bus = &mut self.bus;
        poll_until(self.poll_limit, || {
            (bus.read32(reg::INV_WAY) & ALL_WAYS == 0).then_some(())
        })?;
        self.sync()?;
        self.bus.write32(reg::INT_CLEAR, 0x1FF);
        self.bus.write32(reg::CONTROL, 1);
        Ok(())
    }

    /// Drains the controller's buffers (cache sync).
    pub fn sync(&mut self) -> Result<(), PollTimeout> {
        self.bus.write32(reg::CACHE_SYNC, 0);
        let bus = &mut self.bus;
        poll_until(self.poll_limit, || {
            (bus.read32(reg::CACHE_SYNC) & 1 == 0).then_some(())
        })
    }

    /// Cleans every line covering `pa..pa + len` to DDR, then syncs.
    pub fn clean_range(&mut self, pa: u32, len: u32) -> Result<(), PollTimeout> {
        self.by_line(reg::CLEAN_PA, pa, len)
    }

    /// Invalidates every line covering `pa..pa + len`, then syncs. The
    /// caller must own whole lines (see [`crate::cache`]).
    pub fn invalidate_range(&mut self, pa: u32, len: u32) -> Result<(), PollTimeout> {
        self.by_line(reg::INV_PA, pa, len)
    }

    fn by_line(&mut self, op: usize, pa: u32, len: u32) -> Result<(), PollTimeout> {
        let first = pa & !(L2_LINE_BYTES - 1);
        let end = pa as u64 + len as u64;
        let mut line = first as u64;
        while line < end {
            // Line operations by PA are atomic on the r3p2 controller: no
            // per-line completion poll, one sync at the end.
            self.bus.write32(op, line as u32);
            line += L2_LINE_BYTES as u64;
        }
        self.sync()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Records writes; INV_WAY reads back `inv_way_busy_reads` times busy.
    #[derive(Default)]
    struct Recorder {
        writes: Vec<(usize, u32)>,
        control: u32,
        inv_way_busy_reads: u32,
        sync_stuck: bool,
    }

    impl RegisterBus for Recorder {
        fn read32(&mut self, offset: usize) -> u32 {
            match offset {
                reg::CONTROL => self.control,
                reg::INV_WAY if self.inv_way_busy_reads > 0 => {
                    self.inv_way_busy_reads -= 1;
                    ALL_WAYS
                }
                reg::CACHE_SYNC => self.sync_stuck as u32,
                _ => 0,
            }
        }
        fn write32(&mut self, offset: usize, value: u32) {
            if offset == reg::CONTROL {
                self.control = value;
            }
            self.writes.push((offset, value));
        }
    }

    #[test]
    fn enable_programs_invalidates_then_enables_last() {
        let mut l2 = Pl310::new(
            Recorder {
                inv_way_busy_reads: 3,
                ..Default::default()
            },
            10,
        );
        l2.enable().unwrap();
        let w = &l2.bus.writes;
        assert_eq!(w.first(), Some(&(reg::AUX_CONTROL, AUX_CONTROL_VALUE)));
        assert!(w.contains(&(reg::INV_WAY, 0xFF)));
        assert_eq!(w.last(), Some(&(reg::CONTROL, 1)));
        assert!(l2.is_enabled());
        // A second call leaves an enabled controller alone.
        let before = l2.bus.writes.len();
        l2.enable().unwrap();
        assert_eq!(l2.bus.writes.len(), before);
    }

    #[test]
    fn enable_reports_a_way_invalidation_that_never_finishes() {
        let mut l2 = Pl310::new(
            Recorder {
                inv_way_busy_reads: u32::MAX,
                ..Default::default()
            },
            50,
        );
        assert_eq!(l2.enable(), Err(PollTimeout { attempts: 50 }));
        assert!(!l2.is_enabled());
    }

    #[test]
    fn range_operations_touch_each_covering_line_once_then_sync() {
        let mut l2 = Pl310::new(Recorder::default(), 10);
        l2.clean_range(0x0010_0010, 0x40).unwrap();
        assert_eq!(
            l2.bus.writes,
            [
                (reg::CLEAN_PA, 0x0010_0000),
                (reg::CLEAN_PA, 0x0010_0020),
                (reg::CLEAN_PA, 0x0010_0040),
                (reg::CACHE_SYNC, 0),
            ]
        );
        l2.bus.writes.clear();
        l2.invalidate_range(0xFFFF_FFE0, 0x20).unwrap();
        assert_eq!(
            l2.bus.writes,
            [(reg::INV_PA, 0xFFFF_FFE0), (reg::CACHE_SYNC, 0)]
        );
    }

    #[test]
    fn a_stuck_sync_is_an_error() {
        let mut l2 = Pl310::new(
            Recorder {
                sync_stuck: true,
                ..Default::default()
            },
            7,
        );
        assert_eq!(l2.sync(), Err(PollTimeout { attempts: 7 }));
    }
}
