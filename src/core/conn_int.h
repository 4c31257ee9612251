/*
 * What conn.c, conn_write.c and conn_read.c share, and conn_h2.c, which
 * drives an HTTP/2 connection; nothing else includes this.  Every
 * function that may close the connection says so: callers check
 * c->state afterwards.
 */
#ifndef HTTPERF_CORE_CONN_INT_H
#define HTTPERF_CORE_CONN_INT_H

#include <stddef.h>
#include <stdint.h>

struct call;
struct conn;
struct h2_stats;

/*
 * A connection's protocol engine: HTTP/1.1 (conn_write.c, conn_read.c)
 * or HTTP/2 (conn_h2*.c, built only with libnghttp2).  A connection is
 * HTTP/1.1 from conn_new() on, HTTP/2 once conn_choose_http() started
 * it (c->proto, c->h2), and calls through its table only.  start, send,
 * flush, input, eof, expire and fail may close the connection.
 */
struct conn_proto_ops {
	/* Starts the engine on an established connection (`tls': over
	   TLS).  Returns 0, or -1 (errno).  NULL: nothing to start. */
	int	 (*attach)(struct conn *c, int tls);
	/* The connection is ready: calls queued while it connected go
	   out (HTTP/2: after the preface). */
	void	 (*start)(struct conn *c, uint64_t now);
	/* `call' was just queued, last on the connection. */
	void	 (*send)(struct conn *c, struct call *call, uint64_t now);
	/* Writes what is ready, as far as the transport takes it. */
	void	 (*flush)(struct conn *c, uint64_t now);
	/* Feeds `len' bytes read.  Returns -1 if the connection closed. */
	int	 (*input)(struct conn *c, const char *data, size_t len,
		    uint64_t now);
	/* The server closed its side. */
	void	 (*eof)(struct conn *c, uint64_t now);
	/* While connected: when the connection times out, 0: never.  NULL:
	   on the connection's own progress (conn_deadline()). */
	uint64_t (*deadline)(const struct conn *c);
	/* The deadline came: returns 1 if the connection times out, 0 if
	   it goes on.  NULL: it times out. */
	int	 (*expire)(struct conn *c, uint64_t now);
	/* The connection fails with `err' (before BUS_CONN_FAILED).
	   NULL: nothing to count. */
	void	 (*fail)(struct conn *c, int err, uint64_t now);
	/* The connection is closing: drop what the engine holds of its
	   calls.  NULL: nothing. */
	void	 (*closing)(struct conn *c, uint64_t now);
	/* The connection is destroyed: free the engine's state.  NULL:
	   none. */
	void	 (*free)(struct conn *c);
	/* What other layers ask of an HTTP/2 connection (conn_h2.h);
	   NULL: it is not one. */
	const struct h2_stats *(*h2_stats)(const struct conn *c);
	unsigned (*h2_streams)(const struct conn *c);
	int	 (*h2_tls)(const struct conn *c);
	/* A failed write first reads what the server sent: a reply that
	   came before it closed still counts (HTTP/1.1's early replies). */
	int	 read_on_write_error;
};

extern const struct conn_proto_ops conn_http1_ops;	/* conn.c */
#ifdef HAVE_NGHTTP2
extern const struct conn_proto_ops conn_h2_ops;		/* conn_h2.c */
#endif

/* conn.c: the state machine. */

/* Changes the loop interest of the socket. */
void	conn_set_mask(struct conn *c, int mask);

/* Arms the inactivity watchdog if the connection waits for something. */
void	conn_watch(struct conn *c);

/*
 * After parsing: starts the head clock when a reply head or trailer
 * section is under way, stops it otherwise.
 */
void	conn_head_clock(struct conn *c, uint64_t now);

/* Removes the head call from the queue and returns it. */
struct call *conn_pop(struct conn *c);

/*
 * The call's reply is complete (status and counts set): marks it, counts
 * it, signals BUS_CALL_RECV_STOP and drops the connection's reference to
 * the call.  For HTTP/1.1 and HTTP/2 alike.  May close.
 */
void	conn_reply_complete(struct conn *c, struct call *call, uint64_t now);

/* Reports a failure (an errno-style cause) and closes the connection. */
void	conn_fail(struct conn *c, int err, uint64_t now);

/* After TRANSPORT_ERROR: fails the connection with the transport's cause. */
void	conn_xp_error(struct conn *c, uint64_t now);

/* conn_write.c: requests. */

/* HTTP/1.1's start, send and flush (conn_http1_ops). */
void	conn_http1_start(struct conn *c, uint64_t now);
void	conn_http1_send(struct conn *c, struct call *call, uint64_t now);
void	conn_http1_flush(struct conn *c, uint64_t now);

/*
 * After a write whose outcome was `io': 0 when it went through
 * (TRANSPORT_OK) and the writer goes on; else waits for the event the
 * transport needs, or fails the connection, and returns 1.  Shared by
 * the HTTP/1.1 flush and the HTTP/2 one.
 */
int	conn_write_blocked(struct conn *c, enum transport_io io, uint64_t now);

/* Marks `call' as the one being written now (BUS_CALL_SEND_START). */
void	conn_send_start(struct conn *c, struct call *call, uint64_t now);

/* Writes what the connection's engine has ready.  May close. */
void	conn_flush(struct conn *c, uint64_t now);

/* conn_read.c: replies. */

/* 1xx replies accepted before one reply (HTTP/2: on one stream). */
#define CONN_MAX_INTERIM 100

/* Reads what the transport has and parses it.  May close. */
void	conn_read(struct conn *c, uint64_t now);

/* HTTP/1.1's input, eof and expire (conn_http1_ops). */
int	conn_http1_input(struct conn *c, const char *data, size_t len,
	    uint64_t now);
void	conn_http1_eof(struct conn *c, uint64_t now);
int	conn_http1_expire(struct conn *c, uint64_t now);

#endif
