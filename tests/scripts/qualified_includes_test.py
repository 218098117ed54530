#!/usr/bin/env python3
"""Every include of a header of common/, harness/ or judge/ names it by its path from the top of the tree
("judge/grading/grader.hpp"), in the product, its tests and bench/: a bare name ("grader.hpp") would find
nothing (each library's include folder holds only the link named by its folder's path) or, with a folder
put back on an include path by hand, the wrong one of two headers of the same name. Also: no two product
headers share a name and folder path, and no source folder is called build/ or spec/ (a newcomer reads
build/ as CMake's output). Prints each offending line; exit 1 if any."""
import os
import re
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
try:
    files = subprocess.check_output(["git", "-C", root, "ls-files"], text=True).split()
except (OSError, subprocess.CalledProcessError):
    print("SKIPPED: not a git checkout")
    sys.exit(77)
product = ("common/", "harness/", "judge/")
headers = [f for f in files if f.startswith(product) and f.endswith((".h", ".hpp", ".cuh"))]
by_name = {}
for h in headers:
    by_name.setdefault(os.path.basename(h), []).append(h)
include = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)
problems = []
for f in files:
    if not f.endswith((".c", ".cc", ".cpp", ".h", ".hpp", ".cu", ".cuh")):
        continue
    if not f.startswith(product + ("tests/", "bench/")) or f.startswith("tests/data/"):
        continue
    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as text:
        for number, line in enumerate(text, 1):
            m = include.match(line)
            if not m:
                continue
            name = m.group(1) or m.group(2)
            if "/" not in name and name in by_name:
                problems.append(f"{f}:{number}: #include of {name} by bare name: write \"{by_name[name][0]}\"")
            elif name.startswith(product) and name not in headers:
                problems.append(f"{f}:{number}: #include \"{name}\" names no header of the tree")
for f in files:
    parts = f.split("/")
    if parts[0] in ("judge", "harness", "common") and any(p in ("build", "spec") for p in parts[1:-1]):
        problems.append(f"{f}: a source folder named build/ or spec/")
for p in sorted(set(problems)):
    print(p)
if problems:
    print(f"{len(set(problems))} problem(s)")
    sys.exit(1)
print(f"ok: {len(headers)} headers of the product, every include of them by its path")
