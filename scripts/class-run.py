#!/usr/bin/env python3
"""A class graded through `judge serve` on this GPU host, for the online judge's acceptance figures:

  scripts/class-run.py [--problem matmul] [--students 30] [--gpus all|0|0,1] [--local] [--judge bin/judge]

Each student submits one of the problem's accepted examples (problems/<problem>/submissions/accepted/*.cu,
in turn) through the API; the script waits until all are graded and prints the wall time from the first
submission to the last verdict, the submissions each GPU graded, and each submission's verdict and score.
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
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(port, token, method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default=os.path.join(ROOT, "bin", "judge"))
    ap.add_argument("--problem", default="matmul")
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--gpus", default="all")
    ap.add_argument("--local", action="store_true", help="also grade each file locally and compare scores")
    ap.add_argument("--timeout", type=float, default=3600)
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(ROOT, "problems", a.problem, "submissions", "accepted", "*.cu")))
    if not files:
        raise SystemExit(f"class-run: no accepted examples of {a.problem}")

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
        try:
            ids = {}
            start = time.monotonic()
            for i in range(a.students):
                name, path = f"s{i:02d}", files[i % len(files)]
                with open(path) as f:
                    body = {"problem": a.problem, "files": [{"name": os.path.basename(path), "content": f.read()}]}
                ids[call(port, tokens[name], "POST", "/api/v1/submissions", body)["id"]] = path
            pending, results = set(ids), {}
            while pending and time.monotonic() - start < a.timeout:
                for sid in list(pending):
                    s = call(port, tokens["teacher"], "GET", f"/api/v1/submissions/{sid}")
                    if s["state"] in ("done", "failed"):
                        results[sid] = s
                        pending.discard(sid)
                time.sleep(0.5)
            seconds = time.monotonic() - start
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=120)

    per_gpu = {}
    for s in results.values():
        per_gpu[s["gpu"]] = per_gpu.get(s["gpu"], 0) + 1
    print(f"class-run: {len(results)} of {len(ids)} submissions of {a.problem} graded in {seconds:.1f} s "
          f"(--gpus {a.gpus})")
    for gpu, n in sorted(per_gpu.items()):
        print(f"  {n:3d} graded on {gpu or '(no GPU)'}")
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
