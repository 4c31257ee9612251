/*
 * The --wsesslog workload (see wsesslog.h): session i follows session
 * i mod n of the file; each call gets its request (method, URI, body and
 * its Content-Length line) from the file, whose memory outlives the run.
 * With --template the URI and body are templates, compiled here once and
 * expanded by the core (conn_send()) with the body's Content-Length.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/call.h"
#include "core/clock.h"
#include "core/core.h"
#include "gen/data.h"
#include "gen/generator.h"
#include "gen/session.h"
#include "gen/sesslog.h"
#include "gen/svars.h"
#include "gen/vars.h"
#include "gen/wsesslog.h"
#include "lib/tmpl.h"
#include "lib/util.h"

struct wsesslog {
	struct session_gen gen;
	struct sesslog	 log;		/* at least one session */
	uint64_t	 think;		/* default, ns */
	/* --template: each request's URI and body compiled, by its index
	   in log.reqs; NULL without --template. */
	struct tmpl	*turi;
	struct tmpl	*tbody;
	struct tmpl	*thdrs;		/* header= lines */
	/* extract= and check= (and --check), by request; NULL when the
	   run has none.  A request without its own has sv.global's. */
	struct svars	 sv;
	struct svars_spec *specs;
	struct vars	 vars;		/* --data's columns and sv's names */
};

/* Returns the file's session that session `idx' follows. */
static const struct sesslog_sess *
wsesslog_sess(const struct wsesslog *w, uint64_t idx)
{
	return &w->log.sess[idx % w->log.nsess];
}

static size_t
wsesslog_burst(void *arg, uint64_t idx, size_t b)
{
	const struct sesslog_sess *t = wsesslog_sess(arg, idx);

	return b < t->nbursts ? t->bursts[b].nreqs : 0;
}

/*
 * Gives call `i' of burst `b' its request from the file.  The call is
 * new: its only header lines so far are its header= lines (one iovec)
 * and the Content-Length one given here (the session's Cookie line comes
 * later), so it always has room.
 */
static void
wsesslog_fill(void *arg, uint64_t idx, size_t b, size_t i, struct call *call)
{
	const struct wsesslog *w = arg;
	const struct sesslog_req *r = &wsesslog_sess(arg, idx)->bursts[b].
	    reqs[i];
	size_t k = (size_t)(r - w->log.reqs);
	const struct svars_spec *spec;

	call->method = r->method;
	call->method_len = r->method_len;
	call->uri = r->uri;
	call->uri_len = r->uri_len;
	if (w->turi != NULL && w->turi[k].vars)
		call->uri_tmpl = &w->turi[k];
	/* The core expands the body and says its Content-Length. */
	if (w->specs != NULL) {
		call->rspec = w->specs[k].nops > 0 ? &w->specs[k] :
		    w->sv.global.nops > 0 ? &w->sv.global : NULL;
		spec = call->rspec;
		call->keep_head = spec != NULL && spec->keep_head;
		call->keep_body = spec != NULL && spec->keep_body;
	}
	if (w->thdrs != NULL && w->thdrs[k].vars)
		call->hdrs_tmpl = &w->thdrs[k];
	else if (r->hdrs != NULL) {
		/* All its header= lines, one iovec. */
		call->hdrs[call->nhdrs].iov_base = (void *)(uintptr_t)r->hdrs;
		call->hdrs[call->nhdrs].iov_len = r->hdrs_len;
		call->nhdrs++;
	}
	if (w->tbody != NULL && w->tbody[k].vars)
		call->body_tmpl = &w->tbody[k];
	else if (r->body != NULL) {
		call->body = r->body;
		call->body_len = r->body_len;
		/* iov_base is not const; the line is only read. */
		call->hdrs[call->nhdrs].iov_base = (void *)(uintptr_t)r->clen;
		call->hdrs[call->nhdrs].iov_len = r->clen_len;
		call->nhdrs++;
	}
}

/*
 * The think time after burst `b' (one the session has, as it just ran
 * it): the burst's own, or the default X.
 */
static uint64_t
wsesslog_think(void *arg, uint64_t idx, size_t b)
{
	const struct wsesslog *w = arg;
	const struct sesslog_burst *burst = &wsesslog_sess(w, idx)->bursts[b];

	if (burst->think >= 0)
		return clock_from_sec(burst->think);
	return w->think;
}

static const struct session_ops wsesslog_ops = {
	.burst = wsesslog_burst,
	.fill = wsesslog_fill,
	.think = wsesslog_think,
};

/*
 * --template: compiles every request's URI and body.  Returns 0, or -1
 * with "FILE:LINE: what: column N: problem" in err.
 */
static int
wsesslog_compile(struct wsesslog *w, const char *path, char *err,
    size_t errlen)
{
	const struct sesslog_req *r;
	char msg[256];
	size_t i, col;

	w->turi = xcalloc(w->log.nreqs, sizeof(*w->turi));
	w->tbody = xcalloc(w->log.nreqs, sizeof(*w->tbody));
	w->thdrs = xcalloc(w->log.nreqs, sizeof(*w->thdrs));
	for (i = 0; i < w->log.nreqs; i++) {
		r = &w->log.reqs[i];
		if (tmpl_compile(&w->turi[i], r->uri, r->uri_len,
		    vars_resolve, &w->vars, msg, sizeof(msg), &col) == -1) {
			snprintf(err, errlen, "%s:%u: URI: column %zu: %s",
			    path, r->line, col, msg);
			return -1;
		}
		if (r->body != NULL && tmpl_compile(&w->tbody[i], r->body,
		    r->body_len, vars_resolve, &w->vars, msg, sizeof(msg),
		    &col) == -1) {
			snprintf(err, errlen, "%s:%u: contents: column %zu: "
			    "%s", path, r->line, col, msg);
			return -1;
		}
		if (r->hdrs != NULL && tmpl_compile(&w->thdrs[i], r->hdrs,
		    r->hdrs_len, vars_resolve, &w->vars, msg, sizeof(msg),
		    &col) == -1) {
			snprintf(err, errlen, "%s:%u: header: column %zu: "
			    "%s", path, r->line, col, msg);
			return -1;
		}
	}
	return 0;
}

/* Frees what wsesslog_compile() made. */
static void
wsesslog_tmpl_free(struct wsesslog *w)
{
	size_t i;

	for (i = 0; w->turi != NULL && i < w->log.nreqs; i++) {
		tmpl_free(&w->turi[i]);
		tmpl_free(&w->tbody[i]);
		tmpl_free(&w->thdrs[i]);
	}
	free(w->turi);
	free(w->tbody);
	free(w->thdrs);
	w->turi = w->tbody = w->thdrs = NULL;
}

/*
 * Compiles every request's extract= and check= (declaring the variables
 * before any template is compiled) with --check's checks.  Returns 0, or
 * -1 with "FILE:LINE: problem" in err.
 */
static int
wsesslog_specs(struct wsesslog *w, const struct wsesslog_config *cfg,
    char *err, size_t errlen)
{
	const struct sesslog_req *r;
	char msg[512];
	size_t i, any = cfg->nchecks;

	if (svars_global(&w->sv, cfg->checks, cfg->nchecks, msg,
	    sizeof(msg)) == -1) {
		snprintf(err, errlen, "--check: %s", msg);
		return -1;
	}
	for (i = 0; i < w->log.nreqs; i++)
		any += w->log.reqs[i].nspecs;
	if (any == 0)
		return 0;
	w->specs = xcalloc(w->log.nreqs, sizeof(*w->specs));
	for (i = 0; i < w->log.nreqs; i++) {
		r = &w->log.reqs[i];
		if (r->nspecs == 0)
			continue;
		if (svars_spec_compile(&w->sv, &w->specs[i], r->specs,
		    r->nspecs, msg, sizeof(msg)) == -1 ||
		    (w->sv.n > 0 && !cfg->template &&
		    snprintf(msg, sizeof(msg), "extract= needs --template "
		    "(its value is used as {{NAME}})") > 0)) {
			snprintf(err, errlen, "%s:%u: %s", cfg->path, r->line,
			    msg);
			return -1;
		}
	}
	return 0;
}

/* Frees what wsesslog_specs() made. */
static void
wsesslog_specs_free(struct wsesslog *w)
{
	size_t i;

	for (i = 0; w->specs != NULL && i < w->log.nreqs; i++)
		svars_spec_free(&w->specs[i]);
	free(w->specs);
	w->specs = NULL;
	svars_clear(&w->sv);
}

/* The generator interface: the state is the session engine. */

static int
wsesslog_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct wsesslog_config *cfg = env->cfg;
	struct wsesslog *w;

	w = xcalloc(1, sizeof(*w));
	/* A file without any session is refused here too. */
	if (sesslog_load(&w->log, cfg->path, err, errlen) == -1) {
		free(w);
		return -1;
	}
	w->vars.data = cfg->data;
	w->vars.sv = &w->sv;
	if (wsesslog_specs(w, cfg, err, errlen) == -1 || (cfg->template &&
	    wsesslog_compile(w, cfg->path, err, errlen) == -1)) {
		wsesslog_specs_free(w);
		wsesslog_tmpl_free(w);
		sesslog_free(&w->log);
		free(w);
		return -1;
	}
	w->think = clock_from_sec(cfg->think);
	if (w->specs != NULL) {
		env->core->cfg.reply_fn = svars_reply;
		env->core->cfg.reply_arg = &w->sv;
	}
	/* The run's value callback: setup.c's (data_value) knows only
	   the columns. */
	if (w->sv.n > 0 && env->core->cfg.tmpl != NULL) {
		env->core->cfg.tmpl->value = vars_value;
		env->core->cfg.tmpl->value_arg = &w->vars;
	}
	session_gen_init(&w->gen, env->core, &cfg->sess, &wsesslog_ops, w,
	    env->done, env->done_arg);
	*state = &w->gen;
	return 0;
}

static void
wsesslog_fini(void *state)
{
	struct wsesslog *w = containerof(state, struct wsesslog, gen);

	session_gen_fini(&w->gen);
	wsesslog_tmpl_free(w);
	wsesslog_specs_free(w);
	sesslog_free(&w->log);
	free(w);
}

const struct generator wsesslog_generator = {
	.name = "wsesslog",
	.init = wsesslog_init,
	.start = session_gen_start,
	.drain = session_gen_drain,
	.end = session_gen_end,
	.set_rate = session_gen_set_rate,
	.stop = session_gen_stop,
	.fini = wsesslog_fini,
};
