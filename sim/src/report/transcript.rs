//! The firmware's benchmark table: parsing a ps-app transcript.

use std::fmt;

/// Where a ps-app transcript came from; decides how ticks become time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftwareSource {
    /// QEMU `xilinx-zynq-a9` with `-icount shift=0` (scripts/qemu.sh).
    QemuIcount,
    /// A ZedBoard (Cortex-A9 at 666.67 MHz).
    ZedBoard,
}

impl SoftwareSource {
    /// Parses `qemu` or `zedboard`.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "qemu" => Ok(Self::QemuIcount),
            "zedboard" => Ok(Self::ZedBoard),
            other => Err(format!(
                "unknown software source `{other}` (expected qemu or zedboard)"
            )),
        }
    }

    /// How figures from this source are labelled in the report.
    pub fn label(self) -> &'static str {
        match self {
            Self::QemuIcount => "QEMU icount (instructions, modelled as A9 time)",
            Self::ZedBoard => "ZedBoard (measured)",
        }
    }
}

/// One row of the ps-app benchmark table.
#[derive(Clone, Debug, PartialEq)]
pub struct PsRow {
    /// Parameter set, e.g. `ML-DSA-44`.
    pub algorithm: String,
    /// `keygen`, `sign` or `verify`.
    pub operation: String,
    /// `sw` or `hw`.
    pub backend: String,
    /// Iterations averaged.
    pub iterations: u32,
    /// Mean global-timer ticks per call.
    pub mean_ticks: u64,
    /// Peak stack in bytes, if the platform measured it.
    pub peak_stack: Option<u64>,
    /// The row reported `ok` (every call succeeded).
    pub ok: bool,
}

/// The benchmark table of one ps-app transcript.
#[derive(Clone, Debug, PartialEq)]
pub struct PsTable {
    /// Global-timer prescaler from the `timer:` line.
    pub prescaler: u32,
    /// The rows in printed order.
    pub rows: Vec<PsRow>,
}

/// Why a transcript could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number (0: the transcript as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "ps-app transcript: {}", self.message)
        } else {
            write!(f, "ps-app transcript line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// The header cells ps-app prints (ps-app/src/bench.rs, `print_header`).
const HEADER: [&str; 7] = [
    "algorithm",
    "op",
    "backend",
    "iters",
    "ticks (mean)",
    "peak stack (B)",
    "result",
];

fn cells(line: &str) -> Option<Vec<&str>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// Parses the benchmark table and the timer prescaler out of a ps-app
/// console transcript (QEMU or board; serial noise around it is ignored).
pub fn parse_transcript(text: &str) -> Result<PsTable, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let prescaler = lines
        .iter()
        .find_map(|l| {
            let rest = l.trim().strip_prefix("timer:")?;
            let after = rest.split("prescaler").nth(1)?;
            let digits: String = after
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            Some(digits.parse::<u32>().map_err(|_| rest.to_string()))
        })
        .ok_or_else(|| {
            err(
                0,
                "no `timer: ... prescaler N` line: ticks cannot be converted to time",
            )
        })?
        .map_err(|line| err(0, format!("unreadable prescaler in timer line `{line}`")))?;

    let headers: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| cells(l).is_some_and(|c| c.first() == Some(&"algorithm")))
        .map(|(i, _)| i)
        .collect();
    if headers.is_empty() {
        return Err(err(
            0,
            "no benchmark table (no `| algorithm | op | ...` header)",
        ));
    }
    // ps-app prints the software table, then (with the PL present) the
    // `hw` table in the same format.
    let mut rows = Vec::new();
    for header_at in headers {
        rows.extend(parse_table(&lines, header_at)?);
    }
    Ok(PsTable { prescaler, rows })
}

/// The rows of the table whose header is line `header_at` (0-based).
fn parse_table(lines: &[&str], header_at: usize) -> Result<Vec<PsRow>, ParseError> {
    let header = cells(lines[header_at]).unwrap_or_default();
    if header != HEADER {
        return Err(err(
            header_at + 1,
            format!("unexpected table header {header:?}, expected {HEADER:?}"),
        ));
    }
    let separator = lines.get(header_at + 1).copied().unwrap_or("");
    if !separator.trim().starts_with("|--") {
        return Err(err(
            header_at + 2,
            "missing `|---|` separator under the header",
        ));
    }

    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(header_at + 2) {
        let n = i + 1;
        if !line.trim_start().starts_with('|') {
            break;
        }
        let c = cells(line).ok_or_else(|| err(n, "table row does not end with `|`"))?;
        if c.len() != HEADER.len() {
            return Err(err(
                n,
                format!("{} cells, expected {}", c.len(), HEADER.len()),
            ));
        }
        let number = |what: &str, s: &str| {
            s.parse::<u64>()
                .map_err(|_| err(n, format!("{what} `{s}` is not a decimal number")))
        };
        let iterations = u32::try_from(number("iterations", c[3])?)
            .map_err(|_| err(n, "iteration count out of range"))?;
        if iterations == 0 {
            return Err(err(n, "zero iterations"));
        }
        let peak_stack = match c[5] {
            "n/a" => None,
            s => Some(number("peak stack", s)?),
        };
        let ok = match c[6] {
            "ok" => true,
            "FAIL" => false,
            other => return Err(err(n, format!("result `{other}` is neither ok nor FAIL"))),
        };
        if c[0].is_empty() || c[1].is_empty() || c[2].is_empty() {
            return Err(err(n, "empty algorithm, op or backend cell"));
        }
        rows.push(PsRow {
            algorithm: c[0].to_string(),
            operation: c[1].to_string(),
            backend: c[2].to_string(),
            iterations,
            mean_ticks: number("ticks", c[4])?,
            peak_stack,
            ok,
        });
    }
    if rows.is_empty() {
        return Err(err(header_at + 1, "benchmark table has no rows"));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::TRANSCRIPT;

    #[test]
    fn parses_a_captured_qemu_transcript() {
        let t = parse_transcript(TRANSCRIPT).unwrap();
        assert_eq!(t.prescaler, 0);
        assert_eq!(t.rows.len(), 21);
        assert_eq!(
            t.rows[1],
            PsRow {
                algorithm: "ML-DSA-44".into(),
                operation: "sign".into(),
                backend: "sw".into(),
                iterations: 10,
                mean_ticks: 522830,
                peak_stack: Some(46556),
                ok: true,
            }
        );
        let last = t.rows.last().unwrap();
        assert_eq!(
            (
                last.algorithm.as_str(),
                last.operation.as_str(),
                last.mean_ticks
            ),
            ("SLH-DSA-SHA2-128s", "verify", 598057)
        );
    }

    #[test]
    fn malformed_transcripts_give_a_clear_error() {
        let no_timer = TRANSCRIPT.replace("timer:", "tiemr:");
        let e = parse_transcript(&no_timer).unwrap_err();
        assert!(e.message.contains("prescaler"), "{e}");

        let e = parse_transcript("timer: prescaler 0\nnothing else\n").unwrap_err();
        assert!(e.to_string().contains("no benchmark table"), "{e}");

        let bad_ticks = TRANSCRIPT.replace("522830", "52x830");
        let e = parse_transcript(&bad_ticks).unwrap_err();
        assert!(e.message.contains("`52x830` is not a decimal"), "{e}");
        assert_eq!(e.line, 33);
        assert!(e.to_string().starts_with("ps-app transcript line 33:"));

        let missing_cell = TRANSCRIPT.replace("|          46556 |", "|");
        let e = parse_transcript(&missing_cell).unwrap_err();
        assert!(e.message.contains("6 cells, expected 7"), "{e}");

        let truncated: String = TRANSCRIPT
            .lines()
            .take_while(|l| !l.starts_with("|-"))
            .map(|l| format!("{l}\n"))
            .collect();
        let e = parse_transcript(&truncated).unwrap_err();
        assert!(e.message.contains("separator"), "{e}");

        let weird = TRANSCRIPT.replacen("| ok     |", "| maybe  |", 1);
        assert!(parse_transcript(&weird)
            .unwrap_err()
            .message
            .contains("neither ok nor FAIL"));
    }
}
