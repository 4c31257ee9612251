#!/bin/sh
# --template: {{seq}}, {{conn}}, {{uuid}}, {{randstr N}}, {{client}} in
# the URI, the header lines and the body, as the fixture logs them; the
# body's Content-Length follows its expansion; --seed and --client make
# the random values reproducible and distinct; mistakes are one line at
# start; without --template the braces go out as they are.
. "$TESTLIB"

# srv_field N: field N of every request line logged, one per line.
srv_field() {
	awk -v f="$1" '$2 != "PEER" && $2 != "TLS" { print $f }' \
	    "$T_DIR/srv.log"
}

start_srv

# {{seq}} numbers the calls 1..N, each once; {{conn}} the connections.
: > "$T_DIR/srv.log"
hp --template --num-conns 20 --num-calls 10 \
    --uri '/echo?n={{seq}}&c={{conn}}'
expect_rc 0
expect_counts 20 200 200
expect_errors 0 0 0 0 0 0 0 0 0
wait_for_log 200
srv_field 3 | sed 's/.*n=\([0-9]*\)&.*/\1/' | sort -n > "$T_DIR/seq"
seq 1 200 > "$T_DIR/seq.want"
cmp -s "$T_DIR/seq" "$T_DIR/seq.want" || \
    fail "{{seq}}: $(tr '\n' ' ' < "$T_DIR/seq")"
srv_field 3 | sed 's/.*&c=//' | sort -n | uniq -c | \
    awk '{ print $2 "x" $1 }' | tr '\n' ' ' > "$T_DIR/conns"
want=$(seq 1 20 | awk '{ printf "%sx10 ", $1 }')
[ "$(cat "$T_DIR/conns")" = "$want" ] || \
    fail "{{conn}}: $(cat "$T_DIR/conns")"
ok "{{seq}} 1..200 once each, {{conn}} 1..20 ten times each"

# {{uuid}}: 2,000 of them, all different, all version 4 (RFC 9562).
: > "$T_DIR/srv.log"
hp --template --num-conns 20 --num-calls 100 --uri '/echo?u={{uuid}}'
expect_rc 0
expect_counts 20 2000 2000
wait_for_log 2000
srv_field 3 | sed 's/.*u=//' > "$T_DIR/uuids"
n=$(grep -Ec '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' \
    "$T_DIR/uuids")
[ "$n" = 2000 ] || fail "v4-shaped uuids: $n of 2000"
n=$(sort -u "$T_DIR/uuids" | wc -l | tr -d ' ')
[ "$n" = 2000 ] || fail "distinct uuids: $n of 2000"
ok "{{uuid}}: 2000 distinct, v4-shaped"

# A body with {{randstr 100}}: 100 + 8 literal bytes (\n is CR LF),
# Content-Length to match (the fixture reads exactly that many), a
# different body each time.
: > "$T_DIR/srv.log"
hp --template --num-conns 5 --num-calls 4 --method POST --uri /body-md \
    --body 'x={{randstr 100}}&y=1\n' --print-request=header
expect_rc 0
expect_counts 5 20 20
expect_errors 0 0 0 0 0 0 0 0 0
wait_for_log 20
n=$(grep -c '^SH[0-9]*:Content-Length: 108$' "$OUT")
[ "$n" = 20 ] || fail "Content-Length: 108 on $n of 20 requests"
n=$(srv_field 4 | grep -c '^108$')
[ "$n" = 20 ] || fail "body lengths: $(srv_field 4 | tr '\n' ' ')"
n=$(srv_field 5 | sort -u | wc -l | tr -d ' ')
[ "$n" = 20 ] || fail "distinct bodies: $n of 20"
ok "{{randstr 100}} in the body: Content-Length 108, 20 different bodies"

# Header lines: {{seq}} and {{client}}, echoed back by /echo.
hp --template --num-conns 1 --num-calls 2 --uri /echo --client 1/3 \
    --add-header 'X-Seq: {{seq}}\nX-Client: {{client}}\n' \
    --print-reply=body
expect_rc 0
[ "$(grep -ac '^RB[0-9]*:X-Client: 1.$' "$OUT")" = 2 ] || \
    fail "X-Client: $(grep -a 'X-Client' "$OUT")"
grep -aq '^RB0:X-Seq: 1.$' "$OUT" || fail "X-Seq of call 1"
grep -aq '^RB1:X-Seq: 2.$' "$OUT" || fail "X-Seq of call 2"
ok "header lines: {{seq}} and {{client}}"

# --seed 7 twice: the same requests; --seed 8 and --client 1/2 others.
# One connection at a time, so the requests go out in one order.
# run_seed FILE OPTION...: the URIs and body hashes into FILE.uris/.bodies
run_seed() {
	t_out=$1
	shift
	: > "$T_DIR/srv.log"
	hp --template --num-conns 5 --num-calls 4 --method POST \
	    --uri '/body-md?r={{rand 1 1000000}}&u={{uuid}}' \
	    --body '{{randstr 32}}' "$@"
	expect_rc 0
	expect_counts 5 20 20
	wait_for_log 20
	srv_field 3 > "$t_out.uris"
	srv_field 5 > "$t_out.bodies"
}
run_seed "$T_DIR/a" --seed 7
run_seed "$T_DIR/b" --seed 7
cmp -s "$T_DIR/a.uris" "$T_DIR/b.uris" || fail "--seed 7: URIs differ"
cmp -s "$T_DIR/a.bodies" "$T_DIR/b.bodies" || fail "--seed 7: bodies differ"
run_seed "$T_DIR/c" --seed 8
n=$(cat "$T_DIR/a.uris" "$T_DIR/c.uris" | sort -u | wc -l | tr -d ' ')
[ "$n" = 40 ] || fail "--seed 7 and 8 share URIs: $n distinct of 40"
run_seed "$T_DIR/d" --seed 7 --client 0/2
run_seed "$T_DIR/e" --seed 7 --client 1/2
n=$(cat "$T_DIR/d.uris" "$T_DIR/e.uris" | sort -u | wc -l | tr -d ' ')
[ "$n" = 40 ] || fail "--client 0/2 and 1/2 share URIs: $n distinct of 40"
n=$(cat "$T_DIR/d.bodies" "$T_DIR/e.bodies" | sort -u | wc -l | tr -d ' ')
[ "$n" = 40 ] || fail "--client 0/2 and 1/2 share bodies: $n of 40"
ok "--seed 7 twice: the same requests; --seed 8, --client 0/2 and 1/2 not"

# Mistakes: one line at start naming the option and the column; no load.
: > "$T_DIR/srv.log"
bad() {
	hp --template "$@"
	expect_rc 1
	[ "$(wc -l < "$OUT.err" | tr -d ' ')" = 1 ] || \
	    fail "not one line: $(cat "$OUT.err")"
	grep -Fq -- "$want" "$OUT.err" || fail "expected: $want"
}
want="--uri: column 9: unknown variable 'nope' ('/echo/{{nope}}')"
bad --uri '/echo/{{nope}}'
want="--uri: column 2: unterminated placeholder ('/{{seq')"
bad --uri '/{{seq'
want="--uri: column 14: rand: 9 is above 1"
bad --uri '/echo/{{rand 9 1}}'
want="--body: column 13: randstr: the length '0' is not from 1 to 1048576"
bad --body 'a={{randstr 0}}'
want="--add-header: column 8: unknown variable 'id' ('X-B: {{id}}')"
bad --add-header 'X-A: 1\nX-B: {{id}}\n'
printf 'abc\n{{uuid 1}}' > "$T_DIR/body"
want="--body-file: $T_DIR/body: column 7: uuid takes 0 arguments, not 1"
bad --body-file "$T_DIR/body"
want="--uri: placeholders cannot be used with --wset"
bad --uri '/p{{seq}}' --wset 10,0.5
hp --num-conns 1 --uri '/echo/{{rand 1 2}}'
expect_rc 1
grep -Fq -- "--uri: contains a space or control character (blanks in {{...}} need --template)" \
    "$OUT.err" || fail "blanks without --template: $(cat "$OUT.err")"
hp --num-conns 1 --seed 3
expect_rc 1
grep -Fq -- "--seed: requires --template" "$OUT.err" || \
    fail "--seed alone: $(cat "$OUT.err")"
[ "$(srv_requests)" = 0 ] || fail "a mistake sent requests"
ok "mistakes: one line with the option and column, before any request"

# Without --template the braces are bytes like any other.
: > "$T_DIR/srv.log"
hp --num-conns 1 --num-calls 2 --method POST --uri '/body-md?{{seq}}' \
    --body '{{seq}}'
expect_rc 0
expect_counts 1 2 2
wait_for_log 2
[ "$(srv_field 3 | sort -u)" = '/body-md?{{seq}}' ] || \
    fail "URIs: $(srv_field 3 | tr '\n' ' ')"
[ "$(srv_field 4 | sort -u)" = 7 ] || fail "bodies: $(srv_field 4)"
# ... and a template without a placeholder is the plain request.
hp --num-conns 1 --num-calls 2 --method POST --uri /body-md \
    --body 'a=1' --template --print-request=header
expect_rc 0
n=$(grep -c '^SH[0-9]*:Content-Length: 3$' "$OUT")
[ "$n" = 2 ] || fail "plain body under --template: $n"
expect '^httperf .* --template( |$)'
ok "no --template: braces sent as they are; no placeholder: plain"

# The URIs of --wlog win over --uri's template; the headers still expand.
printf '/echo?w=1\n/echo?w=2\n' > "$T_DIR/w.log"
: > "$T_DIR/srv.log"
hp --template --num-conns 2 --wlog "n,$T_DIR/w.log" \
    --uri '/x/{{seq}}' --add-header 'X-N: {{seq}}\n' --print-reply=body
expect_rc 0
expect_counts 2 2 2
wait_for_log 2
[ "$(srv_field 3 | tr '\n' ' ')" = "/echo?w=1 /echo?w=2 " ] || \
    fail "--wlog URIs: $(srv_field 3 | tr '\n' ' ')"
[ "$(grep -ac '^RB[0-9]*:X-N: [12].$' "$OUT")" = 2 ] || \
    fail "X-N: $(grep -a 'X-N' "$OUT")"
ok "--wlog's URIs win, the header template still expands"

# --wsesslog: the file's URIs and contents= are templates too; the
# core says the expanded body's Content-Length; a mistake names the
# file, the line and the column.
printf '%s\n' '/echo?s={{session}}&n={{seq}}' \
    '/body-md?u={{uuid}} method=POST contents="id={{randstr 8}}&r={{rand 1 9}}"' \
    '' '/echo?two={{session}}' > "$T_DIR/t.sess"
: > "$T_DIR/srv.log"
hp --template --wsesslog 3,0,"$T_DIR/t.sess" --rate 100 \
    --add-header 'X-S: {{session}}\n' --print-request=header
expect_rc 0
expect_counts 3 5 5
expect_errors 0 0 0 0 0 0 0 0 0
wait_for_log 5
# Sessions overlap at --rate 100, so the order of the calls may vary.
[ "$(srv_field 3 | sed 's/u=[-0-9a-f]*$/u=U/; s/&n=[0-9]*$/\&n=N/' | \
    sort | tr '\n' ' ')" = \
    "/body-md?u=U /body-md?u=U /echo?s=1&n=N /echo?s=3&n=N /echo?two=2 " ] || \
    fail "--wsesslog URIs: $(srv_field 3 | tr '\n' ' ')"
n=$(srv_field 3 | sed -n 's/.*&n=\([1-5]\)$/\1/p' | sort -u | wc -l | \
    tr -d ' ')
[ "$n" = 2 ] || fail "--wsesslog {{seq}}: $(srv_field 3 | tr '\n' ' ')"
n=$(srv_field 3 | grep -Ec 'u=[0-9a-f]{8}-[0-9a-f]{4}-4')
[ "$n" = 2 ] || fail "--wsesslog uuids: $n"
[ "$(srv_field 4 | sort | tr '\n' ' ')" = "0 0 0 15 15 " ] || \
    fail "--wsesslog bodies: $(srv_field 4 | tr '\n' ' ')"
[ "$(grep -c '^SH[0-9]*:Content-Length: 15$' "$OUT")" = 2 ] || \
    fail "--wsesslog Content-Length: $(grep 'Content-Length' "$OUT")"
[ "$(grep '^SH[0-9]*:X-S: ' "$OUT" | sed 's/.*: //' | sort | \
    tr '\n' ' ')" = "1 1 2 3 3 " ] || \
    fail "--wsesslog X-S: $(grep 'X-S' "$OUT")"
ok "--wsesslog: URIs and contents= expanded, Content-Length follows"

printf '/a method=POST contents="x{{rand 2 1}}"\n' > "$T_DIR/bad.sess"
want="--wsesslog: $T_DIR/bad.sess:1: contents: column 9: rand: 2 is above 1"
bad --wsesslog 1,0,"$T_DIR/bad.sess"
printf '/a\n/b{{nope}}\n' > "$T_DIR/bad.sess"
want="--wsesslog: $T_DIR/bad.sess:2: URI: column 5: unknown variable 'nope'"
bad --wsesslog 1,0,"$T_DIR/bad.sess"
# Without --template the file is sent as it is.
: > "$T_DIR/srv.log"
hp --wsesslog 1,0,"$T_DIR/t.sess"
expect_rc 0
wait_for_log 2
[ "$(srv_field 3 | tr '\n' ' ')" = "/echo?s={{session}}&n={{seq}} /body-md?u={{uuid}} " ] || \
    fail "--wsesslog without --template: $(srv_field 3 | tr '\n' ' ')"
ok "--wsesslog: mistakes name the file, line and column; no --template: as is"
stop_srv
