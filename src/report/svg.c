/*
 * The SVG plot engine (svg.h): scales, axes, series, legend.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/html_esc.h"
#include "report/svg.h"

/* The SVG's coordinate system: a plot area inside margins for the axes. */
#define VB_W		560.0
#define VB_H		300.0
#define PL_LEFT		60.0
#define PL_RIGHT	28.0
#define PL_TOP		12.0
#define PL_BOTTOM	44.0
#define PL_X0		PL_LEFT
#define PL_X1		(VB_W - PL_RIGHT)
#define PL_Y0		(VB_H - PL_BOTTOM)	/* the bottom of the area */
#define PL_Y1		PL_TOP

#define MAX_TICKS	16

/* The least room between the 0% and the 50% of a percentile axis for
   both labels (their centres, in the SVG's units). */
#define PCT_ZERO_GAP	24.0

/* Series over time of at most this many points get a marker per point,
   whose <title> tells its value on hover. */
#define SVG_MARKERS_MAX	60

size_t
svg_nice_ticks(double lo, double hi, size_t target, double *ticks,
    size_t max, double *step)
{
	double raw, mag, norm, st, t0, t;
	size_t n = 0, i;

	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (hi <= lo)
		hi = lo + 1;
	if (target < 1)
		target = 1;
	raw = (hi - lo) / (double)target;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	if (norm <= 1.0 + 1e-9)
		st = mag;
	else if (norm <= 2.0 + 1e-9)
		st = 2 * mag;
	else if (norm <= 5.0 + 1e-9)
		st = 5 * mag;
	else
		st = 10 * mag;
	/* The range widened to multiples of the step; a tiny epsilon so
	   that 0.3 / 0.1 does not become 4 steps. */
	t0 = floor(lo / st + 1e-9) * st;
	for (i = 0; n < max && i <= target + 2; i++) {
		t = t0 + (double)i * st;
		if (fabs(t) < st * 1e-9)
			t = 0;
		ticks[n++] = t;
		if (t >= hi - st * 1e-9)
			break;
	}
	if (step != NULL)
		*step = st;
	return n;
}

double
svg_pct_pos(double pct)
{
	if (!(pct > 0))
		return 0;
	if (pct >= 100)
		return 12;
	return -log10(1 - pct / 100);
}

size_t
svg_decimate(double *x, double *y, size_t n, size_t cap, int keepmax)
{
	size_t b, i, lo, hi, best;
	double sx, sy;

	if (cap == 0 || n <= cap)
		return n;
	for (b = 0; b < cap; b++) {
		/* Run b: [b n / cap, (b + 1) n / cap), never empty as n > cap;
		   lo >= b, so writing point b never overwrites an unread one. */
		lo = (size_t)((double)b * (double)n / (double)cap);
		hi = (size_t)((double)(b + 1) * (double)n / (double)cap);
		if (hi > n || b == cap - 1)
			hi = n;
		if (hi <= lo)
			hi = lo + 1;
		if (keepmax) {
			best = lo;
			for (i = lo + 1; i < hi; i++)
				if (y[i] > y[best])
					best = i;
			x[b] = x[best];
			y[b] = y[best];
		} else {
			sx = sy = 0;
			for (i = lo; i < hi; i++) {
				sx += x[i];
				sy += y[i];
			}
			x[b] = sx / (double)(hi - lo);
			y[b] = sy / (double)(hi - lo);
		}
	}
	return cap;
}

/* Decimals for a tick label at this step: 0.05 -> 2, 5 -> 0. */
static int
tick_decimals(double step)
{
	int d;

	if (!(step > 0) || isinf(step))
		return 0;	/* and NaN: no cast out of range below */
	d = (int)-floor(log10(step) + 1e-9);
	return d < 0 ? 0 : d > 9 ? 9 : d;
}

void
svg_plot_init(struct svg_plot *pl, const char *id, const char *title,
    const char *ylabel, enum svg_xkind xkind)
{
	memset(pl, 0, sizeof(*pl));
	pl->id = id;
	pl->title = title;
	pl->ylabel = ylabel;
	pl->xkind = xkind;
	pl->decades = 4;
}

void
svg_plot_free(struct svg_plot *pl)
{
	size_t i;

	for (i = 0; i < pl->ns; i++) {
		free(pl->s[i].name);
		free(pl->s[i].tip);
		free(pl->s[i].x);
		free(pl->s[i].y);
	}
	free(pl->s);
	free(pl->extra_legend);
	for (i = 0; i < pl->nr; i++)
		free(pl->r[i].label);
	free(pl->r);
	pl->s = NULL;
	pl->ns = pl->cap = 0;
	pl->r = NULL;
	pl->nr = 0;
}

int
svg_plot_rule(struct svg_plot *pl, const char *kind, char *label, double at,
    int vertical, const struct svg_style *st)
{
	struct svg_rule *r;

	if (label == NULL || (r = realloc(pl->r, (pl->nr + 1) *
	    sizeof(*r))) == NULL) {
		free(label);
		return -1;
	}
	pl->r = r;
	r = &pl->r[pl->nr++];
	r->kind = kind;
	r->label = label;
	r->at = at;
	r->vertical = vertical;
	r->st = *st;
	return 0;
}

struct svg_series *
svg_plot_add(struct svg_plot *pl, char *name, size_t npts,
    const struct svg_style *st)
{
	struct svg_series *s, *ns;
	size_t cap;

	if (name == NULL)
		goto oom;
	if (pl->ns == pl->cap) {
		cap = pl->cap ? 2 * pl->cap : 8;
		ns = realloc(pl->s, cap * sizeof(*ns));
		if (ns == NULL)
			goto oom;
		pl->s = ns;
		pl->cap = cap;
	}
	s = &pl->s[pl->ns];
	memset(s, 0, sizeof(*s));
	if (npts == 0)
		npts = 1;
	s->x = calloc(npts, sizeof(double));
	s->y = calloc(npts, sizeof(double));
	if (s->x == NULL || s->y == NULL) {
		free(s->x);
		free(s->y);
		goto oom;
	}
	s->name = name;
	s->st = *st;
	pl->ns++;
	return s;
oom:
	free(name);
	return NULL;
}

void
svg_plot_drop_last(struct svg_plot *pl)
{
	struct svg_series *s = &pl->s[pl->ns - 1];

	free(s->name);
	free(s->tip);
	free(s->x);
	free(s->y);
	pl->ns--;
}

/* A plot's scales, worked out from its data. */
struct axes {
	double	xt[MAX_TICKS], yt[MAX_TICKS];
	size_t	nx, ny;
	double	xlo;		/* SVG_X_RATE_LOG: the x axis' start */
	double	xmax;		/* the x axis' end */
	double	ylo, yhi;	/* the y axis' ends */
	int	xdec, ydec;	/* decimals of the tick labels */
};

static double
map_x(const struct svg_plot *pl, const struct axes *a, double x)
{
	double v;

	if (pl->xkind == SVG_X_RATE_LOG)
		v = x > 0 ? (log10(x) - log10(a->xlo)) /
		    (log10(a->xmax) - log10(a->xlo)) : 0;
	else
		v = x / a->xmax;

	if (!isfinite(v) || v < 0)
		v = 0;
	if (v > 1)
		v = 1;
	return PL_X0 + v * (PL_X1 - PL_X0);
}

static double
map_y(const struct svg_plot *pl, double y, double ylo, double yhi)
{
	double v;

	if (pl->ylog) {
		y = y > ylo ? log10(y) : log10(ylo);
		v = (y - log10(ylo)) / (log10(yhi) - log10(ylo));
	} else
		v = (y - ylo) / (yhi - ylo);
	if (!isfinite(v) || v < 0)
		v = 0;
	if (v > 1)
		v = 1;
	return PL_Y0 - v * (PL_Y0 - PL_Y1);
}

static const char *
dash_attr(enum svg_dash d)
{
	switch (d) {
	case SVG_DASHED:
		return " stroke-dasharray=\"7 4\"";
	case SVG_DOTTED:
		return " stroke-dasharray=\"2 3\"";
	default:
		return "";
	}
}

static void
put_tick_label(FILE *f, double v, int dec)
{
	if (dec == 0)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.*f", dec, v);
}

/*
 * The label of tick i of a percentile axis: 0%, 50%, then one a decade,
 * 90%, 99%, 99.9%...: decade d has d nines.
 */
static void
put_pct_label(FILE *f, size_t i)
{
	size_t k;

	if (i == 0)
		fputs("0%", f);
	else if (i == 1)
		fputs("50%", f);
	else if (i == 2)
		fputs("90%", f);
	else {
		fputs("99", f);
		if (i > 3)
			fputc('.', f);
		for (k = 4; k <= i; k++)
			fputc('9', f);
		fputc('%', f);
	}
}

/* The legend: an HTML list under the SVG, so it wraps. */
static void
legend_item(FILE *f, const char *name, const struct svg_style *st, int ring)
{
	fputs("<li><svg class=\"key\" width=\"26\" height=\"10\" "
	    "viewBox=\"0 0 26 10\" aria-hidden=\"true\">", f);
	if (ring)
		fprintf(f, "<circle cx=\"13\" cy=\"5\" r=\"4\" fill=\"none\" "
		    "stroke=\"%s\" stroke-width=\"%.1f\"/>", st->color,
		    st->width);
	else
		fprintf(f, "<line x1=\"1\" y1=\"5\" x2=\"25\" y2=\"5\" "
		    "stroke=\"%s\" stroke-width=\"%.1f\"%s/>", st->color,
		    st->width < 1.5 ? 1.5 : st->width, dash_attr(st->dash));
	fputs("</svg>", f);
	html_escape(f, name);
	fputs("</li>", f);
}


/*
 * Decimates the series first, so the points drawn are the ones counted;
 * *xmax, *ymax: the data's extent; *yminpos: the lowest positive value
 * when the plot may take a log y axis, which it takes (pl->ylog) when
 * the series' tops lie decades apart (a connection lasting seconds next
 * to a connect of microseconds).
 */
static void
plot_extent(struct svg_plot *pl, double *xmax, double *ymax,
    double *yminpos)
{
	double top, ymaxs;
	size_t i, j;
	struct svg_series *s;

	*xmax = *ymax = *yminpos = 0;
	for (i = 0; i < pl->ns; i++) {
		s = &pl->s[i];
		s->n = svg_decimate(s->x, s->y, s->n, SVG_MAX_POINTS,
		    pl->keepmax);
		for (j = 0; j < s->n; j++) {
			if (s->x[j] > *xmax)
				*xmax = s->x[j];
			if (s->y[j] > *ymax)
				*ymax = s->y[j];
		}
	}
	for (i = 0; i < pl->nr; i++)
		if (pl->r[i].vertical && pl->r[i].at > *xmax)
			*xmax = pl->r[i].at;
		else if (!pl->r[i].vertical && pl->r[i].at > *ymax)
			*ymax = pl->r[i].at;
	if (!pl->maybe_ylog)
		return;
	top = 0;
	for (i = 0; i < pl->ns; i++) {
		ymaxs = 0;
		for (j = 0; j < pl->s[i].n; j++)
			if (pl->s[i].y[j] > ymaxs)
				ymaxs = pl->s[i].y[j];
		if (ymaxs > 0 && (*yminpos == 0 || ymaxs < *yminpos))
			*yminpos = ymaxs;
		if (ymaxs > top)
			top = ymaxs;
	}
	/* The lowest positive value anywhere sets the floor. */
	for (i = 0; i < pl->ns; i++)
		for (j = 0; j < pl->s[i].n; j++)
			if (pl->s[i].y[j] > 0 && pl->s[i].y[j] < *yminpos)
				*yminpos = pl->s[i].y[j];
	for (i = 0; i < pl->nr; i++)
		if (!pl->r[i].vertical && pl->r[i].at > 0 &&
		    pl->r[i].at < *yminpos)
			*yminpos = pl->r[i].at;
	if (*yminpos > 0 && top / *yminpos >= 100)
		pl->ylog = 1;
}

/* The lowest positive x of the series and the vertical rules, or 1. */
static double
plot_xminpos(const struct svg_plot *pl)
{
	double m = 0;
	size_t i, j;

	for (i = 0; i < pl->ns; i++)
		for (j = 0; j < pl->s[i].n; j++)
			if (pl->s[i].x[j] > 0 && (m == 0 || pl->s[i].x[j] < m))
				m = pl->s[i].x[j];
	for (i = 0; i < pl->nr; i++)
		if (pl->r[i].vertical && pl->r[i].at > 0 &&
		    (m == 0 || pl->r[i].at < m))
			m = pl->r[i].at;
	return m > 0 ? m : 1;
}

/* The value of the 1-2-5 sequence (1, 2, 5, 10, 20...) at or below v,
   or with up at or above it. */
static double
seq125(double v, int up)
{
	static const double c[] = { 1, 2, 5, 10 };
	double m = pow(10, floor(log10(v)));
	int k;

	if (up) {
		for (k = 0; k < 3; k++)
			if (c[k] * m >= v * (1 - 1e-9))
				return c[k] * m;
		return c[3] * m;
	}
	for (k = 3; k > 0; k--)
		if (c[k] * m <= v * (1 + 1e-9))
			return c[k] * m;
	return m;
}

/* From the 1-2-5 value at or below the lowest x to the one at or above
   the highest: a tick at each 1-2-5 value, or at each decade (and the
   ends) when it spans more than 2.5 decades. */
static void
axis_x_log(const struct svg_plot *pl, struct axes *a, double xmax)
{
	double v, d;
	int wide;

	a->xlo = seq125(plot_xminpos(pl), 0);
	a->xmax = seq125(xmax > a->xlo ? xmax : a->xlo, 1);
	if (a->xmax <= a->xlo * (1 + 1e-9))
		a->xmax = seq125(a->xlo * 1.5, 1);
	wide = log10(a->xmax / a->xlo) > 2.5;
	a->nx = 0;
	for (v = a->xlo; v <= a->xmax * (1 + 1e-9) && a->nx < MAX_TICKS;
	    v = seq125(v * 1.5, 1)) {
		d = log10(v);
		if (!wide || v == a->xlo || v >= a->xmax * (1 - 1e-9) ||
		    fabs(d - floor(d + 0.5)) < 1e-9)
			a->xt[a->nx++] = v;
	}
}

/* The x axis: of seconds or a rate, or of percentiles. */
static void
axis_x(const struct svg_plot *pl, struct axes *a, double xmax)
{
	double xstep = 1;
	size_t i;

	a->xdec = 0;
	if (pl->xkind == SVG_X_PCT) {
		/* 0%, the median, then a tick per decade: 90%, 99%... */
		a->nx = 0;
		a->xt[a->nx++] = 0;
		a->xt[a->nx++] = svg_pct_pos(50);
		for (i = 1; i <= (size_t)pl->decades && a->nx < MAX_TICKS; i++)
			a->xt[a->nx++] = (double)i;
		a->xmax = pl->decades;
		return;
	}
	if (pl->xkind == SVG_X_RATE_LOG) {
		axis_x_log(pl, a, xmax);
		return;
	}
	/* Every plot over time spans the whole test, data or not. */
	if (pl->xext > xmax)
		xmax = pl->xext;
	a->nx = svg_nice_ticks(0, xmax > 0 ? xmax : 1, 8, a->xt, MAX_TICKS,
	    &xstep);
	a->xmax = a->xt[a->nx - 1];
	a->xdec = tick_decimals(xstep);
}

/* The y axis: linear, or a decade a tick. */
static void
axis_y(const struct svg_plot *pl, struct axes *a, double ymax,
    double yminpos)
{
	double ystep, v;

	if (pl->ylog) {
		a->ylo = pow(10, floor(log10(yminpos)));
		a->yhi = pow(10, ceil(log10(ymax)));
		if (a->yhi <= a->ylo)
			a->yhi = a->ylo * 10;
		a->ny = 0;
		for (v = a->ylo; v <= a->yhi * 1.0001 && a->ny < MAX_TICKS;
		    v *= 10) {
			a->yt[a->ny++] = v;
			/* 2 and 5 between the decades when there are few. */
			if (log10(a->yhi / a->ylo) <= 2.5 &&
			    v < a->yhi * 0.999 && a->ny + 2 <= MAX_TICKS) {
				a->yt[a->ny++] = 2 * v;
				a->yt[a->ny++] = 5 * v;
			}
		}
		ystep = 0;
	} else {
		a->ny = svg_nice_ticks(0, ymax > 0 ? ymax : 1, 5, a->yt,
		    MAX_TICKS, &ystep);
		a->ylo = a->yt[0];
		a->yhi = a->yt[a->ny - 1];
	}
	a->ydec = tick_decimals(ystep);
}

/* The figure's opening, the SVG's, the grid and the axes' lines. */
static void
write_frame(FILE *f, const struct svg_plot *pl, const struct axes *a)
{
	double px, py;
	size_t i;

	fprintf(f, "<figure class=\"plot\" id=\"plot-%s\">\n<figcaption>",
	    pl->id);
	html_escape(f, pl->title);
	fputs("</figcaption>\n", f);
	fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" "
	    "role=\"img\" aria-label=\"", VB_W, VB_H);
	html_escape(f, pl->title);
	fputs("\">\n", f);

	/* Grid lines and tick labels. */
	fputs("<g class=\"grid\">", f);
	for (i = 0; i < a->ny; i++) {
		py = map_y(pl, a->yt[i], a->ylo, a->yhi);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/>", PL_X0, py, PL_X1, py);
	}
	for (i = 0; i < a->nx; i++) {
		px = map_x(pl, a, a->xt[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/>", px, PL_Y1, px, PL_Y0);
	}
	fputs("</g>\n<g class=\"axis\">", f);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
	    PL_X0, PL_Y0, PL_X1, PL_Y0);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
	    PL_X0, PL_Y1, PL_X0, PL_Y0);
	fputs("</g>\n", f);
}

/* The ticks' labels and the axes'. */
static void
write_labels(FILE *f, const struct svg_plot *pl, const struct axes *a)
{
	double px, py;
	size_t i;

	for (i = 0; i < a->ny; i++) {
		py = map_y(pl, a->yt[i], a->ylo, a->yhi);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"end\">", PL_X0 - 6, py + 4);
		put_tick_label(f, a->yt[i], pl->ylog ?
		    tick_decimals(a->yt[i]) : a->ydec);
		fputs("</text>", f);
	}
	fputc('\n', f);
	for (i = 0; i < a->nx; i++) {
		px = map_x(pl, a, a->xt[i]);
		/* The axis' origin needs no "0%" where it would run into
		   the "50%" (many decades squeeze them together). */
		if (pl->xkind == SVG_X_PCT && i == 0 &&
		    map_x(pl, a, a->xt[1]) - px < PCT_ZERO_GAP)
			continue;
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\">", px, PL_Y0 + 16);
		if (pl->xkind == SVG_X_PCT)
			put_pct_label(f, i);
		else
			put_tick_label(f, a->xt[i],
			    pl->xkind == SVG_X_RATE_LOG ?
			    tick_decimals(a->xt[i]) : a->xdec);
		fputs("</text>", f);
	}
	fprintf(f, "\n<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
	    "text-anchor=\"middle\">", (PL_X0 + PL_X1) / 2, VB_H - 6);
	if (pl->xkind == SVG_X_RATE || pl->xkind == SVG_X_RATE_LOG) {
		html_escape(f, pl->xlabel != NULL ? pl->xlabel : "rate");
		if (pl->xkind == SVG_X_RATE_LOG)
			fputs(" (log)", f);
	} else
		fputs(pl->xkind == SVG_X_PCT ? "percentile" :
		    "time since start [s]", f);
	fputs("</text>", f);
	fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
	    "text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">",
	    14.0, (PL_Y0 + PL_Y1) / 2, 14.0, (PL_Y0 + PL_Y1) / 2);
	html_escape(f, pl->ylabel);
	if (pl->ylog)
		fputs(" (log)", f);
	fputs("</text>\n", f);
}

/* A point's value on hover: "NAME: Y YLABEL at X s" (or "at X XLABEL"). */
static void
put_point_title(FILE *f, const struct svg_plot *pl,
    const struct svg_series *s, size_t j)
{
	html_escape(f, s->name);
	fprintf(f, ": %.*f ", s->y[j] < 10 ? 3 : 1, s->y[j]);
	html_escape(f, pl->ylabel);
	if (pl->xkind == SVG_X_SECONDS) {
		fprintf(f, " at %.1f s", s->x[j]);
		return;
	}
	fprintf(f, " at %.1f ", s->x[j]);
	html_escape(f, pl->xlabel != NULL ? pl->xlabel : "");
}

/* A series of rings at its points, no line (steps set apart). */
static void
write_marks(FILE *f, const struct svg_plot *pl, const struct axes *a,
    const struct svg_series *s)
{
	size_t j;

	fputs("<g class=\"marks\" data-series=\"", f);
	html_escape(f, s->name);
	fprintf(f, "\" data-points=\"%zu\">", s->n);
	for (j = 0; j < s->n; j++) {
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
		    "fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\">"
		    "<title>", map_x(pl, a, s->x[j]),
		    map_y(pl, s->y[j], a->ylo, a->yhi), s->st.color,
		    s->st.width);
		put_point_title(f, pl, s, j);
		fputs("</title></circle>", f);
	}
	fputs("</g>\n", f);
}

/* The rules: a line across the plot at its value, and its label (at
   the top of a vertical one, at the right end over a horizontal one). */
static void
write_rules(FILE *f, const struct svg_plot *pl, const struct axes *a)
{
	const struct svg_rule *r;
	double p;
	size_t i;

	for (i = 0; i < pl->nr; i++) {
		r = &pl->r[i];
		p = r->vertical ? map_x(pl, a, r->at) :
		    map_y(pl, r->at, a->ylo, a->yhi);
		fprintf(f, "<line class=\"rule\" data-rule=\"%s\" "
		    "data-at=\"%g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s>"
		    "<title>", r->kind, r->at, r->vertical ? p : PL_X0,
		    r->vertical ? PL_Y1 : p, r->vertical ? p : PL_X1,
		    r->vertical ? PL_Y0 : p, r->st.color, r->st.width,
		    dash_attr(r->st.dash));
		html_escape(f, r->label);
		fprintf(f, "</title></line><text class=\"tick rule\" "
		    "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">",
		    r->vertical ? p - 4 : PL_X1 - 2, r->vertical ? PL_Y1 + 12 :
		    p - 4, r->st.color);
		html_escape(f, r->label);
		fputs("</text>\n", f);
	}
}

/* One series: its line, and its dots (a dot per interval over time, or
   the one point of a percentile series of one value). */
static void
write_series(FILE *f, const struct svg_plot *pl, const struct axes *a,
    const struct svg_series *s)
{
	size_t j;

	if (s->marks) {
		write_marks(f, pl, a, s);
		return;
	}
	fputs("<polyline class=\"series\" data-series=\"", f);
	html_escape(f, s->name);
	fprintf(f, "\" data-points=\"%zu\" fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"%.1f\"%s stroke-linejoin=\"round\" "
	    "points=\"", s->n, s->st.color, s->st.width,
	    dash_attr(s->st.dash));
	for (j = 0; j < s->n; j++)
		fprintf(f, "%s%.1f,%.1f", j ? " " : "",
		    map_x(pl, a, s->x[j]),
		    map_y(pl, s->y[j], a->ylo, a->yhi));
	fputs("\"><title>", f);
	html_escape(f, s->tip != NULL ? s->tip : s->name);
	fputs("</title></polyline>\n", f);
	if (pl->xkind != SVG_X_PCT && s->n <= SVG_MARKERS_MAX) {
		/* A dot per interval (or step), its value on hover. */
		for (j = 0; j < s->n; j++) {
			fprintf(f, "<circle class=\"pt\" cx=\"%.1f\" "
			    "cy=\"%.1f\" r=\"%s\" fill=\"%s\"><title>",
			    map_x(pl, a, s->x[j]),
			    map_y(pl, s->y[j], a->ylo, a->yhi),
			    s->n == 1 ? "3" : "2.2", s->st.color);
			put_point_title(f, pl, s, j);
			fputs("</title></circle>", f);
		}
		fputc('\n', f);
	} else if (s->n == 1) {
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
		    "fill=\"%s\"><title>", map_x(pl, a, s->x[0]),
		    map_y(pl, s->y[0], a->ylo, a->yhi), s->st.color);
		html_escape(f, s->tip != NULL ? s->tip : s->name);
		fputs("</title></circle>\n", f);
	}
}

void
svg_plot_write(FILE *f, struct svg_plot *pl)
{
	struct axes a;
	double xmax, ymax, yminpos;
	size_t i;
	int legend = 0;

	plot_extent(pl, &xmax, &ymax, &yminpos);
	axis_x(pl, &a, xmax);
	axis_y(pl, &a, ymax, yminpos);
	write_frame(f, pl, &a);
	write_labels(f, pl, &a);
	/* The series, widest first so the thin ones stay visible. */
	for (i = 0; i < pl->ns; i++) {
		write_series(f, pl, &a, &pl->s[i]);
		if (pl->s[i].st.legend)
			legend = 1;
	}
	write_rules(f, pl, &a);
	for (i = 0; i < pl->nr; i++)
		if (pl->r[i].st.legend)
			legend = 1;
	if (pl->note != NULL) {
		fprintf(f, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\">", (PL_X0 + PL_X1) / 2,
		    (PL_Y0 + PL_Y1) / 2);
		html_escape(f, pl->note);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	if (legend || pl->extra_legend != NULL) {
		fputs("<ul class=\"legend\">", f);
		for (i = 0; i < pl->ns; i++)
			if (pl->s[i].st.legend)
				legend_item(f, pl->s[i].name, &pl->s[i].st,
				    pl->s[i].marks);
		for (i = 0; i < pl->nr; i++)
			if (pl->r[i].st.legend)
				legend_item(f, pl->r[i].label, &pl->r[i].st, 0);
		if (pl->extra_legend != NULL)
			legend_item(f, pl->extra_legend, &pl->extra_st, 0);
		fputs("</ul>\n", f);
	}
	fputs("</figure>\n", f);
}
