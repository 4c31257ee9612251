/*
 * Unit tests for --print-request / --print-reply: golden output for calls
 * whose events are signalled by hand, with body pieces split at every
 * offset, chunked replies with trailers, pipelined calls, request bodies,
 * partial last lines, CRs and NULs in bodies, and each set of flags.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/loop.h"
#include "lib/util.h"
#include "net/http_req.h"
#include "stat/print.h"
#include "unit.h"

#define BOTH	(PRINT_HEADER | PRINT_BODY)

/* A core, its bus, a template and the printer writing to memory. */
struct fix {
	struct loop	*loop;
	struct bus	*bus;
	struct http_req_tmpl tmpl;
	struct core	 core;
	struct print	 pr;
	FILE		*out;
	char		*text;
	size_t		 tlen;
};

/* `body': the run's body (--method POST with a template body), or NULL. */
static void
fix_init(struct fix *f, const char *body, int req_flags, int reply_flags)
{
	struct core_config cfg;

	memset(f, 0, sizeof(*f));
	unit_req_tmpl(&f->tmpl, body);
	memset(&cfg, 0, sizeof(cfg));
	cfg.req = &f->tmpl;
	unit_core_init(&f->core, &f->loop, &f->bus, &cfg);
	f->out = open_memstream(&f->text, &f->tlen);
	ck_assert_ptr_nonnull(f->out);
	print_init(&f->pr, &f->core, req_flags, reply_flags, f->out);
}

static void
fix_fini(struct fix *f)
{
	print_fini(&f->pr);
	print_fini(&f->pr);
	unit_core_fini(&f->core);
	http_req_tmpl_free(&f->tmpl);
	fclose(f->out);
	free(f->text);
}

/* Compares everything printed so far with `want' (`wlen' bytes). */
static void
expect_n(struct fix *f, const char *want, size_t wlen)
{
	fflush(f->out);
	ck_assert_msg(f->tlen == wlen && memcmp(f->text, want, wlen) == 0,
	    "got (%zu bytes):\n%.*s\nwant (%zu bytes):\n%.*s", f->tlen,
	    (int)f->tlen, f->text, wlen, (int)wlen, want);
}

static void
expect(struct fix *f, const char *want)
{
	expect_n(f, want, strlen(want));
}

static void
sig(struct fix *f, enum bus_event ev, struct call *c, const char *p,
    size_t len)
{
	union bus_arg arg;

	arg.buf.p = p;
	arg.buf.len = len;
	bus_signal(f->bus, ev, c, arg, 0);
}

/*
 * Creates a call and lays out its request as the connection does.  NULL
 * method: the run's; `hdr': one extra header line or NULL; `body': the
 * call's own body or NULL.
 */
static struct call *
req_new(struct fix *f, const char *method, const char *hdr, const char *body)
{
	struct call *c = call_new(&f->core, 0);
	size_t i;

	if (method != NULL) {
		c->method = method;
		c->method_len = strlen(method);
	}
	if (hdr != NULL) {
		c->hdrs[0].iov_base = (void *)hdr;
		c->hdrs[0].iov_len = strlen(hdr);
		c->nhdrs = 1;
	}
	if (body != NULL) {
		c->body = body;
		c->body_len = strlen(body);
	}
	c->iovcnt = http_req_iov(&f->tmpl, c->method, c->method_len, c->uri,
	    c->uri_len, c->hdrs, c->nhdrs, c->body, c->body_len, c->iov,
	    CALL_MAX_IOV);
	ck_assert_uint_gt(c->iovcnt, 0);
	for (i = 0; i < c->iovcnt; i++)
		c->req_len += c->iov[i].iov_len;
	c->req_body_len = c->body != NULL ? c->body_len : f->tmpl.body_len;
	return c;
}

/* Writes the request: start, iovecs used up (as writes do), stop. */
static void
req_send(struct fix *f, struct call *c)
{
	size_t i;

	sig(f, BUS_CALL_SEND_START, c, NULL, 0);
	for (i = 0; i < c->iovcnt; i++) {
		c->iov[i].iov_base = (char *)c->iov[i].iov_base +
		    c->iov[i].iov_len;
		c->iov[i].iov_len = 0;
	}
	c->iov_idx = c->iovcnt;
	c->req_sent = c->req_len;
	sig(f, BUS_CALL_SEND_STOP, c, NULL, 0);
}

/* Signals the header lines, `\n'-separated in `lines'. */
static void
reply_hdr(struct fix *f, struct call *c, enum bus_event ev,
    const char *lines)
{
	const char *nl;

	while ((nl = strchr(lines, '\n')) != NULL) {
		sig(f, ev, c, lines, (size_t)(nl - lines));
		lines = nl + 1;
	}
}

static void
reply_stop(struct fix *f, struct call *c, uint64_t hdr, uint64_t body,
    uint64_t footer)
{
	c->replied = 1;
	c->hdr_bytes = hdr;
	c->body_bytes = body;
	c->footer_bytes = footer;
	sig(f, BUS_CALL_RECV_STOP, c, NULL, 0);
}

static const char get_lines[] =
    "SH0:GET / HTTP/1.1\n"
    "SH0:User-Agent: httperf/test\n"
    "SH0:Host: localhost\n"
    "SH0:\n"
    "SS0: header 61 content 0\n";

START_TEST(plain_every_split)
{
	static const char body[] = "hello\nworld\n";
	static const char want[] =
	    "SH0:GET / HTTP/1.1\n"
	    "SH0:User-Agent: httperf/test\n"
	    "SH0:Host: localhost\n"
	    "SH0:\n"
	    "SS0: header 61 content 0\n"
	    "RH0:HTTP/1.1 200 OK\n"
	    "RH0:Content-Length: 12\n"
	    "RH0:\n"
	    "RB0:hello\n"
	    "RB0:world\n"
	    "RS0: header 39 content 12 footer 0\n";
	size_t len = sizeof(body) - 1, a, b;
	struct fix f;
	struct call *c;

	for (a = 0; a <= len; a++) {
		for (b = a; b <= len; b++) {
			fix_init(&f, NULL, BOTH, BOTH);
			c = req_new(&f, NULL, NULL, NULL);
			req_send(&f, c);
			reply_hdr(&f, c, BUS_CALL_RECV_HDR,
			    "HTTP/1.1 200 OK\nContent-Length: 12\n\n");
			sig(&f, BUS_CALL_RECV_DATA, c, body, a);
			sig(&f, BUS_CALL_RECV_DATA, c, body + a, b - a);
			sig(&f, BUS_CALL_RECV_DATA, c, body + b, len - b);
			reply_stop(&f, c, 39, 12, 0);
			call_unref(c, 0);
			expect(&f, want);
			fix_fini(&f);
		}
	}
}
END_TEST

START_TEST(byte_by_byte)
{
	static const char body[] = "one\ntwo\n\nthree";
	struct fix f;
	struct call *c;
	size_t i;

	fix_init(&f, NULL, 0, PRINT_BODY);
	c = req_new(&f, NULL, NULL, NULL);
	req_send(&f, c);
	reply_hdr(&f, c, BUS_CALL_RECV_HDR, "HTTP/1.1 200 OK\n\n");
	for (i = 0; i < sizeof(body) - 1; i++)
		sig(&f, BUS_CALL_RECV_DATA, c, body + i, 1);
	reply_stop(&f, c, 19, sizeof(body) - 1, 0);
	call_unref(c, 0);
	expect(&f,
	    "RB0:one\n"
	    "RB0:two\n"
	    "RB0:\n"
	    "RB0:three\n"
	    "RS0: header 19 content 14 footer 0\n");
	fix_fini(&f);
}
END_TEST

START_TEST(chunked_trailer)
{
	/* De-chunked pieces, a body without a final LF, then a trailer. */
	static const char body[] = "hello\nworld";
	static const char want[] =
	    "RH0:HTTP/1.1 200 OK\n"
	    "RH0:Transfer-Encoding: chunked\n"
	    "RH0:\n"
	    "RB0:hello\n"
	    "RB0:world\n"
	    "RT0:X-Trailer: 1\n"
	    "RT0:\n"
	    "RS0: header 47 content 11 footer 16\n";
	size_t len = sizeof(body) - 1, a, b;
	struct fix f;
	struct call *c;

	for (a = 0; a <= len; a++) {
		for (b = a; b <= len; b++) {
			fix_init(&f, NULL, 0, BOTH);
			c = req_new(&f, NULL, NULL, NULL);
			req_send(&f, c);
			reply_hdr(&f, c, BUS_CALL_RECV_HDR,
			    "HTTP/1.1 200 OK\n"
			    "Transfer-Encoding: chunked\n\n");
			sig(&f, BUS_CALL_RECV_DATA, c, body, a);
			sig(&f, BUS_CALL_RECV_DATA, c, body + a, b - a);
			sig(&f, BUS_CALL_RECV_DATA, c, body + b, len - b);
			reply_hdr(&f, c, BUS_CALL_RECV_FOOTER,
			    "X-Trailer: 1\n\n");
			reply_stop(&f, c, 47, 11, 16);
			call_unref(c, 0);
			expect(&f, want);
			fix_fini(&f);
		}
	}
}
END_TEST

START_TEST(chunked_flags)
{
	static const char body[] = "a\nb";
	struct fix f;
	struct call *c;
	int flags;

	for (flags = PRINT_HEADER; flags <= PRINT_BODY; flags++) {
		fix_init(&f, NULL, 0, flags);
		c = req_new(&f, NULL, NULL, NULL);
		req_send(&f, c);
		reply_hdr(&f, c, BUS_CALL_RECV_HDR, "HTTP/1.1 200 OK\n\n");
		sig(&f, BUS_CALL_RECV_DATA, c, body, 3);
		reply_hdr(&f, c, BUS_CALL_RECV_FOOTER, "T: 1\n\n");
		reply_stop(&f, c, 19, 3, 8);
		call_unref(c, 0);
		if (flags == PRINT_HEADER)
			expect(&f,
			    "RH0:HTTP/1.1 200 OK\n"
			    "RH0:\n"
			    "RT0:T: 1\n"
			    "RT0:\n"
			    "RS0: header 19 content 3 footer 8\n");
		else
			expect(&f,
			    "RB0:a\n"
			    "RB0:b\n"
			    "RS0: header 19 content 3 footer 8\n");
		fix_fini(&f);
	}
}
END_TEST

START_TEST(pipelined)
{
	struct fix f;
	struct call *c0, *c1;

	fix_init(&f, NULL, PRINT_HEADER, BOTH);
	c0 = req_new(&f, NULL, NULL, NULL);
	c1 = req_new(&f, "HEAD", NULL, NULL);
	req_send(&f, c0);
	req_send(&f, c1);
	reply_hdr(&f, c0, BUS_CALL_RECV_HDR, "HTTP/1.1 200 OK\n\n");
	reply_hdr(&f, c1, BUS_CALL_RECV_HDR, "HTTP/1.1 404 Not Found\n\n");
	/* Pieces of both replies, interleaved: nothing may mix. */
	sig(&f, BUS_CALL_RECV_DATA, c0, "ab", 2);
	sig(&f, BUS_CALL_RECV_DATA, c1, "xy", 2);
	sig(&f, BUS_CALL_RECV_DATA, c0, "c\nd", 3);
	sig(&f, BUS_CALL_RECV_DATA, c1, "z\n", 2);
	reply_stop(&f, c1, 26, 3, 0);
	reply_stop(&f, c0, 19, 4, 0);
	call_unref(c0, 0);
	call_unref(c1, 0);
	expect(&f,
	    "SH0:GET / HTTP/1.1\n"
	    "SH0:User-Agent: httperf/test\n"
	    "SH0:Host: localhost\n"
	    "SH0:\n"
	    "SS0: header 61 content 0\n"
	    "SH1:HEAD / HTTP/1.1\n"
	    "SH1:User-Agent: httperf/test\n"
	    "SH1:Host: localhost\n"
	    "SH1:\n"
	    "SS1: header 62 content 0\n"
	    "RH0:HTTP/1.1 200 OK\n"
	    "RH0:\n"
	    "RH1:HTTP/1.1 404 Not Found\n"
	    "RH1:\n"
	    "RB0:abc\n"
	    "RB1:xyz\n"
	    "RS1: header 26 content 3 footer 0\n"
	    "RB0:d\n"
	    "RS0: header 19 content 4 footer 0\n");
	fix_fini(&f);
}
END_TEST

START_TEST(post_call_body)
{
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, BOTH, PRINT_HEADER);
	c = req_new(&f, "POST", "Content-Length: 12\r\n", "x=1&y=2\r\nz=3");
	req_send(&f, c);
	reply_hdr(&f, c, BUS_CALL_RECV_HDR, "HTTP/1.1 204 No Content\n\n");
	reply_stop(&f, c, 27, 0, 0);
	call_unref(c, 0);
	expect(&f,
	    "SH0:POST / HTTP/1.1\n"
	    "SH0:User-Agent: httperf/test\n"
	    "SH0:Host: localhost\n"
	    "SH0:Content-Length: 12\n"
	    "SH0:\n"
	    "SB0:x=1&y=2\r\n"
	    "SB0:z=3\n"
	    "SS0: header 82 content 12\n"
	    "RH0:HTTP/1.1 204 No Content\n"
	    "RH0:\n"
	    "RS0: header 27 content 0 footer 0\n");
	fix_fini(&f);
}
END_TEST

START_TEST(post_template_body)
{
	struct fix f;
	struct call *c;
	int flags;

	for (flags = PRINT_HEADER; flags <= BOTH; flags++) {
		fix_init(&f, "a=b\nc=d\n", flags, 0);
		c = req_new(&f, NULL, NULL, NULL);	/* fast path */
		req_send(&f, c);
		c->replied = 1;
		sig(&f, BUS_CALL_RECV_STOP, c, NULL, 0);
		call_unref(c, 0);
		c = req_new(&f, "PUT", NULL, NULL);	/* iovec path */
		req_send(&f, c);
		call_unref(c, 0);
		if (flags == PRINT_HEADER)
			expect(&f,
			    "SH0:GET / HTTP/1.1\n"
			    "SH0:User-Agent: httperf/test\n"
			    "SH0:Host: localhost\n"
			    "SH0:Content-Length: 8\n"
			    "SH0:\n"
			    "SS0: header 80 content 8\n"
			    "SH1:PUT / HTTP/1.1\n"
			    "SH1:User-Agent: httperf/test\n"
			    "SH1:Host: localhost\n"
			    "SH1:Content-Length: 8\n"
			    "SH1:\n"
			    "SS1: header 80 content 8\n");
		else if (flags == PRINT_BODY)
			expect(&f,
			    "SB0:a=b\n"
			    "SB0:c=d\n"
			    "SS0: header 80 content 8\n"
			    "SB1:a=b\n"
			    "SB1:c=d\n"
			    "SS1: header 80 content 8\n");
		else
			expect(&f,
			    "SH0:GET / HTTP/1.1\n"
			    "SH0:User-Agent: httperf/test\n"
			    "SH0:Host: localhost\n"
			    "SH0:Content-Length: 8\n"
			    "SH0:\n"
			    "SB0:a=b\n"
			    "SB0:c=d\n"
			    "SS0: header 80 content 8\n"
			    "SH1:PUT / HTTP/1.1\n"
			    "SH1:User-Agent: httperf/test\n"
			    "SH1:Host: localhost\n"
			    "SH1:Content-Length: 8\n"
			    "SH1:\n"
			    "SB1:a=b\n"
			    "SB1:c=d\n"
			    "SS1: header 80 content 8\n");
		fix_fini(&f);
	}
}
END_TEST

START_TEST(request_bare_lf)
{
	/* --add-header's \a escape puts a bare LF into the header. */
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, PRINT_HEADER, 0);
	c = req_new(&f, NULL, "X-A: 1\nX-B: 2\r\n", NULL);
	req_send(&f, c);
	call_unref(c, 0);
	expect(&f,
	    "SH0:GET / HTTP/1.1\n"
	    "SH0:User-Agent: httperf/test\n"
	    "SH0:Host: localhost\n"
	    "SH0:X-A: 1\n"
	    "SH0:X-B: 2\n"
	    "SH0:\n"
	    "SS0: header 76 content 0\n");
	fix_fini(&f);
}
END_TEST

START_TEST(body_cr_nul)
{
	/* Body bytes are shown as they are: CRs and NULs included. */
	static const char body[] = "a\r\nb\0c\r\n\r\nd\r";
	static const char want[] =
	    "RB0:a\r\n"
	    "RB0:b\0c\r\n"
	    "RB0:\r\n"
	    "RB0:d\r\n"
	    "RS0: header 19 content 12 footer 0\n";
	struct fix f;
	struct call *c;
	size_t a;

	for (a = 0; a < sizeof(body); a++) {
		fix_init(&f, NULL, 0, PRINT_BODY);
		c = req_new(&f, NULL, NULL, NULL);
		req_send(&f, c);
		sig(&f, BUS_CALL_RECV_DATA, c, body, a);
		sig(&f, BUS_CALL_RECV_DATA, c, body + a, sizeof(body) - 1 - a);
		reply_stop(&f, c, 19, sizeof(body) - 1, 0);
		call_unref(c, 0);
		expect_n(&f, want, sizeof(want) - 1);
		fix_fini(&f);
	}
}
END_TEST

START_TEST(interim)
{
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, 0, PRINT_HEADER);
	c = req_new(&f, NULL, NULL, NULL);
	req_send(&f, c);
	reply_hdr(&f, c, BUS_CALL_RECV_HDR,
	    "HTTP/1.1 100 Continue\n\nHTTP/1.1 200 OK\nContent-Length: 2\n\n");
	sig(&f, BUS_CALL_RECV_DATA, c, "ok", 2);
	reply_stop(&f, c, 62, 2, 0);
	call_unref(c, 0);
	expect(&f,
	    "RH0:HTTP/1.1 100 Continue\n"
	    "RH0:\n"
	    "RH0:HTTP/1.1 200 OK\n"
	    "RH0:Content-Length: 2\n"
	    "RH0:\n"
	    "RS0: header 62 content 2 footer 0\n");
	fix_fini(&f);
}
END_TEST

START_TEST(cut_short)
{
	/* A reply that never completes shows what came, no RS line. */
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, 0, BOTH);
	c = req_new(&f, NULL, NULL, NULL);
	req_send(&f, c);
	reply_hdr(&f, c, BUS_CALL_RECV_HDR, "HTTP/1.1 200 OK\n\n");
	sig(&f, BUS_CALL_RECV_DATA, c, "abc\nde", 6);
	call_unref(c, 0);
	expect(&f,
	    "RH0:HTTP/1.1 200 OK\n"
	    "RH0:\n"
	    "RB0:abc\n"
	    "RB0:de\n");
	fix_fini(&f);
}
END_TEST

START_TEST(empty_body)
{
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, 0, PRINT_BODY);
	c = req_new(&f, NULL, NULL, NULL);
	req_send(&f, c);
	sig(&f, BUS_CALL_RECV_DATA, c, "", 0);
	reply_stop(&f, c, 19, 0, 0);
	call_unref(c, 0);
	expect(&f, "RS0: header 19 content 0 footer 0\n");
	fix_fini(&f);
}
END_TEST

START_TEST(long_line)
{
	/* The partial line grows without limit. */
	enum { LEN = 100000 };
	struct fix f;
	struct call *c;
	char *body = xmalloc(LEN), *want = xmalloc(LEN + 64);
	size_t i, n, wlen;

	for (i = 0; i < LEN; i++)
		body[i] = (char)('a' + i % 26);
	memcpy(want, "RB0:", 4);
	memcpy(want + 4, body, LEN);
	wlen = 4 + LEN + (size_t)sprintf(want + 4 + LEN,
	    "\nRS0: header 19 content %d footer 0\n", LEN);
	fix_init(&f, NULL, 0, PRINT_BODY);
	c = req_new(&f, NULL, NULL, NULL);
	req_send(&f, c);
	for (i = 0; i < LEN; i += n) {
		n = LEN - i < 7 ? LEN - i : 7;
		sig(&f, BUS_CALL_RECV_DATA, c, body + i, n);
	}
	reply_stop(&f, c, 19, LEN, 0);
	call_unref(c, 0);
	expect_n(&f, want, wlen);
	fix_fini(&f);
	free(body);
	free(want);
}
END_TEST

START_TEST(many_calls)
{
	/* Hundreds of replies with partial lines at once. */
	enum { N = 500 };
	struct fix f;
	struct call *c[N];
	char buf[64], *want = xmalloc(N * 64);
	size_t i, wlen = 0;

	fix_init(&f, NULL, 0, PRINT_BODY);
	for (i = 0; i < N; i++) {
		c[i] = call_new(&f.core, 0);
		snprintf(buf, sizeof(buf), "line%zu", i);
		sig(&f, BUS_CALL_RECV_DATA, c[i], buf, strlen(buf));
	}
	for (i = 0; i < N; i++)
		sig(&f, BUS_CALL_RECV_DATA, c[i], "-x", 2);
	for (i = N; i-- > 0;) {
		if (i % 2 == 0)
			reply_stop(&f, c[i], 0, 0, 0);
		call_unref(c[i], 0);
		wlen += (size_t)sprintf(want + wlen, "RB%zu:line%zu-x\n", i,
		    i);
		if (i % 2 == 0)
			wlen += (size_t)sprintf(want + wlen,
			    "RS%zu: header 0 content 0 footer 0\n", i);
	}
	expect_n(&f, want, wlen);
	fix_fini(&f);
	free(want);
}
END_TEST

START_TEST(recycled_calls)
{
	/* A recycled call object starts with nothing pending. */
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, 0, PRINT_BODY);
	c = call_new(&f.core, 0);
	sig(&f, BUS_CALL_RECV_DATA, c, "abc", 3);
	reply_stop(&f, c, 1, 3, 0);
	call_unref(c, 0);
	c = call_new(&f.core, 0);
	sig(&f, BUS_CALL_RECV_DATA, c, "x\n", 2);
	reply_stop(&f, c, 1, 2, 0);
	call_unref(c, 0);
	expect(&f,
	    "RB0:abc\n"
	    "RS0: header 1 content 3 footer 0\n"
	    "RB1:x\n"
	    "RS1: header 1 content 2 footer 0\n");
	fix_fini(&f);
}
END_TEST

START_TEST(pending_at_fini)
{
	/* print_fini() with a line pending frees it; nothing prints. */
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, 0, PRINT_BODY);
	c = call_new(&f.core, 0);
	sig(&f, BUS_CALL_RECV_DATA, c, "abc", 3);
	print_fini(&f.pr);
	call_unref(c, 0);
	expect(&f, "");
	fix_fini(&f);
}
END_TEST

START_TEST(off)
{
	struct fix f;
	struct call *c;

	fix_init(&f, NULL, 0, 0);
	ck_assert(!bus_wanted(f.bus, BUS_CALL_SEND_START));
	ck_assert(!bus_wanted(f.bus, BUS_CALL_RECV_HDR));
	ck_assert(!bus_wanted(f.bus, BUS_CALL_RECV_DATA));
	ck_assert(!bus_wanted(f.bus, BUS_CALL_RECV_STOP));
	c = req_new(&f, NULL, NULL, NULL);
	req_send(&f, c);
	reply_stop(&f, c, 1, 0, 0);
	call_unref(c, 0);
	expect(&f, "");
	fix_fini(&f);

	fix_init(&f, NULL, BOTH, 0);
	c = req_new(&f, NULL, NULL, NULL);
	req_send(&f, c);
	reply_hdr(&f, c, BUS_CALL_RECV_HDR, "HTTP/1.1 200 OK\n\n");
	sig(&f, BUS_CALL_RECV_DATA, c, "abc", 3);
	reply_stop(&f, c, 1, 0, 0);
	call_unref(c, 0);
	expect(&f, get_lines);
	fix_fini(&f);
}
END_TEST

static Suite *
print_suite(void)
{
	Suite *s = suite_create("print");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, plain_every_split);
	tcase_add_test(tc, byte_by_byte);
	tcase_add_test(tc, chunked_trailer);
	tcase_add_test(tc, chunked_flags);
	tcase_add_test(tc, pipelined);
	tcase_add_test(tc, post_call_body);
	tcase_add_test(tc, post_template_body);
	tcase_add_test(tc, request_bare_lf);
	tcase_add_test(tc, body_cr_nul);
	tcase_add_test(tc, interim);
	tcase_add_test(tc, cut_short);
	tcase_add_test(tc, empty_body);
	tcase_add_test(tc, long_line);
	tcase_add_test(tc, many_calls);
	tcase_add_test(tc, recycled_calls);
	tcase_add_test(tc, pending_at_fini);
	tcase_add_test(tc, off);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(print_suite());
}
