/*
 * Unit tests for the per-session cookie jar: which header lines count as
 * Set-Cookie, what is stored, replacement by name in place, the exact
 * Cookie header text and its cache, large and numerous cookies, the two
 * limits of a jar (number of cookies, header length) exactly at and past
 * them, and the shared header references.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "gen/cookie.h"
#include "lib/util.h"
#include "unit.h"

/* Feeds the NUL-terminated `line' to the jar. */
static int
set(struct cookie_jar *j, const char *line)
{
	return cookie_jar_set(j, line, strlen(line));
}

/* Checks the jar's header against `want' (NULL: no header). */
static void
check_header(struct cookie_jar *j, const char *want)
{
	const char *h;
	size_t len = 99;

	h = cookie_jar_header(j, &len);
	if (want == NULL) {
		ck_assert_ptr_null(h);
		ck_assert_uint_eq(len, 0);
		return;
	}
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(len, strlen(want));
	ck_assert_mem_eq(h, want, len);
}

/* One line fed to a fresh jar: its return and the resulting header. */
static const struct {
	const char	*line;
	int		 rv;
	const char	*hdr;
} one_rows[] = {
	{ "Set-Cookie: sid=abc123; Path=/", 1, "Cookie: sid=abc123\r\n" },
	{ "Set-Cookie: sid=abc123", 1, "Cookie: sid=abc123\r\n" },
	{ "set-cookie: a=b", 1, "Cookie: a=b\r\n" },
	{ "SET-COOKIE: a=b", 1, "Cookie: a=b\r\n" },
	{ "sEt-CoOkIe: a=b", 1, "Cookie: a=b\r\n" },
	{ "Set-Cookie:a=b", 1, "Cookie: a=b\r\n" },
	{ "Set-Cookie:\t \ta=b \t", 1, "Cookie: a=b\r\n" },
	{ "Set-Cookie:  a = b ;x", 1, "Cookie: a=b\r\n" },
	{ "Set-Cookie: a=", 1, "Cookie: a=\r\n" },
	{ "Set-Cookie: a=;Path=/", 1, "Cookie: a=\r\n" },
	{ "Set-Cookie: a=b=c; d=e", 1, "Cookie: a=b=c\r\n" },
	{ "Set-Cookie: a=\"quoted v\"", 1, "Cookie: a=\"quoted v\"\r\n" },
	{ "Set-Cookie: id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; "
	  "Max-Age=3600; Domain=example.com; Path=/docs; Secure; HttpOnly; "
	  "SameSite=Lax", 1, "Cookie: id=a3fWa\r\n" },
	{ "Set-Cookie: novalue", -1, NULL },
	{ "Set-Cookie: novalue; a=b", -1, NULL },
	{ "Set-Cookie: =value", -1, NULL },
	{ "Set-Cookie:  \t=value", -1, NULL },
	{ "Set-Cookie:", -1, NULL },
	{ "Set-Cookie: ", -1, NULL },
	{ "Set-Cookie: ;a=b", -1, NULL },
	{ "Set-Cookie: a=b\rX: y", -1, NULL },
	{ "Set-Cookie", 0, NULL },
	{ "Set-Cookies: a=b", 0, NULL },
	{ "Set-Cookie2: a=b", 0, NULL },
	{ "Set-Cookie : a=b", 0, NULL },
	{ " Set-Cookie: a=b", 0, NULL },
	{ "Cookie: a=b", 0, NULL },
	{ "Content-Type: text/html", 0, NULL },
	{ "X-Set-Cookie: a=b", 0, NULL },
	{ "", 0, NULL },
};

START_TEST(one_line)
{
	struct cookie_jar *j = cookie_jar_new();

	ck_assert_msg(set(j, one_rows[_i].line) == one_rows[_i].rv,
	    "\"%s\"", one_rows[_i].line);
	ck_assert_uint_eq(cookie_jar_count(j), one_rows[_i].hdr != NULL);
	check_header(j, one_rows[_i].hdr);
	cookie_jar_free(j);
}
END_TEST

START_TEST(length_not_nul)
{
	struct cookie_jar *j = cookie_jar_new();
	const char line[] = "Set-Cookie: a=bc; Path=/";

	/* Only `len' bytes count: the cut falls inside the value. */
	ck_assert_int_eq(cookie_jar_set(j, line, 15), 1);
	check_header(j, "Cookie: a=b\r\n");
	ck_assert_int_eq(cookie_jar_set(j, line, 10), 0);
	ck_assert_int_eq(cookie_jar_set(j, "Set-Cookie: a\0=b", 16), -1);
	ck_assert_uint_eq(cookie_jar_count(j), 1);
	cookie_jar_free(j);
}
END_TEST

START_TEST(replace_keeps_order)
{
	struct cookie_jar *j = cookie_jar_new();

	check_header(j, NULL);
	ck_assert_int_eq(set(j, "Set-Cookie: a=1"), 1);
	ck_assert_int_eq(set(j, "Set-Cookie: b=2; Path=/"), 1);
	ck_assert_int_eq(set(j, "Set-Cookie: c=3"), 1);
	check_header(j, "Cookie: a=1; b=2; c=3\r\n");
	ck_assert_int_eq(set(j, "set-cookie:b=22"), 1);
	ck_assert_uint_eq(cookie_jar_count(j), 3);
	check_header(j, "Cookie: a=1; b=22; c=3\r\n");
	ck_assert_int_eq(set(j, "Set-Cookie: a="), 1);
	check_header(j, "Cookie: a=; b=22; c=3\r\n");
	/* Names are case-sensitive. */
	ck_assert_int_eq(set(j, "Set-Cookie: A=4"), 1);
	check_header(j, "Cookie: a=; b=22; c=3; A=4\r\n");
	/* Malformed and foreign lines change nothing. */
	ck_assert_int_eq(set(j, "Set-Cookie: junk"), -1);
	ck_assert_int_eq(set(j, "Server: x"), 0);
	check_header(j, "Cookie: a=; b=22; c=3; A=4\r\n");
	ck_assert_uint_eq(cookie_jar_count(j), 4);
	cookie_jar_clear(j);
	ck_assert_uint_eq(cookie_jar_count(j), 0);
	check_header(j, NULL);
	ck_assert_int_eq(set(j, "Set-Cookie: z=9"), 1);
	check_header(j, "Cookie: z=9\r\n");
	cookie_jar_free(j);
}
END_TEST

START_TEST(header_cached)
{
	struct cookie_jar *j = cookie_jar_new();
	const char *h1, *h2;
	size_t l1, l2;

	set(j, "Set-Cookie: a=1");
	h1 = cookie_jar_header(j, &l1);
	h2 = cookie_jar_header(j, &l2);
	ck_assert_ptr_eq(h1, h2);
	ck_assert_uint_eq(l1, l2);
	ck_assert_int_eq(h1[l1], '\0');
	set(j, "Set-Cookie: a=2");
	check_header(j, "Cookie: a=2\r\n");
	cookie_jar_free(j);
	cookie_jar_free(NULL);
}
END_TEST

START_TEST(many_cookies)
{
	struct cookie_jar *j = cookie_jar_new();
	char line[64], *want, *p;
	const char *h;
	size_t i, len, n = 1000;

	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "Set-Cookie: c%zu=v%zu; Path=/",
		    i, i);
		ck_assert_int_eq(set(j, line), 1);
	}
	/* Replace every other one: the order must not change. */
	for (i = 0; i < n; i += 2) {
		snprintf(line, sizeof(line), "Set-Cookie: c%zu=w%zu", i, i);
		ck_assert_int_eq(set(j, line), 1);
	}
	ck_assert_uint_eq(cookie_jar_count(j), n);
	want = p = xmalloc(n * 32);
	p += sprintf(p, "Cookie: ");
	for (i = 0; i < n; i++)
		p += sprintf(p, "%sc%zu=%c%zu", i > 0 ? "; " : "", i,
		    i % 2 == 0 ? 'w' : 'v', i);
	p += sprintf(p, "\r\n");
	h = cookie_jar_header(j, &len);
	ck_assert_uint_eq(len, (size_t)(p - want));
	ck_assert_mem_eq(h, want, len);
	free(want);
	cookie_jar_free(j);
}
END_TEST

START_TEST(large_cookies)
{
	struct cookie_jar *j = cookie_jar_new();
	size_t n = 8192, i, len;
	char *line, *want;
	const char *h;

	line = xmalloc(n + 64);
	for (i = 0; i < 2; i++) {
		memset(line, 'A' + i, n + 64);
		memcpy(line, i == 0 ? "Set-Cookie: big=" : "Set-Cookie: two=",
		    16);
		memcpy(line + 16 + n, "; Path=/", 8);
		ck_assert_int_eq(cookie_jar_set(j, line, 16 + n + 8), 1);
	}
	want = xmalloc(2 * n + 64);
	memcpy(want, "Cookie: big=", 12);
	memset(want + 12, 'A', n);
	memcpy(want + 12 + n, "; two=", 6);
	memset(want + 18 + n, 'B', n);
	memcpy(want + 18 + 2 * n, "\r\n", 2);
	h = cookie_jar_header(j, &len);
	ck_assert_uint_eq(len, 20 + 2 * n);
	ck_assert_mem_eq(h, want, len);
	free(want);
	free(line);
	cookie_jar_free(j);
}
END_TEST

/* Sets "Set-Cookie: NAME=VALUE" with a value of `vlen' bytes of `fill'. */
static int
set_sized(struct cookie_jar *j, const char *name, size_t vlen, char fill)
{
	size_t nlen = strlen(name), len = 12 + nlen + 1 + vlen;
	char *line = xmalloc(len);
	int rv;

	memcpy(line, "Set-Cookie: ", 12);
	memcpy(line + 12, name, nlen);
	line[12 + nlen] = '=';
	memset(line + 12 + nlen + 1, fill, vlen);
	rv = cookie_jar_set(j, line, len);
	free(line);
	return rv;
}

/* The header length of the jar, 0 when empty. */
static size_t
header_len(struct cookie_jar *j)
{
	size_t len;

	cookie_jar_header(j, &len);
	return len;
}

/*
 * Up to COOKIE_JAR_MAX_COOKIES names are kept; a new name past that is
 * ignored (-2) and changes nothing, while known names are still replaced
 * in place.
 */
START_TEST(limit_count)
{
	struct cookie_jar *j = cookie_jar_new();
	char line[64], *before;
	const char *h;
	size_t i, len;

	for (i = 0; i < COOKIE_JAR_MAX_COOKIES; i++) {
		snprintf(line, sizeof(line), "Set-Cookie: n%zu=%zu", i, i);
		ck_assert_int_eq(set(j, line), 1);
	}
	ck_assert_uint_eq(cookie_jar_count(j), COOKIE_JAR_MAX_COOKIES);
	h = cookie_jar_header(j, &len);
	before = xmalloc(len);
	memcpy(before, h, len);
	ck_assert_int_eq(set(j, "Set-Cookie: extra=1"), -2);
	ck_assert_int_eq(set(j, "Set-Cookie: n0x=1; Path=/"), -2);
	ck_assert_uint_eq(cookie_jar_count(j), COOKIE_JAR_MAX_COOKIES);
	h = cookie_jar_header(j, &len);
	ck_assert_mem_eq(h, before, len);
	/* The first and the last are replaced where they are. */
	ck_assert_int_eq(set(j, "Set-Cookie: n0=A"), 1);
	snprintf(line, sizeof(line), "Set-Cookie: n%d=Z",
	    COOKIE_JAR_MAX_COOKIES - 1);
	ck_assert_int_eq(set(j, line), 1);
	ck_assert_uint_eq(cookie_jar_count(j), COOKIE_JAR_MAX_COOKIES);
	h = cookie_jar_header(j, &len);
	ck_assert_mem_eq(h, "Cookie: n0=A; n1=1; n2=2; ", 26);
	snprintf(line, sizeof(line), "; n%d=Z\r\n",
	    COOKIE_JAR_MAX_COOKIES - 1);
	ck_assert_uint_ge(len, strlen(line));
	ck_assert_mem_eq(h + len - strlen(line), line, strlen(line));
	/* Clearing makes room again. */
	cookie_jar_clear(j);
	ck_assert_int_eq(set(j, "Set-Cookie: extra=1"), 1);
	check_header(j, "Cookie: extra=1\r\n");
	free(before);
	cookie_jar_free(j);
}
END_TEST

/*
 * The header may reach COOKIE_JAR_MAX_HEADER bytes but not pass it, for
 * a new cookie and for a bigger value of a known one alike; a smaller
 * value is always taken, and then a new cookie fits again.
 */
START_TEST(limit_bytes)
{
	struct cookie_jar *j = cookie_jar_new();
	size_t len, fill;

	/* "Cookie: a=" + value + "\r\n": 12 bytes of frame. */
	ck_assert_int_eq(set_sized(j, "a", COOKIE_JAR_MAX_HEADER - 12 + 1,
	    'x'), -2);
	ck_assert_uint_eq(cookie_jar_count(j), 0);
	ck_assert_int_eq(set_sized(j, "a", COOKIE_JAR_MAX_HEADER - 12, 'x'),
	    1);
	ck_assert_uint_eq(header_len(j), COOKIE_JAR_MAX_HEADER);
	/* Full: no new cookie, not even an empty one. */
	ck_assert_int_eq(set(j, "Set-Cookie: b="), -2);
	ck_assert_int_eq(set_sized(j, "a", COOKIE_JAR_MAX_HEADER - 11, 'y'),
	    -2);
	ck_assert_uint_eq(header_len(j), COOKIE_JAR_MAX_HEADER);
	ck_assert_int_eq(set_sized(j, "a", COOKIE_JAR_MAX_HEADER - 12, 'y'),
	    1);
	ck_assert_int_eq(cookie_jar_header(j, &len)[10], 'y');
	/* Shrink a by 5 bytes: "; b=" plus 1 byte of value now fits. */
	ck_assert_int_eq(set_sized(j, "a", COOKIE_JAR_MAX_HEADER - 17, 'z'),
	    1);
	ck_assert_int_eq(set_sized(j, "b", 2, 'q'), -2);
	ck_assert_int_eq(set_sized(j, "b", 1, 'q'), 1);
	ck_assert_uint_eq(header_len(j), COOKIE_JAR_MAX_HEADER);
	ck_assert_uint_eq(cookie_jar_count(j), 2);
	/* Growing b by one byte is refused, b keeps its value. */
	ck_assert_int_eq(set_sized(j, "b", 2, 'r'), -2);
	ck_assert_mem_eq(cookie_jar_header(j, &len) + len - 7, "; b=q\r\n",
	    7);
	/* 30 cookies of 3000 bytes (the integration test's) fit easily. */
	cookie_jar_clear(j);
	for (fill = 0; fill < 30; fill++) {
		char name[8];

		snprintf(name, sizeof(name), "c%zu", fill);
		ck_assert_int_eq(set_sized(j, name, 3000, 'v'), 1);
	}
	ck_assert_uint_eq(cookie_jar_count(j), 30);
	cookie_jar_free(j);
}
END_TEST

/* A header reference outlives changes to the jar and the jar itself. */
START_TEST(header_refs)
{
	struct cookie_jar *j = cookie_jar_new();
	struct cookie_hdr *h1, *h2, *h3;

	ck_assert_ptr_null(cookie_jar_hdr(j));
	set(j, "Set-Cookie: a=1");
	h1 = cookie_jar_hdr(j);
	h2 = cookie_jar_hdr(j);
	ck_assert_ptr_eq(h1, h2);
	ck_assert_uint_eq(h1->len, 13);
	ck_assert_str_eq(h1->text, "Cookie: a=1\r\n");
	cookie_hdr_unref(h2);
	set(j, "Set-Cookie: a=2");
	h3 = cookie_jar_hdr(j);
	ck_assert_ptr_ne(h1, h3);
	ck_assert_str_eq(h3->text, "Cookie: a=2\r\n");
	cookie_jar_free(j);
	ck_assert_str_eq(h1->text, "Cookie: a=1\r\n");
	ck_assert_str_eq(h3->text, "Cookie: a=2\r\n");
	cookie_hdr_unref(h1);
	cookie_hdr_unref(h3);
	cookie_hdr_unref(NULL);
}
END_TEST

/*
 * A hostile reply: 80,000 Set-Cookie lines of distinct names, then each
 * name again.  Exactly the first COOKIE_JAR_MAX_COOKIES are kept, in
 * order, with their last values.  The time is printed, not asserted (a
 * shared machine makes timing assertions flaky); 0.9.0-style linear
 * scans took seconds here.
 */
START_TEST(hostile_flood)
{
	struct cookie_jar *j = cookie_jar_new();
	struct timespec t0, t1;
	size_t i, n = 80000, stored = 0, ignored = 0, len;
	char line[64];
	const char *h;
	int rv;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 2 * n; i++) {
		snprintf(line, sizeof(line), "Set-Cookie: k%zu=%s%zu; Path=/",
		    i % n, i < n ? "v" : "w", i % n);
		rv = set(j, line);
		if (rv == 1)
			stored++;
		else if (rv == -2)
			ignored++;
		if (i % 1000 == 0)
			cookie_jar_header(j, &len);
	}
	h = cookie_jar_header(j, &len);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "check_cookie: %zu Set-Cookie lines in %.3f s\n",
	    2 * n, (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	ck_assert_uint_eq(stored, 2 * COOKIE_JAR_MAX_COOKIES);
	ck_assert_uint_eq(ignored, 2 * (n - COOKIE_JAR_MAX_COOKIES));
	ck_assert_uint_eq(cookie_jar_count(j), COOKIE_JAR_MAX_COOKIES);
	ck_assert_mem_eq(h, "Cookie: k0=w0; k1=w1; k2=w2; ", 29);
	ck_assert_mem_eq(h + len - 13, "; k999=w999\r\n", 13);
	cookie_jar_free(j);
}
END_TEST

static Suite *
cookie_suite(void)
{
	Suite *s = suite_create("cookie");
	TCase *tc = tcase_create("jar");

	tcase_add_loop_test(tc, one_line, 0, nitems(one_rows));
	tcase_add_test(tc, length_not_nul);
	tcase_add_test(tc, replace_keeps_order);
	tcase_add_test(tc, header_cached);
	tcase_add_test(tc, many_cookies);
	tcase_add_test(tc, large_cookies);
	tcase_add_test(tc, limit_count);
	tcase_add_test(tc, limit_bytes);
	tcase_add_test(tc, header_refs);
	tcase_add_test(tc, hostile_flood);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(cookie_suite());
}
