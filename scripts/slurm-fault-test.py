#!/usr/bin/env python3
"""Slurm faults are the judge's, shown in the submission's status and never as a verdict (docs/slurm.md),
against the single-node cluster (scripts/slurm-single-node.sh):

  * a job that never starts: the server submits to the partition `judge-down` (always down); the
    submission's note says "waiting for Slurm: PartitionDown", the job is cancelled after
    --slurm-pending-limit and sent again, and after --slurm-max-lost jobs the submission fails "not graded"
    saying so, without a result;
  * a node without the promised GPU: with --slurm-expect-gpu, the job finds no CUDA device on this
    GPU-less node and reports its node instead of grading; the node is left out of later jobs, and the
    submission fails "not graded", naming the node and "no CUDA device", without a result. (Skipped on a
    machine with a GPU, where the job would grade.)

  scripts/slurm-fault-test.py [--judge build/bin/judge]

Exits 77 (skipped) with the reason when Slurm cannot start here, 1 when a check fails.
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from slurm_test_support import ROOT, example_source, fail as fail_as, make_class, server, start_cluster

NAME = "slurm-fault-test"


def fail(why):
    fail_as(NAME, why)


def follow(s, sid, token, seconds):
    """Polls submission `sid` until done or failed; returns its last reply and every note it carried."""
    notes, deadline = [], time.time() + seconds
    while time.time() < deadline:
        _, reply = s.call("GET", f"/api/v1/submissions/{sid}", token)
        if reply.get("note") and (not notes or notes[-1] != reply["note"]):
            notes.append(reply["note"])
        if reply["state"] in ("done", "failed"):
            return reply, notes
        time.sleep(0.2)
    print(s.text(), flush=True)
    fail(f"submission {sid} not settled within {seconds} s (notes: {notes})")


def never_starts(judge, tmp):
    db, tokens = make_class(judge, tmp, 1)
    s = server(NAME, judge, db, os.path.join(tmp, "serve.log"),
               ["--partition", "judge-down", "--slurm-pending-limit", "4", "--slurm-max-lost", "2",
                "--slurm-gather", "0", "--compile-threads", "1", "--slurm-output", os.path.join(tmp, "job-%j.out")])
    try:
        sid = s.submit(tokens[0], example_source(), "never starts")
        reply, notes = follow(s, sid, tokens[0], 180)
    finally:
        s.stop()
    print(f"{NAME}: a job in a partition that is down: notes {notes}; ended {reply['state']}: {reply['error']}",
          flush=True)
    if not any(n.startswith("waiting for Slurm: PartitionDown (job ") for n in notes):
        fail(f"no note said 'waiting for Slurm: PartitionDown': {notes}\n" + s.text())
    if not any("ended (not started within 4 s (PartitionDown)); in the queue for a new job" in n for n in notes):
        fail(f"no note said the job was given up and the submission sent again: {notes}\n" + s.text())
    if reply["state"] != "failed" or reply["result"] is not None:
        fail(f"it ended {reply['state']} with a result: a job that never ran must not give a verdict")
    if "not graded: 2 Slurm jobs ended before grading it" not in reply["error"] or "PartitionDown" not in reply["error"]:
        fail(f"its error does not say why: {reply['error']}")
    if "cannot start until an admin acts: PartitionDown" not in s.text():
        fail("the server's log did not say the job cannot start until an admin acts\n" + s.text())


def node_without_gpu(judge, tmp):
    node = socket.gethostname().split(".")[0]
    db, tokens = make_class(judge, tmp, 1)
    s = server(NAME, judge, db, os.path.join(tmp, "serve.log"),
               ["--partition", "judge", "--slurm-expect-gpu", "--slurm-max-lost", "2", "--slurm-gather", "0",
                "--compile-threads", "1", "--slurm-output", os.path.join(tmp, "job-%j.out")])
    try:
        sid = s.submit(tokens[0], example_source(), "no gpu")
        reply, notes = follow(s, sid, tokens[0], 180)
    finally:
        s.stop()
    text = s.text()
    print(f"{NAME}: a node without a GPU: notes {notes}; ended {reply['state']}: {reply['error']}", flush=True)
    if reply["state"] != "failed" or reply["result"] is not None:
        fail(f"it ended {reply['state']} with a result: a node without its GPU must not give a verdict\n" + text)
    if f"its node {node} had no CUDA device" not in reply["error"]:
        fail(f"its error does not name the node and the missing device: {reply['error']}\n" + text)
    if not any(n.startswith("waiting for Slurm: ") for n in notes):
        fail(f"no note said it was waiting for Slurm: {notes}\n" + text)
    if f"slurm: node {node} of job" not in text or "left out of later jobs" not in text:
        fail("the server's log did not say the node is left out of later jobs\n" + text)
    if "node(s) left out before are tried again" not in text:
        fail("with its only node left out, the server did not try it again when Slurm refused the job\n" + text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default=os.path.join(ROOT, "build", "bin", "judge"))
    a = ap.parse_args()
    start_cluster(NAME)
    with tempfile.TemporaryDirectory(prefix="judge-slurm-down-") as tmp:
        never_starts(a.judge, tmp)
    if shutil.which("nvidia-smi") and subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0:
        print(f"{NAME}: a node without a GPU: not tested, this machine has one (the job would grade)", flush=True)
    else:
        with tempfile.TemporaryDirectory(prefix="judge-slurm-nogpu-") as tmp:
            node_without_gpu(a.judge, tmp)
    print(f"{NAME}: a job that never starts and a node without its GPU end as the judge's, never as a verdict")


if __name__ == "__main__":
    main()
