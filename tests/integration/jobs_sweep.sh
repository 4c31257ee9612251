#!/bin/sh
# --jobs N with --sweep (issues 25 and 26): a fixed plan over the
# workers.  Each worker runs every planned level at its share (a rate
# divided by N, a --concurrency shared out) on the wall-clock grid from
# the parent's start instant; the parent merges their sweep documents
# step by step with --merge's code, judges the objectives on the merged
# steps and prints one report, the table at the whole levels, the
# Capacity line; exit status a sweep's.  A level that cannot be split
# (a concurrency below N) is refused, one line, exit 1.
# shellcheck source=tests/integration/lib.sh
. "$TESTLIB"

start_srv -W 2

# 20:60:20 conn/s over 2 workers: 10, 20, 30 each, steps of 1 s.
# 2xx<=15: a worker's step at its half level (about 10 replies) would
# pass; the merged first step (about 20) fails: exit 4.
hp --jobs 2 --rate 20 --sweep 20:60:20 --step-time 1 --max-lateness 200 \
    --slo '2xx<=15' --json "$T_DIR/j.json" --html "$T_DIR/j.html"
expect_rc 4
expect_classic
expect '^Jobs: 2 workers, 2 finished$'
expect '^Sweep 20:60:20: 3 steps of 1\.000 s \(warm-up 0\.000 s\)$'
expect '^Capacity: - conn/s \(first-fail: the first level 20\.0 failed 2xx<=15\)$'
expect_not '^Objective '
# The table's levels are the whole levels, every step a planned one.
[ "$(awk '$2 == "plan" { printf "%s ", $3 }' "$OUT")" = "20.0 40.0 60.0 " ] ||
    fail "levels: $(grep plan "$OUT")"
[ "$(awk '$2 == "plan" { printf "%s ", $NF }' "$OUT")" = "FAIL FAIL FAIL " ] ||
    fail "verdicts: $(grep plan "$OUT")"
validate_json "$T_DIR/j.json"
[ "$(json_get "$T_DIR/j.json" sweep.fixed)" = true ] || fail "sweep.fixed"
[ "$(json_get "$T_DIR/j.json" sweep.capacity.end)" = first-fail ] ||
    fail "capacity: $(json_get "$T_DIR/j.json" sweep.capacity)"
sum=0
for k in 0 1 2; do
	p=sweep.steps.$k
	lv=$(json_get "$T_DIR/j.json" $p.level)
	[ "$lv" = $((20 * (k + 1))) ] || fail "step $k: level $lv"
	# The step's result is the merge of both workers' steps ...
	nf=$(json_get "$T_DIR/j.json" $p.result.merged.files |
	    python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
	[ "$nf" = 2 ] || fail "step $k: merged from $nf documents"
	# ... each at its share: together the whole level's requests
	# (a worker at the whole level would make twice as many).
	n=$(json_get "$T_DIR/j.json" $p.result.stats.basic.requests.total)
	awk -v n="$n" -v w=$((20 * (k + 1))) \
	    'BEGIN { exit !(n >= w - 3 && n <= w + 1) }' ||
	    fail "step $k: $n requests at level $lv"
	# The table's count is the merged step's.
	t=$(awk -v k=$((k + 1)) '$1 == k && $2 == "plan" { print $4 }' "$OUT")
	[ "$t" = "$n" ] || fail "step $k: table $t, document $n"
	v=$(json_get "$T_DIR/j.json" $p.result.stats.slo.0.value)
	[ "$v" = "$(json_get "$T_DIR/j.json" \
	    $p.result.stats.basic.replies.status.2xx)" ] ||
	    fail "step $k: 2xx measured $v"
	sum=$((sum + n))
done
# The steps cover the run (no warm-up): their requests are the run's,
# and the fixture's.
total=$(awk '/^Total:/ { print $5 }' "$OUT")
[ "$sum" = "$total" ] || fail "steps $sum requests, the run $total"
wait_for_log "$total"
sleep 0.1
[ "$(srv_requests)" = "$total" ] ||
    fail "the fixture logged $(srv_requests) requests, the run $total"
grep -q '<p class="capacity" id="capacity">Capacity: <strong>- conn/s</strong> (first-fail: the first level 20\.0 failed 2xx&lt;=15)</p>' \
    "$T_DIR/j.html" ||
    fail "page: $(grep -o '<p class="capacity".*</p>' "$T_DIR/j.html")"
ok "--jobs 2 --sweep: each worker its share, the steps merged, exit 4"

# Objectives every merged step meets: exit 0, the capacity the top.
: > "$T_DIR/srv.log"
hp --jobs 2 --rate 20 --sweep 20:40:20 --step-time 0.6 --max-lateness 200 \
    --slo '2xx<=40'
expect_rc 0
expect '^Capacity: 40\.0 conn/s \(all-pass: every planned level met 2xx<=40\)$'
ok "--jobs 2 --sweep: all pass, exit 0"

# A closed loop: each concurrency level shared out (2 and 4 over 2
# workers: 1 and 2 each); the table shows the whole level.
hp --jobs 2 --concurrency 2 --sweep 2:4:2 --step-time 0.6
expect_rc 0
expect '^Jobs: 2 workers, 2 finished$'
[ "$(awk '$2 == "plan" { printf "%s ", $3 }' "$OUT")" = "2.0 4.0 " ] ||
    fail "levels: $(grep plan "$OUT")"
ok "--jobs 2 --concurrency --sweep: the levels shared out"

# Refused before any load: a concurrency level below the workers; a
# --sweep-tsv (the workers' rows are not merged).
: > "$T_DIR/srv.log"
hp --jobs 2 --concurrency 2 --sweep 1:3:1 --step-time 0.5
expect_rc 1
[ "$(cat "$OUT.err")" = "httperf: --sweep: 1:3:1: concurrency level 1 cannot be split over 2 workers (--jobs): each level must be at least 2" ] ||
    fail "stderr: $(cat "$OUT.err")"
[ ! -s "$OUT" ] || fail "output: $(cat "$OUT")"
hp --jobs 2 --rate 20 --sweep 20:40:20 --step-time 0.5 \
    --sweep-tsv "$T_DIR/t.tsv"
expect_rc 1
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "stderr: $(cat "$OUT.err")"
[ "$(srv_requests)" = 0 ] || fail "the refused runs sent requests"
ok "--jobs with a level that cannot be split: refused"
