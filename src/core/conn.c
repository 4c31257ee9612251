/*
 * The connection state machine (see conn.h).
 *
 * States: NEW -> CONNECTING -> [TUNNEL ->] [HANDSHAKE ->] CONNECTED ->
 * CLOSED; TUNNEL is a CONNECT through an HTTP proxy before TLS.  While
 * connected the socket is always watched for reading, so a reset or a
 * close by the server is noticed even on an idle connection; writing is
 * watched only while a write would block.  This file connects, runs the
 * transport's handshake, keeps the inactivity watchdog, and closes;
 * conn_write.c writes the requests and conn_read.c reads the replies.
 */
#include "config.h"

#include <sys/socket.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_h2.h"
#include "core/conn_int.h"
#include "core/loop.h"
#include "lib/util.h"

static void	conn_io(struct loop *, int, int, void *, uint64_t);
static void	conn_timer_fired(struct timer *, uint64_t);

static const union bus_arg conn_noarg = { .i = 0 };

/* HTTP/1.1, every connection's engine until HTTP/2 starts on it. */
const struct conn_proto_ops conn_http1_ops = {
	.start = conn_http1_start,
	.send = conn_http1_send,
	.flush = conn_http1_flush,
	.input = conn_http1_input,
	.eof = conn_http1_eof,
	.expire = conn_http1_expire,
	.read_on_write_error = 1,
};

/* HTTP/2 (--http2), when libnghttp2 is built in; NULL: it is not. */
#ifdef HAVE_NGHTTP2
static const struct conn_proto_ops *const conn_h2_proto = &conn_h2_ops;
#else
static const struct conn_proto_ops *const conn_h2_proto = NULL;
#endif

struct conn *
conn_new(struct core *core, uint64_t now)
{
	struct conn *c;

	c = core_pool_get(&core->conns);
	memset(c, 0, sizeof(*c));
	c->core = core;
	c->id = core->next_conn_id++;
	c->refs = 1;
	c->xp.ops = core->xops;
	c->xp.ctx = core->xctx;
	c->xp.fd = -1;
	c->proto = &conn_http1_ops;
	c->state = CONN_NEW;
	timer_init(&c->timer, conn_timer_fired);
	if (core->cfg.tls != NULL && core->cfg.tls_reuse)
		c->tls_slot = &core->tls_slot;
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
	if (c->live_prev != NULL)
		c->live_prev->live_next = c->live_next;
	else
		core->live = c->live_next;
	if (c->live_next != NULL)
		c->live_next->live_prev = c->live_prev;
	bus_signal(core->bus, BUS_CONN_DESTROYED, c, conn_noarg, now);
	if (c->proto->free != NULL)
		c->proto->free(c);
	free(c->keep);
	c->keep = NULL;
	core_pool_put(&core->conns, c);
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
void
conn_set_mask(struct conn *c, int mask)
{
	if (c->mask == mask || c->xp.fd < 0)
		return;
	c->mask = mask;
	if (loop_mask(c->core->loop, c->xp.fd, mask) == -1)
		core_debug(c->core, 1, "conn %llu: loop_mask: %s",
		    (unsigned long long)c->id, strerror(errno));
}

/* Returns non-zero while the connection has something to wait for. */
static int
conn_busy(const struct conn *c)
{
	return c->state == CONN_CONNECTING || c->state == CONN_TUNNEL ||
	    c->state == CONN_HANDSHAKE ||
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

	/* HTTP/2: each stream in flight on its own clocks. */
	if (c->proto->deadline != NULL && c->state == CONN_CONNECTED)
		return c->proto->deadline(c);
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
void
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
void
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
	conn_ref(c);
	if (c->proto->expire != NULL && c->state == CONN_CONNECTED &&
	    c->proto->expire(c, now) == 0) {
		/* HTTP/2 streams timed out alone; the connection goes on. */
		if (c->state == CONN_CONNECTED)
			conn_watch(c);
		conn_unref(c, now);
		return;
	}
	if (c->state != CONN_CLOSED) {
		core_debug(c->core, 1, "conn %llu: timed out",
		    (unsigned long long)c->id);
		bus_signal(c->core->bus, BUS_CONN_TIMEOUT, c, conn_noarg,
		    now);
		conn_close(c, now);
	}
	conn_unref(c, now);
}

/*
 * Opens the socket of a new connection and picks its source: the next
 * --myaddr address (round-robin) and, with --hog, an explicit port.
 * Returns 0 or -1 (errno).
 */
static int
conn_open(struct conn *c)
{
	struct core *core = c->core;
	const struct core_config *cfg = &core->cfg;

	c->xp.fd = sock_open(cfg->addr.ss_family, &cfg->sock);
	if (c->xp.fd == -1)
		return -1;
	if (sock_bind_next(c->xp.fd, cfg->addr.ss_family, cfg->src, cfg->nsrc,
	    &core->next_src, cfg->hog ? core->hog : NULL) == -1)
		return -1;
	return loop_set(core->loop, c->xp.fd, 0, conn_io, c);
}

/*
 * Starts the connect.  Without --hog the port is picked by connect()
 * (IP_BIND_ADDRESS_NO_PORT): when the source address has none left
 * (EADDRNOTAVAIL), the next --myaddr address is tried on a new socket,
 * each at most once.  Returns 0 or the errno value of sock_connect().
 */
static int
conn_start(struct conn *c)
{
	struct core *core = c->core;
	const struct core_config *cfg = &core->cfg;
	size_t tries;
	int err;

	for (tries = 1;; tries++) {
		err = sock_connect(c->xp.fd,
		    (const struct sockaddr *)&cfg->addr, cfg->addrlen);
		if (err != EADDRNOTAVAIL || cfg->hog || tries >= cfg->nsrc)
			return err;
		/* No transport state yet: just the socket goes. */
		loop_del(core->loop, c->xp.fd);
		close(c->xp.fd);
		c->xp.fd = -1;
		if (conn_open(c) == -1)
			return errno;
	}
}

void
conn_connect(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	union bus_arg arg;
	int err;

	if (c->state != CONN_NEW)
		return;
	conn_ref(c);
	if (conn_open(c) == -1) {
		conn_fail(c, errno, now);
		goto out;
	}

	c->state = CONN_CONNECTING;
	now = loop_clock(core->loop);
	c->t_connect_start = now;
	c->last_progress = now;
	arg.i = (long)loop_turns(core->loop);
	bus_signal(core->bus, BUS_CONN_CONNECTING, c, arg, now);
	if (c->state != CONN_CONNECTING)
		goto out;

	err = conn_start(c);
	if (err == ENOENT && core->cfg.addr.ss_family == AF_UNIX) {
		/* --unix-socket: its file went away, nobody listens. */
		core_debug(core, 1, "conn %llu: connect: %s",
		    (unsigned long long)c->id, strerror(err));
		err = ECONNREFUSED;
	}
	if (err == EINPROGRESS) {
		conn_set_mask(c, LOOP_WRITE);
		conn_watch(c);
	} else if (err != 0) {
		conn_fail(c, err, now);
	} else {
		/* Connected at once: treat it as a completed connect. */
		conn_io(core->loop, c->xp.fd, LOOP_WRITE, c, now);
	}
out:
	conn_unref(c, now);
}

/* Removes the head call from the queue. */
struct call *
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
	if (c->proto->closing != NULL)
		c->proto->closing(c, now);
	conn_drop_calls(c, now, NULL);
	bus_signal(core->bus, BUS_CONN_CLOSED, c, conn_noarg, now);
	if (c->xp.fd >= 0)
		loop_del(core->loop, c->xp.fd);
	c->xp.ops->close(&c->xp);
	c->mask = 0;
	c->keep_len = 0;
	conn_unref(c, now);		/* ours */
	conn_unref(c, now);		/* the creator's */
}

/*
 * The call's reply is complete, its status and counts set: the one place
 * where a reply ends, on HTTP/1.1 (conn_read.c) and HTTP/2 (a stream,
 * conn_h2_stream.c).  Marks the call replied and the end of its reply,
 * counts it on the connection, signals BUS_CALL_RECV_STOP and drops the
 * connection's reference to the call.  May close.
 */
void
conn_reply_complete(struct conn *c, struct call *call, uint64_t now)
{
	call->replied = 1;
	call->t_recv_stop = now;
	if (call->t_recv_start == 0)
		call->t_recv_start = now;
	c->nreplies++;
	if (call->rspec != NULL && c->core->cfg.reply_fn != NULL)
		c->core->cfg.reply_fn(c->core->cfg.reply_arg, call, now);
	bus_signal(c->core->bus, BUS_CALL_RECV_STOP, call, conn_noarg, now);
	call_unref(call, now);
}

/* Reports a failure (an errno-style cause) and closes the connection. */
void
conn_fail(struct conn *c, int err, uint64_t now)
{
	union bus_arg arg;

	if (c->state == CONN_CLOSED)
		return;
	core_debug(c->core, 1, "conn %llu: failed: %s",
	    (unsigned long long)c->id, strerror(err));
	conn_ref(c);
	/* HTTP/2: each stream in flight counts, this event the last. */
	if (c->proto->fail != NULL)
		c->proto->fail(c, err, now);
	arg.i = err;
	if (c->state != CONN_CLOSED)
		bus_signal(c->core->bus, BUS_CONN_FAILED, c, arg, now);
	conn_close(c, now);
	conn_unref(c, now);
}

/*
 * A failure the transport reported: counted as the cause `err', and as a
 * handshake failure during the handshake; `what' (or NULL) describes it
 * in a debug line.
 */
static void
conn_xp_fail(struct conn *c, int err, const char *what, uint64_t now)
{
	c->hs_failed = c->state == CONN_HANDSHAKE;
	if (what != NULL)
		core_debug(c->core, 1, "conn %llu: %s: %s",
		    (unsigned long long)c->id, c->xp.ops->name, what);
	conn_fail(c, err, now);
}

/* After TRANSPORT_ERROR: the transport's cause and description. */
void
conn_xp_error(struct conn *c, uint64_t now)
{
	const struct transport *xp = &c->xp;

	conn_xp_fail(c, xp->ops->error(xp), xp->ops->strerror != NULL ?
	    xp->ops->strerror(xp) : NULL, now);
}

/*
 * With --http2: makes the connection HTTP/2 if it is to be: h2c on plain
 * TCP, h2 if ALPN selected it, else HTTP/1.1 with --http2-fallback or a
 * failure (one per connection).  Returns -1 if it failed.
 */
static int
conn_choose_http(struct conn *c, uint64_t now)
{
	const struct core_config *cfg = &c->core->cfg;
	const struct tls_conn *tc;
	const unsigned char *p = NULL;
	size_t len = 0;

	if (!cfg->http2)
		return 0;
	if ((tc = transport_tls_conn(&c->xp)) != NULL) {
		p = tls_conn_alpn(tc, &len);
		if (len != 2 || memcmp(p, "h2", 2) != 0) {
			if (cfg->http2_fallback)
				return 0;
			core_debug(c->core, 1, "conn %llu: ALPN: the server "
			    "did not select h2", (unsigned long long)c->id);
			conn_fail(c, H2_ERR_ALPN, now);
			return -1;
		}
	}
	if (conn_h2_proto == NULL) {
		conn_fail(c, ENOPROTOOPT, now);
		return -1;
	}
	if (conn_h2_proto->attach(c, tc != NULL) == -1) {
		conn_fail(c, errno, now);
		return -1;
	}
	c->proto = conn_h2_proto;
	return 0;
}

/* The connection is ready for requests (after TCP and the handshake). */
static void
conn_established(struct conn *c, uint64_t now)
{
	if (conn_choose_http(c, now) == -1)
		return;
	c->state = CONN_CONNECTED;
	c->t_connected = now;
	c->last_progress = now;
	conn_set_mask(c, LOOP_READ);
	if (c->xp.ops->handshake == NULL)
		core_debug(c->core, 2, "conn %llu: connected",
		    (unsigned long long)c->id);
	else
		core_debug(c->core, 2, "conn %llu: connected (%s%s)",
		    (unsigned long long)c->id, c->xp.ops->name,
		    c->resumed ? ", resumed" : "");
	bus_signal(c->core->bus, BUS_CONN_CONNECTED, c, conn_noarg, now);
	if (c->state != CONN_CONNECTED)
		return;
	/* Calls queued while connecting go out now. */
	c->proto->start(c, now);
	if (c->state == CONN_CONNECTED)
		conn_watch(c);
}

/* Moves the transport's handshake on as far as the socket allows. */
static void
conn_handshake(struct conn *c, uint64_t now)
{
	struct transport *xp = &c->xp;

	switch (xp->ops->handshake(xp)) {
	case TRANSPORT_OK:
		c->resumed = xp->ops->resumed != NULL && xp->ops->resumed(xp);
		conn_established(c, loop_clock(c->core->loop));
		break;
	case TRANSPORT_WANT_READ:
		conn_set_mask(c, LOOP_READ);
		break;
	case TRANSPORT_WANT_WRITE:
		conn_set_mask(c, LOOP_WRITE);
		break;
	case TRANSPORT_EOF:
		conn_xp_fail(c, ECONNRESET, "the server closed the "
		    "connection during the handshake", now);
		break;
	case TRANSPORT_ERROR:
		conn_xp_error(c, now);
		break;
	}
}

/* The transport starts, with its handshake if it has one. */
static void
conn_start_transport(struct conn *c, uint64_t now)
{
	struct transport *xp = &c->xp;

	if (xp->ops->start != NULL && xp->ops->start(xp, c->tls_slot) == -1) {
		conn_fail(c, errno != 0 ? errno : ENOMEM, now);
		return;
	}
	if (xp->ops->handshake == NULL) {
		conn_established(c, now);
		return;
	}
	c->last_progress = now;
	c->state = CONN_HANDSHAKE;
	conn_handshake(c, now);
}

/*
 * A CONNECT tunnel failed: the cause `err' counted, with what went wrong
 * in a debug line.
 */
static void
conn_tunnel_fail(struct conn *c, int err, const char *what, uint64_t now)
{
	core_debug(c->core, 1, "conn %llu: proxy CONNECT: %s",
	    (unsigned long long)c->id, what);
	conn_fail(c, err, now);
}

/*
 * Moves the CONNECT tunnel on: writes what is left of the request, then
 * reads the proxy's reply head, one read per readiness (the parser keeps
 * no byte, so a proxy's head costs no memory; a head longer than the
 * core's limit on reply heads fails, and --timeout bounds its time).  A 2xx head
 * opens the tunnel and TLS starts over it; any other status fails the
 * connection with the status kept in tunnel_status (proxy_stat counts
 * it as connect-refused).
 */
static void
conn_tunnel(struct conn *c, uint64_t now)
{
	struct core *core = c->core;
	const struct core_config *cfg = &core->cfg;
	enum proxy_resp_result r;
	union bus_arg arg;
	size_t used;
	ssize_t n;

	while (c->tunnel_sent < cfg->tunnel_len) {
		n = send(c->xp.fd, cfg->tunnel_req + c->tunnel_sent,
		    cfg->tunnel_len - c->tunnel_sent, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			conn_set_mask(c, LOOP_WRITE);
			return;
		}
		if (n == -1) {
			conn_fail(c, errno, now);
			return;
		}
		c->tunnel_sent += (size_t)n;
		c->last_progress = now;
		arg.i = (long)n;
		bus_signal(core->bus, BUS_CONN_BYTES_OUT, c, arg, now);
		if (c->state != CONN_TUNNEL)
			return;
	}
	conn_set_mask(c, LOOP_READ);
	do
		n = read(c->xp.fd, core->rbuf, core->rbuf_size);
	while (n == -1 && errno == EINTR);
	if (n == -1) {
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			conn_fail(c, errno, now);
		return;
	}
	if (n == 0) {
		conn_tunnel_fail(c, ECONNRESET, "the proxy closed the "
		    "connection", now);
		return;
	}
	now = loop_clock(core->loop);
	c->last_progress = now;
	arg.i = (long)n;
	bus_signal(core->bus, BUS_CONN_BYTES_IN, c, arg, now);
	if (c->state != CONN_TUNNEL)
		return;
	r = proxy_resp_parse(&c->tunnel_resp, core->rbuf, (size_t)n, &used);
	if (r == PROXY_RESP_MORE)
		return;
	if (r == PROXY_RESP_ERROR) {
		conn_tunnel_fail(c, EPROTO,
		    proxy_resp_strerror(c->tunnel_resp.error), now);
		return;
	}
	c->tunnel_status = c->tunnel_resp.status;
	if (c->tunnel_status < 200 || c->tunnel_status > 299) {
		core_debug(core, 1, "conn %llu: proxy refused CONNECT: "
		    "status %d", (unsigned long long)c->id, c->tunnel_status);
		conn_fail(c, EPROTO, now);
		return;
	}
	/* Nothing may come before our ClientHello. */
	if (used < (size_t)n) {
		conn_tunnel_fail(c, EPROTO, "bytes after the reply head",
		    now);
		return;
	}
	core_debug(core, 2, "conn %llu: tunnel open (status %d)",
	    (unsigned long long)c->id, c->tunnel_status);
	c->t_tunneled = now;
	c->head_since = 0;
	conn_start_transport(c, now);
}

/*
 * The TCP connect finished (successfully or not): the tunnel through
 * the proxy (--proxy with --ssl) or the transport starts.
 */
static void
conn_connected(struct conn *c, uint64_t now)
{
	const struct core_config *cfg = &c->core->cfg;
	int err;

	now = loop_clock(c->core->loop);
	if ((err = sock_error(c->xp.fd)) != 0) {
		conn_fail(c, err, now);
		return;
	}
	c->t_tcp_connected = now;
	if (cfg->tunnel_req == NULL) {
		conn_start_transport(c, now);
		return;
	}
	c->state = CONN_TUNNEL;
	c->t_tunnel_start = now;
	c->last_progress = now;
	/* --timeout bounds the whole reply head, as any reply's. */
	c->head_since = now;
	c->tunnel_sent = 0;
	c->tunnel_status = 0;
	proxy_resp_init(&c->tunnel_resp, cfg->max_head);
	conn_tunnel(c, now);
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
		/* A connect done at once (a Unix socket) armed no watchdog:
		   the tunnel or the handshake must not wait for ever. */
		if (c->state == CONN_TUNNEL || c->state == CONN_HANDSHAKE)
			conn_watch(c);
	} else if (c->state == CONN_TUNNEL) {
		conn_tunnel(c, now);
		if (c->state == CONN_TUNNEL)
			conn_watch(c);
	} else if (c->state == CONN_HANDSHAKE) {
		conn_handshake(c, now);
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

/* HTTP/2's queries (conn_h2.h), answered by the connection's engine. */

int
h2_built(void)
{
	return conn_h2_proto != NULL;
}

const struct h2_stats *
h2_conn_stats(const struct conn *c)
{
	return c->proto->h2_stats != NULL ? c->proto->h2_stats(c) : NULL;
}

int
h2_conn_tls(const struct conn *c)
{
	return c->proto->h2_tls != NULL && c->proto->h2_tls(c);
}

unsigned
h2_conn_streams(const struct conn *c)
{
	return c->proto->h2_streams != NULL ? c->proto->h2_streams(c) : 0;
}
