/*
 * Writing requests (see conn.h): a call's request is laid out in iovecs
 * when it is queued, and the unsent requests go out back to back
 * (pipelined) in one writev of the transport per CONN_WRITE_IOV iovecs.
 */
#include "config.h"

#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_int.h"
#include "core/loop.h"
#include "core/sess.h"
#include "lib/tmpl.h"

#define CONN_WRITE_IOV	64	/* iovecs gathered per writev */
#define CONN_REFILLS	16	/* refill() calls per flush, then a turn */
#define CONN_WRITE_FAILED_READS	64	/* reads after a write failed */

static const union bus_arg conn_noarg = { .i = 0 };

/*
 * --template: expands the request's templates (the call's own, else the
 * run's for a field the call leaves to the run) into the call's buffer, in
 * one order (body, URI, header lines) so that a seed gives the same
 * values: the body, then the URI and the header lines with the body's
 * Content-Length go where the call's fields point, the lines after the
 * generators' own (the call's own lines, hdrs_tmpl, before the run's).
 * Once per call, whatever connection sends it.  Returns 0, or -1 when a
 * variable has no value (a session variable never set): the request is
 * not to be sent.
 */
static int
conn_expand(struct conn *c, struct call *call, uint64_t now)
{
	struct core_tmpl *ct = c->core->cfg.tmpl;
	struct tmpl_buf *b = &call->tbuf;
	struct tmpl_ctx x;
	const struct tmpl *bt = call->body_tmpl != NULL ? call->body_tmpl :
	    call->body == NULL ? ct->body : NULL;
	const struct tmpl *ut = call->uri_tmpl != NULL ? call->uri_tmpl :
	    call->uri == NULL ? ct->uri : NULL;
	int body = bt != NULL, uri = ut != NULL;
	size_t blen = 0, u = 0, h;
	char cl[48];
	int n, rv = 0;

	memset(&x, 0, sizeof(x));
	x.seq = call->id + 1;
	x.conn = c->id + 1;
	x.session = call->sess != NULL ? call->sess->id + 1 : 0;
	x.client = ct->client;
	x.epoch_ns = (uint64_t)((int64_t)now + ct->epoch_off);
	x.rng = &ct->rng;
	x.value = ct->value;
	x.value_arg = ct->value_arg;
	x.subject = call;
	call->expanded = 1;
	b->len = 0;
	/* Only a hook (a session variable, a data column) can fail. */
	if (body)
		rv |= tmpl_expand(bt, &x, b);
	blen = b->len;
	if (uri) {
		rv |= tmpl_expand(ut, &x, b);
		u = b->len - blen;
	}
	h = b->len;
	if (call->hdrs_tmpl != NULL)
		rv |= tmpl_expand(call->hdrs_tmpl, &x, b);
	if (ct->hdrs != NULL)
		rv |= tmpl_expand(ct->hdrs, &x, b);
	if (rv != 0)
		return -1;
	if (body) {
		n = snprintf(cl, sizeof(cl), "Content-Length: %zu\r\n", blen);
		tmpl_buf_add(b, cl, (size_t)n);
		call->body = b->p;
		call->body_len = blen;
	}
	if (uri) {
		call->uri = b->p + blen;
		call->uri_len = u;
	}
	/* Last: a generator keeps the index of its own lines (a session
	   puts a fresh Cookie line in its slot when it sends again). */
	if (b->len > h) {
		call->hdrs[call->nhdrs].iov_base = b->p + h;
		call->hdrs[call->nhdrs].iov_len = b->len - h;
		call->nhdrs++;
	}
	return 0;
}

/*
 * --script: the call's bytes as they are, the head in one iovec and the
 * body after it, if any, in a last one (as http_req_iov() lays them out).
 */
static int
conn_prepare_raw(struct call *call)
{
	const char *end;
	size_t head;

	if (call->raw_len == 0)
		return -1;
	end = memmem(call->raw, call->raw_len, "\r\n\r\n", 4);
	head = end == NULL ? call->raw_len : (size_t)(end + 4 - call->raw);
	call->iov[0].iov_base = (void *)(uintptr_t)call->raw;
	call->iov[0].iov_len = head;
	call->iovcnt = 1;
	call->req_body_len = call->raw_len - head;
	if (call->req_body_len > 0) {
		call->iov[1].iov_base = (void *)(uintptr_t)(call->raw + head);
		call->iov[1].iov_len = call->req_body_len;
		call->iovcnt = 2;
	}
	call->req_len = call->raw_len;
	call->iov_idx = 0;
	call->req_sent = 0;
	call->head_method = call->raw_len >= 5 &&
	    memcmp(call->raw, "HEAD ", 5) == 0;
	return 0;
}

/* Builds the request iovecs of a call about to be queued. */
static int
conn_prepare_call(struct conn *c, struct call *call)
{
	const struct core *core = c->core;
	const struct http_req_tmpl *t = conn_req(c);
	size_t i;

	if (call->raw != NULL)
		return conn_prepare_raw(call);
	call->iovcnt = http_req_iov(t, call->method,
	    call->method_len, call->uri, call->uri_len, call->hdrs,
	    call->nhdrs, call->body, call->body_len, call->iov,
	    CALL_MAX_IOV);
	if (call->iovcnt == 0)
		return -1;
	call->req_len = 0;
	for (i = 0; i < call->iovcnt; i++)
		call->req_len += call->iov[i].iov_len;
	/* The body, if any, is the last iovec (see http_req_iov()). */
	if (call->body != NULL)
		call->req_body_len = call->body_len;
	else
		call->req_body_len = t->body != NULL ? t->body_len : 0;
	call->iov_idx = 0;
	call->req_sent = 0;
	/* A call sent again (a retry) keeps only its new reply. */
	call->rhead.len = call->rbody.len = 0;
	call->body_over = 0;
	if (call->method != NULL)
		call->head_method = call->method_len == 4 &&
		    memcmp(call->method, "HEAD", 4) == 0;
	else
		call->head_method = core->tmpl_head;
	return 0;
}

void
conn_send_start(struct conn *c, struct call *call, uint64_t now)
{
	now = loop_clock(c->core->loop);
	call->t_send_start = now;
	call->conn_first = c->nstarted++ == 0;
	bus_signal(c->core->bus, BUS_CALL_SEND_START, call, conn_noarg, now);
}

int
conn_send(struct conn *c, struct call *call, uint64_t now)
{
	if (c->state == CONN_CLOSED || c->draining || call->abandon)
		return -1;
	if (c->core->cfg.tmpl != NULL && !call->expanded) {
		/* A value may be the connection's (--data). */
		struct conn *was = call->conn;
		int rc;

		call->conn = c;
		rc = conn_expand(c, call, now);
		call->conn = was;
		if (rc == -1) {
			/* Never sent: a failure of its own class
			   (no-value). */
			union bus_arg arg = { .i = CALL_ENOVALUE };

			call->conn = NULL;
			bus_signal(c->core->bus, BUS_CALL_FAILED, call, arg,
			    now);
			return -1;
		}
	}
	if (conn_prepare_call(c, call) == -1)
		return -1;
	call_ref(call);
	call->conn = c;
	call->next = NULL;
	if (c->tail != NULL)
		c->tail->next = call;
	else
		c->head = call;
	c->tail = call;
	c->proto->send(c, call, now);
	return 0;
}

/*
 * HTTP/1.1: the call is written after those before it (pipelined), at
 * once if the writer does not wait for writability.
 */
void
conn_http1_send(struct conn *c, struct call *call, uint64_t now)
{
	if (c->unsent != NULL && c->unsent->early)
		c->unsent->next = c->head;
	if (c->unsent == NULL) {
		c->unsent = call;
		if (c->state == CONN_CONNECTED)
			conn_send_start(c, call, now);
	}
	if (c->state == CONN_CONNECTED && !c->flushing) {
		if (!(c->mask & LOOP_WRITE)) {
			conn_ref(c);
			conn_flush(c, now);
			conn_unref(c, now);
		}
		if (c->state == CONN_CONNECTED)
			conn_watch(c);
	}
}

/* HTTP/1.1: the calls queued while connecting go out. */
void
conn_http1_start(struct conn *c, uint64_t now)
{
	if (c->unsent == NULL)
		return;
	if (c->unsent->t_send_start == 0)
		conn_send_start(c, c->unsent, now);
	if (c->state == CONN_CONNECTED)
		conn_flush(c, now);
}

/*
 * Accounts for `n' request bytes just written: advances the unsent calls
 * and signals the end of each request completed.  Returns -1 if an event
 * handler closed the connection.
 */
static int
conn_advance(struct conn *c, size_t n, uint64_t now)
{
	struct core *core = c->core;
	struct call *call;
	union bus_arg arg;

	arg.i = (long)n;
	bus_signal(core->bus, BUS_CONN_BYTES_OUT, c, arg, now);
	c->last_progress = now;
	while ((call = c->unsent) != NULL) {
		while (call->iov_idx < call->iovcnt) {
			struct iovec *v = &call->iov[call->iov_idx];

			if (v->iov_len > n) {
				v->iov_base = (char *)v->iov_base + n;
				v->iov_len -= n;
				call->req_sent += n;
				n = 0;
				break;
			}
			n -= v->iov_len;
			call->req_sent += v->iov_len;
			v->iov_len = 0;
			call->iov_idx++;
		}
		if (call->iov_idx < call->iovcnt)
			break;
		call->t_send_stop = now;
		c->unsent = call->next;
		if (call->early) {
			/* Replied to already: only its bytes were left. */
			call->next = NULL;
			bus_signal(core->bus, BUS_CALL_SEND_STOP, call,
			    conn_noarg, now);
			call_unref(call, now);
		} else
			bus_signal(core->bus, BUS_CALL_SEND_STOP, call,
			    conn_noarg, now);
		if (c->state != CONN_CONNECTED)
			return -1;
		if (c->unsent != NULL)
			conn_send_start(c, c->unsent, now);
		if (c->state != CONN_CONNECTED)
			return -1;
	}
	return 0;
}

/*
 * Returns non-zero if a read would not block: the transport holds
 * decrypted bytes, or the socket has bytes, an EOF or an error (poll(2)
 * looks without taking the error away).
 */
static int
conn_readable(const struct conn *c)
{
	const struct transport *xp = &c->xp;
	struct pollfd p;
	int n;

	if (xp->ops->pending != NULL && xp->ops->pending(xp) > 0)
		return 1;
	p.fd = xp->fd;
	p.events = POLLIN;
	p.revents = 0;
	do
		n = poll(&p, 1, 0);
	while (n == -1 && errno == EINTR);
	return n == 1;
}

/*
 * A write failed: the server closed or reset the connection.  It may
 * have replied first, before it read the whole request (an early reply
 * with Connection: close to a large body, which lighttpd sends before it
 * closes with the body unread, so the kernel resets the connection under
 * the writes): what it sent is read and parsed before anything fails,
 * over TLS too, so that reply counts and the call is cut short, as when
 * the reply is read before the write.  Only then, if the connection is
 * still open, the write's error fails it.  HTTP/2 fails at once (its
 * table's read_on_write_error).
 */
static void
conn_write_failed(struct conn *c, enum transport_io io, uint64_t now)
{
	int n = 0;

	if (c->proto->read_on_write_error) {
		/* The writer waits for writability: conn_read() writes
		   nothing (it would fail again and come back here).  A
		   bounded number of reads: a server that keeps sending
		   cannot hold the loop here. */
		conn_set_mask(c, LOOP_READ | LOOP_WRITE);
		while (c->state == CONN_CONNECTED &&
		    n++ < CONN_WRITE_FAILED_READS && conn_readable(c))
			conn_read(c, loop_clock(c->core->loop));
		if (c->state != CONN_CONNECTED)
			return;
	}
	if (io == TRANSPORT_EOF)
		conn_fail(c, EPIPE, now);
	else
		conn_xp_error(c, now);
}

int
conn_write_blocked(struct conn *c, enum transport_io io, uint64_t now)
{
	switch (io) {
	case TRANSPORT_OK:
		return 0;
	case TRANSPORT_WANT_WRITE:
		conn_set_mask(c, LOOP_READ | LOOP_WRITE);
		break;
	case TRANSPORT_WANT_READ:
		/* The transport must read first (a TLS key update): the
		   next read event flushes again. */
		conn_set_mask(c, LOOP_READ);
		break;
	case TRANSPORT_EOF:
	case TRANSPORT_ERROR:
		conn_write_failed(c, io, now);
		break;
	}
	return 1;
}

/*
 * Writes the unsent requests while the transport takes them.  Returns 0
 * when all are written, -1 when it takes no more (watching for
 * writability then) or the connection is no longer up.
 */
static int
conn_write_unsent(struct conn *c, uint64_t now)
{
	struct iovec iov[CONN_WRITE_IOV];
	struct transport *xp = &c->xp;
	enum transport_io io;
	struct call *call;
	size_t n, i, want, w;

	while (c->state == CONN_CONNECTED && c->unsent != NULL) {
		n = 0;
		want = 0;
		for (call = c->unsent; call != NULL && n < CONN_WRITE_IOV;
		    call = call->next)
			for (i = call->iov_idx; i < call->iovcnt &&
			    n < CONN_WRITE_IOV; i++) {
				want += call->iov[i].iov_len;
				iov[n++] = call->iov[i];
			}
		w = xp->ops->writev(xp, iov, (int)n, &io);
		if (conn_write_blocked(c, io, now))
			return -1;
		now = loop_clock(c->core->loop);
		if (conn_advance(c, w, now) == -1)
			return -1;
		if (w < want) {
			/* A short write: the socket buffer is full. */
			conn_set_mask(c, LOOP_READ | LOOP_WRITE);
			return -1;
		}
	}
	return c->state == CONN_CONNECTED ? 0 : -1;
}

void
conn_flush(struct conn *c, uint64_t now)
{
	c->proto->flush(c, now);
}

/*
 * HTTP/1.1: writes as much of the unsent requests as the transport
 * takes, in one writev per CONN_WRITE_IOV iovecs.  When all is written, the owner's
 * refill() may queue more, which go out in the same way: up to
 * CONN_REFILLS times, then the loop's next turn goes on, so that a long
 * burst neither holds the loop nor is made all at once.  Watches for
 * writability only when the transport takes no more (or for that turn).
 */
void
conn_http1_flush(struct conn *c, uint64_t now)
{
	unsigned refills = 0;

	for (;;) {
		if (conn_write_unsent(c, now) == -1)
			return;
		if (c->refill == NULL)
			break;
		if (refills++ == CONN_REFILLS) {
			conn_set_mask(c, LOOP_READ | LOOP_WRITE);
			return;
		}
		c->flushing = 1;
		c->refill(c, now);
		c->flushing = 0;
		if (c->state != CONN_CONNECTED)
			return;
		if (c->unsent == NULL)
			break;
		now = loop_clock(c->core->loop);
	}
	conn_set_mask(c, LOOP_READ);
}
