#!/usr/bin/env python3
"""A misbehaving HTTP/2 server for tests/integration/h2bad.sh.

Speaks just enough h2c (prior knowledge) by hand, with no HTTP/2
library: the client's preface, its SETTINGS (acknowledged), HEADERS
(counted by stream), DATA (counted), and sends its own SETTINGS first.
On 127.0.0.1 only; serves CONNS connections one after another, then
exits; the whole run is bounded by -t seconds (SIGALRM), each read by
a socket timeout.

usage: h2bad.py -P PORTFILE [-t SECS] [-c CONNS] [-n STREAMS] MODE

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
"""

import getopt
import os
import signal
import socket
import struct
import sys

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, \
    CONTINUATION = 0, 1, 3, 4, 6, 7, 8, 9
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
PROTOCOL_ERROR, ENHANCE_YOUR_CALM = 0x1, 0xb
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


def main():
    opts, args = getopt.getopt(sys.argv[1:], "P:t:c:n:b:")
    o = dict(opts)
    if len(args) != 1 or "-P" not in o or args[0] not in (
            "close", "reset", "goaway-calm", "goaway-proto", "window"):
        sys.exit(__doc__)
    mode = args[0]
    secs = int(o.get("-t", "30"))
    conns = int(o.get("-c", "1"))
    nstreams = int(o.get("-n", "5"))
    body = int(o.get("-b", "0"))
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
            serve(Conn(s), mode, nstreams, body)
        finally:
            s.close()
    log("done")


if __name__ == "__main__":
    main()
