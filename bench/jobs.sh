#!/usr/bin/env bash
#
# bench/jobs.sh -- what --jobs costs: the client's CPU time per request
# with --jobs 2 against --jobs 1 (one process), in the same run, against
# one nginx started here (one worker, /1k.html, no access log).  Each
# run is a closed loop of C connections and R requests in all
# (--concurrency C --num-calls R: the same work either way, split over
# the workers with --jobs 2); its CPU time is everything the command
# used, the parent's set-up, pipes and merge and the workers' (bash's
# `time', which counts the reaped children), divided by the requests of
# its report.  -r runs of each, alternating; the medians and their
# ratio jobs2 / jobs1 (the issue's target: within 3%, at most 1.03).
# The requests count is checked exact in each run.  A third row runs
# the same split by hand (two plain processes, --client 0/2 and 1/2,
# pinned likewise), so the cost of --jobs itself (parent, pipes, merge)
# is the ratio jobs2 / by-hand, apart from what splitting one loop into
# two costs on a machine the server shares.
#
# On a 2-core machine nginx and the client share the cores, so this is
# the cost per request, not a speed-up: --jobs 2 cannot offer more than
# one process when the server needs a core too.
#
# -R RATE runs an open loop instead (--call-rate RATE --num-calls R,
# each worker RATE/N): below the saturation every request costs its own
# wake-ups whatever the workers, so the ratio is what --jobs and the
# split cost per request, without the closed loop's batching (a loop
# with twice the calls in flight reads more replies per wake-up).
#
# -1 gives the client one CPU (0) and nginx the other (1), both pinned,
# with every worker of --jobs 2 on CPU 0 (--cpus 0,0 is two workers on
# one CPU, allowed with a warning) and the split by hand likewise: then
# no worker shares a CPU with the server, and the ratio is what --jobs
# and the split cost, without the server's wake-ups on a worker's CPU
# (on 2 CPUs, --jobs 2 puts one worker beside nginx).
#
# usage: bench/jobs.sh [-1] [-r RUNS] [-c CONNS] [-n REQUESTS] [-R RATE]
#   HTTPERF (default src/httperf), NGINX: the programs.  Needs taskset.

set -u
RUNS=5 CONNS=16 REQS=100000 RATE= ONE=
while getopts 1r:c:n:R: opt; do
	case $opt in
	1) ONE=1 ;;
	r) RUNS=$OPTARG ;;
	c) CONNS=$OPTARG ;;
	n) REQS=$OPTARG ;;
	R) RATE=$OPTARG ;;
	*) echo "usage: $0 [-1] [-r RUNS] [-c CONNS] [-n REQUESTS] [-R RATE]" >&2
	   exit 2 ;;
	esac
done
# load SHARE: the workload options of one process doing 1/SHARE of it.
load() {
	if [ -n "$RATE" ]; then
		echo "--call-rate $((RATE / $1)) --num-calls $((REQS / $1))"
	else
		echo "--concurrency $((CONNS / $1)) --num-calls $((REQS / $1))"
	fi
}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/nginx-bench.sh"
bench_preamble jobs.sh
bench_nginx_init jobsbench
PORT=$(free_port)
bench_nginx_conf "$PORT"
# cpus JOBS: the workers' CPUs: with -1 all on CPU 0.
cpus() {
	[ -n "$ONE" ] || return 0
	if [ "$1" = 1 ]; then echo "--cpus 0"; else echo "--cpus 0,0"; fi
}
NGINX_PIN=
[ -n "$ONE" ] && NGINX_PIN="taskset -c 1"
bench_nginx_start "$PORT"

# hand: one run of 2 plain processes started together by this script,
# --client 0/2 and 1/2, each with half the connections and requests,
# pinned to CPUs 0 and 1 as --jobs 2 pins its workers: the same split
# without --jobs' parent, pipes and merge.  Appends as one() does, to
# $WORK/cpu.hand (the rate is not merged: not kept).
hand() {
	local t user sys i reqs=0 c
	TIMEFORMAT='%3U %3S'
	t=$( { time {
		for i in 0 1; do
			taskset -c $([ -n "$ONE" ] && echo 0 || echo $i) \
			    timeout -k 5 300 "$HTTPERF" \
			    --server 127.0.0.1 --port "$PORT" --uri /1k.html \
			    $(load 2) --timeout 5 --client $i/2 \
			    > "$WORK/out.hand.$i" 2>&1 &
		done
		wait
	}; } 2>&1 )
	read -r user sys <<< "$t"
	for i in 0 1; do
		c=$(awk '/^Total: / { print $5 }' "$WORK/out.hand.$i")
		reqs=$((reqs + ${c:-0}))
	done
	[ "$reqs" = "$REQS" ] || die "by hand: $reqs requests, not $REQS"
	awk -v u="$user" -v s="$sys" -v n="$reqs" \
	    'BEGIN { printf "%.3f\n", (u + s) * 1e6 / n }' >> "$WORK/cpu.hand"
}

# one JOBS: one run; appends its CPU seconds per request (in us) to
# $WORK/cpu.JOBS and its request rate to $WORK/rate.JOBS.
one() {
	local jobs=$1 out=$WORK/out.$1 t user sys reqs
	TIMEFORMAT='%3U %3S'
	t=$( { time timeout -k 5 300 "$HTTPERF" --server 127.0.0.1 \
	    --port "$PORT" --uri /1k.html $(load 1) --timeout 5 \
	    --jobs "$jobs" $(cpus "$jobs") > "$out" 2>&1; } 2>&1 ) ||
	    die "httperf --jobs $jobs failed: $(tail -5 "$out")"
	read -r user sys <<< "$t"
	reqs=$(awk '/^Total: / { print $5 }' "$out")
	[ "$reqs" = "$REQS" ] || die "--jobs $jobs: $reqs requests, not $REQS"
	grep -q '^Errors: total 0 ' "$out" ||
	    die "--jobs $jobs: $(grep '^Errors: total' "$out")"
	awk -v u="$user" -v s="$sys" -v n="$reqs" \
	    'BEGIN { printf "%.3f\n", (u + s) * 1e6 / n }' >> "$WORK/cpu.$jobs"
	sed -n 's/^Request rate: \([0-9.]*\) req\/s.*/\1/p' "$out" \
	    >> "$WORK/rate.$jobs"
}

: > "$WORK/cpu.1"; : > "$WORK/cpu.2"; : > "$WORK/cpu.hand"; : > "$WORK/rate.1"; : > "$WORK/rate.2"
for r in $(seq "$RUNS"); do
	one 1
	one 2
	hand
done
c1=$(median %.3f < "$WORK/cpu.1")
c2=$(median %.3f < "$WORK/cpu.2")
r1=$(median %.1f < "$WORK/rate.1")
r2=$(median %.1f < "$WORK/rate.2")
ch=$(median %.3f < "$WORK/cpu.hand")
if [ -n "$RATE" ]; then
	echo "Open loop, --call-rate $RATE, $REQS requests a run, nginx 1 worker, /1k.html;"
else
	echo "Closed loop, $CONNS connections, $REQS requests a run, nginx 1 worker, /1k.html;"
fi
echo "client CPU (user+system, parent and workers) per request, median of $RUNS runs:"
echo "  runs --jobs 1 [us/req]: $(tr '\n' ' ' < "$WORK/cpu.1")"
echo "  runs --jobs 2 [us/req]: $(tr '\n' ' ' < "$WORK/cpu.2")"
printf '%-9s %10s %12s\n' "" "us/req" "req/s"
printf '%-9s %10s %12s\n' "--jobs 1" "$c1" "$r1"
printf '%-9s %10s %12s\n' "--jobs 2" "$c2" "$r2"
printf '%-9s %10s %12s\n' "2 by hand" "$ch" "-"
echo "  runs 2 by hand [us/req]: $(tr '\n' ' ' < "$WORK/cpu.hand")"
awk -v a="$c2" -v b="$c1" 'BEGIN { r = a / b
	printf "ratio jobs2/jobs1: %.3f  %s\n", r, r <= 1.03 ? "ok (within 3%)" : "OUTSIDE 3%" }'
# What --jobs itself costs: its parent, pipes and merge, against the
# same two processes without them.
awk -v a="$c2" -v b="$ch" 'BEGIN { r = a / b
	printf "ratio jobs2/(2 by hand): %.3f  %s\n", r, r <= 1.03 ? "ok (within 3%)" : "OUTSIDE 3%" }'
exit 0
