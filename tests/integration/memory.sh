#!/bin/sh
# Memory a server controls stays bounded: 300 connections at once, each
# sent a header line that never ends (16 MB, no newline), are counted as
# "other" once the line passes the 256 KiB limit, and the client's peak
# resident memory stays far below 300 such lines.
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
