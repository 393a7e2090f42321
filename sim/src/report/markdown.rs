//! `report.md`: tables with the provenance of every figure.

use super::model::{AccelTime, Entry, Report};
use super::transcript::SoftwareSource;
use std::fmt::Write as _;

/// Human time with three significant digits.
pub fn fmt_seconds(s: f64) -> String {
    let (v, unit) = if s >= 1.0 {
        (s, "s")
    } else if s >= 1e-3 {
        (s * 1e3, "ms")
    } else {
        (s * 1e6, "µs")
    };
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {unit}")
}

/// [`fmt_seconds`], or "—" where there is no figure.
pub fn fmt_optional_seconds(s: Option<f64>) -> String {
    s.map_or_else(|| "—".into(), fmt_seconds)
}

/// Integer with thousands separators.
pub fn fmt_count(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The three tiers side by side where a PL engine ran the whole
/// operation, where the engine's time goes, and the published anchors.
fn render_engine_tier(r: &Report, o: &mut String) {
    let engine: Vec<&Entry> = r.entries.iter().filter(|e| e.engine.is_some()).collect();
    if !engine.is_empty() {
        let _ = writeln!(o, "\n## Whole operations on a PL engine (modelled)\n");
        let _ = writeln!(
            o,
            "Three tiers: software on the A9, the primitive offload (HwRing / HwKeccak: \
             polynomials and sponges cross the bus), and the engine (the CPU sends the inputs \
             and gets the result; nothing else crosses the bus). The ML-DSA engine runs \
             KeyGen_internal, Sign_internal (the whole rejection loop) and Verify_internal; the \
             SLH-DSA engine (`HwSlhDsa`: the SHAKE sets on its Keccak sponge, the SLH-DSA-SHA2 sets \
             on its SHA-2 hash engine, H and T_l of categories 3 and 5 on SHA-512) runs \
             everything after the message hashes: the top tree's root (keygen), FORS and the \
             hypertree (sign), and their verification. For SLH-DSA the CPU computes R = PRF_msg \
             and the digest H_msg (one SHAKE or SHA-2 call each); that CPU time is not counted in \
             the engine figures.\n"
        );
        let mut engine_only: Vec<&str> = engine
            .iter()
            .filter(|e| e.software.is_none())
            .map(|e| e.algorithm.as_str())
            .collect();
        engine_only.dedup();
        if !engine_only.is_empty() {
            let _ = writeln!(
                o,
                "ps-app does not benchmark {} on the A9, so their rows have the engine only: \
                 the workload's keys, message and signature (pure, empty context, \
                 deterministic), each output checked against `pqc`'s; no software time and no \
                 ratio.\n",
                engine_only.join(", ")
            );
        }
        let _ = writeln!(
            o,
            "| algorithm | op | software A9 | offload | engine | engine vs software | engine vs offload | PL cycles | engine CYCLES | attempts | AXI-Lite | DMA bytes | output = software |"
        );
        let _ = writeln!(
            o,
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
        );
        for e in &engine {
            let a = e.engine.as_ref().expect("filtered");
            let t = r.engine_time(e).expect("engine figure").total();
            let sw = r.software_seconds(e);
            let off = r.accel_time(e).map(|x| x.total());
            let ratio = |v: Option<f64>| {
                v.map(|v| format!("{:.1}×", v / t))
                    .unwrap_or_else(|| "—".into())
            };
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                e.algorithm,
                e.operation,
                fmt_optional_seconds(sw),
                fmt_optional_seconds(off),
                fmt_seconds(t),
                ratio(sw),
                ratio(off),
                fmt_count(a.counts.pl_cycles),
                fmt_count(a.counts.core_busy_cycles),
                e.attempts
                    .map(|n| format!("{n:.2}"))
                    .unwrap_or_else(|| "—".into()),
                fmt_count(a.counts.axi_lite()),
                fmt_count(a.counts.dma_bytes()),
                if a.identical { "yes" } else { "**NO**" }
            );
        }
        render_sign_attempts(&engine, o);
        for e in &engine {
            if let Some(t) = r.measured_engine_seconds(e) {
                let _ = writeln!(
                    o,
                    "- measured on the board (ps-app `engine` row): {} {} {}",
                    e.algorithm,
                    e.operation,
                    fmt_seconds(t)
                );
            }
        }
        let _ = writeln!(
            o,
            "\nWhere the engine's time goes: the CPU's part is one DMA round trip (keygen: 32 bytes \
             of ξ out, pk ‖ sk back; sign: sk ‖ rnd ‖ M′ out, σ back; verify: pk ‖ σ ‖ M′ out, one \
             verdict word back; no Keccak on the CPU) and the cache maintenance of those buffers; the bus adds the \
             difference between PL cycles and the engine's CYCLES (DMA start-up, STATUS polls, \
             the S2MM stream's pace). The rest is the engine itself, with a polynomial memory \
             in block RAM on the NTT core's row port (8 coefficients a clock) for what would \
             otherwise be re-made, a 16-word FIFO on the sponge's output so the sponge permutes \
             while a sampler works, a squeeze tail in the sponge so its next permutation runs \
             while the last 12 words of a block go out, and a 4-slot sampling ring in that \
             memory, so KeyGen, Verify and Sign sample while the core transforms. KeyGen \
             (ML-DSA-44, 9,381 clocks): the sampler (SHAKE into RejBoundedPoly and RejNTTPoly, \
             a coefficient a clock into the ring) is busy 7,461 clocks, and every NTT, product, \
             INTT and STORE but the last row's runs beside it; tr's hash (pk going out as it is \
             absorbed) runs beside the last row from the sampler's end, and sk takes 642 clocks \
             after it (clocks per phase: \
             `cargo test -p hdl --release -- --ignored keygen_phase_clocks`). The sponge and the \
             samplers set its pace: a faster sponge, or a second one, is what is left to gain \
             there. ExpandS reads a fixed 2 or 3 SHAKE256 blocks per polynomial at a byte a \
             clock, whatever the bytes hold, so its time does not depend on the secret seed \
             (see hdl::mldsa::keygen). Verify (ML-DSA-44, 12,024 clocks): Â is sampled beside \
             the core, which never waits for it; the NTT core 42 %, loading c and −t1·2^d 11 %, \
             unpacking z 10 % (row 0 only: NTT(c) and NTT(z) are kept and loaded back, 6 %), \
             taking pk and σ off the stream 10 %, UseHint's STORE 9 %, the hashes 7 % (μ, \
             SampleInBall's, c̃′; tr is taken with pk) and Â from the ring 5 % (`cargo test -p \
             hdl --release -- --ignored verify_phase_clocks`). The one NTT core and the \
             coefficient-a-clock loads of t1 and z limit it (see hdl::mldsa::verify). Sign: \
             every attempt runs \
             every step and check of the loop (ExpandMask, w = A·y, c̃, z, r, ct0 and the hint), \
             so its clocks grow with the attempts, a count FIPS 204 treats as public (see \
             hdl::mldsa::sign); the first attempt also samples Â (beside the core) and unpacks \
             and transforms s1, s2 and t0, which the others load back; ExpandMask fills the \
             sampling ring while the core transforms the mask before. For ML-DSA-44 \
             over 7 attempts (115,361 clocks): the NTT core's transforms 37 % (the INTTs of \
             cs1, cs2 and ct0 alone 20 %), the STOREs of w, z, r and the hints at a coefficient \
             a clock through the checks, Decompose, MakeHint and the packers 26 %, the \
             pointwise products 13 %, the row moves to and from the polynomial memory 11 %, \
             the hashes, SampleInBall and c 5 %, the first attempt's Â and sk unpacking 4 % \
             and the masks from the ring (waits included) 3 % (`cargo test -p hdl \
             --release -- --ignored sign_phase_clocks`). One NTT core and the one-coefficient \
             STOREs are now what limit signing.{}",
            bus_and_cpu_of_signing(r, &engine)
        );
        let _ = writeln!(o, "\n{}", slh_dsa_engine_limits());
    }
    let _ = writeln!(o, "\n## Published anchors\n");
    let _ = writeln!(o, "| source | algorithm | keygen | sign (mean) | verify |");
    let _ = writeln!(o, "|---|---|---:|---:|---:|");
    for a in &super::model::ANCHORS {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} |",
            a.source,
            a.algorithm,
            fmt_optional_seconds(a.seconds[0]),
            fmt_optional_seconds(a.seconds[1]),
            fmt_optional_seconds(a.seconds[2])
        );
    }
}

/// For the engine's ML-DSA-44 sign row: the bus's share (PL cycles the
/// engine did not count: DMA start-up, polls) and the CPU's (copies,
/// cache maintenance) of its modelled time, as a sentence.
fn bus_and_cpu_of_signing(r: &Report, engine: &[&Entry]) -> String {
    let Some(e) = engine
        .iter()
        .find(|e| e.algorithm == "ML-DSA-44" && e.operation == "sign")
    else {
        return String::new();
    };
    let (Some(a), Some(t)) = (e.engine.as_ref(), r.engine_time(e)) else {
        return String::new();
    };
    let c = &a.counts;
    let bus = c.pl_cycles.saturating_sub(c.core_busy_cycles) as f64 / c.pl_cycles.max(1) as f64;
    format!(
        " Of ML-DSA-44's modelled signing time, the bus takes {:.1} % and the CPU's copies \
         and cache work {:.1} %.",
        100.0 * bus * t.pl / t.total(),
        100.0 * t.protocol / t.total()
    )
}

/// The attempts behind the engine's sign rows: what signature every tier
/// timed, and how it compares with the mean over messages.
fn render_sign_attempts(engine: &[&Entry], o: &mut String) {
    let signed: Vec<String> = engine
        .iter()
        .filter_map(|e| Some(format!("{} {:.2}", e.algorithm, e.attempts?)))
        .collect();
    if signed.is_empty() {
        return;
    }
    let expected: Vec<String> = super::model::FIPS204_EXPECTED_ATTEMPTS
        .iter()
        .map(|(set, n)| format!("{set} {n}"))
        .collect();
    let _ = writeln!(
        o,
        "\nSign rows: every tier gives the mean over the same {} messages \
         (`pqc_selftest::bench_inputs::sign_message`), each signed with an empty context and \
         rnd = 0 (deterministic), so every tier makes the same attempts: ps-app's software \
         sign row signs each of them once (its 32 iterations), and the co-simulation signs \
         each of them on the primitive offload and on the engine. Mean attempts per signature: {} (the \
         engine's RESULT, each equal to `pqc::mldsa::sign_mu_counting`'s). FIPS 204 expects \
         {} on average over messages (Table 1). The published anchors give mean signing \
         times too.",
        pqc_selftest::bench_inputs::SIGN_MESSAGES,
        signed.join(", "),
        expected.join(", ")
    );
}

/// Renders `report.md`.
pub fn render_markdown(r: &Report) -> String {
    let m = &r.model;
    let mut o = String::new();
    let _ = writeln!(o, "# Software vs accelerated timing (Zynq-7000)\n");
    let _ = writeln!(
        o,
        "Generated by `pqc-zynq report` (sim/src/report/). Chart: [report.svg](report.svg).\n"
    );
    let _ = writeln!(o, "## Where each figure comes from\n");
    match r.source {
        SoftwareSource::QemuIcount => {
            let _ = writeln!(
                o,
                "- **Software, Cortex-A9 — QEMU-derived, not board time.** Mean global-timer ticks of the \
                 ps-app benchmark table in `{}` (QEMU `xilinx-zynq-a9`, `-icount shift=0`, prescaler {}). \
                 Under icount a tick is {} guest instructions, so these count instructions; they are turned \
                 into A9 time at an assumed {} cycle(s) per instruction and {:.2} MHz. A real A9 \
                 (dual-issue, cache misses) will differ.",
                r.transcript,
                r.prescaler,
                m.qemu_instructions_per_s / m.qemu_timer_hz,
                m.cycles_per_instruction,
                m.cpu_hz / 1e6
            );
        }
        SoftwareSource::ZedBoard => {
            let _ = writeln!(
                o,
                "- **Software, Cortex-A9 — measured on a ZedBoard.** Mean global-timer ticks of the ps-app \
                 table in `{}` (prescaler {}): 1 tick = 2 CPU cycles at {:.2} MHz.",
                r.transcript,
                r.prescaler,
                m.cpu_hz / 1e6
            );
        }
    }
    if !r.host.is_empty() {
        let _ = writeln!(
            o,
            "- **Software, host — measured** with `std::time` in this run ({}), same inputs; \
             for scale only, a different CPU.",
            r.host
        );
    }
    let _ = writeln!(
        o,
        "- **Accelerated — modelled from cycle-accurate simulation, not measured on a board.** The unmodified \
         driver backends (`driver::accel::HwRing`/`HwKeccak`) run against the {} simulation of the \
         AXI tops (`hdl::axi`; both engines give identical counts) with a PG021 simple-mode DMA model and a DDR model (`sim/src/cosim.rs`), \
         same inputs as ps-app; the output is checked byte-identical to software. Time = CPU share left in \
         software + CPU blocked on the PL + driver work:\n\
         \x20 - CPU share left in software = (1 − offloaded share) × the software A9 time above. The \
         offloaded share is host-measured: the co-simulation records, call by call, which backend calls \
         touched the PL; the host replays the same call sequence on the software backends and times those \
         calls against the whole operation (x86 proportions stand in for the A9's);\n\
         \x20 - CPU blocked on the PL = PL cycles / {:.1} MHz ({}). The co-simulation clocks the design \
         with the conservative bus model of `ps_pl_contract::bus_model`: {} PL cycles per AXI-Lite access \
         (GP0 round trip, read or write, every status poll included), the first beat of each DMA transfer \
         {} PL cycles after its LENGTH write, S2MM completion {} PL cycles after TLAST, at most {} bytes \
         per cycle on the 32-bit streams; DMA streaming and core busy time are covered by the polls;\n\
         \x20 - driver work = DMA bytes × {} CPU cycle(s)/byte (packing) + cache lines × {} CPU cycles \
         (L1 + PL310 maintenance), at {:.2} MHz.",
        r.engine,
        m.fclk_hz / 1e6,
        r.pl_clock,
        m.axi_lite_cycles,
        ps_pl_contract::bus_model::DMA_FIRST_BEAT_CYCLES,
        ps_pl_contract::bus_model::S2MM_COMPLETION_CYCLES,
        ps_pl_contract::bus_model::STREAM_BYTES_PER_CYCLE,
        m.copy_cycles_per_byte,
        m.cache_cycles_per_line,
        m.cpu_hz / 1e6
    );
    let measured = r.entries.iter().any(|e| e.measured_accel.is_some());
    if measured {
        let _ = writeln!(
            o,
            "- **Accelerated — measured**: the ps-app `hw` table of the same transcript (HwRing/HwKeccak on the \
             PL; each row checked byte-identical to software by ps-app)."
        );
    }
    let _ = writeln!(o, "\n## Per operation\n");
    let _ = writeln!(
        o,
        "| algorithm | op | software A9 ({}) | host software (measured) |{} accelerated (modelled) | speed-up | PL cycles | AXI-Lite | DMA bytes | output = software |",
        match r.source {
            SoftwareSource::QemuIcount => "QEMU-derived",
            SoftwareSource::ZedBoard => "ZedBoard",
        },
        if measured { " accelerated (measured) |" } else { "" }
    );
    let _ = writeln!(
        o,
        "|---|---|---:|---:|{}---:|---:|---:|---:|---:|---|",
        if measured { "---:|" } else { "" }
    );
    for e in &r.entries {
        let sw = fmt_optional_seconds(r.software_seconds(e));
        let host = e
            .host
            .map(|(s, _)| fmt_seconds(s))
            .unwrap_or_else(|| "—".into());
        let (acc, ratio) = match (r.accel_time(e), r.software_seconds(e)) {
            (Some(t), Some(sw)) => (fmt_seconds(t.total()), format!("{:.2}×", sw / t.total())),
            _ => ("—".into(), "—".into()),
        };
        let (pl, axi, dma, same) = match &e.accel {
            Some(a) => (
                fmt_count(a.counts.pl_cycles),
                fmt_count(a.counts.axi_lite()),
                fmt_count(a.counts.dma_bytes()),
                if a.identical { "yes" } else { "**NO**" }.to_string(),
            ),
            None => ("—".into(), "—".into(), "—".into(), e.note.clone()),
        };
        let meas = if measured {
            let v = fmt_optional_seconds(r.measured_accel_seconds(e));
            format!(" {v} |")
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "| {} | {} | {sw} | {host} |{meas} {acc} | {ratio} | {pl} | {axi} | {dma} | {same} |",
            e.algorithm, e.operation
        );
    }
    let accel: Vec<&Entry> = r.entries.iter().filter(|e| e.accel.is_some()).collect();
    if accel.is_empty() {
        let _ = writeln!(
            o,
            "\nNo accelerated rows: the co-simulation was not run (or not available) for this report."
        );
    } else {
        let _ = writeln!(o, "\n## Accelerated time, broken down (modelled)\n");
        let _ = writeln!(
            o,
            "| algorithm | op | backends | offloaded share | CPU left in software | CPU blocked on PL | driver work | total | core jobs | core busy cycles | AXI-Lite reads / writes | DMA in / out bytes | DMA transfers | cache lines | faults |"
        );
        let _ = writeln!(
            o,
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for e in accel {
            let a = e.accel.as_ref().expect("filtered");
            let t = r.accel_time(e);
            let part = |f: fn(&AccelTime) -> f64| t.as_ref().map(f).map(fmt_seconds);
            let dash = || "—".to_string();
            let c = &a.counts;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {:.1} % | {} | {} | {} | {} | {} | {} | {} / {} | {} / {} | {} | {} | {} |",
                e.algorithm,
                e.operation,
                a.backends,
                a.offload_fraction * 100.0,
                part(|t| t.cpu_rest).unwrap_or_else(dash),
                part(|t| t.pl).unwrap_or_else(dash),
                part(|t| t.protocol).unwrap_or_else(dash),
                part(AccelTime::total).unwrap_or_else(dash),
                fmt_count(c.jobs),
                fmt_count(c.core_busy_cycles),
                fmt_count(c.axi_lite_reads),
                fmt_count(c.axi_lite_writes),
                fmt_count(c.mm2s_bytes),
                fmt_count(c.s2mm_bytes),
                fmt_count(c.dma_transfers),
                fmt_count(c.cache_lines),
                c.fallbacks
            );
        }
    }
    render_engine_tier(r, &mut o);
    let notes: Vec<&Entry> = r
        .entries
        .iter()
        .filter(|e| e.accel.is_some() && !e.note.is_empty())
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(o, "\nNotes:\n");
        for e in notes {
            let _ = writeln!(o, "- {} {}: {}", e.algorithm, e.operation, e.note);
        }
    }
    if !r.cosim_only.is_empty() {
        let _ = writeln!(
            o,
            "\n## Co-simulated sets without a software row\n\n\
             The transcript has no row for these sets (ps-app does not benchmark them), so there is \
             no A9 time and no speed-up; the co-simulation ran them all the same (ps-app's inputs, \
             output checked against software). PL time = PL cycles / {:.1} MHz.\n",
            m.fclk_hz / 1e6
        );
        let _ = writeln!(
            o,
            "| algorithm | op | PL cycles | PL time | AXI-Lite reads / writes | DMA bytes | jobs | output = software |"
        );
        let _ = writeln!(o, "|---|---|---:|---:|---:|---:|---:|---|");
        for c in &r.cosim_only {
            let n = &c.counts;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} / {} | {} | {} | {} |",
                c.algorithm,
                c.operation,
                fmt_count(n.pl_cycles),
                fmt_seconds(n.pl_cycles as f64 / m.fclk_hz),
                fmt_count(n.axi_lite_reads),
                fmt_count(n.axi_lite_writes),
                fmt_count(n.dma_bytes()),
                fmt_count(n.jobs),
                if c.identical { "yes" } else { "**no**" }
            );
        }
    }
    if !r.mcu.is_empty() {
        let _ = writeln!(
            o,
            "\n## Microcontroller baseline (mcu-app on QEMU, tiers sw-m4 / sw-m7)\n\n\
             The same `pqc` on a Cortex-M4F (QEMU netduinoplus2, STM32F405) and a Cortex-M7 (QEMU \
             mps2-an500), ML-DSA signing in the small-stack mode. **QEMU-derived**: `-icount` \
             instruction counts, shown as time at {:.0} MHz with one instruction per cycle; \
             not cycles, not board time. pqm4's figures are cycles on a real Cortex-M4 ({}).\n",
            super::model::MCU_CLOCK_HZ / 1e6,
            crate::mcu_transcript::PQM4_SOURCE
        );
        let _ = write!(o, "| algorithm | op |");
        for t in &r.mcu {
            let _ = write!(
                o,
                " {} instructions | {} time | {} stack (B) |",
                t.tier, t.tier, t.tier
            );
        }
        let _ = writeln!(o, " pqm4 cycles (M4) | ours / pqm4 |");
        let _ = write!(o, "|---|---|");
        for _ in &r.mcu {
            let _ = write!(o, "---:|---:|---:|");
        }
        let _ = writeln!(o, "---:|---:|");
        let first = &r.mcu[0].transcript;
        for row in &first.rows {
            let _ = write!(o, "| {} | {} |", row.algorithm, row.operation);
            for t in &r.mcu {
                match t.transcript.row(&row.algorithm, &row.operation) {
                    Some(x) => {
                        let _ = write!(
                            o,
                            " {} | {} | {} |",
                            fmt_count(x.count),
                            fmt_seconds(x.count as f64 / super::model::MCU_CLOCK_HZ),
                            fmt_count(x.stack_bytes)
                        );
                    }
                    None => {
                        let _ = write!(o, " — | — | — |");
                    }
                }
            }
            let pqm4 = crate::mcu_transcript::PQM4
                .iter()
                .find(|p| p.algorithm == row.algorithm)
                .and_then(|p| p.cycles(&row.operation));
            match pqm4 {
                Some(c) => {
                    let _ = writeln!(
                        o,
                        " {} | {:.2} |",
                        fmt_count(c),
                        row.count as f64 / c as f64
                    );
                }
                None => {
                    let _ = writeln!(o, " — | — |");
                }
            }
        }
    }
    o
}

/// Where the SLH-DSA engine's time goes, from the clock formulas that the
/// hdl tests assert (SLH-DSA-SHAKE-128f: n = 16, h′ = 3).
fn slh_dsa_engine_limits() -> String {
    use hdl::slhdsa::wots_leaf::{
        leaf_clocks, wots_len, CHAIN_STEPS, PERMUTATION_CLOCKS, SPONGE_ROUNDS_PER_CLOCK,
    };
    use hdl::slhdsa::xmss_tree::tree_clocks;
    let (n, height) = (16, 3);
    let leaf = leaf_clocks(n);
    let f_calls = wots_len(n) as u64 * u64::from(CHAIN_STEPS) * PERMUTATION_CLOCKS;
    let leaves = (1u64 << height) * (1 + leaf);
    let percent = |part: u64, whole: u64| 100.0 * part as f64 / whole as f64;
    format!(
        "SLH-DSA on its engine: the CPU sends the seeds, PK.root, md and the indices (37 \
         words) for signing, and the same header without SK.seed followed by the signature for \
         verification; SIG_FORS ‖ SIG_HT or one verdict word comes back. The engine's one \
         sponge ({SPONGE_ROUNDS_PER_CLOCK} Keccak rounds a clock) does every PRF, F, H and \
         T_l: for SLH-DSA-SHAKE-128f the {CHAIN_STEPS} F calls of each WOTS+ chain are \
         {:.0} % of an XMSS leaf and leaves {:.1} % of a tree, so a \
         signature's time is its F calls at {PERMUTATION_CLOCKS} clocks each (see \
         hdl::slhdsa). Parallel sponges are what is left to gain; they need the engines to \
         share a sponge first.",
        percent(f_calls, leaf),
        percent(leaves, tree_clocks(n, height)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::sample_report;

    #[test]
    fn markdown_has_a_row_per_operation_with_provenance() {
        let r = sample_report();
        let md = render_markdown(&r);
        assert!(md.contains("QEMU-derived, not board time"));
        assert!(md.contains("modelled from cycle-accurate simulation"));
        let row = md
            .lines()
            .find(|l| l.starts_with("| ML-DSA-44 | sign |"))
            .unwrap();
        // 522830 ticks = 5.2283 M instructions = 7.84 ms at CPI 1, 666.67 MHz.
        assert!(row.contains("7.84 ms"), "{row}");
        assert!(row.contains("200,000") && row.contains("2,000") && row.contains("70,000"));
        assert!(md.contains("| SLH-DSA-SHA2-128f | sign |"));
        assert!(md.contains("no SHA-2 core"));
        assert_eq!(
            md.lines()
                .filter(|l| l.starts_with("| ML-DSA-44 |"))
                .count(),
            4
        );
    }

    #[test]
    fn counts_format_with_separators() {
        assert_eq!(fmt_count(0), "0");
        assert_eq!(fmt_count(999), "999");
        assert_eq!(fmt_count(1000), "1,000");
        assert_eq!(fmt_count(1234567), "1,234,567");
        assert_eq!(fmt_seconds(0.00784), "7.84 ms");
        assert_eq!(fmt_seconds(12.5), "12.5 s");
    }
}
