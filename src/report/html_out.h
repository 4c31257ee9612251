/*
 * The --html file, for a run and for --merge: opened before anything
 * else happens (a bad path costs no test), then written from the result
 * document by html_write() (html.h).
 */
#ifndef HTTPERF_REPORT_HTML_OUT_H
#define HTTPERF_REPORT_HTML_OUT_H

#include <stddef.h>
#include <stdio.h>

struct html_client;

/* Creates (or empties) the file; NULL after one line on stderr. */
FILE	*html_open(const char *prog, const char *path);

/*
 * Parses the result document `doc' (`len' bytes of JSON), writes its
 * page to f and closes f.  clients: the merged files, or NULL / 0.
 * Returns 0, or -1 after one line on stderr naming the file.
 */
int	 html_output(const char *prog, FILE *f, const char *path,
	    const char *doc, size_t len, const struct html_client *clients,
	    size_t nclients);

/* Writes the result document to mf; returns 0, or -1. */
typedef int	html_doc_fn(FILE *mf, void *arg);

/*
 * html_output() of the result document that make(mf, arg) writes, made
 * in memory; closes f either way.  Returns 0, or -1 after one line on
 * stderr ("out of memory" when the document could not be made).
 */
int	 html_output_doc(const char *prog, FILE *f, const char *path,
	    html_doc_fn *make, void *arg, const struct html_client *clients,
	    size_t nclients);

#endif
