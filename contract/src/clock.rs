//! The PL clock.

/// FCLK_CLK0 of the PS7 in Hz: clocks the accelerators, their AXI DMAs and
/// the interconnects (the Vivado script's PCW_FPGA0_PERIPHERAL_FREQMHZ, the
/// tops' FREQ_HZ interface parameter, the report's PL time base).
pub const FCLK0_HZ: u32 = 100_000_000;

/// [`FCLK0_HZ`] in MHz, as Vivado's PS7 settings take it.
pub const FCLK0_MHZ: u32 = FCLK0_HZ / 1_000_000;
