//! ExpandA into the sampling ring (FIPS 204 Algorithm 32): the entries
//! Â\[i\]\[j\] in row order, each through the engine's shared sponge
//! (SHAKE128 of ρ ‖ j ‖ i) and RejNTTPoly, a coefficient a clock into a
//! free slot of the polynomial memory's ring, up to [`RING_SLOTS`] ahead of
//! the core that loads them. KeyGen, Verify and Sign each have one.
//!
//! # Interface
//!
//! - `start` starts at Â\[0\]\[0\] with the ring empty; `halt` stops the
//!   sampling (an abort or an error of the sequencer); both act at the end
//!   of the clock, `halt` over `start`.
//! - An entry starts when the sampler is active, a slot is free and `hold`
//!   is low: `sponge_launch` asks the sequencer for a SHAKE128 request with
//!   `sponge_arg0..2`. While `sponge_owned` the sequencer passes the
//!   absorb words (`feed_*`, ρ word `rho_index` on `rho_word`, then
//!   j ‖ i) and the squeeze (`squeeze_*`) between this block and the
//!   sponge. After the 256th coefficient `sponge_abort` asks for the
//!   sponge's `OP_ABORT` (the squeeze length is unknown in advance), and
//!   on the next clock `entry_done` ends the entry and moves to the next.
//! - The ring: `consume` when the core has loaded slot `read_slot`;
//!   `produce_other` when another sampler (KeyGen's s polynomials) has
//!   filled slot `write_slot`. `ring_ready`: a slot holds a polynomial
//!   not yet loaded; `ring_full`: no slot is free.
//! - `coeff_*`: the memory's coefficient port (`write_slot` is the slot).
//!
//! The clocks of an entry depend on ρ, i and j alone (public; FIPS 204
//! treats Â's rejections as public) and on when the sequencer lets it run.

use crate::mldsa::expand_a::SQUEEZE_BYTES;
use crate::mldsa::poly_memory::RING_SLOTS;
use crate::mldsa::rej_ntt::RejNttSampler;
use ps_pl_contract::regmap::keccak as kregs;
use rust_hdl::prelude::*;

/// Bytes of ρ ‖ j ‖ i.
pub const ABSORB_BYTES: u64 = 34;

/// The ExpandA sampler into the ring.
#[derive(LogicBlock)]
pub struct MatrixSampler {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Start at Â\[0\]\[0\] with the ring empty (end of clock).
    pub start: Signal<In, Bit>,
    /// Stop sampling (end of clock; over `start`).
    pub halt: Signal<In, Bit>,
    /// Start no entry this clock.
    pub hold: Signal<In, Bit>,
    /// Rows of Â.
    pub k: Signal<In, Bits<4>>,
    /// Columns of Â.
    pub l: Signal<In, Bits<4>>,
    /// Word `rho_index` of ρ (little-endian).
    pub rho_word: Signal<In, Bits<32>>,
    /// The ρ word wanted on `rho_word`.
    pub rho_index: Signal<Out, Bits<3>>,
    /// Start a sponge request with `sponge_arg0..2` this clock.
    pub sponge_launch: Signal<Out, Bit>,
    /// Request's mode (SHAKE128).
    pub sponge_arg0: Signal<Out, Bits<32>>,
    /// Request's message length (34 bytes).
    pub sponge_arg1: Signal<Out, Bits<32>>,
    /// Request's output length (more than any entry needs).
    pub sponge_arg2: Signal<Out, Bits<32>>,
    /// Abort the sponge's squeeze this clock.
    pub sponge_abort: Signal<Out, Bit>,
    /// An entry holds the sponge: `feed_*` and `squeeze_ready` are this
    /// block's.
    pub sponge_owned: Signal<Out, Bit>,
    /// The absorb word.
    pub feed_data: Signal<Out, Bits<32>>,
    /// `feed_data` is valid.
    pub feed_valid: Signal<Out, Bit>,
    /// `feed_data` is the last absorb word.
    pub feed_last: Signal<Out, Bit>,
    /// The sequencer takes `feed_data` this clock if valid.
    pub feed_room: Signal<In, Bit>,
    /// The squeeze word.
    pub squeeze_data: Signal<In, Bits<32>>,
    /// `squeeze_data` is valid.
    pub squeeze_valid: Signal<In, Bit>,
    /// The sampler takes `squeeze_data` this clock.
    pub squeeze_ready: Signal<Out, Bit>,
    /// The core has loaded slot `read_slot` (this clock).
    pub consume: Signal<In, Bit>,
    /// Another sampler has filled slot `write_slot` (this clock).
    pub produce_other: Signal<In, Bit>,
    /// A slot holds a polynomial not yet loaded.
    pub ring_ready: Signal<Out, Bit>,
    /// No slot is free.
    pub ring_full: Signal<Out, Bit>,
    /// The slot loaded next.
    pub read_slot: Signal<Out, Bits<2>>,
    /// The slot written next.
    pub write_slot: Signal<Out, Bits<2>>,
    /// Write `coeff_data` at `coeff_index` of slot `write_slot`.
    pub coeff_write: Signal<Out, Bit>,
    /// The coefficient's index.
    pub coeff_index: Signal<Out, Bits<8>>,
    /// The coefficient.
    pub coeff_data: Signal<Out, Bits<23>>,
    /// The running entry ends this clock.
    pub entry_done: Signal<Out, Bit>,
    /// Entries remain to be sampled.
    pub active: Signal<Out, Bit>,
    /// Row i of the running (or next) entry.
    pub row: Signal<Out, Bits<4>>,
    /// Column j of the running (or next) entry.
    pub col: Signal<Out, Bits<4>>,
    rej_ntt: RejNttSampler,
    sampling: DFF<Bit>,
    launched: DFF<Bit>,
    stopped: DFF<Bit>,
    row_r: DFF<Bits<4>>,
    col_r: DFF<Bits<4>>,
    count: DFF<Bits<9>>,
    absorbed: DFF<Bits<4>>,
    fill: DFF<Bits<3>>,
    write_slot_r: DFF<Bits<2>>,
    read_slot_r: DFF<Bits<2>>,
    produce: Signal<Local, Bit>,
    c_slots: Constant<Bits<3>>,
    c_shake128: Constant<Bits<32>>,
    c_absorb_bytes: Constant<Bits<32>>,
    c_squeeze: Constant<Bits<32>>,
}

impl Default for MatrixSampler {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            start: Default::default(),
            halt: Default::default(),
            hold: Default::default(),
            k: Default::default(),
            l: Default::default(),
            rho_word: Default::default(),
            rho_index: Default::default(),
            sponge_launch: Default::default(),
            sponge_arg0: Default::default(),
            sponge_arg1: Default::default(),
            sponge_arg2: Default::default(),
            sponge_abort: Default::default(),
            sponge_owned: Default::default(),
            feed_data: Default::default(),
            feed_valid: Default::default(),
            feed_last: Default::default(),
            feed_room: Default::default(),
            squeeze_data: Default::default(),
            squeeze_valid: Default::default(),
            squeeze_ready: Default::default(),
            consume: Default::default(),
            produce_other: Default::default(),
            ring_ready: Default::default(),
            ring_full: Default::default(),
            read_slot: Default::default(),
            write_slot: Default::default(),
            coeff_write: Default::default(),
            coeff_index: Default::default(),
            coeff_data: Default::default(),
            entry_done: Default::default(),
            active: Default::default(),
            row: Default::default(),
            col: Default::default(),
            rej_ntt: Default::default(),
            sampling: Default::default(),
            launched: Default::default(),
            stopped: Default::default(),
            row_r: Default::default(),
            col_r: Default::default(),
            count: Default::default(),
            absorbed: Default::default(),
            fill: Default::default(),
            write_slot_r: Default::default(),
            read_slot_r: Default::default(),
            produce: Default::default(),
            c_slots: Constant::new((RING_SLOTS as u64).into()),
            c_shake128: Constant::new((kregs::MODE_SHAKE128 as u64).into()),
            c_absorb_bytes: Constant::new(ABSORB_BYTES.into()),
            c_squeeze: Constant::new(u64::from(SQUEEZE_BYTES).into()),
        }
    }
}

impl Logic for MatrixSampler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sampling,
            launched,
            stopped,
            row_r,
            col_r,
            count,
            absorbed,
            fill,
            write_slot_r,
            read_slot_r
        );
        self.rej_ntt.clock.next = self.clock.val();
        self.rej_ntt.word.next = self.squeeze_data.val();
        self.rej_ntt.word_valid.next = false;
        self.rej_ntt.reset.next = false;
        self.sponge_arg0.next = self.c_shake128.val();
        self.sponge_arg1.next = self.c_absorb_bytes.val();
        self.sponge_arg2.next = self.c_squeeze.val();
        self.sponge_launch.next = false;
        self.sponge_abort.next = false;
        self.sponge_owned.next = self.sampling.q.val() & self.launched.q.val();
        // ρ ‖ j ‖ i, a word a clock.
        self.rho_index.next = self.absorbed.q.val().get_bits::<3>(0);
        self.feed_data.next = self.rho_word.val();
        if self.absorbed.q.val() == 8 {
            self.feed_data.next = bit_cast::<32, 4>(self.col_r.q.val())
                | (bit_cast::<32, 4>(self.row_r.q.val()) << 8);
        }
        self.feed_valid.next = self.absorbed.q.val() <= 8;
        self.feed_last.next = self.absorbed.q.val() == 8;
        self.squeeze_ready.next = false;
        self.coeff_write.next = false;
        self.coeff_index.next = self.count.q.val().get_bits::<8>(0);
        self.coeff_data.next = self.rej_ntt.coeff.val();
        self.entry_done.next = false;
        if self.sampling.q.val() {
            if !self.launched.q.val() {
                if !self.hold.val() & (self.fill.q.val() != self.c_slots.val()) {
                    self.launched.d.next = true;
                    self.sponge_launch.next = true;
                    self.rej_ntt.reset.next = true;
                    self.absorbed.d.next = 0.into();
                    self.count.d.next = 0.into();
                    self.stopped.d.next = false;
                }
            } else {
                if self.feed_room.val() & (self.absorbed.q.val() <= 8) {
                    self.absorbed.d.next = self.absorbed.q.val() + 1;
                }
                self.rej_ntt.word_valid.next = self.squeeze_valid.val() & !self.stopped.q.val();
                self.squeeze_ready.next = self.rej_ntt.word_ready.val() & !self.stopped.q.val();
                if self.rej_ntt.coeff_valid.val() & !self.count.q.val().get_bit(8) {
                    self.coeff_write.next = true;
                    self.count.d.next = self.count.q.val() + 1;
                }
                // The 256th is in: stop the squeeze; the entry ends the
                // clock after (the abort flushes the sponge's queue).
                if self.count.q.val().get_bit(8) & !self.stopped.q.val() {
                    self.stopped.d.next = true;
                    self.sponge_abort.next = true;
                }
                if self.stopped.q.val() {
                    self.entry_done.next = true;
                    self.launched.d.next = false;
                    if self.col_r.q.val() + 1 == self.l.val() {
                        self.col_r.d.next = 0.into();
                        self.row_r.d.next = self.row_r.q.val() + 1;
                        if self.row_r.q.val() + 1 == self.k.val() {
                            self.sampling.d.next = false;
                        }
                    } else {
                        self.col_r.d.next = self.col_r.q.val() + 1;
                    }
                }
            }
        }
        // The ring's fill: polynomials written and not yet loaded.
        self.produce.next = self.entry_done.val() | self.produce_other.val();
        if self.produce.val() {
            self.write_slot_r.d.next = self.write_slot_r.q.val() + 1;
            if !self.consume.val() {
                self.fill.d.next = self.fill.q.val() + 1;
            }
        }
        if self.consume.val() {
            self.read_slot_r.d.next = self.read_slot_r.q.val() + 1;
            if !self.produce.val() {
                self.fill.d.next = self.fill.q.val() - 1;
            }
        }
        if self.start.val() {
            self.sampling.d.next = true;
            self.launched.d.next = false;
            self.row_r.d.next = 0.into();
            self.col_r.d.next = 0.into();
            self.fill.d.next = 0.into();
            self.write_slot_r.d.next = 0.into();
            self.read_slot_r.d.next = 0.into();
        }
        if self.halt.val() {
            self.sampling.d.next = false;
        }
        self.ring_ready.next = self.fill.q.val() != 0;
        self.ring_full.next = self.fill.q.val() == self.c_slots.val();
        self.read_slot.next = self.read_slot_r.q.val();
        self.write_slot.next = self.write_slot_r.q.val();
        self.active.next = self.sampling.q.val();
        self.row.next = self.row_r.q.val();
        self.col.next = self.col_r.q.val();
    }
}

#[cfg(test)]
#[path = "matrix_sampler_tests.rs"]
mod tests;
