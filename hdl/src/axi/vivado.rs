//! The Vivado build scripts of the ZedBoard designs, generated from
//! `ps_pl_contract::regmap` so the addresses the firmware uses and the addresses
//! the block design assigns have one source.
//!
//! The PL has two configurations ([`CONFIGURATIONS`]), each a bitstream of
//! its own, because all the tops together would take more LUTs than the
//! xc7z020 has:
//! - `engines`: the ML-DSA and SLH-DSA engines (whole operations) in one
//!   top, `engines_accel`, on one shared sponge, with one DMA;
//! - `primitives`: the NTT core and the Keccak engine (the primitive
//!   offload, the comparison tier).
//!
//! Every top keeps its own address in both, and the firmware probes each
//! window, so one ps-app runs with either bitstream loaded: the rows of
//! the cores it finds.
//!
//! `cargo run -p hdl --release -- vivado --out bitstream/vivado` writes
//! `build_<configuration>.tcl`; a test checks that the committed files are
//! what this module generates, and another runs them under `tclsh` with
//! stand-ins for the Vivado commands (Tcl syntax, control flow, the address
//! check, the product copies). Vivado is not installed where this
//! repository is developed and tested: the scripts have not been run by
//! Vivado.

use super::{ENGINES_ACCEL, FCLK0_HZ, KECCAK_ACCEL, NTT_ACCEL};
use ps_pl_contract::regmap::{self, CTRL_WINDOW_BYTES};
use std::fmt::Write as _;

/// The ZedBoard's device.
pub const PART: &str = "xc7z020clg484-1";
/// Fabric clock FCLK_CLK0 (the accelerators, DMAs and interconnects), from
/// the contract, in MHz with six decimals as the PS7's
/// PCW_FPGA0_PERIPHERAL_FREQMHZ takes it ("125.000000").
pub fn fclk0_mhz_setting() -> String {
    let hz = FCLK0_HZ;
    format!("{}.{:06}", hz / 1_000_000, hz % 1_000_000)
}
/// Base name of the products copied into `bitstream/`:
/// `<PRODUCT>_<configuration>.bit` and `.xsa`; `ps7_init.tcl` keeps its
/// name (`scripts/zedboard_jtag.tcl`; the PS settings are the same in
/// every configuration).
pub const PRODUCT: &str = "pqc_zynq";
/// Width of the AXI DMA buffer length registers (bits), from the contract.
pub const DMA_LENGTH_BITS: u32 = ps_pl_contract::dma::LENGTH_WIDTH_BITS;
/// Stream and memory data widths of the AXI DMAs, from the contract.
const STREAM_BITS: u32 = ps_pl_contract::dma::STREAM_DATA_BITS;
const MEMORY_BITS: u32 = ps_pl_contract::dma::MEMORY_DATA_BITS;
/// Environment variable that lets the script run without the ZedBoard
/// board files (`PQC_NO_BOARD_FILES=1`); the PS7 then gets the explicit
/// DDR3 settings of [`DDR_SETTINGS`] instead of the board preset.
pub const NO_BOARD_ENV: &str = "PQC_NO_BOARD_FILES";
/// The ZedBoard DDR3 (two MT41K128M16 JT-125, 32-bit bus, 533 MHz) as PS7
/// `CONFIG.PCW_UIPARAM_DDR_*` settings: the values of the ZedBoard board
/// preset (timings from the Micron speed grade; board delays and DQS-to-CLK
/// skews of the ZedBoard layout). Used only under [`NO_BOARD_ENV`]; check
/// them against the board files' `preset.xml` before relying on them.
pub const DDR_SETTINGS: [(&str, &str); 30] = [
    ("PCW_UIPARAM_DDR_MEMORY_TYPE", "DDR 3"),
    ("PCW_UIPARAM_DDR_PARTNO", "MT41K128M16 JT-125"),
    ("PCW_UIPARAM_DDR_BUS_WIDTH", "32 Bit"),
    ("PCW_UIPARAM_DDR_ECC", "Disabled"),
    ("PCW_UIPARAM_DDR_FREQ_MHZ", "533.333333"),
    ("PCW_UIPARAM_DDR_DRAM_WIDTH", "16 Bits"),
    ("PCW_UIPARAM_DDR_DEVICE_CAPACITY", "2048 MBits"),
    ("PCW_UIPARAM_DDR_SPEED_BIN", "DDR3_1066F"),
    ("PCW_UIPARAM_DDR_BANK_ADDR_COUNT", "3"),
    ("PCW_UIPARAM_DDR_ROW_ADDR_COUNT", "14"),
    ("PCW_UIPARAM_DDR_COL_ADDR_COUNT", "10"),
    ("PCW_UIPARAM_DDR_CL", "7"),
    ("PCW_UIPARAM_DDR_CWL", "6"),
    ("PCW_UIPARAM_DDR_T_RCD", "7"),
    ("PCW_UIPARAM_DDR_T_RP", "7"),
    ("PCW_UIPARAM_DDR_T_RC", "48.75"),
    ("PCW_UIPARAM_DDR_T_RAS_MIN", "35.0"),
    ("PCW_UIPARAM_DDR_T_FAW", "40.0"),
    ("PCW_UIPARAM_DDR_TRAIN_WRITE_LEVEL", "1"),
    ("PCW_UIPARAM_DDR_TRAIN_READ_GATE", "1"),
    ("PCW_UIPARAM_DDR_TRAIN_DATA_EYE", "1"),
    ("PCW_UIPARAM_DDR_USE_INTERNAL_VREF", "0"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY0", "0.41"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY1", "0.411"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY2", "0.341"),
    ("PCW_UIPARAM_DDR_BOARD_DELAY3", "0.358"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_0", "0.025"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_1", "0.028"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_2", "-0.009"),
    ("PCW_UIPARAM_DDR_DQS_TO_CLK_DELAY_3", "-0.061"),
];

/// One accelerator of the block design: its top (a module reference, cell
/// `<top>_0`), its own AXI DMA and the LED that shows its `busy`.
#[derive(Clone, Copy, Debug)]
pub struct Accel {
    /// Module name of the top (`bitstream/rtl/<top>.v`).
    pub top: &'static str,
    /// Base of its AXI4-Lite control block.
    pub base: usize,
    /// Cell name of its AXI DMA.
    pub dma: &'static str,
    /// Base of the DMA's register block.
    pub dma_base: usize,
    /// Block-design port driven by the top's `busy` (pinned in
    /// `constraints/zedboard.xdc`).
    pub led: &'static str,
}

/// The accelerators, in the order of their interconnect ports; every
/// per-accelerator line of the script comes from this list.
pub const ACCELS: [Accel; 3] = [
    Accel {
        top: NTT_ACCEL,
        base: regmap::NTT_BASE,
        dma: "ntt_dma",
        dma_base: regmap::NTT_DMA_BASE,
        led: "ntt_busy_led",
    },
    Accel {
        top: KECCAK_ACCEL,
        base: regmap::KECCAK_BASE,
        dma: "keccak_dma",
        dma_base: regmap::KECCAK_DMA_BASE,
        led: "keccak_busy_led",
    },
    Accel {
        top: ENGINES_ACCEL,
        base: regmap::ENGINES_BASE,
        dma: "engines_dma",
        dma_base: regmap::ENGINES_DMA_BASE,
        led: "engines_busy_led",
    },
];

/// One PL configuration: a block design and bitstream of its own, with a
/// subset of [`ACCELS`].
#[derive(Clone, Copy, Debug)]
pub struct PlConfiguration {
    /// Name (`build_<name>.tcl`, `<PRODUCT>_<name>.bit`).
    pub name: &'static str,
    /// Its accelerators, in the order of their interconnect ports.
    pub accels: &'static [Accel],
    /// What it is for, in the script's header.
    pub purpose: &'static str,
}

impl PlConfiguration {
    /// Base name of its products (`.bit`, `.xsa`).
    pub fn product(&self) -> String {
        format!("{PRODUCT}_{}", self.name)
    }

    /// File name of its build script.
    pub fn script(&self) -> String {
        format!("build_{}.tcl", self.name)
    }
}

const ENGINE_ACCELS: [Accel; 1] = [ACCELS[2]];
const PRIMITIVE_ACCELS: [Accel; 2] = [ACCELS[0], ACCELS[1]];

/// The two configurations; every accelerator is in exactly one.
pub const CONFIGURATIONS: [PlConfiguration; 2] = [
    PlConfiguration {
        name: "engines",
        accels: &ENGINE_ACCELS,
        purpose: "the ML-DSA and SLH-DSA engines (whole operations) on one shared sponge",
    },
    PlConfiguration {
        name: "primitives",
        accels: &PRIMITIVE_ACCELS,
        purpose: "the NTT core and the Keccak engine (the primitive offload, the comparison tier)",
    },
];

/// The xc7z020's LUTs.
pub const DEVICE_LUTS: u32 = 53_200;
/// The share of [`DEVICE_LUTS`] a configuration may use, in per cent.
pub const LUT_BUDGET_PERCENT: u32 = 80;
/// LUTs set aside per accelerator for its AXI DMA (simple mode, no data
/// realignment) and its ports on the two AXI interconnects. An estimate,
/// not a measurement: they are Xilinx IP, which yosys cannot synthesise,
/// and Vivado is not installed here.
pub const DMA_LUT_ALLOWANCE: u32 = 2_000;

/// The most LUTs `config`'s tops may take together (yosys counts): the
/// budget less the DMA allowance of each accelerator.
pub fn top_lut_budget(config: &PlConfiguration) -> u32 {
    DEVICE_LUTS * LUT_BUDGET_PERCENT / 100 - DMA_LUT_ALLOWANCE * config.accels.len() as u32
}

/// RAMB18 sites of the xc7z020 (140 RAMB36).
pub const DEVICE_BRAM18: u32 = 280;
/// The share of [`DEVICE_BRAM18`] a configuration may use, in per cent.
pub const BRAM_BUDGET_PERCENT: u32 = 80;
/// RAMB18 set aside per accelerator for its AXI DMA's data FIFOs. An
/// estimate, not a measurement, as [`DMA_LUT_ALLOWANCE`].
pub const DMA_BRAM18_ALLOWANCE: u32 = 4;

/// The most RAMB18 `config`'s tops may take together (yosys counts): the
/// budget less the DMA allowance of each accelerator.
pub fn top_bram18_budget(config: &PlConfiguration) -> u32 {
    DEVICE_BRAM18 * BRAM_BUDGET_PERCENT / 100 - DMA_BRAM18_ALLOWANCE * config.accels.len() as u32
}

/// LED ports of the block design: (port, top module whose `busy` drives it).
pub const LEDS: [(&str, &str); ACCELS.len()] = {
    let mut leds = [("", ""); ACCELS.len()];
    let mut i = 0;
    while i < ACCELS.len() {
        leds[i] = (ACCELS[i].led, ACCELS[i].top);
        i += 1;
    }
    leds
};

/// One AXI4-Lite slave on M_AXI_GP0: instance, interface, base address.
struct Slave {
    cell: String,
    intf: &'static str,
    base: usize,
}

/// The GP0 slaves of `config`: every top's control block, then every DMA's
/// registers.
fn slaves(config: &PlConfiguration) -> Vec<Slave> {
    let tops = config.accels.iter().map(|a| Slave {
        cell: format!("{}_0", a.top),
        intf: "s_axi",
        base: a.base,
    });
    let dmas = config.accels.iter().map(|a| Slave {
        cell: a.dma.into(),
        intf: "S_AXI_LITE",
        base: a.dma_base,
    });
    tops.chain(dmas).collect()
}

/// `words` joined by spaces, for Tcl lists.
fn tcl_list(words: impl IntoIterator<Item = String>) -> String {
    words.into_iter().collect::<Vec<_>>().join(" ")
}

/// The whole build script of `config`.
pub fn build_tcl(config: &PlConfiguration) -> String {
    let mut t = String::new();
    let accels = config.accels;
    let (name, purpose, product) = (config.name, config.purpose, config.product());
    let ddr: String = DDR_SETTINGS
        .iter()
        .map(|(k, v)| format!("        CONFIG.{k} {{{v}}} \\\n"))
        .collect();
    let window_k = CTRL_WINDOW_BYTES / 1024;
    let fclk0_mhz = fclk0_mhz_setting();
    let fclk0_tolerance_hz = FCLK0_HZ / 10_000;
    let tops = tcl_list(accels.iter().map(|a| a.top.to_string()));
    let tops_text = accels.iter().map(|a| a.top).collect::<Vec<_>>().join(", ");
    let cells = tcl_list(accels.iter().map(|a| format!("{}_0", a.top)));
    let dmas = tcl_list(accels.iter().map(|a| a.dma.to_string()));
    let others = CONFIGURATIONS
        .iter()
        .filter(|c| c.name != name)
        .map(|c| c.script())
        .collect::<Vec<_>>()
        .join(", ");
    let rtl: String = accels
        .iter()
        .map(|a| format!(" \\\n    [file join $repo bitstream rtl {}.v]", a.top))
        .collect();
    let _ = write!(
        t,
        r#"# ZedBoard (xc7z020) PL design, configuration "{name}": {purpose}.
# PS7 + the accelerator tops {tops_text}, each with its own AXI DMA
# (PG021, simple mode). The other configurations ({others}) hold the other
# tops; every top keeps its address, and the firmware uses what it finds.
#
# Generated by `cargo run -p hdl --release -- vivado --out bitstream/vivado`
# from ps_pl_contract::regmap (addresses) and hdl::axi (tops); do not edit. A test
# (hdl: committed_vivado_scripts_match_generated) keeps it in step.
#
# Run from anywhere (paths are relative to this file):
#   vivado -mode batch -source bitstream/vivado/build_{name}.tcl
# Products, in bitstream/:
#   {product}.bit      the bitstream (scripts/zedboard_jtag.sh takes it)
#   {product}.xsa      hardware handoff (write_hw_platform -fixed -include_bit)
#   ps7_init.tcl       PS7 initialisation for xsct (scripts/zedboard_jtag.tcl)
#   vivado/{name}_utilization.txt, vivado/{name}_timing.txt   reports of the routed design
# The project itself goes to target/vivado/{name} (not committed).
#
# NOT RUN in this repository (no Vivado here): written against the
# Vivado 2019.2+ Tcl API (write_hw_platform), checked only by review.
#
# Exits non-zero (no products copied) if the ZedBoard board files are
# missing (unless {NO_BOARD_ENV}=1: explicit DDR3 settings instead), if
# validate_bd_design fails, if a run fails, or if the routed design has
# negative setup or hold slack (WNS/WHS < 0) at {fclk0_mhz} MHz.

proc fail {{msg}} {{
    puts stderr "build.tcl: ERROR: $msg"
    exit 1
}}

set script_dir [file dirname [file normalize [info script]]]
set repo [file normalize [file join $script_dir .. ..]]
set out_dir [file join $repo bitstream]
set proj_dir [file join $repo target vivado {name}]

create_project -force {product} $proj_dir -part {PART}
set_property target_language Verilog [current_project]
# The ZedBoard board files give the PS7 preset (DDR3 timing and training,
# MIO, clocks). They are required; {NO_BOARD_ENV}=1 is the documented
# override, which sets the DDR3 explicitly (hdl::axi::vivado::DDR_SETTINGS).
set board [lindex [lsort [concat \
    [get_board_parts -quiet -latest_file_version *:zedboard:*] \
    [get_board_parts -quiet -latest_file_version em.avnet.com:zed:*]]] end]
set no_board [expr {{[info exists ::env({NO_BOARD_ENV})] && $::env({NO_BOARD_ENV}) eq "1"}}]
if {{$board ne ""}} {{
    puts "build.tcl: board part $board"
    set_property board_part $board [current_project]
}} elseif {{$no_board}} {{
    puts "build.tcl: no ZedBoard board files; {NO_BOARD_ENV}=1, explicit DDR3 settings"
}} else {{
    fail "no ZedBoard board files (install them, or set {NO_BOARD_ENV}=1 for the explicit DDR3 settings)"
}}

# The accelerator tops (exported by `hdl export`) and the LED pins.
add_files -norecurse [list{rtl}]
add_files -fileset constrs_1 -norecurse [file join $repo constraints zedboard.xdc]
update_compile_order -fileset sources_1

create_bd_design system

# Processing system: DDR and fixed IO external, board preset when available.
set ps [create_bd_cell -type ip -vlnv xilinx.com:ip:processing_system7 ps7]
apply_bd_automation -rule xilinx.com:bd_rule:processing_system7 \
    -config [list make_external "FIXED_IO, DDR" apply_board_preset [expr {{$board ne "" ? 1 : 0}}] \
             Master Disable Slave Disable] $ps
# ZedBoard DDR3 and the console of ps-app (UART1 on MIO 48/49, 100 MHz
# reference clock), the fabric clock, GP0 master and HP0 slave ports.
set_property -dict [list \
    CONFIG.PCW_PRESET_BANK0_VOLTAGE {{LVCMOS 3.3V}} \
    CONFIG.PCW_PRESET_BANK1_VOLTAGE {{LVCMOS 1.8V}} \
    CONFIG.PCW_CRYSTAL_PERIPHERAL_FREQMHZ {{33.333333}} \
    CONFIG.PCW_APU_PERIPHERAL_FREQMHZ {{666.666667}} \
    CONFIG.PCW_UIPARAM_DDR_PARTNO {{MT41K128M16 JT-125}} \
    CONFIG.PCW_UIPARAM_DDR_BUS_WIDTH {{32 Bit}} \
    CONFIG.PCW_UART1_PERIPHERAL_ENABLE {{1}} \
    CONFIG.PCW_UART1_UART1_IO {{MIO 48 .. 49}} \
    CONFIG.PCW_UART_PERIPHERAL_FREQMHZ {{100}} \
    CONFIG.PCW_FCLK0_PERIPHERAL_CLKSRC {{IO PLL}} \
    CONFIG.PCW_FPGA0_PERIPHERAL_FREQMHZ {{{fclk0_mhz}}} \
    CONFIG.PCW_EN_CLK0_PORT {{1}} \
    CONFIG.PCW_EN_RST0_PORT {{1}} \
    CONFIG.PCW_USE_M_AXI_GP0 {{1}} \
    CONFIG.PCW_USE_S_AXI_HP0 {{1}} \
    CONFIG.PCW_S_AXI_HP0_DATA_WIDTH {{64}} \
    CONFIG.PCW_USE_FABRIC_INTERRUPT {{0}} \
] $ps
if {{$board eq ""}} {{
    # {NO_BOARD_ENV}=1: the ZedBoard DDR3 settings of its board preset.
    set_property -dict [list \
{ddr}    ] $ps
}}

set clk [get_bd_pins ps7/FCLK_CLK0]
# The fabric clock Vivado made from the IO PLL (its FREQ_HZ is the divided
# PLL as Vivado rounds it): within 0.01 % of the contract's, or the PS's
# PLL is not the one the PL was timed for.
set fclk0_hz [get_property CONFIG.FREQ_HZ $clk]
if {{abs($fclk0_hz - {FCLK0_HZ}) > {fclk0_tolerance_hz}}} {{
    fail "FCLK_CLK0 is $fclk0_hz Hz, not {FCLK0_HZ} Hz (ps_pl_contract::clock)"
}}
set rst [create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset rst_fclk0]
connect_bd_net $clk [get_bd_pins rst_fclk0/slowest_sync_clk]
connect_bd_net [get_bd_pins ps7/FCLK_RESET0_N] [get_bd_pins rst_fclk0/ext_reset_in]
set periph_rstn [get_bd_pins rst_fclk0/peripheral_aresetn]
set ic_rstn [get_bd_pins rst_fclk0/interconnect_aresetn]

# Accelerators (module references: Vivado infers s_axi, s_axis, m_axis,
# the aclk clock and the aresetn reset from the port names).
foreach top {{{tops}}} {{
    create_bd_cell -type module -reference $top ${{top}}_0
    # The HDL declares the contract's FCLK0; the clock net carries Vivado's
    # rounding of it.
    set_property CONFIG.FREQ_HZ $fclk0_hz [get_bd_pins ${{top}}_0/aclk]
}}

# One AXI DMA per accelerator: simple mode, 32-bit streams and memory
# ports, no data realignment (the driver's buffers are word-aligned).
foreach dma {{{dmas}}} {{
    create_bd_cell -type ip -vlnv xilinx.com:ip:axi_dma $dma
    set_property -dict [list \
        CONFIG.c_include_sg {{0}} \
        CONFIG.c_sg_length_width {{{DMA_LENGTH_BITS}}} \
        CONFIG.c_include_mm2s {{1}} \
        CONFIG.c_include_s2mm {{1}} \
        CONFIG.c_m_axi_mm2s_data_width {{{MEMORY_BITS}}} \
        CONFIG.c_m_axis_mm2s_tdata_width {{{STREAM_BITS}}} \
        CONFIG.c_m_axi_s2mm_data_width {{{MEMORY_BITS}}} \
        CONFIG.c_s_axis_s2mm_tdata_width {{{STREAM_BITS}}} \
        CONFIG.c_include_mm2s_dre {{0}} \
        CONFIG.c_include_s2mm_dre {{0}} \
        CONFIG.c_mm2s_burst_size {{16}} \
        CONFIG.c_s2mm_burst_size {{16}} \
    ] [get_bd_cells $dma]
}}
"#
    );
    for a in accels {
        let (top, dma) = (a.top, a.dma);
        let _ = writeln!(
            t,
            "connect_bd_intf_net [get_bd_intf_pins {dma}/M_AXIS_MM2S] [get_bd_intf_pins {top}_0/s_axis]\n\
             connect_bd_intf_net [get_bd_intf_pins {top}_0/m_axis] [get_bd_intf_pins {dma}/S_AXIS_S2MM]"
        );
    }
    let _ = write!(
        t,
        r#"
# Control: GP0 -> the accelerators, then the DMA register blocks.
set ctrl_ic [create_bd_cell -type ip -vlnv xilinx.com:ip:axi_interconnect ctrl_ic]
set_property -dict [list CONFIG.NUM_SI {{1}} CONFIG.NUM_MI {{{n_slaves}}}] $ctrl_ic
connect_bd_intf_net [get_bd_intf_pins ps7/M_AXI_GP0] [get_bd_intf_pins ctrl_ic/S00_AXI]
"#,
        n_slaves = slaves(config).len(),
    );
    for (i, s) in slaves(config).iter().enumerate() {
        let _ = writeln!(
            t,
            "connect_bd_intf_net [get_bd_intf_pins ctrl_ic/M{i:02}_AXI] [get_bd_intf_pins {}/{}]",
            s.cell, s.intf
        );
    }
    // Two memory masters per DMA (MM2S, S2MM), in list order.
    let masters: Vec<String> = accels
        .iter()
        .flat_map(|a| {
            [
                format!("{}/M_AXI_MM2S", a.dma),
                format!("{}/M_AXI_S2MM", a.dma),
            ]
        })
        .collect();
    let _ = write!(
        t,
        r#"
# Data: the DMAs' memory ports -> HP0 -> DDR.
set data_ic [create_bd_cell -type ip -vlnv xilinx.com:ip:axi_interconnect data_ic]
set_property -dict [list CONFIG.NUM_SI {{{n_masters}}} CONFIG.NUM_MI {{1}}] $data_ic
"#,
        n_masters = masters.len(),
    );
    for (i, m) in masters.iter().enumerate() {
        let _ = writeln!(
            t,
            "connect_bd_intf_net [get_bd_intf_pins {m}] [get_bd_intf_pins data_ic/S{i:02}_AXI]"
        );
    }
    let _ = write!(
        t,
        r#"connect_bd_intf_net [get_bd_intf_pins data_ic/M00_AXI] [get_bd_intf_pins ps7/S_AXI_HP0]

# One clock (FCLK_CLK0) and its synchronised resets everywhere.
connect_bd_net $clk [get_bd_pins ps7/M_AXI_GP0_ACLK] [get_bd_pins ps7/S_AXI_HP0_ACLK]
foreach ic {{ctrl_ic data_ic}} {{
    foreach pin [get_bd_pins -of_objects [get_bd_cells $ic] -filter {{TYPE == clk}}] {{
        connect_bd_net $clk $pin
    }}
    connect_bd_net $ic_rstn [get_bd_pins $ic/ARESETN]
    foreach pin [get_bd_pins -of_objects [get_bd_cells $ic] -filter {{TYPE == rst && NAME != "ARESETN"}}] {{
        connect_bd_net $periph_rstn $pin
    }}
}}
foreach dma {{{dmas}}} {{
    connect_bd_net $clk [get_bd_pins $dma/s_axi_lite_aclk] [get_bd_pins $dma/m_axi_mm2s_aclk] \
        [get_bd_pins $dma/m_axi_s2mm_aclk]
    connect_bd_net $periph_rstn [get_bd_pins $dma/axi_resetn]
}}
foreach top {{{cells}}} {{
    connect_bd_net $clk [get_bd_pins $top/aclk]
    connect_bd_net $periph_rstn [get_bd_pins $top/aresetn]
}}

# Status LEDs (constraints/zedboard.xdc pins them all): each top's busy
# output; the LEDs of the cores in another configuration stay off.
"#
    );
    for (port, top) in LEDS {
        if accels.iter().any(|a| a.top == top) {
            let _ = writeln!(
                t,
                "create_bd_port -dir O {port}\nconnect_bd_net [get_bd_pins {top}_0/busy] [get_bd_ports {port}]"
            );
        } else {
            let _ = writeln!(
                t,
                "create_bd_port -dir O {port}\n\
                 create_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant {port}_off\n\
                 set_property -dict [list CONFIG.CONST_WIDTH {{1}} CONFIG.CONST_VAL {{0}}] [get_bd_cells {port}_off]\n\
                 connect_bd_net [get_bd_pins {port}_off/dout] [get_bd_ports {port}]"
            );
        }
    }
    let _ = write!(
        t,
        r#"
# Addresses from ps_pl_contract::regmap, {window_k} KiB each (CTRL_WINDOW_BYTES);
# then the DMA masters get DDR through HP0 by automatic assignment.
proc map_slave {{intf offset range}} {{
    set seg [get_bd_addr_segs -of_objects [get_bd_intf_pins $intf]]
    set space [get_bd_addr_spaces ps7/Data]
    if {{[catch {{assign_bd_address -offset $offset -range $range -target_address_space $space $seg -force}}]}} {{
        # Vivado before 2020.1.
        create_bd_addr_seg -range $range -offset $offset $space $seg SEG_[string map {{/ _}} $intf]
    }}
}}
"#
    );
    for s in slaves(config) {
        let _ = writeln!(
            t,
            "map_slave {}/{} 0x{:08X} 0x{CTRL_WINDOW_BYTES:08X}",
            s.cell, s.intf, s.base
        );
    }
    let _ = write!(
        t,
        r#"assign_bd_address
foreach seg [get_bd_addr_segs -of_objects [get_bd_addr_spaces ps7/Data]] {{
    puts "build.tcl: [get_property NAME $seg] at [get_property OFFSET $seg] range [get_property RANGE $seg]"
}}
"#
    );
    for s in slaves(config) {
        let _ = writeln!(
            t,
            "if {{[get_property OFFSET [get_bd_addr_segs -of_objects [get_bd_addr_spaces ps7/Data] -filter {{NAME =~ \"*{cell}*\"}}]] != 0x{base:08X}}} {{\n    error \"build.tcl: {cell} is not at 0x{base:08X} (ps_pl_contract::regmap)\"\n}}",
            cell = s.cell,
            base = s.base
        );
    }
    let _ = write!(
        t,
        r#"
if {{[catch {{validate_bd_design}} msg]}} {{
    fail "validate_bd_design failed: $msg"
}}
save_bd_design
set wrapper [make_wrapper -files [get_files system.bd] -top]
add_files -norecurse $wrapper
set_property top system_wrapper [current_fileset]
update_compile_order -fileset sources_1
generate_target all [get_files system.bd]

# Synthesis, implementation, bitstream.
launch_runs synth_1 -jobs 4
wait_on_run synth_1
if {{[get_property PROGRESS [get_runs synth_1]] ne "100%"}} {{
    fail "synthesis failed"
}}
launch_runs impl_1 -to_step write_bitstream -jobs 4
wait_on_run impl_1
if {{[get_property PROGRESS [get_runs impl_1]] ne "100%"}} {{
    fail "implementation failed"
}}
open_run impl_1
report_utilization -file [file join $script_dir {name}_utilization.txt]
report_timing_summary -file [file join $script_dir {name}_timing.txt]
# Worst setup and hold slack of the routed design (all clocks).
set wns [get_property SLACK [get_timing_paths -delay_type max -max_paths 1 -nworst 1]]
set whs [get_property SLACK [get_timing_paths -delay_type min -max_paths 1 -nworst 1]]
puts "build.tcl: WNS $wns ns, WHS $whs ns"
if {{$wns eq "" || $whs eq ""}} {{
    fail "no timing paths in the routed design"
}}
if {{$wns < 0 || $whs < 0}} {{
    fail "timing not met at {fclk0_mhz} MHz (WNS $wns ns, WHS $whs ns); see [file join $script_dir {name}_timing.txt]"
}}

# Products.
set bit [lindex [glob -directory [get_property DIRECTORY [get_runs impl_1]] *.bit] 0]
file copy -force $bit [file join $out_dir {product}.bit]
if {{[catch {{write_hw_platform -fixed -include_bit -force -file [file join $out_dir {product}.xsa]}}]}} {{
    # Vivado before 2019.2: the .hdf handoff.
    write_hwdef -force -file [file join $out_dir {product}.hdf]
}}
proc find_file {{dir name}} {{
    foreach f [glob -nocomplain -directory $dir -types f $name] {{ return $f }}
    foreach d [glob -nocomplain -directory $dir -types d *] {{
        set f [find_file $d $name]
        if {{$f ne ""}} {{ return $f }}
    }}
    return ""
}}
set ps7_init [find_file $proj_dir ps7_init.tcl]
if {{$ps7_init eq ""}} {{
    error "build.tcl: no ps7_init.tcl generated under $proj_dir"
}}
file copy -force $ps7_init [file join $out_dir ps7_init.tcl]
puts "build.tcl: wrote $out_dir/{product}.bit, $out_dir/{product}.xsa, $out_dir/ps7_init.tcl"
"#
    );
    t
}

/// Writes `<out>/build_<configuration>.tcl` for every configuration;
/// returns their paths.
pub fn write(out: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(out)?;
    CONFIGURATIONS
        .iter()
        .map(|c| {
            let path = out.join(c.script());
            std::fs::write(&path, build_tcl(c))?;
            Ok(path)
        })
        .collect()
}

/// Every configuration's tops fit its share of the LUT and block-RAM
/// budgets (yosys counts of the `-abc9` netlists, from the timing test's
/// syntheses, as (name, LUT, RAMB18)): see [`top_lut_budget`] and
/// [`top_bram18_budget`].
#[cfg(test)]
pub(crate) fn assert_configurations_fit_the_budget(costs: &[(&str, u32, u32)]) {
    for c in &CONFIGURATIONS {
        let cost = |top: &str| {
            *costs
                .iter()
                .find(|(name, _, _)| *name == top)
                .unwrap_or_else(|| panic!("no resource count of {top}"))
        };
        let used: u32 = c.accels.iter().map(|a| cost(a.top).1).sum();
        let bram: u32 = c.accels.iter().map(|a| cost(a.top).2).sum();
        let (budget, bram_budget) = (top_lut_budget(c), top_bram18_budget(c));
        eprintln!(
            "configuration {}: tops {used} LUT ({:.1} % of the device), budget {budget}; \
             {bram} RAMB18 ({:.1} %), budget {bram_budget}",
            c.name,
            100.0 * f64::from(used) / f64::from(DEVICE_LUTS),
            100.0 * f64::from(bram) / f64::from(DEVICE_BRAM18)
        );
        assert!(
            used <= budget,
            "configuration {}: its tops take {used} LUT, over {budget} ({LUT_BUDGET_PERCENT} % of {DEVICE_LUTS} less {DMA_LUT_ALLOWANCE} per DMA)",
            c.name
        );
        assert!(
            bram <= bram_budget,
            "configuration {}: its tops take {bram} RAMB18, over {bram_budget} ({BRAM_BUDGET_PERCENT} % of {DEVICE_BRAM18} less {DMA_BRAM18_ALLOWANCE} per DMA)",
            c.name
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed scripts must be what the generator writes from the
    /// current regmap: regenerate with `cargo run -p hdl --release --
    /// vivado --out bitstream/vivado`.
    #[test]
    fn committed_vivado_scripts_match_generated() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bitstream/vivado");
        for c in &CONFIGURATIONS {
            let path = dir.join(c.script());
            let committed = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run the vivado command)", path.display()));
            assert!(
                committed == build_tcl(c),
                "{} differs from the generated script; run `cargo run -p hdl --release -- vivado --out bitstream/vivado`",
                path.display()
            );
        }
        // No script of an older layout is left behind.
        let mut scripts: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".tcl"))
            .collect();
        scripts.sort();
        let mut expected: Vec<String> = CONFIGURATIONS.iter().map(|c| c.script()).collect();
        expected.sort();
        assert_eq!(scripts, expected);
    }

    /// Every PL block of `ps_pl_contract::regmap`, listed here by hand so a
    /// block missing from [`ACCELS`] fails the tests.
    const REGMAP_BLOCKS: [usize; 6] = [
        regmap::NTT_BASE,
        regmap::KECCAK_BASE,
        regmap::ENGINES_BASE,
        regmap::NTT_DMA_BASE,
        regmap::KECCAK_DMA_BASE,
        regmap::ENGINES_DMA_BASE,
    ];

    /// Tops in no configuration: the parts of another (`engines_accel`
    /// holds both engines' tops), tested and exported alone, and the
    /// SHA2 sets' SLH-DSA top, which no configuration builds yet.
    const PARTS: [&str; 3] = [
        crate::axi::MLDSA_ACCEL,
        crate::axi::SLHDSA_ACCEL,
        crate::axi::SLHDSA_SHA2_ACCEL,
    ];

    /// Every PL top but the parts of another is in exactly one
    /// configuration, with its own DMA; the
    /// interconnect port counts follow the configuration's list; the
    /// other configurations' tops are not in its script, and their LEDs
    /// are driven off.
    #[test]
    fn every_accelerator_is_in_one_configuration_with_its_own_dma_and_ports() {
        for top in crate::axi::designs().iter().map(|d| d.name) {
            let holders: Vec<&str> = CONFIGURATIONS
                .iter()
                .filter(|c| c.accels.iter().any(|a| a.top == top))
                .map(|c| c.name)
                .collect();
            let want = usize::from(!PARTS.contains(&top));
            assert_eq!(holders.len(), want, "{top} is in {holders:?}");
        }
        assert_eq!(
            CONFIGURATIONS.iter().map(|c| c.accels.len()).sum::<usize>(),
            ACCELS.len()
        );
        for c in &CONFIGURATIONS {
            let tcl = build_tcl(c);
            let n = c.accels.len();
            assert!(tcl.contains(&format!("CONFIG.NUM_SI {{1}} CONFIG.NUM_MI {{{}}}", 2 * n)));
            assert!(tcl.contains(&format!("CONFIG.NUM_SI {{{}}} CONFIG.NUM_MI {{1}}", 2 * n)));
            for a in ACCELS {
                let here = c.accels.iter().any(|x| x.top == a.top);
                for line in [
                    format!("[file join $repo bitstream rtl {}.v]", a.top),
                    format!(
                        "[get_bd_intf_pins {}/M_AXIS_MM2S] [get_bd_intf_pins {}_0/s_axis]",
                        a.dma, a.top
                    ),
                    format!(
                        "[get_bd_intf_pins {}_0/m_axis] [get_bd_intf_pins {}/S_AXIS_S2MM]",
                        a.top, a.dma
                    ),
                    format!("[get_bd_pins {}_0/busy] [get_bd_ports {}]", a.top, a.led),
                    format!("map_slave {}_0/s_axi 0x{:08X} ", a.top, a.base),
                    format!("map_slave {}/S_AXI_LITE 0x{:08X} ", a.dma, a.dma_base),
                ] {
                    assert_eq!(
                        tcl.matches(&line).count(),
                        usize::from(here),
                        "{}: {line}",
                        c.name
                    );
                }
                // Every LED port exists (the xdc pins them all); an absent
                // core's is driven by a constant 0.
                assert_eq!(
                    tcl.matches(&format!("create_bd_port -dir O {}\n", a.led))
                        .count(),
                    1
                );
                let off = format!("[get_bd_pins {0}_off/dout] [get_bd_ports {0}]", a.led);
                assert_eq!(
                    tcl.matches(&off).count(),
                    usize::from(!here),
                    "{}: {off}",
                    c.name
                );
            }
            // The script finds each address segment by `NAME =~ *cell*`: no
            // cell name may contain another.
            let cells: Vec<String> = slaves(c).into_iter().map(|s| s.cell).collect();
            for a in &cells {
                for b in &cells {
                    assert!(a == b || !a.contains(b.as_str()), "{a} contains {b}");
                }
            }
        }
    }

    /// The scripts hold the contract's facts: the DMA length width (a
    /// 14-bit default would truncate the firmware's transfers), stream and
    /// memory widths, a length register wide enough for the firmware's
    /// buffers, FCLK0, and every PL address of the register map, each in
    /// exactly one script.
    #[test]
    fn scripts_hold_the_ps_pl_contract() {
        use ps_pl_contract::{clock, dma, regmap};
        for c in &CONFIGURATIONS {
            let tcl = build_tcl(c);
            let setting = |name: &str| -> Vec<String> {
                tcl.lines()
                    .filter_map(|l| l.trim().strip_prefix(&format!("CONFIG.{name} {{")))
                    .map(|rest| rest.split('}').next().unwrap().to_string())
                    .collect()
            };
            assert_eq!(
                setting("c_sg_length_width"),
                [dma::LENGTH_WIDTH_BITS.to_string()]
            );
            for (name, bits) in [
                ("c_m_axis_mm2s_tdata_width", dma::STREAM_DATA_BITS),
                ("c_s_axis_s2mm_tdata_width", dma::STREAM_DATA_BITS),
                ("c_m_axi_mm2s_data_width", dma::MEMORY_DATA_BITS),
                ("c_m_axi_s2mm_data_width", dma::MEMORY_DATA_BITS),
            ] {
                assert_eq!(setting(name), [bits.to_string()], "{name}");
            }
            assert_eq!(
                setting("PCW_FCLK0_PERIPHERAL_CLKSRC"),
                ["IO PLL".to_string()]
            );
            let fclk0_mhz: Vec<f64> = setting("PCW_FPGA0_PERIPHERAL_FREQMHZ")
                .iter()
                .map(|v| v.parse().unwrap())
                .collect();
            assert_eq!(fclk0_mhz.len(), 1);
            assert!((fclk0_mhz[0] * 1e6 - f64::from(clock::FCLK0_HZ)).abs() < 1.0);
            assert!(
                (fclk0_mhz[0] * 1e6 * f64::from(clock::FCLK0_IO_PLL_DIVISOR)
                    - f64::from(clock::IO_PLL_HZ))
                .abs()
                    < 10.0
            );
            assert!(tcl.contains(PART));
            // Braces balance (a cheap Tcl syntax check).
            let depth = tcl.chars().try_fold(0i32, |d, c| {
                let d = d + i32::from(c == '{') - i32::from(c == '}');
                (d >= 0).then_some(d)
            });
            assert_eq!(depth, Some(0), "{}", c.name);
        }
        let max = (1usize << dma::LENGTH_WIDTH_BITS) - 1;
        for buffer in [
            dma::NTT_BUFFER_BYTES,
            dma::KECCAK_BUFFER_BYTES,
            dma::MLDSA_MAX_STREAM_BYTES,
            dma::SLHDSA_MAX_STREAM_BYTES,
        ] {
            assert!(buffer <= max, "{buffer} B does not fit the length register");
        }
        // The engine's largest stream is ML-DSA-87's pk || sk, as pqc has it.
        let p87 = pqc::mldsa::params::ML_DSA_87;
        assert_eq!(
            dma::MLDSA_MAX_STREAM_BYTES,
            p87.pk_len() + p87.sk_len() + 4 * ps_pl_contract::regmap::mldsa::OUTPUT_CHECK_WORDS
        );
        for base in REGMAP_BLOCKS {
            let mapped = CONFIGURATIONS
                .iter()
                .filter(|c| {
                    build_tcl(c).contains(&format!(
                        " 0x{base:08X} 0x{:08X}\n",
                        regmap::CTRL_WINDOW_BYTES
                    ))
                })
                .count();
            assert_eq!(mapped, 1, "{base:#x} mapped in {mapped} scripts");
        }
    }

    /// Every LED port of the block design is pinned in the constraints, on
    /// a pin of its own, and has no timing requirement.
    #[test]
    fn constraints_pin_every_led_port() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../constraints/zedboard.xdc");
        let xdc = std::fs::read_to_string(&path).unwrap();
        let pins: std::collections::BTreeSet<&str> = xdc
            .lines()
            .filter_map(|l| l.strip_prefix("set_property PACKAGE_PIN "))
            .filter_map(|rest| rest.split_whitespace().next())
            .collect();
        assert_eq!(pins.len(), LEDS.len(), "one pin per LED port: {pins:?}");
        let false_path = xdc
            .lines()
            .find(|l| l.starts_with("set_false_path -to [get_ports"))
            .expect("no set_false_path to the LED ports");
        for (port, _) in LEDS {
            assert!(
                false_path.split(['{', '}', ' ']).any(|w| w == port),
                "{port} not in {false_path}"
            );
            for prop in ["PACKAGE_PIN", "IOSTANDARD LVCMOS33"] {
                assert!(
                    xdc.lines()
                        .any(|l| l.contains(prop) && l.contains(&format!("[get_ports {port}]"))),
                    "{port}: no {prop} in {}",
                    path.display()
                );
            }
        }
    }

    /// Stand-ins for the Vivado commands the script calls: enough for
    /// `tclsh` to run it end to end (syntax, procedures, loops, the address
    /// check, the product copies). Address assignments are recorded so the
    /// script's own check reads back what it assigned, plus `::skew`.
    const VIVADO_STUBS: &str = r#"
set ::calls {}
set ::segs [dict create]
set ::skew 0
proc unknown {args} { lappend ::calls $args; return "" }
set ::board ""
set ::slack_max 0.25
set ::slack_min 0.02
set ::validate_ok 1
set ::fclk0_hz 0
proc get_board_parts {args} {
    if {[string match *zedboard* [lindex $args end]]} { return $::board }
    return ""
}
proc validate_bd_design {args} {
    if {!$::validate_ok} { error "ERROR: \[BD 41-758\] stand-in validation failure" }
}
proc get_timing_paths {args} {
    if {[lsearch $args min] >= 0} { return path_min }
    return path_max
}
proc get_bd_intf_pins {p} { return $p }
proc get_bd_pins {args} { return [lindex $args end] }
proc get_bd_ports {p} { return $p }
proc get_bd_cells {c} { return $c }
proc get_bd_addr_spaces {s} { return $s }
proc create_bd_cell {args} { lappend ::calls [list create_bd_cell {*}$args]; return [lindex $args end] }
proc get_bd_addr_segs {args} {
    set obj [lindex $args [expr {[lsearch $args -of_objects] + 1}]]
    set f [lsearch $args -filter]
    if {$f >= 0} {
        return [lsearch -all -inline -glob [dict keys $::segs] [lindex [lindex $args [expr {$f + 1}]] 2]]
    }
    if {[string match */Data $obj]} { return [dict keys $::segs] }
    return "$obj/reg0"
}
proc assign_bd_address {args} {
    if {[llength $args] == 0} { return }
    set off [lindex $args [expr {[lsearch $args -offset] + 1}]]
    set seg [lindex $args [expr {[lsearch $args -force] - 1}]]
    dict set ::segs "SEG_$seg" [format 0x%08X [expr {$off + $::skew}]]
}
proc create_bd_addr_seg {args} { error "pre-2020.1 path taken" }
proc get_property {prop obj} {
    switch -- $prop {
        OFFSET { return [dict get $::segs $obj] }
        NAME { return $obj }
        RANGE { return 0x00010000 }
        PROGRESS { return 100% }
        SLACK { return [expr {$obj eq "path_min" ? $::slack_min : $::slack_max}] }
        DIRECTORY { return $::impl_dir }
        CONFIG.FREQ_HZ { return $::fclk0_hz }
        default { error "get_property $prop" }
    }
}
proc make_wrapper {args} { return system_wrapper.v }
proc write_hw_platform {args} { close [open [lindex $args end] w] }
"#;

    /// What the stand-ins report.
    struct Stand {
        /// Added to every assigned address (the script must catch it).
        skew: u32,
        /// What `get_board_parts *:zedboard:*` finds.
        board: &'static str,
        /// `PQC_NO_BOARD_FILES` in the environment of `tclsh`.
        no_board_env: Option<&'static str>,
        /// Setup (max) and hold (min) slack of the routed design.
        slack: (f64, f64),
        validate_ok: bool,
        /// FREQ_HZ of `ps7/FCLK_CLK0`.
        fclk0_hz: u64,
    }

    const GOOD: Stand = Stand {
        skew: 0,
        board: "avnet.com:zedboard:part0:1.4",
        no_board_env: None,
        slack: (0.25, 0.02),
        validate_ok: true,
        // Vivado rounds the divided PLL: 4 Hz off, well within tolerance.
        fclk0_hz: FCLK0_HZ + 4,
    };

    /// Runs `config`'s script under `tclsh` with [`VIVADO_STUBS`] in a
    /// scratch repository layout; returns (success, output, scratch root).
    fn run_under_tclsh(
        name: &str,
        config: &PlConfiguration,
        st: &Stand,
    ) -> Option<(bool, String, std::path::PathBuf)> {
        let root = crate::verilator::work_dir(name);
        let _ = std::fs::remove_dir_all(&root);
        let vivado = root.join("bitstream/vivado");
        let project = root.join("target/vivado").join(config.name);
        let impl_dir = project.join(format!("{}.runs/impl_1", config.product()));
        let gen = project.join(format!(
            "{}.gen/sources_1/bd/system/ip/ps7",
            config.product()
        ));
        for d in [&vivado, &impl_dir, &gen] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(impl_dir.join("system_wrapper.bit"), "bit").unwrap();
        std::fs::write(gen.join("ps7_init.tcl"), "proc ps7_init {} {}").unwrap();
        let script = vivado.join(config.script());
        std::fs::write(&script, build_tcl(config)).unwrap();
        let driver = format!(
            "{VIVADO_STUBS}\nset ::skew {skew}\nset ::board {{{board}}}\n\
             set ::slack_max {smax}\nset ::slack_min {smin}\nset ::validate_ok {vok}\n\
             set ::fclk0_hz {fclk0_hz}\n\
             set ::impl_dir {{{}}}\nsource {{{}}}\n\
             puts \"CALLS [llength $::calls]\"\n\
             foreach c $::calls {{ if {{[lindex $c 0] in {{create_bd_cell set_property}}}} {{ puts $c }} }}\n",
            impl_dir.display(),
            script.display(),
            skew = st.skew,
            board = st.board,
            smax = st.slack.0,
            smin = st.slack.1,
            vok = u8::from(st.validate_ok),
            fclk0_hz = st.fclk0_hz,
        );
        std::fs::write(root.join("driver.tcl"), driver).unwrap();
        let mut cmd = std::process::Command::new("tclsh");
        cmd.arg(root.join("driver.tcl")).env_remove(NO_BOARD_ENV);
        if let Some(v) = st.no_board_env {
            cmd.env(NO_BOARD_ENV, v);
        }
        let out = match cmd.output() {
            Ok(o) => o,
            Err(e) => {
                eprintln!("SKIPPED {name}: cannot run tclsh ({e})");
                return None;
            }
        };
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        Some((out.status.success(), text, root))
    }

    #[test]
    fn scripts_run_under_tclsh_with_stubbed_vivado() {
        for c in &CONFIGURATIONS {
            let Some((ok, out, root)) =
                run_under_tclsh(&format!("vivado-tclsh-{}", c.name), c, &GOOD)
            else {
                return;
            };
            assert!(ok, "{} failed under tclsh:\n{out}", c.script());
            for f in [
                format!("{}.bit", c.product()),
                format!("{}.xsa", c.product()),
                "ps7_init.tcl".into(),
            ] {
                assert!(
                    root.join("bitstream").join(&f).is_file(),
                    "{f} not written:\n{out}"
                );
            }
            for a in ACCELS {
                let cell = format!("create_bd_cell -type module -reference {0} {0}_0", a.top);
                let here = c.accels.iter().any(|x| x.top == a.top);
                assert_eq!(out.contains(&cell), here, "{}: {}:\n{out}", c.name, a.top);
            }
            assert_eq!(
                out.matches("xilinx.com:ip:axi_dma").count(),
                c.accels.len(),
                "{out}"
            );
            // Every top's clock takes the FREQ_HZ Vivado gave FCLK_CLK0.
            for a in c.accels {
                let freq = format!(
                    "set_property CONFIG.FREQ_HZ {} {}_0/aclk",
                    GOOD.fclk0_hz, a.top
                );
                assert!(out.contains(&freq), "{}: no {freq:?}:\n{out}", c.name);
            }
            // With the board preset, the explicit DDR3 timings are not set.
            assert!(out.contains("board_part avnet.com:zedboard"), "{out}");
            assert!(!out.contains("PCW_UIPARAM_DDR_BOARD_DELAY0"), "{out}");
            // The address check of the script catches a block placed elsewhere.
            let skewed = Stand {
                skew: 0x1000,
                ..GOOD
            };
            let (ok, out, _) =
                run_under_tclsh(&format!("vivado-tclsh-skew-{}", c.name), c, &skewed).unwrap();
            let first = c.accels[0].base;
            assert!(
                !ok && out.contains(&format!("is not at 0x{first:08X}")),
                "{out}"
            );
        }
    }

    /// Negative setup or hold slack after routing, a failing
    /// `validate_bd_design`, a fabric clock other than the contract's and
    /// missing board files each make the script
    /// exit non-zero before any product is copied.
    #[test]
    fn script_fails_on_timing_validation_and_missing_board_files() {
        let cases = [
            (
                "vivado-tclsh-wns",
                Stand {
                    slack: (-0.12, 0.02),
                    ..GOOD
                },
                "timing not met",
            ),
            (
                "vivado-tclsh-whs",
                Stand {
                    slack: (0.3, -0.01),
                    ..GOOD
                },
                "timing not met",
            ),
            (
                "vivado-tclsh-validate",
                Stand {
                    validate_ok: false,
                    ..GOOD
                },
                "validate_bd_design failed",
            ),
            (
                "vivado-tclsh-fclk0",
                Stand {
                    fclk0_hz: 100_000_000,
                    ..GOOD
                },
                "FCLK_CLK0 is 100000000 Hz",
            ),
            (
                "vivado-tclsh-noboard",
                Stand { board: "", ..GOOD },
                "no ZedBoard board files",
            ),
            (
                "vivado-tclsh-noboard-0",
                Stand {
                    board: "",
                    no_board_env: Some("0"),
                    ..GOOD
                },
                "no ZedBoard board files",
            ),
        ];
        let engines = &CONFIGURATIONS[0];
        for (name, st, message) in cases {
            let Some((ok, out, root)) = run_under_tclsh(name, engines, &st) else {
                return;
            };
            assert!(!ok, "{name}: build.tcl succeeded:\n{out}");
            assert!(out.contains(message), "{name}: no {message:?}:\n{out}");
            assert!(
                !root
                    .join("bitstream")
                    .join(format!("{}.bit", engines.product()))
                    .exists(),
                "{name}: a bitstream was copied"
            );
        }
        // The documented override: no board files, explicit DDR3 settings.
        let st = Stand {
            board: "",
            no_board_env: Some("1"),
            ..GOOD
        };
        let (ok, out, _) = run_under_tclsh("vivado-tclsh-override", engines, &st).unwrap();
        assert!(ok, "override failed:\n{out}");
        for (k, v) in DDR_SETTINGS {
            // Tcl prints a list element in braces only if it has a space.
            let shown = if v.contains(' ') {
                format!("{{{v}}}")
            } else {
                v.to_string()
            };
            assert!(out.contains(&format!("CONFIG.{k} {shown}")), "{k}:\n{out}");
        }
    }
}
