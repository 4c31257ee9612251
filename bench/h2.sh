#!/usr/bin/env bash
#
# bench/h2.sh -- client CPU per request over HTTP/2, httperf against
# h2load (nghttp2-client), in the same run, against one nginx (http2 on)
# started here: h2 over TLS and h2c over plain TCP.
#
# The workload: C keep-alive connections, each with M streams open at a
# time, N requests in all (httperf: --num-conns C --num-calls N/C
# --burst-length M; h2load: -c C -m M -n N -t 1).  The client CPU is the
# user+system time of the whole client process (its rusage, through the
# shell's `times'), divided by the replies; both clients are pinned to CPU
# 0 and nginx to CPU 1 when taskset and two CPUs are there.  The runs are
# interleaved, -r times each, and the median is shown, then the ratio
# httperf / h2load (the issue's target: at most 1.10).
#
# usage: bench/h2.sh [-r RUNS] [-n REQUESTS] [-c CONNS] [-m STREAMS]
#   HTTPERF (default src/httperf), H2LOAD, NGINX: the programs.
#
# Needs bash, nginx with http_v2 and ssl, openssl, h2load.

set -u
RUNS=3 REQS=200000 CONNS=10 STREAMS=10
while getopts r:n:c:m: opt; do
	case $opt in
	r) RUNS=$OPTARG ;;
	n) REQS=$OPTARG ;;
	c) CONNS=$OPTARG ;;
	m) STREAMS=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-n REQUESTS] [-c CONNS] [-m STREAMS]" >&2
	   exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/nginx-bench.sh"
bench_preamble h2.sh
H2LOAD=${H2LOAD:-$(command -v h2load)}
[ -n "$H2LOAD" ] && [ -x "$H2LOAD" ] || die "h2load is missing (apt-get install nghttp2-client)"
"$NGINX" -V 2>&1 | grep -q http_v2_module || die "nginx has no http_v2_module"
"$HTTPERF" --http2 --num-conns 0 --server 127.0.0.1 --port 9 2>&1 |
    grep -q 'built without HTTP/2' && die "httperf was built without HTTP/2"

PER_CONN=$((REQS / CONNS))
REQS=$((PER_CONN * CONNS))
bench_nginx_init h2bench
P_TLS=$(free_port)
P_H2C=$(free_port)
while [ "$P_H2C" = "$P_TLS" ]; do P_H2C=$(free_port); done
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$N/key.pem" -out "$N/cert.pem" -days 2 -subj /CN=localhost \
    2>/dev/null || die "cannot make a certificate"
{
nginx_conf_main "$N" off 4096
echo "http {"
echo "	access_log off;"
nginx_conf_temps "$N"
cat <<CONF
	keepalive_requests 10000000;
	http2_max_concurrent_streams 128;
	ssl_certificate $N/cert.pem;
	ssl_certificate_key $N/key.pem;
	server {
		listen 127.0.0.1:$P_TLS ssl http2;
		listen 127.0.0.1:$P_H2C http2;
		root $N/html;
	}
}
CONF
} > "$N/nginx.conf"
$PIN_SRV "$NGINX" -p "$N" -c "$N/nginx.conf" 2> "$N/stderr" &
NPID=$!
for i in $(seq 100); do
	"$HTTPERF" --server 127.0.0.1 --port "$P_H2C" --http2 --uri /1k.html \
	    2>/dev/null | grep -q '2xx=1 ' && break
	[ "$i" = 100 ] && { cat "$N/stderr" >&2; die "nginx did not start"; }
	sleep 0.05
done

# One mode: RUNS interleaved runs of each client; prints the row.
bench_mode() {
	local mode=$1 port=$2 scheme=$3 ssl=$4 r out replies
	: > "$WORK/$mode.hp" ; : > "$WORK/$mode.h2"
	for r in $(seq "$RUNS"); do
		out=$WORK/$mode.hp.$r
		cpu_run "$out" "$HTTPERF" --server 127.0.0.1 --port "$port" \
		    $ssl --http2 --uri /1k.html --num-conns "$CONNS" \
		    --num-calls "$PER_CONN" --burst-length "$STREAMS" ||
		    die "httperf failed: $(tail -5 "$out")"
		replies=$(awk '/^Total: connections/ {print $7}' "$out")
		[ "$replies" = "$REQS" ] ||
		    die "httperf: $replies replies of $REQS: $(grep -E '^(Total|Errors)' "$out")"
		awk -v c="$(cat "$out.cpu")" -v n="$replies" \
		    'BEGIN { printf "%.3f\n", c / n * 1e6 }' >> "$WORK/$mode.hp"

		out=$WORK/$mode.h2.$r
		cpu_run "$out" "$H2LOAD" -t 1 -c "$CONNS" -m "$STREAMS" \
		    -n "$REQS" "$scheme://127.0.0.1:$port/1k.html" ||
		    die "h2load failed: $(tail -5 "$out")"
		replies=$(awk '/^requests:/ {print $8}' "$out")
		[ "$replies" = "$REQS" ] ||
		    die "h2load: $replies succeeded of $REQS: $(grep -E '^requests:' "$out")"
		awk -v c="$(cat "$out.cpu")" -v n="$replies" \
		    'BEGIN { printf "%.3f\n", c / n * 1e6 }' >> "$WORK/$mode.h2"
	done
	local hp h2
	hp=$(median < "$WORK/$mode.hp")
	h2=$(median < "$WORK/$mode.h2")
	echo "  $mode runs: httperf $(tr '\n' ' ' < "$WORK/$mode.hp")| h2load $(tr '\n' ' ' < "$WORK/$mode.h2")" >&2
	printf '%-4s  %10s  %10s  %6.2f  %s\n' "$mode" "$hp" "$h2" \
	    "$(awk -v a="$hp" -v b="$h2" 'BEGIN { print a / b }')" \
	    "$(awk -v a="$hp" -v b="$h2" 'BEGIN { print (a <= 1.10 * b) ? "ok" : "OVER 1.10" }')"
}

echo "HTTP/2 client CPU per request [us/req], median of $RUNS runs:"
echo "$CONNS connections x $STREAMS streams, $REQS requests of /1k.html, nginx $("$NGINX" -v 2>&1 | sed 's/.*\///'), $("$H2LOAD" --version | head -1)"
[ -z "$PIN_CLI" ] && echo "(not pinned: taskset missing or one CPU)"
printf '%-4s  %10s  %10s  %6s\n' mode httperf h2load ratio
bench_mode h2 "$P_TLS" https --ssl
bench_mode h2c "$P_H2C" http ""
