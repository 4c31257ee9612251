/*
 * Unit tests for the timer wheel (src/core/timer.c): arming and
 * cancelling, deadline order, never firing early, the next() bound that
 * keeps the loop from spinning, callbacks that change timers, deadlines
 * far ahead and in the past, and a hundred thousand timers.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/timer.h"
#include "lib/util.h"
#include "unit.h"

#define DAY	(UINT64_C(86400) * CLOCK_NS_PER_SEC)
#define TICK	UINT64_C(1024)	/* the wheel's level-0 slot width */
#define BASE	UINT64_C(123456789012345)	/* an unaligned start time */

/* What the callbacks of one test share. */
struct ttest {
	uint64_t	 last;		/* deadline of the last timer fired */
	size_t		 nfired;
	int		 early;		/* fired before its deadline */
	int		 disorder;	/* fired in a tick before the last */
};

struct item {
	struct timer	 t;
	struct ttest	*tt;
	uint64_t	 fired_now;
	size_t		 seq;		/* place in the firing order, from 1 */
	int		 fires;
	struct item	*victim;	/* cancelled by this item's callback */
	struct item	*spawn;		/* armed by this item's callback */
	uint64_t	 spawn_at;
	uint64_t	 period;	/* re-arm this much later while rearm */
	int		 rearm;
	struct timer_wheel *w;
};

/* A small deterministic generator, so failures can be reproduced. */
static uint64_t
rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
item_fire(struct timer *t, uint64_t now)
{
	struct item *it = containerof(t, struct item, t);
	struct ttest *tt = it->tt;

	if (timer_expire(t) > now)
		tt->early++;
	if (tt->nfired > 0 && timer_expire(t) / TICK < tt->last / TICK)
		tt->disorder++;
	tt->last = timer_expire(t);
	it->seq = ++tt->nfired;
	it->fired_now = now;
	it->fires++;
	if (it->victim != NULL)
		timer_cancel(&it->victim->t);
	if (it->spawn != NULL)
		timer_add(it->w, &it->spawn->t, it->spawn_at);
	if (it->rearm > 0) {
		it->rearm--;
		timer_add(it->w, t, timer_expire(t) + it->period);
	}
}

static void
item_init(struct item *it, struct ttest *tt, struct timer_wheel *w)
{
	*it = (struct item){ .tt = tt, .w = w };
	timer_init(&it->t, item_fire);
}

START_TEST(test_add_cancel)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	struct item a;

	item_init(&a, &tt, w);
	ck_assert(!timer_is_armed(&a.t));
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	ck_assert_uint_eq(timer_wheel_next(w), UINT64_MAX);

	timer_add(w, &a.t, BASE + 5000);
	ck_assert(timer_is_armed(&a.t));
	ck_assert_uint_eq(timer_expire(&a.t), BASE + 5000);
	ck_assert_uint_eq(timer_wheel_count(w), 1);

	timer_cancel(&a.t);
	ck_assert(!timer_is_armed(&a.t));
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	ck_assert_uint_eq(timer_wheel_next(w), UINT64_MAX);
	timer_cancel(&a.t);
	ck_assert_uint_eq(timer_wheel_count(w), 0);

	/* Re-adding an armed timer moves it. */
	timer_add(w, &a.t, BASE + 9000);
	timer_add(w, &a.t, BASE + 7000);
	ck_assert_uint_eq(timer_wheel_count(w), 1);
	ck_assert_uint_eq(timer_wheel_next(w), BASE + 7000);
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 6999), 0);
	ck_assert_uint_eq(a.fires, 0);
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 7000), 1);
	ck_assert_uint_eq(a.fires, 1);
	ck_assert_uint_eq(a.fired_now, BASE + 7000);
	ck_assert(!timer_is_armed(&a.t));
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 100000), 0);
	ck_assert_uint_eq(a.fires, 1);

	/* Freeing a wheel disarms its timers; cancelling them is harmless. */
	timer_add(w, &a.t, BASE + 200000);
	timer_wheel_free(w);
	ck_assert(!timer_is_armed(&a.t));
	timer_cancel(&a.t);
	timer_wheel_free(NULL);
}
END_TEST

/* Random deadlines within `span', run in random steps up to `step'. */
static const struct {
	uint64_t	span;
	uint64_t	step;
	size_t		n;
} order_cases[] = {
	{ 3000, 100, 500 },
	{ 70000, 3000, 2000 },
	{ 5 * CLOCK_NS_PER_MSEC, 50000, 5000 },
	{ 10 * CLOCK_NS_PER_SEC, 20 * CLOCK_NS_PER_MSEC, 10000 },
	{ 4 * DAY, 3600 * CLOCK_NS_PER_SEC, 3000 },
	{ 300 * DAY, 2 * DAY, 3000 },
};

/* The smallest deadline still armed, or UINT64_MAX. */
static uint64_t
items_min(const struct item *v, size_t n)
{
	uint64_t min = UINT64_MAX;
	size_t i;

	for (i = 0; i < n; i++)
		if (timer_is_armed(&v[i].t) && timer_expire(&v[i].t) < min)
			min = timer_expire(&v[i].t);
	return min;
}

START_TEST(test_random_order)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	uint64_t seed = 0x9e3779b97f4a7c15ULL + (uint64_t)_i, now, next, min;
	size_t i, n = order_cases[_i].n;
	struct item *v;

	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++) {
		item_init(&v[i], &tt, w);
		timer_add(w, &v[i].t,
		    BASE + rng_next(&seed) % order_cases[_i].span);
	}
	ck_assert_uint_eq(timer_wheel_count(w), n);
	now = BASE;
	while (timer_wheel_count(w) > 0) {
		min = items_min(v, n);
		next = timer_wheel_next(w);
		ck_assert_uint_le(next, min);
		now += 1 + rng_next(&seed) % order_cases[_i].step;
		timer_wheel_run(w, now);
		/* Everything due has fired; the bound moved past `now'. */
		if (timer_wheel_count(w) > 0) {
			ck_assert_uint_gt(items_min(v, n), now);
			ck_assert_uint_gt(timer_wheel_next(w), now);
		}
	}
	ck_assert_uint_eq(tt.nfired, n);
	ck_assert_int_eq(tt.early, 0);
	ck_assert_int_eq(tt.disorder, 0);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(v[i].fires, 1);
	free(v);
	timer_wheel_free(w);
}
END_TEST

/* Single deadlines, as offsets from BASE, across every level. */
static const uint64_t next_offsets[] = {
	0, 1, 1023, 1024, 1025, 4000, 65535, 65536, 70000, 4194304,
	50 * CLOCK_NS_PER_MSEC, CLOCK_NS_PER_SEC, 3600 * CLOCK_NS_PER_SEC,
	3 * DAY, 40 * DAY, 60 * DAY, 1000 * DAY,
};

/*
 * A loop that sleeps until next() and then runs must reach the deadline in
 * a few steps without ever firing early; a lone timer within the wheel's
 * range is reported exactly, so that takes one step.
 */
START_TEST(test_next_bound)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	uint64_t expire = BASE + next_offsets[_i], now, next;
	struct item a;
	int steps = 0;

	item_init(&a, &tt, w);
	timer_add(w, &a.t, expire);
	next = timer_wheel_next(w);
	ck_assert_uint_le(next, expire);
	if (next_offsets[_i] > 0)
		ck_assert_uint_gt(next, BASE);
	if (next_offsets[_i] < 50 * DAY)
		ck_assert_uint_eq(next, expire);
	now = BASE;
	while (timer_wheel_count(w) > 0) {
		next = timer_wheel_next(w);
		ck_assert_uint_le(next, expire);
		if (next > now)
			now = next;
		timer_wheel_run(w, now);
		ck_assert_int_lt(++steps, 10);
	}
	ck_assert_int_eq(a.fires, 1);
	ck_assert_uint_eq(a.fired_now, expire);
	ck_assert_int_eq(tt.early, 0);
	ck_assert_uint_eq(timer_wheel_next(w), UINT64_MAX);
	timer_wheel_free(w);
}
END_TEST

/* After a run, next() is past that run's `now' whatever is pending. */
START_TEST(test_next_after_run)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	struct item v[4];
	uint64_t now = BASE + 100;
	size_t i;

	for (i = 0; i < nitems(v); i++)
		item_init(&v[i], &tt, w);
	/* Same tick as `now' but later, then later ticks and levels. */
	timer_add(w, &v[0].t, now + 1);
	timer_add(w, &v[1].t, now + TICK);
	timer_add(w, &v[2].t, now + 100 * TICK);
	timer_add(w, &v[3].t, now + DAY);
	ck_assert_uint_eq(timer_wheel_run(w, now), 0);
	ck_assert_uint_eq(timer_wheel_next(w), now + 1);
	ck_assert_uint_eq(timer_wheel_run(w, now + 1), 1);
	ck_assert_uint_eq(timer_wheel_next(w), now + TICK);
	ck_assert_uint_eq(timer_wheel_run(w, now + TICK), 1);
	ck_assert_uint_eq(timer_wheel_next(w), now + 100 * TICK);
	ck_assert_uint_eq(timer_wheel_run(w, now + 100 * TICK), 1);
	ck_assert_uint_eq(timer_wheel_next(w), now + DAY);
	ck_assert_uint_eq(timer_wheel_run(w, now + DAY - 1), 0);
	ck_assert_uint_gt(timer_wheel_next(w), now + DAY - 1);
	ck_assert_uint_eq(timer_wheel_run(w, now + DAY), 1);
	ck_assert_int_eq(tt.early, 0);
	ck_assert_int_eq(tt.disorder, 0);
	timer_wheel_free(w);
}
END_TEST

/*
 * Timer A's callback cancels B, which is due in the same run (or, in the
 * third case, in the same tick but after `now', so B sits on the run's
 * private list of timers kept for later).
 */
static const struct {
	uint64_t	a, b, now;
	int		b_first;	/* arm B before A */
} cancel_cases[] = {
	{ 1000, 2000, 5000, 1 },	/* different ticks, both due */
	{ 100, 101, 5000, 0 },		/* same tick, both due */
	{ 100, 900, 500, 1 },		/* same tick, B not yet due */
	{ 100, 5 * DAY, 200, 0 },	/* B far away */
	{ 100, 100 * DAY, 200, 0 },	/* B on the overflow list */
};

START_TEST(test_cancel_in_callback)
{
	/* Tick-aligned, for the same-tick cases. */
	uint64_t base = TICK * 1000000;
	struct timer_wheel *w = timer_wheel_new(base);
	struct ttest tt = { 0 };
	struct item a, b;

	item_init(&a, &tt, w);
	item_init(&b, &tt, w);
	a.victim = &b;
	if (cancel_cases[_i].b_first)
		timer_add(w, &b.t, base + cancel_cases[_i].b);
	timer_add(w, &a.t, base + cancel_cases[_i].a);
	if (!cancel_cases[_i].b_first)
		timer_add(w, &b.t, base + cancel_cases[_i].b);
	ck_assert_uint_eq(timer_wheel_run(w, base + cancel_cases[_i].now), 1);
	ck_assert_int_eq(a.fires, 1);
	ck_assert_int_eq(b.fires, 0);
	ck_assert(!timer_is_armed(&b.t));
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	ck_assert_uint_eq(timer_wheel_next(w), UINT64_MAX);
	ck_assert_uint_eq(timer_wheel_run(w, base + 1000 * DAY), 0);
	ck_assert_int_eq(b.fires, 0);
	timer_wheel_free(w);
}
END_TEST

/* A callback re-arming its own timer inside the run fires again if due. */
START_TEST(test_rearm_self)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	struct item a;

	item_init(&a, &tt, w);
	a.period = 1000;
	a.rearm = 100;
	timer_add(w, &a.t, BASE + 1000);
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 10000), 10);
	ck_assert_int_eq(a.fires, 10);
	ck_assert(timer_is_armed(&a.t));
	ck_assert_uint_eq(timer_expire(&a.t), BASE + 11000);
	ck_assert_uint_eq(timer_wheel_count(w), 1);
	ck_assert_uint_gt(timer_wheel_next(w), BASE + 10000);
	/* Catching up across levels still fires every period, in order. */
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 100000), 90);
	ck_assert_int_eq(a.fires, 100);
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 200000), 1);
	ck_assert_int_eq(a.fires, 101);
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	ck_assert_int_eq(tt.early, 0);
	ck_assert_int_eq(tt.disorder, 0);
	timer_wheel_free(w);
}
END_TEST

/* A callback arms another timer: due within this run, or past, or later. */
static const struct {
	uint64_t	spawn_at;	/* offset from BASE */
	size_t		fired;		/* by run(BASE + 100000) */
} spawn_cases[] = {
	{ 50000, 2 },	/* later in the same run */
	{ 1500, 2 },	/* same tick region as the parent */
	{ 0, 2 },	/* already past */
	{ 100000, 2 },	/* exactly the run's now */
	{ 100001, 1 },	/* just after: next run */
};

START_TEST(test_add_in_callback)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	struct item a, c;

	item_init(&a, &tt, w);
	item_init(&c, &tt, w);
	a.spawn = &c;
	a.spawn_at = BASE + spawn_cases[_i].spawn_at;
	timer_add(w, &a.t, BASE + 1000);
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 100000),
	    spawn_cases[_i].fired);
	ck_assert_int_eq(a.fires, 1);
	ck_assert_int_eq(c.fires, (int)spawn_cases[_i].fired - 1);
	if (c.fires == 0) {
		ck_assert_uint_eq(timer_wheel_next(w), a.spawn_at);
		ck_assert_uint_eq(timer_wheel_run(w, a.spawn_at), 1);
	}
	ck_assert_int_eq(c.fires, 1);
	ck_assert_uint_gt(c.seq, a.seq);
	ck_assert_int_eq(tt.early, 0);
	timer_wheel_free(w);
}
END_TEST

/* Deadlines days ahead, inside and beyond the wheel's top level. */
START_TEST(test_far_future)
{
	static const uint64_t days[] = { 1, 3, 40, 52, 53, 60, 365, 3650 };
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	struct item v[nitems(days) + 1];
	uint64_t expire;
	size_t i;

	for (i = 0; i < nitems(v); i++)
		item_init(&v[i], &tt, w);
	for (i = nitems(days); i-- > 0;)
		timer_add(w, &v[i].t, BASE + days[i] * DAY + 7);
	timer_add(w, &v[nitems(days)].t, UINT64_MAX - 1);
	ck_assert_uint_eq(timer_wheel_count(w), nitems(v));
	for (i = 0; i < nitems(v); i++) {
		expire = timer_expire(&v[i].t);
		ck_assert_uint_le(timer_wheel_next(w), expire);
		ck_assert_uint_eq(timer_wheel_run(w, expire - 1), 0);
		ck_assert_uint_gt(timer_wheel_next(w), expire - 1);
		ck_assert_uint_eq(timer_wheel_run(w, expire), 1);
		ck_assert_int_eq(v[i].fires, 1);
		ck_assert_uint_eq(timer_wheel_count(w), nitems(v) - i - 1);
	}
	ck_assert_uint_eq(timer_wheel_run(w, UINT64_MAX), 0);
	ck_assert_int_eq(tt.early, 0);
	ck_assert_int_eq(tt.disorder, 0);
	timer_wheel_free(w);
}
END_TEST

/* Deadlines before the wheel's time fire on the next run, even at `now'. */
START_TEST(test_past)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	uint64_t now = BASE + CLOCK_NS_PER_MSEC;
	struct item v[4];
	size_t i;

	for (i = 0; i < nitems(v); i++)
		item_init(&v[i], &tt, w);
	/* Before any run: earlier than the creation time. */
	timer_add(w, &v[0].t, BASE - 5000);
	ck_assert_uint_le(timer_wheel_next(w), BASE - 5000);
	ck_assert_uint_eq(timer_wheel_run(w, now), 1);
	/* After a run: in the past, at 0, and exactly now. */
	timer_add(w, &v[1].t, BASE);
	timer_add(w, &v[2].t, 0);
	timer_add(w, &v[3].t, now);
	ck_assert_uint_le(timer_wheel_next(w), now);
	ck_assert_uint_eq(timer_wheel_run(w, now), 3);
	for (i = 0; i < nitems(v); i++)
		ck_assert_int_eq(v[i].fires, 1);
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	ck_assert_int_eq(tt.early, 0);
	timer_wheel_free(w);
}
END_TEST

START_TEST(test_count)
{
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	struct item v[10];
	size_t i;

	for (i = 0; i < nitems(v); i++) {
		item_init(&v[i], &tt, w);
		timer_add(w, &v[i].t, BASE + (i + 1) * CLOCK_NS_PER_MSEC);
	}
	ck_assert_uint_eq(timer_wheel_count(w), 10);
	timer_cancel(&v[1].t);
	timer_cancel(&v[5].t);
	timer_cancel(&v[9].t);
	timer_cancel(&v[9].t);
	ck_assert_uint_eq(timer_wheel_count(w), 7);
	timer_add(w, &v[2].t, BASE + 20 * CLOCK_NS_PER_MSEC);
	ck_assert_uint_eq(timer_wheel_count(w), 7);
	/* Due by 5 ms: v[0], v[3], v[4]. */
	ck_assert_uint_eq(timer_wheel_run(w, BASE + 5 * CLOCK_NS_PER_MSEC), 3);
	ck_assert_uint_eq(timer_wheel_count(w), 4);
	ck_assert_uint_eq(timer_wheel_run(w, BASE + CLOCK_NS_PER_SEC), 4);
	ck_assert_uint_eq(timer_wheel_count(w), 0);
	timer_wheel_free(w);
}
END_TEST

/* A hundred thousand timers, a third cancelled, run in 1 ms steps. */
START_TEST(test_100k)
{
	const size_t n = 100000;
	struct timer_wheel *w = timer_wheel_new(BASE);
	struct ttest tt = { 0 };
	uint64_t seed = 42, now;
	size_t i, cancelled = 0;
	struct item *v;

	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++) {
		item_init(&v[i], &tt, w);
		timer_add(w, &v[i].t,
		    BASE + rng_next(&seed) % (10 * CLOCK_NS_PER_SEC));
	}
	for (i = 0; i < n; i += 3) {
		timer_cancel(&v[i].t);
		cancelled++;
	}
	ck_assert_uint_eq(timer_wheel_count(w), n - cancelled);
	for (now = BASE; timer_wheel_count(w) > 0;
	    now += CLOCK_NS_PER_MSEC) {
		timer_wheel_run(w, now);
		if (timer_wheel_count(w) > 0)
			ck_assert_uint_gt(timer_wheel_next(w), now);
	}
	ck_assert_uint_eq(tt.nfired, n - cancelled);
	ck_assert_int_eq(tt.early, 0);
	ck_assert_int_eq(tt.disorder, 0);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(v[i].fires, i % 3 == 0 ? 0 : 1);
	free(v);
	timer_wheel_free(w);
}
END_TEST

START_TEST(test_clock)
{
	uint64_t a, b;

	a = clock_now();
	b = clock_now();
	ck_assert_uint_ge(b, a);
	ck_assert_uint_eq(clock_from_sec(-1.0), 0);
	ck_assert_uint_eq(clock_from_sec(0.0), 0);
	ck_assert_uint_eq(clock_from_sec(0.001), CLOCK_NS_PER_MSEC);
	ck_assert_uint_eq(clock_from_sec(2.5), 2500 * CLOCK_NS_PER_MSEC);
	ck_assert_uint_eq(clock_from_sec(1e30), UINT64_MAX);
	ck_assert(clock_to_sec(1500 * CLOCK_NS_PER_MSEC) == 1.5);
}
END_TEST

static Suite *
timer_suite(void)
{
	Suite *s = suite_create("timer");
	TCase *tc = tcase_create("wheel");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_add_cancel);
	tcase_add_loop_test(tc, test_random_order, 0, nitems(order_cases));
	tcase_add_loop_test(tc, test_next_bound, 0, nitems(next_offsets));
	tcase_add_test(tc, test_next_after_run);
	tcase_add_loop_test(tc, test_cancel_in_callback, 0,
	    nitems(cancel_cases));
	tcase_add_test(tc, test_rearm_self);
	tcase_add_loop_test(tc, test_add_in_callback, 0, nitems(spawn_cases));
	tcase_add_test(tc, test_far_future);
	tcase_add_test(tc, test_past);
	tcase_add_test(tc, test_count);
	tcase_add_test(tc, test_100k);
	tcase_add_test(tc, test_clock);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(timer_suite());
}
