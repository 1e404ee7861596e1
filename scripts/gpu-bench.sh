#!/usr/bin/env bash
# GPU benchmark for a lent device machine (see shared/notes/gpu-device.md): prints the adapter,
# times the subtraction scan on the GPU and the CPU path in one run, keeps full logs under $OUT.
#
# Prepare here (the device has no Rust toolchain and no network):
#   echo /.dev/ >> .git/info/exclude; mkdir -p .dev
#   cargo build --release && cp target/release/nimseq .dev/
#   cc -O2 -o .dev/sub_scan_naive ../shared/peers/sub_scan_naive.c
#   plus the Vulkan loader debs in .gl/ (recipe in the device tool's README)
# Then run on the device with carry [".dev", ".gl"]:
#   bash scripts/gpu-bench.sh 1000
set -uo pipefail
C_MAX="${1:-1000}"
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
echo "logs in $OUT"
