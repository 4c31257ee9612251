/*
 * The script collector (--script): the calls of the class `script', whose
 * hook raised an error or returned the wrong type (BUS_SCRIPT_ERROR, from
 * script/), and what the script counted for done() (asked of `fill' when
 * the document is written).  Its line comes after the classic report
 * when not 0:
 *	Errors: script N
 * and stats.script in --json; --merge adds the counts and histograms
 * up, so that --jobs' parent calls done() on the whole run's
 * (script_stat_counts()).
 */
#ifndef HTTPERF_STAT_SCRIPT_STAT_H
#define HTTPERF_STAT_SCRIPT_STAT_H

#include <stdint.h>

struct hdr;

/* What done() receives (the script's counts; HDR_NS_* histograms). */
struct script_stat_counts {
	uint64_t	 replies, bytes;
	uint64_t	 e_connect, e_read, e_write, e_status, e_timeout;
	const struct hdr *lat;		/* NULL: none (no done()) */
	const struct hdr *rps;
};

/* Its settings (collector_env.cfg). */
struct script_stat_config {
	/* Fills c with the script's counts; NULL: none. */
	void		(*fill)(const void *arg, struct script_stat_counts *c);
	const void	*fill_arg;
};

struct collector;

extern const struct collector script_stat_collector;

/* A (merged) state's counts, for done(). */
void	script_stat_counts(const void *state, struct script_stat_counts *c);

#endif
