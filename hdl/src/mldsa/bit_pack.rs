//! SimpleBitPack / BitPack (FIPS 204 Algorithms 16–17) to a stream of
//! bytes ([`BytePacker`]) or little-endian 32-bit words ([`WordPacker`]):
//! the packer of every polynomial the engine writes (t1, t0, η-packed s,
//! z, and w1 for the commitment hash), the inverse of
//! [`super::bit_unpack::BitUnpacker`].
//!
//! Each canonical coefficient c becomes the field v = c (`centred` low) or
//! v = `offset` − c mod q (`centred` high: η, 2^12 or γ1), `width` bits of
//! it, least significant bit first. The caller guarantees that v fits the
//! width (the engine packs only values its range checks passed).
//!
//! The fields gather in an `ACC`-bit accumulator; an `OUT`-bit output
//! leaves whenever `OUT` bits are there and the sink takes it. A
//! coefficient is taken (`coeff_ready`) while a field of [`MAX_WIDTH`]
//! bits fits beside what stays after this clock's output, at most `ACC` −
//! 20 ≤ 31 bits, so the field's shift into place takes 5 bits. So the
//! byte packer runs at a byte per clock for widths of 8 bits or more, and
//! at a coefficient per clock below. The word packer (51 bits) takes a
//! coefficient every clock while the sink is always ready: at most 31 + 20
//! bits are ever there, and whenever 32 or more are, a word leaves and at
//! most 19 stay. Every polynomial the engine packs
//! fills whole words (256·width bits) and starts on a word boundary, so
//! the word packer is the one on the long fields (t1, t0, z). The output is
//! combinational from the accumulator; whole polynomials never leave a
//! partial output behind.

use rust_hdl::prelude::*;

/// The widest field (z for γ1 = 2^19).
pub const MAX_WIDTH: usize = 20;

/// The bit packer: `OUT`-bit outputs from an `ACC`-bit accumulator.
#[derive(LogicBlock)]
pub struct BitPacker<const OUT: usize, const ACC: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the accumulator is emptied.
    pub reset: Signal<In, Bit>,
    /// Field width in bits, 1..=[`MAX_WIDTH`].
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
    /// The next output (little-endian).
    pub data: Signal<Out, Bits<OUT>>,
    /// `data` is valid.
    pub data_valid: Signal<Out, Bit>,
    /// The sink takes `data` this clock.
    pub data_ready: Signal<In, Bit>,
    acc: DFF<Bits<ACC>>,
    acc_bits: DFF<Bits<7>>,
    emit: Signal<Local, Bit>,
    kept: Signal<Local, Bits<ACC>>,
    kept_bits: Signal<Local, Bits<7>>,
    take: Signal<Local, Bit>,
    mapped: Signal<Local, Bits<24>>,
    lifted: Signal<Local, Bits<24>>,
    field: Signal<Local, Bits<24>>,
    one: Constant<Bits<24>>,
    q24: Constant<Bits<24>>,
    /// `OUT`.
    out_bits: Constant<Bits<7>>,
    /// The most bits that may wait for a field to be taken: `ACC` − 20.
    room: Constant<Bits<7>>,
    /// The same before this clock's output leaves: `ACC` − 20 + `OUT`.
    room_before_output: Constant<Bits<7>>,
}

/// The byte packer (w1 into the commitment's buffer).
pub type BytePacker = BitPacker<8, 32>;
/// The word packer (t1, t0 and s into the keys, z into σ).
pub type WordPacker = BitPacker<32, 51>;

impl<const OUT: usize, const ACC: usize> Default for BitPacker<OUT, ACC> {
    fn default() -> Self {
        // A field always fits an output's worth of room, and the room
        // (hence the shift) stays below 32.
        assert!(
            ACC >= OUT + MAX_WIDTH - 1 && ACC - MAX_WIDTH < 32,
            "accumulator out of range"
        );
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
            one: Constant::new(1.into()),
            q24: Constant::new((pqc::ring::Q as u64).into()),
            out_bits: Constant::new((OUT as u64).into()),
            room: Constant::new(((ACC - MAX_WIDTH) as u64).into()),
            room_before_output: Constant::new(((ACC - MAX_WIDTH + OUT) as u64).into()),
        }
    }
}

impl<const OUT: usize, const ACC: usize> Logic for BitPacker<OUT, ACC> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, acc, acc_bits);
        self.data.next = self.acc.q.val().get_bits::<OUT>(0);
        self.data_valid.next = self.acc_bits.q.val() >= self.out_bits.val();
        self.emit.next = (self.acc_bits.q.val() >= self.out_bits.val()) & self.data_ready.val();
        if self.emit.val() {
            self.kept.next = self.acc.q.val() >> self.out_bits.val();
            self.kept_bits.next = self.acc_bits.q.val() - self.out_bits.val();
        } else {
            self.kept.next = self.acc.q.val();
            self.kept_bits.next = self.acc_bits.q.val();
        }
        // Room for a field after this clock's output, judged on the
        // registered count (two compares beside the subtraction).
        self.coeff_ready.next = (self.acc_bits.q.val() <= self.room.val())
            | (self.emit.val() & (self.acc_bits.q.val() <= self.room_before_output.val()));
        self.take.next = self.coeff_valid.val() & self.coeff_ready.val();
        // offset − c, lifted by q when negative.
        self.mapped.next =
            bit_cast::<24, 23>(self.offset.val()) - bit_cast::<24, 23>(self.coeff.val());
        self.lifted.next = self.mapped.val() + self.q24.val();
        if !self.centred.val() {
            self.field.next = bit_cast::<24, 23>(self.coeff.val());
        } else if self.mapped.val().get_bit(23) {
            self.field.next = self.lifted.val();
        } else {
            self.field.next = self.mapped.val();
        }
        // A take leaves at most `room` < 32 bits kept: a 5-bit shift.
        if self.take.val() {
            self.acc.d.next = self.kept.val()
                | (bit_cast::<ACC, 24>(
                    self.field.val() & ((self.one.val() << self.width.val()) - self.one.val()),
                ) << self.kept_bits.val().get_bits::<5>(0));
            self.acc_bits.d.next = self.kept_bits.val() + bit_cast::<7, 5>(self.width.val());
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
    /// bytes, the clocks, and whether `coeff_ready` ever fell.
    fn run<const OUT: usize, const ACC: usize>(
        uut: &mut BitPacker<OUT, ACC>,
        width: usize,
        centred: bool,
        offset: i32,
        coeffs: &[i32],
        stall: usize,
    ) -> (Vec<u8>, usize, bool) {
        uut.width.next = (width as u64).into();
        uut.centred.next = centred;
        uut.offset.next = (offset as u64).into();
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut out = Vec::new();
        let (mut next, mut clocks, mut refused) = (0, 0, false);
        while out.len() < 32 * width {
            assert!(clocks < 8 * N, "packer stalled");
            uut.coeff.next = (coeffs.get(next).copied().unwrap_or(0) as u64).into();
            uut.coeff_valid.next = next < coeffs.len();
            let sink = stall == 0 || clocks % stall != stall - 1;
            uut.data_ready.next = sink;
            settle(uut);
            if next < coeffs.len() {
                if uut.coeff_ready.val() {
                    next += 1;
                } else {
                    refused = true;
                }
            }
            if sink && uut.data_valid.val() {
                let word = uut.data.val().to_u64();
                out.extend((0..OUT / 8).map(|b| (word >> (8 * b)) as u8));
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
        }
        uut.coeff_valid.next = false;
        assert_eq!(next, coeffs.len());
        (out, clocks, refused)
    }

    /// Every ML-DSA field (width, centred, offset, largest |value|): t1,
    /// t0, s (η 2, 4), z (γ1 2^17, 2^19), w1 (6 and 4 bits).
    const FIELDS: [(usize, bool, i32, i32); 8] = [
        (10, false, 0, 1023),
        (13, true, 1 << 12, 1 << 12),
        (3, true, 2, 2),
        (4, true, 4, 4),
        (18, true, 1 << 17, (1 << 17) - 1),
        (20, true, 1 << 19, (1 << 19) - 1),
        (6, false, 0, 43),
        (4, false, 0, 15),
    ];

    /// Random coefficients whose field fits ([0, bound] raw, or [offset −
    /// 2^width + 1, offset] centred), canonical mod q, and their packing by
    /// `pqc`.
    fn field_case(rng: &mut Lcg, field: (usize, bool, i32, i32)) -> (Vec<i32>, Vec<u8>) {
        let (width, centred, offset, bound) = field;
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
        let mut want = vec![0u8; 32 * width];
        pack(width, &mut want, |i| {
            (if centred {
                offset - values[i]
            } else {
                values[i]
            }) as u32
        });
        (values.iter().map(|v| v.rem_euclid(Q)).collect(), want)
    }

    fn matches_pqc_for_every_field<const OUT: usize, const ACC: usize>(seed: u64) {
        let mut uut = BitPacker::<OUT, ACC>::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(seed);
        for (case, &field) in FIELDS.iter().enumerate() {
            let (width, centred, offset, _) = field;
            let (canonical, want) = field_case(&mut rng, field);
            let (got, _, _) = run(
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
    fn byte_packer_matches_pqc_for_every_ml_dsa_field() {
        matches_pqc_for_every_field::<8, 32>(17);
    }

    #[test]
    fn word_packer_matches_pqc_for_every_ml_dsa_field() {
        matches_pqc_for_every_field::<32, 51>(18);
    }

    /// With the sink always ready the word packer takes a coefficient
    /// every clock for every width (the key generation's STORE of t and the
    /// signature's STORE of z rely on it); the byte packer does not for
    /// widths above 8.
    #[test]
    fn word_packer_takes_a_coefficient_every_clock_with_a_ready_sink() {
        let mut word = WordPacker::default();
        word.connect_all();
        let mut byte = BytePacker::default();
        byte.connect_all();
        let mut rng = Lcg::new(19);
        for &field in &FIELDS {
            let (width, centred, offset, _) = field;
            let (canonical, want) = field_case(&mut rng, field);
            let (got, clocks, refused) = run(&mut word, width, centred, offset, &canonical, 0);
            assert_eq!(got, want, "width {width}");
            assert!(
                !refused,
                "width {width}: the word packer refused a coefficient"
            );
            // 256 coefficients, then the last word a clock later.
            assert_eq!(clocks, N + 1, "width {width}");
            let (got, _, refused) = run(&mut byte, width, centred, offset, &canonical, 0);
            assert_eq!(got, want, "width {width}");
            assert_eq!(refused, width > 8, "width {width}: byte packer");
        }
    }

    #[test]
    fn bit_packers_yosys_validate() {
        let mut uut = BytePacker::default();
        uut.connect_all();
        yosys_validate("mldsa_bit_pack", &generate_verilog(&uut)).unwrap();
        let mut uut = WordPacker::default();
        uut.connect_all();
        yosys_validate("mldsa_word_pack", &generate_verilog(&uut)).unwrap();
    }
}
