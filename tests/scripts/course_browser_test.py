#!/usr/bin/env python3
"""The course's pages in headless Chromium: starts `judge serve` on a free port with a course file whose
assignment has a public board of pseudonyms, makes a class (an instructor, two students), lets one
student submit, then opens the public board with no sign-in (its boards, no names, no sign-in form, and
its script keeping it live under the pages' Content-Security-Policy), the instructor's gradebook (the
student who submitted, the one who never did), and the instructor's dashboard of the problem (the
submission waiting in the queue, the verdicts, the similarity link, kept live) which refuses the student.
Driven over the DevTools protocol on a pipe, as web_browser_test.py is. Screenshots go to OUT.

usage: course_browser_test.py JUDGE CHROMIUM OUT"""
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

judge, browser, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
failures = []


def check(what, ok):
    print(("ok: " if ok else "MISSING: ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


class Chromium:
    """One headless Chromium, one page, commands by the DevTools protocol over a pipe."""

    def __init__(self, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--remote-debugging-pipe", "--window-size=1280,1000", "--user-data-dir=" + profile, "about:blank"]

        def child_fds():  # the protocol's pipe is fd 3 (commands in) and fd 4 (answers out)
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        # pass_fds names 3 and 4: the child closes every other descriptor after child_fds() ran.
        self.process = subprocess.Popen([browser] + flags, pass_fds=(3, 4),
                                        preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:  # events and other answers are skipped: the driver waits by polling the page
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, self.session)
        return result.get("result", {}).get("value")

    def go(self, url):
        self.call("Page.navigate", {"url": url}, self.session)
        self.wait_for(f"location.href === {json.dumps(url)} && document.readyState === 'complete'", 30)

    def wait_for(self, condition, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                if self.evaluate(condition):
                    return True
            except RuntimeError:
                pass  # a page being replaced has no context to evaluate in for a moment
            time.sleep(0.2)
        return False

    def text(self):
        return self.evaluate("document.documentElement.outerHTML") or ""

    def screenshot(self, name):
        import base64
        data = self.call("Page.captureScreenshot", {"format": "png"}, self.session)["data"]
        with open(os.path.join(out, name), "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        self.process.kill()
        self.process.wait()



def utc(hours):
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=hours)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


work = tempfile.mkdtemp(prefix="judge-course-browser-test.")
db = os.path.join(work, "judge.db")
course = os.path.join(work, "course.yaml")
with open(course, "w") as f:
    f.write(f"""assignments:
  - name: a1
    title: First kernels
    problems: [vector_add]
    release: {utc(-24)}
    deadline: {utc(24)}
    board: {{public: true, names: pseudonym}}
""")
tokens = {}
for name, role in [("teacher", "instructor"), ("alice", "student"), ("carol", "student")]:
    made = subprocess.run([judge, "users", "add", name, "--role", role, "--db", db], capture_output=True, text=True)
    tokens[name] = re.search(r"jt_\S+", made.stdout + made.stderr).group(0)
server = subprocess.Popen([judge, "serve", "--accept-only", "--listen", "127.0.0.1:0", "--db", db, "--course", course],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
chromium = None
try:
    base = None
    deadline = time.time() + 60
    while base is None and time.time() < deadline:
        line = server.stdout.readline()
        if not line:
            break
        print("server: " + line.rstrip(), flush=True)
        if m := re.search(r"listening on (http://\S+?)/?$", line.strip()):
            base = m.group(1)
    if not check("judge serve with the course file listens", base):
        sys.exit(1)
    body = json.dumps({"problem": "vector_add", "files": [{"name": "a.cu", "content": "// alice\n"}]}).encode()
    request = urllib.request.Request(base + "/api/v1/submissions", data=body, method="POST",
                                     headers={"Authorization": "Bearer " + tokens["alice"],
                                              "Content-Type": "application/json"})
    check("alice's submission is queued", urllib.request.urlopen(request, timeout=10).status == 202)

    chromium = Chromium(os.path.join(work, "profile"))
    chromium.go(base + "/public/board/a1")
    text = chromium.text()
    check("the public board opens with no sign-in", "<h1>Board: a1 (First kernels)</h1>" in text)
    check("it shows the assignment's problem and says nothing counts yet",
          "<h2>vector_add</h2>" in text and "No accepted, timed result counts here yet." in text)
    check("it names no one and offers no sign-in", "alice" not in text and "id=\"token\"" not in text)
    check("its script keeps it live under the pages' policy",
          chromium.wait_for("document.getElementById('updated').textContent !== 'at load'", 15))
    chromium.screenshot("public-board.png")

    chromium.call("Network.setCookie", {"name": "judge_token", "value": tokens["teacher"], "url": base + "/"},
                  chromium.session)
    chromium.go(base + "/assignments/a1/gradebook")
    check("the instructor's gradebook lists the roster",
          chromium.wait_for("!!document.getElementById('gradebook')", 15))
    rows = chromium.evaluate("Array.from(document.querySelectorAll('#gradebook tbody tr'))"
                             ".map(r => r.innerText.replace(/\\s+/g, ' ').trim())") or []
    print("gradebook rows: " + json.dumps(rows), flush=True)
    check("alice's row says her submission is not graded yet",
          any(r.startswith("alice") and "not graded yet (1 submission)" in r for r in rows))
    check("carol's row says she never submitted", any(r.startswith("carol") and "never submitted" in r for r in rows))
    check("the gradebook links its CSV", chromium.evaluate(
        "!!document.querySelector('a[href=\"/assignments/a1/gradebook.csv\"]')"))
    chromium.screenshot("gradebook.png")

    # The server only queues (--accept-only): alice's submission waits, first in line.
    chromium.go(base + "/dashboard/vector_add")
    check("the instructor's dashboard of vector_add renders",
          chromium.wait_for("!!document.getElementById('verdicts')", 15) and
          "<h1>Dashboard: vector_add</h1>" in chromium.text())
    queue = chromium.evaluate("Array.from(document.querySelectorAll('#queue tbody tr'))"
                              ".map(r => r.innerText.replace(/\\s+/g, ' ').trim())") or []
    print("dashboard queue: " + json.dumps(queue), flush=True)
    check("its queue has alice's submission, first of one waiting to compile",
          len(queue) == 1 and "alice" in queue[0] and "1 of 1 waiting for a compile thread" in queue[0])
    verdicts = chromium.evaluate("Array.from(document.querySelectorAll('#verdicts tbody tr'))"
                                 ".map(r => r.innerText.replace(/\\s+/g, ' ').trim())") or []
    print("dashboard verdicts: " + json.dumps(verdicts), flush=True)
    check("its verdicts count one account's one submission, waiting",
          len(verdicts) == 2 and verdicts[0].startswith("each account's latest (1 account)") and
          verdicts[0].endswith(" 1") and verdicts[1].startswith("every submission (1)"))
    check("it lists the submission and links the similarity report", chromium.evaluate(
        "document.querySelectorAll('#submissions tbody tr').length === 1 && "
        "!!document.querySelector('a[href=\"/similarity/vector_add\"]')"))
    check("its script keeps it live under the pages' policy",
          chromium.wait_for("document.getElementById('updated').textContent !== 'at load'", 15))
    chromium.screenshot("dashboard.png")

    chromium.call("Network.setCookie", {"name": "judge_token", "value": tokens["alice"], "url": base + "/"},
                  chromium.session)
    chromium.go(base + "/dashboard/vector_add")
    text = chromium.text()
    check("a student is refused the dashboard with a message",
          "Only instructors see the dashboard" in text and "id=\"verdicts\"" not in text)
finally:
    if chromium:
        chromium.close()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
    subprocess.run(["rm", "-rf", work])

sys.exit(1 if failures else 0)
