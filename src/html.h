/*
 * The --html report: one self-contained HTML page (inline SVG, no script,
 * no network) drawn from a result document.
 */
#ifndef HTTPERF_HTML_H
#define HTTPERF_HTML_H

#include <stddef.h>
#include <stdio.h>

struct jv;

struct html_client {
	const struct jv	*doc;	/* one input file's result document */
	const char	*label;	/* "client 3 (host-a)", for the legend */
};

/*
 * Writes the report page for result document `doc' to f.  With
 * nclients > 0 the document is a merge of `clients' and the plots show
 * one series per client plus the total.  Returns 0, or -1 with a message
 * in err (a write error, or a document without the members it needs).
 * Never exits.
 */
int	html_write(FILE *f, const struct jv *doc,
	    const struct html_client *clients, size_t nclients, char *err,
	    size_t errlen);

#endif
