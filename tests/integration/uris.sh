#!/bin/sh
# URI sources: the exact sequence of URIs the server receives for --wlog
# (NUL- and newline-separated files, wrap and stop) and --wset (several N
# and X, two --client values).
. "$TESTLIB"

# srv_uris: the URIs of the requests logged so far, one per line.
srv_uris() {
	awk '$2 != "PEER" { print $3 }' "$T_DIR/srv.log"
}

start_srv

# NUL-separated (0.9.0's format), no wrap: exactly 3 requests are sent.
printf '/size/1\0/size/2\0\0/size/3\0' > "$T_DIR/nul.log"
: > "$T_DIR/srv.log"
hp --num-conns 10 --wlog "n,$T_DIR/nul.log"
expect_rc 0
expect_counts 4 3 3
expect_calls_ended
expect_errors 0 0 0 0 0 0 0 0 0
wait_for_log 3
[ "$(srv_uris | tr '\n' ' ')" = "/size/1 /size/2 /size/3 " ] || \
    fail "URIs: $(srv_uris | tr '\n' ' ')"
ok "--wlog n: NUL-separated, stops after the list"

# No wrap at a rate: the list runs out while replies are still on their
# way (200 ms each); they count, and the run ends with the last of them.
for i in 1 2 3 4 5; do
	echo /delay/200/10
done > "$T_DIR/delay.log"
: > "$T_DIR/srv.log"
hp --num-conns 100 --rate 100 --wlog "n,$T_DIR/delay.log" --timeout 5
expect_rc 0
expect_classic
expect_calls_ended
expect '^Total: connections [0-9]+ requests 5 replies 5 '
expect_errors 0 0 0 0 0 0 0 0 0
expect_status 0 5 0 0 0
ok "--wlog n: the replies in flight when the list runs out count"

# The same with sessions: no new session once the list is out, the live
# ones finish (their later calls get no URI), the replies in flight count.
: > "$T_DIR/srv.log"
hp --wsess 20,2,0 --rate 100 --wlog "n,$T_DIR/delay.log" --timeout 5
expect_rc 0
expect_classic
expect_calls_ended
expect '^Total: connections [0-9]+ requests 5 replies 5 '
expect_errors 0 0 0 0 0 0 0 0 0
expect_status 0 5 0 0 0
ok "--wlog n with --wsess: the sessions under way finish"

# Newline-separated with CR LF and blank lines, wrapping.
printf '/size/10\r\n\n/size/20\n/size/30' > "$T_DIR/nl.log"
: > "$T_DIR/srv.log"
hp --num-conns 4 --num-calls 2 --wlog "y,$T_DIR/nl.log" -v
expect_counts 4 8 8
expect_calls_ended
wait_for_log 8
[ "$(srv_uris | tr '\n' ' ')" = "/size/10 /size/20 /size/30 /size/10 /size/20 /size/30 /size/10 /size/20 " ] || \
    fail "URIs: $(srv_uris | tr '\n' ' ')"
[ "$(grep -c "accessing URI \`/size/" "$OUT")" = 8 ] || fail "-v: accessing URI lines"
ok "--wlog y: newline-separated, wraps, -v names each URI"

# --client I/N shares the list out.  n: clients 0/3, 1/3, 2/3 of 10 URIs
# send 0-2, 3-5 and 6-9, together the list once; y: client 2/3 starts at
# the 7th URI and goes round.
i=0
while [ $i -lt 10 ]; do echo /size/$i; i=$((i + 1)); done > "$T_DIR/ten.log"
for c in 0 1 2; do
	: > "$T_DIR/srv.log"
	hp --client $c/3 --num-conns 10 --wlog "n,$T_DIR/ten.log"
	expect_rc 0
	case $c in
	0) want="/size/0 /size/1 /size/2 " ;;
	1) want="/size/3 /size/4 /size/5 " ;;
	2) want="/size/6 /size/7 /size/8 /size/9 " ;;
	esac
	n=$(echo $want | wc -w)
	expect "^Total: connections [0-9]+ requests $n replies $n "
	wait_for_log $n
	[ "$(srv_uris | tr '\n' ' ')" = "$want" ] || \
	    fail "client $c/3: URIs $(srv_uris | tr '\n' ' ')"
done
: > "$T_DIR/srv.log"
hp --client 2/3 --num-conns 12 --wlog "y,$T_DIR/ten.log"
expect_counts 12 12 12
expect_calls_ended
wait_for_log 12
[ "$(srv_uris | tr '\n' ' ')" = "/size/6 /size/7 /size/8 /size/9 /size/0 /size/1 /size/2 /size/3 /size/4 /size/5 /size/6 /size/7 " ] || \
    fail "client 2/3, y: URIs $(srv_uris | tr '\n' ' ')"
ok "--wlog with --client I/N: n shares the list out, y starts at I/N of it"

# Bad files: one line on stderr, exit status 1.
: > "$T_DIR/empty.log"
for f in "$T_DIR/empty.log" "$T_DIR/missing.log"; do
	hp --num-conns 1 --wlog "y,$f"
	expect_rc 1
	[ "$(wc -l < "$OUT.err")" = 1 ] || fail "not one line: $(cat "$OUT.err")"
done
ok "--wlog: empty or missing file is an error"

# --wset 20,0.5: two levels of digits; files 0,1,1,2,2,3,3,4.
: > "$T_DIR/srv.log"
hp --num-conns 8 --wset 20,0.5 --uri /w/
expect_counts 8 8 8
expect_calls_ended
wait_for_log 8
[ "$(srv_uris | tr '\n' ' ')" = "/w/0/0.html /w/0/1.html /w/0/1.html /w/0/2.html /w/0/2.html /w/0/3.html /w/0/3.html /w/0/4.html " ] || \
    fail "URIs: $(srv_uris | tr '\n' ' ')"
ok "--wset 20,0.5"

# --client 1/2 starts at file 1 and advances by 2 on each miss; N=5
# wraps, and X=1 misses every time.
: > "$T_DIR/srv.log"
hp --num-conns 6 --wset 5,1 --client 1/2
wait_for_log 6
[ "$(srv_uris | tr '\n' ' ')" = "/3.html /0.html /2.html /4.html /1.html /3.html " ] || \
    fail "URIs: $(srv_uris | tr '\n' ' ')"
: > "$T_DIR/srv.log"
hp --num-conns 5 --wset 1000,0.25 --uri /p --client 0/2
wait_for_log 5
[ "$(srv_uris | tr '\n' ' ')" = "/p/0/0/0.html /p/0/0/0.html /p/0/0/0.html /p/0/0/2.html /p/0/0/2.html " ] || \
    fail "URIs: $(srv_uris | tr '\n' ' ')"
ok "--wset with --client, wrap-around, three levels"
stop_srv
