#!/bin/sh
# Resource exhaustion: too few file descriptors, an exhausted source port
# range, and out-of-memory on a huge session file.  Each is counted or
# reported; the run finishes and the report is right.
. "$TESTLIB"

start_srv

# ulimit -n 256 and a run that wants 1,000 connections open at once: the
# connections beyond the limit count as fd-unavail, the others complete,
# and one line on stderr says so.  As root httperf would raise the hard
# limit again (CAP_SYS_RESOURCE): the run goes without that capability.
NOCAP=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	NOCAP="setpriv --bounding-set -sys_resource --inh-caps -sys_resource"
fi
(ulimit -n 256 && exec $NOCAP timeout 60 "$HP" --server 127.0.0.1 \
    --port "$PORT" --num-conns 1000 --rate 20000 --uri /delay/1500/10 \
    --timeout 10) > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="(ulimit -n 256) httperf --num-conns 1000 --rate 20000"
expect_rc 0
expect_classic
conns=$(sed -n 's/^Total: connections \([0-9]*\) .*/\1/p' "$OUT")
[ "$conns" -gt 100 ] && [ "$conns" -lt 256 ] || fail "$conns connections"
expect_counts "$conns" "$conns" "$conns"
fd=$((1000 - conns))
expect_errors $fd 0 0 0 0 $fd 0 0 0
[ "$(cat "$OUT.err")" = "httperf: open files limit is 256, below the 1064 this run may need: connections beyond it count as fd-unavail" ] ||
    fail "the stderr line on the limit: $(cat "$OUT.err")"
ok "ulimit -n 256: $conns connections, $fd fd-unavail, said on stderr"
stop_srv

# An exhausted source port range, in a network namespace of our own
# with ten ephemeral ports: the rest count as addrunavail.
if unshare -n true 2>/dev/null && command -v ip >/dev/null 2>&1; then
	unshare -n sh -c '
		ip link set lo up &&
		sysctl -q -w net.ipv4.ip_local_port_range="40000 40009" ||
		exit 77
		"$TESTSRV" -P "$1/nsport" -t 60 -p 18080 &
		i=0
		while [ ! -s "$1/nsport" ] && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		timeout 60 "$HP" --server 127.0.0.1 --port 18080 \
		    --num-conns 20 --rate 1000 --uri /delay/1000/10 --timeout 5
		rc=$?
		kill $!
		exit $rc
	' sh "$T_DIR" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="(10 local ports) httperf --num-conns 20 --rate 1000"
	if [ $RC = 77 ]; then
		t_skip "cannot narrow the port range in a network namespace; port exhaustion not checked"
	else
		expect_rc 0
		expect_classic
		expect_counts 20 10 10
		expect_errors 10 0 0 0 0 0 10 0 0
		ok "10 local ports for 20 connections: 10 addrunavail"
	fi
else
	t_skip "no network namespaces (unshare -n, ip); port exhaustion not checked"
fi

# Several --myaddr addresses, one of them out of ports: its connections
# go to the others.  In a namespace with ten ephemeral ports, a first run
# holds all ten of 127.0.0.2's for 3 s; a second over 127.0.0.2-127.0.0.4
# then gets its 20 connections from the ten of 127.0.0.3 and of .4.
if unshare -n true 2>/dev/null && command -v ip >/dev/null 2>&1; then
	unshare -n sh -c '
		ip link set lo up &&
		sysctl -q -w net.ipv4.ip_local_port_range="40000 40009" ||
		exit 77
		"$TESTSRV" -P "$1/nsport2" -t 60 -p 18080 &
		srv=$!
		i=0
		while [ ! -s "$1/nsport2" ] && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		timeout 60 "$HP" --server 127.0.0.1 --port 18080 \
		    --myaddr 127.0.0.2 --num-conns 10 --rate 1000 \
		    --uri /delay/3000/10 --timeout 10 > "$1/first" 2>&1 &
		first=$!
		sleep 0.5
		timeout 60 "$HP" --server 127.0.0.1 --port 18080 \
		    --myaddr 127.0.0.2-127.0.0.4 --num-conns 20 --rate 1000 \
		    --uri /delay/500/10 --timeout 5
		rc=$?
		wait $first || rc=1
		grep -q "^Total: connections 10 requests 10 replies 10 " \
		    "$1/first" || rc=1
		kill $srv
		exit $rc
	' sh "$T_DIR" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="(10 local ports, 127.0.0.2 full) httperf --myaddr 127.0.0.2-127.0.0.4 --num-conns 20"
	if [ $RC = 77 ]; then
		t_skip "cannot narrow the port range in a network namespace; --myaddr spreading not checked"
	else
		expect_rc 0
		expect_classic
		expect_counts 20 20 20
		expect_errors 0 0 0 0 0 0 0 0 0
		ok "127.0.0.2 out of ports: its turns go to .3 and .4, no addrunavail"
	fi
else
	t_skip "no network namespaces (unshare -n, ip); --myaddr spreading not checked"
fi

# Out of memory while reading a huge session file: one clear line, exit 1,
# no crash.  The address space is limited with ulimit -v; AddressSanitizer
# needs far more address space than that, so in a sanitizer build its
# allocator is limited instead (and its one warning line is not httperf's).
# Not under valgrind, which cannot start in 150 MB: $HTTPERF, not $HP.
{ printf '/a contents="'; head -c 120000000 /dev/zero | tr '\0' 'b'; \
    printf '"\n'; } > "$T_DIR/huge.sess"
if ldd "$HTTPERF" 2>/dev/null | grep -q libasan; then
	ASAN_OPTIONS=max_allocation_size_mb=100:allocator_may_return_null=1:detect_leaks=0 \
	    "$HTTPERF" --server 127.0.0.1 --port 1 \
	    --wsesslog 1,0,"$T_DIR/huge.sess" > "$OUT" 2> "$OUT.asan"
	RC=$?
	grep -v '^==[0-9]*==WARNING: AddressSanitizer failed to allocate' \
	    "$OUT.asan" | grep -v '^$' > "$OUT.err"
else
	(ulimit -v 150000 && exec "$HTTPERF" --server 127.0.0.1 --port 1 \
	    --wsesslog 1,0,"$T_DIR/huge.sess") > "$OUT" 2> "$OUT.err"
	RC=$?
fi
T_LAST="(150 MB) httperf --wsesslog 1,0,huge.sess"
expect_rc 1
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "stderr: $(cat "$OUT.err")"
grep -q 'out of memory' "$OUT.err" || fail "stderr: $(cat "$OUT.err")"
rm -f "$T_DIR/huge.sess"
ok "out of memory on a huge session file: one line, exit 1"
