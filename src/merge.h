/*
 * httperf --merge FILE...: combines the --json results of several client
 * processes into the report (and with --json, the document) one run with
 * the same totals would have given.  See merge.c for the rules.
 */
#ifndef HTTPERF_MERGE_H
#define HTTPERF_MERGE_H

struct options;

/* Runs the merge the options describe; returns the exit status. */
int	merge_main(const struct options *o);

#endif
