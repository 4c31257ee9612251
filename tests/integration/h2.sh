#!/bin/sh
# HTTP/2 against nginx (http2 on): h2 over TLS (ALPN) and h2c (prior
# knowledge).  For every workload the report's counts must equal nginx's
# access log, every line of which must be HTTP/2.0; ALPN refusal is one
# error per connection (or HTTP/1.1 with --http2-fallback); GOAWAY
# (keepalive_requests) and RST_STREAM (return 444) are counted in their
# classes and in `other'.
. "$TESTLIB"

# Built without libnghttp2: the one thing to check is the refusal.  In CI
# everything is installed, so there it is a failure.
"$HP" --http2 --server 127.0.0.1 --port 9 --num-conns 1 > "$OUT" 2> "$OUT.err"
RC=$?
if grep -q 'built without HTTP/2' "$OUT.err"; then
	[ "$RC" = 1 ] || fail "built without HTTP/2: exit status $RC"
	grep -qx 'httperf: --http2: this httperf was built without HTTP/2 (libnghttp2)' \
	    "$OUT.err" || fail "message: $(cat "$OUT.err")"
	[ -s "$OUT" ] && fail "a report without HTTP/2"
	h2_need
fi
nginx_need openssl
h2_need nginx

# Five free loopback ports.
free_ports 5
set -- $PORTS
P_H2=$1 P_H2C=$2 P_TLS11=$3 P_GOAWAY=$4 P_RST=$5

N=$T_DIR/nginx
nginx_cert "$N"
nginx_start "$N" \
    '$server_port $server_protocol "$request" $status $request_length "$http_x_test" "$http_cookie"' \
    --server 127.0.0.1 --port "$P_H2C" --http2 --uri /1k.html <<CONF
	ssl_certificate $N/cert.pem;
	ssl_certificate_key $N/key.pem;
	server {
		listen 127.0.0.1:$P_H2 ssl http2;
		listen 127.0.0.1:$P_H2C http2;
		listen 127.0.0.1:$P_TLS11 ssl;
		listen unix:$N/h2c.sock http2;
		listen unix:$N/h2.sock ssl http2;
		root $N/html;
		location /post { return 200 "ok\n"; }
		location /w/ { return 200 "w\n"; }
		location /cookie {
			add_header Set-Cookie "sid=s42; path=/";
			return 200 "c\n";
		}
	}
	server {
		listen 127.0.0.1:$P_GOAWAY http2;
		keepalive_requests 4;
		root $N/html;
	}
	server {
		listen 127.0.0.1:$P_RST http2;
		root $N/html;
		location /rst { return 444; }
	}
CONF
head -c 200000 /dev/zero | tr '\0' 'b' > "$N/html/big.html"

# check_log N: nginx logged exactly N requests, all of them HTTP/2.0.
check_log() {
	n=$(nginx_logged "$1")
	[ "$n" = "$1" ] || fail "nginx logged $n requests, expected $1: $(sort "$ALOG" | uniq -c)"
	# The port is empty on a Unix socket: fields counted from the quote.
	n=$(awk -F'"' '$1 !~ / HTTP\/2\.0 $/ || $2 !~ / HTTP\/2\.0$/' \
	    "$ALOG" | wc -l)
	[ "$n" = 0 ] || fail "nginx logged $n requests not HTTP/2.0: $(sort "$ALOG" | uniq -c)"
}

# log_uris: the URIs nginx logged, one per line, in its order.
log_uris() {
	awk -F'"' '{ split($2, r, " "); print r[2] }' "$ALOG"
}

# run PORT OPTIONS...: a clean log, then httperf with --http2.
run() {
	p=$1
	shift
	: > "$ALOG"
	PORT=$p hp --http2 "$@"
}

for mode in h2 h2c; do
	if [ $mode = h2 ]; then
		P=$P_H2 S=--ssl
	else
		P=$P_H2C S=
	fi

	run $P $S --num-conns 5 --num-calls 10 --uri /1k.html
	expect_rc 0
	expect_classic
	expect_counts 5 50 50
	expect_calls_ended
	expect_status 0 50 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	if [ $mode = h2 ]; then
		expect '^HTTP/2: connections 5 \(h2 5 h2c 0 http/1\.1 0\), streams 50, streams/conn 10\.0 max 10, max concurrent 1$'
	else
		expect '^HTTP/2: connections 5 \(h2 0 h2c 5 http/1\.1 0\), streams 50, streams/conn 10\.0 max 10, max concurrent 1$'
	fi
	expect '^HTTP/2 frames: RST_STREAM received 0 sent 0, GOAWAY received 0, flow-control stalls 0$'
	expect '^HTTP/2 header compression: sent [0-9]+ B as [0-9]+ B \([0-9.]+% saved\), received [0-9]+ B as [0-9]+ B \([0-9.]+% saved\)$'
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 0 protocol 0$'
	expect '^Reply size \[B\]: header [0-9.]+ content 1024\.0 footer 0\.0 '
	check_log 50
	ok "$mode: --num-conns 5 --num-calls 10"

	# A burst is sent at once, as streams.
	run $P $S --num-conns 2 --num-calls 20 --burst-length 10 --uri /1k.html
	expect_counts 2 40 40
	expect_errors 0 0 0 0 0 0 0 0 0
	expect 'streams 40, streams/conn 20\.0 max 20, max concurrent 10$'
	check_log 40
	ok "$mode: --burst-length 10 gives 10 concurrent streams"

	# --max-streams holds the rest of a burst on the connection.
	run $P $S --num-conns 1 --num-calls 12 --burst-length 12 \
	    --max-streams 3 --uri /1k.html
	expect_counts 1 12 12
	expect 'streams 12, streams/conn 12\.0 max 12, max concurrent 3$'
	check_log 12
	ok "$mode: --max-streams 3"

	# Sessions, with their bursts as streams.
	run $P $S --wsess 4,3,0 --burst-length 3 --uri /1k.html
	expect_counts 4 12 12
	expect "^Session rate \[sess/s\]: .* \(4/4\)\$"
	expect_errors 0 0 0 0 0 0 0 0 0
	check_log 12
	ok "$mode: --wsess"

	printf '/1k.html\n\t/1k.html?x\n\t/1k.html?y\n\n/1k.html?z think=0.01\n' \
	    > "$T_DIR/sesslog"
	run $P $S --wsesslog 3,0,"$T_DIR/sesslog"
	expect_counts 3 7 7
	expect "^Session rate \[sess/s\]: .* \(3/3\)\$"
	check_log 7
	[ "$(grep -c '"GET /1k.html?y HTTP/2.0"' "$ALOG")" = 2 ] ||
	    fail "nginx: $(cat "$ALOG")"
	ok "$mode: --wsesslog"

	printf '/1k.html\0/1k.html?a=1\0/1k.html?b=2\0' > "$T_DIR/wlog"
	run $P $S --wlog n,"$T_DIR/wlog" --num-conns 1 --num-calls 3
	expect_counts 1 3 3
	check_log 3
	[ "$(grep -c '"GET /1k.html?b=2 HTTP/2.0"' "$ALOG")" = 1 ] ||
	    fail "nginx: $(cat "$ALOG")"
	ok "$mode: --wlog"

	# One connection, or two when the first is slow to connect (TLS
	# under a sanitizer).
	run $P $S --call-rate 200 --num-calls 20 --max-connections 2 \
	    --uri /1k.html
	expect_counts '[12]' 20 20
	expect_errors 0 0 0 0 0 0 0 0 0
	check_log 20
	ok "$mode: --call-rate"

	# A body, and a header of ours (lowercased on the wire).
	run $P $S --method POST --body abcdefgh --num-conns 2 --num-calls 3 \
	    --uri /post --add-header 'X-Test: yes\n'
	expect_counts 2 6 6
	expect_status 0 6 0 0 0
	check_log 6
	n=$(grep -c '"POST /post HTTP/2.0" 200 [0-9]* "yes"' "$ALOG")
	[ "$n" = 6 ] || fail "nginx: $(cat "$ALOG")"
	ok "$mode: POST with a body, --add-header"

	# Cookies go back on the session's next stream.
	run $P $S --wsess 2,2,0 --session-cookies --uri /cookie
	expect_counts 2 4 4
	check_log 4
	n=$(grep -c '"sid=s42"$' "$ALOG")
	[ "$n" = 2 ] || fail "nginx saw the cookie $n times: $(cat "$ALOG")"
	ok "$mode: --session-cookies"

	# --wset: the URIs nginx got, in order (one stream at a time), and
	# as a distribution when a burst sends them at once.  With 20 files
	# and a miss rate of 0.5 the walk is 0,1,1,2,2,3,3,4,4,5.
	run $P $S --num-conns 2 --num-calls 4 --wset 20,0.5 --uri /w/
	expect_counts 2 8 8
	expect_errors 0 0 0 0 0 0 0 0 0
	check_log 8
	[ "$(log_uris | tr '\n' ' ')" = "/w/0/0.html /w/0/1.html /w/0/1.html /w/0/2.html /w/0/2.html /w/0/3.html /w/0/3.html /w/0/4.html " ] ||
	    fail "nginx: URIs $(log_uris | tr '\n' ' ')"
	run $P $S --num-conns 1 --num-calls 10 --burst-length 10 \
	    --wset 20,0.5 --uri /w/
	expect_counts 1 10 10
	check_log 10
	[ "$(log_uris | sort | uniq -c | awk '{ printf "%s %s ", $1, $2 }')" = "1 /w/0/0.html 2 /w/0/1.html 2 /w/0/2.html 2 /w/0/3.html 2 /w/0/4.html 1 /w/0/5.html " ] ||
	    fail "nginx: URIs $(log_uris | sort | uniq -c)"
	ok "$mode: --wset, sequence and burst"

	# A large reply: flow control on our receive side.
	run $P $S --num-conns 1 --num-calls 5 --burst-length 5 \
	    --uri /big.html
	expect_counts 1 5 5
	expect '^Reply size \[B\]: header [0-9.]+ content 200000\.0 '
	check_log 5
	ok "$mode: 200 kB replies"
done

# Over a Unix socket: h2c (prior knowledge) and h2 (TLS, ALPN), counts
# equal to nginx's log, every line HTTP/2.0, the report's HTTP/2 line
# naming the protocol.
for mode in h2c h2; do
	if [ $mode = h2 ]; then
		S=--ssl
	else
		S=
	fi
	: > "$ALOG"
	PORT=443 hp --http2 $S --unix-socket "$N/$mode.sock" --num-conns 3 \
	    --num-calls 4 --burst-length 2 --uri /1k.html
	expect_rc 0
	expect_classic
	expect_counts 3 12 12
	expect_calls_ended
	expect_status 0 12 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	if [ $mode = h2 ]; then
		expect '^HTTP/2: connections 3 \(h2 3 h2c 0 http/1\.1 0\), streams 12, streams/conn 4\.0 max 4, max concurrent 2$'
	else
		expect '^HTTP/2: connections 3 \(h2 0 h2c 3 http/1\.1 0\), streams 12, streams/conn 4\.0 max 4, max concurrent 2$'
	fi
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 0 protocol 0$'
	check_log 12
	n=$(grep -c '"GET /1k.html HTTP/2.0" 200 ' "$ALOG")
	[ "$n" = 12 ] || fail "nginx: $(cat "$ALOG")"
	ok "$mode over a Unix socket"
done

# --http-version 2 is --http2.
: > "$ALOG"
PORT=$P_H2C hp --http-version 2 --num-conns 1 --num-calls 2 --uri /1k.html
expect_counts 1 2 2
expect_calls_ended
expect '^HTTP/2: connections 1 \(h2 0 h2c 1 '
check_log 2
ok "--http-version 2"

# ALPN: a TLS listener without http2 refuses h2: one error a connection.
: > "$ALOG"
PORT=$P_TLS11 hp --http2 --ssl --num-conns 4 --num-calls 3 --uri /1k.html
expect_rc 0
expect_counts 4 0 0
expect_calls_ended
expect_errors 4 0 0 0 0 0 0 0 4
expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 4 protocol 0$'
[ "$(nginx_logged 0)" = 0 ] || fail "nginx logged requests: $(cat "$ALOG")"
ok "ALPN refused: 4 alpn errors, in other"

: > "$ALOG"
PORT=$P_TLS11 hp --http2 --http2-fallback --ssl --num-conns 4 --num-calls 3 \
    --uri /1k.html
expect_counts 4 12 12
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
expect '^HTTP/2: connections 4 \(h2 0 h2c 0 http/1\.1 4\), streams 0,'
n=$(nginx_logged 12)
[ "$n" = 12 ] || fail "nginx logged $n"
[ "$(awk '$2 == "HTTP/1.1"' "$ALOG" | wc -l)" = 12 ] ||
    fail "nginx: $(cat "$ALOG")"
ok "--http2-fallback: HTTP/1.1 when ALPN does not select h2"

# GOAWAY after 4 requests (keepalive_requests 4): a burst of 10 has 6
# streams refused on each connection; one at a time, the rest is simply
# not sent (as after Connection: close).
: > "$ALOG"
PORT=$P_GOAWAY hp --http2 --num-conns 3 --num-calls 10 --burst-length 10 \
    --uri /1k.html
expect_rc 0
expect_counts 3 30 12
expect_calls_ended
expect_errors 18 0 0 0 0 0 0 0 18
expect '^HTTP/2 frames: RST_STREAM received [0-9]+ sent 0, GOAWAY received 3,'
expect '^HTTP/2 errors: stream-reset 0 refused-stream 18 goaway 0 alpn 0 protocol 0$'
check_log 12
ok "GOAWAY mid-burst: 18 refused streams"

: > "$ALOG"
PORT=$P_GOAWAY hp --http2 --num-conns 3 --num-calls 10 --uri /1k.html
expect_counts 3 12 12
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
expect 'GOAWAY received 3,'
check_log 12
ok "GOAWAY between requests: nothing lost"

# RST_STREAM on every stream of /rst: each one counted, the connection
# lives on for the next.
: > "$ALOG"
PORT=$P_RST hp --http2 --num-conns 2 --num-calls 3 --burst-length 3 --uri /rst
expect_rc 0
expect_counts 2 6 0
expect_calls_ended
expect_errors 6 0 0 0 0 0 0 0 6
expect '^HTTP/2 frames: RST_STREAM received 6 sent 0,'
expect '^HTTP/2 errors: stream-reset 6 refused-stream 0 goaway 0 alpn 0 protocol 0$'
ok "RST_STREAM: 6 stream resets"

# The JSON part, and --merge of two processes' files.
: > "$ALOG"
PORT=$P_H2C hp --http2 --num-conns 2 --num-calls 3 --uri /1k.html \
    --client 0/2 --json "$T_DIR/r0.json"
expect_counts 2 6 6
expect_calls_ended
validate_json "$T_DIR/r0.json"
[ "$(json_get "$T_DIR/r0.json" stats.h2.streams)" = 6 ] ||
    fail "stats.h2.streams: $(json_get "$T_DIR/r0.json" stats.h2)"
[ "$(json_get "$T_DIR/r0.json" stats.h2.conns_h2c)" = 2 ] ||
    fail "stats.h2.conns_h2c"
[ "$(json_get "$T_DIR/r0.json" stats.h2.errors.alpn)" = 0 ] ||
    fail "stats.h2.errors.alpn"
[ "$(json_get "$T_DIR/r0.json" options.http2)" = true ] ||
    fail "options.http2"
PORT=$P_H2C hp --http2 --num-conns 2 --num-calls 3 --uri /1k.html \
    --client 1/2 --json "$T_DIR/r1.json"
expect_counts 2 6 6
expect_calls_ended
"$HP" --merge "$T_DIR/r0.json" "$T_DIR/r1.json" > "$OUT" 2> "$OUT.err" ||
    fail "--merge failed"
expect_counts 4 12 12
expect '^HTTP/2: connections 4 \(h2 0 h2c 4 http/1\.1 0\), streams 12, streams/conn 3\.0 max 3, max concurrent 1$'
expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 0 protocol 0$'
ok "--json stats.h2, --merge adds it up"
