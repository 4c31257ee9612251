/*
 * The session engine (see session.h): arrival of sessions, their bursts
 * and think times, and the per-session connection manager.
 *
 * References.  The generator holds one reference on a session until it
 * completes or fails, one per connection the session has open (conn.c
 * reads conn->sess until the connection closes), and one for the length
 * of each event it handles, so a session is destroyed only once nothing
 * here can touch it.  It holds one reference on each call from the time
 * it is created until its reply is in or the session is over: a call
 * dropped by a closed connection survives to be sent on another.
 *
 * Calls of the manager: call->owner is the generator, owner_data[0] the
 * 1-based index of the call's Cookie line in hdrs[] (0: none), and
 * owner_data[1] our copy of that line (call->owned belongs to the URI
 * sources), freed when the call is destroyed.  A call that goes out again
 * (on another connection, or retried) is the same call with its reply
 * state cleared, as in 0.9.0, so it keeps its URI.  Calls waiting for
 * room are linked through call->next, which is free while a call is on
 * no connection.  Connections: conn->owner is the generator,
 * owner_data[0] the session's slot holding it.
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
#include "util.h"

#define SC_COOKIE	0	/* call->owner_data: Cookie line index + 1 */
#define SC_COOKIE_BUF	1	/* call->owner_data: its copy */
#define SC_SLOT		0	/* conn->owner_data: slot index */

/* One connection of a session and the calls it has not yet answered. */
struct session_conn {
	struct conn	*conn;		/* NULL: slot free */
	struct call	**calls;	/* max_piped, oldest first */
	size_t		 ncalls;
};

/* The state of one live session. */
struct session {
	struct session_gen *gen;
	struct sess	*sess;
	uint64_t	 idx;		/* creation order, from 0 */
	struct session	*prev;		/* gen->live list */
	struct session	*next;
	struct session_conn *conns;	/* cfg.max_conns slots */
	struct call	*pend_head;	/* calls waiting for room */
	struct call	*pend_tail;
	struct cookie_jar *jar;		/* NULL: no --session-cookies */
	struct timer	 kick;		/* see session_kick() */
	struct timer	 think;		/* between bursts */
	size_t		 burst;		/* current burst */
	size_t		 burst_left;	/* its calls not done */
	size_t		 burst_rest;	/* to issue after the first */
	size_t		 nabandoned;	/* refused, not yet counted */
	int		 one_per_conn;	/* server closed: no pipelining */
	int		 failed;
	int		 ended;		/* completed */
	int		 wl_ref;	/* the generator's own reference */
};

static void	session_flush(struct session *, uint64_t);
static void	session_fail_now(struct session *, uint64_t);
static void	session_issue_new(struct session *, size_t, uint64_t);

/* Returns the session a connection or call of ours belongs to. */
static struct session *
session_of(struct sess *s)
{
	return s->priv;
}

/* Frees the call's copy of the Cookie line. */
static void
session_call_free_cookie(struct call *call)
{
	free((void *)(uintptr_t)call->owner_data[SC_COOKIE_BUF]);
	call->owner_data[SC_COOKIE_BUF] = 0;
}

/* Drops our reference on a call (its Cookie copy goes with the last). */
static void
session_call_put(struct call *call, uint64_t now)
{
	if (call->refs == 1)
		session_call_free_cookie(call);
	call_unref(call, now);
}

/* Clears what a connection filled in, before the call goes out again. */
static void
session_call_reset(struct call *call)
{
	call->conn = NULL;
	call->t_send_start = call->t_send_stop = 0;
	call->t_recv_start = call->t_recv_stop = 0;
	call->replied = 0;
	call->status = 0;
	call->hdr_bytes = call->body_bytes = 0;
	call->footer_bytes = call->reply_bytes = 0;
}

/* Schedules session_kick() for this loop turn's timer phase. */
static void
session_kick_soon(struct session *ss, uint64_t now)
{
	if (!timer_is_armed(&ss->kick))
		timer_add(loop_timers(ss->gen->core->loop), &ss->kick, now);
}

/* Appends `call' to the calls waiting for room. */
static void
session_pend_append(struct session *ss, struct call *call)
{
	call->next = NULL;
	if (ss->pend_tail != NULL)
		ss->pend_tail->next = call;
	else
		ss->pend_head = call;
	ss->pend_tail = call;
}

/* Drops every waiting call. */
static void
session_pend_drop(struct session *ss, uint64_t now)
{
	struct call *call;

	while ((call = ss->pend_head) != NULL) {
		ss->pend_head = call->next;
		call->next = NULL;
		session_call_put(call, now);
	}
	ss->pend_tail = NULL;
}

/* Closes every connection of the session (their calls come back to us). */
static void
session_close_conns(struct session *ss, uint64_t now)
{
	unsigned i;

	for (i = 0; i < ss->gen->cfg.max_conns; i++)
		if (ss->conns[i].conn != NULL)
			conn_close(ss->conns[i].conn, now);
}

/* Drops the generator's own reference, once. */
static void
session_release(struct session *ss, uint64_t now)
{
	timer_cancel(&ss->kick);
	timer_cancel(&ss->think);
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
static void
session_fail_now(struct session *ss, uint64_t now)
{
	session_finish(ss, 1, now);
}

/*
 * Puts the session's current Cookie line on the call (replacing the one
 * it had), so every request carries every cookie received so far.
 */
static void
session_set_cookie(struct session *ss, struct call *call)
{
	const char *hdr;
	char *copy;
	size_t len, idx;

	if (ss->jar == NULL || (hdr = cookie_jar_header(ss->jar, &len)) ==
	    NULL)
		return;
	idx = (size_t)call->owner_data[SC_COOKIE];
	if (idx == 0) {
		if (call->nhdrs >= CALL_MAX_HDRS)
			return;
		idx = ++call->nhdrs;
		call->owner_data[SC_COOKIE] = idx;
	}
	copy = xmalloc(len);
	memcpy(copy, hdr, len);
	session_call_free_cookie(call);
	call->owner_data[SC_COOKIE_BUF] = (uint64_t)(uintptr_t)copy;
	call->hdrs[idx - 1].iov_base = copy;
	call->hdrs[idx - 1].iov_len = len;
}

/*
 * Returns the first open connection with room for another call, or NULL;
 * `*free_slot' is set to the first unused slot (or -1).
 */
static struct session_conn *
session_pick(struct session *ss, int *free_slot)
{
	const struct session_config *cfg = &ss->gen->cfg;
	struct session_conn *sc;
	size_t room = ss->one_per_conn ? 1 : cfg->max_piped;
	unsigned i;

	*free_slot = -1;
	for (i = 0; i < cfg->max_conns; i++) {
		sc = &ss->conns[i];
		if (sc->conn == NULL) {
			if (*free_slot < 0)
				*free_slot = (int)i;
			continue;
		}
		if (sc->conn->state == CONN_CLOSED || sc->conn->draining)
			continue;
		if (sc->ncalls < room)
			return sc;
	}
	return NULL;
}

/* Opens a new connection for the session in slot `i'. */
static void
session_connect(struct session *ss, int i, uint64_t now)
{
	struct session_gen *g = ss->gen;
	struct conn *c;

	c = conn_new(g->core, now);
	c->owner = g;
	c->sess = ss->sess;
	/* TLS: a session's connections resume the session's TLS session. */
	if (c->tls_slot != NULL)
		c->tls_slot = &ss->sess->tls_slot;
	c->owner_data[SC_SLOT] = (uint64_t)i;
	ss->conns[i].conn = c;
	ss->conns[i].ncalls = 0;
	sess_ref(ss->sess);
	/* A synchronous failure closes it (and may fail the session). */
	conn_connect(c, now);
}

/* Removes `call' from the calls of a slot; returns 0 if it was there. */
static int
session_conn_remove(struct session_conn *sc, const struct call *call)
{
	size_t i;

	for (i = 0; i < sc->ncalls; i++)
		if (sc->calls[i] == call)
			break;
	if (i == sc->ncalls)
		return -1;
	memmove(&sc->calls[i], &sc->calls[i + 1],
	    (sc->ncalls - i - 1) * sizeof(sc->calls[0]));
	sc->ncalls--;
	return 0;
}

/*
 * Issues waiting calls while a connection has room, opening connections
 * up to the session's limit.  Anything may happen inside conn_connect()
 * and conn_send() (a connection failing, the session failing), so the
 * choice is made afresh for every call.  The caller holds a reference.
 */
static void
session_flush(struct session *ss, uint64_t now)
{
	struct session_conn *sc;
	struct call *call;
	int slot;

	while (ss->pend_head != NULL && !ss->failed && !ss->ended) {
		if ((sc = session_pick(ss, &slot)) == NULL) {
			if (slot < 0)
				return;
			session_connect(ss, slot, now);
			continue;
		}
		call = ss->pend_head;
		ss->pend_head = call->next;
		if (ss->pend_head == NULL)
			ss->pend_tail = NULL;
		call->next = NULL;
		session_call_reset(call);
		session_set_cookie(ss, call);
		/* Listed first: a failure inside conn_send() must find it. */
		sc->calls[sc->ncalls++] = call;
		if (conn_send(sc->conn, call, now) == -1) {
			session_conn_remove(sc, call);
			session_call_put(call, now);
			/* The request cannot be written at all. */
			session_fail_now(ss, now);
			return;
		}
	}
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
	session_issue_new(ss, 0, now);
}

/*
 * One call of the current burst is done (replied to, or refused): after
 * the first, the rest of the burst goes out; after the last, the user
 * thinks, then the next burst starts, or the session is complete.
 */
static void
session_call_done(struct session *ss, uint64_t now)
{
	struct session_gen *g = ss->gen;
	size_t n, i;
	uint64_t think;

	if (ss->burst_left > 0)
		ss->burst_left--;
	if (ss->burst_rest > 0) {
		n = ss->burst_rest;
		ss->burst_rest = 0;
		for (i = 1; i <= n && !ss->failed && !ss->ended; i++)
			session_issue_new(ss, i, now);
	}
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

/* A reply of one of our calls is complete. */
static void
session_on_reply(struct session_gen *g, struct call *call, uint64_t now)
{
	struct session *ss = session_of(call->sess);
	struct sess *s = ss->sess;
	struct conn *c = call->conn;
	int held = 0;

	sess_ref(s);
	if (c != NULL && c->owner == g && c->sess == s &&
	    ss->conns[c->owner_data[SC_SLOT]].conn == c)
		held = session_conn_remove(&ss->conns[c->owner_data[SC_SLOT]],
		    call) == 0;
	if (ss->failed || ss->ended)
		goto out;
	/*
	 * As the manual says: once the server closes a connection after a
	 * reply, the session's concurrent calls go on separate connections
	 * instead of being pipelined into a connection about to close.
	 */
	if (c != NULL && c->draining)
		ss->one_per_conn = 1;
	/*
	 * HTTP/1.0 sessions use a connection per call, as 0.9.0 does: the
	 * connection closes once its reply is in (its successor opens when
	 * the next call is issued).
	 */
	if (g->cfg.http_minor == 0 && c != NULL && c->owner == g &&
	    c->state != CONN_CLOSED && conn_pending(c) == 0)
		conn_close(c, now);
	if (g->cfg.failure_status != 0 &&
	    call->status == (int)g->cfg.failure_status) {
		if (!g->cfg.retry) {
			session_fail_now(ss, now);
			goto out;
		}
		/*
		 * The same call again, ahead of the waiting ones; from the
		 * timer phase, once every collector has seen this reply.
		 */
		if (held) {
			held = 0;
			call->next = ss->pend_head;
			ss->pend_head = call;
			if (ss->pend_tail == NULL)
				ss->pend_tail = call;
			session_kick_soon(ss, now);
		}
		goto out;
	}
	session_flush(ss, now);
	if (!ss->failed && !ss->ended)
		session_call_done(ss, now);
out:
	if (held)
		session_call_put(call, now);
	sess_unref(s, now);
}

/*
 * A connection of ours closed: calls it did not answer go back to the
 * front of the queue, for another connection, unless the session is over.
 */
static void
session_on_closed(struct session_gen *g, struct conn *c, uint64_t now)
{
	struct session *ss = session_of(c->sess);
	struct session_conn *sc = &ss->conns[c->owner_data[SC_SLOT]];
	struct sess *s = ss->sess;
	struct call *call;
	size_t i;

	if (sc->conn != c)
		return;
	sess_ref(s);
	sc->conn = NULL;
	for (i = sc->ncalls; i > 0; i--) {
		call = sc->calls[i - 1];
		if (ss->failed || ss->ended) {
			session_call_put(call, now);
			continue;
		}
		call->next = ss->pend_head;
		ss->pend_head = call;
		if (ss->pend_tail == NULL)
			ss->pend_tail = call;
	}
	sc->ncalls = 0;
	if (ss->pend_head != NULL && !ss->failed && !ss->ended)
		session_kick_soon(ss, now);
	sess_unref(s, now);		/* the connection's */
	sess_unref(s, now);
}

/* Creates and starts a session. */
static void
session_create(struct session_gen *g, uint64_t now)
{
	const struct session_config *cfg = &g->cfg;
	struct session *ss;
	struct call **calls;
	struct sess *s;
	unsigned i;

	ss = xcalloc(1, sizeof(*ss));
	ss->gen = g;
	ss->idx = g->created - 1;
	ss->conns = xcalloc(cfg->max_conns, sizeof(*ss->conns));
	calls = xcalloc((size_t)cfg->max_conns * cfg->max_piped,
	    sizeof(*calls));
	for (i = 0; i < cfg->max_conns; i++)
		ss->conns[i].calls = calls + (size_t)i * cfg->max_piped;
	if (cfg->cookies)
		ss->jar = cookie_jar_new();
	timer_init(&ss->kick, session_kick);
	timer_init(&ss->think, session_think_fired);
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
	sess_unref(s, now);
}

/* Frees a session's state (its calls are gone or dropped here). */
static void
session_free(struct session_gen *g, struct session *ss, uint64_t now)
{
	struct session_conn *sc;
	unsigned i;

	timer_cancel(&ss->kick);
	timer_cancel(&ss->think);
	for (i = 0; i < g->cfg.max_conns; i++) {
		sc = &ss->conns[i];
		while (sc->ncalls > 0)
			session_call_put(sc->calls[--sc->ncalls], now);
	}
	session_pend_drop(ss, now);
	if (ss->prev != NULL)
		ss->prev->next = ss->next;
	else
		g->live = ss->next;
	if (ss->next != NULL)
		ss->next->prev = ss->prev;
	cookie_jar_free(ss->jar);
	if (g->cfg.max_conns > 0)
		free(ss->conns[0].calls);
	free(ss->conns);
	free(ss);
}

/* Arrival: one more session. */
static int
session_tick(void *arg, uint64_t now)
{
	struct session_gen *g = arg;

	if (g->finished || g->created >= g->cfg.nsess)
		return -1;
	g->created++;
	session_create(g, now);
	return g->created >= g->cfg.nsess ? -1 : 0;
}

/* Sequential mode: the next session starts from the timer phase. */
static void
session_seq_fired(struct timer *t, uint64_t now)
{
	struct session_gen *g = containerof(t, struct session_gen, seq_timer);

	rate_gen_next(&g->rate, now);
}

/* A session is gone: free its state, and end the test after the last. */
static void
session_on_destroyed(struct session_gen *g, struct sess *s, uint64_t now)
{
	session_free(g, session_of(s), now);
	g->destroyed++;
	if (g->destroyed >= g->cfg.nsess) {
		if (!g->finished) {
			g->finished = 1;
			rate_gen_stop(&g->rate);
			g->done(g->done_arg, now);
		}
	} else if (rate_spec_rate(g->cfg.rate) == 0 && !g->finished) {
		timer_add(loop_timers(g->core->loop), &g->seq_timer, now);
	}
}

static void
session_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct session_gen *g = ctx;
	struct session *ss;
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
		call = obj;
		if (call->owner != g || call->sess == NULL)
			break;
		ss = session_of(call->sess);
		if (ss->jar != NULL)
			cookie_jar_set(ss->jar, arg.buf.p, arg.buf.len);
		break;
	case BUS_CALL_RECV_STOP:
		call = obj;
		if (call->owner == g && call->sess != NULL)
			session_on_reply(g, call, now);
		break;
	case BUS_CONN_FAILED:
		c = obj;
		if (c->owner != g || c->sess == NULL)
			break;
		ss = session_of(c->sess);
		if (ss->conns[c->owner_data[SC_SLOT]].conn != c)
			break;
		/*
		 * After a reply the server may close as it likes: its
		 * calls go on another connection.  So do they with
		 * --retry-on-failure once connected (not on a failed
		 * connect, which would retry forever).
		 */
		if (c->nreplies > 0 || (g->cfg.retry && c->t_connected != 0))
			break;
		s = ss->sess;
		sess_ref(s);
		session_fail_now(ss, now);
		sess_unref(s, now);
		break;
	case BUS_CONN_TIMEOUT:
		c = obj;
		if (c->owner != g || c->sess == NULL)
			break;
		ss = session_of(c->sess);
		if (ss->conns[c->owner_data[SC_SLOT]].conn != c)
			break;
		s = ss->sess;
		sess_ref(s);
		session_fail_now(ss, now);
		sess_unref(s, now);
		break;
	case BUS_CONN_CLOSED:
		c = obj;
		if (c->owner == g && c->sess != NULL)
			session_on_closed(g, c, now);
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
    void *ops_arg, session_done_cb *done, void *done_arg)
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
	g->done = done;
	g->done_arg = done_arg;
	timer_init(&g->seq_timer, session_seq_fired);
	for (i = 0; i < nitems(evs); i++)
		if ((evs[i] != BUS_CALL_RECV_HDR &&
		    evs[i] != BUS_CALL_DESTROYED) || cfg->cookies)
			bus_subscribe(core->bus, evs[i], session_event, g);
}

void
session_gen_start(struct session_gen *g, uint64_t now)
{
	if (g->cfg.nsess == 0) {
		g->finished = 1;
		g->done(g->done_arg, now);
		return;
	}
	rate_gen_start(&g->rate, g->core->loop, g->cfg.rate,
	    g->cfg.client_id, session_tick, g, now);
}

void
session_gen_stop(struct session_gen *g)
{
	struct session *ss;

	g->finished = 1;
	g->stopped = 1;
	rate_gen_stop(&g->rate);
	timer_cancel(&g->seq_timer);
	for (ss = g->live; ss != NULL; ss = ss->next) {
		timer_cancel(&ss->kick);
		timer_cancel(&ss->think);
	}
}

void
session_gen_fini(struct session_gen *g)
{
	struct session *ss;
	struct sess *s;
	unsigned i, refs;

	session_gen_stop(g);
	while ((ss = g->live) != NULL) {
		s = ss->sess;
		refs = ss->wl_ref ? 1 : 0;
		for (i = 0; i < g->cfg.max_conns; i++)
			if (ss->conns[i].conn != NULL)
				refs++;
		session_free(g, ss, 0);
		/* Events are ignored now: nothing else frees it. */
		while (refs-- > 0)
			sess_unref(s, 0);
	}
}
