/*
 * The classic httperf report: turns the basic collector's raw totals into
 * the lines 0.9.0 prints, with its labels and number formats.  Means are
 * true means (0.9.0 truncated some), and every division by a zero count or
 * duration prints 0 instead of inf or nan.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/hdr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/series.h"
#include "stat/stat_json.h"
#include "stat/stat_merge.h"

#define NS_PER_SEC	1e9
#define NS_PER_MSEC	1e6

enum basic_err
basic_err_class(int err)
{
	switch (err) {
	case EMFILE:
		return BASIC_ERR_FD_UNAVAIL;
	case ENFILE:
		return BASIC_ERR_FTAB_FULL;
	case ECONNREFUSED:
		return BASIC_ERR_CONNREFUSED;
	case ETIMEDOUT:
		return BASIC_ERR_SOCKET_TIMO;
	case ETIME:
		/* A call's own --timeout (an HTTP/2 stream, core/conn_h2.h). */
		return BASIC_ERR_CLIENT_TIMO;
	case ECONNRESET:
	case EPIPE:
		return BASIC_ERR_CONNRESET;
	case EADDRNOTAVAIL:
		return BASIC_ERR_ADDRUNAVAIL;
	default:
		return BASIC_ERR_OTHER;
	}
}

uint64_t
basic_total_replies(const struct basic_totals *t)
{
	uint64_t sum = 0;
	int i;

	for (i = 1; i <= 5; i++)
		sum += t->replies[i];
	return sum;
}

double
basic_ratio(double a, double b)
{
	double r;

	if (b == 0)
		return 0.0;
	r = a / b;
	return isfinite(r) ? r : 0.0;
}

int
basic_sample_whole(uint64_t start, uint64_t now, double per_sec)
{
	if (per_sec <= 0)
		return 1;	/* no window: as it always was */
	return (double)now - 1e9 / per_sec + 1e6 >= (double)start;
}

/* Prints the -v -v lifetime histogram, one line per non-empty 1 ms bin. */
static void
print_lifetime_bins(FILE *out, const struct basic_totals *t)
{
	uint32_t i;

	fprintf(out, "\nConnection lifetime histogram (time in ms):\n");
	for (i = 0; i < t->lifetime_nbins; i++) {
		if (t->lifetime_bins[i] == 0)
			continue;
		if (i > 0 && t->lifetime_bins[i - 1] == 0)
			fprintf(out, "%14c\n", ':');
		fprintf(out, "%16.1f %u\n", 1e3 * (i + 0.5) * 1e-3,
		    (unsigned)t->lifetime_bins[i]);
	}
}

/* Prints the Total line and the Connection block. */
static void
print_conns(FILE *out, const struct basic_totals *t, double d,
    uint64_t replies)
{
	double lmin = 0, lavg = 0, lmax = 0, lmed = 0, lsd = 0, lsum;
	uint64_t n = t->lifetime_n;

	fprintf(out, "\nTotal: connections %llu requests %llu replies %llu "
	    "test-duration %.3f s\n",
	    (unsigned long long)t->conns_issued,
	    (unsigned long long)t->reqs_sent,
	    (unsigned long long)replies, d);
	fprintf(out, "\n");

	fprintf(out, "Connection rate: %.1f conn/s (%.1f ms/conn, "
	    "<=%llu concurrent connections)\n",
	    basic_ratio((double)t->conns_issued, d),
	    1e3 * basic_ratio(d, (double)t->conns_issued),
	    (unsigned long long)t->max_concurrent);

	if (n > 0) {
		lsum = (double)t->lifetime_sum / NS_PER_SEC;
		lmin = (double)t->lifetime_min / NS_PER_MSEC;
		lmax = (double)t->lifetime_max / NS_PER_MSEC;
		lavg = 1e3 * lsum / (double)n;
		lsd = 1e3 * basic_stddev(n, lsum, t->lifetime_sum2);
	}
	if (t->lifetime_hist != NULL && hdr_count(t->lifetime_hist) > 0)
		lmed = (double)hdr_value_at_percentile(t->lifetime_hist,
		    50.0) / NS_PER_MSEC;
	fprintf(out, "Connection time [ms]: min %.1f avg %.1f max %.1f "
	    "median %.1f stddev %.1f\n", lmin, lavg, lmax, lmed, lsd);
	fprintf(out, "Connection time [ms]: connect %.1f\n",
	    1e3 * basic_ratio((double)t->connect_sum / NS_PER_SEC,
	    (double)t->connects_n));
	fprintf(out, "Connection length [replies/conn]: %.3f\n",
	    basic_ratio((double)replies, (double)n));
}

/* Prints the Request and Reply blocks. */
static void
print_calls(FILE *out, const struct basic_totals *t, double d,
    uint64_t replies)
{
	const struct basic_series *rr = &t->reply_rate;
	double hdr, content, footer;

	fprintf(out, "\n");
	fprintf(out, "Request rate: %.1f req/s (%.1f ms/req)\n",
	    basic_ratio((double)t->reqs_sent, d),
	    1e3 * basic_ratio(d, (double)t->reqs_sent));
	fprintf(out, "Request size [B]: %.1f\n",
	    basic_ratio((double)t->req_bytes, (double)t->reqs_sent));
	fprintf(out, "\n");

	fprintf(out, "Reply rate [replies/s]: min %.1f avg %.1f max %.1f "
	    "stddev %.1f (%llu samples)\n",
	    rr->n > 0 ? rr->min : 0.0,
	    basic_ratio(rr->sum, (double)rr->n),
	    rr->n > 0 ? rr->max : 0.0,
	    basic_stddev(rr->n, rr->sum, rr->sum2),
	    (unsigned long long)rr->n);
	fprintf(out, "Reply time [ms]: response %.1f transfer %.1f\n",
	    1e3 * basic_ratio((double)t->response_sum / NS_PER_SEC,
	    (double)t->responses_n),
	    1e3 * basic_ratio((double)t->transfer_sum / NS_PER_SEC,
	    (double)replies));
	hdr = basic_ratio((double)t->hdr_bytes, (double)replies);
	content = basic_ratio((double)t->content_bytes, (double)replies);
	footer = basic_ratio((double)t->footer_bytes, (double)replies);
	fprintf(out, "Reply size [B]: header %.1f content %.1f footer %.1f "
	    "(total %.1f)\n", hdr, content, footer, hdr + content + footer);
	fprintf(out, "Reply status: 1xx=%llu 2xx=%llu 3xx=%llu 4xx=%llu "
	    "5xx=%llu\n",
	    (unsigned long long)t->replies[1],
	    (unsigned long long)t->replies[2],
	    (unsigned long long)t->replies[3],
	    (unsigned long long)t->replies[4],
	    (unsigned long long)t->replies[5]);
	fprintf(out, "\n");
	/* Upstream's line, where upstream put it. */
	if (t->periodic)
		fprintf(out, "Periodic stats: 200=%llu 302=%llu\n\n",
		    (unsigned long long)t->s200,
		    (unsigned long long)t->s302);
}

/* Prints the CPU, Net I/O and Errors lines. */
static void
print_system(FILE *out, const struct basic_totals *t, double d)
{
	const uint64_t *e = t->errors;
	uint64_t total = 0;
	int i;

	fprintf(out, "CPU time [s]: user %.2f system %.2f "
	    "(user %.1f%% system %.1f%% total %.1f%%)\n",
	    t->cpu_user, t->cpu_sys,
	    100.0 * basic_ratio(t->cpu_user, d),
	    100.0 * basic_ratio(t->cpu_sys, d),
	    100.0 * basic_ratio(t->cpu_user + t->cpu_sys, d));
	fprintf(out, "Net I/O: %.1f KB/s (%.1f*10^6 bps)\n",
	    basic_ratio((double)t->net_bytes, d) / 1024.0,
	    8e-6 * basic_ratio((double)t->net_bytes, d));
	fprintf(out, "\n");

	for (i = 0; i < BASIC_ERR_COUNT; i++)
		total += e[i];
	fprintf(out, "Errors: total %llu client-timo %llu socket-timo %llu "
	    "connrefused %llu connreset %llu\n",
	    (unsigned long long)total,
	    (unsigned long long)e[BASIC_ERR_CLIENT_TIMO],
	    (unsigned long long)e[BASIC_ERR_SOCKET_TIMO],
	    (unsigned long long)e[BASIC_ERR_CONNREFUSED],
	    (unsigned long long)e[BASIC_ERR_CONNRESET]);
	fprintf(out, "Errors: fd-unavail %llu addrunavail %llu ftab-full %llu "
	    "other %llu\n",
	    (unsigned long long)e[BASIC_ERR_FD_UNAVAIL],
	    (unsigned long long)e[BASIC_ERR_ADDRUNAVAIL],
	    (unsigned long long)e[BASIC_ERR_FTAB_FULL],
	    (unsigned long long)e[BASIC_ERR_OTHER]);
}

void
basic_report_print(FILE *out, const struct basic_totals *t, int verbose)
{
	double d = (double)t->duration / NS_PER_SEC;
	uint64_t replies = basic_total_replies(t);

	if (verbose > 1 && t->lifetime_bins != NULL)
		print_lifetime_bins(out, t);
	print_conns(out, t, d, replies);
	print_calls(out, t, d, replies);
	print_system(out, t, d);
}

/*
 * The members of stats.basic that --merge reads back: written by
 * basic_report_json() and read by basic_report_merge(), both here.
 */
#define BK_CONNECTIONS		"connections"
#define BK_TOTAL		"total"
#define BK_MAX_BURST		"max_burst"
#define BK_MAX_CONCURRENT	"max_concurrent"
#define BK_LIFETIME		"lifetime"
#define BK_N			"n"
#define BK_MIN_NS		"min_ns"
#define BK_MAX_NS		"max_ns"
#define BK_SUM_NS		"sum_ns"
#define BK_SUM2_S2		"sum2_s2"
#define BK_CONNECT		"connect"
#define BK_REQUESTS		"requests"
#define BK_BYTES		"bytes"
#define BK_EARLY		"early"
#define BK_CUT			"cut"
#define BK_UNSENT_BYTES		"unsent_bytes"
#define BK_REPLIES		"replies"
#define BK_STATUS		"status"
#define BK_RATE_PER_S		"rate_per_s"
#define BK_RESPONSES		"responses"
#define BK_RESPONSE_SUM_NS	"response_sum_ns"
#define BK_TRANSFER_SUM_NS	"transfer_sum_ns"
#define BK_HEADER_BYTES		"header_bytes"
#define BK_CONTENT_BYTES	"content_bytes"
#define BK_FOOTER_BYTES		"footer_bytes"
#define BK_CPU			"cpu"
#define BK_USER_S		"user_s"
#define BK_SYSTEM_S		"system_s"
#define BK_NET			"net"
#define BK_ERRORS		"errors"
#define BK_ANNOUNCED		"announced"
#define BK_CONNECTION_CLOSE	"connection_close"
#define BK_GOAWAY		"goaway"
#define BK_RETRIED		"retried"

/* The Connection blocks' numbers (print_conns()). */
static void
json_conns(struct jsonw *w, const struct basic_totals *t, double d,
    uint64_t replies, uint64_t burst_max)
{
	double lsum = (double)t->lifetime_sum / NS_PER_SEC;
	uint64_t n = t->lifetime_n;

	jsonw_key(w, BK_CONNECTIONS);
	jsonw_obj_begin(w);
	jsonw_ku64(w, BK_TOTAL, t->conns_issued);
	jsonw_ku64(w, BK_MAX_BURST, burst_max);
	jsonw_ku64(w, BK_MAX_CONCURRENT, t->max_concurrent);
	jsonw_kdouble(w, BK_RATE_PER_S, basic_ratio((double)t->conns_issued,
	    d));
	jsonw_kdouble(w, "ms_per_conn",
	    1e3 * basic_ratio(d, (double)t->conns_issued));
	jsonw_key(w, BK_LIFETIME);
	jsonw_obj_begin(w);
	jsonw_ku64(w, BK_N, n);
	jsonw_ku64(w, BK_MIN_NS, n > 0 ? t->lifetime_min : 0);
	jsonw_ku64(w, BK_MAX_NS, n > 0 ? t->lifetime_max : 0);
	jsonw_ku64(w, BK_SUM_NS, t->lifetime_sum);
	jsonw_kdouble(w, BK_SUM2_S2, t->lifetime_sum2);
	jsonw_kdouble(w, "min_ms", n > 0 ?
	    (double)t->lifetime_min / NS_PER_MSEC : 0.0);
	jsonw_kdouble(w, "max_ms", n > 0 ?
	    (double)t->lifetime_max / NS_PER_MSEC : 0.0);
	jsonw_kdouble(w, "avg_ms", 1e3 * basic_ratio(lsum, (double)n));
	jsonw_kdouble(w, "median_ms", t->lifetime_hist != NULL &&
	    hdr_count(t->lifetime_hist) > 0 ?
	    (double)hdr_value_at_percentile(t->lifetime_hist, 50.0) /
	    NS_PER_MSEC : 0.0);
	jsonw_kdouble(w, "stddev_ms", n > 0 ?
	    1e3 * basic_stddev(n, lsum, t->lifetime_sum2) : 0.0);
	jsonw_obj_end(w);
	jsonw_key(w, BK_CONNECT);
	jsonw_obj_begin(w);
	jsonw_ku64(w, BK_N, t->connects_n);
	jsonw_ku64(w, BK_SUM_NS, t->connect_sum);
	jsonw_kdouble(w, "avg_ms", 1e3 * basic_ratio((double)t->connect_sum /
	    NS_PER_SEC, (double)t->connects_n));
	jsonw_obj_end(w);
	jsonw_kdouble(w, "replies_per_conn", basic_ratio((double)replies,
	    (double)n));
	jsonw_obj_end(w);
}

/* The Request and Reply blocks' numbers (print_calls()). */
static void
json_calls(struct jsonw *w, const struct basic_totals *t, double d,
    uint64_t replies, const struct stat_samples *rr)
{
	size_t i;

	jsonw_key(w, BK_REQUESTS);
	jsonw_obj_begin(w);
	jsonw_ku64(w, BK_TOTAL, t->reqs_sent);
	jsonw_ku64(w, BK_BYTES, t->req_bytes);
	jsonw_kdouble(w, BK_RATE_PER_S, basic_ratio((double)t->reqs_sent, d));
	jsonw_kdouble(w, "ms_per_req",
	    1e3 * basic_ratio(d, (double)t->reqs_sent));
	jsonw_kdouble(w, "size_b", basic_ratio((double)t->req_bytes,
	    (double)t->reqs_sent));
	jsonw_ku64(w, BK_EARLY, t->early);
	jsonw_ku64(w, BK_CUT, t->cut);
	jsonw_ku64(w, BK_UNSENT_BYTES, t->unsent_bytes);
	jsonw_obj_end(w);

	jsonw_key(w, BK_REPLIES);
	jsonw_obj_begin(w);
	jsonw_ku64(w, BK_TOTAL, replies);
	jsonw_key(w, BK_STATUS);
	jsonw_obj_begin(w);
	for (i = 0; i < BASIC_NSTATUS; i++)
		jsonw_ku64(w, basic_status_name[i], t->replies[i + 1]);
	jsonw_obj_end(w);
	jsonw_key(w, BK_RATE_PER_S);
	stat_json_series(w, &t->reply_rate, rr, basic_ratio(t->reply_rate.sum,
	    (double)t->reply_rate.n));
	jsonw_ku64(w, BK_RESPONSES, t->responses_n);
	jsonw_ku64(w, BK_RESPONSE_SUM_NS, t->response_sum);
	jsonw_ku64(w, BK_TRANSFER_SUM_NS, t->transfer_sum);
	jsonw_kdouble(w, "response_ms",
	    1e3 * basic_ratio((double)t->response_sum / NS_PER_SEC,
	    (double)t->responses_n));
	jsonw_kdouble(w, "transfer_ms",
	    1e3 * basic_ratio((double)t->transfer_sum / NS_PER_SEC,
	    (double)replies));
	jsonw_ku64(w, BK_HEADER_BYTES, t->hdr_bytes);
	jsonw_ku64(w, BK_CONTENT_BYTES, t->content_bytes);
	jsonw_ku64(w, BK_FOOTER_BYTES, t->footer_bytes);
	jsonw_kdouble(w, "header_size_b", basic_ratio((double)t->hdr_bytes,
	    (double)replies));
	jsonw_kdouble(w, "content_size_b",
	    basic_ratio((double)t->content_bytes, (double)replies));
	jsonw_kdouble(w, "footer_size_b", basic_ratio((double)t->footer_bytes,
	    (double)replies));
	jsonw_kdouble(w, "size_b", basic_ratio((double)(t->hdr_bytes +
	    t->content_bytes + t->footer_bytes), (double)replies));
	jsonw_obj_end(w);
}

const char *const basic_err_name[BASIC_ERR_COUNT] = {
	[BASIC_ERR_CLIENT_TIMO] = "client-timo",
	[BASIC_ERR_SOCKET_TIMO] = "socket-timo",
	[BASIC_ERR_CONNREFUSED] = "connrefused",
	[BASIC_ERR_CONNRESET] = "connreset",
	[BASIC_ERR_FD_UNAVAIL] = "fd-unavail",
	[BASIC_ERR_ADDRUNAVAIL] = "addrunavail",
	[BASIC_ERR_FTAB_FULL] = "ftab-full",
	[BASIC_ERR_OTHER] = "other",
};

const char *const basic_status_name[BASIC_NSTATUS] = {
	"1xx", "2xx", "3xx", "4xx", "5xx"
};

/* The CPU, Net I/O and Errors lines' numbers (print_system()). */
static void
json_system(struct jsonw *w, const struct basic_totals *t, double d)
{
	uint64_t total = 0;
	int i;

	jsonw_key(w, BK_CPU);
	jsonw_obj_begin(w);
	jsonw_kdouble(w, BK_USER_S, t->cpu_user);
	jsonw_kdouble(w, BK_SYSTEM_S, t->cpu_sys);
	jsonw_kdouble(w, "user_pct", 100.0 * basic_ratio(t->cpu_user, d));
	jsonw_kdouble(w, "system_pct", 100.0 * basic_ratio(t->cpu_sys, d));
	jsonw_kdouble(w, "total_pct",
	    100.0 * basic_ratio(t->cpu_user + t->cpu_sys, d));
	jsonw_obj_end(w);
	jsonw_key(w, BK_NET);
	jsonw_obj_begin(w);
	jsonw_ku64(w, BK_BYTES, t->net_bytes);
	jsonw_kdouble(w, "kb_per_s", basic_ratio((double)t->net_bytes, d) /
	    1024.0);
	jsonw_kdouble(w, "mbps", 8e-6 * basic_ratio((double)t->net_bytes, d));
	jsonw_obj_end(w);
	jsonw_key(w, BK_ERRORS);
	jsonw_obj_begin(w);
	for (i = 0; i < BASIC_ERR_COUNT; i++)
		total += t->errors[i];
	jsonw_ku64(w, BK_TOTAL, total);
	for (i = 0; i < BASIC_ERR_COUNT; i++)
		jsonw_ku64(w, basic_err_name[i], t->errors[i]);
	jsonw_obj_end(w);
	jsonw_key(w, BK_ANNOUNCED);
	jsonw_obj_begin(w);
	jsonw_ku64(w, BK_CONNECTION_CLOSE, t->announced_close);
	jsonw_ku64(w, BK_GOAWAY, t->announced_goaway);
	jsonw_ku64(w, BK_RETRIED, t->retried);
	jsonw_obj_end(w);
}

void
basic_report_json(struct jsonw *w, const struct basic_totals *t,
    const struct stat_samples *rr, uint64_t burst_max)
{
	double d = (double)t->duration / NS_PER_SEC;
	uint64_t replies = basic_total_replies(t);

	json_conns(w, t, d, replies, burst_max);
	json_calls(w, t, d, replies, rr);
	json_system(w, t, d);
}

/* --merge: the connections' members. */
#define CO	BK_CONNECTIONS "."
#define LT	BK_CONNECTIONS "." BK_LIFETIME "."
#define CN	BK_CONNECTIONS "." BK_CONNECT "."
static void
merge_conns(struct collector_merge *mg, struct basic_totals *t,
    uint64_t *burst_max)
{
	stat_merge_add(mg, CO BK_TOTAL, &t->conns_issued);
	stat_merge_max(mg, CO BK_MAX_BURST, burst_max);
	stat_merge_add(mg, CO BK_MAX_CONCURRENT, &t->max_concurrent);
	stat_merge_min_max(mg, stat_merge_u64(mg, LT BK_N), t->lifetime_n,
	    LT BK_MIN_NS, &t->lifetime_min, LT BK_MAX_NS, &t->lifetime_max);
	stat_merge_add(mg, LT BK_N, &t->lifetime_n);
	stat_merge_add(mg, LT BK_SUM_NS, &t->lifetime_sum);
	t->lifetime_sum2 += stat_merge_num(mg, LT BK_SUM2_S2);
	stat_merge_add(mg, CN BK_N, &t->connects_n);
	stat_merge_add(mg, CN BK_SUM_NS, &t->connect_sum);
}
#undef CO
#undef LT
#undef CN

/* --merge: the requests' and replies' members. */
static void
merge_calls(struct collector_merge *mg, struct basic_totals *t,
    struct stat_samples *rr_sum)
{
	char field[160];
	size_t i;

	stat_merge_add(mg, BK_REQUESTS "." BK_TOTAL, &t->reqs_sent);
	stat_merge_add(mg, BK_REQUESTS "." BK_BYTES, &t->req_bytes);
	stat_merge_add(mg, BK_REQUESTS "." BK_EARLY, &t->early);
	stat_merge_add(mg, BK_REQUESTS "." BK_CUT, &t->cut);
	stat_merge_add(mg, BK_REQUESTS "." BK_UNSENT_BYTES, &t->unsent_bytes);
	for (i = 0; i < BASIC_NSTATUS; i++) {
		snprintf(field, sizeof(field), BK_REPLIES "." BK_STATUS ".%s",
		    basic_status_name[i]);
		stat_merge_add(mg, field, &t->replies[i + 1]);
	}
	stat_merge_samples(mg, BK_REPLIES "." BK_RATE_PER_S, rr_sum);
	stat_merge_add(mg, BK_REPLIES "." BK_RESPONSES, &t->responses_n);
	stat_merge_add(mg, BK_REPLIES "." BK_RESPONSE_SUM_NS,
	    &t->response_sum);
	stat_merge_add(mg, BK_REPLIES "." BK_TRANSFER_SUM_NS,
	    &t->transfer_sum);
	stat_merge_add(mg, BK_REPLIES "." BK_HEADER_BYTES, &t->hdr_bytes);
	stat_merge_add(mg, BK_REPLIES "." BK_CONTENT_BYTES, &t->content_bytes);
	stat_merge_add(mg, BK_REPLIES "." BK_FOOTER_BYTES, &t->footer_bytes);
}

/* --merge: the system's and the errors' members. */
static void
merge_system(struct collector_merge *mg, struct basic_totals *t,
    uint64_t *net_bytes)
{
	char field[160];
	size_t i;

	mg->run->cpu_user += stat_merge_num(mg, BK_CPU "." BK_USER_S);
	mg->run->cpu_sys += stat_merge_num(mg, BK_CPU "." BK_SYSTEM_S);
	stat_merge_add(mg, BK_NET "." BK_BYTES, net_bytes);
	for (i = 0; i < BASIC_ERR_COUNT; i++) {
		snprintf(field, sizeof(field), BK_ERRORS ".%s",
		    basic_err_name[i]);
		stat_merge_add(mg, field, &t->errors[i]);
	}
	stat_merge_add(mg, BK_ANNOUNCED "." BK_CONNECTION_CLOSE,
	    &t->announced_close);
	stat_merge_add(mg, BK_ANNOUNCED "." BK_GOAWAY, &t->announced_goaway);
	stat_merge_add(mg, BK_ANNOUNCED "." BK_RETRIED, &t->retried);
}

void
basic_report_merge(struct collector_merge *mg, struct basic_totals *t,
    struct stat_samples *rr_sum, uint64_t *burst_max, uint64_t *net_bytes)
{
	merge_conns(mg, t, burst_max);
	merge_calls(mg, t, rr_sum);
	merge_system(mg, t, net_bytes);
}

int
basic_fail_warn(FILE *out, const struct basic_totals *t)
{
	uint64_t replies = basic_total_replies(t), errs = 0;
	int i, top = 0;

	for (i = 0; i < BASIC_ERR_COUNT; i++) {
		errs += t->errors[i];
		if (t->errors[i] > t->errors[top])
			top = i;
	}
	if (replies > 0 && 100.0 * (double)errs <=
	    BASIC_FAIL_WARN_PCT * ((double)errs + (double)replies))
		return 0;
	fputs("\nWarning: ", out);
	if (replies == 0)
		fputs("no replies", out);
	else
		fprintf(out, "%.1f%% of calls failed", 100.0 *
		    (double)errs / ((double)errs + (double)replies));
	if (errs == 0) {
		fputs(" (and no errors)\n", out);
		return 1;
	}
	fprintf(out, " (%llu errors, %llu replies); most errors: %s (%llu)\n",
	    (unsigned long long)errs, (unsigned long long)replies,
	    basic_err_name[top], (unsigned long long)t->errors[top]);
	return 1;
}

void
basic_print_pct(FILE *out, const char *label, const struct hdr *h)
{
	size_t i;
	int empty = h == NULL || hdr_count(h) == 0;

	/* The percentiles of the JSON document's (stat_json.h), so the
	   lines and the document always agree. */
	fprintf(out, "%s percentiles [ms]:", label);
	for (i = 0; i < STAT_NPCT; i++)
		fprintf(out, " %s %.3f", stat_pct_name[i], empty ? 0.0 :
		    (double)hdr_value_at_percentile(h, stat_pct[i]) /
		    NS_PER_MSEC);
	fprintf(out, " max %.3f\n",
	    empty ? 0.0 : (double)hdr_max(h) / NS_PER_MSEC);
}
