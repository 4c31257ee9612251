#!/bin/sh
# TLS against a real server: nginx with TLS on a loopback port.  Counts
# must be exact, nginx's log must show resumed sessions by default and
# none with --ssl-no-reuse, and the SNI name must reach it.
. "$TESTLIB"

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$NGINX" ] || ! command -v openssl >/dev/null 2>&1; then
	skip "nginx or openssl is not installed (apt-get install nginx-light openssl)"
fi

start_srv
NPORT=$PORT
stop_srv

N=$T_DIR/nginx
mkdir -p "$N/html" "$N/logs"
head -c 1024 /dev/zero | tr '\0' 't' > "$N/html/1k.html"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$N/key.pem" -out "$N/cert.pem" -days 2 -subj /CN=localhost \
    2>/dev/null || fail "cannot make a certificate"
cat > "$N/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $N/nginx.pid;
error_log $N/logs/error.log;
$( [ "$(id -u)" = 0 ] && echo "user root;" )
events { worker_connections 4096; }
http {
	log_format tls '\$ssl_session_reused \$ssl_server_name \$ssl_protocol \$status';
	access_log $N/logs/access.log tls;
	client_body_temp_path $N/tmp;
	proxy_temp_path $N/tmp;
	fastcgi_temp_path $N/tmp;
	keepalive_requests 100000;
	ssl_session_cache shared:httperf:1m;
	server {
		listen 127.0.0.1:$NPORT ssl;
		ssl_certificate $N/cert.pem;
		ssl_certificate_key $N/key.pem;
		ssl_protocols TLSv1.2 TLSv1.3;
		root $N/html;
	}
}
CONF
"$NGINX" -p "$N" -c "$N/nginx.conf" 2> "$N/stderr" &
T_PIDS="$T_PIDS $!"
PORT=$NPORT
ALOG=$N/logs/access.log
i=0
until "$HP" --server 127.0.0.1 --port "$PORT" --ssl --uri /1k.html \
    --num-conns 1 2>/dev/null | grep -q '2xx=1 '; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat "$N/stderr" >&2; fail "nginx did not start"; }
	sleep 0.05
done

# log_lines N: waits (bounded) for N lines in nginx's log, prints them.
log_lines() {
	i=0
	while [ "$(wc -l < "$ALOG")" -lt "$1" ] && [ $i -lt 100 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	sleep 0.1
	wc -l < "$ALOG" | tr -d ' '
}
log_lines 1 > /dev/null

: > "$ALOG"
HP_SERVER=localhost hp --ssl --num-conns 20 --num-calls 5 --uri /1k.html
expect_rc 0
expect_counts 20 100 100
expect_errors 0 0 0 0 0 0 0 0 0
expect '^TLS: handshakes 20 resumed 19 '
[ "$(log_lines 100)" = 100 ] || fail "nginx logged $(wc -l < "$ALOG")"
n=$(awk '$1 == "r" && $2 == "localhost"' "$ALOG" | wc -l)
[ "$n" = 95 ] || fail "nginx saw $n requests on resumed sessions: $(sort "$ALOG" | uniq -c)"
ok "nginx: resumed sessions by default, SNI sent"

: > "$ALOG"
HP_SERVER=localhost hp --ssl --ssl-no-reuse --num-conns 20 --num-calls 5 \
    --uri /1k.html
expect_counts 20 100 100
expect '^TLS: handshakes 20 resumed 0 '
[ "$(log_lines 100)" = 100 ] || fail "nginx logged $(wc -l < "$ALOG")"
n=$(awk '$1 == "r"' "$ALOG" | wc -l)
[ "$n" = 0 ] || fail "nginx saw $n resumed requests with --ssl-no-reuse"
ok "nginx: --ssl-no-reuse gives full handshakes"

: > "$ALOG"
hp --ssl --wsess 5,4,0 --http-version 1.0 --uri /1k.html
expect "^Session rate \[sess/s\]: .* \(5/5\)\$"
expect_counts 20 20 20
expect '^TLS: handshakes 20 resumed 15 '
[ "$(log_lines 20)" = 20 ] || fail "nginx logged $(wc -l < "$ALOG")"
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
[ "$(log_lines 5)" = 5 ] || fail "nginx logged $(wc -l < "$ALOG")"
[ "$(awk '$1 == "r" && $3 == "TLSv1.3"' "$ALOG" | wc -l)" = 4 ] ||
    fail "nginx: $(sort "$ALOG" | uniq -c)"
ok "nginx: TLS 1.3 with resumption"

# A handshake nginx refuses (we demand TLS 1.0, which it does not offer).
hp --ssl --ssl-protocol TLSv1.0 --num-conns 3 --uri /1k.html
expect_rc 0
expect_counts 3 0 0
expect '^TLS: handshakes 0 resumed 0 \(0\.0%\) failed 3$'
ok "nginx: refused handshakes are counted, the run goes on"
