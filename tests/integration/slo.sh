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
hp --wsess 1,1,0 --rate 100 --uri /ok --slo 'session.p99<10s'
expect_rc 0

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
ok
