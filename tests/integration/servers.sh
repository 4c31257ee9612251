#!/bin/sh
# --servers FILE against three nginx servers on three loopback ports,
# whose access log names the port and the Host of every request: each
# connection (or session) takes the next server round-robin with that
# server's Host, and the per-server lines count what each server logged.
# A server nobody listens on has its refused connections on its line
# only.  --server with --servers, and a bad line, are refused before any
# load.
. "$TESTLIB"

nginx_need openssl

free_ports 6
set -- $PORTS
P1=$1 P2=$2 P3=$3 PDOWN=$4 PT1=$5 PT2=$6
N=$T_DIR/nginx
nginx_cert "$N"
nginx_start "$N" '$server_port $http_host $request_uri $ssl_server_name' \
    --server 127.0.0.1 --port "$P1" --uri /1k.html <<CONF
	server { listen 127.0.0.1:$P1; root $N/html; }
	server { listen 127.0.0.1:$P2; root $N/html; }
	server { listen 127.0.0.1:$P3; root $N/html; }
	server {
		listen 127.0.0.1:$PT1 ssl;
		listen 127.0.0.1:$PT2 ssl;
		ssl_certificate $N/cert.pem;
		ssl_certificate_key $N/key.pem;
		root $N/html;
	}
CONF

# hps ARGS...: httperf without hp's --server and --port, bounded.
hps() {
	timeout 60 "$HP" "$@" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf $*"
}

# logged PORT HOST URI: the requests the log has for PORT, and how many
# of them had another Host or URI than HOST and URI.
logged() {
	awk -v p="$1" -v h="$2" -v u="$3" '$1 == p { n++; if ($2 != h ||
	    $3 != u) bad++ } END { print n + 0, bad + 0 }' "$ALOG"
}

# server_line NAME C R P E F: the per-server line of NAME.
server_line() {
	expect "^Server $1: connections $2 requests $3 replies $4 errors $5 connrefused $6 client-timo 0 reply-p99 [0-9]+\.[0-9]{3} ms\$"
}

F=$T_DIR/servers
cat > "$F" <<EOF2
# three servers, three forms
127.0.0.1:$P1

  localhost:$P2
http://127.0.0.1:$P3/1k.html?x
EOF2
: > "$ALOG"
hps --servers "$F" --num-conns 30 --num-calls 2 --uri /1k.html \
    --json "$T_DIR/r.json"
expect_rc 0
expect "^httperf --client=0/1 --servers=$F --port=80 --uri=/1k\.html "
expect_not "^httperf .* --server="
expect_classic
expect_counts 30 60 60
expect_status 0 60 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 60)
[ "$n" = 60 ] || fail "nginx logged $n requests, expected 60"
[ "$(logged "$P1" "127.0.0.1:$P1" /1k.html)" = "20 0" ] ||
    fail "port $P1: $(logged "$P1" "127.0.0.1:$P1" /1k.html) (requests, bad)"
[ "$(logged "$P2" "localhost:$P2" /1k.html)" = "20 0" ] ||
    fail "port $P2: $(logged "$P2" "localhost:$P2" /1k.html) (requests, bad)"
# A URL's path and query are its server's URI.
[ "$(logged "$P3" "127.0.0.1:$P3" '/1k.html?x')" = "20 0" ] ||
    fail "port $P3: $(logged "$P3" "127.0.0.1:$P3" '/1k.html?x')"
server_line "127\.0\.0\.1:$P1" 10 20 20 0 0
server_line "localhost:$P2" 10 20 20 0 0
server_line "127\.0\.0\.1:$P3" 10 20 20 0 0
# After the classic report and the percentile lines, in the file's order.
awk '/^Errors: fd-unavail/ { e = NR } /^Reply time percentiles/ { r = NR }
    /^Server / { s[++n] = NR; name[n] = $2 }
    END { if (!(e < r && r < s[1] && s[1] + 1 == s[2] && s[2] + 1 == s[3]))
	exit 1 }' "$OUT" || fail "the Server lines are not last, in order"
validate_json "$T_DIR/r.json"
[ "$(json_get "$T_DIR/r.json" stats.servers.servers.1.server)" = \
    "localhost:$P2" ] || fail "stats.servers.servers[1] is not localhost:$P2"
[ "$(json_get "$T_DIR/r.json" stats.servers.servers.2.replies)" = 20 ] ||
    fail "stats.servers.servers[2].replies is not 20"
ok "3 servers, 30 connections of 2 calls: 20 requests each with its Host, the lines equal the log"

# Sessions: each session takes the next server, and all its calls go
# there.
: > "$ALOG"
hps --servers "$F" --wsess 6,3,0 --rate 100 --uri /1k.html
expect_rc 0
expect_counts 6 18 18
n=$(nginx_logged 18)
[ "$n" = 18 ] || fail "nginx logged $n requests, expected 18"
[ "$(logged "$P2" "localhost:$P2" /1k.html)" = "6 0" ] ||
    fail "sessions, port $P2: $(logged "$P2" "localhost:$P2" /1k.html)"
server_line "127\.0\.0\.1:$P1" 2 6 6 0 0
server_line "localhost:$P2" 2 6 6 0 0
ok "6 sessions of 3 calls: 2 sessions and 6 requests a server"

# --merge of two clients sums each server's line: the same servers in
# the same order, whatever the file's path; another order is refused.
cp "$F" "$T_DIR/copy"
awk '!/^#/ && NF' "$F" | sort -r > "$T_DIR/order"
for c in 0 1; do
	f=$F
	[ $c = 1 ] && f=$T_DIR/copy
	hps --servers "$f" --client $c/2 --num-conns 3 --num-calls 2 \
	    --uri /1k.html --json "$T_DIR/c$c.json"
	expect_rc 0
done
hps --servers "$T_DIR/order" --client 1/2 --num-conns 3 --num-calls 2 \
    --uri /1k.html --json "$T_DIR/o1.json"
expect_rc 0
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" > "$OUT" \
    2> "$OUT.err" || fail "--merge failed: $(cat "$OUT.err")"
server_line "127\.0\.0\.1:$P1" 2 4 4 0 0
server_line "localhost:$P2" 2 4 4 0 0
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/o1.json" > "$OUT" \
    2> "$OUT.err"
[ $? = 1 ] || fail "--merge of another order did not fail"
grep -q "stats.servers.servers\[0\].server: differs from" "$OUT.err" ||
    fail "--merge of another order: $(cat "$OUT.err")"
ok "--merge sums the servers' lines; another order refused"

# One server down: its refused connections are on its line, the others
# answer as before.
printf '127.0.0.1:%s\n127.0.0.1:%s\nlocalhost:%s\n' "$P1" "$PDOWN" "$P2" \
    > "$T_DIR/down"
: > "$ALOG"
hps --servers "$T_DIR/down" --num-conns 30 --num-calls 1 --uri /1k.html
expect_rc 0
expect_counts 30 20 20
expect_errors 10 0 0 10 0 0 0 0 0
n=$(nginx_logged 20)
[ "$n" = 20 ] || fail "nginx logged $n requests, expected 20"
[ "$(logged "$P1" "127.0.0.1:$P1" /1k.html)" = "10 0" ] ||
    fail "down: port $P1: $(logged "$P1" "127.0.0.1:$P1" /1k.html)"
server_line "127\.0\.0\.1:$P1" 10 10 10 0 0
server_line "127\.0\.0\.1:$PDOWN" 10 0 0 10 10
server_line "localhost:$P2" 10 10 10 0 0
ok "a server down: its 10 connrefused on its line, the others unaffected"

# Sessions with a server down: all their failures on its line, which
# with the others' add up to the classic totals.
hps --servers "$T_DIR/down" --wsess 6,2,0 --rate 100 --uri /1k.html
expect_rc 0
server_line "127\.0\.0\.1:$P1" 2 4 4 0 0
server_line "localhost:$P2" 2 4 4 0 0
expect "^Server 127\.0\.0\.1:$PDOWN: connections 2 requests 0 replies 0 errors [1-9][0-9]* connrefused 2 "
sums=$(awk '/^Total: / { r = $5; p = $7 } /^Errors: total / { e = $3 }
    /^Server / { sr += $6; sp += $8; se += $10 }
    END { print (sr == r && sp == p && se == e) ? "ok" : r " " p " " e \
	" != " sr " " sp " " se }' "$OUT")
[ "$sums" = ok ] || fail "the Server lines do not add up: $sums"
ok "sessions with a server down: its failures on its line, the sums are the totals"

# TLS: each server its own SNI (none for an address); an https URL is
# reached with TLS beside a plain server, without --ssl.
printf 'localhost:%s\n127.0.0.1:%s\n' "$PT1" "$PT2" > "$T_DIR/tls"
: > "$ALOG"
hps --servers "$T_DIR/tls" --ssl --num-conns 10 --num-calls 2 \
    --uri /1k.html
expect_rc 0
expect_counts 10 20 20
expect '^TLS: handshakes 10 '
[ "$(nginx_logged 20)" = 20 ] || fail "nginx logged $(wc -l < "$ALOG")"
n=$(awk -v p="$PT1" -v h="localhost:$PT1" '$1 == p && $2 == h &&
    $4 == "localhost"' "$ALOG" | wc -l | tr -d ' ')
[ "$n" = 10 ] || fail "SNI localhost on $PT1: $n of 10: $(cat "$ALOG")"
n=$(awk -v p="$PT2" -v h="127.0.0.1:$PT2" '$1 == p && $2 == h &&
    $4 == "-"' "$ALOG" | wc -l | tr -d ' ')
[ "$n" = 10 ] || fail "no SNI on $PT2: $n of 10: $(cat "$ALOG")"
server_line "localhost:$PT1" 5 10 10 0 0
server_line "127\.0\.0\.1:$PT2" 5 10 10 0 0
printf 'https://localhost:%s/1k.html\n127.0.0.1:%s\n' "$PT1" "$P1" \
    > "$T_DIR/mixed"
: > "$ALOG"
hps --servers "$T_DIR/mixed" --num-conns 4 --uri /1k.html
expect_rc 0
expect_counts 4 4 4
[ "$(nginx_logged 4)" = 4 ] || fail "nginx logged $(wc -l < "$ALOG")"
n=$(awk -v p="$PT1" '$1 == p && $2 == "localhost:" p && $4 == "localhost"' \
    "$ALOG" | wc -l | tr -d ' ')
[ "$n" = 2 ] || fail "https URL: $n of 2 over TLS: $(cat "$ALOG")"
ok "TLS: SNI per server, an https URL beside a plain server"

# Refused before any load: --server with it, a bad line.
: > "$ALOG"
hps --servers "$F" --server 127.0.0.1 --num-conns 3
expect_rc 1
grep -q -- "--servers: cannot be used with --server" "$OUT.err" ||
    fail "--server with --servers: $(cat "$OUT.err")"
printf '127.0.0.1:%s\n\n# x\nlocalhost:%s/path\n' "$P1" "$P2" \
    > "$T_DIR/bad"
hps --servers "$T_DIR/bad" --num-conns 3
expect_rc 1
[ "$(cat "$OUT.err")" = "httperf: --servers: $T_DIR/bad:4: 'localhost:$P2/path': not a host, host:port, [IPv6]:port or http(s) URL" ] ||
    fail "bad line: $(cat "$OUT.err")"
[ ! -s "$OUT" ] || fail "a report after a bad line: $(head -3 "$OUT")"
sleep 0.2
[ ! -s "$ALOG" ] || fail "requests sent after a refusal: $(head -3 "$ALOG")"
ok "--server with --servers and a bad line refused, nothing sent"
