/*
 * report/sweep_search.c: the sweep spec parser (every accepted form,
 * every refusal with its exact message), the fixed sweep's levels and
 * the capacity search, driven by made-up servers (no network).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/sweep_search.h"
#include "unit.h"

static const struct {
	const char	*in;
	int		 integer;
	double		 from, to, step, factor;
	size_t		 count;
	double		 last;
} accept[] = {
	{ "10:100:10", 0, 10, 100, 10, 0, 10, 100 },
	{ "10:100:20", 0, 10, 100, 20, 0, 5, 90 },
	{ "5:5:1", 0, 5, 5, 1, 0, 1, 5 },
	{ "0.5:2:0.5", 0, 0.5, 2, 0.5, 0, 4, 2 },
	{ "0.1:0.3:0.1", 0, 0.1, 0.3, 0.1, 0, 3, 0.3 },
	{ "1:1000:1", 0, 1, 1000, 1, 0, 1000, 1000 },
	{ "1:100*2", 0, 1, 100, 0, 2, 7, 64 },
	{ "100:1600*2", 0, 100, 1600, 0, 2, 5, 1600 },
	{ "1e3:2e3*1.5", 0, 1000, 2000, 0, 1.5, 2, 1500 },
	{ "1:10*1.5", 1, 1, 10, 0, 1.5, 5, 8 },
	{ "4:64*2", 1, 4, 64, 0, 2, 5, 64 },
	{ "10:50:10", 1, 10, 50, 10, 0, 5, 50 },
	{ "7:7*3", 1, 7, 7, 0, 3, 1, 7 },
};

START_TEST(test_accept)
{
	struct sweep_spec s;
	char err[SWEEP_ERR_MAX] = "";

	ck_assert_msg(sweep_spec_parse(accept[_i].in, accept[_i].integer, &s,
	    err, sizeof(err)) == 0, "%s: %s", accept[_i].in, err);
	ck_assert_double_eq(s.from, accept[_i].from);
	ck_assert_double_eq(s.to, accept[_i].to);
	ck_assert_double_eq(s.step, accept[_i].step);
	ck_assert_double_eq(s.factor, accept[_i].factor);
	ck_assert_int_eq(s.integer, accept[_i].integer);
	ck_assert_uint_eq(sweep_spec_count(&s), accept[_i].count);
	ck_assert_double_eq_tol(sweep_spec_level(&s, 0), accept[_i].from,
	    1e-12);
	ck_assert_double_eq_tol(sweep_spec_level(&s, accept[_i].count - 1),
	    accept[_i].last, 1e-9);
}
END_TEST

static const struct {
	const char	*in;
	int		 integer;
	const char	*msg;
} refuse[] = {
	{ "", 0, "expected FROM:TO:STEP or FROM:TO*FACTOR" },
	{ "10", 0, "expected FROM:TO:STEP or FROM:TO*FACTOR" },
	{ "10:100", 0, "expected FROM:TO:STEP or FROM:TO*FACTOR" },
	{ "10*2:100", 0, "expected FROM:TO:STEP or FROM:TO*FACTOR" },
	{ ":100:10", 0, "no FROM" },
	{ "10::10", 0, "no TO" },
	{ "10:100:", 0, "no STEP" },
	{ "10:100*", 0, "no FACTOR" },
	{ "x:100:10", 0, "FROM \"x\" is not a number" },
	{ "10:1e:10", 0, "TO \"1e\" is not a number" },
	{ "10:100:10:5", 0, "STEP \"10:5\" is not a number" },
	{ "10:100*two", 0, "FACTOR \"two\" is not a number" },
	{ " 10:100:10", 0, "FROM \" 10\" is not a number" },
	{ "10:100:10 ", 0, "STEP \"10 \" is not a number" },
	{ "inf:100:10", 0, "FROM \"inf\" is not a number" },
	{ "10:nan:10", 0, "TO \"nan\" is not a number" },
	{ "10:100:10*2", 0, "STEP \"10*2\" is not a number" },
	{ "0:100:10", 0, "FROM is not above 0" },
	{ "-5:100:10", 0, "FROM is not above 0" },
	{ "10:9:1", 0, "TO is below FROM" },
	{ "10:100:0", 0, "STEP is not above 0" },
	{ "10:100:-1", 0, "STEP is not above 0" },
	{ "10:100*1", 0, "FACTOR is not above 1" },
	{ "10:100*0", 0, "FACTOR is not above 1" },
	{ "10:100*0.5", 0, "FACTOR is not above 1" },
	{ "1.5:10:1", 1, "FROM is not a whole number" },
	{ "1:10.5:1", 1, "TO is not a whole number" },
	{ "1:10:0.5", 1, "STEP is not a whole number" },
	{ "1:10.5*2", 1, "TO is not a whole number" },
	{ "1:1001:1", 0, "more than 1000 levels" },
	{ "1:1000:0.5", 0, "more than 1000 levels" },
	{ "1:1000*1.001", 0, "more than 1000 levels" },
};

START_TEST(test_refuse)
{
	struct sweep_spec s;
	char err[SWEEP_ERR_MAX] = "";

	ck_assert_int_eq(sweep_spec_parse(refuse[_i].in, refuse[_i].integer,
	    &s, err, sizeof(err)), -1);
	ck_assert_str_eq(err, refuse[_i].msg);
}
END_TEST

/* The levels in order. */
START_TEST(test_levels)
{
	static const double lin[] = { 10, 30, 50, 70, 90 };
	static const double geo[] = { 1, 2, 3, 5, 8 };
	struct sweep_spec s;
	char err[SWEEP_ERR_MAX];
	size_t i;

	ck_assert_int_eq(sweep_spec_parse("10:100:20", 0, &s, err,
	    sizeof(err)), 0);
	for (i = 0; i < 5; i++)
		ck_assert_double_eq(sweep_spec_level(&s, i), lin[i]);
	ck_assert_int_eq(sweep_spec_parse("1:10*1.5", 1, &s, err,
	    sizeof(err)), 0);
	for (i = 0; i < 5; i++)
		ck_assert_double_eq(sweep_spec_level(&s, i), geo[i]);
}
END_TEST

#define TRACE_MAX	64

/* A made-up server and what the search asked of it. */
struct server {
	double		 capacity;	/* passes iff level <= capacity */
	double		 client;	/* > 0: CLIENT at level >= client */
	double		 client_at;	/* > 0: CLIENT at this level */
	size_t		 client_step;	/* > 0: CLIENT at this step (1..) */
	double		 flaky;		/* > 0: this level's 2nd run flips */
	int		 objectives;
	int		 fixed;		/* a fixed plan (sweep_search_fixed) */
	int		 runs_at_flaky;
	size_t		 n;
	double		 level[TRACE_MAX];
	enum sweep_kind	 kind[TRACE_MAX];
	struct sweep_capacity cap;
};

static enum sweep_verdict
server_verdict(struct server *sv, double level)
{
	int pass = level <= sv->capacity;

	if ((sv->client > 0 && level >= sv->client) ||
	    level == sv->client_at || sv->n == sv->client_step)
		return SWEEP_V_CLIENT;
	if (!sv->objectives)
		return SWEEP_V_NONE;
	if (sv->flaky > 0 && level == sv->flaky && sv->runs_at_flaky++ == 1)
		pass = !pass;
	return pass ? SWEEP_V_PASS : SWEEP_V_FAIL;
}

/* Runs the whole search of `spec' against sv; returns the step count. */
static size_t
server_search(struct server *sv, const char *spec, int integer,
    double precision)
{
	struct sweep_spec s;
	struct sweep_search ss;
	char err[SWEEP_ERR_MAX];
	double level;
	enum sweep_kind kind;

	ck_assert_int_eq(sweep_spec_parse(spec, integer, &s, err,
	    sizeof(err)), 0);
	sweep_search_init(&ss, &s, precision, sv->objectives);
	if (sv->fixed)
		sweep_search_fixed(&ss);
	sv->n = 0;
	while (sweep_search_next(&ss, &level, &kind)) {
		ck_assert_uint_lt(sv->n, TRACE_MAX);
		sv->level[sv->n] = level;
		sv->kind[sv->n++] = kind;
		sweep_search_result(&ss, server_verdict(sv, level));
	}
	ck_assert_int_eq(sweep_search_next(&ss, &level, &kind), 0);
	sweep_search_answer(&ss, &sv->cap);
	return sv->n;
}

static const struct {
	const char	*spec;
	int		 integer;
	double		 x;
	size_t		 plan;		/* plan steps */
	size_t		 probes;
} exact[] = {
	/* Brackets of 10 % of 1000: 3 probes down to 2 %. */
	{ "100:2000:100", 0, 1234, 13, 3 },
	{ "100:2000:100", 0, 1000, 11, 3 },
	{ "100:2000:100", 0, 1099, 11, 3 },
	{ "100:2000:100", 0, 1001, 11, 3 },
	{ "500:5000:500", 0, 1999, 4, 4 },
	{ "10:100000*2", 0, 500, 7, 5 },
	{ "10:100000*2", 0, 333.3, 7, 6 },
	{ "1:1000*1.1", 0, 47, 42, 3 },
	/* Concurrencies: whole levels, to 1 apart (or 2 %). */
	{ "1:64*2", 1, 37, 7, 5 },
	{ "1:64*2", 1, 5, 4, 2 },
	{ "10:200:10", 1, 123, 13, 3 },
	{ "1:1000:100", 1, 550, 7, 4 },
};

/* A server whose capacity is exactly x: found within 2 %, never above. */
START_TEST(test_exact)
{
	struct server sv = { .capacity = exact[_i].x, .objectives = 1 };
	size_t i, n, plan = exact[_i].plan, probes = exact[_i].probes;

	n = server_search(&sv, exact[_i].spec, exact[_i].integer, 0.02);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_FOUND);
	ck_assert_double_le(sv.cap.capacity, exact[_i].x);
	ck_assert_double_gt(sv.cap.fail, exact[_i].x);
	ck_assert(sv.cap.fail - sv.cap.capacity <= 0.02 * sv.cap.capacity ||
	    (exact[_i].integer && sv.cap.fail - sv.cap.capacity <= 1));
	ck_assert_int_eq(sv.cap.repeated, 2);
	ck_assert_int_eq(sv.cap.agree, 1);
	ck_assert_uint_eq(n, plan + probes + 2);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(sv.kind[i], i < plan ? SWEEP_K_PLAN :
		    i < plan + probes ? SWEEP_K_PROBE : SWEEP_K_REPEAT);
		if (exact[_i].integer)
			ck_assert_double_eq(sv.level[i], floor(sv.level[i]));
	}
	ck_assert_double_eq(sv.level[n - 2], sv.cap.capacity);
	ck_assert_double_eq(sv.level[n - 1], sv.cap.fail);
}
END_TEST

/* The trace of one bisection, level by level. */
START_TEST(test_trace)
{
	static const double want[] = { 100, 110, 105, 102.5, 101.25, 100,
	    101.25 };
	struct server sv = { .capacity = 100.5, .objectives = 1 };
	size_t i;

	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 7);
	for (i = 0; i < 7; i++)
		ck_assert_double_eq(sv.level[i], want[i]);
	ck_assert_double_eq(sv.cap.capacity, 100);
	ck_assert_double_eq(sv.cap.fail, 101.25);
}
END_TEST

START_TEST(test_first_fail)
{
	struct server sv = { .capacity = 99, .objectives = 1 };

	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 1);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_FIRST_FAIL);
	ck_assert_double_eq(sv.cap.capacity, 0);
	ck_assert_double_eq(sv.cap.fail, 0);
	ck_assert_int_eq(sv.cap.repeated, 0);
	ck_assert_int_eq(sv.cap.agree, 1);
}
END_TEST

START_TEST(test_all_pass)
{
	struct server sv = { .capacity = 1e9, .objectives = 1 };
	size_t i;

	ck_assert_uint_eq(server_search(&sv, "100:200:30", 0, 0.02), 4);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(sv.kind[i], SWEEP_K_PLAN);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_ALL_PASS);
	ck_assert_double_eq(sv.cap.capacity, 190);
	ck_assert_int_eq(sv.cap.repeated, 0);
	ck_assert_int_eq(sv.cap.agree, 1);
	ck_assert_uint_eq(server_search(&sv, "100:200:50", 0, 0.02), 3);
	ck_assert_double_eq(sv.cap.capacity, 200);
}
END_TEST

/* The client limit in the plan, in the bisection, at the first step. */
START_TEST(test_client)
{
	struct server sv = { .capacity = 1e9, .client = 150,
	    .objectives = 1 };

	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 6);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_CLIENT);
	ck_assert_double_eq(sv.cap.capacity, 140);
	ck_assert_double_eq(sv.cap.client_level, 150);
	ck_assert_double_eq(sv.cap.fail, 0);

	sv.capacity = 100;
	sv.client = 104;
	/* 100 pass, 110 client */
	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 2);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_CLIENT);
	ck_assert_double_eq(sv.cap.client_level, 110);
	ck_assert_double_eq(sv.cap.capacity, 100);

	/* 100 pass, 110 fail, 105 client */
	sv.capacity = 101;
	sv.client = 0;
	sv.client_at = 105;
	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 3);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_CLIENT);
	ck_assert_int_eq(sv.kind[2], SWEEP_K_PROBE);
	ck_assert_double_eq(sv.cap.client_level, 105);
	ck_assert_double_eq(sv.cap.capacity, 100);

	/* ...and at a repeat: 100 110 105 102.5 101.25, repeat 100. */
	sv.client_at = 0;
	sv.capacity = 100.5;
	sv.client_step = 6;
	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 6);
	ck_assert_int_eq(sv.kind[5], SWEEP_K_REPEAT);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_CLIENT);
	ck_assert_double_eq(sv.cap.client_level, 100);
	ck_assert_double_eq(sv.cap.capacity, 100);
	ck_assert_double_eq(sv.cap.fail, 0);

	sv.client_step = 0;
	sv.client = 1;
	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 1);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_CLIENT);
	ck_assert_double_eq(sv.cap.capacity, 0);

	sv.objectives = 0;
	sv.client = 130;
	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 4);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_CLIENT);
	ck_assert_double_eq(sv.cap.capacity, 0);
}
END_TEST

/* The last pass fails on its repeat: the pass below it is the answer. */
START_TEST(test_flaky_pass)
{
	struct server sv = { .capacity = 1050, .flaky = 1040,
	    .objectives = 1 };

	/* plan 1000 1100; probes 1050 1075 1062.5 1056.25; repeat 1050 */
	sv.flaky = 1050;
	ck_assert_uint_eq(server_search(&sv, "1000:2000:100", 0, 0.01), 7);
	ck_assert_int_eq(sv.kind[6], SWEEP_K_REPEAT);
	ck_assert_double_eq(sv.level[6], 1050);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_FOUND);
	ck_assert_int_eq(sv.cap.repeated, 1);
	ck_assert_int_eq(sv.cap.agree, 0);
	ck_assert_double_eq(sv.cap.capacity, 1000);
	ck_assert_double_eq(sv.cap.fail, 1050);

	/* The only pass is FROM: nothing is left below it. */
	sv.capacity = 1000;
	sv.flaky = 1000;
	sv.runs_at_flaky = 0;
	ck_assert_uint_eq(server_search(&sv, "1000:2000:100", 0, 0.02), 6);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_FIRST_FAIL);
	ck_assert_int_eq(sv.cap.agree, 0);
	ck_assert_double_eq(sv.cap.capacity, 0);
}
END_TEST

/* The first fail passes on its repeat: the capacity stays the pass. */
START_TEST(test_flaky_fail)
{
	struct server sv = { .capacity = 1000, .flaky = 1012.5,
	    .objectives = 1 };

	/* plan 1000 1100; probes 1050 1025 1012.5; repeats 1000 1012.5 */
	ck_assert_uint_eq(server_search(&sv, "1000:2000:100", 0, 0.02), 7);
	ck_assert_double_eq(sv.level[6], 1012.5);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_FOUND);
	ck_assert_int_eq(sv.cap.repeated, 2);
	ck_assert_int_eq(sv.cap.agree, 0);
	ck_assert_double_eq(sv.cap.capacity, 1000);
	ck_assert_double_eq(sv.cap.fail, 1012.5);
}
END_TEST

/* Without objectives: exactly the plan's levels, in order. */
START_TEST(test_no_objectives)
{
	struct server sv = { .capacity = 150, .objectives = 0 };
	size_t i;

	ck_assert_uint_eq(server_search(&sv, "100:200:10", 0, 0.02), 11);
	for (i = 0; i < 11; i++) {
		ck_assert_int_eq(sv.kind[i], SWEEP_K_PLAN);
		ck_assert_double_eq_tol(sv.level[i], 100 + 10 * (double)i,
		    1e-9);
	}
	ck_assert_int_eq(sv.cap.end, SWEEP_E_NONE);
	ck_assert_double_eq(sv.cap.capacity, 0);
	ck_assert_int_eq(sv.cap.repeated, 0);
}
END_TEST

/*
 * A fixed plan (several clients): every planned level runs, in order,
 * whatever the verdicts; the first step that is not a pass decides.
 */
START_TEST(test_fixed)
{
	struct server sv = { .capacity = 250, .objectives = 1, .fixed = 1 };
	size_t i;

	ck_assert_uint_eq(server_search(&sv, "100:500:100", 0, 0.02), 5);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(sv.kind[i], SWEEP_K_PLAN);
		ck_assert_double_eq(sv.level[i], 100 * (double)(i + 1));
	}
	ck_assert_int_eq(sv.cap.end, SWEEP_E_FOUND);
	ck_assert_double_eq(sv.cap.capacity, 200);
	ck_assert_double_eq(sv.cap.fail, 300);
	ck_assert_int_eq(sv.cap.repeated, 0);
	ck_assert_int_eq(sv.cap.agree, 1);

	sv.capacity = 50;
	ck_assert_uint_eq(server_search(&sv, "100:500:100", 0, 0.02), 5);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_FIRST_FAIL);
	ck_assert_double_eq(sv.cap.capacity, 0);
	ck_assert_double_eq(sv.cap.fail, 0);

	sv.capacity = 1e9;
	ck_assert_uint_eq(server_search(&sv, "100:500:100", 0, 0.02), 5);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_ALL_PASS);
	ck_assert_double_eq(sv.cap.capacity, 500);

	/* The client limit does not stop the plan either. */
	sv.client = 300;
	ck_assert_uint_eq(server_search(&sv, "100:500:100", 0, 0.02), 5);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_CLIENT);
	ck_assert_double_eq(sv.cap.capacity, 200);
	ck_assert_double_eq(sv.cap.client_level, 300);

	sv.client = 0;
	sv.objectives = 0;
	ck_assert_uint_eq(server_search(&sv, "100:500:100", 0, 0.02), 5);
	ck_assert_int_eq(sv.cap.end, SWEEP_E_NONE);
	ck_assert_double_eq(sv.cap.capacity, 0);
}
END_TEST

/* The answer of given steps (a merge's): a pass after a fail changes
   nothing, nor does a client limit after it. */
START_TEST(test_fixed_answer)
{
	static const double lv[] = { 200, 400, 600, 800 };
	static const enum sweep_verdict v1[] = { SWEEP_V_PASS, SWEEP_V_PASS,
	    SWEEP_V_FAIL, SWEEP_V_PASS };
	static const enum sweep_verdict v2[] = { SWEEP_V_PASS, SWEEP_V_CLIENT,
	    SWEEP_V_FAIL, SWEEP_V_PASS };
	static const enum sweep_verdict v3[] = { SWEEP_V_FAIL, SWEEP_V_PASS,
	    SWEEP_V_CLIENT, SWEEP_V_PASS };
	static const enum sweep_verdict v4[] = { SWEEP_V_NONE, SWEEP_V_NONE,
	    SWEEP_V_NONE, SWEEP_V_NONE };
	struct sweep_capacity c;

	sweep_search_fixed_answer(lv, v1, 4, 1, &c);
	ck_assert_int_eq(c.end, SWEEP_E_FOUND);
	ck_assert_double_eq(c.capacity, 400);
	ck_assert_double_eq(c.fail, 600);
	ck_assert_int_eq(c.repeated, 0);
	ck_assert_int_eq(c.agree, 1);
	sweep_search_fixed_answer(lv, v2, 4, 1, &c);
	ck_assert_int_eq(c.end, SWEEP_E_CLIENT);
	ck_assert_double_eq(c.capacity, 200);
	ck_assert_double_eq(c.client_level, 400);
	ck_assert_double_eq(c.fail, 0);
	sweep_search_fixed_answer(lv, v3, 4, 1, &c);
	ck_assert_int_eq(c.end, SWEEP_E_FIRST_FAIL);
	ck_assert_double_eq(c.capacity, 0);
	sweep_search_fixed_answer(lv, v1, 2, 1, &c);
	ck_assert_int_eq(c.end, SWEEP_E_ALL_PASS);
	ck_assert_double_eq(c.capacity, 400);
	sweep_search_fixed_answer(lv, v4, 4, 0, &c);
	ck_assert_int_eq(c.end, SWEEP_E_NONE);
	ck_assert_double_eq(c.capacity, 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");

	tcase_add_loop_test(tc, test_accept, 0, (int)(sizeof(accept) /
	    sizeof(accept[0])));
	tcase_add_loop_test(tc, test_refuse, 0, (int)(sizeof(refuse) /
	    sizeof(refuse[0])));
	tcase_add_test(tc, test_levels);
	tcase_add_loop_test(tc, test_exact, 0, (int)(sizeof(exact) /
	    sizeof(exact[0])));
	tcase_add_test(tc, test_trace);
	tcase_add_test(tc, test_first_fail);
	tcase_add_test(tc, test_all_pass);
	tcase_add_test(tc, test_client);
	tcase_add_test(tc, test_flaky_pass);
	tcase_add_test(tc, test_flaky_fail);
	tcase_add_test(tc, test_no_objectives);
	tcase_add_test(tc, test_fixed);
	tcase_add_test(tc, test_fixed_answer);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
