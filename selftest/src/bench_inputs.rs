//! The inputs of the benchmark tables, which the `sim` crate uses as well,
//! so the timing report's co-simulation and host runs do exactly the work
//! that QEMU or the board timed (for ML-DSA signing: the same rejection
//! attempts).

/// The message every benchmark signs, with an empty context.
pub const MESSAGE: &[u8] = b"ps-app benchmark message: 48 bytes of plain text";
/// How many messages an ML-DSA sign row signs: its figure is the mean
/// over them, since the rejection loop's attempts vary with the message
/// (FIPS 204 expects 4.25 / 5.1 / 3.85 for ML-DSA-44 / 65 / 87).
pub const SIGN_MESSAGES: u32 = 32;

/// Message `index` (taken modulo [`SIGN_MESSAGES`]) of an ML-DSA sign row:
/// message 0 is [`MESSAGE`]; message i > 0 is [`MESSAGE`] with its last
/// two bytes replaced by the two lowercase hex digits of i.
pub fn sign_message(index: u32) -> [u8; MESSAGE.len()] {
    let mut m = [0; MESSAGE.len()];
    m.copy_from_slice(MESSAGE);
    let i = index % SIGN_MESSAGES;
    if i != 0 {
        let hex = b"0123456789abcdef";
        m[MESSAGE.len() - 2] = hex[(i >> 4) as usize];
        m[MESSAGE.len() - 1] = hex[(i & 15) as usize];
    }
    m
}

/// The message iteration `k` of a sign row of `iterations` signs, so the
/// row's last signature is of [`MESSAGE`] when `iterations` is a multiple
/// of [`SIGN_MESSAGES`] (the verify row checks that signature).
pub fn sign_row_message(k: u32) -> [u8; MESSAGE.len()] {
    sign_message(k.wrapping_add(1))
}

/// Signatures in a sign row asked to run `iterations` times: the next
/// multiple of [`SIGN_MESSAGES`], so every message is signed equally often.
pub const fn sign_row_iterations(iterations: u32) -> u32 {
    iterations.div_ceil(SIGN_MESSAGES) * SIGN_MESSAGES
}

/// ML-DSA key-generation seed ξ.
pub const MLDSA_SEED: [u8; 32] = [0x42; 32];
/// ML-DSA signing randomness: the deterministic variant.
pub const MLDSA_RND: [u8; 32] = [0; 32];
/// Every byte of the SLH-DSA seeds SK.seed ‖ SK.prf ‖ PK.seed; signing is
/// deterministic.
pub const SLH_SEED_BYTE: u8 = 0x24;

/// The SLH-DSA sets of the firmware benchmark tables: the four of
/// category 1, or all twelve with the `bench-every-slhdsa-set` feature
/// (opt-in: the s sets of categories 3 and 5 sign for minutes of QEMU).
#[cfg(not(feature = "bench-every-slhdsa-set"))]
pub const SLH_TABLE: &[&pqc::slhdsa::Params] = &[
    &pqc::slhdsa::params::SHAKE_128F,
    &pqc::slhdsa::params::SHA2_128F,
    &pqc::slhdsa::params::SHAKE_128S,
    &pqc::slhdsa::params::SHA2_128S,
];
/// The SLH-DSA sets of the firmware benchmark tables: every set (the
/// `bench-every-slhdsa-set` feature).
#[cfg(feature = "bench-every-slhdsa-set")]
pub const SLH_TABLE: &[&pqc::slhdsa::Params] = &pqc::slhdsa::params::ALL;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_messages_are_distinct_and_a_row_ends_on_message() {
        let all: [_; SIGN_MESSAGES as usize] = core::array::from_fn(|i| sign_message(i as u32));
        for (i, m) in all.iter().enumerate() {
            assert_eq!(m.len(), MESSAGE.len());
            assert!(all[..i].iter().all(|o| o != m), "message {i} repeats");
        }
        assert_eq!(&all[0][..], MESSAGE);
        assert_eq!(&all[31][MESSAGE.len() - 2..], b"1f");
        assert_eq!(sign_message(SIGN_MESSAGES + 3), all[3]);
        for asked in [1, 10, 32, 33] {
            let n = sign_row_iterations(asked);
            assert!(n >= asked && n % SIGN_MESSAGES == 0);
            assert_eq!(&sign_row_message(n - 1)[..], MESSAGE);
        }
    }
}
