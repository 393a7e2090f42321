//! Runs the exported Verilog of an NTT core under Verilator with a
//! SystemVerilog testbench fed by vector files, and the same commands in the
//! rust-hdl simulation; both transcripts (every output word, the `cycles`
//! and `error` outputs of every command) must be identical. Also the VCD
//! writer of the `vcd` command.

use super::core::NttCore;
use super::harness::{Command, CoreSim};
use super::sim::Lcg;
use crate::verilator::VerilatorRun;
use pqc::ring::{N, Q};
use ps_pl_contract::regmap::ntt as reg;
use rust_hdl::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// The command list of the cross-check: edge cases and `random` random
/// polynomials through every operation, plus one refused request.
pub fn crosscheck_commands(random: usize, seed: u64) -> Vec<Command> {
    let mut rng = Lcg::new(seed);
    let mut polys = vec![[0; N], [Q - 1; N]];
    let mut single = [0; N];
    single[3] = 1;
    polys.push(single);
    for _ in 0..random {
        polys.push(rng.poly());
    }
    let mut cmds = vec![Command::op(0x7F, [0, 0, 0])];
    for p in &polys {
        cmds.push(Command::load(0, p));
        cmds.push(Command::op(reg::OP_NTT, [0, 0, 0]));
        cmds.push(Command::store(0));
        cmds.push(Command::op(reg::OP_INTT, [0, 0, 0]));
        cmds.push(Command::store(0));
        cmds.push(Command::load(1, &rng.poly()));
        cmds.push(Command::op(reg::OP_PWM, [2, 0, 1]));
        cmds.push(Command::op(reg::OP_PWMAC, [2, 1, 0]));
        cmds.push(Command::store(2));
    }
    cmds
}

fn transcript_line(out: &mut String, words: &[u32], cycles: u32, error: bool) {
    for (i, w) in words.iter().enumerate() {
        let _ = writeln!(out, "W {w:08x} {}", u8::from(i + 1 == words.len()));
    }
    let _ = writeln!(out, "C {cycles} {}", u8::from(error));
}

/// Transcript of the commands in the rust-hdl simulation.
pub fn rust_hdl_transcript<const B: usize, const BANKS: usize, const AW: usize, const TW: usize>(
    cmds: &[Command],
) -> Result<String, String> {
    let mut sim = CoreSim::<B, BANKS, AW, TW>::new();
    let mut out = String::new();
    for c in cmds {
        let r = sim.command(c, None)?;
        if r.busy_cycles != r.cycles {
            return Err(format!(
                "cycles output {} != busy {}",
                r.cycles, r.busy_cycles
            ));
        }
        transcript_line(&mut out, &r.output, r.cycles, r.error);
    }
    Ok(out)
}

/// The SystemVerilog testbench for the core exported as module `design`
/// with `banks` banks (its row port, absent in these builds, tied off).
pub fn testbench(design: &str, banks: usize) -> String {
    let mut row_port = String::new();
    for k in 0..banks {
        let _ = write!(row_port, ".row_in${k}(23'd0), .row_out${k}(), ");
    }
    row_port.push_str(".row_in_valid(1'b0), .row_in_ready(), .row_out_valid()");
    format!(
        r#"// Drives {design} from cmds.hex / input.hex like the Rust harness.
module tb_top;
  reg clock = 0;
  always #5 clock = ~clock;
  reg start = 0;
  reg [7:0] op = 0;
  reg [31:0] arg0 = 0, arg1 = 0, arg2 = 0;
  wire busy, done, error;
  wire [31:0] cycles, config_word;
  reg [31:0] s_tdata = 0;
  reg s_tvalid = 0, s_tlast = 0, m_tready = 0;
  wire s_tready, m_tvalid, m_tlast;
  wire [31:0] m_tdata;
  {design} dut(.clock(clock), .reset(1'b0), .start(start), .op(op), .arg0(arg0), .arg1(arg1),
    .arg2(arg2), .busy(busy), .done(done), .error(error), .cycles(cycles),
    .config_word(config_word), .s_tdata(s_tdata), .s_tvalid(s_tvalid),
    .s_tlast(s_tlast), .s_tready(s_tready), .m_tdata(m_tdata),
    .m_tvalid(m_tvalid), .m_tlast(m_tlast), .m_tready(m_tready),
    {row_port});
  reg [31:0] cmds [0:65535];
  reg [31:0] words [0:1048575];
  integer ncmd, i, base, nin, sent, inptr, fd, guard;
  initial begin
    $readmemh("cmds.hex", cmds);
    $readmemh("input.hex", words);
    fd = $fopen("results.txt", "w");
    ncmd = cmds[0];
    inptr = 0;
    @(negedge clock);
    for (i = 0; i < ncmd; i = i + 1) begin
      base = 1 + 5 * i;
      op = cmds[base][7:0];
      arg0 = cmds[base + 1];
      arg1 = cmds[base + 2];
      arg2 = cmds[base + 3];
      nin = cmds[base + 4];
      start = 1;
      @(negedge clock);
      start = 0;
      sent = 0;
      guard = 0;
      #1;
      while (busy) begin
        s_tvalid = (sent < nin);
        s_tdata = words[inptr + sent];
        s_tlast = (sent + 1 == nin);
        m_tready = 1;
        #1;
        if (m_tvalid) $fwrite(fd, "W %08x %0d\n", m_tdata, m_tlast);
        if (s_tvalid && s_tready) sent = sent + 1;
        @(negedge clock);
        #1;
        guard = guard + 1;
        if (guard > 100000) begin
          $display("TIMEOUT in command %0d", i);
          $fatal;
        end
      end
      s_tvalid = 0;
      m_tready = 0;
      inptr = inptr + nin;
      $fwrite(fd, "C %0d %0d\n", cycles, error);
    end
    $fclose(fd);
    $display("OK %0d commands", ncmd);
    $finish;
  end
endmodule
"#
    )
}

/// Runs the commands on the exported RTL of `design` under Verilator and
/// returns the transcript.
pub fn verilator_transcript(
    design: &str,
    banks: usize,
    rtl: &str,
    cmds: &[Command],
) -> Result<String, String> {
    let run = VerilatorRun::new(&format!("crosscheck-{design}")).map_err(|e| e.to_string())?;
    let mut cmd_hex = format!("{:08x}\n", cmds.len());
    let mut input_hex = String::new();
    for c in cmds {
        for w in [c.op, c.args[0], c.args[1], c.args[2], c.input.len() as u32] {
            let _ = writeln!(cmd_hex, "{w:08x}");
        }
        for w in &c.input {
            let _ = writeln!(input_hex, "{w:08x}");
        }
    }
    if input_hex.is_empty() {
        input_hex.push_str("00000000\n");
    }
    run.write_input("cmds.hex", &cmd_hex)
        .map_err(|e| e.to_string())?;
    run.write_input("input.hex", &input_hex)
        .map_err(|e| e.to_string())?;
    let stdout = run.build_and_run(
        rtl,
        &testbench(design, banks),
        "tb_top",
        &["--timing", "--timescale", "1ns/1ps", "-Wno-STMTDLY"],
    )?;
    if !stdout.contains("OK ") {
        return Err(format!("testbench did not complete:\n{stdout}"));
    }
    run.read_output("results.txt").map_err(|e| e.to_string())
}

/// Writes a VCD of one load, forward NTT and store on the `B`-lane core.
pub fn write_ntt_vcd<const B: usize, const BANKS: usize, const AW: usize, const TW: usize>(
    path: &Path,
) -> Result<(), String> {
    let mut uut = NttCore::<B, BANKS, AW, TW>::new();
    uut.connect_all();
    let poly = Lcg::new(2026).poly();
    let mut sim = Simulation::<NttCore<B, BANKS, AW, TW>>::new();
    sim.add_clock(5, |x: &mut Box<NttCore<B, BANKS, AW, TW>>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut sim: Sim<NttCore<B, BANKS, AW, TW>>| {
        let mut x = sim.init()?;
        for (op, arg) in [(reg::OP_LOAD, 0u32), (reg::OP_NTT, 0), (reg::OP_STORE, 0)] {
            wait_clock_false!(sim, clock, x);
            x.op.next = (op as u64).into();
            x.arg0.next = (arg as u64).into();
            x.start.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.start.next = false;
            let mut sent = 0;
            while x.busy.val() {
                x.s_tvalid.next = op == reg::OP_LOAD && sent < N;
                x.s_tdata.next = (poly[sent.min(N - 1)] as u64).into();
                x.s_tlast.next = sent + 1 == N;
                x.m_tready.next = op == reg::OP_STORE;
                wait_clock_true!(sim, clock, x);
                if x.s_tvalid.val() && x.s_tready.val() {
                    sent += 1;
                }
                wait_clock_false!(sim, clock, x);
            }
            x.s_tvalid.next = false;
            x.m_tready.next = false;
        }
        sim.done(x)
    });
    let file = path.to_str().ok_or("VCD path is not UTF-8")?;
    sim.run_to_file(Box::new(uut), 100_000_000, file)
        .map_err(|e| format!("simulation failed: {e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::design_verilog;

    fn crosscheck<const B: usize, const BANKS: usize, const AW: usize, const TW: usize>(
        design: &str,
        random: usize,
    ) {
        if !crate::verilator::verilator_required(&format!("verilator crosscheck {design}")) {
            return;
        }
        let d = crate::ntt::designs()
            .into_iter()
            .find(|d| d.name == design)
            .unwrap();
        let cmds = crosscheck_commands(random, 77);
        let expected = rust_hdl_transcript::<B, BANKS, AW, TW>(&cmds).unwrap();
        let got = verilator_transcript(design, BANKS, &design_verilog(&d), &cmds).unwrap();
        assert!(expected.lines().count() > 1000, "transcript too short");
        for (n, (e, g)) in expected.lines().zip(got.lines()).enumerate() {
            assert_eq!(g, e, "{design}: line {n} differs (Verilator vs rust-hdl)");
        }
        assert_eq!(got.lines().count(), expected.lines().count());
    }

    #[test]
    fn verilator_matches_rust_hdl_b4() {
        crosscheck::<4, 8, 5, 8>("ntt_b4", 3);
    }

    #[test]
    fn vcd_of_one_ntt_is_written() {
        let dir = crate::verilator::work_dir("vcd-test");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ntt_b4.vcd");
        write_ntt_vcd::<4, 8, 5, 8>(&path).unwrap();
        let vcd = std::fs::read_to_string(&path).unwrap();
        assert!(vcd.starts_with("$timescale"));
        assert!(vcd.contains(" busy $end") && vcd.contains(" m_tlast $end"));
        // Load, NTT and store: more than 256 + 264 + 257 clock edges.
        assert!(vcd.matches("\n#").count() > 2 * 777);
    }

    #[test]
    #[ignore = "opt-in: PQC_FULL=1 bash scripts/test.sh runs it"]
    fn verilator_matches_rust_hdl_b1_b2_full() {
        crosscheck::<2, 4, 6, 8>("ntt_b2", 3);
        crosscheck::<1, 2, 7, 9>("ntt_b1", 3);
    }
}
