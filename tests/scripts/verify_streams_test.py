#!/usr/bin/env python3
"""`judge verify --compile-only` prints each example's line as soon as its compile ends, not all of them
at the end: of two examples compiled side by side, the quick one's line comes while the slow one (a
thousand kernels to build) is still compiling.

  tests/scripts/verify_streams_test.py JUDGE SOURCE_ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

judge, source = sys.argv[1], sys.argv[2]
SLOW = """#include <utility>
// {stamp}: unique, so no cache has it
template <int N> __global__ void many(float* x) {{ x[threadIdx.x] = x[threadIdx.x] * N + N; }}
template <int... I> void launch_all(float* x, std::integer_sequence<int, I...>) {{ (many<I><<<1, 1>>>(x), ...); }}
extern "C" void solve(const float* A, const float* B, float* C, int N) {{
  launch_all(C, std::make_integer_sequence<int, 600>{{}});
}}
"""
with tempfile.TemporaryDirectory(prefix="judge-verify-stream-") as root:
    for folder in ("problems", "testcases"):
        shutil.copytree(os.path.join(source, folder, "vector_add"), os.path.join(root, folder, "vector_add"))
    examples = os.path.join(root, "problems", "vector_add", "submissions")
    shutil.rmtree(examples)
    os.makedirs(os.path.join(examples, "accepted"))
    stamp = f"{time.time()}"
    with open(os.path.join(source, "problems", "vector_add", "submissions", "accepted", "01_simple.cu")) as f:
        quick = f.read()
    with open(os.path.join(examples, "accepted", "a_quick.cu"), "w") as f:
        f.write(f"// {stamp}\n" + quick)
    with open(os.path.join(examples, "accepted", "b_slow.cu"), "w") as f:
        f.write(SLOW.format(stamp=stamp))
    env = dict(os.environ, JUDGE_CACHE_DIR=os.path.join(root, "cache"))
    start = time.monotonic()
    proc = subprocess.Popen([judge, "--root", root, "verify", "vector_add", "--compile-only"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    seen = {}
    for line in proc.stdout:
        print(f"{time.monotonic() - start:6.1f} s  {line.rstrip()}", flush=True)
        for name in ("a_quick.cu", "b_slow.cu"):
            if name in line and name not in seen:
                seen[name] = time.monotonic() - start
    status = proc.wait()
    ended = time.monotonic() - start
    ok = status == 0 and len(seen) == 2 and seen["a_quick.cu"] < seen["b_slow.cu"] - 2
    print(("ok" if ok else "FAIL") + f": exit {status}; quick example's line at {seen.get('a_quick.cu', -1):.1f} s, "
          f"slow one's at {seen.get('b_slow.cu', -1):.1f} s, end at {ended:.1f} s")
    sys.exit(0 if ok else 1)
