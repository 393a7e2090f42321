//! [`PlTop`]: what a co-simulation needs of a PL top, whichever simulator
//! runs it: whole AXI4-Lite transactions, the two stream queues and the
//! clock. [`AccelBench`] (rust-hdl, the reference) and
//! [`crate::verilated::VerilatedTop`] (the exported Verilog under
//! Verilator) implement it with the same clock-by-clock behaviour.

use super::bench::{AccelBench, AccelTop, AxiTimeout, StreamWord};

/// A simulated accelerator top (see the module docs).
pub trait PlTop {
    /// Clock cycles so far (reset clocks included).
    fn cycles(&self) -> u64;
    /// One AXI4-Lite write (AW and W together, all byte lanes), as
    /// [`AccelBench::write`]: returns once the response has been taken.
    fn write(&mut self, offset: u32, value: u32) -> Result<(), AxiTimeout>;
    /// One AXI4-Lite read, as [`AccelBench::read`].
    fn read(&mut self, offset: u32) -> Result<u32, AxiTimeout>;
    /// Up to `max` clocks (at least one, `max` > 0): stops early after a
    /// clock that emptied the input queue or took an output word, the only
    /// events a DMA model reacts to between clocks. Returns the clocks run.
    fn run(&mut self, max: u64) -> u64;
    /// Queues words on the input stream.
    fn push_input(&mut self, words: &[StreamWord]);
    /// Whether every queued input word has been taken.
    fn input_drained(&self) -> bool;
    /// Drops the queued input words.
    fn drop_input(&mut self);
    /// The oldest output word taken, if any.
    fn pop_output(&mut self) -> Option<StreamWord>;
    /// Drops the output words taken.
    fn drop_output(&mut self);
    /// Drives `m_axis_tready`.
    fn set_sink_ready(&mut self, ready: bool);
}

impl<T: AccelTop> PlTop for AccelBench<T> {
    fn cycles(&self) -> u64 {
        AccelBench::cycles(self)
    }
    fn write(&mut self, offset: u32, value: u32) -> Result<(), AxiTimeout> {
        AccelBench::write(self, offset, value)
    }
    fn read(&mut self, offset: u32) -> Result<u32, AxiTimeout> {
        AccelBench::read(self, offset)
    }
    fn run(&mut self, _max: u64) -> u64 {
        // One clock at a time: the rust-hdl simulation costs far more per
        // clock than a DMA service call.
        self.clock();
        1
    }
    fn push_input(&mut self, words: &[StreamWord]) {
        self.stream_in.extend(words.iter().copied());
    }
    fn input_drained(&self) -> bool {
        self.stream_in.is_empty()
    }
    fn drop_input(&mut self) {
        self.stream_in.clear();
    }
    fn pop_output(&mut self) -> Option<StreamWord> {
        self.stream_out.pop_front()
    }
    fn drop_output(&mut self) {
        self.stream_out.clear();
    }
    fn set_sink_ready(&mut self, ready: bool) {
        self.sink_ready = ready;
    }
}

/// `PlTop` for a pointer to a `PlTop` (`Box`, `&mut`): every call passed
/// through.
macro_rules! forward_pl_top {
    ($($pointer:ty),*) => {$(
        impl<P: PlTop + ?Sized> PlTop for $pointer {
            fn cycles(&self) -> u64 {
                (**self).cycles()
            }
            fn write(&mut self, offset: u32, value: u32) -> Result<(), AxiTimeout> {
                (**self).write(offset, value)
            }
            fn read(&mut self, offset: u32) -> Result<u32, AxiTimeout> {
                (**self).read(offset)
            }
            fn run(&mut self, max: u64) -> u64 {
                (**self).run(max)
            }
            fn push_input(&mut self, words: &[StreamWord]) {
                (**self).push_input(words)
            }
            fn input_drained(&self) -> bool {
                (**self).input_drained()
            }
            fn drop_input(&mut self) {
                (**self).drop_input()
            }
            fn pop_output(&mut self) -> Option<StreamWord> {
                (**self).pop_output()
            }
            fn drop_output(&mut self) {
                (**self).drop_output()
            }
            fn set_sink_ready(&mut self, ready: bool) {
                (**self).set_sink_ready(ready)
            }
        }
    )*};
}

forward_pl_top!(Box<P>, &mut P);

/// One request at the bus, as the tests make it: `input` queued on the
/// stream, the sink ready, `args` written to `ARG0`, `ARG1`, …, then the
/// start command for `op`; clocks until STATUS shows done, at most
/// `max_clocks` (checked every 1,000). Returns the output words, STATUS and
/// CYCLES; the input left over is dropped.
#[cfg(test)]
pub(crate) fn bus_request(
    top: &mut dyn PlTop,
    op: u32,
    args: &[u32],
    input: &[StreamWord],
    max_clocks: u64,
) -> (Vec<StreamWord>, u32, u32) {
    use ps_pl_contract::regmap::ctrl;
    top.push_input(input);
    top.set_sink_ready(true);
    let arg_registers = [ctrl::ARG0, ctrl::ARG1, ctrl::ARG2];
    for (offset, value) in arg_registers.into_iter().zip(args) {
        top.write(offset as u32, *value).unwrap();
    }
    top.write(ctrl::COMMAND as u32, ctrl::COMMAND_START | op)
        .unwrap();
    let mut out = Vec::new();
    let mut clocks = 0;
    while clocks < max_clocks {
        let target = clocks + 1_000;
        while clocks < target {
            clocks += top.run(target - clocks);
            while let Some(w) = top.pop_output() {
                out.push(w);
            }
        }
        let status = top.read(ctrl::STATUS as u32).unwrap();
        if status & ctrl::STATUS_DONE != 0 && status & ctrl::STATUS_BUSY == 0 {
            let cycles = top.read(ctrl::CYCLES as u32).unwrap();
            top.drop_input();
            return (out, status, cycles);
        }
    }
    panic!("op {op:#x} not done within {max_clocks} clocks");
}

/// `words` as stream beats, `last` on word `last_at` only.
#[cfg(test)]
pub(crate) fn beats(words: impl IntoIterator<Item = u32>, last_at: usize) -> Vec<StreamWord> {
    words
        .into_iter()
        .enumerate()
        .map(|(i, data)| StreamWord {
            data,
            last: i == last_at,
        })
        .collect()
}
