//! Power2Round (FIPS 204 Algorithm 35) of a canonical t, one coefficient per
//! clock, latency 1: t1 = ⌈t / 2^13⌉ rounded half down, t0 = t − t1·2^13
//! in (−2^12, 2^12], as a 14-bit two's complement value.

use rust_hdl::prelude::*;

/// Register stages of [`Power2Round`].
pub const POWER2ROUND_LATENCY: usize = 1;

/// The Power2Round unit.
#[derive(LogicBlock, Default)]
pub struct Power2Round {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// t, canonical (below q).
    pub t: Signal<In, Bits<23>>,
    /// t1 (10 bits).
    pub t1: Signal<Out, Bits<10>>,
    /// t0, 14-bit two's complement.
    pub t0: Signal<Out, Bits<14>>,
    t1_reg: DFF<Bits<10>>,
    t0_reg: DFF<Bits<14>>,
    rounded: Signal<Local, Bits<24>>,
}

impl Logic for Power2Round {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, t1_reg, t0_reg);
        // t + 2^12 − 1, widened first; its bits [23:13] are t1.
        self.rounded.next = bit_cast::<24, 23>(self.t.val()) + 4095;
        self.t1_reg.d.next = self.rounded.val().get_bits::<10>(13);
        // t0 = t − t1·2^13 = the low 13 bits of t + 2^12 − 1, minus 2^12 − 1.
        self.t0_reg.d.next = bit_cast::<14, 13>(self.rounded.val().get_bits::<13>(0)) - 4095;
        self.t1.next = self.t1_reg.q.val();
        self.t0.next = self.t0_reg.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::mldsa::arith::power2round;
    use pqc::ring::Q;

    /// Sign-extends a `bits`-wide two's complement value.
    fn signed(v: u64, bits: u32) -> i32 {
        ((v << (64 - bits)) as i64 >> (64 - bits)) as i32
    }

    #[test]
    fn power2round_matches_pqc_on_edges_and_random_coefficients() {
        let mut inputs: Vec<i32> = vec![0, 1, 4095, 4096, 4097, 8191, 8192, Q - 1, Q - 4096];
        let mut rng = Lcg::new(35);
        inputs.extend((0..3000).map(|_| rng.coeff()));
        let mut uut = Power2Round::default();
        uut.connect_all();
        settle(&mut uut);
        for &t in &inputs {
            uut.t.next = (t as u64).into();
            tick(&mut uut, |u| &mut u.clock);
            let (t1, t0) = power2round(t);
            assert_eq!(uut.t1.val().to_u64() as i32, t1, "t1 of {t}");
            assert_eq!(signed(uut.t0.val().to_u64(), 14), t0, "t0 of {t}");
        }
    }

    #[test]
    fn power2round_yosys_validates() {
        let mut uut = Power2Round::default();
        uut.connect_all();
        yosys_validate("mldsa_power2round", &generate_verilog(&uut)).unwrap();
    }
}
