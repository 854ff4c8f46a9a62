#!/usr/bin/env bash
# A real single-node Slurm on this machine, for the cluster tests (tests/slurm.rs) and for trying
# the sbatch files (loop/selfplay-array.sbatch, eval/eval-array.sbatch) by hand.
#
#   scripts/slurm-local.sh start    install (when missing) and start munge, slurmctld and slurmd;
#                                   returns once `sinfo` shows the node idle
#   scripts/slurm-local.sh stop     stop the three daemons (jobs still running are cancelled)
#   scripts/slurm-local.sh status   whether they run, and `sinfo`
#
# Run as root on Debian or Ubuntu (Debian bookworm has Slurm 22.05): the packages come from
# apt-get, the daemons are started directly (no systemd). The node has this machine's CPUs
# (nproc) and memory; processes are tracked through /proc (proctrack/linuxproc, task/none), so
# no cgroup is needed, and there is no accounting. Both commands can be run again: `start`
# leaves running daemons alone and `stop` stops only what runs.
#
# Environment: SLURM_LOCAL_WAIT (seconds to wait for the node, 60), SLURM_LOCAL_CONF (where the
# configuration is written, /etc/slurm/slurm.conf, which is where the Debian tools look).
set -euo pipefail

CONF=${SLURM_LOCAL_CONF:-/etc/slurm/slurm.conf}
WAIT=${SLURM_LOCAL_WAIT:-60}
LOGDIR=/var/log/slurm
STATE=/var/lib/slurm
MUNGE_KEY=/etc/munge/munge.key
MUNGE_SOCKET_DIR=/run/munge
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid
PACKAGES=(munge slurmctld slurmd slurm-client)

say() { echo "slurm-local: $*" >&2; }
die() {
    say "error: $*"
    exit 1
}

need_root() {
    [ "$(id -u)" -eq 0 ] || die "run as root (it installs packages and starts daemons)"
}

# Whether the process of pid file $1 runs (and is $2).
running() {
    local pid
    [ -s "$1" ] || return 1
    pid=$(cat "$1")
    [ -d "/proc/$pid" ] || return 1
    grep -q "$2" "/proc/$pid/comm" 2>/dev/null
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

start_munge() {
    if [ ! -s "$MUNGE_KEY" ]; then
        say "creating the munge key $MUNGE_KEY"
        mkdir -p "$(dirname "$MUNGE_KEY")"
        if command -v mungekey >/dev/null 2>&1; then
            mungekey --create --keyfile="$MUNGE_KEY" --force
        else
            dd if=/dev/urandom of="$MUNGE_KEY" bs=1024 count=1 status=none
        fi
    fi
    chown munge:munge "$MUNGE_KEY" /etc/munge
    chmod 0400 "$MUNGE_KEY"
    chmod 0700 /etc/munge
    install -d -o munge -g munge -m 0755 "$MUNGE_SOCKET_DIR" /var/lib/munge /var/log/munge
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        return 0
    fi
    say "starting munged"
    runuser -u munge -- /usr/sbin/munged
    for _ in $(seq 1 50); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    tail -n 20 /var/log/munge/munged.log >&2 2>/dev/null || true
    die "munged did not start (its log is above)"
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
    CONF_CHANGED=0
    write_config
    if [ "$CONF_CHANGED" -eq 1 ] && { running "$CTLD_PID" slurmctld || running "$SLURMD_PID" slurmd; }; then
        say "the configuration changed: restarting the daemons"
        stop_daemon "$SLURMD_PID" slurmd
        stop_daemon "$CTLD_PID" slurmctld
    fi
    start_munge
    if ! running "$CTLD_PID" slurmctld; then
        say "starting slurmctld"
        # -i: ignore state files of an earlier run that does not match (a new configuration).
        /usr/sbin/slurmctld -i || {
            show_logs
            die "slurmctld did not start (its log is above)"
        }
    fi
    if ! running "$SLURMD_PID" slurmd; then
        say "starting slurmd"
        /usr/sbin/slurmd || {
            show_logs
            die "slurmd did not start (its log is above)"
        }
    fi
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

# Stops the process of pid file $1 (named $2) and waits until it has exited.
stop_daemon() {
    local pid
    running "$1" "$2" || return 0
    pid=$(cat "$1")
    say "stopping $2 ($pid)"
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 100); do
        [ -d "/proc/$pid" ] || return 0
        sleep 0.1
    done
    say "$2 did not exit within 10 s: killing it"
    kill -KILL "$pid" 2>/dev/null || true
}

stop() {
    need_root
    if running "$CTLD_PID" slurmctld; then
        # Jobs left running would outlive slurmd (their processes are not in a cgroup).
        scancel --full --quiet --user=root 2>/dev/null || true
    fi
    stop_daemon "$SLURMD_PID" slurmd
    stop_daemon "$CTLD_PID" slurmctld
    local pid
    pid=$(cat /run/munge/munged.pid 2>/dev/null || true)
    if [ -n "$pid" ] && [ -d "/proc/$pid" ]; then
        say "stopping munged ($pid)"
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            [ -d "/proc/$pid" ] || break
            sleep 0.1
        done
    fi
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
*)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
