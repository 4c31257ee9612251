/*
 * The --html page's shared helpers: a member of the result document
 * read, or written as the page shows numbers and strings ("n/a" for a
 * missing or wrongly typed one), and a formatted copy.
 */
#ifndef HTTPERF_REPORT_HTML_UTIL_H
#define HTTPERF_REPORT_HTML_UTIL_H

#include <stdio.h>

struct jv;

/* The number at path of v (v itself for ""), or -1. */
int	 html_num(const struct jv *v, const char *path, double *out);

/* The string at path of v, or NULL. */
const char *html_str(const struct jv *v, const char *path);

/* Writes the number at path (times scale) with dec decimals (-1: %g)
   and unit, or "n/a". */
void	 html_put_num(FILE *f, const struct jv *v, const char *path, int dec,
	    const char *unit, double scale);

/* Writes the escaped string at path, or "n/a". */
void	 html_put_str(FILE *f, const struct jv *v, const char *path);

/* A malloc'ed copy of a printf() format; NULL on no memory. */
char	*html_fmtdup(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

/*
 * A merge of unequal clients (merged.equal_load false): the "Loads" fact
 * of the heading, which client (--client I/N) ran at which load, the
 * load options whose values differ between the files, for the first
 * `max' files.  Nothing for other documents.
 */
void	 html_put_loads(FILE *f, const struct jv *doc, size_t max);

#endif /* HTTPERF_REPORT_HTML_UTIL_H */
