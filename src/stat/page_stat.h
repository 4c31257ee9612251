/*
 * Page view statistics (--wsesspage): from each BUS_PAGE_VIEW the view's
 * time (the page request to the last object's reply), its objects, bytes,
 * skipped cross-origin objects, objects over the page limit and
 * redirects, printed after the classic report and the session lines:
 *
 *	Page view time percentiles [ms]: p50 ... max ...
 *	Page views: 8 objects/view 9.00 bytes/view 4096.0 cross-origin 16
 *	    over-limit 0 redirects 2
 */
#ifndef HTTPERF_STAT_PAGE_STAT_H
#define HTTPERF_STAT_PAGE_STAT_H

#include <stdint.h>
#include <stdio.h>

struct collector;
struct hdr;
struct jsonw;

struct page_stat {
	uint64_t	 views;
	uint64_t	 objects;
	uint64_t	 bytes;
	uint64_t	 cross;
	uint64_t	 over;
	uint64_t	 redirects;
	struct hdr	*time;		/* view time, ns */
};

/* Prints the two lines. */
void	page_stat_print(const struct page_stat *st, FILE *out);

/* Writes the lines' numbers as one JSON object (histogram included). */
void	page_stat_json(const struct page_stat *st, struct jsonw *w);

/* The collector (stat/collector.h); its extra is the page lines. */
extern const struct collector page_stat_collector;

#endif
