#!/usr/bin/env bash
# GPU benchmark for a lent device machine (the device tool), one call of under 9 minutes: the
# adapter, then every GPU path against the CPU path in the same run, each phase bounded by a
# timeout so that one slow phase cannot cost the others:
#   1. subtraction scans of triples (with the naive peer at c <= 200, then a large c), of 4 and
#      of 5 moves, misère rows against normal ones, and a push past the large scan on the GPU
#      alone;
#   2. k-cross: one table on every backend, the issue-19 targets (tables over many bindings,
#      64-bit indices), then G([n]) for k = 3..13 for growing n while the time lasts;
#   3. the 3-leg spider table (Game of Arrows) on every backend, then growing leg bounds on the
#      GPU, reporting any value not seen with legs <= 600;
#   4. octal scans of every code of 3 and of 4 digits.
#
# Prepare here (the device has no Rust toolchain and no network):
#   echo /.dev/ >> .git/info/exclude; mkdir -p .dev
#   cargo build --release && cp target/release/nimseq .dev/
#   cc -O2 -o .dev/sub_scan_naive tests/data/sub_scan_naive.c
#   plus the Vulkan loader debs in .gl/ (recipe in the device tool's README)
# Then run on the device with carry [".dev", ".gl"]:
#   bash scripts/gpu-bench.sh
# The phases' limits add up to 510 s. `scripts/gpu-bench.sh --toy` runs every phase at toy
# sizes with this checkout's build (CI does, on lavapipe, so that the script cannot rot): there
# any phase that fails makes the script fail.
# The tool brings back at most 8 files from $OUT, so the logs go to one archive, refreshed after
# each phase (a run killed at its limit still returns what was done); stdout has the summary.
set -uo pipefail
cd "$(dirname "$0")/.."

TOY=false
if [ "${1:-}" = --toy ]; then
    TOY=true
fi
OUT="${OUT:-/tmp/gpu-bench}"
LOG="$(mktemp -d)"
mkdir -p "$OUT"
save() { tar czf "$OUT/logs.tar.gz" -C "$LOG" .; }
FAILED=()

if $TOY; then
    NIMSEQ="${NIMSEQ:-target/release/nimseq}"
    PEER="$LOG/sub_scan_naive"
    command -v cc >/dev/null && cc -O2 -o "$PEER" tests/data/sub_scan_naive.c
    # The sizes of each phase, as small as still runs every path.
    SMALL_C=30 BIG_C=40 PUSH_C=45 K4_D=12 K5_D=10
    KCROSS_BENCH="--k 3 --n-max 10" TARGETS="4 12|3 14" KCROSS_KS="3 4" KCROSS_N=8 KCROSS_N_MAX=10
    SPIDER_BENCH=8 SPIDER_LEGS="10 12" OCTAL="1 1024|2 1024" MEM=1G
else
    NIMSEQ="${NIMSEQ:-./.dev/nimseq}"
    PEER=./.dev/sub_scan_naive
    for f in .gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
    ldconfig
    SMALL_C=200 BIG_C=1000 PUSH_C=1500 K4_D=80 K5_D=50
    KCROSS_BENCH="--k 6 --n-max 30" TARGETS="13 36|3 60" KCROSS_KS="3 4 5 6 7 8 9 10 11 12 13"
    KCROSS_N=30 KCROSS_N_MAX=1000 SPIDER_BENCH=120 SPIDER_LEGS="200 320 450 600 700 800 900 1000"
    OCTAL="3 65536|4 16384" MEM=100G
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
if ! $TOY && ! "$NIMSEQ" sub scan --c-max 10 --backend gpu >/dev/null 2>"$LOG/probe.log"; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$LOG/gpu.txt"
fi
nproc | sed 's/^/cpus: /'

# phase NAME SECONDS COMMAND...: runs COMMAND within SECONDS, its output to the log and stdout;
# a failure or a timeout is recorded.
phase() {
    local name="$1" seconds="$2"
    shift 2
    local start=$SECONDS
    timeout "$seconds" "$@" 2>&1 | tee "$LOG/$name.txt"
    local status=${PIPESTATUS[0]}
    echo "== $name: exit $status, $((SECONDS - start)) s" | tee -a "$LOG/summary.txt"
    [ "$status" = 0 ] || FAILED+=("$name (exit $status)")
    save
}

# 1. Subtraction scans. The small run first, with the peer: GPU, CPU and peer agree.
peer=()
[ -x "$PEER" ] && peer=(--peer "$PEER")
phase sub-small 40 "$NIMSEQ" bench sub --c-max "$SMALL_C" "${peer[@]}"
phase sub-big 100 "$NIMSEQ" bench sub --c-max "$BIG_C"
phase sub-moves4 30 "$NIMSEQ" bench sub --moves 4 --max-move "$K4_D"
phase sub-moves5 30 "$NIMSEQ" bench sub --moves 5 --max-move "$K5_D"
# Past the big scan on the GPU alone, rows to a resumable file: how far the time allows.
rm -f "$LOG/push.csv"*
# Misère rows against normal ones, each backend (rows identical, the misère scan no slower).
phase sub-misere 20 env NIMSEQ="$NIMSEQ" OUT="$LOG/misere" ROUNDS=1 \
    bash scripts/misere-scan-bench.sh "$SMALL_C"
phase sub-push 30 "$NIMSEQ" sub scan --c-min $((BIG_C + 1)) --c-max "$PUSH_C" --backend gpu \
    --out "$LOG/push.csv"
echo "push: $(($(wc -l <"$LOG/push.csv") - 1)) rows of $((BIG_C + 1)) <= c <= $PUSH_C" | tee -a "$LOG/summary.txt"

# 2. k-cross: one table on every backend, then the targets, then growing n for each k.
phase kcross-bench 30 "$NIMSEQ" bench kcross $KCROSS_BENCH
IFS='|' read -ra targets <<<"$TARGETS"
for kn in "${targets[@]}"; do
    set -- $kn
    phase "kcross-k$1-n$2" 30 "$NIMSEQ" kcross seq --k "$1" --n-max "$2" --backend gpu --mem-budget "$MEM"
done
ks=($KCROSS_KS)
end=$((SECONDS + 60))
for k in "${ks[@]}"; do
    stop=$((SECONDS + (end - SECONDS) / ${#ks[@]}))
    n=$KCROSS_N
    [ "$k" = 3 ] && ! $TOY && n=50
    # `timeout 0` would mean no limit: stop with less than a second left.
    while left=$((stop - SECONDS)) && [ $left -ge 1 ] && [ $n -le $KCROSS_N_MAX ]; do
        start=$SECONDS
        timeout $left "$NIMSEQ" kcross seq --k "$k" --n-max "$n" --backend gpu \
            --mem-budget "$MEM" >/dev/null 2>"$LOG/kcross-grow.err"
        status=$?
        if [ $status != 0 ]; then
            [ $status = 124 ] && why="time up" || why="$(tail -1 "$LOG/kcross-grow.err")"
            echo "k=$k n=$n: stopped after $((SECONDS - start)) s ($why)" | tee -a "$LOG/kcross.txt"
            # Out of time or out of card is where growth ends; anything else is a failure.
            [ $status = 124 ] || grep -q "needs .* on the GPU\|over the memory budget" "$LOG/kcross-grow.err" \
                || FAILED+=("kcross k=$k n=$n")
            break
        fi
        echo "k=$k n=$n: $((SECONDS - start)) s: $(grep '^table' "$LOG/kcross-grow.err")" | tee -a "$LOG/kcross.txt"
        n=$((n + 1))
    done
    save
done

# 3. Spiders: every backend at one bound, then growing bounds on the GPU. Values seen with
# legs <= 600 (the CPU's run, results/arrows/): anything else is new.
phase spiders-bench 30 "$NIMSEQ" bench arrows --leg-max "$SPIDER_BENCH"
known=" $(seq -s " " 0 34) 36 37 38 43 44 "
end=$((SECONDS + 30))
for h in $SPIDER_LEGS; do
    left=$((end - SECONDS))
    [ $left -ge 1 ] || break
    start=$SECONDS
    timeout $left "$NIMSEQ" arrows spiders --leg-max "$h" --backend gpu \
        --mem-budget "$MEM" >/dev/null 2>"$LOG/spiders-$h.txt"
    status=$?
    if [ $status != 0 ]; then
        [ $status = 124 ] && why="time up" || why="$(tail -1 "$LOG/spiders-$h.txt")"
        echo "legs <= $h: stopped after $((SECONDS - start)) s ($why)" | tee -a "$LOG/spiders.txt"
        [ $status = 124 ] || grep -q "needs .* on the GPU\|over the memory budget" "$LOG/spiders-$h.txt" \
            || FAILED+=("spiders legs <= $h")
        break
    fi
    echo "legs <= $h: $((SECONDS - start)) s" | tee -a "$LOG/spiders.txt"
    for g in $(grep '^values' "$LOG/spiders-$h.txt" | cut -c14-); do
        case "$known" in *" $g "*) ;; *) grep "^g = $g " "$LOG/spiders-$h.txt" | sed "s/^/NEW (legs <= $h): /" | tee -a "$LOG/spiders.txt" ;; esac
    done
done
save

# 4. Octal scans: GPU against the CPU path in one run, checksums compared.
IFS='|' read -ra octal <<<"$OCTAL"
for dn in "${octal[@]}"; do
    set -- $dn
    phase "octal-d$1-n$2" 30 "$NIMSEQ" bench octal --digits "$1" --n-max "$2"
done
echo "logs in $OUT/logs.tar.gz"
if [ ${#FAILED[@]} -gt 0 ]; then
    printf 'failed: %s\n' "${FAILED[@]}"
    # On the lent GPU every phase is reported and the run goes on; at toy sizes nothing may fail.
    $TOY && exit 1
fi
exit 0
