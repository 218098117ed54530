#!/usr/bin/env bash
# bin/judge uses the checkout it lives in: its judge runs with this checkout's root, and a build folder
# copied from another checkout (its CMakeCache.txt names that one) is configured anew instead of quietly
# running the other checkout's judge. A build folder whose configure did not finish (a CMakeCache.txt but
# no Makefile) is configured again rather than handed to make. Runs a copy of bin/judge in a made-up tree whose "judge" only says
# which root it was given.
set -uo pipefail
# A build folder named in the environment (scripts/test.sh honours JUDGE_BUILD_DIR) must not be the one
# these copies of bin/judge configure and build: it would be the developer's own.
unset JUDGE_BUILD_DIR JUDGE_ROOT
repo="$1"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
root="$work/copy"; build="$root/build"
mkdir -p "$root/bin" "$root/scripts" "$root/common" "$root/harness" "$root/judge" "$build/bin" "$work/original"
cp "$repo/bin/judge" "$root/bin/judge"; cp "$repo/scripts/build-progress.sh" "$root/scripts/"
echo "project(x NONE)" >"$root/CMakeLists.txt"; echo "int x;" >"$root/judge/a.cpp"
printf '#!/bin/sh\necho "judge ran with root $JUDGE_ROOT"\n' >"$build/bin/judge"; chmod +x "$build/bin/judge"
touch -d '1 minute ago' "$root/CMakeLists.txt" "$root/judge/a.cpp" "$root/common" "$root/harness" "$root/judge"
fail=0
check() { if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; fail=1; fi; }

echo "CMAKE_HOME_DIRECTORY:INTERNAL=$root" >"$build/CMakeCache.txt"; touch "$build/judge-built.stamp" "$build/Makefile"
check "its own build: runs the judge on this checkout" "$(env -u JUDGE_ROOT "$root/bin/judge" list 2>/dev/null)" \
  "judge ran with root $root"

echo "CMAKE_HOME_DIRECTORY:INTERNAL=$work/original" >"$build/CMakeCache.txt"; touch "$build/judge-built.stamp"
out=$(env -u JUDGE_ROOT "$root/bin/judge" list 2>"$work/err"); status=$?
check "a build copied from another checkout: the other's judge does not run" "$out" ""
check "a build copied from another checkout: it is configured and built anew (here the build fails)" "$status" "2"
if grep -q "was configured for $work/original, not for this checkout" "$work/err"; then echo "ok: says why"; else
  echo "FAILED: no message about the copied build:"; cat "$work/err"; fail=1; fi
if grep -q "CMAKE_HOME_DIRECTORY:INTERNAL=$root\$" "$build/CMakeCache.txt"; then echo "ok: configured for this checkout"
else echo "FAILED: the build is not configured for $root"; fail=1; fi

# JUDGE_BUILD_DIR naming another checkout's build: refused, and that build left as it was.
other="$work/other-build"; mkdir -p "$other/bin"; cp "$build/bin/judge" "$other/bin/judge"
echo "CMAKE_HOME_DIRECTORY:INTERNAL=$work/original" >"$other/CMakeCache.txt"; touch "$other/Makefile"
out=$(env -u JUDGE_ROOT JUDGE_BUILD_DIR="$other" "$root/bin/judge" list 2>"$work/err"); status=$?
check "JUDGE_BUILD_DIR naming another checkout's build: the judge does not run" "$out" ""
check "JUDGE_BUILD_DIR naming another checkout's build: a usage error" "$status" "2"
if grep -q "JUDGE_BUILD_DIR=$other is the build of $work/original, not of this checkout" "$work/err"; then
  echo "ok: says why"; else echo "FAILED: no message about JUDGE_BUILD_DIR:"; cat "$work/err"; fail=1; fi
if grep -q "CMAKE_HOME_DIRECTORY:INTERNAL=$work/original\$" "$other/CMakeCache.txt" && [ -f "$other/Makefile" ]; then
  echo "ok: the other checkout's build is left as it was"; else echo "FAILED: $other was changed"; fail=1; fi

rm -f "$build/Makefile"; touch "$build/judge-built.stamp" # a configure that failed or was stopped
out=$(env -u JUDGE_ROOT "$root/bin/judge" list 2>"$work/err"); status=$?
check "an unfinished configure: the judge does not run" "$out" ""
check "an unfinished configure: it is configured and built again (here the build fails)" "$status" "2"
if grep -q "holds no finished configuration" "$work/err"; then echo "ok: says why"; else
  echo "FAILED: no message about the unfinished configure:"; cat "$work/err"; fail=1; fi
if [ -f "$build/Makefile" ]; then echo "ok: configured again"
else echo "FAILED: $build has no Makefile after bin/judge"; fail=1; fi
exit $fail
