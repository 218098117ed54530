#!/usr/bin/env python3
"""Every test source builds against both Catch2 versions the judge meets: 2.13 (Debian 12, where CI runs)
and 3.x (Ubuntu 24.04, the GPU hosts). Catch2 2.13 declares Approx globally, and there a `using
Catch::Approx;` finds the vector matcher instead; 3.x declares it in Catch only. So a source that uses
Approx( names it under `#if JUDGE_CATCH_MAJOR >= 3`, as tests/support/catch.hpp's users do.

Usage: catch_versions_test.py SOURCE_DIR"""
import os
import re
import sys

GUARD = re.compile(r"#if JUDGE_CATCH_MAJOR >= 3\s*\nusing Catch::Approx;")


def problems(root):
    found = []
    for folder, _, files in os.walk(os.path.join(root, "tests")):
        for name in files:
            if not name.endswith(".cpp"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if re.search(r"\bApprox\(", text) and not GUARD.search(text):
                found.append(f"{os.path.relpath(path, root)}: uses Approx( without `#if JUDGE_CATCH_MAJOR >= 3` "
                             "and `using Catch::Approx;` under it: it will not build against Catch2 3.x")
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[-1])
        return 2
    found = problems(sys.argv[1])
    for line in found:
        print(line)
    print(f"{len(found)} problem(s)" if found else "catch_versions_test: every source builds with both Catch2 versions")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
