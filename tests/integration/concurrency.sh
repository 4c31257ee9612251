#!/bin/sh
# 3,000 connections open at once (far past 0.9.0's 1,024 ceiling) with
# zero errors: every connection waits 3 s for its reply, and all of them
# are created within about a second.
. "$TESTLIB"

N=3000
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt $((N * 2 + 100)) ]; then
	# root may raise the hard limit.
	ulimit -Hn $((N * 2 + 100)) 2>/dev/null && hard=$((N * 2 + 100)) ||
	    skip "hard open-file limit $hard is below $((N * 2 + 100))"
fi
ulimit -n "$hard" 2>/dev/null

for be in $(backends); do
	export HTTPERF_LOOP=$be
	start_srv
	hp --num-conns $N --rate 4000 --uri /delay/3000/100 --timeout 20
	expect_rc 0
	expect_counts $N $N $N
	expect_errors 0 0 0 0 0 0 0 0 0
	conc=$(sed -n 's/.*<=\([0-9]*\) concurrent.*/\1/p' "$OUT")
	[ "$conc" -ge $N ] || fail "only $conc concurrent connections"
	stop_srv
	[ "$(srv_stat max_concurrent)" -ge $N ] || \
	    fail "server saw at most $(srv_stat max_concurrent) at once"
	ok "$be: $N concurrent connections, no errors"
done
