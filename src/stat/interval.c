/*
 * The interval collector (see interval.h): per-interval histograms and
 * counts, written as an HdrHistogram interval log (--hlog), as progress
 * lines (--interval) and as upstream httperf's 200/302 lines
 * (--periodic-stats).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/clock.h"
#include "core/conn.h"
#include "core/core.h"
#include "core/loop.h"
#include "lib/hdr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/interval.h"
#include "stat/reply.h"
#include "stat/slo.h"

#define NS_PER_SEC	UINT64_C(1000000000)
#define NS_PER_MSEC	1e6

/* --periodic-stats prints every second, whatever --interval says. */
#define PERIODIC_NS	NS_PER_SEC

static const char *const interval_tags[INTERVAL_NHIST] = {
	[INTERVAL_H_REPLY] = "reply",
	[INTERVAL_H_CORRECTED] = "reply-corrected",
	[INTERVAL_H_CONNECT] = "connect",
	[INTERVAL_H_LATENESS] = "lateness",
};

const char *
interval_tag(enum interval_hist i)
{
	return i < INTERVAL_NHIST ? interval_tags[i] : NULL;
}

/* Whether the run has a schedule: then lateness and corrected times. */
static int
interval_scheduled(const struct interval *iv)
{
	return iv->target_rate > 0;
}

/* Writes ns as seconds with 3 decimals, without floating point. */
static void
put_sec3(FILE *f, uint64_t ns)
{
	uint64_t ms = (ns + 500000) / 1000000;

	fprintf(f, "%llu.%03llu", (unsigned long long)(ms / 1000),
	    (unsigned long long)(ms % 1000));
}

int
interval_hlog_line(FILE *f, const char *tag, uint64_t start,
    uint64_t length, const struct hdr *h)
{
	char *enc;
	size_t len;

	if (hdr_encode(h, &enc, &len) != 0)
		return -1;
	fprintf(f, "Tag=%s,", tag);
	put_sec3(f, start);
	putc(',', f);
	put_sec3(f, length);
	fprintf(f, ",%.3f,%s\n", (double)hdr_max(h) / NS_PER_MSEC, enc);
	free(enc);
	return 0;
}

/*
 * The log's head, as HdrHistogram's Java writer lays it out: who wrote
 * it, the format version, the start time and the base time the
 * intervals' start stamps count from (both the test's start), and the
 * legend.  The date is in UTC.
 */
static void
interval_hlog_header(FILE *f, uint64_t wall)
{
	char date[64];
	struct tm tm;
	time_t sec = (time_t)(wall / NS_PER_SEC);

	if (gmtime_r(&sec, &tm) == NULL ||
	    strftime(date, sizeof(date), "%a %b %d %H:%M:%S UTC %Y",
	    &tm) == 0)
		snprintf(date, sizeof(date), "unknown");
	fprintf(f, "#[Logged with %s %s]\n", PACKAGE_NAME, PACKAGE_VERSION);
	fprintf(f, "#[Histogram log format version 1.3]\n");
	fputs("#[StartTime: ", f);
	put_sec3(f, wall);
	fprintf(f, " (seconds since epoch), %s]\n", date);
	fputs("#[BaseTime: ", f);
	put_sec3(f, wall);
	fputs(" (seconds since epoch)]\n", f);
	fputs("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
	    "\"Interval_Compressed_Histogram\"\n", f);
}

static double
pct_ms(const struct hdr *h, double p)
{
	return (double)hdr_value_at_percentile(h, p) / NS_PER_MSEC;
}

uint64_t
interval_replies(const struct interval_counts *c)
{
	uint64_t n = 0;
	size_t i;

	for (i = 1; i < nitems(c->replies); i++)
		n += c->replies[i];
	return n;
}

uint64_t
interval_errors(const struct interval_counts *c)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < nitems(c->errors); i++)
		n += c->errors[i];
	return n;
}

/* Whether anything ends the intervals: else no timer is needed. */
static int
interval_flushes(const struct interval *iv)
{
	return iv->hlog != NULL || iv->lines != NULL || iv->flush != NULL ||
	    iv->record;
}

/*
 * Whether an interval of `len' ns that ends the test is a sliver: under
 * a quarter of a period, too short for its rates to mean much.
 */
static int
interval_sliver(const struct interval *iv, uint64_t len)
{
	return len < iv->period / 4;
}

/* The recorded histogram of interval_rec_hist k. */
static const struct hdr *
interval_rec_hist(const struct interval *iv, size_t k)
{
	static const enum interval_hist of[INTERVAL_NREC] = {
		[INTERVAL_R_REPLY] = INTERVAL_H_REPLY,
		[INTERVAL_R_CORRECTED] = INTERVAL_H_CORRECTED,
		[INTERVAL_R_LATENESS] = INTERVAL_H_LATENESS,
	};

	return iv->h[of[k]];
}

/* Whether interval_rec_hist k is kept (the schedule's only with one). */
static int
interval_rec_kept(const struct interval *iv, size_t k)
{
	return k == INTERVAL_R_REPLY || interval_scheduled(iv);
}

/* The open interval's histograms encoded into it: it is closed. */
static void
interval_close(struct interval *iv)
{
	struct interval_rec *r;
	size_t k;

	if (!iv->open)
		return;
	r = &iv->recs.v[iv->recs.n - 1];
	for (k = 0; k < INTERVAL_NREC; k++)
		if (interval_rec_kept(iv, k)) {
			free(r->h[k].hdr);
			interval_sum_of(&r->h[k], iv->acc[k]);
		}
	iv->open = 0;
}

/*
 * Opens the last interval kept, when later intervals may join it: its
 * encodings decoded into the accumulators (once per interval kept).
 * Left closed if one does not decode.
 */
static void
interval_open(struct interval *iv)
{
	const struct interval_rec *r = &iv->recs.v[iv->recs.n - 1];
	struct hdr *d;
	size_t k;

	for (k = 0; k < INTERVAL_NREC; k++) {
		if (!interval_rec_kept(iv, k))
			continue;
		if (iv->acc[k] == NULL)
			iv->acc[k] = hdr_new_ns();
		hdr_reset(iv->acc[k]);
		if (r->h[k].hdr == NULL || hdr_decode(r->h[k].hdr,
		    strlen(r->h[k].hdr), &d) != 0)
			return;
		if (hdr_add(iv->acc[k], d) != 0) {
			hdr_free(d);
			return;
		}
		hdr_free(d);
	}
	iv->open = 1;
}

/*
 * Keeps the interval that ends at `end' (cfg.record); the last one of
 * the test, when a sliver, joined to the one before.
 */
static void
interval_keep(struct interval *iv, uint64_t end, int last)
{
	struct interval_rec r, *o;
	struct interval_recs *l = &iv->recs;
	uint64_t start = iv->mark - iv->start, len = end - iv->mark;
	size_t k;

	o = l->n > 0 ? &l->v[l->n - 1] : NULL;
	if (iv->open && (interval_recs_slot(l, o->start) ==
	    interval_recs_slot(l, start) ||
	    (last && interval_sliver(iv, len)))) {
		/* Joins the open one: counts and histograms added. */
		if (start + len > o->start + o->length)
			o->length = start + len - o->start;
		interval_counts_add(&o->c, &iv->c);
		for (k = 0; k < INTERVAL_NREC; k++)
			if (interval_rec_kept(iv, k))
				(void)hdr_add(iv->acc[k],
				    interval_rec_hist(iv, k));
		return;
	}
	interval_close(iv);
	memset(&r, 0, sizeof(r));
	r.start = start;
	r.length = len;
	r.c = iv->c;
	for (k = 0; k < INTERVAL_NREC; k++)
		if (interval_rec_kept(iv, k))
			interval_sum_of(&r.h[k], interval_rec_hist(iv, k));
	if (last && o != NULL && interval_sliver(iv, r.length))
		interval_rec_join(o, &r);
	else
		interval_recs_add(l, &r);
	interval_rec_free(&r);
	if (l->join > 1 && !last)
		interval_open(iv);
}

/*
 * An objective's measure over the interval that ends (`len' seconds
 * long), NaN when the interval does not have it: the times of the
 * reply, corrected and connect histograms, the counts, the reply and
 * the achieved rates.
 */
static double
interval_slo_measure(const struct interval *iv, const struct slo *o,
    double len)
{
	static const int hist[SLO_H_COUNT] = {
		[SLO_H_REPLY] = INTERVAL_H_REPLY + 1,
		[SLO_H_CORRECTED] = INTERVAL_H_CORRECTED + 1,
		[SLO_H_CONNECT] = INTERVAL_H_CONNECT + 1,
	};
	const struct interval_counts *c = &iv->c;
	double replies = (double)interval_replies(c);
	double ended = replies + (double)interval_errors(c);
	const struct hdr *h;

	switch (o->metric) {
	case SLO_HIST:
		if (hist[o->hist] == 0 ||
		    hdr_count(h = iv->h[hist[o->hist] - 1]) == 0)
			return NAN;
		return o->stat == SLO_ST_MAX ? (double)hdr_max(h) :
		    o->stat == SLO_ST_MEAN ? hdr_mean(h) :
		    (double)hdr_value_at_percentile(h, o->q);
	case SLO_ERRORS:
		return slo_count_value(o, (double)interval_errors(c), ended);
	case SLO_ERRCLASS:
		return slo_count_value(o, (double)c->errors[o->index], ended);
	case SLO_STATUS:
		return slo_count_value(o, (double)c->replies[o->index + 1],
		    replies);
	case SLO_REPLY_RATE:
		return len > 0 ? replies / len : NAN;
	case SLO_ACHIEVED:
		return interval_scheduled(iv) && len > 0 ? 100.0 *
		    ((double)c->arrivals / len) / iv->rate_now : NAN;
	default:
		return NAN;	/* late: the threshold is sched's */
	}
}

/*
 * " SLO-FAIL: EXPR[,EXPR...]" at the end of an --interval line: the
 * objectives the interval breached (those it measured and that failed).
 */
static void
interval_slo_line(struct interval *iv, double len)
{
	const char *sep = " SLO-FAIL: ";
	double m;
	size_t i;

	for (i = 0; i < iv->nslo; i++) {
		m = interval_slo_measure(iv, &iv->slo[i], len);
		if (isnan(m) || slo_pass(&iv->slo[i], m))
			continue;
		fprintf(iv->lines, "%s%s", sep, iv->slo[i].text);
		sep = ",";
	}
}

/*
 * The --interval line of the interval that ends at `end', its rates over
 * its real length (which it says when it is not the period's).
 */
static void
interval_line(struct interval *iv, uint64_t end)
{
	const struct interval_counts *c = &iv->c;
	const struct hdr *reply = iv->h[INTERVAL_H_REPLY];
	const struct hdr *late = iv->h[INTERVAL_H_LATENESS];
	const struct hdr *corr = iv->h[INTERVAL_H_CORRECTED];
	double len = (double)(end - iv->mark) / (double)NS_PER_SEC;
	uint64_t replies = interval_replies(c), errors = interval_errors(c);

	fputc('[', iv->lines);
	put_sec3(iv->lines, end - iv->start);
	fputs(" s] ", iv->lines);
	if (interval_scheduled(iv))
		fprintf(iv->lines, "arrivals %.1f/s (target %.1f), ",
		    basic_ratio((double)c->arrivals, len), iv->rate_now);
	else
		fprintf(iv->lines, "connections %.1f/s, ",
		    basic_ratio((double)c->conns, len));
	fprintf(iv->lines, "replies %llu, errors %llu, reply [ms] p50 %.3f "
	    "p99 %.3f max %.3f", (unsigned long long)replies,
	    (unsigned long long)errors, pct_ms(reply, 50.0),
	    pct_ms(reply, 99.0), (double)hdr_max(reply) / NS_PER_MSEC);
	if (interval_scheduled(iv))
		fprintf(iv->lines, ", lateness [ms] p99 %.3f max %.3f"
		    ", corrected [ms] p99 %.3f", pct_ms(late, 99.0),
		    (double)hdr_max(late) / NS_PER_MSEC, pct_ms(corr, 99.0));
	if (end - iv->mark != iv->period) {
		fputs(", length ", iv->lines);
		put_sec3(iv->lines, end - iv->mark);
		fputs(" s", iv->lines);
	}
	interval_slo_line(iv, len);
	fputc('\n', iv->lines);
	fflush(iv->lines);
}

/* Whether nothing at all was counted in the current interval. */
static int
interval_empty(const struct interval *iv)
{
	const struct interval_counts *c = &iv->c;

	return c->arrivals == 0 && c->missed == 0 && c->conns == 0 &&
	    interval_replies(c) == 0 && interval_errors(c) == 0;
}

void
interval_line_out(struct interval *iv, uint64_t end, int last)
{
	if (iv->lines != NULL && !(last && iv->n > 0 &&
	    interval_sliver(iv, end - iv->mark) && interval_empty(iv)))
		interval_line(iv, end);
}

void
interval_hlog_out(struct interval *iv, uint64_t end)
{
	size_t i;

	if (iv->hlog == NULL)
		return;
	for (i = 0; i < INTERVAL_NHIST; i++) {
		if (!interval_scheduled(iv) && (i == INTERVAL_H_CORRECTED ||
		    i == INTERVAL_H_LATENESS))
			continue;
		if (interval_hlog_line(iv->hlog, interval_tags[i],
		    iv->mark - iv->start, end - iv->mark, iv->h[i]) == -1 &&
		    iv->hlog_errno == 0)
			iv->hlog_errno = ENOMEM;
	}
	/* Readable while the test runs (tail -f). */
	errno = 0;
	if (fflush(iv->hlog) != 0 && iv->hlog_errno == 0)
		iv->hlog_errno = errno != 0 ? errno : EIO;
}

/* Ends the current interval at `end'; `last': the test's end. */
static void
interval_end(struct interval *iv, uint64_t end, int last)
{
	size_t i;

	if (end <= iv->mark)
		return;
	interval_hlog_out(iv, end);
	interval_line_out(iv, end, last);
	if (iv->flush != NULL)
		iv->flush(iv->flush_arg, iv, end);
	if (iv->record)
		interval_keep(iv, end, last);
	if (iv->abort != NULL)
		slo_live_end(iv);
	for (i = 0; i < INTERVAL_NHIST; i++)
		hdr_reset(iv->h[i]);
	memset(&iv->c, 0, sizeof(iv->c));
	iv->mark = end;
	iv->n++;
}

void
interval_flush(struct interval *iv, uint64_t end)
{
	interval_end(iv, end, 0);
}

/*
 * The end of an interval.  A loop held up past later boundaries ends one
 * longer interval, up to the last boundary passed, so the intervals
 * still tile the test; the next timer is on the same absolute schedule.
 */
static void
interval_fired(struct timer *t, uint64_t now)
{
	struct interval *iv = containerof(t, struct interval, timer);
	uint64_t k = (now - iv->start) / iv->period;

	if (iv->start + k * iv->period <= iv->mark)
		k = (iv->mark - iv->start) / iv->period + 1;
	interval_flush(iv, iv->start + k * iv->period);
	timer_add(iv->wheel, &iv->timer, iv->start + (k + 1) * iv->period);
}

/* --periodic-stats: upstream's line, with the replies of the second. */
static void
interval_periodic(struct timer *t, uint64_t now)
{
	struct interval *iv = containerof(t, struct interval, ptimer);

	fprintf(iv->out, "[%.6f s] 200=%llu, 302=%llu\n",
	    (double)(now - iv->start) / (double)NS_PER_SEC,
	    (unsigned long long)iv->p200, (unsigned long long)iv->p302);
	fflush(iv->out);
	iv->p200 = 0;
	iv->p302 = 0;
	iv->pn++;
	timer_add(iv->wheel, &iv->ptimer, iv->start + (iv->pn + 1) *
	    PERIODIC_NS);
}

/* A reply is complete. */
static void
interval_reply(struct interval *iv, const struct call *call)
{
	int status = call->status;
	struct stat_reply m;

	if (status >= 100 && status <= 599)
		iv->c.replies[status / 100]++;
	if (status == 200) {
		iv->c.s200++;
		iv->p200++;
	} else if (status == 302) {
		iv->c.s302++;
		iv->p302++;
	}
	stat_reply_measure(call, &m);
	hdr_record(iv->h[INTERVAL_H_REPLY], m.reply);
	hdr_record(iv->h[INTERVAL_H_CORRECTED], m.corrected);
}

static void
interval_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct interval *iv = ctx;
	const struct conn *c = obj;
	uint64_t intended;

	if (!iv->running)
		return;
	switch (ev) {
	case BUS_ARRIVAL:
		iv->c.arrivals++;
		intended = arg.i > 0 ? (uint64_t)arg.i : 0;
		hdr_record(iv->h[INTERVAL_H_LATENESS],
		    now > intended ? now - intended : 0);
		break;
	case BUS_ARRIVAL_MISSED:
		if (arg.i > 0)
			iv->c.missed += (uint64_t)arg.i;
		break;
	case BUS_CONN_CONNECTING:
		iv->c.conns++;
		break;
	case BUS_CONN_CONNECTED:
		hdr_record(iv->h[INTERVAL_H_CONNECT],
		    c->t_tcp_connected >= c->t_connect_start ?
		    c->t_tcp_connected - c->t_connect_start : 0);
		break;
	case BUS_CONN_FAILED:
	case BUS_CALL_FAILED:
		iv->c.errors[basic_err_class((int)arg.i)]++;
		break;
	case BUS_CONN_TIMEOUT:
		iv->c.errors[BASIC_ERR_CLIENT_TIMO]++;
		break;
	case BUS_CALL_RECV_STOP:
		interval_reply(iv, obj);
		break;
	default:
		break;
	}
	if (iv->abort != NULL && !iv->aborted)
		slo_live_check(iv, now);
}

/* "--hlog: FILE: what", the file name made safe for one line. */
static void
interval_hlog_err(const char *path, int e, char *err, size_t errlen)
{
	char name[256];

	util_escape(name, sizeof(name), path, strlen(path));
	snprintf(err, errlen, "--hlog: %s: %s", name, strerror(e));
}

/* Creates (empties) the hlog file.  Returns 0, or -1 with a message. */
static int
interval_hlog_fopen(struct interval *iv, const char *path, char *err,
    size_t errlen)
{
	if ((iv->hlog = fopen(path, "w")) == NULL) {
		interval_hlog_err(path, errno, err, errlen);
		return -1;
	}
	iv->hlog_path = xstrdup(path);
	return 0;
}

/* The hlog's header, for a test that started at `wall'. */
static void
interval_hlog_start(struct interval *iv, uint64_t wall)
{
	if (iv->hlog == NULL)
		return;
	interval_hlog_header(iv->hlog, wall);
	errno = 0;
	if (fflush(iv->hlog) != 0)
		iv->hlog_errno = errno != 0 ? errno : EIO;
}

int
interval_hlog_open(struct interval *iv, const char *path, uint64_t wall,
    char *err, size_t errlen)
{
	if (interval_hlog_fopen(iv, path, err, errlen) == -1)
		return -1;
	interval_hlog_start(iv, wall);
	return 0;
}

int
interval_hlog_close(struct interval *iv, char *err, size_t errlen)
{
	FILE *f;

	if ((f = iv->hlog) != NULL) {
		/* A full disk shows at a flush, in the stream's error flag
		   or at the close, which writes what is still buffered. */
		iv->hlog = NULL;
		if (ferror(f) && iv->hlog_errno == 0)
			iv->hlog_errno = EIO;
		errno = 0;
		if (fclose(f) != 0 && iv->hlog_errno == 0)
			iv->hlog_errno = errno != 0 ? errno : EIO;
	}
	if (iv->hlog_errno != 0 && iv->hlog_path != NULL) {
		interval_hlog_err(iv->hlog_path, iv->hlog_errno, err, errlen);
		return -1;
	}
	return 0;
}

int
interval_init(struct interval *iv, struct bus *bus,
    struct timer_wheel *wheel, FILE *out, const struct interval_config *cfg,
    char *err, size_t errlen)
{
	static const enum bus_event evs[] = {
		BUS_ARRIVAL, BUS_ARRIVAL_MISSED, BUS_CONN_CONNECTING,
		BUS_CONN_CONNECTED, BUS_CONN_FAILED, BUS_CONN_TIMEOUT,
		BUS_CALL_RECV_STOP, BUS_CALL_FAILED,
	};
	size_t i;

	memset(iv, 0, sizeof(*iv));
	iv->wheel = wheel;
	iv->out = out;
	iv->lines = cfg->lines;
	iv->periodic = cfg->periodic;
	iv->target_rate = cfg->target_rate;
	iv->rate_now = cfg->target_rate;
	iv->slo = cfg->slo;
	iv->nslo = cfg->nslo;
	iv->period = cfg->period != 0 ? cfg->period : INTERVAL_DEFAULT_NS;
	iv->flush = cfg->flush;
	iv->flush_arg = cfg->flush_arg;
	iv->abort = cfg->abort;
	iv->abort_arg = cfg->abort_arg;
	iv->record = cfg->record;
	interval_recs_init(&iv->recs, iv->period, 1, INTERVAL_MAX_RECS);
	if (cfg->hlog != NULL &&
	    interval_hlog_fopen(iv, cfg->hlog, err, errlen) == -1)
		return -1;
	for (i = 0; i < INTERVAL_NHIST; i++)
		iv->h[i] = hdr_new_ns();
	timer_init(&iv->timer, interval_fired);
	timer_init(&iv->ptimer, interval_periodic);
	for (i = 0; i < nitems(evs); i++)
		bus_subscribe(bus, evs[i], interval_event, iv);
	return 0;
}

void
interval_set_rate(struct interval *iv, double rate)
{
	if (interval_scheduled(iv))
		iv->rate_now = rate;
}

void
interval_start(struct interval *iv, uint64_t now, uint64_t wall)
{
	iv->start = now;
	iv->mark = now;
	iv->running = 1;
	interval_hlog_start(iv, wall);
	if (interval_flushes(iv))
		timer_add(iv->wheel, &iv->timer, now + iv->period);
	if (iv->periodic)
		timer_add(iv->wheel, &iv->ptimer, now + PERIODIC_NS);
}

int
interval_stop(struct interval *iv, uint64_t now, char *err, size_t errlen)
{
	if (!iv->running)
		return 0;
	timer_cancel(&iv->timer);
	timer_cancel(&iv->ptimer);
	if (interval_flushes(iv))
		interval_end(iv, now, 1);
	interval_close(iv);
	iv->running = 0;
	return interval_hlog_close(iv, err, errlen);
}

void
interval_fini(struct interval *iv)
{
	size_t i;

	timer_cancel(&iv->timer);
	timer_cancel(&iv->ptimer);
	if (iv->hlog != NULL)
		fclose(iv->hlog);
	iv->hlog = NULL;
	free(iv->hlog_path);
	iv->hlog_path = NULL;
	for (i = 0; i < INTERVAL_NHIST; i++) {
		hdr_free(iv->h[i]);
		iv->h[i] = NULL;
	}
	interval_recs_free(&iv->recs);
	iv->open = 0;
	for (i = 0; i < INTERVAL_NREC; i++) {
		hdr_free(iv->acc[i]);
		iv->acc[i] = NULL;
	}
}

/* The collector interface (stat/collector.h). */

static int
interval_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	struct interval *iv = xcalloc(1, sizeof(*iv));

	if (env->core == NULL) {
		*state = iv;
		return 0;
	}
	if (interval_init(iv, env->bus, loop_timers(env->core->loop),
	    env->out, env->cfg, err, errlen) == -1) {
		free(iv);
		return -1;
	}
	*state = iv;
	return 0;
}

static void
interval_col_start(void *state, uint64_t now)
{
	interval_start(state, now, clock_wall_now());
}

static void
interval_col_set_rate(void *state, double rate, uint64_t now)
{
	interval_set_rate(state, rate);
}

static int
interval_col_stop(void *state, uint64_t now, char *err, size_t errlen)
{
	return interval_stop(state, now, err, errlen);
}

static void
interval_col_json(void *state, struct jsonw *w,
    const struct collector_run *run)
{
	const struct interval *iv = state;

	(void)run;
	interval_json_recs(w, iv->target_rate, &iv->recs);
}

static void
interval_col_merge(void *state, struct collector_merge *mg)
{
	interval_merge(state, mg);
}

static void
interval_col_merge_end(void *state, uint64_t start_ns, uint64_t end_ns)
{
	interval_merge_end(state, start_ns, end_ns);
}

static void
interval_col_fini(void *state)
{
	interval_merge_free(state);
	interval_fini(state);
	free(state);
}

const struct collector interval_collector = {
	.name = "interval",
	.init = interval_col_init,
	.start = interval_col_start,
	.stop = interval_col_stop,
	.set_rate = interval_col_set_rate,
	.json = interval_col_json,
	.merge = interval_col_merge,
	.merge_end = interval_col_merge_end,
	.fini = interval_col_fini,
};
