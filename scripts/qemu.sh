#!/usr/bin/env bash
# Builds the bare-metal ps-app ELF for the Zynq-7000 Cortex-A9 and boots it
# on QEMU's xilinx-zynq-a9 board (console = UART1 on stdio). Exits with the
# application's semihosting status: 0 only if every self-test passed.
#
# Usage: scripts/qemu.sh [--corrupt-selftest] [--build-only] [--no-icount]
#   --corrupt-selftest  build with one embedded expected signature corrupted
#                       (the run must then fail)
#   --build-only        build, print the ELF path, do not boot
#   --no-icount         let virtual time follow the host clock (faster,
#                       but tick counts then depend on host load)
# Environment:
#   PS_APP_TIMEOUT                  seconds before QEMU is killed (default 1800)
#   PS_APP_BENCH_MLDSA_ITERATIONS   iterations per ML-DSA row (default 10)
#   PS_APP_BENCH_SLHDSA_ITERATIONS  iterations per SLH-DSA row (default 1)
#   PS_APP_BENCH_SLHDSA_SETS        `all`: the tables take all twelve SLH-DSA
#                                   sets (default: the four of category 1);
#                                   the s sets of categories 3 and 5 add
#                                   minutes of QEMU
#   CARGO_TARGET_DIR                as for cargo (default: target)
#
# With -icount shift=0 every guest instruction advances virtual time by 1 ns,
# so the global timer's 100 MHz ticks count guest instructions / 10 and runs
# are reproducible whatever the host load.
set -euo pipefail
cd "$(dirname "$0")/.."

corrupt=0 build_only=0 icount=(-icount shift=0)
for arg in "$@"; do
  case "$arg" in
    --corrupt-selftest) corrupt=1 ;;
    --build-only) build_only=1 ;;
    --no-icount) icount=() ;;
    *) echo "qemu.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

command -v qemu-system-arm >/dev/null || bash scripts/setup.sh
rustup target list --installed 2>/dev/null | grep -qx armv7a-none-eabi || bash scripts/setup.sh

target_dir="${CARGO_TARGET_DIR:-target}"
features=()
name=ps-app
if [ "$corrupt" = 1 ]; then
  features=(--features corrupt-selftest)
  name=ps-app-corrupt-selftest
fi
case "${PS_APP_BENCH_SLHDSA_SETS:-}" in
  "") ;;
  all) features+=(--features bench-every-slhdsa-set); name="$name-every-slhdsa-set" ;;
  *) echo "qemu.sh: PS_APP_BENCH_SLHDSA_SETS must be empty or all" >&2; exit 2 ;;
esac
cargo build -q -p ps-app --release --target armv7a-none-eabi "${features[@]}" >&2
# Both variants build to the same path: keep a copy per variant.
elf="$target_dir/armv7a-none-eabi/release/$name.elf"
cp "$target_dir/armv7a-none-eabi/release/ps-app" "$elf"
if [ "$build_only" = 1 ]; then
  echo "$elf"
  exit 0
fi

# First -serial is UART0 (unused), the second UART1: the ZedBoard console.
exec timeout --kill-after=10 "${PS_APP_TIMEOUT:-1800}" \
  qemu-system-arm -M xilinx-zynq-a9 -m 512M -nographic \
  -serial null -serial mon:stdio -semihosting "${icount[@]}" \
  -kernel "$elf" </dev/null
