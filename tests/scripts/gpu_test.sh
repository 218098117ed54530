#!/usr/bin/env bash
# Runs one GPU end-to-end test, or skips it (exit 77, CTest's SKIP_RETURN_CODE) with the reason.
set -u
judge="$1"; shift
if ! "$judge" device >/dev/null 2>&1; then
  echo "SKIPPED: $("$judge" device 2>&1 | head -n 1) -- GPU tests run on a GPU machine: ctest --test-dir build -L gpu"
  exit 77
fi
exec "$judge" "$@"
