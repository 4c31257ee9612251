/*
 * The session engine's connection manager (see session_int.h): each
 * session's open connections, the calls each has not answered, and the
 * calls waiting for room.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/call.h"
#include "core/conn.h"
#include "core/sess.h"
#include "gen/cookie.h"
#include "gen/session.h"
#include "gen/session_int.h"
#include "lib/util.h"

#define SC_RING_MIN	4	/* first size of a connection's call ring */

/* Drops the call's reference to its Cookie line. */
void
session_call_free_cookie(struct call *call)
{
	cookie_hdr_unref((struct cookie_hdr *)(uintptr_t)
	    call->owner_data[SC_COOKIE_BUF]);
	call->owner_data[SC_COOKIE_BUF] = 0;
}

/* Drops our reference on a call (its Cookie copy goes with the last). */
void
session_call_put(struct call *call, uint64_t now)
{
	if (call->refs == 1)
		session_call_free_cookie(call);
	call_unref(call, now);
}

/*
 * Clears what a connection filled in, before the call goes out again.  A
 * call the server did not process stays marked (call->unprocessed) until
 * it is answered: its reply then counts as a retry, not its failure; one
 * answered and sent again (--failure-status) is a new request.
 */
static void
session_call_reset(struct call *call)
{
	if (call->replied)
		call->unprocessed = 0;
	call->conn = NULL;
	call->t_send_start = call->t_send_stop = 0;
	call->t_recv_start = call->t_recv_stop = 0;
	call->replied = 0;
	call->status = 0;
	call->hdr_bytes = call->body_bytes = 0;
	call->footer_bytes = call->reply_bytes = 0;
}

/* Appends `call' to the calls waiting for room. */
void
session_pend_append(struct session *ss, struct call *call)
{
	call->next = NULL;
	if (ss->pend_tail != NULL)
		ss->pend_tail->next = call;
	else
		ss->pend_head = call;
	ss->pend_tail = call;
}

/* Puts `call' first among the calls waiting for room. */
void
session_pend_push_front(struct session *ss, struct call *call)
{
	call->next = ss->pend_head;
	ss->pend_head = call;
	if (ss->pend_tail == NULL)
		ss->pend_tail = call;
}

/* Drops every waiting call. */
void
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
struct session_conn *
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
int
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
void
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
void
session_close_conns(struct session *ss, uint64_t now)
{
	struct session_conn *sc, *next;

	/* Closing one forgets only that one (the caller holds a ref). */
	for (sc = ss->conns; sc != NULL; sc = next) {
		next = sc->next;
		conn_close(sc->conn, now);
	}
}

void
session_conns_drop(struct session *ss, uint64_t now)
{
	struct session_conn *sc;

	while ((sc = ss->conns) != NULL) {
		while (sc->ncalls > 0)
			session_call_put(session_conn_at(sc, --sc->ncalls),
			    now);
		session_conn_forget(ss, sc);
	}
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

/* The server of `call': its own (call->target) or the session's. */
static const struct core_target *
session_call_target(const struct session *ss, const struct call *call)
{
	return call->target != NULL ? call->target : ss->sess->target;
}

/*
 * Returns the oldest open connection to server `t' with room for another
 * call, or NULL.  Connections that stopped taking calls since they were
 * listed (the server said it will close) leave the list here.
 */
static struct session_conn *
session_pick(struct session *ss, const struct core_target *t)
{
	struct session_conn *sc, *next;

	for (sc = ss->avail; sc != NULL; sc = next) {
		next = sc->anext;
		session_avail_update(ss, sc);
		if (sc->in_avail && sc->conn->target == t)
			return sc;
	}
	return NULL;
}

/* How many of the session's connections go to server `t'. */
static size_t
session_nconns_to(const struct session *ss, const struct core_target *t)
{
	const struct session_conn *sc;
	size_t n = 0;

	for (sc = ss->conns; sc != NULL; sc = sc->next)
		n += sc->conn->target == t;
	return n;
}

/* Opens a new connection to server `t' (NULL: the run's) for the session. */
static void
session_connect(struct session *ss, const struct core_target *t, uint64_t now)
{
	struct session_gen *g = ss->gen;
	struct session_conn *sc;
	struct conn *c;

	c = conn_new(g->core, now);
	c->owner = g;
	c->sess = ss->sess;
	if (t != NULL)
		conn_target(c, t);
	/* Calls the server announced it would not process come back to
	   session_on_closed() to be sent again, uncounted. */
	c->resend = 1;
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
void
session_flush(struct session *ss, uint64_t now)
{
	const struct core_target *t;
	struct session_conn *sc;
	struct call *call;

	/* During a retry's back-off the session sends nothing. */
	if (timer_is_armed(&ss->backoff))
		return;
	while (ss->pend_head != NULL && !ss->failed && !ss->ended) {
		t = session_call_target(ss, ss->pend_head);
		if ((sc = session_pick(ss, t)) == NULL) {
			/* At most max_conns to each server, as browsers. */
			if (session_nconns_to(ss, t) >= ss->gen->cfg.max_conns)
				return;
			session_connect(ss, t, now);
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
 * A connection of ours closed: calls it did not answer go back to the
 * front of the queue, for another connection, unless the session is over.
 */
void
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
		session_pend_push_front(ss, call);
	}
	session_conn_forget(ss, sc);
	if (ss->pend_head != NULL && !ss->failed && !ss->ended)
		session_kick_soon(ss, now);
	sess_unref(s, now);		/* the connection's */
	sess_unref(s, now);
}
