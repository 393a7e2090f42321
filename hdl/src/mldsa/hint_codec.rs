//! HintBitPack and HintBitUnpack (FIPS 204 Algorithms 20–21): the hint
//! field of a signature, ω index bytes followed by k cumulative counts.
//!
//! Both units keep the ω ≤ 80 index bytes in a 128 × 8 synchronous-read
//! RAM (LUTRAM), so neither holds the 2,048 hint bits of h.
//!
//! [`HintPacker`] (signing) takes h\[i\]\[j\] one bit a clock in coefficient
//! order (i = 0..k−1, j = 0..255). A set bit writes j into the next index
//! slot; the count after each polynomial goes into a small register file.
//! It then sends the ω + k bytes exactly as `pqc::mldsa::encode::pack_hints`
//! writes them (slots at or above the final count read as zero, so the RAM
//! is never cleared). More than ω set bits raise `too_many` (the signer
//! must reject the attempt); the slots and counts then stop at ω and the
//! bytes sent are not an encoding. Clocks: k·256 (one hint a clock),
//! 1 (RAM read of slot 0), ω + k (one byte a clock while `data_ready`); the
//! same for every h.
//!
//! [`HintUnpacker`] (verification) takes the ω + k bytes and gives
//! `malformed` exactly when `pqc::mldsa::encode::unpack_hints` returns
//! false; otherwise it streams h\[i\]\[j\] one bit a clock in coefficient
//! order, the order a verify datapath reads w′ in. The verdict comes before
//! the first bit, so a datapath never consumes hints of a malformed field:
//!
//! 1. Load, ω + k clocks: index bytes into the RAM; each count is checked
//!    against the previous one and ω as it arrives.
//! 2. Scan, ω clocks: slot s (read from the RAM) must be above slot s − 1
//!    unless s starts a polynomial (s = 0 or s equals a count), and zero at
//!    or above the last count.
//! 3. Emit, k·256 clocks (one a clock while `hint_ready`): bit j is set when
//!    the next unread slot of polynomial i holds j.
//!
//! A field that fails a count check skips the scan, one that fails the scan
//! skips the emission, and a stream whose `data_last` comes before the
//! (ω + k)th byte is malformed at once; so the clocks depend on the
//! signature (public data) and each case ends in `done`. A field that never
//! ends (no more bytes and no `data_last`) waits for bytes.
//!
//! yosys `synth_xilinx` (`hdl report`): packer 134 LUT + 6 RAM64M, 93 FF;
//! unpacker 258 LUT + 6 RAM64M, 101 FF. yosys `sta` (`hdl timing`): 2.44 and
//! 2.48 ns of cell delay; yosys has no timing arcs for RAM64M, so the
//! LUTRAM read (registered address to data, then the slot compare) is not
//! in those figures.

use rust_hdl::prelude::*;

/// Index slots in the RAM (ω ≤ 80 of them used).
const SLOT_ADDRESS_BITS: usize = 7;

/// Phases of the packer.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum HintPackPhase {
    /// Taking hint bits.
    Collect,
    /// One clock for the RAM to read slot 0.
    Prefetch,
    /// Sending the ω + k bytes.
    Send,
    /// Every byte sent (until reset).
    Done,
}

/// HintBitPack: hint bits in, the ω + k byte encoding out.
#[derive(LogicBlock)]
pub struct HintPacker {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: start a new h.
    pub reset: Signal<In, Bit>,
    /// k (4, 6 or 8); hold it until `done`.
    pub k: Signal<In, Bits<4>>,
    /// ω (80, 55 or 75); hold it until `done`.
    pub omega: Signal<In, Bits<7>>,
    /// h\[i\]\[j\], in order i = 0..k−1, j = 0..255.
    pub hint: Signal<In, Bit>,
    /// `hint` is valid this clock.
    pub hint_valid: Signal<In, Bit>,
    /// The packer takes `hint` this clock.
    pub hint_ready: Signal<Out, Bit>,
    /// The next byte of the encoding.
    pub data: Signal<Out, Bits<8>>,
    /// `data` is valid this clock.
    pub data_valid: Signal<Out, Bit>,
    /// The receiver takes `data` this clock.
    pub data_ready: Signal<In, Bit>,
    /// More than ω hint bits were set: the encoding is void.
    pub too_many: Signal<Out, Bit>,
    /// Every byte has been sent.
    pub done: Signal<Out, Bit>,
    slots: RAM<Bits<8>, SLOT_ADDRESS_BITS>,
    counts: [DFF<Bits<7>>; 8],
    phase: DFF<HintPackPhase>,
    poly: DFF<Bits<4>>,
    coeff: DFF<Bits<8>>,
    count: DFF<Bits<7>>,
    overflow: DFF<Bit>,
    out_ptr: DFF<Bits<7>>,
    take: Signal<Local, Bit>,
    room: Signal<Local, Bit>,
    new_count: Signal<Local, Bits<7>>,
    total: Signal<Local, Bits<7>>,
    send: Signal<Local, Bit>,
    last_coeff: Constant<Bits<8>>,
}

impl Default for HintPacker {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            k: Default::default(),
            omega: Default::default(),
            hint: Default::default(),
            hint_valid: Default::default(),
            hint_ready: Default::default(),
            data: Default::default(),
            data_valid: Default::default(),
            data_ready: Default::default(),
            too_many: Default::default(),
            done: Default::default(),
            slots: Default::default(),
            counts: std::array::from_fn(|_| Default::default()),
            phase: Default::default(),
            poly: Default::default(),
            coeff: Default::default(),
            count: Default::default(),
            overflow: Default::default(),
            out_ptr: Default::default(),
            take: Default::default(),
            room: Default::default(),
            new_count: Default::default(),
            total: Default::default(),
            send: Default::default(),
            last_coeff: Constant::new(255.into()),
        }
    }
}

impl Logic for HintPacker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, poly, coeff, count, overflow, out_ptr);
        for m in 0..8 {
            self.counts[m].clock.next = self.clock.val();
            self.counts[m].d.next = self.counts[m].q.val();
        }
        self.slots.read_clock.next = self.clock.val();
        self.slots.write_clock.next = self.clock.val();
        self.slots.write_address.next = self.count.q.val();
        self.slots.write_data.next = self.coeff.q.val();
        self.slots.write_enable.next = false;
        self.slots.read_address.next = self.out_ptr.q.val();
        self.total.next = self.omega.val() + bit_cast::<7, 4>(self.k.val());
        self.hint_ready.next = self.phase.q.val() == HintPackPhase::Collect;
        self.take.next = (self.phase.q.val() == HintPackPhase::Collect) & self.hint_valid.val();
        self.room.next = self.count.q.val() != self.omega.val();
        self.new_count.next = self.count.q.val();
        if self.take.val() & self.hint.val() & self.room.val() {
            self.new_count.next = self.count.q.val() + 1;
        }
        self.data_valid.next = self.phase.q.val() == HintPackPhase::Send;
        self.send.next = (self.phase.q.val() == HintPackPhase::Send) & self.data_ready.val();
        // Slots at or above the final count are unused: zero, whatever the
        // RAM holds from an earlier h.
        self.data.next = 0.into();
        if self.phase.q.val() == HintPackPhase::Send {
            if self.out_ptr.q.val() >= self.omega.val() {
                self.data.next = bit_cast::<8, 7>(self.counts[0].q.val());
            } else if self.out_ptr.q.val() < self.count.q.val() {
                self.data.next = self.slots.read_data.val();
            }
        }
        match self.phase.q.val() {
            HintPackPhase::Collect => {
                if self.take.val() {
                    if self.hint.val() {
                        if self.room.val() {
                            self.slots.write_enable.next = true;
                        } else {
                            self.overflow.d.next = true;
                        }
                    }
                    self.count.d.next = self.new_count.val();
                    self.coeff.d.next = self.coeff.q.val() + 1;
                    if self.coeff.q.val() == self.last_coeff.val() {
                        for m in 0..8 {
                            if self.poly.q.val().index() == m {
                                self.counts[m].d.next = self.new_count.val();
                            }
                        }
                        self.poly.d.next = self.poly.q.val() + 1;
                        if self.poly.q.val() + 1 == self.k.val() {
                            self.phase.d.next = HintPackPhase::Prefetch;
                        }
                    }
                }
            }
            HintPackPhase::Prefetch => {
                self.phase.d.next = HintPackPhase::Send;
            }
            HintPackPhase::Send => {
                if self.send.val() {
                    self.out_ptr.d.next = self.out_ptr.q.val() + 1;
                    // Read ahead so the next slot is there on the next clock.
                    self.slots.read_address.next = self.out_ptr.q.val() + 1;
                    if self.out_ptr.q.val() >= self.omega.val() {
                        for m in 0..7 {
                            self.counts[m].d.next = self.counts[m + 1].q.val();
                        }
                    }
                    if self.out_ptr.q.val() + 1 == self.total.val() {
                        self.phase.d.next = HintPackPhase::Done;
                    }
                }
            }
            HintPackPhase::Done => {}
        }
        if self.reset.val() {
            self.phase.d.next = HintPackPhase::Collect;
            self.poly.d.next = 0.into();
            self.coeff.d.next = 0.into();
            self.count.d.next = 0.into();
            self.overflow.d.next = false;
            self.out_ptr.d.next = 0.into();
            self.slots.write_enable.next = false;
        }
        self.too_many.next = self.overflow.q.val();
        self.done.next = self.phase.q.val() == HintPackPhase::Done;
    }
}

/// Phases of the unpacker.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum HintUnpackPhase {
    /// Taking the ω + k bytes.
    Load,
    /// Checking the index slots against the counts.
    Scan,
    /// Streaming h.
    Emit,
    /// Finished (until reset): `malformed` is the verdict.
    Done,
}

/// HintBitUnpack: the ω + k bytes in, the verdict and h out.
#[derive(LogicBlock)]
pub struct HintUnpacker {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: start a new hint field.
    pub reset: Signal<In, Bit>,
    /// k (4, 6 or 8); hold it until `done`.
    pub k: Signal<In, Bits<4>>,
    /// ω (80, 55 or 75); hold it until `done`.
    pub omega: Signal<In, Bits<7>>,
    /// The next byte of the hint field.
    pub data: Signal<In, Bits<8>>,
    /// `data` is valid this clock.
    pub data_valid: Signal<In, Bit>,
    /// `data` is the last byte the source has (taken with `data_valid`;
    /// before the (ω + k)th byte the field is truncated, hence malformed).
    pub data_last: Signal<In, Bit>,
    /// The unpacker takes `data` this clock.
    pub data_ready: Signal<Out, Bit>,
    /// h\[`hint_poly`\]\[`hint_coeff`\].
    pub hint: Signal<Out, Bit>,
    /// Polynomial index i of `hint`.
    pub hint_poly: Signal<Out, Bits<4>>,
    /// Coefficient index j of `hint`.
    pub hint_coeff: Signal<Out, Bits<8>>,
    /// `hint` is valid this clock (only for a well-formed field).
    pub hint_valid: Signal<Out, Bit>,
    /// The receiver takes `hint` this clock.
    pub hint_ready: Signal<In, Bit>,
    /// The verdict is final (`malformed` no longer changes until reset).
    pub checked: Signal<Out, Bit>,
    /// The field is malformed (valid with `checked`).
    pub malformed: Signal<Out, Bit>,
    /// Finished: malformed, or every bit of h sent.
    pub done: Signal<Out, Bit>,
    slots: RAM<Bits<8>, SLOT_ADDRESS_BITS>,
    counts: [DFF<Bits<7>>; 8],
    phase: DFF<HintUnpackPhase>,
    pos: DFF<Bits<7>>,
    prev: DFF<Bits<8>>,
    last_count: DFF<Bits<7>>,
    bad: DFF<Bit>,
    poly: DFF<Bits<4>>,
    coeff: DFF<Bits<8>>,
    take: Signal<Local, Bit>,
    count_bad: Signal<Local, Bit>,
    total: Signal<Local, Bits<7>>,
    is_start: Signal<Local, Bit>,
    scan_bad: Signal<Local, Bit>,
    bit_now: Signal<Local, Bit>,
    last_coeff: Constant<Bits<8>>,
}

impl Default for HintUnpacker {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            k: Default::default(),
            omega: Default::default(),
            data: Default::default(),
            data_valid: Default::default(),
            data_last: Default::default(),
            data_ready: Default::default(),
            hint: Default::default(),
            hint_poly: Default::default(),
            hint_coeff: Default::default(),
            hint_valid: Default::default(),
            hint_ready: Default::default(),
            checked: Default::default(),
            malformed: Default::default(),
            done: Default::default(),
            slots: Default::default(),
            counts: std::array::from_fn(|_| Default::default()),
            phase: Default::default(),
            pos: Default::default(),
            prev: Default::default(),
            last_count: Default::default(),
            bad: Default::default(),
            poly: Default::default(),
            coeff: Default::default(),
            take: Default::default(),
            count_bad: Default::default(),
            total: Default::default(),
            is_start: Default::default(),
            scan_bad: Default::default(),
            bit_now: Default::default(),
            last_coeff: Constant::new(255.into()),
        }
    }
}

impl Logic for HintUnpacker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, pos, prev, last_count, bad, poly, coeff);
        for m in 0..8 {
            self.counts[m].clock.next = self.clock.val();
            self.counts[m].d.next = self.counts[m].q.val();
        }
        self.slots.read_clock.next = self.clock.val();
        self.slots.write_clock.next = self.clock.val();
        self.slots.write_address.next = self.pos.q.val();
        self.slots.write_data.next = self.data.val();
        self.slots.write_enable.next = false;
        self.slots.read_address.next = 0.into();
        self.total.next = self.omega.val() + bit_cast::<7, 4>(self.k.val());
        self.data_ready.next = self.phase.q.val() == HintUnpackPhase::Load;
        self.take.next = (self.phase.q.val() == HintUnpackPhase::Load) & self.data_valid.val();
        // A count below the previous one or above ω (Algorithm 21 line 4).
        self.count_bad.next = self.take.val()
            & (self.pos.q.val() >= self.omega.val())
            & ((self.data.val() < self.prev.q.val())
                | (self.data.val() > bit_cast::<8, 7>(self.omega.val())));
        // Slot s starts a polynomial when s = 0 or s equals a count (the
        // counts are non-decreasing here, so that count ends the previous
        // polynomial).
        self.is_start.next = !self.pos.q.val().any();
        for m in 0..8 {
            if (self.k.val().index() > m) & (self.counts[m].q.val() == self.pos.q.val()) {
                self.is_start.next = true;
            }
        }
        if self.pos.q.val() < self.last_count.q.val() {
            // Indices strictly increasing within a polynomial (line 7).
            self.scan_bad.next =
                !self.is_start.val() & (self.slots.read_data.val() <= self.prev.q.val());
        } else {
            // Unused slots zero (line 14).
            self.scan_bad.next = self.slots.read_data.val().any();
        }
        self.bit_now.next = (self.pos.q.val() < self.counts[0].q.val())
            & (self.slots.read_data.val() == self.coeff.q.val());
        match self.phase.q.val() {
            HintUnpackPhase::Load => {
                if self.take.val() {
                    self.pos.d.next = self.pos.q.val() + 1;
                    if self.pos.q.val() < self.omega.val() {
                        self.slots.write_enable.next = true;
                    } else {
                        self.prev.d.next = self.data.val();
                        self.last_count.d.next = self.data.val().get_bits::<7>(0);
                        for m in 0..8 {
                            if (self.pos.q.val() - self.omega.val()).index() == m {
                                self.counts[m].d.next = self.data.val().get_bits::<7>(0);
                            }
                        }
                    }
                    if self.count_bad.val() {
                        self.bad.d.next = true;
                    }
                    if self.pos.q.val() + 1 == self.total.val() {
                        self.pos.d.next = 0.into();
                        if self.bad.q.val() | self.count_bad.val() {
                            self.phase.d.next = HintUnpackPhase::Done;
                        } else {
                            self.phase.d.next = HintUnpackPhase::Scan;
                        }
                    } else if self.data_last.val() {
                        // The stream ended early.
                        self.bad.d.next = true;
                        self.phase.d.next = HintUnpackPhase::Done;
                    }
                }
            }
            HintUnpackPhase::Scan => {
                // read_data is slot pos; read slot pos + 1 for the next clock.
                self.slots.read_address.next = self.pos.q.val() + 1;
                self.prev.d.next = self.slots.read_data.val();
                self.pos.d.next = self.pos.q.val() + 1;
                if self.scan_bad.val() {
                    self.bad.d.next = true;
                }
                if self.pos.q.val() + 1 == self.omega.val() {
                    self.pos.d.next = 0.into();
                    self.slots.read_address.next = 0.into();
                    if self.bad.q.val() | self.scan_bad.val() {
                        self.phase.d.next = HintUnpackPhase::Done;
                    } else {
                        self.phase.d.next = HintUnpackPhase::Emit;
                    }
                }
            }
            HintUnpackPhase::Emit => {
                // pos is the next unread slot of polynomial poly, counts[0]
                // its end.
                self.slots.read_address.next = self.pos.q.val();
                if self.hint_ready.val() {
                    self.coeff.d.next = self.coeff.q.val() + 1;
                    if self.bit_now.val() {
                        self.pos.d.next = self.pos.q.val() + 1;
                        self.slots.read_address.next = self.pos.q.val() + 1;
                    }
                    if self.coeff.q.val() == self.last_coeff.val() {
                        for m in 0..7 {
                            self.counts[m].d.next = self.counts[m + 1].q.val();
                        }
                        self.poly.d.next = self.poly.q.val() + 1;
                        if self.poly.q.val() + 1 == self.k.val() {
                            self.phase.d.next = HintUnpackPhase::Done;
                        }
                    }
                }
            }
            HintUnpackPhase::Done => {}
        }
        if self.reset.val() {
            self.phase.d.next = HintUnpackPhase::Load;
            self.pos.d.next = 0.into();
            self.prev.d.next = 0.into();
            self.last_count.d.next = 0.into();
            self.bad.d.next = false;
            self.poly.d.next = 0.into();
            self.coeff.d.next = 0.into();
            self.slots.write_enable.next = false;
        }
        self.hint_valid.next = self.phase.q.val() == HintUnpackPhase::Emit;
        self.hint.next = (self.phase.q.val() == HintUnpackPhase::Emit) & self.bit_now.val();
        self.hint_poly.next = self.poly.q.val();
        self.hint_coeff.next = self.coeff.q.val();
        self.checked.next = (self.phase.q.val() == HintUnpackPhase::Emit)
            | (self.phase.q.val() == HintUnpackPhase::Done);
        self.malformed.next = self.bad.q.val();
        self.done.next = self.phase.q.val() == HintUnpackPhase::Done;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::mldsa::encode::{pack_hints, unpack_hints};
    use pqc::ring::N;

    /// (k, ω) of ML-DSA-44, -65, -87.
    const SETS: [(usize, usize); 3] = [(4, 80), (6, 55), (8, 75)];

    /// Packs h, offering a hint on every clock but every `stall`-th and
    /// taking a byte on every clock but every `stall`-th; returns the bytes,
    /// `too_many` and the clocks (hint clocks, byte clocks).
    fn pack_hw(
        uut: &mut HintPacker,
        omega: usize,
        h: &[[u8; N]],
        stall: usize,
    ) -> (Vec<u8>, bool, usize, usize) {
        let k = h.len();
        let on = |c: usize| stall == 0 || c % stall != stall - 1;
        uut.k.next = (k as u64).into();
        uut.omega.next = (omega as u64).into();
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let bits: Vec<u8> = h.iter().flatten().copied().collect();
        let mut next = 0;
        let mut clocks = 0;
        while next < bits.len() {
            assert!(clocks < 2 * bits.len(), "packer stalled");
            uut.hint.next = bits[next] != 0;
            uut.hint_valid.next = on(clocks);
            settle(uut);
            assert!(!uut.data_valid.val());
            if on(clocks) && uut.hint_ready.val() {
                next += 1;
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
        }
        uut.hint_valid.next = false;
        let hint_clocks = clocks;
        let mut out = Vec::new();
        clocks = 0;
        while !uut.done.val() {
            assert!(clocks < 4 * (omega + k) + 4, "no done");
            uut.data_ready.next = on(clocks);
            settle(uut);
            assert!(!uut.hint_ready.val());
            if uut.data_valid.val() && on(clocks) {
                out.push(uut.data.val().to_u64() as u8);
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
        }
        (out, uut.too_many.val(), hint_clocks, clocks)
    }

    /// h with `count` set bits at random positions.
    fn random_h(rng: &mut Lcg, k: usize, count: usize) -> Vec<[u8; N]> {
        let mut h = vec![[0u8; N]; k];
        let mut set = 0;
        while set < count {
            let r = rng.next_u32() as usize;
            let (i, j) = ((r >> 8) % k, r & 0xFF);
            if h[i][j] == 0 {
                h[i][j] = 1;
                set += 1;
            }
        }
        h
    }

    #[test]
    fn hint_packer_matches_pack_hints() {
        let mut uut = HintPacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(20);
        for (set, &(k, omega)) in SETS.iter().enumerate() {
            let n = (rng.next_u32() as usize) % (omega + 1);
            let mut cases = vec![
                vec![[0u8; N]; k],
                random_h(&mut rng, k, omega),
                random_h(&mut rng, k, omega / 2),
                random_h(&mut rng, k, n),
            ];
            // ω hints at the ends of the polynomials (j = 255 of the last one).
            let mut edge = vec![[0u8; N]; k];
            for (n, slot) in (0..omega).enumerate() {
                edge[n % k][N - 1 - slot / k] = 1;
            }
            cases.push(edge);
            for (case, h) in cases.iter().enumerate() {
                let stall = [0, 3, 5][(set + case) % 3];
                let mut want = vec![0u8; omega + k];
                pack_hints(k, omega, h, &mut want);
                let (got, too_many, hint_clocks, byte_clocks) = pack_hw(&mut uut, omega, h, stall);
                assert_eq!(got, want, "k = {k}, case {case}");
                assert!(!too_many, "k = {k}, case {case}");
                if stall == 0 {
                    assert_eq!(hint_clocks, k * N);
                    assert_eq!(byte_clocks, 1 + omega + k);
                }
            }
        }
    }

    #[test]
    fn hint_packer_flags_more_than_omega_hints() {
        let mut uut = HintPacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(21);
        for &(k, omega) in &SETS {
            for extra in [1, 2, 40] {
                let h = random_h(&mut rng, k, omega + extra);
                let (got, too_many, _, byte_clocks) = pack_hw(&mut uut, omega, &h, 0);
                assert!(too_many, "k = {k}, ω + {extra}");
                // Same clocks as a valid h: the signer learns it at the end.
                assert_eq!((got.len(), byte_clocks), (omega + k, 1 + omega + k));
            }
            // Exactly ω after a run with too many: the flag clears on reset.
            let h = random_h(&mut rng, k, omega);
            assert!(!pack_hw(&mut uut, omega, &h, 0).1);
        }
    }

    /// What the unpacker gave: the verdict, h (when emitted) and the clocks.
    struct Unpacked {
        malformed: bool,
        h: Vec<[u8; N]>,
        clocks: usize,
    }

    /// Feeds `bytes` (marking the last one with `data_last`), offering a
    /// byte and taking a hint on every clock but every `stall`-th, until
    /// `done`.
    fn unpack_hw(
        uut: &mut HintUnpacker,
        k: usize,
        omega: usize,
        bytes: &[u8],
        stall: usize,
    ) -> Unpacked {
        let on = |c: usize| stall == 0 || c % stall != stall - 1;
        uut.k.next = (k as u64).into();
        uut.omega.next = (omega as u64).into();
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut h = vec![[0u8; N]; k];
        let mut emitted = 0;
        let mut next = 0;
        let mut clocks = 0;
        let mut checked_at = None;
        while !uut.done.val() {
            assert!(clocks < 2 * (2 * omega + k + k * N) + 8, "unpacker hung");
            uut.data.next = (bytes.get(next).copied().unwrap_or(0) as u64).into();
            uut.data_valid.next = next < bytes.len() && on(clocks);
            uut.data_last.next = next + 1 == bytes.len();
            uut.hint_ready.next = on(clocks);
            settle(uut);
            if uut.checked.val() {
                let verdict = uut.malformed.val();
                assert_eq!(
                    *checked_at.get_or_insert(verdict),
                    verdict,
                    "verdict changed"
                );
            }
            if uut.data_valid.val() && uut.data_ready.val() {
                next += 1;
            }
            if uut.hint_valid.val() && on(clocks) {
                assert!(uut.checked.val() && !uut.malformed.val());
                let i = uut.hint_poly.val().to_u64() as usize;
                let j = uut.hint_coeff.val().to_u64() as usize;
                assert_eq!(i * N + j, emitted, "coefficient order");
                h[i][j] = u8::from(uut.hint.val());
                emitted += 1;
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
        }
        uut.data_valid.next = false;
        let malformed = uut.malformed.val();
        assert!(uut.checked.val());
        assert_eq!(emitted, if malformed { 0 } else { k * N });
        Unpacked {
            malformed,
            h,
            clocks,
        }
    }

    /// Runs `bytes` through the unit and `unpack_hints` and compares.
    fn check(
        uut: &mut HintUnpacker,
        k: usize,
        omega: usize,
        bytes: &[u8],
        stall: usize,
    ) -> Unpacked {
        let mut want = vec![[0u8; N]; k];
        let ok = unpack_hints(k, omega, bytes, &mut want);
        let got = unpack_hw(uut, k, omega, bytes, stall);
        assert_eq!(!got.malformed, ok, "k = {k}, bytes {bytes:?}");
        if ok {
            assert_eq!(got.h, want, "k = {k}");
        }
        got
    }

    fn encode(k: usize, omega: usize, h: &[[u8; N]]) -> Vec<u8> {
        let mut bytes = vec![0u8; omega + k];
        pack_hints(k, omega, h, &mut bytes);
        bytes
    }

    #[test]
    fn hint_unpacker_matches_unpack_hints_on_valid_fields() {
        let mut uut = HintUnpacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(22);
        for (set, &(k, omega)) in SETS.iter().enumerate() {
            for (case, count) in [0, omega, omega / 3, 1, (rng.next_u32() as usize) % omega]
                .into_iter()
                .enumerate()
            {
                let h = random_h(&mut rng, k, count);
                let stall = [0, 3, 4][(set + case) % 3];
                let got = check(&mut uut, k, omega, &encode(k, omega, &h), stall);
                assert!(!got.malformed);
                if stall == 0 {
                    assert_eq!(got.clocks, (omega + k) + omega + k * N);
                }
            }
        }
    }

    #[test]
    fn hint_unpacker_rejects_every_malformed_kind() {
        let mut uut = HintUnpacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(23);
        let mut kinds = [0usize; 7];
        for &(k, omega) in &SETS {
            for round in 0..6 {
                let count = 3 + (rng.next_u32() as usize) % (omega - 6);
                let h = random_h(&mut rng, k, count);
                let good = encode(k, omega, &h);
                let counts = &good[omega..];
                let r = rng.next_u32() as usize;
                // A polynomial with at least two indices.
                let two = (0..k).find(|&i| {
                    let start = if i == 0 { 0 } else { counts[i - 1] };
                    counts[i] >= start + 2
                });
                let mut mutants: Vec<(usize, Vec<u8>)> = Vec::new();
                // 0: a count below the previous one.
                if let Some(i) = (1..k).find(|&i| counts[i - 1] > 0) {
                    let mut b = good.clone();
                    b[omega + i] = counts[i - 1] - 1 - (r % usize::from(counts[i - 1])) as u8;
                    mutants.push((0, b));
                }
                // 1: a count above ω (the last one, or any, up to 255).
                let mut b = good.clone();
                b[omega + k - 1] = (omega + 1 + r % (255 - omega)) as u8;
                mutants.push((1, b));
                let mut b = good.clone();
                b[omega + r % k] = (omega + 1) as u8;
                mutants.push((1, b));
                // Every slot used and the counts still non-decreasing, so
                // only the bound on the count rejects it.
                let mut b = encode(k, omega, &random_h(&mut rng, k, omega));
                for c in &mut b[omega + r % k..] {
                    *c = (omega + 1 + (r >> 8) % (255 - omega)) as u8;
                }
                mutants.push((1, b));
                if let Some(i) = two {
                    let start = if i == 0 {
                        0
                    } else {
                        usize::from(counts[i - 1])
                    };
                    let at = start + 1 + r % (usize::from(counts[i]) - start - 1);
                    // 2: two equal indices in one polynomial.
                    let mut b = good.clone();
                    b[at] = b[at - 1];
                    mutants.push((2, b));
                    // 3: decreasing indices.
                    let mut b = good.clone();
                    b.swap(at, at - 1);
                    mutants.push((3, b));
                }
                // 4: a non-zero unused slot.
                let last = usize::from(counts[k - 1]);
                let mut b = good.clone();
                b[last + r % (omega - last)] = 1 + (r >> 8) as u8 % 255;
                mutants.push((4, b));
                // 5: truncated (data_last before the end).
                mutants.push((5, good[..r % (omega + k)].to_vec()));
                // 6: random bytes (counts forced non-decreasing and ≤ ω half
                // the time, so the index checks are reached).
                let mut b: Vec<u8> = (0..omega + k).map(|_| rng.next_u32() as u8).collect();
                if round % 2 == 0 {
                    let mut cs: Vec<u8> = (0..k)
                        .map(|_| (rng.next_u32() as usize % (omega + 1)) as u8)
                        .collect();
                    cs.sort_unstable();
                    b[omega..].copy_from_slice(&cs);
                }
                mutants.push((6, b));
                for (kind, b) in mutants {
                    let stall = [0, 3][round % 2];
                    let got = if kind == 5 {
                        // unpack_hints needs the whole field; a short one is
                        // malformed by definition.
                        unpack_hw(&mut uut, k, omega, &b, stall)
                    } else {
                        check(&mut uut, k, omega, &b, stall)
                    };
                    if kind != 6 {
                        assert!(got.malformed, "kind {kind}, k = {k}: {b:?}");
                    }
                    kinds[kind] += 1;
                }
                // The same unit accepts the unmutated field afterwards.
                assert!(!check(&mut uut, k, omega, &good, 0).malformed);
            }
        }
        assert!(kinds.iter().all(|&n| n >= 6), "{kinds:?}");
    }

    #[test]
    fn hint_codec_round_trips() {
        let mut packer = HintPacker::default();
        packer.connect_all();
        settle(&mut packer);
        let mut unpacker = HintUnpacker::default();
        unpacker.connect_all();
        settle(&mut unpacker);
        let mut rng = Lcg::new(24);
        for &(k, omega) in &SETS {
            let n = (rng.next_u32() as usize) % (omega + 1);
            let h = random_h(&mut rng, k, n);
            let (bytes, too_many, _, _) = pack_hw(&mut packer, omega, &h, 0);
            assert!(!too_many);
            let got = unpack_hw(&mut unpacker, k, omega, &bytes, 0);
            assert!(!got.malformed);
            assert_eq!(got.h, h);
        }
    }

    #[test]
    fn hint_codec_yosys_validates() {
        let mut uut = HintPacker::default();
        uut.connect_all();
        yosys_validate("mldsa_hint_pack", &generate_verilog(&uut)).unwrap();
        let mut uut = HintUnpacker::default();
        uut.connect_all();
        yosys_validate("mldsa_hint_unpack", &generate_verilog(&uut)).unwrap();
    }
}
