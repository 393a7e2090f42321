//! Building blocks of the ML-DSA engine (issue "ML-DSA engine in the PL"),
//! each small and tested alone against `pqc` before they are composed:
//!
//! - [`decompose`]: Decompose / HighBits / LowBits (FIPS 204 Algorithm 36)
//!   with UseHint (Algorithm 40), one coefficient per clock.
//! - [`power2round`]: Power2Round (Algorithm 35), one coefficient per clock.
//! - [`coeffwise`]: add/subtract mod q, the infinity-norm check, MakeHint.
//! - [`expand_a`]: one ExpandA entry in the PL, the sponge engine squeezing
//!   straight into the RejNTTPoly sampler (the first composed block).
//! - [`keygen`]: KeyGen_internal for all three sets behind one command,
//!   composed of the units here, the sponge engine and the NTT core.
//! - [`sign`]: Sign_internal with its whole rejection loop, the same way.
//! - [`verify`]: Verify_internal, the same way.
//! - [`engine`]: the three sequencers on one shared sponge engine and NTT
//!   core.
//! - [`key_buffer`]: byte-lane key buffers (pk, sk) in block RAM.
//! - [`poly_memory`]: whole polynomials in block RAM, banked like the NTT
//!   core, moved to and from a core slot a row (8 coefficients) a clock.
//! - [`bit_pack`]: Simple/BitPack of every polynomial the engine writes.
//! - [`bit_unpack`]: Simple/BitUnpack of every packed polynomial, and
//!   ExpandMask's sampler.
//! - [`matrix_sampler`]: ExpandA into the polynomial memory's sampling
//!   ring through the shared sponge, with the ring's accounting; each
//!   sequencer has one.
//! - [`rej_ntt`]: RejNTTPoly's acceptance on the SHAKE128 word stream (ExpandA),
//!   one candidate per clock.
//! - [`rej_bounded`]: RejBoundedPoly's acceptance on a SHAKE256 byte stream
//!   (ExpandS), one byte per clock, the accepted values queued out one a
//!   clock.
//! - [`word_fifo`]: the queue between the sponge's output and the
//!   sequencers, so the sponge permutes while a sampler works.
//! - [`hint_codec`]: HintBitPack / HintBitUnpack of the signature's hint
//!   field, one hint bit per clock, with every malformed-encoding check.
//! - [`sample_in_ball`]: SampleInBall, one byte per clock, c held in
//!   registers so the swap costs the same for every position.
//!
//! Each has a simulation test against `pqc::mldsa::arith`, a yosys check,
//! and a Verilator cross-check of its exported Verilog ([`verilator_check`]).

pub mod bit_pack;
pub mod bit_unpack;
pub mod coeffwise;
pub mod decompose;
pub mod engine;
pub mod expand_a;
pub mod hint_codec;
pub mod key_buffer;
pub mod keygen;
pub mod matrix_sampler;
pub mod poly_memory;
pub mod power2round;
pub mod rej_bounded;
pub mod rej_ntt;
pub mod sample_in_ball;
pub mod sign;
#[cfg(test)]
pub(crate) mod sign_tests;
pub mod verify;
#[cfg(test)]
pub(crate) mod verify_tests;
pub mod verilator_check;
pub mod word_fifo;

use crate::export::{raw_verilog, Design};
use rust_hdl::prelude::{Bits, Constant};

/// A rust-hdl constant of any width (the sequencers' values all fit).
pub(crate) fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

/// The ML-DSA units of the `hdl` tool's registry: each one alone, so each
/// has its own yosys resource and timing rows.
pub fn designs() -> Vec<Design> {
    vec![
        Design {
            name: "mldsa_decompose",
            description: "ML-DSA Decompose/HighBits/LowBits + UseHint, 1 coefficient a clock",
            verilog: || raw_verilog(decompose::Decompose::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_power2round",
            description: "ML-DSA Power2Round, 1 coefficient a clock",
            verilog: || raw_verilog(power2round::Power2Round::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_mod_add_sub",
            description: "ML-DSA a ± b mod q, 1 coefficient a clock",
            verilog: || raw_verilog(coeffwise::ModAddSub::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_inf_norm_check",
            description: "ML-DSA infinity-norm check against a bound, 1 coefficient a clock",
            verilog: || raw_verilog(coeffwise::InfNormCheck::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_make_hint",
            description: "ML-DSA MakeHint, 1 coefficient a clock",
            verilog: || raw_verilog(coeffwise::MakeHint::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_rej_ntt",
            description:
                "ML-DSA RejNTTPoly acceptance (ExpandA), 1 candidate a clock from 32-bit words",
            verilog: || raw_verilog(rej_ntt::RejNttSampler::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_rej_bounded",
            description: "ML-DSA RejBoundedPoly acceptance (ExpandS), 1 byte a clock in, a 256-entry queue, 1 coefficient a clock out",
            verilog: || raw_verilog(rej_bounded::RejBoundedSampler::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_matrix_sampler",
            description: "ML-DSA ExpandA into the sampling ring: RejNTTPoly on the shared sponge, 1 candidate a clock, the ring's slot accounting",
            verilog: || raw_verilog(matrix_sampler::MatrixSampler::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_sample_in_ball",
            description: "ML-DSA SampleInBall, c in registers, 1 byte a clock",
            verilog: || raw_verilog(sample_in_ball::SampleInBall::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_expand_a",
            description: "ML-DSA ExpandA entry: 1-round Keccak sponge engine feeding RejNTTPoly",
            verilog: || raw_verilog(expand_a::ExpandAEntry::<1>::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_engine",
            description: "ML-DSA engine: KeyGen, Sign and Verify sequencers sharing one sponge (R = 1) and one NTT core (B = 4); samplers (beside the core, through a sampling ring), packers, Decompose/MakeHint/UseHint, key/signature buffers, the w memory and a 96-polynomial memory on the core's row port",
            verilog: || raw_verilog(engine::MlDsaEngine::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_poly_memory",
            description: "ML-DSA polynomial memory: 96 polynomials in 8 block-RAM banks (6 pages), a row of 8 coefficients a clock to and from the NTT core; a sampling ring (its own 8 RAMB18) written a coefficient a clock",
            verilog: || raw_verilog(poly_memory::PolyRowMemory::<6, 48>::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_bit_pack",
            description: "ML-DSA bit packer to bytes (w1), up to 1 coefficient or 1 byte a clock",
            verilog: || raw_verilog(bit_pack::BytePacker::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_word_pack",
            description: "ML-DSA bit packer to 32-bit words (t1, t0, s, z), 1 coefficient a clock",
            verilog: || raw_verilog(bit_pack::WordPacker::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_bit_unpack",
            description:
                "ML-DSA bit unpacker (t1, t0, s, z, ExpandMask), up to 1 coefficient a clock",
            verilog: || raw_verilog(bit_unpack::BitUnpacker::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_hint_pack",
            description: "ML-DSA HintBitPack: 1 hint bit a clock in, ω + k bytes out",
            verilog: || raw_verilog(hint_codec::HintPacker::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_hint_unpack",
            description:
                "ML-DSA HintBitUnpack with the malformed checks: ω + k bytes in, 1 hint bit a clock out",
            verilog: || raw_verilog(hint_codec::HintUnpacker::default()),
            vcd: None,
        },
        Design {
            name: "mldsa_word_fifo",
            description: "ML-DSA sponge-output FIFO: 16 words, first word falls through, synchronous flush",
            verilog: || raw_verilog(word_fifo::SpongeOutFifo::default()),
            vcd: None,
        },
    ]
}

#[cfg(test)]
mod tests {
    /// Every unit meets the PL tops' cell-delay budget on its own, so the
    /// engine composed of them can (its tops are held to it: `engines_accel`
    /// by `pl_tops_meet_the_cell_delay_budget`, `mldsa_accel` by
    /// `standalone_tops_meet_the_cell_delay_budget` with `PQC_FULL=1`). The
    /// engine itself is timed inside those tops (each holds all of it): yosys 0.23's ABC
    /// aborts (SIGABRT) in `synth_xilinx -abc9` on `mldsa_engine` alone
    /// since Sign was added, while the top synthesises and times.
    #[test]
    fn mldsa_units_meet_the_cell_delay_budget() {
        let units: Vec<_> = super::designs()
            .into_iter()
            .filter(|d| d.name != "mldsa_engine")
            .collect();
        crate::export::assert_designs_meet_cell_delay_budget(&units);
    }
}
