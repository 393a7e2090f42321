//! Cache maintenance around DMA: what a bus master reads must first be
//! cleaned out of the CPU caches (L1, then L2), and what it wrote must be
//! invalidated (L2, then L1) before the CPU reads it.

use crate::bus::RegisterBus;
use crate::mmio;
use crate::pl310::Pl310;
use crate::poll::PollTimeout;

/// Cache line size that DMA destination buffers must be aligned to.
pub const LINE_BYTES: usize = mmio::L1_LINE_BYTES;

/// Cache maintenance for buffers shared with a bus master.
pub trait CacheMaintenance {
    /// Makes the CPU's writes to `buf` visible in memory.
    fn clean(&mut self, buf: &[u8]) -> Result<(), PollTimeout>;
    /// Makes memory's contents visible to the CPU's next reads of `buf`.
    /// `buf` must start and end on a [`LINE_BYTES`] boundary (callers check;
    /// implementations may panic otherwise).
    fn invalidate(&mut self, buf: &mut [u8]) -> Result<(), PollTimeout>;
}

/// Whether `buf` covers whole cache lines only.
pub fn is_line_aligned(buf: &[u8]) -> bool {
    (buf.as_ptr() as usize) % LINE_BYTES == 0 && buf.len() % LINE_BYTES == 0
}

/// The Zynq-7000 PS caches: Cortex-A9 L1 by MVA (CP15) and, when enabled,
/// the PL310 L2 by physical address (MMU maps one-to-one, so PA = VA).
pub struct ZynqCaches<B> {
    l2: Option<Pl310<B>>,
}

impl<B: RegisterBus> ZynqCaches<B> {
    /// `l2` is `None` when the PL310 is not enabled (L1 only).
    pub fn new(l2: Option<Pl310<B>>) -> Self {
        ZynqCaches { l2 }
    }
}

/// Physical address of a buffer (one-to-one mapping on the Zynq).
fn physical(buf: &[u8]) -> (u32, u32) {
    let pa = u32::try_from(buf.as_ptr() as usize).expect("buffer outside the 32-bit space");
    let len = u32::try_from(buf.len()).expect("buffer longer than 4 GiB");
    (pa, len)
}

impl<B: RegisterBus> CacheMaintenance for ZynqCaches<B> {
    fn clean(&mut self, buf: &[u8]) -> Result<(), PollTimeout> {
        mmio::l1_clean(buf);
        if let Some(l2) = &mut self.l2 {
            let (pa, len) = physical(buf);
            l2.clean_range(pa, len)?;
        }
        Ok(())
    }

    fn invalidate(&mut self, buf: &mut [u8]) -> Result<(), PollTimeout> {
        assert!(is_line_aligned(buf), "invalidate of a partial cache line");
        if let Some(l2) = &mut self.l2 {
            let (pa, len) = physical(buf);
            l2.invalidate_range(pa, len)?;
        }
        mmio::l1_invalidate(buf);
        Ok(())
    }
}
