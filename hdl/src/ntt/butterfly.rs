//! The unified, pipelined butterfly.
//!
//! - Cooley–Tukey (`gs = false`, forward NTT and pointwise products):
//!   `top = u + w·v`, `bot = u − w·v`.
//! - Gentleman–Sande (`gs = true`, inverse NTT): `top = (u + v)/2`,
//!   `bot = w·(v − u)/2`. The halvings accumulate to the 256⁻¹ scaling over
//!   the 8 layers (see [`super::schedule`]).
//!
//! Stage 1 does the GS add/sub, the [`ModMul`] does `w·v'`, the last stage
//! the CT add/sub; both modes take [`BUTTERFLY_LATENCY`] cycles, so the
//! controller never has to drain between modes. All values are canonical.

use super::arith::{ModMul, MODMUL_LATENCY, Q_U64};
use rust_hdl::prelude::*;

/// Register stages from the inputs to `top`/`bot`.
pub const BUTTERFLY_LATENCY: usize = MODMUL_LATENCY + 2;

#[derive(LogicBlock)]
pub struct Butterfly {
    pub clock: Signal<In, Clock>,
    pub u: Signal<In, Bits<23>>,
    pub v: Signal<In, Bits<23>>,
    pub w: Signal<In, Bits<23>>,
    pub gs: Signal<In, bool>,
    pub top: Signal<Out, Bits<23>>,
    pub bot: Signal<Out, Bits<23>>,
    mul: ModMul,
    // Stage 1 registers.
    u1: DFF<Bits<23>>,
    v1: DFF<Bits<23>>,
    w1: DFF<Bits<23>>,
    gs1: DFF<bool>,
    // u and mode delayed across the multiplier.
    u_line: [DFF<Bits<23>>; MODMUL_LATENCY],
    gs_line: [DFF<bool>; MODMUL_LATENCY],
    top_r: DFF<Bits<23>>,
    bot_r: DFF<Bits<23>>,
    u_last: Signal<Local, Bits<23>>,
    gs_last: Signal<Local, bool>,
    // Stage 1 candidates (see `update`).
    s_even: Signal<Local, Bits<26>>,
    s_plus: Signal<Local, Bits<26>>,
    s_minus: Signal<Local, Bits<26>>,
    d_even: Signal<Local, Bits<26>>,
    d_plus: Signal<Local, Bits<26>>,
    d_minus: Signal<Local, Bits<26>>,
    odd: Signal<Local, bool>,
    // Last-stage candidates.
    ct_sum: Signal<Local, Bits<25>>,
    ct_sum_m: Signal<Local, Bits<25>>,
    ct_diff: Signal<Local, Bits<25>>,
    ct_diff_p: Signal<Local, Bits<25>>,
    q26: Constant<Bits<26>>,
    q2_26: Constant<Bits<26>>,
    q25: Constant<Bits<25>>,
}

impl Default for Butterfly {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            u: Default::default(),
            v: Default::default(),
            w: Default::default(),
            gs: Default::default(),
            top: Default::default(),
            bot: Default::default(),
            mul: Default::default(),
            u1: Default::default(),
            v1: Default::default(),
            w1: Default::default(),
            gs1: Default::default(),
            u_line: Default::default(),
            gs_line: Default::default(),
            top_r: Default::default(),
            bot_r: Default::default(),
            u_last: Default::default(),
            gs_last: Default::default(),
            s_even: Default::default(),
            s_plus: Default::default(),
            s_minus: Default::default(),
            d_even: Default::default(),
            d_plus: Default::default(),
            d_minus: Default::default(),
            odd: Default::default(),
            ct_sum: Default::default(),
            ct_sum_m: Default::default(),
            ct_diff: Default::default(),
            ct_diff_p: Default::default(),
            q26: Constant::new(Q_U64.into()),
            q2_26: Constant::new((2 * Q_U64).into()),
            q25: Constant::new(Q_U64.into()),
        }
    }
}

impl Logic for Butterfly {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, u1, v1, w1, gs1, top_r, bot_r);
        self.mul.clock.next = self.clock.val();
        for i in 0..MODMUL_LATENCY {
            self.u_line[i].clock.next = self.clock.val();
            self.gs_line[i].clock.next = self.clock.val();
        }
        // Stage 1, GS: top = half(u + v mod q), bot' = half(v − u mod q),
        // with half(x) = x/2 for even x and (x + q)/2 for odd x.
        //
        // For s = u + v in [0, 2q): an even s gives s/2 whether or not
        // s ≥ q (s/2 < q; if s ≥ q then s − q is odd and half(s − q) =
        // s/2). An odd s gives (s + q)/2 if s < q, else (s − q)/2. The three
        // candidates are independent adders of u and v (one carry chain
        // each), chosen by the parity (u₀ ⊕ v₀) and the sign of s − q.
        // The difference uses d = v − u + q in [1, 2q) the same way:
        // candidates d, d + q = v − u + 2q, d − q = v − u (sign: v < u), and
        // d has the parity u₀ ⊕ v₀ ⊕ 1.
        self.s_even.next = bit_cast::<26, 23>(self.u.val()) + bit_cast::<26, 23>(self.v.val());
        self.s_plus.next =
            bit_cast::<26, 23>(self.u.val()) + bit_cast::<26, 23>(self.v.val()) + self.q26.val();
        self.s_minus.next =
            bit_cast::<26, 23>(self.u.val()) + bit_cast::<26, 23>(self.v.val()) - self.q26.val();
        self.d_even.next =
            bit_cast::<26, 23>(self.v.val()) + self.q26.val() - bit_cast::<26, 23>(self.u.val());
        self.d_plus.next =
            bit_cast::<26, 23>(self.v.val()) + self.q2_26.val() - bit_cast::<26, 23>(self.u.val());
        self.d_minus.next = bit_cast::<26, 23>(self.v.val()) - bit_cast::<26, 23>(self.u.val());
        self.odd.next = self.u.val().get_bit(0) != self.v.val().get_bit(0);
        if self.gs.val() {
            if !self.odd.val() {
                self.u1.d.next = self.s_even.val().get_bits::<23>(1);
                if self.d_minus.val().get_bit(25) {
                    self.v1.d.next = self.d_plus.val().get_bits::<23>(1);
                } else {
                    self.v1.d.next = self.d_minus.val().get_bits::<23>(1);
                }
            } else {
                if self.s_minus.val().get_bit(25) {
                    self.u1.d.next = self.s_plus.val().get_bits::<23>(1);
                } else {
                    self.u1.d.next = self.s_minus.val().get_bits::<23>(1);
                }
                self.v1.d.next = self.d_even.val().get_bits::<23>(1);
            }
        } else {
            self.u1.d.next = self.u.val();
            self.v1.d.next = self.v.val();
        }
        self.w1.d.next = self.w.val();
        self.gs1.d.next = self.gs.val();
        // Multiplier, with u and the mode travelling alongside.
        self.mul.a.next = self.v1.q.val();
        self.mul.b.next = self.w1.q.val();
        self.u_line[0].d.next = self.u1.q.val();
        self.gs_line[0].d.next = self.gs1.q.val();
        for i in 1..MODMUL_LATENCY {
            self.u_line[i].d.next = self.u_line[i - 1].q.val();
            self.gs_line[i].d.next = self.gs_line[i - 1].q.val();
        }
        // Array indices must be literals or loop variables in rust-hdl.
        for i in (MODMUL_LATENCY - 1)..MODMUL_LATENCY {
            self.u_last.next = self.u_line[i].q.val();
            self.gs_last.next = self.gs_line[i].q.val();
        }
        // Last stage: CT sum and difference, each from two parallel adders
        // chosen by the sign of one of them: u + t or u + t − q, u − t or
        // u − t + q.
        self.ct_sum.next =
            bit_cast::<25, 23>(self.u_last.val()) + bit_cast::<25, 23>(self.mul.r.val());
        self.ct_sum_m.next = bit_cast::<25, 23>(self.u_last.val())
            + bit_cast::<25, 23>(self.mul.r.val())
            - self.q25.val();
        self.ct_diff.next =
            bit_cast::<25, 23>(self.u_last.val()) - bit_cast::<25, 23>(self.mul.r.val());
        self.ct_diff_p.next = bit_cast::<25, 23>(self.u_last.val()) + self.q25.val()
            - bit_cast::<25, 23>(self.mul.r.val());
        if self.gs_last.val() {
            self.top_r.d.next = self.u_last.val();
            self.bot_r.d.next = self.mul.r.val();
        } else {
            if self.ct_sum_m.val().get_bit(24) {
                self.top_r.d.next = self.ct_sum.val().get_bits::<23>(0);
            } else {
                self.top_r.d.next = self.ct_sum_m.val().get_bits::<23>(0);
            }
            if self.ct_diff.val().get_bit(24) {
                self.bot_r.d.next = self.ct_diff_p.val().get_bits::<23>(0);
            } else {
                self.bot_r.d.next = self.ct_diff.val().get_bits::<23>(0);
            }
        }
        self.top.next = self.top_r.q.val();
        self.bot.next = self.bot_r.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::ring::{freeze, mul_mod, Q};

    fn reference(u: i32, v: i32, w: i32, gs: bool) -> (i32, i32) {
        let half = |x: i32| if x & 1 == 0 { x / 2 } else { (x + Q) / 2 };
        if gs {
            (half(freeze(u + v)), mul_mod(half(freeze(v - u)), w))
        } else {
            let t = mul_mod(v, w);
            (freeze(u + t), freeze(u - t))
        }
    }

    #[test]
    fn butterfly_matches_software_in_both_modes() {
        let mut cases = Vec::new();
        for gs in [false, true] {
            for &(u, v, w) in &[
                (0, 0, 0),
                (Q - 1, Q - 1, Q - 1),
                (0, Q - 1, 1),
                (Q - 1, 0, 1),
                (1, 2, Q - 1),
            ] {
                cases.push((u, v, w, gs));
            }
        }
        let mut rng = Lcg::new(3);
        for k in 0..4000 {
            cases.push((rng.coeff(), rng.coeff(), rng.coeff(), k % 3 == 0));
        }
        let mut uut = Butterfly::default();
        uut.connect_all();
        settle(&mut uut);
        let mut got = Vec::new();
        for cycle in 0..cases.len() + BUTTERFLY_LATENCY - 1 {
            if let Some(&(u, v, w, gs)) = cases.get(cycle) {
                uut.u.next = (u as u64).into();
                uut.v.next = (v as u64).into();
                uut.w.next = (w as u64).into();
                uut.gs.next = gs;
            }
            tick(&mut uut, |u| &mut u.clock);
            if cycle + 1 >= BUTTERFLY_LATENCY {
                got.push((uut.top.val().to_u64() as i32, uut.bot.val().to_u64() as i32));
            }
        }
        for (k, &(u, v, w, gs)) in cases.iter().enumerate() {
            assert_eq!(
                got[k],
                reference(u, v, w, gs),
                "case {k}: {u} {v} {w} gs={gs}"
            );
        }
    }

    #[test]
    fn butterfly_yosys_validates() {
        let mut uut = Butterfly::default();
        uut.connect_all();
        yosys_validate("ntt_butterfly", &generate_verilog(&uut)).unwrap();
    }
}
