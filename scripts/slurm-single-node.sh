#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the Slurm backend's tests (docs/slurm.md):
# munge + slurmctld + slurmd from Debian (slurmctld slurmd munge slurm-client), one partition `judge`
# holding this node (and `judge-down`, the same node in a partition that is always down), and a generic `gpu` resource of count 1 declared without a device file, so jobs
# ask `--gres=gpu:1` as they would on a real cluster even where the machine has no GPU.
#
#   scripts/slurm-single-node.sh start    configure (once) and start the daemons; wait until the node is idle
#   scripts/slurm-single-node.sh stop     stop the daemons this script started
#   scripts/slurm-single-node.sh status   sinfo, or why the cluster is not up
#
# Idempotent: `start` on a running cluster only checks it. Exit 77 (the test suite's "skipped") with the
# reason when the cluster cannot start here: Slurm not installed, not root, a daemon that will not come up.
# Everything it writes lives under $SLURM_TEST_DIR (default /var/tmp/judge-slurm) and /etc/slurm/.
set -euo pipefail

action=${1:-start}
dir=${SLURM_TEST_DIR:-/var/tmp/judge-slurm}
conf=/etc/slurm/slurm.conf
marker="# written by gpu-judge scripts/slurm-single-node.sh"

skip() {
  echo "slurm-single-node: cannot start a Slurm cluster here: $*" >&2
  exit 77
}

node_name() { hostname -s; }

pid_alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

write_config() {
  # A slurm.conf that is not ours is an admin's: never overwrite it.
  if [[ -f $conf ]] && ! grep -qF "$marker" "$conf"; then
    skip "$conf exists and was not written by this script (a real cluster's?)"
  fi
  local node shape
  node=$(node_name)
  # The node's real shape (CPUs, sockets, cores, memory), as slurmd sees it: a mismatch drains the node.
  shape=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p')
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  chown -R slurm:slurm "$dir/state" "$dir/log" 2>/dev/null || true
  cat >"$conf.new" <<EOF
$marker
ClusterName=judge-test
SlurmctldHost=$node
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# No cgroups: the test machine may be a container without a writable cgroup tree. A real cluster uses
# proctrack/cgroup and task/cgroup with ConstrainDevices=yes, so a job sees only the GPU it was given.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# Finished jobs stay visible to squeue/scontrol for 5 minutes: the backend reads their end state there.
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
GresTypes=gpu
NodeName=$node $shape Gres=gpu:1 State=UNKNOWN
PartitionName=judge Nodes=$node Default=YES MaxTime=INFINITE State=UP
# Always down: the test of a job that never starts (its submissions say "waiting for Slurm: PartitionDown").
PartitionName=judge-down Nodes=$node Default=NO MaxTime=INFINITE State=DOWN
EOF
  # A running slurmctld reads a changed configuration only when told (a partition added since it started).
  if [[ -f $conf ]] && ! cmp -s "$conf.new" "$conf"; then config_changed=1; fi
  mv "$conf.new" "$conf"
  # A gpu "device" that every machine has: Slurm 22.05's gres/gpu counts a gres without File= as 0 on the
  # node ("count reported lower than configured"), so /dev/null stands in. On a GPU node:
  # `Name=gpu File=/dev/nvidia[0-7]` or `AutoDetect=nvml`.
  printf '%s\nName=gpu File=/dev/null\n' "$marker" >/etc/slurm/gres.conf
  printf '%s\nCgroupPlugin=cgroup/v1\nConstrainDevices=no\n' "$marker" >/etc/slurm/cgroup.conf
}

start_munge() {
  if [[ -S /run/munge/munge.socket.2 ]] && munge -n >/dev/null 2>&1; then return; fi
  [[ -f /etc/munge/munge.key ]] || mungekey --create >/dev/null 2>&1 || skip "no /etc/munge/munge.key and mungekey failed"
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge && chown munge:munge /run/munge
  runuser -u munge -- /usr/sbin/munged --force >"$dir/log/munged.out" 2>&1 || skip "munged would not start: $(cat "$dir/log/munged.out")"
  for _ in $(seq 50); do munge -n >/dev/null 2>&1 && return; sleep 0.1; done
  skip "munged started but munge -n fails"
}

wait_idle() {
  local node state
  node=$(node_name)
  for _ in $(seq 60); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
    case $state in
      idle | mix | alloc) return 0 ;;
      drain* | down*) scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true ;;
    esac
    sleep 0.5
  done
  skip "the node $node is not idle after 30 s (state: ${state:-none}); see $dir/log/slurmd.log"
}

start() {
  [[ $(id -u) == 0 ]] || skip "this script configures /etc/slurm and starts daemons: run it as root"
  for b in slurmctld slurmd munged sbatch squeue scancel sinfo; do
    command -v "$b" >/dev/null || [[ -x /usr/sbin/$b ]] || skip "$b is missing (apt-get install slurmctld slurmd munge slurm-client)"
  done
  mkdir -p "$dir/log"
  write_config
  start_munge
  if ! pid_alive "$dir/slurmctld.pid"; then
    /usr/sbin/slurmctld >"$dir/log/slurmctld.out" 2>&1 || skip "slurmctld would not start: $(tail -3 "$dir/log/slurmctld.log" 2>/dev/null)"
  fi
  if ! pid_alive "$dir/slurmd.pid"; then
    /usr/sbin/slurmd >"$dir/log/slurmd.out" 2>&1 || skip "slurmd would not start: $(tail -3 "$dir/log/slurmd.log" 2>/dev/null)"
  fi
  if [[ ${config_changed:-0} == 1 ]]; then scontrol reconfigure >/dev/null 2>&1 || true; fi
  wait_idle
  echo "slurm-single-node: up: partitions judge and judge-down (always down), node $(node_name), gres gpu:1 (logs in $dir/log)"
}

stop() {
  for d in slurmd slurmctld; do
    if pid_alive "$dir/$d.pid"; then
      local pid
      pid=$(cat "$dir/$d.pid")
      kill "$pid"
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
  done
  # munged is left running: other software on the host may use it, and it holds no state of ours.
  echo "slurm-single-node: stopped"
}

case $action in
  start) start ;;
  stop) stop ;;
  status) sinfo 2>&1 || exit 77 ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
