#!/usr/bin/env bash
# The course's pages in headless Chromium (course_browser_test.py says what it does). Skipped (exit 77), with the
# reason, where Chromium or Python 3 is missing.
set -euo pipefail
judge="$1"; out="$2"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: Chromium is not installed here (Debian: apt-get install chromium); the pages themselves are checked by the [web] unit tests"
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "SKIPPED: python3 is not installed here (it drives the browser); the pages are checked by the [web] unit tests"
  exit 77
fi
exec python3 "$(dirname "$0")/course_browser_test.py" "$judge" "$browser" "$out"
