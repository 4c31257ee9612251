#!/bin/sh
# A fleet of clients: --client auto takes I/N from each launcher's
# variables (the echo line and the JSON show them as if typed), with one
# exact line for every mistake; --start-at sleeps until an instant (epoch
# seconds or RFC 3339) and the test starts then, refuses one long past,
# and a SIGINT while waiting ends the process without a test; two clients
# 0/2 and 1/2 at --rate 10 with the same --start-at make one stream of
# requests 50 ms apart.
. "$TESTLIB"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
J=$T_DIR/j
VARS="JOB_COMPLETION_INDEX PSSH_NODENUM PSSH_NUMNODES SLURM_PROCID
SLURM_NTASKS OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE PARALLEL_SEQ"
# The harness may itself run under a launcher.
unset $VARS

# now_plus S: the wall clock plus S seconds, as epoch seconds.nnnnnnnnn.
now_plus() {
	python3 -c 'import sys, time; print("%.9f" % (time.time() + float(sys.argv[1])))' "$1"
}

# within_ms A B MS: |A - B| (epoch seconds, or ns when 19 digits) <= MS.
within_ms() {
	python3 - "$1" "$2" "$3" <<'PY'
import sys
def sec(x):
    return int(x) / 1e9 if "." not in x and len(x) > 15 else float(x)
a, b, ms = sec(sys.argv[1]), sec(sys.argv[2]), float(sys.argv[3])
sys.exit(0 if abs(a - b) * 1e3 <= ms else 1)
PY
}

# jv FILE PATH: json_get, failing the test when the member is missing.
jv() {
	json_get "$1" "$2" 2>/dev/null || fail "$1: no member $2"
}

start_srv

# --client auto with each launcher's variables: the echo line says I/N.
# check_auto "VAR=V ..." ARG I/N
check_auto() {
	for kv in $1; do
		export "$kv"
	done
	hp --client "$2" --num-conns 1 --uri /size/10 --json "$J.auto.json"
	unset $VARS
	expect_rc 0
	expect "^httperf --client=$3 --server="
	expect_counts 1 1 1
	[ "$(jv "$J.auto.json" options.client)" = "$3" ] ||
	    fail "JSON options.client is not $3"
	[ "$(jv "$J.auto.json" client.id)/$(jv "$J.auto.json" client.count)" = "$3" ] ||
	    fail "JSON client id/count is not $3"
}
check_auto "JOB_COMPLETION_INDEX=3" auto/5 3/5
check_auto "PSSH_NODENUM=1 PSSH_NUMNODES=3" auto 1/3
check_auto "SLURM_PROCID=2 SLURM_NTASKS=4" auto 2/4
check_auto "SLURM_PROCID=2 SLURM_NTASKS=4" auto/4 2/4
check_auto "OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2" auto 0/2
check_auto "PARALLEL_SEQ=4" auto/4 3/4
check_auto "PARALLEL_SEQ=1 SLURM_PROCID=5 SLURM_NTASKS=6" auto 5/6
ok "--client auto: every launcher's variables, echoed and in the JSON"

# check_auto_err "VAR=V ..." ARG LINE: exit 1, that one line, no request.
check_auto_err() {
	for kv in $1; do
		export "$kv"
	done
	before=$(srv_requests)
	hp --client "$2" --num-conns 1 --uri /size/10
	unset $VARS
	expect_rc 1
	[ ! -s "$OUT" ] || fail "a report for a refused --client $2"
	[ "$(cat "$OUT.err")" = "httperf: --client: $3" ] ||
	    fail "stderr is not: httperf: --client: $3"
	[ "$(srv_requests)" = "$before" ] || fail "a request was sent"
}
check_auto_err "" auto "none of JOB_COMPLETION_INDEX, PSSH_NODENUM, SLURM_PROCID, OMPI_COMM_WORLD_RANK or PARALLEL_SEQ is set ('auto')"
check_auto_err "SLURM_PROCID=two SLURM_NTASKS=4" auto "SLURM_PROCID: not a number ('two')"
check_auto_err "SLURM_PROCID=4 SLURM_NTASKS=4" auto "SLURM_PROCID=4 makes client id 4, not less than the number of clients 4 ('auto')"
check_auto_err "PARALLEL_SEQ=2" auto "PARALLEL_SEQ gives no number of clients: use auto/N ('auto')"
check_auto_err "JOB_COMPLETION_INDEX=0" auto "JOB_COMPLETION_INDEX gives no number of clients: use auto/N ('auto')"
check_auto_err "OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=3" auto/2 "OMPI_COMM_WORLD_SIZE=3 disagrees with the number of clients given ('auto/2')"
ok "--client auto: exact errors, nothing sent"

# --start-at 1.5 s ahead: the start-up line at once, the test 1.5 s later;
# its JSON start and the report's duration are measured from then.
t0=$(now_plus 0)
at=$(now_plus 1.5)
hp --num-conns 1 --uri /size/10 --start-at "$at" --json "$J.at.json"
t1=$(now_plus 0)
expect_rc 0
expect_counts 1 1 1
expect "^httperf .* --start-at=$at\$"
python3 -c 'import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) >= 1.45 else 1)' "$t0" "$t1" ||
    fail "the run took less than 1.5 s ($t0 .. $t1)"
s=$(jv "$J.at.json" start.epoch_ns)
within_ms "$s" "$at" 50 || fail "JSON start $s is not within 50 ms of $at"
[ "$s" -ge "$(python3 -c 'import sys; print(int(float(sys.argv[1]) * 1e9) - 1000)' "$at")" ] ||
    fail "JSON start $s is before the instant $at"
d=$(value Total: test-duration)
python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 1.0 else 1)' "$d" ||
    fail "test-duration $d s counts the wait"
validate_json "$J.at.json"
ok "--start-at: epoch seconds, the test starts at the instant"

# RFC 3339 with an offset of +01:00 and a fraction.
at=$(now_plus 1.2)
rfc=$(python3 -c 'import sys, datetime as d; print(d.datetime.fromtimestamp(float(sys.argv[1]), d.timezone(d.timedelta(hours=1))).isoformat())' "$at")
case $rfc in
*T*.*+01:00) ;;
*) fail "not an RFC 3339 time with a fraction: $rfc" ;;
esac
hp --num-conns 1 --uri /size/10 --start-at "$rfc" --json "$J.rfc.json"
expect_rc 0
expect_counts 1 1 1
s=$(jv "$J.rfc.json" start.epoch_ns)
within_ms "$s" "$at" 50 || fail "JSON start $s is not within 50 ms of $rfc"
ok "--start-at: RFC 3339 ($rfc)"

# Past by more than 1 s: refused before anything is sent; less: at once.
before=$(srv_requests)
at=$(now_plus -5)
hp --num-conns 1 --uri /size/10 --start-at "$at"
expect_rc 1
grep -Eq "^httperf: --start-at: [0-9.]+ s in the past \('$at'\)\$" "$OUT.err" ||
    fail "no 'in the past' line"
[ "$(wc -l < "$OUT.err")" = 1 ] || fail "more than one line on stderr"
[ "$(srv_requests)" = "$before" ] || fail "a request was sent"
hp --num-conns 1 --uri /size/10 --start-at 2001-09-09T01:46:40Z
expect_rc 1
grep -q "s in the past ('2001-09-09T01:46:40Z')\$" "$OUT.err" ||
    fail "no 'in the past' line for RFC 3339"
t0=$(now_plus 0)
hp --num-conns 1 --uri /size/10 --start-at "$(now_plus -0.5)"
expect_rc 0
expect_counts 1 1 1
within_ms "$(now_plus 0)" "$t0" 900 || fail "0.5 s past did not start at once"
ok "--start-at: a past instant refused, a late one starts at once"

# SIGINT while waiting: exit 1, one line, no test.
# The report of the run before is emptied first: the wait below is for
# this run's start-up line, printed once its signal handlers are in place
# (a background job of a script starts with SIGINT ignored, so a signal
# sent earlier would be lost and the test would run).
before=$(srv_requests)
: > "$OUT"
"$HP" --server 127.0.0.1 --port "$PORT" --num-conns 1 --uri /size/10 \
    --start-at "$(now_plus 30)" > "$OUT" 2> "$OUT.err" &
pid=$!
T_PIDS="$T_PIDS $pid"
i=0
while [ ! -s "$OUT" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
expect "^httperf .* --start-at="
sleep 0.2
kill -INT "$pid"
wait "$pid"
RC=$?
expect_rc 1
[ "$(cat "$OUT.err")" = "httperf: --start-at: interrupted before the test started" ] ||
    fail "stderr is not the one interrupted line"
expect_not "^Total:"
[ "$(srv_requests)" = "$before" ] || fail "a request was sent"
ok "--start-at: SIGINT while waiting ends without a test"

# Two clients, 0/2 and 1/2, 10/s each from the same instant: the server
# sees one stream at 20/s, theirs alternating 50 ms apart.  A follower
# stamps each log line as it appears.
: > "$T_DIR/srv.log"
python3 - "$T_DIR/srv.log" > "$T_DIR/stamped" <<'PY' &
import sys, time
f = open(sys.argv[1])
n, end, buf = 0, time.time() + 30, ""
while n < 20 and time.time() < end:
    buf += f.read()
    while "\n" in buf:
        line, buf = buf.split("\n", 1)
        if " GET " in line:
            print("%.6f %s" % (time.time(), line), flush=True)
            n += 1
    time.sleep(0.0005)
PY
fpid=$!
T_PIDS="$T_PIDS $fpid"
at=$(now_plus 1.5)
for i in 0 1; do
	timeout 60 "$HP" --server 127.0.0.1 --port "$PORT" --client "$i/2" \
	    --rate 10 --num-conns 10 --uri "/size/10$i" --start-at "$at" \
	    > "$OUT.$i" 2> "$OUT.err.$i" &
	eval "cpid$i=\$!"
done
wait "$cpid0"
rc0=$?
wait "$cpid1"
rc1=$?
wait "$fpid"
[ "$rc0" = 0 ] && [ "$rc1" = 0 ] || fail "the clients exited $rc0 and $rc1"
for i in 0 1; do
	grep -q "^Total: connections 10 requests 10 replies 10 " "$OUT.$i" ||
	    fail "client $i/2 did not make its 10 requests"
done
python3 - "$T_DIR/stamped" "$at" > "$T_DIR/fleet.err" 2>&1 <<'PY' ||
import sys
rows = [l.split() for l in open(sys.argv[1])]
at = float(sys.argv[2])
if len(rows) != 20:
    sys.exit("%d requests logged, expected 20" % len(rows))
uris = [r[3] for r in rows]
want = ["/size/10%d" % (k % 2) for k in range(20)]
if uris != want:
    sys.exit("not interleaved: " + " ".join(u[-1] for u in uris))
t = [float(r[0]) for r in rows]
if t[0] < at - 0.005 or t[0] > at + 0.1:
    sys.exit("first request at %+.3f s from the instant" % (t[0] - at))
gaps = [(b - a) * 1e3 for a, b in zip(t, t[1:])]
mean = sum(gaps) / len(gaps)
# 19 gaps of 50 ms: 950 ms in all; each one loosely, the mean closely.
if not 40 <= mean <= 60 or min(gaps) < 10 or max(gaps) > 90:
    sys.exit("gaps mean %.1f min %.1f max %.1f ms" % (mean, min(gaps),
        max(gaps)))
print("gaps mean %.1f min %.1f max %.1f ms" % (mean, min(gaps), max(gaps)))
PY
    fail "two clients 0/2 and 1/2: $(cat "$T_DIR/fleet.err")"
ok "--client 0/2 and 1/2 with --start-at: one stream, $(cat "$T_DIR/fleet.err")"
