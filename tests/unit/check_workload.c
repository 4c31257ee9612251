/*
 * Unit tests for the end of a workload (gen/workload.h), the rule the
 * connection and session generators share: arrivals up to the total on
 * the schedule, the next unit at rate 0 only once the previous one is
 * gone (from the timer phase, never recursively), done exactly once when
 * the total is destroyed or, once drained, when the live units are, and
 * never after a stop; and the arrivals of a schedule, each signalled
 * once as made (BUS_ARRIVAL, at its place on the schedule) or never
 * sent (BUS_ARRIVAL_MISSED: failed at creation, or due when the run was
 * cut short).  Time is driven by hand through the loop's timer wheel.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "core/bus.h"
#include "core/clock.h"
#include "core/loop.h"
#include "core/timer.h"
#include "gen/rate.h"
#include "gen/workload.h"
#include "lib/util.h"
#include "unit.h"

/* What the callbacks saw. */
struct fix {
	struct loop	*loop;
	struct bus	*bus;
	struct rate_spec spec;
	struct workload	 wl;
	uint64_t	 idx[64];	/* indexes created, in order */
	size_t		 ncreated;
	int		 ndone;
	uint64_t	 done_now;
	int		 fail_at_once;	/* create destroys the unit at once */
	uint64_t	 intended[64];	/* what create was told */
	uint64_t	 never;		/* bit i: unit i never starts */
	/* The arrivals signalled. */
	uint64_t	 arr_intended[64];
	uint64_t	 arr_now[64];
	size_t		 narr;
	uint64_t	 missed;	/* sum of BUS_ARRIVAL_MISSED */
	size_t		 nmissed_ev;
	uint64_t	 missed_now;
};

static int
fix_create(void *arg, uint64_t idx, uint64_t intended, uint64_t now)
{
	struct fix *f = arg;

	ck_assert_uint_lt(f->ncreated, nitems(f->idx));
	f->intended[f->ncreated] = intended;
	f->idx[f->ncreated++] = idx;
	/* As a connection refused inside conn_connect() is. */
	if (f->fail_at_once)
		workload_destroyed(&f->wl, now);
	return idx < 64 && (f->never & (UINT64_C(1) << idx)) ? -1 : 0;
}

static void
fix_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct fix *f = ctx;

	ck_assert_ptr_null(obj);
	if (ev == BUS_ARRIVAL) {
		ck_assert_uint_lt(f->narr, nitems(f->arr_now));
		f->arr_intended[f->narr] = (uint64_t)arg.i;
		f->arr_now[f->narr++] = now;
	} else {
		ck_assert_int_gt(arg.i, 0);
		f->missed += (uint64_t)arg.i;
		f->nmissed_ev++;
		f->missed_now = now;
	}
}

static void
fix_done(void *arg, uint64_t now)
{
	struct fix *f = arg;

	f->ndone++;
	f->done_now = now;
}

/* A workload of `total' units at `rate' per second. */
static void
fix_init(struct fix *f, double rate, uint64_t total)
{
	char err[256] = "";

	memset(f, 0, sizeof(*f));
	f->loop = loop_new(LOOP_BACKEND_POLL, err, sizeof(err));
	ck_assert_msg(f->loop != NULL, "loop_new: %s", err);
	rate_spec_set_rate(&f->spec, rate);
	f->bus = bus_new();
	bus_subscribe(f->bus, BUS_ARRIVAL, fix_event, f);
	bus_subscribe(f->bus, BUS_ARRIVAL_MISSED, fix_event, f);
	workload_init(&f->wl, f->loop, f->bus, &f->spec, 0, 1, total,
	    fix_create, f, fix_done, f);
}

static void
fix_fini(struct fix *f)
{
	workload_stop(&f->wl);
	ck_assert_uint_eq(timer_wheel_count(loop_timers(f->loop)), 0);
	loop_free(f->loop);
	bus_free(f->bus);
}

/* Runs the timers due at `t'. */
static void
fix_run(struct fix *f, uint64_t t)
{
	timer_wheel_run(loop_timers(f->loop), t);
}

#define STEP	UINT64_C(1000000)	/* 1 ms: 1000/s */
#define T0	UINT64_C(1000000000)

/* Paced: the total, no more; done once, with the last destruction. */
START_TEST(paced_total)
{
	struct fix f;
	size_t i;

	fix_init(&f, 1000, 5);
	workload_start(&f.wl, T0);
	ck_assert_uint_eq(f.ncreated, 1);
	fix_run(&f, T0 + 10 * STEP);
	ck_assert_uint_eq(f.ncreated, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(f.idx[i], i);
	fix_run(&f, T0 + 20 * STEP);
	ck_assert_uint_eq(f.ncreated, 5);
	for (i = 0; i < 4; i++)
		workload_destroyed(&f.wl, T0 + 30 * STEP);
	ck_assert_int_eq(f.ndone, 0);
	workload_destroyed(&f.wl, T0 + 31 * STEP);
	ck_assert_int_eq(f.ndone, 1);
	ck_assert_uint_eq(f.done_now, T0 + 31 * STEP);
	fix_fini(&f);
	ck_assert_int_eq(f.ndone, 1);
}
END_TEST

/* Rate 0: one unit at a time, the next from the timer phase. */
START_TEST(sequential)
{
	struct fix f;
	int i;

	fix_init(&f, 0, 3);
	workload_start(&f.wl, T0);
	ck_assert_uint_eq(f.ncreated, 1);
	for (i = 1; i < 3; i++) {
		fix_run(&f, T0 + (uint64_t)i * STEP);
		ck_assert_uint_eq(f.ncreated, (size_t)i);
		workload_destroyed(&f.wl, T0 + (uint64_t)i * STEP);
		/* Not from inside the destruction. */
		ck_assert_uint_eq(f.ncreated, (size_t)i);
		fix_run(&f, T0 + (uint64_t)i * STEP);
		ck_assert_uint_eq(f.ncreated, (size_t)i + 1);
	}
	workload_destroyed(&f.wl, T0 + 5 * STEP);
	ck_assert_int_eq(f.ndone, 1);
	fix_run(&f, T0 + 10 * STEP);
	ck_assert_uint_eq(f.ncreated, 3);
	fix_fini(&f);
}
END_TEST

/*
 * Rate 0, every unit failing inside its creation: the next one comes
 * from the timer phase, not from inside the failure (so a long run of
 * failures never grows the stack); the wheel runs them one after another.
 */
START_TEST(sequential_instant_failures)
{
	struct fix f;

	fix_init(&f, 0, 50);
	f.fail_at_once = 1;
	workload_start(&f.wl, T0);
	ck_assert_uint_eq(f.ncreated, 1);
	ck_assert_int_eq(f.ndone, 0);
	fix_run(&f, T0);
	ck_assert_uint_eq(f.ncreated, 50);
	ck_assert_int_eq(f.ndone, 1);
	fix_fini(&f);
}
END_TEST

/* Drained with units live: nothing new, done after the last of them. */
START_TEST(drain_live)
{
	struct fix f;

	fix_init(&f, 1000, 10);
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + 2 * STEP);
	ck_assert_uint_eq(f.ncreated, 3);
	workload_drain(&f.wl, T0 + 2 * STEP);
	ck_assert_int_eq(f.ndone, 0);
	fix_run(&f, T0 + 9 * STEP);
	ck_assert_uint_eq(f.ncreated, 3);
	workload_destroyed(&f.wl, T0 + 10 * STEP);
	workload_destroyed(&f.wl, T0 + 11 * STEP);
	ck_assert_int_eq(f.ndone, 0);
	workload_drain(&f.wl, T0 + 11 * STEP);	/* again: no effect */
	ck_assert_int_eq(f.ndone, 0);
	workload_destroyed(&f.wl, T0 + 12 * STEP);
	ck_assert_int_eq(f.ndone, 1);
	ck_assert_uint_eq(f.done_now, T0 + 12 * STEP);
	fix_fini(&f);
}
END_TEST

/* Drained with nothing live: done at once; drained at rate 0 too. */
START_TEST(drain_idle)
{
	struct fix f;

	fix_init(&f, 0, 10);
	workload_start(&f.wl, T0);
	workload_destroyed(&f.wl, T0 + STEP);	/* arms the next */
	workload_drain(&f.wl, T0 + 2 * STEP);
	ck_assert_int_eq(f.ndone, 1);
	ck_assert_uint_eq(f.done_now, T0 + 2 * STEP);
	fix_run(&f, T0 + 3 * STEP);
	ck_assert_uint_eq(f.ncreated, 1);
	workload_drain(&f.wl, T0 + 4 * STEP);
	ck_assert_int_eq(f.ndone, 1);
	fix_fini(&f);
}
END_TEST

/* Stopped: nothing new, and done never comes, even as the last goes. */
START_TEST(stop)
{
	struct fix f;

	fix_init(&f, 1000, 3);
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + STEP);
	ck_assert_uint_eq(f.ncreated, 2);
	workload_stop(&f.wl);
	fix_run(&f, T0 + 5 * STEP);
	ck_assert_uint_eq(f.ncreated, 2);
	workload_destroyed(&f.wl, T0 + 6 * STEP);
	workload_destroyed(&f.wl, T0 + 6 * STEP);
	workload_drain(&f.wl, T0 + 7 * STEP);
	workload_destroyed(&f.wl, T0 + 8 * STEP);	/* the total */
	ck_assert_int_eq(f.ndone, 0);
	fix_fini(&f);
}
END_TEST

/* A total of 0: done at once, nothing created. */
START_TEST(empty)
{
	struct fix f;

	fix_init(&f, 1000, 0);
	workload_start(&f.wl, T0);
	ck_assert_uint_eq(f.ncreated, 0);
	ck_assert_int_eq(f.ndone, 1);
	fix_fini(&f);
}
END_TEST

/*
 * Paced: each arrival is signalled once, at its place on the schedule
 * (the start for the first), `now' when it was made; a late timer makes
 * the overdue ones at once, each with its own intended time.
 */
START_TEST(arrivals_paced)
{
	struct fix f;
	size_t i;

	fix_init(&f, 1000, 5);
	workload_start(&f.wl, T0);
	ck_assert_uint_eq(f.narr, 1);
	ck_assert_uint_eq(f.arr_intended[0], T0);
	ck_assert_uint_eq(f.arr_now[0], T0);
	fix_run(&f, T0 + STEP);
	ck_assert_uint_eq(f.narr, 2);
	ck_assert_uint_eq(f.arr_now[1], T0 + STEP);
	/* The timer fires 7.5 ms late: three arrivals overdue. */
	fix_run(&f, T0 + 9 * STEP + STEP / 2);
	ck_assert_uint_eq(f.ncreated, 5);
	ck_assert_uint_eq(f.narr, 5);
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(f.intended[i], T0 + i * STEP);
		ck_assert_uint_eq(f.arr_intended[i], T0 + i * STEP);
	}
	for (i = 2; i < 5; i++)
		ck_assert_uint_eq(f.arr_now[i], T0 + 9 * STEP + STEP / 2);
	ck_assert_uint_eq(f.missed, 0);
	ck_assert_uint_eq(f.nmissed_ev, 0);
	fix_fini(&f);
}
END_TEST

/* Rate 0 has no schedule: intended 0, nothing signalled. */
START_TEST(arrivals_sequential)
{
	struct fix f;

	fix_init(&f, 0, 3);
	f.never = 0x2;
	workload_start(&f.wl, T0);
	workload_destroyed(&f.wl, T0 + STEP);
	fix_run(&f, T0 + STEP);
	workload_destroyed(&f.wl, T0 + 2 * STEP);
	fix_run(&f, T0 + 2 * STEP);
	ck_assert_uint_eq(f.ncreated, 3);
	ck_assert_uint_eq(f.intended[0], 0);
	ck_assert_uint_eq(f.intended[2], 0);
	workload_end(&f.wl, T0 + 100 * STEP);
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.narr, 0);
	ck_assert_uint_eq(f.nmissed_ev, 0);
	fix_fini(&f);
}
END_TEST

/* A unit that never started is missed, not made: never both. */
START_TEST(arrivals_never_started)
{
	struct fix f;

	fix_init(&f, 1000, 5);
	f.never = 0x1 | 0x8;		/* units 0 and 3 */
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + 10 * STEP);
	ck_assert_uint_eq(f.ncreated, 5);
	ck_assert_uint_eq(f.narr, 3);
	ck_assert_uint_eq(f.missed, 2);
	ck_assert_uint_eq(f.nmissed_ev, 2);
	ck_assert_uint_eq(f.arr_intended[0], T0 + STEP);
	ck_assert_uint_eq(f.arr_intended[1], T0 + 2 * STEP);
	ck_assert_uint_eq(f.arr_intended[2], T0 + 4 * STEP);
	fix_fini(&f);
}
END_TEST

/*
 * The run ends at `end': at the stop, the arrivals due by then (before
 * it: a run is [0, end)) and not made are missed, in one event at `end'.
 */
START_TEST(arrivals_end)
{
	struct fix f;

	fix_init(&f, 1000, 100);
	workload_end(&f.wl, T0 + 10 * STEP);
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + 3 * STEP);
	ck_assert_uint_eq(f.narr, 4);		/* 0, 1, 2, 3 ms */
	workload_end(&f.wl, T0 + 20 * STEP);	/* later: no effect */
	/* 4..9 ms were due: 6 (10 ms is the end, so not due). */
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.missed, 6);
	ck_assert_uint_eq(f.nmissed_ev, 1);
	ck_assert_uint_eq(f.missed_now, T0 + 10 * STEP);
	workload_stop(&f.wl);
	fix_run(&f, T0 + 30 * STEP);
	ck_assert_uint_eq(f.ncreated, 4);
	ck_assert_uint_eq(f.missed, 6);
	ck_assert_uint_eq(f.nmissed_ev, 1);
	fix_fini(&f);
}
END_TEST

/*
 * A late timer catching up: within one interval of the end it makes the
 * arrivals due by the end (late) and none meant for after it; more than
 * an interval past the end, the run is over: those due are never sent.
 */
START_TEST(arrivals_until)
{
	struct fix f;
	size_t i;

	fix_init(&f, 1000, 100);
	workload_end(&f.wl, T0 + 5 * STEP);
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + 6 * STEP);
	ck_assert_uint_eq(f.ncreated, 5);	/* 0..4 ms: [0, 5 ms) */
	ck_assert_uint_eq(f.narr, 5);
	for (i = 1; i < 5; i++) {
		ck_assert_uint_eq(f.arr_intended[i], T0 + i * STEP);
		ck_assert_uint_eq(f.arr_now[i], T0 + 6 * STEP);
	}
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.nmissed_ev, 0);
	fix_fini(&f);

	fix_init(&f, 1000, 100);
	workload_end(&f.wl, T0 + 5 * STEP);
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + STEP);
	fix_run(&f, T0 + 6 * STEP + 1);
	ck_assert_uint_eq(f.ncreated, 2);	/* 0, 1 ms */
	ck_assert_uint_eq(f.missed, 3);		/* 2..4 ms */
	ck_assert_uint_eq(f.nmissed_ev, 1);
	ck_assert_uint_eq(f.missed_now, T0 + 5 * STEP);
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.nmissed_ev, 1);
	fix_fini(&f);
}
END_TEST

/* At most the units left of the total; nothing once complete or drained. */
START_TEST(arrivals_end_bounded)
{
	struct fix f;

	fix_init(&f, 1000, 6);
	workload_end(&f.wl, T0 + 100 * STEP);
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + 3 * STEP);
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.missed, 2);
	fix_fini(&f);

	fix_init(&f, 1000, 3);
	workload_end(&f.wl, T0 + 100 * STEP);
	workload_start(&f.wl, T0);
	fix_run(&f, T0 + 3 * STEP);		/* the total */
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.nmissed_ev, 0);
	fix_fini(&f);

	fix_init(&f, 1000, 30);
	workload_end(&f.wl, T0 + 100 * STEP);
	workload_start(&f.wl, T0);
	workload_drain(&f.wl, T0 + STEP / 2);
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.nmissed_ev, 0);
	fix_fini(&f);

	/* No end told: nothing counted at the stop. */
	fix_init(&f, 1000, 30);
	workload_start(&f.wl, T0);
	workload_stop(&f.wl);
	ck_assert_uint_eq(f.nmissed_ev, 0);
	fix_fini(&f);
}
END_TEST

/*
 * Ten million arrivals due (1 us apart over 10 s): counted exactly, past
 * RATE_DUE_DRAWS without drawing each one.
 */
START_TEST(arrivals_end_many)
{
	struct fix f;

	fix_init(&f, 1e6, UINT64_MAX);
	workload_end(&f.wl, T0 + UINT64_C(10000000000));
	workload_start(&f.wl, T0);
	ck_assert_uint_eq(f.narr, 1);
	workload_stop(&f.wl);
	/* 1..9,999,999 us: the one at 10 s is the end, not due. */
	ck_assert_uint_eq(f.missed, 9999999);
	ck_assert_uint_eq(f.nmissed_ev, 1);
	fix_fini(&f);
}
END_TEST

static Suite *
workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("end");

	tcase_add_test(tc, paced_total);
	tcase_add_test(tc, sequential);
	tcase_add_test(tc, sequential_instant_failures);
	tcase_add_test(tc, drain_live);
	tcase_add_test(tc, drain_idle);
	tcase_add_test(tc, stop);
	tcase_add_test(tc, empty);
	tcase_add_test(tc, arrivals_paced);
	tcase_add_test(tc, arrivals_sequential);
	tcase_add_test(tc, arrivals_never_started);
	tcase_add_test(tc, arrivals_end);
	tcase_add_test(tc, arrivals_until);
	tcase_add_test(tc, arrivals_end_bounded);
	tcase_add_test(tc, arrivals_end_many);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(workload_suite());
}
