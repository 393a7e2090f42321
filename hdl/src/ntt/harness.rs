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
        let mut uut = NttCore::new();
        uut.connect_all();
        settle(&mut uut);
        Self { uut, cycle: 0 }
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
        self.uut.op.next = (cmd.op as u64).into();
        self.uut.arg0.next = (cmd.args[0] as u64).into();
        self.uut.arg1.next = (cmd.args[1] as u64).into();
        self.uut.arg2.next = (cmd.args[2] as u64).into();
        self.uut.start.next = true;
        self.uut.s_tvalid.next = false;
        self.uut.m_tready.next = false;
        self.tick();
        self.uut.start.next = false;
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
