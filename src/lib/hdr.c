/*
 * HdrHistogram-compatible histogram (its encoding: hdr_codec.c).
 *
 * Layout (HdrHistogram's): with unit = 2^u the largest power of two not
 * above the lowest discernible value, and 2^(m+1) sub-buckets, the
 * smallest power of two at or above 2 * 10^digits, bucket 0 counts
 * 0 .. 2^(m+1) units one unit apart and every bucket b >= 1 counts
 * 2^(m+b) .. 2^(m+b+1) units in 2^m sub-buckets 2^b units wide.  The
 * lower half of every bucket b >= 1 is bucket b-1's range, so only the
 * upper halves are stored: counts_len = (buckets + 1) * 2^m.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/hdr_int.h"
#include "lib/util.h"

/* Fills c from the settings; -1 when they are invalid. */
int
hdr_config(struct hdr_cfg *c, int64_t lowest, int64_t highest, int digits)
{
	uint64_t single, smallest_untrackable, sub_count;
	unsigned count_mag, buckets;

	if (lowest < 1 || digits < 1 || digits > 5 || highest < 2 ||
	    lowest > highest / 2)
		return -1;
	/* The largest value with unit resolution is 2 * 10^digits. */
	single = 2;
	for (int i = 0; i < digits; i++)
		single *= 10;
	count_mag = 64 - (unsigned)__builtin_clzll(single - 1);
	c->half_mag = (count_mag > 1 ? count_mag : 1) - 1;
	c->unit_mag = 63 - (unsigned)__builtin_clzll((uint64_t)lowest);
	/* The largest index must keep its shifts inside 64 bits. */
	if (c->unit_mag + c->half_mag > 61)
		return -1;
	sub_count = UINT64_C(1) << (c->half_mag + 1);
	smallest_untrackable = sub_count << c->unit_mag;
	buckets = 1;
	while (smallest_untrackable <= (uint64_t)highest) {
		if (smallest_untrackable > (uint64_t)INT64_MAX / 2) {
			buckets++;
			break;
		}
		smallest_untrackable <<= 1;
		buckets++;
	}
	c->bucket_count = buckets;
	c->counts_len = (size_t)(buckets + 1) << c->half_mag;
	c->lowest = lowest;
	c->highest = highest;
	c->digits = digits;
	return 0;
}

/*
 * Allocates an empty histogram of settings c; NULL on no memory, unless
 * `must' (then it exits, as every allocation of the program does).
 */
struct hdr *
hdr_alloc(const struct hdr_cfg *c, int must)
{
	struct hdr *h;
	size_t size = sizeof(*h) + c->counts_len * sizeof(uint64_t);

	if (must)
		h = xcalloc(1, size);
	else if ((h = calloc(1, size)) == NULL)
		return NULL;
	h->lowest = c->lowest;
	h->highest = c->highest;
	h->digits = c->digits;
	h->unit_mag = c->unit_mag;
	h->half_mag = c->half_mag;
	h->sub_count = UINT64_C(1) << (c->half_mag + 1);
	h->half_count = UINT64_C(1) << c->half_mag;
	h->sub_mask = (h->sub_count - 1) << c->unit_mag;
	h->bucket_count = c->bucket_count;
	h->counts_len = c->counts_len;
	h->min = UINT64_MAX;
	return h;
}

struct hdr *
hdr_new(int64_t lowest, int64_t highest, int digits)
{
	struct hdr_cfg c;

	if (hdr_config(&c, lowest, highest, digits) == -1)
		return NULL;
	return hdr_alloc(&c, 0);
}

struct hdr *
hdr_new_ns(void)
{
	struct hdr_cfg c;

	(void)hdr_config(&c, HDR_NS_LOWEST, HDR_NS_HIGHEST, HDR_NS_DIGITS);
	return hdr_alloc(&c, 1);
}

void
hdr_free(struct hdr *h)
{
	free(h);
}

/* The width of the bucket that counts v. */
static uint64_t
hdr_range_size(const struct hdr *h, uint64_t v)
{
	unsigned b = hdr_bucket(h, v);
	uint64_t sub = v >> (b + h->unit_mag);

	if (sub >= h->sub_count)
		b++;
	return UINT64_C(1) << (h->unit_mag + b);
}

uint64_t
hdr_lowest_equivalent(const struct hdr *h, uint64_t v)
{
	unsigned b = hdr_bucket(h, v);

	return (v >> (b + h->unit_mag)) << (b + h->unit_mag);
}

uint64_t
hdr_highest_equivalent(const struct hdr *h, uint64_t v)
{
	return hdr_lowest_equivalent(h, v) + (hdr_range_size(h, v) - 1);
}

/* The middle of v's bucket (HdrHistogram's median equivalent value). */
static uint64_t
hdr_median_equivalent(const struct hdr *h, uint64_t v)
{
	return hdr_lowest_equivalent(h, v) + (hdr_range_size(h, v) >> 1);
}

void
hdr_record(struct hdr *h, uint64_t v)
{
	if (v > (uint64_t)h->highest) {
		v = (uint64_t)h->highest;
		h->clamped++;
	}
	h->counts[hdr_index(h, v)]++;
	h->total++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void
hdr_record_n(struct hdr *h, uint64_t v, uint64_t n)
{
	if (n == 0)
		return;
	if (v > (uint64_t)h->highest) {
		v = (uint64_t)h->highest;
		h->clamped += n;
	}
	h->counts[hdr_index(h, v)] += n;
	h->total += n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void
hdr_reset(struct hdr *h)
{
	memset(h->counts, 0, h->counts_len * sizeof(h->counts[0]));
	h->total = 0;
	h->clamped = 0;
	h->min = UINT64_MAX;
	h->max = 0;
}

int
hdr_same_settings(const struct hdr *a, const struct hdr *b)
{
	return a->lowest == b->lowest && a->highest == b->highest &&
	    a->digits == b->digits;
}

void
hdr_add_clamped(struct hdr *h, uint64_t n)
{
	h->clamped = n > UINT64_MAX - h->clamped ? UINT64_MAX :
	    h->clamped + n;
}

int
hdr_add(struct hdr *dst, const struct hdr *src)
{
	if (!hdr_same_settings(dst, src) ||
	    src->total > (uint64_t)INT64_MAX - dst->total)
		return -1;
	/* Every count is at most its total, so no sum can overflow.  Only
	   the indexes from src's min to its max can hold counts (an
	   interval's histograms hold a few values, or none). */
	if (src->total > 0)
		for (size_t i = hdr_index(src, src->min),
		    e = hdr_index(src, src->max); i <= e; i++)
			dst->counts[i] += src->counts[i];
	dst->total += src->total;
	dst->clamped += src->clamped;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

int64_t
hdr_lowest(const struct hdr *h)
{
	return h->lowest;
}

int64_t
hdr_highest(const struct hdr *h)
{
	return h->highest;
}

int
hdr_digits(const struct hdr *h)
{
	return h->digits;
}

size_t
hdr_counts_len(const struct hdr *h)
{
	return h->counts_len;
}

uint64_t
hdr_count(const struct hdr *h)
{
	return h->total;
}

uint64_t
hdr_clamped(const struct hdr *h)
{
	return h->clamped;
}

uint64_t
hdr_min(const struct hdr *h)
{
	if (h->total == 0)
		return 0;
	return hdr_lowest_equivalent(h, h->min);
}

uint64_t
hdr_max(const struct hdr *h)
{
	if (h->total == 0)
		return 0;
	return hdr_highest_equivalent(h, h->max);
}

double
hdr_mean(const struct hdr *h)
{
	double sum = 0;

	if (h->total == 0)
		return 0;
	for (size_t i = 0; i < h->counts_len; i++)
		if (h->counts[i] != 0)
			sum += (double)hdr_median_equivalent(h,
			    hdr_value_at_index(h, i)) * (double)h->counts[i];
	return sum / (double)h->total;
}

double
hdr_stddev(const struct hdr *h)
{
	double mean, d, sum = 0;

	if (h->total == 0)
		return 0;
	mean = hdr_mean(h);
	for (size_t i = 0; i < h->counts_len; i++) {
		if (h->counts[i] == 0)
			continue;
		d = (double)hdr_median_equivalent(h,
		    hdr_value_at_index(h, i)) - mean;
		sum += d * d * (double)h->counts[i];
	}
	return sqrt(sum / (double)h->total);
}

uint64_t
hdr_value_at_percentile(const struct hdr *h, double p)
{
	double fp, r;
	uint64_t rank, cum = 0, v;

	if (h->total == 0)
		return 0;
	if (!(p >= 0))
		p = 0;		/* and NaN */
	if (p > 100)
		p = 100;
	fp = p / 100.0 * (double)h->total;
	/*
	 * Round up, but not past an integer the product missed by an ulp
	 * (0.07 * 100 is 7.000000000000001): Java's and JS's guard.
	 */
	r = fp > 0 ? ceil(fp - (nextafter(fp, INFINITY) - fp)) : 0;
	rank = r < 1 ? 1 : (uint64_t)r;
	if (rank > h->total)
		rank = h->total;
	for (size_t i = 0; i < h->counts_len; i++) {
		cum += h->counts[i];
		if (cum >= rank) {
			v = hdr_value_at_index(h, i);
			return p == 0 ? hdr_lowest_equivalent(h, v) :
			    hdr_highest_equivalent(h, v);
		}
	}
	return 0;	/* not reached: the counts add up to the total */
}

void
hdr_iter_init(struct hdr_iter *it, const struct hdr *h)
{
	memset(it, 0, sizeof(*it));
	it->h = h;
}

int
hdr_iter_next(struct hdr_iter *it)
{
	const struct hdr *h = it->h;

	while (it->idx < h->counts_len && h->counts[it->idx] == 0)
		it->idx++;
	if (it->idx >= h->counts_len)
		return 0;
	it->lo = hdr_value_at_index(h, it->idx);
	it->hi = hdr_highest_equivalent(h, it->lo);
	it->count = h->counts[it->idx];
	it->cum += it->count;
	it->idx++;
	return 1;
}
