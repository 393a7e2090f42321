//! `report.json`: every figure of the report as one row
//! `{"algorithm", "op", "tier", "seconds", "source"}`, for scripts and
//! other reports. `source` says whether the figure was measured,
//! QEMU-derived or modelled, and from what.
//!
//! Tiers: `sw-a9` (Cortex-A9 software, from the firmware transcript),
//! `sw-host` (this host's software, measured), `offload` (the primitive
//! offload tier, HwRing/HwKeccak, modelled from the co-simulation), `board`
//! (the firmware's hardware rows measured on a ZedBoard), `engine` (the
//! whole operation on a PL engine, modelled from the co-simulation),
//! `anchor` (published figures the project answers). `sw-m4` / `sw-m7`: the mcu-app
//! transcripts (QEMU instruction counts at 168 MHz, one per cycle).

use super::model::Report;
use super::transcript::SoftwareSource;

/// One figure.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonRow {
    /// Parameter set, e.g. `ML-DSA-44`.
    pub algorithm: String,
    /// `keygen`, `sign` or `verify`.
    pub op: String,
    /// Which tier (see the module docs).
    pub tier: &'static str,
    /// Seconds per operation.
    pub seconds: f64,
    /// Measured, QEMU-derived or modelled, and from what.
    pub source: String,
}

/// The rows of `r`, entry by entry, tier by tier.
pub fn rows(r: &Report) -> Vec<JsonRow> {
    let m = &r.model;
    let software_source = match r.source {
        SoftwareSource::QemuIcount => format!(
            "QEMU-derived: ps-app on QEMU xilinx-zynq-a9 (-icount shift=0), {}; instructions as A9 time at {} cycle(s)/instruction, {:.2} MHz",
            r.transcript,
            m.cycles_per_instruction,
            m.cpu_hz / 1e6
        ),
        SoftwareSource::ZedBoard => format!(
            "measured: ps-app on a ZedBoard, global timer, {}",
            r.transcript
        ),
    };
    let offload_source = format!(
        "modelled: cycle-accurate co-simulation of the PL tops (PL cycles at {:.1} MHz, {} PL cycles per AXI-Lite access) plus CPU work (software share, buffer copies, cache maintenance)",
        m.fclk_hz / 1e6,
        m.axi_lite_cycles
    );
    let mut out = Vec::new();
    for t in &r.mcu {
        for row in &t.transcript.rows {
            out.push(JsonRow {
                algorithm: row.algorithm.clone(),
                op: row.operation.clone(),
                tier: t.tier,
                seconds: row.count as f64 / super::model::MCU_CLOCK_HZ,
                source: format!(
                    "QEMU-derived: mcu-app on {}, {}; -icount instructions as cycles (1 per instruction) at {:.0} MHz, not measured on a board",
                    t.transcript.board,
                    t.file,
                    super::model::MCU_CLOCK_HZ / 1e6
                ),
            });
        }
    }
    for e in &r.entries {
        let mut push = |tier, seconds: Option<f64>, source: String| {
            if let Some(seconds) = seconds {
                out.push(JsonRow {
                    algorithm: e.algorithm.clone(),
                    op: e.operation.clone(),
                    tier,
                    seconds,
                    source,
                });
            }
        };
        push("sw-a9", r.software_seconds(e), software_source.clone());
        push(
            "sw-host",
            e.host.map(|(s, _)| s),
            format!(
                "measured: {}",
                if r.host.is_empty() {
                    "this host"
                } else {
                    &r.host
                }
            ),
        );
        push(
            "offload",
            r.accel_time(e).map(|t| t.total()),
            offload_source.clone(),
        );
        push(
            "engine",
            r.engine_time(e).map(|t| t.total()),
            format!(
                "modelled: cycle-accurate co-simulation of the whole operation on a PL engine (PL cycles at {:.1} MHz, {} PL cycles per AXI-Lite access) plus the driver's buffer copies and cache maintenance{}",
                m.fclk_hz / 1e6,
                m.axi_lite_cycles,
                e.attempts
                    .map(|n| format!("; mean over the sign messages, {n:.2} attempts per signature"))
                    .unwrap_or_default()
            ),
        );
        if r.source == SoftwareSource::ZedBoard {
            push(
                "board",
                r.measured_accel_seconds(e),
                format!(
                    "measured: ps-app hardware rows on a ZedBoard, {}",
                    r.transcript
                ),
            );
        }
    }
    for a in &super::model::ANCHORS {
        for (op, seconds) in ["keygen", "sign", "verify"].into_iter().zip(a.seconds) {
            let Some(seconds) = seconds else { continue };
            out.push(JsonRow {
                algorithm: a.algorithm.into(),
                op: op.into(),
                tier: "anchor",
                seconds,
                source: format!("published: {} ({})", a.label, a.source),
            });
        }
    }
    out
}

/// Escapes a string for a JSON string literal.
fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o
}

/// `report.json`: a JSON array of rows, one per line.
pub fn render_json(r: &Report) -> String {
    let rows = rows(r);
    let mut o = String::from("[\n");
    for (i, row) in rows.iter().enumerate() {
        o.push_str(&format!(
            "  {{\"algorithm\": \"{}\", \"op\": \"{}\", \"tier\": \"{}\", \"seconds\": {:e}, \"source\": \"{}\"}}{}\n",
            escape(&row.algorithm),
            escape(&row.op),
            row.tier,
            row.seconds,
            escape(&row.source),
            if i + 1 < rows.len() { "," } else { "" }
        ));
    }
    o.push_str("]\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::sample_report;

    #[test]
    fn every_figure_is_a_row_that_reads_back() {
        let mut r = sample_report();
        r.host = "linux x86_64 \"test\"".into();
        r.entries[0].host = Some((0.5e-3, 3));
        let text = render_json(&r);
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let rows = v.as_array().unwrap();
        // One sw-a9 row per entry, one sw-host row, one offload row.
        let count = |tier: &str| rows.iter().filter(|x| x["tier"] == tier).count();
        assert_eq!(count("sw-a9"), r.entries.len());
        assert_eq!(count("sw-host"), 1);
        assert_eq!(count("offload"), 1);
        assert_eq!(count("board"), 0, "no board rows from a QEMU transcript");
        let offload = rows.iter().find(|x| x["tier"] == "offload").unwrap();
        assert_eq!(offload["algorithm"], "ML-DSA-44");
        assert_eq!(offload["op"], "sign");
        let e = r.entries.iter().find(|e| e.accel.is_some()).unwrap();
        let expected = r.accel_time(e).unwrap().total();
        assert!((offload["seconds"].as_f64().unwrap() - expected).abs() < 1e-12 * expected);
        assert!(offload["source"].as_str().unwrap().starts_with("modelled"));
        let host = rows.iter().find(|x| x["tier"] == "sw-host").unwrap();
        assert_eq!(host["source"], "measured: linux x86_64 \"test\"");
        for row in rows {
            assert!(row["seconds"].as_f64().unwrap() > 0.0);
        }
    }

    #[test]
    fn mcu_transcripts_become_sw_m4_and_sw_m7_rows() {
        let mut r = sample_report();
        for (tier, file) in [
            (
                "sw-m4",
                include_str!("../../../report/inputs/mcu-m4-qemu.txt"),
            ),
            (
                "sw-m7",
                include_str!("../../../report/inputs/mcu-m7-qemu.txt"),
            ),
        ] {
            r.mcu.push(crate::report::McuTier {
                tier,
                file: tier.into(),
                transcript: crate::mcu_transcript::parse(file).unwrap(),
            });
        }
        let v: serde_json::Value = serde_json::from_str(&render_json(&r)).unwrap();
        let rows = v.as_array().unwrap();
        for tier in ["sw-m4", "sw-m7"] {
            let t: Vec<_> = rows.iter().filter(|x| x["tier"] == tier).collect();
            assert_eq!(t.len(), r.mcu[0].transcript.rows.len(), "{tier}");
            let sign44 = t
                .iter()
                .find(|x| x["algorithm"] == "ML-DSA-44" && x["op"] == "sign")
                .unwrap();
            let count = r.mcu[0].transcript.row("ML-DSA-44", "sign").unwrap().count as f64;
            let s = sign44["seconds"].as_f64().unwrap();
            // Within the M4/M7 difference (a few ppm) of the M4 count at 168 MHz.
            assert!((s - count / 168e6).abs() < 1e-4 * s, "{tier}: {s}");
            assert!(sign44["source"]
                .as_str()
                .unwrap()
                .starts_with("QEMU-derived"));
        }
        let md = crate::report::render_markdown(&r);
        assert!(md.contains("## Microcontroller baseline"));
        assert!(md.contains("| ML-DSA-44 | sign |"));
    }
}
