//! Typed registers, in the style of `tock-registers`: a [`Register`] knows
//! the type of the value it holds, so a driver written against the typed
//! accessors cannot write, say, a DMACR value into DMASR.
//!
//! Device models on the host decode raw offsets; they use
//! [`Register::offset`] (a `const fn`) so the offset still has one source.

use core::marker::PhantomData;

/// A value that a 32-bit register holds.
pub trait RegisterValue: Copy {
    /// The value read from the register.
    fn from_bits(bits: u32) -> Self;
    /// The bits written to the register.
    fn bits(self) -> u32;
}

impl RegisterValue for u32 {
    fn from_bits(bits: u32) -> Self {
        bits
    }
    fn bits(self) -> u32 {
        self
    }
}

/// A 32-bit register at a byte offset of its block, holding values of `V`.
pub struct Register<V> {
    offset: usize,
    value: PhantomData<fn() -> V>,
}

// Manual impls: the derives would demand `V: Clone`.
impl<V> Clone for Register<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Register<V> {}

impl<V> core::fmt::Debug for Register<V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Register({:#x})", self.offset)
    }
}

impl<V: RegisterValue> Register<V> {
    /// The register at byte `offset`.
    pub const fn at(offset: usize) -> Self {
        Register {
            offset,
            value: PhantomData,
        }
    }

    /// Its byte offset in the block.
    pub const fn offset(self) -> usize {
        self.offset
    }
}

/// Declares a `u32` newtype register value with named bits.
macro_rules! register_bits {
    ($(#[$doc:meta])* $name:ident { $($(#[$bdoc:meta])* $bit:ident = $value:expr;)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub u32);

        #[allow(dead_code)] // not every register uses every helper
        impl $name {
            $($(#[$bdoc])* pub const $bit: $name = $name($value);)*

            /// The raw bits.
            pub const fn bits(self) -> u32 {
                self.0
            }
            /// Whether every bit of `other` is set.
            pub const fn contains(self, other: $name) -> bool {
                self.0 & other.0 == other.0
            }
            /// Whether any bit of `other` is set.
            pub const fn intersects(self, other: $name) -> bool {
                self.0 & other.0 != 0
            }
            /// The bits of both.
            pub const fn union(self, other: $name) -> $name {
                $name(self.0 | other.0)
            }
            /// The bits of `self` that are also in `other`.
            pub const fn intersection(self, other: $name) -> $name {
                $name(self.0 & other.0)
            }
        }

        impl core::ops::BitOr for $name {
            type Output = $name;
            fn bitor(self, rhs: $name) -> $name {
                self.union(rhs)
            }
        }

        impl $crate::typed::RegisterValue for $name {
            fn from_bits(bits: u32) -> Self {
                $name(bits)
            }
            fn bits(self) -> u32 {
                self.0
            }
        }
    };
}
pub(crate) use register_bits;

#[cfg(test)]
mod tests {
    // The test type does not use every generated method.
    #![allow(dead_code)]
    use super::*;

    register_bits!(
        /// Test bits.
        Flags { A = 1; B = 2; }
    );

    #[test]
    fn typed_values_keep_their_bits() {
        let r: Register<Flags> = Register::at(0x34);
        assert_eq!(r.offset(), 0x34);
        let v = Flags::A | Flags::B;
        assert!(v.contains(Flags::A) && v.intersects(Flags::B));
        assert_eq!(Flags::from_bits(3), v);
        assert_eq!(RegisterValue::bits(v), 3);
        assert!(!Flags::A.contains(v));
    }
}
