//! The PL clock.
//!
//! FCLK_CLK0 is the fastest clock the PS7 makes from its IO PLL (an integer
//! divisor) that every PL top's estimated Fmax still meets: the yosys cell
//! delay of the worst path plus a routing allowance per net
//! (`bitstream/reports/timing.md`). `hdl`'s budget test asserts that the
//! tops meet it; the generated Vivado scripts refuse a routed design with
//! negative slack at it.

/// The PS7 IO PLL in Hz: the ZedBoard's 33.333 MHz PS_CLK times 30, the
/// board preset's setting.
pub const IO_PLL_HZ: u32 = 1_000_000_000;

/// Divisor of FCLK_CLK0 from the IO PLL (Vivado picks DIVISOR0 ×
/// DIVISOR1 = 8 × 1 for the requested frequency). 8 (125 MHz) is the
/// smallest divisor whose period (8.0 ns) every PL top's estimated period
/// meets; 7 (142.9 MHz, 7.0 ns) is not met by the SLH-DSA and ML-DSA
/// engine tops (7.87 and 7.12 ns estimated).
pub const FCLK0_IO_PLL_DIVISOR: u32 = 8;

/// FCLK_CLK0 of the PS7 in Hz (125,000,000): clocks the accelerators,
/// their AXI DMAs and the interconnects (the Vivado script's
/// PCW_FPGA0_PERIPHERAL_FREQMHZ, the tops' FREQ_HZ interface parameter,
/// the report's PL time base).
pub const FCLK0_HZ: u32 = IO_PLL_HZ / FCLK0_IO_PLL_DIVISOR;

/// The period of [`FCLK0_HZ`] in ps (8,000).
pub const FCLK0_PERIOD_PS: u32 = 1_000_000_000 / (FCLK0_HZ / 1_000);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fclk0_divides_the_io_pll() {
        assert_eq!(FCLK0_HZ, 125_000_000);
        assert_eq!(FCLK0_PERIOD_PS, 8_000);
        assert_eq!(
            u64::from(FCLK0_PERIOD_PS) * u64::from(IO_PLL_HZ),
            u64::from(FCLK0_IO_PLL_DIVISOR) * 1_000_000_000_000
        );
    }
}
