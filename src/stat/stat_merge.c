/*
 * The readers of the collectors' --json parts, for --merge (see
 * stat_merge.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/util.h"
#include "stat/stat_merge.h"

void
stat_merge_fail(struct collector_merge *mg, const char *member,
    const char *fmt, ...)
{
	va_list ap;

	if (mg->failed)
		return;
	mg->failed = 1;
	fprintf(mg->err, "%s: --merge: ", mg->prog);
	util_put_escaped(mg->err, mg->path, strlen(mg->path));
	fprintf(mg->err, ": stats.%s", mg->name);
	if (member != NULL)
		fprintf(mg->err, ".%s", member);
	fputs(": ", mg->err);
	va_start(ap, fmt);
	vfprintf(mg->err, fmt, ap);
	va_end(ap);
	putc('\n', mg->err);
}

const struct jv *
stat_merge_get(const struct collector_merge *mg, const char *member)
{
	return jv_path(mg->obj, member);
}

uint64_t
stat_merge_u64(struct collector_merge *mg, const char *member)
{
	uint64_t v = 0;

	if (jv_u64(stat_merge_get(mg, member), &v) == -1)
		stat_merge_fail(mg, member,
		    "missing or not an unsigned integer");
	return v;
}

double
stat_merge_num(struct collector_merge *mg, const char *member)
{
	double v = 0;

	if (jv_num(stat_merge_get(mg, member), &v) == -1 || v < 0)
		stat_merge_fail(mg, member,
		    "missing or not a number at least 0");
	return v;
}

int
stat_merge_bool(struct collector_merge *mg, const char *member)
{
	int v = 0;

	if (jv_bool(stat_merge_get(mg, member), &v) == -1)
		stat_merge_fail(mg, member, "missing or not a boolean");
	return v;
}

void
stat_merge_add(struct collector_merge *mg, const char *member,
    uint64_t *acc)
{
	uint64_t v = stat_merge_u64(mg, member);

	if (v > UINT64_MAX - *acc)
		stat_merge_fail(mg, member, "the sum overflows");
	else
		*acc += v;
}

void
stat_merge_max(struct collector_merge *mg, const char *member,
    uint64_t *acc)
{
	uint64_t v = stat_merge_u64(mg, member);

	if (v > *acc)
		*acc = v;
}

void
stat_merge_min_max(struct collector_merge *mg, uint64_t n, uint64_t had,
    const char *pmin, uint64_t *min, const char *pmax, uint64_t *max)
{
	uint64_t lo = stat_merge_u64(mg, pmin), hi = stat_merge_u64(mg, pmax);

	if (n == 0)
		return;
	if (had == 0 || lo < *min)
		*min = lo;
	if (hi > *max)
		*max = hi;
}

/* Member `key' of the histogram at `member' must be `want'. */
static void
hist_check(struct collector_merge *mg, const char *member, const char *key,
    uint64_t want)
{
	char field[160];

	snprintf(field, sizeof(field), "%s.%s", member, key);
	if (stat_merge_u64(mg, field) != want)
		stat_merge_fail(mg, field, "does not match the encoding");
}

/* Decodes the histogram object o at `member'; NULL after a message. */
static struct hdr *
hist_decode(struct collector_merge *mg, const char *member,
    const struct jv *o)
{
	const char *enc;
	char field[160];
	struct hdr *h;
	size_t len;
	int e;

	snprintf(field, sizeof(field), "%s.hdr", member);
	if ((enc = jv_str(jv_get(o, "hdr"), &len)) == NULL) {
		stat_merge_fail(mg, field, "missing or not a string");
		return NULL;
	}
	if ((e = hdr_decode_ns(enc, len, &h)) != 0) {
		stat_merge_fail(mg, field, "%s", hdr_strerror(e));
		return NULL;
	}
	hist_check(mg, member, "lowest_ns", (uint64_t)hdr_lowest(h));
	hist_check(mg, member, "highest_ns", (uint64_t)hdr_highest(h));
	hist_check(mg, member, "digits", (uint64_t)hdr_digits(h));
	hist_check(mg, member, "count", hdr_count(h));
	return h;
}

void
stat_merge_hist(struct collector_merge *mg, const char *member,
    struct hdr **acc)
{
	const struct jv *o = stat_merge_get(mg, member);
	char field[160];
	struct hdr *h;
	uint64_t v;

	if (mg->failed)
		return;
	if (o == NULL && (mg->first || *acc == NULL))
		return;
	if (o == NULL || (!mg->first && *acc == NULL)) {
		stat_merge_fail(mg, member, "%s file has this histogram and "
		    "%s not", o == NULL ? "the first" : "this",
		    o == NULL ? "this" : "the first");
		return;
	}
	if ((h = hist_decode(mg, member, o)) == NULL)
		return;
	snprintf(field, sizeof(field), "%s.clamped", member);
	v = stat_merge_u64(mg, field);
	if (!mg->failed && !mg->first && !hdr_same_settings(*acc, h))
		stat_merge_fail(mg, member, "histogram settings (lowest_ns, "
		    "highest_ns, digits) differ from %s's", mg->first_path);
	if (!mg->failed && !mg->first && hdr_add(*acc, h) == -1)
		stat_merge_fail(mg, member, "the counts overflow");
	if (mg->failed || !mg->first)
		hdr_free(h);
	else
		*acc = h;
	if (!mg->failed)
		hdr_add_clamped(*acc, v);
}

void
stat_merge_samples(struct collector_merge *mg, const char *member,
    struct stat_samples *sum)
{
	const struct jv *vals;
	char field[160];
	size_t i, n;
	double d;

	snprintf(field, sizeof(field), "%s.values", member);
	vals = stat_merge_get(mg, field);
	if (jv_type(vals) != JV_ARR) {
		stat_merge_fail(mg, field, "missing or not a list");
		return;
	}
	snprintf(field, sizeof(field), "%s.samples", member);
	if ((n = jv_len(vals)) != stat_merge_u64(mg, field)) {
		stat_merge_fail(mg, field, "is not the number of values");
		return;
	}
	if (n > sum->cap) {
		sum->v = xreallocarray(sum->v, n, sizeof(*sum->v));
		sum->cap = n;
	}
	for (; sum->n < n; sum->n++)
		sum->v[sum->n] = 0;
	for (i = 0; i < n; i++) {
		if (jv_num(jv_at(vals, i), &d) == -1 || d < 0) {
			stat_merge_fail(mg, field,
			    "a value is not a number at least 0");
			return;
		}
		sum->v[i] += d;
	}
}

void
stat_merge_samples_end(struct stat_samples *sum, struct basic_series *s,
    struct stat_samples *l)
{
	size_t i;

	for (i = 0; i < sum->n; i++)
		stat_samples_add(s, l, sum->v[i]);
	stat_samples_free(sum);
}
