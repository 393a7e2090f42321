#!/usr/bin/env bash
# Builds ps-app and loads it on a ZedBoard over JTAG with xsct (Vivado/Vitis):
#   scripts/zedboard_jtag.sh <ps7_init.tcl> [design.bit]
# Cannot run in this repository's CI (no board, no Xilinx tools); see
# scripts/zedboard_jtag.tcl for the sequence.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
  echo "usage: $0 <ps7_init.tcl> [design.bit]" >&2
  exit 2
fi
command -v xsct >/dev/null || { echo "zedboard_jtag: xsct not found (source Vivado/Vitis settings64.sh)" >&2; exit 2; }
elf="$(bash scripts/qemu.sh --build-only)"
exec xsct scripts/zedboard_jtag.tcl "$elf" "$@"
