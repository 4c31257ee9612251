#!/usr/bin/env bash
#
# bench/run.sh -- efficiency report: our httperf against the original
# httperf 0.9.0, wrk and h2load (when installed), on loopback.
#
# WHAT IT MEASURES
#   The script starts its own nginx (1 worker, pinned to CPU 1) and runs
#   each client pinned to CPU 0, so client and server never share a core.
#   Rows of the table:
#
#   syscalls/request         strace -c -f over 50 keep-alive connections x
#                            1000 requests; all system calls the client
#                            made (startup included) / requests.
#   client CPU/request       user+system CPU of the client process (its
#                            rusage, microsecond resolution, whole process
#                            life -- not httperf's own "CPU time" line, which
#                            for the original covers only its main loop),
#                            divided by the replies.  Median of -r runs,
#                            ours and the original interleaved.  Three
#                            workloads: 50 keep-alive connections, 1,000
#                            keep-alive connections, a new connection per
#                            request.  The "user part" rows show how much
#                            of it is user-space work (info only).
#   peers, keep-alive        in the same rounds as ours (alternating, the
#                            median of -r each), for 50 and 1,000
#                            connections: wrk (-t 1, 5 s), h2load --h1
#                            (-t 1, 100,000 requests) and the bare-client
#                            floor, bench/floor.c (epoll, and io_uring with
#                            multishot receive into provided buffers, when
#                            liburing is there): a client that only writes
#                            the request and counts reply bytes, the least
#                            CPU per request any client can spend here.
#                            Target: ours <= 0.75x the better of wrk and
#                            h2load; the floor's own ratio is printed
#                            beside it (info) to show what is possible.
#   outputs on/off           ours against itself: CPU/request of the
#                            50 keep-alive workload (100,000 requests)
#                            without and with --json, --hlog and
#                            --interval 1, interleaved, median of
#                            max(5, -r) runs each; target: on/off <= 1.03.
#   TLS client CPU/request   the same, over TLS (--ssl) to a second nginx
#                            server block (self-signed EC P-256 certificate
#                            made at run time with the openssl CLI; TLS 1.2
#                            and 1.3; shared session cache).  Two workloads:
#                            50 keep-alive connections x 1000 requests, and
#                            a new connection per request (1000 at 500/s,
#                            a rate the one nginx worker sustains even with
#                            full handshakes only).
#                            In the second, ours resumes sessions (its
#                            default); the original never resumes in this
#                            mode, so every one of its handshakes is a full
#                            one.  An info row shows ours with
#                            --ssl-no-reuse (full handshakes too), the
#                            like-for-like comparison; the notes give
#                            ours' resumption rate.  Skipped when openssl,
#                            nginx's ssl module or our --ssl is missing.
#   CPU use at --rate 100    (user+sys) / test-duration over 1,000
#                            connections at 100 conn/s (10 s).
#   achieved rate            connections / test-duration at --rate 100 and
#                            its deviation from 100 conn/s.
#   connections held         100,000 connections opened at 25,000/s
#                            against the project's fixture server (tests/
#                            fixture/testsrv, -N for its open files), each
#                            waiting 20 s for its reply; ours spreads them
#                            over --myaddr 127.0.0.2-127.0.0.5 (one source
#                            address has ~28,000 ports to one server port;
#                            the original has no --myaddr).  The report's
#                            "<=N concurrent connections".  Fewer when the
#                            open files limit cannot reach 100,200 (no
#                            CAP_SYS_RESOURCE): as many as it allows, with a
#                            note.
#   event backends           ours on each backend built in (epoll, poll,
#                            io_uring; HTTPERF_LOOP), taking turns: CPU per
#                            request for the three workloads above (median
#                            of -r rounds) and system calls per request;
#                            the default (epoll) must be the fastest (within
#                            5%, the spread of identical rounds).
#   memory/connection        (peak RSS of that run - peak RSS of the same
#                            binary holding 1 such connection) / N held;
#                            target < 2 KiB.
#
# HOW TO READ IT
#   Columns: ours, orig (/usr/bin/httperf), wrk and h2load (info only),
#   the target,
#   and PASS/FAIL for targets that apply to ours.  "<= orig" targets compare
#   against the original measured in the same run (SKIP when it is not
#   installed).  A "!" after a number means that run had errors or missing
#   replies (see the notes under the table).  The last line is
#   "targets met: N of M".  The script exits 0 even when targets fail (it is
#   a report); it exits non-zero only when it cannot run at all.
#
# USAGE
#   bench/run.sh [-v] [-k] [-r REPS] [--vs OLD_HTTPERF] [PATH-TO-HTTPERF]
#     -v   print every command as it runs, and all commands at the end
#     -k   keep the work directory (raw outputs, strace summaries)
#     -r   repetitions of the CPU/request runs (default 3; median is shown)
#     --vs OLD_HTTPERF
#          before/after: OLD_HTTPERF takes the orig column, no peers run,
#          and only the system calls and the three CPU/request workloads
#          are measured (ours and OLD_HTTPERF interleaved in each round),
#          each with a "ratio new/old" row (info): a change meant to cost
#          nothing shows ratios near 1.00 (the spread of identical rounds
#          on a shared machine is several percent).
#   Environment: HTTPERF (binary under test; default <tree>/src/httperf,
#   the tree being this script's parent directory), ORIG_HTTPERF (default
#   /usr/bin/httperf), WRK (default: wrk in PATH), H2LOAD (default: h2load
#   in PATH), CC (builds bench/floor.c; default cc), NGINX (default: nginx in
#   PATH or /usr/sbin/nginx), TESTSRV (default <tree>/tests/fixture/testsrv;
#   built with `make tests/fixture/testsrv` in the tree when missing).
#   Needs bash, nginx, strace; taskset is used when present; openssl (the
#   CLI) for the TLS rows.  Every load run is bounded by a count and by
#   `timeout`.  Takes about 3 minutes.
#
set -u

VERBOSE=0
KEEP=0
REPS=${REPS:-3}
# --vs OLD (or --vs=OLD), anywhere among the arguments.
VS=
ARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--vs) [ $# -ge 2 ] || { echo "run.sh: --vs needs a binary" >&2; exit 2; }
	    VS=$2; shift 2 ;;
	--vs=*) VS=${1#--vs=}; shift ;;
	*) ARGS+=("$1"); shift ;;
	esac
done
set -- ${ARGS[@]+"${ARGS[@]}"}
while getopts vkr:h opt; do
	case $opt in
	v) VERBOSE=1 ;;
	k) KEEP=1 ;;
	r) REPS=$OPTARG ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $REPS in ''|*[!0-9]*|0) echo "run.sh: -r needs a positive number" >&2; exit 2 ;; esac

SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$SCRIPT_DIR/../tests/nginx-conf.sh"
TREE=$(cd "$SCRIPT_DIR/.." && pwd)
HTTPERF=${1:-${HTTPERF:-$TREE/src/httperf}}
ORIG=${ORIG_HTTPERF:-/usr/bin/httperf}
WRK=${WRK:-$(command -v wrk || true)}
H2LOAD=${H2LOAD:-$(command -v h2load || true)}
if [ -n "$VS" ]; then
	[ -x "$VS" ] || { echo "run.sh: --vs: no httperf binary at $VS" >&2; exit 1; }
	ORIG=$(cd "$(dirname "$VS")" && pwd)/$(basename "$VS")
	WRK=
	H2LOAD=
fi
CC=${CC:-cc}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
TESTSRV=${TESTSRV:-$TREE/tests/fixture/testsrv}

die() { echo "run.sh: $*" >&2; exit 1; }

[ -x "$HTTPERF" ] || die "no httperf binary at $HTTPERF (run make, or pass its path)"
HTTPERF=$(cd "$(dirname "$HTTPERF")" && pwd)/$(basename "$HTTPERF")
[ -x "$NGINX" ] || die "nginx not found (apt-get install nginx-light)"

NOTES=()
note() { NOTES+=("$*"); }

if [ ! -x "$ORIG" ]; then
	note "original httperf not found at $ORIG: orig column skipped"
	ORIG=
elif [ "$(readlink -f "$ORIG")" = "$(readlink -f "$HTTPERF")" ]; then
	note "ORIG_HTTPERF is the binary under test: orig column skipped"
	ORIG=
fi
if [ -n "$VS" ]; then
	note "--vs: the orig column is $ORIG (old), ours is $HTTPERF (new); no peers run"
fi
if [ -n "$VS" ]; then
	:
elif [ -z "$WRK" ] || [ ! -x "$WRK" ]; then
	note "wrk not installed: wrk column skipped"
	WRK=
fi
if [ -n "$VS" ]; then
	:
elif [ -z "$H2LOAD" ] || [ ! -x "$H2LOAD" ]; then
	note "h2load not installed (nghttp2-client): h2load column skipped"
	H2LOAD=
fi
HAVE_STRACE=1
command -v strace >/dev/null 2>&1 || { HAVE_STRACE=0; note "strace not installed: syscall row skipped"; }
# TLS rows: need the openssl CLI (certificate), nginx's ssl module and --ssl
# in ours; the original's TLS column needs --ssl in it.
HAVE_TLS=1
if ! command -v openssl >/dev/null 2>&1; then
	HAVE_TLS=0; note "openssl CLI not installed: TLS rows skipped"
elif ! "$NGINX" -V 2>&1 | grep -q http_ssl_module; then
	HAVE_TLS=0; note "nginx has no ssl module: TLS rows skipped"
elif ! "$HTTPERF" --help 2>&1 | grep -q -e '--ssl\]'; then
	HAVE_TLS=0; note "$HTTPERF has no --ssl: TLS rows skipped"
fi
TLS_ORIG=$ORIG
if [ "$HAVE_TLS" = 1 ] && [ -n "$ORIG" ] && ! "$ORIG" --help 2>&1 | grep -q -e '--ssl\]'; then
	TLS_ORIG=
	note "original httperf has no --ssl: its TLS column skipped"
fi

if command -v taskset >/dev/null 2>&1 && [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
	PIN_SRV="taskset -c 1"
	PIN_CLI="taskset -c 0"
else
	PIN_SRV=
	PIN_CLI=
	note "taskset missing or a single CPU: client and server are not pinned"
fi

# The fixture server for the held-connections rows.
if [ ! -x "$TESTSRV" ] && [ -f "$TREE/Makefile" ]; then
	make -C "$TREE" tests/fixture/testsrv >/dev/null 2>&1 || true
fi
if [ ! -x "$TESTSRV" ]; then
	note "no fixture server at $TESTSRV: held-connection rows skipped"
	TESTSRV=
fi

# File descriptors: 100,000 held connections need 100,200 (as root, with
# CAP_SYS_RESOURCE, beyond the hard limit), else as many as allowed.
HELD_N=100000
HARD=$(ulimit -Hn)
[ "$HARD" = unlimited ] && HARD=1048576
ulimit -n $((HELD_N + 200)) 2>/dev/null || ulimit -n "$HARD" 2>/dev/null || true
NOFILE=$(ulimit -n)
[ "$NOFILE" = unlimited ] && NOFILE=1048576
if [ "$NOFILE" -lt $((HELD_N + 200)) ]; then
	HELD_N=$(((NOFILE - 200) / 1000 * 1000))
	note "open-file limit is $NOFILE (< 100200, no CAP_SYS_RESOURCE): $HELD_N connections held instead of 100,000"
fi

WORK=$(mktemp -d /tmp/httperf-bench.XXXXXX) || die "mktemp failed"
NGINX_PID=
TESTSRV_PID=
cleanup() {
	[ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null
	[ -n "$TESTSRV_PID" ] && kill "$TESTSRV_PID" 2>/dev/null
	[ -n "$NGINX_PID" ] && wait "$NGINX_PID" 2>/dev/null
	[ -n "$TESTSRV_PID" ] && wait "$TESTSRV_PID" 2>/dev/null
	if [ "$KEEP" = 1 ]; then
		echo "raw outputs kept in $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

CMDLOG=$WORK/commands.txt
: > "$CMDLOG"
logcmd() {
	echo "$*" >> "$CMDLOG"
	[ "$VERBOSE" = 1 ] && echo "+ $*" >&2
	return 0
}
progress() { echo "... $*" >&2; }

# The kernel floor (bench/floor.c): built here, with io_uring when
# liburing is there.
FLOOR=$WORK/floor
FLOOR_MODES=
if [ -n "$VS" ]; then
	:
elif "$CC" -O2 -DFLOOR_URING -o "$FLOOR" "$SCRIPT_DIR/floor.c" -luring \
    > "$WORK/floor.cc" 2>&1; then
	FLOOR_MODES="epoll uring"
elif "$CC" -O2 -o "$FLOOR" "$SCRIPT_DIR/floor.c" > "$WORK/floor.cc" 2>&1; then
	FLOOR_MODES=epoll
	note "floor built without liburing: its io_uring row skipped"
else
	note "cannot build bench/floor.c with $CC: floor rows skipped ($(head -n 1 "$WORK/floor.cc"))"
fi

# ---------------------------------------------------------------- nginx ---
NG=$WORK/nginx
mkdir -p "$NG/html" "$NG/logs" "$NG/tmp"
head -c 1024 /dev/zero | tr '\0' 'x' > "$NG/html/1k.html"
# Self-signed EC P-256 certificate for the TLS server block.
if [ "$HAVE_TLS" = 1 ]; then
	logcmd openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -days 2 -subj /CN=localhost -keyout "$NG/key.pem" -out "$NG/cert.pem"
	if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -days 2 -subj /CN=localhost -keyout "$NG/key.pem" \
	    -out "$NG/cert.pem" > "$NG/openssl.out" 2>&1; then
		HAVE_TLS=0
		note "openssl could not make a certificate ($(tail -n 1 "$NG/openssl.out")): TLS rows skipped"
	fi
fi
SPORT=
port_in_use() {
	local hex
	hex=$(printf '%04X' "$1")
	grep -qi ":$hex 00000000:0000 0A" /proc/net/tcp 2>/dev/null
}
start_nginx() {
	local try port sport tls_block=
	for try in 1 2 3 4 5 6 7 8 9 10; do
		port=$((20000 + (RANDOM % 20000)))
		port_in_use "$port" && continue
		sport=
		if [ "$HAVE_TLS" = 1 ]; then
			sport=$((20000 + (RANDOM % 20000)))
			{ [ "$sport" = "$port" ] || port_in_use "$sport"; } && continue
			tls_block="server {
		listen 127.0.0.1:$sport ssl backlog=4096;
		ssl_certificate $NG/cert.pem;
		ssl_certificate_key $NG/key.pem;
		ssl_protocols TLSv1.2 TLSv1.3;
		ssl_session_cache shared:S:10m;
		keepalive_requests 1000000;
		root $NG/html;
	}"
		fi
		{
		nginx_conf_main "$NG" off 20000 30000
		echo "http {"
		echo "	access_log off;"
		nginx_conf_temps "$NG"
		cat <<CONF
	keepalive_requests 1000000;
	keepalive_timeout 120s;
	server {
		listen 127.0.0.1:$port backlog=4096;
		root $NG/html;
	}
	$tls_block
}
CONF
		} > "$NG/nginx.conf"
		logcmd $PIN_SRV "$NGINX" -p "$NG" -c "$NG/nginx.conf"
		$PIN_SRV "$NGINX" -p "$NG" -c "$NG/nginx.conf" 2> "$NG/stderr" &
		NGINX_PID=$!
		local i=0
		while [ $i -lt 50 ]; do
			kill -0 "$NGINX_PID" 2>/dev/null || break
			if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null &&
			    { [ -z "$sport" ] || (exec 3<>"/dev/tcp/127.0.0.1/$sport") 2>/dev/null; }; then
				NPORT=$port
				SPORT=$sport
				return 0
			fi
			sleep 0.1
			i=$((i + 1))
		done
		kill "$NGINX_PID" 2>/dev/null
		wait "$NGINX_PID" 2>/dev/null
		NGINX_PID=
	done
	cat "$NG/stderr" >&2
	die "could not start nginx"
}
start_nginx

# -------------------------------------------------------------- helpers ---
# cpu_run OUT TIMEOUT CMD...: run CMD pinned to the client CPU with output in
# OUT; the children's rusage (ms resolution) goes to OUT.cpu as
# "user_seconds sys_seconds".
cpu_run() {
	local out=$1 lim=$2
	shift 2
	logcmd timeout "$lim" $PIN_CLI "$@"
	(
		timeout -k 5 "$lim" $PIN_CLI "$@" > "$out" 2>&1
		rc=$?
		times > "$out.times"
		exit $rc
	)
	local rc=$?
	awk 'NR == 2 {
		split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "%.6f %.6f\n", u[1] * 60 + u[2], s[1] * 60 + s[2]
	}' "$out.times" > "$out.cpu"
	return $rc
}
cpu_user() { awk '{print $1}' "$1.cpu"; }
cpu_sys() { awk '{print $2}' "$1.cpu"; }

# Fields of an httperf report.
hp_total() {	# conns|reqs|replies|duration
	awk -v f="$2" '/^Total: connections/ {
		if (f == "conns") print $3; else if (f == "reqs") print $5;
		else if (f == "replies") print $7; else print $9 }' "$1"
}
hp_errors() { awk '/^Errors: total/ {print $3}' "$1"; }
hp_fdunavail() { awk '/^Errors: fd-unavail/ {print $3}' "$1"; }
hp_concurrent() {
	sed -n 's/.*<=\([0-9][0-9]*\) concurrent connections.*/\1/p' "$1"
}
num_or() { [ -n "$1" ] && echo "$1" || echo "$2"; }

median() {	# values on stdin, one a line
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit
		if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
fmt() { awk -v v="$1" -v p="${2:-2}" 'BEGIN { if (v == "") print "-"; else printf "%.*f\n", p, v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.3f", a / b; else print "-" }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 <= b + 0) }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 < b + 0) }'; }

# Check an httperf report for errors / missing replies; sets HPF to "!" if
# bad (and adds a note), to "" if not.  Not to be run in a subshell: the
# note would be lost.
hp_flag() {	# FILE LABEL EXPECTED-REPLIES
	local e r
	HPF=
	e=$(num_or "$(hp_errors "$1")" "?")
	r=$(num_or "$(hp_total "$1" replies)" 0)
	if [ "$e" != 0 ] || [ "$r" != "$3" ]; then
		note "$2: $r of $3 replies, $e errors (see $(basename "$1"))"
		HPF="!"
	fi
}

# ----------------------------------------------------- table machinery ---
ROWS=()
MET=0
TOTAL=0
SKIPPED=0
# row METRIC OURS ORIG WRK TARGET RESULT [H2LOAD]  (RESULT: PASS|FAIL|SKIP|"")
row() {
	ROWS+=("$(printf '%-50s %15s %17s %11s %11s %-16s %s' "$1" "$2" "$3" "$4" "${7:-}" "$5" "$6")")
	case $6 in
	PASS) MET=$((MET + 1)); TOTAL=$((TOTAL + 1)) ;;
	FAIL) TOTAL=$((TOTAL + 1)) ;;
	SKIP) SKIPPED=$((SKIPPED + 1)) ;;
	esac
}
verdict() { if "$@"; then echo PASS; else echo FAIL; fi; }

# ---------------------------------------------------------------- report --
# print_report: the table, the notes, the commands with -v.
print_report() {
	echo
	echo "httperf efficiency report  ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc 2>/dev/null || echo '?') CPUs, ${PIN_CLI:+client CPU 0 / server CPU 1, }nginx 1 worker, 1 KiB file, loopback)"
	echo "ours: $HTTPERF"
	echo "orig: ${ORIG:-(not installed)}    wrk: ${WRK:-(not installed)}    h2load: ${H2LOAD:-(not installed)}    CPU runs: median of $REPS"
	echo
	printf '%-50s %15s %17s %11s %11s %-16s %s\n' metric ours orig wrk h2load target result
	printf '%s\n' "$(printf '%.0s-' $(seq 1 130))"
	printf '%s\n' "${ROWS[@]}"
	echo
	if [ ${#NOTES[@]} -gt 0 ]; then
		echo "notes:"
		printf '  - %s\n' "${NOTES[@]}"
		echo
	fi
	if [ "$VERBOSE" = 1 ]; then
		echo "commands used:"
		awk '!seen[$0]++ { print "  " $0 }' "$CMDLOG"
		echo
	fi
	echo "targets met: $MET of $TOTAL${SKIPPED:+$( [ "$SKIPPED" -gt 0 ] && echo " ($SKIPPED skipped: original not installed)")}"
}

HP_COMMON=(--server 127.0.0.1 --port)

# ------------------------------------------------------ syscalls/request --
SC_N=50
SC_CALLS=1000
SC_REQS=$((SC_N * SC_CALLS))
strace_total() {	# strace -c summary -> total calls
	awk '$NF == "total" { print $4 }' "$1"
}
sc_ours= sc_orig= sc_wrk= sc_flag_ours= sc_flag_orig=
if [ "$HAVE_STRACE" = 1 ]; then
	progress "syscalls per request (strace -c, $SC_N x $SC_CALLS keep-alive)"
	for who in ours orig; do
		bin=$HTTPERF
		[ $who = orig ] && bin=$ORIG
		[ -n "$bin" ] || continue
		out=$WORK/strace.$who
		cmd=(strace -c -f -o "$out.summary" "$bin" "${HP_COMMON[@]}" "$NPORT"
		    --uri /1k.html --num-conns $SC_N --num-calls $SC_CALLS --rate 50000)
		logcmd timeout 120 $PIN_CLI "${cmd[@]}"
		timeout -k 5 120 $PIN_CLI "${cmd[@]}" > "$out" 2>&1
		t=$(strace_total "$out.summary")
		r=$(num_or "$(hp_total "$out" replies)" 0)
		if [ -n "$t" ] && [ "$r" -gt 0 ]; then
			v=$(awk -v t="$t" -v r="$r" 'BEGIN { printf "%.6f", t / r }')
			hp_flag "$out" "syscalls run, $who" $SC_REQS; f=$HPF
			if [ $who = ours ]; then sc_ours=$v; sc_flag_ours=$f; else sc_orig=$v; sc_flag_orig=$f; fi
		else
			note "syscalls run, $who: no result (strace or httperf failed)"
		fi
	done
	if [ -n "$WRK" ]; then
		out=$WORK/strace.wrk
		cmd=(strace -c -f -o "$out.summary" "$WRK" -t 1 -c $SC_N -d 2s
		    "http://127.0.0.1:$NPORT/1k.html")
		logcmd timeout 30 $PIN_CLI "${cmd[@]}"
		timeout -k 5 30 $PIN_CLI "${cmd[@]}" > "$out" 2>&1
		t=$(strace_total "$out.summary")
		r=$(awk '/requests in/ {print $1}' "$out")
		[ -n "$t" ] && [ -n "$r" ] && [ "$r" -gt 0 ] &&
			sc_wrk=$(awk -v t="$t" -v r="$r" 'BEGIN { printf "%.6f", t / r }')
	fi
	res=FAIL
	le "$sc_ours" 2.1 && [ -z "$sc_flag_ours" ] && res=PASS
	row "syscalls/request, 50 keep-alive conns" "$(fmt "$sc_ours" 3)$sc_flag_ours" \
	    "$( [ -n "$ORIG" ] && echo "$(fmt "$sc_orig" 3)$sc_flag_orig" || echo n/a)" \
	    "$( [ -n "$WRK" ] && fmt "$sc_wrk" 3 || echo n/a)" "<= 2.1" $res
	[ -n "$VS" ] && row "  ratio new/old" "$(ratio "$sc_ours" "$sc_orig")" \
	    "" "" "(info)" ""
fi

# ------------------------------------------------------ CPU per request ---
# cpu_per_req NAME EXPECTED-REPLIES TIMEOUT ARGS...  (httperf args after
# --server/--port).  Sets CPR_ours, CPR_orig (median total us/req),
# CPU_ours/CPU_orig (median user us/req), FLAG_ours/FLAG_orig, RPS_*, and
# for TLS runs TLSRES_* (median % of handshakes resumed, from the report's
# "TLS: handshakes" line; empty when there is none).  CPR_PORT (default
# the plain nginx port) and CPR_WHO (default "ours orig") change the port
# and which clients run.
cpu_per_req() {
	local name=$1 expect=$2 lim=$3 rep who bin out r u s f tf
	shift 3
	: > "$WORK/$name.ours.tot"; : > "$WORK/$name.ours.usr"; : > "$WORK/$name.ours.rps"
	: > "$WORK/$name.orig.tot"; : > "$WORK/$name.orig.usr"; : > "$WORK/$name.orig.rps"
	: > "$WORK/$name.ours.tlsres"; : > "$WORK/$name.orig.tlsres"
	FLAG_ours= FLAG_orig=
	for rep in $(seq 1 "$REPS"); do
		for who in ${CPR_WHO:-ours orig}; do
			bin=$HTTPERF
			[ $who = orig ] && bin=$ORIG
			[ -n "$bin" ] || continue
			out=$WORK/$name.$who.$rep
			cpu_run "$out" "$lim" "$bin" "${HP_COMMON[@]}" "${CPR_PORT:-$NPORT}" "$@"
			hp_flag "$out" "$name run $rep, $who" "$expect"; f=$HPF
			[ -n "$f" ] && eval "FLAG_$who=!"
			# "TLS: handshakes N resumed N (P%) failed N"
			awk '/^TLS: handshakes/ { gsub(/[(%)]/, "", $6); print $6 }' "$out" >> "$WORK/$name.$who.tlsres"
			tf=$(awk '/^TLS: handshakes/ { print $8 }' "$out")
			if [ -n "$tf" ] && [ "$tf" != 0 ]; then
				note "$name run $rep, $who: $tf TLS handshakes failed (see $(basename "$out"))"
				eval "FLAG_$who=!"
			fi
			r=$(num_or "$(hp_total "$out" replies)" 0)
			[ "$r" -gt 0 ] || continue
			u=$(cpu_user "$out")
			s=$(cpu_sys "$out")
			awk -v u="$u" -v s="$s" -v r="$r" 'BEGIN { printf "%.6f\n", (u + s) * 1e6 / r }' >> "$WORK/$name.$who.tot"
			awk -v u="$u" -v r="$r" 'BEGIN { printf "%.6f\n", u * 1e6 / r }' >> "$WORK/$name.$who.usr"
			awk -v r="$r" -v d="$(hp_total "$out" duration)" 'BEGIN { if (d > 0) printf "%.1f\n", r / d }' >> "$WORK/$name.$who.rps"
		done
		for who in ${CPR_PEERS:-}; do
			peer_run "$name" "$who" "$rep"
		done
	done
	for who in ${CPR_PEERS:-}; do
		eval "PEER_$who=\$(median < \"\$WORK/\$name.\$who.tot\")"
		eval "PEERU_$who=\$(median < \"\$WORK/\$name.\$who.usr\")"
	done
	CPR_ours=$(median < "$WORK/$name.ours.tot")
	CPR_orig=$(median < "$WORK/$name.orig.tot")
	CPU_ours=$(median < "$WORK/$name.ours.usr")
	CPU_orig=$(median < "$WORK/$name.orig.usr")
	RPS_ours=$(median < "$WORK/$name.ours.rps")
	RPS_orig=$(median < "$WORK/$name.orig.rps")
	TLSRES_ours=$(median < "$WORK/$name.ours.tlsres")
	TLSRES_orig=$(median < "$WORK/$name.orig.tlsres")
}
# peer_run NAME PEER REP: one run of a peer (wrk, h2load, floor_epoll,
# floor_uring) on the keep-alive workload of CPR_CONNS connections and
# CPR_TOTAL requests (wrk: for CPR_SECS seconds, it has no count), in the
# same round as ours; appends its CPU per request to $WORK/NAME.PEER.tot
# and .usr.
peer_run() {
	local name=$1 who=$2 rep=$3 out r url
	out=$WORK/$name.$who.$rep
	[ "$rep" = 1 ] && { : > "$WORK/$name.$who.tot"; : > "$WORK/$name.$who.usr"; }
	url="http://127.0.0.1:$NPORT/1k.html"
	case $who in
	wrk)
		cpu_run "$out" 60 "$WRK" -t 1 -c "$CPR_CONNS" -d "${CPR_SECS}s" "$url"
		r=$(awk '/requests in/ {print $1}' "$out")
		grep -q 'Non-2xx\|Socket errors' "$out" &&
		    note "$name run $rep, wrk: $(grep 'Non-2xx\|Socket errors' "$out" | tr -s ' ')" ;;
	h2load)
		cpu_run "$out" 60 "$H2LOAD" --h1 -t 1 -c "$CPR_CONNS" -n "$CPR_TOTAL" "$url"
		# "requests: N total, N started, N done, N succeeded, ..."
		r=$(awk '/^requests:/ {print $8}' "$out")
		[ "$r" = "$CPR_TOTAL" ] || note "$name run $rep, h2load: $r of $CPR_TOTAL succeeded" ;;
	floor_*)
		cpu_run "$out" 60 "$FLOOR" "${who#floor_}" 127.0.0.1 "$NPORT" /1k.html \
		    "$CPR_CONNS" "$CPR_TOTAL"
		r=$(awk '/^requests/ {print $2}' "$out")
		[ "$r" = "$CPR_TOTAL" ] || note "$name run $rep, $who: failed ($(head -n 1 "$out"))" ;;
	esac
	case $r in ''|*[!0-9]*|0) return ;; esac
	awk -v u="$(cpu_user "$out")" -v s="$(cpu_sys "$out")" -v r="$r" \
	    'BEGIN { printf "%.6f\n", (u + s) * 1e6 / r }' >> "$WORK/$name.$who.tot"
	awk -v u="$(cpu_user "$out")" -v r="$r" \
	    'BEGIN { printf "%.6f\n", u * 1e6 / r }' >> "$WORK/$name.$who.usr"
}
# The peers that run: wrk and h2load when installed, the floor's modes.
PEERS=
[ -n "$WRK" ] && PEERS="$PEERS wrk"
[ -n "$H2LOAD" ] && PEERS="$PEERS h2load"
for m in $FLOOR_MODES; do PEERS="$PEERS floor_$m"; done
# peer_rows LABEL: the floor rows and the target "ours <= 0.75x the better
# of wrk and h2load" for a keep-alive workload just measured.
peer_rows() {
	local best= m v res
	[ -z "$VS" ] || return 0
	for m in wrk h2load; do
		eval "v=\${PEER_$m:-}"
		[ -n "$v" ] && { [ -z "$best" ] || lt "$v" "$best"; } && best=$v
	done
	for m in $FLOOR_MODES; do
		eval "v=\${PEER_floor_$m:-}"
		row "  bare-client floor, $m [us] (bench/floor.c)" "$(fmt "$v")" "" "" "(info)" ""
	done
	if [ -z "$best" ]; then
		row "  ours / better of wrk and h2load" "" "" "" "<= 0.75" SKIP
		return
	fi
	v=$(awk -v a="$CPR_ours" -v b="$best" 'BEGIN { if (a != "" && b > 0) printf "%.3f", a / b }')
	res=$(verdict le "$v" 0.75)
	row "  ours / better of wrk and h2load" "$v" "" "" "<= 0.75" "$res"
	for m in $FLOOR_MODES; do
		eval "v=\${PEER_floor_$m:-}"
		v=$(awk -v a="$v" -v b="$best" 'BEGIN { if (a != "" && b > 0) printf "%.3f", a / b }')
		row "  floor ($m) / better of wrk and h2load" "$v" "" "" "(info)" ""
	done
}
cpu_rows() {	# LABEL WRK-TOTAL WRK-USER [PREFIX] [H2LOAD-TOTAL H2LOAD-USER]
	local res target="<= orig"
	if [ -n "$VS" ]; then
		res= target="(info)"	# the ratio row below says it
	elif [ -z "$ORIG" ]; then
		res=SKIP
	elif [ -n "$FLAG_ours" ] || [ -z "$CPR_ours" ]; then
		res=FAIL
	elif [ -z "$CPR_orig" ]; then
		res=PASS	# the original could not run the workload at all
	else
		res=$(verdict le "$CPR_ours" "$CPR_orig")
	fi
	row "${4:-}client CPU/request, $1 [us]" "$(fmt "$CPR_ours")$FLAG_ours" \
	    "$( [ -n "$ORIG" ] && echo "$(fmt "$CPR_orig")$FLAG_orig" || echo n/a)" \
	    "${2:-}" "$target" "$res" "${5:-}"
	row "  of which user space [us]" "$(fmt "$CPU_ours")" \
	    "$( [ -n "$ORIG" ] && fmt "$CPU_orig" || echo n/a)" "${3:-}" "(info)" "" "${6:-}"
	[ -n "$VS" ] && row "  ratio new/old" "$(ratio "$CPR_ours" "$CPR_orig")" \
	    "" "" "(info)" ""
	return 0
}

progress "client CPU per request, 50 keep-alive connections x 2000 requests, $REPS runs (with:$PEERS)"
CPR_PEERS=$PEERS CPR_CONNS=50 CPR_TOTAL=100000 CPR_SECS=5 \
    cpu_per_req ka50 100000 60 --uri /1k.html --num-conns 50 --num-calls 2000 --rate 50000
# peer_val PEER [usr]: its median (formatted), or n/a when not installed.
peer_val() {
	local v
	case " $PEERS " in *" $1 "*) ;; *) echo n/a; return ;; esac
	if [ "${2:-}" = usr ]; then eval "v=\${PEERU_$1:-}"; else eval "v=\${PEER_$1:-}"; fi
	fmt "$v"
}
w_tot=$(peer_val wrk)
cpu_rows "50 keep-alive" "$w_tot" "$(peer_val wrk usr)" "" "$(peer_val h2load)" "$(peer_val h2load usr)"
row "  request rate [req/s]" "$(fmt "$RPS_ours" 0)" \
    "$( [ -n "$ORIG" ] && fmt "$RPS_orig" 0 || echo n/a)" "" "(info)" ""
peer_rows
KA50_H2LOAD=$(peer_val h2load)

progress "client CPU per request, 1000 keep-alive connections x 100 requests, $REPS runs (with:$PEERS)"
CPR_PEERS=$PEERS CPR_CONNS=1000 CPR_TOTAL=100000 CPR_SECS=5 \
    cpu_per_req ka1000 100000 60 --uri /1k.html --num-conns 1000 --num-calls 100 --rate 100000
cpu_rows "1000 keep-alive" "$(peer_val wrk)" "$(peer_val wrk usr)" "" "$(peer_val h2load)" "$(peer_val h2load usr)"
peer_rows
KA1000_WRK=$(peer_val wrk) KA1000_H2LOAD=$(peer_val h2load)

progress "client CPU per request, new connection per request (10000 at 5000/s), $REPS runs"
cpu_per_req newconn 10000 60 --uri /1k.html --num-conns 10000 --num-calls 1 --rate 5000
cpu_rows "new conn per request" "" ""
# --vs: the before/after comparison ends here.
if [ -n "$VS" ]; then
	print_report
	exit 0
fi

# ------------------------------------------------------- event backends ---
# Ours on each event backend built in (HTTPERF_LOOP), the backends taking
# turns in each of REPS rounds: CPU per request (median) for the three
# workloads above, system calls per request (strace -c; for io_uring its
# io_uring_enter calls are counted like any other) and CPU use at --rate
# 100.  The default backend (epoll) must be the fastest.
BACKENDS=epoll
"$HTTPERF" -V 2>/dev/null | grep -q ' poll' && BACKENDS="$BACKENDS poll"
"$HTTPERF" -V 2>/dev/null | grep -q ' io_uring)' && BACKENDS="$BACKENDS uring"
be_cpu() {	# NAME EXPECTED TIMEOUT ARGS...: sets BE_<backend> medians
	local name=$1 expect=$2 lim=$3 rep be out r
	shift 3
	for be in $BACKENDS; do : > "$WORK/be.$name.$be"; done
	for rep in $(seq 1 "$REPS"); do
		for be in $BACKENDS; do
			out=$WORK/be.$name.$be.$rep
			HTTPERF_LOOP=$be cpu_run "$out" "$lim" "$HTTPERF" \
			    "${HP_COMMON[@]}" "$NPORT" "$@"
			hp_flag "$out" "$name run $rep, backend $be" "$expect"
			r=$(num_or "$(hp_total "$out" replies)" 0)
			[ "$r" -gt 0 ] || continue
			awk -v u="$(cpu_user "$out")" -v s="$(cpu_sys "$out")" -v r="$r" \
			    'BEGIN { printf "%.6f\n", (u + s) * 1e6 / r }' >> "$WORK/be.$name.$be"
		done
	done
	for be in $BACKENDS; do
		eval "BE_$be=\$(median < \"\$WORK/be.\$name.\$be\")"
	done
}
be_rows() {	# LABEL [WRK [H2LOAD]]
	local be v best=
	for be in $BACKENDS; do
		eval "v=\$BE_$be"
		{ [ -z "$best" ] || lt "$v" "$best"; } && best=$v
	done
	for be in $BACKENDS; do
		eval "v=\$BE_$be"
		res=
		# Within 5%: the medians of a few runs differ by that much
		# between identical rounds on a shared machine.
		[ $be = epoll ] && res=$(verdict le "$v" "$(awk -v b="$best" 'BEGIN { print b * 1.05 }')")
		row "  $be: $1" "$(fmt "$v")" "" "${2:-}" \
		    "$( [ $be = epoll ] && echo "default, <=1.05x best" || echo "(info)")" "$res" "${3:-}"
	done
}
progress "event backends ($BACKENDS): CPU per request, $REPS rounds"
row "event backends: client CPU/request [us]" "" "" "" "" ""
be_cpu ka50 100000 60 --uri /1k.html --num-conns 50 --num-calls 2000 --rate 50000
be_rows "50 keep-alive" "$w_tot" "$KA50_H2LOAD"
be_cpu ka1000 100000 60 --uri /1k.html --num-conns 1000 --num-calls 100 --rate 100000
be_rows "1000 keep-alive" "$KA1000_WRK" "$KA1000_H2LOAD"
be_cpu newconn 10000 60 --uri /1k.html --num-conns 10000 --num-calls 1 --rate 5000
be_rows "new conn per request"
if [ "$HAVE_STRACE" = 1 ]; then
	row "event backends: syscalls/request, 50 keep-alive" "" "" "" "" ""
	for be in $BACKENDS; do
		out=$WORK/be.strace.$be
		cmd=(strace -c -f -o "$out.summary" "$HTTPERF" "${HP_COMMON[@]}" "$NPORT"
		    --uri /1k.html --num-conns $SC_N --num-calls $SC_CALLS --rate 50000)
		logcmd HTTPERF_LOOP=$be timeout 120 $PIN_CLI "${cmd[@]}"
		HTTPERF_LOOP=$be timeout -k 5 120 $PIN_CLI "${cmd[@]}" > "$out" 2>&1
		t=$(strace_total "$out.summary")
		r=$(num_or "$(hp_total "$out" replies)" 0)
		v=
		[ -n "$t" ] && [ "$r" -gt 0 ] &&
		    v=$(awk -v t="$t" -v r="$r" 'BEGIN { printf "%.6f", t / r }')
		row "  $be" "$(fmt "$v" 3)" "" "" "(info)" ""
	done
fi

# ------------------------------------------- cost of the result outputs ---
# Ours against itself: the same keep-alive workload without and with
# --json, --hlog and --interval (every collector they add on), runs
# interleaved, median CPU per request of each; the target is the ratio.
out_cost() {	# NAME EXPECTED-REPLIES TIMEOUT ARGS...
	local name=$1 expect=$2 lim=$3 rep mode out r
	shift 3
	: > "$WORK/$name.off.tot"; : > "$WORK/$name.on.tot"
	FLAG_off= FLAG_on=
	for rep in $(seq 1 "$OC_REPS"); do
		for mode in off on; do
			out=$WORK/$name.$mode.$rep
			if [ $mode = on ]; then
				cpu_run "$out" "$lim" "$HTTPERF" "${HP_COMMON[@]}" "$NPORT" "$@" \
				    --json "$out.json" --hlog "$out.hlog" --interval 1
			else
				cpu_run "$out" "$lim" "$HTTPERF" "${HP_COMMON[@]}" "$NPORT" "$@"
			fi
			hp_flag "$out" "$name run $rep, outputs $mode" "$expect"
			[ -n "$HPF" ] && eval "FLAG_$mode=!"
			r=$(num_or "$(hp_total "$out" replies)" 0)
			[ "$r" -gt 0 ] || continue
			awk -v u="$(cpu_user "$out")" -v s="$(cpu_sys "$out")" -v r="$r" \
			    'BEGIN { printf "%.6f\n", (u + s) * 1e6 / r }' >> "$WORK/$name.$mode.tot"
		done
	done
	OC_off=$(median < "$WORK/$name.off.tot")
	OC_on=$(median < "$WORK/$name.on.tot")
	OC_ratio=
	[ -n "$OC_off" ] && [ -n "$OC_on" ] &&
		OC_ratio=$(awk -v a="$OC_on" -v b="$OC_off" 'BEGIN { printf "%.4f", a / b }')
}
OC_REPS=$((REPS < 5 ? 5 : REPS))
if "$HTTPERF" --help 2>&1 | grep -q -e '--hlog'; then
	progress "client CPU per request without and with --json --hlog --interval, 50 keep-alive x 2000, $OC_REPS runs each"
	out_cost outcost 100000 60 --uri /1k.html --num-conns 50 --num-calls 2000 --rate 50000
	res=FAIL
	[ -z "$FLAG_off$FLAG_on" ] && le "$OC_ratio" 1.03 && res=PASS
	row "client CPU/request, outputs off [us]" "$(fmt "$OC_off")$FLAG_off" "" "" "(info)" ""
	row "  with --json --hlog --interval [us]" "$(fmt "$OC_on")$FLAG_on" "" "" "(info)" ""
	row "  ratio on/off" "$(fmt "$OC_ratio" 3)" "" "" "<= 1.03" $res
else
	note "$HTTPERF has no --hlog: result-output cost rows skipped"
fi

# -------------------------------------------------- TLS CPU per request ---
# The same measurement against the TLS server block.  The original's column
# uses TLS_ORIG (empty when it has no --ssl).
if [ "$HAVE_TLS" = 1 ] && [ -n "$SPORT" ]; then
	SAVED_ORIG=$ORIG
	ORIG=$TLS_ORIG
	CPR_PORT=$SPORT

	progress "TLS client CPU per request, 50 keep-alive connections x 1000 requests, $REPS runs"
	cpu_per_req tls_ka50 50000 60 --ssl --uri /1k.html --num-conns 50 --num-calls 1000 --rate 50000
	tls_ka_res=$TLSRES_ours
	w_tot= w_usr= w_rps=
	if [ -n "$WRK" ]; then
		out=$WORK/wrk.tls_ka50
		cpu_run "$out" 30 "$WRK" -t 1 -c 50 -d 3s "https://127.0.0.1:$SPORT/1k.html"
		r=$(awk '/requests in/ {print $1}' "$out")
		if [ -n "$r" ] && [ "$r" -gt 0 ]; then
			w_tot=$(awk -v u="$(cpu_user "$out")" -v s="$(cpu_sys "$out")" -v r="$r" 'BEGIN { printf "%.2f", (u + s) * 1e6 / r }')
			w_usr=$(awk -v u="$(cpu_user "$out")" -v r="$r" 'BEGIN { printf "%.2f", u * 1e6 / r }')
			w_rps=$(awk '/^Requests\/sec:/ {printf "%.1f", $2}' "$out")
		fi
		grep -q 'Non-2xx\|Socket errors' "$out" && note "wrk TLS run: $(grep 'Non-2xx\|Socket errors' "$out" | tr -s ' ')"
	fi
	cpu_rows "50 keep-alive" "$w_tot" "$w_usr" "TLS "
	row "  request rate [req/s]" "$(fmt "$RPS_ours" 0)" \
	    "$( [ -n "$ORIG" ] && fmt "$RPS_orig" 0 || echo n/a)" \
	    "$( [ -n "$WRK" ] && fmt "$w_rps" 0 || echo n/a)" "(info)" ""

	progress "TLS client CPU per request, new connection per request (1000 at 500/s), $REPS runs"
	cpu_per_req tls_new 1000 60 --ssl --uri /1k.html --num-conns 1000 --num-calls 1 --rate 500
	cpu_rows "new conn per request" "" "" "TLS "
	tls_new_res=$TLSRES_ours
	tls_cpr_orig=$CPR_orig tls_flag_orig=$FLAG_orig
	tls_rps_ours=$RPS_ours tls_rps_orig=$RPS_orig
	# ours with full handshakes only: the like-for-like comparison with
	# the original, which cannot resume sessions in this mode
	progress "TLS client CPU per request, new connection per request, ours --ssl-no-reuse, $REPS runs"
	CPR_WHO=ours
	cpu_per_req tls_new_full 1000 60 --ssl --ssl-no-reuse --uri /1k.html --num-conns 1000 --num-calls 1 --rate 500
	CPR_WHO=
	row "  ours --ssl-no-reuse (full handshakes) [us]" "$(fmt "$CPR_ours")$FLAG_ours" \
	    "$( [ -n "$ORIG" ] && echo "$(fmt "$tls_cpr_orig")$tls_flag_orig" || echo n/a)" "" "(info)" ""
	row "  request rate [req/s]" "$(fmt "$tls_rps_ours" 0)" \
	    "$( [ -n "$ORIG" ] && fmt "$tls_rps_orig" 0 || echo n/a)" "" "(info)" ""
	tls_note="TLS: ours resumes sessions by default (median $(fmt "$tls_new_res" 1)% of its handshakes resumed with a new conn per request, $(fmt "$tls_ka_res" 1)% with 50 keep-alive)"
	[ -n "$ORIG" ] && tls_note="$tls_note; the original cannot resume in this mode, so all its handshakes are full ones -- ours with --ssl-no-reuse (full handshakes too, $(fmt "$RPS_ours" 0) req/s) is the like-for-like comparison"
	note "$tls_note"

	CPR_PORT=
	ORIG=$SAVED_ORIG
fi

# ------------------------------------------------------------ rate 100 ---
progress "CPU use at --rate 100 (1000 connections, 10 s each)"
r100_pct_ours= r100_pct_orig= r100_rate_ours= r100_rate_orig= r100_dev_ours= r100_dev_orig=
r100_flag_ours= r100_flag_orig=
for who in ours orig; do
	bin=$HTTPERF
	[ $who = orig ] && bin=$ORIG
	[ -n "$bin" ] || continue
	out=$WORK/rate100.$who
	cpu_run "$out" 30 "$bin" "${HP_COMMON[@]}" "$NPORT" --uri /1k.html \
	    --num-conns 1000 --rate 100
	d=$(hp_total "$out" duration)
	c=$(hp_total "$out" conns)
	hp_flag "$out" "rate-100 run, $who" 1000; f=$HPF
	if [ -n "$d" ]; then
		pct=$(awk -v u="$(cpu_user "$out")" -v s="$(cpu_sys "$out")" -v d="$d" 'BEGIN { printf "%.3f", (u + s) * 100 / d }')
		rt=$(awk -v c="$c" -v d="$d" 'BEGIN { printf "%.3f", c / d }')
		dev=$(awk -v r="$rt" 'BEGIN { printf "%+.2f", (r - 100) }')	# % of 100
		eval "r100_pct_$who=\$pct r100_rate_$who=\$rt r100_dev_$who=\$dev"
	fi
	eval "r100_flag_$who=\$f"
done
res=FAIL
lt "$r100_pct_ours" 2 && [ -z "$r100_flag_ours" ] && res=PASS
row "CPU use at --rate 100 [%]" "$(fmt "$r100_pct_ours")$r100_flag_ours" \
    "$( [ -n "$ORIG" ] && echo "$(fmt "$r100_pct_orig")$r100_flag_orig" || echo n/a)" "" "< 2" $res
res=FAIL
if [ -n "$r100_dev_ours" ] && [ -z "$r100_flag_ours" ] &&
    awk -v d="$r100_dev_ours" 'BEGIN { exit !(d <= 0.5 && d >= -0.5) }'; then
	res=PASS
fi
row "achieved rate at --rate 100 [conn/s]" \
    "$( [ -n "$r100_rate_ours" ] && echo "$(fmt "$r100_rate_ours" 1) (${r100_dev_ours}%)" || echo -)" \
    "$( [ -n "$ORIG" ] && { [ -n "$r100_rate_orig" ] && echo "$(fmt "$r100_rate_orig" 1) (${r100_dev_orig}%)" || echo -; } || echo n/a)" \
    "" "100 +-0.5%" $res

# ------------------------------------------------------ held connections --
# peak_run OUT TIMEOUT CMD...: run CMD in the background on the client CPU,
# poll its peak RSS (VmHWM, KiB) every 100 ms; the peak goes to OUT.rss.
peak_run() {
	local out=$1 lim=$2 pid max=0 k v rest start
	shift 2
	logcmd $PIN_CLI "$@" "   # killed after ${lim} s; peak RSS from /proc/PID/status"
	$PIN_CLI "$@" > "$out" 2>&1 &
	pid=$!
	start=$SECONDS
	while kill -0 "$pid" 2>/dev/null; do
		if [ $((SECONDS - start)) -ge "$lim" ]; then
			kill "$pid" 2>/dev/null
			note "$(basename "$out"): killed after ${lim}s"
			break
		fi
		# taskset execs the client, so $pid is the client itself
		{
			while read -r k v rest; do
				if [ "$k" = VmHWM: ]; then
					[ "$v" -gt "$max" ] && max=$v
					break
				fi
			done < "/proc/$pid/status"
		} 2>/dev/null
		sleep 0.1
	done
	wait "$pid" 2>/dev/null
	echo "$max" > "$out.rss"
}

HELD_RATE=25000
[ "$HELD_N" -ge 1000 ] || { note "too few open files to hold connections: held rows skipped"; TESTSRV=; }
if [ -n "$TESTSRV" ]; then
	progress "connections held: $HELD_N at $HELD_RATE/s, each reply delayed 20 s"
	logcmd $PIN_SRV "$TESTSRV" -P "$WORK/testsrv.port" -t 300 -N $((HELD_N + 200))
	$PIN_SRV "$TESTSRV" -P "$WORK/testsrv.port" -t 300 -N $((HELD_N + 200)) > "$WORK/testsrv.out" 2>&1 &
	TESTSRV_PID=$!
	i=0
	while [ ! -s "$WORK/testsrv.port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	TPORT=$(cat "$WORK/testsrv.port" 2>/dev/null)
fi
if [ -n "$TESTSRV" ] && [ -n "${TPORT:-}" ]; then
	for who in ours orig; do
		bin=$HTTPERF
		src=(--myaddr 127.0.0.2-127.0.0.5)
		[ $who = orig ] && bin=$ORIG && src=()
		[ -n "$bin" ] || continue
		peak_run "$WORK/held.$who" 90 "$bin" "${HP_COMMON[@]}" "$TPORT" \
		    --uri /delay/20000/10 --num-conns $HELD_N --rate $HELD_RATE \
		    --timeout 60 "${src[@]}"
		peak_run "$WORK/idle.$who" 20 "$bin" "${HP_COMMON[@]}" "$TPORT" \
		    --uri /delay/2000/10 --num-conns 1 --rate $HELD_RATE \
		    --timeout 30 "${src[@]}"
		held=$(num_or "$(hp_concurrent "$WORK/held.$who")" 0)
		errs=$(num_or "$(hp_errors "$WORK/held.$who")" "?")
		fdu=$(num_or "$(hp_fdunavail "$WORK/held.$who")" "?")
		peak=$(cat "$WORK/held.$who.rss")
		base=$(cat "$WORK/idle.$who.rss")
		kib=
		[ "$held" -gt 0 ] && [ "$peak" -gt 0 ] && [ "$base" -gt 0 ] &&
			kib=$(awk -v p="$peak" -v b="$base" -v n="$held" 'BEGIN { printf "%.3f", (p - b) / n }')
		eval "held_$who=\$held errs_$who=\$errs kib_$who=\$kib"
		[ "$errs" != 0 ] && note "held run, $who: errors total $errs (fd-unavail $fdu); peak RSS $peak KiB, 1-connection RSS $base KiB"
		[ "$errs" = 0 ] && note "held run, $who: peak RSS $peak KiB, 1-connection RSS $base KiB"
	done
	res=FAIL
	[ "${held_ours:-0}" -ge $HELD_N ] && [ "${errs_ours:-}" = 0 ] && res=PASS
	cell_orig=n/a
	[ -n "$ORIG" ] && cell_orig="$held_orig ($errs_orig errs)"
	row "concurrent connections held" "$held_ours ($errs_ours errs)" "$cell_orig" "" ">= $HELD_N, 0 err" $res
	res=FAIL
	lt "${kib_ours:-}" 2 && [ "${held_ours:-0}" -ge $HELD_N ] && res=PASS
	row "memory per held connection [KiB]" "$(fmt "${kib_ours:-}")" \
	    "$( [ -n "$ORIG" ] && fmt "${kib_orig:-}" || echo n/a)" "" "< 2" $res
	kill "$TESTSRV_PID" 2>/dev/null
	wait "$TESTSRV_PID" 2>/dev/null
	TESTSRV_PID=
elif [ -n "$TESTSRV" ]; then
	note "fixture server did not start: held-connection rows skipped"
fi

print_report
exit 0
