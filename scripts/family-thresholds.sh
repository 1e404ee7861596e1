#!/usr/bin/env bash
# z0(x, y) for the spider families S(x, y, z) of Conjecture 7.4 / Theorem 8.12 (docs/arrows.md,
# "Spider families"): every pair 1 <= x <= y <= 12 and (2, y) for 13 <= y <= 40, z <= Z_MAX, one
# `nimseq arrows family` per pair on all cores. Prints CSV: x,y,z_max,kind,from,period where
# kind is parity (g = z mod 2 from z = from), period (least period from z = from) or none.
#   bash scripts/family-thresholds.sh 600 > results/arrows/family-thresholds-z600.csv
set -euo pipefail
Z_MAX="${1:-600}"
NIMSEQ="${NIMSEQ:-./target/release/nimseq}"
pairs() {
    for x in $(seq 1 12); do for y in $(seq "$x" 12); do echo "$x $y"; done; done
    for y in $(seq 13 40); do echo "2 $y"; done
}
one() {
    local x=$1 y=$2 line
    line=$("$NIMSEQ" arrows family --x "$x" --y "$y" --z-max "$Z_MAX" 2>&1 >/dev/null | tail -1)
    case "$line" in
        *"g = z mod 2 from z = "*) from=${line##*from z = }; echo "$x,$y,$Z_MAX,parity,${from%% *}," ;;
        *"period "*) p=${line##*period }; from=${line##*from z = }
            echo "$x,$y,$Z_MAX,period,${from%% *},${p%% *}" ;;
        *) echo "$x,$y,$Z_MAX,none,," ;;
    esac
}
export -f one
export NIMSEQ Z_MAX
echo "x,y,z_max,kind,from,period"
pairs | xargs -P "$(nproc)" -n 2 bash -c 'one "$0" "$1"' | sort -t, -k1,1n -k2,2n
