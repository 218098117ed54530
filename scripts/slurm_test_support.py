"""What the Slurm backend's end-to-end tests share (scripts/slurm-class-test.py, scripts/slurm-fault-test.py):
starting the single-node cluster, a class in a fresh database, a `judge serve --backend slurm`, and its API."""
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(name, why):
    print(f"{name}: FAILED: {why}", flush=True)
    sys.exit(1)


def start_cluster(name):
    """scripts/slurm-single-node.sh start; exits 77 (skipped, with the reason) when it cannot start here."""
    up = subprocess.run([os.path.join(ROOT, "scripts", "slurm-single-node.sh"), "start"], capture_output=True, text=True)
    text = (up.stdout + up.stderr).strip()
    if up.returncode == 77:
        print("SKIPPED: " + text, flush=True)
        sys.exit(77)
    print(text, flush=True)
    if up.returncode != 0:
        fail(name, "scripts/slurm-single-node.sh start: exit " + str(up.returncode))


def make_class(judge, folder, students):
    """A roster of `students` in folder/judge.db; returns the database and their tokens."""
    db = os.path.join(folder, "judge.db")
    roster = os.path.join(folder, "roster.csv")
    with open(roster, "w") as f:
        f.write("name,role\n" + "".join(f"student{i:02d},student\n" for i in range(students)))
    out = subprocess.run([judge, "users", "import", roster, "--db", db], check=True, capture_output=True,
                         text=True).stdout
    return db, [line.split()[1] for line in out.splitlines() if line.strip()]


class server:
    """`judge serve --backend slurm` on 127.0.0.1 with `args`, its log in log_path."""

    def __init__(self, name, judge, db, log_path, args):
        self.name, self.log_path = name, log_path
        self.log = open(log_path, "w+")
        self.proc = subprocess.Popen([judge, "serve", "--listen", "127.0.0.1:0", "--db", db, "--backend", "slurm"] +
                                     args, stdout=self.log, stderr=subprocess.STDOUT, text=True)
        self.port = None
        for _ in range(300):
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", self.text())
            if m:
                self.port = int(m.group(1))
                return
            if self.proc.poll() is not None:
                fail(name, "judge serve ended: " + self.text())
            time.sleep(0.1)
        self.stop()
        fail(name, "judge serve did not listen within 30 s")

    def text(self):
        return open(self.log_path).read()

    def call(self, method, path, token, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, json.dumps(body) if body else None,
                     {"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        r = conn.getresponse()
        text = r.read()
        conn.close()
        return r.status, json.loads(text)

    def submit(self, token, source, tag):
        status, reply = self.call("POST", "/api/v1/submissions", token,
                                  {"problem": "vector_add", "files": [{"name": "a.cu", "content": f"// {tag}\n" + source}]})
        if status != 202:
            self.stop()
            fail(self.name, f"submission {tag}: {status} {reply}")
        return reply["id"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=60)


def example_source():
    with open(os.path.join(ROOT, "solutions", "vector_add", "example.cu")) as f:
        return f.read()
