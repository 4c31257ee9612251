/*
 * merge.c: synthetic results (written by the collectors' own JSON
 * functions, read back by the reader) add up exactly; refusals name the
 * member.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonr.h"
#include "jsonw.h"
#include "merge.h"
#include "result.h"
#include "stat/basic.h"
#include "stat/hdr.h"

/*
 * A result document of one client: `n' replies of `v' ns, reply-rate
 * samples `s0', `s1', options rate `rate', histogram digits `digits'.
 */
static struct jv *
doc(unsigned id, uint64_t start, uint64_t n, uint64_t v, double s0,
    double s1, double rate, int digits)
{
	struct basic b;
	struct result_head h;
	struct jsonw w;
	struct jv *root;
	char *buf = NULL, err[128];
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	memset(&b, 0, sizeof(b));
	for (i = 0; i < BASIC_NPHASES; i++)
		if (i != BASIC_PH_TLS && i != BASIC_PH_SESSION)
			b.phase[i] = hdr_new(1, HDR_NS_HIGHEST, digits);
	hdr_record_n(b.phase[BASIC_PH_REPLY], v, n);
	b.t.conns_issued = n;
	b.t.reqs_sent = n;
	b.t.replies[2] = n;
	b.t.lifetime_n = n;
	b.t.lifetime_min = v;
	b.t.lifetime_max = v + id;
	b.t.lifetime_sum = n * v;
	b.t.max_concurrent = 2;
	b.burst_max = id + 1;
	b.net_bytes = 1000 * n;
	stat_samples_add(&b.t.reply_rate, &b.rr, s0);
	stat_samples_add(&b.t.reply_rate, &b.rr, s1);
	memset(&h, 0, sizeof(h));
	h.start_ns = start;
	h.duration_ns = 1000000000;
	h.num_clients = 4;
	h.ids = &id;
	h.nids = 1;
	h.host = "h";
	h.echo = "httperf";
	jsonw_init(&w, f);
	jsonw_obj_begin(&w);
	result_write_head(&w, &h);
	jsonw_key(&w, "options");
	jsonw_obj_begin(&w);
	jsonw_kdouble(&w, "rate", rate);
	jsonw_kstr(&w, "client", "x");
	jsonw_obj_end(&w);
	jsonw_key(&w, "stats");
	jsonw_obj_begin(&w);
	jsonw_key(&w, "basic");
	basic_json(&b, &w, h.duration_ns, 0.5, 0.25);
	jsonw_obj_end(&w);
	jsonw_obj_end(&w);
	ck_assert_int_eq(jsonw_finish(&w), 0);
	fclose(f);
	basic_fini(&b);
	root = jv_parse(buf, len, err, sizeof(err));
	ck_assert_msg(root != NULL, "%s", err);
	free(buf);
	return root;
}

START_TEST(test_sums)
{
	struct jv *a = doc(0, 1000000000, 10, 5000, 2.0, 4.0, 100, 3);
	struct jv *b = doc(2, 1500000000, 30, 9000, 1.0, 8.0, 100, 3);
	struct merge m;
	struct basic_totals *t = &m.basic.t;

	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(merge_add(&m, a, "a", "httperf", stderr), 0);
	ck_assert_int_eq(merge_add(&m, b, "b", "httperf", stderr), 0);
	merge_finish(&m);
	ck_assert_uint_eq(t->conns_issued, 40);
	ck_assert_uint_eq(t->replies[2], 40);
	ck_assert_uint_eq(t->lifetime_n, 40);
	ck_assert_uint_eq(t->lifetime_min, 5000);
	ck_assert_uint_eq(t->lifetime_max, 9002);
	ck_assert_uint_eq(t->lifetime_sum, 10 * 5000 + 30 * 9000);
	ck_assert_uint_eq(t->max_concurrent, 4);
	ck_assert_uint_eq(m.basic.burst_max, 3);
	ck_assert_uint_eq(m.basic.net_bytes, 40000);
	/* The union window: 1.0 s to 2.5 s. */
	ck_assert_uint_eq(m.end_ns - m.start_ns, 1500000000);
	ck_assert_double_eq(m.cpu_user, 1.0);
	/* Samples summed index by index: 3 and 12. */
	ck_assert_uint_eq(t->reply_rate.n, 2);
	ck_assert_double_eq(t->reply_rate.min, 3.0);
	ck_assert_double_eq(t->reply_rate.max, 12.0);
	ck_assert_double_eq(t->reply_rate.sum, 15.0);
	/* Histograms added, not averaged: p50 is the bigger run's value. */
	ck_assert_uint_eq(hdr_count(m.basic.phase[BASIC_PH_REPLY]), 40);
	ck_assert_uint_eq(hdr_value_at_percentile(
	    m.basic.phase[BASIC_PH_REPLY], 50.0),
	    hdr_highest_equivalent(m.basic.phase[BASIC_PH_REPLY], 9000));
	ck_assert_uint_eq(m.nids, 2);
	ck_assert_uint_eq(m.ids[0], 0);
	ck_assert_uint_eq(m.ids[1], 2);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
}
END_TEST

/* Merges a then b; returns merge_add()'s result for b and its message. */
static int
refused(struct jv *a, struct jv *b, char *msg, size_t len)
{
	struct merge m;
	FILE *err = fmemopen(msg, len, "w");
	int rv;

	memset(msg, 0, len);
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(merge_add(&m, a, "a.json", "httperf", err), 0);
	rv = merge_add(&m, b, "b.json", "httperf", err);
	fclose(err);
	merge_free(&m);
	jv_free(a);
	jv_free(b);
	return rv;
}

START_TEST(test_refusals)
{
	char msg[512];

	ck_assert_int_eq(refused(doc(0, 1, 1, 1000, 1, 1, 100, 3),
	    doc(1, 1, 1, 1000, 1, 1, 200, 3), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "httperf: --merge: b.json: options.rate: "
	    "differs from a.json") != NULL, "%s", msg);
	ck_assert_int_eq(refused(doc(0, 1, 1, 1000, 1, 1, 100, 3),
	    doc(1, 1, 1, 1000, 1, 1, 100, 2), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: stats.basic.histograms.connection: "
	    "histogram settings") != NULL, "%s", msg);
	ck_assert_int_eq(refused(doc(1, 1, 1, 1000, 1, 1, 100, 3),
	    doc(1, 1, 1, 1000, 1, 1, 100, 3), msg, sizeof(msg)), -1);
	ck_assert_msg(strstr(msg, "b.json: client.ids: client 1/4 is also")
	    != NULL, "%s", msg);
	/* One line each. */
	ck_assert_ptr_eq(strchr(msg, '\n'), msg + strlen(msg) - 1);
}
END_TEST

static Suite *
merge_suite(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sums);
	tcase_add_test(tc, test_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(merge_suite());
	int nfail;

	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
