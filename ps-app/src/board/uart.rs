//! UART1 (0xE000_1000), the ZedBoard's USB-UART console, at 115200 8N1.

use crate::uart_config::{BDIV, CD, MODE_8N1};
use driver::bus::RegisterBus;
use driver::mmio::Mmio;
use driver::poll::poll_until;
use ps_pl_contract::ps;

const CR: usize = 0x00;
const MR: usize = 0x04;
const BAUDGEN: usize = 0x18;
const SR: usize = 0x2C;
const FIFO: usize = 0x30;
const BAUDDIV: usize = 0x34;

const CR_RXRST: u32 = 1 << 0;
const CR_TXRST: u32 = 1 << 1;
const CR_RX_EN: u32 = 1 << 2;
const CR_RX_DIS: u32 = 1 << 3;
const CR_TX_EN: u32 = 1 << 4;
const CR_TX_DIS: u32 = 1 << 5;
const CR_STPBRK: u32 = 1 << 8;
const SR_TXFULL: u32 = 1 << 4;

/// At 115200 baud a FIFO slot frees every ~87 µs; this budget of status
/// reads is far above that on any clock, yet bounded.
const TX_POLL_LIMIT: u32 = 1_000_000;

/// The console UART.
pub struct Uart {
    regs: Mmio,
    /// Characters dropped because the transmitter never freed a slot.
    pub dropped: u32,
}

impl Uart {
    /// The console on the panic and exception paths: re-opens UART1
    /// (the one window opened outside `Peripherals::take`; the normal flow
    /// has ended when these paths run) and programs it again.
    pub fn emergency() -> Uart {
        // SAFETY: UART1's register window; the normal flow that owned it
        // will not run again.
        Uart::init(unsafe { Mmio::new(ps::UART1_BASE, ps::UART_WINDOW) })
    }

    /// Programs UART1 (window `regs`) for 115200 8N1 (UG585 §19.3.2 sequence).
    pub fn init(mut regs: Mmio) -> Uart {
        regs.write32(CR, CR_TX_DIS | CR_RX_DIS);
        regs.write32(MR, MODE_8N1);
        regs.write32(BAUDGEN, CD);
        regs.write32(BAUDDIV, BDIV);
        regs.write32(CR, CR_TX_DIS | CR_RX_DIS | CR_TXRST | CR_RXRST);
        let _ = poll_until(10_000, || {
            (regs.read32(CR) & (CR_TXRST | CR_RXRST) == 0).then_some(())
        });
        regs.write32(CR, CR_TX_EN | CR_RX_EN | CR_STPBRK);
        Uart { regs, dropped: 0 }
    }

    fn put(&mut self, byte: u8) {
        let regs = &mut self.regs;
        match poll_until(TX_POLL_LIMIT, || {
            (regs.read32(SR) & SR_TXFULL == 0).then_some(())
        }) {
            Ok(()) => self.regs.write32(FIFO, byte as u32),
            Err(_) => self.dropped += 1,
        }
    }
}

impl core::fmt::Write for Uart {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for byte in s.bytes() {
            if byte == b'\n' {
                self.put(b'\r');
            }
            self.put(byte);
        }
        Ok(())
    }
}
