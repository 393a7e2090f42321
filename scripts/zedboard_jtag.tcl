# Loads and runs ps-app on a real ZedBoard over JTAG with Xilinx xsct/xsdb.
#
#   xsct scripts/zedboard_jtag.tcl <ps-app.elf> <ps7_init.tcl> [design.bit]
#
# <ps7_init.tcl> is the PS7 initialisation Vivado exports with the hardware
# design (DDR, clocks with UART_REF_CLK = 100 MHz, MIO): ps-app does no
# clock or DDR set-up itself. [design.bit] is optional: without it the PL
# stays unconfigured and ps-app reports "PL configured: no".
#
# NOT RUN in this repository's CI (no board, no Xilinx tools here); it
# follows the sequence Vitis uses for a bare-metal Zynq-7000 launch.
# Console: the ZedBoard USB-UART (UART1), 115200 8N1, e.g.
#   picocom -b 115200 /dev/ttyACM0
# Semihosting is not used on the board: the result is the "EXIT status=N"
# line on the console, after which the CPU parks.

if {[llength $argv] < 2} {
    puts stderr "usage: xsct zedboard_jtag.tcl <ps-app.elf> <ps7_init.tcl> \[design.bit\]"
    exit 2
}
set elf [lindex $argv 0]
set ps7_init [lindex $argv 1]
set bitstream [expr {[llength $argv] > 2 ? [lindex $argv 2] : ""}]
foreach f [list $elf $ps7_init $bitstream] {
    if {$f ne "" && ![file exists $f]} {
        puts stderr "zedboard_jtag: no such file: $f"
        exit 2
    }
}

connect
# Reset the whole system so no earlier program or PL design is left running.
targets -set -nocase -filter {name =~ "APU*"}
rst -system
after 1000

if {$bitstream ne ""} {
    # Program the PL before the PS level shifters are enabled (ps7_post_config).
    targets -set -nocase -filter {name =~ "xc7z020*"}
    fpga -file $bitstream
}

targets -set -nocase -filter {name =~ "APU*"}
source $ps7_init
ps7_init
ps7_post_config

targets -set -nocase -filter {name =~ "*A9*#0"}
rst -processor
# ps-app is linked at DDR 0x0010_0000; dow loads every section in place.
dow $elf
con
puts "zedboard_jtag: ps-app running; watch the UART console for the self-tests and the table"
