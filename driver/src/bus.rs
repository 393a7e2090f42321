//! The register-bus abstraction the drivers are written against.

use ps_pl_contract::typed::{Register, RegisterValue};

/// 32-bit register access at byte offsets from a peripheral's base.
///
/// The hardware implementation is [`crate::mmio::Mmio`]; tests use
/// simulated devices.
pub trait RegisterBus {
    /// Reads the 32-bit register at `offset` (a multiple of 4).
    fn read32(&mut self, offset: usize) -> u32;
    /// Writes the 32-bit register at `offset` (a multiple of 4).
    fn write32(&mut self, offset: usize, value: u32);

    /// Read-modify-write: sets the bits of `set`, clears those of `clear`.
    fn modify32(&mut self, offset: usize, clear: u32, set: u32) {
        let value = self.read32(offset);
        self.write32(offset, (value & !clear) | set);
    }

    /// Reads a typed register of the contract.
    fn read<V: RegisterValue>(&mut self, register: Register<V>) -> V
    where
        Self: Sized,
    {
        V::from_bits(self.read32(register.offset()))
    }

    /// Writes a typed register of the contract: only a value of its own
    /// type fits (a DMACR value cannot go to DMASR).
    fn write<V: RegisterValue>(&mut self, register: Register<V>, value: V)
    where
        Self: Sized,
    {
        self.write32(register.offset(), value.bits())
    }
}

/// A window shared by several users of one thread in turn (e.g. the PL310
/// by two DMA ports): each access borrows it for that access only.
impl<B: RegisterBus> RegisterBus for &core::cell::RefCell<B> {
    fn read32(&mut self, offset: usize) -> u32 {
        self.borrow_mut().read32(offset)
    }
    fn write32(&mut self, offset: usize, value: u32) {
        self.borrow_mut().write32(offset, value)
    }
}

impl<B: RegisterBus + ?Sized> RegisterBus for &mut B {
    fn read32(&mut self, offset: usize) -> u32 {
        (**self).read32(offset)
    }
    fn write32(&mut self, offset: usize, value: u32) {
        (**self).write32(offset, value)
    }
}
