# bench/nginx-bench.sh -- what the benchmarks that start their own nginx
# share (sourced by bench/h2.sh, bench/concurrency.sh and others): a
# work directory removed at exit with nginx stopped, the CPU pinning,
# free loopback ports, the nginx prefix with its 1 KB page, the median,
# a client's CPU time.
#
# bench_nginx_init NAME: makes WORK (named after NAME) and N (nginx's
# prefix, with html/1k.html), arms the cleanup, sets PIN_SRV and PIN_CLI
# (nginx on CPU 1, the client on CPU 0, when taskset and two CPUs are
# there).  NPID is the nginx to stop at exit, once started.
bench_nginx_init() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/httperf-$1.XXXXXX")
	NPID=
	trap bench_nginx_cleanup EXIT
	PIN_SRV= PIN_CLI=
	if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
		PIN_SRV="taskset -c 1"
		PIN_CLI="taskset -c 0"
	fi
	N=$WORK/nginx
	mkdir -p "$N/html" "$N/logs" "$N/tmp"
	head -c 1024 /dev/zero | tr '\0' 'x' > "$N/html/1k.html"
}

bench_nginx_cleanup() {
	[ -n "$NPID" ] && kill "$NPID" 2>/dev/null && wait "$NPID" 2>/dev/null
	rm -rf "$WORK"
}

# free_port: a loopback port nobody listens on now.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
	    echo $((20000 + RANDOM % 20000))
}

# median [FORMAT]: the median of the numbers on standard input (the mean
# of the two middle ones, printed with FORMAT, "%.6f" by default).
median() {
	sort -g | awk -v f="${1:-%.6f}" '{ v[NR] = $1 } END {
		if (NR == 0) exit
		if (NR % 2) print v[(NR + 1) / 2]
		else printf f "\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# cpu_run OUT CMD...: runs CMD pinned, output in OUT, its rusage in
# OUT.cpu as user+system seconds.
cpu_run() {
	local out=$1
	shift
	(
		timeout -k 5 300 $PIN_CLI "$@" > "$out" 2>&1
		rc=$?
		times > "$out.times"
		exit $rc
	)
	local rc=$?
	awk 'NR == 2 {
		split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "%.6f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2]
	}' "$out.times" > "$out.cpu"
	return $rc
}
