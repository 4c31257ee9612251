/*
 * report/html.c: the page from hand-made result documents: escaping of hostile
 * strings, documents with members missing or of the wrong type, exact
 * point counts of every series, the percentile axis, nice ticks,
 * decimation, merged input with per-client series, a sweep's capacity
 * section.
 */
#include "config.h"

#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "report/html.h"
#include "report/html_util.h"
#include "unit.h"

/* ---- building documents ---- */

struct buf {
	char	*s;
	size_t	 len;
	FILE	*f;
};

static void
buf_open(struct buf *b)
{
	b->s = NULL;
	b->len = 0;
	b->f = open_memstream(&b->s, &b->len);
	ck_assert_ptr_nonnull(b->f);
}

static char *
buf_close(struct buf *b)
{
	ck_assert_int_eq(fclose(b->f), 0);
	return b->s;
}

/*
 * Writes `"name": {histogram}' of n values: n1 of v1 then n - n1 of v2
 * (ns), with its percentiles and its encoding, as stat_json writes it.
 */
static void
hist_json(FILE *f, const char *name, uint64_t n1, uint64_t v1, uint64_t n2,
    uint64_t v2)
{
	struct hdr *h = hdr_new_ns();
	char *enc;
	size_t len;

	hdr_record_n(h, v1, n1);
	hdr_record_n(h, v2, n2);
	ck_assert_int_eq(hdr_encode(h, &enc, &len), 0);
	fprintf(f, "\"%s\": {\"count\": %llu, \"min_ns\": %llu, \"max_ns\": "
	    "%llu, \"percentiles_ns\": {\"p50\": %llu, \"p90\": %llu, "
	    "\"p99\": %llu, \"p99.9\": %llu, \"p99.99\": %llu}, \"hdr\": "
	    "\"%s\"}", name, (unsigned long long)hdr_count(h),
	    (unsigned long long)hdr_min(h), (unsigned long long)hdr_max(h),
	    (unsigned long long)hdr_value_at_percentile(h, 50),
	    (unsigned long long)hdr_value_at_percentile(h, 90),
	    (unsigned long long)hdr_value_at_percentile(h, 99),
	    (unsigned long long)hdr_value_at_percentile(h, 99.9),
	    (unsigned long long)hdr_value_at_percentile(h, 99.99), enc);
	free(enc);
	hdr_free(h);
}

/* One interval record. */
struct iv {
	uint64_t	start, len, arrivals, r2xx, r5xx, connreset;
	uint64_t	rcount, p50, p99;
};

static void
iv_json(FILE *f, const struct iv *v, int sched)
{
	fprintf(f, "{\"start_ns\": %llu, \"length_ns\": %llu, \"arrivals\": "
	    "%llu, \"missed\": 0, \"conns\": 1, \"replies\": {\"1xx\": 0, "
	    "\"2xx\": %llu, \"3xx\": 0, \"4xx\": 0, \"5xx\": %llu}, "
	    "\"errors\": {\"client-timo\": 0, \"socket-timo\": 0, "
	    "\"connrefused\": 0, \"connreset\": %llu, \"fd-unavail\": 0, "
	    "\"addrunavail\": 0, \"ftab-full\": 0, \"other\": 0}, "
	    "\"reply\": {\"count\": %llu, \"p50_ns\": %llu, \"p90_ns\": %llu, "
	    "\"p99_ns\": %llu, \"max_ns\": %llu}",
	    (unsigned long long)v->start, (unsigned long long)v->len,
	    (unsigned long long)v->arrivals, (unsigned long long)v->r2xx,
	    (unsigned long long)v->r5xx, (unsigned long long)v->connreset,
	    (unsigned long long)v->rcount, (unsigned long long)v->p50,
	    (unsigned long long)v->p99, (unsigned long long)v->p99,
	    (unsigned long long)v->p99);
	if (sched)
		fprintf(f, ", \"reply_corrected\": {\"count\": %llu, "
		    "\"p50_ns\": %llu, \"p90_ns\": %llu, \"p99_ns\": %llu, "
		    "\"max_ns\": %llu}, \"lateness\": {\"count\": %llu, "
		    "\"p50_ns\": 1000, \"p90_ns\": 1000, \"p99_ns\": 1000, "
		    "\"max_ns\": 1000}", (unsigned long long)v->rcount,
		    (unsigned long long)v->p50, (unsigned long long)v->p99,
		    (unsigned long long)(v->p99 + 1000),
		    (unsigned long long)(v->p99 + 1000),
		    (unsigned long long)v->arrivals);
	fputc('}', f);
}

/* The three intervals of the known document: the last is half a second
   with no replies (so no reply times), the second has 5xx and resets. */
static const struct iv known_iv[3] = {
	{ 0, 1000000000, 200, 200, 0, 0, 200, 1000000, 2000000 },
	{ 1000000000, 1000000000, 200, 190, 10, 2, 200, 1500000, 9000000 },
	{ 2000000000, 500000000, 100, 0, 0, 0, 0, 0, 0 },
};

/*
 * A run's document.  `reply_n' replies (half 1 ms, half 3 ms); the
 * intervals `ivs' (none when n_iv is SIZE_MAX: no stats.interval); a
 * schedule of target 200/s when sched; `start' the start epoch (s).
 */
static char *
doc_json(const char *host, unsigned id, uint64_t reply_n, int sched,
    const struct iv *ivs, size_t n_iv, uint64_t start)
{
	struct buf b;
	size_t i;

	buf_open(&b);
	fprintf(b.f, "{\"format\": \"httperf-result\", \"schema_version\": 1, "
	    "\"tool\": {\"name\": \"httperf\", \"version\": \"1.0.0\"}, "
	    "\"start\": {\"time\": \"2024-01-02T03:04:05.000000Z\", "
	    "\"epoch_ns\": %llu000000000}, \"end\": {\"time\": "
	    "\"2024-01-02T03:04:07.500000Z\", \"epoch_ns\": 1}, "
	    "\"duration_ns\": 2500000000, \"duration_s\": 2.5, "
	    "\"client\": {\"id\": %u, \"count\": 2, \"ids\": [%u]}, "
	    "\"host\": \"%s\", \"command_line\": \"httperf --uri /\", "
	    "\"options\": {}, \"stats\": {\"basic\": {"
	    "\"connections\": {\"total\": 3, \"rate_per_s\": 1.2, "
	    "\"max_concurrent\": 2}, \"requests\": {\"total\": %llu}, "
	    "\"replies\": {\"total\": %llu, \"status\": {\"1xx\": 0, "
	    "\"2xx\": %llu, \"3xx\": 0, \"4xx\": 0, \"5xx\": 0}}, "
	    "\"errors\": {\"total\": 2, \"client-timo\": 0, \"connreset\": 2}, "
	    "\"histograms\": {", (unsigned long long)start, id, id, host,
	    (unsigned long long)reply_n, (unsigned long long)reply_n,
	    (unsigned long long)reply_n);
	hist_json(b.f, "connection", 1, 2000000000, 0, 0);
	fputs(", ", b.f);
	hist_json(b.f, "connect", 5, 50000, 5, 90000);
	fputs(", ", b.f);
	hist_json(b.f, "first_byte", 0, 0, 0, 0);
	fputs(", ", b.f);
	hist_json(b.f, "reply", reply_n / 2, 1000000, reply_n - reply_n / 2,
	    3000000);
	if (sched) {
		fputs(", ", b.f);
		hist_json(b.f, "reply_corrected", reply_n / 2, 1100000,
		    reply_n - reply_n / 2, 3500000);
	}
	fputs("}}", b.f);
	if (sched) {
		fputs(", \"sched\": {\"scheduled\": 500, \"late\": 0, "
		    "\"warning\": {\"fired\": true, \"late\": false, "
		    "\"rate\": true, \"cpu\": false}, \"rate_pct\": 90, "
		    "\"achieved_rate_per_s\": 180, \"scheduled_rate_per_s\": "
		    "200, \"target_rate_per_s\": 200, ", b.f);
		hist_json(b.f, "lateness", 400, 1000, 100, 5000);
		fputc('}', b.f);
	}
	if (n_iv != SIZE_MAX) {
		fprintf(b.f, ", \"interval\": {\"period_ns\": 1000000000, "
		    "\"target_rate_per_s\": %d, \"intervals\": [",
		    sched ? 200 : 0);
		for (i = 0; i < n_iv; i++) {
			if (i > 0)
				fputs(", ", b.f);
			iv_json(b.f, &ivs[i], sched);
		}
		fputs("]}", b.f);
	}
	fputs("}}", b.f);
	return buf_close(&b);
}

/* doc (freed) with its command line "httperf --uri /" made `cmd' (a JSON
   string's inside). */
static char *
with_cmd(char *doc, const char *cmd)
{
	static const char old[] = "\"command_line\": \"httperf --uri /\"";
	char *p = strstr(doc, old), *s;
	size_t len;

	ck_assert_ptr_nonnull(p);
	len = strlen(doc) + strlen(cmd) + 32;
	s = malloc(len);
	ck_assert_ptr_nonnull(s);
	snprintf(s, len, "%.*s\"command_line\": \"%s\"%s", (int)(p - doc),
	    doc, cmd, p + strlen(old));
	free(doc);
	return s;
}

static struct jv *
parse(const char *text)
{
	char err[200];
	struct jv *v = jv_parse(text, strlen(text), err, sizeof(err));

	ck_assert_msg(v != NULL, "parse: %s", err);
	return v;
}

/* ---- rendering and looking at the page ---- */

static int render_rv;
static char render_err[200];

/* The page of doc (text) with nclients client documents (texts). */
static char *
render(const char *doc, const char *const *clients,
    const char *const *labels, size_t nclients)
{
	struct html_client *cl = NULL;
	struct jv *d = parse(doc);
	struct buf b;
	size_t i;

	if (nclients > 0) {
		cl = calloc(nclients, sizeof(*cl));
		ck_assert_ptr_nonnull(cl);
		for (i = 0; i < nclients; i++) {
			cl[i].doc = parse(clients[i]);
			cl[i].label = labels[i];
		}
	}
	buf_open(&b);
	render_rv = html_write(b.f, d, cl, nclients, render_err,
	    sizeof(render_err));
	buf_close(&b);
	for (i = 0; i < nclients; i++)
		jv_free((struct jv *)(uintptr_t)cl[i].doc);
	free(cl);
	jv_free(d);
	return b.s;
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;
	const char *p = hay;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* The text of figure plot-ID (a copy), or NULL when absent. */
static char *
figure(const char *page, const char *id)
{
	char key[64];
	const char *p, *e;

	snprintf(key, sizeof(key), "<figure class=\"plot\" id=\"plot-%s\">",
	    id);
	if ((p = strstr(page, key)) == NULL)
		return NULL;
	e = strstr(p, "</figure>");
	ck_assert_ptr_nonnull(e);
	return strndup(p, (size_t)(e - p));
}

/* data-points of series `name' in figure `id'; -1 when absent. */
static long
points(const char *page, const char *id, const char *name)
{
	char key[200], *fig;
	const char *p;
	long n;

	if ((fig = figure(page, id)) == NULL)
		return -1;
	snprintf(key, sizeof(key), "data-series=\"%s\" data-points=\"", name);
	if ((p = strstr(fig, key)) == NULL) {
		free(fig);
		return -1;
	}
	n = strtol(p + strlen(key), NULL, 10);
	free(fig);
	return n;
}

/* Attribute `attr' of series `name' in figure `id' (a copy); NULL when
   absent. */
static char *
series_attr(const char *page, const char *id, const char *name,
    const char *attr)
{
	char key[200], *fig, *v = NULL;
	const char *p, *e;

	if ((fig = figure(page, id)) == NULL)
		return NULL;
	snprintf(key, sizeof(key), "data-series=\"%s\" ", name);
	if ((p = strstr(fig, key)) != NULL) {
		snprintf(key, sizeof(key), " %s=\"", attr);
		e = strchr(p, '>');
		if ((p = strstr(p, key)) != NULL && p < e) {
			p += strlen(key);
			v = strndup(p, strcspn(p, "\""));
		}
	}
	free(fig);
	return v;
}

/* Series `name' of figure `id' is drawn in `color', `width' wide. */
static void
series_style(const char *page, const char *id, const char *name,
    const char *color, const char *width)
{
	char *c = series_attr(page, id, name, "stroke");
	char *w = series_attr(page, id, name, "stroke-width");

	ck_assert_msg(c != NULL && w != NULL, "%s: no series %s", id, name);
	ck_assert_msg(strcmp(c, color) == 0, "%s: %s in %s, not %s", id, name,
	    c, color);
	ck_assert_msg(strcmp(w, width) == 0, "%s: %s %s wide, not %s", id,
	    name, w, width);
	free(c);
	free(w);
}

/* The number of series in figure id (-1: no figure). */
static long
nseries(const char *page, const char *id)
{
	char *fig = figure(page, id);
	long n;

	if (fig == NULL)
		return -1;
	n = (long)count(fig, "<polyline class=\"series\"");
	free(fig);
	return n;
}

/*
 * The page is whole: the doctype first, the CSP, </html> last, every
 * figure and svg closed, no script and no URL, points attributes holding
 * data-points pairs of numbers.
 */
static void
check_page(const char *page)
{
	const char *p, *q;
	long n, k;
	size_t i;
	char *lower;

	ck_assert_msg(strncmp(page, "<!DOCTYPE html>\n", 16) == 0,
	    "no doctype");
	ck_assert_ptr_nonnull(strstr(page, "<meta charset=\"utf-8\">"));
	ck_assert_ptr_nonnull(strstr(page, "<meta http-equiv=\""
	    "Content-Security-Policy\" content=\"default-src 'none'; "
	    "style-src 'unsafe-inline'; img-src data:\">"));
	ck_assert_uint_ge(strlen(page), 8);
	ck_assert_str_eq(page + strlen(page) - 8, "</html>\n");
	ck_assert_uint_eq(count(page, "<figure"), count(page, "</figure>"));
	ck_assert_uint_eq(count(page, "<svg"), count(page, "</svg>"));
	ck_assert_uint_eq(count(page, "<polyline"), count(page,
	    "</polyline>"));
	lower = strdup(page);
	for (i = 0; lower[i] != '\0'; i++)
		lower[i] = (char)tolower((unsigned char)lower[i]);
	ck_assert_ptr_null(strstr(lower, "<script"));
	ck_assert_ptr_null(strstr(lower, "http:"));
	ck_assert_ptr_null(strstr(lower, "https:"));
	ck_assert_ptr_null(strstr(lower, "url("));
	/* No number printed as nan or inf. */
	ck_assert_ptr_null(strstr(lower, "nan,"));
	ck_assert_ptr_null(strstr(lower, ",nan"));
	ck_assert_ptr_null(strstr(lower, ">nan"));
	ck_assert_ptr_null(strstr(lower, "inf,"));
	ck_assert_ptr_null(strstr(lower, ",inf"));
	ck_assert_ptr_null(strstr(lower, ">inf"));
	ck_assert_ptr_null(strstr(lower, "-inf"));
	free(lower);
	/* Every series: data-points N >= 1 and N pairs in points. */
	for (p = page; (p = strstr(p, "data-points=\"")) != NULL; p = q) {
		n = strtol(p + 13, NULL, 10);
		ck_assert_int_ge(n, 1);
		q = strstr(p, " points=\"");
		ck_assert_ptr_nonnull(q);
		q += 9;
		for (k = 0; *q != '"'; q++)
			if (*q == ',')
				k++;
		ck_assert_int_eq(k, n);
	}
}

/* ---- tests ---- */

START_TEST(test_escape)
{
	struct buf b;
	char *s;

	buf_open(&b);
	html_escape(b.f, "<script>alert(\"x&y\")</script>'\x01\t");
	html_escape(b.f, NULL);
	s = buf_close(&b);
	ck_assert_str_eq(s, "&lt;script&gt;alert(&quot;x&amp;y&quot;)"
	    "&lt;/script&gt;&#39;&#xFFFD;\t");
	free(s);
}
END_TEST

/* Hostile strings in the document and in a client's label. */
START_TEST(test_hostile)
{
	static const char doc[] = "{\"command_line\": \"httperf --uri "
	    "'/<script>alert(1)</script>' --add-header \\\"A: b&c\\\"\", "
	    "\"host\": \"<b onmouseover=x>h&amp;</b>\", \"tool\": {\"name\": "
	    "\"</title><script>\", \"version\": \"<img src=x>\"}, "
	    "\"start\": {\"time\": \"\\\"><svg onload=alert(1)>\"}, "
	    "\"client\": {\"ids\": [0, 1]}, "
	    "\"stats\": {\"basic\": {\"errors\": {\"total\": 1, "
	    "\"<i>evil</i>\": 1}, \"histograms\": {\"<u>x</u>\": "
	    "{\"count\": 1}}}}}";
	/* The heading of a merge shows the clients' command lines. */
	static const char *const cl[] = { "{\"command_line\": \"httperf "
	    "--uri '/<script>alert(1)</script>' --add-header \\\"A: "
	    "b&c\\\"\"}", "{\"stats\": 1}" };
	static const char *const lab[] = { "client 0 (<svg onload=x>)",
		"client 1 (\"q\" & 'a')" };
	char *page = render(doc, cl, lab, 2), *solo;

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_ptr_nonnull(strstr(page, "<tr><th scope=\"row\">client 0 "
	    "(&lt;svg onload=x&gt;)</th><td class=\"cmd\">httperf --uri "
	    "&#39;/&lt;script&gt;alert(1)&lt;/script&gt;&#39; --add-header "
	    "&quot;A: b&amp;c&quot;</td></tr>"));
	ck_assert_ptr_nonnull(strstr(page, "<tr><th scope=\"row\">client 1 "
	    "(&quot;q&quot; &amp; &#39;a&#39;)</th><td class=\"cmd\">n/a"
	    "</td></tr>"));
	/* The page of the document alone: its own command line. */
	solo = render(doc, NULL, NULL, 0);
	ck_assert_int_eq(render_rv, 0);
	check_page(solo);
	ck_assert_ptr_nonnull(strstr(solo, "<pre class=\"cmd\">httperf --uri "
	    "&#39;/&lt;script&gt;alert(1)&lt;/script&gt;&#39; --add-header "
	    "&quot;A: b&amp;c&quot;</pre>"));
	free(solo);
	ck_assert_ptr_nonnull(strstr(page, "&lt;b onmouseover=x&gt;h&amp;amp;"
	    "&lt;/b&gt;"));
	ck_assert_ptr_nonnull(strstr(page, "&lt;/title&gt;&lt;script&gt;"));
	ck_assert_ptr_nonnull(strstr(page, "&lt;img src=x&gt;"));
	ck_assert_ptr_nonnull(strstr(page, "&quot;&gt;&lt;svg onload="
	    "alert(1)&gt;"));
	ck_assert_ptr_nonnull(strstr(page, "&lt;i&gt;evil&lt;/i&gt; 1"));
	ck_assert_ptr_nonnull(strstr(page, "&lt;u&gt;x&lt;/u&gt;"));
	ck_assert_ptr_null(strstr(page, "<b "));
	ck_assert_ptr_null(strstr(page, "<img"));
	ck_assert_ptr_null(strstr(page, "<i>"));
	ck_assert_ptr_null(strstr(page, "<u>"));
	ck_assert_ptr_null(strstr(page, "<svg onload"));
	ck_assert_ptr_null(strstr(page, "'/<"));
	free(page);
}
END_TEST

/* Hostile client labels reach the series names escaped. */
START_TEST(test_hostile_label)
{
	static const struct iv one = { 0, 1000000000, 0, 5, 0, 0, 5, 1000,
		2000 };
	char *d = doc_json("h", 0, 10, 0, &one, 1, 100);
	const char *const cl[] = { d };
	static const char *const lab[] = { "c \"><script>x</script>&" };
	char *page = render(d, cl, lab, 1);

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_int_eq(points(page, "pct-reply", "c &quot;&gt;&lt;script"
	    "&gt;x&lt;/script&gt;&amp;"), HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "iv-rate", "c &quot;&gt;&lt;script"
	    "&gt;x&lt;/script&gt;&amp;"), 1);
	ck_assert_int_eq(points(page, "iv-latency", "c &quot;&gt;&lt;script"
	    "&gt;x&lt;/script&gt;&amp; p99"), 1);
	free(page);
	free(d);
}
END_TEST

/* A document that is no result at all: an error, nothing written. */
START_TEST(test_no_basic)
{
	static const char *const docs[] = { "{}", "[]", "1", "null",
		"{\"stats\": {}}", "{\"stats\": {\"basic\": []}}",
		"{\"stats\": {\"basic\": \"x\"}}" };
	struct buf b;
	struct jv *d;
	char err[100], *s;
	size_t i;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		d = parse(docs[i]);
		buf_open(&b);
		ck_assert_int_eq(html_write(b.f, d, NULL, 0, err,
		    sizeof(err)), -1);
		s = buf_close(&b);
		ck_assert_str_eq(s, "");
		ck_assert_msg(strstr(err, "stats.basic") != NULL, "%s", err);
		free(s);
		jv_free(d);
	}
	ck_assert_int_eq(html_write(stdout, NULL, NULL, 0, NULL, 0), -1);
}
END_TEST

/* Every member but stats.basic missing: a whole page of "n/a" and notes. */
START_TEST(test_missing)
{
	char *page = render("{\"stats\": {\"basic\": {}}}", NULL, NULL, 0);
	char *fig;

	ck_assert_int_eq(render_rv, 0);
	ck_assert_str_eq(render_err, "");
	check_page(page);
	ck_assert_uint_eq(count(page, "<polyline"), 0);
	ck_assert_uint_ge(count(page, "n/a"), 10);
	ck_assert_ptr_nonnull(strstr(page, "id=\"no-interval\""));
	ck_assert_int_eq(nseries(page, "pct-reply"), 0);
	ck_assert_int_eq(nseries(page, "pct-phases"), 0);
	/* No schedule: the lateness figure is a note, no plot. */
	fig = figure(page, "pct-lateness");
	ck_assert_ptr_nonnull(fig);
	ck_assert_ptr_null(strstr(fig, "<svg"));
	ck_assert_ptr_nonnull(strstr(fig, "class=\"note\""));
	free(fig);
	ck_assert_int_eq(nseries(page, "iv-rate"), -1);
	ck_assert_int_eq(nseries(page, "iv-errors"), -1);
	free(page);
}
END_TEST

/* Members of the wrong type, broken histograms, odd interval records. */
START_TEST(test_wrong_types)
{
	static const char doc[] = "{\"command_line\": 7, \"host\": [], "
	    "\"tool\": \"x\", \"start\": 5, \"end\": {\"time\": 1}, "
	    "\"duration_s\": \"long\", \"client\": {\"ids\": {\"a\": 1}, "
	    "\"count\": \"2\"}, \"stats\": {\"basic\": {\"connections\": "
	    "\"x\", \"requests\": [], \"replies\": {\"status\": 3}, "
	    "\"errors\": [1, 2], \"net\": null, \"cpu\": true, "
	    "\"histograms\": {\"reply\": {\"hdr\": 5, \"count\": \"x\"}, "
	    "\"reply_corrected\": {\"hdr\": \"HISTFgarbage\", \"count\": 9, "
	    "\"percentiles_ns\": {\"p50\": \"a\", \"p99\": 1e300}}, "
	    "\"connect\": {\"hdr\": \"\"}, \"first_byte\": 4, "
	    "\"transfer\": {\"hdr\": \"HISTFAAAACN4nJNpmSzMwMDAxAABzFCaEch0M9i"
	    "xgMH+A0RgAycAWH4FBg==\"}}}, \"sess_stat\": {\"completed\": \"a\"}, "
	    "\"tls_stat\": {\"time\": 1}, "
	    "\"sched\": {\"warning\": {\"fired\": 1}, \"lateness\": [], "
	    "\"target_rate_per_s\": \"fast\"}, "
	    "\"interval\": {\"period_ns\": -1, \"target_rate_per_s\": -5, "
	    "\"intervals\": [1, \"x\", null, {\"start_ns\": \"a\"}, "
	    "{\"start_ns\": 0, \"length_ns\": 0}, "
	    "{\"start_ns\": -1, \"length_ns\": 5}, "
	    "{\"start_ns\": 0, \"length_ns\": 1e9, \"replies\": {\"2xx\": "
	    "\"many\"}, \"errors\": 3, \"reply\": {\"count\": 2, \"p50_ns\": "
	    "\"x\", \"p99_ns\": 4e6}, \"arrivals\": []}]}}}";
	char *page = render(doc, NULL, NULL, 0);
	char *fig;

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	/* The transfer histogram decodes (600 values of 0). */
	ck_assert_int_eq(nseries(page, "pct-reply"), 0);
	ck_assert_int_eq(points(page, "pct-phases", "Transfer"),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(nseries(page, "pct-phases"), 1);
	ck_assert_uint_eq(count(page, "<circle"), 2);
	/* The one usable record: 0 replies/s, no p50, a p99. */
	ck_assert_int_eq(points(page, "iv-rate", "Achieved"), 1);
	ck_assert_int_eq(nseries(page, "iv-rate"), 1);
	ck_assert_int_eq(nseries(page, "iv-status"), 0);
	ck_assert_int_eq(nseries(page, "iv-errors"), 0);
	ck_assert_int_eq(points(page, "iv-latency", "p99"), 1);
	ck_assert_int_eq(nseries(page, "iv-latency"), 1);
	ck_assert_int_eq(nseries(page, "pct-lateness"), 0);
	fig = figure(page, "iv-errors");
	ck_assert_ptr_nonnull(strstr(fig, ">no errors</text>"));
	ck_assert_ptr_nonnull(strstr(fig, "<svg"));
	free(fig);
	/* The warning's "fired" is not a boolean: no box. */
	ck_assert_ptr_null(strstr(page, "class=\"warn\""));
	free(page);
}
END_TEST

/* The known document: every series and its exact number of points. */
START_TEST(test_counts)
{
	char *d = doc_json("host-a", 0, 1000, 1, known_iv, 3, 100);
	char *page = render(d, NULL, NULL, 0);
	char *fig;

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_int_eq(points(page, "pct-reply", "Reply time"),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-reply", "Reply time (corrected)"),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(nseries(page, "pct-reply"), 2);
	/* connection: one value, one point; first_byte empty: none. */
	ck_assert_int_eq(points(page, "pct-phases", "Connection"), 1);
	ck_assert_int_eq(points(page, "pct-phases", "Connect"),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-phases", "First byte"), -1);
	ck_assert_int_eq(nseries(page, "pct-phases"), 2);
	fig = figure(page, "pct-phases");
	ck_assert_uint_eq(count(fig, "<circle"), 1);
	/* 2 s against 50 us: a log axis. */
	ck_assert_ptr_nonnull(strstr(fig, "ms (log)</text>"));
	free(fig);
	ck_assert_int_eq(points(page, "iv-rate", "Achieved"), 3);
	ck_assert_int_eq(points(page, "iv-rate", "Arrivals"), 3);
	ck_assert_int_eq(points(page, "iv-rate", "Target"), 2);
	ck_assert_int_eq(nseries(page, "iv-rate"), 3);
	ck_assert_int_eq(points(page, "iv-status", "2xx"), 3);
	ck_assert_int_eq(points(page, "iv-status", "5xx"), 3);
	ck_assert_int_eq(nseries(page, "iv-status"), 2);
	ck_assert_int_eq(points(page, "iv-errors", "connreset"), 3);
	ck_assert_int_eq(nseries(page, "iv-errors"), 1);
	ck_assert_int_eq(points(page, "iv-latency", "p50"), 2);
	ck_assert_int_eq(points(page, "iv-latency", "p99"), 2);
	ck_assert_int_eq(points(page, "iv-latency", "p99 (corrected)"), 2);
	ck_assert_int_eq(nseries(page, "iv-latency"), 3);
	ck_assert_int_eq(points(page, "pct-lateness", "Lateness"),
	    HTML_PCT_POINTS);
	/* The totals and the percentile table. */
	ck_assert_ptr_nonnull(strstr(page, "connreset 2"));
	ck_assert_ptr_nonnull(strstr(page, "<th scope=\"row\">Reply time</th>"
	    "<td class=\"n\">1000</td><td class=\"n\">1.000</td>"));
	ck_assert_ptr_nonnull(strstr(page, "class=\"warn\""));
	ck_assert_ptr_nonnull(strstr(page, "achieved arrival rate 180.0/s is "
	    "90.0% of the scheduled 200.0/s"));
	ck_assert_ptr_null(strstr(page, "no-interval"));
	free(page);
	free(d);
}
END_TEST

/*
 * A last interval of 0.4 ms (as older versions wrote): not drawn on the
 * rate plots (no cliff to 0/s at the end); a last one of a quarter of a
 * period or more is.
 */
START_TEST(test_sliver)
{
	struct iv v[3];
	char *d, *page;

	memcpy(v, known_iv, sizeof(v));
	v[2].len = 400000;
	d = doc_json("h", 0, 1000, 1, v, 3, 100);
	page = render(d, NULL, NULL, 0);
	ck_assert_int_eq(render_rv, 0);
	ck_assert_int_eq(points(page, "iv-rate", "Achieved"), 2);
	ck_assert_int_eq(points(page, "iv-rate", "Arrivals"), 2);
	ck_assert_int_eq(points(page, "iv-status", "2xx"), 2);
	ck_assert_int_eq(points(page, "iv-errors", "connreset"), 2);
	free(page);
	free(d);
	v[2].len = 250000000;
	d = doc_json("h", 0, 1000, 1, v, 3, 100);
	page = render(d, NULL, NULL, 0);
	ck_assert_int_eq(points(page, "iv-rate", "Achieved"), 3);
	free(page);
	free(d);
}
END_TEST

/* Without a schedule: no arrivals, target, corrected or lateness. */
START_TEST(test_no_sched)
{
	char *d = doc_json("h", 0, 10, 0, known_iv, 3, 100);
	char *page = render(d, NULL, NULL, 0);
	char *fig;

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_int_eq(nseries(page, "pct-reply"), 1);
	ck_assert_int_eq(points(page, "iv-rate", "Achieved"), 3);
	ck_assert_int_eq(nseries(page, "iv-rate"), 1);
	ck_assert_int_eq(nseries(page, "iv-latency"), 2);
	fig = figure(page, "pct-lateness");
	ck_assert_ptr_nonnull(fig);
	ck_assert_ptr_null(strstr(fig, "<svg"));
	ck_assert_ptr_nonnull(strstr(fig, "class=\"note\""));
	free(fig);
	free(page);
	free(d);
}
END_TEST

/* The x of tick label `label' in figure `id'. */
static double
tick_x(const char *page, const char *id, const char *label)
{
	char key[64], *fig = figure(page, id);
	const char *p, *q;
	double x;

	ck_assert_ptr_nonnull(fig);
	snprintf(key, sizeof(key), "text-anchor=\"middle\">%s</text>", label);
	p = strstr(fig, key);
	ck_assert_msg(p != NULL, "no tick %s", label);
	for (q = p; q > fig && strncmp(q, "<text", 5) != 0; q--)
		;
	q = strstr(q, " x=\"");
	ck_assert_ptr_nonnull(q);
	x = strtod(q + 4, NULL);
	free(fig);
	return x;
}

/* Is there a tick label `label' in figure `id'? */
static int
has_tick(const char *page, const char *id, const char *label)
{
	char key[64], *fig = figure(page, id);
	int has;

	ck_assert_ptr_nonnull(fig);
	snprintf(key, sizeof(key), "text-anchor=\"middle\">%s</text>", label);
	has = strstr(fig, key) != NULL;
	free(fig);
	return has;
}

/* The percentile ticks 0% (when it fits), 50%, 90%, ... of every
   percentile plot, at their places on the log axis. */
static void
pct_ticks_are(const char *page, const char *id, int decades, int zero)
{
	static const char *const tick[] = { "90%", "99%", "99.9%",
		"99.99%", "99.999%", "99.9999%", "99.99999%", "99.999999%",
		"99.9999999%", "99.99999999%" };
	double x0, x50, x[10], w;
	int i;

	ck_assert_int_eq(has_tick(page, id, "0%"), zero);
	ck_assert_msg(has_tick(page, id, "50%"), "%s: no 50%%", id);
	for (i = 0; i < decades; i++)
		x[i] = tick_x(page, id, tick[i]);
	ck_assert_msg(!has_tick(page, id, tick[decades]), "%s: %s", id,
	    tick[decades]);
	/* A decade each, evenly. */
	w = (x[decades - 1] - x[0]) / (decades - 1);
	ck_assert(w > 40);
	for (i = 1; i < decades; i++)
		ck_assert_msg(fabs(x[i] - x[i - 1] - w) < 0.15,
		    "%s: tick %s at %g", id, tick[i], x[i]);
	/* 50% at log10(2) of a decade from the origin (0% is there). */
	x0 = x[0] - w;
	if (zero)
		ck_assert(fabs(tick_x(page, id, "0%") - x0) < 0.15);
	x50 = tick_x(page, id, "50%");
	ck_assert_msg(fabs(x50 - x0 - w * log10(2)) < 0.15,
	    "%s: 50%% at %g, 0%% at %g, a decade %g", id, x50, x0, w);
}

START_TEST(test_pct_axis)
{
	char *d, *page;

	ck_assert(html_pct_pos(0) == 0);
	ck_assert(fabs(html_pct_pos(90) - 1) < 1e-12);
	ck_assert(fabs(html_pct_pos(99) - 2) < 1e-12);
	ck_assert(fabs(html_pct_pos(99.9) - 3) < 1e-9);
	ck_assert(fabs(html_pct_pos(99.99) - 4) < 1e-9);
	ck_assert(fabs(html_pct_pos(50) - log10(2)) < 1e-12);
	ck_assert(html_pct_pos(-5) == 0);
	ck_assert(html_pct_pos(100) == 12);

	/* 1000 replies: 0%, 50%, 90% .. 99.99% (a log axis), on the reply
	   times, the phases and the lateness alike. */
	d = doc_json("h", 0, 1000, 1, known_iv, 3, 100);
	page = render(d, NULL, NULL, 0);
	pct_ticks_are(page, "pct-reply", 4, 1);
	pct_ticks_are(page, "pct-phases", 4, 1);
	pct_ticks_are(page, "pct-lateness", 4, 1);
	free(page);
	free(d);

	/* 200,000 replies: 99.999% too. */
	d = doc_json("h", 0, 200000, 1, known_iv, 3, 100);
	page = render(d, NULL, NULL, 0);
	pct_ticks_are(page, "pct-reply", 5, 1);
	free(page);
	free(d);

	/* 20,000,000: 7 decades; 0% and 50% would run into each other:
	   the origin goes without its label. */
	d = doc_json("h", 0, 20000000, 1, known_iv, 3, 100);
	page = render(d, NULL, NULL, 0);
	pct_ticks_are(page, "pct-reply", 7, 0);
	free(page);
	free(d);
}
END_TEST

static void
ticks_are(double lo, double hi, size_t target, const double *want,
    size_t nwant, double wstep)
{
	double t[32], step;
	size_t n, i;

	n = html_nice_ticks(lo, hi, target, t, 32, &step);
	ck_assert_msg(n == nwant, "%g..%g: %zu ticks", lo, hi, n);
	ck_assert_msg(fabs(step - wstep) < 1e-12 * wstep, "step %g", step);
	for (i = 0; i < n; i++)
		ck_assert_msg(fabs(t[i] - want[i]) < 1e-9 * (fabs(want[i]) + 1),
		    "%g..%g: tick %zu %g, want %g", lo, hi, i, t[i], want[i]);
}

START_TEST(test_nice_ticks)
{
	static const double a[] = { 0, 2, 4, 6, 8 };
	static const double b[] = { 0, 0.2, 0.4, 0.6, 0.8, 1 };
	static const double c[] = { 0, 50, 100, 150, 200 };
	static const double d[] = { 2, 4, 6, 8, 10 };
	static const double e[] = { 0, 500, 1000, 1500 };
	static const double f[] = { 0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3 };
	double t[32], step, m;
	size_t n, i, k;
	unsigned seed = 12345;

	ticks_are(0, 7.3, 5, a, 5, 2);
	ticks_are(0, 1, 5, b, 6, 0.2);
	ticks_are(0, 0, 5, b, 6, 0.2);
	ticks_are(0, 200, 5, c, 5, 50);
	ticks_are(3.2, 9.1, 5, d, 5, 2);
	ticks_are(0, 1234, 5, e, 4, 500);
	ticks_are(0, 0.3, 8, f, 7, 0.05);
	/* The cap on the number written. */
	n = html_nice_ticks(0, 1, 5, t, 3, &step);
	ck_assert_uint_eq(n, 3);
	/* Any range: 1-2-5 steps, the range covered, few ticks. */
	for (k = 0; k < 2000; k++) {
		double lo, hi;

		seed = seed * 1103515245 + 12345;
		lo = (double)(seed >> 8 & 0xffff) / 100;
		seed = seed * 1103515245 + 12345;
		hi = lo + pow(10, (double)(seed >> 8 & 0xff) / 30 - 3);
		n = html_nice_ticks(lo, hi, 5, t, 32, &step);
		m = step / pow(10, floor(log10(step) + 1e-9));
		ck_assert_msg(fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 ||
		    fabs(m - 5) < 1e-6, "step %g", step);
		ck_assert(t[0] <= lo + step * 1e-6);
		ck_assert(t[n - 1] >= hi - step * 1e-6);
		ck_assert_uint_le(n, 7);
		ck_assert_uint_ge(n, 2);
		for (i = 1; i < n; i++)
			ck_assert(fabs(t[i] - t[i - 1] - step) < step * 1e-6);
	}
}
END_TEST

START_TEST(test_decimate)
{
	double *x = calloc(3600, sizeof(double));
	double *y = calloc(3600, sizeof(double));
	size_t i, n, peaks = 0;

	for (i = 0; i < 3600; i++) {
		x[i] = (double)i;
		y[i] = i == 1234 || i == 3599 ? 100 : i % 2;
	}
	n = html_decimate(x, y, 3600, HTML_MAX_POINTS, 1);
	ck_assert_uint_eq(n, HTML_MAX_POINTS);
	for (i = 0; i < n; i++) {
		if (y[i] == 100)
			peaks++;
		if (i > 0)
			ck_assert(x[i] > x[i - 1]);
	}
	/* Both peaks kept, at their own x. */
	ck_assert_uint_eq(peaks, 2);
	ck_assert(x[n - 1] == 3599);
	/* Means: runs of 1 or 2 points of 0 and 1. */
	for (i = 0; i < 3600; i++) {
		x[i] = (double)i;
		y[i] = 7;
	}
	n = html_decimate(x, y, 3600, 1000, 0);
	ck_assert_uint_eq(n, 1000);
	for (i = 0; i < n; i++)
		ck_assert(y[i] == 7);
	/* Runs of 3.6 points: the first is 0, 1, 2. */
	ck_assert(fabs(x[0] - 1) < 1e-9);
	ck_assert(fabs(x[1] - 4.5) < 1e-9);	/* 3 .. 6 */
	/* Few points: untouched. */
	ck_assert_uint_eq(html_decimate(x, y, 5, 10, 1), 5);
	ck_assert_uint_eq(html_decimate(x, y, 10, 10, 0), 10);
	free(x);
	free(y);
}
END_TEST

/* 3600 intervals: each per-interval series capped at HTML_MAX_POINTS. */
START_TEST(test_huge_intervals)
{
	struct iv *ivs = calloc(3600, sizeof(*ivs));
	char *d, *page, *fig;
	size_t i;

	for (i = 0; i < 3600; i++) {
		ivs[i].start = (uint64_t)i * 1000000000;
		ivs[i].len = 1000000000;
		ivs[i].arrivals = 100;
		ivs[i].r2xx = 100;
		ivs[i].rcount = 100;
		ivs[i].p50 = 1000000;
		/* One peak the decimated series must keep. */
		ivs[i].p99 = i == 1777 ? 987000000 : 2000000;
	}
	d = doc_json("h", 0, 360000, 1, ivs, 3600, 100);
	page = render(d, NULL, NULL, 0);
	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_int_eq(points(page, "iv-rate", "Achieved"), HTML_MAX_POINTS);
	ck_assert_int_eq(points(page, "iv-rate", "Arrivals"), HTML_MAX_POINTS);
	ck_assert_int_eq(points(page, "iv-status", "2xx"), HTML_MAX_POINTS);
	ck_assert_int_eq(points(page, "iv-latency", "p99"), HTML_MAX_POINTS);
	/* The peak of 987 ms is kept: it sets the axis to 0 .. 1000. */
	fig = figure(page, "iv-latency");
	ck_assert_ptr_nonnull(strstr(fig, "text-anchor=\"end\">1000</text>"));
	free(fig);
	ck_assert_int_eq(points(page, "pct-reply", "Reply time"),
	    HTML_PCT_POINTS);
	free(page);
	free(d);
	free(ivs);
}
END_TEST

/* A merge of two clients: per-client series plus the totals. */
START_TEST(test_merged)
{
	static const struct iv civ[2] = {
		{ 0, 1000000000, 100, 100, 0, 0, 100, 1000000, 2000000 },
		{ 1000000000, 1000000000, 100, 100, 0, 0, 100, 1000000,
		    2000000 },
	};
	/* Client 1 had 5xx replies and resets, client 0 none. */
	static const struct iv civ1[1] = {
		{ 0, 1000000000, 100, 90, 10, 3, 100, 1000000, 2000000 },
	};
	static const char *const lab[] = { "client 0 (host-a)",
		"client 1 (host-b)" };
	char *c0 = doc_json("host-a", 0, 200, 1, civ, 2, 100);
	char *c1 = doc_json("host-b", 1, 300, 1, civ1, 1, 101);
	char *m = doc_json("host-a,host-b", 0, 500, 1, known_iv, 3, 100);
	const char *const cl[] = { c0, c1 };
	char *page = render(m, cl, lab, 2);
	char *fig;

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_int_eq(points(page, "pct-reply", lab[0]), HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-reply", lab[1]), HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-reply", "Total"), HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-reply", "Total (corrected)"),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(nseries(page, "pct-reply"), 4);
	ck_assert_int_eq(points(page, "iv-rate", lab[0]), 2);
	ck_assert_int_eq(points(page, "iv-rate", lab[1]), 1);
	ck_assert_int_eq(points(page, "iv-rate", "Total achieved"), 3);
	ck_assert_int_eq(points(page, "iv-rate", "Arrivals"), 3);
	ck_assert_int_eq(points(page, "iv-rate", "Target"), 2);
	ck_assert_int_eq(nseries(page, "iv-rate"), 5);
	ck_assert_int_eq(points(page, "iv-latency", "client 0 (host-a) p99"),
	    2);
	ck_assert_int_eq(points(page, "iv-latency", "client 1 (host-b) p99"),
	    1);
	ck_assert_int_eq(points(page, "iv-latency", "Total p50"), 2);
	ck_assert_int_eq(points(page, "iv-latency", "Total p99"), 2);
	ck_assert_int_eq(points(page, "iv-latency", "Total p99 (corrected)"),
	    2);
	ck_assert_int_eq(points(page, "pct-lateness", lab[0]),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-lateness", lab[1]),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-lateness", "Total"),
	    HTML_PCT_POINTS);
	/* Client 1 started 1 s later: its interval is drawn at 1.5 s, the
	   same x as the total's second one. */
	fig = figure(page, "iv-rate");
	{
		const char *p = strstr(fig, "data-series=\"client 1 (host-b)\"");
		const char *q = strstr(fig, "data-series=\"Total achieved\"");
		double x1, xt;

		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_nonnull(q);
		p = strstr(p, " points=\"");
		q = strstr(q, " points=\"");
		x1 = strtod(p + 9, NULL);
		q = strchr(q, ' ');
		q = strchr(q + 1, ' ');
		xt = strtod(q + 1, NULL);
		ck_assert_msg(fabs(x1 - xt) < 0.05, "%g != %g", x1, xt);
	}
	free(fig);
	ck_assert_ptr_nonnull(strstr(page, "<dt>Clients</dt><dd>2 (ids 0)"));
	/* Status classes: each client's that happened, plus the totals. */
	ck_assert_int_eq(points(page, "iv-status", "client 0 (host-a) 2xx"),
	    2);
	ck_assert_int_eq(points(page, "iv-status", "client 1 (host-b) 2xx"),
	    1);
	ck_assert_int_eq(points(page, "iv-status", "client 1 (host-b) 5xx"),
	    1);
	ck_assert_int_eq(points(page, "iv-status", "client 0 (host-a) 5xx"),
	    -1);
	ck_assert_int_eq(points(page, "iv-status", "Total 2xx"), 3);
	ck_assert_int_eq(points(page, "iv-status", "Total 5xx"), 3);
	ck_assert_int_eq(nseries(page, "iv-status"), 5);
	/* Thin, in the class's colour; the totals wide. */
	series_style(page, "iv-status", "Total 2xx", "#0072B2", "2.6");
	series_style(page, "iv-status", "Total 5xx", "#D55E00", "2.6");
	series_style(page, "iv-status", "client 0 (host-a) 2xx", "#0072B2",
	    "1.2");
	series_style(page, "iv-status", "client 1 (host-b) 5xx", "#D55E00",
	    "1.2");
	fig = figure(page, "iv-status");
	ck_assert_uint_eq(count(fig, "<li>"), 3);
	ck_assert_ptr_nonnull(strstr(fig, "thin: each client (2), in its "
	    "class&#39;s colour</li>"));
	free(fig);
	/* Errors: client 1's resets, the total's. */
	ck_assert_int_eq(points(page, "iv-errors", "client 1 (host-b) "
	    "connreset"), 1);
	ck_assert_int_eq(points(page, "iv-errors", "Total connreset"), 3);
	ck_assert_int_eq(nseries(page, "iv-errors"), 2);
	/* Phases: each client's two, the total's two. */
	ck_assert_int_eq(points(page, "pct-phases", "client 0 (host-a) "
	    "Connection"), 1);
	ck_assert_int_eq(points(page, "pct-phases", "client 0 (host-a) "
	    "Connect"), HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-phases", "client 1 (host-b) "
	    "Connection"), 1);
	ck_assert_int_eq(points(page, "pct-phases", "client 1 (host-b) "
	    "Connect"), HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-phases", "Total Connection"), 1);
	ck_assert_int_eq(points(page, "pct-phases", "Total Connect"),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(nseries(page, "pct-phases"), 6);
	series_style(page, "pct-phases", "client 1 (host-b) Connect",
	    "#D55E00", "1.2");
	series_style(page, "pct-phases", "Total Connect", "#D55E00", "2.6");
	free(page);
	free(c0);
	free(c1);
	free(m);
}
END_TEST

/*
 * A merge of three clients: one with 2xx only, one with 5xx and resets
 * too, one without per-interval data (an older result): every plot has
 * a series per client (that has the data) plus the totals.
 */
START_TEST(test_merged3)
{
	static const struct iv iv0[2] = {
		{ 0, 1000000000, 100, 100, 0, 0, 100, 1000000, 2000000 },
		{ 1000000000, 1000000000, 100, 100, 0, 0, 100, 1000000,
		    2000000 },
	};
	static const struct iv iv1[1] = {
		{ 0, 1000000000, 100, 90, 10, 3, 100, 1000000, 2000000 },
	};
	static const char *const lab[] = { "c0", "c1", "c2" };
	char *c0 = doc_json("a", 0, 200, 1, iv0, 2, 100);
	char *c1 = doc_json("b", 1, 300, 1, iv1, 1, 100);
	char *c2 = doc_json("c", 2, 300, 1, NULL, SIZE_MAX, 100);
	char *m = doc_json("a,b,c", 0, 800, 1, known_iv, 3, 100);
	const char *const cl[] = { c0, c1, c2 };
	char *page = render(m, cl, lab, 3);
	char *fig;

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_int_eq(nseries(page, "pct-reply"), 5);
	ck_assert_int_eq(points(page, "pct-reply", "c2"), HTML_PCT_POINTS);
	ck_assert_int_eq(nseries(page, "pct-lateness"), 4);
	ck_assert_int_eq(nseries(page, "pct-phases"), 8);
	ck_assert_int_eq(points(page, "pct-phases", "c2 Connect"),
	    HTML_PCT_POINTS);
	ck_assert_int_eq(points(page, "pct-phases", "c2 Connection"), 1);
	ck_assert_int_eq(nseries(page, "iv-rate"), 5);
	ck_assert_int_eq(points(page, "iv-rate", "c2"), -1);
	ck_assert_int_eq(nseries(page, "iv-latency"), 5);
	ck_assert_int_eq(points(page, "iv-status", "c0 2xx"), 2);
	ck_assert_int_eq(points(page, "iv-status", "c1 2xx"), 1);
	ck_assert_int_eq(points(page, "iv-status", "c1 5xx"), 1);
	ck_assert_int_eq(points(page, "iv-status", "Total 2xx"), 3);
	ck_assert_int_eq(points(page, "iv-status", "Total 5xx"), 3);
	ck_assert_int_eq(nseries(page, "iv-status"), 5);
	ck_assert_int_eq(points(page, "iv-errors", "c1 connreset"), 1);
	ck_assert_int_eq(points(page, "iv-errors", "Total connreset"), 3);
	ck_assert_int_eq(nseries(page, "iv-errors"), 2);
	fig = figure(page, "iv-errors");
	ck_assert_ptr_nonnull(strstr(fig, "thin: each client (3), in its "
	    "class&#39;s colour</li>"));
	free(fig);
	free(page);
	free(c0);
	free(c1);
	free(c2);
	free(m);
}
END_TEST

/* The page of a merge of n clients of the command lines cmds. */
static char *
merged_cmds(const char *const *cmds, size_t n)
{
	static const char *const lab[] = { "client 0 (a)", "client 1 (b)",
		"client 2 (<c>)" };
	char *m = with_cmd(doc_json("a,b", 0, 10, 0, known_iv, 3, 100),
	    "httperf --merged-doc-line");
	char *docs[3], *page;
	size_t i;

	ck_assert_uint_le(n, 3);
	for (i = 0; i < n; i++) {
		docs[i] = doc_json("a", (unsigned)i, 10, 0, known_iv, 3, 100);
		if (cmds[i] != NULL)
			docs[i] = with_cmd(docs[i], cmds[i]);
		else {
			/* No command line at all. */
			char *p = strstr(docs[i], "\"command_line\"");

			ck_assert_ptr_nonnull(p);
			memcpy(p, "\"command_lin_\"", 14);
		}
	}
	page = render(m, (const char *const *)docs, lab, n);
	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	for (i = 0; i < n; i++)
		free(docs[i]);
	free(m);
	return page;
}

/*
 * The heading of a merge says so and shows what each client ran: the
 * words in common once, what differs per client; or each line whole.
 * Never the merged document's own command line (client 0's).
 */
START_TEST(test_merged_heading)
{
	static const char *const two[] = {
		"httperf --server h --client 0/2 --rate 10 --json /t/c0.json",
		"httperf --server h --client 1/2 --rate 10 --json /t/c1.json" };
	static const char *const uneven[] = {
		"httperf --client 0/3 --rate 10",
		"httperf --client 1/3 --rate 10 --hog",
		"httperf --client 2/3 --uri '/<b>'" };
	static const char *const hostile[] = {
		"httperf --uri /<script>x</script> --n 1",
		"httperf --uri /a&b --n 1" };
	static const char *const eq[] = {
		"httperf --client=0/3 --uri=/a --json=/t/<0>.json --x=1",
		"httperf --client=1/3 --uri=/a --json=/t/<1>.json --x=2",
		"httperf --client=2/3 --uri=/a --json=/u/<2>.json --x=3" };
	static const char *const same[] = { "httperf --client auto",
		"httperf --client auto" };
	static const char *const missing[] = { "httperf --x 1", NULL };
	char *page;

	page = merged_cmds(two, 2);
	ck_assert_ptr_nonnull(strstr(page, "<h1>httperf report: a merge of 2 "
	    "results</h1>"));
	ck_assert_ptr_nonnull(strstr(page, "<title>httperf report (a merge "
	    "of 2) "));
	ck_assert_ptr_null(strstr(page, "merged-doc-line"));
	ck_assert_ptr_nonnull(strstr(page, "<pre class=\"cmd\" id=\"cmd-"
	    "common\">httperf --server h --client <mark>&#8230;</mark> --rate "
	    "10 --json <mark>&#8230;</mark></pre>"));
	ck_assert_ptr_nonnull(strstr(page, "<tr><th scope=\"row\">client 0 "
	    "(a)</th><td class=\"cmd\">--client <mark>0/2</mark> &#160; "
	    "--json <mark>/t/c0.json</mark></td></tr>"));
	ck_assert_ptr_nonnull(strstr(page, "<tr><th scope=\"row\">client 1 "
	    "(b)</th><td class=\"cmd\">--client <mark>1/2</mark> &#160; "
	    "--json <mark>/t/c1.json</mark></td></tr>"));
	ck_assert_uint_eq(count(page, "<pre class=\"cmd\""), 1);
	free(page);

	/* "--option=value": the mark after the shared "--option=". */
	page = merged_cmds(eq, 3);
	ck_assert_ptr_nonnull(strstr(page, "id=\"cmd-common\">httperf "
	    "--client=<mark>&#8230;</mark> --uri=/a --json=<mark>&#8230;"
	    "</mark> --x=<mark>&#8230;</mark></pre>"));
	ck_assert_ptr_nonnull(strstr(page, "(&lt;c&gt;)</th><td class=\"cmd\">"
	    "--client=<mark>2/3</mark> &#160; --json=<mark>/u/&lt;2&gt;.json"
	    "</mark> &#160; --x=<mark>3</mark></td>"));
	free(page);

	/* Lines of different lengths: each whole. */
	page = merged_cmds(uneven, 3);
	ck_assert_ptr_nonnull(strstr(page, "<h1>httperf report: a merge of 3 "
	    "results</h1>"));
	ck_assert_ptr_null(strstr(page, "cmd-common"));
	ck_assert_ptr_nonnull(strstr(page, "<th>Client</th><th>Command line"
	    "</th>"));
	ck_assert_ptr_nonnull(strstr(page, "<td class=\"cmd\">httperf "
	    "--client 0/3 --rate 10</td>"));
	ck_assert_ptr_nonnull(strstr(page, "<td class=\"cmd\">httperf "
	    "--client 1/3 --rate 10 --hog</td>"));
	ck_assert_ptr_nonnull(strstr(page, "<tr><th scope=\"row\">client 2 "
	    "(&lt;c&gt;)</th><td class=\"cmd\">httperf --client 2/3 --uri "
	    "&#39;/&lt;b&gt;&#39;</td>"));
	ck_assert_uint_eq(count(page, "<td class=\"cmd\">"), 3);
	free(page);

	/* What differs is escaped; a value after a value has no option. */
	page = merged_cmds(hostile, 2);
	ck_assert_ptr_nonnull(strstr(page, ">httperf --uri <mark>&#8230;"
	    "</mark> --n 1</pre>"));
	ck_assert_ptr_nonnull(strstr(page, "--uri <mark>/&lt;script&gt;x"
	    "&lt;/script&gt;</mark></td>"));
	ck_assert_ptr_nonnull(strstr(page, "--uri <mark>/a&amp;b</mark>"
	    "</td>"));
	ck_assert_ptr_null(strstr(page, "<script"));
	free(page);

	/* The same line: once, no table. */
	page = merged_cmds(same, 2);
	ck_assert_ptr_nonnull(strstr(page, "All 2 clients ran the same "
	    "command line:</p>\n<pre class=\"cmd\" id=\"cmd-common\">"
	    "httperf --client auto</pre>"));
	ck_assert_ptr_null(strstr(page, "id=\"clients\""));
	free(page);

	/* A client without a command line: each whole, "n/a" for it. */
	page = merged_cmds(missing, 2);
	ck_assert_ptr_nonnull(strstr(page, "<td class=\"cmd\">httperf --x 1"
	    "</td>"));
	ck_assert_ptr_nonnull(strstr(page, "(b)</th><td class=\"cmd\">n/a"
	    "</td>"));
	free(page);
}
END_TEST

/* 100 clients: one series each, grey, one legend entry for all. */
START_TEST(test_many_clients)
{
	const char **cl = calloc(100, sizeof(*cl));
	const char **lab = calloc(100, sizeof(*lab));
	char *m, *page, *fig;
	size_t i;

	m = doc_json("h", 0, 10000, 1, known_iv, 3, 100);
	for (i = 0; i < 100; i++) {
		cl[i] = doc_json("h", (unsigned)i, 100, 1, known_iv, 3, 100);
		lab[i] = "client";
	}
	page = render(m, cl, lab, 100);
	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	fig = figure(page, "pct-reply");
	ck_assert_uint_eq(count(fig, "data-series=\"client\" data-points="
	    "\"100\""), 100);
	ck_assert_uint_eq(count(fig, "<li>"), 3);
	ck_assert_ptr_nonnull(strstr(fig, "each of the 100 clients</li>"));
	free(fig);
	/* The same command line: said once. */
	ck_assert_ptr_nonnull(strstr(page, "All 100 clients ran the same "));
	fig = figure(page, "iv-rate");
	ck_assert_uint_eq(count(fig, "data-series=\"client\" data-points="
	    "\"3\""), 100);
	free(fig);
	/* The classes' and the phases' thin lines too, grey, one legend
	   entry for all. */
	fig = figure(page, "iv-status");
	ck_assert_uint_eq(count(fig, "data-series=\"client 2xx\" "
	    "data-points=\"3\" fill=\"none\" stroke=\"#9a9a9a\" "
	    "stroke-width=\"1.0\""), 100);
	ck_assert_uint_eq(count(fig, "data-series=\"client 5xx\" "
	    "data-points=\"3\" fill=\"none\" stroke=\"#9a9a9a\""), 100);
	ck_assert_uint_eq(count(fig, "<polyline"), 202);
	ck_assert_uint_eq(count(fig, "<li>"), 3);
	ck_assert_ptr_nonnull(strstr(fig, "each of the 100 clients</li>"));
	free(fig);
	fig = figure(page, "iv-errors");
	ck_assert_uint_eq(count(fig, "data-series=\"client connreset\" "
	    "data-points=\"3\" fill=\"none\" stroke=\"#9a9a9a\""), 100);
	ck_assert_uint_eq(count(fig, "<polyline"), 101);
	free(fig);
	fig = figure(page, "pct-phases");
	ck_assert_uint_eq(count(fig, "data-series=\"client Connect\" "
	    "data-points=\"100\" fill=\"none\" stroke=\"#9a9a9a\""), 100);
	ck_assert_uint_eq(count(fig, "<polyline"), 202);
	ck_assert_ptr_nonnull(strstr(fig, "each of the 100 clients</li>"));
	free(fig);
	free(page);
	for (i = 0; i < 100; i++)
		free((char *)(uintptr_t)cl[i]);
	free(cl);
	free(lab);
	free(m);
}
END_TEST

/* A write error is reported. */
START_TEST(test_write_error)
{
	FILE *f = fopen("/dev/full", "w");
	struct jv *d;
	char err[100];

	if (f == NULL)
		return;
	d = parse("{\"stats\": {\"basic\": {}}}");
	ck_assert_int_eq(html_write(f, d, NULL, 0, err, sizeof(err)), -1);
	ck_assert_msg(strncmp(err, "write error", 11) == 0, "%s", err);
	fclose(f);
	jv_free(d);
}
END_TEST

/*
 * A --sweep's capacity section from a document of wrongly typed and
 * hostile members (a --merge reads any file): the usable steps drawn
 * and listed in the order they ran, every text escaped, "n/a" for the
 * rest; no sweep member, no section.
 */
START_TEST(test_sweep)
{
	static const char doc[] = "{\"stats\": {\"basic\": {}}, "
	    "\"options\": {\"call-rate\": \"10\", \"slo\": [\"p99<20ms\", 5, "
	    "\"<b>x</b>\", \"errors<1%\", \"connect.p99<1ms\", "
	    "\"errors<=10\", \"5xx<1%\"]}, "
	    "\"sweep\": {\"spec\": \"<i>10:30*2</i>\", \"step_time_s\": \"x\", "
	    "\"steps\": [{\"level\": 10, \"kind\": \"plan\", \"verdict\": "
	    "\"PASS\", \"client_limited\": false, \"result\": {\"duration_s\": "
	    "2, \"stats\": {\"basic\": {\"requests\": {\"total\": 20}, "
	    "\"replies\": {\"total\": 18, \"status\": {\"5xx\": 9}}, "
	    "\"errors\": {\"total\": 2}, "
	    "\"histograms\": {\"reply\": {\"count\": 18, \"percentiles_ns\": "
	    "{\"p50\": 1e6, \"p90\": 2e6, \"p99\": 3e6, \"p99.9\": 4e6}}}}}}}, "
	    "{\"level\": \"x\"}, 7, null, {\"level\": 20, \"kind\": \"<s>\", "
	    "\"verdict\": \"CLIENT\", \"client_limited\": true, \"result\": "
	    "null}, {\"level\": 1e300, \"result\": {\"duration_s\": 0}}], "
	    "\"capacity\": {\"end\": \"found\", \"capacity\": 10, \"fail\": "
	    "\"x\", \"repeated\": 1, \"agree\": false}}}";
	char *page = render(doc, NULL, NULL, 0), *fig;

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_ptr_nonnull(strstr(page, "<h2 id=\"capacity-section\">"
	    "Capacity <span class=\"dim\">(--sweep &lt;i&gt;10:30*2&lt;/i&gt;: "
	    "6 steps of n/a)</span></h2>"));
	ck_assert_ptr_nonnull(strstr(page, "Capacity: <strong>10.0 req/s"
	    "</strong> (found: p99&lt;20ms, n/a, &lt;b&gt;x&lt;/b&gt;, "
	    "errors&lt;1%, connect.p99&lt;1ms, errors&lt;=10, 5xx&lt;1%; the "
	    "next level n/a failed; repeated 1: disagree)</p>"));
	/* The objective no plot shows (a count). */
	ck_assert_ptr_nonnull(strstr(page, "their verdict): "
	    "errors&lt;=10.</p>"));
	/* No step has a connect time: no series of its measure; 5xx, a
	   measure no series has, is one of its own (9 of 18 replies). */
	ck_assert_int_eq(points(page, "sw-latency", "connect.p99"), -1);
	ck_assert_int_eq(points(page, "sw-errors", "5xx"), 1);
	ck_assert_ptr_nonnull(strstr(page, "<title>5xx: 50.0 % at 10.0 "
	    "offered [req/s]</title>"));
	/* The one step with rates; the offered line at each level. */
	ck_assert_int_eq(points(page, "sw-rate", "requests/s"), 1);
	ck_assert_ptr_nonnull(strstr(page, "<title>requests/s: 10.0 per "
	    "second at 10.0 offered [req/s]</title>"));
	ck_assert_int_eq(points(page, "sw-rate", "offered (y = x)"), 3);
	ck_assert_int_eq(points(page, "sw-latency", "p99.9"), 1);
	ck_assert_int_eq(points(page, "sw-errors", "errors %"), 1);
	ck_assert_ptr_nonnull(strstr(page, "<title>errors %: 10.0 % at 10.0 "
	    "offered [req/s]</title>"));
	/* The client-limited step has no value to ring. */
	ck_assert_ptr_null(strstr(page, "class=\"marks\""));
	/* The rules: the capacity on each plot against the rate, the
	   objectives on theirs. */
	fig = figure(page, "sw-latency");
	ck_assert_uint_eq(count(fig, "data-rule=\"capacity\" data-at=\"10\""),
	    1);
	ck_assert_uint_eq(count(fig, "data-rule=\"objective\" data-at=\"20\""),
	    1);
	ck_assert_uint_eq(count(fig, "data-rule=\"objective\" data-at=\"1\""),
	    1);
	free(fig);
	fig = figure(page, "sw-errors");
	ck_assert_uint_eq(count(fig, "data-rule=\"objective\" data-at=\"1\""),
	    2);
	free(fig);
	ck_assert_uint_eq(count(page, "data-rule=\"capacity\""), 3);
	ck_assert_uint_eq(count(page, "data-rule=\"objective\""), 4);
	/* No histogram to draw: no step curve. */
	ck_assert_int_eq(nseries(page, "sw-pct"), 0);
	/* The table: the steps with a level, in the order they ran. */
	ck_assert_ptr_nonnull(strstr(page, "<tr><td class=\"n\">1</td><td>"
	    "plan</td><td class=\"n\">10.0</td><td class=\"n\">20</td>"
	    "<td class=\"n\">10.0</td><td class=\"n\">18</td><td class=\"n\">"
	    "9.0</td><td class=\"n\">1.000</td><td class=\"n\">2.000</td>"
	    "<td class=\"n\">3.000</td><td class=\"n\">4.000</td>"
	    "<td class=\"n\">10.00</td><td>PASS</td></tr>"));
	ck_assert_ptr_nonnull(strstr(page, "<td class=\"n\">5</td><td>&lt;s"
	    "&gt;</td><td class=\"n\">20.0</td><td class=\"n\">n/a</td>"));
	ck_assert_ptr_nonnull(strstr(page, "<tr class=\"client\""));
	ck_assert_ptr_nonnull(strstr(page, "<td class=\"n\">6</td><td>n/a"));
	ck_assert_uint_eq(count(page, "<tr><td class=\"n\">") +
	    count(page, "<tr class=\"client\""), 3);
	free(page);

	/* Nothing of it without a sweep member, or with one not an
	   object. */
	page = render("{\"stats\": {\"basic\": {}}, \"sweep\": [1]}", NULL,
	    NULL, 0);
	ck_assert_int_eq(render_rv, 0);
	ck_assert_ptr_null(strstr(page, "apacity"));
	ck_assert_ptr_null(strstr(page, "plot-sw-"));
	free(page);
}
END_TEST

/*
 * A sweep of --wsesspage sessions: the level is in sessions per second
 * and, a page view's objects being no one figure, no offered line is
 * drawn against the request rate.
 */
START_TEST(test_sweep_pages)
{
	static const char doc[] = "{\"stats\": {\"basic\": {}}, "
	    "\"options\": {\"call-rate\": null, \"concurrency\": 0, "
	    "\"num-calls\": 1, \"wsesspage\": {\"N1\": 10, \"N2\": 2, "
	    "\"X\": 0}}, \"sweep\": {\"spec\": \"5:10:5\", "
	    "\"steps\": [{\"level\": 5, \"kind\": \"plan\", \"result\": "
	    "{\"duration_s\": 1, \"stats\": {\"basic\": {\"requests\": "
	    "{\"total\": 30}, \"replies\": {\"total\": 30}}}}}], "
	    "\"capacity\": {\"end\": \"none\"}}}";
	char *page = render(doc, NULL, NULL, 0);

	ck_assert_int_eq(render_rv, 0);
	check_page(page);
	ck_assert_ptr_nonnull(strstr(page, "Capacity: <strong>- sess/s"
	    "</strong> (none: no objectives)</p>"));
	ck_assert_int_eq(points(page, "sw-rate", "requests/s"), 1);
	ck_assert_ptr_null(strstr(page, "offered (y"));
	free(page);
}
END_TEST

/* html_put_loads: the written line for the merged document `text'. */
static char *
loads_of(const char *text)
{
	char err[128], *out = NULL;
	size_t len = 0;
	struct jv *v = jv_parse(text, strlen(text), err, sizeof(err));
	FILE *f = open_memstream(&out, &len);

	ck_assert_msg(v != NULL, "%s", err);
	ck_assert_ptr_nonnull(f);
	html_put_loads(f, v, 2);
	fclose(f);
	jv_free(v);
	return out;
}

/*
 * The Loads line of unequal clients: each client with the load options
 * whose values differ (not --period, not --rate beside --call-rate),
 * escaped, the first `max' clients; nothing for equal ones.
 */
START_TEST(test_loads)
{
	char *out;

	out = loads_of("{\"merged\":{\"equal_load\":false,\"files\":["
	    "{\"client\":\"0/3\",\"load\":{\"rate\":300,\"call-rate\":"
	    "\"300\",\"period\":\"d0.003\",\"runtime\":1,\"wsess\":"
	    "null,\"x<\":1}},"
	    "{\"client\":\"1/3\",\"load\":{\"rate\":100,\"call-rate\":"
	    "\"100\",\"period\":\"d0.01\",\"runtime\":1,\"wsess\":"
	    "null,\"x<\":\"<b>\"}},"
	    "{\"client\":\"2/3\",\"load\":{\"rate\":100,\"call-rate\":"
	    "\"100\",\"period\":\"d0.01\",\"runtime\":1,\"wsess\":"
	    "null,\"x<\":1}}]}}");
	ck_assert_str_eq(out, "<div><dt>Loads</dt><dd id=\"loads\">client "
	    "0/3: --call-rate 300, --x&lt; 1; client 1/3: --call-rate 100, "
	    "--x&lt; &lt;b&gt;; \xe2\x80\xa6</dd></div>\n");
	free(out);
	out = loads_of("{\"merged\":{\"equal_load\":false,\"files\":["
	    "{\"client\":\"0/2\",\"load\":{\"wsess\":{\"N1\":20,\"N2\":2,"
	    "\"X\":0}}},{\"client\":\"1/2\",\"load\":{\"wsess\":{\"N1\":10,"
	    "\"N2\":2,\"X\":0}}}]}}");
	ck_assert_str_eq(out, "<div><dt>Loads</dt><dd id=\"loads\">client "
	    "0/2: --wsess 20; client 1/2: --wsess 10</dd></div>\n");
	free(out);
	out = loads_of("{\"merged\":{\"equal_load\":true,\"files\":[]}}");
	ck_assert_str_eq(out, "");
	free(out);
	out = loads_of("{\"merged\":{\"equal_load\":false,\"files\":[]}}");
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("html");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_escape);
	tcase_add_test(tc, test_hostile);
	tcase_add_test(tc, test_hostile_label);
	tcase_add_test(tc, test_no_basic);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_wrong_types);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_no_sched);
	tcase_add_test(tc, test_pct_axis);
	tcase_add_test(tc, test_nice_ticks);
	tcase_add_test(tc, test_decimate);
	tcase_add_test(tc, test_huge_intervals);
	tcase_add_test(tc, test_sliver);
	tcase_add_test(tc, test_merged);
	tcase_add_test(tc, test_merged3);
	tcase_add_test(tc, test_merged_heading);
	tcase_add_test(tc, test_loads);
	tcase_add_test(tc, test_many_clients);
	tcase_add_test(tc, test_write_error);
	tcase_add_test(tc, test_sweep);
	tcase_add_test(tc, test_sweep_pages);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
