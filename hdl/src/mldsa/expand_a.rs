//! One entry Â\[row\]\[col\] of ExpandA (FIPS 204 Algorithm 32) entirely in
//! the PL: the Keccak sponge engine absorbs ρ ‖ col ‖ row and squeezes
//! SHAKE128 straight into the RejNTTPoly sampler, with no bus in between.
//! The accepted coefficients leave on a write port (`coeff`, `coeff_index`,
//! `coeff_valid`) for the polynomial memory.
//!
//! The sponge is asked for an output far longer than any entry needs
//! (`SQUEEZE_BYTES`) and stopped with its `OP_ABORT` once the 256th
//! coefficient is accepted, because how many bytes an entry takes is known
//! only at the end. The abort is the engine's documented way back to idle
//! from any state; here it ends every entry, so its `error` flag is not an
//! error of this unit.
//!
//! Cycles (asserted by the tests): the absorb (9 words and a permutation),
//! then one candidate per clock while the squeeze keeps up; with a 1-round
//! Keccak engine the squeeze (42 words per 66 clocks) is the limit. The
//! count depends only on ρ, row and col, which are public.
//!
//! ρ is written beforehand, a 32-bit word at a time (`seed_write`,
//! `seed_index`, `seed_word`, little-endian as in the byte string).

use crate::keccak::SpongeEngine;
use crate::mldsa::rej_ntt::RejNttSampler;
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// The output length requested from the sponge (by this unit and by the
/// engine's samplers): far more than an entry can need (an entry needs more than 5 blocks with probability below
/// 2^−100), and an `OP_ABORT` ends the squeeze early.
pub const SQUEEZE_BYTES: u32 = 0xFFFF_FFF0;
/// Words of ρ.
pub const SEED_WORDS: usize = 8;

/// Phases of the unit.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum ExpandAPhase {
    /// Waiting for `start`.
    Idle,
    /// Sending ρ ‖ col ‖ row to the sponge.
    Absorb,
    /// Sampling from the squeezed stream.
    Sample,
    /// The 256th coefficient is out: abort the squeeze.
    Stop,
}

/// ExpandA entry generator: sponge engine with `R` rounds per clock and
/// the RejNTTPoly sampler.
#[derive(LogicBlock)]
pub struct ExpandAEntry<const R: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle.
    pub reset: Signal<In, Bit>,
    /// Write `seed_word` into ρ word `seed_index` (when idle).
    pub seed_write: Signal<In, Bit>,
    /// Which ρ word.
    pub seed_index: Signal<In, Bits<3>>,
    /// The ρ word.
    pub seed_word: Signal<In, Bits<32>>,
    /// Generate Â\[row\]\[col\] (taken when idle).
    pub start: Signal<In, Bit>,
    /// Row index r.
    pub row: Signal<In, Bits<8>>,
    /// Column index s.
    pub col: Signal<In, Bits<8>>,
    /// An entry is being generated.
    pub busy: Signal<Out, Bit>,
    /// The coefficient to write.
    pub coeff: Signal<Out, Bits<23>>,
    /// Its index in the polynomial.
    pub coeff_index: Signal<Out, Bits<8>>,
    /// Write `coeff` at `coeff_index` this clock.
    pub coeff_valid: Signal<Out, Bit>,
    sponge: SpongeEngine<R>,
    sampler: RejNttSampler,
    seed: [DFF<Bits<32>>; SEED_WORDS],
    phase: DFF<ExpandAPhase>,
    word: DFF<Bits<4>>,
    index: DFF<Bits<8>>,
    last_index: DFF<Bit>,
    indices: DFF<Bits<16>>,
    absorb_word: Signal<Local, Bits<32>>,
    op_sponge: Constant<Bits<8>>,
    op_abort: Constant<Bits<8>>,
    mode_shake128: Constant<Bits<32>>,
    message_bytes: Constant<Bits<32>>,
    squeeze_bytes: Constant<Bits<32>>,
    last_word: Constant<Bits<4>>,
}

impl<const R: usize> Default for ExpandAEntry<R> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            seed_write: Default::default(),
            seed_index: Default::default(),
            seed_word: Default::default(),
            start: Default::default(),
            row: Default::default(),
            col: Default::default(),
            busy: Default::default(),
            coeff: Default::default(),
            coeff_index: Default::default(),
            coeff_valid: Default::default(),
            sponge: Default::default(),
            sampler: Default::default(),
            seed: Default::default(),
            phase: Default::default(),
            word: Default::default(),
            index: Default::default(),
            last_index: Default::default(),
            indices: Default::default(),
            absorb_word: Default::default(),
            op_sponge: Constant::new((regs::OP_SPONGE as u64).into()),
            op_abort: Constant::new((regs::OP_ABORT as u64).into()),
            mode_shake128: Constant::new((regs::MODE_SHAKE128 as u64).into()),
            // ρ (32 bytes) ‖ col ‖ row.
            message_bytes: Constant::new(34.into()),
            squeeze_bytes: Constant::new((SQUEEZE_BYTES as u64).into()),
            last_word: Constant::new((SEED_WORDS as u64).into()),
        }
    }
}

impl<const R: usize> Logic for ExpandAEntry<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, word, index, last_index, indices);
        for i in 0..SEED_WORDS {
            self.seed[i].clock.next = self.clock.val();
            self.seed[i].d.next = self.seed[i].q.val();
        }
        clock!(self, clock, sponge, sampler);
        self.sponge.reset.next = self.reset.val();
        self.sponge.start.next = false;
        self.sponge.op.next = self.op_sponge.val();
        self.sponge.arg0.next = self.mode_shake128.val();
        self.sponge.arg1.next = self.message_bytes.val();
        self.sponge.arg2.next = self.squeeze_bytes.val();
        self.sponge.in_valid.next = false;
        self.sponge.in_last.next = false;
        // The ninth message word is col ‖ row (bytes 32 and 33).
        self.absorb_word.next = self.seed[0].q.val();
        for i in 1..SEED_WORDS {
            if self.word.q.val().index() == i {
                self.absorb_word.next = self.seed[i].q.val();
            }
        }
        if self.word.q.val() == self.last_word.val() {
            self.absorb_word.next = bit_cast::<32, 16>(self.indices.q.val());
        }
        self.sponge.in_data.next = self.absorb_word.val();
        // The squeezed words go straight to the sampler.
        self.sampler.reset.next = self.reset.val();
        self.sampler.word.next = self.sponge.out_data.val();
        self.sampler.word_valid.next = self.sponge.out_valid.val();
        self.sponge.out_ready.next = self.sampler.word_ready.val();
        self.coeff.next = self.sampler.coeff.val();
        self.coeff_index.next = self.index.q.val();
        self.coeff_valid.next = false;
        match self.phase.q.val() {
            ExpandAPhase::Idle => {
                if self.seed_write.val() {
                    for i in 0..SEED_WORDS {
                        if self.seed_index.val().index() == i {
                            self.seed[i].d.next = self.seed_word.val();
                        }
                    }
                }
                if self.start.val() {
                    self.sponge.start.next = true;
                    self.sampler.reset.next = true;
                    self.indices.d.next = bit_cast::<16, 8>(self.col.val())
                        | (bit_cast::<16, 8>(self.row.val()) << 8);
                    self.word.d.next = 0.into();
                    self.index.d.next = 0.into();
                    self.last_index.d.next = false;
                    self.phase.d.next = ExpandAPhase::Absorb;
                }
            }
            ExpandAPhase::Absorb => {
                self.sponge.in_valid.next = true;
                self.sponge.in_last.next = self.word.q.val() == self.last_word.val();
                if self.sponge.in_ready.val() {
                    self.word.d.next = self.word.q.val() + 1;
                    if self.word.q.val() == self.last_word.val() {
                        self.phase.d.next = ExpandAPhase::Sample;
                    }
                }
            }
            ExpandAPhase::Sample => {
                if self.sampler.coeff_valid.val() {
                    self.coeff_valid.next = true;
                    self.index.d.next = self.index.q.val() + 1;
                    self.last_index.d.next = self.index.q.val() == 254;
                    if self.last_index.q.val() {
                        self.phase.d.next = ExpandAPhase::Stop;
                    }
                }
            }
            ExpandAPhase::Stop => {
                self.sponge.start.next = true;
                self.sponge.op.next = self.op_abort.val();
                self.sampler.reset.next = true;
                self.phase.d.next = ExpandAPhase::Idle;
            }
            _ => {
                self.phase.d.next = ExpandAPhase::Idle;
            }
        }
        if self.reset.val() {
            self.phase.d.next = ExpandAPhase::Idle;
        }
        self.busy.next = self.phase.q.val() != ExpandAPhase::Idle;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::keccak::SoftKeccak;
    use pqc::mldsa::sample::expand_a_entry;
    use pqc::ring::N;

    fn load_seed<const R: usize>(uut: &mut ExpandAEntry<R>, rho: &[u8; 32]) {
        for (i, w) in rho.chunks_exact(4).enumerate() {
            uut.seed_write.next = true;
            uut.seed_index.next = (i as u64).into();
            uut.seed_word.next = (u32::from_le_bytes(w.try_into().unwrap()) as u64).into();
            tick(uut, |u| &mut u.clock);
        }
        uut.seed_write.next = false;
    }

    /// Generates Â[row][col]; returns the polynomial (from the write port)
    /// and the clocks from start to idle.
    fn entry<const R: usize>(uut: &mut ExpandAEntry<R>, row: u8, col: u8) -> (Vec<i32>, usize) {
        let mut poly = vec![-1i32; N];
        uut.row.next = (row as u64).into();
        uut.col.next = (col as u64).into();
        uut.start.next = true;
        tick(uut, |u| &mut u.clock);
        uut.start.next = false;
        let mut clocks = 1;
        let mut writes = 0;
        loop {
            settle(uut);
            if uut.coeff_valid.val() {
                poly[uut.coeff_index.val().to_u64() as usize] = uut.coeff.val().to_u64() as i32;
                writes += 1;
            }
            if !uut.busy.val() {
                break;
            }
            assert!(clocks < 20_000, "entry never finished");
            tick(uut, |u| &mut u.clock);
            clocks += 1;
        }
        assert_eq!(writes, N, "one write per coefficient");
        (poly, clocks)
    }

    fn check_entries<const R: usize>(seed: u64) -> Vec<usize> {
        let mut uut = ExpandAEntry::<R>::default();
        uut.connect_all();
        settle(&mut uut);
        uut.reset.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut rng = Lcg::new(seed);
        let rho: [u8; 32] = core::array::from_fn(|_| rng.next_u32() as u8);
        load_seed(&mut uut, &rho);
        let mut all_clocks = Vec::new();
        for (row, col) in [(0u8, 0u8), (1, 0), (3, 2), (7, 6)] {
            let mut want = [0i32; N];
            expand_a_entry(&mut SoftKeccak, &rho, row as usize, col as usize, &mut want);
            let (got, clocks) = entry(&mut uut, row, col);
            assert_eq!(got, want.to_vec(), "Â[{row}][{col}]");
            all_clocks.push(clocks);
        }
        all_clocks
    }

    #[test]
    fn expand_a_entry_in_pl_matches_pqc_and_its_clock_count_is_public() {
        let clocks = check_entries::<1>(32);
        // The same ρ and indices give the same count (nothing else enters).
        assert_eq!(check_entries::<1>(32), clocks);
        // A 1-round engine squeezes 168 bytes per 66 clocks; an entry needs
        // about 770 bytes: between 4 and 7 blocks and the absorb.
        for c in &clocks {
            assert!((4 * 66..8 * 66).contains(c), "{c} clocks");
        }
        eprintln!("ExpandA entry, R = 1: {clocks:?} clocks");
    }

    #[test]
    fn expand_a_entry_yosys_validates() {
        let mut uut = ExpandAEntry::<1>::default();
        uut.connect_all();
        yosys_validate("mldsa_expand_a", &generate_verilog(&uut)).unwrap();
    }
}
