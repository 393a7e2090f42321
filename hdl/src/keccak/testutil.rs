//! Deterministic test inputs (no extra dependency), and the switch to
//! the exhaustive runs.

/// `PQC_FULL=1`: run the exhaustive variants of the tests.
pub(crate) fn full_run() -> bool {
    std::env::var_os("PQC_FULL").is_some_and(|v| v == "1")
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small, well-mixed 64-bit generator.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `0..bound`.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}
