#!/usr/bin/env bash
# Renders the leaderboard page in headless Chromium and checks that the browser sees the ranking table,
# the bar chart with its baseline marker, and the roofline plot. Skipped (exit 77) without Chromium.
set -euo pipefail
tests="$1"; out="$2"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: Chromium is not installed here (Debian: apt-get install chromium); the page itself is checked by the [page] unit test"
  exit 77
fi
mkdir -p "$out"
# Chromium's profile (a few MB per start) goes into a folder of this run, removed however the test ends.
profile=$(mktemp -d "${TMPDIR:-/tmp}/judge-browser-test.XXXXXX")
trap 'rm -rf "$profile"' EXIT
JUDGE_TEST_PAGE_OUT="$out/leaderboard.html" "$tests" "[page]" >/dev/null
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$profile")
# The DOM as the browser built it: parsing, not string matching on our own output.
timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$out/leaderboard.html" >"$out/dom.html" 2>/dev/null
timeout 60 "$browser" "${flags[@]}" --window-size=1280,2000 --screenshot="$out/leaderboard.png" \
  "file://$out/leaderboard.html" >/dev/null 2>&1
fail=0
check() { if grep -q "$2" "$out/dom.html"; then echo "ok: $1"; else echo "MISSING: $1"; fail=1; fi; }
check "the ranking table" "<table"
check "an entry of alice" "alice"
check "a chart" "<svg"
check "bars" "<rect"
check "the baseline marker" "baseline"
check "the roofline" "oofline"
check "a board per GPU model" "NVIDIA A100"
if [ -s "$out/leaderboard.png" ]; then echo "ok: screenshot $out/leaderboard.png"; else echo "MISSING: screenshot"; fail=1; fi
exit $fail
