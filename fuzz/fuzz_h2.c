/*
 * libFuzzer target for the HTTP/2 client glue (src/core/conn_h2.c) through a
 * real connection (src/core/conn*.c), as httperf drives it: the input
 * becomes the server's frames, raw or made by an nghttp2 server session.
 *
 * Once per process: an event loop and a loopback listener (in a network
 * namespace of its own when the process may make one).  Per input: a
 * bus and a core with --http2, one connection with 1 to 8 calls queued
 * (some with a body), --max-streams from the input.  The target accepts
 * and reads what the client writes; what it writes back is sent in
 * pieces, the loop run after each piece until the client has read it;
 * at the end it shuts the socket down and runs the loop until the
 * connection is destroyed.
 *
 * Checked: no crash, leak or hang (a loop turn that waits more than a
 * few seconds aborts); the connection ends and is destroyed once; every
 * call is destroyed; each call is replied to or fails at most once, and
 * replies never outnumber the calls; no more bytes read than written.
 * And the report's invariant, each call ends as exactly one reply or one
 * error, as the statistics count them: a reply has a status in a class
 * of the report (100-599); a call that began to be sent
 * (BUS_CALL_SEND_START) and got neither its reply (BUS_CALL_RECV_STOP)
 * nor its own failure (BUS_CALL_FAILED) is the one the connection's
 * failure or timeout counts (BUS_CONN_FAILED, BUS_CONN_TIMEOUT: one
 * error), so there is at most one such call, and only with that error;
 * and that error counts a call that has not ended, not one more than the
 * calls (an error with no call).  A broken invariant aborts.
 *
 * The first two bytes choose the plan:
 *   byte 0, bits 0-2: calls - 1
 *           bit 3: the calls carry a body
 *           bits 4-5: --max-streams 0 (the server's), 1, 2, 0
 *           bit 7: the mode: 0 raw, 1 script
 *   byte 1: the piece size (0: all that is ready at once)
 *
 * Raw mode: an empty SETTINGS frame (the server preface, so that inputs
 * get past it), then the rest of the input as it is.
 *
 * Script mode: the rest of the input is a script of server actions run
 * on an nghttp2 server session that reads what the client writes (so
 * that it knows the client's streams), its frames sent to the client as
 * they come.  The script starts with its SETTINGS (a count, then 1-byte
 * ids and 4-byte values), then each action is a byte (modulo FZ_NOPS)
 * and its arguments, read from the input as far as it goes (0 after
 * its end): SETTINGS, response HEADERS (:status and fields with fuzzed
 * names and values, HPACK encoded by nghttp2, some of them large so that
 * CONTINUATION frames appear), DATA of fuzzed lengths, trailers,
 * RST_STREAM, GOAWAY, WINDOW_UPDATE, PING, PUSH_PROMISE (encoded apart:
 * the session cannot send it, as the client turns push off), raw bytes,
 * a raw frame of any type, and a delivery of what is queued (the client
 * reads it and answers before the script goes on).  A stream is one the
 * client opened, picked by index, or any id.
 */
#include "config.h"

#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nghttp2/nghttp2.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/clock.h"
#include "core/conn.h"
#include "fuzz_net.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_MAX_CALLS	8
#define FZ_MAX_STREAMS	64		/* client streams the server knows */
#define FZ_MAX_DATA	16		/* DATA sources of a script */
#define FZ_MAX_FIELDS	12		/* fields of a header block */
#define FZ_BIG_VALUE	20000		/* the largest value made */
#define FZ_OUT_MAX	(1U << 20)	/* bytes a script may send */

static struct fz_net fz_net;

struct fz_run {
	struct call	*calls[FZ_MAX_CALLS];
	unsigned	 ends[FZ_MAX_CALLS];	/* replies + failures */
	unsigned	 started[FZ_MAX_CALLS];	/* BUS_CALL_SEND_START */
	unsigned	 conn_errors;	/* BUS_CONN_FAILED + BUS_CONN_TIMEOUT */
	unsigned	 ncalls;
	unsigned	 replied;
	unsigned	 destroyed_calls;
	unsigned	 destroyed_conns;
	unsigned	 closed;
	uint64_t	 bytes_in;
	uint64_t	 bytes_out;
};

/* The input of a script, read as far as it goes (then zeros). */
struct fz_in {
	const uint8_t	*p;
	size_t		 n;
};

/* A DATA source: `left' bytes of `fill'. */
struct fz_data {
	size_t		 left;
	uint8_t		 fill;
	int		 used;
};

/* The server's side of a script run. */
struct fz_srv {
	nghttp2_session	*ng;			/* NULL in raw mode */
	int		 dead;			/* the session failed */
	nghttp2_hd_deflater *push;		/* PUSH_PROMISE blocks */
	int32_t		 streams[FZ_MAX_STREAMS];
	unsigned	 nstreams;
	struct fz_data	 data[FZ_MAX_DATA];
	uint8_t		*out;			/* to send */
	size_t		 olen;
	size_t		 ocap;
	size_t		 total;			/* made so far */
};

/* Sending to the client and waiting until it has read. */
struct fz_wire {
	struct fz_run	*r;
	struct fz_srv	*srv;
	int		 sfd;
	size_t		 piece;
	uint64_t	 sent;
	unsigned	 steps;
};

static void
fz_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct fz_run *r = ctx;
	unsigned i;

	(void)now;
	switch (ev) {
	case BUS_CALL_RECV_STOP:
	case BUS_CALL_FAILED:
		for (i = 0; i < r->ncalls; i++)
			if (r->calls[i] == obj && ++r->ends[i] > 1)
				abort();	/* ended twice */
		r->replied += ev == BUS_CALL_RECV_STOP;
		/* A reply is counted in a status class (1xx-5xx). */
		if (ev == BUS_CALL_RECV_STOP &&
		    (((struct call *)obj)->status < 100 ||
		    ((struct call *)obj)->status > 599))
			abort();
		break;
	case BUS_CALL_SEND_START:
		for (i = 0; i < r->ncalls; i++)
			if (r->calls[i] == obj)
				r->started[i] = 1;
		break;
	case BUS_CONN_FAILED:
	case BUS_CONN_TIMEOUT:
		r->conn_errors++;
		break;
	case BUS_CALL_DESTROYED:
		r->destroyed_calls++;
		break;
	case BUS_CONN_CLOSED:
		r->closed++;
		break;
	case BUS_CONN_DESTROYED:
		r->destroyed_conns++;
		break;
	case BUS_CONN_BYTES_IN:
		r->bytes_in += (uint64_t)arg.i;
		break;
	case BUS_CONN_BYTES_OUT:
		r->bytes_out += (uint64_t)arg.i;
		break;
	default:
		break;
	}
}

/* Reads what the client wrote: into the server session, or dropped. */
static void
fz_feed(struct fz_wire *w)
{
	uint8_t buf[65536];
	ssize_t n;

	if (w->srv == NULL) {
		(void)fz_net_drain(w->sfd);
		return;
	}
	while ((n = recv(w->sfd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		if (!w->srv->dead && nghttp2_session_mem_recv(w->srv->ng, buf,
		    (size_t)n) < 0)
			w->srv->dead = 1;
}

/*
 * Sends `len' bytes in pieces, running the loop after each until the
 * client has read it all.  Returns -1 once the client has gone.
 */
static int
fz_send(struct fz_wire *w, const uint8_t *p, size_t len)
{
	struct fz_run *r = w->r;
	size_t pos = 0, k;
	ssize_t n;

	while (pos < len && r->destroyed_conns == 0) {
		k = w->piece == 0 || w->piece > len - pos ? len - pos :
		    w->piece;
		n = send(w->sfd, p + pos, k, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;	/* the client has gone */
		pos += (size_t)n;
		w->sent += (uint64_t)n;
		while (r->destroyed_conns == 0 && r->bytes_in < w->sent) {
			fz_net_step(&fz_net, &w->steps);
			fz_feed(w);
		}
		if (r->bytes_in > w->sent)
			abort();
	}
	return r->destroyed_conns == 0 ? 0 : -1;
}

/* Script mode. */

static unsigned
fz_u8(struct fz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

static unsigned
fz_u16(struct fz_in *in)
{
	unsigned v = fz_u8(in) << 8;

	return v | fz_u8(in);
}

static uint32_t
fz_u32(struct fz_in *in)
{
	uint32_t v = (uint32_t)fz_u16(in) << 16;

	return v | fz_u16(in);
}

/* Up to *len bytes of the input (*len set to what there is). */
static const uint8_t *
fz_bytes(struct fz_in *in, size_t *len)
{
	const uint8_t *p = in->p;

	if (*len > in->n)
		*len = in->n;
	in->p += *len;
	in->n -= *len;
	return p;
}

/* Appends to what is to be sent. */
static void
fz_out(struct fz_srv *srv, const uint8_t *p, size_t len)
{
	if (srv->olen + len > srv->ocap) {
		while (srv->olen + len > srv->ocap)
			srv->ocap = srv->ocap ? srv->ocap * 2 : 16384;
		if ((srv->out = realloc(srv->out, srv->ocap)) == NULL)
			abort();
	}
	memcpy(srv->out + srv->olen, p, len);
	srv->olen += len;
	srv->total += len;
}

/* Takes the frames the session has ready. */
static void
fz_collect(struct fz_srv *srv)
{
	const uint8_t *p;
	ssize_t n;

	while (!srv->dead && srv->total < FZ_OUT_MAX) {
		n = nghttp2_session_mem_send(srv->ng, &p);
		if (n < 0)
			srv->dead = 1;
		if (n <= 0)
			break;
		fz_out(srv, p, (size_t)n);
	}
}

/* Sends what is queued; the client's answers go into the session. */
static int
fz_deliver(struct fz_wire *w)
{
	struct fz_srv *srv = w->srv;
	int rv;

	fz_collect(srv);
	rv = fz_send(w, srv->out, srv->olen);
	srv->olen = 0;
	if (rv == 0) {
		fz_feed(w);
		fz_collect(srv);	/* SETTINGS ACK, WINDOW_UPDATE */
	}
	return rv;
}

/* A stream: one the client opened (by index), or any id. */
static int32_t
fz_stream(struct fz_srv *srv, struct fz_in *in)
{
	unsigned k = fz_u8(in);

	if ((k & 0x80) || srv->nstreams == 0)
		return (int32_t)(k & 0x7f);
	return srv->streams[k % srv->nstreams];
}

static int
fz_srv_begin_headers(nghttp2_session *ng, const nghttp2_frame *frame,
    void *user)
{
	struct fz_srv *srv = user;
	unsigned i;

	(void)ng;
	if (frame->hd.type != NGHTTP2_HEADERS)
		return 0;
	for (i = 0; i < srv->nstreams; i++)
		if (srv->streams[i] == frame->hd.stream_id)
			return 0;
	if (srv->nstreams < FZ_MAX_STREAMS)
		srv->streams[srv->nstreams++] = frame->hd.stream_id;
	return 0;
}

static ssize_t
fz_srv_read(nghttp2_session *ng, int32_t id, uint8_t *buf, size_t len,
    uint32_t *flags, nghttp2_data_source *src, void *user)
{
	struct fz_data *d = src->ptr;

	(void)ng;
	(void)id;
	(void)user;
	if (len > d->left)
		len = d->left;
	memset(buf, d->fill, len);
	d->left -= len;
	if (d->left == 0) {
		*flags |= NGHTTP2_DATA_FLAG_EOF;
		d->used = 0;
	}
	return (ssize_t)len;
}

/* A header block's fields: names from a list or the input, values from
   the input or large (a piece of it repeated). */
struct fz_fields {
	nghttp2_nv	 nv[FZ_MAX_FIELDS + 1];
	size_t		 n;
	uint8_t		*big[FZ_MAX_FIELDS];
	size_t		 nbig;
	char		 status[8];
};

static void
fz_fields(struct fz_fields *f, struct fz_in *in, int status)
{
	static const char *const names[] = {
		":status", "content-length", "content-type", "set-cookie",
		"location", "x-fuzz", "connection", "te",
		"transfer-encoding", "Upper-Case", "", ":path",
	};
	size_t i, n, len, plen, k;
	const uint8_t *p;
	unsigned kind;
	nghttp2_nv *nv;
	uint8_t *b;

	memset(f, 0, sizeof(*f));
	if (status) {
		(void)snprintf(f->status, sizeof(f->status), "%03u",
		    fz_u16(in) % 1000);
		nv = &f->nv[f->n++];
		nv->name = (uint8_t *)(uintptr_t)":status";
		nv->namelen = 7;
		nv->value = (uint8_t *)f->status;
		nv->valuelen = 3;
	}
	n = fz_u8(in) % FZ_MAX_FIELDS;
	for (i = 0; i < n; i++) {
		nv = &f->nv[f->n++];
		kind = fz_u8(in);
		k = kind & 0x0f;
		if (k < sizeof(names) / sizeof(names[0])) {
			nv->name = (uint8_t *)(uintptr_t)names[k];
			nv->namelen = strlen(names[k]);
		} else {
			nv->namelen = fz_u8(in) % 64;
			nv->name = (uint8_t *)(uintptr_t)fz_bytes(in,
			    &nv->namelen);
		}
		if (kind & 0x10) {
			len = fz_u16(in) % (FZ_BIG_VALUE + 1);
			plen = fz_u8(in) % 16 + 1;
			p = fz_bytes(in, &plen);
			if ((b = malloc(len + 1)) == NULL)
				abort();
			for (k = 0; k < len; k++)
				b[k] = plen > 0 ? p[k % plen] : 'v';
			f->big[f->nbig++] = b;
			nv->value = b;
			nv->valuelen = len;
		} else {
			nv->valuelen = fz_u8(in) % 64;
			nv->value = (uint8_t *)(uintptr_t)fz_bytes(in,
			    &nv->valuelen);
		}
		nv->flags = (kind & 0x20) ? NGHTTP2_NV_FLAG_NO_INDEX :
		    NGHTTP2_NV_FLAG_NONE;
	}
}

static void
fz_fields_free(struct fz_fields *f)
{
	size_t i;

	for (i = 0; i < f->nbig; i++)
		free(f->big[i]);
}

/* SETTINGS: a count, then ids and values, as they come. */
static void
fz_settings(struct fz_srv *srv, struct fz_in *in)
{
	nghttp2_settings_entry iv[4];
	size_t i, n = fz_u8(in) % 5;

	for (i = 0; i < n; i++) {
		iv[i].settings_id = (int32_t)(fz_u8(in) % 10);
		iv[i].value = fz_u32(in);
	}
	(void)nghttp2_submit_settings(srv->ng, NGHTTP2_FLAG_NONE, iv, n);
}

/* A PUSH_PROMISE frame, its block encoded without indexing (so that it
   leaves the client's table as the session's encoder expects it). */
static void
fz_push(struct fz_srv *srv, struct fz_in *in)
{
	struct fz_fields f;
	uint8_t *buf;
	int32_t id = fz_stream(srv, in);
	uint32_t promised = (fz_u8(in) << 1) + 2;
	uint8_t flags = (fz_u8(in) & 1) ? NGHTTP2_FLAG_END_HEADERS : 0;
	size_t i, bound;
	ssize_t n;

	fz_fields(&f, in, 0);
	for (i = 0; i < f.n; i++)
		f.nv[i].flags = NGHTTP2_NV_FLAG_NO_INDEX;
	bound = nghttp2_hd_deflate_bound(srv->push, f.nv, f.n);
	if ((buf = malloc(13 + bound)) == NULL)
		abort();
	n = nghttp2_hd_deflate_hd(srv->push, buf + 13, bound, f.nv, f.n);
	if (n >= 0) {
		n += 4;
		buf[0] = (uint8_t)((size_t)n >> 16);
		buf[1] = (uint8_t)((size_t)n >> 8);
		buf[2] = (uint8_t)n;
		buf[3] = NGHTTP2_PUSH_PROMISE;
		buf[4] = flags;
		buf[5] = (uint8_t)((uint32_t)id >> 24);
		buf[6] = (uint8_t)((uint32_t)id >> 16);
		buf[7] = (uint8_t)((uint32_t)id >> 8);
		buf[8] = (uint8_t)id;
		buf[9] = (uint8_t)(promised >> 24);
		buf[10] = (uint8_t)(promised >> 16);
		buf[11] = (uint8_t)(promised >> 8);
		buf[12] = (uint8_t)promised;
		fz_out(srv, buf, 9 + (size_t)n);
	}
	free(buf);
	fz_fields_free(&f);
}

/* A frame of any type, its payload from the input. */
static void
fz_raw_frame(struct fz_srv *srv, struct fz_in *in)
{
	uint8_t hd[9];
	uint8_t type = (uint8_t)fz_u8(in), flags = (uint8_t)fz_u8(in);
	uint32_t id = (uint32_t)fz_stream(srv, in);
	size_t len = fz_u8(in);
	const uint8_t *p = fz_bytes(in, &len);

	hd[0] = 0;
	hd[1] = 0;
	hd[2] = (uint8_t)len;
	hd[3] = type;
	hd[4] = flags;
	hd[5] = (uint8_t)(id >> 24);
	hd[6] = (uint8_t)(id >> 16);
	hd[7] = (uint8_t)(id >> 8);
	hd[8] = (uint8_t)id;
	fz_out(srv, hd, sizeof(hd));
	fz_out(srv, p, len);
}

enum {
	FZ_SETTINGS, FZ_HEADERS, FZ_DATA, FZ_TRAILERS, FZ_RST, FZ_GOAWAY,
	FZ_WINDOW, FZ_PING, FZ_PUSH, FZ_RAW, FZ_FRAME, FZ_DELIVER, FZ_NOPS
};

/* Runs one action of the script. */
static void
fz_action(struct fz_wire *w, struct fz_in *in)
{
	struct fz_srv *srv = w->srv;
	struct fz_fields f;
	nghttp2_data_provider prd;
	struct fz_data *d;
	const uint8_t *p;
	uint8_t opaque[8];
	int32_t id;
	size_t len;
	unsigned i, flags;

	switch (fz_u8(in) % FZ_NOPS) {
	case FZ_SETTINGS:
		fz_settings(srv, in);
		break;
	case FZ_HEADERS:
		id = fz_stream(srv, in);
		flags = fz_u8(in) & 1 ? NGHTTP2_FLAG_END_STREAM :
		    NGHTTP2_FLAG_NONE;
		fz_fields(&f, in, 1);
		(void)nghttp2_submit_headers(srv->ng, (uint8_t)flags, id, NULL,
		    f.nv, f.n, NULL);
		fz_collect(srv);	/* it copied the fields */
		fz_fields_free(&f);
		break;
	case FZ_DATA:
		id = fz_stream(srv, in);
		len = fz_u16(in);
		flags = fz_u8(in);
		for (i = 0, d = NULL; i < FZ_MAX_DATA && d == NULL; i++)
			if (!srv->data[i].used)
				d = &srv->data[i];
		if (d == NULL)
			break;
		d->used = 1;
		d->left = len;
		d->fill = (uint8_t)(flags >> 1);
		prd.source.ptr = d;
		prd.read_callback = fz_srv_read;
		if (nghttp2_submit_data(srv->ng, flags & 1 ?
		    NGHTTP2_FLAG_END_STREAM : NGHTTP2_FLAG_NONE, id, &prd) != 0)
			d->used = 0;
		break;
	case FZ_TRAILERS:
		id = fz_stream(srv, in);
		fz_fields(&f, in, 0);
		(void)nghttp2_submit_trailer(srv->ng, id, f.nv, f.n);
		fz_collect(srv);
		fz_fields_free(&f);
		break;
	case FZ_RST:
		id = fz_stream(srv, in);
		(void)nghttp2_submit_rst_stream(srv->ng, NGHTTP2_FLAG_NONE, id,
		    fz_u8(in));
		break;
	case FZ_GOAWAY:
		id = fz_stream(srv, in);
		flags = fz_u8(in);
		len = fz_u8(in) % 16;
		p = fz_bytes(in, &len);
		(void)nghttp2_submit_goaway(srv->ng, NGHTTP2_FLAG_NONE, id,
		    flags, p, len);
		break;
	case FZ_WINDOW:
		id = fz_u8(in) & 1 ? 0 : fz_stream(srv, in);
		(void)nghttp2_submit_window_update(srv->ng, NGHTTP2_FLAG_NONE,
		    id, (int32_t)(fz_u32(in) & 0x7fffffff));
		break;
	case FZ_PING:
		flags = fz_u8(in) & 1 ? NGHTTP2_FLAG_ACK : NGHTTP2_FLAG_NONE;
		for (i = 0; i < sizeof(opaque); i++)
			opaque[i] = (uint8_t)fz_u8(in);
		(void)nghttp2_submit_ping(srv->ng, (uint8_t)flags, opaque);
		break;
	case FZ_PUSH:
		fz_collect(srv);
		fz_push(srv, in);
		return;
	case FZ_RAW:
		fz_collect(srv);
		len = fz_u8(in);
		p = fz_bytes(in, &len);
		fz_out(srv, p, len);
		return;
	case FZ_FRAME:
		fz_collect(srv);
		fz_raw_frame(srv, in);
		return;
	case FZ_DELIVER:
		(void)fz_deliver(w);
		return;
	default:
		abort();
	}
	fz_collect(srv);
}

static void
fz_script(struct fz_wire *w, const uint8_t *script, size_t n)
{
	nghttp2_session_callbacks *cb;
	nghttp2_option *opt;
	struct fz_srv *srv = w->srv;
	struct fz_in in = { script, n };

	if (nghttp2_session_callbacks_new(&cb) != 0)
		abort();
	nghttp2_session_callbacks_set_on_begin_headers_callback(cb,
	    fz_srv_begin_headers);
	if (nghttp2_option_new(&opt) != 0)
		abort();
	/* Whatever the script sends, the session sends. */
	nghttp2_option_set_no_http_messaging(opt, 1);
	if (nghttp2_session_server_new2(&srv->ng, cb, srv, opt) != 0 ||
	    nghttp2_hd_deflate_new(&srv->push, 4096) != 0)
		abort();
	nghttp2_option_del(opt);
	nghttp2_session_callbacks_del(cb);

	/* Ours first: the client must see SETTINGS, not an ACK, first. */
	fz_settings(srv, &in);
	fz_feed(w);
	if (fz_deliver(w) == 0)
		while (in.n > 0 && srv->total < FZ_OUT_MAX &&
		    w->r->destroyed_conns == 0)
			fz_action(w, &in);
	if (w->r->destroyed_conns == 0)
		(void)fz_deliver(w);
}

/*
 * Each call ended as exactly one reply or one error: the calls sent and
 * not ended on their own are at most the connection's errors (one), and
 * those errors count calls that did not end on their own.
 */
static void
fz_check_ends(const struct fz_run *r)
{
	unsigned i, open = 0, sent_open = 0;

	for (i = 0; i < r->ncalls; i++) {
		if (r->ends[i] != 0)
			continue;
		open++;
		sent_open += r->started[i] != 0;
	}
	if (r->conn_errors > 1 || sent_open > r->conn_errors ||
	    r->conn_errors > open)
		abort();
}

static void
fz_run_one(const uint8_t *stream, size_t n, unsigned ncalls, int body,
    unsigned max_streams, size_t piece, int script)
{
	static const enum bus_event evs[] = {
		BUS_CALL_RECV_STOP, BUS_CALL_FAILED, BUS_CALL_DESTROYED,
		BUS_CONN_CLOSED, BUS_CONN_DESTROYED, BUS_CONN_BYTES_IN,
		BUS_CONN_BYTES_OUT, BUS_CALL_SEND_START, BUS_CONN_FAILED,
		BUS_CONN_TIMEOUT,
	};
	static const uint8_t settings[9] = { 0, 0, 0, 4, 0, 0, 0, 0, 0 };
	struct core_config cfg;
	struct core core;
	struct fz_run r;
	struct fz_srv srv;
	struct fz_wire w;
	struct bus *bus;
	struct conn *c;
	struct call *call;
	uint64_t now;
	unsigned i;
	int one = 1;

	memset(&r, 0, sizeof(r));
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_line = 4096;
	cfg.max_head = 16384;
	cfg.http2 = 1;
	cfg.max_streams = max_streams;
	bus = fz_net_core(&fz_net, &core, &cfg, evs,
	    sizeof(evs) / sizeof(evs[0]), fz_event, &r);

	now = clock_now();
	c = conn_new(&core, now);
	conn_connect(c, now);
	if (r.closed != 0)
		abort();
	r.ncalls = ncalls;
	for (i = 0; i < ncalls; i++) {
		call = call_new(&core, now);
		r.calls[i] = call;
		if (body) {
			call->method = "POST";
			call->method_len = 4;
			call->body = "0123456789";
			call->body_len = 10;
		}
		if (conn_send(c, call, now) == -1)
			abort();
		call_unref(call, now);
	}

	memset(&w, 0, sizeof(w));
	memset(&srv, 0, sizeof(srv));
	w.r = &r;
	w.srv = script ? &srv : NULL;
	w.piece = piece;
	w.sfd = fz_net_accept(&fz_net);
	/* Each piece goes at once, not after the last one's delayed ACK. */
	(void)setsockopt(w.sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	while (r.destroyed_conns == 0 && r.bytes_out == 0)
		fz_net_step(&fz_net, &w.steps);
	if (script)
		fz_script(&w, stream, n);
	else {
		fz_feed(&w);
		/* The preface as one piece, then the input in pieces. */
		w.piece = 0;
		if (fz_send(&w, settings, sizeof(settings)) == 0) {
			w.piece = piece;
			(void)fz_send(&w, stream, n);
		}
	}
	(void)shutdown(w.sfd, SHUT_RDWR);
	while (r.destroyed_conns == 0) {
		fz_net_step(&fz_net, &w.steps);
		fz_feed(&w);
	}

	if (r.destroyed_conns != 1 || r.closed != 1)
		abort();
	if (r.destroyed_calls != ncalls || r.replied > ncalls)
		abort();
	fz_check_ends(&r);
	if (core.live != NULL || core.conns.nlive != 0)
		abort();
	fz_net_reset(w.sfd);
	fz_net_core_free(&fz_net, &core, bus);
	if (srv.ng != NULL)
		nghttp2_session_del(srv.ng);
	if (srv.push != NULL)
		nghttp2_hd_deflate_del(srv.push);
	free(srv.out);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_net_init(&fz_net, "fuzz_h2", "X-A: b\r\n");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned streams[] = { 0, 1, 2, 0 };

	if (size < 2)
		return 0;
	fz_run_one(data + 2, size - 2, (data[0] & 7) + 1, (data[0] >> 3) & 1,
	    streams[(data[0] >> 4) & 3], data[1], data[0] >> 7);
	return 0;
}
