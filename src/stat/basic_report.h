/*
 * The classic httperf report: the totals the basic collector gathers, and
 * the code that turns them into the report lines, with the labels, order
 * and number formats of httperf 0.9.0.  Pure formatting: no events here,
 * so the arithmetic can be tested on its own.
 */
#ifndef HTTPERF_STAT_BASIC_REPORT_H
#define HTTPERF_STAT_BASIC_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "stat/series.h"

struct hdr;
struct jsonw;

/* Returns a / b, or 0 when b is 0 or the result is not finite. */
double	basic_ratio(double a, double b);

/*
 * Says whether the rate sample taken at `now', `per_sec' being 1 over its
 * window (BUS_PERF_SAMPLE's argument), has its whole window after the
 * measure's `start' (within 1 ms): a --sweep step starts its collectors
 * mid-window, and its first sample would count only part of one.
 */
int	basic_sample_whole(uint64_t start, uint64_t now, double per_sec);

/* Error classes of the two Errors lines. */
enum basic_err {
	BASIC_ERR_CLIENT_TIMO,
	BASIC_ERR_SOCKET_TIMO,
	BASIC_ERR_CONNREFUSED,
	BASIC_ERR_CONNRESET,
	BASIC_ERR_FD_UNAVAIL,
	BASIC_ERR_ADDRUNAVAIL,
	BASIC_ERR_FTAB_FULL,
	BASIC_ERR_OTHER,
	BASIC_ERR_COUNT,
};

/* The classes' names in the --json document ("client-timo", ...). */
extern const char *const basic_err_name[BASIC_ERR_COUNT];
/* The status classes' names, "1xx" to "5xx": basic_status_name[0] is
   1xx. */
#define BASIC_NSTATUS	5
extern const char *const basic_status_name[BASIC_NSTATUS];

/* Maps a connection failure's errno to its class (never CLIENT_TIMO). */
enum basic_err basic_err_class(int err);

/* Everything the report prints, as raw sums and counts. */
struct basic_totals {
	uint64_t	duration;		/* ns */
	uint64_t	conns_issued;		/* connections initiated */
	uint64_t	max_concurrent;

	/* Lifetimes of connections that completed at least one reply. */
	uint64_t	lifetime_n;
	uint64_t	lifetime_min;		/* ns */
	uint64_t	lifetime_max;		/* ns */
	uint64_t	lifetime_sum;		/* ns */
	double		lifetime_sum2;		/* s^2 */
	const struct hdr *lifetime_hist;	/* for the median */
	/* -v -v only: counts per 1 ms bin, the last bin holds the rest. */
	const uint32_t	*lifetime_bins;
	uint32_t	 lifetime_nbins;

	uint64_t	connects_n;		/* successful connects */
	uint64_t	connect_sum;		/* ns */

	uint64_t	reqs_sent;
	uint64_t	req_bytes;
	uint64_t	early;		/* replies before the request's end */
	uint64_t	cut;		/* of which the rest was never sent */
	uint64_t	unsent_bytes;	/* request bytes those never sent */

	struct basic_series reply_rate;		/* per 5 s sample */

	uint64_t	responses_n;		/* first reply byte seen */
	uint64_t	response_sum;		/* ns, send start to reply start */
	uint64_t	transfer_sum;		/* ns, reply start to reply end */
	uint64_t	replies[6];		/* [status/100], [0] unused */
	/* --periodic-stats: its final line, of the replies with status
	   200 and 302. */
	int		periodic;
	uint64_t	s200;
	uint64_t	s302;
	uint64_t	hdr_bytes;		/* of completed replies */
	uint64_t	content_bytes;
	uint64_t	footer_bytes;

	uint64_t	net_bytes;		/* every byte sent and received */
	double		cpu_user;		/* s */
	double		cpu_sys;		/* s */

	uint64_t	errors[BASIC_ERR_COUNT];
	/*
	 * Requests the server announced it would not process: of the
	 * errors above, those after a reply that closed the connection
	 * (Connection: close; connreset) and those above a GOAWAY's last
	 * stream id (other, HTTP/2 refused-stream); and such requests sent
	 * again and answered, which are no errors.
	 */
	uint64_t	announced_close;
	uint64_t	announced_goaway;
	uint64_t	retried;
};

/* Returns replies[1] + ... + replies[5]. */
uint64_t basic_total_replies(const struct basic_totals *t);

/*
 * Prints the report from the "Total:" block (preceded by the lifetime
 * histogram when verbose > 1) to the second Errors line, exactly as 0.9.0
 * lays it out.
 */
void	basic_report_print(FILE *out, const struct basic_totals *t,
	    int verbose);

/*
 * --merge: adds the members basic_report_json() writes of one file's
 * stats.basic (mg->obj) into t, the reply-rate samples into rr_sum (by
 * index), the burst into *burst_max (the largest), the bytes read and
 * written into *net_bytes, the CPU times into mg->run.
 */
struct collector_merge;
void	basic_report_merge(struct collector_merge *mg, struct basic_totals *t,
	    struct stat_samples *rr_sum, uint64_t *burst_max,
	    uint64_t *net_bytes);

/*
 * Writes the classic report's numbers as members of the JSON object being
 * written: each block's raw totals (what --merge adds up exactly) next to
 * the values the report prints from them.  `rr' holds the reply-rate
 * samples; `burst_max' is the first line's number.
 */
void	basic_report_json(struct jsonw *w, const struct basic_totals *t,
	    const struct stat_samples *rr, uint64_t burst_max);

/*
 * The share of failed calls above which basic_fail_warn() speaks, in
 * percent of the calls that ended (with a reply or with an error).
 */
#define BASIC_FAIL_WARN_PCT	10.0

/*
 * After the whole report: when the run had no replies, or more than
 * BASIC_FAIL_WARN_PCT of its calls failed, prints a blank line and one
 * "Warning:" line with the counts and the error class with the most
 * errors (its name in the Errors lines), so that a run that mostly
 * measured a dead server does not pass unnoticed.  Returns 1 if it
 * printed, else 0.
 */
int	basic_fail_warn(FILE *out, const struct basic_totals *t);

/*
 * Prints one percentile line after the classic report:
 * "LABEL percentiles [ms]: p50 A p90 B p99 C p99.9 D p99.99 E max F",
 * the values in ms with 3 decimals (HdrHistogram's percentiles and max
 * of h); all 0.000 when h is empty or NULL.
 */
void	basic_print_pct(FILE *out, const char *label, const struct hdr *h);

#endif
