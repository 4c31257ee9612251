/*
 * Unit tests for the schedule collector (stat/sched_stat.h), fed with
 * synthetic events: exact counts (scheduled = made + never sent, late
 * strictly over the threshold), lateness values in the histogram, the
 * schedule's and the achieved rate, each of the three bottleneck
 * triggers alone, the report lines, and the events through the bus.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "core/bus.h"
#include "lib/hdr.h"
#include "stat/collector.h"
#include "stat/sched_stat.h"
#include "unit.h"

#define MS	UINT64_C(1000000)
#define T0	UINT64_C(5000000000)

static void
init(struct sched_stat *st, uint64_t threshold)
{
	struct sched_stat_config cfg = { .rate = 100, .threshold = threshold };

	sched_stat_init(st, NULL, &cfg);
}

/* 100 arrivals 10 ms apart, each `late' ns late. */
static void
feed(struct sched_stat *st, uint64_t n, uint64_t late)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		sched_stat_arrival(st, T0 + i * 10 * MS,
		    T0 + i * 10 * MS + late);
}

/* On time: no trigger; rates equal; lateness recorded exactly. */
START_TEST(on_time)
{
	struct sched_stat st;
	struct sched_verdict v;

	init(&st, MS);
	feed(&st, 100, 50000);		/* 50 us late each */
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(v.why, 0);
	ck_assert_uint_eq(v.scheduled, 100);
	ck_assert_uint_eq(st.made, 100);
	ck_assert_uint_eq(st.nlate, 0);
	ck_assert_uint_eq(st.missed, 0);
	ck_assert_uint_eq(hdr_count(st.late), 100);
	ck_assert_uint_eq(hdr_value_at_percentile(st.late, 100), 50015);
	ck_assert(v.sched_rate > 99.99 && v.sched_rate < 100.01);
	ck_assert(v.achieved_rate > 99.9 && v.achieved_rate <= v.sched_rate);
	ck_assert(v.rate_pct > 99.9);
	sched_stat_fini(&st);
}
END_TEST

/* Late: strictly over the threshold; 1% is not more than 1%. */
START_TEST(late_trigger)
{
	struct sched_stat st;
	struct sched_verdict v;

	init(&st, MS);
	feed(&st, 99, 0);
	/* Exactly at the threshold: not late. */
	sched_stat_arrival(&st, T0 + 99 * 10 * MS, T0 + 99 * 10 * MS + MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(st.nlate, 0);
	sched_stat_fini(&st);

	init(&st, MS);
	sched_stat_arrival(&st, T0, T0 + MS + 1);	/* late */
	feed(&st, 100, 0);				/* T0 again: on time */
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(st.nlate, 1);
	ck_assert_uint_eq(v.scheduled, 101);
	ck_assert_uint_eq(v.why, 0);		/* 0.99%: not more than 1% */
	sched_stat_arrival(&st, T0 + 100 * 10 * MS,
	    T0 + 100 * 10 * MS + 300 * MS);
	sched_stat_arrival(&st, T0 + 101 * 10 * MS,
	    T0 + 101 * 10 * MS + 2 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(st.nlate, 3);
	ck_assert_uint_eq(v.scheduled, 103);
	ck_assert(v.late_pct > 2.9 && v.late_pct < 2.92);
	ck_assert(v.why & SCHED_WHY_LATE);
	ck_assert_uint_eq(hdr_max(st.late) / MS, 300);
	sched_stat_fini(&st);

	/* --max-lateness 0: any lateness counts. */
	init(&st, 0);
	sched_stat_arrival(&st, T0, T0);
	sched_stat_arrival(&st, T0 + MS, T0 + MS + 1);
	ck_assert_uint_eq(st.nlate, 1);
	sched_stat_fini(&st);
}
END_TEST

/*
 * The rate: never sent arrivals lower the achieved rate (scheduled =
 * made + never sent); so does a last arrival made late.
 */
START_TEST(rate_trigger)
{
	struct sched_stat st;
	struct sched_verdict v;

	/*
	 * 400 scheduled over 3990 ms, 1 never sent: 398 / 399 intervals,
	 * 99.75%, no trigger.
	 */
	init(&st, UINT64_C(1000) * MS);
	feed(&st, 399, 0);
	sched_stat_missed(&st, 1, T0 + 399 * 10 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(v.scheduled, 400);
	ck_assert(v.sched_rate > 99.99 && v.sched_rate < 100.01);
	ck_assert(v.rate_pct > 99.74 && v.rate_pct < 99.76);
	ck_assert_uint_eq(v.why & SCHED_WHY_RATE, 0);
	/* Two more: 396 / 399, 99.25%, trigger. */
	sched_stat_missed(&st, 2, T0 + 399 * 10 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(v.scheduled, 402);
	ck_assert_uint_eq(st.missed, 3);
	ck_assert(v.rate_pct > 99.24 && v.rate_pct < 99.26);
	ck_assert_uint_eq(v.why, SCHED_WHY_RATE);	/* not late */
	sched_stat_fini(&st);

	/*
	 * The last arrival 100 ms late over a 990 ms schedule: 90.8%, a
	 * shortfall when the schedule ends later than the lateness
	 * threshold (50 ms here)...
	 */
	init(&st, UINT64_C(50) * MS);
	feed(&st, 99, 0);
	sched_stat_arrival(&st, T0 + 990 * MS, T0 + 1090 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert(v.sched_rate > 99.99 && v.sched_rate < 100.01);
	ck_assert(v.achieved_rate > 90.8 && v.achieved_rate < 90.9);
	ck_assert_uint_eq(v.why, SCHED_WHY_RATE);	/* 1% late: not over 1% */
	sched_stat_fini(&st);
	/* ... not when the threshold (1 s) allows that lateness: a short
	   schedule whose last arrival is a little late keeps up. */
	init(&st, UINT64_C(1000) * MS);
	feed(&st, 99, 0);
	sched_stat_arrival(&st, T0 + 990 * MS, T0 + 1090 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert(v.achieved_rate > 90.8 && v.achieved_rate < 90.9);
	ck_assert_uint_eq(v.why, 0);
	/* 100 ms behind is exactly the threshold: still not over it. */
	sched_stat_fini(&st);
	init(&st, UINT64_C(100) * MS);
	feed(&st, 99, 0);
	sched_stat_arrival(&st, T0 + 990 * MS, T0 + 1090 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(v.why & SCHED_WHY_RATE, 0);
	sched_stat_fini(&st);

	/* Every arrival never sent: achieved 0. */
	init(&st, MS);
	sched_stat_missed(&st, 1, T0);
	sched_stat_missed(&st, 9, T0 + 90 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(v.scheduled, 10);
	ck_assert(v.achieved_rate == 0);
	ck_assert(v.why & SCHED_WHY_RATE);
	sched_stat_fini(&st);
}
END_TEST

/*
 * A random schedule that drew long intervals: the achieved rate is held
 * to the schedule's own rate, not the nominal one (100/s here, the
 * schedule 50/s), so a client keeping up does not trip it.
 */
START_TEST(rate_random)
{
	struct sched_stat st;
	struct sched_verdict v;
	uint64_t i;

	init(&st, MS);
	for (i = 0; i < 100; i++)
		sched_stat_arrival(&st, T0 + i * 20 * MS,
		    T0 + i * 20 * MS + 100000);
	sched_stat_verdict(&st, -1, &v);
	ck_assert(v.sched_rate > 49.99 && v.sched_rate < 50.01);
	ck_assert_uint_eq(v.why, 0);
	sched_stat_fini(&st);
}
END_TEST

/* The CPU: user + system over the duration, more than 90%. */
START_TEST(cpu_trigger)
{
	struct sched_stat st;
	struct sched_verdict v;
	struct collector_run run = { .duration = 2000 * MS, .cpu_user = 1.2,
	    .cpu_sys = 0.6 };

	init(&st, MS);
	feed(&st, 10, 0);
	sched_stat_verdict(&st, sched_stat_cpu_pct(&run), &v);
	ck_assert_uint_eq(v.why, 0);		/* exactly 90% */
	run.cpu_sys = 0.62;
	sched_stat_verdict(&st, sched_stat_cpu_pct(&run), &v);
	ck_assert_uint_eq(v.why, SCHED_WHY_CPU);
	ck_assert(v.cpu_pct > 90.99 && v.cpu_pct < 91.01);
	/* Under 1 s the share is not judged: unknown, no trigger. */
	run.duration = 999 * MS;
	run.cpu_user = 0.9;
	run.cpu_sys = 0.09;
	ck_assert(sched_stat_cpu_pct(&run) < 0);
	sched_stat_verdict(&st, sched_stat_cpu_pct(&run), &v);
	ck_assert_uint_eq(v.why, 0);
	run.duration = 1000 * MS;
	ck_assert(sched_stat_cpu_pct(&run) > 98.9);
	sched_stat_fini(&st);
}
END_TEST

/* Reads what `fn' printed into a buffer. */
static char *
capture(struct sched_stat *st, const struct collector_run *run, int warn,
    int *rv)
{
	static char buf[4096];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	ck_assert_ptr_nonnull(f);
	if (warn)
		*rv = sched_stat_warn(st, f, run);
	else
		sched_stat_print(st, f);
	fclose(f);
	return buf;
}

/* The lines, and the warning naming each reason with its figure. */
START_TEST(lines)
{
	struct sched_stat st;
	struct collector_run run = { .duration = 1000 * MS, .cpu_user = 0.9,
	    .cpu_sys = 0.05 };
	int rv = -1;
	char *s;

	init(&st, MS);
	feed(&st, 100, 0);
	s = capture(&st, &run, 1, &rv);
	ck_assert_int_eq(rv, 1);
	ck_assert_str_eq(s, "\nWarning: the client was the bottleneck: "
	    "client CPU 95.0% (over 90%)\n");
	run.cpu_user = 0.1;
	s = capture(&st, &run, 1, &rv);
	ck_assert_int_eq(rv, 0);
	ck_assert_str_eq(s, "");

	sched_stat_arrival(&st, T0 + 1000 * MS, T0 + 1300 * MS);
	sched_stat_arrival(&st, T0 + 1010 * MS, T0 + 1300 * MS);
	sched_stat_missed(&st, 3, T0 + 1040 * MS);
	s = capture(&st, &run, 0, &rv);
	ck_assert_str_eq(s, "Lateness percentiles [ms]: p50 0.000 p90 0.000 "
	    "p99 290.193 p99.9 300.155 p99.99 300.155 max 300.155\n"
	    "Arrivals: 105 scheduled, 2 late over 1 ms (1.9%), 3 never "
	    "sent; rate target 100.0/s, scheduled 100.0/s, achieved 77.7/s\n");
	s = capture(&st, &run, 1, &rv);
	ck_assert_int_eq(rv, 1);
	ck_assert_str_eq(s, "\nWarning: the client was the bottleneck: "
	    "1.9% of arrivals late over 1 ms (more than 1%); achieved "
	    "arrival rate 77.7/s is 77.7% of the scheduled 100.0/s (below "
	    "99.5%)\n");
	sched_stat_fini(&st);
}
END_TEST

/* Through the bus: BUS_ARRIVAL and BUS_ARRIVAL_MISSED. */
START_TEST(events)
{
	struct sched_stat st;
	struct bus *b = bus_new();
	union bus_arg a;

	sched_stat_init(&st, b, NULL);
	ck_assert_uint_eq(st.cfg.threshold, SCHED_THRESHOLD_NS);
	a.i = (long)T0;
	bus_signal(b, BUS_ARRIVAL, NULL, a, T0 + 2 * MS);
	a.i = (long)(T0 + 10 * MS);
	bus_signal(b, BUS_ARRIVAL, NULL, a, T0 + 10 * MS);
	a.i = 4;
	bus_signal(b, BUS_ARRIVAL_MISSED, NULL, a, T0 + 50 * MS);
	ck_assert_uint_eq(st.made, 2);
	ck_assert_uint_eq(st.nlate, 1);
	ck_assert_uint_eq(st.missed, 4);
	ck_assert_uint_eq(st.first, T0);
	ck_assert_uint_eq(st.sched_last, T0 + 50 * MS);
	ck_assert_uint_eq(st.actual_last, T0 + 10 * MS);
	sched_stat_fini(&st);
	bus_free(b);
}
END_TEST

/*
 * --call-rate (requests): an arrival is signalled when the request is
 * taken in, and BUS_ARRIVAL_MISSED later for those of them never sent:
 * each request counted once (scheduled = 10, 3 of them never sent), the
 * span not widened, the achieved rate the workload's.
 */
START_TEST(requests)
{
	struct sched_stat_config cfg = { .rate = 100, .threshold = MS,
	    .requests = 1 };
	struct sched_stat st;
	struct sched_verdict v;
	struct bus *b = bus_new();
	union bus_arg a;
	uint64_t i;

	sched_stat_init(&st, b, &cfg);
	for (i = 0; i < 10; i++) {
		a.i = (long)(T0 + i * 10 * MS);
		bus_signal(b, BUS_ARRIVAL, NULL, a, T0 + i * 10 * MS + 20000);
	}
	a.i = 3;
	bus_signal(b, BUS_ARRIVAL_MISSED, NULL, a, T0 + 5000 * MS);
	ck_assert_uint_eq(st.made, 10);
	ck_assert_uint_eq(st.unsent, 3);
	ck_assert_uint_eq(st.missed, 0);
	ck_assert_uint_eq(st.sched_last, T0 + 90 * MS);
	sched_stat_verdict(&st, -1, &v);
	ck_assert_uint_eq(v.scheduled, 10);
	ck_assert_uint_eq(v.never_sent, 3);
	ck_assert(v.sched_rate > 99.99 && v.sched_rate < 100.01);
	ck_assert(v.achieved_rate > 99.9);
	ck_assert_uint_eq(v.why, 0);
	ck_assert_str_eq(capture(&st, NULL, 0, NULL) + strlen("Lateness "
	    "percentiles [ms]: p50 0.020 p90 0.020 p99 0.020 p99.9 0.020 "
	    "p99.99 0.020 max 0.020\n"), "Arrivals: 10 scheduled, 0 late "
	    "over 1 ms (0.0%), 3 never sent; rate target 100.0/s, scheduled "
	    "100.0/s, achieved 100.0/s\n");
	sched_stat_fini(&st);
	bus_free(b);
}
END_TEST

static Suite *
sched_stat_suite(void)
{
	Suite *s = suite_create("sched_stat");
	TCase *tc = tcase_create("sched");

	tcase_add_test(tc, on_time);
	tcase_add_test(tc, late_trigger);
	tcase_add_test(tc, rate_trigger);
	tcase_add_test(tc, rate_random);
	tcase_add_test(tc, cpu_trigger);
	tcase_add_test(tc, lines);
	tcase_add_test(tc, events);
	tcase_add_test(tc, requests);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(sched_stat_suite());
}
