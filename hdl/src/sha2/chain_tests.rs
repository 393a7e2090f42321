//! rust-hdl simulation tests of the SHA-256 WOTS+ chain engine: outputs
//! against `pqc::slhdsa::Sha2Engine::chain`, the clock counts of
//! `chain.rs`, malformed requests, abort, and the yosys check. The driver
//! also records every clock's inputs and outputs for the Verilator
//! cross-check.

use super::chain::{chain_clocks, Sha256ChainEngine, CLOCKS_PER_STEP};
use crate::ntt::sim::{settle, tick, Lcg};
use pqc::slhdsa::{HashEngine, Params, Sha2Engine};
use rust_hdl::prelude::*;

/// Clocks after which a request that has not finished counts as hung.
const HANG_LIMIT: u64 = 20_000;

/// Input ports in the order of a recorded row.
pub(crate) const INPUTS: [&str; 10] = [
    "reset",
    "start",
    "abort_job",
    "n_bytes",
    "first",
    "steps",
    "in_data",
    "in_valid",
    "in_last",
    "out_ready",
];
/// Output ports in the order of a recorded line.
pub(crate) const OUTPUTS: [&str; 7] = [
    "busy",
    "done",
    "error",
    "in_ready",
    "out_data",
    "out_valid",
    "out_last",
];

/// One request: arguments and the input stream.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub n: u32,
    pub first: u32,
    pub steps: u32,
    pub words: Vec<u32>,
    /// Index of the word sent with `in_last` (`None`: never).
    pub last_at: Option<usize>,
}

/// Little-endian words of `bytes` (a multiple of 4 long).
fn pack(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

impl Request {
    pub fn chain(pk_seed: &[u8], adrs: &[u8; 32], x: &[u8], first: u32, steps: u32) -> Self {
        let mut bytes = pk_seed.to_vec();
        bytes.extend_from_slice(adrs);
        bytes.extend_from_slice(x);
        let words = pack(&bytes);
        Self {
            n: x.len() as u32,
            first,
            steps,
            last_at: Some(words.len() - 1),
            words,
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Response {
    pub words: Vec<u32>,
    pub last_at: Option<usize>,
    pub consumed: usize,
    pub error: bool,
    /// Clocks from the `start` clock to the first clock with `done` high.
    pub cycles: u64,
}

/// A clock-by-clock driver that records each clock's inputs and outputs.
pub(crate) struct Bench {
    pub uut: Sha256ChainEngine,
    pub rows: Vec<Vec<u64>>,
    pub lines: Vec<String>,
    rng: Lcg,
    /// Stream pacing: a word is offered / taken in a clock with probability
    /// `pace`/8 (8: full speed).
    pub pace: u32,
}

impl Bench {
    pub fn new(seed: u64) -> Self {
        let mut uut = Sha256ChainEngine::default();
        uut.connect_all();
        settle(&mut uut);
        let mut bench = Self {
            uut,
            rows: Vec::new(),
            lines: Vec::new(),
            rng: Lcg::new(seed),
            pace: 8,
        };
        bench.uut.reset.next = true;
        bench.clock();
        bench.uut.reset.next = false;
        bench
    }

    fn pick(&mut self) -> bool {
        self.pace >= 8 || self.rng.next_u32() % 8 < self.pace
    }

    /// Records the inputs, clocks once, records the outputs.
    pub fn clock(&mut self) {
        // Inputs set with `.next` show in `.val()` only after a settle.
        settle(&mut self.uut);
        let u = &self.uut;
        self.rows.push(vec![
            u64::from(u.reset.val()),
            u64::from(u.start.val()),
            u64::from(u.abort_job.val()),
            u.n_bytes.val().to_u64(),
            u.first.val().to_u64(),
            u.steps.val().to_u64(),
            u.in_data.val().to_u64(),
            u64::from(u.in_valid.val()),
            u64::from(u.in_last.val()),
            u64::from(u.out_ready.val()),
        ]);
        tick(&mut self.uut, |u| &mut u.clock);
        let u = &self.uut;
        let out = [
            u64::from(u.busy.val()),
            u64::from(u.done.val()),
            u64::from(u.error.val()),
            u64::from(u.in_ready.val()),
            u.out_data.val().to_u64(),
            u64::from(u.out_valid.val()),
            u64::from(u.out_last.val()),
        ];
        let v: Vec<String> = out.iter().map(|x| format!("{x:x}")).collect();
        self.lines.push(v.join(" "));
    }

    /// Runs `req`; `abort_at` raises `abort_job` in that clock after the start.
    pub fn run(&mut self, req: &Request, abort_at: Option<u64>) -> Response {
        assert!(!self.uut.busy.val(), "run called while busy");
        let mut r = Response::default();
        self.uut.start.next = true;
        self.uut.n_bytes.next = u64::from(req.n).into();
        self.uut.first.next = u64::from(req.first).into();
        self.uut.steps.next = u64::from(req.steps).into();
        self.uut.in_valid.next = false;
        self.uut.out_ready.next = false;
        self.clock();
        self.uut.start.next = false;
        r.cycles = 1;
        loop {
            if self.uut.done.val() {
                break;
            }
            assert!(r.cycles < HANG_LIMIT, "engine hung: {req:?}");
            let offer = r.consumed < req.words.len() && self.pick();
            self.uut.in_valid.next = offer;
            self.uut.in_data.next = req
                .words
                .get(r.consumed)
                .copied()
                .map_or(0, u64::from)
                .into();
            self.uut.in_last.next = req.last_at == Some(r.consumed);
            self.uut.out_ready.next = self.pick();
            self.uut.abort_job.next = abort_at == Some(r.cycles);
            settle(&mut self.uut);
            let took = offer && self.uut.in_ready.val();
            let gave = self.uut.out_valid.val() && self.uut.out_ready.val();
            if gave {
                if self.uut.out_last.val() {
                    r.last_at = Some(r.words.len());
                }
                r.words.push(self.uut.out_data.val().to_u64() as u32);
            }
            self.clock();
            r.cycles += 1;
            if took {
                r.consumed += 1;
            }
        }
        self.uut.in_valid.next = false;
        self.uut.in_last.next = false;
        self.uut.out_ready.next = false;
        self.uut.abort_job.next = false;
        r.error = self.uut.error.val();
        assert!(!self.uut.busy.val(), "done while busy");
        r
    }
}

fn params(n: usize) -> &'static Params {
    match n {
        16 => &pqc::slhdsa::params::SHA2_128S,
        24 => &pqc::slhdsa::params::SHA2_192S,
        _ => &pqc::slhdsa::params::SHA2_256S,
    }
}

fn bytes(rng: &mut Lcg, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.next_u32() as u8).collect()
}

/// A random request of `n`, with the reference output.
fn random_chain(rng: &mut Lcg, n: usize, first: u32, steps: u32) -> (Request, Vec<u8>) {
    let pk_seed = bytes(rng, n);
    let adrs: [u8; 32] = bytes(rng, 32).try_into().unwrap();
    let x = bytes(rng, n);
    let mut out = vec![0u8; n];
    let mut engine = Sha2Engine::new(params(n), &pk_seed, &[]);
    engine.chain(
        &pqc::slhdsa::address::Adrs(adrs),
        &x,
        first,
        steps,
        &mut out,
    );
    (Request::chain(&pk_seed, &adrs, &x, first, steps), out)
}

fn unpack(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn check_chain(bench: &mut Bench, rng: &mut Lcg, n: usize, first: u32, steps: u32) {
    let (req, expected) = random_chain(rng, n, first, steps);
    let what = format!("n = {n}, i = {first}, s = {steps}");
    let r = bench.run(&req, None);
    assert!(!r.error, "{what}: error");
    assert_eq!(r.consumed, req.words.len(), "{what}: words taken");
    assert_eq!(unpack(&r.words), expected, "{what}: output");
    assert_eq!(r.last_at, Some(n / 4 - 1), "{what}: out_last");
    if bench.pace >= 8 {
        assert_eq!(r.cycles, chain_clocks(n, steps), "{what}: clocks");
    }
}

/// Random PK.seed/ADRS/X and random (i, s) with i + s ≤ 15 (w = 16) for
/// every n, s = 0 included, plus starts near 2^32 and the hash address
/// carrying across its 16-bit halves; at full stream speed the clock count
/// is exact.
#[test]
fn sha256_chain_matches_pqc_sha2_chain() {
    let mut bench = Bench::new(1);
    let mut rng = Lcg::new(205);
    for n in [16, 24, 32] {
        for _ in 0..6 {
            let first = rng.next_u32() % 16;
            let steps = rng.next_u32() % (16 - first);
            check_chain(&mut bench, &mut rng, n, first, steps);
        }
        check_chain(&mut bench, &mut rng, n, 3, 0);
        check_chain(&mut bench, &mut rng, n, 0, 1);
        check_chain(&mut bench, &mut rng, n, 0xFFFE, 3);
        check_chain(&mut bench, &mut rng, n, u32::MAX - 2, 2);
    }
}

/// The same with streams that stall at random on both sides.
#[test]
fn sha256_chain_waits_for_slow_streams() {
    let mut bench = Bench::new(2);
    let mut rng = Lcg::new(206);
    for (k, n) in [16, 24, 32, 16, 24, 32].into_iter().enumerate() {
        bench.pace = 1 + (k as u32 % 4) * 2;
        let first = rng.next_u32() % 8;
        let steps = rng.next_u32() % 4;
        check_chain(&mut bench, &mut rng, n, first, steps);
    }
}

/// One step costs exactly [`CLOCKS_PER_STEP`] = 74 clocks: one compression
/// (66) plus the 8-clock reload, measured as the difference of s + 1 and s.
#[test]
fn sha256_chain_step_takes_74_clocks() {
    assert_eq!(CLOCKS_PER_STEP, 74);
    let mut bench = Bench::new(3);
    let mut rng = Lcg::new(207);
    for n in [16, 24, 32] {
        let mut last = None;
        for steps in 1..4 {
            let (req, _) = random_chain(&mut rng, n, 0, steps);
            let cycles = bench.run(&req, None).cycles;
            if let Some(prev) = last {
                assert_eq!(cycles - prev, 74, "n = {n}, s = {steps}");
            }
            last = Some(cycles);
        }
    }
}

/// Malformed requests end with `done` and `error`, never hang, and leave
/// the engine ready for a good request.
#[test]
fn sha256_chain_rejects_bad_requests() {
    let mut bench = Bench::new(4);
    let mut rng = Lcg::new(208);
    let (good, _) = random_chain(&mut rng, 16, 0, 1);
    // n outside {16, 24, 32} and i + s ≥ 2^32: refused at once.
    for (n, first, steps) in [
        (0, 0, 1),
        (20, 0, 1),
        (48, 0, 1),
        (64, 0, 1),
        (16 + (1 << 8), 0, 1),
        (16, u32::MAX, 1),
        (24, 1, u32::MAX),
        (32, u32::MAX - 1, 2),
        (32, 1 << 31, 1 << 31),
    ] {
        let req = Request {
            n,
            first,
            steps,
            ..good.clone()
        };
        let r = bench.run(&req, None);
        assert!(r.error, "n = {n}, i = {first}, s = {steps}: no error");
        assert_eq!(r.consumed, 0, "n = {n}: took words");
        assert!(r.words.is_empty());
        assert_eq!(r.cycles, 1, "refused at once");
    }
    // i + s = 2^32 − 1 is fine (the last hash address is 2^32 − 2).
    check_chain(&mut bench, &mut rng, 24, u32::MAX - 1, 1);

    // A stream that ends early stops at its in_last.
    let mut short = good.clone();
    short.last_at = Some(5);
    let r = bench.run(&short, None);
    assert!(r.error && r.consumed == 6 && r.words.is_empty(), "{r:?}");
    // A stream without in_last on its final word is drained to in_last.
    let mut long = good.clone();
    long.words.extend([7, 8, 9]);
    long.last_at = Some(long.words.len() - 1);
    let r = bench.run(&long, None);
    assert!(r.error && r.consumed == long.words.len() && r.words.is_empty());

    // Still good.
    check_chain(&mut bench, &mut rng, 16, 2, 3);
}

/// `abort_job` returns to idle from every phase (input, the PK.seed block, its
/// capture, a step, the reload, the output), with `done` and `error`, and
/// the next request is right.
#[test]
fn sha256_chain_aborts_from_any_phase() {
    let mut bench = Bench::new(5);
    let mut rng = Lcg::new(209);
    let n = 16;
    let s = 2u32;
    let full = chain_clocks(n, s);
    // Clocks (counted from the start clock) inside each phase of an
    // n = 16, s = 2 run: the input words are clocks 1..=16.
    let words = (n / 2 + 8) as u64;
    let input = 4;
    let seed_block = 1 + words + 30;
    let capture = 1 + words + 66 + 3;
    let step = 1 + words + 74 + 40;
    let reload = 1 + words + 74 + 66 + 4;
    let output = full - 2;
    for at in [input, seed_block, capture, step, reload, output, 1] {
        let (req, _) = random_chain(&mut rng, n, 0, s);
        let r = bench.run(&req, Some(at));
        assert!(r.error, "abort at {at}: no error");
        assert_eq!(r.cycles, at + 1, "abort at {at}: not at once");
        // The rest of an aborted input stream is the source's to drop.
        check_chain(&mut bench, &mut rng, n, 1, 3);
        check_chain(&mut bench, &mut rng, 32, 0, 2);
    }
    // Abort while idle: done and error, nothing else.
    bench.uut.abort_job.next = true;
    bench.clock();
    bench.uut.abort_job.next = false;
    assert!(bench.uut.done.val() && bench.uut.error.val() && !bench.uut.busy.val());
    check_chain(&mut bench, &mut rng, 24, 5, 4);
}

/// A reset in the middle of a chain returns to idle with the flags low.
#[test]
fn sha256_chain_resets_from_a_step() {
    let mut bench = Bench::new(6);
    let mut rng = Lcg::new(210);
    let (req, _) = random_chain(&mut rng, 32, 0, 3);
    bench.uut.start.next = true;
    bench.uut.n_bytes.next = u64::from(req.n).into();
    bench.uut.steps.next = u64::from(req.steps).into();
    bench.uut.first.next = u64::from(req.first).into();
    bench.clock();
    bench.uut.start.next = false;
    for (i, &w) in req.words.iter().enumerate() {
        bench.uut.in_valid.next = true;
        bench.uut.in_data.next = u64::from(w).into();
        bench.uut.in_last.next = i + 1 == req.words.len();
        bench.clock();
    }
    bench.uut.in_last.next = false;
    bench.uut.in_valid.next = false;
    for _ in 0..200 {
        bench.clock();
    }
    assert!(bench.uut.busy.val());
    bench.uut.reset.next = true;
    bench.clock();
    bench.uut.reset.next = false;
    assert!(!bench.uut.busy.val() && !bench.uut.done.val() && !bench.uut.error.val());
    check_chain(&mut bench, &mut rng, 32, 7, 2);
}

#[test]
fn sha256_chain_yosys_validate() {
    let mut uut = Sha256ChainEngine::default();
    uut.connect_all();
    yosys_validate("sha256_chain", &generate_verilog(&uut)).unwrap();
}
