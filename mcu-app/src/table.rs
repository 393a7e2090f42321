//! The benchmark table's rows and units, independent of the board (unit
//! tested on the host). `sim/src/mcu_transcript.rs` parses what this prints.

use core::fmt::Write;

/// The STM32F407's maximum core clock, for the time column.
pub const CLOCK_HZ: u64 = 168_000_000;

/// What a count means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Guest instructions: QEMU under `-icount shift=0` advances virtual
    /// time by 1 ns per instruction, whatever the instruction costs on
    /// silicon. The time column then assumes one instruction per cycle.
    Instructions,
    /// Core clock cycles (SysTick on the core clock of a real chip).
    Cycles,
}

/// Converts SysTick ticks to counts of [`Unit`]: `ticks · count / ticks_ref`
/// from a reference run of a loop of known length (`count` instructions
/// took `ticks_ref` ticks), so the SysTick clock of the model need not be
/// known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calibration {
    /// Instructions (or cycles) of the reference run.
    pub count: u64,
    /// SysTick ticks it took.
    pub ticks: u64,
}

impl Calibration {
    /// One count per tick (a real chip's SysTick on the core clock).
    pub const IDENTITY: Calibration = Calibration { count: 1, ticks: 1 };

    /// `ticks` in counts, rounded to nearest.
    pub fn counts(&self, ticks: u64) -> u64 {
        let scaled = ticks as u128 * self.count as u128 + self.ticks as u128 / 2;
        (scaled / self.ticks.max(1) as u128) as u64
    }
}

/// Milliseconds at [`CLOCK_HZ`] for `counts` cycles, in hundredths.
pub fn centimillis_at_clock(counts: u64) -> u64 {
    (counts as u128 * 100_000 / CLOCK_HZ as u128) as u64
}

/// One measured operation.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Parameter set.
    pub algorithm: &'static str,
    /// keygen, sign or verify.
    pub operation: &'static str,
    /// Calls measured.
    pub iterations: u32,
    /// Mean count per call.
    pub mean: u64,
    /// Peak stack over the calls, bytes.
    pub stack_bytes: usize,
    /// Every call succeeded (and verify accepted).
    pub ok: bool,
}

/// Prints the table header for `unit`.
pub fn print_header(out: &mut dyn Write, unit: Unit) {
    let _ = writeln!(
        out,
        "| algorithm            | op        | iters | {:<19} | ms @168 MHz | peak stack (B) | result |",
        match unit {
            Unit::Instructions => "instructions (mean)",
            Unit::Cycles => "cycles (mean)",
        }
    );
    let _ = writeln!(
        out,
        "|----------------------|-----------|-------|---------------------|-------------|----------------|--------|"
    );
}

/// Prints one row.
pub fn print_row(out: &mut dyn Write, row: &Row) {
    let ms = centimillis_at_clock(row.mean);
    let _ = writeln!(
        out,
        "| {:<20} | {:<9} | {:>5} | {:>19} | {:>8}.{:02} | {:>14} | {:<6} |",
        row.algorithm,
        row.operation,
        row.iterations,
        row.mean,
        ms / 100,
        ms % 100,
        row.stack_bytes,
        if row.ok { "ok" } else { "FAIL" }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_scales_and_rounds() {
        // 25 MHz SysTick at 1 ns per instruction: 40 instructions a tick.
        let c = Calibration {
            count: 2_000_000,
            ticks: 50_000,
        };
        assert_eq!(c.counts(1), 40);
        assert_eq!(c.counts(12_345), 493_800);
        let odd = Calibration { count: 2, ticks: 3 };
        assert_eq!(odd.counts(1), 1); // 0.67 rounds up
        assert_eq!(odd.counts(4), 3); // 2.67
        assert_eq!(Calibration::IDENTITY.counts(u64::MAX / 2), u64::MAX / 2);
    }

    #[test]
    fn time_at_168_mhz() {
        assert_eq!(centimillis_at_clock(168_000), 100); // 1.00 ms
        assert_eq!(centimillis_at_clock(1_680), 1);
        assert_eq!(centimillis_at_clock(1_679), 0);
    }

    #[test]
    fn a_row_has_the_columns_the_checks_expect() {
        let mut line = String::new();
        print_row(
            &mut line,
            &Row {
                algorithm: "ML-DSA-44",
                operation: "sign",
                iterations: 10,
                mean: 336_000,
                stack_bytes: 20_000,
                ok: true,
            },
        );
        assert_eq!(
            line,
            "| ML-DSA-44            | sign      |    10 |              336000 |        2.00 |          20000 | ok     |\n"
        );
        let mut header = String::new();
        print_header(&mut header, Unit::Instructions);
        let widths = |s: &str| {
            s.lines()
                .next()
                .unwrap()
                .split('|')
                .map(str::len)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            widths(&header),
            widths(&line),
            "header and row columns align"
        );
    }
}
