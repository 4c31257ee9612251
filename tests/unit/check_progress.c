/*
 * stat/progress.c: the live line, as a pure function of its numbers and
 * the terminal's width.  Every line is checked byte for byte: the bar,
 * the time left, the short form and the cut to the width.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stat/progress.h"
#include "unit.h"

#define SEC	UINT64_C(1000000000)

/* 12.999 s in, 45 % done, 14 s and a bit left, a busy second. */
static void
view_run(struct progress_view *v)
{
	memset(v, 0, sizeof(*v));
	v->elapsed = 13 * SEC - 1;
	v->known = 1;
	v->frac = 0.45;
	v->have_left = 1;
	v->left = 14 * SEC + 1;
	v->have_rate = 1;
	v->rate = 99.84;
	v->target = 100;
	v->replies = 1234;
	v->errors = 0;
	v->have_p99 = 1;
	v->p99 = 12.345;
}

static const struct {
	unsigned	 width;
	const char	*want;
} run_lines[] = {
	/* Wide: words, the bar at its widest. */
	{ 200, "0:12 [##################----------------------]  45% ETA 0:15"
	    "  rate 99.8/s of 100.0/s  replies 1234  errors 0  p99 12.3 ms" },
	/* The bar takes what the words leave. */
	{ 120, "0:12 [################---------------------]  45% ETA 0:15"
	    "  rate 99.8/s of 100.0/s  replies 1234  errors 0  p99 12.3 ms" },
	/* 80 columns: too little room for the words and a bar: short. */
	{ 80, "0:12 [########-----------]  45% ETA 0:15 99.8/100.0/s "
	    "1234 rep 0 err p99 12.3ms" },
	/* No room for a bar of 10 even short: no bar. */
	{ 60, "0:12  45% ETA 0:15 99.8/100.0/s 1234 rep 0 err p99 12.3ms" },
	/* Cut at width - 1. */
	{ 40, "0:12  45% ETA 0:15 99.8/100.0/s 1234 re" },
	{ 20, "0:12  45% ETA 0:15 " },
	{ 2, "0" },
	{ 1, "" },
	{ 0, "" },
};

START_TEST(test_run_widths)
{
	struct progress_view v;
	char buf[PROGRESS_LINE_MAX];
	size_t n;

	view_run(&v);
	n = progress_format(buf, sizeof(buf), &v, run_lines[_i].width);
	ck_assert_str_eq(buf, run_lines[_i].want);
	ck_assert_uint_eq(n, strlen(run_lines[_i].want));
	if (run_lines[_i].width > 0)
		ck_assert_uint_lt(n, run_lines[_i].width);
}
END_TEST

/* No end known: no bar, no ETA; no reply yet: no p99. */
START_TEST(test_open_end)
{
	struct progress_view v;
	char buf[PROGRESS_LINE_MAX];

	memset(&v, 0, sizeof(v));
	v.elapsed = 3725 * SEC;
	v.have_rate = 1;
	v.rate = 7;
	v.replies = 5;
	v.errors = 2;
	progress_format(buf, sizeof(buf), &v, 80);
	ck_assert_str_eq(buf, "1:02:05  rate 7.0/s  replies 5  errors 2  p99 -");
	progress_format(buf, sizeof(buf), &v, 40);
	ck_assert_str_eq(buf, "1:02:05 7.0/s 5 rep 2 err p99 -");
	progress_format(buf, sizeof(buf), &v, 20);
	ck_assert_str_eq(buf, "1:02:05 7.0/s 5 rep");
}
END_TEST

/* The bar's ends: empty, full, beyond; the ETA unknown and rounded up. */
START_TEST(test_bar_ends)
{
	struct progress_view v;
	char buf[PROGRESS_LINE_MAX];

	memset(&v, 0, sizeof(v));
	v.known = 1;
	v.have_rate = 1;
	v.have_p99 = 1;
	v.p99 = 0.5;
	progress_format(buf, sizeof(buf), &v, 100);
	ck_assert_str_eq(buf, "0:00 [--------------------------------]   0% ETA -:--"
	    "  rate 0.0/s  replies 0  errors 0  p99 0.50 ms");
	v.frac = 1;
	v.have_left = 1;
	v.left = 0;
	v.elapsed = 61 * SEC;
	v.p99 = 1234.4;
	progress_format(buf, sizeof(buf), &v, 100);
	ck_assert_str_eq(buf, "1:01 [################################] 100% ETA 0:00"
	    "  rate 0.0/s  replies 0  errors 0  p99 1234 ms");
	/* Out of range: clamped, never a longer bar. */
	v.frac = 3;
	v.left = 1;
	progress_format(buf, sizeof(buf), &v, 100);
	ck_assert_str_eq(buf, "1:01 [################################] 100% ETA 0:01"
	    "  rate 0.0/s  replies 0  errors 0  p99 1234 ms");
	v.frac = -1;
	progress_format(buf, sizeof(buf), &v, 100);
	ck_assert_str_eq(buf, "1:01 [--------------------------------]   0% ETA 0:01"
	    "  rate 0.0/s  replies 0  errors 0  p99 1234 ms");
	/* NaN: empty, not a cast out of range. */
	v.frac = NAN;
	progress_format(buf, sizeof(buf), &v, 100);
	ck_assert_str_eq(buf, "1:01 [--------------------------------]   0% ETA 0:01"
	    "  rate 0.0/s  replies 0  errors 0  p99 1234 ms");
}
END_TEST

/* A buffer smaller than the width: the line fits the buffer. */
START_TEST(test_small_buffer)
{
	struct progress_view v;
	char buf[16];
	size_t n;

	view_run(&v);
	n = progress_format(buf, sizeof(buf), &v, 200);
	ck_assert_uint_eq(n, 15);
	ck_assert_str_eq(buf, "0:12  45% ETA 0");
	ck_assert_uint_eq(progress_format(buf, 0, &v, 80), 0);
}
END_TEST

/* Huge numbers stay on the line, cut to the width, no control bytes. */
START_TEST(test_huge)
{
	struct progress_view v;
	char buf[PROGRESS_LINE_MAX];
	size_t i, n;

	view_run(&v);
	v.elapsed = UINT64_MAX;
	v.left = UINT64_MAX;
	v.replies = UINT64_MAX;
	v.errors = UINT64_MAX;
	v.rate = 1e300;
	v.target = 1e300;
	v.p99 = 1e300;
	n = progress_format(buf, sizeof(buf), &v, 1000);
	ck_assert_uint_eq(n, PROGRESS_LINE_MAX - 1);
	ck_assert_uint_eq(strlen(buf), n);
	for (i = 0; i < n; i++)
		ck_assert_msg(buf[i] >= ' ' && buf[i] < 127, "byte %zu", i);
	ck_assert_msg(strncmp(buf, "5124095:34:33 ", 14) == 0, "%s", buf);
}
END_TEST

/*
 * The time left at the pace so far: exact in range, none when all is
 * done, the most there is (not a wrapped 0:00) when nothing is done yet
 * or the estimate passes 2^64 ns: one arrival of 10^15 in 10 minutes.
 */
START_TEST(test_left)
{
	struct progress_view v;
	char buf[PROGRESS_LINE_MAX];

	ck_assert_uint_eq(progress_left(10 * SEC, 1, 4), 30 * SEC);
	ck_assert_uint_eq(progress_left(10 * SEC, 45, 100),
	    UINT64_C(12222222222));
	ck_assert_uint_eq(progress_left(10 * SEC, 4, 4), 0);
	ck_assert_uint_eq(progress_left(10 * SEC, 5, 4), 0);
	ck_assert_uint_eq(progress_left(10 * SEC, 0, 4), UINT64_MAX);
	ck_assert_uint_eq(progress_left(600 * SEC, 1,
	    UINT64_C(1000000000000000)), UINT64_MAX);
	ck_assert_uint_eq(progress_left(UINT64_MAX, 1, UINT64_MAX),
	    UINT64_MAX);
	ck_assert_uint_eq(progress_left(1, 1, UINT64_C(1) << 53),
	    (UINT64_C(1) << 53) - 1);
	view_run(&v);
	v.elapsed = 600 * SEC;
	v.frac = 1e-15;
	v.left = progress_left(600 * SEC, 1, UINT64_C(1000000000000000));
	progress_format(buf, sizeof(buf), &v, 80);
	ck_assert_msg(strncmp(buf, "10:00   0% ETA 5124095:34:34 ", 29) == 0,
	    "%s", buf);
}
END_TEST

/* Events every `gap' ns from t0 up to `now' (inclusive), then the rate. */
static int
rate_at(struct progress_rate *r, uint64_t t0, uint64_t gap, uint64_t now,
    double *rate)
{
	uint64_t t;

	progress_rate_start(r);
	for (t = t0; t <= now; t += gap)
		progress_rate_event(r, t);
	return progress_rate_get(r, now, rate);
}

/*
 * The achieved rate before the first second ends: never a partial
 * window scaled up (--rate 1 once read 4.0/s at 0.25 s).
 */
START_TEST(test_rate_first_second)
{
	struct progress_rate r;
	double rate;

	/* --rate 1: one arrival at 0; no estimate until a second ends. */
	ck_assert_int_eq(rate_at(&r, 0, SEC, SEC / 4, &rate), -1);
	ck_assert_int_eq(rate_at(&r, 0, SEC, SEC / 2, &rate), -1);
	ck_assert_int_eq(rate_at(&r, 0, SEC, SEC * 3 / 4, &rate), -1);
	/* The second [0, 1 s) held the one arrival: 1/s. */
	progress_rate_second(&r, 1, SEC);
	ck_assert_int_eq(progress_rate_get(&r, SEC, &rate), 0);
	ck_assert_double_eq_tol(rate, 1.0, 1e-9);
	/* Events after that second do not count: the next one does. */
	progress_rate_event(&r, SEC);
	ck_assert_int_eq(progress_rate_get(&r, SEC + SEC / 4, &rate), 0);
	ck_assert_double_eq_tol(rate, 1.0, 1e-9);
	progress_rate_second(&r, 3, SEC / 2);
	ck_assert_int_eq(progress_rate_get(&r, 2 * SEC, &rate), 0);
	ck_assert_double_eq_tol(rate, 6.0, 1e-9);

	/* --rate 20 at 0.25 s: 6 arrivals 50 ms apart, 20/s, whether the
	   one due at 0.25 s came before the line or not. */
	ck_assert_int_eq(rate_at(&r, 0, SEC / 20, SEC / 4, &rate), 0);
	ck_assert_double_eq_tol(rate, 20.0, 1e-9);
	ck_assert_int_eq(rate_at(&r, 0, SEC / 20, SEC / 4 - 1, &rate), 0);
	ck_assert_double_eq_tol(rate, 20.0, 1e-6);
	/* --rate 4 at 0.75 s: 4 arrivals (0 to 0.75 s), 4/s. */
	ck_assert_int_eq(rate_at(&r, 0, SEC / 4, SEC * 3 / 4, &rate), 0);
	ck_assert_double_eq_tol(rate, 4.0, 1e-9);
	/* A schedule starting late (the first arrival at 0.5 s, then every
	   0.1 s): 10/s, not the events over the whole time. */
	ck_assert_int_eq(rate_at(&r, SEC / 2, SEC / 10, SEC * 9 / 10, &rate),
	    0);
	ck_assert_double_eq_tol(rate, 10.0, 1e-6);

	/* Two events at once, then nothing: not an infinite rate; the
	   time since the first bounds it (2 in 0.25 s). */
	progress_rate_start(&r);
	progress_rate_event(&r, SEC / 100);
	progress_rate_event(&r, SEC / 100);
	ck_assert_int_eq(progress_rate_get(&r, SEC / 100, &rate), -1);
	ck_assert_int_eq(progress_rate_get(&r, SEC / 4 + SEC / 100, &rate),
	    0);
	ck_assert_double_eq_tol(rate, 8.0, 1e-9);
	/* A burst then silence: the silence lowers the estimate. */
	progress_rate_start(&r);
	progress_rate_event(&r, 0);
	progress_rate_event(&r, SEC / 100);
	ck_assert_int_eq(progress_rate_get(&r, SEC / 2, &rate), 0);
	ck_assert_double_eq_tol(rate, 4.0, 1e-9);
	/* No event at all: no estimate, and none at the start. */
	progress_rate_start(&r);
	ck_assert_int_eq(progress_rate_get(&r, 5 * SEC, &rate), -1);
	ck_assert_int_eq(progress_rate_get(&r, 5 * SEC + SEC / 2, &rate), -1);
}
END_TEST

/* No rate estimate yet: "-" where the rate goes. */
START_TEST(test_no_rate)
{
	struct progress_view v;
	char buf[PROGRESS_LINE_MAX];

	view_run(&v);
	v.have_rate = 0;
	progress_format(buf, sizeof(buf), &v, 200);
	ck_assert_str_eq(buf, "0:12 [##################----------------------]"
	    "  45% ETA 0:15  rate - of 100.0/s  replies 1234  errors 0  "
	    "p99 12.3 ms");
	progress_format(buf, sizeof(buf), &v, 80);
	ck_assert_str_eq(buf, "0:12 [#########-------------]  45% ETA 0:15 "
	    "-/100.0/s 1234 rep 0 err p99 12.3ms");
	v.target = 0;
	progress_format(buf, sizeof(buf), &v, 200);
	ck_assert_str_eq(buf, "0:12 [##################----------------------]"
	    "  45% ETA 0:15  rate -  replies 1234  errors 0  p99 12.3 ms");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("progress");

	tcase_add_loop_test(tc, test_run_widths, 0,
	    (int)(sizeof(run_lines) / sizeof(run_lines[0])));
	tcase_add_test(tc, test_open_end);
	tcase_add_test(tc, test_bar_ends);
	tcase_add_test(tc, test_small_buffer);
	tcase_add_test(tc, test_huge);
	tcase_add_test(tc, test_left);
	tcase_add_test(tc, test_rate_first_second);
	tcase_add_test(tc, test_no_rate);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
