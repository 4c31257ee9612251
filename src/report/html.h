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
 * iv-latency and pct-lateness.  A --sweep's document also has the
 * capacity section (html_sweep.c): sw-rate, sw-latency and sw-errors
 * against the offered level, with the objectives and the capacity as
 * rules, sw-pct of each step's percentiles, and the steps' table.
 */
#ifndef HTTPERF_REPORT_HTML_H
#define HTTPERF_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "lib/html_esc.h"
#include "report/svg.h"

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
#define HTML_MAX_POINTS		SVG_MAX_POINTS
/* Points of a percentile series (one when the histogram holds one value). */
#define HTML_PCT_POINTS		100

/* The SVG engine's scales (report/svg.h), under the names the unit tests
   know them by. */
#define html_nice_ticks		svg_nice_ticks
#define html_pct_pos		svg_pct_pos
#define html_decimate		svg_decimate

#endif /* HTTPERF_REPORT_HTML_H */
