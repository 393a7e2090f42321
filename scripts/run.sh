#!/usr/bin/env bash
# The project's main job on a fresh machine: installs what is missing, then
# runs the signature demo (every ML-DSA and SLH-DSA set, sizes and timings).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

printf '\n=== signature demo (software backends)\n'
cargo run --release -q -p sim --bin pqc-zynq -- demo
