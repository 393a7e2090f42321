//! SLH-DSA-SHAKE with its WOTS+ chains on the PL: [`SlhOnPl`] is the
//! `pqc` [`SlhBackend`] whose hash engine ([`PlShakeHashes`]) overrides
//! only the chain. Every other unit keeps the `HashEngine` defaults, which
//! dispatch through the chain and the tweakable hash, so a WOTS+ public key
//! is its 2n + 3 chains as PL jobs and the short hashes (F, H, PRF) stay in
//! software, where one permutation costs less than a bus round trip.

use pqc::keccak::{KeccakBackend, SoftKeccak};
use pqc::slhdsa::address::Adrs;
use pqc::slhdsa::{HashEngine, ShakeEngine, SlhBackend};

/// A Keccak backend that can run a whole SLH-DSA-SHAKE WOTS+ chain (FIPS
/// 205 Algorithm 5): the PL's `OP_WOTS_CHAIN`, or software.
pub trait WotsChainOffload: KeccakBackend {
    /// Starting from `tmp = x`, for `j` in `start..start + steps`: hash
    /// address (ADRS bytes 28..32) = `j`, `tmp = SHAKE256(PK.seed ‖ ADRS ‖
    /// tmp, 8n)`; `out = tmp`. `n = pk_seed.len()`; `adrs` is the whole
    /// 32-byte address.
    fn wots_chain(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        x: &[u8],
        start: u32,
        steps: u32,
        out: &mut [u8],
    );
}

/// The software chain (`pqc`'s `ShakeEngine`).
impl WotsChainOffload for SoftKeccak {
    fn wots_chain(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        x: &[u8],
        start: u32,
        steps: u32,
        out: &mut [u8],
    ) {
        ShakeEngine::new(self, pk_seed, &[]).chain(&Adrs(*adrs), x, start, steps, out)
    }
}

impl<K: WotsChainOffload + ?Sized> WotsChainOffload for &mut K {
    fn wots_chain(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        x: &[u8],
        start: u32,
        steps: u32,
        out: &mut [u8],
    ) {
        (**self).wots_chain(pk_seed, adrs, x, start, steps, out)
    }
}

/// The SLH-DSA backend over `K`: SHAKE keys get a [`PlShakeHashes`].
/// Pass `&mut SlhOnPl(&mut hw_keccak)` to the `pqc::slhdsa::*_with`
/// functions.
pub struct SlhOnPl<K>(pub K);

impl<K: WotsChainOffload> SlhBackend for SlhOnPl<K> {
    type ShakeHashes<'a>
        = PlShakeHashes<'a, K>
    where
        K: 'a;

    fn shake_hashes<'a>(&'a mut self, pk_seed: &[u8], sk_seed: &[u8]) -> PlShakeHashes<'a, K> {
        let n = pk_seed.len();
        let mut seed = [0u8; 32];
        seed[..n].copy_from_slice(pk_seed);
        PlShakeHashes {
            soft: ShakeEngine::new(&mut self.0, pk_seed, sk_seed),
            pk_seed: seed,
            n,
        }
    }
}

/// The hash engine of one SHAKE key: chains through
/// [`WotsChainOffload::wots_chain`], everything else as `ShakeEngine`.
pub struct PlShakeHashes<'a, K: KeccakBackend> {
    soft: ShakeEngine<'a, K>,
    pk_seed: [u8; 32],
    n: usize,
}

impl<K: WotsChainOffload> HashEngine for PlShakeHashes<'_, K> {
    fn n(&self) -> usize {
        self.n
    }
    fn prf_msg(&mut self, sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        self.soft.prf_msg(sk_prf, opt_rand, msg, out)
    }
    fn h_msg(&mut self, r: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        self.soft.h_msg(r, pk_root, msg, out)
    }
    fn prf(&mut self, adrs: &Adrs, out: &mut [u8]) {
        self.soft.prf(adrs, out)
    }
    fn thash(&mut self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        self.soft.thash(adrs, m1, m2, out)
    }
    fn chain(&mut self, adrs: &Adrs, x: &[u8], start: u32, steps: u32, out: &mut [u8]) {
        let n = self.n;
        self.soft
            .backend()
            .wots_chain(&self.pk_seed[..n], &adrs.0, x, start, steps, out)
    }
}
