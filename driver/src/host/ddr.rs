//! The DDR as the DMA engines see it.

use std::cell::RefCell;
use std::rc::Rc;
use std::vec;
use std::vec::Vec;

/// Regions of bytes at bus addresses; everything else decodes to nothing
/// (a DMA there gets a decode error).
#[derive(Debug, Default)]
pub struct Ddr {
    regions: Vec<(u32, Vec<u8>)>,
}

/// The DDR shared by the cache model and the DMA models.
pub type SharedDdr = Rc<RefCell<Ddr>>;

/// What a region holds before anything writes it ("stale").
pub const STALE_BYTE: u8 = 0xEE;

impl Ddr {
    /// An empty DDR, shared.
    pub fn shared() -> SharedDdr {
        Rc::default()
    }

    /// Adds a region of `len` bytes at `base`, filled with [`STALE_BYTE`].
    pub fn add_region(&mut self, base: u32, len: usize) {
        self.regions.push((base, vec![STALE_BYTE; len]));
    }

    /// The bytes at `addr..addr + len`, if one region holds all of them.
    pub fn range(&mut self, addr: u32, len: usize) -> Option<&mut [u8]> {
        self.regions.iter_mut().find_map(|(base, bytes)| {
            let at = addr.checked_sub(*base)? as usize;
            bytes.get_mut(at..at.checked_add(len)?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_must_lie_inside_one_region() {
        let mut ddr = Ddr::default();
        ddr.add_region(0x1000, 64);
        ddr.add_region(0x2000, 16);
        assert_eq!(ddr.range(0x1000, 64).map(|b| b.len()), Some(64));
        assert_eq!(ddr.range(0x1020, 8).unwrap()[0], STALE_BYTE);
        assert!(ddr.range(0x1030, 32).is_none(), "past the end");
        assert!(ddr.range(0x0FFF, 2).is_none(), "before the start");
        assert!(ddr.range(0x1040, 1).is_none(), "between regions");
        assert!(ddr.range(u32::MAX, 2).is_none());
        assert!(ddr.range(0x2008, 8).is_some());
    }
}
