#!/bin/sh
# One httperf per core of this machine, started by GNU parallel, each
# pinned to its own core with taskset, all starting at the same instant
# (--start-at), each writing its --json; then `httperf --merge' of them.
#
# `httperf --jobs N' (or --jobs auto) does all of this in one command and
# prints the merged report; use this script only when you want what
# --jobs does not give: each process's own report and result file
# (DIR/client-K.txt, DIR/client-K.json) beside the merge.  Note that here
# the options are the workload of ONE process (see below), while with
# --jobs they are the whole test's.
#
# usage: parallel-local.sh [-n N] [-d DIR] [-s SECONDS] -- HTTPERF-OPTIONS
#   -n N        processes (default: the cores this process may use, nproc)
#   -d DIR      where the files go (default: ./httperf-run); each process
#               writes DIR/client-K.json and DIR/client-K.txt (its report),
#               the merge DIR/merged.json and DIR/merged.txt
#   -s SECONDS  how far ahead the common start is (default 2)
# HTTPERF-OPTIONS are the workload of ONE process: --client auto/N makes
# process K (PARALLEL_SEQ, 1-based) client K-1 of N, which offsets its
# --wset/--wlog position and its random seed, and shifts its first
# arrival of a fixed --rate by (K-1)/(N*rate).  So --rate 1000 with -n 4
# is 4000 connections/s in all, as one even stream.
#
# Example, 4 cores against a server at 192.0.2.10:
#   contrib/parallel-local.sh -n 4 -- --server 192.0.2.10 --uri /index.html \
#       --num-conns 20000 --rate 1000 --timeout 5
#
# Environment: HTTPERF (default: the src/httperf of the source tree this
# script is in, when built, else httperf in PATH); it must be httperf 1.0
# or later (0.9.0 is refused in one line).  Needs GNU parallel (Debian:
# parallel) and taskset (util-linux).
set -eu

# shellcheck source=contrib/httperf-check.sh
. "$(dirname "$0")/httperf-check.sh"
hp_tool parallel "parallel"
HTTPERF=${HTTPERF:-$(hp_default)}
n=$(nproc)
dir=./httperf-run
ahead=2
while getopts n:d:s: opt; do
	case $opt in
	n) n=$OPTARG ;;
	d) dir=$OPTARG ;;
	s) ahead=$OPTARG ;;
	*) echo "usage: $0 [-n N] [-d DIR] [-s SECONDS] -- HTTPERF-OPTIONS" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
hp_need "$HTTPERF"
mkdir -p "$dir"
rm -f "$dir"/client-*.json "$dir"/client-*.txt

# The cores this process may run on, in order; process K gets the
# (K-1)-th of them (modulo their count).
cpus=$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' |
    awk -F- '{ e = NF > 1 ? $2 : $1; for (c = $1; c <= e; c++) print c }' |
    tr '\n' ' ')
start=$(date +%s.%N | awk -v a="$ahead" '{ printf "%.3f", $1 + a }')

# -q passes every argument through as one word (no shell quoting to get
# wrong); sh -c picks the core and redirects the report.  httperf reads
# PARALLEL_SEQ itself (--client auto/N).
# shellcheck disable=SC2016 # the job script expands in the job
parallel --will-cite -q -j "$n" --halt now,fail=1 sh -c '
	k=$1 n=$2 at=$3 dir=$4 cpus=$5 hp=$6
	shift 6
	set -f
	set -- "$@" --client "auto/$n" --start-at "$at" \
	    --json "$dir/client-$k.json"
	ncpu=$(echo $cpus | wc -w)
	cpu=$(echo $cpus | cut -d " " -f $(( (k - 1) % ncpu + 1 )))
	exec taskset -c "$cpu" "$hp" "$@" > "$dir/client-$k.txt" 2>&1
' sh '{#}' "$n" "$start" "$dir" "$cpus" "$HTTPERF" "$@" ::: $(seq "$n")

"$HTTPERF" --merge "$dir"/client-*.json --json "$dir/merged.json" |
    tee "$dir/merged.txt"
