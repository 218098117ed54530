#!/usr/bin/env bash
# The tree configures with CMake's Ninja generator and Ninja accepts what it wrote: every path has one
# rule (a custom command's output named like a target of the same folder is two rules for one path, and
# Ninja then refuses to build anything: "multiple rules generate ..."). Configures a fresh build folder and
# has Ninja load it and list its targets; nothing is compiled. Skipped (77) where there is no ninja.
set -uo pipefail
repo="$1"
ninja=$(command -v ninja || command -v ninja-build) || { echo "SKIPPED: no ninja on this machine"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if ! cmake -S "$repo" -B "$work/build" -G Ninja -DCMAKE_MAKE_PROGRAM="$ninja" >"$work/configure.log" 2>&1; then
  echo "FAILED: cmake -G Ninja did not configure:"; tail -20 "$work/configure.log"; exit 1
fi
if ! (cd "$work/build" && "$ninja" -t targets all >"$work/targets.txt" 2>"$work/errors.txt"); then
  echo "FAILED: Ninja refused the build CMake wrote:"; grep -m 5 -i "error" "$work/errors.txt"; exit 1
fi
echo "ok: Ninja loads the build, $(wc -l <"$work/targets.txt") targets"
