# Shared helpers for the integration tests (sourced, POSIX sh).
#
# Each test starts the fixture server on an ephemeral loopback port, runs
# httperf against it with a time bound, and checks report lines.  A failed
# check prints the report and exits 1.  Everything is cleaned up on exit.

: "${HTTPERF:?HTTPERF must point to the httperf binary}"
: "${TESTSRV:?TESTSRV must point to the fixture server}"

T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/httperf-test.XXXXXX")
T_PIDS=""
T_FAILS=0
OUT="$T_DIR/out"

t_cleanup() {
	for p in $T_PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $T_PIDS; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$T_DIR"
}
trap t_cleanup EXIT
trap 'exit 1' INT TERM

# start_srv [testsrv options]: starts the fixture; sets PORT and SRV_PID.
start_srv() {
	rm -f "$T_DIR/port"
	"$TESTSRV" -P "$T_DIR/port" -l "$T_DIR/srv.log" -S "$T_DIR/srv.stats" \
	    -t 300 "$@" &
	SRV_PID=$!
	T_PIDS="$T_PIDS $SRV_PID"
	i=0
	while [ ! -s "$T_DIR/port" ]; do
		i=$((i + 1))
		if [ $i -gt 100 ]; then
			echo "FAIL: the fixture server did not start" >&2
			exit 1
		fi
		sleep 0.05
	done
	PORT=$(cat "$T_DIR/port")
	: > "$T_DIR/srv.log"
}

# stop_srv: stops the fixture and waits for its stats file.
stop_srv() {
	kill -TERM "$SRV_PID" 2>/dev/null
	wait "$SRV_PID" 2>/dev/null
	SRV_PID=""
}

# srv_stat NAME: a counter from the fixture's stats (after stop_srv).
srv_stat() {
	awk -v k="$1" '$1 == k { print $2 }' "$T_DIR/srv.stats"
}

# srv_requests: requests the fixture has logged so far.
srv_requests() {
	awk '$2 != "PEER"' "$T_DIR/srv.log" | wc -l | tr -d ' '
}

# hp [options]: runs httperf against the fixture, bounded to 60 s; the
# report goes to $OUT, stderr to $OUT.err, the status to $RC.
# With HTTPERF_VALGRIND set, httperf runs under valgrind's memcheck: any
# memory error or definitely lost block makes it exit 99.
hp() {
	if [ -n "${HTTPERF_VALGRIND:-}" ]; then
		timeout 300 valgrind --quiet --error-exitcode=99 \
		    --leak-check=full --errors-for-leak-kinds=definite \
		    --show-leak-kinds=definite "$HTTPERF" \
		    --server "${HP_SERVER:-127.0.0.1}" --port "$PORT" "$@" \
		    > "$OUT" 2> "$OUT.err"
	else
		timeout 60 "$HTTPERF" --server "${HP_SERVER:-127.0.0.1}" \
		    --port "$PORT" "$@" > "$OUT" 2> "$OUT.err"
	fi
	RC=$?
	T_LAST="httperf $*"
}

fail() {
	echo "FAIL: $*" >&2
	echo "--- command: $T_LAST" >&2
	echo "--- report:" >&2
	cat "$OUT" >&2 2>/dev/null
	echo "--- stderr:" >&2
	cat "$OUT.err" >&2 2>/dev/null
	T_FAILS=$((T_FAILS + 1))
	exit 1
}

# expect_rc N: httperf exited with N.
expect_rc() {
	[ "$RC" = "$1" ] || fail "exit status $RC, expected $1"
}

# expect REGEX: a line of the report matches the extended regex.
expect() {
	grep -Eq -- "$1" "$OUT" || fail "no line matches: $1"
}

# expect_not REGEX: no line of the report matches.
expect_not() {
	if grep -Eq -- "$1" "$OUT"; then
		fail "a line matches: $1"
	fi
}

# value LABEL FIELD: the number after FIELD on the line starting LABEL.
value() {
	grep -E "^$1" "$OUT" | head -n 1 | awk -v f="$2" \
	    '{ for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
}

# expect_counts CONNS REQS REPLIES: the Total line.
expect_counts() {
	expect "^Total: connections $1 requests $2 replies $3 test-duration "
}

# expect_errors TOTAL TIMO SOCKTIMO REFUSED RESET FD ADDR FTAB OTHER
expect_errors() {
	expect "^Errors: total $1 client-timo $2 socket-timo $3 connrefused $4 connreset $5\$"
	expect "^Errors: fd-unavail $6 addrunavail $7 ftab-full $8 other $9\$"
}

# expect_status S1 S2 S3 S4 S5: the Reply status line.
expect_status() {
	expect "^Reply status: 1xx=$1 2xx=$2 3xx=$3 4xx=$4 5xx=$5\$"
}

# expect_classic: every classic report line, in 0.9.0's order, nothing
# inserted between them (checked as one multi-line pattern).
expect_classic() {
	awk '
	BEGIN {
		n = split("^Maximum connect burst length: [0-9]+$|^$|" \
		    "^Total: connections [0-9]+ requests [0-9]+ replies [0-9]+ test-duration [0-9.]+ s$|^$|" \
		    "^Connection rate: [0-9.]+ conn/s \\([0-9.]+ ms/conn, <=[0-9]+ concurrent connections\\)$|" \
		    "^Connection time \\[ms\\]: min [0-9.]+ avg [0-9.]+ max [0-9.]+ median [0-9.]+ stddev [0-9.]+$|" \
		    "^Connection time \\[ms\\]: connect [0-9.]+$|" \
		    "^Connection length \\[replies/conn\\]: [0-9.]+$|^$|" \
		    "^Request rate: [0-9.]+ req/s \\([0-9.]+ ms/req\\)$|" \
		    "^Request size \\[B\\]: [0-9.]+$|^$|" \
		    "^Reply rate \\[replies/s\\]: min [0-9.]+ avg [0-9.]+ max [0-9.]+ stddev [0-9.]+ \\([0-9]+ samples\\)$|" \
		    "^Reply time \\[ms\\]: response [0-9.]+ transfer [0-9.]+$|" \
		    "^Reply size \\[B\\]: header [0-9.]+ content [0-9.]+ footer [0-9.]+ \\(total [0-9.]+\\)$|" \
		    "^Reply status: 1xx=[0-9]+ 2xx=[0-9]+ 3xx=[0-9]+ 4xx=[0-9]+ 5xx=[0-9]+$|^$|" \
		    "^CPU time \\[s\\]: user [0-9.]+ system [0-9.]+ \\(user [0-9.]+% system [0-9.]+% total [0-9.]+%\\)$|" \
		    "^Net I/O: [0-9.]+ KB/s \\([0-9.]+\\*10\\^6 bps\\)$|^$|" \
		    "^Errors: total [0-9]+ client-timo [0-9]+ socket-timo [0-9]+ connrefused [0-9]+ connreset [0-9]+$|" \
		    "^Errors: fd-unavail [0-9]+ addrunavail [0-9]+ ftab-full [0-9]+ other [0-9]+$", pat, "|")
		k = 1
	}
	k <= n && k > 1 { if ($0 !~ pat[k]) { print "line " NR ": expected " pat[k] ": got: " $0; bad = 1; exit 1 } k++; next }
	k == 1 && $0 ~ pat[1] { k = 2 }
	END { if (!bad && k <= n) { print "report incomplete at " pat[k]; exit 1 } }
	' "$OUT" > "$T_DIR/classic" 2>&1 || fail "classic report: $(cat "$T_DIR/classic")"
}

# wait_for_log N: waits (bounded) until the fixture logged N requests.
wait_for_log() {
	i=0
	while [ "$(srv_requests)" -lt "$1" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# backends: the event backends to run each check with.
backends() {
	if [ -n "${HTTPERF_LOOP:-}" ]; then
		echo "$HTTPERF_LOOP"
	else
		echo "epoll poll"
	fi
}

ok() {
	echo "ok: $*"
}
