//! Arithmetic in R_q = Z_q\[X\]/(X^256 + 1), q = 8380417 (FIPS 204 §7.5).
//!
//! # Representation contract
//!
//! Every [`RingBackend`] method takes and returns polynomials in the *plain*
//! domain with *canonical* coefficients, each in `[0, Q)`. No Montgomery
//! factor crosses the trait boundary, so a software backend and a hardware
//! core that use different internal representations still agree bit for bit.
//!
//! - [`RingBackend::ntt`] is FIPS 204 Algorithm 41 (`NTT`).
//! - [`RingBackend::intt`] is FIPS 204 Algorithm 42 (`NTT⁻¹`), including the
//!   final multiplication by 256⁻¹ mod q.
//! - The pointwise operations are `MultiplyNTT` (Algorithm 45) and its
//!   accumulating form.
//!
//! The twiddle factors ([`ZETAS`]) and the scaling constant ([`N_INV`]) are
//! defined here once; the HDL twiddle ROM is generated from the same table.

/// The ML-DSA modulus q = 2^23 − 2^13 + 1.
pub const Q: i32 = 8_380_417;
/// Number of coefficients of a polynomial.
pub const N: usize = 256;
/// The primitive 512th root of unity ζ = 1753 used by FIPS 204.
pub const ZETA: i32 = 1753;
/// 256⁻¹ mod q, the scaling factor of the inverse NTT.
pub const N_INV: i32 = 8_347_681;

/// A polynomial: 256 coefficients. Across [`RingBackend`] they are canonical
/// (in `[0, Q)`); inside the protocol code other ranges are documented where
/// they are used.
pub type Poly = [i32; N];

/// q⁻¹ mod 2^32, for Montgomery reduction.
const QINV: i32 = 58_728_449;

const fn pow_mod(base: i64, mut exp: u32) -> i64 {
    let q = Q as i64;
    let mut acc = 1i64;
    let mut b = base % q;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * b % q;
        }
        b = b * b % q;
        exp >>= 1;
    }
    acc
}

const fn bit_reverse8(k: usize) -> u32 {
    (k as u8).reverse_bits() as u32
}

const fn gen_zetas() -> [i32; N] {
    let mut z = [0i32; N];
    let mut k = 0;
    while k < N {
        z[k] = pow_mod(ZETA as i64, bit_reverse8(k)) as i32;
        k += 1;
    }
    z
}

/// `ZETAS[k] = ζ^brv₈(k) mod q`, canonical, plain domain (FIPS 204 Appendix B).
/// `ZETAS[0] = 1` is never used by the transforms.
pub const ZETAS: [i32; N] = gen_zetas();

/// `x · 2^32 mod q`, centred into (−q/2, q/2]: the Montgomery form of `x`.
const fn to_montgomery(x: i32) -> i32 {
    let q = Q as i64;
    let r = ((x as i64 % q + q) % q) * ((1i64 << 32) % q) % q;
    if r > q / 2 {
        (r - q) as i32
    } else {
        r as i32
    }
}

const fn gen_zetas_montgomery() -> [i32; N] {
    let mut z = [0i32; N];
    let mut k = 0;
    while k < N {
        z[k] = to_montgomery(ZETAS[k]);
        k += 1;
    }
    z
}

const ZETAS_MONT: [i32; N] = gen_zetas_montgomery();
/// Montgomery form of 256⁻¹: multiplying by it with [`montgomery_reduce`]
/// scales by 256⁻¹ and leaves the plain domain untouched.
const N_INV_MONT: i32 = to_montgomery(N_INV);
/// 2^64 mod q: one Montgomery reduction of `x · R2` gives `x · 2^32 mod q`,
/// which cancels the 2^−32 of a preceding reduction.
const R2: i32 = to_montgomery(to_montgomery(1));

/// Montgomery reduction: for |a| < q·2^31 returns r ≡ a·2^−32 (mod q) with
/// |r| < q. Branch-free.
#[inline(always)]
pub const fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - (t as i64) * (Q as i64)) >> 32) as i32
}

/// For a ≤ 2^31 − 2^22 − 1 returns r ≡ a (mod q) with −6283008 ≤ r ≤ 6283008.
#[inline(always)]
pub const fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// Adds q if `a` is negative. Branch-free.
#[inline(always)]
pub const fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// Canonical representative in `[0, Q)` of any `a` in the range of [`reduce32`].
#[inline(always)]
pub const fn freeze(a: i32) -> i32 {
    caddq(reduce32(a))
}

/// `a · b mod q`, canonical, for |a|, |b| < 2^31 with |a·b| < q·2^31.
#[inline(always)]
pub const fn mul_mod(a: i32, b: i32) -> i32 {
    let t = montgomery_reduce(a as i64 * b as i64);
    freeze(montgomery_reduce(t as i64 * R2 as i64))
}

/// Forward NTT in place (FIPS 204 Algorithm 41). Input coefficients must be
/// canonical; output is canonical.
pub fn ntt(a: &mut Poly) {
    let mut k = 0;
    let mut len = 128;
    while len > 0 {
        let mut start = 0;
        while start < N {
            k += 1;
            let zeta = ZETAS_MONT[k] as i64;
            for j in start..start + len {
                let t = montgomery_reduce(zeta * a[j + len] as i64);
                a[j + len] = a[j] - t;
                a[j] += t;
            }
            start += 2 * len;
        }
        len >>= 1;
    }
    // Each layer grows |a| by < q, so |a| < 9q here: reduce32 then caddq.
    for c in a.iter_mut() {
        *c = freeze(*c);
    }
}

/// Inverse NTT in place, including the 256⁻¹ scaling (FIPS 204 Algorithm 42).
/// Input coefficients must be canonical; output is canonical.
pub fn intt(a: &mut Poly) {
    let mut k = N;
    let mut len = 1;
    while len < N {
        let mut start = 0;
        while start < N {
            k -= 1;
            let zeta = -(ZETAS_MONT[k] as i64);
            for j in start..start + len {
                let t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = montgomery_reduce(zeta * (t - a[j + len]) as i64);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    // The sums grow to at most 256·q < 2^31 before this final scaling.
    for c in a.iter_mut() {
        *c = freeze(montgomery_reduce(N_INV_MONT as i64 * *c as i64));
    }
}

/// `out[i] = a[i] · b[i] mod q` (FIPS 204 Algorithm 45).
pub fn pointwise_mul(a: &Poly, b: &Poly, out: &mut Poly) {
    for i in 0..N {
        out[i] = mul_mod(a[i], b[i]);
    }
}

/// `acc[i] = acc[i] + a[i] · b[i] mod q`.
pub fn pointwise_mul_acc(acc: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..N {
        acc[i] = freeze(acc[i] + mul_mod(a[i], b[i]));
    }
}

/// Ring arithmetic offloaded by the protocol code.
///
/// # For hardware implementers
///
/// - All polynomials crossing this trait are canonical (`[0, Q)`) and in the
///   plain domain; see the module docs. The results must equal the software
///   functions of this module ([`ntt`], [`intt`], [`pointwise_mul`],
///   [`pointwise_mul_acc`]) bit for bit.
/// - The per-polynomial methods are the minimum. The vector methods have
///   default implementations that loop over them; a bus-attached core should
///   override them to move a whole vector (or a matrix row) per DMA transfer
///   and keep an accumulator resident in the core for [`RingBackend::dot`].
/// - Methods cannot fail: a hardware backend that loses its device must fall
///   back to software (or panic in a debug build) rather than return wrong data.
pub trait RingBackend {
    /// Forward NTT of one polynomial, in place.
    fn ntt(&mut self, a: &mut Poly);
    /// Inverse NTT (with the 256⁻¹ scaling) of one polynomial, in place.
    fn intt(&mut self, a: &mut Poly);
    /// `out = a ∘ b` (coefficient-wise product mod q).
    fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly);
    /// `acc = acc + a ∘ b`.
    fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly);

    /// Forward NTT of every polynomial of a vector.
    fn ntt_vec(&mut self, v: &mut [Poly]) {
        for p in v {
            self.ntt(p);
        }
    }
    /// Inverse NTT of every polynomial of a vector.
    fn intt_vec(&mut self, v: &mut [Poly]) {
        for p in v {
            self.intt(p);
        }
    }
    /// Inner product of a matrix row and a vector in the NTT domain:
    /// `out = Σ_j row[j] ∘ v[j]`. `row` and `v` have the same length (≥ 1).
    fn dot(&mut self, row: &[Poly], v: &[Poly], out: &mut Poly) {
        debug_assert_eq!(row.len(), v.len());
        self.pointwise_mul(&row[0], &v[0], out);
        for (a, b) in row.iter().zip(v.iter()).skip(1) {
            self.pointwise_mul_acc(out, a, b);
        }
    }
    /// `out[j] = c ∘ v[j]` for every j (e.g. c·s1 in ML-DSA signing).
    fn scale_vec(&mut self, c: &Poly, v: &[Poly], out: &mut [Poly]) {
        debug_assert_eq!(v.len(), out.len());
        for (p, o) in v.iter().zip(out.iter_mut()) {
            self.pointwise_mul(c, p, o);
        }
    }
}

/// The portable software backend: the free functions of this module.
#[derive(Clone, Copy, Debug, Default)]
pub struct SoftRing;

impl RingBackend for SoftRing {
    fn ntt(&mut self, a: &mut Poly) {
        ntt(a)
    }
    fn intt(&mut self, a: &mut Poly) {
        intt(a)
    }
    fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly) {
        pointwise_mul(a, b, out)
    }
    fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly) {
        pointwise_mul_acc(acc, a, b)
    }
    /// Same result as the default; the products are summed in 64 bits and
    /// reduced once per coefficient instead of once per term.
    fn dot(&mut self, row: &[Poly], v: &[Poly], out: &mut Poly) {
        debug_assert_eq!(row.len(), v.len());
        // Canonical inputs: each product < q² < 2^46, so 64 terms stay below
        // q·2^31, the input bound of montgomery_reduce.
        const TERMS_PER_REDUCTION: usize = 64;
        // Accumulate 64 coefficients at a time: a small accumulator keeps
        // the stack low (this runs inside the signer's deepest frame).
        const LANES: usize = 64;
        *out = [0; N];
        for (rows, vs) in row
            .chunks(TERMS_PER_REDUCTION)
            .zip(v.chunks(TERMS_PER_REDUCTION))
        {
            for base in (0..N).step_by(LANES) {
                let mut acc = [0i64; LANES];
                for (a, b) in rows.iter().zip(vs.iter()) {
                    let (a, b) = (&a[base..base + LANES], &b[base..base + LANES]);
                    for i in 0..LANES {
                        acc[i] += a[i] as i64 * b[i] as i64;
                    }
                }
                for (o, &x) in out[base..base + LANES].iter_mut().zip(acc.iter()) {
                    // x·2^−32, then ·2^64·2^−32: x mod q, then canonical.
                    let t = montgomery_reduce(x);
                    *o = freeze(*o + freeze(montgomery_reduce(t as i64 * R2 as i64)));
                }
            }
        }
    }
    /// Same result as the default; `c` is converted to Montgomery form once
    /// so that each product needs a single reduction.
    fn scale_vec(&mut self, c: &Poly, v: &[Poly], out: &mut [Poly]) {
        debug_assert_eq!(v.len(), out.len());
        let c_mont: Poly = core::array::from_fn(|i| montgomery_reduce(c[i] as i64 * R2 as i64));
        for (p, o) in v.iter().zip(out.iter_mut()) {
            for i in 0..N {
                o[i] = caddq(montgomery_reduce(c_mont[i] as i64 * p[i] as i64));
            }
        }
    }
}

/// A mutable reference to a backend is a backend (so `&mut dyn RingBackend`
/// fits where a sized backend is expected). Every method forwards, so the
/// referent's vector-grain overrides are the ones used.
impl<R: RingBackend + ?Sized> RingBackend for &mut R {
    fn ntt(&mut self, a: &mut Poly) {
        (**self).ntt(a)
    }
    fn intt(&mut self, a: &mut Poly) {
        (**self).intt(a)
    }
    fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly) {
        (**self).pointwise_mul(a, b, out)
    }
    fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly) {
        (**self).pointwise_mul_acc(acc, a, b)
    }
    fn ntt_vec(&mut self, v: &mut [Poly]) {
        (**self).ntt_vec(v)
    }
    fn intt_vec(&mut self, v: &mut [Poly]) {
        (**self).intt_vec(v)
    }
    fn dot(&mut self, row: &[Poly], v: &[Poly], out: &mut Poly) {
        (**self).dot(row, v, out)
    }
    fn scale_vec(&mut self, c: &Poly, v: &[Poly], out: &mut [Poly]) {
        (**self).scale_vec(c, v, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook negacyclic product, the definition NTT multiplication must match.
    fn schoolbook(a: &Poly, b: &Poly) -> Poly {
        let q = Q as i64;
        let mut acc = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = a[i] as i64 * b[j] as i64 % q;
                if i + j < N {
                    acc[i + j] += p;
                } else {
                    acc[i + j - N] -= p;
                }
            }
        }
        let mut out = [0i32; N];
        for i in 0..N {
            out[i] = acc[i].rem_euclid(q) as i32;
        }
        out
    }

    /// Direct evaluation of FIPS 204 Algorithm 41 with plain modular arithmetic.
    fn ntt_definition(a: &Poly) -> Poly {
        let q = Q as i64;
        let mut w: [i64; N] = core::array::from_fn(|i| a[i] as i64);
        let mut m = 0;
        let mut len = 128;
        while len >= 1 {
            let mut start = 0;
            while start < N {
                m += 1;
                let z = ZETAS[m] as i64;
                for j in start..start + len {
                    let t = z * w[j + len] % q;
                    w[j + len] = (w[j] - t).rem_euclid(q);
                    w[j] = (w[j] + t) % q;
                }
                start += 2 * len;
            }
            len /= 2;
        }
        core::array::from_fn(|i| w[i] as i32)
    }

    /// xorshift, enough for test data without a dependency.
    fn random_poly(state: &mut u64) -> Poly {
        core::array::from_fn(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            (*state % Q as u64) as i32
        })
    }

    #[test]
    fn zetas_match_fips204_appendix_b() {
        assert_eq!(ZETAS[1], 4_808_194);
        assert_eq!(ZETAS[2], 3_765_607);
        assert_eq!(ZETAS[128], 1753);
        assert_eq!((N_INV as i64 * 256) % Q as i64, 1);
    }

    #[test]
    fn ntt_matches_definition_and_roundtrips() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..200 {
            let a = random_poly(&mut s);
            let mut t = a;
            ntt(&mut t);
            assert_eq!(t, ntt_definition(&a));
            intt(&mut t);
            assert_eq!(t, a);
        }
        let mut edge = [Q - 1; N];
        ntt(&mut edge);
        intt(&mut edge);
        assert_eq!(edge, [Q - 1; N]);
    }

    #[test]
    fn ntt_product_is_negacyclic_product() {
        let mut s = 42u64;
        for _ in 0..10 {
            let a = random_poly(&mut s);
            let b = random_poly(&mut s);
            let (mut ta, mut tb) = (a, b);
            ntt(&mut ta);
            ntt(&mut tb);
            let mut prod = [0; N];
            pointwise_mul(&ta, &tb, &mut prod);
            intt(&mut prod);
            assert_eq!(prod, schoolbook(&a, &b));
        }
    }

    /// The default (per-polynomial) vector methods, as the reference for
    /// the SoftRing overrides.
    struct PerPoly;
    impl RingBackend for PerPoly {
        fn ntt(&mut self, a: &mut Poly) {
            ntt(a)
        }
        fn intt(&mut self, a: &mut Poly) {
            intt(a)
        }
        fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly) {
            pointwise_mul(a, b, out)
        }
        fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly) {
            pointwise_mul_acc(acc, a, b)
        }
    }

    #[test]
    fn soft_ring_vector_overrides_equal_the_per_polynomial_defaults() {
        let mut s = 0xfeed_beefu64;
        let v: [Poly; 8] = core::array::from_fn(|_| random_poly(&mut s));
        let mut row: [Poly; 8] = core::array::from_fn(|_| random_poly(&mut s));
        row[0] = [Q - 1; N];
        for len in 1..=8 {
            let (mut ours, mut reference) = ([0; N], [0; N]);
            SoftRing.dot(&row[..len], &v[..len], &mut ours);
            PerPoly.dot(&row[..len], &v[..len], &mut reference);
            assert_eq!(ours, reference, "dot of length {len}");
        }
        // Longer than one accumulation chunk.
        let long_row: [Poly; 70] = core::array::from_fn(|i| row[i % 8]);
        let long_v: [Poly; 70] = core::array::from_fn(|i| v[(i * 3) % 8]);
        let (mut ours, mut reference) = ([0; N], [0; N]);
        SoftRing.dot(&long_row, &long_v, &mut ours);
        PerPoly.dot(&long_row, &long_v, &mut reference);
        assert_eq!(ours, reference, "dot of length 70");

        let c = random_poly(&mut s);
        let (mut ours, mut reference) = ([[0; N]; 8], [[0; N]; 8]);
        SoftRing.scale_vec(&c, &row, &mut ours);
        PerPoly.scale_vec(&c, &row, &mut reference);
        assert_eq!(ours, reference);
    }

    #[test]
    fn dot_accumulates() {
        let mut s = 7u64;
        let row = [
            random_poly(&mut s),
            random_poly(&mut s),
            random_poly(&mut s),
        ];
        let v = [
            random_poly(&mut s),
            random_poly(&mut s),
            random_poly(&mut s),
        ];
        let mut out = [0; N];
        SoftRing.dot(&row, &v, &mut out);
        for i in 0..N {
            let want = (0..3)
                .map(|j| row[j][i] as i64 * v[j][i] as i64)
                .sum::<i64>()
                % Q as i64;
            assert_eq!(out[i] as i64, want);
        }
    }
}
