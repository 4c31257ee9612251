#!/bin/sh
# Session variables and checks against the fixture's /login (a token in
# its JSON body, an X-Token header and a Set-Cookie), /protected (401
# without "Authorization: Bearer <a token issued>") and /flaky (a wrong
# body on every 10th hit): extract= of each kind carries the token to the
# next request's header=; a variable never set keeps its request from
# being sent (class no-value) and fails the session; check= and --check
# count exactly; mistakes in the file are one line at start.
. "$TESTLIB"

# srv_uris: the URIs the fixture logged, one a line.
srv_uris() {
	awk '$2 != "PEER" && $2 != "TLS" { print $3 }' "$T_DIR/srv.log"
}

# srv_uri_counts: "N URI " for each URI logged, in order of URI.
srv_uri_counts() {
	srv_uris | sort | uniq -c | awk '{ printf "%s %s ", $1, $2 }'
}

# restart_srv: a fresh fixture (/flaky counts its hits from 0).
restart_srv() {
	stop_srv
	start_srv
}

start_srv

# login -> protected with the token, by each kind of extraction.
for how in "json:auth.token" "header:X-Token" \
    "'regex:\"token\": \"(tok[0-9]+)\"'" "cookie:sid"; do
	case $how in
	\'*) x="extract='tok:${how#\'}" ;;
	*) x="extract=tok:$how" ;;
	esac
	printf '/login %s\n/protected header="Authorization: Bearer {{tok}}"\n' \
	    "$x" > "$T_DIR/a.sess"
	: > "$T_DIR/srv.log"
	hp --template --wsesslog 50,0,"$T_DIR/a.sess" --rate 500
	expect_rc 0
	expect_counts '[0-9]+' 100 100
	expect_status 0 100 0 0 0
	expect_errors 0 0 0 0 0 0 0 0 0
	expect '^Session rate .*\(50/50\)$'
	expect_not '^Call failures'
	expect_classic
	wait_for_log 100
	[ "$(srv_uri_counts)" = "50 /login 50 /protected " ] || \
	    fail "$how: URIs $(srv_uri_counts)"
	ok "extract=tok:$how: 50 sessions log in, 50 protected 200s, 0 401s"
done

# Without the header the route answers 401: the test above means it.
printf '/login\n/protected\n' > "$T_DIR/n.sess"
hp --wsesslog 5,0,"$T_DIR/n.sess"
expect_status 0 5 0 5 0
ok "/protected without the token: 401"

# A variable never set: its request is never sent, the session fails,
# each counts once (no-value, and among the classic "other" errors).
printf '/flaky extract=tok:json:auth.token\n/protected header="Authorization: Bearer {{tok}}"\n/login\n' \
    > "$T_DIR/nv.sess"
: > "$T_DIR/srv.log"
hp --template --wsesslog 7,0,"$T_DIR/nv.sess" --json "$T_DIR/nv.json"
expect_counts 7 7 7
expect_status 0 7 0 0 0
expect_errors 7 0 0 0 0 0 0 0 7
expect '^Session rate .*\(0/7\)$'
expect '^Call failures: check 0 no-value 7$'
expect_not '^Checks:'
expect_classic
wait_for_log 7
[ "$(srv_uri_counts)" = "7 /flaky " ] || \
    fail "no-value: the fixture saw $(srv_uris | tr '\n' ' ')"
validate_json "$T_DIR/nv.json"
[ "$(json_get "$T_DIR/nv.json" stats.checks.no_value)" = 7 ] || \
    fail "stats.checks.no_value"
ok "no value: 7 requests never sent, 7 no-value failures, 7 sessions failed"

# check=: the 1-in-10 route, 100 calls: exactly 90 and 10.
restart_srv
printf '/flaky check=body:contains:right check=status:200\n' > "$T_DIR/f.sess"
hp --wsesslog 100,0,"$T_DIR/f.sess" --json "$T_DIR/f.json"
expect_counts 100 100 100
expect '^Checks: passed 190 failed 10$'
expect '^Call failures: check 10 no-value 0$'
expect '^Session rate .*\(90/100\)$'
expect_classic
validate_json "$T_DIR/f.json"
[ "$(json_get "$T_DIR/f.json" stats.checks.by_name)" = \
    '{"body:contains:right": {"passed": 90, "failed": 10}, "status:200": {"passed": 100, "failed": 0}}' ] || \
    fail "by_name: $(json_get "$T_DIR/f.json" stats.checks.by_name)"
ok "check=body:contains: passed 90 failed 10 of 100 (and status:200 100)"

# A failed check is a failed try: --retry-on-failure sends it again.
# Hits 1..110 (100 calls, 10 retries) have 11 wrong bodies (the 110th
# a retry's), so 111 calls.
restart_srv
hp --wsesslog 100,0,"$T_DIR/f.sess" --retry-on-failure
expect_counts '[0-9]+' 111 111
expect '^Checks: passed 211 failed 11$'
expect '^Session rate .*\(100/100\)$'
ok "--retry-on-failure: the 11 failed checks retried, 100 sessions done"

# --check on a connection workload; other kinds of check.
restart_srv
hp --num-conns 10 --num-calls 10 --uri /flaky --check body:contains:right \
    --check 'header:Content-Type:text/plain' --json "$T_DIR/c.json"
expect_counts 10 100 100
expect '^Checks: passed 190 failed 10$'
expect '^Call failures: check 10 no-value 0$'
expect_classic
validate_json "$T_DIR/c.json"
[ "$(json_get "$T_DIR/c.json" options.check)" = \
    '["body:contains:right", "header:Content-Type:text/plain"]' ] || \
    fail "options.check: $(json_get "$T_DIR/c.json" options.check)"
hp --num-conns 5 --uri /login --check 'json:auth.ttl=60' \
    --check 'json:user.name=u"1' --check status:2xx
expect '^Checks: passed 11 failed 4$'
hp --num-conns 3 --uri /size/10 --check status:404
expect '^Checks: passed 0 failed 3$'
ok "--check: body, header, json, status on --num-conns"

# --merge sums them exactly.
restart_srv
hp --client 0/2 --wsesslog 100,0,"$T_DIR/f.sess" --json "$T_DIR/m0.json"
hp --client 1/2 --wsesslog 100,0,"$T_DIR/f.sess" --json "$T_DIR/m1.json"
timeout 60 "$HP" --merge "$T_DIR/m0.json" "$T_DIR/m1.json" \
    --json "$T_DIR/m.json" > "$OUT" 2> "$OUT.err"
expect '^Checks: passed 380 failed 20$'
validate_json "$T_DIR/m.json"
[ "$(json_get "$T_DIR/m.json" stats.checks.by_name.body:contains:right.failed)" = 20 ] || \
    fail "merged by_name"
ok "--merge: the checks added"

# A body is kept only for a request that reads it; the others are still
# dropped unread; a kept body over 1 MiB fails its check.
printf '/size/3000000\n/size/3000000 check=body:contains:zzz\n/size/10 check=status:200\n' \
    > "$T_DIR/s.sess"
hp --wsesslog 1,0,"$T_DIR/s.sess" --debug 3
expect '^Checks: passed 0 failed 1$'
awk '/call 0: status/ { c0 = 1 } /call 1: status/ { exit }
    /dropped unread/ { if (c0) n1++; else n0++ }
    END { print (n0 > 0) " " n1 + 0 }' "$OUT.err" > "$T_DIR/drops"
[ "$(cat "$T_DIR/drops")" = "1 0" ] || \
    fail "dropped unread before call 0 / for call 1: $(cat "$T_DIR/drops")"
ok "bodies: dropped for a plain call, kept (and bounded) for a check"

# Mistakes: one line, the file, its line.
bad() {
	hp "$@"
	expect_rc 1
	[ "$(wc -l < "$OUT.err" | tr -d ' ')" = 1 ] || \
	    fail "not one line: $(cat "$OUT.err")"
	grep -Fq -- "$want" "$OUT.err" || fail "expected: $want"
}
printf '/login\n/protected header="Authorization: Bearer {{tk}}"\n' > "$T_DIR/b.sess"
want="--wsesslog: $T_DIR/b.sess:2: header: column 25: unknown variable 'tk'"
bad --template --wsesslog 1,0,"$T_DIR/b.sess"
printf '/login extract=tk:json:a..b\n' > "$T_DIR/b.sess"
want="--wsesslog: $T_DIR/b.sess:1: extract=tk:json:a..b: path column 3: empty key"
bad --template --wsesslog 1,0,"$T_DIR/b.sess"
printf '/login extract=tk:xml:a\n' > "$T_DIR/b.sess"
want="--wsesslog: $T_DIR/b.sess:1: extract=tk:xml:a: want KIND header, json, regex or cookie"
bad --template --wsesslog 1,0,"$T_DIR/b.sess"
printf "/login extract='tk:regex:(a'\n" > "$T_DIR/b.sess"
want="--wsesslog: $T_DIR/b.sess:1: extract=tk:regex:(a: regex: "
bad --template --wsesslog 1,0,"$T_DIR/b.sess"
printf '/login extract=tk:json:a\n' > "$T_DIR/b.sess"
want="--wsesslog: $T_DIR/b.sess:1: extract= needs --template (its value is used as {{NAME}})"
bad --wsesslog 1,0,"$T_DIR/b.sess"
printf '/\n/login check=status:2000\n' > "$T_DIR/b.sess"
want="--wsesslog: $T_DIR/b.sess:2: check=status:2000: want status:NNN (100-599, x for any digit)"
bad --wsesslog 1,0,"$T_DIR/b.sess"
printf '/login header=X-A\n' > "$T_DIR/b.sess"
want="--wsesslog: $T_DIR/b.sess:1: bad header 'X-A' (want \"Name: value\")"
bad --wsesslog 1,0,"$T_DIR/b.sess"
want="--check: check=body:x: want status:NNN, body:contains:TEXT, json:PATH=VALUE or header:NAME:VALUE ('body:x')"
bad --num-conns 1 --check body:x
ok "mistakes: one line naming the file, the line (and column)"

# --data and extract= together (gen/vars.c joins the two kinds of
# names): each session logs in as its own user of the file, takes a
# token, and sends both to /protected.  A column in the URI and in a
# header=, a variable in header=; the fixture checks the pair and the
# token, and logs every user once in each route.
{ echo user,password
  i=1; while [ $i -le 20 ]; do
	echo "u$i,$(printf 'u%s' $i | rev)"; i=$((i + 1))
  done; } > "$T_DIR/users.csv"
printf '%s
%s
%s
' '/login-pair/{{data.user}}/{{data.password}}' \
    '/login extract=tok:json:auth.token' \
    '/protected?u={{data.user}} header="Authorization: Bearer {{tok}}" header="X-User: {{data.user}}"' \
    > "$T_DIR/d.sess"
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/users.csv" --data-wrap n \
    --wsesslog 20,0,"$T_DIR/d.sess" --rate 200
expect_rc 0
expect_status 0 60 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^Session rate .*\(20/20\)$'
wait_for_log 60
[ "$(srv_uris | grep -c '^/login-pair/u[0-9]*/[0-9]*u$')" = 20 ] ||
    fail "login-pair URIs: $(srv_uris | grep login-pair | tr '\n' ' ')"
[ "$(srv_uris | sed -n 's|^/protected?u=u\([0-9]*\)$|\1|p' | sort -n |
    uniq | tr '\n' ' ')" = "$(seq 1 20 | tr '\n' ' ')" ] ||
    fail "protected URIs: $(srv_uris | grep protected | tr '\n' ' ')"
ok "--data with extract=: 20 users log in by pair, each token reaches /protected"
stop_srv
