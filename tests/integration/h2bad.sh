#!/bin/sh
# HTTP/2 servers that misbehave with streams in flight, and one that
# holds a request body with flow control, against the report: a tiny h2c
# server in python3 (h2bad.py, loopback, bounded in time) closes, resets,
# or sends GOAWAY with an error while a burst of 5 streams waits for its
# replies; each lost stream is counted once, in the class the man page
# gives (connreset, or goaway in `other'); the window server's stalls are
# counted exactly and its requests complete.
. "$TESTLIB"

"$HP" --http2 --server 127.0.0.1 --port 9 --num-conns 1 > "$OUT" 2> "$OUT.err"
if grep -q 'built without HTTP/2' "$OUT.err"; then
	if [ "${CI:-}" = true ] || [ "${HTTPERF_STRICT:-}" = 1 ]; then
		fail "httperf was built without libnghttp2 (apt-get install libnghttp2-dev)"
	fi
	skip "httperf was built without libnghttp2"
fi
if ! command -v python3 >/dev/null 2>&1; then
	if [ "${CI:-}" = true ] || [ "${HTTPERF_STRICT:-}" = 1 ]; then
		fail "python3 is missing"
	fi
	skip "python3 is missing"
fi
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
