# bench/nginx-bench.sh -- what the benchmarks that start their own nginx
# share (sourced by bench/h2.sh, bench/concurrency.sh and others): a
# work directory removed at exit with nginx stopped, the CPU pinning,
# free loopback ports, the nginx prefix with its 1 KB page, the median,
# a client's CPU time.
#
# bench_preamble NAME: what every such benchmark starts with, after
# setting HERE (this directory): tests/nginx-conf.sh's helpers, HTTPERF
# (this tree's build unless set) and NGINX, die() (a line prefixed with
# NAME, exit 1), and the check that both are there.
bench_preamble() {
	BENCH_NAME=$1
	. "$HERE/../tests/nginx-conf.sh"
	HTTPERF=${HTTPERF:-$HERE/../src/httperf}
	NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
	[ -x "$HTTPERF" ] || die "no httperf at $HTTPERF (build it first)"
	[ -x "$NGINX" ] || die "nginx is missing"
}

die() {
	echo "$BENCH_NAME: $*" >&2
	exit 1
}

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

# bench_nginx_conf PORT [IN_SERVER [IN_HTTP]]: $N/nginx.conf for CONNS
# keep-alive connections: no access log, one server on PORT serving
# html/ with IN_SERVER's lines (locations) in it, then IN_HTTP's (more
# servers).
bench_nginx_conf() {
	{
	nginx_conf_main "$N" off $((CONNS * 2 + 64)) $((CONNS * 2 + 128))
	echo "http {"
	echo "	access_log off;"
	nginx_conf_temps "$N"
	cat <<CONF
	keepalive_requests 10000000;
	server {
		listen 127.0.0.1:$1;
		root $N/html;
${2:-}
	}
${3:-}
}
CONF
	} > "$N/nginx.conf"
}

# bench_nginx_start PORT: starts nginx (pinned by PIN_SRV, or by
# NGINX_PIN when set, even empty) as NPID and waits until /1k.html on
# PORT answers; then raises the open files limit for CONNS.
bench_nginx_start() {
	${NGINX_PIN-$PIN_SRV} "$NGINX" -p "$N" -c "$N/nginx.conf" \
	    2> "$N/stderr" &
	NPID=$!
	for i in $(seq 100); do
		"$HTTPERF" --server 127.0.0.1 --port "$1" --uri /1k.html \
		    2>/dev/null | grep -q '2xx=1 ' && break
		[ "$i" = 100 ] && { cat "$N/stderr" >&2; die "nginx did not start"; }
		sleep 0.05
	done
	ulimit -n $((CONNS * 2 + 128)) 2>/dev/null
}
