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
    sum: Signal<Local, Bits<24>>,
    sum_red: Signal<Local, Bits<23>>,
    diff: Signal<Local, Bits<24>>,
    diff_red: Signal<Local, Bits<23>>,
    ct_sum: Signal<Local, Bits<24>>,
    ct_diff: Signal<Local, Bits<24>>,
    q24: Constant<Bits<24>>,
    half_q: Constant<Bits<23>>,
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
            sum: Default::default(),
            sum_red: Default::default(),
            diff: Default::default(),
            diff_red: Default::default(),
            ct_sum: Default::default(),
            ct_diff: Default::default(),
            q24: Constant::new(Q_U64.into()),
            // (q + 1) / 2: adding it to ⌊x/2⌋ halves an odd x mod q.
            half_q: Constant::new(Q_U64.div_ceil(2).into()),
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
        // Stage 1: GS sum and difference (v − u), each reduced then halved.
        self.sum.next = bit_cast::<24, 23>(self.u.val()) + bit_cast::<24, 23>(self.v.val());
        if self.sum.val() >= self.q24.val() {
            self.sum_red.next = bit_cast::<23, 24>(self.sum.val() - self.q24.val());
        } else {
            self.sum_red.next = bit_cast::<23, 24>(self.sum.val());
        }
        self.diff.next =
            bit_cast::<24, 23>(self.v.val()) + self.q24.val() - bit_cast::<24, 23>(self.u.val());
        if self.diff.val() >= self.q24.val() {
            self.diff_red.next = bit_cast::<23, 24>(self.diff.val() - self.q24.val());
        } else {
            self.diff_red.next = bit_cast::<23, 24>(self.diff.val());
        }
        if self.gs.val() {
            self.u1.d.next = self.sum_red.val() >> 1;
            if self.sum_red.val().get_bit(0) {
                self.u1.d.next = (self.sum_red.val() >> 1) + self.half_q.val();
            }
            self.v1.d.next = self.diff_red.val() >> 1;
            if self.diff_red.val().get_bit(0) {
                self.v1.d.next = (self.diff_red.val() >> 1) + self.half_q.val();
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
        // Last stage: CT sum and difference.
        self.ct_sum.next =
            bit_cast::<24, 23>(self.u_last.val()) + bit_cast::<24, 23>(self.mul.r.val());
        self.ct_diff.next = bit_cast::<24, 23>(self.u_last.val()) + self.q24.val()
            - bit_cast::<24, 23>(self.mul.r.val());
        if self.gs_last.val() {
            self.top_r.d.next = self.u_last.val();
            self.bot_r.d.next = self.mul.r.val();
        } else {
            if self.ct_sum.val() >= self.q24.val() {
                self.top_r.d.next = bit_cast::<23, 24>(self.ct_sum.val() - self.q24.val());
            } else {
                self.top_r.d.next = bit_cast::<23, 24>(self.ct_sum.val());
            }
            if self.ct_diff.val() >= self.q24.val() {
                self.bot_r.d.next = bit_cast::<23, 24>(self.ct_diff.val() - self.q24.val());
            } else {
                self.bot_r.d.next = bit_cast::<23, 24>(self.ct_diff.val());
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
