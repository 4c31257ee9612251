/*
 * Reading replies (see conn.h).  Replies are read into one buffer shared
 * by all connections and parsed in place; only the bytes of a line cut by
 * the end of a read are kept per connection.  Every reply completed
 * completes the head call of the queue.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_int.h"
#include "core/loop.h"
#include "lib/util.h"
#include "net/sock.h"

#define CONN_KEEP_RETAIN 4096	/* line buffer kept between replies */
#define CONN_DISCARD_MAX (1U << 30)	/* most bytes dropped by one call */
#define CONN_LOWAT_MAX	(1 << 20)	/* most bytes a wake-up waits for */

/* What the parser callbacks need to know. */
struct conn_parse_ctx {
	struct conn	*conn;
	struct call	*call;
	uint64_t	 now;
};

static void
conn_parse_status(void *ctx, int status, int interim)
{
	struct conn_parse_ctx *pc = ctx;
	union bus_arg arg;

	/* Each reply head, interim or final, has its own time. */
	pc->conn->head_since = pc->now;
	if (pc->call->t_recv_start != 0)
		return;
	pc->call->t_recv_start = pc->now;
	arg.i = status;
	bus_signal(pc->conn->core->bus, BUS_CALL_RECV_START, pc->call, arg,
	    pc->now);
}

static void
conn_parse_line(void *ctx, const char *line, size_t len, int section)
{
	struct conn_parse_ctx *pc = ctx;
	enum bus_event ev = section == HTTP_RESP_LINE_TRAILER ?
	    BUS_CALL_RECV_FOOTER : BUS_CALL_RECV_HDR;
	union bus_arg arg;

	if (pc->call->keep_head && section == HTTP_RESP_LINE_HEAD)
		call_keep_hdr(pc->call, line, len, NULL, 0);
	if (!bus_wanted(pc->conn->core->bus, ev))
		return;
	arg.buf.p = line;
	arg.buf.len = len;
	bus_signal(pc->conn->core->bus, ev, pc->call, arg, pc->now);
}

static void
conn_parse_body(void *ctx, const char *data, size_t len)
{
	struct conn_parse_ctx *pc = ctx;
	union bus_arg arg;

	if (pc->call->keep_body)
		call_keep_body(pc->call, data, len);
	if (!bus_wanted(pc->conn->core->bus, BUS_CALL_RECV_DATA))
		return;
	arg.buf.p = data;
	arg.buf.len = len;
	bus_signal(pc->conn->core->bus, BUS_CALL_RECV_DATA, pc->call, arg,
	    pc->now);
}

static const struct http_resp_cb conn_parse_cb = {
	.status = conn_parse_status,
	.body = conn_parse_body,
	.line = conn_parse_line,
};

/*
 * After a reply that ends the connection (Connection: close, HTTP/1.0,
 * close-delimited): close it.  Calls already sent will never be answered,
 * which the server did to them: that is a reset, unless the owner sends
 * them again (c->resend): the server announced it would process none of
 * them (RFC 9112 9.6), so they go back unprocessed, and count only if
 * they are never answered (call->unprocessed).
 */
static void
conn_end_draining(struct conn *c, uint64_t now)
{
	struct call *call;
	int sent = 0;

	for (call = c->head; call != NULL; call = call->next) {
		if (call->req_sent == 0)
			continue;
		sent = 1;
		if (c->resend)
			call->unprocessed = ECONNRESET;
	}
	if (sent && !c->resend)
		conn_fail(c, ECONNRESET, now);
	else
		conn_close(c, now);
}

/*
 * The server answered the head call before its request was completely
 * written (a 401 or 413 to a large body, an nginx `return').  Never reuse
 * the connection with a request half-sent: if the server keeps the
 * connection, the rest of the request is still written (the server reads
 * and discards it) before the next one; if the reply closes it, nothing
 * more is written and the call is cut short.  Takes the call off the
 * reply queue either way.
 */
static void
conn_reply_early(struct conn *c, struct call *call, int keep_alive)
{
	core_debug(c->core, 1, "conn %llu: call %llu: reply after %zu of "
	    "%zu request bytes%s", (unsigned long long)c->id,
	    (unsigned long long)call->id, call->req_sent, call->req_len,
	    keep_alive ? "" : "; the rest is not sent");
	call->early = 1;
	if (!keep_alive) {
		call->cut = 1;
		conn_pop(c);
		c->unsent = NULL;
		return;
	}
	/* Off the reply queue, still first to write: a reference of its
	   own until conn_advance() or conn_drop_calls() drops it. */
	call_ref(call);
	c->head = call->next;
	if (c->head == NULL)
		c->tail = NULL;
}

/* The head call's reply is complete. */
static void
conn_reply_done(struct conn *c, uint64_t now)
{
	struct call *call = c->head;
	const struct http_resp *r = &c->resp;

	if (c->unsent == call)
		conn_reply_early(c, call, r->keep_alive);
	else
		conn_pop(c);
	c->resp_active = 0;
	call->status = r->status;
	call->hdr_bytes = r->header_bytes;
	call->body_bytes = r->body_bytes;
	call->footer_bytes = r->footer_bytes;
	call->reply_bytes = r->total_bytes;
	if (!r->keep_alive)
		c->draining = 1;
	core_debug(c->core, 3, "conn %llu: call %llu: status %d, %llu bytes",
	    (unsigned long long)c->id, (unsigned long long)call->id,
	    call->status, (unsigned long long)call->reply_bytes);
	conn_reply_complete(c, call, now);
	if (c->state == CONN_CLOSED)
		return;
	if (c->draining)
		conn_end_draining(c, now);
}

/*
 * Feeds reply bytes to the parser, completing as many replies as they
 * hold.  Returns the number of bytes left over (the start of a line cut
 * by the read), or -1 if the connection was closed.
 */
static ssize_t
conn_parse(struct conn *c, const char *data, size_t len, uint64_t now)
{
	struct conn_parse_ctx pc;
	enum http_resp_result r;
	size_t used;

	while (len > 0) {
		if (c->state != CONN_CONNECTED)
			return -1;
		if (c->head == NULL) {
			core_debug(c->core, 1, "conn %llu: %zu bytes with no "
			    "request outstanding", (unsigned long long)c->id,
			    len);
			conn_fail(c, EPROTO, now);
			return -1;
		}
		if (!c->resp_active) {
			http_resp_reset(&c->resp, c->head->head_method);
			c->resp.max_line = c->core->cfg.max_line;
			c->resp.max_head = c->core->cfg.max_head;
			c->resp.max_interim = CONN_MAX_INTERIM;
			c->resp_active = 1;
		}
		pc.conn = c;
		pc.call = c->head;
		pc.now = now;
		r = http_resp_parse(&c->resp, data, len, &used, &conn_parse_cb,
		    &pc);
		data += used;
		len -= used;
		if (c->state != CONN_CONNECTED)
			return -1;
		if (r == HTTP_RESP_MORE)
			return (ssize_t)len;
		if (r == HTTP_RESP_ERROR) {
			core_debug(c->core, 1, "conn %llu: bad reply: %s",
			    (unsigned long long)c->id,
			    http_resp_strerror(c->resp.error));
			conn_fail(c, EPROTO, now);
			return -1;
		}
		conn_reply_done(c, now);
	}
	return 0;
}

/* Keeps the `left' bytes at the end of data for the next read. */
static void
conn_keep(struct conn *c, const char *data, size_t left)
{
	if (left == 0) {
		c->keep_len = 0;
		/* A long line's memory goes back once it is parsed. */
		if (c->keep_cap > CONN_KEEP_RETAIN) {
			free(c->keep);
			c->keep = NULL;
			c->keep_cap = 0;
		}
		return;
	}
	if (data == c->keep) {
		memmove(c->keep, c->keep + c->keep_len - left, left);
	} else {
		if (left > c->keep_cap) {
			c->keep_cap = left < 256 ? 256 : left;
			c->keep = xrealloc(c->keep, c->keep_cap);
		}
		memcpy(c->keep, data, left);
	}
	c->keep_len = left;
}

/* HTTP/1.1: the server closed its side. */
void
conn_http1_eof(struct conn *c, uint64_t now)
{
	if (c->head == NULL) {
		core_debug(c->core, 2, "conn %llu: closed by the server",
		    (unsigned long long)c->id);
		conn_close(c, now);
		return;
	}
	if (c->resp_active && c->keep_len == 0 &&
	    http_resp_eof(&c->resp) == HTTP_RESP_DONE) {
		conn_reply_done(c, now);
		if (c->state != CONN_CLOSED)
			conn_end_draining(c, now);
		return;
	}
	/* A reply cut short, or none at all for a request sent. */
	core_debug(c->core, 1, "conn %llu: closed by the server with a reply "
	    "outstanding", (unsigned long long)c->id);
	conn_fail(c, ECONNRESET, now);
}

/*
 * HTTP/1.1: parses `n' reply bytes just read, after the bytes of a line
 * cut by the previous read.  Returns -1 if the connection was closed.
 */
int
conn_http1_input(struct conn *c, const char *rbuf, size_t n, uint64_t now)
{
	const char *data;
	size_t len;
	ssize_t left;

	c->last_progress = now;
	if (c->keep_len > 0) {
		/* Complete the line that the previous read cut. */
		if (c->keep_len + n > c->keep_cap) {
			while (c->keep_len + n > c->keep_cap)
				c->keep_cap *= 2;
			c->keep = xrealloc(c->keep, c->keep_cap);
		}
		memcpy(c->keep + c->keep_len, rbuf, n);
		c->keep_len += n;
		data = c->keep;
		len = c->keep_len;
	} else {
		data = rbuf;
		len = n;
	}
	left = conn_parse(c, data, len, now);
	if (left < 0)
		return -1;
	conn_head_clock(c, now);
	conn_keep(c, data == c->keep ? c->keep : data + (len - (size_t)left),
	    (size_t)left);
	return 0;
}

/*
 * `n' bytes were just read into the shared buffer: counted, and fed to
 * the connection's engine.  Returns -1 if the connection was closed.
 */
static int
conn_consume(struct conn *c, size_t n, uint64_t now)
{
	union bus_arg arg;

	arg.i = (long)n;
	bus_signal(c->core->bus, BUS_CONN_BYTES_IN, c, arg, now);
	/* The engine says what is progress: for HTTP/1.1 every byte, for
	   HTTP/2 only its streams' own (conn_h2.c). */
	return c->proto->input(c, c->core->rbuf, n, now);
}

/*
 * How many of the next bytes may be dropped unread: those of a reply
 * body that nobody looks at (no --print-reply=body), over a transport
 * that can (plain TCP on Linux), when at least a buffer's worth of it is
 * still to come: a smaller body comes with its head in one read anyway,
 * and a pipelined reply's head is never dropped, since only the current
 * body's bytes are.  0: read them.
 */
static size_t
conn_discardable(const struct conn *c)
{
	uint64_t n;

	if (!c->resp_active || c->keep_len > 0 || c->xp.ops->discard == NULL ||
	    bus_wanted(c->core->bus, BUS_CALL_RECV_DATA) ||
	    (c->head != NULL && c->head->keep_body))
		return 0;
	n = http_resp_skippable(&c->resp);
	if (n < c->core->rbuf_size)
		return 0;
	return n > CONN_DISCARD_MAX ? CONN_DISCARD_MAX : (size_t)n;
}

/*
 * `n' body bytes were dropped unread: counted as read and parsed.
 * Returns -1 if the connection was closed (its reply done).
 */
static int
conn_skip(struct conn *c, size_t n, uint64_t now)
{
	union bus_arg arg;

	core_debug(c->core, 3, "conn %llu: %zu body bytes dropped unread",
	    (unsigned long long)c->id, n);
	arg.i = (long)n;
	bus_signal(c->core->bus, BUS_CONN_BYTES_IN, c, arg, now);
	c->last_progress = now;
	if (http_resp_skip(&c->resp, n) == HTTP_RESP_DONE)
		conn_reply_done(c, now);
	return c->state == CONN_CONNECTED ? 0 : -1;
}

/*
 * While a body is dropped unread, the socket's receive low-water mark
 * (SO_RCVLOWAT) holds its readiness back until CONN_LOWAT_MAX bytes of
 * the body, or all the rest of it, are there: the client wakes once a
 * megabyte instead of once every segment or two.  Waking a sleeping
 * reader is work for the sender as well (on loopback a fifth of nginx's
 * time went to it), and the server's time is what bounds a large
 * download: about 7,000 wake-ups per 8 GB instead of 30,000-55,000, and
 * half the client's CPU per GB or less (bench/large.sh).
 * Never more than the rest of the body, so its last byte still wakes the
 * client at once and the reply ends when it did; back to 1 when no body
 * is being dropped.  The kernel caps the mark at half the receive buffer
 * and wakes the reader anyway when its buffer or window runs short; a
 * refusal (no SO_RCVLOWAT) only means a wake-up per segment, as before.
 * Bytes held back at a timeout are read first (conn_http1_expire()).
 */
static void
conn_lowat(struct conn *c)
{
	/* Not for a body that ends at the close: its rest is unknown, and
	   the bytes before the close must be read as they come (a peer may
	   wait for them to be read before it closes: fuzz_conn hung so). */
	size_t n = http_resp_skippable(&c->resp) == UINT64_MAX ? 0 :
	    conn_discardable(c);
	int want = n == 0 ? 1 : n > CONN_LOWAT_MAX ? CONN_LOWAT_MAX : (int)n;

	if (want == (c->lowat == 0 ? 1 : c->lowat))
		return;
	(void)sock_rcvlowat(c->xp.fd, want);
	c->lowat = want;
}

/*
 * HTTP/1.1's watchdog came: bytes that the low-water mark held back are
 * progress too, so they are read before the connection times out (a
 * server sending a large body slowly is no stalled one).  Returns 1 if it
 * times out, 0 if it goes on.
 */
int
conn_http1_expire(struct conn *c, uint64_t now)
{
	uint64_t before = c->last_progress;

	if (c->lowat <= 1)
		return 1;
	conn_read(c, now);
	return c->state == CONN_CONNECTED && c->last_progress == before;
}

/*
 * Reads what the transport has and parses it: one read, or with TLS as
 * many as it takes to empty what the library already holds (the socket's
 * readiness does not show it).
 */
void
conn_read(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	struct transport *xp = &c->xp;
	enum transport_io io;
	size_t n, want;

	for (;;) {
		if ((want = conn_discardable(c)) > 0) {
			n = xp->ops->discard(xp, want, &io);
			if (io != TRANSPORT_OK)
				break;
			if (conn_skip(c, n, loop_clock(core->loop)) == -1)
				return;
			/* All of it: what follows (chunk framing, the next
			   reply) may be there already. */
			if (n == want)
				continue;
			break;
		}
		n = xp->ops->read(xp, core->rbuf, core->rbuf_size, &io);
		if (io != TRANSPORT_OK)
			break;
		now = loop_clock(core->loop);
		if (conn_consume(c, n, now) == -1 ||
		    c->state != CONN_CONNECTED)
			return;
		if (xp->ops->pending == NULL || xp->ops->pending(xp) == 0)
			break;
	}
	switch (io) {
	case TRANSPORT_OK:
	case TRANSPORT_WANT_READ:
		break;
	case TRANSPORT_WANT_WRITE:
		conn_set_mask(c, LOOP_READ | LOOP_WRITE);
		break;
	case TRANSPORT_EOF:
		c->proto->eof(c, loop_clock(core->loop));
		return;
	case TRANSPORT_ERROR:
		conn_xp_error(c, now);
		return;
	}
	/* A write that waited for the transport to read goes on (TLS). */
	if (c->unsent != NULL && !(c->mask & LOOP_WRITE))
		conn_flush(c, now);
	if (c->state == CONN_CONNECTED) {
		conn_lowat(c);
		conn_watch(c);
	}
}
