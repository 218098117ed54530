#!/usr/bin/env bash
# Reads make's output on stdin (through `cmake --build`), appends every line to the log file $1, and says
# on stderr what is being built, one line per file: "[ 42%] Building CXX object
# judge/problem/CMakeFiles/judge_problem.dir/size_expr.cpp.o" becomes "bin/judge: [ 42%] building
# judge/problem/size_expr.cpp". Prints nothing when nothing is built. Used by bin/judge.
set -uo pipefail
log="$1"
announced=""
while IFS= read -r line; do
  printf '%s\n' "$line" >>"$log"
  if [[ $line =~ ^\[\ *([0-9]+)%\]\ Building\ [A-Z]+\ object\ (.*)/CMakeFiles/[^/]+\.dir/(.*)\.o$ ]]; then
    if [ -z "$announced" ]; then
      echo "bin/judge: building the judge (the first build takes a few minutes on 2 cores)" >&2
      announced=1
    fi
    printf 'bin/judge: [%3s%%] building %s/%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}" >&2
  elif [[ $line =~ ^\[\ *([0-9]+)%\]\ Linking ]] && [ -n "$announced" ]; then
    printf 'bin/judge: [%3s%%] linking\n' "${BASH_REMATCH[1]}" >&2
  fi
done
[ -z "$announced" ] || echo "bin/judge: built" >&2
