/*
 * Inside the histogram: its layout (see hdr.c), shared by the histogram
 * (hdr.c) and its encoding (hdr_codec.c) and by nothing else.
 */
#ifndef HTTPERF_LIB_HDR_INT_H
#define HTTPERF_LIB_HDR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/hdr.h"

struct hdr {
	/* Settings. */
	int64_t		 lowest;
	int64_t		 highest;
	int		 digits;
	unsigned	 unit_mag;	/* u: log2 of the unit */
	unsigned	 half_mag;	/* m: log2 of half the sub-buckets */
	uint64_t	 sub_count;	/* 2^(m+1) */
	uint64_t	 half_count;	/* 2^m */
	uint64_t	 sub_mask;	/* (2^(m+1) - 1) << u */
	unsigned	 bucket_count;
	size_t		 counts_len;
	/* State. */
	uint64_t	 total;
	uint64_t	 clamped;
	uint64_t	 min;		/* smallest value recorded, raw */
	uint64_t	 max;		/* largest value recorded, raw */
	uint64_t	 counts[];
};

/* The settings of a histogram, computed before it is allocated. */
struct hdr_cfg {
	int64_t		 lowest;
	int64_t		 highest;
	int		 digits;
	unsigned	 unit_mag;
	unsigned	 half_mag;
	unsigned	 bucket_count;
	size_t		 counts_len;
};

/* Fills c from the settings; -1 when they are invalid. */
int		 hdr_config(struct hdr_cfg *c, int64_t lowest, int64_t highest,
		    int digits);

/*
 * Allocates an empty histogram of settings c; NULL on no memory, unless
 * `must' (then it exits, as every allocation of the program does).
 */
struct hdr	*hdr_alloc(const struct hdr_cfg *c, int must);

/* Bucket b of v: where its highest set bit is, above the sub-buckets. */
static inline unsigned
hdr_bucket(const struct hdr *h, uint64_t v)
{
	unsigned pow2ceil = 64 - (unsigned)__builtin_clzll(v | h->sub_mask);

	return pow2ceil - h->unit_mag - (h->half_mag + 1);
}

/* The index of v's count (v at most the highest trackable value). */
static inline size_t
hdr_index(const struct hdr *h, uint64_t v)
{
	unsigned b = hdr_bucket(h, v);
	uint64_t sub = v >> (b + h->unit_mag);

	return ((size_t)(b + 1) << h->half_mag) + (size_t)(sub - h->half_count);
}

/* The lowest value counted at index i. */
static inline uint64_t
hdr_value_at_index(const struct hdr *h, size_t i)
{
	size_t b = i >> h->half_mag;
	uint64_t sub = (i & (h->half_count - 1)) + h->half_count;

	if (b == 0) {
		sub -= h->half_count;
		b = 1;
	}
	return sub << (b - 1 + h->unit_mag);
}

#endif /* HTTPERF_LIB_HDR_INT_H */
