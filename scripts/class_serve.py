"""A class graded through `judge serve` on loopback, as scripts/class-run.py and scripts/class-bench.py run it:
a roster imported into a fresh store, the server started on a free port (its log read to the end meanwhile),
the API's calls, a watcher that reads the class's submissions every 0.1 s, and the figures drawn from what it
saw (submit to verdict, each GPU's busy time, the compile queue)."""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.request


def percentile(values, q):
    """The q-quantile (0..1) of values, nearest rank; nan when there are none."""
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


def busy_seconds(spans):
    """The length of the union of (start, end) intervals."""
    busy, end = 0.0, 0.0
    for a, b in sorted(spans):
        a = max(a, end)
        if b > a:
            busy += b - a
            end = b
    return busy


class class_server:
    """`judge serve` on 127.0.0.1 for a class of `students` (accounts s00, s01, ...) and a teacher, in a
    temporary folder; a context manager. Its log lines are kept (self.log_lines) and written to log_path."""

    def __init__(self, judge, students, gpus="all", log_path=None, keep_db=None, echo=True, extra_args=()):
        self.judge, self.students, self.gpus = judge, students, gpus
        self.log_path, self.keep_db, self.echo, self.extra_args = log_path, keep_db, echo, list(extra_args)
        self.log_lines = []

    def account(self, i):
        return f"s{i:02d}"

    def __enter__(self):
        self.tmp = tempfile.mkdtemp(prefix="judge-class-")
        self.db = os.path.join(self.tmp, "judge.db")
        with open(os.path.join(self.tmp, "roster.csv"), "w") as f:
            f.write("".join(f"{self.account(i)},student\n" for i in range(self.students)) + "teacher,instructor\n")
        out = subprocess.run([self.judge, "users", "import", os.path.join(self.tmp, "roster.csv"), "--db", self.db],
                             check=True, capture_output=True, text=True).stdout
        self.tokens = dict(line.split() for line in out.splitlines() if line.strip())
        self.server = subprocess.Popen([self.judge, "serve", "--listen", "127.0.0.1:0", "--db", self.db,
                                        "--gpus", self.gpus, "--per-minute", "100000", "--queued-at-once", "100000"]
                                       + self.extra_args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = None
        for line in self.server.stdout:
            self.log_lines.append(line)
            if self.echo:
                print(line, end="")
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            self.__exit__(None, None, None)
            raise SystemExit("judge serve ended before it listened:\n" + "".join(self.log_lines[-20:]))
        # The server's log is read to the end meanwhile: a full pipe would stop the server's writers.
        self.log_file = open(self.log_path or os.path.join(self.tmp, "serve.log"), "w")
        self.log_file.writelines(self.log_lines)
        self.drain = threading.Thread(target=self._read, daemon=True)
        self.drain.start()
        return self

    def _read(self):
        for line in self.server.stdout:
            self.log_lines.append(line)
            self.log_file.write(line)

    def __exit__(self, *exc):
        try:
            if self.server.poll() is None:
                self.server.send_signal(signal.SIGTERM)
                self.server.wait(timeout=120)
            if getattr(self, "drain", None):
                self.drain.join(timeout=10)
                self.log_file.close()
            if self.keep_db:  # through SQLite's backup: the store may still have a write-ahead log beside it
                with sqlite3.connect(self.db) as src, sqlite3.connect(self.keep_db) as dst:
                    src.backup(dst)
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        return False

    def call(self, account, method, path, body=None):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": "Bearer " + self.tokens[account],
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())

    def submit(self, account, problem, path):
        """Submits one .cu file as `account`; returns the submission's id."""
        with open(path) as f:
            body = {"problem": problem, "files": [{"name": os.path.basename(path), "content": f.read()}]}
        return self.call(account, "POST", "/api/v1/submissions", body)["id"]

    def wait_for(self, ids, start, timeout):
        """Polls each submission of `ids` until it is done or failed, or until `timeout` s after `start`
        (time.monotonic()); returns ({id: the API's submission}, the ids still pending)."""
        pending, results = set(ids), {}
        while pending and time.monotonic() - start < timeout:
            for sid in list(pending):
                s = self.call("teacher", "GET", f"/api/v1/submissions/{sid}")
                if s["state"] in ("done", "failed"):
                    results[sid] = s
                    pending.discard(sid)
            time.sleep(0.5)
        return results, pending


class watcher:
    """Reads the class's submissions every 0.1 s from `start` (time.monotonic()) on: seen[id] maps each state
    to the first time (s since start) it was seen in, and "gpu" to its GPU; queue_samples holds (t, submissions
    queued or compiling)."""

    def __init__(self, server, students, start):
        self.server, self.students, self.start = server, students, start
        self.seen, self.queue_samples = {}, []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self):
        while not self.stopping.is_set():
            t = time.monotonic() - self.start
            try:
                listed = self.server.call("teacher", "GET", f"/api/v1/submissions?limit={min(1000, self.students)}")
            except OSError:
                continue
            self.queue_samples.append((t, sum(1 for s in listed if s["state"] in ("queued", "compiling"))))
            for s in listed:
                mine = self.seen.setdefault(s["id"], {})
                mine.setdefault(s["state"], t)
                if s.get("gpu"):
                    mine["gpu"] = s["gpu"]
            time.sleep(0.1)

    def stop(self):
        time.sleep(0.3)  # the watcher's last look
        self.stopping.set()
        self.thread.join(timeout=10)

    def latencies(self, submit_times):
        """{id: seconds from submit to the verdict seen} for each submission seen done."""
        return {i: self.seen[i]["done"] - t for i, t in submit_times.items() if "done" in self.seen.get(i, {})}

    def gpu_busy(self, submit_times, seconds):
        """{gpu: seconds it held a submission of the class running} (the union of their running times)."""
        spans = {}
        for i in submit_times:
            mine = self.seen.get(i, {})
            if "running" in mine and "gpu" in mine:
                end = mine.get("done", mine.get("failed", seconds))
                spans.setdefault(mine["gpu"], []).append((mine["running"], end))
        return {gpu: busy_seconds(s) for gpu, s in spans.items()}

    def report(self, submit_times, seconds, prefix):
        """Prints submit to verdict, each GPU's busy fraction and the compile queue."""
        latency = list(self.latencies(submit_times).values())
        if latency:
            print(f"{prefix}: submit to verdict: median {percentile(latency, 0.5):.2f} s, "
                  f"95th percentile {percentile(latency, 0.95):.2f} s, max {max(latency):.2f} s "
                  f"({len(latency)} submissions, watched every 0.1 s)")
        for gpu, busy in sorted(self.gpu_busy(submit_times, seconds).items()):
            print(f"{prefix}: {gpu}: busy {100 * busy / seconds:.0f}% of {seconds:.1f} s")
        if self.queue_samples:
            step = max(1, len(self.queue_samples) // 20)
            timeline = " ".join(f"{t:.1f}s:{n}" for t, n in self.queue_samples[::step])
            print(f"{prefix}: compile queue (queued or compiling): max {max(n for _, n in self.queue_samples)}; "
                  f"{timeline}")
