/*
 * Log-linear histogram.  Values below 2^7 have a bucket each; every power
 * of two 2^k above that (k = 7..63) is split into 64 equal sub-buckets, so
 * a bucket is at most 1/64 of its smallest value wide and its midpoint is
 * within 1/128 (0.8%) of anything in it.  The whole uint64_t range fits in
 * a fixed array of 128 + 57 * 64 counts.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stat/hist.h"
#include "util.h"

#define HIST_LINEAR_BITS	7	/* values < 2^7 are exact */
#define HIST_SUB_BITS		6	/* 64 sub-buckets per power of two */
#define HIST_LINEAR		(1U << HIST_LINEAR_BITS)
#define HIST_SUB		(1U << HIST_SUB_BITS)
#define HIST_NBUCKETS	\
	(HIST_LINEAR + (64 - HIST_LINEAR_BITS) * HIST_SUB)

struct hist {
	uint64_t	n;
	uint64_t	min;
	uint64_t	max;
	uint64_t	counts[HIST_NBUCKETS];
};

/* Returns the bucket index of v. */
static unsigned
hist_index(uint64_t v)
{
	unsigned k, sub;

	if (v < HIST_LINEAR)
		return (unsigned)v;
	k = 63 - (unsigned)__builtin_clzll(v);
	sub = (unsigned)(v >> (k - HIST_SUB_BITS)) & (HIST_SUB - 1);
	return HIST_LINEAR + (k - HIST_LINEAR_BITS) * HIST_SUB + sub;
}

/* Returns the midpoint of bucket i (rounded down). */
static uint64_t
hist_midpoint(unsigned i)
{
	unsigned k, sub, shift;
	uint64_t lo;

	if (i < HIST_LINEAR)
		return i;
	k = (i - HIST_LINEAR) / HIST_SUB + HIST_LINEAR_BITS;
	sub = (i - HIST_LINEAR) % HIST_SUB;
	shift = k - HIST_SUB_BITS;
	lo = (uint64_t)(HIST_SUB + sub) << shift;
	/* The width is 2^shift, so lo + width / 2 cannot overflow. */
	return lo + ((UINT64_C(1) << shift) >> 1);
}

struct hist *
hist_new(void)
{
	return xcalloc(1, sizeof(struct hist));
}

void
hist_free(struct hist *h)
{
	free(h);
}

void
hist_add(struct hist *h, uint64_t v)
{
	if (h->n == 0 || v < h->min)
		h->min = v;
	if (h->n == 0 || v > h->max)
		h->max = v;
	h->n++;
	h->counts[hist_index(v)]++;
}

uint64_t
hist_count(const struct hist *h)
{
	return h->n;
}

/*
 * Finds the bucket holding the ceil(q*n)-th smallest value; its midpoint,
 * clamped to the exact extremes, is the answer.
 */
uint64_t
hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, cum, mid;
	double r;
	unsigned i;

	if (h->n == 0)
		return 0;
	if (!(q > 0))
		return h->min;
	if (q >= 1)
		return h->max;
	r = ceil(q * (double)h->n);
	if (r < 1)
		rank = 1;
	else if (r >= (double)h->n)
		rank = h->n;
	else
		rank = (uint64_t)r;

	cum = 0;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		cum += h->counts[i];
		if (cum >= rank)
			break;
	}
	if (i == HIST_NBUCKETS)
		return h->max;
	mid = hist_midpoint(i);
	if (mid < h->min)
		return h->min;
	if (mid > h->max)
		return h->max;
	return mid;
}
