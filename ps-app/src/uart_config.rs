//! Baud-rate programming of the Cadence UART (UG585 §19.2.3):
//! baud = ref_clk / (CD · (BDIV + 1)).
//!
//! The ZedBoard's PS7 configuration (and the ps7_init of a default Vivado
//! design) clocks UART_REF_CLK at 100 MHz; QEMU's UART model takes the
//! divisors without checking, so the same values serve both.

/// UART reference clock of a ZedBoard with the default PS7 configuration.
pub const UART_REF_CLK_HZ: u32 = 100_000_000;
/// Console baud rate.
pub const BAUD: u32 = 115_200;

/// BDIV chosen as the Xilinx driver does for 115200 at 100 MHz.
pub const BDIV: u32 = 6;
/// CD = round(ref / (baud · (BDIV + 1))) = 124.
pub const CD: u32 = divisor(UART_REF_CLK_HZ, BAUD, BDIV);

/// Baud-generator divisor CD for `baud` from `ref_hz` with `bdiv`.
pub const fn divisor(ref_hz: u32, baud: u32, bdiv: u32) -> u32 {
    let per = baud * (bdiv + 1);
    (ref_hz + per / 2) / per
}

/// The baud rate that `cd`, `bdiv` actually produce.
pub const fn actual_baud(ref_hz: u32, cd: u32, bdiv: u32) -> u32 {
    ref_hz / (cd * (bdiv + 1))
}

/// Mode register: 8 data bits (CHRL=00), no parity (PAR=1xx), 1 stop bit
/// (NBSTOP=00), normal channel mode, UART_REF_CLK undivided (CLKS=0).
pub const MODE_8N1: u32 = 0b100 << 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisors_give_115200_within_a_tenth_of_a_percent() {
        assert_eq!(CD, 124);
        let actual = actual_baud(UART_REF_CLK_HZ, CD, BDIV);
        assert_eq!(actual, 115_207);
        assert!((actual as i64 - BAUD as i64).abs() * 1000 < BAUD as i64);
        const { assert!(CD >= 2 && CD <= 0xFFFF && BDIV >= 4 && BDIV <= 255) };
    }
}
