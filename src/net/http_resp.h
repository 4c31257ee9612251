/*
 * Incremental HTTP/1.x response parser.
 *
 * The parser never allocates and never keeps pointers into the input.  It
 * consumes whole lines (status, header, chunk-size, trailer lines) only when
 * the line is complete in the input; when a line is cut by the end of the
 * input it stops before the line, and the caller presents those bytes again
 * with more appended.  Body bytes are consumed as they come.
 */
#ifndef HTTPERF_NET_HTTP_RESP_H
#define HTTPERF_NET_HTTP_RESP_H

#include <stddef.h>
#include <stdint.h>

enum http_resp_result {
	HTTP_RESP_DONE = 0,	/* the reply is complete */
	HTTP_RESP_MORE = 1,	/* more input is needed */
	HTTP_RESP_ERROR = -1,	/* malformed; see http_resp.error */
};

enum http_resp_error {
	HTTP_RESP_OK = 0,
	HTTP_RESP_EBADSTATUS,	/* status line is not HTTP/1.x NNN */
	HTTP_RESP_ESTATUSRANGE,	/* status code outside 100-599 */
	HTTP_RESP_EBADHEADER,	/* header line without a colon, bad char */
	HTTP_RESP_EBADLENGTH,	/* Content-Length bad, huge or conflicting */
	HTTP_RESP_EBADCHUNK,	/* chunk size line invalid or overflowing */
	HTTP_RESP_ELINE,	/* a line longer than max_line */
	HTTP_RESP_ETRUNCATED,	/* EOF before the end of the reply */
	HTTP_RESP_EINTERIM,	/* more than max_interim 1xx replies */
	HTTP_RESP_EHEAD,	/* header or trailer section over max_head */
};

/* Callbacks; each may be NULL.  Pointers are valid only during the call. */
struct http_resp_cb {
	/* A status line; interim is 1 for a skipped 1xx reply. */
	void	(*status)(void *ctx, int status, int interim);
	/* Body bytes, de-chunked. */
	void	(*body)(void *ctx, const char *data, size_t len);
	/*
	 * Every line of the header section (status lines, interim and final
	 * header lines, and the empty line that ends each block) with
	 * section HTTP_RESP_LINE_HEAD, and every trailer line including the
	 * final empty one with HTTP_RESP_LINE_TRAILER; without EOL, in the
	 * order received.  Chunk-size lines are not reported.
	 */
	void	(*line)(void *ctx, const char *line, size_t len, int section);
};

#define HTTP_RESP_LINE_HEAD	0
#define HTTP_RESP_LINE_TRAILER	1

/*
 * Parser state for one reply.  Public fields are results; fields whose name
 * starts with an underscore are private.
 */
struct http_resp {
	int		status;		/* final status, 0 until known */
	int		minor;		/* HTTP/1.minor of the final reply */
	int		keep_alive;	/* connection reusable after it */
	int		chunked;	/* body is chunked */
	int		close_delimited; /* body ends at EOF */
	int		has_length;	/* Content-Length was given */
	uint64_t	content_length;
	uint64_t	header_bytes;	/* status+header lines, blank line,
					   and all interim 1xx replies */
	uint64_t	body_bytes;	/* content bytes (de-chunked) */
	uint64_t	footer_bytes;	/* trailer lines + final empty line */
	uint64_t	total_bytes;	/* every byte consumed for this reply,
					   chunk framing too */
	enum http_resp_error error;

	size_t		max_line;	/* longest line accepted, without its
					   CRLF or LF; 0 = any */
	unsigned	max_interim;	/* 1xx replies accepted, 0 = any */
	uint64_t	max_head;	/* most bytes of the header section
					   (interim replies included), and
					   of the trailer section; 0 = any */

	int		_state;
	int		_head;
	unsigned	_ninterim;
	int		_conn_close;
	int		_conn_keep_alive;
	uint64_t	_remaining;	/* body bytes still expected, or the
					   bytes of a partial line searched */
};

/*
 * Resets `r' for a new reply.  `head' is non-zero when the request was a
 * HEAD (the reply then has no body).  Keeps max_line, max_interim and
 * max_head.
 */
void	http_resp_reset(struct http_resp *r, int head);

/*
 * Parses buf[0..len).  Sets *consumed to the bytes used.  On HTTP_RESP_MORE
 * the caller keeps buf[*consumed..len) and presents it again, followed by
 * new input.  On HTTP_RESP_DONE the bytes after *consumed belong to the next
 * reply.  On HTTP_RESP_ERROR `error' says why; the connection is unusable.
 * Once DONE or ERROR, later calls return the same result and consume
 * nothing until http_resp_reset.  `cb' may be NULL.
 */
enum http_resp_result http_resp_parse(struct http_resp *r, const char *buf,
	    size_t len, size_t *consumed, const struct http_resp_cb *cb,
	    void *ctx);

/*
 * Tells the parser the peer closed the connection.  Returns HTTP_RESP_DONE
 * when that completes a close-delimited body, else HTTP_RESP_ERROR with
 * error HTTP_RESP_ETRUNCATED.
 */
enum http_resp_result http_resp_eof(struct http_resp *r);

/*
 * Returns non-zero while the parser is inside a header or trailer section
 * (a status, header or trailer line expected or partly read), zero in the
 * body, before the first byte and once done.
 */
int	http_resp_in_head(const struct http_resp *r);

/*
 * The body bytes that come next and that the parser would take without
 * looking at them: the rest of a Content-Length body, the rest of the
 * current chunk's data, or UINT64_MAX in a body that ends at EOF; 0
 * anywhere else (a line, chunk framing, done).  A caller that wants no
 * body bytes may drop up to that many unread (recv with MSG_TRUNC) and
 * count them with http_resp_skip().
 */
uint64_t http_resp_skippable(const struct http_resp *r);

/*
 * Counts n body bytes (at most http_resp_skippable()) as received
 * without their content: the body and total byte counts grow, and the
 * state moves on as if they had been parsed.  Returns HTTP_RESP_DONE
 * when that ends the reply, else HTTP_RESP_MORE.
 */
enum http_resp_result http_resp_skip(struct http_resp *r, uint64_t n);

/*
 * The body bytes that come next and that the parser would take without
 * looking at them: the rest of a Content-Length body, the rest of the
 * current chunk's data, or UINT64_MAX in a body that ends at EOF; 0
 * anywhere else (a line, chunk framing, done).  A caller that wants no
 * body bytes may drop up to that many unread (recv with MSG_TRUNC) and
 * count them with http_resp_skip().
 */
uint64_t http_resp_skippable(const struct http_resp *r);

/*
 * Counts n body bytes (at most http_resp_skippable()) as received
 * without their content: the body and total byte counts grow, and the
 * state moves on as if they had been parsed.  Returns HTTP_RESP_DONE
 * when that ends the reply, else HTTP_RESP_MORE.
 */
enum http_resp_result http_resp_skip(struct http_resp *r, uint64_t n);

/* Returns a short English description of an error code. */
const char *http_resp_strerror(enum http_resp_error e);

#endif
