#!/bin/sh
# Large bodies dropped unread wake the client once a megabyte, not once a
# segment (SO_RCVLOWAT while a body is dropped, conn_read.c): 10 MB
# bodies from nginx (sendfile) take at most 15 drops each (one a wake-up;
# a wake-up per segment or two took hundreds), every byte counted.  A
# body that comes slowly, in pieces smaller than the mark, is progress:
# with --timeout 1 it does not time out while its pieces come every
# 0.2 s (the held-back bytes are read when the watchdog comes).
. "$TESTLIB"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
[ "$(uname -s)" = Linux ] || skip "machine: MSG_TRUNC and SO_RCVLOWAT are Linux's"

# nginx (one worker, sendfile): the fast sender a wake-up per segment
# or two costs most.
nginx_need
N=$T_DIR/nginx
free_ports 1
PORT=$PORTS
mkdir -p "$N/html"
head -c 10000000 /dev/zero | tr '\0' 'x' > "$N/html/10m.bin"
nginx_start "$N" "" --server 127.0.0.1 --port "$PORT" --uri /1k.html <<CONF
	sendfile on;
	server { listen 127.0.0.1:$PORT; root $N/html; }
CONF
for b in $(backends); do
	HTTPERF_LOOP=$b hp --num-conns 2 --num-calls 2 --uri /10m.bin \
	    --debug 3
	expect_rc 0
	expect_counts 2 4 4
	expect_errors 0 0 0 0 0 0 0 0 0
	n=$(grep -c 'body bytes dropped unread' "$OUT.err")
	[ "$n" -ge 4 ] && [ "$n" -le 60 ] ||
	    fail "$b: $n drops for 4 bodies of 10 MB (want 4 to 60)"
	expect "Reply size \[B\]: header [0-9.]* content 10000000.0 "
	echo "$b: 4 bodies of 10 MB in $n drops"
done

# A server sending a 2 MB body in 100 kB pieces 0.2 s apart (4 s).
cat > "$T_DIR/slow.py" <<'PY'
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(30)
c, _ = s.accept()
c.settimeout(30)
req = b""
while b"\r\n\r\n" not in req:
    d = c.recv(4096)
    if not d:
        sys.exit(0)
    req += d
c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2000000\r\n\r\n")
for i in range(20):
    c.sendall(b"x" * 100000)
    time.sleep(0.2)
time.sleep(1)
c.close()
PY
for b in $(backends); do
	rm -f "$T_DIR/slow.port"
	timeout 40 python3 "$T_DIR/slow.py" "$T_DIR/slow.port" &
	T_PIDS="$T_PIDS $!"
	wait_path -s "$T_DIR/slow.port" "the slow server"
	PORT=$(cat "$T_DIR/slow.port")
	HTTPERF_LOOP=$b hp --num-conns 1 --uri /slow --timeout 1
	expect_rc 0
	expect_counts 1 1 1
	expect_errors 0 0 0 0 0 0 0 0 0
	expect "Reply size \[B\]: header 44.0 content 2000000.0 "
	echo "$b: a 2 MB body over 4 s with --timeout 1: replied"
done
ok "large bodies: a wake-up a megabyte; slow bodies do not time out"
