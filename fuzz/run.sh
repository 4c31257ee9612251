#!/bin/sh
#
# Runs every built libFuzzer target for a while on a copy of its seed
# corpus, so that the source tree stays clean.
#
# usage: run.sh [DIR [SECONDS]]
#   DIR      where the fuzz_* programs are (default: fuzz, in the build tree)
#   SECONDS  time per target (default: 60)
#
# Prints "fuzz_NAME: N runs clean" per target.  When a target crashes,
# leaks or times out, prints the tail of its log and where its reproducer
# was kept, and the script exits 1 once every target has run.  The seeds
# of fuzz_NAME are in corpus/NAME next to this script.

dir=${1:-fuzz}
secs=${2:-60}
here=$(dirname "$0")
corpus=$here/corpus

case $secs in
'' | *[!0-9]*)
	echo "run.sh: SECONDS must be a whole number: $secs" >&2
	exit 2
	;;
esac
if [ ! -d "$dir" ]; then
	echo "run.sh: $dir: no such directory" >&2
	exit 2
fi

work=${TMPDIR:-/tmp}/httperf-fuzz.$$
if ! mkdir "$work"; then
	echo "run.sh: cannot create $work" >&2
	exit 2
fi

status=0
found=0
for bin in "$dir"/fuzz_*; do
	# Only the programs: not fuzz_*.c, fuzz_*.o or dependency files.
	case $bin in
	*.*) continue ;;
	esac
	if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
		continue
	fi
	found=$((found + 1))
	name=${bin##*/}
	seeds=$corpus/${name#fuzz_}
	mkdir "$work/$name" "$work/$name/corpus" || exit 2
	if [ -d "$seeds" ]; then
		cp "$seeds"/* "$work/$name/corpus/" 2>/dev/null
	fi
	log=$work/$name/log
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix="$work/$name/" "$work/$name/corpus" \
	    >"$log" 2>&1; then
		runs=$(sed -n 's/^Done \([0-9][0-9]*\) runs.*/\1/p' "$log" |
		    tail -n 1)
		if [ -n "$runs" ]; then
			echo "$name: $runs runs clean"
			rm -rf "${work:?}/$name"
			continue
		fi
		echo "$name: no \"Done N runs\" line in its output"
	else
		echo "$name: FAILED"
	fi
	tail -n 60 "$log"
	echo "$name: log and reproducer kept in $work/$name"
	status=1
done

if [ "$found" -eq 0 ]; then
	echo "run.sh: no fuzz_* programs in $dir" >&2
	status=2
fi
# Keep the work directory only when it holds a failure.
rmdir "$work" 2>/dev/null
exit $status
