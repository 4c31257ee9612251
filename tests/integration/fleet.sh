#!/bin/sh
# A fleet on one machine: five private network namespaces (a server and
# four clients) on a bridge that lives in a sixth, with 10.77.0.0/24
# addresses and no route anywhere else.  GNU parallel starts one httperf
# per client namespace with --client auto/4 (I from PARALLEL_SEQ), a
# common --start-at two seconds ahead and --json; `httperf --merge' of
# the four files must equal their sum and the server's own count, each
# client must have sent from its own namespace's address, and every
# client must have started within 50 ms of the others.  Against the
# fixture, and against nginx too when it is installed.
#
# Skips (visibly) only when the namespaces cannot be made here (not
# root, no CAP_NET_ADMIN, `ip netns' failing) or, outside CI, when GNU
# parallel is missing; in CI (CI=true or HTTPERF_STRICT=1) a missing
# parallel fails.  Namespaces, links and every process in them are
# removed on every way out.
# shellcheck source=tests/integration/lib.sh
. "$TESTLIB"

# need PROGRAM WHAT: t_missing when PROGRAM is not here.
need() {
	command -v "$1" >/dev/null 2>&1 || t_missing "$2 is missing"
}
need parallel "GNU parallel (Debian: parallel)"
need python3 "python3"
[ "$(id -u)" = 0 ] || skip "not root: cannot create network namespaces"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is missing"

N=4
NET=10.77.0
SRV=$NET.1
F_NS=hpf$$
F_MADE=""
F_DIR=$T_DIR/fleet
mkdir "$F_DIR"

# fleet_down: ends every process left in the namespaces (all ours: the
# namespaces are), then deletes them, which deletes their links.
fleet_down() {
	for ns in $F_MADE; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -TERM "$p" 2>/dev/null
		done
	done
	for ns in $F_MADE; do
		i=0
		while [ -n "$(ip netns pids "$ns" 2>/dev/null)" ] && [ $i -lt 40 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null
		done
		ip netns del "$ns" 2>/dev/null
	done
	F_MADE=""
}
# shellcheck disable=SC2154 # f_rc is set in the trap itself
trap 'f_rc=$?; fleet_down; (exit $f_rc); t_cleanup' EXIT

# f_ip ARGS: ip, bounded; on failure the namespaces cannot be made here.
f_ip() {
	if ! timeout 10 ip "$@" > "$F_DIR/ip.err" 2>&1; then
		skip "cannot set up network namespaces (ip $*: $(head -n 1 "$F_DIR/ip.err"))"
	fi
}

# The switch: a namespace holding only the bridge.
f_ip netns add "${F_NS}b"
F_MADE="${F_NS}b"
timeout 10 ip netns exec "${F_NS}b" true > "$F_DIR/ip.err" 2>&1 ||
    skip "ip netns exec fails: $(head -n 1 "$F_DIR/ip.err")"
f_ip -n "${F_NS}b" link add br0 type bridge
f_ip -n "${F_NS}b" link set br0 up

# f_host NAME ADDR: a namespace NAME with lo and a veth on the bridge
# holding ADDR/24.  No default route: 10.77.0.0/24 is all it reaches.
f_host() {
	f_ip netns add "$1"
	F_MADE="$1 $F_MADE"
	f_ip link add eth0 netns "$1" type veth peer name "$1" netns "${F_NS}b"
	f_ip -n "${F_NS}b" link set "$1" master br0
	f_ip -n "${F_NS}b" link set "$1" up
	f_ip -n "$1" link set lo up
	f_ip -n "$1" addr add "$2/24" dev eth0
	f_ip -n "$1" link set eth0 up
}
f_host "${F_NS}s" "$SRV"
for i in $(seq 1 $N); do
	f_host "${F_NS}c$i" "$NET.$((10 + i))"
done
# The bridge forwards once its ports are up: a bounded wait for each.
for h in "${F_NS}s" $(seq -f "${F_NS}c%g" 1 $N); do
	j=0
	until ip -n "${F_NS}b" -d link show dev "$h" 2>/dev/null |
	    grep -q 'bridge_slave state forwarding'; do
		j=$((j + 1))
		[ $j -lt 100 ] || fail "bridge port $h does not forward"
		sleep 0.05
	done
done
for h in "${F_NS}b" "${F_NS}s" $(seq -f "${F_NS}c%g" 1 $N); do
	if ip -n "$h" route show default | grep -q .; then
		fail "namespace $h has a default route"
	fi
done
ok "namespaces: a server and $N clients on a bridge, 10.77.0.0/24 only"

# One client, as GNU parallel runs it: $1 is its namespace; httperf
# itself takes I from PARALLEL_SEQ.
cat > "$F_DIR/job.sh" <<'JOB'
#!/bin/sh
exec ip netns exec "$1" "$HP" --server "$F_SRV" --port "$F_PORT" \
    --uri "$F_URI" --num-conns "$F_CONNS" --num-calls "$F_CALLS" \
    --rate "$F_RATE" --client "auto/$F_N" --start-at "$F_AT" \
    --json "$F_DIR/c$PARALLEL_SEQ.json" > "$F_DIR/c$PARALLEL_SEQ.out" 2>&1
JOB
F_CONNS=50
F_CALLS=2
F_RATE=200
F_SRV=$SRV
F_N=$N
export F_SRV F_PORT F_URI F_CONNS F_CALLS F_RATE F_N F_AT F_DIR
export PARALLEL_HOME="$F_DIR/parallel"

# jv FILE PATH: json_get, failing the test when the member is missing.
jv() {
	json_get "$1" "$2" 2>/dev/null || fail "$1: no member $2"
}

# fleet NAME PORT URI: the four clients against $SRV:PORT, started by
# GNU parallel to start together 2 s from now, then merged into
# $F_DIR/NAME.json (report in $OUT).  Checks each client's run and the
# merged totals; the caller checks the server's count.
fleet() {
	F_PORT=$2
	F_URI=$3
	rm -f "$F_DIR"/c*.json "$F_DIR"/c*.out
	F_AT=$(date +%s.%N | awk '{ printf "%.3f", $1 + 2 }')
	T_LAST="parallel ... httperf --client auto/$N --start-at $F_AT ($1)"
	timeout -k 5 90 parallel --will-cite --timeout 60 -j $N \
	    sh "$F_DIR/job.sh" ::: $(seq -f "${F_NS}c%g" 1 $N) \
	    < /dev/null > "$OUT" 2> "$OUT.err"
	RC=$?
	for i in $(seq 1 $N); do
		cat "$F_DIR/c$i.out" >> "$OUT" 2>/dev/null
	done
	expect_rc 0
	conns=$((N * F_CONNS))
	reqs=$((conns * F_CALLS))
	ids=""
	for i in $(seq 1 $N); do
		f=$F_DIR/c$i.json
		grep -q "^Total: connections $F_CONNS requests $((F_CONNS * F_CALLS)) replies $((F_CONNS * F_CALLS)) " \
		    "$F_DIR/c$i.out" || fail "$1: client $i: $(grep Total "$F_DIR/c$i.out")"
		validate_json "$f"
		# PARALLEL_SEQ i is client i - 1 of N, as --client auto says.
		[ "$(jv "$f" client.id)" = $((i - 1)) ] ||
		    fail "$1: job $i ran as client $(jv "$f" client.id)"
		[ "$(jv "$f" client.count)" = $N ] || fail "$1: job $i: client count"
		# A fixed --rate: client I's first arrival is I/(N*rate) s
		# after the common start, so the four are one even stream.
		[ "$(jv "$f" stats.sched.first_ns)" = $(((i - 1) * 1000000000 / (N * F_RATE))) ] ||
		    fail "$1: client $((i - 1)): first arrival at $(jv "$f" stats.sched.first_ns) ns"
		ids="$ids${ids:+, }$((i - 1))"
	done
	# Every client started within 50 ms of the others.
	python3 - "$F_DIR"/c[0-9]*.json > "$F_DIR/spread" <<'PY' ||
import json, sys
s = [json.load(open(f))["start"]["epoch_ns"] for f in sys.argv[1:]]
print("%.3f" % ((max(s) - min(s)) / 1e6))
sys.exit(0 if max(s) - min(s) <= 50000000 else 1)
PY
	    fail "$1: the clients started $(cat "$F_DIR/spread") ms apart (50 ms allowed)"
	T_LAST="httperf --merge ($1)"
	timeout 60 "$HP" --merge "$F_DIR"/c[0-9]*.json --json "$F_DIR/$1.json" \
	    > "$OUT" 2> "$OUT.err"
	RC=$?
	expect_rc 0
	expect_classic
	expect_counts $conns $reqs $reqs
	expect_status 0 $reqs 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	validate_json "$F_DIR/$1.json"
	[ "$(jv "$F_DIR/$1.json" client.ids)" = "[$ids]" ] || fail "$1: merged client ids"
	# Merged totals are the sum of the four files, member by member.
	for m in stats.basic.connections.total stats.basic.requests.total \
	    stats.basic.replies.total stats.basic.replies.status.2xx \
	    stats.basic.replies.content_bytes stats.basic.net.bytes \
	    stats.sched.scheduled stats.sched.made; do
		s=0
		for i in $(seq 1 $N); do
			s=$((s + $(jv "$F_DIR/c$i.json" $m)))
		done
		[ "$(jv "$F_DIR/$1.json" $m)" = "$s" ] ||
		    fail "$1: $m: merged $(jv "$F_DIR/$1.json" $m), sum $s"
	done
	ok "$1: $N clients by GNU parallel, started within $(cat "$F_DIR/spread") ms, merged = sum"
}

# per_addr FILE FIELD: "ADDR COUNT" lines, the addresses in FIELD of FILE.
per_addr() {
	awk -v f="$2" '{ n[$f]++ } END { for (a in n) print a, n[a] }' "$1" |
	    sort
}

# want_per_addr COUNT: the lines per_addr must print, COUNT per client.
want_per_addr() {
	for i in $(seq 1 $N); do
		echo "$NET.$((10 + i)) $1"
	done
}

# 1. The fixture in the server namespace.
rm -f "$T_DIR/port"
ip netns exec "${F_NS}s" "$TESTSRV" -a "$SRV" -P "$T_DIR/port" \
    -l "$T_DIR/srv.log" -S "$T_DIR/srv.stats" -t 300 &
SRV_PID=$!
T_PIDS="$T_PIDS $SRV_PID"
i=0
until [ -s "$T_DIR/port" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the fixture did not start in ${F_NS}s"
	sleep 0.05
done
fleet fixture "$(cat "$T_DIR/port")" /size/200
stop_srv
[ "$(srv_stat requests)" = $((N * F_CONNS * F_CALLS)) ] ||
    fail "fixture: the server counted $(srv_stat requests) requests"
[ "$(jv "$F_DIR/fixture.json" stats.basic.requests.total)" = "$(srv_stat requests)" ] ||
    fail "fixture: merged requests differ from the server's count"
# Each client connected from its own namespace's address.
grep ' PEER ' "$T_DIR/srv.log" > "$F_DIR/peers"
per_addr "$F_DIR/peers" 3 > "$F_DIR/got"
want_per_addr $F_CONNS > "$F_DIR/want"
cmp -s "$F_DIR/want" "$F_DIR/got" ||
    fail "fixture: connections per client address: $(cat "$F_DIR/got")"
ok "fixture: the server counted $(srv_stat requests) requests, $F_CONNS connections from each client's address"

# 2. nginx in the server namespace, when installed.
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$NGINX" ]; then
	echo "note: nginx is not installed: the fleet ran against the fixture only"
	exit 0
fi
NG=$T_DIR/nginx
nginx_start -n "${F_NS}s" "$NG" "" --server "$SRV" --port 8080 \
    --uri /1k.html <<CONF
	server {
		listen $SRV:8080;
		root $NG/html;
	}
CONF
# A clean log for the fleet.
: > "$ALOG"
fleet nginx 8080 /1k.html
want=$((N * F_CONNS * F_CALLS))
n=$(nginx_logged $want)
[ "$n" = $want ] || fail "nginx: the server logged $n requests, $want sent"
per_addr "$ALOG" 1 > "$F_DIR/got"
want_per_addr $((F_CONNS * F_CALLS)) > "$F_DIR/want"
cmp -s "$F_DIR/want" "$F_DIR/got" ||
    fail "nginx: requests per client address: $(cat "$F_DIR/got")"
ok "nginx: the server logged $n requests, $((F_CONNS * F_CALLS)) from each client's address"
