#!/usr/bin/env python3
"""Per-second request count and p99 latency from an httperf --log file.

Usage: calllog-p99.py LOG [LOG...]    (plain CSV, or .gz)

Reads the records with the standard library's csv module: the first
line ("# httperf call log v1 start=... start_ns=...") is skipped, the
second is the header.  For each second of the run (by the call's end)
it prints the calls that ended, how many failed, and the 99th
percentile of end_ns - start_ns in ms.  With pandas the same file loads
with pandas.read_csv(LOG, skiprows=1).
"""
import csv
import gzip
import math
import sys


def records(path):
    """Yields each record of the log at path as a dict."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        first = f.readline()
        if not first.startswith("# httperf call log"):
            sys.exit("%s: not an httperf --log file" % path)
        yield from csv.DictReader(f)


def p99(values):
    """The nearest-rank 99th percentile of a non-empty list."""
    values.sort()
    return values[max(0, math.ceil(0.99 * len(values)) - 1)]


def main(paths):
    if not paths:
        sys.exit(__doc__.strip().splitlines()[2])
    per_sec = {}
    for path in paths:
        for r in records(path):
            sec = int(r["end_ns"]) // 1000000000
            lat, errs = per_sec.setdefault(sec, ([], [0]))
            lat.append(int(r["end_ns"]) - int(r["start_ns"]))
            if r["error"]:
                errs[0] += 1
    print("%6s %8s %7s %10s" % ("second", "calls", "errors", "p99_ms"))
    for sec in sorted(per_sec):
        lat, errs = per_sec[sec]
        print("%6d %8d %7d %10.3f" % (sec, len(lat), errs[0],
                                      p99(lat) / 1e6))


if __name__ == "__main__":
    main(sys.argv[1:])
