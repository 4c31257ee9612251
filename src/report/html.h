/*
 * --html FILE: one self-contained HTML page of a result, drawn from the
 * --json result document alone (never from the collectors), so a run and
 * --merge render the same way.  Inline SVG, no script, a Content Security
 * Policy that refuses every network request, every text from the
 * document HTML-escaped.  The page holds the command line and the run's
 * facts, the totals, a percentile table of every histogram, the reply
 * time and the other phases on HdrHistogram's log-scaled percentile axis,
 * per-interval plots (rate against the target, replies by status class,
 * errors by class, p50/p99) from stats.interval, and the lateness
 * distribution.  Each plot is <figure class="plot" id="plot-ID"> and each
 * series one <polyline class="series" data-series="NAME" data-points="N">;
 * the ids are pct-reply, pct-phases, iv-rate, iv-status, iv-errors,
 * iv-latency and pct-lateness.
 */
#ifndef HTTPERF_REPORT_HTML_H
#define HTTPERF_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "lib/html_esc.h"

struct jv;

struct html_client {
	const struct jv	*doc;	/* one input file's result document */
	const char	*label;	/* "client 3 (host-a)", for the legend */
};

/*
 * Writes the report page for result document `doc' to f.  With nclients > 0 the
 * document is a merge of `clients' and the plots show one series per client plus
 * the total.  Returns 0, or -1 with a message in err (a write error, or a document
 * without the members it needs: "stats.basic" missing...).  Never exits.
 * Any other member missing or of the wrong type is left out of the page
 * or shown as "n/a".  Nothing is written when stats.basic is missing.
 */
int	html_write(FILE *f, const struct jv *doc, const struct html_client *clients,
	    size_t nclients, char *err, size_t errlen);

/* The pieces below are html_write()'s own, declared for the unit tests. */

/* Points a series holds at most (more are decimated). */
#define HTML_MAX_POINTS		2000
/* Points of a percentile series (one when the histogram holds one value). */
#define HTML_PCT_POINTS		100

/*
 * "Nice" ticks covering lo..hi: multiples of a step of 1, 2 or 5 times a
 * power of ten, at most `target' steps, from the largest multiple at or
 * below lo to the smallest at or above hi (hi <= lo is widened to lo + 1).
 * Writes at most `max' ticks; returns their number; *step is the step.
 */
size_t	html_nice_ticks(double lo, double hi, size_t target, double *ticks,
	    size_t max, double *step);

/*
 * Where percentile pct (0..100) lies on the percentile axis: log10 of
 * 1 / (1 - pct / 100), so 0% is 0, 50% log10(2), 90% 1, 99% 2, 99.9% 3,
 * 99.99% 4.
 * 100 and above give 12 (a percentile axis never goes that far).
 */
double	html_pct_pos(double pct);

/*
 * Reduces the n points (x[i], y[i]) in place to at most cap: the points
 * are cut into cap runs of consecutive points (of n / cap points, give or
 * take one) and each run becomes one point: the one with the largest y
 * when keepmax (so no peak of a latency series is lost), else the mean of
 * the run's x and y.  Returns the number of points left (n if n <= cap).
 */
size_t	html_decimate(double *x, double *y, size_t n, size_t cap,
	    int keepmax);

#endif /* HTTPERF_REPORT_HTML_H */
