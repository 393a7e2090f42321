//! Arithmetic modulo q = 8380417 = 2^23 − 2^13 + 1.
//!
//! - [`Mul23`]: the 23×23-bit product, a leaf with hand-written Verilog so
//!   that synthesis maps it onto two DSP48E1 slices (23×17 and 23×6), each
//!   with its input, multiplier (MREG) and output (PREG) registers, and the
//!   two partial products added in the fabric in a stage of their own.
//! - [`ModReduce`]: reduction of a product below q² to `[0, q)` using
//!   2^23 ≡ 2^13 − 1 (mod q): three shift-and-add folds and one conditional
//!   subtraction, no multiplier. This is smaller than Montgomery, which would
//!   need two more 23-bit multiplications (4 more DSP48E1) per product.
//! - [`ModMul`]: the pipelined modular multiplier (`Mul23` then `ModReduce`).
//!
//! All values are plain-domain canonical residues, as the `pqc::ring`
//! contract requires, so no constant needs pre-scaling.

use rust_hdl::prelude::*;

/// Coefficient width: q < 2^23.
pub const COEFF_BITS: usize = 23;
/// The modulus as a 64-bit literal for HDL constants.
pub const Q_U64: u64 = pqc::ring::Q as u64;
/// Register stages of [`Mul23`]: operands, MREG, PREG, sum of the halves.
pub const MUL23_LATENCY: usize = 4;
/// Low bits of `b` multiplied in the first DSP48E1 (its B port takes 17
/// unsigned bits); the remaining 6 go to the second.
pub const MUL23_SPLIT: usize = 17;
/// Register stages of [`ModReduce`].
pub const REDUCE_LATENCY: usize = 3;
/// Register stages of [`ModMul`].
pub const MODMUL_LATENCY: usize = MUL23_LATENCY + REDUCE_LATENCY;

/// 23×23 → 46-bit unsigned multiplier, fully pipelined (latency
/// [`MUL23_LATENCY`]): operand registers, the two partial products
/// `a·b[16:0]` and `a·b[22:17]` each with a multiplier register (DSP48E1
/// MREG) and an output register (PREG), then their sum `lo + (hi << 17)` in
/// a register of its own. rust-hdl only multiplies 16×16 bits, so the
/// simulation model is written in Rust and the Verilog by hand; the model
/// keeps the same register stages.
#[derive(LogicBlock, Default)]
pub struct Mul23 {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<23>>,
    pub b: Signal<In, Bits<23>>,
    pub p: Signal<Out, Bits<46>>,
    _a_reg: u64,
    _b_reg: u64,
    /// The (lo, hi) partial products in the M and P register stages.
    _m: (u64, u64),
    _p: (u64, u64),
}

impl Logic for Mul23 {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let mask = (1u64 << MUL23_SPLIT) - 1;
            self.p.next = Bits::<46>::from(self._p.0 + (self._p.1 << MUL23_SPLIT));
            self._p = self._m;
            self._m = (
                self._a_reg * (self._b_reg & mask),
                self._a_reg * (self._b_reg >> MUL23_SPLIT),
            );
            self._a_reg = self.a.val().to_u64();
            self._b_reg = self.b.val().to_u64();
        }
    }

    fn connect(&mut self) {
        self.p.connect();
    }

    fn hdl(&self) -> Verilog {
        // Operand registers, then per partial product a multiplier and an
        // output register: the shape DSP48E1 inference absorbs (AREG/BREG,
        // MREG, PREG) on both slices. The sum of the halves is a fabric
        // adder with its own register.
        assert_eq!(MUL23_SPLIT, 17, "the Verilog below is written for 17");
        Verilog::Custom(
            "\
reg [22:0] a_reg;
reg [22:0] b_reg;
reg [39:0] m_lo;
reg [28:0] m_hi;
reg [39:0] p_lo;
reg [28:0] p_hi;
initial begin
   a_reg = 23'd0;
   b_reg = 23'd0;
   m_lo = 40'd0;
   m_hi = 29'd0;
   p_lo = 40'd0;
   p_hi = 29'd0;
   p = 46'd0;
end
always @(posedge clock) begin
   a_reg <= a;
   b_reg <= b;
   m_lo <= a_reg * b_reg[16:0];
   m_hi <= a_reg * b_reg[22:17];
   p_lo <= m_lo;
   p_hi <= m_hi;
   p <= {p_hi + {6'd0, p_lo[39:17]}, p_lo[16:0]};
end
"
            .into(),
        )
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "mul23".into(),
            clock: "clock".into(),
            inputs: vec!["a".into(), "b".into()],
            outputs: vec!["p".into()],
        }]
    }
}

/// Reduces `x < q²` (46 bits) to `x mod q` in `[0, q)`, latency
/// [`REDUCE_LATENCY`].
///
/// With x = h·2^23 + l, x ≡ l + h·2^13 − h. Three folds shrink the width
/// 46 → 37 → 28 → 24 bits (the last value is below 2^23 + 2^18 < 2q), then
/// one conditional subtraction of q gives the canonical residue.
#[derive(LogicBlock)]
pub struct ModReduce {
    pub clock: Signal<In, Clock>,
    pub x: Signal<In, Bits<46>>,
    pub r: Signal<Out, Bits<23>>,
    fold1: DFF<Bits<37>>,
    fold3: DFF<Bits<24>>,
    out: DFF<Bits<23>>,
    fold2: Signal<Local, Bits<28>>,
    minus_q: Signal<Local, Bits<25>>,
    q25: Constant<Bits<25>>,
}

impl Default for ModReduce {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            x: Default::default(),
            r: Default::default(),
            fold1: Default::default(),
            fold3: Default::default(),
            out: Default::default(),
            fold2: Default::default(),
            minus_q: Default::default(),
            q25: Constant::new(Q_U64.into()),
        }
    }
}

impl Logic for ModReduce {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fold1, fold3, out);
        // Every operand is widened to the result width before adding.
        self.fold1.d.next = bit_cast::<37, 23>(self.x.val().get_bits::<23>(0))
            + (bit_cast::<37, 23>(self.x.val().get_bits::<23>(23)) << 13)
            - bit_cast::<37, 23>(self.x.val().get_bits::<23>(23));
        self.fold2.next = bit_cast::<28, 23>(self.fold1.q.val().get_bits::<23>(0))
            + (bit_cast::<28, 14>(self.fold1.q.val().get_bits::<14>(23)) << 13)
            - bit_cast::<28, 14>(self.fold1.q.val().get_bits::<14>(23));
        self.fold3.d.next = bit_cast::<24, 23>(self.fold2.val().get_bits::<23>(0))
            + (bit_cast::<24, 5>(self.fold2.val().get_bits::<5>(23)) << 13)
            - bit_cast::<24, 5>(self.fold2.val().get_bits::<5>(23));
        // fold3 − q and fold3 in parallel, selected on the sign of the
        // difference (one carry chain, then a multiplexer).
        self.minus_q.next = bit_cast::<25, 24>(self.fold3.q.val()) - self.q25.val();
        if self.minus_q.val().get_bit(24) {
            self.out.d.next = bit_cast::<23, 24>(self.fold3.q.val());
        } else {
            self.out.d.next = bit_cast::<23, 25>(self.minus_q.val());
        }
        self.r.next = self.out.q.val();
    }
}

/// Pipelined `a·b mod q` for canonical inputs, latency [`MODMUL_LATENCY`].
#[derive(LogicBlock, Default)]
pub struct ModMul {
    pub clock: Signal<In, Clock>,
    pub a: Signal<In, Bits<23>>,
    pub b: Signal<In, Bits<23>>,
    pub r: Signal<Out, Bits<23>>,
    mul: Mul23,
    reduce: ModReduce,
}

impl Logic for ModMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.mul.clock.next = self.clock.val();
        self.reduce.clock.next = self.clock.val();
        self.mul.a.next = self.a.val();
        self.mul.b.next = self.b.val();
        self.reduce.x.next = self.mul.p.val();
        self.r.next = self.reduce.r.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::ring::{mul_mod, Q};

    fn run_modmul(pairs: &[(i32, i32)]) -> Vec<i32> {
        let mut uut = ModMul::default();
        uut.connect_all();
        settle(&mut uut);
        let mut out = Vec::new();
        // A value presented before tick t is on `r` after tick t + latency − 1.
        for cycle in 0..pairs.len() + MODMUL_LATENCY - 1 {
            if let Some(&(a, b)) = pairs.get(cycle) {
                uut.a.next = (a as u64).into();
                uut.b.next = (b as u64).into();
            }
            tick(&mut uut, |u| &mut u.clock);
            if cycle + 1 >= MODMUL_LATENCY {
                out.push(uut.r.val().to_u64() as i32);
            }
        }
        out
    }

    #[test]
    fn modmul_matches_software_on_edges_and_random_pairs() {
        let mut pairs = vec![(0, 0), (Q - 1, Q - 1), (1, Q - 1), (Q - 1, 2), (1, 1)];
        for k in 0..23 {
            pairs.push((1 << k, Q - 1));
            pairs.push(((1 << k) % Q, (Q - 1) - k));
        }
        let mut rng = Lcg::new(7);
        for _ in 0..3000 {
            pairs.push((rng.coeff(), rng.coeff()));
        }
        let got = run_modmul(&pairs);
        for (i, &(a, b)) in pairs.iter().enumerate() {
            assert_eq!(got[i], mul_mod(a, b), "{a} * {b}");
        }
    }

    #[test]
    fn reduction_folds_cover_the_worst_case() {
        // The fold bounds in the doc comment, checked on the largest input.
        let x: u64 = (Q as u64 - 1) * (Q as u64 - 1);
        let f1 = (x & 0x7f_ffff) + (x >> 23) * ((1 << 13) - 1);
        assert!(f1 < 1 << 37);
        let max_f2 = ((1u64 << 23) - 1) + ((1 << 14) - 1) * ((1 << 13) - 1);
        assert!(max_f2 < 1 << 28);
        let max_f3 = ((1u64 << 23) - 1) + ((1 << 5) - 1) * ((1 << 13) - 1);
        assert!(max_f3 < 2 * Q as u64);
    }

    /// yosys `synth_xilinx` maps the product onto two DSP48E1 with the
    /// operand, multiplier and output registers all absorbed (AREG = BREG
    /// = MREG = PREG = 1 on both slices).
    #[test]
    fn mul23_maps_to_two_fully_registered_dsp48e1() {
        let design = crate::ntt::designs()
            .into_iter()
            .find(|d| d.name == "ntt_modmul")
            .unwrap();
        let dir = crate::verilator::work_dir("dsp-regs");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("m.v"), crate::export::design_verilog(&design)).unwrap();
        let out = std::process::Command::new("yosys")
            .args([
                "-q",
                "-p",
                "read_verilog m.v; synth_xilinx -family xc7 -flatten -top ntt_modmul; \
                 tee -o dsp.txt dump t:DSP48E1",
            ])
            .current_dir(&dir)
            .output()
            .expect("yosys");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dump = std::fs::read_to_string(dir.join("dsp.txt")).unwrap();
        let cells = dump.matches("cell \\DSP48E1 ").count();
        assert_eq!(cells, 2, "{dump}");
        for reg in ["AREG", "BREG"] {
            let n = dump.matches(&format!("parameter \\{reg} 1\n")).count();
            assert_eq!(n, 2, "{reg}: {dump}");
        }
        for reg in ["MREG", "PREG"] {
            let n = dump.matches(&format!("parameter \\{reg} 1'1\n")).count();
            assert_eq!(n, 2, "{reg}: {dump}");
        }
    }

    #[test]
    fn modmul_yosys_validates() {
        let mut uut = ModMul::default();
        uut.connect_all();
        yosys_validate("ntt_modmul", &generate_verilog(&uut)).unwrap();
    }
}
