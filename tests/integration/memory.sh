#!/bin/sh
# Memory a server controls stays bounded: 300 connections at once, each
# sent a header line that never ends (16 MB, no newline), are counted as
# "other" once the line passes the 256 KiB limit, and the client's peak
# resident memory stays far below 300 such lines.  A burst's calls are
# made as its connection takes them: a burst of 10 million calls, or a
# session file's burst of 300,000, holds only the calls in flight.
. "$TESTLIB"

/usr/bin/time -f %M true > /dev/null 2>&1 ||
    skip "GNU time (/usr/bin/time) is not installed (apt-get install time)"
if ldd "$HTTPERF" 2>/dev/null | grep -q libasan; then
	# AddressSanitizer's shadow and quarantine make RSS meaningless;
	# the counts are still checked.
	limit_kb=0
else
	limit_kb=120000
fi

start_srv
/usr/bin/time -o "$T_DIR/rss" -f %M timeout 120 "$HTTPERF" \
    --server 127.0.0.1 --port "$PORT" --uri /bighdr/1/16000000 \
    --num-conns 300 --rate 10000 --timeout 20 > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --uri /bighdr/1/16000000 --num-conns 300 --rate 10000"
expect_rc 0
expect_counts 300 300 0
expect_errors 300 0 0 0 0 0 0 0 300
rss=$(tail -n 1 "$T_DIR/rss")
echo "peak RSS: $rss KiB"
if [ "$limit_kb" -gt 0 ] && [ "$rss" -gt "$limit_kb" ]; then
	fail "peak RSS $rss KiB, over $limit_kb KiB"
fi
ok "300 endless header lines: counted as other, peak RSS $rss KiB"

# rss_check WHAT: the peak RSS of the last run is under the limit.
rss_check() {
	rss=$(tail -n 1 "$T_DIR/rss")
	echo "$1: peak RSS $rss KiB"
	if [ "$limit_kb" -gt 0 ] && [ "$rss" -gt "$limit_kb" ]; then
		fail "$1: peak RSS $rss KiB, over $limit_kb KiB"
	fi
}

# A burst of 10 million calls on one connection, --runtime 2, against a
# server frozen by the first request: the calls go out as the socket
# takes them (some 40,000 fill the buffers) and the run ends on time.
# Made all at once, the calls took 650 bytes each (6.5 GB; out of memory
# under the 1.5 GB ulimit), and --runtime waited for the making.  A
# server of its own, as the frozen one stays frozen.
start_srv
(if [ "$limit_kb" -gt 0 ]; then ulimit -v 1500000; fi
 exec /usr/bin/time -o "$T_DIR/rss" -f '%e %M' timeout 60 "$HTTPERF" \
    --server 127.0.0.1 --port "$PORT" --uri /freeze/5000 --num-conns 1 \
    --num-calls 10000000 --burst-length 10000000 --runtime 2) \
    > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --uri /freeze/5000 --num-calls 10000000 --burst-length 10000000 --runtime 2"
kill -9 "$SRV_PID" 2>/dev/null
expect_rc 0
expect_classic
expect '^Total: connections 1 requests [0-9]+ replies 0 test-duration 2\.[0-9]{3} s$'
expect_errors 0 0 0 0 0 0 0 0 0
reqs=$(value "Total:" requests)
[ "$reqs" -ge 1000 ] || fail "only $reqs requests written"
secs=$(tail -n 1 "$T_DIR/rss" | awk '{ print $1 }')
awk -v s="$secs" 'BEGIN { exit !(s < 3.0) }' ||
    fail "the run took $secs s, --runtime 2"
tail -n 1 "$T_DIR/rss" | awk '{ print $2 }' > "$T_DIR/rss.kb"
mv "$T_DIR/rss.kb" "$T_DIR/rss"
rss_check "a burst of 10^7 calls"
ok "a burst of 10^7 calls, --runtime 2: $reqs written, ended in $secs s"

# Exact counts: bursts of 300 (the last of each connection 100), made
# 64 at a time; the server saw every request.
start_srv
/usr/bin/time -o "$T_DIR/rss" -f %M timeout 60 "$HTTPERF" \
    --server 127.0.0.1 --port "$PORT" --uri /size/10 --num-conns 2 \
    --num-calls 1000 --burst-length 300 > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --num-conns 2 --num-calls 1000 --burst-length 300"
expect_rc 0
expect_counts 2 2000 2000
expect_errors 0 0 0 0 0 0 0 0 0
[ "$(srv_requests)" = 2000 ] || fail "the server saw $(srv_requests)"
ok "bursts of 300: 2000 requests, 2000 replies, all at the server"

# A session file with one burst of 300,000 requests (4.7 MB): the rest
# of the burst follows its first call as the connections take it (4 of
# them, 32 calls each); made at once, it took 220 MB.
awk 'BEGIN { print "/size/1"; for (i = 1; i < 300000; i++)
    printf "\t/size/1?%d\n", i }' > "$T_DIR/big.sess"
: > "$T_DIR/srv.log"
/usr/bin/time -o "$T_DIR/rss" -f %M timeout 120 "$HTTPERF" \
    --server 127.0.0.1 --port "$PORT" --wsesslog "1,0,$T_DIR/big.sess" \
    > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --wsesslog 1,0,big.sess (a burst of 300,000)"
expect_rc 0
expect_counts '[0-9]+' 300000 300000
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Session rate \[sess/s\]: .* \(1/1\)$'
[ "$(srv_requests)" = 300000 ] || fail "the server saw $(srv_requests)"
rss_check "a session burst of 300,000"
ok "a session burst of 300,000: all sent and replied, peak RSS $rss KiB"
