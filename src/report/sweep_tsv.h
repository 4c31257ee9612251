/*
 * autobench's table (--sweep-tsv FILE): one header line, then one line
 * per step, tab-separated, with autobench's column names and number
 * formats, so its bench2graph (column 1 is x, column i is y) and the
 * gnuplot scripts written for it read a sweep's file unchanged.
 *
 * The columns, as autobench prints them for one host: dem_req_rate (the
 * demanded request rate, printed as Perl prints a number: %.15g), then
 * req_rate_H, con_rate_H, min_rep_rate_H, avg_rep_rate_H,
 * max_rep_rate_H, stddev_rep_rate_H, resp_time_H (ms), net_io_H (KB/s),
 * each with the one decimal of the report line autobench reads it from
 * (%.1f), and errors_H: 100 * errors / replies (%.15g), 101 when there
 * was no reply (autobench's "test invalid" value).  H is the host name
 * (no suffix and no `_' when it is NULL or empty).  A value that is NaN
 * (e.g. no reply rate sample in a short step) is an empty cell, as
 * autobench prints when its pattern did not match.
 */
#ifndef HTTPERF_REPORT_SWEEP_TSV_H
#define HTTPERF_REPORT_SWEEP_TSV_H

#include <stdint.h>
#include <stdio.h>

struct sweep_tsv_row {
	double		 dem_req_rate;	/* offered requests/s */
	double		 req_rate;	/* achieved requests/s */
	double		 con_rate;	/* connections/s */
	double		 min_rep_rate;	/* replies/s, over the step's samples */
	double		 avg_rep_rate;
	double		 max_rep_rate;
	double		 stddev_rep_rate;
	double		 resp_time;	/* ms: the "Reply time" response part */
	double		 net_io;	/* KB/s */
	uint64_t	 errors;	/* "Errors: total" */
	uint64_t	 replies;	/* "Total: ... replies" */
};

/* Writes the header line; returns 0, or -1 on an output error. */
int	sweep_tsv_header(FILE *f, const char *host);

/* Writes one step's line; returns 0, or -1 on an output error. */
int	sweep_tsv_row(FILE *f, const struct sweep_tsv_row *r);

/* The errors column's value: 100 * errors / replies, 101 for no reply. */
double	sweep_tsv_errors(uint64_t errors, uint64_t replies);

#endif
