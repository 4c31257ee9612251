#!/usr/bin/env bash
#
# bench/large.sh -- large bodies at wire speed: our httperf beside wrk,
# the original httperf 0.9.0 and curl, on loopback, in one run.
#
# WHAT IT MEASURES
#   download   a 10 MB file from nginx (1 worker, sendfile, pinned to CPU
#              0) over 4 keep-alive connections, the client pinned to CPU
#              1: throughput (body bytes / wall time, GB/s) and client CPU
#              (user + system, from its rusage) per GB received.  Clients:
#              ours with its defaults (the kernel sizes the socket buffers;
#              bodies nobody prints are dropped unread with MSG_TRUNC),
#              ours with 0.9.0's buffers (--send-buffer 4096
#              --recv-buffer 16384, info), ours with --print-reply=body to
#              /dev/null (every byte read and copied, info), the original
#              httperf 0.9.0, and wrk -t1 -c4.  Target: ours >= 1.0x wrk's
#              throughput, with less CPU per GB than wrk.
#   upload     a 10 MB request body (--body-file) to the project's fixture
#              server, which reads every byte (/body-md hashes it), one
#              connection, 20 requests: ours against one curl process
#              sending the same body 20 times over one keep-alive
#              connection (without "Expect: 100-continue", which makes
#              curl wait a second per request).  Target: ours >= 0.9x
#              curl's throughput.
#   Every figure is the median of REPS (default 3) runs, the clients
#   taking turns.  Each run is bounded by a count and by `timeout`.
#
# USAGE
#   bench/large.sh [-r REPS] [PATH-TO-HTTPERF]
#   Environment: HTTPERF, ORIG_HTTPERF (default /usr/bin/httperf; skipped
#   when missing), WRK, CURL, NGINX, TESTSRV as for bench/run.sh;
#   BASE_HTTPERF, another build of ours (say, before a change), measured
#   as "base"; CLIENTS, the clients to run (say "ours base wrk");
#   CALLS, the calls per connection of a download (default 50: 2 GB).  Needs
#   bash, nginx and GNU time (/usr/bin/time); taskset when present.
#   Takes about a minute.
#
set -u

REPS=${REPS:-3}
while getopts r:h opt; do
	case $opt in
	r) REPS=$OPTARG ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $REPS in ''|*[!0-9]*|0) echo "large.sh: -r needs a positive number" >&2; exit 2 ;; esac

SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$SCRIPT_DIR/../tests/nginx-conf.sh"
TREE=$(cd "$SCRIPT_DIR/.." && pwd)
HTTPERF=${1:-${HTTPERF:-$TREE/src/httperf}}
ORIG=${ORIG_HTTPERF:-/usr/bin/httperf}
WRK=${WRK:-$(command -v wrk || true)}
CURL=${CURL:-$(command -v curl || true)}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
TESTSRV=${TESTSRV:-$TREE/tests/fixture/testsrv}
TIME=/usr/bin/time

die() { echo "large.sh: $*" >&2; exit 1; }
[ -x "$HTTPERF" ] || die "no httperf binary at $HTTPERF (run make)"
[ -x "$NGINX" ] || die "nginx not found (apt-get install nginx-light)"
[ -x "$TIME" ] || die "GNU time not found (apt-get install time)"
[ -x "$TESTSRV" ] || make -C "$TREE" tests/fixture/testsrv >/dev/null ||
    die "no fixture server"
[ -x "$ORIG" ] || ORIG=
[ -n "$WRK" ] && [ -x "$WRK" ] || WRK=
[ -n "$CURL" ] && [ -x "$CURL" ] || CURL=
PIN0= PIN1=
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
	PIN0="taskset -c 0" PIN1="taskset -c 1"
fi

W=$(mktemp -d)
cleanup() {
	[ -f "$W/nginx.pid" ] && kill "$(cat "$W/nginx.pid")" 2>/dev/null
	[ -n "${SRV:-}" ] && kill "$SRV" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

SIZE=10000000
mkdir -p "$W/html" "$W/logs" "$W/tmp"
head -c $SIZE /dev/zero | tr '\0' 'x' > "$W/html/10m.bin"
# A free port: bind 0 with the fixture, read it back, stop it.
"$TESTSRV" -P "$W/p" -t 5 & p=$!
for i in $(seq 50); do [ -s "$W/p" ] && break; sleep 0.1; done
PORT=$(cat "$W/p"); kill $p; wait $p 2>/dev/null
{
	nginx_conf_main "$W" on 1024
	echo "http {"
	echo "	access_log off;"
	nginx_conf_temps "$W"
	cat <<CONF
	keepalive_requests 100000;
	sendfile on;
	server { listen 127.0.0.1:$PORT; root $W/html; }
}
CONF
} > "$W/nginx.conf"
$PIN0 "$NGINX" -c "$W/nginx.conf" -p "$W" || die "nginx did not start"
sleep 0.3
# The worker's CPU (user + system clock ticks, /proc/PID/stat), to see
# which side is the limit: the server's CPU per GB served.
WORKER=$(pgrep -P "$(cat "$W/nginx.pid")" | head -n 1)
HZ=$(getconf CLK_TCK)
srv_ticks() { awk '{ print $14 + $15 }' "/proc/$WORKER/stat" 2>/dev/null || echo 0; }

# med VALUES...: the median.
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# timed OUT CMD...: runs CMD (bounded), its CPU seconds into $W/cpu and
# its wall seconds into $W/wall.
timed() {
	out=$1
	shift
	start=$(date +%s.%N)
	$TIME -f '%U %S' -o "$W/time" timeout 120 "$@" > "$out" 2>&1
	end=$(date +%s.%N)
	awk '{ print $1 + $2 }' "$W/time" | tail -n 1 > "$W/cpu"
	echo "$end - $start" | bc -l > "$W/wall"
}

CALLS=${CALLS:-50}
BYTES=$((4 * CALLS * SIZE))
declare -A GBS CPU SCPU
run_client() {
	name=$1
	shift
	s0=$(srv_ticks)
	case $name in
	wrk)
		timed "$W/out" $PIN1 "$WRK" -t1 -c4 -d3s "http://127.0.0.1:$PORT/10m.bin"
		# Bytes wrk read: requests x the reply's size (heads ~240 B).
		n=$(awk '/requests in/ { print $1 }' "$W/out")
		bytes=$((n * SIZE)) ;;
	*)
		timed "$W/out" $PIN1 "$@" --server 127.0.0.1 --port "$PORT" \
		    --uri /10m.bin --num-conns 4 --rate 1000 --num-calls $CALLS
		# (ours-read-all prints the bodies and its report to
		# /dev/null: nothing to check.)
		[ "$name" = ours-read-all ] ||
		    grep -q "replies $((4 * CALLS)) " "$W/out" ||
		    echo "large.sh: $name: missing replies: $(grep '^Total' "$W/out")" >&2
		bytes=$BYTES ;;
	esac
	s1=$(srv_ticks)
	GBS[$name]+="$(echo "$bytes / $(cat "$W/wall") / 1000000000" | bc -l) "
	CPU[$name]+="$(echo "$(cat "$W/cpu") / ($bytes / 1000000000)" | bc -l) "
	SCPU[$name]+="$(echo "($s1 - $s0) / $HZ / ($bytes / 1000000000)" | bc -l) "
}

names=(ours ours-0.9.0-buffers ours-read-all)
[ -n "$ORIG" ] && names+=(orig)
[ -n "$WRK" ] && names+=(wrk)
# BASE_HTTPERF=PATH: another build of ours (before a change) as "base".
[ -n "${BASE_HTTPERF:-}" ] && names+=(base)
# CLIENTS="ours wrk": only those (quicker, for a comparison of two).
[ -n "${CLIENTS:-}" ] && read -r -a names <<< "$CLIENTS"
for r in $(seq "$REPS"); do
	for n in "${names[@]}"; do
		case $n in
		ours) run_client ours "$HTTPERF" ;;
		base) run_client base "$BASE_HTTPERF" ;;
		ours-0.9.0-buffers) run_client $n "$HTTPERF" --send-buffer 4096 --recv-buffer 16384 ;;
		ours-read-all) run_client $n sh -c 'exec "$0" "$@" --print-reply=body > /dev/null' "$HTTPERF" ;;
		orig) run_client orig "$ORIG" ;;
		wrk) run_client wrk ;;
		esac
	done
done

echo "download: 10 MB over 4 keep-alive connections, nginx on CPU 0, client on CPU 1"
printf '  %-20s %10s %14s %14s\n' client "GB/s" "CPU s per GB" "nginx s per GB"
for n in "${names[@]}"; do
	g=$(med ${GBS[$n]})
	c=$(med ${CPU[$n]})
	printf '  %-20s %10.2f %14.3f %14.3f\n' "$n" "$g" "$c" "$(med ${SCPU[$n]})"
	eval "G_${n//[-.]/_}=$g C_${n//[-.]/_}=$c"
done
if [ -n "$WRK" ]; then
	printf '  ours / wrk: throughput %.2fx (target >= 1.0), CPU per GB %.2fx (target < 1.0)\n' \
	    "$(echo "$G_ours / $G_wrk" | bc -l)" "$(echo "$C_ours / $C_wrk" | bc -l)"
fi

# Upload: 10 MB bodies to the fixture, which hashes every byte.
"$TESTSRV" -P "$W/up" -t 300 & SRV=$!
for i in $(seq 50); do [ -s "$W/up" ] && break; sleep 0.1; done
UP=$(cat "$W/up")
head -c $SIZE /dev/urandom > "$W/body"
N=20
UB=$((N * SIZE))
declare -A UG
for r in $(seq "$REPS"); do
	timed "$W/out" $PIN1 "$HTTPERF" --server 127.0.0.1 --port "$UP" \
	    --uri /body-md --method POST --body-file "$W/body" --num-conns 1 \
	    --num-calls $N
	grep -q "replies $N " "$W/out" ||
	    echo "large.sh: upload: missing replies: $(grep '^Total' "$W/out")" >&2
	UG[ours]+="$(echo "$UB / $(cat "$W/wall") / 1000000000" | bc -l) "
	if [ -n "$CURL" ]; then
		args=()
		for i in $(seq $N); do
			args+=(-H "Expect:" --data-binary "@$W/body" -o /dev/null "http://127.0.0.1:$UP/body-md")
			[ $i -lt $N ] && args+=(--next)
		done
		timed "$W/out" $PIN1 "$CURL" -s "${args[@]}"
		UG[curl]+="$(echo "$UB / $(cat "$W/wall") / 1000000000" | bc -l) "
	fi
done
echo "upload: 10 MB bodies x $N over one keep-alive connection to the fixture (reads and hashes them)"
printf '  %-20s %10.2f GB/s\n' ours "$(med ${UG[ours]})"
if [ -n "$CURL" ]; then
	printf '  %-20s %10.2f GB/s\n' curl "$(med ${UG[curl]})"
	printf '  ours / curl: %.2fx (target >= 0.9)\n' \
	    "$(echo "$(med ${UG[ours]}) / $(med ${UG[curl]})" | bc -l)"
fi
