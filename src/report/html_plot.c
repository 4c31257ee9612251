/*
 * The --html page's plots (html_int.h), drawn from the result document
 * by the SVG engine (svg.h): the reply time and the phases by
 * percentile, the per-interval series, the lateness; in a merge, each
 * client's series beside the totals.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "report/html.h"
#include "report/html_int.h"
#include "report/html_util.h"
#include "report/svg.h"
#include "stat/basic.h"

/* Beyond this many clients their series are thin grey lines, one legend
   entry for all of them. */
#define HTML_LEGEND_CLIENTS	8

/* Okabe-Ito: told apart with the common colour-vision deficiencies. */
static const char *const palette[] = {
	"#0072B2",	/* blue */
	"#D55E00",	/* vermillion */
	"#009E73",	/* bluish green */
	"#CC79A7",	/* reddish purple */
	"#E69F00",	/* orange */
	"#56B4E9",	/* sky blue */
	"#000000",	/* black */
};
#define NPALETTE	(sizeof(palette) / sizeof(palette[0]))
/* Clients' thin lines: the colours the totals (black, vermillion, green)
   leave, then again dotted. */
static const char *const client_palette[] = {
	"#56B4E9",	/* sky blue */
	"#E69F00",	/* orange */
	"#CC79A7",	/* reddish purple */
	"#0072B2",	/* blue */
};
#define NCLIENT_PALETTE	(sizeof(client_palette) / sizeof(client_palette[0]))
#define GREY		"#9a9a9a"

/* svg_plot_add(), its failure counted in c->oom. */
struct svg_series *
html_plot_add(struct html_ctx *c, struct svg_plot *pl, char *name,
    size_t npts, const struct svg_style *st)
{
	struct svg_series *s = svg_plot_add(pl, name, npts, st);

	if (s == NULL)
		c->oom = 1;
	return s;
}

/* The style of series i of a plot's own kinds (not per client). */
struct svg_style
html_style_n(size_t i, enum svg_dash d, double width)
{
	struct svg_style st;

	st.color = palette[i % NPALETTE];
	st.dash = d;
	st.width = width;
	st.legend = 1;
	return st;
}

/* Client i's thin line: its own colour, or grey beyond the legend's. */
static struct svg_style
style_client(const struct html_ctx *c, size_t i)
{
	struct svg_style st;

	st.dash = SVG_SOLID;
	st.width = 1.4;
	if (c->ncl > HTML_LEGEND_CLIENTS) {
		st.color = GREY;
		st.width = 1;
		st.legend = 0;
	} else {
		st.color = client_palette[i % NCLIENT_PALETTE];
		if (i >= NCLIENT_PALETTE)
			st.dash = SVG_DOTTED;
		st.legend = 1;
	}
	return st;
}

/*
 * A client's thin line of a plot of several kinds (status classes,
 * phases): the colour of its kind, `kind', or grey beyond the legend's
 * clients; never in the legend itself (N clients times the kinds would
 * drown it), plot_kinds_legend() explains them.
 */
static struct svg_style
style_client_kind(const struct html_ctx *c, const struct svg_style *kind)
{
	struct svg_style st;

	st.color = c->ncl > HTML_LEGEND_CLIENTS ? GREY : kind->color;
	st.dash = SVG_SOLID;
	st.width = c->ncl > HTML_LEGEND_CLIENTS ? 1 : 1.2;
	st.legend = 0;
	return st;
}

static void
plot_client_legend(const struct html_ctx *c, struct svg_plot *pl)
{
	if (c->ncl <= HTML_LEGEND_CLIENTS)
		return;
	pl->extra_legend = html_fmtdup("each of the %zu clients", c->ncl);
	if (pl->extra_legend == NULL)
		return;
	pl->extra_st.color = GREY;
	pl->extra_st.dash = SVG_SOLID;
	pl->extra_st.width = 1;
	pl->extra_st.legend = 1;
}

/* The legend's entry for the clients' lines of style_client_kind(). */
static void
plot_kinds_legend(const struct html_ctx *c, struct svg_plot *pl,
    const char *kind)
{
	if (c->ncl == 0)
		return;
	if (c->ncl > HTML_LEGEND_CLIENTS) {
		plot_client_legend(c, pl);
		return;
	}
	pl->extra_legend = html_fmtdup("thin: each client (%zu), in its %s's "
	    "colour", c->ncl, kind);
	if (pl->extra_legend == NULL)
		return;
	pl->extra_st.color = "#555555";
	pl->extra_st.dash = SVG_SOLID;
	pl->extra_st.width = 1.2;
	pl->extra_st.legend = 1;
}

char *
html_client_label(const struct html_ctx *c, size_t i, const char *suffix)
{
	const char *l = c->cl[i].label;

	if (l != NULL)
		return html_fmtdup("%s%s", l, suffix);
	return html_fmtdup("client %zu%s", i, suffix);
}

/* "stats.basic.histograms.KEY" of phase ph into buf. */
static const char *
hist_path(char *buf, size_t size, enum basic_phase ph)
{
	snprintf(buf, size, "stats.basic.histograms.%s", basic_phase_json[ph]);
	return buf;
}

/* The count of a histogram object, 0 when there is none. */
uint64_t
html_hist_count(const struct jv *hist)
{
	uint64_t n;

	return jv_u64(jv_get(hist, "count"), &n) == 0 ? n : 0;
}

/* Decades of a percentile axis fit for a histogram of count values. */
int
html_pct_decades(uint64_t maxcount)
{
	int d;

	if (maxcount <= 100000)
		return 4;
	/* The last whole decade the count reaches: a tail beyond it ends
	   at the axis' edge, at the maximum. */
	d = (int)floor(log10((double)maxcount));
	return d < 5 ? 5 : d > 9 ? 9 : d;
}

/*
 * A percentile series from histogram object `hist' (its "hdr" decoded):
 * HTML_PCT_POINTS points spaced evenly on the axis from 0% to the
 * largest percentile the count tells apart (1 - 1/count), the last the
 * maximum.  Nothing when the histogram is missing, undecodable or empty.
 */
void
html_pct_series(struct html_ctx *c, struct svg_plot *pl,
    const struct jv *hist, char *name, const struct svg_style *st)
{
	struct svg_series *s;
	struct hdr *h = NULL;
	const char *enc;
	size_t len, n, i;
	uint64_t count;
	double xend, x, p;

	enc = jv_str(jv_get(hist, "hdr"), &len);
	if (enc == NULL || hdr_decode_ns(enc, len, &h) != 0 ||
	    (count = hdr_count(h)) == 0) {
		hdr_free(h);
		free(name);
		return;
	}
	n = count > 1 ? HTML_PCT_POINTS : 1;
	xend = log10((double)count);
	if (xend > pl->decades)
		xend = pl->decades;
	if ((s = html_plot_add(c, pl, name, n, st)) == NULL) {
		hdr_free(h);
		return;
	}
	for (i = 0; i < n; i++) {
		x = n > 1 ? xend * (double)i / (double)(n - 1) : 0;
		p = i == n - 1 ? 100 : 100 * (1 - pow(10, -x));
		s->x[i] = x;
		s->y[i] = (double)hdr_value_at_percentile(h, p) / 1e6;
	}
	s->n = n;
	/* On hover: the figures of the percentile table. */
	s->tip = html_fmtdup("%s: %llu values, p50 %.3f ms, p90 %.3f ms, "
	    "p99 %.3f ms, p99.9 %.3f ms, max %.3f ms", s->name,
	    (unsigned long long)count,
	    (double)hdr_value_at_percentile(h, 50) / 1e6,
	    (double)hdr_value_at_percentile(h, 90) / 1e6,
	    (double)hdr_value_at_percentile(h, 99) / 1e6,
	    (double)hdr_value_at_percentile(h, 99.9) / 1e6,
	    (double)hdr_max(h) / 1e6);
	hdr_free(h);
}

/* The largest count of the histograms at `path' in doc and the clients. */
static uint64_t
max_count(const struct html_ctx *c, const char *const *paths, size_t npaths)
{
	uint64_t m = 0, n;
	size_t i, k;

	for (k = 0; k < npaths; k++) {
		if ((n = html_hist_count(jv_path(c->doc, paths[k]))) > m)
			m = n;
		for (i = 0; i < c->ncl; i++)
			if ((n = html_hist_count(jv_path(c->cl[i].doc,
			    paths[k]))) > m)
				m = n;
	}
	return m;
}

void
html_plot_pct_reply(struct html_ctx *c)
{
	char buf[2][64];
	const char *paths[2];
	struct svg_plot pl;
	struct svg_style st;
	size_t i;

	paths[0] = hist_path(buf[0], sizeof(buf[0]), BASIC_PH_REPLY);
	paths[1] = hist_path(buf[1], sizeof(buf[1]), BASIC_PH_REPLY_CORR);

	svg_plot_init(&pl, "pct-reply", "Reply time by percentile", "ms",
	    SVG_X_PCT);
	pl.decades = html_pct_decades(max_count(c, paths, 2));
	for (i = 0; i < c->ncl; i++) {
		st = style_client(c, i);
		html_pct_series(c, &pl, jv_path(c->cl[i].doc, paths[0]),
		    html_client_label(c, i, ""), &st);
	}
	plot_client_legend(c, &pl);
	st = html_style_n(c->ncl > 0 ? 6 : 0, SVG_SOLID,
	    c->ncl > 0 ? 2.8 : 2.2);
	html_pct_series(c, &pl, jv_path(c->doc, paths[0]),
	    html_fmtdup(c->ncl > 0 ? "Total" : "Reply time"), &st);
	st = html_style_n(1, SVG_DASHED, c->ncl > 0 ? 2.8 : 2.2);
	html_pct_series(c, &pl, jv_path(c->doc, paths[1]),
	    html_fmtdup(c->ncl > 0 ? "Total (corrected)" :
	    "Reply time (corrected)"), &st);
	if (pl.ns == 0)
		pl.note = "no replies";
	svg_plot_write(c->f, &pl);
	svg_plot_free(&pl);
}

void
html_plot_pct_phases(struct html_ctx *c)
{
	static const enum basic_phase ph[] = { BASIC_PH_LIFETIME,
		BASIC_PH_CONNECT, BASIC_PH_TLS, BASIC_PH_FIRST_BYTE,
		BASIC_PH_TRANSFER, BASIC_PH_SESSION };
	static const char *const names[] = { "Connection", "Connect",
		"TLS handshake", "First byte", "Transfer", "Session lifetime" };
	static const enum svg_dash dashes[] = { SVG_SOLID, SVG_DASHED,
		SVG_SOLID, SVG_SOLID, SVG_DOTTED, SVG_DASHED };
	const struct jv *hs = jv_path(c->doc, "stats.basic.histograms");
	char paths[6][64], *suffix;
	const char *pp[6];
	struct svg_plot pl;
	struct svg_style st;
	size_t i, k;

	for (i = 0; i < 6; i++)
		pp[i] = hist_path(paths[i], sizeof(paths[i]), ph[i]);
	svg_plot_init(&pl, "pct-phases", "Phases by percentile", "ms",
	    SVG_X_PCT);
	pl.decades = html_pct_decades(max_count(c, pp, 6));
	pl.maybe_ylog = 1;
	/* Each client's phases, thin, under the totals. */
	for (k = 0; k < c->ncl; k++)
		for (i = 0; i < 6; i++) {
			st = html_style_n(i, dashes[i], 2);
			st = style_client_kind(c, &st);
			suffix = html_fmtdup(" %s", names[i]);
			if (suffix == NULL) {
				c->oom = 1;
				continue;
			}
			html_pct_series(c, &pl, jv_path(c->cl[k].doc, paths[i]),
			    html_client_label(c, k, suffix), &st);
			free(suffix);
		}
	plot_kinds_legend(c, &pl, "phase");
	for (i = 0; i < 6; i++) {
		st = html_style_n(i, dashes[i], c->ncl > 0 ? 2.6 : 2);
		html_pct_series(c, &pl, jv_get(hs, basic_phase_json[ph[i]]),
		    html_fmtdup("%s%s", c->ncl > 0 ? "Total " : "", names[i]),
		    &st);
	}
	if (pl.ns == 0)
		pl.note = "no phase was measured";
	svg_plot_write(c->f, &pl);
	svg_plot_free(&pl);
}

void
html_plot_pct_lateness(struct html_ctx *c)
{
	static const char *const paths[] = { "stats.sched.lateness" };
	struct svg_plot pl;
	struct svg_style st;
	size_t i;

	fputs("<h2 id=\"lateness\">Lateness</h2>\n<div class=\"grid\">\n",
	    c->f);
	if (jv_type(jv_path(c->doc, paths[0])) != JV_OBJ) {
		fputs("<figure class=\"plot\" id=\"plot-pct-lateness\">"
		    "<figcaption>Lateness by percentile</figcaption>\n"
		    "<p class=\"note\">No schedule in this run (no --rate, "
		    "--call-rate or --wsess rate): nothing was late.</p>"
		    "</figure>\n</div>\n", c->f);
		return;
	}
	svg_plot_init(&pl, "pct-lateness", "Lateness by percentile", "ms",
	    SVG_X_PCT);
	pl.decades = html_pct_decades(max_count(c, paths, 1));
	for (i = 0; i < c->ncl; i++) {
		st = style_client(c, i);
		html_pct_series(c, &pl, jv_path(c->cl[i].doc, paths[0]),
		    html_client_label(c, i, ""), &st);
	}
	plot_client_legend(c, &pl);
	st = html_style_n(c->ncl > 0 ? 6 : 0, SVG_SOLID,
	    c->ncl > 0 ? 2.8 : 2.2);
	html_pct_series(c, &pl, jv_path(c->doc, paths[0]),
	    html_fmtdup(c->ncl > 0 ? "Total" : "Lateness"), &st);
	if (pl.ns == 0)
		pl.note = "no arrivals";
	svg_plot_write(c->f, &pl);
	svg_plot_free(&pl);
	fputs("</div>\n", c->f);
}

/* ---- per-interval series ---- */

/* A document's intervals, placed on the plotted document's clock. */
struct ivs {
	const struct jv	*arr;		/* stats.interval.intervals */
	size_t		 n;
	double		 offset;	/* s from the plotted start */
	double		 target;	/* target_rate_per_s, 0 for none */
	double		 period;	/* period_ns, s (0: unknown) */
};

static int
ivs_get(const struct html_ctx *c, const struct jv *doc, struct ivs *iv)
{
	double s0, s1;
	const struct jv *in = jv_path(doc, "stats.interval");

	memset(iv, 0, sizeof(*iv));
	iv->arr = jv_get(in, "intervals");
	if (jv_type(iv->arr) != JV_ARR)
		return -1;
	iv->n = jv_len(iv->arr);
	if (html_num(in, "target_rate_per_s", &iv->target) != 0 ||
	    iv->target < 0)
		iv->target = 0;
	if (html_num(in, "period_ns", &iv->period) != 0 || !(iv->period > 0))
		iv->period = 0;
	iv->period /= 1e9;
	/* Start epochs as doubles: ns since 1970 lose under 1 us here. */
	if (doc != c->doc && html_num(doc, "start.epoch_ns", &s1) == 0 &&
	    html_num(c->doc, "start.epoch_ns", &s0) == 0)
		iv->offset = (s1 - s0) / 1e9;
	return 0;
}

/*
 * Interval i's place on the x axis (its middle, in s) and length in s;
 * -1 when it has no usable start and length.
 */
static int
iv_at(const struct ivs *iv, size_t i, const struct jv **rec, double *x,
    double *len)
{
	double start, l;

	*rec = jv_at(iv->arr, i);
	if (html_num(*rec, "start_ns", &start) != 0 ||
	    html_num(*rec, "length_ns", &l) != 0 || !(l > 0) || start < 0)
		return -1;
	*len = l / 1e9;
	*x = iv->offset + start / 1e9 + *len / 2;
	return 0;
}

/* The sum of an interval's members `names' of object `obj'. */
static double
iv_sum(const struct jv *rec, const char *obj, const char *const *names,
    size_t n)
{
	const struct jv *o = jv_get(rec, obj);
	double s = 0, v;
	size_t i;

	for (i = 0; i < n; i++)
		if (jv_num(jv_get(o, names[i]), &v) == 0 && v > 0)
			s += v;
	return s;
}

/* Kinds of per-interval series. */
enum ivk { IV_REPLIES, IV_ARRIVALS, IV_CLASS, IV_P50, IV_P99, IV_P99C };

/*
 * One per-interval series: the value `kind' (per second for counts, ms
 * for times) of every interval that has it.  `what' names the class for
 * IV_CLASS ("replies.2xx"...).  Dropped when no interval has it.
 */
static void
iv_series(struct html_ctx *c, struct svg_plot *pl, const struct ivs *iv,
    enum ivk kind, const char *what, char *name, const struct svg_style *st)
{
	const struct jv *rec;
	struct svg_series *s;
	double x, len, v;
	size_t i;
	const char *p = NULL;

	if ((s = html_plot_add(c, pl, name, iv->n, st)) == NULL)
		return;
	for (i = 0; i < iv->n; i++) {
		if (iv_at(iv, i, &rec, &x, &len) != 0)
			continue;
		/* A last interval under a quarter of a period (older
		   versions wrote one; it is joined to the one before
		   now): its rates mean nothing, and would draw a cliff
		   at the end. */
		if (i > 0 && i + 1 == iv->n && len < iv->period / 4 &&
		    (kind == IV_REPLIES || kind == IV_ARRIVALS ||
		    kind == IV_CLASS))
			continue;
		switch (kind) {
		case IV_REPLIES:
			v = iv_sum(rec, "replies", basic_status_name,
			    BASIC_NSTATUS) / len;
			break;
		case IV_ARRIVALS:
			if (html_num(rec, "arrivals", &v) != 0)
				continue;
			v /= len;
			break;
		case IV_CLASS:
			if (html_num(rec, what, &v) != 0)
				continue;
			v /= len;
			break;
		case IV_P50:
		case IV_P99:
		case IV_P99C:
			p = kind == IV_P50 ? "reply.p50_ns" : kind == IV_P99 ?
			    "reply.p99_ns" : "reply_corrected.p99_ns";
			/* No replies in it, no time to show. */
			if (html_hist_count(jv_path(rec, kind == IV_P99C ?
			    "reply_corrected" : "reply")) == 0 ||
			    html_num(rec, p, &v) != 0)
				continue;
			v /= 1e6;
			break;
		}
		if (v < 0 || !isfinite(v))
			continue;
		s->x[s->n] = x;
		s->y[s->n] = v;
		s->n++;
	}
	if (s->n == 0)
		svg_plot_drop_last(pl);
}

/* The end of the last interval, s: where the target line stops. */
static double
ivs_end(const struct ivs *iv)
{
	const struct jv *rec;
	double x, len, end = 0;
	size_t i;

	for (i = 0; i < iv->n; i++)
		if (iv_at(iv, i, &rec, &x, &len) == 0 && x + len / 2 > end)
			end = x + len / 2;
	return end;
}

/* Does any interval have a nonzero `what' ("errors.connreset")? */
static int
iv_any(const struct ivs *iv, const char *what)
{
	double v;
	size_t i;

	for (i = 0; i < iv->n; i++)
		if (html_num(jv_at(iv->arr, i), what, &v) == 0 && v > 0)
			return 1;
	return 0;
}

static void
plot_iv_rate(struct html_ctx *c, const struct ivs *iv, const struct ivs *civ)
{
	struct svg_plot pl;
	struct svg_style st;
	struct svg_series *s;
	double end;
	size_t i;

	svg_plot_init(&pl, "iv-rate", "Rate", "replies/s", SVG_X_SECONDS);
	pl.xext = c->iv_end;
	for (i = 0; i < c->ncl; i++) {
		if (civ[i].arr == NULL)
			continue;
		st = style_client(c, i);
		iv_series(c, &pl, &civ[i], IV_REPLIES, NULL,
		    html_client_label(c, i, ""), &st);
	}
	plot_client_legend(c, &pl);
	st = html_style_n(c->ncl > 0 ? 6 : 0, SVG_SOLID,
	    c->ncl > 0 ? 2.8 : 2.2);
	iv_series(c, &pl, iv, IV_REPLIES, NULL, html_fmtdup(c->ncl > 0 ?
	    "Total achieved" : "Achieved"), &st);
	if (iv->target > 0) {
		st = html_style_n(2, SVG_DOTTED, 2);
		iv_series(c, &pl, iv, IV_ARRIVALS, NULL,
		    html_fmtdup("Arrivals"), &st);
		end = ivs_end(iv);
		st = html_style_n(1, SVG_DASHED, 1.8);
		if (end > 0 && (s = html_plot_add(c, &pl,
		    html_fmtdup("Target"), 2, &st)) != NULL) {
			s->x[0] = 0;
			s->x[1] = end;
			s->y[0] = s->y[1] = iv->target;
			s->n = 2;
		}
	}
	if (pl.ns == 0)
		pl.note = "no intervals";
	svg_plot_write(c->f, &pl);
	svg_plot_free(&pl);
}

/*
 * A plot of the classes `names' of object `obj' of every interval
 * ("replies": 1xx..., "errors": connreset...): a line per class that
 * happened, and in a merge each client's classes that happened to it,
 * thin, in the class's colour.
 */
static void
plot_iv_classes(struct html_ctx *c, const struct ivs *iv, const struct ivs *civ,
    const char *id, const char *title, const char *ylabel, const char *obj,
    const char *const *names, size_t n, const char *none)
{
	struct svg_plot pl;
	struct svg_style st, *kst;
	char what[64], *suffix;
	size_t i, k, ncol = 0;
	int any;

	/* A colour per class that any of them has, in the classes' order,
	   so a class keeps its colour across the total and the clients. */
	if ((kst = calloc(n, sizeof(*kst))) == NULL) {
		c->oom = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s.%s", obj, names[i]);
		any = iv_any(iv, what);
		for (k = 0; k < c->ncl && !any; k++)
			any = civ[k].arr != NULL && iv_any(&civ[k], what);
		if (any)
			kst[i] = html_style_n(ncol++, SVG_SOLID,
			    c->ncl > 0 ? 2.6 : 2);
	}
	svg_plot_init(&pl, id, title, ylabel, SVG_X_SECONDS);
	pl.xext = c->iv_end;
	for (k = 0; k < c->ncl; k++) {
		if (civ[k].arr == NULL)
			continue;
		for (i = 0; i < n; i++) {
			snprintf(what, sizeof(what), "%s.%s", obj, names[i]);
			if (kst[i].color == NULL || !iv_any(&civ[k], what))
				continue;
			st = style_client_kind(c, &kst[i]);
			if ((suffix = html_fmtdup(" %s", names[i])) == NULL) {
				c->oom = 1;
				continue;
			}
			iv_series(c, &pl, &civ[k], IV_CLASS, what,
			    html_client_label(c, k, suffix), &st);
			free(suffix);
		}
	}
	plot_kinds_legend(c, &pl, "class");
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s.%s", obj, names[i]);
		if (!iv_any(iv, what))
			continue;
		iv_series(c, &pl, iv, IV_CLASS, what, html_fmtdup("%s%s",
		    c->ncl > 0 ? "Total " : "", names[i]), &kst[i]);
	}
	if (pl.ns == 0)
		pl.note = none;
	svg_plot_write(c->f, &pl);
	svg_plot_free(&pl);
	free(kst);
}

static void
plot_iv_latency(struct html_ctx *c, const struct ivs *iv, const struct ivs *civ)
{
	struct svg_plot pl;
	struct svg_style st;
	size_t i;

	svg_plot_init(&pl, "iv-latency", "Reply time p50 / p99 per interval",
	    "ms", SVG_X_SECONDS);
	pl.xext = c->iv_end;
	pl.keepmax = 1;
	for (i = 0; i < c->ncl; i++) {
		if (civ[i].arr == NULL)
			continue;
		st = style_client(c, i);
		iv_series(c, &pl, &civ[i], IV_P99, NULL,
		    html_client_label(c, i, " p99"), &st);
	}
	plot_client_legend(c, &pl);
	st = html_style_n(c->ncl > 0 ? 6 : 0, SVG_SOLID,
	    c->ncl > 0 ? 2.8 : 2.2);
	iv_series(c, &pl, iv, IV_P99, NULL, html_fmtdup(c->ncl > 0 ?
	    "Total p99" : "p99"), &st);
	st = html_style_n(2, SVG_DASHED, c->ncl > 0 ? 2.4 : 2);
	iv_series(c, &pl, iv, IV_P50, NULL, html_fmtdup(c->ncl > 0 ?
	    "Total p50" : "p50"), &st);
	if (iv->target > 0) {
		st = html_style_n(1, SVG_DOTTED, 2.2);
		iv_series(c, &pl, iv, IV_P99C, NULL, html_fmtdup(c->ncl > 0 ?
		    "Total p99 (corrected)" : "p99 (corrected)"), &st);
	}
	if (pl.ns == 0)
		pl.note = "no replies";
	svg_plot_write(c->f, &pl);
	svg_plot_free(&pl);
}

void
html_plots_interval(struct html_ctx *c)
{
	struct ivs iv, *civ = NULL;
	double p, jn = 1, mx;
	size_t i;

	fputs("<h2 id=\"intervals\">Over time", c->f);
	if (html_num(c->doc, "stats.interval.period_ns", &p) == 0 && p > 0) {
		/* Kept intervals joined (stats.interval.joined). */
		if (html_num(c->doc, "stats.interval.joined", &jn) != 0 ||
		    jn < 1)
			jn = 1;
		fprintf(c->f, " <span class=\"dim\">(per %g s interval)</span>",
		    p * jn / 1e9);
	}
	fputs("</h2>\n", c->f);
	if (jn > 1) {
		if (html_num(c->doc, "stats.interval.max_intervals", &mx) != 0)
			mx = 0;
		fprintf(c->f, "<p class=\"note\" id=\"joined\">The run's "
		    "%g s intervals are joined %g by %g here, to keep at most "
		    "%g of them; the --hlog file has every one.</p>\n",
		    p / 1e9, jn, jn, mx);
	}
	if (ivs_get(c, c->doc, &iv) != 0) {
		fputs("<p class=\"note\" id=\"no-interval\">No per-interval "
		    "data in this result (it predates stats.interval).</p>\n",
		    c->f);
		return;
	}
	if (c->ncl > 0 && (civ = calloc(c->ncl, sizeof(*civ))) == NULL) {
		c->oom = 1;
		return;
	}
	c->iv_end = ivs_end(&iv);
	for (i = 0; i < c->ncl; i++) {
		if (ivs_get(c, c->cl[i].doc, &civ[i]) != 0)
			civ[i].arr = NULL;
		else if (ivs_end(&civ[i]) > c->iv_end)
			c->iv_end = ivs_end(&civ[i]);
	}
	fputs("<div class=\"grid\">\n", c->f);
	plot_iv_rate(c, &iv, civ);
	plot_iv_classes(c, &iv, civ, "iv-status", "Replies by status class",
	    "replies/s", "replies", basic_status_name, BASIC_NSTATUS,
	    "no replies");
	plot_iv_classes(c, &iv, civ, "iv-errors", "Errors by class",
	    "errors/s", "errors", basic_err_name, BASIC_ERR_COUNT,
	    "no errors");
	plot_iv_latency(c, &iv, civ);
	fputs("</div>\n", c->f);
	free(civ);
}
