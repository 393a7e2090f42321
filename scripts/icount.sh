#!/usr/bin/env bash
# Instruction counts of ML-DSA keygen/sign/verify, ours vs fips204, under
# valgrind's callgrind: 16 operations per figure (the criterion bench's
# message cycle), counted only inside `measured_region` of
# pqc/benches/mldsa_icount.rs. Counts do not depend on machine load, so the
# ratios repeat run to run; they are instructions, not time.
#
# Usage: bash scripts/icount.sh [sets...]   (default: 44 65 87)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "icount: valgrind is not installed (scripts/setup.sh installs it)" >&2; exit 1; }

bin=$(cargo bench -p pqc --bench mldsa_icount --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "mldsa_icount" and m.get("executable"):
        print(m["executable"])')
[ -x "$bin" ] || { echo "icount: could not build the mldsa_icount bench" >&2; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
    valgrind --tool=callgrind --toggle-collect='*measured_region*' \
        --callgrind-out-file="$out/cg" "$bin" "$@" >/dev/null 2>"$out/log" ||
        { cat "$out/log" >&2; exit 1; }
    sed -n 's/^totals: //p' "$out/cg"
}

echo "| set | op | ours (instructions / op) | fips204 | ours/fips204 |"
echo "|---|---|---:|---:|---:|"
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(44 65 87)
for set in "${sets[@]}"; do
    for op in keygen sign verify; do
        ours=$(count ours "$set" "$op")
        theirs=$(count fips204 "$set" "$op")
        python3 -c "o, t = $ours / 16, $theirs / 16; print(f'| ML-DSA-$set | $op | {o:,.0f} | {t:,.0f} | {o / t:.3f} |')"
    done
done
