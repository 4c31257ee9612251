#!/bin/sh
# Ending a run early: --runtime stops it and prints the report without
# counting the connections still open as errors; SIGINT does the same.
. "$TESTLIB"

start_srv
hp --num-conns 100000 --rate 20 --uri /size/10 --runtime 1
expect_rc 0
expect_classic
conns=$(sed -n 's/^Total: connections \([0-9]*\) .*/\1/p' "$OUT")
[ "$conns" -ge 15 ] && [ "$conns" -le 25 ] || fail "$conns connections in 1 s at 20/s"
expect_errors 0 0 0 0 0 0 0 0 0
ok "--runtime ends the run"

hp --num-conns 5 --rate 50 --uri /hang --runtime 0.5
expect_rc 0
expect_counts 5 5 0
expect_errors 0 0 0 0 0 0 0 0 0
ok "--runtime: connections still open are not errors"

# SIGINT: the report is printed and the exit status is 0.  Wait until
# the run is under way (requests reach the server) before interrupting.
: > "$T_DIR/srv.log"
"$HP" --server 127.0.0.1 --port "$PORT" --num-conns 1000000 \
    --rate 50 --uri /size/10 > "$OUT" 2> "$OUT.err" &
pid=$!
i=0
while [ "$(srv_requests)" -lt 10 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT $pid
# A watchdog: if SIGINT did not end the run within 10 s, kill it.
( sleep 10; kill -9 $pid 2>/dev/null ) &
wd=$!
wait $pid
RC=$?
kill $wd 2>/dev/null
[ $RC -ne 137 ] || fail "SIGINT did not stop the run"
expect_rc 0
expect_classic
ok "SIGINT prints the report"
stop_srv
