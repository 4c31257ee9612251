#!/bin/sh
# --template over HTTP/2 (h2c, nginx): the expanded :path, header lines
# and body go out as the stream's fields and DATA, with the body's
# content-length, as nginx logs them.
. "$TESTLIB"

h2_need nginx

# h2c, and a plain port that the h2c server passes /t to (so that it
# reads the body, which the log then shows).
free_ports 2
set -- $PORTS
P=$1 P_UP=$2
N=$T_DIR/nginx
nginx_start "$N" \
    '$server_protocol "$request" "$http_x_n" "$content_length" $request_body' \
    --server 127.0.0.1 --port "$P" --http2 --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$P http2;
		root $N/html;
		location /t { proxy_pass http://127.0.0.1:$P_UP/ok; }
	}
	server {
		listen 127.0.0.1:$P_UP;
		location /ok { return 200 "ok\n"; }
	}
CONF

: > "$ALOG"
PORT=$P hp --http2 --template --num-conns 2 --num-calls 3 --method POST \
    --uri '/t?n={{seq}}' --add-header 'X-N: {{uuid}}\n' \
    --body 'b={{randstr 20}}'
expect_rc 0
expect_counts 2 6 6
expect_errors 0 0 0 0 0 0 0 0 0
expect '^HTTP/2: connections 2 \(h2 0 h2c 2 http/1\.1 0\), streams 6,'
n=$(nginx_logged 12)
[ "$n" = 12 ] || fail "nginx logged $n requests, expected 12: $(cat "$ALOG")"
# The client's requests (the proxied ones are HTTP/1.0 and /ok).
grep '^HTTP/2.0 "POST /t?n=' "$ALOG" > "$T_DIR/h2.log"
[ "$(wc -l < "$T_DIR/h2.log" | tr -d ' ')" = 6 ] || \
    fail "h2 requests: $(cat "$ALOG")"
[ "$(sed 's/.*n=\([0-9]*\) .*/\1/' "$T_DIR/h2.log" | sort -n | tr '\n' ' ')" = \
    "1 2 3 4 5 6 " ] || fail "{{seq}}: $(cat "$T_DIR/h2.log")"
n=$(awk -F'"' '{ print $4 }' "$T_DIR/h2.log" | \
    grep -E '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' | \
    sort -u | wc -l | tr -d ' ')
[ "$n" = 6 ] || fail "X-N uuids: $(cat "$T_DIR/h2.log")"
[ "$(awk -F'"' '{ print $6 }' "$T_DIR/h2.log" | sort -u)" = 22 ] || \
    fail "content-length: $(cat "$T_DIR/h2.log")"
n=$(awk '{ print $NF }' "$T_DIR/h2.log" | grep -Ec '^b=[a-z0-9]{20}$')
[ "$n" = 6 ] || fail "bodies: $(cat "$T_DIR/h2.log")"
ok "h2c: {{seq}} in :path, {{uuid}} in a header, {{randstr 20}} in the body"
