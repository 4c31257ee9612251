#!/bin/sh
#
# bench/html-compare.sh -- is the --html page of a change byte-identical?
#
#   bench/html-compare.sh OLD_HTTPERF NEW_HTTPERF DOC...
#
# Renders each saved --json document DOC with both programs (httperf
# --merge DOC --html: a page drawn from the document alone, so nothing
# of a run's timing enters it) and compares the pages byte for byte.  A
# DOC of several files joined by commas (c0.json,c1.json) is rendered as
# their merge.  Prints "same NAME" or "DIFFERENT NAME" and the first
# differing lines; exits 1 when a page differs or a program fails.
# Documents: any run with --json FILE (tests/integration/html.sh makes
# some in its T_DIR; keep a set of runs with errors, --rate, --wsess,
# --ssl and --client I/N made by the OLD program).
set -u
[ $# -ge 3 ] || { sed -n '5p' "$0" >&2; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
rc=0
for d in "$@"; do
	# shellcheck disable=SC2046
	set -- $(echo "$d" | tr ',' ' ')
	if ! "$old" --merge "$@" --html "$tmp/old.html" > "$tmp/out" 2>&1 ||
	    ! "$new" --merge "$@" --html "$tmp/new.html" > "$tmp/out" 2>&1; then
		echo "FAILED $d: $(tail -n 1 "$tmp/out")"
		rc=1
	elif cmp -s "$tmp/old.html" "$tmp/new.html"; then
		echo "same $d ($(wc -c < "$tmp/new.html") bytes)"
	else
		echo "DIFFERENT $d:"
		diff "$tmp/old.html" "$tmp/new.html" | head -n 8 | cut -c1-200
		rc=1
	fi
done
exit $rc
