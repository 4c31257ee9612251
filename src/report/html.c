/*
 * The --html report page (html.h): the page itself, its sections and
 * tables; its plots are html_plot.c's.  The document may come from any
 * file --merge read, so every member is looked up with the jv_*
 * accessors, which return NULL or -1 for a missing or wrongly typed
 * member: such a member is skipped or shown as "n/a".  Memory is taken
 * with malloc() and its failure is an error return, never an exit: the
 * page is written after the run, whose report is already out.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/html_esc.h"
#include "lib/jsonr.h"
#include "lib/util.h"
#include "report/html.h"
#include "report/html_int.h"
#include "report/html_util.h"
#include "stat/basic.h"
#include "stat/sched_stat.h"
#include "stat/series.h"

/* The clients whose command lines a merge's heading lists, at most. */
#define HTML_CMD_ROWS	64

/* ---- the page's text parts ---- */

static const char css[] =
"*{box-sizing:border-box}\n"
"html{color-scheme:light}\n"
"body{margin:0;background:#fff;color:#1b1b1b;font:14px/1.45 system-ui,"
"-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",\"Noto Sans\","
"\"Liberation Sans\",Arial,sans-serif}\n"
"main{max-width:1200px;margin:0 auto;padding:20px 24px 40px}\n"
"h1{font-size:24px;margin:0 0 8px;font-weight:650;letter-spacing:-.01em}\n"
"h2{font-size:17px;margin:28px 0 10px;padding-bottom:4px;"
"border-bottom:1px solid #ddd;font-weight:620}\n"
".dim{color:#666;font-weight:400;font-size:13px}\n"
"pre.cmd{margin:0 0 10px;padding:7px 10px;background:#f4f5f7;"
"border:1px solid #e2e4e8;border-radius:5px;white-space:pre-wrap;"
"word-break:break-all;font:12.5px/1.45 ui-monospace,SFMono-Regular,"
"Menlo,Consolas,\"DejaVu Sans Mono\",\"Liberation Mono\",monospace}\n"
"dl.meta{display:flex;flex-wrap:wrap;gap:4px 28px;margin:0}\n"
"dl.meta div{display:flex;gap:6px}\n"
"dl.meta dt{color:#666}\n"
"dl.meta dd{margin:0;font-variant-numeric:tabular-nums}\n"
"table{border-collapse:collapse;font-variant-numeric:tabular-nums;"
"width:100%}\n"
"th,td{padding:4px 10px;border-bottom:1px solid #eceef1;text-align:left;"
"vertical-align:top}\n"
"th{font-weight:600;color:#444;border-bottom:1px solid #cfd3d8;"
"white-space:nowrap}\n"
"tbody th{border-bottom-color:#eceef1;color:#222}\n"
".wrap{overflow-x:auto}\n"
"td.n,th.n{text-align:right;white-space:nowrap}\n"
"td.d{color:#444}\n"
"tbody tr:nth-child(even){background:#fafbfc}\n"
".warn{margin:12px 0;padding:9px 12px;border:2px solid #D55E00;"
"border-radius:6px;background:#fff3ea}\n"
".warn strong{color:#a34400}\n"
".note{color:#555;font-style:italic}\n"
".grid{display:grid;grid-template-columns:1fr;gap:18px}\n"
"figure.plot{margin:0;padding:10px 12px 8px;border:1px solid #e1e4e8;"
"border-radius:7px;break-inside:avoid;page-break-inside:avoid}\n"
"figcaption{font-weight:620;font-size:14px;margin:0 0 2px}\n"
"svg.chart{display:block;width:100%;height:auto}\n"
"svg.chart .grid line{stroke:#e9ebee;stroke-width:1}\n"
"svg.chart .axis line{stroke:#8a8f96;stroke-width:1}\n"
"svg.chart text{font-family:inherit;fill:#333}\n"
"svg.chart text.tick{font-size:11px;fill:#555}\n"
"svg.chart text.label{font-size:12px}\n"
"svg.chart text.note{font-size:14px;font-style:italic;fill:#777}\n"
".legend{list-style:none;margin:2px 0 0;padding:0 0 0 50px;display:flex;"
"flex-wrap:wrap;gap:2px 16px;font-size:12.5px}\n"
".legend li{display:flex;align-items:center;gap:5px}\n"
"footer{margin-top:28px;color:#777;font-size:12px}\n"
"p.merged{margin:0 0 4px;color:#444}\n"
"mark{background:#ffe7a3;color:inherit;font-weight:600;padding:0 2px;"
"border-radius:2px;-webkit-print-color-adjust:exact;"
"print-color-adjust:exact}\n"
"table.clients{margin:0 0 10px}\n"
"td.cmd{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"
"\"DejaVu Sans Mono\",\"Liberation Mono\",monospace;"
"word-break:break-all}\n"
"@media (min-width:1000px){.grid{grid-template-columns:1fr 1fr}}\n"
"@media (max-width:800px){th,td{padding:3px 6px}main{padding:12px}}\n"
"@media print{body{font-size:10.5pt;background:#fff;color:#000}"
"main{max-width:none;padding:0}.grid{grid-template-columns:1fr}"
"pre.cmd,.warn,tbody tr:nth-child(even){background:none}"
"figure.plot{border-color:#999}h2{break-after:avoid}"
"table{break-inside:avoid;font-size:9pt}th,td{padding:2px 5px}"
".wrap{overflow:visible}}\n";

/*
 * A piece of a row of the totals: text, then the value at path (a
 * number times scale with dec decimals (-1: %g) and unit, or the string
 * when dec is STR), or what put writes of the row's object.
 */
struct cell {
	const char	*text;
	const char	*path;
	int		 dec;
	const char	*unit;
	double		 scale;
	void		(*put)(FILE *f, const struct jv *v);
};
#define STR			-2
#define TXT(t)			{ t, NULL, 0, NULL, 0, NULL }
#define NUM(t, p, d, u)		{ t, p, d, u, 1, NULL }
#define NUMS(t, p, d, u, k)	{ t, p, d, u, k, NULL }
#define STRING(t, p)		{ t, p, STR, NULL, 0, NULL }
#define PUT(fn)			{ NULL, NULL, 0, NULL, 0, fn }
#define CELLS_END		{ NULL, NULL, 0, NULL, 0, NULL }

/* A row of the totals: its name, its number (the value at path, as a
   cell's), its details. */
struct row {
	const char	*name;
	const char	*path;
	int		 dec;
	const char	*unit;
	struct cell	 details[10];
};

/* The totals' rows of an object of the document, when it is one. */
struct rows {
	const char		*path;
	const struct row	*row;
	size_t			 n;
};

/* Writes the cells up to CELLS_END, of v. */
static void
put_cells(FILE *f, const struct jv *v, const struct cell *cl)
{
	for (; cl->text != NULL || cl->path != NULL || cl->put != NULL;
	    cl++) {
		if (cl->text != NULL)
			fputs(cl->text, f);
		if (cl->put != NULL)
			cl->put(f, v);
		else if (cl->path != NULL && cl->dec == STR)
			html_put_str(f, v, cl->path);
		else if (cl->path != NULL)
			html_put_num(f, v, cl->path, cl->dec, cl->unit,
			    cl->scale);
	}
}

/* The tool that wrote the document: "httperf 1.0.0". */
static const struct cell tool_cells[] = {
	STRING("", "tool.name"), STRING(" ", "tool.version"), CELLS_END
};

static void
write_head(struct html_ctx *c)
{
	FILE *f = c->f;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" "
	    "content=\"default-src 'none'; style-src 'unsafe-inline'; "
	    "img-src data:\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta name=\"generator\" content=\"", f);
	put_cells(f, c->doc, tool_cells);
	fputs("\">\n<title>httperf report", f);
	if (c->ncl > 0)
		fprintf(f, " (a merge of %zu)", c->ncl);
	if (html_str(c->doc, "start.time") != NULL) {
		fputs(" \xe2\x80\x94 ", f);
		html_put_str(f, c->doc, "start.time");
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
	    css);
}

/* One fact of the header: <div><dt>name</dt><dd>...</dd></div>. */
static void
meta_open(FILE *f, const char *name)
{
	fprintf(f, "<div><dt>%s</dt><dd>", name);
}

/* A command line cut at its spaces. */
struct words {
	char	*buf;		/* the line, its spaces made NULs */
	char	**w;
	size_t	 n;
};

/* Cuts s (NULL: no words) into ws; -1 when out of memory. */
static int
words_split(const char *s, struct words *ws)
{
	char *p;
	size_t n = 0;

	memset(ws, 0, sizeof(*ws));
	if (s == NULL)
		return 0;
	if ((ws->buf = strdup(s)) == NULL)
		return -1;
	for (p = ws->buf; *p != '\0'; p++)
		if (*p != ' ' && (p == ws->buf || p[-1] == ' '))
			n++;
	if (n == 0)
		return 0;
	if ((ws->w = calloc(n, sizeof(*ws->w))) == NULL)
		return -1;
	for (p = ws->buf; *p != '\0'; p++) {
		if (*p == ' ')
			*p = '\0';
		else if (p == ws->buf || p[-1] == '\0')
			ws->w[ws->n++] = p;
	}
	return 0;
}

static void
put_client_label(struct html_ctx *c, size_t i)
{
	char *l = html_client_label(c, i, "");

	if (l == NULL) {
		c->oom = 1;
		return;
	}
	html_escape(c->f, l);
	free(l);
}

/* The merged clients' command lines, compared word by word. */
struct cmds {
	struct words	*ws;		/* each client's words */
	size_t		 n;
	int		 same;		/* as many words each */
	char		*diff;		/* same: word j differs */
	size_t		*pre;		/* same: word j's shared "--option=" */
	size_t		 ndiff;		/* same: the words that differ */
};

/* Splits the command lines and compares them (cm->same, diff, pre...). */
static void
cmds_compare(struct html_ctx *c, struct cmds *cm)
{
	struct words *ws = cm->ws;
	size_t i, j, k, n = cm->n;

	for (i = 0; i < n; i++)
		if (words_split(html_str(c->cl[i].doc, "command_line"),
		    &ws[i]) != 0)
			c->oom = 1;
	cm->same = 1;
	for (i = 0; i < n; i++)
		if (ws[i].n == 0 || ws[i].n != ws[0].n)
			cm->same = 0;
	if (cm->same && ((cm->diff = calloc(ws[0].n, 1)) == NULL ||
	    (cm->pre = calloc(ws[0].n, sizeof(*cm->pre))) == NULL)) {
		c->oom = 1;
		cm->same = 0;
	}
	for (j = 0; cm->same && j < ws[0].n; j++) {
		for (i = 1; i < n; i++)
			if (strcmp(ws[i].w[j], ws[0].w[j]) != 0)
				cm->diff[j] = 1;
		if (!cm->diff[j])
			continue;
		cm->ndiff++;
		/* "--client=0/2" and "--client=1/2": "--client=" is shared. */
		for (k = 0; ws[0].w[j][k] != '\0'; k++) {
			for (i = 1; i < n; i++)
				if (ws[i].w[j][k] != ws[0].w[j][k])
					break;
			if (i < n)
				break;
			if (ws[0].w[j][k] == '=')
				cm->pre[j] = k + 1;
		}
	}
}

/* The words they share, a mark where they differ. */
static void
cmds_common(FILE *f, const struct cmds *cm)
{
	const struct words *w0 = &cm->ws[0];
	size_t j;

	fprintf(f, "<p class=\"merged\">The command line of the %zu "
	    "clients, <mark>&#8230;</mark> where they differ:</p>\n"
	    "<pre class=\"cmd\" id=\"cmd-common\">", cm->n);
	for (j = 0; j < w0->n; j++) {
		if (j > 0)
			fputc(' ', f);
		if (cm->diff[j]) {
			html_escape_n(f, w0->w[j], cm->pre[j]);
			fputs("<mark>&#8230;</mark>", f);
		} else
			html_escape(f, w0->w[j]);
	}
	fputs("</pre>\n", f);
}

/* Client i's row: its command line, or what it had where they differ
   (with the option before it). */
static void
cmds_row(struct html_ctx *c, const struct cmds *cm, size_t i)
{
	FILE *f = c->f;
	const struct words *w = &cm->ws[i];
	const char *sep = "";
	size_t j;

	fputs("<tr><th scope=\"row\">", f);
	put_client_label(c, i);
	fputs("</th><td class=\"cmd\">", f);
	if (!cm->same) {
		html_put_str(f, c->cl[i].doc, "command_line");
		fputs("</td></tr>\n", f);
		return;
	}
	for (j = 0; j < w->n; j++) {
		if (!cm->diff[j])
			continue;
		fputs(sep, f);
		/* The option the value belongs to, if it is shared and not
		   one of "--option=value". */
		if (cm->pre[j] == 0 && j > 0 && !cm->diff[j - 1] &&
		    w->w[j - 1][0] == '-' && strchr(w->w[j - 1], '=') == NULL) {
			html_escape(f, w->w[j - 1]);
			fputc(' ', f);
		}
		html_escape_n(f, w->w[j], cm->pre[j]);
		fputs("<mark>", f);
		html_escape(f, w->w[j] + cm->pre[j]);
		fputs("</mark>", f);
		sep = " &#160; ";
	}
	fputs("</td></tr>\n", f);
}

/*
 * The heading of a merge: what each client ran.  When the command lines
 * have as many words each, the words they share once, with a mark where
 * they differ (after the "--option=" they share), then what each client
 * had there (with the option before it); else each line whole.  At
 * most HTML_CMD_ROWS clients are listed.
 */
static void
write_commands(struct html_ctx *c)
{
	FILE *f = c->f;
	struct cmds cm;
	size_t i;

	memset(&cm, 0, sizeof(cm));
	cm.n = c->ncl;
	if ((cm.ws = calloc(cm.n, sizeof(*cm.ws))) == NULL) {
		c->oom = 1;
		return;
	}
	cmds_compare(c, &cm);
	if (cm.same && cm.ndiff == 0) {
		fprintf(f, "<p class=\"merged\">All %zu clients ran the same "
		    "command line:</p>\n<pre class=\"cmd\" id=\"cmd-common\">",
		    cm.n);
		html_put_str(f, c->cl[0].doc, "command_line");
		fputs("</pre>\n", f);
	} else {
		if (cm.same)
			cmds_common(f, &cm);
		else
			fprintf(f, "<p class=\"merged\">The command lines of "
			    "the %zu clients:</p>\n", cm.n);
		fprintf(f, "<div class=\"wrap\"><table class=\"clients\" "
		    "id=\"clients\">\n<thead><tr><th>Client</th><th>%s</th>"
		    "</tr></thead>\n<tbody>\n", cm.same ? "Where it differs" :
		    "Command line");
		for (i = 0; i < cm.n && i < HTML_CMD_ROWS; i++)
			cmds_row(c, &cm, i);
		if (cm.n > HTML_CMD_ROWS)
			fprintf(f, "<tr><td colspan=\"2\" class=\"note\">"
			    "&#8230; and %zu more clients</td></tr>\n",
			    cm.n - HTML_CMD_ROWS);
		fputs("</tbody>\n</table></div>\n", f);
	}
	for (i = 0; i < cm.n; i++) {
		free(cm.ws[i].w);
		free(cm.ws[i].buf);
	}
	free(cm.ws);
	free(cm.diff);
	free(cm.pre);
}

/* A fact of the header: its name (in a merge), its value. */
struct meta {
	const char	*name;
	const char	*merged;
	struct cell	 value[3];
};

static const struct meta meta_run[] = {
	{ "Start", "Start", { STRING("", "start.time"), CELLS_END } },
	{ "End", "End", { STRING("", "end.time"), CELLS_END } },
	{ "Duration", "Duration", { NUM("", "duration_s", 3, " s"),
		CELLS_END } },
	{ "Host", "Hosts", { STRING("", "host"), CELLS_END } },
};

static void
write_meta(struct html_ctx *c, const struct meta *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		meta_open(c->f, c->ncl > 0 ? m[i].merged : m[i].name);
		put_cells(c->f, c->doc, m[i].value);
		fputs("</dd></div>\n", c->f);
	}
}

/* The clients a merge (or a run of --client I/N) was made of. */
static void
write_clients(struct html_ctx *c)
{
	FILE *f = c->f;
	const struct jv *ids = jv_path(c->doc, "client.ids");
	double d;
	size_t i;

	if (c->ncl > 0 || jv_len(ids) > 1) {
		meta_open(f, "Clients");
		fprintf(f, "%zu (ids", c->ncl > 0 ? c->ncl : jv_len(ids));
		for (i = 0; i < jv_len(ids) && i < 64; i++) {
			fputs(i ? ", " : " ", f);
			html_put_num(f, jv_at(ids, i), "", 0, "", 1);
		}
		if (jv_len(ids) > 64)
			fputs(", \xe2\x80\xa6", f);
		fputs(")</dd></div>\n", f);
		html_put_loads(f, c->doc, HTML_CMD_ROWS);
	} else if (html_num(c->doc, "client.count", &d) == 0 && d > 1) {
		meta_open(f, "Client");
		html_put_num(f, c->doc, "client.id", 0, "", 1);
		fprintf(f, " of %.0f</dd></div>\n", d);
	}
}

static void
write_summary(struct html_ctx *c)
{
	FILE *f = c->f;

	fputs("<header>\n<h1>httperf report", f);
	if (c->ncl > 0) {
		fprintf(f, ": a merge of %zu results</h1>\n", c->ncl);
		write_commands(c);
	} else {
		fputs("</h1>\n<pre class=\"cmd\">", f);
		html_put_str(f, c->doc, "command_line");
		fputs("</pre>\n", f);
	}
	fputs("<dl class=\"meta\">\n", f);
	write_meta(c, meta_run, nitems(meta_run));
	write_clients(c);
	meta_open(f, "Tool");
	put_cells(f, c->doc, tool_cells);
	fputs("</dd></div>\n</dl>\n</header>\n", f);
}

static void
write_warning(struct html_ctx *c, const struct jv *sc)
{
	FILE *f = c->f;
	const char *sep = "";
	int b;

	if (jv_bool(jv_path(sc, "warning.fired"), &b) != 0 || !b)
		return;
	fputs("<div class=\"warn\" id=\"warning\" role=\"note\"><strong>"
	    "Warning: the client was the bottleneck:</strong>", f);
	if (jv_bool(jv_path(sc, "warning.late"), &b) == 0 && b) {
		fputc(' ', f);
		html_put_num(f, sc, "late_pct", 1, "", 1);
		fputs("% of arrivals late over ", f);
		html_put_num(f, sc, "threshold_ns", -1, "", 1e-6);
		fprintf(f, " ms (more than %g%%)", SCHED_LATE_MAX_PCT);
		sep = ";";
	}
	if (jv_bool(jv_path(sc, "warning.rate"), &b) == 0 && b) {
		fprintf(f, "%s achieved arrival rate ", sep);
		html_put_num(f, sc, "achieved_rate_per_s", 1, "/s", 1);
		fputs(" is ", f);
		html_put_num(f, sc, "rate_pct", 1, "%", 1);
		fputs(" of the scheduled ", f);
		html_put_num(f, sc, "scheduled_rate_per_s", 1, "/s", 1);
		fprintf(f, " (below %g%%)", SCHED_RATE_MIN_PCT);
		sep = ";";
	}
	if (jv_bool(jv_path(sc, "warning.cpu"), &b) == 0 && b) {
		fprintf(f, "%s client CPU ", sep);
		html_put_num(f, sc, "cpu_pct", 1, "%", 1);
		fprintf(f, " (over %g%%)", SCHED_CPU_MAX_PCT);
	}
	fputs(". The achieved load is below the one asked for: the numbers "
	    "describe the client as much as the server.</div>\n", f);
}

/* Replies: "1xx N · 2xx N..." */
static void
put_status(FILE *f, const struct jv *b)
{
	size_t i;

	for (i = 0; i < BASIC_NSTATUS; i++) {
		fprintf(f, "%s%s ", i ? " \xc2\xb7 " : "",
		    basic_status_name[i]);
		html_put_num(f, jv_path(b, "replies.status"),
		    basic_status_name[i], 0, "", 1);
	}
}

/* Errors: the classes that happened, under the document's names (so a
   class a later version adds is there too), or "none". */
static void
put_errors(FILE *f, const struct jv *b)
{
	const struct jv *e = jv_get(b, "errors");
	const char *k, *sep = "";
	double v, t;
	size_t i;

	for (i = 0; i < jv_len(e); i++) {
		k = jv_key_at(e, i);
		if (k == NULL || strcmp(k, "total") == 0 ||
		    jv_num(jv_at(e, i), &v) != 0 || v == 0)
			continue;
		fputs(sep, f);
		html_escape(f, k);
		fprintf(f, " %.0f", v);
		sep = ", ";
	}
	if (*sep == '\0')
		fputs(html_num(b, "errors.total", &t) == 0 && t == 0 ?
		    "none" : "", f);
}

/* Arrivals: the target rate, when there is one. */
static void
put_target(FILE *f, const struct jv *sc)
{
	double t;

	if (html_num(sc, "target_rate_per_s", &t) == 0 && t > 0)
		fprintf(f, " target %.1f/s,", t);
}

static const struct row basic_rows[] = {
	{ "Connections", "connections.total", 0, "", {
		NUM("", "connections.rate_per_s", 1, " conn/s"),
		NUM(", at most ", "connections.max_concurrent", 0, ""),
		NUM(" concurrent, connect ", "connections.connect.avg_ms", 3,
		    " ms"),
		TXT(" avg"), CELLS_END } },
	{ "Requests", "requests.total", 0, "", {
		NUM("", "requests.rate_per_s", 1, " req/s"),
		NUM(", ", "requests.size_b", 1, " B"),
		TXT(" each"), CELLS_END } },
	{ "Replies", "replies.total", 0, "", {
		PUT(put_status),
		NUM("; ", "replies.size_b", 1, " B"),
		TXT(" each"), CELLS_END } },
	{ "Errors", "errors.total", 0, "", { PUT(put_errors), CELLS_END } },
	{ "Net I/O", "net.kb_per_s", 1, " KB/s", {
		NUM("", "net.mbps", 1, "&#8239;Mbit/s"),
		NUM(", ", "net.bytes", 0, " bytes"), CELLS_END } },
	{ "CPU", "cpu.total_pct", 1, "%", {
		NUM("user ", "cpu.user_s", 2, " s"),
		NUM(", system ", "cpu.system_s", 2, " s"), CELLS_END } },
};

static const struct row sess_rows[] = {
	{ "Sessions", "completed", 0, "", {
		NUM("completed, ", "failed", 0, ""),
		NUM(" failed, ", "rate_per_s.avg", 1, " sess/s"),
		NUM(", ", "conns_per_session", 2, ""),
		TXT(" conns/session"), CELLS_END } },
};

static const struct row tls_rows[] = {
	{ "TLS", "handshakes", 0, "", {
		NUM("handshakes, ", "resumed", 0, ""),
		NUM(" resumed (", "resumed_pct", 1, "%"),
		NUM("), ", "failed", 0, ""),
		STRING(" failed; ", "protocol"),
		STRING(" ", "cipher"), CELLS_END } },
};

static const struct row sched_rows[] = {
	{ "Arrivals", "scheduled", 0, "", {
		NUM("scheduled; ", "late", 0, ""),
		NUMS(" late over ", "threshold_ns", -1, " ms", 1e-6),
		NUM(" (", "late_pct", 1, "%"),
		NUM("), ", "never_sent", 0, ""),
		TXT(" never sent; rate"), PUT(put_target),
		NUM(" scheduled ", "scheduled_rate_per_s", 1, "/s"),
		NUM(", achieved ", "achieved_rate_per_s", 1, "/s"),
		CELLS_END } },
};

/* The totals table's rows, in its order. */
static const struct rows totals[] = {
	{ "stats.basic", basic_rows, nitems(basic_rows) },
	{ "stats.sess_stat", sess_rows, nitems(sess_rows) },
	{ "stats.tls_stat", tls_rows, nitems(tls_rows) },
	{ "stats.sched", sched_rows, nitems(sched_rows) },
};

static void
write_totals(struct html_ctx *c)
{
	FILE *f = c->f;
	const struct row *r;
	const struct jv *v;
	size_t i, j;

	fputs("<section>\n<h2 id=\"totals\">Totals</h2>\n<div class=\"wrap\">"
	    "<table class=\"totals\">\n<thead><tr><th></th><th class=\"n\">Total"
	    "</th><th>Details</th></tr></thead>\n<tbody>\n", f);
	for (i = 0; i < nitems(totals); i++) {
		if (jv_type(v = jv_path(c->doc, totals[i].path)) != JV_OBJ)
			continue;
		for (j = 0; j < totals[i].n; j++) {
			r = &totals[i].row[j];
			fprintf(f, "<tr><th scope=\"row\">%s</th>"
			    "<td class=\"n\">", r->name);
			html_put_num(f, v, r->path, r->dec, r->unit, 1);
			fputs("</td><td class=\"d\">", f);
			put_cells(f, v, r->details);
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</tbody>\n</table></div>\n</section>\n", f);
}

static void
pct_row(FILE *f, const char *label, const struct jv *h)
{
	const struct jv *ps = jv_get(h, "percentiles_ns");
	size_t i;

	fputs("<tr><th scope=\"row\">", f);
	html_escape(f, label);
	fputs("</th><td class=\"n\">", f);
	html_put_num(f, h, "count", 0, "", 1);
	for (i = 0; i < STAT_NPCT; i++) {
		fputs("</td><td class=\"n\">", f);
		/* jv_get: "p99.9" has a dot, so no jv_path. */
		if (jv_type(jv_get(ps, stat_pct_name[i])) == JV_NUM)
			html_put_num(f, jv_get(ps, stat_pct_name[i]), "", 3, "",
			    1e-6);
		else
			fputs("n/a", f);
	}
	fputs("</td><td class=\"n\">", f);
	html_put_num(f, h, "max_ns", 3, "", 1e-6);
	fputs("</td></tr>\n", f);
}

static void
write_percentiles(struct html_ctx *c, const struct jv *b)
{
	FILE *f = c->f;
	const struct jv *hs = jv_get(b, "histograms"), *h;
	const char *k;
	size_t i, j;

	fputs("<section>\n<h2 id=\"percentiles\">Percentiles <span "
	    "class=\"dim\">[ms]</span></h2>\n<div class=\"wrap\">"
	    "<table class=\"pct\">\n"
	    "<thead><tr><th></th><th class=\"n\">count</th>", f);
	for (i = 0; i < STAT_NPCT; i++)
		fprintf(f, "<th class=\"n\">%s</th>", stat_pct_name[i]);
	fputs("<th class=\"n\">max</th></tr></thead>\n<tbody>\n", f);
	for (i = 0; i < BASIC_NPHASES; i++)
		if (jv_type(h = jv_get(hs, basic_phase_json[i])) == JV_OBJ)
			pct_row(f, basic_phase_label[i], h);
	/* Histograms a later version may add: under their own names. */
	for (i = 0; i < jv_len(hs); i++) {
		k = jv_key_at(hs, i);
		if (k == NULL || jv_type(jv_at(hs, i)) != JV_OBJ)
			continue;
		for (j = 0; j < BASIC_NPHASES; j++)
			if (strcmp(k, basic_phase_json[j]) == 0)
				break;
		if (j == BASIC_NPHASES)
			pct_row(f, k, jv_at(hs, i));
	}
	if (jv_type(h = jv_path(c->doc, "stats.tls_stat.time")) == JV_OBJ)
		pct_row(f, "TLS handshake (all)", h);
	if (jv_type(h = jv_path(c->doc, "stats.sched.lateness")) == JV_OBJ)
		pct_row(f, "Lateness", h);
	fputs("</tbody>\n</table></div>\n</section>\n", f);
}

int
html_write(FILE *f, const struct jv *doc, const struct html_client *clients,
    size_t nclients, char *err, size_t errlen)
{
	struct html_ctx c;
	const struct jv *b = jv_path(doc, "stats.basic");

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (jv_type(b) != JV_OBJ) {
		if (err != NULL)
			snprintf(err, errlen, "stats.basic missing or not an "
			    "object: not a result document");
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.f = f;
	c.doc = doc;
	c.cl = clients;
	c.ncl = clients != NULL ? nclients : 0;

	write_head(&c);
	write_summary(&c);
	write_totals(&c);
	write_percentiles(&c, b);
	write_warning(&c, jv_path(doc, "stats.sched"));
	html_sweep(&c);
	fputs("<h2 id=\"distribution\">Latency distribution</h2>\n"
	    "<div class=\"grid\">\n", f);
	html_plot_pct_reply(&c);
	html_plot_pct_phases(&c);
	fputs("</div>\n", f);
	html_plots_interval(&c);
	html_plot_pct_lateness(&c);
	fputs("<footer>Written by ", f);
	put_cells(f, doc, tool_cells);
	fputs(" from its result document. Percentile axes are log-scaled in "
	    "1/(1&#8722;p), as HdrHistogram plots them; hover over a line or "
	    "a dot for its values.</footer>\n</main>\n</body>\n</html>\n",
	    f);
	if (c.oom) {
		if (err != NULL)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (fflush(f) != 0 || ferror(f)) {
		if (err != NULL)
			snprintf(err, errlen, "write error: %s",
			    strerror(errno));
		return -1;
	}
	return 0;
}
