//! ML-DSA internal algorithms (FIPS 204 Algorithms 6–8) generic over the
//! vector dimensions `K`, `L` (so every buffer is exactly as large as the
//! parameter set needs) and over the ring and Keccak backends.
//!
//! Callers (the `mldsa` module) have already checked every length; the
//! functions here take byte slices of exactly the right size.

use zeroize::Zeroize;

use super::arith::{canonical, center, decompose, exceeds, make_hint, power2round, use_hint};
use super::encode::{pack, pack_centered, pack_hints, unpack, unpack_centered, unpack_hints};
use super::params::{Params, D};
use super::sample::{expand_a_entry, expand_mask_poly, expand_s_poly, h, sample_in_ball};
use crate::error::{Error, Result};
use crate::keccak::KeccakBackend;
use crate::ring::{Poly, RingBackend, N, Q};

/// FIPS 204 Appendix C: signing may stop after 814 attempts (the chance
/// that a valid key needs more is below 2^-256).
pub const MAX_SIGN_ATTEMPTS: usize = 814;

/// Largest packed w1 vector (ML-DSA-44: 4 · 192 bytes; others 8 · 128).
const W1_PACKED_MAX: usize = 1024;

fn to_canonical(v: &mut [Poly]) {
    for p in v {
        for c in p.iter_mut() {
            *c = canonical(*c);
        }
    }
}

/// Computes μ = H(tr ‖ M′, 64) where M′ is given as concatenated parts.
pub fn message_representative<H: KeccakBackend>(
    kc: &mut H,
    tr: &[u8],
    m_prime: &[&[u8]],
    mu: &mut [u8; 64],
) {
    let mut parts: [&[u8]; 8] = [&[]; 8];
    parts[0] = tr;
    parts[1..=m_prime.len()].copy_from_slice(m_prime);
    h(kc, &parts[..=m_prime.len()], mu);
}

/// Secret polynomials and the derived ones, zeroized when dropped
/// (including on early returns).
struct KeySecrets<const K: usize, const L: usize> {
    s1: [Poly; L],
    s2: [Poly; K],
    t: [Poly; K],
    seed: [u8; 128],
}

impl<const K: usize, const L: usize> Drop for KeySecrets<K, L> {
    fn drop(&mut self) {
        self.s1.zeroize();
        self.s2.zeroize();
        self.t.zeroize();
        self.seed.zeroize();
    }
}

/// t = NTT⁻¹(Â ∘ NTT(s1)) + s2 (canonical), generating Â one row at a time.
/// `s1` is given in the NTT domain, `s2` canonical.
fn compute_t<const K: usize, const L: usize, R: RingBackend, H: KeccakBackend>(
    ring: &mut R,
    kc: &mut H,
    rho: &[u8; 32],
    s1_hat: &[Poly; L],
    s2: &[Poly; K],
    t: &mut [Poly; K],
) {
    let mut row = [[0i32; N]; L];
    for (i, ti) in t.iter_mut().enumerate() {
        for (j, a) in row.iter_mut().enumerate() {
            expand_a_entry(kc, rho, i, j, a);
        }
        ring.dot(&row, s1_hat, ti);
    }
    ring.intt_vec(t);
    for (ti, s2i) in t.iter_mut().zip(s2.iter()) {
        for (c, &s) in ti.iter_mut().zip(s2i.iter()) {
            let x = *c + s;
            *c = x - (((Q - 1 - x) >> 31) & Q);
        }
    }
}

/// ML-DSA.KeyGen_internal (Algorithm 6). `pk` and `sk` have the exact
/// lengths of `p`.
pub fn keygen_internal<const K: usize, const L: usize, R: RingBackend, H: KeccakBackend>(
    p: &Params,
    ring: &mut R,
    kc: &mut H,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    debug_assert!(p.k == K && p.l == L);
    let mut sec = KeySecrets::<K, L> {
        s1: [[0; N]; L],
        s2: [[0; N]; K],
        t: [[0; N]; K],
        seed: [0; 128],
    };
    h(kc, &[xi, &[K as u8, L as u8]], &mut sec.seed);
    let rho: [u8; 32] = sec.seed[..32].try_into().expect("32 bytes");
    let rho_prime: [u8; 64] = sec.seed[32..96].try_into().expect("64 bytes");
    let mut rho_prime = rho_prime;
    for (j, s) in sec.s1.iter_mut().enumerate() {
        expand_s_poly(kc, &rho_prime, j as u16, p.eta, s);
    }
    for (i, s) in sec.s2.iter_mut().enumerate() {
        expand_s_poly(kc, &rho_prime, (L + i) as u16, p.eta, s);
    }
    rho_prime.zeroize();

    // sk = ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0; tr is filled in once pk exists.
    sk[..32].copy_from_slice(&rho);
    sk[32..64].copy_from_slice(&sec.seed[96..128]);
    let eb = Params::poly_bytes(p.eta_bits());
    let mut off = 128;
    for s in sec.s1.iter().chain(sec.s2.iter()) {
        pack_centered(s, p.eta, p.eta_bits(), &mut sk[off..off + eb]);
        off += eb;
    }
    to_canonical(&mut sec.s1);
    to_canonical(&mut sec.s2);
    ring.ntt_vec(&mut sec.s1);
    compute_t(ring, kc, &rho, &sec.s1, &sec.s2, &mut sec.t);

    pk[..32].copy_from_slice(&rho);
    let t1b = Params::poly_bytes(23 - D as usize);
    let t0b = Params::poly_bytes(D as usize);
    for (i, ti) in sec.t.iter().enumerate() {
        pack(10, &mut pk[32 + i * t1b..32 + (i + 1) * t1b], |n| {
            power2round(ti[n]).0 as u32
        });
        pack(13, &mut sk[off + i * t0b..off + (i + 1) * t0b], |n| {
            ((1 << (D - 1)) - power2round(ti[n]).1) as u32
        });
    }
    let mut tr = [0u8; 64];
    h(kc, &[pk], &mut tr);
    sk[64..128].copy_from_slice(&tr);
}

/// Decodes s1, s2 (centred) and t0 (centred) from `sk`, rejecting
/// coefficients of s1, s2 outside [−η, η]. Branch-free in the key bits.
fn decode_sk_polys<const K: usize, const L: usize>(
    p: &Params,
    sk: &[u8],
    s1: &mut [Poly; L],
    s2: &mut [Poly; K],
    t0: &mut [Poly; K],
) -> Result<()> {
    let eb = Params::poly_bytes(p.eta_bits());
    let t0b = Params::poly_bytes(D as usize);
    let mut off = 128;
    let mut bad = 0u32;
    for s in s1.iter_mut().chain(s2.iter_mut()) {
        bad |= unpack_centered(&sk[off..off + eb], p.eta, p.eta_bits(), 2 * p.eta as u32, s);
        off += eb;
    }
    for t in t0.iter_mut() {
        unpack_centered(&sk[off..off + t0b], 1 << (D - 1), D as usize, u32::MAX, t);
        off += t0b;
    }
    if bad != 0 {
        return Err(Error::MalformedEncoding {
            what: "ML-DSA secret key (s1/s2 coefficient out of range)",
        });
    }
    Ok(())
}

/// Recomputes the public key from a secret key and checks that the secret
/// key's t0 and tr are consistent with it (used when a signing key is
/// imported from bytes). Constant time in the key except for the final
/// accept/reject.
pub fn public_from_secret<const K: usize, const L: usize, R: RingBackend, H: KeccakBackend>(
    p: &Params,
    ring: &mut R,
    kc: &mut H,
    sk: &[u8],
    pk: &mut [u8],
) -> Result<()> {
    let mut sec = KeySecrets::<K, L> {
        s1: [[0; N]; L],
        s2: [[0; N]; K],
        t: [[0; N]; K],
        seed: [0; 128],
    };
    // t0 is decoded into `t` only to reuse the decoder; it is overwritten.
    decode_sk_polys(p, sk, &mut sec.s1, &mut sec.s2, &mut sec.t)?;
    let rho: [u8; 32] = sk[..32].try_into().expect("32 bytes");
    to_canonical(&mut sec.s1);
    to_canonical(&mut sec.s2);
    ring.ntt_vec(&mut sec.s1);
    compute_t(ring, kc, &rho, &sec.s1, &sec.s2, &mut sec.t);
    pk[..32].copy_from_slice(&rho);
    let t1b = Params::poly_bytes(23 - D as usize);
    let t0b = Params::poly_bytes(D as usize);
    let t0_off = 128 + (K + L) * Params::poly_bytes(p.eta_bits());
    let mut diff = 0u32;
    for (i, ti) in sec.t.iter().enumerate() {
        pack(10, &mut pk[32 + i * t1b..32 + (i + 1) * t1b], |n| {
            power2round(ti[n]).0 as u32
        });
        let t0_bytes = &sk[t0_off + i * t0b..t0_off + (i + 1) * t0b];
        unpack(13, t0_bytes, |n, v| {
            let want = ((1 << (D - 1)) - power2round(ti[n]).1) as u32;
            diff |= want ^ v;
        });
    }
    let mut tr = [0u8; 64];
    h(kc, &[pk], &mut tr);
    for (a, b) in tr.iter().zip(sk[64..128].iter()) {
        diff |= (a ^ b) as u32;
    }
    if diff != 0 {
        return Err(Error::MalformedEncoding {
            what: "ML-DSA secret key (t0 or tr inconsistent with s1, s2)",
        });
    }
    Ok(())
}

/// Working state of signing; everything in it is secret or derived from
/// secrets and is zeroized on drop.
struct SignState<const K: usize, const L: usize> {
    s1: [Poly; L],
    s2: [Poly; K],
    t0: [Poly; K],
    /// y, then NTT(y), then NTT(y) + NTT(c·s1), then z = y + cs1.
    y: [Poly; L],
    /// w, then w − cs2.
    w: [Poly; K],
    /// NTT(c·s1) (first L entries), then cs2, then ct0, then the hint bits.
    ct: [Poly; K],
    c: Poly,
    rho2: [u8; 64],
}

impl<const K: usize, const L: usize> Drop for SignState<K, L> {
    fn drop(&mut self) {
        self.s1.zeroize();
        self.s2.zeroize();
        self.t0.zeroize();
        self.y.zeroize();
        self.w.zeroize();
        self.ct.zeroize();
        self.c.zeroize();
        self.rho2.zeroize();
    }
}

/// ML-DSA.Sign_internal (Algorithm 7) from the message representative μ
/// (the external-μ form; Sign_internal proper computes μ = H(tr ‖ M′) first).
/// `sk` and `sig` have the exact lengths of `p`.
///
/// Constant time: one attempt does the same operations whatever the
/// secrets; all four rejection conditions are accumulated into one flag and
/// the loop branches only on it (the public attempt count).
// Not inlined: the caller picks one of the two signing paths, and a
// merged frame would hold both working states.
#[inline(never)]
pub fn sign_mu<const K: usize, const L: usize, R: RingBackend, H: KeccakBackend>(
    p: &Params,
    ring: &mut R,
    kc: &mut H,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<usize> {
    debug_assert!(p.k == K && p.l == L);
    // ct doubles as the buffer for ĉ∘ŝ1 (true for every FIPS 204 set).
    assert!(L <= K, "parameter sets have l ≤ k");
    let mut st = SignState::<K, L> {
        s1: [[0; N]; L],
        s2: [[0; N]; K],
        t0: [[0; N]; K],
        y: [[0; N]; L],
        w: [[0; N]; K],
        ct: [[0; N]; K],
        c: [0; N],
        rho2: [0; 64],
    };
    decode_sk_polys(p, sk, &mut st.s1, &mut st.s2, &mut st.t0)?;
    let rho: [u8; 32] = sk[..32].try_into().expect("32 bytes");
    to_canonical(&mut st.s1);
    to_canonical(&mut st.s2);
    to_canonical(&mut st.t0);
    ring.ntt_vec(&mut st.s1);
    ring.ntt_vec(&mut st.s2);
    ring.ntt_vec(&mut st.t0);

    // Â is public and reused by every attempt.
    let mut a_hat = [[[0i32; N]; L]; K];
    for (i, row) in a_hat.iter_mut().enumerate() {
        for (j, a) in row.iter_mut().enumerate() {
            expand_a_entry(kc, &rho, i, j, a);
        }
    }
    h(kc, &[&sk[32..64], rnd, mu], &mut st.rho2);

    let ct_len = p.ctilde_bytes();
    let w1_len = p.w1_packed_len();
    let w1_poly = Params::poly_bytes(p.w1_bits());
    let z_poly = Params::poly_bytes(p.gamma1_bits());
    let gamma1_bound = p.gamma1 - p.beta();
    let gamma2_bound = p.gamma2 - p.beta();
    let mut w1_packed = [0u8; W1_PACKED_MAX];

    for attempt in 0..MAX_SIGN_ATTEMPTS {
        let kappa = (attempt * L) as u16;
        for (r, y) in st.y.iter_mut().enumerate() {
            expand_mask_poly(kc, &st.rho2, kappa + r as u16, p.gamma1, p.gamma1_bits(), y);
        }
        to_canonical(&mut st.y);
        ring.ntt_vec(&mut st.y);
        for (wi, row) in st.w.iter_mut().zip(a_hat.iter()) {
            ring.dot(row, &st.y, wi);
        }
        ring.intt_vec(&mut st.w);
        for (i, wi) in st.w.iter().enumerate() {
            pack(
                p.w1_bits(),
                &mut w1_packed[i * w1_poly..(i + 1) * w1_poly],
                |n| decompose(wi[n], p.gamma2).0 as u32,
            );
        }
        let (ctilde, _) = sig.split_at_mut(ct_len);
        h(kc, &[mu, &w1_packed[..w1_len]], ctilde);
        sample_in_ball(kc, ctilde, p.tau, &mut st.c);
        ring.ntt(&mut st.c);

        let mut reject = 0u32;
        // z = y + cs1 = NTT⁻¹(NTT(y) + ĉ∘ŝ1) (linearity; no second copy of
        // y is kept), ‖z‖∞ < γ1 − β. |y + cs1| < q/2, so centring recovers z.
        ring.scale_vec(&st.c, &st.s1, &mut st.ct[..L]);
        for (y, cs1) in st.y.iter_mut().zip(st.ct.iter()) {
            for (a, &b) in y.iter_mut().zip(cs1.iter()) {
                let x = *a + b;
                *a = x - (((Q - 1 - x) >> 31) & Q);
            }
        }
        ring.intt_vec(&mut st.y);
        for y in st.y.iter_mut() {
            for z in y.iter_mut() {
                *z = center(*z);
                reject |= exceeds(*z, gamma1_bound);
            }
        }
        // r = w − cs2, ‖LowBits(r)‖∞ < γ2 − β.
        ring.scale_vec(&st.c, &st.s2, &mut st.ct);
        ring.intt_vec(&mut st.ct);
        for (wi, cs2) in st.w.iter_mut().zip(st.ct.iter()) {
            for (x, &v) in wi.iter_mut().zip(cs2.iter()) {
                *x = canonical(*x - v);
                reject |= exceeds(decompose(*x, p.gamma2).1, gamma2_bound);
            }
        }
        // ‖ct0‖∞ < γ2, then h = MakeHint(−ct0, r + ct0) with at most ω ones.
        ring.scale_vec(&st.c, &st.t0, &mut st.ct);
        ring.intt_vec(&mut st.ct);
        let mut ones = 0u32;
        for (ct0, r) in st.ct.iter_mut().zip(st.w.iter()) {
            for (x, &rv) in ct0.iter_mut().zip(r.iter()) {
                let v = center(*x);
                reject |= exceeds(v, p.gamma2);
                let (r1, r0) = decompose(rv, p.gamma2);
                let hint = make_hint(r0 + v, r1, p.gamma2);
                ones += hint;
                *x = hint as i32;
            }
        }
        reject |= ((p.omega as u32).wrapping_sub(ones)) >> 31;

        if reject == 0 {
            let (_, rest) = sig.split_at_mut(ct_len);
            let (z_bytes, h_bytes) = rest.split_at_mut(L * z_poly);
            for (j, z) in st.y.iter().enumerate() {
                pack_centered(
                    z,
                    p.gamma1,
                    p.gamma1_bits(),
                    &mut z_bytes[j * z_poly..(j + 1) * z_poly],
                );
            }
            pack_hints(K, p.omega, &st.ct, h_bytes);
            return Ok(attempt + 1);
        }
    }
    sig.fill(0);
    Err(Error::SigningFailed)
}

/// Working state of small-stack signing; zeroized on drop like
/// [`SignState`].
struct SmallSignState<const K: usize, const L: usize> {
    /// NTT(y) of the current attempt.
    y_hat: [Poly; L],
    /// w, then r = w − cs2.
    w: [Poly; K],
    /// One row of Â while w is computed; afterwards two scratch
    /// polynomials (an unpacked secret polynomial in the NTT domain and its
    /// product with ĉ).
    row: [Poly; L],
    /// The hint bits of the current attempt.
    hints: [[u8; N]; K],
    c: Poly,
    rho2: [u8; 64],
    w1_packed: [u8; W1_PACKED_MAX],
}

impl<const K: usize, const L: usize> Drop for SmallSignState<K, L> {
    fn drop(&mut self) {
        self.y_hat.zeroize();
        self.w.zeroize();
        self.row.zeroize();
        self.hints.zeroize();
        self.c.zeroize();
        self.rho2.zeroize();
        self.w1_packed.zeroize();
    }
}

/// `out = ĉ ∘ NTT(s)` (NTT domain) for the secret polynomial `s` packed in
/// `bytes` (centred, `bits` per coefficient, in [−`bound`, `bound`]);
/// `s_hat` is scratch.
fn c_hat_times_packed<R: RingBackend>(
    ring: &mut R,
    c_hat: &Poly,
    (bytes, bound, bits): (&[u8], i32, usize),
    s_hat: &mut Poly,
    out: &mut Poly,
) {
    // The range was checked once per signature; the flag is not needed.
    let _ = unpack_centered(bytes, bound, bits, u32::MAX, s_hat);
    for x in s_hat.iter_mut() {
        *x = canonical(*x);
    }
    ring.ntt(s_hat);
    ring.pointwise_mul(c_hat, s_hat, out);
}

/// [`sign_mu`] with a small stack, bit-identical output: Â is generated one
/// row at a time in every attempt (k·l ExpandA calls per attempt instead of
/// once), s1, s2 and t0 stay packed in `sk` and are unpacked and transformed
/// one polynomial at a time when multiplied by c, z is packed straight into
/// `sig`, and the hints are kept as bytes. Live polynomial memory is
/// 2l + k + 1 polynomials plus k·256 hint bytes (ML-DSA-44: 13 KiB + 1 KiB,
/// against 41 KiB for [`sign_mu`]).
///
/// Constant time in the same sense as [`sign_mu`]: every attempt runs the
/// same operations, the rejection conditions are ORed into one flag, and the
/// only secret-dependent branches are that flag and the key-validity check.
// Not inlined: the caller picks one of the two signing paths, and a
// merged frame would hold both working states.
#[inline(never)]
pub fn sign_mu_small_stack<const K: usize, const L: usize, R: RingBackend, H: KeccakBackend>(
    p: &Params,
    ring: &mut R,
    kc: &mut H,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<usize> {
    debug_assert!(p.k == K && p.l == L);
    // row[0], row[1] double as scratch polynomials.
    assert!(L >= 2, "parameter sets have l ≥ 4");
    let mut st = SmallSignState::<K, L> {
        y_hat: [[0; N]; L],
        w: [[0; N]; K],
        row: [[0; N]; L],
        hints: [[0; N]; K],
        c: [0; N],
        rho2: [0; 64],
        w1_packed: [0; W1_PACKED_MAX],
    };
    let eb = Params::poly_bytes(p.eta_bits());
    let t0b = Params::poly_bytes(D as usize);
    let s_off = |index: usize| 128 + index * eb;
    let t0_off = |i: usize| 128 + (K + L) * eb + i * t0b;

    // The key-validity check of decode_sk_polys, one polynomial at a time.
    let mut bad = 0u32;
    for index in 0..K + L {
        let bytes = &sk[s_off(index)..s_off(index) + eb];
        bad |= unpack_centered(bytes, p.eta, p.eta_bits(), 2 * p.eta as u32, &mut st.row[0]);
    }
    if bad != 0 {
        return Err(Error::MalformedEncoding {
            what: "ML-DSA secret key (s1/s2 coefficient out of range)",
        });
    }
    let rho: [u8; 32] = sk[..32].try_into().expect("32 bytes");
    h(kc, &[&sk[32..64], rnd, mu], &mut st.rho2);

    let ct_len = p.ctilde_bytes();
    let w1_len = p.w1_packed_len();
    let w1_poly = Params::poly_bytes(p.w1_bits());
    let z_poly = Params::poly_bytes(p.gamma1_bits());
    let gamma1_bound = p.gamma1 - p.beta();
    let gamma2_bound = p.gamma2 - p.beta();

    for attempt in 0..MAX_SIGN_ATTEMPTS {
        let kappa = (attempt * L) as u16;
        for (r, y) in st.y_hat.iter_mut().enumerate() {
            expand_mask_poly(kc, &st.rho2, kappa + r as u16, p.gamma1, p.gamma1_bits(), y);
        }
        to_canonical(&mut st.y_hat);
        ring.ntt_vec(&mut st.y_hat);
        for (i, wi) in st.w.iter_mut().enumerate() {
            for (j, a) in st.row.iter_mut().enumerate() {
                expand_a_entry(kc, &rho, i, j, a);
            }
            ring.dot(&st.row, &st.y_hat, wi);
        }
        ring.intt_vec(&mut st.w);
        for (i, wi) in st.w.iter().enumerate() {
            pack(
                p.w1_bits(),
                &mut st.w1_packed[i * w1_poly..(i + 1) * w1_poly],
                |n| decompose(wi[n], p.gamma2).0 as u32,
            );
        }
        let (ctilde, rest) = sig.split_at_mut(ct_len);
        let (z_bytes, h_bytes) = rest.split_at_mut(L * z_poly);
        h(kc, &[mu, &st.w1_packed[..w1_len]], ctilde);
        sample_in_ball(kc, ctilde, p.tau, &mut st.c);
        ring.ntt(&mut st.c);

        let mut reject = 0u32;
        let [s_hat, prod, ..] = &mut st.row[..] else {
            unreachable!("l ≥ 2")
        };
        // z_j = NTT⁻¹(NTT(y_j) + ĉ∘ŝ1_j), ‖z‖∞ < γ1 − β; packed into sig
        // (overwritten by a later attempt if this one is rejected).
        for (j, y_hat) in st.y_hat.iter().enumerate() {
            let s1_j = (&sk[s_off(j)..s_off(j) + eb], p.eta, p.eta_bits());
            c_hat_times_packed(ring, &st.c, s1_j, s_hat, prod);
            for (a, &y) in prod.iter_mut().zip(y_hat.iter()) {
                let x = *a + y;
                *a = x - (((Q - 1 - x) >> 31) & Q);
            }
            ring.intt(prod);
            for z in prod.iter_mut() {
                *z = center(*z);
                reject |= exceeds(*z, gamma1_bound);
            }
            pack_centered(
                prod,
                p.gamma1,
                p.gamma1_bits(),
                &mut z_bytes[j * z_poly..(j + 1) * z_poly],
            );
        }
        let mut ones = 0u32;
        for (i, (wi, hints)) in st.w.iter_mut().zip(st.hints.iter_mut()).enumerate() {
            // r = w − cs2, ‖LowBits(r)‖∞ < γ2 − β.
            let s2_i = (&sk[s_off(L + i)..s_off(L + i) + eb], p.eta, p.eta_bits());
            c_hat_times_packed(ring, &st.c, s2_i, s_hat, prod);
            ring.intt(prod);
            for (x, &v) in wi.iter_mut().zip(prod.iter()) {
                *x = canonical(*x - v);
                reject |= exceeds(decompose(*x, p.gamma2).1, gamma2_bound);
            }
            // ‖ct0‖∞ < γ2, h = MakeHint(−ct0, r + ct0).
            let t0_i = (&sk[t0_off(i)..t0_off(i) + t0b], 1 << (D - 1), D as usize);
            c_hat_times_packed(ring, &st.c, t0_i, s_hat, prod);
            ring.intt(prod);
            for ((hint_bit, &ct0), &rv) in hints.iter_mut().zip(prod.iter()).zip(wi.iter()) {
                let v = center(ct0);
                reject |= exceeds(v, p.gamma2);
                let (r1, r0) = decompose(rv, p.gamma2);
                let hint = make_hint(r0 + v, r1, p.gamma2);
                ones += hint;
                *hint_bit = hint as u8;
            }
        }
        reject |= ((p.omega as u32).wrapping_sub(ones)) >> 31;

        if reject == 0 {
            pack_hints(K, p.omega, &st.hints, h_bytes);
            return Ok(attempt + 1);
        }
    }
    sig.fill(0);
    Err(Error::SigningFailed)
}

/// ML-DSA.Verify_internal (Algorithm 8) from μ. `pk` and `sig` have the
/// exact lengths of `p`. Public data only: may branch freely.
pub fn verify_mu<const K: usize, const L: usize, R: RingBackend, H: KeccakBackend>(
    p: &Params,
    ring: &mut R,
    kc: &mut H,
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<()> {
    debug_assert!(p.k == K && p.l == L);
    let ct_len = p.ctilde_bytes();
    let z_poly = Params::poly_bytes(p.gamma1_bits());
    let (ctilde, rest) = sig.split_at(ct_len);
    let (z_bytes, h_bytes) = rest.split_at(L * z_poly);

    let mut hints = [[0u8; N]; K];
    if !unpack_hints(K, p.omega, h_bytes, &mut hints) {
        return Err(Error::MalformedEncoding {
            what: "ML-DSA signature hint",
        });
    }
    let mut z = [[0i32; N]; L];
    let bound = p.gamma1 - p.beta();
    let mut too_big = 0u32;
    for (j, zj) in z.iter_mut().enumerate() {
        unpack_centered(
            &z_bytes[j * z_poly..(j + 1) * z_poly],
            p.gamma1,
            p.gamma1_bits(),
            u32::MAX,
            zj,
        );
        for c in zj.iter_mut() {
            too_big |= exceeds(*c, bound);
            *c = canonical(*c);
        }
    }
    if too_big != 0 {
        return Err(Error::InvalidSignature);
    }

    let rho: [u8; 32] = pk[..32].try_into().expect("32 bytes");
    let mut c = [0i32; N];
    sample_in_ball(kc, ctilde, p.tau, &mut c);
    ring.ntt(&mut c);
    ring.ntt_vec(&mut z);

    // c·t1·2^d, NTT domain. t1·2^d ≤ 1023·8192 = q − 1: already canonical.
    let t1b = Params::poly_bytes(23 - D as usize);
    let mut t1 = [[0i32; N]; K];
    for (i, t) in t1.iter_mut().enumerate() {
        unpack(10, &pk[32 + i * t1b..32 + (i + 1) * t1b], |n, v| {
            t[n] = (v as i32) << D
        });
    }
    ring.ntt_vec(&mut t1);
    let mut w = [[0i32; N]; K];
    ring.scale_vec(&c, &t1, &mut w);

    // w′ = Â·z − c·t1·2^d, one row of Â at a time (t1 is reused as the row).
    let mut az = [0i32; N];
    let row = &mut t1[..L.min(K)];
    debug_assert!(L <= K);
    for (i, wi) in w.iter_mut().enumerate() {
        for (j, a) in row.iter_mut().enumerate() {
            expand_a_entry(kc, &rho, i, j, a);
        }
        ring.dot(row, &z, &mut az);
        for (x, &a) in wi.iter_mut().zip(az.iter()) {
            *x = canonical(a - *x);
        }
    }
    ring.intt_vec(&mut w);

    let w1_poly = Params::poly_bytes(p.w1_bits());
    let mut w1_packed = [0u8; W1_PACKED_MAX];
    for (i, (wi, hi)) in w.iter().zip(hints.iter()).enumerate() {
        pack(
            p.w1_bits(),
            &mut w1_packed[i * w1_poly..(i + 1) * w1_poly],
            |n| use_hint(hi[n] != 0, wi[n], p.gamma2) as u32,
        );
    }
    let mut ctilde_check = [0u8; 64];
    h(
        kc,
        &[mu, &w1_packed[..p.w1_packed_len()]],
        &mut ctilde_check[..ct_len],
    );
    if ctilde_check[..ct_len] == *ctilde {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}
