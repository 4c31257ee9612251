/*
 * What the --html page (html.c) and its plots (html_plot.c) share: the
 * page being written, and the plots the page places.
 */
#ifndef HTTPERF_REPORT_HTML_INT_H
#define HTTPERF_REPORT_HTML_INT_H

#include <stddef.h>
#include <stdio.h>

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

/* The figures "plot-pct-reply" and "plot-pct-phases". */
void	 html_plot_pct_reply(struct html_ctx *c);
void	 html_plot_pct_phases(struct html_ctx *c);
/* The section "Over time": its heading and its four figures. */
void	 html_plots_interval(struct html_ctx *c);
/* The section "Lateness": its heading and "plot-pct-lateness". */
void	 html_plot_pct_lateness(struct html_ctx *c);

#endif /* HTTPERF_REPORT_HTML_INT_H */
