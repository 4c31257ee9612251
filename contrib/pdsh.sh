#!/bin/sh
# One httperf on each of several machines, started by pdsh, all starting
# at the same instant (--start-at), each printing its --json on stdout;
# pdsh prefixes every line with its host, which splits them again here;
# then `httperf --merge' of them.
#
# usage: pdsh.sh -w HOSTS [-d DIR] [-s SECONDS] -- HTTPERF-OPTIONS
#   -w HOSTS    the client machines, as pdsh takes them (load[1-8],other)
#   -d DIR      where the results go (default: ./httperf-run): HOST.json
#               and HOST.txt (its report) for each machine, the merge in
#               merged.json and merged.txt
#   -s SECONDS  how far ahead the common start is (default 5)
# HTTPERF-OPTIONS are the workload of ONE machine.
#
# pdsh sets no rank variable in the remote environment (PSSH_NODENUM is
# parallel-ssh's, not pdsh's), so --client auto cannot work here.
# Instead this script uses pdsh's exec module, which replaces %n by the
# host's rank (0 .. N-1) and %h by its name on the local command line,
# runs `ssh %h httperf ... --client %n/N' per host, and counts N from the
# host list itself.  The arguments pass through the remote login shell,
# as with any ssh command: keep them free of spaces and quotes.
#
# With parallel-ssh (pssh) instead, --client auto works, since it sends
# PSSH_NODENUM and PSSH_NUMNODES, if the machines' sshd_config has
# "AcceptEnv PSSH_NODENUM PSSH_NUMNODES"; an equivalent command is
#   parallel-ssh -h hosts.txt -o DIR -t 0 httperf ... --client auto \
#       --start-at TIME --json -
# which leaves each host's JSON in DIR/HOST.
#
# The machines' clocks must agree (NTP, chrony) to well under the spread
# you want between their starts.  HTTPERF is httperf's path on the
# machines (default httperf); HTTPERF_RSH is the remote shell command
# (default "ssh -x -l %u %h"; empty runs httperf here, once per "host",
# which is how this recipe is tried on one machine).  Before the test,
# every machine's httperf --version must say 1.0 or later, and so must
# the one that merges here, HTTPERF_LOCAL (default: the src/httperf of
# the source tree this script is in, when built, else httperf in PATH):
# 0.9.0 is refused in one line.
#
# Example:
#   contrib/pdsh.sh -w 'load[1-4]' -- --server www.example.com --uri / \
#       --num-conns 30000 --rate 1000 --timeout 5
set -eu

# shellcheck source=contrib/httperf-check.sh
. "$(dirname "$0")/httperf-check.sh"
hp_tool pdsh "pdsh"
HTTPERF=${HTTPERF:-httperf}
HTTPERF_LOCAL=${HTTPERF_LOCAL:-$(hp_default)}
RSH=${HTTPERF_RSH-ssh -x -l %u %h}
hosts=
dir=./httperf-run
ahead=5
while getopts w:d:s: opt; do
	case $opt in
	w) hosts=$OPTARG ;;
	d) dir=$OPTARG ;;
	s) ahead=$OPTARG ;;
	*) echo "usage: $0 -w HOSTS [-d DIR] [-s SECONDS] -- HTTPERF-OPTIONS" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ -z "$hosts" ]; then
	echo "$0: -w HOSTS is required" >&2
	exit 2
fi
# N: the host list as pdsh expands it.
hp_need "$HTTPERF_LOCAL"
n=$(pdsh -R exec -w "$hosts" echo %h | wc -l)
# Each machine's httperf, before the common start is set.
# shellcheck disable=SC2086
vers=$(pdsh -R exec -w "$hosts" $RSH "$HTTPERF" --version 2>&1) || true
for h in $(pdsh -R exec -w "$hosts" echo %h | sed 's/:.*//'); do
	hp_check "$HTTPERF (on $h)" "$(echo "$vers" | sed -n "s/^$h: //p")"
done
mkdir -p "$dir"
rm -f "$dir"/*.json "$dir"/*.txt
start=$(date +%s.%N | awk -v a="$ahead" '{ printf "%.3f", $1 + a }')

# $RSH is split into words on purpose; -S: pdsh exits with the largest
# of the remote exit statuses.
# shellcheck disable=SC2086
pdsh -S -R exec -w "$hosts" $RSH "$HTTPERF" "$@" --client "%n/$n" \
    --start-at "$start" --json - > "$dir/pdsh.out" 2> "$dir/pdsh.err"

# "host: line": each host's JSON (stdout) and report (stderr) apart.
demux() {
	awk -v d="$dir" -v x="$2" '{
		i = index($0, ": ")
		print substr($0, i + 2) > (d "/" substr($0, 1, i - 1) x)
	}' "$1"
}
demux "$dir/pdsh.out" .json
demux "$dir/pdsh.err" .txt
rm -f "$dir/pdsh.out" "$dir/pdsh.err"

"$HTTPERF_LOCAL" --merge "$dir"/*.json --json "$dir/merged.json" |
    tee "$dir/merged.txt"
