#!/usr/bin/env bash
#
# bench/script.sh -- the CPU a request costs the client with --script,
# in the same run against one nginx started here (one worker, /1k.html,
# no access log), the client on one CPU:
#   dynamic  a request() that builds a new path per request: httperf
#            --script against wrk -s, same script, one connection each
#            (wrk -t1 -c1, httperf --concurrency 1); the ratio httperf /
#            wrk is the issue's target (at most 1.0);
#   static   a script that only sets the wrk table (no request(), no
#            response()) against httperf without --script: a ratio of
#            about 1.0 (nothing per request).
# CPU per request is the client's user + system time (GNU time) over its
# replies; each is run -r times, interleaved, and the medians are shown.
# A ratio is only meaningful on a quiet machine.
#
# usage: bench/script.sh [-r RUNS] [-d SECONDS]
#   HTTPERF (default src/httperf), WRK, NGINX: the programs.
#
# Needs bash, nginx, wrk, GNU time (/usr/bin/time).

set -u
RUNS=3 SECS=3
while getopts r:d: opt; do
	case $opt in
	r) RUNS=$OPTARG ;;
	d) SECS=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-d SECONDS]" >&2; exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/nginx-bench.sh"
bench_preamble script.sh
WRK=${WRK:-$(command -v wrk)}
TIME=/usr/bin/time
[ -n "$WRK" ] && [ -x "$WRK" ] || die "wrk is missing (apt-get install wrk)"
[ -x "$TIME" ] || die "GNU time is missing (apt-get install time)"
bench_nginx_init scriptbench
PORT=$(free_port)
CONNS=1	# one connection for each client
bench_nginx_conf "$PORT" '		location /c/ { return 200 "ok"; }'
bench_nginx_start "$PORT"
URL=http://127.0.0.1:$PORT

cat > "$WORK/dynamic.lua" <<'LUA'
counter = 0
request = function()
   counter = counter + 1
   return wrk.format(nil, "/c/" .. counter)
end
LUA
cat > "$WORK/static.lua" <<'LUA'
wrk.path = "/c/static"
LUA

# cpu_per_req OUT: microseconds of CPU per reply of the run in OUT.
cpu_per_req() {
	local cpu n
	cpu=$(sed -n 's/^CPU \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' "$1" |
	    awk '{ print $1 + $2 }')
	n=$(sed -n 's/^Total: .* replies \([0-9]*\) .*/\1/p; s/^ *\([0-9]*\) requests in .*/\1/p' "$1")
	[ -n "$cpu" ] && [ -n "$n" ] && [ "$n" -gt 0 ] ||
	    die "no CPU time or count in $1: $(tail -5 "$1")"
	awk -v c="$cpu" -v n="$n" 'BEGIN { printf "%.3f\n", c * 1e6 / n }'
}

# run NAME CMD...: one run of CMD; its CPU per request into WORK/NAME.
run() {
	local name=$1 out=$WORK/$1.out
	shift
	$PIN_CLI timeout -k 5 $((SECS + 60)) "$TIME" -f 'CPU %U %S' "$@" \
	    > "$out" 2>&1 || die "$name failed: $(tail -5 "$out")"
	cpu_per_req "$out" >> "$WORK/$name"
}

for r in $(seq "$RUNS"); do
	run hp_dyn "$HTTPERF" --script "$WORK/dynamic.lua" --concurrency 1 \
	    --runtime "$SECS" "$URL/"
	run wrk_dyn "$WRK" -t1 -c1 -d"${SECS}s" -s "$WORK/dynamic.lua" "$URL/"
	run hp_static "$HTTPERF" --script "$WORK/static.lua" --concurrency 1 \
	    --runtime "$SECS" "$URL/"
	run hp_plain "$HTTPERF" --concurrency 1 --runtime "$SECS" \
	    "$URL/c/static"
done

row() {
	local a b
	a=$(median %.3f < "$WORK/$2")
	b=$(median %.3f < "$WORK/$3")
	printf '%-8s  %10s  %10s  %6.3f\n' "$1" "$a" "$b" \
	    "$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
}
printf '%-8s  %10s  %10s  %6s   (us of client CPU per request, medians of %d)\n' \
    mode httperf other ratio "$RUNS"
row dynamic hp_dyn wrk_dyn
row static hp_static hp_plain
