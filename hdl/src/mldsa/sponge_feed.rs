//! The sponge's input register in the Verify and Sign sequencers. A phase
//! offers the next input word (`offer_*`); the register takes it (`take`)
//! when it is empty or being emptied (`room`), and the sponge absorbs from
//! the register. The offered words come from block-RAM reads and muxes,
//! and the sponge absorbs its input straight into the permutation state,
//! so without the register that path was the engine's worst (up to
//! 4.85 ns of cell delay).
//!
//! `room` depends only on the register and the sponge's `ready`, never on
//! the offer, so a phase may use it to pace its source (the input stream).
//! `clear` empties the register: on reset, and on every sponge request, so
//! that an aborted absorb leaves no word for the next request. A word is
//! offered only once its request has started, so a clear never drops one.

use rust_hdl::prelude::*;

/// The feed register.
#[derive(LogicBlock, Default)]
pub struct SpongeFeed {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Empty the register at the end of this clock.
    pub clear: Signal<In, Bit>,
    /// The offered word.
    pub offer_data: Signal<In, Bits<32>>,
    /// A word is offered this clock.
    pub offer_valid: Signal<In, Bit>,
    /// The offered word is the request's last.
    pub offer_last: Signal<In, Bit>,
    /// The register can take a word this clock.
    pub room: Signal<Out, Bit>,
    /// The register takes the offered word this clock.
    pub take: Signal<Out, Bit>,
    /// To the sponge: input word.
    pub data: Signal<Out, Bits<32>>,
    /// To the sponge: input valid.
    pub valid: Signal<Out, Bit>,
    /// To the sponge: input last.
    pub last: Signal<Out, Bit>,
    /// From the sponge: it takes `data` this clock.
    pub ready: Signal<In, Bit>,
    word: DFF<Bits<32>>,
    full: DFF<Bit>,
    word_last: DFF<Bit>,
}

impl Logic for SpongeFeed {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, word, full, word_last);
        self.room.next = !self.full.q.val() | self.ready.val();
        self.take.next = self.offer_valid.val() & (!self.full.q.val() | self.ready.val());
        self.data.next = self.word.q.val();
        self.valid.next = self.full.q.val();
        self.last.next = self.word_last.q.val();
        if self.offer_valid.val() & (!self.full.q.val() | self.ready.val()) {
            self.word.d.next = self.offer_data.val();
            self.full.d.next = true;
            self.word_last.d.next = self.offer_last.val();
        } else if self.ready.val() {
            self.full.d.next = false;
        }
        if self.clear.val() {
            self.full.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use std::collections::VecDeque;

    /// Random offers, sponge stalls and clears over 5,000 clocks: every
    /// taken word reaches the sponge once, in order, with its last flag,
    /// unless a clear drops the word held; `room` never depends on the
    /// offer.
    #[test]
    fn sponge_feed_delivers_every_taken_word_in_order() {
        let mut uut = SpongeFeed::default();
        uut.connect_all();
        let mut rng = Lcg::new(21);
        let mut held: VecDeque<(u32, bool)> = VecDeque::new();
        let (mut taken, mut delivered, mut next_word) = (0, 0, 1u32);
        for clock in 0..5_000 {
            let offer = rng.next_u32() % 3 != 0;
            let ready = rng.next_u32() % 4 != 0;
            let clear = clock % 397 == 396;
            let last = rng.next_u32() % 5 == 0;
            uut.offer_data.next = u64::from(next_word).into();
            uut.offer_valid.next = offer;
            uut.offer_last.next = last;
            uut.ready.next = ready;
            uut.clear.next = clear;
            settle(&mut uut);
            let room = uut.room.val();
            assert_eq!(room, held.is_empty() || ready, "clock {clock}");
            assert_eq!(uut.take.val(), offer && room, "clock {clock}");
            assert_eq!(uut.valid.val(), !held.is_empty(), "clock {clock}");
            if let Some(&(word, word_last)) = held.front() {
                assert_eq!(uut.data.val().to_u64() as u32, word, "clock {clock}");
                assert_eq!(uut.last.val(), word_last, "clock {clock}");
                if ready {
                    held.pop_front();
                    delivered += 1;
                }
            }
            if offer && room {
                held.push_back((next_word, last));
                next_word += 1;
                taken += 1;
            }
            if clear {
                held.clear();
            }
            assert!(
                held.len() <= 1,
                "clock {clock}: the register holds one word"
            );
            tick(&mut uut, |u| &mut u.clock);
        }
        assert!(
            taken > 2_000 && delivered > 2_000,
            "{taken} taken, {delivered} delivered"
        );
    }

    #[test]
    fn sponge_feed_yosys_validates() {
        let mut uut = SpongeFeed::default();
        uut.connect_all();
        yosys_validate("mldsa_sponge_feed", &generate_verilog(&uut)).unwrap();
    }
}
