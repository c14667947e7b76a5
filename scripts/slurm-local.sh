#!/usr/bin/env bash
# A private one-node Slurm cluster on this machine, without systemd, for `socsim sweep
# --backend slurm` and its tests.
#
# Usage: scripts/slurm-local.sh start DIR   install slurm-wlm and munge if missing (apt-get),
#                                           start munged, slurmctld and slurmd with all their
#                                           state, logs, sockets and ports of their own under
#                                           DIR, wait until the node is idle, and print the
#                                           line that points Slurm's commands at it:
#                                             export SLURM_CONF=DIR/slurm.conf
#        scripts/slurm-local.sh stop DIR    cancel the cluster's jobs, shut it down (scontrol
#                                           shutdown, then munged by its pid), end any job step
#                                           daemon of it still alive, and wait until all have
#        scripts/slurm-local.sh status DIR  sinfo of the cluster (exit 1 when it is down)
#
# The cluster has one node (this host, NodeAddr 127.0.0.1, CPUs = nproc) in one default
# partition named main, no accounting; it touches nothing outside DIR (its own munge key and socket,
# free TCP ports), so it can run beside a site's Slurm or another instance. It needs root
# (slurmd starts jobs as their users; munged runs as user munge): without root, `start`
# exits with status 77.
set -euo pipefail

die() { echo "slurm-local: $*" >&2; exit 1; }

[[ $# -eq 2 ]] || die "usage: $0 start|stop|status DIR"
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
conf="$dir/slurm.conf"
export SLURM_CONF="$conf"

install_packages() {
  local missing=()
  for pkg in slurm-wlm munge; do
    [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" == "install ok installed" ]] ||
      missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  echo "slurm-local: installing Debian packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -q
  apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
  # Where init scripts may run, munge's installation starts the system's munged; this
  # cluster has its own, so leave the machine as it was.
  if [[ " ${missing[*]} " == *" munge "* ]] && alive /run/munge/munged.pid &&
    [[ -x /etc/init.d/munge ]]; then
    /etc/init.d/munge stop > /dev/null 2>&1 || true
  fi
}

free_port() {  # a TCP port nobody listens on now
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

alive() {  # alive PIDFILE: the process runs (and is not a zombie)
  [[ -f "$1" ]] || return 1
  local pid state
  pid=$(cat "$1")
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)
  [[ -n "$state" && "$state" != Z ]]
}

wait_until() {  # wait_until SECONDS COMMAND...: true once COMMAND succeeds
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

node_idle() { [[ "$(sinfo -h -N -o %t 2>/dev/null | head -1)" == idle ]]; }

start() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "slurm-local: starting a Slurm cluster needs root (slurmd, munged as user munge)" >&2
    exit 77
  fi
  install_packages
  if alive "$dir/ctld/slurmctld.pid"; then
    node_idle || wait_until 60 node_idle || die "the running cluster's node is not idle"
    echo "export SLURM_CONF=$conf"
    return
  fi
  mkdir -p "$dir/munge" "$dir/munge-run" "$dir/ctld" "$dir/slurmd" "$dir/log"
  chown munge:munge "$dir/munge" "$dir/munge-run"
  chmod 700 "$dir/munge"
  chmod 755 "$dir/munge-run"
  if [[ ! -f "$dir/munge/munge.key" ]]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  fi
  chown munge:munge "$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  rm -f "$dir/munge-run/munge.socket"*
  local host memory
  host=$(hostname -s)
  # 90 % of the memory, in MiB, so that jobs may ask for --mem (slurmd must find at least this)
  memory=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
  cat > "$conf" <<EOF
# A one-node test cluster written by scripts/slurm-local.sh; everything lives in $dir.
ClusterName=socsim
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge-run/munge.socket
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
ReturnToService=2
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/slurmd
SlurmctldPidFile=$dir/ctld/slurmctld.pid
SlurmdPidFile=$dir/slurmd/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  su -s /bin/sh munge -c "munged --socket=$dir/munge-run/munge.socket \
    --key-file=$dir/munge/munge.key --pid-file=$dir/munge-run/munged.pid \
    --log-file=$dir/munge-run/munged.log --seed-file=$dir/munge/munged.seed" ||
    die "munged did not start (see $dir/munge-run/munged.log)"
  # Daemons in the foreground (-D) of a background shell: no systemd, no init scripts.
  nohup slurmctld -D -f "$conf" > "$dir/log/slurmctld.out" 2>&1 < /dev/null &
  nohup slurmd -D -f "$conf" > "$dir/log/slurmd.out" 2>&1 < /dev/null &
  if ! wait_until 60 node_idle; then
    sinfo >&2 || true
    tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    die "the node did not become idle within 60 s (logs in $dir/log)"
  fi
  echo "export SLURM_CONF=$conf"
}

# A batch job's slurmstepd outlives slurmd by design (it double-forks, its parent is init, its
# command line is only "slurmstepd: [JOB.batch]"): one still running at `scontrol shutdown`
# keeps running its job, then sleeps for minutes retrying the "job complete" RPC to the
# controller that is gone. Its name cannot tell this cluster's steps from another's on the
# same host; what can is what slurmd passes on to it: the cluster's slurmd log, open, and
# SLURM_CONF of this cluster in its environment.
cluster_steps() {  # the pids of this cluster's slurmstepd processes (zombies excluded)
  local p pid
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [[ "$(cat "$p/comm" 2>/dev/null)" == slurmstepd ]] || continue
    if [[ "$(readlink -f "$p/fd/"* 2>/dev/null)" == *"$dir/log/slurmd.log"* ]] ||
      tr '\0' '\n' 2>/dev/null < "$p/environ" | grep -qxF "SLURM_CONF=$conf"; then
      echo "$pid"
    fi
  done
}

descendants() {  # descendants PID...: the pids of every process below these
  local -A children=()
  local pid ppid
  while read -r pid ppid; do
    children[$ppid]+=" $pid"
  done < <(ps -e -o pid= -o ppid=)
  local queue=("$@") next
  while ((${#queue[@]})); do
    next=${queue[0]}
    queue=("${queue[@]:1}")
    for pid in ${children[$next]:-}; do
      echo "$pid"
      queue+=("$pid")
    done
  done
}

no_steps() { [[ -z "$(cluster_steps)" ]]; }

no_jobs() {  # the controller lists no job and no step daemon of this cluster runs
  [[ -z "$(squeue -h -o %i 2>/dev/null)" ]] && no_steps
}

stop() {
  [[ -f "$conf" ]] || { echo "slurm-local: no cluster in $dir" >&2; return 0; }
  if alive "$dir/ctld/slurmctld.pid"; then
    # Cancelled while the daemons run, the steps end their jobs and report as usual.
    scancel --partition=main > /dev/null 2>&1 || true
    wait_until 30 no_jobs ||
      echo "slurm-local: jobs still running 30 s after scancel: shutting down anyway" >&2
  fi
  if alive "$dir/ctld/slurmctld.pid" || alive "$dir/slurmd/slurmd.pid"; then
    scontrol shutdown > /dev/null 2>&1 || true
    wait_until 30 bash -c "! { $(declare -f alive); alive '$dir/ctld/slurmctld.pid' ||
                                alive '$dir/slurmd/slurmd.pid'; }" ||
      { echo "slurm-local: slurm daemons still running after 30 s: killing them" >&2
        for f in "$dir/ctld/slurmctld.pid" "$dir/slurmd/slurmd.pid"; do
          alive "$f" && kill -9 "$(cat "$f")" 2>/dev/null || true
        done; }
  fi
  local steps
  steps=$(cluster_steps)
  if [[ -n "$steps" ]]; then
    # shellcheck disable=SC2086
    local tree
    tree=$(descendants $steps)
    echo "slurm-local: ending job step daemons left after the shutdown:" \
      "$(echo $steps)" "(and their processes: $(echo $tree))" >&2
    # shellcheck disable=SC2086
    kill -9 $steps $tree 2>/dev/null || true
    wait_until 10 no_steps ||
      echo "slurm-local: job step daemons still alive: $(echo $(cluster_steps))" >&2
  fi
  if alive "$dir/munge-run/munged.pid"; then
    kill "$(cat "$dir/munge-run/munged.pid")" 2>/dev/null || true
    wait_until 10 bash -c "! { $(declare -f alive); alive '$dir/munge-run/munged.pid'; }" || true
  fi
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status) sinfo ;;
  *) die "unknown action '$action' (start, stop, status)" ;;
esac
