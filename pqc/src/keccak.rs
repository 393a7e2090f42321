//! Keccak-f\[1600\] and the SHA-3 sponge, behind a backend trait.
//!
//! ML-DSA uses SHAKE128/256 for ExpandA, ExpandS, ExpandMask, SampleInBall
//! and H; SLH-DSA-SHAKE builds its tweakable hashes on SHAKE256. All of it
//! goes through [`KeccakBackend`], so a PL sponge engine can serve it.

/// The sponge functions a backend must provide (FIPS 202).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpongeMode {
    /// SHAKE128: rate 168 bytes, domain byte 0x1F.
    Shake128,
    /// SHAKE256: rate 136 bytes, domain byte 0x1F.
    Shake256,
    /// SHA3-256: rate 136 bytes, domain byte 0x06, 32-byte digest.
    Sha3_256,
    /// SHA3-512: rate 72 bytes, domain byte 0x06, 64-byte digest.
    Sha3_512,
}

impl SpongeMode {
    /// Every mode, in a fixed order (the order of the hardware mode field).
    pub const ALL: [SpongeMode; 4] = [
        SpongeMode::Shake128,
        SpongeMode::Shake256,
        SpongeMode::Sha3_256,
        SpongeMode::Sha3_512,
    ];

    /// Rate in bytes (1600 bits minus the capacity).
    pub const fn rate_bytes(self) -> usize {
        match self {
            SpongeMode::Shake128 => 168,
            SpongeMode::Shake256 | SpongeMode::Sha3_256 => 136,
            SpongeMode::Sha3_512 => 72,
        }
    }

    /// First padding byte: the domain-separation bits and the first `1` of pad10*1.
    pub const fn domain_byte(self) -> u8 {
        match self {
            SpongeMode::Shake128 | SpongeMode::Shake256 => 0x1F,
            SpongeMode::Sha3_256 | SpongeMode::Sha3_512 => 0x06,
        }
    }

    /// Digest length for the fixed-output modes, `None` for the XOFs.
    pub const fn digest_bytes(self) -> Option<usize> {
        match self {
            SpongeMode::Shake128 | SpongeMode::Shake256 => None,
            SpongeMode::Sha3_256 => Some(32),
            SpongeMode::Sha3_512 => Some(64),
        }
    }
}

/// Keccak work offloaded by the protocol code.
///
/// # For hardware implementers
///
/// - [`KeccakBackend::sponge`] is the unit of work to accelerate: one call
///   absorbs a whole message (given as a list of parts that are logically
///   concatenated, so callers never copy to build it), pads it and squeezes
///   the whole requested output. A PL engine should receive the parts as one
///   stream and send `out.len()` bytes back; it never needs to return to the
///   CPU between permutations.
/// - Rejection samplers (ExpandA, ExpandS, SampleInBall) do not know their
///   output length in advance. They request a length that suffices with
///   overwhelming probability and, in the rare case it does not, repeat the
///   request with a longer output and skip what they already consumed. So a
///   backend never needs to keep sponge state between calls.
/// - [`KeccakBackend::permute`] exists for completeness and testing; protocol
///   code does not call it in a loop.
/// - The SLH-DSA units of work (WOTS+ chain, WOTS+ public key, FORS leaves,
///   Merkle levels, tweakable hashes) are not here: their seam is
///   [`crate::slhdsa::HashEngine`], which a hardware backend implements
///   for the units it accelerates.
/// - Output must equal [`soft_sponge`] bit for bit, for any output length
///   (for the SHA3 modes, lengths other than the digest length give the plain
///   sponge output with that mode's padding).
pub trait KeccakBackend {
    /// Keccak-f\[1600\] on one state (lanes little-endian, index x + 5y).
    fn permute(&mut self, state: &mut [u64; 25]);

    /// Absorb `parts` (concatenated) with `mode`'s padding, squeeze `out.len()` bytes.
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        soft_sponge(|s| self.permute(s), mode, parts, out)
    }
}

/// Keccak-f\[1600\] in portable software (RustCrypto `keccak`).
pub fn keccak_f1600(state: &mut [u64; 25]) {
    keccak::Keccak::new().with_f1600(|f| f(state));
}

/// The FIPS 202 sponge over any permutation: absorb, pad, squeeze.
pub fn soft_sponge(
    mut permute: impl FnMut(&mut [u64; 25]),
    mode: SpongeMode,
    parts: &[&[u8]],
    out: &mut [u8],
) {
    let rate = mode.rate_bytes();
    let mut state = [0u64; 25];
    let mut pos = 0usize;
    for part in parts {
        for &byte in part.iter() {
            state[pos / 8] ^= (byte as u64) << (8 * (pos % 8));
            pos += 1;
            if pos == rate {
                permute(&mut state);
                pos = 0;
            }
        }
    }
    state[pos / 8] ^= (mode.domain_byte() as u64) << (8 * (pos % 8));
    state[(rate - 1) / 8] ^= 0x80u64 << (8 * ((rate - 1) % 8));
    permute(&mut state);
    let mut pos = 0usize;
    for byte in out.iter_mut() {
        if pos == rate {
            permute(&mut state);
            pos = 0;
        }
        *byte = (state[pos / 8] >> (8 * (pos % 8))) as u8;
        pos += 1;
    }
}

/// The portable software backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct SoftKeccak;

impl KeccakBackend for SoftKeccak {
    fn permute(&mut self, state: &mut [u64; 25]) {
        keccak_f1600(state)
    }
    /// Same output as [`soft_sponge`], absorbing and squeezing whole
    /// 64-bit lanes instead of single bytes.
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        let rate = mode.rate_bytes();
        let mut state = [0u64; 25];
        let mut block = [0u8; 168];
        let mut pos = 0usize;
        let absorb = |state: &mut [u64; 25], block: &[u8]| {
            for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
                *lane ^= u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            }
            keccak_f1600(state);
        };
        for part in parts {
            let mut data: &[u8] = part;
            while !data.is_empty() {
                let take = (rate - pos).min(data.len());
                block[pos..pos + take].copy_from_slice(&data[..take]);
                pos += take;
                data = &data[take..];
                if pos == rate {
                    absorb(&mut state, &block[..rate]);
                    pos = 0;
                }
            }
        }
        block[pos..rate].fill(0);
        block[pos] = mode.domain_byte();
        block[rate - 1] |= 0x80;
        absorb(&mut state, &block[..rate]);
        for (n, chunk) in out.chunks_mut(rate).enumerate() {
            if n > 0 {
                keccak_f1600(&mut state);
            }
            for (lane, bytes) in state.iter().zip(chunk.chunks_mut(8)) {
                bytes.copy_from_slice(&lane.to_le_bytes()[..bytes.len()]);
            }
        }
    }
}

/// A mutable reference to a backend is a backend (so `&mut dyn
/// KeccakBackend` fits where a sized backend is expected). Every method
/// forwards, so the referent's whole-unit overrides are the ones used.
impl<K: KeccakBackend + ?Sized> KeccakBackend for &mut K {
    fn permute(&mut self, state: &mut [u64; 25]) {
        (**self).permute(state)
    }
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        (**self).sponge(mode, parts, out)
    }
}

/// A backend wrapper that counts permutations, for the hardware sizing
/// figures (how many Keccak-f calls a signature costs).
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingKeccak<B> {
    /// The backend doing the work.
    pub inner: B,
    /// Permutations performed so far.
    pub permutations: u64,
}

impl<B: KeccakBackend> KeccakBackend for CountingKeccak<B> {
    fn permute(&mut self, state: &mut [u64; 25]) {
        self.permutations += 1;
        self.inner.permute(state)
    }
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        let absorbed: usize = parts.iter().map(|p| p.len()).sum();
        let rate = mode.rate_bytes();
        let squeezed_blocks = out.len().div_ceil(rate).max(1);
        self.permutations += (absorbed / rate + squeezed_blocks) as u64;
        self.inner.sponge(mode, parts, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};

    fn message(len: usize) -> [u8; 600] {
        core::array::from_fn(|i| if i < len { (i * 131 + len) as u8 } else { 0 })
    }

    #[test]
    fn sponge_matches_sha3_crate_across_rate_boundaries() {
        for len in [0, 1, 71, 72, 73, 135, 136, 137, 167, 168, 169, 500] {
            let buf = message(len);
            let (a, b) = buf[..len].split_at(len / 3);
            let parts: [&[u8]; 2] = [a, b];
            for out_len in [1, 32, 64, 168, 169, 400] {
                let mut ours = [0u8; 400];
                let mut theirs = [0u8; 400];
                SoftKeccak.sponge(SpongeMode::Shake128, &parts, &mut ours[..out_len]);
                let mut h = sha3::Shake128::default();
                h.update(&buf[..len]);
                h.finalize_xof().read(&mut theirs[..out_len]);
                assert_eq!(
                    ours[..out_len],
                    theirs[..out_len],
                    "shake128 {len} {out_len}"
                );

                SoftKeccak.sponge(SpongeMode::Shake256, &parts, &mut ours[..out_len]);
                let mut h = sha3::Shake256::default();
                h.update(&buf[..len]);
                h.finalize_xof().read(&mut theirs[..out_len]);
                assert_eq!(
                    ours[..out_len],
                    theirs[..out_len],
                    "shake256 {len} {out_len}"
                );
            }
            let mut d = [0u8; 64];
            SoftKeccak.sponge(SpongeMode::Sha3_256, &parts, &mut d[..32]);
            assert_eq!(d[..32], sha3::Sha3_256::digest(&buf[..len])[..]);
            SoftKeccak.sponge(SpongeMode::Sha3_512, &parts, &mut d);
            assert_eq!(d[..], sha3::Sha3_512::digest(&buf[..len])[..]);
        }
    }

    #[test]
    fn soft_keccak_sponge_equals_the_bytewise_reference() {
        let buf = message(600);
        for mode in SpongeMode::ALL {
            for len in [0, 1, 7, 8, 71, 72, 135, 136, 137, 168, 300, 337] {
                let (a, rest) = buf[..len].split_at(len / 4);
                let (b, c) = rest.split_at(rest.len() / 2);
                for out_len in [0, 1, 9, 64, 72, 136, 168, 169, 400] {
                    let mut ours = [0u8; 400];
                    let mut reference = [0u8; 400];
                    SoftKeccak.sponge(mode, &[a, b, c], &mut ours[..out_len]);
                    soft_sponge(
                        keccak_f1600,
                        mode,
                        &[&buf[..len]],
                        &mut reference[..out_len],
                    );
                    assert_eq!(ours, reference, "{mode:?} {len} {out_len}");
                }
            }
        }
    }

    #[test]
    fn counting_backend_counts_what_the_sponge_does() {
        for (len, out_len) in [(0usize, 1usize), (135, 136), (136, 137), (300, 500)] {
            let buf = message(len);
            let mut c = CountingKeccak::<SoftKeccak>::default();
            let mut out = [0u8; 500];
            c.sponge(SpongeMode::Shake256, &[&buf[..len]], &mut out[..out_len]);
            let mut by_permute = 0u64;
            soft_sponge(
                |s| {
                    by_permute += 1;
                    keccak_f1600(s)
                },
                SpongeMode::Shake256,
                &[&buf[..len]],
                &mut out[..out_len],
            );
            assert_eq!(c.permutations, by_permute);
        }
    }
}
