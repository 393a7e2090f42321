//! A cycle stepper for rust-hdl designs: the same event loop as rust-hdl's
//! `Simulation` (update until nothing changes, via `simulate`), driven
//! directly one clock at a time so a test can read outputs between edges the
//! way a Verilator C++ loop does, without a thread per testbench.

use rust_hdl::prelude::*;

/// Delta-cycle limit per settle: a design that does not settle has a loop.
const SETTLE_LIMIT: usize = 1_000;

/// A design under test, its clock input and a clock-cycle counter.
pub struct Bench<T: Block> {
    /// The design; set its inputs, call [`Bench::settle`], read its outputs.
    pub uut: Box<T>,
    clock: fn(&mut T) -> &mut Signal<In, Clock>,
    /// Rising edges so far.
    pub cycles: u64,
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
        };
        bench.settle();
        bench
    }

    /// Propagates input changes through the combinational logic.
    pub fn settle(&mut self) {
        assert!(
            simulate(self.uut.as_mut(), SETTLE_LIMIT),
            "combinational logic did not settle"
        );
    }

    /// One full clock: rising edge, settle, falling edge, settle.
    pub fn clock(&mut self) {
        (self.clock)(&mut self.uut).next = true.into();
        self.settle();
        (self.clock)(&mut self.uut).next = false.into();
        self.settle();
        self.cycles += 1;
    }
}
