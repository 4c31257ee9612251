/*
 * The pieces of the --json document that several collectors write the
 * same way: a histogram (its summary and its lossless encoding) and a
 * series of samples (its summary and every sample).  See
 * doc/httperf-result.schema.json for the fields.
 */
#ifndef HTTPERF_STAT_STAT_JSON_H
#define HTTPERF_STAT_STAT_JSON_H

#include "stat/series.h"

struct hdr;
struct jsonw;

/*
 * Writes a histogram as an object: count, min, max, mean, stddev and the
 * percentiles p50..p99.99 in ns, the values clamped to the highest
 * trackable one, the settings, and HdrHistogram's compressed V2 encoding
 * in base64.  Returns 0, or -1 when the encoding fails (no memory).
 */
int	stat_json_hdr(struct jsonw *w, const struct hdr *h);

/*
 * Writes a series as an object: samples, min, avg, max, stddev as the
 * report prints them, sum and sum2, and every sample in `values'.
 * `avg' is the value the report prints as the average.
 */
void	stat_json_series(struct jsonw *w, const struct basic_series *s,
	    const struct stat_samples *l, double avg);

#endif
