#!/bin/sh
# Bad command lines, table-driven: every option with bad values (missing,
# empty, negative, non-numeric, overflowing, out of range), unknown and
# ambiguous options, conflicts and unreadable files; a URL argument that
# is bad or goes with an option it gives; the options of wrk, ab and hey,
# and --server with a port or a URL, whose message names the httperf
# option to use.  Each must give exactly one line on stderr naming the
# option, and exit status 1.
. "$TESTLIB"

: > "$T_DIR/empty"
mkfifo "$T_DIR/fifo"
n=0
# Each row: the word the message must contain, a tab, the arguments
# (split on spaces; "@" stands for an empty argument, _SPACE_ for a space
# inside one, DIR for the test's directory).
while IFS='	' read -r word args; do
	case $word in ''|'#'*) continue ;; esac
	n=$((n + 1))
	# shellcheck disable=SC2086
	set -- $args
	for a; do
		shift
		case $a in
		@) set -- "$@" "" ;;
		*) set -- "$@" "$(printf '%s' "$a" |
		    sed "s|DIR|$T_DIR|g; s|_SPACE_| |g")" ;;
		esac
	done
	timeout 10 "$HP" "$@" > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf $*"
	expect_rc 1
	[ "$(wc -l < "$OUT.err")" = 1 ] ||
	    fail "not one line on stderr: $(cat "$OUT.err")"
	grep -q -e "$word" "$OUT.err" ||
	    fail "message does not name $word: $(cat "$OUT.err")"
	[ ! -s "$OUT" ] || fail "something on stdout: $(cat "$OUT")"
done <<'TABLE'
--num-conns	--num-conns 0
--num-conns	--num-conns -1
--num-conns	--num-conns abc
--num-conns	--num-conns 99999999999999999999999
--num-conns	--num-conns @
--num-conns	--num-conns
--num-calls	--num-calls 0
--num-calls	--num-calls 1x
--burst-length	--burst-length 0
--burst-length	--burst-length -3
--rate	--rate -1
--rate	--rate abc
--rate	--rate inf
--rate	--rate 1e999
--period	--period x1
--period	--period u1
--period	--period e-1
--period	--period v1,2,3
--period	--period @
--port	--port 0
--port	--port 65536
--port	--port 80x
--client	--client 2/2
--client	--client 1
--client	--client 0/0
--client	--client a/b
--http-version	--http-version 3.0
--http-version	--http-version 1
--timeout	--timeout -1
--timeout	--timeout nan
--think-timeout	--think-timeout -0.5
--runtime	--runtime -1
--timeout	--timeout 2e10
--think-timeout	--think-timeout 1.9e10
--runtime	--runtime 2e10
--period	--period e1e10
--wsess	--wsess 1,1,2e10
--rate	--rate 1e-10
--send-buffer	--send-buffer 0
--send-buffer	--send-buffer 4294967296
--recv-buffer	--recv-buffer -5
--uri	--uri @
--uri	--uri /a_SPACE_b
--server	--server @
--server-name	--server-name @
--method	--method @
--method	--method GE(T
--add-header	--add-header a\
--debug	--debug 99
--debug	-d x
--wsess	--wsess 1,2
--wsess	--wsess 0,1,0
--wsess	--wsess 1,0,0
--wsess	--wsess 1,1,-1
--wsesslog	--wsesslog 1,0
--wsesslog	--wsesslog 0,0,DIR/empty
--wsesslog	--wsesslog 1,x,DIR/empty
--wsesslog	--wsesslog 1,0,DIR/missing
--wsesslog	--wsesslog 1,0,DIR/empty
--max-connections	--max-connections 0 --wsess 1,1,0
--max-piped-calls	--max-piped-calls 0 --wsess 1,1,0
--max-streams	--http2 --max-streams 0
--max-streams	--http2 --max-streams 2147483648
--http2-fallback	--http2 --http2-fallback
--http2	--http2 --proxy 127.0.0.1:3128
--failure-status	--failure-status 700 --wsess 1,1,0
--failure-status	--failure-status 0 --wsess 1,1,0
--session-cookies	--session-cookies
--max-connections	--max-connections 2
--retry-on-failure	--retry-on-failure
--wsess	--wsess 1,1,0 --wsesslog 1,0,DIR/empty
--num-calls	--num-calls 2 --wsess 1,1,0
--burst-length	--burst-length 2 --wsesslog 1,0,DIR/empty
--wlog	--wlog x,DIR/empty
--wlog	--wlog y
--wlog	--wlog y,DIR/missing
--wlog	--wlog y,DIR/empty
--wset	--wset 0,0.5
--wset	--wset 10,1.5
--wset	--wset 10
--wset	--wlog y,DIR/empty --wset 10,0.5
--print-reply	--print-reply=foo
--print-request	--print-request=@
--body-file	--body-file DIR/missing
--body	--body a --body-file DIR/empty
--add-header-file	--add-header-file DIR/missing
--body-file	--body-file /dev/zero
--body-file	--body-file DIR
--body-file	--body-file DIR/fifo
--add-header-file	--add-header-file /dev/zero
--add-header-file	--add-header-file DIR
--add-header-file	--add-header-file DIR/fifo
--wsesslog	--wsesslog 1,0,/dev/zero
--wsesslog	--wsesslog 1,0,DIR
--wsesslog	--wsesslog 1,0,DIR/fifo
--wlog	--wlog y,/dev/zero
--wlog	--wlog n,DIR
--wlog	--wlog y,DIR/fifo
--myaddr	--myaddr @
--myaddr	--myaddr 10.0.0.9-10.0.0.1
--myaddr	--myaddr no-such-host.invalid
--ssl-protocol	--ssl-protocol SSLv3
--ssl-protocol	--ssl-protocol TLSv9
--ssl-ciphers	--ssl-ciphers ALL
--ssl-key	--ssl --ssl-key DIR/empty
--ssl-verify	--ssl --ssl-verify=maybe
--ssl-ciphers	--ssl --ssl-ciphers NO-SUCH-CIPHER
--ssl-ciphersuites	--ssl --ssl-ciphersuites NOPE
--ssl-ca-file	--ssl --ssl-verify --ssl-ca-file DIR/missing
--ssl-certificate	--ssl --ssl-certificate DIR/missing
--tls-server-name	--ssl --tls-server-name abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcdefgh.abcd
--server-name	--ssl --server-name www.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.example
--bogus	--bogus
--serv	--serv x
--ssl-ca	--ssl --ssl-ca x
stray	--num-conns 1 stray
header	--print-reply header
--server	--server no-such-host.invalid
--max-retries	--max-retries 1001 --wsess 1,1,0 --retry-on-failure
--max-retries	--max-retries 2 --wsess 1,1,0
--num-conns	-c 100
--num-conns	-n 1000
--runtime	-d 30s
--runtime	-t 4
--add-header	-H X-A:_SPACE_1
--rate	-R 100
--script	-s x.lua
--script	--script /dev/null --proxy 127.0.0.1:3128
--script-arg	--script-arg x
--port 8080	--server host:8080
--uri	--server http://h:81/x
--port	--port 81 http://127.0.0.1:81/
--ssl	--ssl https://127.0.0.1/
URL	ftp://h/
URL	http://u@h/
URL	http://h:0/
--add-header	--add-header A:_SPACE_1\rB
--add-header	--add-header A:_SPACE_1\aB
TABLE
ok "$n bad command lines: one line naming the option, exit 1"

# A file's content quoted in a message is escaped: no terminal control
# (here ESC, clearing the screen) reaches stderr.
esc=$(printf '\033')
printf '/a think=\033[2J\n' > "$T_DIR/esc.sess"
printf '/a\n/b\033[2J c\n' > "$T_DIR/esc.log"
printf 'X-A: a\033[2J\n' > "$T_DIR/esc.hdr"
for args in "--wsesslog 1,0,$T_DIR/esc.sess" "--wlog y,$T_DIR/esc.log" \
    "--add-header-file $T_DIR/esc.hdr"; do
	# shellcheck disable=SC2086
	timeout 10 "$HP" $args > "$OUT" 2> "$OUT.err"
	RC=$?
	T_LAST="httperf $args"
	expect_rc 1
	[ "$(wc -l < "$OUT.err")" = 1 ] ||
	    fail "not one line on stderr: $(cat "$OUT.err")"
	if grep -q "$esc" "$OUT.err"; then
		fail "a raw ESC on stderr: $(cat -v "$OUT.err")"
	fi
	grep -qF '\x1b[2J' "$OUT.err" ||
	    fail "the quote is not escaped: $(cat -v "$OUT.err")"
done
ok "file content quoted in errors is escaped"
