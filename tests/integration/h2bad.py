#!/usr/bin/env python3
"""A misbehaving HTTP/2 server for tests/integration/h2bad.sh.

Speaks just enough h2c (prior knowledge) by hand, with no HTTP/2
library: the client's preface, its SETTINGS (acknowledged), HEADERS
(counted by stream), DATA (counted), and sends its own SETTINGS first.
On 127.0.0.1 only; serves CONNS connections one after another, then
exits; the whole run is bounded by -t seconds (SIGALRM), each read by
a socket timeout.

usage: h2bad.py -P PORTFILE [-t SECS] [-c CONNS] [-n STREAMS] [-b BODY]
                 [-i SECS] [-s STATUS] MODE
       h2bad.py -L     (prints every MODE, for hostile.sh)

MODE, once STREAMS streams (default 5) are open, none answered:
  close       closes its side (FIN), then waits for the client to go
  reset       closes with a TCP reset (SO_LINGER 0)
  goaway-calm GOAWAY ENHANCE_YOUR_CALM, last stream id 3, then FIN
  goaway-proto GOAWAY PROTOCOL_ERROR, last stream id 0 (all lost); the
              client then closes
  window      flow control: its SETTINGS (INITIAL_WINDOW_SIZE 16) only
              once the client has used the default 65,535-byte windows
              on stream 1, then windows of 1000 bytes, one at a time;
              answers 200 when the body (BODY bytes, -b) is all there,
              400 if it is not that size

MODE, once a request's HEADERS came, none answered; each stream's
request is read (its body counted, its window never opened):
  ping, settings, window-update, empty-data, interim
              every -i seconds (default 1), on and on: a PING, an empty
              SETTINGS, a WINDOW_UPDATE of the connection, an empty DATA
              frame on the stream (after a 200 head without its end), or
              a :status 100 head on the stream
  status      answers each stream with :status -s (e.g. 600-999)
  interims    1,000 :status 100 heads on each stream, then 200
  early       answers 413 with END_STREAM at once, before the request's
              body (-b bytes, which the default window holds) came;
              RST_STREAM NO_ERROR a second later
  early-closed the same without the RST_STREAM: the window stays shut
Each logs the streams the client reset ("rst SID CODE"), and ends when
the client closes.
"""

import getopt
import os
import signal
import socket
import struct
import sys
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, \
    CONTINUATION = 0, 1, 3, 4, 6, 7, 8, 9
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
NO_ERROR, PROTOCOL_ERROR, ENHANCE_YOUR_CALM = 0x0, 0x1, 0xb
INITIAL_WINDOW_SIZE = 0x4
DEFAULT_WINDOW = 65535
CHUNK = 1000


def log(*a):
    print("h2bad:", *a, file=sys.stderr, flush=True)


def frame(ftype, flags, sid, payload=b""):
    return struct.pack(">I", len(payload))[1:] + \
        struct.pack(">BBI", ftype, flags, sid) + payload


def settings(pairs=()):
    return frame(SETTINGS, 0, 0,
                 b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def window_update(sid, n):
    return frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", n))


def goaway(last, code):
    return frame(GOAWAY, 0, 0, struct.pack(">II", last, code))


def reply(sid, status):
    # HPACK: the static table's :status 200 (8) and 400 (12), indexed.
    return frame(HEADERS, END_HEADERS | END_STREAM, sid,
                 bytes([0x80 | (8 if status == 200 else 12)]))


def head(sid, status, end=True):
    """HEADERS with any :status: a literal, the static table's name
    (index 8), not indexed."""
    v = b"%03d" % status
    return frame(HEADERS, END_HEADERS | (END_STREAM if end else 0), sid,
                 bytes([0x08, len(v)]) + v)


TICKS = ("ping", "settings", "window-update", "empty-data", "interim")


def tick(mode, sid):
    if mode == "ping":
        return frame(PING, 0, 0, b"12345678")
    if mode == "settings":
        return settings()
    if mode == "window-update":
        return window_update(0, 1)
    if mode == "empty-data":
        return frame(DATA, 0, sid, b"")
    return head(sid, 100, False)


def serve_stuck(c, mode, interval, status):
    """The modes that hold or answer streams without reading more of
    them: ticks, odd statuses, interim floods, early answers."""
    streams = []
    rst_at = {}
    c.send(settings())
    c.sock.settimeout(interval if mode in TICKS else 0.05)
    last = time.monotonic()
    while True:
        try:
            frames = c.frames()
        except socket.timeout:
            frames = []
        if frames is None:
            log("the client closed, streams", streams)
            return
        for ftype, flags, sid, payload in frames:
            if ftype == SETTINGS and not flags & ACK:
                c.send(frame(SETTINGS, ACK, 0))
            elif ftype == PING and not flags & ACK:
                c.send(frame(PING, ACK, 0, payload))
            elif ftype == RST_STREAM:
                log("rst", sid, struct.unpack(">I", payload)[0])
            elif ftype == HEADERS and sid not in streams:
                streams.append(sid)
                if mode == "empty-data":
                    c.send(head(sid, 200, False))
                elif mode == "status":
                    c.send(head(sid, status))
                elif mode == "interims":
                    c.send(b"".join(head(sid, 100, False)
                                    for _ in range(1000)) + head(sid, 200))
                elif mode in ("early", "early-closed"):
                    c.send(head(sid, 413))
                    if mode == "early":
                        rst_at[sid] = time.monotonic() + 1
        now = time.monotonic()
        for sid, t in list(rst_at.items()):
            if now >= t:
                c.send(frame(RST_STREAM, 0, sid,
                             struct.pack(">I", NO_ERROR)))
                del rst_at[sid]
        if mode in TICKS and streams and now - last >= interval:
            c.send(tick(mode, streams[-1]))
            last = now


class Conn:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.preface = False

    def frames(self):
        """Reads; yields (type, flags, sid, payload); None at EOF."""
        data = self.sock.recv(65536)
        if not data:
            return None
        self.buf += data
        out = []
        if not self.preface:
            if len(self.buf) < len(PREFACE):
                return out
            if self.buf[:len(PREFACE)] != PREFACE:
                raise ValueError("no client preface")
            self.buf = self.buf[len(PREFACE):]
            self.preface = True
        while len(self.buf) >= 9:
            n = struct.unpack(">I", b"\0" + self.buf[:3])[0]
            if len(self.buf) < 9 + n:
                break
            ftype, flags, sid = struct.unpack(">BBI", self.buf[3:9])
            out.append((ftype, flags, sid & 0x7fffffff, self.buf[9:9 + n]))
            self.buf = self.buf[9 + n:]
        return out

    def send(self, b):
        self.sock.sendall(b)

    def wait_eof(self):
        """Reads and drops until the client closes (or the timeout)."""
        try:
            while self.sock.recv(65536):
                pass
        except OSError:
            pass


def serve(c, mode, nstreams, body):
    streams = set()
    got = 0                 # DATA bytes on stream 1
    granted = DEFAULT_WINDOW
    settings_sent = False
    if mode != "window":
        c.send(settings())
        settings_sent = True
    while True:
        frames = c.frames()
        if frames is None:
            log("the client closed, streams", sorted(streams))
            return
        for ftype, flags, sid, payload in frames:
            if ftype == SETTINGS and not flags & ACK:
                # Else acknowledged after ours, which must come first.
                if settings_sent:
                    c.send(frame(SETTINGS, ACK, 0))
            elif ftype == PING and not flags & ACK:
                c.send(frame(PING, ACK, 0, payload))
            elif ftype == HEADERS:
                streams.add(sid)
                if mode == "window" and flags & END_STREAM:
                    c.send(reply(sid, 400))
            elif ftype == DATA and mode == "window" and sid == 1:
                got += len(payload)
                if flags & END_STREAM:
                    log("body", got)
                    c.send(reply(1, 200 if got == body else 400))
                    c.wait_eof()
                    return
                if got == granted:
                    # The client's windows are used up: more, in steps.
                    out = b""
                    if not settings_sent:
                        out += settings([(INITIAL_WINDOW_SIZE, 16)])
                        out += frame(SETTINGS, ACK, 0)
                        settings_sent = True
                        # The stream's window is now 16 - 65535.
                        out += window_update(1, DEFAULT_WINDOW - 16 + CHUNK)
                    else:
                        out += window_update(1, CHUNK)
                    out += window_update(0, CHUNK)
                    granted += CHUNK
                    c.send(out)
        if mode == "window" or len(streams) < nstreams:
            continue
        log(mode, "with streams", sorted(streams))
        if mode == "reset":
            c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                              struct.pack("ii", 1, 0))
            return
        if mode == "goaway-calm":
            c.send(goaway(3, ENHANCE_YOUR_CALM))
        elif mode == "goaway-proto":
            c.send(goaway(0, PROTOCOL_ERROR))
            c.wait_eof()
            return
        c.sock.shutdown(socket.SHUT_WR)
        c.wait_eof()
        return


MODES = ("close", "reset", "goaway-calm", "goaway-proto", "window",
         "status", "interims", "early", "early-closed") + TICKS


def main():
    if sys.argv[1:] == ["-L"]:
        # Every mode, one a line, for tests/integration/hostile.sh.
        print("\n".join(MODES))
        return
    opts, args = getopt.getopt(sys.argv[1:], "P:t:c:n:b:i:s:")
    o = dict(opts)
    if len(args) != 1 or "-P" not in o or args[0] not in MODES:
        sys.exit(__doc__)
    mode = args[0]
    secs = int(o.get("-t", "30"))
    conns = int(o.get("-c", "1"))
    nstreams = int(o.get("-n", "5"))
    body = int(o.get("-b", "0"))
    interval = float(o.get("-i", "1"))
    status = int(o.get("-s", "600"))
    signal.alarm(secs)
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.bind(("127.0.0.1", 0))
    ls.listen(8)
    with open(o["-P"] + ".tmp", "w") as f:
        f.write("%d\n" % ls.getsockname()[1])
    os.rename(o["-P"] + ".tmp", o["-P"])
    for _ in range(conns):
        s, _ = ls.accept()
        s.settimeout(secs)
        # Each frame at once, not held for the last one's delayed ACK.
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            if mode in ("status", "interims", "early", "early-closed") + \
                    TICKS:
                serve_stuck(Conn(s), mode, interval, status)
            else:
                serve(Conn(s), mode, nstreams, body)
        except (ConnectionResetError, BrokenPipeError):
            log("the client reset the connection")
        finally:
            s.close()
    log("done")


if __name__ == "__main__":
    main()
