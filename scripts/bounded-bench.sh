#!/usr/bin/env bash
# Times `nimseq octal stats CODE --n-max N` holding every value and as a bounded run
# (`--bounded --mem-budget B`), one after the other, with each one's peak resident memory, and
# checks that they print the same (but the line that says what the bounded run held).
#
#   bash scripts/bounded-bench.sh 0.6 67108864 16M [whole|bounded|both]
set -uo pipefail
CODE="${1:?code}"
N="${2:?n-max}"
BUDGET="${3:?memory budget of the bounded run}"
RUNS="${4:-both}"
NIMSEQ="${NIMSEQ:-./target/release/nimseq}"
OUT="${OUT:-/tmp/bounded-bench}"
mkdir -p "$OUT"
echo "octal stats $CODE --n-max $N on $(nproc) cores, $(date -u +%F), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
run() {
    local name="$1"
    shift
    /usr/bin/time -f "%e %M" -o "$OUT/$name.time" "$NIMSEQ" octal stats "$CODE" --n-max "$N" "$@" \
        >"$OUT/$name.txt" 2>"$OUT/$name.err"
    local rc=$?
    read -r secs kib <"$OUT/$name.time"
    printf '%-8s %8.1f s  %8.1f MB peak  rc %s  %s\n' "$name" "$secs" "$(echo "$kib / 1024" | bc -l)" \
        "$rc" "$(grep -m1 -E '^(held|error)' "$OUT/$name.txt" "$OUT/$name.err" | cut -d: -f2-)"
}
[ "$RUNS" != bounded ] && run whole
[ "$RUNS" != whole ] && run bounded --bounded --mem-budget "$BUDGET"
if [ "$RUNS" = both ]; then
    if diff <(cat "$OUT/whole.txt") <(grep -v '^held ' "$OUT/bounded.txt") >/dev/null; then
        echo "same output: $(grep -m1 '^checksum ' "$OUT/whole.txt")"
    else
        echo "OUTPUTS DIFFER"
        exit 1
    fi
fi
