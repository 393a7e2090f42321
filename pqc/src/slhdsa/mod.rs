//! SLH-DSA, the stateless hash-based signature standard (FIPS 205).
//!
//! Two layers:
//! - byte-slice functions mirroring FIPS 205 (`slh_keygen`,
//!   `slh_keygen_internal`, `slh_sign`, `hash_slh_sign`, `slh_sign_internal`,
//!   `slh_verify`, `hash_slh_verify`, `slh_verify_internal`) taking a
//!   [`Params`] and caller buffers, each with a `_with` form that takes the
//!   [`SlhBackend`] doing the SHAKE work (any [`KeccakBackend`] is one);
//! - typed keys per parameter set ([`sha2_128s`] … [`shake_256f`]) with the
//!   RustCrypto `signature` traits.
//!
//! Hashing goes through [`HashEngine`], the one seam of the hash units,
//! in units of whole work items. Each unit has a default built on the
//! engine's own `prf`/`thash`/`chain`, so a hardware engine overrides only
//! the units it runs (one bus transaction each):
//!
//! | unit | FIPS 205 | per call |
//! |---|---|---|
//! | [`HashEngine::wots_pk`] | Alg. 6 | one XMSS leaf: `len` PRFs, `len` chains of 15 steps, T_len |
//! | [`HashEngine::chain`] | Alg. 5 | one WOTS+ chain of `s` steps (signing, verifying) |
//! | [`HashEngine::fors_leaves`] | Alg. 14–15 | a run of FORS leaves (PRF + F each), 32 per call |
//! | [`HashEngine::tree_level`] | Alg. 9/15 nodes | one Merkle level of up to 16 parents |
//! | [`HashEngine::thash`] | F, H, T_l | one tweakable hash (auth-path climbs, roots) |
//!
//! The Keccak backend ([`KeccakBackend`]) keeps only the permutation and
//! the sponge. `tests/slhdsa_backend.rs` checks an engine that overrides
//! every unit against the defaults and prints the unit calls per signature.
//!
//! Nothing here allocates; the largest stack buffers are a few KiB
//! (WOTS+ chain ends, a FORS leaf batch), independent of the signature size.

pub mod address;
mod api;
pub mod hash;
pub mod operations;
pub mod params;
pub(crate) mod shake;
mod tree;
mod typed;

pub use crate::prehash::PreHash;
pub use api::*;
pub use hash::{HashEngine, Sha2Engine, ShakeEngine, SlhBackend};
pub use operations::{
    slh_keygen_internal_on, slh_sign_internal_on, slh_sign_on, slh_verify_internal_on,
    slh_verify_on, MessageDigest, OnBackend, SlhDsaOperations,
};
pub use params::{HashFamily, Params};
pub use typed::*;

use crate::keccak::{KeccakBackend, SpongeMode};

/// Reference WOTS+ chain for the SHAKE instances: FIPS 205 Algorithm 5,
/// `chain(X, i = start, s = steps, PK.seed, ADRS)`.
///
/// For `j` in `start..start + steps`: set the hash address (ADRS bytes
/// 28..32, big-endian) to `j`, then `tmp = SHAKE256(PK.seed ‖ ADRS ‖ tmp, 8n)`,
/// starting from `tmp = x`; `out = tmp`. `n = x.len() = pk_seed.len() =
/// out.len()` must be 16, 24 or 32.
///
/// This is the plain sponge formulation, one [`KeccakBackend::sponge`] call
/// per step, kept as the specification against which
/// [`HashEngine::chain`] (software or hardware) is tested.
///
/// # Panics
/// If the lengths differ or are not 16, 24 or 32, or if `start + steps`
/// overflows `u32`.
pub fn shake_wots_chain<K: KeccakBackend>(
    keccak: &mut K,
    pk_seed: &[u8],
    adrs: &[u8; 32],
    x: &[u8],
    start: u32,
    steps: u32,
    out: &mut [u8],
) {
    let n = pk_seed.len();
    shake::check_n(n);
    assert!(
        x.len() == n && out.len() == n,
        "chain: x and out must be n bytes"
    );
    let end = start
        .checked_add(steps)
        .expect("chain: start + steps overflows the hash address");
    let mut adrs = *adrs;
    let mut tmp = [0u8; params::MAX_N];
    tmp[..n].copy_from_slice(x);
    for j in start..end {
        adrs[28..32].copy_from_slice(&j.to_be_bytes());
        let input = tmp;
        keccak.sponge(
            SpongeMode::Shake256,
            &[pk_seed, &adrs, &input[..n]],
            &mut tmp[..n],
        );
    }
    out.copy_from_slice(&tmp[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keccak::{CountingKeccak, SoftKeccak};
    use sha3::digest::{ExtendableOutput, Update, XofReader};

    fn bytes<const L: usize>(seed: u8) -> [u8; L] {
        core::array::from_fn(|i| (i as u8).wrapping_mul(29).wrapping_add(seed))
    }

    #[test]
    fn reference_chain_equals_sha3_crate_step_by_step() {
        for n in [16usize, 24, 32] {
            let pk_seed = bytes::<32>(1);
            let adrs: [u8; 32] = bytes(7);
            let x = bytes::<32>(3);
            let mut out = [0u8; 32];
            shake_wots_chain(
                &mut SoftKeccak,
                &pk_seed[..n],
                &adrs,
                &x[..n],
                3,
                5,
                &mut out[..n],
            );
            let mut tmp = x;
            let mut a = adrs;
            for j in 3u32..8 {
                a[28..32].copy_from_slice(&j.to_be_bytes());
                let mut h = sha3::Shake256::default();
                h.update(&pk_seed[..n]);
                h.update(&a);
                h.update(&tmp[..n]);
                let mut next = [0u8; 32];
                h.finalize_xof().read(&mut next[..n]);
                tmp = next;
            }
            assert_eq!(out[..n], tmp[..n], "n = {n}");
        }
    }

    #[test]
    fn backend_chain_equals_reference_and_counts_one_permutation_per_step() {
        for n in [16usize, 24, 32] {
            for (start, steps) in [(0u32, 0u32), (0, 1), (0, 15), (4, 7), (14, 1)] {
                let pk_seed = bytes::<32>(n as u8);
                let adrs: [u8; 32] = bytes(start as u8);
                let x = bytes::<32>(steps as u8);
                let mut reference = [0u8; 32];
                shake_wots_chain(
                    &mut SoftKeccak,
                    &pk_seed[..n],
                    &adrs,
                    &x[..n],
                    start,
                    steps,
                    &mut reference[..n],
                );
                let mut counting = CountingKeccak::<SoftKeccak>::default();
                let mut fast = [0u8; 32];
                ShakeEngine::new(&mut counting, &pk_seed[..n], &[]).chain(
                    &address::Adrs(adrs),
                    &x[..n],
                    start,
                    steps,
                    &mut fast[..n],
                );
                assert_eq!(
                    fast[..n],
                    reference[..n],
                    "n {n} start {start} steps {steps}"
                );
                assert_eq!(counting.permutations, steps as u64);
            }
        }
    }

    #[test]
    fn lane_thash_equals_sponge_for_every_shape() {
        for n in [16usize, 24, 32] {
            let pk_seed = bytes::<32>(9);
            let adrs: [u8; 32] = bytes(11);
            let m = bytes::<200>(5);
            for (l1, l2) in [
                (0usize, 0usize),
                (n, 0),
                (n, n),
                (2 * n, n),
                (3 * n, 2 * n),
                (5, 3),
            ] {
                let mut fast = [0u8; 32];
                ShakeEngine::new(&mut SoftKeccak, &pk_seed[..n], &[]).thash(
                    &address::Adrs(adrs),
                    &m[..l1],
                    &m[l1..l1 + l2],
                    &mut fast[..n],
                );
                let mut slow = [0u8; 32];
                SoftKeccak.sponge(
                    SpongeMode::Shake256,
                    &[&pk_seed[..n], &adrs, &m[..l1 + l2]],
                    &mut slow[..n],
                );
                assert_eq!(fast, slow, "n {n} parts {l1}+{l2}");
            }
        }
    }
}
