#!/usr/bin/env bash
# The software-vs-accelerated timing report: report.md (tables, provenance
# of every figure, the time model) and report.svg (grouped bar chart).
#
# Software figures: the ps-app benchmark table of a QEMU transcript
# (instruction counts under -icount, converted with a stated model; not
# board time) or of a ZedBoard transcript (--source zedboard). Accelerated
# figures: modelled from the cycle-accurate co-simulation of the PL
# (sim/src/cosim.rs), not measured on a board.
#
# Usage: scripts/report.sh [--out DIR] [--capture] [--transcript FILE]
#                          [--source qemu|zedboard] [--cosim none|default|full]
#                          [--engine verilator|rust-hdl]
#   --out DIR         where report.md and report.svg go (default: report)
#   --capture         boot ps-app on QEMU first (scripts/qemu.sh, ~2 min;
#                     with PS_APP_BENCH_SLHDSA_SETS=all, as the committed
#                     transcript was, every SLH-DSA set: ~5 min) and use
#                     that transcript (saved in report/inputs/)
#   --transcript F    use F (default: the committed report/inputs transcript)
#   --cosim SET       default: every ML-DSA and SLH-DSA-SHAKE operation of
#                     the transcript, s sets included, on the Verilator
#                     engine, and the engine tier of every set the engines
#                     offer but SLH-DSA-SHA2-192s and -256s (sets the
#                     transcript has no row for get engine rows only);
#                     full: those two too (about 50 min more here: the
#                     committed report/ is a full run); none: software
#                     rows only
#   --engine E        verilator (default) or rust-hdl (the reference; slow)
set -euo pipefail
cd "$(dirname "$0")/.."

out=report capture=0 args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --capture) capture=1; shift ;;
    --transcript|--source|--cosim|--host-runs|--engine) args+=("$1" "$2"); shift 2 ;;
    *) echo "report.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

if [ "$capture" = 1 ]; then
  rev=$(git rev-parse --short HEAD 2>/dev/null || echo local)
  transcript="report/inputs/ps-app-qemu-$rev.txt"
  bash scripts/qemu.sh | tr -d '\r' > "$transcript.tmp"
  mv "$transcript.tmp" "$transcript"
  echo "report.sh: captured $transcript" >&2
  args+=(--transcript "$transcript")
fi

cargo run --release -q -p sim --bin pqc-zynq -- report --out "$out" "${args[@]}"
