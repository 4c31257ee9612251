/*
 * What the --html page (html.c) and its plots (html_plot.c) share: the
 * page being written, and the plots the page places.
 */
#ifndef HTTPERF_REPORT_HTML_INT_H
#define HTTPERF_REPORT_HTML_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/svg.h"

struct html_client;
struct jv;

struct html_ctx {
	FILE			*f;
	const struct jv		*doc;
	const struct html_client *cl;
	size_t			 ncl;
	double			 iv_end;	/* the intervals' end, s */
	int			 oom;		/* out of memory: an error */
};

/* The label of client i and suffix, owned by the caller: a copy (NULL
   on no memory). */
char	*html_client_label(const struct html_ctx *c, size_t i,
	    const char *suffix);

/* svg_plot_add(), its failure counted in c->oom. */
struct svg_series *html_plot_add(struct html_ctx *c, struct svg_plot *pl,
	    char *name, size_t npts, const struct svg_style *st);

/* The style of series i of a plot's own kinds (the palette's colour i). */
struct svg_style html_style_n(size_t i, enum svg_dash d, double width);

/* The count of a histogram object, 0 when there is none. */
uint64_t html_hist_count(const struct jv *hist);

/* Decades of a percentile axis fit for a histogram of maxcount values. */
int	 html_pct_decades(uint64_t maxcount);

/*
 * A percentile series named `name' (taken) from histogram object `hist'
 * (its "hdr" decoded); nothing when it is missing, undecodable or empty.
 */
void	 html_pct_series(struct html_ctx *c, struct svg_plot *pl,
	    const struct jv *hist, char *name, const struct svg_style *st);

/* The figures "plot-pct-reply" and "plot-pct-phases". */
void	 html_plot_pct_reply(struct html_ctx *c);
void	 html_plot_pct_phases(struct html_ctx *c);
/* The section "Over time": its heading and its four figures. */
void	 html_plots_interval(struct html_ctx *c);
/* The section "Lateness": its heading and "plot-pct-lateness". */
void	 html_plot_pct_lateness(struct html_ctx *c);
/*
 * The section "Capacity" of a --sweep's document (its "sweep" member;
 * nothing without one): its plots against the offered rate, each
 * step's percentiles, the steps' table (html_sweep.c).
 */
void	 html_sweep(struct html_ctx *c);

#endif /* HTTPERF_REPORT_HTML_INT_H */
