/*
 * --sweep: one test, the rate moved through steps (issue 25).  Each step
 * runs --step-time seconds at its level, in the same process (the
 * connections carry over); after its warm-up a fresh set of collectors
 * measures it alone; the whole-run collectors see the whole sweep.
 */
#ifndef HTTPERF_RUN_SWEEP_H
#define HTTPERF_RUN_SWEEP_H

#include <stddef.h>
#include <stdint.h>

struct jsonw;
struct options;
struct run;
struct run_sweep;
struct sweep_spec;

/*
 * Parses --sweep's spec (report/sweep_search.c) into *s.  Returns 0
 * (also without --sweep), or -1 after a one-line usage error on the
 * standard error, worded as opt/'s, before anything is set up.
 */
int	run_sweep_check(const struct options *o, struct sweep_spec *s);

/*
 * The driver of the spec run_sweep_check parsed, its --sweep-tsv file
 * created.  Returns NULL after a message when the file cannot be.
 */
struct run_sweep *run_sweep_new(const struct options *o,
	    const struct sweep_spec *s);

/*
 * Subscribes the steps' forwarder to the run's bus, once the whole-run
 * collectors are (run.c's set-up).  Returns 0, or -1 after a message.
 */
int	run_sweep_subscribe(struct run *r, char *err, size_t errlen);

/*
 * The test starts at `now': the first step (its collectors start before
 * the first arrival); then, the generators started, its level is set.
 */
void	run_sweep_start(struct run *r, uint64_t now);
void	run_sweep_started(struct run *r, uint64_t now);

/* The test stopped: the timers off (a step cut short is dropped). */
void	run_sweep_stop(struct run *r);

/*
 * After the report and the warnings: the steps' table and the capacity
 * line; then the --sweep-tsv file.  Returns the sweep's exit status (0,
 * 3: the client was the limit, 4: the first level failed), or -1 after
 * a message when the file cannot be written.
 */
int	run_sweep_report(struct run *r);

/* The result document's "sweep" member (result_doc's tail). */
void	run_sweep_json(struct jsonw *w, const void *arg);

/* Frees it (NULL is fine), and a step's collectors still open. */
void	run_sweep_free(struct run_sweep *sw);

#endif
