#!/bin/sh
# Closes the server announced in advance (RFC 9112 9.6 Connection: close,
# RFC 9113 6.8 GOAWAY): the requests behind them were not processed, and
# a session sends them again.  Answered then, they are no errors (the
# "Announced closes" line counts them as retried); left unanswered, or
# outside sessions where nothing sends them again, they keep their class
# (connreset, refused-stream) and that line says how many of the errors
# the server had announced.
. "$TESTLIB"

# expect_sessions COMPLETED INITIATED
expect_sessions() {
	expect "^Session rate \[sess/s\]: min [0-9.]+ avg [0-9.]+ max [0-9.]+ stddev [0-9.]+ \($1/$2\)\$"
}

# expect_announced ERRORS CLOSE GOAWAY RETRIED
expect_announced() {
	expect "^Announced closes: errors $1 \(Connection: close $2 GOAWAY $3\), requests retried $4\$"
}

# The fixture closes after the 2nd reply of every connection.
start_srv -K 2
for be in $(backends); do
	export HTTPERF_LOOP=$be
	# Each session: its first call alone, then 5 pipelined on the same
	# connection; the 2nd reply closes it, the 4 requests behind are
	# unprocessed and go out again, one a connection (4 more).
	hp --wsess 5,6,0 --burst-length 6 --rate 50 --uri /size/10 \
	    --json "$T_DIR/s.json"
	expect_rc 0
	expect_classic
	expect_counts 25 50 30
	expect_status 0 30 0 0 0
	expect_sessions 5 5
	expect_errors 0 0 0 0 0 0 0 0 0
	expect_announced 0 0 0 20
	[ "$(json_get "$T_DIR/s.json" stats.basic.announced.retried)" = 20 ] ||
	    fail "JSON: $(json_get "$T_DIR/s.json" stats.basic.announced)"
	[ "$(json_get "$T_DIR/s.json" stats.basic.announced.connection_close)" = 0 ] ||
	    fail "JSON: $(json_get "$T_DIR/s.json" stats.basic.announced)"
	validate_json "$T_DIR/s.json"
	ok "$be: --wsess: pipelined calls behind Connection: close resent, no error"
done
