/*
 * Check runner for the HTTP/1.x response parser.  Each table row is a raw
 * reply with its expected outcome; every row is parsed in one piece, split
 * at every offset into two pieces, byte by byte (keeping the unconsumed
 * tail as a caller does) and with its last byte right before a PROT_NONE
 * page, and all runs must agree with the table and with each other.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/http_resp.h"
#include "unit.h"

/*
 * A reply as segments: the header section (with interim replies), the
 * body as sent (chunk framing included), the trailer section, and bytes
 * left unconsumed after the reply.  Expected byte counts follow from the
 * segment lengths; `body' is the de-chunked body (NULL: same as `mid').
 */
struct row {
	const char	*name;
	const char	*hdr;
	const char	*mid;
	const char	*foot;
	const char	*tail;
	const char	*body;
	int		 head;
	size_t		 max_line;
	unsigned	 max_interim;
	enum http_resp_result result;
	enum http_resp_error error;
	int		 status;
	int		 keep_alive;
	int		 nheader;
	int		 ntrailer;
	int		 ninterim;
};

/* What the callbacks saw. */
struct capture {
	char		*body;
	size_t		 blen;
	size_t		 bcap;
	char		 lines[512];	/* header lines, '\n'-separated */
	size_t		 llen;
	int		 nheader;
	int		 ntrailer;
	int		 ninterim;
	int		 nfinal;
	int		 bad;		/* a callback got bad arguments */
	int		 skip;		/* the next line is a status line */
	int		 fields;	/* in the final reply's header block */
};

/* The result of feeding one row to the parser. */
struct outcome {
	enum http_resp_result res;
	struct http_resp r;
	size_t		 consumed;
	struct capture	 cap;
};

enum feed_mode {
	FEED_MALLOC,		/* each call sees an exact-size heap copy */
	FEED_GUARD,		/* each call's input ends at a PROT_NONE page */
};

#define H11	"HTTP/1.1 200 OK\r\n"
#define CHUNKED	"Transfer-Encoding: chunked\r\n"

#define DONE	.result = HTTP_RESP_DONE
#define FAIL(e)	.result = HTTP_RESP_ERROR, .error = HTTP_RESP_##e

static const struct row rows[] = {
	/* Content-Length framing and keep-alive. */
	{ .name = "cl body", .hdr = H11 "Content-Length: 5\r\n\r\n",
	  .mid = "hello", DONE, .status = 200, .keep_alive = 1,
	  .nheader = 1 },
	{ .name = "cl 0", .hdr = H11 "Content-Length: 0\r\n\r\n",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "1.1 keep-alive, several headers",
	  .hdr = H11 "Server: t\r\ncontent-length:3\r\n"
	  "Content-Type: text/plain\r\n\r\n", .mid = "abc",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 3 },
	{ .name = "cl with ows", .hdr = H11 "Content-Length: \t 4 \t\r\n\r\n",
	  .mid = "abcd", DONE, .status = 200, .keep_alive = 1,
	  .nheader = 1 },
	{ .name = "connection close",
	  .hdr = H11 "Connection: close\r\nContent-Length: 2\r\n\r\n",
	  .mid = "hi", DONE, .status = 200, .keep_alive = 0, .nheader = 2 },
	{ .name = "connection list, upper case",
	  .hdr = H11 "Connection: Upgrade , CLOSE\r\n"
	  "Content-Length: 0\r\n\r\n",
	  DONE, .status = 200, .keep_alive = 0, .nheader = 2 },
	{ .name = "1.0 default close",
	  .hdr = "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n",
	  .mid = "hi", DONE, .status = 200, .keep_alive = 0, .nheader = 1 },
	{ .name = "1.0 keep-alive",
	  .hdr = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\n"
	  "Content-Length: 2\r\n\r\n",
	  .mid = "hi", DONE, .status = 200, .keep_alive = 1, .nheader = 2 },
	{ .name = "1.0 keep-alive and close",
	  .hdr = "HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\n"
	  "Content-Length: 2\r\n\r\n",
	  .mid = "hi", DONE, .status = 200, .keep_alive = 0, .nheader = 2 },
	{ .name = "1.0 close-delimited body",
	  .hdr = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n",
	  .mid = "all of it\r\nuntil EOF\n", DONE, .status = 200,
	  .keep_alive = 0, .nheader = 1 },
	{ .name = "1.1 close-delimited empty body", .hdr = H11 "\r\n",
	  DONE, .status = 200, .keep_alive = 0 },
	{ .name = "cl max value, truncated",
	  .hdr = H11 "Content-Length: 9223372036854775807\r\n\r\n",
	  .mid = "abc", FAIL(ETRUNCATED), .status = 200, .nheader = 1 },
	{ .name = "cl identical list",
	  .hdr = H11 "Content-Length: 3, 3,3\r\n\r\n", .mid = "abc",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "cl identical fields",
	  .hdr = H11 "Content-Length: 3\r\nContent-Length: 003\r\n\r\n",
	  .mid = "abc", DONE, .status = 200, .keep_alive = 1,
	  .nheader = 2 },

	/* Chunked framing. */
	{ .name = "chunked", .hdr = H11 CHUNKED "\r\n",
	  .mid = "5\r\nhello\r\n6\r\n world\r\n0\r\n", .foot = "\r\n",
	  .body = "hello world", DONE, .status = 200, .keep_alive = 1,
	  .nheader = 1 },
	{ .name = "chunked with trailers", .hdr = H11 CHUNKED "\r\n",
	  .mid = "a\r\n0123456789\r\n0\r\n",
	  .foot = "Expires: never\r\nX-Sum:1\r\n\r\n", .body = "0123456789",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 1,
	  .ntrailer = 2 },
	{ .name = "chunked with extensions", .hdr = H11 CHUNKED "\r\n",
	  .mid = "5;name=value\r\nhello\r\n3 ; ext=\"q\"\r\nabc\r\n"
	  "0;last\r\n", .foot = "\r\n", .body = "helloabc", DONE,
	  .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "chunked upper hex, leading zeros",
	  .hdr = H11 CHUNKED "\r\n", .mid = "00A\r\n0123456789\r\n0000\r\n",
	  .foot = "\r\n", .body = "0123456789", DONE, .status = 200,
	  .keep_alive = 1, .nheader = 1 },
	{ .name = "chunked big size, truncated", .hdr = H11 CHUNKED "\r\n",
	  .mid = "7fffffffffffffff\r\nxyz", .body = "xyz",
	  FAIL(ETRUNCATED), .status = 200, .nheader = 1 },
	{ .name = "chunked truncated in crlf", .hdr = H11 CHUNKED "\r\n",
	  .mid = "3\r\nabc\r", .body = "abc", FAIL(ETRUNCATED),
	  .status = 200, .nheader = 1 },
	{ .name = "chunked truncated in trailer",
	  .hdr = H11 CHUNKED "\r\n", .mid = "0\r\n", .foot = "A: b\r\n",
	  .tail = "B: ", .body = "", FAIL(ETRUNCATED), .status = 200,
	  .nheader = 1, .ntrailer = 1 },
	{ .name = "te gzip, chunked",
	  .hdr = H11 "Transfer-Encoding: gzip, chunked\r\n\r\n",
	  .mid = "3\r\nabc\r\n0\r\n", .foot = "\r\n", .body = "abc", DONE,
	  .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "te in two fields",
	  .hdr = H11 "Transfer-Encoding: gzip\r\n"
	  "transfer-encoding: Chunked\r\n\r\n",
	  .mid = "3\r\nabc\r\n0\r\n", .foot = "\r\n", .body = "abc", DONE,
	  .status = 200, .keep_alive = 1, .nheader = 2 },
	{ .name = "te gzip alone is close-delimited",
	  .hdr = H11 "Transfer-Encoding: gzip\r\n\r\n", .mid = "3\r\nabc",
	  DONE, .status = 200, .keep_alive = 0, .nheader = 1 },
	{ .name = "te chunked, gzip is close-delimited",
	  .hdr = H11 "Transfer-Encoding: chunked, gzip\r\n\r\n",
	  .mid = "0\r\n\r\n", DONE, .status = 200, .keep_alive = 0,
	  .nheader = 1 },
	{ .name = "te overrides cl, no reuse",
	  .hdr = H11 "Content-Length: 100\r\n" CHUNKED "\r\n",
	  .mid = "2\r\nok\r\n0\r\n", .foot = "\r\n", .body = "ok", DONE,
	  .status = 200, .keep_alive = 0, .nheader = 2 },
	{ .name = "te chunked in 1.0, no reuse",
	  .hdr = "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n"
	  CHUNKED "\r\n", .mid = "2\r\nok\r\n0\r\n", .foot = "\r\n",
	  .body = "ok", DONE, .status = 200, .keep_alive = 0,
	  .nheader = 2 },

	/* Replies without a body. */
	{ .name = "head with cl", .head = 1,
	  .hdr = H11 "Content-Length: 1234\r\n\r\n", .tail = "HTTP/1.1",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "head with chunked", .head = 1,
	  .hdr = H11 CHUNKED "\r\n", .tail = "0\r\n\r\n",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "204 with cl",
	  .hdr = "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n",
	  .tail = "HTTP/1.1 200", DONE, .status = 204, .keep_alive = 1,
	  .nheader = 1 },
	{ .name = "304 with cl",
	  .hdr = "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
	  DONE, .status = 304, .keep_alive = 1, .nheader = 1 },

	/* Interim replies. */
	{ .name = "100 then 200",
	  .hdr = "HTTP/1.1 100 Continue\r\n\r\n" H11
	  "Content-Length: 2\r\n\r\n", .mid = "ok", DONE, .status = 200,
	  .keep_alive = 1, .nheader = 1, .ninterim = 1 },
	{ .name = "103 then 200",
	  .hdr = "HTTP/1.1 103 Early Hints\r\n"
	  "Link: </s.css>; rel=preload\r\nContent-Length: 99\r\n\r\n"
	  H11 "Content-Length: 0\r\n\r\n", DONE, .status = 200,
	  .keep_alive = 1, .nheader = 1, .ninterim = 1 },
	{ .name = "several 1xx",
	  .hdr = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n"
	  "\r\nHTTP/1.1 103 Early Hints\r\nLink: <a>\r\n\r\n"
	  "HTTP/1.1 199\r\n\r\n" H11 "Content-Length: 1\r\n\r\n",
	  .mid = "x", DONE, .status = 200, .keep_alive = 1, .nheader = 1,
	  .ninterim = 4 },
	{ .name = "max_interim reached", .max_interim = 2,
	  .hdr = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"
	  H11 "Content-Length: 0\r\n\r\n", DONE, .status = 200,
	  .keep_alive = 1, .nheader = 1, .ninterim = 2 },
	{ .name = "max_interim exceeded", .max_interim = 2,
	  .hdr = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"
	  "HTTP/1.1 100 Continue\r\n\r\n" H11 "Content-Length: 0\r\n\r\n",
	  FAIL(EINTERIM), .ninterim = 2 },
	{ .name = "interim bad header",
	  .hdr = "HTTP/1.1 103 Early Hints\r\nLink <a>\r\n\r\n",
	  FAIL(EBADHEADER), .ninterim = 1 },
	{ .name = "101 switching protocols",
	  .hdr = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
	  "Connection: Upgrade\r\n\r\n", .tail = "\x81\x05" "hello",
	  DONE, .status = 101, .keep_alive = 0, .nheader = 2 },

	/* Line ends and status line variants. */
	{ .name = "bare lf",
	  .hdr = "HTTP/1.1 200 OK\nContent-Length: 3\n\n", .mid = "abc",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "bare lf chunked",
	  .hdr = "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n",
	  .mid = "3\nabc\n0\n", .foot = "T: 1\n\n", .body = "abc", DONE,
	  .status = 200, .keep_alive = 1, .nheader = 1, .ntrailer = 1 },
	{ .name = "mixed line ends",
	  .hdr = "HTTP/1.1 200 OK\nA: 1\r\nContent-Length: 1\n\r\n",
	  .mid = "z", DONE, .status = 200, .keep_alive = 1, .nheader = 2 },
	{ .name = "empty reason",
	  .hdr = "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", DONE,
	  .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "no reason, no space",
	  .hdr = "HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n", DONE,
	  .status = 404, .keep_alive = 1, .nheader = 1 },
	{ .name = "reason with spaces, 599",
	  .hdr = "HTTP/1.1 599 Some  Odd Reason \r\nContent-Length: 0\r\n\r\n",
	  DONE, .status = 599, .keep_alive = 1, .nheader = 1 },
	{ .name = "status 000", .hdr = "HTTP/1.1 000 Zero\r\n\r\n",
	  FAIL(ESTATUSRANGE) },
	{ .name = "status 099", .hdr = "HTTP/1.1 099 Low\r\n\r\n",
	  FAIL(ESTATUSRANGE) },
	{ .name = "status 600", .hdr = "HTTP/1.1 600 High\r\n\r\n",
	  FAIL(ESTATUSRANGE) },
	{ .name = "status 999", .hdr = "HTTP/1.1 999\r\n\r\n",
	  FAIL(ESTATUSRANGE) },
	{ .name = "status 0", .hdr = "HTTP/1.1 0 OK\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "status 99", .hdr = "HTTP/1.1 99 OK\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "status 2000", .hdr = "HTTP/1.1 2000 OK\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "status 200OK", .hdr = "HTTP/1.1 200OK\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "garbage line", .hdr = "garbage\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "garbage without newline", .hdr = "<html><body>",
	  FAIL(EBADSTATUS) },
	{ .name = "HTTP/2 200", .hdr = "HTTP/2 200\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "HTTP/1.10", .hdr = "HTTP/1.10 200 OK\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "lower-case http", .hdr = "http/1.1 200 OK\r\n\r\n",
	  FAIL(EBADSTATUS) },
	{ .name = "leading blank line", .hdr = "\r\nHTTP/1.1 200 OK\r\n\r\n",
	  FAIL(EBADSTATUS) },

	/* Content-Length errors. */
	{ .name = "cl not a number", .hdr = H11 "Content-Length: abc\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl empty", .hdr = H11 "Content-Length:\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl negative", .hdr = H11 "Content-Length: -5\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl plus sign", .hdr = H11 "Content-Length: +5\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl two numbers", .hdr = H11 "Content-Length: 5 5\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl 2^63", .hdr = H11
	  "Content-Length: 9223372036854775808\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl overflow", .hdr = H11
	  "Content-Length: 184467440737095516160\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl conflicting list", .hdr = H11
	  "Content-Length: 5, 6\r\n\r\n", FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl trailing comma", .hdr = H11
	  "Content-Length: 5,\r\n\r\n", FAIL(EBADLENGTH), .status = 200 },
	{ .name = "cl conflicting fields", .hdr = H11
	  "Content-Length: 5\r\nContent-Length: 6\r\n\r\n",
	  FAIL(EBADLENGTH), .status = 200 },

	/* Chunk errors. */
	{ .name = "chunk size garbage", .hdr = H11 CHUNKED "\r\n",
	  .mid = "zz\r\n", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "chunk size empty", .hdr = H11 CHUNKED "\r\n",
	  .mid = "\r\nabc", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "chunk size negative", .hdr = H11 CHUNKED "\r\n",
	  .mid = "-5\r\nabc", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "chunk size trailing junk", .hdr = H11 CHUNKED "\r\n",
	  .mid = "5x\r\nhello\r\n", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "chunk size 2^63", .hdr = H11 CHUNKED "\r\n",
	  .mid = "8000000000000000\r\n", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "chunk size overflow", .hdr = H11 CHUNKED "\r\n",
	  .mid = "100000000000000000\r\n", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "chunk data without crlf", .hdr = H11 CHUNKED "\r\n",
	  .mid = "3\r\nabcX\r\n0\r\n\r\n", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "chunk data cr without lf", .hdr = H11 CHUNKED "\r\n",
	  .mid = "3\r\nabc\rX0\r\n\r\n", FAIL(EBADCHUNK), .status = 200 },
	{ .name = "trailer without colon", .hdr = H11 CHUNKED "\r\n",
	  .mid = "0\r\nbad trailer\r\n\r\n", FAIL(EBADHEADER),
	  .status = 200 },

	/* Header lines. */
	{ .name = "header without colon", .hdr = H11 "NoColon\r\n\r\n",
	  FAIL(EBADHEADER), .status = 200 },
	{ .name = "header space before colon",
	  .hdr = H11 "Content-Length : 0\r\n\r\n", FAIL(EBADHEADER),
	  .status = 200 },
	{ .name = "header empty name", .hdr = H11 ": value\r\n\r\n",
	  FAIL(EBADHEADER), .status = 200 },
	{ .name = "header space in name", .hdr = H11 "Na me: v\r\n\r\n",
	  FAIL(EBADHEADER), .status = 200 },
	{ .name = "obs-fold",
	  .hdr = H11 "X-Long: a\r\n  continued\r\n\tmore\r\n"
	  "Content-Length: 2\r\n\r\n", .mid = "ok", DONE, .status = 200,
	  .keep_alive = 1, .nheader = 4 },
	{ .name = "empty header value",
	  .hdr = H11 "X-Empty:\r\nContent-Length: 0\r\n\r\n", DONE,
	  .status = 200, .keep_alive = 1, .nheader = 2 },

	/* Pipelining, truncation, limits. */
	{ .name = "pipelined", .hdr = H11 "Content-Length: 2\r\n\r\n",
	  .mid = "ok", .tail = "HTTP/1.1 204 No Content\r\n\r\n", DONE,
	  .status = 200, .keep_alive = 1, .nheader = 1 },
	{ .name = "truncated body", .hdr = H11 "Content-Length: 10\r\n\r\n",
	  .mid = "short", FAIL(ETRUNCATED), .status = 200, .nheader = 1 },
	{ .name = "truncated in header", .hdr = H11 "A: b\r\n",
	  .tail = "Content-Len", FAIL(ETRUNCATED), .status = 200,
	  .nheader = 1 },
	{ .name = "truncated in status line", .tail = "HTTP/1.1 20",
	  FAIL(ETRUNCATED) },
	{ .name = "eof before any byte", FAIL(ETRUNCATED) },
	{ .name = "max_line exact", .max_line = 20,
	  .hdr = H11 "X-Exactly-Twenty: ab\r\nContent-Length: 0\r\n\r\n",
	  DONE, .status = 200, .keep_alive = 1, .nheader = 2 },
	{ .name = "max_line exceeded", .max_line = 20,
	  .hdr = H11 "X-Exactly-Twenty: abc\r\nContent-Length: 0\r\n\r\n",
	  FAIL(ELINE), .status = 200 },
	{ .name = "max_line exceeded without newline", .max_line = 20,
	  .hdr = H11 "X-Way-Too-Long: 01234567890123456789",
	  FAIL(ELINE), .status = 200 },
	{ .name = "max_line status line", .max_line = 10,
	  .hdr = H11 "\r\n", FAIL(ELINE) },
	{ .name = "max_line chunk extension", .max_line = 20,
	  .hdr = H11 CHUNKED "\r\n", .mid = "5;aaaaaaaaaaaaaaaaaaaaaaaa\r\n",
	  FAIL(ELINE), .status = 200 },
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

static size_t
str_len(const char *s)
{
	return s == NULL ? 0 : strlen(s);
}

static void
capture_status(void *ctx, int status, int interim)
{
	struct capture *c = ctx;

	if (interim) {
		c->ninterim++;
		if (status < 100 || status > 199 || status == 101)
			c->bad++;
	} else {
		c->nfinal++;
		c->fields = 1;
	}
	c->skip = 1;
}

/*
 * Keeps the final reply's header fields and the trailer fields: the lines
 * after a final status line up to the empty line, and the trailer lines
 * but the empty one.
 */
static void
capture_line(void *ctx, const char *line, size_t len, int section)
{
	struct capture *c = ctx;
	int trailer = section == HTTP_RESP_LINE_TRAILER;

	if (len > 0 && (memchr(line, '\n', len) != NULL ||
	    line[len - 1] == '\r'))
		c->bad++;
	if (!trailer && c->skip) {
		c->skip = 0;
		return;
	}
	if (len == 0) {
		c->fields = 0;
		return;
	}
	if (!trailer && !c->fields)
		return;
	if (trailer)
		c->ntrailer++;
	else
		c->nheader++;
	if (c->llen + len + 2 < sizeof(c->lines)) {
		memcpy(c->lines + c->llen, line, len);
		c->llen += len;
		c->lines[c->llen++] = trailer ? '|' : '\n';
		c->lines[c->llen] = '\0';
	}
}

static void
capture_body(void *ctx, const char *data, size_t len)
{
	struct capture *c = ctx;

	if (len == 0)
		c->bad++;
	if (c->blen + len > c->bcap) {
		c->bcap = (c->blen + len) * 2 + 64;
		if ((c->body = realloc(c->body, c->bcap)) == NULL)
			abort();
	}
	memcpy(c->body + c->blen, data, len);
	c->blen += len;
}

static const struct http_resp_cb capture_cb = {
	.status = capture_status,
	.body = capture_body,
	.line = capture_line,
};

/* Joins a row's segments into one malloc'd buffer. */
static char *
row_raw(const struct row *row, size_t *len)
{
	const char *seg[4] = { row->hdr, row->mid, row->foot, row->tail };
	char *raw;
	size_t i, n = 0, off = 0;

	for (i = 0; i < 4; i++)
		n += str_len(seg[i]);
	if ((raw = malloc(n + 1)) == NULL)
		abort();
	for (i = 0; i < 4; i++) {
		memcpy(raw + off, seg[i] == NULL ? "" : seg[i],
		    str_len(seg[i]));
		off += str_len(seg[i]);
	}
	*len = n;
	return raw;
}

/*
 * Feeds `raw' as a first piece of `first' bytes, then pieces of `piece'
 * bytes (0: all the rest), keeping the unconsumed tail like a caller and
 * presenting it in a fresh exact-size copy or right before a guard page.
 * Calls http_resp_eof when the input runs out before the end of reply.
 */
static void
feed(const struct row *row, const char *raw, size_t len, size_t first,
    size_t piece, enum feed_mode mode, struct outcome *o)
{
	char *pend, *gend = NULL, *buf;
	size_t plen = 0, off = 0, n, c;
	struct unit_guard g;

	memset(o, 0, sizeof(*o));
	memset(&o->r, 0xa5, sizeof(o->r));
	o->r.max_line = row->max_line;
	o->r.max_interim = row->max_interim;
	http_resp_reset(&o->r, row->head);
	if ((pend = malloc(len + 1)) == NULL)
		abort();
	if (mode == FEED_GUARD)
		gend = unit_guard_map(&g, len);

	o->res = http_resp_parse(&o->r, pend, 0, &c, &capture_cb, &o->cap);
	ck_assert_int_eq(o->res, HTTP_RESP_MORE);
	ck_assert_uint_eq(c, 0);

	while (off < len && o->res == HTTP_RESP_MORE) {
		n = off == 0 ? first : piece == 0 ? len - off : piece;
		if (n > len - off)
			n = len - off;
		memcpy(pend + plen, raw + off, n);
		plen += n;
		off += n;
		if (mode == FEED_GUARD) {
			buf = gend - plen;
			memmove(buf, pend, plen);
		} else {
			if ((buf = malloc(plen)) == NULL)
				abort();
			memcpy(buf, pend, plen);
		}
		o->res = http_resp_parse(&o->r, buf, plen, &c, &capture_cb,
		    &o->cap);
		if (mode == FEED_MALLOC)
			free(buf);
		ck_assert_uint_le(c, plen);
		memmove(pend, pend + c, plen - c);
		plen -= c;
		o->consumed += c;
	}
	if (o->res == HTTP_RESP_MORE)
		o->res = http_resp_eof(&o->r);

	/* Once finished, the parser consumes nothing more. */
	memcpy(pend + plen, raw + off, len - off);
	plen += len - off;
	ck_assert_int_eq(http_resp_parse(&o->r, pend, plen, &c, &capture_cb,
	    &o->cap), o->res);
	ck_assert_uint_eq(c, 0);
	free(pend);
	if (gend != NULL)
		unit_guard_unmap(&g);
}

/* Checks one run against the row's expectations. */
static void
expect_row(const struct row *row, const struct outcome *o, const char *how)
{
	const struct http_resp *r = &o->r;
	const char *body = row->body != NULL ? row->body : row->mid;
	size_t blen = str_len(body);

	ck_assert_msg(o->res == row->result, "%s (%s): result %d, not %d",
	    row->name, how, o->res, row->result);
	ck_assert_msg(r->error == (o->res == HTTP_RESP_ERROR ? row->error :
	    HTTP_RESP_OK), "%s (%s): error %s", row->name, how,
	    http_resp_strerror(r->error));
	ck_assert_msg(r->status == row->status, "%s (%s): status %d",
	    row->name, how, r->status);
	ck_assert_msg(o->cap.bad == 0, "%s (%s): bad callback", row->name,
	    how);
	ck_assert_msg(o->cap.ninterim == row->ninterim,
	    "%s (%s): %d interim", row->name, how, o->cap.ninterim);
	ck_assert_msg(o->cap.nfinal == (r->status != 0),
	    "%s (%s): %d final status callbacks", row->name, how,
	    o->cap.nfinal);
	ck_assert_msg(r->total_bytes == o->consumed &&
	    r->total_bytes >= r->header_bytes + r->body_bytes +
	    r->footer_bytes, "%s (%s): total %llu",
	    row->name, how, (unsigned long long)r->total_bytes);
	ck_assert_uint_eq(o->cap.blen, r->body_bytes);
	if (o->res == HTTP_RESP_DONE)
		ck_assert_msg(r->keep_alive == row->keep_alive,
		    "%s (%s): keep_alive %d", row->name, how, r->keep_alive);
	if (o->res == HTTP_RESP_DONE || r->error == HTTP_RESP_ETRUNCATED) {
		ck_assert_msg(o->cap.nheader == row->nheader &&
		    o->cap.ntrailer == row->ntrailer,
		    "%s (%s): %d headers, %d trailers", row->name, how,
		    o->cap.nheader, o->cap.ntrailer);
		ck_assert_msg(r->header_bytes == str_len(row->hdr),
		    "%s (%s): header_bytes %llu", row->name, how,
		    (unsigned long long)r->header_bytes);
		ck_assert_msg(r->body_bytes == blen &&
		    (blen == 0 || memcmp(o->cap.body, body, blen) == 0),
		    "%s (%s): body_bytes %llu", row->name, how,
		    (unsigned long long)r->body_bytes);
		ck_assert_msg(r->footer_bytes == str_len(row->foot),
		    "%s (%s): footer_bytes %llu", row->name, how,
		    (unsigned long long)r->footer_bytes);
		/* The rest is chunk framing. */
		ck_assert_msg(r->total_bytes == r->header_bytes +
		    r->body_bytes + r->footer_bytes + str_len(row->mid) -
		    blen, "%s (%s): total_bytes %llu", row->name, how,
		    (unsigned long long)r->total_bytes);
		ck_assert_msg(o->consumed == str_len(row->hdr) +
		    str_len(row->mid) + str_len(row->foot),
		    "%s (%s): consumed %zu", row->name, how, o->consumed);
	}
}

/* Checks that a run agrees with the one-piece run in every detail. */
static void
expect_same(const struct row *row, const struct outcome *a,
    const struct outcome *b, const char *how)
{
	ck_assert_msg(a->res == b->res && a->r.error == b->r.error &&
	    a->r.status == b->r.status && a->r.minor == b->r.minor &&
	    a->r.keep_alive == b->r.keep_alive &&
	    a->r.chunked == b->r.chunked &&
	    a->r.close_delimited == b->r.close_delimited &&
	    a->r.has_length == b->r.has_length &&
	    a->r.content_length == b->r.content_length &&
	    a->r.header_bytes == b->r.header_bytes &&
	    a->r.body_bytes == b->r.body_bytes &&
	    a->r.footer_bytes == b->r.footer_bytes &&
	    a->r.total_bytes == b->r.total_bytes &&
	    a->consumed == b->consumed &&
	    a->cap.nheader == b->cap.nheader &&
	    a->cap.ntrailer == b->cap.ntrailer &&
	    a->cap.ninterim == b->cap.ninterim &&
	    a->cap.llen == b->cap.llen &&
	    memcmp(a->cap.lines, b->cap.lines, a->cap.llen) == 0 &&
	    a->cap.blen == b->cap.blen &&
	    (a->cap.blen == 0 ||
	    memcmp(a->cap.body, b->cap.body, a->cap.blen) == 0),
	    "%s (%s): differs from the one-piece run", row->name, how);
}

/* Runs a row in every way and checks every run. */
static void
check_row(const struct row *row)
{
	struct outcome one, o;
	char how[64];
	size_t len, k, step;
	char *raw = row_raw(row, &len);

	feed(row, raw, len, len, 0, FEED_MALLOC, &one);
	expect_row(row, &one, "one piece");

	feed(row, raw, len, len, 0, FEED_GUARD, &o);
	expect_row(row, &o, "guard page");
	expect_same(row, &one, &o, "guard page");
	free(o.cap.body);

	/* Long rows are split at a sample of offsets to bound the time. */
	step = len <= 16384 ? 1 : len / 512;
	for (k = 1; k < len; k += step) {
		snprintf(how, sizeof(how), "split at %zu", k);
		feed(row, raw, len, k, 0, FEED_MALLOC, &o);
		expect_row(row, &o, how);
		expect_same(row, &one, &o, how);
		free(o.cap.body);
	}

	feed(row, raw, len, 1, 1, FEED_MALLOC, &o);
	expect_row(row, &o, "byte by byte");
	expect_same(row, &one, &o, "byte by byte");
	free(o.cap.body);

	if (len <= 16384) {
		feed(row, raw, len, 1, 1, FEED_GUARD, &o);
		expect_row(row, &o, "byte by byte, guard page");
		expect_same(row, &one, &o, "byte by byte, guard page");
		free(o.cap.body);
	}
	free(one.cap.body);
	free(raw);
}

START_TEST(test_rows)
{
	check_row(&rows[_i]);
}
END_TEST

/* Builds a header section of `n' small headers and a Content-Length. */
static char *
many_headers(int n)
{
	size_t cap = (size_t)n * 32 + 64, off;
	char *s;
	int i;

	if ((s = malloc(cap)) == NULL)
		abort();
	off = (size_t)snprintf(s, cap, "%s", H11);
	for (i = 0; i < n; i++)
		off += (size_t)snprintf(s + off, cap - off,
		    "X-Header-%d: value %d\r\n", i, i);
	snprintf(s + off, cap - off, "Content-Length: 4\r\n\r\n");
	return s;
}

START_TEST(test_many_headers)
{
	struct row row = { .name = "5000 headers", .mid = "data", DONE,
	    .status = 200, .keep_alive = 1, .nheader = 5001 };
	char *hdr = many_headers(5000);

	row.hdr = hdr;
	check_row(&row);
	free(hdr);
}
END_TEST

/* Builds a header section with one header of `n' value bytes. */
static char *
big_header(size_t n)
{
	static const char pre[] = H11 "X-Big: ";
	static const char post[] = "\r\nContent-Length: 1\r\n\r\n";
	char *s;

	if ((s = malloc(sizeof(pre) + n + sizeof(post))) == NULL)
		abort();
	memcpy(s, pre, sizeof(pre) - 1);
	memset(s + sizeof(pre) - 1, 'a', n);
	memcpy(s + sizeof(pre) - 1 + n, post, sizeof(post));
	return s;
}

START_TEST(test_big_header)
{
	struct row row = { .name = "100 KB header", .mid = "!", DONE,
	    .status = 200, .keep_alive = 1, .nheader = 2 };
	struct row limited = { .name = "100 KB header, max_line",
	    .max_line = 8192, FAIL(ELINE), .status = 200 };
	char *hdr = big_header(100 * 1024);

	row.hdr = hdr;
	check_row(&row);
	limited.hdr = hdr;
	check_row(&limited);
	free(hdr);
}
END_TEST

/* Parses buf in one call with a fresh capture. */
static enum http_resp_result
parse_all(struct http_resp *r, const char *buf, size_t *consumed,
    struct capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	return http_resp_parse(r, buf, strlen(buf), consumed, &capture_cb,
	    cap);
}

START_TEST(test_pipelined)
{
	static const char *replies[] = {
		H11 "Content-Length: 5\r\n\r\nhello",
		"HTTP/1.1 100 Continue\r\n\r\n" H11 CHUNKED "\r\n"
		    "3\r\nabc\r\n0\r\nT: x\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
		H11 "Content-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\nConnection: close\n\n",
	};
	static const uint64_t body[] = { 5, 3, 0, 0, 0 };
	struct http_resp r;
	struct capture cap;
	char all[512] = "";
	size_t i, off = 0, c;
	enum http_resp_result res;

	for (i = 0; i < 5; i++)
		strcat(all, replies[i]);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 5; i++) {
		http_resp_reset(&r, 0);
		res = parse_all(&r, all + off, &c, &cap);
		if (i < 4) {
			ck_assert_int_eq(res, HTTP_RESP_DONE);
			ck_assert_int_eq(r.keep_alive, 1);
		} else {
			ck_assert_int_eq(res, HTTP_RESP_MORE);
			ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_DONE);
			ck_assert_int_eq(r.keep_alive, 0);
		}
		ck_assert_uint_eq(c, strlen(replies[i]));
		ck_assert_uint_eq(r.total_bytes, c);
		ck_assert_uint_eq(r.body_bytes, body[i]);
		free(cap.body);
		off += c;
	}
	ck_assert_uint_eq(off, strlen(all));
}
END_TEST

START_TEST(test_eof)
{
	static const char part[] = "HTTP/1.1 20";
	static const char cdel[] = H11 "\r\n";
	static const char cl[] = H11 "Content-Length: 1\r\n\r\nx";
	struct http_resp r;
	struct capture cap;
	size_t c;

	/* Closed before any byte: an error, not in a head. */
	memset(&r, 0, sizeof(r));
	http_resp_reset(&r, 0);
	ck_assert_int_eq(http_resp_in_head(&r), 0);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_ERROR);
	ck_assert_int_eq(r.error, HTTP_RESP_ETRUNCATED);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_ERROR);
	ck_assert_int_eq(parse_all(&r, cl, &c, &cap), HTTP_RESP_ERROR);
	ck_assert_uint_eq(c, 0);
	ck_assert_int_eq(http_resp_in_head(&r), 0);

	/* Closed in a partial status line: in the head though nothing
	   used. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, part, &c, &cap), HTTP_RESP_MORE);
	ck_assert_uint_eq(c, 0);
	ck_assert_int_ne(http_resp_in_head(&r), 0);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_ERROR);
	ck_assert_int_eq(r.error, HTTP_RESP_ETRUNCATED);
	ck_assert_int_eq(http_resp_in_head(&r), 0);

	/* A close-delimited body of 0 bytes is complete at EOF. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, cdel, &c, &cap), HTTP_RESP_MORE);
	ck_assert_uint_eq(c, sizeof(cdel) - 1);
	ck_assert_int_eq(r.close_delimited, 1);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_DONE);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_DONE);
	ck_assert_uint_eq(r.body_bytes, 0);
	ck_assert_int_eq(r.keep_alive, 0);
	ck_assert_int_eq(parse_all(&r, cl, &c, &cap), HTTP_RESP_DONE);
	ck_assert_uint_eq(c, 0);

	/* EOF after a complete reply changes nothing. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, cl, &c, &cap), HTTP_RESP_DONE);
	free(cap.body);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_DONE);
	ck_assert_int_eq(r.error, HTTP_RESP_OK);

	/* EOF after an error keeps the first error. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, "HTTP/1.1 700 X\r\n", &c, &cap),
	    HTTP_RESP_ERROR);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_ERROR);
	ck_assert_int_eq(r.error, HTTP_RESP_ESTATUSRANGE);
}
END_TEST

START_TEST(test_done_idempotent)
{
	static const char two[] = H11 "Content-Length: 2\r\n\r\nokHTTP/1.1";
	struct http_resp r, saved;
	struct capture cap;
	size_t c;

	memset(&r, 0, sizeof(r));
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, two, &c, &cap), HTTP_RESP_DONE);
	ck_assert_uint_eq(c, sizeof(two) - 1 - 8);
	free(cap.body);
	saved = r;
	ck_assert_int_eq(parse_all(&r, two + c, &c, &cap), HTTP_RESP_DONE);
	ck_assert_uint_eq(c, 0);
	ck_assert_int_eq(cap.nheader + cap.nfinal + cap.ninterim, 0);
	ck_assert_uint_eq(cap.blen, 0);
	ck_assert_int_eq(memcmp(&saved, &r, sizeof(r)), 0);

	/* The same holds after an error. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, H11 "Bad\r\n", &c, &cap),
	    HTTP_RESP_ERROR);
	ck_assert_uint_eq(c, sizeof(H11) - 1);
	saved = r;
	ck_assert_int_eq(parse_all(&r, H11, &c, &cap), HTTP_RESP_ERROR);
	ck_assert_uint_eq(c, 0);
	ck_assert_int_eq(memcmp(&saved, &r, sizeof(r)), 0);
}
END_TEST

START_TEST(test_callbacks)
{
	static const char reply[] = "HTTP/1.1 100 Continue\r\nX-I: 1\r\n\r\n"
	    "HTTP/1.1 200 OK\r\nA: 1\r\nB:  two \r\n\tfold\n"
	    CHUNKED "\r\n2\r\nab\r\n0\r\nT: z\r\n\r\n";
	struct http_resp r;
	struct capture cap;
	size_t c;

	memset(&r, 0, sizeof(r));
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, reply, &c, &cap), HTTP_RESP_DONE);
	ck_assert_str_eq(cap.lines, "A: 1\nB:  two \n\tfold\n"
	    "Transfer-Encoding: chunked\nT: z|");
	ck_assert_int_eq(cap.ninterim, 1);
	ck_assert_int_eq(cap.nfinal, 1);
	ck_assert_int_eq(r.minor, 1);
	ck_assert_int_eq(r.chunked, 1);
	ck_assert_uint_eq(r.footer_bytes, 8);
	free(cap.body);

	/* No callbacks at all. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(http_resp_parse(&r, reply, sizeof(reply) - 1, &c,
	    NULL, NULL), HTTP_RESP_DONE);
	ck_assert_uint_eq(c, sizeof(reply) - 1);
	ck_assert_uint_eq(r.body_bytes, 2);
}
END_TEST

/* Collects every header-section and trailer line, tagged by section. */
static void
collect_line(void *ctx, const char *line, size_t len, int section)
{
	char *out = ctx;
	size_t o = strlen(out);

	snprintf(out + o, 4096 - o, "%c[%.*s]", section ==
	    HTTP_RESP_LINE_HEAD ? 'H' : 'T', (int)len, line);
}

START_TEST(test_line_callback)
{
	static const char in[] =
	    "HTTP/1.1 100 Continue\r\nX-I: 1\r\n\r\n"
	    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\n\r\n"
	    "3;ext=1\r\nabc\r\n0\r\nX-T: 2\r\n\r\n";
	struct http_resp_cb cb = { .line = collect_line };
	struct http_resp r;
	char out[4096] = "";
	size_t used, k;

	/* One piece, then split at every offset with the tail re-presented. */
	for (k = 0; k <= sizeof(in) - 1; k++) {
		char buf[sizeof(in)];
		size_t have = k, off = 0;
		enum http_resp_result res;

		out[0] = '\0';
		memset(&r, 0, sizeof(r));
		http_resp_reset(&r, 0);
		memcpy(buf, in, k);
		res = http_resp_parse(&r, buf, have, &used, &cb, out);
		ck_assert_int_ne(res, HTTP_RESP_ERROR);
		off = used;
		memmove(buf, buf + off, have - off);
		have -= off;
		memcpy(buf + have, in + k, sizeof(in) - 1 - k);
		have += sizeof(in) - 1 - k;
		res = http_resp_parse(&r, buf, have, &used, &cb, out);
		ck_assert_int_eq(res, HTTP_RESP_DONE);
		ck_assert_str_eq(out, "H[HTTP/1.1 100 Continue]H[X-I: 1]H[]"
		    "H[HTTP/1.1 200 OK]H[Transfer-Encoding: chunked]H[]"
		    "T[X-T: 2]T[]");
	}
}
END_TEST

START_TEST(test_reset)
{
	struct http_resp r;
	struct capture cap;
	size_t c;

	memset(&r, 0x5a, sizeof(r));
	r.max_line = 77;
	r.max_interim = 3;
	r.max_head = 500;
	http_resp_reset(&r, 1);
	ck_assert_uint_eq(r.max_line, 77);
	ck_assert_uint_eq(r.max_interim, 3);
	ck_assert_uint_eq(r.max_head, 500);
	ck_assert_int_eq(r.status, 0);
	ck_assert_uint_eq(r.total_bytes, 0);
	ck_assert_int_eq(r.error, HTTP_RESP_OK);
	ck_assert_int_eq(http_resp_in_head(&r), 0);
	ck_assert_int_eq(parse_all(&r, H11 "Content-Length: 9\r\n\r\n", &c,
	    &cap), HTTP_RESP_DONE);
	ck_assert_int_eq(r.has_length, 1);
	ck_assert_uint_eq(r.content_length, 9);
	ck_assert_uint_eq(r.body_bytes, 0);
}
END_TEST

/* Feeds `buf' in pieces of `step' bytes, keeping what is not consumed. */
static enum http_resp_result
parse_steps(struct http_resp *r, const char *buf, size_t step)
{
	enum http_resp_result res = HTTP_RESP_MORE;
	size_t len = strlen(buf), off = 0, end = 0, used;

	while (res == HTTP_RESP_MORE && end < len) {
		end = end + step < len ? end + step : len;
		res = http_resp_parse(r, buf + off, end - off, &used, NULL,
		    NULL);
		off += used;
	}
	return res;
}

/*
 * max_head bounds the header section (interim replies included) and the
 * trailer section, whether the excess comes as one line or many, whole or
 * in pieces; chunk-size lines and the body do not count.
 */
START_TEST(test_max_head)
{
	static const size_t steps[] = { 1, 7, 100, 100000 };
	struct http_resp r;
	char *buf = malloc(100000);
	size_t i;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		memset(&r, 0, sizeof(r));
		r.max_head = 200;
		/* 38 + 20 x 9 + 2 = 220 bytes of head: too many. */
		http_resp_reset(&r, 0);
		strcpy(buf, H11 "Content-Length: 0\r\n");
		while (strlen(buf) < 210)
			strcat(buf, "X-Many: 1\r\n");
		strcat(buf, "\r\n");
		ck_assert_int_eq(parse_steps(&r, buf, steps[i]),
		    HTTP_RESP_ERROR);
		ck_assert_int_eq(r.error, HTTP_RESP_EHEAD);

		/* Exactly at the limit: good; the body is not counted. */
		http_resp_reset(&r, 0);
		strcpy(buf, H11 "Content-Length: 300\r\n");
		while (strlen(buf) < 193)
			strcat(buf, "X");
		strcat(buf, ": 1\r\n\r\n");
		ck_assert_uint_eq(strlen(buf), 200);
		memset(buf + strlen(buf), 'b', 300);
		buf[200 + 300] = '\0';
		ck_assert_int_eq(parse_steps(&r, buf, steps[i]),
		    HTTP_RESP_DONE);
		ck_assert_uint_eq(r.header_bytes, 200);

		/* One line that never ends is stopped at the limit. */
		http_resp_reset(&r, 0);
		strcpy(buf, H11 "X-Long: ");
		memset(buf + strlen(buf), 'l', 5000);
		buf[strlen(H11 "X-Long: ") + 5000] = '\0';
		ck_assert_int_eq(parse_steps(&r, buf, steps[i]),
		    HTTP_RESP_ERROR);
		ck_assert_int_eq(r.error, HTTP_RESP_EHEAD);

		/* Interim replies count with the head. */
		http_resp_reset(&r, 0);
		strcpy(buf, "");
		while (strlen(buf) < 190)
			strcat(buf, "HTTP/1.1 103 Early Hints\r\n\r\n");
		strcat(buf, H11 "Content-Length: 0\r\n\r\n");
		ck_assert_int_eq(parse_steps(&r, buf, steps[i]),
		    HTTP_RESP_ERROR);
		ck_assert_int_eq(r.error, HTTP_RESP_EHEAD);

		/* Trailers have a limit of their own; big chunks do not. */
		http_resp_reset(&r, 0);
		strcpy(buf, H11 "Transfer-Encoding: chunked\r\n\r\n"
		    "3e8\r\n");
		memset(buf + strlen(buf), 'c', 1000);
		buf[strlen(H11 "Transfer-Encoding: chunked\r\n\r\n3e8\r\n")
		    + 1000] = '\0';
		strcat(buf, "\r\n0\r\n");
		while (strlen(buf) < 1300)
			strcat(buf, "X-Trailer: 1\r\n");
		strcat(buf, "\r\n");
		ck_assert_int_eq(parse_steps(&r, buf, steps[i]),
		    HTTP_RESP_ERROR);
		ck_assert_int_eq(r.error, HTTP_RESP_EHEAD);
		ck_assert_uint_eq(r.body_bytes, 1000);
	}
	free(buf);
}
END_TEST

/* http_resp_in_head: true in the status, header and trailer sections. */
START_TEST(test_in_head)
{
	struct http_resp r;
	size_t c;

	memset(&r, 0, sizeof(r));
	http_resp_reset(&r, 0);
	ck_assert_int_eq(http_resp_in_head(&r), 0);
	ck_assert_int_eq(http_resp_parse(&r, "HTTP/1.1 2", 10, &c, NULL,
	    NULL), HTTP_RESP_MORE);
	ck_assert_int_eq(http_resp_in_head(&r), 1);
	ck_assert_int_eq(http_resp_parse(&r, H11 "Transfer-Encoding: "
	    "chunked\r\n\r\n5\r\nab", strlen(H11 "Transfer-Encoding: "
	    "chunked\r\n\r\n5\r\nab"), &c, NULL, NULL), HTTP_RESP_MORE);
	ck_assert_int_eq(http_resp_in_head(&r), 0);
	ck_assert_int_eq(http_resp_parse(&r, "cde\r\n0\r\nX-T", 11, &c,
	    NULL, NULL), HTTP_RESP_MORE);
	ck_assert_int_eq(http_resp_in_head(&r), 1);
	ck_assert_int_eq(http_resp_parse(&r, "X-T: 1\r\n\r\n", 10, &c,
	    NULL, NULL), HTTP_RESP_DONE);
	ck_assert_int_eq(http_resp_in_head(&r), 0);
}
END_TEST

START_TEST(test_strerror)
{
	int e, f;

	for (e = HTTP_RESP_OK; e <= HTTP_RESP_EHEAD; e++) {
		ck_assert_ptr_nonnull(http_resp_strerror(e));
		ck_assert_uint_gt(strlen(http_resp_strerror(e)), 0);
		for (f = HTTP_RESP_OK; f < e; f++)
			ck_assert_str_ne(http_resp_strerror(e),
			    http_resp_strerror(f));
	}
	ck_assert_ptr_nonnull(http_resp_strerror((enum http_resp_error)99));
}
END_TEST

/*
 * http_resp_skip(): body bytes counted without being seen, in a
 * Content-Length body, in chunk data (never the framing) and in a body
 * that ends at EOF; the counts are those of a parse of the same bytes.
 */
START_TEST(test_skip)
{
	struct http_resp r;
	struct capture cap;
	size_t c;

	http_resp_reset(&r, 0);
	ck_assert_uint_eq(http_resp_skippable(&r), 0);
	ck_assert_int_eq(parse_all(&r, "HTTP/1.1 200 OK\r\n"
	    "Content-Length: 100000\r\n\r\nabc", &c, &cap), HTTP_RESP_MORE);
	free(cap.body);
	ck_assert_uint_eq(http_resp_skippable(&r), 99997);
	ck_assert_int_eq(http_resp_skip(&r, 50000), HTTP_RESP_MORE);
	ck_assert_uint_eq(http_resp_skippable(&r), 49997);
	/* More than is left is only what is left. */
	ck_assert_int_eq(http_resp_skip(&r, 60000), HTTP_RESP_DONE);
	ck_assert_uint_eq(r.body_bytes, 100000);
	ck_assert_uint_eq(r.total_bytes, 43 + 100000);
	ck_assert_uint_eq(http_resp_skippable(&r), 0);

	/* Chunked: the chunk's data only; the CRLF and the next size line
	   are parsed. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, "HTTP/1.1 200 OK\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n10000\r\nxy", &c, &cap),
	    HTTP_RESP_MORE);
	free(cap.body);
	ck_assert_uint_eq(http_resp_skippable(&r), 0x10000 - 2);
	ck_assert_int_eq(http_resp_skip(&r, 0x10000 - 2), HTTP_RESP_MORE);
	ck_assert_uint_eq(http_resp_skippable(&r), 0);
	ck_assert_int_eq(parse_all(&r, "\r\n3\r\nabc\r\n0\r\n\r\n", &c,
	    &cap), HTTP_RESP_DONE);
	free(cap.body);
	ck_assert_uint_eq(r.body_bytes, 0x10000 + 3);
	ck_assert_uint_eq(r.footer_bytes, 2);

	/* Close-delimited: any amount, until EOF ends it. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, "HTTP/1.0 200 OK\r\n\r\nab", &c,
	    &cap), HTTP_RESP_MORE);
	free(cap.body);
	ck_assert_uint_eq(http_resp_skippable(&r), UINT64_MAX);
	ck_assert_int_eq(http_resp_skip(&r, 1000000), HTTP_RESP_MORE);
	ck_assert_int_eq(http_resp_eof(&r), HTTP_RESP_DONE);
	ck_assert_uint_eq(r.body_bytes, 1000002);
	ck_assert_uint_eq(http_resp_skippable(&r), 0);

	/* In the head: nothing to skip. */
	http_resp_reset(&r, 0);
	ck_assert_int_eq(parse_all(&r, "HTTP/1.1 200 OK\r\nContent-Le", &c,
	    &cap), HTTP_RESP_MORE);
	free(cap.body);
	ck_assert_uint_eq(http_resp_skippable(&r), 0);
}
END_TEST

static Suite *
http_resp_suite(void)
{
	Suite *s = suite_create("http_resp");
	TCase *tc = tcase_create("rows");
	TCase *tb = tcase_create("api");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_rows, 0, (int)NROWS);
	tcase_add_test(tc, test_many_headers);
	tcase_add_test(tc, test_big_header);
	suite_add_tcase(s, tc);
	tcase_add_test(tb, test_pipelined);
	tcase_add_test(tb, test_eof);
	tcase_add_test(tb, test_done_idempotent);
	tcase_add_test(tb, test_callbacks);
	tcase_add_test(tb, test_line_callback);
	tcase_add_test(tb, test_reset);
	tcase_add_test(tb, test_strerror);
	tcase_add_test(tb, test_max_head);
	tcase_add_test(tb, test_in_head);
	tcase_add_test(tb, test_skip);
	suite_add_tcase(s, tb);
	return s;
}

int
main(void)
{
	return unit_run(http_resp_suite());
}
