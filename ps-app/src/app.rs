//! The application proper, independent of the board: self-tests, the PL
//! probe report and the benchmark table.

use crate::bench;
use core::fmt::Write;
use driver::accel::WotsChainOffload;
use driver::probe::Probe;
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
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use driver::probe::CoreStatus;

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
    }
}
