//! The test bench of the SLH-DSA jobs: drives a job block clock by clock,
//! records every clock's inputs and outputs for the Verilator cross-check,
//! and holds what the job tests share (key material, seed and address
//! loading, running a job to `done`).
//!
//! Every job has the same first input ports (rows 0..=10, [`COMMON_INPUTS`])
//! and the same first outputs ([`OUTPUTS`]).

use crate::mldsa::verilator_check::verilated_outputs_in;
use crate::ntt::sim::{settle, tick, Lcg};
use pqc::keccak::SoftKeccak;
use pqc::slhdsa::address::{AddressType, Adrs};
use pqc::slhdsa::ShakeEngine;
use rust_hdl::prelude::*;

/// Clocks after which a job that has not finished counts as hung.
const HANG_LIMIT: u64 = 10_000_000;

/// The input ports every job has, in row order.
pub const COMMON_INPUTS: [&str; 11] = [
    "reset",
    "seed_write",
    "seed_index",
    "seed_word",
    "adrs_write",
    "adrs_index",
    "adrs_word",
    "start",
    "n_bytes",
    "abort_job",
    "out_ready",
];
/// Row indices of the common inputs.
pub const RESET: usize = 0;
pub const START: usize = 7;
const SEED_WRITE: usize = 1;
/// The first of the three address write rows (`adrs_write`, `adrs_index`,
/// `adrs_word`), or of the message write rows of a job that makes every
/// address itself.
pub const ADRS_WRITE: usize = 4;
const N_BYTES: usize = 8;
const ABORT: usize = 9;
const OUT_READY: usize = 10;

/// The output ports every job has, in line order.
pub const OUTPUTS: [&str; 6] = ["busy", "done", "error", "out_data", "out_valid", "out_last"];

/// Sets the common inputs (rows 0..=10) of `$job` from the row `$v`; rows
/// 4..=6 go to the write ports `$write`, `$index`, `$word` (the address, or
/// the message of a job that makes every address itself).
macro_rules! apply_common_inputs {
    ($job:expr, $v:expr, $write:ident, $index:ident, $word:ident) => {{
        let (job, v) = (&mut *$job, $v);
        job.reset.next = v[0] != 0;
        job.seed_write.next = v[1] != 0;
        job.seed_index.next = v[2].into();
        job.seed_word.next = v[3].into();
        job.$write.next = v[4] != 0;
        job.$index.next = v[5].into();
        job.$word.next = v[6].into();
        job.start.next = v[7] != 0;
        job.n_bytes.next = v[8].into();
        job.abort_job.next = v[9] != 0;
        job.out_ready.next = v[10] != 0;
    }};
}
pub(super) use apply_common_inputs;

/// The values of [`OUTPUTS`] of `$job`.
macro_rules! common_outputs {
    ($job:expr) => {{
        let job = $job;
        vec![
            u64::from(job.busy.val()),
            u64::from(job.done.val()),
            u64::from(job.error.val()),
            job.out_data.val().to_u64(),
            u64::from(job.out_valid.val()),
            u64::from(job.out_last.val()),
        ]
    }};
}
pub(super) use common_outputs;

/// A job block under the bench.
pub trait Job: Block + Default {
    /// Whether rows 4..=6 are the address write ports (a job that makes
    /// every address itself uses them for its message instead).
    const ADDRESSED: bool = true;
    /// Input port names in row order: [`COMMON_INPUTS`], then the job's own.
    fn inputs() -> Vec<&'static str>;
    /// Sets the inputs from one row.
    fn apply(&mut self, row: &[u64]);
    /// The clock input.
    fn clock_input(&mut self) -> &mut Signal<In, Clock>;
    /// Output port names in line order: [`OUTPUTS`], then the job's own.
    fn output_names() -> Vec<&'static str> {
        OUTPUTS.to_vec()
    }
    /// The values of [`Self::output_names`].
    fn outputs(&self) -> Vec<u64>;
}

/// Seeds and a WOTS_HASH address of one key pair.
pub struct KeyMaterial {
    pub n: usize,
    pub pk_seed: Vec<u8>,
    pub sk_seed: Vec<u8>,
    pub adrs: Adrs,
}

impl KeyMaterial {
    /// Random seeds and a WOTS_HASH address with random layer, tree and key
    /// pair.
    pub fn random(n: usize, rng: &mut Lcg) -> Self {
        let mut bytes = || (0..n).map(|_| rng.next_u32() as u8).collect::<Vec<u8>>();
        let pk_seed = bytes();
        let sk_seed = bytes();
        let mut adrs = Adrs::default();
        adrs.set_layer(rng.next_u32() % 22);
        adrs.set_tree((u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32()));
        adrs.set_type_and_clear(AddressType::WotsHash);
        adrs.set_keypair(rng.next_u32() % 512);
        Self {
            n,
            pk_seed,
            sk_seed,
            adrs,
        }
    }

    /// Runs `f` on `pqc`'s SHAKE hash engine for these seeds.
    pub fn with_engine<T>(&self, f: impl FnOnce(&mut ShakeEngine<'_, SoftKeccak>) -> T) -> T {
        let mut keccak = SoftKeccak;
        let mut engine = ShakeEngine::new(&mut keccak, &self.pk_seed, &self.sk_seed);
        f(&mut engine)
    }
}

/// An input stream for [`JobBench::run_fed`]: TDATA, TVALID and TLAST are
/// rows `row`, `row + 1`, `row + 2`; TREADY is output `ready_column`.
pub struct Feed<'a> {
    pub words: &'a [u32],
    pub last_at: Option<usize>,
    pub row: usize,
    pub ready_column: usize,
    pub position: usize,
}

/// What a job gave.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Input words the job took (with a feed).
    pub taken: usize,
    pub words: Vec<u32>,
    /// The job's first own output (after [`OUTPUTS`]) with each word, or 0.
    pub kinds: Vec<u64>,
    pub last_at: Option<usize>,
    pub error: bool,
    /// Clocks from the `start` clock to the first clock with `done` high.
    pub clocks: u64,
}

impl Outcome {
    pub fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// Little-endian words of `bytes` (a multiple of 4 long).
pub fn words_of(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes
        .chunks_exact(4)
        .map(|w| u64::from(u32::from_le_bytes(w.try_into().unwrap())))
}

/// The job under the stepper.
pub struct JobBench<B: Job> {
    pub uut: B,
    inputs: Vec<u64>,
    rows: Vec<Vec<u64>>,
    lines: Vec<String>,
    rng: Lcg,
}

impl<B: Job> JobBench<B> {
    /// A fresh job, reset for one clock; `seed` drives the sink pacing and
    /// the junk address words.
    pub fn new(seed: u64) -> Self {
        let mut uut = B::default();
        uut.connect_all();
        settle(&mut uut);
        let mut bench = Self {
            uut,
            inputs: vec![0; B::inputs().len()],
            rows: vec![],
            lines: vec![],
            rng: Lcg::new(seed),
        };
        bench.set(RESET, 1);
        bench.clock();
        bench.set(RESET, 0);
        bench
    }

    pub fn set(&mut self, port: usize, value: u64) {
        self.inputs[port] = value;
    }

    fn apply(&mut self) {
        self.uut.apply(&self.inputs);
        settle(&mut self.uut);
    }

    /// One clock with the current inputs; records them and the outputs.
    pub fn clock(&mut self) {
        self.apply();
        tick(&mut self.uut, |u| u.clock_input());
        let line: Vec<String> = self
            .uut
            .outputs()
            .iter()
            .map(|x| format!("{x:x}"))
            .collect();
        self.lines.push(line.join(" "));
        self.rows.push(self.inputs.clone());
    }

    /// The outputs after the last clock.
    pub fn outputs(&self) -> Vec<u64> {
        self.uut.outputs()
    }

    /// Writes `words` through the write port whose enable is row `row`
    /// (its index and word are the next two rows), one per clock, at
    /// indices `first`, `first + 1`, ….
    pub fn write_words(&mut self, row: usize, first: usize, words: impl IntoIterator<Item = u64>) {
        for (i, w) in words.into_iter().enumerate() {
            self.set(row, 1);
            self.set(row + 1, (first + i) as u64);
            self.set(row + 2, w);
            self.clock();
        }
        self.set(row, 0);
    }

    /// Writes the seeds and the address, with junk in the words the jobs
    /// set themselves (type, chain, hash), which they must ignore.
    pub fn load(&mut self, keys: &KeyMaterial) {
        self.write_words(SEED_WRITE, 0, words_of(&keys.pk_seed));
        self.write_words(SEED_WRITE, 8, words_of(&keys.sk_seed));
        if !B::ADDRESSED {
            return;
        }
        let address: Vec<u64> = words_of(&keys.adrs.0)
            .enumerate()
            .map(|(i, w)| {
                let junk = u64::from(self.rng.next_u32());
                if [4, 6, 7].contains(&i) {
                    junk
                } else {
                    w
                }
            })
            .collect();
        self.write_words(ADRS_WRITE, 0, address);
    }

    /// Raises `start_port` for one clock with `n_bytes` = n and runs the
    /// job until `done`; `ready_one_in` paces the sink (1: always ready),
    /// `abort_at` raises `abort_job` for one clock that many clocks after
    /// the start.
    pub fn run(
        &mut self,
        start_port: usize,
        n: u64,
        ready_one_in: u32,
        abort_at: Option<u64>,
    ) -> Outcome {
        self.run_fed(start_port, n, ready_one_in, abort_at, None)
    }

    /// [`Self::run`] with the input stream `feed` (its words offered in
    /// order, one a clock, TLAST where it says).
    pub fn run_fed(
        &mut self,
        start_port: usize,
        n: u64,
        ready_one_in: u32,
        abort_at: Option<u64>,
        mut feed: Option<Feed<'_>>,
    ) -> Outcome {
        self.set(start_port, 1);
        self.set(N_BYTES, n);
        self.clock();
        self.set(start_port, 0);
        let mut outcome = Outcome::default();
        let mut clocks = 1;
        loop {
            let abort = abort_at == Some(clocks);
            self.set(ABORT, u64::from(abort));
            let ready = self.rng.next_u32() % ready_one_in == 0;
            self.set(OUT_READY, u64::from(ready));
            if let Some(f) = &feed {
                let offered = f.position < f.words.len();
                self.set(f.row, u64::from(*f.words.get(f.position).unwrap_or(&0)));
                self.set(f.row + 1, u64::from(offered));
                self.set(f.row + 2, u64::from(f.last_at == Some(f.position)));
            }
            self.apply();
            let out = self.uut.outputs();
            if let Some(f) = &mut feed {
                if f.position < f.words.len() && out[f.ready_column] != 0 {
                    f.position += 1;
                }
            }
            let [busy, done, error, data, valid, last] = out[..6] else {
                unreachable!()
            };
            if done != 0 && !abort {
                outcome.error = error != 0;
                outcome.clocks = clocks;
                assert_eq!(busy, 0, "done while busy");
                break;
            }
            if valid != 0 && ready {
                if last != 0 {
                    assert!(outcome.last_at.is_none(), "two TLAST beats");
                    outcome.last_at = Some(outcome.words.len());
                }
                outcome.words.push(data as u32);
                outcome.kinds.push(out.get(6).copied().unwrap_or(0));
            }
            assert!(
                clocks < HANG_LIMIT,
                "job not done after {HANG_LIMIT} clocks"
            );
            self.clock();
            clocks += 1;
        }
        self.set(ABORT, 0);
        self.set(OUT_READY, 0);
        if let Some(f) = &feed {
            self.set(f.row + 1, 0);
            self.set(f.row + 2, 0);
            outcome.taken = f.position;
        }
        outcome
    }

    /// Replays every recorded clock on the Verilated RTL of the job,
    /// exported as `design`, and asserts equal outputs on every clock.
    pub fn assert_rtl_matches(&self, design: &str) {
        let got = verilated_outputs_in(
            &format!("slhdsa-{design}"),
            B::default(),
            design,
            &B::inputs(),
            &B::output_names(),
            &self.rows,
        )
        .unwrap();
        assert_eq!(got.len(), self.lines.len());
        for (i, (g, e)) in got.iter().zip(&self.lines).enumerate() {
            assert_eq!(g, e, "{design}: clock {i}");
        }
    }
}
