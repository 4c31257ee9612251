/*
 * The interval collector: what happened in each interval of the test, as
 * it runs.  Per interval it keeps HDR histograms of the reply time (send
 * start to reply end), the corrected reply time (reply end minus the
 * time the schedule meant the call to start), the TCP connect time and
 * the lateness of the schedule's arrivals, and counts of arrivals,
 * connections, replies by status class and errors by the classes of the
 * classic report.  At the end of each interval it writes them out and
 * starts afresh:
 *
 *	--hlog FILE	one line per histogram to an HdrHistogram interval
 *			log (format 1.3, the one HistogramLogReader,
 *			HistogramLogProcessor, hdr-histogram-js and
 *			HdrHistogram_py read);
 *	--interval S	one progress line on a stream (stderr);
 *	--periodic-stats  upstream httperf's line of 200 and 302 replies,
 *			every second on the report stream.
 *
 * The intervals follow an absolute schedule from the test's start (the
 * k-th ends at start + k * period, whenever its timer fires), so they do
 * not drift; the last one is cut short by the test's end.  A last one
 * under a quarter of a period (a sliver) prints no --interval line when
 * nothing happened in it, and is joined to the one before in the records
 * kept for --json (cfg.record); of those, at most INTERVAL_MAX_RECS are
 * kept, so the memory does not grow with the run's length.  Recording
 * never allocates: the histograms are made at init and reset between
 * intervals.
 */
#ifndef HTTPERF_STAT_INTERVAL_H
#define HTTPERF_STAT_INTERVAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/timer.h"
#include "stat/basic_report.h"

struct bus;
struct hdr;
struct slo;

/* The default interval: 1 s. */
#define INTERVAL_DEFAULT_NS	UINT64_C(1000000000)

struct interval;

/*
 * Called when an interval ends at `end', before its counts and
 * histograms are reset, for a collector built on this one (progress.c).
 */
typedef void interval_flush_fn(void *arg, const struct interval *iv,
    uint64_t end);

/*
 * --slo-abort: called once, when objective `o' can no longer pass (its
 * live measure `value', in o->unit: a count or ns), `at' ns after the
 * test's start, `now' the monotonic time.
 */
typedef void interval_abort_fn(void *arg, uint64_t now, uint64_t at,
    const struct slo *o, double value);

/* Its settings (collector_env.cfg). */
struct interval_config {
	uint64_t	 period;	/* ns per interval, 0: the default */
	const char	*hlog;		/* --hlog FILE, or NULL */
	FILE		*lines;		/* --interval: where its lines go,
					   or NULL for none */
	int		 periodic;	/* --periodic-stats: its lines on
					   the report stream */
	double		 target_rate;	/* the schedule's arrivals per
					   second, 0: no schedule */
	interval_flush_fn *flush;	/* called at each interval's end,
					   or NULL */
	void		*flush_arg;
	int		 record;	/* keep every interval for the
					   --json document (stats.interval) */
	const struct slo *slo;		/* --slo: the objectives whose
					   breach an --interval line shows */
	size_t		 nslo;
	interval_abort_fn *abort;	/* --slo-abort, or NULL */
	void		*abort_arg;
};

/* The histograms, in the order of the hlog's lines. */
enum interval_hist {
	INTERVAL_H_REPLY,	/* send start to reply end */
	INTERVAL_H_CORRECTED,	/* intended start to reply end */
	INTERVAL_H_CONNECT,	/* TCP connect */
	INTERVAL_H_LATENESS,	/* arrival made minus arrival intended */
	INTERVAL_NHIST
};

/* The counts of one interval. */
struct interval_counts {
	uint64_t	 arrivals;	/* BUS_ARRIVAL */
	uint64_t	 missed;	/* BUS_ARRIVAL_MISSED */
	uint64_t	 conns;		/* connections started */
	uint64_t	 replies[6];	/* [status / 100], [0] unused */
	uint64_t	 errors[BASIC_ERR_COUNT];
	uint64_t	 s200;		/* replies with status 200 */
	uint64_t	 s302;		/* replies with status 302 */
};

/* The summary of one of an interval's histograms, as recorded. */
struct interval_sum {
	uint64_t	 count;
	uint64_t	 p50, p90, p99, max;	/* ns */
	char		*hdr;		/* HISTF... (base64), or NULL when
					   it could not be encoded */
};

/* The histograms an interval record keeps: reply, corrected, lateness. */
enum interval_rec_hist {
	INTERVAL_R_REPLY,
	INTERVAL_R_CORRECTED,
	INTERVAL_R_LATENESS,
	INTERVAL_NREC
};

/* One interval, kept for the --json document (cfg.record). */
struct interval_rec {
	uint64_t	 start;		/* ns since the test's start */
	uint64_t	 length;	/* ns */
	struct interval_counts c;
	struct interval_sum h[INTERVAL_NREC];	/* the corrected and the
					   lateness ones only with a
					   schedule */
};

/*
 * The intervals kept for the --json document and the --html page, at
 * most `max' of them whatever the run's length: when one more would pass
 * it, neighbours are joined two by two into intervals twice as long
 * (their counts and histograms added), and from then on each kept
 * interval covers `join' periods.  The document says so (max_intervals,
 * joined); the full resolution is in the --hlog file.
 */
#define INTERVAL_MAX_RECS	512

struct interval_recs {
	struct interval_rec *v;
	size_t		 n, cap;
	size_t		 max;
	uint64_t	 period;	/* ns */
	uint64_t	 join;		/* periods per kept interval */
};

/* Empty, for intervals of `period' ns, at most `max' (>= 2) kept. */
void	interval_recs_init(struct interval_recs *l, uint64_t period,
	    uint64_t join, size_t max);

/*
 * Adds r (l then owns its encodings): joined to the last kept interval
 * when it starts in the same join * period slot of the test, else kept
 * after it, joining neighbours first when l is full.  Records must come
 * in the order of their starts.
 */
void	interval_recs_add(struct interval_recs *l, struct interval_rec *r);

/*
 * Joins b into a, the interval before it: a's length then reaches b's
 * end, counts and histograms are added (b's encodings freed).
 */
void	interval_rec_join(struct interval_rec *a, struct interval_rec *b);

void	interval_recs_free(struct interval_recs *l);

/* The slot of the test (join periods long) an interval starts in. */
uint64_t interval_recs_slot(const struct interval_recs *l,
	    uint64_t start);

/* a += b, each count stopping at the largest value. */
void	interval_counts_add(struct interval_counts *a,
	    const struct interval_counts *b);

struct interval {
	struct timer_wheel *wheel;
	FILE		*out;		/* --periodic-stats lines */
	FILE		*lines;		/* --interval lines, or NULL */
	FILE		*hlog;		/* or NULL */
	char		*hlog_path;
	int		 hlog_errno;	/* the first write error, or 0 */
	int		 periodic;
	double		 target_rate;
	double		 rate_now;	/* the target the lines show (a
					   --sweep step's; see
					   interval_set_rate()) */
	uint64_t	 period;	/* ns */
	const struct slo *slo;		/* cfg's */
	size_t		 nslo;
	interval_flush_fn *flush;
	void		*flush_arg;
	int		 record;

	/* cfg.record: the intervals ended so far, at most
	   INTERVAL_MAX_RECS (allocated as they end, never while
	   recording). */
	struct interval_recs recs;
	/* Once intervals are joined: the histograms of the last one kept
	   while later intervals still join it (open), added up here and
	   encoded into it only when it closes, so that joining costs an
	   addition per interval, not a decoding and an encoding. */
	struct hdr	*acc[INTERVAL_NREC];
	int		 open;

	uint64_t	 start;		/* the test's start (ns) */
	uint64_t	 mark;		/* the current interval's start */
	uint64_t	 n;		/* intervals ended so far */
	int		 running;	/* between start and stop */
	struct timer	 timer;		/* the end of the current interval */
	struct hdr	*h[INTERVAL_NHIST];
	struct interval_counts c;	/* of the current interval */

	/* --slo-abort (stat/slo_live.c): the intervals ended so far. */
	interval_abort_fn *abort;
	void		*abort_arg;
	int		 aborted;
	struct interval_counts done;
	uint64_t	 done_n[INTERVAL_NHIST];	/* values recorded */
	uint64_t	 done_max[INTERVAL_NHIST];	/* ns */

	/* --periodic-stats: a 1 s schedule of its own. */
	struct timer	 ptimer;
	uint64_t	 pn;		/* lines printed */
	uint64_t	 p200;		/* since the last line */
	uint64_t	 p302;

	/* --merge: the files' intervals, until interval_merge_end(). */
	struct interval_merge *merge;
};

/*
 * Sets the collector up and subscribes it to `bus'; its timers go on
 * `wheel'.  Opens (truncates) the hlog file.  Returns 0, or -1 with a
 * message in err (nothing left to free).
 */
int	interval_init(struct interval *iv, struct bus *bus,
	    struct timer_wheel *wheel, FILE *out,
	    const struct interval_config *cfg, char *err, size_t errlen);

/*
 * The test starts at `now' (the clock of the events); `wall' is the same
 * moment in ns since the epoch (the hlog's StartTime).  Writes the hlog's
 * header and arms the timers.
 */
void	interval_start(struct interval *iv, uint64_t now, uint64_t wall);

/*
 * The schedule's target is `rate' a second from now on (a --sweep
 * step's level): the --interval lines show it and the achieved
 * objective measures against it; the --json document keeps the run's.
 */
void	interval_set_rate(struct interval *iv, double rate);

/*
 * Ends the current interval at `end' (> its start): writes its hlog
 * lines and its --interval line, then starts the next one at `end'.
 */
void	interval_flush(struct interval *iv, uint64_t end);

/*
 * Prints the --interval line (on iv->lines, if any) of the interval
 * from iv->mark to `end' with iv's counts and histograms; `last': the
 * test's end, where an empty sliver (under a quarter of a period, not
 * the first interval) prints none: it would read as the rates falling
 * to 0.  For --jobs, whose parent fills a state of its own with the
 * workers' sums.
 */
void	interval_line_out(struct interval *iv, uint64_t end, int last);

/*
 * For --jobs, whose parent writes the hlog of the workers' sums with a
 * state of its own (iv zeroed but for target_rate): creates (empties)
 * the file at `path' and writes its header for a test that started at
 * `wall' (ns since the epoch).  Returns 0, or -1 with a message in err.
 */
int	interval_hlog_open(struct interval *iv, const char *path,
	    uint64_t wall, char *err, size_t errlen);

/*
 * Writes the hlog lines (if iv has a log) of the interval from iv->mark
 * to `end' with iv's histograms.
 */
void	interval_hlog_out(struct interval *iv, uint64_t end);

/*
 * Closes the hlog, if any.  Returns 0, or -1 with a message in err when
 * it could not be written.
 */
int	interval_hlog_close(struct interval *iv, char *err, size_t errlen);

/*
 * The test ended at `now': ends the last interval there (if any time
 * passed since the last one ended), disarms the timers, and pushes the
 * hlog out.  Returns 0, or -1 with a message in err when the hlog could
 * not be written.
 */
int	interval_stop(struct interval *iv, uint64_t now, char *err,
	    size_t errlen);

/* The replies (of every status class) and the errors of `c'. */
uint64_t interval_replies(const struct interval_counts *c);
uint64_t interval_errors(const struct interval_counts *c);

/* Frees it (closes the hlog).  Harmless after a failed init. */
void	interval_fini(struct interval *iv);

/*
 * --slo-abort (stat/slo_live.c).  Says whether objective o can be judged
 * before the end: an absolute count with < or <=, or max< / max<= of the
 * reply, corrected or connect time.
 */
int	slo_live_judged(const struct slo *o);
/* Adds the ending interval to the totals (before it is reset). */
void	slo_live_end(struct interval *iv);
/* After an event: calls iv->abort once an objective has failed. */
void	slo_live_check(struct interval *iv, uint64_t now);

/*
 * Writes one hlog line: "Tag=TAG,START,LENGTH,MAX,HISTF..." with the
 * start (since the log's BaseTime) and length in seconds (3 decimals)
 * and the max in ms (3 decimals), as HdrHistogram's Java writer does by
 * default for values recorded in ns.  Returns 0, or -1 (no memory).
 */
int	interval_hlog_line(FILE *f, const char *tag, uint64_t start,
	    uint64_t length, const struct hdr *h);

/*
 * Summarises h into *s (percentiles, max, count and its encoding, which
 * s->hdr then owns; NULL if it cannot be encoded).
 */
void	interval_sum_of(struct interval_sum *s, const struct hdr *h);

/*
 * Writes stats.interval of the --json document: the period, the target
 * rate (0: no schedule), the bound and how many periods each interval
 * kept covers, and every record (see the schema).
 */
struct jsonw;
void	interval_json_recs(struct jsonw *w, double target,
	    const struct interval_recs *l);

/*
 * --merge (a state that init made for a merge: no events): checks one
 * file's stats.interval (mg->obj) and keeps its intervals; then
 * interval_merge_end() adds them up, slot j (the files' largest joined
 * periods, from the merge's start on the wall clock) holding every
 * file's interval that starts in it; interval_merge_free() frees what
 * the files left.
 */
struct collector_merge;
void	interval_merge(struct interval *iv, struct collector_merge *mg);
void	interval_merge_end(struct interval *iv, uint64_t start_ns,
	    uint64_t end_ns);
void	interval_merge_free(struct interval *iv);

/* Frees the encodings a record holds. */
void	interval_rec_free(struct interval_rec *r);

/* The tag of histogram `i' in the hlog. */
const char *interval_tag(enum interval_hist i);

struct collector;

/* The collector (stat/collector.h).  Settings: interval_config. */
extern const struct collector interval_collector;

#endif
