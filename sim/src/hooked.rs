//! One backend wrapper for every per-call measurement: [`Hooked`] forwards
//! each top-level `RingBackend` / `KeccakBackend` call to the wrapped
//! backend and runs a [`CallHook`] around it. The host timing
//! ([`crate::workload::CallTimer`]) and the co-simulation's record of which
//! calls reached the PL ([`crate::cosim::PlUse`]) are hooks, so the list of
//! trait methods is written once.
//!
//! Only top-level calls are seen: the wrapped backend's own nested calls (a
//! default `dot` calling `pointwise_mul`, say) stay inside it.

use pqc::keccak::{KeccakBackend, SpongeMode};
use pqc::ring::{Poly, RingBackend};

/// What [`Hooked`] does around each call.
pub trait CallHook {
    /// What `before` hands to `after` (a start time, a counter value).
    type Start;
    /// Runs just before the call.
    fn before(&mut self) -> Self::Start;
    /// Runs just after the call.
    fn after(&mut self, start: Self::Start);
}

/// A backend with a hook around each of its calls.
#[derive(Debug, Default)]
pub struct Hooked<B, H> {
    /// The backend doing the work.
    pub inner: B,
    /// What runs around each call, with what it recorded.
    pub hook: H,
}

impl<B, H> Hooked<B, H> {
    /// Wraps `inner`.
    pub fn new(inner: B, hook: H) -> Self {
        Hooked { inner, hook }
    }
}

macro_rules! around {
    ($self:ident, $call:expr) => {{
        let start = $self.hook.before();
        let result = $call;
        $self.hook.after(start);
        result
    }};
}

impl<B: RingBackend, H: CallHook> RingBackend for Hooked<B, H> {
    fn ntt(&mut self, a: &mut Poly) {
        around!(self, self.inner.ntt(a))
    }
    fn intt(&mut self, a: &mut Poly) {
        around!(self, self.inner.intt(a))
    }
    fn pointwise_mul(&mut self, a: &Poly, b: &Poly, out: &mut Poly) {
        around!(self, self.inner.pointwise_mul(a, b, out))
    }
    fn pointwise_mul_acc(&mut self, acc: &mut Poly, a: &Poly, b: &Poly) {
        around!(self, self.inner.pointwise_mul_acc(acc, a, b))
    }
    fn ntt_vec(&mut self, v: &mut [Poly]) {
        around!(self, self.inner.ntt_vec(v))
    }
    fn intt_vec(&mut self, v: &mut [Poly]) {
        around!(self, self.inner.intt_vec(v))
    }
    fn dot(&mut self, row: &[Poly], v: &[Poly], out: &mut Poly) {
        around!(self, self.inner.dot(row, v, out))
    }
    fn scale_vec(&mut self, c: &Poly, v: &[Poly], out: &mut [Poly]) {
        around!(self, self.inner.scale_vec(c, v, out))
    }
}

impl<B: KeccakBackend, H: CallHook> KeccakBackend for Hooked<B, H> {
    fn permute(&mut self, state: &mut [u64; 25]) {
        around!(self, self.inner.permute(state))
    }
    fn sponge(&mut self, mode: SpongeMode, parts: &[&[u8]], out: &mut [u8]) {
        around!(self, self.inner.sponge(mode, parts, out))
    }
    fn slh_shake_chain(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        x: &[u8],
        start: u32,
        steps: u32,
        out: &mut [u8],
    ) {
        around!(
            self,
            self.inner
                .slh_shake_chain(pk_seed, adrs, x, start, steps, out)
        )
    }
    fn slh_shake_thash(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        m1: &[u8],
        m2: &[u8],
        out: &mut [u8],
    ) {
        around!(self, self.inner.slh_shake_thash(pk_seed, adrs, m1, m2, out))
    }
    fn slh_shake_tree_level(
        &mut self,
        pk_seed: &[u8],
        adrs: &[u8; 32],
        children: &[u8],
        out: &mut [u8],
    ) {
        around!(
            self,
            self.inner
                .slh_shake_tree_level(pk_seed, adrs, children, out)
        )
    }
    fn slh_shake_wots_pk(
        &mut self,
        pk_seed: &[u8],
        sk_seed: &[u8],
        adrs: &[u8; 32],
        out: &mut [u8],
    ) {
        around!(
            self,
            self.inner.slh_shake_wots_pk(pk_seed, sk_seed, adrs, out)
        )
    }
    fn slh_shake_fors_leaves(
        &mut self,
        pk_seed: &[u8],
        sk_seed: &[u8],
        adrs: &[u8; 32],
        first_index: u32,
        out: &mut [u8],
    ) {
        around!(
            self,
            self.inner
                .slh_shake_fors_leaves(pk_seed, sk_seed, adrs, first_index, out)
        )
    }
}
