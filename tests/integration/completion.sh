#!/bin/sh
#
# The bash completion script (completion/httperf): it offers exactly the
# long options `httperf --help' lists, completes --num-c to --num-calls
# and --num-conns, and completes file names for the options that take
# files, after the "y," of --wlog and the "N,X," of --wsesslog, for
# --html (also among --merge's files) and for the arguments of --merge.  Runs bash with only the script loaded (no
# bash-completion), calling its function as bash would.  Needs HTTPERF
# and COMPLETION in the environment, as automake's test harness sets them.
# Exit status: 0 pass, 1 fail, 77 skip (no bash).

fail() {
	echo "completion.sh: FAIL: $*" >&2
	exit 1
}

[ -n "$HTTPERF" ] || fail "HTTPERF is not set"
[ -n "$COMPLETION" ] || fail "COMPLETION is not set"
[ -r "$COMPLETION" ] || fail "$COMPLETION is not readable"
if ! command -v bash >/dev/null 2>&1; then
	echo "SKIP: completion.sh: no bash"
	exit 77
fi

LC_ALL=C
export LC_ALL

tmp=$(mktemp -d "${TMPDIR:-/tmp}/completion.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# comp WORD...: the completions, one a line, sorted, of the last WORD
# (the one under the cursor) on the command line WORD..., run in $tmp.
comp() {
	(cd "$tmp/files" && bash --norc --noprofile -c '
		. "$1" || exit 2
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_httperf || exit 3
		for w in "${COMPREPLY[@]}"; do
			printf "%s\n" "$w"
		done' completion "$COMPLETION" "$@") | sort ||
		fail "bash failed to complete: $*"
}

# expect "WANT" WORD...: the completions of WORD... are exactly WANT
# (space-separated).
expect() {
	want=$1
	shift
	got=$(comp "$@" | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] ||
		fail "completing '$*': got '$got', want '$want'"
}

mkdir "$tmp/files" "$tmp/files/certs" || fail "mkdir failed"
: >"$tmp/files/access.log"
: >"$tmp/files/sessions.txt"
: >"$tmp/files/run1.json"
: >"$tmp/files/run2.json"

# 1. The option names: exactly those --help lists in its option rows.
"$HTTPERF" --help >"$tmp/help" || fail "$HTTPERF --help failed"
sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z0-9-]*\).*/\2/p' "$tmp/help" |
    sort -u >"$tmp/help.opts"
[ "$(wc -l <"$tmp/help.opts")" -gt 50 ] ||
	fail "--help lists too few options: $(cat "$tmp/help.opts")"
comp httperf -- >"$tmp/comp.opts"
[ -s "$tmp/comp.opts" ] || fail "no completion for '--'"
missing=$(comm -23 "$tmp/help.opts" "$tmp/comp.opts" | tr '\n' ' ')
[ -z "$missing" ] || fail "options of --help not completed: $missing"
extra=$(comm -13 "$tmp/help.opts" "$tmp/comp.opts" | tr '\n' ' ')
[ -z "$extra" ] || fail "completed options that --help does not list: $extra"

# 2. Option prefixes.
expect "--num-calls --num-conns" httperf --num-c
expect "--num-calls --num-conns" httperf --server h --num-c
expect "--wsess --wsesslog --wsesspage" httperf --wsess
expect "--help --hlog --hog --html --http-version --http2 --http2-fallback" httperf --h

# 3. File arguments, separate or after '=' (bash splits the word there).
expect "access.log" httperf --body-file acc
expect "access.log" httperf --add-header-file acc
expect "run1.json run2.json" httperf --json ru
expect "run1.json run2.json" httperf --json = ru
expect "access.log" httperf --hlog = a
expect "access.log" httperf --ssl-key a
expect "access.log" httperf --ssl-certificate a
expect "access.log" httperf --ssl-ca-file a
expect "certs" httperf --ssl-ca-path c
expect "y," httperf --wlog y
expect "y,access.log" httperf --wlog y,a
expect "n,access.log" httperf --wlog = n,a
expect "10,0.5,sessions.txt" httperf --wsesslog 10,0.5,s
expect "" httperf --wsesslog 10,s
expect "run1.json run2.json" httperf --merge ru
expect "run1.json run2.json" httperf --merge run1.json ru
expect "run1.json run2.json" httperf --merg --json out.json ru
# --html FILE: a file, on its own, after '=' and after --merge's files
# (where a word that is no option's value is a file anyway: the option
# must complete files also with no --merge, and options after it).
expect "run1.json run2.json" httperf --html ru
expect "run1.json run2.json" httperf --html = ru
expect "access.log" httperf --server h --html a
expect "run1.json run2.json" httperf --merge run1.json run2.json --html ru
expect "run1.json run2.json" httperf --merge run1.json --html = ru
expect "--help --hlog --hog --html --http-version --http2 --http2-fallback" \
    httperf --merge run1.json --h
expect "run1.json run2.json" httperf --merge run1.json --html out.html ru
# Nothing for options whose value is the user's, nor for a stray word.
expect "" httperf --rate a
expect "" httperf --uri a
expect "" httperf a

# 4. Fixed words.
expect "1.0 1.1 2" httperf --http-version ""
expect "header" httperf --print-reply = h
expect "TLSv1.0 TLSv1.1 TLSv1.2 TLSv1.3" httperf --ssl-protocol TLSv1.
expect "yes" httperf --ssl-verify = y

echo "completion.sh: PASS: $(wc -l <"$tmp/help.opts" | tr -d ' ') options" \
    "completed, files and words"
exit 0
