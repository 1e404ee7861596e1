#!/usr/bin/env bash
# Times `nimseq octal scan --digits D --n-max N` on each backend, then ogsolve (rc2) on the same
# codes to the same n, one after another on one machine, and compares them: the backends' rows
# must be byte-identical, and each row's checksum (ogsolve's, of G(0..N-1)) must be the one
# ogsolve prints for `CODE -n N-1`. Each phase writes its time as it ends, so a run cut short
# keeps what it did; a phase is skipped by leaving its name out of BACKENDS.
#
#   bash scripts/octal-scan-bench.sh 3 65536 /path/to/ogsolve
#   BACKENDS="cpu gpu" bash scripts/octal-scan-bench.sh 3 8192 ""     # no ogsolve
set -uo pipefail
DIGITS="${1:-3}"
N="${2:-65536}"
# An empty third argument skips ogsolve; none means `ogsolve` on the PATH.
OGSOLVE="${3-ogsolve}"
NIMSEQ="${NIMSEQ:-./target/release/nimseq}"
BACKENDS="${BACKENDS:-cpu reference gpu}"
OUT="${OUT:-/tmp/octal-scan-bench}"
mkdir -p "$OUT"
echo "octal scan --digits $DIGITS --n-max $N on $(nproc) cores, $(date -u +%F)"
for backend in $BACKENDS; do
    start=$(date +%s.%N)
    "$NIMSEQ" octal scan --digits "$DIGITS" --n-max "$N" --backend "$backend" \
        >"$OUT/$backend.csv" 2>"$OUT/$backend.err"
    rc=$?
    end=$(date +%s.%N)
    printf '%-10s %9.1f s  rc %s  %s\n' "$backend" "$(echo "$end - $start" | bc)" "$rc" \
        "$(tail -1 "$OUT/$backend.err")"
done
first=$(echo "$BACKENDS" | awk '{print $1}')
for backend in $BACKENDS; do
    if cmp -s "$OUT/$first.csv" "$OUT/$backend.csv"; then
        echo "$backend rows: identical to $first's"
    else
        echo "$backend rows: DIFFER from $first's"
    fi
done
if [ -n "$OGSOLVE" ]; then
    if ! command -v "$OGSOLVE" >/dev/null; then
        echo "ogsolve not found at '$OGSOLVE' (cargo install ogsolve)" >&2
        exit 2
    fi
    start=$(date +%s.%N)
    # nimseq writes codes with a raised point (·07, 4·07); ogsolve reads 0.07 and 4.07.
    tail -n +2 "$OUT/$first.csv" | cut -d, -f1 | while read -r code; do
        ascii=$(printf '%s' "$code" | sed 's/^·/0./; s/·/./')
        sum=$("$OGSOLVE" "$ascii" -n $((N - 1)) -m rc2 | sed -n 's/.*checksum: \([0-9A-Fa-f]*\).*/\1/p')
        printf '%s,0x%08x\n' "$code" "0x$sum"
    done >"$OUT/ogsolve.csv"
    end=$(date +%s.%N)
    printf '%-10s %9.1f s\n' ogsolve "$(echo "$end - $start" | bc)"
    if cmp -s <(tail -n +2 "$OUT/$first.csv" | cut -d, -f1,8) "$OUT/ogsolve.csv"; then
        echo "ogsolve checksums: equal to every row's"
    else
        echo "ogsolve checksums: DIFFER"
    fi
fi
