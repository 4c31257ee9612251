#!/usr/bin/env bash
#
# bench/concurrency.sh -- the closed loop's throughput, httperf
# --concurrency N against h2load -c N (nghttp2-client), in the same run,
# against one nginx started here (one worker, /1k.html, no access log):
# HTTP/1.1 (h2load --h1) and, with -m M, h2c with M streams a connection
# as well (httperf --http2 --max-streams M).  Each client runs D seconds
# (httperf --runtime D, h2load -D D), -r times each, interleaved; the
# median request rates are shown (httperf's from its `Concurrency' line,
# h2load's from its `finished in' line) with their ratio httperf /
# h2load (the issue's target: within 10%, 0.90 to 1.10).  Both clients
# run one thread, pinned to CPU 0 with nginx on CPU 1 when taskset and
# two CPUs are there.  A ratio is only meaningful on a quiet machine.
#
# usage: bench/concurrency.sh [-r RUNS] [-c N] [-d SECONDS] [-m STREAMS]
#   HTTPERF (default src/httperf), H2LOAD, NGINX: the programs.
#
# Needs bash, nginx (http_v2 for -m), h2load.

set -u
RUNS=3 CONNS=32 SECS=5 STREAMS=0
while getopts r:c:d:m: opt; do
	case $opt in
	r) RUNS=$OPTARG ;;
	c) CONNS=$OPTARG ;;
	d) SECS=$OPTARG ;;
	m) STREAMS=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-c N] [-d SECONDS] [-m STREAMS]" >&2
	   exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/nginx-bench.sh"
bench_preamble concurrency.sh
H2LOAD=${H2LOAD:-$(command -v h2load)}
[ -n "$H2LOAD" ] && [ -x "$H2LOAD" ] || die "h2load is missing (apt-get install nghttp2-client)"
bench_nginx_init concbench
P_H1=$(free_port)
P_H2C=$(free_port)
while [ "$P_H2C" = "$P_H1" ]; do P_H2C=$(free_port); done
H2C=
[ "$STREAMS" -gt 0 ] && H2C="	server {
		listen 127.0.0.1:$P_H2C http2;
		http2_max_concurrent_streams $STREAMS;
		root $N/html;
	}"
bench_nginx_conf "$P_H1" "" "$H2C"
bench_nginx_start "$P_H1"


# One mode: RUNS interleaved runs of each client; prints the row.
bench_mode() {
	local mode=$1 port=$2 r out rate
	local -a hpopt h2opt
	if [ "$mode" = h1 ]; then
		hpopt=()
		h2opt=(--h1)
	else
		hpopt=(--http2 --max-streams "$STREAMS")
		h2opt=(-m "$STREAMS")
	fi
	: > "$WORK/$mode.hp" ; : > "$WORK/$mode.h2"
	for r in $(seq "$RUNS"); do
		out=$WORK/$mode.hp.$r
		timeout -k 5 $((SECS + 60)) $PIN_CLI "$HTTPERF" \
		    --server 127.0.0.1 --port "$port" --uri /1k.html \
		    --concurrency "$CONNS" --runtime "$SECS" "${hpopt[@]}" \
		    > "$out" 2>&1 || die "httperf failed: $(tail -5 "$out")"
		grep -q '^Errors: total 0 ' "$out" ||
		    die "httperf: $(grep -E '^(Total|Errors)' "$out")"
		rate=$(sed -n 's/^Concurrency [0-9]*: \([0-9.]*\) req\/s.*/\1/p' "$out")
		[ -n "$rate" ] || die "httperf: no Concurrency line"
		echo "$rate" >> "$WORK/$mode.hp"

		out=$WORK/$mode.h2.$r
		timeout -k 5 $((SECS + 60)) $PIN_CLI "$H2LOAD" -t 1 \
		    -c "$CONNS" -D "$SECS" "${h2opt[@]}" \
		    "http://127.0.0.1:$port/1k.html" > "$out" 2>&1 ||
		    die "h2load failed: $(tail -5 "$out")"
		rate=$(sed -n 's/^finished in [0-9.]*m\{0,1\}s, \([0-9.]*\) req\/s.*/\1/p' "$out")
		[ -n "$rate" ] || die "h2load: no rate: $(tail -5 "$out")"
		echo "$rate" >> "$WORK/$mode.h2"
	done
	local hp h2
	hp=$(median %.1f < "$WORK/$mode.hp")
	h2=$(median %.1f < "$WORK/$mode.h2")
	echo "  $mode runs: httperf $(tr '\n' ' ' < "$WORK/$mode.hp")| h2load $(tr '\n' ' ' < "$WORK/$mode.h2")" >&2
	printf '%-4s  %10s  %10s  %6.3f  %s\n' "$mode" "$hp" "$h2" \
	    "$(awk -v a="$hp" -v b="$h2" 'BEGIN { print a / b }')" \
	    "$(awk -v a="$hp" -v b="$h2" 'BEGIN { r = a / b; print (r >= 0.90 && r <= 1.10) ? "ok" : "OUTSIDE 10%" }')"
}

echo "Closed loop, $CONNS connections, $SECS s a run, median of $RUNS runs [req/s]:"
echo "nginx $("$NGINX" -v 2>&1 | sed 's/.*\///'), $("$H2LOAD" --version | head -1)"
[ -z "$PIN_CLI" ] && echo "(not pinned: taskset missing or one CPU)"
printf '%-4s  %10s  %10s  %6s\n' mode httperf h2load ratio
bench_mode h1 "$P_H1"
[ "$STREAMS" -gt 0 ] && bench_mode h2c "$P_H2C"
exit 0
