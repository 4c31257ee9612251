/*
 * autobench's table of a sweep.  See sweep_tsv.h.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "report/sweep_tsv.h"

/* The per-host columns, in autobench's order. */
static const char *const sweep_tsv_cols[] = {
	"req_rate", "con_rate", "min_rep_rate", "avg_rep_rate",
	"max_rep_rate", "stddev_rep_rate", "resp_time", "net_io", "errors",
};

#define SWEEP_TSV_NCOLS	(sizeof(sweep_tsv_cols) / sizeof(sweep_tsv_cols[0]))

int
sweep_tsv_header(FILE *f, const char *host)
{
	size_t i;
	int sfx = host != NULL && *host != '\0';

	fputs("dem_req_rate", f);
	for (i = 0; i < SWEEP_TSV_NCOLS; i++)
		fprintf(f, "\t%s%s%s", sweep_tsv_cols[i], sfx ? "_" : "",
		    sfx ? host : "");
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

double
sweep_tsv_errors(uint64_t errors, uint64_t replies)
{
	if (replies == 0)
		return 101;
	return 100.0 * (double)errors / (double)replies;
}

/* A cell: tab, then v (one decimal or as Perl prints it), or nothing
   when v is NaN. */
static void
sweep_tsv_cell(FILE *f, int one, double v)
{
	fputc('\t', f);
	if (isnan(v))
		return;
	if (one)
		fprintf(f, "%.1f", v);
	else
		fprintf(f, "%.15g", v);
}

int
sweep_tsv_row(FILE *f, const struct sweep_tsv_row *r)
{
	const double one[] = { r->req_rate, r->con_rate, r->min_rep_rate,
	    r->avg_rep_rate, r->max_rep_rate, r->stddev_rep_rate,
	    r->resp_time, r->net_io };
	size_t i;

	if (!isnan(r->dem_req_rate))
		fprintf(f, "%.15g", r->dem_req_rate);
	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		sweep_tsv_cell(f, 1, one[i]);
	sweep_tsv_cell(f, 0, sweep_tsv_errors(r->errors, r->replies));
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}
