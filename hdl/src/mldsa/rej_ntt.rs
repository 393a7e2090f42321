//! RejNTTPoly's acceptance (FIPS 204 Algorithm 30): the SHAKE128 stream in
//! as the Keccak engine gives it (32-bit little-endian words), one
//! candidate `t = b0 + 2^8·b1 + 2^16·(b2 mod 128)` examined per clock, and
//! the candidates below q out. Which candidates are rejected depends only
//! on ρ (public), so the cycle count of an ExpandA entry is public, as
//! FIPS 204 allows.
//!
//! A 6-byte buffer holds the stream bytes not yet used: each clock takes
//! three of them when it has three, and a word when at most two remain, so
//! a stream of 3 words per 4 clocks gives a candidate every clock.
//! Latency 1: a coefficient is valid the clock after its candidate is
//! examined.

use rust_hdl::prelude::*;

/// The RejNTTPoly sampler.
#[derive(LogicBlock)]
pub struct RejNttSampler {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the buffer is emptied (a new polynomial).
    pub reset: Signal<In, Bit>,
    /// The next four bytes of the XOF stream, first byte in bits 0..8.
    pub word: Signal<In, Bits<32>>,
    /// `word` is valid this clock.
    pub word_valid: Signal<In, Bit>,
    /// The sampler takes `word` this clock.
    pub word_ready: Signal<Out, Bit>,
    /// The accepted coefficient (below q).
    pub coeff: Signal<Out, Bits<23>>,
    /// `coeff` is valid this clock.
    pub coeff_valid: Signal<Out, Bit>,
    buffer: DFF<Bits<48>>,
    count: DFF<Bits<3>>,
    out: DFF<Bits<23>>,
    out_valid: DFF<Bit>,
    examine: Signal<Local, Bit>,
    rest: Signal<Local, Bits<48>>,
    rest_count: Signal<Local, Bits<3>>,
    take: Signal<Local, Bit>,
    incoming: Signal<Local, Bits<48>>,
    candidate: Signal<Local, Bits<23>>,
    q23: Constant<Bits<23>>,
}

impl Default for RejNttSampler {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            word: Default::default(),
            word_valid: Default::default(),
            word_ready: Default::default(),
            coeff: Default::default(),
            coeff_valid: Default::default(),
            buffer: Default::default(),
            count: Default::default(),
            out: Default::default(),
            out_valid: Default::default(),
            examine: Default::default(),
            rest: Default::default(),
            rest_count: Default::default(),
            take: Default::default(),
            incoming: Default::default(),
            candidate: Default::default(),
            q23: Constant::new((pqc::ring::Q as u64).into()),
        }
    }
}

impl Logic for RejNttSampler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, buffer, count, out, out_valid);
        // Bits 0..23 of the buffer are b0, b1 and b2 mod 128.
        self.candidate.next = self.buffer.q.val().get_bits::<23>(0);
        self.examine.next = self.count.q.val() >= 3;
        if self.examine.val() {
            self.rest.next = self.buffer.q.val() >> 24;
            self.rest_count.next = self.count.q.val() - 3;
        } else {
            self.rest.next = self.buffer.q.val();
            self.rest_count.next = self.count.q.val();
        }
        self.word_ready.next = self.rest_count.val() <= 2;
        self.take.next = self.word_valid.val() & (self.rest_count.val() <= 2);
        // The word lands after the bytes kept: at byte 0, 1 or 2.
        if self.rest_count.val() == 0 {
            self.incoming.next = bit_cast::<48, 32>(self.word.val());
        } else if self.rest_count.val() == 1 {
            self.incoming.next = bit_cast::<48, 32>(self.word.val()) << 8;
        } else {
            self.incoming.next = bit_cast::<48, 32>(self.word.val()) << 16;
        }
        if self.take.val() {
            self.buffer.d.next = self.rest.val() | self.incoming.val();
            self.count.d.next = self.rest_count.val() + 4;
        } else {
            self.buffer.d.next = self.rest.val();
            self.count.d.next = self.rest_count.val();
        }
        self.out.d.next = self.candidate.val();
        self.out_valid.d.next = self.examine.val() & (self.candidate.val() < self.q23.val());
        // Bytes above `count` must be zero for the OR above: clear them too.
        if self.reset.val() {
            self.buffer.d.next = 0.into();
            self.count.d.next = 0.into();
            self.out_valid.d.next = false;
        }
        self.coeff.next = self.out.q.val();
        self.coeff_valid.next = self.out_valid.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::{settle, tick, Lcg};
    use pqc::keccak::{KeccakBackend, SoftKeccak, SpongeMode};
    use pqc::mldsa::sample::expand_a_entry;
    use pqc::ring::N;

    /// Runs the sampler over the SHAKE128 stream of Â[row][col] as 32-bit
    /// words, offering a word on every clock but every `stall`-th, until it
    /// accepted N coefficients; returns them, the words taken and the
    /// clocks.
    fn sample(
        uut: &mut RejNttSampler,
        rho: &[u8; 32],
        row: u8,
        col: u8,
        stall: usize,
    ) -> (Vec<i32>, usize, usize) {
        let mut stream = vec![0u8; 168 * 8];
        SoftKeccak.sponge(SpongeMode::Shake128, &[rho, &[col, row]], &mut stream);
        let words: Vec<u32> = stream
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut got = Vec::new();
        let (mut next, mut clocks) = (0, 0);
        while got.len() < N {
            assert!(next < words.len(), "stream too short");
            let offer = stall == 0 || clocks % stall != stall - 1;
            uut.word.next = (words[next] as u64).into();
            uut.word_valid.next = offer;
            settle(uut);
            if offer && uut.word_ready.val() {
                next += 1;
            }
            tick(uut, |u| &mut u.clock);
            clocks += 1;
            if uut.coeff_valid.val() {
                got.push(uut.coeff.val().to_u64() as i32);
            }
        }
        uut.word_valid.next = false;
        (got, next, clocks)
    }

    /// 3-byte candidates software examines until N are accepted.
    fn candidates(rho: &[u8; 32], row: u8, col: u8) -> usize {
        let mut stream = vec![0u8; 168 * 8];
        SoftKeccak.sponge(SpongeMode::Shake128, &[rho, &[col, row]], &mut stream);
        let mut accepted = 0;
        1 + stream
            .chunks_exact(3)
            .position(|c| {
                let t = u32::from(c[0]) | u32::from(c[1]) << 8 | u32::from(c[2] & 0x7F) << 16;
                accepted += usize::from(t < pqc::ring::Q as u32);
                accepted == N
            })
            .expect("stream long enough")
    }

    #[test]
    fn rej_ntt_sampler_reproduces_expand_a_entries() {
        let mut uut = RejNttSampler::default();
        uut.connect_all();
        settle(&mut uut);
        let mut rng = Lcg::new(30);
        for case in 0..12 {
            let rho: [u8; 32] = core::array::from_fn(|_| rng.coeff() as u8);
            let (row, col) = (case % 8, case / 3);
            let mut want = [0i32; N];
            expand_a_entry(&mut SoftKeccak, &rho, row, col, &mut want);
            let (got, words, clocks) =
                sample(&mut uut, &rho, row as u8, col as u8, [0, 2, 3][case % 3]);
            assert_eq!(got, want.to_vec(), "case {case}");
            assert!(4 * words >= 3 * N, "{words} words");
            if case % 3 == 0 {
                // Unstalled: one candidate a clock, after the clock that
                // takes the first word.
                assert_eq!(
                    clocks,
                    1 + candidates(&rho, row as u8, col as u8),
                    "case {case}"
                );
            }
        }
    }

    #[test]
    fn rej_ntt_sampler_rejects_candidates_at_and_above_q() {
        let mut uut = RejNttSampler::default();
        uut.connect_all();
        settle(&mut uut);
        // Candidates q − 1, q, 2^23 − 1 (b2's top bit is dropped: 0xFF → 0x7F)
        // and 0, packed into four words of little-endian 3-byte groups.
        let q = pqc::ring::Q as u32;
        let bytes: Vec<u8> = [q - 1, q, 0xFF_FFFF, 0]
            .iter()
            .flat_map(|t| t.to_le_bytes()[..3].to_vec())
            .collect();
        let mut got = Vec::new();
        for w in bytes.chunks_exact(4) {
            uut.word.next = (u32::from_le_bytes(w.try_into().unwrap()) as u64).into();
            uut.word_valid.next = true;
            tick(&mut uut, |u| &mut u.clock);
            if uut.coeff_valid.val() {
                got.push(uut.coeff.val().to_u64());
            }
        }
        uut.word_valid.next = false;
        for _ in 0..3 {
            tick(&mut uut, |u| &mut u.clock);
            if uut.coeff_valid.val() {
                got.push(uut.coeff.val().to_u64());
            }
        }
        assert_eq!(got, vec![u64::from(q - 1), 0]);
    }

    #[test]
    fn rej_ntt_sampler_yosys_validates() {
        let mut uut = RejNttSampler::default();
        uut.connect_all();
        yosys_validate("mldsa_rej_ntt", &generate_verilog(&uut)).unwrap();
    }
}
