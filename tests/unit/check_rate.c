/*
 * Unit tests for arrival schedules: --period parsing, the erand48 streams
 * checked against 0.9.0's published values and an independent 48-bit LCG,
 * variable-rate switching, and the generator on a real loop (absolute
 * schedule, exact catch-up, sequential mode, stopping from a tick).
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "core/clock.h"
#include "core/loop.h"
#include "core/timer.h"
#include "gen/rate.h"
#include "lib/util.h"
#include "unit.h"

/*
 * The oracle: erand48's generator written out, x' = a*x + c mod 2^48,
 * read as x' / 2^48.
 */
#define LCG_A		UINT64_C(0x5DEECE66D)
#define LCG_C		UINT64_C(0xB)
#define LCG_MASK	((UINT64_C(1) << 48) - 1)

/* Returns the 48-bit seed 0.9.0 uses for client `id'. */
static uint64_t
lcg_seed(unsigned id)
{
	uint64_t x0 = (0x1234 ^ id) & 0xffff;
	uint64_t x1 = (0x5678 ^ (id << 8)) & 0xffff;
	uint64_t x2 = (0x9abc ^ ~id) & 0xffff;

	return x2 << 32 | x1 << 16 | x0;
}

/* Steps the oracle and returns a double in [0, 1). */
static double
lcg_next(uint64_t *x)
{
	*x = (LCG_A * *x + LCG_C) & LCG_MASK;
	return (double)*x / 281474976710656.0;	/* 2^48 */
}

/* Parses `arg', failing the test on error. */
static void
parse_ok(struct rate_spec *s, const char *arg)
{
	char err[128] = "";

	ck_assert_msg(rate_spec_parse_period(s, arg, err, sizeof(err)) == 0,
	    "\"%s\" rejected: %s", arg, err);
}

static const struct {
	const char	*arg;
	enum rate_dist	 dist;
	double		 mean;
	double		 min;
	double		 max;
	size_t		 nvar;
} good[] = {
	{ "1", RATE_DETERMINISTIC, 1.0, 0, 0, 0 },
	{ "d0.5", RATE_DETERMINISTIC, 0.5, 0, 0, 0 },
	{ "D.5", RATE_DETERMINISTIC, 0.5, 0, 0, 0 },
	{ ".5", RATE_DETERMINISTIC, 0.5, 0, 0, 0 },
	{ "0", RATE_DETERMINISTIC, 0.0, 0, 0, 0 },
	{ "d0", RATE_DETERMINISTIC, 0.0, 0, 0, 0 },
	{ "1e-3", RATE_DETERMINISTIC, 0.001, 0, 0, 0 },
	{ "d2.", RATE_DETERMINISTIC, 2.0, 0, 0, 0 },
	{ "e0.01", RATE_EXPONENTIAL, 0.01, 0, 0, 0 },
	{ "E2", RATE_EXPONENTIAL, 2.0, 0, 0, 0 },
	{ "u1,3", RATE_UNIFORM, 2.0, 1.0, 3.0, 0 },
	{ "U.5,.5", RATE_UNIFORM, 0.5, 0.5, 0.5, 0 },
	{ "u0,1", RATE_UNIFORM, 0.5, 0.0, 1.0, 0 },
	/* The mean is weighted by the durations: 6 s for 2 + 8 arrivals. */
	{ "v1,2,0.5,4", RATE_VARIABLE, 0.6, 0, 0, 2 },
	/* 1000/s for 1 s, 2000/s for 3 s: 1,750/s (not 1,333/s). */
	{ "v0.001,1,0.0005,3", RATE_VARIABLE, 1.0 / 1750, 0, 0, 2 },
	{ "V0.25,10", RATE_VARIABLE, 0.25, 0, 0, 1 },
};

START_TEST(parse_good)
{
	struct rate_spec s;

	memset(&s, 0xa5, sizeof(s));
	parse_ok(&s, good[_i].arg);
	ck_assert_int_eq(s.dist, good[_i].dist);
	ck_assert_double_eq_tol(s.mean_iat, good[_i].mean, 1e-12);
	if (s.dist == RATE_UNIFORM) {
		ck_assert_double_eq(s.min_iat, good[_i].min);
		ck_assert_double_eq(s.max_iat, good[_i].max);
	}
	if (s.dist == RATE_VARIABLE)
		ck_assert_uint_eq(s.nvar, good[_i].nvar);
	if (good[_i].mean > 0)
		ck_assert_double_eq_tol(rate_spec_rate(&s),
		    1.0 / good[_i].mean, 1e-9);
	else
		ck_assert_double_eq(rate_spec_rate(&s), 0.0);
}
END_TEST

static const struct {
	const char	*arg;
	const char	*msg;	/* a substring of the message, or NULL */
} bad[] = {
	{ "", "missing" },
	{ "d", "missing" },
	{ "e", "missing" },
	{ "x1", NULL },
	{ "dd1", NULL },
	{ "1x", NULL },
	{ "1 ", NULL },
	{ " 1", NULL },
	{ "+1", NULL },
	{ "1,", "missing" },
	{ ",1", "missing" },
	{ "d1,,2", "missing" },
	{ "d1,2", "deterministic needs one time" },
	{ "e1,2", "exponential needs one time" },
	{ "u1", "uniform needs two times T1,T2" },
	{ "u1,2,3", "uniform needs two times T1,T2" },
	{ "u1,", "missing" },
	{ "u3,1", "T1 <= T2" },
	{ "-1", "negative" },
	{ "d-1", "negative" },
	{ "e-0.5", "negative" },
	{ "u-1,2", "negative" },
	{ "v1", "pairs" },
	{ "v1,2,3", "pairs" },
	{ "v1,2,", "missing" },
	{ "v0,1", "> 0" },
	{ "v1,0", "> 0" },
	{ "v1,-2", "negative" },
	{ "v", "missing" },
	{ "inf", NULL },
	{ "nan", NULL },
	{ "-inf", NULL },
	{ "0x10", NULL },
	{ "d1e999", "range" },
	{ "1.5.2", NULL },
};

START_TEST(parse_bad)
{
	struct rate_spec s, before;
	char err[128] = "";

	rate_spec_set_rate(&s, 7);
	before = s;
	ck_assert_msg(rate_spec_parse_period(&s, bad[_i].arg, err,
	    sizeof(err)) == -1, "\"%s\" accepted", bad[_i].arg);
	ck_assert_msg(err[0] != '\0', "no message for \"%s\"", bad[_i].arg);
	if (bad[_i].msg != NULL)
		ck_assert_msg(strstr(err, bad[_i].msg) != NULL,
		    "\"%s\": message \"%s\"", bad[_i].arg, err);
	/* A rejected argument leaves the spec alone. */
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
}
END_TEST

/* Builds "v1,1,1,1,..." with `pairs' pairs. */
static char *
var_arg(size_t pairs)
{
	size_t i, len = 1 + 4 * pairs + 1;
	char *buf = xmalloc(len), *p = buf;

	*p++ = 'v';
	for (i = 0; i < pairs; i++) {
		memcpy(p, i == 0 ? "1,1" : ",1,1", i == 0 ? 3 : 4);
		p += i == 0 ? 3 : 4;
	}
	*p = '\0';
	return buf;
}

START_TEST(parse_var_limit)
{
	static struct rate_spec s;
	char err[128], *arg;

	arg = var_arg(RATE_MAX_VAR);
	parse_ok(&s, arg);
	ck_assert_uint_eq(s.nvar, RATE_MAX_VAR);
	free(arg);
	arg = var_arg(RATE_MAX_VAR + 1);
	ck_assert_int_eq(rate_spec_parse_period(&s, arg, err, sizeof(err)),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "too many rates"));
	free(arg);
}
END_TEST

START_TEST(set_rate)
{
	struct rate_spec s;

	rate_spec_set_rate(&s, 10);
	ck_assert_int_eq(s.dist, RATE_DETERMINISTIC);
	ck_assert_double_eq_tol(s.mean_iat, 0.1, 1e-15);
	ck_assert_double_eq_tol(rate_spec_rate(&s), 10.0, 1e-12);
	rate_spec_set_rate(&s, 0);
	ck_assert_double_eq(s.mean_iat, 0.0);
	ck_assert_double_eq(rate_spec_rate(&s), 0.0);
	rate_spec_set_rate(&s, -5);
	ck_assert_double_eq(s.mean_iat, 0.0);
}
END_TEST

/* --sweep changes the mean and keeps the kind and the shape. */
START_TEST(scale_keeps_kind)
{
	struct rate_spec s;

	parse_ok(&s, "u0.5,1.5");
	rate_spec_scale(&s, 4);
	ck_assert_int_eq(s.dist, RATE_UNIFORM);
	ck_assert_double_eq_tol(s.mean_iat, 0.25, 1e-15);
	ck_assert_double_eq_tol(s.min_iat, 0.125, 1e-15);
	ck_assert_double_eq_tol(s.max_iat, 0.375, 1e-15);
	parse_ok(&s, "e2");
	rate_spec_scale(&s, 100);
	ck_assert_int_eq(s.dist, RATE_EXPONENTIAL);
	ck_assert_double_eq_tol(rate_spec_rate(&s), 100.0, 1e-9);
	parse_ok(&s, "v0.1,2,0.2,4");
	rate_spec_scale(&s, 2 * rate_spec_rate(&s));
	ck_assert_int_eq(s.dist, RATE_VARIABLE);
	ck_assert_double_eq_tol(s.var_iat[0], 0.05, 1e-12);
	ck_assert_double_eq_tol(s.var_iat[1], 0.1, 1e-12);
	ck_assert_double_eq_tol(s.var_dur[0], 2.0, 1e-12);
	ck_assert_double_eq_tol(s.var_dur[1], 4.0, 1e-12);
	rate_spec_set_rate(&s, 0);
	rate_spec_scale(&s, 50);
	ck_assert_int_eq(s.dist, RATE_DETERMINISTIC);
	ck_assert_double_eq_tol(s.mean_iat, 0.02, 1e-15);
	rate_spec_scale(&s, 0);
	ck_assert_double_eq(s.mean_iat, 0.0);
}
END_TEST

START_TEST(seed_matches_090)
{
	struct rate_state st;

	rate_state_init(&st, 0);
	ck_assert_uint_eq(st.xsubi[0], 0x1234);
	ck_assert_uint_eq(st.xsubi[1], 0x5678);
	ck_assert_uint_eq(st.xsubi[2], 0x9abc ^ 0xffff);
	rate_state_init(&st, 5);
	ck_assert_uint_eq(st.xsubi[0], 0x1234 ^ 5);
	ck_assert_uint_eq(st.xsubi[1], 0x5678 ^ 0x500);
	ck_assert_uint_eq(st.xsubi[2], (0x9abc ^ ~5U) & 0xffff);
	ck_assert_uint_eq(st.var_cur, 0);
	ck_assert_double_eq(st.var_elapsed, 0.0);
}
END_TEST

/* The verified 0.9.0 sequence for --period e0.01 --client 0. */
START_TEST(exp_sequence_090)
{
	static const long want[] = { 165, 32, 9, 57, 102, 31 };
	struct rate_spec s;
	struct rate_state st;
	size_t i;

	parse_ok(&s, "e0.01");
	rate_state_init(&st, 0);
	for (i = 0; i < nitems(want); i++)
		ck_assert_int_eq(lround(rate_next_iat(&st, &s) * 1e4),
		    want[i]);
}
END_TEST

START_TEST(exp_vs_oracle)
{
	static const unsigned ids[] = { 0, 1, 5 };
	struct rate_spec s;
	struct rate_state st;
	uint64_t x;
	double want;
	int i;

	parse_ok(&s, "e0.01");
	rate_state_init(&st, ids[_i]);
	x = lcg_seed(ids[_i]);
	for (i = 0; i < 1000; i++) {
		want = -0.01 * log(1.0 - lcg_next(&x));
		ck_assert_double_eq(rate_next_iat(&st, &s), want);
	}
}
END_TEST

/* --period u1,3 --client 1/2 against the oracle. */
START_TEST(uniform_vs_oracle)
{
	struct rate_spec s;
	struct rate_state st;
	uint64_t x = lcg_seed(1);
	double v;
	int i;

	parse_ok(&s, "u1,3");
	rate_state_init(&st, 1);
	for (i = 0; i < 1000; i++) {
		v = rate_next_iat(&st, &s);
		ck_assert_double_eq(v, 1.0 + 2.0 * lcg_next(&x));
		ck_assert(v >= 1.0 && v < 3.0);
	}
}
END_TEST

START_TEST(deterministic_and_repeatable)
{
	struct rate_spec s;
	struct rate_state a, b, c;
	int i, differ = 0;

	parse_ok(&s, "d0.25");
	rate_state_init(&a, 3);
	for (i = 0; i < 10; i++)
		ck_assert_double_eq(rate_next_iat(&a, &s), 0.25);

	/* Same id, same stream; another id, another stream. */
	parse_ok(&s, "e1");
	rate_state_init(&a, 2);
	rate_state_init(&b, 2);
	rate_state_init(&c, 3);
	for (i = 0; i < 100; i++) {
		double va = rate_next_iat(&a, &s);

		ck_assert_double_eq(va, rate_next_iat(&b, &s));
		differ += va != rate_next_iat(&c, &s);
	}
	ck_assert_int_gt(differ, 90);
}
END_TEST

START_TEST(variable_switching)
{
	struct rate_spec s;
	struct rate_state st;
	int round, i;

	/* 1 s apart for 2 s, then 0.5 s apart for 4 s, repeating. */
	parse_ok(&s, "v1,2,0.5,4");
	rate_state_init(&st, 0);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 2; i++) {
			ck_assert_uint_eq(st.var_cur, 0);
			ck_assert_double_eq(rate_next_iat(&st, &s), 1.0);
		}
		for (i = 0; i < 8; i++) {
			ck_assert_uint_eq(st.var_cur, 1);
			ck_assert_double_eq(rate_next_iat(&st, &s), 0.5);
		}
	}

	/* A duration that is not a multiple: the interval that crosses it
	 * is the last one at that rate. */
	parse_ok(&s, "v0.3,1,0.2,0.5");
	rate_state_init(&st, 0);
	for (i = 0; i < 4; i++)
		ck_assert_double_eq(rate_next_iat(&st, &s), 0.3);
	for (i = 0; i < 3; i++)
		ck_assert_double_eq(rate_next_iat(&st, &s), 0.2);
	ck_assert_double_eq(rate_next_iat(&st, &s), 0.3);
}
END_TEST

/*
 * The mean interval of a variable schedule is what it draws: a whole
 * cycle of v0.001,1,0.0005,3 is 7000 arrivals in 4 s, 1,750/s, and the
 * rate the options check against --call-rate and the schedule collector
 * reports is that one.
 */
START_TEST(variable_mean_is_drawn)
{
	struct rate_spec s;
	struct rate_state st;
	double sum = 0.0;
	int i;

	parse_ok(&s, "v0.001,1,0.0005,3");
	rate_state_init(&st, 0);
	for (i = 0; i < 3 * 7000; i++)
		sum += rate_next_iat(&st, &s);
	ck_assert_double_eq_tol(sum / (3 * 7000), s.mean_iat, 1e-9);
	ck_assert_double_eq_tol(rate_spec_rate(&s), 1750.0, 1e-6);
}
END_TEST

/* Two schedules keep separate variable-rate state (0.9.0 shared it). */
START_TEST(variable_state_per_schedule)
{
	struct rate_spec s;
	struct rate_state a, b;
	int i;

	parse_ok(&s, "v1,2,0.5,1");
	rate_state_init(&a, 0);
	rate_state_init(&b, 0);
	ck_assert_double_eq(rate_next_iat(&a, &s), 1.0);
	ck_assert_double_eq(rate_next_iat(&a, &s), 1.0);
	ck_assert_double_eq(rate_next_iat(&a, &s), 0.5);
	for (i = 0; i < 2; i++)
		ck_assert_double_eq(rate_next_iat(&b, &s), 1.0);
	ck_assert_double_eq(rate_next_iat(&b, &s), 0.5);
	ck_assert_double_eq(rate_next_iat(&a, &s), 0.5);
	ck_assert_double_eq(rate_next_iat(&a, &s), 1.0);
}
END_TEST

/* What a tick callback sees and how it should behave. */
struct ticks {
	struct rate_gen	*g;
	uint64_t	 now[256];
	int		 n;
	int		 done_at;	/* return -1 on this tick (1-based) */
	int		 stop_at;	/* call rate_gen_stop on this tick */
};

static int
record_tick(void *arg, uint64_t now)
{
	struct ticks *t = arg;

	ck_assert_int_lt(t->n, (int)nitems(t->now));
	t->now[t->n++] = now;
	if (t->n == t->stop_at)
		rate_gen_stop(t->g);
	return t->n == t->done_at ? -1 : 0;
}

/* A tick that slows the schedule to 100/s at its 5th arrival. */
struct retarget {
	struct rate_gen	 g;
	struct rate_spec s;
	int		 n;
	uint64_t	 now[16];
	uint64_t	 at;		/* when the rate changed */
};

static int
retarget_tick(void *arg, uint64_t now)
{
	struct retarget *r = arg;

	r->now[r->n++] = now;
	if (r->n == 5) {
		r->at = now;
		rate_spec_scale(&r->s, 100);
		rate_gen_retarget(&r->g, now);
	}
	return r->n == 10 ? -1 : 0;
}

static struct loop *
make_loop(void)
{
	char err[256] = "";
	struct loop *l = loop_new(LOOP_BACKEND_AUTO, err, sizeof(err));

	ck_assert_msg(l != NULL, "loop_new: %s", err);
	return l;
}

/* 100 arrivals at 1000/s on a running loop follow the absolute schedule. */
START_TEST(gen_paced_on_loop)
{
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;
	uint64_t start, step;
	int i;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	t.done_at = 100;
	rate_spec_set_rate(&s, 1000);
	step = clock_from_sec(0.001);
	start = clock_now();
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	ck_assert_int_eq(t.n, 1);
	ck_assert_uint_eq(t.now[0], start);
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(t.n, 100);
	ck_assert_int_eq(g.running, 0);
	ck_assert(!timer_is_armed(&g.timer));
	for (i = 1; i < t.n; i++) {
		ck_assert_msg(t.now[i] >= start + (uint64_t)i * step,
		    "tick %d early", i);
		ck_assert(t.now[i] >= t.now[i - 1]);
	}
	ck_assert_uint_eq(g.next, start + 100 * step);
	loop_free(l);
}
END_TEST

/*
 * rate_gen_retarget: 5 arrivals at 1000/s, then the schedule restarts
 * from the 5th at 100/s: the 6th is 10 ms after it, none in between.
 */
START_TEST(gen_retarget)
{
	struct loop *l = make_loop();
	struct retarget r;
	uint64_t step = clock_from_sec(0.01);
	int i;

	memset(&r, 0, sizeof(r));
	rate_spec_set_rate(&r.s, 1000);
	rate_gen_start(&r.g, l, &r.s, 0, 1, retarget_tick, &r, clock_now());
	ck_assert_int_eq(loop_run(l), 0);
	ck_assert_int_eq(r.n, 10);
	for (i = 5; i < r.n; i++)
		ck_assert_msg(r.now[i] >= r.at + (uint64_t)(i - 4) * step,
		    "tick %d early", i);
	ck_assert_uint_eq(r.g.next, r.at + 6 * step);
	/* Stopped or sequential: nothing to restart. */
	rate_gen_retarget(&r.g, r.at);
	ck_assert(!timer_is_armed(&r.g.timer));
	loop_free(l);
}
END_TEST

/*
 * rate_gen_rescale: nothing before the start nor when sequential; then
 * the caller's spec is copied once, scaled, and the schedule retargeted.
 */
START_TEST(gen_rescale)
{
	struct loop *l = make_loop();
	struct rate_spec s, own;
	struct rate_gen g;
	struct ticks t;
	uint64_t start = clock_now();

	memset(&g, 0, sizeof(g));
	memset(&t, 0, sizeof(t));
	t.g = &g;
	t.done_at = 1000;
	ck_assert_ptr_null(rate_gen_rescale(&g, &own, 10, start));
	rate_spec_set_rate(&s, 0);
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	ck_assert_ptr_eq(rate_gen_rescale(&g, &own, 10, start), &s);
	ck_assert_double_eq(s.mean_iat, 0.0);
	rate_gen_stop(&g);
	parse_ok(&s, "e0.001");
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	ck_assert_ptr_eq(rate_gen_rescale(&g, &own, 0, start), &s);
	ck_assert_ptr_eq(rate_gen_rescale(&g, &own, 20, start + 5), &own);
	ck_assert_ptr_eq(g.spec, &own);
	ck_assert_int_eq(own.dist, RATE_EXPONENTIAL);
	ck_assert_double_eq_tol(rate_spec_rate(&own), 20.0, 1e-9);
	ck_assert_double_eq_tol(rate_spec_rate(&s), 1000.0, 1e-9);
	ck_assert(timer_is_armed(&g.timer));
	ck_assert_uint_gt(g.next, start + 5);
	ck_assert_ptr_eq(rate_gen_rescale(&g, &own, 40, start + 6), &own);
	ck_assert_double_eq_tol(rate_spec_rate(&own), 40.0, 1e-9);
	rate_gen_stop(&g);
	loop_free(l);
}
END_TEST

/*
 * --client I/N with a fixed interval: client I's first arrival is I/(N *
 * rate) after the start, so the four clients of N = 4 at 1000/s each,
 * started at the same instant, together make one even stream at 4000/s:
 * the wheel run to every 250 us step finds exactly one arrival due, of
 * client k mod 4, meant for that step.
 */
START_TEST(gen_client_offset_even_stream)
{
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_gen g[4];
	struct ticks t[4];
	uint64_t start, quarter;
	int i, k, who;

	rate_spec_set_rate(&s, 1000);
	quarter = clock_from_sec(0.001) / 4;
	ck_assert_uint_eq(quarter, 250000);
	start = clock_now();
	for (i = 0; i < 4; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].g = &g[i];
		ck_assert_uint_eq(rate_spec_offset(&s, (unsigned)i, 4),
		    (uint64_t)i * quarter);
		rate_gen_start(&g[i], l, &s, (unsigned)i, 4, record_tick,
		    &t[i], start);
		/* Client 0 makes its first arrival at once, the others
		   leave theirs to the timer. */
		ck_assert_int_eq(t[i].n, i == 0 ? 1 : 0);
		ck_assert_uint_eq(timer_expire(&g[i].timer),
		    start + (uint64_t)(i == 0 ? 4 : i) * quarter);
	}
	for (k = 0; k < 40; k++) {
		timer_wheel_run(loop_timers(l), start + (uint64_t)k * quarter);
		ck_assert_uint_eq(t[0].n + t[1].n + t[2].n + t[3].n,
		    (uint64_t)k + 1);
		who = k % 4;
		ck_assert_uint_eq(t[who].now[t[who].n - 1],
		    start + (uint64_t)k * quarter);
		/* The arrival's place on the schedule is the step. */
		ck_assert_uint_eq(g[who].due, start + (uint64_t)k * quarter);
		ck_assert_int_eq(t[who].n, k / 4 + 1);
	}
	for (i = 0; i < 4; i++)
		rate_gen_stop(&g[i]);
	loop_free(l);
}
END_TEST

/*
 * Only a fixed interval is shifted: N = 1, client 0, sequential, and the
 * drawn or variable schedules start at once.  The offset of a huge
 * interval and id does not overflow.
 */
START_TEST(gen_client_offset_only_fixed)
{
	static const char *const unshifted[] = { "u0.001,0.003", "e0.002",
	    "v0.001,1,0.002,1" };
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;
	uint64_t iat;
	size_t i;

	rate_spec_set_rate(&s, 1000);
	ck_assert_uint_eq(rate_spec_offset(&s, 0, 1), 0);
	ck_assert_uint_eq(rate_spec_offset(&s, 0, 4), 0);
	ck_assert_uint_eq(rate_spec_offset(&s, 4, 4), 0);
	ck_assert_uint_eq(rate_spec_offset(&s, 1, 3), 333333);
	parse_ok(&s, "d0.002");
	ck_assert_uint_eq(rate_spec_offset(&s, 3, 4), 1500000);
	rate_spec_set_rate(&s, 0);
	ck_assert_uint_eq(rate_spec_offset(&s, 3, 4), 0);
	/* About 1e18 ns: iat * I overflows 64 bits; 128 bits tell. */
	rate_spec_set_rate(&s, 1e-9);
	iat = clock_from_sec(s.mean_iat);
	ck_assert_uint_gt(iat, UINT64_C(999999999000000000));
	ck_assert_uint_eq(rate_spec_offset(&s, UINT_MAX - 1, UINT_MAX),
	    (uint64_t)((unsigned __int128)iat * (UINT_MAX - 1) / UINT_MAX));
	ck_assert_uint_eq(rate_spec_offset(&s, 12345, 99991),
	    (uint64_t)((unsigned __int128)iat * 12345 / 99991));
	for (i = 0; i < nitems(unshifted); i++) {
		parse_ok(&s, unshifted[i]);
		ck_assert_uint_eq(rate_spec_offset(&s, 3, 4), 0);
		memset(&t, 0, sizeof(t));
		t.g = &g;
		rate_gen_start(&g, l, &s, 3, 4, record_tick, &t, 1000);
		ck_assert_int_eq(t.n, 1);
		ck_assert_uint_eq(t.now[0], 1000);
		rate_gen_stop(&g);
	}
	loop_free(l);
}
END_TEST

/* A timer run far too late produces exactly the overdue ticks. */
START_TEST(gen_catch_up)
{
	struct loop *l = make_loop();
	struct timer_wheel *w = loop_timers(l);
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;
	uint64_t start, step;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	rate_spec_set_rate(&s, 1000);
	step = clock_from_sec(0.001);
	start = clock_now();
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	ck_assert(timer_is_armed(&g.timer));
	ck_assert_uint_eq(timer_expire(&g.timer), start + step);

	timer_wheel_run(w, start + 10 * step + step / 2);
	ck_assert_int_eq(t.n, 11);		/* t=0 plus 10 overdue */
	ck_assert(timer_is_armed(&g.timer));
	ck_assert_uint_eq(timer_expire(&g.timer), start + 11 * step);
	ck_assert_uint_eq(t.now[10], start + 10 * step + step / 2);

	/* Exactly on the deadline counts as due; nothing twice. */
	timer_wheel_run(w, start + 11 * step);
	ck_assert_int_eq(t.n, 12);
	timer_wheel_run(w, start + 11 * step);
	ck_assert_int_eq(t.n, 12);
	ck_assert_uint_eq(timer_expire(&g.timer), start + 12 * step);
	rate_gen_stop(&g);
	ck_assert(!timer_is_armed(&g.timer));
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	loop_free(l);
}
END_TEST

/*
 * With a budget, a firing far behind makes at most that many ticks and
 * fires again just after its `now' (the next turn, without sleeping, but
 * not in the same wheel run), until it has caught up; rate_gen_due()
 * then counts what is left before an end at once.
 */
START_TEST(gen_budget)
{
	struct loop *l = make_loop();
	struct timer_wheel *w = loop_timers(l);
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;
	uint64_t start, step, late;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	rate_spec_set_rate(&s, 1000);
	step = clock_from_sec(0.001);
	start = clock_now();
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	rate_gen_limit(&g, 10);
	ck_assert_int_eq(t.n, 1);

	/* 25 overdue: 10, then 10 in the next run, then the last 5. */
	late = start + 25 * step + step / 2;
	ck_assert_uint_eq(timer_wheel_run(w, late), 1);
	ck_assert_int_eq(t.n, 11);
	ck_assert_uint_eq(timer_expire(&g.timer), late + 1);
	ck_assert_uint_eq(timer_wheel_run(w, late + 1), 1);
	ck_assert_int_eq(t.n, 21);
	ck_assert_uint_eq(timer_wheel_run(w, late + 2), 1);
	ck_assert_int_eq(t.n, 26);
	ck_assert_uint_eq(timer_expire(&g.timer), start + 26 * step);

	/* 100 overdue, 10 taken: the 90 before the end (at 126 steps, not
	   included) are counted, and the schedule moves past them. */
	late = start + 125 * step + step / 2;
	timer_wheel_run(w, late);
	ck_assert_int_eq(t.n, 36);
	ck_assert_uint_eq(rate_gen_due(&g, start + 126 * step - 1,
	    UINT64_MAX), 90);
	ck_assert_uint_eq(g.next, start + 126 * step);
	rate_gen_stop(&g);
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	loop_free(l);
}
END_TEST

/* Catch-up with random intervals matches the schedule worked out apart. */
START_TEST(gen_catch_up_exponential)
{
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_state st;
	struct rate_gen g;
	struct ticks t;
	uint64_t start, late, sched;
	int want = 1;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	parse_ok(&s, "e0.001");
	start = clock_now();
	late = start + clock_from_sec(0.05);
	rate_state_init(&st, 3);
	sched = start + clock_from_sec(rate_next_iat(&st, &s));
	while (sched <= late) {
		want++;
		sched += clock_from_sec(rate_next_iat(&st, &s));
	}
	rate_gen_start(&g, l, &s, 3, 1, record_tick, &t, start);
	timer_wheel_run(loop_timers(l), late);
	ck_assert_int_eq(t.n, want);
	ck_assert_uint_eq(g.next, sched);
	ck_assert_uint_eq(timer_expire(&g.timer), sched);
	rate_gen_stop(&g);
	loop_free(l);
}
END_TEST

START_TEST(gen_sequential)
{
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	t.done_at = 3;
	rate_spec_set_rate(&s, 0);
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, 100);
	ck_assert_int_eq(t.n, 1);
	ck_assert(!timer_is_armed(&g.timer));
	ck_assert_uint_eq(timer_wheel_count(loop_timers(l)), 0);
	rate_gen_next(&g, 200);
	ck_assert_int_eq(t.n, 2);
	ck_assert_uint_eq(t.now[1], 200);
	rate_gen_next(&g, 300);
	ck_assert_int_eq(t.n, 3);
	ck_assert_int_eq(g.running, 0);
	rate_gen_next(&g, 400);
	ck_assert_int_eq(t.n, 3);
	loop_free(l);
}
END_TEST

/* rate_gen_next does nothing for a paced generator. */
START_TEST(gen_next_ignored_when_paced)
{
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	rate_spec_set_rate(&s, 10);
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, clock_now());
	rate_gen_next(&g, clock_now());
	ck_assert_int_eq(t.n, 1);
	rate_gen_stop(&g);
	rate_gen_stop(&g);
	ck_assert_uint_eq(timer_wheel_count(loop_timers(l)), 0);
	loop_free(l);
}
END_TEST

/* The first tick says done: nothing stays armed. */
START_TEST(gen_done_at_start)
{
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	t.done_at = 1;
	rate_spec_set_rate(&s, 1000);
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, clock_now());
	ck_assert_int_eq(t.n, 1);
	ck_assert_int_eq(g.running, 0);
	ck_assert(!timer_is_armed(&g.timer));
	ck_assert_uint_eq(timer_wheel_count(loop_timers(l)), 0);
	loop_free(l);
}
END_TEST

/* A tick that calls rate_gen_stop() ends a catch-up burst at once. */
START_TEST(gen_stop_inside_tick)
{
	struct loop *l = make_loop();
	struct rate_spec s;
	struct rate_gen g;
	struct ticks t;
	uint64_t start;

	memset(&t, 0, sizeof(t));
	t.g = &g;
	t.stop_at = 3;
	rate_spec_set_rate(&s, 1000);
	start = clock_now();
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	timer_wheel_run(loop_timers(l), start + clock_from_sec(1.0));
	ck_assert_int_eq(t.n, 3);
	ck_assert_int_eq(g.running, 0);
	ck_assert(!timer_is_armed(&g.timer));
	ck_assert_uint_eq(timer_wheel_count(loop_timers(l)), 0);

	/* Stopping in the very first tick, and in sequential mode. */
	memset(&t, 0, sizeof(t));
	t.g = &g;
	t.stop_at = 1;
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	ck_assert_int_eq(g.running, 0);
	ck_assert_uint_eq(timer_wheel_count(loop_timers(l)), 0);
	memset(&t, 0, sizeof(t));
	t.g = &g;
	t.stop_at = 2;
	rate_spec_set_rate(&s, 0);
	rate_gen_start(&g, l, &s, 0, 1, record_tick, &t, start);
	rate_gen_next(&g, start);
	rate_gen_next(&g, start);
	ck_assert_int_eq(t.n, 2);
	loop_free(l);
}
END_TEST

static Suite *
rate_suite(void)
{
	Suite *s = suite_create("rate");
	TCase *tc;

	tc = tcase_create("spec");
	tcase_add_loop_test(tc, parse_good, 0, (int)nitems(good));
	tcase_add_loop_test(tc, parse_bad, 0, (int)nitems(bad));
	tcase_add_test(tc, parse_var_limit);
	tcase_add_test(tc, set_rate);
	tcase_add_test(tc, scale_keeps_kind);
	suite_add_tcase(s, tc);

	tc = tcase_create("iat");
	tcase_add_test(tc, seed_matches_090);
	tcase_add_test(tc, exp_sequence_090);
	tcase_add_loop_test(tc, exp_vs_oracle, 0, 3);
	tcase_add_test(tc, uniform_vs_oracle);
	tcase_add_test(tc, deterministic_and_repeatable);
	tcase_add_test(tc, variable_switching);
	tcase_add_test(tc, variable_mean_is_drawn);
	tcase_add_test(tc, variable_state_per_schedule);
	suite_add_tcase(s, tc);

	tc = tcase_create("gen");
	tcase_add_test(tc, gen_paced_on_loop);
	tcase_add_test(tc, gen_catch_up);
	tcase_add_test(tc, gen_budget);
	tcase_add_test(tc, gen_client_offset_even_stream);
	tcase_add_test(tc, gen_client_offset_only_fixed);
	tcase_add_test(tc, gen_catch_up_exponential);
	tcase_add_test(tc, gen_sequential);
	tcase_add_test(tc, gen_next_ignored_when_paced);
	tcase_add_test(tc, gen_done_at_start);
	tcase_add_test(tc, gen_stop_inside_tick);
	tcase_add_test(tc, gen_retarget);
	tcase_add_test(tc, gen_rescale);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(rate_suite());
}
