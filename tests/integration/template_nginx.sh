#!/bin/sh
# --template against a real server, as nginx's access log shows it:
# {{seq}} in the URI and {{uuid}} in a header are unique over 100,000
# keep-alive requests (seq 1..100000 once each, 100,000 distinct v4
# uuids); an expanded body's Content-Length is the length of that body,
# whose digits of {{seq}} make it vary, for every request (nginx reads
# exactly Content-Length bytes and logs what it read).
. "$TESTLIB"

nginx_need

# /t answers at once; /b goes to a second server, so that nginx reads
# the whole body first ($request_body in the log; nginx-light has no
# echo module); that one logs nothing.
free_ports 2
set -- $PORTS
P=$1 P_UP=$2
N=$T_DIR/nginx
nginx_start "$N" \
    '$request_method $arg_n "$http_x_id" $content_length $request_body' \
    --server 127.0.0.1 --port "$P" --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$P;
		root $N/html;
		location = /t { return 204; }
		location = /b {
			client_body_buffer_size 64k;
			proxy_pass http://127.0.0.1:$P_UP/ok;
		}
	}
	server {
		listen 127.0.0.1:$P_UP;
		access_log off;
		location /ok { return 200 "ok\n"; }
	}
CONF
PORT=$P

# 100 connections of 1,000 calls each, 100 at a time.
: > "$ALOG"
hp --template --num-conns 100 --num-calls 1000 --rate 1000 \
    --uri '/t?n={{seq}}' --add-header 'X-Id: {{uuid}}\n'
expect_rc 0
expect_counts 100 100000 100000
expect_status 0 100000 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 100000)
[ "$n" = 100000 ] || fail "nginx logged $n requests, expected 100000"
[ "$(awk '$1 != "GET"' "$ALOG" | wc -l | tr -d ' ')" = 0 ] || \
    fail "not a GET: $(awk '$1 != "GET"' "$ALOG" | head -5)"
awk '{ print $2 }' "$ALOG" | sort -n > "$T_DIR/seq"
seq 1 100000 > "$T_DIR/seq.want"
cmp -s "$T_DIR/seq" "$T_DIR/seq.want" || \
    fail "{{seq}} is not 1..100000 once each: $(diff "$T_DIR/seq.want" \
    "$T_DIR/seq" | head -5 | tr '\n' ' ')"
awk -F'"' '{ print $2 }' "$ALOG" > "$T_DIR/uuids"
n=$(grep -Ec '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' \
    "$T_DIR/uuids")
[ "$n" = 100000 ] || fail "v4-shaped uuids: $n of 100000"
n=$(sort -u "$T_DIR/uuids" | wc -l | tr -d ' ')
[ "$n" = 100000 ] || fail "distinct uuids: $n of 100000"
ok "100,000 requests: {{seq}} 1..100000 once each, 100,000 distinct v4 {{uuid}}s"

# bodies FILE LEN: every line of the access log is a POST whose logged
# Content-Length is the length of the body nginx read, which is the
# expansion of '{"n":SEQ,"s":"RANDSTR"}' with LEN characters of [a-z0-9]
# (LEN + 13 bytes and the digits of SEQ), SEQ that of the URI's n=.
# nginx's log writes a quote as \x22.  The bad lines go to FILE.
bodies() {
	awk -v len="$2" '{
		b = $5
		gsub(/\\x22/, "\"", b)
		want = sprintf("{\"n\":%s,\"s\":\"", $2)
		if ($1 != "POST" || $4 != length(b) ||
		    $4 != len + 13 + length($2) ||
		    substr(b, 1, length(want)) != want ||
		    substr(b, length(b) - 1) != "\"}" ||
		    substr(b, length(want) + 1, len) !~ /^[a-z0-9]+$/)
			print
	}' "$ALOG" > "$1"
	[ ! -s "$1" ] || fail "$(wc -l < "$1" | tr -d ' ') requests with a wrong body or Content-Length: $(head -c 600 "$1")"
}

# 10,000 POSTs: {{seq}} of 1 to 5 digits, bodies of 20 to 24 bytes.
: > "$ALOG"
hp --template --num-conns 20 --num-calls 500 --rate 200 --method POST \
    --uri '/b?n={{seq}}' --body '{"n":{{seq}},"s":"{{randstr 6}}"}'
expect_rc 0
expect_counts 20 10000 10000
expect_status 0 10000 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 10000)
[ "$n" = 10000 ] || fail "nginx logged $n requests, expected 10000"
bodies "$T_DIR/bad" 6
[ "$(awk '{ print $4 }' "$ALOG" | sort -un | tr '\n' ' ')" = \
    "20 21 22 23 24 " ] || fail "Content-Lengths: $(awk '{ print $4 }' \
    "$ALOG" | sort -n | uniq -c | tr '\n' ' ')"
ok "10,000 POSTs: Content-Length 20..24 is the expanded body's, for each"

# Larger bodies: 200 of 20,014 to 20,016 bytes.
: > "$ALOG"
hp --template --num-conns 4 --num-calls 50 --method POST \
    --uri '/b?n={{seq}}' --body '{"n":{{seq}},"s":"{{randstr 20000}}"}'
expect_rc 0
expect_counts 4 200 200
expect_status 0 200 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
n=$(nginx_logged 200)
[ "$n" = 200 ] || fail "nginx logged $n requests, expected 200"
bodies "$T_DIR/bad" 20000
ok "200 POSTs of 20,014 to 20,016 bytes: Content-Length right for each"
