#!/bin/sh
# --data FILE: each session (connection) takes the next row; the fixture's
# /login-pair/USER/PASS checks the pairing (200 if PASS is USER
# backwards, else 403).  1,000 users each log in once; --data-wrap n
# stops after the rows, y goes round; --data-order random is
# reproducible by --seed; --client I/N share the rows; JSON Lines; the
# mistakes are one line at start.
. "$TESTLIB"

# srv_uris PREFIX: the URIs the fixture logged that start with PREFIX.
srv_uris() {
	awk -v p="$1" '$2 != "PEER" && $2 != "TLS" && index($3, p) == 1 {
	    print $3 }' "$T_DIR/srv.log"
}

# users N FILE: a CSV of N users u0001.. with their password (the name
# backwards, in quotes) and a note with a comma and a quote in it.
users() {
	awk -v n="$1" 'BEGIN {
		print "user,password,note"
		for (i = 1; i <= n; i++) {
			u = sprintf("u%04d", i)
			p = ""
			for (j = length(u); j > 0; j--)
				p = p substr(u, j, 1)
			printf "%s,\"%s\",\"a,\"\"b\"\"\"\r\n", u, p
		}
	}' > "$2"
}

LOGIN='/login-pair/{{data.user}}/{{data.password}}'
users 1000 "$T_DIR/u1000.csv"
users 10 "$T_DIR/u10.csv"
start_srv

# 1,000 sessions, each logs in with its own user.
hp --template --data "$T_DIR/u1000.csv" --wsess 1000,1,0 --uri "$LOGIN"
expect_rc 0
expect_counts 1000 1000 1000
expect_status 0 1000 0 0 0
expect_errors 0 0 0 0 0 0 0 0 0
expect '^httperf .* --template --data='
wait_for_log 1000
n=$(srv_uris /login-pair/ | sort -u | wc -l | tr -d ' ')
[ "$n" = 1000 ] || fail "distinct logins: $n of 1000"
[ "$(srv_uris /login-pair/ | cut -d/ -f3 | sort -u | wc -l | tr -d ' ')" \
    = 1000 ] || fail "distinct users: not 1000"
ok "1000 sessions, 1000 users, each logged in with its password: 1000 2xx"

# The fixture does check: the columns the other way round all fail.
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u10.csv" --wsess 10,1,0 \
    --uri '/login-pair/{{data.password}}/{{data.user}}x'
expect_rc 0
expect_status 0 0 0 10 0
ok "a wrong pairing is refused by the fixture: 10 4xx"

# Login then browse (a session file): the same user in both requests.
printf '%s\n    /echo?u={{data.user}}&n={{data.note}}\n' "$LOGIN" \
    > "$T_DIR/sess.log"
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u1000.csv" --wsesslog 1000,0,"$T_DIR/sess.log" \
    --rate 2000
expect_rc 0
expect_counts 1000 2000 2000
expect_status 0 2000 0 0 0
wait_for_log 2000
n=$(srv_uris /login-pair/ | sort -u | wc -l | tr -d ' ')
[ "$n" = 1000 ] || fail "--wsesslog: distinct logins: $n of 1000"
n=$(srv_uris /echo | sort -u | wc -l | tr -d ' ')
[ "$n" = 1000 ] || fail "--wsesslog: distinct browsing users: $n of 1000"
[ "$(srv_uris /echo | sed 's/.*&n=//' | sort -u)" = 'a,"b"' ] || \
    fail "the note: $(srv_uris /echo | sed 's/.*&n=//' | sort -u)"
ok "--wsesslog: 1000 sessions log in then browse, each as its own user"

# --data-wrap n: 10 rows for 30 sessions: exactly 10, then the run ends.
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u10.csv" --data-wrap n --wsess 30,1,0 \
    --uri "$LOGIN" --json "$T_DIR/n.json"
expect_rc 0
expect_counts 10 10 10
expect_status 0 10 0 0 0
expect '^httperf .* --data-wrap=n'
validate_json "$T_DIR/n.json"
[ "$(python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))["options"]
print(o["data"].endswith("/u10.csv"), o["data-order"], o["data-wrap"])' \
    "$T_DIR/n.json")" = "True seq n" ] || fail "--json options"
wait_for_log 10
[ "$(srv_uris /login-pair/ | sort -u | wc -l | tr -d ' ')" = 10 ] || \
    fail "wrap n: $(srv_uris /login-pair/ | tr '\n' ' ')"
# ... also at a rate, and for connections.
hp --template --data "$T_DIR/u10.csv" --data-wrap n --wsess 30,2,0 \
    --rate 500 --uri "$LOGIN"
expect_rc 0
expect '^Total: connections [0-9]+ requests 20 replies 20 '
expect_status 0 20 0 0 0
hp --template --data "$T_DIR/u10.csv" --data-wrap n --num-conns 30 \
    --num-calls 2 --uri "$LOGIN"
expect_rc 0
expect_counts 10 20 20
expect_status 0 20 0 0 0
ok "--data-wrap n: 10 rows, 10 sessions (connections), then a clean end"

# --data-wrap y (the default): 30 sessions over 10 rows, each 3 times;
# connections likewise (20 connections of 2 calls: each row 4 times).
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u10.csv" --wsess 30,1,0 --uri "$LOGIN"
expect_rc 0
expect_status 0 30 0 0 0
wait_for_log 30
[ "$(srv_uris /login-pair/ | sort | uniq -c | awk '{ print $1 }' | \
    sort -u | tr '\n' ' ')" = "3 " ] || \
    fail "wrap y: $(srv_uris /login-pair/ | sort | uniq -c | tr '\n' ' ')"
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u10.csv" --num-conns 20 --num-calls 2 \
    --uri "$LOGIN"
expect_rc 0
expect_status 0 40 0 0 0
wait_for_log 40
[ "$(srv_uris /login-pair/ | sort | uniq -c | awk '{ print $1 }' | \
    sort -u | tr '\n' ' ')" = "4 " ] || \
    fail "connections: $(srv_uris /login-pair/ | sort | uniq -c | \
    tr '\n' ' ')"
# A pool (--concurrency 3): its 3 connections, the first 3 rows.
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u10.csv" --concurrency 3 --num-calls 30 \
    --uri "$LOGIN"
expect_rc 0
expect_status 0 30 0 0 0
wait_for_log 30
[ "$(srv_uris /login-pair/ | cut -d/ -f3 | sort -u | tr '\n' ' ')" = \
    "u0001 u0002 u0003 " ] || \
    fail "--concurrency 3: $(srv_uris /login-pair/ | sort | uniq -c | \
    tr '\n' ' ')"
ok "--data-wrap y: 30 sessions over 10 rows use each 3 times; a pool's" \
    "3 connections the first 3 rows"

# --data-order random: a permutation of the rows, the same for one
# --seed, another for another seed (one session at a time: in order).
run_random() {
	: > "$T_DIR/srv.log"
	hp --template --data "$T_DIR/u10.csv" --data-order random \
	    --data-wrap n --wsess 10,1,0 --uri "$LOGIN" "$@"
	expect_rc 0
	expect_status 0 10 0 0 0
	wait_for_log 10
	srv_uris /login-pair/ | cut -d/ -f3 | tr '\n' ' '
}
a=$(run_random --seed 5)
b=$(run_random --seed 5)
c=$(run_random --seed 6)
seq_order=$(seq 1 10 | awk '{ printf "u%04d ", $1 }')
[ "$(echo "$a" | tr ' ' '\n' | sort | tr '\n' ' ')" = " $seq_order" ] || \
    fail "random: not a permutation: $a"
[ "$a" = "$b" ] || fail "random: --seed 5 twice: $a / $b"
[ "$a" != "$c" ] || fail "random: --seed 5 and 6 alike: $a"
[ "$a" != "$seq_order" ] || fail "random: in the file's order: $a"
expect '^httperf .* --data-order=random'
ok "--data-order random: --seed 5 twice the same permutation, 6 another"

# --client I/N: three clients with --data-wrap n use every row once.
: > "$T_DIR/srv.log"
for i in 0 1 2; do
	hp --template --data "$T_DIR/u1000.csv" --data-wrap n \
	    --wsess 1000,1,0 --client $i/3 --uri "$LOGIN"
	expect_rc 0
	want=$((1000 * (i + 1) / 3 - 1000 * i / 3))
	expect_counts $want $want $want
done
wait_for_log 1000
n=$(srv_uris /login-pair/ | sort -u | wc -l | tr -d ' ')
[ "$n" = 1000 ] || fail "--client 0/3..2/3: $n distinct of 1000"
[ "$(srv_uris /login-pair/ | wc -l | tr -d ' ')" = 1000 ] || \
    fail "--client 0/3..2/3: a row twice"
ok "--client 0/3, 1/3, 2/3: 333, 333 and 334 rows, every row once"

# --jobs 2: its workers are clients 0/2 and 1/2.
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u10.csv" --data-wrap n --wsess 30,1,0 \
    --jobs 2 --uri "$LOGIN"
expect_rc 0
expect_counts 10 10 10
wait_for_log 10
[ "$(srv_uris /login-pair/ | sort -u | wc -l | tr -d ' ')" = 10 ] || \
    fail "--jobs 2: $(srv_uris /login-pair/ | tr '\n' ' ')"
ok "--jobs 2: the workers share the 10 rows, each used once"

# JSON Lines: the same, keys in any order, a number as written.
awk 'NR > 1 { split($0, f, ","); gsub(/"/, "", f[2])
    if (NR % 2) printf "{\"password\": \"%s\", \"user\": \"%s\", \"n\": %d.0}\n", f[2], f[1], NR
    else printf "{\"user\":\"%s\",\"password\":\"%s\",\"n\":%d.0}\n", f[1], f[2], NR
    }' "$T_DIR/u1000.csv" | head -n 100 > "$T_DIR/u.jsonl"
: > "$T_DIR/srv.log"
hp --template --data "$T_DIR/u.jsonl" --wsess 100,1,0 \
    --uri "$LOGIN?n={{data.n}}"
expect_rc 0
expect_status 0 100 0 0 0
wait_for_log 100
n=$(srv_uris /login-pair/ | sort -u | wc -l | tr -d ' ')
[ "$n" = 100 ] || fail "JSON Lines: $n distinct of 100"
[ "$(srv_uris /login-pair/u0007/)" = "/login-pair/u0007/7000u?n=8.0" ] ||
    fail "JSON Lines: $(srv_uris /login-pair/u0007/)"
ok "JSON Lines: 100 users, keys in any order, numbers as written"

# Mistakes: one line at start, exit 1, no request sent.
: > "$T_DIR/srv.log"
bad() {
	hp "$@"
	expect_rc 1
	[ "$(wc -l < "$OUT.err" | tr -d ' ')" = 1 ] || \
	    fail "not one line: $(cat "$OUT.err")"
	[ "$(cat "$OUT.err")" = "$want" ] || \
	    fail "expected: $want; got: $(cat "$OUT.err")"
}
printf 'user,password\nu1,1u\nu2\n' > "$T_DIR/bad.csv"
want="httperf: --data: $T_DIR/bad.csv:3: 1 field, the header has 2"
bad --template --data "$T_DIR/bad.csv" --uri "$LOGIN"
printf 'user,password\nu1,"1u\nu2,2u\n' > "$T_DIR/bad.csv"
want="httperf: --data: $T_DIR/bad.csv:2: a quoted field is not closed"
bad --template --data "$T_DIR/bad.csv" --uri "$LOGIN"
printf '{"user":"u1","password":"1u"}\n{"user":"u2"}\n' > "$T_DIR/bad.jsonl"
want="httperf: --data: $T_DIR/bad.jsonl:2: the key 'password' is missing"
bad --template --data "$T_DIR/bad.jsonl" --uri "$LOGIN"
printf 'user,password\n' > "$T_DIR/head.csv"
want="httperf: --data: $T_DIR/head.csv: no data row after the header"
bad --template --data "$T_DIR/head.csv" --uri "$LOGIN"
: > "$T_DIR/empty.csv"
want="httperf: --data: $T_DIR/empty.csv: no header row"
bad --template --data "$T_DIR/empty.csv" --uri "$LOGIN"
want="httperf: --data: $T_DIR: Is a directory"
bad --template --data "$T_DIR" --uri "$LOGIN"
want="httperf: --uri: column 17: unknown variable 'data.email' ('/login-pair/x/{{data.email}}')"
bad --template --data "$T_DIR/u10.csv" --uri '/login-pair/x/{{data.email}}'
want="httperf: --uri: column 17: unknown variable 'data.user' ('/login-pair/x/{{data.user}}')"
bad --template --uri '/login-pair/x/{{data.user}}'
printf '/x/{{data.mail}}\n' > "$T_DIR/bad.log"
want="httperf: --wsesslog: $T_DIR/bad.log:1: URI: column 6: unknown variable 'data.mail'"
bad --template --data "$T_DIR/u10.csv" --wsesslog 1,0,"$T_DIR/bad.log"
want="httperf: --data: requires --template (its values go in by {{data.COL}})"
bad --data "$T_DIR/u10.csv" --uri /echo
want="httperf: --data-wrap: requires --data"
bad --template --data-wrap n --uri /echo
want="httperf: --data-order: expected seq or random ('rand')"
bad --template --data "$T_DIR/u10.csv" --data-order rand --uri /echo
want="httperf: --data: $T_DIR/u10.csv: client 1 of 30 has no row of the 10 (--data-wrap n shares them)"
bad --template --data "$T_DIR/u10.csv" --data-wrap n --client 1/30 \
    --uri "$LOGIN"
[ "$(srv_requests)" = 0 ] || fail "a mistake sent requests"
ok "mistakes: one line, exit 1, before any request"
