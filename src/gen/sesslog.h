/*
 * The --wsesslog session file: parsing it into session templates made of
 * bursts of requests.  Pure library code: no printing, no exiting; errors
 * come back as "FILE:LINE: message" strings.
 *
 * Grammar (httperf 0.9.0's, without its limits on sessions, line length or
 * body size):
 *  - A line whose first character is '#' is a comment.  As in the original,
 *    an indented '#' is not a comment (it is read as a request).
 *  - A line with nothing but whitespace ends the current session; several
 *    such lines never make empty sessions.
 *  - Other lines are requests: URI [param=value]...  The URI is taken
 *    verbatim up to whitespace.  A request whose line starts with a space or
 *    tab joins the current burst; otherwise it starts a new burst.  An
 *    indented request with no burst to join (first of a session) is an error.
 *  - Params: method=TOKEN, think=SECONDS (decimal, finite, >= 0) and
 *    contents=BODY.  A value is unquoted (up to whitespace) or in single or
 *    double quotes; the escapes \n \r \t \\ \" \' are decoded, any other
 *    escape is an error.  A backslash just before the end of a physical line
 *    joins the next physical line to this one; inside a value it stands for
 *    a newline, as the manual says ("newlines can appear within posted data
 *    as \n or as a \<CR>"), elsewhere it is just a separator.
 *  - think= on any request of a burst sets that burst's think time, the last
 *    one given winning, as the original does.
 *  - header="Name: value" (repeatable) adds a header line to the request:
 *    a token, a colon, a value without CR, LF or NUL.  The request's lines
 *    are packed into one string (one iovec when sent).  extract=SPEC and
 *    check=SPEC (repeatable) are kept as given; their syntax is checked by
 *    whoever uses them (gen/svars.c, with the request's line).
 *  - A URI, method or value may be at most SESSLOG_MAX_STR bytes long.
 *
 * The parsed form is compact, as a session file may hold millions of
 * requests: all requests of the file in one array, all bursts in another
 * (a burst's requests, a session's bursts are slices of them), and every
 * string in a few large blocks of an arena; no per-request allocation.
 * Error messages quote the file's text with every byte that is not
 * printable ASCII escaped (\n, \r, \t, \\, \xNN), at most
 * SESSLOG_QUOTE_MAX bytes of it, then "...".
 */
#ifndef HTTPERF_GEN_SESSLOG_H
#define HTTPERF_GEN_SESSLOG_H

#include <stddef.h>
#include <stdint.h>

#define SESSLOG_MAX_STR		UINT32_MAX	/* longest URI or value */
#define SESSLOG_QUOTE_MAX	64	/* file bytes quoted in a message */

/* One request; strings are owned by the log and NUL-terminated. */
struct sesslog_req {
	const char *method;	/* NULL: the run's default method */
	const char *uri;	/* never NULL */
	const char *body;	/* contents=, NULL if none */
	const char *clen;	/* "Content-Length: N\r\n" iff body != NULL */
	const char *hdrs;	/* header= lines, each with CRLF, or NULL */
	/* extract= and check= values in file order, each after a 'x' or
	   'c' and ended by a NUL, or NULL when none */
	const char *specs;
	uint32_t uri_len;
	uint32_t method_len;
	uint32_t body_len;
	uint32_t clen_len;
	uint32_t hdrs_len;
	uint32_t specs_len;
	uint32_t nspecs;	/* extract= and check= values */
	float	 think;		/* think= seconds, or -1 when not given;
				   the burst's think is exact */
	unsigned line;		/* line number in the file (for messages) */
};

/* A request line and the indented lines after it. */
struct sesslog_burst {
	struct sesslog_req *reqs;	/* a slice of sesslog.reqs */
	size_t	 nreqs;
	double	 think;		/* think time after this burst: the last
				   think= of its requests, or -1 (use X) */
};

struct sesslog_sess {
	struct sesslog_burst *bursts;	/* a slice of sesslog.bursts */
	size_t	 nbursts;
	size_t	 nreqs;		/* total requests */
};

struct sesslog_block;

struct sesslog {
	struct sesslog_sess *sess;
	size_t	 nsess;
	/* What the sessions are slices of, and the strings' arena. */
	struct sesslog_burst *bursts;
	size_t	 nbursts;
	struct sesslog_req *reqs;
	size_t	 nreqs;
	struct sesslog_block *arena;
};

/*
 * Parses a whole file image of `len' bytes (need not be NUL-terminated)
 * into `log', which is overwritten (free an earlier one first).  `fname'
 * (NULL: "-") names the file in messages.  Returns 0, possibly with no
 * sessions, or -1 with "FNAME:LINE: what is wrong" in `errbuf' and `log'
 * left empty.
 */
int	sesslog_parse(struct sesslog *log, const char *data, size_t len,
	    const char *fname, char *errbuf, size_t errlen);

/*
 * Reads the file at `path' and parses it.  Returns 0, or -1 with a message
 * naming the file in `errbuf': "PATH: <strerror>" for open and read errors,
 * "PATH: no sessions" for a file without any request, or a parse error.
 */
int	sesslog_load(struct sesslog *log, const char *path, char *errbuf,
	    size_t errlen);

/* Frees everything `log' holds and zeroes it; safe on a zeroed struct. */
void	sesslog_free(struct sesslog *log);

#endif
