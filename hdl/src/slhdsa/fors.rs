//! The FORS signature job of the SLH-DSA-SHAKE sets (FIPS 205 Algorithms
//! 14–16, fors_sign, with the FORS public key of Algorithm 15 on the way)
//! on one [`XmssTreeEngine`] in its FORS mode, with no bus in between.
//!
//! For tree i = 0 … k − 1 the job takes index_i, the next a bits of the
//! message digest md (FIPS 205 Algorithm 4, base_2b, most significant bit
//! first), one bit per clock, and runs the tree job on FORS tree i for leaf
//! index_i with `sign`: the secret value and AUTH go to the output as they
//! come, the root goes to its slot of the leaf engine's memory. Then the
//! tree job compresses the k roots (T_k with a FORS_ROOTS address) into
//! PK_FORS, which comes last.
//!
//! # Interface
//!
//! - Seeds, written while idle, as for the leaf job (`seed_*`).
//! - The address, written while idle (`adrs_*`): words 0..3 (layer 0, tree
//!   idx_tree) and 5 (key pair idx_leaf) of the FORS address; the job sets
//!   the type, the height and the index itself.
//! - md, written while idle (`md_write`, `md_index`, `md_word`): the
//!   ⌈k·a/8⌉ ≤ 40 bytes as little-endian words 0..9.
//! - `start` (taken when idle) samples `n_bytes` = n, `tree_height` = a and
//!   `trees` = k. k ∉ 1..=35 is refused at once with `done` and `error`; an
//!   n or a the tree job refuses ends the job with `done` and `error`.
//! - Output stream: SIG_FORS (k × (1 + a) n-byte values: each tree's
//!   secret value and AUTH) ‖ PK_FORS, n/4-word little-endian values, the
//!   PK_FORS words flagged `out_pk`, `out_last` on its final word.
//! - `abort_job` (taken in any state) aborts the tree job and returns to
//!   idle at once with `done` and `error`; `reset` (synchronous, active
//!   high) returns to idle with `done`/`error` low.
//!
//! # Clock count
//!
//! The tree jobs' counts depend only on n and a, and the job's own steps
//! are fixed: [`fors_clocks`] depends on n, a and k only, not on md
//! (asserted by the tests).

use super::digest_indices::DigestIndices;
use super::wots_leaf::{fors_roots_clocks, MAX_FORS_TREES};
use super::xmss_tree::{fors_tree_clocks, XmssTreeEngine};
use rust_hdl::prelude::*;

/// Clocks of one FORS job with the output stream always ready, from the
/// `start` clock to the first clock with `done` high: per tree, a clocks
/// of index bits, the tree job's start and its count
/// ([`fors_tree_clocks`]); then T_k of the roots ([`fors_roots_clocks`])
/// and 3 clocks to start it in this job and in the tree job and to pass
/// its `done` on.
pub const fn fors_clocks(n: usize, a: u32, k: usize) -> u64 {
    1 + k as u64 * (a as u64 + 1 + fors_tree_clocks(n, a)) + 3 + fors_roots_clocks(n, k)
}

/// Phases of the job.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum ForsPhase {
    /// Waiting for `start`.
    Idle,
    /// Shifting the next index's a bits out of md.
    Index,
    /// Starting the tree job on the next tree.
    StartTree,
    /// Passing the secret value and AUTH on (the root stays in the PL).
    Tree,
    /// Starting the compression of the roots.
    StartRoots,
    /// Passing PK_FORS on.
    Roots,
}

/// The FORS signature job on a sponge engine with `R` rounds per clock.
#[derive(LogicBlock)]
pub struct ForsEngine<const R: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Seed write (when idle), as for the leaf job.
    pub seed_write: Signal<In, Bit>,
    /// 0..7: PK.seed words; 8..15: SK.seed words.
    pub seed_index: Signal<In, Bits<4>>,
    /// The seed word.
    pub seed_word: Signal<In, Bits<32>>,
    /// Address write (when idle): words 0..3 and 5 are used.
    pub adrs_write: Signal<In, Bit>,
    /// Which address word.
    pub adrs_index: Signal<In, Bits<3>>,
    /// The address word (little-endian bytes of the big-endian fields).
    pub adrs_word: Signal<In, Bits<32>>,
    /// Compute the FORS signature (taken when idle).
    pub start: Signal<In, Bit>,
    /// n in bytes, sampled at `start`.
    pub n_bytes: Signal<In, Bits<6>>,
    /// Abandon the job (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// Output stream TREADY.
    pub out_ready: Signal<In, Bit>,
    /// a, sampled at `start`.
    pub tree_height: Signal<In, Bits<4>>,
    /// k, sampled at `start`.
    pub trees: Signal<In, Bits<6>>,
    /// Write `md_word` into md word `md_index` (when idle).
    pub md_write: Signal<In, Bit>,
    /// Which md word (0..9).
    pub md_index: Signal<In, Bits<4>>,
    /// The md word (little-endian bytes).
    pub md_word: Signal<In, Bits<32>>,
    /// A job is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last job finished (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last job was refused or aborted (cleared by the next start).
    pub error: Signal<Out, Bit>,
    /// SIG_FORS ‖ PK_FORS stream TDATA.
    pub out_data: Signal<Out, Bits<32>>,
    /// SIG_FORS ‖ PK_FORS stream TVALID.
    pub out_valid: Signal<Out, Bit>,
    /// SIG_FORS ‖ PK_FORS stream TLAST.
    pub out_last: Signal<Out, Bit>,
    /// The stream word is a word of PK_FORS.
    pub out_pk: Signal<Out, Bit>,
    tree: XmssTreeEngine<R>,
    indices: DigestIndices,
    phase: DFF<ForsPhase>,
    n_reg: DFF<Bits<6>>,
    height: DFF<Bits<4>>,
    last_tree: DFF<Bits<6>>,
    tree_number: DFF<Bits<6>>,
    root_taken: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    max_trees: Constant<Bits<6>>,
}

impl<const R: usize> Default for ForsEngine<R> {
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
            abort_job: Default::default(),
            out_ready: Default::default(),
            tree_height: Default::default(),
            trees: Default::default(),
            md_write: Default::default(),
            md_index: Default::default(),
            md_word: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            out_pk: Default::default(),
            tree: Default::default(),
            indices: Default::default(),
            phase: Default::default(),
            n_reg: Default::default(),
            height: Default::default(),
            last_tree: Default::default(),
            tree_number: Default::default(),
            root_taken: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            max_trees: Constant::new((MAX_FORS_TREES as u64).into()),
        }
    }
}

impl<const R: usize> Logic for ForsEngine<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            n_reg,
            height,
            last_tree,
            tree_number,
            root_taken,
            done_flag,
            error_flag
        );
        clock!(self, clock, tree, indices);
        self.indices.write.next = self.md_write.val() & (self.phase.q.val() == ForsPhase::Idle);
        self.indices.word_index.next = self.md_index.val();
        self.indices.word.next = self.md_word.val();
        self.indices.start.next = false;
        self.indices.bits.next = self.height.q.val();

        // Seeds and address go straight to the tree job while idle.
        self.tree.reset.next = self.reset.val();
        self.tree.seed_write.next = self.seed_write.val() & (self.phase.q.val() == ForsPhase::Idle);
        self.tree.seed_index.next = self.seed_index.val();
        self.tree.seed_word.next = self.seed_word.val();
        self.tree.adrs_write.next = self.adrs_write.val() & (self.phase.q.val() == ForsPhase::Idle);
        self.tree.adrs_index.next = self.adrs_index.val();
        self.tree.adrs_word.next = self.adrs_word.val();
        self.tree.msg_write.next = false;
        self.tree.msg_index.next = 0.into();
        self.tree.msg_word.next = 0.into();
        self.tree.start.next = false;
        self.tree.sign.next = true;
        self.tree.fors.next = true;
        self.tree.fors_tree.next = self.tree_number.q.val();
        self.tree.n_bytes.next = self.n_reg.q.val();
        self.tree.tree_height.next = self.height.q.val();
        self.tree.leaf_index.next = self.indices.index.val();
        self.tree.start_roots.next = false;
        self.tree.fors_trees.next = self.last_tree.q.val() + 1;
        self.tree.abort_job.next = false;
        self.tree.climb.next = false;
        self.tree.auth_write.next = false;
        self.tree.auth_index.next = 0.into();
        self.tree.auth_word.next = 0.into();
        self.tree.sig_write.next = false;
        self.tree.sig_index.next = 0.into();
        self.tree.sig_word.next = 0.into();
        self.tree.node_write.next = false;
        self.tree.node_index.next = 0.into();
        self.tree.node_word.next = 0.into();

        // The tree job's output: the secret value and AUTH on, the root
        // (already in the leaf engine's memory) dropped; then PK_FORS. The
        // root flag that takes root words without the sink is registered:
        // with the tree job's `out_ready` computed from its own `out_root`,
        // the Verilated RTL (5.006) took a word the sink did not take,
        // unlike the rust-hdl model. With a stalling sink the first root
        // word may so wait one clock.
        self.root_taken.d.next = self.tree.out_root.val();
        self.tree.out_ready.next = false;
        if self.phase.q.val() == ForsPhase::Tree {
            self.tree.out_ready.next = self.out_ready.val() | self.root_taken.q.val();
        }
        if self.phase.q.val() == ForsPhase::Roots {
            self.tree.out_ready.next = self.out_ready.val();
        }
        self.out_data.next = self.tree.out_data.val();
        self.out_valid.next = ((self.phase.q.val() == ForsPhase::Tree) & !self.tree.out_root.val())
            | (self.phase.q.val() == ForsPhase::Roots);
        self.out_valid.next = self.out_valid.val() & self.tree.out_valid.val();
        self.out_pk.next = self.phase.q.val() == ForsPhase::Roots;
        self.out_last.next = self.out_pk.val() & self.tree.out_last.val();

        match self.phase.q.val() {
            ForsPhase::Idle => {
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.n_reg.d.next = self.n_bytes.val();
                    self.height.d.next = self.tree_height.val();
                    self.last_tree.d.next = self.trees.val() - 1;
                    self.tree_number.d.next = 0.into();
                    self.indices.start.next = true;
                    self.indices.bits.next = self.tree_height.val();
                    self.phase.d.next = ForsPhase::Index;
                    if (self.trees.val() == 0) | (self.trees.val() > self.max_trees.val()) {
                        self.phase.d.next = ForsPhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                }
            }
            ForsPhase::Index => {
                // The index's a bits (a = 0: none; the tree job refuses it).
                if self.indices.last_bit.val() | self.indices.complete.val() {
                    self.phase.d.next = ForsPhase::StartTree;
                }
            }
            ForsPhase::StartTree => {
                self.tree.start.next = true;
                self.phase.d.next = ForsPhase::Tree;
            }
            ForsPhase::Tree => {
                if self.tree.done.val() {
                    self.indices.start.next = true;
                    self.tree_number.d.next = self.tree_number.q.val() + 1;
                    self.phase.d.next = ForsPhase::Index;
                    if self.tree_number.q.val() == self.last_tree.q.val() {
                        self.phase.d.next = ForsPhase::StartRoots;
                    }
                    // A tree job that refused its request (n or a out of
                    // range) or failed ends the job.
                    if self.tree.error.val() {
                        self.phase.d.next = ForsPhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                }
            }
            ForsPhase::StartRoots => {
                self.tree.start_roots.next = true;
                self.phase.d.next = ForsPhase::Roots;
            }
            ForsPhase::Roots => {
                if self.tree.done.val() {
                    self.phase.d.next = ForsPhase::Idle;
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = self.tree.error.val();
                }
            }
            _ => {
                self.phase.d.next = ForsPhase::Idle;
            }
        }
        if self.abort_job.val() {
            self.tree.abort_job.next = true;
            self.phase.d.next = ForsPhase::Idle;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
        }
        if self.reset.val() {
            self.phase.d.next = ForsPhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
        }
        self.busy.next = self.phase.q.val() != ForsPhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
    }
}
