#!/usr/bin/env python3
"""A class graded through `judge serve` on this GPU host, for the online judge's acceptance figures:

  scripts/class-run.py [--problem matmul] [--students 30] [--gpus all|0|0,1] [--local] [--cold] [--judge bin/judge]

Each student submits one of the problem's accepted examples (problems/<problem>/submissions/accepted/*.cu,
in turn) through the API; the script waits until all are graded and prints the wall time from the first
submission to the last verdict, the submissions each GPU graded, and each submission's verdict and score.
A watcher reads the class's submissions every 0.1 s and prints from what it saw: the time from submit to
verdict (median, 95th percentile, max), each GPU's busy fraction (the union of the times a submission it
held was running, over the wall time), and the compile queue (queued or compiling) over time.
With --local, each distinct file is also graded locally (`judge run --json --no-db`) and the API's scores
are compared with the local ones (the largest difference, in %). Run it with --gpus 0 and then --gpus all
on a two-GPU machine for the speed-up. Exits 1 if a submission is not done or not accepted.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from class_serve import class_server, watcher  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default=os.path.join(ROOT, "bin", "judge"))
    ap.add_argument("--problem", default="matmul")
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--gpus", default="all")
    ap.add_argument("--local", action="store_true", help="also grade each file locally and compare scores")
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--keep-db", metavar="FILE", help="copy the class's results store here at the end (for the board)")
    ap.add_argument("--cold", action="store_true",
                    help="leave the problem's runner, CPU reference and baseline unbuilt (default: built and the "
                         "baseline timed first, outside the class's time, as a course's server has them before "
                         "its class submits)")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(ROOT, "problems", a.problem, "submissions", "accepted", "*.cu")))
    if not files:
        raise SystemExit(f"class-run: no accepted examples of {a.problem}")
    if not a.cold:
        # One local grading builds what every submission of the problem shares and times the baseline,
        # which is then kept: a course's server has timed it before its class submits (without that, the
        # first batch of the class times it, 1.5 s for matmul on the H200). Its verdict does not matter
        # here (without a GPU it only compiles).
        subprocess.run([a.judge, "run", a.problem, files[0], "--no-db"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"class-run: {a.problem}'s runner, CPU reference and baseline built, the baseline timed, before the class "
              "(--cold: not)")

    with class_server(a.judge, a.students, a.gpus, log_path=os.environ.get("CLASS_RUN_LOG"),
                      keep_db=a.keep_db) as server:
        ids, submit_times = {}, {}
        start = time.monotonic()
        watch = watcher(server, a.students, start)
        for i in range(a.students):
            path = files[i % len(files)]
            sid = server.submit(server.account(i), a.problem, path)
            ids[sid], submit_times[sid] = path, time.monotonic() - start
        results, pending = server.wait_for(ids, start, a.timeout)
        seconds = time.monotonic() - start
        watch.stop()

    per_gpu = {}
    for s in results.values():
        per_gpu[s["gpu"]] = per_gpu.get(s["gpu"], 0) + 1
    print(f"class-run: {len(results)} of {len(ids)} submissions of {a.problem} graded in {seconds:.1f} s "
          f"(--gpus {a.gpus})")
    for gpu, n in sorted(per_gpu.items()):
        mine = [r for r in results.values() if r["gpu"] == gpu and r.get("started_at") and r.get("finished_at")]
        span = ""
        if mine:
            # When its GPU first started and last finished, from the API's timestamps (whole seconds):
            # the gaps say whether the GPU waited for submissions or the class waited for the GPU.
            first = min(r["started_at"] for r in mine)
            last = max(r["finished_at"] for r in mine)
            submitted = min(r["submitted_at"] for r in results.values())
            span = f" (first started {first}, last finished {last}; first submitted {submitted})"
        print(f"  {n:3d} graded on {gpu or '(no GPU)'}{span}")
    watch.report(submit_times, seconds, "class-run")
    ok = not pending
    local = {}
    if a.local:
        for path in sorted(set(ids.values())):
            with tempfile.NamedTemporaryFile(suffix=".json") as j:
                subprocess.run([a.judge, "run", a.problem, path, "--json", j.name, "--no-db"], capture_output=True)
                local[path] = json.load(open(j.name))["solutions"][0]["score"]
    worst = 0.0
    for sid, s in sorted(results.items()):
        r = s.get("result") or {}
        score = r.get("score", 0)
        line = f"  #{sid:<4} {s['account']:5} {os.path.basename(ids[sid]):28} {s['state']:6} {r.get('verdict', '-'):3} {score:12.1f}"
        if ids[sid] in local and local[ids[sid]]:
            diff = 100 * (score - local[ids[sid]]) / local[ids[sid]]
            worst = max(worst, abs(diff))
            line += f"  local {local[ids[sid]]:12.1f} ({diff:+.2f}%)"
        print(line)
        ok = ok and s["state"] == "done" and r.get("verdict") == "AC"
    if local:
        print(f"class-run: largest difference from local grading: {worst:.2f}%")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
