#!/bin/sh
# HTTP/2 servers that misbehave with streams in flight, and one that
# holds a request body with flow control, against the report: a tiny h2c
# server in python3 (h2bad.py, loopback, bounded in time) closes, resets,
# or sends GOAWAY with an error while a burst of 5 streams waits for its
# replies; each lost stream is counted once, in the class the man page
# gives (connreset, or goaway in `other'); the window server's stalls are
# counted exactly and its requests complete.
. "$TESTLIB"

h2_need
command -v python3 >/dev/null 2>&1 || t_missing "python3 is missing"
H2BAD=$(dirname "$TESTLIB")/h2bad.py

# bad [h2bad.py options] MODE: starts the server (bounded to 30 s); sets
# PORT and BAD_PID.
bad() {
	rm -f "$T_DIR/bport"
	python3 "$H2BAD" -P "$T_DIR/bport" -t 30 "$@" 2> "$T_DIR/bad.err" &
	BAD_PID=$!
	T_PIDS="$T_PIDS $BAD_PID"
	wait_path -s "$T_DIR/bport" h2bad.py "$T_DIR/bad.err"
	PORT=$(cat "$T_DIR/bport")
}

# bad_done: the server served what it was told, and exited.
bad_done() {
	wait "$BAD_PID" || fail "h2bad.py: exit status $?: $(cat "$T_DIR/bad.err")"
	grep -q '^h2bad: done$' "$T_DIR/bad.err" ||
	    fail "h2bad.py: $(cat "$T_DIR/bad.err")"
}

BURST="--http2 --num-conns 1 --num-calls 5 --burst-length 5"

# The server closes (FIN), or resets, with the 5 streams open: each is a
# connreset, none a reply.
for mode in close reset; do
	bad $mode
	# shellcheck disable=SC2086
	hp $BURST
	expect_rc 0
	expect_classic
	expect_counts 1 5 0
	expect_status 0 0 0 0 0
	expect_errors 5 0 0 0 5 0 0 0 0
	expect '^HTTP/2: connections 1 \(h2 0 h2c 1 http/1\.1 0\), streams 5, streams/conn 5\.0 max 5, max concurrent 5$'
	expect '^HTTP/2 frames: RST_STREAM received 0 sent 0, GOAWAY received 0, flow-control stalls 0$'
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 0 protocol 0$'
	bad_done
	grep -q "^h2bad: $mode with streams \[1, 3, 5, 7, 9\]\$" "$T_DIR/bad.err" ||
	    fail "h2bad.py: $(cat "$T_DIR/bad.err")"
	ok "$mode with 5 streams in flight: connreset 5"
done

# GOAWAY with an error: ENHANCE_YOUR_CALM with last stream id 3 (streams
# 5, 7, 9 lost to it at once, 1 and 3 when the server then closes), and
# PROTOCOL_ERROR with last stream id 0 (all lost at once; we close).
# Either way each stream counts once as goaway, in the classic `other'.
for mode in goaway-calm goaway-proto; do
	bad $mode
	# shellcheck disable=SC2086
	hp $BURST
	expect_rc 0
	expect_classic
	expect_counts 1 5 0
	expect_errors 5 0 0 0 0 0 0 0 5
	expect '^HTTP/2 frames: RST_STREAM received 0 sent 0, GOAWAY received 1, flow-control stalls 0$'
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 5 alpn 0 protocol 0$'
	bad_done
	ok "$mode with 5 streams in flight: goaway 5, other 5"
done

# Flow control: the body (68,035 bytes) uses up the default windows
# (65,535) before the server's SETTINGS, which set a window of 16; then
# it grants 1000 bytes at a time.  A stall at 65,535, at 66,535 and at
# 67,535, the last 500 bytes end the stream: 3 stalls a request, each
# request answered 200 (the server checks the body's size).
head -c 68035 /dev/zero | tr '\0' 'p' > "$T_DIR/body"
bad -c 2 -b 68035 window
hp --http2 --num-conns 2 --num-calls 1 --method POST --body-file "$T_DIR/body"
expect_rc 0
expect_classic
expect_counts 2 2 2
expect_status 0 2 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^HTTP/2: connections 2 \(h2 0 h2c 2 http/1\.1 0\), streams 2, streams/conn 1\.0 max 1, max concurrent 1$'
expect '^HTTP/2 frames: RST_STREAM received 0 sent 0, GOAWAY received 0, flow-control stalls 6$'
expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 0 protocol 0$'
bad_done
[ "$(grep -c '^h2bad: body 68035$' "$T_DIR/bad.err")" = 2 ] ||
    fail "h2bad.py: $(cat "$T_DIR/bad.err")"
ok "a tiny initial window: 6 flow-control stalls, both requests complete"

# A server that reads the request and never answers it, but sends a frame
# every 0.5 s (a PING, an empty SETTINGS, a WINDOW_UPDATE of the
# connection, an empty DATA frame after a 200 head): none is progress of the
# call's, which times out at --timeout (1 s) as client-timo; its
# connection, with nothing else to do, closes.  (Each frame held the call
# until the server left, 10 s here, and it then counted as connreset.)
for mode in ping settings window-update empty-data; do
	bad -t 10 -i 0.5 $mode
	hp --http2 --num-conns 1 --num-calls 1 --timeout 1
	expect_rc 0
	expect_classic
	expect_counts 1 1 0
	expect_errors 1 1 0 0 0 0 0 0 0
	expect_calls_ended
	d=$(value Total: test-duration)
	awk -v d="$d" 'BEGIN { exit !(d >= 0.9 && d < 5) }' ||
	    fail "$mode: test-duration $d s, expected about 1 s"
	bad_done
	ok "$mode every 0.5 s: client-timo after ${d} s"
done

# 1,000 interim (100) heads on a stream: past 100 the stream fails, as
# an HTTP/1.1 reply with more than 100 interim replies (other); :status
# 600 and 999 are no replies either (other, as on HTTP/1.1).  (All three
# counted as replies before, the last two in no status class.)
for st in interims 600 999; do
	if [ $st = interims ]; then
		bad -t 10 -c 2 interims
	else
		bad -t 10 -c 2 -s $st status
	fi
	hp --http2 --num-conns 2 --num-calls 1
	expect_rc 0
	expect_classic
	expect_counts 2 2 0
	expect_status 0 0 0 0 0
	expect_errors 2 0 0 0 0 0 0 0 2
	expect_calls_ended
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 0 protocol 2$'
	bad_done
	ok "$st: 2 errors (other), no reply"
done

# RFC 9113 8.1: the server answers each 1 MB POST with 413 and
# END_STREAM at once, while the default windows (65,535 bytes, the
# connection's shared) hold the body, then resets the stream with
# NO_ERROR a second later ("early"), or never ("early-closed").  Each
# reply is complete at END_STREAM: a transfer time far below that second,
# the rest of the body not sent (our RST_STREAM NO_ERROR on stream 1
# before the second request's stream goes) and counted, with its DATA
# frames' headers: at least 1,000,000 - 65,535 + 1,000,000 bytes.
# (Before: a reply time of a second, or with the window shut a
# client-timo; 0 bytes not sent.)
head -c 1000000 /dev/zero | tr '\0' 'p' > "$T_DIR/mb"
for mode in early early-closed; do
	bad -t 10 $mode
	hp --http2 --num-conns 1 --num-calls 2 --method POST \
	    --body-file "$T_DIR/mb" --timeout 3
	expect_rc 0
	expect_classic
	expect_counts 1 2 2
	expect_status 0 0 0 2 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect_calls_ended
	tr=$(value 'Reply time \[ms\]:' transfer)
	awk -v t="$tr" 'BEGIN { exit !(t < 500) }' ||
	    fail "$mode: transfer time $tr ms, expected far below 1000"
	expect '^Early replies: 2 \(requests cut short 2, request bytes not sent [0-9]+\)$'
	ns=$(sed -n 's/^Early replies: .*request bytes not sent \([0-9]*\))$/\1/p' "$OUT")
	[ "$ns" -ge 1934465 ] && [ "$ns" -le 2001200 ] ||
	    fail "$mode: $ns request bytes not sent, expected 1,934,465 to 2,001,200"
	expect '^HTTP/2 frames: RST_STREAM received 0 sent 1, '
	bad_done
	grep -q '^h2bad: rst 1 0$' "$T_DIR/bad.err" ||
	    fail "h2bad.py: $(cat "$T_DIR/bad.err")"
	ok "$mode 413s: transfer $tr ms, $ns request bytes not sent"
done
