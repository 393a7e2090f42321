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

/// The SLH-DSA sets of the firmware benchmark tables.
pub const SLH_TABLE: [&pqc::slhdsa::Params; 4] = [
    &pqc::slhdsa::params::SHAKE_128F,
    &pqc::slhdsa::params::SHA2_128F,
    &pqc::slhdsa::params::SHAKE_128S,
    &pqc::slhdsa::params::SHA2_128S,
];

/// Iterations per benchmark row, fixed when a firmware is built.
#[derive(Clone, Copy, Debug)]
pub struct Iterations {
    /// Per ML-DSA row.
    pub mldsa: u32,
    /// Per SLH-DSA row.
    pub slhdsa: u32,
}

/// An iteration count from a build-time environment variable (the
/// firmware passes `option_env!(…)`), or `default` when it is unset.
/// Fails the build on anything but a positive decimal number.
pub const fn parse_iterations(text: Option<&str>, default: u32) -> u32 {
    let Some(text) = text else { return default };
    let bytes = text.as_bytes();
    let mut value = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i].is_ascii_digit(), "iteration count must be decimal");
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    assert!(value > 0, "iteration count must be at least 1");
    value
}
