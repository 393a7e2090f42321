//! Post-quantum signatures for a hardware–software co-design.
//!
//! The protocol code (ML-DSA, SLH-DSA) never calls a primitive directly: the
//! heavy work goes through backend traits ([`ring::RingBackend`],
//! [`keccak::KeccakBackend`]) that a software implementation or a
//! bus-attached accelerator implements. The traits take whole polynomials,
//! vectors and XOF requests so that a hardware backend pays one bus round trip
//! per unit of work, not per butterfly or per permutation.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod keccak;
pub mod mldsa;
pub mod prehash;
pub mod ring;
pub mod slhdsa;

pub use error::{Error, Result};
