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
#   ones), so a step's streams are its requests.
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
nginx_need
if ! "$NGINX" -V 2>&1 | grep -q http_v2_module; then
	[ "${CI:-}" = true ] && fail "nginx has no http_v2_module"
	skip "nginx has no http_v2_module"
fi
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
    print(r["stats"]["basic"]["requests"]["total"], h["streams"],
          h["conns_h2c"], h["streams_max"])
PY
[ "$(wc -l < "$T_DIR/h2.txt")" = 4 ] || fail "$(cat "$T_DIR/h2.txt")"
# Requests = streams, the most on one connection too (one connection,
# connected in the first step, carried over to the others).
awk '$1 < 40 || $2 != $1 || $4 != $1 { exit 1 }
	(NR == 1 || NR == 4) != ($3 == 1) || $3 > 1 { exit 1 }' \
    "$T_DIR/h2.txt" || fail "requests streams h2c-conns streams-max: \
$(tr '\n' ';' < "$T_DIR/h2.txt")"
ok "HTTP/2: a step counts the streams opened in it"
