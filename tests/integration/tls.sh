#!/bin/sh
# TLS (--ssl) against the fixture in TLS mode, with certificates made at
# test time: plain, keep-alive and pipelined requests, resumption on and
# off, SNI, verification, client certificates, protocol and suite choice,
# and servers that do not speak TLS (counted, the run goes on).
. "$TESTLIB"

if ! command -v openssl >/dev/null 2>&1; then
	skip "the openssl command is not installed (apt-get install openssl)"
fi

# Certificates: a CA, a server certificate it signs (localhost,
# test.example, 127.0.0.1), a client certificate, and an untrusted
# self-signed server certificate.
C=$T_DIR/certs
mkdir -p "$C"
mkcert() {
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -keyout "$C/$1.key" -out "$C/$1.csr" -subj "/CN=$2" \
	    2>/dev/null &&
	printf 'subjectAltName=%s\n' "$3" > "$C/$1.ext" &&
	openssl x509 -req -in "$C/$1.csr" -CA "$C/ca.pem" -CAkey "$C/ca.key" \
	    -CAcreateserial -out "$C/$1.pem" -days 2 -extfile "$C/$1.ext" \
	    2>/dev/null
}
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$C/ca.key" -out "$C/ca.pem" -days 2 -subj /CN=httperf-test-ca \
    2>/dev/null || fail "cannot make a CA"
mkcert srv localhost 'DNS:localhost,DNS:test.example,IP:127.0.0.1' ||
    fail "cannot make the server certificate"
mkcert client client-one 'DNS:client-one' || fail "cannot make a client certificate"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$C/self.key" -out "$C/self.pem" -days 2 -subj /CN=localhost \
    2>/dev/null || fail "cannot make a self-signed certificate"

# tls_log FIELD VALUE: handshakes the fixture logged with FIELD=VALUE.
tls_log() {
	awk -v kv="$1=$2" '$2 == "TLS" { for (i = 4; i <= NF; i++) if ($i == kv) n++ } END { print n + 0 }' \
	    "$T_DIR/srv.log"
}

# expect_tls HANDSHAKES RESUMED FAILED: our TLS line.
expect_tls() {
	expect "^TLS: handshakes $1 resumed $2 \\([0-9.]+%\\) failed $3\$"
}

head -c 102400 /dev/zero | tr '\0' 'p' > "$T_DIR/body"
start_srv -s "$C/srv.pem" -k "$C/srv.key"
for be in $(backends); do
	export HTTPERF_LOOP=$be
	hp --ssl --num-conns 10 --num-calls 5 --uri /size/2000
	expect_rc 0
	expect_classic
	expect_counts 10 50 50
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^TLS handshake time \[ms\]: min [0-9.]+ avg [0-9.]+ max [0-9.]+ median [0-9.]+ p90 [0-9.]+ p99 [0-9.]+$'
	expect '^TLS: protocol TLSv1\.3 cipher [A-Z0-9_-]+$'
	expect ' --ssl '
	ok "$be: keep-alive over TLS"

	hp --ssl --num-conns 4 --num-calls 10 --burst-length 5 \
	    --uri /chunked-trailer/30000/1000
	expect_counts 4 40 40
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Reply size \[B\]: header [0-9.]+ content 30000\.0 footer 38\.0 '
	ok "$be: pipelined chunked replies over TLS"

	# A 200 to a 100 KB POST before the body is read, then a close
	# with the body unread (lighttpd): the write fails, and the reply
	# already there is read before anything fails (before the fix
	# 6 to 22 of 40 were lost and counted connreset; early.sh: TCP).
	hp --ssl --num-conns 40 --uri /early-reply/200/2 --method POST \
	    --body-file "$T_DIR/body" --timeout 10 --send-buffer 4096
	expect_rc 0
	expect_counts 40 40 40
	expect_status 0 40 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Early replies: 40 \(requests cut short 40, request bytes not sent [0-9]+\)$'
	# No close_notify after the failed writes: the sessions still
	# resume (before the fix the library's marking made them not).
	expect_tls 40 39 0
	ok "$be: early reply over TLS, then a reset under the writes: 40 of 40"
done
unset HTTPERF_LOOP

# Resumption: connections one after another offer the previous one's
# session; --ssl-no-reuse forces full handshakes.
: > "$T_DIR/srv.log"
hp --ssl --num-conns 8 --uri /size/10
expect_tls 8 7 0
wait_for_log 8
[ "$(tls_log resumed 1)" = 7 ] || fail "server saw $(tls_log resumed 1) resumed"
: > "$T_DIR/srv.log"
hp --ssl --ssl-no-reuse --num-conns 8 --uri /size/10
expect_tls 8 0 0
wait_for_log 8
[ "$(tls_log resumed 0)" = 8 ] || fail "server saw $(tls_log resumed 1) resumed"
ok "resumption by default, none with --ssl-no-reuse"

# Sessions: a connection per call with HTTP/1.0; each session's later
# connections resume that session's TLS session.
: > "$T_DIR/srv.log"
hp --ssl --wsess 3,4,0 --http-version 1.0 --uri /size/10
expect_counts 12 12 12
expect_tls 12 9 0
ok "sessions resume their own TLS session"

# SNI: the host name, never an IP literal; --tls-server-name wins.
: > "$T_DIR/srv.log"
HP_SERVER=localhost hp --ssl --num-conns 1
HP_SERVER=127.0.0.1 hp --ssl --num-conns 1
HP_SERVER=127.0.0.1 hp --ssl --num-conns 1 --tls-server-name test.example
wait_for_log 3
[ "$(tls_log sni localhost)" = 1 ] && [ "$(tls_log sni -)" = 1 ] &&
    [ "$(tls_log sni test.example)" = 1 ] ||
    fail "SNI: $(grep TLS "$T_DIR/srv.log")"
ok "SNI"

# Verification: the CA given, the name checked.
HP_SERVER=localhost hp --ssl --ssl-verify --ssl-ca-file "$C/ca.pem" \
    --num-conns 3
expect_counts 3 3 3
expect_tls 3 2 0
HP_SERVER=127.0.0.1 hp --ssl --ssl-verify --ssl-ca-file "$C/ca.pem" \
    --num-conns 2 --tls-server-name wrong.example
expect_rc 0
expect_counts 2 0 0
expect_errors 2 0 0 0 0 0 0 0 2
expect_tls 0 0 2
ok "verification against --ssl-ca-file, name mismatch counted"
stop_srv

# An untrusted certificate: failed handshakes are measurements.
start_srv -s "$C/self.pem" -k "$C/self.key"
HP_SERVER=localhost hp --ssl --ssl-verify --ssl-ca-file "$C/ca.pem" \
    --num-conns 5 --rate 50
expect_rc 0
expect_classic
expect_counts 5 0 0
expect_errors 5 0 0 0 0 0 0 0 5
expect_tls 0 0 5
HP_SERVER=localhost hp --ssl --num-conns 2
expect_counts 2 2 2
ok "untrusted certificate: counted with --ssl-verify, accepted without"
stop_srv

# Client certificates required by the server.
start_srv -s "$C/srv.pem" -k "$C/srv.key" -c "$C/ca.pem"
# With TLS 1.3 the client finishes its handshake before the server checks
# the certificate, so the refusal arrives as an alert or a reset on the
# first read: every connection fails, no reply is counted.
hp --ssl --num-conns 3 --uri /size/10
expect_rc 0
expect '^Total: connections 3 requests [0-3] replies 0 '
[ "$(value 'Errors: total' total)" = 3 ] || fail "failures not counted"
: > "$T_DIR/srv.log"
hp --ssl --num-conns 3 --uri /size/10 --ssl-certificate "$C/client.pem" \
    --ssl-key "$C/client.key"
expect_counts 3 3 3
expect_errors 0 0 0 0 0 0 0 0 0
wait_for_log 3
[ "$(tls_log cert client-one)" = 3 ] || fail "client certificate not seen"
ok "client certificate required and presented"
stop_srv

# Protocol and suite choice.
start_srv -s "$C/srv.pem" -k "$C/srv.key"
hp --ssl --ssl-protocol TLSv1.2 --num-conns 3
expect_counts 3 3 3
expect '^TLS: protocol TLSv1\.2 cipher '
expect_tls 3 2 0
hp --ssl --ssl-ciphersuites TLS_CHACHA20_POLY1305_SHA256 --num-conns 1
expect '^TLS: protocol TLSv1\.3 cipher TLS_CHACHA20_POLY1305_SHA256$'
hp --ssl --ssl-protocol TLSv1.2 --ssl-ciphers ECDHE-ECDSA-AES128-GCM-SHA256 \
    --num-conns 1
expect '^TLS: protocol TLSv1\.2 cipher ECDHE-ECDSA-AES128-GCM-SHA256$'
hp --ssl --ssl-ciphers NO-SUCH-CIPHER --num-conns 1
expect_rc 1
ok "--ssl-protocol, --ssl-ciphers, --ssl-ciphersuites"
stop_srv

# A server that issues no new ticket on a resumed connection (-K: as
# lighttpd, h2o and Node): every connection after the first resumes, its
# ticket offered again (before the fix 10 of 20 did: the library marks a
# TLS 1.3 session it resumed as used up).  TLS 1.2 as well, and with the
# server closing each connection.
start_srv -s "$C/srv.pem" -k "$C/srv.key" -K
for proto in TLSv1.3 TLSv1.2; do
	: > "$T_DIR/srv.log"
	hp --ssl --ssl-protocol $proto --num-conns 20 --uri /size/10
	expect_counts 20 20 20
	expect_errors 0 0 0 0 0 0 0 0 0
	expect "^TLS: protocol TLSv1\\.${proto#TLSv1.} cipher "
	expect_tls 20 19 0
	wait_for_log 20
	[ "$(tls_log resumed 1)" = 19 ] ||
	    fail "$proto: the server saw $(tls_log resumed 1) resumed of 19"
	: > "$T_DIR/srv.log"
	hp --ssl --ssl-protocol $proto --num-conns 10 --uri /close/10
	expect_counts 10 10 10
	expect_tls 10 9 0
done
ok "tickets not renewed on resumption: offered again, 19 of 20 resumed"
stop_srv

# A plain HTTP server, and a server sending garbage, on the TLS port.
start_srv
hp --ssl --num-conns 4 --rate 100
expect_rc 0
expect_classic
expect_counts 4 0 0
expect_tls 0 0 4
[ "$(value 'Errors: total' total)" = 4 ] || fail "failures not counted"
stop_srv
start_srv -G
hp --ssl --num-conns 4 --rate 100
expect_rc 0
expect_counts 4 0 0
expect_tls 0 0 4
ok "plain HTTP and garbage on the TLS port: counted, run goes on"
stop_srv
