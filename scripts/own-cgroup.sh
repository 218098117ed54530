#!/usr/bin/env bash
# Runs a command (the judge) alone in a cgroup v2 of its own, with the memory and pids controllers handed
# down to it, so that the judge can give every sandboxed child its limits (judge/sandbox/cgroup.hpp).
# For a machine without systemd (docs/deploy.md); as root, once per start of the judge:
#
#   sudo scripts/own-cgroup.sh bin/judge serve --listen 127.0.0.1:8080 --gpus all
#
# cgroup v2 enables controllers below a cgroup only while it holds no process, the hierarchy's root
# excepted. So the judge's cgroup is made below the root, the controllers are enabled at the root, and
# this shell moves itself into the new cgroup and becomes the command (exec): nothing else lives there.
# In a container whose cgroup root is its own (a cgroup namespace), that root is no real root: its
# processes are moved into a leaf (init) first, as container init scripts do, or enabling fails with
# "Device or resource busy".
#
# JUDGE_CGROUP names the cgroup (default gpu-judge, below the root); JUDGE_CGROUP_CONTROLLERS the
# controllers (default "memory pids").
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi
controllers="${JUDGE_CGROUP_CONTROLLERS:-memory pids}"
mount_point=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
if [ -z "$mount_point" ]; then
  echo "$0: cgroup v2 is not mounted" >&2
  exit 1
fi
for c in $controllers; do
  if ! grep -qw "$c" "$mount_point/cgroup.controllers"; then
    echo "$0: the cgroup v2 root $mount_point does not offer the $c controller (cgroup.controllers: $(cat "$mount_point/cgroup.controllers"))" >&2
    exit 1
  fi
done
enable=""
for c in $controllers; do grep -qw "$c" "$mount_point/cgroup.subtree_control" || enable="$enable +$c"; done
if [ -n "$enable" ] && ! echo "$enable" > "$mount_point/cgroup.subtree_control" 2>/dev/null; then
  # A cgroup namespace's root that holds processes: move them into a leaf of their own, then enable.
  mkdir -p "$mount_point/init"
  while read -r pid; do echo "$pid" > "$mount_point/init/cgroup.procs" 2>/dev/null || true; done < "$mount_point/cgroup.procs"
  echo "$enable" > "$mount_point/cgroup.subtree_control"
fi
cgroup="$mount_point/${JUDGE_CGROUP:-gpu-judge}"
mkdir -p "$cgroup"
echo $$ > "$cgroup/cgroup.procs"
exec "$@"
