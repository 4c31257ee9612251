#!/usr/bin/env bash
#
# bench/slo-overhead.sh -- the cost of evaluating objectives (--slo) at
# each interval's end: our httperf against the fixture server
# (tests/fixture/testsrv), the same keep-alive load with --interval 0.1
# interleaved: without --slo (B), with several --slo objectives (A),
# and with them and --slo-abort (C, every event judged).  Prints each run's client CPU (user + system, the
# process's own rusage via /usr/bin/time) per reply, the medians and
# the ratios A/B and C/B.  Target: A/B <= 1.01 (under 1% CPU per request).
#
# Not part of make check (timed).  Usage, from a built tree:
#   bench/slo-overhead.sh [-r RUNS] [-c CONNS] [-n CALLS]
# Defaults: 7 runs each, 50 connections x 2000 calls (100,000 requests).
# Client and fixture are pinned to CPUs 0 and 1 when taskset exists.
set -eu

runs=7 conns=50 calls=2000
while getopts r:c:n: o; do
	case $o in
	r) runs=$OPTARG ;;
	c) conns=$OPTARG ;;
	n) calls=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-c CONNS] [-n CALLS]" >&2; exit 1 ;;
	esac
done

top=$(cd "$(dirname "$0")/.." && pwd)
hp=$top/src/httperf
srv=$top/tests/fixture/testsrv
for f in "$hp" "$srv" /usr/bin/time; do
	[ -x "$f" ] || { echo "$0: $f is missing (build first)" >&2; exit 1; }
done
pin0="" pin1=""
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
	pin0="taskset -c 0" pin1="taskset -c 1"
fi

dir=$(mktemp -d)
trap 'kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; rm -rf "$dir"' EXIT
$pin1 "$srv" -P "$dir/port" -t 600 &
spid=$!
for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.05; done
port=$(cat "$dir/port")

slo=(--slo 'p99<50ms' --slo 'max<1s' --slo 'errors<=0'
    --slo 'errors<1%' --slo '5xx<1%' --slo 'connect.p99<10ms'
    --slo 'client-timo<=0' --slo 'reply-rate>=1')
base=(--server 127.0.0.1 --port "$port" --uri /ok --num-conns "$conns"
    --num-calls "$calls" --interval 0.1)

# one NAME ARGS...: one run; appends "CPU_PER_REPLY_US" to $dir/NAME.
one() {
	name=$1
	shift
	/usr/bin/time -f '%U %S' -o "$dir/time" $pin0 "$hp" "${base[@]}" \
	    "$@" > "$dir/out" 2> "$dir/iv" || true
	replies=$(awk '/^Total: /{ print $5 }' "$dir/out")
	[ "${replies:-0}" -gt 0 ] || { echo "$0: no replies" >&2; cat "$dir/out" >&2; exit 1; }
	awk -v r="$replies" '{ printf "%.3f\n", ($1 + $2) * 1e6 / r }' \
	    "$dir/time" >> "$dir/$name"
}

median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

one warm
for i in $(seq "$runs"); do
	one off
	one on "${slo[@]}"
	one abort "${slo[@]}" --slo-abort
done
mb=$(median "$dir/off")
ma=$(median "$dir/on")
mc=$(median "$dir/abort")
echo "requests per run: $((conns * calls)), runs: $runs each, --interval 0.1"
echo "B without --slo, CPU/request [us]: $(tr '\n' ' ' < "$dir/off")median $mb"
echo "A with $(( ${#slo[@]} / 2 )) objectives, CPU/request [us]: $(tr '\n' ' ' < "$dir/on")median $ma"
echo "C as A with --slo-abort, CPU/request [us]: $(tr '\n' ' ' < "$dir/abort")median $mc"
awk -v a="$ma" -v b="$mb" -v c="$mc" 'BEGIN { printf "ratio A/B: %.4f, C/B: %.4f (target <= 1.01)\n", a / b, c / b }'
