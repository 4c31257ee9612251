/*
 * --slo-abort: the objectives judged while the test runs, on the
 * interval collector's live counts (stat/interval.c classifies the
 * events; its ended intervals are added up here).  Only what can no
 * longer pass once it has failed is judged early: absolute counts with
 * < or <= and max< / max<= of the reply, corrected and connect times.
 */
#include "config.h"

#include <stdint.h>

#include "lib/hdr.h"
#include "stat/interval.h"
#include "stat/slo.h"

/* The interval histogram of a time objective, or -1. */
static int
slo_live_hist(const struct slo *o)
{
	switch (o->hist) {
	case SLO_H_REPLY:
		return INTERVAL_H_REPLY;
	case SLO_H_CORRECTED:
		return INTERVAL_H_CORRECTED;
	case SLO_H_CONNECT:
		return INTERVAL_H_CONNECT;
	default:
		return -1;
	}
}

int
slo_live_judged(const struct slo *o)
{
	if (o->op != SLO_LT && o->op != SLO_LE)
		return 0;
	switch (o->metric) {
	case SLO_ERRORS:
	case SLO_ERRCLASS:
	case SLO_STATUS:
		return o->unit == SLO_U_COUNT;
	case SLO_HIST:
		return o->stat == SLO_ST_MAX && slo_live_hist(o) >= 0;
	default:
		return 0;
	}
}

void
slo_live_end(struct interval *iv)
{
	uint64_t m;
	size_t i;

	interval_counts_add(&iv->done, &iv->c);
	for (i = 0; i < INTERVAL_NHIST; i++) {
		if (hdr_count(iv->h[i]) == 0)
			continue;
		iv->done_n[i] += hdr_count(iv->h[i]);
		if ((m = hdr_max(iv->h[i])) > iv->done_max[i])
			iv->done_max[i] = m;
	}
}

/* The live measure of a judged objective (a count or ns); -1: none yet. */
static double
slo_live_value(const struct interval *iv, const struct slo *o)
{
	uint64_t m;
	int k;

	switch (o->metric) {
	case SLO_ERRORS:
		return (double)(interval_errors(&iv->done) +
		    interval_errors(&iv->c));
	case SLO_ERRCLASS:
		return (double)(iv->done.errors[o->index] +
		    iv->c.errors[o->index]);
	case SLO_STATUS:
		return (double)(iv->done.replies[o->index + 1] +
		    iv->c.replies[o->index + 1]);
	default:
		k = slo_live_hist(o);
		if (iv->done_n[k] == 0 && hdr_count(iv->h[k]) == 0)
			return -1;
		m = iv->done_max[k];
		if (hdr_count(iv->h[k]) > 0 && hdr_max(iv->h[k]) > m)
			m = hdr_max(iv->h[k]);
		return (double)m;
	}
}

void
slo_live_check(struct interval *iv, uint64_t now)
{
	double v;
	size_t i;

	for (i = 0; i < iv->nslo; i++) {
		if (!slo_live_judged(&iv->slo[i]))
			continue;
		v = slo_live_value(iv, &iv->slo[i]);
		if (v < 0 || slo_pass(&iv->slo[i], v))
			continue;
		iv->aborted = 1;
		iv->abort(iv->abort_arg, now, now > iv->start ?
		    now - iv->start : 0, &iv->slo[i], v);
		return;
	}
}
