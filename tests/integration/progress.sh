#!/bin/sh
# The live progress line: on a terminal (a pseudo-terminal from
# util-linux script(1)) it is redrawn in place (CR, the line, ESC[K) and
# erased (CR ESC[K) before the report's first line, also when a signal
# ends the run; with the standard error not a terminal, with --quiet,
# with TERM=dumb and with --interval nothing of it is written.
. "$TESTLIB"

if ! script -q -c true /dev/null < /dev/null > /dev/null 2>&1; then
	if [ "${CI:-}" = true ] || [ "${HTTPERF_STRICT:-}" = 1 ]; then
		fail "script(1) (util-linux) is missing"
	fi
	skip "script(1) (util-linux) is missing"
fi

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
n=$(wc -l < "$T_DIR/f1" | tr -d ' ')
# 1.5 s at 4 a second: 5 or 6 lines, fewer on a loaded machine.
[ "$n" -ge 2 ] && [ "$n" -le 7 ] || fail "$n progress lines: $(cat "$T_DIR/f1")"
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
