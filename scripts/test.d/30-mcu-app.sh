#!/usr/bin/env bash
# mcu-app on emulated Cortex-M: clippy is clean for thumbv7em-none-eabihf
# (every board), the ELF boots on QEMU's netduinoplus2 (Cortex-M4F) and
# mps2-an500 (Cortex-M7), passes its self-tests, prints every benchmark row
# and the stack-goal lines, and exits 0; a build with a corrupted self-test
# vector exits 1 on both machines.
#
# MCU_APP_TRANSCRIPT_DIR=report/inputs keeps the checked transcripts as
# mcu-m4-qemu.txt and mcu-m7-qemu.txt (the report's inputs).
#
# The two full runs go in parallel (one QEMU per core): each table is
# 88 billion emulated instructions, 86 % in SLH-DSA-SHAKE-128s keygen and
# sign, which already run once (MCU_APP_BENCH_SLHDSA_ITERATIONS=1).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "30-mcu-app: FAIL: $*" >&2; exit 1; }
cpu_of() { case "$1" in netduinoplus2) echo Cortex-M4 ;; mps2-an500) echo Cortex-M7 ;; esac; }
start_all=$(date +%s)

target=thumbv7em-none-eabihf
cargo clippy -p mcu-app --target $target -- -D warnings
for features in board-mps2-an500 board-stm32f407-disc1 board-netduinoplus2,corrupt-selftest; do
  cargo clippy -p mcu-app --target $target --no-default-features --features "$features" -- -D warnings
done

# Build every ELF first (one build at a time), then boot.
machines=(netduinoplus2 mps2-an500)
for m in "${machines[@]}"; do
  bash scripts/mcu_qemu.sh "$m" --build-only
  bash scripts/mcu_qemu.sh "$m" --corrupt-selftest --build-only
done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
pids=()
for m in "${machines[@]}"; do
  ( set +e
    MCU_APP_TIMEOUT=900 bash scripts/mcu_qemu.sh "$m" --no-build > "$tmp/$m.raw" 2>&1
    echo $? > "$tmp/$m.status" ) &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
echo "30-mcu-app: both full runs took $(( $(date +%s) - start )) s (in parallel)"

for m in "${machines[@]}"; do
  log="$tmp/$m.log"
  tr -d '\r' < "$tmp/$m.raw" > "$log"
  cat "$log"
  status=$(cat "$tmp/$m.status")
  [ "$status" = 0 ] || fail "$m: mcu-app exited with status $status (124 = timeout)"
  # The ELF linked for this machine ran on this machine's core.
  grep -q "^mcu-app: QEMU $m (" "$log" || fail "$m: the ELF is not the $m build"
  grep -Eq "^cpu: CPUID 0x[0-9a-f]{8}, $(cpu_of "$m"), as the board feature expects$" "$log" \
    || fail "$m: no CPUID line for $(cpu_of "$m")"
  grep -qx 'selftest: 20 passed, 0 failed' "$log" || fail "$m: self-test summary missing or not all passed"
  grep -q 'FAIL' "$log" && fail "$m: a FAIL line was printed"
  grep -qx 'EXIT status=0' "$log" || fail "$m: no 'EXIT status=0' line"
  grep -q 'the counts below are INSTRUCTIONS, not cycles' "$log" || fail "$m: the header does not say the unit"
  grep -Eq '^counter: calibration: 4000000 instructions \(subs/bne loop\) = [1-9][0-9]* SysTick ticks$' "$log" \
    || fail "$m: no calibration line"
  grep -Eq '^memory: flash [1-9][0-9]* B of 1048576 B, static RAM [1-9][0-9]* B of 131072 B, stack region 65536 B$' "$log" \
    || fail "$m: no memory line with the STM32F407 budget"
  rows=0
  for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87 SLH-DSA-SHAKE-128f SLH-DSA-SHA2-128f SLH-DSA-SHAKE-128s SLH-DSA-SHA2-128s; do
    for op in keygen sign verify; do
      # | alg | op | iters | instructions | ms | stack | ok |
      grep -Eq "^\| $alg +\| $op +\| +[1-9][0-9]* \| +[1-9][0-9]* \| +[0-9]+\.[0-9]{2} \| +[1-9][0-9]* \| ok +\|$" "$log" \
        || fail "$m: no valid table row for $alg $op"
      rows=$((rows + 1))
    done
  done
  for set in ML-DSA-44 ML-DSA-87; do
    grep -Eq "^stack: $set sign \(small-stack mode\) peak [1-9][0-9]* B, goal <= [0-9]+ B: met$" "$log" \
      || fail "$m: $set signing stack goal line missing or not met"
  done
  echo "30-mcu-app: $m: $rows table rows and 2 stack-goal lines checked"
  if [ -n "${MCU_APP_TRANSCRIPT_DIR:-}" ]; then
    case "$m" in netduinoplus2) tier=m4 ;; mps2-an500) tier=m7 ;; esac
    cp "$log" "$MCU_APP_TRANSCRIPT_DIR/mcu-$tier-qemu.txt"
  fi
done

for m in "${machines[@]}"; do
  start=$(date +%s)
  set +e
  MCU_APP_TIMEOUT=300 bash scripts/mcu_qemu.sh "$m" --corrupt-selftest --no-build | tr -d '\r' > "$tmp/$m.bad"
  status=${PIPESTATUS[0]}
  set -e
  cat "$tmp/$m.bad"
  echo "30-mcu-app: $m corrupted-vector run took $(( $(date +%s) - start )) s, status $status"
  [ "$status" = 1 ] || fail "$m: the corrupted-vector build exited with $status, expected 1"
  grep -Eq '^selftest ML-DSA-44 +sigGen +tc[0-9]+ +FAIL \(signature differs\)$' "$tmp/$m.bad" \
    || fail "$m: the corrupted case was not reported"
  grep -qx 'selftest: 19 passed, 1 failed' "$tmp/$m.bad" || fail "$m: expected exactly one failed self-test"
  grep -q "^mcu-app: QEMU $m (" "$tmp/$m.bad" || fail "$m: the corrupted ELF is not the $m build"
done
echo "30-mcu-app: passed in $(( $(date +%s) - start_all )) s"
