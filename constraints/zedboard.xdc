# ZedBoard (xc7z020clg484-1) PL constraints for bitstream/vivado/build_*.tcl
# (both PL configurations: a core of the other configuration has its LED
# port driven off).
#
# The design uses the PS pins (DDR, MIO: fixed by the PS7 configuration)
# and only these three PL pins. The clock is the PS's FCLK_CLK0, constrained
# by the processing_system7 IP itself.
#
# LD0: the NTT core is busy (block-design port ntt_busy_led).
set_property PACKAGE_PIN T22 [get_ports ntt_busy_led]
set_property IOSTANDARD LVCMOS33 [get_ports ntt_busy_led]
# LD1: the Keccak/sponge engine is busy (block-design port keccak_busy_led).
set_property PACKAGE_PIN T21 [get_ports keccak_busy_led]
set_property IOSTANDARD LVCMOS33 [get_ports keccak_busy_led]
# LD2: the ML-DSA or the SLH-DSA engine is busy (block-design port engines_busy_led).
set_property PACKAGE_PIN U22 [get_ports engines_busy_led]
set_property IOSTANDARD LVCMOS33 [get_ports engines_busy_led]
# The LEDs are slow indicators: no timing requirement on the paths to them.
set_false_path -to [get_ports {ntt_busy_led keccak_busy_led engines_busy_led}]
