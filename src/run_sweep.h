/*
 * --sweep: one test, the rate moved through steps (issue 25).  The
 * driver of the steps will live here; so far, the check of the spec at
 * start-up.
 */
#ifndef HTTPERF_RUN_SWEEP_H
#define HTTPERF_RUN_SWEEP_H

struct options;
struct sweep_spec;

/*
 * Parses --sweep's spec (report/sweep_search.c) into *s.  Returns 0
 * (also without --sweep), or -1 after a one-line usage error on the
 * standard error, worded as opt/'s, before anything is set up.
 */
int	run_sweep_check(const struct options *o, struct sweep_spec *s);

#endif
