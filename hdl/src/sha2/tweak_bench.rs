//! The clock-by-clock test driver of the SLH-DSA-SHA2 hash engines, which
//! share the sponge engine's request and stream ports: the SHA-256 engine,
//! the SHA-512 H / T_l engine and the router of both. It records every
//! clock's inputs and outputs for the Verilator cross-checks.

use super::{Sha256TweakEngine, Sha2TweakEngine, Sha512TweakEngine};
use crate::ntt::sim::{settle, tick, Lcg};
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// Clocks after which a request that has not finished counts as hung.
const HANG_LIMIT: u64 = 20_000;

/// Input ports in the order of a recorded row.
pub(crate) const INPUTS: [&str; 11] = [
    "reset",
    "start",
    "abort_job",
    "op",
    "arg0",
    "arg1",
    "arg2",
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

/// The input ports' values, in the order of [`INPUTS`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Inputs {
    pub reset: bool,
    pub start: bool,
    pub abort_job: bool,
    pub op: u32,
    pub arg0: u32,
    pub arg1: u32,
    pub arg2: u32,
    pub in_data: u32,
    pub in_valid: bool,
    pub in_last: bool,
    pub out_ready: bool,
}

impl Inputs {
    fn row(&self) -> Vec<u64> {
        vec![
            u64::from(self.reset),
            u64::from(self.start),
            u64::from(self.abort_job),
            u64::from(self.op),
            u64::from(self.arg0),
            u64::from(self.arg1),
            u64::from(self.arg2),
            u64::from(self.in_data),
            u64::from(self.in_valid),
            u64::from(self.in_last),
            u64::from(self.out_ready),
        ]
    }
}

/// The output ports' values, in the order of [`OUTPUTS`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Outputs {
    pub busy: bool,
    pub done: bool,
    pub error: bool,
    pub in_ready: bool,
    pub out_data: u32,
    pub out_valid: bool,
    pub out_last: bool,
}

impl Outputs {
    fn line(&self) -> String {
        let out = [
            u64::from(self.busy),
            u64::from(self.done),
            u64::from(self.error),
            u64::from(self.in_ready),
            u64::from(self.out_data),
            u64::from(self.out_valid),
            u64::from(self.out_last),
        ];
        let v: Vec<String> = out.iter().map(|x| format!("{x:x}")).collect();
        v.join(" ")
    }
}

/// A block with the sponge engine's request and stream ports.
pub(crate) trait TweakPorts: Block + Default {
    fn clock_port(&mut self) -> &mut Signal<In, Clock>;
    fn drive(&mut self, inputs: &Inputs);
    fn outputs(&self) -> Outputs;
}

macro_rules! tweak_ports {
    ($engine:ty) => {
        impl TweakPorts for $engine {
            fn clock_port(&mut self) -> &mut Signal<In, Clock> {
                &mut self.clock
            }
            fn drive(&mut self, i: &Inputs) {
                self.reset.next = i.reset;
                self.start.next = i.start;
                self.abort_job.next = i.abort_job;
                self.op.next = u64::from(i.op).into();
                self.arg0.next = u64::from(i.arg0).into();
                self.arg1.next = u64::from(i.arg1).into();
                self.arg2.next = u64::from(i.arg2).into();
                self.in_data.next = u64::from(i.in_data).into();
                self.in_valid.next = i.in_valid;
                self.in_last.next = i.in_last;
                self.out_ready.next = i.out_ready;
            }
            fn outputs(&self) -> Outputs {
                Outputs {
                    busy: self.busy.val(),
                    done: self.done.val(),
                    error: self.error.val(),
                    in_ready: self.in_ready.val(),
                    out_data: self.out_data.val().to_u64() as u32,
                    out_valid: self.out_valid.val(),
                    out_last: self.out_last.val(),
                }
            }
        }
    };
}
tweak_ports!(Sha256TweakEngine);
tweak_ports!(Sha512TweakEngine);
tweak_ports!(Sha2TweakEngine);

/// One request: op, arguments and the input stream.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub op: u32,
    pub arg0: u32,
    pub arg1: u32,
    pub arg2: u32,
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
        Self::with_stream(regs::OP_WOTS_CHAIN, x.len() as u32, first, steps, &bytes)
    }

    /// A kept-prefix chain of X (`flags`: `KEPT_PRF_FIRST`, `KEPT_FORS`).
    pub fn kept(x: &[u8], chain: u32, flags: u32, first: u32, steps: u32) -> Self {
        use crate::keccak::sponge::{KEPT_CHAIN_SHIFT, OP_WOTS_CHAIN_KEPT};
        let arg0 = x.len() as u32 | chain << KEPT_CHAIN_SHIFT | flags;
        Self::with_stream(OP_WOTS_CHAIN_KEPT, arg0, first, steps, x)
    }

    /// H or T_l of `m` as the SHAKE jobs ask for it: SHAKE256 of PK.seed ‖
    /// ADRS ‖ M, n bytes out.
    pub fn tweak(pk_seed: &[u8], adrs: &[u8; 32], m: &[u8]) -> Self {
        let mut bytes = pk_seed.to_vec();
        bytes.extend_from_slice(adrs);
        bytes.extend_from_slice(m);
        let len = bytes.len() as u32;
        Self::with_stream(
            regs::OP_SPONGE,
            regs::MODE_SHAKE256,
            len,
            pk_seed.len() as u32,
            &bytes,
        )
    }

    fn with_stream(op: u32, arg0: u32, arg1: u32, arg2: u32, bytes: &[u8]) -> Self {
        let words = pack(bytes);
        Self {
            op,
            arg0,
            arg1,
            arg2,
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
pub(crate) struct Bench<E: TweakPorts> {
    pub uut: E,
    /// The inputs of the next clock.
    pub inputs: Inputs,
    pub rows: Vec<Vec<u64>>,
    pub lines: Vec<String>,
    rng: Lcg,
    /// Stream pacing: a word is offered / taken in a clock with probability
    /// `pace`/8 (8: full speed).
    pub pace: u32,
}

impl<E: TweakPorts> Bench<E> {
    pub fn new(seed: u64) -> Self {
        let mut uut = E::default();
        uut.connect_all();
        settle(&mut uut);
        let mut bench = Self {
            uut,
            inputs: Inputs::default(),
            rows: Vec::new(),
            lines: Vec::new(),
            rng: Lcg::new(seed),
            pace: 8,
        };
        bench.inputs.reset = true;
        bench.clock();
        bench.inputs.reset = false;
        bench
    }

    fn pick(&mut self) -> bool {
        self.pace >= 8 || self.rng.next_u32() % 8 < self.pace
    }

    /// The outputs now, for the inputs of the next clock.
    pub fn outputs(&mut self) -> Outputs {
        self.uut.drive(&self.inputs);
        settle(&mut self.uut);
        self.uut.outputs()
    }

    /// Records the inputs, clocks once, records the outputs.
    pub fn clock(&mut self) {
        self.uut.drive(&self.inputs);
        settle(&mut self.uut);
        self.rows.push(self.inputs.row());
        tick(&mut self.uut, |u| u.clock_port());
        let line = self.uut.outputs().line();
        self.lines.push(line);
    }

    /// Puts `req`'s op and arguments on the ports with `start`.
    pub fn set_request(&mut self, req: &Request) {
        self.inputs.start = true;
        self.inputs.op = req.op;
        self.inputs.arg0 = req.arg0;
        self.inputs.arg1 = req.arg1;
        self.inputs.arg2 = req.arg2;
    }

    /// Runs `req`; `abort_at` raises `abort_job` in that clock after the start.
    pub fn run(&mut self, req: &Request, abort_at: Option<u64>) -> Response {
        assert!(!self.outputs().busy, "run called while busy");
        let mut r = Response::default();
        self.set_request(req);
        self.inputs.in_valid = false;
        self.inputs.out_ready = false;
        self.clock();
        self.inputs.start = false;
        r.cycles = 1;
        loop {
            if self.outputs().done {
                break;
            }
            assert!(r.cycles < HANG_LIMIT, "engine hung: {req:?}");
            let offer = r.consumed < req.words.len() && self.pick();
            self.inputs.in_valid = offer;
            self.inputs.in_data = req.words.get(r.consumed).copied().unwrap_or(0);
            self.inputs.in_last = req.last_at == Some(r.consumed);
            self.inputs.out_ready = self.pick();
            self.inputs.abort_job = abort_at == Some(r.cycles);
            let o = self.outputs();
            let took = offer && o.in_ready;
            if o.out_valid && self.inputs.out_ready {
                if o.out_last {
                    r.last_at = Some(r.words.len());
                }
                r.words.push(o.out_data);
            }
            self.clock();
            r.cycles += 1;
            if took {
                r.consumed += 1;
            }
        }
        self.inputs.in_valid = false;
        self.inputs.in_last = false;
        self.inputs.out_ready = false;
        self.inputs.abort_job = false;
        let o = self.outputs();
        r.error = o.error;
        assert!(!o.busy, "done while busy");
        r
    }
}
