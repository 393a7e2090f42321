//! Coefficient-wise units of the ML-DSA engine, one coefficient per clock,
//! latency 1 each, branch-free (every path runs for every coefficient):
//!
//! - [`ModAddSub`]: `a + b` or `a − b` mod q on canonical residues;
//! - [`InfNormCheck`]: `|x| ≥ bound` for a centred x (or a canonical x,
//!   centred first), the ‖z‖∞, ‖r0‖∞ and ‖ct0‖∞ checks of signing;
//! - [`MakeHint`]: MakeHint of FIPS 204 Algorithm 39 in the form `pqc`
//!   computes it (`a0 = r0 + v` centred, `a1 = r1`).
//!
//! Signed values are two's complement, 25 bits wide (every centred sum the
//! engine forms is below 2^24 in magnitude).

use rust_hdl::prelude::*;

/// Register stages of each unit here.
pub const COEFFWISE_LATENCY: usize = 1;
const Q: u64 = pqc::ring::Q as u64;

/// `a ± b mod q`.
#[derive(LogicBlock)]
pub struct ModAddSub {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// a, canonical.
    pub a: Signal<In, Bits<23>>,
    /// b, canonical.
    pub b: Signal<In, Bits<23>>,
    /// Subtract when set.
    pub sub: Signal<In, Bit>,
    /// The result, canonical.
    pub r: Signal<Out, Bits<23>>,
    out: DFF<Bits<23>>,
    sum: Signal<Local, Bits<24>>,
    diff: Signal<Local, Bits<24>>,
    sum_reduced: Signal<Local, Bits<24>>,
    diff_lifted: Signal<Local, Bits<24>>,
    q24: Constant<Bits<24>>,
}

impl Default for ModAddSub {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            sub: Default::default(),
            r: Default::default(),
            out: Default::default(),
            sum: Default::default(),
            diff: Default::default(),
            sum_reduced: Default::default(),
            diff_lifted: Default::default(),
            q24: Constant::new(Q.into()),
        }
    }
}

impl Logic for ModAddSub {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out);
        self.sum.next = bit_cast::<24, 23>(self.a.val()) + bit_cast::<24, 23>(self.b.val());
        self.diff.next = bit_cast::<24, 23>(self.a.val()) - bit_cast::<24, 23>(self.b.val());
        // Parallel subtract / add of q; the carry (sign) picks the result.
        self.sum_reduced.next = self.sum.val() - self.q24.val();
        self.diff_lifted.next = self.diff.val() + self.q24.val();
        if self.sub.val() {
            if self.diff.val().get_bit(23) {
                self.out.d.next = self.diff_lifted.val().get_bits::<23>(0);
            } else {
                self.out.d.next = self.diff.val().get_bits::<23>(0);
            }
        } else if self.sum_reduced.val().get_bit(23) {
            self.out.d.next = self.sum.val().get_bits::<23>(0);
        } else {
            self.out.d.next = self.sum_reduced.val().get_bits::<23>(0);
        }
        self.r.next = self.out.q.val();
    }
}

/// `|x| ≥ bound`, as a window test with no negation or centring in front
/// of the compares: a canonical x exceeds exactly when
/// `bound ≤ x ≤ q − bound`; a signed x, read with its sign bit flipped
/// (an unsigned order), when `x ≥ bound` or `x ≤ −bound`. Both window ends
/// are one subtraction from `bound`, so every path is at most two carry
/// chains (four when x was centred, negated and then compared).
#[derive(LogicBlock)]
pub struct InfNormCheck {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// x: 25-bit two's complement, or a canonical residue in [0, q) when
    /// `canonical`.
    pub x: Signal<In, Bits<25>>,
    /// x is canonical in [0, q): compare its centred value.
    pub canonical: Signal<In, Bit>,
    /// The bound (public: γ1 − β, γ2 − β or γ2).
    pub bound: Signal<In, Bits<24>>,
    /// `|x| ≥ bound`.
    pub exceeds: Signal<Out, Bit>,
    out: DFF<Bit>,
    /// x in unsigned order: as is when canonical, sign bit flipped else.
    ordered: Signal<Local, Bits<25>>,
    /// The window's lower end in that order: bound, or bound + 2^24.
    low: Signal<Local, Bits<25>>,
    /// The upper end: q − bound, or 2^24 − bound (−bound, flipped).
    high: Signal<Local, Bits<25>>,
    sign_bit: Constant<Bits<25>>,
    q25: Constant<Bits<25>>,
}

impl Default for InfNormCheck {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            x: Default::default(),
            canonical: Default::default(),
            bound: Default::default(),
            exceeds: Default::default(),
            out: Default::default(),
            ordered: Default::default(),
            low: Default::default(),
            high: Default::default(),
            sign_bit: Constant::new((1u64 << 24).into()),
            q25: Constant::new(Q.into()),
        }
    }
}

impl Logic for InfNormCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out);
        if self.canonical.val() {
            self.ordered.next = self.x.val();
            self.low.next = bit_cast::<25, 24>(self.bound.val());
            self.high.next = self.q25.val() - bit_cast::<25, 24>(self.bound.val());
            self.out.d.next =
                (self.ordered.val() >= self.low.val()) & (self.ordered.val() <= self.high.val());
        } else {
            self.ordered.next = self.x.val() ^ self.sign_bit.val();
            self.low.next = bit_cast::<25, 24>(self.bound.val()) | self.sign_bit.val();
            self.high.next = self.sign_bit.val() - bit_cast::<25, 24>(self.bound.val());
            self.out.d.next =
                (self.ordered.val() >= self.low.val()) | (self.ordered.val() <= self.high.val());
        }
        self.exceeds.next = self.out.q.val();
    }
}

/// MakeHint: `a0 > γ2 or a0 < −γ2 or (a0 = −γ2 and a1 ≠ 0)`.
#[derive(LogicBlock)]
pub struct MakeHint {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// a0, 25-bit two's complement.
    pub a0: Signal<In, Bits<25>>,
    /// a1 (a HighBits value).
    pub a1: Signal<In, Bits<6>>,
    /// γ2 = (q−1)/32 when set, (q−1)/88 otherwise.
    pub wide: Signal<In, Bit>,
    /// The hint bit.
    pub hint: Signal<Out, Bit>,
    out: DFF<Bit>,
    gamma2: Signal<Local, Bits<25>>,
    /// a0 + γ2: negative below −γ2, zero at −γ2.
    shifted: Signal<Local, Bits<25>>,
    /// γ2 − a0: negative above γ2.
    headroom: Signal<Local, Bits<25>>,
    g_narrow: Constant<Bits<25>>,
    g_wide: Constant<Bits<25>>,
}

impl Default for MakeHint {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            a0: Default::default(),
            a1: Default::default(),
            wide: Default::default(),
            hint: Default::default(),
            out: Default::default(),
            gamma2: Default::default(),
            shifted: Default::default(),
            headroom: Default::default(),
            g_narrow: Constant::new(((Q - 1) / 88).into()),
            g_wide: Constant::new(((Q - 1) / 32).into()),
        }
    }
}

impl Logic for MakeHint {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out);
        self.gamma2.next = self.g_narrow.val();
        if self.wide.val() {
            self.gamma2.next = self.g_wide.val();
        }
        self.shifted.next = self.a0.val() + self.gamma2.val();
        self.headroom.next = self.gamma2.val() - self.a0.val();
        self.out.d.next = self.headroom.val().get_bit(24)
            || self.shifted.val().get_bit(24)
            || (!self.shifted.val().any() && self.a1.val().any());
        self.hint.next = self.out.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::mldsa::arith::{center, decompose, exceeds, make_hint};
    use pqc::ring::Q;

    fn s25(v: i32) -> u64 {
        (v as i64 as u64) & ((1 << 25) - 1)
    }

    #[test]
    fn mod_add_sub_matches_software() {
        let mut uut = ModAddSub::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(1);
        let mut cases = vec![(0, 0), (Q - 1, Q - 1), (Q - 1, 1), (0, Q - 1), (1, 0)];
        cases.extend((0..2000).map(|_| (rng.coeff(), rng.coeff())));
        for (a, b) in cases {
            for sub in [false, true] {
                uut.a.next = (a as u64).into();
                uut.b.next = (b as u64).into();
                uut.sub.next = sub;
                tick(&mut uut, |u| &mut u.clock);
                let want = if sub {
                    (a - b).rem_euclid(Q)
                } else {
                    (a + b) % Q
                };
                assert_eq!(uut.r.val().to_u64() as i32, want, "{a} {b} sub {sub}");
            }
        }
    }

    #[test]
    fn inf_norm_check_matches_pqc_exceeds() {
        let mut uut = InfNormCheck::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(2);
        let gamma2 = (Q - 1) / 88;
        let bounds = [(1 << 17) - 78, gamma2 - 78, gamma2, (1 << 19) - 196];
        for i in 0..3000 {
            let x = match i {
                0 => 0,
                1 => Q - 1,
                2 => (Q - 1) / 2,
                3 => (Q + 1) / 2,
                _ => rng.coeff(),
            };
            let bound = bounds[i % bounds.len()];
            for canonical_input in [true, false] {
                let (drive, v) = if canonical_input {
                    (x as u64, center(x))
                } else {
                    // A centred value, e.g. a LowBits r0.
                    let r0 = decompose(x, gamma2).1;
                    (s25(r0), r0)
                };
                uut.x.next = drive.into();
                uut.canonical.next = canonical_input;
                uut.bound.next = (bound as u64).into();
                tick(&mut uut, |u| &mut u.clock);
                assert_eq!(uut.exceeds.val(), exceeds(v, bound) == 1, "{v} vs {bound}");
            }
        }
        // Exactly at the bound, both signs, and the ends of the 25-bit range.
        let extremes = [1000, -1000, 999, -999, 0, (1 << 24) - 1, -(1 << 24)];
        for bound in [0, 1, 1000, (Q - 1) / 2, (Q + 1) / 2, (1 << 24) - 1] {
            for v in extremes {
                uut.x.next = s25(v).into();
                uut.canonical.next = false;
                uut.bound.next = (bound as u64).into();
                tick(&mut uut, |u| &mut u.clock);
                let want = i64::from(v).abs() >= i64::from(bound);
                assert_eq!(uut.exceeds.val(), want, "{v} vs {bound}");
            }
            for x in [0, 1, bound.min(Q - 1), (Q - 1) / 2, (Q + 1) / 2, Q - 1] {
                uut.x.next = (x as u64).into();
                uut.canonical.next = true;
                uut.bound.next = (bound as u64).into();
                tick(&mut uut, |u| &mut u.clock);
                let want = i64::from(center(x)).abs() >= i64::from(bound);
                assert_eq!(uut.exceeds.val(), want, "canonical {x} vs {bound}");
            }
        }
    }

    #[test]
    fn make_hint_matches_pqc() {
        let mut uut = MakeHint::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(3);
        for (wide, gamma2) in [(false, (Q - 1) / 88), (true, (Q - 1) / 32)] {
            let mut cases = Vec::new();
            for a1 in [0, 1, 5] {
                for a0 in [
                    -gamma2 - 1,
                    -gamma2,
                    -gamma2 + 1,
                    0,
                    gamma2 - 1,
                    gamma2,
                    gamma2 + 1,
                ] {
                    cases.push((a0, a1));
                }
            }
            for _ in 0..2000 {
                // As signing forms it: a0 = r0 + v with v a centred ct0.
                let (r1, r0) = decompose(rng.coeff(), gamma2);
                let v = center(rng.coeff()) / 64;
                cases.push((r0 + v, r1));
            }
            for (a0, a1) in cases {
                uut.a0.next = s25(a0).into();
                uut.a1.next = (a1 as u64).into();
                uut.wide.next = wide;
                tick(&mut uut, |u| &mut u.clock);
                assert_eq!(
                    uut.hint.val(),
                    make_hint(a0, a1, gamma2) == 1,
                    "a0 {a0} a1 {a1} γ2 {gamma2}"
                );
            }
        }
    }

    #[test]
    fn coeffwise_units_yosys_validate() {
        let mut a = ModAddSub::default();
        a.connect_all();
        yosys_validate("mldsa_mod_add_sub", &generate_verilog(&a)).unwrap();
        let mut n = InfNormCheck::default();
        n.connect_all();
        yosys_validate("mldsa_inf_norm_check", &generate_verilog(&n)).unwrap();
        let mut h = MakeHint::default();
        h.connect_all();
        yosys_validate("mldsa_make_hint", &generate_verilog(&h)).unwrap();
    }
}
