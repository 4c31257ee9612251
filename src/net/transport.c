/*
 * The transports (see transport.h): plain TCP, and TLS as a thin layer
 * over tls.c.  The plain one is the hot path of every run without --ssl:
 * one read(2) or writev(2) a call, nothing else.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <unistd.h>

#include "net/tls.h"
#include "net/transport.h"

/*
 * Says what a read(2) or writev(2) that returned -1 means: try again
 * (EINTR: returns 1), wait for `want' (the socket is not ready), or a
 * failure kept in t->err.
 */
static int
plain_failed(struct transport *t, enum transport_io want,
    enum transport_io *io)
{
	if (errno == EINTR)
		return 1;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		*io = want;
	else {
		t->err = errno;
		*io = TRANSPORT_ERROR;
	}
	return 0;
}

static size_t
plain_read(struct transport *t, void *buf, size_t len, enum transport_io *io)
{
	ssize_t n;

	do {
		if ((n = read(t->fd, buf, len)) >= 0) {
			*io = n > 0 ? TRANSPORT_OK : TRANSPORT_EOF;
			return (size_t)n;
		}
	} while (plain_failed(t, TRANSPORT_WANT_READ, io));
	return 0;
}

#if defined(__linux__) && defined(MSG_TRUNC)
/*
 * Linux TCP discards the bytes a recv() with MSG_TRUNC asks for and
 * returns their count, without copying them to user space (tcp(7)).
 */
static size_t
plain_discard(struct transport *t, size_t len, enum transport_io *io)
{
	ssize_t n;

	do {
		if ((n = recv(t->fd, NULL, len, MSG_TRUNC)) >= 0) {
			*io = n > 0 ? TRANSPORT_OK : TRANSPORT_EOF;
			return (size_t)n;
		}
	} while (plain_failed(t, TRANSPORT_WANT_READ, io));
	return 0;
}
#define PLAIN_DISCARD	plain_discard
#else
#define PLAIN_DISCARD	NULL
#endif

static size_t
plain_writev(struct transport *t, const struct iovec *iov, int iovcnt,
    enum transport_io *io)
{
	ssize_t n;

	do {
		/* One piece (a request without a body): write() spares the
		   kernel copying and checking an iovec array. */
		n = iovcnt == 1 ? write(t->fd, iov[0].iov_base, iov[0].iov_len) :
		    writev(t->fd, iov, iovcnt);
		if (n >= 0) {
			*io = TRANSPORT_OK;
			return (size_t)n;
		}
	} while (plain_failed(t, TRANSPORT_WANT_WRITE, io));
	return 0;
}

static int
plain_error(const struct transport *t)
{
	return t->err;
}

static void
plain_close(struct transport *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

const struct transport_ops transport_plain = {
	.name = "TCP",
	.read = plain_read,
	.discard = PLAIN_DISCARD,
	.writev = plain_writev,
	.error = plain_error,
	.close = plain_close,
};

/* enum tls_io maps onto enum transport_io value for value. */
_Static_assert((int)TLS_IO_OK == (int)TRANSPORT_OK &&
    (int)TLS_IO_WANT_READ == (int)TRANSPORT_WANT_READ &&
    (int)TLS_IO_WANT_WRITE == (int)TRANSPORT_WANT_WRITE &&
    (int)TLS_IO_EOF == (int)TRANSPORT_EOF &&
    (int)TLS_IO_ERROR == (int)TRANSPORT_ERROR,
    "enum tls_io and enum transport_io differ");

static int
tlsx_start(struct transport *t, void *resume)
{
	t->state = tls_conn_new(t->ctx, t->fd, resume);
	return t->state != NULL ? 0 : -1;
}

static enum transport_io
tlsx_handshake(struct transport *t)
{
	return (enum transport_io)tls_handshake(t->state);
}

static size_t
tlsx_read(struct transport *t, void *buf, size_t len, enum transport_io *io)
{
	enum tls_io tio;
	size_t n;

	n = tls_read(t->state, buf, len, &tio);
	*io = (enum transport_io)tio;
	return n;
}

static size_t
tlsx_writev(struct transport *t, const struct iovec *iov, int iovcnt,
    enum transport_io *io)
{
	enum tls_io tio;
	size_t n;

	n = tls_writev(t->state, iov, iovcnt, &tio);
	*io = (enum transport_io)tio;
	return n;
}

static size_t
tlsx_pending(const struct transport *t)
{
	return tls_pending(t->state);
}

static int
tlsx_resumed(const struct transport *t)
{
	return tls_resumed(t->state);
}

static int
tlsx_error(const struct transport *t)
{
	return tls_conn_error(t->state);
}

static const char *
tlsx_strerror(const struct transport *t)
{
	return tls_conn_strerror(t->state);
}

/* close_notify goes out (tls_conn_free()) before the socket closes. */
static void
tlsx_close(struct transport *t)
{
	tls_conn_free(t->state);
	t->state = NULL;
	plain_close(t);
}

const struct transport_ops transport_tls = {
	.name = "TLS",
	.start = tlsx_start,
	.handshake = tlsx_handshake,
	.read = tlsx_read,
	.writev = tlsx_writev,
	.pending = tlsx_pending,
	.resumed = tlsx_resumed,
	.error = tlsx_error,
	.strerror = tlsx_strerror,
	.close = tlsx_close,
};

struct tls_conn *
transport_tls_conn(const struct transport *t)
{
	return t->ops == &transport_tls ? t->state : NULL;
}
