//! A cycle stepper for rust-hdl designs: the same event loop as rust-hdl's
//! `Simulation` (update until nothing changes, via `simulate`), driven
//! directly one clock at a time so a test can read outputs between edges the
//! way a Verilator C++ loop does, without a thread per testbench.

use rust_hdl::core::vcd_probe::VCDProbe;
use rust_hdl::prelude::*;
use std::io::Write;

/// Delta-cycle limit per settle: a design that does not settle has a loop.
const SETTLE_LIMIT: usize = 1_000;
/// Half a clock period in the VCD time unit (ps): FCLK0's.
const HALF_PERIOD_PS: u64 = ps_pl_contract::clock::FCLK0_PERIOD_PS as u64 / 2;

/// A design under test, its clock input and a clock-cycle counter.
pub struct Bench<T: Block> {
    /// The design; set its inputs, call [`Bench::settle`], read its outputs.
    pub uut: Box<T>,
    clock: fn(&mut T) -> &mut Signal<In, Clock>,
    /// Rising edges so far.
    pub cycles: u64,
    trace: Option<VCDProbe<Box<dyn Write>>>,
    time_ps: u64,
}

impl<T: Block> Bench<T> {
    /// Connects and checks the design (rust-hdl's `check_all`) and settles it.
    pub fn new(mut uut: T, clock: fn(&mut T) -> &mut Signal<In, Clock>) -> Self {
        uut.connect_all();
        check_all(&uut).expect("design fails rust-hdl's connection checks");
        let mut bench = Self {
            uut: Box::new(uut),
            clock,
            cycles: 0,
            trace: None,
            time_ps: 0,
        };
        bench.settle();
        bench
    }

    /// Records every signal from now on as a VCD waveform into `out`.
    pub fn trace_to(&mut self, out: Box<dyn Write>) {
        let probe = write_vcd_header(out, self.uut.as_ref());
        self.trace = Some(write_vcd_dump(probe, self.uut.as_ref()));
    }

    /// Propagates input changes through the combinational logic.
    pub fn settle(&mut self) {
        assert!(
            simulate(self.uut.as_mut(), SETTLE_LIMIT),
            "combinational logic did not settle"
        );
        if let Some(mut probe) = self.trace.take() {
            probe.timestamp(self.time_ps).expect("write VCD");
            self.trace = Some(write_vcd_change(probe, self.uut.as_ref()));
        }
    }

    /// One full clock: rising edge, settle, falling edge, settle.
    pub fn clock(&mut self) {
        self.time_ps += HALF_PERIOD_PS;
        (self.clock)(&mut self.uut).next = true.into();
        self.settle();
        self.time_ps += HALF_PERIOD_PS;
        (self.clock)(&mut self.uut).next = false.into();
        self.settle();
        self.cycles += 1;
    }
}
