/*
 * Unit tests for the HTTP/2 glue (src/core/conn_h2.c) through a real
 * connection (src/core/conn*.c): the client runs on the event loop over
 * a loopback socket; the other end is an nghttp2 *server* session driven
 * by the test between loop turns, which answers, resets and refuses
 * streams as each test says.  Checked exactly: the request's header
 * fields, completion by stream in any order, RST_STREAM, GOAWAY with and
 * without an error, --max-streams and the server's stream limit (none
 * set: 100, or --max-streams as it is; 1; 300; --max-streams below the
 * server's), a connection that dies with streams in flight, bytes that
 * are not HTTP/2, streams completed in reverse order, a reply complete
 * at END_STREAM before the request is (the upload stopped, its unsent
 * bytes counted), :status outside 100-599, the cap of 100 interim heads,
 * and the timeout of a stream on its own progress (a server's PINGs are
 * none), and the events and counts of each.
 */
#include "config.h"

#include <sys/socket.h>

#include <netinet/in.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nghttp2/nghttp2.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/clock.h"
#include "core/conn.h"
#include "core/conn_h2.h"
#include "core/core.h"
#include "core/loop.h"
#include "core/timer.h"
#include "lib/util.h"
#include "net/http_req.h"
#include "unit.h"

#define MAXS		320	/* streams a test looks at */
#define MAXF		16	/* fields kept per request */
#define STEPS		400	/* loop turns a test may take */

/* A request as the server saw it. */
struct sreq {
	int32_t		 id;
	char		 names[MAXF][64];
	char		 values[MAXF][128];
	int		 nf;
	size_t		 body;
	int		 ended;		/* END_STREAM received */
	int		 answered;
	int		 rst;		/* RST_STREAM received, */
	uint32_t	 rst_code;	/* with this code */
};

struct fix {
	struct loop	*loop;
	struct bus	*bus;
	struct core	 core;
	struct core_config cfg;
	struct http_req_tmpl tmpl;
	struct timer	 tick;
	int		 lfd;		/* listener */
	int		 sfd;		/* the server's end, -1: none */
	nghttp2_session	*srv;
	struct sreq	*req;		/* [MAXS] */
	int		 nreq;
	int		 open_max;	/* most streams open at the server */
	int		 open;
	uint32_t	 srv_max;	/* its MAX_CONCURRENT_STREAMS, 0: none */
	uint32_t	 srv_window;	/* its INITIAL_WINDOW_SIZE, 0: default;
					   then no window updates */
	struct conn	*conn;
	struct call	*calls[MAXS];
	int		 ncalls;

	/* Events. */
	int		 send_start, send_stop, recv_start;
	int		 replied[MAXS];	/* call index, in reply order */
	int		 nreplied;
	int		 status[MAXS];	/* by call index */
	int		 failed[MAXS];	/* BUS_CALL_FAILED cause, by index */
	int		 ncall_failed;
	int		 conn_failed;	/* BUS_CONN_FAILED cause, or 0 */
	int		 nconn_failed;
	int		 closed;
	int		 destroyed;
	int		 hdr_lines;	/* BUS_CALL_RECV_HDR */
	uint64_t	 body_bytes;
	struct h2_stats	 st;		/* of the connection, when destroyed */
};

static int
call_index(const struct fix *f, const struct call *call)
{
	int i;

	for (i = 0; i < f->ncalls; i++)
		if (f->calls[i] == call)
			return i;
	return -1;
}

static void
ev(void *ctx, enum bus_event e, void *obj, union bus_arg arg, uint64_t now)
{
	struct fix *f = ctx;
	const struct h2_stats *s;
	int i;

	switch (e) {
	case BUS_CALL_SEND_START:
		f->send_start++;
		break;
	case BUS_CALL_SEND_STOP:
		f->send_stop++;
		break;
	case BUS_CALL_RECV_START:
		f->recv_start++;
		break;
	case BUS_CALL_RECV_HDR:
		f->hdr_lines++;
		break;
	case BUS_CALL_RECV_DATA:
		f->body_bytes += arg.buf.len;
		break;
	case BUS_CALL_RECV_STOP:
		i = call_index(f, obj);
		ck_assert_int_ge(i, 0);
		f->replied[f->nreplied++] = i;
		f->status[i] = ((struct call *)obj)->status;
		break;
	case BUS_CALL_FAILED:
		i = call_index(f, obj);
		ck_assert_int_ge(i, 0);
		ck_assert_int_eq(f->failed[i], 0);
		f->failed[i] = (int)arg.i;
		f->ncall_failed++;
		break;
	case BUS_CONN_FAILED:
		f->conn_failed = (int)arg.i;
		f->nconn_failed++;
		break;
	case BUS_CONN_CLOSED:
		f->closed++;
		break;
	case BUS_CONN_DESTROYED:
		if ((s = h2_conn_stats(obj)) != NULL)
			f->st = *s;
		f->destroyed++;
		break;
	default:
		break;
	}
}

/* The server side. */

static struct sreq *
sreq_of(struct fix *f, int32_t id)
{
	int i;

	for (i = 0; i < f->nreq; i++)
		if (f->req[i].id == id)
			return &f->req[i];
	ck_assert_int_lt(f->nreq, MAXS);
	memset(&f->req[f->nreq], 0, sizeof(f->req[0]));
	f->req[f->nreq].id = id;
	return &f->req[f->nreq++];
}

static int
srv_header(nghttp2_session *s, const nghttp2_frame *fr, const uint8_t *name,
    size_t nlen, const uint8_t *value, size_t vlen, uint8_t flags, void *u)
{
	struct fix *f = u;
	struct sreq *r = sreq_of(f, fr->hd.stream_id);

	ck_assert_int_lt(r->nf, MAXF);
	ck_assert_uint_lt(nlen, sizeof(r->names[0]));
	ck_assert_uint_lt(vlen, sizeof(r->values[0]));
	memcpy(r->names[r->nf], name, nlen);
	r->names[r->nf][nlen] = '\0';
	memcpy(r->values[r->nf], value, vlen);
	r->values[r->nf][vlen] = '\0';
	r->nf++;
	return 0;
}

static int
srv_begin_headers(nghttp2_session *s, const nghttp2_frame *fr, void *u)
{
	struct fix *f = u;

	if (fr->hd.type == NGHTTP2_HEADERS &&
	    fr->headers.cat == NGHTTP2_HCAT_REQUEST) {
		(void)sreq_of(f, fr->hd.stream_id);
		if (++f->open > f->open_max)
			f->open_max = f->open;
	}
	return 0;
}

static int
srv_data(nghttp2_session *s, uint8_t flags, int32_t id, const uint8_t *d,
    size_t len, void *u)
{
	sreq_of(u, id)->body += len;
	return 0;
}

static int
srv_frame_recv(nghttp2_session *s, const nghttp2_frame *fr, void *u)
{
	if ((fr->hd.type == NGHTTP2_HEADERS || fr->hd.type == NGHTTP2_DATA) &&
	    (fr->hd.flags & NGHTTP2_FLAG_END_STREAM))
		sreq_of(u, fr->hd.stream_id)->ended = 1;
	if (fr->hd.type == NGHTTP2_RST_STREAM) {
		sreq_of(u, fr->hd.stream_id)->rst = 1;
		sreq_of(u, fr->hd.stream_id)->rst_code =
		    fr->rst_stream.error_code;
	}
	return 0;
}

static int
srv_stream_close(nghttp2_session *s, int32_t id, uint32_t code, void *u)
{
	struct fix *f = u;

	f->open--;
	return 0;
}

static void
srv_new(struct fix *f)
{
	nghttp2_session_callbacks *cb;
	nghttp2_settings_entry iv[2];
	nghttp2_option *opt;
	int n = 0;

	ck_assert_int_eq(nghttp2_session_callbacks_new(&cb), 0);
	nghttp2_session_callbacks_set_on_header_callback(cb, srv_header);
	nghttp2_session_callbacks_set_on_begin_headers_callback(cb,
	    srv_begin_headers);
	nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb,
	    srv_data);
	nghttp2_session_callbacks_set_on_frame_recv_callback(cb,
	    srv_frame_recv);
	nghttp2_session_callbacks_set_on_stream_close_callback(cb,
	    srv_stream_close);
	ck_assert_int_eq(nghttp2_option_new(&opt), 0);
	if (f->srv_window > 0)
		nghttp2_option_set_no_auto_window_update(opt, 1);
	ck_assert_int_eq(nghttp2_session_server_new2(&f->srv, cb, f, opt), 0);
	nghttp2_option_del(opt);
	nghttp2_session_callbacks_del(cb);
	if (f->srv_max > 0) {
		iv[n].settings_id = NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS;
		iv[n++].value = f->srv_max;
	}
	if (f->srv_window > 0) {
		iv[n].settings_id = NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE;
		iv[n++].value = f->srv_window;
	}
	ck_assert_int_eq(nghttp2_submit_settings(f->srv, NGHTTP2_FLAG_NONE,
	    iv, (size_t)n), 0);
}

/* Moves the server's bytes: accepts, reads all, writes all. */
static void
srv_pump(struct fix *f)
{
	uint8_t buf[65536];
	const uint8_t *p;
	ssize_t n, w;

	if (f->sfd < 0) {
		f->sfd = accept(f->lfd, NULL, NULL);
		if (f->sfd < 0)
			return;
		ck_assert_int_eq(fcntl(f->sfd, F_SETFL, O_NONBLOCK), 0);
		srv_new(f);
	}
	while ((n = read(f->sfd, buf, sizeof(buf))) > 0)
		ck_assert_int_eq(nghttp2_session_mem_recv(f->srv, buf,
		    (size_t)n), n);
	while ((n = nghttp2_session_mem_send(f->srv, &p)) > 0)
		while (n > 0) {
			w = write(f->sfd, p, (size_t)n);
			if (w < 0 && errno == EAGAIN) {
				struct pollfd pfd = { f->sfd, POLLOUT, 0 };

				(void)poll(&pfd, 1, 100);
				continue;
			}
			if (w < 0)
				return;		/* the client is gone */
			p += w;
			n -= w;
		}
}

static void
tick_fired(struct timer *t, uint64_t now)
{
}

static void
on_turn(struct loop *l, void *arg, uint64_t now)
{
	loop_stop(l);
}

/* One loop turn of the client (at most 5 ms), then the server's. */
static void
step(struct fix *f)
{
	timer_add(loop_timers(f->loop), &f->tick, clock_now() + 5000000);
	ck_assert_int_ne(loop_run(f->loop), -1);
	timer_cancel(&f->tick);
	srv_pump(f);
}

/* Steps until cond(f) holds; fails the test after STEPS turns. */
#define STEP_UNTIL(f, cond) do {					\
	int n_ = 0;							\
	while (!(cond)) {						\
		ck_assert_msg(++n_ < STEPS, "not reached: %s", #cond);	\
		step(f);						\
	}								\
} while (0)

static void
fix_init(struct fix *f, unsigned max_streams, uint32_t srv_max,
    const char *extra, const char *body)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	struct http_req_spec spec;
	size_t i;

	memset(f, 0, sizeof(*f));
	f->req = xcalloc(MAXS, sizeof(*f->req));
	f->sfd = -1;
	f->srv_max = srv_max;
	f->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	ck_assert_int_ge(f->lfd, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(f->lfd, (struct sockaddr *)&sin, sizeof(sin)),
	    0);
	ck_assert_int_eq(listen(f->lfd, 8), 0);
	ck_assert_int_eq(getsockname(f->lfd, (struct sockaddr *)&sin, &len),
	    0);

	memset(&spec, 0, sizeof(spec));
	spec.uri = "/x?y=1";
	spec.minor = 1;
	spec.host = "example.com:8080";
	spec.user_agent = "httperf/test";
	spec.extra = extra;
	spec.extra_len = extra != NULL ? strlen(extra) : 0;
	spec.method = body != NULL ? "POST" : NULL;
	spec.body = body;
	spec.body_len = body != NULL ? strlen(body) : 0;
	http_req_tmpl_init(&f->tmpl, &spec);

	memcpy(&f->cfg.addr, &sin, sizeof(sin));
	f->cfg.addrlen = sizeof(sin);
	f->cfg.max_line = 16384;
	f->cfg.max_head = 65536;
	f->cfg.timeout = 10 * CLOCK_NS_PER_SEC;
	f->cfg.prog = "check_h2";
	f->cfg.req = &f->tmpl;
	f->cfg.http2 = 1;
	f->cfg.max_streams = max_streams;
	unit_core_init(&f->core, &f->loop, &f->bus, &f->cfg);
	loop_on_turn(f->loop, on_turn, NULL);
	timer_init(&f->tick, tick_fired);
	for (i = 0; i < BUS_NEVENTS; i++)
		bus_subscribe(f->bus, (enum bus_event)i, ev, f);
}

/* Connects and queues n calls (the first `nhdr' with a Cookie line). */
static void
fix_start(struct fix *f, int n)
{
	static const struct iovec cookie = {
		.iov_base = (void *)"Cookie: a=b\r\n", .iov_len = 13,
	};
	struct call *call;
	int i;

	f->conn = conn_new(&f->core, loop_clock(f->loop));
	conn_ref(f->conn);
	conn_connect(f->conn, loop_clock(f->loop));
	for (i = 0; i < n; i++) {
		call = call_new(&f->core, 0);
		if (i == 0) {
			call->hdrs[0] = cookie;
			call->nhdrs = 1;
		}
		f->calls[f->ncalls++] = call;
		ck_assert_int_eq(conn_send(f->conn, call, 0), 0);
	}
}

static void
fix_fini(struct fix *f)
{
	int i;

	for (i = 0; i < f->ncalls; i++)
		call_unref(f->calls[i], 0);
	if (f->conn != NULL) {
		conn_close(f->conn, 0);
		conn_unref(f->conn, 0);
	}
	ck_assert_int_eq(f->destroyed, 1);
	unit_core_fini(&f->core);
	http_req_tmpl_free(&f->tmpl);
	if (f->srv != NULL)
		nghttp2_session_del(f->srv);
	if (f->sfd >= 0)
		close(f->sfd);
	close(f->lfd);
	free(f->req);
}

/* The server answers stream `id' with `status' and a body of `len'. */
static ssize_t
srv_body(nghttp2_session *s, int32_t id, uint8_t *buf, size_t len,
    uint32_t *flags, nghttp2_data_source *src, void *u)
{
	size_t *left = src->ptr;

	if (len > *left)
		len = *left;
	memset(buf, 'b', len);
	*left -= len;
	if (*left == 0)
		*flags |= NGHTTP2_DATA_FLAG_EOF;
	return (ssize_t)len;
}

static size_t body_left[MAXS];

static void
srv_reply(struct fix *f, int32_t id, const char *status, size_t len)
{
	nghttp2_nv nv[2] = {
		{ (uint8_t *)":status", (uint8_t *)status, 7, 3,
		    NGHTTP2_NV_FLAG_NONE },
		{ (uint8_t *)"server", (uint8_t *)"check", 6, 5,
		    NGHTTP2_NV_FLAG_NONE },
	};
	nghttp2_data_provider prd;

	body_left[id % MAXS] = len;
	prd.source.ptr = &body_left[id % MAXS];
	prd.read_callback = srv_body;
	ck_assert_int_eq(nghttp2_submit_response(f->srv, id, nv, 2,
	    len > 0 ? &prd : NULL), 0);
	sreq_of(f, id)->answered = 1;
	srv_pump(f);
}

/* Returns the value of field `name' of the server's request `r'. */
static const char *
field(const struct sreq *r, const char *name)
{
	int i;

	for (i = 0; i < r->nf; i++)
		if (strcmp(r->names[i], name) == 0)
			return r->values[i];
	return NULL;
}

static int
nended(const struct fix *f)
{
	int i, n = 0;

	for (i = 0; i < f->nreq; i++)
		n += f->req[i].ended;
	return n;
}

/* The request's fields, exactly: pseudo-headers first, names lowercased,
   Host as :authority, no connection-specific fields. */
START_TEST(request_fields)
{
	struct fix f;
	const struct sreq *r;

	fix_init(&f, 0, 0, "X-Custom: v1\r\nConnection: keep-alive\r\n"
	    "Accept:  text/html \r\n", NULL);
	fix_start(&f, 1);
	STEP_UNTIL(&f, nended(&f) == 1);
	r = &f.req[0];
	ck_assert_int_eq(r->id, 1);
	ck_assert_int_eq(r->nf, 8);
	ck_assert_str_eq(r->names[0], ":method");
	ck_assert_str_eq(r->values[0], "GET");
	ck_assert_str_eq(r->names[1], ":scheme");
	ck_assert_str_eq(r->values[1], "http");
	ck_assert_str_eq(r->names[2], ":authority");
	ck_assert_str_eq(r->values[2], "example.com:8080");
	ck_assert_str_eq(r->names[3], ":path");
	ck_assert_str_eq(r->values[3], "/x?y=1");
	ck_assert_str_eq(r->names[4], "user-agent");
	ck_assert_str_eq(r->values[4], "httperf/test");
	ck_assert_str_eq(r->names[5], "x-custom");
	ck_assert_str_eq(r->values[5], "v1");
	ck_assert_str_eq(r->names[6], "accept");
	ck_assert_str_eq(r->values[6], "text/html");
	ck_assert_str_eq(r->names[7], "cookie");
	ck_assert_str_eq(r->values[7], "a=b");
	ck_assert_ptr_null(field(r, "host"));
	ck_assert_ptr_null(field(r, "connection"));
	ck_assert_int_eq(f.send_start, 1);
	ck_assert_int_eq(f.send_stop, 1);

	srv_reply(&f, 1, "204", 0);
	STEP_UNTIL(&f, f.nreplied == 1);
	ck_assert_int_eq(f.status[0], 204);
	ck_assert_int_eq(f.recv_start, 1);
	/* "HTTP/2 204", "server: check", the empty line. */
	ck_assert_int_eq(f.hdr_lines, 3);
	ck_assert_uint_eq(f.calls[0]->hdr_bytes, 12 + 6 + 5 + 4 + 2);
	ck_assert_int_eq(f.ncall_failed, 0);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.streams, 1);
}
END_TEST

/* A body goes out in DATA frames with its content-length. */
START_TEST(request_body)
{
	struct fix f;
	const struct sreq *r;

	fix_init(&f, 0, 0, NULL, "0123456789abcdef");
	fix_start(&f, 2);
	STEP_UNTIL(&f, nended(&f) == 2);
	r = &f.req[0];
	ck_assert_str_eq(field(r, ":method"), "POST");
	ck_assert_str_eq(field(r, "content-length"), "16");
	ck_assert_uint_eq(r->body, 16);
	ck_assert_uint_eq(f.req[1].body, 16);
	STEP_UNTIL(&f, f.send_stop == 2);
	/* HEADERS then DATA (9 + 16). */
	ck_assert_uint_eq(f.calls[0]->req_body_len, 16);
	ck_assert_uint_ge(f.calls[0]->req_len, 9 + 9 + 16);
	srv_reply(&f, 1, "200", 3);
	srv_reply(&f, 3, "200", 3);
	STEP_UNTIL(&f, f.nreplied == 2);
	fix_fini(&f);
}
END_TEST

/*
 * The server's window holds the body; it answers anyway, then resets the
 * stream with NO_ERROR (it wants no more of the upload): a complete reply,
 * answered early, its request cut short, one flow-control stall.
 */
START_TEST(early_reply)
{
	static char body[100001];
	struct fix f;
	size_t got;
	int i;

	memset(body, 'q', sizeof(body) - 1);
	fix_init(&f, 0, 0, NULL, body);
	f.srv_window = 1000;
	fix_start(&f, 1);
	/* The default window (64 KiB) may go before our SETTINGS arrive. */
	STEP_UNTIL(&f, f.nreq == 1 && f.req[0].body >= 1000);
	for (i = 0; i < 5; i++)
		step(&f);
	got = f.req[0].body;
	for (i = 0; i < 5; i++)
		step(&f);
	ck_assert_uint_eq(f.req[0].body, got);
	ck_assert_uint_lt(got, 100000);
	srv_reply(&f, 1, "413", 5);
	ck_assert_int_eq(nghttp2_submit_rst_stream(f.srv, NGHTTP2_FLAG_NONE,
	    1, NGHTTP2_NO_ERROR), 0);
	srv_pump(&f);
	STEP_UNTIL(&f, f.nreplied == 1);
	ck_assert_int_eq(f.status[0], 413);
	ck_assert_int_eq(f.ncall_failed, 0);
	ck_assert_int_eq(f.calls[0]->early, 1);
	ck_assert_int_eq(f.calls[0]->cut, 1);
	ck_assert_int_eq(f.send_stop, 0);
	ck_assert_int_eq(f.nconn_failed, 0);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.stalls, 1);
	ck_assert_uint_eq(f.st.rst_recv, 1);
}
END_TEST

/* Replies complete by stream, in the server's order. */
START_TEST(out_of_order)
{
	struct fix f;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 3);
	STEP_UNTIL(&f, nended(&f) == 3);
	ck_assert_int_eq(f.open_max, 3);
	srv_reply(&f, 5, "200", 100);
	STEP_UNTIL(&f, f.nreplied == 1);
	srv_reply(&f, 1, "404", 0);
	srv_reply(&f, 3, "302", 50000);
	STEP_UNTIL(&f, f.nreplied == 3);
	ck_assert_int_eq(f.replied[0], 2);
	ck_assert_int_eq(f.replied[1], 0);
	ck_assert_int_eq(f.replied[2], 1);
	ck_assert_int_eq(f.status[0], 404);
	ck_assert_int_eq(f.status[1], 302);
	ck_assert_int_eq(f.status[2], 200);
	ck_assert_uint_eq(f.calls[1]->body_bytes, 50000);
	ck_assert_uint_eq(f.body_bytes, 50100);
	ck_assert_uint_eq(conn_pending(f.conn), 0);
	ck_assert_int_eq(f.ncall_failed, 0);
	ck_assert_int_eq(f.nconn_failed, 0);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.streams, 3);
	ck_assert_uint_eq(f.st.max_concurrent, 3);
}
END_TEST

/* RST_STREAM: that stream fails (reset, or refused), the rest go on. */
START_TEST(rst_stream)
{
	struct fix f;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 3);
	STEP_UNTIL(&f, nended(&f) == 3);
	ck_assert_int_eq(nghttp2_submit_rst_stream(f.srv, NGHTTP2_FLAG_NONE,
	    3, NGHTTP2_CANCEL), 0);
	ck_assert_int_eq(nghttp2_submit_rst_stream(f.srv, NGHTTP2_FLAG_NONE,
	    5, NGHTTP2_REFUSED_STREAM), 0);
	srv_pump(&f);
	STEP_UNTIL(&f, f.ncall_failed == 2);
	ck_assert_int_eq(f.failed[1], H2_ERR_RESET);
	ck_assert_int_eq(f.failed[2], H2_ERR_REFUSED);
	ck_assert_int_eq(f.failed[0], 0);
	ck_assert_uint_eq(conn_pending(f.conn), 1);
	srv_reply(&f, 1, "200", 10);
	STEP_UNTIL(&f, f.nreplied == 1);
	ck_assert_int_eq(f.nconn_failed, 0);
	ck_assert_int_eq(f.closed, 0);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.rst_recv, 2);
}
END_TEST

/* A graceful GOAWAY: the streams above its last id are refused, the
   rest complete, then the connection closes without a failure. */
START_TEST(goaway_graceful)
{
	struct fix f;
	struct call *extra;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 3);
	STEP_UNTIL(&f, nended(&f) == 3);
	ck_assert_int_eq(nghttp2_submit_goaway(f.srv, NGHTTP2_FLAG_NONE, 1,
	    NGHTTP2_NO_ERROR, NULL, 0), 0);
	srv_pump(&f);
	STEP_UNTIL(&f, f.ncall_failed == 2);
	ck_assert_int_eq(f.failed[1], H2_ERR_REFUSED);
	ck_assert_int_eq(f.failed[2], H2_ERR_REFUSED);
	/* No new stream on it. */
	extra = call_new(&f.core, 0);
	ck_assert_int_eq(conn_send(f.conn, extra, 0), -1);
	call_unref(extra, 0);
	srv_reply(&f, 1, "200", 10);
	STEP_UNTIL(&f, f.closed == 1);
	ck_assert_int_eq(f.nreplied, 1);
	ck_assert_int_eq(f.nconn_failed, 0);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.goaway_recv, 1);
}
END_TEST

/* GOAWAY with an error, then the close: every stream lost counts as
   goaway, the last through the connection's failure. */
START_TEST(goaway_error)
{
	struct fix f;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 3);
	STEP_UNTIL(&f, nended(&f) == 3);
	ck_assert_int_eq(nghttp2_submit_goaway(f.srv, NGHTTP2_FLAG_NONE, 1,
	    NGHTTP2_ENHANCE_YOUR_CALM, NULL, 0), 0);
	srv_pump(&f);
	STEP_UNTIL(&f, f.ncall_failed == 2);
	shutdown(f.sfd, SHUT_RDWR);
	STEP_UNTIL(&f, f.closed == 1);
	ck_assert_int_eq(f.failed[1], H2_ERR_GOAWAY);
	ck_assert_int_eq(f.failed[2], H2_ERR_GOAWAY);
	ck_assert_int_eq(f.nconn_failed, 1);
	ck_assert_int_eq(f.conn_failed, H2_ERR_GOAWAY);
	ck_assert_int_eq(f.nreplied, 0);
	fix_fini(&f);
}
END_TEST

/* --max-streams 2: five calls, never more than two streams at once. */
START_TEST(max_streams)
{
	struct fix f;
	int i;

	fix_init(&f, 2, 0, NULL, NULL);
	fix_start(&f, 5);
	STEP_UNTIL(&f, nended(&f) == 2);
	for (i = 0; i < 5; i++)
		step(&f);
	ck_assert_int_eq(f.send_start, 2);
	ck_assert_int_eq(f.nreq, 2);
	for (i = 0; i < 5; i++) {
		srv_reply(&f, f.req[i].id, "200", 1);
		STEP_UNTIL(&f, f.nreplied == i + 1);
		if (i < 3)
			STEP_UNTIL(&f, nended(&f) == i + 3);
	}
	ck_assert_int_eq(f.open_max, 2);
	ck_assert_int_eq(f.send_start, 5);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(f.replied[i], i);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.max_concurrent, 2);
	ck_assert_uint_eq(f.st.streams, 5);
}
END_TEST

/* The server's SETTINGS_MAX_CONCURRENT_STREAMS 1 holds without
   --max-streams. */
START_TEST(server_limit)
{
	struct fix f;
	int i;

	fix_init(&f, 0, 1, NULL, NULL);
	fix_start(&f, 3);
	STEP_UNTIL(&f, nended(&f) >= 1);
	for (i = 0; i < 3; i++) {
		srv_reply(&f, f.req[i].id, "200", 1);
		STEP_UNTIL(&f, f.nreplied == i + 1);
		if (i < 2)
			STEP_UNTIL(&f, nended(&f) == i + 2);
	}
	ck_assert_int_eq(f.open_max, 1);
	ck_assert_int_eq(f.ncall_failed, 0);
	fix_fini(&f);
}
END_TEST

/*
 * Starts n calls and checks that exactly `open' go out as streams at once
 * (the rest wait on the connection), then answers them all: every call
 * replied, none refused by the server, never more than `open' open.
 */
static void
limit_check(struct fix *f, int n, int open)
{
	int i;

	fix_start(f, n);
	STEP_UNTIL(f, nended(f) == open);
	for (i = 0; i < 5; i++)
		step(f);
	ck_assert_int_eq(f->nreq, open);
	ck_assert_int_eq(f->send_start, open);
	ck_assert_int_eq(f->open, open);
	ck_assert_uint_eq(conn_pending(f->conn), (size_t)n);
	/* Each answer lets one more go; all answered in request order. */
	for (i = 0; i < n; i++) {
		STEP_UNTIL(f, f->nreq > i);
		srv_reply(f, f->req[i].id, "200", 0);
	}
	STEP_UNTIL(f, f->nreplied == n);
	ck_assert_int_eq(f->open_max, open);
	ck_assert_int_eq(f->send_start, n);
	ck_assert_int_eq(f->ncall_failed, 0);
	ck_assert_int_eq(f->nconn_failed, 0);
	ck_assert_uint_eq(conn_pending(f->conn), 0);
	fix_fini(f);
	ck_assert_uint_eq(f->st.streams, (uint64_t)n);
	ck_assert_uint_eq(f->st.max_concurrent, (uint64_t)open);
	ck_assert_uint_eq(f->st.rst_recv, 0);
}

/* The server sets no SETTINGS_MAX_CONCURRENT_STREAMS: 100 at a time. */
START_TEST(default_limit)
{
	struct fix f;

	fix_init(&f, 0, 0, NULL, NULL);
	limit_check(&f, 150, H2_DEFAULT_STREAMS);
}
END_TEST

/*
 * The server's limit above the default (300) is used as it is.  The
 * first stream may go out before the server's SETTINGS arrive; the
 * others wait for them, so no stream is refused.
 */
START_TEST(server_limit_high)
{
	struct fix f;

	fix_init(&f, 0, 300, NULL, NULL);
	limit_check(&f, 310, 300);
}
END_TEST

/* --max-streams below the server's limit wins. */
START_TEST(max_streams_below_server)
{
	struct fix f;

	fix_init(&f, 7, 50, NULL, NULL);
	limit_check(&f, 20, 7);
}
END_TEST

/* The server closes with three streams in flight: three errors. */
START_TEST(dies_in_flight)
{
	struct fix f;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 3);
	STEP_UNTIL(&f, nended(&f) == 3);
	close(f.sfd);
	f.sfd = -2;		/* not accepted again */
	STEP_UNTIL(&f, f.closed == 1);
	ck_assert_int_eq(f.ncall_failed, 2);
	ck_assert_int_eq(f.nconn_failed, 1);
	ck_assert_int_eq(f.conn_failed, ECONNRESET);
	fix_fini(&f);
}
END_TEST

/* Bytes that are not HTTP/2: a protocol error for each stream. */
START_TEST(not_h2)
{
	static const char junk[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n"
	    "\r\n";
	struct fix f;
	int fd;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 2);
	STEP_UNTIL(&f, nended(&f) == 2);
	fd = f.sfd;
	ck_assert_int_eq(write(fd, junk, sizeof(junk) - 1),
	    (ssize_t)sizeof(junk) - 1);
	STEP_UNTIL(&f, f.closed == 1);
	ck_assert_int_eq(f.ncall_failed, 1);
	ck_assert_int_eq(f.failed[0], H2_ERR_PROTOCOL);
	ck_assert_int_eq(f.nconn_failed, 1);
	ck_assert_int_eq(f.conn_failed, H2_ERR_PROTOCOL);
	ck_assert_int_eq(f.nreplied, 0);
	fix_fini(&f);
}
END_TEST

/*
 * The server sets no limit: --max-streams 200 is used as it is (it was
 * cut to the default of 100).
 */
START_TEST(max_streams_no_server_limit)
{
	struct fix f;

	fix_init(&f, 200, 0, NULL, NULL);
	limit_check(&f, 210, 200);
}
END_TEST

/*
 * 300 streams answered in reverse order, then a batch from the middle:
 * each completes its own call, and the connection's queue holds exactly
 * the calls not yet answered after each (the queue is walked to count).
 */
START_TEST(reverse_order)
{
	struct fix f;
	int i, n = 300;

	fix_init(&f, 0, 300, NULL, NULL);
	fix_start(&f, n);
	STEP_UNTIL(&f, nended(&f) == n);
	/* The middle third first, last to first. */
	for (i = 2 * n / 3 - 1; i >= n / 3; i--)
		srv_reply(&f, 2 * i + 1, "200", 1);
	STEP_UNTIL(&f, f.nreplied == n / 3);
	ck_assert_uint_eq(conn_pending(f.conn), (size_t)(n - n / 3));
	for (i = n - 1; i >= 2 * n / 3; i--)
		srv_reply(&f, 2 * i + 1, "200", 1);
	for (i = n / 3 - 1; i >= 0; i--)
		srv_reply(&f, 2 * i + 1, "200", 1);
	STEP_UNTIL(&f, f.nreplied == n);
	for (i = 0; i < n / 3; i++)
		ck_assert_int_eq(f.replied[i], 2 * n / 3 - 1 - i);
	for (i = n / 3; i < 2 * n / 3; i++)
		ck_assert_int_eq(f.replied[i], n - 1 - (i - n / 3));
	for (i = 2 * n / 3; i < n; i++)
		ck_assert_int_eq(f.replied[i], n / 3 - 1 - (i - 2 * n / 3));
	for (i = 0; i < n; i++)
		ck_assert_int_eq(f.status[i], 200);
	ck_assert_uint_eq(conn_pending(f.conn), 0);
	ck_assert_int_eq(f.ncall_failed, 0);
	/* And the connection takes more. */
	f.calls[f.ncalls] = call_new(&f.core, 0);
	ck_assert_int_eq(conn_send(f.conn, f.calls[f.ncalls++], 0), 0);
	STEP_UNTIL(&f, nended(&f) == n + 1);
	srv_reply(&f, 2 * n + 1, "204", 0);
	STEP_UNTIL(&f, f.nreplied == n + 1);
	ck_assert_uint_eq(conn_pending(f.conn), 0);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.streams, (uint64_t)n + 1);
}
END_TEST

/*
 * RFC 9113 8.1: the server answers 413 with END_STREAM while its window
 * holds the body, and sends no RST_STREAM.  The reply is complete at
 * END_STREAM; the rest of the body is not sent (our RST_STREAM
 * NO_ERROR), and counted: req_len - req_sent is the body not sent and
 * its frame headers.
 */
START_TEST(early_end_stream)
{
	static char body[100001];
	struct fix f;
	struct call *call;
	size_t got, left;
	int i;

	memset(body, 'q', sizeof(body) - 1);
	fix_init(&f, 0, 0, NULL, body);
	f.srv_window = 1000;
	fix_start(&f, 1);
	STEP_UNTIL(&f, f.nreq == 1 && f.req[0].body >= 1000);
	for (i = 0; i < 5; i++)
		step(&f);
	got = f.req[0].body;
	ck_assert_uint_lt(got, 100000);
	srv_reply(&f, 1, "413", 5);
	STEP_UNTIL(&f, f.nreplied == 1);
	call = f.calls[0];
	ck_assert_int_eq(f.status[0], 413);
	ck_assert_int_eq(call->early, 1);
	ck_assert_int_eq(call->cut, 1);
	ck_assert_uint_eq(call->body_bytes, 5);
	left = 100000 - got;
	ck_assert_uint_eq(call->req_len - call->req_sent,
	    left + 9 * ((left + 16383) / 16384));
	STEP_UNTIL(&f, f.req[0].rst);
	ck_assert_uint_eq(f.req[0].rst_code, NGHTTP2_NO_ERROR);
	ck_assert_uint_eq(f.req[0].body, got);
	ck_assert_int_eq(f.ncall_failed, 0);
	ck_assert_int_eq(f.nconn_failed, 0);
	fix_fini(&f);
	ck_assert_uint_eq(f.st.rst_sent, 1);
	ck_assert_uint_eq(f.st.rst_recv, 0);
}
END_TEST

/* :status 600-999 is no reply (as on HTTP/1.1): the stream fails. */
START_TEST(status_range)
{
	struct fix f;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 3);
	STEP_UNTIL(&f, nended(&f) == 3);
	srv_reply(&f, 1, "600", 0);
	srv_reply(&f, 3, "999", 4);
	srv_reply(&f, 5, "599", 0);
	STEP_UNTIL(&f, f.nreplied + f.ncall_failed == 3);
	ck_assert_int_eq(f.nreplied, 1);
	ck_assert_int_eq(f.status[2], 599);
	ck_assert_int_eq(f.ncall_failed, 2);
	ck_assert_int_eq(f.failed[0], H2_ERR_PROTOCOL);
	ck_assert_int_eq(f.failed[1], H2_ERR_PROTOCOL);
	ck_assert_int_eq(f.nconn_failed, 0);
	fix_fini(&f);
}
END_TEST

/* The server sends `n' 100 (Continue) heads on stream `id'. */
static void
srv_interim(struct fix *f, int32_t id, int n)
{
	nghttp2_nv nv = { (uint8_t *)":status", (uint8_t *)"100", 7, 3,
	    NGHTTP2_NV_FLAG_NONE };
	int i;

	for (i = 0; i < n; i++)
		ck_assert_int_eq(nghttp2_submit_headers(f->srv,
		    NGHTTP2_FLAG_NONE, id, NULL, &nv, 1, NULL), 0);
	srv_pump(f);
}

/* 100 interim heads and the reply: a reply; 101: the stream fails. */
START_TEST(interim_cap)
{
	struct fix f;

	fix_init(&f, 0, 0, NULL, NULL);
	fix_start(&f, 2);
	STEP_UNTIL(&f, nended(&f) == 2);
	srv_interim(&f, 1, 100);
	srv_reply(&f, 1, "200", 3);
	srv_interim(&f, 3, 101);
	srv_reply(&f, 3, "200", 3);
	STEP_UNTIL(&f, f.nreplied + f.ncall_failed == 2);
	ck_assert_int_eq(f.nreplied, 1);
	ck_assert_int_eq(f.status[0], 200);
	ck_assert_int_eq(f.failed[1], H2_ERR_PROTOCOL);
	ck_assert_int_eq(f.nconn_failed, 0);
	fix_fini(&f);
}
END_TEST

/*
 * --timeout 0.3 s: the server answers stream 3 and never stream 1, but
 * sends a PING every turn.  Stream 1 times out alone at about 0.3 s
 * (client-timo), reset with CANCEL; the connection lives on.
 */
START_TEST(stream_timeout)
{
	struct fix f;
	uint64_t t0, dt;

	fix_init(&f, 0, 0, NULL, NULL);
	f.core.cfg.timeout = 300 * CLOCK_NS_PER_MSEC;
	fix_start(&f, 2);
	STEP_UNTIL(&f, nended(&f) == 2);
	t0 = clock_now();
	srv_reply(&f, 3, "200", 10);
	STEP_UNTIL(&f, f.nreplied == 1);
	while (f.ncall_failed == 0) {
		ck_assert_uint_lt(clock_now() - t0, 3 * CLOCK_NS_PER_SEC);
		ck_assert_int_eq(nghttp2_submit_ping(f.srv, NGHTTP2_FLAG_NONE,
		    NULL), 0);
		srv_pump(&f);
		step(&f);
	}
	dt = clock_now() - t0;
	ck_assert_uint_ge(dt, 250 * CLOCK_NS_PER_MSEC);
	ck_assert_int_eq(f.failed[0], H2_ERR_TIMEOUT);
	ck_assert_int_eq(f.replied[0], 1);
	STEP_UNTIL(&f, f.req[0].rst);
	ck_assert_uint_eq(f.req[0].rst_code, NGHTTP2_CANCEL);
	ck_assert_int_eq(f.nconn_failed, 0);
	ck_assert_int_eq(f.closed, 0);
	ck_assert_uint_eq(conn_pending(f.conn), 0);
	fix_fini(&f);
}
END_TEST

static Suite *
h2_suite(void)
{
	Suite *s = suite_create("h2");
	TCase *tc = tcase_create("streams");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, request_fields);
	tcase_add_test(tc, request_body);
	tcase_add_test(tc, early_reply);
	tcase_add_test(tc, out_of_order);
	tcase_add_test(tc, rst_stream);
	tcase_add_test(tc, goaway_graceful);
	tcase_add_test(tc, goaway_error);
	tcase_add_test(tc, max_streams);
	tcase_add_test(tc, server_limit);
	tcase_add_test(tc, default_limit);
	tcase_add_test(tc, server_limit_high);
	tcase_add_test(tc, max_streams_below_server);
	tcase_add_test(tc, dies_in_flight);
	tcase_add_test(tc, not_h2);
	tcase_add_test(tc, max_streams_no_server_limit);
	tcase_add_test(tc, reverse_order);
	tcase_add_test(tc, early_end_stream);
	tcase_add_test(tc, status_range);
	tcase_add_test(tc, interim_cap);
	tcase_add_test(tc, stream_timeout);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(h2_suite());
}
