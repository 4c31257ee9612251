#!/usr/bin/env bash
#
# bench/template.sh -- what --template costs: the client's CPU time per
# request of the same keep-alive load against one nginx started here
# (one worker, no access log), with and without placeholders, in the
# same run.  The load is a closed loop of C connections and N requests
# (--concurrency C --num-calls N).  Four modes, each pair sending
# requests of the same size:
#
#   plain     GET /1k.html?n=1 with the header X-Id: (a fixed uuid)
#   seq+uuid  --template, GET /1k.html?n={{seq}}, X-Id: {{uuid}}
#   body      POST /post with a fixed 1 KiB body
#   randstr   --template, POST /post with --body '{{randstr 1024}}'
#
# The CPU time is the user+system time of the client process (its
# rusage through bash's `times', ms resolution) divided by its replies,
# whose count is checked exact.  -r rounds, each running the four modes
# in turn (alternating, so that a change of the machine's load touches
# them alike); the medians and the ratios seq+uuid / plain and
# randstr / body, of the medians and the median of each round's own
# (the issue's target: templates never the bottleneck, at most 1.10 for
# seq+uuid).  The client is pinned to CPU 0 and nginx
# to CPU 1 when taskset and two CPUs are there.  A ratio is only
# meaningful on a quiet machine.
#
# usage: bench/template.sh [-r ROUNDS] [-c CONNS] [-n REQUESTS]
#   HTTPERF (default src/httperf), NGINX: the programs.
#
# Needs bash and nginx.

set -u
RUNS=5 CONNS=50 REQS=100000
while getopts r:c:n: opt; do
	case $opt in
	r) RUNS=$OPTARG ;;
	c) CONNS=$OPTARG ;;
	n) REQS=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-c CONNS] [-n REQUESTS]" >&2
	   exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/nginx-bench.sh"
bench_preamble template.sh
bench_nginx_init tmplbench
PORT=$(free_port)
bench_nginx_conf "$PORT" "		location = /post { return 204; }"
bench_nginx_start "$PORT"

# The modes' options (arrays named after the mode).
KB=$(head -c 1024 /dev/zero | tr '\0' x)
plain=(--uri '/1k.html?n=1'
    --add-header 'X-Id: 2f1c6b8e-3a4d-4e5f-9a6b-7c8d9e0f1a2b\n')
seq_uuid=(--template --uri '/1k.html?n={{seq}}' --add-header 'X-Id: {{uuid}}\n')
body=(--method POST --uri /post --body "$KB")
randstr=(--template --method POST --uri /post --body '{{randstr 1024}}')
MODES="plain seq_uuid body randstr"

# one MODE: one run of MODE; appends its CPU per reply [us] to $WORK/MODE.
one() {
	local mode=$1 out=$WORK/$1.out replies
	local -n opts=$1
	cpu_run "$out" "$HTTPERF" --server 127.0.0.1 --port "$PORT" \
	    --concurrency "$CONNS" --num-calls "$REQS" "${opts[@]}" ||
	    die "httperf ($mode) failed: $(tail -5 "$out")"
	replies=$(awk '/^Total: connections/ { print $7 }' "$out")
	[ "$replies" = "$REQS" ] && grep -q '^Errors: total 0 ' "$out" ||
	    die "httperf ($mode): $(grep -E '^(Total|Reply status|Errors)' "$out")"
	grep -q "^Reply status: 1xx=0 2xx=$REQS " "$out" ||
	    die "httperf ($mode): $(grep '^Reply status' "$out")"
	awk -v c="$(cat "$out.cpu")" -v n="$replies" \
	    'BEGIN { printf "%.3f\n", c / n * 1e6 }' >> "$WORK/$mode"
}

for m in $MODES; do : > "$WORK/$m"; done
one plain	# warm-up, not counted
: > "$WORK/plain"
for r in $(seq "$RUNS"); do
	for m in $MODES; do one "$m"; done
done

echo "Client CPU per request [us/req], $CONNS connections, $REQS requests a run, median of $RUNS rounds:"
echo "nginx $("$NGINX" -v 2>&1 | sed 's/.*\///')$([ -z "$PIN_CLI" ] && echo ', not pinned (taskset missing or one CPU)')"
for m in $MODES; do
	printf '%-9s %8s   runs: %s\n' "$m" "$(median %.3f < "$WORK/$m")" \
	    "$(tr '\n' ' ' < "$WORK/$m")"
done
# ratio A B [TARGET]: the ratio of A's and B's medians, and the median
# of the rounds' own ratios (a round runs A and B seconds apart, so a
# change of the machine's load touches both) with their range.
ratio() {
	local m rr
	m=$(awk -v a="$(median < "$WORK/$1")" -v b="$(median < "$WORK/$2")" \
	    'BEGIN { printf "%.3f", a / b }')
	paste "$WORK/$1" "$WORK/$2" | awk '{ printf "%.3f\n", $1 / $2 }' \
	    > "$WORK/$1.ratios"
	rr=$(median %.3f < "$WORK/$1.ratios")
	printf '%s (rounds: median %.3f, %s to %s)%s\n' "$m" "$rr" \
	    "$(sort -g "$WORK/$1.ratios" | head -1)" \
	    "$(sort -g "$WORK/$1.ratios" | tail -1)" \
	    "$(awk -v m="$m" -v t="${3:-}" 'BEGIN { if (t != "")
		printf " %s", m <= t ? "ok" : "OVER " t }')"
}
echo "ratio seq+uuid / plain: $(ratio seq_uuid plain 1.10)"
echo "ratio randstr / body:   $(ratio randstr body)"
exit 0
