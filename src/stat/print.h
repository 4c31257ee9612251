/*
 * --print-request and --print-reply: every request and reply, line by
 * line, each line tagged with its kind and the call's serial number.
 */
#ifndef HTTPERF_STAT_PRINT_H
#define HTTPERF_STAT_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct core;
struct print_line;

#define PRINT_HEADER	0x1	/* SH / RH and RT lines */
#define PRINT_BODY	0x2	/* SB / RB lines */

struct print {
	FILE		*out;
	int		 req_flags;	/* PRINT_* for requests, 0: off */
	int		 reply_flags;	/* PRINT_* for replies, 0: off */
	/* Replies' unfinished body lines, hashed by call. */
	struct print_line **tab;
	size_t		 tab_size;	/* a power of two */
	size_t		 count;
	struct print_line *free_lines;
	char		*scratch;	/* a request's header bytes */
	size_t		 scratch_cap;
};

/*
 * Subscribes to the call events and prints, to `out', the requests as
 * `request_flags' and the replies as `reply_flags' say (PRINT_HEADER,
 * PRINT_BODY, both, or 0 for none); the summary lines SS and RS come
 * with either flag.  The line formats are described at the top of
 * print.c.  `out' must outlive the module.
 */
void	print_init(struct print *p, struct core *core, int request_flags,
	    int reply_flags, FILE *out);

/*
 * Frees the module's memory (unfinished lines are dropped unprinted).
 * Call it after the last call was destroyed.  Harmless twice.
 */
void	print_fini(struct print *p);

/* Its settings as a collector (collector_env.cfg). */
struct print_config {
	int		 request_flags;	/* PRINT_*, 0: off */
	int		 reply_flags;
};

struct collector;

/* The collector (stat/collector.h): it prints as the test runs, and
   nothing in the report. */
extern const struct collector print_collector;

#endif
