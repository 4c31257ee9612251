/*
 * The connection state machine (see conn.h).
 *
 * States: NEW -> CONNECTING -> CONNECTED -> CLOSED.  While connected the
 * socket is always watched for reading, so a reset or a close by the
 * server is noticed even on an idle connection; writing is watched only
 * while a write would block.  Requests are written as soon as they are
 * queued, back to back (pipelined) in one writev(2) where possible.
 * Replies are read into one buffer shared by all connections; only the
 * bytes of a line cut by the end of a read are kept per connection.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/loop.h"
#include "core/sess.h"
#include "util.h"

#define CORE_RBUF_SIZE	(64 * 1024)
#define CONN_WRITE_IOV	64	/* iovecs gathered per writev */
#define CONN_TLS_WRITE	(16 * 1024)	/* plaintext per TLS write: a record */
#define CONN_MAX_INTERIM 100	/* 1xx replies accepted before one reply */
#define CONN_KEEP_RETAIN 4096	/* line buffer kept between replies */

/* What the parser callbacks need to know. */
struct conn_parse_ctx {
	struct conn	*conn;
	struct call	*call;
	uint64_t	 now;
};

static void	conn_io(struct loop *, int, int, void *, uint64_t);
static void	conn_timer_fired(struct timer *, uint64_t);
static void	conn_fail(struct conn *, int, uint64_t);
static void	conn_tls_fail(struct conn *, int, const char *, uint64_t);

static const union bus_arg conn_noarg = { .i = 0 };

void
core_init(struct core *core, struct loop *loop, struct bus *bus,
    const struct core_config *cfg)
{
	memset(core, 0, sizeof(*core));
	core->loop = loop;
	core->bus = bus;
	core->cfg = *cfg;
	core->tmpl_head = cfg->req != NULL && cfg->req->method_len == 4 &&
	    memcmp(cfg->req->method, "HEAD", 4) == 0;
	core->rbuf_size = CORE_RBUF_SIZE;
	core->rbuf = xmalloc(core->rbuf_size);
	core->burst_turn = UINT64_MAX;
	core->hog = xcalloc(cfg->nsrc > 0 ? cfg->nsrc : 1, sizeof(*core->hog));
	if (cfg->tls != NULL) {
		core->wbuf_size = CONN_TLS_WRITE;
		core->wbuf = xmalloc(core->wbuf_size);
	}
}

void
core_fini(struct core *core)
{
	struct conn *c;

	while ((c = core->free_conns) != NULL) {
		core->free_conns = c->next_free;
		free(c);
	}
	call_free_all(core);
	sess_free_all(core);
	free(core->rbuf);
	core->rbuf = NULL;
	free(core->hog);
	core->hog = NULL;
	free(core->wbuf);
	core->wbuf = NULL;
	tls_slot_clear(&core->tls_slot);
}

void
core_close_all(struct core *core, uint64_t now)
{
	struct conn *c, *next;

	for (c = core->live; c != NULL; c = next) {
		next = c->live_next;
		conn_close(c, now);
	}
}

uint64_t
core_max_burst(const struct core *core)
{
	return core->burst_max > core->burst_cur ? core->burst_max :
	    core->burst_cur;
}

void
core_debug(const struct core *core, int level, const char *fmt, ...)
{
	va_list ap;

	if (core->cfg.debug < level)
		return;
	fprintf(stderr, "%s: ", core->cfg.prog ? core->cfg.prog : "httperf");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

struct conn *
conn_new(struct core *core, uint64_t now)
{
	struct conn *c;

	if ((c = core->free_conns) != NULL)
		core->free_conns = c->next_free;
	else
		c = xmalloc(sizeof(*c));
	memset(c, 0, sizeof(*c));
	c->core = core;
	c->id = core->next_conn_id++;
	c->refs = 1;
	c->fd = -1;
	c->state = CONN_NEW;
	timer_init(&c->timer, conn_timer_fired);
	if (core->cfg.tls != NULL && core->cfg.tls_reuse)
		c->tls_slot = &core->tls_slot;
	core->open_conns++;
	c->live_prev = NULL;
	c->live_next = core->live;
	if (core->live != NULL)
		core->live->live_prev = c;
	core->live = c;
	bus_signal(core->bus, BUS_CONN_NEW, c, conn_noarg, now);
	return c;
}

void
conn_ref(struct conn *c)
{
	c->refs++;
}

void
conn_unref(struct conn *c, uint64_t now)
{
	struct core *core = c->core;

	if (--c->refs > 0)
		return;
	core->open_conns--;
	if (c->live_prev != NULL)
		c->live_prev->live_next = c->live_next;
	else
		core->live = c->live_next;
	if (c->live_next != NULL)
		c->live_next->live_prev = c->live_prev;
	bus_signal(core->bus, BUS_CONN_DESTROYED, c, conn_noarg, now);
	free(c->keep);
	c->keep = NULL;
	c->next_free = core->free_conns;
	core->free_conns = c;
}

size_t
conn_pending(const struct conn *c)
{
	const struct call *call;
	size_t n = 0;

	for (call = c->head; call != NULL; call = call->next)
		n++;
	return n;
}

/* Changes the loop interest of the socket. */
static void
conn_set_mask(struct conn *c, int mask)
{
	if (c->mask == mask || c->fd < 0)
		return;
	c->mask = mask;
	if (loop_mask(c->core->loop, c->fd, mask) == -1)
		core_debug(c->core, 1, "conn %llu: loop_mask: %s",
		    (unsigned long long)c->id, strerror(errno));
}

/* Returns non-zero while the connection has something to wait for. */
static int
conn_busy(const struct conn *c)
{
	return c->state == CONN_CONNECTING || c->state == CONN_HANDSHAKE ||
	    (c->state == CONN_CONNECTED &&
	    (c->head != NULL || c->unsent != NULL));
}

/*
 * Returns how long the connection may go without progress right now:
 * --timeout, plus --think-timeout while the head request is completely
 * sent and not a byte of its reply has come.  0 means no limit.
 */
static uint64_t
conn_limit(const struct conn *c)
{
	const struct core_config *cfg = &c->core->cfg;
	uint64_t limit = cfg->timeout;

	if (c->state == CONN_CONNECTED && c->head != NULL &&
	    c->unsent != c->head && (c->unsent == NULL || !c->unsent->early) &&
	    !c->resp_active && c->keep_len == 0)
		limit += cfg->think_timeout;
	return limit;
}

/*
 * Returns when the connection times out, or 0 for never: `limit' after
 * the last progress, and --timeout after a reply head (or trailer
 * section) started, however steadily its bytes come: a server dripping
 * header lines forever must not hold a call forever.
 */
static uint64_t
conn_deadline(const struct conn *c)
{
	uint64_t limit, deadline, head;

	if ((limit = conn_limit(c)) == 0)
		return 0;
	deadline = c->last_progress + limit;
	if (c->head_since != 0) {
		head = c->head_since + c->core->cfg.timeout;
		if (head < deadline)
			deadline = head;
	}
	return deadline;
}

/*
 * Arms the watchdog if the connection is busy and has a limit.  The timer
 * is not moved on every byte: when it fires early it re-arms itself at
 * the deadline of the moment.
 */
static void
conn_watch(struct conn *c)
{
	uint64_t deadline;

	if (timer_is_armed(&c->timer) || !conn_busy(c))
		return;
	if ((deadline = conn_deadline(c)) == 0)
		return;
	timer_add(loop_timers(c->core->loop), &c->timer, deadline);
}

/*
 * After parsing: starts the head clock when a reply head or trailer
 * section is under way, stops it otherwise.  The watchdog is moved
 * forward if it was armed for later than the new deadline.
 */
static void
conn_head_clock(struct conn *c, uint64_t now)
{
	uint64_t deadline;

	if (!c->resp_active || !http_resp_in_head(&c->resp)) {
		c->head_since = 0;
		return;
	}
	if (c->head_since != 0)
		return;
	c->head_since = now;
	if (timer_is_armed(&c->timer) &&
	    (deadline = conn_deadline(c)) != 0 &&
	    deadline < timer_expire(&c->timer))
		timer_add(loop_timers(c->core->loop), &c->timer, deadline);
}

static void
conn_timer_fired(struct timer *t, uint64_t now)
{
	struct conn *c = containerof(t, struct conn, timer);
	uint64_t deadline;

	if (c->state == CONN_CLOSED || !conn_busy(c))
		return;
	if ((deadline = conn_deadline(c)) == 0)
		return;
	if (deadline > now) {
		timer_add(loop_timers(c->core->loop), &c->timer, deadline);
		return;
	}
	core_debug(c->core, 1, "conn %llu: timed out",
	    (unsigned long long)c->id);
	conn_ref(c);
	bus_signal(c->core->bus, BUS_CONN_TIMEOUT, c, conn_noarg, now);
	conn_close(c, now);
	conn_unref(c, now);
}

/*
 * Picks the source of a new connection: the next --myaddr address
 * (round-robin) and, with --hog, an explicit port.  Returns 0 or -1.
 */
static int
conn_bind(struct conn *c)
{
	struct core *core = c->core;
	const struct core_config *cfg = &core->cfg;
	const struct sockaddr_storage *src = NULL;
	size_t i = 0;

	if (cfg->nsrc > 0) {
		i = core->next_src++ % cfg->nsrc;
		src = &cfg->src[i];
	}
	if (cfg->hog)
		return sock_hog_bind(c->fd, cfg->addr.ss_family, src,
		    &core->hog[i]);
	if (src != NULL)
		return sock_bind_src(c->fd, src);
	return 0;
}

void
conn_connect(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	const struct core_config *cfg = &core->cfg;
	uint64_t turn;
	int err;

	if (c->state != CONN_NEW)
		return;
	conn_ref(c);
	c->fd = sock_open(cfg->addr.ss_family, &cfg->sock);
	if (c->fd == -1) {
		conn_fail(c, errno, now);
		goto out;
	}
	if (conn_bind(c) == -1) {
		conn_fail(c, errno, now);
		goto out;
	}
	if (loop_set(core->loop, c->fd, 0, conn_io, c) == -1) {
		conn_fail(c, errno, now);
		goto out;
	}

	/* Connects started in the same loop turn make one burst. */
	turn = loop_turns(core->loop);
	if (turn != core->burst_turn) {
		if (core->burst_cur > core->burst_max)
			core->burst_max = core->burst_cur;
		core->burst_cur = 0;
		core->burst_turn = turn;
	}
	core->burst_cur++;

	c->state = CONN_CONNECTING;
	now = loop_clock(core->loop);
	c->t_connect_start = now;
	c->last_progress = now;
	bus_signal(core->bus, BUS_CONN_CONNECTING, c, conn_noarg, now);
	if (c->state != CONN_CONNECTING)
		goto out;

	err = sock_connect(c->fd, (const struct sockaddr *)&cfg->addr,
	    cfg->addrlen);
	if (err == EINPROGRESS) {
		conn_set_mask(c, LOOP_WRITE);
		conn_watch(c);
	} else if (err != 0) {
		conn_fail(c, err, now);
	} else {
		/* Connected at once: treat it as a completed connect. */
		conn_io(core->loop, c->fd, LOOP_WRITE, c, now);
	}
out:
	conn_unref(c, now);
}

/* Builds the request iovecs of a call about to be queued. */
static int
conn_prepare_call(struct conn *c, struct call *call)
{
	const struct core *core = c->core;
	size_t i;

	call->iovcnt = http_req_iov(core->cfg.req, call->method,
	    call->method_len, call->uri, call->uri_len, call->hdrs,
	    call->nhdrs, call->body, call->body_len, call->iov,
	    CALL_MAX_IOV);
	if (call->iovcnt == 0)
		return -1;
	call->req_len = 0;
	for (i = 0; i < call->iovcnt; i++)
		call->req_len += call->iov[i].iov_len;
	call->iov_idx = 0;
	call->req_sent = 0;
	if (call->method != NULL)
		call->head_method = call->method_len == 4 &&
		    memcmp(call->method, "HEAD", 4) == 0;
	else
		call->head_method = core->tmpl_head;
	return 0;
}

/* Marks `call' as the one being written now. */
static void
conn_send_start(struct conn *c, struct call *call, uint64_t now)
{
	now = loop_clock(c->core->loop);
	call->t_send_start = now;
	bus_signal(c->core->bus, BUS_CALL_SEND_START, call, conn_noarg, now);
}

static void	conn_flush(struct conn *, uint64_t);

int
conn_send(struct conn *c, struct call *call, uint64_t now)
{
	struct core *core = c->core;

	if (c->state == CONN_CLOSED || c->draining || call->abandon)
		return -1;
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
	if (c->unsent != NULL && c->unsent->early)
		c->unsent->next = c->head;
	bus_signal(core->bus, BUS_CALL_ISSUE, call, conn_noarg, now);
	if (c->state == CONN_CLOSED)
		return 0;
	if (c->unsent == NULL) {
		c->unsent = call;
		if (c->state == CONN_CONNECTED)
			conn_send_start(c, call, now);
	}
	if (c->state == CONN_CONNECTED) {
		if (!(c->mask & LOOP_WRITE)) {
			conn_ref(c);
			conn_flush(c, now);
			conn_unref(c, now);
		}
		if (c->state == CONN_CONNECTED)
			conn_watch(c);
	}
	return 0;
}

/* Removes the head call from the queue. */
static struct call *
conn_pop(struct conn *c)
{
	struct call *call = c->head;

	c->head = call->next;
	if (c->head == NULL)
		c->tail = NULL;
	if (c->unsent == call)
		c->unsent = call->next;
	call->next = NULL;
	return call;
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

	core->bytes_out += (uint64_t)n;
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
 * TLS: copies up to one record of unsent request bytes into the shared
 * write buffer (always starting at the first unsent byte, so a retry
 * after WANT_WRITE offers the same bytes again) and writes them.
 * Returns 1 to go on, 0 to wait for the socket, -1 if closed.
 */
static int
conn_flush_tls(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	struct call *call;
	enum tls_io io;
	size_t len = 0, i, k, n;

	for (call = c->unsent; call != NULL && len < core->wbuf_size;
	    call = call->next)
		for (i = call->iov_idx; i < call->iovcnt &&
		    len < core->wbuf_size; i++) {
			k = call->iov[i].iov_len;
			if (k > core->wbuf_size - len)
				k = core->wbuf_size - len;
			memcpy(core->wbuf + len, call->iov[i].iov_base, k);
			len += k;
		}
	n = tls_write(c->tls, core->wbuf, len, &io);
	switch (io) {
	case TLS_IO_OK:
		now = loop_clock(core->loop);
		return conn_advance(c, n, now) == -1 ? -1 : 1;
	case TLS_IO_WANT_WRITE:
		conn_set_mask(c, LOOP_READ | LOOP_WRITE);
		return 0;
	case TLS_IO_WANT_READ:
		/* The library must read first (a key update): the next read
		   event flushes again. */
		conn_set_mask(c, LOOP_READ);
		return 0;
	case TLS_IO_EOF:
		conn_fail(c, EPIPE, now);
		return -1;
	case TLS_IO_ERROR:
		conn_tls_fail(c, tls_conn_error(c->tls),
		    tls_conn_strerror(c->tls), now);
		return -1;
	}
	return -1;
}

/*
 * Writes as much of the unsent requests as the socket takes, in one
 * writev per CONN_WRITE_IOV iovecs (through TLS with --ssl).  Watches for
 * writability only when the kernel refuses more.
 */
static void
conn_flush(struct conn *c, uint64_t now)
{
	struct iovec iov[CONN_WRITE_IOV];
	struct call *call;
	size_t n, i, want;
	ssize_t w;
	int rc;

	while (c->state == CONN_CONNECTED && c->unsent != NULL) {
		if (c->tls != NULL) {
			if ((rc = conn_flush_tls(c, now)) <= 0)
				return;
			continue;
		}
		n = 0;
		want = 0;
		for (call = c->unsent; call != NULL && n < CONN_WRITE_IOV;
		    call = call->next)
			for (i = call->iov_idx; i < call->iovcnt &&
			    n < CONN_WRITE_IOV; i++) {
				want += call->iov[i].iov_len;
				iov[n++] = call->iov[i];
			}
		w = writev(c->fd, iov, (int)n);
		if (w == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				conn_set_mask(c, LOOP_READ | LOOP_WRITE);
				return;
			}
			conn_fail(c, errno, now);
			return;
		}
		now = loop_clock(c->core->loop);
		if (conn_advance(c, (size_t)w, now) == -1)
			return;
		if ((size_t)w < want) {
			/* A short write: the socket buffer is full. */
			conn_set_mask(c, LOOP_READ | LOOP_WRITE);
			return;
		}
	}
	if (c->state == CONN_CONNECTED)
		conn_set_mask(c, LOOP_READ);
}

/* Drops every queued call; `sent_err' is set if one was (partly) sent. */
static void
conn_drop_calls(struct conn *c, uint64_t now, int *sent_err)
{
	struct call *call;

	if ((call = c->unsent) != NULL && call->early) {
		/* Replied to, its last bytes never written. */
		c->unsent = NULL;
		call->next = NULL;
		call_unref(call, now);
	}
	while (c->head != NULL) {
		call = conn_pop(c);
		if (call->req_sent > 0 && sent_err != NULL)
			*sent_err = 1;
		call_unref(call, now);
	}
	c->unsent = NULL;
}

void
conn_close(struct conn *c, uint64_t now)
{
	struct core *core = c->core;

	if (c->state == CONN_CLOSED)
		return;
	c->state = CONN_CLOSED;
	timer_cancel(&c->timer);
	conn_ref(c);
	conn_drop_calls(c, now, NULL);
	bus_signal(core->bus, BUS_CONN_CLOSED, c, conn_noarg, now);
	if (c->tls != NULL) {
		tls_conn_free(c->tls);
		c->tls = NULL;
	}
	if (c->fd >= 0) {
		loop_del(core->loop, c->fd);
		close(c->fd);
		c->fd = -1;
	}
	c->mask = 0;
	c->keep_len = 0;
	conn_unref(c, now);		/* ours */
	conn_unref(c, now);		/* the creator's */
}

/* Reports a failure (an errno-style cause) and closes the connection. */
static void
conn_fail(struct conn *c, int err, uint64_t now)
{
	union bus_arg arg;

	if (c->state == CONN_CLOSED)
		return;
	core_debug(c->core, 1, "conn %llu: failed: %s",
	    (unsigned long long)c->id, strerror(err));
	conn_ref(c);
	arg.i = err;
	bus_signal(c->core->bus, BUS_CONN_FAILED, c, arg, now);
	conn_close(c, now);
	conn_unref(c, now);
}

/* The connection is ready for requests (after TCP, and TLS if any). */
static void
conn_established(struct conn *c, uint64_t now)
{
	c->state = CONN_CONNECTED;
	c->t_connected = now;
	c->last_progress = now;
	conn_set_mask(c, LOOP_READ);
	if (c->sess != NULL)
		c->sess->nconns++;
	core_debug(c->core, 2, "conn %llu: connected%s",
	    (unsigned long long)c->id, c->tls == NULL ? "" :
	    c->tls_resumed ? " (TLS, resumed)" : " (TLS)");
	bus_signal(c->core->bus, BUS_CONN_CONNECTED, c, conn_noarg, now);
	if (c->state != CONN_CONNECTED)
		return;
	/* Calls queued while connecting go out now. */
	if (c->unsent != NULL) {
		if (c->unsent->t_send_start == 0)
			conn_send_start(c, c->unsent, now);
		if (c->state == CONN_CONNECTED)
			conn_flush(c, now);
	}
	if (c->state == CONN_CONNECTED)
		conn_watch(c);
}

/* A TLS failure: counted as the cause `err', flagged as a TLS failure. */
static void
conn_tls_fail(struct conn *c, int err, const char *what, uint64_t now)
{
	c->tls_failed = c->state == CONN_HANDSHAKE;
	core_debug(c->core, 1, "conn %llu: TLS: %s",
	    (unsigned long long)c->id, what);
	conn_fail(c, err, now);
}

/* Moves the TLS handshake on as far as the socket allows. */
static void
conn_tls_step(struct conn *c, uint64_t now)
{
	switch (tls_handshake(c->tls)) {
	case TLS_IO_OK:
		c->tls_resumed = tls_resumed(c->tls);
		conn_established(c, loop_clock(c->core->loop));
		break;
	case TLS_IO_WANT_READ:
		conn_set_mask(c, LOOP_READ);
		break;
	case TLS_IO_WANT_WRITE:
		conn_set_mask(c, LOOP_WRITE);
		break;
	case TLS_IO_EOF:
		conn_tls_fail(c, ECONNRESET, "the server closed the "
		    "connection during the handshake", now);
		break;
	case TLS_IO_ERROR:
		conn_tls_fail(c, tls_conn_error(c->tls),
		    tls_conn_strerror(c->tls), now);
		break;
	}
}

/* The TCP connect finished (successfully or not). */
static void
conn_connected(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	int err;

	now = loop_clock(core->loop);
	if ((err = sock_error(c->fd)) != 0) {
		conn_fail(c, err, now);
		return;
	}
	c->t_tcp_connected = now;
	if (core->cfg.tls == NULL) {
		conn_established(c, now);
		return;
	}
	c->last_progress = now;
	if ((c->tls = tls_conn_new(core->cfg.tls, c->fd, c->tls_slot)) ==
	    NULL) {
		conn_fail(c, errno ? errno : ENOMEM, now);
		return;
	}
	c->state = CONN_HANDSHAKE;
	conn_tls_step(c, now);
}

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
 * which the server did to them: that is a reset.
 */
static void
conn_end_draining(struct conn *c, uint64_t now)
{
	struct call *call;
	int sent = 0;

	for (call = c->head; call != NULL; call = call->next)
		if (call->req_sent > 0)
			sent = 1;
	if (sent)
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
	call->replied = 1;
	call->status = r->status;
	call->hdr_bytes = r->header_bytes;
	call->body_bytes = r->body_bytes;
	call->footer_bytes = r->footer_bytes;
	call->reply_bytes = r->total_bytes;
	call->t_recv_stop = now;
	if (call->t_recv_start == 0)
		call->t_recv_start = now;
	c->nreplies++;
	if (call->sess != NULL)
		call->sess->nreplies++;
	if (!r->keep_alive)
		c->draining = 1;
	core_debug(c->core, 3, "conn %llu: call %llu: status %d, %llu bytes",
	    (unsigned long long)c->id, (unsigned long long)call->id,
	    call->status, (unsigned long long)call->reply_bytes);
	bus_signal(c->core->bus, BUS_CALL_RECV_STOP, call, conn_noarg, now);
	call_unref(call, now);
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

/* The server closed its side. */
static void
conn_eof(struct conn *c, uint64_t now)
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
 * Parses `n' reply bytes just read into the shared buffer, after the
 * bytes of a line cut by the previous read.  Returns -1 if the
 * connection was closed.
 */
static int
conn_consume(struct conn *c, size_t n, uint64_t now)
{
	struct core *core = c->core;
	const char *data;
	size_t len;
	ssize_t left;

	core->bytes_in += (uint64_t)n;
	c->last_progress = now;
	if (c->keep_len > 0) {
		/* Complete the line that the previous read cut. */
		if (c->keep_len + n > c->keep_cap) {
			while (c->keep_len + n > c->keep_cap)
				c->keep_cap *= 2;
			c->keep = xrealloc(c->keep, c->keep_cap);
		}
		memcpy(c->keep + c->keep_len, core->rbuf, n);
		c->keep_len += n;
		data = c->keep;
		len = c->keep_len;
	} else {
		data = core->rbuf;
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
 * TLS: reads and parses records until the library has nothing decrypted
 * left (the socket's readiness does not show what it already holds).
 */
static void
conn_read_tls(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	enum tls_io io;
	size_t n;

	do {
		n = tls_read(c->tls, core->rbuf, core->rbuf_size, &io);
		switch (io) {
		case TLS_IO_OK:
			now = loop_clock(core->loop);
			if (conn_consume(c, n, now) == -1)
				return;
			break;
		case TLS_IO_WANT_READ:
			return;
		case TLS_IO_WANT_WRITE:
			conn_set_mask(c, LOOP_READ | LOOP_WRITE);
			return;
		case TLS_IO_EOF:
			conn_eof(c, loop_clock(core->loop));
			return;
		case TLS_IO_ERROR:
			conn_tls_fail(c, tls_conn_error(c->tls),
			    tls_conn_strerror(c->tls), now);
			return;
		}
	} while (c->state == CONN_CONNECTED && tls_pending(c->tls) > 0);
}

/* Reads what the socket has and parses it. */
static void
conn_read(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	ssize_t n;

	if (c->tls != NULL) {
		conn_read_tls(c, now);
		/* A write that waited for the library to read goes on. */
		if (c->state == CONN_CONNECTED && c->unsent != NULL &&
		    !(c->mask & LOOP_WRITE))
			conn_flush(c, now);
	} else {
		for (;;) {
			n = read(c->fd, core->rbuf, core->rbuf_size);
			if (n >= 0)
				break;
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			conn_fail(c, errno, now);
			return;
		}
		now = loop_clock(core->loop);
		if (n == 0) {
			conn_eof(c, now);
			return;
		}
		if (conn_consume(c, (size_t)n, now) == -1)
			return;
	}
	if (c->state == CONN_CONNECTED)
		conn_watch(c);
}

/* Loop callback: readiness of the connection's socket. */
static void
conn_io(struct loop *l, int fd, int events, void *arg, uint64_t now)
{
	struct conn *c = arg;

	conn_ref(c);
	if (c->state == CONN_CONNECTING) {
		if (events & (LOOP_WRITE | LOOP_ERROR))
			conn_connected(c, now);
	} else if (c->state == CONN_HANDSHAKE) {
		conn_tls_step(c, now);
		if (c->state == CONN_HANDSHAKE)
			conn_watch(c);
	} else if (c->state == CONN_CONNECTED) {
		if (events & (LOOP_READ | LOOP_ERROR))
			conn_read(c, now);
		if (c->state == CONN_CONNECTED && (events & LOOP_WRITE))
			conn_flush(c, now);
		if (c->state == CONN_CONNECTED)
			conn_watch(c);
	}
	conn_unref(c, now);
}
