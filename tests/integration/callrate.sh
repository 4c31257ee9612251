#!/bin/sh
# --call-rate R --max-connections C: requests on an open-loop schedule over
# a pool of keep-alive connections.  Exact counts (ours and the fixture's),
# the pool's cap and its default, reuse, the URI and request options, the
# ends of a run (--num-calls, --runtime, --wlog n), a server that refuses
# or closes connections, the options refused; then the freeze test: the
# whole server stops for 500 ms in a run at 1,000 req/s over 10
# connections, and the latency from the intended start (corrected) shows
# it while the one from the send does not; against a steady server both
# agree within the histogram's precision.
. "$TESTLIB"

# pct LABEL P: percentile P (p50, p99, ...) of the line "LABEL percentiles".
pct() {
	grep -F "$1 percentiles [ms]: " "$OUT" | head -n 1 | awk -v f="$2" \
	    '{ for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
}

# 200 requests at 200/s, each held 50 ms: 10 would be under way at once,
# the pool has 4, so the queue grows and exactly 4 connections carry all.
start_srv
hp --call-rate 200 --num-calls 200 --max-connections 4 --uri /delay/50/1 \
    --timeout 10
expect_rc 0
expect_classic
expect '^httperf .* --max-connections=4 --call-rate=200 (.* )?--num-calls=200$'
expect_not ' --num-conns'
expect_counts 4 200 200
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
expect_status 0 200 0 0 0
expect '^Connection length \[replies/conn\]: 50\.000$'
# Each request is one arrival of the schedule, counted once: the queue's
# wait is the server's doing, not lateness (the corrected reply time
# shows it), so the target is kept and nothing is never sent.
expect '^Reply time \(corrected\) percentiles \[ms\]: p50 '
expect '^Lateness percentiles \[ms\]: p50 '
expect '^Arrivals: 200 scheduled, [0-9]+ late over 1 ms \([0-9.]+%\), 0 never sent; rate target 200\.0/s, scheduled 200\.0/s, achieved [0-9.]+/s$'
stop_srv
[ "$(srv_stat connections)" = 4 ] || \
    fail "the server saw $(srv_stat connections) connections"
[ "$(srv_stat requests)" = 200 ] || \
    fail "the server saw $(srv_stat requests) requests"
[ "$(srv_stat responses)" = 200 ] || \
    fail "the server sent $(srv_stat responses) replies"
[ "$(srv_stat max_concurrent)" -le 4 ] || \
    fail "the server saw $(srv_stat max_concurrent) connections at once"
ok "200 requests, 200 replies, 4 connections (the cap)"

# The default pool is 100 connections.
start_srv
hp --call-rate 1000 --num-calls 500 --uri /delay/300/1 --timeout 10
expect_rc 0
expect_counts 100 500 500
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
stop_srv
[ "$(srv_stat connections)" = 100 ] || \
    fail "the server saw $(srv_stat connections) connections"
ok "--max-connections defaults to 100"

# Slow arrivals, quick replies: one connection carries every request.
start_srv
hp --call-rate 20 --num-calls 20 --max-connections 8
expect_rc 0
expect_counts 1 20 20
expect_calls_ended
expect '^Connection length \[replies/conn\]: 20\.000$'
stop_srv
ok "an idle connection is reused"

# --wlog's URIs in order, with --method and --body; --add-header.
printf '/size/1\n/size/2\n/size/3\n' > "$T_DIR/uris"
printf 'abc' > "$T_DIR/body"
want=$("$TESTSRV" -H "$T_DIR/body")
start_srv
hp --call-rate 100 --num-calls 6 --wlog "y,$T_DIR/uris" --method POST \
    --body abc
expect_rc 0
expect_counts 1 6 6
expect_calls_ended
wait_for_log 6
got=$(awk '$2 != "PEER" { printf "%s %s %s %s;", $2, $3, $4, $5 }' \
    "$T_DIR/srv.log")
w="POST /size/1 3 b=$want;POST /size/2 3 b=$want;POST /size/3 3 b=$want;"
[ "$got" = "$w$w" ] || fail "requests: $got"
hp --call-rate 100 --num-calls 1 --uri /echo --add-header 'X-Test: a\n'
expect_rc 0
len=$(printf 'GET /echo HTTP/1.1\r\nUser-Agent: httperf/%s\r\nHost: 127.0.0.1:%s\r\nX-Test: a\r\n\r\n' \
    "$("$HP" --version | sed -n 's/.*httperf-\([0-9.]*\).*/\1/p')" "$PORT" | wc -c)
expect "^Reply size \[B\]: header [0-9.]+ content $len\.0 "
ok "--wlog, --method, --body and --add-header apply"

# --wlog n: the run ends when the list does, before --num-calls.
printf '/size/1\n/size/2\n/size/3\n/size/4\n/size/5\n' > "$T_DIR/five"
hp --call-rate 100 --num-calls 100 --wlog "n,$T_DIR/five"
expect_rc 0
expect_counts 1 5 5
expect_calls_ended
ok "--wlog n ends the run"

# arrivals: prints "SCHEDULED NEVER_SENT" from the Arrivals line.
arrivals() {
	sed -n 's/^Arrivals: \([0-9]*\) scheduled, .*, \([0-9]*\) never sent;.*/\1 \2/p' "$OUT"
}

# --runtime without --num-calls: the run is [0, 2 s), so at 1000/s
# exactly 2000 requests are scheduled (the one meant for 2 s is not:
# "requests 2001" before), each sent or never sent (one still connecting
# at the end, on a loaded machine).  Then it ends although 4 of every 5
# requests wait (one connection, 200 ms each).
hp --call-rate 1000 --runtime 2
expect_rc 0
set -- $(arrivals)
[ $# = 2 ] || fail "no Arrivals line"
[ "$1" = 2000 ] || fail "$1 requests scheduled in 2 s at 1000/s"
n=$(value "Total:" requests)
[ $((n + $2)) = 2000 ] || fail "$n sent + $2 never sent is not 2000"
[ "$2" -le 10 ] || fail "$2 never sent"
hp --call-rate 100 --runtime 1 --max-connections 1 --uri /delay/200/1
expect_rc 0
n=$(value "Total:" requests)
[ "$n" -ge 1 ] && [ "$n" -le 6 ] || fail "$n requests over one connection"
d=$(value "Total:" test-duration)
awk -v d="$d" 'BEGIN { exit !(d >= 0.9 && d < 1.5) }' || \
    fail "the run lasted $d s"
ok "--runtime ends it, queued requests or not"

# --period v: its mean rate is weighted by the durations, 1000/s for 1 s
# then 2000/s for 3 s is 1,750/s (not 1,333/s, the plain mean of the
# intervals): the matching --call-rate is taken, with it as the target,
# and the unweighted one refused.
hp --call-rate 1750 --period v0.001,1,0.0005,3 --num-calls 20
expect_rc 0
expect '^Arrivals: 20 scheduled, .* rate target 1750\.0/s, '
hp --call-rate 1333 --period v0.001,1,0.0005,3 --num-calls 20
expect_rc 1
grep -q 'mean rate 1750/s differs from --call-rate 1333' "$OUT.err" ||
    fail "--call-rate 1333: $(cat "$OUT.err")"
ok "--period v's mean rate is weighted by the durations: 1750/s"

# --runtime ends a run with requests queued behind a frozen server: the
# 30th request (0.29 s) stops it for 900 ms, past the end at 1 s.  The
# two connections are taken (the freeze, and the request sent after it);
# every later request waits in the queue and is never sent.  Each counts
# once: scheduled = sent + never sent.  The client kept its schedule, so
# no bottleneck warning: the server was the bottleneck.
i=1
while [ $i -le 300 ]; do
	if [ $i = 30 ]; then echo /freeze/900; else echo /; fi
	i=$((i + 1))
done > "$T_DIR/freeze1"
hp --call-rate 100 --runtime 1 --max-connections 2 --wlog "n,$T_DIR/freeze1"
expect_rc 0
set -- $(arrivals)
[ $# = 2 ] || fail "no Arrivals line"
sent=$(value "Total:" requests)
[ "$1" = $((sent + $2)) ] || fail "scheduled $1 is not $sent sent + $2 never sent"
[ "$1" = 100 ] || fail "$1 scheduled in 1 s at 100/s"
[ "$sent" -ge 30 ] && [ "$sent" -le 32 ] || fail "$sent sent, 31 expected"
# The 70 never sent were taken in on time: no rate reason (nor any
# warning unless this client was itself late or busy, which a loaded
# machine can make it, and which is then measured).
expect_not 'achieved arrival rate'
ok "--runtime with requests queued behind a freeze: $2 never sent, counted once, no rate warning"

# A server that closes the connection after each reply: a new one each
# time, nothing lost.
hp --call-rate 100 --num-calls 20 --uri /close/10
expect_rc 0
expect_counts 20 20 20
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
ok "connections closed by the server leave the pool"

# Requests that time out (the server never answers): each connection is
# closed by the client and replaced, the replacement opened only once the
# old socket is closed, so never more than --max-connections at once
# (the replacement came first: "<=9 concurrent" with 8, "<=21" with 20).
for m in 8 20; do
	hp --call-rate 400 --num-calls 200 --max-connections $m --uri /hang \
	    --timeout 0.05
	expect_rc 0
	expect_counts 200 200 0
	expect_errors 200 200 0 0 0 0 0 0 0
	expect "^Connection rate: .* <=$m concurrent connections\)\$"
done
stop_srv
ok "a connection is replaced after its socket is closed: <=8, <=20 concurrent"

# No server: one connection attempt per request, and the run ends.
hp --call-rate 100 --num-calls 20 --max-connections 4
expect_rc 0
expect_counts 20 0 0
expect_calls_ended
expect_errors 20 0 0 20 0 0 0 0 0
ok "refused connections: one attempt per request"

# The schedule falls far behind: 10,000,000 requests a second, and all
# but the few file descriptors of a low limit fail at creation.  Each
# loop turn takes in a bounded number of requests, so --runtime and the
# signals are looked at every few ms: the run ends on time (it took 80 s
# for a 2 s run), and the requests it never reached count as never sent,
# all at once: exactly 2 s * 1e7 scheduled, each sent or never sent.
# timeout bounds the failing case; with the file descriptors gone, the
# server's answers are not the point.
start_srv
hp_fds 64 --call-rate 1e7 --runtime 2 --max-connections 1000000
expect_rc 0
expect_ms 3500
set -- $(arrivals)
[ $# = 2 ] || fail "no Arrivals line"
[ "$1" = 20000000 ] || fail "$1 scheduled in 2 s at 1e7/s"
sent=$(value "Total:" requests)
[ "$1" = $((sent + $2)) ] || fail "scheduled $1 is not $sent sent + $2 never sent"
n=$(value "Errors: fd-unavail" fd-unavail)
[ "$n" -gt 0 ] || fail "no fd-unavail errors: the limit did not bite"
ok "1e7/s with the fds gone: over in $HP_MS ms, $1 scheduled, $2 never sent"

# The same stopped by SIGINT at 1 s (--runtime 30): the report comes
# within a second of the signal, counts consistent.  The watchdog bounds
# the failing case.
(ulimit -n 64 && exec "$HP" --server 127.0.0.1 --port "$PORT" \
    --call-rate 1e7 --runtime 30 --max-connections 1000000) \
    > "$OUT" 2> "$OUT.err" &
pid=$!
( sleep 60; kill -9 $pid 2>/dev/null ) &
wd=$!
sleep 1
t0=$(date +%s%N)
kill -INT $pid
wait $pid
RC=$?
t1=$(date +%s%N)
kill $wd 2>/dev/null
T_LAST="httperf --call-rate 1e7 --runtime 30 --max-connections 1000000 (ulimit -n 64, SIGINT at 1 s)"
expect_rc 0
ms=$(( (t1 - t0) / 1000000 ))
if [ -n "${HTTPERF_VALGRIND:-}" ]; then
	t_skip "SIGINT: times under valgrind say nothing"
else
	[ $ms -le 1500 ] || fail "the report came $ms ms after SIGINT"
fi
set -- $(arrivals)
[ $# = 2 ] || fail "no Arrivals line"
sent=$(value "Total:" requests)
[ "$1" = $((sent + $2)) ] || fail "scheduled $1 is not $sent sent + $2 never sent"
d=$(value "Total:" test-duration)
# Scheduled: the schedule's own count up to the signal, 1e7/s, less
# what it had not yet taken in when the signal came (a loaded machine, a
# sanitizer build: up to a quarter of a second behind).
awk -v n="$1" -v d="$d" 'BEGIN { exit !(n >= (d - 0.25) * 1e7 &&
    n <= d * 1e7 + 1) }' || fail "$1 scheduled in $d s at 1e7/s"
stop_srv
ok "SIGINT ends it within $ms ms: $1 scheduled, $2 never sent"

# Combinations that make no sense: one line, exit 1.
for args in "--rate 10" "--num-conns 5 --num-calls 5" "--wsess 1,1,0" \
    "--wsesslog 1,0,$T_DIR/uris" "--burst-length 2 --num-calls 5" "" \
    "--num-calls 5 --period e1"; do
	# shellcheck disable=SC2086
	timeout 10 "$HP" --call-rate 10 $args > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf --call-rate 10 $args"
	expect_rc 1
	[ "$(wc -l < "$OUT.err")" = 1 ] || fail "not one line on stderr"
	[ ! -s "$OUT" ] || fail "a report was printed"
done
ok "--call-rate with --rate, --num-conns, sessions, ... is refused"

# The freeze: 3 s at 1,000 req/s over 10 connections, the 1,500th request
# stops the whole server for 500 ms.  About 500 requests wait for it,
# most of them in the queue, never sent until it thaws: from their
# intended start they took up to 500 ms, a sixth of the run, so the
# corrected p99 is in the hundreds of ms.  From the send, only the few
# in flight on the 10 connections (0.4%) saw it: p99 stays small.
i=1
while [ $i -le 3000 ]; do
	if [ $i = 1500 ]; then echo /freeze/500; else echo /; fi
	i=$((i + 1))
done > "$T_DIR/freeze"
start_srv
hp --call-rate 1000 --num-calls 3000 --max-connections 10 \
    --wlog "n,$T_DIR/freeze" --timeout 10
expect_rc 0
expect_counts 10 3000 3000
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Arrivals: 3000 scheduled, [0-9]+ late over 1 ms \([0-9.]+%\), 0 never sent; rate target 1000\.0/s, '
# The requests waited for the server, not for this client: its rate was
# kept, so the warning's rate reason cannot fire.  (Its late reason can:
# on a loaded machine this client at 1000/s is itself late now and then,
# and that is measured, not the freeze.)
expect_not 'achieved arrival rate'
stop_srv
[ "$(srv_stat connections)" = 10 ] || \
    fail "the server saw $(srv_stat connections) connections"
if [ -n "${HTTPERF_VALGRIND:-}" ]; then
	t_skip "freeze: times under valgrind say nothing"
elif grep -q '^Reply time (corrected) percentiles' "$OUT"; then
	raw=$(pct "Reply time" p99)
	cor=$(pct "Reply time (corrected)" p99)
	awk -v r="$raw" -v c="$cor" 'BEGIN { exit !(c >= 200 && c <= 600 &&
	    r < 100) }' || fail "freeze: p99 $raw ms, corrected $cor ms"
	ok "freeze: corrected p99 $cor ms, from the send $raw ms"
else
	fail "no corrected reply time line"
fi

# A steady server (20 ms a reply) and a pool far larger than the 4 that
# are busy at once: nothing waits, so both agree within the precision,
# 0.1% + 0.3 ms, at p50 and p90.  The 1% tail also holds the moments this
# client was itself descheduled (a shared machine): the corrected p99
# rightly counts them, so there the bound is 0.1% + 3 ms.  When the
# client itself was late (a loaded machine, a sanitizer build), the
# corrected times include that too: the bounds widen by the largest
# lateness the run measured, which is 0 on an idle machine's scale.
start_srv
hp --call-rate 200 --num-calls 400 --max-connections 50 --uri /delay/20/10 \
    --timeout 10
expect_rc 0
expect '^Total: connections [0-9]+ requests 400 replies 400 '
stop_srv
if [ -n "${HTTPERF_VALGRIND:-}" ]; then
	t_skip "steady: times under valgrind say nothing"
elif grep -q '^Reply time (corrected) percentiles' "$OUT"; then
	late=$(pct "Lateness" max)
	[ -n "$late" ] || fail "no Lateness line"
	for p in p50:0.3 p90:0.3 p99:3; do
		raw=$(pct "Reply time" ${p%:*})
		cor=$(pct "Reply time (corrected)" ${p%:*})
		awk -v r="$raw" -v c="$cor" -v e="${p#*:}" -v l="$late" 'BEGIN {
		    d = c - r
		    exit !(r >= 19.9 && d >= 0 && d <= r * 0.001 + e + l)
		}' || fail "steady: ${p%:*} $raw ms, corrected $cor ms (lateness max $late ms)"
	done
	ok "steady: corrected and measured agree (lateness max $late ms)"
else
	fail "no corrected reply time line"
fi

# The client stalled across the end (--runtime 1, stopped from about
# 0.5 s to 1.4 s): on waking it takes in, late, the requests due before
# 1 s and none meant for then or after it, so at most 100 are scheduled
# (0 to 1 s at 100/s), each counted once (sent + never sent), and none of
# those due after the end opens a connection.
start_srv
"$HP" --server 127.0.0.1 --port "$PORT" --call-rate 100 --runtime 1 \
    > "$OUT" 2> "$OUT.err" &
pid=$!
sleep 0.5
kill -STOP $pid
sleep 0.9
kill -CONT $pid
( sleep 20; kill -9 $pid 2>/dev/null ) &
wd=$!
wait $pid
RC=$?
kill $wd 2>/dev/null
T_LAST="httperf --call-rate 100 --runtime 1 (stopped across the end)"
expect_rc 0
set -- $(arrivals)
[ $# = 2 ] || fail "no Arrivals line"
sent=$(value "Total:" requests)
[ "$1" = $((sent + $2)) ] || fail "scheduled $1 is not $sent sent + $2 never sent"
[ "$1" -le 100 ] || fail "$1 scheduled: requests meant for the end or after it were taken in"
[ "$1" -ge 60 ] || fail "only $1 scheduled"
[ "$sent" -ge 30 ] || fail "only $sent sent before the stall"
ok "a client stalled across the end takes in nothing meant for after it ($1 scheduled, $2 never sent)"

# HTTP/2: the pool carries up to --max-streams requests at once on each
# connection, its capacity connections x streams (it sent one a
# connection: "max concurrent 1", and most requests were never sent).
# nginx speaks h2c in front of the fixture, whose /delay/200/1 holds each
# reply 200 ms: at 200/s, 40 are under way at once.
if ! h2_built; then
	t_skip "httperf was built without libnghttp2"
	exit 0
fi
nginx_need openssl
free_ports 2
set -- $PORTS
P_H2C=$1 P_TLS11=$2
start_srv
N=$T_DIR/nginx
nginx_cert "$N"
nginx_start "$N" '$status' --server 127.0.0.1 --port "$P_H2C" --http2 \
    --uri /size/1 <<CONF
	ssl_certificate $N/cert.pem;
	ssl_certificate_key $N/key.pem;
	server {
		listen 127.0.0.1:$P_H2C http2;
		listen 127.0.0.1:$P_TLS11 ssl;
		location / {
			proxy_pass http://127.0.0.1:$PORT;
			proxy_http_version 1.1;
		}
	}
CONF
# h2 PREFIX OPTIONS...: 100 requests at 200/s, 200 ms each, over h2c;
# all sent and answered on the expected connections, PREFIX the HTTP/2
# line up to its max concurrent streams, which it sets MC to.
h2() {
	h2_pfx=$1
	shift
	PORT=$P_H2C hp --http2 --call-rate 200 --num-calls 100 \
	    --uri /delay/200/1 --timeout 10 "$@"
	expect_rc 0
	expect_counts "[0-9]+" 100 100
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Arrivals: 100 scheduled, [0-9]+ late over 1 ms \([0-9.]+%\), 0 never sent;'
	expect "^HTTP/2: connections $h2_pfx"
	MC=$(sed -n 's/^HTTP\/2: .*, max concurrent \([0-9]*\)$/\1/p' "$OUT")
}
# One connection carries them all, 40 or so at once (nginx allows 128).
h2 '1 \(h2 0 h2c 1 http/1\.1 0\), streams 100, ' --max-connections 1
[ -n "$MC" ] && [ "$MC" -ge 20 ] && [ "$MC" -le 100 ] ||
    fail "one connection: max concurrent '$MC' streams"
ok "h2c, one connection: 100 sent, $MC streams at once"
# --max-streams 5 over 4 connections: 20 at once, the rest wait in the
# queue, all sent in the end.
h2 '4 \(h2 0 h2c 4 http/1\.1 0\), streams 100, ' --max-connections 4 \
    --max-streams 5
[ "$MC" = 5 ] || fail "--max-streams 5: max concurrent '$MC' streams"
ok "h2c, --max-streams 5 over 4 connections: 5 streams at once on each"
# --http2-fallback to HTTP/1.1 (ALPN over TLS does not select h2): one
# request at a time on each connection again, the pool as many as it
# needs (40 or so), all sent.
PORT=$P_TLS11 hp --http2 --http2-fallback --ssl --call-rate 200 \
    --num-calls 100 --uri /delay/200/1 --timeout 10
expect_rc 0
expect_counts "[0-9]+" 100 100
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Arrivals: 100 scheduled, [0-9]+ late over 1 ms \([0-9.]+%\), 0 never sent;'
n=$(value "Total:" connections)
[ "$n" -ge 30 ] && [ "$n" -le 100 ] || fail "$n connections for 40 at once"
ok "--http2-fallback: HTTP/1.1 connections, one request at a time, $n of them"
