#!/bin/sh
# Measured values: connect, TLS handshake, first byte, transfer and
# session times against fixture routes and a TLS server with known
# delays.  Lower bounds are the delays themselves; upper bounds are wide,
# for a loaded machine.
. "$TESTLIB"

# within NAME VALUE LO HI: LO <= VALUE <= HI (decimal numbers).
within() {
	[ -n "$2" ] || fail "$1: no value"
	awk -v v="$2" -v lo="$3" -v hi="$4" \
	    'BEGIN { exit !(v + 0 >= lo + 0 && v + 0 <= hi + 0) }' ||
	    fail "$1 is $2, expected between $3 and $4"
}

start_srv
for be in $(backends); do
	export HTTPERF_LOOP=$be
	# First byte after 150 ms, then 5 bytes 60 ms apart: response
	# ~150 ms, transfer ~240 ms (the first byte goes with the header).
	hp --num-conns 2 --num-calls 2 --uri /delay/150/1
	expect_counts 2 4 4
	within "$be: response time" "$(value 'Reply time \[ms\]:' response)" \
	    145 900
	within "$be: p50 first byte" \
	    "$(value 'First byte percentiles' p50)" 145 900
	within "$be: p50 transfer (one packet)" \
	    "$(value 'Transfer time percentiles' p50)" 0 100
	hp --num-conns 2 --num-calls 2 --uri /drip/5/60
	expect_counts 2 4 4
	within "$be: transfer time" "$(value 'Reply time \[ms\]:' transfer)" \
	    230 1200
	within "$be: p50 transfer" \
	    "$(value 'Transfer time percentiles' p50)" 230 1200
	within "$be: p50 first byte (drip)" \
	    "$(value 'First byte percentiles' p50)" 0 300
	within "$be: p50 connect" \
	    "$(value 'Connect time percentiles' p50)" 0 100
	within "$be: response time" "$(value 'Reply time \[ms\]:' response)" \
	    0 300
	# Connection lifetime: two 150 ms replies one after the other.
	hp --num-conns 2 --num-calls 2 --uri /delay/150/1
	within "$be: connection time" \
	    "$(value 'Connection time \[ms\]: min' avg)" 300 1500
	within "$be: p50 reply time" \
	    "$(value 'Reply time percentiles' p50)" 145 900
	# Sessions: two calls of 100 ms with a 0.3 s think time between.
	hp --wsess 2,2,0.3 --rate 10 --uri /delay/100/1
	within "$be: session lifetime" \
	    "$(sed -n 's/^Session lifetime \[s\]: //p' "$OUT")" 0.5 2.5
	within "$be: p50 session lifetime" \
	    "$(value 'Session lifetime percentiles' p50)" 500 2500
	expect '^Session lifetime percentiles \[ms\]: '
	ok "$be: response, transfer, connection and session times"
done
unset HTTPERF_LOOP
stop_srv

command -v openssl >/dev/null 2>&1 ||
    skip "the openssl command is not installed"
C=$T_DIR/certs
mkdir -p "$C"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$C/k.pem" -out "$C/c.pem" -days 2 -subj /CN=localhost \
    2>/dev/null || fail "cannot make a certificate"

# Every handshake held 200 ms by the server: handshake time and connect
# time (which includes it) are at least that.
start_srv -s "$C/c.pem" -k "$C/k.pem" -D 200
hp --ssl --num-conns 3 --num-calls 2 --uri /delay/100/1
expect_counts 3 6 6
within "TLS handshake min" "$(value 'TLS handshake time' min)" 195 1200
within "TLS handshake max" "$(value 'TLS handshake time' max)" 195 1200
within "connect time" "$(value 'Connection time \[ms\]: connect' connect)" \
    195 1200
within "p50 TLS handshake" "$(value 'TLS handshake percentiles' p50)" \
    195 1200
within "p50 TCP connect (without the handshake)" \
    "$(value 'Connect time percentiles' p50)" 0 150
within "response time over TLS" "$(value 'Reply time \[ms\]:' response)" \
    95 700
stop_srv

# No hold: the handshake still costs both sides CPU (key exchange,
# signature and its check), so no full handshake measures 0.0.
start_srv -s "$C/c.pem" -k "$C/k.pem"
hp --ssl --ssl-no-reuse --num-conns 20 --rate 0
expect_counts 20 20 20
within "TLS handshake min (no hold)" "$(value 'TLS handshake time' min)" \
    0.05 1000
stop_srv
ok "TLS handshake and connect times"
