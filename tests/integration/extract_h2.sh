#!/bin/sh
# Session variables and checks over HTTP/2 (h2c, nginx): the reply's
# fields and DATA are kept for extract= and check= as over HTTP/1.1, and
# nginx answers the protected location only with the token extracted.
. "$TESTLIB"

h2_need nginx

free_ports 1
P=$PORTS
N=$T_DIR/nginx
nginx_start "$N" '$server_protocol "$request" $status' \
    --server 127.0.0.1 --port "$P" --http2 --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$P http2;
		root $N/html;
		location /login {
			add_header X-Token tok7;
			add_header Set-Cookie "sid=tok7; Path=/";
			return 200 '{"auth": {"token": "tok7"}, "n": [1, 2]}';
		}
		location /protected {
			if (\$http_authorization != "Bearer tok7") {
				return 401;
			}
			return 200 "welcome\n";
		}
	}
CONF

for how in json:auth.token header:X-Token cookie:sid \
    'regex:"token": "([a-z0-9]+)"'; do
	printf "/login extract='tok:%s' check=json:n[1]=2\n/protected header='Authorization: Bearer {{tok}}' check=body:contains:welcome\n" \
	    "$how" > "$T_DIR/a.sess"
	: > "$ALOG"
	PORT=$P hp --http2 --template --wsesslog 20,0,"$T_DIR/a.sess"
	expect_rc 0
	expect_counts '[0-9]+' 40 40
	expect_status 0 40 0 0 0
	expect '^Checks: passed 40 failed 0$'
	expect '^Session rate .*\(20/20\)$'
	expect_classic
	n=$(nginx_logged 40)
	[ "$(grep -c '^HTTP/2.0 "GET /protected HTTP/2.0" 200$' "$ALOG")" = 20 ] || \
	    fail "$how: nginx: $(cat "$ALOG")"
	ok "h2c: extract=tok:$how, 20 protected 200s; checks on fields and DATA"
done
