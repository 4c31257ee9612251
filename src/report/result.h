/*
 * The --json document, written by this one writer for a run and for
 * --merge alike: the head (format and schema version, the tool, the
 * start and end in UTC (RFC 3339 with microseconds) and in ns since the
 * epoch, the duration, the client ids, the host and the echo line), the
 * options, then under "stats" each collector's part, walking the module
 * table the caller gives (the table a run walks).  See
 * doc/httperf-result.schema.json.
 */
#ifndef HTTPERF_REPORT_RESULT_H
#define HTTPERF_REPORT_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct collector;
struct collector_run;
struct jsonw;
struct jv;
struct options;
struct slo;

/* The "format" member's value and the schema's version. */
#define RESULT_FORMAT		"httperf-result"
#define RESULT_SCHEMA_VERSION	1

struct result_head {
	uint64_t	 start_ns;	/* wall clock, ns since the epoch */
	uint64_t	 duration_ns;	/* monotonic; the end is start + this */
	unsigned	 num_clients;	/* --client I/N: N */
	const unsigned	*ids;		/* the I of every client in it,
					   ascending (one unless merged) */
	size_t		 nids;
	const char	*host;		/* where it ran (merged: hosts,
					   comma-separated) */
	const char	*echo;		/* the start-up echo line, no \n */
};

/* Writes the head's members into the (open) top-level object. */
void	result_write_head(struct jsonw *w, const struct result_head *h);

/* A whole document. */
struct result_doc {
	struct result_head head;
	const struct options *o;	/* a run's options, or NULL: */
	const struct jv	*options;	/* the "options" value (merge: the
					   first file's), copied */
	const struct collector *const *cols;	/* the module table */
	void *const	*states;	/* by cols[] row; NULL: not in it */
	size_t		 ncols;
	const struct collector_run *run;	/* for the collectors' json */
	/* stats.slo: the objectives and their measures (nslo of each;
	   slo_measured NULL: no stats.slo). */
	const struct slo *slo;
	const double	*slo_measured;
	size_t		 nslo;
	/* stats.slo_abort: the objective that stopped the run
	   (--slo-abort), or NULL; when, and its measure in the verdict
	   line's unit (ms or count). */
	const struct slo *abort_slo;
	double		 abort_at_s;
	double		 abort_value;
	/* Writes members after "stats" (merge: "merged"), or NULL. */
	void		(*tail)(struct jsonw *w, const void *arg);
	const void	*tail_arg;
};

/* Writes the document to f.  Returns jsonw_finish()'s answer. */
int	result_write(FILE *f, const struct result_doc *d);

/* Writes value v of a parsed document as it is. */
void	result_copy(struct jsonw *w, const struct jv *v);

/*
 * Formats ns since the epoch as RFC 3339 UTC with microseconds
 * ("2024-01-02T03:04:05.678901Z") into buf (at least RESULT_TIME_LEN).
 */
#define RESULT_TIME_LEN	40
char	*result_time(char *buf, uint64_t epoch_ns);

#endif
