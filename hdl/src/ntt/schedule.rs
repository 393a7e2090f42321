//! The data layout and schedule of the NTT core, as plain Rust: the HDL
//! controller implements these formulas, the twiddle ROMs are generated from
//! them, and the tests check them against `pqc::ring` and for hazards.
//!
//! # Constant-geometry schedule
//!
//! Every forward layer reads positions `(j, j+128)` and writes the butterfly
//! outputs to `(2j, 2j+1)`; every inverse layer reads `(2j, 2j+1)` and writes
//! `(j, j+128)` (ping-pong between a slot and a scratch buffer). After layer
//! `l` position `p` holds in-place index `ror^l(p)` (forward) or `rol^l(p)`
//! (inverse), so after 8 layers the data is back in natural order, equal to
//! FIPS 204's in-place result. Lane `b` of `B` handles `j = c·B + b` in issue
//! cycle `c`.
//!
//! # Banks
//!
//! A buffer is `2B` banks; coefficient `i` lives in bank
//! `(i + B·i₇) mod 2B` at address `i / 2B`. Both access patterns — `{cB+b,
//! cB+b+128}` and `{2cB … 2cB+2B−1}` — then touch every bank exactly once
//! per cycle, so `B` butterflies run every cycle without bank conflicts, and
//! the crossbars reduce to 2-way choices.
//!
//! The inverse transform halves both butterfly outputs (x/2 mod q is a shift
//! and a conditional add of (q+1)/2), which over 8 layers is exactly the
//! 256⁻¹ scaling: no extra pass, no second multiplier.

use pqc::ring::{N, ZETAS};

/// Lanes (butterflies per cycle) supported.
pub const LANE_OPTIONS: [usize; 3] = [1, 2, 4];

/// Bank of coefficient `i` for `b` lanes.
pub const fn bank_of(i: usize, b: usize) -> usize {
    (i + b * (i >> 7)) % (2 * b)
}

/// Address of coefficient `i` inside its bank.
pub const fn addr_of(i: usize, b: usize) -> usize {
    i / (2 * b)
}

/// Which transform direction a twiddle is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Inverse,
}

/// `ZETAS` index used by lane `lane` in issue cycle `c` of layer `layer`.
pub const fn twiddle_index(dir: Direction, layer: usize, c: usize, lane: usize, b: usize) -> usize {
    let j = c * b + lane;
    match dir {
        Direction::Forward => (1 << layer) + j % (1 << layer),
        Direction::Inverse => {
            let m = 128 >> layer;
            2 * m - 1 - j % m
        }
    }
}

/// Number of distinct twiddles a lane needs in one layer; the twiddle
/// depends on `c mod period` only.
pub const fn twiddle_period(dir: Direction, layer: usize, b: usize) -> usize {
    let span = match dir {
        Direction::Forward => 1 << layer,
        Direction::Inverse => 128 >> layer,
    };
    if span >= b {
        span / b
    } else {
        1
    }
}

/// ROM address of the first twiddle of a layer: forward layers 0..7 then
/// inverse layers 0..7, each `twiddle_period` entries long.
pub const fn twiddle_base(dir: Direction, layer: usize, b: usize) -> usize {
    let mut base = 0;
    let mut l = 0;
    while l < 8 {
        if matches!(dir, Direction::Forward) && l == layer {
            return base;
        }
        base += twiddle_period(Direction::Forward, l, b);
        l += 1;
    }
    l = 0;
    while l < layer {
        base += twiddle_period(Direction::Inverse, l, b);
        l += 1;
    }
    base
}

/// Entries used in each lane's twiddle ROM.
pub const fn twiddle_rom_len(b: usize) -> usize {
    twiddle_base(Direction::Inverse, 8, b)
}

/// Contents of lane `lane`'s twiddle ROM (plain canonical `ZETAS` values).
pub fn twiddle_rom(lane: usize, b: usize) -> Vec<u64> {
    let mut rom = vec![0u64; twiddle_rom_len(b)];
    for dir in [Direction::Forward, Direction::Inverse] {
        for layer in 0..8 {
            let base = twiddle_base(dir, layer, b);
            for c in 0..twiddle_period(dir, layer, b) {
                rom[base + c] = ZETAS[twiddle_index(dir, layer, c, lane, b)] as u64;
            }
        }
    }
    rom
}

/// Issue cycles of one transform: 8 layers of 128/B butterflies per lane.
pub const fn transform_issue_cycles(b: usize) -> usize {
    8 * (N / 2) / b
}

/// Issue cycles of a pointwise operation: 256/B products per lane.
pub const fn pointwise_issue_cycles(b: usize) -> usize {
    N / b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntt::sim::Lcg;
    use pqc::ring::{freeze, mul_mod, Q};

    /// The schedule executed in software, position by position, with the
    /// butterflies the core uses (GS outputs halved).
    fn schedule_transform(a: &pqc::ring::Poly, dir: Direction, b: usize) -> pqc::ring::Poly {
        let half = |x: i32| if x & 1 == 0 { x / 2 } else { (x + Q) / 2 };
        let mut cur = *a;
        for layer in 0..8 {
            let mut next = [0i32; N];
            for c in 0..128 / b {
                for lane in 0..b {
                    let j = c * b + lane;
                    let w = ZETAS[twiddle_index(dir, layer, c, lane, b)];
                    match dir {
                        Direction::Forward => {
                            let (u, v) = (cur[j], cur[j + 128]);
                            let t = mul_mod(v, w);
                            next[2 * j] = freeze(u + t);
                            next[2 * j + 1] = freeze(u - t);
                        }
                        Direction::Inverse => {
                            let (u, v) = (cur[2 * j], cur[2 * j + 1]);
                            next[j] = half(freeze(u + v));
                            next[j + 128] = mul_mod(half(freeze(v - u)), w);
                        }
                    }
                }
            }
            cur = next;
        }
        cur
    }

    #[test]
    fn constant_geometry_schedule_equals_fips204_transforms() {
        let mut rng = Lcg::new(11);
        for &b in &LANE_OPTIONS {
            for _ in 0..20 {
                let a = rng.poly();
                let mut f = a;
                pqc::ring::ntt(&mut f);
                assert_eq!(schedule_transform(&a, Direction::Forward, b), f);
                let mut i = a;
                pqc::ring::intt(&mut i);
                assert_eq!(schedule_transform(&a, Direction::Inverse, b), i);
            }
        }
    }

    #[test]
    fn twiddles_depend_on_cycle_modulo_period_only() {
        for &b in &LANE_OPTIONS {
            for dir in [Direction::Forward, Direction::Inverse] {
                for layer in 0..8 {
                    let p = twiddle_period(dir, layer, b);
                    for c in 0..128 / b {
                        for lane in 0..b {
                            assert_eq!(
                                twiddle_index(dir, layer, c, lane, b),
                                twiddle_index(dir, layer, c % p, lane, b)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn banks_are_conflict_free_for_every_access_pattern() {
        for &b in &LANE_OPTIONS {
            for i in 0..N {
                for k in i + 1..N {
                    assert!((bank_of(i, b), addr_of(i, b)) != (bank_of(k, b), addr_of(k, b)));
                }
            }
            let distinct = |idx: &[usize]| {
                let mut banks: Vec<_> = idx.iter().map(|&i| bank_of(i, b)).collect();
                banks.sort_unstable();
                banks.dedup();
                banks.len() == idx.len()
            };
            for c in 0..128 / b {
                let pairs: Vec<usize> = (0..b).flat_map(|l| [c * b + l, c * b + l + 128]).collect();
                let adjacent: Vec<usize> = (2 * c * b..2 * c * b + 2 * b).collect();
                assert!(distinct(&pairs) && distinct(&adjacent), "b={b} c={c}");
            }
            for c in 0..N / b {
                let pw: Vec<usize> = (0..b).map(|l| c * b + l).collect();
                assert!(distinct(&pw));
            }
        }
    }

    /// Layer l+1 must not read a position before layer l has written it.
    /// `read_to_write` is the core's issue-to-write distance (cycles); a
    /// write at the end of cycle t is readable by an issue in cycle t+1.
    pub(crate) fn min_layer_slack(b: usize, read_to_write: usize) -> i64 {
        let per_layer = (128 / b) as i64;
        let mut slack = i64::MAX;
        for dir in [Direction::Forward, Direction::Inverse] {
            let mut written = [0i64; N];
            for c in 0..per_layer {
                for lane in 0..b {
                    let j = c as usize * b + lane;
                    let outs = match dir {
                        Direction::Forward => [2 * j, 2 * j + 1],
                        Direction::Inverse => [j, j + 128],
                    };
                    for p in outs {
                        written[p] = c + read_to_write as i64;
                    }
                }
            }
            for c in 0..per_layer {
                for lane in 0..b {
                    let j = c as usize * b + lane;
                    let ins = match dir {
                        Direction::Forward => [j, j + 128],
                        Direction::Inverse => [2 * j, 2 * j + 1],
                    };
                    for p in ins {
                        slack = slack.min(per_layer + c - written[p] - 1);
                    }
                }
            }
        }
        slack
    }

    #[test]
    fn layers_overlap_without_read_after_write_hazards() {
        for &b in &LANE_OPTIONS {
            let slack = min_layer_slack(b, crate::ntt::core::ISSUE_TO_WRITE);
            assert!(slack >= 0, "b={b}: slack {slack}");
        }
    }

    #[test]
    fn rom_holds_every_twiddle_used() {
        for &b in &LANE_OPTIONS {
            for lane in 0..b {
                let rom = twiddle_rom(lane, b);
                for dir in [Direction::Forward, Direction::Inverse] {
                    for layer in 0..8 {
                        for c in 0..128 / b {
                            let p = twiddle_period(dir, layer, b);
                            let a = twiddle_base(dir, layer, b) + c % p;
                            assert_eq!(rom[a], ZETAS[twiddle_index(dir, layer, c, lane, b)] as u64);
                        }
                    }
                }
            }
        }
    }
}
