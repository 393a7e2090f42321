//! The iterative Keccak-f\[1600\] core: 25 lane registers and `R` rounds per clock.
//!
//! Handshake: while `busy` is low the core accepts, on a clock edge, one of
//! `load` (state ← `load_lanes`) or `xor_enable` (32-bit word
//! `xor_word_index` of the state ^= `xor_word`, words numbered little-endian
//! from lane 0 — the sponge's absorb path). `start` on the same edge begins
//! the permutation on the state as written by that edge; `busy` is then high
//! for `24 / R` clocks, during which those inputs are ignored, and the result
//! is in `lanes` as soon as `busy` falls. `clear` (state ← 0) is taken at any
//! time and also stops a running permutation. So a
//! permutation costs 1 + 24/R clocks from the `start` edge to the result
//! (25 for R = 1, 13 for R = 2), loading included.
//!
//! `reload` chains permutations without the load clock: when it is high on
//! the second-to-last clock of a permutation, the last clock writes
//! `load_lanes` (which may be built from `next_lanes`, that clock's round
//! result) instead of the result and runs again, so `busy` stays high and
//! the next result follows 24/R clocks later. `reloading` is high on that
//! clock. The choice is registered one clock ahead, so the 1,600 state
//! multiplexers are steered by a flip-flop, not by logic.

use super::round::{KeccakRounds, ROUNDS};
use rust_hdl::prelude::*;

/// 32-bit words the absorb port can address: the largest rate (SHAKE128).
pub const XOR_WORDS: usize = pqc::keccak::SpongeMode::Shake128.rate_bytes() / 4;
/// Lanes the absorb port reaches.
pub const XOR_LANES: usize = XOR_WORDS / 2;

/// Iterative Keccak-f\[1600\] with `R` rounds per clock (`R` divides 24).
#[derive(LogicBlock)]
pub struct KeccakPermutation<const R: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Begin the permutation (when not busy).
    pub start: Signal<In, Bit>,
    /// Load `load_lanes` into the state (when not busy).
    pub load: Signal<In, Bit>,
    /// State to load.
    pub load_lanes: [Signal<In, Bits<64>>; 25],
    /// Zero the state and stop any permutation (always taken, wins over all).
    pub clear: Signal<In, Bit>,
    /// XOR `xor_word` into word `xor_word_index` (when not busy and not loading).
    pub xor_enable: Signal<In, Bit>,
    /// Word index 0..XOR_WORDS: lane index / 2, upper half when odd.
    pub xor_word_index: Signal<In, Bits<6>>,
    /// Word to XOR.
    pub xor_word: Signal<In, Bits<32>>,
    /// Load `load_lanes` at the end of this permutation and run again
    /// (sampled on its second-to-last clock; module docs).
    pub reload: Signal<In, Bit>,
    /// Rounds in progress.
    pub busy: Signal<Out, Bit>,
    /// This clock ends a permutation with a reload (module docs).
    pub reloading: Signal<Out, Bit>,
    /// The state registers.
    pub lanes: [Signal<Out, Bits<64>>; 25],
    /// This clock's round result (meaningful while `busy`).
    pub next_lanes: [Signal<Out, Bits<64>>; 25],
    state: [DFF<Bits<64>>; 25],
    running: DFF<Bit>,
    round: DFF<Bits<5>>,
    reload_armed: DFF<Bit>,
    load_now: Signal<Local, Bit>,
    rounds: KeccakRounds<R>,
    last_round_index: Constant<Bits<5>>,
    /// The round index of the second-to-last clock (31, never reached,
    /// when one clock does all rounds).
    penultimate_round_index: Constant<Bits<5>>,
    rounds_per_clock: Constant<Bits<5>>,
}

impl<const R: usize> Default for KeccakPermutation<R> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            start: Default::default(),
            load: Default::default(),
            load_lanes: Default::default(),
            clear: Default::default(),
            xor_enable: Default::default(),
            xor_word_index: Default::default(),
            xor_word: Default::default(),
            reload: Default::default(),
            busy: Default::default(),
            reloading: Default::default(),
            lanes: Default::default(),
            next_lanes: Default::default(),
            state: Default::default(),
            running: Default::default(),
            round: Default::default(),
            reload_armed: Default::default(),
            load_now: Default::default(),
            rounds: Default::default(),
            last_round_index: Constant::new(((ROUNDS - R) as u64).into()),
            penultimate_round_index: Constant::new(
                (if ROUNDS >= 2 * R { ROUNDS - 2 * R } else { 31 } as u64).into(),
            ),
            rounds_per_clock: Constant::new((R as u64).into()),
        }
    }
}

impl<const R: usize> Logic for KeccakPermutation<R> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..25 {
            self.state[i].clock.next = self.clock.val();
            self.state[i].d.next = self.state[i].q.val();
            self.rounds.state_in[i].next = self.state[i].q.val();
            self.lanes[i].next = self.state[i].q.val();
            self.next_lanes[i].next = self.rounds.state_out[i].val();
        }
        dff_setup!(self, clock, running, round, reload_armed);
        self.rounds.round_index.next = self.round.q.val();
        self.busy.next = self.running.q.val();
        self.reloading.next = self.reload_armed.q.val();
        self.reload_armed.d.next = self.running.q.val()
            & (self.round.q.val() == self.penultimate_round_index.val())
            & self.reload.val();
        // Priority clear > load > rounds > xor, and "hold" as the default:
        // synthesis maps clear to the flip-flops' synchronous reset and hold
        // to their clock enable, leaving one LUT6 per state bit for the rest.
        // A load (idle with `load`, or the last clock of a reloading
        // permutation) is one case, so each state bit keeps one load input.
        self.load_now.next = self.reload_armed.q.val() | (!self.running.q.val() & self.load.val());
        if self.clear.val() {
            for i in 0..25 {
                self.state[i].d.next = 0.into();
            }
            self.running.d.next = false;
            self.reload_armed.d.next = false;
        } else if self.load_now.val() {
            for i in 0..25 {
                self.state[i].d.next = self.load_lanes[i].val();
            }
        } else if self.running.q.val() {
            for i in 0..25 {
                self.state[i].d.next = self.rounds.state_out[i].val();
            }
        } else if self.xor_enable.val() {
            for i in 0..XOR_LANES {
                if self.xor_word_index.val().index() == 2 * i {
                    self.state[i].d.next =
                        self.state[i].q.val() ^ bit_cast::<64, 32>(self.xor_word.val());
                }
                if self.xor_word_index.val().index() == 2 * i + 1 {
                    self.state[i].d.next =
                        self.state[i].q.val() ^ (bit_cast::<64, 32>(self.xor_word.val()) << 32);
                }
            }
        }
        // The round counter: a reload starts the next permutation.
        if !self.clear.val() {
            if self.reload_armed.q.val() {
                self.round.d.next = 0.into();
            } else if self.running.q.val() {
                self.round.d.next = self.round.q.val() + self.rounds_per_clock.val();
                if self.round.q.val() == self.last_round_index.val() {
                    self.running.d.next = false;
                }
            } else if self.start.val() {
                self.running.d.next = true;
                self.round.d.next = 0.into();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keccak::bench::Bench;
    use crate::keccak::testutil::SplitMix64;

    fn lanes_of<const R: usize>(core: &KeccakPermutation<R>) -> [u64; 25] {
        core::array::from_fn(|i| core.lanes[i].val().to_u64())
    }

    /// Loads random states and permutes them; checks every result against
    /// the `keccak` crate and the clock count from the start edge to the result.
    fn permute_random_states<const R: usize>(count: usize, seed: u64) {
        let mut bench = Bench::new(KeccakPermutation::<R>::default(), |c| &mut c.clock);
        let mut rng = SplitMix64(seed);
        for n in 0..count {
            let input: [u64; 25] = core::array::from_fn(|_| rng.next_u64());
            for (i, lane) in input.iter().enumerate() {
                bench.uut.load_lanes[i].next = (*lane).into();
            }
            bench.uut.load.next = true;
            bench.uut.start.next = true;
            bench.settle();
            assert!(!bench.uut.busy.val());
            let started_at = bench.cycles;
            bench.clock();
            bench.uut.load.next = false;
            bench.uut.start.next = false;
            bench.settle();
            while bench.uut.busy.val() {
                assert!(bench.cycles - started_at <= 24, "permutation never ends");
                bench.clock();
            }
            let elapsed = bench.cycles - started_at;
            assert_eq!(elapsed, 1 + (ROUNDS / R) as u64, "clocks, state {n}");
            let mut expected = input;
            ::keccak::Keccak::new().with_f1600(|f| f(&mut expected));
            assert_eq!(lanes_of(&bench.uut), expected, "R = {R}, state {n}");
        }
    }

    /// Chains `links` permutations with `reload`, each reload block being
    /// the last round's result with every lane rotated by one lane and a
    /// constant XORed in (built from `next_lanes` on the reloading clock, as
    /// the sponge's chain does); checks every result against the `keccak`
    /// crate, that `busy` never falls in between, and the clock count
    /// 1 + links·24/R.
    fn chain_reloads<const R: usize>(links: usize, seed: u64) {
        let mut bench = Bench::new(KeccakPermutation::<R>::default(), |c| &mut c.clock);
        let mut rng = SplitMix64(seed);
        let input: [u64; 25] = core::array::from_fn(|_| rng.next_u64());
        let tweak = rng.next_u64();
        let reblock = |lanes: &[u64; 25]| -> [u64; 25] {
            core::array::from_fn(|i| lanes[(i + 1) % 25] ^ tweak)
        };
        for (i, lane) in input.iter().enumerate() {
            bench.uut.load_lanes[i].next = (*lane).into();
        }
        bench.uut.load.next = true;
        bench.uut.start.next = true;
        bench.uut.reload.next = links > 1;
        bench.settle();
        let started_at = bench.cycles;
        bench.clock();
        bench.uut.load.next = false;
        bench.uut.start.next = false;
        let mut expected = input;
        let mut reloads = 0;
        loop {
            bench.settle();
            if !bench.uut.busy.val() {
                break;
            }
            assert!(bench.cycles - started_at <= 24 * links as u64, "never ends");
            if bench.uut.reloading.val() {
                let result: [u64; 25] =
                    core::array::from_fn(|i| bench.uut.next_lanes[i].val().to_u64());
                ::keccak::Keccak::new().with_f1600(|f| f(&mut expected));
                assert_eq!(result, expected, "R = {R}, link {reloads}");
                expected = reblock(&result);
                for (i, lane) in expected.iter().enumerate() {
                    bench.uut.load_lanes[i].next = (*lane).into();
                }
                reloads += 1;
                bench.uut.reload.next = reloads + 1 < links;
                bench.settle();
            }
            bench.clock();
        }
        assert_eq!(reloads, links - 1, "reloads");
        assert_eq!(
            bench.cycles - started_at,
            1 + (links * ROUNDS / R) as u64,
            "clocks"
        );
        ::keccak::Keccak::new().with_f1600(|f| f(&mut expected));
        assert_eq!(lanes_of(&bench.uut), expected, "R = {R}, last link");
    }

    #[test]
    fn reload_chains_permutations_without_a_load_clock() {
        for links in 1..=4 {
            chain_reloads::<1>(links, 10 + links as u64);
            chain_reloads::<2>(links, 20 + links as u64);
            chain_reloads::<3>(links, 30 + links as u64);
        }
    }

    #[test]
    fn one_round_per_clock_matches_keccak_crate() {
        permute_random_states::<1>(1_000, 1);
    }

    #[test]
    fn two_rounds_per_clock_matches_keccak_crate() {
        permute_random_states::<2>(1_000, 2);
    }
}
