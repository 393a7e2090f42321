//! Hashing and sampling of FIPS 204 §7.3 (SampleInBall, RejNTTPoly,
//! RejBoundedPoly, ExpandA, ExpandS, ExpandMask) on top of
//! [`KeccakBackend::sponge`].
//!
//! The rejection samplers ask the backend for an output length that
//! suffices with overwhelming probability. On a shortfall they re-request a
//! longer output (twice the length) and continue where they stopped; if even
//! that is short they stream further blocks with [`KeccakBackend::permute`].
//! No sponge state is kept between backend calls.

use crate::keccak::{KeccakBackend, SpongeMode};
use crate::ring::{Poly, N, Q};

/// H = SHAKE256 over the concatenated parts (FIPS 204 §3.7).
#[inline]
pub fn h<K: KeccakBackend>(kc: &mut K, parts: &[&[u8]], out: &mut [u8]) {
    kc.sponge(SpongeMode::Shake256, parts, out);
}

/// ExpandA first request: 5 SHAKE128 blocks = 280 candidates for 256 slots
/// (each rejected with probability < 2^-10).
pub const REJ_NTT_FIRST: usize = 5 * 168;
/// ExpandS first request for η = 2: 2 SHAKE256 blocks = 544 nibbles,
/// each accepted with probability 15/16.
pub const REJ_ETA2_FIRST: usize = 2 * 136;
/// ExpandS first request for η = 4: 3 blocks = 816 nibbles, acceptance 9/16.
pub const REJ_ETA4_FIRST: usize = 3 * 136;
/// SampleInBall first request: one SHAKE256 block (8 sign bytes + 128 positions).
pub const BALL_FIRST: usize = 136;
/// Longest first request of any sampler (sizes the stack buffers).
const FIRST_MAX: usize = REJ_NTT_FIRST;

/// Runs `consume` over the XOF output of `parts`: first `first_len` bytes
/// (a multiple of the rate), then on shortfall more, until it returns true.
/// `consume` gets consecutive chunks whose lengths are multiples of the rate.
fn xof_sample<K: KeccakBackend>(
    kc: &mut K,
    mode: SpongeMode,
    parts: &[&[u8]],
    first_len: usize,
    consume: &mut impl FnMut(&[u8]) -> bool,
) {
    let mut buf = [0u8; FIRST_MAX];
    let first = &mut buf[..first_len];
    kc.sponge(mode, parts, first);
    if consume(first) {
        return;
    }
    xof_sample_longer(kc, mode, parts, first_len, consume);
}

/// The rare path of [`xof_sample`]: re-request twice the length, then
/// stream. Kept out of line so its buffer is not on the common stack path.
#[cold]
#[inline(never)]
fn xof_sample_longer<K: KeccakBackend>(
    kc: &mut K,
    mode: SpongeMode,
    parts: &[&[u8]],
    done_len: usize,
    consume: &mut impl FnMut(&[u8]) -> bool,
) {
    let mut buf = [0u8; 2 * FIRST_MAX];
    let longer = &mut buf[..2 * done_len];
    kc.sponge(mode, parts, longer);
    if consume(&longer[done_len..]) {
        return;
    }
    stream_from(kc, mode, parts, 2 * done_len, consume);
}

/// Streams the XOF output from byte `skip` (a multiple of the rate) one block
/// at a time through [`KeccakBackend::permute`]. Terminates with probability 1;
/// it is reached only after two shortfalls (probability far below 2^-256).
fn stream_from<K: KeccakBackend>(
    kc: &mut K,
    mode: SpongeMode,
    parts: &[&[u8]],
    skip: usize,
    consume: &mut impl FnMut(&[u8]) -> bool,
) {
    let rate = mode.rate_bytes();
    let mut state = [0u64; 25];
    let mut pos = 0usize;
    for part in parts {
        for &byte in part.iter() {
            state[pos / 8] ^= (byte as u64) << (8 * (pos % 8));
            pos += 1;
            if pos == rate {
                kc.permute(&mut state);
                pos = 0;
            }
        }
    }
    state[pos / 8] ^= (mode.domain_byte() as u64) << (8 * (pos % 8));
    state[(rate - 1) / 8] ^= 0x80u64 << (8 * ((rate - 1) % 8));
    kc.permute(&mut state);
    for _ in 0..skip / rate {
        kc.permute(&mut state);
    }
    let mut block = [0u8; 168];
    loop {
        for (i, b) in block[..rate].iter_mut().enumerate() {
            *b = (state[i / 8] >> (8 * (i % 8))) as u8;
        }
        if consume(&block[..rate]) {
            return;
        }
        kc.permute(&mut state);
    }
}

/// RejNTTPoly (Algorithm 30) for the seed ρ ‖ s ‖ r (Â\[r\]\[s\]), with the
/// first request length as a parameter so tests can force the rare paths.
pub fn rej_ntt_poly_with<K: KeccakBackend>(
    kc: &mut K,
    rho: &[u8; 32],
    col: u8,
    row: u8,
    first_len: usize,
    a: &mut Poly,
) {
    let mut ctr = 0usize;
    xof_sample(
        kc,
        SpongeMode::Shake128,
        &[rho, &[col, row]],
        first_len,
        &mut |bytes| {
            for c in bytes.chunks_exact(3) {
                let t = (c[0] as i32) | (c[1] as i32) << 8 | ((c[2] & 0x7F) as i32) << 16;
                // Public data (ρ is in the public key): branching is fine.
                if t < Q {
                    a[ctr] = t;
                    ctr += 1;
                    if ctr == N {
                        return true;
                    }
                }
            }
            false
        },
    );
}

/// One entry Â\[row\]\[col\] of ExpandA (Algorithm 32), canonical, NTT domain.
#[inline]
pub fn expand_a_entry<K: KeccakBackend>(
    kc: &mut K,
    rho: &[u8; 32],
    row: usize,
    col: usize,
    a: &mut Poly,
) {
    rej_ntt_poly_with(kc, rho, col as u8, row as u8, REJ_NTT_FIRST, a);
}

/// RejBoundedPoly (Algorithm 31) for seed ρ′ ‖ IntegerToBytes(index, 2):
/// coefficients in [−η, η] (centred, not reduced).
///
/// Constant-time note: whether a nibble is rejected depends on secret XOF
/// output, so the loop branches on it; the rejected nibbles are independent
/// of the kept ones, so the timing reveals nothing about the coefficients.
pub fn rej_bounded_poly_with<K: KeccakBackend>(
    kc: &mut K,
    rho_prime: &[u8; 64],
    index: u16,
    eta: i32,
    first_len: usize,
    a: &mut Poly,
) {
    let mut ctr = 0usize;
    let mut take = |z: u32| -> bool {
        let accept = if eta == 2 { z < 15 } else { z < 9 };
        if accept {
            // z mod 5 for z < 15 via multiply-shift, no division.
            let v = if eta == 2 {
                2 - (z as i32 - ((205 * z as i32) >> 10) * 5)
            } else {
                4 - z as i32
            };
            a[ctr] = v;
            ctr += 1;
        }
        ctr == N
    };
    xof_sample(
        kc,
        SpongeMode::Shake256,
        &[rho_prime, &index.to_le_bytes()],
        first_len,
        &mut |bytes| {
            for &b in bytes {
                if take(b as u32 & 15) || take(b as u32 >> 4) {
                    return true;
                }
            }
            false
        },
    );
}

/// ExpandS (Algorithm 33) polynomial `index` (s1 uses 0..l, s2 uses l..l+k).
pub fn expand_s_poly<K: KeccakBackend>(
    kc: &mut K,
    rho_prime: &[u8; 64],
    index: u16,
    eta: i32,
    a: &mut Poly,
) {
    let first = if eta == 2 {
        REJ_ETA2_FIRST
    } else {
        REJ_ETA4_FIRST
    };
    rej_bounded_poly_with(kc, rho_prime, index, eta, first, a);
}

/// ExpandMask (Algorithm 34) for one polynomial: y = γ1 − BitUnpack of
/// H(ρ″ ‖ IntegerToBytes(κ + r, 2)), coefficients in [−γ1 + 1, γ1].
pub fn expand_mask_poly<K: KeccakBackend>(
    kc: &mut K,
    rho2: &[u8; 64],
    nonce: u16,
    gamma1: i32,
    bits: usize,
    y: &mut Poly,
) {
    let mut buf = [0u8; 32 * 20];
    let out = &mut buf[..32 * bits];
    h(kc, &[rho2, &nonce.to_le_bytes()], out);
    super::encode::unpack(bits, out, |i, v| y[i] = gamma1 - v as i32);
}

/// SampleInBall (Algorithm 29): c with τ coefficients ±1 (canonical: 1 or
/// q − 1), from the commitment hash c̃ (all λ/4 bytes).
///
/// Constant-time note: the positions j come from H(c̃); for rejected
/// signing attempts c̃ is secret, so c is written with a full masked scan
/// instead of indexing by j. Only the number of rejected bytes (j > i)
/// shows in the timing, and those bytes are discarded.
pub fn sample_in_ball_with<K: KeccakBackend>(
    kc: &mut K,
    ctilde: &[u8],
    tau: usize,
    first_len: usize,
    c: &mut Poly,
) {
    c.fill(0);
    let mut signs = 0u64;
    let mut have_signs = false;
    let mut i = N - tau;
    xof_sample(
        kc,
        SpongeMode::Shake256,
        &[ctilde],
        first_len,
        &mut |bytes| {
            let mut rest = bytes;
            if !have_signs {
                signs = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
                rest = &rest[8..];
                have_signs = true;
            }
            for &jb in rest {
                let j = jb as usize;
                if j > i {
                    continue;
                }
                // c[i] = c[j]; c[j] = (−1)^(sign bit), without indexing by j.
                let sign = (signs & 1) as i32;
                signs >>= 1;
                // 1 or q − 1.
                let value = 1 + sign * (Q - 2);
                // One masked pass reads the old c[j] and writes ±1 there.
                // c[i] is still 0 before this step, so OR-ing the old c[j]
                // into it afterwards is right both for j < i and j = i.
                let cj = masked_swap_in(c, j, value);
                c[i] |= cj;
                i += 1;
                if i == N {
                    return true;
                }
            }
            false
        },
    );
}

/// Writes `value` at `c[j]` and returns the old `c[j]`, touching every
/// coefficient the same way whatever `j` is. Positions past the current `i`
/// are still 0 and `j ≤ i`, so scanning all of `c` is right and keeps the
/// access pattern independent of `i` too.
///
/// The masks are computed a chunk at a time and passed through
/// `black_box`: LLVM cannot then turn the masked select back into a
/// compare-and-branch on `j` (seen under the valgrind check with a per-element
/// formulation), and the selects stay vectorisable, which a `black_box` per
/// coefficient prevented (it cost ~10 % of ML-DSA signing in instructions).
#[inline(always)]
fn masked_swap_in(c: &mut Poly, j: usize, value: i32) -> i32 {
    const CHUNK: usize = 8;
    let mut old = 0;
    for (chunk_index, chunk) in c.chunks_exact_mut(CHUNK).enumerate() {
        let mut masks = [0i32; CHUNK];
        for (lane, mask) in masks.iter_mut().enumerate() {
            let x = ((chunk_index * CHUNK + lane) ^ j) as i32;
            *mask = ((x | x.wrapping_neg()) >> 31) ^ -1;
        }
        let masks = core::hint::black_box(masks);
        for (coeff, mask) in chunk.iter_mut().zip(masks) {
            old |= *coeff & mask;
            *coeff = (*coeff & !mask) | (value & mask);
        }
    }
    old
}

/// SampleInBall with the default first request.
pub fn sample_in_ball<K: KeccakBackend>(kc: &mut K, ctilde: &[u8], tau: usize, c: &mut Poly) {
    sample_in_ball_with(kc, ctilde, tau, BALL_FIRST, c);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keccak::SoftKeccak;

    /// Counts how a sampler used the backend.
    #[derive(Default)]
    struct Recorder {
        sponge_lengths: [usize; 4],
        sponges: usize,
        permutes: usize,
    }

    impl KeccakBackend for Recorder {
        fn permute(&mut self, state: &mut [u64; 25]) {
            self.permutes += 1;
            SoftKeccak.permute(state)
        }
        fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
            if self.sponges < 4 {
                self.sponge_lengths[self.sponges] = out.len();
            }
            self.sponges += 1;
            SoftKeccak.sponge(mode, parts, out)
        }
    }

    #[test]
    fn rej_ntt_poly_same_result_on_every_path() {
        let rho = [0x3Cu8; 32];
        let mut normal = [0; N];
        let mut rec = Recorder::default();
        rej_ntt_poly_with(&mut rec, &rho, 1, 2, REJ_NTT_FIRST, &mut normal);
        assert_eq!((rec.sponges, rec.permutes), (1, 0), "one sponge call");
        assert!(normal.iter().all(|&c| (0..Q).contains(&c)));

        // One block first: 56 candidates, then 112, then streaming.
        let mut forced = [0; N];
        let mut rec = Recorder::default();
        rej_ntt_poly_with(&mut rec, &rho, 1, 2, 168, &mut forced);
        assert_eq!(forced, normal);
        assert_eq!(rec.sponges, 2);
        assert_eq!(&rec.sponge_lengths[..2], &[168, 336]);
        assert!(rec.permutes >= 3, "stream path used");

        // Two blocks first, then four: the re-request path suffices.
        let mut longer = [0; N];
        let mut rec = Recorder::default();
        rej_ntt_poly_with(&mut rec, &rho, 1, 2, 3 * 168, &mut longer);
        assert_eq!(longer, normal);
        assert_eq!((rec.sponges, rec.permutes), (2, 0));
    }

    #[test]
    fn rej_bounded_poly_same_result_on_every_path() {
        let seed = [0xA5u8; 64];
        for eta in [2, 4] {
            for index in 0..20u16 {
                let mut normal = [0; N];
                expand_s_poly(&mut SoftKeccak, &seed, index, eta, &mut normal);
                assert!(normal.iter().all(|&c| (-eta..=eta).contains(&c)));
                let mut forced = [0; N];
                rej_bounded_poly_with(&mut SoftKeccak, &seed, index, eta, 136, &mut forced);
                assert_eq!(forced, normal, "eta {eta} index {index}");
            }
        }
    }

    #[test]
    fn sample_in_ball_has_tau_signed_ones_and_matches_definition() {
        for tau in [39usize, 49, 60] {
            for seed in 0..50u8 {
                let ctilde = [seed; 48];
                let mut c = [0; N];
                sample_in_ball(&mut SoftKeccak, &ctilde[..tau / 2], tau, &mut c);
                // Direct transcription of FIPS 204 Algorithm 29.
                let mut stream = [0u8; 4 * 136];
                SoftKeccak.sponge(SpongeMode::Shake256, &[&ctilde[..tau / 2]], &mut stream);
                let signs = u64::from_le_bytes(stream[..8].try_into().unwrap());
                let mut want = [0i32; N];
                let mut pos = 8;
                for i in N - tau..N {
                    let mut j = stream[pos] as usize;
                    pos += 1;
                    while j > i {
                        j = stream[pos] as usize;
                        pos += 1;
                    }
                    want[i] = want[j];
                    want[j] = if (signs >> (i + tau - N)) & 1 == 1 {
                        Q - 1
                    } else {
                        1
                    };
                }
                assert_eq!(c, want, "tau {tau} seed {seed}");
                assert_eq!(c.iter().filter(|&&x| x != 0).count(), tau);
            }
        }
    }
}
