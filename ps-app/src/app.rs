//! The application proper, independent of the board: self-tests, the PL
//! probe report and the benchmark tables (software, primitive offload,
//! ML-DSA engine).

use crate::bench;
use core::fmt::Write;
use driver::accel::{AccelError, AccelStats, HwMlDsa, WotsChainOffload};
use driver::bus::RegisterBus;
use driver::cache::CacheMaintenance;
use driver::dma::AddressMap;
use driver::probe::Probe;
use pqc::mldsa::ParameterSet;
use pqc::ring::RingBackend;
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

/// The ML-DSA engine as the benchmark uses it: [`HwMlDsa`] behind a trait
/// object, so the board keeps its concrete bus types. KeyGen only: the
/// engine runs nothing else yet.
pub trait MlDsaEngine {
    /// [`HwMlDsa::keygen_internal`].
    fn keygen_internal(
        &mut self,
        set: ParameterSet,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> pqc::Result<()>;
    /// [`HwMlDsa::stats`].
    fn stats(&self) -> AccelStats;
    /// [`HwMlDsa::fault`].
    fn fault(&self) -> Option<AccelError>;
    /// [`HwMlDsa::abandoned`].
    fn abandoned(&self) -> bool;
}

impl<B: RegisterBus, D: RegisterBus, C: CacheMaintenance, M: AddressMap> MlDsaEngine
    for HwMlDsa<'_, B, D, C, M>
{
    fn keygen_internal(
        &mut self,
        set: ParameterSet,
        xi: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> pqc::Result<()> {
        HwMlDsa::keygen_internal(self, set, xi, pk, sk)
    }
    fn stats(&self) -> AccelStats {
        HwMlDsa::stats(self)
    }
    fn fault(&self) -> Option<AccelError> {
        HwMlDsa::fault(self)
    }
    fn abandoned(&self) -> bool {
        HwMlDsa::abandoned(self)
    }
}

/// What runs with the ML-DSA engine: a platform to measure on, the engine.
pub type EngineBody<'a> = dyn FnMut(&mut dyn Platform, &mut dyn MlDsaEngine) + 'a;

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
        "bench: software backends, {} iterations per ML-DSA row, {} per SLH-DSA row",
        iterations.mldsa, iterations.slhdsa
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
    status | run_engine_tier(out, platform, &probe, iterations)
}

/// The ML-DSA engine rows (keygen of every set), when the probe found the
/// engine; returns the exit-status bits.
pub fn run_engine_tier(
    out: &mut dyn Write,
    platform: &mut dyn Platform,
    probe: &Probe,
    iterations: bench::Iterations,
) -> u32 {
    if !probe.mldsa_engine_found() {
        let _ = writeln!(out, "bench: no ML-DSA engine found: no engine rows");
        return 0;
    }
    let mut ok = true;
    let ran = platform.with_mldsa_engine(&mut |timing, engine| {
        let _ = writeln!(
            out,
            "bench: ML-DSA engine, keygen rows only (sign and verify are not on the engine yet; software after a fault), {} iterations per row",
            iterations.mldsa
        );
        ok = bench::run_engine_table(out, timing, engine, iterations);
        bench::print_accel_line(
            out,
            "ML-DSA engine",
            engine.stats(),
            engine.fault(),
            engine.abandoned(),
        );
    });
    if !ran {
        let _ = writeln!(
            out,
            "bench: ML-DSA engine found, but this platform has no engine backend: no engine rows"
        );
        return 0;
    }
    if ok {
        0
    } else {
        STATUS_BENCH_FAILED
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use driver::accel::model::{self, Fault, Pl, SharedPl, Which};
    use driver::probe::CoreStatus;
    use ps_pl_contract::dma::MLDSA_MAX_STREAM_BYTES;
    use ps_pl_contract::regmap::mldsa as mreg;

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
        assert!(!log.contains("| engine "), "{log}");
    }

    const MLDSA_SETS: [&str; 3] = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"];

    /// The probe of a PL with the ML-DSA engine and no primitive cores.
    fn engine_probe() -> Probe {
        Probe {
            pl_configured: true,
            level_shifters_on: true,
            ntt: CoreStatus::Absent { id: 0 },
            keccak: CoreStatus::Absent { id: 0 },
            mldsa: CoreStatus::Present {
                config: mreg::CONFIG_KEYGEN,
            },
        }
    }

    /// A host "board" whose probe finds the ML-DSA engine and whose engine
    /// backend is the driver's `HwMlDsa` over its behavioural PL model.
    struct HostWithEngine {
        host: Host,
        pl: SharedPl,
    }

    impl HostWithEngine {
        fn new() -> Self {
            HostWithEngine {
                host: Host,
                pl: Pl::new(),
            }
        }
    }

    impl Platform for HostWithEngine {
        fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
            self.host.measure(f)
        }
        fn probe(&mut self) -> Probe {
            engine_probe()
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
    }

    /// The engine row of `alg` in `log`.
    fn engine_row<'a>(log: &'a str, alg: &str) -> &'a str {
        log.lines()
            .find(|l| l.starts_with(&format!("| {alg:<20} | keygen | engine  | ")))
            .unwrap_or_else(|| panic!("no engine row for {alg}:\n{log}"))
    }

    fn engine_rows(log: &str) -> usize {
        log.lines().filter(|l| l.contains("| engine  |")).count()
    }

    /// Keygen of every set on `HwMlDsa` over the model: one row each, ok
    /// (keys equal software's), every call a job on the engine.
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
            "bench: ML-DSA engine, keygen rows only (sign and verify are not on the engine yet"
        ));
        for alg in MLDSA_SETS {
            let row = engine_row(&log, alg);
            assert!(row.ends_with("| ok     |"), "{row}");
            assert!(row.contains("|     2 |"), "{row}");
        }
        assert_eq!(engine_rows(&log), 3, "keygen rows only:\n{log}");
        assert!(
            log.contains("accel: ML-DSA engine: 6 calls in hw, 0 in sw, 6 jobs, 0 failed jobs, "),
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
            assert!(engine_row(&log, alg).ends_with("| ok     |"));
        }
        assert!(
            log.contains("accel: ML-DSA engine: 0 calls in hw, 3 in sw, "),
            "{log}"
        );
        assert!(
            log.contains("abandoned, first fault: op 0x01 refused"),
            "{log}"
        );
    }

    /// An engine whose ML-DSA-65 keys differ from software's.
    struct WrongKeys;

    impl MlDsaEngine for WrongKeys {
        fn keygen_internal(
            &mut self,
            set: ParameterSet,
            xi: &[u8; 32],
            pk: &mut [u8],
            sk: &mut [u8],
        ) -> pqc::Result<()> {
            pqc::mldsa::keygen_internal(set, xi, pk, sk)?;
            if set == ParameterSet::MlDsa65 {
                sk[100] ^= 1;
            }
            Ok(())
        }
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

    struct HostWithWrongEngine(Host);

    impl Platform for HostWithWrongEngine {
        fn measure(&mut self, f: &mut dyn FnMut()) -> Measurement {
            self.0.measure(f)
        }
        fn probe(&mut self) -> Probe {
            engine_probe()
        }
        fn platform_notes(&self, out: &mut dyn Write) {
            self.0.platform_notes(out)
        }
        fn with_mldsa_engine(&mut self, body: &mut EngineBody<'_>) -> bool {
            body(&mut self.0, &mut WrongKeys);
            true
        }
    }

    #[test]
    fn engine_keys_that_differ_from_software_fail_the_bench() {
        let mut log = String::new();
        let iterations = bench::Iterations {
            mldsa: 1,
            slhdsa: 1,
        };
        let status = run_engine_tier(
            &mut log,
            &mut HostWithWrongEngine(Host),
            &engine_probe(),
            iterations,
        );
        assert_eq!(status, STATUS_BENCH_FAILED, "{log}");
        assert!(
            engine_row(&log, "ML-DSA-65").ends_with("| FAIL   |"),
            "{log}"
        );
        assert!(
            engine_row(&log, "ML-DSA-44").ends_with("| ok     |"),
            "{log}"
        );
        assert!(
            engine_row(&log, "ML-DSA-87").ends_with("| ok     |"),
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
    /// cores): software table, no hw rows, engine rows, status 0.
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
        assert!(log.contains("ML-DSA engine: present (config 0x00000001)"));
        assert!(log.contains("bench: no accelerator found: no hw rows"));
        for alg in MLDSA_SETS {
            assert!(engine_row(&log, alg).ends_with("| ok     |"));
        }
        assert_eq!(engine_rows(&log), 3);
        assert!(!log.contains("no ML-DSA engine"));
    }
}
