#!/usr/bin/env bash
# `cmake --install` gives a judge that runs from its prefix: installs this build to a temporary prefix and
# runs the installed judge from another folder, with a home and a cache of its own: it lists and shows the
# installed problems, builds a CPU reference (`cases --check`), compiles every example of vector_add and
# links its runner with the installed harness (`verify --compile-only`: nvcc, no GPU needed),
# makes a problem from the installed templates, and reads a course folder given with --root. The
# installed binary must name no path of the source or build tree, and nothing may appear in the source
# tree. Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd -P)"
source_dir="$(cd "$2" && pwd -P)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/judge-install-test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
prefix="$scratch/prefix"
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
  { cat "$scratch/install.log" >&2; fail "cmake --install $build --prefix $prefix failed"; }
judge="$prefix/bin/judge"
[ -x "$judge" ] || fail "no $judge after the install"
for tree in "$source_dir" "$build"; do
  if grep -q -a -F "$tree" "$judge"; then
    fail "$judge names $tree: a path of the machine it was built on is compiled in: $(tr -c '[:print:]' '\n' <"$judge" | grep -F "$tree" | sort -u | head -3 | tr '\n' ' ')"
  fi
done

# Another working folder, and a home, a cache and a secret that are the test's own.
elsewhere="$scratch/elsewhere"
mkdir -p "$elsewhere" "$scratch/home"
cd "$elsewhere"
unset JUDGE_ROOT JUDGE_CACHE_DIR JUDGE_SECRET_FILE XDG_CONFIG_HOME
export HOME="$scratch/home" XDG_CACHE_HOME="$scratch/cache"
source_before="$(git -C "$source_dir" status --porcelain --untracked-files=all 2>/dev/null || true)"

run() { # run NAME ARGS...: the installed judge, which must succeed; its output in $scratch/NAME.out
  local name="$1"
  shift
  local status=0
  "$judge" "$@" >"$scratch/$name.out" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    cat "$scratch/$name.out" >&2
    fail "judge $* failed (exit $status) when run from $prefix"
  fi
}
expect() { # expect NAME TEXT: the output of run NAME holds TEXT
  grep -q -F -- "$2" "$scratch/$1.out" || { cat "$scratch/$1.out" >&2; fail "judge $1: the output lacks \"$2\""; }
}

run list list
expect list matmul
expect list vector_add
run show show matmul
expect show "$(head -n 1 "$prefix/share/gpu-judge/problems/matmul/statement.md")"
# The CPU reference is built against the installed header.
run check cases vector_add --check
expect check "0 disagreeing with the CPU reference"
run verify verify vector_add --compile-only
# Each example is named by its installed path: the problems are the prefix's, not the source tree's.
expect verify "$prefix/share/gpu-judge/problems/vector_add/submissions/accepted/01_simple.cu"
[ -d "$scratch/cache/gpu-judge/runner-cache/vector_add" ] ||
  fail "verify left no runner cache in \$XDG_CACHE_HOME/gpu-judge/runner-cache (ls: $(ls -A "$scratch/cache" 2>&1))"
compgen -G "$scratch/cache/gpu-judge/runner-cache/vector_add/runner-*/runner" >/dev/null ||
  fail "verify linked no runner (with $prefix/lib/gpu-judge/libjudge_harness.a) into the runner cache"

# The templates are installed: a new problem is made beside the installed ones and listed with them.
run new_problem new-problem install_check
[ -f "$prefix/share/gpu-judge/problems/install_check/problem.yaml" ] ||
  fail "new-problem made no problem under $prefix/share/gpu-judge/problems"
run list_again list
expect list_again install_check

# --root names a course's own folder: only its problems are listed.
mkdir -p "$scratch/course/problems" "$scratch/course/testcases"
cp -r "$prefix/share/gpu-judge/problems/vector_add" "$scratch/course/problems/"
cp -r "$prefix/share/gpu-judge/testcases/vector_add" "$scratch/course/testcases/"
run course --root "$scratch/course" list
expect course vector_add
if grep -q -F matmul "$scratch/course.out"; then fail "judge --root $scratch/course list shows matmul, which is not there"; fi

source_after="$(git -C "$source_dir" status --porcelain --untracked-files=all 2>/dev/null || true)"
[ "$source_before" = "$source_after" ] || fail "the installed judge changed the source tree: $(diff <(echo "$source_before") <(echo "$source_after") | tail -5)"
echo "ok: the judge installed to a temporary prefix lists, shows, compiles vector_add's examples and makes a problem from there"
