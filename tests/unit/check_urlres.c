/*
 * lib/urlres.c: RFC 3986 section 5.4's examples (normal and abnormal,
 * the fragments dropped), scheme-relative and absolute references, the
 * bytes a target may not hold, and the same-origin test.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lib/urlres.h"
#include "unit.h"

static void
want(const char *base, const char *ref, const char *url)
{
	char *got = urlres_resolve(base, ref, strlen(ref));

	ck_assert_ptr_nonnull(got);
	ck_assert_msg(strcmp(got, url) == 0, "%s against %s: got \"%s\", "
	    "want \"%s\"", ref, base, got, url);
	free(got);
}

static const char B[] = "http://a/b/c/d;p?q";

START_TEST(test_rfc_normal)
{
	static const char *const rows[][2] = {
		{ "g:h", "g:h" },
		{ "g", "http://a/b/c/g" },
		{ "./g", "http://a/b/c/g" },
		{ "g/", "http://a/b/c/g/" },
		{ "/g", "http://a/g" },
		{ "//g", "http://g" },
		{ "?y", "http://a/b/c/d;p?y" },
		{ "g?y", "http://a/b/c/g?y" },
		{ "#s", "http://a/b/c/d;p?q" },
		{ "g#s", "http://a/b/c/g" },
		{ "g?y#s", "http://a/b/c/g?y" },
		{ ";x", "http://a/b/c/;x" },
		{ "g;x", "http://a/b/c/g;x" },
		{ "g;x?y#s", "http://a/b/c/g;x?y" },
		{ "", "http://a/b/c/d;p?q" },
		{ ".", "http://a/b/c/" },
		{ "./", "http://a/b/c/" },
		{ "..", "http://a/b/" },
		{ "../", "http://a/b/" },
		{ "../g", "http://a/b/g" },
		{ "../..", "http://a/" },
		{ "../../", "http://a/" },
		{ "../../g", "http://a/g" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		want(B, rows[i][0], rows[i][1]);
}
END_TEST

START_TEST(test_rfc_abnormal)
{
	static const char *const rows[][2] = {
		{ "../../../g", "http://a/g" },
		{ "../../../../g", "http://a/g" },
		{ "/./g", "http://a/g" },
		{ "/../g", "http://a/g" },
		{ "g.", "http://a/b/c/g." },
		{ ".g", "http://a/b/c/.g" },
		{ "g..", "http://a/b/c/g.." },
		{ "..g", "http://a/b/c/..g" },
		{ "./../g", "http://a/b/g" },
		{ "./g/.", "http://a/b/c/g/" },
		{ "g/./h", "http://a/b/c/g/h" },
		{ "g/../h", "http://a/b/c/h" },
		{ "g;x=1/./y", "http://a/b/c/g;x=1/y" },
		{ "g;x=1/../y", "http://a/b/c/y" },
		{ "g?y/./x", "http://a/b/c/g?y/./x" },
		{ "g?y/../x", "http://a/b/c/g?y/../x" },
		{ "g#s/./x", "http://a/b/c/g" },
		{ "g#s/../x", "http://a/b/c/g" },
		{ "http:g", "http:g" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		want(B, rows[i][0], rows[i][1]);
}
END_TEST

START_TEST(test_others)
{
	char *got;

	want("http://h:8080", "a.css", "http://h:8080/a.css");
	want("http://h:8080", "?q", "http://h:8080?q");
	want("https://h/x/y.html", "//cdn.example/z.js",
	    "https://cdn.example/z.js");
	want("http://h/x/y.html", "HTTPS://o/p/../q", "HTTPS://o/q");
	want("http://h/x/", "a b\"<>`\x7f\xc3\xa9%41",
	    "http://h/x/a%20b%22%3C%3E%60%7F%C3%A9%41");
	want("http://h/x/y", "../../../..", "http://h/");
	/* The reference's length bounds it: no NUL needed. */
	got = urlres_resolve("http://h/d/p", "g.css and more", 5);
	ck_assert_str_eq(got, "http://h/d/g.css");
	free(got);
	ck_assert_ptr_null(urlres_resolve("/no/scheme", "g", 1));
}
END_TEST

START_TEST(test_origin)
{
	static const struct urlres_origin o[2] = {
		{ 0, "localhost", 8080 }, { 1, "::1", 443 },
	};
	static const struct {
		const char	*url;
		int		 which;
		const char	*target;
	} rows[] = {
		{ "http://localhost:8080/a/b?c", 0, "/a/b?c" },
		{ "HTTP://LocalHost:8080", 0, "/" },
		{ "http://localhost/a", -1, NULL },
		{ "https://localhost:8080/a", -1, NULL },
		{ "http://otherhost:8080/a", -1, NULL },
		{ "https://[::1]/x", 1, "/x" },
		{ "https://[::1]:443/x", 1, "/x" },
		{ "data:image/png;base64,AAAA", -1, NULL },
		{ "javascript:void(0)", -1, NULL },
		{ "http://user@localhost:8080/", -1, NULL },
	};
	char *target;
	size_t i;
	int w;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		w = urlres_origin(rows[i].url, o, 2, &target);
		ck_assert_msg(w == rows[i].which, "%s: %d", rows[i].url, w);
		if (rows[i].target == NULL)
			ck_assert_ptr_null(target);
		else
			ck_assert_str_eq(target, rows[i].target);
		free(target);
	}
	/* One origin only: the second is not looked at. */
	ck_assert_int_eq(urlres_origin("https://[::1]/x", o, 1, &target), -1);
}
END_TEST

static Suite *
urlres_suite(void)
{
	Suite *s = suite_create("urlres");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rfc_normal);
	tcase_add_test(tc, test_rfc_abnormal);
	tcase_add_test(tc, test_others);
	tcase_add_test(tc, test_origin);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(urlres_suite());
}
