#!/usr/bin/env bash
# The whole GPU suite in one go, for a GPU node (also one without internet access, if .offline/ was
# carried along): build, CPU tests, GPU tests (`judge verify` of every problem), the matmul ladder table,
# and a check that no process is left behind and the GPU is healthy. Logs go to $OUT (default /tmp/gpu-suite).
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
step "the matmul ladder (default protocol)"
bin/judge matmul problems/matmul/submissions/accepted --no-db --json "$out/ladder.json" 2>&1 | tee "$out/ladder.log" | grep -vE "^\s*\||^\s*>" | cut -c1-170
step "vector_add accepted examples"
bin/judge vector_add problems/vector_add/submissions/accepted --no-db 2>&1 | tee "$out/vector_add.log" | grep -vE "^\s*>" | cut -c1-170
step "afterwards: GPU state and stray processes"
nvidia-smi --query-gpu=name,utilization.gpu,memory.used,clocks.sm --format=csv
nvidia-smi --query-compute-apps=pid,process_name --format=csv
ps -eo pid,ppid,stat,etime,cmd | grep -E "runner|judge" | grep -v grep || echo "no runner or judge process left"
