#!/usr/bin/env python3
"""scripts/ladder-tables.py on reports shaped as `judge run --json` writes them: the table's rows and
cells, the bars of the top step, the profile list, and one clear message for a report it cannot read."""

import json
import os
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "ladder-tables.py")
failures = []


def check(what, ok, detail=""):
    if not ok:
        failures.append(f"{what}{': ' + detail if detail else ''}")


def case(name, median_ms, speed, pct, peak, unit_key, baseline_ms):
    c = {"name": name, "hidden": True, "dims": [1], "shape": "1", "verdict": "AC", "message": "",
         "median_ms": median_ms, unit_key: speed, "pct_of_baseline": pct, "pct_of_peak": peak}
    if baseline_ms is not None:
        c["baseline"] = {"median_ms": baseline_ms}
    return c


def solution(path, unit, cases, verdict="AC"):
    return {"path": path, "verdict": verdict, "speed_unit": unit, "cases": cases}


def report(problem, unit, solutions):
    return {"problem": problem, "device": {"name": "NVIDIA H200", "uuid": "GPU-0123456789abcdef"},
            "baseline": {"label": "cuBLAS geam", "timed_at": "2026-12-06T22:00:00Z"}, "solutions": solutions}


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    # A memory-bound problem: the baseline takes 50 µs at 2000 GB/s on "small", 120 µs at 2800 GB/s on
    # "large"; step 2 passes it on both but moves only 80% of the peak on the large one.
    k = "gbps"
    transpose = report("transpose", "GB/s", [
        solution("p/accepted/01_naive.cu", "GB/s",
                 [case("small", 0.2, 500.0, 25.0, 15.0, k, 0.05), case("large", 0.48, 700.0, 25.0, 20.0, k, 0.12)]),
        solution("p/accepted/02_tiled.cu", "GB/s",
                 [case("small", 0.045, 2222.2, 111.1, 66.3, k, 0.05), case("large", 0.112, 3000.0, 107.1, 80.0, k, 0.12)]),
        solution("p/accepted/hostile_example.cu", "GB/s",
                 [case("small", 0.06, 1666.7, 83.3, 50.0, k, 0.05), case("large", 0.2, 1680.0, 60.0, 50.0, k, 0.12)]),
        solution("p/accepted/leetgpu_style.cu", "GB/s",
                 [case("small", 0.1, 1000.0, 50.0, 30.0, k, 0.05), case("large", 0.24, 1400.0, 50.0, 41.8, k, 0.12)]),
    ])
    # A compute-bound one whose top step falls short on one case and was not timed on another.
    k = "gflops"
    matmul = report("matmul", "GFLOPS", [
        solution("m/accepted/07_tc.cu", "GFLOPS",
                 [case("a", 0.0341, 31500.0, 94.7, 47.1, k, 0.0323), case("b", 0.0365, 21800.0, 94.3, 32.6, k, 0.0344)]),
        solution("m/accepted/08_split.cu", "GFLOPS",
                 [case("a", 0.0297, 36100.0, 108.6, 54.0, k, 0.0323), case("b", 0.0356, 22400.0, 96.6, 33.5, k, 0.0344)]),
    ])
    tp, mp = os.path.join(tmp, "transpose.json"), os.path.join(tmp, "matmul.json")
    for path, doc in ((tp, transpose), (mp, matmul)):
        with open(path, "w") as f:
            json.dump(doc, f)
    plist = os.path.join(tmp, "profile.tsv")
    r = run(tp, mp, "--gaps", "--profile-list", plist)
    out = r.stdout
    check("exit status 0", r.returncode == 0, r.stderr)
    check("the baseline row is the run's own timing", "| cuBLAS geam (baseline) | | 50.0 µs, 2000 GB/s | 120.0 µs, 2800 GB/s |" in out, out)
    check("a step's cell: median, figure, % of baseline, % of peak",
          "| 02_tiled | AC | 45.0 µs, 2222 GB/s (111.1%), 66.3% of peak | 112.0 µs, 3000 GB/s (107.1%), 80.0% of peak |" in out, out)
    check("leetgpu_style is shown", "| leetgpu_style | AC |" in out, out)
    check("a file outside the ladder is left out without --all", "hostile_example" not in out, out)
    check("no peak column for a compute-bound problem", "of peak" not in out.split("matmul on")[1], out)
    check("the peak bar is read on the largest case",
          "transpose: 02_tiled moves 80.0% of the DRAM peak on large, the largest timed case: misses the 85% bar" in out, out)
    check("the baseline bar names the case", "matmul: 08_split at 96.6% of the baseline on b (bar 100%)" in out, out)
    with open(plist) as f:
        rows = f.read().splitlines()
    check("the profile list holds each top step that misses a bar",
          rows == ["transpose\tp/accepted/02_tiled.cu\tlarge", "matmul\tm/accepted/08_split.cu\tb"], repr(rows))
    r = run(tp, "--all")
    check("--all keeps every solution", "| hostile_example | AC |" in r.stdout, r.stdout)

    # What a step teaches, from the opening comment of its file, where the files are at hand.
    os.makedirs(os.path.join(tmp, "p", "accepted"))
    with open(os.path.join(tmp, "p", "accepted", "02_tiled.cu"), "w") as f:
        f.write("// Ladder step 2: a tile through shared memory,\n// coalesced on both sides.\n//\n// More.\n")
    with open(os.path.join(tmp, "p", "accepted", "01_naive.cu"), "wb") as f:
        f.write(b"// Ladder step 1: \xff\xfe not text\n")
    r = run(tp, "--root", tmp)
    check("a step's lesson, across its comment's lines",
          "| 02_tiled | a tile through shared memory, coalesced on both sides | AC | 45.0 µs" in r.stdout, r.stdout)
    check("a file that is not text leaves its cell empty", "| 01_naive | | AC |" in r.stdout, r.stdout + r.stderr)
    check("the baseline row keeps its place", "| cuBLAS geam (baseline) | | | 50.0 µs" in r.stdout, r.stdout)
    check("no lesson column where no file is at hand", "what it teaches" not in run(mp, "--root", tmp).stdout)

    # Bad input: one message naming the file and what is wrong, exit 1.
    r = run(os.path.join(tmp, "absent.json"))
    check("a missing report", r.returncode == 1 and "absent.json: cannot be read" in r.stderr, r.stderr)
    broken = os.path.join(tmp, "broken.json")
    with open(broken, "w") as f:
        f.write('{"problem": "x", "device": {"name": "d"}}')
    r = run(broken)
    check("a report without solutions", r.returncode == 1 and "broken.json: no field 'solutions'" in r.stderr, r.stderr)
    with open(broken, "w") as f:
        f.write("{not json")
    r = run(broken)
    check("a report that is not JSON", r.returncode == 1 and "broken.json: not JSON (line 1" in r.stderr, r.stderr)

for f in failures:
    print(f"FAILED: {f}")
print(f"ladder-tables: {'all checks passed' if not failures else f'{len(failures)} check(s) failed'}")
sys.exit(1 if failures else 0)
