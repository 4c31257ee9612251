#!/bin/sh
# Sweeps (--sweep, issue 25): the usage errors, one line naming the
# option, exit 1, before any load.  (The fixed sweep against the
# fixture and the capacity search with testsrv -W are to follow with
# the driver, src/run_sweep.c.)
. "$TESTLIB"

start_srv

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
--sweep: requires a schedule (--rate or --period above 0, or --call-rate)	--sweep 10:50:10 --step-time 1
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
[ "$n" = 15 ] || fail "read $n rows"

ok "$n usage errors"
