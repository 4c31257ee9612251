/*
 * Objectives measured on the result document.  See slo_doc.h; the
 * members read are those doc/httperf-result.schema.json describes.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "report/slo_doc.h"
#include "stat/basic_report.h"
#include "stat/slo.h"

/* stats.basic.histograms' members, by enum slo_hist. */
static const char *const slo_doc_hist[SLO_H_COUNT] = {
	[SLO_H_REPLY] = "reply",
	[SLO_H_CORRECTED] = "reply_corrected",
	[SLO_H_CONNECT] = "connect",
	[SLO_H_TLS] = "tls_handshake",
	[SLO_H_FIRST_BYTE] = "first_byte",
	[SLO_H_TRANSFER] = "transfer",
	[SLO_H_SESSION] = "session",
};

/* The number at `path' under `v', NaN when there is none. */
static double
slo_doc_num(const struct jv *v, const char *path)
{
	double d;

	if ((v = jv_path(v, path)) == NULL || jv_num(v, &d) != 0)
		return NAN;
	return d;
}

/* A histogram's statistic, in ns; NaN when it has no value. */
static double
slo_doc_hist_stat(const struct jv *stats, const struct slo *o)
{
	const struct jv *h, *enc;
	struct hdr *hd;
	const char *s;
	size_t len;
	double d;

	h = jv_get(jv_path(stats, "basic.histograms"), slo_doc_hist[o->hist]);
	if (h == NULL || !(slo_doc_num(h, "count") > 0))
		return NAN;
	if (o->stat == SLO_ST_MAX)
		return slo_doc_num(h, "max_ns");
	if (o->stat == SLO_ST_MEAN)
		return slo_doc_num(h, "mean_ns");
	if ((enc = jv_get(h, "hdr")) == NULL ||
	    (s = jv_str(enc, &len)) == NULL || hdr_decode_ns(s, len, &hd) != 0)
		return NAN;
	d = (double)hdr_value_at_percentile(hd, o->q);
	hdr_free(hd);
	return d;
}

/* The count and its whole of a count objective. */
static double
slo_doc_count(const struct jv *stats, const struct slo *o)
{
	const struct jv *b = jv_get(stats, "basic");
	double replies = slo_doc_num(b, "replies.total");
	double errors = slo_doc_num(b, "errors.total");

	switch (o->metric) {
	case SLO_ERRORS:
		return slo_count_value(o, errors, replies + errors);
	case SLO_ERRCLASS:
		return slo_count_value(o, slo_doc_num(jv_path(b, "errors"),
		    basic_err_name[o->index]), replies + errors);
	case SLO_STATUS:
		return slo_count_value(o, slo_doc_num(jv_path(b,
		    "replies.status"), basic_status_name[o->index]), replies);
	default:
		break;
	}
	if (o->unit == SLO_U_COUNT)
		return slo_doc_num(stats, "sched.late");
	return slo_doc_num(stats, "sched.late_pct");
}

double
slo_doc_measure(const struct jv *doc, const struct slo *o)
{
	const struct jv *stats = jv_get(doc, "stats");

	switch (o->metric) {
	case SLO_HIST:
		return slo_doc_hist_stat(stats, o);
	case SLO_REPLY_RATE:
		return slo_doc_num(stats, "basic.replies.total") /
		    slo_doc_num(doc, "duration_s");
	case SLO_ACHIEVED:
		return slo_doc_num(stats, "sched.rate_pct");
	default:
		return slo_doc_count(stats, o);
	}
}

int
slo_doc_report(const char *prog, FILE *out, html_doc_fn *make, void *arg,
    const struct slo *o, size_t n, double *measured)
{
	char *text = NULL, err[128], line[SLO_LINE_MAX];
	size_t len = 0, i;
	struct jv *doc = NULL;
	FILE *mf;
	int rv = -1;

	if ((mf = open_memstream(&text, &len)) != NULL) {
		rv = make(mf, arg);
		if (fclose(mf) != 0)
			rv = -1;
	}
	if (rv == 0 && (doc = jv_parse(text, len, err, sizeof(err))) == NULL)
		rv = -1;
	free(text);
	if (rv == -1) {
		fprintf(stderr, "%s: --slo: cannot measure the objectives\n",
		    prog);
		return -1;
	}
	for (i = 0; i < n; i++) {
		measured[i] = slo_doc_measure(doc, &o[i]);
		slo_format(line, sizeof(line), &o[i], measured[i]);
		fprintf(out, "%s\n", line);
		rv += !slo_pass(&o[i], measured[i]);
	}
	jv_free(doc);
	return rv;
}
