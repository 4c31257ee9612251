#!/bin/sh
# `make demo', the first thing the README has a new user run: it must
# last about 6 s and show every part of the report with real values --
# the exact counts, reply-rate samples, a response and a transfer time,
# every percentile line above zero, a schedule whose arrivals were all
# sent -- and no bottleneck warning.  Runs the real target in the build
# tree (where $HTTPERF was built); bounded to 60 s.
# shellcheck source=tests/integration/lib.sh
. "$TESTLIB"

# cpu_wait: microseconds in all that some task waited for a CPU (the
# kernel's pressure stall information), empty without it.
cpu_wait() {
	sed -n 's/^some .* total=\([0-9]*\)$/\1/p' /proc/pressure/cpu 2>/dev/null
}

builddir=$(dirname "$(dirname "$HTTPERF")")
T_LAST="make demo (in $builddir)"
w0=$(cpu_wait)
t0=$(date +%s%N)
# A make of its own, not a child of the make running the tests (under
# make -j its jobserver warning would be the only stderr).
timeout 60 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s \
    -C "$builddir" demo > "$OUT" 2> "$OUT.err" ||
    fail "make demo exited $?"
w1=$(cpu_wait)
t1=$(date +%s%N)

expect_classic

# gt0 WHAT VALUE: VALUE is a number above zero.
gt0() {
	awk -v v="$2" 'BEGIN { exit !(v + 0 > 0) }' ||
	    fail "$1 is '$2', not above zero"
}
d=$(value Total: test-duration)
awk -v d="$d" 'BEGIN { exit !(d >= 5.9 && d < 20) }' ||
    fail "test-duration $d s, expected about 6"
n=$(sed -n 's/^Reply rate .*(\([0-9]*\) samples)$/\1/p' "$OUT")
[ "${n:-0}" -ge 1 ] || fail "no reply-rate sample"
gt0 "the reply rate" "$(value 'Reply rate' avg)"
gt0 "the reply rate's min" "$(value 'Reply rate' min)"
gt0 "the response time" "$(value 'Reply time \[ms\]' response)"
gt0 "the transfer time" "$(value 'Reply time \[ms\]' transfer)"
gt0 "the reply content size" "$(value 'Reply size' content)"
gt0 "the connection time" "$(value 'Connection time \[ms\]: min' avg)"
gt0 "the request rate" "$(value 'Request rate:' rate:)"
gt0 "the net I/O" "$(value 'Net I/O:' I/O:)"

# Every percentile line: seven, each value above zero.
for line in 'Connection time' 'Connect time' 'First byte' 'Transfer time' \
    'Reply time' 'Reply time \(corrected\)' 'Lateness'; do
	grep -Eq "^$line percentiles \[ms\]: " "$OUT" ||
	    fail "no $line percentile line"
	for p in p50 p90 p99 p99.9 p99.99 max; do
		gt0 "$line $p" "$(value "$line percentiles" "$p")"
	done
done
[ "$(grep -c ' percentiles \[ms\]: ' "$OUT")" = 7 ] ||
    fail "expected 7 percentile lines"

# The schedule: 600 arrivals at 100/s, all sent, the client no limit.
expect '^Arrivals: 600 scheduled, [0-9]+ late over 1 ms \([0-9.]+%\), 0 never sent; rate target 100\.0/s, scheduled 100\.0/s, achieved [0-9.]+/s$'
# The client was late only if the machine made it: when other processes
# kept tasks waiting for a CPU (a loaded machine, such as several test
# suites at once on two cores), its warning is the machine's, a skip.
if grep -q '^Warning' "$OUT"; then
	if [ -n "$w0" ] && [ -n "$w1" ]; then
		busy=$(( (w1 - w0) * 100000 / (t1 - t0) ))
		why="tasks waited for a CPU $busy% of the time (/proc/pressure/cpu)"
	else
		busy=$(awk -v n="$(nproc)" '{ print ($1 > n) ? 100 : 0 }' /proc/loadavg)
		why="load average $(cut -d ' ' -f 1 /proc/loadavg) on $(nproc) CPUs"
	fi
	[ "$busy" -ge 10 ] || fail "a bottleneck warning on a quiet machine ($why)"
	t_skip "machine: $why during make demo: its bottleneck warning not checked"
else
	ok "make demo: no bottleneck warning"
fi
expect_counts 600 3000 3000
expect_status 0 3000 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Connection length \[replies/conn\]: 5\.000$'
expect '^\+ src/httperf --server 127\.0\.0\.1 --port [0-9]+ --wlog y,'
[ ! -s "$OUT.err" ] || fail "make demo wrote to stderr: $(cat "$OUT.err")"
ok "make demo: 6 s, every part of the report real"
