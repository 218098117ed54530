#!/usr/bin/env python3
"""docs/instructors.md's "A whole term, step by step", run as it is written.

The section's marked blocks (an HTML comment `<!-- walkthrough NAME: ACTION -->` right before a fenced
block) are the commands: `file PATH` writes the block to PATH, `run` runs it in bash (each command must
succeed; `run, exit N without a GPU` allows that status on a machine without one), `serve` starts it in
the background and waits for the server to listen, `open` and `open as ACCOUNT` fetch each URL of the
block (with that account's token). Nothing else is taken from the test: the blocks run in a scratch copy
of the checkout's problems/ and testcases/ with `bin/judge` the judge under test and $HOME a folder of
its own, after the few substitutions below, each of which must find its text in the section. After each
step the test checks what the section says it did; a step added to or removed from the section fails
here until the test checks it too.

Without a GPU, `judge serve` compiles each submission and ends it "not run" (NR) where a GPU would grade
it: the steps are the same and the checks accept NR where they would see AC on a GPU.

usage: term_walkthrough_test.py JUDGE SOURCE_DIR"""
import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

judge, source = os.path.abspath(sys.argv[1]), sys.argv[2]
doc_path = os.path.join(source, "docs", "instructors.md")
SECTION = "## A whole term, step by step"
STEPS = ["roster", "accounts", "course", "serve", "new", "solution", "submit", "gradebook", "board", "hidden-case",
         "rejudge", "dashboard"]
failures = []


def check(what, ok, detail=""):
    print(("ok: " if ok else "FAILED: ") + what + ("" if ok or not detail else "\n" + detail), flush=True)
    if not ok:
        failures.append(what)
    return ok


def require(what, ok, detail=""):
    if not check(what, ok, detail):
        raise SystemExit(1)


def section_of(text):
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end >= 0 else len(text)]


def marked_blocks(section):
    """[(name, action, text)] of each marker and the fenced block after it, dedented by its fence's indent."""
    lines = section.split("\n")
    marker = re.compile(r"^\s*<!-- walkthrough ([a-z-]+): (.+?) -->\s*$")
    blocks = []
    i = 0
    while i < len(lines):
        m = marker.match(lines[i])
        i += 1
        if not m:
            continue
        while i < len(lines) and not lines[i].strip():
            i += 1
        fence = re.match(r"^(\s*)```", lines[i]) if i < len(lines) else None
        if not fence:
            require(f"the walkthrough step {m.group(1)} is followed by a fenced block", False)
        indent = len(fence.group(1))
        body = []
        i += 1
        while not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        i += 1
        blocks.append((m.group(1), m.group(2), "\n".join(body) + "\n"))
    return blocks


def utc(offset):
    return (datetime.now(timezone.utc) + offset).strftime("%Y-%m-%dT%H:%MZ")


has_gpu = subprocess.run("nvidia-smi -L 2>/dev/null | grep -q '^GPU '", shell=True).returncode == 0
graded = "AC" if has_gpu else "NR"
work = tempfile.mkdtemp(prefix="judge-term-walkthrough.")
root = os.path.join(work, "checkout")
server = None
try:
    # The checkout the section's commands run in: a private copy of what they read and change.
    for folder in ("problems", "testcases"):
        shutil.copytree(os.path.join(source, folder), os.path.join(root, folder))
    os.makedirs(os.path.join(root, "solutions"))
    os.makedirs(os.path.join(root, "bin"))
    with open(os.path.join(root, "bin", "judge"), "w") as f:
        f.write(f"#!/bin/sh\nexec '{judge}' \"$@\"\n")
    os.chmod(os.path.join(root, "bin", "judge"), 0o755)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUDGE_", "XDG_"))}
    env.update(HOME=os.path.join(work, "home"), JUDGE_ROOT=root)
    os.makedirs(env["HOME"])

    section = section_of(open(doc_path).read())
    blocks = marked_blocks(section)
    require("the walkthrough has the steps this test checks, in order: " + ", ".join(STEPS),
            [b[0] for b in blocks] == STEPS, "the section has: " + ", ".join(b[0] for b in blocks))

    # What differs from the section, each found in it: the moments (the assignment is open now), the
    # address (any free port), the tokens (made in the accounts step).
    substitutions = {"2027-02-01T09:00Z": utc(-timedelta(hours=1)), "2027-02-14T23:59Z": utc(timedelta(days=7))}
    for text in substitutions:
        require(f"the section's course file has {text}", text in section)
    for text in ("127.0.0.1:8080", "<alice's token>", "<tina's token>"):
        require(f"the section says {text}", text in section)

    def filled(text):
        for old, new in substitutions.items():
            text = text.replace(old, new)
        return text

    def run_block(name, action, text):
        allowed = {0}
        m = re.search(r"exit (\d+) without a GPU", action)
        if m and not has_gpu:
            allowed = {int(m.group(1))}
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", filled(text)], cwd=root, env=env,
                              capture_output=True, text=True, timeout=600)
        output = done.stdout + done.stderr
        print(f"--- {name}:\n{output}", flush=True)
        # A step that did not do what the section says leaves nothing for the next ones to check.
        require(f"{name}: exit {done.returncode}, as the section says ({' or '.join(map(str, sorted(allowed)))})",
                done.returncode in allowed, output)
        return output

    def get(path, token=None):
        request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token} if token else {})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def case_set():
        return json.loads(get("/api/v1/problems/vector_add", tokens["tina"])[1])["case_set"]

    def settled(submission):
        deadline = time.time() + 300
        while time.time() < deadline:
            s = json.loads(get(f"/api/v1/submissions/{submission}", tokens["tina"])[1])
            if s["state"] in ("done", "failed"):
                return s
            time.sleep(0.5)
        return s

    tokens, base, before = {}, None, None
    for name, action, text in blocks:
        if action.startswith("file "):
            path = os.path.join(root, action[len("file "):])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(filled(text))
        elif action == "serve":
            substitutions["127.0.0.1:8080"] = "127.0.0.1:0"
            log = open(os.path.join(work, "serve.log"), "w+")
            server = subprocess.Popen(["bash", "-c", filled(text)], cwd=root, env=env, stdout=log,
                                      stderr=subprocess.STDOUT, start_new_session=True)
            deadline = time.time() + 60
            while base is None and time.time() < deadline and server.poll() is None:
                log.seek(0)
                if m := re.search(r"listening on (http://127\.0\.0\.1:(\d+))/", log.read()):
                    base = m.group(1)
                time.sleep(0.2)
            log.seek(0)
            require("serve: the server listens", base, log.read())
            substitutions["127.0.0.1:8080"] = base[len("http://"):]
        elif action.startswith("run"):
            output = run_block(name, action, text)
        elif action.startswith("open"):
            who = action[len("open as "):] if action.startswith("open as ") else None
            pages = {}
            for url in filled(text).split():
                require(f"{name}: {url} is on the server", url.startswith(base))
                pages[url[len(base):]] = get(url[len(base):], tokens[who] if who else None)
                check(f"{name}: {url} answers 200", pages[url[len(base):]][0] == 200, pages[url[len(base):]][1])
        else:
            require(f"{name}: the action '{action}' is one this test knows", False)

        # What the section says each step did.
        if name == "accounts":
            table = os.path.join(root, "tokens.csv")
            check("accounts: tokens.csv is readable by its owner alone", os.stat(table).st_mode & 0o077 == 0)
            rows = list(csv.reader(open(table, newline="")))
            check("accounts: tokens.csv is account,role,token and a row per account",
                  [r[:2] for r in rows] == [["account", "role"], ["tina", "instructor"], ["alice", "student"],
                                            ["bob", "student"]], str(rows))
            tokens = {r[0]: r[2] for r in rows[1:]}
            substitutions["<alice's token>"] = tokens["alice"]
            substitutions["<tina's token>"] = tokens["tina"]
        elif name == "serve":
            log.seek(0)
            check("serve: the server read the course file", "course.yaml, 1 assignment(s)" in log.read())
            before = case_set()
        elif name == "new":
            check("new: the starter is in solutions/vector_add/alice.cu",
                  os.path.exists(os.path.join(root, "solutions", "vector_add", "alice.cu")))
        elif name == "submit":
            check(f"submit: the report says {graded}", re.search(rf"\b{graded}\b", output) is not None)
            mine = json.loads(get("/api/v1/submissions", tokens["alice"])[1])
            check("submit: alice has one submission, graded, for assignment a1",
                  len(mine) == 1 and mine[0]["state"] == "done" and mine[0]["assignment"] == "a1", str(mine))
            original = mine[0]["id"] if mine else 0
        elif name == "gradebook":
            grid = open(os.path.join(root, "a1.csv"), newline="").read()
            rows = list(csv.reader(io.StringIO(grid)))
            check("gradebook: a1.csv has the course's columns",
                  rows[0][:3] == ["student_id", "name", "vector_add"] and "vector_add_verdict" in rows[0], str(rows))
            by_id = {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}
            check(f"gradebook: alice's row has {graded}",
                  by_id.get("alice", {}).get("name") == "Alice Liddell" and
                  by_id["alice"]["vector_add_verdict"] == graded and
                  (has_gpu or by_id["alice"]["vector_add"] == "0.00"), str(by_id))
            check("gradebook: bob's row says he made no submission",
                  by_id.get("bob", {}).get("vector_add_submissions") == "0" and
                  by_id["bob"]["name"] == "Bob Cratchit", str(by_id))
            check("gradebook: the web's CSV is the same",
                  get("/assignments/a1/gradebook.csv", tokens["tina"]) == (200, grid))
        elif name == "board":
            status, page = pages["/public/board/a1"]
            check("board: the public board of a1, with no sign-in", "<h1>Board: a1 (First kernels)</h1>" in page)
            check("board: it names no one", "alice" not in page and "Alice" not in page)
            if not has_gpu:
                check("board: without a GPU it says why it is empty", "This server has no GPU" in page)
        elif name == "hidden-case":
            check("hidden-case: cases lists the new case as hidden", re.search(r"n_4097.*hidden", output) is not None)
            deadline = time.time() + 10
            while case_set() == before and time.time() < deadline:
                time.sleep(0.2)
            after = case_set()
            check("hidden-case: the server has a new case set within seconds", after != before, after)
        elif name == "rejudge":
            check(f"rejudge: one copy queued, on case set {after}",
                  f"vector_add: 1 submission(s) queued again, to be graded on case set {after}" in output)
            copy = re.search(r"^(\d+)\s+http", output, re.M)
            require("rejudge: it prints the copy's id and page", copy)
            done = settled(copy.group(1))
            check(f"rejudge: the copy of alice's is graded ({graded}) on the new case set",
                  done["state"] == "done" and done["rejudge_of"] == original and
                  done["result"]["verdict"] == graded and done["result"]["case_set"] == after, json.dumps(done))
        elif name == "dashboard":
            status, page = pages["/dashboard/vector_add"]
            check("dashboard: the page is the problem's dashboard", "<h1>Dashboard: vector_add</h1>" in page)
            check("dashboard: it links the similarity report", 'href="/similarity/vector_add"' in page)
            d = json.loads(pages["/api/v1/problems/vector_add/dashboard"][1])
            subs = d["submissions"]
            check("dashboard: both of alice's submissions, the copy first",
                  [s["account"] for s in subs] == ["alice", "alice"] and subs[0]["rejudge_of"] == original and
                  subs[0]["case_set"] == after and subs[1]["case_set"] == before, json.dumps(subs))
            check(f"dashboard: the verdicts: 2 {graded} in all, 1 for alice's latest",
                  d["verdicts"]["all"][graded] == 2 and d["verdicts"]["latest"][graded] == 1 and d["accounts"] == 1,
                  json.dumps(d["verdicts"]))
            check("dashboard: nothing left in the queue", d["queue"] == [], json.dumps(d["queue"]))
            check("dashboard: a student is refused with 403",
                  get("/api/v1/problems/vector_add/dashboard", tokens["alice"])[0] == 403 and
                  get("/dashboard/vector_add", tokens["alice"])[0] == 403)
finally:
    if server and server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            check("the server stops on SIGTERM", server.wait(timeout=60) == 0)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    shutil.rmtree(work, ignore_errors=True)

print("FAILED: " + "; ".join(failures) if failures else "ok: the whole term ran as docs/instructors.md says")
sys.exit(1 if failures else 0)
