#!/usr/bin/env bash
# bin/judge's build progress (scripts/build-progress.sh): make's lines become one line per file on stderr,
# every line reaches the log, and a build with nothing to do prints nothing.
set -uo pipefail
progress="$1"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail=0
expect() { if grep -qF -- "$2" "$3"; then echo "ok: $1"; else echo "FAILED: $1 (no '$2' in $3:)"; cat "$3"; fail=1; fi; }
printf '%s\n' "[ 10%] Building CXX object judge/problem/CMakeFiles/judge_problem.dir/size_expr.cpp.o" \
  "[ 42%] Building CUDA object harness/cuda/CMakeFiles/harness_cuda.dir/generate.cu.o" \
  "[ 50%] Linking CXX static library libjudge_problem.a" "[100%] Built target judge_cli" |
  "$progress" "$work/build.log" 2>"$work/stderr"
expect "says that the judge is being built" "bin/judge: building the judge" "$work/stderr"
expect "names each file with its folder" "bin/judge: [ 10%] building judge/problem/size_expr.cpp" "$work/stderr"
expect "names CUDA files too" "bin/judge: [ 42%] building harness/cuda/generate.cu" "$work/stderr"
expect "says when it links" "bin/judge: [ 50%] linking" "$work/stderr"
expect "says when it is done" "bin/judge: built" "$work/stderr"
expect "keeps every line in the log" "[100%] Built target judge_cli" "$work/build.log"
printf '%s\n' "[100%] Built target judge_cli" | "$progress" "$work/quiet.log" 2>"$work/quiet"
if [ -s "$work/quiet" ]; then echo "FAILED: a build with nothing to do printed:"; cat "$work/quiet"; fail=1; else echo "ok: nothing to build, nothing printed"; fi
exit $fail
