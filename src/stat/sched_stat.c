/*
 * The schedule collector (see sched_stat.h): lateness, arrivals never
 * sent, and the bottleneck warning.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/sched_stat.h"
#include "stat/stat_json.h"
#include "stat/stat_merge.h"

/* The members of its --json part, written and read back (--merge) here. */
#define SCHED_K_REQUESTS		"requests"
#define SCHED_K_THRESHOLD_NS		"threshold_ns"
#define SCHED_K_SCHEDULED		"scheduled"
#define SCHED_K_MADE			"made"
#define SCHED_K_NEVER_SENT		"never_sent"
#define SCHED_K_NEVER_SENT_QUEUED	"never_sent_queued"
#define SCHED_K_LATE			"late"
#define SCHED_K_TARGET_RATE_PER_S	"target_rate_per_s"
#define SCHED_K_CPU_PCT			"cpu_pct"
#define SCHED_K_FIRST_NS		"first_ns"
#define SCHED_K_SCHED_LAST_NS		"sched_last_ns"
#define SCHED_K_ACTUAL_LAST_NS		"actual_last_ns"
#define SCHED_K_LATENESS		"lateness"

#define NS_PER_SEC	1e9
#define NS_PER_MSEC	1e6

static void
sched_stat_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct sched_stat *st = ctx;

	if (ev == BUS_ARRIVAL)
		sched_stat_arrival(st, (uint64_t)arg.i, now);
	else if (ev == BUS_ARRIVAL_MISSED && arg.i > 0 && obj != NULL)
		sched_stat_never_made(st, (uint64_t)arg.i, now);
	else if (ev == BUS_ARRIVAL_MISSED && arg.i > 0)
		sched_stat_missed(st, (uint64_t)arg.i, now);
}

void
sched_stat_init(struct sched_stat *st, struct bus *bus,
    const struct sched_stat_config *cfg)
{
	memset(st, 0, sizeof(*st));
	if (cfg != NULL)
		st->cfg = *cfg;
	else
		st->cfg.threshold = SCHED_THRESHOLD_NS;
	st->late = hdr_new_ns();
	if (bus != NULL) {
		bus_subscribe(bus, BUS_ARRIVAL, sched_stat_event, st);
		bus_subscribe(bus, BUS_ARRIVAL_MISSED, sched_stat_event, st);
	}
}

void
sched_stat_fini(struct sched_stat *st)
{
	hdr_free(st->late);
	st->late = NULL;
}

/* Widens the schedule's span to take `t' in. */
static void
sched_stat_span(struct sched_stat *st, uint64_t t)
{
	if (!st->have_first) {
		st->have_first = 1;
		st->first = st->sched_last = t;
	} else if (t < st->first)
		st->first = t;
	else if (t > st->sched_last)
		st->sched_last = t;
}

void
sched_stat_arrival(struct sched_stat *st, uint64_t intended, uint64_t now)
{
	uint64_t late;

	/* A clock step cannot make an arrival early: at worst on time. */
	late = now > intended ? now - intended : 0;
	hdr_record(st->late, late);
	st->made++;
	if (late > st->cfg.threshold)
		st->nlate++;
	sched_stat_span(st, intended);
	if (now > st->actual_last)
		st->actual_last = now;
}

void
sched_stat_never_made(struct sched_stat *st, uint64_t n, uint64_t now)
{
	st->missed += n;
	/* Their intended times are at or before `now'. */
	sched_stat_span(st, now);
}

void
sched_stat_missed(struct sched_stat *st, uint64_t n, uint64_t now)
{
	/*
	 * --call-rate: requests taken in (their arrival signalled, their
	 * intended times in the span already) that never went out.
	 */
	if (st->cfg.requests) {
		st->unsent += n;
		return;
	}
	sched_stat_never_made(st, n, now);
}

double
sched_stat_cpu_pct(const struct collector_run *run)
{
	if (run == NULL || run->duration < SCHED_CPU_MIN_NS)
		return -1;
	return 100.0 * (run->cpu_user + run->cpu_sys) /
	    ((double)run->duration / NS_PER_SEC);
}

void
sched_stat_verdict(const struct sched_stat *st, double cpu_pct,
    struct sched_verdict *v)
{
	uint64_t span, window;

	memset(v, 0, sizeof(*v));
	v->cpu_pct = cpu_pct;
	v->scheduled = st->made + st->missed;
	v->never_sent = st->missed + st->unsent;
	if (v->scheduled == 0)
		return;
	v->late_pct = 100.0 * basic_ratio((double)st->nlate,
	    (double)v->scheduled);
	if (v->late_pct > SCHED_LATE_MAX_PCT)
		v->why |= SCHED_WHY_LATE;

	/* The rate needs two arrivals and a schedule that took time. */
	span = st->sched_last - st->first;
	window = (st->actual_last > st->sched_last ? st->actual_last :
	    st->sched_last) - st->first;
	if (v->scheduled >= 2 && span > 0) {
		v->sched_rate = (double)(v->scheduled - 1) /
		    ((double)span / NS_PER_SEC);
		v->achieved_rate = st->made < 2 ? 0.0 :
		    (double)(st->made - 1) / ((double)window / NS_PER_SEC);
		v->rate_pct = 100.0 * basic_ratio(v->achieved_rate,
		    v->sched_rate);
		/* A shortfall counts when arrivals were never made, or when
		   the last one came later than the lateness threshold: on a
		   short schedule a last arrival a few ms late (under the
		   threshold) lowers the rate by more than 0.5%. */
		if (v->rate_pct < SCHED_RATE_MIN_PCT &&
		    (st->missed > 0 || window - span > st->cfg.threshold))
			v->why |= SCHED_WHY_RATE;
	}

	if (cpu_pct > SCHED_CPU_MAX_PCT)
		v->why |= SCHED_WHY_CPU;
}

void
sched_stat_print(const struct sched_stat *st, FILE *out)
{
	struct sched_verdict v;

	sched_stat_verdict(st, -1, &v);
	basic_print_pct(out, "Lateness", st->late);
	fprintf(out, "Arrivals: %llu scheduled, %llu late over %g ms "
	    "(%.1f%%), %llu never sent; rate",
	    (unsigned long long)v.scheduled, (unsigned long long)st->nlate,
	    (double)st->cfg.threshold / NS_PER_MSEC, v.late_pct,
	    (unsigned long long)v.never_sent);
	if (st->cfg.rate > 0)
		fprintf(out, " target %.1f/s,", st->cfg.rate);
	fprintf(out, " scheduled %.1f/s, achieved %.1f/s\n", v.sched_rate,
	    v.achieved_rate);
}

int
sched_stat_print_warning(const struct sched_stat *st, FILE *out,
    double cpu_pct)
{
	struct sched_verdict v;
	const char *sep = "";

	sched_stat_verdict(st, cpu_pct, &v);
	if (v.why == 0)
		return 0;
	fprintf(out, "\nWarning: the client was the bottleneck:");
	if (v.why & SCHED_WHY_LATE) {
		fprintf(out, " %.1f%% of arrivals late over %g ms (more than "
		    "%g%%)", v.late_pct,
		    (double)st->cfg.threshold / NS_PER_MSEC,
		    SCHED_LATE_MAX_PCT);
		sep = ";";
	}
	if (v.why & SCHED_WHY_RATE) {
		fprintf(out, "%s achieved arrival rate %.1f/s is %.1f%% of "
		    "the scheduled %.1f/s (below %g%%)", sep, v.achieved_rate,
		    v.rate_pct, v.sched_rate, SCHED_RATE_MIN_PCT);
		sep = ";";
	}
	if (v.why & SCHED_WHY_CPU)
		fprintf(out, "%s client CPU %.1f%% (over %g%%)", sep, v.cpu_pct,
		    SCHED_CPU_MAX_PCT);
	fputc('\n', out);
	return 1;
}

/* The CPU share the warning and the JSON show. */
static double
sched_stat_cpu(const struct sched_stat *st, const struct collector_run *run)
{
	return st->merged ? st->merged_cpu_pct : sched_stat_cpu_pct(run);
}

int
sched_stat_warn(void *state, FILE *out, const struct collector_run *run)
{
	return sched_stat_print_warning(state, out, sched_stat_cpu(state,
	    run));
}

/* `t' in ns since the test's start (0 if before it). */
static uint64_t
sched_stat_since(const struct sched_stat *st, uint64_t t)
{
	return t > st->start ? t - st->start : 0;
}

int
sched_stat_json(const struct sched_stat *st, struct jsonw *w,
    double cpu_pct)
{
	struct sched_verdict v;
	int rv = 0;

	sched_stat_verdict(st, cpu_pct, &v);
	jsonw_obj_begin(w);
	jsonw_kbool(w, SCHED_K_REQUESTS, st->cfg.requests);
	jsonw_ku64(w, SCHED_K_THRESHOLD_NS, st->cfg.threshold);
	jsonw_ku64(w, SCHED_K_SCHEDULED, v.scheduled);
	jsonw_ku64(w, SCHED_K_MADE, v.scheduled - v.never_sent);
	jsonw_ku64(w, SCHED_K_NEVER_SENT, v.never_sent);
	jsonw_ku64(w, SCHED_K_NEVER_SENT_QUEUED, st->unsent);
	jsonw_ku64(w, SCHED_K_LATE, st->nlate);
	jsonw_kdouble(w, "late_pct", v.late_pct);
	jsonw_kdouble(w, SCHED_K_TARGET_RATE_PER_S, st->cfg.rate);
	jsonw_kdouble(w, "scheduled_rate_per_s", v.sched_rate);
	jsonw_kdouble(w, "achieved_rate_per_s", v.achieved_rate);
	jsonw_kdouble(w, "rate_pct", v.rate_pct);
	if (cpu_pct >= 0)
		jsonw_kdouble(w, SCHED_K_CPU_PCT, cpu_pct);
	else {
		jsonw_key(w, SCHED_K_CPU_PCT);
		jsonw_null(w);
	}
	jsonw_ku64(w, SCHED_K_FIRST_NS, sched_stat_since(st, st->first));
	jsonw_ku64(w, SCHED_K_SCHED_LAST_NS, sched_stat_since(st,
	    st->sched_last));
	jsonw_ku64(w, SCHED_K_ACTUAL_LAST_NS, sched_stat_since(st,
	    st->actual_last));
	jsonw_key(w, "warning");
	jsonw_obj_begin(w);
	jsonw_kbool(w, "fired", v.why != 0);
	jsonw_kbool(w, "late", (v.why & SCHED_WHY_LATE) != 0);
	jsonw_kbool(w, "rate", (v.why & SCHED_WHY_RATE) != 0);
	jsonw_kbool(w, "cpu", (v.why & SCHED_WHY_CPU) != 0);
	jsonw_obj_end(w);
	jsonw_key(w, SCHED_K_LATENESS);
	if (stat_json_hdr(w, st->late) == -1) {
		jsonw_null(w);
		rv = -1;
	}
	jsonw_obj_end(w);
	return rv;
}

/* The collector interface (stat/collector.h). */

static int
sched_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	struct sched_stat *st = xcalloc(1, sizeof(*st));

	if (env->core != NULL)
		sched_stat_init(st, env->bus, env->cfg);
	*state = st;
	return 0;
}

static void
sched_col_extra(void *state, FILE *out, const struct collector_run *run)
{
	sched_stat_print(state, out);
}

static void
sched_col_start(void *state, uint64_t now)
{
	struct sched_stat *st = state;

	st->start = now;
}

static void
sched_col_json(void *state, struct jsonw *w, const struct collector_run *run)
{
	sched_stat_json(state, w, sched_stat_cpu(state, run));
}

static void
sched_col_fini(void *state)
{
	sched_stat_fini(state);
	free(state);
}

/* The figures of one file's stats.sched, checked (--merge). */
struct sched_file {
	uint64_t	 thr, sched, made, never, queued, late, t[3];
	double		 target, cpu;
	int		 req;
};

/* Reads and checks them.  Returns 0, or -1 after a message. */
static int
sched_merge_read(struct collector_merge *mg, struct sched_file *f)
{
	uint64_t epoch = mg->start_ns;

	f->req = stat_merge_bool(mg, SCHED_K_REQUESTS);
	f->thr = stat_merge_u64(mg, SCHED_K_THRESHOLD_NS);
	f->sched = stat_merge_u64(mg, SCHED_K_SCHEDULED);
	f->made = stat_merge_u64(mg, SCHED_K_MADE);
	f->never = stat_merge_u64(mg, SCHED_K_NEVER_SENT);
	f->queued = stat_merge_u64(mg, SCHED_K_NEVER_SENT_QUEUED);
	f->late = stat_merge_u64(mg, SCHED_K_LATE);
	f->target = stat_merge_num(mg, SCHED_K_TARGET_RATE_PER_S);
	f->cpu = -1;
	if (jv_type(stat_merge_get(mg, SCHED_K_CPU_PCT)) != JV_NULL)
		f->cpu = stat_merge_num(mg, SCHED_K_CPU_PCT);
	f->t[0] = stat_merge_u64(mg, SCHED_K_FIRST_NS);
	f->t[1] = stat_merge_u64(mg, SCHED_K_SCHED_LAST_NS);
	f->t[2] = stat_merge_u64(mg, SCHED_K_ACTUAL_LAST_NS);
	if (mg->failed)
		return -1;
	if (f->made > f->sched || f->never != f->sched - f->made ||
	    f->queued > f->never || f->late > f->made + f->queued)
		stat_merge_fail(mg, NULL, "the counts do not add up (scheduled "
		    "= made + never_sent, never_sent_queued <= never_sent, "
		    "late <= made + never_sent_queued)");
	else if (f->t[0] > f->t[1] || f->t[1] > UINT64_MAX - epoch ||
	    f->t[2] > UINT64_MAX - epoch)
		stat_merge_fail(mg, NULL, "first_ns, sched_last_ns, "
		    "actual_last_ns out of range");
	return mg->failed ? -1 : 0;
}

/* The settings: the first file's, the same in the others. */
static int
sched_merge_cfg(struct sched_stat *st, struct collector_merge *mg,
    const struct sched_file *f)
{
	if (mg->first) {
		sched_stat_init(st, NULL, NULL);
		hdr_free(st->late);	/* the first file's comes instead */
		st->late = NULL;
		st->cfg.threshold = f->thr;
		st->cfg.requests = f->req;
		st->merged = 1;
		st->merged_cpu_pct = -1;
	} else if (f->thr != st->cfg.threshold)
		stat_merge_fail(mg, SCHED_K_THRESHOLD_NS, "%llu differs from "
		    "%s's %llu (their late counts would not add up)",
		    (unsigned long long)f->thr, mg->first_path,
		    (unsigned long long)st->cfg.threshold);
	else if (f->req != st->cfg.requests)
		stat_merge_fail(mg, SCHED_K_REQUESTS, "differs from %s's",
		    mg->first_path);
	return mg->failed ? -1 : 0;
}

/*
 * --merge: counts and histograms added, target rates added, the span the
 * union of the files' on the wall clock (report/merge.h), the CPU share
 * the largest file's.
 */
static void
sched_col_merge(void *state, struct collector_merge *mg)
{
	struct sched_stat *st = state;
	struct sched_file f;
	uint64_t epoch = mg->start_ns;

	if (sched_merge_read(mg, &f) == -1 || sched_merge_cfg(st, mg,
	    &f) == -1)
		return;
	stat_merge_hist(mg, SCHED_K_LATENESS, &st->late);
	if (!mg->failed && st->late == NULL)
		stat_merge_fail(mg, SCHED_K_LATENESS, "missing");
	if (mg->failed)
		return;
	/* made - queued, queued, never - queued: as the events counted. */
	if (f.made + f.queued < f.made || st->made + f.made + f.queued <
	    st->made || st->missed + (f.never - f.queued) < st->missed ||
	    st->unsent + f.queued < st->unsent || st->nlate + f.late <
	    st->nlate) {
		stat_merge_fail(mg, NULL, "the sums overflow");
		return;
	}
	st->made += f.made + f.queued;
	st->unsent += f.queued;
	st->missed += f.never - f.queued;
	st->nlate += f.late;
	st->cfg.rate += f.target;
	if (f.cpu > st->merged_cpu_pct)
		st->merged_cpu_pct = f.cpu;
	if (f.sched == 0)
		return;
	/* Each file's times since its start, on the wall clock. */
	if (!st->have_first || epoch + f.t[0] < st->first)
		st->first = epoch + f.t[0];
	if (!st->have_first || epoch + f.t[1] > st->sched_last)
		st->sched_last = epoch + f.t[1];
	if (epoch + f.t[2] > st->actual_last)
		st->actual_last = epoch + f.t[2];
	st->have_first = 1;
}

/* --merge: the document's times are since the merge's start. */
static void
sched_col_merge_end(void *state, uint64_t start_ns, uint64_t end_ns)
{
	struct sched_stat *st = state;

	st->start = start_ns;
}

const struct collector sched_stat_collector = {
	.name = "sched",
	.init = sched_col_init,
	.start = sched_col_start,
	.extra = sched_col_extra,
	.json = sched_col_json,
	.merge = sched_col_merge,
	.merge_end = sched_col_merge_end,
	.fini = sched_col_fini,
};
