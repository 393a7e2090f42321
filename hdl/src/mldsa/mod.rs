//! Building blocks of the ML-DSA engine (issue "ML-DSA engine in the PL"),
//! each small and tested alone against `pqc` before they are composed:
//!
//! - [`decompose`]: Decompose / HighBits / LowBits (FIPS 204 Algorithm 36)
//!   with UseHint (Algorithm 40), one coefficient per clock.
//! - [`power2round`]: Power2Round (Algorithm 35), one coefficient per clock.
//! - [`coeffwise`]: add/subtract mod q, the infinity-norm check, MakeHint.
//! - [`bit_unpack`]: Simple/BitUnpack of every packed polynomial, and
//!   ExpandMask's sampler.
//! - [`rej_ntt`]: RejNTTPoly's acceptance on a SHAKE128 byte stream (ExpandA).
//! - [`rej_bounded`]: RejBoundedPoly's acceptance on a SHAKE256 byte stream
//!   (ExpandS), one nibble per clock.
//! - [`sample_in_ball`]: SampleInBall, one byte per clock, c held in
//!   registers so the swap costs the same for every position.
//!
//! Each has a simulation test against `pqc::mldsa::arith`, a yosys check,
//! and a Verilator cross-check of its exported Verilog ([`verilator_check`]).

pub mod bit_unpack;
pub mod coeffwise;
pub mod decompose;
pub mod power2round;
pub mod rej_bounded;
pub mod rej_ntt;
pub mod sample_in_ball;
pub mod verilator_check;
