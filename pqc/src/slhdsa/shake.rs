//! The SHAKE tweakable hash and WOTS+ chain of [`super::ShakeEngine`]
//! (FIPS 205 §11.1), built lane by lane on [`KeccakBackend::permute`] (or
//! [`KeccakBackend::sponge`] for inputs longer than one block), so a
//! counting backend still sees every permutation.
//!
//! Every tweakable-hash input `PK.seed ‖ ADRS ‖ M` with `|M| ≤ 3n` fits the
//! first 136-byte SHAKE256 block, and `n` is a multiple of 8, so the seed,
//! the address and `M` occupy whole lanes: the state is built lane by lane
//! without byte shuffling, and a chain keeps its value in lanes between
//! steps.

use super::params::MAX_N;
use crate::keccak::{KeccakBackend, SpongeMode};

const RATE: usize = 136;
/// Lane 16 holds the last rate byte, which takes the final padding bit.
const LAST_RATE_LANE: usize = RATE / 8 - 1;

pub(crate) fn check_n(n: usize) {
    assert!(
        n == 16 || n == 24 || n == 32,
        "SLH-DSA n must be 16, 24 or 32, got {n}"
    );
}

fn load_lanes(dst: &mut [u64], src: &[u8]) {
    for (lane, chunk) in dst.iter_mut().zip(src.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *lane = u64::from_le_bytes(b);
    }
}

fn store_lanes(dst: &mut [u8], src: &[u64]) {
    for (chunk, lane) in dst.chunks_exact_mut(8).zip(src) {
        chunk.copy_from_slice(&lane.to_le_bytes());
    }
}

/// `PK.seed ‖ ADRS` as lanes, the fixed prefix of every tweakable hash.
fn prefix_lanes(pk_seed: &[u8], adrs: &[u8; 32]) -> [u64; 8] {
    let mut lanes = [0u64; 8];
    let w = pk_seed.len() / 8;
    load_lanes(&mut lanes[..w], pk_seed);
    load_lanes(&mut lanes[w..w + 4], adrs);
    lanes
}

/// The hash-address word (ADRS bytes 28..32, big-endian) is the high half of
/// the last address lane.
fn with_hash_address(lane: u64, hash: u32) -> u64 {
    (lane & 0xFFFF_FFFF) | ((hash.swap_bytes() as u64) << 32)
}

/// SHAKE256 of `prefix ‖ msg` (all whole lanes, one block), first `w` lanes out.
fn one_block<K: KeccakBackend + ?Sized>(
    keccak: &mut K,
    prefix: &[u64],
    msg: &[u64],
    out: &mut [u64],
) {
    let mut state = [0u64; 25];
    state[..prefix.len()].copy_from_slice(prefix);
    let end = prefix.len() + msg.len();
    state[prefix.len()..end].copy_from_slice(msg);
    state[end] ^= 0x1F;
    state[LAST_RATE_LANE] ^= 0x80 << 56;
    keccak.permute(&mut state);
    let w = out.len();
    out.copy_from_slice(&state[..w]);
}

/// FIPS 205 Algorithm 5 for SHAKE (see [`super::HashEngine::chain`]).
pub(crate) fn chain<K: KeccakBackend + ?Sized>(
    keccak: &mut K,
    pk_seed: &[u8],
    adrs: &[u8; 32],
    x: &[u8],
    start: u32,
    steps: u32,
    out: &mut [u8],
) {
    let n = pk_seed.len();
    check_n(n);
    assert!(
        x.len() == n && out.len() == n,
        "chain: x and out must be n bytes"
    );
    let end = start
        .checked_add(steps)
        .expect("chain: start + steps overflows the hash address");
    let w = n / 8;
    let mut prefix = prefix_lanes(pk_seed, adrs);
    let mut tmp = [0u64; MAX_N / 8];
    load_lanes(&mut tmp[..w], x);
    for j in start..end {
        prefix[w + 3] = with_hash_address(prefix[w + 3], j);
        let value = tmp;
        one_block(keccak, &prefix[..w + 4], &value[..w], &mut tmp[..w]);
    }
    store_lanes(out, &tmp[..w]);
}

/// `SHAKE256(PK.seed ‖ ADRS ‖ m1 ‖ m2, 8·out.len())` (F, H, T_l and PRF).
pub(crate) fn thash<K: KeccakBackend + ?Sized>(
    keccak: &mut K,
    pk_seed: &[u8],
    adrs: &[u8; 32],
    m1: &[u8],
    m2: &[u8],
    out: &mut [u8],
) {
    let n = pk_seed.len();
    check_n(n);
    let lane_aligned = m1.len() % 8 == 0 && m2.len() % 8 == 0 && out.len() % 8 == 0;
    let total = n + 32 + m1.len() + m2.len();
    if lane_aligned && total < RATE && out.len() <= RATE {
        let w = n / 8;
        let prefix = prefix_lanes(pk_seed, adrs);
        let mut msg = [0u64; 12];
        let (w1, w2) = (m1.len() / 8, m2.len() / 8);
        load_lanes(&mut msg[..w1], m1);
        load_lanes(&mut msg[w1..w1 + w2], m2);
        let mut lanes = [0u64; RATE / 8];
        let wo = out.len() / 8;
        one_block(keccak, &prefix[..w + 4], &msg[..w1 + w2], &mut lanes[..wo]);
        store_lanes(out, &lanes[..wo]);
    } else {
        keccak.sponge(SpongeMode::Shake256, &[pk_seed, adrs, m1, m2], out);
    }
}
