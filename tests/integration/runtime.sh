#!/bin/sh
# Ending a run early: --runtime stops it and prints the report without
# counting the connections still open as errors; SIGINT, SIGTERM and
# SIGHUP do the same.  A report that cannot be written makes the exit
# status 1.
. "$TESTLIB"

start_srv
hp --num-conns 100000 --rate 20 --uri /size/10 --runtime 1
expect_rc 0
expect_classic
conns=$(sed -n 's/^Total: connections \([0-9]*\) .*/\1/p' "$OUT")
[ "$conns" -ge 15 ] && [ "$conns" -le 25 ] || fail "$conns connections in 1 s at 20/s"
expect_errors 0 0 0 0 0 0 0 0 0
ok "--runtime ends the run"

# sched N: field N of the Arrivals line (1 scheduled, 2 never sent).
sched() {
	sed -n 's/^Arrivals: \([0-9]*\) scheduled, .*, \([0-9]*\) never sent;.*/\1 \2/p' \
	    "$OUT" | awk -v f="$1" '{ print $f }'
}

# A run of T s is [0, T): at 500/s for 1 s exactly 500 connections are
# scheduled (the one meant for 1 s is not: "scheduled 501" before), each
# made or never sent.
hp --num-conns 100000 --rate 500 --uri /size/10 --runtime 1
expect_rc 0
[ "$(sched 1)" = 500 ] || fail "$(sched 1) scheduled in 1 s at 500/s"
conns=$(value "Total:" connections)
[ "$((conns + $(sched 2)))" = 500 ] ||
    fail "$conns made + $(sched 2) never sent is not 500"
ok "--rate 500 --runtime 1: exactly 500 scheduled"

# The schedule falls far behind: 10,000,000 connections a second, and
# all but a few fail at creation for want of file descriptors.  Each loop
# turn takes in a bounded number, so --runtime is looked at every few ms
# and the run ends on time; what it never reached counts as never sent,
# all at once.  timeout bounds the failing case.
hp_fds 64 --rate 1e7 --num-conns 1000000000 --uri /size/10 --runtime 2
expect_rc 0
expect_ms 3500
[ "$(sched 1)" = 20000000 ] || fail "$(sched 1) scheduled in 2 s at 1e7/s"
conns=$(value "Total:" connections)
[ "$((conns + $(sched 2)))" = 20000000 ] ||
    fail "$conns made + $(sched 2) never sent is not 20000000"
ok "--rate 1e7 with the fds gone: over in $HP_MS ms"

hp --num-conns 5 --rate 50 --uri /hang --runtime 0.5
expect_rc 0
expect_counts 5 5 0
expect_errors 0 0 0 0 0 0 0 0 0
ok "--runtime: connections still open are not errors"

# The longest times the clock holds work as usual; the shortest positive
# one is still a limit, not "no timeout".
hp --num-conns 2 --uri /delay/100/10 --timeout 1e9 --think-timeout 1e9 \
    --runtime 1e9
expect_rc 0
expect_counts 2 2 2
expect_errors 0 0 0 0 0 0 0 0 0
hp --num-conns 1 --uri /delay/300/10 --timeout 1e-12
expect_rc 0
expect_counts 1 1 0
expect_errors 1 1 0 0 0 0 0 0 0
ok "--timeout, --think-timeout, --runtime: 1e9 s and 1e-12 s"

# SIGINT, SIGTERM and SIGHUP: the report is printed and the exit status
# is 0.  Wait until the run is under way (requests reach the server)
# before signalling.
for sig in INT TERM HUP; do
	: > "$T_DIR/srv.log"
	"$HP" --server 127.0.0.1 --port "$PORT" --num-conns 1000000 \
	    --rate 50 --uri /size/10 > "$OUT" 2> "$OUT.err" &
	pid=$!
	i=0
	while [ "$(srv_requests)" -lt 10 ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -$sig $pid
	# A watchdog: if the signal did not end the run within 10 s, kill it.
	( sleep 10; kill -9 $pid 2>/dev/null ) &
	wd=$!
	wait $pid
	RC=$?
	kill $wd 2>/dev/null
	T_LAST="httperf ... (SIG$sig)"
	[ $RC -ne 137 ] || fail "SIG$sig did not stop the run"
	expect_rc 0
	expect_classic
	ok "SIG$sig prints the report"
done

# A report that cannot be written is an error: exit status 1 and a line
# on stderr, for a full disk (the first line already fails) and for a
# reader that went away after the first line (the run outlasts it, so
# the rest of the report meets a closed pipe).
"$HP" --server 127.0.0.1 --port "$PORT" --num-conns 1 --uri /size/10 \
    > /dev/full 2> "$OUT.err"
RC=$?
T_LAST="httperf ... > /dev/full"
expect_rc 1
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "not one line: $(cat "$OUT.err")"
grep -q "cannot write the report.*No space left on device" "$OUT.err" ||
    fail "stderr: $(cat "$OUT.err")"
ok "a report written to a full disk: exit status 1"
( "$HP" --server 127.0.0.1 --port "$PORT" --num-conns 3 --rate 5 \
    --uri /size/10 2> "$OUT.err"; echo $? > "$T_DIR/rc" ) |
    head -n 1 > /dev/null
RC=$(cat "$T_DIR/rc")
T_LAST="httperf ... | head -n 1"
expect_rc 1
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "not one line: $(cat "$OUT.err")"
grep -q "cannot write the report.*Broken pipe" "$OUT.err" ||
    fail "stderr: $(cat "$OUT.err")"
ok "a report written to a closed pipe: exit status 1"
stop_srv
