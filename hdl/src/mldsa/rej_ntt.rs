//! RejNTTPoly's acceptance (FIPS 204 Algorithm 30): a SHAKE128 byte stream
//! in, one byte per clock, candidates `t = b0 + 2^8·b1 + 2^16·(b2 mod 128)`
//! out, valid when `t < q`. The stream comes from the Keccak engine inside
//! the PL; which candidates are rejected depends only on ρ (public), so the
//! cycle count of an ExpandA entry is public, as FIPS 204 allows.
//!
//! Latency 1: a coefficient is valid the clock after its third byte.

use rust_hdl::prelude::*;

/// The RejNTTPoly sampler.
#[derive(LogicBlock)]
pub struct RejNttSampler {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the next byte starts a new group of three.
    pub reset: Signal<In, Bit>,
    /// The next byte of the XOF stream.
    pub data: Signal<In, Bits<8>>,
    /// `data` is valid this clock.
    pub data_valid: Signal<In, Bit>,
    /// The accepted coefficient (below q).
    pub coeff: Signal<Out, Bits<23>>,
    /// `coeff` is valid this clock.
    pub coeff_valid: Signal<Out, Bit>,
    phase: DFF<Bits<2>>,
    b0: DFF<Bits<8>>,
    b1: DFF<Bits<8>>,
    out: DFF<Bits<23>>,
    out_valid: DFF<Bit>,
    candidate: Signal<Local, Bits<23>>,
    q23: Constant<Bits<23>>,
}

impl Default for RejNttSampler {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            data: Default::default(),
            data_valid: Default::default(),
            coeff: Default::default(),
            coeff_valid: Default::default(),
            phase: Default::default(),
            b0: Default::default(),
            b1: Default::default(),
            out: Default::default(),
            out_valid: Default::default(),
            candidate: Default::default(),
            q23: Constant::new((pqc::ring::Q as u64).into()),
        }
    }
}

impl Logic for RejNttSampler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, b0, b1, out, out_valid);
        self.candidate.next = bit_cast::<23, 8>(self.b0.q.val())
            | (bit_cast::<23, 8>(self.b1.q.val()) << 8)
            | (bit_cast::<23, 7>(self.data.val().get_bits::<7>(0)) << 16);
        self.out_valid.d.next = false;
        self.out.d.next = self.candidate.val();
        if self.data_valid.val() {
            if self.phase.q.val() == 0 {
                self.b0.d.next = self.data.val();
                self.phase.d.next = 1.into();
            } else if self.phase.q.val() == 1 {
                self.b1.d.next = self.data.val();
                self.phase.d.next = 2.into();
            } else {
                self.phase.d.next = 0.into();
                self.out_valid.d.next = self.candidate.val() < self.q23.val();
            }
        }
        if self.reset.val() {
            self.phase.d.next = 0.into();
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

    /// Runs the sampler over the SHAKE128 stream of Â[row][col] until it
    /// accepted N coefficients; returns them and the bytes consumed.
    fn sample(uut: &mut RejNttSampler, rho: &[u8; 32], row: u8, col: u8) -> (Vec<i32>, usize) {
        let mut stream = vec![0u8; 3 * 168 * 8];
        SoftKeccak.sponge(SpongeMode::Shake128, &[rho, &[col, row]], &mut stream);
        uut.reset.next = true;
        tick(uut, |u| &mut u.clock);
        uut.reset.next = false;
        let mut got = Vec::new();
        let mut used = 0;
        for &b in &stream {
            uut.data.next = (b as u64).into();
            uut.data_valid.next = true;
            tick(uut, |u| &mut u.clock);
            used += 1;
            if uut.coeff_valid.val() {
                got.push(uut.coeff.val().to_u64() as i32);
                if got.len() == N {
                    break;
                }
            }
        }
        uut.data_valid.next = false;
        (got, used)
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
            let (got, used) = sample(&mut uut, &rho, row as u8, col as u8);
            assert_eq!(got.len(), N, "case {case}: stream too short");
            assert_eq!(got, want.to_vec(), "case {case}");
            // Whole groups of three bytes, at least one per coefficient.
            assert!(used % 3 == 0 && used >= 3 * N, "{used}");
        }
    }

    #[test]
    fn rej_ntt_sampler_yosys_validates() {
        let mut uut = RejNttSampler::default();
        uut.connect_all();
        yosys_validate("mldsa_rej_ntt", &generate_verilog(&uut)).unwrap();
    }
}
