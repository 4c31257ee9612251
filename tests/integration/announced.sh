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
start_srv -C 2
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

# Outside sessions nothing sends them again: one connreset a connection,
# as 0.9.0 counts it, and the line says the server had announced each.
export HTTPERF_LOOP=epoll
hp --num-conns 5 --num-calls 6 --burst-length 6 --uri /size/10 \
    --json "$T_DIR/c.json"
expect_rc 0
expect_classic
expect_counts 5 30 10
expect_errors 5 0 0 0 5 0 0 0 0
expect_announced 5 5 0 0
[ "$(json_get "$T_DIR/c.json" stats.basic.announced.connection_close)" = 5 ] ||
    fail "JSON: $(json_get "$T_DIR/c.json" stats.basic.announced)"
ok "--num-calls: requests behind Connection: close are connreset, announced"

# --merge adds the numbers up and prints the line from them.
for i in 0 1; do
	hp --wsess 5,6,0 --burst-length 6 --uri /size/10 --client $i/2 \
	    --json "$T_DIR/s$i.json"
	expect_announced 0 0 0 20
	hp --num-conns 5 --num-calls 6 --burst-length 6 --uri /size/10 \
	    --client $i/2 --json "$T_DIR/c$i.json"
	expect_announced 5 5 0 0
done
T_LAST="httperf --merge"
"$HP" --merge "$T_DIR/s0.json" "$T_DIR/s1.json" > "$OUT" 2> "$OUT.err" ||
    fail "--merge: $(cat "$OUT.err")"
expect_errors 0 0 0 0 0 0 0 0 0
expect_announced 0 0 0 40
"$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" > "$OUT" 2> "$OUT.err" ||
    fail "--merge: $(cat "$OUT.err")"
expect_errors 10 0 0 0 10 0 0 0 0
expect_announced 10 10 0 0
ok "--merge adds the announced closes up"

# Resent and still unanswered: the 2nd reply closes, /hang and /size/10
# behind it go out again; /size/10 is answered (retried 1), /hang times
# out, which fails the session (client-timo 1) and drops the call: its
# announced close counts after all (connreset 1), as before the resend.
printf '/size/10\n\t/size/10\n\t/hang\n\t/size/10\n' > "$T_DIR/hang.sess"
hp --wsesslog 1,0,"$T_DIR/hang.sess" --timeout 0.5
expect_rc 0
expect_sessions 0 1
expect_counts 3 6 3
expect_errors 2 1 0 0 1 0 0 0 0
expect_announced 1 1 0 1
ok "resent and never answered: counted as the announced connreset"

# Every reply says Connection: close (/close): the burst goes out one
# call a connection once the first reply said so, nothing is sent
# unprocessed, and the line is not printed.
hp --wsess 2,4,0 --burst-length 4 --uri /close/10
expect_counts 8 8 8
expect_errors 0 0 0 0 0 0 0 0 0
expect_not '^Announced closes'
ok "Connection: close on every reply: no line"
stop_srv

# nginx: keepalive_requests 3 over HTTP/1.1 (Connection: close on the
# 3rd reply of a connection) and HTTP/2 (GOAWAY after the 3rd stream,
# the streams above it refused).  Each session's first call goes alone,
# the 7 others of its burst pipelined (or as concurrent streams) on the
# same connection: 2 answered, 5 unprocessed, sent again on new
# connections.  Every call and session completes without an error.
# lingering_close always: nginx reads what was pipelined after the close
# instead of resetting (its heuristic may reset when the requests come in
# several segments), so the only close is the announced one.
nginx_need
free_ports 2
set -- $PORTS
P_H1=$1 P_H2C=$2
N=$T_DIR/nginx
nginx_start "$N" "" --server 127.0.0.1 --port "$P_H1" --uri /1k.html <<CONF
	lingering_close always;
	server {
		listen 127.0.0.1:$P_H1;
		keepalive_requests 3;
		root $N/html;
	}
	server {
		listen 127.0.0.1:$P_H2C http2;
		keepalive_requests 3;
		root $N/html;
	}
CONF
: > "$ALOG"
PORT=$P_H1 hp --wsess 5,8,0 --burst-length 8 --rate 50 --uri /1k.html
expect_rc 0
expect_sessions 5 5
expect_counts 25 65 40
expect_errors 0 0 0 0 0 0 0 0 0
expect_announced 0 0 0 25
n=$(nginx_logged 40)
[ "$n" = 40 ] || fail "nginx logged $n requests"
ok "nginx keepalive_requests, HTTP/1.1 sessions: 25 retried, no errors"

if h2_built; then
	: > "$ALOG"
	PORT=$P_H2C hp --http2 --wsess 5,8,0 --burst-length 8 --rate 50 \
	    --uri /1k.html
	expect_rc 0
	expect_sessions 5 5
	expect_counts 25 65 40
	expect_errors 0 0 0 0 0 0 0 0 0
	expect_announced 0 0 0 25
	expect '^HTTP/2 frames: RST_STREAM received 0 sent 0, GOAWAY received 5,'
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 0 goaway 0 alpn 0 protocol 0$'
	n=$(nginx_logged 40)
	[ "$n" = 40 ] || fail "nginx logged $n requests"
	ok "nginx keepalive_requests, HTTP/2 sessions: GOAWAY, 25 retried, no errors"

	# Resent and never answered over HTTP/2: streams 1, 3 and 5 are
	# answered, the 5 above the GOAWAY refused; on the session's one
	# connection the first of them (/missing) goes out again alone and
	# its 404 fails the session (--failure-status): the 4 still waiting
	# are dropped unanswered and count as refused streams after all.
	printf '/1k.html\n\t/1k.html\n\t/1k.html\n\t/missing\n' \
	    > "$T_DIR/g.sess"
	printf '\t/1k.html\n\t/1k.html\n\t/1k.html\n\t/1k.html\n' \
	    >> "$T_DIR/g.sess"
	PORT=$P_H2C hp --http2 --wsesslog 1,0,"$T_DIR/g.sess" \
	    --max-connections 1 --failure-status 404
	expect_rc 0
	expect_sessions 0 1
	expect_counts 2 9 4
	expect_status 0 3 0 1 0
	expect_errors 4 0 0 0 0 0 0 0 4
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 4 goaway 0 alpn 0 protocol 0$'
	expect_announced 4 0 4 1
	ok "HTTP/2: refused, resent, dropped unanswered: 4 refused streams"

	# Outside sessions the refused streams stay errors, announced.
	PORT=$P_H2C hp --http2 --num-conns 2 --num-calls 8 --burst-length 8 \
	    --uri /1k.html
	expect_counts 2 16 6
	expect_errors 10 0 0 0 0 0 0 0 10
	expect '^HTTP/2 errors: stream-reset 0 refused-stream 10 goaway 0 alpn 0 protocol 0$'
	expect_announced 10 0 10 0
	ok "nginx keepalive_requests, HTTP/2 --num-calls: 10 refused, announced"
else
	t_strict && fail "httperf was built without libnghttp2"
	t_skip "httperf was built without libnghttp2: no HTTP/2 check"
fi
