#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests and trials: slurmctld and slurmd on
# localhost with munge, every file in one directory, no systemd and no cgroups (containers
# have none to give).
#
#     scripts/slurm/local-cluster.sh start DIR   # prints: export SLURM_CONF=DIR/slurm.conf
#     scripts/slurm/local-cluster.sh stop DIR    # stops the daemons it started, by their PIDs
#
# Needs root and Debian's slurm-wlm and munge packages
# (apt-get install --no-install-recommends slurm-wlm munge).
set -euo pipefail
usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
conf="$dir/slurm.conf"

wait_for() { # what, log, seconds, command...
    local what=$1 log=$2 seconds=$3
    shift 3
    for _ in $(seq $((seconds * 10))); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.1
    done
    echo "$0: $what did not come up within $seconds s; the end of $log:" >&2
    tail -n 5 "$log" >&2 || true
    return 1
}

# A TCP port on localhost that nothing listens on, from a range away from Slurm's own
# 6817-6818, so that the cluster runs beside a system Slurm (or another of these).
free_port() {
    local port
    for _ in $(seq 100); do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    echo "$0: no free port found" >&2
    return 1
}

stop_pid() { # file
    [ -f "$1" ] || return 0
    local pid
    pid=$(cat "$1")
    if kill "$pid" 2>/dev/null; then
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$1"
}

stop_all() {
    stop_pid "$dir/d.pid"
    stop_pid "$dir/ctld.pid"
    stop_pid "$dir/munge-run/munged.pid"
}

case "$action" in
start)
    for tool in munged slurmctld slurmd; do
        command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || {
            echo "$0: $tool not found: install slurm-wlm and munge" >&2; exit 1; }
    done
    [ "$(id -u)" = 0 ] || { echo "$0: needs root (munge and slurmd run as system users)" >&2; exit 1; }
    host=$(hostname -s)
    mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) - 512 }' /proc/meminfo)
    # Whatever fails from here stops what was started.
    trap 'stop_all' EXIT
    ctld_port=$(free_port)
    d_port=$(free_port)
    mkdir -p "$dir/ctld" "$dir/d" "$dir/munge"
    chown slurm: "$dir/ctld" 2>/dev/null || true
    cat >"$conf" <<CONF
ClusterName=nimseq
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/d
SlurmctldPidFile=$dir/ctld.pid
SlurmdPidFile=$dir/d.pid
SlurmctldLogFile=$dir/ctld.log
SlurmdLogFile=$dir/d.log
ReturnToService=2
MailProg=/bin/true
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    # munge: its own socket and key in DIR, so that a system munged is left alone.
    key="$dir/munge/munge.key"
    [ -f "$key" ] || dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
    mkdir -p "$dir/munge-run"
    chown -R munge: "$dir/munge" "$dir/munge-run"
    chmod 700 "$dir/munge"
    chmod 755 "$dir/munge-run"
    chmod 400 "$key"
    socket="$dir/munge-run/munge.socket"
    runuser -u munge -- /usr/sbin/munged --key-file="$key" --socket="$socket" \
        --pid-file="$dir/munge-run/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed"
    wait_for munged "$dir/munge/munged.log" 10 sh -c "munge -S '$socket' -n | unmunge -S '$socket'"
    cat >>"$conf" <<CONF
AuthInfo=socket=$socket,cred_expire=5
CONF
    export SLURM_CONF="$conf"
    /usr/sbin/slurmctld -f "$conf"
    wait_for slurmctld "$dir/ctld.log" 30 sh -c "scontrol ping | grep -q UP"
    /usr/sbin/slurmd -f "$conf"
    wait_for slurmd "$dir/d.log" 30 sh -c "sinfo -h -o %T | grep -qx idle"
    trap - EXIT
    echo "export SLURM_CONF=$conf"
    ;;
stop)
    stop_all
    ;;
*) usage ;;
esac
