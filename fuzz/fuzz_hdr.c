/*
 * libFuzzer target for the HdrHistogram decoder (src/lib/hdr.c), through
 * its public API (lib/hdr.h) only.
 *
 * The input goes to hdr_decode_bin() in a heap buffer of exactly its
 * length, so that AddressSanitizer sees any read past it; when it starts
 * with "HISTF" it goes to hdr_decode() (base64) instead.  Its first byte
 * odd, the input is also taken as an uncompressed V2 encoding and
 * compressed first, so that the counts parser is reached behind a valid
 * zlib stream.  A decoded histogram must be consistent (its counts add up
 * to its total, every percentile within min..max) and must encode and
 * decode to the same counts.  Contract violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/hdr.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fz_check(struct hdr *h)
{
	static const double ps[] = { 0, 50, 99, 99.99, 100 };
	struct hdr_iter it, it2;
	struct hdr *d = NULL;
	uint64_t sum = 0, v;
	char *s;
	size_t n, i;

	hdr_iter_init(&it, h);
	while (hdr_iter_next(&it)) {
		sum += it.count;
		if (it.cum != sum || it.lo > it.hi || it.count == 0)
			abort();
	}
	if (sum != hdr_count(h))
		abort();
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		v = hdr_value_at_percentile(h, ps[i]);
		if (hdr_count(h) != 0 && (v < hdr_min(h) || v > hdr_max(h)))
			abort();
	}
	(void)hdr_mean(h);
	(void)hdr_stddev(h);
	if (hdr_encode(h, &s, &n) != 0)
		abort();
	if (hdr_decode(s, n, &d) != 0 || !hdr_same_settings(h, d) ||
	    hdr_count(d) != hdr_count(h))
		abort();
	hdr_iter_init(&it, h);
	hdr_iter_init(&it2, d);
	while (hdr_iter_next(&it))
		if (!hdr_iter_next(&it2) || it.lo != it2.lo ||
		    it.count != it2.count)
			abort();
	if (hdr_iter_next(&it2))
		abort();
	hdr_free(d);
	free(s);
}

static void
fz_decode(const uint8_t *data, size_t size, int b64)
{
	struct hdr *h = NULL;
	uint8_t *copy;
	int rv;

	/* Exactly the input's bytes, so over-reads are caught. */
	if ((copy = malloc(size != 0 ? size : 1)) == NULL)
		abort();
	memcpy(copy, data, size);
	if (b64)
		rv = hdr_decode((const char *)copy, size, &h);
	else
		rv = hdr_decode_bin(copy, size, &h);
	free(copy);
	if (rv == 0) {
		if (h == NULL)
			abort();
		fz_check(h);
		hdr_free(h);
	} else if (h != NULL || hdr_strerror(rv) == NULL) {
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *z;
	uLongf zlen;

	if (size >= 5 && memcmp(data, "HISTF", 5) == 0) {
		fz_decode(data, size, 1);
		return 0;
	}
	fz_decode(data, size, 0);
	if (size > 1 && (data[0] & 1)) {
		zlen = compressBound((uLong)(size - 1));
		if ((z = malloc(8 + zlen)) == NULL)
			abort();
		if (compress(z + 8, &zlen, data + 1, (uLong)(size - 1)) != Z_OK)
			abort();
		z[0] = 0x1c;
		z[1] = 0x84;
		z[2] = 0x93;
		z[3] = 0x14;
		z[4] = (uint8_t)(zlen >> 24);
		z[5] = (uint8_t)(zlen >> 16);
		z[6] = (uint8_t)(zlen >> 8);
		z[7] = (uint8_t)zlen;
		fz_decode(z, 8 + zlen, 0);
		free(z);
	}
	return 0;
}
