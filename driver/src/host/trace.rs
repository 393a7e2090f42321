//! An optional log of what the host models saw, in order, for tests that
//! check sequencing (receiver armed before the source starts, caches
//! maintained around the transfer).

use std::cell::RefCell;
use std::rc::Rc;
use std::vec::Vec;

/// One observed event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostEvent {
    /// A cache clean of `len` bytes at a bus address.
    Clean(u32, usize),
    /// A cache invalidate of `len` bytes at a bus address.
    Invalidate(u32, usize),
    /// A DMA register write: offset, value.
    DmaWrite(usize, u32),
}

/// A shared event log.
#[derive(Clone, Debug, Default)]
pub struct Trace(Rc<RefCell<Vec<HostEvent>>>);

impl Trace {
    /// Appends an event.
    pub fn push(&self, event: HostEvent) {
        self.0.borrow_mut().push(event);
    }

    /// The events so far.
    pub fn events(&self) -> Vec<HostEvent> {
        self.0.borrow().clone()
    }
}
