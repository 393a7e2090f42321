//! The XMSS tree job of the SLH-DSA-SHAKE sets: every leaf (WOTS+ public
//! key) of one XMSS tree, the Merkle tree over them, the authentication
//! path of one leaf and the root (FIPS 205 Algorithm 9), and with `sign`
//! the WOTS+ signature of that leaf too (Algorithm 10, xmss_sign), entirely
//! in the PL on one [`WotsLeafEngine`] and so on one sponge.
//!
//! # Schedule
//!
//! The leaves are computed in order, i = 0 … 2^h′ − 1. Each new node (z, j)
//! (height z, index j) goes where it is needed next:
//!
//! - j even (a left child): into slot z of the level memory (`levels`),
//!   then on to the next leaf;
//! - j odd (a right child): straight into the leaf engine's right child
//!   words as it streams out; the left child is copied from slot z (n/4 + 1
//!   clocks), and the parent (z + 1, j/2) is computed at once;
//! - z = h′: the root.
//!
//! A node whose index is the sibling of the signed leaf's path at its
//! height, j = (idx >> z) ⊕ 1, is also written into slot z of the
//! authentication memory (`auth`); the root goes into its slot h′. Nothing
//! in the schedule depends on the seeds or the address: the clock count
//! depends on n and h′ only ([`tree_clocks`]), the same for every leaf
//! index.
//!
//! # Interface
//!
//! - Seeds and address, written while idle, as for [`WotsLeafEngine`]
//!   (`seed_*`; `adrs_*`: the words 0..3 of layer and tree are used; the
//!   job sets the key pair of each leaf itself).
//! - `start` (taken when idle) samples `n_bytes` = n, `tree_height` = h′
//!   and `leaf_index` = idx. n ∉ {16, 24, 32}, h′ ∉ 1..=9 or idx ≥ 2^h′ is
//!   refused at once with `done` and `error`.
//! - With `sign` (sampled at `start`), the leaf idx also signs the n-byte
//!   message written beforehand (`msg_*`, as for [`WotsLeafEngine`]), so
//!   the job is the whole of FIPS 205 Algorithm 10 (xmss_sign) and gives
//!   the root as well.
//! - Output stream: [σ_WOTS ‖] AUTH ‖ root, that is (when signing) the len
//!   signature values, passed on as the leaf job makes them, then the h′
//!   authentication nodes from height 0 up, then the root, each n/4
//!   little-endian words; `out_last` on the final word; then `done`.
//! - `abort_job` (taken in any state) aborts the leaf engine and returns to
//!   idle at once with `done` and `error`; `reset` (synchronous, active
//!   high) returns to idle with `done`/`error` low.

use super::wots_leaf::{
    fors_leaf_clocks, fors_sign_leaf_clocks, leaf_clocks, node_clocks, sign_leaf_clocks,
    WotsLeafEngine, ENDS_ADDRESS_BITS,
};
use crate::keccak::select::SpongePort;
use rust_hdl::prelude::*;

/// Largest XMSS tree height h′ of FIPS 205 (the 128s and 192s sets).
pub const MAX_TREE_HEIGHT: usize = 9;
/// Largest FORS tree height a of FIPS 205 (the 192s and 256s sets).
pub const MAX_FORS_HEIGHT: usize = 14;
/// Bits of a FORS leaf index over all k trees: k·2^a ≤ 22·2^14 < 2^19.
const GLOBAL_LEAF_BITS: usize = 20;
/// Address bits of the level and authentication memories: slots of 8 words
/// for the heights 0..=h′.
const SLOT_ADDRESS_BITS: usize = 7;

/// Clocks of one tree job with the output stream always ready, from the
/// `start` clock to the first clock with `done` high (asserted by the
/// tests): the `start` clock; per leaf, the key-pair write and the leaf's
/// own clocks ([`leaf_clocks`]); per inner node, the copy of its left child
/// (n/4 + 1) and the node ([`node_clocks`]); then one clock to prime the
/// authentication memory and (h′ + 1)·n/4 output words. Signing adds
/// [`sign_leaf_clocks`] − [`leaf_clocks`] for the signing leaf, the same for
/// every message.
pub const fn tree_clocks(n: usize, height: u32) -> u64 {
    let leaves = 1u64 << height;
    let words = n as u64 / 4;
    1 + leaves * (1 + leaf_clocks(n))
        + (leaves - 1) * (words + 1 + node_clocks(n))
        + 1
        + (height as u64 + 1) * words
}

/// Clocks of one FORS tree job (`fors`) with the output stream always
/// ready and the FORS prefix kept in the leaf engine: as [`tree_clocks`]
/// with FORS leaves ([`fors_leaf_clocks`]), for every tree and leaf index
/// (asserted by the tests). The first tree after the address writes adds
/// [`super::wots_leaf::fors_prefix_clocks`].
pub const fn fors_tree_clocks(n: usize, height: u32) -> u64 {
    let leaves = 1u64 << height;
    let words = n as u64 / 4;
    1 + leaves * (1 + fors_leaf_clocks(n))
        + (leaves - 1) * (words + 1 + node_clocks(n))
        + 1
        + (height as u64 + 1) * words
}

/// [`fors_tree_clocks`] of a signing FORS tree job, whose signed leaf
/// streams its secret value out ([`fors_sign_leaf_clocks`]); the same for
/// every leaf index.
pub const fn fors_sign_tree_clocks(n: usize, height: u32) -> u64 {
    fors_tree_clocks(n, height) + fors_sign_leaf_clocks(n) - fors_leaf_clocks(n)
}

/// Clocks of one climb (`climb`) with the output stream always ready,
/// given the clocks of its leaf in the leaf engine (`pk_from_sig_clocks`
/// of the digits for WOTS+, `fors_leaf_from_sk_clocks` for FORS): the
/// start, the key-pair clock, the leaf, per height the copy of the AUTH
/// node and the node, then one clock to prime the output and the root's
/// n/4 words (asserted by the tests).
pub const fn climb_clocks(n: usize, height: u32, leaf: u64) -> u64 {
    let words = n as u64 / 4;
    2 + leaf + height as u64 * (words + 1 + node_clocks(n)) + 1 + words
}

/// [`tree_clocks`] of a signing tree job.
pub const fn sign_tree_clocks(n: usize, height: u32) -> u64 {
    tree_clocks(n, height) + sign_leaf_clocks(n) - leaf_clocks(n)
}

/// Phases of the job.
#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum TreePhase {
    /// Waiting for `start`.
    Idle,
    /// Writing the next leaf's key pair address into the leaf engine.
    SetKeypair,
    /// Starting the leaf.
    StartLeaf,
    /// Taking a new node (leaf or inner) from the leaf engine.
    Produce,
    /// Copying the left child from the level memory into the leaf engine.
    Combine,
    /// Starting the parent node.
    StartNode,
    /// The first output word is being read.
    OutputPrime,
    /// Streaming AUTH ‖ root out.
    Output,
    /// Starting the FORS public key in the leaf engine.
    StartRoots,
    /// Passing the FORS public key on.
    Roots,
}

/// The XMSS tree job on a sponge engine with `R` rounds per clock.
#[derive(LogicBlock)]
pub struct XmssTreeEngine<const R: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, flags low.
    pub reset: Signal<In, Bit>,
    /// Seed write (when idle), as for [`WotsLeafEngine`].
    pub seed_write: Signal<In, Bit>,
    /// 0..7: PK.seed words; 8..15: SK.seed words.
    pub seed_index: Signal<In, Bits<4>>,
    /// The seed word.
    pub seed_word: Signal<In, Bits<32>>,
    /// Address write (when idle): words 0..3 (layer and tree) are used.
    pub adrs_write: Signal<In, Bit>,
    /// Which address word.
    pub adrs_index: Signal<In, Bits<3>>,
    /// The address word (little-endian bytes of the big-endian fields).
    pub adrs_word: Signal<In, Bits<32>>,
    /// Compute the tree (taken when idle).
    pub start: Signal<In, Bit>,
    /// n in bytes, sampled at `start`.
    pub n_bytes: Signal<In, Bits<6>>,
    /// h′, sampled at `start`.
    pub tree_height: Signal<In, Bits<4>>,
    /// The leaf whose authentication path is wanted, sampled at `start`
    /// (within the tree: < 2^h′, or < 2^a with `fors`).
    pub leaf_index: Signal<In, Bits<14>>,
    /// A FORS tree instead of an XMSS tree (sampled at `start`): tree
    /// `fors_tree` of height a = `tree_height` ∈ 1..=14, leaves FORS leaves
    /// (global index i·2^a + j), nodes FORS_TREE nodes, the key pair that
    /// of the address written; with `sign`, the output is the secret value
    /// of leaf `leaf_index` ‖ AUTH ‖ root, and the root is also written to
    /// root slot i of the leaf engine's memory for `start_roots`.
    pub fors: Signal<In, Bit>,
    /// The FORS tree i, sampled at `start` with `fors`.
    pub fors_tree: Signal<In, Bits<6>>,
    /// Compute the FORS public key over the roots of trees 0..k − 1 (taken
    /// when idle and `start` is low): T_k, streamed out; k = `fors_trees`.
    pub start_roots: Signal<In, Bit>,
    /// k, sampled at `start_roots` (1..=35; else refused).
    pub fors_trees: Signal<In, Bits<6>>,
    /// The root from a signature instead of the whole tree (sampled at
    /// `start`; FIPS 205 Algorithm 11, xmss_pkFromSig, or with `fors` the
    /// per-tree part of Algorithm 17): the leaf `leaf_index` from its
    /// signature (WOTS+: σ and the message written to the leaf engine
    /// with `sig_*` and `msg_*`; FORS: the secret value with `node_*`),
    /// then up the AUTH path written with `auth_*`; the output is the root.
    pub climb: Signal<In, Bit>,
    /// Write `auth_word` into the AUTH memory (when idle): word w of node
    /// z at `auth_index` = 8·z + w.
    pub auth_write: Signal<In, Bit>,
    /// The AUTH memory address, 8·z + w.
    pub auth_index: Signal<In, Bits<SLOT_ADDRESS_BITS>>,
    /// The AUTH word (little-endian bytes).
    pub auth_word: Signal<In, Bits<32>>,
    /// σ_WOTS write into the leaf engine (when idle), as its `sig_*`.
    pub sig_write: Signal<In, Bit>,
    /// Which σ word.
    pub sig_index: Signal<In, Bits<ENDS_ADDRESS_BITS>>,
    /// The σ word.
    pub sig_word: Signal<In, Bits<32>>,
    /// Child word write into the leaf engine (when idle), as its
    /// `node_*`: the FORS secret value of a climb, words 0..n/4 − 1.
    pub node_write: Signal<In, Bit>,
    /// Which child word.
    pub node_index: Signal<In, Bits<4>>,
    /// The child word.
    pub node_word: Signal<In, Bits<32>>,
    /// Sign an n-byte message with the leaf `leaf_index` (sampled at
    /// `start`): the output is then σ_WOTS ‖ AUTH ‖ root.
    pub sign: Signal<In, Bit>,
    /// Message write (when idle), as for [`WotsLeafEngine`].
    pub msg_write: Signal<In, Bit>,
    /// Which message word.
    pub msg_index: Signal<In, Bits<3>>,
    /// The message word.
    pub msg_word: Signal<In, Bits<32>>,
    /// Abandon the job (taken in any state).
    pub abort_job: Signal<In, Bit>,
    /// A job is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last job finished (cleared by the next start).
    pub done: Signal<Out, Bit>,
    /// The last job was refused or aborted (cleared by the next start).
    pub error: Signal<Out, Bit>,
    /// AUTH ‖ root stream TDATA.
    pub out_data: Signal<Out, Bits<32>>,
    /// AUTH ‖ root stream TVALID.
    pub out_valid: Signal<Out, Bit>,
    /// AUTH ‖ root stream TLAST.
    pub out_last: Signal<Out, Bit>,
    /// AUTH ‖ root stream TREADY.
    pub out_ready: Signal<In, Bit>,
    /// The stream word is a word of the root.
    pub out_root: Signal<Out, Bit>,
    /// The sponge of its leaf job (see
    /// [`super::WotsLeafEngine::sponge_port`]).
    pub sponge_port: SpongePort,
    wots: WotsLeafEngine<R>,
    levels: RAM<Bits<32>, SLOT_ADDRESS_BITS>,
    auth: RAM<Bits<32>, SLOT_ADDRESS_BITS>,
    phase: DFF<TreePhase>,
    n_reg: DFF<Bits<6>>,
    height: DFF<Bits<4>>,
    target: DFF<Bits<GLOBAL_LEAF_BITS>>,
    leaf: DFF<Bits<GLOBAL_LEAF_BITS>>,
    z: DFF<Bits<4>>,
    j: DFF<Bits<GLOBAL_LEAF_BITS>>,
    path: DFF<Bits<GLOBAL_LEAF_BITS>>,
    fors_mode: DFF<Bit>,
    climbing: DFF<Bit>,
    root_base: DFF<Bits<10>>,
    trees: DFF<Bits<6>>,
    word: DFF<Bits<4>>,
    word_last: DFF<Bits<4>>,
    out_slot: DFF<Bits<4>>,
    out_word: DFF<Bits<4>>,
    signing: DFF<Bit>,
    done_flag: DFF<Bit>,
    error_flag: DFF<Bit>,
    leaves_last: Signal<Local, Bits<14>>,
    tree_base: Signal<Local, Bits<GLOBAL_LEAF_BITS>>,
    tree_words: Signal<Local, Bits<10>>,
    height_bad: Signal<Local, Bit>,
    keypair_word: Signal<Local, Bits<32>>,
    slot_address: Signal<Local, Bits<SLOT_ADDRESS_BITS>>,
    node_fire: Signal<Local, Bit>,
    is_root: Signal<Local, Bit>,
    is_right: Signal<Local, Bit>,
    is_auth: Signal<Local, Bit>,
    out_fire: Signal<Local, Bit>,
    out_slot_next: Signal<Local, Bits<4>>,
    out_word_next: Signal<Local, Bits<4>>,
    one: Constant<Bits<GLOBAL_LEAF_BITS>>,
    max_xmss_height: Constant<Bits<4>>,
    max_fors_height: Constant<Bits<4>>,
    leaves_last_table: [Constant<Bits<14>>; MAX_FORS_HEIGHT + 1],
}

impl<const R: usize> Default for XmssTreeEngine<R> {
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
            tree_height: Default::default(),
            leaf_index: Default::default(),
            fors: Default::default(),
            fors_tree: Default::default(),
            start_roots: Default::default(),
            fors_trees: Default::default(),
            climb: Default::default(),
            auth_write: Default::default(),
            auth_index: Default::default(),
            auth_word: Default::default(),
            sig_write: Default::default(),
            sig_index: Default::default(),
            sig_word: Default::default(),
            node_write: Default::default(),
            node_index: Default::default(),
            node_word: Default::default(),
            sign: Default::default(),
            msg_write: Default::default(),
            msg_index: Default::default(),
            msg_word: Default::default(),
            abort_job: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            out_ready: Default::default(),
            out_root: Default::default(),
            sponge_port: Default::default(),
            wots: Default::default(),
            levels: Default::default(),
            auth: Default::default(),
            phase: Default::default(),
            n_reg: Default::default(),
            height: Default::default(),
            target: Default::default(),
            leaf: Default::default(),
            z: Default::default(),
            j: Default::default(),
            path: Default::default(),
            fors_mode: Default::default(),
            climbing: Default::default(),
            root_base: Default::default(),
            trees: Default::default(),
            word: Default::default(),
            word_last: Default::default(),
            out_slot: Default::default(),
            out_word: Default::default(),
            signing: Default::default(),
            done_flag: Default::default(),
            error_flag: Default::default(),
            leaves_last: Default::default(),
            tree_base: Default::default(),
            tree_words: Default::default(),
            height_bad: Default::default(),
            keypair_word: Default::default(),
            slot_address: Default::default(),
            node_fire: Default::default(),
            is_root: Default::default(),
            is_right: Default::default(),
            is_auth: Default::default(),
            out_fire: Default::default(),
            out_slot_next: Default::default(),
            out_word_next: Default::default(),
            one: Constant::new(1.into()),
            max_xmss_height: Constant::new((MAX_TREE_HEIGHT as u64).into()),
            max_fors_height: Constant::new((MAX_FORS_HEIGHT as u64).into()),
            leaves_last_table: core::array::from_fn(|h| Constant::new(((1u64 << h) - 1).into())),
        }
    }
}

impl<const R: usize> XmssTreeEngine<R> {
    /// A job whose leaf job hashes on the engine behind its
    /// `sponge_port` (which must take the kept-prefix chain op).
    pub fn with_outside_sponge() -> Self {
        Self {
            wots: WotsLeafEngine::with_outside_sponge(),
            ..Self::default()
        }
    }
}

impl<const R: usize> Logic for XmssTreeEngine<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, phase, n_reg, height, target, leaf, z, j, path, fors_mode, climbing,
            root_base, trees, word, word_last, out_slot, out_word, signing, done_flag, error_flag
        );
        clock!(self, clock, wots);
        SpongePort::link(&mut self.sponge_port, &mut self.wots.sponge_port);
        self.levels.read_clock.next = self.clock.val();
        self.levels.write_clock.next = self.clock.val();
        self.auth.read_clock.next = self.clock.val();
        self.auth.write_clock.next = self.clock.val();

        // Seeds and address go straight to the leaf engine while idle.
        self.wots.reset.next = self.reset.val();
        self.wots.seed_write.next = self.seed_write.val() & (self.phase.q.val() == TreePhase::Idle);
        self.wots.seed_index.next = self.seed_index.val();
        self.wots.seed_word.next = self.seed_word.val();
        self.wots.adrs_write.next = self.adrs_write.val() & (self.phase.q.val() == TreePhase::Idle);
        self.wots.adrs_index.next = self.adrs_index.val();
        self.wots.adrs_word.next = self.adrs_word.val();
        self.wots.msg_write.next = self.msg_write.val() & (self.phase.q.val() == TreePhase::Idle);
        self.wots.msg_index.next = self.msg_index.val();
        self.wots.msg_word.next = self.msg_word.val();
        // A FORS root also goes to its slot of the leaf engine's memory,
        // where `start_roots` compresses the k roots.
        self.wots.from_sig.next = false;
        self.wots.sig_write.next = false;
        self.wots.sig_index.next = self.root_base.q.val() + bit_cast::<10, 4>(self.word.q.val());
        self.wots.sig_word.next = self.wots.out_data.val();
        self.wots.fors.next = self.fors_mode.q.val();
        self.wots.fors_trees.next = self.trees.q.val();
        self.wots.sign_leaf.next =
            self.signing.q.val() & (self.leaf.q.val() == self.target.q.val());
        self.wots.start.next = false;
        self.wots.start_node.next = false;
        self.wots.abort_job.next = false;
        self.wots.n_bytes.next = self.n_reg.q.val();
        self.wots.node_height.next = bit_cast::<8, 4>(self.z.q.val() + 1);
        self.wots.node_tree_index.next = bit_cast::<32, GLOBAL_LEAF_BITS>(self.j.q.val() >> 1);
        self.wots.node_write.next = false;
        self.wots.node_index.next = self.word.q.val() + self.word_last.q.val() + 1;
        self.wots.node_word.next = self.wots.out_data.val();
        // While idle, σ and the FORS secret value of a climb go to the leaf
        // engine.
        if self.phase.q.val() == TreePhase::Idle {
            self.wots.sig_write.next = self.sig_write.val();
            self.wots.sig_index.next = self.sig_index.val();
            self.wots.sig_word.next = self.sig_word.val();
            self.wots.node_write.next = self.node_write.val();
            self.wots.node_index.next = self.node_index.val();
            self.wots.node_word.next = self.node_word.val();
        }
        // σ words pass straight to the output (they come first); nodes are
        // always taken.
        self.wots.out_ready.next = self.phase.q.val() == TreePhase::Produce;
        if self.wots.out_sig.val() {
            self.wots.out_ready.next =
                (self.phase.q.val() == TreePhase::Produce) & self.out_ready.val();
        }

        // The key pair address of leaf i < 512, big-endian in word 5.
        self.keypair_word.next = (bit_cast::<32, 8>(self.leaf.q.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 2>(self.leaf.q.val().get_bits::<2>(8)) << 16);

        // Where node (z, j) goes as it streams out of the leaf engine.
        self.slot_address.next = (bit_cast::<SLOT_ADDRESS_BITS, 4>(self.z.q.val()) << 3)
            | bit_cast::<SLOT_ADDRESS_BITS, 4>(self.word.q.val());
        self.node_fire.next = (self.phase.q.val() == TreePhase::Produce)
            & self.wots.out_valid.val()
            & !self.wots.out_sig.val();
        self.is_root.next = self.z.q.val() == self.height.q.val();
        self.is_right.next = self.j.q.val().get_bit(0);
        self.is_auth.next = self.j.q.val() == (self.path.q.val() ^ self.one.val());
        self.levels.write_address.next = self.slot_address.val();
        self.levels.write_data.next = self.wots.out_data.val();
        self.levels.write_enable.next = self.node_fire.val()
            & !self.is_right.val()
            & !self.is_root.val()
            & !self.climbing.q.val();
        self.auth.write_address.next = self.slot_address.val();
        self.auth.write_data.next = self.wots.out_data.val();
        self.auth.write_enable.next =
            self.node_fire.val() & (self.is_auth.val() | self.is_root.val());
        self.levels.read_address.next = self.slot_address.val();
        if (self.phase.q.val() == TreePhase::Idle) & self.auth_write.val() {
            self.auth.write_address.next = self.auth_index.val();
            self.auth.write_data.next = self.auth_word.val();
            self.auth.write_enable.next = true;
        }

        // The output reads one word ahead, as the leaf engine's memory.
        self.out_fire.next = (self.phase.q.val() == TreePhase::Output) & self.out_ready.val();
        self.out_slot_next.next = self.out_slot.q.val();
        self.out_word_next.next = self.out_word.q.val() + 1;
        if self.out_word.q.val() == self.word_last.q.val() {
            self.out_slot_next.next = self.out_slot.q.val() + 1;
            self.out_word_next.next = 0.into();
        }
        self.auth.read_address.next = (bit_cast::<SLOT_ADDRESS_BITS, 4>(self.out_slot.q.val())
            << 3)
            | bit_cast::<SLOT_ADDRESS_BITS, 4>(self.out_word.q.val());
        if self.out_fire.val() {
            self.auth.read_address.next =
                (bit_cast::<SLOT_ADDRESS_BITS, 4>(self.out_slot_next.val()) << 3)
                    | bit_cast::<SLOT_ADDRESS_BITS, 4>(self.out_word_next.val());
            self.out_slot.d.next = self.out_slot_next.val();
            self.out_word.d.next = self.out_word_next.val();
        }
        self.out_data.next = self.auth.read_data.val();
        self.out_valid.next = self.phase.q.val() == TreePhase::Output;
        if self.phase.q.val() == TreePhase::Produce {
            self.out_data.next = self.wots.out_data.val();
            self.out_valid.next = self.wots.out_valid.val() & self.wots.out_sig.val();
        }
        self.out_root.next = (self.phase.q.val() == TreePhase::Output)
            & (self.out_slot.q.val() == self.height.q.val());
        self.out_last.next =
            self.out_root.val() & (self.out_word.q.val() == self.word_last.q.val());
        if self.phase.q.val() == TreePhase::Roots {
            self.out_data.next = self.wots.out_data.val();
            self.out_valid.next = self.wots.out_valid.val();
            self.out_last.next = self.wots.out_last.val();
        }

        self.leaves_last.next = 0.into();
        for h in 1..(MAX_FORS_HEIGHT + 1) {
            if self.tree_height.val().index() == h {
                self.leaves_last.next = self.leaves_last_table[h].val();
            }
        }
        self.height_bad.next = (self.tree_height.val() == 0)
            | (self.tree_height.val() > self.max_fors_height.val())
            | (!self.fors.val() & (self.tree_height.val() > self.max_xmss_height.val()));
        // FORS tree i: global leaves i·2^a + j; its root slot i·n/4.
        self.tree_base.next = 0.into();
        if self.fors.val() {
            self.tree_base.next =
                bit_cast::<GLOBAL_LEAF_BITS, 6>(self.fors_tree.val()) << self.tree_height.val();
        }
        self.tree_words.next = bit_cast::<10, 6>(self.fors_tree.val()) << 2;
        if self.n_bytes.val() == 24 {
            self.tree_words.next = (bit_cast::<10, 6>(self.fors_tree.val()) << 2)
                + (bit_cast::<10, 6>(self.fors_tree.val()) << 1);
        }
        if self.n_bytes.val() == 32 {
            self.tree_words.next = bit_cast::<10, 6>(self.fors_tree.val()) << 3;
        }

        match self.phase.q.val() {
            TreePhase::Idle => {
                if self.start.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.n_reg.d.next = self.n_bytes.val();
                    self.height.d.next = self.tree_height.val();
                    self.target.d.next = self.tree_base.val()
                        | bit_cast::<GLOBAL_LEAF_BITS, 14>(self.leaf_index.val());
                    self.signing.d.next = self.sign.val() & !self.climb.val();
                    self.climbing.d.next = self.climb.val();
                    self.fors_mode.d.next = self.fors.val();
                    self.root_base.d.next = self.tree_words.val();
                    self.leaf.d.next = self.tree_base.val();
                    self.word.d.next = 0.into();
                    self.out_slot.d.next = 0.into();
                    // A climb has the one leaf and outputs the root only.
                    if self.climb.val() {
                        self.leaf.d.next = self.tree_base.val()
                            | bit_cast::<GLOBAL_LEAF_BITS, 14>(self.leaf_index.val());
                        self.out_slot.d.next = self.tree_height.val();
                    }
                    self.out_word.d.next = 0.into();
                    self.phase.d.next = TreePhase::SetKeypair;
                    if self.n_bytes.val() == 16 {
                        self.word_last.d.next = 3.into();
                    } else if self.n_bytes.val() == 24 {
                        self.word_last.d.next = 5.into();
                    } else if self.n_bytes.val() == 32 {
                        self.word_last.d.next = 7.into();
                    } else {
                        self.phase.d.next = TreePhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                    if self.height_bad.val() | (self.leaf_index.val() > self.leaves_last.val()) {
                        self.phase.d.next = TreePhase::Idle;
                        self.done_flag.d.next = true;
                        self.error_flag.d.next = true;
                    }
                } else if self.start_roots.val() {
                    self.done_flag.d.next = false;
                    self.error_flag.d.next = false;
                    self.n_reg.d.next = self.n_bytes.val();
                    self.trees.d.next = self.fors_trees.val();
                    self.fors_mode.d.next = true;
                    self.signing.d.next = false;
                    self.phase.d.next = TreePhase::StartRoots;
                }
            }
            TreePhase::SetKeypair => {
                // FORS leaves keep the key pair of the address written.
                self.wots.adrs_write.next = !self.fors_mode.q.val();
                self.wots.adrs_index.next = 5.into();
                self.wots.adrs_word.next = self.keypair_word.val();
                self.phase.d.next = TreePhase::StartLeaf;
            }
            TreePhase::StartLeaf => {
                self.wots.start.next = true;
                self.wots.node_tree_index.next =
                    bit_cast::<32, GLOBAL_LEAF_BITS>(self.leaf.q.val());
                // A climb's leaf: the WOTS+ key from σ, or F of the FORS
                // secret value (a FORS node of height 0).
                if self.climbing.q.val() {
                    self.wots.from_sig.next = !self.fors_mode.q.val();
                    if self.fors_mode.q.val() {
                        self.wots.start.next = false;
                        self.wots.start_node.next = true;
                        self.wots.node_height.next = 0.into();
                    }
                }
                self.z.d.next = 0.into();
                self.j.d.next = self.leaf.q.val();
                self.path.d.next = self.target.q.val();
                self.phase.d.next = TreePhase::Produce;
            }
            TreePhase::Produce => {
                if self.node_fire.val() {
                    // A climb's node goes to its side of the parent's
                    // children (the AUTH node follows, from memory).
                    self.wots.node_write.next =
                        (self.is_right.val() | self.climbing.q.val()) & !self.is_root.val();
                    if self.climbing.q.val() & !self.is_right.val() {
                        self.wots.node_index.next = self.word.q.val();
                    }
                    self.wots.sig_write.next = self.is_root.val() & self.fors_mode.q.val();
                    self.word.d.next = self.word.q.val() + 1;
                    if self.wots.out_last.val() {
                        self.word.d.next = 0.into();
                        if self.is_root.val() {
                            self.phase.d.next = TreePhase::OutputPrime;
                        } else if self.is_right.val() | self.climbing.q.val() {
                            self.phase.d.next = TreePhase::Combine;
                        } else {
                            self.leaf.d.next = self.leaf.q.val() + 1;
                            self.phase.d.next = TreePhase::SetKeypair;
                        }
                    }
                }
                // A request the leaf engine refused cannot produce its
                // node: end the job instead of waiting for it.
                if self.wots.done.val() & self.wots.error.val() {
                    self.phase.d.next = TreePhase::Idle;
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = true;
                }
            }
            TreePhase::Combine => {
                // Word w of slot z was addressed on the previous clock.
                self.wots.node_write.next = self.word.q.val() != 0;
                self.wots.node_index.next = self.word.q.val() - 1;
                self.wots.node_word.next = self.levels.read_data.val();
                // A climb's sibling is AUTH node z, on the other side.
                if self.climbing.q.val() {
                    self.auth.read_address.next = self.slot_address.val();
                    self.wots.node_word.next = self.auth.read_data.val();
                    if !self.is_right.val() {
                        self.wots.node_index.next = self.word.q.val() + self.word_last.q.val();
                    }
                }
                self.word.d.next = self.word.q.val() + 1;
                if self.word.q.val() == self.word_last.q.val() + 1 {
                    self.word.d.next = 0.into();
                    self.phase.d.next = TreePhase::StartNode;
                }
            }
            TreePhase::StartNode => {
                self.wots.start_node.next = true;
                self.z.d.next = self.z.q.val() + 1;
                self.j.d.next = self.j.q.val() >> 1;
                self.path.d.next = self.path.q.val() >> 1;
                self.phase.d.next = TreePhase::Produce;
            }
            TreePhase::OutputPrime => {
                self.phase.d.next = TreePhase::Output;
            }
            TreePhase::Output => {
                if self.out_fire.val() & self.out_last.val() {
                    self.phase.d.next = TreePhase::Idle;
                    self.done_flag.d.next = true;
                }
            }
            TreePhase::StartRoots => {
                self.wots.start.next = true;
                self.wots.from_sig.next = true;
                self.phase.d.next = TreePhase::Roots;
            }
            TreePhase::Roots => {
                self.wots.out_ready.next = self.out_ready.val();
                if self.wots.done.val() {
                    self.phase.d.next = TreePhase::Idle;
                    self.done_flag.d.next = true;
                    self.error_flag.d.next = self.wots.error.val();
                }
            }
            _ => {
                self.phase.d.next = TreePhase::Idle;
            }
        }
        if self.abort_job.val() {
            self.wots.abort_job.next = true;
            self.phase.d.next = TreePhase::Idle;
            self.done_flag.d.next = true;
            self.error_flag.d.next = true;
        }
        if self.reset.val() {
            self.phase.d.next = TreePhase::Idle;
            self.done_flag.d.next = false;
            self.error_flag.d.next = false;
        }
        self.busy.next = self.phase.q.val() != TreePhase::Idle;
        self.done.next = self.done_flag.q.val();
        self.error.next = self.error_flag.q.val();
    }
}
