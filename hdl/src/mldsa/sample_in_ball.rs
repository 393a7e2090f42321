//! SampleInBall (FIPS 204 Algorithm 29): the challenge c with τ
//! coefficients ±1, from the SHAKE256 stream of c̃, one byte per clock.
//!
//! c is held as two 256-bit vectors (`nonzero`, `negative`), so the swap
//! `c[i] ← c[j]; c[j] ← (−1)^s` is one clock for every byte, whatever j is:
//! there is no memory port whose timing depends on j. i is kept one-hot
//! (`i_hot`, shifted once per accepted byte) and j decoded once, so each
//! bit of c is one small function of its own bits of i, j and the old c\[j\]
//! (1,791 LUT in yosys; an earlier form with indexed bit replacement
//! synthesised to 3,465). The first 8 bytes are the 64 sign bits; each
//! later byte j is used when j ≤ i and dropped otherwise.
//!
//! Cycles: one per byte, 8 + τ + (dropped bytes). The dropped count depends
//! on c̃. For the accepted signing attempt c̃ is part of the signature; for
//! a rejected one it is the same quantity software SampleInBall shows in its
//! timing (`pqc::mldsa::sample::sample_in_ball_with`).
//!
//! After `done`, `read_index` selects a coefficient and `coeff` gives it
//! canonical (0, 1 or q − 1) one clock later.

use rust_hdl::prelude::*;

/// Clocks from a `read_index` to its `coeff`.
pub const READ_LATENCY: usize = 1;
/// Bytes of the sign field at the start of the stream.
pub const SIGN_BYTES: usize = 8;

/// The SampleInBall unit.
#[derive(LogicBlock)]
pub struct SampleInBall {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, c cleared.
    pub reset: Signal<In, Bit>,
    /// Clear c and start sampling τ = `tau` positions (taken when idle or
    /// done; τ ∈ {39, 49, 60}).
    pub start: Signal<In, Bit>,
    /// τ.
    pub tau: Signal<In, Bits<7>>,
    /// The next byte of H(c̃).
    pub data: Signal<In, Bits<8>>,
    /// `data` is valid this clock.
    pub data_valid: Signal<In, Bit>,
    /// The unit takes `data` this clock.
    pub data_ready: Signal<Out, Bit>,
    /// c is complete (until the next start).
    pub done: Signal<Out, Bit>,
    /// Coefficient index to read.
    pub read_index: Signal<In, Bits<8>>,
    /// c\[read_index\] of the previous clock, canonical.
    pub coeff: Signal<Out, Bits<23>>,
    sampling: DFF<Bit>,
    done_flag: DFF<Bit>,
    sign_bytes_left: DFF<Bits<4>>,
    signs: DFF<Bits<64>>,
    i: DFF<Bits<9>>,
    i_hot: DFF<Bits<256>>,
    nonzero: DFF<Bits<256>>,
    negative: DFF<Bits<256>>,
    read_out: DFF<Bits<23>>,
    take: Signal<Local, Bit>,
    j_wide: Signal<Local, Bits<9>>,
    j_hot: Signal<Local, Bits<256>>,
    old_nonzero_all: Signal<Local, Bits<256>>,
    old_negative_all: Signal<Local, Bits<256>>,
    sign_all: Signal<Local, Bits<256>>,
    one256: Constant<Bits<256>>,
    ones256: Constant<Bits<256>>,
    q_minus_1: Constant<Bits<23>>,
    n: Constant<Bits<9>>,
    sign_byte_count: Constant<Bits<4>>,
}

impl Default for SampleInBall {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            tau: Default::default(),
            data: Default::default(),
            data_valid: Default::default(),
            data_ready: Default::default(),
            done: Default::default(),
            read_index: Default::default(),
            coeff: Default::default(),
            sampling: Default::default(),
            done_flag: Default::default(),
            sign_bytes_left: Default::default(),
            signs: Default::default(),
            i: Default::default(),
            i_hot: Default::default(),
            nonzero: Default::default(),
            negative: Default::default(),
            read_out: Default::default(),
            take: Default::default(),
            j_wide: Default::default(),
            j_hot: Default::default(),
            old_nonzero_all: Default::default(),
            old_negative_all: Default::default(),
            sign_all: Default::default(),
            one256: Constant::new(1.into()),
            ones256: Constant::new(Bits::<256>::mask()),
            q_minus_1: Constant::new((pqc::ring::Q as u64 - 1).into()),
            n: Constant::new((pqc::ring::N as u64).into()),
            sign_byte_count: Constant::new((SIGN_BYTES as u64).into()),
        }
    }
}

impl Logic for SampleInBall {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sampling,
            done_flag,
            sign_bytes_left,
            signs,
            i,
            i_hot,
            nonzero,
            negative,
            read_out
        );
        self.data_ready.next = self.sampling.q.val();
        self.take.next = self.sampling.q.val() & self.data_valid.val();
        self.j_wide.next = bit_cast::<9, 8>(self.data.val());
        self.j_hot.next = self.one256.val() << self.data.val();
        // c[j] and the sign, spread over all 256 bit positions.
        self.old_nonzero_all.next = 0.into();
        if (self.nonzero.q.val() & self.j_hot.val()).any() {
            self.old_nonzero_all.next = self.ones256.val();
        }
        self.old_negative_all.next = 0.into();
        if (self.negative.q.val() & self.j_hot.val()).any() {
            self.old_negative_all.next = self.ones256.val();
        }
        self.sign_all.next = 0.into();
        if self.signs.q.val().get_bit(0) {
            self.sign_all.next = self.ones256.val();
        }
        if self.take.val() {
            if self.sign_bytes_left.q.val().any() {
                // Little-endian sign field: byte k lands in bits 8k..8k+8.
                self.signs.d.next =
                    (self.signs.q.val() >> 8) | (bit_cast::<64, 8>(self.data.val()) << 56);
                self.sign_bytes_left.d.next = self.sign_bytes_left.q.val() - 1;
            } else if self.j_wide.val() <= self.i.q.val() {
                // c[i] ← c[j], then c[j] ← ±1 (so j = i ends as ±1).
                self.nonzero.d.next =
                    (self.nonzero.q.val() & !self.i_hot.q.val() & !self.j_hot.val())
                        | (self.i_hot.q.val() & self.old_nonzero_all.val())
                        | self.j_hot.val();
                self.negative.d.next =
                    (self.negative.q.val() & !self.i_hot.q.val() & !self.j_hot.val())
                        | (self.i_hot.q.val() & !self.j_hot.val() & self.old_negative_all.val())
                        | (self.j_hot.val() & self.sign_all.val());
                self.signs.d.next = self.signs.q.val() >> 1;
                self.i.d.next = self.i.q.val() + 1;
                self.i_hot.d.next = self.i_hot.q.val() << 1;
                if self.i.q.val() + 1 == self.n.val() {
                    self.sampling.d.next = false;
                    self.done_flag.d.next = true;
                }
            }
        }
        if self.start.val() & !self.sampling.q.val() {
            self.sampling.d.next = true;
            self.done_flag.d.next = false;
            self.sign_bytes_left.d.next = self.sign_byte_count.val();
            self.i.d.next = self.n.val() - bit_cast::<9, 7>(self.tau.val());
            self.i_hot.d.next =
                self.one256.val() << (self.n.val() - bit_cast::<9, 7>(self.tau.val()));
            self.nonzero.d.next = 0.into();
            self.negative.d.next = 0.into();
        }
        if self.reset.val() {
            self.sampling.d.next = false;
            self.done_flag.d.next = false;
            self.nonzero.d.next = 0.into();
            self.negative.d.next = 0.into();
        }
        if self.nonzero.q.val().get_bit(self.read_index.val().index()) {
            if self.negative.q.val().get_bit(self.read_index.val().index()) {
                self.read_out.d.next = self.q_minus_1.val();
            } else {
                self.read_out.d.next = 1.into();
            }
        } else {
            self.read_out.d.next = 0.into();
        }
        self.done.next = self.done_flag.q.val();
        self.coeff.next = self.read_out.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
    use pqc::mldsa::sample::sample_in_ball;
    use pqc::ring::N;

    /// Samples c for `ctilde` and τ, offering a byte on every clock except
    /// every `stall`-th; returns c and the clocks taken while sampling.
    fn run(uut: &mut SampleInBall, ctilde: &[u8], tau: usize, stall: usize) -> (Vec<i32>, usize) {
        let mut stream = vec![0u8; 136 * 4];
        SoftKeccak.sponge(SpongeMode::Shake256, &[ctilde], &mut stream);
        uut.tau.next = (tau as u64).into();
        uut.start.next = true;
        tick(uut, |u| &mut u.clock);
        uut.start.next = false;
        let mut next = 0;
        let mut clocks = 0;
        while !uut.done.val() {
            assert!(clocks < 4 * stream.len(), "no done");
            let offer = stall == 0 || clocks % stall != stall - 1;
            uut.data.next = (stream[next] as u64).into();
            uut.data_valid.next = offer;
            settle(uut);
            if offer && uut.data_ready.val() {
                next += 1;
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
        }
        uut.data_valid.next = false;
        let mut c = Vec::new();
        for index in 0..N {
            uut.read_index.next = (index as u64).into();
            tick(uut, |u| &mut u.clock);
            c.push(uut.coeff.val().to_u64() as i32);
        }
        (c, next)
    }

    #[test]
    fn sample_in_ball_unit_reproduces_pqc() {
        let mut uut = SampleInBall::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(29);
        for (case, (tau, lambda_bytes)) in [(39, 32), (49, 48), (60, 64), (39, 32), (60, 64)]
            .into_iter()
            .enumerate()
        {
            let ctilde: Vec<u8> = (0..lambda_bytes).map(|_| rng.next_u32() as u8).collect();
            let mut want = [0i32; N];
            sample_in_ball(&mut SoftKeccak, &ctilde, tau, &mut want);
            let (got, bytes) = run(&mut uut, &ctilde, tau, [0, 2, 3][case % 3]);
            assert_eq!(got, want.to_vec(), "case {case}");
            assert!(bytes >= SIGN_BYTES + tau, "{bytes}");
        }
    }

    #[test]
    fn sample_in_ball_unit_costs_one_clock_per_byte() {
        let mut uut = SampleInBall::default();
        uut.connect_all();
        settle(&mut uut);
        let ctilde = [7u8; 32];
        let (_, bytes) = run(&mut uut, &ctilde, 39, 0);
        // Count the bytes software uses: 8 sign bytes, then every j until
        // τ of them were at most i.
        let mut stream = vec![0u8; 136 * 4];
        SoftKeccak.sponge(SpongeMode::Shake256, &[&ctilde], &mut stream);
        let mut i = N - 39;
        let mut used = SIGN_BYTES;
        for &j in &stream[SIGN_BYTES..] {
            used += 1;
            if j as usize <= i {
                i += 1;
                if i == N {
                    break;
                }
            }
        }
        assert_eq!(bytes, used);
    }

    #[test]
    fn sample_in_ball_unit_reset_and_restart() {
        let mut uut = SampleInBall::default();
        uut.connect_all();
        settle(&mut uut);
        // Start, feed a few bytes, then reset mid-way: idle, not done.
        uut.tau.next = 39.into();
        uut.start.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.start.next = false;
        uut.data_valid.next = true;
        for _ in 0..20 {
            tick(&mut uut, |u| &mut u.clock);
        }
        uut.reset.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.reset.next = false;
        uut.data_valid.next = false;
        settle(&mut uut);
        assert!(!uut.done.val() && !uut.data_ready.val());
        // A fresh run after the reset is still exact.
        let ctilde = [0x5Au8; 48];
        let mut want = [0i32; N];
        sample_in_ball(&mut SoftKeccak, &ctilde, 49, &mut want);
        assert_eq!(run(&mut uut, &ctilde, 49, 0).0, want.to_vec());
    }

    #[test]
    fn sample_in_ball_unit_yosys_validates() {
        let mut uut = SampleInBall::default();
        uut.connect_all();
        yosys_validate("mldsa_sample_in_ball", &generate_verilog(&uut)).unwrap();
    }
}
