#!/usr/bin/env bash
# GPU benchmark for a lent device machine (see shared/notes/gpu-device.md): prints the adapter,
# times the subtraction scan on the GPU and the CPU path in one run, then pushes the k-cross
# table for k = 3..13 as far as the card allows in a few minutes, and the 3-leg spider table
# (Game of Arrows) as far as the card allows, reporting any value not seen with legs <= 120;
# keeps full logs under $OUT.
#
# Prepare here (the device has no Rust toolchain and no network):
#   echo /.dev/ >> .git/info/exclude; mkdir -p .dev
#   cargo build --release && cp target/release/nimseq .dev/
#   cc -O2 -o .dev/sub_scan_naive ../shared/peers/sub_scan_naive.c
#   plus the Vulkan loader debs in .gl/ (recipe in the device tool's README)
# Then run on the device with carry [".dev", ".gl"]:
#   bash scripts/gpu-bench.sh 1000 240 180   # c-max of the big scan, seconds of k-cross and
#                                            # of spider pushing
set -uo pipefail
C_MAX="${1:-1000}"
KCROSS_SECONDS="${2:-240}"
SPIDER_SECONDS="${3:-180}"
OUT="${OUT:-/tmp/gpu-bench}"
mkdir -p "$OUT"
for f in .gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
ldconfig
export XDG_RUNTIME_DIR="$(mktemp -d)"
if ! ./.dev/nimseq sub scan --c-max 10 --backend gpu >/dev/null 2>"$OUT/probe.log"; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"
# The small run first: a quick check that GPU, CPU and peer agree.
./.dev/nimseq bench sub --c-max 200 --peer ./.dev/sub_scan_naive 2>&1 | tee "$OUT/bench200.txt"
# The big one: GPU against the CPU path (the peer would take hours here).
./.dev/nimseq bench sub --c-max "$C_MAX" 2>&1 | tee "$OUT/bench$C_MAX.txt"
# k-cross: G([n]) on the GPU for growing n, each k in its share of the time until a run fails
# (memory, bindings); the CPU path on the device at n = 27 for the ratio.
./.dev/nimseq bench kcross --k 6 --n-max 27 2>&1 | tee "$OUT/kcross-bench.txt"
for k in 3 4 5 6 7 8 9 10 11 12 13; do
    end=$((SECONDS + KCROSS_SECONDS / 11))
    if [ "$k" = 3 ]; then n=50; else n=30; fi
    while [ $SECONDS -lt $end ]; do
        start=$SECONDS
        if ! timeout $((end - SECONDS)) ./.dev/nimseq kcross seq --k "$k" --n-max "$n" --backend gpu \
            --mem-budget 100G >"$OUT/kcross-k$k-n$n.csv" 2>"$OUT/kcross-k$k-n$n.err"; then
            echo "k=$k n=$n: stopped ($(tail -1 "$OUT/kcross-k$k-n$n.err"))" | tee -a "$OUT/kcross.txt"
            break
        fi
        echo "k=$k n=$n: $((SECONDS - start)) s" | tee -a "$OUT/kcross.txt"
        n=$((n + 1))
    done
done
# Spiders: GPU against the CPU path at legs <= 120, then growing leg bounds on the GPU until
# the time is spent or the table no longer fits one binding. Values seen with legs <= 120
# (spec arrows.md 2.4): anything else is new.
./.dev/nimseq bench arrows --leg-max 120 2>&1 | tee "$OUT/spiders-bench.txt"
known=" 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 26 27 28 30 32 "
end=$((SECONDS + SPIDER_SECONDS))
for h in 160 200 240 280 320 360 400 450 500; do
    [ $SECONDS -lt $end ] || break
    start=$SECONDS
    if ! timeout $((end - SECONDS)) ./.dev/nimseq arrows spiders --leg-max "$h" --backend gpu \
        --mem-budget 100G >/dev/null 2>"$OUT/spiders-$h.txt"; then
        echo "legs <= $h: stopped ($(tail -1 "$OUT/spiders-$h.txt"))" | tee -a "$OUT/spiders.txt"
        break
    fi
    echo "legs <= $h: $((SECONDS - start)) s" | tee -a "$OUT/spiders.txt"
    for g in $(grep '^values' "$OUT/spiders-$h.txt" | cut -c14-); do
        case "$known" in *" $g "*) ;; *) grep "^g = $g " "$OUT/spiders-$h.txt" | sed "s/^/NEW (legs <= $h): /" | tee -a "$OUT/spiders.txt" ;; esac
    done
done
echo "logs in $OUT"
