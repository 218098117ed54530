#!/usr/bin/env python3
"""Fidelity benchmark: does the judge's timing agree with Nsight Compute, and with itself?

For the baseline and every accepted example of a problem, on the chosen cases:
  * the judge's median, from `judge run --json` repeated RUNS times (separate processes), and the spread
    of those medians ((max - min) / median);
  * Nsight Compute's gpu__time_duration.sum summed over the kernels of one solve() call (the runner is
    started under ncu with the request `judge profile-request` prints; the judge's own kernels, all named
    judge_*, are filtered out; ncu's default cache control flushes caches before each kernel, so both
    sides measure with a cold L2).
Prints a table and one verdict per row. A verdict is only given where the goal applies: single-kernel
rows of at least 20 us must be within +-3% of ncu; every row's spread must be at most 2%.

With --ncu-cache-control none, ncu does not flush anything itself: the kernel runs in the state the
judge's runner left (its own L2 flush before every sample), so what differs between the two figures is
the timer alone; use it with --ncu-samples N, so that ncu sees N timed samples of the case, each after
the judge's flush, and gives their median (without it, one checked call, not flushed by the runner). The summary then gives the offset judge - ncu in microseconds over the rows with a goal,
and each row's distance from that offset.

Usage: scripts/fidelity_benchmark.py [--runs 5] [--budget 1] [--ncu-cache-control all|none] [--out DIR]
Needs a GPU; ncu is optional (without it only the spread is reported).
"""
import argparse
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JUDGE = os.path.join(ROOT, "bin", "judge")
PLAN = {
    "matmul": ["aligned_1024x512x1024", "ragged_1001x513x777"],
    "vector_add": ["n_2pow24", "n_25000000"],
}
BASELINE = "(baseline)"


def judge_runs(problem, cases, runs, budget, out_dir):
    """{(solution, case): [median_ms per run]} including the baseline."""
    medians = {}
    accepted = os.path.join(ROOT, "problems", problem, "submissions", "accepted")
    for run in range(runs):
        out = os.path.join(out_dir, f"{problem}-run{run}.json")
        ladder = [os.path.join(accepted, f) for f in sorted(os.listdir(accepted)) if f.endswith(".cu") and f[:2].isdigit()]
        args = [JUDGE, "run", problem, *ladder, "--json", out, "--no-db", "--rebaseline", "--budget", str(budget)]
        for c in cases:
            args += ["--case", c]
        subprocess.run(args, stdout=subprocess.DEVNULL, check=False)
        with open(out) as f:
            doc = json.load(f)
        for sol in doc["solutions"]:
            name = os.path.splitext(os.path.basename(sol["path"].rstrip("/")))[0]
            for c in sol["cases"]:
                if c.get("timing"):
                    medians.setdefault((name, c["name"]), []).append(c["timing"]["median_ms"])
                if c.get("baseline") and sol is doc["solutions"][0]:
                    medians.setdefault((BASELINE, c["name"]), []).append(c["baseline"]["median_ms"])
    return medians


def ncu_time(problem, solution_path, case, ncu, log_dir, cache_control, samples):
    """(gpu__time_duration of one solve() call [ms], kernel count) or None: the sum over its kernels of one
    checked call, or with `samples`, the sum over kernel names of each name's median over the timed run."""
    args = [JUDGE, "profile-request", problem] + ([solution_path] if solution_path else []) + ["--case", case]
    if samples:
        args += ["--timed", str(samples)]
    req = subprocess.run(args, capture_output=True, text=True, check=False)
    if req.returncode != 0:
        return None
    lines = req.stdout.strip().split("\n")
    runner, solution, requests = lines[0], lines[1], "\n".join(lines[2:]) + "\n"
    scratch = tempfile.mkdtemp(prefix="fidelity-")
    # Events: ncu holds CUPTI, and the runner must not wait on a CUPTI it cannot have. --profiler: ncu's
    # injected library talks to ncu over sockets, which the runner's system-call filter denies.
    cmd = [ncu, "--clock-control", "none", "--cache-control", cache_control, "--csv", "--metrics", "gpu__time_duration.sum",
           "--kernel-name-base", "demangled", "--kernel-name", "regex:^(?!.*judge_)",
           "bash", "-c", f'exec "{runner}" --solution "{solution}" --scratch "{scratch}" --timing events --profiler 3>/dev/null']
    prof = subprocess.run(cmd, input=requests, capture_output=True, text=True, check=False)
    shutil.rmtree(scratch, ignore_errors=True)
    tag = f"{problem}-{os.path.basename(solution_path or 'baseline')}-{case}-cache-{cache_control}"
    with open(os.path.join(log_dir, f"ncu-{tag}.csv"), "w") as f:
        f.write(prof.stdout + prof.stderr)
    rows = [l for l in prof.stdout.splitlines() if l.startswith('"')]
    if not rows:
        return None
    total_ms, kernels, by_name = 0.0, 0, {}
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        value = float(row["Metric Value"].replace(",", ""))
        unit = row.get("Metric Unit", "ns")
        scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}.get(unit, 1e-6)
        total_ms += value * scale
        kernels += 1
        by_name.setdefault(row.get("Kernel Name", ""), []).append(value * scale)
    if samples:
        return sum(statistics.median(v) for v in by_name.values()), len(by_name)
    return total_ms, kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--ncu-cache-control", choices=["all", "none"], default="all",
                    help="all: ncu flushes caches before each kernel (its default); none: the judge's state")
    ap.add_argument("--ncu-samples", type=int, default=0,
                    help="under ncu, time N samples as the judge does and take their median (0: one checked call)")
    ap.add_argument("--out", default=tempfile.mkdtemp(prefix="fidelity-out-"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ncu = shutil.which("ncu")
    print(f"fidelity: judge median (of {args.runs} runs) vs Nsight Compute gpu__time_duration.sum, "
          f"ncu --cache-control {args.ncu_cache_control}"
          + (f", median of {args.ncu_samples} timed samples under ncu" if args.ncu_samples else ", one checked call"),
          flush=True)
    header = (f"{'problem':<11}{'solution':<28}{'case':<23}{'judge us':>10}{'ncu us':>10}{'diff':>8}{'diff us':>9}{'kern':>5}"
              f"{'spread':>8}  verdict")
    print(header)
    print("-" * len(header), flush=True)
    rows, misses, ncu_figures = 0, 0, 0
    offsets = []  # (judge - ncu) in microseconds, rows with a goal
    for problem, cases in PLAN.items():
        medians = judge_runs(problem, cases, args.runs, args.budget, args.out)
        accepted = os.path.join(ROOT, "problems", problem, "submissions", "accepted")
        # The ladder (files named NN_...): the other accepted examples exist to test robustness, not speed.
        solutions = [BASELINE] + sorted(os.path.splitext(f)[0] for f in os.listdir(accepted)
                                        if f.endswith(".cu") and f[:2].isdigit())
        for sol in solutions:
            path = None if sol == BASELINE else os.path.join(accepted, sol + ".cu")
            for case in cases:
                rows += 1
                runs = medians.get((sol, case), [])
                if not runs:
                    print(f"{problem:<11}{sol:<28}{case:<23}  NO DATA (not timed)", flush=True)
                    misses += 1
                    continue
                med = statistics.median(runs)
                spread = (max(runs) - min(runs)) / med if med > 0 else 0.0
                prof = ncu_time(problem, path, case, ncu, args.out, args.ncu_cache_control, args.ncu_samples) if ncu else None
                verdicts = []
                ncu_text, diff_text, us_text, kern_text = "-", "-", "-", "-"
                if prof:
                    ncu_figures += 1
                    ncu_ms, kernels = prof
                    diff = (med - ncu_ms) / ncu_ms
                    ncu_text, diff_text, kern_text = f"{ncu_ms * 1e3:.1f}", f"{diff * 100:+.1f}%", str(kernels)
                    us_text = f"{(med - ncu_ms) * 1e3:+.2f}"
                    if kernels == 1 and ncu_ms >= 0.020:
                        offsets.append((problem, sol, case, (med - ncu_ms) * 1e3))
                        ok = abs(diff) <= 0.03
                        verdicts.append("within 3%" if ok else "OUTSIDE 3%")
                        misses += not ok
                    else:
                        verdicts.append("no goal (" + ("several kernels" if kernels != 1 else "under 20 us") + ")")
                else:
                    verdicts.append("no ncu figure")
                    misses += bool(ncu)  # ncu is there and gave nothing: a failed row, not a pass
                ok_spread = spread <= 0.02
                verdicts.append("spread ok" if ok_spread else "SPREAD > 2%")
                misses += not ok_spread
                print(f"{problem:<11}{sol:<28}{case:<23}{med * 1e3:>10.1f}{ncu_text:>10}{diff_text:>8}{us_text:>9}{kern_text:>5}"
                      f"{spread * 100:>7.2f}%  {', '.join(verdicts)}", flush=True)
    print(f"\n{rows} rows, {misses} miss(es); raw JSON and ncu output in {args.out}")
    if offsets:
        # Is the difference one constant? The median offset, and how far each row lies from it.
        centre = statistics.median(o for *_, o in offsets)
        far = max(offsets, key=lambda r: abs(r[3] - centre))
        print(f"offset judge - ncu over {len(offsets)} rows: median {centre:+.2f} us, range "
              f"{min(o for *_, o in offsets):+.2f} to {max(o for *_, o in offsets):+.2f} us; farthest from the "
              f"median: {far[1]} {far[2]} {far[3] - centre:+.2f} us")
    if ncu and not ncu_figures:
        # Once, every row said "no ncu figure" and nothing else: the runner exited under ncu (its
        # system-call filter), and the benchmark looked like it had passed. Say so plainly.
        print(f"fidelity: ncu ({ncu}) gave no figure for any row: see the ncu-*.csv logs in {args.out}",
              file=sys.stderr)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
