#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian machine. Idempotent:
# each step checks before it installs, so a second run does nothing.
set -euo pipefail

need_apt=()
command -v qemu-system-arm >/dev/null || need_apt+=(qemu-system-arm)
command -v verilator >/dev/null || need_apt+=(verilator)
command -v yosys >/dev/null || need_apt+=(yosys)
command -v iverilog >/dev/null || need_apt+=(iverilog)
# g++ and make: Verilator's C++ build (the cross-checks and the co-simulation
# engine's model library, built on first use by cargo test/run).
command -v g++ >/dev/null || need_apt+=(g++)
command -v make >/dev/null || need_apt+=(make)
command -v python3 >/dev/null || need_apt+=(python3)
# valgrind: the ML-DSA constant-time test (pqc/tests/mldsa_ctgrind.rs).
command -v valgrind >/dev/null || need_apt+=(valgrind)
# tclsh: runs bitstream/vivado/build_*.tcl with stand-ins for Vivado's commands.
command -v tclsh >/dev/null || need_apt+=(tcl)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# armv7a-none-eabi: ps-app (Cortex-A9); thumbv7em-none-eabihf: mcu-app (Cortex-M4F/M7).
for target in armv7a-none-eabi thumbv7em-none-eabihf; do
  if ! rustup target list --installed | grep -qx "$target"; then
    echo "setup: adding Rust target $target"
    rustup target add "$target"
  fi
done
for comp in rustfmt clippy; do
  rustup component list --installed | grep -q "^$comp" || rustup component add "$comp"
done
echo "setup: ok"
