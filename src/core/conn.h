/*
 * Connections.
 *
 * A connection runs the client state machine: socket, connect, write the
 * queued requests (pipelined, with writev), read and parse replies, keep
 * the connection alive or close it as the server says.  Every failure is
 * reported as an event and counted by the collectors; nothing here exits.
 * Bytes go through the run's transport (net/transport.h), whichever it
 * is.  Connections come from the core's pool; they are destroyed (and
 * recycled) when the last reference goes, which conn_close() usually
 * drops.
 *
 * The code: conn.c is the state machine (connect, handshake, close,
 * failures, the watchdog), conn_write.c writes requests, conn_read.c
 * reads and parses replies; conn_int.h is what they share, with the
 * table of protocol operations through which a connection runs its
 * engine: HTTP/1.1 (those files) or HTTP/2 (conn_h2*.c, conn_h2.h).
 */
#ifndef HTTPERF_CORE_CONN_H
#define HTTPERF_CORE_CONN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "core/core.h"
#include "core/timer.h"
#include "net/http_resp.h"
#include "net/proxy.h"
#include "net/tls.h"
#include "net/transport.h"

struct call;
struct conn_proto_ops;
struct h2_conn;
struct sess;

enum conn_state {
	CONN_NEW,
	CONN_CONNECTING,
	CONN_TUNNEL,		/* CONNECT through the proxy (--ssl) */
	CONN_HANDSHAKE,		/* the transport's handshake (TLS) */
	CONN_CONNECTED,
	CONN_CLOSED,
};

struct conn {
	struct conn	*live_next;	/* core->live list */
	struct conn	*live_prev;
	struct core	*core;
	uint64_t	 id;
	unsigned	 refs;
	enum conn_state	 state;
	struct transport xp;		/* its socket and how bytes cross */
	int		 mask;		/* loop interest */
	int		 draining;	/* server will close: send no more */
	/* Set by the owner: it sends again the calls the server announced
	   it would not process; they come back with BUS_CONN_CLOSED,
	   marked call->unprocessed, instead of failing the connection. */
	int		 resend;

	/* Queued calls: replied-to order; `unsent' is the first not yet
	   completely written. */
	struct call	*head;
	struct call	*tail;
	struct call	*unsent;

	struct http_resp resp;		/* reply of the head call */
	int		 resp_active;
	char		*keep;		/* bytes of a line cut by a read */
	size_t		 keep_len;
	size_t		 keep_cap;
	int		 lowat;		/* SO_RCVLOWAT set, 0: none (1) */

	struct timer	 timer;		/* inactivity watchdog */
	uint64_t	 last_progress;
	uint64_t	 head_since;	/* a reply head (or trailer section)
					   started then; 0: not in one */

	uint64_t	 t_connect_start;
	uint64_t	 t_tcp_connected; /* TCP connect done (TLS starts) */
	uint64_t	 t_connected;	/* ready for requests */

	/* A CONNECT tunnel (--proxy with --ssl): from the request's first
	   byte to the proxy's 2xx head; 0: none (yet). */
	uint64_t	 t_tunnel_start;
	uint64_t	 t_tunneled;
	int		 tunnel_status;	/* the proxy's status, 0: none yet */
	size_t		 tunnel_sent;	/* bytes of the CONNECT written */
	struct proxy_resp tunnel_resp;	/* its reply head's parser */

	/* TLS (with --ssl): where sessions come from and go; the owner may
	   change it before conn_connect(), NULL: no reuse. */
	struct tls_slot	*tls_slot;
	int		 resumed;	/* the handshake resumed a session */
	int		 hs_failed;	/* the handshake failed */
	uint64_t	 nreplies;	/* replies completed */
	uint64_t	 nstarted;	/* calls started (BUS_CALL_SEND_START) */

	const struct conn_proto_ops *proto; /* its engine (conn_int.h):
					   HTTP/1.1, or HTTP/2 once started */
	struct h2_conn	*h2;		/* HTTP/2 state (conn_h2.h), NULL:
					   HTTP/1.x */

	struct sess	*sess;		/* session it serves, or NULL; not a
					   reference */
	/* When the workload's schedule meant it to start (ns), for its
	   first call's call->intended; 0: no schedule. */
	uint64_t	 intended;

	size_t		 data_row;	/* --data: its row, unless it serves
					   a session (gen/data.c) */

	/* Scratch space for whoever created the connection. */
	void		*owner;
	uint64_t	 owner_data[4];
	/*
	 * The owner's: called when every request queued on an HTTP/1
	 * connection is written and the transport takes more, so that the
	 * owner can queue the next calls (conn_send() only queues them
	 * then, the same flush writes them).  NULL: none.
	 */
	void		(*refill)(struct conn *c, uint64_t now);
	int		 flushing;	/* in refill(): do not write */
};

/*
 * Creates a connection (one reference, held by the caller and dropped by
 * conn_close()) and signals BUS_CONN_NEW.
 */
struct conn *conn_new(struct core *core, uint64_t now);

/*
 * Opens the socket and starts connecting.  Success and failure are
 * reported by events (BUS_CONN_CONNECTED, BUS_CONN_FAILED); a failed
 * connection is closed, which may destroy it before this returns.
 */
void	conn_connect(struct conn *c, uint64_t now);

/*
 * Queues `call' on the connection (taking a reference) and writes it as
 * soon as the connection allows.  Returns 0, or -1 if the connection is
 * closed or will close (the server said so): the call is then not sent.
 */
int	conn_send(struct conn *c, struct call *call, uint64_t now);

/*
 * Closes the connection: drops its calls, signals BUS_CONN_CLOSED, closes
 * the socket and drops the creator's reference.  Harmless twice.
 */
void	conn_close(struct conn *c, uint64_t now);

/* Takes / drops a reference. */
void	conn_ref(struct conn *c);
void	conn_unref(struct conn *c, uint64_t now);

/* Returns the number of calls queued (sent or not, without a reply). */
size_t	conn_pending(const struct conn *c);

#endif
