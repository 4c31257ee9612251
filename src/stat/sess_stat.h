/*
 * The session statistics collector (--wsess, --wsesslog): session rate,
 * connections per session, lifetimes and the length histogram, printed
 * after the classic report in 0.9.0's format.
 */
#ifndef HTTPERF_STAT_SESS_STAT_H
#define HTTPERF_STAT_SESS_STAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stat/basic_report.h"
#include "stat/stat_json.h"

struct core;
struct jsonw;

/* Everything the session report prints, as raw sums and counts. */
struct sess_stat_totals {
	struct basic_series rate;	/* completed per sample, per second */
	struct stat_samples rate_samples;	/* every sample of it */
	uint64_t	 completed;
	uint64_t	 failed;
	uint64_t	 conns;		/* conns of completed sessions */
	uint64_t	 lifetime_sum;	/* ns, completed sessions */
	uint64_t	 failtime_sum;	/* ns, failed sessions */
	/* Sessions (completed or failed) by number of replies. */
	uint64_t	*len_hist;
	size_t		 len_n;		/* in use: longest + 1 */
	size_t		 len_cap;
	/* --session-cookies: Set-Cookie fields ignored because a session's
	   jar was at its limits (see gen/cookie.h). */
	int		 cookies;	/* print the cookie line */
	uint64_t	 cookies_ignored;
};

struct sess_stat {
	struct core	*core;
	FILE		*out;		/* where -v samples go */
	int		 verbose;
	struct sess_stat_totals t;
	uint64_t	 interval_completed;	/* since the last sample */
	uint64_t	 start;		/* the measure's */
};

/* Subscribes the collector to the core's events (after basic_init()). */
void	sess_stat_init(struct sess_stat *st, struct core *core, int verbose,
	    FILE *out);

/* Frees the collector's memory. */
void	sess_stat_fini(struct sess_stat *st);

/* Prints the session report for a test of `duration' ns. */
void	sess_stat_print(struct sess_stat *st, FILE *out, uint64_t duration);

/*
 * Prints the five report lines from totals (pure formatting), and a sixth,
 * "Session cookies: ignored N", when t->cookies is set.
 */
void	sess_stat_report(FILE *out, const struct sess_stat_totals *t,
	    uint64_t duration);

/*
 * Writes the session report's numbers as one JSON object: the raw totals
 * and the values the lines print from them.
 */
void	sess_stat_json(struct jsonw *w, const struct sess_stat_totals *t,
	    uint64_t duration);

/* Counts one session with `nreplies' replies in the length histogram. */
void	sess_stat_add_len(struct sess_stat_totals *t, uint64_t nreplies);

/* Its settings as a collector (collector_env.cfg). */
struct sess_stat_config {
	int		 cookies;	/* print the cookie line */
	/* The count of ignored Set-Cookie fields, which the session
	   workload keeps (session_config.cookies_ignored); read when the
	   report is printed. */
	const uint64_t	*cookies_ignored;
};

struct collector;

/* The collector (stat/collector.h): its report is the session lines. */
extern const struct collector sess_stat_collector;

#endif
