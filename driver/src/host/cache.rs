//! A write-back data cache in front of the DDR model: the DMA engine sees
//! the CPU's writes only after `clean`, the CPU sees the engine's only
//! after `invalidate`, exactly the visibility a real cache gives.

use super::ddr::SharedDdr;
use super::trace::{HostEvent, Trace};
use crate::cache::{is_line_aligned, CacheMaintenance, LINE_BYTES};
use crate::dma::{AddressMap, OffsetMap};
use crate::poll::PollTimeout;
use std::cell::Cell;
use std::rc::Rc;

/// The cache model over the CPU memory that `map` gives bus addresses.
pub struct CacheModel {
    ddr: SharedDdr,
    map: OffsetMap,
    lines: Rc<Cell<u64>>,
    trace: Option<Trace>,
}

impl CacheModel {
    /// A cache over `map`'s region of CPU memory, backed by `ddr` (which
    /// must hold the region at its bus addresses).
    pub fn new(ddr: SharedDdr, map: OffsetMap) -> Self {
        CacheModel {
            ddr,
            map,
            lines: Rc::default(),
            trace: None,
        }
    }

    /// Logs every maintenance operation to `trace`.
    pub fn with_trace(mut self, trace: Trace) -> Self {
        self.trace = Some(trace);
        self
    }

    /// Counts maintained lines into `counter` (shared with other caches).
    pub fn with_line_counter(mut self, counter: Rc<Cell<u64>>) -> Self {
        self.lines = counter;
        self
    }

    /// Cache lines maintained so far.
    pub fn lines(&self) -> u64 {
        self.lines.get()
    }

    fn bus_address(&self, buf: &[u8], what: &str) -> u32 {
        self.map
            .bus_address(buf)
            .unwrap_or_else(|| panic!("{what} of a buffer outside the DMA region"))
    }
}

impl CacheMaintenance for CacheModel {
    fn clean(&mut self, buf: &[u8]) -> Result<(), PollTimeout> {
        let addr = self.bus_address(buf, "clean");
        let first = addr as usize / LINE_BYTES;
        let last = (addr as usize + buf.len()).div_ceil(LINE_BYTES);
        self.lines.set(self.lines.get() + (last - first) as u64);
        self.ddr
            .borrow_mut()
            .range(addr, buf.len())
            .expect("the DMA region is in the DDR model")
            .copy_from_slice(buf);
        if let Some(t) = &self.trace {
            t.push(HostEvent::Clean(addr, buf.len()));
        }
        Ok(())
    }

    fn invalidate(&mut self, buf: &mut [u8]) -> Result<(), PollTimeout> {
        assert!(is_line_aligned(buf), "invalidate of a partial line");
        let addr = self.bus_address(buf, "invalidate");
        self.lines
            .set(self.lines.get() + (buf.len() / LINE_BYTES) as u64);
        buf.copy_from_slice(
            self.ddr
                .borrow_mut()
                .range(addr, buf.len())
                .expect("the DMA region is in the DDR model"),
        );
        if let Some(t) = &self.trace {
            t.push(HostEvent::Invalidate(addr, buf.len()));
        }
        Ok(())
    }
}
