//! The fuzz target bodies (`pqc/fuzz/src/lib.rs`) under plain `cargo test`:
//! seeded pseudo-random inputs and mutated valid signatures go through the
//! same decode + verify checks as `cargo fuzz run` (no panic, the right
//! error for malformed lengths, agreement with fips204/fips205, every
//! mutation rejected).
//!
//! Default: a few thousand inputs, well under a minute in release.
//! `PQC_FULL=1`: ten times more, and mutated-valid inputs on all twelve
//! SLH-DSA sets (the `s` sets take seconds to sign once).

#[path = "../fuzz/src/lib.rs"]
mod fuzz_bodies;

use fuzz_bodies::{mldsa_decode_verify, slhdsa_decode_verify};

fn full() -> bool {
    std::env::var("PQC_FULL").is_ok_and(|v| v == "1")
}

/// xorshift64*: reproducible inputs without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
    fn bytes(&mut self, max_len: usize) -> Vec<u8> {
        let len = self.next() as usize % (max_len + 1);
        (0..len).map(|_| self.byte()).collect()
    }
}

/// An input whose first byte(s) select the set and mode, then random bytes.
fn input(rng: &mut Rng, header: &[u8], max_len: usize) -> Vec<u8> {
    let mut data = header.to_vec();
    data.extend(rng.bytes(max_len));
    data
}

#[test]
fn mldsa_arbitrary_bytes() {
    let cases = if full() { 20_000 } else { 2_000 };
    let mut rng = Rng(0x6d6c_6473_6100_0001);
    for case in 0..cases {
        // Mode bit 0x80 clear: arbitrary mode; other bits random (wrong
        // lengths, long contexts).
        let mode = rng.byte() & 0x7f;
        let data = input(&mut rng, &[mode], 600);
        let result = std::panic::catch_unwind(|| mldsa_decode_verify(&data));
        assert!(result.is_ok(), "case {case}: input {}", hex::encode(&data));
    }
    // Empty and one-byte inputs.
    mldsa_decode_verify(&[]);
    for b in 0..=255u8 {
        mldsa_decode_verify(&[b & 0x7f]);
    }
}

#[test]
fn mldsa_mutated_valid_signatures_are_rejected() {
    let cases = if full() { 5_000 } else { 600 };
    let mut rng = Rng(0x6d6c_6473_6100_0002);
    for case in 0..cases {
        let set = (case % 3) as u8;
        let data = input(&mut rng, &[0x80 | set], 40);
        let result = std::panic::catch_unwind(|| mldsa_decode_verify(&data));
        assert!(result.is_ok(), "case {case}: input {}", hex::encode(&data));
    }
    // No mutation at all (count 1, xor 0): must verify.
    for set in 0..3u8 {
        mldsa_decode_verify(&[0x80 | set, 3, 0, 0, 0, 0]);
    }
}

#[test]
fn slhdsa_arbitrary_bytes() {
    let cases = if full() { 2_400 } else { 240 };
    let mut rng = Rng(0x736c_6864_7361_0001);
    for case in 0..cases {
        let selector = (case % 12) as u8;
        let mode = rng.byte() & 0x7f;
        let data = input(&mut rng, &[selector, mode], 600);
        let result = std::panic::catch_unwind(|| slhdsa_decode_verify(&data));
        assert!(result.is_ok(), "case {case}: input {}", hex::encode(&data));
    }
    slhdsa_decode_verify(&[]);
}

#[test]
fn slhdsa_mutated_valid_signatures_are_rejected() {
    // Set indices in params::ALL order: the `f` sets are 2, 3, 6, 7, 10, 11.
    let sets: Vec<u8> = if full() {
        (0..12).collect()
    } else {
        vec![2, 3, 6, 7, 10, 11]
    };
    let per_set = if full() { 100 } else { 20 };
    let mut rng = Rng(0x736c_6864_7361_0002);
    for &set in &sets {
        slhdsa_decode_verify(&[set, 0x80, 0, 0, 0, 0, 0]);
        for case in 0..per_set {
            let data = input(&mut rng, &[set, 0x80], 40);
            let result = std::panic::catch_unwind(|| slhdsa_decode_verify(&data));
            assert!(
                result.is_ok(),
                "set {set} case {case}: input {}",
                hex::encode(&data)
            );
        }
    }
}
