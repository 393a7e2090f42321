//! The three ML-DSA parameter sets (FIPS 204 Table 1), each defined once.
//! Every size and bound used elsewhere is derived from these numbers.

use crate::ring::{N, Q};

/// Number of dropped bits of t (FIPS 204 `d`).
pub const D: u32 = 13;

/// One ML-DSA parameter set (FIPS 204 Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Name as FIPS 204 spells it, e.g. `"ML-DSA-44"`.
    pub name: &'static str,
    /// Rows of Â (length of s2, t, w).
    pub k: usize,
    /// Columns of Â (length of s1, y, z).
    pub l: usize,
    /// Secret coefficient bound η.
    pub eta: i32,
    /// Number of ±1 coefficients of the challenge c.
    pub tau: usize,
    /// Collision strength λ in bits; the commitment hash c̃ has λ/4 bytes.
    pub lambda: usize,
    /// Mask coefficient range γ1.
    pub gamma1: i32,
    /// Low-order rounding range γ2.
    pub gamma2: i32,
    /// Maximum number of 1s in the hint h.
    pub omega: usize,
}

/// ML-DSA-44 (NIST security category 2).
pub const ML_DSA_44: Params = Params {
    name: "ML-DSA-44",
    k: 4,
    l: 4,
    eta: 2,
    tau: 39,
    lambda: 128,
    gamma1: 1 << 17,
    gamma2: (Q - 1) / 88,
    omega: 80,
};

/// ML-DSA-65 (NIST security category 3).
pub const ML_DSA_65: Params = Params {
    name: "ML-DSA-65",
    k: 6,
    l: 5,
    eta: 4,
    tau: 49,
    lambda: 192,
    gamma1: 1 << 19,
    gamma2: (Q - 1) / 32,
    omega: 55,
};

/// ML-DSA-87 (NIST security category 5).
pub const ML_DSA_87: Params = Params {
    name: "ML-DSA-87",
    k: 8,
    l: 7,
    eta: 2,
    tau: 60,
    lambda: 256,
    gamma1: 1 << 19,
    gamma2: (Q - 1) / 32,
    omega: 75,
};

const fn bitlen(x: u32) -> usize {
    (32 - x.leading_zeros()) as usize
}

impl Params {
    /// β = τ·η.
    pub const fn beta(&self) -> i32 {
        self.tau as i32 * self.eta
    }
    /// Bytes of c̃ (λ/4).
    pub const fn ctilde_bytes(&self) -> usize {
        self.lambda / 4
    }
    /// Bits per coefficient of s1, s2 in the secret key: bitlen(2η).
    pub const fn eta_bits(&self) -> usize {
        bitlen(2 * self.eta as u32)
    }
    /// Bits per coefficient of z (and y): 1 + bitlen(γ1 − 1).
    pub const fn gamma1_bits(&self) -> usize {
        1 + bitlen(self.gamma1 as u32 - 1)
    }
    /// Bits per coefficient of w1: bitlen((q − 1)/(2γ2) − 1).
    pub const fn w1_bits(&self) -> usize {
        bitlen(((Q - 1) / (2 * self.gamma2) - 1) as u32)
    }
    /// Bytes of one packed polynomial with `bits` bits per coefficient.
    pub const fn poly_bytes(bits: usize) -> usize {
        N * bits / 8
    }
    /// Public key length: ρ ‖ t1 (10 bits per coefficient).
    pub const fn pk_len(&self) -> usize {
        32 + self.k * Self::poly_bytes(23 - D as usize)
    }
    /// Secret key length: ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0.
    pub const fn sk_len(&self) -> usize {
        32 + 32
            + 64
            + (self.k + self.l) * Self::poly_bytes(self.eta_bits())
            + self.k * Self::poly_bytes(D as usize)
    }
    /// Signature length: c̃ ‖ z ‖ h.
    pub const fn sig_len(&self) -> usize {
        self.ctilde_bytes() + self.l * Self::poly_bytes(self.gamma1_bits()) + self.omega + self.k
    }
    /// Bytes of the packed w1 vector hashed into c̃.
    pub const fn w1_packed_len(&self) -> usize {
        self.k * Self::poly_bytes(self.w1_bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_fips204_table2() {
        assert_eq!(
            (ML_DSA_44.pk_len(), ML_DSA_44.sk_len(), ML_DSA_44.sig_len()),
            (1312, 2560, 2420)
        );
        assert_eq!(
            (ML_DSA_65.pk_len(), ML_DSA_65.sk_len(), ML_DSA_65.sig_len()),
            (1952, 4032, 3309)
        );
        assert_eq!(
            (ML_DSA_87.pk_len(), ML_DSA_87.sk_len(), ML_DSA_87.sig_len()),
            (2592, 4896, 4627)
        );
        assert_eq!(
            (ML_DSA_44.beta(), ML_DSA_65.beta(), ML_DSA_87.beta()),
            (78, 196, 120)
        );
        assert_eq!((ML_DSA_44.w1_bits(), ML_DSA_65.w1_bits()), (6, 4));
        assert_eq!((ML_DSA_44.eta_bits(), ML_DSA_65.eta_bits()), (3, 4));
        assert_eq!((ML_DSA_44.gamma1_bits(), ML_DSA_87.gamma1_bits()), (18, 20));
    }
}
