/*
 * Series of samples and the percentiles shown (see series.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/util.h"
#include "stat/series.h"

const double stat_pct[STAT_NPCT] = { 50.0, 90.0, 99.0, 99.9, 99.99 };
const char *const stat_pct_name[STAT_NPCT] = { "p50", "p90", "p99",
    "p99.9", "p99.99" };

void
stat_samples_add(struct basic_series *s, struct stat_samples *l, double v)
{
	basic_series_add(s, v);
	if (l->n == l->cap) {
		l->cap = l->cap > 0 ? 2 * l->cap : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = v;
}

void
stat_samples_free(struct stat_samples *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

void
basic_series_add(struct basic_series *s, double v)
{
	if (s->n == 0 || v < s->min)
		s->min = v;
	if (s->n == 0 || v > s->max)
		s->max = v;
	s->n++;
	s->sum += v;
	s->sum2 += v * v;
}

double
basic_stddev(uint64_t n, double sum, double sum2)
{
	double var;

	if (n < 2)
		return 0.0;
	var = (sum2 - sum * sum / (double)n) / (double)(n - 1);
	if (!(var > 0) || !isfinite(var))
		return 0.0;
	return sqrt(var);
}
