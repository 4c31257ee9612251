#!/bin/sh
# Session workloads: exact session and call counts for --wsess with bursts
# and for --wsesslog, think times, many large cookies carried intact,
# --failure-status with and without --retry-on-failure, sessions over
# Connection: close, and sessions failing on timeouts.
. "$TESTLIB"

# expect_sessions COMPLETED INITIATED
expect_sessions() {
	expect "^Session rate \[sess/s\]: min [0-9.]+ avg [0-9.]+ max [0-9.]+ stddev [0-9.]+ \($1/$2\)\$"
}

# srv_field N: field N of the request lines the fixture logged.
srv_field() {
	awk -v f="$1" '$2 != "PEER" { print $f }' "$T_DIR/srv.log"
}

for be in $(backends); do
	export HTTPERF_LOOP=$be
	start_srv

	# 10 sessions of 5 calls in bursts of 2 (1+1, 1+1, 1): all pipelined
	# on one connection per session.
	hp --wsess 10,5,0 --burst-length 2 --rate 50 --uri /size/100
	expect_rc 0
	expect_classic
	expect_counts 10 50 50
	expect_calls_ended
	expect_sessions 10 10
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Session: avg 1\.00 connections/session$'
	expect '^Session length histogram: 0 0 0 0 0 10$'
	expect ' --wsess=10,5,0\.000 --burst-length=2$'
	ok "$be: --wsess with bursts"

	# One after another (no --rate), think time between bursts.
	hp --wsess 3,3,0.2
	expect_counts 3 9 9
	expect_calls_ended
	expect_sessions 3 3
	life=$(sed -n 's/^Session lifetime \[s\]: //p' "$OUT")
	awk -v l="$life" 'BEGIN { exit !(l >= 0.4 && l < 3) }' || \
	    fail "session lifetime $life with two think times of 0.2 s"
	ok "$be: think time between bursts"

	# HTTP/1.0 sessions: a connection per call, as 0.9.0: the first
	# call alone, the other three of the burst on three more.
	hp --wsess 2,4,0 --burst-length 4 --http-version 1.0 --uri /size/10
	expect_counts 8 8 8
	expect_calls_ended
	expect_sessions 2 2
	expect '^Session: avg 4\.00 connections/session$'
	ok "$be: HTTP/1.0 bursts spread over connections"

	# Connection: close in the middle of a session: the rest of its calls
	# go on a new connection.
	cat > "$T_DIR/close.sess" <<'SESS'
/size/10
/close/10
/size/20
/size/30
SESS
	hp --wsesslog 3,0,"$T_DIR/close.sess"
	expect_sessions 3 3
	expect_counts 6 12 12
	expect_calls_ended
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Session: avg 2\.00 connections/session$'
	ok "$be: sessions continue after Connection: close"

	# --failure-status fails the session; --retry-on-failure retries the
	# call (the fixture answers 503 to the first two /fail-first calls).
	hp --wsess 3,2,0 --uri /status/503 --failure-status 503
	expect_sessions 0 3
	expect_status 0 0 0 0 3
	expect_calls_ended
	expect '^Session failtime \[s\]: [0-9.]+$'
	ok "$be: --failure-status fails sessions"
	stop_srv
	start_srv
	hp --wsess 1,3,0 --uri /fail-first/2 --failure-status 503 \
	    --retry-on-failure
	expect_sessions 1 1
	expect_counts 1 5 5
	expect_calls_ended
	expect_status 0 3 0 0 2
	ok "$be: --retry-on-failure retries the call"

	# A timeout fails the session.
	hp --wsess 2,2,0 --uri /hang --timeout 0.3 --rate 20
	expect_sessions 0 2
	expect_errors 2 2 0 0 0 0 0 0 0
	expect_calls_ended
	expect '^Session length histogram: 2$'
	ok "$be: timeouts fail sessions"
	stop_srv
done

start_srv
# The session file of the manual's kind: bursts, methods, bodies, think.
cat > "$T_DIR/site.sess" <<'SESS'
# a session: a page and its images, then a form
/size/100 think=0.1
	/size/10
	/size/20
/echo-body method=POST contents="name=x&y=\"z\"\r\n" think=0.1

# another session, HEAD only
/size/5 method=HEAD
SESS
: > "$T_DIR/srv.log"
hp --wsesslog 3,0.05,"$T_DIR/site.sess" --rate 20
expect_rc 0
expect_sessions 3 3
expect_counts 3 9 9
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Session length histogram: 0 1 0 0 2$'
wait_for_log 9
methods=$(srv_field 2 | sort | uniq -c | awk '{ printf "%s%s,", $1, $2 }')
[ "$methods" = "6GET,1HEAD,2POST," ] || fail "methods: $methods"
printf 'name=x&y="z"\r\n' > "$T_DIR/body"
want=$("$TESTSRV" -H "$T_DIR/body")
n=$(awk -v h="b=$want" '$3 == "/echo-body" && $4 == 14 && $5 == h' "$T_DIR/srv.log" | wc -l)
[ "$n" = 2 ] || fail "POST bodies: $(grep echo-body "$T_DIR/srv.log")"
ok "--wsesslog: bursts, methods, bodies, round-robin"

# The example file of httperf 0.9.0's manual, as printed there.
cat > "$T_DIR/manual.sess" <<'SESS'
# Comment lines start with a ``#'' as the first
# character.  Lines with only whitespace delimit
# sessions (multiple blank lines do not generate
# ``null'' sessions).  All other lines specify a
# uri-sequence (1 uri per line).  If the first
# character of the line is whitespace (e.g. space
# or tab), the uri is considered to be part of a
# burst that is sent out after the previous
# non-burst uri.

# session 1 definition (this is a comment)
/foo.html think=2.0
     /pict1.gif
     /pict2.gif
/foo2.html method=POST contents='Post data'
     /pict3.gif
     /pict4.gif

# session 2 definition
/foo3.html method=POST contents="Multiline\ndata"
/foo4.html method=HEAD
SESS
: > "$T_DIR/srv.log"
hp --wsesslog 4,0,"$T_DIR/manual.sess" --rate 10
expect_rc 0
expect_sessions 4 4
expect_counts 4 16 16
expect_calls_ended
expect_status 0 0 0 16 0
expect '^Session length histogram: 0 0 2 0 0 0 2$'
life=$(sed -n 's/^Session lifetime \[s\]: //p' "$OUT")
awk -v l="$life" 'BEGIN { exit !(l >= 1.0 && l < 3) }' || \
    fail "mean session lifetime $life: the 2 s think time is missing"
wait_for_log 16
methods=$(srv_field 2 | sort | uniq -c | awk '{ printf "%s%s,", $1, $2 }')
[ "$methods" = "10GET,2HEAD,4POST," ] || fail "methods: $methods"
posts=$(awk '$2 == "POST" { print $3, $4 }' "$T_DIR/srv.log" | sort | uniq -c |
    awk '{ printf "%s %s %s,", $1, $2, $3 }')
[ "$posts" = "2 /foo2.html 9,2 /foo3.html 14," ] || fail "POSTs: $posts"
ok "--wsesslog with the manual's example file"

# Cookies: 30 cookies of 3 KB each, set by the first reply, must come back
# intact on every later request of the session (the fixture checks them).
cat > "$T_DIR/cookie.sess" <<'SESS'
/setcookie/30/3000
/cookies-check/30/3000
/cookies-check/30/3000
	/cookies-check/30/3000
SESS
: > "$T_DIR/srv.log"
hp --wsesslog 4,0,"$T_DIR/cookie.sess" --session-cookie
expect_sessions 4 4
expect_counts 4 16 16
expect_calls_ended
expect_status 0 16 0 0 0
n=$(awk '$3 ~ /cookies-check/ && $6 == "c=90168"' "$T_DIR/srv.log" | wc -l)
[ "$n" = 12 ] || fail "Cookie headers: $(awk '{ print $3, $6 }' "$T_DIR/srv.log" | sort | uniq -c)"
ok "--session-cookies: 30 cookies of 3 KB intact"

# Without --session-cookies no Cookie header is sent.
hp --wsesslog 1,0,"$T_DIR/cookie.sess"
expect_status 0 1 0 3 0
expect_calls_ended
ok "no cookies without --session-cookies"

# A malformed session file: one line naming file and line, exit 1.
printf '/a\n/b think=abc\n' > "$T_DIR/bad.sess"
hp --wsesslog 1,0,"$T_DIR/bad.sess"
expect_rc 1
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "not one line"
grep -q "bad.sess:2" "$OUT.err" || fail "no file:line in: $(cat "$OUT.err")"
ok "malformed session file"

hp -v --client 0/5 --wsess 60,1,0 --rate 40 --uri /size/1
expect_sessions 60 60
expect '^session-rate = [0-9.]+ *$'
ok "-v prints session-rate samples"
stop_srv

# The jar's limits (1000 cookies, a Cookie header of 256 KiB): cookies
# past them are ignored and counted, the ones kept still go back intact.
# 1200 small cookies: the first 1000 are kept.  100 cookies of 3 KB: the
# first 87 fit in 256 KiB ("Cookie: " + 10 x 3003 + 77 x 3004 bytes +
# 86 separators + CRLF = 261520 bytes; an 88th would make 264526).
start_srv
cat > "$T_DIR/many.sess" <<'SESS'
/setcookie/1200/10
/cookies-check/1000/10

/setcookie/100/3000
/cookies-check/87/3000
SESS
hp --wsesslog 4,0,"$T_DIR/many.sess" --session-cookies
expect_rc 0
expect_sessions 4 4
expect_counts 4 8 8
expect_calls_ended
expect_status 0 8 0 0 0
expect '^Session cookies: ignored 426$'
ok "--session-cookies: limits of 1000 cookies and 256 KiB, the rest counted"
hp --wsesslog 2,0,"$T_DIR/cookie.sess" --session-cookies
expect '^Session cookies: ignored 0$'
hp --wsesslog 2,0,"$T_DIR/cookie.sess"
expect_not '^Session cookies'
ok "the cookie line only with --session-cookies"

# --max-connections x --max-piped-calls is not allocated up front.
hp --max-connections 100000 --max-piped-calls 100000 --wsess 3,4,0 \
    --burst-length 2 --uri /size/10
expect_rc 0
expect_counts 3 12 12
expect_calls_ended
expect_sessions 3 3
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Session: avg 1\.00 connections/session$'
hp --max-connections 100000 --max-piped-calls 100000 --wsess 2,4,0 \
    --burst-length 4 --http-version 1.0 --uri /size/10
expect_rc 0
expect_counts 4 8 8
expect_calls_ended
expect_sessions 2 2
expect '^Session: avg 2\.00 connections/session$'
ok "--max-connections 100000 --max-piped-calls 100000"

# test_duration_in MIN MAX: the run's test-duration lies in [MIN, MAX).
test_duration_in() {
	dur=$(value "Total:" test-duration)
	awk -v d="$dur" -v lo="$1" -v hi="$2" \
	    'BEGIN { exit !(d >= lo && d < hi) }' ||
	    fail "test-duration $dur not in [$1, $2)"
}

# --retry-on-failure is bounded: at most --max-retries (3) retries in a
# row, after a back-off of 10 ms doubling each time, then the session
# fails.  Against a status that always fails: 1 + 3 tries per session on
# its one connection, after 10 + 20 + 40 ms; sessions run one after the
# other, so at least 0.14 s in all.
hp --wsess 2,1,0 --uri /status/404 --failure-status 404 --retry-on-failure
expect_rc 0
expect_counts 2 8 8
expect_calls_ended
expect_status 0 0 0 8 0
expect_sessions 0 2
expect '^Session length histogram: 0 0 0 0 2$'
test_duration_in 0.13 10
ok "--retry-on-failure: 3 retries with back-off, then the session fails"

hp --wsess 1,1,0 --uri /status/404 --failure-status 404 \
    --retry-on-failure --max-retries 5
expect_counts 1 6 6
expect_calls_ended
expect_sessions 0 1
test_duration_in 0.3 10
expect ' --retry-on-failure --max-retries=5 '
ok "--max-retries 5: 10+20+40+80+160 ms of back-off"

hp --wsess 2,3,0 --uri /status/404 --failure-status 404 \
    --retry-on-failure --max-retries 0
expect_counts 2 2 2
expect_calls_ended
expect_sessions 0 2
ok "--max-retries 0: no retry"
stop_srv

# Retries in a row: a reply that is not a failure starts the count again.
# /fail-first/N fails while the server has answered fewer than N of them:
# 2 failures, a success, 2 more failures, each run within --max-retries 2.
start_srv
cat > "$T_DIR/retry.sess" <<'SESS'
/fail-first/2
/size/10
/fail-first/5
SESS
hp --wsesslog 1,0,"$T_DIR/retry.sess" --failure-status 503 \
    --retry-on-failure --max-retries 2
expect_counts 1 7 7
expect_calls_ended
expect_status 0 3 0 0 4
expect_sessions 1 1
stop_srv
start_srv
hp --wsess 1,2,0 --uri /fail-first/3 --failure-status 503 \
    --retry-on-failure --max-retries 2
expect_counts 1 3 3
expect_calls_ended
expect_status 0 0 0 0 3
expect_sessions 0 1
stop_srv
ok "--max-retries counts failures in a row"

# Connections that fail before any reply are retried in the same way:
# refused (nothing listens on the port any more), or closed by the server
# as soon as it accepts them.
start_srv
stop_srv
hp --wsess 2,3,0 --retry-on-failure
expect_rc 0
expect_counts 8 0 0
expect_calls_ended
expect_errors 8 0 0 8 0 0 0 0 0
expect_sessions 0 2
test_duration_in 0.13 10
hp --wsess 2,3,0
expect_counts 2 0 0
expect_calls_ended
expect_errors 2 0 0 2 0 0 0 0 0
expect_sessions 0 2
ok "refused connections: retried 3 times, then the session fails"
start_srv -X
hp --wsess 2,3,0 --retry-on-failure --max-retries 2
expect_rc 0
expect "^Total: connections 6 requests [0-6] replies 0 "
expect_errors 6 0 0 0 6 0 0 0 0
expect_calls_ended
expect_sessions 0 2
stop_srv
ok "connections closed at once: retried 2 times, then the session fails"
