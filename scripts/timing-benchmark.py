#!/usr/bin/env python3
"""Timing benchmark: how long a verdict takes, and whether the judge's figures are the same every run.

Prints, as Markdown tables for docs/timing.md:
  1. time to verdict of one matmul solution: with a cold compile (an empty runner cache), with its runner
     cached, and cached with --no-timing;
  2. a class of 30 distinct matmul solutions (the ladder's steps in turn, each handed in by several
     "students": the author line makes every file's content, so its compile, distinct) graded in one `judge` call, cold cache, then again with
     every compile cached;
  3. RUNS separate `judge` runs of the ladder: every step's score and every case's median per run, and the
     spread (max - min) / median over the runs;
  4. two judges started together on the GPU against each alone (the per-GPU lock).
Every `judge` call goes into a scratch results database and cache under --out, so nothing of the user's
is touched. Needs a GPU.

Usage: scripts/timing-benchmark.py [--runs 5] [--out DIR] [--skip class,pair]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JUDGE = os.path.join(ROOT, "bin", "judge")
LADDER_DIR = os.path.join(ROOT, "problems", "matmul", "submissions", "accepted")
LADDER = sorted(f for f in os.listdir(LADDER_DIR) if f[:2].isdigit() and f.endswith(".cu"))
ONE = os.path.join(LADDER_DIR, "04_register_1d.cu")


def judge(args, out, cache, log_name):
    """Runs bin/judge with the benchmark's cache; returns (seconds, exit status, parsed JSON or None)."""
    env = dict(os.environ, JUDGE_CACHE_DIR=cache)
    json_path = os.path.join(out, log_name + ".json")
    start = time.monotonic()
    with open(os.path.join(out, log_name + ".log"), "w") as log:
        status = subprocess.call([JUDGE] + args + ["--no-db", "--json", json_path], stdout=log,
                                 stderr=subprocess.STDOUT, env=env)
    seconds = time.monotonic() - start
    report = None
    if os.path.exists(json_path):
        with open(json_path) as f:
            report = json.load(f)
    return seconds, status, report


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def verdict_times(out):
    cache = fresh_dir(os.path.join(out, "cache-one"))
    # The problem's own builds (CPU reference, runner, baseline) are cached per problem, not per
    # solution: a first call warms them, as a course's server would have done long before.
    judge(["matmul", os.path.join(LADDER_DIR, "01_naive_row_per_thread_x.cu"), "--no-timing"], out, cache, "warm")
    rows = []
    for name, args, log in (
            ("one solution, cold compile (baseline timed now)", [], "one-cold"),
            ("one solution, runner cached (baseline kept from the run before)", [], "one-cached"),
            ("one solution, runner cached, --rebaseline", ["--rebaseline"], "one-rebaseline"),
            ("one solution, cached, --no-timing", ["--no-timing"], "one-no-timing")):
        seconds, status, report = judge(["matmul", ONE] + args, out, cache, log)
        rows.append((name, seconds, status, report))
    print("\n## Time to verdict (matmul, 04_register_1d.cu)\n")
    print("| what | seconds | exit | score |")
    print("|---|---:|---:|---:|")
    for name, seconds, status, report in rows:
        score = ((report or {}).get("solutions") or [{}])[0].get("score") or 0
        print(f"| {name} | {seconds:.2f} | {status} | {score:.0f} |")
    print_phases([(name, report) for name, _, _, report in rows])


def print_phases(named_reports):
    """Where each call's time went, from the phases its --json report lists (grading_run.hpp)."""
    names = []
    for _, report in named_reports:
        for p in (report or {}).get("phases", []):
            if p["phase"] not in names:
                names.append(p["phase"])
    if not names:
        return
    print("\n### Where the time went (s, from the reports' phases; the rest is start-up and output)\n")
    print("| call | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for label, report in named_reports:
        phases = {p["phase"]: p["seconds"] for p in (report or {}).get("phases", [])}
        print(f"| {label} | " + " | ".join(f"{phases[n]:.2f}" if n in phases else "-" for n in names) + " |")


def class_of_30(out):
    folder = fresh_dir(os.path.join(out, "class"))
    # Exactly 30 files: the ladder's steps in turn, each handed in again by the next "student".
    for i in range(30):
        step, student = LADDER[i % len(LADDER)], i // len(LADDER)
        with open(os.path.join(LADDER_DIR, step)) as f:
            source = f.read()
        with open(os.path.join(folder, f"student{student}_{step}"), "w") as f:
            f.write(f"// author: student{student}\n" + source)
    count = len(os.listdir(folder))
    cache = fresh_dir(os.path.join(out, "cache-class"))
    judge(["matmul", os.path.join(LADDER_DIR, "01_naive_row_per_thread_x.cu"), "--no-timing"], out, cache, "warm-class")
    rows = []
    # Cold, then the same class again with every compile cached (a resubmission, a regrade).
    for label, log in (("cold compiles", "class"), ("cached compiles", "class-cached")):
        seconds, status, report = judge(["matmul", folder], out, cache, log)
        accepted = sum(1 for s in (report or {}).get("solutions", []) if s.get("verdict") == "AC")
        rows.append((label, seconds, status, accepted, report))
    print(f"\n## A class of {count} (one `judge` call each)\n")
    print("| compiles | solutions | accepted | seconds | exit |")
    print("|---|---:|---:|---:|---:|")
    for label, seconds, status, accepted, _ in rows:
        print(f"| {label} | {count} | {accepted} | {seconds:.1f} | {status} |")
    print_phases([(f"class of 30, {label}", report) for label, _, _, _, report in rows])


def spread(values):
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return None
    return (max(values) - min(values)) / statistics.median(values) * 100


def ladder_runs(out, runs):
    cache = fresh_dir(os.path.join(out, "cache-ladder"))
    paths = [os.path.join(LADDER_DIR, step) for step in LADDER]
    scores = {step: [] for step in LADDER}
    medians = {}
    precision = {}
    for run in range(runs):
        _, _, report = judge(["matmul"] + paths, out, cache, f"ladder-{run + 1}")
        for solution in (report or {}).get("solutions", []):
            step = os.path.basename(solution["path"])
            if step not in scores:
                continue
            scores[step].append(solution.get("score"))
            for case in solution.get("cases", []):
                key = (step, case["name"])
                medians.setdefault(key, []).append(case.get("median_ms"))
                timing = case.get("timing") or {}
                precision.setdefault(key, []).append(timing.get("precision"))
    print(f"\n## The ladder over {runs} separate judge runs (score, GFLOPS)\n")
    print("| step | " + " | ".join(f"run {i + 1}" for i in range(runs)) + " | spread % |")
    print("|---|" + "---:|" * (runs + 1))
    for step in LADDER:
        cells = " | ".join(f"{s:.0f}" if s else "-" for s in scores[step])
        s = spread(scores[step])
        print(f"| {step} | {cells} | {'-' if s is None else f'{s:.2f}'} |")
    print(f"\n## Every case's median over the {runs} runs (µs)\n")
    print("| step | case | " + " | ".join(f"run {i + 1}" for i in range(runs)) + " | spread % |")
    print("|---|---|" + "---:|" * (runs + 1))
    for (step, case), values in sorted(medians.items()):
        if not any(values):
            continue  # an untimed case (samples, small shapes): checked, never timed
        cells = " | ".join(f"{v * 1000:.2f}" if v else "-" for v in values)
        s = spread(values)
        print(f"| {step} | {case} | {cells} | {'-' if s is None else f'{s:.2f}'} |")


def pair(out):
    cache = fresh_dir(os.path.join(out, "cache-pair"))
    a, b = (os.path.join(LADDER_DIR, s) for s in ("05_register_2d.cu", "04_register_1d.cu"))
    alone = [judge(["matmul", p], out, cache, f"alone-{i}")[2] for i, p in enumerate((a, b))]
    env = dict(os.environ, JUDGE_CACHE_DIR=cache)
    procs = []
    for i, p in enumerate((a, b)):
        log = open(os.path.join(out, f"together-{i}.log"), "w")
        procs.append(subprocess.Popen([JUDGE, "matmul", p, "--no-db", "--json", os.path.join(out, f"together-{i}.json")],
                                      stdout=log, stderr=subprocess.STDOUT, env=env))
    for p in procs:
        p.wait()
    together = []
    for i in range(2):
        with open(os.path.join(out, f"together-{i}.json")) as f:
            together.append(json.load(f))
    print("\n## Two judges started together on one GPU, against each alone (score)\n")
    print("| solution | alone | together | difference % |")
    print("|---|---:|---:|---:|")
    for lone, both in zip(alone, together):
        s1 = lone["solutions"][0]["score"]
        s2 = both["solutions"][0]["score"]
        name = os.path.basename(lone["solutions"][0]["path"])
        print(f"| {name} | {s1:.1f} | {s2:.1f} | {(s2 - s1) / s1 * 100:+.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", default="/tmp/timing-benchmark")
    parser.add_argument("--skip", default="", help="comma-separated parts to leave out: verdict,class,ladder,pair")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    skip = set(filter(None, args.skip.split(",")))
    if not os.access(JUDGE, os.X_OK):
        sys.exit(f"timing-benchmark: {JUDGE} is missing")
    if "verdict" not in skip:
        verdict_times(out)
    if "class" not in skip:
        class_of_30(out)
    if "ladder" not in skip:
        ladder_runs(out, args.runs)
    if "pair" not in skip:
        pair(out)
    print(f"\n(logs and JSON reports in {out})")


if __name__ == "__main__":
    main()
