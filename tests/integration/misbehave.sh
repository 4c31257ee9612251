#!/bin/sh
# Misbehaving servers.  For each fault: the run ends by itself within its
# timeouts, exits 0, prints the full report, counts the fault in its
# documented class (see ERROR COUNTERS in httperf(1)), and still counts
# the good replies around it.  Each check runs three connections one
# after another: a good reply, the fault, a good reply.
. "$TESTLIB"

# around URI: a --wlog file with the faulty URI between two good ones.
around() {
	printf '/size/100\n%s\n/size/100\n' "$1" > "$T_DIR/f.log"
}

# fault URI REPLIES CLASS [options]: CLASS is the error class that must
# hold exactly one error (the others none), or "none".
fault() {
	uri=$1 replies=$2 cls=$3
	shift 3
	around "$uri"
	hp --wlog "n,$T_DIR/f.log" --num-conns 3 --timeout 1 "$@"
	expect_rc 0
	expect_classic
	expect "^Total: connections 3 requests [0-9]+ replies $replies "
	set -- 0 0 0 0 0 0 0 0
	case $cls in
	client-timo)	set -- 1 0 0 0 0 0 0 0 ;;
	connreset)	set -- 0 0 0 1 0 0 0 0 ;;
	other)		set -- 0 0 0 0 0 0 0 1 ;;
	none)		;;
	*)		fail "bad class $cls" ;;
	esac
	total=$(($1 + $2 + $3 + $4 + $5 + $6 + $7 + $8))
	expect_errors $total "$@"
	ok "$uri: $cls, $replies good replies"
}

start_srv

# Resets and early closes at every stage: connreset.
fault /reset-status 2 connreset
fault /reset-headers 2 connreset
fault /reset-body/1000 2 connreset
fault /short/1000/10 2 connreset

# Not HTTP, or HTTP with broken framing: other.
fault /garbage 2 other
for s in 0 99 600 999; do
	fault "/status/$s" 2 other
done
fault /badchunk 2 other
fault /chunk-overflow 2 other
for v in -1 abc 5,6 99999999999999999999999 18446744073709551615; do
	fault "/cl/$v" 2 other
done
fault /cl2/5/6 2 other
fault /flood1xx/100000 2 other
# Bytes after a complete reply: the reply counts; the stray bytes are the
# fault, whether the next call is already waiting (they would be its
# reply: two calls per connection) or no call is (a session thinking).
printf '/size/100\n/size/100\n/extra/10\n/size/100\n/size/100\n/size/100\n' \
    > "$T_DIR/extra.log"
hp --wlog "n,$T_DIR/extra.log" --num-conns 3 --num-calls 2 --timeout 1
expect_rc 0
expect_classic
expect_counts 3 6 5
expect_errors 1 0 0 0 0 0 0 0 1
ok "/extra/10 with the next call waiting: other, 5 good replies"
printf '/extra/10 think=0.5\n/size/100\n' > "$T_DIR/extra.sess"
hp --wsesslog 1,0,"$T_DIR/extra.sess" --timeout 2
expect_rc 0
expect_classic
# The connection fails after a reply, so the session reconnects for its
# next call and completes.
expect "^Session rate \[sess/s\]: .* \(1/1\)\$"
expect_counts 2 2 2
expect_errors 1 0 0 0 0 0 0 0 1
ok "/extra/10 while a session thinks: other, the session goes on"

# Silence and slowness: client-timo after --timeout of inactivity.
fault /hang 2 client-timo
fault /drip/10/1500 2 client-timo
fault /status-drip/1500 2 client-timo
# Heads that never end, however steadily they come: each reply head and
# trailer section has --timeout to complete.
fault /hdr-drip/10 2 client-timo
# An 83-byte head dripped a byte every 20 ms takes 1.7 s: over a 1 s
# --timeout although no gap reaches it.
fault /status-drip/20 2 client-timo
fault /trailer-drip/10 2 client-timo

# Over the limits: a header line over 256 KiB, a header section over
# 1 MiB (big lines or many small ones), a trailer section over 1 MiB.
fault /bighdr/1/300000 2 other
fault /bighdr/6/200000 2 other
fault /bighdr/60000/10 2 other

# Odd but valid: good replies.
fault /bighdr/1/262000 3 none
fault /bighdr/5/200000 3 none
fault /bighdr/5000/10 3 none
fault /chunkext/100000 3 none
fault /cl2/5/5 3 none
fault /te-gzip-chunked/1000 3 none
fault /te-gzip/1000 3 none
fault /flood1xx/50 3 none
fault /drip/10/100 3 none
fault /status-drip/20 3 none --timeout 3
stop_srv

# Servers that close or reset right after accept.
for flag in -X -Z; do
	start_srv "$flag"
	hp --num-conns 5 --rate 100 --timeout 2
	expect_rc 0
	expect_classic
	expect_counts 5 '[0-5]' 0
	expect_errors 5 0 0 0 5 0 0 0 0
	stop_srv
	ok "server $flag: connreset, run goes on"
done
