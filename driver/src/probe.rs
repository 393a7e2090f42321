//! The PL probe: is a bitstream loaded, and which accelerator cores answer
//! on M_AXI_GP0 with the identification words of [`ps_pl_contract::regmap`]?
//!
//! On a real Zynq a read from the GP0 window while the PL is unconfigured
//! (or its level shifters are off) never completes and hangs the CPU, so
//! the probe first reads DEVCFG's PCFG_DONE and the SLCR level-shifter
//! enables, and touches GP0 only if both say the PL is reachable. QEMU's `xilinx-zynq-a9` has no PL: GP0 reads return 0, which the
//! probe reports as "no core".

use crate::bus::RegisterBus;
use core::fmt;
use ps_pl_contract::ps::{
    DEVCFG_INT_STS, DEVCFG_PCFG_DONE as PCFG_DONE, LEVEL_SHIFTERS_ON, SLCR_LVL_SHFTR_EN,
};
use ps_pl_contract::regmap::{ctrl, keccak, ntt};

/// What one control block answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreStatus {
    /// ID and register-interface version match this tree.
    Present {
        /// The CONFIG register (elaboration parameters).
        config: u32,
    },
    /// The ID register did not hold the expected word (0 on QEMU).
    Absent {
        /// The word read.
        id: u32,
    },
    /// The ID matches but the register interface is another version.
    WrongVersion {
        /// The VERSION register read.
        version: u32,
    },
    /// Not read: the PL is not configured.
    NotProbed,
}

/// Result of probing the PL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// DEVCFG INT_STS.PCFG_DONE was set.
    pub pl_configured: bool,
    /// SLCR LVL_SHFTR_EN had every PS-PL level shifter on.
    pub level_shifters_on: bool,
    /// The NTT core.
    pub ntt: CoreStatus,
    /// The Keccak/sponge engine.
    pub keccak: CoreStatus,
}

impl Probe {
    /// Whether both accelerator cores answered correctly.
    pub fn accelerator_found(&self) -> bool {
        matches!(self.ntt, CoreStatus::Present { .. })
            && matches!(self.keccak, CoreStatus::Present { .. })
    }
}

/// Reads one control block's ID, VERSION and CONFIG registers.
pub fn probe_core(ctrl_regs: &mut impl RegisterBus, expected_id: u32) -> CoreStatus {
    let id = ctrl_regs.read32(ctrl::ID);
    if id != expected_id {
        return CoreStatus::Absent { id };
    }
    let version = ctrl_regs.read32(ctrl::VERSION);
    if version >> 16 != ctrl::VERSION_VALUE >> 16 {
        return CoreStatus::WrongVersion { version };
    }
    CoreStatus::Present {
        config: ctrl_regs.read32(ctrl::CONFIG),
    }
}

/// Probes the PL: DEVCFG and the SLCR level shifters first, then the NTT
/// and Keccak control blocks ([`ps_pl_contract::regmap::NTT_BASE`],
/// [`ps_pl_contract::regmap::KECCAK_BASE`]).
pub fn probe(
    devcfg: &mut impl RegisterBus,
    slcr: &mut impl RegisterBus,
    ntt_ctrl: &mut impl RegisterBus,
    keccak_ctrl: &mut impl RegisterBus,
) -> Probe {
    let pl_configured = devcfg.read32(DEVCFG_INT_STS) & PCFG_DONE != 0;
    let level_shifters_on = slcr.read32(SLCR_LVL_SHFTR_EN) & LEVEL_SHIFTERS_ON == LEVEL_SHIFTERS_ON;
    if !(pl_configured && level_shifters_on) {
        return Probe {
            pl_configured,
            level_shifters_on,
            ntt: CoreStatus::NotProbed,
            keccak: CoreStatus::NotProbed,
        };
    }
    Probe {
        pl_configured,
        level_shifters_on,
        ntt: probe_core(ntt_ctrl, ntt::ID),
        keccak: probe_core(keccak_ctrl, keccak::ID),
    }
}

impl fmt::Display for CoreStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreStatus::Present { config } => write!(f, "present (config {config:#010x})"),
            CoreStatus::Absent { id } => write!(f, "absent (ID reads {id:#010x})"),
            CoreStatus::WrongVersion { version } => {
                write!(f, "register interface version {version:#010x} unsupported")
            }
            CoreStatus::NotProbed => f.write_str("not probed"),
        }
    }
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PL configured: {}; level shifters: {}; NTT core: {}; Keccak core: {}",
            if self.pl_configured { "yes" } else { "no" },
            if self.level_shifters_on { "on" } else { "off" },
            self.ntt,
            self.keccak
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A register file: offsets 0x00..0x24 (plus LVL_SHFTR_EN), counting reads.
    struct Regs([u32; 10], u32);

    impl RegisterBus for Regs {
        fn read32(&mut self, offset: usize) -> u32 {
            self.1 += 1;
            if offset == SLCR_LVL_SHFTR_EN {
                return self.0[9];
            }
            self.0[offset / 4]
        }
        fn write32(&mut self, _: usize, _: u32) {
            panic!("the probe must not write");
        }
    }

    fn block(id: u32, version: u32, config: u32) -> Regs {
        let mut r = [0; 10];
        r[ctrl::ID / 4] = id;
        r[ctrl::VERSION / 4] = version;
        r[ctrl::CONFIG / 4] = config;
        Regs(r, 0)
    }

    fn devcfg(done: bool) -> Regs {
        let mut r = [0; 10];
        r[DEVCFG_INT_STS / 4] = if done { PCFG_DONE } else { 0 };
        Regs(r, 0)
    }

    fn slcr(shifters: u32) -> Regs {
        let mut r = [0; 10];
        r[9] = shifters;
        Regs(r, 0)
    }

    #[test]
    fn unconfigured_pl_is_never_read() {
        let (mut n, mut k) = (block(ntt::ID, 1 << 16, 0), block(keccak::ID, 1 << 16, 0));
        let p = probe(&mut devcfg(false), &mut slcr(0xF), &mut n, &mut k);
        assert!(!p.accelerator_found());
        assert_eq!(p.ntt, CoreStatus::NotProbed);
        assert_eq!((n.1, k.1), (0, 0));
    }

    #[test]
    fn a_configured_pl_behind_disabled_level_shifters_is_never_read() {
        let (mut n, mut k) = (block(ntt::ID, 1 << 16, 0), block(keccak::ID, 1 << 16, 0));
        for shifters in [0x0, 0x3, 0xE] {
            let p = probe(&mut devcfg(true), &mut slcr(shifters), &mut n, &mut k);
            assert!(p.pl_configured && !p.level_shifters_on);
            assert_eq!(p.keccak, CoreStatus::NotProbed);
        }
        assert_eq!((n.1, k.1), (0, 0));
    }

    #[test]
    fn both_cores_with_the_right_ids_are_found() {
        let mut n = block(ntt::ID, ctrl::VERSION_VALUE | 3, 0x11);
        let mut k = block(keccak::ID, ctrl::VERSION_VALUE, 0x22);
        let p = probe(&mut devcfg(true), &mut slcr(0xF), &mut n, &mut k);
        assert!(p.accelerator_found());
        assert_eq!(p.ntt, CoreStatus::Present { config: 0x11 });
        assert_eq!(p.keccak, CoreStatus::Present { config: 0x22 });
    }

    #[test]
    fn an_empty_window_or_wrong_id_or_version_is_not_an_accelerator() {
        let mut empty = block(0, 0, 0);
        let mut k = block(keccak::ID, ctrl::VERSION_VALUE, 0);
        let p = probe(&mut devcfg(true), &mut slcr(0xF), &mut empty, &mut k);
        assert_eq!(p.ntt, CoreStatus::Absent { id: 0 });
        assert!(!p.accelerator_found());
        // Swapped IDs: each block must carry its own.
        let mut n = block(keccak::ID, ctrl::VERSION_VALUE, 0);
        assert!(matches!(
            probe_core(&mut n, ntt::ID),
            CoreStatus::Absent { .. }
        ));
        let mut old = block(ntt::ID, 2 << 16, 0);
        assert_eq!(
            probe_core(&mut old, ntt::ID),
            CoreStatus::WrongVersion { version: 2 << 16 }
        );
    }
}
