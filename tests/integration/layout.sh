#!/bin/sh
#
# The rules of the source tree (doc/HACKING), read from the sources alone:
#   - the folders of src/ include each other without a circle, computed
#     from the #include "dir/x.h" lines (x.h alone is the root, src/),
#     and exactly as the map at the top of doc/HACKING draws them;
#   - src/lib/ includes no project header but its own (and config.h);
#     src/net/ nothing of src/core/; src/core/ and src/net/ nothing of
#     src/gen/ or src/stat/; src/gen/ and src/stat/ nothing of each
#     other; no folder of the engine (core, net, gen, stat, lib) anything
#     of the root, src/opt/ or src/report/;
#   - no file in src/ over 800 lines, no function over 80 lines.  A
#     function runs from the line that starts with its name (the type
#     stands on the line before, BSD style) to the next line that is
#     exactly "}".
# The one way past a rule is a line of the exceptions list in doc/HACKING
# ("  lines PATH: why", "  function PATH NAME: why", "  include PATH
# HEADER: why"): a new offender fails, and so does a listed exception
# that no longer offends, so that the list is always exactly the
# offenders of the day.  An excepted include is also left out of the
# folder graph.  Needs TESTLIB (tests/integration/lib.sh in the source
# tree) in the environment, as automake's test harness sets it, or is
# run from its place in the source tree.
# Exit status: 0 pass, 1 fail.

fail() {
	echo "layout.sh: FAIL: $*" >&2
	exit 1
}

if [ -n "$TESTLIB" ]; then
	top=$(dirname "$TESTLIB")/../..
else
	top=$(dirname "$0")/../..
fi
top=$(cd "$top" && pwd) || fail "no source tree"
[ -d "$top/src" ] || fail "$top/src is not a folder"
hacking=$top/doc/HACKING
[ -r "$hacking" ] || fail "$hacking is not readable"

# One collation for sort and comm.
LC_ALL=C
export LC_ALL

tmp=$(mktemp -d "${TMPDIR:-/tmp}/layout.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

MAX_FILE=800
MAX_FUNC=80

cd "$top" || fail "cannot enter $top"
find src -name '*.[ch]' | sort > "$tmp/files"
[ -s "$tmp/files" ] || fail "no sources under $top/src"

# The exceptions: "KIND PATH [NAME]" in $tmp/listed, each with a reason.
grep -E '^  (lines|function|include) ' "$hacking" > "$tmp/exc" || :
bad=$(grep -vE '^  (lines src/[^ :]+|(function|include) src/[^ :]+ [^ :]+): [^ ].*$' \
    "$tmp/exc") && fail "doc/HACKING: an exception must be \"KIND PATH [NAME]: why\": $bad"
sed 's/^  //; s/:.*//' "$tmp/exc" | sort > "$tmp/listed"
dup=$(uniq -d "$tmp/listed") && [ -n "$dup" ] && fail "doc/HACKING: listed twice: $dup"

# Lines of each file: "lines PATH N".
while read -r f; do
	n=$(wc -l < "$f")
	[ "$n" -gt "$MAX_FILE" ] && echo "lines $f $n"
done < "$tmp/files" > "$tmp/found"

# Functions: "function PATH NAME N" for each over MAX_FUNC; the count of
# all in $tmp/nfunc.
while read -r f; do
	awk -v f="$f" -v max="$MAX_FUNC" '
	/^[a-z_][a-z0-9_]*\(/ && prev ~ /^[A-Za-z_]/ && prev !~ /[;,{}]$/ {
		name = $0; sub(/\(.*/, "", name)
		start = NR; cand = 1; body = ($0 ~ /\{$/)
		prev = $0; next
	}
	cand && !body && /;$/ { cand = 0 }		# a declaration
	cand && !body && /^\{$/ { body = 1 }
	cand && body && /^}$/ {
		n = NR - start + 1
		print "count"
		if (n > max) print "function " f " " name " " n
		cand = 0
	}
	{ prev = $0 }' "$f"
done < "$tmp/files" > "$tmp/funcs"
nfunc=$(grep -c '^count$' "$tmp/funcs")
# The measure must see the functions there are, or it checks nothing.
[ "$nfunc" -ge 500 ] || fail "the function measure found only $nfunc functions in src/"
grep '^function ' "$tmp/funcs" | sort -u >> "$tmp/found"

# Includes: "FROMDIR TODIR PATH HEADER" for every quoted include of a
# file of src/ (config.h is made by configure and stands outside).
folder() {
	case $1 in
	*/*) echo "src/${1%%/*}" ;;
	*) echo src ;;
	esac
}
while read -r f; do
	from=$(folder "${f#src/}")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r h; do
		[ "$h" = config.h ] && continue
		[ -f "src/$h" ] || { echo "UNRESOLVED $f $h"; continue; }
		echo "$from $(folder "$h") $f $h"
	done
done < "$tmp/files" > "$tmp/incs"
un=$(grep '^UNRESOLVED ' "$tmp/incs") && fail "an include that is no path from src/: $un"
[ -s "$tmp/incs" ] || fail "no includes found in src/"

# The forbidden arrows: "include PATH HEADER FROMDIR->TODIR".
awk '
function no(from, to) {
	if (from == "src/lib") return to != "src/lib"
	if (from == "src/net" && to == "src/core") return 1
	if ((from == "src/core" || from == "src/net") &&
	    (to == "src/gen" || to == "src/stat")) return 1
	if (from == "src/gen" && to == "src/stat") return 1
	if (from == "src/stat" && to == "src/gen") return 1
	if (from ~ /^src\/(core|net|gen|stat|lib)$/ &&
	    (to == "src" || to == "src/opt" || to == "src/report")) return 1
	return 0
}
no($1, $2) { print "include " $3 " " $4 " " $1 "->" $2 }' "$tmp/incs" >> "$tmp/found"

# Offences against the list.
awk '{ print $1, $2 ($1 == "lines" ? "" : " " $3) }' "$tmp/found" | sort -u > "$tmp/keys"
fails=0
for k in $(comm -23 "$tmp/keys" "$tmp/listed" | tr ' ' '|'); do
	k=$(echo "$k" | tr '|' ' ')
	d=$(awk -v k="$k" '{ key = $1 " " $2 ($1 == "lines" ? "" : " " $3) }
	    key == k { print; exit }' "$tmp/found")
	case $k in
	lines*) echo "layout.sh: ${d#lines }: a file over $MAX_FILE lines" >&2 ;;
	function*) echo "layout.sh: ${d#function }: a function over $MAX_FUNC lines" >&2 ;;
	include*) echo "$d" | awk '{ sub(/->/, " -> ", $4)
		    print "layout.sh: " $2 " includes " $3 " (" $4 "): an arrow the rules forbid" }' >&2 ;;
	esac
	fails=$((fails + 1))
done
for k in $(comm -13 "$tmp/keys" "$tmp/listed" | tr ' ' '|'); do
	k=$(echo "$k" | tr '|' ' ')
	echo "layout.sh: doc/HACKING lists \"$k\", which keeps the rules now: take it off the list" >&2
	fails=$((fails + 1))
done
[ "$fails" -eq 0 ] || fail "$fails offence(s); split the code, or list it with a reason in doc/HACKING"

# The folder graph without the listed includes: no circle (tsort says
# which folders make one).
grep '^include ' "$tmp/listed" | awk '{ print $2, $3 }' > "$tmp/waived"
awk -v waived="$tmp/waived" '
    BEGIN { while ((getline l < waived) > 0) w[l] = 1 }
    !(($3 " " $4) in w) { print $1, $2 }' "$tmp/incs" |
    sort -u > "$tmp/graph"
if ! tsort "$tmp/graph" > /dev/null 2> "$tmp/tsort" || [ -s "$tmp/tsort" ]; then
	fail "a circle between folders: $(sed -n 's/^tsort: \(src[^ ]*\)$/\1/p' \
	    "$tmp/tsort" | tr '\n' ' ')($(grep -c . "$tmp/tsort") line(s) from tsort)"
fi

# The map in doc/HACKING: its folders in order, each with its arrows on
# a line "-> B/ C/ ..." below it.  It must draw exactly the arrows of the
# code, each pointing down its list, and name every folder.
awk '
function dir(w) { return w == "src/" ? "src" : "src/" substr(w, 1, length(w) - 1) }
/^The folders of src\// { inmap = 1; next }
inmap && /^$/ { exit }
inmap && /^  [a-z]+\/ / { cur = dir($1); print "folder", ++n, cur; next }
inmap && /^ +-> / {
	for (i = 2; i <= NF && $i ~ /\/$/; i++) print "arrow", cur, dir($i)
}' "$hacking" > "$tmp/map"
grep -q '^folder ' "$tmp/map" || fail "doc/HACKING: no map (\"The folders of src/\")"
awk '$1 == "arrow" { print $2, $3 }' "$tmp/map" | sort -u > "$tmp/drawn"
awk '$1 != $2' "$tmp/graph" > "$tmp/arrows"
comm -13 "$tmp/drawn" "$tmp/arrows" | sed 's/ / -> /' > "$tmp/undrawn"
comm -23 "$tmp/drawn" "$tmp/arrows" | sed 's/ / -> /' > "$tmp/notfound"
[ -s "$tmp/undrawn" ] && fail "doc/HACKING's map does not draw the code's $(tr '\n' ';' < "$tmp/undrawn")"
[ -s "$tmp/notfound" ] && fail "doc/HACKING's map draws $(tr '\n' ';' < "$tmp/notfound") which the code does not have"
sed 's|/[^/]*$||' "$tmp/files" | sort -u > "$tmp/dirs"
awk '$1 == "folder" { print $3 }' "$tmp/map" | sort > "$tmp/mapped"
miss=$(comm -23 "$tmp/dirs" "$tmp/mapped" | tr '\n' ' ')
[ -z "$miss" ] || fail "doc/HACKING's map does not name $miss"
up=$(awk '$1 == "folder" { at[$3] = $2; next }
    $1 == "arrow" { from[++n] = $2; to[n] = $3 }
    END { for (i = 1; i <= n; i++) if (at[to[i]] <= at[from[i]])
	printf "%s -> %s; ", from[i], to[i] }' "$tmp/map")
[ -z "$up" ] || fail "doc/HACKING's map has arrows that do not point down its list: $up"

echo "layout.sh: $(wc -l < "$tmp/files") files, $nfunc functions," \
    "$(awk '$1 != $2' "$tmp/graph" | wc -l) arrows between folders:" \
    "$(awk '$1 != $2 { printf "%s%s -> %s", s, $1, $2; s = ", " }' "$tmp/graph");" \
    "$(wc -l < "$tmp/listed") exception(s) listed in doc/HACKING"
exit 0
