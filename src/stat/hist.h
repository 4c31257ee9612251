/*
 * Log-linear histogram of non-negative 64-bit values (nanoseconds here).
 * Values below 2^sub_bits are exact; above, every bucket is narrower than
 * 1/2^(sub_bits-1) of its value, so any quantile read back has a relative
 * error below 1% with the default precision.  Fixed memory, no allocation
 * after hist_new().
 */
#ifndef HTTPERF_STAT_HIST_H
#define HTTPERF_STAT_HIST_H

#include <stdint.h>

struct hist;

/* Creates an empty histogram.  Never returns NULL (aborts on no memory). */
struct hist	*hist_new(void);

/* Frees it.  NULL is ok. */
void		 hist_free(struct hist *h);

/* Records one value. */
void		 hist_add(struct hist *h, uint64_t v);

/* Returns the number of values recorded. */
uint64_t	 hist_count(const struct hist *h);

/*
 * Returns the value at quantile q (0 <= q <= 1): the midpoint of the bucket
 * holding the ceil(q*n)-th smallest value, clamped to [min, max]; 0 if
 * empty.  Relative error below 1%; q 0 and 1 give the exact smallest and
 * largest values.
 */
uint64_t	 hist_quantile(const struct hist *h, double q);

#endif
