#!/usr/bin/env python3
"""A deadline night on loopback: a class submits and follows its results while slow clients and a body
attack run beside it. Prints a table (docs/deploy.md quotes it); a benchmark, not a timed test.

  scripts/server-load-benchmark.py [--judge build/bin/judge] [--students 300] [--submissions 3000]
      [--submit-seconds 300] [--max-seconds 600] [--slow 200] [--variants 12]

The server runs as deployed (compile threads, --gpus as given; without a GPU every submission is compiled
and ends "not run", which is as much work as this machine can do for it). Sources come in --variants
versions, so most compiles are answered by the build cache, as a class's near-identical attempts are.

First, before the class: 500 slow connections (a header line every 3 s) and a signed-in student's
submits beside them (the latency printed), and every framing of a 256 MiB body without a token (the
server's memory printed). Then the class: each submission is acknowledged (202; a 429, a rate limit, is retried
2 s later), and students read their submissions while they wait; beside them, --slow slow connections
and a stream of 256 MiB chunked bodies without a token. Checked at the end: nothing lost (every 202 is in
the store and ends done or failed), each submission settled exactly once (the server's log), the server's
peak memory.

Exits 1 when a check fails.
"""
import argparse
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server_attacks as attacks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = 'extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {{ /* v{} */ }}\n'


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


class server:
    def __init__(self, judge, db, args):
        self.log_lines = []
        self.proc = subprocess.Popen([judge, "serve", "--listen", "127.0.0.1:0", "--db", db, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.proc.stdout:
            self.log_lines.append(line)
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                break
        else:
            raise SystemExit("server-load-benchmark: judge serve ended before it listened:\n" + "".join(self.log_lines))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.log_lines.append(line)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default=os.path.join(ROOT, "build", "bin", "judge"))
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--submissions", type=int, default=3000)
    ap.add_argument("--submit-seconds", type=float, default=300, help="the class's submissions spread over this")
    ap.add_argument("--max-seconds", type=float, default=600, help="all submitted and settled within this")
    ap.add_argument("--slow", type=int, default=200, help="slow connections beside the class")
    ap.add_argument("--variants", type=int, default=12, help="distinct sources among the submissions")
    ap.add_argument("--gpus", default="all")
    ap.add_argument("--clients", type=int, default=48, help="threads that submit for the class")
    ap.add_argument("--readers", type=int, default=8, help="threads that read for the class")
    a = ap.parse_args()
    problems = []

    with tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
        db = os.path.join(tmp, "judge.db")
        roster = os.path.join(tmp, "roster.csv")
        with open(roster, "w") as f:
            f.write("name,role\n" + "".join(f"student{i:03d},student\n" for i in range(a.students)))
        out = subprocess.run([a.judge, "users", "import", roster, "--db", db], check=True, capture_output=True,
                             text=True).stdout
        tokens = [line.split()[1] for line in out.splitlines() if line.strip()]
        assert len(tokens) == a.students, out
        s = server(a.judge, db, ["--gpus", a.gpus, "--per-minute", "20", "--queued-at-once", "10"])
        port = s.port
        rows = []

        def headers(token):
            return {"Authorization": "Bearer " + token, "Content-Type": "application/json"}

        def body(n):
            return json.dumps({"problem": "matmul", "files": [{"name": "solution.cu",
                                                               "content": SOURCE.format(n % a.variants)}]})

        try:
            start_rss = attacks.rss_mib(s.proc.pid)[0]
            # --- 500 slow connections, a student submitting beside them ---
            slow = attacks.slow_clients(port, 500)
            time.sleep(3)
            beside = []
            for n in range(20):
                secs, status, _ = attacks.timed_request(port, "POST", "/api/v1/submissions", body(n),
                                                        headers(tokens[n % len(tokens)]), timeout=10)
                beside.append(secs if status == 202 else float("inf"))
            opened = slow.open_now
            slow.stop()
            rows.append((f"submit beside {opened} slow connections (20 submits)",
                         f"p95 {percentile(beside, 95) * 1000:.0f} ms, max {max(beside) * 1000:.0f} ms"))
            if max(beside) >= 1.0:
                problems.append("a submit beside 500 slow connections took 1 s or more")
            # --- bodies without a token, every framing ---
            watch = attacks.memory_watch(s.proc.pid)
            refused = []
            for framing in ["length", "chunked", "none", "gzip"]:
                sent, answer = attacks.body_attack(port, framing)
                refused.append(f"{framing}: {answer.split(' ', 1)[-1]} after {sent >> 20} MiB")
            peak = watch.stop()
            rows.append(("256 MiB bodies without a token", "; ".join(refused)))
            rows.append(("server memory during those", f"{start_rss:.0f} → peak {peak:.0f} MiB"))

            # --- the class ---
            watch = attacks.memory_watch(s.proc.pid)
            slow = attacks.slow_clients(port, a.slow)
            stop_attack = threading.Event()
            attack_count = [0, 0]

            def attack():
                while not stop_attack.is_set():
                    sent, answer = attacks.body_attack(port, "chunked")
                    attack_count[0] += 1
                    attack_count[1] += "413" in answer

            attacker = threading.Thread(target=attack, daemon=True)
            attacker.start()
            schedule = sorted((random.uniform(0, a.submit_seconds), n) for n in range(a.submissions))
            lock = threading.Lock()
            acknowledged = {}  # id -> student
            submit_latency, read_latency, retried, failed = [], [], [0], []
            began = time.monotonic()
            cursor = [0]

            def submitter():
                while True:
                    with lock:
                        if cursor[0] >= len(schedule):
                            return
                        at, n = schedule[cursor[0]]
                        cursor[0] += 1
                    delay = began + at - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    student = n % a.students
                    while True:
                        secs, status, text = attacks.timed_request(port, "POST", "/api/v1/submissions", body(n),
                                                                   headers(tokens[student]))
                        if status == 202:
                            with lock:
                                submit_latency.append(secs)
                                acknowledged[json.loads(text)["id"]] = student
                            break
                        if status == 429 and time.monotonic() - began < a.max_seconds:
                            with lock:
                                retried[0] += 1
                            time.sleep(2.0)
                            continue
                        with lock:
                            failed.append(f"{status} {text[:120]!r}")
                        break

            def reader():
                while not stop_readers.is_set():
                    with lock:
                        if not acknowledged:
                            item = None
                        else:
                            item = random.choice(list(acknowledged.items()))
                    if item is None:
                        time.sleep(0.1)
                        continue
                    sid, student = item
                    secs, status, _ = attacks.timed_request(port, "GET", f"/api/v1/submissions/{sid}", None,
                                                            headers(tokens[student]))
                    with lock:
                        read_latency.append(secs if status == 200 else float("inf"))
                    time.sleep(0.05)

            stop_readers = threading.Event()
            readers = [threading.Thread(target=reader, daemon=True) for _ in range(a.readers)]
            for t in readers:
                t.start()
            submitters = [threading.Thread(target=submitter) for _ in range(a.clients)]
            for t in submitters:
                t.start()
            for t in submitters:
                t.join()
            submitted_in = time.monotonic() - began
            # --- until every acknowledged submission is settled ---
            con = sqlite3.connect(db, timeout=30)
            while time.monotonic() - began < a.max_seconds:
                open_ = con.execute("SELECT count(*) FROM queued_submissions WHERE state NOT IN ('done', 'failed')"
                                    ).fetchone()[0]
                if open_ == 0:
                    break
                time.sleep(1)
            settled_in = time.monotonic() - began
            stop_readers.set()
            for t in readers:
                t.join()
            stop_attack.set()
            attacker.join()
            slow_open = slow.open_now
            slow.stop()
            class_peak = watch.stop()
            states = dict(con.execute("SELECT state, count(*) FROM queued_submissions GROUP BY state").fetchall())
            stored = set(r[0] for r in con.execute("SELECT id FROM queued_submissions"))
            con.close()
        finally:
            s.stop()

        settles = {}
        for line in s.log_lines:
            m = re.search(r"submission (\d+) \([^)]*\): (done|failed)", line)
            if m:
                settles[int(m.group(1))] = settles.get(int(m.group(1)), 0) + 1
        class_ids = set(acknowledged)
        lost = [i for i in class_ids if i not in stored]
        unsettled = [i for i in class_ids if settles.get(i, 0) == 0]
        twice = [i for i, c in settles.items() if c > 1]
        rows += [
            ("students · submissions acknowledged", f"{a.students} · {len(class_ids)} of {a.submissions} "
                                                    f"(submitted within {submitted_in:.0f} s)"),
            ("429s retried · other refusals", f"{retried[0]} · {len(failed)}"),
            ("submit latency (class)", f"p50 {percentile(submit_latency, 50) * 1000:.0f} ms, "
                                       f"p95 {percentile(submit_latency, 95) * 1000:.0f} ms, "
                                       f"max {max(submit_latency or [0]) * 1000:.0f} ms"),
            ("read latency (class, GET a submission)", f"p50 {percentile(read_latency, 50) * 1000:.0f} ms, "
                                                       f"p95 {percentile(read_latency, 95) * 1000:.0f} ms "
                                                       f"({len(read_latency)} reads)"),
            ("beside the class", f"{slow_open} slow connections; {attack_count[0]} bodies of 256 MiB without a "
                                 f"token, {attack_count[1]} refused with 413"),
            ("all settled after", f"{settled_in:.0f} s; states {states}"),
            ("lost · never settled · settled twice", f"{len(lost)} · {len(unsettled)} · {len(twice)}"),
            ("server memory during the class", f"peak {class_peak:.0f} MiB"),
        ]
        if failed:
            problems.append(f"{len(failed)} submissions refused otherwise than 429: {failed[:3]}")
        if lost or unsettled or twice:
            problems.append(f"lost {lost[:5]}, never settled {unsettled[:5]}, settled twice {twice[:5]}")
        if settled_in >= a.max_seconds:
            problems.append(f"not all settled within {a.max_seconds:.0f} s")

    width = max(len(r[0]) for r in rows)
    print(f"| {'measure'.ljust(width)} | value |")
    print(f"|{'-' * (width + 2)}|-------|")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")
    for p in problems:
        print("server-load-benchmark: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
