#!/usr/bin/env bash
# Times `nimseq sub scan --c-max C` under normal and misère play on each backend, rows written
# to a file, in one run on one machine (the best of ROUNDS), and checks the rows: every
# backend's misère file byte-identical, and its first seven columns the normal file.
#
#   bash scripts/misere-scan-bench.sh 200
#   BACKENDS=cpu ROUNDS=1 bash scripts/misere-scan-bench.sh 60
set -uo pipefail
C="${1:-200}"
NIMSEQ="${NIMSEQ:-./target/release/nimseq}"
BACKENDS="${BACKENDS:-cpu gpu}"
ROUNDS="${ROUNDS:-3}"
OUT="${OUT:-/tmp/misere-scan-bench}"
mkdir -p "$OUT"
echo "sub scan --c-max $C on $(nproc) cores, $(date -u +%F), best of $ROUNDS"
fail=0
for backend in $BACKENDS; do
    for play in normal misere; do
        best=""
        for _ in $(seq "$ROUNDS"); do
            rows="$OUT/$backend-$play.csv"
            rm -f "$rows" "$rows.done" "$rows.checkpoint"
            start=$(date +%s.%N)
            "$NIMSEQ" sub scan --c-max "$C" --play "$play" --backend "$backend" \
                --verify-sample 0 --out "$rows" 2>"$OUT/$backend-$play.err"
            rc=$?
            end=$(date +%s.%N)
            [ "$rc" = 0 ] || { echo "$backend $play: rc $rc"; fail=1; break; }
            t=$(echo "$end - $start" | bc)
            if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
        done
        printf '%-4s %-7s %8.3f s  %s\n' "$backend" "$play" "${best:-0}" \
            "$(head -1 "$OUT/$backend-$play.err")"
    done
    if cut -d, -f1-7 "$OUT/$backend-misere.csv" | cmp -s - "$OUT/$backend-normal.csv"; then
        echo "$backend: the misère rows' first seven columns are the normal rows"
    else
        echo "$backend: the misère rows' normal columns DIFFER"
        fail=1
    fi
done
first=$(echo "$BACKENDS" | awk '{print $1}')
for backend in $BACKENDS; do
    if cmp -s "$OUT/$first-misere.csv" "$OUT/$backend-misere.csv"; then
        echo "$backend misère rows: identical to $first's"
    else
        echo "$backend misère rows: DIFFER from $first's"
        fail=1
    fi
done
exit $fail
