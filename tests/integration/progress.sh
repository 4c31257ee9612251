#!/bin/sh
# The live progress line: on a terminal (a pseudo-terminal from
# util-linux script(1)) it is redrawn in place (CR, the line, ESC[K) at
# most 4 times a second and erased (CR ESC[K) before the report's first
# line, also when a signal ends the run; with the standard error not a
# terminal, with --quiet, with TERM=dumb and with --interval nothing of
# it is written.  The bar and the time left follow --num-conns,
# --runtime, --wsess and --call-rate's --num-calls; the rate is honest
# from the first line; replies, errors and the p99 count up live.
. "$TESTLIB"

script -q -c true /dev/null < /dev/null > /dev/null 2>&1 ||
    t_missing "script(1) (util-linux) is missing"

start_srv
TERM=xterm
export TERM
ARGS="--server 127.0.0.1 --port $PORT"

# pty FILE CMD: runs the shell command CMD on a pseudo-terminal 100
# columns wide; what the terminal showed goes to FILE with CR as ~ and
# ESC as @ (neither is in a progress line or a report).
pty() {
	timeout 60 script -q -c "stty cols 100 rows 24; $2" /dev/null \
	    < /dev/null > "$1.raw" 2>&1
	RC=$?
	T_LAST="$2"
	tr '\r\033' '~@' < "$1.raw" > "$1"
}

# frames FILE: the progress lines drawn, one a line.
frames() {
	tr '~' '\n' < "$1" | sed -n 's/@\[K$//p' | grep -v '^$'
}

# fields FILE: of each progress line of FILE (frames' output) "PCT ETA
# REPLIES ERRORS P99": the percentage, the time left in s, the replies,
# the errors and the p99 in ms ("-" for none; also for PCT and ETA when
# the line has no bar).
fields() {
	awk '{
		pct = "-"; eta = "-"; p99 = "-"
		if (match($0, /\] +[0-9]+%/)) {
			pct = substr($0, RSTART, RLENGTH)
			gsub(/[] %]/, "", pct)
		}
		if (match($0, / ETA [0-9]+:[0-9][0-9] /)) {
			split(substr($0, RSTART + 5, RLENGTH - 6), t, ":")
			eta = t[1] * 60 + t[2]
		}
		match($0, /replies [0-9]+/)
		rep = substr($0, RSTART + 8, RLENGTH - 8)
		match($0, /errors [0-9]+/)
		err = substr($0, RSTART + 7, RLENGTH - 7)
		if (match($0, /p99 [0-9.]+ ms/))
			p99 = substr($0, RSTART + 4, RLENGTH - 7)
		print pct, eta, rep, err, p99
	}' "$1"
}

# counting_down FILE WHAT: the percentages of FILE (fields' output) never
# go back and end higher than they start, the time left never goes up by
# more than the second it is rounded to and ends lower than it starts.
counting_down() {
	awk -v what="$2" '
	$1 == "-" || $2 == "-" { print what ": no bar or no ETA: " $0; bad = 1; exit 1 }
	NR == 1 { p0 = $1; e0 = $2 }
	NR > 1 && $1 + 0 < p + 0 { print what ": back from " p "%: " $0; bad = 1; exit 1 }
	NR > 1 && $2 + 0 > e + 1 { print what ": time left up from " e " s: " $0; bad = 1; exit 1 }
	{ p = $1; e = $2 }
	END {
		if (bad) exit 1
		if (NR < 4) { print what ": " NR " lines"; exit 1 }
		if (!(p + 0 > p0 + 0 && p0 <= 30 && p >= 60)) {
			print what ": from " p0 "% to " p "%"; exit 1 }
		if (!(e + 0 < e0 + 0 && e <= 1)) {
			print what ": time left from " e0 " s to " e " s"; exit 1 }
	}' "$1"
}

# 1. Only the progress line on the terminal (the report to a file): the
# terminal shows redrawn lines and ends with an erase, nothing else.
pty "$T_DIR/t1" "exec $HP $ARGS --rate 20 --num-conns 30 > $OUT"
expect_rc 0
expect_classic
expect_counts 30 30 30
[ "$(tr -d '\r\033' < "$OUT" | wc -c)" = "$(wc -c < "$OUT")" ] ||
    fail "a CR or an ESC in the report"
grep -Eq '^(~[^~@]*@\[K)+~@\[K$' "$T_DIR/t1" ||
    fail "not only progress lines and an erase: $(cat "$T_DIR/t1")"
frames "$T_DIR/t1" > "$T_DIR/f1"
awk 'length($0) > 99 { print "too wide: " $0; exit 1 }
	!/^0:0[0-9] \[[#-]+\] +[0-9]+% ETA [0-9]:[0-9][0-9]/ {
		print "not a progress line: " $0; exit 1 }
	{ p = $0; sub(/^[^]]*\] +/, "", p); sub(/%.*/, "", p)
	  if (p + 0 < last) { print "back from " last "%: " $0; exit 1 }
	  last = p + 0 }
	/ 20\.0\/s of 20\.0\/s / { rate = 1 }
	END { if (!rate) { print "no line with 20.0/s of 20.0/s"; exit 1 } }' \
    "$T_DIR/f1" > "$T_DIR/chk" || fail "$(cat "$T_DIR/chk")"
ok "progress lines on the terminal, erased at the end"

# 1b. At most 4 redraws a second: a run of 3 s (--runtime) draws at
# 0.25 s, 0.5 s, ... 2.75 s and perhaps 3 s: 11 or 12, at most 4 * 3 + 1
# whatever the timing, at least 8 on a loaded machine.  Counted as the
# terminal got them: each CR, line, ESC[K; the whole output is such
# redraws and one erase.
pty "$T_DIR/t1b" "exec $HP $ARGS --rate 10 --num-conns 1000 --runtime 3 \
    > $OUT"
expect_rc 0
grep -Eq '^(~[^~@]*@\[K)+~@\[K$' "$T_DIR/t1b" ||
    fail "not only progress lines and an erase: $(cat "$T_DIR/t1b")"
n=$(grep -o '~[^~@][^~@]*@\[K' "$T_DIR/t1b" | wc -l | tr -d ' ')
[ "$n" -ge 8 ] && [ "$n" -le 13 ] ||
    fail "$n redraws in a 3 s run (8 to 13 wanted): $(cat "$T_DIR/t1b")"
[ "$n" = "$(frames "$T_DIR/t1b" | wc -l | tr -d ' ')" ] ||
    fail "redraws counted two ways differ"
ok "$n redraws in a 3 s run (at most 4 a second)"

# 1c. --rate 1: no line claims more than 1.0/s, from the first on (one
# arrival at 0.25 s once read 4.0/s); until the first second ends the
# rate is "-" (one arrival is no rate yet).
pty "$T_DIR/t1c" "exec $HP $ARGS --rate 1 --num-conns 3 > $OUT"
expect_rc 0
expect_counts 3 3 3
frames "$T_DIR/t1c" > "$T_DIR/f1c"
awk '!/ rate (-|[0-9.]+\/s) of 1\.0\/s / { print "no rate of 1.0/s: " $0; exit 1 }
	/ rate [0-9.]+\/s / { r = $0; sub(/.* rate /, "", r); sub(/\/s.*/, "", r)
	  if (r + 0 > 1.05 || r + 0 < 0.95) { print "rate " r ": " $0; exit 1 }
	  seen = 1 }
	/^0:00 .* rate [0-9]/ { print "a rate in the first second: " $0; exit 1 }
	END { if (!seen) { print "no rate shown"; exit 1 } }' \
    "$T_DIR/f1c" > "$T_DIR/chk" || fail "$(cat "$T_DIR/chk") in $(cat "$T_DIR/f1c")"
ok "--rate 1: no rate in the first second, then 1.0/s"

# 2. Report and progress on the same terminal: the erase comes right
# before the report's first line, and nothing of it after.
pty "$T_DIR/t2" "exec $HP $ARGS --rate 20 --num-conns 30"
expect_rc 0
grep -q '@\[K~@\[KMaximum connect burst length: ' "$T_DIR/t2" ||
    fail "no erase right before the report: $(cat "$T_DIR/t2")"
awk '/Maximum connect burst length/ { seen = 1; next }
	seen && /@/ { print "after the report: " $0; exit 1 }' \
    "$T_DIR/t2" > "$T_DIR/chk" || fail "$(cat "$T_DIR/chk")"
sed -e 's/~$//' -e 's/^.*~@\[K//' "$T_DIR/t2" > "$OUT"
expect_classic
expect_counts 30 30 30
ok "the line is erased before the report's first line"

# 3. The standard error to a file, the output on the terminal: nothing.
pty "$T_DIR/t3" "exec $HP $ARGS --rate 20 --num-conns 10 2> $OUT.err"
expect_rc 0
cmp -s "$OUT.err" /dev/null || fail "stderr not empty: $(cat -v "$OUT.err")"
if grep -q '@' "$T_DIR/t3"; then
	fail "an ESC on the terminal: $(cat "$T_DIR/t3")"
fi
# And without any terminal (hp: stdout and stderr to files).
hp --rate 20 --num-conns 10
expect_rc 0
expect_counts 10 10 10
cmp -s "$OUT.err" /dev/null || fail "stderr not empty: $(cat -v "$OUT.err")"
ok "nothing when the standard error is not a terminal"

# 4. --quiet, TERM=dumb, --interval, and -v with its lines on the
# terminal: no CR but those of line ends, no ESC.
for how in quiet dumb verbose interval; do
	case $how in
	verbose) cmd="exec $HP $ARGS --rate 20 --num-conns 10 -v" ;;
	quiet)	cmd="exec $HP $ARGS --rate 20 --num-conns 10 --quiet" ;;
	dumb)	cmd="TERM=dumb exec $HP $ARGS --rate 20 --num-conns 10" ;;
	interval) cmd="exec $HP $ARGS --rate 20 --num-conns 30 --interval 0.5" ;;
	esac
	pty "$T_DIR/t4" "$cmd"
	expect_rc 0
	if grep -q '@\|~.' "$T_DIR/t4"; then
		fail "$how: a progress line: $(cat "$T_DIR/t4")"
	fi
	sed 's/~$//' "$T_DIR/t4" > "$OUT"
	expect_classic
	if [ $how = quiet ]; then
		expect '^httperf .* --quiet$'
	fi
done
[ "$(grep -c '^\[[0-9.]* s\] arrivals ' "$OUT")" -ge 2 ] ||
    fail "--interval: its lines are missing"
ok "--quiet, TERM=dumb, -v on the terminal and --interval: no progress line"

# -v with the report (and its lines) in a file: the progress line is back.
pty "$T_DIR/t4" "exec $HP $ARGS --rate 20 --num-conns 10 -v > $OUT"
expect_rc 0
expect_classic
grep -Eq '^(~[^~@]*@\[K)+~@\[K$' "$T_DIR/t4" ||
    fail "-v, report in a file: no progress line: $(cat "$T_DIR/t4")"
ok "-v with the report in a file: progress line"

# 5. --runtime: the bar and the time left come from the deadline.
pty "$T_DIR/t5" "exec $HP $ARGS --rate 10 --num-conns 1000 --runtime 1.5 \
    > $OUT"
expect_rc 0
frames "$T_DIR/t5" > "$T_DIR/f5"
awk '{ p = $0; sub(/^[^]]*\] +/, "", p); sub(/%.*/, "", p); last = p + 0 }
	!/ ETA 0:0[0-2] / { print "ETA: " $0; exit 1 }
	END { if (last < 30 || last > 100) { print "last at " last "%"; exit 1 } }' \
    "$T_DIR/f5" > "$T_DIR/chk" || fail "$(cat "$T_DIR/chk") in $(cat "$T_DIR/f5")"
ok "--runtime gives the bar and the time left"

# 5b. --wsess and --call-rate with --num-calls: the bar fills and the
# time left counts down (30 sessions or calls at 10/s: 3 s).
pty "$T_DIR/t5b" "exec $HP $ARGS --wsess 30,2,0 --rate 10 > $OUT"
expect_rc 0
expect_counts 30 60 60
frames "$T_DIR/t5b" > "$T_DIR/f5b"
fields "$T_DIR/f5b" > "$T_DIR/v5b"
counting_down "$T_DIR/v5b" --wsess > "$T_DIR/chk" ||
    fail "$(cat "$T_DIR/chk") in $(cat "$T_DIR/f5b")"
pty "$T_DIR/t5c" "exec $HP $ARGS --call-rate 10 --num-calls 30 > $OUT"
expect_rc 0
# One connection, or more when a loaded machine holds a reply past the
# next call's time (the pool then opens another): the calls are exact.
expect_counts '[1-9]' 30 30
frames "$T_DIR/t5c" > "$T_DIR/f5c"
fields "$T_DIR/f5c" > "$T_DIR/v5c"
counting_down "$T_DIR/v5c" --call-rate > "$T_DIR/chk" ||
    fail "$(cat "$T_DIR/chk") in $(cat "$T_DIR/f5c")"
ok "--wsess and --call-rate --num-calls: the bar fills, the time left falls"

# 5d. Replies, errors and the p99 live: every other connection asks for
# a reply 100 ms late (/delay/100), the others are reset (/reset): the
# replies and the errors count up on the line, the p99 is about 100 ms.
rm -f "$T_DIR/wl"
for u in /delay/100/10 /reset; do
	printf '%s\0' "$u" >> "$T_DIR/wl"
done
pty "$T_DIR/t5d" "exec $HP $ARGS --rate 10 --num-conns 30 \
    --wlog y,$T_DIR/wl > $OUT"
expect_rc 0
expect_counts 30 30 15
expect_errors 15 0 0 0 15 0 0 0 0
frames "$T_DIR/t5d" > "$T_DIR/f5d"
fields "$T_DIR/f5d" > "$T_DIR/v5d"
awk '
	$3 + 0 < r + 0 { print "replies went back: " $0; exit 1 }
	$4 + 0 < e + 0 { print "errors went back: " $0; exit 1 }
	$5 != "-" && ($5 < 90 || $5 > 400) { print "p99 " $5 " ms: " $0; exit 1 }
	$5 != "-" { np99++ }
	{ r = $3; e = $4 }
	END {
		if (NR < 4) { print NR " lines"; exit 1 }
		if (r < 8 || r > 15) { print "last line: " r " replies"; exit 1 }
		if (e < 8 || e > 15) { print "last line: " e " errors"; exit 1 }
		if (np99 < NR - 2) { print np99 " lines of " NR " with a p99"; exit 1 }
	}' "$T_DIR/v5d" > "$T_DIR/chk" ||
    fail "$(cat "$T_DIR/chk") in $(cat "$T_DIR/f5d")"
ok "replies and errors count up live, p99 near the 100 ms delay"

# 6. SIGINT ends the run: the line is erased before the report.
cat > "$T_DIR/run.sh" <<EOF
#!/bin/sh
echo \$\$ > "$T_DIR/hp.pid"
exec "$HP" "\$@"
EOF
chmod +x "$T_DIR/run.sh"
rm -f "$T_DIR/hp.pid"
pty "$T_DIR/t6" "$T_DIR/run.sh $ARGS --rate 10 --num-conns 1000" &
PTY_PID=$!
T_PIDS="$T_PIDS $PTY_PID"
i=0
while [ ! -s "$T_DIR/hp.pid" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -s "$T_DIR/hp.pid" ] || fail "httperf did not start on the terminal"
sleep 1
kill -INT "$(cat "$T_DIR/hp.pid")"
wait $PTY_PID
frames "$T_DIR/t6" > "$T_DIR/f6"
[ -s "$T_DIR/f6" ] || fail "no progress line before the signal"
grep -q '@\[K~@\[KMaximum connect burst length: ' "$T_DIR/t6" ||
    fail "no erase before the report: $(cat "$T_DIR/t6")"
sed -e 's/~$//' -e 's/^.*~@\[K//' "$T_DIR/t6" > "$OUT"
expect_classic
ok "a signal: the line is erased before the report"
