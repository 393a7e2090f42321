//! Drives an [`NttCore`] in the rust-hdl simulation through its ports, one
//! command at a time, as the AXI top level will: start pulse, stream words
//! in or out, wait for `done` (bounded).

use super::core::NttCore;
use super::sim::{settle, tick, Lcg};
use ps_pl_contract::regmap::ntt as reg;
use rust_hdl::prelude::*;

/// Upper bound on the cycles of any command, so a wedged core fails fast.
pub const COMMAND_CYCLE_LIMIT: u64 = 100_000;

/// Outcome of one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandResult {
    /// The core's `cycles` output after `done`.
    pub cycles: u32,
    /// Busy cycles counted by the harness (must equal `cycles`).
    pub busy_cycles: u32,
    /// The core's `error` output after `done`.
    pub error: bool,
    /// Words received on the output stream.
    pub output: Vec<u32>,
}

/// One command for [`CoreSim::command`] and the Verilator testbench.
#[derive(Clone, Debug)]
pub struct Command {
    pub op: u32,
    pub args: [u32; 3],
    /// Words offered on the input stream (`tlast` on the last one).
    pub input: Vec<u32>,
}

impl Command {
    pub fn load(slot: u32, coeffs: &[i32]) -> Self {
        Self {
            op: reg::OP_LOAD,
            args: [slot, 0, 0],
            input: coeffs.iter().map(|&c| c as u32).collect(),
        }
    }
    pub fn store(slot: u32) -> Self {
        Self::op(reg::OP_STORE, [slot, 0, 0])
    }
    pub fn op(op: u32, args: [u32; 3]) -> Self {
        Self {
            op,
            args,
            input: Vec::new(),
        }
    }
}

/// A core under simulation plus the cycle counter.
pub struct CoreSim<const B: usize, const BANKS: usize, const AW: usize, const TW: usize> {
    pub uut: NttCore<B, BANKS, AW, TW>,
    /// Clock cycles since reset.
    pub cycle: u64,
}

impl<const B: usize, const BANKS: usize, const AW: usize, const TW: usize> Default
    for CoreSim<B, BANKS, AW, TW>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<const B: usize, const BANKS: usize, const AW: usize, const TW: usize>
    CoreSim<B, BANKS, AW, TW>
{
    pub fn new() -> Self {
        Self::around(NttCore::new())
    }

    /// A core built with the row port ([`NttCore::with_row_port`]).
    pub fn with_row_port() -> Self {
        Self::around(NttCore::with_row_port())
    }

    fn around(mut uut: NttCore<B, BANKS, AW, TW>) -> Self {
        uut.connect_all();
        settle(&mut uut);
        Self { uut, cycle: 0 }
    }

    /// One `start` pulse with `op` and `args`, busy or not (an abort is
    /// taken while busy); returns once the edge is taken.
    pub fn pulse(&mut self, op: u32, args: [u32; 3]) {
        self.uut.op.next = (op as u64).into();
        self.uut.arg0.next = (args[0] as u64).into();
        self.uut.arg1.next = (args[1] as u64).into();
        self.uut.arg2.next = (args[2] as u64).into();
        self.uut.start.next = true;
        self.tick();
        self.uut.start.next = false;
        settle(&mut self.uut);
    }

    /// Starts `op` on `slot` if the core is idle.
    fn start(&mut self, op: u32, slot: u32) -> Result<(), String> {
        if self.uut.busy.val() {
            return Err("core busy before start".into());
        }
        self.pulse(op, [slot, 0, 0]);
        Ok(())
    }

    /// `OP_STORE_ROWS` of `slot`: the rows it put on the row port (bank `k`
    /// of a row in its element `k`), and the busy cycles.
    pub fn store_rows(&mut self, slot: u32) -> Result<(Vec<[u32; BANKS]>, u32), String> {
        self.start(super::core::OP_STORE_ROWS, slot)?;
        let mut rows = Vec::new();
        let mut busy_cycles = 0u32;
        while self.uut.busy.val() {
            if busy_cycles as u64 > COMMAND_CYCLE_LIMIT {
                return Err("STORE_ROWS did not finish".into());
            }
            if self.uut.row_out_valid.val() {
                rows.push(std::array::from_fn(|k| {
                    self.uut.row_out[k].val().to_u64() as u32
                }));
            }
            busy_cycles += 1;
            self.tick();
        }
        if self.uut.error.val() || !self.uut.done.val() {
            return Err("STORE_ROWS ended with error or without done".into());
        }
        Ok((rows, busy_cycles))
    }

    /// `OP_LOAD_ROWS` into `slot` from `rows`, offering a row only on the
    /// clocks `gaps` (if given) does not withhold; the busy cycles.
    pub fn load_rows(
        &mut self,
        slot: u32,
        rows: &[[u32; BANKS]],
        mut gaps: Option<&mut Lcg>,
    ) -> Result<u32, String> {
        self.start(super::core::OP_LOAD_ROWS, slot)?;
        let mut sent = 0usize;
        let mut busy_cycles = 0u32;
        while self.uut.busy.val() {
            if busy_cycles as u64 > COMMAND_CYCLE_LIMIT {
                return Err(format!("LOAD_ROWS did not finish after {sent} rows"));
            }
            let gap = gaps.as_mut().is_some_and(|r| r.next_u32() % 3 == 0);
            let valid = sent < rows.len() && !gap;
            self.uut.row_in_valid.next = valid;
            for k in 0..BANKS {
                self.uut.row_in[k].next = (*rows.get(sent).map_or(&0, |r| &r[k]) as u64).into();
            }
            settle(&mut self.uut);
            if valid && self.uut.row_in_ready.val() {
                sent += 1;
            }
            busy_cycles += 1;
            self.tick();
        }
        self.uut.row_in_valid.next = false;
        settle(&mut self.uut);
        if self.uut.error.val() || !self.uut.done.val() {
            return Err("LOAD_ROWS ended with error or without done".into());
        }
        if sent != rows.len() {
            return Err(format!("LOAD_ROWS took {sent} of {} rows", rows.len()));
        }
        Ok(busy_cycles)
    }

    fn tick(&mut self) {
        tick(&mut self.uut, |u| &mut u.clock);
        self.cycle += 1;
    }

    /// Runs one command. `stalls`, if given, randomly withholds `s_tvalid`
    /// and `m_tready` (about one cycle in three) to exercise back-pressure.
    pub fn command(
        &mut self,
        cmd: &Command,
        mut stalls: Option<&mut Lcg>,
    ) -> Result<CommandResult, String> {
        if self.uut.busy.val() {
            return Err("core busy before start".into());
        }
        self.uut.s_tvalid.next = false;
        self.uut.m_tready.next = false;
        self.pulse(cmd.op, cmd.args);
        let mut sent = 0usize;
        let mut output = Vec::new();
        let mut busy_cycles = 0u32;
        let start = self.cycle;
        while self.uut.busy.val() {
            if self.cycle - start > COMMAND_CYCLE_LIMIT {
                return Err(format!("op {} did not finish", cmd.op));
            }
            let stall = stalls.as_mut().is_some_and(|r| r.next_u32() % 3 == 0);
            let valid = sent < cmd.input.len() && !stall;
            self.uut.s_tvalid.next = valid;
            self.uut.s_tdata.next = (*cmd.input.get(sent).unwrap_or(&0) as u64).into();
            self.uut.s_tlast.next = sent + 1 == cmd.input.len();
            let stall_out = stalls.as_mut().is_some_and(|r| r.next_u32() % 3 == 0);
            self.uut.m_tready.next = !stall_out;
            settle(&mut self.uut);
            if valid && self.uut.s_tready.val() {
                sent += 1;
            }
            if self.uut.m_tvalid.val() && !stall_out {
                output.push(self.uut.m_tdata.val().to_u64() as u32);
                let last = self.uut.m_tlast.val();
                if last != (output.len() == pqc::ring::N) {
                    return Err(format!("tlast {last} on output word {}", output.len()));
                }
            }
            busy_cycles += 1;
            self.tick();
        }
        self.uut.s_tvalid.next = false;
        self.uut.m_tready.next = false;
        settle(&mut self.uut);
        if !self.uut.done.val() {
            return Err("busy fell without done".into());
        }
        Ok(CommandResult {
            cycles: self.uut.cycles.val().to_u64() as u32,
            busy_cycles,
            error: self.uut.error.val(),
            output,
        })
    }

    /// Loads a polynomial into a slot (no stalls); panics on any failure.
    pub fn load(&mut self, slot: u32, p: &pqc::ring::Poly) -> CommandResult {
        let r = self.command(&Command::load(slot, p), None).unwrap();
        assert!(!r.error, "load reported an error");
        r
    }

    /// Stores a slot (no stalls); panics on any failure.
    pub fn store(&mut self, slot: u32) -> (pqc::ring::Poly, CommandResult) {
        let r = self.command(&Command::store(slot), None).unwrap();
        assert!(!r.error, "store reported an error");
        assert_eq!(r.output.len(), pqc::ring::N);
        let mut p = [0i32; pqc::ring::N];
        for (c, &w) in p.iter_mut().zip(&r.output) {
            *c = w as i32;
        }
        (p, r)
    }

    /// Runs a compute command (no streams); panics on any failure.
    pub fn exec(&mut self, op: u32, args: [u32; 3]) -> CommandResult {
        let r = self.command(&Command::op(op, args), None).unwrap();
        assert!(!r.error, "op {op} reported an error");
        r
    }
}
