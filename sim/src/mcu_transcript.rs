//! The mcu-app transcript (`scripts/mcu_qemu.sh`, committed as
//! `report/inputs/mcu-m4-qemu.txt` and `mcu-m7-qemu.txt`) as rows of
//! (algorithm, operation, count per operation, peak stack), for the
//! "sw-m4" / "sw-m7" tiers of the report, and pqm4's Cortex-M4 figures to
//! set them against.
//!
//! Under QEMU the counts are guest instructions (`-icount shift=0`), not
//! cycles: a ratio to pqm4's cycles compares our instructions with real
//! cycles, a lower bound of our cycles only if every instruction took at
//! least one cycle (true on the Cortex-M4).

use std::fmt;

/// What the counts of a transcript are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountUnit {
    /// Guest instructions (QEMU, `-icount shift=0`).
    Instructions,
    /// Core clock cycles (a real board).
    Cycles,
}

/// One row of the benchmark table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McuRow {
    /// Parameter set, e.g. `ML-DSA-44`, `SLH-DSA-SHAKE-128f`.
    pub algorithm: String,
    /// `keygen`, `sign` or `verify`.
    pub operation: String,
    /// Calls the mean is over.
    pub iterations: u32,
    /// Mean count per call, in [`McuTranscript::unit`].
    pub count: u64,
    /// Peak stack over the calls, bytes.
    pub stack_bytes: u64,
}

/// A parsed transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McuTranscript {
    /// The board line (`mcu-app: …`), e.g. `QEMU netduinoplus2 (STM32F405, Cortex-M4F)`.
    pub board: String,
    /// Unit of [`McuRow::count`].
    pub unit: CountUnit,
    /// The table rows, in order.
    pub rows: Vec<McuRow>,
    /// The status of the `EXIT status=N` line, if the run got there.
    pub exit_status: Option<u32>,
}

impl McuTranscript {
    /// The row of `algorithm` / `operation`.
    pub fn row(&self, algorithm: &str, operation: &str) -> Option<&McuRow> {
        self.rows
            .iter()
            .find(|r| r.algorithm == algorithm && r.operation == operation)
    }
}

/// Why a transcript did not parse (line numbers from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McuParseError {
    /// Line of the problem (0: the transcript as a whole).
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for McuParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mcu-app transcript line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for McuParseError {}

fn error(line: usize, what: impl Into<String>) -> McuParseError {
    McuParseError {
        line,
        what: what.into(),
    }
}

/// Parses a transcript. Every table row must be well formed and `ok`: a
/// failed operation has no figure worth reporting.
pub fn parse(text: &str) -> Result<McuTranscript, McuParseError> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let board = lines
        .iter()
        .find_map(|l| l.strip_prefix("mcu-app: "))
        .map(|l| l.split(", console:").next().unwrap_or(l).to_string())
        .ok_or_else(|| error(0, "no 'mcu-app: <board>' line"))?;
    let header_at = lines
        .iter()
        .position(|l| l.starts_with("| algorithm "))
        .ok_or_else(|| error(0, "no table header"))?;
    let header = lines[header_at];
    let unit = match header.split('|').map(str::trim).nth(4) {
        Some("instructions (mean)") => CountUnit::Instructions,
        Some("cycles (mean)") => CountUnit::Cycles,
        _ => return Err(error(header_at + 1, "header names no count unit")),
    };
    if !lines
        .get(header_at + 1)
        .is_some_and(|l| l.starts_with("|---"))
    {
        return Err(error(header_at + 2, "no separator under the header"));
    }
    let mut rows = Vec::new();
    for (index, line) in lines.iter().enumerate().skip(header_at + 2) {
        if !line.starts_with('|') {
            break;
        }
        rows.push(parse_row(line).map_err(|what| error(index + 1, what))?);
    }
    if rows.is_empty() {
        return Err(error(header_at + 3, "the table has no rows"));
    }
    let exit_status = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("EXIT status="))
        .map(|s| {
            s.parse()
                .map_err(|_| error(0, format!("bad exit status {s:?}")))
        })
        .transpose()?;
    Ok(McuTranscript {
        board,
        unit,
        rows,
        exit_status,
    })
}

/// `| alg | op | iters | count | ms | stack | result |`
fn parse_row(line: &str) -> Result<McuRow, String> {
    let cells: Vec<&str> = line.split('|').map(str::trim).collect();
    // Leading and trailing '|' give empty first and last cells.
    let [_, algorithm, operation, iterations, count, _ms, stack, result, _] = cells[..] else {
        return Err(format!("expected 7 columns: {line:?}"));
    };
    if result != "ok" {
        return Err(format!(
            "{algorithm} {operation} did not succeed ({result})"
        ));
    }
    let number = |what: &str, s: &str| -> Result<u64, String> {
        s.parse::<u64>()
            .map_err(|_| format!("{algorithm} {operation}: {what} {s:?} is not a number"))
    };
    Ok(McuRow {
        algorithm: algorithm.to_string(),
        operation: operation.to_string(),
        iterations: u32::try_from(number("iterations", iterations)?)
            .map_err(|_| format!("{algorithm} {operation}: too many iterations"))?,
        count: number("count", count)?,
        stack_bytes: number("stack", stack)?,
    })
}

/// Cycles of one implementation on a real Cortex-M4 (pqm4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pqm4Reference {
    /// The parameter set as our tables name it.
    pub algorithm: &'static str,
    /// pqm4's scheme and implementation.
    pub implementation: &'static str,
    /// Key generation cycles.
    pub keygen: u64,
    /// Signing cycles.
    pub sign: u64,
    /// Verification cycles.
    pub verify: u64,
}

impl Pqm4Reference {
    /// The cycles of `operation` (`keygen`, `sign`, `verify`).
    pub fn cycles(&self, operation: &str) -> Option<u64> {
        match operation {
            "keygen" => Some(self.keygen),
            "sign" => Some(self.sign),
            "verify" => Some(self.verify),
            _ => None,
        }
    }
}

/// Where [`PQM4`] comes from: the pqm4 project's benchmark table
/// (mupq/pqm4, `benchmarks.md`: STM32F407 Cortex-M4 at 24 MHz, no flash
/// wait states), as quoted in issue 16; not re-measured here.
pub const PQM4_SOURCE: &str =
    "pqm4 benchmarks.md (mupq/pqm4), Cortex-M4 (STM32F407), cycles; quoted in issue 16";

/// pqm4's figures: ML-DSA-44 `m4f` (assembly-optimised), SPHINCS+
/// shake-128f-simple `clean` (portable C).
pub const PQM4: [Pqm4Reference; 2] = [
    Pqm4Reference {
        algorithm: "ML-DSA-44",
        implementation: "ml-dsa-44 m4f",
        keygen: 1_426_025,
        sign: 3_943_121,
        verify: 1_421_623,
    },
    Pqm4Reference {
        algorithm: "SLH-DSA-SHAKE-128f",
        implementation: "sphincs-shake-128f-simple clean",
        keygen: 50_505_025,
        sign: 1_182_422_563,
        verify: 70_501_834,
    },
];

/// Our count over pqm4's cycles, for every row that has a pqm4 figure:
/// (algorithm, operation, ratio).
pub fn ratios_to_pqm4(t: &McuTranscript) -> Vec<(String, String, f64)> {
    let mut out = Vec::new();
    for reference in &PQM4 {
        for op in ["keygen", "sign", "verify"] {
            if let (Some(row), Some(cycles)) =
                (t.row(reference.algorithm, op), reference.cycles(op))
            {
                out.push((
                    row.algorithm.clone(),
                    row.operation.clone(),
                    row.count as f64 / cycles as f64,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
mcu-app: QEMU netduinoplus2 (STM32F405, Cortex-M4F), console: semihosting\r
counter: calibration: 4000000 instructions (subs/bne loop) = 672001 SysTick ticks
selftest: 20 passed, 0 failed
| algorithm            | op        | iters | instructions (mean) | ms @168 MHz | peak stack (B) | result |
|----------------------|-----------|-------|---------------------|-------------|----------------|--------|
| ML-DSA-44            | keygen    |    10 |             2852050 |       16.97 |          19284 | ok     |
| ML-DSA-44            | sign      |    10 |             7886242 |       46.94 |          18308 | ok     |
| SLH-DSA-SHAKE-128f   | sign      |     1 |          2364845126 |    14076.45 |           6572 | ok     |
stack: harness 256 B
EXIT status=0
";

    #[test]
    fn a_transcript_becomes_rows() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(t.board, "QEMU netduinoplus2 (STM32F405, Cortex-M4F)");
        assert_eq!(t.unit, CountUnit::Instructions);
        assert_eq!(t.exit_status, Some(0));
        assert_eq!(t.rows.len(), 3);
        assert_eq!(
            t.rows[1],
            McuRow {
                algorithm: "ML-DSA-44".into(),
                operation: "sign".into(),
                iterations: 10,
                count: 7_886_242,
                stack_bytes: 18_308,
            }
        );
        assert_eq!(
            t.row("SLH-DSA-SHAKE-128f", "sign").unwrap().count,
            2_364_845_126
        );
        assert!(t.row("ML-DSA-44", "verify").is_none());
    }

    #[test]
    fn ratios_use_the_pqm4_constants() {
        let t = parse(SAMPLE).unwrap();
        let r = ratios_to_pqm4(&t);
        assert_eq!(r.len(), 3, "{r:?}");
        let sign44 = r
            .iter()
            .find(|(a, o, _)| a == "ML-DSA-44" && o == "sign")
            .unwrap()
            .2;
        assert!((sign44 - 2.0).abs() < 1e-6, "{sign44}");
        let keygen44 = r.iter().find(|(_, o, _)| o == "keygen").unwrap().2;
        assert!((keygen44 - 2.0).abs() < 1e-6, "{keygen44}");
        let slh = r.iter().find(|(a, _, _)| a.starts_with("SLH")).unwrap().2;
        assert!((slh - 2.0).abs() < 1e-6, "{slh}");
    }

    #[test]
    fn failed_rows_and_broken_tables_are_errors() {
        let failed = SAMPLE.replace("18308 | ok     |", "18308 | FAIL   |");
        let e = parse(&failed).unwrap_err();
        assert_eq!(e.line, 7);
        assert!(e.what.contains("did not succeed"), "{e}");
        let garbled = SAMPLE.replace("7886242", "78x6242");
        assert!(parse(&garbled).unwrap_err().what.contains("not a number"));
        let no_table: String = SAMPLE
            .lines()
            .filter(|l| !l.starts_with('|'))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(parse(&no_table).unwrap_err().what, "no table header");
        let cycles = SAMPLE.replace("instructions (mean)", "cycles (mean)      ");
        assert_eq!(parse(&cycles).unwrap().unit, CountUnit::Cycles);
        let short = SAMPLE.replace("|       16.97 ", "");
        assert!(parse(&short).unwrap_err().what.contains("7 columns"));
    }

    /// The committed transcripts parse completely: every row of both tables.
    #[test]
    fn the_committed_transcripts_parse() {
        for (name, text) in [
            (
                "mcu-m4-qemu.txt",
                include_str!("../../report/inputs/mcu-m4-qemu.txt"),
            ),
            (
                "mcu-m7-qemu.txt",
                include_str!("../../report/inputs/mcu-m7-qemu.txt"),
            ),
        ] {
            let t = parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(t.exit_status, Some(0), "{name}");
            assert_eq!(t.unit, CountUnit::Instructions, "{name}");
            for alg in [
                "ML-DSA-44",
                "ML-DSA-65",
                "ML-DSA-87",
                "SLH-DSA-SHAKE-128f",
                "SLH-DSA-SHA2-128f",
                "SLH-DSA-SHAKE-128s",
                "SLH-DSA-SHA2-128s",
            ] {
                for op in ["keygen", "sign", "verify"] {
                    assert!(t.row(alg, op).is_some(), "{name}: no {alg} {op}");
                }
            }
            assert_eq!(ratios_to_pqm4(&t).len(), 6, "{name}");
        }
    }
}
