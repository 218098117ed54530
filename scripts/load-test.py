#!/usr/bin/env python3
"""Load test of `judge serve`: a class of students submits at once; prints how many submissions per second
the server accepted and stored (stored, not graded: the server runs with --accept-only).

  scripts/load-test.py [--judge build/bin/judge] [--students 50] [--submissions 500] [--clients 8]
                       [--min-rate 0] [--max-seconds 0]

Exits 1 when a submission is not acknowledged with 202, when the store does not hold exactly the
acknowledged submissions, or when the rate is below --min-rate (or the run took more than --max-seconds).
"""
import argparse
import http.client
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_server(judge, db):
    proc = subprocess.Popen([judge, "serve", "--listen", "127.0.0.1:0", "--db", db, "--accept-only",
                             "--per-minute", "100000", "--queued-at-once", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, int(m.group(1))
    raise SystemExit("load-test: judge serve ended before it listened")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default=os.path.join(ROOT, "build", "bin", "judge"))
    ap.add_argument("--students", type=int, default=50)
    ap.add_argument("--submissions", type=int, default=500)
    ap.add_argument("--clients", type=int, default=8, help="concurrent connections")
    ap.add_argument("--min-rate", type=float, default=0, help="fail below this many accepted per second")
    ap.add_argument("--max-seconds", type=float, default=0, help="fail when submitting took longer")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="judge-load-") as tmp:
        db = os.path.join(tmp, "judge.db")
        roster = os.path.join(tmp, "roster.csv")
        with open(roster, "w") as f:
            f.write("name,role\n" + "".join(f"student{i:03d},student\n" for i in range(a.students)))
        out = subprocess.run([a.judge, "users", "import", roster, "--db", db], check=True, capture_output=True,
                             text=True).stdout
        tokens = [line.split()[1] for line in out.splitlines() if line.strip()]
        assert len(tokens) == a.students, out
        with open(os.path.join(ROOT, "solutions", "vector_add", "example.cu")) as f:
            source = f.read()

        proc, port = start_server(a.judge, db)
        try:
            acknowledged, failures = [], []
            lock = threading.Lock()

            def client(k):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                for n in range(k, a.submissions, a.clients):
                    body = json.dumps({"problem": "vector_add",
                                       "files": [{"name": "a.cu", "content": f"// try {n}\n" + source}]}).encode()
                    conn.request("POST", "/api/v1/submissions", body,
                                 {"Authorization": "Bearer " + tokens[n % a.students],
                                  "Content-Type": "application/json"})
                    r = conn.getresponse()
                    text = r.read()
                    with lock:
                        if r.status == 202:
                            acknowledged.append(json.loads(text)["id"])
                        else:
                            failures.append(f"{r.status} {text[:200]!r}")
                conn.close()

            threads = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
            start = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            seconds = time.monotonic() - start
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)

        stored = {row[0] for row in sqlite3.connect(db).execute("SELECT id FROM queued_submissions")}
        rate = len(acknowledged) / seconds
        print(f"load-test: {len(acknowledged)} of {a.submissions} submissions from {a.students} students accepted "
              f"in {seconds:.2f} s over {a.clients} connections: {rate:.0f} per second (stored, not graded)")
        ok = True
        if failures:
            print(f"load-test: {len(failures)} refused, e.g. {failures[0]}")
            ok = False
        if stored != set(acknowledged):
            print(f"load-test: the store holds {len(stored)} submissions, {len(acknowledged)} were acknowledged")
            ok = False
        if rate < a.min_rate:
            print(f"load-test: below the required {a.min_rate:.0f} per second")
            ok = False
        if a.max_seconds and seconds > a.max_seconds:
            print(f"load-test: took more than {a.max_seconds:.0f} s")
            ok = False
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
