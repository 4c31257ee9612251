/*
 * httperf --merge (see merge.h for the rules).  Each file is read whole,
 * parsed by the strict reader (jsonr.h) and its head checked against the
 * first file's; then each collector of the module table the caller gives
 * (the table a run walks) adds its part, stats.NAME, into a state of its
 * own with its merge op, and the merge reports as a run does, through the
 * same collectors' ops: the merged report is the one a run with those
 * totals prints, line for line, and the document the one it writes.
 *
 * Every member is read by its full path, so a refusal names it: "PROG:
 * --merge: FILE: stats.basic.requests.total: missing or not an unsigned
 * integer".  Nothing in a file is trusted: sums that would overflow are
 * refused, strings are copied with bounds, histograms are decoded by the
 * hardened decoder.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hdr.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "opt/options.h"
#include "report/html.h"
#include "report/html_out.h"
#include "report/merge.h"
#include "report/result.h"
#include "stat/basic.h"
#include "stat/collector.h"
#include "stat/sched_stat.h"

/* Reading one file: where messages go, and the first fault only. */
struct mrd {
	struct merge	*m;
	const struct jv	*root;
	const char	*path;
	const char	*prog;
	FILE		*err;
	int		 failed;
	int		 first;		/* the first file */
	uint64_t	 start_ns;	/* its start.epoch_ns, once read */
	uint64_t	 duration_ns;
};

static void __attribute__((format(printf, 3, 4)))
mfail(struct mrd *r, const char *field, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	fprintf(r->err, "%s: --merge: ", r->prog);
	util_put_escaped(r->err, r->path, strlen(r->path));
	if (field != NULL)
		fprintf(r->err, ": %s", field);
	fputs(": ", r->err);
	va_start(ap, fmt);
	vfprintf(r->err, fmt, ap);
	va_end(ap);
	putc('\n', r->err);
}

/* The member at `path' (dotted) of the document. */
static const struct jv *
rd(struct mrd *r, const char *path)
{
	return jv_path(r->root, path);
}

static uint64_t
rd_u64(struct mrd *r, const char *path)
{
	uint64_t v = 0;

	if (jv_u64(rd(r, path), &v) == -1)
		mfail(r, path, "missing or not an unsigned integer");
	return v;
}

/* Whether two values are the same JSON (numbers by value). */
static int
jv_equal(const struct jv *a, const struct jv *b)
{
	const char *sa, *sb;
	size_t la, lb, i;
	double da, db;
	uint64_t ua, ub;
	int ba, bb;

	if (jv_type(a) != jv_type(b))
		return 0;
	switch (jv_type(a)) {
	case JV_NULL:
		return 1;
	case JV_BOOL:
		jv_bool(a, &ba);
		jv_bool(b, &bb);
		return ba == bb;
	case JV_NUM:
		if (jv_u64(a, &ua) == 0 && jv_u64(b, &ub) == 0)
			return ua == ub;
		jv_num(a, &da);
		jv_num(b, &db);
		return da == db;
	case JV_STR:
		sa = jv_str(a, &la);
		sb = jv_str(b, &lb);
		return la == lb && memcmp(sa, sb, la) == 0;
	case JV_ARR:
		if (jv_len(a) != jv_len(b))
			return 0;
		for (i = 0; i < jv_len(a); i++)
			if (!jv_equal(jv_at(a, i), jv_at(b, i)))
				return 0;
		return 1;
	case JV_OBJ:
		if (jv_len(a) != jv_len(b))
			return 0;
		for (i = 0; i < jv_len(a); i++)
			if (!jv_equal(jv_at(a, i), jv_get(b, jv_key_at(a, i))))
				return 0;
		return 1;
	}
	return 0;
}

static int
may_differ(const char *name)
{
	size_t i;

	for (i = 0; options_merge_may_differ[i] != NULL; i++)
		if (strcmp(options_merge_may_differ[i], name) == 0)
			return 1;
	return 0;
}

/* The options define the workload: they must be the first file's. */
static void
rd_options(struct mrd *r)
{
	const struct jv *o = rd(r, "options"), *o0 = r->m->options;
	const char *k;
	char field[128];
	size_t i;

	if (jv_type(o) != JV_OBJ) {
		mfail(r, "options", "missing or not an object");
		return;
	}
	if (r->first) {
		r->m->options = o;
		return;
	}
	for (i = 0; i < jv_len(o) && !r->failed; i++) {
		k = jv_key_at(o, i);
		snprintf(field, sizeof(field), "options.%s", k);
		if (may_differ(k))
			continue;
		if (jv_get(o0, k) == NULL)
			mfail(r, field, "not in %s (a different version?)",
			    r->m->first);
		else if (!jv_equal(jv_at(o, i), jv_get(o0, k)))
			mfail(r, field, "differs from %s: the files must be "
			    "runs of the same workload", r->m->first);
	}
	for (i = 0; i < jv_len(o0) && !r->failed; i++) {
		k = jv_key_at(o0, i);
		snprintf(field, sizeof(field), "options.%s", k);
		if (!may_differ(k) && jv_get(o, k) == NULL)
			mfail(r, field, "missing (it is in %s)", r->m->first);
	}
}

static int
id_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/*
 * Adds the file's client ids (below n) to the merge's, refusing one that
 * is already there: the file's sorted, then merged with the merge's
 * sorted ones, so O(k log k + n) for k ids in the file.
 */
static int
rd_ids(struct mrd *r, const struct jv *ids, uint64_t n)
{
	struct merge *m = r->m;
	unsigned *v, *out, dup;
	size_t k = jv_len(ids), i, a, b, o;
	uint64_t id;
	int found = 0;

	v = xreallocarray(NULL, k, sizeof(*v));
	for (i = 0; i < k; i++) {
		if (jv_u64(jv_at(ids, i), &id) == -1 || id >= n) {
			mfail(r, "client.ids", "an id is not below client.count");
			free(v);
			return -1;
		}
		v[i] = (unsigned)id;
	}
	qsort(v, k, sizeof(*v), id_cmp);
	out = xreallocarray(NULL, m->nids + k, sizeof(*out));
	for (a = b = o = 0; a < m->nids || b < k; ) {
		if (b == k || (a < m->nids && m->ids[a] < v[b]))
			out[o++] = m->ids[a++];
		else if ((a < m->nids && m->ids[a] == v[b]) ||
		    (o > 0 && out[o - 1] == v[b])) {
			found = 1;
			dup = v[b];
			break;
		} else
			out[o++] = v[b++];
	}
	free(v);
	if (found) {
		free(out);
		mfail(r, "client.ids", "client %u/%u is also in an earlier "
		    "file or twice in this one (each process needs its own "
		    "--client I/N)", dup, m->num_clients);
		return -1;
	}
	free(m->ids);
	m->ids = out;
	m->nids = o;
	return 0;
}

/* The head: format, window, clients, host. */
static void
rd_head(struct mrd *r)
{
	struct merge *m = r->m;
	const struct jv *ids;
	const char *s, *host;
	uint64_t start, dur, n, lo, hi;
	size_t i;

	s = jv_str(rd(r, "format"), NULL);
	if (s == NULL || strcmp(s, RESULT_FORMAT) != 0) {
		mfail(r, "format", "not an httperf result (expected \"%s\")",
		    RESULT_FORMAT);
		return;
	}
	if (rd_u64(r, "schema_version") != RESULT_SCHEMA_VERSION) {
		mfail(r, "schema_version", "not %d, which this version reads",
		    RESULT_SCHEMA_VERSION);
		return;
	}
	start = rd_u64(r, "start.epoch_ns");
	dur = rd_u64(r, "duration_ns");
	n = rd_u64(r, "client.count");
	if ((host = jv_str(rd(r, "host"), NULL)) == NULL)
		mfail(r, "host", "missing or not a string");
	if (r->first && (m->echo = jv_str(rd(r, "command_line"),
	    NULL)) == NULL)
		mfail(r, "command_line", "missing or not a string");
	if (r->failed)
		return;
	if (dur > UINT64_MAX - start) {
		mfail(r, "duration_ns", "too large");
		return;
	}
	if (n == 0 || n > UINT32_MAX) {
		mfail(r, "client.count", "out of range");
		return;
	}
	if (r->first) {
		m->start_ns = start;
		m->end_ns = start + dur;
		m->num_clients = (unsigned)n;
	} else if (n != m->num_clients) {
		mfail(r, "client.count", "%llu differs from %s's %u",
		    (unsigned long long)n, m->first, m->num_clients);
		return;
	}
	lo = start < m->start_ns ? start : m->start_ns;
	hi = start + dur > m->end_ns ? start + dur : m->end_ns;
	if (!r->first && hi - lo > MERGE_MAX_SPAN_NS) {
		mfail(r, "start.epoch_ns", "with %s's, the runs span %.1f "
		    "days on the wall clock; --merge spans at most %llu days "
		    "(a clock set wrong?)", m->first, (double)(hi - lo) /
		    86400e9, (unsigned long long)(MERGE_MAX_SPAN_NS /
		    (UINT64_C(86400) * 1000000000)));
		return;
	}
	m->start_ns = lo;
	m->end_ns = hi;
	r->start_ns = start;
	r->duration_ns = dur;
	ids = rd(r, "client.ids");
	if (jv_type(ids) != JV_ARR || jv_len(ids) == 0) {
		mfail(r, "client.ids", "missing or not a list of ids");
		return;
	}
	if (rd_ids(r, ids, n) == -1)
		return;
	for (i = 0; i < m->nhosts; i++)
		if (strcmp(m->hostv[i], host) == 0)
			break;
	if (i == m->nhosts) {
		m->hostv = xreallocarray(m->hostv, m->nhosts + 1,
		    sizeof(*m->hostv));
		m->hostv[m->nhosts++] = host;
	}
}

/* Whether row i's collector reads stats.`name'. */
static int
merge_reads(const struct merge *m, size_t i, const char *name)
{
	return m->cols[i]->merge != NULL && strcmp(m->cols[i]->name,
	    name) == 0;
}

/*
 * The collectors: each member of stats is one the table can merge, and
 * the files have the same ones.  The first file's turn the collectors
 * it has on, each with a state made for a merge.
 */
static void
rd_stats_same(struct mrd *r, const struct jv *st)
{
	struct merge *m = r->m;
	struct collector_env env;
	char field[128], err[256];
	size_t i;
	int has;

	for (i = 0; i < jv_len(st) && !r->failed; i++) {
		size_t k;

		for (k = 0; k < m->ncols; k++)
			if (merge_reads(m, k, jv_key_at(st, i)))
				break;
		if (k == m->ncols)
			mfail(r, "stats", "%s: results this version cannot "
			    "merge", jv_key_at(st, i));
	}
	memset(&env, 0, sizeof(env));
	for (i = 0; i < m->ncols && !r->failed; i++) {
		if (m->cols[i]->merge == NULL || m->cols[i]->always)
			continue;
		has = jv_get(st, m->cols[i]->name) != NULL;
		snprintf(field, sizeof(field), "stats.%s", m->cols[i]->name);
		if (!r->first && has != (m->states[i] != NULL))
			mfail(r, field, "in one of this file and %s only",
			    m->first);
	}
	for (i = 0; i < m->ncols && r->first && !r->failed; i++)
		if (m->cols[i]->merge != NULL && (m->cols[i]->always ||
		    jv_get(st, m->cols[i]->name) != NULL) &&
		    m->cols[i]->init(&m->states[i], &env, err,
		    sizeof(err)) == -1)
			mfail(r, "stats", "%s: %s", m->cols[i]->name, err);
}

/* Each collector adds its part, in the table's order. */
static void
rd_stats(struct mrd *r)
{
	const struct jv *st = rd(r, "stats");
	struct merge *m = r->m;
	struct collector_merge mg;
	char field[128];
	size_t i;

	if (jv_type(st) != JV_OBJ) {
		mfail(r, "stats", "missing or not an object");
		return;
	}
	rd_stats_same(r, st);
	for (i = 0; i < m->ncols && !r->failed; i++) {
		if (m->states[i] == NULL)
			continue;
		memset(&mg, 0, sizeof(mg));
		mg.obj = jv_get(st, m->cols[i]->name);
		snprintf(field, sizeof(field), "stats.%s", m->cols[i]->name);
		if (jv_type(mg.obj) != JV_OBJ) {
			mfail(r, field, "missing or not an object");
			return;
		}
		mg.name = m->cols[i]->name;
		mg.path = r->path;
		mg.first_path = m->first;
		mg.prog = r->prog;
		mg.err = r->err;
		mg.first = r->first;
		mg.start_ns = r->start_ns;
		mg.duration_ns = r->duration_ns;
		mg.run = &m->run;
		m->cols[i]->merge(m->states[i], &mg);
		r->failed = mg.failed;
	}
}

void
merge_init(struct merge *m, const struct collector *const *cols,
    size_t ncols)
{
	memset(m, 0, sizeof(*m));
	m->cols = cols;
	m->ncols = ncols;
	m->states = xcalloc(ncols > 0 ? ncols : 1, sizeof(*m->states));
}

void *
merge_state(const struct merge *m, const struct collector *col)
{
	size_t i;

	for (i = 0; i < m->ncols; i++)
		if (m->cols[i] == col)
			return m->states[i];
	return NULL;
}

int
merge_add(struct merge *m, const struct jv *doc, const char *path,
    const char *prog, FILE *err)
{
	struct mrd r;

	memset(&r, 0, sizeof(r));
	r.m = m;
	r.root = doc;
	r.path = path;
	r.prog = prog;
	r.err = err;
	r.first = m->nfiles == 0;
	if (jv_type(doc) != JV_OBJ)
		mfail(&r, NULL, "not an httperf result (not a JSON object)");
	if (r.first)
		m->first = path;
	if (!r.failed)
		rd_head(&r);
	if (!r.failed)
		rd_options(&r);
	if (!r.failed)
		rd_stats(&r);
	m->nfiles++;
	return r.failed ? -1 : 0;
}

void
merge_finish(struct merge *m)
{
	size_t i, len = 0;

	m->run.duration = m->end_ns - m->start_ns;
	for (i = 0; i < m->ncols; i++)
		if (m->states[i] != NULL && m->cols[i]->merge_end != NULL)
			m->cols[i]->merge_end(m->states[i], m->start_ns,
			    m->end_ns);
	for (i = 0; i < m->nhosts; i++)
		len += strlen(m->hostv[i]) + 1;
	free(m->hosts);
	m->hosts = xcalloc(1, len + 1);
	for (i = 0; i < m->nhosts; i++) {
		if (i > 0)
			strcat(m->hosts, ",");
		strcat(m->hosts, m->hostv[i]);
	}
}

void
merge_print(struct merge *m, FILE *out)
{
	const struct basic *b;
	void *sched;
	size_t i;

	for (i = 0; i < m->ncols; i++)
		if (m->states[i] != NULL && m->cols[i]->report != NULL)
			m->cols[i]->report(m->states[i], out, &m->run);
	for (i = 0; i < m->ncols; i++)
		if (m->states[i] != NULL && m->cols[i]->extra != NULL)
			m->cols[i]->extra(m->states[i], out, &m->run);
	/* Then the warnings, as after a run: the bottleneck, then a run
	   that mostly failed. */
	if ((sched = merge_state(m, &sched_stat_collector)) != NULL)
		sched_stat_warn(sched, out, &m->run);
	if ((b = merge_state(m, &basic_collector)) != NULL)
		basic_fail_warn(out, &b->t);
}

/* The "merged" member: the files' paths, hosts and clients. */
struct merge_tail {
	const struct jv *const	*docs;
	char *const		*paths;
	size_t			 n;
};

static void
merge_json_tail(struct jsonw *w, const void *arg)
{
	const struct merge_tail *t = arg;
	size_t i;

	jsonw_key(w, "merged");
	jsonw_obj_begin(w);
	jsonw_key(w, "files");
	jsonw_arr_begin(w);
	for (i = 0; i < t->n; i++) {
		jsonw_obj_begin(w);
		jsonw_kstr(w, "path", t->paths[i]);
		jsonw_kstr(w, "host", jv_str(jv_get(t->docs[i], "host"),
		    NULL));
		jsonw_kstr(w, "client", jv_str(jv_path(t->docs[i],
		    "options.client"), NULL));
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

int
merge_json(struct merge *m, FILE *f, const struct jv *const *docs,
    char *const *paths, size_t nfiles)
{
	struct merge_tail t = { docs, paths, nfiles };
	struct result_doc d;

	memset(&d, 0, sizeof(d));
	d.head.start_ns = m->start_ns;
	d.head.duration_ns = m->run.duration;
	d.head.num_clients = m->num_clients;
	d.head.ids = m->ids;
	d.head.nids = m->nids;
	d.head.host = m->hosts != NULL ? m->hosts : "";
	d.head.echo = m->echo != NULL ? m->echo : "";
	d.options = m->options;
	d.cols = m->cols;
	d.states = m->states;
	d.ncols = m->ncols;
	d.run = &m->run;
	d.tail = merge_json_tail;
	d.tail_arg = &t;
	return result_write(f, &d);
}

void
merge_free(struct merge *m)
{
	size_t i;

	for (i = m->ncols; m->states != NULL && i-- > 0;)
		if (m->states[i] != NULL)
			m->cols[i]->fini(m->states[i]);
	free(m->states);
	free(m->ids);
	free(m->hosts);
	free(m->hostv);
	memset(m, 0, sizeof(*m));
}

/* What merge_html_doc needs: the merge and its files. */
struct merge_html_arg {
	struct merge		*m;
	const struct options	*o;
	struct jv *const	*docs;
	size_t			 n;
};

/* The merged document, as --json would write it (html_doc_fn). */
static int
merge_html_doc(FILE *mf, void *arg)
{
	struct merge_html_arg *a = arg;

	return merge_json(a->m, mf, (const struct jv *const *)a->docs,
	    a->o->merge_files, a->n);
}

/*
 * Writes the --html page of the merge to f (and closes it): the merged
 * document, made in memory, and each file's as a client.  Returns 0, or
 * -1 after a message.
 */
static int
merge_html(struct merge *m, const struct options *o, FILE *f,
    struct jv *const *docs, size_t n)
{
	struct merge_html_arg a = { m, o, docs, n };
	struct html_client *cl;
	char **labels;
	const char *host;
	uint64_t id;
	size_t i, llen;
	int rv;

	cl = xcalloc(n, sizeof(*cl));
	labels = xcalloc(n, sizeof(*labels));
	for (i = 0; i < n; i++) {
		if (jv_u64(jv_path(docs[i], "client.id"), &id) == -1)
			id = i;
		if ((host = jv_str(jv_get(docs[i], "host"), NULL)) == NULL)
			host = "?";
		llen = strlen(host) + 40;
		labels[i] = xmalloc(llen);
		snprintf(labels[i], llen, "client %llu (%s)",
		    (unsigned long long)id, host);
		cl[i].doc = docs[i];
		cl[i].label = labels[i];
	}
	rv = html_output_doc(o->prog, f, o->html_file, merge_html_doc, &a,
	    cl, n);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(cl);
	return rv;
}

/* Reads and parses one file; NULL after a message. */
static struct jv *
merge_read(const char *prog, const char *path)
{
	char *text, errbuf[256];
	struct jv *doc;
	size_t len;
	int e;

	if ((e = util_read_file(path, &text, &len)) != 0) {
		fprintf(stderr, "%s: --merge: ", prog);
		util_put_escaped(stderr, path, strlen(path));
		fprintf(stderr, ": %s\n", util_read_strerror(e));
		return NULL;
	}
	doc = jv_parse(text, len, errbuf, sizeof(errbuf));
	free(text);
	if (doc == NULL) {
		fprintf(stderr, "%s: --merge: ", prog);
		util_put_escaped(stderr, path, strlen(path));
		fprintf(stderr, ": not valid JSON: %s\n", errbuf);
	}
	return doc;
}

int
merge_main(const struct options *o, const struct collector *const *cols,
    size_t ncols)
{
	struct jv **docs;
	struct merge m;
	FILE *out, *jf = NULL, *hf = NULL;
	size_t i, n = o->n_merge_files;
	int status = 1, to_stdout;

	merge_init(&m, cols, ncols);
	docs = xcalloc(n, sizeof(*docs));
	if (o->html_file != NULL &&
	    (hf = html_open(o->prog, o->html_file)) == NULL)
		goto out;
	for (i = 0; i < n; i++)
		if ((docs[i] = merge_read(o->prog,
		    o->merge_files[i])) == NULL ||
		    merge_add(&m, docs[i], o->merge_files[i], o->prog,
		    stderr) == -1)
			goto out;
	merge_finish(&m);
	to_stdout = o->json_file != NULL && strcmp(o->json_file, "-") == 0;
	if (o->json_file != NULL) {
		if (to_stdout)
			jf = stdout;
		else if ((jf = fopen(o->json_file, "w")) == NULL) {
			fprintf(stderr, "%s: --json: %s: %s\n", o->prog,
			    o->json_file, strerror(errno));
			goto out;
		}
	}
	out = to_stdout ? stderr : stdout;
	merge_print(&m, out);
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "%s: cannot write the report\n", o->prog);
		goto out;
	}
	status = 0;
	if (jf != NULL) {
		if (merge_json(&m, jf, (const struct jv *const *)docs,
		    o->merge_files, n) == -1 ||
		    (jf != stdout && fclose(jf) != 0)) {
			fprintf(stderr, "%s: --json: cannot write %s\n",
			    o->prog, to_stdout ? "to the standard output" :
			    o->json_file);
			status = 1;
		}
		jf = NULL;
	}
	if (hf != NULL) {
		if (merge_html(&m, o, hf, docs, n) == -1)
			status = 1;
		hf = NULL;
	}
out:
	if (jf != NULL && jf != stdout)
		fclose(jf);
	if (hf != NULL)
		fclose(hf);
	merge_free(&m);
	for (i = 0; i < n; i++)
		jv_free(docs[i]);
	free(docs);
	return status;
}
