/*
 * The --wsesslog workload (see wsesslog.h): session i follows session
 * i mod n of the file; each call gets its request (method, URI, body and
 * its Content-Length line) from the file, whose memory outlives the run.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/call.h"
#include "core/clock.h"
#include "gen/session.h"
#include "gen/sesslog.h"
#include "gen/wsesslog.h"

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

/* Gives call `i' of burst `b' its request from the file. */
static void
wsesslog_fill(void *arg, uint64_t idx, size_t b, size_t i, struct call *call)
{
	const struct sesslog_req *r = &wsesslog_sess(arg, idx)->bursts[b].
	    reqs[i];

	call->method = r->method;
	call->method_len = r->method != NULL ? r->method_len : 0;
	call->uri = r->uri;
	call->uri_len = r->uri_len;
	if (r->body != NULL) {
		call->body = r->body;
		call->body_len = r->body_len;
		if (r->clen != NULL && call->nhdrs < CALL_MAX_HDRS) {
			/* iov_base is not const; the line is only read. */
			call->hdrs[call->nhdrs].iov_base =
			    (void *)(uintptr_t)r->clen;
			call->hdrs[call->nhdrs].iov_len = r->clen_len;
			call->nhdrs++;
		}
	}
}

/* The burst's own think time, or the default X. */
static uint64_t
wsesslog_think(void *arg, uint64_t idx, size_t b)
{
	const struct wsesslog *w = arg;
	const struct sesslog_sess *t = wsesslog_sess(w, idx);

	if (b < t->nbursts && t->bursts[b].think >= 0)
		return clock_from_sec(t->bursts[b].think);
	return w->think;
}

static const struct session_ops wsesslog_ops = {
	.burst = wsesslog_burst,
	.fill = wsesslog_fill,
	.think = wsesslog_think,
};

int
wsesslog_init(struct wsesslog *w, struct core *core,
    const struct wsesslog_config *cfg, session_done_cb *done,
    void *done_arg, char *errbuf, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	if (sesslog_load(&w->log, cfg->path, errbuf, errlen) == -1)
		return -1;
	if (w->log.nsess == 0) {
		snprintf(errbuf, errlen, "%s: no sessions", cfg->path);
		sesslog_free(&w->log);
		return -1;
	}
	w->loaded = 1;
	w->think = clock_from_sec(cfg->think);
	session_gen_init(&w->gen, core, &cfg->sess, &wsesslog_ops, w, done,
	    done_arg);
	return 0;
}

void
wsesslog_start(struct wsesslog *w, uint64_t now)
{
	session_gen_start(&w->gen, now);
}

void
wsesslog_stop(struct wsesslog *w)
{
	if (w->loaded)
		session_gen_stop(&w->gen);
}

void
wsesslog_fini(struct wsesslog *w)
{
	if (!w->loaded)
		return;
	session_gen_fini(&w->gen);
	sesslog_free(&w->log);
	w->loaded = 0;
}
