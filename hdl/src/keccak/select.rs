//! [`SpongeSelect`]: the sponge of a block that may share it.
//!
//! A job that hashes (the ML-DSA engine, the SLH-DSA leaf job) drives a
//! `SpongeSelect` exactly as it would drive a [`SpongeEngine`]: the same
//! ports with the same meaning. Built with [`SpongeSelect::own`], the
//! select holds the job's own engine; built with
//! [`SpongeSelect::outside`], it hands every request to [`SpongePort`]
//! and returns that port's responses, so that a block above can give two
//! jobs one engine. The choice is a build constant: the other path's
//! logic is constant and synthesis removes it (in an outside select, the
//! own engine is held in reset and nothing reads it, so none of it is
//! left), and a select's port drives zeros while it is unused.

use super::SpongeEngine;
use rust_hdl::prelude::*;

/// A sponge engine's request and stream ports, seen from the job that
/// drives it: the same names and meanings as [`SpongeEngine`]'s.
#[derive(LogicInterface, Default)]
pub struct SpongePort {
    /// Synchronous reset of the engine.
    pub reset: Signal<Out, Bit>,
    /// Start a request.
    pub start: Signal<Out, Bit>,
    /// The request's operation.
    pub op: Signal<Out, Bits<8>>,
    /// First argument.
    pub arg0: Signal<Out, Bits<32>>,
    /// Second argument.
    pub arg1: Signal<Out, Bits<32>>,
    /// Third argument.
    pub arg2: Signal<Out, Bits<32>>,
    /// A request runs.
    pub busy: Signal<In, Bit>,
    /// The request is done.
    pub done: Signal<In, Bit>,
    /// The request was refused or its stream was malformed.
    pub error: Signal<In, Bit>,
    /// Input stream data.
    pub in_data: Signal<Out, Bits<32>>,
    /// Input stream valid.
    pub in_valid: Signal<Out, Bit>,
    /// Input stream last.
    pub in_last: Signal<Out, Bit>,
    /// Input stream ready.
    pub in_ready: Signal<In, Bit>,
    /// Output stream data.
    pub out_data: Signal<In, Bits<32>>,
    /// Output stream valid.
    pub out_valid: Signal<In, Bit>,
    /// Output stream last.
    pub out_last: Signal<In, Bit>,
    /// Output stream ready.
    pub out_ready: Signal<Out, Bit>,
}

/// A job's sponge: its own engine, or [`SpongePort`] to one outside (see
/// the module docs).
#[derive(LogicBlock)]
pub struct SpongeSelect<const R: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// As [`SpongeEngine::reset`].
    pub reset: Signal<In, Bit>,
    /// As [`SpongeEngine::start`].
    pub start: Signal<In, Bit>,
    /// As [`SpongeEngine::op`].
    pub op: Signal<In, Bits<8>>,
    /// As [`SpongeEngine::arg0`].
    pub arg0: Signal<In, Bits<32>>,
    /// As [`SpongeEngine::arg1`].
    pub arg1: Signal<In, Bits<32>>,
    /// As [`SpongeEngine::arg2`].
    pub arg2: Signal<In, Bits<32>>,
    /// As [`SpongeEngine::busy`].
    pub busy: Signal<Out, Bit>,
    /// As [`SpongeEngine::done`].
    pub done: Signal<Out, Bit>,
    /// As [`SpongeEngine::error`].
    pub error: Signal<Out, Bit>,
    /// As [`SpongeEngine::in_data`].
    pub in_data: Signal<In, Bits<32>>,
    /// As [`SpongeEngine::in_valid`].
    pub in_valid: Signal<In, Bit>,
    /// As [`SpongeEngine::in_last`].
    pub in_last: Signal<In, Bit>,
    /// As [`SpongeEngine::in_ready`].
    pub in_ready: Signal<Out, Bit>,
    /// As [`SpongeEngine::out_data`].
    pub out_data: Signal<Out, Bits<32>>,
    /// As [`SpongeEngine::out_valid`].
    pub out_valid: Signal<Out, Bit>,
    /// As [`SpongeEngine::out_last`].
    pub out_last: Signal<Out, Bit>,
    /// As [`SpongeEngine::out_ready`].
    pub out_ready: Signal<In, Bit>,
    /// The engine outside (an outside select's only path).
    pub port: SpongePort,
    /// The own engine (held in reset in an outside select).
    own: SpongeEngine<R>,
    /// Built with [`SpongeSelect::outside`].
    outside: Constant<Bit>,
}

impl<const R: usize> SpongeSelect<R> {
    /// A select holding `engine`, the job's own.
    pub fn own(engine: SpongeEngine<R>) -> Self {
        Self::build(engine, false)
    }

    /// A select that hands every request to its port (the own engine is
    /// unused; built as the plain engine).
    pub fn outside() -> Self {
        Self::build(SpongeEngine::default(), true)
    }

    fn build(own: SpongeEngine<R>, outside: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
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
            port: Default::default(),
            own,
            outside: Constant::new(outside),
        }
    }
}

impl<const R: usize> Logic for SpongeSelect<R> {
    #[hdl_gen]
    fn update(&mut self) {
        self.own.clock.next = self.clock.val();
        // The own engine: the requests, or held in reset and idle.
        self.own.reset.next = self.reset.val() | self.outside.val();
        self.own.start.next = self.start.val() & !self.outside.val();
        self.own.op.next = self.op.val();
        self.own.arg0.next = self.arg0.val();
        self.own.arg1.next = self.arg1.val();
        self.own.arg2.next = self.arg2.val();
        self.own.in_data.next = self.in_data.val();
        self.own.in_valid.next = self.in_valid.val() & !self.outside.val();
        self.own.in_last.next = self.in_last.val();
        self.own.out_ready.next = self.out_ready.val() & !self.outside.val();
        // The port: the requests, or zeros.
        self.port.reset.next = false;
        self.port.start.next = false;
        self.port.op.next = 0.into();
        self.port.arg0.next = 0.into();
        self.port.arg1.next = 0.into();
        self.port.arg2.next = 0.into();
        self.port.in_data.next = 0.into();
        self.port.in_valid.next = false;
        self.port.in_last.next = false;
        self.port.out_ready.next = false;
        // The responses: the own engine's, or the port's.
        self.busy.next = self.own.busy.val();
        self.done.next = self.own.done.val();
        self.error.next = self.own.error.val();
        self.in_ready.next = self.own.in_ready.val();
        self.out_data.next = self.own.out_data.val();
        self.out_valid.next = self.own.out_valid.val();
        self.out_last.next = self.own.out_last.val();
        if self.outside.val() {
            self.port.reset.next = self.reset.val();
            self.port.start.next = self.start.val();
            self.port.op.next = self.op.val();
            self.port.arg0.next = self.arg0.val();
            self.port.arg1.next = self.arg1.val();
            self.port.arg2.next = self.arg2.val();
            self.port.in_data.next = self.in_data.val();
            self.port.in_valid.next = self.in_valid.val();
            self.port.in_last.next = self.in_last.val();
            self.port.out_ready.next = self.out_ready.val();
            self.busy.next = self.port.busy.val();
            self.done.next = self.port.done.val();
            self.error.next = self.port.error.val();
            self.in_ready.next = self.port.in_ready.val();
            self.out_data.next = self.port.out_data.val();
            self.out_valid.next = self.port.out_valid.val();
            self.out_last.next = self.port.out_last.val();
        }
    }
}

/// A job that can hash on an outside engine (tests).
#[cfg(test)]
pub(crate) trait OutsideSpongeJob: Block {
    /// The job built with its outside select.
    fn on_outside_sponge() -> Self;
    /// Its port to the engine.
    fn sponge_port(&mut self) -> &mut SpongePort;
    /// Its clock input.
    fn job_clock(&mut self) -> &mut Signal<In, Clock>;
}

/// An engine that serves a job's [`SpongePort`] (tests): the shared
/// sponge, or the SLH-DSA-SHA2 hash engine, which takes the same requests.
#[cfg(test)]
pub(crate) trait PortEngine: Block {
    /// The engine as the block above the jobs builds it.
    fn for_jobs() -> Self;
    /// Drives the engine from `port` and `port` from the engine.
    fn serve(&mut self, clock: Clock, port: &mut SpongePort);
}

/// Wires an engine with [`SpongeEngine`]'s request and stream ports to a
/// job's [`SpongePort`] (tests).
#[cfg(test)]
macro_rules! serve_sponge_port {
    ($engine:expr, $port:expr, $clock:expr) => {{
        let (engine, port) = ($engine, $port);
        engine.clock.next = $clock;
        engine.reset.next = port.reset.val();
        engine.start.next = port.start.val();
        engine.op.next = port.op.val();
        engine.arg0.next = port.arg0.val();
        engine.arg1.next = port.arg1.val();
        engine.arg2.next = port.arg2.val();
        engine.in_data.next = port.in_data.val();
        engine.in_valid.next = port.in_valid.val();
        engine.in_last.next = port.in_last.val();
        engine.out_ready.next = port.out_ready.val();
        port.busy.next = engine.busy.val();
        port.done.next = engine.done.val();
        port.error.next = engine.error.val();
        port.in_ready.next = engine.in_ready.val();
        port.out_data.next = engine.out_data.val();
        port.out_valid.next = engine.out_valid.val();
        port.out_last.next = engine.out_last.val();
    }};
}
#[cfg(test)]
pub(crate) use serve_sponge_port;

#[cfg(test)]
impl<const R: usize> PortEngine for SpongeEngine<R> {
    /// The configuration the engines share: kept chains, squeeze tail.
    fn for_jobs() -> Self {
        SpongeEngine::with_kept_chain_and_squeeze_tail()
    }
    fn serve(&mut self, clock: Clock, port: &mut SpongePort) {
        serve_sponge_port!(self, port, clock);
    }
}

/// A job on an engine outside it (tests): the job built with its outside
/// select and `E` built as the block above the jobs builds it, wired as
/// that block would wire them. Simulation only: no Verilog of its own.
#[cfg(test)]
#[derive(LogicBlock)]
pub(crate) struct OnOutsideEngine<J: OutsideSpongeJob, E: PortEngine> {
    pub clock: Signal<In, Clock>,
    pub job: J,
    pub engine: E,
}

/// A job on the sponge the engines share (R rounds a clock, kept chains
/// and the squeeze tail).
#[cfg(test)]
pub(crate) type OnSharedSponge<J, const R: usize> = OnOutsideEngine<J, SpongeEngine<R>>;

#[cfg(test)]
impl<J: OutsideSpongeJob, E: PortEngine> Default for OnOutsideEngine<J, E> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            job: J::on_outside_sponge(),
            engine: E::for_jobs(),
        }
    }
}

#[cfg(test)]
impl<J: OutsideSpongeJob, E: PortEngine> Logic for OnOutsideEngine<J, E> {
    fn update(&mut self) {
        let clock = self.clock.val();
        self.job.job_clock().next = clock;
        let port = self.job.sponge_port();
        self.engine.serve(clock, port);
    }
}
