#!/usr/bin/env bash
# Runs every test of the project: installs what is missing (scripts/setup.sh),
# checks formatting and lints, runs the Rust test suites in release mode
# (simulation and ACVP runs are heavy), builds the algorithms for the
# Cortex-A9 target, then runs the extra steps in scripts/test.d/ in order.
#
# Opt-in exhaustive runs: PQC_FULL=1 (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

step() { printf '\n=== %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (host crates)"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo doc (broken intra-doc links are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

step "cargo build -p pqc --target armv7a-none-eabi"
cargo build -p pqc --release --target armv7a-none-eabi

# --show-output prints what the passing tests report (ACVP pass counts,
# cycle counts, permutation counts) after each test binary.
# PQC_FULL=1 also runs the #[ignore]d slow tests.
ignored=()
[ "${PQC_FULL:-}" = 1 ] && ignored=(--include-ignored)
step "cargo test --release --workspace"
cargo test --release --workspace -- --show-output "${ignored[@]}"

for extra in scripts/test.d/*.sh; do
  [ -e "$extra" ] || continue
  step "$extra"
  bash "$extra"
done
step "all tests passed"
