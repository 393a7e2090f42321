//! Byte encodings of FIPS 204 §7.1–7.3: bit packing of polynomials, hints,
//! keys and signatures. Packing and unpacking are branch-free in the data
//! (the loop structure depends only on the public bit width).

use crate::ring::{Poly, N};

/// Packs `f(i)` for i in 0..256 (each < 2^bits) into `out` (exactly
/// `32·bits` bytes), least significant bit first (FIPS 204 SimpleBitPack).
#[inline(always)]
pub fn pack(bits: usize, out: &mut [u8], mut f: impl FnMut(usize) -> u32) {
    debug_assert_eq!(out.len(), N * bits / 8);
    let mut acc: u64 = 0;
    let mut have = 0usize;
    let mut pos = 0usize;
    for i in 0..N {
        acc |= (f(i) as u64) << have;
        have += bits;
        while have >= 8 {
            out[pos] = acc as u8;
            pos += 1;
            acc >>= 8;
            have -= 8;
        }
    }
}

/// Unpacks 256 values of `bits` bits from `bytes`, calling `f(i, value)`.
#[inline(always)]
pub fn unpack(bits: usize, bytes: &[u8], mut f: impl FnMut(usize, u32)) {
    debug_assert_eq!(bytes.len(), N * bits / 8);
    let mask = (1u64 << bits) - 1;
    let mut acc: u64 = 0;
    let mut have = 0usize;
    let mut pos = 0usize;
    for i in 0..N {
        while have < bits {
            acc |= (bytes[pos] as u64) << have;
            pos += 1;
            have += 8;
        }
        f(i, (acc & mask) as u32);
        acc >>= bits;
        have -= bits;
    }
}

/// BitPack(w, a, b) for coefficients in [−a, b]: stores b − w (Algorithm 17).
pub fn pack_centered(p: &Poly, bound: i32, bits: usize, out: &mut [u8]) {
    pack(bits, out, |i| (bound - p[i]) as u32);
}

/// BitUnpack(v, a, b): w = b − value. Returns a mask with the bits of
/// every value exceeding `max_value` OR-ed in (0 when all are in range),
/// so the caller can reject without branching on secret coefficients.
pub fn unpack_centered(bytes: &[u8], bound: i32, bits: usize, max_value: u32, p: &mut Poly) -> u32 {
    let mut bad = 0u32;
    unpack(bits, bytes, |i, v| {
        bad |= (max_value.wrapping_sub(v)) >> 31;
        p[i] = bound - v as i32;
    });
    bad
}

/// HintBitPack (Algorithm 20). `hints` yields, for polynomial `i`, whether
/// coefficient `j` has a hint; the caller guarantees at most ω ones.
/// The hints come as 0/1 coefficients of any integer type (`i32` in the
/// fast signing path, `u8` in the small-stack one).
pub fn pack_hints<T: Copy + Into<i32>>(k: usize, omega: usize, h: &[[T; N]], out: &mut [u8]) {
    debug_assert_eq!(out.len(), omega + k);
    out.fill(0);
    let mut index = 0usize;
    for (i, hp) in h.iter().enumerate().take(k) {
        for (j, &bit) in hp.iter().enumerate() {
            let bit: i32 = bit.into();
            if bit != 0 {
                out[index] = j as u8;
                index += 1;
            }
        }
        out[omega + i] = index as u8;
    }
}

/// HintBitUnpack (Algorithm 21) with every malformed-encoding check of
/// FIPS 204: cumulative counts non-decreasing and ≤ ω, indices strictly
/// increasing within a polynomial, unused slots zero. Writes 0/1 into `h`.
/// Operates on public data (the signature), so it may branch.
pub fn unpack_hints(k: usize, omega: usize, bytes: &[u8], h: &mut [[u8; N]]) -> bool {
    let mut index = 0usize;
    for (i, hp) in h.iter_mut().enumerate().take(k) {
        hp.fill(0);
        let end = bytes[omega + i] as usize;
        if end < index || end > omega {
            return false;
        }
        let first = index;
        while index < end {
            if index > first && bytes[index - 1] >= bytes[index] {
                return false;
            }
            hp[bytes[index] as usize] = 1;
            index += 1;
        }
    }
    bytes[index..omega].iter().all(|&b| b == 0)
}

/// Checks a hint encoding without decoding it (same rules as [`unpack_hints`]).
pub fn hints_well_formed(k: usize, omega: usize, bytes: &[u8]) -> bool {
    let mut index = 0usize;
    for i in 0..k {
        let end = bytes[omega + i] as usize;
        if end < index || end > omega {
            return false;
        }
        for j in index + 1..end {
            if bytes[j - 1] >= bytes[j] {
                return false;
            }
        }
        index = end;
    }
    bytes[index..omega].iter().all(|&b| b == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_unpack_roundtrip_all_widths() {
        for bits in [3usize, 4, 6, 10, 13, 18, 20] {
            let max = (1u32 << bits) - 1;
            let vals: [u32; N] =
                core::array::from_fn(|i| (i as u32).wrapping_mul(2_654_435_761) & max);
            let mut buf = [0u8; 32 * 20];
            let out = &mut buf[..32 * bits];
            pack(bits, out, |i| vals[i]);
            let mut back = [0u32; N];
            unpack(bits, out, |i, v| back[i] = v);
            assert_eq!(back, vals, "{bits}");
        }
        // Bit order: the first value occupies the lowest bits of byte 0.
        let mut out = [0u8; 32 * 10];
        pack(10, &mut out, |i| if i == 0 { 0x3FF } else { 0 });
        assert_eq!(&out[..3], &[0xFF, 0x03, 0x00]);
    }

    #[test]
    fn unpack_centered_flags_out_of_range() {
        let mut bytes = [0u8; 96];
        let mut p = [0; N];
        assert_eq!(unpack_centered(&bytes, 2, 3, 4, &mut p), 0);
        assert_eq!(p[0], 2);
        bytes[0] = 5; // first coefficient 5 > 2η = 4
        assert_eq!(unpack_centered(&bytes, 2, 3, 4, &mut p), 1);
    }

    #[test]
    fn hint_decoding_rejects_every_malformation() {
        let (k, omega) = (4usize, 80usize);
        let mut h = [[0i32; N]; 4];
        h[0][3] = 1;
        h[0][200] = 1;
        h[2][7] = 1;
        let mut enc = [0u8; 84];
        pack_hints(k, omega, &h, &mut enc);
        assert_eq!(&enc[..3], &[3, 200, 7]);
        assert_eq!(&enc[80..], &[2, 2, 3, 3]);
        let mut back = [[0u8; N]; 4];
        assert!(unpack_hints(k, omega, &enc, &mut back));
        assert!(hints_well_formed(k, omega, &enc));
        for i in 0..4 {
            for j in 0..N {
                assert_eq!(back[i][j] as i32, h[i][j]);
            }
        }

        let bad_cases: [fn(&mut [u8; 84]); 5] = [
            |e| e[81] = 1,  // count decreases
            |e| e[83] = 81, // count beyond ω
            |e| e[1] = 3,   // indices not increasing (3, 3)
            |e| e[1] = 2,   // indices decreasing (3, 2)
            |e| e[50] = 9,  // unused slot not zero
        ];
        for (n, corrupt) in bad_cases.iter().enumerate() {
            let mut e = enc;
            corrupt(&mut e);
            assert!(!unpack_hints(k, omega, &e, &mut back), "case {n}");
            assert!(!hints_well_formed(k, omega, &e), "case {n}");
        }
    }
}
