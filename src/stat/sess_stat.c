/*
 * Session statistics collector (see sess_stat.h).  As in 0.9.0 the
 * average session rate is sessions completed over the test duration, not
 * the mean of the samples; every division by zero prints 0.
 *
 * Per session it counts, in sess->stat_data, the connections that
 * connected and the replies completed, from their events.  It subscribes
 * before the workload, so it sees a reply before the workload can end the
 * session on it.  Only the collector on the session's own core counts
 * there: a --sweep step's collectors (on a copy of the core, started
 * mid-run) see the same events and read the same counts, so that a
 * session counts once, whole, in the step it ends in.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/sess.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/sess_stat.h"
#include "stat/stat_merge.h"

#define NS_PER_SEC	1e9

/* What the collector counts in sess->stat_data. */
#define SS_CONNS	0	/* its connections that connected */
#define SS_REPLIES	1	/* replies completed for it */

/* The members of its --json part, written and read back (--merge) here. */
#define SESS_K_LENGTH_HISTOGRAM		"length_histogram"
#define SESS_K_COMPLETED		"completed"
#define SESS_K_FAILED			"failed"
#define SESS_K_CONNS			"conns"
#define SESS_K_LIFETIME_SUM_NS		"lifetime_sum_ns"
#define SESS_K_FAILTIME_SUM_NS		"failtime_sum_ns"
#define SESS_K_COOKIES_IGNORED		"cookies_ignored"
#define SESS_K_COOKIES			"cookies"
#define SESS_K_RATE_PER_S		"rate_per_s"

void
sess_stat_add_len(struct sess_stat_totals *t, uint64_t nreplies)
{
	size_t cap;

	if (nreplies >= t->len_cap) {
		cap = t->len_cap > 0 ? t->len_cap : 16;
		while (cap <= nreplies)
			cap *= 2;
		t->len_hist = xreallocarray(t->len_hist, cap,
		    sizeof(*t->len_hist));
		memset(t->len_hist + t->len_cap, 0,
		    (cap - t->len_cap) * sizeof(*t->len_hist));
		t->len_cap = cap;
	}
	t->len_hist[nreplies]++;
	if (nreplies + 1 > t->len_n)
		t->len_n = (size_t)nreplies + 1;
}

static void
sess_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct sess_stat *st = ctx;
	struct sess_stat_totals *t = &st->t;
	struct sess *s;
	struct conn *c;
	struct call *call;
	double v;

	switch (ev) {
	case BUS_PERF_SAMPLE:
		v = (double)st->interval_completed * arg.d;
		st->interval_completed = 0;
		if (!basic_sample_whole(st->start, now, arg.d))
			break;		/* begun before the measure */
		stat_samples_add(&t->rate, &t->rate_samples, v);
		if (st->verbose > 0)
			fprintf(st->out, "session-rate = %-8.1f\n", v);
		break;
	case BUS_CONN_CONNECTED:
		c = obj;
		if (c->sess != NULL && c->sess->core == st->core)
			c->sess->stat_data[SS_CONNS]++;
		break;
	case BUS_CALL_RECV_STOP:
		call = obj;
		if (call->sess != NULL && call->sess->core == st->core)
			call->sess->stat_data[SS_REPLIES]++;
		break;
	case BUS_SESS_FAILED:
		t->failed++;
		break;
	case BUS_SESS_DESTROYED:
		s = obj;
		if (s->failed) {
			t->failtime_sum += now - s->t_start;
		} else {
			t->completed++;
			st->interval_completed++;
			t->lifetime_sum += now - s->t_start;
			t->conns += s->stat_data[SS_CONNS];
		}
		sess_stat_add_len(t, s->stat_data[SS_REPLIES]);
		break;
	default:
		break;
	}
}

void
sess_stat_init(struct sess_stat *st, struct core *core, int verbose,
    FILE *out)
{
	static const enum bus_event evs[] = {
		BUS_PERF_SAMPLE, BUS_CONN_CONNECTED, BUS_CALL_RECV_STOP,
		BUS_SESS_FAILED, BUS_SESS_DESTROYED,
	};
	size_t i;

	memset(st, 0, sizeof(*st));
	st->core = core;
	st->out = out;
	st->verbose = verbose;
	for (i = 0; i < nitems(evs); i++)
		bus_subscribe(core->bus, evs[i], sess_stat_event, st);
}

void
sess_stat_fini(struct sess_stat *st)
{
	free(st->t.len_hist);
	st->t.len_hist = NULL;
	stat_samples_free(&st->t.rate_samples);
	st->t.len_n = st->t.len_cap = 0;
}

void
sess_stat_report(FILE *out, const struct sess_stat_totals *t,
    uint64_t duration)
{
	double d = (double)duration / NS_PER_SEC;
	size_t i;

	fprintf(out, "\nSession rate [sess/s]: min %.2f avg %.2f max %.2f "
	    "stddev %.2f (%llu/%llu)\n",
	    t->rate.n > 0 ? t->rate.min : 0.0,
	    basic_ratio((double)t->completed, d),
	    t->rate.n > 0 && t->rate.max > 0 ? t->rate.max : 0.0,
	    basic_stddev(t->rate.n, t->rate.sum, t->rate.sum2),
	    (unsigned long long)t->completed,
	    (unsigned long long)(t->completed + t->failed));
	fprintf(out, "Session: avg %.2f connections/session\n",
	    basic_ratio((double)t->conns, (double)t->completed));
	fprintf(out, "Session lifetime [s]: %.1f\n",
	    basic_ratio((double)t->lifetime_sum / NS_PER_SEC,
	    (double)t->completed));
	fprintf(out, "Session failtime [s]: %.1f\n",
	    basic_ratio((double)t->failtime_sum / NS_PER_SEC,
	    (double)t->failed));
	/* Entries 0 to the longest session; " 0" when there was none. */
	fprintf(out, "Session length histogram:");
	for (i = 0; i < t->len_n || i == 0; i++)
		fprintf(out, " %llu", i < t->len_n ?
		    (unsigned long long)t->len_hist[i] : 0ULL);
	fputc('\n', out);
	if (t->cookies)
		fprintf(out, "Session cookies: ignored %llu\n",
		    (unsigned long long)t->cookies_ignored);
}

void
sess_stat_json(struct jsonw *w, const struct sess_stat_totals *t,
    uint64_t duration)
{
	double d = (double)duration / NS_PER_SEC;
	size_t i;

	jsonw_obj_begin(w);
	jsonw_ku64(w, SESS_K_COMPLETED, t->completed);
	jsonw_ku64(w, SESS_K_FAILED, t->failed);
	jsonw_key(w, SESS_K_RATE_PER_S);
	stat_json_series(w, &t->rate, &t->rate_samples,
	    basic_ratio((double)t->completed, d));
	jsonw_ku64(w, SESS_K_CONNS, t->conns);
	jsonw_kdouble(w, "conns_per_session", basic_ratio((double)t->conns,
	    (double)t->completed));
	jsonw_ku64(w, SESS_K_LIFETIME_SUM_NS, t->lifetime_sum);
	jsonw_kdouble(w, "lifetime_s", basic_ratio((double)t->lifetime_sum /
	    NS_PER_SEC, (double)t->completed));
	jsonw_ku64(w, SESS_K_FAILTIME_SUM_NS, t->failtime_sum);
	jsonw_kdouble(w, "failtime_s", basic_ratio((double)t->failtime_sum /
	    NS_PER_SEC, (double)t->failed));
	jsonw_key(w, SESS_K_LENGTH_HISTOGRAM);
	jsonw_arr_begin(w);
	for (i = 0; i < t->len_n; i++)
		jsonw_u64(w, t->len_hist[i]);
	jsonw_arr_end(w);
	jsonw_kbool(w, SESS_K_COOKIES, t->cookies);
	jsonw_ku64(w, SESS_K_COOKIES_IGNORED, t->cookies_ignored);
	jsonw_obj_end(w);
}

void
sess_stat_print(struct sess_stat *st, FILE *out, uint64_t duration)
{
	sess_stat_report(out, &st->t, duration);
}

/* The collector interface (stat/collector.h). */

struct sess_stat_col {
	struct sess_stat st;
	const uint64_t	*cookies_ignored;
	struct stat_samples rate_merge;	/* --merge: the files' k-th
					   samples added */
};

static int
sess_stat_col_init(void **state, const struct collector_env *env,
    char *err, size_t errlen)
{
	const struct sess_stat_config *cfg = env->cfg;
	struct sess_stat_col *sc = xcalloc(1, sizeof(*sc));

	*state = sc;
	if (env->core == NULL)
		return 0;
	sess_stat_init(&sc->st, env->core, env->verbose, env->out);
	sc->st.t.cookies = cfg->cookies;
	sc->cookies_ignored = cfg->cookies_ignored;
	return 0;
}

/* A --sweep step's measure starts mid-run. */
static void
sess_stat_col_start(void *state, uint64_t now)
{
	struct sess_stat_col *sc = state;

	sc->st.start = now;
}

static void
sess_stat_col_report(void *state, FILE *out,
    const struct collector_run *run)
{
	struct sess_stat_col *sc = state;

	if (sc->cookies_ignored != NULL)
		sc->st.t.cookies_ignored = *sc->cookies_ignored;
	sess_stat_print(&sc->st, out, run->duration);
}

static void
sess_stat_col_json(void *state, struct jsonw *w,
    const struct collector_run *run)
{
	struct sess_stat_col *sc = state;

	if (sc->cookies_ignored != NULL)
		sc->st.t.cookies_ignored = *sc->cookies_ignored;
	sess_stat_json(w, &sc->st.t, run->duration);
}

static void
sess_stat_col_fini(void *state)
{
	struct sess_stat_col *sc = state;

	sess_stat_fini(&sc->st);
	stat_samples_free(&sc->rate_merge);
	free(sc);
}

/* --merge: the length histograms added, entry by entry. */
static void
sess_stat_merge_lens(struct sess_stat_totals *t, struct collector_merge *mg)
{
	const struct jv *len = stat_merge_get(mg, SESS_K_LENGTH_HISTOGRAM);
	uint64_t v;
	size_t i, n;

	if (jv_type(len) != JV_ARR) {
		stat_merge_fail(mg, SESS_K_LENGTH_HISTOGRAM,
		    "missing or not a list");
		return;
	}
	n = jv_len(len);
	if (n > t->len_cap) {
		t->len_hist = xreallocarray(t->len_hist, n,
		    sizeof(*t->len_hist));
		memset(t->len_hist + t->len_cap, 0,
		    (n - t->len_cap) * sizeof(*t->len_hist));
		t->len_cap = n;
	}
	if (n > t->len_n)
		t->len_n = n;
	for (i = 0; i < n && !mg->failed; i++) {
		if (jv_u64(jv_at(len, i), &v) == -1 ||
		    v > UINT64_MAX - t->len_hist[i])
			stat_merge_fail(mg, SESS_K_LENGTH_HISTOGRAM, "an entry "
			    "is not an unsigned integer, or the sum overflows");
		else
			t->len_hist[i] += v;
	}
}

static void
sess_stat_col_merge(void *state, struct collector_merge *mg)
{
	struct sess_stat_col *sc = state;
	struct sess_stat_totals *t = &sc->st.t;

	stat_merge_add(mg, SESS_K_COMPLETED, &t->completed);
	stat_merge_add(mg, SESS_K_FAILED, &t->failed);
	stat_merge_add(mg, SESS_K_CONNS, &t->conns);
	stat_merge_add(mg, SESS_K_LIFETIME_SUM_NS, &t->lifetime_sum);
	stat_merge_add(mg, SESS_K_FAILTIME_SUM_NS, &t->failtime_sum);
	stat_merge_add(mg, SESS_K_COOKIES_IGNORED, &t->cookies_ignored);
	t->cookies |= stat_merge_bool(mg, SESS_K_COOKIES);
	stat_merge_samples(mg, SESS_K_RATE_PER_S, &sc->rate_merge);
	sess_stat_merge_lens(t, mg);
}

static void
sess_stat_col_merge_end(void *state, uint64_t start_ns, uint64_t end_ns)
{
	struct sess_stat_col *sc = state;

	stat_merge_samples_end(&sc->rate_merge, &sc->st.t.rate,
	    &sc->st.t.rate_samples);
}

const struct collector sess_stat_collector = {
	.name = "sess_stat",
	.init = sess_stat_col_init,
	.start = sess_stat_col_start,
	.report = sess_stat_col_report,
	.json = sess_stat_col_json,
	.merge = sess_stat_col_merge,
	.merge_end = sess_stat_col_merge_end,
	.fini = sess_stat_col_fini,
};
