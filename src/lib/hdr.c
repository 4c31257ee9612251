/*
 * HdrHistogram-compatible histogram and its compressed V2 encoding.
 *
 * Layout (HdrHistogram's): with unit = 2^u the largest power of two not
 * above the lowest discernible value, and 2^(m+1) sub-buckets, the
 * smallest power of two at or above 2 * 10^digits, bucket 0 counts
 * 0 .. 2^(m+1) units one unit apart and every bucket b >= 1 counts
 * 2^(m+b) .. 2^(m+b+1) units in 2^m sub-buckets 2^b units wide.  The
 * lower half of every bucket b >= 1 is bucket b-1's range, so only the
 * upper halves are stored: counts_len = (buckets + 1) * 2^m.
 *
 * Encoding (V2): a 40-byte big-endian header (cookie 0x1c849303 | 0x10,
 * payload length, normalizing index offset, digits, lowest, highest,
 * conversion ratio as a double) and the counts up to the one of the
 * largest value, each a ZigZag LEB128 number of up to 9 bytes (the 9th
 * holds 8 bits), a run of n > 1 zero counts written as -n.  Compressed
 * V2: cookie 0x1c849304 | 0x10, the length of the zlib stream, the zlib
 * stream of the V2 encoding.  0x10 is the "word size" nibble that V2
 * writers set; readers compare the cookie without it.  Base64 of the
 * compressed form starts "HISTF".
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/hdr.h"
#include "lib/util.h"

#define HDR_V2_COOKIE		UINT32_C(0x1c849303)
#define HDR_V2Z_COOKIE		UINT32_C(0x1c849304)
#define HDR_COOKIE_WORD		UINT32_C(0x10)
#define HDR_COOKIE_MASK		(~UINT32_C(0xf0))
#define HDR_V2_HEADER		40	/* bytes of the V2 header */
#define HDR_V2Z_HEADER		8	/* cookie and length */
#define HDR_LEB_MAX		9	/* bytes of the longest LEB128 */

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
static int
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
static struct hdr *
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
static uint64_t
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

/* Encoding. */

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void
put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static uint64_t
get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/*
 * Writes s as ZigZag LEB128: 7 bits a byte, low first, the high bit set
 * when more follow; the 9th byte, if any, holds the last 8 bits.
 */
static size_t
put_zigzag(uint8_t *p, int64_t s)
{
	uint64_t u;
	size_t n;

	u = s < 0 ? (~(uint64_t)s << 1) | 1 : (uint64_t)s << 1;
	for (n = 0; n < HDR_LEB_MAX - 1; n++) {
		if (u < 0x80) {
			p[n] = (uint8_t)u;
			return n + 1;
		}
		p[n] = (uint8_t)((u & 0x7f) | 0x80);
		u >>= 7;
	}
	p[n] = (uint8_t)u;
	return HDR_LEB_MAX;
}

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Base64 of n bytes into out (4 * ceil(n / 3) + 1 bytes), NUL ended. */
static size_t
b64_encode(char *out, const uint8_t *in, size_t n)
{
	size_t i, o = 0;
	uint32_t w;

	for (i = 0; i + 3 <= n; i += 3) {
		w = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		out[o++] = b64_alphabet[w >> 18];
		out[o++] = b64_alphabet[(w >> 12) & 63];
		out[o++] = b64_alphabet[(w >> 6) & 63];
		out[o++] = b64_alphabet[w & 63];
	}
	if (n - i == 1) {
		w = (uint32_t)in[i] << 16;
		out[o++] = b64_alphabet[w >> 18];
		out[o++] = b64_alphabet[(w >> 12) & 63];
		out[o++] = '=';
		out[o++] = '=';
	} else if (n - i == 2) {
		w = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
		out[o++] = b64_alphabet[w >> 18];
		out[o++] = b64_alphabet[(w >> 12) & 63];
		out[o++] = b64_alphabet[(w >> 6) & 63];
		out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}

int
hdr_encode_bin(const struct hdr *h, uint8_t **out, size_t *outlen)
{
	uint8_t *raw = NULL, *bin = NULL;
	size_t limit, i, pos, zeros;
	uLongf zlen;
	double one = 1.0;
	uint64_t ratio;
	int rv = HDR_ENOMEM;

	/* Up to the count of the largest value (index 0 when empty). */
	limit = hdr_index(h, h->max) + 1;
	if ((raw = malloc(HDR_V2_HEADER + HDR_LEB_MAX * limit)) == NULL)
		goto out;
	pos = HDR_V2_HEADER;
	for (i = 0; i < limit; ) {
		if (h->counts[i] != 0) {
			pos += put_zigzag(raw + pos, (int64_t)h->counts[i++]);
			continue;
		}
		for (zeros = 0; i < limit && h->counts[i] == 0; i++)
			zeros++;
		/* A lone zero is a count of 0, as Java and JS write it. */
		pos += put_zigzag(raw + pos, zeros > 1 ? -(int64_t)zeros : 0);
	}
	memcpy(&ratio, &one, sizeof(ratio));
	put_be32(raw, HDR_V2_COOKIE | HDR_COOKIE_WORD);
	put_be32(raw + 4, (uint32_t)(pos - HDR_V2_HEADER));
	put_be32(raw + 8, 0);		/* normalizing index offset */
	put_be32(raw + 12, (uint32_t)h->digits);
	put_be64(raw + 16, (uint64_t)h->lowest);
	put_be64(raw + 24, (uint64_t)h->highest);
	put_be64(raw + 32, ratio);	/* integer to double ratio 1.0 */

	zlen = compressBound((uLong)pos);
	if ((bin = malloc(HDR_V2Z_HEADER + zlen)) == NULL)
		goto out;
	if (compress(bin + HDR_V2Z_HEADER, &zlen, raw, (uLong)pos) != Z_OK) {
		rv = HDR_EZLIB;
		goto out;
	}
	put_be32(bin, HDR_V2Z_COOKIE | HDR_COOKIE_WORD);
	put_be32(bin + 4, (uint32_t)zlen);
	*out = bin;
	*outlen = HDR_V2Z_HEADER + zlen;
	bin = NULL;
	rv = 0;
out:
	free(raw);
	free(bin);
	return rv;
}

int
hdr_encode(const struct hdr *h, char **out, size_t *outlen)
{
	uint8_t *bin;
	size_t n;
	char *s;
	int rv;

	if ((rv = hdr_encode_bin(h, &bin, &n)) != 0)
		return rv;
	if ((s = malloc((n + 2) / 3 * 4 + 1)) == NULL) {
		free(bin);
		return HDR_ENOMEM;
	}
	*outlen = b64_encode(s, bin, n);
	*out = s;
	free(bin);
	return 0;
}

/* Decoding. */

/* The value of a base64 character, or -1. */
static int
b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Decodes padded standard base64 (len a multiple of 4, '=' only at the
 * end) into out (len / 4 * 3 bytes); the bytes in *n.  -1 when invalid.
 */
static int
b64_decode(uint8_t *out, size_t *n, const char *in, size_t len)
{
	size_t i, o = 0, pad = 0;
	uint32_t w;
	int v;

	if (len % 4 != 0)
		return -1;
	if (len > 0 && in[len - 1] == '=')
		pad = in[len - 2] == '=' ? 2 : 1;
	for (i = 0; i < len; i += 4) {
		w = 0;
		for (size_t k = 0; k < 4; k++) {
			if (i + k >= len - pad) {
				v = 0;		/* padding */
			} else if ((v = b64_value((unsigned char)in[i + k])) ==
			    -1) {
				return -1;
			}
			w = w << 6 | (uint32_t)v;
		}
		out[o++] = (uint8_t)(w >> 16);
		out[o++] = (uint8_t)(w >> 8);
		out[o++] = (uint8_t)w;
	}
	*n = o - pad;
	return 0;
}

/* The V2 header, checked. */
struct hdr_v2 {
	struct hdr_cfg	 cfg;
	size_t		 payload_len;
};

static int
parse_v2_header(struct hdr_v2 *v, const uint8_t *p, int ns_only)
{
	int32_t payload_len, digits;
	int64_t lowest, highest;

	if ((get_be32(p) & HDR_COOKIE_MASK) != HDR_V2_COOKIE)
		return HDR_ECOOKIE;
	payload_len = (int32_t)get_be32(p + 4);
	digits = (int32_t)get_be32(p + 12);
	lowest = (int64_t)get_be64(p + 16);
	highest = (int64_t)get_be64(p + 24);
	if (hdr_config(&v->cfg, lowest, highest, digits) == -1)
		return HDR_ESETTINGS;
	/* Checked before anything is allocated for the counts. */
	if (ns_only && (lowest != HDR_NS_LOWEST || highest != HDR_NS_HIGHEST ||
	    digits != HDR_NS_DIGITS))
		return HDR_ENOTNS;
	if (v->cfg.counts_len > HDR_DECODE_MAX_COUNTS)
		return HDR_ETOOBIG;
	/* No count takes more than 9 bytes. */
	if (payload_len < 0 ||
	    (size_t)payload_len > HDR_LEB_MAX * v->cfg.counts_len)
		return HDR_ESIZE;
	v->payload_len = (size_t)payload_len;
	return 0;
}

/* Reads the counts of a V2 payload into the empty histogram h. */
static int
decode_counts(struct hdr *h, const uint8_t *p, size_t n)
{
	size_t pos = 0, idx = 0, last = 0, first = SIZE_MAX;
	uint64_t u, run;
	unsigned k;
	uint8_t b;

	while (pos < n) {
		u = 0;
		for (k = 0; k < HDR_LEB_MAX; k++) {
			if (pos >= n)
				return HDR_ETRUNC;
			b = p[pos++];
			if (k == HDR_LEB_MAX - 1) {
				u |= (uint64_t)b << 56;
				break;
			}
			u |= (uint64_t)(b & 0x7f) << (7 * k);
			if ((b & 0x80) == 0)
				break;
		}
		if (u & 1) {
			/* -run: that many zero counts (run >= 1). */
			run = (u >> 1) + 1;
			if (run > h->counts_len - idx)
				return HDR_ECOUNTS;
			idx += (size_t)run;
			continue;
		}
		u >>= 1;
		if (idx >= h->counts_len || u > (uint64_t)INT64_MAX - h->total)
			return HDR_ECOUNTS;
		if (u != 0) {
			if (first == SIZE_MAX)
				first = idx;
			last = idx;
		}
		h->counts[idx++] = u;
		h->total += u;
	}
	if (h->total != 0) {
		h->min = hdr_value_at_index(h, first);
		h->max = hdr_value_at_index(h, last);
	}
	return 0;
}

/* Decodes the V2 header and payload p (its whole length n). */
static int
decode_v2(const struct hdr_v2 *v, const uint8_t *payload, struct hdr **out)
{
	struct hdr *h;
	int rv;

	if ((h = hdr_alloc(&v->cfg, 0)) == NULL)
		return HDR_ENOMEM;
	if ((rv = decode_counts(h, payload, v->payload_len)) != 0) {
		hdr_free(h);
		return rv;
	}
	*out = h;
	return 0;
}

/* Inflates the compressed form (len >= 8, its cookie checked). */
static int
decode_compressed(const uint8_t *buf, size_t len, struct hdr **out,
    int ns_only)
{
	z_stream z;
	uint8_t head[HDR_V2_HEADER], *payload = NULL;
	struct hdr_v2 v;
	uint32_t zlen;
	int zr, rv;

	zlen = get_be32(buf + 4);
	if (zlen > INT32_MAX || zlen > len - HDR_V2Z_HEADER)
		return HDR_ETRUNC;
	memset(&z, 0, sizeof(z));
	if ((zr = inflateInit(&z)) != Z_OK)
		return zr == Z_MEM_ERROR ? HDR_ENOMEM : HDR_EZLIB;
	z.next_in = (Bytef *)(uintptr_t)(buf + HDR_V2Z_HEADER);
	z.avail_in = (uInt)zlen;
	z.next_out = head;
	z.avail_out = sizeof(head);
	/* The header first: its lengths bound what follows. */
	zr = inflate(&z, Z_SYNC_FLUSH);
	if (z.avail_out != 0) {
		rv = zr == Z_OK || zr == Z_STREAM_END || zr == Z_BUF_ERROR ?
		    HDR_ETRUNC : zr == Z_MEM_ERROR ? HDR_ENOMEM : HDR_EZLIB;
		goto out;
	}
	if ((rv = parse_v2_header(&v, head, ns_only)) != 0)
		goto out;
	/* One byte more than needed shows a longer stream. */
	if ((payload = malloc(v.payload_len + 1)) == NULL) {
		rv = HDR_ENOMEM;
		goto out;
	}
	z.next_out = payload;
	z.avail_out = (uInt)(v.payload_len + 1);
	zr = zr == Z_STREAM_END ? Z_STREAM_END : inflate(&z, Z_FINISH);
	if (zr != Z_STREAM_END) {
		rv = zr == Z_MEM_ERROR ? HDR_ENOMEM : z.avail_out == 0 ?
		    HDR_ESIZE : zr == Z_BUF_ERROR ? HDR_ETRUNC : HDR_EZLIB;
		goto out;
	}
	if (z.avail_out != 1) {
		rv = HDR_ESIZE;
		goto out;
	}
	rv = decode_v2(&v, payload, out);
out:
	free(payload);
	(void)inflateEnd(&z);
	return rv;
}

static int
decode_bin(const uint8_t *buf, size_t len, struct hdr **out, int ns_only)
{
	struct hdr_v2 v;
	uint32_t cookie;
	int rv;

	if (len < 4)
		return HDR_ETRUNC;
	cookie = get_be32(buf) & HDR_COOKIE_MASK;
	if (cookie == HDR_V2Z_COOKIE) {
		if (len < HDR_V2Z_HEADER)
			return HDR_ETRUNC;
		return decode_compressed(buf, len, out, ns_only);
	}
	if (cookie != HDR_V2_COOKIE)
		return HDR_ECOOKIE;
	if (len < HDR_V2_HEADER)
		return HDR_ETRUNC;
	if ((rv = parse_v2_header(&v, buf, ns_only)) != 0)
		return rv;
	if (v.payload_len > len - HDR_V2_HEADER)
		return HDR_ETRUNC;
	return decode_v2(&v, buf + HDR_V2_HEADER, out);
}

int
hdr_decode_bin(const uint8_t *buf, size_t len, struct hdr **out)
{
	return decode_bin(buf, len, out, 0);
}

static int
decode_b64(const char *s, size_t len, struct hdr **out, int ns_only)
{
	uint8_t *bin;
	size_t n;
	int rv;

	if (len % 4 != 0)
		return HDR_EBASE64;
	if ((bin = malloc(len / 4 * 3 + 1)) == NULL)
		return HDR_ENOMEM;
	if (b64_decode(bin, &n, s, len) == -1)
		rv = HDR_EBASE64;
	else
		rv = decode_bin(bin, n, out, ns_only);
	free(bin);
	return rv;
}

int
hdr_decode(const char *s, size_t len, struct hdr **out)
{
	return decode_b64(s, len, out, 0);
}

int
hdr_decode_ns(const char *s, size_t len, struct hdr **out)
{
	return decode_b64(s, len, out, 1);
}

const char *
hdr_strerror(int e)
{
	switch (e) {
	case 0:
		return "no error";
	case HDR_EBASE64:
		return "not base64";
	case HDR_ECOOKIE:
		return "not an HdrHistogram V2 encoding";
	case HDR_ETRUNC:
		return "truncated";
	case HDR_EZLIB:
		return "corrupt compressed data";
	case HDR_ESETTINGS:
		return "invalid histogram settings";
	case HDR_ETOOBIG:
		return "histogram too large";
	case HDR_ECOUNTS:
		return "invalid counts";
	case HDR_ENOMEM:
		return "out of memory";
	case HDR_ESIZE:
		return "length does not match the header";
	case HDR_ENOTNS:
		return "not this httperf's histogram settings (lowest 1 ns, "
		    "highest 1 h, 3 digits)";
	}
	return "unknown error";
}
