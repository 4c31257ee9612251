/*
 * The arithmetic of a series of samples (the reply rate, the session
 * rate, ...) and the percentiles every histogram line and object shows:
 * shared by the report, the --json document and --merge, so that they
 * cannot disagree.
 */
#ifndef HTTPERF_STAT_SERIES_H
#define HTTPERF_STAT_SERIES_H

#include <stddef.h>
#include <stdint.h>

/* Running summary of a series of samples (reply rate, ...). */
struct basic_series {
	uint64_t	n;
	double		min;
	double		max;
	double		sum;
	double		sum2;
};

/*
 * Returns the sample standard deviation from n, sum and sum of squares;
 * 0 when n < 2 or rounding makes the variance non-positive.
 */
double	basic_stddev(uint64_t n, double sum, double sum2);

/* Adds one sample to a series. */
void	basic_series_add(struct basic_series *s, double v);

/* The samples of a series, every one of them (one per 5 s sample). */
struct stat_samples {
	double		*v;
	size_t		 n;
	size_t		 cap;
};

/* Adds one sample to both the series and the list (which grows). */
void	stat_samples_add(struct basic_series *s, struct stat_samples *l,
	    double v);
void	stat_samples_free(struct stat_samples *l);

/* The percentiles every histogram line and object shows. */
#define STAT_NPCT	5
extern const double stat_pct[STAT_NPCT];
extern const char *const stat_pct_name[STAT_NPCT];

#endif
