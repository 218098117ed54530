#!/usr/bin/env python3
"""The web UI in headless Chromium, as a learner uses it: starts `judge serve --demo` on a free port,
signs in with alice's token (and first with a wrong one), opens the submit page, submits the starter,
follows the submission page until the result is shown, and opens the board and the history; then a
page of another origin on the same host tries to submit and to sign out with alice's cookie, and cannot. The browser
is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ended by NUL on
fds 3 and 4), so nothing but Python's standard library is needed. Screenshots go to OUT.

usage: web_browser_test.py JUDGE CHROMIUM OUT"""
import http.client
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

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


work = tempfile.mkdtemp(prefix="judge-web-test.")
server = subprocess.Popen([judge, "serve", "--demo", "--listen", "127.0.0.1:0", "--db", os.path.join(work, "demo.db")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
chromium = None
try:
    tokens, base = {}, None
    deadline = time.time() + 60
    while base is None and time.time() < deadline:
        line = server.stdout.readline()
        if not line:
            break
        print("server: " + line.rstrip(), flush=True)
        if m := re.match(r"\s+(\w+)\s+(student|instructor)\s+(jt_\S+)", line):
            tokens[m.group(1)] = m.group(3)
        if m := re.search(r"listening on (http://\S+?)/?$", line.strip()):
            base = m.group(1)
    if not check("judge serve --demo printed alice's token and its address", base and "alice" in tokens):
        sys.exit(1)

    chromium = Chromium(os.path.join(work, "profile"))
    chromium.go(base + "/")
    check("the sign-in page has a labelled token field", "<label for=\"token\">" in chromium.text())

    def sign_in(token):
        chromium.evaluate(f"document.getElementById('token').value = {json.dumps(token)}; "
                          "document.querySelector('main form').submit(); true")

    sign_in("jt_not_a_token")
    check("a wrong token is refused with a message",
          chromium.wait_for("document.body.innerText.includes('That token is not known here')", 15))
    sign_in(tokens["alice"])
    check("alice is signed in and sees the problems",
          chromium.wait_for("location.pathname === '/problems' && document.body.innerText.includes('Signed in as alice')", 15))
    check("the problem list names matmul", "/problems/matmul" in chromium.text())
    check("the token cookie is not readable by scripts", "jt_" not in (chromium.evaluate("document.cookie") or ""))

    chromium.go(base + "/problems/matmul")
    check("the statement is rendered", chromium.evaluate("!!document.querySelector('.statement h1, .statement h2, .statement p')"))

    chromium.go(base + "/problems/matmul/submit")
    starter = chromium.evaluate("document.getElementById('source').value") or ""
    check("the submit page is prefilled with the starter", "solve" in starter)
    chromium.evaluate("document.getElementById('file_name').value = 'alice.cu'; "
                      "document.querySelector('main form').submit(); true")
    check("submitting leads to the submission's page",
          chromium.wait_for("/^\\/submissions\\/\\d+$/.test(location.pathname)", 20))
    page_url = chromium.evaluate("location.href")
    chromium.screenshot("submission-waiting.png")
    check("the page shows the state while it is graded", chromium.evaluate("!!document.getElementById('state')"))
    graded = chromium.wait_for("['done', 'failed'].includes(document.querySelector('[data-submission]')"
                               ".getAttribute('data-state'))", 240)
    check("the submission page updates itself to the result", graded)
    text = chromium.text()
    check("the result shows a verdict (or, without a GPU, that it compiled but was not run)",
          "class=\"verdict-line\"" in text or "compiled, not run: no CUDA device" in text or
          "Compiler messages" in text)
    check("the submitted file is shown", "<summary>alice.cu</summary>" in text)
    chromium.screenshot("submission-result.png")

    chromium.go(base + "/board/matmul")
    board = chromium.text()
    check("the board page shows the leaderboard", "<h1>Leaderboard: matmul</h1>" in board and "id=\"boards\"" in board)
    check("the board is a ranking or says there is none yet",
          "class=\"ranking\"" in board or "No accepted, timed results yet." in board)
    chromium.screenshot("board.png")

    chromium.go(base + "/history")
    check("the history lists the submission", page_url.replace(base, "") in chromium.text())

    # A page of another origin on the same site (another port of this host: SameSite=Strict lets the
    # cookie go along) tries to act for alice: a text/plain fetch to the API, a form to the submit
    # route, a form to sign her out. None of it may change anything.
    def alice_count():
        conn = http.client.HTTPConnection(base.split("//")[1].split(":")[0], int(base.rsplit(":", 1)[1]), timeout=10)
        conn.request("GET", "/api/v1/submissions", headers={"Authorization": "Bearer " + tokens["alice"]})
        n = len(json.loads(conn.getresponse().read()))
        conn.close()
        return n

    before = alice_count()
    evil_body = json.dumps({"problem": "matmul", "files": [{"name": "evil.cu", "content": starter}]})
    pages = {
        "/fetch": f"""<!DOCTYPE html><title>waiting</title><script>
fetch({json.dumps(base + '/api/v1/submissions')}, {{method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: {{'Content-Type': 'text/plain'}}, body: {json.dumps(evil_body)}}})
  .then(() => document.title = 'sent', () => document.title = 'sent');</script>""",
        "/form": f"""<!DOCTYPE html><form method="post" enctype="multipart/form-data"
  action={json.dumps(base + '/problems/matmul/submit')}><input name="file_name" value="evil.cu">
  <textarea name="source">{starter.replace('<', '&lt;')}</textarea></form>
  <script>document.forms[0].submit()</script>""",
        "/signout": f"""<!DOCTYPE html><form method="post" action={json.dumps(base + '/signout')}></form>
  <script>document.forms[0].submit()</script>""",
    }

    class evil_handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), evil_handler)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    evil_base = f"http://127.0.0.1:{evil.server_address[1]}"
    chromium.go(evil_base + "/fetch")
    check("a page on another port sent a text/plain fetch with alice's cookie",
          chromium.wait_for("document.title === 'sent'", 15))
    chromium.call("Page.navigate", {"url": evil_base + "/form"}, chromium.session)
    check("its form to the submit route is refused",
          chromium.wait_for("location.href.startsWith(" + json.dumps(base) + ") && "
                            "document.body.innerText.includes('A form from another site was refused')", 15))
    chromium.call("Page.navigate", {"url": evil_base + "/signout"}, chromium.session)
    check("its form to sign alice out is refused",
          chromium.wait_for("location.href.startsWith(" + json.dumps(base) + ") && "
                            "document.body.innerText.includes('A form from another site was refused')", 15))
    evil.shutdown()
    time.sleep(1)
    check("nothing was submitted for alice from the other origin", alice_count() == before)
    chromium.go(base + "/problems")
    check("alice is still signed in", "Signed in as" in chromium.text())

    chromium.evaluate("document.querySelector('header form').submit(); true")
    check("signing out leads back to the sign-in page",
          chromium.wait_for("location.pathname === '/' && !!document.getElementById('token')", 15))
    chromium.go(base + "/history")
    check("after signing out the pages need a token again", chromium.evaluate("location.pathname") == "/")
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
