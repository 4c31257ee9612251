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
 * owner_data[1] our reference to the jar's header that line points into
 * (call->owned belongs to the URI sources), dropped when the call is
 * destroyed.  A call that goes out again (on another connection, or
 * retried) is the same call with its reply state cleared, as in 0.9.0, so
 * it keeps its URI.  Calls waiting for room are linked through call->next,
 * which is free while a call is on no connection.
 *
 * Connections: conn->owner is the generator, owner_data[0] the struct
 * session_conn that tracks it (0 once it is closed).  A session lists its
 * open connections, and separately those that can take another call, so
 * that placing a call costs O(1) whatever --max-connections is; each
 * connection keeps its unanswered calls in a ring that grows as needed
 * (replies come oldest first).
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
#define SC_COOKIE_BUF	1	/* call->owner_data: its cookie_hdr */
#define SC_CONN		0	/* conn->owner_data: its session_conn */

#define SC_RING_MIN	4	/* first size of a connection's call ring */

/* One open connection of a session and the calls it has not answered. */
struct session_conn {
	struct conn	*conn;
	struct session_conn *prev;	/* session->conns */
	struct session_conn *next;
	struct session_conn *aprev;	/* session->avail, if in_avail */
	struct session_conn *anext;
	int		 in_avail;
	struct call	**calls;	/* ring of cap (a power of 2) */
	size_t		 head;		/* index of the oldest */
	size_t		 ncalls;
	size_t		 cap;
};

/* The state of one live session. */
struct session {
	struct session_gen *gen;
	struct sess	*sess;
	uint64_t	 idx;		/* creation order, from 0 */
	struct session	*prev;		/* gen->live list */
	struct session	*next;
	struct session_conn *conns;	/* open connections */
	unsigned	 nconns;
	struct session_conn *avail;	/* open ones with room, oldest first */
	struct session_conn *avail_tail;
	struct call	*pend_head;	/* calls waiting for room */
	struct call	*pend_tail;
	struct cookie_jar *jar;		/* NULL: no --session-cookies */
	struct timer	 kick;		/* see session_kick() */
	struct timer	 think;		/* between bursts */
	struct timer	 backoff;	/* armed: wait before sending more */
	unsigned	 retries;	/* failed tries in a row */
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

/* Drops the call's reference to its Cookie line. */
static void
session_call_free_cookie(struct call *call)
{
	cookie_hdr_unref((struct cookie_hdr *)(uintptr_t)
	    call->owner_data[SC_COOKIE_BUF]);
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

/*
 * Returns our record of connection `c' if it is an open connection of
 * session `ss', else NULL.
 */
static struct session_conn *
session_conn_of(const struct session *ss, const struct conn *c)
{
	struct session_conn *sc;

	if (c == NULL || c->owner != ss->gen || c->sess != ss->sess)
		return NULL;
	sc = (struct session_conn *)(uintptr_t)c->owner_data[SC_CONN];
	return sc != NULL && sc->conn == c ? sc : NULL;
}

/* Returns the `i'th oldest call of a connection. */
static struct call *
session_conn_at(const struct session_conn *sc, size_t i)
{
	return sc->calls[(sc->head + i) & (sc->cap - 1)];
}

/* Appends `call' to the calls of a connection, growing its ring. */
static void
session_conn_push(struct session_conn *sc, struct call *call)
{
	struct call **calls;
	size_t i, cap;

	if (sc->ncalls == sc->cap) {
		cap = sc->cap == 0 ? SC_RING_MIN : sc->cap * 2;
		calls = xreallocarray(NULL, cap, sizeof(*calls));
		for (i = 0; i < sc->ncalls; i++)
			calls[i] = session_conn_at(sc, i);
		free(sc->calls);
		sc->calls = calls;
		sc->cap = cap;
		sc->head = 0;
	}
	sc->calls[(sc->head + sc->ncalls++) & (sc->cap - 1)] = call;
}

/*
 * Removes `call' from the calls of a connection; returns 0 if it was
 * there.  O(1) for the oldest and the newest, the usual cases.
 */
static int
session_conn_remove(struct session_conn *sc, const struct call *call)
{
	size_t i, mask = sc->cap - 1;

	if (sc->ncalls > 0 && session_conn_at(sc, sc->ncalls - 1) == call) {
		sc->ncalls--;
		return 0;
	}
	for (i = 0; i < sc->ncalls; i++)
		if (session_conn_at(sc, i) == call)
			break;
	if (i == sc->ncalls)
		return -1;
	if (i == 0) {
		sc->head = (sc->head + 1) & mask;
	} else {
		for (; i + 1 < sc->ncalls; i++)
			sc->calls[(sc->head + i) & mask] =
			    sc->calls[(sc->head + i + 1) & mask];
	}
	sc->ncalls--;
	return 0;
}

/* Unlinks a connection from the session's list of those with room. */
static void
session_avail_remove(struct session *ss, struct session_conn *sc)
{
	if (!sc->in_avail)
		return;
	if (sc->aprev != NULL)
		sc->aprev->anext = sc->anext;
	else
		ss->avail = sc->anext;
	if (sc->anext != NULL)
		sc->anext->aprev = sc->aprev;
	else
		ss->avail_tail = sc->aprev;
	sc->aprev = sc->anext = NULL;
	sc->in_avail = 0;
}

/* Calls a connection may carry at once. */
static size_t
session_room(const struct session *ss)
{
	return ss->one_per_conn ? 1 : ss->gen->cfg.max_piped;
}

/*
 * Puts a connection on the list of those with room, or takes it off, as
 * its state says.  A connection that will close takes no more calls.
 */
static void
session_avail_update(struct session *ss, struct session_conn *sc)
{
	int room = sc->conn->state != CONN_CLOSED && !sc->conn->draining &&
	    sc->ncalls < session_room(ss);

	if (!room) {
		session_avail_remove(ss, sc);
		return;
	}
	if (sc->in_avail)
		return;
	sc->anext = NULL;
	sc->aprev = ss->avail_tail;
	if (ss->avail_tail != NULL)
		ss->avail_tail->anext = sc;
	else
		ss->avail = sc;
	ss->avail_tail = sc;
	sc->in_avail = 1;
}

/*
 * Forgets a connection that closed (or is dropped at the end of the run):
 * unlinks and frees its record.  Its calls are the caller's business.
 */
static void
session_conn_forget(struct session *ss, struct session_conn *sc)
{
	session_avail_remove(ss, sc);
	if (sc->prev != NULL)
		sc->prev->next = sc->next;
	else
		ss->conns = sc->next;
	if (sc->next != NULL)
		sc->next->prev = sc->prev;
	ss->nconns--;
	sc->conn->owner_data[SC_CONN] = 0;
	free(sc->calls);
	free(sc);
}

/* Closes every connection of the session (their calls come back to us). */
static void
session_close_conns(struct session *ss, uint64_t now)
{
	struct session_conn *sc, *next;

	/* Closing one forgets only that one (the caller holds a ref). */
	for (sc = ss->conns; sc != NULL; sc = next) {
		next = sc->next;
		conn_close(sc->conn, now);
	}
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
	struct cookie_hdr *hdr;
	size_t idx;

	if (ss->jar == NULL || (hdr = cookie_jar_hdr(ss->jar)) == NULL)
		return;
	idx = (size_t)call->owner_data[SC_COOKIE];
	if (idx == 0) {
		if (call->nhdrs >= CALL_MAX_HDRS) {
			cookie_hdr_unref(hdr);
			return;
		}
		idx = ++call->nhdrs;
		call->owner_data[SC_COOKIE] = idx;
	}
	session_call_free_cookie(call);
	call->owner_data[SC_COOKIE_BUF] = (uint64_t)(uintptr_t)hdr;
	call->hdrs[idx - 1].iov_base = hdr->text;
	call->hdrs[idx - 1].iov_len = hdr->len;
}

/*
 * Returns the oldest open connection with room for another call, or
 * NULL.  Connections that stopped taking calls since they were listed
 * (the server said it will close) leave the list here.
 */
static struct session_conn *
session_pick(struct session *ss)
{
	struct session_conn *sc;

	while ((sc = ss->avail) != NULL) {
		session_avail_update(ss, sc);
		if (sc->in_avail)
			return sc;
	}
	return NULL;
}

/* Opens a new connection for the session. */
static void
session_connect(struct session *ss, uint64_t now)
{
	struct session_gen *g = ss->gen;
	struct session_conn *sc;
	struct conn *c;

	c = conn_new(g->core, now);
	c->owner = g;
	c->sess = ss->sess;
	/* TLS: a session's connections resume the session's TLS session. */
	if (c->tls_slot != NULL)
		c->tls_slot = &ss->sess->tls_slot;
	sc = xcalloc(1, sizeof(*sc));
	sc->conn = c;
	c->owner_data[SC_CONN] = (uint64_t)(uintptr_t)sc;
	sc->next = ss->conns;
	if (ss->conns != NULL)
		ss->conns->prev = sc;
	ss->conns = sc;
	ss->nconns++;
	session_avail_update(ss, sc);
	sess_ref(ss->sess);
	/* A synchronous failure closes it (and may fail the session). */
	conn_connect(c, now);
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

	/* During a retry's back-off the session sends nothing. */
	if (timer_is_armed(&ss->backoff))
		return;
	while (ss->pend_head != NULL && !ss->failed && !ss->ended) {
		if ((sc = session_pick(ss)) == NULL) {
			if (ss->nconns >= ss->gen->cfg.max_conns)
				return;
			session_connect(ss, now);
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
		session_conn_push(sc, call);
		session_avail_update(ss, sc);
		if (conn_send(sc->conn, call, now) == -1) {
			/* Refused at once: nothing happened to `sc'. */
			session_conn_remove(sc, call);
			session_avail_update(ss, sc);
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
	if (g->cfg.failure_status != 0 &&
	    call->status == (int)g->cfg.failure_status) {
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
			call->next = ss->pend_head;
			ss->pend_head = call;
			if (ss->pend_tail == NULL)
				ss->pend_tail = call;
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
 * A connection of ours closed: calls it did not answer go back to the
 * front of the queue, for another connection, unless the session is over.
 */
static void
session_on_closed(struct session_gen *g, struct conn *c, uint64_t now)
{
	struct session *ss = session_of(c->sess);
	struct session_conn *sc;
	struct sess *s = ss->sess;
	struct call *call;
	size_t i;

	(void)g;
	if ((sc = session_conn_of(ss, c)) == NULL)
		return;
	sess_ref(s);
	for (i = sc->ncalls; i > 0; i--) {
		call = session_conn_at(sc, i - 1);
		if (ss->failed || ss->ended) {
			session_call_put(call, now);
			continue;
		}
		call->next = ss->pend_head;
		ss->pend_head = call;
		if (ss->pend_tail == NULL)
			ss->pend_tail = call;
	}
	session_conn_forget(ss, sc);
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
	struct sess *s;

	ss = xcalloc(1, sizeof(*ss));
	ss->gen = g;
	ss->idx = g->created - 1;
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
	sess_unref(s, now);
}

/* Frees a session's state (its calls are gone or dropped here). */
static void
session_free(struct session_gen *g, struct session *ss, uint64_t now)
{
	struct session_conn *sc;

	timer_cancel(&ss->kick);
	timer_cancel(&ss->think);
	timer_cancel(&ss->backoff);
	while ((sc = ss->conns) != NULL) {
		while (sc->ncalls > 0)
			session_call_put(session_conn_at(sc, --sc->ncalls),
			    now);
		session_conn_forget(ss, sc);
	}
	session_pend_drop(ss, now);
	if (ss->prev != NULL)
		ss->prev->next = ss->next;
	else
		g->live = ss->next;
	if (ss->next != NULL)
		ss->next->prev = ss->prev;
	cookie_jar_free(ss->jar);
	free(ss);
}

/* Arrival: one more session. */
static int
session_tick(void *arg, uint64_t now)
{
	struct session_gen *g = arg;

	if (g->finished || g->draining || g->created >= g->cfg.nsess)
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
	if (g->destroyed >= g->cfg.nsess ||
	    (g->draining && g->destroyed >= g->created)) {
		if (!g->finished) {
			g->finished = 1;
			rate_gen_stop(&g->rate);
			g->done(g->done_arg, now);
		}
	} else if (rate_spec_rate(g->cfg.rate) == 0 && !g->finished &&
	    !g->draining) {
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
		if (ss->jar != NULL && cookie_jar_set(ss->jar, arg.buf.p,
		    arg.buf.len) == -2 && g->cfg.cookies_ignored != NULL)
			(*g->cfg.cookies_ignored)++;
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
		if (session_conn_of(ss, c) == NULL || ss->failed ||
		    ss->ended)
			break;
		/*
		 * After a reply the server may close as it likes: its
		 * calls go on another connection.  A connection that
		 * failed before any reply (refused, reset, closed) is a
		 * failed try: retried after a back-off while retries are
		 * left, else the session fails.
		 */
		if (c->nreplies > 0)
			break;
		s = ss->sess;
		sess_ref(s);
		if (session_retry(ss, now) == -1)
			session_fail_now(ss, now);
		sess_unref(s, now);
		break;
	case BUS_CONN_TIMEOUT:
		c = obj;
		if (c->owner != g || c->sess == NULL)
			break;
		ss = session_of(c->sess);
		if (session_conn_of(ss, c) == NULL)
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
session_gen_drain(struct session_gen *g, uint64_t now)
{
	if (g->finished || g->draining)
		return;
	g->draining = 1;
	rate_gen_stop(&g->rate);
	timer_cancel(&g->seq_timer);
	if (g->destroyed >= g->created) {
		g->finished = 1;
		g->done(g->done_arg, now);
	}
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
