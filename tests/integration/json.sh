#!/bin/sh
# --json: the document validates against doc/httperf-result.schema.json
# and holds the report's numbers; --json - puts it on stdout and the
# report on stderr; --merge of four --client I/4 processes equals their
# sum and the server's count, refuses different workloads, and its own
# document validates and merges again.
. "$TESTLIB"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
J=$T_DIR/j

# jv FILE PATH: json_get, failing the test when the member is missing.
jv() {
	json_get "$1" "$2" 2>/dev/null || fail "$1: no member $2"
}

start_srv
hp --num-conns 20 --num-calls 3 --rate 400 --uri /size/500 --json "$J.json"
expect_rc 0
expect_counts 20 60 60
validate_json "$J.json"
[ "$(jv "$J.json" stats.basic.connections.total)" = 20 ] || fail "connections"
[ "$(jv "$J.json" stats.basic.requests.total)" = 60 ] || fail "requests"
[ "$(jv "$J.json" stats.basic.replies.total)" = 60 ] || fail "replies"
[ "$(jv "$J.json" stats.basic.replies.status.2xx)" = 60 ] || fail "2xx"
[ "$(jv "$J.json" stats.basic.replies.content_bytes)" = 30000 ] || fail "content bytes"
[ "$(jv "$J.json" stats.basic.histograms.reply.count)" = 60 ] || fail "reply histogram count"
[ "$(jv "$J.json" client.count)" = 1 ] || fail "client count"
[ "$(jv "$J.json" options.num-conns)" = 20 ] || fail "options.num-conns"
[ "$(jv "$J.json" options.rate)" = 400 ] || fail "options.rate"
# The printed numbers are the document's, rounded as the report rounds.
d=$(python3 -c "import sys; print('%.3f' % float(sys.argv[1]))" "$(jv "$J.json" duration_s)")
expect "test-duration $d s\$"
r=$(python3 -c "import sys; print('%.1f' % float(sys.argv[1]))" "$(jv "$J.json" stats.basic.requests.rate_per_s)")
expect "^Request rate: $r req/s"
p=$(python3 -c "import sys; print('%.3f' % (int(sys.argv[1]) / 1e6))" "$(jv "$J.json" stats.basic.histograms.reply.percentiles_ns.p99)")
expect "^Reply time percentiles \[ms\]: p50 [0-9.]+ p90 [0-9.]+ p99 $p "
grep -q "^$(jv "$J.json" command_line | sed 's/[][\.*^$]/\\&/g')\$" "$OUT" ||
    fail "command_line is not the echo line"
ok "--json: validates, numbers as the report"

# iv_check FILE.json: stats.interval's intervals tile the test (each one
# starts where the one before ended, the last ends at the duration) and
# add up to the totals: replies, connections, arrivals made, and every
# histogram's count.
iv_check() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
st = d["stats"]; iv = st["interval"]; ivs = iv["intervals"]
assert len(ivs) > 0, "no intervals"
t = 0
# Each interval kept covers `joined' periods (or less); the last one,
# a sliver joined to it, up to a quarter of a period more.
p = iv["period_ns"] * iv.get("joined", 1)
for i, x in enumerate(ivs):
    assert x["start_ns"] >= t, ("overlap", x["start_ns"], t)
    assert 0 < x["length_ns"] <= p + (iv["period_ns"] // 4 if i == len(ivs) - 1 else 0), x["length_ns"]
    t = x["start_ns"] + x["length_ns"]
    assert x["reply"]["count"] == sum(x["replies"].values()), "reply count"
assert t == d["duration_ns"], ("end", t, d["duration_ns"])
if "merged" not in d:
    assert sum(x["length_ns"] for x in ivs) == d["duration_ns"], "gaps"
b = st["basic"]
def total(k): return sum(x[k] for x in ivs)
assert sum(sum(x["replies"].values()) for x in ivs) == b["replies"]["total"], "replies"
assert total("conns") == b["connections"]["total"], "conns"
assert sum(sum(x["errors"].values()) for x in ivs) <= b["errors"]["total"], "errors"
if "sched" in st:
    s = st["sched"]
    assert iv["target_rate_per_s"] == s["target_rate_per_s"], "target"
    assert total("arrivals") == s["made"] - s["never_sent_queued"], "arrivals"
    assert sum(x["lateness"]["count"] for x in ivs) == total("arrivals"), "lateness"
    assert sum(x["reply_corrected"]["count"] for x in ivs) == b["replies"]["total"], "corrected"
else:
    assert iv["target_rate_per_s"] == 0 and all("lateness" not in x for x in ivs)
print(len(ivs))
PY
}
n=$(iv_check "$J.json") || fail "stats.interval does not add up"
[ "$(jv "$J.json" stats.interval.period_ns)" = 1000000000 ] || fail "interval period"
ok "--json: stats.interval: $n intervals tile the test and add up"

# sched_lines FILE.json: the Lateness and Arrivals lines as the report
# prints them, from the document's stats.sched.
sched_lines() {
	python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["stats"]["sched"]
h = s["lateness"]
pc = " ".join("%s %.3f" % (k, h["percentiles_ns"][k] / 1e6)
    for k in ("p50", "p90", "p99", "p99.9", "p99.99"))
print("Lateness percentiles [ms]: %s max %.3f" % (pc, h["max_ns"] / 1e6))
t = " target %.1f/s," % s["target_rate_per_s"] if s["target_rate_per_s"] > 0 else ""
print("Arrivals: %d scheduled, %d late over %g ms (%.1f%%), %d never sent; "
    "rate%s scheduled %.1f/s, achieved %.1f/s" % (s["scheduled"], s["late"],
    s["threshold_ns"] / 1e6, s["late_pct"], s["never_sent"], t,
    s["scheduled_rate_per_s"], s["achieved_rate_per_s"]))
assert s["scheduled"] == s["made"] + s["never_sent"]
assert s["lateness"]["count"] == s["made"] + s["never_sent_queued"]
PY
}

# The paced run's schedule: its lines are the document's numbers.
[ "$(jv "$J.json" stats.sched.scheduled)" = 20 ] || fail "sched: scheduled"
[ "$(jv "$J.json" stats.sched.made)" = 20 ] || fail "sched: made"
[ "$(jv "$J.json" stats.sched.never_sent)" = 0 ] || fail "sched: never sent"
[ "$(jv "$J.json" stats.sched.target_rate_per_s)" = 400 ] || fail "sched: target"
sched_lines "$J.json" > "$T_DIR/sched.want" || fail "sched: the document's counts do not add up"
grep -E '^(Lateness percentiles|Arrivals:)' "$OUT" > "$T_DIR/sched.got"
cmp -s "$T_DIR/sched.want" "$T_DIR/sched.got" ||
    fail "sched lines differ from the document: $(diff "$T_DIR/sched.want" "$T_DIR/sched.got")"
w=$(jv "$J.json" stats.sched.warning.fired)
if grep -q '^Warning: the client was the bottleneck' "$OUT"; then
	[ "$w" = true ] || fail "warning printed, fired $w"
else
	[ "$w" = false ] || fail "no warning printed, fired $w"
fi
# One file merged is the run's report line for line (after the echo line),
# the schedule's lines and warning included.
"$HP" --merge "$J.json" > "$OUT.m1" 2> "$OUT.err" || fail "merge of one file: $(cat "$OUT.err")"
sed 1d "$OUT" > "$T_DIR/r0"
cmp -s "$T_DIR/r0" "$OUT.m1" || fail "one file merged differs from its run: $(diff "$T_DIR/r0" "$OUT.m1")"
ok "--json: the schedule (stats.sched) as the report's lines; one file merged is its run's report"

# --json -: the document alone on stdout, the report on stderr.
hp --num-conns 5 --json -
expect_rc 0
validate_json "$OUT"
grep -q '^Total: connections 5 requests 5 replies 5 ' "$OUT.err" ||
    fail "--json -: no report on stderr"
ok "--json -: JSON on stdout, report on stderr"
stop_srv

# Four processes, --client I/4, 25 connections of 2 calls each.
start_srv
for i in 0 1 2 3; do
	timeout 60 "$HP" --server 127.0.0.1 --port "$PORT" --num-conns 25 \
	    --num-calls 2 --rate 200 --client $i/4 --json "$J$i.json" \
	    > "$J$i.txt" 2>&1 &
	eval "p$i=\$!"
done
for i in 0 1 2 3; do
	eval "wait \$p$i" || fail "client $i/4 failed: $(cat "$J$i.txt")"
	grep -q '^Total: connections 25 requests 50 replies 50 ' "$J$i.txt" ||
	    fail "client $i/4: $(grep Total "$J$i.txt")"
	validate_json "$J$i.json"
done
stop_srv
[ "$(srv_stat requests)" = 200 ] || fail "server saw $(srv_stat requests) requests"
T_LAST="httperf --merge"
timeout 60 "$HP" --merge "${J}0.json" "${J}1.json" "${J}2.json" "${J}3.json" \
    --json "$J.m.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 0
expect_classic
expect_counts 100 200 200
expect_status 0 200 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Connection length \[replies/conn\]: 2\.000$'
# A paced run (--rate): basic's five lines and the corrected reply time,
# as each file's own report has them.
[ "$(grep -c 'percentiles \[ms\]' "$OUT")" = "$(grep -c 'percentiles \[ms\]' "${J}0.txt")" ] ||
    fail "percentile lines differ from a single run's"
expect '^Reply time \(corrected\) percentiles \[ms\]: p50 '
validate_json "$J.m.json"
[ "$(jv "$J.m.json" stats.basic.requests.total)" = "$(srv_stat requests)" ] ||
    fail "merged requests differ from the server's count"
[ "$(jv "$J.m.json" stats.basic.histograms.reply.count)" = 200 ] ||
    fail "merged reply histogram count"
[ "$(jv "$J.m.json" stats.basic.histograms.reply_corrected.count)" = 200 ] ||
    fail "merged corrected reply histogram count"
[ "$(jv "$J.m.json" client.ids)" = "[0, 1, 2, 3]" ] || fail "client ids"
# Sums of the four files, member by member; the schedules too (4 x 25
# arrivals, counts and histograms added, the target the sum of the
# files'; the lines as the merged document says).
for m in stats.basic.replies.header_bytes stats.basic.net.bytes \
    stats.basic.connections.lifetime.sum_ns stats.basic.replies.response_sum_ns \
    stats.sched.scheduled stats.sched.made stats.sched.never_sent \
    stats.sched.late stats.sched.lateness.count; do
	s=0
	for i in 0 1 2 3; do
		s=$((s + $(jv "$J$i.json" $m)))
	done
	[ "$(jv "$J.m.json" $m)" = "$s" ] || fail "$m: merged $(jv "$J.m.json" $m), sum $s"
done
[ "$(jv "$J.m.json" stats.sched.scheduled)" = 100 ] || fail "merged scheduled"
[ "$(jv "$J.m.json" stats.sched.target_rate_per_s)" = 800 ] || fail "merged target rate"
sched_lines "$J.m.json" > "$T_DIR/sched.want" || fail "merged sched: counts do not add up"
grep -E '^(Lateness percentiles|Arrivals:)' "$OUT" > "$T_DIR/sched.got"
cmp -s "$T_DIR/sched.want" "$T_DIR/sched.got" ||
    fail "merged sched lines differ from the document: $(diff "$T_DIR/sched.want" "$T_DIR/sched.got")"
expect '^Arrivals: 100 scheduled, '
iv_check "$J.m.json" > /dev/null || fail "merged stats.interval does not add up"
# Every file's interval lands in the merged one its start falls in.
python3 - "$J.m.json" "${J}0.json" "${J}1.json" "${J}2.json" "${J}3.json" <<'PY' ||
import json, sys
m = json.load(open(sys.argv[1])); mi = m["stats"]["interval"]
p = mi["period_ns"] * mi["joined"]
want = {}
for f in sys.argv[2:]:
    d = json.load(open(f))
    off = d["start"]["epoch_ns"] - m["start"]["epoch_ns"]
    for x in d["stats"]["interval"]["intervals"]:
        j = (off + x["start_ns"]) // p
        w = want.setdefault(j, [0, 0, 0])
        w[0] += x["replies"]["2xx"]; w[1] += x["reply"]["count"]; w[2] += x["lateness"]["count"]
# Only the slots some file's interval falls in, in order.
assert [x["start_ns"] // p for x in mi["intervals"]] == sorted(want), \
    ([x["start_ns"] for x in mi["intervals"]], sorted(want))
for x in mi["intervals"]:
    j = x["start_ns"] // p
    assert x["start_ns"] == j * p, x["start_ns"]
    got = [x["replies"]["2xx"], x["reply"]["count"], x["lateness"]["count"]]
    assert got == want.get(j, [0, 0, 0]), (j, got, want.get(j))
assert m["stats"]["interval"]["target_rate_per_s"] == 800
PY
    fail "merged intervals are not the files' intervals added up"
ok "--merge: four --client I/4 runs add up to the server's count"

# Merged files merge again: (0+1) + (2+3) is the same result.
"$HP" --merge "${J}0.json" "${J}1.json" --json "$J.a.json" > /dev/null &&
    "$HP" --merge "${J}2.json" "${J}3.json" --json "$J.b.json" > /dev/null ||
    fail "partial merges failed"
timeout 60 "$HP" --merge "$J.a.json" "$J.b.json" --json "$J.ab.json" \
    > "$OUT.ab" 2> "$OUT.err"
RC=$?
expect_rc 0
validate_json "$J.ab.json"
# Same report but for the CPU line (sums of doubles in another order).
grep -v '^CPU time' "$OUT" > "$T_DIR/r1"
grep -v '^CPU time' "$OUT.ab" > "$T_DIR/r2"
cmp -s "$T_DIR/r1" "$T_DIR/r2" || fail "re-merge differs: $(diff "$T_DIR/r1" "$T_DIR/r2")"
ok "--merge: merged results merge again"

# pair NAME ARGS...: two processes (--client 0/2 and 1/2) of the same
# workload, each with its --json NAME0.json / NAME1.json, validated; then
# each file alone merges to its run's report (after the echo line), and
# the two merge to NAME.m.json (validated) with the report in $OUT.
pair() {
	name=$1
	shift
	for i in 0 1; do
		hp "$@" --client $i/2 --json "$J.$name$i.json"
		expect_rc 0
		validate_json "$J.$name$i.json"
		sed 1d "$OUT" > "$T_DIR/$name$i.txt"
		"$HP" --merge "$J.$name$i.json" > "$OUT.m1" 2> "$OUT.err" ||
		    fail "$name: merge of one file: $(cat "$OUT.err")"
		cmp -s "$T_DIR/$name$i.txt" "$OUT.m1" ||
		    fail "$name: one file merged differs from its run: $(diff "$T_DIR/$name$i.txt" "$OUT.m1")"
	done
	T_LAST="httperf --merge ($name)"
	"$HP" --merge "$J.${name}0.json" "$J.${name}1.json" --json "$J.$name.m.json" \
	    > "$OUT" 2> "$OUT.err"
	RC=$?
	expect_rc 0
	validate_json "$J.$name.m.json"
}

# summed NAME MEMBER: the merged member is the sum of the two files'.
summed() {
	s=$(( $(jv "$J.${1}0.json" "$2") + $(jv "$J.${1}1.json" "$2") ))
	[ "$(jv "$J.$1.m.json" "$2")" = "$s" ] ||
	    fail "$1: $2: merged $(jv "$J.$1.m.json" "$2"), sum $s"
}

# Sessions (--wsess, paced): stats.sess_stat, its merge and the schedule
# of sessions.
start_srv
pair sess --wsess 4,3,0 --rate 50 --uri /size/10
[ "$(jv "$J.sess0.json" stats.sess_stat.completed)" = 4 ] || fail "sess: completed"
[ "$(jv "$J.sess0.json" stats.sched.scheduled)" = 4 ] || fail "sess: scheduled sessions"
[ "$(jv "$J.sess.m.json" stats.sess_stat.completed)" = 8 ] || fail "sess: merged completed"
for m in stats.sess_stat.conns stats.sess_stat.lifetime_sum_ns \
    stats.basic.histograms.session.count stats.sched.scheduled; do
	summed sess $m
done
expect '^Total: connections [0-9]+ requests 24 replies 24 '
expect '^Arrivals: 8 scheduled, '
expect '^Session lifetime percentiles \[ms\]: p50 '
stop_srv
ok "--json with --wsess: validates, one file merged is its run, two add up"

# TLS (--ssl, a certificate made now): stats.tls_stat and its merge.
if command -v openssl >/dev/null 2>&1 &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$T_DIR/srv.key" -out "$T_DIR/srv.pem" -days 2 \
    -subj /CN=localhost 2>/dev/null; then
	start_srv -s "$T_DIR/srv.pem" -k "$T_DIR/srv.key"
	pair tls --ssl --num-conns 6 --num-calls 2 --uri /size/10
	[ "$(jv "$J.tls0.json" stats.tls_stat.handshakes)" = 6 ] || fail "tls: handshakes"
	[ "$(jv "$J.tls0.json" stats.basic.histograms.tls_handshake.count)" = 6 ] ||
	    fail "tls: handshake histogram"
	for m in stats.tls_stat.handshakes stats.tls_stat.resumed \
	    stats.tls_stat.failed stats.tls_stat.time_sum_ns \
	    stats.tls_stat.time.count stats.basic.histograms.tls_handshake.count; do
		summed tls $m
	done
	[ "$(jv "$J.tls.m.json" stats.tls_stat.handshakes)" = 12 ] || fail "tls: merged handshakes"
	expect '^TLS: handshakes 12 resumed [0-9]+ \([0-9.]+%\) failed 0$'
	expect '^TLS handshake percentiles \[ms\]: p50 '
	stop_srv
	ok "--json with --ssl: validates, one file merged is its run, two add up"
else
	t_skip "openssl cannot make a certificate: --json with --ssl not checked"
fi

# Refusals: a different workload, the same client twice, not a result.
start_srv
hp --num-conns 2 --rate 100 --uri /size/7 --client 1/4 --json "$J.r.json"
expect_rc 0
stop_srv
"$HP" --merge "${J}0.json" "$J.r.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "refusal: not one line"
grep -Eq "$J.r.json: options\.[a-z-]+: differs from ${J}0.json" "$OUT.err" ||
    fail "refusal does not name the option: $(cat "$OUT.err")"
python3 - "${J}1.json" "$J.rate.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["options"]["rate"] = 300
d["client"]["ids"] = [3]; d["client"]["id"] = 3
json.dump(d, open(sys.argv[2], "w"))
d["options"]["period"] = "e0.005"
json.dump(d, open(sys.argv[2] + ".e", "w"))
PY
# Another load (--rate) merges (unequal clients); another distribution
# of the arrivals does not.
"$HP" --merge "${J}0.json" "$J.rate.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 0
"$HP" --merge "${J}0.json" "$J.rate.json.e" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q "rate.json.e: options.period: differs from ${J}0.json otherwise than in its load" "$OUT.err" ||
    fail "--period: $(cat "$OUT.err")"
python3 - "${J}1.json" "$J.thr.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["stats"]["sched"]["threshold_ns"] = 2000000
json.dump(d, open(sys.argv[2], "w"))
PY
"$HP" --merge "${J}0.json" "$J.thr.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q "thr.json: stats.sched.threshold_ns: 2000000 differs from ${J}0.json's 1000000" "$OUT.err" ||
    fail "threshold: $(cat "$OUT.err")"
python3 - "${J}1.json" "$J.iv.json" "$J.iv2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["stats"]["interval"]["period_ns"] = 500000000
json.dump(d, open(sys.argv[2], "w"))
del d["stats"]["interval"]
json.dump(d, open(sys.argv[3], "w"))
PY
"$HP" --merge "${J}0.json" "$J.iv.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q "iv.json: stats.interval.period_ns: 500000000 differs from ${J}0.json's 1000000000 (--interval)" "$OUT.err" ||
    fail "interval period: $(cat "$OUT.err")"
"$HP" --merge "${J}0.json" "$J.iv2.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q "iv2.json: stats.interval: in one of this file and ${J}0.json only" "$OUT.err" ||
    fail "interval in one file: $(cat "$OUT.err")"
"$HP" --merge "${J}0.json" "${J}0.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q "client.ids: client 0/4 is also in an earlier file" "$OUT.err" ||
    fail "same client twice: $(cat "$OUT.err")"
echo '{"format": "x"}' > "$J.bad.json"
"$HP" --merge "$J.bad.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q "bad.json: format: not an httperf result" "$OUT.err" || fail "bad: $(cat "$OUT.err")"
printf '{' > "$J.bad.json"
"$HP" --merge "$J.bad.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q "bad.json: not valid JSON: line 1" "$OUT.err" || fail "truncated: $(cat "$OUT.err")"
"$HP" --merge "$J.none.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
"$HP" --merge > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q -- "--merge: expected one or more result files" "$OUT.err" || fail "no files: $(cat "$OUT.err")"
"$HP" --merge --rate 5 "${J}0.json" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 1
grep -q -- "--rate: cannot be used with --merge" "$OUT.err" || fail "--rate with --merge: $(cat "$OUT.err")"
ok "--merge: refusals name the file and the member"

# Hostile or mistaken --merge inputs, made from the four files: the work
# and the memory follow what the files hold, and a file that cannot be a
# run of this httperf is one line naming the file and the member.
# mutate IN OUT PYTHON: OUT is IN's document d after PYTHON ran on it.
mutate() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "mutate $1: $3"
import base64, json, struct, sys, zlib
d = json.load(open(sys.argv[1]))
DAY = 86400 * 10**9
def histf(lowest, highest, digits):
    """An empty HdrHistogram (compressed V2, base64) of those settings."""
    v2 = struct.pack(">iiiiqqd", 0x1c849303, 0, 0, digits, lowest, highest, 1.0)
    z = zlib.compress(v2)
    return base64.b64encode(struct.pack(">ii", 0x1c849304, len(z)) + z).decode()
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
# merge_refused WHAT FILE... : exit status 1, nothing on stdout, one line
# on stderr (left in $OUT.err).
merge_refused() {
	mr_what=$1
	shift
	timeout 60 "$HP" --merge "$@" --json "$J.r.json" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf --merge ($mr_what)"
	expect_rc 1
	[ -s "$OUT" ] && fail "$mr_what: a report: $(head -3 "$OUT")"
	[ "$(wc -l < "$OUT.err" | tr -d ' ')" = 1 ] ||
	    fail "$mr_what: not one line: $(head -c 500 "$OUT.err")"
}

# Two files 5 days apart: their intervals, no more (keeping every 1 s
# slot between them took 1.7 GB); 32 days apart: refused.
mutate "${J}1.json" "$J.far.json" 'd["start"]["epoch_ns"] += 5 * DAY'
/usr/bin/time -f %M true > /dev/null 2>&1 ||
    fail "GNU time (/usr/bin/time) is not installed"
/usr/bin/time -o "$T_DIR/rss" -f %M timeout 60 "$HP" --merge "${J}0.json" \
    "$J.far.json" --json "$J.far.m.json" > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --merge (5 days apart)"
expect_rc 0
expect_counts 50 100 100
validate_json "$J.far.m.json"
n0=$(jv "${J}0.json" stats.interval.intervals | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
n1=$(jv "$J.far.json" stats.interval.intervals | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
nm=$(jv "$J.far.m.json" stats.interval.intervals | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
[ "$nm" = $((n0 + n1)) ] || fail "5 days apart: $nm merged intervals, not $n0 + $n1"
rss=$(tail -n 1 "$T_DIR/rss")
if ! ldd "$HTTPERF" 2>/dev/null | grep -q libasan && [ -z "${HTTPERF_VALGRIND:-}" ]; then
	[ "$rss" -le 30000 ] || fail "5 days apart: peak RSS $rss KiB"
fi
mutate "${J}1.json" "$J.far.json" 'd["start"]["epoch_ns"] += 32 * DAY'
merge_refused "32 days apart" "${J}0.json" "$J.far.json"
grep -Eq "^httperf: --merge: $J\.far\.json: start\.epoch_ns: with ${J}0\.json's, the runs span 32\.0 days on the wall clock; --merge spans at most 31 days \(a clock set wrong\?\)\$" "$OUT.err" ||
    fail "32 days apart: $(cat "$OUT.err")"
# A client whose clock says 1970.
mutate "${J}1.json" "$J.1970.json" 'd["start"]["epoch_ns"] = 10**9'
merge_refused "a 1970 clock" "${J}0.json" "$J.1970.json"
grep -q "^httperf: --merge: $J.1970.json: start.epoch_ns: with ${J}0.json's, the runs span [0-9]*\.[0-9] days" "$OUT.err" ||
    fail "1970: $(cat "$OUT.err")"
# One interval at 200,000 s in a run of under a second.
mutate "${J}1.json" "$J.late.json" 'x = d["stats"]["interval"]["intervals"]; x[:] = x[:1]; x[0]["start_ns"] = 200000 * 10**9'
merge_refused "an interval at 200,000 s" "${J}0.json" "$J.late.json"
[ "$(cat "$OUT.err")" = "httperf: --merge: $J.late.json: stats.interval.intervals[0].start_ns: past the run's end (duration_ns)" ] ||
    fail "interval at 200,000 s: $(cat "$OUT.err")"
ok "--merge: 5 days apart in $rss KiB; 32 days, a 1970 clock, an interval past the end refused"

# Histograms of other settings (2^20 counts each, which took seconds to
# decode and add): refused, naming the member.
mutate "${J}1.json" "$J.big.json" '
for x in d["stats"]["interval"]["intervals"]:
    x["reply"]["hdr"] = histf(1, 2**27, 5); x["reply"]["count"] = 0'
merge_refused "huge histograms" "${J}0.json" "$J.big.json"
[ "$(cat "$OUT.err")" = "httperf: --merge: $J.big.json: stats.interval.intervals[0].reply: not this httperf's histogram settings (lowest 1 ns, highest 1 h, 3 digits)" ] ||
    fail "huge histograms: $(cat "$OUT.err")"
merge_refused "huge histograms, first file" "$J.big.json" "${J}0.json"
grep -q "^httperf: --merge: $J.big.json: stats.interval.intervals\[0\].reply: not this httperf's" "$OUT.err" ||
    fail "huge histograms first: $(cat "$OUT.err")"
# 200,000 client ids in each of two files: all 400,000, in order.
mutate "${J}0.json" "$J.ids0.json" 'd["client"]["count"] = 400000; d["client"]["ids"] = list(range(399998, -1, -2))'
mutate "${J}1.json" "$J.ids1.json" 'd["client"]["count"] = 400000; d["client"]["ids"] = list(range(1, 400000, 2))'
timeout 60 "$HP" --merge "$J.ids0.json" "$J.ids1.json" --json "$J.ids.json" \
    > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --merge (200,000 ids each)"
expect_rc 0
python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["client"]; sys.exit(c["ids"] != list(range(400000)))' "$J.ids.json" ||
    fail "200,000 ids each: merged ids are not 0..399999"
mutate "$J.ids1.json" "$J.ids2.json" 'd["client"]["ids"][-1] = 1000'
merge_refused "an id twice" "$J.ids0.json" "$J.ids2.json"
[ "$(cat "$OUT.err")" = "httperf: --merge: $J.ids2.json: client.ids: client 1000/400000 is also in an earlier file or twice in this one (each process needs its own --client I/N)" ] ||
    fail "an id twice: $(cat "$OUT.err")"
ok "--merge: foreign histogram settings refused; 2 x 200,000 client ids"
