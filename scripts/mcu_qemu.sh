#!/usr/bin/env bash
# Builds the bare-metal mcu-app ELF (thumbv7em-none-eabihf) for a QEMU
# Cortex-M machine and boots it; console and exit status through
# semihosting. Exits with the application's status: 0 only if every
# self-test passed and every benchmarked operation succeeded.
#
# Usage: scripts/mcu_qemu.sh MACHINE [--corrupt-selftest] [--build-only|--no-build] [--no-icount]
#   MACHINE             netduinoplus2 (STM32F405, Cortex-M4F) or mps2-an500 (Cortex-M7)
#   --corrupt-selftest  build with one embedded expected signature corrupted
#   --build-only        build, print the ELF path, do not boot
#   --no-build          boot the ELF an earlier --build-only left (every
#                       variant builds to one cargo output path, so runs in
#                       parallel must not build)
#   --no-icount         virtual time follows the host clock (faster; the
#                       counts are then not instructions)
# Environment:
#   MCU_APP_TIMEOUT                  seconds before QEMU is killed (default 1800)
#   MCU_APP_BENCH_MLDSA_ITERATIONS   iterations per ML-DSA row (default 10)
#   MCU_APP_BENCH_SLHDSA_ITERATIONS  iterations per SLH-DSA row (default 1)
#   CARGO_TARGET_DIR                 as for cargo (default: target)
#
# With -icount shift=0 every guest instruction advances virtual time by
# 1 ns; the application calibrates SysTick against a loop of known length,
# so its counts are guest instructions, reproducible whatever the host load.
set -euo pipefail
cd "$(dirname "$0")/.."

machine="${1:-}"
case "$machine" in
  netduinoplus2|mps2-an500) shift ;;
  *) echo "usage: scripts/mcu_qemu.sh netduinoplus2|mps2-an500 [options]" >&2; exit 2 ;;
esac
corrupt=0 build_only=0 build=1 icount=(-icount shift=0)
for arg in "$@"; do
  case "$arg" in
    --corrupt-selftest) corrupt=1 ;;
    --build-only) build_only=1 ;;
    --no-build) build=0 ;;
    --no-icount) icount=() ;;
    *) echo "mcu_qemu.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

command -v qemu-system-arm >/dev/null || bash scripts/setup.sh
rustup target list --installed 2>/dev/null | grep -qx thumbv7em-none-eabihf || bash scripts/setup.sh

target_dir="${CARGO_TARGET_DIR:-target}"
features=(--no-default-features --features "board-$machine")
name="mcu-app-$machine"
if [ "$corrupt" = 1 ]; then
  features=(--no-default-features --features "board-$machine,corrupt-selftest")
  name="$name-corrupt-selftest"
fi
elf="$target_dir/thumbv7em-none-eabihf/release/$name.elf"
if [ "$build" = 1 ]; then
  cargo build -q -p mcu-app --release --target thumbv7em-none-eabihf "${features[@]}" >&2
  # Every variant builds to the same path: keep a copy per variant.
  cp "$target_dir/thumbv7em-none-eabihf/release/mcu-app" "$elf"
fi
[ -f "$elf" ] || { echo "mcu_qemu.sh: no $elf (build it with --build-only first)" >&2; exit 2; }
if [ "$build_only" = 1 ]; then
  echo "$elf"
  exit 0
fi

exec timeout --kill-after=10 "${MCU_APP_TIMEOUT:-1800}" \
  qemu-system-arm -M "$machine" -nographic \
  -semihosting-config enable=on,target=native "${icount[@]}" \
  -kernel "$elf" </dev/null
