/*
 * The --html page's capacity section (html_int.h): a --sweep's steps
 * against the rate each offered, drawn from the document's "sweep"
 * member alone (each step's own result document in
 * sweep.steps[].result), so a merged sweep's document draws the same
 * way.  The achieved rates beside the offered one, the reply time
 * percentiles (the knee), the errors, the objectives of --slo as
 * horizontal rules on the plot of their metric, the capacity found as a
 * vertical one, the client-limited steps (CLIENT) as rings; each step's
 * percentile curve; the steps' table, the columns of the text one.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/html_esc.h"
#include "lib/jsonr.h"
#include "report/html_int.h"
#include "report/html_util.h"
#include "report/slo_doc.h"
#include "report/svg.h"
#include "stat/series.h"
#include "stat/slo.h"

/* The reply time percentiles of the table and the knee plot. */
#define SW_NPCT		4
/* The knee plot's y axis is logarithmic when its times span this. */
#define SW_KNEE_LOG	20

/* The rings of the client-limited steps, the rules' colours. */
#define SW_CLIENT_COLOR	"#D55E00"
#define SW_CAP_COLOR	"#000000"
#define SW_SLO_COLOR	"#B2182B"

/* One step, as drawn. */
struct sw_step {
	size_t		 index;		/* 1, 2, ...: the order they ran */
	double		 level;		/* the rate (or N) offered */
	const char	*kind, *verdict;
	int		 client;	/* the client was the bottleneck */
	const struct jv	*res;		/* its result document */
	const struct jv	*hist;		/* its reply time (corrected when
					   there is a schedule) */
	double		 reqs, replies, errors, secs;
	double		 pct[SW_NPCT];	/* ms; NaN: no reply */
};

/* The sweep, its steps by level. */
struct sw {
	const struct jv	*sweep;
	struct sw_step	*st;
	size_t		 n;
	size_t		 total;		/* the steps, with or without level */
	const char	*unit;		/* the level's: "req/s"... */
	char		*xlabel;	/* "offered [req/s]" */
	enum svg_xkind	 xkind;
	int		 corrected;	/* the reply times drawn are the
					   corrected ones */
	double		 demand;	/* requests a level's unit asks for
					   (0: not a rate of requests) */
	double		 cap;		/* the capacity found; 0: none */
	struct slo	*slo;		/* the objectives (nslo) */
	size_t		 nslo;
	const struct jv	*objs;		/* their expressions: options.slo, */
	int		 judged;	/* or a step's stats.slo[] */
};

/* The number at path, or NaN. */
static double
sw_num(const struct jv *v, const char *path)
{
	double d;

	return html_num(v, path, &d) == 0 && isfinite(d) ? d : NAN;
}

/* Step i of sweep.steps, js, into s. */
static void
sw_step_get(struct sw_step *s, const struct jv *js, size_t i)
{
	const struct jv *hs, *ps;
	double d;
	size_t k;
	int b;

	memset(s, 0, sizeof(*s));
	s->index = i + 1;
	s->level = sw_num(js, "level");
	s->kind = html_str(js, "kind");
	s->verdict = html_str(js, "verdict");
	s->client = jv_bool(jv_get(js, "client_limited"), &b) == 0 && b;
	s->res = jv_get(js, "result");
	hs = jv_path(s->res, "stats.basic.histograms");
	s->hist = jv_type(jv_get(hs, "reply_corrected")) == JV_OBJ ?
	    jv_get(hs, "reply_corrected") : jv_get(hs, "reply");
	s->reqs = sw_num(s->res, "stats.basic.requests.total");
	s->replies = sw_num(s->res, "stats.basic.replies.total");
	s->errors = sw_num(s->res, "stats.basic.errors.total");
	s->secs = sw_num(s->res, "duration_s");
	ps = jv_get(s->hist, "percentiles_ns");
	for (k = 0; k < SW_NPCT; k++)
		/* jv_get: "p99.9" has a dot. */
		s->pct[k] = html_hist_count(s->hist) > 0 &&
		    jv_num(jv_get(ps, stat_pct_name[k]), &d) == 0 ? d / 1e6 :
		    NAN;
}

/* By level, then in the order they ran. */
static int
sw_cmp(const void *a, const void *b)
{
	const struct sw_step *x = a, *y = b;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The level's unit, from the options (as the text table's), and the
   requests one unit of it asks for. */
static const char *
sw_unit(const struct jv *doc, double *demand)
{
	const struct jv *o = jv_get(doc, "options"), *cr;
	double d;

	*demand = 1;
	cr = jv_get(o, "call-rate");
	if (html_num(o, "concurrency", &d) == 0 && d > 0) {
		*demand = 0;
		return "conc";
	}
	if ((jv_type(cr) == JV_STR && strcmp(jv_str(cr, NULL), "0") != 0) ||
	    (jv_num(cr, &d) == 0 && d > 0))
		return "req/s";
	if (jv_type(jv_get(o, "wsess")) == JV_OBJ) {
		*demand = html_num(o, "wsess.N2", &d) == 0 && d > 0 ? d : 0;
		return "sess/s";
	}
	/* A session file's or a page view's requests are not one figure. */
	if (jv_type(jv_get(o, "wsesslog")) == JV_OBJ ||
	    jv_type(jv_get(o, "wsesspage")) == JV_OBJ) {
		*demand = 0;
		return "sess/s";
	}
	if (html_num(o, "num-calls", &d) == 0 && d > 1)
		*demand = d;
	return "conn/s";
}

/*
 * The expression of objective i: options.slo's, or, in a merged
 * document (whose options are the files' and whose objectives are
 * --merge's), the one each step was judged by.
 */
static const char *
sw_objective_at(const struct jv *a, size_t i, int judged)
{
	const struct jv *v = jv_at(a, i);

	return jv_str(judged ? jv_get(v, "objective") : v, NULL);
}

/* The objectives of options.slo (or judged) that parse (a newer one may not). */
static void
sw_objectives(struct html_ctx *c, struct sw *w)
{
	const struct jv *a = jv_path(c->doc, "options.slo");
	char err[SLO_ERR_MAX];
	const char *t;
	size_t i;

	if (jv_len(a) == 0) {
		a = jv_path(jv_at(jv_get(w->sweep, "steps"), 0),
		    "result.stats.slo");
		w->judged = 1;
	}
	w->objs = a;
	if (jv_len(a) == 0 || (w->slo = calloc(jv_len(a),
	    sizeof(*w->slo))) == NULL) {
		c->oom |= jv_len(a) > 0;
		return;
	}
	for (i = 0; i < jv_len(a); i++)
		if ((t = sw_objective_at(a, i, w->judged)) != NULL &&
		    slo_parse(t, &w->slo[w->nslo], err, sizeof(err)) == 0)
			w->nslo++;
}

/* The sweep of the document into w; -1 when there is none to draw. */
static int
sw_load(struct html_ctx *c, struct sw *w)
{
	const struct jv *steps, *js;
	const char *spec;
	size_t i;

	memset(w, 0, sizeof(*w));
	if (jv_type(w->sweep = jv_get(c->doc, "sweep")) != JV_OBJ)
		return -1;
	steps = jv_get(w->sweep, "steps");
	if (jv_len(steps) > 0 && (w->st = calloc(jv_len(steps),
	    sizeof(*w->st))) == NULL) {
		c->oom = 1;
		return -1;
	}
	w->total = jv_len(steps);
	for (i = 0; i < w->total; i++) {
		js = jv_at(steps, i);
		sw_step_get(&w->st[w->n], js, i);
		/* A step without a level has no place on the plots. */
		if (!(w->st[w->n].level > 0))
			continue;
		if (jv_type(jv_path(w->st[w->n].res,
		    "stats.basic.histograms.reply_corrected")) == JV_OBJ)
			w->corrected = 1;
		w->n++;
	}
	if (w->n > 0)
		qsort(w->st, w->n, sizeof(*w->st), sw_cmp);
	w->unit = sw_unit(c->doc, &w->demand);
	if ((w->xlabel = html_fmtdup(strcmp(w->unit, "conc") == 0 ?
	    "concurrency [connections]" : "offered [%s]", w->unit)) == NULL)
		c->oom = 1;
	/* A geometric sweep (FROM:TO*FACTOR) on a log axis. */
	spec = html_str(w->sweep, "spec");
	w->xkind = spec != NULL && strchr(spec, '*') != NULL ?
	    SVG_X_RATE_LOG : SVG_X_RATE;
	if (!(html_num(w->sweep, "capacity.capacity", &w->cap) == 0 &&
	    w->cap > 0 && isfinite(w->cap)))
		w->cap = 0;
	sw_objectives(c, w);
	return 0;
}

static void
sw_free(struct sw *w)
{
	free(w->st);
	free(w->xlabel);
	free(w->slo);
}

/* A plot against the offered rate, with the capacity's rule. */
static void
sw_plot_init(struct html_ctx *c, const struct sw *w, struct svg_plot *pl,
    const char *id, const char *title, const char *ylabel)
{
	struct svg_style st = html_style_n(6, SVG_DASHED, 1.6);

	svg_plot_init(pl, id, title, ylabel, w->xkind);
	pl->xlabel = w->xlabel;
	if (w->cap > 0 && svg_plot_rule(pl, "capacity",
	    html_fmtdup("capacity %.1f %s", w->cap, w->unit), w->cap, 1,
	    &st) != 0)
		c->oom = 1;
}

/* What a series of the steps shows. */
enum swv { SW_REQ_RATE, SW_REPLY_RATE, SW_OFFERED, SW_P50, SW_P90, SW_P99,
	SW_P999, SW_ERR_PCT, SW_SLO };

/* Step s's value `v' (SW_SLO: objective o's measure, a time in ms), or
   NaN. */
static double
sw_value(const struct sw *w, const struct sw_step *s, enum swv v,
    const struct slo *o)
{
	double tries;

	switch (v) {
	case SW_SLO:
		return slo_doc_measure(s->res, o) /
		    (o->unit == SLO_U_NS ? 1e6 : 1);
	case SW_REQ_RATE:
		return s->secs > 0 ? s->reqs / s->secs : NAN;
	case SW_REPLY_RATE:
		return s->secs > 0 ? s->replies / s->secs : NAN;
	case SW_OFFERED:
		return s->level * w->demand;
	case SW_ERR_PCT:
		tries = s->replies + s->errors;
		return tries > 0 ? 100 * s->errors / tries :
		    isnan(tries) ? NAN : 0;
	default:
		return s->pct[v - SW_P50];
	}
}

/*
 * A series of the steps' value v (of objective o for SW_SLO; the
 * client-limited ones only, as rings, when `client'); dropped when no
 * step has it.
 */
static void
sw_series(struct html_ctx *c, const struct sw *w, struct svg_plot *pl,
    enum swv v, const struct slo *o, int client, char *name,
    const struct svg_style *st)
{
	struct svg_series *s;
	double y;
	size_t i;

	if ((s = html_plot_add(c, pl, name, w->n, st)) == NULL)
		return;
	s->marks = client;
	for (i = 0; i < w->n; i++) {
		if (client && !w->st[i].client)
			continue;
		y = sw_value(w, &w->st[i], v, o);
		if (!isfinite(y) || y < 0)
			continue;
		s->x[s->n] = w->st[i].level;
		s->y[s->n++] = y;
	}
	if (s->n == 0)
		svg_plot_drop_last(pl);
}

/* The rings of the client-limited steps on value v. */
static void
sw_client_marks(struct html_ctx *c, const struct sw *w, struct svg_plot *pl,
    enum swv v)
{
	struct svg_style st = { SW_CLIENT_COLOR, SVG_SOLID, 1.8, 1 };

	sw_series(c, w, pl, v, NULL, 1,
	    html_fmtdup("client-limited (CLIENT)"), &st);
}

/*
 * Does objective o belong on plot `id' (its unit's), and where?  A
 * time on the reply time plot, a percentage of calls on the errors
 * plot, the reply rate on the rates plot.
 */
static int
sw_slo_at(const struct slo *o, const char *id, double *at)
{
	if (strcmp(id, "sw-latency") == 0 && o->metric == SLO_HIST) {
		*at = o->value / 1e6;
		return 1;
	}
	if (strcmp(id, "sw-errors") == 0 && o->unit == SLO_U_PCT &&
	    o->metric != SLO_ACHIEVED) {
		*at = o->value;
		return 1;
	}
	if (strcmp(id, "sw-rate") == 0 && o->metric == SLO_REPLY_RATE) {
		*at = o->value;
		return 1;
	}
	return 0;
}

/*
 * Is objective o's measure a series the plot has already (the drawn
 * reply time's p50, p90, p99 or p99.9, the errors, the reply rate)?
 */
static int
sw_slo_drawn(const struct sw *w, const struct slo *o)
{
	static const double q[] = { 50, 90, 99, 99.9 };
	size_t k;

	if (o->metric == SLO_ERRORS || o->metric == SLO_REPLY_RATE)
		return 1;
	if (o->metric != SLO_HIST || o->stat != SLO_ST_PCT ||
	    o->hist != (w->corrected ? SLO_H_CORRECTED : SLO_H_REPLY))
		return 0;
	for (k = 0; k < sizeof(q) / sizeof(q[0]); k++)
		if (o->q == q[k])
			return 1;
	return 0;
}

/*
 * The objectives of the plot's unit: each a horizontal rule at its
 * threshold, and its measure a series when the plot has none of it
 * ("connect.p99", "5xx").
 */
static void
sw_slo_rules(struct html_ctx *c, const struct sw *w, struct svg_plot *pl)
{
	struct svg_style st = { SW_SLO_COLOR, SVG_DASHED, 1.6, 1 }, ms;
	const struct slo *o;
	double at;
	size_t i;

	for (i = 0; i < w->nslo; i++) {
		if (!sw_slo_at(o = &w->slo[i], pl->id, &at))
			continue;
		if (!sw_slo_drawn(w, o)) {
			ms = html_style_n(5 + i, SVG_DOTTED, 2);
			sw_series(c, w, pl, SW_SLO, o, 0, html_fmtdup("%.*s",
			    (int)strcspn(o->text, "<>"), o->text), &ms);
		}
		if (svg_plot_rule(pl, "objective", html_fmtdup("objective %s",
		    o->text), at, 0, &st) != 0)
			c->oom = 1;
	}
}

/* Writes the plot and frees it. */
static void
sw_plot_end(struct html_ctx *c, struct svg_plot *pl, const char *none)
{
	if (pl->ns == 0)
		pl->note = none;
	svg_plot_write(c->f, pl);
	svg_plot_free(pl);
}

static void
sw_plot_rate(struct html_ctx *c, const struct sw *w)
{
	struct svg_plot pl;
	struct svg_style st;

	sw_plot_init(c, w, &pl, "sw-rate", "Achieved against offered",
	    "per second");
	if (w->demand > 0) {
		st = html_style_n(2, SVG_DOTTED, 1.6);
		sw_series(c, w, &pl, SW_OFFERED, NULL, 0,
		    html_fmtdup("offered (y = x%s)", w->demand != 1 ?
		    ", in requests" : ""), &st);
	}
	st = html_style_n(0, SVG_SOLID, 2.2);
	sw_series(c, w, &pl, SW_REQ_RATE, NULL, 0, html_fmtdup("requests/s"),
	    &st);
	st = html_style_n(4, SVG_DASHED, 2);
	sw_series(c, w, &pl, SW_REPLY_RATE, NULL, 0, html_fmtdup("replies/s"),
	    &st);
	sw_client_marks(c, w, &pl, SW_REQ_RATE);
	sw_slo_rules(c, w, &pl);
	sw_plot_end(c, &pl, "no steps");
}

/* The highest point of the plot's series over the lowest positive. */
static double
sw_span(const struct svg_plot *pl)
{
	double lo = 0, hi = 0, y;
	size_t i, j;

	for (i = 0; i < pl->ns; i++)
		for (j = 0; j < pl->s[i].n; j++) {
			y = pl->s[i].y[j];
			if (y > 0 && (lo == 0 || y < lo))
				lo = y;
			if (y > hi)
				hi = y;
		}
	return lo > 0 ? hi / lo : 0;
}

static void
sw_plot_latency(struct html_ctx *c, const struct sw *w)
{
	static const enum svg_dash dash[SW_NPCT] = { SVG_SOLID, SVG_SOLID,
		SVG_SOLID, SVG_DASHED };
	struct svg_plot pl;
	struct svg_style st;
	size_t k;

	sw_plot_init(c, w, &pl, "sw-latency", "Reply time percentiles "
	    "against offered", "ms");
	pl.maybe_ylog = 1;
	for (k = 0; k < SW_NPCT; k++) {
		st = html_style_n(k, dash[k], 2);
		sw_series(c, w, &pl, (enum swv)(SW_P50 + k), NULL, 0,
		    html_fmtdup("%s%s", stat_pct_name[k], w->corrected ?
		    " (corrected)" : ""), &st);
	}
	sw_slo_rules(c, w, &pl);
	/* The knee on a log axis when the times span a factor of
	   SW_KNEE_LOG (the engine's own rule looks at the tops only). */
	pl.ylog = sw_span(&pl) >= SW_KNEE_LOG;
	sw_client_marks(c, w, &pl, SW_P99);
	sw_plot_end(c, &pl, "no replies");
}

static void
sw_plot_errors(struct html_ctx *c, const struct sw *w)
{
	struct svg_plot pl;
	struct svg_style st = html_style_n(1, SVG_SOLID, 2.2);

	sw_plot_init(c, w, &pl, "sw-errors", "Errors against offered", "%");
	sw_series(c, w, &pl, SW_ERR_PCT, NULL, 0, html_fmtdup("errors %%"),
	    &st);
	sw_client_marks(c, w, &pl, SW_ERR_PCT);
	sw_slo_rules(c, w, &pl);
	sw_plot_end(c, &pl, "no steps");
}

/* Each step's reply time by percentile, a curve a step (dashed: the
   client was the limit). */
static void
sw_plot_pct(struct html_ctx *c, const struct sw *w)
{
	struct svg_plot pl;
	struct svg_style st;
	uint64_t m = 0;
	size_t i;

	svg_plot_init(&pl, "sw-pct", "Reply time by percentile, each step",
	    "ms", SVG_X_PCT);
	for (i = 0; i < w->n; i++)
		if (html_hist_count(w->st[i].hist) > m)
			m = html_hist_count(w->st[i].hist);
	pl.decades = html_pct_decades(m);
	pl.maybe_ylog = 1;
	for (i = 0; i < w->n; i++) {
		st = html_style_n(i, w->st[i].client ? SVG_DASHED : SVG_SOLID,
		    1.6);
		html_pct_series(c, &pl, w->st[i].hist, html_fmtdup("step %zu: "
		    "%.1f %s %s", w->st[i].index, w->st[i].level, w->unit,
		    w->st[i].verdict != NULL ? w->st[i].verdict : "-"), &st);
	}
	sw_plot_end(c, &pl, "no replies");
}

/* A number of the table with dec decimals, or "n/a". */
static void
sw_cell(FILE *f, double v, int dec)
{
	if (isfinite(v))
		fprintf(f, "<td class=\"n\">%.*f</td>", dec, v);
	else
		fputs("<td class=\"n\">n/a</td>", f);
}

/* A row of the table: step s. */
static void
sw_row(FILE *f, const struct sw *w, const struct sw_step *s)
{
	size_t k;

	fprintf(f, "<tr%s><td class=\"n\">%zu</td><td>", s->client ?
	    " class=\"client\" style=\"color:" SW_CLIENT_COLOR "\"" : "",
	    s->index);
	html_escape(f, s->kind != NULL ? s->kind : "n/a");
	fputs("</td>", f);
	sw_cell(f, s->level, 1);
	sw_cell(f, s->reqs, 0);
	sw_cell(f, sw_value(w, s, SW_REQ_RATE, NULL), 1);
	sw_cell(f, s->replies, 0);
	sw_cell(f, sw_value(w, s, SW_REPLY_RATE, NULL), 1);
	for (k = 0; k < SW_NPCT; k++)
		sw_cell(f, s->pct[k], 3);
	sw_cell(f, sw_value(w, s, SW_ERR_PCT, NULL), 2);
	fputs("<td>", f);
	html_escape(f, s->verdict != NULL ? s->verdict : "n/a");
	fputs("</td></tr>\n", f);
}

/* The steps in the order they ran, the text table's columns. */
static void
sw_table(struct html_ctx *c, const struct sw *w)
{
	static const char *const head[] = { "Step", "kind", "offered",
		"requests", "req/s", "replies", "reply/s", "p50[ms]",
		"p90[ms]", "p99[ms]", "p99.9[ms]", "errors%", "verdict" };
	FILE *f = c->f;
	const struct sw_step **run = NULL;
	size_t i, k;

	/* Each step at its place in the order they ran (index 1..total). */
	if (w->total > 0 && (run = calloc(w->total, sizeof(*run))) == NULL) {
		c->oom = 1;
		return;
	}
	for (i = 0; i < w->n; i++)
		run[w->st[i].index - 1] = &w->st[i];
	fputs("<div class=\"wrap\" style=\"margin-top:18px\">"
	    "<table class=\"steps\" id=\"steps\">\n<thead><tr>", f);
	for (k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		fprintf(f, "<th%s>%s</th>", k == 1 || k == 12 ? "" :
		    " class=\"n\"", head[k]);
	fputs("</tr></thead>\n<tbody>\n", f);
	for (i = 0; i < w->total; i++)
		if (run[i] != NULL)
			sw_row(f, w, run[i]);
	fputs("</tbody>\n</table></div>\n", f);
	free(run);
}

/* The objectives, comma-separated, as the capacity line has them. */
static void
sw_put_objs(FILE *f, const struct sw *w)
{
	const char *t;
	size_t i;

	for (i = 0; i < jv_len(w->objs); i++) {
		fputs(i > 0 ? ", " : "", f);
		t = sw_objective_at(w->objs, i, w->judged);
		html_escape(f, t != NULL ? t : "n/a");
	}
}

/*
 * The level of the step that ran first (a merge's is the sum of the
 * files'), or with `client', of the first client-limited one; or NaN.
 */
static double
sw_first_level(const struct sw *w, int client)
{
	size_t i, best = 0;

	for (i = 0; i < w->n; i++)
		if ((!client || w->st[i].client) && (best == 0 ||
		    w->st[i].index < w->st[best - 1].index))
			best = i + 1;
	return best > 0 ? w->st[best - 1].level : NAN;
}

/* A level as the capacity line has it, or "n/a". */
static void
sw_put_level(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.1f", v);
	else
		fputs("n/a", f);
}

/* The capacity line of the text report, from the document. */
static void
sw_capacity(struct html_ctx *c, const struct sw *w)
{
	FILE *f = c->f;
	const struct jv *cap = jv_get(w->sweep, "capacity");
	const char *end = html_str(cap, "end");
	int b;

	fputs("<p class=\"capacity\" id=\"capacity\">Capacity: <strong>", f);
	if (w->cap > 0)
		fprintf(f, "%.1f", w->cap);
	else
		fputc('-', f);
	fprintf(f, " %s</strong> (", w->unit);
	html_escape(f, end != NULL ? end : "n/a");
	if (end == NULL || strcmp(end, "cut") == 0)
		fputs(": the test stopped before the sweep ended", f);
	else if (strcmp(end, "none") == 0)
		fputs(": no objectives", f);
	else if (strcmp(end, "found") == 0) {
		fputs(": ", f);
		sw_put_objs(f, w);
		fputs("; the next level ", f);
		html_put_num(f, cap, "fail", 1, "", 1);
		if (jv_bool(jv_get(w->sweep, "fixed"), &b) == 0 && b) {
			fputs(" failed; a fixed plan: no search", f);
		} else {
			fputs(" failed; repeated ", f);
			html_put_num(f, cap, "repeated", 0, "", 1);
			fprintf(f, ": %s", jv_bool(jv_get(cap, "agree"),
			    &b) == 0 && !b ? "disagree" : "agree");
		}
	} else if (strcmp(end, "all-pass") == 0) {
		fputs(": every planned level met ", f);
		sw_put_objs(f, w);
	} else if (strcmp(end, "first-fail") == 0) {
		fputs(": the first level ", f);
		sw_put_level(f, sw_first_level(w, 0));
		fputs(" failed ", f);
		sw_put_objs(f, w);
	} else if (strcmp(end, "client") == 0) {
		fputs(": the client was the bottleneck at ", f);
		sw_put_level(f, sw_first_level(w, 1));
	}
	fputs(")</p>\n", f);
}

/* The objectives no plot of the section shows, in a note. */
static void
sw_undrawn(struct html_ctx *c, const struct sw *w)
{
	static const char *const ids[] = { "sw-rate", "sw-latency",
		"sw-errors" };
	const char *sep = "";
	double at;
	size_t i, k;

	for (i = 0; i < w->nslo; i++) {
		for (k = 0; k < 3; k++)
			if (sw_slo_at(&w->slo[i], ids[k], &at))
				break;
		if (k < 3)
			continue;
		fputs(*sep == '\0' ? "<p class=\"note\" id=\"slo-undrawn\">"
		    "Objectives no plot here shows (the steps' table has "
		    "their verdict): " : sep, c->f);
		html_escape(c->f, w->slo[i].text);
		sep = ", ";
	}
	if (*sep != '\0')
		fputs(".</p>\n", c->f);
}

void
html_sweep(struct html_ctx *c)
{
	struct sw w;
	FILE *f = c->f;

	if (sw_load(c, &w) != 0)
		return;
	fputs("<section>\n<h2 id=\"capacity-section\">Capacity <span "
	    "class=\"dim\">(--sweep ", f);
	html_put_str(f, w.sweep, "spec");
	fprintf(f, ": %zu steps of ", w.total);
	html_put_num(f, w.sweep, "step_time_s", 3, " s", 1);
	fputs(")</span></h2>\n", f);
	sw_capacity(c, &w);
	sw_undrawn(c, &w);
	fputs("<div class=\"grid\">\n", f);
	sw_plot_rate(c, &w);
	sw_plot_latency(c, &w);
	sw_plot_errors(c, &w);
	sw_plot_pct(c, &w);
	fputs("</div>\n", f);
	sw_table(c, &w);
	fputs("</section>\n", f);
	sw_free(&w);
}
