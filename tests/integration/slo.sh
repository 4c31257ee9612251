#!/bin/sh
# Objectives (--slo): malformed expressions and unknown metrics are one
# usage line naming the expression, exit 1, before any load; accepted
# ones, repeated or comma-separated, are echoed in their canonical form
# and written to the --json document's options.slo.
. "$TESTLIB"

start_srv

# Each row: the exact message after "httperf: --slo: ", a tab, --slo's
# argument.
n=0
while IFS='	' read -r msg arg; do
	case $msg in ''|'#'*) continue ;; esac
	n=$((n + 1))
	hp --num-conns 1 --uri /ok --slo 'p99<5ms' --slo "$arg"
	expect_rc 1
	[ "$(cat "$OUT.err")" = "httperf: --slo: $msg" ] ||
	    fail "message: $(cat "$OUT.err"), expected: $msg"
	[ ! -s "$OUT" ] || fail "something on stdout"
done <<'TABLE'
unknown metric "latency" ('latency<5ms')	latency<5ms
no comparison (<, <=, > or >=) ('p99=5ms')	p99=5ms
a time's unit is ns, us, ms or s, not "%" ('p99<5%')	p99<5%
a count's limit is a percentage (at most 100%) or a whole number ('errors<1.5')	errors<1.5
unknown metric "6xx" ('6xx<1%')	6xx<1%
no comparison (<, <=, > or >=) ('')	p99<5ms,,errors<1%
unknown statistic "errors" (pN, max or mean) ('tls.errors<1')	errors<1%,tls.errors<1
achieved is a percentage of the target rate, at most 100% (' achieved >= 99')	5xx<1%, achieved >= 99
TABLE
[ "$n" = 8 ] || fail "read $n rows"

# A metric the run cannot have: refused naming the objective.
sched="corrected times, late and achieved require a schedule (--rate or --call-rate)"
for arg in 'corrected.p99<=20ms' 'late<1%' 'achieved>=99%' \
    'tls.p99<1ms' 'session.p99<1s'; do
	hp --num-conns 1 --uri /ok --slo "$arg"
	expect_rc 1
	case $arg in
	tls.*) msg="tls times require --ssl" ;;
	session.*) msg="session times require a session workload (--wsess or --wsesslog)" ;;
	*) msg=$sched ;;
	esac
	[ "$(cat "$OUT.err")" = "httperf: --slo: $msg ('$arg')" ] ||
	    fail "message: $(cat "$OUT.err")"
done
[ "$(srv_requests)" = 0 ] || fail "a refused --slo sent load"
# ... and accepted where the run has it.
hp --rate 100 --num-conns 2 --uri /ok \
    --slo 'corrected.p99<=20ms,late<1%,achieved>=1%'
expect_rc 0
hp --wsess 2,2,0 --rate 100 --uri /ok --slo 'session.p99<10s,session.max<1ns'
expect_rc 4
expect "^Objective session.p99<10s: [0-9]+\.[0-9]{3} ms PASS$"
expect "^Objective session.max<1ns: [0-9]+\.[0-9]{3} ms FAIL$"

# Accepted, repeated and comma-separated: echoed in order, in the JSON.
hp --num-conns 2 --uri /ok --slo ' p99 < 5ms , errors<0.1%' \
    --slo 'client-timo<=0' --json "$T_DIR/r.json"
expect_rc 0
expect "^httperf .* --slo='p99<5ms' --slo='errors<0.1%' --slo='client-timo<=0'"
expect_counts 2 2 2
[ "$(json_get "$T_DIR/r.json" options.slo)" = \
    '["p99<5ms", "errors<0.1%", "client-timo<=0"]' ] ||
    fail "options.slo: $(json_get "$T_DIR/r.json" options.slo)"
validate_json "$T_DIR/r.json"
ok "parsed, refused, echoed"

# Each kind of metric, PASS and FAIL, against routes of known delay and
# status: one line per objective, in the order given, the last lines of
# the output; exit status 4 when one fails, 0 when all pass.
# verdicts N: the last N lines are the verdicts and no other line is.
verdicts() {
	[ "$(grep -c '^Objective ' "$OUT")" = "$1" ] ||
	    fail "not $1 verdict lines"
	[ "$(tail -n "$1" "$OUT" | grep -c '^Objective ')" = "$1" ] ||
	    fail "the verdicts are not the last $1 lines"
	grep '^Objective ' "$OUT" | grep -Evq \
	    '^Objective [^ ]+: (-|[0-9]+(\.[0-9]+)?) (ms|%|count|/s) (PASS|FAIL)$' &&
	    fail "a verdict line that the documented regex does not match"
	return 0
}
t='[0-9]+\.[0-9]{3}'
hp --rate 100 --num-conns 10 --uri /delay/20/10 --slo 'p99<5ms,p99<1s' \
    --slo 'p50>=19ms,max<=15ms,mean<1s,corrected.p99<1ms,connect.max<1s' \
    --slo 'first-byte.p90<=2s,transfer.p99.9<1s,5xx<1%,2xx<100%' \
    --slo 'reply-rate>=5,reply-rate<1,achieved>=50%,late<=200'
expect_rc 4
verdicts 15
expect "^Objective p99<5ms: 2[0-9]\.[0-9]{3} ms FAIL$"
expect "^Objective p99<1s: 2[0-9]\.[0-9]{3} ms PASS$"
expect "^Objective p50>=19ms: 2[0-9]\.[0-9]{3} ms PASS$"
expect "^Objective max<=15ms: 2[0-9]\.[0-9]{3} ms FAIL$"
expect "^Objective mean<1s: 2[0-9]\.[0-9]{3} ms PASS$"
expect "^Objective corrected.p99<1ms: 2[0-9]\.[0-9]{3} ms FAIL$"
expect "^Objective connect.max<1s: $t ms PASS$"
expect "^Objective first-byte.p90<=2s: 2[0-9]\.[0-9]{3} ms PASS$"
expect "^Objective transfer.p99.9<1s: $t ms PASS$"
expect "^Objective 5xx<1%: 0\.000 % PASS$"
expect "^Objective 2xx<100%: 100\.000 % FAIL$"
expect "^Objective reply-rate>=5: $t /s PASS$"
expect "^Objective reply-rate<1: $t /s FAIL$"
expect "^Objective achieved>=50%: $t % PASS$"
expect "^Objective late<=200: [0-9]+ count PASS$"
ok "times, status classes, rates: PASS and FAIL, exit 4"

# stats.slo: the same verdicts in the document.
hp --num-conns 4 --uri /delay/20/10 --slo 'p99<5ms,errors<=0' \
    --json "$T_DIR/v.json"
expect_rc 4
validate_json "$T_DIR/v.json"
[ "$(json_get "$T_DIR/v.json" stats.slo.0.objective)" = 'p99<5ms' ] &&
    [ "$(json_get "$T_DIR/v.json" stats.slo.0.unit)" = ms ] &&
    [ "$(json_get "$T_DIR/v.json" stats.slo.0.pass)" = false ] &&
    [ "$(json_get "$T_DIR/v.json" stats.slo.1.objective)" = 'errors<=0' ] &&
    [ "$(json_get "$T_DIR/v.json" stats.slo.1.value)" = 0 ] &&
    [ "$(json_get "$T_DIR/v.json" stats.slo.1.unit)" = count ] &&
    [ "$(json_get "$T_DIR/v.json" stats.slo.1.pass)" = true ] ||
    fail "stats.slo: $(json_get "$T_DIR/v.json" stats.slo)"
v=$(json_get "$T_DIR/v.json" stats.slo.0.value)
expect "^Objective p99<5ms: $(printf '%.3f' "$v") ms FAIL$"
ok "stats.slo"

hp --num-conns 10 --uri /status/503 --slo '5xx<1%,5xx>=100%,4xx<=0,errors<=0'
expect_rc 4
verdicts 4
expect "^Objective 5xx<1%: 100\.000 % FAIL$"
expect "^Objective 5xx>=100%: 100\.000 % PASS$"
expect "^Objective 4xx<=0: 0 count PASS$"
expect "^Objective errors<=0: 0 count PASS$"
hp --num-conns 10 --uri /status/503 --slo '5xx>=100%,p99<10s'
expect_rc 0
verdicts 2
ok "all pass: exit 0"

# Errors: 4 client timeouts of 4 calls.
hp --num-conns 4 --timeout 0.05 --uri /delay/300/1 \
    --slo 'client-timo<=0,client-timo<=4,errors<50%,errors<=100%' \
    --slo 'connreset<=0,p99<1ms'
expect_rc 4
expect_errors 4 4 0 0 0 0 0 0 0
verdicts 6
expect "^Objective client-timo<=0: 4 count FAIL$"
expect "^Objective client-timo<=4: 4 count PASS$"
expect "^Objective errors<50%: 100\.000 % FAIL$"
expect "^Objective errors<=100%: 100\.000 % PASS$"
expect "^Objective connreset<=0: 0 count PASS$"
# No reply: no reply time; nothing measured never passes.
expect "^Objective p99<1ms: - ms FAIL$"
ok "error counts and shares; nothing measured fails"

# The client was the bottleneck (--max-lateness): 3 wins over 4.
stall --max-lateness 100 --slo 'late<=0'
expect_rc 3
expect "^Objective late<=0: [1-9][0-9]* count FAIL$"
stall --slo 'late<=0'
expect_rc 4
ok "exit 3 over 4"

# --merge measures again on the merged totals: two clients' files with 4
# client timeouts each (each within errors<=5 alone, not together), the
# files' own verdicts (p99<1ms failed) not trusted.
for i in 0 1; do
	hp --num-conns 4 --timeout 0.05 --uri /delay/300/1 --client $i/2 \
	    --slo 'errors<=5,p99<1ms' --json "$T_DIR/c$i.json"
	expect_rc 4
	expect "^Objective errors<=5: 4 count PASS$"
done
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" \
    --slo 'errors<=5,errors<=8,client-timo>=100%,corrected.p99<1ms' \
    > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --merge (errors)"
expect_rc 4
expect_errors 8 8 0 0 0 0 0 0 0
verdicts 4
expect "^Objective errors<=5: 8 count FAIL$"
expect "^Objective errors<=8: 8 count PASS$"
expect "^Objective client-timo>=100%: 100\.000 % PASS$"
# Not in the files (no schedule): nothing measured, a failure.
expect "^Objective corrected.p99<1ms: - ms FAIL$"
# The merged document's stats.slo is the merge's (the files had theirs).
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" \
    --slo 'errors<=5' --json "$T_DIR/m.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 4
validate_json "$T_DIR/m.json"
[ "$(json_get "$T_DIR/m.json" stats.slo)" = \
    '[{"objective": "errors<=5", "value": 8, "unit": "count", "pass": false}]' ] ||
    fail "merged stats.slo: $(json_get "$T_DIR/m.json" stats.slo)"
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" \
    --slo 'errors<=8' > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 0
verdicts 1
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" > "$OUT" \
    2> "$OUT.err"
RC=$?
expect_rc 0
expect_not '^Objective '
ok "--merge: objectives on the merged totals, exit 4 and 0"

# --interval: each line ends with the objectives it breached.
hp --rate 20 --num-conns 20 --uri /delay/20/10 --interval 0.4 \
    --slo 'p99<5ms,errors<=0,p99<1s,reply-rate>=1000,achieved>=50%'
expect_rc 4
n=$(grep -c '^\[' "$OUT.err")
[ "$n" -ge 2 ] || fail "only $n interval lines"
[ "$(grep -c ', reply \[ms\] .* SLO-FAIL: p99<5ms,reply-rate>=1000$' \
    "$OUT.err")" = "$n" ] || fail "interval lines: $(cat "$OUT.err")"
hp --rate 20 --num-conns 10 --uri /delay/20/10 --interval 0.4
expect_rc 0
if grep -q 'SLO' "$OUT.err"; then fail "SLO-FAIL without --slo"; fi
ok "--interval: breaches at the end of the line"
