//! The FORS indices of a message digest: md and base_2b (FIPS 205
//! Algorithm 4), one bit a clock, for the engine's signing and
//! verification.
//!
//! md is written as little-endian words and kept with its bytes in
//! big-endian word order, so that bit 31 of word 0 is always the next bit
//! of base_2b. `start` clears the index and loads the count a; on each of
//! the next a clocks the next bit of md moves into the index, and md
//! shifts on. The index then holds until the next `start`.

use rust_hdl::prelude::*;

/// Words of md: ⌈k·a/8⌉ ≤ ⌈35·9/8⌉ = 40 bytes (SLH-DSA-*-256f).
pub const MD_WORDS: usize = 10;
/// Bits of an index: a ≤ 14.
pub const INDEX_BITS: usize = 14;

/// md and the index being shifted out of it.
#[derive(LogicBlock, Default)]
pub struct DigestIndices {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Write `word` into md word `word_index` (the job writes only while
    /// no index is being shifted out).
    pub write: Signal<In, Bit>,
    /// Which md word (0..9).
    pub word_index: Signal<In, Bits<4>>,
    /// The md word (little-endian bytes).
    pub word: Signal<In, Bits<32>>,
    /// Start the next index: clear it and take `bits` bits from md (not
    /// `begin`: a Verilog keyword).
    pub start: Signal<In, Bit>,
    /// a, sampled at `start`.
    pub bits: Signal<In, Bits<4>>,
    /// The index (its low a bits after a clocks).
    pub index: Signal<Out, Bits<INDEX_BITS>>,
    /// The last bit of the index moves in on this clock.
    pub last_bit: Signal<Out, Bit>,
    /// No bit is left to move in.
    pub complete: Signal<Out, Bit>,
    md: [DFF<Bits<32>>; MD_WORDS],
    index_reg: DFF<Bits<INDEX_BITS>>,
    bits_left: DFF<Bits<4>>,
    swapped: Signal<Local, Bits<32>>,
}

impl Logic for DigestIndices {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, index_reg, bits_left);
        for i in 0..10 {
            self.md[i].clock.next = self.clock.val();
            self.md[i].d.next = self.md[i].q.val();
        }
        self.swapped.next = (bit_cast::<32, 8>(self.word.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.word.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.word.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.word.val().get_bits::<8>(24));
        if self.write.val() {
            for i in 0..10 {
                if self.word_index.val().index() == i {
                    self.md[i].d.next = self.swapped.val();
                }
            }
        }
        if self.bits_left.q.val() != 0 {
            self.index_reg.d.next = (self.index_reg.q.val() << 1)
                | bit_cast::<14, 1>(self.md[0].q.val().get_bits::<1>(31));
            for i in 0..9 {
                self.md[i].d.next = (self.md[i].q.val() << 1) | (self.md[i + 1].q.val() >> 31);
            }
            self.md[9].d.next = self.md[9].q.val() << 1;
            self.bits_left.d.next = self.bits_left.q.val() - 1;
        }
        if self.start.val() {
            self.index_reg.d.next = 0.into();
            self.bits_left.d.next = self.bits.val();
        }
        self.index.next = self.index_reg.q.val();
        self.last_bit.next = self.bits_left.q.val() == 1;
        self.complete.next = self.bits_left.q.val() == 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::fors_reference::base_2b;
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};

    /// Every a of FIPS 205 with the k that fills md, random md: the indices
    /// are base_2b's, each complete a clocks after its `start`.
    #[test]
    fn indices_are_base_2b_of_md() {
        let mut rng = Lcg::new(4205);
        let mut uut = DigestIndices::default();
        uut.connect_all();
        settle(&mut uut);
        for (a, k) in [
            (6, 33),
            (8, 33),
            (9, 35),
            (12, 14),
            (14, 17),
            (14, 22),
            (3, 5),
        ] {
            let md: Vec<u8> = (0..40).map(|_| rng.next_u32() as u8).collect();
            for (i, word) in md.chunks_exact(4).enumerate() {
                uut.write.next = true;
                uut.word_index.next = (i as u64).into();
                uut.word.next = u64::from(u32::from_le_bytes(word.try_into().unwrap())).into();
                tick(&mut uut, |u| &mut u.clock);
            }
            uut.write.next = false;
            let mut got = vec![];
            for _ in 0..k {
                uut.start.next = true;
                uut.bits.next = u64::from(a).into();
                tick(&mut uut, |u| &mut u.clock);
                uut.start.next = false;
                let mut clocks = 0;
                while !uut.complete.val() {
                    assert_eq!(uut.last_bit.val(), clocks + 1 == a, "a = {a}");
                    tick(&mut uut, |u| &mut u.clock);
                    clocks += 1;
                }
                assert_eq!(clocks, a);
                got.push(uut.index.val().to_u64() as u32);
            }
            assert_eq!(got, base_2b(&md, a, k), "a = {a}, k = {k}");
        }
    }

    #[test]
    fn digest_indices_yosys_validates() {
        let mut uut = DigestIndices::default();
        uut.connect_all();
        yosys_validate("slh_digest_indices", &generate_verilog(&uut)).unwrap();
    }
}
