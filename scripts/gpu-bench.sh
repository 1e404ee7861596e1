#!/usr/bin/env bash
# GPU benchmark for a lent device machine (the device tool): prints the adapter,
# times the subtraction scan on the GPU and the CPU path in one run, then pushes the k-cross
# table for k = 3..13 as far as the card allows in a few minutes, the 3-leg spider table
# (Game of Arrows) as far as the card allows, reporting any value not seen with legs <= 120,
# and the octal scans of every code of 3 and 4 digits on the GPU and the CPU path.
# Every phase is bounded by a timeout, so one slow phase cannot cost the others.
#
# Prepare here (the device has no Rust toolchain and no network):
#   echo /.dev/ >> .git/info/exclude; mkdir -p .dev
#   cargo build --release && cp target/release/nimseq .dev/
#   cc -O2 -o .dev/sub_scan_naive tests/data/sub_scan_naive.c
#   plus the Vulkan loader debs in .gl/ (recipe in the device tool's README)
# Then run on the device with carry [".dev", ".gl"]:
#   bash scripts/gpu-bench.sh 1000 200 150 40 120 1500 200 120
#       # c-max of the big scan and its time limit, seconds of k-cross and of spider pushing,
#       # seconds for a GPU scan past the big one and how far (c-min = c-max of the big one + 1),
#       # seconds of the k-cross targets, seconds of the octal scans
# The tool brings back at most 8 files from $OUT, so the logs go to one archive, refreshed after
# each phase (a run killed at its limit still returns what was done); stdout has the summary.
set -uo pipefail
C_MAX="${1:-1000}"
SCAN_SECONDS="${2:-240}"
KCROSS_SECONDS="${3:-160}"
SPIDER_SECONDS="${4:-40}"
PUSH_SECONDS="${5:-120}"
# Seconds for the two k-cross target runs below, shared equally.
TARGET_SECONDS="${7:-200}"
PUSH_C="${6:-1500}"
OCTAL_SECONDS="${8:-120}"
OUT="${OUT:-/tmp/gpu-bench}"
LOG="$(mktemp -d)"
mkdir -p "$OUT"
save() { tar czf "$OUT/logs.tar.gz" -C "$LOG" .; }
for f in .gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
ldconfig
export XDG_RUNTIME_DIR="$(mktemp -d)"
if ! ./.dev/nimseq sub scan --c-max 10 --backend gpu >/dev/null 2>"$LOG/probe.log"; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$LOG/gpu.txt"
nproc | sed 's/^/cpus: /'
# The small run first: a quick check that GPU, CPU and peer agree.
timeout 60 ./.dev/nimseq bench sub --c-max 200 --peer ./.dev/sub_scan_naive 2>&1 | tee "$LOG/bench200.txt"
save
# The big one: GPU against the CPU path (the peer would take hours here).
timeout "$SCAN_SECONDS" ./.dev/nimseq bench sub --c-max "$C_MAX" 2>&1 | tee "$LOG/bench$C_MAX.txt"
save
# Past the big scan on the GPU alone, rows to a resumable file: how far the time allows.
start=$SECONDS
timeout "$PUSH_SECONDS" ./.dev/nimseq sub scan --c-min $((C_MAX + 1)) --c-max "$PUSH_C" \
    --backend gpu --out /tmp/push.csv 2>"$LOG/push.err"
echo "scan $((C_MAX + 1)) <= c <= $PUSH_C on the GPU: exit $?, $((SECONDS - start)) s, \
$(($(wc -l </tmp/push.csv) - 1)) rows" | tee "$LOG/push.txt"
tail -3 "$LOG/push.err" | tee -a "$LOG/push.txt"
save
# k-cross: GPU against the CPU path on one table, then G([n]) on the GPU for growing n, each k in
# its share of the time until a run fails (memory, bindings) or the time is spent.
timeout 40 ./.dev/nimseq bench kcross --k 6 --n-max 30 2>&1 | tee "$LOG/kcross-bench.txt"
save
# Issue 19's targets first (tables over many bindings, 64-bit indices): k = 13 to n = 36
# (68 GB) and k = 3 to n = 60, each its stderr table line (bindings used) or its refusal.
for kn in "13 36" "3 60"; do
    set -- $kn
    timeout $((TARGET_SECONDS / 2)) ./.dev/nimseq kcross seq --k "$1" --n-max "$2" --backend gpu --mem-budget 130G \
        >"$LOG/kcross-k$1-n$2.csv" 2>"$LOG/kcross-k$1-n$2.err"
    echo "k=$1 n=$2: exit $?: $(grep -E '^(table|error)' "$LOG/kcross-k$1-n$2.err")" | tee -a "$LOG/kcross.txt"
    save
done
for k in 3 4 5 6 7 8 9 10 11 12 13; do
    end=$((SECONDS + KCROSS_SECONDS / 11))
    if [ "$k" = 3 ]; then n=50; else n=30; fi
    # `timeout 0` would mean no limit: stop with less than a second left.
    while left=$((end - SECONDS)) && [ $left -ge 1 ]; do
        start=$SECONDS
        timeout $left ./.dev/nimseq kcross seq --k "$k" --n-max "$n" --backend gpu \
            --mem-budget 100G >"$LOG/kcross-k$k-n$n.csv" 2>"$LOG/kcross-k$k-n$n.err"
        status=$?
        if [ $status != 0 ]; then
            [ $status = 124 ] && why="time up" || why="$(tail -1 "$LOG/kcross-k$k-n$n.err")"
            echo "k=$k n=$n: stopped after $((SECONDS - start)) s ($why)" | tee -a "$LOG/kcross.txt"
            break
        fi
        echo "k=$k n=$n: $((SECONDS - start)) s: $(grep '^table' "$LOG/kcross-k$k-n$n.err")" | tee -a "$LOG/kcross.txt"
        n=$((n + 1))
    done
    save
done
# Spiders: GPU against the CPU path at legs <= 120, then growing leg bounds on the GPU until
# the time is spent or the table no longer fits the card. Values seen with legs <= 600 (the
# CPU's run, results/arrows/): anything else is new.
timeout 40 ./.dev/nimseq bench arrows --leg-max 120 2>&1 | tee "$LOG/spiders-bench.txt"
known=" $(seq -s " " 0 34) 36 37 38 43 44 "
end=$((SECONDS + SPIDER_SECONDS))
for h in 200 320 450 600 700 800 900 1000; do
    left=$((end - SECONDS))
    [ $left -ge 1 ] || break
    start=$SECONDS
    timeout $left ./.dev/nimseq arrows spiders --leg-max "$h" --backend gpu \
        --mem-budget 100G >/dev/null 2>"$LOG/spiders-$h.txt"
    status=$?
    if [ $status != 0 ]; then
        [ $status = 124 ] && why="time up" || why="$(tail -1 "$LOG/spiders-$h.txt")"
        echo "legs <= $h: stopped after $((SECONDS - start)) s ($why)" | tee -a "$LOG/spiders.txt"
        break
    fi
    echo "legs <= $h: $((SECONDS - start)) s" | tee -a "$LOG/spiders.txt"
    for g in $(grep '^values' "$LOG/spiders-$h.txt" | cut -c14-); do
        case "$known" in *" $g "*) ;; *) grep "^g = $g " "$LOG/spiders-$h.txt" | sed "s/^/NEW (legs <= $h): /" | tee -a "$LOG/spiders.txt" ;; esac
    done
done
save
# Octal games: every code of 3 digits to 2^16, then of 4 digits to 2^14, each on the GPU and
# the CPU path in one run, checksums compared (the CPU's 2-core figures are in BENCHMARKS.md).
for dn in "3 65536" "4 16384"; do
    set -- $dn
    timeout $((OCTAL_SECONDS / 2)) ./.dev/nimseq bench octal --digits "$1" --n-max "$2" 2>&1 \
        | tee "$LOG/octal-d$1-n$2.txt"
    save
done
echo "logs in $OUT/logs.tar.gz"
