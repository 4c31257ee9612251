/*
 * Incremental HTTP/1.x response parser: turns the bytes of one reply into
 * status, line and body callbacks, byte counters and the framing facts
 * (keep-alive, end of reply) the connection code needs.  It never allocates
 * and never keeps pointers into the caller's buffer between calls.
 *
 * Lines (status, header, chunk-size, trailer) are handled only when their
 * newline is in the input; otherwise the parser stops at the start of the
 * line and the caller presents those bytes again with more appended.  To
 * keep byte-at-a-time arrival linear, the number of bytes of a partial
 * line already searched for a newline is remembered in _remaining, which
 * otherwise counts the body or chunk bytes still expected.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "lib/util.h"
#include "net/http_resp.h"

enum http_resp_state {
	HTTP_RESP_S_START = 0,	/* no byte seen yet */
	HTTP_RESP_S_STATUS,	/* expecting a status line */
	HTTP_RESP_S_INTERIM,	/* header lines of a 1xx interim reply */
	HTTP_RESP_S_HEADER,	/* header lines of the final reply */
	HTTP_RESP_S_LENGTH,	/* body delimited by Content-Length */
	HTTP_RESP_S_CLOSE,	/* body delimited by the end of input */
	HTTP_RESP_S_CHUNK_SIZE,	/* expecting a chunk-size line */
	HTTP_RESP_S_CHUNK_DATA,	/* inside chunk data */
	HTTP_RESP_S_CHUNK_CR,	/* expecting CRLF or LF after chunk data */
	HTTP_RESP_S_CHUNK_LF,	/* expecting the LF of that CRLF */
	HTTP_RESP_S_TRAILER,	/* trailer lines after the last chunk */
	HTTP_RESP_S_DONE,
	HTTP_RESP_S_ERROR,	/* failed; the states after it too */
};

#define HTTP_RESP_MAX_VALUE	((uint64_t)INT64_MAX)

/* Records an error; the parser then refuses further input until reset. */
static enum http_resp_result
http_resp_fail(struct http_resp *r, enum http_resp_error e)
{
	r->error = e;
	r->_state = HTTP_RESP_S_ERROR;
	return HTTP_RESP_ERROR;
}

static int
http_resp_is_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* Compares s[0..n) with a lower-case name, ignoring ASCII case. */
static int
http_resp_name_is(const char *s, size_t n, const char *lower)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (lower[i] == '\0' || c != (unsigned char)lower[i])
			return 0;
	}
	return lower[n] == '\0';
}

/*
 * Takes the next element of a comma-separated list from [*p, end), trimmed
 * of whitespace (it may be empty).  Returns 0 when the list is exhausted.
 */
static int
http_resp_list_next(const char **p, const char *end, const char **elem,
    size_t *elen)
{
	const char *s = *p, *e;

	if (s >= end)
		return 0;
	if ((e = memchr(s, ',', (size_t)(end - s))) == NULL)
		e = end;
	*p = e < end ? e + 1 : end;
	util_trim(&s, &e);
	*elem = s;
	*elen = (size_t)(e - s);
	return 1;
}

/*
 * Returns 0 when a partial status line can still become a valid one, that
 * is when it agrees with "HTTP/1." as far as it goes.  This rejects a
 * non-HTTP peer without waiting for a newline that may never come.
 */
static int
http_resp_status_prefix(const char *p, size_t n)
{
	static const char prefix[] = "HTTP/1.";

	if (n > sizeof(prefix) - 1)
		n = sizeof(prefix) - 1;
	return memcmp(p, prefix, n) != 0;
}

/*
 * Parses "HTTP/1.<d> <3 digits>[ reason]".  Returns the status code, or
 * -1 for a malformed line, with the minor version in *minor.
 */
static int
http_resp_parse_status(const char *p, size_t n, int *minor)
{
	int code;

	if (n < 12 || memcmp(p, "HTTP/1.", 7) != 0 ||
	    p[7] < '0' || p[7] > '9' || p[8] != ' ' ||
	    p[9] < '0' || p[9] > '9' || p[10] < '0' || p[10] > '9' ||
	    p[11] < '0' || p[11] > '9')
		return -1;
	if (n > 12 && p[12] != ' ')
		return -1;
	*minor = p[7] - '0';
	code = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
	return code;
}

/*
 * Parses a Content-Length value: a list of identical 1*DIGIT elements that
 * must also agree with any earlier Content-Length.  Returns -1 if invalid.
 */
static int
http_resp_parse_length(struct http_resp *r, const char *p, const char *end)
{
	uint64_t v;
	unsigned d;

	for (;;) {
		while (p < end && http_resp_is_ows(*p))
			p++;
		if (p == end || *p < '0' || *p > '9')
			return -1;
		v = 0;
		while (p < end && *p >= '0' && *p <= '9') {
			d = (unsigned)(*p++ - '0');
			if (v > (HTTP_RESP_MAX_VALUE - d) / 10)
				return -1;
			v = v * 10 + d;
		}
		while (p < end && http_resp_is_ows(*p))
			p++;
		if (r->has_length && r->content_length != v)
			return -1;
		r->has_length = 1;
		r->content_length = v;
		if (p == end)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

/*
 * Notes the framing a Transfer-Encoding value asks for.  Until the header
 * section ends, chunked and close_delimited only record whether the last
 * coding seen is chunked; either being set means the field was present.
 */
static void
http_resp_parse_te(struct http_resp *r, const char *p, const char *end)
{
	const char *elem;
	size_t elen, n;
	int seen = 0, last = 0;

	while (http_resp_list_next(&p, end, &elem, &elen)) {
		if (elen == 0)
			continue;
		for (n = 0; n < elen && elem[n] != ';' &&
		    !http_resp_is_ows(elem[n]); n++)
			;
		seen = 1;
		last = http_resp_name_is(elem, n, "chunked");
	}
	if (seen) {
		r->chunked = last;
		r->close_delimited = !last;
	}
}

/* Notes the "close" and "keep-alive" options of a Connection value. */
static void
http_resp_parse_connection(struct http_resp *r, const char *p,
    const char *end)
{
	const char *elem;
	size_t elen;

	while (http_resp_list_next(&p, end, &elem, &elen)) {
		if (http_resp_name_is(elem, elen, "close"))
			r->_conn_close = 1;
		else if (http_resp_name_is(elem, elen, "keep-alive"))
			r->_conn_keep_alive = 1;
	}
}

/*
 * Checks the syntax of a header or trailer line.  Returns the length of
 * the field name, 0 for an obs-fold continuation line, -1 if malformed.
 */
static long
http_resp_check_field(const char *p, size_t n)
{
	size_t i;

	if (http_resp_is_ows(p[0]))
		return 0;
	for (i = 0; i < n && util_is_tchar((unsigned char)p[i]); i++)
		;
	if (i == 0 || i == n || p[i] != ':')
		return -1;
	return (long)i;
}

/*
 * Handles one line of the final reply's header section (n > 0): checks
 * it and interprets the fields that decide the framing.
 */
static enum http_resp_result
http_resp_on_header(struct http_resp *r, const char *p, size_t n)
{
	const char *v, *end = p + n;
	long name;

	if ((name = http_resp_check_field(p, n)) < 0)
		return http_resp_fail(r, HTTP_RESP_EBADHEADER);
	v = p + name + 1;
	if (name == 14 && http_resp_name_is(p, 14, "content-length")) {
		if (http_resp_parse_length(r, v, end) < 0)
			return http_resp_fail(r, HTTP_RESP_EBADLENGTH);
	} else if (name == 17 &&
	    http_resp_name_is(p, 17, "transfer-encoding"))
		http_resp_parse_te(r, v, end);
	else if (name == 10 && http_resp_name_is(p, 10, "connection"))
		http_resp_parse_connection(r, v, end);
	return HTTP_RESP_MORE;
}

/*
 * Decides, at the blank line ending the final header section, whether the
 * connection stays usable and how the body is delimited (RFC 9112 6.3).
 */
static void
http_resp_on_header_end(struct http_resp *r)
{
	int te = r->chunked || r->close_delimited;
	int ka;

	if (r->minor >= 1)
		ka = !r->_conn_close;
	else
		ka = r->_conn_keep_alive && !r->_conn_close;
	/*
	 * Transfer-Encoding in HTTP/1.0, or next to Content-Length, hints at
	 * request smuggling; RFC 9112 6.1 and 6.3 say not to reuse such a
	 * connection.
	 */
	if (te && (r->minor == 0 || r->has_length))
		ka = 0;
	if (r->status == 101)
		ka = 0;
	if (r->_head || r->status < 200 || r->status == 204 ||
	    r->status == 304) {
		r->chunked = 0;
		r->close_delimited = 0;
		r->_state = HTTP_RESP_S_DONE;
	} else if (r->chunked) {
		r->_state = HTTP_RESP_S_CHUNK_SIZE;
	} else if (!te && r->has_length) {
		r->_remaining = r->content_length;
		r->_state = r->_remaining == 0 ? HTTP_RESP_S_DONE :
		    HTTP_RESP_S_LENGTH;
	} else {
		r->close_delimited = 1;
		ka = 0;
		r->_state = HTTP_RESP_S_CLOSE;
	}
	r->keep_alive = ka;
}

/*
 * Parses a chunk-size line: 1*HEXDIG, optional whitespace, optional
 * extensions after ';'.  Returns -1 if invalid or above 2^63 - 1.
 */
static int
http_resp_parse_chunk_size(const char *p, size_t n, uint64_t *size)
{
	uint64_t v = 0;
	size_t i;
	unsigned d;
	char c;

	for (i = 0; i < n; i++) {
		c = p[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (v > HTTP_RESP_MAX_VALUE >> 4)
			return -1;
		v = v << 4 | d;
	}
	if (i == 0)
		return -1;
	while (i < n && http_resp_is_ows(p[i]))
		i++;
	if (i < n && p[i] != ';')
		return -1;
	*size = v;
	return 0;
}

/* Handles a status line: an interim 1xx one or the final one. */
static enum http_resp_result
http_resp_on_status(struct http_resp *r, const char *p, size_t n,
    const struct http_resp_cb *cb, void *ctx)
{
	int code, minor;

	if ((code = http_resp_parse_status(p, n, &minor)) < 0)
		return http_resp_fail(r, HTTP_RESP_EBADSTATUS);
	if (code < 100 || code > 599)
		return http_resp_fail(r, HTTP_RESP_ESTATUSRANGE);
	if (code < 200 && code != 101) {
		r->_ninterim++;
		if (r->max_interim != 0 && r->_ninterim > r->max_interim)
			return http_resp_fail(r, HTTP_RESP_EINTERIM);
		if (cb != NULL && cb->status != NULL)
			cb->status(ctx, code, 1);
		r->_state = HTTP_RESP_S_INTERIM;
		return HTTP_RESP_MORE;
	}
	r->status = code;
	r->minor = minor;
	if (cb != NULL && cb->status != NULL)
		cb->status(ctx, code, 0);
	r->_state = HTTP_RESP_S_HEADER;
	return HTTP_RESP_MORE;
}

/*
 * Handles one complete line p[0..n) (without its EOL; `full' bytes with
 * it) according to the state.  Counters are updated only for accepted
 * lines so that they always add up to the bytes consumed.
 */
static enum http_resp_result
http_resp_on_line(struct http_resp *r, const char *p, size_t n, size_t full,
    const struct http_resp_cb *cb, void *ctx)
{
	uint64_t size;
	int section = HTTP_RESP_LINE_HEAD;

	switch (r->_state) {
	case HTTP_RESP_S_STATUS:
		if (http_resp_on_status(r, p, n, cb, ctx) == HTTP_RESP_ERROR)
			return HTTP_RESP_ERROR;
		r->header_bytes += full;
		break;
	case HTTP_RESP_S_INTERIM:
		/* Interim fields are checked but not reported. */
		if (n == 0)
			r->_state = HTTP_RESP_S_STATUS;
		else if (http_resp_check_field(p, n) < 0)
			return http_resp_fail(r, HTTP_RESP_EBADHEADER);
		r->header_bytes += full;
		break;
	case HTTP_RESP_S_HEADER:
		if (n == 0)
			http_resp_on_header_end(r);
		else if (http_resp_on_header(r, p, n) == HTTP_RESP_ERROR)
			return HTTP_RESP_ERROR;
		r->header_bytes += full;
		break;
	case HTTP_RESP_S_CHUNK_SIZE:
		if (http_resp_parse_chunk_size(p, n, &size) < 0)
			return http_resp_fail(r, HTTP_RESP_EBADCHUNK);
		section = -1;
		if (size == 0)
			r->_state = HTTP_RESP_S_TRAILER;
		else {
			r->_remaining = size;
			r->_state = HTTP_RESP_S_CHUNK_DATA;
		}
		break;
	case HTTP_RESP_S_TRAILER:
		section = HTTP_RESP_LINE_TRAILER;
		if (n == 0)
			r->_state = HTTP_RESP_S_DONE;
		else if (http_resp_check_field(p, n) < 0)
			return http_resp_fail(r, HTTP_RESP_EBADHEADER);
		r->footer_bytes += full;
		break;
	default:
		return HTTP_RESP_MORE;
	}
	if (cb != NULL && cb->line != NULL && section >= 0)
		cb->line(ctx, p, n, section);
	return HTTP_RESP_MORE;
}

/*
 * Returns non-zero if `n' more bytes of a header or trailer line would
 * take its section over max_head.  Chunk-size lines are not counted.
 */
static int
http_resp_over_head(const struct http_resp *r, size_t n)
{
	uint64_t have;

	if (r->max_head == 0)
		return 0;
	switch (r->_state) {
	case HTTP_RESP_S_STATUS:
	case HTTP_RESP_S_INTERIM:
	case HTTP_RESP_S_HEADER:
		have = r->header_bytes;
		break;
	case HTTP_RESP_S_TRAILER:
		have = r->footer_bytes;
		break;
	default:
		return 0;
	}
	return have > r->max_head || n > r->max_head - have;
}

/*
 * Consumes one complete line at buf[*pos..len).  Returns HTTP_RESP_MORE
 * with *pos advanced, HTTP_RESP_MORE with *pos unchanged and `*partial'
 * set when the line is not complete yet, or HTTP_RESP_ERROR.
 */
static enum http_resp_result
http_resp_take_line(struct http_resp *r, const char *buf, size_t len,
    size_t *pos, int *partial, const struct http_resp_cb *cb, void *ctx)
{
	const char *p = buf + *pos, *nl;
	size_t avail = len - *pos, from, n, full;

	/* Bytes searched by an earlier call are not searched again. */
	from = r->_remaining <= avail ? (size_t)r->_remaining : 0;
	if ((nl = memchr(p + from, '\n', avail - from)) == NULL) {
		/* One byte beyond max_line may be the CR of a good line. */
		if (r->max_line != 0 && avail - 1 > r->max_line)
			return http_resp_fail(r, HTTP_RESP_ELINE);
		if (http_resp_over_head(r, avail))
			return http_resp_fail(r, HTTP_RESP_EHEAD);
		if (r->_state == HTTP_RESP_S_STATUS &&
		    http_resp_status_prefix(p, avail) != 0)
			return http_resp_fail(r, HTTP_RESP_EBADSTATUS);
		r->_remaining = avail;
		*partial = 1;
		return HTTP_RESP_MORE;
	}
	full = (size_t)(nl - p) + 1;
	n = full - 1;
	if (n > 0 && p[n - 1] == '\r')
		n--;
	if (r->max_line != 0 && n > r->max_line)
		return http_resp_fail(r, HTTP_RESP_ELINE);
	if (http_resp_over_head(r, full))
		return http_resp_fail(r, HTTP_RESP_EHEAD);
	r->_remaining = 0;
	if (http_resp_on_line(r, p, n, full, cb, ctx) == HTTP_RESP_ERROR)
		return HTTP_RESP_ERROR;
	*pos += full;
	return HTTP_RESP_MORE;
}

/* Passes up to _remaining body bytes to the callback; returns the count. */
static size_t
http_resp_take_body(struct http_resp *r, const char *p, size_t avail,
    const struct http_resp_cb *cb, void *ctx)
{
	size_t n = avail;

	if (r->_remaining < n)
		n = (size_t)r->_remaining;
	r->_remaining -= n;
	r->body_bytes += n;
	if (cb != NULL && cb->body != NULL)
		cb->body(ctx, p, n);
	return n;
}

void
http_resp_reset(struct http_resp *r, int head)
{
	size_t max_line = r->max_line;
	unsigned max_interim = r->max_interim;
	uint64_t max_head = r->max_head;

	memset(r, 0, sizeof(*r));
	r->max_line = max_line;
	r->max_interim = max_interim;
	r->max_head = max_head;
	r->error = HTTP_RESP_OK;
	r->_state = HTTP_RESP_S_START;
	r->_head = head != 0;
}

enum http_resp_result
http_resp_parse(struct http_resp *r, const char *buf, size_t len,
    size_t *consumed, const struct http_resp_cb *cb, void *ctx)
{
	enum http_resp_result res = HTTP_RESP_MORE;
	size_t pos = 0;
	int partial = 0;

	if (r->_state == HTTP_RESP_S_START && len > 0)
		r->_state = HTTP_RESP_S_STATUS;
	for (;;) {
		if (r->_state == HTTP_RESP_S_DONE) {
			res = HTTP_RESP_DONE;
			break;
		}
		if (r->_state >= HTTP_RESP_S_ERROR) {
			res = HTTP_RESP_ERROR;
			break;
		}
		if (pos == len || partial)
			break;
		switch (r->_state) {
		case HTTP_RESP_S_LENGTH:
			pos += http_resp_take_body(r, buf + pos, len - pos,
			    cb, ctx);
			if (r->_remaining == 0)
				r->_state = HTTP_RESP_S_DONE;
			break;
		case HTTP_RESP_S_CHUNK_DATA:
			pos += http_resp_take_body(r, buf + pos, len - pos,
			    cb, ctx);
			if (r->_remaining == 0)
				r->_state = HTTP_RESP_S_CHUNK_CR;
			break;
		case HTTP_RESP_S_CLOSE:
			r->_remaining = len - pos;
			pos += http_resp_take_body(r, buf + pos, len - pos,
			    cb, ctx);
			break;
		case HTTP_RESP_S_CHUNK_CR:
			if (buf[pos] == '\r')
				r->_state = HTTP_RESP_S_CHUNK_LF;
			else if (buf[pos] == '\n')
				r->_state = HTTP_RESP_S_CHUNK_SIZE;
			else {
				http_resp_fail(r, HTTP_RESP_EBADCHUNK);
				break;
			}
			pos++;
			break;
		case HTTP_RESP_S_CHUNK_LF:
			if (buf[pos] != '\n') {
				http_resp_fail(r, HTTP_RESP_EBADCHUNK);
				break;
			}
			r->_state = HTTP_RESP_S_CHUNK_SIZE;
			pos++;
			break;
		default:
			http_resp_take_line(r, buf, len, &pos, &partial, cb,
			    ctx);
			break;
		}
	}
	*consumed = pos;
	r->total_bytes += pos;
	return res;
}

uint64_t
http_resp_skippable(const struct http_resp *r)
{
	switch (r->_state) {
	case HTTP_RESP_S_LENGTH:
	case HTTP_RESP_S_CHUNK_DATA:
		return r->_remaining;
	case HTTP_RESP_S_CLOSE:
		return UINT64_MAX;
	default:
		return 0;
	}
}

enum http_resp_result
http_resp_skip(struct http_resp *r, uint64_t n)
{
	uint64_t most = http_resp_skippable(r);

	if (n > most)
		n = most;
	if (r->_state != HTTP_RESP_S_CLOSE)
		r->_remaining -= n;
	r->body_bytes += n;
	r->total_bytes += n;
	if (r->_remaining == 0 && r->_state == HTTP_RESP_S_LENGTH)
		r->_state = HTTP_RESP_S_DONE;
	else if (r->_remaining == 0 && r->_state == HTTP_RESP_S_CHUNK_DATA)
		r->_state = HTTP_RESP_S_CHUNK_CR;
	return r->_state == HTTP_RESP_S_DONE ? HTTP_RESP_DONE :
	    HTTP_RESP_MORE;
}

enum http_resp_result
http_resp_eof(struct http_resp *r)
{
	switch (r->_state) {
	case HTTP_RESP_S_CLOSE:
		r->_state = HTTP_RESP_S_DONE;
		return HTTP_RESP_DONE;
	case HTTP_RESP_S_DONE:
		return HTTP_RESP_DONE;
	case HTTP_RESP_S_ERROR:
		return HTTP_RESP_ERROR;
	default:
		return http_resp_fail(r, HTTP_RESP_ETRUNCATED);
	}
}

int
http_resp_in_head(const struct http_resp *r)
{
	return r->_state == HTTP_RESP_S_STATUS ||
	    r->_state == HTTP_RESP_S_INTERIM ||
	    r->_state == HTTP_RESP_S_HEADER ||
	    r->_state == HTTP_RESP_S_TRAILER;
}

const char *
http_resp_strerror(enum http_resp_error e)
{
	switch (e) {
	case HTTP_RESP_OK:
		return "no error";
	case HTTP_RESP_EBADSTATUS:
		return "malformed status line";
	case HTTP_RESP_ESTATUSRANGE:
		return "status code out of range";
	case HTTP_RESP_EBADHEADER:
		return "malformed header line";
	case HTTP_RESP_EBADLENGTH:
		return "invalid Content-Length";
	case HTTP_RESP_EBADCHUNK:
		return "invalid chunked encoding";
	case HTTP_RESP_ELINE:
		return "line too long";
	case HTTP_RESP_ETRUNCATED:
		return "connection closed before the end of the reply";
	case HTTP_RESP_EINTERIM:
		return "too many interim replies";
	case HTTP_RESP_EHEAD:
		return "header or trailer section too large";
	}
	return "unknown error";
}
