//! RejBoundedPoly's acceptance (FIPS 204 Algorithm 31, ExpandS): a SHAKE256
//! byte stream in, one nibble examined per clock (low nibble first), and
//! the accepted coefficients out in canonical form mod q:
//!
//! - η = 2: nibble z < 15 is kept as `2 − (z mod 5)`;
//! - η = 4: nibble z < 9 is kept as `4 − z`.
//!
//! A byte is taken (`data_ready`) every second clock, so the sampler keeps
//! up with a stream of one byte per two clocks. Which nibbles are rejected
//! depends on the secret seed ρ′, but every nibble costs one clock whatever
//! its value, so the cycle count of a polynomial reveals only how many
//! nibbles were rejected, which are independent of the kept coefficients
//! (the same argument as `pqc::mldsa::sample::rej_bounded_poly_with`).
//!
//! Latency 1: a coefficient is valid the clock after its nibble is examined.

use rust_hdl::prelude::*;

/// The RejBoundedPoly sampler.
#[derive(LogicBlock)]
pub struct RejBoundedSampler {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: drops a held high nibble; the next byte starts.
    pub reset: Signal<In, Bit>,
    /// η = 4 when set, η = 2 otherwise.
    pub eta4: Signal<In, Bit>,
    /// The next byte of the XOF stream.
    pub data: Signal<In, Bits<8>>,
    /// `data` is valid this clock.
    pub data_valid: Signal<In, Bit>,
    /// The sampler takes `data` this clock (no high nibble is waiting).
    pub data_ready: Signal<Out, Bit>,
    /// The accepted coefficient, canonical (η − m, or q + η − m).
    pub coeff: Signal<Out, Bits<23>>,
    /// `coeff` is valid this clock.
    pub coeff_valid: Signal<Out, Bit>,
    high_pending: DFF<Bit>,
    high_nibble: DFF<Bits<4>>,
    out: DFF<Bits<23>>,
    out_valid: DFF<Bit>,
    nibble: Signal<Local, Bits<4>>,
    examine: Signal<Local, Bit>,
    mod5: Signal<Local, Bits<4>>,
    m: Signal<Local, Bits<23>>,
    eta: Signal<Local, Bits<23>>,
    accept: Signal<Local, Bit>,
    q23: Constant<Bits<23>>,
}

impl Default for RejBoundedSampler {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            eta4: Default::default(),
            data: Default::default(),
            data_valid: Default::default(),
            data_ready: Default::default(),
            coeff: Default::default(),
            coeff_valid: Default::default(),
            high_pending: Default::default(),
            high_nibble: Default::default(),
            out: Default::default(),
            out_valid: Default::default(),
            nibble: Default::default(),
            examine: Default::default(),
            mod5: Default::default(),
            m: Default::default(),
            eta: Default::default(),
            accept: Default::default(),
            q23: Constant::new((pqc::ring::Q as u64).into()),
        }
    }
}

impl Logic for RejBoundedSampler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, high_pending, high_nibble, out, out_valid);
        self.data_ready.next = !self.high_pending.q.val();
        // The held high nibble goes first; otherwise the low nibble of a
        // byte taken this clock.
        if self.high_pending.q.val() {
            self.nibble.next = self.high_nibble.q.val();
            self.examine.next = true;
        } else {
            self.nibble.next = self.data.val().get_bits::<4>(0);
            self.examine.next = self.data_valid.val();
        }
        // z mod 5 for z < 15 by two conditional subtractions (z = 15 is
        // rejected anyway).
        if self.nibble.val() >= 10 {
            self.mod5.next = self.nibble.val() - 10;
        } else if self.nibble.val() >= 5 {
            self.mod5.next = self.nibble.val() - 5;
        } else {
            self.mod5.next = self.nibble.val();
        }
        if self.eta4.val() {
            self.m.next = bit_cast::<23, 4>(self.nibble.val());
            self.eta.next = 4.into();
            self.accept.next = self.nibble.val() < 9;
        } else {
            self.m.next = bit_cast::<23, 4>(self.mod5.val());
            self.eta.next = 2.into();
            self.accept.next = self.nibble.val() < 15;
        }
        // η − m wraps below zero; adding q then gives q + η − m.
        if self.m.val() > self.eta.val() {
            self.out.d.next = self.eta.val() - self.m.val() + self.q23.val();
        } else {
            self.out.d.next = self.eta.val() - self.m.val();
        }
        self.out_valid.d.next = self.examine.val() & self.accept.val();
        if self.high_pending.q.val() {
            self.high_pending.d.next = false;
        } else if self.data_valid.val() {
            self.high_pending.d.next = true;
            self.high_nibble.d.next = self.data.val().get_bits::<4>(4);
        }
        if self.reset.val() {
            self.high_pending.d.next = false;
            self.out_valid.d.next = false;
        }
        self.coeff.next = self.out.q.val();
        self.coeff_valid.next = self.out_valid.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
    use pqc::mldsa::sample::expand_s_poly;
    use pqc::ring::{N, Q};

    /// Runs the sampler over the SHAKE256 stream of ExpandS polynomial
    /// `index` until it accepted N coefficients, presenting a byte only
    /// every `gap`-th clock; returns them and the clocks taken.
    fn sample(
        uut: &mut RejBoundedSampler,
        seed: &[u8; 64],
        index: u16,
        eta4: bool,
        gap: usize,
    ) -> (Vec<i32>, usize) {
        let mut stream = vec![0u8; 136 * 8];
        SoftKeccak.sponge(
            SpongeMode::Shake256,
            &[seed, &index.to_le_bytes()],
            &mut stream,
        );
        uut.eta4.next = eta4;
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut got = Vec::new();
        let mut next = 0;
        let mut clocks = 0;
        while got.len() < N {
            assert!(next < stream.len(), "stream exhausted");
            let offer = clocks % gap == 0;
            uut.data.next = (stream[next] as u64).into();
            uut.data_valid.next = offer;
            settle(uut);
            let taken = offer && uut.data_ready.val();
            tick(uut, |u| &mut u.clock);
            clocks += 1;
            if taken {
                next += 1;
            }
            if uut.coeff_valid.val() {
                got.push(uut.coeff.val().to_u64() as i32);
            }
        }
        uut.data_valid.next = false;
        (got, clocks)
    }

    #[test]
    fn rej_bounded_sampler_reproduces_expand_s() {
        let mut uut = RejBoundedSampler::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(31);
        for case in 0..8u16 {
            let seed: [u8; 64] = core::array::from_fn(|_| rng.next_u32() as u8);
            let eta4 = case % 2 == 1;
            let eta = if eta4 { 4 } else { 2 };
            let mut want = [0i32; N];
            expand_s_poly(&mut SoftKeccak, &seed, case, eta, &mut want);
            let want: Vec<i32> = want.iter().map(|&v| v.rem_euclid(Q)).collect();
            let gap = 1 + (case as usize % 3);
            let (got, _) = sample(&mut uut, &seed, case, eta4, gap);
            assert_eq!(got, want, "case {case}, gap {gap}");
        }
    }

    #[test]
    fn rej_bounded_sampler_takes_a_byte_every_second_clock() {
        let mut uut = RejBoundedSampler::default();
        uut.connect_all();
        settle(&mut uut);
        // Every nibble 0 (accepted for both η): two coefficients per byte,
        // one per clock, and the sampler asks for a byte every other clock.
        uut.data.next = 0.into();
        uut.data_valid.next = true;
        let mut accepted = 0;
        for clock in 0..40 {
            settle(&mut uut);
            assert_eq!(uut.data_ready.val(), clock % 2 == 0, "clock {clock}");
            tick(&mut uut, |u| &mut u.clock);
            accepted += usize::from(uut.coeff_valid.val());
            if clock > 0 {
                assert!(uut.coeff_valid.val());
                assert_eq!(uut.coeff.val().to_u64(), 2);
            }
        }
        assert_eq!(accepted, 40);
    }

    #[test]
    fn rej_bounded_sampler_yosys_validates() {
        let mut uut = RejBoundedSampler::default();
        uut.connect_all();
        yosys_validate("mldsa_rej_bounded", &generate_verilog(&uut)).unwrap();
    }
}
