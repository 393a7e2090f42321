//! Drives [`SpongeEngine`] requests in rust-hdl simulation the way the PS
//! side will: arguments and a start pulse, a 32-bit input stream with
//! TLAST, an output stream. Shared by the tests, the Verilator cross-check
//! (which replays the same requests) and the `vcd` command.

use super::bench::Bench;
use super::sponge::{
    SpongeEngine, KEPT_CHAIN_SHIFT, KEPT_FORS, KEPT_PRF_FIRST, OP_WOTS_CHAIN_KEPT,
};
use pqc::keccak::SpongeMode;
use ps_pl_contract::regmap::keccak as regs;

/// One request: op code, arguments and the input stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `COMMAND` op code.
    pub op: u32,
    /// `ARG0..2`.
    pub args: [u32; 3],
    /// Input stream words.
    pub words: Vec<u32>,
    /// Index of the word sent with TLAST (`None`: no TLAST at all).
    pub last_at: Option<usize>,
}

/// Little-endian words of `bytes`; the unused bytes of the final word are
/// filled with `filler` (the engine must ignore them).
pub fn pack_words(bytes: &[u8], filler: u8) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|chunk| {
            let mut word = [filler; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            u32::from_le_bytes(word)
        })
        .collect()
}

/// The first `len` bytes of little-endian `words`.
pub fn unpack_words(words: &[u32], len: usize) -> Vec<u8> {
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.truncate(len);
    bytes
}

impl Request {
    /// `op` with `args` on `words`, TLAST on the final word.
    fn streamed(op: u32, args: [u32; 3], words: Vec<u32>) -> Self {
        let last_at = words.len().checked_sub(1);
        Self {
            op,
            args,
            words,
            last_at,
        }
    }

    /// `OP_SPONGE` for `message`, squeezing `out_len` bytes.
    pub fn sponge(mode: SpongeMode, message: &[u8], out_len: u32, filler: u8) -> Self {
        let args = [
            super::sponge::mode_code(mode),
            message.len() as u32,
            out_len,
        ];
        Self::streamed(regs::OP_SPONGE, args, pack_words(message, filler))
    }

    /// `OP_WOTS_CHAIN` on PK.seed ‖ ADRS ‖ X.
    pub fn wots_chain(pk_seed: &[u8], adrs: &[u8; 32], x: &[u8], start: u32, steps: u32) -> Self {
        let mut bytes = pk_seed.to_vec();
        bytes.extend_from_slice(adrs);
        bytes.extend_from_slice(x);
        let args = [pk_seed.len() as u32, start, steps];
        Self::streamed(regs::OP_WOTS_CHAIN, args, pack_words(&bytes, 0))
    }

    /// `OP_WOTS_CHAIN_KEPT` of chain address `chain` on X alone (SK.seed
    /// with `prf_first`).
    pub fn wots_chain_kept(chain: u8, prf_first: bool, x: &[u8], start: u32, steps: u32) -> Self {
        let prf = if prf_first { KEPT_PRF_FIRST } else { 0 };
        let arg0 = x.len() as u32 | u32::from(chain) << KEPT_CHAIN_SHIFT | prf;
        Self::streamed(OP_WOTS_CHAIN_KEPT, [arg0, start, steps], pack_words(x, 0))
    }

    /// `OP_WOTS_CHAIN_KEPT` with [`KEPT_FORS`] at tree index `index` on a
    /// kept FORS_TREE address: X is SK.seed with `prf_first` (the FORS
    /// secret value, then `steps` F calls), else a secret value.
    pub fn fors_kept(prf_first: bool, x: &[u8], index: u32, steps: u32) -> Self {
        let prf = if prf_first { KEPT_PRF_FIRST } else { 0 };
        let arg0 = x.len() as u32 | KEPT_FORS | prf;
        Self::streamed(OP_WOTS_CHAIN_KEPT, [arg0, index, steps], pack_words(x, 0))
    }
}

/// What the engine did with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// Output stream words, in order.
    pub words: Vec<u32>,
    /// Index of the output word that carried TLAST, if any.
    pub last_at: Option<usize>,
    /// Input words the engine took.
    pub consumed: usize,
    /// `error` when `done` rose.
    pub error: bool,
    /// Clocks from the start edge to the edge after which `done` is high.
    pub cycles: u64,
}

/// Stream pacing: which clocks the source offers a word and the sink takes one.
pub trait Pacing {
    /// Whether the source drives TVALID in clock `cycle` of the request.
    fn source_valid(&mut self, cycle: u64) -> bool;
    /// Whether the sink drives TREADY in clock `cycle`.
    fn sink_ready(&mut self, cycle: u64) -> bool;
}

/// Source and sink always ready: the cycle counts of the design's timing.
pub struct FullSpeed;

impl Pacing for FullSpeed {
    fn source_valid(&mut self, _: u64) -> bool {
        true
    }
    fn sink_ready(&mut self, _: u64) -> bool {
        true
    }
}

/// Drives one request to `done` (panics past `max_cycles`: a hang is a bug).
pub fn run_request<const R: usize>(
    bench: &mut Bench<SpongeEngine<R>>,
    request: &Request,
    pacing: &mut dyn Pacing,
    max_cycles: u64,
) -> Response {
    let uut = &mut bench.uut;
    assert!(!uut.busy.val(), "request started while busy");
    uut.start.next = true;
    uut.op.next = (request.op as u64).into();
    uut.arg0.next = (request.args[0] as u64).into();
    uut.arg1.next = (request.args[1] as u64).into();
    uut.arg2.next = (request.args[2] as u64).into();
    uut.in_valid.next = false;
    uut.out_ready.next = false;
    bench.settle();
    let started = bench.cycles;
    bench.clock();
    bench.uut.start.next = false;
    let mut response = Response {
        words: vec![],
        last_at: None,
        consumed: 0,
        error: false,
        cycles: 0,
    };
    loop {
        let cycle = bench.cycles - started;
        if bench.uut.done.val() {
            response.error = bench.uut.error.val();
            response.cycles = cycle;
            return response;
        }
        assert!(
            cycle < max_cycles,
            "request not done after {max_cycles} clocks"
        );
        let offer = response.consumed < request.words.len() && pacing.source_valid(cycle);
        let uut = &mut bench.uut;
        uut.in_valid.next = offer;
        uut.in_data.next = (*request.words.get(response.consumed).unwrap_or(&0) as u64).into();
        uut.in_last.next = request.last_at == Some(response.consumed);
        uut.out_ready.next = pacing.sink_ready(cycle);
        bench.settle();
        let uut = &bench.uut;
        if offer && uut.in_ready.val() {
            response.consumed += 1;
        }
        if uut.out_valid.val() && uut.out_ready.val() {
            if uut.out_last.val() {
                assert!(response.last_at.is_none(), "two TLAST beats");
                response.last_at = Some(response.words.len());
            }
            response.words.push(uut.out_data.val().to_u64() as u32);
        }
        bench.clock();
    }
}

/// A fresh engine under the stepper.
pub fn engine_bench<const R: usize>() -> Bench<SpongeEngine<R>> {
    Bench::new(SpongeEngine::<R>::default(), |e| &mut e.clock)
}

/// A fresh engine that takes `OP_WOTS_CHAIN_KEPT`, under the stepper.
pub fn kept_chain_bench<const R: usize>() -> Bench<SpongeEngine<R>> {
    Bench::new(SpongeEngine::<R>::with_kept_chain(), |e| &mut e.clock)
}

/// A fresh engine with the squeeze tail, under the stepper.
pub fn tail_bench<const R: usize>() -> Bench<SpongeEngine<R>> {
    Bench::new(SpongeEngine::<R>::with_squeeze_tail(), |e| &mut e.clock)
}

/// A fresh engine with the kept chain and the squeeze tail (the shared
/// one), under the stepper.
pub fn shared_bench<const R: usize>() -> Bench<SpongeEngine<R>> {
    Bench::new(SpongeEngine::<R>::with_kept_chain_and_squeeze_tail(), |e| {
        &mut e.clock
    })
}

/// Clocks until `busy` falls (an abort can leave a permutation finishing).
pub fn wait_idle<const R: usize>(bench: &mut Bench<SpongeEngine<R>>, max_cycles: u64) -> u64 {
    let mut waited = 0;
    bench.settle();
    while bench.uut.busy.val() {
        assert!(
            waited < max_cycles,
            "engine still busy after {max_cycles} clocks"
        );
        bench.clock();
        waited += 1;
    }
    waited
}
