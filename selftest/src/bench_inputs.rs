//! The inputs of the benchmark tables, which the `sim` crate uses as well,
//! so the timing report's co-simulation and host runs do exactly the work
//! that QEMU or the board timed (for ML-DSA signing: the same rejection
//! attempts).

/// The message every benchmark signs, with an empty context.
pub const MESSAGE: &[u8] = b"ps-app benchmark message: 48 bytes of plain text";
/// ML-DSA key-generation seed ξ.
pub const MLDSA_SEED: [u8; 32] = [0x42; 32];
/// ML-DSA signing randomness: the deterministic variant.
pub const MLDSA_RND: [u8; 32] = [0; 32];
/// Every byte of the SLH-DSA seeds SK.seed ‖ SK.prf ‖ PK.seed; signing is
/// deterministic.
pub const SLH_SEED_BYTE: u8 = 0x24;
