#!/usr/bin/env bash
# GPU benchmark for a lent device machine (see shared/notes/gpu-device.md): prints the adapter,
# times the subtraction scan on the GPU and the CPU path in one run, then pushes the k-cross
# table for k = 3..13 as far as the card allows in a few minutes; keeps full logs under $OUT.
#
# Prepare here (the device has no Rust toolchain and no network):
#   echo /.dev/ >> .git/info/exclude; mkdir -p .dev
#   cargo build --release && cp target/release/nimseq .dev/
#   cc -O2 -o .dev/sub_scan_naive ../shared/peers/sub_scan_naive.c
#   plus the Vulkan loader debs in .gl/ (recipe in the device tool's README)
# Then run on the device with carry [".dev", ".gl"]:
#   bash scripts/gpu-bench.sh 1000 240   # c-max of the big scan, seconds of k-cross pushing
set -uo pipefail
C_MAX="${1:-1000}"
KCROSS_SECONDS="${2:-240}"
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
echo "logs in $OUT"
