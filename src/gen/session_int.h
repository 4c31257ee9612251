/*
 * The session engine's private parts, shared by session.c (the life of a
 * session: arrival, bursts, think times, retries, the end) and
 * session_conn.c (its connections and the calls waiting for them).  Not
 * for use outside those two files: a workload sees session.h only.
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
#ifndef HTTPERF_GEN_SESSION_INT_H
#define HTTPERF_GEN_SESSION_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/sess.h"
#include "core/timer.h"
#include "gen/session.h"

struct call;
struct conn;
struct cookie_jar;
struct svars_vals;

#define SC_COOKIE	0	/* call->owner_data: Cookie line index + 1 */
#define SC_COOKIE_BUF	1	/* call->owner_data: its cookie_hdr */
#define SC_CONN		0	/* conn->owner_data: its session_conn */

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
	uint64_t	 intended;	/* the schedule meant it for then (its
					   first call's call->intended) */
	struct session	*prev;		/* gen->live list */
	struct session	*next;
	struct session_conn *conns;	/* open connections */
	unsigned	 nconns;
	struct session_conn *avail;	/* open ones with room, oldest first */
	struct session_conn *avail_tail;
	struct call	*pend_head;	/* calls waiting for room */
	struct call	*pend_tail;
	struct cookie_jar *jar;		/* NULL: no --session-cookies */
	struct svars_vals *vars;	/* extract='s values (gen/svars.h),
					   NULL until the first */
	struct timer	 kick;		/* see session_kick() */
	struct timer	 think;		/* between bursts */
	struct timer	 backoff;	/* armed: wait before sending more */
	unsigned	 retries;	/* failed tries in a row */
	size_t		 burst;		/* current burst */
	size_t		 burst_left;	/* its calls not done */
	size_t		 burst_rest;	/* to issue after the first */
	size_t		 burst_next;	/* the next to make, 0: the first
					   is not done yet */
	size_t		 nabandoned;	/* refused, not yet counted */
	int		 one_per_conn;	/* server closed: no pipelining */
	int		 failed;
	int		 local_fail;	/* a connection failed for want of a
					   descriptor or local address */
	int		 ended;		/* completed */
	int		 wl_ref;	/* the generator's own reference */
};

/* Returns the session a connection or call of ours belongs to. */
static inline struct session *
session_of(struct sess *s)
{
	return s->priv;
}

/* session.c: the life of a session. */

/* Schedules session_kick() (deferred work) for this loop turn. */
void	session_kick_soon(struct session *ss, uint64_t now);

/* The session failed: closes its connections, lets go of everything. */
void	session_fail_now(struct session *ss, uint64_t now);

/* session_conn.c: its connections and waiting calls. */

/* Drops the call's reference to its Cookie line. */
void	session_call_free_cookie(struct call *call);

/* Drops our reference on a call (its Cookie copy goes with the last). */
void	session_call_put(struct call *call, uint64_t now);

/* Appends `call' to the calls waiting for room, or puts it first. */
void	session_pend_append(struct session *ss, struct call *call);
void	session_pend_push_front(struct session *ss, struct call *call);

/* Drops every waiting call. */
void	session_pend_drop(struct session *ss, uint64_t now);

/*
 * Returns our record of connection `c' if it is an open connection of
 * session `ss', else NULL.
 */
struct session_conn *session_conn_of(const struct session *ss,
	    const struct conn *c);

/*
 * Removes `call' from the calls of a connection; returns 0 if it was
 * there.
 */
int	session_conn_remove(struct session_conn *sc, const struct call *call);

/*
 * Puts a connection on the list of those with room, or takes it off, as
 * its state says.
 */
void	session_avail_update(struct session *ss, struct session_conn *sc);

/* Closes every connection of the session (their calls come back). */
void	session_close_conns(struct session *ss, uint64_t now);

/* Forgets every connection and drops their calls (the session is gone). */
void	session_conns_drop(struct session *ss, uint64_t now);

/*
 * Issues waiting calls while a connection has room, opening connections
 * up to the session's limit.  The caller holds a reference.
 */
void	session_flush(struct session *ss, uint64_t now);

/* A connection of ours closed: its unanswered calls wait again. */
void	session_on_closed(struct session_gen *g, struct conn *c,
	    uint64_t now);

#endif
