#!/bin/sh
# --unix-socket: every workload (--num-conns, --wsess, --call-rate,
# --wsesslog, --wlog, --wset, POST bodies, session cookies) against the
# fixture listening on a Unix-domain socket (counts exact against its log),
# TLS over the socket, the Host header still from --server / --server-name,
# a path missing at start (an error, nothing sent), the socket removed or
# replaced during a run (counted as connrefused), a path component replaced
# by a file or a datagram socket in its place (counted as other), the
# options it excludes, and nginx listening on unix: (counts against its
# access log).
. "$TESTLIB"

SOCK=$T_DIR/srv.sock
start_srv -U "$SOCK"
# The port only makes the Host header now.
PORT=8080

for be in $(backends); do
	export HTTPERF_LOOP=$be
	: > "$T_DIR/srv.log"
	hp --unix-socket "$SOCK" --num-conns 10 --num-calls 5 --uri /size/100
	expect_rc 0
	expect_classic
	expect_counts 10 50 50
	expect_calls_ended
	expect_status 0 50 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect " --unix-socket=$SOCK\$"
	wait_for_log 50
	[ "$(srv_requests)" = 50 ] || fail "the fixture logged $(srv_requests) requests"
	[ "$(grep -c ' PEER unix$' "$T_DIR/srv.log")" = 10 ] ||
	    fail "the fixture saw $(grep -c ' PEER unix$' "$T_DIR/srv.log") unix connections"
	ok "$be: --num-conns/--num-calls over a Unix socket"

	: > "$T_DIR/srv.log"
	hp --unix-socket "$SOCK" --wsess 5,4,0 --burst-length 2 --rate 50 \
	    --uri /size/10
	expect_rc 0
	expect "^Session rate \[sess/s\]: .* \(5/5\)\$"
	expect_counts 5 20 20
	expect_calls_ended
	expect_errors 0 0 0 0 0 0 0 0 0
	wait_for_log 20
	[ "$(srv_requests)" = 20 ] || fail "the fixture logged $(srv_requests) requests"
	ok "$be: --wsess over a Unix socket"

	: > "$T_DIR/srv.log"
	hp --unix-socket "$SOCK" --call-rate 200 --num-calls 40 \
	    --max-connections 4 --uri /size/10
	expect_rc 0
	expect "^Total: connections [1-4] requests 40 replies 40 "
	expect_errors 0 0 0 0 0 0 0 0 0
	expect_calls_ended
	wait_for_log 40
	[ "$(srv_requests)" = 40 ] || fail "the fixture logged $(srv_requests) requests"
	ok "$be: --call-rate over a Unix socket"
done
export HTTPERF_LOOP=epoll

# srv_uris: the URIs of the requests the fixture logged, in order.
srv_uris() {
	awk '$2 != "PEER" { print $3 }' "$T_DIR/srv.log" | tr '\n' ' '
}

# --wsesslog: bursts (pipelined on the session's connection), think times,
# a POST body, round-robin over the file's two sessions.
cat > "$T_DIR/site.sess" <<'SESS'
/size/100 think=0.2
	/size/10
	/size/20
/echo-body method=POST contents="k=v&w=\"x\"" think=0.2
/size/30

/size/5 method=HEAD
SESS
: > "$T_DIR/srv.log"
hp --unix-socket "$SOCK" --wsesslog 3,0,"$T_DIR/site.sess" --rate 20
expect_rc 0
expect_classic
expect "^Session rate \[sess/s\]: .* \(3/3\)\$"
expect_counts 3 11 11
expect_calls_ended
expect_status 0 11 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Session: avg 1\.00 connections/session$'
expect '^Session length histogram: 0 1 0 0 0 2$'
# Two think times of 0.2 s in each long session (the average of 2 long
# and 1 short is above 0.25 s).
life=$(sed -n 's/^Session lifetime \[s\]: //p' "$OUT")
awk -v l="$life" 'BEGIN { exit !(l >= 0.25 && l < 5) }' ||
    fail "session lifetime $life without the think times"
wait_for_log 11
got=$(awk '$2 != "PEER" { print $2, $3 }' "$T_DIR/srv.log" | sort | uniq -c |
    awk '{ printf "%s %s %s,", $1, $2, $3 }')
[ "$got" = "2 GET /size/10,2 GET /size/100,2 GET /size/20,2 GET /size/30,1 HEAD /size/5,2 POST /echo-body," ] ||
    fail "the fixture got: $got"
printf 'k=v&w="x"' > "$T_DIR/sbody"
want=$("$TESTSRV" -H "$T_DIR/sbody")
n=$(awk -v h="b=$want" '$3 == "/echo-body" && $4 == 9 && $5 == h' "$T_DIR/srv.log" | wc -l)
[ "$n" = 2 ] || fail "POST bodies: $(grep echo-body "$T_DIR/srv.log")"
[ "$(grep -c ' PEER unix$' "$T_DIR/srv.log")" = 3 ] ||
    fail "the fixture saw $(grep -c ' PEER unix$' "$T_DIR/srv.log") connections"
ok "--wsesslog over a Unix socket: bursts, think times, a POST body"

# --wlog: the exact URI sequence, wrapping (y) and not (n).
printf '/size/1\n/size/2\n/size/3\n' > "$T_DIR/uris.log"
: > "$T_DIR/srv.log"
hp --unix-socket "$SOCK" --num-conns 4 --num-calls 2 --wlog "y,$T_DIR/uris.log"
expect_rc 0
expect_counts 4 8 8
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
wait_for_log 8
[ "$(srv_uris)" = "/size/1 /size/2 /size/3 /size/1 /size/2 /size/3 /size/1 /size/2 " ] ||
    fail "--wlog y: URIs $(srv_uris)"
: > "$T_DIR/srv.log"
hp --unix-socket "$SOCK" --num-conns 10 --wlog "n,$T_DIR/uris.log"
expect_rc 0
expect '^Total: connections [0-9]+ requests 3 replies 3 '
expect_errors 0 0 0 0 0 0 0 0 0
expect_calls_ended
wait_for_log 3
[ "$(srv_uris)" = "/size/1 /size/2 /size/3 " ] || fail "--wlog n: URIs $(srv_uris)"
ok "--wlog over a Unix socket: the exact URIs"

# --wset: the generated URIs, in order.
: > "$T_DIR/srv.log"
hp --unix-socket "$SOCK" --num-conns 8 --wset 20,0.5 --uri /w/
expect_rc 0
expect_counts 8 8 8
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
wait_for_log 8
[ "$(srv_uris)" = "/w/0/0.html /w/0/1.html /w/0/1.html /w/0/2.html /w/0/2.html /w/0/3.html /w/0/3.html /w/0/4.html " ] ||
    fail "--wset: URIs $(srv_uris)"
ok "--wset over a Unix socket: the exact URIs"

# --method POST --body: every body arrives intact.
: > "$T_DIR/srv.log"
hp --unix-socket "$SOCK" --num-conns 3 --num-calls 4 --method POST \
    --uri /echo-body --body 'a=1&b=2\n'
expect_rc 0
expect_counts 3 12 12
expect_calls_ended
expect_status 0 12 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Reply size \[B\]: header [0-9.]+ content 9\.0 '
printf 'a=1&b=2\r\n' > "$T_DIR/pbody"
want=$("$TESTSRV" -H "$T_DIR/pbody")
wait_for_log 12
n=$(awk -v h="b=$want" '$2 == "POST" && $3 == "/echo-body" && $4 == 9 && $5 == h' \
    "$T_DIR/srv.log" | wc -l)
[ "$n" = 12 ] || fail "POST bodies: $(cat "$T_DIR/srv.log")"
ok "--method POST --body over a Unix socket: 12 bodies intact"

# Cookies: set by the first reply of a session, sent back on its later
# calls (the fixture checks all 5 of 40 bytes; 4xx if one is missing).
cat > "$T_DIR/cookie.sess" <<'SESS'
/setcookie/5/40
/cookies-check/5/40
	/cookies-check/5/40
/cookies-check/5/40
SESS
: > "$T_DIR/srv.log"
hp --unix-socket "$SOCK" --wsesslog 3,0,"$T_DIR/cookie.sess" --session-cookies
expect_rc 0
expect "^Session rate \[sess/s\]: .* \(3/3\)\$"
expect_counts 3 12 12
expect_calls_ended
expect_status 0 12 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Session cookies: ignored 0$'
wait_for_log 12
n=$(awk '$3 == "/cookies-check/5/40" && $6 != "c=-"' "$T_DIR/srv.log" | wc -l)
[ "$n" = 9 ] || fail "Cookie headers: $(awk '{ print $3, $6 }' "$T_DIR/srv.log")"
n=$(awk '$3 == "/setcookie/5/40" && $6 == "c=-"' "$T_DIR/srv.log" | wc -l)
[ "$n" = 3 ] || fail "cookies sent before they were set: $(awk '{ print $3, $6 }' "$T_DIR/srv.log")"
hp --unix-socket "$SOCK" --wsesslog 1,0,"$T_DIR/cookie.sess"
expect_status 0 1 0 3 0
expect_calls_ended
ok "--session-cookies over a Unix socket: sent back on every later call"

# Host: --server-name, else --server with the port.
hp --unix-socket "$SOCK" --uri /echo --print-reply=body
expect "^RB0:Host: 127\\.0\\.0\\.1:8080[[:space:]]*\$"
HP_SERVER=origin.test hp --unix-socket "$SOCK" --uri /echo \
    --server-name vhost.test --print-reply=body
expect "^RB0:Host: vhost\\.test[[:space:]]*\$"
expect_counts 1 1 1
expect_calls_ended
ok "Host header from --server / --server-name"

# A path missing at start, or no socket: an error before anything.
: > "$T_DIR/srv.log"
hp --unix-socket "$T_DIR/missing.sock" --num-conns 5
expect_rc 1
grep -q "^httperf: --unix-socket: $T_DIR/missing.sock: No such file or directory\$" "$OUT.err" ||
    fail "no clear error for a missing socket"
[ ! -s "$OUT" ] || fail "a report for a run that could not start"
hp --unix-socket "$T_DIR/srv.log" --num-conns 5
expect_rc 1
grep -q "^httperf: --unix-socket: $T_DIR/srv.log: not a socket\$" "$OUT.err" ||
    fail "no clear error for a path that is no socket"
[ "$(srv_requests)" = 0 ] || fail "requests were sent"
ok "missing or non-socket path at start: exit 1, nothing sent"

# Options a Unix socket excludes.
for opt in --hog "--myaddr 127.0.0.1" "--proxy 127.0.0.1:3128" --proxy-env; do
	# shellcheck disable=SC2086
	hp --unix-socket "$SOCK" $opt
	expect_rc 1
	grep -q "^httperf: ${opt%% *}: cannot be used with --unix-socket" "$OUT.err" ||
	    fail "$opt with --unix-socket not refused"
done
ok "--hog, --myaddr, --proxy, --proxy-env refused with --unix-socket"

# The socket goes away during the run: the connections after it are
# refused (ENOENT counts as connrefused), the run goes on; then a regular
# file in its place: refused too.  Every connection is a reply or an error.
: > "$T_DIR/srv.log"
(sleep 0.5; rm -f "$SOCK") &
BG=$!
hp --unix-socket "$SOCK" --num-conns 100 --rate 100 --uri /size/10
wait "$BG"
expect_rc 0
replies=$(value "Total:" replies)
refused=$(value "Errors: total" connrefused)
[ "$replies" -gt 0 ] && [ "$refused" -gt 0 ] ||
    fail "expected replies and refusals, got $replies and $refused"
[ $((replies + refused)) = 100 ] || fail "$replies replies + $refused refused != 100"
expect "^Errors: total $refused client-timo 0 socket-timo 0 connrefused $refused connreset 0\$"
expect_status 0 "$replies" 0 0 0
expect_calls_ended
[ "$(srv_requests)" = "$replies" ] || fail "the fixture logged $(srv_requests), we got $replies replies"
ok "socket removed mid-run: $replies replies, $refused connrefused"
stop_srv
start_srv -U "$SOCK"
PORT=8080
(sleep 0.3; rm -f "$SOCK"; : > "$SOCK") &
BG=$!
hp --unix-socket "$SOCK" --num-conns 60 --rate 100
wait "$BG"
replies=$(value "Total:" replies)
refused=$(value "Errors: total" connrefused)
[ "$replies" -gt 0 ] && [ $((replies + refused)) = 60 ] ||
    fail "a regular file in the socket's place: $replies replies, $refused refused"
ok "a regular file in the socket's place: $refused connrefused"
rm -f "$SOCK"
stop_srv

# Any other failure to connect is `other' (the manual): a directory of the
# path replaced by a regular file (ENOTDIR; as root EACCES cannot be
# provoked), a datagram socket in the stream socket's place (EPROTOTYPE).
# The swap follows the second request the fixture logs, half a second
# before the third connection (--rate 2): 2 replies, 2 errors, exactly.
# swap_after_2 CMD...: runs CMD in the background once the fixture logged
# two requests; sets BG.
swap_after_2() {
	(
		i=0
		while [ "$(srv_requests)" -lt 2 ] && [ $i -lt 500 ]; do
			sleep 0.02
			i=$((i + 1))
		done
		"$@"
	) &
	BG=$!
}
# enotdir DIR: DIR becomes a regular file (the socket stays bound, in
# DIR.old).
enotdir() {
	mv "$1" "$1.old" && : > "$1"
}
mkdir "$T_DIR/d"
start_srv -U "$T_DIR/d/srv.sock"
PORT=8080
swap_after_2 enotdir "$T_DIR/d"
hp --unix-socket "$T_DIR/d/srv.sock" --num-conns 4 --rate 2 --uri /size/10
wait "$BG"
expect_rc 0
expect_classic
expect_counts 4 2 2
expect_calls_ended
expect_status 0 2 0 0 0
expect_errors 2 0 0 0 0 0 0 0 2
[ -f "$T_DIR/d" ] || fail "the directory was not replaced"
[ "$(srv_requests)" = 2 ] || fail "the fixture logged $(srv_requests) requests"
ok "a path component no directory (ENOTDIR): other 2"
stop_srv

start_srv -U "$SOCK"
PORT=8080
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
time.sleep(60)
' "$T_DIR/dgram.sock" &
DPID=$!
T_PIDS="$T_PIDS $DPID"
wait_path -S "$T_DIR/dgram.sock" "the datagram socket"
# A rename, so that the path is never missing (that is connrefused).
swap_after_2 mv "$T_DIR/dgram.sock" "$SOCK"
hp --unix-socket "$SOCK" --num-conns 4 --rate 2 --uri /size/10
wait "$BG"
expect_rc 0
expect_classic
expect_counts 4 2 2
expect_calls_ended
expect_status 0 2 0 0 0
expect_errors 2 0 0 0 0 0 0 0 2
[ ! -e "$T_DIR/dgram.sock" ] || fail "the datagram socket was not moved"
[ "$(srv_requests)" = 2 ] || fail "the fixture logged $(srv_requests) requests"
ok "a datagram socket in the stream socket's place (EPROTOTYPE): other 2"
kill "$DPID"
rm -f "$SOCK"
stop_srv

# TLS over the Unix socket: SNI from --server, counts exact.
if command -v openssl >/dev/null 2>&1; then
	C=$T_DIR/certs
	mkdir -p "$C"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -keyout "$C/srv.key" -out "$C/srv.pem" -days 2 \
	    -subj /CN=origin.test -addext subjectAltName=DNS:origin.test \
	    2>/dev/null || fail "cannot make a certificate"
	start_srv -U "$SOCK" -s "$C/srv.pem" -k "$C/srv.key"
	PORT=8443
	HP_SERVER=origin.test hp --unix-socket "$SOCK" --ssl --num-conns 5 \
	    --num-calls 4 --ssl-verify --ssl-ca-file "$C/srv.pem" \
	    --uri /size/100
	expect_rc 0
	expect_counts 5 20 20
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^TLS: handshakes 5 resumed [0-9]+ \([0-9.]+%\) failed 0$'
	wait_for_log 25
	n=$(awk '$2 == "GET"' "$T_DIR/srv.log" | wc -l | tr -d ' ')
	[ "$n" = 20 ] || fail "the fixture logged $n requests"
	[ "$(grep -c ' TLS .* sni=origin.test ' "$T_DIR/srv.log")" = 5 ] ||
	    fail "SNI was not origin.test: $(grep ' TLS ' "$T_DIR/srv.log" | head -n 2)"
	ok "TLS over a Unix socket, SNI and verification by --server"
	stop_srv
elif t_strict; then
	fail "the openssl command is missing"
else
	t_skip "the openssl command is not installed: no TLS check"
fi

# A listener that never accepts nor answers: the connect succeeds at once
# (queued), the TLS handshake then waits; --timeout must still end it.
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(16)
time.sleep(60)
' "$T_DIR/silent.sock" &
SPID=$!
T_PIDS="$T_PIDS $SPID"
wait_path -S "$T_DIR/silent.sock" "the silent listener"
for tls in "" --ssl; do
	start=$(date +%s)
	# shellcheck disable=SC2086
	hp --unix-socket "$T_DIR/silent.sock" $tls --num-conns 2 --timeout 1
	end=$(date +%s)
	expect_rc 0
	expect_counts 2 [0-9]+ 0
	expect_calls_ended
	expect_errors 2 2 0 0 0 0 0 0 0
	[ $((end - start)) -lt 10 ] || fail "the run took $((end - start)) s"
	ok "a silent Unix listener${tls:+ (TLS)}: client-timo after --timeout"
done
kill "$SPID"

# nginx on unix:, counts against its access log.
nginx_need
NSOCK=$T_DIR/nginx/nginx.sock
nginx_start "$T_DIR/nginx" "" --unix-socket "$NSOCK" --uri /1k.html <<CONF
	server {
		listen unix:$NSOCK;
		root $T_DIR/nginx/html;
	}
CONF
: > "$ALOG"
hp --unix-socket "$NSOCK" --num-conns 20 --num-calls 5 --rate 200 \
    --uri /1k.html
expect_rc 0
expect_counts 20 100 100
expect_calls_ended
expect_status 0 100 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 100)
[ "$n" = 100 ] || fail "nginx logged $n requests"
[ "$(grep -c '"GET /1k.html HTTP/1.1" 200 1024 ' "$ALOG")" = 100 ] ||
    fail "nginx logged other requests: $(head -n 2 "$ALOG")"
ok "nginx on unix:, exact counts"
