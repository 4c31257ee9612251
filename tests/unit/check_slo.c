/*
 * stat/slo.c: the objectives' expression parser (every accepted form
 * with what it means, every refusal with its exact message), the
 * verdict at the boundaries and the verdict line.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat/slo.h"
#include "unit.h"

static const struct {
	const char	*in;
	const char	*text;
	enum slo_metric	 metric;
	enum slo_hist	 hist;
	enum slo_stat	 stat;
	double		 q;
	int		 index;
	enum slo_op	 op;
	enum slo_unit	 unit;
	double		 value;
} accept[] = {
	{ "p99<5ms", "p99<5ms", SLO_HIST, SLO_H_REPLY, SLO_ST_PCT, 99, 0,
	    SLO_LT, SLO_U_NS, 5e6 },
	{ " p99.9 <= 250us ", "p99.9<=250us", SLO_HIST, SLO_H_REPLY,
	    SLO_ST_PCT, 99.9, 0, SLO_LE, SLO_U_NS, 250e3 },
	{ "p99.99<2", "p99.99<2", SLO_HIST, SLO_H_REPLY, SLO_ST_PCT, 99.99, 0,
	    SLO_LT, SLO_U_NS, 2e6 },
	{ "p50>1.5s", "p50>1.5s", SLO_HIST, SLO_H_REPLY, SLO_ST_PCT, 50, 0,
	    SLO_GT, SLO_U_NS, 1.5e9 },
	{ "max<100ns", "max<100ns", SLO_HIST, SLO_H_REPLY, SLO_ST_MAX, 0, 0,
	    SLO_LT, SLO_U_NS, 100 },
	{ "mean>=.5ms", "mean>=.5ms", SLO_HIST, SLO_H_REPLY, SLO_ST_MEAN, 0,
	    0, SLO_GE, SLO_U_NS, 5e5 },
	{ "corrected.p99<=20ms", "corrected.p99<=20ms", SLO_HIST,
	    SLO_H_CORRECTED, SLO_ST_PCT, 99, 0, SLO_LE, SLO_U_NS, 20e6 },
	{ "connect.p99<1ms", "connect.p99<1ms", SLO_HIST, SLO_H_CONNECT,
	    SLO_ST_PCT, 99, 0, SLO_LT, SLO_U_NS, 1e6 },
	{ "tls.max<1s", "tls.max<1s", SLO_HIST, SLO_H_TLS, SLO_ST_MAX, 0, 0,
	    SLO_LT, SLO_U_NS, 1e9 },
	{ "first-byte.p90<3", "first-byte.p90<3", SLO_HIST, SLO_H_FIRST_BYTE,
	    SLO_ST_PCT, 90, 0, SLO_LT, SLO_U_NS, 3e6 },
	{ "transfer.mean<1ms", "transfer.mean<1ms", SLO_HIST, SLO_H_TRANSFER,
	    SLO_ST_MEAN, 0, 0, SLO_LT, SLO_U_NS, 1e6 },
	{ "session.p99.9<10s", "session.p99.9<10s", SLO_HIST, SLO_H_SESSION,
	    SLO_ST_PCT, 99.9, 0, SLO_LT, SLO_U_NS, 1e10 },
	{ "errors<0.1%", "errors<0.1%", SLO_ERRORS, 0, 0, 0, 0, SLO_LT,
	    SLO_U_PCT, 0.1 },
	{ "errors<=10", "errors<=10", SLO_ERRORS, 0, 0, 0, 0, SLO_LE,
	    SLO_U_COUNT, 10 },
	{ "client-timo<=0", "client-timo<=0", SLO_ERRCLASS, 0, 0, 0, 0,
	    SLO_LE, SLO_U_COUNT, 0 },
	{ "connreset<1%", "connreset<1%", SLO_ERRCLASS, 0, 0, 0, 3, SLO_LT,
	    SLO_U_PCT, 1 },
	{ "other<=2", "other<=2", SLO_ERRCLASS, 0, 0, 0, 7, SLO_LE,
	    SLO_U_COUNT, 2 },
	{ "5xx<1%", "5xx<1%", SLO_STATUS, 0, 0, 0, 4, SLO_LT, SLO_U_PCT, 1 },
	{ "2xx>=100%", "2xx>=100%", SLO_STATUS, 0, 0, 0, 1, SLO_GE, SLO_U_PCT,
	    100 },
	{ "reply-rate>=100", "reply-rate>=100", SLO_REPLY_RATE, 0, 0, 0, 0,
	    SLO_GE, SLO_U_RATE, 100 },
	{ "reply-rate>2.5/s", "reply-rate>2.5/s", SLO_REPLY_RATE, 0, 0, 0, 0,
	    SLO_GT, SLO_U_RATE, 2.5 },
	{ "achieved>=99%", "achieved>=99%", SLO_ACHIEVED, 0, 0, 0, 0, SLO_GE,
	    SLO_U_PCT, 99 },
	{ "late<1%", "late<1%", SLO_LATE, 0, 0, 0, 0, SLO_LT, SLO_U_PCT, 1 },
	{ "late\t<\t3", "late<3", SLO_LATE, 0, 0, 0, 0, SLO_LT, SLO_U_COUNT,
	    3 },
};

START_TEST(test_accept)
{
	struct slo o;
	char err[SLO_ERR_MAX] = "";

	ck_assert_msg(slo_parse(accept[_i].in, &o, err, sizeof(err)) == 0,
	    "%s: %s", accept[_i].in, err);
	ck_assert_str_eq(o.text, accept[_i].text);
	ck_assert_int_eq(o.metric, accept[_i].metric);
	ck_assert_int_eq(o.op, accept[_i].op);
	ck_assert_int_eq(o.unit, accept[_i].unit);
	ck_assert_double_eq(o.value, accept[_i].value);
	if (o.metric == SLO_HIST) {
		ck_assert_int_eq(o.hist, accept[_i].hist);
		ck_assert_int_eq(o.stat, accept[_i].stat);
		ck_assert_double_eq(o.q, accept[_i].q);
	}
	if (o.metric == SLO_ERRCLASS || o.metric == SLO_STATUS)
		ck_assert_int_eq(o.index, accept[_i].index);
}
END_TEST

static const struct {
	const char	*in;
	const char	*msg;
} refuse[] = {
	{ "", "no comparison (<, <=, > or >=)" },
	{ "p99=5ms", "no comparison (<, <=, > or >=)" },
	{ "p99", "no comparison (<, <=, > or >=)" },
	{ "<5ms", "no metric before the comparison" },
	{ "  <=5ms", "no metric before the comparison" },
	{ "p99<", "no number after the comparison" },
	{ "p99<-1ms", "no number after the comparison" },
	{ "p99<ms", "no number after the comparison" },
	{ "p99<<5ms", "no number after the comparison" },
	{ "p99<.ms", "no number after the comparison" },
	{ "p99<1..2ms", "no number after the comparison" },
	{ "p99<5 ms", "a time's unit is ns, us, ms or s, not \" ms\"" },
	{ "p99<5min", "a time's unit is ns, us, ms or s, not \"min\"" },
	{ "p99<5%", "a time's unit is ns, us, ms or s, not \"%\"" },
	{ "p99<1e3", "a time's unit is ns, us, ms or s, not \"e3\"" },
	{ "p100<5ms", "a percentile is above p0 and below p100 "
	    "(max is the largest)" },
	{ "p0<5ms", "a percentile is above p0 and below p100 "
	    "(max is the largest)" },
	{ "p<5ms", "unknown metric \"p\"" },
	{ "p9x<5ms", "unknown metric \"p9x\"" },
	{ "P99<5ms", "unknown metric \"P99\"" },
	{ "p 99<5ms", "unknown metric \"p 99\"" },
	{ "latency<5ms", "unknown metric \"latency\"" },
	{ "reply.p99<5ms", "unknown metric \"reply.p99\"" },
	{ "6xx<1%", "unknown metric \"6xx\"" },
	{ "corrected.errors<1%", "unknown statistic \"errors\" (pN, max or "
	    "mean)" },
	{ "connect.<1ms", "unknown metric \"connect.\"" },
	{ "tls.p99.9.9<1ms", "unknown statistic \"p99.9.9\" (pN, max or "
	    "mean)" },
	{ "errors<101%", "a count's limit is a percentage (at most 100%) or "
	    "a whole number" },
	{ "errors<1.5", "a count's limit is a percentage (at most 100%) or "
	    "a whole number" },
	{ "errors<1ms", "a count's limit is a percentage (at most 100%) or "
	    "a whole number" },
	{ "achieved>=99", "achieved is a percentage of the target rate, at "
	    "most 100%" },
	{ "achieved>=120%", "achieved is a percentage of the target rate, at "
	    "most 100%" },
	{ "reply-rate>=100%", "a rate is a number (per second)" },
	{ "reply-rate>=100/m", "a rate is a number (per second)" },
	{ "first-byte.p99999999999999999999999999999999999999999999999999999"
	    "<1ms", "too long (at most 63 characters)" },
};

START_TEST(test_refuse)
{
	struct slo o;
	char err[SLO_ERR_MAX] = "";

	ck_assert_msg(slo_parse(refuse[_i].in, &o, err, sizeof(err)) == -1,
	    "%s: accepted", refuse[_i].in);
	ck_assert_str_eq(err, refuse[_i].msg);
}
END_TEST

/* Each comparison at, just under and just over its limit. */
START_TEST(test_pass_boundaries)
{
	struct slo o;
	char err[SLO_ERR_MAX];

	ck_assert_int_eq(slo_parse("p99<5ms", &o, err, sizeof(err)), 0);
	ck_assert_int_eq(slo_pass(&o, 4999999), 1);
	ck_assert_int_eq(slo_pass(&o, 5000000), 0);
	ck_assert_int_eq(slo_parse("p99<=5ms", &o, err, sizeof(err)), 0);
	ck_assert_int_eq(slo_pass(&o, 5000000), 1);
	ck_assert_int_eq(slo_pass(&o, 5000001), 0);
	ck_assert_int_eq(slo_parse("reply-rate>100", &o, err, sizeof(err)),
	    0);
	ck_assert_int_eq(slo_pass(&o, 100), 0);
	ck_assert_int_eq(slo_pass(&o, 100.001), 1);
	ck_assert_int_eq(slo_parse("reply-rate>=100", &o, err, sizeof(err)),
	    0);
	ck_assert_int_eq(slo_pass(&o, 100), 1);
	ck_assert_int_eq(slo_pass(&o, 99.999), 0);
	/* Nothing measured never passes. */
	ck_assert_int_eq(slo_pass(&o, NAN), 0);
	ck_assert_int_eq(slo_parse("errors<=0", &o, err, sizeof(err)), 0);
	ck_assert_int_eq(slo_pass(&o, NAN), 0);
}
END_TEST

/* A count objective's measure: absolute, or a share of the total. */
START_TEST(test_count_value)
{
	struct slo o;
	char err[SLO_ERR_MAX];

	ck_assert_int_eq(slo_parse("errors<0.1%", &o, err, sizeof(err)), 0);
	ck_assert_double_eq(slo_count_value(&o, 1, 1000), 0.1);
	ck_assert_int_eq(slo_pass(&o, slo_count_value(&o, 1, 1000)), 0);
	ck_assert_int_eq(slo_pass(&o, slo_count_value(&o, 1, 1001)), 1);
	ck_assert_int_eq(slo_pass(&o, slo_count_value(&o, 0, 1)), 1);
	ck_assert(isnan(slo_count_value(&o, 0, 0)));
	ck_assert_int_eq(slo_parse("errors<=10", &o, err, sizeof(err)), 0);
	ck_assert_double_eq(slo_count_value(&o, 10, 20), 10);
	ck_assert_int_eq(slo_pass(&o, slo_count_value(&o, 10, 20)), 1);
	ck_assert_int_eq(slo_pass(&o, slo_count_value(&o, 11, 20)), 0);
	ck_assert_double_eq(slo_count_value(&o, 0, 0), 0);
}
END_TEST

static const struct {
	const char	*in;
	double		 measured;
	const char	*line;
} lines[] = {
	{ "p99<5ms", 3214567, "Objective p99<5ms: 3.215 ms PASS" },
	{ "p99 < 5ms", 5000000, "Objective p99<5ms: 5.000 ms FAIL" },
	{ "max<1s", NAN, "Objective max<1s: - ms FAIL" },
	{ "errors<0.1%", 0.25, "Objective errors<0.1%: 0.250 % FAIL" },
	{ "errors<=10", 3, "Objective errors<=10: 3 count PASS" },
	{ "client-timo<=0", 0, "Objective client-timo<=0: 0 count PASS" },
	{ "reply-rate>=100", 99.95, "Objective reply-rate>=100: 99.950 /s "
	    "FAIL" },
	{ "achieved>=99%", 99.5, "Objective achieved>=99%: 99.500 % PASS" },
};

START_TEST(test_format)
{
	struct slo o;
	char err[SLO_ERR_MAX], buf[SLO_LINE_MAX];

	ck_assert_int_eq(slo_parse(lines[_i].in, &o, err, sizeof(err)), 0);
	slo_format(buf, sizeof(buf), &o, lines[_i].measured);
	ck_assert_str_eq(buf, lines[_i].line);
}
END_TEST

/* The longest expression kept, and its line, fit. */
START_TEST(test_longest)
{
	struct slo o;
	char in[SLO_TEXT_MAX], err[SLO_ERR_MAX], buf[SLO_LINE_MAX];
	size_t n;

	strcpy(in, "first-byte.p99.");
	n = strlen(in);
	memset(in + n, '1', sizeof(in) - n - 1);
	memcpy(in + sizeof(in) - 6, "<=1ms", 6);
	ck_assert_int_eq(slo_parse(in, &o, err, sizeof(err)), 0);
	ck_assert_str_eq(o.text, in);
	slo_format(buf, sizeof(buf), &o, 1e300);
	ck_assert_str_eq(buf + strlen(in) + 12, "1.000000e+294 ms FAIL");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("slo");
	TCase *tc = tcase_create("slo");

	tcase_add_loop_test(tc, test_accept, 0, (int)(sizeof(accept) /
	    sizeof(accept[0])));
	tcase_add_loop_test(tc, test_refuse, 0, (int)(sizeof(refuse) /
	    sizeof(refuse[0])));
	tcase_add_test(tc, test_pass_boundaries);
	tcase_add_test(tc, test_count_value);
	tcase_add_loop_test(tc, test_format, 0, (int)(sizeof(lines) /
	    sizeof(lines[0])));
	tcase_add_test(tc, test_longest);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
