//! RejBoundedPoly's acceptance (FIPS 204 Algorithm 31, ExpandS): a SHAKE256
//! byte stream in, a whole byte (both nibbles, low first) examined per
//! clock, and the accepted coefficients out in canonical form mod q, one a
//! clock:
//!
//! - η = 2: nibble z < 15 is kept as `2 − (z mod 5)`;
//! - η = 4: nibble z < 9 is kept as `4 − z`.
//!
//! A byte can give two coefficients where the output (the NTT core's LOAD
//! and the η-packer) takes one a clock, so the accepted values wait in a
//! queue that holds a whole polynomial: coefficient k goes to bank k mod 2
//! at row k / 2 of two 128 × 4-bit RAMs, so the two of one byte always land
//! in different banks, and one is read out a clock. Nothing wraps: after
//! 256 coefficients further nibbles are examined and dropped, and `reset`
//! starts the next polynomial.
//!
//! Which nibbles are rejected depends on the secret seed ρ′, but the
//! sampler takes a byte every clock whatever its value (`data_ready` is
//! always high), and the output only waits for the queue. A caller that
//! reads a fixed number of bytes B and ends on the last of them (the key
//! generation reads `keygen::s_squeeze_bytes`) therefore spends a fixed
//! number of clocks as long as the 256th coefficient leaves before that
//! byte. With bytes a clock apart, coefficient k leaves at the maximum
//! over j ≤ k of (clock of the j-th accepted nibble's byte + 3 + k − j),
//! so the 256th is late only if some j-th accepted nibble comes more than
//! B − 259 + j bytes in: the nibbles before it hold more rejections than
//! acceptances by about 2(B − 259). In the key generation the 256th
//! coefficient leaves 12 clocks before the last byte for η = 2 (B = 272,
//! a nibble rejected with odds 1/16) and 142 to 148 for η = 4 (B = 408,
//! odds 7/16, over the test's eight seeds), as
//! `expand_s_clocks_do_not_depend_on_the_secret_seed` prints and asserts.
//! Being 12 clocks late takes about 26 more rejected than accepted
//! nibbles in a prefix, odds of at most 2^−100 for η = 2; 142 late takes
//! about 284 more, far less likely for η = 4. Both are below the 2^−40 of
//! the fixed read itself (fewer than 256 acceptable nibbles in B bytes,
//! the same argument as `pqc::mldsa::sample::rej_bounded_poly_with`).
//!
//! Latency 3: a byte at clock t is written to the queue at its end, read at
//! t + 1 and converted at t + 2; its first coefficient is valid at t + 3.

use rust_hdl::prelude::*;

/// Row address bits of each queue bank: 2 · 2^7 = 256 coefficients.
const BANK_ADDRESS_BITS: usize = 7;

/// The RejBoundedPoly sampler.
#[derive(LogicBlock)]
pub struct RejBoundedSampler {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the queue; the next polynomial starts.
    pub reset: Signal<In, Bit>,
    /// η = 4 when set, η = 2 otherwise.
    pub eta4: Signal<In, Bit>,
    /// The next byte of the XOF stream.
    pub data: Signal<In, Bits<8>>,
    /// `data` is valid this clock.
    pub data_valid: Signal<In, Bit>,
    /// The sampler takes `data` this clock (always: a byte a clock).
    pub data_ready: Signal<Out, Bit>,
    /// The accepted coefficient, canonical (η − m, or q + η − m).
    pub coeff: Signal<Out, Bits<23>>,
    /// `coeff` is valid this clock.
    pub coeff_valid: Signal<Out, Bit>,
    /// Queue bank of the even-numbered coefficients (m, 4 bits each).
    even: RAM<Bits<4>, BANK_ADDRESS_BITS>,
    /// Queue bank of the odd-numbered coefficients.
    odd: RAM<Bits<4>, BANK_ADDRESS_BITS>,
    /// Coefficients written to the queue (stops at 256).
    written: DFF<Bits<9>>,
    /// Coefficients read from the queue.
    taken: DFF<Bits<9>>,
    /// A queue read was issued on the last clock, and from which bank.
    fetched: DFF<Bit>,
    fetched_odd: DFF<Bit>,
    out: DFF<Bits<23>>,
    out_valid: DFF<Bit>,
    lo: Signal<Local, Bits<4>>,
    hi: Signal<Local, Bits<4>>,
    lo_mod5: Signal<Local, Bits<4>>,
    hi_mod5: Signal<Local, Bits<4>>,
    lo_m: Signal<Local, Bits<4>>,
    hi_m: Signal<Local, Bits<4>>,
    lo_ok: Signal<Local, Bit>,
    hi_ok: Signal<Local, Bit>,
    /// The byte's first accepted value, and whether it goes in / a second
    /// one (the high nibble) follows.
    first_m: Signal<Local, Bits<4>>,
    write_first: Signal<Local, Bit>,
    write_second: Signal<Local, Bit>,
    row: Signal<Local, Bits<BANK_ADDRESS_BITS>>,
    issue: Signal<Local, Bit>,
    m: Signal<Local, Bits<23>>,
    eta: Signal<Local, Bits<23>>,
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
            even: Default::default(),
            odd: Default::default(),
            written: Default::default(),
            taken: Default::default(),
            fetched: Default::default(),
            fetched_odd: Default::default(),
            out: Default::default(),
            out_valid: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            lo_mod5: Default::default(),
            hi_mod5: Default::default(),
            lo_m: Default::default(),
            hi_m: Default::default(),
            lo_ok: Default::default(),
            hi_ok: Default::default(),
            first_m: Default::default(),
            write_first: Default::default(),
            write_second: Default::default(),
            row: Default::default(),
            issue: Default::default(),
            m: Default::default(),
            eta: Default::default(),
            q23: Constant::new((pqc::ring::Q as u64).into()),
        }
    }
}

impl Logic for RejBoundedSampler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            written,
            taken,
            fetched,
            fetched_odd,
            out,
            out_valid
        );
        self.even.read_clock.next = self.clock.val();
        self.even.write_clock.next = self.clock.val();
        self.odd.read_clock.next = self.clock.val();
        self.odd.write_clock.next = self.clock.val();
        self.data_ready.next = true;

        // ---- Examine both nibbles of the byte.
        self.lo.next = self.data.val().get_bits::<4>(0);
        self.hi.next = self.data.val().get_bits::<4>(4);
        // z mod 5 for z < 15 by two conditional subtractions (z = 15 is
        // rejected anyway).
        if self.lo.val() >= 10 {
            self.lo_mod5.next = self.lo.val() - 10;
        } else if self.lo.val() >= 5 {
            self.lo_mod5.next = self.lo.val() - 5;
        } else {
            self.lo_mod5.next = self.lo.val();
        }
        if self.hi.val() >= 10 {
            self.hi_mod5.next = self.hi.val() - 10;
        } else if self.hi.val() >= 5 {
            self.hi_mod5.next = self.hi.val() - 5;
        } else {
            self.hi_mod5.next = self.hi.val();
        }
        if self.eta4.val() {
            self.lo_m.next = self.lo.val();
            self.hi_m.next = self.hi.val();
            self.lo_ok.next = self.lo.val() < 9;
            self.hi_ok.next = self.hi.val() < 9;
        } else {
            self.lo_m.next = self.lo_mod5.val();
            self.hi_m.next = self.hi_mod5.val();
            self.lo_ok.next = self.lo.val() < 15;
            self.hi_ok.next = self.hi.val() < 15;
        }
        if self.lo_ok.val() {
            self.first_m.next = self.lo_m.val();
        } else {
            self.first_m.next = self.hi_m.val();
        }
        self.write_first.next = self.data_valid.val()
            & (self.lo_ok.val() | self.hi_ok.val())
            & !self.written.q.val().get_bit(8);
        self.write_second.next = self.data_valid.val()
            & self.lo_ok.val()
            & self.hi_ok.val()
            & (self.written.q.val() < 255);

        // ---- Into the queue: coefficient k at row k / 2 of bank k mod 2.
        self.row.next = self.written.q.val().get_bits::<7>(1);
        if self.written.q.val().get_bit(0) {
            self.odd.write_address.next = self.row.val();
            self.odd.write_data.next = self.first_m.val();
            self.odd.write_enable.next = self.write_first.val();
            self.even.write_address.next = self.row.val() + 1;
            self.even.write_data.next = self.hi_m.val();
            self.even.write_enable.next = self.write_second.val();
        } else {
            self.even.write_address.next = self.row.val();
            self.even.write_data.next = self.first_m.val();
            self.even.write_enable.next = self.write_first.val();
            self.odd.write_address.next = self.row.val();
            self.odd.write_data.next = self.hi_m.val();
            self.odd.write_enable.next = self.write_second.val();
        }
        if self.write_second.val() {
            self.written.d.next = self.written.q.val() + 2;
        } else if self.write_first.val() {
            self.written.d.next = self.written.q.val() + 1;
        }

        // ---- Out of the queue, one a clock: a read issued on this clock
        // gives its value on the next, converted on the one after.
        self.issue.next = self.taken.q.val() < self.written.q.val();
        self.even.read_address.next = self.taken.q.val().get_bits::<7>(1);
        self.odd.read_address.next = self.taken.q.val().get_bits::<7>(1);
        if self.issue.val() {
            self.taken.d.next = self.taken.q.val() + 1;
        }
        self.fetched.d.next = self.issue.val();
        self.fetched_odd.d.next = self.taken.q.val().get_bit(0);
        if self.fetched_odd.q.val() {
            self.m.next = bit_cast::<23, 4>(self.odd.read_data.val());
        } else {
            self.m.next = bit_cast::<23, 4>(self.even.read_data.val());
        }
        if self.eta4.val() {
            self.eta.next = 4.into();
        } else {
            self.eta.next = 2.into();
        }
        // η − m wraps below zero; adding q then gives q + η − m.
        if self.m.val() > self.eta.val() {
            self.out.d.next = self.eta.val() - self.m.val() + self.q23.val();
        } else {
            self.out.d.next = self.eta.val() - self.m.val();
        }
        self.out_valid.d.next = self.fetched.q.val();
        if self.reset.val() {
            self.written.d.next = 0.into();
            self.taken.d.next = 0.into();
            self.fetched.d.next = false;
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
    fn rej_bounded_sampler_takes_a_byte_a_clock_and_queues_the_second_value() {
        let mut uut = RejBoundedSampler::default();
        uut.connect_all();
        settle(&mut uut);
        // Every nibble 0 (accepted for both η): two coefficients per byte
        // offered every clock, out one a clock from clock 3 on, and exactly
        // 256 of them: the nibbles after the 256th are dropped.
        uut.data.next = 0.into();
        uut.data_valid.next = true;
        let mut valid_clocks = Vec::new();
        for clock in 0..400 {
            settle(&mut uut);
            assert!(uut.data_ready.val(), "clock {clock}");
            tick(&mut uut, |u| &mut u.clock);
            if uut.coeff_valid.val() {
                assert_eq!(uut.coeff.val().to_u64(), 2);
                valid_clocks.push(clock);
            }
        }
        assert_eq!(valid_clocks, (2..258).collect::<Vec<_>>());
        // Reset empties the queue: the next polynomial starts afresh, now
        // with η = 4 and nibbles 9 (rejected) and 0 (kept as 4).
        uut.reset.next = true;
        uut.eta4.next = true;
        uut.data.next = 0x09.into();
        tick(&mut uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut accepted = 0;
        for _ in 0..300 {
            tick(&mut uut, |u| &mut u.clock);
            if uut.coeff_valid.val() {
                assert_eq!(uut.coeff.val().to_u64(), 4);
                accepted += 1;
            }
        }
        assert_eq!(accepted, 256);
    }

    #[test]
    fn rej_bounded_sampler_yosys_validates() {
        let mut uut = RejBoundedSampler::default();
        uut.connect_all();
        yosys_validate("mldsa_rej_bounded", &generate_verilog(&uut)).unwrap();
    }
}
