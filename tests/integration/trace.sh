#!/bin/sh
# --print-request and --print-reply: golden traces for a plain, a chunked
# (with trailers), a pipelined and a POST exchange.  CRs are shown as '~'.
. "$TESTLIB"

# trace: the trace lines of the report, CRs made visible.
trace() {
	grep -E '^(S[HBS]|R[HBTS])[0-9]+:' "$OUT" | tr '\r' '~'
}

# expect_trace: the trace equals standard input.
expect_trace() {
	cat > "$T_DIR/want"
	trace > "$T_DIR/got"
	cmp -s "$T_DIR/want" "$T_DIR/got" || \
	    fail "trace differs: $(diff "$T_DIR/want" "$T_DIR/got")"
}

start_srv
ver=$("$HP" --version | sed -n 's/.*httperf-\([0-9.]*\).*/\1/p')

hp --num-conns 1 --uri /size/12 --print-request --print-reply
expect_counts 1 1 1
expect_trace <<TRACE
SH0:GET /size/12 HTTP/1.1
SH0:User-Agent: httperf/$ver
SH0:Host: 127.0.0.1:$PORT
SH0:
SS0: header $((65 + ${#ver} + ${#PORT})) content 0
RH0:HTTP/1.1 200 OK
RH0:Server: testsrv
RH0:Content-Type: text/plain
RH0:Content-Length: 12
RH0:
RB0:xxxxxxxxxxxx
RS0: header 82 content 12 footer 0
TRACE
ok "plain exchange"

# Chunked, cut into pieces of 10: shown de-chunked, trailers as RT.
hp --num-conns 1 --uri /chunked-trailer/25/10 --print-reply
expect_trace <<TRACE
RH0:HTTP/1.1 200 OK
RH0:Server: testsrv
RH0:Content-Type: text/plain
RH0:Transfer-Encoding: chunked
RH0:
RB0:xxxxxxxxxxxxxxxxxxxxxxxxx
RT0:X-Trailer-One: 1
RT0:X-Trailer-Two: 2
RT0:
RS0: header 90 content 25 footer 38
TRACE
ok "chunked reply with trailers"

# Pipelined: two requests written back to back, each reply under its
# own call number; only bodies and summaries.
hp --num-conns 1 --num-calls 2 --burst-length 2 --uri /echo-body \
    --method POST --body 'line1\nline2' --print-request=body \
    --print-reply=body
expect_counts 1 2 2
expect_trace <<TRACE
SB0:line1~
SB0:line2
SS0: header $((88 + ${#ver} + ${#PORT})) content 12
SB1:line1~
SB1:line2
SS1: header $((88 + ${#ver} + ${#PORT})) content 12
RB0:line1~
RB0:line2
RS0: header 82 content 12 footer 0
RB1:line1~
RB1:line2
RS1: header 82 content 12 footer 0
TRACE
ok "pipelined POST bodies"

# Headers only; an interim 100 Continue block is shown as received.
hp --num-conns 1 --uri /continue/3 --print-reply=header
expect_trace <<TRACE
RH0:HTTP/1.1 100 Continue
RH0:
RH0:HTTP/1.1 200 OK
RH0:Server: testsrv
RH0:Content-Type: text/plain
RH0:Content-Length: 3
RH0:
RS0: header 106 content 3 footer 0
TRACE
ok "interim reply, headers only"
stop_srv
