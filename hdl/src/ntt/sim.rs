//! Cycle-stepping helpers for the rust-hdl simulation tests.
//!
//! The tests drive the clock directly (set the clock, let the combinational
//! logic settle, repeat) instead of through `Simulation`'s testbench threads:
//! it is the same event model without the thread hand-offs, so long
//! random-vector runs stay within the test-time budget.

use rust_hdl::prelude::*;

/// Maximum delta iterations per clock edge before declaring a combinational
/// loop.
const SETTLE_LIMIT: usize = 1000;

/// Propagates combinational changes until nothing changes.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(
        simulate(uut, SETTLE_LIMIT),
        "circuit did not settle (combinational loop?)"
    );
}

/// One full clock cycle. Inputs set before the call are sampled at the
/// rising edge. The falling edge is settled together with the inputs of the
/// next cycle (no logic here uses the falling edge), which saves a third of
/// the delta iterations.
pub fn tick<B: Block>(uut: &mut B, clock: impl Fn(&mut B) -> &mut Signal<In, Clock>) {
    clock(uut).next = Clock::from(false);
    settle(uut);
    clock(uut).next = Clock::from(true);
    settle(uut);
}

/// Small deterministic generator for test vectors (64-bit LCG, upper bits).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 32) as u32
    }

    /// A uniform canonical coefficient in `[0, q)`.
    pub fn coeff(&mut self) -> i32 {
        loop {
            let c = self.next_u32() & 0x7F_FFFF;
            if (c as i32) < pqc::ring::Q {
                return c as i32;
            }
        }
    }

    /// A uniform canonical polynomial.
    pub fn poly(&mut self) -> pqc::ring::Poly {
        let mut p = [0; pqc::ring::N];
        for c in p.iter_mut() {
            *c = self.coeff();
        }
        p
    }
}
