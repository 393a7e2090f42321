//! The PL probe: is a bitstream loaded, and which accelerator cores answer
//! on M_AXI_GP0 with the identification words of [`ps_pl_contract::regmap`]?
//!
//! The NTT core and the Keccak engine (the primitive offload), the ML-DSA
//! engine and the SLH-DSA engine (whole operations) are reported
//! separately: firmware can use any of them without the others.
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
use ps_pl_contract::regmap::{ctrl, keccak, mldsa, ntt, slhdsa};

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
    /// The ML-DSA engine ([`ps_pl_contract::regmap::MLDSA_BASE`]).
    pub mldsa: CoreStatus,
    /// The SLH-DSA engine ([`ps_pl_contract::regmap::SLHDSA_BASE`]).
    pub slhdsa: CoreStatus,
}

impl Probe {
    /// Whether both primitive cores (NTT and Keccak) answered correctly:
    /// what the primitive offload needs. Says nothing of the engines.
    pub fn accelerator_found(&self) -> bool {
        matches!(self.ntt, CoreStatus::Present { .. })
            && matches!(self.keccak, CoreStatus::Present { .. })
    }

    /// Whether the ML-DSA engine answered with its ID and a supported
    /// register-interface version.
    pub fn mldsa_engine_found(&self) -> bool {
        matches!(self.mldsa, CoreStatus::Present { .. })
    }

    /// Whether the SLH-DSA engine answered with its ID and a supported
    /// register-interface version.
    pub fn slhdsa_engine_found(&self) -> bool {
        matches!(self.slhdsa, CoreStatus::Present { .. })
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

/// Probes the PL: DEVCFG and the SLCR level shifters first, then the NTT,
/// Keccak, ML-DSA and SLH-DSA control blocks
/// ([`ps_pl_contract::regmap::NTT_BASE`],
/// [`ps_pl_contract::regmap::KECCAK_BASE`],
/// [`ps_pl_contract::regmap::MLDSA_BASE`],
/// [`ps_pl_contract::regmap::SLHDSA_BASE`]).
pub fn probe(
    devcfg: &mut impl RegisterBus,
    slcr: &mut impl RegisterBus,
    ntt_ctrl: &mut impl RegisterBus,
    keccak_ctrl: &mut impl RegisterBus,
    mldsa_ctrl: &mut impl RegisterBus,
    slhdsa_ctrl: &mut impl RegisterBus,
) -> Probe {
    let pl_configured = devcfg.read32(DEVCFG_INT_STS) & PCFG_DONE != 0;
    let level_shifters_on = slcr.read32(SLCR_LVL_SHFTR_EN) & LEVEL_SHIFTERS_ON == LEVEL_SHIFTERS_ON;
    if !(pl_configured && level_shifters_on) {
        return Probe {
            pl_configured,
            level_shifters_on,
            ntt: CoreStatus::NotProbed,
            keccak: CoreStatus::NotProbed,
            mldsa: CoreStatus::NotProbed,
            slhdsa: CoreStatus::NotProbed,
        };
    }
    Probe {
        pl_configured,
        level_shifters_on,
        ntt: probe_core(ntt_ctrl, ntt::ID),
        keccak: probe_core(keccak_ctrl, keccak::ID),
        mldsa: probe_core(mldsa_ctrl, mldsa::ID),
        slhdsa: probe_core(slhdsa_ctrl, slhdsa::ID),
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
            "PL configured: {}; level shifters: {}; NTT core: {}; Keccak core: {}; ML-DSA engine: {}; SLH-DSA engine: {}",
            if self.pl_configured { "yes" } else { "no" },
            if self.level_shifters_on { "on" } else { "off" },
            self.ntt,
            self.keccak,
            self.mldsa,
            self.slhdsa
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

    /// The four control blocks, each with its own ID and the given
    /// versions and CONFIG words.
    fn blocks(version: u32) -> [Regs; 4] {
        [
            block(ntt::ID, version, 0x11),
            block(keccak::ID, version, 0x22),
            block(mldsa::ID, version, mldsa::CONFIG_KEYGEN),
            block(slhdsa::ID, version, 0x7),
        ]
    }

    fn probe_blocks(devcfg: &mut Regs, slcr: &mut Regs, [n, k, m, s]: &mut [Regs; 4]) -> Probe {
        probe(devcfg, slcr, n, k, m, s)
    }

    /// Probes the four blocks of a configured PL behind enabled shifters.
    fn probe_configured(b: &mut [Regs; 4]) -> Probe {
        probe_blocks(&mut devcfg(true), &mut slcr(0xF), b)
    }

    /// Indices into [`blocks`].
    const NTT: usize = 0;
    const KECCAK: usize = 1;
    const MLDSA: usize = 2;
    const SLHDSA: usize = 3;

    #[test]
    fn unconfigured_pl_is_never_read() {
        let mut b = blocks(ctrl::VERSION_VALUE);
        let p = probe_blocks(&mut devcfg(false), &mut slcr(0xF), &mut b);
        assert!(!p.accelerator_found());
        assert!(!p.mldsa_engine_found());
        assert!(!p.slhdsa_engine_found());
        assert_eq!(p.ntt, CoreStatus::NotProbed);
        assert_eq!(p.mldsa, CoreStatus::NotProbed);
        assert_eq!(p.slhdsa, CoreStatus::NotProbed);
        assert_eq!(b.map(|r| r.1), [0, 0, 0, 0]);
    }

    #[test]
    fn a_configured_pl_behind_disabled_level_shifters_is_never_read() {
        let mut b = blocks(ctrl::VERSION_VALUE);
        for shifters in [0x0, 0x3, 0xE] {
            let p = probe_blocks(&mut devcfg(true), &mut slcr(shifters), &mut b);
            assert!(p.pl_configured && !p.level_shifters_on);
            assert_eq!(p.keccak, CoreStatus::NotProbed);
            assert_eq!(p.mldsa, CoreStatus::NotProbed);
            assert_eq!(p.slhdsa, CoreStatus::NotProbed);
        }
        assert_eq!(b.map(|r| r.1), [0, 0, 0, 0]);
    }

    #[test]
    fn every_core_with_the_right_id_is_found() {
        let mut b = blocks(ctrl::VERSION_VALUE);
        b[NTT].0[ctrl::VERSION / 4] |= 3; // a newer minor version is compatible
        let p = probe_configured(&mut b);
        assert!(p.accelerator_found());
        assert!(p.mldsa_engine_found());
        assert!(p.slhdsa_engine_found());
        assert_eq!(p.ntt, CoreStatus::Present { config: 0x11 });
        assert_eq!(p.keccak, CoreStatus::Present { config: 0x22 });
        assert_eq!(
            p.mldsa,
            CoreStatus::Present {
                config: mldsa::CONFIG_KEYGEN
            }
        );
        assert_eq!(p.slhdsa, CoreStatus::Present { config: 0x7 });
        assert_eq!(
            p.to_string(),
            "PL configured: yes; level shifters: on; NTT core: present (config 0x00000011); \
             Keccak core: present (config 0x00000022); ML-DSA engine: present (config 0x00000001); \
             SLH-DSA engine: present (config 0x00000007)"
        );
    }

    #[test]
    fn an_empty_window_or_wrong_id_or_version_is_not_an_accelerator() {
        let mut b = blocks(ctrl::VERSION_VALUE);
        b[NTT] = block(0, 0, 0);
        let p = probe_configured(&mut b);
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

    #[test]
    fn the_mldsa_engine_alone_is_found_without_the_primitive_cores() {
        let mut b = blocks(ctrl::VERSION_VALUE);
        for i in [NTT, KECCAK, SLHDSA] {
            b[i] = block(0, 0, 0);
        }
        let p = probe_configured(&mut b);
        assert!(p.mldsa_engine_found());
        assert!(!p.slhdsa_engine_found());
        assert!(!p.accelerator_found());
        // ID, VERSION, CONFIG: nothing else, and no write (Regs panics).
        assert_eq!(b[MLDSA].1, 3);
    }

    #[test]
    fn an_empty_mldsa_window_is_no_engine_and_leaves_the_primitive_cores_alone() {
        // What an empty GP0 window reads: 0.
        let mut b = blocks(ctrl::VERSION_VALUE);
        b[MLDSA] = block(0, 0, 0);
        let p = probe_configured(&mut b);
        assert_eq!(p.mldsa, CoreStatus::Absent { id: 0 });
        assert!(!p.mldsa_engine_found());
        assert!(p.slhdsa_engine_found());
        assert!(p.accelerator_found());
        assert!(p
            .to_string()
            .contains("; ML-DSA engine: absent (ID reads 0x00000000); SLH-DSA engine: present"));
        // Another core's ID in the engine's window is not the engine.
        let mut keccak_there = block(keccak::ID, ctrl::VERSION_VALUE, 0);
        assert_eq!(
            probe_core(&mut keccak_there, mldsa::ID),
            CoreStatus::Absent { id: keccak::ID }
        );
    }

    #[test]
    fn an_mldsa_engine_of_another_interface_version_is_not_used() {
        let mut b = blocks(ctrl::VERSION_VALUE);
        b[MLDSA] = block(mldsa::ID, 2 << 16, mldsa::CONFIG_KEYGEN);
        let p = probe_configured(&mut b);
        assert_eq!(p.mldsa, CoreStatus::WrongVersion { version: 2 << 16 });
        assert!(!p.mldsa_engine_found());
        assert!(p.accelerator_found());
        // CONFIG is not read from an engine of unknown layout.
        assert_eq!(b[MLDSA].1, 2);
        assert!(p
            .to_string()
            .contains("; ML-DSA engine: register interface version 0x00020000 unsupported;"));
    }

    #[test]
    fn the_slhdsa_engine_is_found_in_its_own_window_only() {
        let mut b = blocks(ctrl::VERSION_VALUE);
        let p = probe_configured(&mut b);
        assert!(p.slhdsa_engine_found());
        // ID, VERSION, CONFIG: nothing else, and no write (Regs panics).
        assert_eq!(b[SLHDSA].1, 3);
        // The ML-DSA engine's ID in the SLH-DSA window is not the engine,
        // nor is an engine of another interface version.
        let mut mldsa_there = block(mldsa::ID, ctrl::VERSION_VALUE, 0x7);
        assert_eq!(
            probe_core(&mut mldsa_there, slhdsa::ID),
            CoreStatus::Absent { id: mldsa::ID }
        );
        b[SLHDSA] = block(slhdsa::ID, 2 << 16, 0x7);
        let p = probe_configured(&mut b);
        assert!(!p.slhdsa_engine_found());
        assert!(p
            .to_string()
            .ends_with("; SLH-DSA engine: register interface version 0x00020000 unsupported"));
    }
}
