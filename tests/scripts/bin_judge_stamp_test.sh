#!/usr/bin/env bash
# bin/judge skips the build when no source of the judge is newer than its last good build, and builds
# (here: fails to, with a clear message) when one is. Runs a copy of bin/judge in a made-up tree whose
# "judge" only says that it ran.
set -uo pipefail
# A build folder named in the environment (scripts/test.sh honours JUDGE_BUILD_DIR) must not be the one
# these copies of bin/judge configure and build: it would be the developer's own.
unset JUDGE_BUILD_DIR JUDGE_ROOT
repo="$1"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
root="$work/root"; build="$root/build"
mkdir -p "$root/bin" "$root/scripts" "$root/common" "$root/harness" "$root/judge" "$build/bin"
cp "$repo/bin/judge" "$root/bin/judge"; cp "$repo/scripts/build-progress.sh" "$root/scripts/"
echo "project(x)" >"$root/CMakeLists.txt"; echo "int x;" >"$root/judge/a.cpp"
touch "$build/CMakeCache.txt" "$build/Makefile" # a finished configuration
printf '#!/bin/sh\necho "judge ran $*"\n' >"$build/bin/judge"; chmod +x "$build/bin/judge"
fail=0
check() { if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; fail=1; fi; }

touch -d '1 minute ago' "$root/CMakeLists.txt" "$root/judge/a.cpp" "$root/common" "$root/harness" "$root/judge"
touch "$build/judge-built.stamp"
check "nothing changed: runs the judge without building" "$("$root/bin/judge" list 2>"$work/err")" "judge ran list"
check "nothing changed: prints nothing on stderr" "$(cat "$work/err")" ""

touch -d '1 minute' "$root/judge/a.cpp" # a source edited after the last build
out=$("$root/bin/judge" list 2>"$work/err"); status=$?
check "a changed source: builds (and here the build fails)" "$status" "2"
check "a changed source: the judge does not run on a failed build" "$out" ""
if grep -q "building the judge failed" "$work/err"; then echo "ok: says the build failed"; else
  echo "FAILED: no message about the failed build:"; cat "$work/err"; fail=1; fi

rm "$build/judge-built.stamp"; touch -d '1 minute ago' "$root/judge/a.cpp"
"$root/bin/judge" list >/dev/null 2>&1; status=$?
check "no stamp (never built by bin/judge): builds" "$status" "2"
exit $fail
