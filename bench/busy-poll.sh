#!/usr/bin/env bash
#
# bench/busy-poll.sh -- what --busy-poll changes: the server's request
# rate and the reply times, ours with and without it beside the original
# httperf 0.9.0 (which always busy-polls), on loopback, in one run.
#
# WHAT IT MEASURES
#   nginx (1 worker, pinned to CPU 0) serves a 1 KB file to 50 keep-alive
#   connections, each making CALLS calls one at a time (a closed loop:
#   the next request goes as soon as the reply is in), the client pinned
#   to CPU 1.  For each client: the request rate the server sustained
#   (the report's "Request rate"), the reply time percentiles (ours: the
#   "Reply time percentiles" line; 0.9.0 prints only the mean), the
#   client's CPU (user + system) per request, and, for ours, the count of
#   replies (must be all of them).  Clients: ours, ours --busy-poll,
#   httperf 0.9.0.  Every figure is the median of REPS (default 3) runs,
#   the clients taking turns.  Each run is bounded by a count and by
#   `timeout`.  The wake-up of a sleeping client is what --busy-poll
#   saves: with a client that sleeps, each reply costs the server a
#   wake-up on the client's CPU and the client the time to wake.
#
# USAGE
#   bench/busy-poll.sh [-r REPS] [-n CALLS] [PATH-TO-HTTPERF]
#   Environment: HTTPERF, ORIG_HTTPERF (default /usr/bin/httperf; skipped
#   when missing), NGINX, TESTSRV as for bench/large.sh.  Needs bash,
#   nginx, GNU time (/usr/bin/time); taskset when present.  CALLS
#   defaults to 2000 (100,000 requests a run).  Takes under a minute.
#
set -u

REPS=${REPS:-3}
CALLS=2000
while getopts r:n:h opt; do
	case $opt in
	r) REPS=$OPTARG ;;
	n) CALLS=$OPTARG ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $REPS$CALLS in ''|*[!0-9]*) echo "busy-poll.sh: -r and -n need positive numbers" >&2; exit 2 ;; esac
[ "$REPS" -gt 0 ] && [ "$CALLS" -gt 0 ] ||
    { echo "busy-poll.sh: -r and -n need positive numbers" >&2; exit 2; }

SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$SCRIPT_DIR/../tests/nginx-conf.sh"
TREE=$(cd "$SCRIPT_DIR/.." && pwd)
HTTPERF=${1:-${HTTPERF:-$TREE/src/httperf}}
ORIG=${ORIG_HTTPERF:-/usr/bin/httperf}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
TESTSRV=${TESTSRV:-$TREE/tests/fixture/testsrv}
TIME=/usr/bin/time

die() { echo "busy-poll.sh: $*" >&2; exit 1; }
[ -x "$HTTPERF" ] || die "no httperf binary at $HTTPERF (run make)"
[ -x "$NGINX" ] || die "nginx not found (apt-get install nginx-light)"
[ -x "$TIME" ] || die "GNU time not found (apt-get install time)"
[ -x "$TESTSRV" ] || make -C "$TREE" tests/fixture/testsrv >/dev/null ||
    die "no fixture server"
[ -x "$ORIG" ] || ORIG=
PIN0= PIN1=
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
	PIN0="taskset -c 0" PIN1="taskset -c 1"
fi

W=$(mktemp -d)
cleanup() {
	[ -f "$W/nginx.pid" ] && kill "$(cat "$W/nginx.pid")" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

mkdir -p "$W/html" "$W/logs" "$W/tmp"
head -c 1024 /dev/zero | tr '\0' 'x' > "$W/html/1k.html"
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
	keepalive_requests 1000000;
	server { listen 127.0.0.1:$PORT; root $W/html; }
}
CONF
} > "$W/nginx.conf"
$PIN0 "$NGINX" -c "$W/nginx.conf" -p "$W" || die "nginx did not start"
sleep 0.3

# med VALUES...: the median.
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

CONNS=50
N=$((CONNS * CALLS))
declare -A RATE P50 P90 P99 MEAN CPU
run_client() {
	name=$1
	shift
	$TIME -f '%U %S' -o "$W/time" timeout 300 $PIN1 "$@" \
	    --server 127.0.0.1 --port "$PORT" --uri /1k.html \
	    --num-conns $CONNS --rate 10000 --num-calls "$CALLS" \
	    > "$W/out" 2>&1
	grep -q "replies $N " "$W/out" ||
	    echo "busy-poll.sh: $name: missing replies: $(grep '^Total' "$W/out")" >&2
	RATE[$name]+="$(awk '/^Request rate:/ { print $3 }' "$W/out") "
	MEAN[$name]+="$(awk '/^Reply time \[ms\]:/ { print $5 }' "$W/out") "
	if grep -q '^Reply time percentiles' "$W/out"; then
		P50[$name]+="$(awk '/^Reply time percentiles/ { print $6 }' "$W/out") "
		P90[$name]+="$(awk '/^Reply time percentiles/ { print $8 }' "$W/out") "
		P99[$name]+="$(awk '/^Reply time percentiles/ { print $10 }' "$W/out") "
	fi
	CPU[$name]+="$(awk -v n=$N '{ print ($1 + $2) / n * 1e6 }' "$W/time" | tail -n 1) "
}

names=(ours ours-busy-poll)
[ -n "$ORIG" ] && names+=(orig-0.9.0)
for r in $(seq "$REPS"); do
	for n in "${names[@]}"; do
		case $n in
		ours) run_client $n "$HTTPERF" ;;
		ours-busy-poll) run_client $n "$HTTPERF" --busy-poll ;;
		orig-0.9.0) run_client $n "$ORIG" ;;
		esac
	done
done

echo "$CONNS keep-alive connections x $CALLS calls of 1 KB, nginx on CPU 0, client on CPU 1"
printf '  %-16s %10s %9s %9s %9s %9s %12s\n' client "req/s" "mean ms" "p50 ms" "p90 ms" "p99 ms" "CPU us/req"
for n in "${names[@]}"; do
	p50=- p90=- p99=-
	if [ -n "${P50[$n]:-}" ]; then
		p50=$(med ${P50[$n]}) p90=$(med ${P90[$n]}) p99=$(med ${P99[$n]})
	fi
	printf '  %-16s %10.0f %9s %9s %9s %9s %12.2f\n' "$n" "$(med ${RATE[$n]})" \
	    "$(med ${MEAN[$n]})" "$p50" "$p90" "$p99" "$(med ${CPU[$n]})"
done
printf '  busy-poll / without: req/s %.2fx\n' \
    "$(echo "$(med ${RATE[ours-busy-poll]}) / $(med ${RATE[ours]})" | bc -l)"
[ -n "$ORIG" ] && printf '  busy-poll / 0.9.0: req/s %.2fx\n' \
    "$(echo "$(med ${RATE[ours-busy-poll]}) / $(med ${RATE[orig-0.9.0]})" | bc -l)"
exit 0
