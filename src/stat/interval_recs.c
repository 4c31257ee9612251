/*
 * The intervals an interval collector keeps (see interval.h): their list,
 * bounded by joining neighbours, and stats.interval of the --json
 * document, written (interval_json_recs()) and read back for --merge
 * (interval_merge()): the member names are spelled once, here.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "stat/basic_report.h"
#include "stat/collector.h"
#include "stat/interval.h"
#include "stat/stat_merge.h"

void
interval_sum_of(struct interval_sum *s, const struct hdr *h)
{
	size_t len;

	memset(s, 0, sizeof(*s));
	s->count = hdr_count(h);
	if (s->count > 0) {
		s->p50 = hdr_value_at_percentile(h, 50.0);
		s->p90 = hdr_value_at_percentile(h, 90.0);
		s->p99 = hdr_value_at_percentile(h, 99.0);
		s->max = hdr_max(h);
	}
	if (hdr_encode(h, &s->hdr, &len) != 0)
		s->hdr = NULL;
}

void
interval_rec_free(struct interval_rec *r)
{
	size_t i;

	for (i = 0; i < INTERVAL_NREC; i++) {
		free(r->h[i].hdr);
		r->h[i].hdr = NULL;
	}
}

/* a += b, stopping at the largest value. */
static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void
interval_counts_add(struct interval_counts *a,
    const struct interval_counts *b)
{
	size_t i;

	a->arrivals = sat_add(a->arrivals, b->arrivals);
	a->missed = sat_add(a->missed, b->missed);
	a->conns = sat_add(a->conns, b->conns);
	for (i = 0; i < nitems(a->replies); i++)
		a->replies[i] = sat_add(a->replies[i], b->replies[i]);
	for (i = 0; i < nitems(a->errors); i++)
		a->errors[i] = sat_add(a->errors[i], b->errors[i]);
	a->s200 = sat_add(a->s200, b->s200);
	a->s302 = sat_add(a->s302, b->s302);
}

/*
 * b's summary added into a's: from their encodings added up when both
 * decode, else (an encoding could not be made) the count and the max
 * only, with no encoding.
 */
static void
sum_join(struct interval_sum *a, struct interval_sum *b)
{
	struct hdr *ha = NULL, *hb = NULL;

	if (b->count == 0 && b->hdr != NULL)
		;
	else if (a->count == 0 && a->hdr != NULL) {
		free(a->hdr);
		*a = *b;
		b->hdr = NULL;
	} else if (a->hdr != NULL && b->hdr != NULL &&
	    hdr_decode(a->hdr, strlen(a->hdr), &ha) == 0 &&
	    hdr_decode(b->hdr, strlen(b->hdr), &hb) == 0 &&
	    hdr_add(ha, hb) == 0) {
		free(a->hdr);
		interval_sum_of(a, ha);
	} else {
		free(a->hdr);
		a->hdr = NULL;
		a->count = sat_add(a->count, b->count);
		if (b->max > a->max)
			a->max = b->max;
		a->p50 = a->p90 = a->p99 = 0;
	}
	hdr_free(ha);
	hdr_free(hb);
	free(b->hdr);
	b->hdr = NULL;
}

void
interval_rec_join(struct interval_rec *a, struct interval_rec *b)
{
	uint64_t end = sat_add(a->start, a->length),
	    bend = sat_add(b->start, b->length);
	size_t k;

	if (bend > end)
		end = bend;
	a->length = end - a->start;
	interval_counts_add(&a->c, &b->c);
	for (k = 0; k < INTERVAL_NREC; k++)
		sum_join(&a->h[k], &b->h[k]);
}

void
interval_recs_init(struct interval_recs *l, uint64_t period, uint64_t join,
    size_t max)
{
	memset(l, 0, sizeof(*l));
	l->period = period > 0 ? period : 1;
	l->join = join > 0 ? join : 1;
	l->max = max >= 2 ? max : 2;
}

uint64_t
interval_recs_slot(const struct interval_recs *l, uint64_t start)
{
	if (l->join > UINT64_MAX / l->period)
		return 0;
	return start / (l->period * l->join);
}

/* Doubles the slots' length, joining the intervals now in one slot. */
static void
recs_halve(struct interval_recs *l)
{
	size_t i, o = 0;

	if (l->join <= UINT64_MAX / 2)
		l->join *= 2;
	for (i = 0; i < l->n; i++) {
		if (o > 0 && interval_recs_slot(l, l->v[o - 1].start) ==
		    interval_recs_slot(l, l->v[i].start))
			interval_rec_join(&l->v[o - 1], &l->v[i]);
		else
			l->v[o++] = l->v[i];
	}
	l->n = o;
}

void
interval_recs_add(struct interval_recs *l, struct interval_rec *r)
{
	for (;;) {
		if (l->n > 0 && interval_recs_slot(l, l->v[l->n - 1].start) ==
		    interval_recs_slot(l, r->start)) {
			interval_rec_join(&l->v[l->n - 1], r);
			return;
		}
		if (l->n < l->max)
			break;
		recs_halve(l);
	}
	if (l->n == l->cap) {
		l->cap = l->cap > 0 ? 2 * l->cap : 64;
		if (l->cap > l->max)
			l->cap = l->max;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = *r;
	memset(r, 0, sizeof(*r));
}

void
interval_recs_free(struct interval_recs *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		interval_rec_free(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* The members of stats.interval, written and read back (--merge). */
#define IV_K_PERIOD		"period_ns"
#define IV_K_TARGET		"target_rate_per_s"
#define IV_K_JOINED		"joined"
#define IV_K_INTERVALS		"intervals"
#define IV_K_REPLIES		"replies"
#define IV_K_ERRORS		"errors"
#define IV_K_HDR		"hdr"
#define IV_K_COUNT		"count"

/* The histograms' member names, by enum interval_rec_hist. */
static const char *const iv_rec_key[INTERVAL_NREC] = {
	[INTERVAL_R_REPLY] = "reply",
	[INTERVAL_R_CORRECTED] = "reply_corrected",
	[INTERVAL_R_LATENESS] = "lateness",
};

/* The counts of an interval's object, in the order they are written. */
static const struct {
	const char	*key;
	size_t		 off;		/* in struct interval_rec */
} iv_count[] = {
	{ "start_ns", offsetof(struct interval_rec, start) },
	{ "length_ns", offsetof(struct interval_rec, length) },
	{ "arrivals", offsetof(struct interval_rec, c.arrivals) },
	{ "missed", offsetof(struct interval_rec, c.missed) },
	{ "conns", offsetof(struct interval_rec, c.conns) },
};

static uint64_t *
iv_count_of(struct interval_rec *r, size_t i)
{
	return (uint64_t *)(void *)((char *)r + iv_count[i].off);
}

static void
interval_json_sum(struct jsonw *w, const char *key,
    const struct interval_sum *s)
{
	jsonw_key(w, key);
	jsonw_obj_begin(w);
	jsonw_ku64(w, IV_K_COUNT, s->count);
	jsonw_ku64(w, "p50_ns", s->p50);
	jsonw_ku64(w, "p90_ns", s->p90);
	jsonw_ku64(w, "p99_ns", s->p99);
	jsonw_ku64(w, "max_ns", s->max);
	jsonw_kstr(w, IV_K_HDR, s->hdr);
	jsonw_obj_end(w);
}

/* One interval's object. */
static void
interval_json_rec(struct jsonw *w, double target,
    const struct interval_rec *r)
{
	size_t k;

	jsonw_obj_begin(w);
	for (k = 0; k < nitems(iv_count); k++)
		jsonw_ku64(w, iv_count[k].key, *(const uint64_t *)(const void *)
		    ((const char *)r + iv_count[k].off));
	jsonw_key(w, IV_K_REPLIES);
	jsonw_obj_begin(w);
	for (k = 0; k < BASIC_NSTATUS; k++)
		jsonw_ku64(w, basic_status_name[k], r->c.replies[k + 1]);
	jsonw_obj_end(w);
	jsonw_key(w, IV_K_ERRORS);
	jsonw_obj_begin(w);
	for (k = 0; k < BASIC_ERR_COUNT; k++)
		jsonw_ku64(w, basic_err_name[k], r->c.errors[k]);
	jsonw_obj_end(w);
	for (k = 0; k < INTERVAL_NREC; k++)
		if (k == INTERVAL_R_REPLY || target > 0)
			interval_json_sum(w, iv_rec_key[k], &r->h[k]);
	jsonw_obj_end(w);
}

void
interval_json_recs(struct jsonw *w, double target,
    const struct interval_recs *l)
{
	size_t i;

	jsonw_obj_begin(w);
	jsonw_ku64(w, IV_K_PERIOD, l->period);
	jsonw_kdouble(w, IV_K_TARGET, target);
	jsonw_ku64(w, "max_intervals", l->max);
	jsonw_ku64(w, IV_K_JOINED, l->join);
	jsonw_key(w, IV_K_INTERVALS);
	jsonw_arr_begin(w);
	for (i = 0; i < l->n; i++)
		interval_json_rec(w, target, &l->v[i]);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

/* --merge: what the files' stats.interval add up to (interval_merge()). */
struct interval_merge {
	uint64_t	 join;		/* the largest of the files' joined */
	int		 sched;		/* the files had a schedule */
	struct interval_mfile {
		const struct jv	*arr;	/* its intervals */
		uint64_t	 start_ns;	/* its start.epoch_ns */
	}		*f;
	size_t		 nf;
};

/*
 * Checks histogram k of interval `iv' (number i): an encoding that
 * decodes, to the settings of the others (iv->acc[k], made from the
 * first), with the count it claims.
 */
static void
merge_check_hist(struct interval *st, struct collector_merge *mg,
    const struct jv *iv, size_t i, size_t k)
{
	const struct jv *o = jv_get(iv, iv_rec_key[k]);
	char field[160];
	const char *enc;
	struct hdr *h;
	uint64_t count;
	size_t len;
	int e;

	snprintf(field, sizeof(field), IV_K_INTERVALS "[%zu].%s", i,
	    iv_rec_key[k]);
	if ((enc = jv_str(jv_get(o, IV_K_HDR), &len)) == NULL ||
	    jv_u64(jv_get(o, IV_K_COUNT), &count) == -1) {
		stat_merge_fail(mg, field, "missing, or no count and hdr");
		return;
	}
	if ((e = hdr_decode_ns(enc, len, &h)) != 0) {
		stat_merge_fail(mg, field, "%s", hdr_strerror(e));
		return;
	}
	if (hdr_count(h) != count)
		stat_merge_fail(mg, field, "count does not match the encoding");
	else if (st->acc[k] == NULL && (st->acc[k] = hdr_new(hdr_lowest(h),
	    hdr_highest(h), hdr_digits(h))) == NULL)
		stat_merge_fail(mg, field, "out of memory");
	else if (!hdr_same_settings(st->acc[k], h))
		stat_merge_fail(mg, field, "histogram settings differ from "
		    "the other intervals'");
	hdr_free(h);
}

/* Checks the unsigned integers of `names' in member `key' of iv. */
static void
merge_check_names(struct collector_merge *mg, const struct jv *iv, size_t i,
    const char *key, const char *const *names, size_t n)
{
	char field[160];
	uint64_t v;
	size_t k;

	for (k = 0; k < n && !mg->failed; k++)
		if (jv_u64(jv_get(jv_get(iv, key), names[k]), &v) == -1) {
			snprintf(field, sizeof(field),
			    IV_K_INTERVALS "[%zu].%s.%s", i, key, names[k]);
			stat_merge_fail(mg, field, "missing or not an unsigned "
			    "integer");
		}
}

/*
 * Checks interval i of a file: complete, starting after the one before
 * (*prev) and before the run's end.
 */
static void
merge_check_iv(struct interval *st, struct collector_merge *mg,
    const struct jv *iv, size_t i, uint64_t *prev)
{
	char field[160];
	uint64_t v;
	size_t k;

	for (k = 0; k < nitems(iv_count) && !mg->failed; k++) {
		snprintf(field, sizeof(field), IV_K_INTERVALS "[%zu].%s", i,
		    iv_count[k].key);
		if (jv_u64(jv_get(iv, iv_count[k].key), &v) == -1)
			stat_merge_fail(mg, field, "missing or not an "
			    "unsigned integer");
		else if (k == 0 && (v < *prev || v > INT64_MAX))
			stat_merge_fail(mg, field, "out of order or too large");
		/* The last interval starts before the end. */
		else if (k == 0 && v > mg->duration_ns)
			stat_merge_fail(mg, field, "past the run's end "
			    "(duration_ns)");
		else if (k == 0)
			*prev = v;
	}
	merge_check_names(mg, iv, i, IV_K_REPLIES, basic_status_name,
	    BASIC_NSTATUS);
	merge_check_names(mg, iv, i, IV_K_ERRORS, basic_err_name,
	    BASIC_ERR_COUNT);
	for (k = 0; k < INTERVAL_NREC && !mg->failed; k++)
		if (k == INTERVAL_R_REPLY || st->merge->sched)
			merge_check_hist(st, mg, iv, i, k);
}

/*
 * The head of a file's stats.interval: the period and the schedule as
 * the first file's.  Returns its intervals, or NULL after a message.
 */
static const struct jv *
merge_head(struct interval *st, struct collector_merge *mg, uint64_t *join)
{
	struct interval_merge *m = st->merge;
	uint64_t period = stat_merge_u64(mg, IV_K_PERIOD);
	double target = stat_merge_num(mg, IV_K_TARGET);
	const struct jv *arr = stat_merge_get(mg, IV_K_INTERVALS);
	int sched = target > 0;

	*join = 1;
	if (mg->failed)
		return NULL;
	if (period == 0)
		stat_merge_fail(mg, IV_K_PERIOD, "is 0");
	/* Written since the intervals kept are bounded; 1 before. */
	else if (stat_merge_get(mg, IV_K_JOINED) != NULL &&
	    ((*join = stat_merge_u64(mg, IV_K_JOINED)) == 0 ||
	    *join > INT64_MAX / period))
		stat_merge_fail(mg, IV_K_JOINED, "out of range");
	else if (jv_type(arr) != JV_ARR)
		stat_merge_fail(mg, IV_K_INTERVALS, "missing or not an array");
	else if (mg->first) {
		st->period = period;
		m->sched = sched;
	} else if (period != st->period)
		stat_merge_fail(mg, IV_K_PERIOD, "%llu differs from %s's %llu "
		    "(--interval)", (unsigned long long)period,
		    mg->first_path, (unsigned long long)st->period);
	else if (sched != m->sched)
		stat_merge_fail(mg, IV_K_TARGET, "a schedule in one of "
		    "this file and %s only", mg->first_path);
	if (!mg->failed)
		st->target_rate += target;
	return mg->failed ? NULL : arr;
}

void
interval_merge(struct interval *st, struct collector_merge *mg)
{
	struct interval_merge *m;
	const struct jv *arr;
	uint64_t prev = 0, join;
	size_t i;

	if (st->merge == NULL)
		st->merge = xcalloc(1, sizeof(*st->merge));
	m = st->merge;
	if ((arr = merge_head(st, mg, &join)) == NULL)
		return;
	for (i = 0; i < jv_len(arr) && !mg->failed; i++)
		merge_check_iv(st, mg, jv_at(arr, i), i, &prev);
	if (mg->failed)
		return;
	if (join > m->join)
		m->join = join;
	m->f = xreallocarray(m->f, m->nf + 1, sizeof(*m->f));
	m->f[m->nf].arr = arr;
	m->f[m->nf].start_ns = mg->start_ns;
	m->nf++;
}

/*
 * The slot of the merge (join periods from its start, on the wall clock)
 * interval iv of file f starts in.
 */
static uint64_t
merge_slot(const struct interval *st, uint64_t start_ns,
    const struct interval_mfile *f, const struct jv *iv)
{
	uint64_t start = 0;

	(void)jv_u64(jv_get(iv, iv_count[0].key), &start);
	return (f->start_ns - start_ns + start) / (st->period *
	    st->merge->join);
}

/* Adds interval iv of a file into rec (its histograms into st->acc). */
static void
merge_add_iv(struct interval *st, struct interval_rec *rec,
    const struct jv *iv)
{
	struct interval_rec r;
	const char *enc;
	struct hdr *h;
	size_t k, len;

	memset(&r, 0, sizeof(r));
	/* The counts after start_ns and length_ns. */
	for (k = 2; k < nitems(iv_count); k++)
		(void)jv_u64(jv_get(iv, iv_count[k].key), iv_count_of(&r, k));
	for (k = 0; k < BASIC_NSTATUS; k++)
		(void)jv_u64(jv_get(jv_get(iv, IV_K_REPLIES),
		    basic_status_name[k]), &r.c.replies[k + 1]);
	for (k = 0; k < BASIC_ERR_COUNT; k++)
		(void)jv_u64(jv_get(jv_get(iv, IV_K_ERRORS), basic_err_name[k]),
		    &r.c.errors[k]);
	interval_counts_add(&rec->c, &r.c);
	for (k = 0; k < INTERVAL_NREC; k++) {
		if (st->acc[k] == NULL || (enc = jv_str(jv_get(jv_get(iv,
		    iv_rec_key[k]), IV_K_HDR), &len)) == NULL ||
		    hdr_decode_ns(enc, len, &h) != 0)
			continue;
		/* Checked by merge_check_hist(); an overflow past
		   INT64_MAX values leaves the sum as it was. */
		(void)hdr_add(st->acc[k], h);
		hdr_free(h);
	}
}

/*
 * The earliest slot any file's next interval (cur[f]) is in, into *j.
 * Returns 0 when every file's are all taken.
 */
static int
merge_next_slot(const struct interval *st, uint64_t start_ns,
    const size_t *cur, uint64_t *j)
{
	const struct interval_merge *m = st->merge;
	const struct jv *arr;
	uint64_t s;
	size_t f;
	int any = 0;

	for (f = 0; f < m->nf; f++) {
		arr = m->f[f].arr;
		if (cur[f] < jv_len(arr) && ((s = merge_slot(st, start_ns,
		    &m->f[f], jv_at(arr, cur[f]))) < *j || !any)) {
			*j = s;
			any = 1;
		}
	}
	return any;
}

/* Makes slot j's record of every file's intervals in it; keeps it. */
static void
merge_slot_rec(struct interval *st, uint64_t start_ns, uint64_t d,
    size_t *cur, uint64_t j)
{
	const struct interval_merge *m = st->merge;
	struct interval_recs *l = &st->recs;
	uint64_t slot = st->period * m->join, end;
	struct interval_rec rec;
	const struct jv *arr;
	size_t f, k;

	memset(&rec, 0, sizeof(rec));
	for (k = 0; k < INTERVAL_NREC; k++)
		if (st->acc[k] != NULL)
			hdr_reset(st->acc[k]);
	for (f = 0; f < m->nf; f++) {
		arr = m->f[f].arr;
		while (cur[f] < jv_len(arr) && merge_slot(st, start_ns,
		    &m->f[f], jv_at(arr, cur[f])) <= j)
			merge_add_iv(st, &rec, jv_at(arr, cur[f]++));
	}
	rec.start = j * slot;
	end = rec.start + slot;
	rec.length = (end < d ? end : d) - (rec.start < d ? rec.start : d);
	for (k = 0; k < INTERVAL_NREC; k++)
		if (st->acc[k] != NULL)
			interval_sum_of(&rec.h[k], st->acc[k]);
	/* A last slot cut short by the end to a sliver: joined to the
	   interval before, as a run does. */
	if (l->n > 0 && rec.length < st->period / 4 && end >= d &&
	    l->v[l->n - 1].start + l->v[l->n - 1].length == rec.start)
		interval_rec_join(&l->v[l->n - 1], &rec);
	else
		interval_recs_add(l, &rec);
	interval_rec_free(&rec);
}

void
interval_merge_end(struct interval *st, uint64_t start_ns, uint64_t end_ns)
{
	struct interval_merge *m = st->merge;
	uint64_t j = 0;
	size_t *cur;

	if (m == NULL)
		return;
	if (m->join == 0)
		m->join = 1;
	interval_recs_init(&st->recs, st->period, m->join, INTERVAL_MAX_RECS);
	cur = xcalloc(m->nf > 0 ? m->nf : 1, sizeof(*cur));
	while (merge_next_slot(st, start_ns, cur, &j))
		merge_slot_rec(st, start_ns, end_ns - start_ns, cur, j);
	free(cur);
}

void
interval_merge_free(struct interval *st)
{
	if (st->merge != NULL)
		free(st->merge->f);
	free(st->merge);
	st->merge = NULL;
}
