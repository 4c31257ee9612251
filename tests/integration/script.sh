#!/bin/sh
# --script: wrk's Lua scripts, unchanged, under wrk and under httperf
# against nginx, whose access log (method, URI, an auth header, a counter
# header, $request_length and the body) must show the same requests for
# both; a response() that raises on every reply does not stop the run
# and shows as the `script' error class; thread:stop(); done()'s report;
# the start-up errors word for word, before any load.  The scripts have
# the shapes of wrk's examples (post, counter, auth, pipeline, stop,
# report, setup) and are written here.
. "$TESTLIB"

nginx_need
command -v wrk >/dev/null 2>&1 ||
    t_missing "wrk is not installed (apt-get install wrk)"
! "$HP" --script /dev/null --server 127.0.0.1 2>&1 |
    grep -q 'built without Lua scripts' ||
    t_missing "built without LuaJIT (apt-get install libluajit-5.1-dev)"

free_ports 1
PORT=$PORTS
URL=http://127.0.0.1:$PORT
# /post reads the body (so that nginx logs it) through /sink.
nginx_start "$T_DIR/nginx" \
    '$request_method $request_uri "$http_x_token" "$http_x_counter" $request_length "$request_body"' \
    --server 127.0.0.1 --port "$PORT" --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$PORT;
		root $T_DIR/nginx/html;
		location = /post { proxy_pass http://127.0.0.1:$PORT/sink; }
		location = /sink { access_log off; return 200 "ok"; }
		location / { add_header X-Token tok42; return 200 "hi"; }
	}
	# The same port on 127.0.0.2, for thread.addr (addr.lua).
	server {
		listen 127.0.0.2:$PORT;
		location / { return 200 "two"; }
	}
CONF
nginx_logged 1 > /dev/null
: > "$ALOG"

# hps ARGS...: httperf with a URL (hp gives --server and --port).
hps() {
	timeout 60 "$HP" "$@" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf $*"
}
# wrk_run SCRIPT PATH: one connection for a second.
wrk_run() {
	timeout 10 wrk -t1 -c1 -d1s -s "$1" "$URL$2" > "$T_DIR/wrk.out" 2>&1 ||
	    fail "wrk -s $1 failed: $(cat "$T_DIR/wrk.out")"
}
# logged N FILE: waits for N lines in the access log, moves them to FILE.
logged() {
	n=$(nginx_logged "$1")
	[ "$n" -ge "$1" ] || fail "nginx logged $n requests, expected $1"
	cp "$ALOG" "$2"
	: > "$ALOG"
}

cat > "$T_DIR/post.lua" <<'EOF2'
wrk.method = "POST"
wrk.body   = "a=1&b=two"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
EOF2
cat > "$T_DIR/counter.lua" <<'EOF2'
counter = 0
request = function()
   local path = "/c/" .. counter
   wrk.headers["X-Counter"] = counter
   counter = counter + 1
   return wrk.format(nil, path)
end
EOF2
cat > "$T_DIR/auth.lua" <<'EOF2'
token = nil
path  = "/authenticate"
request = function()
   return wrk.format("GET", path)
end
response = function(status, headers, body)
   if not token and status == 200 then
      token = headers["X-Token"]
      path  = "/resource"
      wrk.headers["X-Token"] = token
   end
end
EOF2
cat > "$T_DIR/pipeline.lua" <<'EOF2'
init = function(args)
   local r = {}
   r[1] = wrk.format(nil, "/p/1")
   r[2] = wrk.format("POST", "/post", nil, "xyz")
   r[3] = wrk.format(nil, "/p/3")
   req = table.concat(r)
end
request = function()
   return req
end
EOF2
cat > "$T_DIR/stop.lua" <<'EOF2'
local n = 1
function response()
   if n == 100 then
      wrk.thread:stop()
   end
   n = n + 1
end
EOF2
cat > "$T_DIR/addr.lua" <<'EOF2'
local threads = {}
function setup(thread)
   thread.addr = wrk.lookup("127.0.0.2", wrk.port)[1]
   table.insert(threads, thread)
end
function init(args)
   two, other = 0, 0
end
function response(status, headers, body)
   if body == "two" then two = two + 1 else other = other + 1 end
end
function done(summary, latency, requests)
   for _, t in ipairs(threads) do
      io.write(string.format("addr %s two %d other %d\n", tostring(t.addr),
         t:get("two"), t:get("other")))
   end
end
EOF2
cat > "$T_DIR/jobs.lua" <<'EOF2'
local n = 0
local function note(s)
   local f = io.open(os.getenv("SCRIPT_NOTES"), "a")
   f:write(s .. "\n")
   f:close()
end
function setup(thread)
   n = n + 1
   thread.addr = wrk.lookup("127.0.0.2", wrk.port)[1]
   note("setup " .. n)
end
function response(status, headers, body)
   note("body " .. body)
end
function done(summary, latency, requests)
   io.write(string.format("done %d %d %s\n", summary.requests,
      summary.errors.status, tostring(#latency > 0 and
      latency.min > 0 and latency.min <= latency.max)))
end
EOF2
cat > "$T_DIR/report.lua" <<'EOF2'
done = function(summary, latency, requests)
   io.write(string.format("summary %d %d %d\n", summary.requests,
      summary.errors.status, summary.errors.connect))
   for _, p in pairs({ 50, 99 }) do
      io.write(string.format("%g%%,%d\n", p, latency:percentile(p)))
   end
   local v, c = latency(1)
   io.write(string.format("stats %d %d %d %d %s\n", #latency, v, c,
      latency[1], tostring(latency.min <= latency.mean and
      latency.mean <= latency.max and latency.stdev >= 0)))
   -- wrk's latency(i): the distinct values, ascending, and their counts;
   -- wrk2's latency[i]: the value at percentile 100 i / #latency.
   local sum, prev, asc, pct = 0, -1, true, true
   for i = 1, #latency do
      local v, c = latency(i)
      sum = sum + c
      asc = asc and v > prev
      prev = v
      pct = pct and latency[i] == latency:percentile(100 * i / #latency)
   end
   io.write(string.format("forms %d %s %s %s %s\n", sum, tostring(asc),
      tostring(pct), tostring(latency[#latency] == latency.max),
      tostring(latency[0] == nil and latency[#latency + 1] == nil)))
end
EOF2
cat > "$T_DIR/setup.lua" <<'EOF2'
local threads = {}
function setup(thread)
   thread:set("id", 7)
   table.insert(threads, thread)
end
function init(args)
   requests = 0
   first = args[1]
end
function request()
   requests = requests + 1
   return wrk.request()
end
function done(summary, latency, requests)
   for _, t in ipairs(threads) do
      io.write(string.format("thread %d made %d requests (%s)\n",
         t:get("id"), t:get("requests"), t:get("first")))
   end
end
EOF2
cat > "$T_DIR/delay.lua" <<'EOF2'
function delay()
   return 50
end
EOF2
cat > "$T_DIR/raise.lua" <<'EOF2'
function response(status, headers, body)
   error("no " .. status)
end
EOF2

# The first N lines of wrk's log and httperf's are the same.
same_first() {
	head -n "$1" "$T_DIR/wrk.log" > "$T_DIR/wrk.head"
	cmp -s "$T_DIR/wrk.head" "$T_DIR/hp.log" ||
	    fail "$2: wrk and httperf differ:
$(diff "$T_DIR/wrk.head" "$T_DIR/hp.log")"
}

# post: the same line every time, body included.
wrk_run "$T_DIR/post.lua" /post
logged 1 "$T_DIR/wrk.log"
hps --script "$T_DIR/post.lua" --num-conns 1 --num-calls 5 "$URL/post"
expect_rc 0
expect_counts 1 5 5
logged 5 "$T_DIR/hp.log"
same_first 5 post
grep -q '^POST /post "-" "-" [0-9]* "a=1&b=two"$' "$T_DIR/hp.log" ||
    fail "post: $(head -n 1 "$T_DIR/hp.log")"
ok "post.lua: the same POST with its body under wrk and httperf"

# counter: /c/0, /c/1, ... with X-Counter; a closed loop, then the open
# loop of --call-rate: the same bytes.
wrk_run "$T_DIR/counter.lua" /
logged 5 "$T_DIR/wrk.log"
hps --script "$T_DIR/counter.lua" --num-conns 1 --num-calls 5 "$URL/"
expect_rc 0
logged 5 "$T_DIR/hp.log"
same_first 5 counter
# As wrk, request() is called once at start-up and its string dropped.
sed -n 5p "$T_DIR/hp.log" | grep -Eqx 'GET /c/5 "-" "5" [0-9]+ "-"' ||
    fail "counter: $(sed -n 5p "$T_DIR/hp.log")"
hps --script "$T_DIR/counter.lua" --call-rate 100 --num-calls 5 "$URL/"
expect_rc 0
expect_counts '[0-9]+' 5 5
logged 5 "$T_DIR/hp.log"
sort "$T_DIR/hp.log" > "$T_DIR/hp.sorted"
sort "$T_DIR/wrk.head" | cmp -s - "$T_DIR/hp.sorted" ||
    fail "counter --call-rate: $(diff "$T_DIR/wrk.head" "$T_DIR/hp.sorted")"
ok "counter.lua: the same paths and headers, closed loop and --call-rate"

# auth: the token of the first reply in every later request.
wrk_run "$T_DIR/auth.lua" /
logged 3 "$T_DIR/wrk.log"
hps --script "$T_DIR/auth.lua" --num-conns 1 --num-calls 3 "$URL/"
expect_rc 0
logged 3 "$T_DIR/hp.log"
same_first 3 auth
sed -n 3p "$T_DIR/hp.log" | grep -Eqx 'GET /resource "tok42" "-" [0-9]+ "-"' ||
    fail "auth: $(sed -n 3p "$T_DIR/hp.log")"
ok "auth.lua: the token of the first reply, as under wrk"

# pipeline: three requests a string, one call each.
wrk_run "$T_DIR/pipeline.lua" /
logged 6 "$T_DIR/wrk.log"
hps --script "$T_DIR/pipeline.lua" --num-conns 1 --num-calls 6 "$URL/"
expect_rc 0
expect_counts 1 6 6
logged 6 "$T_DIR/hp.log"
same_first 6 pipeline
# Each call's head and body as --print-request shows any request's.
hps --script "$T_DIR/pipeline.lua" --num-conns 1 --num-calls 3 \
    --print-request "$URL/"
expect_rc 0
expect '^SH1:POST /post HTTP/1.1$'
expect '^SH1:Content-Length: 3$'
expect '^SB1:xyz$'
expect '^SS1: header [0-9]+ content 3$'
expect '^SS2: header [0-9]+ content 0$'
logged 3 "$T_DIR/hp.log"
ok "pipeline.lua: three requests a string, one call each"

# stop: thread:stop() after the 100th reply, under both.
wrk_run "$T_DIR/stop.lua" /
grep -q '^  100 requests in ' "$T_DIR/wrk.out" ||
    fail "wrk stop.lua: $(cat "$T_DIR/wrk.out")"
logged 100 "$T_DIR/wrk.log"
hps --script "$T_DIR/stop.lua" --concurrency 1 --runtime 20 "$URL/"
expect_rc 0
expect_counts 1 100 100
# The open loop: replies already on their way in the same loop turn
# still count.
hps --script "$T_DIR/stop.lua" --call-rate 1000 --runtime 20 "$URL/"
expect_rc 0
expect_counts '[0-9]+' '10[0-9]' '10[0-9]'
[ "$(value 'Total:' test-duration)" != 20.000 ] || fail "stop: no stop"
logged 200 "$T_DIR/hp.log"
ok "stop.lua: 100 replies, then the end, as under wrk"

# delay: 50 ms before each request of the closed loop, as wrk pauses
# before each of a connection's requests: at most 20 a second each.
wrk_run "$T_DIR/delay.lua" /
n=$(sed -n 's/^ *\([0-9]*\) requests in .*/\1/p' "$T_DIR/wrk.out")
[ "$n" -ge 5 ] && [ "$n" -le 25 ] || fail "wrk delay.lua: $n requests"
logged "$n" "$T_DIR/wrk.log"
hps --script "$T_DIR/delay.lua" --concurrency 2 --runtime 1 "$URL/"
expect_rc 0
n=$(value 'Total:' replies)
[ "$n" -ge 10 ] && [ "$n" -le 40 ] || fail "delay.lua: $n replies"
expect_not '^Errors: script'
logged "$n" "$T_DIR/hp.log"
ok "delay.lua: 50 ms before each request, $n replies in 1 s on 2 connections"

# addr: thread.addr set in setup() is where the connections go (the URL
# says 127.0.0.1, the replies come from 127.0.0.2's server).
hps --script "$T_DIR/addr.lua" --num-conns 2 --num-calls 2 "$URL/"
expect_rc 0
expect_counts 2 4 4
expect "^addr 127.0.0.2:$PORT two 4 other 0\$"
logged 4 "$T_DIR/hp.log"
ok "addr.lua: thread.addr = 127.0.0.2 in setup(), 4 replies from there"

# --jobs 2: each worker calls setup() once in its own first state (so
# both count 1), its thread.addr is where its connections go, and the
# parent calls done() once, on the workers' counts added up.
export SCRIPT_NOTES="$T_DIR/notes"
: > "$SCRIPT_NOTES"
hps --script "$T_DIR/jobs.lua" --jobs 2 --num-conns 4 --num-calls 2 \
    --rate 50 --json "$T_DIR/j.json" "$URL/"
expect_rc 0
expect_counts 4 8 8
[ "$(grep -c '^done ' "$OUT")" = 1 ] || fail "jobs: done() not once"
expect '^done 8 0 true$'
[ "$(grep -c '^setup 1$' "$SCRIPT_NOTES")" = 2 ] &&
    [ "$(grep -c '^setup' "$SCRIPT_NOTES")" = 2 ] ||
    fail "jobs: setup() calls: $(grep '^setup' "$SCRIPT_NOTES")"
[ "$(grep -c '^body two$' "$SCRIPT_NOTES")" = 8 ] &&
    [ "$(grep -c '^body' "$SCRIPT_NOTES")" = 8 ] ||
    fail "jobs: replies: $(grep '^body' "$SCRIPT_NOTES" | sort | uniq -c)"
[ "$(json_get "$T_DIR/j.json" stats.script.replies)" = 8 ] ||
    fail "jobs: stats.script: $(json_get "$T_DIR/j.json" stats.script)"
validate_json "$T_DIR/j.json"
logged 8 "$T_DIR/hp.log"
ok "jobs.lua: --jobs 2: setup() once a worker, thread.addr each, one done() on 8"

# report: done()'s numbers.
hps --script "$T_DIR/report.lua" --num-conns 1 --num-calls 50 "$URL/"
expect_rc 0
expect '^summary 50 0 0$'
expect '^50%,[1-9][0-9]*$'
expect '^stats [1-9][0-9]* [1-9][0-9]* [1-9][0-9]* [1-9][0-9]* true$'
expect '^forms 50 true true true true$'
# done() comes after the whole report.
[ "$(tail -n 5 "$OUT" | head -n 1)" = "summary 50 0 0" ] ||
    fail "report: done() is not last: $(tail -n 6 "$OUT")"
logged 50 "$T_DIR/hp.log"
ok "report.lua: done() with summary, latency:percentile(), #, (i), wrk2's [i]"

# setup: thread:set/get between the states; init's args.
hps --script "$T_DIR/setup.lua" --script-arg first-arg --num-conns 1 \
    --num-calls 4 "$URL/"
expect_rc 0
# 4 calls and wrk's check of request() at start-up.
expect '^thread 7 made 5 requests \(first-arg\)$'
logged 4 "$T_DIR/hp.log"
ok "setup.lua: thread:set() in setup(), thread:get() in done()"

# A response() that raises every time: the run goes on, class `script'.
hps --script "$T_DIR/raise.lua" --num-conns 2 --num-calls 5 --rate 100 \
    "$URL/"
expect_rc 0
expect_counts 2 10 10
expect '^Errors: script 10$'
grep -qx "httperf: --script: $T_DIR/raise.lua:2: no 200 (in response()) (the first of 10)" \
    "$OUT.err" || fail "raise: $(cat "$OUT.err")"
logged 10 "$T_DIR/hp.log"
ok "raise.lua: every response() raised, 10 replies, Errors: script 10"

# The class in --json (stats.script.errors), and summed by --merge.
for i in 0 1; do
	hps --script "$T_DIR/raise.lua" --num-conns 2 --num-calls 5 \
	    --rate 100 --client $i/2 --json "$T_DIR/r$i.json" "$URL/"
	expect_rc 0
	expect '^Errors: script 10$'
	[ "$(json_get "$T_DIR/r$i.json" stats.script.errors)" = 10 ] ||
	    fail "stats.script.errors: $(json_get "$T_DIR/r$i.json" stats.script)"
	validate_json "$T_DIR/r$i.json"
	logged 10 "$T_DIR/hp.log"
done
T_LAST="httperf --merge"
"$HP" --merge --json "$T_DIR/m.json" "$T_DIR/r0.json" "$T_DIR/r1.json" \
    > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 0
expect '^Errors: script 20$'
[ "$(json_get "$T_DIR/m.json" stats.script.errors)" = 20 ] ||
    fail "merged stats.script.errors: $(json_get "$T_DIR/m.json" stats.script)"
ok "raise.lua: stats.script.errors 10 in --json, 20 merged from two"

# Start-up errors: one line, exit 1, no report, no request.
startup() {
	printf '%b' "$1" > "$T_DIR/bad.lua"
	shift
	msg=$1
	shift
	hps --script "$T_DIR/bad.lua" "$@" "$URL/"
	expect_rc 1
	[ ! -s "$OUT" ] || fail "a report after a start-up error: $(cat "$OUT")"
	[ "$(cat "$OUT.err")" = "httperf: --script: $T_DIR/bad.lua$msg" ] ||
	    fail "start-up error: $(cat "$OUT.err")"
}
startup 'x = = 1\n' ":1: unexpected symbol near '=' (loading the script)"
startup 'function init(a)\n  error("bad arg")\nend\n' \
    ':2: bad arg (in init())'
startup 'function setup(t)\n  t.port = 1\nend\n' \
    ':2: thread.port: only thread.addr can be set (in setup())'
startup 'function done(s, l, r)\nend\nfunction delay()\n  return 5\nend\n' \
    ": delay() cannot be used with --call-rate (an open loop has no pause between a connection's calls)" \
    --call-rate 10 --num-calls 1
[ "$(nginx_logged 0)" = 0 ] || fail "a request went out after a start-up error"
hps --script "$T_DIR/missing.lua" "$URL/"
expect_rc 1
[ "$(cat "$OUT.err")" = "httperf: --script: cannot open $T_DIR/missing.lua: No such file or directory (loading the script)" ] ||
    fail "missing file: $(cat "$OUT.err")"
hps --script-arg x "$URL/"
expect_rc 1
[ "$(cat "$OUT.err")" = "httperf: --script-arg: requires --script" ] ||
    fail "--script-arg alone: $(cat "$OUT.err")"
printf '127.0.0.1:%s\n' "$PORT" > "$T_DIR/servers"
hps --script "$T_DIR/missing.lua" --servers "$T_DIR/servers"
expect_rc 1
[ "$(cat "$OUT.err")" = "httperf: --script: cannot be used with --servers (a wrk script has one target: wrk.host and wrk.port)" ] ||
    fail "--script with --servers: $(cat "$OUT.err")"
hps --script "$T_DIR/missing.lua" --wsesspage 1,1,0 "$URL/"
expect_rc 1
[ "$(cat "$OUT.err")" = "httperf: --script: cannot be used with --wsesspage (a page view's requests come from its pages)" ] ||
    fail "--script with --wsesspage: $(cat "$OUT.err")"
ok "start-up errors: one line naming the script, line and hook; exit 1"
