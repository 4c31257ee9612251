/*
 * libFuzzer target for the HTTP/1.x response parser (src/net/http_resp.c).
 *
 * The input is a reply stream, possibly several pipelined replies, fed the
 * way the connection code feeds it: in pieces, keeping the bytes a call
 * did not consume and presenting them again with the next piece appended,
 * resetting after each complete reply, and telling the parser about EOF at
 * the end.  Every call gets a heap buffer of exactly the bytes presented so
 * that AddressSanitizer sees any read past them, and the callbacks read
 * every byte they are given.  The same stream is also parsed in a single
 * piece, and both runs must agree: how the bytes arrive must not change
 * what is parsed.  Contract violations abort().
 *
 * The first two bytes choose the plan:
 *   byte 0, bits 0-1: pieces: whole, one byte, fixed size, varying sizes
 *           bits 2-3: max_line: any, 64 KiB, 1 to 64, 1
 *           bits 4-5: max_interim: any, 100, 1, 2
 *           bits 6-7: HEAD requests: none, all, odd replies, even replies
 *   byte 1: the piece size, or the seed of the varying sizes
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/http_resp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* How the stream is cut into pieces. */
enum fz_split {
	FZ_SPLIT_WHOLE,
	FZ_SPLIT_BYTE,
	FZ_SPLIT_FIXED,
	FZ_SPLIT_RANDOM,
};

/* What one run of the parser over the stream produced. */
struct fz_result {
	unsigned	nreplies;	/* replies that ended with DONE */
	uint64_t	digest;		/* of the replies and callbacks */
	int		failed;		/* the stream ended inside a reply */
	uint64_t	consumed;	/* bytes consumed by DONE replies */
};

/* Callback context: the call's buffer and what the callbacks saw. */
struct fz_ctx {
	const char	*buf;		/* the buffer of the current call */
	size_t		 len;
	size_t		 max_line;
	uint64_t	 body;		/* body bytes reported, this reply */
	unsigned	 interim;	/* interim status lines, this reply */
	int		 final;		/* final status lines, this reply */
	int		 final_status;
	uint64_t	 digest;	/* of every callback, in order */
};

/* Folds bytes into an FNV-1a digest; this reads every one of them. */
static uint64_t
fz_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t
fz_hash_u64(uint64_t h, uint64_t v)
{
	return fz_hash(h, &v, sizeof(v));
}

/* Aborts unless [p, p + n) lies inside the buffer of the current call. */
static void
fz_check_span(const struct fz_ctx *c, const char *p, size_t n)
{
	if (p < c->buf || n > c->len || p - c->buf > (ptrdiff_t)(c->len - n))
		abort();
}

/* Checks a reported line: inside the buffer, no LF, not over max_line. */
static void
fz_check_line(const struct fz_ctx *c, const char *line, size_t len)
{
	fz_check_span(c, line, len);
	if (memchr(line, '\n', len) != NULL)
		abort();
	if (c->max_line != 0 && len > c->max_line)
		abort();
}

static void
fz_on_status(void *ctx, int status, int interim)
{
	struct fz_ctx *c = ctx;

	if (status < 100 || status > 599)
		abort();
	if (interim) {
		if (status >= 200 || status == 101 || c->final)
			abort();
		c->interim++;
	} else {
		if (c->final || (status < 200 && status != 101))
			abort();
		c->final = 1;
		c->final_status = status;
	}
	c->digest = fz_hash_u64(c->digest, (uint64_t)status << 1 |
	    (interim != 0));
}

static void
fz_on_body(void *ctx, const char *data, size_t len)
{
	struct fz_ctx *c = ctx;

	if (!c->final)
		abort();
	fz_check_span(c, data, len);
	c->body += len;
	/* Body bytes are hashed without separators: splits do not show. */
	c->digest = fz_hash(c->digest, data, len);
}

static void
fz_on_line(void *ctx, const char *line, size_t len, int section)
{
	struct fz_ctx *c = ctx;

	if (section != HTTP_RESP_LINE_HEAD &&
	    section != HTTP_RESP_LINE_TRAILER)
		abort();
	fz_check_line(c, line, len);
	c->digest = fz_hash_u64(c->digest, 0x200 | (unsigned)section);
	c->digest = fz_hash(c->digest, line, len);
}

static const struct http_resp_cb fz_cb = {
	.status = fz_on_status,
	.body = fz_on_body,
	.line = fz_on_line,
};

/* Returns whether reply number `n' answers a HEAD request. */
static int
fz_head(unsigned mode, unsigned n)
{
	switch (mode) {
	case 1:
		return 1;
	case 2:
		return n % 2 == 1;
	case 3:
		return n % 2 == 0;
	default:
		return 0;
	}
}

/* Chunk framing: the bytes of the reply that no counter holds. */
static uint64_t
fz_framing(const struct http_resp *r)
{
	return r->total_bytes - r->header_bytes - r->body_bytes -
	    r->footer_bytes;
}

/* The counters never exceed the bytes consumed for the reply. */
static void
fz_check_counters(const struct http_resp *r, uint64_t consumed)
{
	if (r->header_bytes + r->body_bytes + r->footer_bytes >
	    r->total_bytes)
		abort();
	if (r->total_bytes != consumed)
		abort();
}

/* Checks a reply that ended with DONE; `eof' when EOF completed it. */
static void
fz_check_done(const struct http_resp *r, const struct fz_ctx *c, int head,
    int eof)
{
	int bodyless;

	if (r->status < 100 || r->status > 599)
		abort();
	if (!c->final || c->final_status != r->status)
		abort();
	if (r->max_interim != 0 && c->interim > r->max_interim)
		abort();
	if (r->error != HTTP_RESP_OK || c->body != r->body_bytes)
		abort();
	if (r->minor < 0 || r->minor > 9)
		abort();
	bodyless = head || r->status < 200 || r->status == 204 ||
	    r->status == 304;
	if (bodyless && (r->body_bytes != 0 || r->chunked ||
	    r->close_delimited))
		abort();
	if (r->chunked && r->close_delimited)
		abort();
	if (r->chunked && (fz_framing(r) < 2 || r->footer_bytes < 1))
		abort();
	if (!r->chunked && (fz_framing(r) != 0 || r->footer_bytes != 0))
		abort();
	if (r->close_delimited && r->keep_alive)
		abort();
	if (eof != r->close_delimited)
		abort();
	if (!bodyless && !r->chunked && !r->close_delimited &&
	    (!r->has_length || r->body_bytes != r->content_length))
		abort();
	if (r->status == 101 && r->keep_alive)
		abort();
}

/* Records a finished reply in the result. */
static void
fz_record(struct fz_result *res, const struct http_resp *r,
    const struct fz_ctx *c)
{
	uint64_t h = res->digest;

	h = fz_hash_u64(h, (uint64_t)r->status);
	h = fz_hash_u64(h, (uint64_t)r->minor);
	h = fz_hash_u64(h, (uint64_t)(r->keep_alive << 3 | r->chunked << 2 |
	    r->close_delimited << 1 | r->has_length));
	h = fz_hash_u64(h, r->content_length);
	h = fz_hash_u64(h, r->header_bytes);
	h = fz_hash_u64(h, r->body_bytes);
	h = fz_hash_u64(h, r->footer_bytes);
	h = fz_hash_u64(h, r->total_bytes);
	h = fz_hash_u64(h, c->digest);
	res->digest = h;
	res->nreplies++;
	res->consumed += r->total_bytes;
}

/* Starts the next reply: the parser and the per-reply callback state. */
static void
fz_next_reply(struct http_resp *r, struct fz_ctx *c, unsigned head_mode,
    unsigned nreplies)
{
	http_resp_reset(r, fz_head(head_mode, nreplies));
	c->body = 0;
	c->interim = 0;
	c->final = 0;
	c->final_status = 0;
	c->digest = 0xcbf29ce484222325ULL;
}

/* Returns the size of the next piece (at least 1). */
static size_t
fz_piece(enum fz_split split, uint8_t param, uint32_t *rng, size_t left)
{
	size_t k;

	switch (split) {
	case FZ_SPLIT_WHOLE:
		k = left;
		break;
	case FZ_SPLIT_BYTE:
		k = 1;
		break;
	case FZ_SPLIT_FIXED:
		k = (size_t)param + 1;
		break;
	default:
		/* xorshift32: mostly small pieces, now and then a big one. */
		*rng ^= *rng << 13;
		*rng ^= *rng >> 17;
		*rng ^= *rng << 5;
		k = (*rng & 0x300) == 0 ? (*rng & 0x3ff) + 1 :
		    (*rng & 0x1f) + 1;
		break;
	}
	return k < left ? k : left;
}

/*
 * Runs the parser over stream[0..n) cut as `split' says, the caller's way,
 * and fills `res' with what it parsed; aborts on any broken promise.
 */
static void
fz_run(const uint8_t *stream, size_t n, enum fz_split split, uint8_t param,
    size_t max_line, unsigned max_interim, unsigned head_mode,
    struct fz_result *res)
{
	struct http_resp r;
	struct fz_ctx c;
	enum http_resp_result rv;
	char *pend = NULL, *buf;
	size_t plen = 0, pos = 0, used, k, calls = 0;
	uint64_t consumed = 0;
	uint32_t rng = 0x9e3779b9u ^ param;
	int need_more = 1;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	memset(&c, 0, sizeof(c));
	r.max_line = max_line;
	r.max_interim = max_interim;
	c.max_line = max_line;
	fz_next_reply(&r, &c, head_mode, 0);
	for (;;) {
		k = 0;
		if (need_more) {
			if (pos == n)
				break;
			k = fz_piece(split, param, &rng, n - pos);
		}
		/* Exactly the presented bytes, so over-reads are caught. */
		if ((buf = malloc(plen + k != 0 ? plen + k : 1)) == NULL)
			abort();
		if (plen != 0)
			memcpy(buf, pend, plen);
		if (k != 0)
			memcpy(buf + plen, stream + pos, k);
		pos += k;
		plen += k;
		free(pend);
		pend = buf;

		/* Each call appends a byte or completes a reply. */
		if (++calls > 2 * n + 4)
			abort();
		c.buf = buf;
		c.len = plen;
		used = (size_t)-1;
		rv = http_resp_parse(&r, buf, plen, &used, &fz_cb, &c);
		if (used > plen)
			abort();
		consumed += used;
		fz_check_counters(&r, consumed);
		/* Keep the tail, as the connection code does. */
		memmove(buf, buf + used, plen - used);
		plen -= used;

		if (rv == HTTP_RESP_ERROR) {
			if (r.error == HTTP_RESP_OK)
				abort();
			/* Stays failed and takes nothing more. */
			c.buf = buf;
			c.len = plen;
			if (http_resp_parse(&r, buf, plen, &used, &fz_cb,
			    &c) != HTTP_RESP_ERROR || used != 0)
				abort();
			res->failed = 1;
			break;
		}
		if (rv == HTTP_RESP_DONE) {
			if (used == 0 && r.total_bytes == 0)
				abort();
			fz_check_done(&r, &c, fz_head(head_mode,
			    res->nreplies), 0);
			c.buf = buf;
			c.len = plen;
			if (http_resp_parse(&r, buf, plen, &used, &fz_cb,
			    &c) != HTTP_RESP_DONE || used != 0)
				abort();
			fz_check_counters(&r, consumed);
			fz_record(res, &r, &c);
			fz_next_reply(&r, &c, head_mode, res->nreplies);
			consumed = 0;
			/* Pipelined: the tail may hold the next reply. */
			need_more = plen == 0;
			continue;
		}
		if (rv != HTTP_RESP_MORE)
			abort();
		need_more = 1;
	}
	if (!res->failed) {
		rv = http_resp_eof(&r);
		if (rv == HTTP_RESP_DONE) {
			fz_check_counters(&r, consumed);
			fz_check_done(&r, &c, fz_head(head_mode,
			    res->nreplies), 1);
			if (plen != 0)
				abort();
			fz_record(res, &r, &c);
		} else if (rv == HTTP_RESP_ERROR) {
			if (r.error != HTTP_RESP_ETRUNCATED)
				abort();
			if (http_resp_eof(&r) != HTTP_RESP_ERROR)
				abort();
			/* A close between replies (nothing of the next
			   presented) is the clean end. */
			res->failed = consumed != 0 || plen != 0;
		} else
			abort();
	}
	if (http_resp_strerror(r.error) == NULL)
		abort();
	free(pend);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t max_lines[] = { 0, 65536, 0, 1 };
	static const unsigned max_interims[] = { 0, 100, 1, 2 };
	struct fz_result split, whole;
	size_t max_line;
	uint8_t ctl, param;

	if (size < 2)
		return 0;
	ctl = data[0];
	param = data[1];
	max_line = max_lines[ctl >> 2 & 3];
	if ((ctl >> 2 & 3) == 2)
		max_line = (size_t)(param & 63) + 1;
	fz_run(data + 2, size - 2, (enum fz_split)(ctl & 3), param, max_line,
	    max_interims[ctl >> 4 & 3], ctl >> 6 & 3, &split);
	if ((ctl & 3) == FZ_SPLIT_WHOLE)
		return 0;
	/* How the bytes arrived must not change the outcome. */
	fz_run(data + 2, size - 2, FZ_SPLIT_WHOLE, param, max_line,
	    max_interims[ctl >> 4 & 3], ctl >> 6 & 3, &whole);
	if (split.nreplies != whole.nreplies ||
	    split.digest != whole.digest || split.failed != whole.failed ||
	    split.consumed != whole.consumed)
		abort();
	return 0;
}
