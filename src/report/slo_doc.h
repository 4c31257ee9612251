/*
 * Objectives (--slo) measured on the result document: a run's (made in
 * memory as --json would write it) and a merge's alike, so that both
 * give the same verdicts on the same numbers.  stat/slo.h parses them
 * and gives the verdict; this file finds the measures.
 */
#ifndef HTTPERF_REPORT_SLO_DOC_H
#define HTTPERF_REPORT_SLO_DOC_H

#include <stddef.h>
#include <stdio.h>

#include "report/html_out.h"

struct jv;
struct slo;

/* The objective's measure in o->unit, NaN when the document has none. */
double	slo_doc_measure(const struct jv *doc, const struct slo *o);

/*
 * Makes the document with `make' (as html_output_doc does), then prints
 * one verdict line per objective to `out' and keeps each measure in
 * measured[] (n entries, for stats.slo).  Returns how many failed, or
 * -1 after a message on stderr (the document could not be made).
 */
int	slo_doc_report(const char *prog, FILE *out, html_doc_fn *make,
	    void *arg, const struct slo *o, size_t n, double *measured);

#endif
