/*
 * --sweep's output (issue 25): the steps' table and the capacity line
 * after the report, the "sweep" member of the result document, the
 * rows of --sweep-tsv, and the sweep's exit status.  The driver
 * (run_sweep.c) fills the steps in as they end.
 */
#ifndef HTTPERF_REPORT_SWEEP_OUT_H
#define HTTPERF_REPORT_SWEEP_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/sweep_search.h"
#include "report/sweep_tsv.h"

struct basic;
struct jsonw;
struct slo;

/* What one step measured (from the end of its warm-up to its end). */
struct sweep_step {
	enum sweep_kind	 kind;
	double		 level;
	enum sweep_verdict verdict;
	int		 client;	/* the client was the bottleneck */
	uint64_t	 reqs;		/* requests sent */
	uint64_t	 replies;
	uint64_t	 errors;	/* "Errors: total" */
	double		 secs;		/* measured */
	double		 pct[4];	/* reply time p50 p90 p99 p99.9, ns
					   (corrected when there is a
					   schedule); NaN: no reply */
	double		*measured;	/* each objective's measure */
	struct sweep_tsv_row tsv;	/* its --sweep-tsv row */
	char		*doc;		/* its result document, or NULL */
	size_t		 doclen;
};

/* The whole sweep. */
struct sweep_out {
	const char	*spec;		/* --sweep as given */
	double		 spec_from;	/* its first level */
	double		 step_time;	/* s */
	double		 warmup;	/* s */
	double		 precision;	/* % */
	const char	*unit;		/* the level's: "conn/s", ... */
	const char	*param;		/* "rate" or "concurrency" */
	const struct slo *slo;		/* the objectives (nslo) */
	size_t		 nslo;
	const struct sweep_step *steps;
	size_t		 nsteps;
	struct sweep_capacity cap;	/* the search's answer */
	int		 cut;		/* the test stopped (a signal) before
					   the search was over: no answer */
	int		 fixed;		/* a fixed plan, no search (several
					   clients; a merge) */
};

/*
 * The step's counts and percentiles (reqs, replies, errors, pct[]) from
 * its basic collector's totals (NULL: none; the percentiles NaN).
 */
void	sweep_step_basic(struct sweep_step *st, const struct basic *b);

/*
 * The step's objectives (n of them) measured on its document st->doc
 * (report/slo_doc.c, as a run's): each measure into st->measured (made
 * here; NaN without a document), and the verdict, PASS or FAIL.
 */
enum sweep_verdict sweep_step_verdict(struct sweep_step *st,
	    const struct slo *o, size_t n);

/*
 * The table, one row per step, then the capacity line:
 * "Capacity: VALUE UNIT (END...)" (see the man page, SWEEPS).
 */
void	sweep_out_print(FILE *out, const struct sweep_out *s);

/* The "sweep" member (its key and value) of the result document. */
void	sweep_out_json(struct jsonw *w, const struct sweep_out *s);

/* Writes the --sweep-tsv file.  Returns 0, or -1 on an output error. */
int	sweep_out_tsv(FILE *f, const char *host, const struct sweep_out *s);

/*
 * The sweep's exit status: 3 when the client was the limit, 4 when the
 * first level failed its objectives, else 0.
 */
int	sweep_out_status(const struct sweep_out *s);

#endif
