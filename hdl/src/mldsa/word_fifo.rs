//! A small first-word-fall-through FIFO of 32-bit words with a synchronous
//! flush: the ML-DSA engine's queue between the sponge's output stream
//! and the sequencers.
//!
//! The sponge gives a rate block a word a clock and then stops for its
//! permutation (25 clocks at R = 1); the samplers take fewer words a clock
//! (RejNTTPoly three bytes, RejBoundedPoly one byte, ExpandMask's unpacker
//! 18 or 20 bits). Without a queue the sponge waits for the sampler during
//! the block and the sampler for the sponge during the permutation. With
//! one, the sponge finishes the block early and permutes while the
//! sampler works through the queued words.
//!
//! 2^AW words in a `RAM` (synchronous read, so LUT RAM or block RAM);
//! pointers of PW = AW + 1 bits tell full from empty. The RAM's read
//! address is the head after this clock's pop, so `out_data` is the head
//! word with no extra register. A word written at the end of clock t is
//! readable at t + 2 (`out_valid` compares the read pointer with the write
//! pointer of one clock before). `flush` empties the queue at the end of
//! the clock (a word offered on that clock is dropped): the engine flushes
//! on every sponge request, so an aborted squeeze leaves nothing behind.
//! That flush is why this is not rust-hdl's `SynchronousFIFO`, which has
//! no synchronous clear.

use rust_hdl::prelude::*;

/// The engine's FIFO: 16 words. The sponge then stays ahead of RejNTTPoly
/// (three bytes a clock) across its permutation; with 8 words ExpandA
/// took 384 clocks more per ML-DSA-44 key (5,795 against 5,411), with 32
/// no fewer (`keygen_phase_clocks`).
pub type SpongeOutFifo = WordFifo<4, 5>;

/// The FIFO: 2^AW words, pointers of PW = AW + 1 bits.
#[derive(LogicBlock)]
pub struct WordFifo<const AW: usize, const PW: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous flush: empty at the end of this clock.
    pub flush: Signal<In, Bit>,
    /// The word offered.
    pub in_data: Signal<In, Bits<32>>,
    /// `in_data` is valid this clock.
    pub in_valid: Signal<In, Bit>,
    /// The FIFO takes `in_data` this clock (it is not full).
    pub in_ready: Signal<Out, Bit>,
    /// The head word.
    pub out_data: Signal<Out, Bits<32>>,
    /// `out_data` is valid this clock.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the head this clock.
    pub out_ready: Signal<In, Bit>,
    /// The FIFO holds no word (none readable, none on its way).
    pub empty: Signal<Out, Bit>,
    ram: RAM<Bits<32>, AW>,
    write_pointer: DFF<Bits<PW>>,
    read_pointer: DFF<Bits<PW>>,
    /// The write pointer one clock late: the words the RAM can return.
    readable: DFF<Bits<PW>>,
    full: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    next_read: Signal<Local, Bits<PW>>,
    depth: Constant<Bits<PW>>,
}

impl<const AW: usize, const PW: usize> Default for WordFifo<AW, PW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            flush: Default::default(),
            in_data: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            empty: Default::default(),
            ram: Default::default(),
            write_pointer: Default::default(),
            read_pointer: Default::default(),
            readable: Default::default(),
            full: Default::default(),
            push: Default::default(),
            next_read: Default::default(),
            depth: Constant::new((Self::DEPTH as u64).into()),
        }
    }
}

impl<const AW: usize, const PW: usize> WordFifo<AW, PW> {
    /// Words the FIFO holds when full.
    pub const DEPTH: usize = {
        assert!(PW == AW + 1, "pointers are one bit wider than the address");
        1 << AW
    };
}

impl<const AW: usize, const PW: usize> Logic for WordFifo<AW, PW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, write_pointer, read_pointer, readable);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.full.next =
            (self.write_pointer.q.val() - self.read_pointer.q.val()) == self.depth.val();
        self.in_ready.next = !self.full.val();
        self.push.next = self.in_valid.val() & !self.full.val();
        self.ram.write_address.next = self.write_pointer.q.val().get_bits::<AW>(0);
        self.ram.write_data.next = self.in_data.val();
        self.ram.write_enable.next = self.push.val();
        if self.push.val() {
            self.write_pointer.d.next = self.write_pointer.q.val() + 1;
        }
        self.readable.d.next = self.write_pointer.q.val();
        self.out_valid.next = self.read_pointer.q.val() != self.readable.q.val();
        self.out_data.next = self.ram.read_data.val();
        if self.out_valid.val() & self.out_ready.val() {
            self.next_read.next = self.read_pointer.q.val() + 1;
        } else {
            self.next_read.next = self.read_pointer.q.val();
        }
        self.ram.read_address.next = self.next_read.val().get_bits::<AW>(0);
        self.read_pointer.d.next = self.next_read.val();
        self.empty.next = self.read_pointer.q.val() == self.write_pointer.q.val();
        if self.flush.val() {
            self.write_pointer.d.next = 0.into();
            self.read_pointer.d.next = 0.into();
            self.readable.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use std::collections::VecDeque;

    type Fifo = SpongeOutFifo;

    /// Random offers, random consumer stalls and an occasional flush,
    /// against a queue model: every word comes out once, in order, none
    /// after a flush, and the FIFO never holds more than its depth.
    #[test]
    fn word_fifo_keeps_order_through_stalls_and_flushes() {
        let mut uut = Fifo::default();
        uut.connect_all();
        uut.flush.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.flush.next = false;
        let mut rng = Lcg::new(77);
        let mut model: VecDeque<u32> = VecDeque::new();
        let (mut pushed, mut popped, mut full_seen) = (0, 0, 0);
        let mut next_word = 1u32;
        for clock in 0..6_000 {
            let flush = rng.next_u32() % 500 == 0;
            let offer = rng.next_u32() % 4 != 0;
            let take = rng.next_u32() % 3 == 0 || clock % 1000 > 500;
            uut.flush.next = flush;
            uut.in_data.next = u64::from(next_word).into();
            uut.in_valid.next = offer;
            uut.out_ready.next = take;
            settle(&mut uut);
            assert!(model.len() <= Fifo::DEPTH, "clock {clock}");
            assert_eq!(
                uut.in_ready.val(),
                model.len() < Fifo::DEPTH,
                "clock {clock}"
            );
            assert_eq!(uut.empty.val(), model.is_empty(), "clock {clock}");
            if uut.out_valid.val() {
                assert_eq!(
                    uut.out_data.val().to_u64() as u32,
                    *model.front().expect("valid while empty"),
                    "clock {clock}"
                );
            }
            let popped_now = uut.out_valid.val() && take;
            let pushed_now = offer && uut.in_ready.val();
            full_seen += usize::from(!uut.in_ready.val());
            tick(&mut uut, |u| &mut u.clock);
            if popped_now {
                model.pop_front();
                popped += 1;
            }
            if pushed_now {
                model.push_back(next_word);
                next_word += 1;
                pushed += 1;
            }
            if flush {
                model.clear();
            }
        }
        assert!(popped > 1_000 && pushed > popped && full_seen > 100);
    }

    /// A word offered on an idle FIFO is valid two clocks later; a stream
    /// into a consumer that takes every clock flows a word a clock.
    #[test]
    fn word_fifo_latency_is_two_and_rate_is_one() {
        let mut uut = Fifo::default();
        uut.connect_all();
        uut.flush.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.flush.next = false;
        uut.out_ready.next = true;
        let mut seen = Vec::new();
        for clock in 0..40u64 {
            uut.in_data.next = (100 + clock).into();
            uut.in_valid.next = clock < 20;
            settle(&mut uut);
            if uut.out_valid.val() {
                seen.push((clock, uut.out_data.val().to_u64()));
            }
            tick(&mut uut, |u| &mut u.clock);
        }
        let want: Vec<(u64, u64)> = (0..20).map(|c| (c + 2, 100 + c)).collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn word_fifo_yosys_validates() {
        let mut uut = Fifo::default();
        uut.connect_all();
        yosys_validate("mldsa_word_fifo", &generate_verilog(&uut)).unwrap();
    }
}
