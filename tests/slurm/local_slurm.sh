#!/usr/bin/env bash
# A one-node Slurm cluster on localhost for tests: munged, slurmctld and slurmd with their state, sockets,
# logs and ports under one folder. The node counts 8 GPUs of type h100 (no devices behind them). Run as root (Debian's slurm-wlm and munge packages).
#   local_slurm.sh start DIR   start it; prints the line to export: SLURM_CONF=DIR/slurm.conf
#   local_slurm.sh stop DIR    stop every daemon it started (whatever state they are in)
set -euo pipefail
action=${1:?usage: local_slurm.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: local_slurm.sh start|stop DIR}")

stop() {
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then
      kill "$(cat "$dir/$name.pid")" 2>/dev/null || true
    fi
  done
  for _ in $(seq 50); do
    alive=0
    for name in slurmd slurmctld munged; do
      [ -f "$dir/$name.pid" ] && kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] && kill -9 "$(cat "$dir/$name.pid")" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
}

# free_port: a TCP port nothing listens on, from the kernel's ephemeral range.
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start() {
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 700 "$dir/munge"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"
  local host cpus memory
  host=$(hostname -s)
  cpus=$(nproc)
  memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
  cat >"$dir/slurm.conf" <<CONF
ClusterName=zettasim-test
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
SlurmdParameters=config_overrides
MaxArraySize=100001
GresTypes=gpu
NodeName=$host CPUs=$cpus RealMemory=$memory Gres=gpu:h100:8 State=UNKNOWN
PartitionName=zettasim Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  # Eight GPUs that are only names (character devices that behave as /dev/null): enough for scheduling and sbatch --test-only.
  mkdir -p "$dir/dev"
  for i in 0 1 2 3 4 5 6 7; do [ -e "$dir/dev/nvidia$i" ] || mknod "$dir/dev/nvidia$i" c 1 3; done
  echo "NodeName=$host Name=gpu Type=h100 File=$dir/dev/nvidia[0-7]" >"$dir/gres.conf"
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 100); do
    if sinfo -h -o %t 2>/dev/null | grep -q idle; then
      echo "SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 0.2
  done
  echo "local_slurm.sh: the node did not become idle in 20 s; logs in $dir" >&2
  tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  stop
  return 1
}

case $action in
  start) start ;;
  stop) stop ;;
  *) echo "usage: local_slurm.sh start|stop DIR" >&2; exit 2 ;;
esac
