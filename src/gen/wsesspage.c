/*
 * The --wsesspage workload (see wsesspage.h): a page view is a burst of
 * the session engine whose first call is the page; the page's reply adds
 * the next hop of a redirect, or the objects its HTML embeds, to the
 * burst (session_ops.more).  Each session keeps the URLs of its current
 * view (call i of the burst fetches q[i]) with a set over them, so that
 * an object is fetched once per view.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/core.h"
#include "core/clock.h"
#include "core/sess.h"
#include "gen/generator.h"
#include "gen/session.h"
#include "gen/wsesspage.h"
#include "lib/htmlscan.h"
#include "lib/tmpl.h"
#include "lib/urlres.h"
#include "lib/util.h"

#define WSP_BUCKETS	256	/* of the sessions' table, by index */

/* The state of one live session. */
struct wsp_sess {
	uint64_t	 idx;
	struct wsp_sess	*next;		/* its bucket's chain */
	struct tmpl_rng	 rng;		/* chooses the next page */
	char		*page;		/* the next view's page, absolute */
	char		**q;		/* the view: call i fetches q[i] */
	size_t		 nq, capq;
	size_t		*set;		/* q index + 1 by hash, 0: empty */
	size_t		 setcap;	/* a power of 2 */
	size_t		 page_i;	/* the page's q index (after hops) */
	struct call	*page_call;
	size_t		 done;		/* calls of the view answered */
	unsigned	 hops;
	uint64_t	 start;		/* the page request's time */
	struct bus_page_view v;		/* the view's figures */
};

struct wsesspage {
	struct session_gen gen;
	uint64_t	 nviews;
	uint64_t	 think;		/* ns */
	uint64_t	 seed;
	unsigned	 client;
	char		*host;
	/* The origins the run fetches from: --servers' servers (the
	   index of each is its target's), or the one of --server. */
	struct urlres_origin *origins;
	size_t		 norigins;
	char		**first;	/* --uri on each origin, absolute */
	struct wsp_sess	*tab[WSP_BUCKETS];
};

static size_t
wsp_hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return (size_t)h;
}

/* The index of the session's server among the origins. */
static size_t
wsp_home(const struct wsesspage *w, const struct call *call)
{
	const struct core_config *cfg = &w->gen.core->cfg;

	if (call->sess == NULL || call->sess->target == NULL)
		return 0;
	return (size_t)(call->sess->target - cfg->targets);
}

/* The session's state, made at its first call (`call'). */
static struct wsp_sess *
wsp_get(struct wsesspage *w, uint64_t idx, const struct call *call)
{
	struct wsp_sess **b = &w->tab[idx % WSP_BUCKETS], *st;

	for (st = *b; st != NULL; st = st->next)
		if (st->idx == idx)
			return st;
	st = xcalloc(1, sizeof(*st));
	st->idx = idx;
	tmpl_rng_seed(&st->rng, w->seed + idx * UINT64_C(0x9E3779B97F4A7C15),
	    w->client);
	st->page = xstrdup(w->first[wsp_home(w, call)]);
	st->next = *b;
	*b = st;
	return st;
}

static void
wsp_reset(struct wsp_sess *st)
{
	size_t i;

	for (i = 0; i < st->nq; i++)
		free(st->q[i]);
	st->nq = 0;
	if (st->set != NULL)
		memset(st->set, 0, st->setcap * sizeof(*st->set));
	st->page_i = 0;
	st->page_call = NULL;
	st->done = 0;
	st->hops = 0;
	st->start = 0;
	memset(&st->v, 0, sizeof(st->v));
}

/* Where `url' is in the set, or the empty slot it would take. */
static size_t
wsp_slot(const struct wsp_sess *st, const char *url)
{
	size_t m = st->setcap - 1, k = wsp_hash(url) & m;

	while (st->set[k] != 0 && strcmp(st->q[st->set[k] - 1], url) != 0)
		k = (k + 1) & m;
	return k;
}

static void
wsp_grow(struct wsp_sess *st)
{
	size_t i;

	if (st->nq == st->capq) {
		st->capq = st->capq > 0 ? st->capq * 2 : 16;
		st->q = xrealloc(st->q, st->capq * sizeof(*st->q));
	}
	if (2 * (st->nq + 1) <= st->setcap)
		return;
	free(st->set);
	st->setcap = st->setcap > 0 ? st->setcap * 2 : 32;
	st->set = xcalloc(st->setcap, sizeof(*st->set));
	for (i = 0; i < st->nq; i++)
		st->set[wsp_slot(st, st->q[i])] = i + 1;
}

/* Appends `url' (taken) to the view; 0 if it is already there (freed),
   unless `always' (a redirect's hop). */
static int
wsp_add(struct wsp_sess *st, char *url, int always)
{
	size_t k;

	wsp_grow(st);
	k = wsp_slot(st, url);
	if (st->set[k] != 0 && !always) {
		free(url);
		return 0;
	}
	if (st->set[k] == 0)
		st->set[k] = st->nq + 1;
	st->q[st->nq++] = url;
	return 1;
}

/* The value of header `name' in the kept head, or NULL. */
static const char *
wsp_header(const struct tmpl_buf *h, const char *name, size_t *vlen)
{
	size_t i = 0, n = strlen(name), e, s;
	const char *nl;

	while (i < h->len) {
		nl = memchr(h->p + i, '\n', h->len - i);
		e = nl != NULL ? (size_t)(nl - h->p) : h->len;
		if (e - i > n && strncasecmp(h->p + i, name, n) == 0 &&
		    h->p[i + n] == ':') {
			for (s = i + n + 1; s < e && (h->p[s] == ' ' ||
			    h->p[s] == '\t'); s++)
				;
			while (e > s && (h->p[e - 1] == '\r' ||
			    h->p[e - 1] == ' ' || h->p[e - 1] == '\t'))
				e--;
			*vlen = e - s;
			return h->p + s;
		}
		i = e + 1;
	}
	return NULL;
}

/* Whether the reply is HTML: Content-Type text/html, any parameters. */
static int
wsp_is_html(const struct call *call)
{
	const char *v;
	size_t n;

	v = wsp_header(&call->rhead, "content-type", &n);
	return v != NULL && n >= 9 && strncasecmp(v, "text/html", 9) == 0 &&
	    (n == 9 || v[9] == ';' || v[9] == ' ' || v[9] == '\t');
}

/* The absolute form of `ref' against `base' if it is of an origin. */
static char *
wsp_same(const struct wsesspage *w, const char *base, const char *ref,
    size_t len)
{
	char *url = urlres_resolve(base, ref, len), *target;

	if (url == NULL)
		return NULL;
	if (urlres_origin(url, w->origins, w->norigins, &target) == -1) {
		free(url);
		return NULL;
	}
	free(target);
	return url;
}

/* The next page: one of the same-origin links, each as likely. */
static void
wsp_links(struct wsesspage *w, struct wsp_sess *st, const char *base,
    const struct htmlscan *r)
{
	uint64_t k = 0;
	size_t i;
	char *url;

	for (i = 0; i < r->links.n; i++) {
		url = wsp_same(w, base, r->links.v[i].s, r->links.v[i].len);
		if (url == NULL)
			continue;
		if (tmpl_rng_below(&st->rng, ++k) == 0) {
			free(st->page);
			st->page = url;
		} else
			free(url);
	}
}

/* The objects of an HTML page: returns how many join the view. */
static size_t
wsp_scan(struct wsesspage *w, struct wsp_sess *st, const struct call *call)
{
	struct htmlscan r;
	const char *page = st->q[st->page_i];
	char *base = NULL, *url;
	size_t i, n = 0;

	if (htmlscan(&r, call->rbody.p != NULL ? call->rbody.p : "",
	    call->rbody.len, HTMLSCAN_MAX_OBJECTS) == -1) {
		htmlscan_free(&r);
		return 0;
	}
	st->v.over += r.over;
	if (r.base != NULL)
		base = urlres_resolve(page, r.base, r.base_len);
	for (i = 0; i < r.objects.n; i++) {
		url = wsp_same(w, base != NULL ? base : page,
		    r.objects.v[i].s, r.objects.v[i].len);
		if (url == NULL)
			st->v.cross++;
		else
			n += (size_t)wsp_add(st, url, 0);
	}
	free(st->page);
	st->page = xstrdup(page);
	wsp_links(w, st, base != NULL ? base : page, &r);
	free(base);
	htmlscan_free(&r);
	return n;
}

/* The page's reply: the next hop of a redirect, or its objects. */
static size_t
wsp_page(struct wsesspage *w, struct wsp_sess *st, const struct call *call)
{
	const char *loc;
	char *url;
	size_t n;
	int s = call->status;

	if (s == 301 || s == 302 || s == 303 || s == 307 || s == 308) {
		loc = wsp_header(&call->rhead, "location", &n);
		if (loc == NULL || st->hops >= WSESSPAGE_MAX_HOPS)
			return 0;
		url = wsp_same(w, st->q[st->page_i], loc, n);
		if (url == NULL) {
			st->v.cross++;
			return 0;
		}
		wsp_add(st, url, 1);
		st->page_i = st->nq - 1;
		st->hops++;
		st->v.redirects++;
		return 1;
	}
	return wsp_is_html(call) ? wsp_scan(w, st, call) : 0;
}

/* The session engine's questions (session_ops). */

static size_t
wsp_burst(void *arg, uint64_t idx, size_t b)
{
	const struct wsesspage *w = arg;

	return b < w->nviews ? 1 : 0;
}

static void
wsp_fill(void *arg, uint64_t idx, size_t b, size_t i, struct call *call)
{
	struct wsesspage *w = arg;
	struct wsp_sess *st = wsp_get(w, idx, call);
	const struct core_config *cfg = &w->gen.core->cfg;
	size_t home = wsp_home(w, call);
	char *target = NULL;
	long k = -1;

	if (i == 0) {
		wsp_reset(st);
		wsp_add(st, xstrdup(st->page), 1);
	}
	/* The session's own server first (a file may list one twice). */
	if (i < st->nq && urlres_origin(st->q[i], &w->origins[home], 1,
	    &target) == 0)
		k = (long)home;
	else if (i < st->nq)
		k = urlres_origin(st->q[i], w->origins, w->norigins, &target);
	if (k == -1) {
		call->abandon = 1;	/* cannot happen: all are ours */
		return;
	}
	/* --servers: an object on another server goes there. */
	if (cfg->ntargets > 0)
		call->target = &cfg->targets[k];
	free(call->owned);
	call->owned = target;
	call->uri = target;
	call->uri_len = strlen(target);
	if (i == st->page_i) {
		st->page_call = call;
		call->keep_head = 1;
		call->keep_body = 1;
	}
}

static size_t
wsp_more(void *arg, uint64_t idx, size_t b, struct call *call, uint64_t now)
{
	struct wsesspage *w = arg;
	struct wsp_sess *st = wsp_get(w, idx, call);
	union bus_arg arg0 = { 0 };
	size_t n = 0;

	st->done++;
	st->v.bytes += call->reply_bytes;
	if (call == st->page_call) {
		if (st->hops == 0)
			st->start = call->t_send_start != 0 ?
			    call->t_send_start : now;
		st->page_call = NULL;
		n = wsp_page(w, st, call);
	} else
		st->v.objects++;
	if (st->done == st->nq) {
		st->v.time = now > st->start ? now - st->start : 0;
		bus_signal(w->gen.core->bus, BUS_PAGE_VIEW, &st->v, arg0,
		    now);
	}
	return n;
}

static uint64_t
wsp_think(void *arg, uint64_t idx, size_t b)
{
	const struct wsesspage *w = arg;

	return w->think;
}

static void
wsp_free(struct wsp_sess *st)
{
	wsp_reset(st);
	free(st->q);
	free(st->set);
	free(st->page);
	free(st);
}

static void
wsp_gone(void *arg, uint64_t idx)
{
	struct wsesspage *w = arg;
	struct wsp_sess **p = &w->tab[idx % WSP_BUCKETS], *st;

	for (; (st = *p) != NULL; p = &st->next)
		if (st->idx == idx) {
			*p = st->next;
			wsp_free(st);
			return;
		}
}

static const struct session_ops wsp_ops = {
	.burst = wsp_burst,
	.fill = wsp_fill,
	.think = wsp_think,
	.more = wsp_more,
	.gone = wsp_gone,
};

/* The generator interface: the state is the session engine. */

/* "SCHEME://HOST:PORT/URI" of origin `o', malloc'd. */
static char *
wsp_url(const struct urlres_origin *o, const char *uri)
{
	int v6 = strchr(o->host, ':') != NULL;
	size_t n = strlen(o->host) + strlen(uri) + 32;
	char *s = xmalloc(n);

	snprintf(s, n, "%s://%s%s%s:%u%s", o->https ? "https" : "http",
	    v6 ? "[" : "", o->host, v6 ? "]" : "", o->port, uri);
	return s;
}

/* The origins: each server of --servers, or --server's; and the first
   page on each. */
static void
wsp_origins(struct wsesspage *w, const struct wsesspage_config *cfg,
    const struct core_config *cc)
{
	size_t i;

	w->norigins = cc->ntargets > 0 ? cc->ntargets : 1;
	w->origins = xcalloc(w->norigins, sizeof(*w->origins));
	w->first = xcalloc(w->norigins, sizeof(*w->first));
	for (i = 0; i < cc->ntargets; i++) {
		w->origins[i].https = cc->targets[i].tls != NULL;
		w->origins[i].host = cc->targets[i].host;
		w->origins[i].port = cc->targets[i].port;
	}
	if (cc->ntargets == 0) {
		w->origins[0].https = cfg->https;
		w->origins[0].host = w->host;
		w->origins[0].port = cfg->port;
	}
	for (i = 0; i < w->norigins; i++)
		w->first[i] = wsp_url(&w->origins[i], cfg->uri);
}

static int
wsesspage_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct wsesspage_config *cfg = env->cfg;
	struct session_config sc = cfg->sess;
	struct wsesspage *w;

	w = xcalloc(1, sizeof(*w));
	w->nviews = cfg->nviews;
	w->think = clock_from_sec(cfg->think);
	w->seed = cfg->seed;
	w->client = cfg->sess.client_id;
	w->host = xstrdup(cfg->host);
	wsp_origins(w, cfg, &env->core->cfg);
	/* As browsers: six connections without pipelining, or one of
	   HTTP/2 with the objects as concurrent streams. */
	if (sc.max_conns == 0)
		sc.max_conns = cfg->http2 ? 1 : WSESSPAGE_MAX_CONNS;
	if (sc.max_piped == 0 && !cfg->http2)
		sc.max_piped = 1;
	session_gen_init(&w->gen, env->core, &sc, &wsp_ops, w, env->done,
	    env->done_arg);
	*state = &w->gen;
	return 0;
}

static void
wsesspage_fini(void *state)
{
	struct wsesspage *w = containerof(state, struct wsesspage, gen);
	struct wsp_sess *st;
	size_t i;

	session_gen_fini(&w->gen);
	for (i = 0; i < WSP_BUCKETS; i++)
		while ((st = w->tab[i]) != NULL) {
			w->tab[i] = st->next;
			wsp_free(st);
		}
	for (i = 0; i < w->norigins; i++)
		free(w->first[i]);
	free(w->first);
	free(w->origins);
	free(w->host);
	free(w);
}

const struct generator wsesspage_generator = {
	.name = "wsesspage",
	.init = wsesspage_init,
	.start = session_gen_start,
	.drain = session_gen_drain,
	.end = session_gen_end,
	.set_rate = session_gen_set_rate,
	.stop = session_gen_stop,
	.fini = wsesspage_fini,
};
