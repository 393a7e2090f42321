//! `report.svg`: the grouped bar chart.

use super::markdown::fmt_seconds;
use super::model::Report;
use super::transcript::SoftwareSource;
use std::fmt::Write as _;

/// Escapes text for XML content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c => o.push(c),
        }
    }
    o
}

/// One group of bars: a label and one optional value per series.
#[derive(Clone, Debug, PartialEq)]
pub struct BarGroup {
    /// Shown under the group.
    pub label: String,
    /// One value per series (seconds); `None` leaves a gap.
    pub values: Vec<Option<f64>>,
    /// Written above the group's tallest bar (e.g. the speed-up).
    pub annotation: Option<String>,
}

/// A grouped bar chart (values in seconds, positive).
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Title line.
    pub title: String,
    /// Series names (legend), one colour each.
    pub series: Vec<String>,
    /// The groups, left to right.
    pub groups: Vec<BarGroup>,
    /// Lines printed under the chart (provenance).
    pub footnotes: Vec<String>,
}

/// An axis label: `fmt_seconds` without trailing zero decimals.
fn fmt_tick(v: f64) -> String {
    let s = fmt_seconds(v);
    let (num, unit) = s.split_once(' ').unwrap_or((&s, ""));
    let num = if num.contains('.') {
        num.trim_end_matches('0').trim_end_matches('.')
    } else {
        num
    };
    format!("{num} {unit}")
}

const COLOURS: [&str; 6] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1",
];

/// Renders a chart as a standalone SVG document. The value axis is
/// logarithmic when the values span more than a factor of 20.
pub fn render_svg(chart: &Chart) -> String {
    let values: Vec<f64> = chart
        .groups
        .iter()
        .flat_map(|g| g.values.iter().flatten().copied())
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let (lo, hi) = values.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    let log = !values.is_empty() && hi / lo > 20.0;

    let (left, right, top) = (90.0, 20.0, 60.0);
    let bottom = 170.0 + 16.0 * chart.footnotes.len() as f64;
    let bar_w = 14.0;
    let n_series = chart.series.len().max(1) as f64;
    let group_w = bar_w * n_series + 16.0;
    let plot_w = (group_w * chart.groups.len().max(1) as f64).max(300.0);
    let plot_h = 360.0;
    // Wide enough for the footnotes (about 5.8 px per character at 10 px).
    let footnote_w = chart
        .footnotes
        .iter()
        .map(|f| 20.0 + 5.8 * f.chars().count() as f64)
        .fold(0.0, f64::max);
    let (width, height) = (
        (left + plot_w + right).max(footnote_w),
        top + plot_h + bottom,
    );

    // Axis range and ticks (values in µs for labels).
    let (axis_lo, axis_hi, ticks): (f64, f64, Vec<f64>) = if values.is_empty() {
        (0.0, 1.0, vec![0.0, 1.0])
    } else if log {
        let a = lo.log10().floor() as i32;
        let b = hi.log10().ceil() as i32;
        let b = if b == a { a + 1 } else { b };
        (
            10f64.powi(a),
            10f64.powi(b),
            (a..=b).map(|e| 10f64.powi(e)).collect(),
        )
    } else {
        let step = nice_step(hi / 5.0);
        let top_v = (hi / step).ceil() * step;
        let n = (top_v / step).round() as usize;
        (0.0, top_v, (0..=n).map(|i| i as f64 * step).collect())
    };
    let y_of = |v: f64| -> f64 {
        let frac = if log {
            (v.log10() - axis_lo.log10()) / (axis_hi.log10() - axis_lo.log10())
        } else {
            (v - axis_lo) / (axis_hi - axis_lo)
        };
        top + plot_h - frac.clamp(0.0, 1.0) * plot_h
    };

    let mut s = String::new();
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="white"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        width / 2.0,
        xml_escape(&chart.title)
    );
    // Grid lines and value labels.
    for &t in &ticks {
        let y = y_of(t);
        let _ = writeln!(
            s,
            r##"<line x1="{left:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/>"##,
            left + plot_w
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y + 4.0,
            xml_escape(&fmt_tick(t))
        );
    }
    // Axes.
    let _ = writeln!(
        s,
        r#"<line x1="{left:.1}" y1="{top:.1}" x2="{left:.1}" y2="{:.1}" stroke="black"/>"#,
        top + plot_h
    );
    let _ = writeln!(
        s,
        r#"<line x1="{left:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black"/>"#,
        top + plot_h,
        left + plot_w,
        top + plot_h
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">time per operation{}</text>"#,
        top + plot_h / 2.0,
        if log { " (log scale)" } else { "" }
    );
    // Bars.
    for (gi, g) in chart.groups.iter().enumerate() {
        let gx = left + gi as f64 * group_w + 8.0;
        for (si, v) in g.values.iter().enumerate() {
            let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) else {
                continue;
            };
            let x = gx + si as f64 * bar_w;
            let y = y_of(v);
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {}</title></rect>"#,
                bar_w - 2.0,
                (top + plot_h - y).max(0.5),
                COLOURS[si % COLOURS.len()],
                xml_escape(&format!(
                    "{} — {}",
                    g.label,
                    chart.series.get(si).map_or("", |s| s)
                )),
                xml_escape(&fmt_seconds(v))
            );
        }
        if let Some(text) = &g.annotation {
            let tallest = g
                .values
                .iter()
                .flatten()
                .filter(|v| v.is_finite() && **v > 0.0)
                .fold(0.0f64, |a, &b| a.max(b));
            if tallest > 0.0 {
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="10">{}</text>"#,
                    gx + bar_w * n_series / 2.0 - 1.0,
                    y_of(tallest) - 4.0,
                    xml_escape(text)
                );
            }
        }
        let lx = gx + bar_w * n_series / 2.0;
        let ly = top + plot_h + 12.0;
        let _ = writeln!(
            s,
            r#"<text transform="translate({lx:.1},{ly:.1}) rotate(-50)" text-anchor="end">{}</text>"#,
            xml_escape(&g.label)
        );
    }
    // Legend.
    for (si, name) in chart.series.iter().enumerate() {
        let y = 36.0;
        let x = left + si as f64 * (plot_w / n_series);
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="12" height="12" fill="{}"/>"#,
            y,
            COLOURS[si % COLOURS.len()]
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            x + 16.0,
            y + 10.0,
            xml_escape(name)
        );
    }
    for (i, line) in chart.footnotes.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="10" y="{:.1}" font-size="10">{}</text>"#,
            height - 10.0 - 16.0 * (chart.footnotes.len() - 1 - i) as f64,
            xml_escape(line)
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

/// The report's chart: software A9 and accelerated time per operation
/// (the operations with both figures; every software row if none has an
/// accelerated figure), the speed-up above each pair.
pub fn chart_of(r: &Report) -> Chart {
    let m = &r.model;
    let (sw_name, sw_note) = match r.source {
        SoftwareSource::QemuIcount => (
            "software, Cortex-A9 (QEMU-derived)",
            format!(
                "Software: QEMU -icount instruction counts of the ps-app table at {} cycle/instruction, {:.2} MHz: not board time.",
                m.cycles_per_instruction,
                m.cpu_hz / 1e6
            ),
        ),
        SoftwareSource::ZedBoard => (
            "software, Cortex-A9 (ZedBoard)",
            "Software: measured on a ZedBoard (global timer).".to_string(),
        ),
    };
    let with_accel = r.entries.iter().any(|e| r.accel_time(e).is_some());
    let measured = r.entries.iter().any(|e| e.measured_accel.is_some());
    let mut series = vec![
        sw_name.to_string(),
        "accelerated (modelled from co-simulation)".to_string(),
    ];
    if measured {
        series.push("accelerated (measured on the board)".into());
    }
    for t in &r.mcu {
        series.push(format!(
            "software, {} (QEMU instructions at 168 MHz)",
            if t.tier == "sw-m4" {
                "Cortex-M4"
            } else {
                "Cortex-M7"
            }
        ));
    }
    let engine = r.entries.iter().any(|e| e.engine.is_some());
    if engine {
        series.push("whole operation on the PL engine (modelled from co-simulation)".into());
    }
    for a in &super::model::ANCHORS {
        series.push(format!("published: {}", a.label));
    }
    Chart {
        title: "ML-DSA / SLH-DSA on the Zynq-7000: software vs PL-accelerated (modelled)".into(),
        series,
        groups: r
            .entries
            .iter()
            .filter(|e| {
                !with_accel
                    || r.accel_time(e).is_some()
                    || e.measured_accel.is_some()
                    || e.engine.is_some()
            })
            .map(|e| {
                let sw = r.software_seconds(e);
                let acc = r.accel_time(e).map(|t| t.total());
                let mut values = vec![sw, acc];
                if measured {
                    values.push(r.measured_accel_seconds(e));
                }
                for t in &r.mcu {
                    values.push(t.seconds(&e.algorithm, &e.operation));
                }
                if engine {
                    values.push(r.engine_time(e).map(|t| t.total()));
                }
                for a in &super::model::ANCHORS {
                    values.push(if a.algorithm == e.algorithm {
                        a.seconds_of(&e.operation)
                    } else {
                        None
                    });
                }
                BarGroup {
                    label: format!("{} {}", e.algorithm, e.operation),
                    values,
                    annotation: sw.zip(acc).map(|(s, a)| format!("{:.1}×", s / a)),
                }
            })
            .collect(),
        footnotes: vec![
            sw_note,
            "Cortex-M4/M7: mcu-app QEMU instruction counts at 168 MHz, 1 instruction per cycle; pqm4 (real M4, cycles) in report.md.".to_string(),
            format!(
                "Accelerated: PL cycles of the {} co-simulation at {:.1} MHz + CPU share left in software + driver work (model in report.md), not measured on a board.",
                r.engine,
                m.fclk_hz / 1e6
            ),
            "Engine: the whole operation in the PL (ML-DSA KeyGen so far), the same co-simulation and model with no CPU share.".to_string(),
            "Published marks: ML-DSA-44, the Zynq-7000 co-design of the study, full hardware on Artix-7 (Beckwith et al., FPT 2021, at 116 MHz), pqm4 on a Cortex-M4 at 168 MHz; SLH-DSA-SHAKE-128f, SLotH on Artix-7 at 100 MHz and full-hardware SPHINCS+ at 250 MHz (Amiet et al., signing only); sources in report.md.".to_string(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::sample_report;

    /// Well-formedness and content of the chart, read back with an XML parser.
    #[test]
    fn svg_is_well_formed_and_has_every_bar_and_label() {
        let r = sample_report();
        let svg = render_svg(&chart_of(&r));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let bars = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.children().any(|c| c.has_tag_name("title")))
            .count();
        // Only the operation with both figures: two bars, and its speed-up,
        // and the published marks of ML-DSA-44 sign.
        let marks_of = |algorithm: &str, operation: &str| {
            crate::report::ANCHORS
                .iter()
                .filter(|a| a.algorithm == algorithm && a.seconds_of(operation).is_some())
                .count()
        };
        assert_eq!(bars, 2 + marks_of("ML-DSA-44", "sign"));
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(str::to_string))
            .collect();
        assert!(!texts.iter().any(|t| t == "ML-DSA-44 keygen"));
        assert!(texts.iter().any(|t| t == "ML-DSA-44 sign"));
        assert!(texts.iter().any(|t| t.ends_with('×')));
        assert!(texts.iter().any(|t| t.contains("not board time")));
        // Without accelerated figures every software row is drawn, on a
        // log axis (they span 10^4).
        let mut sw_only = r.clone();
        sw_only.entries.iter_mut().for_each(|e| e.accel = None);
        let svg = render_svg(&chart_of(&sw_only));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let bars = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.children().any(|c| c.has_tag_name("title")))
            .count();
        // 21 software bars, and the marks of each operation's anchors
        // (none where an anchor gives no figure for the operation).
        let marks: usize = sw_only
            .entries
            .iter()
            .map(|e| marks_of(&e.algorithm, &e.operation))
            .sum();
        assert_eq!(bars, 21 + marks);
        assert!(svg.contains("log scale"));
        assert!(texts.iter().any(|t| t.contains("accelerated (modelled")));
        // Escaping: a label with markup characters survives the round trip.
        let chart = Chart {
            title: "a < b & \"c\"".into(),
            series: vec!["s".into()],
            groups: vec![BarGroup {
                label: "<x>".into(),
                values: vec![Some(1e-3)],
                annotation: Some("a&b".into()),
            }],
            footnotes: vec!["<note>".into()],
        };
        let svg = render_svg(&chart);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        assert!(doc.descendants().any(|n| n.text() == Some("a < b & \"c\"")));
        assert!(doc.descendants().any(|n| n.text() == Some("<x>")));
        assert!(doc.descendants().any(|n| n.text() == Some("a&b")));
        assert!(doc.descendants().any(|n| n.text() == Some("<note>")));
    }

    #[test]
    fn linear_axis_for_close_values_and_bars_scale() {
        let chart = Chart {
            title: "t".into(),
            series: vec!["a".into(), "b".into()],
            groups: vec![BarGroup {
                label: "g".into(),
                values: vec![Some(2e-3), Some(1e-3)],
                annotation: None,
            }],
            footnotes: vec![],
        };
        let svg = render_svg(&chart);
        assert!(!svg.contains("log scale"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let heights: Vec<f64> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.children().any(|c| c.has_tag_name("title")))
            .map(|n| n.attribute("height").unwrap().parse().unwrap())
            .collect();
        assert_eq!(heights.len(), 2);
        assert!((heights[0] / heights[1] - 2.0).abs() < 0.01, "{heights:?}");
    }

    #[test]
    fn axis_ticks_format_compactly() {
        assert_eq!(fmt_tick(10.0), "10 s");
        assert_eq!(fmt_tick(1e-3), "1 ms");
        assert_eq!(fmt_tick(2.5e-3), "2.5 ms");
        assert_eq!(fmt_tick(100e-6), "100 µs");
    }
}
