//! The XMSS leaf job of the SLH-DSA-SHAKE sets: the WOTS+ public key of one
//! key pair (FIPS 205 Algorithm 6, `wots_pkGen`), entirely in the PL. The
//! job first leaves PK.seed and the address in the sponge: an
//! `OP_WOTS_CHAIN` request of no step. Then for each chain i of the
//! len = 2n + 3 chains (lg_w = 4 in every set) one request of the sponge's
//! PL-internal `OP_WOTS_CHAIN_KEPT` streams SK.seed alone and computes
//! sk_i = PRF(PK.seed, SK.seed, ADRS with type WOTS_PRF, chain i) as its
//! first block, then the chain end chain(sk_i, 0, w − 1) (15 F calls),
//! written to the chain-end memory (two RAMB18E1); then
//! pk = T_len(PK.seed, ADRS with type WOTS_PK, ends): one `OP_SPONGE`
//! request over the len·n bytes of the memory, streamed out.
//!
//! With `sign_leaf`, the same job also signs an n-byte message M (FIPS 205
//! Algorithm 7): chain i is split at its digit d_i (the nibbles of M, then
//! of the checksum), σ_i = chain(sk_i, 0, d_i) is streamed out (flagged by
//! `out_sig`) and kept, and chain(σ_i, d_i, 15 − d_i) gives the same end.
//! The output is then σ ‖ pk.
//!
//! With `from_sig`, the job computes the public key from a signature σ of
//! M instead (FIPS 205 Algorithm 8, wots_pkFromSig): σ is written into the
//! chain-end memory beforehand, chain i runs from σ_i at d_i for 15 − d_i
//! steps (no PRF) and replaces σ_i by its end, and T_len follows. Its clock
//! count depends on the digits of M, which are public in verification
//! ([`pk_from_sig_clocks`]).
//!
//! The same block computes one Merkle node, H(PK.seed, ADRS, left ‖ right)
//! with ADRS of type TREE (FIPS 205 Algorithm 9, line 8), so that a tree
//! job built on it needs no second sponge.
//!
//! The job drives a [`SpongeEngine`] through its request and stream
//! interface, as the driver would, but from registers and the memory: the
//! engine is the tested one (built with `with_kept_chain`, its one
//! addition), and the job adds the sequencing. It reaches the engine
//! through a [`SpongeSelect`]: its own, or, built with
//! [`WotsLeafEngine::with_outside_sponge`], one outside behind
//! `sponge_port`, which the tree job and the engine pass up, so that the
//! two engines can share one sponge. A FORS leaf is one kept
//! request too (the secret value's PRF and the F, with `KEPT_FORS`) on a
//! FORS prefix that the job keeps in the sponge across a FORS operation's
//! leaves: the first leaf after address or seed writes, or after any other
//! full chain, runs the prefix first. The signed FORS leaf splits its
//! request in two, the secret value (streamed out) and the leaf, so its
//! count is the same at every index. Nodes and T_len use the contract's
//! `OP_SPONGE`, and a FORS leaf from a given secret value a full
//! `OP_WOTS_CHAIN` of one step.
//!
//! # Interface
//!
//! - Seeds, written while idle (`seed_write`, `seed_index`, `seed_word`):
//!   index 0..7 are the little-endian words of PK.seed, 8..15 those of
//!   SK.seed (the first n/4 of each are used).
//! - The address, written while idle (`adrs_write`, `adrs_index`,
//!   `adrs_word`): the little-endian words of the WOTS_HASH address of the
//!   key pair. Words 0..3 (layer and tree) and 5 (key pair) are kept; the
//!   job sets the type (word 4), the chain (word 6) and the hash address
//!   (word 7) itself.
//! - `start` (taken when idle) samples `n_bytes` = n. n ∉ {16, 24, 32} is
//!   refused at once with `done` and `error`.
//! - Children (`node_write`, `node_index`, `node_word`): the little-endian
//!   words of left ‖ right (n/2 words). Taken in any state: a node job
//!   reads them while it sends its message, so they must not change then.
//! - `start_node` (taken when idle and `start` is low) samples `n_bytes`,
//!   `node_height` and `node_tree_index`, and computes the node with the
//!   address words 0..3 (layer and tree), type TREE, key pair 0 and that
//!   height and index. A bad n is refused as for `start`.
//! - Output stream (`out_data`/`out_valid`/`out_ready`/`out_last`): pk or
//!   the node, n/4 little-endian words, `out_last` on the final one; then
//!   `done`.
//! - `abort_job` (taken in any state) aborts the sponge request in flight
//!   and returns to idle at once with `done` and `error`. `reset`
//!   (synchronous, active high) returns to idle with `done`/`error` low.
//!
//! # Clock count
//!
//! Every request the job makes has a fixed length for a given n, and the
//! sponge engine's clock counts depend only on the request, so a leaf's
//! count depends only on n (public): [`leaf_clocks`], asserted by the tests
//! with the output stream at full speed.

use crate::keccak::round::ROUNDS;
use crate::keccak::sponge::{KEPT_CHAIN_SHIFT, KEPT_FORS, KEPT_PRF_FIRST, OP_WOTS_CHAIN_KEPT};
// The job shifts the chain address by this literal (hdl_gen takes no
// named constants in expressions).
const _: () = assert!(KEPT_CHAIN_SHIFT == 8);
use crate::keccak::select::{SpongePort, SpongeSelect};
use crate::keccak::SpongeEngine;
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// Winternitz parameter w − 1: the steps of a chain to its end.
pub const CHAIN_STEPS: u32 = 15;
/// Address bits of the chain-end memory: len·n/4 ≤ 67·8 = 536 words.
pub const ENDS_ADDRESS_BITS: usize = 10;

/// FIPS 205 address types the job writes into ADRS word 4.
const TYPE_WOTS_PK: u64 = 1;
const TYPE_TREE: u64 = 2;
const TYPE_FORS_TREE: u64 = 3;
const TYPE_FORS_ROOTS: u64 = 4;
/// Largest k of FIPS 205 (SLH-DSA-*-256f): the FORS roots fit the chain-end
/// memory (35·32 bytes).
pub const MAX_FORS_TREES: usize = 35;

/// WOTS+ len for n bytes (lg_w = 4): len1 = 2n, len2 = 3.
pub const fn wots_len(n: usize) -> usize {
    2 * n + 3
}

/// Keccak rounds per clock of the sponge the SLH-DSA jobs run on, as the
/// PL top builds it (`ps_pl_contract::cores`).
pub const SPONGE_ROUNDS_PER_CLOCK: usize =
    ps_pl_contract::cores::SLHDSA_KECCAK_ROUNDS_PER_CLOCK as usize;
/// Clocks of one SHAKE256 absorb permutation: 24 rounds,
/// [`SPONGE_ROUNDS_PER_CLOCK`] a clock.
pub const PERMUTATION_CLOCKS: u64 = (ROUNDS / SPONGE_ROUNDS_PER_CLOCK) as u64;
/// SHAKE256 rate in bytes.
const RATE_BYTES: u64 = 136;

/// Clocks of a chain request's blocks (PRF and F calls) in the job's
/// fused sponge, from the clock after its last input word to its first
/// output word: one load clock, [`PERMUTATION_CLOCKS`] per block (each
/// block after the first is loaded on the last round of the one before),
/// and one clock to turn to the output; 2 for no block.
pub const fn chain_blocks_clocks(blocks: u64) -> u64 {
    2 + blocks * PERMUTATION_CLOCKS
}

/// Clocks of the prefix request that starts every WOTS+ job: a full
/// chain of no step (n/2 + 8 message words, n/4 output words) and 1 clock
/// of turnaround.
const fn prefix_clocks(n: u64) -> u64 {
    (n / 2 + 8) + chain_blocks_clocks(0) + n / 4 + 1
}

/// Clocks of one leaf on the sponge engine ([`SPONGE_ROUNDS_PER_CLOCK`])
/// with the output stream always ready, from the `start` clock to the first clock with `done`
/// high (asserted by the tests for every n): the prefix request, then per
/// chain one kept-prefix request (n/4 words of SK.seed, the PRF's block
/// and 15 F calls ([`chain_blocks_clocks`] of 16), n/4 output words, 2
/// clocks of turnaround), then the T_len request: (n + 32 + len·n)/4
/// message words, one permutation per rate block of the padded message,
/// n/4 output words, and 5 clocks (the `start` clock, the turnaround, the
/// `done` clock).
///
/// At n = 16 a chain's PRF and 15 F calls take 16 · [`PERMUTATION_CLOCKS`]
/// clocks; the load, the streaming and the turnaround cost 12 more (46
/// when each chain streamed PK.seed ‖ ADRS for a separate PRF request and
/// for the chain, and a load clock went with every block).
pub const fn leaf_clocks(n: usize) -> u64 {
    let n = n as u64;
    let len = 2 * n + 3;
    let chain = n / 4 + chain_blocks_clocks(1 + CHAIN_STEPS as u64) + n / 4 + 2;
    let compress_bytes = n + 32 + len * n;
    // SHAKE padding adds at least one byte.
    let blocks = (compress_bytes + 1).div_ceil(RATE_BYTES);
    let compress = compress_bytes / 4 + blocks * PERMUTATION_CLOCKS + n / 4;
    prefix_clocks(n) + len * chain + compress + 5
}

/// Clocks of one leaf with `sign_leaf` (output always ready): each chain is
/// two kept-prefix requests, PRF and 0..d, then d..15, so each adds a
/// request of n/4 message words, n/4 output words, 2 clocks of turnaround
/// and the fixed 2 clocks of [`chain_blocks_clocks`], and no block; the
/// count is the same for every message (asserted by the tests).
pub const fn sign_leaf_clocks(n: usize) -> u64 {
    let words = n as u64 / 4;
    leaf_clocks(n) + wots_len(n) as u64 * (2 * words + 2 + chain_blocks_clocks(0))
}

/// Clocks of one `from_sig` job (output always ready): the prefix request,
/// then per chain one kept-prefix request (n/4 message words, 15 − d_i F
/// calls, n/4 output words, 2 clocks of turnaround and 1 more for the
/// memory's priming, which the sponge's state clear half hides), then T_len as in [`leaf_clocks`]; `digits` are the len
/// digits of the message (asserted by the tests).
pub fn pk_from_sig_clocks(n: usize, digits: &[u32]) -> u64 {
    let steps: u64 = digits.iter().map(|&d| u64::from(CHAIN_STEPS - d)).sum();
    let len = wots_len(n) as u64;
    leaf_clocks(n) + len - len * (1 + u64::from(CHAIN_STEPS)) * PERMUTATION_CLOCKS
        + steps * PERMUTATION_CLOCKS
}

/// Clocks that the first FORS leaf after the address or seed writes (or
/// after a WOTS+ job) adds: the FORS prefix, a full chain of no step on
/// the FORS_TREE address that the leaves' kept-prefix requests then use.
pub const fn fors_prefix_clocks(n: usize) -> u64 {
    prefix_clocks(n as u64)
}

/// Clocks of one FORS leaf (`start` with `fors`) on the kept FORS prefix
/// with the output stream always ready: one kept-prefix request (n/4
/// words of SK.seed, the secret value's PRF block and the leaf's F,
/// n/4 output words) and 5 clocks of start, turnaround and `done`
/// (asserted by the tests).
pub const fn fors_leaf_clocks(n: usize) -> u64 {
    let words = n as u64 / 4;
    words + chain_blocks_clocks(2) + words + 3
}

/// Clocks of the signed FORS leaf (`start` with `fors` and `sign_leaf`):
/// [`fors_leaf_clocks`] split in two kept-prefix requests, the secret
/// value (streamed out) and the leaf from it, so one more request of
/// n/4 message words, n/4 output words, 2 clocks of turnaround and the
/// fixed 2 clocks of [`chain_blocks_clocks`] (asserted by the tests).
pub const fn fors_sign_leaf_clocks(n: usize) -> u64 {
    let words = n as u64 / 4;
    fors_leaf_clocks(n) + 2 * words + 2 + chain_blocks_clocks(0)
}

/// Clocks of the FORS public key over k roots (`start` with `fors` and
/// `from_sig`), as the T_len of [`leaf_clocks`] over k·n bytes (asserted
/// by the tests).
pub const fn fors_roots_clocks(n: usize, k: usize) -> u64 {
    let n = n as u64;
    let bytes = n + 32 + k as u64 * n;
    let blocks = (bytes + 1).div_ceil(RATE_BYTES);
    bytes / 4 + blocks * PERMUTATION_CLOCKS + n / 4 + 5
}

/// Clocks of one FORS leaf from its secret value (`start_node` with `fors`
/// and height 0): one chain request of one F (n/2 + 8 message words,
/// [`chain_blocks_clocks`] of 1, n/4 output words) and 2 clocks of start
/// and `done` (asserted by the tests).
pub const fn fors_leaf_from_sk_clocks(n: usize) -> u64 {
    let n = n as u64;
    (n / 2 + 8) + chain_blocks_clocks(1) + n / 4 + 2
}

/// Clocks of one Merkle node (`start_node`) with the output stream always
/// ready, from the `start_node` clock to the first clock with `done` high:
/// (3n + 32)/4 message words, one permutation, n/4 output words and the
/// same 5 clocks as the leaf's T_len (asserted by the tests).
pub const fn node_clocks(n: usize) -> u64 {
    let n = n as u64;
    (3 * n + 32) / 4 + PERMUTATION_CLOCKS + n / 4 + 5
}

/// Phases of the job.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum LeafPhase {
    /// Waiting for `start`.
    Idle,
    /// Starting the next sponge request (waits while the sponge is busy).
    Launch,
    /// Streaming the request's message in and its output out.
    Run,
}

/// Which sponge request runs.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum LeafRequest {
    /// A WOTS+ job's first request, and a FORS leaf's when the sponge
    /// holds no FORS prefix: a full chain of no step, which leaves PK.seed
    /// and ADRS in the sponge for the kept-prefix chains.
    Prefix,
    /// The signed FORS leaf's secret value, PRF(PK.seed, SK.seed, ADRS),
    /// on the kept prefix, streamed out.
    ForsSecret,
    /// A FORS leaf on the kept prefix: F of the secret value, which the
    /// same request computes first unless `ForsSecret` did.
    ForsLeaf,
    /// WOTS+: the chain to its end on the kept prefix, from PRF(SK.seed)
    /// (key generation), σ_i (signing) or the signature's σ_i
    /// (verification); FORS: the leaf from a given secret value (a full
    /// chain of one F).
    Chain,
    /// Signing: PRF(SK.seed) and the chain to the message digit, σ_i.
    SigChain,
    /// T_len over the chain ends: the public key.
    Compress,
    /// H over two children: a Merkle tree node.
    Node,
}

/// The XMSS leaf job on a sponge engine with `R` rounds per clock.
#[derive(LogicBlock)]
pub struct WotsLeafEngine<const R: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Write `seed_word` into seed word `seed_index` (when idle).
    pub seed_write: Signal<In, Bit>,
    /// 0..7: PK.seed words; 8..15: SK.seed words.
    pub seed_index: Signal<In, Bits<4>>,
    /// The seed word (little-endian bytes).
    pub seed_word: Signal<In, Bits<32>>,
    /// Write `adrs_word` into address word `adrs_index` (when idle).
    pub adrs_write: Signal<In, Bit>,
    /// Which address word (0..7; only 0..3 and 5 are kept).
    pub adrs_index: Signal<In, Bits<3>>,
    /// The address word (little-endian bytes of the big-endian fields).
    pub adrs_word: Signal<In, Bits<32>>,
    /// Compute the leaf (taken when idle).
    pub start: Signal<In, Bit>,
    /// n in bytes, sampled at `start` and `start_node`.
    pub n_bytes: Signal<In, Bits<6>>,
    /// Write `node_word` into child word `node_index` (in any state): the
    /// little-endian words of left ‖ right, n/2 words.
    pub node_write: Signal<In, Bit>,
    /// Which child word (0..n/2 − 1).
    pub node_index: Signal<In, Bits<4>>,
    /// The child word.
    pub node_word: Signal<In, Bits<32>>,
    /// Compute the Merkle node H(PK.seed, ADRS, left ‖ right) (taken when
    /// idle and `start` is low); with `fors` and `node_height` = 0, the FORS
    /// leaf F(PK.seed, ADRS, sk) of the secret value sk in child words
    /// 0..n/4 − 1 (FIPS 205 Algorithm 17, line 6).
    pub start_node: Signal<In, Bit>,
    /// The node's tree height, sampled at `start_node`.
    pub node_height: Signal<In, Bits<8>>,
    /// The node's tree index, sampled at `start_node` (and the FORS leaf's
    /// global index at `start` with `fors`): its low 20 bits, as every
    /// index of FIPS 205 is below k·2^a ≤ 2^19.
    pub node_tree_index: Signal<In, Bits<32>>,
    /// Sign while computing the leaf (sampled at `start`): σ_i is streamed
    /// out as each chain passes its message digit.
    pub sign_leaf: Signal<In, Bit>,
    /// Write `msg_word` into message word `msg_index` (when idle): the
    /// little-endian words of the n-byte message signed with `sign_leaf`.
    pub msg_write: Signal<In, Bit>,
    /// Which message word.
    pub msg_index: Signal<In, Bits<3>>,
    /// The message word.
    pub msg_word: Signal<In, Bits<32>>,
    /// Compute the public key from a WOTS+ signature of the message
    /// (sampled at `start`, ignored with `sign_leaf`): the signature is
    /// written beforehand with `sig_write`.
    pub from_sig: Signal<In, Bit>,
    /// Write `sig_word` into signature word `sig_index` (when idle): the
    /// len·n/4 little-endian words of σ.
    pub sig_write: Signal<In, Bit>,
    /// Which signature word.
    pub sig_index: Signal<In, Bits<ENDS_ADDRESS_BITS>>,
    /// The signature word.
    pub sig_word: Signal<In, Bits<32>>,
    /// FORS instead of WOTS+ (sampled at `start` and `start_node`): `start`
    /// computes the FORS leaf `node_tree_index` (streaming its secret value
    /// first with `sign_leaf`), or with `from_sig` the FORS public key over
    /// the `fors_trees` roots in the memory; `start_node` a FORS tree node.
    pub fors: Signal<In, Bit>,
    /// k, the FORS roots compressed by `fors` with `from_sig` (1..=35).
    pub fors_trees: Signal<In, Bits<6>>,
    /// Abandon the job (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// A job is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last job finished (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last job was refused or aborted (cleared by the next start).
    pub error: Signal<Out, Bit>,
    /// Public-key stream TDATA.
    pub out_data: Signal<Out, Bits<32>>,
    /// Public-key stream TVALID.
    pub out_valid: Signal<Out, Bit>,
    /// Public-key stream TLAST.
    pub out_last: Signal<Out, Bit>,
    /// The stream word is a word of the WOTS+ signature (else of the key or
    /// the node).
    pub out_sig: Signal<Out, Bit>,
    /// Public-key stream TREADY.
    pub out_ready: Signal<In, Bit>,
    /// The sponge the job hashes on when built with
    /// [`WotsLeafEngine::with_outside_sponge`] (zeros otherwise).
    pub sponge_port: SpongePort,
    /// Its own engine, built with the kept-prefix chain op; or the port.
    sponge: SpongeSelect<R>,
    /// The chain ends, in two 16-bit halves: a 1024 × 16 memory is one
    /// RAMB18E1 (yosys 0.23's abc9 aborts on the RAMB36E1 of 1024 × 32).
    ends_low: RAM<Bits<16>, ENDS_ADDRESS_BITS>,
    ends_high: RAM<Bits<16>, ENDS_ADDRESS_BITS>,
    pk_seed: [DFF<Bits<32>>; 8],
    sk_seed: [DFF<Bits<32>>; 8],
    adrs: [DFF<Bits<32>>; 6],
    secret: [DFF<Bits<32>>; 8],
    message: [DFF<Bits<32>>; 8],
    signing: DFF<Bit>,
    verifying: DFF<Bit>,
    checksum: DFF<Bits<10>>,
    len1: DFF<Bits<7>>,
    children: [DFF<Bits<32>>; 16],
    height: DFF<Bits<8>>,
    tree_index: DFF<Bits<32>>,
    node_bytes: DFF<Bits<8>>,
    children_last: DFF<Bits<ENDS_ADDRESS_BITS>>,
    phase: DFF<LeafPhase>,
    request: DFF<LeafRequest>,
    sending: DFF<Bit>,
    segment: DFF<Bits<2>>,
    word: DFF<Bits<ENDS_ADDRESS_BITS>>,
    chain: DFF<Bits<7>>,
    last_chain: DFF<Bits<7>>,
    seed_last: DFF<Bits<ENDS_ADDRESS_BITS>>,
    ends_last: DFF<Bits<ENDS_ADDRESS_BITS>>,
    /// The sponge holds PK.seed and the FORS_TREE address of the current
    /// FORS operation (a FORS prefix ran and nothing replaced it).
    fors_prefix: DFF<Bit>,
    compress_bytes: DFF<Bits<12>>,
    n_reg: DFF<Bits<6>>,
    secret_word: DFF<Bits<3>>,
    write_ptr: DFF<Bits<ENDS_ADDRESS_BITS>>,
    read_ptr: DFF<Bits<ENDS_ADDRESS_BITS>>,
    ends_stage: DFF<Bits<32>>,
    prime: DFF<Bits<2>>,
    fors_mode: DFF<Bit>,
    from_child: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    roots_words: Signal<Local, Bits<ENDS_ADDRESS_BITS>>,
    roots_start: Signal<Local, Bit>,
    segment_last: Signal<Local, Bits<ENDS_ADDRESS_BITS>>,
    pk_seed_word: Signal<Local, Bits<32>>,
    sk_seed_word: Signal<Local, Bits<32>>,
    secret_out: Signal<Local, Bits<32>>,
    children_word: Signal<Local, Bits<32>>,
    tree_index_word: Signal<Local, Bits<32>>,
    adrs_out: Signal<Local, Bits<32>>,
    ends_word: Signal<Local, Bits<32>>,
    ends_address: Signal<Local, Bits<ENDS_ADDRESS_BITS>>,
    send_word: Signal<Local, Bits<32>>,
    in_fire: Signal<Local, Bit>,
    external: Signal<Local, Bit>,
    final_request: Signal<Local, Bit>,
    first_fors_request: Signal<Local, LeafRequest>,
    from_memory: Signal<Local, Bit>,
    message_word: Signal<Local, Bits<32>>,
    message_byte: Signal<Local, Bits<8>>,
    next_digit: Signal<Local, Bits<4>>,
    /// The value `chain` takes at the edge.
    chain_next: Signal<Local, Bits<7>>,
    /// The digit of chain `chain`, computed a clock ahead from
    /// `chain_next` (the message and the checksum are stable by then), so
    /// that the requests' arguments start at a flip-flop.
    digit: DFF<Bits<4>>,
    chain_start: Signal<Local, Bits<4>>,
    out_fire: Signal<Local, Bit>,
    read_next: Signal<Local, Bit>,
    kept: Signal<Local, Bit>,
    kept_arg0: Signal<Local, Bits<32>>,
    /// [`KEPT_PRF_FIRST`] when the request starts with the PRF, else 0.
    kept_prf_flag: Signal<Local, Bits<32>>,
    /// [`KEPT_FORS`] in a FORS job, else 0.
    kept_fors_flag: Signal<Local, Bits<32>>,
    primed: Signal<Local, Bit>,
    op_sponge: Constant<Bits<8>>,
    op_chain: Constant<Bits<8>>,
    op_abort: Constant<Bits<8>>,
    op_chain_kept: Constant<Bits<8>>,
    kept_prf_first: Constant<Bits<32>>,
    kept_fors: Constant<Bits<32>>,
    mode_shake256: Constant<Bits<32>>,
    chain_steps: Constant<Bits<4>>,
    type_pk_word: Constant<Bits<32>>,
    type_tree_word: Constant<Bits<32>>,
    type_fors_tree_word: Constant<Bits<32>>,
    type_fors_roots_word: Constant<Bits<32>>,
    max_fors_trees: Constant<Bits<6>>,
}

impl<const R: usize> Default for WotsLeafEngine<R> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            seed_write: Default::default(),
            seed_index: Default::default(),
            seed_word: Default::default(),
            adrs_write: Default::default(),
            adrs_index: Default::default(),
            adrs_word: Default::default(),
            start: Default::default(),
            n_bytes: Default::default(),
            node_write: Default::default(),
            node_index: Default::default(),
            node_word: Default::default(),
            start_node: Default::default(),
            node_height: Default::default(),
            node_tree_index: Default::default(),
            sign_leaf: Default::default(),
            msg_write: Default::default(),
            msg_index: Default::default(),
            msg_word: Default::default(),
            from_sig: Default::default(),
            sig_write: Default::default(),
            sig_index: Default::default(),
            sig_word: Default::default(),
            fors: Default::default(),
            fors_trees: Default::default(),
            abort_job: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            out_sig: Default::default(),
            out_ready: Default::default(),
            sponge_port: Default::default(),
            sponge: SpongeSelect::own(SpongeEngine::with_kept_chain()),
            ends_low: Default::default(),
            ends_high: Default::default(),
            pk_seed: Default::default(),
            sk_seed: Default::default(),
            adrs: Default::default(),
            secret: Default::default(),
            message: Default::default(),
            signing: Default::default(),
            verifying: Default::default(),
            checksum: Default::default(),
            len1: Default::default(),
            children: Default::default(),
            height: Default::default(),
            tree_index: Default::default(),
            node_bytes: Default::default(),
            children_last: Default::default(),
            phase: Default::default(),
            request: Default::default(),
            sending: Default::default(),
            segment: Default::default(),
            word: Default::default(),
            chain: Default::default(),
            last_chain: Default::default(),
            seed_last: Default::default(),
            ends_last: Default::default(),
            fors_prefix: Default::default(),
            compress_bytes: Default::default(),
            n_reg: Default::default(),
            secret_word: Default::default(),
            write_ptr: Default::default(),
            read_ptr: Default::default(),
            ends_stage: Default::default(),
            prime: Default::default(),
            fors_mode: Default::default(),
            from_child: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            roots_words: Default::default(),
            roots_start: Default::default(),
            segment_last: Default::default(),
            pk_seed_word: Default::default(),
            sk_seed_word: Default::default(),
            secret_out: Default::default(),
            children_word: Default::default(),
            tree_index_word: Default::default(),
            adrs_out: Default::default(),
            ends_word: Default::default(),
            ends_address: Default::default(),
            send_word: Default::default(),
            in_fire: Default::default(),
            external: Default::default(),
            final_request: Default::default(),
            first_fors_request: Default::default(),
            from_memory: Default::default(),
            message_word: Default::default(),
            message_byte: Default::default(),
            next_digit: Default::default(),
            chain_next: Default::default(),
            digit: Default::default(),
            chain_start: Default::default(),
            out_fire: Default::default(),
            read_next: Default::default(),
            kept: Default::default(),
            kept_arg0: Default::default(),
            kept_prf_flag: Default::default(),
            kept_fors_flag: Default::default(),
            primed: Default::default(),
            op_sponge: Constant::new((regs::OP_SPONGE as u64).into()),
            op_chain: Constant::new((regs::OP_WOTS_CHAIN as u64).into()),
            op_abort: Constant::new((regs::OP_ABORT as u64).into()),
            op_chain_kept: Constant::new((OP_WOTS_CHAIN_KEPT as u64).into()),
            kept_prf_first: Constant::new((KEPT_PRF_FIRST as u64).into()),
            kept_fors: Constant::new((KEPT_FORS as u64).into()),
            mode_shake256: Constant::new((regs::MODE_SHAKE256 as u64).into()),
            chain_steps: Constant::new((CHAIN_STEPS as u64).into()),
            // A big-endian type t < 256 is byte 19: the top byte of word 4.
            type_pk_word: Constant::new((TYPE_WOTS_PK << 24).into()),
            type_tree_word: Constant::new((TYPE_TREE << 24).into()),
            type_fors_tree_word: Constant::new((TYPE_FORS_TREE << 24).into()),
            type_fors_roots_word: Constant::new((TYPE_FORS_ROOTS << 24).into()),
            max_fors_trees: Constant::new((MAX_FORS_TREES as u64).into()),
        }
    }
}

impl<const R: usize> WotsLeafEngine<R> {
    /// A job that hashes on the engine behind [`WotsLeafEngine::sponge_port`]
    /// (which must take the kept-prefix chain op).
    pub fn with_outside_sponge() -> Self {
        Self {
            sponge: SpongeSelect::outside(),
            ..Self::default()
        }
    }
}

impl<const R: usize> Logic for WotsLeafEngine<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            request,
            sending,
            segment,
            word,
            chain,
            digit,
            last_chain,
            seed_last,
            ends_last,
            fors_prefix,
            compress_bytes,
            height,
            tree_index,
            node_bytes,
            children_last,
            n_reg,
            secret_word,
            signing,
            verifying,
            checksum,
            len1,
            write_ptr,
            read_ptr,
            ends_stage,
            prime,
            fors_mode,
            from_child,
            done_flag,
            error_flag
        );
        for i in 0..8 {
            self.pk_seed[i].clock.next = self.clock.val();
            self.pk_seed[i].d.next = self.pk_seed[i].q.val();
            self.sk_seed[i].clock.next = self.clock.val();
            self.sk_seed[i].d.next = self.sk_seed[i].q.val();
            self.secret[i].clock.next = self.clock.val();
            self.secret[i].d.next = self.secret[i].q.val();
            self.message[i].clock.next = self.clock.val();
            self.message[i].d.next = self.message[i].q.val();
        }
        for i in 0..16 {
            self.children[i].clock.next = self.clock.val();
            self.children[i].d.next = self.children[i].q.val();
        }
        for i in 0..6 {
            self.adrs[i].clock.next = self.clock.val();
            self.adrs[i].d.next = self.adrs[i].q.val();
        }
        clock!(self, clock, sponge);
        SpongePort::link(&mut self.sponge_port, &mut self.sponge.port);
        self.ends_low.read_clock.next = self.clock.val();
        self.ends_low.write_clock.next = self.clock.val();
        self.ends_low.write_enable.next = false;
        self.ends_low.write_address.next = self.write_ptr.q.val();
        self.ends_low.write_data.next = self.sponge.out_data.val().get_bits::<16>(0);
        self.ends_high.read_clock.next = self.clock.val();
        self.ends_high.write_clock.next = self.clock.val();
        self.ends_high.write_enable.next = false;
        self.ends_high.write_address.next = self.write_ptr.q.val();
        self.ends_high.write_data.next = self.sponge.out_data.val().get_bits::<16>(16);
        // σ is written into the chain-end memory, where each chain then
        // replaces its value by its end; FORS roots while a node runs.
        if self.sig_write.val()
            & ((self.phase.q.val() == LeafPhase::Idle)
                | (self.request.q.val() != LeafRequest::Chain))
        {
            self.ends_low.write_address.next = self.sig_index.val();
            self.ends_low.write_data.next = self.sig_word.val().get_bits::<16>(0);
            self.ends_low.write_enable.next = true;
            self.ends_high.write_address.next = self.sig_index.val();
            self.ends_high.write_data.next = self.sig_word.val().get_bits::<16>(16);
            self.ends_high.write_enable.next = true;
        }
        self.ends_word.next = (bit_cast::<32, 16>(self.ends_high.read_data.val()) << 16)
            | bit_cast::<32, 16>(self.ends_low.read_data.val());

        // The request of the current step.
        self.sponge.reset.next = self.reset.val();
        self.sponge.start.next = false;
        self.sponge.op.next = self.op_sponge.val();
        self.sponge.arg0.next = self.mode_shake256.val();
        self.sponge.arg1.next = 0.into();
        self.sponge.arg2.next = bit_cast::<32, 6>(self.n_reg.q.val());
        self.chain_next.next = self.chain.q.val();

        // Signing splits each chain at its digit: 0..d, then d..15; from a
        // signature, the chain runs d..15. The digit follows from the chain
        // index, which holds through all requests of the chain, and the
        // checksum, which is final before its first digit is needed.
        self.chain_start.next = 0.into();
        if self.signing.q.val() | self.verifying.q.val() {
            self.chain_start.next = self.digit.q.val();
        }
        // WOTS+ chains and FORS leaves run on the prefix kept by an earlier
        // request: only X is streamed, and the PRF of the secret value is
        // folded into the chain's request.
        self.kept.next = ((self.request.q.val() == LeafRequest::Chain) & !self.fors_mode.q.val())
            | (self.request.q.val() == LeafRequest::SigChain)
            | (self.request.q.val() == LeafRequest::ForsSecret)
            | (self.request.q.val() == LeafRequest::ForsLeaf);
        // The PRF comes first in key generation, in a signing chain's
        // first request, for a FORS secret value, and in a FORS leaf that
        // is not signed.
        self.kept_prf_flag.next = 0.into();
        if (self.request.q.val() == LeafRequest::SigChain)
            | (self.request.q.val() == LeafRequest::ForsSecret)
            | !(self.signing.q.val() | self.verifying.q.val())
        {
            self.kept_prf_flag.next = self.kept_prf_first.val();
        }
        // (A FORS job's chain address, the tree height, is 0.)
        self.kept_fors_flag.next = 0.into();
        if self.fors_mode.q.val() {
            self.kept_fors_flag.next = self.kept_fors.val();
        }
        self.kept_arg0.next = bit_cast::<32, 6>(self.n_reg.q.val())
            | (bit_cast::<32, 7>(self.chain.q.val()) << 8)
            | self.kept_prf_flag.val()
            | self.kept_fors_flag.val();
        if (self.request.q.val() == LeafRequest::ForsSecret)
            | (self.request.q.val() == LeafRequest::ForsLeaf)
        {
            self.sponge.op.next = self.op_chain_kept.val();
            self.sponge.arg0.next = self.kept_arg0.val();
            self.sponge.arg1.next = self.tree_index.q.val();
            self.sponge.arg2.next = 0.into();
            if self.request.q.val() == LeafRequest::ForsLeaf {
                self.sponge.arg2.next = 1.into();
            }
        }
        if self.request.q.val() == LeafRequest::Prefix {
            self.sponge.op.next = self.op_chain.val();
            self.sponge.arg0.next = bit_cast::<32, 6>(self.n_reg.q.val());
            self.sponge.arg1.next = 0.into();
            self.sponge.arg2.next = 0.into();
        }
        if self.request.q.val() == LeafRequest::Chain {
            self.sponge.op.next = self.op_chain_kept.val();
            self.sponge.arg0.next = self.kept_arg0.val();
            self.sponge.arg1.next = bit_cast::<32, 4>(self.chain_start.val());
            self.sponge.arg2.next =
                bit_cast::<32, 4>(self.chain_steps.val() - self.chain_start.val());
        }
        // A FORS leaf is F at hash address = its tree index: one step.
        if (self.request.q.val() == LeafRequest::Chain) & self.fors_mode.q.val() {
            self.sponge.op.next = self.op_chain.val();
            self.sponge.arg0.next = bit_cast::<32, 6>(self.n_reg.q.val());
            self.sponge.arg1.next = self.tree_index.q.val();
            self.sponge.arg2.next = 1.into();
        }
        if self.request.q.val() == LeafRequest::SigChain {
            self.sponge.op.next = self.op_chain_kept.val();
            self.sponge.arg0.next = self.kept_arg0.val();
            self.sponge.arg1.next = 0.into();
            self.sponge.arg2.next = bit_cast::<32, 4>(self.digit.q.val());
        }
        if self.request.q.val() == LeafRequest::Compress {
            self.sponge.arg1.next = bit_cast::<32, 12>(self.compress_bytes.q.val());
        }
        if self.request.q.val() == LeafRequest::Node {
            self.sponge.arg1.next = bit_cast::<32, 8>(self.node_bytes.q.val());
        }

        // The message: PK.seed (segment 0), ADRS (1), then SK.seed, sk_i or
        // the chain ends (2).
        self.segment_last.next = self.seed_last.q.val();
        if self.segment.q.val() == 1 {
            self.segment_last.next = 7.into();
        }
        if (self.segment.q.val() == 2) & (self.request.q.val() == LeafRequest::Compress) {
            self.segment_last.next = self.ends_last.q.val();
        }
        if (self.segment.q.val() == 2) & (self.request.q.val() == LeafRequest::Node) {
            self.segment_last.next = self.children_last.q.val();
        }
        self.pk_seed_word.next = self.pk_seed[0].q.val();
        self.sk_seed_word.next = self.sk_seed[0].q.val();
        self.secret_out.next = self.secret[0].q.val();
        self.adrs_out.next = self.adrs[0].q.val();
        for i in 1..8 {
            if self.word.q.val().index() == i {
                self.pk_seed_word.next = self.pk_seed[i].q.val();
                self.sk_seed_word.next = self.sk_seed[i].q.val();
                self.secret_out.next = self.secret[i].q.val();
            }
        }
        self.children_word.next = self.children[0].q.val();
        for i in 1..16 {
            if self.word.q.val().index() == i {
                self.children_word.next = self.children[i].q.val();
            }
        }
        for i in 1..6 {
            if self.word.q.val().index() == i {
                self.adrs_out.next = self.adrs[i].q.val();
            }
        }
        // The big-endian tree index in little-endian word order.
        self.tree_index_word.next = (bit_cast::<32, 8>(self.tree_index.q.val().get_bits::<8>(0))
            << 24)
            | (bit_cast::<32, 8>(self.tree_index.q.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.tree_index.q.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.tree_index.q.val().get_bits::<8>(24));
        if self.word.q.val().index() == 4 {
            self.adrs_out.next = 0.into();
            if self.request.q.val() == LeafRequest::Compress {
                self.adrs_out.next = self.type_pk_word.val();
            }
            if self.request.q.val() == LeafRequest::Node {
                self.adrs_out.next = self.type_tree_word.val();
            }
            if self.fors_mode.q.val() {
                self.adrs_out.next = self.type_fors_tree_word.val();
                if self.request.q.val() == LeafRequest::Compress {
                    self.adrs_out.next = self.type_fors_roots_word.val();
                }
            }
        }
        // XMSS nodes clear the key pair; FORS addresses keep it.
        if (self.word.q.val().index() == 5)
            & (self.request.q.val() == LeafRequest::Node)
            & !self.fors_mode.q.val()
        {
            self.adrs_out.next = 0.into();
        }
        if self.word.q.val().index() == 6 {
            // The big-endian chain address i < 256 is byte 27.
            self.adrs_out.next = bit_cast::<32, 7>(self.chain.q.val()) << 24;
            if self.request.q.val() == LeafRequest::Compress {
                self.adrs_out.next = 0.into();
            }
            if self.request.q.val() == LeafRequest::Node {
                self.adrs_out.next = bit_cast::<32, 8>(self.height.q.val()) << 24;
            }
        }
        if self.word.q.val().index() == 7 {
            self.adrs_out.next = 0.into();
            if self.request.q.val() == LeafRequest::Node {
                self.adrs_out.next = self.tree_index_word.val();
            }
        }
        self.send_word.next = self.pk_seed_word.val();
        if self.segment.q.val() == 1 {
            self.send_word.next = self.adrs_out.val();
        }
        if self.segment.q.val() == 2 {
            // X: SK.seed for a PRF (a prefix's X is never used), sk_i or σ_i
            // or the signed FORS leaf's secret value kept in `secret`, or
            // σ_i from the memory.
            self.send_word.next = self.ends_stage.q.val();
            if (self.request.q.val() == LeafRequest::Prefix)
                | (self.request.q.val() == LeafRequest::SigChain)
                | (self.request.q.val() == LeafRequest::ForsSecret)
                | (((self.request.q.val() == LeafRequest::Chain)
                    | (self.request.q.val() == LeafRequest::ForsLeaf))
                    & !self.signing.q.val()
                    & !self.verifying.q.val())
            {
                self.send_word.next = self.sk_seed_word.val();
            }
            if ((self.request.q.val() == LeafRequest::Chain)
                | (self.request.q.val() == LeafRequest::ForsLeaf))
                & self.signing.q.val()
            {
                self.send_word.next = self.secret_out.val();
            }
            if (self.request.q.val() == LeafRequest::Node) | self.from_child.q.val() {
                self.send_word.next = self.children_word.val();
            }
        }
        self.sponge.in_data.next = self.send_word.val();

        // The chain-end memory's output goes through a register
        // (`ends_stage`, the current word) so that no logic follows the
        // block RAM's clock-to-out: the memory reads the next word, and
        // both move on with each word taken. They are primed with words 0
        // and 1 while PK.seed ‖ ADRS goes out (T_len), or in two clocks
        // before the first word (a kept-prefix chain has no PK.seed ‖
        // ADRS).
        self.from_memory.next = (self.request.q.val() == LeafRequest::Compress)
            | ((self.request.q.val() == LeafRequest::Chain) & self.verifying.q.val());
        // X from the memory waits for its two priming reads (a kept-prefix
        // chain's X comes first; T_len primes during PK.seed ‖ ADRS).
        self.primed.next =
            !self.from_memory.val() | (self.segment.q.val() != 2) | (self.prime.q.val() == 2);
        self.sponge.in_valid.next =
            (self.phase.q.val() == LeafPhase::Run) & self.sending.q.val() & self.primed.val();
        self.sponge.in_last.next =
            (self.segment.q.val() == 2) & (self.word.q.val() == self.segment_last.val());
        self.in_fire.next = self.sponge.in_valid.val() & self.sponge.in_ready.val();
        self.read_next.next =
            self.in_fire.val() & (self.segment.q.val() == 2) & self.from_memory.val();
        self.ends_address.next = self.read_ptr.q.val() + 1;
        if self.read_next.val() {
            self.ends_address.next = self.read_ptr.q.val() + 2;
            self.read_ptr.d.next = self.read_ptr.q.val() + 1;
            self.ends_stage.d.next = self.ends_word.val();
        }
        if self.from_memory.val() & (self.phase.q.val() == LeafPhase::Run) {
            if self.prime.q.val() == 0 {
                self.ends_address.next = self.read_ptr.q.val();
                self.prime.d.next = 1.into();
            }
            if self.prime.q.val() == 1 {
                self.ends_stage.d.next = self.ends_word.val();
                self.prime.d.next = 2.into();
            }
        }
        self.ends_low.read_address.next = self.ends_address.val();
        self.ends_high.read_address.next = self.ends_address.val();
        if self.in_fire.val() {
            self.word.d.next = self.word.q.val() + 1;
            if self.word.q.val() == self.segment_last.val() {
                self.word.d.next = 0.into();
                self.segment.d.next = self.segment.q.val() + 1;
                if self.segment.q.val() == 2 {
                    self.sending.d.next = false;
                }
            }
        }

        // The output: sk_i into `secret`, a chain end into the memory, the
        // public key out of the job.
        // A FORS leaf on the kept prefix starts with the secret value when
        // signed (`sign_leaf` at the start, `signing` after the prefix).
        self.first_fors_request.next = LeafRequest::ForsLeaf;
        if ((self.phase.q.val() == LeafPhase::Idle) & self.sign_leaf.val())
            | ((self.phase.q.val() != LeafPhase::Idle) & self.signing.q.val())
        {
            self.first_fors_request.next = LeafRequest::ForsSecret;
        }
        self.final_request.next = (self.request.q.val() == LeafRequest::Compress)
            | (self.request.q.val() == LeafRequest::Node)
            | (self.request.q.val() == LeafRequest::ForsLeaf)
            | ((self.request.q.val() == LeafRequest::Chain) & self.fors_mode.q.val());
        // The signed FORS leaf streams its secret value (the PRF output).
        self.out_sig.next = (self.request.q.val() == LeafRequest::SigChain)
            | (self.request.q.val() == LeafRequest::ForsSecret);
        self.external.next = self.final_request.val() | self.out_sig.val();
        self.sponge.out_ready.next = self.phase.q.val() == LeafPhase::Run;
        if self.external.val() {
            self.sponge.out_ready.next =
                (self.phase.q.val() == LeafPhase::Run) & self.out_ready.val();
        }
        self.out_fire.next = self.sponge.out_ready.val() & self.sponge.out_valid.val();
        self.out_data.next = self.sponge.out_data.val();
        self.out_valid.next = (self.phase.q.val() == LeafPhase::Run)
            & self.external.val()
            & self.sponge.out_valid.val();
        self.out_last.next = self.sponge.out_last.val() & self.final_request.val();

        // Children are taken in any state (a node job reads them only while
        // it sends its message), so a tree job can write the next right
        // child while it streams out of this engine.
        if self.node_write.val() {
            for i in 0..16 {
                if self.node_index.val().index() == i {
                    self.children[i].d.next = self.node_word.val();
                }
            }
        }
        // k·n/4 words of FORS roots (n = 16, 24, 32).
        self.roots_start.next =
            self.start.val() & self.fors.val() & self.from_sig.val() & !self.sign_leaf.val();
        self.roots_words.next = bit_cast::<ENDS_ADDRESS_BITS, 6>(self.fors_trees.val()) << 2;
        if self.n_bytes.val() == 24 {
            self.roots_words.next = (bit_cast::<ENDS_ADDRESS_BITS, 6>(self.fors_trees.val()) << 2)
                + (bit_cast::<ENDS_ADDRESS_BITS, 6>(self.fors_trees.val()) << 1);
        }
        if self.n_bytes.val() == 32 {
            self.roots_words.next = bit_cast::<ENDS_ADDRESS_BITS, 6>(self.fors_trees.val()) << 3;
        }
        match self.phase.q.val() {
            LeafPhase::Idle => {
                // New seeds or address words: the kept prefix is stale.
                if self.seed_write.val() | self.adrs_write.val() {
                    self.fors_prefix.d.next = false;
                }
                if self.seed_write.val() {
                    for i in 0..8 {
                        if self.seed_index.val().get_bits::<3>(0).index() == i {
                            if self.seed_index.val().get_bit(3) {
                                self.sk_seed[i].d.next = self.seed_word.val();
                            } else {
                                self.pk_seed[i].d.next = self.seed_word.val();
                            }
                        }
                    }
                }
                if self.msg_write.val() {
                    for i in 0..8 {
                        if self.msg_index.val().index() == i {
                            self.message[i].d.next = self.msg_word.val();
                        }
                    }
                }
                if self.adrs_write.val() {
                    for i in 0..6 {
                        if self.adrs_index.val().index() == i {
                            self.adrs[i].d.next = self.adrs_word.val();
                        }
                    }
                }
                if self.start.val() | self.start_node.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.n_reg.d.next = self.n_bytes.val();
                    self.chain.d.next = 0.into();
                    self.chain_next.next = 0.into();
                    self.checksum.d.next = 0.into();
                    self.signing.d.next = self.sign_leaf.val() & self.start.val();
                    self.fors_mode.d.next = self.fors.val();
                    self.verifying.d.next = self.from_sig.val()
                        & !self.sign_leaf.val()
                        & self.start.val()
                        & !self.fors.val();
                    self.request.d.next = LeafRequest::Prefix;
                    if self.fors.val() & self.fors_prefix.q.val() {
                        self.request.d.next = self.first_fors_request.val();
                    }
                    if self.roots_start.val() {
                        self.request.d.next = LeafRequest::Compress;
                    }
                    if !self.start.val() {
                        self.request.d.next = LeafRequest::Node;
                    }
                    // A FORS node of height 0 is the leaf F(sk) of child
                    // words 0..n/4 − 1: one chain step from them.
                    self.from_child.d.next =
                        !self.start.val() & self.fors.val() & (self.node_height.val() == 0);
                    if !self.start.val() & self.fors.val() & (self.node_height.val() == 0) {
                        self.request.d.next = LeafRequest::Chain;
                    }
                    self.height.d.next = self.node_height.val();
                    // 20 bits: the sponge's check of start + steps then
                    // has a 20-bit carry chain (4.38 ns with 32).
                    self.tree_index.d.next =
                        bit_cast::<32, 20>(self.node_tree_index.val().get_bits::<20>(0));
                    self.write_ptr.d.next = 0.into();
                    self.read_ptr.d.next = 0.into();
                    self.phase.d.next = LeafPhase::Launch;
                    // Per n: n/4 − 1, len − 1, len·n/4 − 1, |PK.seed ‖ ADRS ‖
                    // SK.seed| and |PK.seed ‖ ADRS ‖ ends| in bytes.
                    if self.n_bytes.val() == 16 {
                        self.seed_last.d.next = 3.into();
                        self.len1.d.next = 32.into();
                        self.last_chain.d.next = 34.into();
                        self.ends_last.d.next = 139.into();
                        self.compress_bytes.d.next = 608.into();
                        self.node_bytes.d.next = 80.into();
                        self.children_last.d.next = 7.into();
                    } else if self.n_bytes.val() == 24 {
                        self.seed_last.d.next = 5.into();
                        self.len1.d.next = 48.into();
                        self.last_chain.d.next = 50.into();
                        self.ends_last.d.next = 305.into();
                        self.compress_bytes.d.next = 1280.into();
                        self.node_bytes.d.next = 104.into();
                        self.children_last.d.next = 11.into();
                    } else if self.n_bytes.val() == 32 {
                        self.seed_last.d.next = 7.into();
                        self.len1.d.next = 64.into();
                        self.last_chain.d.next = 66.into();
                        self.ends_last.d.next = 535.into();
                        self.compress_bytes.d.next = 2208.into();
                        self.node_bytes.d.next = 128.into();
                        self.children_last.d.next = 15.into();
                    } else {
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                        self.phase.d.next = LeafPhase::Idle;
                    }
                    // The FORS public key: T_k over k roots of n/4 words,
                    // |PK.seed ‖ ADRS ‖ roots| = n + 32 + 4·(k·n/4) bytes.
                    if self.roots_start.val() {
                        self.ends_last.d.next = self.roots_words.val() - 1;
                        self.compress_bytes.d.next =
                            (bit_cast::<12, ENDS_ADDRESS_BITS>(self.roots_words.val()) << 2)
                                + bit_cast::<12, 6>(self.n_bytes.val())
                                + 32;
                        if (self.fors_trees.val() == 0)
                            | (self.fors_trees.val() > self.max_fors_trees.val())
                        {
                            self.done_flag.d.next = true;
                            self.error_flag.d.next = true;
                            self.phase.d.next = LeafPhase::Idle;
                        }
                    }
                }
            }
            LeafPhase::Launch => {
                self.sponge.start.next = true;
                if !self.sponge.busy.val() {
                    // A full chain replaces the kept prefix (a FORS
                    // prefix sets it again when it ends).
                    if (self.request.q.val() == LeafRequest::Prefix)
                        | ((self.request.q.val() == LeafRequest::Chain) & self.fors_mode.q.val())
                    {
                        self.fors_prefix.d.next = false;
                    }
                    self.phase.d.next = LeafPhase::Run;
                    self.sending.d.next = true;
                    self.segment.d.next = 0.into();
                    if self.kept.val() {
                        self.segment.d.next = 2.into();
                    }
                    self.word.d.next = 0.into();
                    self.secret_word.d.next = 0.into();
                    self.prime.d.next = 0.into();
                    // The checksum adds w − 1 − digit over the message
                    // digits, once per chain: as its first request starts.
                    if ((self.request.q.val() == LeafRequest::SigChain)
                        | ((self.request.q.val() == LeafRequest::Chain) & self.verifying.q.val()))
                        & (self.chain.q.val() < self.len1.q.val())
                    {
                        self.checksum.d.next =
                            self.checksum.q.val() + 15 - bit_cast::<10, 4>(self.digit.q.val());
                    }
                }
            }
            LeafPhase::Run => {
                if self.out_fire.val() {
                    if (self.request.q.val() == LeafRequest::ForsSecret)
                        | (self.request.q.val() == LeafRequest::SigChain)
                    {
                        for i in 0..8 {
                            if self.secret_word.q.val().index() == i {
                                self.secret[i].d.next = self.sponge.out_data.val();
                            }
                        }
                        self.secret_word.d.next = self.secret_word.q.val() + 1;
                    }
                    if (self.request.q.val() == LeafRequest::Chain) & !self.fors_mode.q.val() {
                        self.ends_low.write_enable.next = true;
                        self.ends_high.write_enable.next = true;
                        self.write_ptr.d.next = self.write_ptr.q.val() + 1;
                    }
                    if self.sponge.out_last.val() {
                        self.phase.d.next = LeafPhase::Launch;
                        if self.request.q.val() == LeafRequest::Prefix {
                            self.request.d.next = LeafRequest::Chain;
                            if self.signing.q.val() {
                                self.request.d.next = LeafRequest::SigChain;
                            }
                            if self.fors_mode.q.val() {
                                self.fors_prefix.d.next = true;
                                self.request.d.next = self.first_fors_request.val();
                            }
                        }
                        if self.request.q.val() == LeafRequest::ForsSecret {
                            self.request.d.next = LeafRequest::ForsLeaf;
                        }
                        if self.request.q.val() == LeafRequest::SigChain {
                            self.request.d.next = LeafRequest::Chain;
                        }
                        if self.request.q.val() == LeafRequest::Chain {
                            self.request.d.next = LeafRequest::Chain;
                            if self.signing.q.val() {
                                self.request.d.next = LeafRequest::SigChain;
                            }
                            self.chain.d.next = self.chain.q.val() + 1;
                            self.chain_next.next = self.chain.q.val() + 1;
                            if self.chain.q.val() == self.last_chain.q.val() {
                                self.request.d.next = LeafRequest::Compress;
                                self.read_ptr.d.next = 0.into();
                            }
                        }
                        if self.final_request.val() {
                            self.phase.d.next = LeafPhase::Idle;
                            self.done_flag.d.next = true;
                        }
                    }
                }
                // A request the sponge refused cannot produce its output:
                // end the job instead of waiting for it.
                if self.sponge.done.val() & self.sponge.error.val() {
                    self.phase.d.next = LeafPhase::Idle;
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = true;
                    self.fors_prefix.d.next = false;
                }
            }
            _ => {
                self.phase.d.next = LeafPhase::Idle;
            }
        }
        if self.abort_job.val() {
            self.sponge.start.next = true;
            self.sponge.op.next = self.op_abort.val();
            self.fors_prefix.d.next = false;
            self.phase.d.next = LeafPhase::Idle;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
        }
        if self.reset.val() {
            self.fors_prefix.d.next = false;
            self.phase.d.next = LeafPhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
        }
        // The digit of chain i (FIPS 205 Algorithm 7), for the chain of
        // the next clock: nibble i of the message (high nibble first) for
        // i < len1 = 2n, then the three nibbles of the 12-bit checksum.
        self.message_word.next = self.message[0].q.val();
        for i in 1..8 {
            if self.chain_next.val().get_bits::<3>(3).index() == i {
                self.message_word.next = self.message[i].q.val();
            }
        }
        self.message_byte.next = self.message_word.val().get_bits::<8>(0);
        if self.chain_next.val().get_bits::<2>(1) == 1 {
            self.message_byte.next = self.message_word.val().get_bits::<8>(8);
        }
        if self.chain_next.val().get_bits::<2>(1) == 2 {
            self.message_byte.next = self.message_word.val().get_bits::<8>(16);
        }
        if self.chain_next.val().get_bits::<2>(1) == 3 {
            self.message_byte.next = self.message_word.val().get_bits::<8>(24);
        }
        self.next_digit.next = self.message_byte.val().get_bits::<4>(4);
        if self.chain_next.val().get_bit(0) {
            self.next_digit.next = self.message_byte.val().get_bits::<4>(0);
        }
        if self.chain_next.val() == self.len1.q.val() {
            self.next_digit.next = bit_cast::<4, 2>(self.checksum.q.val().get_bits::<2>(8));
        }
        if self.chain_next.val() == self.len1.q.val() + 1 {
            self.next_digit.next = self.checksum.q.val().get_bits::<4>(4);
        }
        if self.chain_next.val() == self.len1.q.val() + 2 {
            self.next_digit.next = self.checksum.q.val().get_bits::<4>(0);
        }
        self.digit.d.next = self.next_digit.val();

        self.busy.next = self.phase.q.val() != LeafPhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
    }
}
