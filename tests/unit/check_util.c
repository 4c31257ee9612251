/*
 * lib/util.c: the whole-file reader (regular files only, a size limit, no
 * blocking on a FIFO) and the escaping of untrusted bytes in messages.
 */
#include "config.h"

#include <sys/stat.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "unit.h"

static char tmpdir[] = "/tmp/check_util.XXXXXX";
static char path[256];

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
teardown(void)
{
	char p[300];

	snprintf(p, sizeof(p), "%s/f", tmpdir);
	(void)unlink(p);
	snprintf(p, sizeof(p), "%s/fifo", tmpdir);
	(void)unlink(p);
	(void)rmdir(tmpdir);
}

/* Writes `len' bytes to tmpdir/f and returns its path. */
static const char *
make_file(const char *data, size_t len)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/f", tmpdir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

START_TEST(test_read_regular)
{
	char *buf;
	size_t len;

	ck_assert_int_eq(util_read_file(make_file("a\0b\n", 4), &buf, &len),
	    0);
	ck_assert_uint_eq(len, 4);
	ck_assert_int_eq(memcmp(buf, "a\0b\n", 5), 0);	/* NUL-ended */
	free(buf);
	ck_assert_int_eq(util_read_file(make_file("", 0), &buf, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(buf[0], '\0');
	free(buf);
	/* /dev/null is the one device read: as an empty file. */
	ck_assert_int_eq(util_read_file("/dev/null", &buf, &len), 0);
	ck_assert_uint_eq(len, 0);
	free(buf);
}
END_TEST

/* At the limit is fine; one byte more is refused. */
START_TEST(test_read_limit)
{
	char *buf;
	size_t len;

	ck_assert_int_eq(util_read_file_max(make_file("12345", 5), 5, &buf,
	    &len), 0);
	ck_assert_uint_eq(len, 5);
	free(buf);
	ck_assert_int_eq(util_read_file_max(make_file("123456", 6), 5, &buf,
	    &len), UTIL_ETOOBIG);
	ck_assert_str_eq(util_read_strerror(UTIL_ETOOBIG),
	    "file too large (the limit is 1 GiB)");
}
END_TEST

/* Devices, directories and FIFOs are refused, at once. */
START_TEST(test_read_not_regular)
{
	char *buf;
	size_t len;

	ck_assert_int_eq(util_read_file("/dev/zero", &buf, &len),
	    UTIL_ENOTREG);
	ck_assert_int_eq(util_read_file("/dev/full", &buf, &len),
	    UTIL_ENOTREG);
	ck_assert_str_eq(util_read_strerror(UTIL_ENOTREG),
	    "not a regular file");
	ck_assert_int_eq(util_read_file(tmpdir, &buf, &len), EISDIR);
	/* No writer: a blocking open would wait for ever (the test's
	   timeout would catch it). */
	snprintf(path, sizeof(path), "%s/fifo", tmpdir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(util_read_file(path, &buf, &len), UTIL_ENOTREG);
	ck_assert_int_eq(util_read_file("/nonexistent/x", &buf, &len),
	    ENOENT);
	ck_assert_str_eq(util_read_strerror(ENOENT), strerror(ENOENT));
}
END_TEST

static const struct {
	const char	*in;
	size_t		 len;
	size_t		 size;
	const char	*want;
} escapes[] = {
	{ "plain text", 10, 64, "plain text" },
	{ "\x1b[2J\x1b]0;owned\x07", 14, 64, "\\x1b[2J\\x1b]0;owned\\x07" },
	{ "a\r\nb\tc", 6, 64, "a\\r\\nb\\tc" },
	{ "\x7f\x80\xff", 3, 64, "\\x7f\\x80\\xff" },
	{ "a\0b", 3, 64, "a\\x00b" },
	{ "", 0, 64, "" },
	/* Exactly fits: 10 bytes and the NUL. */
	{ "0123456789", 10, 11, "0123456789" },
	/* Too long: cut at a whole escape, marked. */
	{ "0123456789", 10, 10, "012345..." },
	{ "ab\x1b\x1b", 4, 10, "ab\\x1b..." },
	{ "ab\x1b\x1b", 4, 9, "ab..." },
	{ "abcdef", 6, 4, "" },
	{ "abcdef", 6, 1, "" },
};

START_TEST(test_escape)
{
	char buf[64];

	memset(buf, 'Z', sizeof(buf));
	ck_assert_str_eq(util_escape(buf, escapes[_i].size, escapes[_i].in,
	    escapes[_i].len), escapes[_i].want);
	ck_assert_uint_lt(strlen(buf), escapes[_i].size);
}
END_TEST

START_TEST(test_put_escaped)
{
	char *text;
	size_t len;
	FILE *f;

	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	util_put_escaped(f, "x\x1b[31my\n\xc3\xa9", 10);
	fclose(f);
	ck_assert_str_eq(text, "x\\x1b[31my\\n\\xc3\\xa9");
	free(text);
}
END_TEST

/* Doubles to integers: toward zero, clamped to the type, NaN to 0. */
START_TEST(test_dtou64)
{
	ck_assert_uint_eq(util_dtou64(0.0), 0);
	ck_assert_uint_eq(util_dtou64(-0.0), 0);
	ck_assert_uint_eq(util_dtou64(0.999), 0);
	ck_assert_uint_eq(util_dtou64(1.999), 1);
	ck_assert_uint_eq(util_dtou64(-1.5), 0);
	ck_assert_uint_eq(util_dtou64(-1e300), 0);
	ck_assert_uint_eq(util_dtou64(NAN), 0);
	ck_assert_uint_eq(util_dtou64(-INFINITY), 0);
	ck_assert_uint_eq(util_dtou64(4294967296.5), UINT64_C(4294967296));
	/* The largest double below 2^64, then 2^64 and beyond. */
	ck_assert_uint_eq(util_dtou64(18446744073709549568.0),
	    UINT64_C(18446744073709549568));
	ck_assert_uint_eq(util_dtou64(18446744073709551616.0), UINT64_MAX);
	ck_assert_uint_eq(util_dtou64(1e300), UINT64_MAX);
	ck_assert_uint_eq(util_dtou64(INFINITY), UINT64_MAX);
}
END_TEST

/* xstrndup: the bytes given, a NUL after them, none read beyond. */
START_TEST(test_xstrndup)
{
	char src[3] = { 'a', '\0', 'b' };
	char *d;

	d = xstrndup("token=x", 5);
	ck_assert_str_eq(d, "token");
	free(d);
	d = xstrndup(src, 3);
	ck_assert_int_eq(memcmp(d, src, 3), 0);
	ck_assert_int_eq(d[3], '\0');
	free(d);
	d = xstrndup(src, 0);
	ck_assert_str_eq(d, "");
	free(d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_read_regular);
	tcase_add_test(tc, test_read_limit);
	tcase_add_test(tc, test_read_not_regular);
	tcase_add_loop_test(tc, test_escape, 0, (int)nitems(escapes));
	tcase_add_test(tc, test_put_escaped);
	tcase_add_test(tc, test_dtou64);
	tcase_add_test(tc, test_xstrndup);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
