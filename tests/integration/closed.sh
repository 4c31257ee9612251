#!/bin/sh
# --concurrency N, the closed loop: N keep-alive connections, each
# sending its next call as soon as the last one ended.  Against the
# fixture: exactly N connections (ours and the server's), exact totals
# with --num-calls, a keep-alive limit (-C K, as nginx's
# keepalive_requests) makes it reconnect with the totals still exact,
# --runtime bounds it, the rate with a fixed service time is about N/D
# and the calls in flight (Little's law) about N, --burst-length
# pipelines in bursts, URIs from --wlog, the JSON member and its merge,
# a dead server, the options refused.  Against nginx: the connections by
# nginx's own $connection, the reconnections after keepalive_requests,
# and h2c with --max-streams.
. "$TESTLIB"

# conc_line: "N RATE INFLIGHT" from the Concurrency line.
conc_line() {
	sed -n "s/^Concurrency \([0-9]*\): \([0-9.]*\) req\/s, \([0-9.]*\) calls in flight (Little's law)\$/\1 \2 \3/p" "$OUT"
}

# within V LO HI: LO <= V <= HI (decimals).
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

# 5 connections, 500 calls: the server sees exactly 5, at once, and 500
# requests; the line follows the classic report.
for be in $(backends); do
	export HTTPERF_LOOP=$be
	start_srv
	hp --concurrency 5 --num-calls 500 --uri /size/10
	expect_rc 0
	expect_classic
	expect '^httperf .* --num-calls=500 (.* )?--concurrency=5$'
	expect_not ' --num-conns'
	expect_counts 5 500 500
	expect_calls_ended
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Connection length \[replies/conn\]: 100\.000$'
	expect '^Connection rate: .*<=5 concurrent connections\)$'
	expect "^Concurrency 5: [0-9.]+ req/s, [0-9.]+ calls in flight \(Little's law\)$"
	# After the classic report, never inside it.
	[ "$(tail -n 1 "$OUT" | cut -c1-12)" = "Concurrency " ] ||
	    fail "the Concurrency line is not last: $(tail -n 1 "$OUT")"
	stop_srv
	[ "$(srv_stat connections)" = 5 ] ||
	    fail "the server saw $(srv_stat connections) connections"
	[ "$(srv_stat max_concurrent)" = 5 ] ||
	    fail "the server saw $(srv_stat max_concurrent) at once"
	[ "$(srv_stat requests)" = 500 ] ||
	    fail "the server saw $(srv_stat requests) requests"
	ok "$be: 5 connections, 500 calls, exact"
done
unset HTTPERF_LOOP

# limited CALLS LO HI WHAT: the last run (started against a server that
# closes after a number of requests) answered all CALLS with no error,
# on LO to HI connections, the server's count the same as ours.  Sets
# conns.
limited() {
	expect_rc 0
	expect_calls_ended
	expect_errors 0 0 0 0 0 0 0 0 0
	expect "^Total: connections [0-9]+ requests $1 replies $1 "
	conns=$(value "Total:" connections)
	stop_srv
	[ "$(srv_stat requests)" = "$1" ] ||
	    fail "the server saw $(srv_stat requests) requests"
	[ "$(srv_stat connections)" = "$conns" ] ||
	    fail "the server saw $(srv_stat connections) connections, we $conns"
	[ "$conns" -ge "$2" ] && [ "$conns" -le "$3" ] ||
	    fail "$conns connections for $1 calls at $4"
}

# The server closes every connection after its 7th reply: 1000 calls
# over 4 connections need at least 143 of them; every one but the last
# 4 is closed by the server, and all 1000 are answered.
start_srv -C 7
hp --concurrency 4 --num-calls 1000 --uri /size/10
expect '^Connection rate: .*<=4 concurrent connections\)$'
limited 1000 143 146 "7 a connection"
[ "$(srv_stat closed_by_client)" -le 4 ] ||
    fail "$(srv_stat closed_by_client) connections closed by the client"
ok "keep-alive limit: $conns connections, 1000 calls, none lost"

# Pipelined in bursts of 4, the server closing after 8 (two bursts):
# no request is ever behind the reply that closes, so none is lost (75
# connections, a few more when the last bursts are cut short).
start_srv -C 8
hp --concurrency 3 --burst-length 4 --num-calls 600 --uri /size/10
limited 600 75 78 "8 a connection"
ok "--burst-length 4 with a limit of 8: $conns connections, 600 calls"

# Bursts of 4 on 2 connections, each reply 50 ms (the fixture serves a
# connection's requests in turn): a burst is over after 200 ms, its
# calls in flight for 50, 100, 150 and 200 ms, so 2.5 calls in flight a
# connection, 5 in all (8 if the next burst did not wait for the last).
start_srv
hp --concurrency 2 --burst-length 4 --num-calls 80 --uri /delay/50/1
expect_rc 0
expect_counts 2 80 80
expect_errors 0 0 0 0 0 0 0 0 0
set -- $(conc_line)
[ $# = 3 ] || fail "no Concurrency line"
within "$3" 4.5 5.2 || fail "$3 calls in flight, not about 5"
within "$2" 30 41 || fail "$2 req/s, not about 40"
ok "--burst-length 4: $3 calls in flight, $2 req/s"

# --runtime 2, 8 connections, 100 ms a reply: about 8 / 0.1 = 80 req/s
# (less as the machine is loaded), about 8 calls in flight; the calls
# in flight at the end are neither replies nor errors.
hp --concurrency 8 --runtime 2 --uri /delay/100/1 --timeout 10
expect_rc 0
expect '^Total: connections 8 requests [0-9]+ replies [0-9]+ test-duration 2\.0'
expect_errors 0 0 0 0 0 0 0 0 0
set -- $(conc_line)
[ "$1" = 8 ] || fail "concurrency $1"
within "$2" 40 82 || fail "$2 req/s, not about 80"
within "$3" 6.5 8.2 || fail "$3 calls in flight, not about 8"
n=$(value "Total:" requests)
p=$(value "Total:" replies)
[ "$n" -ge "$p" ] && [ "$n" -le $((p + 8)) ] ||
    fail "$n requests, $p replies"
d=$(value "Total:" test-duration)
within "$d" 1.99 2.5 || fail "the run lasted $d s"
ok "--runtime 2: $2 req/s, $3 calls in flight"

# The URIs of --wlog, each call its own.
printf '/size/1\n/size/2\n/size/3\n' > "$T_DIR/uris"
: > "$T_DIR/srv.log"
hp --concurrency 2 --num-calls 6 --wlog "y,$T_DIR/uris"
expect_rc 0
expect_counts 2 6 6
wait_for_log 6
got=$(awk '$2 == "GET" { print $3 }' "$T_DIR/srv.log" | sort | tr '\n' ' ')
[ "$got" = "/size/1 /size/1 /size/2 /size/2 /size/3 /size/3 " ] ||
    fail "URIs: $got"
printf '/size/1\n/size/2\n/size/3\n/size/4\n/size/5\n' > "$T_DIR/five"
hp --concurrency 2 --num-calls 100 --wlog "n,$T_DIR/five"
expect_rc 0
expect_counts 2 5 5
expect_errors 0 0 0 0 0 0 0 0 0
ok "--wlog's URIs; --wlog n ends the run"

# JSON: the member, valid; --merge adds the concurrency, the counts and
# the rates.
for i in 0 1; do
	hp --concurrency 3 --num-calls 300 --uri /size/10 --client $i/2 \
	    --json "$T_DIR/c$i.json"
	expect_rc 0
	validate_json "$T_DIR/c$i.json"
	[ "$(json_get "$T_DIR/c$i.json" stats.concurrency.concurrency)" = 3 ] ||
	    fail "stats.concurrency.concurrency"
	[ "$(json_get "$T_DIR/c$i.json" stats.concurrency.replies)" = 300 ] ||
	    fail "stats.concurrency.replies"
	[ "$(json_get "$T_DIR/c$i.json" options.concurrency)" = 3 ] ||
	    fail "options.concurrency"
done
r0=$(json_get "$T_DIR/c0.json" stats.concurrency.reply_rate)
r1=$(json_get "$T_DIR/c1.json" stats.concurrency.reply_rate)
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" \
    --json "$T_DIR/m.json" > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --merge"
expect_rc 0
expect_counts 6 600 600
validate_json "$T_DIR/m.json"
set -- $(conc_line)
[ "$1" = 6 ] || fail "merged concurrency $1"
within "$2" "$(awk -v a="$r0" -v b="$r1" 'BEGIN { print (a + b) * 0.999 - 0.1 }')" \
    "$(awk -v a="$r0" -v b="$r1" 'BEGIN { print (a + b) * 1.001 + 0.1 }')" ||
    fail "merged rate $2, files $r0 + $r1"
[ "$(json_get "$T_DIR/m.json" stats.concurrency.replies)" = 600 ] ||
    fail "merged stats.concurrency.replies"
ok "JSON and --merge: concurrency 6, $2 req/s"
stop_srv

# A dead server: each refused connection takes its call with it, and the
# run still ends, with every call an error.
hp --port 9 --concurrency 2 --num-calls 10
expect_rc 0
expect_counts 10 0 0
expect_errors 10 0 0 10 0 0 0 0 0
ok "a dead server: 10 connections refused, the run ends"

# refused PATTERN OPTION...: one line matching PATTERN, exit 1, before
# any load.
refused() {
	r_pat=$1
	shift
	hp "$@"
	expect_rc 1
	[ "$(wc -l < "$OUT.err")" = 1 ] || fail "$*: $(cat "$OUT.err")"
	grep -q "$r_pat" "$OUT.err" || fail "$*: $(cat "$OUT.err")"
	[ ! -s "$OUT" ] || fail "$*: load was sent"
}
refused "^httperf: --concurrency: cannot be used with --rate" \
    --concurrency 2 --rate 10 --num-calls 5
refused "^httperf: --concurrency: cannot be used with --period" \
    --concurrency 2 --period e0.1 --num-calls 5
refused "^httperf: --concurrency: cannot be used with --call-rate" \
    --concurrency 2 --call-rate 10 --num-calls 5
refused "^httperf: --concurrency: cannot be used with --wsess" \
    --concurrency 2 --wsess 2,2,0
refused "^httperf: --num-conns: does not apply to --concurrency" \
    --concurrency 2 --num-conns 5 --num-calls 5
refused "^httperf: --max-connections: does not apply to --concurrency" \
    --concurrency 2 --max-connections 5 --num-calls 5
refused "^httperf: --concurrency: requires --num-calls" \
    --concurrency 2
refused "^httperf: --slo: .*require a schedule" \
    --concurrency 2 --num-calls 5 --slo 'corrected.p99<1ms'
refused "^httperf: --concurrency: " \
    --concurrency 0 --num-calls 5
ok "the combinations that make no sense are refused"

# Against nginx: the connections as nginx numbers them ($connection).
nginx_need
free_ports 3
set -- $PORTS
NG=$1
NGK=$2
NGH=$3
nginx_start "$T_DIR/nginx" '$connection $request_uri' --server 127.0.0.1 \
    --port "$NGK" --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$NG http2;
		root $T_DIR/nginx/html;
	}
	server {
		listen 127.0.0.1:$NGK;
		root $T_DIR/nginx/html;
		keepalive_requests 10;
	}
	server {
		listen 127.0.0.1:$NGH;
		root $T_DIR/nginx/html;
	}
CONF
# ng_conns: the distinct connections of the access log.
ng_conns() {
	awk '{ print $1 }' "$ALOG" | sort -u | wc -l | tr -d ' '
}

: > "$ALOG"
PORT=$NGH hp --concurrency 8 --num-calls 800 --uri /1k.html
expect_rc 0
expect_counts 8 800 800
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 800)
[ "$n" = 800 ] || fail "nginx logged $n requests"
[ "$(ng_conns)" = 8 ] || fail "nginx saw $(ng_conns) connections"
ok "nginx: exactly 8 connections, 800 replies"

: > "$ALOG"
PORT=$NGK hp --concurrency 6 --num-calls 600 --uri /1k.html
expect_rc 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Total: connections [0-9]+ requests 600 replies 600 '
n=$(nginx_logged 600)
[ "$n" = 600 ] || fail "nginx logged $n requests"
c=$(ng_conns)
# A connection opened for a request another one took first may end up
# carrying none: nginx logs only those with requests, which are the
# ones the classic "Connection length" divides the replies among.
[ "$c" -le "$(value "Total:" connections)" ] &&
    [ "$(awk -v c="$c" 'BEGIN { printf "%.3f", 600 / c }')" = \
    "$(sed -n 's/^Connection length \[replies\/conn\]: //p' "$OUT")" ] ||
    fail "nginx saw $c connections, we $(value "Total:" connections): $(grep '^Connection length' "$OUT")"
[ "$c" -ge 60 ] && [ "$c" -le 66 ] ||
    fail "$c connections for 600 requests at 10 a connection"
m=$(awk '{ n[$1]++ } END { for (k in n) if (n[k] > m) m = n[k]; print m }' "$ALOG")
[ "$m" = 10 ] || fail "a connection carried $m requests"
ok "nginx keepalive_requests 10: $c connections, 600 replies"

# h2c: 2 connections, 4 streams each.
if ! h2_built; then
	t_skip "httperf was built without HTTP/2"
else
	: > "$ALOG"
	PORT=$NG hp --http2 --max-streams 4 --concurrency 2 --num-calls 400 \
	    --uri /1k.html
	expect_rc 0
	expect_counts 2 400 400
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^HTTP/2: connections 2 \(h2 0 h2c 2 http/1\.1 0\), streams 400, .* max concurrent 4$'
	n=$(nginx_logged 400)
	[ "$n" = 400 ] || fail "nginx logged $n requests"
	[ "$(ng_conns)" = 2 ] || fail "nginx saw $(ng_conns) connections"
	ok "h2c: 2 connections, 4 streams each, 400 calls"
fi
