/*
 * --sweep's output (sweep_out.h): the table, the capacity line, the
 * "sweep" member of the result document, the --sweep-tsv rows.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "report/result.h"
#include "report/slo_doc.h"
#include "report/sweep_out.h"
#include "stat/basic.h"
#include "stat/basic_report.h"
#include "stat/slo.h"

static const char *const sweep_kind_name[] = {
	[SWEEP_K_PLAN] = "plan",
	[SWEEP_K_PROBE] = "probe",
	[SWEEP_K_REPEAT] = "repeat",
};

static const char *const sweep_verdict_name[] = {
	[SWEEP_V_NONE] = "-",
	[SWEEP_V_PASS] = "PASS",
	[SWEEP_V_FAIL] = "FAIL",
	[SWEEP_V_CLIENT] = "CLIENT",
};

static const char *const sweep_end_name[] = {
	[SWEEP_E_NONE] = "none",
	[SWEEP_E_FOUND] = "found",
	[SWEEP_E_ALL_PASS] = "all-pass",
	[SWEEP_E_FIRST_FAIL] = "first-fail",
	[SWEEP_E_CLIENT] = "client",
};

void
sweep_step_basic(struct sweep_step *st, const struct basic *b)
{
	static const double at[4] = { 50, 90, 99, 99.9 };
	const struct hdr *h = NULL;
	size_t i;

	if (b != NULL) {
		st->reqs = b->t.reqs_sent;
		st->replies = basic_total_replies(&b->t);
		for (i = 0; i < BASIC_ERR_COUNT; i++)
			st->errors += b->t.errors[i];
		h = b->phase[BASIC_PH_REPLY_CORR] != NULL ?
		    b->phase[BASIC_PH_REPLY_CORR] : b->phase[BASIC_PH_REPLY];
	}
	for (i = 0; i < 4; i++)
		st->pct[i] = h != NULL && hdr_count(h) > 0 ?
		    (double)hdr_value_at_percentile(h, at[i]) : NAN;
}

enum sweep_verdict
sweep_step_verdict(struct sweep_step *st, const struct slo *o, size_t n)
{
	struct jv *doc;
	size_t i;
	int fail = 0;

	doc = st->doc != NULL ? jv_parse(st->doc, st->doclen, NULL, 0) :
	    NULL;
	st->measured = xcalloc(n > 0 ? n : 1, sizeof(*st->measured));
	for (i = 0; i < n; i++) {
		st->measured[i] = doc != NULL ? slo_doc_measure(doc, &o[i]) :
		    NAN;
		if (!slo_pass(&o[i], st->measured[i]))
			fail = 1;
	}
	jv_free(doc);
	return fail ? SWEEP_V_FAIL : SWEEP_V_PASS;
}

/* 100 * errors / (replies + errors): the share of the tries that failed. */
static double
sweep_err_pct(const struct sweep_step *st)
{
	double tries = (double)(st->replies + st->errors);

	return tries > 0 ? 100 * (double)st->errors / tries : 0.0;
}

/* One row of the table. */
static void
sweep_row(FILE *out, size_t n, const struct sweep_step *st)
{
	double d = st->secs > 0 ? st->secs : NAN;
	size_t i;

	fprintf(out, "%4zu %-6s %9.1f %8" PRIu64 " %9.1f %8" PRIu64
	    " %9.1f", n, sweep_kind_name[st->kind], st->level, st->reqs,
	    (double)st->reqs / d, st->replies, (double)st->replies / d);
	for (i = 0; i < 4; i++)
		fprintf(out, " %9.3f", st->pct[i] / 1e6);
	fprintf(out, " %7.2f %s\n", sweep_err_pct(st),
	    sweep_verdict_name[st->verdict]);
}

/* The objectives, comma-separated. */
static void
sweep_objs(FILE *out, const struct sweep_out *s)
{
	size_t i;

	for (i = 0; i < s->nslo; i++)
		fprintf(out, "%s%s", i > 0 ? ", " : "", s->slo[i].text);
}

/* The capacity line, last. */
static void
sweep_capacity(FILE *out, const struct sweep_out *s)
{
	const struct sweep_capacity *c = &s->cap;

	if (s->cut) {
		fprintf(out, "Capacity: - %s (cut: the test stopped before "
		    "the sweep ended)\n", s->unit);
		return;
	}
	fputs("Capacity: ", out);
	if (c->capacity > 0)
		fprintf(out, "%.1f", c->capacity);
	else
		putc('-', out);
	fprintf(out, " %s (%s: ", s->unit, sweep_end_name[c->end]);
	switch (c->end) {
	case SWEEP_E_NONE:
		fputs("no objectives", out);
		break;
	case SWEEP_E_FOUND:
		sweep_objs(out, s);
		fprintf(out, "; the next level %.1f failed; ", c->fail);
		if (s->fixed)
			fputs("a fixed plan: no search", out);
		else
			fprintf(out, "repeated %d: %s", c->repeated,
			    c->agree ? "agree" : "disagree");
		break;
	case SWEEP_E_ALL_PASS:
		fputs("every planned level met ", out);
		sweep_objs(out, s);
		break;
	case SWEEP_E_FIRST_FAIL:
		fprintf(out, "the first level %.1f failed ", s->spec_from);
		sweep_objs(out, s);
		break;
	case SWEEP_E_CLIENT:
		fprintf(out, "the client was the bottleneck at %.1f",
		    c->client_level);
		break;
	}
	fputs(")\n", out);
}

void
sweep_out_print(FILE *out, const struct sweep_out *s)
{
	size_t i;

	fprintf(out, "\nSweep %s: %zu steps of %.3f s (warm-up %.3f s)\n",
	    s->spec, s->nsteps, s->step_time, s->warmup);
	fprintf(out, "Step kind     offered requests     req/s  replies "
	    "  reply/s   p50[ms]   p90[ms]   p99[ms] p99.9[ms] errors%% "
	    "verdict\n");
	for (i = 0; i < s->nsteps; i++)
		sweep_row(out, i + 1, &s->steps[i]);
	sweep_capacity(out, s);
}

/* A level, or null for 0 (none). */
static void
sweep_klevel(struct jsonw *w, const char *k, double v)
{
	jsonw_key(w, k);
	if (v > 0)
		jsonw_double(w, v);
	else
		jsonw_null(w);
}

/* One step of "steps": its figures, and its whole result document. */
static void
sweep_step_json(struct jsonw *w, size_t n, const struct sweep_step *st)
{
	struct jv *doc;

	jsonw_obj_begin(w);
	jsonw_ku64(w, "index", n);
	jsonw_kstr(w, "kind", sweep_kind_name[st->kind]);
	jsonw_kdouble(w, "level", st->level);
	jsonw_kstr(w, "verdict", sweep_verdict_name[st->verdict]);
	jsonw_kbool(w, "client_limited", st->client);
	jsonw_key(w, "result");
	doc = st->doc != NULL ? jv_parse(st->doc, st->doclen, NULL, 0) :
	    NULL;
	if (doc != NULL)
		result_copy(w, doc);
	else
		jsonw_null(w);
	jv_free(doc);
	jsonw_obj_end(w);
}

void
sweep_out_json(struct jsonw *w, const struct sweep_out *s)
{
	size_t i;

	jsonw_key(w, "sweep");
	jsonw_obj_begin(w);
	jsonw_kstr(w, "spec", s->spec);
	jsonw_kdouble(w, "step_time_s", s->step_time);
	jsonw_kdouble(w, "warmup_s", s->warmup);
	jsonw_kdouble(w, "precision_pct", s->precision);
	jsonw_kstr(w, "param", s->param);
	jsonw_kstr(w, "unit", s->unit);
	jsonw_kbool(w, "fixed", s->fixed);
	jsonw_key(w, "steps");
	jsonw_arr_begin(w);
	for (i = 0; i < s->nsteps; i++)
		sweep_step_json(w, i + 1, &s->steps[i]);
	jsonw_arr_end(w);
	jsonw_key(w, "capacity");
	jsonw_obj_begin(w);
	jsonw_kstr(w, "end", s->cut ? "cut" : sweep_end_name[s->cap.end]);
	sweep_klevel(w, "capacity", s->cap.capacity);
	sweep_klevel(w, "fail", s->cap.fail);
	jsonw_ku64(w, "repeated", (uint64_t)s->cap.repeated);
	jsonw_kbool(w, "agree", s->cap.agree);
	jsonw_obj_end(w);
	jsonw_obj_end(w);
}

int
sweep_out_tsv(FILE *f, const char *host, const struct sweep_out *s)
{
	size_t i;
	int rv = sweep_tsv_header(f, host);

	for (i = 0; i < s->nsteps; i++)
		if (sweep_tsv_row(f, &s->steps[i].tsv) == -1)
			rv = -1;
	return rv;
}

int
sweep_out_status(const struct sweep_out *s)
{
	switch (s->cap.end) {
	case SWEEP_E_CLIENT:
		return 3;
	case SWEEP_E_FIRST_FAIL:
		return 4;
	default:
		return 0;
	}
}
