//! Simulation tests of the whole core against `pqc::ring`, through its
//! ports (start/busy/done, streams), with the cycle count of every command
//! asserted against its formula.
//!
//! Random-vector counts: the rust-hdl simulation of the whole core runs at
//! about 1,400 cycles/s here, and one iteration of [`sweep`] (one random
//! polynomial through every operation) is ~2,200 cycles at B = 4, so the
//! default run uses [`default_iterations`]; `PQC_FULL=1` runs 1,000
//! iterations (1,000 random polynomials per operation) for every B.

use super::core::{
    load_cycles, pointwise_cycles, row_store_cycles, rows as rows_of, store_cycles,
    transform_cycles, CoeffBuffer, NttCore,
};
use super::harness::{Command, CoreSim};
use super::sim::Lcg;
use pqc::ring::{self, Poly, N, Q};
use ps_pl_contract::regmap::ntt as reg;
use rust_hdl::prelude::*;

fn full() -> bool {
    std::env::var("PQC_FULL").is_ok_and(|v| v == "1")
}

/// Iterations of the sweep: 1,000 with `PQC_FULL=1`, else `default`.
fn iterations(default: usize) -> usize {
    if full() {
        1000
    } else {
        default
    }
}

/// Edge-case polynomials: zeros, all q−1, single coefficients.
fn edge_polys() -> Vec<Poly> {
    let mut v = vec![[0; N], [Q - 1; N]];
    for (pos, val) in [(0, 1), (255, Q - 1), (1, 1), (128, 2), (77, Q - 1)] {
        let mut p = [0; N];
        p[pos] = val;
        v.push(p);
    }
    v
}

/// Every operation on edge cases then on `random` random polynomials; each
/// output is compared with `pqc::ring` and each cycle count with its
/// formula. Returns the number of polynomials per operation.
fn sweep<const B: usize, const BANKS: usize, const AW: usize, const TW: usize>(
    random: usize,
    seed: u64,
) -> usize {
    let mut sim = CoreSim::<B, BANKS, AW, TW>::new();
    let mut rng = Lcg::new(seed);
    let mut polys = edge_polys();
    for _ in 0..random {
        polys.push(rng.poly());
    }
    let mut acc: Poly = [0; N];
    for (it, a) in polys.iter().enumerate() {
        let b = if it % 3 == 0 {
            polys[(it * 7) % polys.len()]
        } else {
            rng.poly()
        };
        assert_eq!(sim.load(0, a).cycles as usize, load_cycles());
        let r = sim.exec(reg::OP_NTT, [0, 0, 0]);
        assert_eq!(r.cycles as usize, transform_cycles(B), "NTT cycles");
        assert_eq!(r.busy_cycles, r.cycles);
        let (got, st) = sim.store(0);
        assert_eq!(st.cycles as usize, store_cycles());
        let mut want = *a;
        ring::ntt(&mut want);
        assert_eq!(got, want, "NTT of polynomial {it}");

        let r = sim.exec(reg::OP_INTT, [0, 0, 0]);
        assert_eq!(r.cycles as usize, transform_cycles(B), "INTT cycles");
        let (got, _) = sim.store(0);
        let mut want_inv = want;
        ring::intt(&mut want_inv);
        assert_eq!(got, want_inv, "INTT of polynomial {it}");

        sim.load(1, &b);
        let r = sim.exec(reg::OP_PWM, [2, 0, 1]);
        assert_eq!(r.cycles as usize, pointwise_cycles(B), "PWM cycles");
        let (got, _) = sim.store(2);
        let mut prod = [0; N];
        ring::pointwise_mul(&want_inv, &b, &mut prod);
        assert_eq!(got, prod, "PWM {it}");

        // The accumulator slot 2 keeps its value across iterations.
        if it == 0 {
            acc = prod;
        }
        let r = sim.exec(reg::OP_PWMAC, [2, 1, 0]);
        assert_eq!(r.cycles as usize, pointwise_cycles(B), "PWMAC cycles");
        let (got, _) = sim.store(2);
        let prev = if it == 0 { acc } else { prod };
        let mut want_acc = prev;
        ring::pointwise_mul_acc(&mut want_acc, &b, &want_inv);
        assert_eq!(got, want_acc, "PWMAC {it}");
        acc = want_acc;
    }
    polys.len()
}

#[test]
fn core_b4_matches_software_for_every_operation() {
    let n = sweep::<4, 8, 5, 8>(iterations(40), 4);
    eprintln!("B=4: {n} polynomials per operation");
}

#[test]
fn core_b2_matches_software_for_every_operation() {
    let n = sweep::<2, 4, 6, 8>(iterations(8), 2);
    eprintln!("B=2: {n} polynomials per operation");
}

#[test]
fn core_b1_matches_software_for_every_operation() {
    let n = sweep::<1, 2, 7, 9>(iterations(4), 1);
    eprintln!("B=1: {n} polynomials per operation");
}

#[test]
fn malformed_requests_and_streams_set_error_and_the_core_recovers() {
    let mut sim = CoreSim::<4, 8, 5, 8>::new();
    let mut rng = Lcg::new(9);
    let bad = [
        Command::op(0x7F, [0, 0, 0]),
        Command::op(reg::OP_NTT, [reg::SLOTS, 0, 0]),
        Command::op(reg::OP_PWM, [0, 1, 7]),
        Command::op(reg::OP_STORE, [u32::MAX, 0, 0]),
    ];
    for cmd in &bad {
        let r = sim.command(cmd, None).unwrap();
        assert!(r.error, "{cmd:?}");
        assert_eq!(r.cycles, 0, "refused requests do not run");
    }
    // A coefficient ≥ q: the load completes and flags the error.
    let mut words: Vec<u32> = rng.poly().iter().map(|&c| c as u32).collect();
    words[10] = Q as u32;
    let r = sim
        .command(
            &Command {
                op: reg::OP_LOAD,
                args: [0, 0, 0],
                input: words,
            },
            None,
        )
        .unwrap();
    assert!(r.error);
    // tlast after 100 words ends the load early with an error.
    let mut short = Command::load(0, &rng.poly());
    short.input.truncate(100);
    let r = sim.command(&short, None).unwrap();
    assert!(r.error);
    assert_eq!(r.cycles, 100);
    // The next well-formed command works and clears the error.
    let a = rng.poly();
    sim.load(1, &a);
    sim.exec(reg::OP_NTT, [1, 0, 0]);
    let (got, r) = sim.store(1);
    assert!(!r.error);
    let mut want = a;
    ring::ntt(&mut want);
    assert_eq!(got, want);
}

/// The row port: a slot's rows, loaded back into another slot (with gaps
/// in the offered rows), restore it exactly, in the NTT domain and in the
/// normal one; the cycle counts are the formulas'; a core without the port
/// refuses both ops; an abort leaves LOAD_ROWS at once.
#[test]
fn row_port_round_trips_a_slot_and_only_exists_where_built() {
    let mut sim = CoreSim::<4, 8, 5, 8>::with_row_port();
    let mut rng = Lcg::new(31);
    for round in 0..3 {
        let a = rng.poly();
        sim.load(0, &a);
        let mut want = a;
        if round != 1 {
            sim.exec(reg::OP_NTT, [0, 0, 0]);
            ring::ntt(&mut want);
        }
        let (rows, busy) = sim.store_rows(0).unwrap();
        assert_eq!(rows.len(), rows_of(4));
        assert_eq!(busy as usize, row_store_cycles(4));
        let mut gaps = Lcg::new(round);
        let gappy = if round == 2 { Some(&mut gaps) } else { None };
        let busy = sim.load_rows(2 - round as u32 % 2, &rows, gappy).unwrap();
        if round != 2 {
            assert_eq!(busy as usize, rows_of(4));
        }
        let (got, _) = sim.store(2 - round as u32 % 2);
        assert_eq!(got, want, "round {round}");
    }
    // Rows of coefficient i sit where the bank layout puts them.
    let a: Poly = std::array::from_fn(|i| i as i32);
    sim.load(1, &a);
    let (rows, _) = sim.store_rows(1).unwrap();
    for (i, &c) in a.iter().enumerate() {
        let (bank, addr) = (
            super::schedule::bank_of(i, 4),
            super::schedule::addr_of(i, 4),
        );
        assert_eq!(rows[addr][bank], c as u32, "coefficient {i}");
    }
    // An abort during LOAD_ROWS: idle at once, error; the core goes on.
    sim.pulse(super::core::OP_LOAD_ROWS, [0, 0, 0]);
    assert!(sim.uut.busy.val() && sim.uut.row_in_ready.val());
    sim.pulse(reg::OP_ABORT, [0, 0, 0]);
    assert!(sim.uut.done.val() && sim.uut.error.val());
    assert!(!sim.uut.busy.val() && !sim.uut.row_in_ready.val());
    sim.load(0, &a);
    let (got, _) = sim.store(0);
    assert_eq!(got, a);

    let mut plain = CoreSim::<4, 8, 5, 8>::new();
    for op in [super::core::OP_STORE_ROWS, super::core::OP_LOAD_ROWS] {
        let r = plain.command(&Command::op(op, [0, 0, 0]), None).unwrap();
        assert!(r.error && r.cycles == 0, "op {op:#x} without a row port");
    }
}

#[test]
fn streams_honour_back_pressure() {
    let mut sim = CoreSim::<2, 4, 6, 8>::new();
    let mut rng = Lcg::new(5);
    let mut stalls = Lcg::new(6);
    for slot in 0..reg::SLOTS {
        let a = rng.poly();
        let r = sim
            .command(&Command::load(slot, &a), Some(&mut stalls))
            .unwrap();
        assert!(!r.error);
        assert!(r.cycles as usize > load_cycles(), "stalls must cost cycles");
        let r = sim
            .command(&Command::store(slot), Some(&mut stalls))
            .unwrap();
        assert!(!r.error);
        let got: Vec<i32> = r.output.iter().map(|&w| w as i32).collect();
        assert_eq!(got, a.to_vec(), "slot {slot}");
    }
}

#[test]
fn core_and_buffer_yosys_validate() {
    let mut buf = CoeffBuffer::<8, 5>::default();
    buf.connect_all();
    yosys_validate("ntt_buffer", &generate_verilog(&buf)).unwrap();
    let mut c4 = NttCore::<4, 8, 5, 8>::new();
    c4.connect_all();
    yosys_validate("ntt_core_b4", &generate_verilog(&c4)).unwrap();
    let mut c2 = NttCore::<2, 4, 6, 8>::new();
    c2.connect_all();
    yosys_validate("ntt_core_b2", &generate_verilog(&c2)).unwrap();
    let mut c1 = NttCore::<1, 2, 7, 9>::new();
    c1.connect_all();
    yosys_validate("ntt_core_b1", &generate_verilog(&c1)).unwrap();
}

#[test]
fn goals_hold_by_formula() {
    for (b, t, p) in [
        (1, transform_cycles(1), pointwise_cycles(1)),
        (2, transform_cycles(2), pointwise_cycles(2)),
        (4, transform_cycles(4), pointwise_cycles(4)),
    ] {
        assert!(t <= 1024 / b + 40, "NTT B={b}: {t}");
        assert!(p <= 256 / b + 20, "PWM B={b}: {p}");
    }
}
