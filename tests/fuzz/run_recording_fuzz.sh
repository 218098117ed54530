#!/usr/bin/env bash
# Runs the recording fuzz target for a bounded time: FUZZER SEED_DIR SECONDS. New inputs go to a fresh
# corpus folder (the seeds stay as they are); a crash, a sanitizer report, a hang (-timeout) or an
# allocation past -rss_limit_mb/-malloc_limit_mb fails the test, and libFuzzer leaves the input in the
# working folder as crash-*, timeout-*, oom-* or leak-*.
set -euo pipefail
fuzzer=$1 seeds=$2 seconds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cd "$work"
"$fuzzer" "$work/corpus" "$seeds" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -malloc_limit_mb=1024 -max_len=1048576 -print_final_stats=1 2>&1 | tail -n 25
