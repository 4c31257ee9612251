/*
 * The reading side of the collectors' --json parts, for --merge: the
 * context a collector's merge op gets (struct collector_merge, see
 * stat/collector.h) and the readers it uses on its stats.NAME object.
 * Every reader names the member it reads in the refusal, by its full
 * path ("PROG: --merge: FILE: stats.basic.requests.total: missing or not
 * an unsigned integer"); only the first fault of a file is reported, and
 * a reader after it returns 0 and changes nothing it was given.
 */
#ifndef HTTPERF_STAT_STAT_MERGE_H
#define HTTPERF_STAT_STAT_MERGE_H

#include <stdint.h>
#include <stdio.h>

#include "stat/collector.h"
#include "stat/series.h"

struct hdr;
struct jv;

/*
 * Reports a fault of member `member' of the object (a path under it,
 * "requests.total" or "intervals[3].reply"; NULL: the object itself),
 * unless one was reported already; then mg->failed is set.
 */
void	stat_merge_fail(struct collector_merge *mg, const char *member,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The member at dotted path `member' of the object (NULL: none). */
const struct jv *stat_merge_get(const struct collector_merge *mg,
	    const char *member);

/* An unsigned integer; a number at least 0; a boolean. */
uint64_t stat_merge_u64(struct collector_merge *mg, const char *member);
double	stat_merge_num(struct collector_merge *mg, const char *member);
int	stat_merge_bool(struct collector_merge *mg, const char *member);

/* *acc += the unsigned integer, refusing a sum that overflows. */
void	stat_merge_add(struct collector_merge *mg, const char *member,
	    uint64_t *acc);

/* *acc = the larger of *acc and the unsigned integer. */
void	stat_merge_max(struct collector_merge *mg, const char *member,
	    uint64_t *acc);

/*
 * A minimum and a maximum of `n' values in the file (none: no change),
 * `had' counted before it.
 */
void	stat_merge_min_max(struct collector_merge *mg, uint64_t n,
	    uint64_t had, const char *pmin, uint64_t *min, const char *pmax,
	    uint64_t *max);

/*
 * Adds the histogram object at `member' (stat_json_hdr()'s) into *acc:
 * decoded from its encoding, checked against its summary, its settings
 * the first file's (the first file's becomes *acc), its clamped count
 * added.  A histogram in only one of the first file and this one is
 * refused; one in neither leaves *acc NULL.
 */
void	stat_merge_hist(struct collector_merge *mg, const char *member,
	    struct hdr **acc);

/*
 * Adds a series' samples (stat_json_series()'s `values') into sum,
 * sample k into sum k (the files sample on the same period).
 */
void	stat_merge_samples(struct collector_merge *mg, const char *member,
	    struct stat_samples *sum);

/*
 * At the end of a merge: the summed samples into the series and its list,
 * as a run adds its samples; frees sum.
 */
void	stat_merge_samples_end(struct stat_samples *sum,
	    struct basic_series *s, struct stat_samples *l);

#endif
