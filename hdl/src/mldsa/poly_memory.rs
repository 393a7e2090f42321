//! A polynomial memory in block RAM, banked like the NTT core's buffers:
//! it holds whole polynomials as the core's rows (one address of all
//! eight banks), so a polynomial moves between it and a core slot at a
//! row, eight coefficients, a clock ([`crate::ntt::core::OP_STORE_ROWS`],
//! [`crate::ntt::core::OP_LOAD_ROWS`]): 33 clocks where the 32-bit
//! stream takes 257.
//!
//! The engine keeps here what would otherwise be re-made: NTT(z\[j\]) and
//! NTT(c) across Verify's rows, NTT(s1\[j\]) and the all-ones polynomial
//! across KeyGen's rows, and Sign's ŷ, with NTT(s1), NTT(s2), NTT(t0) and
//! Â across its attempts (the layout is in
//! [`super::engine::EnginePolyMemory`]).
//!
//! # Interface
//!
//! Between the core's row port and the sequencer: `store_poly` names the
//! polynomial the core's next rows (`core_row_out_valid`) are written to;
//! `load_poly` the one read out while the core is ready for rows
//! (`core_row_in_ready`), one row a clock from the clock it rises, each on
//! `core_row_in` a clock after its read. Both must hold while the op runs.
//! The row counters return to 0 between ops (the store's as soon as rows
//! stop, the load's as soon as the core stops being ready), so an aborted
//! op leaves nothing behind.
//!
//! # The sampling ring
//!
//! A sampler writes here a coefficient a clock (`coeff_write`,
//! `coeff_slot`, `coeff_index`, `coeff_data`), in the stream order of the
//! core's `OP_LOAD`, while the core works on something else; the core then
//! loads the polynomial with `OP_LOAD_ROWS` from polynomial
//! [`RING_FIRST_POLY`] + slot, 33 clocks. The ring has block RAMs of its
//! own (page 7), so its coefficient writes never meet the core's row
//! writes, which go to pages 0 to `PAGES` − 1.

use crate::ntt::core::rows;
use rust_hdl::prelude::*;

/// Banks: the B = 4 core's (the RAM indices are written out for 8).
pub const BANKS: usize = 8;
/// Rows of one polynomial (the row counters and addresses are written
/// for 32).
pub const ROWS: usize = rows(4);
const _: () = assert!(ROWS == 32);

/// Polynomials a page holds: one 512-word RAM per bank.
pub const PAGE_POLYS: usize = 16;
/// The page of the sampling ring.
pub const RING_PAGE: usize = 7;
/// The polynomial index (`load_poly`) of ring slot 0.
pub const RING_FIRST_POLY: usize = RING_PAGE * PAGE_POLYS;
/// Ring slots a sampler uses: how many polynomials it may finish ahead of
/// the core (the page would hold 16).
pub const RING_SLOTS: usize = 4;

/// Bank and row of coefficient `i` in the core's `OP_LOAD` order, B = 4:
/// bank (i + 4·i₇) mod 8, row i / 8 (`crate::ntt::core`'s load port).
pub const fn load_position(i: usize) -> (usize, usize) {
    ((i + 4 * ((i >> 7) & 1)) % BANKS, i / BANKS)
}

/// The memory: `PAGES` pages of 16 polynomials; `RAMS` must be
/// `8 × PAGES`. A page is one 512-word RAM per bank, a RAMB18 each:
/// yosys 0.23's `sta` aborts on the RAMB36 that a deeper RAM maps to, and
/// pages of RAMB18 cost the same block RAM.
#[derive(LogicBlock)]
pub struct PolyRowMemory<const PAGES: usize, const RAMS: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// The polynomial the core's stored rows go to (7 bits: up to 8 pages).
    pub store_poly: Signal<In, Bits<7>>,
    /// The polynomial loaded into the core.
    pub load_poly: Signal<In, Bits<7>>,
    /// From the core: a row of `OP_STORE_ROWS`.
    pub core_row_out: [Signal<In, Bits<23>>; BANKS],
    /// From the core: `core_row_out` holds a row.
    pub core_row_out_valid: Signal<In, Bit>,
    /// From the core: it is taking rows (`OP_LOAD_ROWS`).
    pub core_row_in_ready: Signal<In, Bit>,
    /// To the core: a row for `OP_LOAD_ROWS`.
    pub core_row_in: [Signal<Out, Bits<23>>; BANKS],
    /// To the core: `core_row_in` holds a row.
    pub core_row_in_valid: Signal<Out, Bit>,
    /// From a sampler: write `coeff_data` as coefficient `coeff_index` of
    /// ring slot `coeff_slot` (a clock later).
    pub coeff_write: Signal<In, Bit>,
    /// The ring slot (polynomial [`RING_FIRST_POLY`] + slot).
    pub coeff_slot: Signal<In, Bits<4>>,
    /// The coefficient's index in `OP_LOAD` order.
    pub coeff_index: Signal<In, Bits<8>>,
    /// The coefficient.
    pub coeff_data: Signal<In, Bits<23>>,
    /// Bank `k` of page `p` is `rams[8p + k]`.
    rams: [RAM<Bits<23>, 9>; RAMS],
    /// Bank `k` of the ring page.
    ring: [RAM<Bits<23>, 9>; BANKS],
    // The coefficient write, registered.
    ring_write: DFF<Bit>,
    ring_bank: DFF<Bits<3>>,
    ring_address: DFF<Bits<9>>,
    ring_data: DFF<Bits<23>>,
    write_row: DFF<Bits<5>>,
    read_row: DFF<Bits<6>>,
    read_valid: DFF<Bit>,
    read_page: DFF<Bits<3>>,
    issue_read: Signal<Local, Bit>,
    write_address: Signal<Local, Bits<9>>,
    read_address: Signal<Local, Bits<9>>,
}

impl<const PAGES: usize, const RAMS: usize> Default for PolyRowMemory<PAGES, RAMS> {
    fn default() -> Self {
        assert!(
            (1..=RING_PAGE).contains(&PAGES) && RAMS == BANKS * PAGES,
            "1 to 7 pages (the 8th is the ring's), RAMS = 8 × PAGES"
        );
        Self {
            clock: Default::default(),
            store_poly: Default::default(),
            load_poly: Default::default(),
            core_row_out: std::array::from_fn(|_| Default::default()),
            core_row_out_valid: Default::default(),
            core_row_in_ready: Default::default(),
            core_row_in: std::array::from_fn(|_| Default::default()),
            core_row_in_valid: Default::default(),
            coeff_write: Default::default(),
            coeff_slot: Default::default(),
            coeff_index: Default::default(),
            coeff_data: Default::default(),
            rams: std::array::from_fn(|_| Default::default()),
            ring: std::array::from_fn(|_| Default::default()),
            ring_write: Default::default(),
            ring_bank: Default::default(),
            ring_address: Default::default(),
            ring_data: Default::default(),
            write_row: Default::default(),
            read_row: Default::default(),
            read_valid: Default::default(),
            read_page: Default::default(),
            issue_read: Default::default(),
            write_address: Default::default(),
            read_address: Default::default(),
        }
    }
}

impl<const PAGES: usize, const RAMS: usize> PolyRowMemory<PAGES, RAMS> {
    /// Polynomials held.
    pub const POLYS: usize = PAGES * PAGE_POLYS;
}

impl<const PAGES: usize, const RAMS: usize> Logic for PolyRowMemory<PAGES, RAMS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            write_row,
            read_row,
            read_valid,
            read_page,
            ring_write,
            ring_bank,
            ring_address,
            ring_data
        );
        // Ring: coefficient i goes to bank (i + 4·i7) mod 8, row i / 8 of
        // its slot, a clock after it arrives.
        self.ring_write.d.next = self.coeff_write.val();
        self.ring_bank.d.next = self.coeff_index.val().get_bits::<3>(0);
        if self.coeff_index.val().get_bit(7) {
            self.ring_bank.d.next = self.coeff_index.val().get_bits::<3>(0) + 4;
        }
        self.ring_address.d.next = (bit_cast::<9, 4>(self.coeff_slot.val()) << 5)
            | bit_cast::<9, 5>(self.coeff_index.val().get_bits::<5>(3));
        self.ring_data.d.next = self.coeff_data.val();
        for k in 0..BANKS {
            self.ring[k].read_clock.next = self.clock.val();
            self.ring[k].write_clock.next = self.clock.val();
            self.ring[k].write_enable.next =
                self.ring_write.q.val() & (self.ring_bank.q.val().index() == k);
            self.ring[k].write_address.next = self.ring_address.q.val();
            self.ring[k].write_data.next = self.ring_data.q.val();
        }
        // Store: a row every valid clock, counted from 0.
        self.write_row.d.next = 0.into();
        if self.core_row_out_valid.val() {
            self.write_row.d.next = self.write_row.q.val() + 1;
        }
        // Load: read the next row while the core is ready and rows are
        // left; it reaches the core a clock later.
        self.issue_read.next = self.core_row_in_ready.val() & !self.read_row.q.val().get_bit(5);
        self.read_valid.d.next = self.issue_read.val();
        self.read_row.d.next = 0.into();
        if self.core_row_in_ready.val() {
            self.read_row.d.next = self.read_row.q.val();
            if self.issue_read.val() {
                self.read_row.d.next = self.read_row.q.val() + 1;
            }
        }
        self.core_row_in_valid.next = self.read_valid.q.val();
        // The page a read came from, for its data a clock later.
        self.read_page.d.next = self.load_poly.val().get_bits::<3>(4);
        self.write_address.next = (bit_cast::<9, 4>(self.store_poly.val().get_bits::<4>(0)) << 5)
            | bit_cast::<9, 5>(self.write_row.q.val());
        self.read_address.next = (bit_cast::<9, 4>(self.load_poly.val().get_bits::<4>(0)) << 5)
            | bit_cast::<9, 5>(self.read_row.q.val().get_bits::<5>(0));
        for p in 0..PAGES {
            for k in 0..BANKS {
                self.rams[8 * p + k].read_clock.next = self.clock.val();
                self.rams[8 * p + k].write_clock.next = self.clock.val();
                self.rams[8 * p + k].write_enable.next = self.core_row_out_valid.val()
                    & (self.store_poly.val().get_bits::<3>(4).index() == p);
                self.rams[8 * p + k].write_address.next = self.write_address.val();
                self.rams[8 * p + k].write_data.next = self.core_row_out[k].val();
                self.rams[8 * p + k].read_address.next = self.read_address.val();
            }
        }
        for k in 0..BANKS {
            self.ring[k].read_address.next = self.read_address.val();
            self.core_row_in[k].next = self.rams[k].read_data.val();
            for p in 1..PAGES {
                if self.read_page.q.val().index() == p {
                    self.core_row_in[k].next = self.rams[8 * p + k].read_data.val();
                }
            }
            if self.read_page.q.val() == 7 {
                self.core_row_in[k].next = self.ring[k].read_data.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::core::{row_store_cycles, NttCoreB4, OP_LOAD_ROWS, OP_STORE_ROWS};
    use crate::ntt::sim::{settle, tick, Lcg};
    use ps_pl_contract::regmap::ntt as reg;

    /// The NTT core with its row port on the memory, as the engine wires them.
    #[derive(LogicBlock)]
    struct CoreOnMemory {
        clock: Signal<In, Clock>,
        store_poly: Signal<In, Bits<7>>,
        load_poly: Signal<In, Bits<7>>,
        coeff_write: Signal<In, Bit>,
        coeff_slot: Signal<In, Bits<4>>,
        coeff_index: Signal<In, Bits<8>>,
        coeff_data: Signal<In, Bits<23>>,
        core: NttCoreB4,
        memory: PolyRowMemory<3, 24>,
    }

    impl Logic for CoreOnMemory {
        #[hdl_gen]
        fn update(&mut self) {
            clock!(self, clock, core, memory);
            self.memory.store_poly.next = self.store_poly.val();
            self.memory.load_poly.next = self.load_poly.val();
            self.memory.coeff_write.next = self.coeff_write.val();
            self.memory.coeff_slot.next = self.coeff_slot.val();
            self.memory.coeff_index.next = self.coeff_index.val();
            self.memory.coeff_data.next = self.coeff_data.val();
            for k in 0..BANKS {
                self.memory.core_row_out[k].next = self.core.row_out[k].val();
                self.core.row_in[k].next = self.memory.core_row_in[k].val();
            }
            self.memory.core_row_out_valid.next = self.core.row_out_valid.val();
            self.memory.core_row_in_ready.next = self.core.row_in_ready.val();
            self.core.row_in_valid.next = self.memory.core_row_in_valid.val();
        }
    }

    fn bench() -> CoreOnMemory {
        let mut uut = CoreOnMemory {
            clock: Default::default(),
            store_poly: Default::default(),
            load_poly: Default::default(),
            coeff_write: Default::default(),
            coeff_slot: Default::default(),
            coeff_index: Default::default(),
            coeff_data: Default::default(),
            core: NttCoreB4::with_row_port(),
            memory: Default::default(),
        };
        uut.connect_all();
        settle(&mut uut);
        uut
    }

    /// Runs one op to `done`; returns (busy clocks, error). Streams: `input`
    /// is offered on the load stream; stored words are returned.
    fn run(uut: &mut CoreOnMemory, op: u32, slot: u32, input: &[i32]) -> (usize, bool, Vec<i32>) {
        uut.core.op.next = (op as u64).into();
        uut.core.arg0.next = (slot as u64).into();
        uut.core.start.next = true;
        tick(uut, |u| &mut u.clock);
        uut.core.start.next = false;
        uut.core.m_tready.next = true;
        let (mut busy, mut sent, mut out) = (0, 0, Vec::new());
        loop {
            uut.core.s_tvalid.next = sent < input.len();
            uut.core.s_tdata.next = (*input.get(sent).unwrap_or(&0) as u64).into();
            uut.core.s_tlast.next = sent + 1 == input.len();
            settle(uut);
            if !uut.core.busy.val() {
                break;
            }
            assert!(busy < 10_000, "op {op:#x} did not finish");
            if uut.core.s_tvalid.val() && uut.core.s_tready.val() {
                sent += 1;
            }
            if uut.core.m_tvalid.val() {
                out.push(uut.core.m_tdata.val().to_u64() as i32);
            }
            busy += 1;
            tick(uut, |u| &mut u.clock);
        }
        (busy, uut.core.error.val(), out)
    }

    /// Polynomials stored at every index come back from each, into any slot,
    /// exactly; an index written later leaves the others alone; a load
    /// aborted halfway leaves the next load whole. Store 33 clocks, load 33.
    #[test]
    fn polynomials_round_trip_through_the_memory_at_every_index() {
        let mut uut = bench();
        let mut rng = Lcg::new(5);
        // Every page, first and last polynomials among them.
        let indices = [0usize, 5, 15, 16, 17, 31, 32, 47];
        let polys: Vec<_> = indices.iter().map(|_| rng.poly()).collect();
        for (n, (&index, p)) in indices.iter().zip(&polys).enumerate() {
            assert!(!run(&mut uut, reg::OP_LOAD, (n % 3) as u32, p).1);
            uut.store_poly.next = (index as u64).into();
            let (busy, error, _) = run(&mut uut, OP_STORE_ROWS, (n % 3) as u32, &[]);
            assert!(!error);
            assert_eq!(busy, row_store_cycles(4));
        }
        for (n, (&index, p)) in indices.iter().zip(&polys).enumerate().rev() {
            uut.load_poly.next = (index as u64).into();
            let slot = (n % 2 + 1) as u32;
            let (busy, error, _) = run(&mut uut, OP_LOAD_ROWS, slot, &[]);
            assert!(!error);
            assert_eq!(busy, ROWS + 1, "a row a clock after the first read");
            let (_, error, got) = run(&mut uut, reg::OP_STORE, slot, &[]);
            assert!(!error);
            assert_eq!(&got[..], &p[..], "polynomial {index}");
        }
        // Abort a load after 10 clocks, then load another polynomial whole.
        uut.load_poly.next = 32u64.into();
        uut.core.op.next = (OP_LOAD_ROWS as u64).into();
        uut.core.arg0.next = 0u64.into();
        uut.core.start.next = true;
        for _ in 0..10 {
            tick(&mut uut, |u| &mut u.clock);
            uut.core.start.next = false;
        }
        uut.core.op.next = (reg::OP_ABORT as u64).into();
        uut.core.start.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.core.start.next = false;
        settle(&mut uut);
        assert!(!uut.core.busy.val() && uut.core.error.val());
        uut.load_poly.next = 16u64.into();
        assert!(!run(&mut uut, OP_LOAD_ROWS, 0, &[]).1);
        let (_, _, got) = run(&mut uut, reg::OP_STORE, 0, &[]);
        assert_eq!(&got[..], &polys[3][..]);
    }

    /// Polynomials written into ring slots a coefficient a clock, in
    /// `OP_LOAD` order, come back from `OP_LOAD_ROWS` of the ring exactly,
    /// while row stores to the pages go on beside them (the ring has RAMs
    /// of its own); a later slot leaves the earlier ones whole.
    #[test]
    fn ring_slots_written_a_coefficient_a_clock_load_as_rows() {
        let mut uut = bench();
        let mut rng = Lcg::new(11);
        let ring_polys: Vec<_> = (0..4).map(|_| rng.poly()).collect();
        let page_poly = rng.poly();
        // A polynomial into slot 0 for the row store below.
        assert!(!run(&mut uut, reg::OP_LOAD, 0, &page_poly).1);
        uut.store_poly.next = 20u64.into();
        // Slot 0 written while the core stores its rows to page 1.
        uut.core.op.next = (OP_STORE_ROWS as u64).into();
        uut.core.arg0.next = 0u64.into();
        uut.core.start.next = true;
        for (slot, p) in ring_polys.iter().enumerate() {
            for (i, &c) in p.iter().enumerate() {
                uut.coeff_write.next = true;
                uut.coeff_slot.next = (slot as u64).into();
                uut.coeff_index.next = (i as u64).into();
                uut.coeff_data.next = (c as u64).into();
                tick(&mut uut, |u| &mut u.clock);
                uut.core.start.next = false;
            }
        }
        uut.coeff_write.next = false;
        tick(&mut uut, |u| &mut u.clock);
        settle(&mut uut);
        assert!(!uut.core.busy.val() && !uut.core.error.val());
        for (slot, p) in ring_polys.iter().enumerate().rev() {
            uut.load_poly.next = ((RING_FIRST_POLY + slot) as u64).into();
            let (busy, error, _) = run(&mut uut, OP_LOAD_ROWS, 2, &[]);
            assert!(!error);
            assert_eq!(busy, ROWS + 1);
            let (_, error, got) = run(&mut uut, reg::OP_STORE, 2, &[]);
            assert!(!error);
            assert_eq!(&got[..], &p[..], "ring slot {slot}");
        }
        uut.load_poly.next = 20u64.into();
        assert!(!run(&mut uut, OP_LOAD_ROWS, 1, &[]).1);
        let (_, _, got) = run(&mut uut, reg::OP_STORE, 1, &[]);
        assert_eq!(
            &got[..],
            &page_poly[..],
            "the row store beside the ring writes"
        );
    }

    /// The load order the ring writes follow is the core's: bank
    /// (i + 4·i7) mod 8, row i / 8, each (bank, row) once.
    #[test]
    fn load_positions_cover_every_bank_and_row_once() {
        let mut seen = [[false; ROWS]; BANKS];
        for i in 0..256 {
            let (bank, row) = load_position(i);
            assert!(!seen[bank][row], "coefficient {i}");
            seen[bank][row] = true;
        }
    }
}
