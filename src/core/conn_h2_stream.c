/*
 * HTTP/2 streams (see conn_h2_int.h): a call becomes a stream with its
 * fields and body (h2_submit()), waits on the list in flight, and ends
 * with its reply, its own failure or timeout, or its connection's.  The
 * stream records are the connection's, recycled on a free list.
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
#include "core/conn_h2_int.h"
#include "core/conn_int.h"
#include "core/loop.h"
#include "lib/util.h"

#define H2_NPSEUDO	4		/* :method :scheme :authority :path */
#define H2_DATA_MAX	16384		/* nghttp2's largest DATA payload */

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

void
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
void
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
unsigned
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
 * Lays out the fields of `call' in h->nv: the pseudo-headers, the run's
 * fields, the call's own lines.  Returns how many.
 */
static size_t
h2_call_fields(struct h2_conn *h, const struct call *call,
    const struct http_req_tmpl *t)
{
	struct h2_call_ctx cc;
	size_t i, n, lines = 0;

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
	return cc.n;
}

/*
 * Submits `call' as a stream: its fields (pseudo-headers, the run's, the
 * call's own lines) and its body.  Returns 0, or -1 if nghttp2 refused.
 */
static int
h2_submit(struct conn *c, struct call *call, uint64_t now)
{
	struct h2_conn *h = c->h2;
	const struct http_req_tmpl *t = conn_req(c);
	struct h2_stream *s;
	nghttp2_data_provider prd, *pp = NULL;
	size_t i, n;
	int32_t id;

	n = h2_call_fields(h, call, t);
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
void
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
size_t
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
void
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
uint64_t
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
int
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
void
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
	call->reply_bytes = call->hdr_bytes + call->body_bytes +
	    call->footer_bytes;
	core_debug(c->core, 3, "conn %llu: call %llu: stream %d: status %d, "
	    "%llu bytes", (unsigned long long)c->id,
	    (unsigned long long)call->id, (int)s->id, call->status,
	    (unsigned long long)call->reply_bytes);
	conn_reply_complete(c, call, now);
}

/* Returns the cause a stream closed with `code' before its reply had. */
int
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
void
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

/* Returns the record of stream `id' while its call waits on it, or NULL. */
struct h2_stream *
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
void
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
