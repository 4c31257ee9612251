/*
 * --jobs with --interval, --hlog or the progress line: the workers'
 * interval records summed into one --interval line, the hlog lines and
 * the progress line, per interval by the parent (run_jobs_live.c).
 */
#ifndef HTTPERF_RUN_JOBS_LIVE_H
#define HTTPERF_RUN_JOBS_LIVE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

struct interval;
struct options;
struct jobs_live;

/*
 * A worker's run_sig.live: writes the interval that ends at `end' (its
 * counts and histograms) up the pipe whose descriptor *arg is.
 */
void	jobs_live_send(void *arg, const struct interval *iv, uint64_t end);

/*
 * Whether the parent wants the workers' records: for --interval, --hlog
 * or the progress line (drawn where one process would draw it).
 */
int	jobs_live_wanted(const struct options *o);

/*
 * The parent's state for n workers, its lines on `lines'; *progress_on
 * set when it draws the progress line (run.h's run_sig).
 */
struct jobs_live *jobs_live_new(const struct options *o, unsigned n,
	    FILE *lines, volatile sig_atomic_t *progress_on);

/*
 * --hlog: creates (empties) the file at `path', its header for a test
 * that starts at `wall'.  Returns 0, or -1 with a message in err.
 */
int	jobs_live_hlog(struct jobs_live *jl, const char *path, uint64_t wall,
	    char *err, size_t errlen);

/*
 * After the last lines: closes the hlog.  Returns 0, or -1 with a
 * message in err when it could not be written.
 */
int	jobs_live_end(struct jobs_live *jl, char *err, size_t errlen);

/*
 * Reads what worker i sent on fd; returns 0, or -1 at its end (the
 * worker then counts as having sent every interval).
 */
int	jobs_live_read(struct jobs_live *jl, unsigned i, int fd,
	    uint64_t now);

/* Worker i never started: no interval is waited for from it. */
void	jobs_live_gone(struct jobs_live *jl, unsigned i);

/*
 * Prints the lines of the intervals every worker has sent, or whose
 * first record came half a period ago; all of them when `all'.
 * Returns the ns until the next such deadline, or UINT64_MAX.
 */
uint64_t jobs_live_print(struct jobs_live *jl, uint64_t now, int all);

void	jobs_live_free(struct jobs_live *jl);

#endif
