/*
 * httperf --merge of --sweep results (issue 25): the files of clients
 * (--client I/N, N above 1) that ran the same fixed plan, each step on
 * the same place of the wall clock, merged step by step.
 *
 * Each file's head is checked (merge_sweep_head): a sweep merges only
 * with sweeps, of the same plan: as many steps, each a planned one (no
 * bisection probe, no repeat: a search's steps follow its own verdicts)
 * at the same level.  Then each step's result documents are merged by
 * the code that merges whole runs (merge_init, merge_add, merge_finish,
 * merge_json), the objectives given to --merge are measured on the
 * merged step's document (sweep_step_verdict: report/slo_doc.c, as a
 * run measures its steps), the client was the bottleneck in the merged
 * step when the merged schedule says so (stats.sched.warning.fired,
 * worked out from the merged totals), and the capacity is the fixed
 * plan's answer from the merged verdicts (sweep_search_fixed_answer).
 * A merged step's level is the sum of the files' (the load all the
 * clients offered together), as the merged schedule's target rate is.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/util.h"
#include "opt/options.h"
#include "report/merge.h"
#include "report/merge_int.h"
#include "report/sweep_out.h"
#include "stat/basic.h"

/* The merged sweep: its steps, and what its output shows. */
struct merge_sweep {
	struct sweep_out  out;
	struct sweep_step *steps;
	size_t		  nsteps;
};

/* What sweep.unit and sweep.param may be (report/sweep_out.c). */
static const char *const msw_units[] = {
	"conn/s", "sess/s", "req/s", "conc", NULL
};
static const char *const msw_params[] = { "rate", "concurrency", NULL };

/* The number at `key' of v, or -1 (absent, or not a number). */
static double
msw_num(const struct jv *v, const char *key)
{
	double d;

	return jv_num(jv_get(v, key), &d) == 0 ? d : -1;
}

/*
 * A string member of the first file's "sweep" the output prints: one of
 * `allowed' (NULL-terminated), or with `allowed' NULL a sweep spec.
 */
static void
msw_need_str(struct mrd *r, const struct jv *sw, const char *key,
    const char *const *allowed)
{
	const char *v = jv_str(jv_get(sw, key), NULL);
	struct sweep_spec spec;
	char field[64], err[SWEEP_ERR_MAX];

	snprintf(field, sizeof(field), "sweep.%s", key);
	if (v == NULL) {
		merge_fail(r, field, "missing or not a string");
		return;
	}
	if (allowed == NULL) {
		if (sweep_spec_parse(v, 0, &spec, err, sizeof(err)) == -1)
			merge_fail(r, field, "not a sweep: %s", err);
		return;
	}
	for (; *allowed != NULL; allowed++)
		if (strcmp(*allowed, v) == 0)
			return;
	merge_fail(r, field, "not a value this version writes");
}

/*
 * The plan of this file's sweep `sw' against the first file's: the same
 * spec, step time and warm-up.
 */
static void
msw_plan(struct mrd *r, const struct jv *sw)
{
	const struct jv *sw0 = r->m->sweep;
	const char *spec = jv_str(jv_get(sw, "spec"), NULL);
	const char *spec0 = jv_str(jv_get(sw0, "spec"), NULL);
	static const char *const num[] = { "step_time_s", "warmup_s" };
	size_t i;

	if (spec == NULL || spec0 == NULL || strcmp(spec, spec0) != 0) {
		merge_fail(r, "sweep.spec", "%s, %s's is %s: the files must "
		    "have run the same fixed plan", spec != NULL ? spec : "-",
		    r->m->first, spec0 != NULL ? spec0 : "-");
		return;
	}
	for (i = 0; i < 2; i++)
		if (msw_num(sw, num[i]) != msw_num(sw0, num[i]) ||
		    msw_num(sw, num[i]) < 0) {
			char field[32];

			snprintf(field, sizeof(field), "sweep.%s", num[i]);
			merge_fail(r, field, "%g, %s's is %g: the files must "
			    "have run the same fixed plan", msw_num(sw,
			    num[i]), r->m->first, msw_num(sw0, num[i]));
			return;
		}
}

/*
 * Step i of this file: a planned step, with a result, at the level of
 * the first file's step i.
 */
static void
msw_step_head(struct mrd *r, size_t i, const struct jv *st,
    const struct jv *st0)
{
	const char *kind = jv_str(jv_get(st, "kind"), NULL);
	double level = msw_num(st, "level");
	char field[64];

	snprintf(field, sizeof(field), "sweep.steps.%zu", i);
	if (jv_type(st) != JV_OBJ || kind == NULL || (strcmp(kind, "plan") !=
	    0 && strcmp(kind, "probe") != 0 && strcmp(kind, "repeat") != 0) ||
	    !(level > 0) || !isfinite(level) ||
	    jv_type(jv_get(st, "result")) != JV_OBJ)
		merge_fail(r, field, "not a step with a kind, a level and a "
		    "result");
	else if (strcmp(kind, "plan") != 0)
		merge_fail(r, field, "a %s step of a capacity search: only "
		    "fixed plans merge (with --client I/N, N above 1, a sweep "
		    "runs every planned level)", kind);
	else if (st0 != NULL && level != msw_num(st0, "level"))
		merge_fail(r, field, "level %g, %s's is %g: the files must "
		    "have run the same fixed plan", level, r->m->first,
		    msw_num(st0, "level"));
}

void
merge_sweep_head(struct mrd *r)
{
	struct merge *m = r->m;
	const struct jv *sw = merge_get(r, "sweep"), *steps, *steps0 = NULL;
	size_t i, n;

	if (r->first)
		m->sweep = sw;
	else if ((sw != NULL) != (m->sweep != NULL)) {
		merge_fail(r, "sweep", "in one of this file and %s only: a "
		    "--sweep's result merges only with those of the same plan",
		    m->first);
		return;
	}
	if (sw == NULL)
		return;
	steps = jv_get(sw, "steps");
	if (jv_type(sw) != JV_OBJ || jv_type(steps) != JV_ARR ||
	    (n = jv_len(steps)) == 0) {
		merge_fail(r, "sweep.steps", "missing or not a list of steps");
		return;
	}
	if (n > SWEEP_LEVELS_MAX) {
		merge_fail(r, "sweep.steps", "more than %d steps: not a fixed "
		    "plan", SWEEP_LEVELS_MAX);
		return;
	}
	if (r->first) {
		msw_need_str(r, sw, "spec", NULL);
		msw_need_str(r, sw, "unit", msw_units);
		msw_need_str(r, sw, "param", msw_params);
		if (msw_num(sw, "step_time_s") <= 0 ||
		    msw_num(sw, "warmup_s") < 0 ||
		    msw_num(sw, "precision_pct") <= 0)
			merge_fail(r, "sweep", "step_time_s, warmup_s or "
			    "precision_pct missing or out of range");
	} else {
		msw_plan(r, sw);
		steps0 = jv_get(m->sweep, "steps");
		if (n != jv_len(steps0))
			merge_fail(r, "sweep.steps", "%zu steps, %s has %zu: "
			    "the files must have run the same fixed plan", n,
			    m->first, jv_len(steps0));
	}
	for (i = 0; i < n && !r->failed; i++)
		msw_step_head(r, i, jv_at(steps, i), steps0 != NULL ?
		    jv_at(steps0, i) : NULL);
}

/* File `path''s step i in messages: "PATH: sweep.steps.I.result". */
static char *
msw_label(const char *path, size_t i)
{
	size_t len = strlen(path) + 48;
	char *s = xmalloc(len);

	snprintf(s, len, "%s: sweep.steps.%zu.result", path, i);
	return s;
}

/*
 * Writes mj's document into st->doc (NULL when it cannot be made), the
 * files' step documents `rs' and paths in its "merged" member.
 */
static void
msw_doc(struct merge *mj, struct sweep_step *st, const struct jv **rs,
    char *const *paths, size_t n)
{
	FILE *f;

	free(st->doc);
	st->doc = NULL;
	st->doclen = 0;
	if ((f = open_memstream(&st->doc, &st->doclen)) == NULL)
		return;
	if (merge_json(mj, f, rs, paths, n) == -1 || fclose(f) != 0) {
		free(st->doc);
		st->doc = NULL;
		st->doclen = 0;
	}
}

/* Whether the merged step's schedule says the client was the limit. */
static int
msw_client(const struct sweep_step *st)
{
	struct jv *doc;
	int fired = 0;

	if (st->doc == NULL ||
	    (doc = jv_parse(st->doc, st->doclen, NULL, 0)) == NULL)
		return 0;
	if (jv_bool(jv_path(doc, "stats.sched.warning.fired"), &fired) != 0)
		fired = 0;
	jv_free(doc);
	return fired;
}

/*
 * The merged step j: the files' step documents merged, its figures, its
 * document (with stats.slo when there are objectives) and its verdict.
 * Returns 0, or -1 after a message (a step that does not merge).
 */
static int
msw_step(struct merge *m, const struct options *o,
    const struct jv *const *docs, char *const *paths, size_t n, size_t j,
    struct sweep_step *st)
{
	size_t i;
	const struct jv **rs = xcalloc(n, sizeof(*rs)), *s;
	char **labels = xcalloc(n, sizeof(*labels));
	struct merge mj;
	int rv = -1;

	merge_init(&mj, m->cols, m->ncols);
	for (i = 0; i < n; i++) {
		s = jv_at(jv_path(docs[i], "sweep.steps"), j);
		rs[i] = jv_get(s, "result");
		labels[i] = msw_label(paths[i], j);
		if (merge_add(&mj, rs[i], labels[i], o->prog, stderr) == -1)
			goto out;
		st->level += msw_num(s, "level");
	}
	merge_finish(&mj);
	st->kind = SWEEP_K_PLAN;
	st->secs = (double)mj.run.duration / 1e9;
	sweep_step_basic(st, merge_state(&mj, &basic_collector));
	msw_doc(&mj, st, rs, paths, n);
	if (o->n_slo > 0) {
		st->verdict = sweep_step_verdict(st, o->slo, o->n_slo);
		/* Again, with stats.slo (merge_free must not free it). */
		mj.slo = o->slo;
		mj.slo_measured = st->measured;
		mj.nslo = o->n_slo;
		msw_doc(&mj, st, rs, paths, n);
		mj.slo_measured = NULL;
	}
	if ((st->client = msw_client(st)) != 0)
		st->verdict = SWEEP_V_CLIENT;
	rv = 0;
out:
	merge_free(&mj);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(rs);
	return rv;
}

/* The output of the merged sweep, its capacity from the merged verdicts. */
static void
msw_out(struct merge_sweep *ms, const struct merge *m,
    const struct options *o, const struct jv *const *docs, size_t n)
{
	struct sweep_out *out = &ms->out;
	double *level = xcalloc(ms->nsteps, sizeof(*level));
	enum sweep_verdict *v = xcalloc(ms->nsteps, sizeof(*v));
	const char *end;
	size_t i;

	out->spec = jv_str(jv_get(m->sweep, "spec"), NULL);
	out->spec_from = ms->steps[0].level;
	out->step_time = msw_num(m->sweep, "step_time_s");
	out->warmup = msw_num(m->sweep, "warmup_s");
	out->precision = msw_num(m->sweep, "precision_pct");
	out->unit = jv_str(jv_get(m->sweep, "unit"), NULL);
	out->param = jv_str(jv_get(m->sweep, "param"), NULL);
	out->slo = o->slo;
	out->nslo = o->n_slo;
	out->steps = ms->steps;
	out->nsteps = ms->nsteps;
	out->fixed = 1;
	for (i = 0; i < ms->nsteps; i++) {
		level[i] = ms->steps[i].level;
		v[i] = ms->steps[i].verdict;
	}
	sweep_search_fixed_answer(level, v, ms->nsteps, o->n_slo > 0,
	    &out->cap);
	/* A file cut short (a signal) leaves the merge without an answer. */
	for (i = 0; i < n; i++)
		if ((end = jv_str(jv_path(docs[i], "sweep.capacity.end"),
		    NULL)) != NULL && strcmp(end, "cut") == 0)
			out->cut = 1;
	free(level);
	free(v);
}

int
merge_sweep_steps(struct merge *m, const struct options *o,
    const struct jv *const *docs, char *const *paths, size_t n)
{
	struct merge_sweep *ms;
	size_t j, nsteps;

	if (m->sweep == NULL)
		return 0;
	nsteps = jv_len(jv_get(m->sweep, "steps"));
	m->msw = ms = xcalloc(1, sizeof(*ms));
	ms->steps = xcalloc(nsteps, sizeof(*ms->steps));
	for (j = 0; j < nsteps; j++) {
		ms->nsteps++;
		if (msw_step(m, o, docs, paths, n, j, &ms->steps[j]) == -1)
			return -1;
	}
	msw_out(ms, m, o, docs, n);
	return 0;
}

int
merge_sweep_print(const struct merge *m, FILE *out)
{
	sweep_out_print(out, &m->msw->out);
	return sweep_out_status(&m->msw->out);
}

void
merge_sweep_json(struct jsonw *w, const struct merge *m)
{
	if (m->msw != NULL)
		sweep_out_json(w, &m->msw->out);
}

void
merge_sweep_free(struct merge *m)
{
	struct merge_sweep *ms = m->msw;
	size_t i;

	if (ms == NULL)
		return;
	for (i = 0; i < ms->nsteps; i++) {
		free(ms->steps[i].doc);
		free(ms->steps[i].measured);
	}
	free(ms->steps);
	free(ms);
	m->msw = NULL;
}
