/*
 * report/merge.c: synthetic results (written by the collectors' own JSON
 * functions, read back by the reader) add up exactly; refusals name the
 * member.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "opt/options.h"
#include "report/merge.h"
#include "report/merge_int.h"
#include "report/result.h"
#include "stat/basic.h"
#include "stat/h2_stat.h"
#include "stat/interval.h"
#include "stat/proxy_stat.h"
#include "stat/sched_stat.h"
#include "stat/sess_stat.h"
#include "stat/slo.h"
#include "stat/tls_stat.h"
#include "unit.h"

/* The collectors of a run's table that write stats, in its order. */
static const struct collector *const cols[] = {
	&basic_collector, &tls_stat_collector, &h2_stat_collector,
	&proxy_stat_collector, &sess_stat_collector, &interval_collector,
	&sched_stat_collector,
};
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))

/* The merged states of the collectors. */
#define M_SCHED(m)	((struct sched_stat *)merge_state(m, \
	&sched_stat_collector))
#define M_BASIC(m)	((struct basic *)merge_state(m, &basic_collector))
#define M_IV(m)		((struct interval *)merge_state(m, \
	&interval_collector))

/*
 * A result document of one client: `n' replies of `v' ns, reply-rate
 * samples `s0', `s1', options rate `rate', histogram digits `digits'.
 */
/* What a document may have besides: ids, a duration, intervals. */
struct extra {
	const unsigned	*ids;		/* else the one id */
	size_t		 nids;
	unsigned	 nclients;	/* else 4 */
	uint64_t	 duration;	/* else 1 s */
	const struct interval_recs *iv;	/* stats.interval, or NULL */
	int64_t		 highest;	/* the histograms', else HDR_NS's */
	const char	*opts;		/* the options (JSON), else rate's */
};

static struct jv *
doc_full(unsigned id, uint64_t start, uint64_t n, uint64_t v, double s0,
    double s1, double rate, int digits, const struct sched_stat *sc,
    double cpu_pct, const struct extra *x)
{
	struct basic b;
	struct result_head h;
	struct jsonw w;
	struct jv *root;
	char *buf = NULL, err[128];
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	memset(&b, 0, sizeof(b));
	for (i = 0; i < BASIC_NPHASES; i++)
		if (i != BASIC_PH_TLS && i != BASIC_PH_SESSION)
			b.phase[i] = hdr_new(1, x != NULL && x->highest > 0 ?
			    x->highest : HDR_NS_HIGHEST, digits);
	hdr_record_n(b.phase[BASIC_PH_REPLY], v, n);
	b.t.conns_issued = n;
	b.t.reqs_sent = n;
	b.t.replies[2] = n;
	b.t.lifetime_n = n;
	b.t.lifetime_min = v;
	b.t.lifetime_max = v + id;
	b.t.lifetime_sum = n * v;
	b.t.max_concurrent = 2;
	b.burst_max = id + 1;
	b.net_bytes = 1000 * n;
	stat_samples_add(&b.t.reply_rate, &b.rr, s0);
	stat_samples_add(&b.t.reply_rate, &b.rr, s1);
	memset(&h, 0, sizeof(h));
	h.start_ns = start;
	h.duration_ns = x != NULL && x->duration > 0 ? x->duration :
	    1000000000;
	h.num_clients = x != NULL && x->nclients > 0 ? x->nclients : 4;
	h.ids = x != NULL && x->ids != NULL ? x->ids : &id;
	h.nids = x != NULL && x->ids != NULL ? x->nids : 1;
	h.host = "h";
	h.echo = "httperf";
	jsonw_init(&w, f);
	jsonw_obj_begin(&w);
	result_write_head(&w, &h);
	jsonw_key(&w, "options");
	if (x != NULL && x->opts != NULL) {
		struct jv *o = jv_parse(x->opts, strlen(x->opts), err,
		    sizeof(err));

		ck_assert_msg(o != NULL, "%s", err);
		result_copy(&w, o);
		jv_free(o);
	} else {
		jsonw_obj_begin(&w);
		jsonw_kdouble(&w, "rate", rate);
		jsonw_kstr(&w, "client", "x");
		jsonw_obj_end(&w);
	}
	jsonw_key(&w, "stats");
	jsonw_obj_begin(&w);
	jsonw_key(&w, "basic");
	basic_json(&b, &w, h.duration_ns, 0.5, 0.25);
	if (sc != NULL) {
		jsonw_key(&w, "sched");
		ck_assert_int_eq(sched_stat_json(sc, &w, cpu_pct), 0);
	}
	if (x != NULL && x->iv != NULL) {
		jsonw_key(&w, "interval");
		interval_json_recs(&w, 0, x->iv);
	}
	jsonw_obj_end(&w);
	jsonw_obj_end(&w);
	ck_assert_int_eq(jsonw_finish(&w), 0);
	fclose(f);
	basic_fini(&b);
	root = jv_parse(buf, len, err, sizeof(err));
	ck_assert_msg(root != NULL, "%s", err);
	free(buf);
	return root;
}

static struct jv *
doc_sched(unsigned id, uint64_t start, uint64_t n, uint64_t v, double s0,
    double s1, double rate, int digits, const struct sched_stat *sc,
    double cpu_pct)
{
	return doc_full(id, start, n, v, s0, s1, rate, digits, sc, cpu_pct,
	    NULL);
}

static struct jv *
doc(unsigned id, uint64_t start, uint64_t n, uint64_t v, double s0,
    double s1, double rate, int digits)
{
	return doc_sched(id, start, n, v, s0, s1, rate, digits, NULL, -1);
}

#define MS	UINT64_C(1000000)
#define SEC	UINT64_C(1000000000)
#define MONO	UINT64_C(77000000000)	/* a process's monotonic start */

/*
 * A schedule of `n' arrivals 10 ms apart from the test's start, the first
 * `nlate' of them 2 ms late, the others 50 us late, `missed' never sent at
 * the end of the schedule.
 */
static void
sched_fill(struct sched_stat *st, int requests, uint64_t n, uint64_t nlate,
    uint64_t missed)
{
	struct sched_stat_config cfg = { .rate = 100, .threshold = MS,
	    .requests = requests };
	uint64_t i;

	sched_stat_init(st, NULL, &cfg);
	st->start = MONO;
	for (i = 0; i < n; i++)
		sched_stat_arrival(st, MONO + i * 10 * MS, MONO + i * 10 * MS +
		    (i < nlate ? 2 * MS : 50000));
	if (missed > 0)
		sched_stat_missed(st, missed, MONO + n * 10 * MS);
}

/*
 * The schedule: counts and histograms added, target rates added, the span
 * the union of the files' on the wall clock, the CPU share the largest,
 * and the warning worked out again from the totals.
 */
START_TEST(test_sched)
{
	struct sched_stat sa, sb;
	struct sched_verdict v;
	struct merge m;
	struct jv *a, *b;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* a: 1.0 s on the wall clock, 101 arrivals over 1 s (5 late), 2
	   never sent at 1.01 s; CPU 95%.  b: 1.5 s, 50 over 490 ms. */
	sched_fill(&sa, 0, 101, 5, 2);
	sched_fill(&sb, 0, 50, 0, 0);
	a = doc_sched(0, 1 * SEC, 10, 5000, 1, 1, 100, 3, &sa, 95.0);
	b = doc_sched(2, 3 * SEC / 2, 10, 5000, 1, 1, 100, 3, &sb, 20.0);
	merge_init(&m, cols, NCOLS);
	ck_assert_int_eq(merge_add(&m, a, "a", "httperf", stderr), 0);
	ck_assert_int_eq(merge_add(&m, b, "b", "httperf", stderr), 0);
	merge_finish(&m);
	ck_assert_ptr_nonnull(M_SCHED(&m));
	ck_assert_uint_eq(M_SCHED(&m)->made, 151);
	ck_assert_uint_eq(M_SCHED(&m)->missed, 2);
	ck_assert_uint_eq(M_SCHED(&m)->unsent, 0);
	ck_assert_uint_eq(M_SCHED(&m)->nlate, 5);
	ck_assert_uint_eq(hdr_count(M_SCHED(&m)->late), 151);
	ck_assert_uint_eq(hdr_max(M_SCHED(&m)->late) / 100000, 20);	/* 2 ms */
	ck_assert_double_eq(M_SCHED(&m)->cfg.rate, 200);
	ck_assert_uint_eq(M_SCHED(&m)->cfg.threshold, MS);
	/* The union: a's first arrival at 1.0 s, its missed at 2.01 s,
	   its last made at 2.00005 s (b's at 1.99005 s). */
	ck_assert_uint_eq(M_SCHED(&m)->first, 1 * SEC);
	ck_assert_uint_eq(M_SCHED(&m)->sched_last, 2 * SEC + 10 * MS);
	ck_assert_uint_eq(M_SCHED(&m)->actual_last, 2 * SEC + 50000);
	ck_assert_double_eq(M_SCHED(&m)->merged_cpu_pct, 95.0);
	sched_stat_verdict(M_SCHED(&m), M_SCHED(&m)->merged_cpu_pct, &v);
	ck_assert_uint_eq(v.scheduled, 153);
	ck_assert_uint_eq(v.never_sent, 2);
	/* 152 intervals over 1.01 s; achieved 150 over the same. */
	ck_assert(v.sched_rate > 150.49 && v.sched_rate < 150.50);
	ck_assert(v.achieved_rate > 148.51 && v.achieved_rate < 148.52);
	ck_assert_uint_eq(v.why, SCHED_WHY_LATE | SCHED_WHY_RATE |
	    SCHED_WHY_CPU);
	/* The report ends with the schedule's lines and the warning. */
	f = open_memstream(&buf, &len);
	merge_print(&m, f);
	fclose(f);
	ck_assert_msg(strstr(buf, "\nArrivals: 153 scheduled, 5 late over 1 "
	    "ms (3.3%), 2 never sent; rate target 200.0/s, scheduled "
	    "150.5/s, achieved 148.5/s\n\nWarning: the client was the "
	    "bottleneck: 3.3% of arrivals late over 1 ms (more than 1%); "
	    "achieved arrival rate 148.5/s is 98.7% of the scheduled "
	    "150.5/s (below 99.5%); client CPU 95.0% (over 90%)\n") != NULL,
	    "%s", buf);
	free(buf);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
	sched_stat_fini(&sa);
	sched_stat_fini(&sb);

	/*
	 * --call-rate: 30 requests taken in, 4 never went out (queued at
	 * the end); twice: 60 scheduled, 8 never sent, no warning.
	 */
	sched_fill(&sa, 1, 30, 0, 4);
	ck_assert_uint_eq(sa.unsent, 4);
	ck_assert_uint_eq(sa.missed, 0);
	a = doc_sched(0, 1 * SEC, 10, 5000, 1, 1, 100, 3, &sa, 10.0);
	b = doc_sched(1, 1 * SEC, 10, 5000, 1, 1, 100, 3, &sa, -1);
	merge_init(&m, cols, NCOLS);
	ck_assert_int_eq(merge_add(&m, a, "a", "httperf", stderr), 0);
	ck_assert_int_eq(merge_add(&m, b, "b", "httperf", stderr), 0);
	merge_finish(&m);
	ck_assert(M_SCHED(&m)->cfg.requests);
	ck_assert_uint_eq(M_SCHED(&m)->made, 60);
	ck_assert_uint_eq(M_SCHED(&m)->unsent, 8);
	ck_assert_uint_eq(M_SCHED(&m)->missed, 0);
	ck_assert_double_eq(M_SCHED(&m)->merged_cpu_pct, 10.0);
	sched_stat_verdict(M_SCHED(&m), M_SCHED(&m)->merged_cpu_pct, &v);
	ck_assert_uint_eq(v.scheduled, 60);
	ck_assert_uint_eq(v.never_sent, 8);
	ck_assert_uint_eq(v.why, 0);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
	sched_stat_fini(&sa);
}
END_TEST

START_TEST(test_sums)
{
	struct jv *a = doc(0, 1000000000, 10, 5000, 2.0, 4.0, 100, 3);
	struct jv *b = doc(2, 1500000000, 30, 9000, 1.0, 8.0, 100, 3);
	struct merge m;
	struct basic_totals *t;

	merge_init(&m, cols, NCOLS);
	ck_assert_int_eq(merge_add(&m, a, "a", "httperf", stderr), 0);
	ck_assert_int_eq(merge_add(&m, b, "b", "httperf", stderr), 0);
	merge_finish(&m);
	t = &M_BASIC(&m)->t;
	ck_assert_uint_eq(t->conns_issued, 40);
	ck_assert_uint_eq(t->replies[2], 40);
	ck_assert_uint_eq(t->lifetime_n, 40);
	ck_assert_uint_eq(t->lifetime_min, 5000);
	ck_assert_uint_eq(t->lifetime_max, 9002);
	ck_assert_uint_eq(t->lifetime_sum, 10 * 5000 + 30 * 9000);
	ck_assert_uint_eq(t->max_concurrent, 4);
	ck_assert_uint_eq(M_BASIC(&m)->burst_max, 3);
	ck_assert_uint_eq(M_BASIC(&m)->net_bytes, 40000);
	/* The union window: 1.0 s to 2.5 s. */
	ck_assert_uint_eq(m.end_ns - m.start_ns, 1500000000);
	ck_assert_double_eq(m.run.cpu_user, 1.0);
	/* Samples summed index by index: 3 and 12. */
	ck_assert_uint_eq(t->reply_rate.n, 2);
	ck_assert_double_eq(t->reply_rate.min, 3.0);
	ck_assert_double_eq(t->reply_rate.max, 12.0);
	ck_assert_double_eq(t->reply_rate.sum, 15.0);
	/* Histograms added, not averaged: p50 is the bigger run's value. */
	ck_assert_uint_eq(hdr_count(M_BASIC(&m)->phase[BASIC_PH_REPLY]), 40);
	ck_assert_uint_eq(hdr_value_at_percentile(
	    M_BASIC(&m)->phase[BASIC_PH_REPLY], 50.0),
	    hdr_highest_equivalent(M_BASIC(&m)->phase[BASIC_PH_REPLY], 9000));
	ck_assert_uint_eq(m.nids, 2);
	ck_assert_uint_eq(m.ids[0], 0);
	ck_assert_uint_eq(m.ids[1], 2);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
}
END_TEST

/* Merges a then b; returns merge_add()'s result for b and its message. */
static int
refused(struct jv *a, struct jv *b, char *msg, size_t len)
{
	struct merge m;
	FILE *err = fmemopen(msg, len, "w");
	int rv;

	memset(msg, 0, len);
	merge_init(&m, cols, NCOLS);
	ck_assert_int_eq(merge_add(&m, a, "a.json", "httperf", err), 0);
	rv = merge_add(&m, b, "b.json", "httperf", err);
	fclose(err);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
	return rv;
}

START_TEST(test_refusals)
{
	char msg[512];

	ck_assert_int_eq(refused(doc(0, 1, 1, 1000, 1, 1, 100, 3),
	    doc(1, 1, 1, 1000, 1, 1, 100, 2), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: stats.basic.histograms.connection."
	    "hdr: not this httperf's histogram settings") != NULL, "%s", msg);
	ck_assert_int_eq(refused(doc(1, 1, 1, 1000, 1, 1, 100, 3),
	    doc(1, 1, 1, 1000, 1, 1, 100, 3), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: client.ids: client 1/4 is also")
	    != NULL, "%s", msg);
	/* One line each. */
	ck_assert_ptr_eq(strchr(msg, '\n'), msg + strlen(msg) - 1);
}
END_TEST

static void merged(struct merge *m, struct jv *a, struct jv *b);

/* Client id's document with options `opts' (JSON text). */
static struct jv *
doc_opts(unsigned id, const char *opts)
{
	struct extra x;

	memset(&x, 0, sizeof(x));
	x.opts = opts;
	return doc_full(id, 1, 10, 1000, 1, 1, 0, 3, NULL, -1, &x);
}

/* A test at --call-rate R (period P), --wsess N1,N2 and --uri U. */
#define UNEQ(r, p, n1, n2, u) "{\"rate\":" r ",\"call-rate\":\"" r \
	"\",\"period\":\"" p "\",\"runtime\":1,\"num-conns\":0," \
	"\"uri\":\"" u "\",\"method\":\"GET\",\"wsess\":{\"N1\":" n1 \
	",\"N2\":" n2 ",\"X\":0},\"max-connections\":" n1 "}"

/*
 * Unequal clients: files whose load differs (rates, periods of the same
 * distribution, session counts, --max-connections) merge, m->unequal
 * set and each file's load in merged.files[].load; another test (URI,
 * method, distribution, calls per session) is refused in one line
 * naming the file and the option.
 */
START_TEST(test_unequal)
{
	struct merge m;
	struct jv *a = doc_opts(0, UNEQ("300", "d0.003", "30", "2", "/")),
	    *b = doc_opts(1, UNEQ("100", "d0.01", "10", "2", "/")),
	    *d, *docs[2];
	char *buf = NULL, msg[512], err[128];
	char *paths[2] = { "a.json", "b.json" };
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	merged(&m, a, b);
	ck_assert_int_eq(m.unequal, 1);
	docs[0] = a;
	docs[1] = b;
	ck_assert_int_eq(merge_json(&m, f, (const struct jv *const *)docs,
	    paths, 2), 0);
	fclose(f);
	merge_free(&m);
	d = jv_parse(buf, len, err, sizeof(err));
	ck_assert_msg(d != NULL, "%s", err);
	ck_assert_str_eq(jv_str(jv_path(jv_at(jv_path(d,
	    "merged.files"), 1), "load.call-rate"),
	    NULL), "100");
	ck_assert_str_eq(jv_str(jv_path(jv_at(jv_path(d,
	    "merged.files"), 0), "load.call-rate"),
	    NULL), "300");
	ck_assert_ptr_null(jv_path(jv_at(jv_path(d,
	    "merged.files"), 0), "load.uri"));
	ck_assert_int_eq(jv_type(jv_path(d, "merged.equal_load")), JV_BOOL);
	ck_assert_int_eq(jv_bool(jv_path(d, "merged.equal_load"), &(int){1}),
	    0);
	jv_free(d);
	free(buf);
	jv_free(a);
	jv_free(b);
	/* The same load: equal. */
	a = doc_opts(0, UNEQ("300", "d0.003", "30", "2", "/"));
	b = doc_opts(1, UNEQ("300", "d0.003", "30", "2", "/"));
	merged(&m, a, b);
	ck_assert_int_eq(m.unequal, 0);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
	/* Another test. */
	ck_assert_int_eq(refused(doc_opts(0, UNEQ("300", "d0.003", "30", "2",
	    "/")), doc_opts(1, UNEQ("100", "d0.01", "10", "2", "/x")), msg,
	    sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "httperf: --merge: b.json: options.uri: "
	    "differs from a.json") != NULL, "%s", msg);
	ck_assert_int_eq(refused(doc_opts(0, UNEQ("300", "d0.003", "30", "2",
	    "/")), doc_opts(1, UNEQ("100", "e0.01", "10", "2", "/")), msg,
	    sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: options.period: differs from "
	    "a.json otherwise than in its load") != NULL, "%s", msg);
	ck_assert_int_eq(refused(doc_opts(0, UNEQ("300", "d0.003", "30", "2",
	    "/")), doc_opts(1, UNEQ("100", "d0.01", "10", "3", "/")), msg,
	    sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: options.wsess: differs from "
	    "a.json otherwise than in its load") != NULL, "%s", msg);
	/* One line. */
	ck_assert_ptr_eq(strchr(msg, '\n'), msg + strlen(msg) - 1);
}
END_TEST

/* The schedule: in both files or neither, the same threshold and kind. */
START_TEST(test_sched_refusals)
{
	struct sched_stat s1, s2, s3;
	char msg[512];

	sched_fill(&s1, 0, 10, 0, 0);
	sched_fill(&s2, 0, 10, 0, 0);
	s2.cfg.threshold = 2 * MS;
	sched_fill(&s3, 1, 10, 0, 0);
	ck_assert_int_eq(refused(doc_sched(0, 1, 1, 1000, 1, 1, 100, 3, &s1,
	    -1), doc(1, 1, 1, 1000, 1, 1, 100, 3), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: stats.sched: in one of this file "
	    "and a.json only") != NULL, "%s", msg);
	ck_assert_int_eq(refused(doc_sched(0, 1, 1, 1000, 1, 1, 100, 3, &s1,
	    -1), doc_sched(1, 1, 1, 1000, 1, 1, 100, 3, &s2, -1), msg,
	    sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: stats.sched.threshold_ns: 2000000 "
	    "differs from a.json's 1000000") != NULL, "%s", msg);
	ck_assert_int_eq(refused(doc_sched(0, 1, 1, 1000, 1, 1, 100, 3, &s1,
	    -1), doc_sched(1, 1, 1, 1000, 1, 1, 100, 3, &s3, -1), msg,
	    sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: stats.sched.requests: differs")
	    != NULL, "%s", msg);
	sched_stat_fini(&s1);
	sched_stat_fini(&s2);
	sched_stat_fini(&s3);
}
END_TEST

/*
 * `n' intervals of `period' ns from period `first' on, a connection and
 * a 200 reply of `v' ns in each, at most `max' kept.
 */
static void
ivs_fill(struct interval_recs *l, uint64_t period, uint64_t first,
    uint64_t n, uint64_t v, size_t max)
{
	struct hdr *h = hdr_new_ns();
	struct interval_rec r;
	uint64_t i;

	interval_recs_init(l, period, 1, max);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		r.start = (first + i) * period;
		r.length = period;
		r.c.conns = 1;
		r.c.replies[2] = 1;
		hdr_reset(h);
		hdr_record(h, v);
		interval_sum_of(&r.h[INTERVAL_R_REPLY], h);
		interval_recs_add(l, &r);
		interval_rec_free(&r);
	}
	hdr_free(h);
}

/* A document of client id with `n' 1 s intervals from `first' on. */
static struct jv *
doc_iv(unsigned id, uint64_t start, uint64_t first, uint64_t n,
    uint64_t dur, size_t max)
{
	struct interval_recs l;
	struct extra x;
	struct jv *d;

	ivs_fill(&l, SEC, first, n, 5000, max);
	memset(&x, 0, sizeof(x));
	x.iv = &l;
	x.duration = dur;
	d = doc_full(id, start, n, 5000, 1, 1, 100, 3, NULL, -1, &x);
	interval_recs_free(&l);
	return d;
}

#define DAY	(UINT64_C(86400) * SEC)
#define EPOCH	UINT64_C(1700000000000000000)

/* Merges a and b (both must be taken) and finishes. */
static void
merged(struct merge *m, struct jv *a, struct jv *b)
{
	merge_init(m, cols, NCOLS);
	ck_assert_int_eq(merge_add(m, a, "a.json", "httperf", stderr), 0);
	ck_assert_int_eq(merge_add(m, b, "b.json", "httperf", stderr), 0);
	merge_finish(m);
}

/*
 * The merged intervals follow the intervals the files hold, not the
 * wall-clock span between them: two files 5 days apart, 3 intervals
 * each, make 6 intervals (not 432,003).  A 1970 clock against a 2023
 * one, and an interval past its run's end, are refused in one line
 * naming the file.
 */
START_TEST(test_interval_span)
{
	const struct interval_recs *l;
	struct merge m;
	char msg[512];
	size_t i;
	struct jv *a, *b;

	a = doc_iv(0, EPOCH, 0, 3, 3 * SEC, INTERVAL_MAX_RECS);
	b = doc_iv(1, EPOCH + 5 * DAY, 0, 3, 3 * SEC, INTERVAL_MAX_RECS);
	merged(&m, a, b);
	l = &M_IV(&m)->recs;
	ck_assert_uint_eq(l->n, 6);
	ck_assert_uint_eq(l->join, 1);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(l->v[i].start, i * SEC);
		ck_assert_uint_eq(l->v[i].length, SEC);
		ck_assert_uint_eq(l->v[i].c.replies[2], 1);
		ck_assert_uint_eq(l->v[3 + i].start, 5 * DAY + i * SEC);
		ck_assert_uint_eq(l->v[3 + i].length, SEC);
		ck_assert_uint_eq(l->v[3 + i].h[INTERVAL_R_REPLY].count, 1);
	}
	merge_free(&m);
	jv_free(a);
	jv_free(b);

	/* 1970 (1 s after the epoch) and 2023. */
	ck_assert_int_eq(refused(doc_iv(0, EPOCH, 0, 3, 3 * SEC, 512),
	    doc_iv(1, SEC, 0, 3, 3 * SEC, 512), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "httperf: --merge: b.json: start.epoch_ns: "
	    "with a.json's, the runs span 19675.9 days") != NULL, "%s", msg);
	ck_assert_msg(strstr(msg, "--merge spans at most 31 days") != NULL,
	    "%s", msg);
	ck_assert_ptr_eq(strchr(msg, '\n'), msg + strlen(msg) - 1);
	/* 32 days apart: refused; 30: taken. */
	ck_assert_int_eq(refused(doc_iv(0, EPOCH, 0, 1, SEC, 512),
	    doc_iv(1, EPOCH + 32 * DAY, 0, 1, SEC, 512), msg, sizeof(msg)),
	    -1);
	ck_assert_int_eq(refused(doc_iv(0, EPOCH, 0, 1, SEC, 512),
	    doc_iv(1, EPOCH + 30 * DAY, 0, 1, SEC, 512), msg, sizeof(msg)),
	    0);

	/* One interval at 200,000 s in a run of 1 s. */
	ck_assert_int_eq(refused(doc_iv(0, EPOCH, 0, 1, SEC, 512),
	    doc_iv(1, EPOCH, 200000, 1, SEC, 512), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "httperf: --merge: b.json: "
	    "stats.interval.intervals[0].start_ns: past the run's end "
	    "(duration_ns)\n") != NULL, "%s", msg);
}
END_TEST

/*
 * At most INTERVAL_MAX_RECS merged intervals: 2 files of 600 intervals
 * make 300 of 2 s.  A file whose intervals were joined (4 by 4) sets
 * the merged intervals' length.  Nothing is lost.
 */
START_TEST(test_interval_bound)
{
	const struct interval_recs *l;
	struct jv *a, *b;
	struct merge m;
	uint64_t n = 0, h = 0;
	char *buf = NULL;
	size_t i, len = 0;
	FILE *f;

	a = doc_iv(0, EPOCH, 0, 600, 600 * SEC, INTERVAL_MAX_RECS);
	b = doc_iv(1, EPOCH, 0, 600, 600 * SEC, INTERVAL_MAX_RECS);
	merged(&m, a, b);
	l = &M_IV(&m)->recs;
	ck_assert_uint_eq(l->join, 2);
	ck_assert_uint_eq(l->n, 300);
	for (i = 0; i < l->n; i++) {
		ck_assert_uint_eq(l->v[i].start, i * 2 * SEC);
		ck_assert_uint_eq(l->v[i].length, 2 * SEC);
		n += l->v[i].c.replies[2];
		h += l->v[i].h[INTERVAL_R_REPLY].count;
	}
	ck_assert_uint_eq(n, 1200);
	ck_assert_uint_eq(h, 1200);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(merge_json(&m, f, NULL, NULL, 0), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"max_intervals\": 512,"));
	ck_assert_ptr_nonnull(strstr(buf, "\"joined\": 2,"));
	free(buf);
	merge_free(&m);
	jv_free(a);
	jv_free(b);

	/* a: 20 intervals kept at most 8: joined 4 by 4, 5 of them. */
	a = doc_iv(0, EPOCH, 0, 20, 20 * SEC, 8);
	b = doc_iv(1, EPOCH, 0, 20, 20 * SEC, INTERVAL_MAX_RECS);
	merged(&m, a, b);
	l = &M_IV(&m)->recs;
	ck_assert_uint_eq(l->join, 4);
	ck_assert_uint_eq(l->n, 5);
	for (i = 0; i < l->n; i++) {
		ck_assert_uint_eq(l->v[i].start, i * 4 * SEC);
		ck_assert_uint_eq(l->v[i].c.replies[2], 8);
		ck_assert_uint_eq(l->v[i].h[INTERVAL_R_REPLY].count, 8);
	}
	merge_free(&m);
	jv_free(a);
	jv_free(b);
}
END_TEST

/*
 * A file of an older version ends with a sliver (0.4 ms after 2 s): the
 * merged last interval is joined to the one before, as a run's is.
 */
START_TEST(test_interval_sliver)
{
	struct interval_recs l;
	struct interval_rec *r;
	struct extra x;
	struct jv *a, *b;
	struct merge m;

	ivs_fill(&l, SEC, 0, 3, 5000, INTERVAL_MAX_RECS);
	l.v[2].length = 400000;
	memset(&x, 0, sizeof(x));
	x.iv = &l;
	x.duration = 2 * SEC + 400000;
	a = doc_full(0, EPOCH, 3, 5000, 1, 1, 100, 3, NULL, -1, &x);
	b = doc_full(1, EPOCH, 3, 5000, 1, 1, 100, 3, NULL, -1, &x);
	interval_recs_free(&l);
	merged(&m, a, b);
	ck_assert_uint_eq(M_IV(&m)->recs.n, 2);
	r = &M_IV(&m)->recs.v[1];
	ck_assert_uint_eq(r->start, SEC);
	ck_assert_uint_eq(r->length, SEC + 400000);
	ck_assert_uint_eq(r->c.replies[2], 4);
	ck_assert_uint_eq(r->h[INTERVAL_R_REPLY].count, 4);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
}
END_TEST

/* Client ids: 2 x 200,000 merged in order; one twice is refused. */
START_TEST(test_ids)
{
	unsigned *ia, *ib;
	struct extra x;
	struct jv *a, *b;
	struct merge m;
	char msg[512];
	size_t i, n = 200000;

	ia = calloc(n, sizeof(*ia));
	ib = calloc(n, sizeof(*ib));
	for (i = 0; i < n; i++) {
		ia[i] = (unsigned)(2 * (n - 1 - i));	/* even, descending */
		ib[i] = (unsigned)(2 * i + 1);		/* odd, ascending */
	}
	memset(&x, 0, sizeof(x));
	x.nclients = (unsigned)(2 * n);
	x.nids = n;
	x.ids = ia;
	a = doc_full(0, EPOCH, 1, 5000, 1, 1, 100, 3, NULL, -1, &x);
	x.ids = ib;
	b = doc_full(1, EPOCH, 1, 5000, 1, 1, 100, 3, NULL, -1, &x);
	merged(&m, a, b);
	ck_assert_uint_eq(m.nids, 2 * n);
	for (i = 0; i < 2 * n; i++)
		if (m.ids[i] != i)
			ck_abort_msg("ids[%zu] = %u", i, m.ids[i]);
	merge_free(&m);
	jv_free(a);
	jv_free(b);

	/* b holds 7, which a holds too. */
	x.nids = 3;
	ia[0] = 5;
	ia[1] = 7;
	ia[2] = 9;
	ib[0] = 8;
	ib[1] = 7;
	ib[2] = 1;
	x.ids = ia;
	a = doc_full(0, EPOCH, 1, 5000, 1, 1, 100, 3, NULL, -1, &x);
	x.ids = ib;
	b = doc_full(1, EPOCH, 1, 5000, 1, 1, 100, 3, NULL, -1, &x);
	ck_assert_int_eq(refused(a, b, msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "httperf: --merge: b.json: client.ids: "
	    "client 7/400000 is also in an earlier file") != NULL, "%s",
	    msg);
	/* b holds 4 twice. */
	ib[0] = 4;
	ib[1] = 2;
	ib[2] = 4;
	x.ids = ia;
	a = doc_full(0, EPOCH, 1, 5000, 1, 1, 100, 3, NULL, -1, &x);
	x.ids = ib;
	b = doc_full(1, EPOCH, 1, 5000, 1, 1, 100, 3, NULL, -1, &x);
	ck_assert_int_eq(refused(a, b, msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: client.ids: client 4/400000 is "
	    "also in an earlier file or twice in this one") != NULL, "%s",
	    msg);
	free(ia);
	free(ib);
}
END_TEST

/*
 * Histogram settings other than this httperf's are refused, in the
 * first file too, before their counts are allocated: 5 digits up to
 * 2^24 ns (2^20 counts).
 */
START_TEST(test_hist_settings)
{
	struct extra x;
	struct jv *a;
	struct merge m;
	char msg[512];
	FILE *err;

	memset(&x, 0, sizeof(x));
	x.highest = INT64_C(1) << 24;
	a = doc_full(0, EPOCH, 1, 5000, 1, 1, 100, 5, NULL, -1, &x);
	merge_init(&m, cols, NCOLS);
	memset(msg, 0, sizeof(msg));
	err = fmemopen(msg, sizeof(msg), "w");
	ck_assert_int_eq(merge_add(&m, a, "a.json", "httperf", err), -1);
	fclose(err);
	ck_assert_msg(strstr(msg, "httperf: --merge: a.json: "
	    "stats.basic.histograms.connection.hdr: not this httperf's "
	    "histogram settings (lowest 1 ns, highest 1 h, 3 digits)\n") !=
	    NULL, "%s", msg);
	merge_free(&m);
	jv_free(a);
}
END_TEST

/*
 * A sweep's document: `whole' (freed) with a "sweep" member of n steps,
 * step i of kind kinds[i] ('p' plan, 'b' probe) at level[i], its result
 * steps[i] (freed).
 */
static struct jv *
doc_sweep(struct jv *whole, const char *spec, const char *kinds,
    const double *level, struct jv **steps, size_t n)
{
	struct jsonw w;
	struct jv *root;
	char *buf = NULL, err[128];
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	jsonw_init(&w, f);
	jsonw_obj_begin(&w);
	for (i = 0; i < jv_len(whole); i++) {
		jsonw_key(&w, jv_key_at(whole, i));
		result_copy(&w, jv_at(whole, i));
	}
	jsonw_key(&w, "sweep");
	jsonw_obj_begin(&w);
	jsonw_kstr(&w, "spec", spec);
	jsonw_kdouble(&w, "step_time_s", 1);
	jsonw_kdouble(&w, "warmup_s", 0);
	jsonw_kdouble(&w, "precision_pct", 2);
	jsonw_kstr(&w, "param", "rate");
	jsonw_kstr(&w, "unit", "conn/s");
	jsonw_kbool(&w, "fixed", 1);
	jsonw_key(&w, "steps");
	jsonw_arr_begin(&w);
	for (i = 0; i < n; i++) {
		jsonw_obj_begin(&w);
		jsonw_ku64(&w, "index", i + 1);
		jsonw_kstr(&w, "kind", kinds[i] == 'p' ? "plan" : "probe");
		jsonw_kdouble(&w, "level", level[i]);
		jsonw_kstr(&w, "verdict", "-");
		jsonw_kbool(&w, "client_limited", 0);
		jsonw_key(&w, "result");
		result_copy(&w, steps[i]);
		jsonw_obj_end(&w);
		jv_free(steps[i]);
	}
	jsonw_arr_end(&w);
	jsonw_obj_end(&w);
	jsonw_obj_end(&w);
	ck_assert_int_eq(jsonw_finish(&w), 0);
	fclose(f);
	jv_free(whole);
	root = jv_parse(buf, len, err, sizeof(err));
	ck_assert_msg(root != NULL, "%s", err);
	free(buf);
	return root;
}

/* Client id's sweep 100:200:100, n0 and n1 replies in its steps. */
static struct jv *
sweep_of(unsigned id, uint64_t n0, uint64_t n1)
{
	static const double level[] = { 100, 200 };
	struct jv *steps[2];

	steps[0] = doc(id, SEC, n0, 1000, 1, 1, 100, 3);
	steps[1] = doc(id, 2 * SEC, n1, 1000, 1, 1, 200, 3);
	return doc_sweep(doc(id, SEC, n0 + n1, 1000, 1, 1, 100, 3),
	    "100:200:100", "pp", level, steps, 2);
}

/*
 * Merges client 0's sweep (3 and 5 replies in its steps) with client
 * 1's (4 and 6), judged by `expr'; returns the exit status and the
 * sweep's output in out.
 */
static int
sweep_merged(const char *expr, char *out, size_t len)
{
	static char *files[] = { "a.json", "b.json" };
	struct jv *docs[2] = { sweep_of(0, 3, 5), sweep_of(1, 4, 6) };
	struct options o;
	struct merge m;
	struct slo slo;
	char err[128];
	FILE *f = fmemopen(out, len, "w");
	int rv;

	memset(out, 0, len);
	memset(&o, 0, sizeof(o));
	o.prog = "httperf";
	o.merge_files = files;
	o.n_merge_files = 2;
	ck_assert_int_eq(slo_parse(expr, &slo, err, sizeof(err)), 0);
	o.slo = &slo;
	o.n_slo = 1;
	merge_init(&m, cols, NCOLS);
	ck_assert_int_eq(merge_add(&m, docs[0], "a.json", "httperf",
	    stderr), 0);
	ck_assert_int_eq(merge_add(&m, docs[1], "b.json", "httperf",
	    stderr), 0);
	merge_finish(&m);
	ck_assert_int_eq(merge_sweep_steps(&m, &o,
	    (const struct jv *const *)docs, files, 2), 0);
	rv = merge_sweep_print(&m, f);
	fclose(f);
	merge_free(&m);
	jv_free(docs[0]);
	jv_free(docs[1]);
	return rv;
}

/*
 * A sweep of two clients, merged step by step: each step's counts the
 * sum of the files', at the sum of their levels, judged on the sums.
 */
START_TEST(test_sweep)
{
	char out[2048];

	ck_assert_int_eq(sweep_merged("2xx<=8", out, sizeof(out)), 0);
	ck_assert_msg(strstr(out, "\n   1 plan       200.0        7 ") !=
	    NULL, "%s", out);
	ck_assert_msg(strstr(out, "\n   2 plan       400.0       11 ") !=
	    NULL, "%s", out);
	ck_assert_msg(strstr(out, " PASS\n   2 plan ") != NULL, "%s", out);
	ck_assert_msg(strstr(out, " FAIL\nCapacity: 200.0 conn/s (found: "
	    "2xx<=8; the next level 400.0 failed; a fixed plan: no search)\n")
	    != NULL, "%s", out);
	/* Each file's first step (3, 4) meets 2xx<=6, their sum not. */
	ck_assert_int_eq(sweep_merged("2xx<=6", out, sizeof(out)), 4);
	ck_assert_msg(strstr(out, "Capacity: - conn/s (first-fail: the first "
	    "level 200.0 failed 2xx<=6)\n") != NULL, "%s", out);
}
END_TEST

/* A sweep merges with a sweep of the same fixed plan only. */
START_TEST(test_sweep_refusals)
{
	static const double lv[] = { 100, 200 }, lv2[] = { 100, 250 };
	struct jv *st[2];
	char msg[512];

	ck_assert_int_eq(refused(sweep_of(0, 3, 5),
	    doc(1, SEC, 10, 1000, 1, 1, 100, 3), msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "httperf: --merge: b.json: sweep: in one of "
	    "this file and a.json only: a --sweep's result merges only with "
	    "those of the same plan\n");
	st[0] = doc(1, SEC, 4, 1000, 1, 1, 100, 3);
	ck_assert_int_eq(refused(sweep_of(0, 3, 5),
	    doc_sweep(doc(1, SEC, 4, 1000, 1, 1, 100, 3), "100:200:100",
	    "p", lv, st, 1), msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "httperf: --merge: b.json: sweep.steps: 1 "
	    "steps, a.json has 2: the files must have run the same fixed "
	    "plan\n");
	st[0] = doc(1, SEC, 4, 1000, 1, 1, 100, 3);
	st[1] = doc(1, SEC, 4, 1000, 1, 1, 200, 3);
	ck_assert_int_eq(refused(sweep_of(0, 3, 5),
	    doc_sweep(doc(1, SEC, 4, 1000, 1, 1, 100, 3), "100:200:100",
	    "pp", lv2, st, 2), msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "httperf: --merge: b.json: sweep.steps.1: "
	    "level 250, a.json's is 200: the files must have run the same "
	    "fixed plan\n");
	st[0] = doc(1, SEC, 4, 1000, 1, 1, 100, 3);
	st[1] = doc(1, SEC, 4, 1000, 1, 1, 200, 3);
	ck_assert_int_eq(refused(sweep_of(0, 3, 5),
	    doc_sweep(doc(1, SEC, 4, 1000, 1, 1, 100, 3), "100:200:100",
	    "pb", lv, st, 2), msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "httperf: --merge: b.json: sweep.steps.1: a "
	    "probe step of a capacity search: only fixed plans merge (with "
	    "--client I/N, N above 1, a sweep runs every planned level)\n");
	st[0] = doc(1, SEC, 4, 1000, 1, 1, 100, 3);
	st[1] = doc(1, SEC, 4, 1000, 1, 1, 200, 3);
	ck_assert_int_eq(refused(sweep_of(0, 3, 5),
	    doc_sweep(doc(1, SEC, 4, 1000, 1, 1, 100, 3), "100:300:100",
	    "pp", lv, st, 2), msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "httperf: --merge: b.json: sweep.spec: "
	    "100:300:100, a.json's is 100:200:100: the files must have run "
	    "the same fixed plan\n");
}
END_TEST

static Suite *
merge_suite(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sums);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_unequal);
	tcase_add_test(tc, test_sched);
	tcase_add_test(tc, test_sched_refusals);
	tcase_add_test(tc, test_interval_span);
	tcase_add_test(tc, test_interval_bound);
	tcase_add_test(tc, test_interval_sliver);
	tcase_add_test(tc, test_ids);
	tcase_add_test(tc, test_hist_settings);
	tcase_add_test(tc, test_sweep);
	tcase_add_test(tc, test_sweep_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(merge_suite());
}
