#!/usr/bin/env python3
"""`judge serve` against hostile and slow clients on 127.0.0.1 (a real server, no GPU needed):

- a body without a token is refused once it passes the stranger's cap, whatever its framing
  (Content-Length, chunked, none, gzip), and the server's memory stays bounded;
- 20,000 header lines, or one header of 100 KiB, are refused (431) and nothing else is held;
- a client that sends its request too slowly is disconnected at the request deadline;
- with 500 slow or idle connections open, a signed-in student's submit completes within 1 s;
- a number out of range (1e999999) is a 400 naming its field.

  tests/scripts/server_hostile_test.py --judge build/bin/judge
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import server_attacks as attacks  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def start(judge, db, *args):
    proc = subprocess.Popen([judge, "serve", "--listen", "127.0.0.1:0", "--db", db, "--accept-only",
                             "--per-minute", "1000", "--queued-at-once", "1000", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, int(m.group(1))
    raise SystemExit("judge serve ended before it listened")


def submit_body(n=0):
    return json.dumps({"problem": "vector_add", "files": [{"name": "a.cu", "content": f"// {n}\n"}]})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-hostile-") as tmp:
        db = os.path.join(tmp, "judge.db")
        out = subprocess.run([a.judge, "users", "add", "alice", "--db", db], check=True, capture_output=True,
                             text=True).stdout
        token = out.split()[1]
        proc, port = start(a.judge, db, "--request-deadline", "3")
        signed_in = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
        try:
            seconds, status, _ = attacks.timed_request(port, "POST", "/api/v1/submissions", submit_body(), signed_in)
            check(status == 202, f"a signed-in submit is accepted ({status}, {seconds * 1000:.0f} ms)")

            start_rss = attacks.rss_mib(proc.pid)[0]
            for framing in ["length", "chunked", "none", "gzip"]:
                watch = attacks.memory_watch(proc.pid)
                sent, answer = attacks.body_attack(port, framing)
                peak = watch.stop()
                check(sent < 32 << 20 and peak < start_rss + 32,
                      f"a 256 MiB {framing} body without a token: {sent >> 20} MiB taken, answer {answer!r}, "
                      f"server {peak:.0f} MiB (from {start_rss:.0f})")
                if framing in ("length", "chunked"):
                    check("413" in answer, f"the {framing} body is refused with 413")
                if framing == "gzip":
                    check("415" in answer, "a compressed body is refused with 415, not inflated")

            # Many strangers at once: what each may make the server hold is capped, so the sum is too.
            import threading
            watch = attacks.memory_watch(proc.pid)
            answers = []
            threads = [threading.Thread(target=lambda: answers.append(attacks.body_attack(port, "chunked", 64 << 20)))
                       for _ in range(50)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            peak = watch.stop()
            check(peak < start_rss + 64 and all("413" in a for _, a in answers),
                  f"50 chunked bodies of 64 MiB at once without a token: all 413, server {peak:.0f} MiB "
                  f"(from {start_rss:.0f})")

            many = "".join(f"X-H{i}: v\r\n" for i in range(20000))
            check(raw_status(port, f"GET /api/v1/me HTTP/1.1\r\nHost: x\r\n{many}\r\n") == 431,
                  "20,000 header lines are refused with 431")
            check(raw_status(port, "GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: " + "a" * 100_000 + "\r\n\r\n") == 431,
                  "a header of 100 KiB is refused with 431")
            check(raw_status(port, "GET /api/v1/me HTTP/1.1\r\nHost: x\r\n" + "X-H: v\r\n" * 150 + "\r\n") == 431,
                  "150 short header lines (within the bytes) are refused with 431")

            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/v1/me HTTP/1.1\r\nHost: x\r\n")
            began = time.monotonic()
            s.settimeout(15)
            try:
                closed = s.recv(100) == b""
            except OSError:
                closed = True
            held = time.monotonic() - began
            s.close()
            check(closed and 2.5 < held < 6, f"a request never finished is cut off at the deadline ({held:.1f} s of 3)")

            for idle in (False, True):
                kind = "idle" if idle else "slow (a header line every 3 s)"
                slow = attacks.slow_clients(port, 500, every=3.0, idle=idle)
                time.sleep(2)
                worst = 0.0
                for n in range(5):
                    seconds, status, _ = attacks.timed_request(port, "POST", "/api/v1/submissions",
                                                                submit_body(n + 1), signed_in, timeout=10)
                    worst = max(worst, seconds if status == 202 else 99)
                open_now = slow.open_now
                slow.stop()
                check(worst < 1.0, f"with {open_now} {kind} connections open, a signed-in submit takes "
                                   f"{worst * 1000:.0f} ms at worst of 5 (under 1 s)")

            seconds, status, body = attacks.timed_request(
                port, "POST", "/api/v1/submissions",
                '{"problem": "vector_add", "files": [{"name": "a.cu", "content": 1e999999}]}', signed_in)
            number_status, number_body = status, body
            check(number_status == 400 and b'\\"content\\"' in number_body,
                  f"1e999999 is a 400 naming its field ({number_status} {number_body[:160]!r})")
            check(proc.poll() is None, "the server is still running")
        finally:
            proc.terminate()
            proc.wait(timeout=30)

        # A server full of idle connections: the one waiting longest gives way to a newcomer.
        proc, port = start(a.judge, db, "--max-connections", "50")
        try:
            idle = attacks.slow_clients(port, 80, idle=True)  # each one the server closes is opened again
            time.sleep(2)
            worst = 0.0
            for n in range(5):
                seconds, status, _ = attacks.timed_request(port, "POST", "/api/v1/submissions", submit_body(n + 10),
                                                            signed_in, timeout=10)
                worst = max(worst, seconds if status == 202 else 99)
            reopened = idle.reopened
            idle.stop()
            check(worst < 1.0 and reopened > 0,
                  f"at the cap of 50 connections with 80 idle clients pressing, a signed-in submit takes "
                  f"{worst * 1000:.0f} ms at worst of 5 ({reopened} idle connections closed to make room)")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        return 1
    return 0


def raw_status(port, text):
    """Sends `text` and returns the status of the answer (0: none)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(text.encode())
    except OSError:
        pass
    try:
        line = s.recv(4096).split(b"\r\n", 1)[0].decode()
    except OSError:
        line = ""
    s.close()
    m = re.match(r"HTTP/1\.1 (\d+)", line)
    return int(m.group(1)) if m else 0


if __name__ == "__main__":
    sys.exit(main())
