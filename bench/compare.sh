#!/bin/sh
#
# bench/compare.sh -- before/after evidence for a change that must not be
# seen: runs the same fixed set of runs with two httperf binaries and
# compares what they print.
#
# USAGE
#   bench/compare.sh [-k] [-v] OLD_HTTPERF NEW_HTTPERF
#     -k   keep the work directory (every output, masked and raw)
#     -v   print the first lines of the diff of each case that differs
#   Environment: TESTSRV (default <tree>/tests/fixture/testsrv, built with
#   `make tests/fixture/testsrv' in the tree when missing).
#
# WHAT IT DOES
#   Starts the fixture server (tests/fixture/testsrv, on a free loopback
#   port, through tests/integration/lib.sh's start_srv), and a second one
#   over TLS with a certificate made here (openssl), and nginx for
#   HTTP/2 (h2c) when it is there with its http_v2_module (lib.sh's
#   nginx_start), then runs each case
#   below with the old binary and with the new one, one after the other.
#   Both run as the same path (a symbolic link moved from one to the
#   other) and write their files to the same paths, so that the command
#   lines they echo are the same.  Each run is bounded by `timeout' and
#   by its counts; all of them take well under a minute.
#   Of each run it keeps standard output and error, the files it wrote
#   (--json, --html) and its exit status, masks the numbers (every run of
#   digits becomes N, a run of Ns with only spaces and punctuation
#   between them one N, a base64 text (an encoded histogram) BASE64,
#   and a repeated SVG element or line one: the number of samples, plot
#   points, axis ticks and periodic lines depends on the clock), and
#   compares the old run's with the new run's.  The exit status is
#   compared as it is.
#   Prints one line a case, "CASE: same" or "CASE: DIFFERS (what)", then
#   a summary line.
#
# EXIT STATUS
#   0 every case the same, 1 a case differs, 2 the comparison could not
#   run (a binary or the fixture missing, the fixture did not start).
#
set -u

KEEP=0
VERBOSE=0
while getopts kvh opt; do
	case $opt in
	k) KEEP=1 ;;
	v) VERBOSE=1 ;;
	*) sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ]; then
	echo "usage: bench/compare.sh [-k] [-v] OLD_HTTPERF NEW_HTTPERF" >&2
	exit 2
fi

TREE=$(cd "$(dirname "$0")/.." && pwd)
abs() {
	[ -x "$1" ] && [ -f "$1" ] || { echo "compare.sh: $1: not an executable" >&2; exit 2; }
	echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}
C_OLD=$(abs "$1") || exit 2
C_NEW=$(abs "$2") || exit 2
TESTSRV=${TESTSRV:-$TREE/tests/fixture/testsrv}
if [ ! -x "$TESTSRV" ] && [ -f "$TREE/Makefile" ]; then
	make -C "$TREE" tests/fixture/testsrv >/dev/null 2>&1
fi
[ -x "$TESTSRV" ] || { echo "compare.sh: no fixture server at $TESTSRV" >&2; exit 2; }

# lib.sh: the work directory T_DIR (removed on exit, with the servers
# stopped), start_srv, the $HP wrapper.  HTTPERF is the link that points
# at the binary of the moment.
TESTLIB=$TREE/tests/integration/lib.sh
HTTPERF=/nonexistent
export TESTLIB TESTSRV HTTPERF
. "$TESTLIB"
fail() {
	echo "compare.sh: $*" >&2
	exit 2
}
if [ "$KEEP" = 1 ]; then
	trap 'for p in $T_PIDS; do kill "$p" 2>/dev/null; done
	    echo "work directory kept: $T_DIR" >&2' EXIT
fi
mkdir "$T_DIR/bin" "$T_DIR/run" "$T_DIR/old" "$T_DIR/new" "$T_DIR/in"
HTTPERF=$T_DIR/bin/httperf
export HTTPERF

# The inputs: a session file, a URI list, a certificate.
cat > "$T_DIR/in/site.sess" <<'SESS'
# a page and its images, then a form
/size/100 think=0.05
	/size/10
	/size/20
/echo-body method=POST contents="name=x" think=0.05

/size/5 method=HEAD
SESS
printf '/size/10\0/size/20\0/status/404\0/size/30\0' > "$T_DIR/in/uris"
HAVE_TLS=0
if command -v openssl > /dev/null 2>&1 &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$T_DIR/in/key.pem" -out "$T_DIR/in/cert.pem" -days 2 \
    -subj /CN=localhost 2>/dev/null; then
	HAVE_TLS=1
fi

# The servers: plain, then TLS (PORT is the plain one's).
if [ "$HAVE_TLS" = 1 ]; then
	start_srv -s "$T_DIR/in/cert.pem" -k "$T_DIR/in/key.pem"
	TLS_PORT=$PORT
fi
start_srv

# mask FILE: the file with its numbers masked (see the top).
mask() {
	sed -E 's/[A-Za-z0-9+\/]{24,}={0,2}/BASE64/g
	    s/[0-9]+/N/g; s/N([ ,.:;\/()%x*^=+-]*N)+/N/g
	    s/(<[a-z]+[^<>]*>[^<>]*<\/[a-z]+>)\1+/\1/g
	    s/(<[^<>]*\/>)\1+/\1/g' "$1" | uniq
}

CASES=""
DIFFS=0
TRIES=3
# run_pair NAME ARGS...: one run of each binary, then sets c_what to the
# outputs that differ (empty: none).
run_pair() {
	c_name=$1
	shift
	rm -rf "$T_DIR/old/$c_name" "$T_DIR/new/$c_name"
	for c_who in old new; do
		eval "ln -sfn \"\$C_$(echo $c_who | tr a-z A-Z)\" \"\$HTTPERF\""
		rm -rf "$T_DIR/run"
		mkdir "$T_DIR/run"
		c_args=$(printf '%s\n' "$@" | sed "s|@|$T_DIR/run|g")
		# One argument a line: none of ours holds a newline.
		(
			set -f
			IFS='
'
			# shellcheck disable=SC2086
			cd "$T_DIR/run" && exec timeout 30 "$HP" $c_args
		) > "$T_DIR/run.out" 2> "$T_DIR/run.err"
		c_rc=$?
		c_res=$T_DIR/$c_who/$c_name
		mkdir "$c_res"
		mv "$T_DIR/run.out" "$c_res/stdout"
		mv "$T_DIR/run.err" "$c_res/stderr"
		for c_f in "$T_DIR"/run/*; do
			[ -f "$c_f" ] && mv "$c_f" "$c_res/file.${c_f##*/}"
		done
		echo "$c_rc" > "$c_res/status"
		for c_f in "$c_res"/stdout "$c_res"/stderr "$c_res"/file.*; do
			[ -f "$c_f" ] && mask "$c_f" > "$c_f.masked"
		done
	done
	c_what=""
	for c_f in "$T_DIR/old/$c_name"/* "$T_DIR/new/$c_name"/*; do
		c_f=${c_f##*/}
		case $c_f in
		*.masked|status) ;;
		*) c_f=$c_f.masked ;;
		esac
		case " $c_what " in *" ${c_f%.masked} "*) continue ;; esac
		cmp -s "$T_DIR/old/$c_name/$c_f" "$T_DIR/new/$c_name/$c_f" ||
		    c_what="$c_what ${c_f%.masked}"
	done
}

# run_case NAME ARGS...: runs the pair (against the plain fixture unless
# ARGS set --port; `@' in ARGS stands for the run's directory) and says
# whether they differ.  The clock can still change what is printed (a
# loaded machine makes the client late, and it warns so): a pair that
# differs runs again, up to TRIES times, and the case differs only when
# every pair did; the line says which try agreed.
run_case() {
	CASES="$CASES $1"
	c_try=1
	while :; do
		run_pair "$@"
		[ -n "$c_what" ] && [ $c_try -lt $TRIES ] || break
		c_try=$((c_try + 1))
	done
	if [ -z "$c_what" ]; then
		if [ $c_try = 1 ]; then
			echo "$1: same"
		else
			echo "$1: same (at try $c_try)"
		fi
		return
	fi
	echo "$1: DIFFERS (${c_what# })"
	DIFFS=$((DIFFS + 1))
	[ "$VERBOSE" = 1 ] || return
	for c_f in $c_what; do
		[ "$c_f" = status ] && c_f=status || c_f=$c_f.masked
		diff "$T_DIR/old/$1/$c_f" "$T_DIR/new/$1/$c_f" 2>&1 |
		    head -n 20 | sed 's/^/    /'
	done
}

S="--server 127.0.0.1 --port $PORT"
run_case plain $S --num-conns 5 --uri /size/100
run_case calls-burst $S --num-conns 3 --num-calls 6 --burst-length 3 --uri /size/10
run_case rate-period-e $S --num-conns 6 --rate 50 --period e0.02 --uri /size/10
run_case interval $S --num-conns 4 --rate 2 --interval 1 --uri /size/10
run_case wsess $S --wsess 3,3,0.05 --rate 20 --uri /size/10
run_case wsesslog $S --wsesslog 3,0.02,"$T_DIR/in/site.sess" --rate 20
run_case wlog $S --num-conns 6 --wlog "y,$T_DIR/in/uris"
run_case wset $S --num-conns 6 --wset 10,0.5
if [ "$HAVE_TLS" = 1 ]; then
	run_case ssl --server 127.0.0.1 --port "$TLS_PORT" --ssl --num-conns 3 \
	    --num-calls 2 --uri /size/10
else
	echo "ssl: not run (no openssl to make a certificate)"
fi
# HTTP/2 proper against nginx (h2c), when it has the module.
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ -x "$NGINX" ] && "$NGINX" -V 2>&1 | grep -q http_v2_module; then
	free_ports 1
	H2_PORT=$PORTS
	ln -sfn "$C_NEW" "$HTTPERF"
	nginx_start "$T_DIR/nginx" '' --server 127.0.0.1 --port "$H2_PORT" \
	    --http2 --uri /1k.html <<CONF
	server {
		listen 127.0.0.1:$H2_PORT http2;
		root $T_DIR/nginx/html;
	}
CONF
	run_case http2 --server 127.0.0.1 --port "$H2_PORT" --http2 \
	    --num-conns 3 --num-calls 4 --uri /1k.html
else
	echo "http2: not run (no nginx with http_v2_module)"
fi
# The fixture speaks HTTP/1.1 only: --http2 there is the refused
# preface, an error on every connection (or the refusal of a build
# without libnghttp2, the same for both binaries if built alike).
run_case http2-refused $S --num-conns 2 --http2 --timeout 1
run_case json $S --num-conns 5 --num-calls 2 --uri /size/10 --json @/r.json
run_case html $S --num-conns 5 --num-calls 2 --rate 10 --uri /size/10 \
    --html @/r.html
# Two clients' halves then their merge: the halves stay in $T_DIR/in.
for c_i in 0 1; do
	run_case client-$c_i $S --num-conns 6 --num-calls 2 --uri /size/10 \
	    --client $c_i/2 --json @/c.json
	for c_who in old new; do
		cp "$T_DIR/$c_who/client-$c_i/file.c.json" "$T_DIR/in/$c_who.c$c_i.json"
	done
done
HP_SAVED=$HP
# The merge reads the halves the same binary wrote, from the same paths
# for both: run_case runs old then new, and a wrapper in front of $HP
# copies the halves of the binary the link points at into place.
cat > "$T_DIR/bin/merge" <<EOF
#!/bin/sh
case \$(readlink "$T_DIR/bin/httperf") in
"$C_OLD") w=old ;;
*) w=new ;;
esac
cp "$T_DIR/in/\$w.c0.json" "$T_DIR/in/c0.json" &&
cp "$T_DIR/in/\$w.c1.json" "$T_DIR/in/c1.json" &&
exec "$HP_SAVED" "\$@"
EOF
chmod +x "$T_DIR/bin/merge"
HP=$T_DIR/bin/merge
run_case merge --merge "$T_DIR/in/c0.json" "$T_DIR/in/c1.json" \
    --json @/m.json --html @/m.html
HP=$HP_SAVED
run_case fault-reset $S --num-conns 3 --uri /reset
run_case fault-status $S --num-conns 3 --num-calls 2 --uri /status/503
run_case fault-garbage $S --num-conns 2 --uri /garbage
run_case fault-hang $S --num-conns 2 --uri /hang --timeout 0.3
run_case fault-refused --server 127.0.0.1 --port 1 --num-conns 2
run_case print $S --num-conns 1 --num-calls 2 --uri /size/20 --print-reply \
    --print-request
run_case verbose $S --num-conns 3 --rate 20 --uri /size/10 -v
run_case help --help
run_case usage-error $S --num-conns x

n=$(echo $CASES | wc -w)
if [ "$DIFFS" -eq 0 ]; then
	echo "all $n cases the same"
	exit 0
fi
echo "$DIFFS of $n cases differ"
exit 1
