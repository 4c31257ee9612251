#!/bin/sh
# A reply that comes before the request is completely written (a 413 or
# 401 to a large body): when the server keeps the connection the rest of
# the body still goes out and the connection is reused cleanly; when the
# reply closes it nothing more is written and the call is counted as cut
# short.  Never is a request sent inside the previous one's body.  A
# server that closes at once with the body unread resets the connection
# under the writes: its reply is read all the same (tls.sh: over TLS).
. "$TESTLIB"

head -c 2097152 /dev/zero | tr '\0' 'p' > "$T_DIR/body"
want=$("$TESTSRV" -H "$T_DIR/body")

# --send-buffer 4096 (0.9.0's default): with the buffers the kernel sizes
# for itself, 2 MB may be written whole before the server's reply comes.
start_srv
for be in $(backends); do
	export HTTPERF_LOOP=$be
	: > "$T_DIR/srv.log"
	hp --num-conns 3 --num-calls 3 --uri /early-reply/413 --method POST \
	    --body-file "$T_DIR/body" --timeout 10 --send-buffer 4096
	expect_rc 0
	expect_classic
	expect_counts 3 9 9
	expect_status 0 0 0 9 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Request size \[B\]: 2097[0-9.]+$'
	expect '^Early replies: 9 \(requests cut short 0, request bytes not sent 0\)$'
	wait_for_log 9
	n=$(awk -v h="b=$want" '$2 == "POST" && $4 == 2097152 && $5 == h' \
	    "$T_DIR/srv.log" | wc -l)
	[ "$n" = 9 ] || fail "the server got $n intact bodies of 9"
	[ "$(srv_requests)" = 9 ] || fail "the server saw $(srv_requests) requests"
	ok "$be: early reply, connection kept: bodies finished, reused"

	: > "$T_DIR/srv.log"
	hp --num-conns 3 --num-calls 3 --uri /early-reply/413/1 \
	    --method POST --body-file "$T_DIR/body" --timeout 10 --send-buffer 4096
	expect_rc 0
	expect_counts 3 3 3
	expect_status 0 0 0 3 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Early replies: 3 \(requests cut short 3, request bytes not sent [0-9]+\)$'
	sleep 0.2
	[ "$(srv_requests)" = 0 ] ||
	    fail "the server saw $(srv_requests) complete requests"
	ok "$be: early reply with close: nothing more written, cut short"

	# The reply, then a close with the body unread (lighttpd): the
	# kernel resets the connection, the next write fails.  The reply
	# already there is read before the write's error fails anything:
	# 40 of 40 (before the fix typically 3 to 12 of them were lost,
	# counted connreset).
	hp --num-conns 40 --uri /early-reply/200/2 --method POST \
	    --body-file "$T_DIR/body" --timeout 10 --send-buffer 4096
	expect_rc 0
	expect_counts 40 40 40
	expect_status 0 40 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Early replies: 40 \(requests cut short 40, request bytes not sent [0-9]+\)$'
	ok "$be: early reply, then a reset under the writes: 40 of 40 read"

	# Pipelined: the calls behind the early one wait for its body.
	: > "$T_DIR/srv.log"
	hp --num-conns 2 --num-calls 4 --burst-length 2 \
	    --uri /early-reply/401 --method POST --body-file "$T_DIR/body" \
	    --send-buffer 4096 \
	    --timeout 10
	expect_counts 2 8 8
	expect_status 0 0 0 8 0
	expect_errors 0 0 0 0 0 0 0 0 0
	wait_for_log 8
	n=$(awk -v h="b=$want" '$2 == "POST" && $4 == 2097152 && $5 == h' \
	    "$T_DIR/srv.log" | wc -l)
	[ "$n" = 8 ] || fail "the server got $n intact bodies of 8"
	ok "$be: early replies to pipelined requests"
done
unset HTTPERF_LOOP

# Sessions: the same for --wsesslog contents.
{ printf '/early-reply/413 method=POST contents="'
  head -c 300000 /dev/zero | tr '\0' 's'
  printf '"\n/early-reply/413 method=POST contents="'
  head -c 300000 /dev/zero | tr '\0' 's'
  printf '"\n'; } > "$T_DIR/sess.log"
head -c 300000 /dev/zero | tr '\0' 's' > "$T_DIR/sbody"
swant=$("$TESTSRV" -H "$T_DIR/sbody")
: > "$T_DIR/srv.log"
hp --wsesslog 2,0,"$T_DIR/sess.log" --rate 10 --timeout 10
expect "^Session rate \[sess/s\]: .* \(2/2\)\$"
expect_counts 2 4 4
expect_errors 0 0 0 0 0 0 0 0 0
# The first call's body is finished before the second request goes on
# the connection; the last body may be cut when the session ends.
wait_for_log 2
sleep 0.2
n=$(awk -v h="b=$swant" '$2 == "POST" && $4 == 300000 && $5 == h' \
    "$T_DIR/srv.log" | wc -l)
[ "$n" -ge 2 ] || fail "the server got $n intact session bodies"
[ "$(srv_requests)" = "$n" ] ||
    fail "the server saw $(srv_requests) requests, $n of them intact"
ok "--wsesslog: early replies, bodies finished before the next request"
