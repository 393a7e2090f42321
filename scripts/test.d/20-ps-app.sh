#!/usr/bin/env bash
# ps-app on emulated hardware: the self-test vectors are reproducible from
# the ACVP files, clippy is clean for the Cortex-A9 target, the ELF boots on
# QEMU's xilinx-zynq-a9, passes its self-tests, prints every benchmark row
# and the stack lines, reports no ML-DSA or SLH-DSA engine (QEMU has no PL), and exits
# 0; a build with a corrupted self-test vector exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "20-ps-app: FAIL: $*" >&2; exit 1; }

python3 scripts/extract_selftest_vectors.py --check

cargo clippy -p ps-app --release --target armv7a-none-eabi -- -D warnings
cargo clippy -p ps-app --release --target armv7a-none-eabi --features corrupt-selftest -- -D warnings
cargo clippy -p ps-app --release --target armv7a-none-eabi --features bench-every-slhdsa-set -- -D warnings

log="$(mktemp)"
trap 'rm -f "$log" "$log.bad"' EXIT

start=$(date +%s)
set +e
PS_APP_TIMEOUT=1500 bash scripts/qemu.sh | tee "$log"
status=${PIPESTATUS[0]}
set -e
echo "20-ps-app: QEMU run took $(( $(date +%s) - start )) s, status $status"
tr -d '\r' < "$log" > "$log.clean" && mv "$log.clean" "$log"

[ "$status" = 0 ] || fail "ps-app exited with status $status (124 = timeout)"
grep -qx 'selftest: 20 passed, 0 failed' "$log" || fail "self-test summary missing or not all passed"
grep -q 'FAIL' "$log" && fail "a FAIL line was printed"
grep -qx 'EXIT status=0' "$log" || fail "no 'EXIT status=0' line"
rows=0
for alg in ML-DSA-44 ML-DSA-65 ML-DSA-87 SLH-DSA-SHAKE-128f SLH-DSA-SHA2-128f SLH-DSA-SHAKE-128s SLH-DSA-SHA2-128s; do
  for op in keygen sign verify; do
    # | alg | op | sw | iters | ticks | stack | ok |
    grep -Eq "^\| $alg +\| $op +\| sw +\| +[1-9][0-9]* \| +[1-9][0-9]* \| +[1-9][0-9]* \| ok +\|$" "$log" \
      || fail "no valid table row for $alg $op"
    rows=$((rows + 1))
  done
done
for label in 'ML-DSA-87 sign' 'SLH-DSA-SHAKE-256f sign' 'ML-DSA-44 sign'; do
  grep -Eq "^stack: $label +peak [1-9][0-9]* B" "$log" || fail "no stack line for $label"
done
grep -Eq '^probe: PL configured: .*; ML-DSA engine: .*; SLH-DSA engine: ' "$log" \
  || fail "no probe line with both engines"
# QEMU has no PL: no engine, and the application says so.
grep -qx 'bench: no ML-DSA engine found: no engine rows' "$log" || fail "no 'no ML-DSA engine' line"
grep -qx 'bench: no SLH-DSA engine found: no engine rows' "$log" || fail "no 'no SLH-DSA engine' line"
grep -q '| engine ' "$log" && fail "engine rows without a PL"
echo "20-ps-app: $rows table rows and 3 stack lines checked"

start=$(date +%s)
set +e
PS_APP_TIMEOUT=600 bash scripts/qemu.sh --corrupt-selftest | tr -d '\r' > "$log.bad"
status=${PIPESTATUS[0]}
set -e
cat "$log.bad"
echo "20-ps-app: corrupted-vector run took $(( $(date +%s) - start )) s, status $status"
[ "$status" = 1 ] || fail "the corrupted-vector build exited with $status, expected 1"
grep -Eq '^selftest ML-DSA-44 +sigGen +tc[0-9]+ +FAIL \(signature differs\)$' "$log.bad" \
  || fail "the corrupted case was not reported"
grep -qx 'selftest: 19 passed, 1 failed' "$log.bad" || fail "expected exactly one failed self-test"
echo "20-ps-app: 2 passed, 0 failed"
