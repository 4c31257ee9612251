/*
 * The HdrHistogram compressed V2 encoding of a histogram (hdr.c).
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

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/hdr.h"
#include "lib/hdr_int.h"

#define HDR_V2_COOKIE		UINT32_C(0x1c849303)
#define HDR_V2Z_COOKIE		UINT32_C(0x1c849304)
#define HDR_COOKIE_WORD		UINT32_C(0x10)
#define HDR_COOKIE_MASK		(~UINT32_C(0xf0))
#define HDR_V2_HEADER		40	/* bytes of the V2 header */
#define HDR_V2Z_HEADER		8	/* cookie and length */
#define HDR_LEB_MAX		9	/* bytes of the longest LEB128 */

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
