#!/bin/sh
# Results while the test runs: --hlog (an HdrHistogram interval log,
# decoded here by tests/fixture/hlogdump with the program's own decoder),
# --interval (one line per interval on stderr) and --periodic-stats / -n
# (upstream's 200/302 lines and its final report line).  Counts are
# checked exactly against the report; times with wide bounds.
. "$TESTLIB"

HLOGDUMP=${TESTSRV%/*}/hlogdump
[ -x "$HLOGDUMP" ] || fail "$HLOGDUMP is not built"

# within NAME VALUE LO HI: LO <= VALUE <= HI (decimal numbers).
within() {
	[ -n "$2" ] || fail "$1: no value"
	awk -v v="$2" -v lo="$3" -v hi="$4" \
	    'BEGIN { exit !(v + 0 >= lo + 0 && v + 0 <= hi + 0) }' ||
	    fail "$1 is $2, expected between $3 and $4"
}

# total FIELD: the number after FIELD on the Total line.
total() {
	value 'Total:' "$1"
}

start_srv

# 1. A paced run of 3 s (60 connections at 20/s, each reply 50 ms late)
# with --hlog and --interval 1.
HLOG=$T_DIR/run.hlog
hp --rate 20 --num-conns 60 --uri /delay/50/10 --hlog "$HLOG" \
    --interval 1
expect_rc 0
expect_classic
expect_counts 60 60 60
expect_status 0 60 0 0 0
"$HLOGDUMP" "$HLOG" > "$T_DIR/dump" 2> "$T_DIR/dump.err" ||
    fail "hlogdump: $(cat "$T_DIR/dump.err")"
# Every tag of a scheduled run, 3 or 4 intervals each, in the same
# order in every interval.
for tag in reply reply-corrected connect lateness; do
	n=$(awk -v t="$tag" '$1 == t' "$T_DIR/dump" | wc -l | tr -d ' ')
	[ "$n" -ge 3 ] && [ "$n" -le 4 ] ||
	    fail "$n intervals of $tag in the hlog: $(cat "$T_DIR/dump")"
done
nint=$(awk '$1 == "reply"' "$T_DIR/dump" | wc -l | tr -d ' ')
[ "$(wc -l < "$T_DIR/dump" | tr -d ' ')" -eq $((nint * 4)) ] ||
    fail "tags other than the four: $(cat "$T_DIR/dump")"
# The intervals tile the run: starts 0, 1, 2 (, 3), lengths 1 s but the
# last; their replies add up to the report's exactly, and so do the
# corrected replies and the connects.
awk '$1 == "reply" {
	if ($2 != sprintf("%.3f", n)) { print "start " $2 " at " n; exit 1 }
	if (last != "" && last != "1.000") { print "length " last; exit 1 }
	last = $3; n++ }' "$T_DIR/dump" > "$T_DIR/tile" ||
    fail "intervals do not tile the run: $(cat "$T_DIR/tile")"
for tag in reply reply-corrected connect; do
	sum=$(awk -v t="$tag" '$1 == t { s += $4 } END { print s + 0 }' \
	    "$T_DIR/dump")
	[ "$sum" = 60 ] || fail "$tag: $sum values over the intervals, not 60"
done
# The 50 ms route: the p50 of every interval with replies.
awk '$1 == "reply" && $4 > 0 { print $5 }' "$T_DIR/dump" > "$T_DIR/p50"
[ "$(wc -l < "$T_DIR/p50" | tr -d ' ')" -ge 3 ] ||
    fail "fewer than 3 intervals with replies: $(cat "$T_DIR/dump")"
while read -r p; do
	within "p50 of an interval" "$p" 49.9 250
done < "$T_DIR/p50"
ok "--hlog: 3 or 4 intervals per tag, replies add up, p50 of each"

# The --interval lines: one per interval on stderr, in the documented
# format, the same replies.
re='^\[[0-9]+\.[0-9]{3} s\] arrivals [0-9]+\.[0-9]/s \(target 20\.0\), replies [0-9]+, errors [0-9]+, reply \[ms\] p50 [0-9]+\.[0-9]{3} p99 [0-9]+\.[0-9]{3} max [0-9]+\.[0-9]{3}, lateness \[ms\] p99 [0-9]+\.[0-9]{3} max [0-9]+\.[0-9]{3}, corrected \[ms\] p99 [0-9]+\.[0-9]{3}(, length [0-9]+\.[0-9]{3} s)?$'
# A last interval that is an empty sliver (under 0.25 s here) has its
# hlog lines but no --interval line.
nline=$(awk '$1 == "reply" { n++; l = $3; c = $4 }
	END { print (l < 0.25 && c == 0) ? n - 1 : n }' "$T_DIR/dump")
n=$(grep -Ec "$re" "$OUT.err")
[ "$n" = "$nline" ] || fail "$n --interval lines for $nint intervals"
[ "$(wc -l < "$OUT.err" | tr -d ' ')" = "$nline" ] ||
    fail "other lines on stderr"
# The corrected p99 (from the intended start) is never below the p99.
awk '{ for (i = 1; i < NF; i++) { if ($i == "p99" && $(i - 1) == "p50")
	p = $(i + 1); if ($i == "corrected") c = $(i + 3) }
	if (c + 0 < p + 0) { print; exit 1 } }' "$OUT.err" > "$T_DIR/corr" ||
    fail "corrected p99 below the p99: $(cat "$T_DIR/corr")"
sum=$(sed -n 's/.* replies \([0-9]*\),.*/\1/p' "$OUT.err" |
    awk '{ s += $1 } END { print s + 0 }')
[ "$sum" = 60 ] || fail "--interval lines: $sum replies, not 60"
ok "--interval: one line per interval, replies add up"
# The achieved rate is the arrivals' (the schedule's) rate: every whole
# interval (all but the last) made about 20 arrivals in its second.
sed '$d' "$OUT.err" | sed -n 's/.* arrivals \([0-9.]*\)\/s .*/\1/p' > "$T_DIR/arr"
[ "$(wc -l < "$T_DIR/arr" | tr -d ' ')" -ge 2 ] || fail "fewer than 2 whole intervals"
while read -r a; do
	within "arrivals of a whole interval" "$a" 18 22
done < "$T_DIR/arr"
ok "--interval: the arrivals' rate is the target's"

# 1b. --call-rate: its requests are the arrivals; each one is in the
# lateness histogram of the log exactly once, the progress lines show
# the call rate as target and about that many arrivals per second.
hp --call-rate 100 --num-calls 150 --max-connections 4 --hlog "$HLOG" \
    --interval 0.5
expect_rc 0
expect_counts '[0-9]+' 150 150
expect '^Arrivals: 150 scheduled, [0-9]+ late over 1 ms \([0-9.]+%\), 0 never sent; rate target 100\.0/s, '
"$HLOGDUMP" "$HLOG" > "$T_DIR/dump" 2> "$T_DIR/dump.err" ||
    fail "hlogdump: $(cat "$T_DIR/dump.err")"
for tag in lateness reply-corrected reply; do
	sum=$(awk -v t="$tag" '$1 == t { s += $4 } END { print s + 0 }' \
	    "$T_DIR/dump")
	[ "$sum" = 150 ] || fail "--call-rate: $tag: $sum values, not 150"
done
re='^\[[0-9]+\.[0-9]{3} s\] arrivals [0-9]+\.[0-9]/s \(target 100\.0\), replies [0-9]+, errors 0, reply \[ms\] p50 [0-9.]+ p99 [0-9.]+ max [0-9.]+, lateness \[ms\] p99 [0-9.]+ max [0-9.]+, corrected \[ms\] p99 [0-9.]+(, length [0-9.]+ s)?$'
grep -Evq "$re" "$OUT.err" && fail "--call-rate: a line is not a scheduled one: $(cat "$OUT.err")"
sed '$d' "$OUT.err" | sed -n 's/.* arrivals \([0-9.]*\)\/s .*/\1/p' > "$T_DIR/arr"
[ "$(wc -l < "$T_DIR/arr" | tr -d ' ')" -ge 2 ] || fail "--call-rate: fewer than 2 whole intervals"
while read -r a; do
	within "--call-rate: arrivals of a whole interval" "$a" 90 110
done < "$T_DIR/arr"
ok "--interval, --hlog with --call-rate: lateness of every request, arrivals at the call rate"

# 2. No schedule: connections per second, and only the reply and
# connect histograms.
hp --num-conns 5 --num-calls 2 --uri /delay/20/10 --hlog "$HLOG" \
    --interval 0.1
expect_rc 0
expect_counts 5 10 10
"$HLOGDUMP" "$HLOG" > "$T_DIR/dump" 2> "$T_DIR/dump.err" ||
    fail "hlogdump: $(cat "$T_DIR/dump.err")"
awk '$1 != "reply" && $1 != "connect" { bad = 1 } END { exit bad }' \
    "$T_DIR/dump" || fail "unscheduled run has tags: $(cat "$T_DIR/dump")"
sum=$(awk '$1 == "reply" { s += $4 } END { print s + 0 }' "$T_DIR/dump")
[ "$sum" = 10 ] || fail "$sum replies in the hlog, not 10"
re='^\[[0-9]+\.[0-9]{3} s\] connections [0-9]+\.[0-9]/s, replies [0-9]+, errors [0-9]+, reply \[ms\] p50 [0-9]+\.[0-9]{3} p99 [0-9]+\.[0-9]{3} max [0-9]+\.[0-9]{3}(, length [0-9]+\.[0-9]{3} s)?$'
grep -Evq "$re" "$OUT.err" && fail "a line is not an unscheduled one"
n=$(grep -Ec "$re" "$OUT.err")
[ "$n" -ge 2 ] || fail "$n --interval lines in a 0.2 s run at 0.1 s"
ok "--hlog, --interval without a schedule"

# 3. An hlog that cannot be written: one line, exit 1, before the run
# starts (nothing on stdout); on a full disk: the report, then the
# error, exit 1.
: > "$T_DIR/srv.log"
hp --num-conns 1 --uri /size/10 --hlog "$T_DIR/no/such/dir/x.hlog"
expect_rc 1
[ -s "$OUT" ] && fail "the run started"
[ "$(cat "$OUT.err")" = "httperf: --hlog: $T_DIR/no/such/dir/x.hlog: No such file or directory" ] ||
    fail "unexpected error output"
[ "$(srv_requests)" = 0 ] || fail "requests were sent"
if [ -w /dev/full ]; then
	hp --num-conns 1 --uri /size/10 --hlog /dev/full
	expect_rc 1
	expect_counts 1 1 1
	[ "$(cat "$OUT.err")" = "httperf: --hlog: /dev/full: No space left on device" ] ||
	    fail "unexpected error output"
else
	t_skip "no /dev/full"
fi
ok "--hlog: unwritable file"

# 4. --periodic-stats (and -n): upstream's line every second on stdout,
# the counts of that second; the final line after Reply status, equal to
# the report's counts.  2.5 s at 40/s: 2 lines.
for route in 200 302; do
	if [ $route = 200 ]; then opt=--periodic-stats; else opt=-n; fi
	hp --rate 40 --num-conns 100 --uri /status/$route $opt
	expect_rc 0
	grep -v '^Periodic stats: \|^\[' "$OUT" | awk '
	    /^Reply status/ { skip = 1; print; next }
	    skip == 1 && /^$/ { skip = 2; print; next }
	    skip == 2 && /^$/ { skip = 3; next }
	    { print }' > "$T_DIR/classic.out"
	if [ $route = 200 ]; then
		expect_status 0 100 0 0 0
		want="Periodic stats: 200=100 302=0"
	else
		expect_status 0 0 100 0 0
		want="Periodic stats: 200=0 302=100"
	fi
	# The line and its blank line come right after Reply status and
	# its blank line.
	awk -v w="$want" '/^Reply status/ { getline a; getline b;
	    getline c; ok = a == "" && b == w && c == ""; exit }
	    END { exit !ok }' "$OUT" || fail "no \"$want\" after Reply status"
	n=$(grep -Ec '^\[[0-9]+\.[0-9]{6} s\] 200=[0-9]+, 302=[0-9]+$' "$OUT")
	[ "$n" = 2 ] || fail "$n periodic lines in 2.5 s"
	grep -E '^\[' "$OUT" | awk '{ t = substr($1, 2) + 0;
	    if (t < NR || t > NR + 0.5) exit 1 }' ||
	    fail "periodic lines not 1 s apart"
	s200=$(sed -n 's/^\[.*\] 200=\([0-9]*\), 302=\([0-9]*\)$/\1/p' "$OUT" |
	    awk '{ s += $1 } END { print s + 0 }')
	s302=$(sed -n 's/^\[.*\] 200=\([0-9]*\), 302=\([0-9]*\)$/\2/p' "$OUT" |
	    awk '{ s += $1 } END { print s + 0 }')
	if [ $route = 200 ]; then
		[ "$s302" = 0 ] || fail "302 replies counted for a 200 route"
		within "200 replies in 2 s" "$s200" 60 100
	else
		[ "$s200" = 0 ] || fail "200 replies counted for a 302 route"
		within "302 replies in 2 s" "$s302" 60 100
	fi
	cp "$T_DIR/classic.out" "$OUT"
	expect_classic
done
hp --num-conns 3 --uri /size/10
expect_not '^Periodic stats'
expect_not '^\['
ok "--periodic-stats, -n: lines and final line"

# 5. The last interval cut short by the end: one connection whose reply
# takes 100 ms, --interval 0.1.  The last line says its real length
# (the time since the boundary before it), and in the document a last
# interval under a quarter of a period is joined to the one before: no
# interval but a lone one is shorter than 25 ms (no 0.4 ms sliver at the
# end of the plots).
command -v python3 > /dev/null 2>&1 || fail "python3 is missing"
hp --num-conns 1 --uri /delay/100/10 --interval 0.1 --json "$T_DIR/s.json"
expect_rc 0
expect_counts 1 1 1
# A line off the 0.1 s boundaries (the last, unless the end fell just
# after a boundary with nothing left to count: then it has no line) says
# its length, the time since the boundary before it; a line on one
# does not.  An end under 0.5 ms after a boundary with the reply still
# to count (it came then) is a line off it whose time rounds to the
# boundary: its length is 0.000 s.
last=$(tail -n 1 "$OUT.err")
t=$(echo "$last" | sed 's/^\[\([0-9.]*\) s\].*/\1/')
if awk -v t="$t" 'BEGIN { exit !(int(t * 1000 + 0.5) % 100 == 0) }'; then
	echo "$last" | grep ', length ' | grep -vq ', length 0\.000 s$' &&
	    fail "a line on a boundary has a length: $last"
else
	echo "$last" | grep -Eq ', length [0-9]+\.[0-9]{3} s$' ||
	    fail "the last --interval line has no length: $last"
	l=$(echo "$last" | sed 's/.*, length \([0-9.]*\) s$/\1/')
	awk -v t="$t" -v l="$l" 'BEGIN { d = (int(t * 1000 + 0.5) % 100) / 1000;
	    exit !(d - l < 0.0015 && l - d < 0.0015) }' ||
	    fail "the last line's length $l is not its time $t since the boundary"
fi
python3 - "$T_DIR/s.json" <<'PY' > "$T_DIR/s.txt" 2>&1 ||
import json, sys
iv = json.load(open(sys.argv[1]))["stats"]["interval"]
x = iv["intervals"]
assert sum(sum(r["replies"].values()) for r in x) == 1, x
assert len(x) == 1 or all(r["length_ns"] >= iv["period_ns"] // 4 for r in x), \
    [r["length_ns"] for r in x]
PY
    fail "a sliver in the document: $(cat "$T_DIR/s.txt")"
ok "--interval: the last interval's real length; no sliver in the document"

# 6. Memory does not grow with the run's length: 8,000 intervals of
# 1 ms (--interval 0.001 for 8 s) with --json and --html keep at most
# 512 of them, neighbours joined 16 by 16, said in the document and on
# the page.  (Keeping every interval took 38 MB here; 8.5 MB now.)
/usr/bin/time -f %M true > /dev/null 2>&1 ||
    fail "GNU time (/usr/bin/time) is not installed"
if ldd "$HTTPERF" 2>/dev/null | grep -q libasan || [ -n "${HTTPERF_VALGRIND:-}" ]; then
	limit_kb=0	# RSS means nothing under ASan or valgrind
else
	limit_kb=20000
fi
/usr/bin/time -o "$T_DIR/rss" -f %M timeout 60 "$HTTPERF" \
    --server 127.0.0.1 --port "$PORT" --rate 100 --num-conns 800 \
    --interval 0.001 --json "$T_DIR/b.json" --html "$T_DIR/b.html" \
    > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --rate 100 --num-conns 800 --interval 0.001 --json --html"
expect_rc 0
expect_counts 800 800 800
rss=$(tail -n 1 "$T_DIR/rss")
echo "peak RSS: $rss KiB"
[ "$limit_kb" -gt 0 ] && [ "$rss" -gt "$limit_kb" ] &&
    fail "peak RSS $rss KiB, over $limit_kb KiB"
validate_json "$T_DIR/b.json"
python3 - "$T_DIR/b.json" <<'PY' > "$T_DIR/b.txt" 2>&1 ||
import json, sys
d = json.load(open(sys.argv[1]))
iv = d["stats"]["interval"]; x = iv["intervals"]
assert iv["max_intervals"] == 512 and len(x) <= 512, len(x)
j = iv["joined"]
assert j >= 8 and j & (j - 1) == 0, j
assert sum(sum(r["replies"].values()) for r in x) == 800
assert sum(r["conns"] for r in x) == 800
assert sum(r["reply_corrected"]["count"] for r in x) == 800
# They tile the run (a loop held up makes one longer interval, so the
# lengths are not all j periods).
t = 0
for r in x:
    assert r["start_ns"] == t and r["length_ns"] > 0, (r, t)
    t += r["length_ns"]
assert t == d["duration_ns"], (t, d["duration_ns"])
print(j)
PY
    fail "the intervals kept: $(cat "$T_DIR/b.txt")"
j=$(cat "$T_DIR/b.txt")
grep -q "<p class=\"note\" id=\"joined\">The run's 0.001 s intervals are joined $j by $j here, to keep at most 512 of them" "$T_DIR/b.html" ||
    fail "the page does not say the intervals are joined"
ok "--interval 0.001 --json --html: at most 512 intervals kept (joined $j by $j), peak RSS $rss KiB"
