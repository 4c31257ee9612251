#!/bin/sh
# Reply bodies nobody prints are dropped in the kernel (Linux TCP, recv
# with MSG_TRUNC), and every byte is still counted: for Content-Length,
# chunked and close-delimited bodies, keep-alive and pipelined, the
# report's byte counts equal those of a run that reads every body byte
# (--print-reply=body), and the expected sizes exactly.
. "$TESTLIB"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
[ "$(uname -s)" = Linux ] || skip "machine: MSG_TRUNC discards TCP data only on Linux"
J=$T_DIR/d

# counts FILE.json: the byte and reply counts that must not depend on
# whether the bodies were read.
counts() {
	python3 - "$1" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["stats"]["basic"]
r = b["replies"]
print(b["connections"]["total"], b["requests"]["total"], r["total"],
    r["status"]["2xx"], r["header_bytes"], r["content_bytes"],
    r["footer_bytes"], b["net"]["bytes"], b["errors"]["total"])
PY
}

# run NAME DROPS CONNS CALLS CONTENT URI ARGS...: the route read both
# ways; CONTENT is the body bytes every reply must have; DROPS yes when
# bodies must be dropped, no when they must all be read (chunks smaller
# than a read: the framing has to be found in them).
run() {
	name=$1 drops=$2 conns=$3 calls=$4 content=$5 uri=$6
	shift 6
	hp --num-conns "$conns" --num-calls "$calls" --uri "$uri" --debug 3 \
	    --json "$J.$name.a.json" "$@"
	expect_rc 0
	n=$(grep -c 'body bytes dropped unread' "$OUT.err")
	if [ $drops = yes ]; then
		[ "$n" -gt 0 ] || fail "$name: no body was dropped unread"
	else
		[ "$n" = 0 ] || fail "$name: $n bodies dropped"
	fi
	hp --num-conns "$conns" --num-calls "$calls" --uri "$uri" \
	    --print-reply=body --json "$J.$name.b.json" "$@"
	expect_rc 0
	grep -q 'body bytes dropped unread' "$OUT.err" &&
	    fail "$name: dropped with --print-reply=body"
	a=$(counts "$J.$name.a.json") && b=$(counts "$J.$name.b.json") ||
	    fail "$name: no counts"
	[ "$a" = "$b" ] || fail "$name: dropped: $a; read: $b"
	set -- $a
	[ "$3" = "$4" ] || fail "$name: $4 of $3 replies 2xx"
	[ "$6" = $(($3 * content)) ] || fail "$name: content bytes $6, want $3 x $content"
	[ "$9" = 0 ] || fail "$name: $9 errors"
	echo "$name: $a ($n drops)"
}

start_srv
run length yes 2 3 3000000 /size/3000000
run pipelined yes 1 4 2000000 /size/2000000 --burst-length 4
run chunked yes 2 2 3000000 /chunked/3000000/200000
run chunked-small no 1 3 2000000 /chunked/2000000/1000
run trailer yes 1 2 1000000 /chunked-trailer/1000000/300000
run close yes 3 1 2000000 /close/2000000
# Small bodies are read with their heads, never dropped separately.
hp --num-conns 2 --num-calls 20 --uri /size/1000 --debug 3
expect_counts 2 40 40
grep -q 'body bytes dropped unread' "$OUT.err" && fail "a 1000-byte body was dropped"
stop_srv
ok "bodies dropped unread, byte counts exact"
