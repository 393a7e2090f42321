//! Combinational Keccak-f\[1600\] rounds: θ, ρ, π, χ, ι on 25 × 64-bit lanes.
//!
//! [`KeccakRounds<R>`] applies `R` consecutive rounds in one combinational
//! cloud, so the permutation core finishes in `24 / R` clocks. The rotation
//! offsets and round constants are derived here from their FIPS 202
//! definitions (§3.2.2 and the rc(t) LFSR of §3.2.5), not typed in as tables,
//! and are checked against the `keccak` crate by the permutation tests.

use rust_hdl::prelude::*;

/// Rounds of Keccak-f\[1600\] (12 + 2ℓ with ℓ = 6).
pub const ROUNDS: usize = 24;

/// Lane index of (x, y) in the state (FIPS 202: A[x, y] = lane x + 5y).
pub const fn lane(x: usize, y: usize) -> usize {
    x % 5 + 5 * (y % 5)
}

/// ρ rotation offsets by lane index, from the (t+1)(t+2)/2 walk of FIPS 202 §3.2.2.
pub const fn rho_offsets() -> [u32; 25] {
    let mut offsets = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0usize;
    while t < 24 {
        offsets[lane(x, y)] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let next_y = (2 * x + 3 * y) % 5;
        x = y;
        y = next_y;
        t += 1;
    }
    offsets
}

/// Where π moves lane i: A'[y, 2x + 3y] = A[x, y].
pub const fn pi_destination(i: usize) -> usize {
    let (x, y) = (i % 5, i / 5);
    lane(y, 2 * x + 3 * y)
}

/// rc(t) of FIPS 202 Algorithm 5: the LFSR x^8 + x^6 + x^5 + x^4 + 1.
const fn rc_bit(t: usize) -> u64 {
    let mut r: u8 = 1;
    let mut i = 0;
    while i < t % 255 {
        let carry = r & 0x80 != 0;
        r <<= 1;
        if carry {
            r ^= 0x71;
        }
        i += 1;
    }
    (r & 1) as u64
}

/// ι round constants RC\[i_r\] (FIPS 202 Algorithm 6).
pub const fn round_constants() -> [u64; ROUNDS] {
    let mut rcs = [0u64; ROUNDS];
    let mut round = 0;
    while round < ROUNDS {
        let mut j = 0;
        while j <= 6 {
            rcs[round] |= rc_bit(j + 7 * round) << ((1u64 << j) - 1);
            j += 1;
        }
        round += 1;
    }
    rcs
}

/// `R` combinational Keccak-f\[1600\] rounds, starting at round `round_index`.
///
/// `lanes[25k..25k+25]` is the input of round k (`lanes[0..25]` copies
/// `state_in`); the output of the last round drives `state_out`. Array
/// indices are flat because rust-hdl's Verilog generator resolves only one
/// index per name.
#[derive(LogicBlock)]
pub struct KeccakRounds<const R: usize> {
    /// State before the first round.
    pub state_in: [Signal<In, Bits<64>>; 25],
    /// Index of the first of the `R` rounds (0, R, 2R, …).
    pub round_index: Signal<In, Bits<5>>,
    /// State after the `R` rounds.
    pub state_out: [Signal<Out, Bits<64>>; 25],
    lanes: Vec<Signal<Local, Bits<64>>>,
    column_parity: Vec<Signal<Local, Bits<64>>>,
    theta_effect: Vec<Signal<Local, Bits<64>>>,
    rho_pi: Vec<Signal<Local, Bits<64>>>,
    iota: Vec<Signal<Local, Bits<64>>>,
    rotate_left: [Constant<Bits<7>>; 25],
    rotate_right: [Constant<Bits<7>>; 25],
    rc_table: [Constant<Bits<64>>; ROUNDS],
}

impl<const R: usize> Default for KeccakRounds<R> {
    fn default() -> Self {
        assert!(R >= 1 && ROUNDS % R == 0, "rounds per clock must divide 24");
        let rho = rho_offsets();
        let rcs = round_constants();
        let locals = |n: usize| (0..n).map(|_| Signal::default()).collect::<Vec<_>>();
        Self {
            state_in: Default::default(),
            round_index: Default::default(),
            state_out: Default::default(),
            lanes: locals(25 * (R + 1)),
            column_parity: locals(5 * R),
            theta_effect: locals(5 * R),
            rho_pi: locals(25 * R),
            iota: locals(R),
            // A rotation is (v << r) | (v >> (64 - r)); a shift by 64 gives 0
            // in both the simulation and Verilog, so r = 0 needs no case.
            rotate_left: core::array::from_fn(|i| Constant::new((rho[i] as u64).into())),
            rotate_right: core::array::from_fn(|i| Constant::new((64 - rho[i] as u64).into())),
            rc_table: core::array::from_fn(|i| Constant::new(rcs[i].into())),
        }
    }
}

impl<const R: usize> Logic for KeccakRounds<R> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..25 {
            self.lanes[i].next = self.state_in[i].val();
        }
        for k in 0..R {
            // ι constant of round round_index + k.
            self.iota[k].next = 0.into();
            for r in 0..24 {
                if self.round_index.val().index() + k == r {
                    self.iota[k].next = self.rc_table[r].val();
                }
            }
            // θ: column parities, then C[x-1] ^ rot(C[x+1], 1).
            for x in 0..5 {
                self.column_parity[5 * k + x].next = self.lanes[25 * k + x].val()
                    ^ self.lanes[25 * k + x + 5].val()
                    ^ self.lanes[25 * k + x + 10].val()
                    ^ self.lanes[25 * k + x + 15].val()
                    ^ self.lanes[25 * k + x + 20].val();
            }
            for x in 0..5 {
                self.theta_effect[5 * k + x].next = self.column_parity[5 * k + (x + 4) % 5].val()
                    ^ (self.column_parity[5 * k + (x + 1) % 5].val() << 1)
                    ^ (self.column_parity[5 * k + (x + 1) % 5].val() >> 63);
            }
            // θ applied, ρ rotation, π move (destination index written out
            // because the Verilog generator evaluates index expressions).
            for i in 0..25 {
                self.rho_pi[25 * k + (i / 5) + 5 * ((2 * (i % 5) + 3 * (i / 5)) % 5)].next =
                    ((self.lanes[25 * k + i].val() ^ self.theta_effect[5 * k + i % 5].val())
                        << self.rotate_left[i].val())
                        | ((self.lanes[25 * k + i].val() ^ self.theta_effect[5 * k + i % 5].val())
                            >> self.rotate_right[i].val());
            }
            // χ, then ι on lane 0.
            for i in 0..25 {
                self.lanes[25 * k + 25 + i].next = self.rho_pi[25 * k + i].val()
                    ^ (!self.rho_pi[25 * k + 5 * (i / 5) + (i % 5 + 1) % 5].val()
                        & self.rho_pi[25 * k + 5 * (i / 5) + (i % 5 + 2) % 5].val());
            }
            self.lanes[25 * k + 25].next = self.rho_pi[25 * k].val()
                ^ (!self.rho_pi[25 * k + 1].val() & self.rho_pi[25 * k + 2].val())
                ^ self.iota[k].val();
            // The last round's output wins (index expressions may not name R).
            for i in 0..25 {
                self.state_out[i].next = self.lanes[25 * k + 25 + i].val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first and last RC of FIPS 202 (also in every Keccak reference).
    #[test]
    fn derived_constants_have_the_known_shape() {
        let rcs = round_constants();
        assert_eq!(rcs[0], 1);
        // Only bit positions 2^j - 1 may be set.
        let allowed: u64 = (0..7).map(|j| 1u64 << ((1 << j) - 1)).sum();
        assert!(rcs.iter().all(|rc| rc & !allowed == 0));
        let rho = rho_offsets();
        assert_eq!(rho[0], 0);
        assert_eq!(rho[1], 1);
        // The 24 non-zero offsets are distinct mod 64 (Keccak design property).
        let mut seen = rho[1..].to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 24);
        // π is a permutation fixing lane 0.
        let mut dest: Vec<usize> = (0..25).map(pi_destination).collect();
        assert_eq!(dest[0], 0);
        dest.sort_unstable();
        assert_eq!(dest, (0..25).collect::<Vec<_>>());
    }
}
