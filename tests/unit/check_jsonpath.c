/*
 * lib/jsonpath.c: compiled paths and the lookup over a document in a
 * guard-page buffer of exactly its length (a read past it faults):
 * nested objects, arrays, escapes, numbers and literals as their text,
 * missing paths, truncated and invalid documents, the nesting limit.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonpath.h"
#include "lib/util.h"
#include "unit.h"

/* The value at `path' in `doc' ("<none>" when missing), malloc'd. */
static char *
get(const char *path, const char *doc, size_t len)
{
	struct jsonpath p;
	struct tmpl_buf b = { NULL, 0, 0 };
	struct unit_guard g;
	char err[128], *in, *r;
	size_t col;

	ck_assert_msg(jsonpath_compile(&p, path, strlen(path), err,
	    sizeof(err), &col) == 0, "%s: column %zu: %s", path, col, err);
	in = unit_guard_copy(&g, doc, len);
	if (jsonpath_get(&p, in, len, &b) == -1) {
		ck_assert_uint_eq(b.len, 0);
		r = strdup("<none>");
	} else {
		r = malloc(b.len + 1);
		memcpy(r, b.p != NULL ? b.p : "", b.len);
		r[b.len] = '\0';
	}
	free(b.p);
	unit_guard_unmap(&g);
	jsonpath_free(&p);
	return r;
}

static void
want(const char *path, const char *doc, const char *value)
{
	char *got = get(path, doc, strlen(doc));

	ck_assert_msg(strcmp(got, value) == 0, "%s in %s: got \"%s\", want "
	    "\"%s\"", path, doc, got, value);
	free(got);
}

static const char login[] =
    "{\"auth\": {\"ttl\": 60, \"token\": \"tok1\"}, "
    "\"user\": {\"id\": 1, \"name\": \"u\\\"1\"}}";

START_TEST(test_nested)
{
	want("auth.token", login, "tok1");
	want("auth.ttl", login, "60");
	want("user.name", login, "u\"1");
	want("user.id", login, "1");
	want("auth", login, "{\"ttl\": 60, \"token\": \"tok1\"}");
	want("auth.nope", login, "<none>");
	want("nope", login, "<none>");
	want("auth.token.x", login, "<none>");
	want("auth[0]", login, "<none>");
	/* The first of two members of one name wins. */
	want("a", "{\"a\":1,\"a\":2}", "1");
	want("a", " \t\r\n{ \"a\" : \"x\" } ", "x");
}
END_TEST

START_TEST(test_arrays)
{
	const char *d = "{\"items\":[{\"id\":7},{\"id\":8,\"t\":[1,[2,3]]}]}";

	want("items[0].id", d, "7");
	want("items[1].id", d, "8");
	want("items[1].t[1][0]", d, "2");
	want("items[1].t[1][1]", d, "3");
	want("items[1].t[1][2]", d, "<none>");
	want("items[2].id", d, "<none>");
	want("[0]", "[\"a\",\"b\"]", "a");
	want("[1]", "[\"a\",\"b\"]", "b");
	want("[0]", "[]", "<none>");
	want("[0].a", "[{\"a\":null}]", "null");
	want("items[0]", d, "{\"id\":7}");
}
END_TEST

START_TEST(test_values)
{
	want("a", "{\"a\":-1.5e+3}", "-1.5e+3");
	want("a", "{\"a\":0}", "0");
	want("a", "{\"a\":true}", "true");
	want("a", "{\"a\":false}", "false");
	want("a", "{\"a\":null}", "null");
	want("a", "{\"a\":\"\\n\\t\\/\\\\\\\"\\b\\f\\r\"}", "\n\t/\\\"\b\f\r");
	want("a", "{\"a\":\"\\u00e9\\u20ac\"}", "\xc3\xa9\xe2\x82\xac");
	want("a", "{\"a\":\"\\ud83d\\ude00\"}", "\xf0\x9f\x98\x80");
	want("a", "{\"a\":\"\\ud83dx\"}", "\xef\xbf\xbdx");
	want("a", "{\"a\":\"\"}", "");
	/* A key with escapes matches its unescaped text. */
	want("k\\.y", "{\"k.y\":1}", "1");
	want("\xc3\xa9", "{\"\\u00e9\":2}", "2");
	/* Numbers are checked. */
	want("a", "{\"a\":01}", "<none>");
	want("a", "{\"a\":1.}", "<none>");
	want("a", "{\"a\":-}", "<none>");
	want("a", "{\"a\":tru}", "<none>");
}
END_TEST

START_TEST(test_invalid)
{
	size_t i, n = (size_t)(strstr(login, "1\"}}") + 2 - login);
	char *got;

	/* Every cut of the document before the value ends finds nothing;
	   from there on, the value is found (the rest is not read). */
	got = get("user.name", login, n);
	ck_assert_str_eq(got, "u\"1");
	free(got);
	for (i = 0; i < n; i++) {
		got = get("user.name", login, i);
		ck_assert_msg(strcmp(got, "<none>") == 0, "cut at %zu: %s", i,
		    got);
		free(got);
	}
	want("a", "{\"a\":\"x", "<none>");
	want("a", "{\"a\":\"x\\", "<none>");
	want("a", "{\"a\":\"\\q\"}", "<none>");
	want("a", "{\"a\":\"\\u12\"}", "<none>");
	want("a", "{\"a\":\"a\nb\"}", "<none>");
	want("b", "{\"a\":[1,,2],\"b\":1}", "<none>");
	want("b", "{\"a\" 1,\"b\":1}", "<none>");
	want("b", "{\"a\":{\"x\"},\"b\":1}", "<none>");
	want("a", "", "<none>");
	want("a", "[1]", "<none>");
	/* What follows the value is not read. */
	want("a", "{\"a\":1, garbage", "1");
	/* A NUL inside is a byte like another (invalid outside strings). */
	got = get("b", "{\"a\":\"x\0y\",\"b\":2}", 16);
	ck_assert_str_eq(got, "<none>");
	free(got);
}
END_TEST

START_TEST(test_depth)
{
	char doc[400], *deep;
	size_t i, n;

	/* The object and 63 arrays in it: 64 levels, skipped; 65 are too
	   deep, and what follows them is never reached. */
	for (n = 64; n <= 65; n++) {
		memcpy(doc, "{\"a\":", 5);
		for (i = 0; i < n - 1; i++)
			doc[5 + i] = '[';
		for (i = 0; i < n - 1; i++)
			doc[5 + n - 1 + i] = ']';
		memcpy(doc + 5 + 2 * (n - 1), ",\"b\":1}", 8);
		want("b", doc, n == 64 ? "1" : "<none>");
	}
	/* Far deeper than the limit never recurses further. */
	deep = malloc(200001);
	ck_assert_ptr_nonnull(deep);
	memset(deep, '[', 200000);
	deep[200000] = '\0';
	want("[0]", deep, "<none>");
	want("[0][0][0]", deep, "<none>");
	free(deep);
}
END_TEST

START_TEST(test_compile_errors)
{
	static const struct {
		const char	*path;
		const char	*err;
		size_t		 col;
	} rows[] = {
		{ "", "empty path", 1 },
		{ "a..b", "empty key", 3 },
		{ ".a", "empty key", 1 },
		{ "a.", "empty key", 3 },
		{ "a[x]", "bad index (want [N])", 2 },
		{ "a[1", "bad index (want [N])", 2 },
		{ "a[]", "bad index (want [N])", 2 },
		{ "a]b", "bad character in path", 2 },
		{ "a[0]b", "bad character in path", 5 },
		{ "a.[0]", "empty key", 3 },
		{ "a\\", "bad character in path", 2 },
	};
	struct jsonpath p;
	char err[128];
	size_t i, col;

	for (i = 0; i < nitems(rows); i++) {
		col = 0;
		ck_assert_msg(jsonpath_compile(&p, rows[i].path,
		    strlen(rows[i].path), err, sizeof(err), &col) == -1,
		    "%s compiled", rows[i].path);
		ck_assert_msg(strcmp(err, rows[i].err) == 0 &&
		    col == rows[i].col, "%s: got \"%s\" at %zu", rows[i].path,
		    err, col);
		ck_assert_ptr_null(p.text);
	}
	ck_assert_int_eq(jsonpath_compile(&p,
	    "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a"
	    ".a", 65, err, sizeof(err), &col), -1);
	ck_assert_str_eq(err, "path longer than 32 steps");
	ck_assert_int_eq(jsonpath_compile(&p, "a[1][2]", 7, err, sizeof(err),
	    &col), 0);
	ck_assert_uint_eq(p.n, 3);
	ck_assert_uint_eq(p.steps[2].len, 2);
	jsonpath_free(&p);
	jsonpath_free(&p);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("jsonpath");
	TCase *tc = tcase_create("jsonpath");

	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_arrays);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_invalid);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_compile_errors);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
