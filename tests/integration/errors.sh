#!/bin/sh
# Failures are measurements: refused connects, resets, replies cut short,
# garbage, statuses out of range, hung servers and slow drips each land in
# their error class, the run ends by itself with exit 0 and a full report,
# and the good replies around them still count.  A run with no replies, or
# with more than 10% of its calls failed, ends with one warning line after
# the whole report naming the main error class (the exit status stays 0).
. "$TESTLIB"

# last_line REGEX: the report's last line matches.
last_line() {
	tail -n 1 "$OUT" | grep -Eq -- "$1" ||
	    fail "the last line does not match: $1"
}

# A port nobody listens on: bind one, note it, close it.
free_port() {
	start_srv
	p=$PORT
	stop_srv
	PORT=$p
}

for be in $(backends); do
	export HTTPERF_LOOP=$be

	free_port
	hp --num-conns 5 --rate 100
	expect_rc 0
	expect_classic
	expect_counts 5 0 0
	expect_errors 5 0 0 5 0 0 0 0 0
	expect '^Connection time \[ms\]: connect 0\.0$'
	ok "$be: refused connects are connrefused, never connected"
	last_line '^Warning: no replies \(5 errors, 0 replies\); most errors: connrefused \(5\)$'
	[ "$(grep -c '^Warning: no replies' "$OUT")" = 1 ] ||
	    fail "not one warning of no replies"
	ok "$be: no replies: a warning after the report, exit 0"

	start_srv
	hp --num-conns 4 --uri /reset
	expect_rc 0
	expect_counts 4 4 0
	expect_errors 4 0 0 0 4 0 0 0 0
	ok "$be: reset before the reply"

	# 3 calls of 5 fail: 60%, a warning; 1 of 10 is 10%: none.
	printf '/reset\n/size/10\n/reset\n/size/10\n/reset\n' > "$T_DIR/mix.log"
	hp --num-conns 5 --wlog "n,$T_DIR/mix.log"
	expect_rc 0
	expect_classic
	expect_counts 5 5 2
	expect_errors 3 0 0 0 3 0 0 0 0
	last_line '^Warning: 60\.0% of calls failed \(3 errors, 2 replies\); most errors: connreset \(3\)$'
	printf '/size/10\n/size/10\n/size/10\n/reset\n' > "$T_DIR/few.log"
	printf '/size/10\n/size/10\n/size/10\n' >> "$T_DIR/few.log"
	printf '/size/10\n/size/10\n/size/10\n' >> "$T_DIR/few.log"
	hp --num-conns 10 --wlog "n,$T_DIR/few.log"
	expect_rc 0
	expect_counts 10 10 9
	expect_errors 1 0 0 0 1 0 0 0 0
	expect_not '^Warning: (no replies|[0-9.]+% of calls failed)'
	ok "$be: more than 10% of calls failed: a warning; 10%: none"

	hp --num-conns 3 --uri /reset-body/1000
	expect_counts 3 3 0
	expect_errors 3 0 0 0 3 0 0 0 0
	hp --num-conns 3 --uri /short/1000/10
	expect_counts 3 3 0
	expect_errors 3 0 0 0 3 0 0 0 0
	ok "$be: replies cut short are connreset, never good"

	hp --num-conns 3 --uri /garbage
	expect_counts 3 3 0
	expect_errors 3 0 0 0 0 0 0 0 3
	for code in 0 99 600 999; do
		hp --num-conns 2 --uri "/status/$code"
		expect_rc 0
		expect_counts 2 2 0
		expect_errors 2 0 0 0 0 0 0 0 2
	done
	ok "$be: garbage and statuses outside 100-599 are other"

	# A hung server: --timeout ends each connection as client-timo.
	hp --num-conns 3 --rate 50 --uri /hang --timeout 0.3
	expect_rc 0
	expect_counts 3 3 0
	expect_errors 3 3 0 0 0 0 0 0 0
	last_line '^Warning: no replies \(3 errors, 0 replies\); most errors: client-timo \(3\)$'
	ok "$be: no reply: client-timo"

	# --timeout is an inactivity timeout: a drip of a byte every 100 ms
	# lasting 1 s passes with --timeout 0.5; one every 700 ms does not.
	hp --num-conns 1 --uri /drip/10/100 --timeout 0.5
	expect_counts 1 1 1
	expect_errors 0 0 0 0 0 0 0 0 0
	hp --num-conns 1 --uri /drip/10/700 --timeout 0.5
	expect_counts 1 1 0
	expect_errors 1 1 0 0 0 0 0 0 0
	ok "$be: --timeout counts inactivity, not the total time"

	# --think-timeout extends the wait for the first byte only.
	hp --num-conns 1 --uri /delay/600/10 --timeout 0.3 --think-timeout 0.6
	expect_counts 1 1 1
	expect_errors 0 0 0 0 0 0 0 0 0
	hp --num-conns 1 --uri /delay/600/10 --timeout 0.3
	expect_errors 1 1 0 0 0 0 0 0 0
	ok "$be: --think-timeout"

	# Good replies around the bad ones are still counted.
	hp --num-conns 6 --num-calls 3 --uri /size/10
	expect_counts 6 18 18
	expect_not '^Warning: (no replies|[0-9.]+% of calls failed)'
	stop_srv
	ok "$be: good replies still counted"
done

# --merge of a run that had no replies ends with the same warning.
free_port
hp --num-conns 2 --json "$T_DIR/refused.json"
expect_rc 0
last_line '^Warning: no replies \(2 errors, 0 replies\); most errors: connrefused \(2\)$'
timeout 60 "$HP" --merge "$T_DIR/refused.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 0
last_line '^Warning: no replies \(2 errors, 0 replies\); most errors: connrefused \(2\)$'
ok "--merge: the warning of a run with no replies"
