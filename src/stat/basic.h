/*
 * The basic statistics collector: subscribes to connection and call
 * events, keeps the totals of the classic report, and prints it.
 */
#ifndef HTTPERF_STAT_BASIC_H
#define HTTPERF_STAT_BASIC_H

#include <stdint.h>
#include <stdio.h>

#include "stat/basic_report.h"

struct core;
struct hist;

struct basic {
	FILE		*out;		/* where -v samples go */
	int		 verbose;
	struct basic_totals t;
	uint64_t	 net_bytes;	/* read and written */
	/* Connects started in one loop turn form a burst. */
	uint64_t	 burst_turn;
	uint64_t	 burst_cur;
	uint64_t	 burst_max;
	uint64_t	 concurrent;
	uint64_t	 interval_replies;	/* since the last sample */
	struct hist	*lifetime;
	struct hist	*reply_time;	/* send start to reply end */
	uint32_t	*bins;		/* -v -v: 1 ms lifetime bins */
	uint32_t	 nbins;
};

/* Subscribes the collector to the core's events. */
void	basic_init(struct basic *b, struct core *core, int verbose,
	    FILE *out);

/* Frees the collector's memory. */
void	basic_fini(struct basic *b);

/*
 * Prints the classic report, from its first line ("Maximum connect burst
 * length"): test duration `duration' ns and CPU times in seconds are
 * measured by the caller.
 */
void	basic_print(struct basic *b, FILE *out, uint64_t duration,
	    double cpu_user, double cpu_sys);

/* Prints the lines that come after every classic line (percentiles). */
void	basic_print_extra(struct basic *b, FILE *out);

struct collector;

/* The collector (stat/collector.h): its report is the classic one, its
   extra the percentile and early-reply lines.  No settings. */
extern const struct collector basic_collector;

#endif
