/*
 * HTTP/2 with libnghttp2 (see conn_h2.h), the connection's second engine
 * (conn_h2_ops, conn_int.h), built only when configure found the
 * library.  The nghttp2 session is the client's; its bytes come from
 * the connection's read path (h2_input()) and go out through the
 * connection's transport (h2_flush()), so there is no I/O and no event
 * loop here.  nghttp2 callbacks may run handlers
 * that close the connection: every callback first checks that it is
 * still open and stops the session's processing otherwise, and the work
 * that writes or closes (submitting queued calls, flushing, ending a
 * drained connection) is done after nghttp2 returns, never inside it.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nghttp2/nghttp2.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_h2.h"
#include "core/conn_int.h"
#include "core/loop.h"
#include "lib/util.h"

#define H2_OBUF_FILL	65536		/* frames gathered per write */
#define H2_WINDOW	((1U << 30) - 1) /* our receive windows, as h2load */
#define H2_MAX_CONT	1024		/* CONTINUATION frames per block */
#define H2_NPSEUDO	4		/* :method :scheme :authority :path */
#define H2_DATA_MAX	16384		/* nghttp2's largest DATA payload */

static const union bus_arg h2_noarg = { .i = 0 };

static void	h2_conn_free(struct conn *);
static void	h2_send(struct conn *, uint64_t);

/*
 * One stream: its call and what the connection needs to know of it.  The
 * streams in flight are on a list in the order of their calls on the
 * connection's queue (h2_flight_add()), so that a call completed in any
 * order leaves the queue in O(1).
 */
struct h2_stream {
	struct h2_stream *next_free;
	struct h2_stream *next_all;	/* every record of the connection */
	struct h2_stream *prev;		/* in flight: the one before, */
	struct h2_stream *next;		/* and after */
	struct call	*call;		/* NULL once it ended for us (its
					   nghttp2 stream may still close) */
	int		 in_flight;	/* on the list */
	int		 closed;	/* its nghttp2 stream closed */
	int32_t		 id;
	const char	*body;		/* request body still to send */
	size_t		 body_left;
	int		 final;		/* a final (non-1xx) head came */
	int		 in_trailer;	/* the header block is a trailer */
	int		 got_end;	/* END_STREAM received */
	int		 rst_recv;	/* RST_STREAM received */
	uint32_t	 rst_code;
	int		 not_sent;	/* nghttp2 could not send it */
	int		 end_sent;	/* our END_STREAM went out */
	int		 stalled;	/* body held by flow control now */
	uint64_t	 head_bytes;	/* decoded bytes of the reply's head
					   (interim ones included), or of
					   its trailer */
	unsigned	 ninterim;	/* 1xx heads */
	uint64_t	 last;		/* its last progress: its frames
					   written, its reply's fields and
					   body bytes read */
	uint64_t	 head_since;	/* a head (or trailer) under way
					   since, or 0 */
};

/* A request whose last frame is written once out_done reaches `end'. */
struct h2_sent {
	struct call	*call;
	uint64_t	 end;
};

struct h2_conn {
	struct conn	*conn;
	nghttp2_session	*ng;
	int		 tls;
	int		 busy;		/* inside nghttp2 */
	uint64_t	 now;		/* of the bytes nghttp2 is given or
					   asked for: the callbacks' time */
	unsigned	 active;	/* streams in flight (their calls not
					   done) */
	uint32_t	 server_max;	/* its MAX_CONCURRENT_STREAMS, */
	int		 server_limit;	/* if it set one */
	int		 settings;	/* its SETTINGS came */
	int		 goaway;	/* GOAWAY received */
	uint32_t	 goaway_code;
	int		 die_err;	/* fail the connection with it, or 0 */
	unsigned	 ncont;		/* CONTINUATIONs of this block */
	int		 fill_streams;	/* h2_fill() took stream frames */
	uint64_t	 streams_end;	/* out_total after the last of them */
	uint64_t	 wrote;		/* when the last write carried some */

	/* Frames taken from nghttp2, not yet written. */
	char		*obuf;
	size_t		 ooff;
	size_t		 olen;
	size_t		 ocap;
	uint64_t	 out_total;	/* bytes taken from nghttp2 */
	uint64_t	 out_done;	/* bytes written */
	struct h2_sent	*sent;		/* SEND_STOP to signal, in order: */
	size_t		 sent_off;	/* [sent_off, nsent) */
	size_t		 nsent;
	size_t		 capsent;

	/* The run's fixed request fields, names lowercased. */
	nghttp2_nv	*base;
	size_t		 nbase;
	char		*base_buf;
	const char	*authority;	/* into base_buf, or NULL */
	size_t		 authority_len;
	/* Per-request scratch: the fields of one request. */
	nghttp2_nv	*nv;
	size_t		 nvcap;
	char		*lbuf;		/* lowercased per-call names */
	size_t		 lcap;
	/* A reply line for BUS_CALL_RECV_HDR. */
	char		*line;
	size_t		 linecap;

	struct h2_stream *free_streams;
	struct h2_stream *first;	/* in flight, oldest first */
	struct h2_stream *last;
	struct h2_stream *all_streams;	/* free or not: freed at the end */
	struct h2_stats	 st;
};

/* Returns a stream record, from the connection's free list. */
static struct h2_stream *
h2_stream_get(struct h2_conn *h)
{
	struct h2_stream *s = h->free_streams, *all;

	if (s != NULL) {
		h->free_streams = s->next_free;
		all = s->next_all;
	} else {
		/* Streams still open when the session ends are freed from
		   the list of all. */
		s = xmalloc(sizeof(*s));
		all = h->all_streams;
		h->all_streams = s;
	}
	memset(s, 0, sizeof(*s));
	s->next_all = all;
	return s;
}

static void
h2_stream_put(struct h2_conn *h, struct h2_stream *s)
{
	s->next_free = h->free_streams;
	h->free_streams = s;
}

/*
 * Removes `call' from the connection's queue, `prev' the call before it
 * (NULL: it is the first).
 */
static void
h2_queue_remove(struct conn *c, struct call *prev, struct call *call)
{
	if (prev != NULL)
		prev->next = call->next;
	else
		c->head = call->next;
	if (c->tail == call)
		c->tail = prev;
	if (c->unsent == call)
		c->unsent = call->next;
	call->next = NULL;
}

/* The stream of the call just submitted: the last in flight. */
static void
h2_flight_add(struct h2_conn *h, struct h2_stream *s)
{
	s->prev = h->last;
	s->next = NULL;
	if (h->last != NULL)
		h->last->next = s;
	else
		h->first = s;
	h->last = s;
	s->in_flight = 1;
}

/*
 * Takes the stream off the list in flight and its call off the queue:
 * the calls in flight are the first of the queue, in the list's order,
 * so the call before it is its previous stream's.
 */
static void
h2_unlink(struct conn *c, struct h2_stream *s)
{
	struct h2_conn *h = c->h2;

	if (!s->in_flight)
		return;
	/* Its call is done: a stream less counts against the limit, as
	   any frame that closes it goes before a new stream's. */
	h->active--;
	h2_queue_remove(c, s->prev != NULL ? s->prev->call : NULL, s->call);
	if (s->prev != NULL)
		s->prev->next = s->next;
	else
		h->first = s->next;
	if (s->next != NULL)
		s->next->prev = s->prev;
	else
		h->last = s->prev;
	s->prev = s->next = NULL;
	s->in_flight = 0;
}

/* Returns non-zero for the fields HTTP/2 forbids (RFC 9113 8.2.2). */
static int
h2_conn_specific(const char *name, size_t len)
{
	static const char *const bad[] = {
		"connection", "keep-alive", "proxy-connection",
		"transfer-encoding", "upgrade",
	};
	size_t i;

	for (i = 0; i < nitems(bad); i++)
		if (strlen(bad[i]) == len && strncasecmp(bad[i], name, len) == 0)
			return 1;
	return 0;
}

/*
 * Calls fn(arg, name, nlen, value, vlen) for each "Name: value" line of
 * buf (CRLF or LF ends a line; the value's blanks trimmed).  Lines
 * without a colon are skipped.
 */
static void
h2_lines(const char *buf, size_t len,
    void (*fn)(void *, const char *, size_t, const char *, size_t), void *arg)
{
	const char *p = buf, *end = buf + len, *eol, *colon, *v, *ve;

	while (p < end) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		ve = eol;
		if (ve > p && ve[-1] == '\r')
			ve--;
		colon = memchr(p, ':', (size_t)(ve - p));
		if (colon != NULL && colon > p) {
			v = colon + 1;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			fn(arg, p, (size_t)(colon - p), v, (size_t)(ve - v));
		}
		p = eol + 1;
	}
}

/* Grows h->nv to hold n fields. */
static void
h2_nv_reserve(struct h2_conn *h, size_t n)
{
	if (n <= h->nvcap)
		return;
	while (h->nvcap < n)
		h->nvcap = h->nvcap ? h->nvcap * 2 : 32;
	h->nv = xreallocarray(h->nv, h->nvcap, sizeof(*h->nv));
}

/* Building the fixed fields: first their count and size, then them. */
struct h2_base_ctx {
	struct h2_conn	*h;
	size_t		 n;
	size_t		 bytes;
	char		*p;		/* NULL: counting */
};

static void
h2_base_field(void *arg, const char *name, size_t nlen, const char *value,
    size_t vlen)
{
	struct h2_base_ctx *bc = arg;
	struct h2_conn *h = bc->h;
	nghttp2_nv *nv;
	size_t i;

	if (h2_conn_specific(name, nlen))
		return;
	if (nlen == 4 && strncasecmp(name, "host", 4) == 0) {
		/* The first Host is :authority; HTTP/2 has no other. */
		if (bc->p != NULL && h->authority == NULL) {
			memcpy(bc->p, value, vlen);
			h->authority = bc->p;
			h->authority_len = vlen;
			bc->p += vlen;
		} else if (bc->p == NULL)
			bc->bytes += vlen;
		return;
	}
	if (bc->p == NULL) {
		bc->n++;
		bc->bytes += nlen + vlen;
		return;
	}
	nv = &h->base[h->nbase++];
	for (i = 0; i < nlen; i++)
		bc->p[i] = (char)tolower((unsigned char)name[i]);
	nv->name = (uint8_t *)bc->p;
	nv->namelen = nlen;
	bc->p += nlen;
	memcpy(bc->p, value, vlen);
	nv->value = (uint8_t *)bc->p;
	nv->valuelen = vlen;
	bc->p += vlen;
	nv->flags = NGHTTP2_NV_FLAG_NONE;
}

/*
 * Takes the run's fixed header fields from the HTTP/1.1 template: its
 * lines after the request line, Host as :authority, the fields HTTP/2
 * forbids left out, names lowercased.
 */
static void
h2_base_init(struct h2_conn *h, const struct http_req_tmpl *t)
{
	struct h2_base_ctx bc;

	memset(&bc, 0, sizeof(bc));
	bc.h = h;
	h2_lines(t->tail, t->tail_len, h2_base_field, &bc);
	h->base = xcalloc(bc.n + 1, sizeof(*h->base));
	h->base_buf = xmalloc(bc.bytes + 1);
	bc.p = h->base_buf;
	h2_lines(t->tail, t->tail_len, h2_base_field, &bc);
}

/* A per-call field, lowercased into h->lbuf (big enough). */
struct h2_call_ctx {
	struct h2_conn	*h;
	size_t		 off;
	size_t		 n;		/* fields in h->nv */
};

static void
h2_call_field(void *arg, const char *name, size_t nlen, const char *value,
    size_t vlen)
{
	struct h2_call_ctx *cc = arg;
	struct h2_conn *h = cc->h;
	nghttp2_nv *nv;
	size_t i;

	if (h2_conn_specific(name, nlen))
		return;
	h2_nv_reserve(h, cc->n + 2);
	nv = &h->nv[cc->n++];
	for (i = 0; i < nlen; i++)
		h->lbuf[cc->off + i] = (char)tolower((unsigned char)name[i]);
	nv->name = (uint8_t *)h->lbuf + cc->off;
	nv->namelen = nlen;
	cc->off += nlen;
	nv->value = (uint8_t *)(uintptr_t)value;
	nv->valuelen = vlen;
	nv->flags = NGHTTP2_NV_FLAG_NONE;
}

static void
h2_nv_set(nghttp2_nv *nv, const char *name, const char *value, size_t vlen)
{
	nv->name = (uint8_t *)(uintptr_t)name;
	nv->namelen = strlen(name);
	nv->value = (uint8_t *)(uintptr_t)value;
	nv->valuelen = vlen;
	nv->flags = NGHTTP2_NV_FLAG_NO_COPY_NAME;
}

/* The request body, copied into DATA frames as nghttp2 asks. */
static ssize_t
h2_body_read(nghttp2_session *ng, int32_t id, uint8_t *buf, size_t len,
    uint32_t *flags, nghttp2_data_source *src, void *user)
{
	struct h2_stream *s = src->ptr;

	if (len > s->body_left)
		len = s->body_left;
	memcpy(buf, s->body, len);
	s->body += len;
	s->body_left -= len;
	if (s->body_left == 0)
		*flags |= NGHTTP2_DATA_FLAG_EOF;
	return (ssize_t)len;
}

/*
 * Returns how many streams may be open at once: --max-streams, within the
 * server's limit; without --max-streams, the server's limit, or 100 when
 * it sets none.  A server that sets no limit takes --max-streams as it
 * is.  Until the server's SETTINGS came, one: more could be refused by a
 * server with a small limit.
 */
static unsigned
h2_limit(const struct h2_conn *h)
{
	unsigned lim = h->conn->core->cfg.max_streams;

	if (!h->settings)
		return 1;
	if (h->server_limit) {
		if (lim == 0 || lim > h->server_max)
			lim = h->server_max;
	} else if (lim == 0)
		lim = H2_DEFAULT_STREAMS;
	return lim > 0 ? lim : 1;
}

/*
 * Submits `call' as a stream: its fields (pseudo-headers, the run's, the
 * call's own lines) and its body.  Returns 0, or -1 if nghttp2 refused.
 */
static int
h2_submit(struct conn *c, struct call *call, uint64_t now)
{
	struct h2_conn *h = c->h2;
	const struct http_req_tmpl *t = c->core->cfg.req;
	struct h2_call_ctx cc;
	struct h2_stream *s;
	nghttp2_data_provider prd, *pp = NULL;
	size_t i, n, lines = 0;
	int32_t id;

	/* Room for every field the call could carry. */
	for (i = 0; i < call->nhdrs; i++)
		lines += call->hdrs[i].iov_len;
	if (lines > h->lcap) {
		h->lcap = lines;
		h->lbuf = xrealloc(h->lbuf, h->lcap);
	}
	h2_nv_reserve(h, H2_NPSEUDO + h->nbase + 2);
	n = 0;
	if (call->method != NULL)
		h2_nv_set(&h->nv[n++], ":method", call->method,
		    call->method_len);
	else
		h2_nv_set(&h->nv[n++], ":method", t->method, t->method_len);
	h2_nv_set(&h->nv[n++], ":scheme", h->tls ? "https" : "http",
	    h->tls ? 5 : 4);
	if (h->authority != NULL)
		h2_nv_set(&h->nv[n++], ":authority", h->authority,
		    h->authority_len);
	if (call->uri != NULL)
		h2_nv_set(&h->nv[n++], ":path", call->uri, call->uri_len);
	else
		h2_nv_set(&h->nv[n++], ":path", t->uri, t->uri_len);
	memcpy(&h->nv[n], h->base, h->nbase * sizeof(*h->base));
	n += h->nbase;
	cc.h = h;
	cc.off = 0;
	cc.n = n;
	for (i = 0; i < call->nhdrs; i++)
		h2_lines(call->hdrs[i].iov_base, call->hdrs[i].iov_len,
		    h2_call_field, &cc);
	n = cc.n;
	s = h2_stream_get(h);
	s->call = call;
	if (call->body != NULL) {
		s->body = call->body;
		s->body_left = call->body_len;
	} else if (t->body != NULL) {
		s->body = t->body;
		s->body_left = t->body_len;
		h2_nv_reserve(h, n + 1);
		h2_nv_set(&h->nv[n++], "content-length", t->clen + 16,
		    t->clen_len - 18);
	}
	if (s->body_left > 0) {
		prd.source.ptr = s;
		prd.read_callback = h2_body_read;
		pp = &prd;
	}
	for (i = 0; i < n; i++)
		h->st.hdr_sent_raw += h->nv[i].namelen + h->nv[i].valuelen;
	id = nghttp2_submit_request(h->ng, NULL, h->nv, n, pp, s);
	if (id < 0) {
		core_debug(c->core, 1, "conn %llu: call %llu: cannot submit: "
		    "%s", (unsigned long long)c->id,
		    (unsigned long long)call->id, nghttp2_strerror(id));
		h2_stream_put(h, s);
		return -1;
	}
	s->id = id;
	s->last = now;
	h2_flight_add(h, s);
	call->req_len = 0;
	call->req_body_len = s->body_left;
	h->active++;
	h->st.streams++;
	if (h->active > h->st.max_concurrent)
		h->st.max_concurrent = h->active;
	conn_send_start(c, call, now);
	return 0;
}

/*
 * Submits queued calls while the stream limit allows and the server
 * takes new streams.  A call nghttp2 refuses fails on its own.
 */
static void
h2_pump(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;
	struct call *call;
	union bus_arg arg;

	while (c->state == CONN_CONNECTED && !h->goaway && !c->draining &&
	    (call = c->unsent) != NULL && h->active < h2_limit(h)) {
		c->unsent = call->next;
		if (h2_submit(c, call, now) == 0)
			continue;
		/* Right after the calls in flight. */
		h2_queue_remove(c, h->last != NULL ? h->last->call : NULL,
		    call);
		arg.i = H2_ERR_PROTOCOL;
		bus_signal(c->core->bus, BUS_CALL_FAILED, call, arg, now);
		call_unref(call, now);
	}
}

/* Returns the number of calls submitted as streams and not done. */
static size_t
h2_inflight(const struct conn *c)
{
	const struct call *call;
	size_t n = 0;

	for (call = c->head; call != NULL && call != c->unsent;
	    call = call->next)
		n++;
	return n;
}

/*
 * The connection fails with cause `err': signals BUS_CALL_FAILED for each
 * stream in flight but one (BUS_CONN_FAILED counts that one).
 */
static void
h2_fail_streams(struct conn *c, int err, uint64_t now)
{
	struct call *call;
	union bus_arg arg;
	size_t n;

	if (c->h2 == NULL || (n = h2_inflight(c)) < 2)
		return;
	arg.i = err;
	conn_ref(c);
	for (call = c->head; n > 1 && call != NULL && call != c->unsent;
	    call = call->next, n--)
		bus_signal(c->core->bus, BUS_CALL_FAILED, call, arg, now);
	conn_unref(c, now);
}

/*
 * Returns when stream `s' times out: --timeout after its last progress
 * (its request's frames written count while it is under way), plus
 * --think-timeout while its request is all written and not a byte of
 * its reply came; and --timeout after its reply's head (or trailer)
 * started, however steadily the head's fields come.  0: never.  What
 * the server sends on the connection (PING, SETTINGS, WINDOW_UPDATE,
 * other streams' frames) is no progress of this stream's.
 */
static uint64_t
h2_stream_deadline(const struct conn *c, const struct h2_stream *s)
{
	const struct core_config *cfg = &c->core->cfg;
	const struct call *call = s->call;
	uint64_t last = s->last, limit = cfg->timeout, d = 0;

	if (call->t_send_stop == 0 && c->h2->wrote > last)
		last = c->h2->wrote;
	if (call->t_send_stop != 0 && call->t_recv_start == 0 &&
	    s->head_since == 0)
		limit += cfg->think_timeout;
	if (limit != 0)
		d = last + limit;
	if (s->head_since != 0 && cfg->timeout != 0 &&
	    (d == 0 || s->head_since + cfg->timeout < d))
		d = s->head_since + cfg->timeout;
	return d;
}

/*
 * Returns when the connection times out, or 0 for never: the earliest
 * deadline of its streams in flight, each on its own progress (see
 * h2_stream_deadline()); with none in flight, --timeout after the
 * connection's last progress.
 */
static uint64_t
h2_deadline(const struct conn *c)
{
	const struct h2_stream *s;
	uint64_t d = 0, t;
	int any = 0;

	for (s = c->h2->first; s != NULL; s = s->next) {
		if (s->closed)
			continue;
		any = 1;
		if ((t = h2_stream_deadline(c, s)) != 0 && (d == 0 || t < d))
			d = t;
	}
	if (!any && c->core->cfg.timeout != 0)
		d = c->last_progress + c->core->cfg.timeout;
	return d;
}

/* Stream `s' timed out: it is reset, its call counted as client-timo. */
static void
h2_stream_timeout(struct conn *c, struct h2_stream *s, uint64_t now)
{
	struct call *call = s->call;
	union bus_arg arg;

	core_debug(c->core, 1, "conn %llu: call %llu: stream %d timed out",
	    (unsigned long long)c->id, (unsigned long long)call->id,
	    (int)s->id);
	(void)nghttp2_submit_rst_stream(c->h2->ng, NGHTTP2_FLAG_NONE, s->id,
	    NGHTTP2_CANCEL);
	h2_unlink(c, s);
	s->call = NULL;
	arg.i = H2_ERR_TIMEOUT;
	bus_signal(c->core->bus, BUS_CALL_FAILED, call, arg, now);
	call_unref(call, now);
}

/*
 * The watchdog found the deadline come: the streams whose deadline came
 * time out (RST_STREAM CANCEL, BUS_CALL_FAILED with H2_ERR_TIMEOUT) and
 * the connection goes on: returns 0.  Returns 1 if the connection itself
 * times out (no stream in flight, or a session's connection, whose
 * streams in flight but one are then counted with H2_ERR_TIMEOUT; the
 * caller's BUS_CONN_TIMEOUT counts that one).  May close.
 */
static int
h2_expire(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;
	struct h2_stream *s, *next;
	uint64_t d;
	int n = 0;

	if (h->first == NULL || h->busy)
		return 1;
	if (c->sess != NULL) {
		/* A session's calls fail with their connection. */
		h2_fail_streams(c, H2_ERR_TIMEOUT, now);
		return 1;
	}
	for (s = h->first; s != NULL && c->state == CONN_CONNECTED;
	    s = next) {
		next = s->next;
		if (s->closed || (d = h2_stream_deadline(c, s)) == 0 ||
		    d > now)
			continue;
		h2_stream_timeout(c, s, now);
		n++;
		/* Its handlers may have changed the list. */
		if (next != NULL && !next->in_flight)
			next = h->first;
	}
	if (n == 0)
		return 1;
	if (c->state == CONN_CONNECTED)
		h2_send(c, now);
	return 0;
}

/*
 * Fails the connection with `err', each stream in flight counted; with
 * no call on it (all ended), it closes: an error is a call's, and none
 * is left to count this one.
 */
static void
h2_die(struct conn *c, int err, uint64_t now)
{
	core_debug(c->core, 1, "conn %llu: HTTP/2: %s%s",
	    (unsigned long long)c->id, strerror(err),
	    c->head == NULL ? ", no call on it" : "");
	if (c->head == NULL)
		conn_close(c, now);
	else
		conn_fail(c, err, now);
}

/*
 * A complete reply came before the request's last frame went: nothing
 * more of it is sent (RST_STREAM NO_ERROR, which RFC 9113 8.1 lets a
 * client send once it has the complete response), and the call is cut
 * short: req_sent is what its frames carried, req_len that plus the body
 * never sent, with the headers of the DATA frames it would have taken
 * (16,384 bytes each, nghttp2's largest).
 */
static void
h2_stop_upload(struct conn *c, struct h2_stream *s)
{
	struct call *call = s->call;
	uint64_t frames = (s->body_left + H2_DATA_MAX - 1) / H2_DATA_MAX;

	core_debug(c->core, 1, "conn %llu: call %llu: stream %d: reply "
	    "before %zu request body bytes; they are not sent",
	    (unsigned long long)c->id, (unsigned long long)call->id,
	    (int)s->id, s->body_left);
	call->cut = 1;
	call->req_sent = call->req_len;
	call->req_len += s->body_left + 9 * frames;
	s->body_left = 0;
	(void)nghttp2_submit_rst_stream(c->h2->ng, NGHTTP2_FLAG_NONE, s->id,
	    NGHTTP2_NO_ERROR);
}

/*
 * The stream's call has its whole reply: END_STREAM after a final head.
 * It completes now, whenever its stream closes.
 */
static void
h2_reply_done(struct conn *c, struct h2_stream *s, uint64_t now)
{
	struct call *call = s->call;

	if (call->t_send_stop == 0) {
		/* Answered before its request was all written (as HTTP/1.1
		   early replies): counted as a request now. */
		call->early = 1;
		if (!s->end_sent)
			h2_stop_upload(c, s);
	}
	h2_unlink(c, s);
	s->call = NULL;
	call->replied = 1;
	call->reply_bytes = call->hdr_bytes + call->body_bytes +
	    call->footer_bytes;
	call->t_recv_stop = now;
	if (call->t_recv_start == 0)
		call->t_recv_start = now;
	c->nreplies++;
	core_debug(c->core, 3, "conn %llu: call %llu: stream %d: status %d, "
	    "%llu bytes", (unsigned long long)c->id,
	    (unsigned long long)call->id, (int)s->id, call->status,
	    (unsigned long long)call->reply_bytes);
	bus_signal(c->core->bus, BUS_CALL_RECV_STOP, call, h2_noarg, now);
	call_unref(call, now);
}

/* Returns the cause a stream closed with `code' before its reply had. */
static int
h2_stream_cause(const struct h2_conn *h, const struct h2_stream *s,
    uint32_t code)
{
	if (s->rst_recv)
		return s->rst_code == NGHTTP2_REFUSED_STREAM ?
		    H2_ERR_REFUSED : H2_ERR_RESET;
	if (s->not_sent || code == NGHTTP2_REFUSED_STREAM)
		return h->goaway && h->goaway_code != NGHTTP2_NO_ERROR ?
		    H2_ERR_GOAWAY : H2_ERR_REFUSED;
	if (h->goaway && h->goaway_code != NGHTTP2_NO_ERROR)
		return H2_ERR_GOAWAY;
	return H2_ERR_PROTOCOL;
}

/*
 * The stream failed: the call fails alone, or with its connection (then
 * it stays in flight, its record on the list, until h2_die()).
 */
static void
h2_stream_failed(struct conn *c, struct h2_stream *s, int err, uint64_t now)
{
	struct h2_conn *h = c->h2;
	struct call *call = s->call;
	union bus_arg arg;

	core_debug(c->core, 1, "conn %llu: call %llu: stream %d failed: %s",
	    (unsigned long long)c->id, (unsigned long long)call->id,
	    (int)s->id, strerror(err));
	if (h->goaway && err == H2_ERR_REFUSED && c->resend) {
		/* Not processed (RFC 9113 6.8): back to the owner with the
		   connection, to be sent again (conn.h). */
		call->unprocessed = err;
		h2_unlink(c, s);
		s->call = NULL;
		call_unref(call, now);
		return;
	}
	if (c->sess != NULL) {
		/* Left in flight: h2_die() counts it with the others. */
		if (h->die_err == 0)
			h->die_err = err;
		return;
	}
	h2_unlink(c, s);
	s->call = NULL;
	arg.i = err;
	bus_signal(c->core->bus, BUS_CALL_FAILED, call, arg, now);
	call_unref(call, now);
}

/* nghttp2 callbacks.  `user' is the connection. */

#define H2_CB_CONN(user, c)						\
	struct conn *c = (user);					\
	if (c->state != CONN_CONNECTED)					\
		return NGHTTP2_ERR_CALLBACK_FAILURE

/* Returns the record of stream `id' while its call waits on it, or NULL. */
static struct h2_stream *
h2_stream_of(nghttp2_session *ng, int32_t id)
{
	struct h2_stream *s;

	if (id == 0 || (s = nghttp2_session_get_stream_user_data(ng, id)) ==
	    NULL || s->call == NULL)
		return NULL;
	return s;
}

/*
 * The stream progressed at `now' (its frames taken to be written, its
 * reply's fields and body bytes read); a head or trailer starting is
 * progress that may bring its deadline before the watchdog's.
 */
static void
h2_progress(struct conn *c, struct h2_stream *s, int head, uint64_t now)
{
	uint64_t d;

	s->last = now;
	c->last_progress = now;
	if (!head)
		return;
	s->head_since = now;
	d = now + c->core->cfg.timeout;
	if (c->core->cfg.timeout != 0 && timer_is_armed(&c->timer) &&
	    d < timer_expire(&c->timer))
		timer_add(loop_timers(c->core->loop), &c->timer, d);
}

static int
h2_on_begin_frame(nghttp2_session *ng, const nghttp2_frame_hd *hd,
    void *user)
{
	H2_CB_CONN(user, c);
	struct h2_conn *h = c->h2;

	if (hd->type == NGHTTP2_HEADERS) {
		h->ncont = 0;
		h->st.hdr_recv_enc += hd->length;
	} else if (hd->type == NGHTTP2_CONTINUATION) {
		/* A block that never ends must not hold us. */
		if (++h->ncont > H2_MAX_CONT)
			return NGHTTP2_ERR_CALLBACK_FAILURE;
		h->st.hdr_recv_enc += hd->length;
	}
	return 0;
}

static int
h2_on_begin_headers(nghttp2_session *ng, const nghttp2_frame *frame,
    void *user)
{
	H2_CB_CONN(user, c);
	struct h2_stream *s;

	if (frame->hd.type != NGHTTP2_HEADERS ||
	    (s = h2_stream_of(ng, frame->hd.stream_id)) == NULL)
		return 0;
	/* A head's budget (bytes, time) is its interim heads' too, as on
	   HTTP/1.1; a trailer has its own. */
	s->in_trailer = s->final;
	if (s->in_trailer)
		s->head_bytes = 0;
	h2_progress(c, s, 1, c->h2->now);
	return 0;
}

/* Signals one reply line `a'`b' ("name: value") as `ev'. */
static void
h2_line(struct conn *c, struct call *call, enum bus_event ev,
    const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
    uint64_t now)
{
	struct h2_conn *h = c->h2;
	union bus_arg arg;
	size_t len = alen + (b != NULL ? 2 + blen : 0);

	if (!bus_wanted(c->core->bus, ev))
		return;
	if (len + 1 > h->linecap) {
		h->linecap = len + 1 < 256 ? 256 : len + 1;
		h->line = xrealloc(h->line, h->linecap);
	}
	memcpy(h->line, a, alen);
	if (b != NULL) {
		memcpy(h->line + alen, ": ", 2);
		memcpy(h->line + alen + 2, b, blen);
	}
	h->line[len] = '\0';
	arg.buf.p = h->line;
	arg.buf.len = len;
	bus_signal(c->core->bus, ev, call, arg, now);
}

static int
h2_on_header(nghttp2_session *ng, const nghttp2_frame *frame,
    const uint8_t *name, size_t nlen, const uint8_t *value, size_t vlen,
    uint8_t flags, void *user)
{
	H2_CB_CONN(user, c);
	struct h2_conn *h = c->h2;
	const struct core_config *cfg = &c->core->cfg;
	struct h2_stream *s;
	struct call *call;
	union bus_arg arg;
	uint64_t now = c->h2->now;
	char st[16];
	int status, i;

	if (frame->hd.type != NGHTTP2_HEADERS ||
	    (s = h2_stream_of(ng, frame->hd.stream_id)) == NULL)
		return 0;
	call = s->call;
	h2_progress(c, s, 0, now);
	h->st.hdr_recv_raw += nlen + vlen;
	/* The limits of HTTP/1.1's reply heads hold here too. */
	s->head_bytes += nlen + vlen + 4;
	if (nlen + 2 + vlen > cfg->max_line || s->head_bytes > cfg->max_head)
		return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
	if (nlen == 7 && memcmp(name, ":status", 7) == 0 && !s->in_trailer) {
		status = 0;
		for (i = 0; i < (int)vlen && i < 3; i++)
			status = status * 10 + (value[i] - '0');
		/* As on HTTP/1.1: 100-599, at most 100 interim heads. */
		if (vlen != 3 || status < 100 || status > 599 ||
		    (status < 200 && ++s->ninterim > CONN_MAX_INTERIM))
			return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
		s->final = status >= 200;
		call->status = status;
		call->hdr_bytes += 12;	/* "HTTP/2 NNN\r\n" */
		snprintf(st, sizeof(st), "HTTP/2 %03d", status);
		if (call->t_recv_start == 0) {
			call->t_recv_start = now;
			arg.i = status;
			bus_signal(c->core->bus, BUS_CALL_RECV_START, call,
			    arg, now);
			if (c->state != CONN_CONNECTED)
				return NGHTTP2_ERR_CALLBACK_FAILURE;
		}
		h2_line(c, call, BUS_CALL_RECV_HDR, (const uint8_t *)st,
		    strlen(st), NULL, 0, now);
		return c->state == CONN_CONNECTED ? 0 :
		    NGHTTP2_ERR_CALLBACK_FAILURE;
	}
	if (s->in_trailer) {
		call->footer_bytes += nlen + vlen + 4;
		h2_line(c, call, BUS_CALL_RECV_FOOTER, name, nlen, value, vlen,
		    now);
	} else {
		call->hdr_bytes += nlen + vlen + 4;
		h2_line(c, call, BUS_CALL_RECV_HDR, name, nlen, value, vlen,
		    now);
	}
	return c->state == CONN_CONNECTED ? 0 : NGHTTP2_ERR_CALLBACK_FAILURE;
}

static int
h2_on_data(nghttp2_session *ng, uint8_t flags, int32_t id,
    const uint8_t *data, size_t len, void *user)
{
	H2_CB_CONN(user, c);
	struct h2_stream *s;
	union bus_arg arg;

	if ((s = h2_stream_of(ng, id)) == NULL)
		return 0;
	if (len > 0)
		h2_progress(c, s, 0, c->h2->now);
	s->call->body_bytes += len;
	if (!bus_wanted(c->core->bus, BUS_CALL_RECV_DATA))
		return 0;
	arg.buf.p = (const char *)data;
	arg.buf.len = len;
	bus_signal(c->core->bus, BUS_CALL_RECV_DATA, s->call, arg,
	    c->h2->now);
	return c->state == CONN_CONNECTED ? 0 : NGHTTP2_ERR_CALLBACK_FAILURE;
}

/* SETTINGS: the server's stream limit. */
static void
h2_settings(struct h2_conn *h, const nghttp2_settings *set)
{
	size_t i;

	h->settings = 1;
	for (i = 0; i < set->niv; i++)
		if (set->iv[i].settings_id ==
		    NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS) {
			h->server_max = set->iv[i].value;
			h->server_limit = 1;
		}
}

/*
 * END_STREAM: after a final head the reply is complete, whether or not
 * the stream is closed yet (our request may still be under way, or the
 * server reset the stream later).
 */
static void
h2_got_end(struct conn *c, struct h2_stream *s, uint64_t now)
{
	s->got_end = 1;
	if (s->final)
		h2_reply_done(c, s, now);
}

static int
h2_on_frame_recv(nghttp2_session *ng, const nghttp2_frame *frame,
    void *user)
{
	H2_CB_CONN(user, c);
	struct h2_conn *h = c->h2;
	struct h2_stream *s;
	uint64_t now = c->h2->now;

	s = frame->hd.stream_id != 0 ?
	    nghttp2_session_get_stream_user_data(ng, frame->hd.stream_id) :
	    NULL;
	switch (frame->hd.type) {
	case NGHTTP2_SETTINGS:
		if (!(frame->hd.flags & NGHTTP2_FLAG_ACK))
			h2_settings(h, &frame->settings);
		break;
	case NGHTTP2_GOAWAY:
		h->st.goaway_recv++;
		h->goaway = 1;
		h->goaway_code = frame->goaway.error_code;
		c->draining = 1;
		core_debug(c->core, 1, "conn %llu: GOAWAY (%s), last stream "
		    "%d", (unsigned long long)c->id,
		    nghttp2_http2_strerror(frame->goaway.error_code),
		    (int)frame->goaway.last_stream_id);
		break;
	case NGHTTP2_RST_STREAM:
		h->st.rst_recv++;
		if (s != NULL) {
			s->rst_recv = 1;
			s->rst_code = frame->rst_stream.error_code;
		}
		break;
	case NGHTTP2_HEADERS:
		if (s == NULL || s->call == NULL)
			break;
		if (!s->in_trailer) {
			/* The empty line that ends a head. */
			h2_line(c, s->call, BUS_CALL_RECV_HDR,
			    (const uint8_t *)"", 0, NULL, 0, now);
			s->call->hdr_bytes += 2;
		} else {
			h2_line(c, s->call, BUS_CALL_RECV_FOOTER,
			    (const uint8_t *)"", 0, NULL, 0, now);
			s->call->footer_bytes += 2;
		}
		/* A final head or a trailer is over; after an interim one
		   the next head's clock runs on, as on HTTP/1.1. */
		if (s->final)
			s->head_since = 0;
		if (c->state == CONN_CONNECTED &&
		    (frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
			h2_got_end(c, s, now);
		break;
	case NGHTTP2_DATA:
		if (s != NULL && s->call != NULL &&
		    (frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
			h2_got_end(c, s, now);
		break;
	default:
		break;
	}
	return c->state == CONN_CONNECTED ? 0 : NGHTTP2_ERR_CALLBACK_FAILURE;
}

/* Remembers that `call' is completely sent once the frames so far are. */
static void
h2_sent_push(struct h2_conn *h, struct call *call)
{
	if (h->nsent == h->capsent && h->sent_off > 0) {
		memmove(h->sent, h->sent + h->sent_off,
		    (h->nsent - h->sent_off) * sizeof(*h->sent));
		h->nsent -= h->sent_off;
		h->sent_off = 0;
	}
	if (h->nsent == h->capsent) {
		h->capsent = h->capsent ? h->capsent * 2 : 16;
		h->sent = xreallocarray(h->sent, h->capsent,
		    sizeof(*h->sent));
	}
	call_ref(call);
	h->sent[h->nsent].call = call;
	h->sent[h->nsent].end = h->out_total;
	h->nsent++;
}

static int
h2_on_frame_send(nghttp2_session *ng, const nghttp2_frame *frame,
    void *user)
{
	H2_CB_CONN(user, c);
	struct h2_conn *h = c->h2;
	struct h2_stream *s;
	int32_t id = frame->hd.stream_id;

	s = h2_stream_of(ng, id);
	switch (frame->hd.type) {
	case NGHTTP2_RST_STREAM:
		h->st.rst_sent++;
		break;
	case NGHTTP2_HEADERS:
		h->st.hdr_sent_enc += frame->hd.length;
		/* FALLTHROUGH */
	case NGHTTP2_DATA:
		if (s == NULL)
			break;
		/* Its bytes are among those h2_fill() takes now. */
		h->fill_streams = 1;
		h2_progress(c, s, 0, h->now);
		s->call->req_len += frame->hd.length + 9;
		if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
			s->end_sent = 1;
			h2_sent_push(h, s->call);
			break;
		}
		if (frame->hd.type == NGHTTP2_DATA && s->body_left > 0 &&
		    (nghttp2_session_get_stream_remote_window_size(ng,
		    id) <= 0 || nghttp2_session_get_remote_window_size(ng) <=
		    0))
			h->st.stalls++;
		break;
	default:
		break;
	}
	return 0;
}

static int
h2_on_frame_not_send(nghttp2_session *ng, const nghttp2_frame *frame,
    int lib_error, void *user)
{
	H2_CB_CONN(user, c);
	struct h2_stream *s;

	if (frame->hd.type == NGHTTP2_HEADERS && (s =
	    nghttp2_session_get_stream_user_data(ng, frame->hd.stream_id)) !=
	    NULL)
		s->not_sent = 1;
	return 0;
}

static int
h2_on_stream_close(nghttp2_session *ng, int32_t id, uint32_t code,
    void *user)
{
	H2_CB_CONN(user, c);
	struct h2_conn *h = c->h2;
	struct h2_stream *s;
	uint64_t now = c->h2->now;

	if ((s = nghttp2_session_get_stream_user_data(ng, id)) == NULL)
		return 0;
	nghttp2_session_set_stream_user_data(ng, id, NULL);
	s->closed = 1;
	/* Its call has its reply, or timed out, or it closes without. */
	if (s->call != NULL)
		h2_stream_failed(c, s, h2_stream_cause(h, s, code), now);
	if (s->in_flight)
		h->active--;	/* a session's, failed with its connection */
	else
		h2_stream_put(h, s);
	return c->state == CONN_CONNECTED ? 0 : NGHTTP2_ERR_CALLBACK_FAILURE;
}

/* Builds the session: callbacks, limits, and our SETTINGS. */
static int
h2_session_new(struct h2_conn *h)
{
	nghttp2_session_callbacks *cb;
	nghttp2_option *opt;
	nghttp2_settings_entry iv[3];
	int rv;

	if (nghttp2_session_callbacks_new(&cb) != 0)
		return -1;
	nghttp2_session_callbacks_set_on_begin_frame_callback(cb,
	    h2_on_begin_frame);
	nghttp2_session_callbacks_set_on_begin_headers_callback(cb,
	    h2_on_begin_headers);
	nghttp2_session_callbacks_set_on_header_callback(cb, h2_on_header);
	nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb,
	    h2_on_data);
	nghttp2_session_callbacks_set_on_frame_recv_callback(cb,
	    h2_on_frame_recv);
	nghttp2_session_callbacks_set_on_frame_send_callback(cb,
	    h2_on_frame_send);
	nghttp2_session_callbacks_set_on_frame_not_send_callback(cb,
	    h2_on_frame_not_send);
	nghttp2_session_callbacks_set_on_stream_close_callback(cb,
	    h2_on_stream_close);
	if (nghttp2_option_new(&opt) != 0) {
		nghttp2_session_callbacks_del(cb);
		return -1;
	}
	/* A hostile server's table and queues stay small. */
	nghttp2_option_set_max_deflate_dynamic_table_size(opt, 4096);
	nghttp2_option_set_max_outbound_ack(opt, 1000);
	nghttp2_option_set_max_settings(opt, 32);
	rv = nghttp2_session_client_new2(&h->ng, cb, h->conn, opt);
	nghttp2_option_del(opt);
	nghttp2_session_callbacks_del(cb);
	if (rv != 0)
		return -1;
	iv[0].settings_id = NGHTTP2_SETTINGS_ENABLE_PUSH;
	iv[0].value = 0;
	iv[1].settings_id = NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE;
	iv[1].value = H2_WINDOW;
	iv[2].settings_id = NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE;
	iv[2].value = h->conn->core->cfg.max_head > UINT32_MAX ? UINT32_MAX :
	    (uint32_t)h->conn->core->cfg.max_head;
	if (nghttp2_submit_settings(h->ng, NGHTTP2_FLAG_NONE, iv, 3) != 0 ||
	    nghttp2_session_set_local_window_size(h->ng, NGHTTP2_FLAG_NONE, 0,
	    (int32_t)H2_WINDOW) != 0)
		return -1;
	return 0;
}

/*
 * Makes `c' an HTTP/2 connection (c->h2) and queues the client preface
 * and SETTINGS.  `tls': over TLS (scheme https).  Returns 0, or -1
 * (errno) if nghttp2 could not allocate.
 */
static int
h2_conn_start(struct conn *c, int tls)
{
	struct h2_conn *h = xcalloc(1, sizeof(*h));

	h->conn = c;
	h->tls = tls;
	c->h2 = h;
	h2_base_init(h, c->core->cfg.req);
	if (h2_session_new(h) == -1) {
		h2_conn_free(c);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* Frees c->h2 (the connection is being destroyed). */
static void
h2_conn_free(struct conn *c)
{
	struct h2_conn *h = c->h2;
	struct h2_stream *s;

	if (h == NULL)
		return;
	c->h2 = NULL;
	nghttp2_session_del(h->ng);
	while ((s = h->all_streams) != NULL) {
		h->all_streams = s->next_all;
		free(s);
	}
	free(h->obuf);
	free(h->sent);
	free(h->base);
	free(h->base_buf);
	free(h->nv);
	free(h->lbuf);
	free(h->line);
	free(h);
}

/* The queries of other layers (conn_h2.h). */

static const struct h2_stats *
h2_conn_stats_of(const struct conn *c)
{
	return c->h2 != NULL ? &c->h2->st : NULL;
}

static int
h2_conn_tls_of(const struct conn *c)
{
	return c->h2 != NULL && c->h2->tls;
}

static unsigned
h2_conn_streams_of(const struct conn *c)
{
	return c->h2 != NULL && c->h2->settings ? h2_limit(c->h2) : 0;
}

/* The connection is closing: drops what h2 holds of its calls. */
static void
h2_closing(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;
	size_t i, n;

	if (h == NULL)
		return;
	/* Reset first: an unref may run handlers that close again. */
	i = h->sent_off;
	n = h->nsent;
	h->sent_off = h->nsent = 0;
	for (; i < n; i++)
		call_unref(h->sent[i].call, now);
}

/* Signals BUS_CALL_SEND_STOP for the requests now completely written. */
static void
h2_sent_done(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;
	struct call *call;

	/* Each taken off before its handlers run: they may close, and
	   h2_closing() drops what is left. */
	while (h->sent_off < h->nsent &&
	    h->sent[h->sent_off].end <= h->out_done &&
	    c->state == CONN_CONNECTED) {
		call = h->sent[h->sent_off++].call;
		call->t_send_stop = now;
		bus_signal(c->core->bus, BUS_CALL_SEND_STOP, call, h2_noarg,
		    now);
		call_unref(call, now);
	}
	if (h->sent_off == h->nsent)
		h->sent_off = h->nsent = 0;
}

/*
 * Takes frames from nghttp2 into obuf, up to H2_OBUF_FILL.  Returns 0, or
 * -1 if nghttp2 failed (or a callback closed the connection).
 */
static int
h2_fill(struct conn *c)
{
	struct h2_conn *h = c->h2;
	const uint8_t *p;
	ssize_t n;

	h->ooff = h->olen = 0;
	h->now = loop_clock(c->core->loop);
	while (h->olen < H2_OBUF_FILL) {
		h->busy++;
		n = nghttp2_session_mem_send(h->ng, &p);
		h->busy--;
		if (n < 0 || c->state != CONN_CONNECTED)
			return -1;
		if (n == 0)
			break;
		if (h->olen + (size_t)n > h->ocap) {
			while (h->olen + (size_t)n > h->ocap)
				h->ocap = h->ocap ? h->ocap * 2 : 16384;
			h->obuf = xrealloc(h->obuf, h->ocap);
		}
		memcpy(h->obuf + h->olen, p, (size_t)n);
		h->olen += (size_t)n;
		h->out_total += (uint64_t)n;
		if (h->fill_streams) {
			h->streams_end = h->out_total;
			h->fill_streams = 0;
		}
	}
	return 0;
}

/*
 * After nghttp2 ran: submits what the limit now allows, fails or ends the
 * connection if the session says so.  Returns -1 if it closed.
 */
static int
h2_settle(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;

	if (c->state != CONN_CONNECTED)
		return -1;
	if (h->die_err != 0) {
		h2_die(c, h->die_err, now);
		return -1;
	}
	h2_pump(c, now);
	return c->state == CONN_CONNECTED ? 0 : -1;
}

/* The session is over with nothing left to write: close or fail. */
static void
h2_over(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;

	if (h2_inflight(c) > 0)
		h2_die(c, h->goaway && h->goaway_code != NGHTTP2_NO_ERROR ?
		    H2_ERR_GOAWAY : H2_ERR_PROTOCOL, now);
	else
		conn_close(c, now);
}

/* Writes what nghttp2 has ready.  May close. */
static void
h2_flush(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;
	struct transport *xp = &c->xp;
	enum transport_io io;
	union bus_arg arg;
	size_t w, want;

	if (h->busy || h2_settle(c, now) == -1)
		return;
	for (;;) {
		if (h->ooff == h->olen && h2_fill(c) == -1) {
			if (c->state == CONN_CONNECTED)
				h2_die(c, H2_ERR_PROTOCOL, now);
			return;
		}
		if ((want = h->olen - h->ooff) == 0)
			break;
		w = xp->ops->writev(xp, &(struct iovec){ h->obuf + h->ooff,
		    want }, 1, &io);
		if (conn_write_blocked(c, io, now))
			return;
		now = loop_clock(c->core->loop);
		arg.i = (long)w;
		bus_signal(c->core->bus, BUS_CONN_BYTES_OUT, c, arg, now);
		/* Progress for the requests under way only if it carried
		   their frames, not just our PING or SETTINGS ACKs. */
		if (w > 0 && h->out_done < h->streams_end) {
			h->wrote = now;
			c->last_progress = now;
		}
		h->ooff += w;
		h->out_done += w;
		h2_sent_done(c, now);
		if (c->state != CONN_CONNECTED)
			return;
		if (w < want) {
			conn_set_mask(c, LOOP_READ | LOOP_WRITE);
			return;
		}
	}
	conn_set_mask(c, LOOP_READ);
	if (!nghttp2_session_want_read(h->ng) &&
	    !nghttp2_session_want_write(h->ng))
		h2_over(c, now);
	else if (c->draining && h->active == 0)
		conn_close(c, now);	/* GOAWAY: all answered */
}

/*
 * A call was queued on the HTTP/2 connection (or the connection just
 * became HTTP/2 with calls queued): submits what the stream limit
 * allows and writes.  May close.
 */
static void
h2_send(struct conn *c, uint64_t now)
{
	h2_pump(c, now);
	if (c->state == CONN_CONNECTED && !c->h2->busy &&
	    !(c->mask & LOOP_WRITE))
		h2_flush(c, now);
}

/* Feeds `len' bytes read from the server.  Returns -1 if it closed. */
static int
h2_input(struct conn *c, const char *data, size_t len, uint64_t now)
{
	struct h2_conn *h = c->h2;
	ssize_t n;

	h->now = now;
	h->busy++;
	n = nghttp2_session_mem_recv(h->ng, (const uint8_t *)data, len);
	h->busy--;
	if (c->state != CONN_CONNECTED)
		return -1;
	if (n < 0) {
		core_debug(c->core, 1, "conn %llu: HTTP/2: %s",
		    (unsigned long long)c->id, nghttp2_strerror((int)n));
		h2_die(c, H2_ERR_PROTOCOL, now);
		return -1;
	}
	if (!(c->mask & LOOP_WRITE))
		h2_flush(c, now);
	else if (h2_settle(c, now) == -1)
		return -1;
	return c->state == CONN_CONNECTED ? 0 : -1;
}

/* The server closed its side.  Closes. */
static void
h2_eof(struct conn *c, uint64_t now)
{
	struct h2_conn *h = c->h2;

	if (h2_inflight(c) == 0) {
		core_debug(c->core, 2, "conn %llu: closed by the server",
		    (unsigned long long)c->id);
		conn_close(c, now);
		return;
	}
	core_debug(c->core, 1, "conn %llu: closed by the server with %zu "
	    "streams in flight", (unsigned long long)c->id, h2_inflight(c));
	conn_fail(c, h->goaway && h->goaway_code != NGHTTP2_NO_ERROR ?
	    H2_ERR_GOAWAY : ECONNRESET, now);
}

/* A call was queued: a stream now, or when one closes. */
static void
h2_queued(struct conn *c, struct call *call, uint64_t now)
{
	if (c->unsent == NULL)
		c->unsent = call;
	conn_ref(c);
	h2_send(c, now);
	if (c->state == CONN_CONNECTED)
		conn_watch(c);
	conn_unref(c, now);
}

const struct conn_proto_ops conn_h2_ops = {
	.attach = h2_conn_start,
	.start = h2_send,		/* the preface and SETTINGS too */
	.send = h2_queued,
	.flush = h2_flush,
	.input = h2_input,
	.eof = h2_eof,
	.deadline = h2_deadline,
	.expire = h2_expire,
	.fail = h2_fail_streams,
	.closing = h2_closing,
	.free = h2_conn_free,
	.h2_stats = h2_conn_stats_of,
	.h2_streams = h2_conn_streams_of,
	.h2_tls = h2_conn_tls_of,
};
