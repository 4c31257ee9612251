#!/usr/bin/env python3
"""Writes the script-mode seeds of fuzz_h2 (see fuzz/fuzz_h2.c) into
fuzz/corpus/h2/ (or the directory given): s_* files, each a plan byte
with bit 7 set, a piece size, and a script of server actions."""

import os
import struct
import sys

SETTINGS, HEADERS, DATA, TRAILERS, RST, GOAWAY, WINDOW, PING, PUSH, \
    RAW, FRAME, DELIVER = range(12)
MAX_CONCURRENT_STREAMS, INITIAL_WINDOW_SIZE, MAX_FRAME_SIZE = 3, 4, 5
BIG, NO_INDEX = 0x10, 0x20
# Field names by index in fuzz_h2.c's list.
CONTENT_LENGTH, CONTENT_TYPE, SET_COOKIE, X_FUZZ = 1, 2, 3, 5


def plan(calls, body=False, streams=0, piece=0):
    """Byte 0 (script mode) and byte 1."""
    return bytes([0x80 | (streams << 4) | (8 if body else 0) |
                  (calls - 1), piece])


def settings(*pairs):
    return bytes([len(pairs)]) + b"".join(
        struct.pack(">BI", k, v) for k, v in pairs)


def field(kind, value=b"", name=None):
    """A field: kind's low bits name it (12 and up: `name')."""
    out = bytes([kind])
    if (kind & 0x0f) >= 12:
        out += bytes([len(name)]) + name
    if kind & BIG:
        size, pattern = value
        return out + struct.pack(">HB", size, len(pattern) - 1) + pattern
    return out + bytes([len(value)]) + value


def fields(*fs):
    return bytes([len(fs)]) + b"".join(fs)


def headers(stream, status, fs, end=True):
    return bytes([HEADERS, stream, 1 if end else 0]) + \
        struct.pack(">H", status) + fs


def data(stream, size, end=True, fill=ord("d")):
    return bytes([DATA, stream]) + struct.pack(">H", size) + \
        bytes([(fill << 1 & 0xfe) | (1 if end else 0)])


def trailers(stream, fs):
    return bytes([TRAILERS, stream]) + fs


def rst(stream, code):
    return bytes([RST, stream, code])


def goaway(last, code, debug=b""):
    return bytes([GOAWAY, last, code, len(debug)]) + debug


def window(stream, incr):
    if stream is None:
        return bytes([WINDOW, 1]) + struct.pack(">I", incr)
    return bytes([WINDOW, 0, stream]) + struct.pack(">I", incr)


def ping(ack=False):
    return bytes([PING, 1 if ack else 0]) + b"12345678"


def push(stream, promised, fs, end_headers=True):
    return bytes([PUSH, stream, promised, 1 if end_headers else 0]) + fs


def raw(b):
    return bytes([RAW, len(b)]) + b


def frame(ftype, flags, stream, payload):
    return bytes([FRAME, ftype, flags, stream, len(payload)]) + payload


DEL = bytes([DELIVER])
OK = fields(field(CONTENT_TYPE, b"text/plain"),
            field(SET_COOKIE, b"a=b; path=/"))

SEEDS = {
    # Three replies, one with a body, in the server's order.
    "s_reply": plan(3) + settings() + DEL +
    headers(1, 200, OK) + headers(2, 404, fields(), end=False) +
    data(2, 100) + headers(0, 204, fields()) + DEL,
    # Bodies in several DATA frames, trailers, pieces of 7 bytes.
    "s_data_trailers": plan(2, piece=7) + settings() + DEL +
    headers(0, 200, fields(field(CONTENT_LENGTH, b"40000")), end=False) +
    data(0, 40000) + headers(1, 200, fields(), end=False) +
    data(1, 300, end=False) +
    trailers(1, fields(field(X_FUZZ, b"t"), field(NO_INDEX | 12, b"v",
                                                  b"x-trailer"))) + DEL,
    # A header block bigger than a frame: HEADERS and CONTINUATION.
    "s_continuation": plan(1) + settings() + DEL +
    headers(0, 200, fields(*[field(BIG | NO_INDEX | X_FUZZ, (3000, b"q"))
                             for _ in range(7)])) + DEL,
    # A limit of 2 streams, a reset, a GOAWAY with an error.
    "s_rst_goaway": plan(5, streams=0) +
    settings((MAX_CONCURRENT_STREAMS, 2)) + DEL +
    headers(0, 200, OK) + rst(1, 2) + DEL + headers(2, 200, OK) +
    goaway(2, 11, b"calm") + DEL,
    # A small window for request bodies, updates, pings.
    "s_window_ping": plan(3, body=True) +
    settings((INITIAL_WINDOW_SIZE, 4), (MAX_FRAME_SIZE, 16384)) + DEL +
    ping() + window(None, 100) + window(0, 100) + DEL + ping(ack=True) +
    headers(0, 200, OK) + headers(1, 200, OK) + headers(2, 200, OK) + DEL,
    # PUSH_PROMISE (push is off: a protocol error), after a reply.
    "s_push": plan(2) + settings() + DEL + headers(0, 200, OK) + DEL +
    push(1, 1, fields(field(12, b"/pushed", b":path"))) + DEL,
    # A raw frame of an unknown type, raw bytes, then a reply.
    "s_raw": plan(1, piece=1) + settings() + DEL +
    frame(0xfa, 0, 0, b"ext") + frame(2, 0, 1, b"\0\0\0\0\x10") +
    raw(b"\0\0\x08\x06\0\0\0\0\0pingpong") + headers(0, 200, OK) + DEL,
    # :status 600 and 999 (no replies), 101 interim heads (one too
    # many) then 200: three calls, each one error.
    "s_status_interim": plan(3) + settings() + DEL +
    headers(0, 600, fields()) +
    b"".join(headers(1, 100, fields(), end=False) for _ in range(101)) +
    headers(1, 200, OK) + headers(2, 999, fields()) + DEL,
    # Bodies held by a window of 4: 413 with END_STREAM at once, one
    # reset with NO_ERROR afterwards (RFC 9113 8.1), one never.
    "s_early": plan(2, body=True) + settings((INITIAL_WINDOW_SIZE, 4)) +
    DEL + headers(0, 413, OK) + DEL + rst(0, 0) + headers(1, 413, OK) +
    DEL,
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus", "h2")
    for name, b in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
