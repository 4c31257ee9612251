/*
 * The session engine (see session.h): arrival of sessions, their bursts,
 * think times and retries, and how they end.  Their connections are
 * managed in session_conn.c; what both share, and the rules about
 * references, owners and scratch fields, is in session_int.h.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/loop.h"
#include "core/sess.h"
#include "gen/cookie.h"
#include "gen/session.h"
#include "gen/session_int.h"
#include "gen/svars.h"
#include "gen/workload.h"
#include "lib/util.h"

static void	session_issue_new(struct session *, size_t, uint64_t);

/* Schedules session_kick() for this loop turn's timer phase. */
void
session_kick_soon(struct session *ss, uint64_t now)
{
	if (!timer_is_armed(&ss->kick))
		timer_add(loop_timers(ss->gen->core->loop), &ss->kick, now);
}

/* Drops the generator's own reference, once. */
static void
session_release(struct session *ss, uint64_t now)
{
	timer_cancel(&ss->kick);
	timer_cancel(&ss->think);
	timer_cancel(&ss->backoff);
	if (ss->wl_ref) {
		ss->wl_ref = 0;
		sess_unref(ss->sess, now);
	}
}

/*
 * Ends the session, completed or failed (then BUS_SESS_FAILED is
 * signalled): closes its connections and lets go of everything it had.
 */
static void
session_finish(struct session *ss, int failed, uint64_t now)
{
	if (ss->ended || ss->failed)
		return;
	if (failed)
		ss->failed = 1;
	else
		ss->ended = 1;
	sess_ref(ss->sess);
	if (failed)
		sess_fail(ss->sess, now);
	session_close_conns(ss, now);
	session_pend_drop(ss, now);
	session_release(ss, now);
	sess_unref(ss->sess, now);
}

/* Every call is done: the session is complete. */
static void
session_end(struct session *ss, uint64_t now)
{
	session_finish(ss, 0, now);
}

/* The session failed. */
void
session_fail_now(struct session *ss, uint64_t now)
{
	session_finish(ss, 1, now);
}

/*
 * Takes a call made for the session.  A call a URI source refused is not
 * sent; it counts as done, later (session_kick), so that nothing recurses.
 */
static void
session_issue(struct session *ss, struct call *call, uint64_t now)
{
	call->sess = ss->sess;
	call->owner = ss->gen;
	call->owner_data[SC_COOKIE] = 0;
	call->owner_data[SC_COOKIE_BUF] = 0;
	if (call->abandon) {
		session_call_put(call, now);
		ss->nabandoned++;
		session_kick_soon(ss, now);
		return;
	}
	session_pend_append(ss, call);
	session_flush(ss, now);
}

/* Creates call `i' of the current burst and issues it. */
static void
session_issue_new(struct session *ss, size_t i, uint64_t now)
{
	struct session_gen *g = ss->gen;
	struct call *call;

	call = call_new(g->core, now);
	if (g->ops->fill != NULL)
		g->ops->fill(g->ops_arg, ss->idx, ss->burst, i, call);
	/* The session's first call starts when the schedule meant the
	   session to; the later ones follow the user (closed loop). */
	if (ss->burst == 0 && i == 0)
		call->intended = ss->intended;
	session_issue(ss, call, now);
}

/* Starts the current burst: its first call alone. */
static void
session_burst_start(struct session *ss, uint64_t now)
{
	struct session_gen *g = ss->gen;
	size_t n;

	n = g->ops->burst(g->ops_arg, ss->idx, ss->burst);
	if (n == 0) {
		session_end(ss, now);
		return;
	}
	ss->burst_left = n;
	ss->burst_rest = n - 1;
	ss->burst_next = 0;
	session_issue_new(ss, 0, now);
}

/*
 * Makes the rest of the burst as the session's connections take it: a
 * call at a time while none waits for room, so that a burst of 300,000
 * holds only the calls in flight (--max-connections times
 * --max-piped-calls) and one more, not 300,000 at once.  The next reply
 * makes room for more.
 */
static void
session_fill(struct session *ss, uint64_t now)
{
	while (ss->burst_next > 0 && ss->burst_rest > 0 &&
	    ss->pend_head == NULL && !ss->failed && !ss->ended) {
		ss->burst_rest--;
		session_issue_new(ss, ss->burst_next++, now);
	}
}

/*
 * One call of the current burst is done (replied to, or refused): after
 * the first, the rest of the burst goes out, as there is room; after the
 * last, the user thinks, then the next burst starts, or the session is
 * complete.
 */
static void
session_call_done(struct session *ss, uint64_t now)
{
	struct session_gen *g = ss->gen;
	uint64_t think;

	if (ss->burst_left > 0)
		ss->burst_left--;
	if (ss->burst_next == 0)
		ss->burst_next = 1;
	session_fill(ss, now);
	if (ss->burst_left > 0 || ss->failed || ss->ended)
		return;
	if (g->ops->burst(g->ops_arg, ss->idx, ss->burst + 1) == 0) {
		session_end(ss, now);
		return;
	}
	think = g->ops->think(g->ops_arg, ss->idx, ss->burst);
	ss->burst++;
	timer_add(loop_timers(g->core->loop), &ss->think,
	    think > UINT64_MAX - now ? UINT64_MAX : now + think);
}

/* Deferred work: issue calls that now have room, count refused calls. */
static void
session_kick(struct timer *t, uint64_t now)
{
	struct session *ss = containerof(t, struct session, kick);
	struct sess *s = ss->sess;

	sess_ref(s);
	session_flush(ss, now);
	while (ss->nabandoned > 0 && !ss->failed && !ss->ended) {
		ss->nabandoned--;
		session_call_done(ss, now);
	}
	sess_unref(s, now);
}

/* The think time is over: next burst. */
static void
session_think_fired(struct timer *t, uint64_t now)
{
	struct session *ss = containerof(t, struct session, think);
	struct sess *s = ss->sess;

	sess_ref(s);
	session_burst_start(ss, now);
	sess_unref(s, now);
}

/* The back-off is over: send what waits. */
static void
session_backoff_fired(struct timer *t, uint64_t now)
{
	struct session *ss = containerof(t, struct session, backoff);
	struct sess *s = ss->sess;

	sess_ref(s);
	session_flush(ss, now);
	sess_unref(s, now);
}

uint64_t
session_retry_delay(unsigned k)
{
	uint64_t delay = SESSION_RETRY_FIRST;
	unsigned i;

	for (i = 1; i < k && delay < SESSION_RETRY_MAX; i++)
		delay *= 2;
	return delay < SESSION_RETRY_MAX ? delay : SESSION_RETRY_MAX;
}

/*
 * A try failed.  With --retry-on-failure and retries left, starts the
 * back-off before the session sends again and returns 0; else returns -1
 * and the caller fails the session.  A later failure during the back-off
 * (another call, another connection) counts too and restarts it.
 */
static int
session_retry(struct session *ss, uint64_t now)
{
	const struct session_config *cfg = &ss->gen->cfg;

	if (!cfg->retry || ss->retries >= cfg->max_retries)
		return -1;
	ss->retries++;
	timer_add(loop_timers(ss->gen->core->loop), &ss->backoff,
	    now + session_retry_delay(ss->retries));
	return 0;
}

/* A reply of one of our calls is complete. */
static void
session_on_reply(struct session_gen *g, struct call *call, uint64_t now)
{
	struct session *ss = session_of(call->sess);
	struct sess *s = ss->sess;
	struct conn *c = call->conn;
	struct session_conn *sc, *o;
	int held = 0;

	sess_ref(s);
	if ((sc = session_conn_of(ss, c)) != NULL)
		held = session_conn_remove(sc, call) == 0;
	if (ss->failed || ss->ended)
		goto out;
	/*
	 * As the manual says: once the server closes a connection after a
	 * reply, the session's concurrent calls go on separate connections
	 * instead of being pipelined into a connection about to close.
	 */
	if (c != NULL && c->draining && !ss->one_per_conn) {
		ss->one_per_conn = 1;
		for (o = ss->conns; o != NULL; o = o->next)
			session_avail_update(ss, o);
	}
	if (sc != NULL)
		session_avail_update(ss, sc);
	/*
	 * HTTP/1.0 sessions use a connection per call, as 0.9.0 does: the
	 * connection closes once its reply is in (its successor opens when
	 * the next call is issued).
	 */
	if (g->cfg.http_minor == 0 && c != NULL && c->owner == g &&
	    c->state != CONN_CLOSED && conn_pending(c) == 0)
		conn_close(c, now);
	/* A failed check (gen/svars.h) fails the try as the status does. */
	if ((g->cfg.failure_status != 0 &&
	    call->status == (int)g->cfg.failure_status) ||
	    call->check_fail != 0) {
		if (session_retry(ss, now) == -1) {
			session_fail_now(ss, now);
			goto out;
		}
		/*
		 * The same call again, ahead of the waiting ones, once the
		 * back-off is over (so every collector has seen this reply).
		 */
		if (held) {
			held = 0;
			session_pend_push_front(ss, call);
		}
		goto out;
	}
	ss->retries = 0;
	session_flush(ss, now);
	if (!ss->failed && !ss->ended)
		session_call_done(ss, now);
out:
	if (held)
		session_call_put(call, now);
	sess_unref(s, now);
}

/*
 * Arrival: creates and starts session number `idx'.  Returns -1 if it
 * failed at once because its first connection found no descriptor or
 * local address (without --retry-on-failure): it never started.
 */
static int
session_create(void *arg, uint64_t idx, uint64_t intended, uint64_t now)
{
	struct session_gen *g = arg;
	const struct session_config *cfg = &g->cfg;
	struct session *ss;
	struct sess *s;
	int rv;

	ss = xcalloc(1, sizeof(*ss));
	ss->gen = g;
	ss->idx = idx;
	ss->intended = intended;
	if (cfg->cookies)
		ss->jar = cookie_jar_new();
	timer_init(&ss->kick, session_kick);
	timer_init(&ss->think, session_think_fired);
	timer_init(&ss->backoff, session_backoff_fired);
	ss->next = g->live;
	if (g->live != NULL)
		g->live->prev = ss;
	g->live = ss;

	s = sess_new(g->core, g, now);
	s->priv = ss;
	ss->sess = s;
	ss->wl_ref = 1;
	sess_ref(s);
	session_burst_start(ss, now);
	rv = ss->failed && ss->local_fail ? -1 : 0;
	sess_unref(s, now);
	return rv;
}

/* Frees a session's state (its calls are gone or dropped here). */
static void
session_free(struct session_gen *g, struct session *ss, uint64_t now)
{
	timer_cancel(&ss->kick);
	timer_cancel(&ss->think);
	timer_cancel(&ss->backoff);
	session_conns_drop(ss, now);
	session_pend_drop(ss, now);
	if (ss->prev != NULL)
		ss->prev->next = ss->next;
	else
		g->live = ss->next;
	if (ss->next != NULL)
		ss->next->prev = ss->prev;
	cookie_jar_free(ss->jar);
	svars_vals_free(ss->vars);
	free(ss);
}

/* A session is gone: free its state; the test ends after the last. */
static void
session_on_destroyed(struct session_gen *g, struct sess *s, uint64_t now)
{
	session_free(g, session_of(s), now);
	workload_destroyed(&g->wl, now);
}

/* A Set-Cookie line for one of our calls: into the session's jar. */
static void
session_on_cookie(struct session_gen *g, struct call *call,
    union bus_arg arg)
{
	struct session *ss = session_of(call->sess);

	if (ss->jar != NULL && cookie_jar_set(ss->jar, arg.buf.p,
	    arg.buf.len) == -2 && g->cfg.cookies_ignored != NULL)
		(*g->cfg.cookies_ignored)++;
}

/*
 * A connection of ours failed, or timed out (`timeout').  After a reply
 * the server may close as it likes: its calls go on another connection.
 * A connection that failed before any reply (refused, reset, closed) is a
 * failed try: retried after a back-off while retries are left, else the
 * session fails.  A timeout fails the session.
 */
static void
session_on_conn_failed(struct session_gen *g, struct conn *c, int timeout,
    int err, uint64_t now)
{
	struct session *ss = session_of(c->sess);
	struct sess *s = ss->sess;

	if (session_conn_of(ss, c) == NULL)
		return;
	if (!timeout && workload_never_started(err))
		ss->local_fail = 1;
	if (!timeout && (ss->failed || ss->ended || c->nreplies > 0))
		return;
	sess_ref(s);
	if (timeout || session_retry(ss, now) == -1)
		session_fail_now(ss, now);
	sess_unref(s, now);
}

static void
session_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct session_gen *g = ctx;
	struct call *call;
	struct conn *c;
	struct sess *s;

	if (ev == BUS_CALL_DESTROYED) {
		/* Even when stopped: the last reference may be a conn's. */
		call = obj;
		if (call->owner == g)
			session_call_free_cookie(call);
		return;
	}
	if (g->stopped)
		return;
	switch (ev) {
	case BUS_CALL_RECV_HDR:
	case BUS_CALL_RECV_STOP:
		call = obj;
		if (call->owner != g || call->sess == NULL)
			break;
		if (ev == BUS_CALL_RECV_HDR)
			session_on_cookie(g, call, arg);
		else
			session_on_reply(g, call, now);
		break;
	case BUS_CONN_FAILED:
	case BUS_CONN_TIMEOUT:
	case BUS_CONN_CLOSED:
		c = obj;
		if (c->owner != g || c->sess == NULL)
			break;
		if (ev == BUS_CONN_CLOSED)
			session_on_closed(g, c, now);
		else
			session_on_conn_failed(g, c, ev == BUS_CONN_TIMEOUT,
			    ev == BUS_CONN_FAILED ? (int)arg.i : 0, now);
		break;
	case BUS_SESS_DESTROYED:
		s = obj;
		if (s->owner == g)
			session_on_destroyed(g, s, now);
		break;
	default:
		break;
	}
}

void
session_gen_init(struct session_gen *g, struct core *core,
    const struct session_config *cfg, const struct session_ops *ops,
    void *ops_arg, gen_done_cb *done, void *done_arg)
{
	static const enum bus_event evs[] = {
		BUS_CALL_RECV_HDR, BUS_CALL_RECV_STOP, BUS_CONN_FAILED,
		BUS_CONN_TIMEOUT, BUS_CONN_CLOSED, BUS_SESS_DESTROYED,
		BUS_CALL_DESTROYED,
	};
	size_t i;

	memset(g, 0, sizeof(*g));
	g->core = core;
	g->cfg = *cfg;
	if (g->cfg.max_conns == 0)
		g->cfg.max_conns = SESSION_MAX_CONNS;
	if (g->cfg.max_piped == 0)
		g->cfg.max_piped = cfg->http_minor > 0 ? SESSION_MAX_PIPED : 1;
	g->ops = ops;
	g->ops_arg = ops_arg;
	workload_init(&g->wl, core->loop, core->bus, g->cfg.rate,
	    g->cfg.client_id, g->cfg.num_clients, g->cfg.nsess,
	    session_create, g, done, done_arg);
	for (i = 0; i < nitems(evs); i++)
		if ((evs[i] != BUS_CALL_RECV_HDR &&
		    evs[i] != BUS_CALL_DESTROYED) || cfg->cookies)
			bus_subscribe(core->bus, evs[i], session_event, g);
}

void
session_gen_start(void *arg, uint64_t now)
{
	struct session_gen *g = arg;

	workload_start(&g->wl, now);
}

void
session_gen_drain(void *arg, uint64_t now)
{
	struct session_gen *g = arg;

	workload_drain(&g->wl, now);
}

void
session_gen_end(void *arg, uint64_t end)
{
	struct session_gen *g = arg;

	workload_end(&g->wl, end);
}

void
session_gen_set_rate(void *arg, double rate, uint64_t now)
{
	struct session_gen *g = arg;

	workload_set_rate(&g->wl, rate, now);
}

void
session_gen_stop(void *arg)
{
	struct session_gen *g = arg;
	struct session *ss;

	g->stopped = 1;
	workload_stop(&g->wl);
	for (ss = g->live; ss != NULL; ss = ss->next) {
		timer_cancel(&ss->kick);
		timer_cancel(&ss->think);
		timer_cancel(&ss->backoff);
	}
}

void
session_gen_fini(struct session_gen *g)
{
	struct session *ss;
	struct sess *s;
	unsigned refs;

	session_gen_stop(g);
	while ((ss = g->live) != NULL) {
		s = ss->sess;
		refs = (ss->wl_ref ? 1 : 0) + ss->nconns;
		session_free(g, ss, 0);
		/* Events are ignored now: nothing else frees it. */
		while (refs-- > 0)
			sess_unref(s, 0);
	}
}
