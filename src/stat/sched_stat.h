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
 * except with --call-rate (config `requests'), whose arrivals are requests:
 * the workload signals BUS_ARRIVAL when it takes a request in on its
 * schedule (its lateness is the workload's own delay, not the wait for a
 * free connection, which is the server's doing and shows in the corrected
 * reply time), and BUS_ARRIVAL_MISSED later for those of them that never
 * went out (still queued at the end, their connection failed, the queue
 * was full, no URI).  Such a request counts once too: its BUS_ARRIVAL
 * makes it scheduled, its MISSED moves it from made to never sent
 * (`unsent').  It still counts in the achieved rate below, which measures
 * the workload's schedule, not the server.
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
 * SCHED_CPU_MAX_PCT percent of the test's duration, judged only when the
 * test lasted SCHED_CPU_MIN_NS or more: over a shorter one the start-up
 * work and the clock ticks of the CPU accounting make the share
 * meaningless (a 0.1 ms run shows 98%).
 */
#ifndef HTTPERF_STAT_SCHED_STAT_H
#define HTTPERF_STAT_SCHED_STAT_H

#include <stdint.h>
#include <stdio.h>

struct bus;
struct collector_run;
struct hdr;
struct jsonw;

#define SCHED_THRESHOLD_NS	UINT64_C(1000000)	/* 1 ms */
#define SCHED_LATE_MAX_PCT	1.0
#define SCHED_RATE_MIN_PCT	99.5
#define SCHED_CPU_MAX_PCT	90.0
#define SCHED_CPU_MIN_NS	UINT64_C(1000000000)	/* 1 s */

/* Its settings (collector_env.cfg; NULL: the defaults). */
struct sched_stat_config {
	double		 rate;		/* the nominal rate (per s), for the
					   report; 0: not shown */
	uint64_t	 threshold;	/* ns: later than this is late */
	int		 requests;	/* --call-rate: MISSED counts arrivals
					   already signalled (see above) */
};

struct sched_stat {
	struct sched_stat_config cfg;
	struct hdr	*late;		/* lateness of the arrivals made */
	uint64_t	 made;		/* BUS_ARRIVAL: made (--call-rate:
					   taken in, `unsent' of them never
					   went out) */
	uint64_t	 missed;	/* never made, never sent */
	uint64_t	 unsent;	/* --call-rate: made, never sent */
	uint64_t	 nlate;		/* made, lateness > threshold */
	uint64_t	 start;		/* the test's start (the JSON's times
					   are since it) */
	uint64_t	 first;		/* intended time of the first arrival */
	uint64_t	 sched_last;	/* latest intended (or missed) time */
	uint64_t	 actual_last;	/* latest time an arrival was made */
	int		 have_first;
	int		 merged;	/* --merge: the CPU share is ... */
	double		 merged_cpu_pct;	/* ... the largest file's;
					   < 0: unknown */
};

/* The bottleneck triggers (bits of sched_verdict.why). */
#define SCHED_WHY_LATE	0x1
#define SCHED_WHY_RATE	0x2
#define SCHED_WHY_CPU	0x4

/* The figures the warning is made of. */
struct sched_verdict {
	unsigned	 why;		/* SCHED_WHY_* bits; 0: no warning */
	uint64_t	 scheduled;	/* made + missed */
	uint64_t	 never_sent;	/* missed + unsent */
	double		 late_pct;	/* of the scheduled */
	double		 sched_rate;	/* the schedule's, per s; 0: unknown */
	double		 achieved_rate;	/* per s */
	double		 rate_pct;	/* achieved / schedule's */
	double		 cpu_pct;	/* CPU time / duration; < 0: unknown */
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

/*
 * `n' arrivals never made, nor sent, signalled at `now': with --call-rate
 * too (BUS_ARRIVAL_MISSED with an obj: requests never taken in).
 */
void	sched_stat_never_made(struct sched_stat *st, uint64_t n,
	    uint64_t now);

/*
 * The client's CPU time (user + system) as a percentage of the test's
 * duration; -1 when unknown (run NULL, no duration).
 */
double	sched_stat_cpu_pct(const struct collector_run *run);

/*
 * Works out the figures and the triggers; `cpu_pct' from
 * sched_stat_cpu_pct() (< 0: unknown, no CPU trigger).  --merge calls it
 * on the merged totals, with the largest of the files' CPU shares.
 */
void	sched_stat_verdict(const struct sched_stat *st, double cpu_pct,
	    struct sched_verdict *v);

/* Prints the Lateness percentile line and the Arrivals line. */
void	sched_stat_print(const struct sched_stat *st, FILE *out);

/*
 * Prints the bottleneck warning (after the whole report) if a trigger
 * fired, with `cpu_pct' as for sched_stat_verdict().  Returns 1 if it
 * did, else 0.
 */
int	sched_stat_print_warning(const struct sched_stat *st, FILE *out,
	    double cpu_pct);

/* The same for the collector's state and the run (run.c). */
int	sched_stat_warn(void *state, FILE *out,
	    const struct collector_run *run);

/*
 * Writes the collector's part of the --json document (one object): the
 * counts, the rates and the warning as sched_stat_verdict() works them
 * out with `cpu_pct', the lateness histogram (stat_json_hdr()), and the
 * span of the schedule in ns since st->start, from which --merge
 * rebuilds it.  Returns 0, or -1 when the histogram cannot be encoded.
 */
int	sched_stat_json(const struct sched_stat *st, struct jsonw *w,
	    double cpu_pct);

struct collector;

/* The collector (stat/collector.h): its extra is the two lines above.
   Settings: sched_stat_config.  modules.c gives it only to a run with a
   schedule. */
extern const struct collector sched_stat_collector;

#endif
