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
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(port, token, method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


def report_watch(seen, submit_times, queue_samples, seconds):
    """Submit-to-verdict times, GPU busy fractions and the compile queue, from the watcher's samples."""
    latency = [seen[i]["done"] - t for i, t in submit_times.items() if "done" in seen.get(i, {})]
    if latency:
        print(f"class-run: submit to verdict: median {percentile(latency, 0.5):.2f} s, "
              f"95th percentile {percentile(latency, 0.95):.2f} s, max {max(latency):.2f} s "
              f"({len(latency)} submissions, watched every 0.1 s)")
    intervals = {}
    for i in submit_times:
        mine = seen.get(i, {})
        if "running" in mine and "gpu" in mine:
            intervals.setdefault(mine["gpu"], []).append((mine["running"], mine.get("done", mine.get("failed", seconds))))
    for gpu, spans in sorted(intervals.items()):
        busy, end = 0.0, 0.0
        for a_, b in sorted(spans):
            a_ = max(a_, end)
            if b > a_:
                busy += b - a_
                end = b
        print(f"class-run: {gpu}: busy {100 * busy / seconds:.0f}% of {seconds:.1f} s")
    if queue_samples:
        step = max(1, len(queue_samples) // 20)
        timeline = " ".join(f"{t:.1f}s:{n}" for t, n in queue_samples[::step])
        print(f"class-run: compile queue (queued or compiling): max {max(n for _, n in queue_samples)}; {timeline}")


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

    with tempfile.TemporaryDirectory(prefix="judge-class-") as tmp:
        db = os.path.join(tmp, "judge.db")
        with open(os.path.join(tmp, "roster.csv"), "w") as f:
            f.write("".join(f"s{i:02d},student\n" for i in range(a.students)) + "teacher,instructor\n")
        out = subprocess.run([a.judge, "users", "import", os.path.join(tmp, "roster.csv"), "--db", db],
                             check=True, capture_output=True, text=True).stdout
        tokens = dict(line.split() for line in out.splitlines() if line.strip())
        server = subprocess.Popen([a.judge, "serve", "--listen", "127.0.0.1:0", "--db", db, "--gpus", a.gpus,
                                   "--per-minute", "100000", "--queued-at-once", "100000"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        port = None
        for line in server.stdout:
            print(line, end="")
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            raise SystemExit("class-run: judge serve ended before it listened")
        # The server's log is read to the end meanwhile: a full pipe would stop the server's writers.
        log_path = os.environ.get("CLASS_RUN_LOG", os.path.join(tmp, "serve.log"))
        log_file = open(log_path, "w")
        drain = threading.Thread(target=lambda: [log_file.write(l) for l in server.stdout], daemon=True)
        drain.start()
        seen = {}  # id -> {state: first time seen (s since start)}; "gpu" -> its GPU
        queue_samples = []  # (t, submissions queued or compiling)
        watching = threading.Event()

        def watch():
            while not watching.is_set():
                t = time.monotonic() - start
                try:
                    listed = call(port, tokens["teacher"], "GET", f"/api/v1/submissions?limit={min(1000, a.students)}")
                except OSError:
                    continue
                queue_samples.append((t, sum(1 for s in listed if s["state"] in ("queued", "compiling"))))
                for s in listed:
                    mine = seen.setdefault(s["id"], {})
                    mine.setdefault(s["state"], t)
                    if s.get("gpu"):
                        mine["gpu"] = s["gpu"]
                time.sleep(0.1)

        try:
            ids, submit_times = {}, {}
            start = time.monotonic()
            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            for i in range(a.students):
                name, path = f"s{i:02d}", files[i % len(files)]
                with open(path) as f:
                    body = {"problem": a.problem, "files": [{"name": os.path.basename(path), "content": f.read()}]}
                sid = call(port, tokens[name], "POST", "/api/v1/submissions", body)["id"]
                ids[sid], submit_times[sid] = path, time.monotonic() - start
            pending, results = set(ids), {}
            while pending and time.monotonic() - start < a.timeout:
                for sid in list(pending):
                    s = call(port, tokens["teacher"], "GET", f"/api/v1/submissions/{sid}")
                    if s["state"] in ("done", "failed"):
                        results[sid] = s
                        pending.discard(sid)
                time.sleep(0.5)
            seconds = time.monotonic() - start
            time.sleep(0.3)  # the watcher's last look
            watching.set()
            watcher.join(timeout=10)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=120)
            drain.join(timeout=10)
            log_file.close()
            if a.keep_db:  # through SQLite's backup: the store may still have a write-ahead log beside it
                with sqlite3.connect(db) as src, sqlite3.connect(a.keep_db) as dst:
                    src.backup(dst)

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
    report_watch(seen, submit_times, queue_samples, seconds)
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
