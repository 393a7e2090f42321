//! The hash functions of FIPS 205 §11 behind one engine trait.
//!
//! [`HashEngine`] is the seam between the protocol (WOTS+, XMSS, FORS, the
//! hypertree) and whatever computes the hashes. Its methods are whole units
//! of work: a WOTS+ chain of `s` steps, one XMSS leaf (a WOTS+ public key), a
//! run of FORS leaves, a Merkle node. [`ShakeEngine`] computes them over a
//! [`KeccakBackend`]'s permutation and sponge (the tweakable hash and the
//! chain lane by lane, the other units by the trait's defaults); a PL
//! engine implements [`HashEngine`] itself for what it runs (see
//! [`SlhBackend`]); [`Sha2Engine`] is software
//! (RustCrypto `sha2` compression functions, with the `PK.seed` block
//! absorbed once per key).

use super::address::{AddressType, Adrs};
use super::params::{HashFamily, Params, MAX_LEN, MAX_N, W};
use crate::keccak::{KeccakBackend, SpongeMode};
use sha2::digest::generic_array::GenericArray;
use sha2::{Digest, Sha256, Sha512};
use zeroize::Zeroize;

/// The most message parts a hash call accepts (prefix, context, OID, message…).
pub(crate) const MAX_MSG_PARTS: usize = 6;

/// Tweakable hashes of one key (`PK.seed`, and `SK.seed` when signing):
/// the one seam of the SLH-DSA hash units that software and hardware
/// implement.
///
/// Only [`HashEngine::n`], the message hashes, [`HashEngine::prf`] and
/// [`HashEngine::thash`] are required. The units ([`HashEngine::chain`],
/// [`HashEngine::tree_level`], [`HashEngine::wots_pk`],
/// [`HashEngine::fors_leaves`]) have defaults that dispatch through the
/// engine's own methods, so a backend overrides only what it accelerates
/// (a PL engine that runs whole chains overrides `chain`, and its WOTS+
/// public keys then run their chains on the PL too).
///
/// # For hardware implementers
/// Every method is one request/response: inputs are a 32-byte ADRS plus at
/// most a few n-byte values, outputs are n-byte values (or `count · n`
/// bytes). The protocol code never needs an intermediate result of a unit,
/// so an engine can keep the whole unit on the PL side. `n = self.n()` is
/// 16, 24 or 32. Results must equal FIPS 205 bit for bit (the software
/// engines are the reference; `tests/slhdsa_*.rs` compare against ACVP and
/// the `fips205` crate).
pub trait HashEngine {
    /// The security parameter `n` in bytes.
    fn n(&self) -> usize;

    /// `PRF_msg(SK.prf, opt_rand, M)`, `n` bytes; `msg` parts are concatenated.
    fn prf_msg(&mut self, sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]);

    /// `H_msg(R, PK.seed, PK.root, M)`, `m` bytes (`out.len()`).
    fn h_msg(&mut self, r: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]);

    /// `PRF(PK.seed, SK.seed, ADRS)`, `n` bytes.
    fn prf(&mut self, adrs: &Adrs, out: &mut [u8]);

    /// Tweakable hash of `m1 ‖ m2`: F (`|m1| = n`, `m2` empty), H (a Merkle
    /// node, `m1`/`m2` its children) or T_l.
    fn thash(&mut self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]);

    /// WOTS+ chain (FIPS 205 Algorithm 5): `steps` applications of F from
    /// `x`, with hash addresses `start..start + steps` in `adrs`.
    fn chain(&mut self, adrs: &Adrs, x: &[u8], start: u32, steps: u32, out: &mut [u8]) {
        let n = self.n();
        let end = start
            .checked_add(steps)
            .expect("chain: start + steps overflows the hash address");
        let mut a = *adrs;
        let mut tmp = [0u8; MAX_N];
        tmp[..n].copy_from_slice(x);
        for j in start..end {
            a.set_hash(j);
            let input = tmp;
            self.thash(&a, &input[..n], &[], &mut tmp[..n]);
        }
        out.copy_from_slice(&tmp[..n]);
    }

    /// One Merkle level: parent i = H(ADRS with tree index `first + i`,
    /// `children[2i] ‖ children[2i + 1]`), where `adrs` carries the parents'
    /// height and `first` as its tree index; `children` is twice `out`.
    fn tree_level(&mut self, adrs: &Adrs, children: &[u8], out: &mut [u8]) {
        let n = self.n();
        let mut a = *adrs;
        let first = a.tree_index();
        for (i, (parent, pair)) in out
            .chunks_exact_mut(n)
            .zip(children.chunks_exact(2 * n))
            .enumerate()
        {
            a.set_tree_index(first + i as u32);
            let (left, right) = pair.split_at(n);
            self.thash(&a, left, right, parent);
        }
    }

    /// One XMSS leaf: the WOTS+ public key for the key pair in `adrs` (type
    /// WOTS_HASH), FIPS 205 Algorithm 6.
    fn wots_pk(&mut self, adrs: &Adrs, out: &mut [u8]) {
        let n = self.n();
        let len = 2 * n + 3;
        let mut sk_adrs = *adrs;
        sk_adrs.set_type_and_clear(AddressType::WotsPrf);
        sk_adrs.set_keypair(adrs.keypair());
        let mut chain_adrs = *adrs;
        let mut ends = [0u8; MAX_LEN * MAX_N];
        let mut sk = [0u8; MAX_N];
        for i in 0..len {
            sk_adrs.set_chain(i as u32);
            self.prf(&sk_adrs, &mut sk[..n]);
            chain_adrs.set_chain(i as u32);
            self.chain(
                &chain_adrs,
                &sk[..n],
                0,
                W - 1,
                &mut ends[i * n..(i + 1) * n],
            );
        }
        sk.zeroize();
        let mut pk_adrs = *adrs;
        pk_adrs.set_type_and_clear(AddressType::WotsPk);
        pk_adrs.set_keypair(adrs.keypair());
        self.thash(&pk_adrs, &ends[..len * n], &[], out);
    }

    /// `out.len() / n` consecutive FORS leaves from tree index `first_index`
    /// (FIPS 205 Algorithms 14 and 15 at height 0); `adrs` has type
    /// FORS_TREE with tree and key pair set.
    fn fors_leaves(&mut self, adrs: &Adrs, first_index: u32, out: &mut [u8]) {
        let n = self.n();
        let mut sk_adrs = *adrs;
        sk_adrs.set_type_and_clear(AddressType::ForsPrf);
        sk_adrs.set_keypair(adrs.keypair());
        let mut leaf_adrs = *adrs;
        leaf_adrs.set_tree_height(0);
        let mut sk = [0u8; MAX_N];
        for (i, leaf) in out.chunks_exact_mut(n).enumerate() {
            let index = first_index + i as u32;
            sk_adrs.set_tree_index(index);
            self.prf(&sk_adrs, &mut sk[..n]);
            leaf_adrs.set_tree_index(index);
            self.thash(&leaf_adrs, &sk[..n], &[], leaf);
        }
        sk.zeroize();
    }
}

/// Concatenates fixed parts and message parts into one parts list.
fn join_parts<'a>(
    head: &[&'a [u8]],
    msg: &[&'a [u8]],
    buf: &'a mut [&'a [u8]; 2 + MAX_MSG_PARTS + 2],
) -> &'a [&'a [u8]] {
    let total = head.len() + msg.len();
    assert!(total <= buf.len(), "too many message parts");
    buf[..head.len()].copy_from_slice(head);
    buf[head.len()..total].copy_from_slice(msg);
    &buf[..total]
}

/// SLH-DSA-SHAKE hashes (FIPS 205 §11.1) on a [`KeccakBackend`].
pub struct ShakeEngine<'k, K: KeccakBackend> {
    keccak: &'k mut K,
    n: usize,
    pk_seed: [u8; MAX_N],
    sk_seed: [u8; MAX_N],
}

impl<'k, K: KeccakBackend> ShakeEngine<'k, K> {
    /// An engine for `PK.seed` (and `SK.seed`, or empty for verification).
    pub fn new(keccak: &'k mut K, pk_seed: &[u8], sk_seed: &[u8]) -> Self {
        let n = pk_seed.len();
        let mut e = ShakeEngine {
            keccak,
            n,
            pk_seed: [0; MAX_N],
            sk_seed: [0; MAX_N],
        };
        e.pk_seed[..n].copy_from_slice(pk_seed);
        e.sk_seed[..sk_seed.len()].copy_from_slice(sk_seed);
        e
    }

    /// The Keccak backend underneath (for engines that run some units
    /// elsewhere and the rest here).
    pub fn backend(&mut self) -> &mut K {
        self.keccak
    }
}

impl<K: KeccakBackend> Drop for ShakeEngine<'_, K> {
    fn drop(&mut self) {
        self.sk_seed.zeroize();
    }
}

impl<K: KeccakBackend> HashEngine for ShakeEngine<'_, K> {
    fn n(&self) -> usize {
        self.n
    }
    fn prf_msg(&mut self, sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut buf = [&[][..]; 2 + MAX_MSG_PARTS + 2];
        let parts = join_parts(&[sk_prf, opt_rand], msg, &mut buf);
        self.keccak.sponge(SpongeMode::Shake256, parts, out);
    }
    fn h_msg(&mut self, r: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut buf = [&[][..]; 2 + MAX_MSG_PARTS + 2];
        let pk_seed = &self.pk_seed[..self.n];
        let parts = join_parts(&[r, pk_seed, pk_root], msg, &mut buf);
        self.keccak.sponge(SpongeMode::Shake256, parts, out);
    }
    fn prf(&mut self, adrs: &Adrs, out: &mut [u8]) {
        let n = self.n;
        super::shake::thash(
            self.keccak,
            &self.pk_seed[..n],
            &adrs.0,
            &self.sk_seed[..n],
            &[],
            out,
        );
    }
    fn thash(&mut self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        super::shake::thash(self.keccak, &self.pk_seed[..self.n], &adrs.0, m1, m2, out);
    }
    /// The chain kept in lanes between steps (one permutation per step).
    fn chain(&mut self, adrs: &Adrs, x: &[u8], start: u32, steps: u32, out: &mut [u8]) {
        super::shake::chain(
            self.keccak,
            &self.pk_seed[..self.n],
            &adrs.0,
            x,
            start,
            steps,
            out,
        );
    }
}

/// What the SLH-DSA functions run on: it makes the [`HashEngine`] of one
/// key for the SHAKE parameter sets (the SHA2 sets use [`Sha2Engine`]).
///
/// Every [`KeccakBackend`] is one, with [`ShakeEngine`] (software units
/// over its sponge and permutation); a hardware backend that runs whole
/// units implements this with its own engine.
pub trait SlhBackend {
    /// The engine of one SHAKE key.
    type ShakeHashes<'a>: HashEngine
    where
        Self: 'a;

    /// The engine for `PK.seed` (and `SK.seed`, empty for verification).
    fn shake_hashes<'a>(&'a mut self, pk_seed: &[u8], sk_seed: &[u8]) -> Self::ShakeHashes<'a>;
}

impl<K: KeccakBackend> SlhBackend for K {
    type ShakeHashes<'a>
        = ShakeEngine<'a, K>
    where
        K: 'a;

    fn shake_hashes<'a>(&'a mut self, pk_seed: &[u8], sk_seed: &[u8]) -> ShakeEngine<'a, K> {
        ShakeEngine::new(self, pk_seed, sk_seed)
    }
}

/// One block as the slice `compress256` takes, without copying.
fn block64(b: &[u8; 64]) -> &[GenericArray<u8, sha2::digest::consts::U64>] {
    core::slice::from_ref(GenericArray::from_slice(b))
}

fn block128(b: &[u8; 128]) -> &[GenericArray<u8, sha2::digest::consts::U128>] {
    core::slice::from_ref(GenericArray::from_slice(b))
}

/// SHA-256 continuing from a state after `blocks` whole blocks.
struct Stream256 {
    state: [u32; 8],
    buf: [u8; 64],
    used: usize,
    blocks: u64,
}

impl Stream256 {
    fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (64 - self.used).min(data.len());
            self.buf[self.used..self.used + take].copy_from_slice(&data[..take]);
            self.used += take;
            data = &data[take..];
            if self.used == 64 {
                sha2::compress256(&mut self.state, block64(&self.buf));
                self.blocks += 1;
                self.used = 0;
            }
        }
    }
    fn finish(mut self, out: &mut [u8]) {
        let bits = (self.blocks * 64 + self.used as u64) * 8;
        self.buf[self.used] = 0x80;
        self.buf[self.used + 1..].fill(0);
        if self.used >= 56 {
            sha2::compress256(&mut self.state, block64(&self.buf));
            self.buf.fill(0);
        }
        self.buf[56..].copy_from_slice(&bits.to_be_bytes());
        sha2::compress256(&mut self.state, block64(&self.buf));
        store_words32(&self.state, out);
    }
}

/// SHA-512 continuing from a state after `blocks` whole blocks.
struct Stream512 {
    state: [u64; 8],
    buf: [u8; 128],
    used: usize,
    blocks: u64,
}

impl Stream512 {
    fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (128 - self.used).min(data.len());
            self.buf[self.used..self.used + take].copy_from_slice(&data[..take]);
            self.used += take;
            data = &data[take..];
            if self.used == 128 {
                sha2::compress512(&mut self.state, block128(&self.buf));
                self.blocks += 1;
                self.used = 0;
            }
        }
    }
    fn finish(mut self, out: &mut [u8]) {
        let bits = (self.blocks as u128 * 128 + self.used as u128) * 8;
        self.buf[self.used] = 0x80;
        self.buf[self.used + 1..].fill(0);
        if self.used >= 112 {
            sha2::compress512(&mut self.state, block128(&self.buf));
            self.buf.fill(0);
        }
        self.buf[112..].copy_from_slice(&bits.to_be_bytes());
        sha2::compress512(&mut self.state, block128(&self.buf));
        store_words64(&self.state, out);
    }
}

fn store_words32(state: &[u32; 8], out: &mut [u8]) {
    for (chunk, word) in out.chunks_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes()[..chunk.len()]);
    }
}

fn store_words64(state: &[u64; 8], out: &mut [u8]) {
    for (chunk, word) in out.chunks_mut(8).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes()[..chunk.len()]);
    }
}

const SHA256_IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
const SHA512_IV: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// SLH-DSA-SHA2 hashes (FIPS 205 §11.2), software.
///
/// `PK.seed ‖ toByte(0, 64 − n)` (and the 128-byte form for SHA-512) is one
/// whole block, so its compression is done once here and every F, H, T_l and
/// PRF starts from the saved state; F and PRF (and H for n = 16, and H for
/// n > 16 in SHA-512) then take exactly one more compression.
pub struct Sha2Engine {
    n: usize,
    /// Security categories 3 and 5 use SHA-512 for H, T_l, H_msg, PRF_msg.
    wide: bool,
    pk_seed: [u8; MAX_N],
    sk_seed: [u8; MAX_N],
    seeded256: [u32; 8],
    seeded512: [u64; 8],
}

impl Sha2Engine {
    /// An engine for `PK.seed` (and `SK.seed`, or empty for verification).
    pub fn new(params: &Params, pk_seed: &[u8], sk_seed: &[u8]) -> Self {
        debug_assert_eq!(params.family, HashFamily::Sha2);
        let n = params.n;
        let mut block = [0u8; 128];
        block[..n].copy_from_slice(pk_seed);
        let mut seeded256 = SHA256_IV;
        let mut b64 = [0u8; 64];
        b64.copy_from_slice(&block[..64]);
        sha2::compress256(&mut seeded256, block64(&b64));
        let mut seeded512 = SHA512_IV;
        sha2::compress512(&mut seeded512, block128(&block));
        let mut e = Sha2Engine {
            n,
            wide: params.category > 1,
            pk_seed: [0; MAX_N],
            sk_seed: [0; MAX_N],
            seeded256,
            seeded512,
        };
        e.pk_seed[..n].copy_from_slice(pk_seed);
        e.sk_seed[..sk_seed.len()].copy_from_slice(sk_seed);
        e
    }

    fn stream256(&self) -> Stream256 {
        Stream256 {
            state: self.seeded256,
            buf: [0; 64],
            used: 0,
            blocks: 1,
        }
    }

    fn stream512(&self) -> Stream512 {
        Stream512 {
            state: self.seeded512,
            buf: [0; 128],
            used: 0,
            blocks: 1,
        }
    }

    /// SHA-256 over the seeded block, then `ADRSc ‖ m1 ‖ m2`, truncated to n.
    fn sha256_thash(&self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        let c = adrs.compressed();
        let tail = c.len() + m1.len() + m2.len();
        if tail <= 55 {
            // One block: ADRSc ‖ m ‖ 0x80 ‖ 0… ‖ bit length of 64 + tail bytes.
            let mut b = [0u8; 64];
            b[..22].copy_from_slice(&c);
            b[22..22 + m1.len()].copy_from_slice(m1);
            b[22 + m1.len()..tail].copy_from_slice(m2);
            b[tail] = 0x80;
            b[56..].copy_from_slice(&(((64 + tail) as u64) * 8).to_be_bytes());
            let mut state = self.seeded256;
            sha2::compress256(&mut state, block64(&b));
            store_words32(&state, out);
        } else {
            let mut s = self.stream256();
            s.update(&c);
            s.update(m1);
            s.update(m2);
            s.finish(out);
        }
    }

    fn sha512_thash(&self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        let c = adrs.compressed();
        let tail = c.len() + m1.len() + m2.len();
        if tail <= 111 {
            let mut b = [0u8; 128];
            b[..22].copy_from_slice(&c);
            b[22..22 + m1.len()].copy_from_slice(m1);
            b[22 + m1.len()..tail].copy_from_slice(m2);
            b[tail] = 0x80;
            b[112..].copy_from_slice(&(((128 + tail) as u128) * 8).to_be_bytes());
            let mut state = self.seeded512;
            sha2::compress512(&mut state, block128(&b));
            store_words64(&state, out);
        } else {
            let mut s = self.stream512();
            s.update(&c);
            s.update(m1);
            s.update(m2);
            s.finish(out);
        }
    }
}

impl Drop for Sha2Engine {
    fn drop(&mut self) {
        self.sk_seed.zeroize();
    }
}

/// HMAC (RFC 2104) over a key no longer than the block, message in parts.
fn hmac<D: Digest + Clone, const BLOCK: usize>(
    key: &[u8],
    head: &[u8],
    msg: &[&[u8]],
    out: &mut [u8],
) {
    let mut pad = [0u8; BLOCK];
    pad[..key.len()].copy_from_slice(key);
    for b in pad.iter_mut() {
        *b ^= 0x36;
    }
    let mut inner = D::new();
    inner.update(pad);
    inner.update(head);
    for part in msg {
        inner.update(part);
    }
    let inner_digest = inner.finalize();
    for b in pad.iter_mut() {
        *b ^= 0x36 ^ 0x5c;
    }
    let mut outer = D::new();
    outer.update(pad);
    outer.update(&inner_digest);
    let digest = outer.finalize();
    out.copy_from_slice(&digest[..out.len()]);
    pad.zeroize();
}

/// MGF1 (RFC 8017 B.2.1) of `seed_parts`, `out.len()` bytes.
fn mgf1<D: Digest + Clone>(seed_parts: &[&[u8]], out: &mut [u8]) {
    let mut seeded = D::new();
    for part in seed_parts {
        seeded.update(part);
    }
    for (counter, chunk) in out.chunks_mut(<D as Digest>::output_size()).enumerate() {
        let mut h = seeded.clone();
        h.update((counter as u32).to_be_bytes());
        let digest = h.finalize();
        chunk.copy_from_slice(&digest[..chunk.len()]);
    }
}

impl HashEngine for Sha2Engine {
    fn n(&self) -> usize {
        self.n
    }
    fn prf_msg(&mut self, sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        if self.wide {
            hmac::<Sha512, 128>(sk_prf, opt_rand, msg, out)
        } else {
            hmac::<Sha256, 64>(sk_prf, opt_rand, msg, out)
        }
    }
    fn h_msg(&mut self, r: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let pk_seed = &self.pk_seed[..self.n];
        if self.wide {
            let mut h = Sha512::new();
            h.update(r);
            h.update(pk_seed);
            h.update(pk_root);
            for part in msg {
                h.update(part);
            }
            let inner = h.finalize();
            mgf1::<Sha512>(&[r, pk_seed, &inner], out);
        } else {
            let mut h = Sha256::new();
            h.update(r);
            h.update(pk_seed);
            h.update(pk_root);
            for part in msg {
                h.update(part);
            }
            let inner = h.finalize();
            mgf1::<Sha256>(&[r, pk_seed, &inner], out);
        }
    }
    fn prf(&mut self, adrs: &Adrs, out: &mut [u8]) {
        self.sha256_thash(adrs, &self.sk_seed[..self.n], &[], out);
    }
    fn thash(&mut self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        // F is always SHA-256; H and T_l use SHA-512 in categories 3 and 5.
        let is_f = m2.is_empty() && m1.len() == self.n;
        if self.wide && !is_f {
            self.sha512_thash(adrs, m1, m2, out)
        } else {
            self.sha256_thash(adrs, m1, m2, out)
        }
    }
    fn chain(&mut self, adrs: &Adrs, x: &[u8], start: u32, steps: u32, out: &mut [u8]) {
        let n = self.n;
        out.copy_from_slice(x);
        if steps == 0 {
            return;
        }
        // The block `ADRSc ‖ tmp ‖ padding` is built once; each step rewrites
        // the hash address (ADRSc bytes 18..22) and `tmp`.
        let mut b = [0u8; 64];
        b[..22].copy_from_slice(&adrs.compressed());
        b[22 + n] = 0x80;
        b[56..].copy_from_slice(&(((64 + 22 + n) as u64) * 8).to_be_bytes());
        b[22..22 + n].copy_from_slice(x);
        let end = start
            .checked_add(steps)
            .expect("chain: hash address overflow");
        for j in start..end {
            b[18..22].copy_from_slice(&j.to_be_bytes());
            let mut state = self.seeded256;
            sha2::compress256(&mut state, block64(&b));
            store_words32(&state, &mut b[22..22 + n]);
        }
        out.copy_from_slice(&b[22..22 + n]);
    }
}
