#!/usr/bin/env bash
# A class of two, made from the shipped matmul examples, graded into a fresh results database, and its
# leaderboard in every format: a way to see grading and the leaderboard work before a real class hands
# anything in (needs a GPU). alice hands in the whole ladder (problems/matmul/submissions/accepted/0*.cu)
# and is graded twice, as a resubmission would be; bob hands in one file and is graded once.
#
# usage: scripts/class-demo.sh [OUTDIR]     (default /tmp/class-demo; it is emptied first)
# OUTDIR gets: class/ (the hand-ins), judge.db, grade-*.log, board.txt, board.html, board.csv, board.json
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(realpath -m "${1:-/tmp/class-demo}")"
judge="$root/bin/judge"

# Grading needs a GPU: say so before a minute of compiles, not after them.
if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "class-demo: no NVIDIA GPU found (nvidia-smi is not installed): the demo grades on a GPU; run it on a GPU machine" >&2
  exit 3
fi
if ! gpus="$(nvidia-smi -L 2>&1)" || ! grep -q "^GPU " <<<"$gpus"; then
  echo "class-demo: no NVIDIA GPU found (nvidia-smi -L: ${gpus:-nothing}): the demo grades on a GPU" >&2
  exit 3
fi
rm -rf "$out"
mkdir -p "$out/class/alice" "$out/class/bob"

# The `// author:` line names the student, as it would in a real hand-in.
for ladder_step in "$root"/problems/matmul/submissions/accepted/0*.cu; do
  { echo "// author: alice"; cat "$ladder_step"; } >"$out/class/alice/$(basename "$ladder_step")"
done
{ echo "// author: bob"; cat "$root/problems/matmul/submissions/accepted/04_register_1d.cu"; } >"$out/class/bob/bob_register_1d.cu"

grade() { # grade LOG PATH: one grading run into the demo database; a non-AC verdict is reported, not fatal
  local log="$1" path="$2" status
  echo "=== bin/judge matmul ${path#"$out"/} --db judge.db"
  "$judge" matmul "$path" --db "$out/judge.db" >"$out/$log" 2>&1
  status=$?
  grep -E "^\S|solution\(s\)|fastest|first failing|sandbox" "$out/$log" | grep -vE "^\s*[|>]"
  [ "$status" -le 1 ] || { echo "class-demo: the judge exited with $status (see $out/$log)"; exit "$status"; }
}

grade grade-alice-1.log "$out/class/alice"
grade grade-alice-2.log "$out/class/alice"
grade grade-bob.log "$out/class/bob"

echo "=== bin/judge leaderboard matmul --db judge.db"
"$judge" leaderboard matmul --db "$out/judge.db" | tee "$out/board.txt"
"$judge" leaderboard matmul --db "$out/judge.db" --html "$out/board.html" --csv "$out/board.csv" --json "$out/board.json"
