#!/usr/bin/env bash
# Configures, builds and runs every test. GPU tests are skipped, with the reason, where no GPU is, and the
# browser test where Chromium is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${JUDGE_BUILD_DIR:-$root/build}"
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" ${JUDGE_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
# GPU and browser tests first and verbosely: CTest shows no output of a skipped test, and a skip must say why.
set +e
ctest --test-dir "$build" -L 'gpu|browser' -V "$@" >"$build/gpu-and-browser-tests.log" 2>&1
special=$?
set -e
grep -E 'SKIPPED|^[0-9]+: (ok|MISSING):|verify .*mismatch|Test +#[0-9]+:|tests passed|tests failed' \
  "$build/gpu-and-browser-tests.log" | sed -E 's/^[0-9]+: //; s/ \.\.\.+/ /'
# Then everything else; CTest's summary of these is the last line.
ctest --test-dir "$build" -LE 'gpu|browser' --output-on-failure "$@"
exit "$special"
