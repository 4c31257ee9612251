/*
 * lib/hdr.c: the HdrHistogram-compatible histogram.  Its layout and
 * statistics are checked against an oracle (sorted arrays) and against
 * HdrHistogram's own implementations: the strings below were encoded by
 * hdr-histogram-js 3.x (Node.js) and by Java HdrHistogram (a jHiccup log
 * in HdrHistogram_c's test data), and their expected statistics are what
 * hdr-histogram-js reports after decoding them.  The strings that this
 * module encoded for the same values were decoded by hdr-histogram-js with
 * the same statistics; they are kept too, and the module must still write
 * the same V2 bytes (compared after inflating, so that a different zlib
 * build cannot fail the test).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/hdr.h"
#include "unit.h"

#define NS_HOUR		(INT64_C(3600) * 1000000000)

/*
 * Check records every passing assertion with a write(2): in the loops
 * that check millions of values, only a failure goes through Check.
 */
#define REQUIRE(c)	do {						\
	if (!(c))							\
		ck_assert_msg(0, "%s", #c);				\
} while (0)

static const double pcts[10] = {
	0, 1, 25, 50, 75, 90, 99, 99.9, 99.99, 100
};

/* A reference: a HISTF string and what HdrHistogram reads in it. */
struct ref {
	const char	*name;
	const char	*b64;
	int64_t		 lowest;
	int64_t		 highest;
	int		 digits;
	uint64_t	 count;
	double		 mean;
	double		 stddev;
	uint64_t	 pct[10];
};

static const struct ref refs[] = {
	{ "A", /* hdr-histogram-js encoded */
	    "HISTFAAAAEV4nJNpmSzMwMAgz8DAwMjAwMDMAAGMDAzMbgY7FjDA+ExsTCf5"
	    "uZhWCrAI/OZnYun3E1trwLVwPiNLfxzT3Dg2AB5HCxc=",
	    INT64_C(1), INT64_C(3600000000000), 3,
	    46, 236147557958.23914, 888622770807.1499,
	    { UINT64_C(0), UINT64_C(0), UINT64_C(2047),
	    UINT64_C(4099), UINT64_C(123519), UINT64_C(1000341503),
	    UINT64_C(3601330077695), UINT64_C(3601330077695), UINT64_C(3601330077695),
	    UINT64_C(3601330077695) } },
	{ "B", /* hdr-histogram-js encoded */
	    "HISTFAAAA4B4nLWUT4gURxTGq349s8M4DMsybBaJssggiyzLRiSISAhBVERE"
	    "REREFhERCUEkBwmSgwQU2UMI4sFDCOpBFg/iKWwghBBCEJE9iifJKXgS8RBy"
	    "VLqm/1XXq6qe0cw3773ve91d/+ttuXZroNRHK0oprZRK1OinlUoOfPLLXZXr"
	    "Ba5wD35q8WqKm5vY2MSDLo87rHfYmGK9zc9T/NVircV/LZ61uJnwe8KbhPst"
	    "foUn8BJWE9YSXsC/mhvwIzyCP+E5XIc/NE81zzX/aF5r3mpW4TasaW5r7uiU"
	    "PNKsa37TPNZsmJf/1lzlG77lKtc1q5ofNLfyL+5pHmgeGn+aFc5wjgt8yVdc"
	    "4msuc8V8953mhvl/n751iEMc5ihHOcZxjnOSU+bbFc5yjvOcN99f5BL72MMe"
	    "9rKXz/jc4Av2sd/goGnlMEc4YlpK2zrBCU5yjEUWWWKJZYOdBrvYxacGuw3y"
	    "ltO2y9bT9tMe0p63MSyw3WDB2AI7jKVYzLBkbLnS57Lpc9Rv3nPa9wKb+bjA"
	    "VmM55pnP/DzbjKV+aOKwGM/2bDxDM57RiHLsqCAd15ABs8ZyzBV+zsLmwmyk"
	    "o6yOOB9zddxbs3HnY6/PYDT+AdMGM5blvsSg8CPLfYnZwpdzG9RmmM8xn+es"
	    "NdO5ymylOafZPj16Fd/P/IiV0cZ0JdqWe5vN1Jh/daat9ZFWyl2tmWyt6uvW"
	    "p0M3Q8ls9BzWK3jPMtuXMYR+JfYtVl3r2GpLq1717uqXK2/zFD06tDOzvRvr"
	    "XEJX5F3R+03y7r7Fd9Hd0bp3zd3j6u422edyp7u0aZN4vBvrXNJ+dLy6I0bZ"
	    "d0RVPRvyeZn07NSzXeEd6VTZMX7C7LPlqvI8jTIJisSBlAuh3SDbDjA5hryP"
	    "NTNJuTp8mmX2Pid7vNMeP/nxGxC/C1VT5lyoSox7v7aZq8Y3n/KzmJeVP8qs"
	    "fp/c2xW6bx/mLspP4jfUvZvyLQ0p6a7Gb/GHuNMlUxW4xKI1EZOBZOPHkyEZ"
	    "+6mbSxoqmbvMn5FjXI3nw5UnVH3CFWi82tOkKjWpTKHqJFWo5rXLX7nCtaxJ"
	    "VVMwOvLZ3xLe1ET/eC5MG8WImMQFEwKfILjE+yCaa5gXpFj6hFQg3fDx/4tw"
	    "rfU/b1KFwzpehZtX58nrtBzNLws1KWZjwuPlhKjjzqNk4ggx0dAay1imCO8A"
	    "YnmocQ==",
	    INT64_C(1), INT64_C(3600000000000), 3,
	    3000, 47281507063.21933, 53604230878.46934,
	    { UINT64_C(20), UINT64_C(189439), UINT64_C(2954887167),
	    UINT64_C(23639097343), UINT64_C(79792439295), UINT64_C(137841606655),
	    UINT64_C(183475634175), UINT64_C(188441690111), UINT64_C(189112778751),
	    UINT64_C(189112778751) } },
	{ "C", /* hdr-histogram-js encoded */
	    "HISTFAAAACB4nJNpmSzMwMDACMXMDBDAyMDA7GawYwEDnA8ASQ8DHw==",
	    INT64_C(1), INT64_C(3600000000000), 3,
	    0, 0, 0,
	    { UINT64_C(0), UINT64_C(0), UINT64_C(0),
	    UINT64_C(0), UINT64_C(0), UINT64_C(0),
	    UINT64_C(0), UINT64_C(0), UINT64_C(0),
	    UINT64_C(0) } },
	{ "D", /* hdr-histogram-js encoded */
	    "HISTFAAAAYZ4nIWQ223DMAxFmStZlh27QWAYRZAW/cgC/e9/J+sGXSBjdKSO"
	    "UYh6UpYbPi7pxKIO/fL1vRD1H0R0ICIQm/olUp/vP3cKdiCMAECAAkFBoUOH"
	    "Hj0GDDhixowTTliwYMWKC6644hVvuOGGFWesWPDMfuF/3NvuzDl4PLngyBPd"
	    "TD93Tm+6nPlWf++Ant8e0pl8amBCTxkz+5Ayex/2itolrb1vTvVfxn8dr7KL"
	    "s+tb2rfFadKVqGrTqQ1Beb9/7sQTH68klaJ57GrTqUpzusleqqSqi1G3+8wF"
	    "0Q5ovlwaVQ3Vugf9D3xrAf5dh/QiVHaPjbYtNUq5gobW2LoQEUUpsFvsBXl7"
	    "CR6h3f3JkBU5ZZTS9OYG9QKhM9p7lBycXlLZMYha0wfw9hbGWLM1nTRkDJ2L"
	    "wG6xF/ztLdyjtdYaa2MxOQoXEYlb3BV8knKLUrQZg9kgMdi9+MbaqKWZkrxA"
	    "l/wMXq/hV5mmp2kKwjYG4Qiew9k0joKa1Y4JPNJH/hDmD5YjIuw=",
	    INT64_C(1000), INT64_C(3600000000000), 2,
	    3000, 15760189552.298666, 17867411415.29206,
	    { UINT64_C(512), UINT64_C(64511), UINT64_C(985661439),
	    UINT64_C(7885291519), UINT64_C(26709327871), UINT64_C(46170898431),
	    UINT64_C(61203283967), UINT64_C(62813896703), UINT64_C(63082332159),
	    UINT64_C(63082332159) } },
	{ "E", /* hdr-histogram-js encoded */
	    "HISTFAAAANx4nO2OsQqCUBSGz/0th1AahJDoIXqlJuktCgunaIiizZqkp4jo"
	    "CcQhGpujKdpDrZAQvYlExrlcPs69/Ofj74xmBlFrRUSCiOoUHxFxuRg830Eb"
	    "Tg9+xXkwsO/C07GLWNHZ1uGa8FWsI7omggT5/8v/8yY8BVPtnRMNmwRTM5zn"
	    "/L/mTw0EAmP1QV/AyeQrWYzsZz/72c/+SvuPNVgYKuiHkJgs2JnTB6o8aYkq"
	    "7sf9uJ9kv4uCsxwlY4VX2M9+9hdY2QI3gasIGd/UOTdQyuKPhH+wUnX73wFx"
	    "oq+s",
	    INT64_C(1), INT64_C(10000000), 5,
	    2000, 4232963.3135, 2703768.804180949,
	    { UINT64_C(1706), UINT64_C(79190), UINT64_C(1979751),
	    UINT64_C(3959503), UINT64_C(6034303), UINT64_C(8409983),
	    UINT64_C(9835455), UINT64_C(9977983), UINT64_C(9993791),
	    UINT64_C(9993791) } },
	{ "J1", /* Java (jHiccup 2.0.7) encoded */
	    "HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT4GBgdnNYMcCBvsPEBEJISEuATEZ"
	    "MQ4uASkhIR4nrxg9v2lMaxhvMekILGZkKmcCAEf2CsI=",
	    INT64_C(20000), INT64_C(3600000000000), 2,
	    741, 301998.4669365722, 141377.57725388682,
	    { UINT64_C(0), UINT64_C(16383), UINT64_C(278527),
	    UINT64_C(344063), UINT64_C(376831), UINT64_C(376831),
	    UINT64_C(409599), UINT64_C(2768895), UINT64_C(2768895),
	    UINT64_C(2768895) } },
	{ "J50", /* Java (jHiccup 2.0.7) encoded */
	    "HISTFAAAADl42pNpmSzMwMAgxgABTBDKT4GBgdnNYMcCBvsPEBE2BiYWNiYW"
	    "ZiYGJiZmJg4OLiYuFiYWAMWGBSM=",
	    INT64_C(20000), INT64_C(3600000000000), 2,
	    40, 227328, 120602.68409616762,
	    { UINT64_C(0), UINT64_C(16383), UINT64_C(98303),
	    UINT64_C(278527), UINT64_C(327679), UINT64_C(360447),
	    UINT64_C(393215), UINT64_C(393215), UINT64_C(393215),
	    UINT64_C(393215) } },
};

/* What this module encoded for sets A..E, read back by hdr-histogram-js. */
static const struct {
	const char	*name;
	const char	*b64;
} mine[] = {
	{ "A",
	    "HISTFAAAAEF4nJNpmSzMwMAgzwABzFCaEch0M9ixgMH+A0SAiY3pJD8X00oB"
	    "FoHf/Ews/X5iaw24Fs5nZOmPY5obxwYASyQMRA==" },
	{ "B",
	    "HISTFAAAA3J4nLVUTUhUURR+93szDuMwiAwmUiIxyCAiFhERERJRERIRERIh"
	    "EREREdEiIlpEkISLCHHhIqJchLgIV2EQEREhES7DVbSKVlEtomXde9/vfffc"
	    "n5lsvjnf+c55793/e7bdnW8EwZbpIPqFsWdcHt7x4kkw8SNKtHATi8CjEr51"
	    "Ya4b691YrmKtgtUK1ruwWsbzLrwrYamE3yV8LGEuxOsQP0M8LeEl8B74CsyG"
	    "WArxCfjFcA94CKwAb4ENYAZ4w/CBYYPhC8N3hj8Ms8ACsMSwwPCYCbHCsMrw"
	    "imGNYV2+/JnhNm7gFucZ/gXDA4b55ItFhmWGZ5LPYBpncR4XcQmXcRXXcJ1P"
	    "Snx3h49G/u+Lt45yTOI4xwmc5JjCafntNM7xry9wiO+v8BYOYi/HPo79mJA4"
	    "wHOHJI7IViZxjEO0JNo6xTHF1SjHGMe4xE6JXRy7JfZIJC2LtrPWRfuiB9Hz"
	    "djRTDEu0pLUwIk1gNMaYtPFcn+Oyz6jfpGfRdwsD2JpiUFqCIY6Ih3jvwgQ3"
	    "pW+m4xmOx9OU44lGlGAkBzGuJhrok5agP+V+BQOpqRCjzI84GXN+3IPxuJOx"
	    "F2cQjb+BHolexRLO0Eg5soQz9KWcza1RmGEyx2SefcpM+3OzpeYssnXUODKu"
	    "xxypzKvoyXnVElZVb0GZV6dHWR9qpfTV6o3XqrhudVRQjZEpFTVN1VJdU0zl"
	    "zNtQz/m6ovJr7VptatXzrK9+tvKqFqjxtSjHprLui5pCldRVks1Gsb5v7l3U"
	    "d7TIuul7nN9dn33OdrrK16uM0MC6L2oqNqNijCukp7lCRvmzQZ+XTs9OMVsl"
	    "3qFOlerdJ0w9W3qUnacoEyLgVgSVs6HskS1bFO1tbFJ+RkV6bD/NtPqXk93e"
	    "aXeffPcNcN+FvAXyXAQ572ZzrCo9at9MkVm5mI7MnlbF+6TfLtt925y7SD9x"
	    "31D9btK31BZRd9V9izfjTmcqyEEXiiwErtCS9H7cGcK2n+q50DOita7MGdq7"
	    "o/bYXnls1cdegdqrPT5Vyacy2aoTVaH8a5e5ctlrmU9V48cdQe6vBMZUR393"
	    "zi69vCPohKwJQnfgdGF84Mx55omQLH1EypL2fPx/Ya+15uc+Vdgeu6uwf3Xu"
	    "vE7TXv5iVwjJrCswMJ0gYzcZIlpoAZnwNO/QlUndX7fCqZ4=" },
	{ "C",
	    "HISTFAAAACF4nJNpmSzMwMDAyAABzFAayGd2M9ixgMH+A1QEAFKmBEw=" },
	{ "D",
	    "HISTFAAAAX54nIVQQU7EMAyMnDRNu13QqlqhFSAOfIA7B268jB/wAZ7Bkzjy"
	    "BJw4Tuw0ZT322Gkbe9yHj8/VmPHVkAEl+4Px/vL9Zd5++c0MaAbAIlnEgBgR"
	    "E+IAR8QtYkWcERe4RzzCEzwjznDCWOEu4ZLexK/jnVMG31yxW+wYe1LfY/ky"
	    "xjFNpbkT5kNWQHfqrSkpJJUcFVOJijHvxTwUbjF2u9Kfob9DrCvu3U7pT+Nu"
	    "GlZlu6nsRoGcT+dBndL1hkoSxXXYTWUbrhE7EzVhmoq9Lfc1C0U7QutwbaYp"
	    "TMt7ov8R31sgPXc5iBTr6rqZbWk6Sa7gwDnYQpFykYTsnnahvL9EauHi/GJQ"
	    "GWpol9RFd4N2gVx5R2CqnoKopB0DlVv1WXh/C++D35ornIPd1aRk97QL/f0t"
	    "4jGg+RA4+eoCyllxT3cjvpDcQpLzc7aQiT2BiIoQmKV5qVxI1/qT8HYNWmVZ"
	    "bpYlU7I5U/KM6tGWeVaqE4e5CGf1rD+7/wMfcyQZ" },
	{ "E",
	    "HISTFAAAANp4nJNpmSzMwCC2gAECWKE0I5icMa3B/gNE4LIUU3si08UhTl4X"
	    "ZjpswLScl+kgmByi7GZepvkSTBfZmBaCSSD7MhI5Kk5n8an8TMuZmfp50Mle"
	    "HqaVSCRWNaPqR9UPV/UPuZguMzK1skHJi4xM7XhJuEryyFHzR80fNX/U/FHz"
	    "h7T5N1mY0pkamZkyQQQRrHSmZrwsEowiZCgVjRp136j7Rt1HpPveMjO9Jo4k"
	    "UhnZWkbNHzV/1HwytOxnYvrKyPSZEURCEFY2QQVU0ThIFA9CJw1d9wMAFcGw"
	    "2Q==" },
};

/* xorshift64*: a fixed seed gives the same data on every run. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/* Uniform in [0, 1). */
static double
rnd_unit(uint64_t *s)
{
	return (double)(rnd(s) >> 11) / 9007199254740992.0;
}

/* Log-uniform over 1 us .. 1 h, in ns. */
static uint64_t
rnd_latency(uint64_t *s)
{
	return (uint64_t)pow(10, 3 + (log10((double)NS_HOUR) - 3) *
	    rnd_unit(s));
}

/* The values of reference set `name' (as the Node.js script recorded). */
static struct hdr *
new_set(const char *name)
{
	static const uint64_t a[][2] = {
		{ 0, 1 }, { 1, 3 }, { 2, 1 }, { 1000, 5 }, { 1001, 1 },
		{ 2047, 2 }, { 2048, 7 }, { 2049, 1 }, { 4095, 1 },
		{ 4096, 2 }, { 123456, 11 }, { 999999, 1 }, { 1000000, 4 },
		{ 1000000000, 2 }, { UINT64_C(59999999999), 1 },
		{ UINT64_C(3600000000000), 3 }
	};
	struct hdr *h = NULL;
	uint64_t i;

	switch (name[0]) {
	case 'A':
		h = hdr_new(1, NS_HOUR, 3);
		for (i = 0; i < sizeof(a) / sizeof(a[0]); i++)
			hdr_record_n(h, a[i][0], a[i][1]);
		break;
	case 'B':
		h = hdr_new(1, NS_HOUR, 3);
		for (i = 1; i <= 3000; i++)
			hdr_record(h, i * i * i * 7 + i * 13);
		break;
	case 'C':
		h = hdr_new(1, NS_HOUR, 3);
		break;
	case 'D':
		h = hdr_new(1000, NS_HOUR, 2);
		for (i = 1; i <= 3000; i++)
			hdr_record(h, (i * i * i * 7 + i * 13) / 3 + 1000);
		break;
	case 'E':
		h = hdr_new(1, 10000000, 5);
		for (i = 1; i <= 2000; i++)
			hdr_record(h, (i * 7919) % 9999991);
		break;
	}
	ck_assert_ptr_nonnull(h);
	return h;
}

/* Both hold the same counts in the same buckets. */
static void
assert_same_counts(const struct hdr *a, const struct hdr *b)
{
	struct hdr_iter ia, ib;

	ck_assert(hdr_same_settings(a, b));
	ck_assert_uint_eq(hdr_count(a), hdr_count(b));
	hdr_iter_init(&ia, a);
	hdr_iter_init(&ib, b);
	while (hdr_iter_next(&ia)) {
		REQUIRE(hdr_iter_next(&ib));
		REQUIRE(ia.lo == ib.lo);
		REQUIRE(ia.hi == ib.hi);
		REQUIRE(ia.count == ib.count);
	}
	ck_assert(!hdr_iter_next(&ib));
	ck_assert_uint_eq(hdr_min(a), hdr_min(b));
	ck_assert_uint_eq(hdr_max(a), hdr_max(b));
}

/* The test's own base64 decoder (NUL-free input); NULL when invalid. */
static uint8_t *
b64dec(const char *s, size_t *n)
{
	static const char al[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t len = strlen(s), i, o = 0;
	uint8_t *out;
	uint32_t w = 0;
	int bits = 0;
	const char *p;

	out = malloc(len + 1);
	ck_assert_ptr_nonnull(out);
	for (i = 0; i < len && s[i] != '='; i++) {
		ck_assert_ptr_nonnull(p = strchr(al, s[i]));
		w = w << 6 | (uint32_t)(p - al);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(w >> bits);
		}
	}
	*n = o;
	return out;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* The uncompressed V2 bytes inside a HISTF string. */
static uint8_t *
inflate_b64(const char *s, size_t *n)
{
	uint8_t *bin, *raw;
	size_t len;
	uLongf rawlen = 1 << 22;

	bin = b64dec(s, &len);
	ck_assert_uint_ge(len, 8);
	ck_assert_uint_eq(be32(bin), 0x1c849314);
	ck_assert_uint_eq(be32(bin + 4), len - 8);
	raw = malloc(rawlen);
	ck_assert_ptr_nonnull(raw);
	ck_assert_int_eq(uncompress(raw, &rawlen, bin + 8, len - 8), Z_OK);
	free(bin);
	*n = rawlen;
	return raw;
}

static char *
encode(const struct hdr *h)
{
	char *s;
	size_t n;

	ck_assert_int_eq(hdr_encode(h, &s, &n), 0);
	ck_assert_uint_eq(strlen(s), n);
	return s;
}

static struct hdr *
decode_ok(const char *s)
{
	struct hdr *h = NULL;
	int rv;

	rv = hdr_decode(s, strlen(s), &h);
	ck_assert_msg(rv == 0, "decode: %s", hdr_strerror(rv));
	ck_assert_ptr_nonnull(h);
	return h;
}

START_TEST(test_layout)
{
	struct hdr *h;

	/* HdrHistogram's sizes: 3 digits give 2048 sub-buckets. */
	h = hdr_new_ns();
	ck_assert_uint_eq(hdr_counts_len(h), 33 * 1024);
	ck_assert_int_eq(hdr_lowest(h), 1);
	ck_assert_int_eq(hdr_highest(h), NS_HOUR);
	ck_assert_int_eq(hdr_digits(h), 3);
	ck_assert_uint_eq(hdr_count(h), 0);
	hdr_free(h);
	h = hdr_new(1000, NS_HOUR, 2);
	ck_assert_uint_eq(hdr_counts_len(h), (26 + 1) * 128);
	hdr_free(h);
	h = hdr_new(1, 10000000, 5);
	ck_assert_uint_eq(hdr_counts_len(h), (7 + 1) * 131072);
	hdr_free(h);
	/* Invalid settings. */
	ck_assert_ptr_null(hdr_new(0, 1000, 3));
	ck_assert_ptr_null(hdr_new(-1, 1000, 3));
	ck_assert_ptr_null(hdr_new(1, 1000, 0));
	ck_assert_ptr_null(hdr_new(1, 1000, 6));
	ck_assert_ptr_null(hdr_new(600, 1000, 3));
	ck_assert_ptr_null(hdr_new(1, 1, 3));
	ck_assert_ptr_null(hdr_new(INT64_C(1) << 55, INT64_MAX, 3));
	ck_assert_ptr_nonnull(h = hdr_new(1, INT64_MAX, 1));
	hdr_free(h);
	hdr_free(NULL);
}
END_TEST

/* v's bucket holds v and is at most v / 1000 wide (exact below 2048). */
static void
assert_precise(const struct hdr *h, uint64_t v)
{
	uint64_t lo = hdr_lowest_equivalent(h, v);
	uint64_t hi = hdr_highest_equivalent(h, v);

	REQUIRE(lo <= v);
	REQUIRE(hi >= v);
	if (v < 2048)
		REQUIRE(hi == lo);
	else if (!((double)(hi - lo) <= (double)v / 1000))
		ck_assert_msg((double)(hi - lo) <= (double)v / 1000,
		    "value %llu in [%llu, %llu]", (unsigned long long)v,
		    (unsigned long long)lo, (unsigned long long)hi);
}

START_TEST(test_precision_ends)
{
	struct hdr *h = hdr_new_ns();
	uint64_t v, seed = 1, i, top = (uint64_t)NS_HOUR;

	/* Every value at the low end, and the last ns below the hour. */
	for (v = 0; v <= 100000; v++)
		assert_precise(h, v);
	for (v = top - 100000; v <= top; v++)
		assert_precise(h, v);
	for (i = 0; i < 1000000; i++)
		assert_precise(h, rnd_latency(&seed));
	/* Recorded and read back: min, max and every percentile. */
	static const uint64_t ends[] = {
		1000, 1001, 1999, 2047, 2048, 2049, 4095, 4096, 999999,
		UINT64_C(3599999999999), UINT64_C(3600000000000)
	};
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]) + 2000; i++) {
		v = i < sizeof(ends) / sizeof(ends[0]) ? ends[i] :
		    rnd_latency(&seed);
		hdr_reset(h);
		hdr_record(h, v);
		ck_assert_uint_eq(hdr_count(h), 1);
		ck_assert_uint_le(hdr_min(h), v);
		ck_assert_uint_ge(hdr_max(h), v);
		ck_assert((double)(hdr_max(h) - hdr_min(h)) <= (double)v / 1000);
		ck_assert_uint_eq(hdr_value_at_percentile(h, 50), hdr_max(h));
		ck_assert_uint_eq(hdr_value_at_percentile(h, 0), hdr_min(h));
		ck_assert(fabs(hdr_mean(h) - (double)v) <= (double)v / 2000 + 1);
		ck_assert(hdr_stddev(h) == 0);
	}
	hdr_free(h);
}
END_TEST

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

START_TEST(test_percentiles_oracle)
{
	enum { N = 100000 };
	static const double ps[] = {
		0, 0.001, 1, 10, 25, 33.3, 50, 66.6, 75, 90, 95, 99, 99.5,
		99.9, 99.99, 99.999, 100
	};
	struct hdr *h = hdr_new_ns();
	uint64_t *v, seed = 7, rank, want;
	double sum = 0, var = 0, mean;
	size_t i, n;

	ck_assert_ptr_nonnull(v = malloc(N * sizeof(*v)));
	for (n = 1; n <= N; n = n * 10 + 7) {
		hdr_reset(h);
		sum = 0;
		for (i = 0; i < n; i++) {
			/* Half log-uniform, half clustered near 3 ms. */
			v[i] = i % 2 ? rnd_latency(&seed) :
			    3000000 + rnd(&seed) % 100000;
			hdr_record(h, v[i]);
			sum += (double)v[i];
		}
		qsort(v, n, sizeof(*v), cmp_u64);
		ck_assert_uint_eq(hdr_count(h), n);
		for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			/* Nearest rank, in integers: ceil(p * n / 100). */
			rank = (uint64_t)ceil(ps[i] * 1000 * (double)n / 100000
			    - 1e-9);
			if (rank < 1)
				rank = 1;
			want = ps[i] == 0 ? hdr_lowest_equivalent(h, v[0]) :
			    hdr_highest_equivalent(h, v[rank - 1]);
			ck_assert_msg(hdr_value_at_percentile(h, ps[i]) == want,
			    "n %zu p%g: %llu, want %llu", n, ps[i],
			    (unsigned long long)hdr_value_at_percentile(h,
			    ps[i]), (unsigned long long)want);
		}
		ck_assert_uint_eq(hdr_min(h), hdr_lowest_equivalent(h, v[0]));
		ck_assert_uint_eq(hdr_max(h),
		    hdr_highest_equivalent(h, v[n - 1]));
		ck_assert_uint_eq(hdr_value_at_percentile(h, 100), hdr_max(h));
		ck_assert_uint_eq(hdr_value_at_percentile(h, 1000), hdr_max(h));
		ck_assert_uint_eq(hdr_value_at_percentile(h, -5), hdr_min(h));
		mean = sum / (double)n;
		ck_assert(fabs(hdr_mean(h) - mean) <= mean / 1000);
		var = 0;
		for (i = 0; i < n; i++)
			var += ((double)v[i] - mean) * ((double)v[i] - mean);
		var = sqrt(var / (double)n);
		ck_assert(fabs(hdr_stddev(h) - var) <= var / 1000 + 1);
	}
	free(v);
	/* Empty. */
	hdr_reset(h);
	ck_assert_uint_eq(hdr_value_at_percentile(h, 50), 0);
	ck_assert_uint_eq(hdr_min(h), 0);
	ck_assert_uint_eq(hdr_max(h), 0);
	ck_assert(hdr_mean(h) == 0 && hdr_stddev(h) == 0);
	hdr_free(h);
}
END_TEST

START_TEST(test_merge)
{
	struct hdr *a = hdr_new_ns(), *b = hdr_new_ns(), *all = hdr_new_ns();
	struct hdr *other;
	uint64_t seed = 3, v;
	char *s1, *s2;
	int i;

	for (i = 0; i < 50000; i++) {
		v = rnd_latency(&seed);
		hdr_record(i % 3 ? a : b, v);
		hdr_record(all, v);
	}
	hdr_record(b, UINT64_MAX);		/* clamped in both */
	hdr_record(all, UINT64_MAX);
	ck_assert_int_eq(hdr_add(a, b), 0);
	assert_same_counts(a, all);
	ck_assert_uint_eq(hdr_clamped(a), 1);
	for (i = 0; i < 10; i++)
		ck_assert_uint_eq(hdr_value_at_percentile(a, pcts[i]),
		    hdr_value_at_percentile(all, pcts[i]));
	ck_assert(hdr_mean(a) == hdr_mean(all));
	s1 = encode(a);
	s2 = encode(all);
	ck_assert_str_eq(s1, s2);
	free(s1);
	free(s2);
	/* Adding an empty histogram changes nothing. */
	hdr_reset(b);
	ck_assert_int_eq(hdr_add(a, b), 0);
	assert_same_counts(a, all);

	/* Different settings: refused, nothing added. */
	other = hdr_new(1, NS_HOUR, 2);
	hdr_record(other, 5000);
	ck_assert_int_eq(hdr_add(a, other), -1);
	assert_same_counts(a, all);
	ck_assert(!hdr_same_settings(a, other));
	hdr_free(other);
	other = hdr_new(1, NS_HOUR / 2, 3);
	ck_assert_int_eq(hdr_add(a, other), -1);
	hdr_free(other);
	other = hdr_new(2, NS_HOUR, 3);
	ck_assert_int_eq(hdr_add(a, other), -1);
	hdr_free(other);

	/* A total past INT64_MAX: refused. */
	hdr_reset(a);
	hdr_reset(b);
	hdr_record_n(a, 5, (uint64_t)INT64_MAX);
	hdr_record(b, 7);
	ck_assert_int_eq(hdr_add(a, b), -1);
	ck_assert_uint_eq(hdr_count(a), (uint64_t)INT64_MAX);
	hdr_free(a);
	hdr_free(b);
	hdr_free(all);
}
END_TEST

START_TEST(test_reset)
{
	struct hdr *h = hdr_new_ns(), *fresh = hdr_new_ns();
	uint64_t seed = 11;
	char *s1, *s2;
	int i;

	for (i = 0; i < 1000; i++)
		hdr_record(h, rnd_latency(&seed));
	hdr_record(h, UINT64_MAX);
	hdr_reset(h);
	ck_assert_uint_eq(hdr_count(h), 0);
	ck_assert_uint_eq(hdr_clamped(h), 0);
	ck_assert_uint_eq(hdr_min(h), 0);
	ck_assert_uint_eq(hdr_max(h), 0);
	ck_assert_uint_eq(hdr_value_at_percentile(h, 99), 0);
	assert_same_counts(h, fresh);
	s1 = encode(h);
	s2 = encode(fresh);
	ck_assert_str_eq(s1, s2);
	free(s1);
	free(s2);
	hdr_record(h, 123456);
	ck_assert_uint_eq(hdr_count(h), 1);
	ck_assert_uint_eq(hdr_min(h), 123456 / 64 * 64);
	ck_assert_uint_eq(hdr_max(h), 123456 / 64 * 64 + 63);
	hdr_free(h);
	hdr_free(fresh);
}
END_TEST

START_TEST(test_clamp)
{
	struct hdr *h = hdr_new_ns();
	uint64_t top = (uint64_t)NS_HOUR;

	hdr_record(h, top);
	ck_assert_uint_eq(hdr_clamped(h), 0);
	hdr_record(h, top + 1);
	hdr_record(h, UINT64_MAX);
	hdr_record_n(h, top * 10, 5);
	hdr_record_n(h, 1000, 0);		/* nothing */
	ck_assert_uint_eq(hdr_count(h), 8);
	ck_assert_uint_eq(hdr_clamped(h), 7);
	/* All in the bucket of the highest trackable value. */
	ck_assert_uint_eq(hdr_min(h), hdr_lowest_equivalent(h, top));
	ck_assert_uint_eq(hdr_max(h), hdr_highest_equivalent(h, top));
	ck_assert_uint_eq(hdr_value_at_percentile(h, 0),
	    hdr_lowest_equivalent(h, top));
	hdr_record(h, 0);
	ck_assert_uint_eq(hdr_min(h), 0);
	ck_assert_uint_eq(hdr_value_at_percentile(h, 1), 0);
	hdr_free(h);
}
END_TEST

START_TEST(test_roundtrip)
{
	static const struct {
		int64_t	 lowest, highest;
		int	 digits;
	} cfg[] = {
		{ 1, NS_HOUR, 3 }, { 1, NS_HOUR, 1 }, { 1, 1000000, 5 },
		{ 1000, NS_HOUR, 2 }, { 3, 100000, 4 }, { 1, INT64_MAX, 2 },
		{ INT64_C(1) << 20, INT64_C(1) << 50, 3 }
	};
	struct hdr *h, *d;
	uint64_t seed = 5, n, i, k, hi;
	char *s, *s2;

	for (k = 0; k < 60; k++) {
		h = hdr_new(cfg[k % 7].lowest, cfg[k % 7].highest,
		    cfg[k % 7].digits);
		ck_assert_ptr_nonnull(h);
		hi = (uint64_t)cfg[k % 7].highest;
		n = rnd(&seed) % (k < 7 ? 3 : 5000);
		for (i = 0; i < n; i++) {
			/* Spread over the whole range, clamps included. */
			switch (rnd(&seed) % 4) {
			case 0:
				hdr_record(h, rnd(&seed) % 4096);
				break;
			case 1:
				hdr_record(h, rnd(&seed) >> (rnd(&seed) % 64));
				break;
			case 2:
				hdr_record_n(h, hi - rnd(&seed) % 100,
				    rnd(&seed) % 1000000);
				break;
			default:
				hdr_record_n(h, rnd(&seed) % hi,
				    rnd(&seed) >> 40);
			}
		}
		s = encode(h);
		ck_assert(strncmp(s, "HISTF", 5) == 0);
		d = decode_ok(s);
		ck_assert_int_eq(hdr_lowest(d), cfg[k % 7].lowest);
		ck_assert_int_eq(hdr_highest(d), cfg[k % 7].highest);
		ck_assert_int_eq(hdr_digits(d), cfg[k % 7].digits);
		assert_same_counts(h, d);
		for (i = 0; i < 10; i++)
			ck_assert_uint_eq(hdr_value_at_percentile(h, pcts[i]),
			    hdr_value_at_percentile(d, pcts[i]));
		ck_assert(hdr_mean(h) == hdr_mean(d));
		s2 = encode(d);
		ck_assert_str_eq(s, s2);
		free(s);
		free(s2);
		hdr_free(d);
		hdr_free(h);
	}
}
END_TEST

START_TEST(test_reference_strings)
{
	struct hdr *d, *mine_h;
	const struct ref *r;
	size_t i, k;

	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		r = &refs[i];
		d = decode_ok(r->b64);
		ck_assert_int_eq(hdr_lowest(d), r->lowest);
		ck_assert_int_eq(hdr_highest(d), r->highest);
		ck_assert_int_eq(hdr_digits(d), r->digits);
		ck_assert_uint_eq(hdr_count(d), r->count);
		for (k = 0; k < 10; k++)
			ck_assert_msg(hdr_value_at_percentile(d, pcts[k]) ==
			    r->pct[k], "%s p%g: %llu, want %llu", r->name,
			    pcts[k], (unsigned long long)
			    hdr_value_at_percentile(d, pcts[k]),
			    (unsigned long long)r->pct[k]);
		ck_assert_uint_eq(hdr_max(d), r->pct[9]);
		ck_assert(fabs(hdr_mean(d) - r->mean) <= 1e-9 * r->mean);
		ck_assert(fabs(hdr_stddev(d) - r->stddev) <=
		    1e-9 * r->stddev);
		/* The same values recorded here: the same counts. */
		if (r->name[0] >= 'A' && r->name[0] <= 'E') {
			mine_h = new_set(r->name);
			assert_same_counts(mine_h, d);
			hdr_free(mine_h);
		}
		hdr_free(d);
	}
}
END_TEST

START_TEST(test_own_strings)
{
	struct hdr *h, *d;
	uint8_t *want, *got;
	size_t i, wn, gn;
	char *s;

	for (i = 0; i < sizeof(mine) / sizeof(mine[0]); i++) {
		h = new_set(mine[i].name);
		s = encode(h);
		/* The V2 bytes that hdr-histogram-js read correctly. */
		want = inflate_b64(mine[i].b64, &wn);
		got = inflate_b64(s, &gn);
		ck_assert_uint_eq(wn, gn);
		ck_assert(memcmp(want, got, wn) == 0);
		/* Header: V2 cookie with the word-size nibble, offset 0. */
		ck_assert_uint_eq(be32(got), 0x1c849313);
		ck_assert_uint_eq(be32(got + 4), gn - 40);
		ck_assert_uint_eq(be32(got + 8), 0);
		ck_assert_uint_eq(be32(got + 32), 0x3ff00000);
		ck_assert_uint_eq(be32(got + 36), 0);
		d = decode_ok(mine[i].b64);
		assert_same_counts(h, d);
		hdr_free(d);
		free(want);
		free(got);
		free(s);
		hdr_free(h);
	}
}
END_TEST

static void
wbe32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void
wbe64(uint8_t *p, uint64_t v)
{
	wbe32(p, (uint32_t)(v >> 32));
	wbe32(p + 4, (uint32_t)v);
}

/* An uncompressed V2 encoding, written by hand; its length. */
static size_t
mk_v2(uint8_t *buf, uint32_t cookie, int32_t payload_len, int32_t digits,
    int64_t lowest, int64_t highest, const uint8_t *payload, size_t plen)
{
	wbe32(buf, cookie);
	wbe32(buf + 4, (uint32_t)payload_len);
	wbe32(buf + 8, 0);
	wbe32(buf + 12, (uint32_t)digits);
	wbe64(buf + 16, (uint64_t)lowest);
	wbe64(buf + 24, (uint64_t)highest);
	wbe64(buf + 32, UINT64_C(0x3ff0000000000000));
	memcpy(buf + 40, payload, plen);
	return 40 + plen;
}

/* The compressed form of `len' bytes (zlib), in a new buffer. */
static uint8_t *
wrap(const uint8_t *raw, size_t len, size_t *n)
{
	uLongf zlen = compressBound(len);
	uint8_t *bin = malloc(8 + zlen);

	ck_assert_ptr_nonnull(bin);
	ck_assert_int_eq(compress(bin + 8, &zlen, raw, len), Z_OK);
	wbe32(bin, 0x1c849314);
	wbe32(bin + 4, (uint32_t)zlen);
	*n = 8 + zlen;
	return bin;
}

/*
 * Decodes buf as is and compressed; both must give `want', except that
 * a payload shorter than its length is HDR_ESIZE when compressed (the
 * stream ends before it).
 */
static void
expect2(const uint8_t *buf, size_t len, int want, int short_payload)
{
	struct hdr *h = NULL;
	uint8_t *bin;
	size_t n;
	int rv;

	rv = hdr_decode_bin(buf, len, &h);
	ck_assert_msg(rv == want, "raw: %d (%s), want %d", rv,
	    hdr_strerror(rv), want);
	if (rv == 0)
		hdr_free(h);
	else
		ck_assert_ptr_null(h);
	bin = wrap(buf, len, &n);
	rv = hdr_decode_bin(bin, n, &h);
	if (short_payload)
		want = HDR_ESIZE;
	ck_assert_msg(rv == want, "compressed: %d (%s), want %d", rv,
	    hdr_strerror(rv), want);
	if (rv == 0)
		hdr_free(h);
	free(bin);
}

static void
expect(const uint8_t *buf, size_t len, int want)
{
	expect2(buf, len, want, 0);
}

START_TEST(test_decode_rejects)
{
	/* digits 1, 1 .. 100: 64 counts. */
	static const uint8_t ok[] = { 10, 5, 4 };	/* 5, 3 zeros, 2 */
	static const uint8_t cont[] = { 10, 0x80 };
	static const uint8_t big_run[] = { 0x7f };	/* -64 */
	static const uint8_t past_run[] = { 0x81, 0x01 }; /* -65 */
	static const uint8_t run_then[] = { 0x7f, 2 };
	static const uint8_t huge_run[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	static const uint8_t overflow[] = {
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2
	};
	static const uint8_t max_ok[] = {
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0
	};
	uint8_t buf[4096], c65[65], *bin, *cut;
	struct hdr *h = NULL, *a;
	size_t n, i, bn;
	char *s;

	n = mk_v2(buf, 0x1c849313, 3, 1, 1, 100, ok, 3);
	ck_assert_int_eq(hdr_decode_bin(buf, n, &h), 0);
	ck_assert_uint_eq(hdr_count(h), 7);
	ck_assert_uint_eq(hdr_min(h), 0);
	ck_assert_uint_eq(hdr_max(h), 4);
	hdr_free(h);
	h = NULL;
	/* Without the word-size nibble too, and with trailing bytes. */
	expect(buf, mk_v2(buf, 0x1c849303, 3, 1, 1, 100, ok, 3), 0);
	/* Bytes after the payload: ignored, but not inside the zlib stream. */
	n = mk_v2(buf, 0x1c849303, 2, 1, 1, 100, ok, 3);
	ck_assert_int_eq(hdr_decode_bin(buf, n, &h), 0);
	ck_assert_uint_eq(hdr_count(h), 5);
	hdr_free(h);
	h = NULL;
	bin = wrap(buf, n, &bn);
	ck_assert_int_eq(hdr_decode_bin(bin, bn, &h), HDR_ESIZE);
	free(bin);

	expect(buf, mk_v2(buf, 0x1c849301, 3, 1, 1, 100, ok, 3), HDR_ECOOKIE);
	expect(buf, mk_v2(buf, 0xdeadbeef, 3, 1, 1, 100, ok, 3), HDR_ECOOKIE);
	expect(buf, mk_v2(buf, 0x1c849313, 3, 0, 1, 100, ok, 3),
	    HDR_ESETTINGS);
	expect(buf, mk_v2(buf, 0x1c849313, 3, 6, 1, 100, ok, 3),
	    HDR_ESETTINGS);
	expect(buf, mk_v2(buf, 0x1c849313, 3, 1, 0, 100, ok, 3),
	    HDR_ESETTINGS);
	expect(buf, mk_v2(buf, 0x1c849313, 3, 1, 60, 100, ok, 3),
	    HDR_ESETTINGS);
	expect(buf, mk_v2(buf, 0x1c849313, 3, 1, 1, -100, ok, 3),
	    HDR_ESETTINGS);
	expect(buf, mk_v2(buf, 0x1c849313, 3, 1, INT64_MIN, -1, ok, 3),
	    HDR_ESETTINGS);
	expect(buf, mk_v2(buf, 0x1c849313, 3, 5, 1, INT64_MAX, ok, 3),
	    HDR_ETOOBIG);
	expect(buf, mk_v2(buf, 0x1c849313, -1, 1, 1, 100, ok, 3), HDR_ESIZE);
	expect(buf, mk_v2(buf, 0x1c849313, 9 * 64 + 1, 1, 1, 100, ok, 3),
	    HDR_ESIZE);
	expect2(buf, mk_v2(buf, 0x1c849313, 4, 1, 1, 100, ok, 3), HDR_ETRUNC,
	    1);
	expect(buf, mk_v2(buf, 0x1c849313, 2, 1, 1, 100, cont, 2),
	    HDR_ETRUNC);
	expect(buf, mk_v2(buf, 0x1c849313, 1, 1, 1, 100, big_run, 1), 0);
	expect(buf, mk_v2(buf, 0x1c849313, 2, 1, 1, 100, past_run, 2),
	    HDR_ECOUNTS);
	expect(buf, mk_v2(buf, 0x1c849313, 2, 1, 1, 100, run_then, 2),
	    HDR_ECOUNTS);
	expect(buf, mk_v2(buf, 0x1c849313, 9, 1, 1, 100, huge_run, 9),
	    HDR_ECOUNTS);
	expect(buf, mk_v2(buf, 0x1c849313, 10, 1, 1, 100, overflow, 10),
	    HDR_ECOUNTS);
	expect(buf, mk_v2(buf, 0x1c849313, 10, 1, 1, 100, max_ok, 10), 0);
	memset(c65, 2, sizeof(c65));
	expect(buf, mk_v2(buf, 0x1c849313, 64, 1, 1, 100, c65, 64), 0);
	expect(buf, mk_v2(buf, 0x1c849313, 65, 1, 1, 100, c65, 65),
	    HDR_ECOUNTS);
	/* Every prefix of the header. */
	n = mk_v2(buf, 0x1c849313, 3, 1, 1, 100, ok, 3);
	for (i = 0; i < n; i++)
		ck_assert_int_ne(hdr_decode_bin(buf, i, &h), 0);

	/* The compressed form. */
	a = new_set("B");
	ck_assert_int_eq(hdr_encode_bin(a, &bin, &bn), 0);
	ck_assert_int_eq(hdr_decode_bin(bin, bn, &h), 0);
	assert_same_counts(a, h);
	hdr_free(h);
	h = NULL;
	for (i = 0; i < bn; i++)
		ck_assert_int_eq(hdr_decode_bin(bin, i, &h), HDR_ETRUNC);
	/* A length that covers less: the stream ends early. */
	ck_assert_ptr_nonnull(cut = malloc(bn));
	for (i = 8; i < bn; i++) {
		memcpy(cut, bin, bn);
		wbe32(cut + 4, (uint32_t)(i - 8));
		ck_assert_int_ne(hdr_decode_bin(cut, bn, &h), 0);
	}
	/* Corrupt deflate data. */
	memcpy(cut, bin, bn);
	memset(cut + 10, 0xff, 16);
	ck_assert_int_ne(hdr_decode_bin(cut, bn, &h), 0);
	cut[8] = 0x12;			/* not a zlib header */
	ck_assert_int_eq(hdr_decode_bin(cut, bn, &h), HDR_EZLIB);
	memcpy(cut, bin, bn);
	wbe32(cut + 4, 0x80000000);
	ck_assert_int_eq(hdr_decode_bin(cut, bn, &h), HDR_ETRUNC);
	free(cut);
	free(bin);
	/* A stream shorter than the V2 header. */
	bin = wrap(buf, 20, &bn);
	ck_assert_int_eq(hdr_decode_bin(bin, bn, &h), HDR_ETRUNC);
	free(bin);
	ck_assert_ptr_null(h);

	/* Base64. */
	s = encode(a);
	ck_assert_int_eq(hdr_decode(s, strlen(s) - 1, &h), HDR_EBASE64);
	ck_assert_int_eq(hdr_decode(s, strlen(s) - 4, &h), HDR_ETRUNC);
	ck_assert_int_eq(hdr_decode("", 0, &h), HDR_ETRUNC);
	ck_assert_int_eq(hdr_decode("HIST", 4, &h), HDR_ETRUNC);
	ck_assert_int_eq(hdr_decode("HI=T", 4, &h), HDR_EBASE64);
	ck_assert_int_eq(hdr_decode("HI T", 4, &h), HDR_EBASE64);
	ck_assert_int_eq(hdr_decode("====", 4, &h), HDR_EBASE64);
	ck_assert_int_eq(hdr_decode("AAAAAAA=", 8, &h), HDR_ECOOKIE);
	s[10] = '*';
	ck_assert_int_eq(hdr_decode(s, strlen(s), &h), HDR_EBASE64);
	free(s);
	ck_assert_ptr_null(h);
	for (i = 0; i < 10; i++)
		ck_assert_str_ne(hdr_strerror(-(int)i), "unknown error");
	hdr_free(a);
}
END_TEST

/* A decoded histogram must make sense: its counts add up, it encodes. */
static void
assert_sane(struct hdr *h)
{
	struct hdr_iter it;
	struct hdr *d;
	uint64_t sum = 0;
	char *s;

	hdr_iter_init(&it, h);
	while (hdr_iter_next(&it)) {
		sum += it.count;
		REQUIRE(it.cum == sum);
		REQUIRE(it.lo <= it.hi);
	}
	ck_assert_uint_eq(sum, hdr_count(h));
	ck_assert_uint_le(hdr_value_at_percentile(h, 50), hdr_max(h));
	s = encode(h);
	d = decode_ok(s);
	assert_same_counts(h, d);
	hdr_free(d);
	free(s);
}

/* Random mutations of valid encodings: errors, never a crash (ASan). */
START_TEST(test_decode_mutations)
{
	static const char names[] = "ABDE";
	uint8_t *bins[8], *raws[8], *m, *z;
	size_t bn[8], rn[8], n, zn, i, k, pos;
	uint64_t seed = 99;
	struct hdr *h, *d;
	int iter, rv, ok = 0;
	char *s;

	for (i = 0; i < 4; i++) {
		h = new_set(&names[i]);
		ck_assert_int_eq(hdr_encode_bin(h, &bins[i], &bn[i]), 0);
		s = encode(h);
		raws[i] = inflate_b64(s, &rn[i]);
		free(s);
		hdr_free(h);
	}
	ck_assert_ptr_nonnull(m = malloc(1 << 16));
	for (iter = 0; iter < 20000; iter++) {
		k = rnd(&seed) % 4;
		/* Mutate the compressed bytes, or the V2 bytes inside. */
		if (iter % 2) {
			n = bn[k];
			memcpy(m, bins[k], n);
		} else {
			n = rn[k];
			memcpy(m, raws[k], n);
		}
		for (i = rnd(&seed) % 4 + 1; i > 0; i--) {
			pos = rnd(&seed) % n;
			switch (rnd(&seed) % 6) {
			case 0:
				m[pos] ^= (uint8_t)(1 << rnd(&seed) % 8);
				break;
			case 1:
				m[pos] = (uint8_t)rnd(&seed);
				break;
			case 2:
				m[pos] = (uint8_t[]){ 0, 0x7f, 0x80, 0xff }
				    [rnd(&seed) % 4];
				break;
			case 3:
				n = pos + 1;		/* truncate */
				break;
			case 4:
				/* A header field's byte: the sizes. */
				m[4 + rnd(&seed) % 36 % (n > 4 ? n - 4 : 1)] =
				    (uint8_t)rnd(&seed);
				break;
			default:
				if (n + 16 < (1 << 16)) {
					memmove(m + pos + 16, m + pos, n - pos);
					memset(m + pos, (int)(rnd(&seed) & 0xff),
					    16);
					n += 16;
				}
			}
		}
		h = NULL;
		rv = hdr_decode_bin(m, n, &h);
		if (rv == 0) {
			ok++;
			assert_sane(h);
			hdr_free(h);
		} else {
			ck_assert_ptr_null(h);
		}
		/* The mutated V2 bytes, validly compressed. */
		if (iter % 2 == 0) {
			z = wrap(m, n, &zn);
			d = NULL;
			if (hdr_decode_bin(z, zn, &d) == 0) {
				assert_sane(d);
				hdr_free(d);
			}
			free(z);
		}
	}
	/* Some mutations keep it valid (a count changed): not all fail. */
	ck_assert_int_gt(ok, 0);
	free(m);
	for (i = 0; i < 4; i++) {
		free(bins[i]);
		free(raws[i]);
	}
}
END_TEST

/*
 * hdr_decode_ns(): this program's histograms decode as with hdr_decode();
 * any other settings (here 5 digits up to 2^24 ns: 2^20 counts, 8 MiB,
 * under HDR_DECODE_MAX_COUNTS) are refused from the header.
 */
START_TEST(test_decode_ns)
{
	struct hdr *h, *big, *d = NULL;
	char *s;
	size_t len;

	h = hdr_new_ns();
	hdr_record(h, 12345);
	hdr_record(h, 7);
	hdr_record(h, NS_HOUR);
	ck_assert_int_eq(hdr_encode(h, &s, &len), 0);
	ck_assert_int_eq(hdr_decode_ns(s, len, &d), 0);
	ck_assert_uint_eq(hdr_count(d), 3);
	ck_assert(hdr_same_settings(h, d));
	/* A decoded histogram adds up whole (hdr_add() goes from its min
	   to its max only). */
	big = hdr_new_ns();
	ck_assert_int_eq(hdr_add(big, d), 0);
	assert_same_counts(big, h);
	hdr_free(big);
	hdr_free(d);
	free(s);
	big = hdr_new(1, INT64_C(1) << 24, 5);
	ck_assert_ptr_nonnull(big);
	ck_assert_uint_ge(hdr_counts_len(big), (size_t)1 << 20);
	hdr_record(big, 777);
	ck_assert_int_eq(hdr_encode(big, &s, &len), 0);
	ck_assert_int_eq(hdr_decode(s, len, &d), 0);
	hdr_free(d);
	d = NULL;
	ck_assert_int_eq(hdr_decode_ns(s, len, &d), HDR_ENOTNS);
	ck_assert_ptr_null(d);
	ck_assert_str_eq(hdr_strerror(HDR_ENOTNS), "not this httperf's "
	    "histogram settings (lowest 1 ns, highest 1 h, 3 digits)");
	free(s);
	/* 1 h but 2 digits; 3 digits but 2 h. */
	hdr_free(big);
	big = hdr_new(1, NS_HOUR, 2);
	ck_assert_int_eq(hdr_encode(big, &s, &len), 0);
	ck_assert_int_eq(hdr_decode_ns(s, len, &d), HDR_ENOTNS);
	free(s);
	hdr_free(big);
	big = hdr_new(1, 2 * NS_HOUR, 3);
	ck_assert_int_eq(hdr_encode(big, &s, &len), 0);
	ck_assert_int_eq(hdr_decode_ns(s, len, &d), HDR_ENOTNS);
	free(s);
	hdr_free(big);
	hdr_free(h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hdr");
	TCase *tc = tcase_create("hdr");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_precision_ends);
	tcase_add_test(tc, test_percentiles_oracle);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_reset);
	tcase_add_test(tc, test_clamp);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_reference_strings);
	tcase_add_test(tc, test_own_strings);
	tcase_add_test(tc, test_decode_rejects);
	tcase_add_test(tc, test_decode_mutations);
	tcase_add_test(tc, test_decode_ns);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
