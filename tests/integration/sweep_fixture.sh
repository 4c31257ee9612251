#!/bin/sh
# The fixture's one-worker mode (testsrv -W MS), which the sweep tests
# search: each request takes MS ms of service, one at a time in arrival
# order, so the capacity is exactly 1000/MS requests/s.  With -W 5
# (200/s): 200 requests offered at 1000/s cannot end before 200 * 5 ms =
# 1 s of service after the first, and queue (the mean reply time is
# about 400 ms: request i waits 4i + 5 ms); 100 requests at 50/s, below
# capacity, each see about the 5 ms of service, never less.
. "$TESTLIB"

start_srv -W 5
for be in $(backends); do
	export HTTPERF_LOOP=$be
	hp --num-conns 200 --rate 1000 --timeout 10
	expect_rc 0
	expect_counts 200 200 200
	expect_errors 0 0 0 0 0 0 0 0 0
	d=$(value Total test-duration)
	awk -v d="$d" 'BEGIN { exit !(d >= 0.995 && d <= 3) }' ||
	    fail "$be: 200 requests of 5 ms took $d s, expected 1 s to 3 s"
	r=$(value "Reply time" response)
	awk -v r="$r" 'BEGIN { exit !(r >= 200 && r <= 1000) }' ||
	    fail "$be: the mean reply time is $r ms above capacity," \
	    "expected about 400 ms"

	hp --num-conns 100 --rate 50 --timeout 10
	expect_rc 0
	expect_counts 100 100 100
	expect_errors 0 0 0 0 0 0 0 0 0
	r=$(value "Reply time" response)
	awk -v r="$r" 'BEGIN { exit !(r >= 5 && r <= 15) }' ||
	    fail "$be: the mean reply time is $r ms below capacity," \
	    "expected 5 ms to 15 ms"
done
stop_srv
ok "one worker of 5 ms: 1000/5 requests/s, queued above, 5 ms below"
