//! The hardware backends of `pqc`: [`HwRing`] (ring arithmetic on the NTT
//! core), [`HwKeccak`] (sponge and WOTS+ chains on the Keccak engine) and
//! [`HwMlDsa`] (whole ML-DSA operations on the ML-DSA engine),
//! each over a control block ([`Control`], the registers of
//! [`ps_pl_contract::regmap::ctrl`]) and an AXI DMA in simple mode ([`DmaPort`]).
//!
//! # Never a wrong result, never a hang
//!
//! The `pqc` backend traits are infallible. Every wait here is bounded
//! ([`crate::poll`]); when a job fails (timeout, DMA error, `STATUS_ERROR`,
//! wrong ID or version, a short stream or an out-of-range coefficient) the
//! backend computes that call with the software backend
//! ([`pqc::ring::SoftRing`], [`pqc::keccak::SoftKeccak`]), records the
//! first fault ([`HwRing::fault`], sticky) and uses software only from
//! then on. Outputs are written only after a whole job succeeded, so an
//! in-place call that fails half-way still sees its original input.
//! Requests the hardware cannot take at all (longer than the DMA buffers,
//! a malformed argument the software backend rejects by panicking) go to
//! software without a fault; [`AccelStats::sw_calls`] counts them.
//!
//! # Memory the DMA engine can see
//!
//! A [`DmaPort`] owns the DMA driver ([`AxiDma`] over any
//! [`RegisterBus`]), a [`CacheMaintenance`], an [`AddressMap`] and two
//! borrowed byte buffers: the *source* (the engine reads it, MM2S) and the
//! *destination* (the engine writes it, S2MM; must start and end on a
//! [`LINE_BYTES`] boundary, see [`line_aligned`]). The backends copy
//! operands into the source and results out of the destination; the
//! cache maintenance and the bus addresses come from the two traits, so
//! no `unsafe` is needed anywhere:
//!
//! - **Firmware**: line-aligned arrays that live as long as the backends
//!   (ps-app keeps them in the frame of its never-returning entry function,
//!   which needs no `static mut`), [`crate::dma::IdentityMap`]
//!   (the MMU maps one-to-one), [`crate::cache::ZynqCaches`] and
//!   [`crate::mmio::Mmio`] windows at the [`ps_pl_contract::regmap`] bases.
//! - **Host models** (the tests here, the `sim` co-simulation): allocate
//!   one arena (`Vec<u8>`), take the two buffers from it with
//!   [`line_aligned`], and map them with [`crate::dma::OffsetMap`] over the
//!   arena's start address (`as_ptr() as usize`, safe), so that bus address
//!   = model base + offset in the arena. The simulated DDR is an `Rc<RefCell<…>>` shared by
//!   the cache model and the simulated DMA: `clean` copies the CPU buffer
//!   into the DDR model, `invalidate` copies the DDR model back into the
//!   buffer (exactly what a write-back cache makes visible), and the DMA
//!   model reads and writes the DDR model at the programmed addresses.
//!   See `accel::model` (tests and the `host-model` feature) for a complete example.
//!
//! # Job sequence
//!
//! Each job: write `ARG0..2`, write `COMMAND = op | START`, then the DMA
//! (MM2S for input, S2MM for output, both for a sponge; the receiver is
//! always armed before the source starts), then poll `STATUS` until DONE
//! and read `CYCLES`. The core is started before its streams move, so a
//! model may process a stream as soon as it arrives. A job that may end
//! without output (ML-DSA signing refuses a malformed key) also reads
//! `STATUS` while it waits for the DMA, and stops at a refusal. Control traffic per
//! job is a fixed handful of register accesses, independent of the data.

mod keccak;
mod mldsa;
// Public with `host-model` so other crates' tests can drive the backends
// over the same model as the tests here.
#[cfg(any(test, feature = "host-model"))]
pub mod model;
mod ring;
mod slh;
mod slhdsa;
#[cfg(test)]
mod slhdsa_tests;
#[cfg(test)]
mod tests;

pub use keccak::HwKeccak;
pub use mldsa::HwMlDsa;
pub use ring::HwRing;
pub use slh::{PlShakeHashes, SlhOnPl, WotsChainOffload};
pub use slhdsa::HwSlhDsa;

use crate::bus::RegisterBus;
use crate::cache::{CacheMaintenance, LINE_BYTES};
use crate::dma::{AddressMap, AxiDma, DmaError};
use crate::poll::poll_until;
use core::fmt;
use ps_pl_contract::regmap::ctrl;

/// Why the hardware could not complete a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccelError {
    /// The ID register did not hold the core's identification word.
    WrongId {
        /// What the register map says.
        expected: u32,
        /// What was read.
        found: u32,
    },
    /// The register interface has another major version.
    WrongVersion {
        /// The VERSION register.
        found: u32,
    },
    /// `STATUS` did not show DONE within the poll budget.
    Timeout {
        /// Operation code.
        op: u32,
        /// `STATUS` at the last poll.
        status: u32,
    },
    /// The core finished with `STATUS_ERROR` (request refused).
    Refused {
        /// Operation code.
        op: u32,
        /// `STATUS` read.
        status: u32,
    },
    /// The DMA transfer failed.
    Dma(DmaError),
    /// The output stream had another length than the operation defines.
    ShortStream {
        /// Bytes expected.
        expected: usize,
        /// Bytes the engine wrote.
        received: usize,
    },
    /// The ML-DSA engine's verdict word was neither of the two verdicts.
    BadVerdict {
        /// The word read.
        value: u32,
    },
    /// The bytes past the end of a result in its final stream word (which
    /// the operation defines as zero) were not zero.
    BadPadding {
        /// The final word.
        value: u32,
    },
    /// The check word after an output stream does not match the words
    /// before it: the stream was corrupted on its way.
    BadCheck {
        /// The check word received.
        got: u32,
        /// The check of the words received.
        expected: u32,
    },
    /// The NTT core returned a coefficient that is not below q.
    BadCoefficient {
        /// Index in the polynomial.
        index: usize,
        /// The word read.
        value: u32,
    },
}

impl From<DmaError> for AccelError {
    fn from(e: DmaError) -> Self {
        AccelError::Dma(e)
    }
}

impl fmt::Display for AccelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccelError::WrongId { expected, found } => {
                write!(f, "ID {found:#010x}, expected {expected:#010x}")
            }
            AccelError::WrongVersion { found } => write!(f, "register interface {found:#010x}"),
            AccelError::Timeout { op, status } => {
                write!(f, "op {op:#04x} timed out (STATUS {status:#x})")
            }
            AccelError::Refused { op, status } => {
                write!(f, "op {op:#04x} refused (STATUS {status:#x})")
            }
            AccelError::Dma(e) => write!(f, "DMA: {e:?}"),
            AccelError::ShortStream { expected, received } => {
                write!(f, "stream of {received} bytes, expected {expected}")
            }
            AccelError::BadCoefficient { index, value } => {
                write!(f, "coefficient {index} = {value} is not below q")
            }
            AccelError::BadVerdict { value } => write!(f, "verdict word {value:#010x}"),
            AccelError::BadPadding { value } => {
                write!(f, "final word {value:#010x} has non-zero pad bytes")
            }
            AccelError::BadCheck { got, expected } => write!(
                f,
                "output check word {got:#010x}, the words give {expected:#010x}"
            ),
        }
    }
}

/// Counters of one backend (for reports: PL cycles next to CPU time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccelStats {
    /// Core operations completed (each LOAD, NTT, STORE, … is one).
    pub jobs: u64,
    /// `CYCLES` of the last completed operation.
    pub last_cycles: u32,
    /// Sum of `CYCLES` over every completed operation: PL busy cycles.
    pub busy_cycles: u64,
    /// Bytes moved by DMA in either direction.
    pub dma_bytes: u64,
    /// Backend calls computed by the hardware.
    pub hw_calls: u64,
    /// Backend calls computed in software (after a fault, or requests the
    /// hardware cannot take).
    pub sw_calls: u64,
    /// Jobs that failed and were recovered from (aborted, recomputed in
    /// software).
    pub failed_jobs: u64,
}

/// Client of one accelerator control block ([`ps_pl_contract::regmap::ctrl`]).
pub struct Control<B> {
    bus: B,
    poll_limit: u32,
    jobs: u64,
    last_cycles: u32,
    busy_cycles: u64,
}

impl<B: RegisterBus> Control<B> {
    /// A control block behind `bus`; `poll_limit` bounds every wait for DONE
    /// (in `STATUS` reads). Touches no register.
    pub fn new(bus: B, poll_limit: u32) -> Self {
        Control {
            bus,
            poll_limit,
            jobs: 0,
            last_cycles: 0,
            busy_cycles: 0,
        }
    }

    /// Checks `ID` and the major version of `VERSION`; returns `CONFIG`.
    pub fn identify(&mut self, expected_id: u32) -> Result<u32, AccelError> {
        let found = self.bus.read32(ctrl::ID);
        if found != expected_id {
            return Err(AccelError::WrongId {
                expected: expected_id,
                found,
            });
        }
        let version = self.bus.read32(ctrl::VERSION);
        if version >> 16 != ctrl::VERSION_VALUE >> 16 {
            return Err(AccelError::WrongVersion { found: version });
        }
        Ok(self.bus.read32(ctrl::CONFIG))
    }

    /// Writes the arguments and starts `op` (does not wait).
    pub fn start(&mut self, op: u32, args: [u32; 3]) {
        for (offset, value) in [ctrl::ARG0, ctrl::ARG1, ctrl::ARG2].into_iter().zip(args) {
            self.bus.write32(offset, value);
        }
        self.command(op);
    }

    /// Writes `COMMAND = op | START` alone (e.g. an abort, which takes no
    /// arguments and is accepted while busy).
    pub fn command(&mut self, op: u32) {
        self.bus.write32(
            ctrl::COMMAND,
            (op & ctrl::COMMAND_OP_MASK) | ctrl::COMMAND_START,
        );
    }

    /// One read of `STATUS`.
    pub fn status(&mut self) -> u32 {
        self.bus.read32(ctrl::STATUS)
    }

    /// One read of `RESULT` (the core's result of its last operation).
    pub fn result(&mut self) -> u32 {
        self.bus.read32(ctrl::RESULT)
    }

    /// Polls `STATUS` (bounded) until DONE; fails on `STATUS_ERROR`;
    /// returns and accumulates `CYCLES`.
    pub fn wait(&mut self, op: u32) -> Result<u32, AccelError> {
        let mut status = 0;
        let bus = &mut self.bus;
        let done = poll_until(self.poll_limit, || {
            status = bus.read32(ctrl::STATUS);
            (status & ctrl::STATUS_DONE != 0 && status & ctrl::STATUS_BUSY == 0).then_some(())
        });
        if done.is_err() {
            return Err(AccelError::Timeout { op, status });
        }
        if status & ctrl::STATUS_ERROR != 0 {
            return Err(AccelError::Refused { op, status });
        }
        let cycles = self.bus.read32(ctrl::CYCLES);
        self.jobs += 1;
        self.last_cycles = cycles;
        self.busy_cycles += u64::from(cycles);
        Ok(cycles)
    }

    /// [`Control::start`] then [`Control::wait`], for jobs without streams.
    pub fn run(&mut self, op: u32, args: [u32; 3]) -> Result<u32, AccelError> {
        self.start(op, args);
        self.wait(op)
    }

    /// `CYCLES` of the last completed operation.
    pub fn last_cycles(&self) -> u32 {
        self.last_cycles
    }

    /// Sum of `CYCLES` over the completed operations.
    pub fn busy_cycles(&self) -> u64 {
        self.busy_cycles
    }

    /// Operations completed.
    pub fn jobs(&self) -> u64 {
        self.jobs
    }

    /// The register bus.
    pub fn bus(&mut self) -> &mut B {
        &mut self.bus
    }
}

/// The largest line-aligned sub-slice of `buf` of exactly `len` bytes
/// (`len` rounded down to whole lines), or `None` if `buf` is too short.
/// For host code that allocates DMA buffers from a plain `Vec<u8>`.
pub fn line_aligned(buf: &mut [u8], len: usize) -> Option<&mut [u8]> {
    let skip = buf.as_ptr().align_offset(LINE_BYTES);
    let len = len - len % LINE_BYTES;
    if len == 0 {
        return None;
    }
    buf.get_mut(skip..skip.checked_add(len)?)
}

/// An AXI DMA with its cache maintenance, address map and the two buffers
/// the engine reads (source) and writes (destination). See the module docs.
pub struct DmaPort<'a, D, C, M> {
    engine: AxiDma<D>,
    cache: C,
    map: M,
    src: &'a mut [u8],
    dst: &'a mut [u8],
    bytes: u64,
}

impl<'a, D: RegisterBus, C: CacheMaintenance, M: AddressMap> DmaPort<'a, D, C, M> {
    /// Checks the buffers (non-empty, reachable, destination on whole
    /// cache lines); touches no register.
    pub fn new(
        engine: AxiDma<D>,
        cache: C,
        map: M,
        src: &'a mut [u8],
        dst: &'a mut [u8],
    ) -> Result<Self, DmaError> {
        if src.is_empty() || dst.is_empty() {
            return Err(DmaError::Empty);
        }
        if !crate::cache::is_line_aligned(dst) {
            return Err(DmaError::MisalignedDestination);
        }
        if map.bus_address(src).is_none() || map.bus_address(dst).is_none() {
            return Err(DmaError::Unreachable);
        }
        Ok(DmaPort {
            engine,
            cache,
            map,
            src,
            dst,
            bytes: 0,
        })
    }

    /// Longest input stream in bytes (buffer and DMA length register).
    pub fn source_capacity(&self) -> usize {
        self.src.len().min(self.engine.max_len())
    }

    /// Longest output stream in bytes (whole lines of the buffer, DMA length register).
    pub fn destination_capacity(&self) -> usize {
        let max = self.engine.max_len();
        self.dst.len().min(max - max % LINE_BYTES)
    }

    /// Bytes moved so far.
    pub fn dma_bytes(&self) -> u64 {
        self.bytes
    }

    /// The DMA driver (its bus, for tests and probing).
    pub fn engine(&mut self) -> &mut AxiDma<D> {
        &mut self.engine
    }

    fn source(&mut self) -> &mut [u8] {
        self.src
    }

    /// Streams `src[..len]` to the core.
    fn send(&mut self, len: usize) -> Result<(), AccelError> {
        self.engine
            .send(&mut self.cache, &self.map, &self.src[..len])?;
        self.bytes += len as u64;
        Ok(())
    }

    /// Receives exactly `len` bytes (a multiple of 4) from the core.
    fn receive(&mut self, len: usize) -> Result<&[u8], AccelError> {
        let room = len.next_multiple_of(LINE_BYTES);
        let got = self
            .engine
            .receive(&mut self.cache, &self.map, &mut self.dst[..room])?;
        self.received(len, got)
    }

    /// Streams `src[..src_len]` and receives exactly `dst_len` bytes.
    fn transfer(&mut self, src_len: usize, dst_len: usize) -> Result<&[u8], AccelError> {
        self.transfer_while(src_len, dst_len, || true)
    }

    /// [`DmaPort::transfer`] that stops waiting (DMA reset,
    /// [`DmaError::Stopped`]) once `running` says no: for a core that may
    /// end a request without answering on the stream.
    fn transfer_while(
        &mut self,
        src_len: usize,
        dst_len: usize,
        running: impl FnMut() -> bool,
    ) -> Result<&[u8], AccelError> {
        let room = dst_len.next_multiple_of(LINE_BYTES);
        let got = self.engine.transfer_while(
            &mut self.cache,
            &self.map,
            &self.src[..src_len],
            &mut self.dst[..room],
            running,
        )?;
        self.bytes += src_len as u64;
        self.received(dst_len, got)
    }

    fn received(&mut self, expected: usize, received: usize) -> Result<&[u8], AccelError> {
        self.bytes += received as u64;
        if received != expected {
            return Err(AccelError::ShortStream { expected, received });
        }
        Ok(&self.dst[..expected])
    }
}

/// Failed jobs in a row after which a backend stops using its core for
/// good. A single failure (a DMA error, a refused or corrupted job) is
/// recovered from: the core is aborted, the DMA reset, the call computed in
/// software, and the next call tries the hardware again.
pub const FAILED_JOBS_BEFORE_SOFTWARE: u32 = 3;

/// What both backends share: the control block, the DMA port, and the
/// fault state machine.
struct Engine<'a, B, D, C, M> {
    ctrl: Control<B>,
    port: DmaPort<'a, D, C, M>,
    id: u32,
    /// Operation written after a failed job to stop the core.
    abort_op: u32,
    identified: bool,
    /// `CONFIG` read when the core was identified.
    config: u32,
    /// The first fault seen (kept for reports).
    fault: Option<AccelError>,
    /// Failed jobs since the last job that succeeded.
    failures_in_a_row: u32,
    failed_jobs: u64,
    /// The hardware is no longer used.
    abandoned: bool,
    hw_calls: u64,
    sw_calls: u64,
}

impl<'a, B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap>
    Engine<'a, B, D, C, M>
{
    fn new(ctrl: Control<B>, port: DmaPort<'a, D, C, M>, id: u32, abort_op: u32) -> Self {
        Engine {
            ctrl,
            port,
            id,
            abort_op,
            identified: false,
            config: 0,
            fault: None,
            failures_in_a_row: 0,
            failed_jobs: 0,
            abandoned: false,
            hw_calls: 0,
            sw_calls: 0,
        }
    }

    /// Stops using the hardware for good, recording `e` if it is the first fault.
    fn abandon(&mut self, e: AccelError) {
        self.fault.get_or_insert(e);
        self.abandoned = true;
    }

    /// Runs `job` on the hardware unless it was abandoned; `None` means
    /// "compute this call in software" (and is counted as such).
    ///
    /// A wrong ID or version abandons the hardware at once. A failed job is
    /// aborted (core abort, DMA soft reset, both bounded); if the core does
    /// not come back to idle or the DMA reset does not finish, or after
    /// [`FAILED_JOBS_BEFORE_SOFTWARE`] failures in a row, the hardware is
    /// abandoned.
    fn run<T>(
        &mut self,
        job: impl FnOnce(&mut Control<B>, &mut DmaPort<'a, D, C, M>) -> Result<T, AccelError>,
    ) -> Option<T> {
        if !self.ready() {
            self.sw_calls += 1;
            return None;
        }
        match job(&mut self.ctrl, &mut self.port) {
            Ok(value) => {
                self.hw_calls += 1;
                self.failures_in_a_row = 0;
                Some(value)
            }
            Err(e) => {
                self.fault.get_or_insert(e);
                self.failed_jobs += 1;
                self.failures_in_a_row += 1;
                let recovered = self.recover();
                if let Err(stuck) = recovered {
                    self.abandon(stuck);
                } else if self.failures_in_a_row >= FAILED_JOBS_BEFORE_SOFTWARE {
                    self.abandon(e);
                }
                self.sw_calls += 1;
                None
            }
        }
    }

    /// Identifies the core on first use (a wrong ID or version abandons
    /// it); whether the hardware is in use.
    fn ready(&mut self) -> bool {
        if !self.abandoned && !self.identified {
            match self.ctrl.identify(self.id) {
                Ok(config) => {
                    self.identified = true;
                    self.config = config;
                }
                Err(e) => self.abandon(e),
            }
        }
        !self.abandoned
    }

    /// Whether the core is in use and its `CONFIG` has every bit of
    /// `features` (identifying it on first use).
    fn supports(&mut self, features: u32) -> bool {
        self.ready() && self.config & features == features
    }

    /// Aborts the core and resets the DMA so the next job starts clean.
    fn recover(&mut self) -> Result<(), AccelError> {
        self.ctrl.command(self.abort_op);
        // The abort ends with DONE | ERROR: `Refused` is the expected outcome.
        match self.ctrl.wait(self.abort_op) {
            Err(AccelError::Refused { .. }) | Ok(_) => {}
            Err(e) => return Err(e),
        }
        self.port.engine.reset()?;
        Ok(())
    }

    /// Whether the hardware was abandoned.
    fn abandoned(&self) -> bool {
        self.abandoned
    }

    /// Counts a call the hardware cannot take (computed in software).
    fn software(&mut self) {
        self.sw_calls += 1;
    }

    fn stats(&self) -> AccelStats {
        AccelStats {
            jobs: self.ctrl.jobs(),
            last_cycles: self.ctrl.last_cycles(),
            busy_cycles: self.ctrl.busy_cycles(),
            dma_bytes: self.port.dma_bytes(),
            hw_calls: self.hw_calls,
            sw_calls: self.sw_calls,
            failed_jobs: self.failed_jobs,
        }
    }
}
