#!/bin/sh
# The LOG_DRIVER of `make check': automake's test-driver (the first two
# arguments: the shell and its path), then, when the test skipped, the
# reasons it gave (the "SKIP: TEST: REASON" lines of its log) printed on
# the console under the harness's own SKIP line, so that a skip is seen
# without opening the .log file.
sh=$1
driver=$2
shift 2
log=""
trs=""
prev=""
for a in "$@"; do
	case $prev in
	--log-file) log=$a ;;
	--trs-file) trs=$a ;;
	esac
	prev=$a
done
rc=0
"$sh" "$driver" "$@" || rc=$?
if [ -n "$trs" ] && grep -q '^:test-result: SKIP' "$trs" 2>/dev/null; then
	if ! grep -h '^SKIP: ' "$log" 2>/dev/null | sed 's/^/    /'; then
		echo "    SKIP: ${log%.log}: no reason given"
	fi
fi
exit $rc
