/*
 * HdrHistogram-compatible histogram of non-negative 64-bit values
 * (nanoseconds in this program).
 *
 * The layout is HdrHistogram's: with `digits' significant decimal digits
 * the values are counted in 2^k sub-buckets per power of two (2048 for 3
 * digits), so any value v is counted in a bucket of values equivalent to
 * it that is at most v / 10^digits wide (below 2^k * lowest every value
 * in units of the lowest discernible value has its own bucket).  The
 * bucket and sub-bucket index math is the same as HdrHistogram's, so the
 * counts array is identical to the one HdrHistogram (Java, C, JS, Go,
 * Python) builds from the same values with the same settings, and
 * hdr_encode() writes HdrHistogram's compressed V2 encoding as base64
 * ("HISTF..."), which their decoders read and hdr_decode() reads back.
 *
 * Memory is allocated once at creation; recording never allocates.
 * Counts are 64 bits; a histogram holds at most INT64_MAX values (the
 * encoding's limit), which no run can come near.
 */
#ifndef HTTPERF_LIB_HDR_H
#define HTTPERF_LIB_HDR_H

#include <stddef.h>
#include <stdint.h>

/*
 * The program's settings: values in nanoseconds, lowest discernible
 * value 1 ns, highest trackable value 1 hour, 3 significant digits.
 * Every value from 1 us to 1 h is read back within 0.1% (values below
 * 2048 ns exactly); a histogram takes 33,792 counts (264 KiB).  The
 * lowest discernible value must be 1 ns, not 1 us: HdrHistogram rounds
 * it down to a power of two (512 ns) and counts everything below
 * 2048 * 512 ns (1 ms) in 512 ns steps, which would not hold 0.1% there.
 */
#define HDR_NS_LOWEST	INT64_C(1)
#define HDR_NS_HIGHEST	(INT64_C(3600) * 1000000000)
#define HDR_NS_DIGITS	3

/* Decoding refuses a histogram with more counts than this (16 MiB). */
#define HDR_DECODE_MAX_COUNTS	((size_t)1 << 21)

/* hdr_decode() errors (negative; hdr_strerror() says them in words). */
#define HDR_EBASE64	(-1)	/* not base64 */
#define HDR_ECOOKIE	(-2)	/* not an HdrHistogram V2 encoding */
#define HDR_ETRUNC	(-3)	/* shorter than its lengths say */
#define HDR_EZLIB	(-4)	/* the deflated payload does not inflate */
#define HDR_ESETTINGS	(-5)	/* lowest, highest or digits invalid */
#define HDR_ETOOBIG	(-6)	/* more than HDR_DECODE_MAX_COUNTS counts */
#define HDR_ECOUNTS	(-7)	/* counts run past the array, or overflow */
#define HDR_ENOMEM	(-8)	/* out of memory */
#define HDR_ESIZE	(-9)	/* decompressed size differs from its header */
#define HDR_ENOTNS	(-10)	/* hdr_decode_ns(): other settings */

struct hdr;

/*
 * Creates an empty histogram of values from 0 to `highest', telling
 * values `lowest' apart (1 <= lowest, 2 * lowest <= highest), with
 * `digits' (1..5) significant digits.  Returns NULL when the settings are
 * invalid or there is no memory.
 */
struct hdr	*hdr_new(int64_t lowest, int64_t highest, int digits);

/* The program's histogram (HDR_NS_*).  Never NULL (exits on no memory). */
struct hdr	*hdr_new_ns(void);

/* Frees it.  NULL is ok. */
void		 hdr_free(struct hdr *h);

/*
 * Records a value, or n times a value.  A value above the highest
 * trackable value is recorded as the highest trackable value (its bucket)
 * and also counted by hdr_clamped(), so a report can say how many values
 * were out of range; the encoding does not carry that count.
 */
void		 hdr_record(struct hdr *h, uint64_t v);
void		 hdr_record_n(struct hdr *h, uint64_t v, uint64_t n);

/*
 * Counts n more values as clamped without recording anything: for a
 * histogram decoded from an encoding, which does not carry that count
 * (--merge reads it next to the encoding).
 */
void		 hdr_add_clamped(struct hdr *h, uint64_t n);

/* Forgets every value; the settings stay. */
void		 hdr_reset(struct hdr *h);

/*
 * Adds the counts of `src' to `dst'.  Returns 0, or -1 (dst unchanged)
 * when their settings differ or the total would pass INT64_MAX.
 */
int		 hdr_add(struct hdr *dst, const struct hdr *src);

/* 1 when both have the same lowest, highest and digits. */
int		 hdr_same_settings(const struct hdr *a, const struct hdr *b);

int64_t		 hdr_lowest(const struct hdr *h);
int64_t		 hdr_highest(const struct hdr *h);
int		 hdr_digits(const struct hdr *h);
/* The number of counts (the memory is 8 bytes each). */
size_t		 hdr_counts_len(const struct hdr *h);

/* The number of values recorded, and how many of them were clamped. */
uint64_t	 hdr_count(const struct hdr *h);
uint64_t	 hdr_clamped(const struct hdr *h);

/*
 * HdrHistogram's min and max: the lowest value equivalent to the smallest
 * value recorded, and the highest value equivalent to the largest (so
 * within the precision of the exact ones, and the same after an encode
 * and decode or a merge).  0 when empty.
 */
uint64_t	 hdr_min(const struct hdr *h);
uint64_t	 hdr_max(const struct hdr *h);

/*
 * HdrHistogram's mean and standard deviation: of the median equivalent
 * value of each bucket, weighted by its count.  0 when empty.
 */
double		 hdr_mean(const struct hdr *h);
double		 hdr_stddev(const struct hdr *h);

/*
 * The value at percentile p (0..100; clamped), as HdrHistogram (Java and
 * JS) computes it: the rank r = ceil(p / 100 * count) (at least 1, with
 * the same guard against a floating-point product one ulp too high), the
 * first bucket at which the cumulative count reaches r, and that bucket's
 * highest equivalent value (its lowest for p = 0).  So at least p% of
 * the values are at or below the answer, which is within the precision
 * of the r-th smallest value recorded.  0 when empty.
 */
uint64_t	 hdr_value_at_percentile(const struct hdr *h, double p);

/* Lowest and highest values equivalent to v (its bucket's bounds). */
uint64_t	 hdr_lowest_equivalent(const struct hdr *h, uint64_t v);
uint64_t	 hdr_highest_equivalent(const struct hdr *h, uint64_t v);

/*
 * Iterates over the buckets that hold values, in increasing order:
 *	struct hdr_iter it;
 *	hdr_iter_init(&it, h);
 *	while (hdr_iter_next(&it)) ... it.lo, it.hi, it.count, it.cum
 */
struct hdr_iter {
	const struct hdr *h;
	size_t		 idx;	/* next index to look at */
	uint64_t	 lo;	/* lowest equivalent value of the bucket */
	uint64_t	 hi;	/* highest equivalent value of the bucket */
	uint64_t	 count;	/* values in it */
	uint64_t	 cum;	/* values in it and every bucket below */
};

void		 hdr_iter_init(struct hdr_iter *it, const struct hdr *h);
int		 hdr_iter_next(struct hdr_iter *it);

/*
 * Encodes h in HdrHistogram's compressed V2 format, base64: a new
 * NUL-terminated string (freed by the caller) in *out, its length in
 * *outlen.  Returns 0, or HDR_ENOMEM / HDR_EZLIB.
 */
int		 hdr_encode(const struct hdr *h, char **out, size_t *outlen);

/* The same without the base64: the compressed V2 bytes (malloc'ed). */
int		 hdr_encode_bin(const struct hdr *h, uint8_t **out,
		    size_t *outlen);

/*
 * Decodes `len' bytes of base64 (hdr_decode) or of binary (hdr_decode_bin:
 * the compressed V2 format, or the uncompressed V2 encoding inside it)
 * into a new histogram in *out.  Meant for files from anywhere: every
 * length is checked, the memory is bounded by HDR_DECODE_MAX_COUNTS and
 * the input's size, and every fault is an error return.  Returns 0 or
 * one of the HDR_E* codes (*out untouched then).  The normalizing index
 * offset and the conversion ratio of the header are read and ignored, as
 * hdr-histogram-js does (it writes 1 and an integer 1 in them, where Java
 * and C write 0 and 1.0); the counts are taken in plain index order.
 */
int		 hdr_decode(const char *s, size_t len, struct hdr **out);
int		 hdr_decode_bin(const uint8_t *buf, size_t len,
		    struct hdr **out);

/*
 * hdr_decode() of the program's histograms only (HDR_NS_*, which is all
 * a --json file holds): other settings are refused with HDR_ENOTNS from
 * the header, before anything is allocated, so no input makes it work
 * for more than the 33,792 counts of one of them (--merge).
 */
int		 hdr_decode_ns(const char *s, size_t len, struct hdr **out);

const char	*hdr_strerror(int e);

#endif
