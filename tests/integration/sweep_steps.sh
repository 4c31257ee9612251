#!/bin/sh
# What a --sweep step counts when it starts while sessions and
# connections are in flight (issue 25): a step's collectors see the
# events of a run already going, on a copy of the core.
# - Sessions: one counts once, whole, in the step it ends in (its
#   connections, its replies); the whole run's counts stay as without a
#   sweep (each step's session collector once counted its connections and
#   replies a second time into the same session).
# - HTTP/2: a connection carried over from the step before counts only
#   the streams opened in the step (it once brought all of its earlier
#   ones), so a step's streams are its requests; it is open at once in
#   each step (a step without a new connection said 0 concurrent).
. "$TESTLIB"

# sess_json FILE: one line per step and one for the run, "completed
# conns length-histogram".
sess_json() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
docs = [s["result"] for s in d["sweep"]["steps"]] + [d]
for r in docs:
    s = r["stats"]["sess_stat"]
    print(s["completed"], s["conns"],
          ",".join(str(v) for v in s["length_histogram"]))
PY
}

start_srv
SRV_PORT=$PORT

# Sessions of 3 calls on one connection (burst 3): each ends with 3
# replies and 1 connection, in the steps and in the whole run.
hp --uri /size/10 --wsess=1000,3,0 --burst-length 3 --rate 20 \
    --sweep 20:40:20 --step-time 1 --max-lateness 200 \
    --json "$T_DIR/sess.json"
expect_rc 0
sess_json "$T_DIR/sess.json" > "$T_DIR/sess.txt"
[ "$(wc -l < "$T_DIR/sess.txt")" = 3 ] || fail "$(cat "$T_DIR/sess.txt")"
awk '$1 == 0 || $2 != $1 || $3 != "0,0,0," $1 { exit 1 }' \
    "$T_DIR/sess.txt" || fail "sessions (completed conns lengths): \
$(tr '\n' ';' < "$T_DIR/sess.txt")"
expect 'Session: avg 1.00 connections/session'
n=$(awk 'END { print $1 }' "$T_DIR/sess.txt")
expect "Session length histogram: 0 0 0 $n"
# The steps' sessions are the run's but those that ended in a pause.
awk 'NR < 3 { s += $1 } END { exit !(s > 0 && s <= $1) }' \
    "$T_DIR/sess.txt" || fail "steps' sessions: $(tr '\n' ';' < "$T_DIR/sess.txt")"
ok "sessions: whole, once, in the step they end in"

# HTTP/2 (h2c) against nginx: --call-rate keeps one connection from
# step to step; each step's streams are its requests, the run's are the
# run's.
h2_need nginx
free_ports 1
NG=$PORTS
nginx_start "$T_DIR/nginx" '' --server 127.0.0.1 --port "$NG" --http2 \
    --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$NG http2;
		root $T_DIR/nginx/html;
	}
CONF
PORT=$NG hp --http2 --uri /1k.html --call-rate 50 --sweep 50:150:50 \
    --step-time 1 --max-lateness 200 --json "$T_DIR/h2.json"
expect_rc 0
python3 - "$T_DIR/h2.json" > "$T_DIR/h2.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in [s["result"] for s in d["sweep"]["steps"]] + [d]:
    h = r["stats"]["h2"]
    b = r["stats"]["basic"]
    print(b["requests"]["total"], h["streams"], h["conns_h2c"],
          h["streams_max"], b["connections"]["max_concurrent"])
PY
[ "$(wc -l < "$T_DIR/h2.txt")" = 4 ] || fail "$(cat "$T_DIR/h2.txt")"
# Requests = streams, the most on one connection too (one connection,
# connected in the first step, carried over to the others: each step had
# it open).
awk '$1 < 40 || $2 != $1 || $4 != $1 || $5 != 1 { exit 1 }
	(NR == 1 || NR == 4) != ($3 == 1) || $3 > 1 { exit 1 }' \
    "$T_DIR/h2.txt" || fail "requests streams h2c-conns streams-max max-concurrent: \
$(tr '\n' ';' < "$T_DIR/h2.txt")"
ok "HTTP/2: a step counts the streams opened in it"

# The progress line (on a pseudo-terminal, as progress.sh runs it):
# during a sweep it shows the step's target, not --rate's, and no bar
# (the search decides the end); a closed loop (--concurrency, which has
# no schedule) shows its calls: a bar for --num-calls, a rate.
script -q -c true /dev/null < /dev/null > /dev/null 2>&1 ||
    t_missing "script(1) (util-linux) is missing"
ARGS="--server 127.0.0.1 --port $SRV_PORT"
pty "$T_DIR/p1" "exec $HP $ARGS --uri /size/10 --rate 10 --sweep 10:30:10 \
    --step-time 1 --max-lateness 200 > $OUT"
expect_rc 0
# The targets shown, in order, each once.
got=$(sed -n 's/.* of \([0-9.]*\)\/s .*/\1/p' "$T_DIR/p1" | uniq | tr '\n' ';')
[ "$got" = "10.0;20.0;30.0;" ] || fail "progress targets: $got"
! grep -q '%' "$T_DIR/p1" || fail "a bar in a sweep: $(tail -1 "$T_DIR/p1")"
# 2 calls of 2 ms at once: about 1000 a second, 1.2 s.
pty "$T_DIR/p2" "exec $HP $ARGS --uri /delay/2/10 --concurrency 2 \
    --num-calls 1200 > $OUT"
expect_rc 0
expect_counts 2 1200 1200
awk '!/^0:0[0-9] \[[#-]+\] +[0-9]+% ETA [0-9]:[0-9][0-9]  rate [0-9.]+\/s  replies [0-9]+  errors 0  p99 / {
		print "not a closed loop'"'"'s line: " $0; exit 1 }
	{ p = $0; sub(/^[^]]*\] +/, "", p); sub(/%.*/, "", p)
	  if (p + 0 < last) { print "back from " last "%: " $0; exit 1 }
	  last = p + 0
	  r = $0; sub(/.* rate /, "", r); sub(/\/s .*/, "", r)
	  if (r + 0 > 0) rate = 1 }
	END { if (NR < 1 || !rate) { print NR " lines, no rate"; exit 1 } }' \
    "$T_DIR/p2" > "$T_DIR/chk" || fail "$(cat "$T_DIR/chk")"
ok "progress: a step's target; a closed loop's calls, a bar and a rate"

# -v prints the whole run's reply-rate samples, one per 5 s, and only
# those: a step's collectors print nothing live (a step holding a whole
# 5 s window printed its sample a second time).  11 s: 2 samples.
hp --uri /size/10 --rate 10 --sweep 10:20:10 --step-time 5.5 \
    --max-lateness 200 -v
expect_rc 0
n=$(grep -c '^reply-rate = ' "$OUT")
[ "$n" = 2 ] || fail "-v: $n reply-rate lines, expected 2"
ok "-v: the run's reply-rate samples, once"
