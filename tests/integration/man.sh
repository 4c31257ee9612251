#!/bin/sh
#
# The man page is the reference for the options, so it must be lint-clean,
# must document, as an .Fl entry, every long option that `httperf --help'
# prints, must not describe in an option entry (.It Fl -name) an option
# that --help does not know, and must have the sections that the option
# entries point to.  --help itself must fit 80 columns and describe, in
# its grouped rows, each option once: those of its synopsis and of the
# page's entries.  Needs HTTPERF (the built binary) and MANPAGE
# (man/httperf.1) in the environment, as automake's test harness sets them.
# Exit status: 0 pass, 1 fail, 77 skip (no formatter to lint with).

fail() {
	echo "man.sh: FAIL: $*" >&2
	exit 1
}

[ -n "$HTTPERF" ] || fail "HTTPERF is not set"
[ -n "$MANPAGE" ] || fail "MANPAGE is not set"
[ -x "$HTTPERF" ] || fail "$HTTPERF is not an executable"
[ -r "$MANPAGE" ] || fail "$MANPAGE is not readable"

# One collation for sort and comm.
LC_ALL=C
export LC_ALL

tmp=$(mktemp -d "${TMPDIR:-/tmp}/man.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# 1. Lint: mandoc at warning level, else groff with all warnings.
if command -v mandoc >/dev/null 2>&1; then
	if ! mandoc -Tlint -Wwarning "$MANPAGE" >"$tmp/lint" 2>&1; then
		cat "$tmp/lint" >&2
		fail "mandoc -Tlint -Wwarning reports problems in $MANPAGE"
	fi
elif command -v groff >/dev/null 2>&1; then
	groff -mdoc -ww -z "$MANPAGE" 2>"$tmp/lint" >/dev/null
	if [ -s "$tmp/lint" ]; then
		cat "$tmp/lint" >&2
		fail "groff -mdoc -ww reports problems in $MANPAGE"
	fi
else
	echo "SKIP: man.sh: neither mandoc nor groff is installed"
	exit 77
fi

# 2. Every long option of --help has an .Fl entry in the page.
"$HTTPERF" --help >"$tmp/help" 2>"$tmp/help.err" ||
	fail "$HTTPERF --help exited with status $?"
tr -c 'a-z0-9-' '\n' <"$tmp/help" | grep '^--[a-z]' | sort -u \
    >"$tmp/opts"
[ -s "$tmp/opts" ] || fail "$HTTPERF --help lists no long options"

missing=
for opt in $(cat "$tmp/opts"); do
	name=${opt#--}
	# ".It Fl -name Ar S", ".Op Fl -name", ".Fl \-name ," ...
	if ! grep -Eq "^\.(.*[[:space:]])?Fl[[:space:]]+(\\\\)?-$name([[:space:]]|\$)" \
	    "$MANPAGE"; then
		missing="$missing $opt"
	fi
done
[ -z "$missing" ] || fail "not documented in $MANPAGE:$missing"

# 3. Every option entry of the page names an option that --help lists.
sed -n 's/^\.It .*Fl -\([a-z0-9][a-z0-9-]*\).*/--\1/p' "$MANPAGE" |
    sort -u >"$tmp/entries"
[ -s "$tmp/entries" ] || fail "$MANPAGE has no option entries"
stale=$(comm -13 "$tmp/opts" "$tmp/entries" | tr '\n' ' ')
[ -z "$stale" ] || fail "documented in $MANPAGE but not in --help: $stale"

# 4. --help fits 80 columns (tabs to the next multiple of 8), and its
# option rows ("  -c, --name ..." or "      --name ...", under the group
# headings) list exactly the options of its synopsis and of the page.
wide=$(expand "$tmp/help" | awk 'length($0) > 80 { print NR": "$0 }')
[ -z "$wide" ] || fail "--help is wider than 80 columns: $wide"
sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z0-9-]*\).*/\2/p' "$tmp/help" |
    sort >"$tmp/rows"
[ -s "$tmp/rows" ] || fail "--help has no option rows"
dup=$(uniq -d "$tmp/rows" | tr '\n' ' ')
[ -z "$dup" ] || fail "--help lists these options twice: $dup"
sed -n '1,/^$/p' "$tmp/help" | tr -c 'a-z0-9-' '\n' | grep '^--[a-z]' |
    sort -u >"$tmp/synopsis"
diff=$(comm -3 "$tmp/synopsis" "$tmp/rows" | tr -d '\t' | tr '\n' ' ')
[ -z "$diff" ] || fail "--help's synopsis and option rows differ: $diff"
diff=$(comm -3 "$tmp/entries" "$tmp/rows" | tr -d '\t' | tr '\n' ' ')
[ -z "$diff" ] || fail "--help's option rows and the page's entries differ: $diff"

# 5. The sections that the option entries refer to with .Sx exist.
for sec in 'OPTIONS' 'OUTPUT' 'SESSION WORKLOADS' 'URI SOURCES' \
    'REQUEST BODIES' 'SOURCE ADDRESSES' 'TRACING' 'TLS' \
    'DIFFERENCES FROM HTTPERF 0.9.0'; do
	grep -qx "\.Sh $sec" "$MANPAGE" || fail "no section '$sec' in $MANPAGE"
done

echo "man.sh: PASS: lint clean, $(wc -l <"$tmp/opts" | tr -d ' ') long" \
    "options documented"
exit 0
