#!/bin/sh
# Options that change what goes on the wire or what is printed: --hog,
# --close-with-reset, --no-host-hdr, buffers, --use-timer-cache (which
# changes nothing), --period forms, --client,
# -v (reply-rate samples) and -v -v (lifetime histogram), -d; a URL as the
# argument (http, https, IPv6), --add-header without its \n.
. "$TESTLIB"

start_srv

hp --num-conns 30 --num-calls 2 --rate 300 --hog --uri /size/10
expect_rc 0
expect_counts 30 60 60
expect_errors 0 0 0 0 0 0 0 0 0
expect ' --hog '
ok "--hog"

hp --num-conns 10 --num-calls 2 --close-with-reset --send-buffer 8192 \
    --recv-buffer 65536
expect_counts 10 20 20
expect_errors 0 0 0 0 0 0 0 0 0
expect ' --close-with-reset '
expect ' --send-buffer=8192 --recv-buffer=65536 '
ok "--close-with-reset and socket buffers"

# --use-timer-cache (upstream 0.9.1's): accepted, one line on stderr
# (once, given twice), the run as without it.
hp --num-conns 10 --num-calls 2 --use-timer-cache --use-timer-cache
expect_rc 0
expect_counts 10 20 20
expect_errors 0 0 0 0 0 0 0 0 0
[ "$(cat "$OUT.err")" = "httperf: --use-timer-cache: this httperf reads the clock at every event, so the option changes nothing" ] ||
    fail "--use-timer-cache: not the one line on stderr: $(cat "$OUT.err")"
expect_not 'timer-cache'
ok "--use-timer-cache"

# Without Host the request is just the request line and User-Agent.
hp --num-conns 1 --uri /echo --no-host-hdr
ver=$("$HP" --version | sed -n 's/.*httperf-\([0-9.]*\).*/\1/p')
len=$(printf 'GET /echo HTTP/1.1\r\nUser-Agent: httperf/%s\r\n\r\n' "$ver" | wc -c)
expect "^Request size \[B\]: $len\.0\$"
expect "^Reply size \[B\]: header [0-9.]+ content $len\.0 "
ok "--no-host-hdr leaves no empty line"

hp --num-conns 1 --uri /echo --server-name vhost.test
len=$(printf 'GET /echo HTTP/1.1\r\nUser-Agent: httperf/%s\r\nHost: vhost.test\r\n\r\n' "$ver" | wc -c)
expect "^Request size \[B\]: $len\.0\$"
expect " --server-name=vhost.test "
ok "--server-name"

for p in e0.004 u0.002,0.006 v0.002,0.05,0.004,0.05 d0.003 .003; do
	hp --num-conns 40 --period "$p" --uri /size/10
	expect_rc 0
	expect_counts 40 40 40
	expect_errors 0 0 0 0 0 0 0 0 0
done
expect ' --rate=333.333 '
ok "--period d, u, e, v"

# --client 0/5 takes the first sample after 1 s instead of 5 s.
hp -v --client 0/5 --num-conns 150 --rate 100 --uri /size/10
expect_counts 150 150 150
expect '^reply-rate = [0-9.]+ *$'
expect '\(1 samples\)$'
expect 'maximum number of open descriptors = [0-9]+$'
ok "-v prints reply-rate samples"

hp -v -v --num-conns 20 --uri /delay/5/10
expect '^Connection lifetime histogram \(time in ms\):$'
expect '^ +[0-9]+\.5 [0-9]+$'
ok "-v -v prints the lifetime histogram"

hp -d 3 --num-conns 2 --uri /size/10
grep -q 'status 200' "$OUT.err" || fail "-d 3 printed no call lines"
ok "-d writes debug lines to stderr"

# --add-header without its \n: the line end is added (0.9.0 ran the
# header into the next one, here Content-Length, and got a 400).
hp --num-conns 1 --num-calls 2 --uri /echo --method POST --body '{"a":1}' \
    --add-header 'Content-Type: application/json'
expect_rc 0
expect_counts 1 2 2
expect_status 0 2 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
len=$(printf 'POST /echo HTTP/1.1\r\nUser-Agent: httperf/%s\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}' "$ver" "$PORT" | wc -c)
expect "^Request size \[B\]: $len\.0\$"
ok "--add-header without its line end gets one"

# urlrun ARGS...: httperf with a URL and no --server/--port, bounded.
urlrun() {
	timeout 60 "$HP" "$@" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf $*"
}

# A URL is --server, --port and --uri: the same echo line and request.
hp --num-conns 2 --uri '/echo?x=1'
head -n 1 "$OUT" > "$T_DIR/echo.opts"
urlrun "HTTP://127.0.0.1:$PORT/echo?x=1#frag" --num-conns 2
expect_rc 0
expect_counts 2 2 2
expect_errors 0 0 0 0 0 0 0 0 0
head -n 1 "$OUT" | cmp -s - "$T_DIR/echo.opts" ||
    fail "echo line $(head -n 1 "$OUT"), expected $(cat "$T_DIR/echo.opts")"
len=$(printf 'GET /echo?x=1 HTTP/1.1\r\nUser-Agent: httperf/%s\r\nHost: 127.0.0.1:%s\r\n\r\n' "$ver" "$PORT" | wc -c)
expect "^Request size \[B\]: $len\.0\$"
expect "^Reply size \[B\]: header [0-9.]+ content $len\.0 "
urlrun "http://127.0.0.1:$PORT?q" --num-conns 1
expect_counts 1 1 1
expect " --uri=/\\?q "
ok "a URL argument sets --server, --port and --uri"

# A URL with an option it gives: one line naming both, nothing run.
urlrun --port "$PORT" "http://127.0.0.1:$PORT/"
expect_rc 1
grep -q "^httperf: --port: cannot be used with a URL argument.*('http://127.0.0.1:$PORT/')\$" "$OUT.err" ||
    fail "conflict not reported: $(cat "$OUT.err")"
ok "a URL with --port is refused"
stop_srv

# IPv6: a bracketed literal, Host [::1]:PORT.
if ip -6 addr show lo 2>/dev/null | grep -q '::1'; then
	start_srv -a ::1
	urlrun "http://[::1]:$PORT/echo" --num-conns 2 --num-calls 2
	expect_rc 0
	expect_counts 2 4 4
	expect " --server=::1 --port=$PORT --uri=/echo "
	len=$(printf 'GET /echo HTTP/1.1\r\nUser-Agent: httperf/%s\r\nHost: [::1]:%s\r\n\r\n' "$ver" "$PORT" | wc -c)
	expect "^Reply size \[B\]: header [0-9.]+ content $len\.0 "
	stop_srv
	ok "a URL with an IPv6 literal"
else
	t_skip "URL with IPv6: no ::1 on the loopback interface"
fi

# https:// is --ssl (and its port when none is given).
if command -v openssl >/dev/null 2>&1; then
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -keyout "$T_DIR/k.pem" -out "$T_DIR/c.pem" -days 2 \
	    -subj /CN=localhost 2>/dev/null || fail "cannot make a certificate"
	start_srv -s "$T_DIR/c.pem" -k "$T_DIR/k.pem"
	urlrun "https://127.0.0.1:$PORT/size/10" --num-conns 2
	expect_rc 0
	expect_counts 2 2 2
	expect " --port=$PORT --uri=/size/10 --ssl "
	expect "^TLS: handshakes 2 "
	stop_srv
	ok "an https:// URL is --ssl"
else
	t_skip "https URL: the openssl command is not installed"
fi
