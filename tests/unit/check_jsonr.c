/*
 * lib/jsonr.c: the strict JSON reader.  Valid texts (y_) and invalid ones
 * (n_, each with the exact error it must give), in the manner of
 * JSONTestSuite; numbers at the edges of u64/i64/double; strings and
 * their escapes; the depth limit; duplicate names, small and indexed
 * objects; error positions; every allocation failing in turn.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/util.h"
#include "unit.h"

#define ERRLEN	256

/* Parses a NUL-terminated text; fails the test when it does not parse. */
static struct jv *
parse_ok(const char *text)
{
	char err[ERRLEN];
	struct jv *v;

	v = jv_parse(text, strlen(text), err, sizeof(err));
	ck_assert_msg(v != NULL, "%s: %s", text, err);
	return v;
}

/* Valid texts: each must parse, to a root of the given type. */
static const struct {
	const char	*text;
	enum jv_type	 type;
} valid[] = {
	{ "{}", JV_OBJ },
	{ "[]", JV_ARR },
	{ " \t\r\n[ \t\r\n] \t\r\n", JV_ARR },
	{ "0", JV_NUM },
	{ "-0", JV_NUM },
	{ "-0.0e-0", JV_NUM },
	{ "1E+2", JV_NUM },
	{ "1e-2", JV_NUM },
	{ "123.456e78", JV_NUM },
	{ "1e-999", JV_NUM },			/* underflow: 0 */
	{ "\"\"", JV_STR },
	{ "\"\\u0000\"", JV_STR },
	{ "\"\\ud83d\\ude00\"", JV_STR },
	{ "\"\xf0\x9f\x98\x80\"", JV_STR },
	{ "\"\xf4\x8f\xbf\xbf\"", JV_STR },	/* U+10FFFF */
	{ "\"\xef\xbf\xbf\"", JV_STR },		/* U+FFFF */
	{ "\"\x7f\"", JV_STR },			/* DEL is allowed */
	{ "\"\\/\\\\\\\"\\b\\f\\n\\r\\t\"", JV_STR },
	{ "true", JV_BOOL },
	{ "false", JV_BOOL },
	{ "null", JV_NULL },
	{ "[null,true,false,0,\"\",[],{}]", JV_ARR },
	{ "{\"a\":{\"a\":{\"a\":1}},\"b\":[{\"a\":1},{\"a\":2}]}", JV_OBJ },
	{ "{\"\":0}", JV_OBJ },
	{ "{\"a\":1,\"A\":2,\"a \":3,\"\\u0000a\":4,\"a\\u0000\":5}", JV_OBJ },
	{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	    JV_ARR },
};

START_TEST(test_valid)
{
	struct jv *v = parse_ok(valid[_i].text);

	ck_assert_int_eq(jv_type(v), valid[_i].type);
	jv_free(v);
}
END_TEST

/* Invalid texts and the exact error each gives. */
static const struct {
	const char	*text;
	size_t		 len;		/* 0: strlen(text) */
	const char	*err;
} invalid[] = {
	/* Structure. */
	{ "", 0, "line 1, column 1: expected a value, found end of text" },
	{ " \n ", 0,
	    "line 2, column 2: expected a value, found end of text" },
	{ "[1,]", 0, "line 1, column 3: comma before ']'" },
	{ "[1,\n  ]", 0, "line 1, column 3: comma before ']'" },
	{ "{\"a\":1,}", 0, "line 1, column 7: comma before '}'" },
	{ "[,1]", 0, "line 1, column 2: expected a value, found ','" },
	{ "[1 2]", 0, "line 1, column 4: expected ',' or ']', found '2'" },
	{ "[1,,2]", 0, "line 1, column 4: expected a value, found ','" },
	{ "[1", 0, "line 1, column 3: expected ',' or ']', found end of text" },
	{ "[", 0, "line 1, column 2: expected a value, found end of text" },
	{ "]", 0, "line 1, column 1: expected a value, found ']'" },
	{ "{", 0,
	    "line 1, column 2: expected a member name, found end of text" },
	{ "{1:2}", 0, "line 1, column 2: expected a member name, found '1'" },
	{ "{'a':1}", 0,
	    "line 1, column 2: expected a member name, found '''" },
	{ "{a:1}", 0, "line 1, column 2: expected a member name, found 'a'" },
	{ "{\"a\" 1}", 0, "line 1, column 6: expected ':', found '1'" },
	{ "{\"a\":}", 0, "line 1, column 6: expected a value, found '}'" },
	{ "{\"a\":1 \"b\":2}", 0,
	    "line 1, column 8: expected ',' or '}', found '\"'" },
	{ "{\"a\":1]", 0, "line 1, column 7: expected ',' or '}', found ']'" },
	{ "[1]]", 0, "line 1, column 4: expected end of text after the "
	    "value, found ']'" },
	{ "1 2", 0, "line 1, column 3: expected end of text after the "
	    "value, found '2'" },
	{ "{}x", 0, "line 1, column 3: expected end of text after the "
	    "value, found 'x'" },
	{ "[1]\x00", 4, "line 1, column 4: expected end of text after the "
	    "value, found byte 0x00" },
	{ "\x00", 1, "line 1, column 1: expected a value, found byte 0x00" },
	{ "\f[]", 0, "line 1, column 1: expected a value, found byte 0x0c" },
	{ "[\xa0]", 0, "line 1, column 2: expected a value, found byte 0xa0" },
	{ "\xef\xbb\xbf{}", 0,
	    "line 1, column 1: byte order mark (not allowed in JSON)" },
	/* Literals. */
	{ "tru", 0, "line 1, column 1: invalid literal (not true)" },
	{ "[True]", 0, "line 1, column 2: expected a value, found 'T'" },
	{ "nul", 0, "line 1, column 1: invalid literal (not null)" },
	{ "[falsey]", 0, "line 1, column 7: expected ',' or ']', found 'y'" },
	{ "NaN", 0, "line 1, column 1: expected a value, found 'N'" },
	{ "[Infinity]", 0, "line 1, column 2: expected a value, found 'I'" },
	/* Numbers. */
	{ "01", 0, "line 1, column 1: number with a leading zero" },
	{ "[-012]", 0, "line 1, column 3: number with a leading zero" },
	{ "[00]", 0, "line 1, column 2: number with a leading zero" },
	{ "-", 0, "line 1, column 2: expected a digit, found end of text" },
	{ "[-a]", 0, "line 1, column 3: expected a digit, found 'a'" },
	{ "+1", 0, "line 1, column 1: expected a value, found '+'" },
	{ ".5", 0, "line 1, column 1: expected a value, found '.'" },
	{ "1.", 0, "line 1, column 3: expected a digit after '.', found "
	    "end of text" },
	{ "[1.e3]", 0,
	    "line 1, column 4: expected a digit after '.', found 'e'" },
	{ "1e", 0, "line 1, column 3: expected a digit in the exponent, "
	    "found end of text" },
	{ "1e+", 0, "line 1, column 4: expected a digit in the exponent, "
	    "found end of text" },
	{ "[1E-x]", 0, "line 1, column 5: expected a digit in the "
	    "exponent, found 'x'" },
	{ "0x10", 0, "line 1, column 2: expected end of text after the "
	    "value, found 'x'" },
	{ "1e999", 0,
	    "line 1, column 1: number out of the range of a double" },
	{ "[0, -1e309]", 0,
	    "line 1, column 5: number out of the range of a double" },
	/* Strings. */
	{ "\"abc", 0, "line 1, column 1: string not terminated" },
	{ "[\"a\\\"]", 0, "line 1, column 2: string not terminated" },
	{ "\"\\", 0, "line 1, column 1: string not terminated" },
	{ "\"a\tb\"", 0,
	    "line 1, column 3: control character 0x09 in a string" },
	{ "\"a\nb\"", 0,
	    "line 1, column 3: control character 0x0a in a string" },
	{ "\"\x1f\"", 0,
	    "line 1, column 2: control character 0x1f in a string" },
	{ "\"\x00\"", 3,
	    "line 1, column 2: control character 0x00 in a string" },
	{ "\"\\x41\"", 0, "line 1, column 2: invalid escape \\x" },
	{ "\"\\'\"", 0, "line 1, column 2: invalid escape \\'" },
	{ "\"\\\xc3\xa9\"", 0, "line 1, column 2: invalid escape" },
	{ "\"\\u12\"", 0,
	    "line 1, column 2: \\u not followed by 4 hex digits" },
	{ "\"\\u12G4\"", 0,
	    "line 1, column 2: \\u not followed by 4 hex digits" },
	{ "\"\\U0041\"", 0, "line 1, column 2: invalid escape \\U" },
	{ "\"\\ud800\"", 0,
	    "line 1, column 2: lone high surrogate \\ud800" },
	{ "\"\\uDBFFx\"", 0,
	    "line 1, column 2: lone high surrogate \\udbff" },
	{ "\"\\ud800\\n\"", 0,
	    "line 1, column 2: lone high surrogate \\ud800" },
	{ "\"\\ud800\\u0041\"", 0,
	    "line 1, column 2: lone high surrogate \\ud800" },
	{ "\"\\ud800\\ud800\"", 0,
	    "line 1, column 2: lone high surrogate \\ud800" },
	{ "\"x\\udc00\"", 0,
	    "line 1, column 3: lone low surrogate \\udc00" },
	{ "\"\\ud800\\u", 0, "line 1, column 1: string not terminated" },
	{ "\"\\ud800\\udc0\"", 0,
	    "line 1, column 2: lone high surrogate \\ud800" },
	/* UTF-8. */
	{ "\"\xff\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\x80\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xc3\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xc3", 0, "line 1, column 1: string not terminated" },
	{ "\"\xc0\xaf\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xc1\xbf\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xe0\x80\xaf\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xe0\x9f\xbf\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xed\xa0\x80\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xed\xbf\xbf\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xf0\x80\x80\xaf\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xf0\x8f\xbf\xbf\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xf4\x90\x80\x80\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xf5\x80\x80\x80\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"\xe2\x82\"", 0, "line 1, column 2: invalid UTF-8" },
	{ "\"ab\xe2\x82x\"", 0, "line 1, column 4: invalid UTF-8" },
	{ "\"\xf0\x9f\x98\"", 0, "line 1, column 2: invalid UTF-8" },
	/* Duplicate names, also after escapes are decoded. */
	{ "{\"a\":1,\"a\":2}", 0, "line 1, column 8: duplicate key \"a\"" },
	{ "{\"a\":1,\"b\":{\"a\":1,\"b\":2},\n \"\\u0061\":3}", 0,
	    "line 2, column 2: duplicate key \"a\"" },
	{ "{\"\":1,\"\":2}", 0, "line 1, column 7: duplicate key \"\"" },
	{ "{\"\\u0000\":1,\"\\u0000\":2}", 0,
	    "line 1, column 13: duplicate key \"\\x00\"" },
	/* Errors in nested values are reported where they are. */
	{ "{\"a\":[1,\n{\"b\":\n  [tru]}]}", 0,
	    "line 3, column 4: invalid literal (not true)" },
	/* Columns count bytes. */
	{ "[\"\xc3\xa9\xc3\xa9\", x]", 0,
	    "line 1, column 10: expected a value, found 'x'" },
	{ "[\r\n\r\n1,\r\n x]", 0,
	    "line 4, column 2: expected a value, found 'x'" },
};

START_TEST(test_invalid)
{
	const char *text = invalid[_i].text;
	size_t len = invalid[_i].len != 0 ? invalid[_i].len : strlen(text);
	char err[ERRLEN];
	struct jv *v;

	memset(err, 'z', sizeof(err));
	v = jv_parse(text, len, err, sizeof(err));
	ck_assert_msg(v == NULL, "%s: parsed", text);
	ck_assert_str_eq(err, invalid[_i].err);
	/* Also from a buffer of exactly its length (no NUL after it). */
	{
		char *copy = malloc(len != 0 ? len : 1);

		ck_assert_ptr_nonnull(copy);
		memcpy(copy, text, len);
		ck_assert_ptr_null(jv_parse(copy, len, err, sizeof(err)));
		ck_assert_str_eq(err, invalid[_i].err);
		free(copy);
	}
}
END_TEST

/* The error buffer: NULL or tiny is fine, and it is always ended. */
START_TEST(test_errbuf)
{
	char err[8];

	ck_assert_ptr_null(jv_parse("[1,]", 4, NULL, 0));
	ck_assert_ptr_null(jv_parse("[1,]", 4, NULL, 100));
	memset(err, 'z', sizeof(err));
	ck_assert_ptr_null(jv_parse("[1,]", 4, err, 0));
	ck_assert_int_eq(err[0], 'z');
	ck_assert_ptr_null(jv_parse("[1,]", 4, err, sizeof(err)));
	ck_assert_str_eq(err, "line 1,");
	ck_assert_ptr_null(jv_parse("[1,]", 4, err, 1));
	ck_assert_str_eq(err, "");
	/* A success leaves an empty message. */
	memset(err, 'z', sizeof(err));
	jv_free(jv_parse("1", 1, err, sizeof(err)));
	ck_assert_str_eq(err, "");
	/* NULL text with no length is the empty text. */
	ck_assert_ptr_null(jv_parse(NULL, 0, NULL, 0));
	jv_free(NULL);
}
END_TEST

START_TEST(test_numbers)
{
	struct jv *v;
	uint64_t u;
	int64_t i;
	double d;

	v = parse_ok("[18446744073709551615, 18446744073709551616, 0, -0,"
	    "9223372036854775807, 9223372036854775808,"
	    "-9223372036854775808, -9223372036854775809, 1.0, 1e2, 1E0,"
	    "-1, 1e308, 1e-999, -0.0, 2.5, 1e-320,"
	    "123456789012345678901234567890]");
	/* UINT64_MAX exactly, not through a double. */
	ck_assert_int_eq(jv_u64(jv_at(v, 0), &u), 0);
	ck_assert(u == UINT64_MAX);
	ck_assert_int_eq(jv_i64(jv_at(v, 0), &i), -1);
	ck_assert_int_eq(jv_num(jv_at(v, 0), &d), 0);
	ck_assert(d == 18446744073709551616.0);
	/* 2^64 does not fit; *out is left alone. */
	u = 7;
	ck_assert_int_eq(jv_u64(jv_at(v, 1), &u), -1);
	ck_assert(u == 7);
	ck_assert_int_eq(jv_num(jv_at(v, 1), &d), 0);
	ck_assert(d == 18446744073709551616.0);
	ck_assert_int_eq(jv_u64(jv_at(v, 2), &u), 0);
	ck_assert(u == 0);
	/* -0 is the integer 0. */
	ck_assert_int_eq(jv_u64(jv_at(v, 3), &u), 0);
	ck_assert(u == 0);
	ck_assert_int_eq(jv_i64(jv_at(v, 3), &i), 0);
	ck_assert(i == 0);
	ck_assert_int_eq(jv_num(jv_at(v, 3), &d), 0);
	ck_assert(d == 0 && signbit(d));
	/* The int64 edges. */
	ck_assert_int_eq(jv_i64(jv_at(v, 4), &i), 0);
	ck_assert(i == INT64_MAX);
	ck_assert_int_eq(jv_i64(jv_at(v, 5), &i), -1);
	ck_assert_int_eq(jv_u64(jv_at(v, 5), &u), 0);
	ck_assert(u == (uint64_t)INT64_MAX + 1);
	ck_assert_int_eq(jv_i64(jv_at(v, 6), &i), 0);
	ck_assert(i == INT64_MIN);
	ck_assert_int_eq(jv_u64(jv_at(v, 6), &u), -1);
	ck_assert_int_eq(jv_i64(jv_at(v, 7), &i), -1);
	/* A fraction or an exponent is no integer, even when whole. */
	ck_assert_int_eq(jv_u64(jv_at(v, 8), &u), -1);
	ck_assert_int_eq(jv_i64(jv_at(v, 8), &i), -1);
	ck_assert_int_eq(jv_u64(jv_at(v, 9), &u), -1);
	ck_assert_int_eq(jv_u64(jv_at(v, 10), &u), -1);
	ck_assert_int_eq(jv_num(jv_at(v, 9), &d), 0);
	ck_assert(d == 100);
	ck_assert_int_eq(jv_i64(jv_at(v, 11), &i), 0);
	ck_assert(i == -1);
	ck_assert_int_eq(jv_u64(jv_at(v, 11), &u), -1);
	ck_assert_int_eq(jv_num(jv_at(v, 12), &d), 0);
	ck_assert(d == 1e308);
	/* Underflow reads as 0 (or a subnormal). */
	ck_assert_int_eq(jv_num(jv_at(v, 13), &d), 0);
	ck_assert(d == 0);
	ck_assert_int_eq(jv_num(jv_at(v, 14), &d), 0);
	ck_assert(d == 0 && signbit(d));
	ck_assert_int_eq(jv_num(jv_at(v, 15), &d), 0);
	ck_assert(d == 2.5);
	ck_assert_int_eq(jv_num(jv_at(v, 16), &d), 0);
	ck_assert(d > 0 && d < 1e-300);
	ck_assert_int_eq(jv_u64(jv_at(v, 17), &u), -1);
	ck_assert_int_eq(jv_num(jv_at(v, 17), &d), 0);
	ck_assert(fabs(d / 1.2345678901234568e29 - 1) < 1e-15);
	/* Not numbers. */
	ck_assert_int_eq(jv_num(v, &d), -1);
	ck_assert_int_eq(jv_u64(v, &u), -1);
	ck_assert_int_eq(jv_i64(v, &i), -1);
	ck_assert_int_eq(jv_num(NULL, &d), -1);
	ck_assert_int_eq(jv_u64(NULL, &u), -1);
	ck_assert_int_eq(jv_i64(NULL, &i), -1);
	jv_free(v);
}
END_TEST

START_TEST(test_strings)
{
	struct jv *v;
	const char *s;
	size_t len;

	v = parse_ok("[\"plain\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\","
	    "\"\\u0041\\u00e9\\u20AC\\uffff\", \"\\ud83d\\ude00\","
	    "\"a\\u0000b\", \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", \"\","
	    "\"\\uDBFF\\uDFFF\", \"\\u0080\\u07ff\\u0800\"]");
	s = jv_str(jv_at(v, 0), &len);
	ck_assert_str_eq(s, "plain");
	ck_assert_uint_eq(len, 5);
	ck_assert_str_eq(jv_str(jv_at(v, 1), NULL), "\"\\/\b\f\n\r\t");
	ck_assert_str_eq(jv_str(jv_at(v, 2), &len),
	    "A\xc3\xa9\xe2\x82\xac\xef\xbf\xbf");
	ck_assert_uint_eq(len, 9);
	ck_assert_str_eq(jv_str(jv_at(v, 3), &len), "\xf0\x9f\x98\x80");
	ck_assert_uint_eq(len, 4);
	/* \u0000: a NUL inside, the length tells. */
	s = jv_str(jv_at(v, 4), &len);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(memcmp(s, "a\0b", 4), 0);
	ck_assert_str_eq(jv_str(jv_at(v, 5), &len),
	    "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	ck_assert_str_eq(jv_str(jv_at(v, 6), &len), "");
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(jv_str(jv_at(v, 7), NULL), "\xf4\x8f\xbf\xbf");
	ck_assert_str_eq(jv_str(jv_at(v, 8), NULL),
	    "\xc2\x80\xdf\xbf\xe0\xa0\x80");
	ck_assert_ptr_null(jv_str(v, &len));
	ck_assert_ptr_null(jv_str(NULL, &len));
	jv_free(v);
}
END_TEST

START_TEST(test_access)
{
	struct jv *v;
	const struct jv *a;
	int b;

	v = parse_ok("{\"a\": {\"b\": {\"c\": 42}, \"x.y\": true},"
	    " \"list\": [1, \"two\", null], \"f\": false, \"\": 5}");
	ck_assert_int_eq(jv_type(v), JV_OBJ);
	ck_assert_uint_eq(jv_len(v), 4);
	ck_assert_str_eq(jv_key_at(v, 0), "a");
	ck_assert_str_eq(jv_key_at(v, 1), "list");
	ck_assert_str_eq(jv_key_at(v, 3), "");
	ck_assert_uint_eq(jv_key_len(v, 1), 4);
	ck_assert_ptr_null(jv_key_at(v, 4));
	ck_assert_uint_eq(jv_key_len(v, 4), 0);
	ck_assert_ptr_eq(jv_at(v, 1), jv_get(v, "list"));
	ck_assert_ptr_null(jv_at(v, 4));
	ck_assert_ptr_null(jv_get(v, "nope"));
	ck_assert_ptr_null(jv_get(v, "lis"));
	ck_assert_ptr_null(jv_get(v, NULL));
	ck_assert_ptr_nonnull(jv_get(v, ""));
	/* Paths. */
	ck_assert_int_eq(jv_type(jv_path(v, "a.b.c")), JV_NUM);
	ck_assert_ptr_eq(jv_path(v, "a.b"), jv_get(jv_get(v, "a"), "b"));
	ck_assert_ptr_eq(jv_path(v, "list"), jv_get(v, "list"));
	ck_assert_ptr_null(jv_path(v, "a.b.c.d"));	/* c not an object */
	ck_assert_ptr_null(jv_path(v, "a.x.y"));	/* dots split */
	ck_assert_ptr_null(jv_path(v, "a.b."));
	ck_assert_ptr_null(jv_path(v, "a..b"));
	ck_assert_ptr_null(jv_path(v, "list.0"));
	ck_assert_ptr_null(jv_path(v, NULL));
	ck_assert_ptr_null(jv_path(NULL, "a"));
	ck_assert_ptr_eq(jv_path(v, ""), jv_get(v, ""));
	ck_assert_int_eq(jv_bool(jv_get(jv_get(v, "a"), "x.y"), &b), 0);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(jv_bool(jv_get(v, "f"), &b), 0);
	ck_assert_int_eq(b, 0);
	ck_assert_int_eq(jv_bool(jv_get(v, "list"), &b), -1);
	ck_assert_int_eq(jv_bool(NULL, &b), -1);
	/* Arrays. */
	a = jv_get(v, "list");
	ck_assert_int_eq(jv_type(a), JV_ARR);
	ck_assert_uint_eq(jv_len(a), 3);
	ck_assert_int_eq(jv_type(jv_at(a, 0)), JV_NUM);
	ck_assert_int_eq(jv_type(jv_at(a, 1)), JV_STR);
	ck_assert_int_eq(jv_type(jv_at(a, 2)), JV_NULL);
	ck_assert_ptr_null(jv_at(a, 3));
	ck_assert_ptr_null(jv_key_at(a, 0));
	ck_assert_ptr_null(jv_get(a, "0"));
	/* Scalars have no length, elements or members. */
	ck_assert_uint_eq(jv_len(jv_at(a, 1)), 0);
	ck_assert_ptr_null(jv_at(jv_at(a, 1), 0));
	ck_assert_uint_eq(jv_len(NULL), 0);
	ck_assert_ptr_null(jv_at(NULL, 0));
	ck_assert_int_eq(jv_type(NULL), JV_NULL);
	jv_free(v);
	/* A name with a NUL in it matches no C string. */
	v = parse_ok("{\"a\\u0000b\": 1, \"a\": 2}");
	ck_assert_uint_eq(jv_key_len(v, 0), 3);
	ck_assert_int_eq(memcmp(jv_key_at(v, 0), "a\0b", 4), 0);
	ck_assert_ptr_eq(jv_get(v, "a"), jv_at(v, 1));
	jv_free(v);
}
END_TEST

/* Builds "[[[...1...]]]" nested n deep (or objects), in a new buffer. */
static char *
nested(int n, int obj)
{
	char *s = malloc((size_t)n * 6 + 2), *p = s;
	int i;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < n; i++)
		if (obj) {
			memcpy(p, "{\"a\":", 5);
			p += 5;
		} else
			*p++ = '[';
	*p++ = '1';
	for (i = 0; i < n; i++)
		*p++ = obj ? '}' : ']';
	*p = '\0';
	return s;
}

START_TEST(test_depth)
{
	char err[ERRLEN], *s;
	struct jv *v;
	const struct jv *e;
	int i, obj = _i;

	/* JV_MAX_DEPTH levels are fine. */
	s = nested(JV_MAX_DEPTH, obj);
	v = parse_ok(s);
	for (e = v, i = 0; i < JV_MAX_DEPTH; i++)
		e = jv_at(e, 0);
	ck_assert_int_eq(jv_type(e), JV_NUM);
	jv_free(v);
	free(s);
	/* One more is an error at the bracket that goes too deep. */
	s = nested(JV_MAX_DEPTH + 1, obj);
	ck_assert_ptr_null(jv_parse(s, strlen(s), err, sizeof(err)));
	ck_assert_str_eq(err, obj ? "line 1, column 1281: nested deeper "
	    "than 256" : "line 1, column 257: nested deeper than 256");
	free(s);
	/* Far deeper, unterminated: the same error, no stack overflow. */
	s = nested(1000000, obj);
	s[strlen(s) / 2] = '\0';
	ck_assert_ptr_null(jv_parse(s, strlen(s), err, sizeof(err)));
	ck_assert_str_eq(err, obj ? "line 1, column 1281: nested deeper "
	    "than 256" : "line 1, column 257: nested deeper than 256");
	free(s);
}
END_TEST

/*
 * Writes an object of n members "k0".."k{n-1}" with value i, with
 * member `dup' (if < n) named as member `dupof' instead.
 */
static char *
big_object(size_t n, size_t dup, size_t dupof)
{
	char *s = malloc(n * 32 + 3), *p = s;
	size_t i;

	ck_assert_ptr_nonnull(s);
	*p++ = '{';
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s\"k%zu\":%zu", i > 0 ? "," : "",
		    i == dup ? dupof : i, i);
	*p++ = '}';
	*p = '\0';
	return s;
}

/* Objects around the indexing threshold and large ones. */
static const size_t sizes[] = { 1, 2, 63, 64, 65, 66, 200, 5000 };

START_TEST(test_big_object)
{
	size_t n = sizes[_i], i;
	char err[ERRLEN], key[64], *s;
	struct jv *v;
	uint64_t u;

	s = big_object(n, SIZE_MAX, 0);
	v = parse_ok(s);
	free(s);
	ck_assert_uint_eq(jv_len(v), n);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		ck_assert_int_eq(jv_u64(jv_get(v, key), &u), 0);
		ck_assert(u == i);
		ck_assert_str_eq(jv_key_at(v, i), key);
		ck_assert_ptr_eq(jv_at(v, i), jv_get(v, key));
	}
	ck_assert_ptr_null(jv_get(v, "k"));
	ck_assert_ptr_null(jv_get(v, "k-1"));
	snprintf(key, sizeof(key), "k%zu", n);
	ck_assert_ptr_null(jv_get(v, key));
	ck_assert_ptr_null(jv_get(v, ""));
	ck_assert_ptr_null(jv_get(v, "zzzzzzzzzzzzzzzzzzzz"));
	jv_free(v);
	if (n < 2)
		return;
	/* A duplicate: the last member repeats the first, the middle. */
	s = big_object(n, n - 1, 0);
	ck_assert_ptr_null(jv_parse(s, strlen(s), err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, ": duplicate key \"k0\""));
	ck_assert_ptr_eq(strstr(err, "line 1, column "), err);
	i = strtoul(err + 15, NULL, 10);
	ck_assert_int_eq(strncmp(s + i - 1, "\"k0\"", 4), 0);
	ck_assert_uint_gt(i, 1);
	free(s);
	if (n < 4)
		return;
	s = big_object(n, n - 1, n / 2);
	ck_assert_ptr_null(jv_parse(s, strlen(s), err, sizeof(err)));
	snprintf(key, sizeof(key), ": duplicate key \"k%zu\"", n / 2);
	ck_assert_ptr_nonnull(strstr(err, key));
	free(s);
}
END_TEST

/*
 * Several duplicates in an indexed object: the first second occurrence
 * in the text is reported, as for a small object.
 */
START_TEST(test_dup_first)
{
	char *s = big_object(100, 90, 3), err[ERRLEN], *p;

	/* Member 70 also repeats "k5"; it comes before member 90. */
	p = strstr(s, "\"k70\"");
	ck_assert_ptr_nonnull(p);
	memcpy(p, "\"k5\" ", 5);
	ck_assert_ptr_null(jv_parse(s, strlen(s), err, sizeof(err)));
	ck_assert_str_eq(strchr(err, ':'), ": duplicate key \"k5\"");
	ck_assert_uint_eq(strtoul(err + 15, NULL, 10), (size_t)(p - s) + 1);
	free(s);
	/* A long name is cut in the message. */
	s = strdup("{\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaa\":1,\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\":2}");
	ck_assert_ptr_null(jv_parse(s, strlen(s), err, sizeof(err)));
	ck_assert_str_eq(err, "line 1, column 81: duplicate key "
	    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\"");
	free(s);
}
END_TEST

/*
 * Every allocation fails in turn: each time an "out of memory" error,
 * no leak (the sanitizer and valgrind runs see those), until the budget
 * is enough and the tree is right.
 */
START_TEST(test_oom)
{
	static const char text[] = "{\"a\": [1, 2, {\"b\": \"x\\u00e9\"}],"
	    " \"c\": [[], {}, null, true, -1.5e3], \"d\": \"long string of "
	    "text that needs room\"}";
	char err[ERRLEN], *big;
	struct jv *v;
	size_t max, fails = 0;

	for (max = 0;; max += 8) {
		v = jv_parse_max(text, strlen(text), max, err, sizeof(err));
		if (v != NULL)
			break;
		ck_assert_ptr_nonnull(strstr(err, ": out of memory"));
		fails++;
	}
	ck_assert_uint_gt(fails, 10);
	ck_assert_int_eq(jv_type(jv_path(v, "a")), JV_ARR);
	ck_assert_str_eq(jv_str(jv_get(jv_at(jv_get(v, "a"), 2), "b"), NULL),
	    "x\xc3\xa9");
	jv_free(v);
	/* A big object (indexed) and a long array. */
	big = big_object(3000, SIZE_MAX, 0);
	for (max = 0; max < 4000000; max += 4096) {
		v = jv_parse_max(big, strlen(big), max, err, sizeof(err));
		if (v != NULL)
			break;
		ck_assert_ptr_nonnull(strstr(err, ": out of memory"));
	}
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(jv_len(v), 3000);
	jv_free(v);
	free(big);
}
END_TEST

/*
 * Long texts: 64 MiB of white space, lines counted past it; a string of
 * 16 MiB.
 */
START_TEST(test_long)
{
	size_t n = (size_t)64 << 20, i;
	char err[ERRLEN], *s;
	struct jv *v;
	size_t len;

	s = malloc(n + 16);
	ck_assert_ptr_nonnull(s);
	memset(s, '\n', n);
	memcpy(s + n, "{\"a\":1}", 7);
	v = jv_parse(s, n + 7, err, sizeof(err));
	ck_assert_msg(v != NULL, "%s", err);
	ck_assert_uint_eq(jv_len(v), 1);
	jv_free(v);
	memcpy(s + n, "{\"a\":1,}", 8);
	ck_assert_ptr_null(jv_parse(s, n + 8, err, sizeof(err)));
	ck_assert_str_eq(err, "line 67108865, column 7: comma before '}'");
	/* A 16 MiB string. */
	n = (size_t)16 << 20;
	s[0] = '"';
	for (i = 1; i <= n; i++)
		s[i] = (char)('a' + i % 26);
	s[n + 1] = '"';
	v = jv_parse(s, n + 2, err, sizeof(err));
	ck_assert_msg(v != NULL, "%s", err);
	ck_assert_ptr_nonnull(jv_str(v, &len));
	ck_assert_uint_eq(len, n);
	ck_assert_int_eq(memcmp(jv_str(v, NULL), s + 1, n), 0);
	jv_free(v);
	free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("jsonr");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_valid, 0, (int)nitems(valid));
	tcase_add_loop_test(tc, test_invalid, 0, (int)nitems(invalid));
	tcase_add_test(tc, test_errbuf);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_access);
	tcase_add_loop_test(tc, test_depth, 0, 2);
	tcase_add_loop_test(tc, test_big_object, 0, (int)nitems(sizes));
	tcase_add_test(tc, test_dup_first);
	tcase_add_test(tc, test_oom);
	tcase_add_test(tc, test_long);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
