#!/usr/bin/env python3
# kaproxy: a small forward proxy for proxy.sh that, unlike tinyproxy,
# keeps client connections alive, so absolute-form keep-alive and
# pipelining are testable.  Loopback only, bounded lifetime.
#
#   kaproxy.py PORTFILE LOGFILE [CONNECT-DELAY-MS [LIFETIME-S]]
#
# Listens on 127.0.0.1, an ephemeral port written to PORTFILE.  Each
# client connection gets a number (from 1); each request line received is
# logged as "N P REQUEST-LINE", P being 1 if the request had arrived
# before the reply to the one before it was sent (pipelined), else 0
# (each reply waits up to 100 ms for the next request, so that a client
# writing a burst in several writes is seen pipelining).  Absolute-form
# requests go in origin form to the server they name over one upstream
# connection per client connection, one at a time in order (so pipelined
# requests are answered in order); Proxy-* headers are dropped.  Replies are relayed as they are, framed by
# Content-Length or chunked encoding.  CONNECT is answered 200 after
# CONNECT-DELAY-MS milliseconds, then bytes are relayed both ways.  Only
# loopback servers are reached (anything else gets a 403).  The process
# exits after LIFETIME-S seconds (default 60) whatever it is doing.
import os
import select
import socket
import sys
import threading
import time

portfile, logfile = sys.argv[1], sys.argv[2]
delay = float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else 0.0
lifetime = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
MAXHEAD = 65536
PIPEWAIT = 0.1
LOOPBACK = ("127.0.0.1", "localhost")

log = open(logfile, "a")
loglock = threading.Lock()


def logline(n, piped, line):
    with loglock:
        log.write("%d %d %s\n" % (n, piped, line.decode("latin-1")))
        log.flush()


class Reader:
    """A socket's bytes, buffered here so that what has arrived is known."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def fill(self):
        d = self.sock.recv(65536)
        self.buf += d
        return len(d)

    def arrived(self, wait):
        """Takes in what has arrived, waiting up to `wait' seconds for a
        first byte; True if any is here."""
        if not self.buf:
            select.select([self.sock], [], [], wait)
        try:
            while self.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT):
                if not self.fill():
                    break
        except (BlockingIOError, InterruptedError):
            pass
        return len(self.buf) > 0

    def readline(self, limit):
        while b"\n" not in self.buf and len(self.buf) < limit:
            if not self.fill():
                break
        i = self.buf.find(b"\n", 0, limit)
        i = min(len(self.buf), limit) if i == -1 else i + 1
        line, self.buf = self.buf[:i], self.buf[i:]
        return line

    def read(self, n):
        while len(self.buf) < n:
            if not self.fill():
                raise ValueError("short body")
        d, self.buf = self.buf[:n], self.buf[n:]
        return d

    def read1(self):
        if not self.buf:
            self.fill()
        d, self.buf = self.buf, b""
        return d


def readhead(f):
    """The lines of a head up to its blank line, or None at EOF."""
    lines = []
    size = 0
    while True:
        line = f.readline(MAXHEAD)
        if not line:
            return None
        size += len(line)
        if size > MAXHEAD:
            raise ValueError("head too large")
        if line in (b"\r\n", b"\n"):
            return lines
        lines.append(line)


def header(lines, name):
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == name:
            return v.strip()
    return None


def relay_body(f, out, head, method, reply):
    """Copies the body the head (of a request, or of the reply to a
    request with `method') announces from f to out."""
    if reply:
        status = int(head[0].split()[1])
        if method == b"HEAD" or 100 <= status < 200 or status in (204, 304):
            return
    te = header(head, b"transfer-encoding")
    if te is not None and te.lower() == b"chunked":
        while True:
            line = f.readline(MAXHEAD)
            out(line)
            n = int(line.split(b";")[0], 16)
            if n == 0:
                break
            out(f.read(n + 2))
        while True:
            line = f.readline(MAXHEAD)
            out(line)
            if line in (b"\r\n", b"\n", b""):
                return
    cl = header(head, b"content-length")
    if cl is not None and int(cl) > 0:
        out(f.read(int(cl)))


def pipe(src, dst):
    try:
        while True:
            d = src.recv(65536)
            if not d:
                break
            dst.sendall(d)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def tunnel(c, cf, target):
    host, _, port = target.rpartition(b":")
    if host.decode() not in LOOPBACK:
        c.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
        return
    time.sleep(delay)
    up = socket.create_connection((host.decode(), int(port)), 5)
    up.settimeout(None)
    up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    c.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    t = threading.Thread(target=pipe, args=(up, c), daemon=True)
    t.start()
    try:
        # read1 hands out what cf already buffered after the CONNECT's
        # head first (a client may send its ClientHello at once).
        while True:
            d = cf.read1()
            if not d:
                break
            up.sendall(d)
    except OSError:
        pass
    finally:
        try:
            up.shutdown(socket.SHUT_WR)
        except OSError:
            pass
    t.join()
    up.close()


def serve(n, c):
    cf = Reader(c)
    up = uf = None
    piped = 0
    try:
        while True:
            head = readhead(cf)
            if head is None:
                return
            logline(n, piped, head[0].rstrip(b"\r\n"))
            method, url, version = head[0].split()
            if method == b"CONNECT":
                tunnel(c, cf, url)
                return
            if not url.startswith(b"http://"):
                c.sendall(b"HTTP/1.1 400 Bad Request\r\n"
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n")
                return
            rest = url[len(b"http://"):]
            hostport, _, path = rest.partition(b"/")
            host, _, port = hostport.partition(b":")
            if host.decode() not in LOOPBACK:
                c.sendall(b"HTTP/1.1 403 Forbidden\r\n"
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n")
                return
            if up is None:
                up = socket.create_connection((host.decode(),
                    int(port or 80)), 5)
                up.settimeout(30)
                up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                uf = Reader(up)
            req = [b" ".join([method, b"/" + path, version]) + b"\r\n"]
            req += [h for h in head[1:]
                if not h.lower().startswith(b"proxy-")]
            up.sendall(b"".join(req) + b"\r\n")
            relay_body(cf, up.sendall, head, method, False)
            while True:
                rhead = readhead(uf)
                if rhead is None:
                    return
                # Is the next request here before this reply goes out?
                # A pipelining client sent it already (it may be on its
                # way: wait a little); any other cannot have.
                piped = 1 if cf.arrived(PIPEWAIT) else 0
                c.sendall(b"".join(rhead) + b"\r\n")
                relay_body(uf, c.sendall, rhead, method, True)
                if not 100 <= int(rhead[0].split()[1]) < 200:
                    break
            conn = header(rhead, b"connection")
            if conn is not None and conn.lower() == b"close":
                return
    except (OSError, ValueError, IndexError):
        pass
    finally:
        if up is not None:
            up.close()
        c.close()


def main():
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(128)
    ls.settimeout(0.2)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    end = time.monotonic() + lifetime
    n = 0
    while time.monotonic() < end:
        try:
            c, _ = ls.accept()
        except socket.timeout:
            continue
        c.settimeout(None)
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        n += 1
        threading.Thread(target=serve, args=(n, c), daemon=True).start()
    os._exit(0)


main()
