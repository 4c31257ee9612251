#!/bin/sh
# TLS against a real server: nginx with TLS on a loopback port.  Counts
# must be exact, nginx's log must show resumed sessions by default and
# none with --ssl-no-reuse, and the SNI name must reach it.
. "$TESTLIB"

nginx_need openssl

free_ports 1
PORT=$PORTS
N=$T_DIR/nginx
nginx_cert "$N"
nginx_start "$N" '$ssl_session_reused $ssl_server_name $ssl_protocol $status' \
    --server 127.0.0.1 --port "$PORT" --ssl --uri /1k.html <<CONF
	ssl_session_cache shared:httperf:1m;
	server {
		listen 127.0.0.1:$PORT ssl;
		ssl_certificate $N/cert.pem;
		ssl_certificate_key $N/key.pem;
		ssl_protocols TLSv1.2 TLSv1.3;
		root $N/html;
	}
CONF

: > "$ALOG"
HP_SERVER=localhost hp --ssl --num-conns 20 --num-calls 5 --uri /1k.html
expect_rc 0
expect_counts 20 100 100
expect_errors 0 0 0 0 0 0 0 0 0
expect '^TLS: handshakes 20 resumed 19 '
[ "$(nginx_logged 100)" = 100 ] || fail "nginx logged $(wc -l < "$ALOG")"
n=$(awk '$1 == "r" && $2 == "localhost"' "$ALOG" | wc -l)
[ "$n" = 95 ] || fail "nginx saw $n requests on resumed sessions: $(sort "$ALOG" | uniq -c)"
ok "nginx: resumed sessions by default, SNI sent"

: > "$ALOG"
HP_SERVER=localhost hp --ssl --ssl-no-reuse --num-conns 20 --num-calls 5 \
    --uri /1k.html
expect_counts 20 100 100
expect '^TLS: handshakes 20 resumed 0 '
[ "$(nginx_logged 100)" = 100 ] || fail "nginx logged $(wc -l < "$ALOG")"
n=$(awk '$1 == "r"' "$ALOG" | wc -l)
[ "$n" = 0 ] || fail "nginx saw $n resumed requests with --ssl-no-reuse"
ok "nginx: --ssl-no-reuse gives full handshakes"

: > "$ALOG"
hp --ssl --wsess 5,4,0 --http-version 1.0 --uri /1k.html
expect "^Session rate \[sess/s\]: .* \(5/5\)\$"
expect_counts 20 20 20
expect '^TLS: handshakes 20 resumed 15 '
[ "$(nginx_logged 20)" = 20 ] || fail "nginx logged $(wc -l < "$ALOG")"
n=$(awk '$1 == "r"' "$ALOG" | wc -l)
[ "$n" = 15 ] || fail "nginx saw $n resumed connections"
ok "nginx: sessions resume their TLS sessions"

# TLS 1.3 (tickets arrive after the handshake) resumes as well.
: > "$ALOG"
HP_SERVER=localhost hp --ssl --ssl-protocol TLSv1.3 --num-conns 5 \
    --uri /1k.html
expect_counts 5 5 5
expect '^TLS: protocol TLSv1\.3 '
expect '^TLS: handshakes 5 resumed 4 '
[ "$(nginx_logged 5)" = 5 ] || fail "nginx logged $(wc -l < "$ALOG")"
[ "$(awk '$1 == "r" && $3 == "TLSv1.3"' "$ALOG" | wc -l)" = 4 ] ||
    fail "nginx: $(sort "$ALOG" | uniq -c)"
ok "nginx: TLS 1.3 with resumption"

# A handshake nginx refuses (we demand TLS 1.0, which it does not offer).
hp --ssl --ssl-protocol TLSv1.0 --num-conns 3 --uri /1k.html
expect_rc 0
expect_counts 3 0 0
expect '^TLS: handshakes 0 resumed 0 \(0\.0%\) failed 3$'
ok "nginx: refused handshakes are counted, the run goes on"
