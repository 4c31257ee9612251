/*
 * An SVG line-plot engine: a plot is a set of series of (x, y) points
 * and their styles; svg_plot_write() writes it as one
 * <figure class="plot" id="plot-ID"> holding an inline <svg> (grid,
 * axes, ticks, a <polyline class="series" data-series="NAME"
 * data-points="N"> per series, dots with their values on hover) and an
 * HTML legend.  The x axis is seconds (nice ticks), HdrHistogram's
 * log-scaled percentile axis, or a rate (a sweep's offered rate: linear,
 * or a decade a tick); the y axis is linear, or logarithmic when the
 * series' tops lie decades apart and the plot allows it.  Rules mark a
 * value across the plot: a horizontal line (an objective's threshold) or
 * a vertical one (the capacity found), each
 * <line class="rule" data-rule="KIND" data-at="VALUE"> with its label.
 * It knows nothing of where the points come from; every text is
 * HTML-escaped.
 */
#ifndef HTTPERF_REPORT_SVG_H
#define HTTPERF_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/* Points a series holds at most when drawn (more are decimated). */
#define SVG_MAX_POINTS		2000

enum svg_dash { SVG_SOLID, SVG_DASHED, SVG_DOTTED };

struct svg_style {
	const char	*color;
	enum svg_dash	 dash;
	double		 width;
	int		 legend;	/* listed in the legend */
};

struct svg_series {
	char		*name;
	char		*tip;		/* its <title>, when more than the name */
	double		*x, *y;
	size_t		 n;
	struct svg_style st;
	int		 marks;		/* rings at its points, no line: a
					   <g class="marks" data-series="NAME"
					   data-points="N"> */
};

/*
 * The x axis: seconds, percentiles (x is svg_pct_pos() of one), or a
 * rate (xlabel names it), linear from 0 or logarithmic.
 */
enum svg_xkind { SVG_X_SECONDS, SVG_X_PCT, SVG_X_RATE, SVG_X_RATE_LOG };

/* A value marked across the plot. */
struct svg_rule {
	const char	*kind;		/* data-rule: "capacity", "objective" */
	char		*label;		/* taken: freed with the plot */
	double		 at;		/* x when vertical, else y */
	int		 vertical;
	struct svg_style st;
};

struct svg_plot {
	const char	*id;
	const char	*title;
	const char	*ylabel;
	enum svg_xkind	 xkind;
	int		 decades;	/* SVG_X_PCT: 0 to decades */
	int		 ylog;		/* a log y axis (chosen by the data) */
	int		 maybe_ylog;	/* may take one if the data spans much */
	int		 keepmax;	/* decimate keeping each run's peak */
	struct svg_series *s;
	size_t		 ns, cap;
	double		 xext;		/* SVG_X_SECONDS: the axis's end */
	const char	*note;		/* written across an empty plot */
	char		*extra_legend;	/* "each client (N)", freed with it */
	struct svg_style extra_st;
	const char	*xlabel;	/* SVG_X_RATE*: the x axis' label */
	struct svg_rule	*r;		/* the rules */
	size_t		 nr;
};

/* An empty plot (4 decades of percentiles if SVG_X_PCT). */
void	svg_plot_init(struct svg_plot *pl, const char *id, const char *title,
	    const char *ylabel, enum svg_xkind xkind);
void	svg_plot_free(struct svg_plot *pl);

/*
 * A new series of room for npts points (n = 0), named `name' (taken:
 * freed with the plot); NULL on no memory (name freed).
 */
struct svg_series *svg_plot_add(struct svg_plot *pl, char *name, size_t npts,
	    const struct svg_style *st);

/*
 * A rule at `at' (x when vertical, else y) labelled `label' (taken:
 * freed with the plot); a horizontal one widens the y axis to show it.
 * Returns 0, or -1 on no memory (label freed).
 */
int	svg_plot_rule(struct svg_plot *pl, const char *kind, char *label,
	    double at, int vertical, const struct svg_style *st);

/* Drops the last series (one that got no points). */
void	svg_plot_drop_last(struct svg_plot *pl);

/* Writes the plot (decimating its series first). */
void	svg_plot_write(FILE *f, struct svg_plot *pl);

/*
 * "Nice" ticks covering lo..hi: multiples of a step of 1, 2 or 5 times a
 * power of ten, at most `target' steps, from the largest multiple at or
 * below lo to the smallest at or above hi (hi <= lo is widened to lo + 1).
 * Writes at most `max' ticks; returns their number; *step is the step.
 */
size_t	svg_nice_ticks(double lo, double hi, size_t target, double *ticks,
	    size_t max, double *step);

/*
 * Where percentile pct (0..100) lies on the percentile axis: log10 of
 * 1 / (1 - pct / 100), so 0% is 0, 50% log10(2), 90% 1, 99% 2, 99.9% 3,
 * 99.99% 4.
 * 100 and above give 12 (a percentile axis never goes that far).
 */
double	svg_pct_pos(double pct);

/*
 * Reduces the n points (x[i], y[i]) in place to at most cap: the points
 * are cut into cap runs of consecutive points (of n / cap points, give or
 * take one) and each run becomes one point: the one with the largest y
 * when keepmax (so no peak of a latency series is lost), else the mean of
 * the run's x and y.  Returns the number of points left (n if n <= cap).
 */
size_t	svg_decimate(double *x, double *y, size_t n, size_t cap,
	    int keepmax);

#endif /* HTTPERF_REPORT_SVG_H */
