#!/bin/sh
# A capacity search against nginx (--sweep with --slo, issue 25): nginx
# lets 2000 requests a second through (limit_req rate=2000r/s burst=20
# nodelay) and answers the rest 503 at once, so the capacity with the
# objective 5xx<1% is 2000 requests/s; the sweep finds it within 3 %,
# its steps below the limit have no 503, those above it some.
. "$TESTLIB"

nginx_need
free_ports 1
NG=$PORTS
nginx_start "$T_DIR/nginx" '' --server 127.0.0.1 --port "$NG" \
    --uri /1k.html <<CONF
	limit_req_zone \$binary_remote_addr zone=one:1m rate=2000r/s;
	server {
		listen 127.0.0.1:$NG;
		root $T_DIR/nginx/html;
		location / {
			limit_req zone=one burst=20 nodelay;
			limit_req_status 503;
		}
	}
CONF

PORT=$NG hp --uri /1k.html --call-rate 1800 --sweep 1800:2200:100 \
    --step-time 1 --step-warmup 0.2 --slo '5xx<1%' --max-lateness 200 \
    --json "$T_DIR/ng.json"
expect_rc 0
validate_json "$T_DIR/ng.json"
cap=$(sed -n 's/^Capacity: \([0-9.]*\) req\/s (found: 5xx<1%; the next level [0-9.]* failed; repeated [0-9]: [a-z]*)$/\1/p' "$OUT")
[ -n "$cap" ] || fail "capacity line: $(grep Capacity "$OUT")"
awk -v c="$cap" 'BEGIN { exit !(c >= 1940 && c <= 2060) }' ||
    fail "capacity $cap, expected 2000 within 3 %"
# The plan: 1800 and 1900 pass, 2100 fails (about 5 % refused).
awk '/^Sweep/ { on = 1; next }
	on && $2 == "plan" && ($3 == "1800.0" || $3 == "1900.0") &&
	    $13 == "PASS" { p++ }
	on && $2 == "plan" && $3 == "2100.0" && $13 == "FAIL" { f = 1 }
	END { exit !(p == 2 && f) }' "$OUT" || fail "the plan: $(cat "$OUT")"
ok "nginx limit_req 2000r/s, 5xx<1%: capacity $cap req/s"
