//! The SLH-DSA engine's PL top: [`SlhDsaEngine`] (key generation, signing
//! and verification of the SHAKE sets on one tree job and one sponge)
//! behind the AXI4-Lite control block and the two streams
//! (`ps_pl_contract::regmap::slhdsa`).
//!
//! - The top takes the fixed header of the input stream itself, a word a
//!   clock: the seeds into the engine's seed registers, PK.root, md, and
//!   idx_tree and idx_leaf into its own registers (verification's header
//!   has no SK.seed: its words count from PK.seed). Then it starts the
//!   engine with the set's n, a, k, h′ and d, taken from `pqc` by the
//!   contract's set names.
//! - `OP_KEYGEN`: the engine's output, PK.root, goes out with `TLAST`.
//! - `OP_SIGN`: SIG_FORS ‖ SIG_HT goes out; the engine's top root stays in
//!   the PL; the verdict word (root = PK.root) follows with `TLAST`.
//! - `OP_VERIFY`: the engine takes the rest of the input stream itself (it
//!   checks the signature's length); the verdict word goes out.
//!
//! A set it does not know, a `TLAST` in the header where it does not
//! belong (or missing on the final word of a keygen or sign header), an
//! engine error and an unknown operation end the request with
//! `STATUS_DONE | STATUS_ERROR`; `OP_ABORT` ends whatever runs the same
//! way. `CYCLES` counts the clocks from the accepted start to done.
//! While `sponge_taken` is high (the other engine of
//! [`super::EnginesAccel`] holds the shared sponge) a start is refused the
//! same way.
//!
//! [`SlhDsaSha2Accel`] is the same block for the six SLH-DSA-SHA2 sets
//! (`ARG0` = `SHA2_SET_BASE` + 0..5 for SHA2-128s, 128f, 192s, 192f,
//! 256s, 256f; `CONFIG_SHA2`): its engine's jobs hash on
//! [`Sha2TweakEngine`] behind their sponge port, which takes the sponge's
//! requests and computes them with SHA-256, and the H and T_l of
//! categories 3 and 5 with SHA-512 (FIPS 205 §11.2).
//! The block decodes `ARG0` by tables with an entry per value: its set's
//! n, a, k, h′ and d, whether it is a SHA2 set, and whether the block's
//! CONFIG offers it (the contract's `set_name`); any other value is
//! refused. At the bus
//! (`verilated_slhdsa_sha2_accel_runs_the_acvp_sha2_128f_operations_at_the_bus`),
//! SHA2-128f takes 306,369 cycles to generate a key, 7,380,250 to sign
//! and 450,149 to verify the ACVP signature (2.45 ms, 59.0 ms and 3.60 ms
//! at 125 MHz; SHAKE-128f on the two-round sponge: 59,448, 1,494,469,
//! 104,412): a SHA-256 compression is 66 clocks where a permutation is
//! 12. SHA2-192f takes 447,773 / 13,030,291 / 691,308 and SHA2-256f
//! 1,186,737 / 27,090,798 / 725,404 (keygen / sign / verify of `pqc`'s
//! keys and signature). SHA2-128s (`PQC_FULL=1`): 19,614,633,
//! 154,564,647 and 168,640. (Stop 43, before the SHA-256 engine's
//! 66-clock chain step: 342,203 / 8,228,658 / 499,003 for SHA2-128f.)
//! No PL configuration builds this top: the built `engines_accel` has the
//! block that takes both the SHAKE and the SHA2 sets
//! ([`SlhDsaBlock::on_sponge_and_sha2`]), with the same counts.

use super::ctrl::{CtrlRegs, ADDR_BITS};
use super::top::{pl_top, pl_top_around};
use crate::keccak::select::SpongePort;
use crate::sha2::Sha2TweakEngine;
use crate::slhdsa::engine::{OP_KEYGEN, OP_SIGN, OP_VERIFY};
use crate::slhdsa::wots_leaf::SPONGE_ROUNDS_PER_CLOCK;
use crate::slhdsa::SlhDsaEngine;
use pqc::slhdsa::{params, HashFamily, Params};
use ps_pl_contract::regmap::{self, slhdsa as reg};
use rust_hdl::prelude::*;

// The header layout the loader decodes (positions 0..=36; verification
// starts at PK.seed, position 8).
const _: () = assert!(reg::VALUE_WORDS == 8 && reg::MD_WORDS == 10 && reg::INDEX_WORDS == 3);
const _: () = assert!(reg::KEYGEN_INPUT_WORDS == 16 && reg::SIGN_INPUT_WORDS == 37);
const _: () = assert!(reg::SETS.len() == 6 && reg::SHA2_SET_BASE == 6);

/// The parameter set of `ARG0` value `set` (the contract's names, `pqc`'s
/// values): [`reg::SETS`], then [`reg::SHA2_SETS`].
pub fn set_params(set: usize) -> &'static Params {
    let name = match set.checked_sub(reg::SETS.len()) {
        None => reg::SETS[set],
        Some(i) => reg::SHA2_SETS[i],
    };
    params::by_name(name).expect("a FIPS 205 set name")
}

/// `ARG0` values with a set: [`reg::SETS`], then [`reg::SHA2_SETS`].
const ARGS: usize = reg::SETS.len() + reg::SHA2_SETS.len();
// The decode loops over `0..12` (hdl_gen takes literal bounds).
const _: () = assert!(ARGS == 12);

/// One constant per `ARG0` value, from its set's parameters.
fn table<const W: usize>(value: impl Fn(&Params) -> usize) -> [Constant<Bits<W>>; ARGS] {
    core::array::from_fn(|i| Constant::new((value(set_params(i)) as u64).into()))
}

/// Per `ARG0` value, whether a block of `CONFIG` = `config` takes it (the
/// contract's [`reg::set_name`]).
fn offered_args(config: u64) -> [Constant<Bit>; ARGS] {
    core::array::from_fn(|arg| Constant::new(reg::set_name(arg as u32, config as u32).is_some()))
}

/// `CONFIG` of a block (the contract's [`reg::config`]): the rounds a
/// clock of its sponge (0 for none) and whether it takes the SHA2 sets.
const fn config(rounds: usize, sha2: bool) -> u64 {
    reg::config(rounds as u32, sha2) as u64
}

pl_top! {
    /// The SLH-DSA engine's block: the top's logic, with a port to an
    /// outside sponge ([`SlhDsaAccel`] gives it its own; [`super::EnginesAccel`]
    /// the shared one).
    SlhDsaBlock {
        regs: CtrlRegs = CtrlRegs::new(regmap::slhdsa::ID),
        core: SlhDsaEngine<SPONGE_ROUNDS_PER_CLOCK> = SlhDsaEngine::default(),
        /// The core's port to an outside sponge (see
        /// [`Self::with_outside_sponge`]).
        pub(crate) sponge_port: SpongePort = Default::default(),
        /// Another block holds the outside sponge: a start is refused
        /// (`STATUS_DONE | STATUS_ERROR`). Low in a top of its own.
        pub(crate) sponge_taken: Signal<In, Bit> = Default::default(),
        all_bytes: Constant<Bits<4>> = Constant::new(0xF.into()),
        op_keygen: Constant<Bits<8>> = Constant::new((reg::OP_KEYGEN as u64).into()),
        op_sign: Constant<Bits<8>> = Constant::new((reg::OP_SIGN as u64).into()),
        op_verify: Constant<Bits<8>> = Constant::new((reg::OP_VERIFY as u64).into()),
        op_abort: Constant<Bits<8>> = Constant::new((reg::OP_ABORT as u64).into()),
        engine_keygen: Constant<Bits<2>> = Constant::new(OP_KEYGEN.into()),
        engine_sign: Constant<Bits<2>> = Constant::new(OP_SIGN.into()),
        engine_verify: Constant<Bits<2>> = Constant::new(OP_VERIFY.into()),
        config_word: Constant<Bits<32>> =
            Constant::new(config(SPONGE_ROUNDS_PER_CLOCK, false).into()),
        verdict_valid: Constant<Bits<32>> = Constant::new((reg::VERDICT_VALID as u64).into()),
        verdict_invalid: Constant<Bits<32>> = Constant::new((reg::VERDICT_INVALID as u64).into()),
        root_start: Constant<Bits<6>> = Constant::new(16.into()),
        md_start: Constant<Bits<6>> = Constant::new(24.into()),
        indices_start: Constant<Bits<6>> = Constant::new(34.into()),
        /// Per `ARG0` value, whether the block takes it: what its CONFIG
        /// offers by the contract (any other value is refused).
        offered: [Constant<Bit>; ARGS] = offered_args(config(SPONGE_ROUNDS_PER_CLOCK, false)),
        /// The request running is of a SHA2 set: the block's hashes go to
        /// the SHA-2 engine (held from the accepted start to the next).
        pub(crate) hash_sha2: Signal<Out, Bit> = Default::default(),
        sha2_reg: DFF<Bit> = Default::default(),
        n_table: [Constant<Bits<6>>; ARGS] = table(|p| p.n),
        a_table: [Constant<Bits<4>>; ARGS] = table(|p| p.a),
        k_table: [Constant<Bits<6>>; ARGS] = table(|p| p.k),
        height_table: [Constant<Bits<4>>; ARGS] = table(|p| p.hp),
        layers_table: [Constant<Bits<5>>; ARGS] = table(|p| p.d),
        /// Per `ARG0` value: a SHA2 set, whose hashes go to the SHA-2
        /// engine (`hash_sha2`).
        sha2_table: [Constant<Bit>; ARGS] =
            core::array::from_fn(|i| Constant::new(set_params(i).family == HashFamily::Sha2)),
        n_reg: DFF<Bits<6>> = Default::default(),
        a_reg: DFF<Bits<4>> = Default::default(),
        k_reg: DFF<Bits<6>> = Default::default(),
        height_reg: DFF<Bits<4>> = Default::default(),
        layers_reg: DFF<Bits<5>> = Default::default(),
        operation: DFF<Bits<2>> = Default::default(),
        keying: DFF<Bit> = Default::default(),
        loading: DFF<Bit> = Default::default(),
        position: DFF<Bits<6>> = Default::default(),
        last_position: DFF<Bits<6>> = Default::default(),
        tree_low: DFF<Bits<32>> = Default::default(),
        tree_high: DFF<Bits<32>> = Default::default(),
        leaf: DFF<Bits<10>> = Default::default(),
        launch: DFF<Bit> = Default::default(),
        handed: DFF<Bit> = Default::default(),
        sending: DFF<Bit> = Default::default(),
        verdict_word: DFF<Bits<32>> = Default::default(),
        top_done: DFF<Bit> = Default::default(),
        top_error: DFF<Bit> = Default::default(),
        cycle_count: DFF<Bits<32>> = Default::default(),
        any_busy: Signal<Local, Bit> = Default::default(),
        take_word: Signal<Local, Bit> = Default::default(),
        header_end: Signal<Local, Bit> = Default::default(),
        drop_root: Signal<Local, Bit> = Default::default(),
        md_offset: Signal<Local, Bits<6>> = Default::default(),
        arg_offered: Signal<Local, Bit> = Default::default(),
        sha2_set: Signal<Local, Bit> = Default::default(),
    }
}

pl_top_around! {
    /// The SLH-DSA engine (key generation, signing, verification) behind
    /// the AXI4-Lite control block.
    SlhDsaAccel around SlhDsaBlock = SlhDsaBlock::default()
}

pl_top_around! {
    /// The SLH-DSA engine of the SLH-DSA-SHA2 sets ([`reg::SHA2_SETS`];
    /// `CONFIG_SHA2`, no sponge): the engine's jobs hash on the SHA-2
    /// engine ([`Sha2TweakEngine`]: SHA-256, and SHA-512 for the H and T_l
    /// of categories 3 and 5) behind their sponge port. The SHAKE sets are
    /// refused. Tested and exported; no PL configuration builds it.
    SlhDsaSha2Accel around SlhDsaBlock = SlhDsaBlock::on_sha2(),
    hashing on hash: Sha2TweakEngine = Sha2TweakEngine::default()
}

impl SlhDsaBlock {
    /// The block of [`SlhDsaSha2Accel`]: the SHA2 sets, on an outside
    /// SHA-2 engine.
    pub fn on_sha2() -> Self {
        Self::with_outside_sponge().with_config(config(0, true))
    }

    /// The block of [`super::EnginesAccel`]: the SHAKE sets on the shared
    /// sponge and the SHA2 sets on the SHA-2 engine, both outside it
    /// behind `sponge_port` (`hash_sha2` says which).
    pub fn on_sponge_and_sha2() -> Self {
        Self::with_outside_sponge().with_config(config(SPONGE_ROUNDS_PER_CLOCK, true))
    }

    /// The block with CONFIG = `config` and the sets it offers (the
    /// contract's `set_name`): the two always agree.
    fn with_config(self, config: u64) -> Self {
        Self {
            config_word: Constant::new(config.into()),
            offered: offered_args(config),
            ..self
        }
    }

    /// The block whose engine hashes on a sponge outside it, behind
    /// `sponge_port` (the shared configuration,
    /// `SpongeEngine::with_kept_chain_and_squeeze_tail`), as in
    /// [`super::EnginesAccel`].
    pub fn with_outside_sponge() -> Self {
        Self {
            core: SlhDsaEngine::with_outside_sponge(),
            ..Self::default()
        }
    }
}

impl Logic for SlhDsaBlock {
    #[hdl_gen]
    fn update(&mut self) {
        self.regs.clock.next = self.aclk.val();
        self.regs.resetn.next = self.aresetn.val();
        self.regs.awaddr.next = self.s_axi_awaddr.val();
        self.regs.awvalid.next = self.s_axi_awvalid.val();
        self.s_axi_awready.next = self.regs.awready.val();
        self.regs.wdata.next = self.s_axi_wdata.val();
        self.regs.wstrb.next = self.s_axi_wstrb.val();
        self.regs.wvalid.next = self.s_axi_wvalid.val();
        self.s_axi_wready.next = self.regs.wready.val();
        self.s_axi_bresp.next = self.regs.bresp.val();
        self.s_axi_bvalid.next = self.regs.bvalid.val();
        self.regs.bready.next = self.s_axi_bready.val();
        self.regs.araddr.next = self.s_axi_araddr.val();
        self.regs.arvalid.next = self.s_axi_arvalid.val();
        self.s_axi_arready.next = self.regs.arready.val();
        self.s_axi_rdata.next = self.regs.rdata.val();
        self.s_axi_rresp.next = self.regs.rresp.val();
        self.s_axi_rvalid.next = self.regs.rvalid.val();
        self.regs.rready.next = self.s_axi_rready.val();
        self.m_axis_tkeep.next = self.all_bytes.val();

        dff_setup!(
            self,
            aclk,
            n_reg,
            a_reg,
            k_reg,
            height_reg,
            layers_reg,
            operation,
            keying,
            loading,
            position,
            last_position,
            tree_low,
            tree_high,
            leaf,
            launch,
            handed,
            sending,
            verdict_word,
            top_done,
            top_error,
            cycle_count,
            sha2_reg
        );
        self.launch.d.next = false;
        self.core.clock.next = self.aclk.val();
        self.core.reset.next = !self.aresetn.val();
        // The core's port to an outside sponge (zeros, unused, unless the
        // top is built with one).
        SpongePort::link(&mut self.sponge_port, &mut self.core.sponge_port);
        self.core.start.next = false;
        self.core.abort_job.next = false;
        self.core.operation.next = self.operation.q.val();
        self.core.n_bytes.next = self.n_reg.q.val();
        self.core.fors_height.next = self.a_reg.q.val();
        self.core.trees.next = self.k_reg.q.val();
        self.core.tree_height.next = self.height_reg.q.val();
        self.core.layers.next = self.layers_reg.q.val();
        self.core.idx_tree.next = (bit_cast::<64, 32>(self.tree_high.q.val()) << 32)
            | bit_cast::<64, 32>(self.tree_low.q.val());
        self.core.idx_leaf.next = self.leaf.q.val();
        self.core.in_data.next = self.s_axis_tdata.val();
        self.core.in_valid.next = self.s_axis_tvalid.val() & self.handed.q.val();
        self.core.in_last.next = self.s_axis_tlast.val();
        // Past the tables: not offered.
        self.arg_offered.next = false;
        self.sha2_set.next = false;
        for i in 0..12 {
            if self.regs.arg0.val().index() == i {
                self.arg_offered.next = self.offered[i].val();
                self.sha2_set.next = self.sha2_table[i].val();
            }
        }
        self.hash_sha2.next = self.sha2_reg.q.val();
        self.any_busy.next =
            self.loading.q.val() | self.launch.q.val() | self.handed.q.val() | self.sending.q.val();

        // The header, a word a clock, by its position: 0..7 SK.seed, 8..15
        // PK.seed, 16..23 PK.root, 24..33 md, 34 and 35 idx_tree, 36
        // idx_leaf.
        self.core.seed_write.next = false;
        self.core.seed_index.next = bit_cast::<4, 3>(self.position.q.val().get_bits::<3>(0))
            | (bit_cast::<4, 1>(!self.position.q.val().get_bits::<1>(3)) << 3);
        self.core.seed_word.next = self.s_axis_tdata.val();
        self.core.root_write.next = false;
        self.core.root_index.next = self.position.q.val().get_bits::<3>(0);
        self.core.root_word.next = self.s_axis_tdata.val();
        self.core.md_write.next = false;
        // (A local: Verilog cannot slice an expression.)
        self.md_offset.next = self.position.q.val() - self.md_start.val();
        self.core.md_index.next = self.md_offset.val().get_bits::<4>(0);
        self.core.md_word.next = self.s_axis_tdata.val();
        self.s_axis_tready.next =
            self.loading.q.val() | (self.handed.q.val() & self.core.in_ready.val());
        self.take_word.next = self.loading.q.val() & self.s_axis_tvalid.val();
        self.header_end.next = self.position.q.val() == self.last_position.q.val();
        if self.take_word.val() {
            self.position.d.next = self.position.q.val() + 1;
            if self.position.q.val() < self.root_start.val() {
                self.core.seed_write.next = true;
            } else if self.position.q.val() < self.md_start.val() {
                self.core.root_write.next = true;
            } else if self.position.q.val() < self.indices_start.val() {
                self.core.md_write.next = true;
            } else if self.position.q.val() == 34 {
                self.tree_low.d.next = self.s_axis_tdata.val();
            } else if self.position.q.val() == 35 {
                self.tree_high.d.next = self.s_axis_tdata.val();
            } else {
                self.leaf.d.next = self.s_axis_tdata.val().get_bits::<10>(0);
            }
            // TLAST ends the header of key generation and signing, and
            // nowhere else; verification's signature follows its header.
            if self.header_end.val() {
                self.loading.d.next = false;
                if self.s_axis_tlast.val() == (self.operation.q.val() != self.engine_verify.val()) {
                    self.launch.d.next = true;
                } else {
                    self.top_done.d.next = true;
                    self.top_error.d.next = true;
                }
            } else if self.s_axis_tlast.val() {
                self.loading.d.next = false;
                self.top_done.d.next = true;
                self.top_error.d.next = true;
            }
        }

        // The engine starts the clock after the header's last word (which
        // for signing and verification is idx_leaf, still on its way into
        // its register).
        if self.launch.q.val() {
            self.core.start.next = true;
            self.handed.d.next = true;
        }

        if self.regs.start.val() {
            if self.regs.op.val() == self.op_abort.val() {
                self.loading.d.next = false;
                self.launch.d.next = false;
                self.core.abort_job.next = true;
                self.handed.d.next = false;
                self.sending.d.next = false;
                self.top_done.d.next = true;
                self.top_error.d.next = true;
            } else if !self.any_busy.val() {
                self.top_done.d.next = false;
                self.top_error.d.next = false;
                self.loading.d.next = true;
                self.position.d.next = 0.into();
                self.last_position.d.next = 36.into();
                self.keying.d.next = false;
                if self.regs.op.val() == self.op_keygen.val() {
                    self.operation.d.next = self.engine_keygen.val();
                    self.keying.d.next = true;
                    self.last_position.d.next = 15.into();
                } else if self.regs.op.val() == self.op_sign.val() {
                    self.operation.d.next = self.engine_sign.val();
                } else if self.regs.op.val() == self.op_verify.val() {
                    self.operation.d.next = self.engine_verify.val();
                    self.position.d.next = 8.into();
                } else {
                    self.loading.d.next = false;
                    self.top_done.d.next = true;
                    self.top_error.d.next = true;
                }
                self.sha2_reg.d.next = self.sha2_set.val();
                for i in 0..12 {
                    if self.regs.arg0.val().index() == i {
                        self.n_reg.d.next = self.n_table[i].val();
                        self.a_reg.d.next = self.a_table[i].val();
                        self.k_reg.d.next = self.k_table[i].val();
                        self.height_reg.d.next = self.height_table[i].val();
                        self.layers_reg.d.next = self.layers_table[i].val();
                    }
                }
                if !self.arg_offered.val() | self.sponge_taken.val() {
                    self.loading.d.next = false;
                    self.top_done.d.next = true;
                    self.top_error.d.next = true;
                }
            }
        }

        // The engine's end: an error ends the request; key generation is
        // done with its output; signing and verification send the verdict.
        if self.handed.q.val() & self.core.done.val() {
            self.handed.d.next = false;
            if self.core.error.val() {
                self.top_done.d.next = true;
                self.top_error.d.next = true;
            } else if self.keying.q.val() {
                self.top_done.d.next = true;
            } else {
                self.sending.d.next = true;
                self.verdict_word.d.next = self.verdict_invalid.val();
                if self.core.verdict.val() {
                    self.verdict_word.d.next = self.verdict_valid.val();
                }
            }
        }
        if self.sending.q.val() & self.m_axis_tready.val() {
            self.sending.d.next = false;
            self.top_done.d.next = true;
        }

        // The output: the engine's words, but the top root only for key
        // generation (after signing and verification it stays in the PL).
        self.drop_root.next = self.core.out_root.val() & !self.keying.q.val();
        self.core.out_ready.next = self.m_axis_tready.val() | self.drop_root.val();
        self.m_axis_tdata.next = self.core.out_data.val();
        self.m_axis_tvalid.next =
            self.handed.q.val() & self.core.out_valid.val() & !self.drop_root.val();
        self.m_axis_tlast.next = self.keying.q.val() & self.core.out_last.val();
        if self.sending.q.val() {
            self.m_axis_tdata.next = self.verdict_word.q.val();
            self.m_axis_tvalid.next = true;
            self.m_axis_tlast.next = true;
        }

        self.regs.busy.next = self.any_busy.val();
        self.regs.done.next = self.top_done.q.val();
        self.regs.error.next = self.top_error.q.val();
        self.regs.core_config.next = self.config_word.val();
        self.regs.cycles.next = self.cycle_count.q.val();
        self.regs.result.next = 0.into();
        self.busy.next = self.any_busy.val();

        // Clocks since the accepted start, until done.
        self.cycle_count.d.next = self.cycle_count.q.val();
        if self.regs.start.val() & !self.any_busy.val() {
            self.cycle_count.d.next = 1.into();
        } else if self.any_busy.val() {
            self.cycle_count.d.next = self.cycle_count.q.val() + 1;
        }
        if !self.aresetn.val() {
            self.loading.d.next = false;
            self.launch.d.next = false;
            self.handed.d.next = false;
            self.sending.d.next = false;
            self.top_done.d.next = false;
            self.top_error.d.next = false;
            self.cycle_count.d.next = 0.into();
        }
    }
}
