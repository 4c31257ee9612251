#!/bin/sh
# A fleet of unequal clients (issue 29): three clients of one test at
# --call-rate 300, 100 and 100 for the same time, --client 0/3, 1/3 and
# 2/3, each with --json; --merge of the three is one report whose counts
# are the sum of the clients' and the fixture's own count, whose rate
# target is 500.0/s, whose document lists each client's load and whose
# --html heading says which client ran at which load.  A client of
# another test (another URI, another method) is still refused, in one
# line naming its file and the option.
. "$TESTLIB"

start_srv

# run_client I RATE FILE [OPTIONS]: client I/3 at --call-rate RATE for
# 2 s, its result in FILE (OPTIONS: its own, e.g. another --uri).
run_client() {
	rc_i=$1
	rc_r=$2
	rc_f=$3
	shift 3
	timeout 60 "$HP" --server 127.0.0.1 --port "$PORT" --uri /size/10 \
	    --call-rate "$rc_r" --runtime 2 --client "$rc_i/3" \
	    --json "$rc_f" "$@" > "$T_DIR/c$rc_i.out" 2> "$T_DIR/c$rc_i.err"
}
run_client 0 300 "$T_DIR/c0.json" &
P0=$!
run_client 1 100 "$T_DIR/c1.json" &
P1=$!
run_client 2 100 "$T_DIR/c2.json" &
P2=$!
wait "$P0" || fail "client 0 exited with $?: $(cat "$T_DIR/c0.err")"
wait "$P1" || fail "client 1 exited with $?: $(cat "$T_DIR/c1.err")"
wait "$P2" || fail "client 2 exited with $?: $(cat "$T_DIR/c2.err")"

sum=0
for i in 0 1 2; do
	n=$(json_get "$T_DIR/c$i.json" stats.basic.requests.total)
	[ "$n" -gt 0 ] || fail "client $i made no request"
	sum=$((sum + n))
done
wait_for_log "$sum"
logged=$(srv_requests)
[ "$logged" = "$sum" ] ||
    fail "the fixture logged $logged requests, the clients made $sum"
# About 1000 requests in all (600 + 200 + 200), loosely: a loaded machine.
[ "$sum" -ge 700 ] && [ "$sum" -le 1100 ] ||
    fail "$sum requests, not about 1000 (300 + 100 + 100 per second, 2 s)"
ok "three clients at 300, 100 and 100/s made $sum requests, as the fixture counts"

T_LAST="httperf --merge c0.json c1.json c2.json"
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" \
    "$T_DIR/c2.json" --json "$T_DIR/m.json" --html "$T_DIR/m.html" \
    > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 0
expect_classic
expect "^Total: connections [0-9]+ requests $sum replies [0-9]+ test-duration "
expect "^Arrivals: $sum scheduled, .* rate target 500\\.0/s, "
[ "$(json_get "$T_DIR/m.json" stats.basic.requests.total)" = "$sum" ] ||
    fail "the merged document's requests are not $sum"
[ "$(json_get "$T_DIR/m.json" merged.equal_load)" = false ] ||
    fail "merged.equal_load is not false"
for i in 0 1 2; do
	r=$(json_get "$T_DIR/m.json" "merged.files.$i.load.call-rate")
	c=$(json_get "$T_DIR/m.json" "merged.files.$i.client")
	e=100
	[ "$i" = 0 ] && e=300
	[ "$r" = "$e" ] && [ "$c" = "$i/3" ] ||
	    fail "merged.files.$i: client $c at call-rate $r, not $i/3 at $e"
done
validate_json "$T_DIR/m.json"
grep -q '<dd id="loads">client 0/3: --call-rate 300; client 1/3: --call-rate 100; client 2/3: --call-rate 100</dd>' "$T_DIR/m.html" ||
    fail "the --html heading does not say which client ran at which load: $(grep -o '<dt>Loads.*' "$T_DIR/m.html")"
ok "merged: $sum requests, rate target 500.0/s, each client's load in the document and the --html heading"

# Another test: refused, naming the file and the option.
for alt in "--uri /size/20" "--method HEAD"; do
	bad=$T_DIR/other.json
	# shellcheck disable=SC2086
	run_client 2 100 "$bad" $alt --runtime 0.2 ||
	    fail "client 2 ($alt) failed: $(cat "$T_DIR/c2.err")"
	T_LAST="httperf --merge c0.json c1.json (c2 with $alt)"
	timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" "$bad" \
	    > "$OUT" 2> "$OUT.err"
	RC=$?
	expect_rc 1
	opt=${alt%% *}
	grep -qF "httperf: --merge: $bad: options.${opt#--}: differs from $T_DIR/c0.json" "$OUT.err" ||
	    fail "the refusal does not name $bad and options.${opt#--}"
	[ "$(wc -l < "$OUT.err")" = 1 ] || fail "the refusal is not one line"
	rm -f "$bad"
done
ok "a client of another URI or method is refused, naming its file and the option"
