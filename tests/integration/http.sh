#!/bin/sh
# HTTP framing and connection semantics: chunked with trailers,
# close-delimited HTTP/1.0, status classes, no-body replies, interim 1xx,
# big headers, Connection: close, pipelined bursts.  Exact counts.
. "$TESTLIB"

for be in $(backends); do
	export HTTPERF_LOOP=$be
	start_srv

	hp --num-conns 4 --num-calls 3 --uri /chunked-trailer/1000/300
	expect_rc 0
	expect_counts 4 12 12
	expect_errors 0 0 0 0 0 0 0 0 0
	# Trailers: two lines of 16 bytes + CRLF each, and the final CRLF.
	expect '^Reply size \[B\]: header [0-9.]+ content 1000\.0 footer 38\.0 '
	ok "$be: chunked with trailers, keep-alive"

	hp --num-conns 3 --num-calls 1 --uri /chunked/5000/7
	expect_counts 3 3 3
	expect '^Reply size \[B\]: header [0-9.]+ content 5000\.0 footer 2\.0 '
	expect_errors 0 0 0 0 0 0 0 0 0
	ok "$be: chunked, small chunks"

	# HTTP/1.0 body that ends at EOF; a second call must not be sent.
	hp --num-conns 3 --num-calls 2 --uri /http10/777
	expect_counts 3 3 3
	expect '^Reply size \[B\]: header [0-9.]+ content 777\.0 '
	expect_errors 0 0 0 0 0 0 0 0 0
	ok "$be: close-delimited HTTP/1.0"

	# Connection: close is honoured: the later calls are not sent.
	: > "$T_DIR/srv.log"
	hp --num-conns 5 --num-calls 4 --uri /close/10
	expect_counts 5 5 5
	expect_errors 0 0 0 0 0 0 0 0 0
	wait_for_log 5
	[ "$(srv_requests)" = 5 ] || fail "server saw $(srv_requests) requests"
	ok "$be: Connection: close honoured"

	# ... and pipelined calls already sent count as connreset.
	hp --num-conns 2 --num-calls 4 --burst-length 4 --uri /close/10
	expect_counts 2 8 2
	expect_errors 2 0 0 0 2 0 0 0 0
	ok "$be: pipelined calls after Connection: close are connreset"

	for s in 200:0:1:0:0:0 204:0:1:0:0:0 301:0:0:1:0:0 304:0:0:1:0:0 404:0:0:0:1:0 503:0:0:0:0:1; do
		code=${s%%:*}
		set -- $(echo "${s#*:}" | tr ':' ' ')
		hp --num-conns 2 --num-calls 2 --uri "/status/$code"
		expect_counts 2 4 4
		expect_status $(($1 * 4)) $(($2 * 4)) $(($3 * 4)) $(($4 * 4)) $(($5 * 4))
		expect_errors 0 0 0 0 0 0 0 0 0
	done
	ok "$be: status classes, 204/304 without body"

	hp --num-conns 2 --num-calls 2 --uri /size/100 --method HEAD
	expect_counts 2 4 4
	expect '^Reply size \[B\]: header [0-9.]+ content 0\.0 '
	expect_errors 0 0 0 0 0 0 0 0 0
	ok "$be: HEAD has no body"

	hp --num-conns 2 --num-calls 3 --uri /continue/50
	expect_counts 2 6 6
	expect_status 0 6 0 0 0
	expect '^Reply size \[B\]: header [0-9.]+ content 50\.0 '
	expect_errors 0 0 0 0 0 0 0 0 0
	hp --num-conns 2 --num-calls 3 --uri /early/40
	expect_counts 2 6 6
	expect_status 0 6 0 0 0
	ok "$be: interim 100 and 103 skipped"

	hp --num-conns 2 --num-calls 2 --uri /bighdr/2000/100
	expect_counts 2 4 4
	expect_errors 0 0 0 0 0 0 0 0 0
	hdr=$(value 'Reply size' header)
	[ "${hdr%.*}" -gt 200000 ] || fail "header size $hdr"
	hp --num-conns 1 --num-calls 2 --uri /bighdr/4/200000
	expect_counts 1 2 2
	expect_errors 0 0 0 0 0 0 0 0 0
	ok "$be: thousands of headers, 200 KB header lines"

	# Pipelining: 10 calls in bursts of 4 (the last burst is 2).
	: > "$T_DIR/srv.log"
	hp --num-conns 3 --num-calls 10 --burst-length 4 --uri /size/20
	expect_rc 0
	expect_counts 3 30 30
	expect_errors 0 0 0 0 0 0 0 0 0
	wait_for_log 30
	[ "$(srv_requests)" = 30 ] || fail "server saw $(srv_requests) requests"
	ok "$be: pipelined bursts, num-calls not a multiple of burst-length"

	# HTTP/1.0 requests ask for keep-alive; the fixture grants it.
	hp --num-conns 3 --num-calls 2 --http-version 1.0 --uri /size/10
	expect_counts 3 6 6
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Connection length \[replies/conn\]: 2\.000$'
	ok "$be: HTTP/1.0 keep-alive requests"
	stop_srv
done
