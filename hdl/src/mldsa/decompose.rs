//! Decompose (FIPS 204 Algorithm 36) with UseHint (Algorithm 40), one
//! coefficient per clock, latency [`DECOMPOSE_LATENCY`], for both γ2 of
//! FIPS 204 (`wide` selects γ2 = (q−1)/32 of ML-DSA-65/87, otherwise
//! (q−1)/88 of ML-DSA-44; a public parameter).
//!
//! The division by 2γ2 is the multiply-and-shift of the `pqc` reference,
//! whose operands fit the 16×16 multiplier: a = ⌈r / 128⌉ < 2^16 times
//! 11275 or 1025. r1·2γ2 comes from a 128-entry table addressed by
//! (wide, r1), one LUT level, instead of a second multiplier: the DSP's
//! combinational A→P delay in front of the subtraction and UseHint made
//! stage 2 the unit's worst path (6.2 ns in the yosys timing estimate). No branch: every path runs for every coefficient, so the cycle
//! count does not depend on the (possibly secret) input.

use rust_hdl::prelude::*;

/// Register stages of [`Decompose`].
pub const DECOMPOSE_LATENCY: usize = 3;
/// (q − 1) / 2: r0 above it wraps to r0 − q (the q − 1 corner case).
const HALF_Q: u64 = (pqc::ring::Q as u64 - 1) / 2;
/// 2^24 − q: adding it subtracts q modulo 2^24.
const MINUS_Q_24: u64 = (1 << 24) - pqc::ring::Q as u64;

/// The Decompose / HighBits / LowBits / UseHint unit.
#[derive(LogicBlock)]
pub struct Decompose {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// r, canonical (below q).
    pub r: Signal<In, Bits<23>>,
    /// γ2 = (q−1)/32 (ML-DSA-65/87) when set, (q−1)/88 otherwise.
    pub wide: Signal<In, Bit>,
    /// The hint bit for UseHint.
    pub hint: Signal<In, Bit>,
    /// HighBits(r) = r1.
    pub r1: Signal<Out, Bits<6>>,
    /// LowBits(r) = r0, 24-bit two's complement.
    pub r0: Signal<Out, Bits<24>>,
    /// UseHint(hint, r).
    pub r1_hinted: Signal<Out, Bits<6>>,
    // Stage 0: ⌈r / 128⌉ registered in front of the multiplier, so the
    // rounding carry chain and the DSP are not one path.
    a_s0: DFF<Bits<16>>,
    r_s0: DFF<Bits<23>>,
    wide_s0: DFF<Bit>,
    hint_s0: DFF<Bit>,
    // Stage 1.
    r1_s1: DFF<Bits<6>>,
    r_s1: DFF<Bits<23>>,
    wide_s1: DFF<Bit>,
    hint_s1: DFF<Bit>,
    // Stage 2.
    r1_s2: DFF<Bits<6>>,
    r0_s2: DFF<Bits<24>>,
    hinted_s2: DFF<Bits<6>>,
    // Combinational.
    r_rounded: Signal<Local, Bits<24>>,
    a: Signal<Local, Bits<16>>,
    t_narrow: Signal<Local, Bits<32>>,
    t_wide: Signal<Local, Bits<32>>,
    r1_narrow: Signal<Local, Bits<6>>,
    r1_times_2gamma2: ROM<Bits<24>, 7>,
    r0_raw: Signal<Local, Bits<24>>,
    r0_final: Signal<Local, Bits<24>>,
    r1_plus: Signal<Local, Bits<6>>,
    r1_minus: Signal<Local, Bits<6>>,
    r1_up: Signal<Local, Bits<6>>,
    r1_down: Signal<Local, Bits<6>>,
    k_narrow: Constant<Bits<16>>,
    k_wide: Constant<Bits<16>>,
    half_q: Constant<Bits<24>>,
    minus_q: Constant<Bits<24>>,
}

impl Default for Decompose {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            r: Default::default(),
            wide: Default::default(),
            hint: Default::default(),
            r1: Default::default(),
            r0: Default::default(),
            r1_hinted: Default::default(),
            a_s0: Default::default(),
            r_s0: Default::default(),
            wide_s0: Default::default(),
            hint_s0: Default::default(),
            r1_s1: Default::default(),
            r_s1: Default::default(),
            wide_s1: Default::default(),
            hint_s1: Default::default(),
            r1_s2: Default::default(),
            r0_s2: Default::default(),
            hinted_s2: Default::default(),
            r_rounded: Default::default(),
            a: Default::default(),
            t_narrow: Default::default(),
            t_wide: Default::default(),
            r1_narrow: Default::default(),
            r1_times_2gamma2: ROM::new(r1_times_2gamma2_table()),
            r0_raw: Default::default(),
            r0_final: Default::default(),
            r1_plus: Default::default(),
            r1_minus: Default::default(),
            r1_up: Default::default(),
            r1_down: Default::default(),
            k_narrow: Constant::new(11275u64.into()),
            k_wide: Constant::new(1025u64.into()),
            half_q: Constant::new(HALF_Q.into()),
            minus_q: Constant::new(MINUS_Q_24.into()),
        }
    }
}

/// r1·2γ2 for address (wide ‖ r1): 2γ2 = (q−1)/16 when wide, (q−1)/44
/// otherwise; addresses past the largest r1 (15 or 43) hold 0.
fn r1_times_2gamma2_table() -> std::collections::BTreeMap<Bits<7>, Bits<24>> {
    let q = pqc::ring::Q as u64;
    (0u64..128)
        .map(|address| {
            let (wide, r1) = (address >> 6 == 1, address & 63);
            let (two_gamma2, largest) = if wide {
                ((q - 1) / 16, 15)
            } else {
                ((q - 1) / 44, 43)
            };
            let value = if r1 <= largest { r1 * two_gamma2 } else { 0 };
            (address.into(), value.into())
        })
        .collect()
}

impl Logic for Decompose {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_s0, r_s0, wide_s0, hint_s0, r1_s1, r_s1, wide_s1, hint_s1, r1_s2, r0_s2,
            hinted_s2
        );
        // Stage 0: a = ⌈r / 128⌉.
        self.r_rounded.next = bit_cast::<24, 23>(self.r.val()) + 127;
        self.a_s0.d.next = self.r_rounded.val().get_bits::<16>(7);
        self.r_s0.d.next = self.r.val();
        self.wide_s0.d.next = self.wide.val();
        self.hint_s0.d.next = self.hint.val();
        // Stage 1: r1 = HighBits(r).
        self.a.next = self.a_s0.q.val();
        self.t_narrow.next = self.a.val() * self.k_narrow.val() + 8388608;
        self.t_wide.next = self.a.val() * self.k_wide.val() + 2097152;
        self.r1_narrow.next = self.t_narrow.val().get_bits::<6>(24);
        if self.r1_narrow.val() == 44 {
            self.r1_narrow.next = 0.into();
        }
        if self.wide_s0.q.val() {
            self.r1_s1.d.next = bit_cast::<6, 4>(self.t_wide.val().get_bits::<4>(22));
        } else {
            self.r1_s1.d.next = self.r1_narrow.val();
        }
        self.r_s1.d.next = self.r_s0.q.val();
        self.wide_s1.d.next = self.wide_s0.q.val();
        self.hint_s1.d.next = self.hint_s0.q.val();
        // Stage 2: r0 = r − r1·2γ2, centred; UseHint.
        self.r1_times_2gamma2.address.next = bit_cast::<7, 6>(self.r1_s1.q.val())
            | (bit_cast::<7, 1>(self.wide_s1.q.val().into()) << 6);
        self.r0_raw.next = bit_cast::<24, 23>(self.r_s1.q.val()) - self.r1_times_2gamma2.data.val();
        self.r0_final.next = self.r0_raw.val();
        if !self.r0_raw.val().get_bit(23) && self.r0_raw.val() > self.half_q.val() {
            self.r0_final.next = self.r0_raw.val() + self.minus_q.val();
        }
        self.r1_plus.next = self.r1_s1.q.val() + 1;
        self.r1_minus.next = self.r1_s1.q.val() - 1;
        self.r1_up.next = self.r1_plus.val();
        self.r1_down.next = self.r1_minus.val();
        if self.wide_s1.q.val() {
            self.r1_up.next = bit_cast::<6, 4>(self.r1_plus.val().get_bits::<4>(0));
            self.r1_down.next = bit_cast::<6, 4>(self.r1_minus.val().get_bits::<4>(0));
        } else {
            if self.r1_s1.q.val() == 43 {
                self.r1_up.next = 0.into();
            }
            if self.r1_s1.q.val() == 0 {
                self.r1_down.next = 43.into();
            }
        }
        self.hinted_s2.d.next = self.r1_s1.q.val();
        if self.hint_s1.q.val() {
            if !self.r0_final.val().get_bit(23) && self.r0_final.val().any() {
                self.hinted_s2.d.next = self.r1_up.val();
            } else {
                self.hinted_s2.d.next = self.r1_down.val();
            }
        }
        self.r1_s2.d.next = self.r1_s1.q.val();
        self.r0_s2.d.next = self.r0_final.val();
        self.r1.next = self.r1_s2.q.val();
        self.r0.next = self.r0_s2.q.val();
        self.r1_hinted.next = self.hinted_s2.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::mldsa::arith::{decompose, use_hint};
    use pqc::ring::Q;

    const GAMMA2: [(bool, i32); 2] = [(false, (Q - 1) / 88), (true, (Q - 1) / 32)];

    fn signed24(v: u64) -> i32 {
        ((v << 40) as i64 >> 40) as i32
    }

    /// Edge values for one γ2: around every multiple of 2γ2, and the top.
    fn inputs(gamma2: i32, rng: &mut Lcg) -> Vec<i32> {
        let mut v = vec![0, 1, 2, Q - 2, Q - 1, (Q - 1) / 2, (Q + 1) / 2];
        let mut m = 0;
        while m < Q {
            for d in [-1, 0, 1] {
                for x in [m + d, m + gamma2 + d] {
                    if (0..Q).contains(&x) {
                        v.push(x);
                    }
                }
            }
            m += 2 * gamma2;
        }
        v.extend((0..1500).map(|_| rng.coeff()));
        v
    }

    #[test]
    fn decompose_and_use_hint_match_pqc_for_both_gamma2() {
        let mut uut = Decompose::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(36);
        let mut checked = 0;
        for (wide, gamma2) in GAMMA2 {
            let cases: Vec<(i32, bool)> = inputs(gamma2, &mut rng)
                .into_iter()
                .flat_map(|r| [(r, false), (r, true)])
                .collect();
            let mut sent = Vec::new();
            for cycle in 0..cases.len() + DECOMPOSE_LATENCY {
                if let Some(&(r, hint)) = cases.get(cycle) {
                    uut.r.next = (r as u64).into();
                    uut.wide.next = wide;
                    uut.hint.next = hint;
                    sent.push((r, hint));
                }
                tick(&mut uut, |u| &mut u.clock);
                if cycle + 1 >= DECOMPOSE_LATENCY && cycle + 1 - DECOMPOSE_LATENCY < sent.len() {
                    let (r, hint) = sent[cycle + 1 - DECOMPOSE_LATENCY];
                    let (r1, r0) = decompose(r, gamma2);
                    assert_eq!(uut.r1.val().to_u64() as i32, r1, "r1 of {r}, γ2 {gamma2}");
                    assert_eq!(
                        signed24(uut.r0.val().to_u64()),
                        r0,
                        "r0 of {r}, γ2 {gamma2}"
                    );
                    assert_eq!(
                        uut.r1_hinted.val().to_u64() as i32,
                        use_hint(hint, r, gamma2),
                        "UseHint({hint}, {r}), γ2 {gamma2}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 6000, "{checked}");
    }

    #[test]
    fn decompose_yosys_validates() {
        let mut uut = Decompose::default();
        uut.connect_all();
        yosys_validate("mldsa_decompose", &generate_verilog(&uut)).unwrap();
    }
}
