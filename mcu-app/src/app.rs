//! The application proper: header, self-tests, memory report, table, exit
//! status.

use crate::bench::{self, Buffers, Meter};
use crate::board::{self, Console};
use crate::table::{Calibration, Unit, CLOCK_HZ};
use core::fmt::Write;
use pqc_selftest::selftest;

/// Exit status bit: a self-test failed.
pub const STATUS_SELFTEST_FAILED: u32 = 1;
/// Exit status bit: a benchmarked operation failed or a stack goal was missed.
pub const STATUS_BENCH_FAILED: u32 = 2;

/// Exit status: the core is not the one the build's board feature names.
pub const STATUS_WRONG_CORE: u32 = 4;

/// Instructions in the calibration loop (2 per iteration).
const REFERENCE_ITERATIONS: u32 = 2_000_000;

/// Runs everything; returns the exit status.
pub fn run(p: &mut cortex_m::Peripherals, buffers: &mut Buffers) -> u32 {
    let out = &mut Console;
    board::start_counter(&mut p.SYST);
    let _ = writeln!(out, "mcu-app: {}, console: semihosting", board::BOARD);
    // A build booted on the wrong machine (or board) would measure the
    // wrong core: refuse.
    let cpuid = p.CPUID.base.read();
    let (part, core) = board::EXPECTED_CORE;
    if (cpuid >> 4) & 0xFFF != part {
        let _ = writeln!(
            out,
            "cpu: CPUID {cpuid:#010x}, not the {core} this build is for: stopping"
        );
        return STATUS_WRONG_CORE;
    }
    let _ = writeln!(
        out,
        "cpu: CPUID {cpuid:#010x}, {core}, as the board feature expects"
    );
    let dwt = board::dwt_cycle_counter_runs(&mut p.DCB, &mut p.DWT);
    let _ = writeln!(
        out,
        "counter: SysTick on the core clock; DWT CYCCNT {}",
        if dwt {
            "runs (not used: SysTick counts the same cycles)"
        } else {
            "does not run on this model (reads as zero)"
        }
    );
    let meter = if board::EMULATED {
        let ticks = board::time_reference_loop(REFERENCE_ITERATIONS);
        let calibration = Calibration {
            count: 2 * REFERENCE_ITERATIONS as u64,
            ticks,
        };
        let _ = writeln!(
            out,
            "counter: calibration: {} instructions (subs/bne loop) = {ticks} SysTick ticks",
            calibration.count
        );
        let _ = writeln!(
            out,
            "counter: QEMU -icount shift=0 advances 1 ns per guest instruction: the counts below are INSTRUCTIONS, not cycles; ms @{} MHz assumes 1 cycle per instruction",
            CLOCK_HZ / 1_000_000
        );
        Meter {
            calibration,
            unit: Unit::Instructions,
        }
    } else {
        let _ = writeln!(out, "counter: SysTick ticks are core clock cycles");
        Meter {
            calibration: Calibration::IDENTITY,
            unit: Unit::Cycles,
        }
    };
    let [(flash, flash_max), (ram, ram_max), (_, stack_max)] = board::memory_use();
    let _ = writeln!(
        out,
        "memory: flash {flash} B of {flash_max} B, static RAM {ram} B of {ram_max} B, stack region {stack_max} B"
    );

    let (run, failed) = selftest::run_all(out);
    let _ = writeln!(out, "selftest: {} passed, {} failed", run - failed, failed);
    if failed != 0 {
        let _ = writeln!(out, "selftest: FAILED, benchmarks skipped");
        return STATUS_SELFTEST_FAILED;
    }
    let iterations = bench::ITERATIONS;
    let _ = writeln!(
        out,
        "bench: ML-DSA sign in the small-stack mode, {} iterations per ML-DSA keygen and verify row, {} per ML-DSA sign row (the mean over {} messages), {} per SLH-DSA row",
        iterations.mldsa,
        pqc_selftest::bench_inputs::sign_row_iterations(iterations.mldsa),
        pqc_selftest::bench_inputs::SIGN_MESSAGES,
        iterations.slhdsa
    );
    if bench::run_table(out, &meter, iterations, buffers) {
        0
    } else {
        STATUS_BENCH_FAILED
    }
}
