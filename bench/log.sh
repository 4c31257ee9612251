#!/usr/bin/env bash
#
# bench/log.sh -- the cost of --log: the same keep-alive load (C
# connections of N calls each, /1k.html) against one nginx started here
# (one worker, no access log), interleaved: without --log (B), with
# --log FILE.csv (A) and with --log FILE.csv.gz (Z), the log on the
# work directory's file system.  Prints each run's client CPU (user +
# system, the process's own rusage via /usr/bin/time) per reply, the
# medians and the ratios A/B and Z/B.  Targets (issue 27): A/B <= 1.05,
# Z/B <= 1.10.  Each run's log must hold one record per reply.
#
# Not part of make check (timed).  Usage, from a built tree:
#   bench/log.sh [-r RUNS] [-c CONNS] [-n CALLS]
# Defaults: 7 runs each, 50 connections x 2000 calls (100,000 requests).
# nginx on CPU 1 and the client on CPU 0 when taskset and two CPUs are
# there.  A ratio is only meaningful on a quiet machine.
#   HTTPERF (default src/httperf), NGINX: the programs.

set -u
RUNS=7 CONNS=50 CALLS=2000
while getopts r:c:n: opt; do
	case $opt in
	r) RUNS=$OPTARG ;;
	c) CONNS=$OPTARG ;;
	n) CALLS=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-c CONNS] [-n CALLS]" >&2; exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/nginx-bench.sh"
bench_preamble log.sh
[ -x /usr/bin/time ] || die "/usr/bin/time is missing"
bench_nginx_init logbench
PORT=$(free_port)
bench_nginx_conf "$PORT"
bench_nginx_start "$PORT"

# one NAME [LOG]: one run, with --log LOG if given; appends its CPU per
# reply (us) to $WORK/NAME.
one() {
	local name=$1 log=${2:-} replies recs
	local -a opt=()
	[ -n "$log" ] && opt=(--log "$log")
	timeout -k 5 300 /usr/bin/time -f '%U %S' -o "$WORK/time" $PIN_CLI \
	    "$HTTPERF" --server 127.0.0.1 --port "$PORT" --uri /1k.html \
	    --num-conns "$CONNS" --num-calls "$CALLS" "${opt[@]}" \
	    > "$WORK/out" 2>&1 || die "httperf failed: $(tail -5 "$WORK/out")"
	grep -q '^Errors: total 0 ' "$WORK/out" ||
	    die "httperf: $(grep -E '^(Total|Errors)' "$WORK/out")"
	replies=$(awk '/^Total: /{ print $7 }' "$WORK/out")
	if [ -n "$log" ]; then
		recs=$(sed -n 's/^Log: .*: \([0-9]*\) records written, 0 dropped$/\1/p' "$WORK/out")
		[ "$recs" = "$replies" ] ||
		    die "$name: $recs records for $replies replies"
		rm -f "$log"
	fi
	awk -v r="$replies" '{ printf "%.3f\n", ($1 + $2) * 1e6 / r }' \
	    "$WORK/time" >> "$WORK/$name"
}

one warm
for r in $(seq "$RUNS"); do
	one off
	one on "$WORK/calls.csv"
	one gz "$WORK/calls.csv.gz"
done
mb=$(median %.3f < "$WORK/off")
ma=$(median %.3f < "$WORK/on")
mz=$(median %.3f < "$WORK/gz")
echo "requests per run: $((CONNS * CALLS)) ($CONNS keep-alive connections), runs: $RUNS each"
echo "B without --log, CPU/request [us]: $(tr '\n' ' ' < "$WORK/off")median $mb"
echo "A --log F.csv, CPU/request [us]: $(tr '\n' ' ' < "$WORK/on")median $ma"
echo "Z --log F.csv.gz, CPU/request [us]: $(tr '\n' ' ' < "$WORK/gz")median $mz"
awk -v a="$ma" -v b="$mb" -v z="$mz" 'BEGIN {
	printf "ratio A/B: %.4f (target <= 1.05), Z/B: %.4f (target <= 1.10)\n",
	    a / b, z / b }'
