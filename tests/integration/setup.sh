#!/bin/sh
# The first five minutes: what autogen.sh installs (with apt-get, id,
# dpkg-query and pkg-config faked, so nothing is installed: every package the full
# program and its tests use, libnghttp2-dev, liburing-dev and check
# included, whenever one is missing; not as root, the one apt-get line,
# stopping only when the build cannot go on), that the README's package
# build line names every Build-Depends of debian/control, and that the
# contrib recipes refuse httperf 0.9.0 in one line and otherwise run the
# httperf of this tree.
# shellcheck source=tests/integration/lib.sh
. "$TESTLIB"

SRCDIR=$(cd "$(dirname "$TESTLIB")/../.." && pwd)
FAKE=$T_DIR/fake
mkdir -p "$FAKE/bin" "$FAKE/src"

# Fakes: dpkg-query knows the packages in $FAKE_INSTALLED; apt-cache has
# a candidate for every package but those in $FAKE_NOCAND; apt-get, the
# autotools and configure only log their arguments; id -u is $FAKE_UID.
cat > "$FAKE/bin/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
case " $FAKE_INSTALLED " in
*" $p "*) echo "install ok installed" ;;
*) echo "dpkg-query: no packages found matching $p" >&2; exit 1 ;;
esac
EOF
cat > "$FAKE/bin/apt-cache" <<'EOF'
#!/bin/sh
p=$2
case " $FAKE_NOCAND " in
*" $p "*) printf '%s:\n  Installed: (none)\n  Candidate: (none)\n' "$p" ;;
*) printf '%s:\n  Installed: (none)\n  Candidate: 1.0-1\n' "$p" ;;
esac
EOF
cat > "$FAKE/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >> "$FAKE_LOG"
EOF
cat > "$FAKE/bin/id" <<'EOF'
#!/bin/sh
echo "$FAKE_UID"
EOF
cat > "$FAKE/bin/autoreconf" <<'EOF'
#!/bin/sh
echo "autoreconf $*" >> "$FAKE_LOG"
EOF
# pkg-config knows a module when its package is in $FAKE_INSTALLED, or
# when it is in $FAKE_PC (built by hand, not from a package).
cat > "$FAKE/bin/pkg-config" <<'EOF'
#!/bin/sh
for m; do :; done
case ${m%% *} in
openssl) p=libssl-dev ;;
zlib) p=zlib1g-dev ;;
libnghttp2) p=libnghttp2-dev ;;
liburing) p=liburing-dev ;;
check) p=check ;;
*) exit 1 ;;
esac
case " $FAKE_INSTALLED " in *" $p "*) exit 0 ;; esac
case " ${FAKE_PC:-} " in *" ${m%% *} "*) exit 0 ;; esac
exit 1
EOF
cat > "$FAKE/src/configure" <<'EOF'
#!/bin/sh
echo "configure $*" >> "$FAKE_LOG"
EOF
chmod +x "$FAKE/bin/"* "$FAKE/src/configure"
cp "$SRCDIR/autogen.sh" "$FAKE/src/"

ALL="autoconf automake libtool make gcc pkg-config libssl-dev zlib1g-dev
libnghttp2-dev liburing-dev libluajit-5.1-dev bash-completion check openssl mandoc
nginx-light python3 python3-jsonschema tinyproxy time parallel iproute2
procps util-linux poppler-utils chromium wrk"
ALL=$(echo $ALL)
# all_but PKG...: every package of ALL but the PKGs.
all_but() {
	for p in $ALL; do
		case " $* " in *" $p "*) ;; *) printf '%s ' "$p" ;; esac
	done
}
# autogen UID INSTALLED [NOCAND]: runs the copy of autogen.sh with the
# fakes; its output in $OUT (stdout and stderr), status in $RC, the
# commands it ran in $FAKE_LOG.
autogen() {
	FAKE_LOG=$T_DIR/fake.log
	: > "$FAKE_LOG"
	T_LAST="autogen.sh as uid $1 with: $2"
	FAKE_UID=$1 FAKE_INSTALLED=$2 FAKE_NOCAND=${3:-} FAKE_LOG=$FAKE_LOG \
	    PATH="$FAKE/bin:$PATH" timeout 30 sh "$FAKE/src/autogen.sh" \
	    --quiet > "$OUT" 2>&1
	RC=$?
	cat "$FAKE_LOG" >> "$OUT"
}
# installs: the packages of the log's apt-get install line, sorted.
installs() {
	sed -n 's/^apt-get install -y -qq //p' "$FAKE_LOG" | tr ' ' '\n' |
	    grep . | sort | tr '\n' ' '
}

# As root, with only the optional libraries and Check missing: they
# are installed (before the fix, autogen.sh looked only for the tools
# and installed nothing), after an apt-get update; configure runs.
autogen 0 "$(all_but libnghttp2-dev liburing-dev check)"
expect_rc 0
[ "$(installs)" = "check libnghttp2-dev liburing-dev " ] ||
    fail "apt-get installed '$(installs)', expected check libnghttp2-dev liburing-dev"
expect '^apt-get update'
expect '^configure --quiet$'
ok "root: the missing libnghttp2-dev, liburing-dev and check installed"

# As root, a test tool missing: installed too; nginx-light unknown to
# apt: nginx instead; chromium unknown to apt: named, not installed.
autogen 0 "$(all_but mandoc nginx-light chromium)" "nginx-light chromium"
expect_rc 0
[ "$(installs)" = "mandoc nginx " ] ||
    fail "apt-get installed '$(installs)', expected mandoc nginx"
expect '^autogen.sh: not available from apt here: chromium '
expect '^configure --quiet$'
ok "root: test tools installed, nginx for nginx-light, chromium named"

# Nothing missing: no apt-get at all, not a word.
autogen 0 "$ALL"
expect_rc 0
expect_not '^apt-get|^autogen.sh'
expect '^configure --quiet$'
ok "root, nothing missing: nothing installed"

# Not root, optional pieces missing: the one apt-get line, and the build
# goes on (configure's summary says what each turns off).
autogen 1000 "$(all_but libnghttp2-dev check)"
expect_rc 0
[ ! -s "$FAKE_LOG" ] || grep -v '^apt-get' "$FAKE_LOG" > /dev/null ||
    fail "apt-get ran as a user"
expect_not '^apt-get'
[ "$(grep -c 'apt-get install' "$OUT")" = 1 ] || fail "not one apt-get line"
expect '^  sudo apt-get install -y libnghttp2-dev check$'
expect '^configure --quiet$'
ok "user, optional pieces missing: one apt-get line, configure runs"

# Not root, libssl-dev missing: the line, then a stop before autoreconf.
autogen 1000 "$(all_but libssl-dev mandoc)"
expect_rc 1
expect '^  sudo apt-get install -y libssl-dev mandoc$'
expect '^autogen.sh: cannot build without: libssl-dev$'
expect_not '^(autoreconf|configure) '
ok "user, libssl-dev missing: the apt-get line and a stop"

# OpenSSL built by hand: no libssl-dev, but pkg-config finds openssl.
FAKE_PC=openssl
export FAKE_PC
autogen 1000 "$(all_but libssl-dev)"
unset FAKE_PC
expect_rc 0
expect_not 'apt-get|libssl-dev'
expect '^configure --quiet$'
ok "user, OpenSSL not from a package but found: not asked for"

# The README's package build line installs every Build-Depends of
# debian/control (one of each A | B; debhelper for debhelper-compat).
T_LAST="README against debian/control"
deps=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' "$SRCDIR/debian/control" |
    sed '$d; s/^Build-Depends://' | tr ',' '\n' |
    sed 's/([^)]*)//g; s/debhelper-compat/debhelper/; s/[[:space:]]//g' | grep .)
[ -n "$deps" ] || fail "no Build-Depends in debian/control"
line=$(awk '/apt-get install/ { l = ""; on = 1 }
	on { l = l " " $0; if ($0 !~ /\\$/) { on = 0; last = l } }
	/dpkg-buildpackage/ { print last; exit }' "$SRCDIR/README" | tr -d '\\')
[ -n "$line" ] || fail "no apt-get install line before dpkg-buildpackage in README"
for d in $deps; do
	hit=0
	for a in $(echo "$d" | tr '|' ' '); do
		case " $line " in *" $a "*) hit=1 ;; esac
	done
	[ $hit = 1 ] || fail "README's package build line lacks $d:$line"
done
ok "README's package build line has every Build-Depends"

# contrib: pointed at httperf 0.9.0 (a fake that prints its --version),
# each recipe stops at once with one line saying so.  Fake parallel and
# pdsh, which fail, show that none of them got that far.
mkdir "$FAKE/old"
cat > "$FAKE/old/httperf" <<'EOF'
#!/bin/sh
case $1 in
-V|--version)
	echo "httperf: httperf-0.9.0 compiled without DEBUG without TIME_SYSCALLS."
	exit 0 ;;
esac
echo "httperf: unrecognized option '$1'" >&2
exit 1
EOF
for t in parallel pdsh; do
	printf '#!/bin/sh\necho "%s ran" >&2\nexit 1\n' "$t" > "$FAKE/old/$t"
done
chmod +x "$FAKE/old/"*
for r in "parallel-local.sh -n 2" "parallel-ssh.sh -H a,b" "pdsh.sh -w a,b"; do
	T_LAST="contrib/$r with httperf 0.9.0"
	HTTPERF=$FAKE/old/httperf HTTPERF_LOCAL=$FAKE/old/httperf \
	    PATH="$FAKE/old:$PATH" timeout 30 sh "$SRCDIR/contrib/${r%% *}" \
	    ${r#* } -d "$T_DIR/run" -- --server 127.0.0.1 > "$OUT" 2> "$OUT.err"
	RC=$?
	expect_rc 2
	[ "$(wc -l < "$OUT.err")" = 1 ] && [ ! -s "$OUT" ] ||
	    fail "not one line: $(cat "$OUT.err")"
	grep -q "^${r%% *}: $FAKE/old/httperf is httperf 0\.9\.0, which has no --client, --start-at, --json or --merge" "$OUT.err" ||
	    fail "not the 0.9.0 line: $(cat "$OUT.err")"
	ok "contrib/${r%% *}: httperf 0.9.0 refused in one line"
done

# contrib/parallel-local.sh with no HTTPERF, 0.9.0 first in PATH: in a
# built source tree it runs the src/httperf beside it.
if ! command -v parallel >/dev/null 2>&1 || ! command -v taskset >/dev/null 2>&1; then
	t_skip "GNU parallel or taskset is missing: parallel-local.sh not run"
else
	start_srv
	hpenv=""
	[ -x "$SRCDIR/src/httperf" ] || hpenv=$HTTPERF
	T_LAST="contrib/parallel-local.sh -n 2 (HTTPERF=${hpenv:-unset})"
	(
		[ -n "$hpenv" ] && export HTTPERF="$hpenv" || unset HTTPERF
		PATH="$(dirname "$FAKE/old/httperf"):$PATH"
		# Only the fake httperf: the real parallel and pdsh.
		rm -f "$FAKE/old/parallel" "$FAKE/old/pdsh"
		export PARALLEL_HOME="$T_DIR/parallel"
		timeout 60 sh "$SRCDIR/contrib/parallel-local.sh" -n 2 -s 1 \
		    -d "$T_DIR/run" -- --server 127.0.0.1 --port "$PORT" \
		    --num-conns 10 --rate 20 --uri /size/100
	) > "$OUT" 2> "$OUT.err"
	RC=$?
	expect_rc 0
	expect_counts 20 20 20
	ok "contrib/parallel-local.sh: the httperf of this tree, merged 2 x 10"
fi

# make check: at its start, how many tests and how long; a skip's reason
# on the console, under the harness's SKIP line.
T_LAST="make check-start"
builddir=$(dirname "$(dirname "$HTTPERF")")
"${MAKE:-make}" -s -C "$builddir" check-start TESTS="a b c" > "$OUT" 2>&1 ||
    fail "make check-start failed"
expect '^make check: 3 of [0-9]+ tests; all [0-9]+ take about [0-9]+ minutes'
T_LAST="tests/skip-driver.sh"
printf '#!/bin/sh\necho "SKIP: fake.sh: no frobnicator here"\nexit 77\n' \
    > "$T_DIR/fake.sh"
sh "$SRCDIR/tests/skip-driver.sh" sh "$SRCDIR/build-aux/test-driver" \
    --test-name fake.sh --log-file "$T_DIR/fake.log" \
    --trs-file "$T_DIR/fake.trs" --color-tests no --enable-hard-errors yes \
    --expect-failure no -- sh "$T_DIR/fake.sh" > "$OUT" 2>&1
RC=$?
expect_rc 0
[ "$(cat "$OUT")" = "SKIP: fake.sh
    SKIP: fake.sh: no frobnicator here" ] || fail "the driver printed: $(cat "$OUT")"
ok "make check: the count and time at its start, a skip's reason on the console"
