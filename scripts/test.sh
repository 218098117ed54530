#!/usr/bin/env bash
# Configures, builds and runs every test. GPU tests are skipped, with the reason, where no GPU is, the
# browser test where Chromium is missing, and the Slurm tests where the single-node cluster cannot start
# (not root, Slurm not installed: scripts/install-deps.sh --with-slurm).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${JUDGE_BUILD_DIR:-$root/build}"
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" ${JUDGE_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
# The single-node Slurm the Slurm tests grade through (docs/slurm.md); exit 77 is "cannot start here", and
# each Slurm test then reports itself skipped with that reason.
set +e
slurm=$("$root/scripts/slurm-single-node.sh" start 2>&1)
slurm_status=$?
set -e
echo "$slurm"
if [ "$slurm_status" -ne 0 ] && [ "$slurm_status" -ne 77 ]; then
  echo "test.sh: scripts/slurm-single-node.sh start ended with $slurm_status; the Slurm tests will say why"
fi
# GPU, browser and Slurm tests first and verbosely: CTest shows no output of a skipped test, and a skip
# must say why.
set +e
ctest --test-dir "$build" -L 'gpu|browser|slurm' -V "$@" >"$build/gpu-browser-slurm-tests.log" 2>&1
special=$?
set -e
grep -E 'SKIPPED|^[0-9]+: (ok|MISSING):|verify .*mismatch|Test +#[0-9]+:|slurm-(class|fault)-test:|tests passed|tests failed' \
  "$build/gpu-browser-slurm-tests.log" | sed -E 's/^[0-9]+: //; s/ \.\.\.+/ /'
# Then everything else; CTest's summary of these is the last line.
ctest --test-dir "$build" -LE 'gpu|browser|slurm' --output-on-failure "$@"
exit "$special"
