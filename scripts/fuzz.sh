#!/usr/bin/env bash
# Runs each cargo-fuzz target of pqc (pqc/fuzz) for the given number of
# seconds (default 600), one after the other, installing cargo-fuzz if it is
# missing. Only stable Rust is available here, so RUSTC_BOOTSTRAP=1 lets
# cargo-fuzz pass its -Z flags (sanitizer, coverage) to the stable compiler.
#
#   bash scripts/fuzz.sh [seconds] [target...]
#
# Targets: mldsa_verify, slhdsa_verify (all of them by default). The corpus
# is kept in pqc/fuzz/corpus/<target>/ (git-ignored); a crash stops the run
# with libFuzzer's report and its input in pqc/fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(mldsa_verify slhdsa_verify)
fi
case "$seconds" in
  '' | *[!0-9]*) echo "usage: $0 [seconds] [target...]" >&2; exit 2 ;;
esac

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/fuzz}"
cd pqc
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  echo "=== cargo fuzz run $target for ${seconds}s"
  # -O -a: optimised, with debug assertions and overflow checks. No
  # sanitizer: pqc forbids unsafe code, so panics are what can be found,
  # and ASan would cost most of the throughput. One job: the machine is
  # shared. Short inputs reach full-length keys and signatures anyway (the
  # bodies repeat the input bytes), so max_len stays at 4096.
  cargo fuzz run -O -a -s none "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -max_len=4096 -timeout=120 -print_final_stats=1
done
