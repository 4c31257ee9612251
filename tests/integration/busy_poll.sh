#!/bin/sh
# --busy-poll: the event loop never sleeps, on every backend (epoll,
# poll, io_uring): the counts are exact, the option is echoed and in the
# JSON, and a run that waits 2 s for one reply burns CPU meanwhile
# (user + system >= 0.2 s, a tenth of the wait: a behaviour, not a
# performance figure; a machine loaded by a parallel make check still
# gives a spinning process that much, where 0.3 s of a 1 s wait was once
# too much) where without it the client sleeps (< 0.1 s).  (A kernel that refuses SO_BUSY_POLL
# gets one warning and the run goes on; this one lets even an
# unprivileged user have it, so that is not tested here.)
. "$TESTLIB"

# cpu: user + system seconds of the last run, from its report.
cpu() {
	awk '/^CPU time/ { print $5 + $7 }' "$OUT"
}

start_srv
for b in $(backends); do
	export HTTPERF_LOOP=$b
	hp --busy-poll --num-conns 5 --num-calls 10 --rate 100 \
	    --uri /size/100 --json "$T_DIR/bp.json"
	expect_rc 0
	expect_counts 5 50 50
	expect_errors 0 0 0 0 0 0 0 0 0
	expect "^httperf .* --busy-poll"
	[ "$(json_get "$T_DIR/bp.json" options.busy-poll)" = true ] ||
	    fail "$b: options.busy-poll is not true"
	validate_json "$T_DIR/bp.json"
	grep -q 'warning' "$OUT.err" && [ "$(id -u)" = 0 ] &&
	    fail "$b: a warning as root: $(cat "$OUT.err")"

	hp --busy-poll --num-conns 1 --uri /delay/2000/10
	expect_rc 0
	expect_counts 1 1 1
	c=$(cpu)
	awk -v c="$c" 'BEGIN { exit !(c >= 0.2) }' ||
	    fail "$b: --busy-poll: $c s of CPU over a 2 s wait (want >= 0.2)"
	hp --num-conns 1 --uri /delay/2000/10
	expect_rc 0
	expect_counts 1 1 1
	d=$(cpu)
	awk -v c="$d" 'BEGIN { exit !(c < 0.1) }' ||
	    fail "$b: $d s of CPU over a 2 s wait without --busy-poll (want < 0.1)"
	echo "$b: exact counts; CPU over a 2 s wait: $c s busy-polling, $d s not"
done
unset HTTPERF_LOOP

stop_srv
ok "--busy-poll: never sleeps, on every backend"
