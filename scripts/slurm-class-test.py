#!/usr/bin/env python3
"""A class graded through Slurm, end to end (docs/slurm.md): starts the single-node cluster
(scripts/slurm-single-node.sh), a `judge serve --backend slurm`, submits one solution per student through
the API, cancels one job that holds submissions, running or still waiting for its node (scancel), and checks its submissions go out again in a new job, and
that every submission ends exactly once: done, one result recorded each, with the node that graded it.
Prints the figures docs/slurm.md quotes: a bare job's start-up latency on this cluster, and submissions
graded per minute.

  scripts/slurm-class-test.py [--judge build/bin/judge] [--students 20] [--batch 4] [--max-seconds 600]

Exits 77 (skipped) with the reason when Slurm cannot start here, 1 when a check fails.
"""
import argparse
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from slurm_test_support import ROOT, example_source, fail as fail_as, make_class, server, start_cluster

NAME = "slurm-class-test"


def fail(why):
    fail_as(NAME, why)


def job_latency():
    """Seconds from sbatch to a bare --gres=gpu:1 job's first line, the mean of three."""
    times = []
    for _ in range(3):
        start = time.time()
        out = tempfile.mktemp(prefix="judge-slurm-latency-")
        job = subprocess.run(["sbatch", "--parsable", "--partition=judge", "--gres=gpu:1", "--output=" + out,
                              "--wrap", "date +%s.%N"], check=True, capture_output=True, text=True).stdout.strip()
        while not (os.path.exists(out) and open(out).read().strip()):
            time.sleep(0.02)
            if time.time() - start > 60:
                fail(f"the bare job {job} did not start within 60 s")
        times.append(float(open(out).read().split()[0]) - start)
        os.remove(out)
    return sum(times) / len(times)


def gpu_judge_jobs(states):
    out = subprocess.run(["squeue", "--noheader", "--name=gpu-judge", "--states=" + states, "--format=%i"],
                         capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default=os.path.join(ROOT, "build", "bin", "judge"))
    ap.add_argument("--students", type=int, default=20)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--max-seconds", type=float, default=600)
    a = ap.parse_args()

    start_cluster(NAME)
    latency = job_latency()
    print(f"{NAME}: a bare job starts {latency:.2f} s after sbatch (mean of 3)", flush=True)
    node = socket.gethostname().split(".")[0]

    with tempfile.TemporaryDirectory(prefix="judge-slurm-") as tmp:
        db, tokens = make_class(a.judge, tmp, a.students)
        source = example_source()
        s = server(NAME, a.judge, db, os.path.join(tmp, "serve.log"),
                   ["--partition", "judge", "--slurm-batch", str(a.batch), "--compile-threads", "2",
                    "--slurm-output", os.path.join(tmp, "job-%j.out")])
        notes = set()
        try:
            start = time.time()
            ids = {s.submit(token, source, f"student {i}"): token for i, token in enumerate(tokens)}

            # Cancel a job while it runs; one that had already posted all its results before the cancel
            # took gives nothing back, so try the next running job until one is seen giving back.
            cancelled, tried, deadline = None, set(), time.time() + a.max_seconds
            # A job that grades without a GPU ends within a fraction of a second of its start, so one still
            # waiting for its node is taken when none is seen running: it holds its submissions all the same.
            while cancelled is None and time.time() < deadline and len(tried) < 10:
                running = [j for j in gpu_judge_jobs("RUNNING") if j not in tried]
                if not running:
                    running = [j for j in gpu_judge_jobs("PENDING") if j not in tried]
                if not running:
                    time.sleep(0.05)
                    continue
                job = running[-1]
                tried.add(job)
                subprocess.run(["scancel", job], check=True)
                print(f"{NAME}: cancelled job {job} while it held submissions", flush=True)
                for _ in range(100):
                    if re.search(rf"slurm: job {job} \(\w+\) ended \(\w+\) holding", s.text()):
                        cancelled = job
                        break
                    if re.search(rf"slurm: job {job} \(", s.text()) and job not in gpu_judge_jobs("all"):
                        break
                    time.sleep(0.1)
            if cancelled is None:
                print(s.text(), flush=True)
                fail(f"no cancelled job was seen giving back submissions (tried {sorted(tried)})")

            final = {}
            while len(final) < len(ids) and time.time() < deadline:
                for sid, token in ids.items():
                    if sid not in final:
                        status, reply = s.call("GET", f"/api/v1/submissions/{sid}", token)
                        if reply.get("note"):
                            notes.add(re.sub(r"\d+", "N", reply["note"]))
                        if reply.get("state") in ("done", "failed"):
                            final[sid] = reply
                time.sleep(0.5)
            elapsed = time.time() - start
            if len(final) < len(ids):
                fail(f"{len(ids) - len(final)} submission(s) not graded within {a.max_seconds} s:\n" + s.text())
        finally:
            s.stop()
        text = s.text()
        print(text, flush=True)
        print(f"{NAME}: notes seen while grading: {sorted(notes)}", flush=True)

        for sid, reply in final.items():
            if reply["state"] != "done":
                fail(f"submission {sid} ended {reply['state']}: {reply['error']}")
            message = json.dumps(reply["result"])
            if "no CUDA device" not in message and not reply["gpu"]:
                fail(f"submission {sid}: neither graded on a GPU nor 'not run: no CUDA device': {message[:300]}")
            if reply["node"] != node:
                fail(f"submission {sid}: node {reply['node']!r}, not this node {node!r}")
            if reply["note"]:
                fail(f"submission {sid} is done and still has a note: {reply['note']}")
        if not re.search(r"slurm: job \d+ \(\w+\): vector_add, submission\(s\) [\d,]+; --time \d+ --mem \d+M", text):
            fail("no job was submitted with a time and memory derived from the problem")
        back = re.search(rf"slurm: job {cancelled} \(\w+\) ended \(\w+\) holding submission\(s\) ([\d,]+): back to the queue",
                         text)
        if not back:
            fail(f"the cancelled job {cancelled} was not seen to give back its submissions")
        for sid in back.group(1).split(","):
            if not re.search(rf"slurm: job \d+ \(\w+\): vector_add, submission\(s\) [\d,]*\b{sid}\b", text.split(back.group(0))[1]):
                fail(f"submission {sid} of the cancelled job was not resubmitted")
        # Exactly once: across every job's log, the server took one result per submission (a second post
        # would be refused with 409, and a recorded result is never recorded twice).
        taken = {}
        for name in os.listdir(tmp):
            if name.startswith("job-"):
                for m in re.finditer(r"judge slurm-job: submission (\d+): (\{.*\})", open(os.path.join(tmp, name)).read()):
                    if json.loads(m.group(2)).get("state") in ("done", "failed"):
                        taken[int(m.group(1))] = taken.get(int(m.group(1)), 0) + 1
        if taken != {sid: 1 for sid in ids}:
            fail(f"not one result taken per submission: {taken}")
        con = sqlite3.connect(db)
        result_ids = [r[0] for r in con.execute("SELECT result_id FROM queued_submissions WHERE result_id IS NOT NULL")]
        recorded = con.execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
        if len(set(result_ids)) != len(result_ids) or recorded != len(result_ids):
            fail(f"{recorded} results recorded for {len(result_ids)} submissions that record one")
        rate = len(ids) / elapsed * 60
        print(f"{NAME}: {len(ids)} submissions graded exactly once in {elapsed:.1f} s on node {node} "
              f"({rate:.1f} a minute; job {cancelled} cancelled and its submission(s) {back.group(1)} resubmitted)")


if __name__ == "__main__":
    main()
