//! SimpleBitUnpack / BitUnpack (FIPS 204 Algorithms 18–19) on a byte
//! stream, one coefficient per clock at most: the unpacker of every packed
//! polynomial the engine reads (t1, t0, η-packed s1/s2, z) and ExpandMask's
//! sampler (Algorithm 34: y = γ1 − BitUnpack of the H output).
//!
//! The field width (`width`, 1..=20 bits) and the mapping are set per
//! polynomial:
//!
//! - `centred` low: the coefficient is the field value v (t1);
//! - `centred` high: the coefficient is `offset − v mod q`, canonical
//!   (`offset` = η for s, 2^12 for t0, γ1 for z and y).
//!
//! `out_of_range` comes with each coefficient and is set when v > `max_value`
//! (an η-packed s coefficient above 2η: a malformed secret key, which the
//! engine must refuse rather than use). It is computed for every
//! coefficient the same way, so the timing does not depend on it.
//!
//! Bytes are taken least significant bit first. A 32-bit accumulator holds
//! the bits not yet used; a byte is taken when at most 24 bits would remain
//! after this clock's field, so with fields of 8 bits or more the unpacker
//! keeps up with a byte per clock, and with narrower fields it gives a
//! coefficient every clock. A source that can offer two bytes at once
//! (`pair_valid`, the second in `data_pair`) has both taken when at most 16
//! bits would remain (`pair_taken`): wide fields (z: 18 or 20 bits) then
//! come at two bytes a clock (1.125 or 1.25 clocks a coefficient instead of
//! 2.25 or 2.5).
//! Latency 1 from the clock whose accumulator holds a whole field.
//!
//! Whether the accumulator holds a field is registered (`spare`, the bits
//! it holds minus `width`, kept beside the count), so the byte handshake,
//! which the sponge's output handshake follows in the engines, starts at a
//! flip-flop rather than behind a compare. `width` may change only on a
//! `reset` clock (the engines load it then): `spare` is taken from the
//! new width on the clock after.

use rust_hdl::prelude::*;

/// The bit unpacker.
#[derive(LogicBlock)]
pub struct BitUnpacker {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the accumulator is emptied (a new polynomial).
    pub reset: Signal<In, Bit>,
    /// Field width in bits, 1..=20; hold it for the whole polynomial (it
    /// may change only with `reset`).
    pub width: Signal<In, Bits<5>>,
    /// Map v to `offset − v mod q` when set.
    pub centred: Signal<In, Bit>,
    /// The offset of the centred mapping (below q).
    pub offset: Signal<In, Bits<23>>,
    /// Largest allowed field value.
    pub max_value: Signal<In, Bits<20>>,
    /// The next byte.
    pub data: Signal<In, Bits<8>>,
    /// `data` is valid this clock.
    pub data_valid: Signal<In, Bit>,
    /// The unpacker takes `data` this clock.
    pub data_ready: Signal<Out, Bit>,
    /// The byte after `data` (valid with `pair_valid`).
    pub data_pair: Signal<In, Bits<8>>,
    /// `data` and `data_pair` are both valid this clock.
    pub pair_valid: Signal<In, Bit>,
    /// Both bytes are taken this clock (else at most `data`).
    pub pair_taken: Signal<Out, Bit>,
    /// The coefficient, canonical.
    pub coeff: Signal<Out, Bits<23>>,
    /// `coeff` is valid this clock.
    pub coeff_valid: Signal<Out, Bit>,
    /// The field of `coeff` exceeded `max_value`.
    pub out_of_range: Signal<Out, Bit>,
    acc: DFF<Bits<32>>,
    acc_bits: DFF<Bits<6>>,
    /// `acc_bits − width`, 7-bit two's complement (valid with `spare_valid`).
    spare: DFF<Bits<7>>,
    /// `spare` was computed with the current width (low after a reset,
    /// when the accumulator is empty).
    spare_valid: DFF<Bit>,
    /// `2^width − 1`, registered: `width` changes only with `reset`, and
    /// the first field comes two clocks after (`spare_valid`), so the
    /// field's mask comes from a flip-flop, not through a subtractor.
    field_mask: DFF<Bits<32>>,
    out: DFF<Bits<23>>,
    out_valid: DFF<Bit>,
    out_bad: DFF<Bit>,
    width6: Signal<Local, Bits<6>>,
    emit: Signal<Local, Bit>,
    after: Signal<Local, Bits<6>>,
    next_bits: Signal<Local, Bits<6>>,
    take: Signal<Local, Bit>,
    take_pair: Signal<Local, Bit>,
    kept: Signal<Local, Bits<32>>,
    incoming: Signal<Local, Bits<32>>,
    field: Signal<Local, Bits<32>>,
    value: Signal<Local, Bits<24>>,
    centred_value: Signal<Local, Bits<24>>,
    lifted_value: Signal<Local, Bits<24>>,
    one32: Constant<Bits<32>>,
    q24: Constant<Bits<24>>,
}

impl Default for BitUnpacker {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            width: Default::default(),
            centred: Default::default(),
            offset: Default::default(),
            max_value: Default::default(),
            data: Default::default(),
            data_valid: Default::default(),
            data_ready: Default::default(),
            data_pair: Default::default(),
            pair_valid: Default::default(),
            pair_taken: Default::default(),
            coeff: Default::default(),
            coeff_valid: Default::default(),
            out_of_range: Default::default(),
            acc: Default::default(),
            acc_bits: Default::default(),
            spare: Default::default(),
            spare_valid: Default::default(),
            field_mask: Default::default(),
            out: Default::default(),
            out_valid: Default::default(),
            out_bad: Default::default(),
            width6: Default::default(),
            emit: Default::default(),
            after: Default::default(),
            next_bits: Default::default(),
            take: Default::default(),
            take_pair: Default::default(),
            kept: Default::default(),
            incoming: Default::default(),
            field: Default::default(),
            value: Default::default(),
            centred_value: Default::default(),
            lifted_value: Default::default(),
            one32: Constant::new(1.into()),
            q24: Constant::new((pqc::ring::Q as u64).into()),
        }
    }
}

impl Logic for BitUnpacker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            acc,
            acc_bits,
            spare,
            spare_valid,
            field_mask,
            out,
            out_valid,
            out_bad
        );
        self.width6.next = bit_cast::<6, 5>(self.width.val());
        // acc_bits ≥ width.
        self.emit.next = self.spare_valid.q.val() & !self.spare.q.val().get_bit(6);
        if self.emit.val() {
            self.after.next = self.spare.q.val().get_bits::<6>(0);
            self.kept.next = self.acc.q.val() >> self.width.val();
        } else {
            self.after.next = self.acc_bits.q.val();
            self.kept.next = self.acc.q.val();
        }
        self.data_ready.next = self.after.val() <= 24;
        self.take.next = self.data_valid.val() & (self.after.val() <= 24);
        self.take_pair.next =
            self.data_valid.val() & self.pair_valid.val() & (self.after.val() <= 16);
        self.pair_taken.next = self.take_pair.val();
        if self.take_pair.val() {
            self.incoming.next = (bit_cast::<32, 8>(self.data.val())
                | (bit_cast::<32, 8>(self.data_pair.val()) << 8))
                << self.after.val();
            self.next_bits.next = self.after.val() + 16;
        } else if self.take.val() {
            self.incoming.next = bit_cast::<32, 8>(self.data.val()) << self.after.val();
            self.next_bits.next = self.after.val() + 8;
        } else {
            self.incoming.next = 0.into();
            self.next_bits.next = self.after.val();
        }
        self.acc_bits.d.next = self.next_bits.val();
        self.spare.d.next =
            bit_cast::<7, 6>(self.next_bits.val()) - bit_cast::<7, 6>(self.width6.val());
        self.spare_valid.d.next = true;
        self.acc.d.next = self.kept.val() | self.incoming.val();
        self.field_mask.d.next = (self.one32.val() << self.width.val()) - self.one32.val();
        self.field.next = self.acc.q.val() & self.field_mask.q.val();
        self.value.next = self.field.val().get_bits::<24>(0);
        // offset − v, lifted by q when negative (v < 2^20 < q).
        self.centred_value.next = bit_cast::<24, 23>(self.offset.val()) - self.value.val();
        self.lifted_value.next = self.centred_value.val() + self.q24.val();
        if !self.centred.val() {
            self.out.d.next = self.value.val().get_bits::<23>(0);
        } else if self.centred_value.val().get_bit(23) {
            self.out.d.next = self.lifted_value.val().get_bits::<23>(0);
        } else {
            self.out.d.next = self.centred_value.val().get_bits::<23>(0);
        }
        self.out_valid.d.next = self.emit.val();
        self.out_bad.d.next = self.value.val() > bit_cast::<24, 20>(self.max_value.val());
        if self.reset.val() {
            self.acc.d.next = 0.into();
            self.acc_bits.d.next = 0.into();
            self.spare_valid.d.next = false;
            self.out_valid.d.next = false;
        }
        self.coeff.next = self.out.q.val();
        self.coeff_valid.next = self.out_valid.q.val();
        self.out_of_range.next = self.out_bad.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::keccak::SoftKeccak;
    use pqc::mldsa::encode::unpack;
    use pqc::mldsa::sample::expand_mask_poly;
    use pqc::ring::{N, Q};

    /// One polynomial's configuration.
    #[derive(Clone, Copy)]
    struct Field {
        width: usize,
        centred: bool,
        offset: u32,
        max_value: u32,
    }

    /// Unpacks `bytes` (exactly 32·width) offering a byte on every clock
    /// but every `stall`-th; returns (coefficient, out_of_range) pairs and
    /// the clocks taken.
    fn run(
        uut: &mut BitUnpacker,
        f: Field,
        bytes: &[u8],
        stall: usize,
    ) -> (Vec<(i32, bool)>, usize) {
        run_pairs(uut, f, bytes, stall, false)
    }

    /// [`run`], offering two bytes at once whenever two are left when
    /// `pairs` is set.
    fn run_pairs(
        uut: &mut BitUnpacker,
        f: Field,
        bytes: &[u8],
        stall: usize,
        pairs: bool,
    ) -> (Vec<(i32, bool)>, usize) {
        uut.width.next = (f.width as u64).into();
        uut.centred.next = f.centred;
        uut.offset.next = (f.offset as u64).into();
        uut.max_value.next = (f.max_value as u64).into();
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut got = Vec::new();
        let mut next = 0;
        let mut clocks = 0;
        while got.len() < N {
            assert!(clocks < 8 * N, "unpacker stalled");
            let offer = next < bytes.len() && (stall == 0 || clocks % stall != stall - 1);
            uut.data.next = (bytes.get(next).copied().unwrap_or(0) as u64).into();
            uut.data_pair.next = (bytes.get(next + 1).copied().unwrap_or(0) as u64).into();
            uut.data_valid.next = offer;
            uut.pair_valid.next = offer && pairs && next + 1 < bytes.len();
            settle(uut);
            if uut.pair_taken.val() {
                assert!(offer && pairs, "a pair taken that was not offered");
                next += 2;
            } else if offer && uut.data_ready.val() {
                next += 1;
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
            if uut.coeff_valid.val() {
                got.push((uut.coeff.val().to_u64() as i32, uut.out_of_range.val()));
            }
        }
        uut.data_valid.next = false;
        uut.pair_valid.next = false;
        assert_eq!(next, bytes.len(), "every byte used");
        (got, clocks)
    }

    fn software(f: Field, bytes: &[u8]) -> Vec<(i32, bool)> {
        let mut want = vec![(0, false); N];
        unpack(f.width, bytes, |i, v| {
            let c = if f.centred {
                (f.offset as i32 - v as i32).rem_euclid(Q)
            } else {
                v as i32
            };
            want[i] = (c, v > f.max_value);
        });
        want
    }

    #[test]
    fn bit_unpacker_matches_pqc_for_every_ml_dsa_field() {
        let mut uut = BitUnpacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(18);
        let fields = [
            // t1, t0, s (η = 2, 4), z / y (γ1 = 2^17, 2^19), w1 widths.
            Field {
                width: 10,
                centred: false,
                offset: 0,
                max_value: 1023,
            },
            Field {
                width: 13,
                centred: true,
                offset: 1 << 12,
                max_value: 8191,
            },
            Field {
                width: 3,
                centred: true,
                offset: 2,
                max_value: 4,
            },
            Field {
                width: 4,
                centred: true,
                offset: 4,
                max_value: 8,
            },
            Field {
                width: 18,
                centred: true,
                offset: 1 << 17,
                max_value: (1 << 18) - 1,
            },
            Field {
                width: 20,
                centred: true,
                offset: 1 << 19,
                max_value: (1 << 20) - 1,
            },
            Field {
                width: 6,
                centred: false,
                offset: 0,
                max_value: 43,
            },
            Field {
                width: 4,
                centred: false,
                offset: 0,
                max_value: 15,
            },
        ];
        for (case, &f) in fields.iter().enumerate() {
            let bytes: Vec<u8> = (0..32 * f.width).map(|_| rng.next_u32() as u8).collect();
            let (got, clocks) = run(&mut uut, f, &bytes, [0, 2, 5][case % 3]);
            assert_eq!(got, software(f, &bytes), "field width {}", f.width);
            if case % 3 == 0 {
                // Unstalled: a byte per clock for wide fields, a coefficient
                // per clock for narrow ones (plus the first fill).
                assert!(clocks <= (32 * f.width).max(N) + 3, "{} clocks", clocks);
            }
        }
    }

    /// Two bytes a clock: the same coefficients, stalled or not; z's
    /// fields (18 and 20 bits) at two bytes a clock, narrower ones at a
    /// coefficient a clock.
    #[test]
    fn bit_unpacker_takes_byte_pairs() {
        let mut uut = BitUnpacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(19);
        for (case, (width, centred)) in [(18, true), (20, true), (10, false), (13, true), (3, true)]
            .into_iter()
            .enumerate()
        {
            let f = Field {
                width,
                centred,
                offset: if centred { 1 << (width - 1) } else { 0 },
                max_value: (1 << width) - 1,
            };
            let bytes: Vec<u8> = (0..32 * f.width).map(|_| rng.next_u32() as u8).collect();
            for stall in [0, 3] {
                let (got, clocks) = run_pairs(&mut uut, f, &bytes, stall, true);
                assert_eq!(got, software(f, &bytes), "width {width}, stall {stall}");
                if stall == 0 && width >= 18 {
                    // Two bytes a clock: 32·width / 2 clocks.
                    assert!(
                        clocks <= 16 * width + 8,
                        "width {width}: {clocks} clocks ({case})"
                    );
                }
                if stall == 0 && width < 16 {
                    assert!(clocks <= N + 4, "width {width}: {clocks} clocks");
                }
            }
        }
    }

    #[test]
    fn bit_unpacker_runs_expand_mask() {
        let mut uut = BitUnpacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(34);
        for (gamma1_log, bits) in [(17, 18), (19, 20)] {
            let rho2: [u8; 64] = core::array::from_fn(|_| rng.next_u32() as u8);
            let nonce = rng.next_u32() as u16;
            let gamma1 = 1i32 << gamma1_log;
            let mut y = [0i32; N];
            expand_mask_poly(&mut SoftKeccak, &rho2, nonce, gamma1, bits, &mut y);
            let mut stream = vec![0u8; 32 * bits];
            pqc::mldsa::sample::h(&mut SoftKeccak, &[&rho2, &nonce.to_le_bytes()], &mut stream);
            let f = Field {
                width: bits,
                centred: true,
                offset: gamma1 as u32,
                max_value: (1 << bits) - 1,
            };
            let (got, _) = run(&mut uut, f, &stream, 0);
            let want: Vec<(i32, bool)> = y.iter().map(|&v| (v.rem_euclid(Q), false)).collect();
            assert_eq!(got, want, "γ1 = 2^{gamma1_log}");
        }
    }

    #[test]
    fn bit_unpacker_yosys_validates() {
        let mut uut = BitUnpacker::default();
        uut.connect_all();
        yosys_validate("mldsa_bit_unpack", &generate_verilog(&uut)).unwrap();
    }
}
