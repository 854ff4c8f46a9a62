#!/usr/bin/env bash
# A real single-node Slurm on this machine, for the cluster tests (tests/slurm.rs) and for trying
# the sbatch files (loop/selfplay-array.sbatch, eval/eval-array.sbatch) by hand.
#
#   scripts/slurm-local.sh start    install (when missing) and start munge, slurmctld and slurmd;
#                                   returns once `sinfo` shows the node idle
#   scripts/slurm-local.sh stop     stop the daemons it started (its own jobs still running are
#                                   cancelled)
#   scripts/slurm-local.sh status   whether they run, and `sinfo`
#   scripts/slurm-local.sh conf     print the configuration's path (for SLURM_CONF)
#
# Run as root on Debian or Ubuntu (Debian bookworm has Slurm 22.05): the packages come from
# apt-get, the daemons are started directly (no systemd). The node has this machine's CPUs
# (nproc) and memory; processes are tracked through /proc (proctrack/linuxproc, task/none), so
# no cgroup is needed, and there is no accounting. Both commands can be run again: `start`
# leaves its running daemons alone and `stop` stops only what it started.
#
# It acts only on what it started. Everything it writes is under its own state directory
# (configuration, PID files, logs, Slurm's state); the machine's /etc/slurm is not touched, so
# the Slurm commands need `SLURM_CONF=$(scripts/slurm-local.sh conf)` (the script sets it for
# itself). Each daemon it starts is recorded with its PID and start time, and signalled only
# while /proc shows that same process. A munged that already answers is used as it is and never
# stopped. Beside a Slurm it did not start (a slurmctld or slurmd running), it refuses to start.
#
# Environment: SLURM_LOCAL_STATE (its state directory, /var/lib/fanorona-slurm-local),
# SLURM_LOCAL_CONF (where the configuration is written, STATE/slurm.conf), SLURM_LOCAL_WAIT
# (seconds to wait for the node, 60).
set -euo pipefail

STATE=${SLURM_LOCAL_STATE:-/var/lib/fanorona-slurm-local}
CONF=${SLURM_LOCAL_CONF:-$STATE/slurm.conf}
WAIT=${SLURM_LOCAL_WAIT:-60}
LOGDIR=$STATE/log
MUNGE_KEY=/etc/munge/munge.key
MUNGE_SOCKET_DIR=/run/munge
CTLD_PID=$STATE/slurmctld.pid
SLURMD_PID=$STATE/slurmd.pid
PACKAGES=(munge slurmctld slurmd slurm-client)
export SLURM_CONF=$CONF

say() { echo "slurm-local: $*" >&2; }
die() {
    say "error: $*"
    exit 1
}

need_root() {
    [ "$(id -u)" -eq 0 ] || die "run as root (it installs packages and starts daemons)"
}

# The start time of process $1 (field 22 of /proc/PID/stat, in clock ticks since boot): with the
# PID, the process's identity (a PID reused by another process has another start time).
start_time() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    # The command name (field 2) may hold spaces: count the fields after its closing ')'.
    echo "${stat##*) }" | awk '{ print $20 }'
}

# Records the identity of the process of pid file $1 in $1.id ("PID START"), once it is there.
remember() {
    local pid
    pid=$(cat "$1" 2>/dev/null) || return 1
    echo "$pid $(start_time "$pid")" >"$1.id"
}

# Whether the process recorded in $1.id runs (the same PID and start time) and is named $2.
running() {
    local pid start
    [ -s "$1.id" ] || return 1
    read -r pid start <"$1.id" || return 1
    [ -n "$pid" ] && [ -d "/proc/$pid" ] || return 1
    [ "$(start_time "$pid")" = "$start" ] || return 1
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}

# The PIDs of the processes named $1 (from /proc: no procps needed).
pids_named() {
    local d
    for d in /proc/[0-9]*; do
        [ "$(cat "$d/comm" 2>/dev/null)" = "$1" ] && echo "${d#/proc/}"
    done
    return 0
}

# Refuses to start beside a slurmctld or slurmd this script did not start.
refuse_foreign() {
    local name pidfile pid mine
    for name in slurmctld slurmd; do
        pidfile=$CTLD_PID
        [ "$name" = slurmd ] && pidfile=$SLURMD_PID
        mine=""
        running "$pidfile" "$name" && read -r mine _ <"$pidfile.id"
        for pid in $(pids_named "$name"); do
            [ "$pid" = "$mine" ] && continue
            die "a $name this script did not start runs here (PID $pid): it does not run beside another Slurm; stop that one first, or use it"
        done
    done
}

install_packages() {
    local missing=() p
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]} and no apt-get to install them"
    say "installing ${missing[*]}"
    apt-get update -qq
    # No init system here: keep the packages' scripts from starting the services themselves.
    DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

write_config() {
    local host cpus mem
    host=$(hostname -s)
    cpus=$(nproc)
    # slurmd drains a node configured with more memory than it finds: MemTotal, in MiB, is
    # what it finds.
    mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
    mkdir -p "$(dirname "$CONF")" "$LOGDIR" "$STATE/slurmctld" "$STATE/slurmd"
    local tmp="$CONF.tmp"
    cat >"$tmp" <<EOF
# Written by scripts/slurm-local.sh: one node, this machine.
ClusterName=fanorona-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
StateSaveLocation=$STATE/slurmctld
SlurmdSpoolDir=$STATE/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# Finished jobs are forgotten after 4 s (at the next purge, within a minute): \`sbatch --wait\`
# then asks every 2 s whether its job is done (with the default 300 s it waits 2, 8, then 10 s).
MinJobAge=4
# A requeued job waits this long before it starts again (120 s by default).
AuthInfo=cred_expire=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    if cmp -s "$tmp" "$CONF"; then
        rm -f "$tmp"
    else
        mv "$tmp" "$CONF"
        CONF_CHANGED=1
    fi
}

# Uses a munged that answers already (never stopped by this script); otherwise starts one and
# records it as its own.
start_munge() {
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        return 0
    fi
    if [ ! -s "$MUNGE_KEY" ]; then
        say "creating the munge key $MUNGE_KEY"
        mkdir -p "$(dirname "$MUNGE_KEY")"
        if command -v mungekey >/dev/null 2>&1; then
            mungekey --create --keyfile="$MUNGE_KEY" --force
        else
            dd if=/dev/urandom of="$MUNGE_KEY" bs=1024 count=1 status=none
        fi
        chown munge:munge "$MUNGE_KEY" /etc/munge
        chmod 0400 "$MUNGE_KEY"
        chmod 0700 /etc/munge
    fi
    install -d -o munge -g munge -m 0755 "$MUNGE_SOCKET_DIR" /var/lib/munge /var/log/munge
    say "starting munged"
    runuser -u munge -- /usr/sbin/munged
    for _ in $(seq 1 50); do
        if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
            # munged writes its PID to its own file: copied with its identity to this script's.
            cp "$MUNGE_SOCKET_DIR/munged.pid" "$STATE/munged.pid" 2>/dev/null && remember "$STATE/munged.pid"
            running "$STATE/munged.pid" munged || say "warning: cannot tell munged's PID: stop will leave it"
            return 0
        fi
        sleep 0.1
    done
    tail -n 20 /var/log/munge/munged.log >&2 2>/dev/null || true
    die "munged did not start (its log is above)"
}

# Starts daemon $1 (slurmctld or slurmd, its pid file $2, with extra arguments after) and records
# its identity once its pid file is written.
start_daemon() {
    local name=$1 pidfile=$2
    shift 2
    say "starting $name"
    rm -f "$pidfile" "$pidfile.id"
    "/usr/sbin/$name" -f "$CONF" "$@" || {
        show_logs
        die "$name did not start (its log is above)"
    }
    for _ in $(seq 1 100); do
        [ -s "$pidfile" ] && remember "$pidfile" && running "$pidfile" "$name" && return 0
        sleep 0.1
    done
    show_logs
    die "$name wrote no PID file $pidfile within 10 s (its log is above)"
}

show_logs() {
    local f
    for f in "$LOGDIR/slurmctld.log" "$LOGDIR/slurmd.log"; do
        if [ -f "$f" ]; then
            echo "---- the last lines of $f" >&2
            tail -n 30 "$f" >&2
        fi
    done
}

# The node's state as sinfo prints it (idle, mixed, down*, drained, ...), or nothing.
node_state() {
    sinfo --noheader --Node --format=%T 2>/dev/null | head -n 1
}

start() {
    need_root
    install_packages
    refuse_foreign
    mkdir -p "$STATE"
    CONF_CHANGED=0
    write_config
    if [ "$CONF_CHANGED" -eq 1 ] && { running "$CTLD_PID" slurmctld || running "$SLURMD_PID" slurmd; }; then
        say "the configuration changed: restarting the daemons"
        stop_daemon "$SLURMD_PID" slurmd
        stop_daemon "$CTLD_PID" slurmctld
    fi
    start_munge
    # -i: ignore state files of an earlier run that does not match (a new configuration).
    running "$CTLD_PID" slurmctld || start_daemon slurmctld "$CTLD_PID" -i
    running "$SLURMD_PID" slurmd || start_daemon slurmd "$SLURMD_PID"
    local t0 state=""
    t0=$(date +%s)
    while [ $(($(date +%s) - t0)) -lt "$WAIT" ]; do
        state=$(node_state)
        case "$state" in
        idle | mixed | allocated) break ;;
        drain* | down*)
            # A node left down or drained by an earlier run: ReturnToService=2 brings it
            # back once slurmd registers; ask once more explicitly.
            scontrol update NodeName="$(hostname -s)" State=RESUME >/dev/null 2>&1 || true
            ;;
        esac
        sleep 1
    done
    case "$state" in
    idle | mixed | allocated)
        say "up: node $(hostname -s), $(nproc) CPUs, partition local ($(($(date +%s) - t0)) s to idle)"
        ;;
    *)
        sinfo >&2 || true
        scontrol show node >&2 2>/dev/null || true
        show_logs
        die "the node is not idle after $WAIT s (state: ${state:-unknown}); the daemons' logs are above"
        ;;
    esac
}

# Stops the process recorded in $1.id (named $2) when it is still that process, and waits until
# it has exited; a record of a process that is gone is removed.
stop_daemon() {
    local pid
    if ! running "$1" "$2"; then
        rm -f "$1.id"
        return 0
    fi
    read -r pid _ <"$1.id"
    say "stopping $2 ($pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        running "$1" "$2" || break
        sleep 0.1
    done
    if running "$1" "$2"; then
        say "$2 did not exit within 10 s: killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$1.id"
}

stop() {
    need_root
    if running "$CTLD_PID" slurmctld; then
        # Jobs left running would outlive slurmd (their processes are not in a cgroup). The
        # controller this script started (SLURM_CONF) knows only its own partition's jobs.
        scancel --full --quiet --partition=local 2>/dev/null || true
    fi
    stop_daemon "$SLURMD_PID" slurmd
    stop_daemon "$CTLD_PID" slurmctld
    stop_daemon "$STATE/munged.pid" munged
    say "stopped"
}

status() {
    local ok=0 pidfile name
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        echo "munged: running"
    else
        echo "munged: not running"
        ok=1
    fi
    for name in slurmctld slurmd; do
        pidfile=$CTLD_PID
        [ "$name" = slurmd ] && pidfile=$SLURMD_PID
        if running "$pidfile" "$name"; then
            echo "$name: running ($(cat "$pidfile"))"
        else
            echo "$name: not running"
            ok=1
        fi
    done
    [ "$ok" -eq 0 ] && sinfo
    return "$ok"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
conf) echo "$CONF" ;;
*)
    echo "usage: $0 start|stop|status|conf" >&2
    exit 2
    ;;
esac
