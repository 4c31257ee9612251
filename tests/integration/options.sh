#!/bin/sh
# Options that change what goes on the wire or what is printed: --hog,
# --close-with-reset, --no-host-hdr, buffers, --period forms, --client,
# -v (reply-rate samples) and -v -v (lifetime histogram), -d.
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
stop_srv
