/*
 * httperf --merge: the head of each file (format, window, clients, host)
 * and its options, checked against the first file's (see merge.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/util.h"
#include "opt/options.h"
#include "report/merge.h"
#include "report/merge_int.h"
#include "report/result.h"

void
merge_fail(struct mrd *r, const char *field, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	fprintf(r->err, "%s: --merge: ", r->prog);
	util_put_escaped(r->err, r->path, strlen(r->path));
	if (field != NULL)
		fprintf(r->err, ": %s", field);
	fputs(": ", r->err);
	va_start(ap, fmt);
	vfprintf(r->err, fmt, ap);
	va_end(ap);
	putc('\n', r->err);
}

const struct jv *
merge_get(struct mrd *r, const char *path)
{
	return jv_path(r->root, path);
}

static uint64_t
rd_u64(struct mrd *r, const char *path)
{
	uint64_t v = 0;

	if (jv_u64(merge_get(r, path), &v) == -1)
		merge_fail(r, path, "missing or not an unsigned integer");
	return v;
}

/* Whether two values are the same JSON (numbers by value). */
static int
jv_equal(const struct jv *a, const struct jv *b)
{
	const char *sa, *sb;
	size_t la, lb, i;
	double da, db;
	uint64_t ua, ub;
	int ba, bb;

	if (jv_type(a) != jv_type(b))
		return 0;
	switch (jv_type(a)) {
	case JV_NULL:
		return 1;
	case JV_BOOL:
		jv_bool(a, &ba);
		jv_bool(b, &bb);
		return ba == bb;
	case JV_NUM:
		if (jv_u64(a, &ua) == 0 && jv_u64(b, &ub) == 0)
			return ua == ub;
		jv_num(a, &da);
		jv_num(b, &db);
		return da == db;
	case JV_STR:
		sa = jv_str(a, &la);
		sb = jv_str(b, &lb);
		return la == lb && memcmp(sa, sb, la) == 0;
	case JV_ARR:
		if (jv_len(a) != jv_len(b))
			return 0;
		for (i = 0; i < jv_len(a); i++)
			if (!jv_equal(jv_at(a, i), jv_at(b, i)))
				return 0;
		return 1;
	case JV_OBJ:
		if (jv_len(a) != jv_len(b))
			return 0;
		for (i = 0; i < jv_len(a); i++)
			if (!jv_equal(jv_at(a, i), jv_get(b, jv_key_at(a, i))))
				return 0;
		return 1;
	}
	return 0;
}

static int
may_differ(const char *name)
{
	size_t i;

	for (i = 0; options_merge_may_differ[i] != NULL; i++)
		if (strcmp(options_merge_may_differ[i], name) == 0)
			return 1;
	return 0;
}

const char *const merge_load_options[] = {
	"rate", "call-rate", "num-conns", "num-calls", "runtime", "period",
	"wsess", "wsesslog", "max-connections", "jobs", NULL
};

static int
is_load(const char *name)
{
	size_t i;

	for (i = 0; merge_load_options[i] != NULL; i++)
		if (strcmp(merge_load_options[i], name) == 0)
			return 1;
	return 0;
}

/*
 * Whether load option `k' of two files is the same test at another
 * level: --period's distribution the same (its letter: d, u, e, v;
 * its figures set the rate), --wsess and --wsesslog the same but for
 * their session counts (N1, N), both given or neither; the others are
 * levels only.
 */
static int
load_same_test(const char *k, const struct jv *a, const struct jv *b)
{
	const char *sa, *sb, *f;
	size_t la, lb, i;

	if (strcmp(k, "period") == 0) {
		if (jv_type(a) != JV_STR || jv_type(b) != JV_STR)
			return jv_equal(a, b);
		sa = jv_str(a, &la);
		sb = jv_str(b, &lb);
		return la > 0 && lb > 0 && sa[0] == sb[0];
	}
	if (strcmp(k, "wsess") != 0 && strcmp(k, "wsesslog") != 0)
		return 1;
	if (jv_type(a) != JV_OBJ || jv_type(b) != JV_OBJ)
		return jv_equal(a, b);
	if (jv_len(a) != jv_len(b))
		return 0;
	for (i = 0; i < jv_len(a); i++) {
		f = jv_key_at(a, i);
		if (strcmp(f, "N1") != 0 && strcmp(f, "N") != 0 &&
		    !jv_equal(jv_at(a, i), jv_get(b, f)))
			return 0;
	}
	return 1;
}

/*
 * The options define the test: they must be the first file's, but for
 * its load (merge_load_options, see load_same_test), whose values the
 * files may each have their own of (m->unequal then set).
 */
static void
rd_options(struct mrd *r)
{
	const struct jv *o = merge_get(r, "options"), *o0 = r->m->options;
	const char *k;
	char field[128];
	size_t i;

	if (jv_type(o) != JV_OBJ) {
		merge_fail(r, "options", "missing or not an object");
		return;
	}
	if (r->first) {
		r->m->options = o;
		return;
	}
	for (i = 0; i < jv_len(o) && !r->failed; i++) {
		k = jv_key_at(o, i);
		snprintf(field, sizeof(field), "options.%s", k);
		if (may_differ(k) && !is_load(k))
			continue;
		if (jv_get(o0, k) == NULL)
			merge_fail(r, field, "not in %s (a different version?)",
			    r->m->first);
		else if (jv_equal(jv_at(o, i), jv_get(o0, k)))
			continue;
		else if (!is_load(k))
			merge_fail(r, field, "differs from %s: the files must "
			    "be runs of the same test", r->m->first);
		else if (load_same_test(k, jv_at(o, i), jv_get(o0, k)))
			r->m->unequal = 1;
		else
			merge_fail(r, field, "differs from %s otherwise than "
			    "in its load: the files must be runs of the same "
			    "test", r->m->first);
	}
	for (i = 0; i < jv_len(o0) && !r->failed; i++) {
		k = jv_key_at(o0, i);
		snprintf(field, sizeof(field), "options.%s", k);
		if (!may_differ(k) && jv_get(o, k) == NULL)
			merge_fail(r, field, "missing (it is in %s)",
			    r->m->first);
	}
}

static int
id_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/*
 * Adds the file's client ids (below n) to the merge's, refusing one that
 * is already there: the file's sorted, then merged with the merge's
 * sorted ones, so O(k log k + n) for k ids in the file.
 */
static int
rd_ids(struct mrd *r, const struct jv *ids, uint64_t n)
{
	struct merge *m = r->m;
	unsigned *v, *out, dup;
	size_t k = jv_len(ids), i, a, b, o;
	uint64_t id;
	int found = 0;

	v = xreallocarray(NULL, k, sizeof(*v));
	for (i = 0; i < k; i++) {
		if (jv_u64(jv_at(ids, i), &id) == -1 || id >= n) {
			merge_fail(r, "client.ids",
			    "an id is not below client.count");
			free(v);
			return -1;
		}
		v[i] = (unsigned)id;
	}
	qsort(v, k, sizeof(*v), id_cmp);
	out = xreallocarray(NULL, m->nids + k, sizeof(*out));
	for (a = b = o = 0; a < m->nids || b < k; ) {
		if (b == k || (a < m->nids && m->ids[a] < v[b]))
			out[o++] = m->ids[a++];
		else if ((a < m->nids && m->ids[a] == v[b]) ||
		    (o > 0 && out[o - 1] == v[b])) {
			found = 1;
			dup = v[b];
			break;
		} else
			out[o++] = v[b++];
	}
	free(v);
	if (found) {
		free(out);
		merge_fail(r, "client.ids", "client %u/%u is also in an "
		    "earlier file or twice in this one (each process needs its "
		    "own --client I/N)", dup, m->num_clients);
		return -1;
	}
	free(m->ids);
	m->ids = out;
	m->nids = o;
	return 0;
}

/* The head: format, window, clients, host. */
static void
rd_head_only(struct mrd *r)
{
	struct merge *m = r->m;
	const struct jv *ids;
	const char *s, *host;
	uint64_t start, dur, n, lo, hi;
	size_t i;

	s = jv_str(merge_get(r, "format"), NULL);
	if (s == NULL || strcmp(s, RESULT_FORMAT) != 0) {
		merge_fail(r, "format",
		    "not an httperf result (expected \"%s\")", RESULT_FORMAT);
		return;
	}
	if (rd_u64(r, "schema_version") != RESULT_SCHEMA_VERSION) {
		merge_fail(r, "schema_version",
		    "not %d, which this version reads", RESULT_SCHEMA_VERSION);
		return;
	}
	start = rd_u64(r, "start.epoch_ns");
	dur = rd_u64(r, "duration_ns");
	n = rd_u64(r, "client.count");
	if ((host = jv_str(merge_get(r, "host"), NULL)) == NULL)
		merge_fail(r, "host", "missing or not a string");
	if (r->first && (m->echo = jv_str(merge_get(r, "command_line"),
	    NULL)) == NULL)
		merge_fail(r, "command_line", "missing or not a string");
	if (r->failed)
		return;
	if (dur > UINT64_MAX - start) {
		merge_fail(r, "duration_ns", "too large");
		return;
	}
	if (n == 0 || n > UINT32_MAX) {
		merge_fail(r, "client.count", "out of range");
		return;
	}
	if (r->first) {
		m->start_ns = start;
		m->end_ns = start + dur;
		m->num_clients = (unsigned)n;
	} else if (n != m->num_clients) {
		merge_fail(r, "client.count", "%llu differs from %s's %u",
		    (unsigned long long)n, m->first, m->num_clients);
		return;
	}
	lo = start < m->start_ns ? start : m->start_ns;
	hi = start + dur > m->end_ns ? start + dur : m->end_ns;
	if (!r->first && hi - lo > MERGE_MAX_SPAN_NS) {
		merge_fail(r, "start.epoch_ns", "with %s's, the runs span %.1f "
		    "days on the wall clock; --merge spans at most %llu days "
		    "(a clock set wrong?)", m->first, (double)(hi - lo) /
		    86400e9, (unsigned long long)(MERGE_MAX_SPAN_NS /
		    (UINT64_C(86400) * 1000000000)));
		return;
	}
	m->start_ns = lo;
	m->end_ns = hi;
	r->start_ns = start;
	r->duration_ns = dur;
	ids = merge_get(r, "client.ids");
	if (jv_type(ids) != JV_ARR || jv_len(ids) == 0) {
		merge_fail(r, "client.ids", "missing or not a list of ids");
		return;
	}
	if (rd_ids(r, ids, n) == -1)
		return;
	for (i = 0; i < m->nhosts; i++)
		if (strcmp(m->hostv[i], host) == 0)
			break;
	if (i == m->nhosts) {
		m->hostv = xreallocarray(m->hostv, m->nhosts + 1,
		    sizeof(*m->hostv));
		m->hostv[m->nhosts++] = host;
	}
}

void
merge_head(struct mrd *r)
{
	rd_head_only(r);
	/* The sweep before the options: a sweep's result with one that is
	   no sweep is refused as such, not for its --sweep option. */
	if (!r->failed)
		merge_sweep_head(r);
	if (!r->failed)
		rd_options(r);
}
