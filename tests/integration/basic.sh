#!/bin/sh
# Keep-alive connections, --num-calls, --rate, the report layout and the
# start-up echo: exact counts, checked against what the fixture saw.
. "$TESTLIB"

for be in $(backends); do
	export HTTPERF_LOOP=$be
	start_srv
	hp --num-conns 20 --num-calls 5 --rate 400 --uri /size/1000
	expect_rc 0
	expect_classic
	expect_counts 20 100 100
	expect_calls_ended
	expect_status 0 100 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Connection length \[replies/conn\]: 5\.000$'
	expect '^Reply size \[B\]: header [0-9]+\.0 content 1000\.0 footer 0\.0 '
	expect "^httperf --client=0/1 --server=127.0.0.1 --port=$PORT --uri=/size/1000 --rate=400 --num-conns=20 --num-calls=5\$"
	# One percentile line per phase, in this order, after the classic
	# report; no TLS or session line without --ssl or sessions; with a
	# schedule (--rate) the corrected reply time and the lateness.
	P='percentiles \[ms\]: p50 [0-9]+\.[0-9]{3} p90 [0-9]+\.[0-9]{3} p99 [0-9]+\.[0-9]{3} p99\.9 [0-9]+\.[0-9]{3} p99\.99 [0-9]+\.[0-9]{3} max [0-9]+\.[0-9]{3}$'
	[ "$(grep -E "^[A-Za-z ()]+ $P" "$OUT" | sed 's/ percentiles.*//' | tr '\n' ,)" = \
	    "Connection time,Connect time,First byte,Transfer time,Reply time,Reply time (corrected),Lateness," ] ||
	    fail "percentile lines: $(grep percentiles "$OUT")"
	[ "$(grep -c percentiles "$OUT")" = 7 ] || fail "extra percentile lines"
	stop_srv
	[ "$(srv_stat connections)" = 20 ] || fail "server saw $(srv_stat connections) connections"
	[ "$(srv_stat requests)" = 100 ] || fail "server saw $(srv_stat requests) requests"
	[ "$(srv_stat responses)" = 100 ] || fail "server sent $(srv_stat responses) responses"
	ok "$be: keep-alive, 20 x 5 calls at --rate 400"

	# Sequential (no --rate) with the default URI.
	start_srv
	hp --num-conns 7 --num-calls 3
	expect_rc 0
	expect_counts 7 21 21
	expect_calls_ended
	expect '^Reply size \[B\]: header [0-9.]+ content 6\.0 footer 0\.0 '
	expect '<=1 concurrent connections'
	expect '^Maximum connect burst length: 1$'
	stop_srv
	ok "$be: sequential connections"

	# A request's size is what went on the wire: check it byte for byte.
	start_srv
	hp --num-conns 1 --uri /echo --add-header 'X-Test: a\nX-Other: \101\n'
	expect_rc 0
	expect_counts 1 1 1
	expect_calls_ended
	want="GET /echo HTTP/1.1\r\nUser-Agent: httperf/[0-9.]+\r\nHost: 127.0.0.1:$PORT\r\nX-Test: a\r\nX-Other: A\r\n\r\n"
	len=$(printf 'GET /echo HTTP/1.1\r\nUser-Agent: httperf/%s\r\nHost: 127.0.0.1:%s\r\nX-Test: a\r\nX-Other: A\r\n\r\n' \
	    "$("$HP" --version | sed -n 's/.*httperf-\([0-9.]*\).*/\1/p')" "$PORT" | wc -c)
	expect "^Request size \[B\]: $len\.0\$"
	expect "^Reply size \[B\]: header [0-9.]+ content $len\.0 "
	stop_srv
	ok "$be: request bytes and --add-header escapes"
done

# The run ends by itself and exits 0; misuse exits 1 with one line.
timeout 10 "$HP" --num-conns 0 > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "--num-conns 0: not one line on stderr"
grep -q -- '--num-conns' "$OUT.err" || fail "--num-conns 0: message does not name the option"
ok "misuse exits 1"
