#!/bin/sh
# 100,000 concurrent connections from one process: httperf opens them at
# 25,000/s from 127.0.0.2-127.0.0.5 (one source address has ~28,000
# ephemeral ports to one server port) to the fixture, which holds each
# reply 20 s, so all of them are open at once.  Every reply is counted,
# no error; httperf raised its own open files limit (as root beyond the
# hard limit, up to fs.nr_open) and said so in one line on stderr.  Its
# peak RSS minus that of a 1-connection run, over N, is its memory per
# held connection: under 2 KiB.
#
# Skips (exit 77, with the reason) only when the machine cannot: the open
# files limit cannot reach N + 200 (no CAP_SYS_RESOURCE, or fs.nr_open),
# not enough memory, or 127.0.0.2-127.0.0.5 not usable.  When the limit is
# what is missing, the same checks still run with as many connections as
# the limit allows (the skip says how many).  Under AddressSanitizer the
# count is the same but the memory bound is not checked (its shadow and
# quarantine are not httperf's memory); the figure is still printed.
. "$TESTLIB"

N=100000
DELAY_MS=20000
RATE=25000

/usr/bin/time -f %M true > /dev/null 2>&1 ||
    skip "GNU time (/usr/bin/time) is not installed (apt-get install time)"
if ldd "$HTTPERF" 2>/dev/null | grep -q libasan; then
	asan=1
else
	asan=0
fi

# Memory: the client, the server and the kernel's 2N sockets; under
# AddressSanitizer ~16 KiB per connection more.
need_kb=3000000
[ $asan = 0 ] || need_kb=6000000
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [ "${avail_kb:-0}" -lt $need_kb ]; then
	skip "machine: needs $((need_kb / 1000000)) GB of available memory for $N connections," \
	    "has $((${avail_kb:-0} / 1024)) MB"
fi

# Open files: each of the two processes needs N + 200.  A child shell
# shows whether a process can get that (as root: CAP_SYS_RESOURCE).
if ! sh -c "ulimit -n $((N + 200))" 2>/dev/null; then
	hard=$(ulimit -H -n)
	nr_open=$(cat /proc/sys/fs/nr_open 2>/dev/null || echo 0)
	case $hard in unlimited) hard=$nr_open ;; esac
	n=$(((hard - 200) / 1000 * 1000))
	[ "$n" -ge 1000 ] ||
	    skip "machine: open files limit $hard: cannot hold even 1,000 connections"
	t_skip "machine: the open files limit cannot be raised to $((N + 200))" \
	    "(hard limit $hard, fs.nr_open $nr_open, no CAP_SYS_RESOURCE):" \
	    "$n connections instead of $N"
	N=$n
fi

# Source ports: ~N/4 per address must fit the ephemeral range, or --hog.
# (Not `read < file': dash reads /proc files byte by byte, wrongly.)
set -- $(cat /proc/sys/net/ipv4/ip_local_port_range)
lo=$1 hi=$2
HOG=
if [ $(((hi - lo + 1) * 4)) -lt $((N + 4000)) ]; then
	HOG=--hog
fi

start_srv -N $((N + 200)) -t 300

# The baseline: one connection, same binary, same options.  It also
# shows that the four source addresses work.
/usr/bin/time -o "$T_DIR/rss1" -f %M timeout 60 "$HTTPERF" \
    --server 127.0.0.1 --port "$PORT" --uri /delay/100/10 \
    --num-conns 1 --rate $RATE --timeout 5 \
    --myaddr 127.0.0.2-127.0.0.5 $HOG > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --num-conns 1 --myaddr 127.0.0.2-127.0.0.5"
if grep -q '^Errors: fd-unavail 0 addrunavail 1 ' "$OUT"; then
	skip "machine: 127.0.0.2-127.0.0.5 are not usable source addresses here"
fi
expect_rc 0
expect_counts 1 1 1
rss1=$(tail -n 1 "$T_DIR/rss1")

# N at once.  The last arrives after N / RATE s (4 s), long before the
# first reply (20 s); the timeout bounds the whole run.
want=$((N + 64))
/usr/bin/time -o "$T_DIR/rss" -f %M timeout 120 "$HTTPERF" \
    --server 127.0.0.1 --port "$PORT" --uri /delay/$DELAY_MS/10 \
    --num-conns $N --rate $RATE --timeout 60 \
    --myaddr 127.0.0.2-127.0.0.5 $HOG > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --num-conns $N --rate $RATE --myaddr 127.0.0.2-127.0.0.5 $HOG"
expect_rc 0
expect_classic
expect_counts $N $N $N
expect_errors 0 0 0 0 0 0 0 0 0
expect_status 0 $N 0 0 0
expect "^Connection rate: .*, <=$N concurrent connections\)\$"
# The limit: raised and said (one line), or already enough and silent.
soft=$(ulimit -S -n)
case $soft in unlimited) soft=$want ;; esac
if [ "$soft" -lt "$want" ]; then
	line=$(cat "$OUT.err")
	case $line in
	"httperf: open files limit raised from $soft to "[0-9]*)
		[ "${line##* }" -ge "$want" ] || fail "stderr: $line" ;;
	*)
		fail "stderr: not the one line on the limit: $line" ;;
	esac
else
	[ ! -s "$OUT.err" ] || fail "stderr: $(cat "$OUT.err")"
fi
stop_srv
# The baseline's one reply, then the N.
[ "$(srv_stat responses)" = $((N + 1)) ] ||
    fail "the server sent $(srv_stat responses) replies, not $N + 1"
[ "$(srv_stat max_concurrent)" = $N ] ||
    fail "the server held $(srv_stat max_concurrent) at once, not $N"

rss=$(tail -n 1 "$T_DIR/rss")
per=$(((rss - rss1) * 1024 / N))
echo "peak RSS: $rss KiB with $N connections, $rss1 KiB with 1:" \
    "$per bytes per connection"
if [ $asan = 1 ]; then
	echo "AddressSanitizer build: the 2 KiB bound is not checked"
elif [ $per -ge 2048 ]; then
	fail "$per bytes per held connection, not under 2 KiB"
fi
ok "$N concurrent connections, all replied; peak RSS $rss KiB," \
    "$per bytes/connection${HOG:+ (--hog)}"
