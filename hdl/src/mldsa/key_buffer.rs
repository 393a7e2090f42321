//! The engine's key buffer: a byte-addressed RAM of four byte lanes, so
//! the packers write single bytes while seeds, hashes and the output stream
//! move whole 32-bit words (little-endian: byte address 4w + b is lane b of
//! word w). One block RAM per lane for the sizes the engine uses.
//!
//! Writes: `byte_write` (one byte at `byte_address`) or `word_write` (all
//! four lanes at `word_address`); a word write wins if both are set.
//! Reads: `read_word` is the word at the previous clock's `read_address`
//! (one clock of latency, as a block RAM).

use rust_hdl::prelude::*;

/// Byte-lane RAM of 2^WA words (4·2^WA bytes); `BA` = `WA` + 2.
#[derive(LogicBlock, Default)]
pub struct KeyBuffer<const WA: usize, const BA: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Write `byte_data` at `byte_address`.
    pub byte_write: Signal<In, Bit>,
    /// Byte address.
    pub byte_address: Signal<In, Bits<BA>>,
    /// The byte.
    pub byte_data: Signal<In, Bits<8>>,
    /// Write `word_data` at `word_address`.
    pub word_write: Signal<In, Bit>,
    /// Word address of the write.
    pub word_address: Signal<In, Bits<WA>>,
    /// The word.
    pub word_data: Signal<In, Bits<32>>,
    /// Word address of the read.
    pub read_address: Signal<In, Bits<WA>>,
    /// The word read (one clock after its address).
    pub read_word: Signal<Out, Bits<32>>,
    lanes: [RAM<Bits<8>, WA>; 4],
}

impl<const WA: usize, const BA: usize> Logic for KeyBuffer<WA, BA> {
    #[hdl_gen]
    fn update(&mut self) {
        for b in 0..4 {
            self.lanes[b].read_clock.next = self.clock.val();
            self.lanes[b].write_clock.next = self.clock.val();
            self.lanes[b].read_address.next = self.read_address.val();
            if self.word_write.val() {
                self.lanes[b].write_address.next = self.word_address.val();
                self.lanes[b].write_data.next = self.word_data.val().get_bits::<8>(8 * b);
                self.lanes[b].write_enable.next = true;
            } else {
                self.lanes[b].write_address.next = self.byte_address.val().get_bits::<WA>(2);
                self.lanes[b].write_data.next = self.byte_data.val();
                self.lanes[b].write_enable.next =
                    self.byte_write.val() & (self.byte_address.val().get_bits::<2>(0).index() == b);
            }
        }
        self.read_word.next = bit_cast::<32, 8>(self.lanes[0].read_data.val())
            | (bit_cast::<32, 8>(self.lanes[1].read_data.val()) << 8)
            | (bit_cast::<32, 8>(self.lanes[2].read_data.val()) << 16)
            | (bit_cast::<32, 8>(self.lanes[3].read_data.val()) << 24);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};

    #[test]
    fn key_buffer_byte_and_word_writes_read_back_little_endian() {
        let mut uut = KeyBuffer::<6, 8>::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(7);
        let mut model = vec![0u8; 256];
        for step in 0..600 {
            if step % 3 == 0 {
                let w = (rng.next_u32() % 64) as usize;
                let v = rng.next_u32();
                uut.word_write.next = true;
                uut.word_address.next = (w as u64).into();
                uut.word_data.next = (v as u64).into();
                model[4 * w..4 * w + 4].copy_from_slice(&v.to_le_bytes());
            } else {
                let a = (rng.next_u32() % 256) as usize;
                let v = rng.next_u32() as u8;
                uut.byte_write.next = true;
                uut.byte_address.next = (a as u64).into();
                uut.byte_data.next = (v as u64).into();
                model[a] = v;
            }
            tick(&mut uut, |u| &mut u.clock);
            uut.word_write.next = false;
            uut.byte_write.next = false;
        }
        for w in 0..64 {
            uut.read_address.next = (w as u64).into();
            tick(&mut uut, |u| &mut u.clock);
            let want = u32::from_le_bytes(model[4 * w..4 * w + 4].try_into().unwrap());
            assert_eq!(uut.read_word.val().to_u64() as u32, want, "word {w}");
        }
    }
}
