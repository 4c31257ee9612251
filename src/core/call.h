/*
 * A call: one request and its reply.  Generators create calls, set what
 * the request carries, and hand them to a connection with conn_send();
 * the connection fills in the times and the reply.  Calls come from the
 * core's pool, so a steady run does not allocate per request.
 */
#ifndef HTTPERF_CORE_CALL_H
#define HTTPERF_CORE_CALL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "lib/tmpl.h"

#define CALL_MAX_HDRS	8	/* per-call header lines */
/* One more header iovec: --template's lines (core_tmpl), after the
   generators' own. */
#define CALL_MAX_IOV	(CALL_MAX_HDRS + 9)
/* The most reply body bytes kept for a call's extractions and checks. */
#define CALL_BODY_MAX	((size_t)1 << 20)
/* BUS_CALL_FAILED's cause for a call never sent: a session variable its
   request uses has no value (class no-value, gen/svars.h). */
#define CALL_ENOVALUE	(-1001)

struct core;
struct conn;
struct sess;

struct call {
	struct call	*next;		/* connection or session queue */
	struct core	*core;
	struct conn	*conn;		/* set by conn_send(), not a reference */
	uint64_t	 id;		/* serial number, from 0 */
	unsigned	 refs;

	/* The request: NULL method/uri mean the run's defaults. */
	const char	*method;
	size_t		 method_len;
	const char	*uri;
	size_t		 uri_len;
	struct iovec	 hdrs[CALL_MAX_HDRS + 1]; /* lines with CRLF */
	size_t		 nhdrs;
	const char	*body;
	size_t		 body_len;

	/* Wire state, owned by the connection. */
	struct iovec	 iov[CALL_MAX_IOV];
	size_t		 iovcnt;
	size_t		 iov_idx;	/* first iovec not completely sent */
	size_t		 req_len;
	size_t		 req_body_len;	/* of req_len: the body, the last
					   iovec (the call's or the run's) */
	size_t		 req_sent;
	int		 head_method;	/* the reply has no body */

	/* When the workload's schedule meant the call to start (ns): the
	   origin of the corrected latency.  0: no schedule, the call
	   starts when it is sent. */
	uint64_t	 intended;

	/* The first call its connection started to send: it waited for
	   the connection, whose connect and handshake times are its own
	   (--log).  Set with t_send_start. */
	int		 conn_first;

	/* Times (ns), 0 until they happen. */
	uint64_t	 t_send_start;
	uint64_t	 t_send_stop;
	uint64_t	 t_recv_start;
	uint64_t	 t_recv_stop;

	/* The reply, valid once `replied' is set. */
	int		 replied;
	/* The reply came before the request was completely written: the
	   rest is still written when the server keeps the connection, and
	   never (`cut') when the reply closes it. */
	int		 early;
	int		 cut;
	int		 status;
	uint64_t	 hdr_bytes;
	uint64_t	 body_bytes;
	uint64_t	 footer_bytes;
	uint64_t	 reply_bytes;	/* everything, chunk framing too */

	/* The server announced it would not process the request (sent
	   after a reply that closed the connection, RFC 9112 9.6, or on a
	   stream above a GOAWAY's last stream id, RFC 9113 6.8) and the
	   connection gave it back to be sent again (conn->resend): the
	   errno-style cause of the failure it counts as (BUS_CALL_FAILED
	   when the call is destroyed) if it is never answered; 0: none. */
	int		 unprocessed;
	struct sess	*sess;		/* session it belongs to, or NULL */
	/* --servers: the server a session's call goes to (another than
	   the session's: a page's object there); NULL: the session's. */
	const struct core_target *target;
	/* Set by a BUS_CALL_NEW handler that has nothing to give the call
	   (e.g. --wlog n at the end of its list): conn_send() refuses it. */
	int		 abandon;
	/* Memory the call owns (e.g. its Cookie line), freed with it. */
	char		*owned;
	/* --template: the expanded URI, header lines and body, which the
	   request's fields point into; expanded once, when first sent. */
	struct tmpl_buf	 tbuf;
	int		 expanded;
	/* --template: the call's own URI and body templates (a session
	   file's), expanded instead of the run's; NULL: none. */
	const struct tmpl *uri_tmpl;
	const struct tmpl *body_tmpl;
	const struct tmpl *hdrs_tmpl;	/* its own header lines */

	/* What the reply must give (session variables to extract, checks:
	   gen/svars.h), opaque to the core, which hands the call to
	   core_config.reply_fn before BUS_CALL_RECV_STOP; NULL: nothing.
	   keep_body: the body is kept in rbody (at most CALL_BODY_MAX
	   bytes; body_over: it was longer); keep_head: the header lines
	   in rhead (each with its CRLF, the parser's --max-head bounds
	   them).  Both are emptied whenever the call is sent. */
	const void	*rspec;
	int		 keep_head;
	int		 keep_body;
	int		 body_over;
	struct tmpl_buf	 rbody;
	struct tmpl_buf	 rhead;
	/* The checks' outcome, set by reply_fn: bit i of check_fail is
	   check i of check_names (at most 64) failed, check_done those
	   evaluated. */
	const char *const *check_names;
	uint64_t	 check_done;
	uint64_t	 check_fail;

	/* --script: the whole request, sent byte for byte instead of the
	   one built from the fields above; NULL: none.  Its memory is the
	   call's `owned' or the run's. */
	const char	*raw;
	size_t		 raw_len;

	/* Scratch space for whoever created the call. */
	void		*owner;
	uint64_t	 owner_data[2];
};

/*
 * Creates a call with one reference held by the caller, then signals
 * BUS_CALL_NEW so URI and header sources can fill it in.
 */
struct call	*call_new(struct core *core, uint64_t now);

/* Takes a reference. */
void		 call_ref(struct call *c);

/*
 * Drops a reference; the last one signals BUS_CALL_DESTROYED and puts the
 * call back in the pool.  Before, a call left unanswered that the server
 * had not processed (call->unprocessed) signals BUS_CALL_FAILED with that
 * cause and no connection: the failure is counted only now that it is
 * sure no answer comes.
 */
void		 call_unref(struct call *c, uint64_t now);

/*
 * For a call with keep_head: keeps a reply header line made of `a' and,
 * unless `b' is NULL, ": " and `b' (a status line, "HTTP/...", starts the
 * head again: an interim reply's lines are dropped).
 */
void		 call_keep_hdr(struct call *c, const char *a, size_t alen,
		    const char *b, size_t blen);

/* For a call with keep_body: keeps body bytes, up to CALL_BODY_MAX. */
void		 call_keep_body(struct call *c, const char *p, size_t len);

#endif
