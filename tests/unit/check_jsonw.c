/*
 * lib/jsonw.c: layout, string escaping (control characters, invalid UTF-8),
 * exact integers, doubles that read back exactly, misuse and write errors.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"
#include "unit.h"

static char *buf;
static size_t buflen;
static FILE *mem;

static struct jsonw *
start(struct jsonw *w)
{
	free(buf);
	buf = NULL;
	mem = open_memstream(&buf, &buflen);
	ck_assert_ptr_nonnull(mem);
	jsonw_init(w, mem);
	return w;
}

/* Finishes the document, expecting rc; returns the text (freed later). */
static const char *
finish(struct jsonw *w, int rc)
{
	ck_assert_int_eq(jsonw_finish(w), rc);
	fclose(mem);
	return buf;
}

static void
teardown(void)
{
	free(buf);
	buf = NULL;
}

START_TEST(test_layout)
{
	struct jsonw w;

	start(&w);
	jsonw_obj_begin(&w);
	jsonw_ku64(&w, "a", 1);
	jsonw_key(&w, "b");
	jsonw_arr_begin(&w);
	jsonw_bool(&w, 1);
	jsonw_null(&w);
	jsonw_obj_begin(&w);
	jsonw_obj_end(&w);
	jsonw_arr_begin(&w);
	jsonw_arr_end(&w);
	jsonw_arr_end(&w);
	jsonw_kstr(&w, "c", "x");
	jsonw_kstr(&w, "d", NULL);
	jsonw_obj_end(&w);
	ck_assert_str_eq(finish(&w, 0),
	    "{\n"
	    "  \"a\": 1,\n"
	    "  \"b\": [\n"
	    "    true,\n"
	    "    null,\n"
	    "    {},\n"
	    "    []\n"
	    "  ],\n"
	    "  \"c\": \"x\",\n"
	    "  \"d\": null\n"
	    "}\n");
}
END_TEST

/* One string value as the writer quotes it. */
static const char *
quoted(const char *s, size_t len)
{
	struct jsonw w;

	start(&w);
	jsonw_strn(&w, s, len);
	return finish(&w, 0);
}

START_TEST(test_escapes)
{
	ck_assert_str_eq(quoted("a\"b\\c/", 6), "\"a\\\"b\\\\c/\"\n");
	ck_assert_str_eq(quoted("\b\f\n\r\t", 5), "\"\\b\\f\\n\\r\\t\"\n");
	teardown();
	ck_assert_str_eq(quoted("\x01\x1f\x7f", 3),
	    "\"\\u0001\\u001f\\u007f\"\n");
	teardown();
	/* A NUL inside the given length is a character like any other. */
	ck_assert_str_eq(quoted("a\0b", 3), "\"a\\u0000b\"\n");
}
END_TEST

START_TEST(test_utf8_valid)
{
	/* é, €, U+10FFFF and an emoji pass through unchanged. */
	const char s[] = "\xc3\xa9\xe2\x82\xac\xf4\x8f\xbf\xbf\xf0\x9f\x98\x80";

	ck_assert_str_eq(quoted(s, sizeof(s) - 1),
	    "\"\xc3\xa9\xe2\x82\xac\xf4\x8f\xbf\xbf\xf0\x9f\x98\x80\"\n");
}
END_TEST

START_TEST(test_utf8_invalid)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} t[] = {
		/* A stray continuation byte, a lone lead byte at the end. */
		{ "a\x80z", 3, "\"a\\ufffdz\"\n" },
		{ "a\xc3", 2, "\"a\\ufffd\"\n" },
		/* Overlong '/' (C0 AF), overlong 3- and 4-byte forms. */
		{ "\xc0\xaf", 2, "\"\\ufffd\\ufffd\"\n" },
		{ "\xe0\x80\xaf", 3, "\"\\ufffd\\ufffd\\ufffd\"\n" },
		{ "\xf0\x80\x80\xaf", 4,
		    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n" },
		/* A surrogate (U+D800), above U+10FFFF, 0xff. */
		{ "\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"\n" },
		{ "\xf4\x90\x80\x80", 4,
		    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n" },
		{ "\xff", 1, "\"\\ufffd\"\n" },
		/* A truncated sequence before a valid character. */
		{ "\xe2\x82" "A", 3, "\"\\ufffd\\ufffdA\"\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_msg(strcmp(quoted(t[i].in, t[i].len), t[i].out) == 0,
		    "case %zu: got %s", i, buf);
		teardown();
	}
}
END_TEST

START_TEST(test_keys_escaped)
{
	struct jsonw w;

	start(&w);
	jsonw_obj_begin(&w);
	jsonw_ku64(&w, "a\"\n\xff", 0);
	jsonw_obj_end(&w);
	ck_assert_str_eq(finish(&w, 0), "{\n  \"a\\\"\\n\\ufffd\": 0\n}\n");
}
END_TEST

START_TEST(test_integers)
{
	struct jsonw w;

	start(&w);
	jsonw_arr_begin(&w);
	jsonw_u64(&w, UINT64_MAX);
	jsonw_u64(&w, 0);
	jsonw_i64(&w, INT64_MIN);
	jsonw_i64(&w, INT64_MAX);
	jsonw_arr_end(&w);
	ck_assert_str_eq(finish(&w, 0), "[\n  18446744073709551615,\n  0,\n"
	    "  -9223372036854775808,\n  9223372036854775807\n]\n");
}
END_TEST

START_TEST(test_doubles_shortest)
{
	char b[JSONW_DBL_LEN];

	ck_assert_str_eq(jsonw_fmt_double(b, 0.1), "0.1");
	ck_assert_str_eq(jsonw_fmt_double(b, 1.0), "1");
	ck_assert_str_eq(jsonw_fmt_double(b, -2.5), "-2.5");
	ck_assert_str_eq(jsonw_fmt_double(b, 100.0), "100");
	ck_assert_str_eq(jsonw_fmt_double(b, -0.0), "-0");
	ck_assert_str_eq(jsonw_fmt_double(b, 1e300), "1e+300");
	ck_assert_str_eq(jsonw_fmt_double(b, 1.5e-7), "1.5e-07");
	ck_assert_str_eq(jsonw_fmt_double(b, 0.1 + 0.2),
	    "0.30000000000000004");
	ck_assert_str_eq(jsonw_fmt_double(b, INFINITY), "null");
	ck_assert_str_eq(jsonw_fmt_double(b, -INFINITY), "null");
	ck_assert_str_eq(jsonw_fmt_double(b, NAN), "null");
}
END_TEST

/* Every double written reads back to the same bits. */
START_TEST(test_doubles_round_trip)
{
	char b[JSONW_DBL_LEN];
	uint64_t x = 0x9e3779b97f4a7c15ULL, bits;
	double d;
	int i;

	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		bits = x;
		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			continue;
		jsonw_fmt_double(b, d);
		ck_assert_msg(strtod(b, NULL) == d, "%s", b);
		ck_assert_uint_le(strlen(b), 24);
	}
	jsonw_fmt_double(b, 5e-324);
	ck_assert(strtod(b, NULL) == 5e-324);
	jsonw_fmt_double(b, 1.7976931348623157e308);
	ck_assert(strtod(b, NULL) == 1.7976931348623157e308);
}
END_TEST

START_TEST(test_non_finite_value)
{
	struct jsonw w;

	start(&w);
	jsonw_obj_begin(&w);
	jsonw_kdouble(&w, "x", NAN);
	jsonw_kdouble(&w, "y", 0.5);
	jsonw_obj_end(&w);
	ck_assert_str_eq(finish(&w, 0), "{\n  \"x\": null,\n  \"y\": 0.5\n}\n");
}
END_TEST

START_TEST(test_misuse)
{
	struct jsonw w;

	/* A value where a key is due. */
	start(&w);
	jsonw_obj_begin(&w);
	jsonw_u64(&w, 1);
	jsonw_obj_end(&w);
	finish(&w, -1);
	teardown();
	/* A key in an array. */
	start(&w);
	jsonw_arr_begin(&w);
	jsonw_key(&w, "k");
	jsonw_arr_end(&w);
	finish(&w, -1);
	teardown();
	/* Mismatched end, unclosed, two top-level values, key without
	   value. */
	start(&w);
	jsonw_arr_begin(&w);
	jsonw_obj_end(&w);
	finish(&w, -1);
	teardown();
	start(&w);
	jsonw_obj_begin(&w);
	finish(&w, -1);
	teardown();
	start(&w);
	jsonw_null(&w);
	jsonw_null(&w);
	finish(&w, -1);
	teardown();
	start(&w);
	jsonw_obj_begin(&w);
	jsonw_key(&w, "k");
	jsonw_obj_end(&w);
	finish(&w, -1);
	teardown();
	/* Nothing at all. */
	start(&w);
	finish(&w, -1);
}
END_TEST

START_TEST(test_depth_limit)
{
	struct jsonw w;
	int i;

	start(&w);
	for (i = 0; i < JSONW_MAX_DEPTH; i++)
		jsonw_arr_begin(&w);
	for (i = 0; i < JSONW_MAX_DEPTH; i++)
		jsonw_arr_end(&w);
	finish(&w, 0);
	teardown();
	start(&w);
	for (i = 0; i <= JSONW_MAX_DEPTH; i++)
		jsonw_arr_begin(&w);
	for (i = 0; i <= JSONW_MAX_DEPTH; i++)
		jsonw_arr_end(&w);
	finish(&w, -1);
}
END_TEST

START_TEST(test_write_error)
{
	struct jsonw w;
	FILE *f = fopen("/dev/full", "w");
	int i;

	if (f == NULL)
		return;
	jsonw_init(&w, f);
	jsonw_arr_begin(&w);
	for (i = 0; i < 10000; i++)
		jsonw_str(&w, "0123456789");
	jsonw_arr_end(&w);
	ck_assert_int_eq(jsonw_finish(&w), -1);
	fclose(f);
}
END_TEST

static Suite *
jsonw_suite(void)
{
	Suite *s = suite_create("jsonw");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_utf8_valid);
	tcase_add_test(tc, test_utf8_invalid);
	tcase_add_test(tc, test_keys_escaped);
	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_doubles_shortest);
	tcase_add_test(tc, test_doubles_round_trip);
	tcase_add_test(tc, test_non_finite_value);
	tcase_add_test(tc, test_misuse);
	tcase_add_test(tc, test_depth_limit);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(jsonw_suite());
}
