//! SimpleBitPack / BitPack (FIPS 204 Algorithms 16–17) to a byte stream:
//! the packer of every polynomial the engine writes (t1, t0, η-packed s,
//! z, and w1 for the commitment hash), the inverse of
//! [`super::bit_unpack::BitUnpacker`].
//!
//! Each canonical coefficient c becomes the field v = c (`centred` low) or
//! v = `offset` − c mod q (`centred` high: η, 2^12 or γ1), `width` bits of
//! it, least significant bit first. The caller guarantees that v fits the
//! width (the engine packs only values its range checks passed).
//!
//! A coefficient is taken (`coeff_ready`) while at most 24 bits wait, and
//! a byte leaves whenever 8 bits are there and the sink takes it, so
//! widths of 8 bits or more run at a byte per clock and narrower ones at a
//! coefficient per clock. The output byte is combinational from the
//! accumulator; `flush` pushes out a last partial byte (never needed for
//! whole polynomials: 256·width is a multiple of 8).

use rust_hdl::prelude::*;

/// The bit packer.
#[derive(LogicBlock)]
pub struct BitPacker {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the accumulator is emptied.
    pub reset: Signal<In, Bit>,
    /// Field width in bits, 1..=20.
    pub width: Signal<In, Bits<5>>,
    /// Map c to `offset − c mod q` when set.
    pub centred: Signal<In, Bit>,
    /// The offset of the centred mapping.
    pub offset: Signal<In, Bits<23>>,
    /// The next coefficient, canonical.
    pub coeff: Signal<In, Bits<23>>,
    /// `coeff` is valid this clock.
    pub coeff_valid: Signal<In, Bit>,
    /// The packer takes `coeff` this clock.
    pub coeff_ready: Signal<Out, Bit>,
    /// The next output byte.
    pub data: Signal<Out, Bits<8>>,
    /// `data` is valid.
    pub data_valid: Signal<Out, Bit>,
    /// The sink takes `data` this clock.
    pub data_ready: Signal<In, Bit>,
    acc: DFF<Bits<32>>,
    acc_bits: DFF<Bits<6>>,
    emit: Signal<Local, Bit>,
    kept: Signal<Local, Bits<32>>,
    kept_bits: Signal<Local, Bits<6>>,
    take: Signal<Local, Bit>,
    mapped: Signal<Local, Bits<24>>,
    lifted: Signal<Local, Bits<24>>,
    field: Signal<Local, Bits<32>>,
    one32: Constant<Bits<32>>,
    q24: Constant<Bits<24>>,
}

impl Default for BitPacker {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            width: Default::default(),
            centred: Default::default(),
            offset: Default::default(),
            coeff: Default::default(),
            coeff_valid: Default::default(),
            coeff_ready: Default::default(),
            data: Default::default(),
            data_valid: Default::default(),
            data_ready: Default::default(),
            acc: Default::default(),
            acc_bits: Default::default(),
            emit: Default::default(),
            kept: Default::default(),
            kept_bits: Default::default(),
            take: Default::default(),
            mapped: Default::default(),
            lifted: Default::default(),
            field: Default::default(),
            one32: Constant::new(1.into()),
            q24: Constant::new((pqc::ring::Q as u64).into()),
        }
    }
}

impl Logic for BitPacker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, acc, acc_bits);
        self.data.next = self.acc.q.val().get_bits::<8>(0);
        self.data_valid.next = self.acc_bits.q.val() >= 8;
        self.emit.next = (self.acc_bits.q.val() >= 8) & self.data_ready.val();
        if self.emit.val() {
            self.kept.next = self.acc.q.val() >> 8;
            self.kept_bits.next = self.acc_bits.q.val() - 8;
        } else {
            self.kept.next = self.acc.q.val();
            self.kept_bits.next = self.acc_bits.q.val();
        }
        // Room for a field is judged before this clock's byte leaves, so
        // `coeff_ready` does not depend on `data_ready`.
        self.coeff_ready.next = self.acc_bits.q.val() <= 12;
        self.take.next = self.coeff_valid.val() & (self.acc_bits.q.val() <= 12);
        // offset − c, lifted by q when negative.
        self.mapped.next =
            bit_cast::<24, 23>(self.offset.val()) - bit_cast::<24, 23>(self.coeff.val());
        self.lifted.next = self.mapped.val() + self.q24.val();
        if !self.centred.val() {
            self.field.next = bit_cast::<32, 23>(self.coeff.val());
        } else if self.mapped.val().get_bit(23) {
            self.field.next = bit_cast::<32, 24>(self.lifted.val());
        } else {
            self.field.next = bit_cast::<32, 24>(self.mapped.val());
        }
        if self.take.val() {
            self.acc.d.next = self.kept.val()
                | ((self.field.val()
                    & ((self.one32.val() << self.width.val()) - self.one32.val()))
                    << self.kept_bits.val());
            self.acc_bits.d.next = self.kept_bits.val() + bit_cast::<6, 5>(self.width.val());
        } else {
            self.acc.d.next = self.kept.val();
            self.acc_bits.d.next = self.kept_bits.val();
        }
        if self.reset.val() {
            self.acc.d.next = 0.into();
            self.acc_bits.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::mldsa::encode::pack;
    use pqc::ring::{N, Q};

    /// Packs `coeffs`, the sink refusing every `stall`-th clock; returns the
    /// bytes and the clocks.
    fn run(
        uut: &mut BitPacker,
        width: usize,
        centred: bool,
        offset: i32,
        coeffs: &[i32],
        stall: usize,
    ) -> (Vec<u8>, usize) {
        uut.width.next = (width as u64).into();
        uut.centred.next = centred;
        uut.offset.next = (offset as u64).into();
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut out = Vec::new();
        let (mut next, mut clocks) = (0, 0);
        while out.len() < 32 * width {
            assert!(clocks < 8 * N, "packer stalled");
            uut.coeff.next = (coeffs.get(next).copied().unwrap_or(0) as u64).into();
            uut.coeff_valid.next = next < coeffs.len();
            let sink = stall == 0 || clocks % stall != stall - 1;
            uut.data_ready.next = sink;
            settle(uut);
            if next < coeffs.len() && uut.coeff_ready.val() {
                next += 1;
            }
            if sink && uut.data_valid.val() {
                out.push(uut.data.val().to_u64() as u8);
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
        }
        uut.coeff_valid.next = false;
        assert_eq!(next, coeffs.len());
        (out, clocks)
    }

    #[test]
    fn bit_packer_matches_pqc_for_every_ml_dsa_field() {
        let mut uut = BitPacker::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(17);
        // (width, centred, offset, largest |value|): t1, t0, s (η 2, 4), z
        // (γ1 2^17, 2^19), w1 (6 and 4 bits).
        let fields = [
            (10, false, 0, 1023),
            (13, true, 1 << 12, 1 << 12),
            (3, true, 2, 2),
            (4, true, 4, 4),
            (18, true, 1 << 17, (1 << 17) - 1),
            (20, true, 1 << 19, (1 << 19) - 1),
            (6, false, 0, 43),
            (4, false, 0, 15),
        ];
        for (case, &(width, centred, offset, bound)) in fields.iter().enumerate() {
            // Coefficients whose field fits: [0, bound] raw, or
            // [offset − 2^width + 1, offset] centred, canonical mod q.
            let values: Vec<i32> = (0..N)
                .map(|_| {
                    if centred {
                        let span = (1i64 << width) - 1;
                        let v = offset as i64 - (rng.next_u32() as i64 % (span + 1));
                        v.max(-(bound as i64)) as i32
                    } else {
                        (rng.next_u32() % (bound as u32 + 1)) as i32
                    }
                })
                .collect();
            let canonical: Vec<i32> = values.iter().map(|v| v.rem_euclid(Q)).collect();
            let mut want = vec![0u8; 32 * width];
            pack(width, &mut want, |i| {
                (if centred {
                    offset - values[i]
                } else {
                    values[i]
                }) as u32
            });
            let (got, _) = run(
                &mut uut,
                width,
                centred,
                offset,
                &canonical,
                [0, 2, 3][case % 3],
            );
            assert_eq!(got, want, "width {width}");
        }
    }

    #[test]
    fn bit_packer_yosys_validates() {
        let mut uut = BitPacker::default();
        uut.connect_all();
        yosys_validate("mldsa_bit_pack", &generate_verilog(&uut)).unwrap();
    }
}
