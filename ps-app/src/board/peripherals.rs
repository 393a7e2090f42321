//! The one owner of every register window the application uses, in the
//! style of `Peripherals::take()`: each window is opened (`Mmio::new`, the
//! `unsafe` promise that no other user of the window exists) exactly once,
//! here, and handed out by value or shared through a `RefCell` where
//! several users need it in turn (single-threaded, so accesses never nest).
//!
//! The one exception is the console on the panic and exception paths,
//! which re-open UART1 ([`super::uart::Uart::emergency`]) because the
//! owner may be anywhere when they run; the normal flow has ended then.

use core::cell::RefCell;
use core::sync::atomic::{AtomicBool, Ordering};
use driver::mmio::Mmio;
use ps_pl_contract::{ps, regmap};

/// Every register window of the PS and the PL that the application uses.
pub struct Peripherals {
    /// System level control registers (L2C RAM, level shifters).
    pub slcr: RefCell<Mmio>,
    /// Device configuration (the probe's PCFG_DONE).
    pub devcfg: Mmio,
    /// Snoop control unit.
    pub scu: Mmio,
    /// The PL310 L2 cache controller: start-up, then by-address
    /// maintenance for the self-check and both DMA ports.
    pub pl310: RefCell<Mmio>,
    /// The global timer.
    pub global_timer: Mmio,
    /// UART1, the console.
    pub uart1: Mmio,
    /// The NTT core's control block (the probe, then `HwRing`).
    pub ntt: RefCell<Mmio>,
    /// The NTT core's AXI DMA.
    pub ntt_dma: Mmio,
    /// The Keccak engine's control block (the probe, then `HwKeccak`).
    pub keccak: RefCell<Mmio>,
    /// The Keccak engine's AXI DMA.
    pub keccak_dma: Mmio,
    /// The ML-DSA engine's control block (the probe, then `HwMlDsa`).
    pub mldsa: RefCell<Mmio>,
    /// The SLH-DSA engine's control block (the probe, then `HwSlhDsa`).
    pub slhdsa: RefCell<Mmio>,
    /// The engines' one AXI DMA, shared by `HwMlDsa` and `HwSlhDsa` (one
    /// engine runs at a time).
    pub engines_dma: RefCell<Mmio>,
}

static TAKEN: AtomicBool = AtomicBool::new(false);

impl Peripherals {
    /// The windows, the first time; `None` after that.
    pub fn take() -> Option<Self> {
        if TAKEN.swap(true, Ordering::AcqRel) {
            return None;
        }
        // SAFETY: each window is a device-register block of the Zynq-7000
        // PS or of the PL design (addresses from the PS–PL contract),
        // mapped Device or Strongly-ordered by `mmu`; `TAKEN` makes this the
        // only place that opens them, so no two owners of one window exist.
        // The GP0 windows are only read after the probe found a configured
        // PL behind enabled level shifters.
        unsafe {
            Some(Peripherals {
                slcr: RefCell::new(Mmio::new(ps::SLCR_BASE, ps::SLCR_WINDOW)),
                devcfg: Mmio::new(ps::DEVCFG_BASE, ps::DEVCFG_WINDOW),
                scu: Mmio::new(ps::SCU_BASE, ps::SCU_WINDOW),
                pl310: RefCell::new(Mmio::new(ps::PL310_BASE, ps::PL310_WINDOW)),
                global_timer: Mmio::new(ps::GLOBAL_TIMER_BASE, ps::GLOBAL_TIMER_WINDOW),
                uart1: Mmio::new(ps::UART1_BASE, ps::UART_WINDOW),
                ntt: RefCell::new(Mmio::new(regmap::NTT_BASE, regmap::CTRL_WINDOW_BYTES)),
                ntt_dma: Mmio::new(regmap::NTT_DMA_BASE, regmap::CTRL_WINDOW_BYTES),
                keccak: RefCell::new(Mmio::new(regmap::KECCAK_BASE, regmap::CTRL_WINDOW_BYTES)),
                keccak_dma: Mmio::new(regmap::KECCAK_DMA_BASE, regmap::CTRL_WINDOW_BYTES),
                mldsa: RefCell::new(Mmio::new(regmap::MLDSA_BASE, regmap::ENGINE_BLOCK_BYTES)),
                slhdsa: RefCell::new(Mmio::new(regmap::SLHDSA_BASE, regmap::ENGINE_BLOCK_BYTES)),
                engines_dma: RefCell::new(Mmio::new(
                    regmap::ENGINES_DMA_BASE,
                    regmap::CTRL_WINDOW_BYTES,
                )),
            })
        }
    }
}
