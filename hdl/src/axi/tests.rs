//! Simulation tests of both tops through the AXI4-Lite bus and the streams:
//! registers, handshake orders, whole NTT jobs against `pqc::ring`, sponge
//! jobs against the `sha3` crate, error status, abort, and `CYCLES`
//! against the cycle formulas of the cores.

use super::bench::{AccelBench, AccelTop, StreamWord, WriteOrder};
use crate::keccak::harness::{pack_words, unpack_words};
use crate::keccak::sponge::mode_code;
use crate::keccak::sponge_tests::{reference, sponge_cycles};
use crate::ntt::core::{load_cycles, pointwise_cycles, store_cycles, transform_cycles};
use crate::ntt::sim::Lcg;
use pqc::keccak::SpongeMode;
use pqc::ring::{self, Poly, N};
use ps_pl_contract::regmap::{ctrl, keccak as kreg, ntt as nreg};

/// STATUS polls before a job counts as hung (each poll is ~3 clocks).
const POLL_LIMIT: u32 = 20_000;

/// What a job left in the registers.
#[derive(Debug, PartialEq, Eq)]
struct JobEnd {
    status: u32,
    cycles: u32,
}

/// ARG0..2, then COMMAND with start, then polls STATUS until not busy.
fn run_job<T: AccelTop>(bench: &mut AccelBench<T>, op: u32, args: [u32; 3]) -> JobEnd {
    for (off, a) in [ctrl::ARG0, ctrl::ARG1, ctrl::ARG2].into_iter().zip(args) {
        bench.write(off as u32, a).unwrap();
    }
    bench
        .write(ctrl::COMMAND as u32, ctrl::COMMAND_START | op)
        .unwrap();
    for _ in 0..POLL_LIMIT {
        let status = bench.read(ctrl::STATUS as u32).unwrap();
        if status & ctrl::STATUS_BUSY == 0 {
            let cycles = bench.read(ctrl::CYCLES as u32).unwrap();
            return JobEnd { status, cycles };
        }
    }
    panic!("op {op:#x} still busy after {POLL_LIMIT} polls");
}

fn words(data: &[u32]) -> Vec<StreamWord> {
    data.iter()
        .enumerate()
        .map(|(i, &d)| StreamWord {
            data: d,
            last: i + 1 == data.len(),
        })
        .collect()
}

fn ok(cycles: usize) -> JobEnd {
    JobEnd {
        status: ctrl::STATUS_DONE,
        cycles: cycles as u32,
    }
}

fn ntt_load(bench: &mut AccelBench<super::NttAccel>, slot: u32, p: &Poly) {
    let data: Vec<u32> = p.iter().map(|&c| c as u32).collect();
    bench.stream_in.extend(words(&data));
    assert_eq!(
        run_job(bench, nreg::OP_LOAD, [slot, 0, 0]),
        ok(load_cycles())
    );
    assert!(bench.stream_in.is_empty());
}

fn ntt_store(bench: &mut AccelBench<super::NttAccel>, slot: u32) -> Poly {
    bench.stream_out.clear();
    assert_eq!(
        run_job(bench, nreg::OP_STORE, [slot, 0, 0]),
        ok(store_cycles())
    );
    let out: Vec<StreamWord> = bench.stream_out.drain(..).collect();
    assert_eq!(out.len(), N);
    for (i, w) in out.iter().enumerate() {
        assert_eq!(w.last, i + 1 == N, "TLAST on word {i}");
    }
    std::array::from_fn(|i| out[i].data as i32)
}

/// The tops are elaborated with the core parameters of the contract
/// (`ps_pl_contract::cores`), as their CONFIG registers report them.
#[test]
fn identification_registers() {
    let mut ntt = AccelBench::ntt();
    assert_eq!(ntt.read(ctrl::ID as u32), Ok(nreg::ID));
    assert_eq!(ntt.read(ctrl::VERSION as u32), Ok(ctrl::VERSION_VALUE));
    let config = ntt.read(ctrl::CONFIG as u32).unwrap();
    assert_eq!(
        config >> nreg::CONFIG_LANES_SHIFT & nreg::CONFIG_FIELD_MASK,
        ps_pl_contract::cores::NTT_LANES
    );
    assert_eq!(
        config >> nreg::CONFIG_SLOTS_SHIFT & nreg::CONFIG_FIELD_MASK,
        nreg::SLOTS
    );
    assert_eq!(ntt.read(ctrl::STATUS as u32), Ok(0));
    let mut kec = AccelBench::keccak();
    assert_eq!(kec.read(ctrl::ID as u32), Ok(kreg::ID));
    assert_eq!(kec.read(ctrl::VERSION as u32), Ok(ctrl::VERSION_VALUE));
    assert_eq!(
        kec.read(ctrl::CONFIG as u32).unwrap() & kreg::CONFIG_ROUNDS_PER_CLOCK_MASK,
        ps_pl_contract::cores::KECCAK_ROUNDS_PER_CLOCK
    );
    // Unmapped offsets read 0; bits above the window are not decoded.
    for off in [ctrl::CYCLES as u32 + 4, 0x100, 0xFFFC] {
        assert_eq!(kec.read(off), Ok(0), "offset {off:#x}");
    }
    assert_eq!(kec.read(0x1_0000 + ctrl::ID as u32), Ok(kreg::ID));
}

#[test]
fn arguments_read_back_in_every_write_order() {
    let mut b = AccelBench::keccak();
    let orders = [
        WriteOrder::Together,
        WriteOrder::AddressFirst(0),
        WriteOrder::AddressFirst(3),
        WriteOrder::DataFirst(0),
        WriteOrder::DataFirst(5),
    ];
    let mut rng = Lcg::new(9);
    for (k, order) in orders.into_iter().enumerate() {
        b.response_delay = k as u32;
        let values: Vec<u32> = (0..3).map(|_| rng.next_u32()).collect();
        for (off, &v) in [ctrl::ARG0, ctrl::ARG1, ctrl::ARG2].iter().zip(&values) {
            b.write_with(*off as u32, v, 0xF, order).unwrap();
        }
        for (off, &v) in [ctrl::ARG0, ctrl::ARG1, ctrl::ARG2].iter().zip(&values) {
            assert_eq!(b.read(*off as u32), Ok(v), "{order:?}");
        }
    }
    // Byte strobes: only the enabled lanes change.
    b.response_delay = 0;
    b.write(ctrl::ARG1 as u32, 0x1122_3344).unwrap();
    b.write_with(ctrl::ARG1 as u32, 0xAABB_CCDD, 0b0101, WriteOrder::Together)
        .unwrap();
    assert_eq!(b.read(ctrl::ARG1 as u32), Ok(0x11BB_33DD));
    // Read-only and unmapped offsets ignore writes (answered OKAY).
    b.write(ctrl::ID as u32, 0).unwrap();
    b.write(0x40, 0xFFFF_FFFF).unwrap();
    assert_eq!(b.read(ctrl::ID as u32), Ok(kreg::ID));
    assert_eq!(b.read(0x40), Ok(0));
    // COMMAND without the start bit starts nothing.
    b.write(ctrl::COMMAND as u32, kreg::OP_SPONGE).unwrap();
    assert_eq!(b.read(ctrl::STATUS as u32), Ok(0));
}

/// Random jobs per test: `default`, or 100 with `PQC_FULL=1`.
fn iterations(default: usize) -> usize {
    if crate::keccak::testutil::full_run() {
        100
    } else {
        default
    }
}

/// A whole job over the bus: LOAD two random polynomials, NTT, PWM, PWMAC,
/// INTT, STORE; every result against `pqc::ring`, every CYCLES value
/// against the core's formulas.
#[test]
fn ntt_jobs_match_pqc_ring() {
    let mut b = AccelBench::ntt();
    let mut rng = Lcg::new(0xA11);
    for _ in 0..iterations(2) {
        let (x, y) = (rng.poly(), rng.poly());
        ntt_load(&mut b, 0, &x);
        ntt_load(&mut b, 1, &y);
        for slot in [0, 1] {
            assert_eq!(
                run_job(&mut b, nreg::OP_NTT, [slot, 0, 0]),
                ok(transform_cycles(4))
            );
        }
        let (mut xh, mut yh) = (x, y);
        ring::ntt(&mut xh);
        ring::ntt(&mut yh);
        assert_eq!(ntt_store(&mut b, 0), xh, "NTT");
        assert_eq!(
            run_job(&mut b, nreg::OP_PWM, [2, 0, 1]),
            ok(pointwise_cycles(4))
        );
        let mut prod = [0; N];
        ring::pointwise_mul(&xh, &yh, &mut prod);
        assert_eq!(ntt_store(&mut b, 2), prod, "PWM");
        assert_eq!(
            run_job(&mut b, nreg::OP_PWMAC, [2, 1, 1]),
            ok(pointwise_cycles(4))
        );
        ring::pointwise_mul_acc(&mut prod, &yh, &yh);
        assert_eq!(
            run_job(&mut b, nreg::OP_INTT, [2, 0, 0]),
            ok(transform_cycles(4))
        );
        ring::intt(&mut prod);
        assert_eq!(ntt_store(&mut b, 2), prod, "PWMAC then INTT");
    }
}

#[test]
fn ntt_errors_and_start_while_busy() {
    let mut b = AccelBench::ntt();
    let refused = run_job(&mut b, 0x7F, [0, 0, 0]);
    assert_eq!(refused.status, ctrl::STATUS_DONE | ctrl::STATUS_ERROR);
    // A coefficient >= q in the stream is flagged.
    let mut p = Lcg::new(3).poly();
    p[10] = ring::Q;
    b.stream_in.extend(words(&p.map(|c| c as u32)));
    let bad = run_job(&mut b, nreg::OP_LOAD, [0, 0, 0]);
    assert_eq!(bad.status, ctrl::STATUS_DONE | ctrl::STATUS_ERROR);
    // The core ignores a start while busy: an NTT runs to its normal end.
    b.write(ctrl::ARG0 as u32, 0).unwrap();
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_NTT)
        .unwrap();
    assert!(b.busy());
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_INTT)
        .unwrap();
    let mut polls = 0;
    while b.read(ctrl::STATUS as u32).unwrap() & ctrl::STATUS_BUSY != 0 {
        polls += 1;
        assert!(polls < POLL_LIMIT);
    }
    assert_eq!(b.read(ctrl::STATUS as u32), Ok(ctrl::STATUS_DONE));
    assert_eq!(b.read(ctrl::CYCLES as u32), Ok(transform_cycles(4) as u32));
}

fn sponge_job(
    b: &mut AccelBench<super::KeccakAccel>,
    mode: SpongeMode,
    msg: &[u8],
    out_len: usize,
) -> Vec<u8> {
    b.stream_in.extend(words(&pack_words(msg, 0x5A)));
    b.stream_out.clear();
    let end = run_job(
        b,
        kreg::OP_SPONGE,
        [mode_code(mode), msg.len() as u32, out_len as u32],
    );
    assert_eq!(
        end,
        ok(sponge_cycles(1, mode, msg.len(), out_len) as usize),
        "{mode:?} {} -> {out_len}",
        msg.len()
    );
    assert!(b.stream_in.is_empty());
    let out: Vec<StreamWord> = b.stream_out.drain(..).collect();
    assert_eq!(out.len(), out_len.div_ceil(4));
    assert!(out
        .iter()
        .enumerate()
        .all(|(i, w)| w.last == (i + 1 == out.len())));
    unpack_words(&out.iter().map(|w| w.data).collect::<Vec<_>>(), out_len)
}

#[test]
fn sponge_jobs_match_sha3() {
    let mut b = AccelBench::keccak();
    let mut rng = Lcg::new(0x5E3);
    for (mode, len, out_len) in [
        (SpongeMode::Shake256, 0, 32),
        (SpongeMode::Shake256, 137, 300),
        (SpongeMode::Sha3_256, 55, 32),
        (SpongeMode::Sha3_256, 200, 32),
        (SpongeMode::Shake128, 33, 17),
        (SpongeMode::Sha3_512, 71, 64),
    ] {
        let msg: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        let got = sponge_job(&mut b, mode, &msg, out_len);
        assert_eq!(got, reference(mode, &msg, out_len), "{mode:?} {len}");
    }
    // Random modes and lengths (a few by default).
    for _ in 0..iterations(3) {
        let mode = SpongeMode::ALL[rng.next_u32() as usize % SpongeMode::ALL.len()];
        let len = rng.next_u32() as usize % 400;
        let out_len = 1 + rng.next_u32() as usize % 300;
        let msg: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        let got = sponge_job(&mut b, mode, &msg, out_len);
        assert_eq!(
            got,
            reference(mode, &msg, out_len),
            "{mode:?} {len} -> {out_len}"
        );
    }
}

#[test]
fn sponge_error_status_and_abort() {
    let mut b = AccelBench::keccak();
    // Malformed: mode 7. Refused at once, the stream untouched.
    let refused = run_job(&mut b, kreg::OP_SPONGE, [7, 4, 32]);
    assert_eq!(
        refused,
        JobEnd {
            status: ctrl::STATUS_DONE | ctrl::STATUS_ERROR,
            cycles: 1
        }
    );
    // A request whose stream never comes: busy until OP_ABORT, which the
    // register block passes through while busy.
    b.write(ctrl::ARG0 as u32, kreg::MODE_SHAKE256).unwrap();
    b.write(ctrl::ARG1 as u32, 64).unwrap();
    b.write(ctrl::ARG2 as u32, 32).unwrap();
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | kreg::OP_SPONGE)
        .unwrap();
    for _ in 0..10 {
        b.clock();
    }
    assert_eq!(b.read(ctrl::STATUS as u32), Ok(ctrl::STATUS_BUSY));
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | kreg::OP_ABORT)
        .unwrap();
    assert_eq!(
        b.read(ctrl::STATUS as u32),
        Ok(ctrl::STATUS_DONE | ctrl::STATUS_ERROR)
    );
    // And the engine works again.
    let msg = b"abc";
    let got = sponge_job(&mut b, SpongeMode::Sha3_256, msg, 32);
    assert_eq!(got, reference(SpongeMode::Sha3_256, msg, 32));
}

#[test]
fn tops_pass_yosys_validate() {
    use rust_hdl::prelude::*;
    let mut ntt = super::NttAccel::default();
    ntt.connect_all();
    yosys_validate("axi_ntt_accel", &generate_verilog(&ntt)).unwrap();
    let mut kec = super::KeccakAccel::default();
    kec.connect_all();
    yosys_validate("axi_keccak_accel", &generate_verilog(&kec)).unwrap();
}

#[test]
fn vcd_of_a_bus_job_is_written() {
    let dir = crate::verilator::work_dir("axi-vcd");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("keccak_accel.vcd");
    let d = super::designs()
        .into_iter()
        .find(|d| d.name == super::KECCAK_ACCEL)
        .unwrap();
    (d.vcd.unwrap())(&path).unwrap();
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(vcd.starts_with("$timescale"));
    assert!(vcd.contains(" s_axi_awvalid $end") && vcd.contains(" m_axis_tlast $end"));
}

/// A WOTS+ chain over the bus against `pqc::slhdsa::shake_wots_chain`.
#[test]
fn wots_chain_job_matches_pqc() {
    use crate::keccak::harness::Request;
    use crate::keccak::sponge_tests::chain_cycles;
    let mut b = AccelBench::keccak();
    let mut rng = Lcg::new(0xC4A1);
    for (n, start, steps) in [(16usize, 3u32, 5u32), (32, 0, 2)] {
        let mut bytes = |k: usize| -> Vec<u8> { (0..k).map(|_| rng.next_u32() as u8).collect() };
        let (pk, x) = (bytes(n), bytes(n));
        let adrs: [u8; 32] = bytes(32).try_into().unwrap();
        let req = Request::wots_chain(&pk, &adrs, &x, start, steps);
        b.stream_in.extend(words(&req.words));
        b.stream_out.clear();
        let end = run_job(&mut b, req.op, req.args);
        assert_eq!(end, ok(chain_cycles(1, n, steps) as usize), "n = {n}");
        let out: Vec<u32> = b.stream_out.drain(..).map(|w| w.data).collect();
        let mut expected = vec![0u8; n];
        pqc::slhdsa::shake_wots_chain(
            &mut pqc::keccak::SoftKeccak,
            &pk,
            &adrs,
            &x,
            start,
            steps,
            &mut expected,
        );
        assert_eq!(unpack_words(&out, n), expected, "n = {n}");
    }
}

/// Streams that stall: the input arrives late and the output sink refuses
/// words for a while; the job waits and the data is intact.
#[test]
fn ntt_streams_with_back_pressure() {
    let mut b = AccelBench::ntt();
    let p = Lcg::new(77).poly();
    b.write(ctrl::ARG0 as u32, 1).unwrap();
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_LOAD)
        .unwrap();
    for _ in 0..20 {
        b.clock();
    }
    assert_eq!(b.read(ctrl::STATUS as u32), Ok(ctrl::STATUS_BUSY));
    b.stream_in.extend(words(&p.map(|c| c as u32)));
    let mut polls = 0;
    while b.read(ctrl::STATUS as u32).unwrap() & ctrl::STATUS_BUSY != 0 {
        polls += 1;
        assert!(polls < POLL_LIMIT);
    }
    assert!(b.stream_in.is_empty());
    b.sink_ready = false;
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_STORE)
        .unwrap();
    for _ in 0..50 {
        b.clock();
    }
    assert!(b.stream_out.is_empty() && b.busy());
    b.sink_ready = true;
    while b.read(ctrl::STATUS as u32).unwrap() & ctrl::STATUS_BUSY != 0 {
        polls += 1;
        assert!(polls < POLL_LIMIT);
    }
    let out: Vec<i32> = b.stream_out.drain(..).map(|w| w.data as i32).collect();
    assert_eq!(out, p.to_vec());
    // CYCLES counts the stalled clocks too (~50 with the first word ready).
    let c = b.read(ctrl::CYCLES as u32).unwrap();
    assert!(c >= store_cycles() as u32 + 45, "CYCLES {c}");
}

/// `OP_ABORT` of a LOAD whose stream stops half-way and of a running INTT:
/// the core is idle at once with DONE | ERROR and the next jobs are
/// correct. Then `aresetn` in the middle of a job resets the core itself.
#[test]
fn ntt_abort_mid_stream_and_reset_recover() {
    let mut b = AccelBench::ntt();
    let mut rng = Lcg::new(91);
    let cut = rng.poly();
    let cut_words = words(&cut.map(|c| c as u32));
    b.stream_in.extend(cut_words[..100].iter().copied());
    b.write(ctrl::ARG0 as u32, 2).unwrap();
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_LOAD)
        .unwrap();
    for _ in 0..150 {
        b.clock();
    }
    assert!(b.stream_in.is_empty(), "the 100 words are taken");
    assert_eq!(b.read(ctrl::STATUS as u32), Ok(ctrl::STATUS_BUSY));
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_ABORT)
        .unwrap();
    assert!(!b.busy());
    assert_eq!(
        b.read(ctrl::STATUS as u32),
        Ok(ctrl::STATUS_DONE | ctrl::STATUS_ERROR)
    );
    // The next jobs on the same slot are correct.
    let a = rng.poly();
    ntt_load(&mut b, 2, &a);
    assert_eq!(
        run_job(&mut b, nreg::OP_NTT, [2, 0, 0]),
        ok(transform_cycles(4))
    );
    let mut want = a;
    ring::ntt(&mut want);
    assert_eq!(ntt_store(&mut b, 2), want);
    // Abort in the middle of an INTT (butterfly results in flight), then
    // an INTT of a fresh polynomial in the same slot.
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_INTT)
        .unwrap();
    for _ in 0..60 {
        b.clock();
    }
    assert!(b.busy());
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_ABORT)
        .unwrap();
    assert_eq!(
        b.read(ctrl::STATUS as u32),
        Ok(ctrl::STATUS_DONE | ctrl::STATUS_ERROR)
    );
    let c = rng.poly();
    ntt_load(&mut b, 2, &c);
    assert_eq!(
        run_job(&mut b, nreg::OP_INTT, [2, 0, 0]),
        ok(transform_cycles(4))
    );
    let mut want = c;
    ring::intt(&mut want);
    assert_eq!(ntt_store(&mut b, 2), want);
    // aresetn while a LOAD waits for its stream: the core is idle with no
    // flags and a zero count, and works afterwards.
    b.stream_in.extend(cut_words[..10].iter().copied());
    b.write(ctrl::ARG0 as u32, 0).unwrap();
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | nreg::OP_LOAD)
        .unwrap();
    for _ in 0..20 {
        b.clock();
    }
    assert!(b.busy());
    b.uut().ports().aresetn.next = false;
    b.clock();
    b.clock();
    b.uut().ports().aresetn.next = true;
    assert!(!b.busy());
    assert_eq!(b.read(ctrl::STATUS as u32), Ok(0));
    assert_eq!(b.read(ctrl::CYCLES as u32), Ok(0));
    ntt_load(&mut b, 0, &a);
    assert_eq!(ntt_store(&mut b, 0), a);
}

/// `aresetn` stops a running sponge job and clears the engine's flags.
#[test]
fn keccak_reset_stops_the_engine() {
    let mut b = AccelBench::keccak();
    // A SHAKE128 request whose message never arrives.
    b.write(ctrl::ARG0 as u32, mode_code(SpongeMode::Shake128))
        .unwrap();
    b.write(ctrl::ARG1 as u32, 64).unwrap();
    b.write(ctrl::ARG2 as u32, 32).unwrap();
    b.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | kreg::OP_SPONGE)
        .unwrap();
    for _ in 0..10 {
        b.clock();
    }
    assert!(b.busy());
    b.uut().ports().aresetn.next = false;
    b.clock();
    b.uut().ports().aresetn.next = true;
    assert!(!b.busy());
    assert_eq!(b.read(ctrl::STATUS as u32), Ok(0));
    assert_eq!(b.read(ctrl::CYCLES as u32), Ok(0));
    // The next request is answered correctly.
    let msg: Vec<u8> = (0..50u8).collect();
    b.stream_in.extend(words(&pack_words(&msg, 0)));
    let end = run_job(
        &mut b,
        kreg::OP_SPONGE,
        [mode_code(SpongeMode::Shake256), 50, 40],
    );
    assert_eq!(end.status, ctrl::STATUS_DONE);
    let out: Vec<u32> = b.stream_out.drain(..).map(|w| w.data).collect();
    assert_eq!(
        unpack_words(&out, 40),
        reference(SpongeMode::Shake256, &msg, 40)
    );
}

/// Whether a Vivado configuration builds the top `name`.
fn in_a_configuration(name: &str) -> bool {
    super::vivado::CONFIGURATIONS
        .iter()
        .any(|c| c.accels.iter().any(|a| a.top == name))
}

/// Every PL top a Vivado configuration builds (`ntt_accel`,
/// `keccak_accel`, `engines_accel`) is at or under
/// [`CELL_DELAY_BUDGET_NS`] of cell delay on its worst path in the yosys
/// timing estimate (the flow of `hdl timing` and
/// `bitstream/reports/timing.md`: `synth_xilinx -abc9`, `sta` with the
/// `cells_sim.v` delays), and its estimated period (cell delay plus the
/// routing allowance per net) fits FCLK0's
/// ([`ps_pl_contract::clock::FCLK0_PERIOD_PS`]): the contract's clock is a
/// checked design input. Deterministic: same yosys, same netlist. Each
/// configuration's tops also fit its LUT and block-RAM budgets, counted on
/// the same netlists (`vivado::top_lut_budget`,
/// `vivado::top_bram18_budget`).
#[test]
fn pl_tops_meet_the_cell_delay_budget() {
    let built: Vec<_> = super::designs()
        .into_iter()
        .filter(|d| in_a_configuration(d.name))
        .collect();
    assert_eq!(built.len(), 3, "the tops of the two configurations");
    let costs = crate::export::assert_designs_meet_timing(
        &built,
        Some(ps_pl_contract::clock::FCLK0_PERIOD_PS),
    );
    super::vivado::assert_configurations_fit_the_budget(&costs);
}

/// The same budget for the tops no configuration builds, each engine on
/// a top of its own (`mldsa_accel`, `slhdsa_accel`, `slhdsa_sha2_accel`):
/// eight minutes of yosys here, and `engines_accel`, which holds both
/// engines, is checked by default.
#[test]
#[ignore = "about eight minutes of yosys; PQC_FULL=1 runs it"]
fn standalone_tops_meet_the_cell_delay_budget() {
    let standalone: Vec<_> = super::designs()
        .into_iter()
        .filter(|d| !in_a_configuration(d.name))
        .collect();
    assert_eq!(standalone.len(), 3, "the engines' own tops");
    crate::export::assert_designs_meet_timing(
        &standalone,
        Some(ps_pl_contract::clock::FCLK0_PERIOD_PS),
    );
}
