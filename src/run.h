/*
 * One test: set-up, start, the loop until the workload is done (or
 * --runtime, or a signal), stop, the report, tear-down.
 */
#ifndef HTTPERF_RUN_H
#define HTTPERF_RUN_H

#include <signal.h>
#include <stdint.h>

struct interval;
struct options;

/*
 * The process-wide signal flags, which main.c owns (its handler sets
 * them), and the function that installs that handler, called once the
 * server's addresses are resolved.
 */
struct run_sig {
	/* A signal (SIGINT, SIGTERM, SIGHUP) asked the test to end; read
	   once per loop turn. */
	volatile sig_atomic_t	*interrupted;
	/* The run draws the progress line: a second signal erases it. */
	volatile sig_atomic_t	*progress_on;
	void			(*install)(void);
	/* A --jobs worker: called at the end of each --interval interval
	   (stat/interval.h's interval_flush_fn) instead of printing its
	   line; NULL otherwise. */
	void			(*live)(void *arg, const struct interval *iv,
				    uint64_t end);
	void			*live_arg;
};

/*
 * Runs the test the options describe and prints its report.  Returns the
 * exit status: 0, 3 if the client was the bottleneck with --max-lateness,
 * 1 if the test could not be set up or its report (or what a collector
 * wrote while the test ran) cannot be written.
 */
int	run_main(const struct options *o, const struct run_sig *sig);

/*
 * Sets up the run the options describe and tears it down without a
 * test: what a run would refuse at its start (a file, a name, a limit)
 * is said once, for --jobs' parent before it forks.  Returns 0, or -1
 * after printing why.
 */
int	run_check(const struct options *o, const struct run_sig *sig);

#endif
