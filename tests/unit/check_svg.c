/*
 * report/svg.c: the SVG plot engine on its own, with no document: the
 * percentile axis' ticks and labels (the 0% left out when the decades
 * squeeze it against the 50%), the seconds axis' nice ticks reaching the
 * plot's extent, the log y axis taken when the series' tops lie decades
 * apart, a dot per point on short series over time, decimation when
 * written, escaped names, the note of an empty plot and the legend.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/svg.h"
#include "unit.h"

static const struct svg_style blue = { "#0072B2", SVG_SOLID, 2, 1 };
static const struct svg_style grey = { "#9a9a9a", SVG_DOTTED, 1, 0 };

/* The plot written into a string (freed by the caller); pl freed. */
static char *
written(struct svg_plot *pl)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	ck_assert_ptr_nonnull(f);
	svg_plot_write(f, pl);
	ck_assert_int_eq(fclose(f), 0);
	svg_plot_free(pl);
	return s;
}

/* How many times `what' is in s. */
static size_t
count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* The labels of s's ticks of text-anchor `anchor' (the y axis' "end",
   the x axis' "middle"), each followed by a space, into out. */
static void
ticks(const char *s, const char *anchor, char *out, size_t size)
{
	char pat[64];
	const char *p, *e;
	size_t n = 0, plen;

	plen = (size_t)snprintf(pat, sizeof(pat), "text-anchor=\"%s\">",
	    anchor);
	out[0] = '\0';
	while ((p = strstr(s, "<text class=\"tick\"")) != NULL) {
		e = strchr(p, '>') + 1;		/* the label's start */
		s = e;
		if ((size_t)(e - p) < plen || strncmp(e - plen, pat, plen) != 0)
			continue;
		p = strchr(e, '<');
		ck_assert_ptr_nonnull(p);
		n += (size_t)snprintf(out + n, size - n, "%.*s ", (int)(p - e),
		    e);
		ck_assert_uint_lt(n, size);
	}
}

/* A series of n points: x = i * dx, y = y0 + i * dy. */
static struct svg_series *
line(struct svg_plot *pl, const char *name, size_t n, double dx, double y0,
    double dy, const struct svg_style *st)
{
	struct svg_series *s = svg_plot_add(pl, strdup(name), n, st);
	size_t i;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < n; i++) {
		s->x[i] = (double)i * dx;
		s->y[i] = y0 + (double)i * dy;
	}
	s->n = n;
	return s;
}

START_TEST(test_pct_axis)
{
	struct svg_plot pl;
	char t[512], *s;

	svg_plot_init(&pl, "p", "P", "ms", SVG_X_PCT);
	line(&pl, "a", 100, 0.04, 1, 0.1, &blue);
	s = written(&pl);
	ticks(s, "middle", t, sizeof(t));
	ck_assert_str_eq(t, "0% 50% 90% 99% 99.9% 99.99% ");
	ck_assert(strstr(s, ">percentile</text>") != NULL);
	free(s);

	/* Nine decades: 50% is 472 / 9 * log10(2) = 15.8 units from the
	   origin, under the 24 two labels need: no "0%". */
	svg_plot_init(&pl, "p", "P", "ms", SVG_X_PCT);
	pl.decades = 9;
	line(&pl, "a", 100, 0.09, 1, 0.1, &blue);
	s = written(&pl);
	ticks(s, "middle", t, sizeof(t));
	ck_assert_str_eq(t, "50% 90% 99% 99.9% 99.99% 99.999% 99.9999% "
	    "99.99999% 99.999999% 99.9999999% ");
	free(s);
}
END_TEST

START_TEST(test_seconds_axis)
{
	struct svg_plot pl;
	char t[512], *s;

	/* Data to 4 s, the test to 9.5 s: ticks 0..10 by 2. */
	svg_plot_init(&pl, "s", "S", "replies/s", SVG_X_SECONDS);
	pl.xext = 9.5;
	line(&pl, "a", 5, 1, 0, 2.5, &blue);
	s = written(&pl);
	ticks(s, "middle", t, sizeof(t));
	ck_assert_str_eq(t, "0 2 4 6 8 10 ");
	ticks(s, "end", t, sizeof(t));
	ck_assert_str_eq(t, "0 2 4 6 8 10 ");
	ck_assert(strstr(s, ">time since start [s]</text>") != NULL);
	ck_assert(strstr(s, "replies/s (log)") == NULL);
	/* A dot per point, its value on hover. */
	ck_assert_uint_eq(count(s, "<circle class=\"pt\""), 5);
	ck_assert(strstr(s, "<title>a: 7.500 replies/s at 3.0 s</title>")
	    != NULL);
	free(s);

	/* Over 60 points: no dots. */
	svg_plot_init(&pl, "s", "S", "ms", SVG_X_SECONDS);
	line(&pl, "a", 61, 0.5, 0.25, 0.5, &blue);
	s = written(&pl);
	ck_assert_uint_eq(count(s, "<circle"), 0);
	ck_assert(strstr(s, "data-points=\"61\"") != NULL);
	ticks(s, "middle", t, sizeof(t));
	ck_assert_str_eq(t, "0 5 10 15 20 25 30 ");
	free(s);
}
END_TEST

START_TEST(test_log_y)
{
	struct svg_plot pl;
	char t[512], *s;

	/* Tops 0.02 and 30 ms: 1500 times apart, a log axis from 0.01 to
	   100, a tick a decade (more than 2.5 decades: no 2 and 5). */
	svg_plot_init(&pl, "l", "L", "ms", SVG_X_PCT);
	pl.maybe_ylog = 1;
	line(&pl, "small", 3, 1, 0.01, 0.005, &blue);
	line(&pl, "big", 3, 1, 10, 10, &blue);
	s = written(&pl);
	ticks(s, "end", t, sizeof(t));
	ck_assert_str_eq(t, "0.01 0.1 1 10 100 ");
	ck_assert(strstr(s, ">ms (log)</text>") != NULL);
	free(s);

	/* Tops 50 times apart: linear. */
	svg_plot_init(&pl, "l", "L", "ms", SVG_X_PCT);
	pl.maybe_ylog = 1;
	line(&pl, "small", 3, 1, 0.2, 0, &blue);
	line(&pl, "big", 3, 1, 10, 0, &blue);
	s = written(&pl);
	ticks(s, "end", t, sizeof(t));
	ck_assert_str_eq(t, "0 2 4 6 8 10 ");
	ck_assert(strstr(s, "(log)") == NULL);
	free(s);

	/* Not allowed one: linear however far apart. */
	svg_plot_init(&pl, "l", "L", "ms", SVG_X_PCT);
	line(&pl, "small", 3, 1, 0.01, 0, &blue);
	line(&pl, "big", 3, 1, 10, 0, &blue);
	s = written(&pl);
	ck_assert(strstr(s, "(log)") == NULL);
	free(s);
}
END_TEST

START_TEST(test_decimate_on_write)
{
	struct svg_plot pl;
	struct svg_series *sr;
	char *s;

	/* 5000 points of a latency over time, one peak: 2000 drawn, the
	   peak among them (keepmax). */
	svg_plot_init(&pl, "d", "D", "ms", SVG_X_SECONDS);
	pl.keepmax = 1;
	sr = line(&pl, "p99", 5000, 0.01, 1, 0, &blue);
	sr->y[3333] = 1000;
	s = written(&pl);
	ck_assert(strstr(s, "data-points=\"2000\"") != NULL);
	ck_assert_uint_eq(count(strstr(s, "points=\"") + 8, ","), 2000);
	/* The y axis reaches the peak: 0 .. 1000 by 200. */
	ck_assert(strstr(s, ">1000</text>") != NULL);
	free(s);
}
END_TEST

START_TEST(test_names_legend_note)
{
	struct svg_plot pl;
	struct svg_series *sr;
	char *s;

	svg_plot_init(&pl, "e", "<T&>", "a\"b", SVG_X_PCT);
	sr = line(&pl, "<a&b>", 1, 0, 5, 0, &blue);
	sr->tip = strdup("tip 'x'");
	line(&pl, "hidden", 2, 1, 1, 1, &grey);
	pl.extra_legend = strdup("each of the 9 clients");
	pl.extra_st = grey;
	s = written(&pl);
	ck_assert(strstr(s, "<figure class=\"plot\" id=\"plot-e\">\n"
	    "<figcaption>&lt;T&amp;&gt;</figcaption>") != NULL);
	ck_assert(strstr(s, "data-series=\"&lt;a&amp;b&gt;\" data-points=\"1\"")
	    != NULL);
	ck_assert(strstr(s, "<title>tip &#39;x&#39;</title></circle>") != NULL);
	ck_assert(strstr(s, ">a&quot;b</text>") != NULL);
	/* The legend: the series in it, then the extra entry; not the
	   grey one. */
	ck_assert(strstr(s, "<ul class=\"legend\">") != NULL);
	ck_assert(strstr(s, "</svg>&lt;a&amp;b&gt;</li>") != NULL);
	ck_assert(strstr(s, "stroke-dasharray=\"2 3\"/></svg>each of the 9 "
	    "clients</li></ul>") != NULL);
	ck_assert(strstr(s, "</svg>hidden</li>") == NULL);
	ck_assert_uint_eq(count(s, "<li>"), 2);
	free(s);

	/* Nothing to draw: the note, no series, no legend. */
	svg_plot_init(&pl, "n", "N", "ms", SVG_X_SECONDS);
	pl.note = "no replies";
	ck_assert_ptr_null(svg_plot_add(&pl, NULL, 3, &blue));
	line(&pl, "dropped", 3, 1, 1, 1, &blue);
	svg_plot_drop_last(&pl);
	s = written(&pl);
	ck_assert(strstr(s, "<text class=\"note\"") != NULL);
	ck_assert(strstr(s, ">no replies</text>\n</svg>\n</figure>\n") != NULL);
	ck_assert_uint_eq(count(s, "<polyline"), 0);
	ck_assert(strstr(s, "legend") == NULL);
	free(s);
}
END_TEST

START_TEST(test_nice_ticks)
{
	double t[16], step;
	size_t n;

	/* 0.3 / 0.1 is not 4 steps. */
	n = svg_nice_ticks(0, 0.3, 3, t, 16, &step);
	ck_assert_uint_eq(n, 4);
	ck_assert(step > 0.099 && step < 0.101);
	/* From the multiple below lo to the one above hi. */
	n = svg_nice_ticks(13, 87, 5, t, 16, &step);
	ck_assert(step == 20);
	ck_assert_uint_eq(n, 6);
	ck_assert(t[0] == 0 && t[5] == 100);
	/* NaN and an empty range: 0 .. 1. */
	n = svg_nice_ticks(0.0 / 0.0, 1, 5, t, 16, &step);
	ck_assert(t[0] == 0 && t[n - 1] == 1);
	n = svg_nice_ticks(7, 7, 5, t, 16, &step);
	ck_assert(t[0] == 7 && t[n - 1] == 8);
}
END_TEST

/* A series at the points x[] (n of them), y = 10 x. */
static struct svg_series *
at(struct svg_plot *pl, const char *name, const double *x, size_t n)
{
	struct svg_series *s = svg_plot_add(pl, strdup(name), n, &blue);
	size_t i;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < n; i++) {
		s->x[i] = x[i];
		s->y[i] = 10 * x[i];
	}
	s->n = n;
	return s;
}

START_TEST(test_rate_axis)
{
	static const double lin[] = { 100, 200, 300 };
	static const double geo[] = { 50, 100, 200, 400 };
	static const double wide[] = { 1, 30, 5000 };
	struct svg_plot pl;
	char t[512], *s;

	/* Linear from 0, nice ticks; a dot per step, its rate on hover. */
	svg_plot_init(&pl, "r", "R", "per second", SVG_X_RATE);
	pl.xlabel = "offered [req/s]";
	at(&pl, "a", lin, 3);
	s = written(&pl);
	ticks(s, "middle", t, sizeof(t));
	ck_assert_str_eq(t, "0 50 100 150 200 250 300 ");
	ck_assert(strstr(s, ">offered [req/s]</text>") != NULL);
	ck_assert_uint_eq(count(s, "<circle class=\"pt\""), 3);
	ck_assert(strstr(s, "<title>a: 2000.0 per second at 200.0 offered "
	    "[req/s]</title>") != NULL);
	free(s);

	/* Log: from the 1-2-5 value at or below the lowest to the one at
	   or above the highest, a tick at each. */
	svg_plot_init(&pl, "r", "R", "ms", SVG_X_RATE_LOG);
	pl.xlabel = "offered [conn/s]";
	at(&pl, "a", geo, 4);
	s = written(&pl);
	ticks(s, "middle", t, sizeof(t));
	ck_assert_str_eq(t, "50 100 200 500 ");
	ck_assert(strstr(s, ">offered [conn/s] (log)</text>") != NULL);
	/* 100 is a third of the way from 50 to 500 on it. */
	ck_assert(strstr(s, "<circle class=\"pt\" cx=\"202.1\"") != NULL);
	free(s);

	/* Over 2.5 decades: the decades and the ends. */
	svg_plot_init(&pl, "r", "R", "ms", SVG_X_RATE_LOG);
	at(&pl, "a", wide, 3);
	s = written(&pl);
	ticks(s, "middle", t, sizeof(t));
	ck_assert_str_eq(t, "1 10 100 1000 5000 ");
	free(s);
}
END_TEST

START_TEST(test_rules_marks)
{
	static const double lin[] = { 100, 200, 300 };
	static const struct svg_style red = { "#D55E00", SVG_SOLID, 1.8, 1 };
	struct svg_plot pl;
	struct svg_series *sr;
	char t[512], *s;

	svg_plot_init(&pl, "r", "R", "ms", SVG_X_RATE);
	at(&pl, "a", lin, 3);
	/* A vertical rule at 200: two thirds of the axis (0 to 300). */
	ck_assert_int_eq(svg_plot_rule(&pl, "capacity",
	    strdup("capacity 200.0 req/s"), 200, 1, &blue), 0);
	/* A horizontal one over the data: the y axis reaches it. */
	ck_assert_int_eq(svg_plot_rule(&pl, "objective",
	    strdup("objective p99<5000ms"), 5000, 0, &grey), 0);
	sr = at(&pl, "client-limited", lin + 2, 1);
	sr->marks = 1;
	sr->st = red;
	s = written(&pl);
	ck_assert(strstr(s, "<line class=\"rule\" data-rule=\"capacity\" "
	    "data-at=\"200\" x1=\"374.7\" y1=\"12.0\" x2=\"374.7\" "
	    "y2=\"256.0\"") != NULL);
	ck_assert(strstr(s, "<line class=\"rule\" data-rule=\"objective\" "
	    "data-at=\"5000\" x1=\"60.0\" y1=\"12.0\" x2=\"532.0\" "
	    "y2=\"12.0\"") != NULL);
	ck_assert(strstr(s, ">objective p99&lt;5000ms</text>") != NULL);
	/* The rules' labels are not the axis' ticks. */
	ticks(s, "end", t, sizeof(t));
	ck_assert_str_eq(t, "0 1000 2000 3000 4000 5000 ");
	/* Rings, no line; in the legend with a ring; the rules with a
	   line. */
	ck_assert(strstr(s, "<g class=\"marks\" data-series=\"client-limited"
	    "\" data-points=\"1\"><circle cx=\"532.0\" cy=\"") != NULL);
	ck_assert_uint_eq(count(s, "<polyline"), 1);
	ck_assert(strstr(s, "<circle cx=\"13\" cy=\"5\" r=\"4\" "
	    "fill=\"none\" stroke=\"#D55E00\"") != NULL);
	ck_assert(strstr(s, "</svg>capacity 200.0 req/s</li>") != NULL);
	/* Not when its style says not. */
	ck_assert(strstr(s, "5000ms</li>") == NULL);
	free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("svg");

	tcase_add_test(tc, test_pct_axis);
	tcase_add_test(tc, test_seconds_axis);
	tcase_add_test(tc, test_log_y);
	tcase_add_test(tc, test_decimate_on_write);
	tcase_add_test(tc, test_names_legend_note);
	tcase_add_test(tc, test_nice_ticks);
	tcase_add_test(tc, test_rate_axis);
	tcase_add_test(tc, test_rules_marks);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
