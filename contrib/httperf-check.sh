# Sourced by the recipes beside it: which httperf to run, and a check
# that it is this httperf, not 0.9.0 (Debian's `httperf' package before
# this one), which has none of --client, --start-at, --json or --merge
# and would fail in the middle of the launcher's output.

# hp_tool PROGRAM PACKAGE: stops the recipe with one line when PROGRAM,
# which it needs, is not installed.
hp_tool() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "${0##*/}: $1 is not installed (Debian: apt-get install $2)" >&2
	exit 2
}

# hp_default: the httperf to run here when HTTPERF is not set: the one
# beside the recipe in a built source tree (contrib/../src/httperf), else
# httperf in the PATH (installed, the recipes are in share/doc).
hp_default() {
	hp_d=$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)
	if [ -n "$hp_d" ] && [ -x "$hp_d/src/httperf" ]; then
		echo "$hp_d/src/httperf"
	else
		echo httperf
	fi
}

# hp_check WHAT OUTPUT: OUTPUT is what `WHAT --version' printed; stops
# the recipe with one line unless it is httperf 1.0 or later.
hp_check() {
	case $2 in
	*"httperf: httperf-"[1-9]*)
		return 0 ;;
	*"httperf: httperf-0."*)
		hp_v=$(echo "$2" | sed -n 's/.*httperf: httperf-\(0[.0-9]*\).*/\1/p' | head -n 1)
		echo "${0##*/}: $1 is httperf $hp_v, which has no --client, --start-at, --json or --merge: set HTTPERF to httperf 1.0 or later (src/httperf of this tree)" >&2 ;;
	*)
		echo "${0##*/}: $1 --version does not print httperf 1.0 or later: $(echo "$2" | head -n 1)" >&2 ;;
	esac
	exit 2
}

# hp_need HTTPERF: hp_check of the httperf that runs here.
hp_need() {
	hp_check "$1" "$("$1" --version 2>&1 || true)"
}
