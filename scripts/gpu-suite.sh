#!/usr/bin/env bash
# The whole GPU suite in one go, for a GPU node (also one without internet access, if .offline/ was
# carried along): build, CPU tests, GPU tests (`judge verify` of every problem), every problem's ladder
# table with its top step's bars (ladders.md), and a check that no process is left behind and the GPU is
# healthy. Logs go to $OUT (default /tmp/gpu-suite).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${OUT:-/tmp/gpu-suite}"
mkdir -p "$out"
cmake_args=""
[ -d .offline/debs ] && cmake_args="$(scripts/setup-offline-deps.sh | tail -n 1)"
step() { echo; echo "=== $* ($(date +%T))"; }

step configure
# shellcheck disable=SC2086
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release $cmake_args >"$out/configure.log" 2>&1 || { tail -n 40 "$out/configure.log"; exit 1; }
step build
cmake --build build -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -E "error|Error" "$out/build.log" | head -n 40; exit 1; }
step "CPU tests"
ctest --test-dir build -L cpu -j "$(nproc)" >"$out/ctest-cpu.log" 2>&1
grep -E "tests passed|tests failed|Failed|\*\*\*" "$out/ctest-cpu.log" | cut -c1-160
step "GPU tests: ctest -L gpu (the harness's GPU units, judge verify of every problem)"
ctest --test-dir build -L gpu -V >"$out/ctest-gpu.log" 2>&1
grep -E "expected|verify |tests passed|tests failed|baseline|MISMATCH|Failed|Test +#[0-9]+: gpu: harness|l2 flush:" \
  "$out/ctest-gpu.log" | sed -E 's/^[0-9]+: //' | cut -c1-170
step "every ladder (default protocol): one run per problem, tables and bars by scripts/ladder-tables.py"
reports=()
for problem in $(ls problems); do
  [ -d "problems/$problem/submissions/accepted" ] || continue
  bin/judge "$problem" "problems/$problem/submissions/accepted" --no-db --json "$out/ladder-$problem.json" \
    >"$out/ladder-$problem.log" 2>&1 || echo "$problem: judge exited $? (see ladder-$problem.log)"
  [ -s "$out/ladder-$problem.json" ] && reports+=("$out/ladder-$problem.json")
done
python3 scripts/ladder-tables.py "${reports[@]}" --gaps >"$out/ladders.md" && grep -E "^- " "$out/ladders.md" | cut -c1-170
step "afterwards: GPU state and stray processes"
nvidia-smi --query-gpu=name,utilization.gpu,memory.used,clocks.sm --format=csv
nvidia-smi --query-compute-apps=pid,process_name --format=csv
ps -eo pid,ppid,stat,etime,cmd | grep -E "runner|judge" | grep -v grep || echo "no runner or judge process left"
