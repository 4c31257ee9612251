#!/bin/sh
# Every hostile server of tests/, one after another: each fault of the
# fixture server (testsrv -L lists one URI per route that misbehaves, and
# fails on a route that says neither "fault" nor "valid", so a new fault
# cannot be left out), over TCP and over TLS, alone and pipelined; the
# fixture's connection-level faults (-X, -Z, -G, -D); and every mode of
# the hostile HTTP/2 server (h2bad.py -L).  For each: the run ends by
# itself within its timeouts, exits 0, prints the classic report, and
# each call ends as exactly one reply or one error.  misbehave.sh and
# h2bad.sh check the class of each fault; this one makes sure that none
# is left out of a build under test -- .ci/run runs it, as all of make
# check, with ASan+UBSan and under the io_uring backend, where any
# memory error makes httperf's exit status non-zero.
. "$TESTLIB"

# survived: the checks every hostile run must pass.
survived() {
	expect_rc 0
	expect_classic
	expect_calls_ended
	n=$((n + 1))
}

# survived_piped: the same for two pipelined calls over HTTP/1.1, where a
# connection that fails counts one error for the calls it ends (as in
# httperf 0.9.0): each request is a reply or went with a failed
# connection, one error for at most two requests.
survived_piped() {
	expect_rc 0
	expect_classic
	r=$(value Total: requests)
	p=$(value Total: replies)
	e=$(value 'Errors: total' total)
	[ "$p" -le "$r" ] && [ "$r" -le $((p + 2 * e)) ] ||
	    fail "$r requests ended as $p replies and $e errors"
	n=$((n + 1))
}

C=$T_DIR/certs
mkdir -p "$C"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$C/srv.key" -out "$C/srv.pem" -days 2 -subj /CN=localhost \
    2>/dev/null || fail "cannot make a certificate"

faults=$("$TESTSRV" -L) || fail "testsrv -L: a route without a fault sample"
[ "$(echo "$faults" | wc -l)" -ge 20 ] ||
    fail "testsrv -L listed only: $faults"

# The fixture's faults, between good replies, over TCP then TLS; then the
# same pipelined two at a time (the fault's connection carries a good
# call after it).
n=0
for tls in "" "--ssl"; do
	if [ -n "$tls" ]; then
		start_srv -s "$C/srv.pem" -k "$C/srv.key"
	else
		start_srv
	fi
	for uri in $faults; do
		printf '/size/100\n%s\n/size/100\n' "$uri" > "$T_DIR/f.log"
		# shellcheck disable=SC2086
		hp $tls --wlog "n,$T_DIR/f.log" --num-conns 3 --timeout 1
		survived
		expect '^Total: connections 3 '
		expect_ms 10000
		printf '%s\n/size/100\n' "$uri" > "$T_DIR/f.log"
		# shellcheck disable=SC2086
		hp $tls --wlog "n,$T_DIR/f.log" --num-conns 1 --num-calls 2 \
		    --burst-length 2 --timeout 1
		survived_piped
		expect_ms 10000
	done
	stop_srv
done
ok "$n runs against the fixture's $(echo "$faults" | wc -l) faults, TCP and TLS"

# The fixture's connection-level faults: closed or reset at accept, a
# ClientHello answered with garbage, a handshake held past --timeout.
n=0
for f in "-X" "-Z" "-X -s $C/srv.pem -k $C/srv.key" \
    "-Z -s $C/srv.pem -k $C/srv.key" "-G" \
    "-D 3000 -s $C/srv.pem -k $C/srv.key"; do
	# shellcheck disable=SC2086
	start_srv $f
	case $f in
	*-s*|-G) tls=--ssl ;;
	*) tls= ;;
	esac
	# shellcheck disable=SC2086
	hp $tls --num-conns 3 --num-calls 2 --timeout 1
	survived
	expect '^Total: connections 3 '
	expect_ms 10000
	stop_srv
done
ok "$n runs against the fixture's connection faults"

# Every mode of the hostile HTTP/2 server, 5 streams on one connection,
# with a body for the modes that read one; its frames 50 ms apart, so
# that an interim head on each stream every 50 ms ends at the 101st
# (the cap, as over HTTP/1.1) after about 5 s.
if ! command -v python3 >/dev/null 2>&1; then
	t_skip "python3 is missing: h2bad.py's modes not run"
elif ! "$HTTPERF" --help | grep -q -- '--http2'; then
	t_skip "this httperf has no HTTP/2"
elif ! h2_built; then
	t_skip "this httperf was built without HTTP/2"
else
	H2BAD=$(dirname "$TESTLIB")/h2bad.py
	modes=$(python3 "$H2BAD" -L) || fail "h2bad.py -L"
	n=0
	for mode in $modes; do
		rm -f "$T_DIR/bport"
		python3 "$H2BAD" -P "$T_DIR/bport" -t 30 -i 0.05 -b 1000 \
		    "$mode" 2> "$T_DIR/bad.err" &
		bad=$!
		T_PIDS="$T_PIDS $bad"
		wait_path -s "$T_DIR/bport" h2bad.py "$T_DIR/bad.err"
		PORT=$(cat "$T_DIR/bport")
		hp --http2 --num-conns 1 --num-calls 5 --burst-length 5 \
		    --method POST --body "$(printf '%01000d' 0)" --timeout 2
		survived
		expect '^Total: connections 1 '
		expect_ms 20000
		wait "$bad" 2>/dev/null
	done
	ok "$n runs against h2bad.py's modes: $(echo $modes)"
fi
