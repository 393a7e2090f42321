//! The SLH-DSA-SHAKE engine: key generation, signing and verification
//! (FIPS 205 Algorithms 18, 19 and 20 after the digest) on one
//! [`XmssTreeEngine`], so that the three share one tree job, one leaf job
//! and one sponge.
//!
//! The PS computes what needs the message (R = PRF_msg and the digest
//! H_msg, one SHAKE call each) and writes md, idx_tree and idx_leaf; the
//! job does the rest:
//!
//! - **Verification** ([`OP_VERIFY`]) takes SIG_FORS ‖ SIG_HT from its input
//!   stream, a tree at a time:
//!   - FORS tree i: its secret value into the leaf engine's child words,
//!     its AUTH into the tree job's AUTH memory, index_i from md (one bit a
//!     clock), then the tree job's FORS climb, whose root goes to root slot
//!     i of the leaf engine's memory; after tree k − 1, T_k of the roots
//!     gives PK_FORS (Algorithm 17);
//!   - layer j: the address (layer j, idx_tree) and the message (PK_FORS,
//!     or the previous layer's root) into the tree job, σ_WOTS into the
//!     leaf engine's memory, AUTH into the AUTH memory, then the tree
//!     job's XMSS climb (Algorithm 11) gives the layer's root (Algorithm
//!     13).
//! - **Signing** ([`OP_SIGN`]) walks the same phases with the tree job
//!   signing: FORS tree i for leaf index_i (Algorithm 16), its secret value
//!   and AUTH streamed out; T_k of the roots gives PK_FORS, kept in the PL
//!   as the first layer's message; then per layer the tree job's xmss_sign
//!   (Algorithm 10), σ_WOTS ‖ AUTH streamed out and the root kept for the
//!   next layer (Algorithm 12). The output is SIG_FORS ‖ SIG_HT.
//! - **Key generation** ([`OP_KEYGEN`]): the tree job on the top layer's
//!   tree 0 (Algorithm 18, line 5), its root kept.
//!
//! Each operation ends by streaming the top root out; `verdict` is high
//! when it equals the PK.root written beforehand. For verification that
//! is the result. After signing it is a narrow check: the top root depends
//! on neither the message nor the lower layers, so it catches a wrong
//! seed or a fault in the top layer's tree, not one in SIG_FORS or in a
//! lower layer (verifying the signature checks those). After key
//! generation the root is PK.root itself.
//!
//! # Interface
//!
//! - Seeds (`seed_*`: PK.seed words 0..7, SK.seed words 8..15; verification
//!   needs PK.seed only), md (`md_*`: the ⌈k·a/8⌉ ≤ 40
//!   bytes as words 0..9) and PK.root (`root_*`, words 0..7),
//!   little-endian words written while idle.
//! - `start` (taken when idle) samples `operation`, n, a, k, h′, d,
//!   idx_tree and idx_leaf (key generation uses tree 0, leaf 0). n ∉ {16,
//!   24, 32}, a ∉ 1..=14, k ∉ 1..=35, h′ ∉ 1..=9, d ∉ 1..=22 or an unknown
//!   operation is refused at once with `done` and `error`.
//! - Input stream (`in_data`/`in_valid`/`in_ready`/`in_last`), verification
//!   only: SIG_FORS ‖ SIG_HT, (k·(1 + a) + d·(len + h′))·n/4 little-endian
//!   words, `in_last` on the final one. An `in_last` before it (a truncated
//!   signature) ends the job with `done` and `error`; a final word without
//!   `in_last` (too long) drains the stream up to its `in_last`, then ends
//!   with `done` and `error`.
//! - Output stream: SIG_FORS ‖ SIG_HT when signing, then the top root (n/4
//!   words, `out_last` on the final one); then `done` with `verdict`.
//! - `abort_job` (taken in any state) aborts the tree job and returns to
//!   idle at once with `done` and `error`; `reset` (synchronous, active
//!   high) returns to idle with `done`/`error` low.
//!
//! # Clock count
//!
//! Signing and key generation take a fixed count for n, a, k, h′ and d
//! ([`sign_clocks`], [`keygen_clocks`]). In verification each word of the
//! signature takes one clock when the source keeps up, and the climbs'
//! counts follow the WOTS+ digits of each layer's message, which are public
//! in verification ([`verify_clocks`]).

use super::digest_indices::DigestIndices;
use super::layer_address::LayerAddress;
use super::wots_leaf::{
    fors_leaf_from_sk_clocks, fors_prefix_clocks, fors_roots_clocks, pk_from_sig_clocks, wots_len,
    ENDS_ADDRESS_BITS, MAX_FORS_TREES,
};
use super::xmss_tree::{
    climb_clocks, fors_sign_tree_clocks, sign_tree_clocks, tree_clocks, XmssTreeEngine,
    MAX_FORS_HEIGHT, MAX_TREE_HEIGHT,
};
use crate::keccak::select::SpongePort;
use rust_hdl::prelude::*;

/// Largest number of hypertree layers d of FIPS 205 (the 128f and 192f
/// sets).
pub const MAX_LAYERS: u64 = 22;

/// `operation`: verify the signature on the input stream.
pub const OP_VERIFY: u64 = 0;
/// `operation`: sign (SIG_FORS ‖ SIG_HT out).
pub const OP_SIGN: u64 = 1;
/// `operation`: the top tree's root (PK.root).
pub const OP_KEYGEN: u64 = 2;

/// Clocks of one key generation with the output stream always ready, from
/// the `start` clock to the first clock with `done` high: the start, the 4
/// address words, the tree job's start and its [`tree_clocks`], and the
/// root out (asserted by the tests).
pub const fn keygen_clocks(n: usize, height: u32) -> u64 {
    6 + tree_clocks(n, height) + n as u64 / 4
}

/// Clocks of one signing job with the output stream always ready, from the
/// `start` clock to the first clock with `done` high: the start and the 5
/// words of the FORS address; per FORS tree, its index's a bits (those of
/// the first tree partly under the address writes), the tree job's start
/// and its [`fors_sign_tree_clocks`], and once the FORS prefix
/// ([`fors_prefix_clocks`]) in the first tree's first leaf; T_k of the roots ([`fors_roots_clocks`])
/// and 3 clocks to start it in this job and the tree job and to see its
/// `done`; per layer 4 address and n/4 message writes, the tree job's start
/// and its [`sign_tree_clocks`]; the root out (asserted by the tests).
pub const fn sign_clocks(n: usize, a: u32, k: usize, height: u32, layers: u64) -> u64 {
    let words = n as u64 / 4;
    let first_index = if a > 6 { a as u64 - 5 } else { 1 };
    6 + first_index
        + (k as u64 - 1) * a as u64
        + k as u64 * (1 + fors_sign_tree_clocks(n, a))
        + fors_prefix_clocks(n)
        + 3
        + fors_roots_clocks(n, k)
        + layers * (4 + words + 1 + sign_tree_clocks(n, height))
        + words
}

/// Clocks of one verification job with the input stream always valid and
/// the output always ready, from the `start` clock to the first clock with
/// `done` high: the start and the 5 words of the FORS address; per FORS
/// tree, (1 + a)·n/4 input words (its index bits are taken meanwhile), the
/// climb's
/// [`climb_clocks`] and the clock after its `done`; T_k of the roots
/// ([`fors_roots_clocks`]) and 3 clocks to start it in this job and the
/// tree job and to see its `done`; per layer 4 address and n/4
/// message writes, (len + h′)·n/4 input words, the climb's start and its
/// [`climb_clocks`] for the layer's digits (`digits[j]`, public); the root
/// out (asserted by the tests).
pub fn verify_clocks(n: usize, a: u32, k: usize, height: u32, digits: &[Vec<u32>]) -> u64 {
    let words = n as u64 / 4;
    let fors_tree = (1 + a as u64) * words + 1 + climb_clocks(n, a, fors_leaf_from_sk_clocks(n));
    let layers: u64 = digits
        .iter()
        .map(|d| {
            4 + words
                + (wots_len(n) as u64 + height as u64) * words
                + 1
                + climb_clocks(n, height, pk_from_sig_clocks(n, d))
        })
        .sum();
    6 + k as u64 * fors_tree + 3 + fors_roots_clocks(n, k) + layers + words
}

/// Phases of the job.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum EnginePhase {
    /// Waiting for `start`.
    Idle,
    /// Taking a FORS tree's secret value from the stream.
    ForsSk,
    /// Taking AUTH from the stream: a FORS tree's (while `fors_stage`) or
    /// the layer's.
    Auth,
    /// Signing: shifting the next index out of md.
    Index,
    /// Starting the FORS tree (signing) or climb (verification).
    StartFors,
    /// Waiting for the FORS climb (its root stays in the PL).
    Fors,
    /// Starting T_k of the roots.
    StartRoots,
    /// Keeping PK_FORS as the first layer's message.
    Roots,
    /// Writing the layer and tree address into the tree job.
    WriteAddress,
    /// Writing the layer's message (PK_FORS or the previous root).
    WriteMessage,
    /// Taking the layer's σ_WOTS from the stream.
    LayerSig,
    /// Starting the XMSS climb.
    StartLayer,
    /// Keeping the layer's root.
    Layer,
    /// Streaming the top root out.
    EmitRoot,
    /// Discarding input up to `in_last` after a too-long signature.
    Drain,
}

/// The SLH-DSA engine (key generation, signing, verification) on a sponge
/// engine with `R` rounds per clock.
#[derive(LogicBlock)]
pub struct SlhDsaEngine<const R: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Seed write (when idle): 0..7 PK.seed, 8..15 SK.seed.
    pub seed_write: Signal<In, Bit>,
    /// Which seed word.
    pub seed_index: Signal<In, Bits<4>>,
    /// The seed word.
    pub seed_word: Signal<In, Bits<32>>,
    /// Write `md_word` into md word `md_index` (when idle).
    pub md_write: Signal<In, Bit>,
    /// Which md word (0..9).
    pub md_index: Signal<In, Bits<4>>,
    /// The md word (little-endian bytes).
    pub md_word: Signal<In, Bits<32>>,
    /// Run `operation` (taken when idle).
    pub start: Signal<In, Bit>,
    /// [`OP_VERIFY`], [`OP_SIGN`] or [`OP_KEYGEN`], sampled at `start`.
    pub operation: Signal<In, Bits<2>>,
    /// n in bytes, sampled at `start`.
    pub n_bytes: Signal<In, Bits<6>>,
    /// Abandon the job (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// Output stream TREADY.
    pub out_ready: Signal<In, Bit>,
    /// a, sampled at `start`.
    pub fors_height: Signal<In, Bits<4>>,
    /// k, sampled at `start`.
    pub trees: Signal<In, Bits<6>>,
    /// h′, sampled at `start`.
    pub tree_height: Signal<In, Bits<4>>,
    /// d, sampled at `start`.
    pub layers: Signal<In, Bits<5>>,
    /// idx_tree, sampled at `start`.
    pub idx_tree: Signal<In, Bits<64>>,
    /// idx_leaf, sampled at `start`.
    pub idx_leaf: Signal<In, Bits<10>>,
    /// Write `root_word` into PK.root word `root_index` (when idle).
    pub root_write: Signal<In, Bit>,
    /// Which PK.root word.
    pub root_index: Signal<In, Bits<3>>,
    /// The PK.root word.
    pub root_word: Signal<In, Bits<32>>,
    /// Signature stream TDATA.
    pub in_data: Signal<In, Bits<32>>,
    /// Signature stream TVALID.
    pub in_valid: Signal<In, Bit>,
    /// Signature stream TLAST.
    pub in_last: Signal<In, Bit>,
    /// A job is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last job finished (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last job was refused, aborted or given a signature of the
    /// wrong length (cleared by the next start).
    pub error: Signal<Out, Bit>,
    /// Output stream TDATA: SIG_FORS ‖ SIG_HT when signing, then the root.
    pub out_data: Signal<Out, Bits<32>>,
    /// Output stream TVALID.
    pub out_valid: Signal<Out, Bit>,
    /// Output stream TLAST (on the root's final word).
    pub out_last: Signal<Out, Bit>,
    /// The last job's top root equals PK.root (with `done`, without
    /// `error`): the verification result, or after signing its check.
    pub verdict: Signal<Out, Bit>,
    /// Signature stream TREADY.
    pub in_ready: Signal<Out, Bit>,
    /// The output word is a word of the top root (the stream's end).
    pub out_root: Signal<Out, Bit>,
    /// The sponge of its leaf job (see
    /// [`super::WotsLeafEngine::sponge_port`]).
    pub sponge_port: SpongePort,
    tree: XmssTreeEngine<R>,
    position: LayerAddress,
    indices: DigestIndices,
    root: [DFF<Bits<32>>; 8],
    pk_root: [DFF<Bits<32>>; 8],
    /// Word i of the root equals word i of PK.root, a clock after both
    /// (the roots are written before `EmitRoot`): the verdict reads a bit
    /// instead of comparing two muxed words.
    root_equal: [DFF<Bit>; 8],
    phase: DFF<EnginePhase>,
    n_reg: DFF<Bits<6>>,
    word_last: DFF<Bits<4>>,
    sig_last: DFF<Bits<ENDS_ADDRESS_BITS>>,
    fors_height_reg: DFF<Bits<4>>,
    height: DFF<Bits<4>>,
    last_tree: DFF<Bits<6>>,
    tree_number: DFF<Bits<6>>,
    z: DFF<Bits<4>>,
    word: DFF<Bits<ENDS_ADDRESS_BITS>>,
    step: DFF<Bits<4>>,
    last_layer: DFF<Bits<5>>,
    mismatch: DFF<Bit>,
    fors_auth_last: DFF<Bits<4>>,
    auth_last: DFF<Bits<4>>,
    fors_stage: DFF<Bit>,
    signing: DFF<Bit>,
    keying: DFF<Bit>,
    root_taken: DFF<Bit>,
    verdict_flag: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    in_fire: Signal<Local, Bit>,
    final_word: Signal<Local, Bit>,
    root_out: Signal<Local, Bits<32>>,
    word_equal: Signal<Local, Bit>,
    tree_fire: Signal<Local, Bit>,
    passing: Signal<Local, Bit>,
    op_sign: Constant<Bits<2>>,
    op_keygen: Constant<Bits<2>>,
    op_invalid: Constant<Bits<2>>,
    max_trees: Constant<Bits<6>>,
    max_fors_height: Constant<Bits<4>>,
    max_tree_height: Constant<Bits<4>>,
    max_layers: Constant<Bits<5>>,
}

impl<const R: usize> Default for SlhDsaEngine<R> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            seed_write: Default::default(),
            seed_index: Default::default(),
            seed_word: Default::default(),
            md_write: Default::default(),
            md_index: Default::default(),
            md_word: Default::default(),
            start: Default::default(),
            operation: Default::default(),
            n_bytes: Default::default(),
            abort_job: Default::default(),
            out_ready: Default::default(),
            fors_height: Default::default(),
            trees: Default::default(),
            tree_height: Default::default(),
            layers: Default::default(),
            idx_tree: Default::default(),
            idx_leaf: Default::default(),
            root_write: Default::default(),
            root_index: Default::default(),
            root_word: Default::default(),
            in_data: Default::default(),
            in_valid: Default::default(),
            in_last: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            verdict: Default::default(),
            in_ready: Default::default(),
            out_root: Default::default(),
            sponge_port: Default::default(),
            tree: Default::default(),
            position: Default::default(),
            indices: Default::default(),
            root: Default::default(),
            pk_root: Default::default(),
            root_equal: Default::default(),
            phase: Default::default(),
            n_reg: Default::default(),
            word_last: Default::default(),
            sig_last: Default::default(),
            fors_height_reg: Default::default(),
            height: Default::default(),
            last_tree: Default::default(),
            tree_number: Default::default(),
            z: Default::default(),
            word: Default::default(),
            step: Default::default(),
            last_layer: Default::default(),
            mismatch: Default::default(),
            fors_auth_last: Default::default(),
            auth_last: Default::default(),
            fors_stage: Default::default(),
            signing: Default::default(),
            keying: Default::default(),
            root_taken: Default::default(),
            verdict_flag: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            in_fire: Default::default(),
            final_word: Default::default(),
            root_out: Default::default(),
            word_equal: Default::default(),
            tree_fire: Default::default(),
            passing: Default::default(),
            op_sign: Constant::new(OP_SIGN.into()),
            op_keygen: Constant::new(OP_KEYGEN.into()),
            op_invalid: Constant::new(3.into()),
            max_trees: Constant::new((MAX_FORS_TREES as u64).into()),
            max_fors_height: Constant::new((MAX_FORS_HEIGHT as u64).into()),
            max_tree_height: Constant::new((MAX_TREE_HEIGHT as u64).into()),
            max_layers: Constant::new(MAX_LAYERS.into()),
        }
    }
}

impl<const R: usize> SlhDsaEngine<R> {
    /// A job whose leaf job hashes on the engine behind its
    /// `sponge_port` (which must take the kept-prefix chain op).
    pub fn with_outside_sponge() -> Self {
        Self {
            tree: XmssTreeEngine::with_outside_sponge(),
            ..Self::default()
        }
    }
}

impl<const R: usize> Logic for SlhDsaEngine<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            n_reg,
            word_last,
            sig_last,
            fors_height_reg,
            height,
            last_tree,
            tree_number,
            z,
            word,
            step,
            last_layer,
            mismatch,
            fors_auth_last,
            auth_last,
            fors_stage,
            signing,
            keying,
            root_taken,
            verdict_flag,
            done_flag,
            error_flag
        );
        clock!(self, clock, indices);
        // Each tree's index is shifted out of md while its secret value
        // and AUTH come in (at least 4·(1 + a) clocks, more than a).
        self.indices.write.next = self.md_write.val() & (self.phase.q.val() == EnginePhase::Idle);
        self.indices.word_index.next = self.md_index.val();
        self.indices.word.next = self.md_word.val();
        self.indices.start.next = false;
        self.indices.bits.next = self.fors_height_reg.q.val();
        for i in 0..8 {
            self.root[i].clock.next = self.clock.val();
            self.root[i].d.next = self.root[i].q.val();
            self.pk_root[i].clock.next = self.clock.val();
            self.pk_root[i].d.next = self.pk_root[i].q.val();
            self.root_equal[i].clock.next = self.clock.val();
            self.root_equal[i].d.next = self.root[i].q.val() == self.pk_root[i].q.val();
        }
        clock!(self, clock, tree, position);
        SpongePort::link(&mut self.sponge_port, &mut self.tree.sponge_port);
        self.position.load.next = false;
        self.position.advance.next = false;
        self.position.idx_tree.next = self.idx_tree.val();
        self.position.idx_leaf.next = self.idx_leaf.val();
        self.position.height.next = self.height.q.val();

        // The tree job: PK.seed while idle; the rest from the phases.
        self.tree.reset.next = self.reset.val();
        self.tree.seed_write.next =
            self.seed_write.val() & (self.phase.q.val() == EnginePhase::Idle);
        self.tree.seed_index.next = self.seed_index.val();
        self.tree.seed_word.next = self.seed_word.val();
        self.tree.adrs_write.next = false;
        self.tree.adrs_index.next = self.step.q.val().get_bits::<3>(0);
        self.tree.msg_write.next = false;
        self.tree.msg_index.next = self.step.q.val().get_bits::<3>(0);
        self.tree.start.next = false;
        self.tree.n_bytes.next = self.n_reg.q.val();
        self.tree.tree_height.next = self.height.q.val();
        self.tree.leaf_index.next = bit_cast::<14, 10>(self.position.leaf.val());
        self.tree.sign.next = self.signing.q.val();
        self.tree.climb.next = !self.signing.q.val() & !self.keying.q.val();
        self.tree.fors.next = false;
        self.tree.fors_tree.next = self.tree_number.q.val();
        self.tree.start_roots.next = false;
        self.tree.fors_trees.next = self.last_tree.q.val() + 1;
        self.tree.abort_job.next = false;
        self.tree.auth_write.next = false;
        self.tree.auth_index.next = (bit_cast::<7, 4>(self.z.q.val()) << 3)
            | bit_cast::<7, 3>(self.word.q.val().get_bits::<3>(0));
        self.tree.auth_word.next = self.in_data.val();
        self.tree.sig_write.next = false;
        self.tree.sig_index.next = self.word.q.val();
        self.tree.sig_word.next = self.in_data.val();
        self.tree.node_write.next = false;
        self.tree.node_index.next = self.word.q.val().get_bits::<4>(0);
        self.tree.node_word.next = self.in_data.val();
        // Signing passes the tree job's output on but keeps its roots.
        // The flag that takes root words without the sink is registered
        // (with the tree job's `out_ready` computed from its own
        // `out_root`, the Verilated RTL (5.006) took a word the sink had
        // not), so with a stalling sink the first root word may wait a
        // clock. Otherwise the output (roots, and AUTH in key generation)
        // is always taken.
        self.passing.next = self.signing.q.val()
            & ((self.phase.q.val() == EnginePhase::Fors)
                | (self.phase.q.val() == EnginePhase::Layer));
        self.root_taken.d.next = self.tree.out_root.val();
        self.tree.out_ready.next =
            !self.passing.val() | self.out_ready.val() | self.root_taken.q.val();
        self.tree_fire.next = self.tree.out_valid.val() & self.tree.out_ready.val();

        self.position.step.next = self.step.q.val();
        self.root_out.next = self.root[0].q.val();
        self.word_equal.next = self.root_equal[0].q.val();
        for i in 1..8 {
            if self.step.q.val().index() == i {
                self.root_out.next = self.root[i].q.val();
                self.word_equal.next = self.root_equal[i].q.val();
            }
        }
        self.tree.adrs_word.next = self.position.address_word.val();
        self.tree.msg_word.next = self.root_out.val();

        // The signature stream.
        self.in_ready.next = (self.phase.q.val() == EnginePhase::ForsSk)
            | (self.phase.q.val() == EnginePhase::Auth)
            | (self.phase.q.val() == EnginePhase::LayerSig)
            | (self.phase.q.val() == EnginePhase::Drain);
        self.in_fire.next = self.in_ready.val() & self.in_valid.val();
        self.final_word.next = (self.phase.q.val() == EnginePhase::Auth)
            & !self.fors_stage.q.val()
            & (self.position.layer.val() == self.last_layer.q.val())
            & (self.z.q.val() == self.auth_last.q.val())
            & (self.word.q.val() == bit_cast::<ENDS_ADDRESS_BITS, 4>(self.word_last.q.val()));

        self.out_data.next = self.root_out.val();
        self.out_valid.next = self.phase.q.val() == EnginePhase::EmitRoot;
        self.out_root.next = self.phase.q.val() == EnginePhase::EmitRoot;
        if self.passing.val() {
            self.out_data.next = self.tree.out_data.val();
            self.out_valid.next = self.tree.out_valid.val() & !self.tree.out_root.val();
        }
        self.out_last.next = (self.phase.q.val() == EnginePhase::EmitRoot)
            & (self.step.q.val() == self.word_last.q.val());

        match self.phase.q.val() {
            EnginePhase::Idle => {
                if self.root_write.val() {
                    for i in 0..8 {
                        if self.root_index.val().index() == i {
                            self.pk_root[i].d.next = self.root_word.val();
                        }
                    }
                }
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.verdict_flag.d.next = false;
                    self.mismatch.d.next = false;
                    self.signing.d.next = self.operation.val() == self.op_sign.val();
                    self.keying.d.next = self.operation.val() == self.op_keygen.val();
                    self.n_reg.d.next = self.n_bytes.val();
                    self.fors_height_reg.d.next = self.fors_height.val();
                    self.height.d.next = self.tree_height.val();
                    self.last_tree.d.next = self.trees.val() - 1;
                    self.last_layer.d.next = self.layers.val() - 1;
                    self.tree_number.d.next = 0.into();
                    self.position.load.next = true;
                    self.word.d.next = 0.into();
                    self.z.d.next = 0.into();
                    self.step.d.next = 0.into();
                    self.indices.start.next = true;
                    self.indices.bits.next = self.fors_height.val();
                    self.fors_stage.d.next = true;
                    // Key generation: the one tree of the top layer, tree 0,
                    // and its root (FIPS 205 Algorithm 18).
                    if self.operation.val() == self.op_keygen.val() {
                        self.position.idx_tree.next = 0.into();
                        self.position.idx_leaf.next = 0.into();
                        self.fors_stage.d.next = false;
                    }
                    // The last AUTH node's index, so that no adder sits on
                    // the stream's path (with `z + 1 == h′` there, yosys
                    // 0.23's abc9 aborted on slh_verify: "boxes are not in
                    // a topological order").
                    self.fors_auth_last.d.next = self.fors_height.val() - 1;
                    self.auth_last.d.next = self.tree_height.val() - 1;
                    self.phase.d.next = EnginePhase::WriteAddress;
                    // Per n: n/4 − 1 and len·n/4 − 1.
                    if self.n_bytes.val() == 16 {
                        self.word_last.d.next = 3.into();
                        self.sig_last.d.next = 139.into();
                    } else if self.n_bytes.val() == 24 {
                        self.word_last.d.next = 5.into();
                        self.sig_last.d.next = 305.into();
                    } else if self.n_bytes.val() == 32 {
                        self.word_last.d.next = 7.into();
                        self.sig_last.d.next = 535.into();
                    } else {
                        self.phase.d.next = EnginePhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                    if (self.fors_height.val() == 0)
                        | (self.fors_height.val() > self.max_fors_height.val())
                        | (self.trees.val() == 0)
                        | (self.trees.val() > self.max_trees.val())
                        | (self.tree_height.val() == 0)
                        | (self.tree_height.val() > self.max_tree_height.val())
                        | (self.layers.val() == 0)
                        | (self.layers.val() > self.max_layers.val())
                        | (self.operation.val() == self.op_invalid.val())
                    {
                        self.phase.d.next = EnginePhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                }
            }
            EnginePhase::ForsSk => {
                if self.in_fire.val() {
                    self.tree.node_write.next = true;
                    self.word.d.next = self.word.q.val() + 1;
                    if self.word.q.val() == bit_cast::<ENDS_ADDRESS_BITS, 4>(self.word_last.q.val())
                    {
                        self.word.d.next = 0.into();
                        self.z.d.next = 0.into();
                        self.phase.d.next = EnginePhase::Auth;
                    }
                }
            }
            EnginePhase::Auth => {
                if self.in_fire.val() {
                    self.tree.auth_write.next = true;
                    self.word.d.next = self.word.q.val() + 1;
                    if self.word.q.val() == bit_cast::<ENDS_ADDRESS_BITS, 4>(self.word_last.q.val())
                    {
                        self.word.d.next = 0.into();
                        self.z.d.next = self.z.q.val() + 1;
                        if self.fors_stage.q.val() & (self.z.q.val() == self.fors_auth_last.q.val())
                        {
                            self.phase.d.next = EnginePhase::StartFors;
                        }
                        if !self.fors_stage.q.val() & (self.z.q.val() == self.auth_last.q.val()) {
                            self.phase.d.next = EnginePhase::StartLayer;
                        }
                    }
                    // The final word of the signature must carry TLAST.
                    if self.final_word.val() & !self.in_last.val() {
                        self.phase.d.next = EnginePhase::Drain;
                    }
                }
            }
            EnginePhase::StartFors => {
                self.tree.start.next = true;
                self.tree.fors.next = true;
                self.tree.tree_height.next = self.fors_height_reg.q.val();
                self.tree.leaf_index.next = self.indices.index.val();
                self.phase.d.next = EnginePhase::Fors;
            }
            EnginePhase::Fors => {
                if self.tree.done.val() {
                    self.indices.start.next = true;
                    self.tree_number.d.next = self.tree_number.q.val() + 1;
                    self.phase.d.next = EnginePhase::ForsSk;
                    if self.signing.q.val() {
                        self.phase.d.next = EnginePhase::Index;
                    }
                    if self.tree_number.q.val() == self.last_tree.q.val() {
                        self.phase.d.next = EnginePhase::StartRoots;
                    }
                    if self.tree.error.val() {
                        self.phase.d.next = EnginePhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                }
            }
            EnginePhase::StartRoots => {
                self.tree.start_roots.next = true;
                self.fors_stage.d.next = false;
                self.step.d.next = 0.into();
                self.phase.d.next = EnginePhase::Roots;
            }
            EnginePhase::Roots => {}
            EnginePhase::Layer => {}
            EnginePhase::WriteAddress => {
                // The FORS address also has the key pair idx_leaf (word 5).
                self.tree.adrs_write.next = true;
                self.step.d.next = self.step.q.val() + 1;
                if self.keying.q.val() & (self.step.q.val() == 0) {
                    self.tree.adrs_word.next = bit_cast::<32, 5>(self.last_layer.q.val()) << 24;
                }
                if self.step.q.val() == 3 {
                    self.step.d.next = 0.into();
                    self.phase.d.next = EnginePhase::WriteMessage;
                    if self.keying.q.val() {
                        self.phase.d.next = EnginePhase::StartLayer;
                    }
                    if self.fors_stage.q.val() {
                        self.step.d.next = 4.into();
                        self.phase.d.next = EnginePhase::WriteAddress;
                    }
                }
                if self.step.q.val() == 4 {
                    self.tree.adrs_index.next = 5.into();
                    self.tree.adrs_word.next =
                        (bit_cast::<32, 8>(self.position.leaf.val().get_bits::<8>(0)) << 24)
                            | (bit_cast::<32, 2>(self.position.leaf.val().get_bits::<2>(8)) << 16);
                    self.step.d.next = 0.into();
                    self.phase.d.next = EnginePhase::ForsSk;
                    if self.signing.q.val() {
                        self.phase.d.next = EnginePhase::Index;
                    }
                }
            }
            EnginePhase::Index => {
                // Signing: the tree's index (a bits of md) before its start.
                if self.indices.last_bit.val() | self.indices.complete.val() {
                    self.phase.d.next = EnginePhase::StartFors;
                }
            }
            EnginePhase::WriteMessage => {
                self.tree.msg_write.next = true;
                self.step.d.next = self.step.q.val() + 1;
                if self.step.q.val() == self.word_last.q.val() {
                    self.step.d.next = 0.into();
                    self.word.d.next = 0.into();
                    self.phase.d.next = EnginePhase::LayerSig;
                    if self.signing.q.val() {
                        self.phase.d.next = EnginePhase::StartLayer;
                    }
                }
            }
            EnginePhase::LayerSig => {
                if self.in_fire.val() {
                    self.tree.sig_write.next = true;
                    self.word.d.next = self.word.q.val() + 1;
                    if self.word.q.val() == self.sig_last.q.val() {
                        self.word.d.next = 0.into();
                        self.z.d.next = 0.into();
                        self.phase.d.next = EnginePhase::Auth;
                    }
                }
            }
            EnginePhase::StartLayer => {
                self.tree.start.next = true;
                self.step.d.next = 0.into();
                self.phase.d.next = EnginePhase::Layer;
            }
            EnginePhase::EmitRoot => {
                if self.out_ready.val() {
                    self.step.d.next = self.step.q.val() + 1;
                    if !self.word_equal.val() {
                        self.mismatch.d.next = true;
                    }
                    if self.step.q.val() == self.word_last.q.val() {
                        self.phase.d.next = EnginePhase::Idle;
                        self.done_flag.d.next = true;
                        self.verdict_flag.d.next = !self.mismatch.q.val() & self.word_equal.val();
                    }
                }
            }
            EnginePhase::Drain => {
                if self.in_fire.val() & self.in_last.val() {
                    self.phase.d.next = EnginePhase::Idle;
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = true;
                }
            }
            _ => {
                self.phase.d.next = EnginePhase::Idle;
            }
        }
        // A root from the tree job: PK_FORS (the first layer's message) or
        // a layer's root, kept for the next layer or the output.
        if (self.phase.q.val() == EnginePhase::Roots) | (self.phase.q.val() == EnginePhase::Layer) {
            if self.tree_fire.val()
                & (self.tree.out_root.val()
                    | (self.phase.q.val() == EnginePhase::Roots)
                    | self.tree.climb.val())
            {
                for i in 0..8 {
                    if self.step.q.val().index() == i {
                        self.root[i].d.next = self.tree.out_data.val();
                    }
                }
                self.step.d.next = self.step.q.val() + 1;
            }
            if self.tree.done.val() {
                self.step.d.next = 0.into();
                self.phase.d.next = EnginePhase::WriteAddress;
                if self.phase.q.val() == EnginePhase::Layer {
                    self.position.advance.next = true;
                    if (self.position.layer.val() == self.last_layer.q.val()) | self.keying.q.val()
                    {
                        self.phase.d.next = EnginePhase::EmitRoot;
                    }
                }
                if self.tree.error.val() {
                    self.phase.d.next = EnginePhase::Idle;
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = true;
                }
            }
        }
        // An early TLAST: the signature is truncated.
        if self.in_fire.val()
            & self.in_last.val()
            & !self.final_word.val()
            & (self.phase.q.val() != EnginePhase::Drain)
        {
            self.phase.d.next = EnginePhase::Idle;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
        }
        if self.abort_job.val() {
            self.tree.abort_job.next = true;
            self.phase.d.next = EnginePhase::Idle;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
        }
        if self.reset.val() {
            self.phase.d.next = EnginePhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
            self.verdict_flag.d.next = false;
        }
        self.busy.next = self.phase.q.val() != EnginePhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
        self.verdict.next = self.verdict_flag.q.val();
    }
}
