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
#include "report/merge_int.h"
#include "report/result.h"
#include "report/slo_doc.h"
#include "stat/basic.h"
#include "stat/collector.h"
#include "stat/sched_stat.h"

/* Whether row i's collector reads stats.`name'. */
static int
merge_reads(const struct merge *m, size_t i, const char *name)
{
	return m->cols[i]->merge != NULL && strcmp(m->cols[i]->name,
	    name) == 0;
}

/*
 * The collectors: each member of stats is one the table can merge, and
 * the files have the same ones.  The first file turns on the collectors
 * it has, each with a state made for a merge.
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
		/* The files' verdicts: the merge measures its own; a
		   file's --slo-abort is not carried (its totals are). */
		if (k == m->ncols && strcmp(jv_key_at(st, i), "slo") != 0 &&
		    strcmp(jv_key_at(st, i), "slo_abort") != 0)
			merge_fail(r, "stats", "%s: results this version "
			    "cannot merge", jv_key_at(st, i));
	}
	memset(&env, 0, sizeof(env));
	for (i = 0; i < m->ncols && !r->failed; i++) {
		if (m->cols[i]->merge == NULL || m->cols[i]->always)
			continue;
		has = jv_get(st, m->cols[i]->name) != NULL;
		snprintf(field, sizeof(field), "stats.%s", m->cols[i]->name);
		if (!r->first && has != (m->states[i] != NULL))
			merge_fail(r, field, "in one of this file and %s only",
			    m->first);
	}
	for (i = 0; i < m->ncols && r->first && !r->failed; i++)
		if (m->cols[i]->merge != NULL && (m->cols[i]->always ||
		    jv_get(st, m->cols[i]->name) != NULL) &&
		    m->cols[i]->init(&m->states[i], &env, err,
		    sizeof(err)) == -1)
			merge_fail(r, "stats", "%s: %s", m->cols[i]->name, err);
}

/* Each collector adds its part, in the table's order. */
static void
rd_stats(struct mrd *r)
{
	const struct jv *st = merge_get(r, "stats");
	struct merge *m = r->m;
	struct collector_merge mg;
	char field[128];
	size_t i;

	if (jv_type(st) != JV_OBJ) {
		merge_fail(r, "stats", "missing or not an object");
		return;
	}
	rd_stats_same(r, st);
	for (i = 0; i < m->ncols && !r->failed; i++) {
		if (m->states[i] == NULL)
			continue;
		memset(&mg, 0, sizeof(mg));
		mg.obj = jv_get(st, m->cols[i]->name);
		snprintf(field, sizeof(field), "stats.%s", m->cols[i]->name);
		if (m->cols[i]->always && jv_type(mg.obj) != JV_OBJ) {
			merge_fail(r, field, "missing or not an object");
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
		merge_fail(&r, NULL,
		    "not an httperf result (not a JSON object)");
	if (r.first)
		m->first = path;
	if (!r.failed)
		merge_head(&r);
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

/* The "merged" member: the files' paths, hosts and clients; then a
   sweep's. */
struct merge_tail {
	const struct merge	*m;
	const struct jv *const	*docs;
	char *const		*paths;
	size_t			 n;
};

/* A file's "load": its values of the options that set its load. */
static void
merge_json_load(struct jsonw *w, const struct jv *o)
{
	const struct jv *v;
	size_t i;

	jsonw_key(w, "load");
	jsonw_obj_begin(w);
	for (i = 0; merge_load_options[i] != NULL; i++)
		if ((v = jv_get(o, merge_load_options[i])) != NULL) {
			jsonw_key(w, merge_load_options[i]);
			result_copy(w, v);
		}
	jsonw_obj_end(w);
}

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
		merge_json_load(w, jv_get(t->docs[i], "options"));
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
	jsonw_kbool(w, "equal_load", !t->m->unequal);
	jsonw_obj_end(w);
	merge_sweep_json(w, t->m);
}

int
merge_json(struct merge *m, FILE *f, const struct jv *const *docs,
    char *const *paths, size_t nfiles)
{
	struct merge_tail t = { m, docs, paths, nfiles };
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
	d.slo = m->slo;
	d.slo_measured = m->slo_measured;
	d.nslo = m->nslo;
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
	free(m->slo_measured);
	merge_sweep_free(m);
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

/*
 * The objectives measured on the merged document and printed; kept for
 * its stats.slo.  Returns how many failed, or -1 after a message.
 */
static int
merge_slo(struct merge *m, const struct options *o, FILE *out,
    struct merge_html_arg *a)
{
	double *measured = xcalloc(o->n_slo, sizeof(*measured));
	int failed;

	failed = slo_doc_report(o->prog, out, merge_html_doc, a, o->slo,
	    o->n_slo, measured);
	m->slo = o->slo;
	m->slo_measured = measured;
	m->nslo = o->n_slo;
	return failed;
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
	struct merge_html_arg a = { &m, o, NULL, o->n_merge_files };
	FILE *out, *jf = NULL, *hf = NULL;
	size_t i, n = o->n_merge_files;
	int status = 1, to_stdout, failed = 0;

	merge_init(&m, cols, ncols);
	a.docs = docs = xcalloc(n, sizeof(*docs));
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
	if (merge_sweep_steps(&m, o, (const struct jv *const *)docs,
	    o->merge_files, n) == -1)
		goto out;
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
	/* The objectives, measured again on the merged document (a
	   sweep's on each merged step, as a run's judge its steps). */
	if (m.sweep != NULL)
		failed = merge_sweep_print(&m, out);
	else if (o->n_slo > 0 && (failed = merge_slo(&m, o, out, &a)) > 0)
		failed = 4;
	if (failed == -1)
		goto out;
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "%s: cannot write the report\n", o->prog);
		goto out;
	}
	status = failed;
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
