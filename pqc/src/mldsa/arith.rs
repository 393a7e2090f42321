//! Coefficient-level arithmetic of FIPS 204 §7.4 (Power2Round, Decompose,
//! MakeHint, UseHint) and norm checks. Everything that touches secret data
//! is branch-free: comparisons become masks via arithmetic shifts.

use super::params::D;
use crate::ring::Q;

/// Canonical `[0, q)` → centred `(−(q−1)/2, (q−1)/2]`, branch-free.
#[inline(always)]
pub fn center(x: i32) -> i32 {
    x - (((Q - 1) / 2 - x) >> 31 & Q)
}

/// Centred (|x| < q) → canonical `[0, q)`, branch-free.
#[inline(always)]
pub fn canonical(x: i32) -> i32 {
    x + ((x >> 31) & Q)
}

/// 1 if |x| ≥ bound else 0, branch-free, for |x| < 2^31 and 0 < bound.
#[inline(always)]
pub fn exceeds(x: i32, bound: i32) -> u32 {
    let m = x >> 31;
    let abs = (x ^ m) - m;
    (((bound - 1 - abs) >> 31) & 1) as u32
}

/// Power2Round (Algorithm 35) of a canonical t: (t1, t0) with t = t1·2^d + t0,
/// t0 in (−2^(d−1), 2^(d−1)].
#[inline(always)]
pub fn power2round(t: i32) -> (i32, i32) {
    let t1 = (t + (1 << (D - 1)) - 1) >> D;
    (t1, t - (t1 << D))
}

/// Decompose (Algorithm 36) of a canonical r: (r1, r0) with r ≡ r1·2γ2 + r0,
/// r0 centred in (−γ2, γ2] (or the q−1 corner case mapped to r1 = 0, r0 − 1).
/// Branch-free: the γ2 selection is on a public parameter.
#[inline(always)]
pub fn decompose(r: i32, gamma2: i32) -> (i32, i32) {
    let mut r1 = (r + 127) >> 7;
    if gamma2 == (Q - 1) / 32 {
        r1 = (r1 * 1025 + (1 << 21)) >> 22;
        r1 &= 15;
    } else {
        r1 = (r1 * 11275 + (1 << 23)) >> 24;
        // r1 ∈ [0, 44]: 44 wraps to 0. A shift, not a sign-bit mask, so
        // LLVM does not turn it into a select (valgrind saw a cmov in the
        // scalar loop of small-stack signing with the mask form).
        r1 -= 44 * ((r1 + 20) >> 6);
    }
    let mut r0 = r - r1 * 2 * gamma2;
    r0 -= (((Q - 1) / 2 - r0) >> 31) & Q;
    (r1, r0)
}

/// MakeHint given the low part `a0 = LowBits(w − cs2) + ct0` and high part
/// `a1 = HighBits(w − cs2)`: 1 iff adding −ct0 changes the high bits.
/// Branch-free.
#[inline(always)]
pub fn make_hint(a0: i32, a1: i32, gamma2: i32) -> u32 {
    let above = ((gamma2 - a0) >> 31) & 1; // a0 > γ2
    let below = ((a0 + gamma2) >> 31) & 1; // a0 < −γ2
    let at_neg = (((a0 + gamma2) | -(a0 + gamma2)) >> 31) + 1; // a0 == −γ2
    let a1_nonzero = ((a1 | -a1) >> 31) & 1;
    (above | below | (at_neg & a1_nonzero)) as u32
}

/// UseHint (Algorithm 40) on a canonical r. Verification only (public data).
#[inline(always)]
pub fn use_hint(hint: bool, r: i32, gamma2: i32) -> i32 {
    let (r1, r0) = decompose(r, gamma2);
    if !hint {
        return r1;
    }
    if gamma2 == (Q - 1) / 32 {
        if r0 > 0 {
            (r1 + 1) & 15
        } else {
            (r1 - 1) & 15
        }
    } else if r0 > 0 {
        if r1 == 43 {
            0
        } else {
            r1 + 1
        }
    } else if r1 == 0 {
        43
    } else {
        r1 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decompose straight from the FIPS 204 definition (Algorithm 36).
    fn decompose_spec(r: i32, gamma2: i32) -> (i32, i32) {
        let r = r.rem_euclid(Q);
        let mut r0 = r % (2 * gamma2);
        if r0 > gamma2 {
            r0 -= 2 * gamma2;
        }
        if r - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((r - r0) / (2 * gamma2), r0)
        }
    }

    #[test]
    fn decompose_matches_definition_for_every_residue_sampled() {
        for gamma2 in [(Q - 1) / 88, (Q - 1) / 32] {
            let mut r = 0;
            while r < Q {
                assert_eq!(decompose(r, gamma2), decompose_spec(r, gamma2), "{r}");
                r += if r > Q - 70_000 { 1 } else { 97 };
            }
        }
    }

    #[test]
    fn make_hint_agrees_with_high_bits_definition() {
        // MakeHint(z, r) = [HighBits(r) ≠ HighBits(r + z)] with r = w − cs2, z = −ct0.
        let mut s = 99u64;
        for gamma2 in [(Q - 1) / 88, (Q - 1) / 32] {
            for _ in 0..200_000 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let r = (s % Q as u64) as i32;
                let ct0 = ((s >> 32) % (2 * gamma2 as u64 - 1)) as i32 - gamma2 + 1;
                let (r1, r0) = decompose(r, gamma2);
                let high_after = decompose(canonical(center(r) + ct0).rem_euclid(Q), gamma2).0;
                let want = (r1 != high_after) as u32;
                // The signer only uses make_hint when |r0| < γ2 − β; emulate that.
                if exceeds(r0, gamma2 - 200) == 1 {
                    continue;
                }
                assert_eq!(make_hint(r0 + ct0, r1, gamma2), want, "r={r} ct0={ct0}");
            }
        }
    }

    #[test]
    fn power2round_and_norm() {
        for t in [0, 1, 4095, 4096, 4097, 8191, 8192, Q - 1] {
            let (t1, t0) = power2round(t);
            assert_eq!((t1 << D) + t0, t);
            assert!(t0 > -(1 << 12) && t0 <= 1 << 12);
        }
        assert_eq!(exceeds(5, 5), 1);
        assert_eq!(exceeds(-5, 5), 1);
        assert_eq!(exceeds(4, 5), 0);
        assert_eq!(exceeds(-4, 5), 0);
        assert_eq!(center(Q - 1), -1);
        assert_eq!(center((Q - 1) / 2), (Q - 1) / 2);
        assert_eq!(canonical(-1), Q - 1);
    }
}
