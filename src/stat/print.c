/*
 * --print-request and --print-reply (see print.h).
 *
 * Output lines; N is the call's serial number, counting from 0:
 *
 *	SH<N>:<line>	a line of the request's header
 *	SB<N>:<line>	a line of the request's body
 *	SS<N>: header <bytes> content <bytes>
 *			the request was completely written: its size less
 *			the body, and the body's size
 *	RH<N>:<line>	a line of the reply's header: status line, header
 *			fields, the lines of interim (1xx) replies too
 *	RB<N>:<line>	a line of the reply's body, de-chunked
 *	RT<N>:<line>	a line of the reply's trailer (chunked replies)
 *	RS<N>: header <bytes> content <bytes> footer <bytes>
 *			the reply is complete: header, body (de-chunked) and
 *			trailer sizes
 *
 * Header printing gives SH, RH and RT; body printing SB and RB; either
 * gives SS and RS.  A request is printed once, when its first byte is
 * about to be written, its SS line once it is completely written.  With
 * pipelining each reply's lines carry that reply's call number.
 *
 * Line ends.  Header and trailer lines (SH, RH, RT) are printed one per
 * line without their CR LF; the empty line that ends a header block (or
 * the trailer) is printed as an empty line ("RH3:").  A request header is
 * split at each LF and a CR right before the LF is dropped.  Body lines
 * (SB, RB) are the body split at each LF: the LF is not shown, every other
 * byte is, as it is (a CR before the LF stays, as data, and so do NULs).
 * A body that does not end in LF has its last, partial line printed as a
 * line of its own at the end of the body: at once for a request; for a
 * reply when its trailer starts or it is complete, or when the call ends
 * if the reply was cut short.  An empty body prints no body line.
 *
 * The only state kept is a reply's partial body line, per call, in a hash
 * table keyed by the call; entries and their buffers are recycled.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/core.h"
#include "lib/util.h"
#include "stat/collector.h"
#include "stat/print.h"

#define PRINT_TAB_MIN	64

/* A reply's body line not yet ended by LF. */
struct print_line {
	struct print_line *next;
	const struct call *call;
	uint64_t	 id;
	char		*buf;
	size_t		 len;
	size_t		 cap;
};

/* Writes one output line: prefix, call number, `a' then `b'. */
static void
print_out(struct print *p, const char *prefix, uint64_t id, const char *a,
    size_t alen, const char *b, size_t blen)
{
	fprintf(p->out, "%s%llu:", prefix, (unsigned long long)id);
	if (alen > 0)
		fwrite(a, 1, alen, p->out);
	if (blen > 0)
		fwrite(b, 1, blen, p->out);
	putc('\n', p->out);
}

/*
 * Prints a complete piece of text line by line, split at LF; with
 * `strip_cr' a CR before the LF is dropped.  A last line without LF is
 * printed too.
 */
static void
print_text(struct print *p, const char *prefix, uint64_t id, const char *s,
    size_t len, int strip_cr)
{
	const char *lf;
	size_t n;

	while (len > 0) {
		if ((lf = memchr(s, '\n', len)) == NULL) {
			print_out(p, prefix, id, s, len, NULL, 0);
			return;
		}
		n = (size_t)(lf - s);
		print_out(p, prefix, id, s,
		    strip_cr && n > 0 && s[n - 1] == '\r' ? n - 1 : n, NULL,
		    0);
		s = lf + 1;
		len -= n + 1;
	}
}

static size_t
print_hash(const struct print *p, const struct call *call)
{
	uint64_t h = call->id * UINT64_C(0x9e3779b97f4a7c15);

	return (size_t)(h >> 32) & (p->tab_size - 1);
}

/* Returns the pending line of `call', or NULL. */
static struct print_line *
print_find(const struct print *p, const struct call *call)
{
	struct print_line *l;

	if (p->count == 0)
		return NULL;
	for (l = p->tab[print_hash(p, call)]; l != NULL; l = l->next)
		if (l->call == call && l->id == call->id)
			return l;
	return NULL;
}

/* Doubles the table. */
static void
print_grow(struct print *p)
{
	struct print_line **old = p->tab, *l, *next;
	size_t old_size = p->tab_size, i, h;

	p->tab_size *= 2;
	p->tab = xcalloc(p->tab_size, sizeof(*p->tab));
	for (i = 0; i < old_size; i++) {
		for (l = old[i]; l != NULL; l = next) {
			next = l->next;
			h = print_hash(p, l->call);
			l->next = p->tab[h];
			p->tab[h] = l;
		}
	}
	free(old);
}

/* Returns a new, empty pending line for `call'. */
static struct print_line *
print_add(struct print *p, const struct call *call)
{
	struct print_line *l;
	size_t h;

	if (p->count >= p->tab_size)
		print_grow(p);
	if ((l = p->free_lines) != NULL)
		p->free_lines = l->next;
	else
		l = xcalloc(1, sizeof(*l));
	l->call = call;
	l->id = call->id;
	l->len = 0;
	h = print_hash(p, call);
	l->next = p->tab[h];
	p->tab[h] = l;
	p->count++;
	return l;
}

/* Prints the pending line of `call', if any, and forgets it. */
static void
print_flush(struct print *p, const struct call *call)
{
	struct print_line *l, **lp;

	if (p->count == 0)
		return;
	for (lp = &p->tab[print_hash(p, call)]; (l = *lp) != NULL;
	    lp = &l->next) {
		if (l->call == call && l->id == call->id)
			break;
	}
	if (l == NULL)
		return;
	*lp = l->next;
	p->count--;
	if (l->len > 0)
		print_out(p, "RB", l->id, l->buf, l->len, NULL, 0);
	l->next = p->free_lines;
	p->free_lines = l;
}

/* A piece of a reply's body: print its complete lines, keep the rest. */
static void
print_body(struct print *p, const struct call *call, const char *s,
    size_t len)
{
	struct print_line *l = print_find(p, call);
	const char *lf;
	size_t n;

	while (len > 0 && (lf = memchr(s, '\n', len)) != NULL) {
		n = (size_t)(lf - s);
		if (l != NULL && l->len > 0) {
			print_out(p, "RB", call->id, l->buf, l->len, s, n);
			l->len = 0;
		} else {
			print_out(p, "RB", call->id, s, n, NULL, 0);
		}
		s = lf + 1;
		len -= n + 1;
	}
	if (len == 0)
		return;
	if (l == NULL)
		l = print_add(p, call);
	if (l->cap - l->len < len) {
		while (l->cap - l->len < len)
			l->cap = l->cap == 0 ? 128 : l->cap * 2;
		l->buf = xrealloc(l->buf, l->cap);
	}
	memcpy(l->buf + l->len, s, len);
	l->len += len;
}

/* Prints a request from its iovecs, which are still all unsent. */
static void
print_request(struct print *p, const struct call *call)
{
	const struct iovec *v;
	size_t i, n = call->iovcnt, hlen = 0;
	int has_body;

	/* The body, when there is one, is the last iovec. */
	has_body = n > 0 && call->req_body_len > 0;
	if (has_body)
		n--;
	if (p->req_flags & PRINT_HEADER) {
		for (i = 0; i < n; i++)
			hlen += call->iov[i].iov_len;
		if (hlen > p->scratch_cap) {
			p->scratch_cap = hlen;
			p->scratch = xrealloc(p->scratch, p->scratch_cap);
		}
		hlen = 0;
		for (i = 0; i < n; i++) {
			v = &call->iov[i];
			if (v->iov_len == 0)
				continue;
			memcpy(p->scratch + hlen, v->iov_base, v->iov_len);
			hlen += v->iov_len;
		}
		print_text(p, "SH", call->id, p->scratch, hlen, 1);
	}
	if ((p->req_flags & PRINT_BODY) && has_body)
		print_text(p, "SB", call->id, call->iov[n].iov_base,
		    call->iov[n].iov_len, 0);
}

static void
print_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct print *p = ctx;
	struct call *call = obj;
	uint64_t blen;

	switch (ev) {
	case BUS_CALL_SEND_START:
		print_request(p, call);
		break;
	case BUS_CALL_SEND_STOP:
		blen = call->req_body_len;
		if (blen > call->req_len)
			blen = call->req_len;
		fprintf(p->out, "SS%llu: header %llu content %llu\n",
		    (unsigned long long)call->id,
		    (unsigned long long)(call->req_len - blen),
		    (unsigned long long)blen);
		break;
	case BUS_CALL_RECV_HDR:
		print_out(p, "RH", call->id, arg.buf.p, arg.buf.len, NULL, 0);
		break;
	case BUS_CALL_RECV_FOOTER:
		/* The body has ended: its last line comes first. */
		print_flush(p, call);
		if (p->reply_flags & PRINT_HEADER)
			print_out(p, "RT", call->id, arg.buf.p, arg.buf.len,
			    NULL, 0);
		break;
	case BUS_CALL_RECV_DATA:
		print_body(p, call, arg.buf.p, arg.buf.len);
		break;
	case BUS_CALL_RECV_STOP:
		print_flush(p, call);
		fprintf(p->out,
		    "RS%llu: header %llu content %llu footer %llu\n",
		    (unsigned long long)call->id,
		    (unsigned long long)call->hdr_bytes,
		    (unsigned long long)call->body_bytes,
		    (unsigned long long)call->footer_bytes);
		break;
	case BUS_CALL_DESTROYED:
		print_flush(p, call);
		break;
	default:
		break;
	}
}

void
print_init(struct print *p, struct core *core, int request_flags,
    int reply_flags, FILE *out)
{
	struct bus *b = core->bus;

	memset(p, 0, sizeof(*p));
	p->out = out;
	p->req_flags = request_flags & (PRINT_HEADER | PRINT_BODY);
	p->reply_flags = reply_flags & (PRINT_HEADER | PRINT_BODY);
	if (p->req_flags != 0) {
		bus_subscribe(b, BUS_CALL_SEND_START, print_event, p);
		bus_subscribe(b, BUS_CALL_SEND_STOP, print_event, p);
	}
	if (p->reply_flags & PRINT_HEADER)
		bus_subscribe(b, BUS_CALL_RECV_HDR, print_event, p);
	if (p->reply_flags & PRINT_BODY) {
		p->tab_size = PRINT_TAB_MIN;
		p->tab = xcalloc(p->tab_size, sizeof(*p->tab));
		bus_subscribe(b, BUS_CALL_RECV_DATA, print_event, p);
		bus_subscribe(b, BUS_CALL_DESTROYED, print_event, p);
	}
	if (p->reply_flags != 0) {
		bus_subscribe(b, BUS_CALL_RECV_FOOTER, print_event, p);
		bus_subscribe(b, BUS_CALL_RECV_STOP, print_event, p);
	}
}

void
print_fini(struct print *p)
{
	struct print_line *l, *next;
	size_t i;

	for (i = 0; i < p->tab_size; i++) {
		for (l = p->tab[i]; l != NULL; l = next) {
			next = l->next;
			free(l->buf);
			free(l);
		}
	}
	free(p->tab);
	p->tab = NULL;
	p->tab_size = 0;
	p->count = 0;
	for (l = p->free_lines; l != NULL; l = next) {
		next = l->next;
		free(l->buf);
		free(l);
	}
	p->free_lines = NULL;
	free(p->scratch);
	p->scratch = NULL;
	p->scratch_cap = 0;
}

/* The collector interface (stat/collector.h). */

static int
print_col_init(void **state, const struct collector_env *env, char *err,
    size_t errlen)
{
	const struct print_config *cfg = env->cfg;
	struct print *p = xmalloc(sizeof(*p));

	print_init(p, env->core, cfg->request_flags, cfg->reply_flags,
	    env->out);
	*state = p;
	return 0;
}

static void
print_col_fini(void *state)
{
	print_fini(state);
	free(state);
}

const struct collector print_collector = {
	.name = "print",
	.init = print_col_init,
	.fini = print_col_fini,
};
