# Shared helpers for the integration tests (sourced, POSIX sh).
#
# Each test starts the fixture server on an ephemeral loopback port, runs
# httperf against it with a time bound, and checks report lines.  A failed
# check prints the report and exits 1.  Everything is cleaned up on exit.
#
# Exit status, as automake's harness reads it: 0 pass, 1 fail, 77 skip.
# A test that cannot check something here (a missing program or
# privilege) calls t_skip, which prints "SKIP: TEST: REASON"; the test
# then goes on with its other checks and exits 77 instead of 0.
#
# With HTTPERF_VALGRIND set, every run of httperf through $HP (hp uses it)
# is under valgrind's memcheck, and any valgrind error in any run fails
# the test, whether or not the caller looks at the exit status: hp fails
# at once, any other run at the latest when the test exits.  The errors
# are printed in the test's log.

: "${HTTPERF:?HTTPERF must point to the httperf binary}"
: "${TESTSRV:?TESTSRV must point to the fixture server}"

T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/httperf-test.XXXXXX")
T_NAME=${0##*/}
T_PIDS=""
T_FAILS=0
T_SKIPS=0
T_VGSEEN=""
OUT="$T_DIR/out"

# $HP runs httperf: a script that execs it, under valgrind with
# HTTPERF_VALGRIND set, so it works in subshells, with exec, ulimit,
# sh -c and signals alike.  Valgrind writes one log per process to
# $T_VGDIR, each error between markers so that t_vg_errors finds it.
T_VGDIR=$T_DIR/valgrind
mkdir "$T_VGDIR"
export HTTPERF T_VGDIR HP
HP=$T_DIR/httperf
# Valgrind's false positives (see the file).
T_VGSUPP=$(dirname "$TESTLIB")/valgrind.supp
export T_VGSUPP
# nginx_conf_main, nginx_conf_temps: shared with bench/.
. "$(dirname "$TESTLIB")/../nginx-conf.sh"
cat > "$HP" <<'WRAP'
#!/bin/sh
if [ -n "${HTTPERF_VALGRIND:-}" ]; then
	exec valgrind --quiet --error-exitcode=99 \
	    --error-markers=VALGRIND-ERROR-BEGIN,VALGRIND-ERROR-END \
	    --log-file="$T_VGDIR/vg.%p" --leak-check=full \
	    --suppressions="$T_VGSUPP" \
	    --errors-for-leak-kinds=definite --show-leak-kinds=definite \
	    "$HTTPERF" "$@"
fi
exec "$HTTPERF" "$@"
WRAP
chmod +x "$HP"

# t_vg_any: returns 0 if a valgrind log holds an error.
t_vg_any() {
	[ -n "${HTTPERF_VALGRIND:-}" ] &&
	    grep -qs '== VALGRIND-ERROR-BEGIN$' "$T_VGDIR"/vg.*
}

# t_vg_errors: prints the valgrind logs holding errors not printed
# before; returns 0 if there were any.
t_vg_errors() {
	found=1
	for f in "$T_VGDIR"/vg.*; do
		[ -f "$f" ] || continue
		grep -q '== VALGRIND-ERROR-BEGIN$' "$f" || continue
		case " $T_VGSEEN " in
		*" $f "*) found=0; continue ;;
		esac
		T_VGSEEN="$T_VGSEEN $f"
		echo "--- valgrind errors (${f##*/}):" >&2
		grep -v '== VALGRIND-ERROR-\(BEGIN\|END\)$' "$f" >&2
		found=0
	done
	return $found
}

# t_skip REASON: this test cannot check something here.  Prints why on
# a line of its own; the test goes on and exits 77 instead of 0.
t_skip() {
	echo "SKIP: $T_NAME: $*"
	T_SKIPS=$((T_SKIPS + 1))
}

# skip REASON: the test cannot run here at all: exits 77 now.
skip() {
	t_skip "$@"
	exit 77
}

# t_strict: everything the tests need is installed here (CI=true, or
# HTTPERF_STRICT=1 by hand), so a missing piece is a failure there.
t_strict() {
	[ "${CI:-}" = true ] || [ "${HTTPERF_STRICT:-}" = 1 ]
}

# t_missing REASON: what the test needs is not here: fails under
# t_strict, skips the whole test elsewhere.
t_missing() {
	t_strict && fail "$*"
	skip "$*"
}

t_cleanup() {
	rc=$?
	for p in $T_PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $T_PIDS; do
		wait "$p" 2>/dev/null
	done
	# A valgrind error in a run nobody checked still fails the test.
	if t_vg_errors; then
		echo "FAIL: $T_NAME: valgrind found errors in httperf" >&2
		rc=1
	fi
	if [ "$rc" = 0 ] && [ "$T_SKIPS" -gt 0 ]; then
		rc=77
	fi
	rm -rf "$T_DIR"
	exit "$rc"
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
	wait_path -s "$T_DIR/port" "the fixture server"
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

# hp [options]: runs httperf against the fixture, bounded to 60 s (300 s
# under valgrind); the report goes to $OUT, stderr to $OUT.err, the
# status to $RC.  Under valgrind, any error fails the test at once.
hp() {
	if [ -n "${HTTPERF_VALGRIND:-}" ]; then
		t_secs=300
	else
		t_secs=60
	fi
	if t_vg_any; then
		fail "valgrind found errors in an earlier run of httperf"
	fi
	t_t0=$(date +%s%N)
	timeout $t_secs "$HP" --server "${HP_SERVER:-127.0.0.1}" \
	    --port "$PORT" "$@" > "$OUT" 2> "$OUT.err"
	RC=$?
	HP_MS=$(( ($(date +%s%N) - t_t0) / 1000000 ))
	T_LAST="httperf $*"
	if t_vg_any; then
		fail "valgrind found errors in httperf (exit status $RC)"
	fi
}

# hp_fds N ARGS...: as hp, with at most N open files (ulimit -n).
hp_fds() {
	t_n=$1
	shift
	t_t0=$(date +%s%N)
	(ulimit -n "$t_n" && exec timeout 60 "$HP" \
	    --server "${HP_SERVER:-127.0.0.1}" --port "$PORT" "$@") \
	    > "$OUT" 2> "$OUT.err"
	RC=$?
	HP_MS=$(( ($(date +%s%N) - t_t0) / 1000000 ))
	T_LAST="httperf $* (ulimit -n $t_n)"
}

# stall [options]: a paced run (--rate 100 --num-conns 200 --uri /size/10
# and the options) whose client is stopped for 0.3 s once the fixture
# has 60 requests: the arrivals due meanwhile are late.  Sets RC.
stall() {
	: > "$T_DIR/srv.log"
	"$HP" --server 127.0.0.1 --port "$PORT" --rate 100 --num-conns 200 \
	    --uri /size/10 "$@" > "$OUT" 2> "$OUT.err" &
	pid=$!
	i=0
	while [ "$(srv_requests)" -lt 60 ] && [ $i -lt 200 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	kill -STOP $pid
	sleep 0.3
	kill -CONT $pid
	( sleep 20; kill -9 $pid 2>/dev/null ) &
	wd=$!
	wait $pid
	RC=$?
	kill $wd 2>/dev/null
	T_LAST="httperf --rate 100 --num-conns 200 $* (stopped 0.3 s)"
}

# expect_ms MAX: the last hp or hp_fds run took at most MAX ms.  Under
# valgrind times say nothing: not checked, said once as a skip.
expect_ms() {
	if [ -n "${HTTPERF_VALGRIND:-}" ]; then
		[ -n "${T_MS_SKIP:-}" ] ||
		    t_skip "times under valgrind say nothing: not checked"
		T_MS_SKIP=1
	else
		[ "$HP_MS" -le "$1" ] ||
		    fail "the run took $HP_MS ms, more than $1"
	fi
}

# wait_path TEST PATH WHAT [ERRFILE]: waits up to 10 s for `[ TEST PATH ]'
# (-s: a file with data, such as a port file; -S: a socket), else fails
# saying WHAT did not start, with ERRFILE's text when given.
wait_path() {
	w=0
	while [ ! "$1" "$2" ]; do
		w=$((w + 1))
		[ $w -le 200 ] ||
		    fail "$3 did not start${4:+: $(cat "$4" 2>/dev/null)}"
		sleep 0.05
	done
}

fail() {
	echo "FAIL: $*" >&2
	echo "--- command: $T_LAST" >&2
	echo "--- report:" >&2
	cat "$OUT" >&2 2>/dev/null
	echo "--- stderr:" >&2
	cat "$OUT.err" >&2 2>/dev/null
	t_vg_errors
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

# expect_calls_ended: each call of the run ended as exactly one reply
# or one error, as the report counts them (over HTTP/1.1 and HTTP/2
# alike): the Reply status classes add up to the replies, every reply
# is a request's, and every request ended as a reply or an error (an
# error may also come before any request, as a refused connect).
expect_calls_ended() {
	ce=$(awk '
	/^Total: connections / { r = $5; p = $7; t = 1 }
	/^Reply status: / {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); s += kv[2] }
		st = 1
	}
	/^Errors: total / { e = $3; et = 1 }
	END {
		if (!t || !st || !et)
			print "no report"
		else if (s != p)
			print "the status classes add up to " s ", not the " p " replies"
		else if (p > r)
			print p " replies to " r " requests"
		else if (r > p + e)
			print r " requests ended as " p " replies and " e " errors"
	}' "$OUT")
	[ -z "$ce" ] || fail "each call ends as one reply or one error: $ce"
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

# backends: the event backends to run each check with (io_uring when
# built in).
backends() {
	if [ -n "${HTTPERF_LOOP:-}" ]; then
		echo "$HTTPERF_LOOP"
	elif "$HTTPERF" -V 2>/dev/null | grep -q ' io_uring)'; then
		echo "epoll poll uring"
	else
		echo "epoll poll"
	fi
}

ok() {
	echo "ok: $*"
}

# validate_json FILE: FILE is valid JSON that validates against the
# result schema ($SCHEMA, draft 2020-12) with python3's jsonschema.
# Without it the check is skipped (t_skip), except in CI (CI=true or
# HTTPERF_STRICT=1), where everything the tests need is installed: there
# it fails.
validate_json() {
	: "${SCHEMA:?SCHEMA must point to doc/httperf-result.schema.json}"
	if ! python3 -c 'import jsonschema' 2>/dev/null; then
		t_strict &&
		    fail "python3 jsonschema is missing (Debian: python3-jsonschema)"
		t_skip "python3 jsonschema is missing: $1 not validated"
		return 0
	fi
	python3 - "$SCHEMA" "$1" > "$T_DIR/schema.err" 2>&1 <<'PY' ||
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.Draft202012Validator
cls.check_schema(schema)
doc = json.load(open(sys.argv[2]))
errs = sorted(cls(schema, format_checker=cls.FORMAT_CHECKER).iter_errors(doc),
    key=lambda e: list(e.path))
for e in errs[:20]:
    print("/".join(str(p) for p in e.path) + ": " + e.message[:300])
sys.exit(1 if errs else 0)
PY
	    fail "$1 does not validate against the schema: $(cat "$T_DIR/schema.err")"
}

# json_get FILE PATH: prints the value at PATH (dot-separated member
# names, array indexes as numbers) of JSON file FILE (python3).
json_get() {
	python3 - "$1" "$2" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)
PY
}

# free_ports N: sets PORTS to N free loopback ports, the fixture's (it
# binds port 0; it is stopped again at once).
free_ports() {
	PORTS=""
	fp_n=$1
	while [ "$fp_n" -gt 0 ]; do
		start_srv
		PORTS=${PORTS:+$PORTS }$PORT
		stop_srv
		fp_n=$((fp_n - 1))
	done
}

# nginx_need [PROGRAM...]: sets NGINX to nginx.  When it (or a PROGRAM
# the test needs with it) is missing, the test fails under CI=true,
# where everything is installed, and skips elsewhere.
nginx_need() {
	NGINX=$(command -v nginx || echo /usr/sbin/nginx)
	ng_ok=1
	ng_what=nginx
	ng_pkgs=nginx-light
	[ -x "$NGINX" ] || ng_ok=0
	for ng_p in "$@"; do
		command -v "$ng_p" >/dev/null 2>&1 || ng_ok=0
		ng_what="$ng_what or $ng_p"
		ng_pkgs="$ng_pkgs $ng_p"
	done
	[ $ng_ok = 1 ] && return 0
	t_missing "$ng_what is not installed (apt-get install $ng_pkgs)"
}

# h2_built: this httperf was built with HTTP/2 (libnghttp2).
h2_built() {
	! "$HP" --http2 --server 127.0.0.1 --port 9 --num-conns 1 2>&1 |
	    grep -q 'built without HTTP/2'
}

# nginx_h2: nginx_need's nginx has the http_v2_module.
nginx_h2() {
	"$NGINX" -V 2>&1 | grep -q http_v2_module
}

# h2_need [nginx]: the whole test needs HTTP/2 in httperf (and with
# "nginx", an nginx with the http_v2_module): t_missing without.
h2_need() {
	h2_built || t_missing "httperf was built without libnghttp2 (apt-get install libnghttp2-dev)"
	[ "${1:-}" = nginx ] || return 0
	nginx_need
	nginx_h2 || t_missing "nginx has no http_v2_module"
}

# nginx_cert DIR: a self-signed certificate for localhost, DIR/cert.pem
# with its key DIR/key.pem.
nginx_cert() {
	mkdir -p "$1"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -keyout "$1/key.pem" -out "$1/cert.pem" -days 2 \
	    -subj /CN=localhost 2>/dev/null || fail "cannot make a certificate"
}

# ng_exec CMD...: execs CMD, in the network namespace $ng_ns if set.
ng_exec() {
	[ -z "$ng_ns" ] || exec ip netns exec "$ng_ns" "$@"
	exec "$@"
}

# nginx_start [-n NETNS] DIR LOGFORMAT OPTION... <<CONF: starts nginx
# (nginx_need first), in the network namespace NETNS if given, on
# DIR/nginx.conf: what every test has (one worker in the foreground; pid,
# logs, temporary files and html/1k.html, 1024 bytes, under DIR; user
# root when root; up to 100000 requests a connection) around the test's
# own directives of the http block (its servers, TLS), read from the
# standard input.  The access log, ALOG, has LOGFORMAT (nginx's
# log_format), or nginx's own when that is empty.  Then waits (5 s at
# the most) until `httperf --num-conns 1 OPTION...' gets a 2xx reply,
# and for its line in the log.  nginx's stderr is in DIR/stderr; it is
# stopped when the test exits.
nginx_start() {
	ng_ns=""
	if [ "$1" = -n ]; then
		ng_ns=$2
		shift 2
	fi
	ng_dir=$1
	ng_fmt=$2
	shift 2
	mkdir -p "$ng_dir/html" "$ng_dir/logs" "$ng_dir/tmp"
	head -c 1024 /dev/zero | tr '\0' 'n' > "$ng_dir/html/1k.html"
	ALOG=$ng_dir/logs/access.log
	ng_log="access_log $ALOG;"
	if [ -n "$ng_fmt" ]; then
		ng_log="log_format test '$ng_fmt';
	access_log $ALOG test;"
	fi
	{
		nginx_conf_main "$ng_dir" off 4096
		echo "http {"
		echo "	$ng_log"
		nginx_conf_temps "$ng_dir"
		echo "	keepalive_requests 100000;"
		cat
		echo "}"
	} > "$ng_dir/nginx.conf"
	ng_exec "$NGINX" -p "$ng_dir" -c "$ng_dir/nginx.conf" \
	    2> "$ng_dir/stderr" &
	T_PIDS="$T_PIDS $!"
	ng_i=0
	until (ng_exec "$HP" --num-conns 1 "$@") 2>/dev/null |
	    grep -q '2xx=1 '; do
		ng_i=$((ng_i + 1))
		if [ $ng_i -ge 100 ]; then
			cat "$ng_dir/stderr" >&2
			fail "nginx did not start"
		fi
		sleep 0.05
	done
	nginx_logged 1 > /dev/null
}

# nginx_logged N: waits (bounded) until nginx's access log ALOG holds N
# lines, gives it a moment for any more, and prints how many it holds.
nginx_logged() {
	ng_i=0
	while [ "$(wc -l < "$ALOG")" -lt "$1" ] && [ $ng_i -lt 100 ]; do
		sleep 0.02
		ng_i=$((ng_i + 1))
	done
	sleep 0.1
	wc -l < "$ALOG" | tr -d ' '
}

# pty FILE CMD: CMD on a terminal 100 columns wide (script(1)); FILE
# gets the progress lines drawn, one a line; $RC its exit status.
pty() {
	TERM=xterm timeout 60 script -q -c "stty cols 100 rows 24; $2" \
	    /dev/null < /dev/null > "$1.raw" 2>&1
	RC=$?
	T_LAST="$2"
	tr '\r\033' '\n@' < "$1.raw" | sed -n 's/@\[K$//p' | grep -v '^$' \
	    > "$1"
}
