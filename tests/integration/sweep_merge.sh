#!/bin/sh
# Several clients running one fixed sweep (issue 25): --client 0/2 and
# 1/2 with the same --start-at run every planned step on the same
# wall-clock grid (step k from START + k * --step-time; the drain after a
# step takes its time out of the next step's warm-up), and --merge
# merges their results step by step: the counts added, the objectives
# judged on each merged step, the capacity from the merged verdicts.
. "$TESTLIB"

start_srv

# The fixture's request log, each line stamped with the wall clock when
# it appeared (ns; polled every ms): the server's view of the steps.
stamp_log() {
	timeout 60 python3 - "$T_DIR/srv.log" "$T_DIR/stamped" \
	    "$T_DIR/stamp.stop" <<'PY' &
import os, sys, time
src, dst, stop = sys.argv[1:4]
buf = b""
with open(src, "rb") as f, open(dst, "w") as o:
    while True:
        d = f.read()
        if d:
            t = time.time_ns()
            buf += d
            *lines, buf = buf.split(b"\n")
            for l in lines:
                o.write("%d %s\n" % (t, l.decode()))
            o.flush()
        elif os.path.exists(stop):
            break
        else:
            time.sleep(0.001)
PY
	STAMP_PID=$!
	T_PIDS="$T_PIDS $STAMP_PID"
}

# The clients: 20:60:20 conn/s each, steps of 1 s with 0.4 s of
# warm-up, every request held 200 ms by the server, so that calls are in
# flight at every step's end and the drain is long enough to see.  Each
# from its own address (--myaddr may differ between merged files), for
# the log.  --slo 2xx<=40: each client's steps (about 12, 24, 36
# replies) pass.
SW="--uri /delay/200/10 --rate 20 --sweep 20:60:20 --step-time 1
    --step-warmup 0.4 --timeout 5 --max-lateness 200"
stamp_log
at=$(($(date +%s) + 3))
for i in 0 1; do
	# shellcheck disable=SC2086
	timeout 60 "$HP" --server 127.0.0.1 --port "$PORT" $SW \
	    --myaddr 127.0.0.$((i + 1)) --client $i/2 --start-at $at \
	    --slo '2xx<=40' --json "$T_DIR/c$i.json" > "$T_DIR/c$i.out" \
	    2> "$T_DIR/c$i.err" &
	eval "P$i=\$!"
done
wait "$P0"; rc0=$?
wait "$P1"; rc1=$?
: > "$T_DIR/stamp.stop"
wait "$STAMP_PID"
for i in 0 1; do
	OUT=$T_DIR/c$i.out
	T_LAST="httperf --client $i/2"
	RC=$(eval echo "\$rc$i")
	expect_rc 0
	validate_json "$T_DIR/c$i.json"
	expect '^Sweep 20:60:20: 3 steps of 1\.000 s \(warm-up 0\.400 s\)$'
	# Each client alone: a fixed plan, every step passes.
	[ "$(awk '$2 == "plan" && $NF == "PASS"' "$OUT" | wc -l)" = 3 ] ||
	    fail "client $i: rows: $(grep plan "$OUT")"
	expect '^Capacity: 60\.0 conn/s \(all-pass: every planned level met 2xx<=40\)$'
	[ "$(json_get "$T_DIR/c$i.json" sweep.fixed)" = true ] ||
	    fail "client $i: sweep.fixed"
done
ok "two clients, a fixed plan each"

# The server's view: which client each connection came from, then each
# request's time in ms after START, by client.
awk -v at="$at" '
	$3 == "PEER" { peer[$2] = $4; next }
	$3 ~ /^[A-Z]+$/ { c = peer[$2] == "127.0.0.1" ? 0 : 1
		printf "%d %.3f\n", c, ($1 - at * 1e9) / 1e6 }' \
    "$T_DIR/stamped" > "$T_DIR/times"
for i in 0 1; do
	n=$(awk -v c=$i '$1 == c' "$T_DIR/times" | wc -l)
	t=$(awk '/^Total:/ { print $5 }' "$T_DIR/c$i.out")
	[ "$n" = "$t" ] || fail "client $i: the server logged $n, it sent $t"
done

# Aligned: the drain after each step leaves a gap of about 200 ms in
# each client's requests, and on the grid it starts at the step's end,
# START + k s (k = 1, 2), within 100 ms, in both clients.  (Off the
# grid each step would begin after the drain before it: 200 ms late at
# k = 2.)
for i in 0 1; do
	gaps=$(awk -v c=$i '$1 == c { print $2 }' "$T_DIR/times" | sort -n |
	    awk 'NR > 1 && $1 - prev > 100 { printf "%.0f ", prev }
		{ prev = $1 }')
	set -- $gaps
	[ $# = 2 ] || fail "client $i: gaps after $gaps ms, expected 2"
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 900 && a < 1100 &&
	    b > 1900 && b < 2100) }' ||
	    fail "client $i: steps end at $1 and $2 ms, expected 1000, 2000"
done
# Each step's measured window on the wall clock (its document's start
# and duration): START + k s + the warm-up, in both clients; the
# server's requests in it are the step's (give or take the edge).
for i in 0 1; do
	for k in 0 1 2; do
		p=sweep.steps.$k.result
		s=$(json_get "$T_DIR/c$i.json" $p.start.epoch_ns)
		d=$(json_get "$T_DIR/c$i.json" $p.duration_ns)
		n=$(json_get "$T_DIR/c$i.json" $p.stats.basic.requests.total)
		awk -v s="$s" -v d="$d" -v at="$at" -v k=$k 'BEGIN {
		    o = (s - at * 1e9) / 1e6 - 1000 * k - 400
		    exit !(o > -50 && o < 50 && d > 550e6 && d < 650e6) }' ||
		    fail "client $i step $k: window $s + $d ns"
		got=$(awk -v c=$i -v s="$s" -v d="$d" -v at="$at" '
		    BEGIN { lo = (s - at * 1e9) / 1e6; hi = lo + d / 1e6 }
		    $1 == c && $2 >= lo && $2 < hi' "$T_DIR/times" | wc -l)
		awk -v g="$got" -v n="$n" -v k=$k 'BEGIN {
		    exit !(g >= n - 2 && g <= n + 2 &&
		    n >= 12 * (k + 1) - 2 && n <= 12 * (k + 1) + 1) }' ||
		    fail "client $i step $k: $n requests, the server saw $got"
	done
done
# Interleaved as --client interleaves a fixed interval: in each step's
# measure client 1's requests come half an interval (1000 / 2L ms)
# after client 0's, whenever each one's drain ended (the median of the
# lags, the stamps being good to a ms or two).
for k in 0 1 2; do
	lag=$(awk -v k=$k '$2 >= 1000 * k + 400 && $2 < 1000 * (k + 1)' \
	    "$T_DIR/times" | sort -k 2n | awk '
		$1 == 0 { t0 = $2 }
		$1 == 1 && t0 != "" { print $2 - t0 }' | sort -n | awk '
		{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	awk -v l="$lag" -v w=$((500 / (20 * (k + 1)))) \
	    'BEGIN { exit !(l >= w - 4 && l <= w + 4) }' ||
	    fail "step $k: client 1 lags client 0 by $lag ms, expected" \
	    "$((500 / (20 * (k + 1)))) ms"
done
ok "steps on the wall-clock grid, their requests at the server"

# The merge: the classic report of the whole, then the merged table:
# each step's counts the sum of the files', at the sum of their levels.
mrg() {
	timeout 60 "$HP" --merge "$@" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf --merge $*"
}
OUT=$T_DIR/m.out
mrg "$T_DIR/c0.json" "$T_DIR/c1.json" --json "$T_DIR/m.json"
expect_rc 0
validate_json "$T_DIR/m.json"
expect_classic
expect '^Sweep 20:60:20: 3 steps of 1\.000 s \(warm-up 0\.400 s\)$'
expect '^Capacity: - conn/s \(none: no objectives\)$'
for k in 0 1 2; do
	p=sweep.steps.$k.result.stats.basic
	r0=$(json_get "$T_DIR/c0.json" $p.requests.total)
	r1=$(json_get "$T_DIR/c1.json" $p.requests.total)
	y0=$(json_get "$T_DIR/c0.json" $p.replies.total)
	y1=$(json_get "$T_DIR/c1.json" $p.replies.total)
	row=$(awk -v n=$((k + 1)) '$1 == n && $2 == "plan"' "$OUT")
	echo "$row" | awk -v l=$((40 * (k + 1))) -v r=$((r0 + r1)) \
	    -v y=$((y0 + y1)) '$3 != l ".0" || $4 != r || $6 != y ||
	    $NF != "-" { exit 1 }' ||
	    fail "step $k: $row; the files' $r0 + $r1 requests, $y0 + $y1 replies"
	[ "$(json_get "$T_DIR/m.json" $p.requests.total)" = $((r0 + r1)) ] ||
	    fail "step $k: merged JSON requests"
	[ "$(json_get "$T_DIR/m.json" sweep.steps.$k.level)" = \
	    "$((40 * (k + 1)))" ] || fail "step $k: merged JSON level"
done
[ "$(json_get "$T_DIR/m.json" sweep.capacity.end)" = none ] ||
    fail "merged capacity.end"
ok "--merge: each step the sum of the files'"

# The objectives on the merged steps (the files' own verdicts, all
# PASS, are not trusted): 2xx<=40 passes at 40 (about 24 replies) and
# fails at 80 (about 48): each file passed, the merge does not.
mrg "$T_DIR/c0.json" "$T_DIR/c1.json" --slo '2xx<=40' --json "$T_DIR/m.json" \
    --html "$T_DIR/m.html"
expect_rc 0
# The merged page's capacity line is the text's, the objective named
# (the merged document's options are the files', without it).
grep -q '<p class="capacity" id="capacity">Capacity: <strong>40\.0 conn/s</strong> (found: 2xx&lt;=40; the next level 80\.0 failed; a fixed plan: no search)</p>' \
    "$T_DIR/m.html" ||
    fail "merged page: $(grep -o '<p class="capacity".*</p>' "$T_DIR/m.html")"
validate_json "$T_DIR/m.json"
[ "$(awk '$2 == "plan" { printf "%s ", $NF }' "$OUT")" = "PASS FAIL FAIL " ] ||
    fail "verdicts: $(grep plan "$OUT")"
expect '^Capacity: 40\.0 conn/s \(found: 2xx<=40; the next level 80\.0 failed; a fixed plan: no search\)$'
expect_not '^Objective '
for k in 0 1 2; do
	a=$(json_get "$T_DIR/c0.json" sweep.steps.$k.result.stats.slo.0.value)
	b=$(json_get "$T_DIR/c1.json" sweep.steps.$k.result.stats.slo.0.value)
	v=$(json_get "$T_DIR/m.json" sweep.steps.$k.result.stats.slo.0.value)
	[ "$v" = "$((a + b))" ] || fail "step $k: merged 2xx $v, files $a + $b"
done
[ "$(json_get "$T_DIR/m.json" sweep.capacity.capacity)" = 40 ] &&
    [ "$(json_get "$T_DIR/m.json" sweep.capacity.fail)" = 80 ] ||
    fail "merged capacity: $(json_get "$T_DIR/m.json" sweep.capacity)"
# The first merged step fails: exit 4, as a run's sweep.
mrg "$T_DIR/c0.json" "$T_DIR/c1.json" --slo '2xx<=20'
expect_rc 4
expect '^Capacity: - conn/s \(first-fail: the first level 40\.0 failed 2xx<=20\)$'
ok "--merge: objectives judged on the merged steps, exit 0 and 4, the page"

# Refused, one line, exit 1: a sweep with a result that is no sweep, a
# sweep of another plan (another --sweep; as many steps at other levels;
# fewer steps; a search's probe); a step's result that does not merge
# (before anything is printed).
hp --uri /size/10 --rate 100 --num-conns 5 --client 1/2 \
    --json "$T_DIR/plain.json"
expect_rc 0
hp --uri /size/10 --rate 20 --sweep 20:40:20 --step-time 0.3 \
    --max-lateness 200 --client 1/2 --json "$T_DIR/other.json"
expect_rc 0
python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
def edit(name, f):
    doc = json.load(open(d + "/c1.json"))
    f(doc["sweep"]["steps"])
    json.dump(doc, open(d + "/" + name, "w"))
edit("level.json", lambda s: s[1].update(level=45))
edit("short.json", lambda s: s.pop())
edit("probe.json", lambda s: s[2].update(kind="probe"))
edit("step.json",
    lambda s: s[1]["result"]["stats"]["basic"]["requests"].pop("total"))
PY
refused() {
	f=$1
	shift
	mrg "$T_DIR/c0.json" "$T_DIR/$f"
	expect_rc 1
	[ ! -s "$OUT" ] || fail "$f: a report"
	[ "$(wc -l < "$OUT.err")" = 1 ] &&
	    [ "$(cat "$OUT.err")" = "httperf: --merge: $T_DIR/$f: $*" ] ||
	    fail "$f: $(cat "$OUT.err")"
}
refused plain.json "sweep: in one of this file and $T_DIR/c0.json only: a --sweep's result merges only with those of the same plan"
refused other.json "sweep.spec: 20:40:20, $T_DIR/c0.json's is 20:60:20: the files must have run the same fixed plan"
refused level.json "sweep.steps.1: level 45, $T_DIR/c0.json's is 40: the files must have run the same fixed plan"
refused short.json "sweep.steps: 2 steps, $T_DIR/c0.json has 3: the files must have run the same fixed plan"
refused probe.json "sweep.steps.2: a probe step of a capacity search: only fixed plans merge (with --client I/N, N above 1, a sweep runs every planned level)"
refused step.json "sweep.steps.1.result: stats.basic.requests.total: missing or not an unsigned integer"
ok "--merge: other plans and results that are no sweep refused"
