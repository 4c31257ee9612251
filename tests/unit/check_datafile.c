/*
 * lib/datafile.c: the CSV (RFC 4180) and JSON Lines readers of --data:
 * exact values by row and column, every mistake with its line.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/datafile.h"
#include "unit.h"

/* Parses `text' (a copy of exactly its bytes) as "t.csv" or "t.jsonl". */
static int
parse(struct datafile *d, const char *text, size_t len, int jsonl,
    char *err, size_t errlen)
{
	char *copy = malloc(len + 1);

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, len);
	copy[len] = '\0';
	err[0] = '\0';
	return datafile_parse(d, copy, len, jsonl, 0, jsonl ? "t.jsonl" :
	    "t.csv", err, errlen);
}

/* Checks that the value at (row, col) is exactly `want' (len bytes). */
static void
expect_val(const struct datafile *d, size_t row, size_t col,
    const char *want, size_t wlen)
{
	size_t len;
	const char *v = datafile_value(d, row, col, &len);

	ck_assert_msg(len == wlen && memcmp(v, want, len) == 0,
	    "row %zu column %zu: '%.*s' (%zu bytes), expected '%s'", row, col,
	    (int)len, v, len, want);
}

#define EXPECT(d, row, col, s)	expect_val(d, row, col, s, sizeof(s) - 1)

/* Parses good input, failing with the message otherwise. */
static void
good(struct datafile *d, const char *text, int jsonl)
{
	char err[256];

	ck_assert_msg(parse(d, text, strlen(text), jsonl, err,
	    sizeof(err)) == 0, "%s", err);
}

/* Parses bad input: it must fail with exactly `want'. */
static void
bad(const char *text, size_t len, int jsonl, const char *want)
{
	struct datafile d;
	char err[256];

	ck_assert_int_eq(parse(&d, text, len, jsonl, err, sizeof(err)), -1);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(d.vals);
	ck_assert_ptr_null(d.off);
}

#define BAD(text, jsonl, want)	bad(text, sizeof(text) - 1, jsonl, want)

START_TEST(test_csv_quoting)
{
	struct datafile d;

	good(&d, "user,password,note\n"
	    "alice,\"a,b\",plain\n"
	    "bob,\"say \"\"hi\"\"\",\"two\nlines\"\n"
	    "carol,,\"\"\n", 0);
	ck_assert_uint_eq(d.ncols, 3);
	ck_assert_uint_eq(d.nrows, 3);
	ck_assert_int_eq(datafile_col(&d, "user", 4), 0);
	ck_assert_int_eq(datafile_col(&d, "password", 8), 1);
	ck_assert_int_eq(datafile_col(&d, "note", 4), 2);
	ck_assert_int_eq(datafile_col(&d, "pass", 4), -1);
	ck_assert_int_eq(datafile_col(&d, "notes", 5), -1);
	EXPECT(&d, 0, 0, "alice");
	EXPECT(&d, 0, 1, "a,b");
	EXPECT(&d, 0, 2, "plain");
	EXPECT(&d, 1, 0, "bob");
	EXPECT(&d, 1, 1, "say \"hi\"");
	EXPECT(&d, 1, 2, "two\nlines");
	EXPECT(&d, 2, 0, "carol");
	EXPECT(&d, 2, 1, "");
	EXPECT(&d, 2, 2, "");
	datafile_free(&d);
	datafile_free(&d);	/* harmless twice */
}
END_TEST

START_TEST(test_csv_line_ends)
{
	struct datafile d;

	/* CRLF, a CRLF inside quotes kept, no final line end, blank lines
	   skipped, a byte order mark dropped, empty fields at both ends. */
	good(&d, "\xef\xbb\xbf" "a,b\r\n\r\n,x\r\n\"p\r\nq\",\n\nlast,\"\"\"\"",
	    0);
	ck_assert_uint_eq(d.ncols, 2);
	ck_assert_uint_eq(d.nrows, 3);
	ck_assert_int_eq(datafile_col(&d, "a", 1), 0);
	EXPECT(&d, 0, 0, "");
	EXPECT(&d, 0, 1, "x");
	EXPECT(&d, 1, 0, "p\r\nq");
	EXPECT(&d, 1, 1, "");
	EXPECT(&d, 2, 0, "last");
	EXPECT(&d, 2, 1, "\"");
	datafile_free(&d);

	/* One column; a NUL byte is a value's like any other. */
	ck_assert_int_eq(parse(&d, "id\n1\n2\0x\n", 9, 0, (char[64]){ 0 },
	    64), 0);
	ck_assert_uint_eq(d.nrows, 2);
	EXPECT(&d, 0, 0, "1");
	expect_val(&d, 1, 0, "2\0x", 3);
	datafile_free(&d);
}
END_TEST

START_TEST(test_csv_errors)
{
	BAD("", 0, "t.csv: no header row");
	BAD("\n\r\n", 0, "t.csv: no header row");
	BAD("a,b\n", 0, "t.csv: no data row after the header");
	BAD("a,b\n\n", 0, "t.csv: no data row after the header");
	BAD("a,b\n1,2\n3\n", 0, "t.csv:3: 1 field, the header has 2");
	BAD("a,b\n1,2\n3,4,5\n", 0, "t.csv:3: 3 fields, the header has 2");
	/* A record's line is the one it starts on. */
	BAD("a,b\n\"x\ny\",1\n1,2,3\n", 0,
	    "t.csv:4: 3 fields, the header has 2");
	BAD("a,b\n1,\"2\n", 0, "t.csv:2: a quoted field is not closed");
	BAD("a,b\n1,\"2\"x\n", 0, "t.csv:2: text after a closing quote (a "
	    "quote in a field is written \"\")");
	BAD("a,b\n1,\"2\n\"x\n", 0, "t.csv:3: text after a closing quote (a "
	    "quote in a field is written \"\")");
	BAD("a,b\n1,2\"\n", 0, "t.csv:2: a quote inside a field without "
	    "quotes (quote the field, and write the quote \"\")");
	BAD("a,,c\n1,2,3\n", 0, "t.csv:1: column 2 has no name");
	BAD("a,b,a\n1,2,3\n", 0, "t.csv:1: column 3 has the name of column 1");
}
END_TEST

START_TEST(test_jsonl)
{
	struct datafile d;

	good(&d, "{\"user\": \"alice\", \"n\": 1.50, \"ok\": true}\n"
	    "\n"
	    "  {\"ok\":false,\"user\":\"b\\\"o\\\\b\\u00e9\\ud83d\\ude00\","
	    "\"n\":-2e3}\r\n"
	    "{\"n\": 0, \"user\": \"\", \"ok\": true}", 1);
	ck_assert_uint_eq(d.ncols, 3);
	ck_assert_uint_eq(d.nrows, 3);
	ck_assert_int_eq(datafile_col(&d, "user", 4), 0);
	ck_assert_int_eq(datafile_col(&d, "n", 1), 1);
	ck_assert_int_eq(datafile_col(&d, "ok", 2), 2);
	EXPECT(&d, 0, 0, "alice");
	EXPECT(&d, 0, 1, "1.50");	/* a number as written */
	EXPECT(&d, 0, 2, "true");
	EXPECT(&d, 1, 0, "b\"o\\b\xc3\xa9\xf0\x9f\x98\x80");
	EXPECT(&d, 1, 1, "-2e3");
	EXPECT(&d, 1, 2, "false");
	EXPECT(&d, 2, 0, "");
	EXPECT(&d, 2, 1, "0");
	EXPECT(&d, 2, 2, "true");
	datafile_free(&d);
}
END_TEST

START_TEST(test_jsonl_errors)
{
	BAD("", 1, "t.jsonl: no line");
	BAD("\n \n", 1, "t.jsonl: no line");
	BAD("{}\n", 1, "t.jsonl:1: an object without any key");
	BAD("{\"a\":1}\n[1]\n", 1, "t.jsonl:2: not a JSON object");
	BAD("{\"a\":1}\n\n\"x\"\n", 1, "t.jsonl:3: not a JSON object");
	BAD("{\"a\":1,\"b\":2}\n{\"a\":3}\n", 1,
	    "t.jsonl:2: the key 'b' is missing");
	BAD("{\"a\":1}\n{\"a\":3,\"c\":4}\n", 1,
	    "t.jsonl:2: the key 'c' is not one of the first line's");
	BAD("{\"a\":1}\n{\"a\":3,\"a\":4}\n", 1,
	    "t.jsonl:2: the key 'a' is there twice");
	BAD("{\"a\":1,\"a\":2}\n", 1, "t.jsonl:1: the key 'a' is there twice");
	BAD("{\"a\":{\"b\":1}}\n", 1, "t.jsonl:1: the value of 'a' is not a "
	    "string, a number, true or false");
	BAD("{\"a\":null}\n", 1, "t.jsonl:1: the value of 'a' is not a "
	    "string, a number, true or false");
	BAD("{\"a\":01}\n", 1, "t.jsonl:1: expected ',' or '}'");
	BAD("{\"a\":1.}\n", 1, "t.jsonl:1: the value of 'a' is not a "
	    "string, a number, true or false");
	BAD("{\"a\":1}\n{\"a\":2} x\n", 1, "t.jsonl:2: text after the object");
	BAD("{\"a\":1}\n{\"a\":2\n", 1, "t.jsonl:2: expected ',' or '}'");
	BAD("{\"a\":\"x\n\"}\n", 1, "t.jsonl:1: a string is not closed");
	BAD("{\"a\":\"\\q\"}\n", 1, "t.jsonl:1: an invalid escape in a string");
	BAD("{\"a\":\"\\u12\"}\n", 1,
	    "t.jsonl:1: a \\u escape needs 4 hex digits");
	BAD("{\"a\":\"\\udc00\"}\n", 1,
	    "t.jsonl:1: a lone surrogate in a \\u escape");
	BAD("{\"a\":\"\\ud800x\"}\n", 1,
	    "t.jsonl:1: a lone surrogate in a \\u escape");
	BAD("{\"a\":\"\t\"}\n", 1, "t.jsonl:1: a control character in a "
	    "string");
	BAD("{a:1}\n", 1, "t.jsonl:1: expected a key in quotes");
	BAD("{\"\": 1.5}\n", 1, "t.jsonl:1: an empty key");
	BAD("{\"a\" 1}\n", 1, "t.jsonl:1: expected ':' after a key");
}
END_TEST

/* datafile_load(): the format by the suffix, the file kinds refused. */
START_TEST(test_load)
{
	struct datafile d;
	char dir[] = "/tmp/check_datafile.XXXXXX", path[128], err[256];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(datafile_is_jsonl("x.jsonl"), 1);
	ck_assert_int_eq(datafile_is_jsonl("x.ndjson"), 1);
	ck_assert_int_eq(datafile_is_jsonl("x.json"), 0);
	ck_assert_int_eq(datafile_is_jsonl("jsonl"), 0);
	snprintf(path, sizeof(path), "%s/u.ndjson", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("{\"k\":\"v\"}\n{\"k\":\"w\"}\n", f);
	fclose(f);
	ck_assert_int_eq(datafile_load(&d, path, 0, err, sizeof(err)), 0);
	ck_assert_uint_eq(d.nrows, 2);
	EXPECT(&d, 1, 0, "w");
	datafile_free(&d);
	/* Only the header: no row needed. */
	ck_assert_int_eq(datafile_load(&d, path, 1, err, sizeof(err)), 0);
	ck_assert_uint_eq(d.ncols, 1);
	datafile_free(&d);
	ck_assert_int_eq(datafile_load(&d, dir, 0, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "directory") != NULL, "%s", err);
	ck_assert_int_eq(datafile_load(&d, dir, 1, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "directory") != NULL, "%s", err);
	ck_assert_int_eq(datafile_load(&d, "/dev/zero", 1, err,
	    sizeof(err)), -1);
	ck_assert_str_eq(err, "/dev/zero: not a regular file");
	unlink(path);
	snprintf(path, sizeof(path), "%s/missing.csv", dir);
	ck_assert_int_eq(datafile_load(&d, path, 0, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "No such file") != NULL, "%s", err);
	rmdir(dir);
}
END_TEST

/* Many rows: one buffer and one offset a value, exact at the end. */
START_TEST(test_many)
{
	struct datafile d;
	size_t i, n = 100000, len = 0, cap = n * 24 + 16;
	char *text = malloc(cap), err[256], want[32];
	int w;

	ck_assert_ptr_nonnull(text);
	len += (size_t)snprintf(text, cap, "id,name\n");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
		    "%zu,\"n%zu\"\n", i, i);
	ck_assert_int_eq(datafile_parse(&d, text, len, 0, 0, "m.csv", err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(d.nrows, n);
	for (i = 0; i < n; i += 9973) {
		w = snprintf(want, sizeof(want), "n%zu", i);
		expect_val(&d, i, 1, want, (size_t)w);
	}
	EXPECT(&d, n - 1, 0, "99999");
	datafile_free(&d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("datafile");
	TCase *tc = tcase_create("datafile");

	tcase_add_test(tc, test_csv_quoting);
	tcase_add_test(tc, test_csv_line_ends);
	tcase_add_test(tc, test_csv_errors);
	tcase_add_test(tc, test_jsonl);
	tcase_add_test(tc, test_jsonl_errors);
	tcase_add_test(tc, test_load);
	tcase_add_test(tc, test_many);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
