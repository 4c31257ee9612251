/*
 * Unit tests for the session report: the five lines of 0.9.0's format from
 * hand-made totals (golden text), the cookie line, the length histogram's
 * growth, the zero cases that must print 0 rather than nan, and the retry
 * back-off of the session engine.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "gen/session.h"
#include "stat/basic_report.h"
#include "stat/sess_stat.h"
#include "unit.h"

#define NS	UINT64_C(1000000000)

/* Returns the report for `t' over `duration' ns (caller frees). */
static char *
report(const struct sess_stat_totals *t, uint64_t duration)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	sess_stat_report(f, t, duration);
	fclose(f);
	return buf;
}

START_TEST(report_empty)
{
	struct sess_stat_totals t;
	char *s;

	memset(&t, 0, sizeof(t));
	s = report(&t, 0);
	ck_assert_str_eq(s,
	    "\nSession rate [sess/s]: min 0.00 avg 0.00 max 0.00 "
	    "stddev 0.00 (0/0)\n"
	    "Session: avg 0.00 connections/session\n"
	    "Session lifetime [s]: 0.0\n"
	    "Session failtime [s]: 0.0\n"
	    "Session length histogram: 0\n");
	free(s);
}
END_TEST

/* A short run: no samples, so min and max stay 0 while avg is not. */
START_TEST(report_no_samples)
{
	struct sess_stat_totals t;
	char *s;

	memset(&t, 0, sizeof(t));
	t.completed = 3;
	t.conns = 4;
	t.lifetime_sum = 3 * NS / 5;
	sess_stat_add_len(&t, 2);
	sess_stat_add_len(&t, 2);
	sess_stat_add_len(&t, 2);
	s = report(&t, 694 * NS / 1000);
	ck_assert_str_eq(s,
	    "\nSession rate [sess/s]: min 0.00 avg 4.32 max 0.00 "
	    "stddev 0.00 (3/3)\n"
	    "Session: avg 1.33 connections/session\n"
	    "Session lifetime [s]: 0.2\n"
	    "Session failtime [s]: 0.0\n"
	    "Session length histogram: 0 0 3\n");
	free(s);
	free(t.len_hist);
}
END_TEST

START_TEST(report_full)
{
	struct sess_stat_totals t;
	char *s;

	memset(&t, 0, sizeof(t));
	basic_series_add(&t.rate, 4.0);
	basic_series_add(&t.rate, 6.0);
	basic_series_add(&t.rate, 8.0);
	t.completed = 90;
	t.failed = 10;
	t.conns = 135;
	t.lifetime_sum = 90 * 23 * NS / 10;		/* 2.3 s each */
	t.failtime_sum = 10 * NS * 3 / 2;		/* 1.5 s each */
	sess_stat_add_len(&t, 0);
	sess_stat_add_len(&t, 5);
	sess_stat_add_len(&t, 5);
	sess_stat_add_len(&t, 1);
	s = report(&t, 15 * NS);
	ck_assert_str_eq(s,
	    "\nSession rate [sess/s]: min 4.00 avg 6.00 max 8.00 "
	    "stddev 2.00 (90/100)\n"
	    "Session: avg 1.50 connections/session\n"
	    "Session lifetime [s]: 2.3\n"
	    "Session failtime [s]: 1.5\n"
	    "Session length histogram: 1 1 0 0 0 2\n");
	free(s);
	free(t.len_hist);
}
END_TEST

/* The histogram grows past its first allocation and keeps its counts. */
START_TEST(len_hist_grows)
{
	struct sess_stat_totals t;
	uint64_t i;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < 1000; i += 7)
		sess_stat_add_len(&t, i);
	sess_stat_add_len(&t, 7);
	ck_assert_uint_eq(t.len_n, 995);
	ck_assert_uint_eq(t.len_hist[0], 1);
	ck_assert_uint_eq(t.len_hist[7], 2);
	ck_assert_uint_eq(t.len_hist[8], 0);
	ck_assert_uint_eq(t.len_hist[994], 1);
	free(t.len_hist);
}
END_TEST

/* The sixth line appears with --session-cookies only. */
START_TEST(report_cookies)
{
	struct sess_stat_totals t;
	char *s;

	memset(&t, 0, sizeof(t));
	t.cookies = 1;
	t.cookies_ignored = 79000;
	s = report(&t, 0);
	ck_assert_str_eq(s,
	    "\nSession rate [sess/s]: min 0.00 avg 0.00 max 0.00 "
	    "stddev 0.00 (0/0)\n"
	    "Session: avg 0.00 connections/session\n"
	    "Session lifetime [s]: 0.0\n"
	    "Session failtime [s]: 0.0\n"
	    "Session length histogram: 0\n"
	    "Session cookies: ignored 79000\n");
	free(s);
}
END_TEST

/* 10 ms, doubling with each retry in a row, at most 1 s. */
START_TEST(retry_delay)
{
	static const struct {
		unsigned	 k;
		uint64_t	 ms;
	} rows[] = {
		{ 0, 10 }, { 1, 10 }, { 2, 20 }, { 3, 40 }, { 4, 80 },
		{ 5, 160 }, { 6, 320 }, { 7, 640 }, { 8, 1000 }, { 9, 1000 },
		{ 1000, 1000 }, { UINT32_MAX, 1000 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ck_assert_uint_eq(session_retry_delay(rows[i].k),
		    rows[i].ms * 1000000);
}
END_TEST

static Suite *
session_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, report_empty);
	tcase_add_test(tc, report_no_samples);
	tcase_add_test(tc, report_full);
	tcase_add_test(tc, len_hist_grows);
	tcase_add_test(tc, report_cookies);
	tcase_add_test(tc, retry_delay);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(session_suite());
}
