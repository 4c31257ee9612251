/*
 * Transports: how a connection's bytes cross its socket.  A transport is
 * a table of operations; the core picks one for the run (plain TCP, or
 * TLS with --ssl) and each connection keeps a struct transport with it.
 * The connection state machine never asks which transport it has: another
 * one (HTTP/2 framing, a Unix socket) is one more table.
 *
 * Every operation is non-blocking and says what happened through enum
 * transport_io.  The socket is opened, connected and watched by the
 * connection; the transport only moves bytes over it once connected.
 */
#ifndef HTTPERF_NET_TRANSPORT_H
#define HTTPERF_NET_TRANSPORT_H

#include <stddef.h>
#include <sys/uio.h>

#include "net/tls.h"

enum transport_io {
	TRANSPORT_OK,		/* done (handshake) or bytes moved */
	TRANSPORT_WANT_READ,	/* retry when the socket is readable */
	TRANSPORT_WANT_WRITE,	/* retry when the socket is writable */
	TRANSPORT_EOF,		/* the peer closed */
	TRANSPORT_ERROR,	/* failed; see the error operation */
};

struct transport;

struct transport_ops {
	const char	*name;		/* in debug lines: "TCP", "TLS" */
	/*
	 * Starts on the connected socket t->fd, with the run's context
	 * t->ctx.  `resume' is where earlier sessions come from and new ones
	 * go (TLS: a struct tls_slot), or NULL.  Returns 0, or -1 with errno.
	 * NULL: nothing to start.
	 */
	int		(*start)(struct transport *t, void *resume);
	/* Moves the handshake on: TRANSPORT_OK once done.  NULL: none. */
	enum transport_io (*handshake)(struct transport *t);
	/*
	 * Reads into buf: the count (> 0) with *io TRANSPORT_OK, or 0 with
	 * *io saying why nothing was read.
	 */
	size_t		(*read)(struct transport *t, void *buf, size_t len,
			    enum transport_io *io);
	/*
	 * Drops up to len bytes of input unread, in the kernel (Linux TCP:
	 * recv with MSG_TRUNC): the count (> 0) with *io TRANSPORT_OK, or 0
	 * with *io saying why, as read.  NULL: the transport cannot, the
	 * bytes must be read.
	 */
	size_t		(*discard)(struct transport *t, size_t len,
			    enum transport_io *io);
	/*
	 * Writes from iov: the count with *io TRANSPORT_OK (fewer bytes than
	 * offered: the socket takes no more now), or 0 with *io saying why.
	 * After a WANT_* the next call offers the same first bytes again.
	 */
	size_t		(*writev)(struct transport *t, const struct iovec *iov,
			    int iovcnt, enum transport_io *io);
	/*
	 * Returns the bytes already taken from the socket that read has not
	 * returned yet (the socket's readiness does not show them).  NULL:
	 * never any.
	 */
	size_t		(*pending)(const struct transport *t);
	/* Returns non-zero if the handshake resumed an earlier session. */
	int		(*resumed)(const struct transport *t);
	/* After TRANSPORT_ERROR: an errno-style cause. */
	int		(*error)(const struct transport *t);
	/* ... and a description for debug lines; NULL: strerror(cause). */
	const char	*(*strerror)(const struct transport *t);
	/* Frees the connection's state and closes the socket. */
	void		(*close)(struct transport *t);
};

/* One connection's transport. */
struct transport {
	const struct transport_ops *ops;
	void		*ctx;		/* the run's (TLS: struct tls_ctx) */
	void		*state;		/* the connection's (TLS: struct
					   tls_conn), NULL until started */
	int		 fd;		/* -1: none */
	int		 err;		/* plain: cause of TRANSPORT_ERROR */
};

/* Plain TCP: reads and writes go straight to the socket. */
extern const struct transport_ops transport_plain;

/* TLS over TCP (net/tls.c); the run's context is a struct tls_ctx. */
extern const struct transport_ops transport_tls;

/* Returns the TLS connection of a started TLS transport, else NULL. */
struct tls_conn	*transport_tls_conn(const struct transport *t);

#endif
