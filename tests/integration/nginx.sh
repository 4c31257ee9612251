#!/bin/sh
# Against a real server: nginx on a loopback port, started by the test.
# Counts must be exact and agree with nginx's own access log.
. "$TESTLIB"

nginx_need

# A free port: let the fixture pick one, then stop it.
free_ports 1
PORT=$PORTS
nginx_start "$T_DIR/nginx" "" --server 127.0.0.1 --port "$PORT" \
    --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$PORT;
		root $T_DIR/nginx/html;
		location = /close { keepalive_timeout 0; return 200 "bye"; }
		location = /post { return 200 "ok"; }
		location = /small { client_max_body_size 1k; }
	}
CONF

for be in $(backends); do
	export HTTPERF_LOOP=$be
	: > "$ALOG"
	hp --num-conns 100 --num-calls 5 --rate 500 --uri /1k.html
	expect_rc 0
	expect_classic
	expect_counts 100 500 500
	expect_status 0 500 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Reply size \[B\]: header [0-9.]+ content 1024\.0 footer 0\.0 '
	n=$(nginx_logged 500)
	[ "$n" = 500 ] || fail "nginx logged $n requests"
	ok "$be: nginx keep-alive, exact counts"

	nginx_logged 500 > /dev/null
	hp --num-conns 20 --num-calls 3 --burst-length 3 --uri /missing
	expect_counts 20 60 60
	expect_status 0 0 0 60 0
	expect_errors 0 0 0 0 0 0 0 0 0
	ok "$be: nginx pipelined 404s"

	nginx_logged 560 > /dev/null
	: > "$ALOG"
	hp --num-conns 10 --num-calls 3 --uri /close
	expect_counts 10 10 10
	expect_errors 0 0 0 0 0 0 0 0 0
	n=$(nginx_logged 10)
	[ "$n" = 10 ] || fail "nginx logged $n requests"
	ok "$be: nginx Connection: close honoured"
done

# Sessions against nginx: counts, and what nginx logged.
export HTTPERF_LOOP=epoll
nginx_logged 10 > /dev/null
: > "$ALOG"
hp --wsess 10,5,0.01 --burst-length 2 --rate 100 --uri /1k.html
expect_rc 0
expect "^Session rate \[sess/s\]: .* \(10/10\)\$"
expect_counts 10 50 50
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 50)
[ "$n" = 50 ] || fail "nginx logged $n requests"
ok "nginx --wsess"

printf '/1k.html\n\t/missing\n\t/1k.html\n/close think=0.01\n/1k.html\n\n/1k.html method=HEAD\n' \
    > "$T_DIR/s.log"
: > "$ALOG"
hp --wsesslog 6,0,"$T_DIR/s.log" --rate 50
expect "^Session rate \[sess/s\]: .* \(6/6\)\$"
expect_counts 9 18 18
expect_status 0 15 0 3 0
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 18)
[ "$n" = 18 ] || fail "nginx logged $n requests"
ok "nginx --wsesslog with Connection: close mid-session"

# A reply before the request body is all sent (nginx's return, and its 413
# for a body over client_max_body_size): the rest of the body still goes
# out when nginx keeps the connection, none when it closes it; a request
# is never sent inside the previous one's body.  --send-buffer 4096
# (0.9.0's default) keeps the body in flight when the reply comes: with
# the buffers the kernel sizes for itself it may all be written first.
head -c 102400 /dev/zero | tr '\0' 'b' > "$T_DIR/body100k"
: > "$ALOG"
hp --num-conns 20 --num-calls 5 --uri /post --method POST \
    --body-file "$T_DIR/body100k" --timeout 10
expect_counts 20 100 100
expect_status 0 100 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 100)
[ "$n" = 100 ] || fail "nginx logged $n requests"
[ "$(awk '$9 == 200' "$ALOG" | wc -l)" = 100 ] ||
    fail "nginx logged statuses other than 200: $(awk '{ print $9 }' "$ALOG" | sort | uniq -c)"
ok "nginx: early replies to POST bodies, connections reused cleanly"

: > "$ALOG"
head -c 8388608 /dev/zero | tr '\0' 'b' > "$T_DIR/body8m"
hp --num-conns 10 --num-calls 3 --uri /small --method POST \
    --body-file "$T_DIR/body8m" --timeout 10 --send-buffer 4096
expect_counts 10 10 10
expect_status 0 0 0 10 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Early replies: 10 \(requests cut short 10, request bytes not sent [0-9]+\)$'
n=$(nginx_logged 10)
[ "$n" = 10 ] || fail "nginx logged $n requests"
[ "$(awk '$9 == 413' "$ALOG" | wc -l)" = 10 ] || fail "nginx did not log 10 413s"
ok "nginx: 413 before the body ends, connection closed, counted"
