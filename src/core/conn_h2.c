/*
 * HTTP/2 with libnghttp2 (see conn_h2.h), the connection's second engine
 * (conn_h2_ops, conn_int.h), built only when configure found the
 * library: the session, its callbacks, reading and writing; the streams
 * are conn_h2_stream.c's (conn_h2_int.h).  The nghttp2 session is the client's; its bytes come from
 * the connection's read path (h2_input()) and go out through the
 * connection's transport (h2_flush()), so there is no I/O and no event
 * loop here.  nghttp2 callbacks may run handlers
 * that close the connection: every callback first checks that it is
 * still open and stops the session's processing otherwise, and the work
 * that writes or closes (submitting queued calls, flushing, ending a
 * drained connection) is done after nghttp2 returns, never inside it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nghttp2/nghttp2.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_h2.h"
#include "core/conn_h2_int.h"
#include "core/conn_int.h"
#include "core/loop.h"
#include "lib/util.h"

#define H2_OBUF_FILL	65536		/* frames gathered per write */
#define H2_WINDOW	((1U << 30) - 1) /* our receive windows, as h2load */
#define H2_MAX_CONT	1024		/* CONTINUATION frames per block */

static const union bus_arg h2_noarg = { .i = 0 };

static void	h2_conn_free(struct conn *);

/*
 * Fails the connection with `err', each stream in flight counted; with
 * no call on it (all ended), it closes: an error is a call's, and none
 * is left to count this one.
 */
void
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

/* nghttp2 callbacks.  `user' is the connection. */

#define H2_CB_CONN(user, c)						\
	struct conn *c = (user);					\
	if (c->state != CONN_CONNECTED)					\
		return NGHTTP2_ERR_CALLBACK_FAILURE

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

	if (call->keep_head && ev == BUS_CALL_RECV_HDR)
		call_keep_hdr(call, (const char *)a, alen, (const char *)b,
		    blen);
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
	if (s->call->keep_body)
		call_keep_body(s->call, (const char *)data, len);
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
void
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
