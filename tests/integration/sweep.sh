#!/bin/sh
# Sweeps (--sweep, issue 25): the usage errors, one line naming the
# option, exit 1, before any load; a fixed sweep against the fixture.
. "$TESTLIB"

# by_time JSON: each step's requests against the fixture's log (started
# with -E: each request's wall-clock time, the same clock as the
# client's) within the step's window (its document's start and
# duration): "step requests sure ambiguous" per step.  The client counts
# a request in the step it has written it in, the fixture logs it when
# it has read it, a moment later: one logged just after a boundary may
# have been sent just before it.  So the requests logged up to 20 ms
# after either end of the window (or 1 ms before it: the clocks are read
# at slightly different moments) are `ambiguous', those between are
# `sure'.  Exits 1 unless sure <= requests <= sure + ambiguous for every
# step.
by_time() {
	python3 - "$1" "$T_DIR/srv.log" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ts = []
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) > 1 and f[1] != "PEER" and f[-1].startswith("t="):
        ts.append(int(f[-1][2:]))
A, B = 20000000, 1000000
bad = 0
for i, st in enumerate(d["sweep"]["steps"]):
    r = st["result"]
    s = r["start"]["epoch_ns"]
    e = s + r["duration_ns"]
    n = r["stats"]["basic"]["requests"]["total"]
    sure = sum(1 for t in ts if s + A < t < e - B)
    amb = sum(1 for t in ts if s - B <= t <= s + A or e - B <= t <= e + A)
    print(i + 1, n, sure, amb)
    if not sure <= n <= sure + amb:
        bad = 1
sys.exit(bad)
PY
}

start_srv -E

# Each row: the exact message after "httperf: ", a tab, the arguments
# (split by the shell).
n=0
while IFS='	' read -r msg args; do
	case $msg in ''|'#'*) continue ;; esac
	n=$((n + 1))
	# shellcheck disable=SC2086
	hp --uri /ok $args
	expect_rc 1
	[ "$(cat "$OUT.err")" = "httperf: $msg" ] ||
	    fail "$args: message: $(cat "$OUT.err"), expected: $msg"
	[ ! -s "$OUT" ] || fail "$args: something on stdout"
done <<'TABLE'
--sweep: requires a schedule (--rate or --period above 0, or --call-rate) or --concurrency	--sweep 10:50:10 --step-time 1
--sweep: 1.5:10*1.5: FROM is not a whole number	--concurrency 1 --sweep 1.5:10*1.5 --step-time 1
--sweep: requires --step-time	--rate 10 --sweep 10:50:10
--step-time: requires --sweep	--rate 10 --step-time 1
--step-warmup: requires --sweep	--rate 10 --step-warmup 1
--sweep-precision: requires --sweep	--rate 10 --sweep-precision 5
--sweep-tsv: requires --sweep	--rate 10 --sweep-tsv /dev/null
--runtime: cannot be used with --sweep (the sweep decides the length of the test)	--rate 10 --sweep 10:50:10 --step-time 1 --runtime 5
--num-conns: cannot be used with --sweep (the sweep decides the length of the test)	--rate 10 --sweep 10:50:10 --step-time 1 --num-conns 5
--num-calls: cannot be used with --sweep (the sweep decides the length of the test)	--call-rate 10 --sweep 10:50:10 --step-time 1 --num-calls 5
--slo-abort: cannot be used with --sweep (the objectives judge each step)	--rate 10 --sweep 10:50:10 --step-time 1 --slo p99<20ms --slo-abort
--step-warmup: must be shorter than --step-time	--rate 10 --sweep 10:50:10 --step-time 1 --step-warmup 1
--sweep-precision: must be above 0 and below 100 (percent)	--rate 10 --sweep 10:50:10 --step-time 1 --sweep-precision 100
--sweep: 50:10:10: TO is below FROM	--rate 10 --sweep 50:10:10 --step-time 1
--sweep: 10-50: expected FROM:TO:STEP or FROM:TO*FACTOR	--rate 10 --sweep 10-50 --step-time 1
--sweep: 10:100*1: FACTOR is not above 1	--call-rate 10 --sweep 10:100*1 --step-time 1
TABLE
[ "$n" = 16 ] || fail "read $n rows"

# A fixed sweep, 3 steps of 1 s, no warm-up: one table row per step at
# its level; the steps tile the run, so their requests add up to the
# run's exactly, and to what the fixture logged; each step achieves
# its offered rate (the schedule restarts at each step's rate, one
# interval after the step's start, so a step may lack its last one).
# --max-lateness 200: a loaded machine's lateness is not the point.
: > "$T_DIR/srv.log"
hp --uri /size/10 --rate 10 --sweep 10:30:10 --step-time 1 \
    --max-lateness 200
expect_rc 0
rows=$(awk '/^Sweep 10:30:10: 3 steps of 1.000 s \(warm-up 0.000 s\)$/ \
    { on = 1; next } on && $1 ~ /^[0-9]+$/' "$OUT")
[ "$(printf '%s\n' "$rows" | wc -l)" = 3 ] || fail "rows: $rows"
total=$(awk '/^Total:/ { print $5 }' "$OUT")
sum=$(printf '%s\n' "$rows" | awk '{ s += $4 } END { print s }')
[ "$sum" = "$total" ] || fail "steps' requests $sum, the run's $total"
[ "$(srv_requests)" = "$total" ] ||
    fail "fixture logged $(srv_requests), the run sent $total"
printf '%s\n' "$rows" | awk '
	$1 != NR || $2 != "plan" || $3 != 10 * NR ".0" { exit 1 }
	# requests and replies: the level, one less at most
	$4 > $3 || $4 < $3 - 2 || $6 != $4 { exit 1 }
	$12 != "0.00" || $13 != "-" { exit 1 }' ||
    fail "rows: $rows"

# --call-rate, a geometric sweep, a warm-up: the steps' requests are the
# level less its warm-up's share; the run has the warm-ups' too.
: > "$T_DIR/srv.log"
hp --uri /size/10 --call-rate 20 --sweep 20:80*2 --step-time 1 \
    --step-warmup 0.5 --max-lateness 200
expect_rc 0
rows=$(awk '/^Sweep 20:80\*2: 3 steps of 1.000 s \(warm-up 0.500 s\)$/ \
    { on = 1; next } on && $1 ~ /^[0-9]+$/' "$OUT")
printf '%s\n' "$rows" | awk '
	$1 != NR || $3 != 10 * 2 ^ NR ".0" { exit 1 }
	$4 > $3 / 2 + 1 || $4 < $3 / 2 - 2 { exit 1 }
	END { if (NR != 3) exit 1 }' || fail "rows: $rows"
total=$(awk '/^Total:/ { print $5 }' "$OUT")
[ "$total" -ge 135 ] && [ "$total" -le 140 ] || fail "total $total"

# No objectives: every planned step, the capacity line says so, exit 0.
grep -qx 'Capacity: - req/s (none: no objectives)' "$OUT" ||
    fail "capacity line: $(grep Capacity "$OUT")"

# The --json document (validated) has the steps, each with its own
# whole document whose request count is the table's; the --sweep-tsv
# file is autobench's, read back as bench2graph does (column 1 is x).
: > "$T_DIR/srv.log"
hp --uri /size/10 --rate 10 --sweep 10:30:10 --step-time 1 \
    --max-lateness 200 --json "$T_DIR/sw.json" --sweep-tsv "$T_DIR/sw.tsv" \
    --interval 0.5
expect_rc 0
validate_json "$T_DIR/sw.json"
# Each step's requests are the fixture's in its window, exactly (but
# for those logged at a boundary).
by_time "$T_DIR/sw.json" > "$T_DIR/bt" ||
    fail "step requests sure ambiguous: $(tr '\n' ';' < "$T_DIR/bt")"
[ "$(wc -l < "$T_DIR/bt")" = 3 ] || fail "by time: $(cat "$T_DIR/bt")"
amb=$(awk '{ a += $4 } END { print a + 0 }' "$T_DIR/bt")
# The --interval lines show each step's target, not --rate's: those in
# the middle of a step (0.5, 1.5 and 2.5 s) its level.
got=$(sed -n 's/^\[\([0-9.]*\) s\] arrivals [0-9.]*\/s (target \([0-9.]*\)),.*/\1 \2/p' \
    "$OUT.err" | awk '$1 == "0.500" || $1 == "1.500" || $1 == "2.500" {
	printf "%s;", $2 }')
[ "$got" = "10.0;20.0;30.0;" ] || fail "interval targets: $got"
[ "$(json_get "$T_DIR/sw.json" sweep.capacity.end)" = none ] ||
    fail "capacity.end: $(json_get "$T_DIR/sw.json" sweep.capacity.end)"
rows=$(awk '/^Sweep 10:30:10:/ { on = 1; next } on && $1 ~ /^[0-9]+$/' \
    "$OUT")
for i in 0 1 2; do
	want=$(printf '%s\n' "$rows" | awk -v i=$((i + 1)) 'NR == i { print $4 }')
	got=$(json_get "$T_DIR/sw.json" \
	    "sweep.steps.$i.result.stats.basic.requests.total")
	[ "$got" = "$want" ] || fail "step $i: JSON $got requests, table $want"
	[ "$(json_get "$T_DIR/sw.json" "sweep.steps.$i.level")" = \
	    "$((10 * (i + 1)))" ] || fail "step $i: level"
done
[ "$(json_get "$T_DIR/sw.json" sweep.steps.3.index 2>/dev/null)" = "" ] ||
    fail "a 4th step in the JSON"
h=$(head -1 "$T_DIR/sw.tsv" | cut -f 1,2)
case $h in "dem_req_rate	req_rate_"*) ;; *) fail "TSV header: $h" ;; esac
got=$(awk -F '\t' 'NR > 1 { printf "%s %s;", $1, $2 }' "$T_DIR/sw.tsv")
want=$(printf '%s\n' "$rows" | awk '{ printf "%d %s;", $3, $5 }')
[ "$got" = "$want" ] || fail "TSV $got, table $want"

# An objective the first level cannot meet: one step, first-fail, exit
# 4, and no whole-run Objective line (the objectives judge the steps).
hp --uri /size/10 --call-rate 10 --sweep 10:30:10 --step-time 1 \
    --max-lateness 200 --slo 'p99<0.001ms'
expect_rc 4
grep -qx 'Capacity: - req/s (first-fail: the first level 10.0 failed p99<0.001ms)' \
    "$OUT" || fail "capacity line: $(grep Capacity "$OUT")"
! grep -q '^Objective' "$OUT" || fail "a whole-run Objective line"
[ "$(awk '/^Sweep/ { on = 1; next } on && $1 ~ /^[0-9]+$/' "$OUT" |
    wc -l)" = 1 ] || fail "more than one step after the first fail"

# SIGINT in the third step: the two steps that ended, then "cut", exit 0.
"$HP" --server 127.0.0.1 --port "$PORT" --uri /size/10 --rate 20 \
    --sweep 20:100:20 --step-time 1 --max-lateness 200 \
    > "$OUT" 2> "$OUT.err" &
pid=$!
( sleep 60; kill -9 $pid 2>/dev/null ) &
wd=$!
sleep 2.5
kill -INT $pid
wait $pid
RC=$?
kill $wd 2>/dev/null
T_LAST="httperf --sweep 20:100:20 --step-time 1 (SIGINT at 2.5 s)"
expect_rc 0
grep -qx 'Capacity: - conn/s (cut: the test stopped before the sweep ended)' \
    "$OUT" || fail "capacity line: $(grep Capacity "$OUT")"
grep -q '^Sweep 20:100:20: [23] steps of 1.000 s' "$OUT" ||
    fail "steps: $(grep '^Sweep' "$OUT")"
stop_srv

# The search: one worker of 2 ms (500 requests/s), p99 < 20 ms: the
# capacity is found within 10 % of 500, the knee in the table (a pass
# at 400, a fail at 600).  The repeats usually agree, but the next level
# may be only 1 % above the knee, where a loaded machine decides either
# way (distcheck with other builds running: 506.2 failed, then passed),
# so either word is taken; check_sweep tests the verdict's rule.
start_srv -W 2 -E
hp --uri /size/10 --call-rate 300 --sweep 300:700:100 --step-time 1 \
    --step-warmup 0.3 --slo 'p99<20ms' --max-lateness 200 \
    --json "$T_DIR/search.json"
expect_rc 0
validate_json "$T_DIR/search.json"
cap=$(sed -n 's/^Capacity: \([0-9.]*\) req\/s (found: p99<20ms; the next level \([0-9.]*\) failed; repeated 2: \(dis\)\{0,1\}agree)$/\1 \2/p' "$OUT")
[ -n "$cap" ] || fail "capacity line: $(grep Capacity "$OUT")"
awk -v c="${cap% *}" 'BEGIN { exit !(c >= 450 && c <= 550) }' ||
    fail "capacity ${cap% *}, expected 500 within 10 %"
awk '/^Sweep/ { on = 1; next }
	on && $2 == "plan" && $3 == "400.0" && $13 == "PASS" { p = 1 }
	on && $2 == "plan" && $3 == "600.0" && $13 == "FAIL" { f = 1 }
	END { exit !(p && f) }' "$OUT" || fail "no knee: $(cat "$OUT")"
j=$(json_get "$T_DIR/search.json" sweep.capacity.capacity)
awk -v j="$j" -v c="${cap% *}" 'BEGIN { exit !(j - c < 0.051 && c - j < 0.051) }' ||
    fail "JSON capacity $j, the line's ${cap% *}"

# A concurrency sweep on the same server (timestamps in its log): N
# calls at once take N * 2 ms
# each (p50), so p50<5ms passes at 1 and 2, fails at 4, the probe 3
# fails: the capacity is 2, found and repeated; each step's document has
# its own closed loop (in flight: its N).
: > "$T_DIR/srv.log"
hp --uri /size/10 --concurrency 1 --sweep 1:4*2 --step-time 1 \
    --step-warmup 0.2 --slo 'p50<5ms' --json "$T_DIR/conc.json"
expect_rc 0
validate_json "$T_DIR/conc.json"
# No pause between a closed loop's steps: calls cross the boundaries,
# each step's requests are still the fixture's in its window (but for
# those logged at one).
by_time "$T_DIR/conc.json" > "$T_DIR/bt" ||
    fail "closed loop: step requests sure ambiguous: $(tr '\n' ';' < "$T_DIR/bt")"
[ "$(wc -l < "$T_DIR/bt")" = 6 ] || fail "by time: $(cat "$T_DIR/bt")"
amb=$((amb + $(awk '{ a += $4 } END { print a + 0 }' "$T_DIR/bt")))
grep -qx 'Capacity: 2.0 conc (found: p50<5ms; the next level 3.0 failed; repeated 2: agree)' \
    "$OUT" || fail "capacity line: $(grep Capacity "$OUT")"
got=$(awk '/^Sweep/ { on = 1; next } on && $1 ~ /^[0-9]+$/ {
	printf "%s %s %s %s;", $2, $3, int($8 + 0.5), $13 }' "$OUT")
[ "$got" = "plan 1.0 2 PASS;plan 2.0 4 PASS;plan 4.0 8 FAIL;probe 3.0 6 FAIL;repeat 2.0 4 PASS;repeat 3.0 6 FAIL;" ] ||
    fail "steps: $got"
for i in 0 1 2 3; do
	f=$(json_get "$T_DIR/conc.json" \
	    "sweep.steps.$i.result.stats.concurrency.in_flight")
	l=$(json_get "$T_DIR/conc.json" "sweep.steps.$i.level")
	awk -v f="$f" -v l="$l" 'BEGIN { exit !(f > l - 0.1 && f < l + 0.1) }' ||
	    fail "step $i: $f calls in flight at concurrency $l"
done
stop_srv

ok "$n usage errors, fixed sweeps (--rate, --call-rate with warm-up)," \
    "JSON, TSV, first-fail exit 4, cut by SIGINT," \
    "steps' requests = the fixture's by time ($amb logged at a" \
    "boundary), --interval's target the step's," \
    "concurrency 1:4*2 capacity 2," \
    "search finds ${cap% *}/s"
