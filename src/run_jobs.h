/*
 * --jobs N: the test over N worker processes, one per CPU, merged into
 * one report (run_jobs.c).
 */
#ifndef HTTPERF_RUN_JOBS_H
#define HTTPERF_RUN_JOBS_H

struct options;
struct run_sig;

/*
 * Runs the test of o over o->jobs workers (auto: one per CPU), each a
 * run of its share as --client I/N, and prints the merged report; with
 * fewer than 2 workers, the run itself (run_main).  Returns the exit
 * status: run_main's, or 1 if a worker did not finish.  o->jobs is set
 * to the workers' number.
 */
int	run_jobs(struct options *o, const struct run_sig *sig);

#endif
