"""What hostile or merely slow clients do to an HTTP server, for scripts/server-load-benchmark.py and the
server's tests: slow and idle connections, bodies without a token in every framing, and a watch on the
server's memory. Nothing here needs the judge; each takes the port of a server on 127.0.0.1."""
import gzip
import selectors
import socket
import threading
import time


def rss_mib(pid):
    """The process's resident memory now and at its peak [MiB] (from /proc)."""
    now = peak = 0.0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return now, peak


class memory_watch:
    """Samples a process's resident memory every 50 ms while it runs; `peak` is the largest seen [MiB]."""

    def __init__(self, pid):
        self.pid, self.peak, self.start = pid, 0.0, rss_mib(pid)[0]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, rss_mib(self.pid)[0])
            except OSError:
                return
            time.sleep(0.05)

    def stop(self):
        self._stop.set()
        self._thread.join()
        return self.peak


class slow_clients:
    """`count` connections that each send a request's headers one line every `every` seconds and never
    finish (slowloris), or nothing at all (`idle`). A connection the server closes is opened again, so the
    pressure stays at `count` for as long as this runs. `reopened` counts the server's closes."""

    def __init__(self, port, count, every=3.0, idle=False):
        self.port, self.count, self.every, self.idle = port, count, every, idle
        self.reopened = 0
        self.open_now = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _connect(self, sel):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", self.port))
        sel.register(s, selectors.EVENT_READ, {"sent": 0})
        return s

    def _run(self):
        sel = selectors.DefaultSelector()
        socks = [self._connect(sel) for _ in range(self.count)]
        next_byte = time.monotonic() + 0.2
        while not self._stop.is_set():
            for key, _ in sel.select(timeout=0.2):
                try:
                    data = key.fileobj.recv(4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:  # the server closed it: open another
                    sel.unregister(key.fileobj)
                    key.fileobj.close()
                    socks.remove(key.fileobj)
                    socks.append(self._connect(sel))
                    self.reopened += 1
            if time.monotonic() >= next_byte:
                next_byte = time.monotonic() + self.every
                for s in socks:
                    if self.idle:
                        continue
                    state = sel.get_key(s).data
                    line = (b"POST /api/v1/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n" if state["sent"] == 0
                            else b"X-Slow-%d: x\r\n" % state["sent"])
                    state["sent"] += 1
                    try:
                        s.send(line)
                    except OSError:
                        pass
            self.open_now = len(socks)
        for s in socks:
            s.close()

    def stop(self):
        self._stop.set()
        self._thread.join()


def body_attack(port, framing, size=256 << 20, path="/api/v1/submissions", token=None, timeout=20):
    """Sends one POST of `size` bytes without (or with) a token, framed as `framing`: "length"
    (Content-Length), "chunked", "none" (neither: the bytes simply follow) or "gzip" (a small gzip body that
    inflates to `size`). Returns (bytes the server took before it answered or closed, its status line)."""
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    body_iter = None
    block = b"0" * 65536
    if framing == "length":
        head += f"Content-Length: {size}\r\n"
        body_iter = (block for _ in range(size // len(block)))
    elif framing == "chunked":
        head += "Transfer-Encoding: chunked\r\n"
        body_iter = (b"%x\r\n" % len(block) + block + b"\r\n" for _ in range(size // len(block)))
    elif framing == "none":
        body_iter = (block for _ in range(size // len(block)))
    elif framing == "gzip":
        packed = gzip.compress(b"0" * size, compresslevel=9)
        head += f"Content-Encoding: gzip\r\nContent-Length: {len(packed)}\r\n"
        body_iter = iter([packed])
    # Connected only once the body is ready (compressing 256 MiB takes seconds): a server's request
    # deadline must not be what ends the attack.
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sent = 0
    status = ""
    try:
        s.sendall((head + "\r\n").encode())
        s.setblocking(False)
        for piece in body_iter:
            view = memoryview(piece)
            deadline = time.monotonic() + timeout
            while view:
                try:
                    n = s.send(view)
                    view = view[n:]
                    sent += n
                except BlockingIOError:
                    try:
                        got = s.recv(4096)
                        if got:
                            status = status or got.split(b"\r\n", 1)[0].decode(errors="replace")
                            raise StopIteration
                        raise StopIteration
                    except BlockingIOError:
                        pass
                    if time.monotonic() > deadline:
                        raise StopIteration
                    time.sleep(0.001)
    except (StopIteration, OSError):
        pass
    if not status:
        s.setblocking(True)
        s.settimeout(timeout)
        try:
            got = s.recv(4096)
            status = got.split(b"\r\n", 1)[0].decode(errors="replace") if got else "closed"
        except OSError as e:
            status = f"closed ({e.__class__.__name__})"
    s.close()
    return sent, status


def timed_request(port, method, path, body=None, headers=None, timeout=30):
    """One request on a new connection: (seconds, status, body)."""
    import http.client
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body, headers or {})
        r = conn.getresponse()
        text = r.read()
        return time.monotonic() - start, r.status, text
    except OSError as e:
        return time.monotonic() - start, 0, str(e).encode()
    finally:
        conn.close()
