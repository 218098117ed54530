#!/usr/bin/env bash
# scripts/class-demo.sh on a machine without a GPU: refuses at once (exit 3, saying why) instead of
# compiling the class first. Skipped (77) where a GPU is present.
set -uo pipefail
root="$1"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q "^GPU "; then
  echo "skipped: this machine has a GPU"; exit 77
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
start=$(date +%s)
output="$("$root/scripts/class-demo.sh" "$out/demo" 2>&1)"
status=$?
took=$(( $(date +%s) - start ))
echo "$output"
[ "$status" -eq 3 ] || { echo "FAIL: exit $status, not 3"; exit 1; }
grep -q "no NVIDIA GPU found" <<<"$output" || { echo "FAIL: does not say that no GPU was found"; exit 1; }
[ ! -e "$out/demo/grade-alice-1.log" ] || { echo "FAIL: it graded before checking"; exit 1; }
[ "$took" -lt 10 ] || { echo "FAIL: took $took s"; exit 1; }
echo "ok: refused in $took s"
