//! The application proper, independent of the board: self-tests, the PL
//! probe report and the benchmark tables (software, primitive offload,
//! ML-DSA engine, SLH-DSA engine).

use crate::bench;
use core::fmt::Write;
use driver::accel::{AccelError, AccelStats, HwMlDsa, HwSlhDsa, WotsChainOffload};
use driver::bus::RegisterBus;
use driver::cache::CacheMaintenance;
use driver::dma::AddressMap;
use driver::probe::{CoreStatus, Probe};
use pqc::mldsa::MlDsaOperations;
use pqc::ring::RingBackend;
use pqc::slhdsa::SlhDsaOperations;
use pqc_selftest::bench_inputs::{sign_row_iterations, SIGN_MESSAGES};
use pqc_selftest::selftest;

/// Exit status bit: a self-test failed.
pub const STATUS_SELFTEST_FAILED: u32 = 1;
/// Exit status bit: a benchmarked operation failed.
pub const STATUS_BENCH_FAILED: u32 = 2;
/// Exit status when a panic occurred.
pub const STATUS_PANIC: u32 = 101;
/// Exit status when a CPU exception was taken.
pub const STATUS_EXCEPTION: u32 = 102;

/// Cost of one measured call.
#[derive(Clone, Copy, Debug, Default)]
pub struct Measurement {
    /// Global-timer ticks.
    pub ticks: u64,
    /// Peak stack in bytes, where the platform can measure it.
    pub stack_bytes: Option<usize>,
}

/// What runs with the hardware backends: a platform to measure on, the
/// ring backend, the Keccak backend (which also runs whole WOTS+ chains).
pub type AcceleratedBody<'a> =
    dyn FnMut(&mut dyn Platform, &mut dyn RingBackend, &mut dyn WotsChainOffload) + 'a;

/// A whole-operation engine's counters, as the benchmark prints them in
/// its `accel:` line.
pub trait EngineCounters {
    /// Job, cycle and DMA counters (`HwMlDsa::stats`, `HwSlhDsa::stats`).
    fn stats(&self) -> AccelStats;
    /// The first fault seen.
    fn fault(&self) -> Option<AccelError>;
    /// Whether the engine was given up (every call then in software).
    fn abandoned(&self) -> bool;
}

/// Implements [`EngineCounters`] for a driver backend with inherent
/// `stats`, `fault` and `abandoned`.
macro_rules! engine_counters {
    ($($backend:ident),*) => {$(
        impl<B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap> EngineCounters
            for $backend<'_, B, D, C, M>
        {
            fn stats(&self) -> AccelStats {
                $backend::stats(self)
            }
            fn fault(&self) -> Option<AccelError> {
                $backend::fault(self)
            }
            fn abandoned(&self) -> bool {
                $backend::abandoned(self)
            }
        }
    )*};
}

engine_counters!(HwMlDsa, HwSlhDsa);

/// The ML-DSA engine as the benchmark uses it: [`HwMlDsa`] behind a trait
/// object, so the board keeps its concrete bus types. The operations are
/// `pqc`'s [`MlDsaOperations`].
pub trait MlDsaEngine: MlDsaOperations + EngineCounters {}

impl<T: MlDsaOperations + EngineCounters> MlDsaEngine for T {}

/// The SLH-DSA engine as the benchmark uses it: [`HwSlhDsa`] behind a
/// trait object. The operations are `pqc`'s [`SlhDsaOperations`].
pub trait SlhDsaEngine: SlhDsaOperations + EngineCounters {}

impl<T: SlhDsaOperations + EngineCounters> SlhDsaEngine for T {}

/// What runs with the ML-DSA engine: a platform to measure on, the engine.
pub type EngineBody<'a> = dyn FnMut(&mut dyn Platform, &mut dyn MlDsaEngine) + 'a;

/// What runs with the SLH-DSA engine: a platform to measure on, the engine.
pub type SlhEngineBody<'a> = dyn FnMut(&mut dyn Platform, &mut dyn SlhDsaEngine) + 'a;

/// What the application needs from the board.
pub trait Platform {
    /// Runs `f` once and measures it.
    fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement;
    /// Probes the PL for the accelerator.
    fn probe(&mut self) -> Probe;
    /// Prints what the measurements mean on this platform.
    fn platform_notes(&self, out: &mut dyn Write);
    /// Calls `body` once with a platform to measure on and the hardware
    /// backends over the accelerator (called only after the probe found
    /// it); returns `false` without calling `body` if this platform has no
    /// hardware backends.
    fn with_accelerator(&mut self, body: &mut AcceleratedBody<'_>) -> bool {
        let _ = body;
        false
    }
    /// Prints the hardware backends' counters and any fault they recorded.
    fn accelerator_report(&mut self, out: &mut dyn Write) {
        let _ = out;
    }
    /// Calls `body` once with a platform to measure on and the ML-DSA
    /// engine backend (called only after the probe found the engine);
    /// returns `false` without calling `body` if this platform has none.
    fn with_mldsa_engine(&mut self, body: &mut EngineBody<'_>) -> bool {
        let _ = body;
        false
    }
    /// Calls `body` once with a platform to measure on and the SLH-DSA
    /// engine backend (called only after the probe found the engine);
    /// returns `false` without calling `body` if this platform has none.
    fn with_slhdsa_engine(&mut self, body: &mut SlhEngineBody<'_>) -> bool {
        let _ = body;
        false
    }
}

/// Runs everything; returns the exit status (0 = all self-tests passed and
/// every benchmarked operation succeeded).
pub fn run(out: &mut dyn Write, platform: &mut dyn Platform) -> u32 {
    run_with(out, platform, bench::ITERATIONS)
}

/// [`run`] with explicit iteration counts.
pub fn run_with(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    iterations: bench::Iterations,
) -> u32 {
    let mut status = 0;
    platform.platform_notes(out);
    let (run, failed) = selftest::run_all(out);
    let _ = writeln!(out, "selftest: {} passed, {} failed", run - failed, failed);
    if failed != 0 {
        // As a FIPS module would enter its error state: no service, and in
        // particular no benchmark of an implementation that failed.
        let _ = writeln!(out, "selftest: FAILED, benchmarks skipped");
        return STATUS_SELFTEST_FAILED;
    }

    let probe = platform.probe();
    let _ = writeln!(out, "probe: {probe}");
    let _ = writeln!(
        out,
        "bench: software backends, {} iterations per ML-DSA keygen and verify row, {} per ML-DSA sign row (the mean over {} messages), {} per SLH-DSA row",
        iterations.mldsa,
        sign_row_iterations(iterations.mldsa),
        SIGN_MESSAGES,
        iterations.slhdsa
    );
    if !bench::run_table(out, platform, iterations) {
        status |= STATUS_BENCH_FAILED;
    }
    if probe.accelerator_found() {
        let mut ok = true;
        let ran = platform.with_accelerator(&mut |timing, ring, keccak| {
            let _ = writeln!(
                out,
                "bench: hardware backends (NTT core, Keccak engine; software after a fault), same iterations"
            );
            ok = bench::run_hw_table(out, timing, ring, keccak, iterations);
        });
        if ran {
            platform.accelerator_report(out);
            if !ok {
                status |= STATUS_BENCH_FAILED;
            }
        } else {
            let _ = writeln!(
                out,
                "bench: accelerator found, but this platform has no hardware backends: no hw rows"
            );
        }
    } else {
        let _ = writeln!(out, "bench: no accelerator found: no hw rows");
    }
    status
        | run_engine_tier(out, platform, &probe, iterations)
        | run_slh_engine_tier(out, platform, &probe, iterations)
}

/// The ML-DSA engine rows (keygen of every set, and sign and verify of
/// every set when the engine's CONFIG says it runs OP_SIGN and OP_VERIFY),
/// when the probe found the engine; returns the exit-status bits.
pub fn run_engine_tier(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    probe: &Probe,
    iterations: bench::Iterations,
) -> u32 {
    let CoreStatus::Present { config } = probe.mldsa else {
        let _ = writeln!(out, "bench: no ML-DSA engine found: no engine rows");
        return 0;
    };
    // An engine built without the Verify sequencer refuses OP_VERIFY: the
    // driver would record failed jobs and, after three in a row, abandon
    // the engine (every later call, keygen too, in software). Without the
    // Sign sequencer the driver signs in software: no engine row then.
    // Every build has the KeyGen sequencer.
    let ops = bench::EngineOps {
        keygen: true,
        ..bench::EngineOps::from_config(config)
    };
    let mut ok = true;
    let ran = platform.with_mldsa_engine(&mut |timing, engine| {
        let (rows, missing) = match (ops.sign, ops.verify) {
            (true, true) => ("keygen, sign and verify rows", ""),
            (true, false) => ("keygen and sign rows", "its CONFIG has no verify; "),
            (false, true) => ("keygen and verify rows", "its CONFIG has no sign; "),
            (false, false) => ("keygen rows only", "its CONFIG has no sign or verify; "),
        };
        let _ = writeln!(
            out,
            "bench: ML-DSA engine, {rows} ({missing}software after a fault), {} iterations per row, {} per sign row",
            iterations.mldsa,
            sign_row_iterations(iterations.mldsa)
        );
        ok = bench::run_engine_table(out, timing, engine, iterations, ops);
        bench::print_accel_line(
            out,
            "ML-DSA engine",
            engine.stats(),
            engine.fault(),
            engine.abandoned(),
        );
    });
    tier_status(out, "ML-DSA engine", ran, ok)
}

/// The exit-status bits of an engine tier that `ran` (or the line saying
/// the platform could not run it) and whose rows were all `ok`.
fn tier_status(out: &mut dyn Write, engine: &str, ran: bool, ok: bool) -> u32 {
    if !ran {
        let _ = writeln!(
            out,
            "bench: {engine} found, but this platform has no engine backend: no engine rows"
        );
        0
    } else if ok {
        0
    } else {
        STATUS_BENCH_FAILED
    }
}

/// The SLH-DSA engine rows (keygen, sign and verify of every SHAKE set of
/// the benchmark table, each operation only when the engine's CONFIG says
/// it runs it), when the probe found the engine; returns the exit-status
/// bits. The SHA2 sets have no engine rows: the engine hashes with SHAKE
/// only (the driver would compute them in software).
pub fn run_slh_engine_tier(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    probe: &Probe,
    iterations: bench::Iterations,
) -> u32 {
    let CoreStatus::Present { config } = probe.slhdsa else {
        let _ = writeln!(out, "bench: no SLH-DSA engine found: no engine rows");
        return 0;
    };
    let ops = bench::EngineOps::from_config(config);
    let mut ok = true;
    let ran = platform.with_slhdsa_engine(&mut |timing, engine| {
        let _ = write!(out, "bench: SLH-DSA engine, {} rows of", ops.names());
        let mut sets = 0;
        for p in bench::slh_engine_sets(config) {
            let _ = write!(out, "{}{}", if sets == 0 { " " } else { ", " }, p.name);
            sets += 1;
        }
        if sets == 0 {
            let _ = write!(out, " no set");
        }
        let _ = writeln!(
            out,
            " (the table's sets its CONFIG {config:#x} offers; software after a fault), {} iterations per row",
            iterations.slhdsa
        );
        ok = bench::run_slh_engine_table(out, timing, engine, iterations, config);
        bench::print_accel_line(
            out,
            "SLH-DSA engine",
            engine.stats(),
            engine.fault(),
            engine.abandoned(),
        );
    });
    tier_status(out, "SLH-DSA engine", ran, ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use driver::accel::model::{self, Fault, Pl, SharedPl, Which};
    use pqc::keccak::SoftKeccak;
    use pqc::mldsa::{MPrime, MlDsa, ParameterSet};
    use pqc::slhdsa::{MessageDigest, OnBackend, Params};
    use ps_pl_contract::dma::{MLDSA_MAX_STREAM_BYTES, SLHDSA_MAX_STREAM_BYTES};
    use ps_pl_contract::regmap::{mldsa as mreg, slhdsa as sreg};

    struct Host;

    impl Platform for Host {
        fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
            let start = std::time::Instant::now();
            f();
            Measurement {
                ticks: start.elapsed().as_nanos() as u64 / 10,
                stack_bytes: None,
            }
        }
        fn probe(&mut self) -> Probe {
            Probe {
                pl_configured: false,
                level_shifters_on: false,
                ntt: CoreStatus::NotProbed,
                keccak: CoreStatus::NotProbed,
                mldsa: CoreStatus::NotProbed,
                slhdsa: CoreStatus::NotProbed,
            }
        }
        fn platform_notes(&self, out: &mut dyn Write) {
            let _ = writeln!(out, "host run");
        }
    }

    /// A host "board" whose probe finds the cores and whose hardware
    /// backends are the software ones: exercises the hw-row plumbing.
    struct HostWithAccelerator {
        host: Host,
        reports: u32,
    }

    impl Platform for HostWithAccelerator {
        fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
            self.host.measure(f)
        }
        fn probe(&mut self) -> Probe {
            Probe {
                pl_configured: true,
                level_shifters_on: true,
                ntt: CoreStatus::Present { config: 4 },
                keccak: CoreStatus::Present { config: 1 },
                mldsa: CoreStatus::Absent { id: 0 },
                slhdsa: CoreStatus::Absent { id: 0 },
            }
        }
        fn platform_notes(&self, out: &mut dyn Write) {
            self.host.platform_notes(out)
        }
        fn with_accelerator(&mut self, body: &mut AcceleratedBody<'_>) -> bool {
            body(
                &mut self.host,
                &mut pqc::ring::SoftRing,
                &mut pqc::keccak::SoftKeccak,
            );
            true
        }
        fn accelerator_report(&mut self, out: &mut dyn Write) {
            self.reports += 1;
            let _ = writeln!(out, "accel: report");
        }
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "SLH-DSA-128s is slow unoptimised; runs in --release"
    )]
    fn with_an_accelerator_hw_rows_follow_for_the_keccak_and_ring_sets() {
        let mut log = String::new();
        let mut platform = HostWithAccelerator {
            host: Host,
            reports: 0,
        };
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let status = run_with(&mut log, &mut platform, iterations);
        if cfg!(feature = "corrupt-selftest") {
            return;
        }
        assert_eq!(status, 0, "{log}");
        assert_eq!(platform.reports, 1);
        let hw_rows: Vec<&str> = log.lines().filter(|l| l.contains("| hw      |")).collect();
        for alg in ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]
            .into_iter()
            .chain(["SLH-DSA-SHAKE-128f", "SLH-DSA-SHAKE-128s"])
        {
            for op in ["keygen", "sign", "verify"] {
                let row = hw_rows
                    .iter()
                    .find(|l| l.starts_with(&format!("| {alg:<20} | {op:<6} | hw ")))
                    .unwrap_or_else(|| panic!("no hw row {alg} {op}"));
                assert!(row.ends_with("| ok     |"), "{row}");
            }
        }
        assert_eq!(hw_rows.len(), 15, "no hw rows for the SHA2 sets");
        assert!(!log.contains("no hw rows"));
    }

    /// The whole application on the host: every row present, status 0.
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "SLH-DSA-128s is slow unoptimised; runs in --release"
    )]
    fn the_application_prints_every_row_and_succeeds() {
        let mut log = String::new();
        let status = run_with(
            &mut log,
            &mut Host,
            bench::Iterations {
                mldsa: 1,
                slhdsa: 1,
            },
        );
        print!("{log}");
        if cfg!(feature = "corrupt-selftest") {
            assert_eq!(status, STATUS_SELFTEST_FAILED);
            assert!(log.contains("benchmarks skipped"));
            return;
        }
        assert_eq!(status, 0);
        for alg in ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]
            .into_iter()
            .chain(bench::SLH_TABLE.iter().map(|p| p.name))
        {
            for op in ["keygen", "sign", "verify"] {
                let row = log
                    .lines()
                    .find(|l| l.starts_with(&format!("| {alg:<20} | {op:<6} | sw ")))
                    .unwrap_or_else(|| panic!("no row {alg} {op}"));
                assert!(row.ends_with("| ok     |"), "{row}");
            }
        }
        assert!(log.contains("stack: SLH-DSA-SHAKE-256f sign"));
        // QEMU: no PL, so no engine tier.
        assert!(log
            .lines()
            .any(|l| l == "bench: no ML-DSA engine found: no engine rows"));
        assert!(log
            .lines()
            .any(|l| l == "bench: no SLH-DSA engine found: no engine rows"));
        assert!(!log.contains("| engine "), "{log}");
    }

    const MLDSA_SETS: [&str; 3] = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"];

    /// The probe of a PL with the ML-DSA engine (KeyGen, Sign and Verify,
    /// as `hdl::axi::MlDsaAccel` reports) and no primitive cores.
    fn engine_probe() -> Probe {
        Probe {
            pl_configured: true,
            level_shifters_on: true,
            ntt: CoreStatus::Absent { id: 0 },
            keccak: CoreStatus::Absent { id: 0 },
            mldsa: CoreStatus::Present {
                config: mreg::CONFIG_KEYGEN | mreg::CONFIG_SIGN | mreg::CONFIG_VERIFY,
            },
            slhdsa: CoreStatus::Absent { id: 0 },
        }
    }

    /// A host "board" whose engine backends are the driver's `HwMlDsa`
    /// and `HwSlhDsa` over its behavioural PL model, and whose probe finds
    /// what `probe` says (by default the ML-DSA engine only).
    struct HostWithEngine {
        host: Host,
        pl: SharedPl,
        probe: Probe,
    }

    impl HostWithEngine {
        fn new() -> Self {
            Self::probed(engine_probe())
        }

        fn probed(probe: Probe) -> Self {
            HostWithEngine {
                host: Host,
                pl: Pl::new(),
                probe,
            }
        }
    }

    impl Platform for HostWithEngine {
        fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
            self.host.measure(f)
        }
        fn probe(&mut self) -> Probe {
            self.probe
        }
        fn platform_notes(&self, out: &mut dyn Write) {
            self.host.platform_notes(out)
        }
        fn with_mldsa_engine(&mut self, body: &mut EngineBody<'_>) -> bool {
            // What the driver's own engine tests allocate.
            let mut arena = vec![0u8; 2 * MLDSA_MAX_STREAM_BYTES + 4 * driver::cache::LINE_BYTES];
            let mut engine = model::mldsa(&self.pl, &mut arena);
            body(&mut self.host, &mut engine);
            true
        }
        fn with_slhdsa_engine(&mut self, body: &mut SlhEngineBody<'_>) -> bool {
            let mut arena = vec![0u8; 2 * SLHDSA_MAX_STREAM_BYTES + 4 * driver::cache::LINE_BYTES];
            let mut engine = model::slhdsa(&self.pl, &mut arena);
            body(&mut self.host, &mut engine);
            true
        }
    }

    /// The engine row of `alg` and `op` in `log`.
    fn engine_row<'a>(log: &'a str, alg: &str, op: &str) -> &'a str {
        log.lines()
            .find(|l| l.starts_with(&format!("| {alg:<20} | {op:<6} | engine  | ")))
            .unwrap_or_else(|| panic!("no engine {op} row for {alg}:\n{log}"))
    }

    fn engine_rows(log: &str) -> usize {
        log.lines().filter(|l| l.contains("| engine  |")).count()
    }

    /// Keygen, sign and verify of every set on `HwMlDsa` over the model:
    /// one row each, ok (keys and signatures equal software's; every
    /// verdict equals software Verify_internal's and accepts), every call a
    /// job on the engine.
    #[test]
    fn engine_rows_for_every_set_run_on_the_engine_model() {
        let mut platform = HostWithEngine::new();
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 2,
            slhdsa: 1,
        };
        let status = run_engine_tier(&mut log, &mut platform, &engine_probe(), iterations);
        assert_eq!(status, 0, "{log}");
        assert!(log.starts_with(
            "bench: ML-DSA engine, keygen, sign and verify rows (software after a fault), 2 iterations per row, 32 per sign row\n"
        ));
        for alg in MLDSA_SETS {
            for op in ["keygen", "sign", "verify"] {
                let row = engine_row(&log, alg, op);
                assert!(row.ends_with("| ok     |"), "{row}");
                let iterations = if op == "sign" { "32" } else { " 2" };
                assert!(row.contains(&format!("|    {iterations} |")), "{row}");
            }
        }
        assert_eq!(engine_rows(&log), 9, "3 rows of each op:\n{log}");
        assert!(
            log.contains(
                "accel: ML-DSA engine: 108 calls in hw, 0 in sw, 108 jobs, 0 failed jobs, "
            ),
            "{log}"
        );
        assert!(log.ends_with(", in use, first fault: none\n"), "{log}");
        let (ctrl, dma) = platform.pl.borrow_mut().accesses(Which::MlDsa);
        assert!(ctrl > 0 && dma > 0, "the model's engine was not used");
    }

    /// An engine that fails every job: the backend computes in software,
    /// the rows stay correct, and the accel line shows it.
    #[test]
    fn a_failing_engine_falls_back_and_the_accel_line_says_so() {
        let mut platform = HostWithEngine::new();
        platform
            .pl
            .borrow_mut()
            .inject(Which::MlDsa, Fault::StatusError, 0);
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let status = run_engine_tier(&mut log, &mut platform, &engine_probe(), iterations);
        assert_eq!(status, 0, "{log}");
        for alg in MLDSA_SETS {
            for op in ["keygen", "sign", "verify"] {
                assert!(engine_row(&log, alg, op).ends_with("| ok     |"), "{log}");
            }
        }
        assert!(
            log.contains("accel: ML-DSA engine: 0 calls in hw, 102 in sw, "),
            "{log}"
        );
        assert!(
            log.contains("abandoned, first fault: op 0x01 refused"),
            "{log}"
        );
    }

    /// A software "engine" that gets one result wrong: `wrong_keys` flips
    /// a byte of that set's secret key; `wrong_sig` a byte of that set's
    /// signatures; `wrong_verdict` rejects that set's valid signatures.
    #[derive(Default)]
    struct WrongEngine {
        wrong_keys: Option<ParameterSet>,
        wrong_sig: Option<ParameterSet>,
        wrong_verdict: Option<ParameterSet>,
    }

    impl MlDsaOperations for WrongEngine {
        fn keygen_internal(
            &mut self,
            set: ParameterSet,
            xi: &[u8; 32],
            pk: &mut [u8],
            sk: &mut [u8],
        ) -> pqc::Result<()> {
            pqc::mldsa::keygen_internal(set, xi, pk, sk)?;
            if self.wrong_keys == Some(set) {
                sk[100] ^= 1;
            }
            Ok(())
        }
        fn sign_m_prime(
            &mut self,
            set: ParameterSet,
            sk: &[u8],
            m_prime: &MPrime<'_>,
            rnd: &[u8; 32],
            sig: &mut [u8],
        ) -> pqc::Result<()> {
            <MlDsa>::default().sign_m_prime(set, sk, m_prime, rnd, sig)?;
            if self.wrong_sig == Some(set) {
                sig[7] ^= 1;
            }
            Ok(())
        }
        fn sign_mu(
            &mut self,
            set: ParameterSet,
            sk: &[u8],
            mu: &[u8; 64],
            rnd: &[u8; 32],
            sig: &mut [u8],
        ) -> pqc::Result<()> {
            pqc::mldsa::sign_mu(set, sk, mu, rnd, sig)?;
            if self.wrong_sig == Some(set) {
                sig[7] ^= 1;
            }
            Ok(())
        }
        fn verify_m_prime(
            &mut self,
            set: ParameterSet,
            pk: &[u8],
            m_prime: &MPrime<'_>,
            sig: &[u8],
        ) -> pqc::Result<()> {
            let result = <MlDsa>::default().verify_m_prime(set, pk, m_prime, sig);
            if self.wrong_verdict == Some(set) && result.is_ok() {
                return Err(pqc::Error::InvalidSignature);
            }
            result
        }
        fn verify_mu(
            &mut self,
            set: ParameterSet,
            pk: &[u8],
            mu: &[u8; 64],
            sig: &[u8],
        ) -> pqc::Result<()> {
            let result = pqc::mldsa::verify_mu(set, pk, mu, sig);
            if self.wrong_verdict == Some(set) && result.is_ok() {
                return Err(pqc::Error::InvalidSignature);
            }
            result
        }
    }

    /// A software stand-in engine: no jobs, no fault.
    macro_rules! stand_in_counters {
        ($($engine:ty),*) => {$(
            impl EngineCounters for $engine {
                fn stats(&self) -> AccelStats {
                    AccelStats::default()
                }
                fn fault(&self) -> Option<AccelError> {
                    None
                }
                fn abandoned(&self) -> bool {
                    false
                }
            }
        )*};
    }

    stand_in_counters!(WrongEngine, WrongSlhEngine);

    /// A stand-in engine offered to the platform by kind.
    trait StandIn {
        /// The probe of a PL with this engine.
        fn probe() -> Probe;
        fn as_mldsa(&mut self) -> Option<&mut dyn MlDsaEngine> {
            None
        }
        fn as_slhdsa(&mut self) -> Option<&mut dyn SlhDsaEngine> {
            None
        }
    }

    impl StandIn for WrongEngine {
        fn probe() -> Probe {
            engine_probe()
        }
        fn as_mldsa(&mut self) -> Option<&mut dyn MlDsaEngine> {
            Some(self)
        }
    }

    impl StandIn for WrongSlhEngine {
        fn probe() -> Probe {
            slh_engine_probe()
        }
        fn as_slhdsa(&mut self) -> Option<&mut dyn SlhDsaEngine> {
            Some(self)
        }
    }

    /// A host "board" whose engine is a software stand-in.
    struct HostWithStandIn<E>(Host, E);

    impl<E: StandIn> Platform for HostWithStandIn<E> {
        fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
            self.0.measure(f)
        }
        fn probe(&mut self) -> Probe {
            E::probe()
        }
        fn platform_notes(&self, out: &mut dyn Write) {
            self.0.platform_notes(out)
        }
        fn with_mldsa_engine(&mut self, body: &mut EngineBody<'_>) -> bool {
            let Some(engine) = self.1.as_mldsa() else {
                return false;
            };
            body(&mut self.0, engine);
            true
        }
        fn with_slhdsa_engine(&mut self, body: &mut SlhEngineBody<'_>) -> bool {
            let Some(engine) = self.1.as_slhdsa() else {
                return false;
            };
            body(&mut self.0, engine);
            true
        }
    }

    /// Runs the engine tier on `engine`: (status, log).
    fn run_wrong_engine(engine: WrongEngine) -> (u32, String) {
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let status = run_engine_tier(
            &mut log,
            &mut HostWithStandIn(Host, engine),
            &engine_probe(),
            iterations,
        );
        (status, log)
    }

    /// Asserts that exactly the engine row (`alg`, `op`) failed.
    fn only_row_failed(log: &str, alg: &str, op: &str) {
        for a in MLDSA_SETS {
            for o in ["keygen", "sign", "verify"] {
                let want = if (a, o) == (alg, op) {
                    "| FAIL   |"
                } else {
                    "| ok     |"
                };
                assert!(engine_row(log, a, o).ends_with(want), "{a} {o}:\n{log}");
            }
        }
    }

    #[test]
    fn engine_keys_that_differ_from_software_fail_the_bench() {
        let (status, log) = run_wrong_engine(WrongEngine {
            wrong_keys: Some(ParameterSet::MlDsa65),
            ..WrongEngine::default()
        });
        assert_eq!(status, STATUS_BENCH_FAILED, "{log}");
        only_row_failed(&log, "ML-DSA-65", "keygen");
    }

    /// An engine signature that differs from software's fails that sign
    /// row and the bench.
    #[test]
    fn an_engine_signature_that_differs_from_software_fails_the_bench() {
        let (status, log) = run_wrong_engine(WrongEngine {
            wrong_sig: Some(ParameterSet::MlDsa44),
            ..WrongEngine::default()
        });
        assert_eq!(status, STATUS_BENCH_FAILED, "{log}");
        only_row_failed(&log, "ML-DSA-44", "sign");
    }

    /// An engine verdict that differs from software Verify_internal's (a
    /// valid signature rejected) fails that verify row and the bench.
    #[test]
    fn an_engine_verdict_that_differs_from_software_fails_the_bench() {
        let (status, log) = run_wrong_engine(WrongEngine {
            wrong_verdict: Some(ParameterSet::MlDsa87),
            ..WrongEngine::default()
        });
        assert_eq!(status, STATUS_BENCH_FAILED, "{log}");
        only_row_failed(&log, "ML-DSA-87", "verify");
    }

    /// The verify row's own checks, on the engine model: the benchmark's
    /// signature passes; a changed one fails its row although the engine
    /// and software agree (both reject), since the signature must verify.
    #[test]
    fn a_verify_row_fails_unless_the_signature_verifies() {
        use pqc_selftest::bench_inputs::{MESSAGE, MLDSA_RND, MLDSA_SEED};
        let set = ParameterSet::MlDsa44;
        let mut pk = vec![0; set.public_key_len()];
        let mut sk = vec![0; set.secret_key_len()];
        let mut sig = vec![0; set.signature_len()];
        pqc::mldsa::keygen_internal(set, &MLDSA_SEED, &mut pk, &mut sk).unwrap();
        pqc::mldsa::sign(set, &sk, MESSAGE, b"", &MLDSA_RND, &mut sig).unwrap();
        let m_prime = [&[0u8, 0][..], MESSAGE].concat();
        let pl = Pl::new();
        let mut arena = vec![0u8; 2 * MLDSA_MAX_STREAM_BYTES + 4 * driver::cache::LINE_BYTES];
        let mut engine = model::mldsa(&pl, &mut arena);
        let row = bench::mldsa_engine_verify_row_on(
            &mut Host,
            set,
            1,
            &mut engine,
            (&pk, &m_prime, &sig),
        );
        assert!(row.ok, "{row:?}");
        sig[0] ^= 1;
        let row = bench::mldsa_engine_verify_row_on(
            &mut Host,
            set,
            1,
            &mut engine,
            (&pk, &m_prime, &sig),
        );
        assert!(!row.ok, "{row:?}");
        assert_eq!(
            (row.algorithm, row.operation, row.backend),
            ("ML-DSA-44", "verify", "engine")
        );
        let stats = engine.stats();
        assert_eq!((stats.hw_calls, stats.sw_calls), (2, 0), "{stats:?}");
        assert_eq!(engine.fault(), None);
    }

    /// An engine whose CONFIG lacks the sign bit (the KeyGen and Verify
    /// build): keygen and verify rows, the header says why, and no
    /// OP_SIGN is issued (the model would have signed).
    #[test]
    fn an_engine_without_sign_gets_keygen_and_verify_rows() {
        let mut platform = HostWithEngine::new();
        let config = mreg::CONFIG_KEYGEN | mreg::CONFIG_VERIFY;
        platform.pl.borrow_mut().set_config(Which::MlDsa, config);
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let probe = Probe {
            mldsa: CoreStatus::Present { config },
            ..engine_probe()
        };
        let status = run_engine_tier(&mut log, &mut platform, &probe, iterations);
        assert_eq!(status, 0, "{log}");
        assert!(log.starts_with(
            "bench: ML-DSA engine, keygen and verify rows (its CONFIG has no sign; software after a fault)"
        ));
        for alg in MLDSA_SETS {
            for op in ["keygen", "verify"] {
                assert!(engine_row(&log, alg, op).ends_with("| ok     |"));
            }
        }
        assert_eq!(engine_rows(&log), 6, "{log}");
        assert!(!log.contains("| sign   | engine"), "{log}");
        assert!(
            log.contains("accel: ML-DSA engine: 6 calls in hw, 0 in sw, 6 jobs, 0 failed jobs, "),
            "{log}"
        );
    }

    /// An engine whose CONFIG lacks the verify and sign bits (a
    /// KeyGen-only build): keygen rows only, the header says why, no
    /// OP_VERIFY or OP_SIGN is issued.
    #[test]
    fn an_engine_without_verify_gets_keygen_rows_only() {
        let mut platform = HostWithEngine::new();
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let probe = Probe {
            mldsa: CoreStatus::Present {
                config: mreg::CONFIG_KEYGEN,
            },
            ..engine_probe()
        };
        let status = run_engine_tier(&mut log, &mut platform, &probe, iterations);
        assert_eq!(status, 0, "{log}");
        assert!(log.starts_with(
            "bench: ML-DSA engine, keygen rows only (its CONFIG has no sign or verify; software after a fault)"
        ));
        for alg in MLDSA_SETS {
            assert!(engine_row(&log, alg, "keygen").ends_with("| ok     |"));
        }
        assert_eq!(engine_rows(&log), 3, "{log}");
        assert!(
            log.contains("accel: ML-DSA engine: 3 calls in hw, 0 in sw, 3 jobs, 0 failed jobs, "),
            "{log}"
        );
    }

    /// No engine (QEMU: PL not configured; an empty window: ID 0; another
    /// interface version): one line, no rows, and the platform's engine
    /// hook is not called. An engine the platform cannot drive: its line.
    #[test]
    fn without_an_engine_the_tier_prints_one_line_and_no_rows() {
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        for mldsa in [
            CoreStatus::NotProbed,
            CoreStatus::Absent { id: 0 },
            CoreStatus::WrongVersion { version: 2 << 16 },
        ] {
            let probe = Probe {
                mldsa,
                ..engine_probe()
            };
            let mut platform = HostWithEngine::new();
            let mut log = String::new();
            let status = run_engine_tier(&mut log, &mut platform, &probe, iterations);
            assert_eq!(status, 0);
            assert_eq!(log, "bench: no ML-DSA engine found: no engine rows\n");
            assert_eq!(platform.pl.borrow_mut().accesses(Which::MlDsa), (0, 0));
        }
        let mut log = String::new();
        let status = run_engine_tier(&mut log, &mut Host, &engine_probe(), iterations);
        assert_eq!(status, 0);
        assert_eq!(
            log,
            "bench: ML-DSA engine found, but this platform has no engine backend: no engine rows\n"
        );
    }

    /// The whole application on a board with the engine (and no primitive
    /// cores): software table, no hw rows, engine keygen, sign and verify
    /// rows, status 0.
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "SLH-DSA-128s is slow unoptimised; runs in --release"
    )]
    fn the_application_with_the_engine_prints_engine_rows_and_succeeds() {
        let mut log = String::new();
        let mut platform = HostWithEngine::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let status = run_with(&mut log, &mut platform, iterations);
        if cfg!(feature = "corrupt-selftest") {
            return;
        }
        assert_eq!(status, 0, "{log}");
        assert!(log.contains("ML-DSA engine: present (config 0x00000007)"));
        assert!(log.contains("bench: no accelerator found: no hw rows"));
        for alg in MLDSA_SETS {
            for op in ["keygen", "sign", "verify"] {
                assert!(engine_row(&log, alg, op).ends_with("| ok     |"));
            }
        }
        assert_eq!(engine_rows(&log), 9);
        assert!(!log.contains("no ML-DSA engine"));
    }

    /// The probe of a PL with the SLH-DSA engine only, with the CONFIG of
    /// the engines configuration's (every operation, the SHAKE and the
    /// SHA2 sets, as `hdl::axi::EnginesAccel` reports).
    fn slh_engine_probe() -> Probe {
        Probe {
            mldsa: CoreStatus::Absent { id: 0 },
            slhdsa: CoreStatus::Present {
                config: sreg::ENGINES_CONFIG,
            },
            ..engine_probe()
        }
    }

    /// The benchmark table's sets, all of which the engines
    /// configuration runs.
    const SLH_ENGINE_SETS: [&str; 4] = [
        "SLH-DSA-SHAKE-128f",
        "SLH-DSA-SHA2-128f",
        "SLH-DSA-SHAKE-128s",
        "SLH-DSA-SHA2-128s",
    ];

    /// Runs the SLH-DSA tier on the model with `fault` injected from the
    /// first job and `config` as CONFIG: (status, log, the model).
    fn run_slh_model(fault: Option<Fault>, config: u32) -> (u32, String, SharedPl) {
        let probe = Probe {
            slhdsa: CoreStatus::Present { config },
            ..slh_engine_probe()
        };
        let mut platform = HostWithEngine::probed(probe);
        if let Some(f) = fault {
            platform.pl.borrow_mut().inject(Which::SlhDsa, f, 0);
        }
        platform.pl.borrow_mut().set_config(Which::SlhDsa, config);
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let status = run_slh_engine_tier(&mut log, &mut platform, &probe, iterations);
        (status, log, platform.pl)
    }

    const ALL_SLH_OPS: u32 = sreg::ENGINES_CONFIG;

    /// Keygen, sign and verify of the benchmark's sets (SHAKE and SHA2) on
    /// `HwSlhDsa` over the model of the engines configuration: one row
    /// each, ok (keys, signature and verdict equal software's), every call
    /// one job on the engine.
    #[test]
    fn slh_engine_rows_for_every_table_set_run_on_the_engine_model() {
        let (status, log, pl) = run_slh_model(None, ALL_SLH_OPS);
        assert_eq!(status, 0, "{log}");
        assert!(log.starts_with(
            "bench: SLH-DSA engine, keygen, sign and verify rows of SLH-DSA-SHAKE-128f, SLH-DSA-SHA2-128f, SLH-DSA-SHAKE-128s, SLH-DSA-SHA2-128s (the table's sets its CONFIG 0x20f offers; software after a fault), 1 iterations per row\n"
        ), "{log}");
        for alg in SLH_ENGINE_SETS {
            for op in ["keygen", "sign", "verify"] {
                assert!(engine_row(&log, alg, op).ends_with("| ok     |"), "{log}");
            }
        }
        assert_eq!(engine_rows(&log), 12, "{log}");
        assert!(
            log.contains(
                "accel: SLH-DSA engine: 12 calls in hw, 0 in sw, 12 jobs, 0 failed jobs, "
            ),
            "{log}"
        );
        assert!(log.ends_with(", in use, first fault: none\n"), "{log}");
        let (ctrl, dma) = pl.borrow_mut().accesses(Which::SlhDsa);
        assert!(ctrl > 0 && dma > 0, "the model's engine was not used");
    }

    /// An engine that fails every job: the rows stay correct (software),
    /// and the accel line says the engine was abandoned.
    #[test]
    fn a_failing_slh_engine_falls_back_and_the_accel_line_says_so() {
        let (status, log, _) = run_slh_model(Some(Fault::StatusError), ALL_SLH_OPS);
        assert_eq!(status, 0, "{log}");
        for alg in SLH_ENGINE_SETS {
            for op in ["keygen", "sign", "verify"] {
                assert!(engine_row(&log, alg, op).ends_with("| ok     |"), "{log}");
            }
        }
        assert!(
            log.contains("accel: SLH-DSA engine: 0 calls in hw, 12 in sw, "),
            "{log}"
        );
        assert!(
            log.contains("abandoned, first fault: op 0x01 refused"),
            "{log}"
        );
    }

    /// An engine whose CONFIG lacks verify: keygen and sign rows only, and
    /// no OP_VERIFY is issued (8 jobs).
    #[test]
    fn an_slh_engine_without_verify_gets_keygen_and_sign_rows() {
        let config = sreg::ENGINES_CONFIG & !sreg::CONFIG_VERIFY;
        let (status, log, _) = run_slh_model(None, config);
        assert_eq!(status, 0, "{log}");
        assert!(
            log.starts_with("bench: SLH-DSA engine, keygen and sign rows"),
            "{log}"
        );
        assert_eq!(engine_rows(&log), 8, "{log}");
        assert!(!log.contains("| verify | engine"), "{log}");
        assert!(
            log.contains("accel: SLH-DSA engine: 8 calls in hw, 0 in sw, 8 jobs, "),
            "{log}"
        );
    }

    /// The rows follow the sets the CONFIG offers: a SHAKE-only engine
    /// (`slhdsa_accel`) gets the SHAKE rows, a SHA2-only one
    /// (`slhdsa_sha2_accel`) the SHA2 rows, one with neither a sponge nor
    /// `CONFIG_SHA2` no row; every call of a row on the engine.
    #[test]
    fn slh_engine_rows_are_the_sets_the_config_offers() {
        let ops = sreg::CONFIG_KEYGEN | sreg::CONFIG_SIGN | sreg::CONFIG_VERIFY;
        for (config, sets, named) in [
            (
                sreg::config(2, false),
                [0, 2],
                "SLH-DSA-SHAKE-128f, SLH-DSA-SHAKE-128s",
            ),
            (
                sreg::config(0, true),
                [1, 3],
                "SLH-DSA-SHA2-128f, SLH-DSA-SHA2-128s",
            ),
        ] {
            let (status, log, _) = run_slh_model(None, config);
            assert_eq!(status, 0, "{log}");
            assert!(
                log.starts_with(&format!(
                    "bench: SLH-DSA engine, keygen, sign and verify rows of {named} ("
                )),
                "{log}"
            );
            assert_eq!(engine_rows(&log), 6, "{log}");
            for set in sets {
                for op in ["keygen", "sign", "verify"] {
                    let row = engine_row(&log, SLH_ENGINE_SETS[set], op);
                    assert!(row.ends_with("| ok     |"), "{log}");
                }
            }
            assert!(
                log.contains("accel: SLH-DSA engine: 6 calls in hw, 0 in sw, 6 jobs, "),
                "{log}"
            );
        }
        let (status, log, _) = run_slh_model(None, ops);
        assert_eq!(status, 0, "{log}");
        assert!(
            log.starts_with("bench: SLH-DSA engine, keygen, sign and verify rows of no set ("),
            "{log}"
        );
        assert_eq!(engine_rows(&log), 0, "{log}");
    }

    /// A software "SLH-DSA engine" whose signatures of `wrong_sig` have a
    /// flipped byte.
    struct WrongSlhEngine {
        wrong_sig: &'static str,
    }

    impl SlhDsaOperations for WrongSlhEngine {
        fn pk_root(&mut self, p: &Params, sk_seed: &[u8], pk_seed: &[u8], root: &mut [u8]) {
            OnBackend(&mut SoftKeccak).pk_root(p, sk_seed, pk_seed, root)
        }
        fn sign_digest(
            &mut self,
            p: &Params,
            sk_seed: &[u8],
            pk_seed: &[u8],
            pk_root: &[u8],
            digest: &MessageDigest,
            body: &mut [u8],
        ) {
            OnBackend(&mut SoftKeccak).sign_digest(p, sk_seed, pk_seed, pk_root, digest, body);
            if p.name == self.wrong_sig {
                body[3] ^= 1;
            }
        }
        fn verify_digest(
            &mut self,
            p: &Params,
            pk_seed: &[u8],
            pk_root: &[u8],
            digest: &MessageDigest,
            body: &[u8],
        ) -> bool {
            OnBackend(&mut SoftKeccak).verify_digest(p, pk_seed, pk_root, digest, body)
        }
    }

    /// An engine signature that differs from software's fails that sign
    /// row and the bench, and no other row.
    #[test]
    fn an_slh_engine_signature_that_differs_from_software_fails_the_bench() {
        let mut platform = HostWithStandIn(
            Host,
            WrongSlhEngine {
                wrong_sig: "SLH-DSA-SHAKE-128f",
            },
        );
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let status = run_slh_engine_tier(&mut log, &mut platform, &slh_engine_probe(), iterations);
        assert_eq!(status, STATUS_BENCH_FAILED, "{log}");
        for alg in SLH_ENGINE_SETS {
            for op in ["keygen", "sign", "verify"] {
                let want = if (alg, op) == ("SLH-DSA-SHAKE-128f", "sign") {
                    "| FAIL   |"
                } else {
                    "| ok     |"
                };
                assert!(
                    engine_row(&log, alg, op).ends_with(want),
                    "{alg} {op}:\n{log}"
                );
            }
        }
    }

    /// No SLH-DSA engine: one line, no rows, the model untouched; an engine
    /// the platform cannot drive: its line.
    #[test]
    fn without_an_slh_engine_the_tier_prints_one_line_and_no_rows() {
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        for slhdsa in [
            CoreStatus::NotProbed,
            CoreStatus::Absent { id: 0 },
            CoreStatus::WrongVersion { version: 2 << 16 },
        ] {
            let probe = Probe {
                slhdsa,
                ..slh_engine_probe()
            };
            let mut platform = HostWithEngine::probed(probe);
            let mut log = String::new();
            let status = run_slh_engine_tier(&mut log, &mut platform, &probe, iterations);
            assert_eq!(status, 0);
            assert_eq!(log, "bench: no SLH-DSA engine found: no engine rows\n");
            assert_eq!(platform.pl.borrow_mut().accesses(Which::SlhDsa), (0, 0));
        }
        let mut log = String::new();
        let status = run_slh_engine_tier(&mut log, &mut Host, &slh_engine_probe(), iterations);
        assert_eq!(status, 0);
        assert_eq!(
            log,
            "bench: SLH-DSA engine found, but this platform has no engine backend: no engine rows\n"
        );
    }
}
