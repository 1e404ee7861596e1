#!/usr/bin/env bash
# Submits a nimseq scan or survey to Slurm as a job array of shards and a merge job that runs
# once every shard has ended (it refuses one that did not finish); prints the two job ids.
#
#     scripts/slurm/submit.sh sub scan --c-max 1000 --parts 64 --out scan-c1000.csv
#
# Its own flags, taken out of the command line:
#   --parts N        shards, one array task each (default 16)
#   --time T         time limit of each shard (Slurm's format; default 4:00:00)
#   --threads T      CPUs per shard and for the merge job (default 2)
#   --partition P, --account A, --qos Q   passed to sbatch
# It reads these of nimseq's flags:
#   --out FILE       the merged result (default nimseq-COMMAND.csv); the shards go to
#                    FILE.parts/, their logs to FILE.parts/logs/
#   --json FILE      (survey) written by the merge job
#   --mem-budget B   asked of Slurm as --mem, with 512 MiB for the rest of the process; without
#                    it each shard gets --mem 4G and --mem-budget 3584M
#   --backend gpu    asks each shard for a GPU (--gres=gpu:1)
#   --format F       the shards' format (else from the extension of --out)
# The shards run the nimseq on PATH, or $NIMSEQ.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
parts=16 time=4:00:00 threads=2 out="" json="" budget="" gpu=false format=""
sbatch_extra=() args=()
need() { [ $# -ge 2 ] || { echo "$0: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    --parts) need "$@"; parts=$2; shift 2 ;;
    --time) need "$@"; time=$2; shift 2 ;;
    --threads) need "$@"; threads=$2; shift 2 ;;
    --partition|--account|--qos) need "$@"; sbatch_extra+=("$1=$2"); shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --json) need "$@"; json=$2; shift 2 ;;
    --mem-budget) need "$@"; budget=$2; args+=("$1" "$2"); shift 2 ;;
    --backend) need "$@"; [ "$2" = gpu ] && gpu=true; args+=("$1" "$2"); shift 2 ;;
    --format) need "$@"; format=$2; args+=("$1" "$2"); shift 2 ;;
    --shard|--resume) echo "$0: $1 is set per shard by the array; leave it out" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
    esac
done
case "$parts" in ''|*[!0-9]*|0) echo "$0: --parts must be a positive number, got '$parts'" >&2; exit 2 ;; esac
[ ${#args[@]} -ge 2 ] || { echo "usage: $0 sub scan|sub survey|octal scan FLAGS... --parts N --out FILE" >&2; exit 2; }
nimseq=${NIMSEQ:-$(command -v nimseq || true)}
[ -x "$nimseq" ] || { echo "$0: no nimseq on PATH; install it or set NIMSEQ" >&2; exit 2; }
export NIMSEQ=$nimseq
[ -n "$out" ] || out="nimseq-${args[0]}-${args[1]}.csv"
case "${format:-${out##*.}}" in
    jsonl) ext=jsonl ;;
    parquet) ext=parquet ;;
    *) ext=csv ;;
esac
if [ -e "$out" ]; then echo "$0: '$out' exists; merge writes a new file" >&2; exit 2; fi
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
parts_dir=$out.parts
mkdir -p "$parts_dir/logs"
# Memory: the budget nimseq keeps to, and what Slurm is asked for on top of it.
to_mib() { # 16G, 512M, 1.5GiB, 1000000 -> MiB, rounded up
    awk -v s="$1" 'BEGIN {
        n = s + 0; u = toupper(substr(s, match(s, /[A-Za-z]/)))
        sub(/I?B$/, "", u)
        f = (u == "K") ? 1 / 1024 : (u == "M") ? 1 : (u == "G") ? 1024 : (u == "T") ? 1048576 : 1 / 1048576
        if (u != "" && u != "K" && u != "M" && u != "G" && u != "T") exit 1
        m = n * f; print (m == int(m)) ? m : int(m) + 1 }'
}
if [ -n "$budget" ]; then
    mem_mib=$(( $(to_mib "$budget") + 512 )) || { echo "$0: bad --mem-budget '$budget'" >&2; exit 2; }
else
    mem_mib=4096
    args+=(--mem-budget 3584M)
fi
common=(--parsable --time="$time" "${sbatch_extra[@]}")
shard=(--array="1-$parts" --cpus-per-task="$threads" --mem="${mem_mib}M"
       --output="$parts_dir/logs/shard-%a.out")
$gpu && shard+=(--gres=gpu:1)
array_id=$(sbatch "${common[@]}" "${shard[@]}" "$here/shard.sbatch" "$parts_dir" "$ext" "${args[@]}")
merge_args=()
[ -n "$json" ] && merge_args+=(--json "$json")
merge_id=$(sbatch "${common[@]}" --dependency="afterany:$array_id" --cpus-per-task="$threads" --mem=1G \
    --output="$parts_dir/logs/merge.out" \
    "$here/merge.sbatch" "$parts_dir" "$ext" "$out" "${merge_args[@]}")
echo "shards: job $array_id (array 1-$parts), output $parts_dir/"
echo "merge:  job $merge_id, once every shard has ended (it checks each one finished), into $out"
echo "logs:   $parts_dir/logs/"
