//! One backend wrapper for every per-call measurement: [`Hooked`] forwards
//! each top-level `RingBackend` / `KeccakBackend` / `WotsChainOffload` call to the wrapped
//! backend and runs a [`CallHook`] around it. The host timing
//! ([`crate::workload::CallTimer`]) and the co-simulation's record of which
//! calls reached the PL ([`crate::cosim::PlUse`]) are hooks, so the list of
//! trait methods is written once.
//!
//! Only top-level calls are seen: the wrapped backend's own nested calls (a
//! default `dot` calling `pointwise_mul`, say) stay inside it.

use driver::accel::WotsChainOffload;
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
}

impl<B: WotsChainOffload, H: CallHook> WotsChainOffload for Hooked<B, H> {
    fn wots_chain(
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
            self.inner.wots_chain(pk_seed, adrs, x, start, steps, out)
        )
    }
}
