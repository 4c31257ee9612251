/*
 * The schedule collector: whether the generator kept its schedule.  From
 * the workload's BUS_ARRIVAL and BUS_ARRIVAL_MISSED events it keeps the
 * lateness of every arrival made (when it was made - when the schedule
 * meant it for) in an HDR histogram, the count of arrivals later than the
 * threshold, the count never sent, and the span of the schedule, and it
 * says after the report whether the client was the bottleneck.
 *
 * Every scheduled arrival is either made (BUS_ARRIVAL) or never sent (one
 * count of BUS_ARRIVAL_MISSED), never both, so:
 *	scheduled = made + never sent
 *	late = made arrivals with lateness > threshold
 *	the schedule's rate = (scheduled - 1) / (sched_last - first)
 *	the achieved rate = (made - 1) / (max(actual_last, sched_last) - first)
 * where first is the intended time of the first arrival, sched_last the
 * latest intended time (or the time of a BUS_ARRIVAL_MISSED, which is at
 * or after the intended time of the arrivals it counts), actual_last when
 * the last arrival was made.  Comparing the achieved rate with the
 * schedule's own rate, not with the nominal rate, keeps a random schedule
 * (--period e) that happened to draw long intervals from looking slow.
 *
 * The bottleneck warning has three triggers, each reported with its
 * figure: more than SCHED_LATE_MAX_PCT percent of the scheduled arrivals
 * late over the threshold; the achieved rate below SCHED_RATE_MIN_PCT
 * percent of the schedule's; the client's CPU time (user + system) over
 * SCHED_CPU_MAX_PCT percent of the test's duration.
 */
#ifndef HTTPERF_STAT_SCHED_STAT_H
#define HTTPERF_STAT_SCHED_STAT_H

#include <stdint.h>
#include <stdio.h>

struct bus;
struct collector_run;
struct hdr;

#define SCHED_THRESHOLD_NS	UINT64_C(1000000)	/* 1 ms */
#define SCHED_LATE_MAX_PCT	1.0
#define SCHED_RATE_MIN_PCT	99.5
#define SCHED_CPU_MAX_PCT	90.0

/* Its settings (collector_env.cfg; NULL: the defaults). */
struct sched_stat_config {
	double		 rate;		/* the nominal rate (per s), for the
					   report; 0: not shown */
	uint64_t	 threshold;	/* ns: later than this is late */
};

struct sched_stat {
	struct sched_stat_config cfg;
	struct hdr	*late;		/* lateness of the arrivals made */
	uint64_t	 made;
	uint64_t	 missed;	/* never sent */
	uint64_t	 nlate;		/* made, lateness > threshold */
	uint64_t	 first;		/* intended time of the first arrival */
	uint64_t	 sched_last;	/* latest intended (or missed) time */
	uint64_t	 actual_last;	/* latest time an arrival was made */
	int		 have_first;
};

/* The bottleneck triggers (bits of sched_verdict.why). */
#define SCHED_WHY_LATE	0x1
#define SCHED_WHY_RATE	0x2
#define SCHED_WHY_CPU	0x4

/* The figures the warning is made of. */
struct sched_verdict {
	unsigned	 why;		/* SCHED_WHY_* bits; 0: no warning */
	uint64_t	 scheduled;
	double		 late_pct;	/* of the scheduled */
	double		 sched_rate;	/* the schedule's, per s; 0: unknown */
	double		 achieved_rate;	/* per s */
	double		 rate_pct;	/* achieved / schedule's */
	double		 cpu_pct;	/* CPU time / duration */
};

/* Prepares it and subscribes it to `bus' (NULL: events fed by hand). */
void	sched_stat_init(struct sched_stat *st, struct bus *bus,
	    const struct sched_stat_config *cfg);

void	sched_stat_fini(struct sched_stat *st);

/* One arrival made at `now', meant for `intended'. */
void	sched_stat_arrival(struct sched_stat *st, uint64_t intended,
	    uint64_t now);

/* `n' arrivals never sent, signalled at `now'. */
void	sched_stat_missed(struct sched_stat *st, uint64_t n, uint64_t now);

/* Works out the figures and the triggers; `run' may be NULL (no CPU). */
void	sched_stat_verdict(const struct sched_stat *st,
	    const struct collector_run *run, struct sched_verdict *v);

/* Prints the Lateness percentile line and the Arrivals line. */
void	sched_stat_print(const struct sched_stat *st, FILE *out);

/*
 * Prints the bottleneck warning (after the whole report) if a trigger
 * fired.  Returns 1 if it did, else 0.  `state' is the collector's.
 */
int	sched_stat_warn(void *state, FILE *out,
	    const struct collector_run *run);

struct collector;

/* The collector (stat/collector.h): its extra is the two lines above.
   Settings: sched_stat_config.  main.c has it only when the run has a
   schedule. */
extern const struct collector sched_stat_collector;

#endif
