#!/bin/sh
# --slo-abort: the test stops as soon as an objective judged early (an
# absolute count with < or <=, max< or max<= of the reply, corrected or
# connect time) can no longer pass; the whole report covers what ran,
# then the Objective lines, then one line "Aborted at S s: objective
# EXPR can no longer pass (VALUE UNIT)"; exit 4.  Nothing else changes
# when the objective holds or cannot be judged early.
. "$TESTLIB"

start_srv
abort_re='^Aborted at [0-9]+\.[0-9]{3} s: objective'

# Closed loop: 200 connections would time out one after the other
# (200 x 50 ms = 10 s); the first timeout ends the run.
for iv in "" "--interval 0.1"; do
	# shellcheck disable=SC2086
	hp --uri /delay/300/1 --timeout 0.05 --num-conns 200 $iv \
	    --slo-abort --slo 'errors<=0'
	expect_rc 4
	expect_ms 5000
	expect_classic
	expect_counts 2 1 0
	expect_errors 1 1 0 0 0 0 0 0 0
	expect ' --slo-abort$'
	expect '^Objective errors<=0: 1 count FAIL$'
	[ "$(tail -n 1 "$OUT")" = "$(grep -E "$abort_re" "$OUT")" ] ||
	    fail "the Aborted line is not the last one"
	expect '^Aborted at 0\.[0-9]{3} s: objective errors<=0 can no longer pass \(1 count\)$'
	ok "errors<=0 aborts at the first timeout${iv:+ with $iv}"
done

# An error class, with --slo-abort given first.
hp --slo-abort --uri /delay/300/1 --timeout 0.05 --num-conns 200 \
    --slo 'client-timo<=0,errors<=5'
expect_rc 4
expect_ms 5000
expect '^Aborted at 0\.[0-9]{3} s: objective client-timo<=0 can no longer pass \(1 count\)$'
ok "an error class aborts"

# Open loop (--rate): 40 arrivals at 20/s would take 2 s; the first
# reply (100 ms) breaks max<50ms.
hp --uri /delay/100/1 --rate 20 --num-conns 40 --slo-abort \
    --slo 'max<50ms'
expect_rc 4
expect_ms 1500
expect '^Total: connections [0-9]+ requests [0-9]+ replies 1 test-duration '
expect '^Objective max<50ms: [0-9]+\.[0-9]{3} ms FAIL$'
expect '^Aborted at 0\.[0-9]{3} s: objective max<50ms can no longer pass \([0-9]+\.[0-9]{3} ms\)$'
ok "max<50ms aborts at the first slow reply (--rate)"

# The objective holds: the run goes to its end, no Aborted line.
hp --uri /ok --num-conns 5 --slo-abort --slo 'errors<=0,max<10s'
expect_rc 0
expect_counts 5 5 5
expect '^Objective errors<=0: 0 count PASS$'
expect_not "$abort_re"
ok "no abort while the objectives hold"

# Percentiles and percentages are judged at the end only.
hp --uri /delay/20/1 --num-conns 3 --slo-abort --slo 'p99<1ms,errors<1%'
expect_rc 4
expect_counts 3 3 3
expect '^Objective p99<1ms: [0-9]+\.[0-9]{3} ms FAIL$'
expect_not "$abort_re"
ok "a percentile objective does not abort"

# --merge runs no test: refused.
timeout 10 "$HP" --merge "$T_DIR/none.json" --slo-abort > "$OUT" \
    2> "$OUT.err"
[ $? = 1 ] || fail "exit status not 1"
[ "$(cat "$OUT.err")" = "httperf: --slo-abort: cannot be used with --merge" ] ||
    fail "message: $(cat "$OUT.err")"
ok "--slo-abort with --merge is a usage error"

# The --json document: options.slo-abort and stats.slo_abort (schema).
for c in 0 1; do
	hp --uri /delay/300/1 --timeout 0.05 --num-conns 200 --slo-abort \
	    --slo 'errors<=0' --client $c/2 --json "$T_DIR/a$c.json"
	expect_rc 4
done
cp "$T_DIR/a0.json" "$T_DIR/a.json"
validate_json "$T_DIR/a.json"
[ "$(json_get "$T_DIR/a.json" options.slo-abort)" = true ] ||
    fail "options.slo-abort"
[ "$(json_get "$T_DIR/a.json" stats.slo_abort.objective)" = 'errors<=0' ] ||
    fail "stats.slo_abort.objective"
[ "$(json_get "$T_DIR/a.json" stats.slo_abort.value)" = 1 ] ||
    fail "stats.slo_abort.value: $(json_get "$T_DIR/a.json" stats.slo_abort.value)"
[ "$(json_get "$T_DIR/a.json" stats.slo_abort.unit)" = count ] ||
    fail "stats.slo_abort.unit"
awk -v s="$(json_get "$T_DIR/a.json" stats.slo_abort.at_s)" \
    'BEGIN { exit !(s >= 0.04 && s < 5) }' || fail "stats.slo_abort.at_s"
# Without an abort, no member.
hp --uri /ok --num-conns 2 --slo-abort --slo 'errors<=0' --json "$T_DIR/b.json"
expect_rc 0
validate_json "$T_DIR/b.json"
python3 -c 'import json,sys; sys.exit("slo_abort" in json.load(open(sys.argv[1]))["stats"])' \
    "$T_DIR/b.json" || fail "stats.slo_abort without an abort"
# --merge of a file with stats.slo_abort: merged, the member dropped.
timeout 10 "$HP" --merge "$T_DIR/a0.json" "$T_DIR/a1.json" --json "$T_DIR/m.json" \
    > "$OUT" 2> "$OUT.err" || fail "merge: $(cat "$OUT.err")"
validate_json "$T_DIR/m.json"
python3 -c 'import json,sys; sys.exit("slo_abort" in json.load(open(sys.argv[1]))["stats"])' \
    "$T_DIR/m.json" || fail "stats.slo_abort in a merged document"
ok "--json: options.slo-abort, stats.slo_abort; --merge drops it"
