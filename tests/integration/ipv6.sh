#!/bin/sh
# IPv6: --server ::1 (and [::1]) against a fixture listening on ::1; the
# Host header carries the literal in brackets with the port.
. "$TESTLIB"

if ! ip -6 addr show lo 2>/dev/null | grep -q '::1'; then
	# No IPv6 on loopback here: a skip the harness reports, not a pass.
	skip "no ::1 on the loopback interface"
fi

for be in $(backends); do
	export HTTPERF_LOOP=$be
	start_srv -a ::1
	HP_SERVER=::1 hp --num-conns 5 --num-calls 4 --uri /size/300
	expect_rc 0
	expect_counts 5 20 20
	expect_errors 0 0 0 0 0 0 0 0 0
	HP_SERVER='[::1]' hp --num-conns 1 --uri /echo
	expect_counts 1 1 1
	stop_srv
	ok "$be: IPv6 loopback"
done
