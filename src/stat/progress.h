/*
 * The progress collector: one line on a terminal, redrawn while the test
 * runs, for the person watching it.  It shows the time elapsed; when the
 * end is known (a total of connections, sessions or calls, or
 * --runtime) a bar and the time left; the achieved rate (of the last
 * second; before the first ends, an estimate from the events so far,
 * see progress_rate_get()) against the schedule's (a --sweep step's
 * level while the step runs), or a closed loop's calls a second; the replies and
 * errors so far; and the p99 reply time of the last second.  It is drawn at most
 * PROGRESS_HZ times a second on an absolute schedule from the test's
 * start, with a carriage return and an erase to the end of the line, and
 * erased at the stop, before the report.  It is built on the interval
 * collector (interval.h): that keeps the counts and histograms of each
 * second; this one only draws.
 *
 * modules.c gives it a run only when the stream is a terminal and nothing
 * else writes there while the test runs; it never checks that itself.
 */
#ifndef HTTPERF_STAT_PROGRESS_H
#define HTTPERF_STAT_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Redraws per second, at most. */
#define PROGRESS_HZ		4

/* The longest line drawn, whatever the terminal's width. */
#define PROGRESS_LINE_MAX	256

/* The width assumed when the terminal does not say. */
#define PROGRESS_WIDTH_DEFAULT	80

/* What the total counts, when the end is a number of units. */
enum progress_unit {
	PROGRESS_U_NONE,	/* no total: --runtime or nothing */
	PROGRESS_U_CONNS,	/* connections destroyed (--num-conns) */
	PROGRESS_U_SESSIONS,	/* sessions destroyed (--wsess, --wsesslog) */
	PROGRESS_U_ARRIVALS,	/* arrivals made or missed (--call-rate's
				   calls) */
	PROGRESS_U_CALLS,	/* calls made (--concurrency's closed
				   loop, which has no arrivals) */
};

/* Its settings (collector_env.cfg). */
struct progress_config {
	FILE		*tty;		/* where the line goes (stderr) */
	int		 fd;		/* its descriptor, for the width */
	double		 target_rate;	/* the schedule's arrivals per
					   second, 0: no schedule */
	enum progress_unit unit;
	uint64_t	 total;		/* units in the test, 0: unknown */
	uint64_t	 runtime;	/* --runtime in ns, 0: none */
};

/*
 * The achieved rate the line shows, from the events the rate counts
 * (the schedule's arrivals, or without one the connections started):
 * once a second has ended, that second's; before, an estimate from the
 * events so far (see progress_rate_get()).
 */
struct progress_rate {
	uint64_t	 n;		/* events before the first second
					   ended */
	uint64_t	 first, last;	/* the first's and the last's time */
	int		 have_second;	/* a second has ended */
	double		 second;	/* its rate, per second */
};

/* The test starts: no event yet. */
void	progress_rate_start(struct progress_rate *r);

/* An event at `now'. */
void	progress_rate_event(struct progress_rate *r, uint64_t now);

/* A second ended: it was `len' ns long and held n events. */
void	progress_rate_second(struct progress_rate *r, uint64_t n,
	    uint64_t len);

/*
 * The rate at `now' into *rate; returns 0, or -1 when there is no
 * estimate yet.  Once a second has ended, that second's.  Before, with
 * n >= 2 events, the smaller of (n - 1) over the time from the first to
 * the last and n over the time from the first to now; with fewer, none
 * (a partial second is never scaled up to a whole one).
 */
int	progress_rate_get(const struct progress_rate *r, uint64_t now,
	    double *rate);

/* The numbers of one line, for progress_format(). */
struct progress_view {
	uint64_t	 elapsed;	/* ns since the start */
	int		 known;		/* the end is known: frac is set */
	double		 frac;		/* done, 0 to 1 */
	int		 have_left;	/* left is an estimate */
	uint64_t	 left;		/* ns left */
	int		 have_rate;	/* rate is an estimate */
	double		 rate;		/* achieved per second */
	double		 target;	/* the schedule's, 0: none */
	uint64_t	 replies;
	uint64_t	 errors;
	int		 have_p99;	/* a reply came in the last second */
	double		 p99;		/* its p99 reply time, ms */
};

/*
 * The time left (ns) when `done' of `total' took `elapsed' ns, at the same
 * pace: 0 when all is done, UINT64_MAX (584 years) when nothing is yet or
 * the estimate is longer.
 */
uint64_t progress_left(uint64_t elapsed, uint64_t done, uint64_t total);

/*
 * Writes the line of `v' for a terminal `width' columns wide into buf (of
 * `size' bytes, NUL-terminated): at most width - 1 characters, so that
 * the cursor never wraps, and no control character.  The bar takes the
 * room the numbers leave, from 10 to 40 columns; when the numbers leave
 * less, they are written short; what still does not fit is cut.
 * Returns the line's length.
 */
size_t	progress_format(char *buf, size_t size, const struct progress_view *v,
	    unsigned width);

/* The width of the terminal on `fd', or PROGRESS_WIDTH_DEFAULT. */
unsigned progress_width(int fd);

struct interval;
struct progress;

/*
 * For --jobs, whose parent draws the line of the workers' sums (no bus,
 * no timer): the line of cfg, where the time is the test's (ns since
 * its start).
 */
struct progress *progress_sum_new(const struct progress_config *cfg);

/*
 * A second of the workers ended at `end', their counts and histograms
 * added up in iv (from iv->mark): counted and the line drawn.  The
 * units done are the counts': connections started, arrivals made or
 * missed, calls ended; sessions have none (no bar but --runtime's).
 */
void	progress_sum_second(struct progress *p, const struct interval *iv,
	    uint64_t end);

/* Erases the line (if drawn) and frees p. */
void	progress_sum_free(struct progress *p);

struct collector;

/* The collector (stat/collector.h).  Settings: progress_config. */
extern const struct collector progress_collector;

#endif
