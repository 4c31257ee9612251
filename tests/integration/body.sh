#!/bin/sh
# Request bodies (--body, --body-file) reach the server intact with any
# method; --add-header-file lines are sent; --myaddr spreads connections
# over several source addresses.
. "$TESTLIB"

start_srv

# --body with --add-header's escapes; the fixture logs each body's hash.
: > "$T_DIR/srv.log"
hp --num-conns 2 --num-calls 3 --method POST --uri /body-md --body 'a=1&b=2\n'
expect_rc 0
expect_counts 2 6 6
expect_errors 0 0 0 0 0 0 0 0 0
printf 'a=1&b=2\r\n' > "$T_DIR/b1"
want=$("$TESTSRV" -H "$T_DIR/b1")
wait_for_log 6
n=$(awk -v h="b=$want" '$2 == "POST" && $4 == 9 && $5 == h' "$T_DIR/srv.log" | wc -l)
[ "$n" = 6 ] || fail "bodies: $(cat "$T_DIR/srv.log")"
ok "--body with escapes, POST"

# --body-file: 1 MB of binary data, sent with PUT and with GET.
head -c 1048576 /dev/urandom > "$T_DIR/b2"
want=$("$TESTSRV" -H "$T_DIR/b2")
for m in PUT GET; do
	: > "$T_DIR/srv.log"
	hp --num-conns 2 --num-calls 2 --method $m --uri /echo-body \
	    --body-file "$T_DIR/b2"
	expect_counts 2 4 4
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Reply size \[B\]: header [0-9.]+ content 1048576\.0 '
	wait_for_log 4
	n=$(awk -v h="b=$want" -v m=$m '$2 == m && $4 == 1048576 && $5 == h' \
	    "$T_DIR/srv.log" | wc -l)
	[ "$n" = 4 ] || fail "$m bodies: $(cat "$T_DIR/srv.log")"
done
ok "--body-file: 1 MB intact with PUT and GET"

# --add-header-file: LF line ends become CR LF; blank lines are dropped.
printf 'X-One: 1\n\nX-Two: two\n' > "$T_DIR/hdrs"
hp --num-conns 1 --uri /echo --add-header-file "$T_DIR/hdrs" \
    --add-header 'X-Zero: 0\n'
ver=$("$HP" --version | sed -n 's/.*httperf-\([0-9.]*\).*/\1/p')
len=$(printf 'GET /echo HTTP/1.1\r\nUser-Agent: httperf/%s\r\nHost: 127.0.0.1:%s\r\nX-Zero: 0\r\nX-One: 1\r\nX-Two: two\r\n\r\n' \
    "$ver" "$PORT" | wc -c)
expect "^Request size \[B\]: $len\.0\$"
expect "^Reply size \[B\]: header [0-9.]+ content $len\.0 "
ok "--add-header-file"

# Host: --server gets ":port" when the port is not the default, while
# --server-name is sent exactly as given (as 0.9.0 did).  /echo sends
# back the request the server saw.
host_seen() {
	grep -a '^RB0:Host:' "$OUT" | tr -d '\r'
}
hp --num-conns 1 --uri /echo --print-reply=body
[ "$(host_seen)" = "RB0:Host: 127.0.0.1:$PORT" ] || fail "Host: $(host_seen)"
for name in example.test www.example.test:8080 ::1; do
	hp --num-conns 1 --uri /echo --print-reply=body --server-name "$name"
	expect_counts 1 1 1
	[ "$(host_seen)" = "RB0:Host: $name" ] || fail "Host: $(host_seen)"
done
ok "Host: --server with its port, --server-name exactly"

# --myaddr: two loopback sources, both seen by the server.
: > "$T_DIR/srv.log"
hp --num-conns 10 --myaddr 127.0.0.2 --myaddr 127.0.0.3 --uri /size/5
expect_counts 10 10 10
expect_errors 0 0 0 0 0 0 0 0 0
for a in 127.0.0.2 127.0.0.3; do
	n=$(awk -v a=$a '$2 == "PEER" && $3 == a' "$T_DIR/srv.log" | wc -l)
	[ "$n" = 5 ] || fail "$a: $n connections: $(grep PEER "$T_DIR/srv.log")"
done
: > "$T_DIR/srv.log"
hp --num-conns 4 --myaddr 127.0.0.4-127.0.0.5 --hog --uri /size/5
expect_counts 4 4 4
n=$(awk '$2 == "PEER" && ($3 == "127.0.0.4" || $3 == "127.0.0.5")' \
    "$T_DIR/srv.log" | wc -l)
[ "$n" = 4 ] || fail "range: $(grep PEER "$T_DIR/srv.log")"
ok "--myaddr spreads connections over source addresses"

hp --num-conns 1 --myaddr ::1
expect_rc 1
grep -q -- '--myaddr' "$OUT.err" || fail "family mismatch not reported"
ok "--myaddr of the wrong family is an error"
stop_srv
