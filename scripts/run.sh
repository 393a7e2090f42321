#!/usr/bin/env bash
# The project's main job on a fresh machine: installs what is missing, then
#  1. the signature demo (every ML-DSA and SLH-DSA set, sizes and timings);
#  2. exports the accelerator Verilog to bitstream/rtl and generates the
#     Vivado build scripts bitstream/vivado/build_*.tcl (both reproducible: a
#     clean checkout shows no change afterwards);
#  3. builds the bare-metal PS application and boots it on QEMU's Zynq-7000
#     model: self-tests, benchmark table, exit status;
#  4. writes the software-vs-accelerated timing report with its chart.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

printf '\n=== 1. signature demo (software backends)\n'
cargo run --release -q -p sim --bin pqc-zynq -- demo

printf '\n=== 2. Verilog export (bitstream/rtl) and Vivado scripts (bitstream/vivado)\n'
cargo run --release -q -p hdl -- list
cargo run --release -q -p hdl -- export --out bitstream/rtl
cargo run --release -q -p hdl -- vivado --out bitstream/vivado

printf '\n=== 3. PS application on QEMU xilinx-zynq-a9\n'
bash scripts/qemu.sh

# 4. The software-vs-accelerated timing report (scripts/report.sh): software
#    figures from the committed QEMU transcript, accelerated figures modelled
#    from the PL co-simulation (a few minutes). Written outside the tree; the
#    committed example is report/.
printf '\n=== 4. timing report: software vs accelerated (co-simulation)\n'
bash scripts/report.sh --out "${CARGO_TARGET_DIR:-target}/report"
