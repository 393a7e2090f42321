//! The SLH-DSA-SHA2 hash engine of every security category: the SHA-256
//! engine ([`Sha256TweakEngine`]: F, PRF, chains, and H / T_l of
//! category 1) and the SHA-512 H / T_l engine of categories 3 and 5
//! ([`Sha512TweakEngine`]) behind one set of the sponge engine's request
//! and stream ports, so that the SLH-DSA jobs run on it unchanged.
//!
//! A request goes to the SHA-512 engine when it is an `OP_SPONGE` with
//! `ARG2` = n ∈ {24, 32}, and to the SHA-256 engine otherwise (which
//! refuses what it does not take). `start` reaches the chosen engine only
//! while neither is busy; the ports then show that engine until the next
//! request. `OP_ABORT` and `abort_job` abort both. The SHA-256 engine's
//! kept prefix survives a SHA-512 request, as it survives its own
//! `OP_SPONGE` (the jobs send one PK.seed to all requests).
//!
//! Each engine's figures are its own: the router adds one register (the
//! route) and the port multiplexers.

use super::tweak::Sha256TweakEngine;
use super::tweak512::Sha512TweakEngine;
use ps_pl_contract::regmap::keccak as regs;
use rust_hdl::prelude::*;

/// The SHA-256 and SHA-512 hash engines behind one port; see the module
/// documentation.
#[derive(LogicBlock)]
pub struct Sha2TweakEngine {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of both engines, active high.
    pub reset: Signal<In, Bit>,
    /// Start a request (taken when not busy; `OP_ABORT` always).
    pub start: Signal<In, Bit>,
    /// Abort both engines.
    pub abort_job: Signal<In, Bit>,
    /// The request's op code.
    pub op: Signal<In, Bits<8>>,
    /// First argument.
    pub arg0: Signal<In, Bits<32>>,
    /// Second argument.
    pub arg1: Signal<In, Bits<32>>,
    /// Third argument.
    pub arg2: Signal<In, Bits<32>>,
    /// A request is in progress.
    pub busy: Signal<Out, Bit>,
    /// The last request ended.
    pub done: Signal<Out, Bit>,
    /// The last request was refused, malformed or aborted.
    pub error: Signal<Out, Bit>,
    /// Input stream data.
    pub in_data: Signal<In, Bits<32>>,
    /// Input stream TVALID.
    pub in_valid: Signal<In, Bit>,
    /// Input stream TLAST.
    pub in_last: Signal<In, Bit>,
    /// Input stream TREADY.
    pub in_ready: Signal<Out, Bit>,
    /// Output stream TDATA.
    pub out_data: Signal<Out, Bits<32>>,
    /// Output stream TVALID.
    pub out_valid: Signal<Out, Bit>,
    /// Output stream TLAST.
    pub out_last: Signal<Out, Bit>,
    /// Output stream TREADY.
    pub out_ready: Signal<In, Bit>,
    sha256: Sha256TweakEngine,
    sha512: Sha512TweakEngine,
    /// The ports show the SHA-512 engine.
    route512: DFF<Bit>,
    /// The request at the port is the SHA-512 engine's.
    to512: Signal<Local, Bit>,
    /// `start` for a request (not an abort) while neither engine is busy.
    take: Signal<Local, Bit>,
    abort_now: Signal<Local, Bit>,
    op_sponge: Constant<Bits<8>>,
    op_abort: Constant<Bits<8>>,
}

impl Default for Sha2TweakEngine {
    fn default() -> Self {
        let op = |code: u32| Constant::new(u64::from(code).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            abort_job: Default::default(),
            op: Default::default(),
            arg0: Default::default(),
            arg1: Default::default(),
            arg2: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            error: Default::default(),
            in_data: Default::default(),
            in_valid: Default::default(),
            in_last: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_last: Default::default(),
            out_ready: Default::default(),
            sha256: Default::default(),
            sha512: Default::default(),
            route512: Default::default(),
            to512: Default::default(),
            take: Default::default(),
            abort_now: Default::default(),
            op_sponge: op(regs::OP_SPONGE),
            op_abort: op(regs::OP_ABORT),
        }
    }
}

impl Logic for Sha2TweakEngine {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, sha256, sha512);
        dff_setup!(self, clock, route512);
        self.abort_now.next =
            self.abort_job.val() | (self.start.val() & (self.op.val() == self.op_abort.val()));
        self.to512.next = (self.op.val() == self.op_sponge.val())
            & ((self.arg2.val() == 24) | (self.arg2.val() == 32));
        self.take.next = self.start.val()
            & !self.abort_now.val()
            & !self.sha256.busy.val()
            & !self.sha512.busy.val();
        if self.take.val() {
            self.route512.d.next = self.to512.val();
        }

        self.sha256.reset.next = self.reset.val();
        self.sha256.start.next = self.take.val() & !self.to512.val();
        self.sha256.abort_job.next = self.abort_now.val();
        self.sha256.op.next = self.op.val();
        self.sha256.arg0.next = self.arg0.val();
        self.sha256.arg1.next = self.arg1.val();
        self.sha256.arg2.next = self.arg2.val();
        self.sha256.in_data.next = self.in_data.val();
        self.sha256.in_valid.next = self.in_valid.val() & !self.route512.q.val();
        self.sha256.in_last.next = self.in_last.val();
        self.sha256.out_ready.next = self.out_ready.val() & !self.route512.q.val();

        self.sha512.reset.next = self.reset.val();
        self.sha512.start.next = self.take.val() & self.to512.val();
        self.sha512.abort_job.next = self.abort_now.val();
        self.sha512.op.next = self.op.val();
        self.sha512.arg0.next = self.arg0.val();
        self.sha512.arg1.next = self.arg1.val();
        self.sha512.arg2.next = self.arg2.val();
        self.sha512.in_data.next = self.in_data.val();
        self.sha512.in_valid.next = self.in_valid.val() & self.route512.q.val();
        self.sha512.in_last.next = self.in_last.val();
        self.sha512.out_ready.next = self.out_ready.val() & self.route512.q.val();

        self.busy.next = self.sha256.busy.val() | self.sha512.busy.val();
        self.done.next = self.sha256.done.val();
        self.error.next = self.sha256.error.val();
        self.in_ready.next = self.sha256.in_ready.val();
        self.out_data.next = self.sha256.out_data.val();
        self.out_valid.next = self.sha256.out_valid.val();
        self.out_last.next = self.sha256.out_last.val();
        if self.route512.q.val() {
            self.done.next = self.sha512.done.val();
            self.error.next = self.sha512.error.val();
            self.in_ready.next = self.sha512.in_ready.val();
            self.out_data.next = self.sha512.out_data.val();
            self.out_valid.next = self.sha512.out_valid.val();
            self.out_last.next = self.sha512.out_last.val();
        }
        if self.reset.val() {
            self.route512.d.next = false;
        }
    }
}
