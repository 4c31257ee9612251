/*
 * Shared pieces of the --json document (see stat_json.h).
 */
#include "config.h"

#include <stdlib.h>

#include "lib/hdr.h"
#include "lib/jsonw.h"
#include "stat/series.h"
#include "stat/stat_json.h"

int
stat_json_hdr(struct jsonw *w, const struct hdr *h)
{
	char *enc;
	size_t len, i;
	int empty = hdr_count(h) == 0;

	if (hdr_encode(h, &enc, &len) != 0)
		return -1;
	jsonw_obj_begin(w);
	jsonw_ku64(w, "count", hdr_count(h));
	jsonw_ku64(w, "min_ns", hdr_min(h));
	jsonw_ku64(w, "max_ns", hdr_max(h));
	jsonw_kdouble(w, "mean_ns", hdr_mean(h));
	jsonw_kdouble(w, "stddev_ns", hdr_stddev(h));
	jsonw_key(w, "percentiles_ns");
	jsonw_obj_begin(w);
	for (i = 0; i < STAT_NPCT; i++)
		jsonw_ku64(w, stat_pct_name[i], empty ? 0 :
		    hdr_value_at_percentile(h, stat_pct[i]));
	jsonw_obj_end(w);
	jsonw_ku64(w, "clamped", hdr_clamped(h));
	jsonw_ku64(w, "lowest_ns", (uint64_t)hdr_lowest(h));
	jsonw_ku64(w, "highest_ns", (uint64_t)hdr_highest(h));
	jsonw_ku64(w, "digits", (uint64_t)hdr_digits(h));
	jsonw_key(w, "hdr");
	jsonw_strn(w, enc, len);
	jsonw_obj_end(w);
	free(enc);
	return 0;
}

void
stat_json_series(struct jsonw *w, const struct basic_series *s,
    const struct stat_samples *l, double avg)
{
	size_t i;

	jsonw_obj_begin(w);
	jsonw_ku64(w, "samples", s->n);
	jsonw_kdouble(w, "min", s->n > 0 ? s->min : 0.0);
	jsonw_kdouble(w, "avg", avg);
	jsonw_kdouble(w, "max", s->n > 0 ? s->max : 0.0);
	jsonw_kdouble(w, "stddev", basic_stddev(s->n, s->sum, s->sum2));
	jsonw_kdouble(w, "sum", s->sum);
	jsonw_kdouble(w, "sum2", s->sum2);
	jsonw_key(w, "values");
	jsonw_arr_begin(w);
	for (i = 0; i < l->n; i++)
		jsonw_double(w, l->v[i]);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}
