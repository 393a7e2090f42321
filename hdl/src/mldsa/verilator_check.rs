//! Verilator cross-checks of the exported Verilog of the ML-DSA units:
//! the same input sequence, clock by clock, on the rust-hdl model and on
//! the Verilated RTL must give the same outputs on every clock.

use crate::export::{raw_verilog, rename_modules};
use crate::verilator::VerilatorRun;
use std::fmt::Write as _;

/// A C++ testbench for a clocked block `design` with the given input and
/// output ports: reads one line of input values (hex) per clock from
/// `in.txt`, sets them, clocks once (low, then high) and prints the output
/// values (hex) on one line.
fn testbench(design: &str, inputs: &[&str], outputs: &[&str]) -> String {
    let mut set = String::new();
    for (i, name) in inputs.iter().enumerate() {
        let _ = writeln!(set, "        top->{name} = v[{i}];");
    }
    let mut print = String::new();
    for name in outputs {
        let _ = writeln!(
            print,
            "        std::printf(\"%llx \", (unsigned long long)top->{name});"
        );
    }
    format!(
        r#"#include "V{design}.h"
#include "verilated.h"
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
int main(int argc, char** argv) {{
    Verilated::commandArgs(argc, argv);
    V{design}* top = new V{design};
    std::ifstream in("in.txt");
    std::string line;
    top->clock = 0;
    top->eval();
    while (std::getline(in, line)) {{
        std::istringstream fields(line);
        std::vector<unsigned long long> v;
        unsigned long long x;
        while (fields >> std::hex >> x) v.push_back(x);
        if (v.size() != {n}) return 2;
{set}        top->clock = 0;
        top->eval();
        top->clock = 1;
        top->eval();
{print}        std::printf("\n");
    }}
    top->final();
    delete top;
    return 0;
}}
"#,
        n = inputs.len()
    )
}

/// The Verilator names of the ports of an array `name[0..count]` (rust-hdl
/// names element k `name$k`, which Verilator mangles to `name__024k`).
pub fn array_port_names(name: &str, count: usize) -> impl Iterator<Item = String> + '_ {
    (0..count).map(move |k| format!("{name}__024{k}"))
}

/// Runs `rows` (one value per input port per clock) through the Verilated
/// RTL of `block` (exported under `design`) and returns one line of output
/// values (hex, space-separated) per clock.
pub fn verilated_outputs<B: rust_hdl::prelude::Block>(
    block: B,
    design: &str,
    inputs: &[&str],
    outputs: &[&str],
    rows: &[Vec<u64>],
) -> Result<Vec<String>, String> {
    verilated_outputs_in(
        &format!("mldsa-{design}"),
        block,
        design,
        inputs,
        outputs,
        rows,
    )
}

/// [`verilated_outputs`] in the work directory `run` (tests that build the
/// same design in parallel need their own).
pub fn verilated_outputs_in<B: rust_hdl::prelude::Block>(
    run: &str,
    block: B,
    design: &str,
    inputs: &[&str],
    outputs: &[&str],
    rows: &[Vec<u64>],
) -> Result<Vec<String>, String> {
    let rtl = rename_modules(&raw_verilog(block), design);
    let run = VerilatorRun::new(run).map_err(|e| e.to_string())?;
    let mut text = String::new();
    for row in rows {
        let line: Vec<String> = row.iter().map(|v| format!("{v:x}")).collect();
        let _ = writeln!(text, "{}", line.join(" "));
    }
    run.write_input("in.txt", &text)
        .map_err(|e| e.to_string())?;
    let stdout = run.build_and_run_cpp(&rtl, &testbench(design, inputs, outputs), design)?;
    Ok(stdout.lines().map(|l| l.trim().to_string()).collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::mldsa::decompose::Decompose;
    use crate::mldsa::power2round::Power2Round;
    use crate::ntt::sim::{settle, tick, Lcg};
    use crate::verilator::verilator_required;
    use rust_hdl::prelude::*;

    fn line(values: &[u64]) -> String {
        let v: Vec<String> = values.iter().map(|x| format!("{x:x}")).collect();
        v.join(" ")
    }

    #[test]
    fn decompose_rtl_equals_rust_hdl_clock_for_clock() {
        if !verilator_required("decompose_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(404);
        let q = pqc::ring::Q as u64;
        let mut rows: Vec<Vec<u64>> = vec![vec![q - 1, 0, 1], vec![q - 1, 1, 1], vec![0, 0, 1]];
        for i in 0..600u64 {
            rows.push(vec![rng.coeff() as u64, (i / 300) & 1, i & 1]);
        }
        let mut uut = Decompose::default();
        uut.connect_all();
        settle(&mut uut);
        let mut expected = Vec::new();
        for row in &rows {
            uut.r.next = row[0].into();
            uut.wide.next = row[1] != 0;
            uut.hint.next = row[2] != 0;
            tick(&mut uut, |u| &mut u.clock);
            expected.push(line(&[
                uut.r1.val().to_u64(),
                uut.r0.val().to_u64(),
                uut.r1_hinted.val().to_u64(),
            ]));
        }
        let got = verilated_outputs(
            Decompose::default(),
            "mldsa_decompose",
            &["r", "wide", "hint"],
            &["r1", "r0", "r1_hinted"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn power2round_rtl_equals_rust_hdl_clock_for_clock() {
        if !verilator_required("power2round_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(405);
        let mut rows: Vec<Vec<u64>> = vec![vec![0], vec![4096], vec![pqc::ring::Q as u64 - 1]];
        rows.extend((0..500).map(|_| vec![rng.coeff() as u64]));
        let mut uut = Power2Round::default();
        uut.connect_all();
        settle(&mut uut);
        let mut expected = Vec::new();
        for row in &rows {
            uut.t.next = row[0].into();
            tick(&mut uut, |u| &mut u.clock);
            expected.push(line(&[uut.t1.val().to_u64(), uut.t0.val().to_u64()]));
        }
        let got = verilated_outputs(
            Power2Round::default(),
            "mldsa_power2round",
            &["t"],
            &["t1", "t0"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    /// Drives `rows` into a rust-hdl block clock by clock and records the
    /// outputs as the testbench prints them.
    fn rust_hdl_lines<B: Block>(
        mut uut: B,
        rows: &[Vec<u64>],
        drive: impl Fn(&mut B, &[u64]),
        clock: impl Fn(&mut B) -> &mut Signal<In, Clock> + Copy,
        read: impl Fn(&B) -> Vec<u64>,
    ) -> Vec<String> {
        uut.connect_all();
        settle(&mut uut);
        rows.iter()
            .map(|row| {
                drive(&mut uut, row);
                tick(&mut uut, clock);
                line(&read(&uut))
            })
            .collect()
    }

    #[test]
    fn coeffwise_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::coeffwise::{InfNormCheck, MakeHint, ModAddSub};
        if !verilator_required("coeffwise_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(406);
        let mask25 = (1u64 << 25) - 1;
        let rows: Vec<Vec<u64>> = (0..400u64)
            .map(|i| vec![rng.coeff() as u64, rng.coeff() as u64, i & 1])
            .collect();
        let expected = rust_hdl_lines(
            ModAddSub::default(),
            &rows,
            |u, r| {
                u.a.next = r[0].into();
                u.b.next = r[1].into();
                u.sub.next = r[2] != 0;
            },
            |u| &mut u.clock,
            |u| vec![u.r.val().to_u64()],
        );
        let got = verilated_outputs(
            ModAddSub::default(),
            "mldsa_mod_add_sub",
            &["a", "b", "sub"],
            &["r"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected, "ModAddSub");

        let rows: Vec<Vec<u64>> = (0..400u64)
            .map(|i| {
                let x = rng.coeff() as u64;
                let signed = ((x as i64 - 4_000_000) as u64) & mask25;
                vec![if i & 1 == 0 { x } else { signed }, i & 1 ^ 1, 261_888 - 78]
            })
            .collect();
        let expected = rust_hdl_lines(
            InfNormCheck::default(),
            &rows,
            |u, r| {
                u.x.next = r[0].into();
                u.canonical.next = r[1] != 0;
                u.bound.next = r[2].into();
            },
            |u| &mut u.clock,
            |u| vec![u64::from(u.exceeds.val())],
        );
        let got = verilated_outputs(
            InfNormCheck::default(),
            "mldsa_inf_norm_check",
            &["x", "canonical", "bound"],
            &["exceeds"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected, "InfNormCheck");

        let rows: Vec<Vec<u64>> = (0..400u64)
            .map(|i| {
                let a0 = (rng.coeff() as i64 % 600_000) - 300_000;
                vec![(a0 as u64) & mask25, i % 44, (i / 200) & 1]
            })
            .collect();
        let expected = rust_hdl_lines(
            MakeHint::default(),
            &rows,
            |u, r| {
                u.a0.next = r[0].into();
                u.a1.next = r[1].into();
                u.wide.next = r[2] != 0;
            },
            |u| &mut u.clock,
            |u| vec![u64::from(u.hint.val())],
        );
        let got = verilated_outputs(
            MakeHint::default(),
            "mldsa_make_hint",
            &["a0", "a1", "wide"],
            &["hint"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected, "MakeHint");
    }

    /// The polynomial memory: rows stored into both halves, gaps, loads
    /// of 33 clocks, a load cut short; the same outputs on every clock.
    #[test]
    fn poly_memory_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::poly_memory::{
            load_position, PolyRowMemory, BANKS, RING_FIRST_POLY, ROWS,
        };
        if !verilator_required("poly_memory_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(406);
        // Row: store_poly, load_poly, 8 banks out, out_valid, in_ready,
        // coeff_write, coeff_slot, coeff_index, coeff_data.
        let mut rows: Vec<Vec<u64>> = Vec::new();
        let idle = |store: u64, load: u64| {
            let mut r = vec![store, load];
            r.extend([0; BANKS]);
            r.extend([0, 0, 0, 0, 0, 0]);
            r
        };
        for index in [0u64, 15, 16, 31] {
            for _ in 0..ROWS {
                let mut r = vec![index, 0];
                r.extend((0..BANKS).map(|_| rng.coeff() as u64));
                r.extend([1, 0, 0, 0, 0, 0]);
                rows.push(r);
            }
            rows.push(idle(index, 0));
        }
        // Ring slot 1, a coefficient a clock.
        let ring_poly: Vec<u64> = (0..256).map(|_| rng.coeff() as u64).collect();
        for (i, &c) in ring_poly.iter().enumerate() {
            let mut r = idle(0, 0);
            r[BANKS + 4..].copy_from_slice(&[1, 1, i as u64, c]);
            rows.push(r);
        }
        rows.push(idle(0, 0));
        let ring_index = (RING_FIRST_POLY + 1) as u64;
        for (index, clocks) in [
            (31u64, ROWS + 1),
            (0, ROWS + 1),
            (16, 9),
            (15, ROWS + 1),
            (ring_index, ROWS + 1),
        ] {
            for _ in 0..clocks {
                let mut r = idle(0, index);
                r[BANKS + 3] = 1;
                rows.push(r);
            }
            rows.push(idle(0, index));
            rows.push(idle(0, index));
        }
        let mut inputs = vec!["store_poly".to_string(), "load_poly".to_string()];
        inputs.extend(array_port_names("core_row_out", BANKS));
        inputs.extend(
            [
                "core_row_out_valid",
                "core_row_in_ready",
                "coeff_write",
                "coeff_slot",
                "coeff_index",
                "coeff_data",
            ]
            .map(String::from),
        );
        let mut outputs: Vec<String> = array_port_names("core_row_in", BANKS).collect();
        outputs.push("core_row_in_valid".to_string());
        let expected = rust_hdl_lines(
            PolyRowMemory::<2, 16>::default(),
            &rows,
            |u, r| {
                u.store_poly.next = r[0].into();
                u.load_poly.next = r[1].into();
                for k in 0..BANKS {
                    u.core_row_out[k].next = r[2 + k].into();
                }
                u.core_row_out_valid.next = r[BANKS + 2] != 0;
                u.core_row_in_ready.next = r[BANKS + 3] != 0;
                u.coeff_write.next = r[BANKS + 4] != 0;
                u.coeff_slot.next = r[BANKS + 5].into();
                u.coeff_index.next = r[BANKS + 6].into();
                u.coeff_data.next = r[BANKS + 7].into();
            },
            |u| &mut u.clock,
            |u| {
                let mut v: Vec<u64> = u.core_row_in.iter().map(|s| s.val().to_u64()).collect();
                v.push(u.core_row_in_valid.val() as u64);
                v
            },
        );
        // The loads gave back the stored rows and the ring's polynomial in
        // the core's load layout (not only equal to the RTL).
        let loaded: Vec<&String> = expected.iter().filter(|l| l.ends_with(" 1")).collect();
        assert_eq!(loaded.len(), 4 * ROWS + 9);
        for (n, stored_at) in [(0, 3), (1, 0)] {
            for r in 0..ROWS {
                let stored = &rows[stored_at * (ROWS + 1) + r][2..2 + BANKS];
                let want = format!("{} 1", line(stored));
                assert_eq!(loaded[n * ROWS + r], &want, "load {n}, row {r}");
            }
        }
        let mut ring_rows = vec![[0u64; BANKS]; ROWS];
        for (i, &c) in ring_poly.iter().enumerate() {
            let (bank, row) = load_position(i);
            ring_rows[row][bank] = c;
        }
        for (r, want) in ring_rows.iter().enumerate() {
            let want = format!("{} 1", line(want));
            assert_eq!(loaded[3 * ROWS + 9 + r], &want, "ring row {r}");
        }
        let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        let outputs: Vec<&str> = outputs.iter().map(String::as_str).collect();
        let got = verilated_outputs(
            PolyRowMemory::<2, 16>::default(),
            "mldsa_poly_memory",
            &inputs,
            &outputs,
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn rej_ntt_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::rej_ntt::RejNttSampler;
        if !verilator_required("rej_ntt_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(407);
        let rows: Vec<Vec<u64>> = (0..900u64)
            .map(|i| {
                let word = u64::from(rng.next_u32());
                vec![u64::from(i == 400), word, u64::from(i % 7 != 3)]
            })
            .collect();
        let expected = rust_hdl_lines(
            RejNttSampler::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.word.next = r[1].into();
                u.word_valid.next = r[2] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u.coeff.val().to_u64(),
                    u64::from(u.coeff_valid.val()),
                    u64::from(u.word_ready.val()),
                ]
            },
        );
        let got = verilated_outputs(
            RejNttSampler::default(),
            "mldsa_rej_ntt",
            &["reset", "word", "word_valid"],
            &["coeff", "coeff_valid", "word_ready"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn matrix_sampler_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::matrix_sampler::MatrixSampler;
        if !verilator_required("matrix_sampler_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        // Random squeeze words (RejNTTPoly takes most), random room, holds,
        // loads and other producers; a start at 0, a halt at 2,500 and a
        // start again at 2,600 with another shape.
        let mut rng = Lcg::new(408);
        let rows: Vec<Vec<u64>> = (0..4_000u64)
            .map(|i| {
                let (k, l) = if i < 2_600 { (2, 3) } else { (4, 4) };
                let r = rng.next_u32();
                vec![
                    u64::from(i == 0 || i == 2_600),
                    u64::from(i == 2_500),
                    u64::from(r % 11 == 0),
                    k,
                    l,
                    u64::from(rng.next_u32()),
                    u64::from(r % 5 != 0),
                    u64::from(rng.next_u32()),
                    u64::from(r % 7 != 0),
                    u64::from(r % 3 == 0),
                    u64::from(r % 13 == 0),
                ]
            })
            .collect();
        let outputs = [
            "rho_index",
            "sponge_launch",
            "sponge_abort",
            "sponge_owned",
            "feed_data",
            "feed_valid",
            "feed_last",
            "squeeze_ready",
            "ring_ready",
            "ring_full",
            "read_slot",
            "write_slot",
            "coeff_write",
            "coeff_index",
            "coeff_data",
            "entry_done",
            "active",
            "row",
            "col",
        ];
        let expected = rust_hdl_lines(
            MatrixSampler::default(),
            &rows,
            |u, r| {
                u.start.next = r[0] != 0;
                u.halt.next = r[1] != 0;
                u.hold.next = r[2] != 0;
                u.k.next = r[3].into();
                u.l.next = r[4].into();
                u.rho_word.next = r[5].into();
                u.feed_room.next = r[6] != 0;
                u.squeeze_data.next = r[7].into();
                u.squeeze_valid.next = r[8] != 0;
                u.consume.next = r[9] != 0;
                u.produce_other.next = r[10] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u.rho_index.val().to_u64(),
                    u64::from(u.sponge_launch.val()),
                    u64::from(u.sponge_abort.val()),
                    u64::from(u.sponge_owned.val()),
                    u.feed_data.val().to_u64(),
                    u64::from(u.feed_valid.val()),
                    u64::from(u.feed_last.val()),
                    u64::from(u.squeeze_ready.val()),
                    u64::from(u.ring_ready.val()),
                    u64::from(u.ring_full.val()),
                    u.read_slot.val().to_u64(),
                    u.write_slot.val().to_u64(),
                    u64::from(u.coeff_write.val()),
                    u.coeff_index.val().to_u64(),
                    u.coeff_data.val().to_u64(),
                    u64::from(u.entry_done.val()),
                    u64::from(u.active.val()),
                    u.row.val().to_u64(),
                    u.col.val().to_u64(),
                ]
            },
        );
        // The ring turns over and the sampler finishes entries.
        let done = expected
            .iter()
            .filter(|l| l.split(' ').nth(15) == Some("1"))
            .count();
        assert!(done >= 8, "{done} entries");
        let got = verilated_outputs(
            MatrixSampler::default(),
            "mldsa_matrix_sampler",
            &[
                "start",
                "halt",
                "hold",
                "k",
                "l",
                "rho_word",
                "feed_room",
                "squeeze_data",
                "squeeze_valid",
                "consume",
                "produce_other",
            ],
            &outputs,
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn rej_bounded_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::rej_bounded::RejBoundedSampler;
        if !verilator_required("rej_bounded_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(408);
        let rows: Vec<Vec<u64>> = (0..900u64)
            .map(|i| {
                let byte = (rng.coeff() as u64) & 0xFF;
                // A reset every 150 clocks: each polynomial's queue fills
                // and drains (the last ones stop short of 256).
                vec![
                    u64::from(i % 150 == 149),
                    (i / 300) & 1,
                    byte,
                    u64::from(i % 5 != 2),
                ]
            })
            .collect();
        let expected = rust_hdl_lines(
            RejBoundedSampler::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.eta4.next = r[1] != 0;
                u.data.next = r[2].into();
                u.data_valid.next = r[3] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u.coeff.val().to_u64(),
                    u64::from(u.coeff_valid.val()),
                    u64::from(u.data_ready.val()),
                ]
            },
        );
        let got = verilated_outputs(
            RejBoundedSampler::default(),
            "mldsa_rej_bounded",
            &["reset", "eta4", "data", "data_valid"],
            &["coeff", "coeff_valid", "data_ready"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn word_fifo_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::word_fifo::SpongeOutFifo;
        if !verilator_required("word_fifo_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(410);
        // Bursts of a fast and a slow consumer, fills to full, flushes.
        let rows: Vec<Vec<u64>> = (0..1500u64)
            .map(|i| {
                vec![
                    u64::from(i == 0 || i % 400 == 399),
                    u64::from(rng.next_u32()),
                    u64::from(rng.next_u32() % 4 != 0),
                    u64::from((i / 100) % 2 == 0 || rng.next_u32() % 4 == 0),
                ]
            })
            .collect();
        let expected = rust_hdl_lines(
            SpongeOutFifo::default(),
            &rows,
            |u, r| {
                u.flush.next = r[0] != 0;
                u.in_data.next = r[1].into();
                u.in_valid.next = r[2] != 0;
                u.out_ready.next = r[3] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u64::from(u.in_ready.val()),
                    u.out_data.val().to_u64(),
                    u64::from(u.out_valid.val()),
                    u64::from(u.empty.val()),
                ]
            },
        );
        let got = verilated_outputs(
            SpongeOutFifo::default(),
            "mldsa_word_fifo",
            &["flush", "in_data", "in_valid", "out_ready"],
            &["in_ready", "out_data", "out_valid", "empty"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn sample_in_ball_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::sample_in_ball::SampleInBall;
        if !verilator_required("sample_in_ball_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(409);
        // Two runs (τ = 39, then 60 after a reset), each followed by a
        // read-out of all 256 coefficients.
        let mut rows: Vec<Vec<u64>> = Vec::new();
        for (tau, reset_at) in [(39u64, 0usize), (60, 1)] {
            rows.push(vec![u64::from(reset_at == 1), 0, tau, 0, 0, 0]);
            rows.push(vec![0, 1, tau, 0, 0, 0]);
            for i in 0..400u64 {
                let byte = (rng.coeff() as u64) & 0xFF;
                rows.push(vec![0, 0, tau, byte, u64::from(i % 9 != 4), 0]);
            }
            for index in 0..256u64 {
                rows.push(vec![0, 0, tau, 0, 0, index]);
            }
        }
        let expected = rust_hdl_lines(
            SampleInBall::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.start.next = r[1] != 0;
                u.tau.next = r[2].into();
                u.data.next = r[3].into();
                u.data_valid.next = r[4] != 0;
                u.read_index.next = r[5].into();
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u.coeff.val().to_u64(),
                    u64::from(u.done.val()),
                    u64::from(u.data_ready.val()),
                ]
            },
        );
        assert!(
            expected.iter().any(|l| l.ends_with(" 1 0")),
            "a run finished"
        );
        let got = verilated_outputs(
            SampleInBall::default(),
            "mldsa_sample_in_ball",
            &["reset", "start", "tau", "data", "data_valid", "read_index"],
            &["coeff", "done", "data_ready"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn bit_unpack_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::bit_unpack::BitUnpacker;
        if !verilator_required("bit_unpack_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(410);
        // (width, centred, offset, max_value) per block of clocks.
        let configs = [
            (10u64, 0u64, 0u64, 1023u64),
            (13, 1, 1 << 12, 8191),
            (3, 1, 2, 4),
            (20, 1, 1 << 19, (1 << 20) - 1),
        ];
        let mut rows: Vec<Vec<u64>> = Vec::new();
        for (w, c, o, m) in configs {
            rows.push(vec![1, w, c, o, m, 0, 0]);
            for i in 0..300u64 {
                let byte = (rng.coeff() as u64) & 0xFF;
                rows.push(vec![0, w, c, o, m, byte, u64::from(i % 7 != 6)]);
            }
        }
        let expected = rust_hdl_lines(
            BitUnpacker::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.width.next = r[1].into();
                u.centred.next = r[2] != 0;
                u.offset.next = r[3].into();
                u.max_value.next = r[4].into();
                u.data.next = r[5].into();
                u.data_valid.next = r[6] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u.coeff.val().to_u64(),
                    u64::from(u.coeff_valid.val()),
                    u64::from(u.out_of_range.val()),
                    u64::from(u.data_ready.val()),
                ]
            },
        );
        let got = verilated_outputs(
            BitUnpacker::default(),
            "mldsa_bit_unpack",
            &[
                "reset",
                "width",
                "centred",
                "offset",
                "max_value",
                "data",
                "data_valid",
            ],
            &["coeff", "coeff_valid", "out_of_range", "data_ready"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn expand_a_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::expand_a::ExpandAEntry;
        if !verilator_required("expand_a_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(411);
        // reset, seed_write, seed_index, seed_word, start, row, col.
        let mut rows: Vec<Vec<u64>> = vec![vec![1, 0, 0, 0, 0, 0, 0]];
        for i in 0..8u64 {
            rows.push(vec![0, 1, i, u64::from(rng.next_u32()), 0, 0, 0]);
        }
        for (row, col) in [(0u64, 1u64), (2, 3)] {
            rows.push(vec![0, 0, 0, 0, 1, row, col]);
            rows.extend((0..420).map(|_| vec![0, 0, 0, 0, 0, row, col]));
        }
        // A reset in the middle of a third entry.
        rows.push(vec![0, 0, 0, 0, 1, 4, 4]);
        rows.extend((0..100).map(|_| vec![0, 0, 0, 0, 0, 4, 4]));
        rows.push(vec![1, 0, 0, 0, 0, 4, 4]);
        rows.extend((0..5).map(|_| vec![0, 0, 0, 0, 0, 4, 4]));
        let expected = rust_hdl_lines(
            ExpandAEntry::<1>::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.seed_write.next = r[1] != 0;
                u.seed_index.next = r[2].into();
                u.seed_word.next = r[3].into();
                u.start.next = r[4] != 0;
                u.row.next = r[5].into();
                u.col.next = r[6].into();
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u64::from(u.busy.val()),
                    u.coeff.val().to_u64(),
                    u.coeff_index.val().to_u64(),
                    u64::from(u.coeff_valid.val()),
                ]
            },
        );
        let writes = expected.iter().filter(|l| l.ends_with(" 1")).count();
        assert!(writes >= 2 * 256, "{writes} writes");
        let got = verilated_outputs(
            ExpandAEntry::<1>::default(),
            "mldsa_expand_a",
            &[
                "reset",
                "seed_write",
                "seed_index",
                "seed_word",
                "start",
                "row",
                "col",
            ],
            &["busy", "coeff", "coeff_index", "coeff_valid"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    /// The packer `BitPacker<OUT, ACC>` exported as `design`, against its
    /// rust-hdl model over four fields with stalls on both sides.
    fn bit_packer_rtl_equals_rust_hdl<const OUT: usize, const ACC: usize>(design: &str, seed: u64) {
        use crate::mldsa::bit_pack::BitPacker;
        let mut rng = Lcg::new(seed);
        // reset, width, centred, offset, coeff, coeff_valid, data_ready.
        let mut rows: Vec<Vec<u64>> = Vec::new();
        for (w, c, o) in [
            (10u64, 0u64, 0u64),
            (13, 1, 1 << 12),
            (3, 1, 2),
            (20, 1, 1 << 19),
        ] {
            rows.push(vec![1, w, c, o, 0, 0, 0]);
            for i in 0..300u64 {
                let coeff = rng.coeff() as u64;
                rows.push(vec![
                    0,
                    w,
                    c,
                    o,
                    coeff,
                    u64::from(i % 6 != 5),
                    u64::from(i % 7 != 3),
                ]);
            }
        }
        let expected = rust_hdl_lines(
            BitPacker::<OUT, ACC>::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.width.next = r[1].into();
                u.centred.next = r[2] != 0;
                u.offset.next = r[3].into();
                u.coeff.next = r[4].into();
                u.coeff_valid.next = r[5] != 0;
                u.data_ready.next = r[6] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u.data.val().to_u64(),
                    u64::from(u.data_valid.val()),
                    u64::from(u.coeff_ready.val()),
                ]
            },
        );
        let got = verilated_outputs(
            BitPacker::<OUT, ACC>::default(),
            design,
            &[
                "reset",
                "width",
                "centred",
                "offset",
                "coeff",
                "coeff_valid",
                "data_ready",
            ],
            &["data", "data_valid", "coeff_ready"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn bit_pack_rtl_equals_rust_hdl_clock_for_clock() {
        if !verilator_required("bit_pack_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        bit_packer_rtl_equals_rust_hdl::<8, 32>("mldsa_bit_pack", 412);
    }

    #[test]
    fn word_pack_rtl_equals_rust_hdl_clock_for_clock() {
        if !verilator_required("word_pack_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        bit_packer_rtl_equals_rust_hdl::<32, 51>("mldsa_word_pack", 416);
    }

    #[test]
    fn hint_pack_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::hint_codec::HintPacker;
        if !verilator_required("hint_pack_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(413);
        // reset, k, omega, hint, hint_valid, data_ready.
        let mut rows: Vec<Vec<u64>> = Vec::new();
        // ML-DSA-44 with a few hints, ML-DSA-65 with too many.
        for (k, omega, density) in [(4u64, 80u64, 40u32), (6, 55, 12)] {
            rows.push(vec![1, k, omega, 0, 0, 0]);
            for i in 0..(k * 256 * 9 / 8 + 16) {
                let hint = u64::from(rng.next_u32() % density == 0);
                rows.push(vec![0, k, omega, hint, u64::from(i % 9 != 8), 1]);
            }
            for i in 0..(omega + k + 40) {
                rows.push(vec![0, k, omega, 0, 0, u64::from(i % 5 != 4)]);
            }
        }
        let expected = rust_hdl_lines(
            HintPacker::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.k.next = r[1].into();
                u.omega.next = r[2].into();
                u.hint.next = r[3] != 0;
                u.hint_valid.next = r[4] != 0;
                u.data_ready.next = r[5] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u.data.val().to_u64(),
                    u64::from(u.data_valid.val()),
                    u64::from(u.hint_ready.val()),
                    u64::from(u.too_many.val()),
                    u64::from(u.done.val()),
                ]
            },
        );
        assert!(
            expected.iter().any(|l| l.ends_with(" 0 1 1")),
            "too_many run"
        );
        assert!(expected.iter().any(|l| l.ends_with(" 0 0 1")), "clean run");
        let got = verilated_outputs(
            HintPacker::default(),
            "mldsa_hint_pack",
            &["reset", "k", "omega", "hint", "hint_valid", "data_ready"],
            &["data", "data_valid", "hint_ready", "too_many", "done"],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn hint_unpack_rtl_equals_rust_hdl_clock_for_clock() {
        use crate::mldsa::hint_codec::HintUnpacker;
        use pqc::mldsa::encode::pack_hints;
        if !verilator_required("hint_unpack_rtl_equals_rust_hdl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(414);
        // reset, k, omega, data, data_valid, data_last, hint_ready.
        let mut rows: Vec<Vec<u64>> = Vec::new();
        let mut fields: Vec<(u64, u64, Vec<u8>)> = Vec::new();
        for (k, omega) in [(4usize, 80usize), (8, 75)] {
            let mut h = vec![[0u8; pqc::ring::N]; k];
            for _ in 0..omega / 2 {
                let r = rng.next_u32() as usize;
                h[(r >> 8) % k][r & 0xFF] = 1;
            }
            let mut bytes = vec![0u8; omega + k];
            pack_hints(k, omega, &h, &mut bytes);
            fields.push((k as u64, omega as u64, bytes.clone()));
            // Malformed (a non-zero unused slot), and truncated.
            bytes[omega - 1] = 7;
            fields.push((k as u64, omega as u64, bytes.clone()));
            fields.push((k as u64, omega as u64, bytes[..omega / 2].to_vec()));
        }
        for (k, omega, bytes) in &fields {
            let (k, omega) = (*k, *omega);
            rows.push(vec![1, k, omega, 0, 0, 0, 0]);
            let mut next = 0;
            let mut i = 0u64;
            while next < bytes.len() {
                let valid = i % 7 != 6;
                let last = u64::from(next + 1 == bytes.len());
                rows.push(vec![
                    0,
                    k,
                    omega,
                    u64::from(bytes[next]),
                    u64::from(valid),
                    last,
                    1,
                ]);
                next += usize::from(valid);
                i += 1;
            }
            for i in 0..(omega + k * 256 + k * 40) {
                rows.push(vec![0, k, omega, 0, 0, 0, u64::from(i % 11 != 10)]);
            }
        }
        let expected = rust_hdl_lines(
            HintUnpacker::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.k.next = r[1].into();
                u.omega.next = r[2].into();
                u.data.next = r[3].into();
                u.data_valid.next = r[4] != 0;
                u.data_last.next = r[5] != 0;
                u.hint_ready.next = r[6] != 0;
            },
            |u| &mut u.clock,
            |u| {
                vec![
                    u64::from(u.hint.val()),
                    u.hint_poly.val().to_u64(),
                    u.hint_coeff.val().to_u64(),
                    u64::from(u.hint_valid.val()),
                    u64::from(u.data_ready.val()),
                    u64::from(u.checked.val()),
                    u64::from(u.malformed.val()),
                    u64::from(u.done.val()),
                ]
            },
        );
        assert!(expected.iter().any(|l| l.starts_with("1 ")), "a hint bit");
        assert!(
            expected.iter().any(|l| l.ends_with(" 1 1 1")),
            "a malformed verdict"
        );
        let got = verilated_outputs(
            HintUnpacker::default(),
            "mldsa_hint_unpack",
            &[
                "reset",
                "k",
                "omega",
                "data",
                "data_valid",
                "data_last",
                "hint_ready",
            ],
            &[
                "hint",
                "hint_poly",
                "hint_coeff",
                "hint_valid",
                "data_ready",
                "checked",
                "malformed",
                "done",
            ],
            &rows,
        )
        .unwrap();
        assert_eq!(got, expected);
    }

    /// Input rows of the KeyGen engine for one key generation: ξ, start,
    /// then `clocks` clocks whose sink refuses every `stall`-th (none when
    /// `stall` is 0). Columns: reset, xi_write, xi_index, xi_word, start,
    /// set, abort, m_ready.
    fn keygen_rows(set: u64, xi: &[u8; 32], clocks: usize, stall: usize) -> Vec<Vec<u64>> {
        let mut rows: Vec<Vec<u64>> = xi
            .chunks_exact(4)
            .enumerate()
            .map(|(i, w)| {
                let word = u64::from(u32::from_le_bytes(w.try_into().unwrap()));
                vec![0, 1, i as u64, word, 0, set, 0, 0]
            })
            .collect();
        rows.push(vec![0, 0, 0, 0, 1, set, 0, 0]);
        rows.extend((0..clocks).map(|c| {
            let ready = stall == 0 || c % stall != stall - 1;
            vec![0, 0, 0, 0, 0, set, 0, u64::from(ready)]
        }));
        rows
    }

    const KEYGEN_INPUTS: [&str; 8] = [
        "reset",
        "xi_write",
        "xi_index",
        "xi_word",
        "start",
        "parameter_set",
        "abort_job",
        "m_ready",
    ];
    const KEYGEN_OUTPUTS: [&str; 6] = ["busy", "done", "error", "m_valid", "m_last", "m_data"];

    /// What the engine gave over `rows[range]` (output lines are printed
    /// after each clock, so line c shows the stream state of clock c + 1):
    /// the bytes taken, whether `m_last` came with the last word, and
    /// `done`/`error` at the end of the range.
    fn keygen_result(
        lines: &[String],
        rows: &[Vec<u64>],
        range: std::ops::Range<usize>,
    ) -> (Vec<u8>, bool, bool, bool) {
        let field = |c: usize, i: usize| -> u64 {
            u64::from_str_radix(lines[c].split_whitespace().nth(i).unwrap(), 16).unwrap()
        };
        let mut bytes = Vec::new();
        let mut last_seen = false;
        for c in range.start..range.end - 1 {
            if field(c, 3) == 1 && rows[c + 1][7] == 1 {
                assert!(!last_seen, "a word after the last");
                bytes.extend_from_slice(&(field(c, 5) as u32).to_le_bytes());
                last_seen = field(c, 4) == 1;
            }
        }
        let end = range.end - 1;
        (bytes, last_seen, field(end, 1) == 1, field(end, 2) == 1)
    }

    /// Clocks from the start row (after the 8 ξ rows) to the first clock
    /// that shows `done`.
    fn keygen_clocks(lines: &[String], range: std::ops::Range<usize>) -> usize {
        let start = range.start + 8;
        let done = (start..range.end)
            .find(|&c| lines[c].split_whitespace().nth(1) == Some("1"))
            .expect("done");
        done - start + 1
    }

    fn mldsa_set(set: usize) -> pqc::mldsa::ParameterSet {
        use pqc::mldsa::ParameterSet::*;
        [MlDsa44, MlDsa65, MlDsa87][set]
    }

    /// `pqc`'s pk ‖ sk for ξ (set 0, 1, 2: ML-DSA-44, -65, -87).
    pub(crate) fn pqc_keygen(set: usize, xi: &[u8; 32]) -> Vec<u8> {
        let ps = mldsa_set(set);
        let p = ps.params();
        let mut pk = vec![0u8; p.pk_len()];
        let mut sk = vec![0u8; p.sk_len()];
        pqc::mldsa::keygen_internal(ps, xi, &mut pk, &mut sk).unwrap();
        pk.extend_from_slice(&sk);
        pk
    }

    /// ML-DSA-44 on the rust-hdl model against `pqc`, and the exported RTL
    /// against the model clock for clock over the whole key generation.
    #[test]
    fn keygen_engine_matches_pqc_and_its_rtl_clock_for_clock() {
        use crate::mldsa::engine::MlDsaEngine;
        if !verilator_required("keygen_engine_matches_pqc_and_its_rtl_clock_for_clock") {
            return;
        }
        let mut rng = Lcg::new(413);
        let xi: [u8; 32] = core::array::from_fn(|_| rng.next_u32() as u8);
        let mut rows = vec![vec![1, 0, 0, 0, 0, 0, 0, 0]];
        rows.extend(keygen_rows(0, &xi, 35_000, 5));
        // The sampling ring's protocol, checked on every clock.
        let ring = std::cell::RefCell::new(crate::mldsa::engine::RingScoreboard::default());
        let expected = rust_hdl_lines(
            MlDsaEngine::default(),
            &rows,
            |u, r| {
                u.reset.next = r[0] != 0;
                u.xi_write.next = r[1] != 0;
                u.xi_index.next = r[2].into();
                u.xi_word.next = r[3].into();
                u.start.next = r[4] != 0;
                u.parameter_set.next = r[5].into();
                u.abort_job.next = r[6] != 0;
                u.m_ready.next = r[7] != 0;
            },
            |u| &mut u.clock,
            |u| {
                ring.borrow_mut().observe(u);
                vec![
                    u64::from(u.busy.val()),
                    u64::from(u.done.val()),
                    u64::from(u.error.val()),
                    u64::from(u.m_valid.val()),
                    u64::from(u.m_last.val()),
                    u.m_data.val().to_u64(),
                ]
            },
        );
        // s1 (l), Â (k·l) and s2 (k) polynomials, each loaded whole.
        let p = &crate::mldsa::keygen::SETS[0];
        assert_eq!(ring.borrow().loads, p.l + p.k * p.l + p.k, "ring loads");
        assert_eq!(
            ring.borrow().writes,
            256 * ring.borrow().loads,
            "ring writes"
        );
        let (bytes, last, done, error) = keygen_result(&expected, &rows, 0..rows.len());
        assert!(
            done && !error && last,
            "done {done}, error {error}, last {last}"
        );
        assert_eq!(bytes, pqc_keygen(0, &xi), "rust-hdl model against pqc");
        let got = verilated_outputs(
            MlDsaEngine::default(),
            "mldsa_engine",
            &KEYGEN_INPUTS,
            &KEYGEN_OUTPUTS,
            &rows,
        )
        .unwrap();
        assert_eq!(got.len(), expected.len());
        if let Some(c) = (0..got.len()).find(|&c| got[c] != expected[c]) {
            panic!("clock {c}: RTL {} model {}", got[c], expected[c]);
        }
    }

    /// Every parameter set on the exported RTL: the NIST ACVP keyGen case
    /// (SHA3-256 digests of pk and sk) and a random ξ against `pqc`; a
    /// refused set; an abort in the middle of a key generation, after which
    /// the next one is right.
    #[test]
    fn keygen_rtl_runs_acvp_and_random_cases_for_every_set_and_recovers_from_abort() {
        use crate::mldsa::engine::MlDsaEngine;
        use crate::mldsa::keygen::SETS;
        use sha3::{Digest, Sha3_256};
        if !verilator_required(
            "keygen_rtl_runs_acvp_and_random_cases_for_every_set_and_recovers_from_abort",
        ) {
            return;
        }
        // Clock bounds per set, above the measured counts (the test
        // `keygen_cycle_counts` prints them).
        let bound = [40_000, 80_000, 130_000];
        let mut rng = Lcg::new(414);
        let mut rows = vec![vec![1, 0, 0, 0, 0, 0, 0, 0]];
        // (range, set, expected bytes or ACVP digests)
        let mut cases = Vec::new();
        for set in 0..3 {
            let acvp = &pqc_selftest::vectors::ML_DSA[set].keygen;
            assert!(pqc_selftest::vectors::ML_DSA[set]
                .name
                .ends_with(SETS[set].name.trim_start_matches("ML-DSA")));
            let start = rows.len();
            // The ACVP cases run with a sink that never stalls, so their
            // clock counts are the engine's own.
            rows.extend(keygen_rows(set as u64, &acvp.seed, bound[set], 0));
            cases.push((
                start..rows.len(),
                set,
                None,
                Some((acvp.pk_sha3_256, acvp.sk_sha3_256)),
            ));
            let xi: [u8; 32] = core::array::from_fn(|_| rng.next_u32() as u8);
            let start = rows.len();
            rows.extend(keygen_rows(set as u64, &xi, bound[set], 3));
            cases.push((start..rows.len(), set, Some(pqc_keygen(set, &xi)), None));
        }
        // Set 3 is refused at once.
        let refused = rows.len();
        rows.extend(keygen_rows(3, &[0; 32], 20, 0));
        let refused = refused..rows.len();
        // Abort an ML-DSA-87 key generation half-way.
        let aborted = rows.len();
        let mut abort_rows = keygen_rows(2, &[9; 32], 40_000, 0);
        abort_rows[8 + 20_000][6] = 1;
        rows.extend(abort_rows);
        let aborted = aborted..rows.len();
        // And the next one is right.
        let xi: [u8; 32] = core::array::from_fn(|_| rng.next_u32() as u8);
        let after = rows.len();
        rows.extend(keygen_rows(1, &xi, bound[1], 0));
        cases.push((after..rows.len(), 1, Some(pqc_keygen(1, &xi)), None));

        let lines = verilated_outputs_in(
            "mldsa-keygen-every-set",
            MlDsaEngine::default(),
            "mldsa_engine",
            &KEYGEN_INPUTS,
            &KEYGEN_OUTPUTS,
            &rows,
        )
        .unwrap();
        assert_eq!(lines.len(), rows.len());
        // The ACVP cases' clocks, asserted together once all are printed.
        let mut acvp_clocks = [0; 3];
        for (range, set, want, digests) in cases {
            eprintln!(
                "{}: {} clocks ({})",
                SETS[set].name,
                keygen_clocks(&lines, range.clone()),
                if digests.is_some() {
                    "ACVP ξ"
                } else {
                    "random ξ"
                }
            );
            let clocks = keygen_clocks(&lines, range.clone());
            let (bytes, last, done, error) = keygen_result(&lines, &rows, range);
            let name = SETS[set].name;
            if digests.is_some() {
                acvp_clocks[set] = clocks;
            }
            assert!(
                done && !error && last,
                "{name}: done {done}, error {error}, last {last}"
            );
            let pk_len = SETS[set].pk_len();
            if let Some(want) = want {
                assert_eq!(bytes, want, "{name}: random ξ");
            }
            if let Some((pk_digest, sk_digest)) = digests {
                assert_eq!(bytes.len(), pk_len + SETS[set].sk_len());
                assert_eq!(
                    Sha3_256::digest(&bytes[..pk_len])[..],
                    pk_digest[..],
                    "{name}: ACVP pk"
                );
                assert_eq!(
                    Sha3_256::digest(&bytes[pk_len..])[..],
                    sk_digest[..],
                    "{name}: ACVP sk"
                );
            }
        }
        // Deterministic for a given ξ: the samplers' rejections are the
        // only data dependence (see `keygen`).
        assert_eq!(
            acvp_clocks,
            crate::mldsa::keygen::ACVP_KEYGEN_CLOCKS,
            "clocks of the ACVP cases"
        );
        let (bytes, _, done, error) = keygen_result(&lines, &rows, refused);
        assert!(bytes.is_empty() && done && error, "set 3 is refused");
        let (bytes, _, done, error) = keygen_result(&lines, &rows, aborted);
        assert!(
            bytes.is_empty() && done && error,
            "the abort ends the job with an error"
        );
    }
}
