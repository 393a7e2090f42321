//! Processing-system addresses that the firmware and the PL probe use
//! (Zynq-7000 TRM, UG585, appendix B).

/// System level control registers (SLCR).
pub const SLCR_BASE: usize = 0xF800_0000;
/// Size of the SLCR window the firmware maps.
pub const SLCR_WINDOW: usize = 0x1000;
/// SLCR_LOCK: write [`SLCR_LOCK_KEY`] to lock the SLCR.
pub const SLCR_LOCK: usize = 0x004;
/// SLCR_UNLOCK: write [`SLCR_UNLOCK_KEY`] to unlock the SLCR.
pub const SLCR_UNLOCK: usize = 0x008;
/// Key that locks the SLCR.
pub const SLCR_LOCK_KEY: u32 = 0x767B;
/// Key that unlocks the SLCR.
pub const SLCR_UNLOCK_KEY: u32 = 0xDF0D;
/// L2C_RAM: the PL310 RAM latency control (UG585 §3.4.10).
pub const SLCR_L2C_RAM: usize = 0xA1C;
/// The value UG585 requires in L2C_RAM before the PL310 is enabled.
pub const SLCR_L2C_RAM_VALUE: u32 = 0x0002_0202;
/// LVL_SHFTR_EN: the PS–PL level shifters (UG585 B.28).
pub const SLCR_LVL_SHFTR_EN: usize = 0x900;
/// LVL_SHFTR_EN with every PS–PL level shifter on (what `ps7_post_config` writes).
pub const LEVEL_SHIFTERS_ON: u32 = 0xF;

/// Device configuration block (DEVCFG, UG585 ch. 6).
pub const DEVCFG_BASE: usize = 0xF800_7000;
/// Size of the DEVCFG window the probe maps.
pub const DEVCFG_WINDOW: usize = 0x100;
/// DEVCFG interrupt status register.
pub const DEVCFG_INT_STS: usize = 0x0C;
/// INT_STS.PCFG_DONE: the PL has been configured.
pub const DEVCFG_PCFG_DONE: u32 = 1 << 2;

/// Snoop control unit (CPU private space).
pub const SCU_BASE: usize = 0xF8F0_0000;
/// Size of the SCU window the firmware maps.
pub const SCU_WINDOW: usize = 0x100;
/// Cortex-A9 MPCore global timer.
pub const GLOBAL_TIMER_BASE: usize = 0xF8F0_0200;
/// Size of the global timer window.
pub const GLOBAL_TIMER_WINDOW: usize = 0x20;
/// PL310 (L2C-310) level-2 cache controller.
pub const PL310_BASE: usize = 0xF8F0_2000;
/// Size of the PL310 register window.
pub const PL310_WINDOW: usize = 0x1000;
/// UART1, the ZedBoard's USB-UART console.
pub const UART1_BASE: usize = 0xE000_1000;
/// Size of the UART window.
pub const UART_WINDOW: usize = 0x1000;
