#!/bin/sh
# One httperf on each of several machines, started over ssh by GNU
# parallel (--sshlogin), all starting at the same instant (--start-at),
# each printing its --json on stdout, which parallel brings back; then
# `httperf --merge' of them here.
#
# usage: parallel-ssh.sh -H host1,host2,... [-d DIR] [-s SECONDS] \
#            -- HTTPERF-OPTIONS
#   -H LIST     the client machines, as GNU parallel's --sshlogin takes
#               them ([user@]host, comma separated); one httperf each
#   -d DIR      where the results go (default: ./httperf-run): parallel
#               keeps job K's JSON in DIR/out/1/K/stdout and its report
#               in DIR/out/1/K/stderr; the merge is DIR/merged.json and
#               DIR/merged.txt
#   -s SECONDS  how far ahead the common start is (default 5: ssh logins
#               take time)
# HTTPERF-OPTIONS are the workload of ONE machine.  Job K (PARALLEL_SEQ,
# which parallel exports to the remote command) is client K-1 of N
# (--client auto/N).
#
# The machines' clocks must agree (NTP, chrony: `chronyc tracking') to
# well under the spread you want between their starts: --start-at is a
# wall-clock instant on each machine.  httperf must be in the PATH of
# the remote login shell (or set HTTPERF to its remote path), and ssh
# must log in without a password (keys, an agent).  To test without
# ssh, PARALLEL_SSH can name a command that takes ssh's arguments.
# Before the test, every machine's httperf --version must say 1.0 or
# later, and so must the one that merges here, HTTPERF_LOCAL (default:
# the src/httperf of the source tree this script is in, when built, else
# httperf in PATH): 0.9.0 is refused in one line.
#
# Example:
#   contrib/parallel-ssh.sh -H load1,load2,load3 -- --server www.example.com \
#       --uri / --num-conns 30000 --rate 1000 --timeout 5
set -eu

# shellcheck source=contrib/httperf-check.sh
. "$(dirname "$0")/httperf-check.sh"
hp_tool parallel "parallel"
HTTPERF=${HTTPERF:-httperf}
HTTPERF_LOCAL=${HTTPERF_LOCAL:-$(hp_default)}
hosts=
dir=./httperf-run
ahead=5
while getopts H:d:s: opt; do
	case $opt in
	H) hosts=$OPTARG ;;
	d) dir=$OPTARG ;;
	s) ahead=$OPTARG ;;
	*) echo "usage: $0 -H host1,host2,... [-d DIR] [-s SECONDS] -- HTTPERF-OPTIONS" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ -z "$hosts" ]; then
	echo "$0: -H host1,host2,... is required" >&2
	exit 2
fi
# "1/host": one job slot on each machine, so N jobs are N machines.
n=$(echo "$hosts" | tr ',' '\n' | grep -c .)
logins=$(echo "$hosts" | tr ',' '\n' | grep . | sed 's|^|1/|' | paste -sd, -)
hp_need "$HTTPERF_LOCAL"
# Each machine's httperf, before the common start is set.
# shellcheck disable=SC2016 # the wrapper expands on the remote side
vers=$(parallel --will-cite -q -j 1 -S "$logins" --tag sh -c \
    '"$1" --version 2>&1 || true' sh "$HTTPERF" ::: $(seq "$n") 2>&1) || true
for k in $(seq "$n"); do
	v=$(echo "$vers" | awk -v k="$k" '$1 == k { sub(/^[^\t]*\t/, ""); print; exit }')
	hp_check "$HTTPERF (job $k)" "$v"
done
mkdir -p "$dir"
rm -rf "$dir/out"
start=$(date +%s.%N | awk -v a="$ahead" '{ printf "%.3f", $1 + a }')

# -q: every argument reaches the remote httperf as one word.  The job's
# number {} is the wrapper's $1, dropped: httperf reads PARALLEL_SEQ.
# shellcheck disable=SC2016 # the wrapper expands on the remote side
parallel --will-cite -q -j 1 -S "$logins" --results "$dir/out/" \
    --halt now,fail=1 sh -c 'shift; exec "$@"' sh '{}' \
    "$HTTPERF" "$@" --client "auto/$n" --start-at "$start" --json - \
    ::: $(seq "$n") > /dev/null

"$HTTPERF_LOCAL" --merge "$dir"/out/1/*/stdout \
    --json "$dir/merged.json" | tee "$dir/merged.txt"
