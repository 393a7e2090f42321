//! The hypertree signature job of the SLH-DSA-SHAKE sets (FIPS 205
//! Algorithm 12, ht_sign) on one [`XmssTreeEngine`]: d xmss_sign jobs, the
//! root of each layer signed by the next, with no bus in between.
//!
//! For layer j = 0 … d − 1 the job writes the address (layer j, tree
//! idx_tree), the message (M for layer 0, the previous layer's root after
//! that), and runs the tree job with `sign` for leaf idx_leaf; its σ_WOTS ‖
//! AUTH goes to the output as it comes, its root is kept. Then idx_leaf =
//! idx_tree mod 2^h′ and idx_tree = idx_tree >> h′ for the next layer.
//!
//! # Interface
//!
//! - Seeds, written while idle, as for the leaf job (`seed_*`).
//! - The message M (the FORS public key in SLH-DSA), written while idle
//!   (`msg_write`, `msg_index`, `msg_word`: its n/4 little-endian words).
//! - `start` (taken when idle) samples `n_bytes` = n, `tree_height` = h′,
//!   `layers` = d, `idx_tree` and `idx_leaf`. n ∉ {16, 24, 32} or d ∉
//!   1..=22 is refused at once with `done` and `error`; an h′ or idx_leaf
//!   the tree job refuses ends the job with `done` and `error`.
//! - Output stream: SIG_HT (d × (len + h′) n-byte values) ‖ the top root,
//!   n/4-word little-endian values; `out_last` on the root's final word.
//!   The root lets the driver check the signature against PK.root.
//! - `abort_job` (taken in any state) aborts the tree job and returns to
//!   idle at once with `done` and `error`; `reset` (synchronous, active
//!   high) returns to idle with `done`/`error` low.
//!
//! # Clock count
//!
//! The tree jobs' counts depend only on n and h′, and the job's own steps
//! are fixed: [`hypertree_clocks`] depends on n, h′ and d only (asserted by
//! the tests).

use super::layer_address::LayerAddress;
use super::xmss_tree::{sign_tree_clocks, XmssTreeEngine};
use rust_hdl::prelude::*;

/// Largest number of hypertree layers d of FIPS 205 (the 128f and 192f
/// sets).
pub const MAX_LAYERS: u64 = 22;

/// Clocks of one hypertree job with the output stream always ready, from
/// the `start` clock to the first clock with `done` high: per layer, 4
/// address writes, the start of the tree job and its signing count
/// ([`sign_tree_clocks`]) less the clock its `done` would take; n/4 message
/// writes per layer after the first; the n/4 root words at the end.
pub const fn hypertree_clocks(n: usize, height: u32, layers: u64) -> u64 {
    let words = n as u64 / 4;
    1 + layers * (4 + sign_tree_clocks(n, height)) + (layers - 1) * words + words
}

/// Phases of the job.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum HypertreePhase {
    /// Waiting for `start`.
    Idle,
    /// Writing the layer and tree address into the tree job.
    WriteAddress,
    /// Writing the previous layer's root as the message to sign.
    WriteMessage,
    /// Starting the tree job.
    StartTree,
    /// Passing σ_WOTS ‖ AUTH on and keeping the root.
    Run,
    /// Streaming the top root out.
    EmitRoot,
}

/// The hypertree signature job on a sponge engine with `R` rounds per clock.
#[derive(LogicBlock)]
pub struct HypertreeEngine<const R: usize> {
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
    /// Write `msg_word` into word `msg_index` of M (when idle).
    pub msg_write: Signal<In, Bit>,
    /// Which message word.
    pub msg_index: Signal<In, Bits<3>>,
    /// The message word.
    pub msg_word: Signal<In, Bits<32>>,
    /// Compute the hypertree signature (taken when idle).
    pub start: Signal<In, Bit>,
    /// n in bytes, sampled at `start`.
    pub n_bytes: Signal<In, Bits<6>>,
    /// Abandon the job (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// Output stream TREADY.
    pub out_ready: Signal<In, Bit>,
    /// h′, sampled at `start`.
    pub tree_height: Signal<In, Bits<4>>,
    /// d, sampled at `start`.
    pub layers: Signal<In, Bits<5>>,
    /// idx_tree, sampled at `start`.
    pub idx_tree: Signal<In, Bits<64>>,
    /// idx_leaf, sampled at `start`.
    pub idx_leaf: Signal<In, Bits<10>>,
    /// A job is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last job finished (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last job was refused or aborted (cleared by the next start).
    pub error: Signal<Out, Bit>,
    /// SIG_HT ‖ root stream TDATA.
    pub out_data: Signal<Out, Bits<32>>,
    /// SIG_HT ‖ root stream TVALID.
    pub out_valid: Signal<Out, Bit>,
    /// SIG_HT ‖ root stream TLAST.
    pub out_last: Signal<Out, Bit>,
    tree: XmssTreeEngine<R>,
    position: LayerAddress,
    phase: DFF<HypertreePhase>,
    n_reg: DFF<Bits<6>>,
    height: DFF<Bits<4>>,
    last_layer: DFF<Bits<5>>,
    step: DFF<Bits<4>>,
    word_last: DFF<Bits<4>>,
    node_word: DFF<Bits<4>>,
    node_count: DFF<Bits<7>>,
    root_node: DFF<Bits<7>>,
    root: [DFF<Bits<32>>; 8],
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    root_word: Signal<Local, Bits<32>>,
    is_root_word: Signal<Local, Bit>,
    tree_fire: Signal<Local, Bit>,
    max_layers: Constant<Bits<5>>,
}

impl<const R: usize> Default for HypertreeEngine<R> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            seed_write: Default::default(),
            seed_index: Default::default(),
            seed_word: Default::default(),
            msg_write: Default::default(),
            msg_index: Default::default(),
            msg_word: Default::default(),
            start: Default::default(),
            n_bytes: Default::default(),
            abort_job: Default::default(),
            out_ready: Default::default(),
            tree_height: Default::default(),
            layers: Default::default(),
            idx_tree: Default::default(),
            idx_leaf: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            tree: Default::default(),
            position: Default::default(),
            phase: Default::default(),
            n_reg: Default::default(),
            height: Default::default(),
            last_layer: Default::default(),
            step: Default::default(),
            word_last: Default::default(),
            node_word: Default::default(),
            node_count: Default::default(),
            root_node: Default::default(),
            root: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            root_word: Default::default(),
            is_root_word: Default::default(),
            tree_fire: Default::default(),
            max_layers: Constant::new(MAX_LAYERS.into()),
        }
    }
}

impl<const R: usize> Logic for HypertreeEngine<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, phase, n_reg, height, last_layer, step, word_last, node_word, node_count,
            root_node, done_flag, error_flag
        );
        for i in 0..8 {
            self.root[i].clock.next = self.clock.val();
            self.root[i].d.next = self.root[i].q.val();
        }
        clock!(self, clock, tree, position);
        self.position.load.next = false;
        self.position.advance.next = false;
        self.position.idx_tree.next = self.idx_tree.val();
        self.position.idx_leaf.next = self.idx_leaf.val();
        self.position.height.next = self.height.q.val();

        // Seeds and M go straight to the tree job while idle.
        self.tree.reset.next = self.reset.val();
        self.tree.seed_write.next =
            self.seed_write.val() & (self.phase.q.val() == HypertreePhase::Idle);
        self.tree.seed_index.next = self.seed_index.val();
        self.tree.seed_word.next = self.seed_word.val();
        self.tree.msg_write.next =
            self.msg_write.val() & (self.phase.q.val() == HypertreePhase::Idle);
        self.tree.msg_index.next = self.msg_index.val();
        self.tree.msg_word.next = self.msg_word.val();
        self.tree.adrs_write.next = false;
        self.tree.adrs_index.next = self.step.q.val().get_bits::<3>(0);
        self.tree.start.next = false;
        self.tree.sign.next = true;
        self.tree.n_bytes.next = self.n_reg.q.val();
        self.tree.tree_height.next = self.height.q.val();
        self.tree.leaf_index.next = bit_cast::<14, 10>(self.position.leaf.val());
        self.tree.fors.next = false;
        self.tree.fors_tree.next = 0.into();
        self.tree.start_roots.next = false;
        self.tree.fors_trees.next = 0.into();
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

        self.position.step.next = self.step.q.val();
        self.tree.adrs_word.next = self.position.address_word.val();

        self.root_word.next = self.root[0].q.val();
        for i in 1..8 {
            if self.step.q.val().index() == i {
                self.root_word.next = self.root[i].q.val();
            }
        }

        // The tree job's output: σ_WOTS ‖ AUTH on, the root kept.
        self.is_root_word.next = self.node_count.q.val() == self.root_node.q.val();
        self.tree.out_ready.next = false;
        if self.phase.q.val() == HypertreePhase::Run {
            self.tree.out_ready.next = self.out_ready.val() | self.is_root_word.val();
        }
        self.tree_fire.next = self.tree.out_valid.val() & self.tree.out_ready.val();
        self.out_data.next = self.tree.out_data.val();
        self.out_valid.next = (self.phase.q.val() == HypertreePhase::Run)
            & self.tree.out_valid.val()
            & !self.is_root_word.val();
        self.out_last.next = false;
        if self.phase.q.val() == HypertreePhase::EmitRoot {
            self.out_data.next = self.root_word.val();
            self.out_valid.next = true;
            self.out_last.next = self.step.q.val() == self.word_last.q.val();
        }

        match self.phase.q.val() {
            HypertreePhase::Idle => {
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.n_reg.d.next = self.n_bytes.val();
                    self.height.d.next = self.tree_height.val();
                    self.last_layer.d.next = self.layers.val() - 1;
                    self.position.load.next = true;
                    self.step.d.next = 0.into();
                    self.phase.d.next = HypertreePhase::WriteAddress;
                    // The root is value number len + h′ of each tree's output
                    // (len = 2n + 3).
                    if self.n_bytes.val() == 16 {
                        self.word_last.d.next = 3.into();
                        self.root_node.d.next = bit_cast::<7, 4>(self.tree_height.val()) + 35;
                    } else if self.n_bytes.val() == 24 {
                        self.word_last.d.next = 5.into();
                        self.root_node.d.next = bit_cast::<7, 4>(self.tree_height.val()) + 51;
                    } else if self.n_bytes.val() == 32 {
                        self.word_last.d.next = 7.into();
                        self.root_node.d.next = bit_cast::<7, 4>(self.tree_height.val()) + 67;
                    } else {
                        self.phase.d.next = HypertreePhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                    if (self.layers.val() == 0) | (self.layers.val() > self.max_layers.val()) {
                        self.phase.d.next = HypertreePhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                }
            }
            HypertreePhase::WriteAddress => {
                self.tree.adrs_write.next = true;
                self.step.d.next = self.step.q.val() + 1;
                if self.step.q.val() == 3 {
                    self.step.d.next = 0.into();
                    self.phase.d.next = HypertreePhase::WriteMessage;
                    if self.position.layer.val() == 0 {
                        self.phase.d.next = HypertreePhase::StartTree;
                    }
                }
            }
            HypertreePhase::WriteMessage => {
                self.tree.msg_write.next = true;
                self.tree.msg_index.next = self.step.q.val().get_bits::<3>(0);
                self.tree.msg_word.next = self.root_word.val();
                self.step.d.next = self.step.q.val() + 1;
                if self.step.q.val() == self.word_last.q.val() {
                    self.step.d.next = 0.into();
                    self.phase.d.next = HypertreePhase::StartTree;
                }
            }
            HypertreePhase::StartTree => {
                self.tree.start.next = true;
                self.node_word.d.next = 0.into();
                self.node_count.d.next = 0.into();
                self.phase.d.next = HypertreePhase::Run;
            }
            HypertreePhase::Run => {
                if self.tree_fire.val() {
                    if self.is_root_word.val() {
                        for i in 0..8 {
                            if self.node_word.q.val().index() == i {
                                self.root[i].d.next = self.tree.out_data.val();
                            }
                        }
                    }
                    self.node_word.d.next = self.node_word.q.val() + 1;
                    if self.node_word.q.val() == self.word_last.q.val() {
                        self.node_word.d.next = 0.into();
                        self.node_count.d.next = self.node_count.q.val() + 1;
                    }
                    if self.tree.out_last.val() {
                        self.step.d.next = 0.into();
                        self.position.advance.next = true;
                        self.phase.d.next = HypertreePhase::WriteAddress;
                        if self.position.layer.val() == self.last_layer.q.val() {
                            self.phase.d.next = HypertreePhase::EmitRoot;
                        }
                    }
                }
                // A tree job that refused its request (h′ or idx_leaf out of
                // range) or failed ends the job.
                if self.tree.done.val() & self.tree.error.val() {
                    self.phase.d.next = HypertreePhase::Idle;
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = true;
                }
            }
            HypertreePhase::EmitRoot => {
                if self.out_ready.val() {
                    self.step.d.next = self.step.q.val() + 1;
                    if self.step.q.val() == self.word_last.q.val() {
                        self.phase.d.next = HypertreePhase::Idle;
                        self.done_flag.d.next = true;
                    }
                }
            }
            _ => {
                self.phase.d.next = HypertreePhase::Idle;
            }
        }
        if self.abort_job.val() {
            self.tree.abort_job.next = true;
            self.phase.d.next = HypertreePhase::Idle;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
        }
        if self.reset.val() {
            self.phase.d.next = HypertreePhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
        }
        self.busy.next = self.phase.q.val() != HypertreePhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
    }
}
