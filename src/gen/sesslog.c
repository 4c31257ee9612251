/*
 * The --wsesslog session file: a single-pass lexer over the whole file
 * image that builds sessions, bursts and requests as it goes.  The grammar
 * is described in sesslog.h.  Nothing here prints or exits; every error is
 * a "FILE:LINE: message" string and leaves the log empty.
 *
 * Memory: requests and bursts go into one growing array each (a burst's
 * requests are always the last ones added, so slices are enough; their
 * pointers are set once the arrays stop moving), and strings into an
 * arena of large blocks, so a file of short lines costs a few dozen bytes
 * per request rather than several allocations each.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/sesslog.h"
#include "lib/util.h"

/* An arena block; strings longer than a quarter get their own. */
#define SL_BLOCK_SIZE	(64 * 1024)

/* Room for SESSLOG_QUOTE_MAX bytes escaped as \xNN, "..." and a NUL. */
#define SL_QUOTE_BUF	(SESSLOG_QUOTE_MAX * 4 + 4)

/* A block of the string arena. */
struct sesslog_block {
	struct sesslog_block *next;
	size_t		 used;
	size_t		 cap;
	char		 data[];
};

/* A growable byte buffer for decoding values. */
struct sl_buf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

/* Parser state: the cursor, where it is, and what is being built. */
struct sl_parser {
	const char	*p;
	const char	*end;
	unsigned	 line;		/* physical line of *p */
	const char	*fname;
	char		*errbuf;
	size_t		 errlen;
	struct sesslog	*log;
	size_t		 sesscap;	/* capacity of log->sess */
	size_t		 burstcap;	/* of log->bursts */
	size_t		 reqcap;	/* of log->reqs */
	int		 open;		/* the last session takes requests */
	struct sl_buf	 val;
	struct sl_buf	 hdrs;		/* the request's header= lines */
	struct sl_buf	 specs;		/* its extract= and check= */
};

/* The parameters a request line may carry. */
enum sl_param {
	SL_METHOD,
	SL_THINK,
	SL_CONTENTS,
	SL_HEADER,
	SL_EXTRACT,
	SL_CHECK,
};

static const struct {
	const char	*name;
	enum sl_param	 param;
} sl_params[] = {
	{ .name = "method", .param = SL_METHOD },
	{ .name = "think", .param = SL_THINK },
	{ .name = "contents", .param = SL_CONTENTS },
	{ .name = "header", .param = SL_HEADER },
	{ .name = "extract", .param = SL_EXTRACT },
	{ .name = "check", .param = SL_CHECK },
};
_Static_assert(nitems(sl_params) == SL_CHECK + 1, "sl_params");

static int	sl_error(struct sl_parser *, unsigned, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

/* Formats "FNAME:LINE: message" into the error buffer; returns -1. */
static int
sl_error(struct sl_parser *P, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (P->errbuf == NULL || P->errlen == 0)
		return -1;
	n = snprintf(P->errbuf, P->errlen, "%s:%u: ", P->fname, line);
	if (n >= 0 && (size_t)n < P->errlen) {
		va_start(ap, fmt);
		vsnprintf(P->errbuf + n, P->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void
sl_buf_putc(struct sl_buf *b, char c)
{
	if (b->len + 1 >= b->cap) {
		b->cap = b->cap == 0 ? 256 : b->cap * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

/* Empties `b', leaving it a valid empty string. */
static void
sl_buf_reset(struct sl_buf *b)
{
	if (b->cap == 0) {
		b->cap = 256;
		b->s = xmalloc(b->cap);
	}
	b->len = 0;
	b->s[0] = '\0';
}

/*
 * Writes `len' bytes of file text at `s' into `dst' (SL_QUOTE_BUF bytes)
 * for an error message: at most SESSLOG_QUOTE_MAX of them, with "..."
 * after a cut, every byte but printable ASCII escaped so that a message
 * is one line of plain text whatever the file holds.  Returns `dst'.
 */
static const char *
sl_quote(char *dst, const char *s, size_t len)
{
	size_t i, n = 0;

	/* A backslash is escaped too: the file's own escapes stay readable. */
	for (i = 0; i < len && i < SESSLOG_QUOTE_MAX; i++)
		n += util_escape_char(dst + n, (unsigned char)s[i], 1);
	if (i < len) {
		memcpy(dst + n, "...", 3);
		n += 3;
	}
	dst[n] = '\0';
	return dst;
}

/* Returns a NUL-terminated copy of the `len' bytes at `s' in the arena. */
static const char *
sl_strndup(struct sesslog *log, const char *s, size_t len)
{
	struct sesslog_block *b = log->arena, *nb;
	char *d;

	if (b == NULL || b->cap - b->used < len + 1) {
		if (len + 1 > SL_BLOCK_SIZE / 4 && b != NULL) {
			/* Its own block, behind the one still being filled. */
			nb = xmalloc(sizeof(*nb) + len + 1);
			nb->cap = nb->used = len + 1;
			nb->next = b->next;
			b->next = nb;
			d = nb->data;
			goto copy;
		}
		nb = xmalloc(sizeof(*nb) + (len + 1 > SL_BLOCK_SIZE ? len + 1 :
		    SL_BLOCK_SIZE));
		nb->cap = len + 1 > SL_BLOCK_SIZE ? len + 1 : SL_BLOCK_SIZE;
		nb->used = 0;
		nb->next = b;
		log->arena = b = nb;
	}
	d = b->data + b->used;
	b->used += len + 1;
copy:
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/* Blanks inside a line; '\r' is one so that CRLF files read as LF files. */
static int
sl_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Returns 1 at the end of the logical line's current physical line. */
static int
sl_at_eol(const struct sl_parser *P)
{
	return P->p == P->end || *P->p == '\n';
}

/*
 * Returns the length of a backslash-newline (or backslash-CR-LF) at the
 * cursor, or 0 when there is none.
 */
static size_t
sl_continuation(const struct sl_parser *P)
{
	const char *p = P->p;

	if (p == P->end || *p != '\\')
		return 0;
	if (P->end - p >= 2 && p[1] == '\n')
		return 2;
	if (P->end - p >= 3 && p[1] == '\r' && p[2] == '\n')
		return 3;
	return 0;
}

/* Skips blanks and line continuations. */
static void
sl_skip_blanks(struct sl_parser *P)
{
	size_t n;

	for (;;) {
		if (P->p < P->end && sl_is_blank(*P->p))
			P->p++;
		else if ((n = sl_continuation(P)) != 0) {
			P->p += n;
			P->line++;
		} else
			return;
	}
}

/* Moves the cursor past the end of the current physical line. */
static void
sl_next_line(struct sl_parser *P)
{
	const char *nl;

	nl = memchr(P->p, '\n', P->end - P->p);
	if (nl == NULL)
		P->p = P->end;
	else {
		P->p = nl + 1;
		P->line++;
	}
}

/* Returns 1 at a character that ends a bare word (URI or param name). */
static int
sl_at_word_end(const struct sl_parser *P)
{
	return sl_at_eol(P) || sl_is_blank(*P->p) || sl_continuation(P) != 0;
}

/*
 * Decodes one value, quoted or not, into P->val.  Quotes are ' or " and
 * must be closed on the same logical line; escapes are \n \r \t \\ \" \'
 * and backslash-newline (a newline that also continues the line).  Any
 * other escape is an error rather than the original's silent "\c -> c", so
 * that a typo such as \N is reported with its line instead of sent.
 */
static int
sl_value(struct sl_parser *P)
{
	unsigned qline = P->line;
	char quote = 0, c;
	size_t n;

	sl_buf_reset(&P->val);
	if (P->p < P->end && (*P->p == '\'' || *P->p == '"'))
		quote = *P->p++;
	for (;;) {
		if (sl_at_eol(P)) {
			if (quote != 0)
				return sl_error(P, qline,
				    "unterminated %c quote", quote);
			return 0;
		}
		c = *P->p;
		if (quote != 0 && c == quote) {
			P->p++;
			if (!sl_at_word_end(P))
				return sl_error(P, P->line,
				    "junk after closing %c quote", quote);
			return 0;
		}
		if (quote == 0 && sl_is_blank(c))
			return 0;
		if (c != '\\') {
			sl_buf_putc(&P->val, c);
			P->p++;
			continue;
		}
		if ((n = sl_continuation(P)) != 0) {
			sl_buf_putc(&P->val, '\n');
			P->p += n;
			P->line++;
			continue;
		}
		if (P->end - P->p < 2)
			return sl_error(P, P->line, "backslash at end of file");
		switch (P->p[1]) {
		case 'n':
			c = '\n';
			break;
		case 'r':
			c = '\r';
			break;
		case 't':
			c = '\t';
			break;
		case '\\':
		case '"':
		case '\'':
			c = P->p[1];
			break;
		default:
			if (P->p[1] > ' ' && P->p[1] < 0x7f)
				return sl_error(P, P->line,
				    "unknown escape '\\%c'", P->p[1]);
			return sl_error(P, P->line,
			    "unknown escape '\\' followed by byte 0x%02x",
			    (unsigned char)P->p[1]);
		}
		sl_buf_putc(&P->val, c);
		P->p += 2;
	}
}

/* Checks and stores a decoded method= value. */
static int
sl_set_method(struct sl_parser *P, struct sesslog_req *r, unsigned line)
{
	char q[SL_QUOTE_BUF];
	size_t i;

	for (i = 0; i < P->val.len; i++)
		if (!util_is_tchar((unsigned char)P->val.s[i]))
			break;
	if (P->val.len == 0 || i < P->val.len)
		return sl_error(P, line, "bad method '%s'",
		    sl_quote(q, P->val.s, P->val.len));
	r->method = sl_strndup(P->log, P->val.s, P->val.len);
	r->method_len = (uint32_t)P->val.len;
	return 0;
}

/* Checks and stores a decoded think= value: decimal, finite, >= 0. */
static int
sl_set_think(struct sl_parser *P, double *think, unsigned line)
{
	char q[SL_QUOTE_BUF];
	char *end;
	double t;

	if (P->val.len == 0 ||
	    strspn(P->val.s, "0123456789.eE+-") != P->val.len)
		goto bad;
	errno = 0;
	t = strtod(P->val.s, &end);
	if (end != P->val.s + P->val.len || errno == ERANGE || !isfinite(t) ||
	    t < 0)
		goto bad;
	*think = t == 0 ? 0.0 : t;	/* no "-0" */
	return 0;
bad:
	return sl_error(P, line, "bad think time '%s'",
	    sl_quote(q, P->val.s, P->val.len));
}

/*
 * Stores a decoded contents= value and its Content-Length header.  An
 * empty value still counts as a body ("Content-Length: 0"): the file asked
 * for one, where 0.9.0 silently sent none.
 */
static void
sl_set_contents(struct sl_parser *P, struct sesslog_req *r)
{
	char hdr[64];
	int n;

	r->body = sl_strndup(P->log, P->val.s, P->val.len);
	r->body_len = (uint32_t)P->val.len;
	n = snprintf(hdr, sizeof(hdr), "Content-Length: %zu\r\n",
	    P->val.len);
	r->clen = sl_strndup(P->log, hdr, (size_t)n);
	r->clen_len = (uint32_t)n;
}

/* Appends `n' bytes at `p' to `b'. */
static void
sl_buf_add(struct sl_buf *b, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sl_buf_putc(b, p[i]);
}

/*
 * Checks a decoded header= value ("Name: value": a token, a colon, a
 * value without CR, LF or NUL) and adds it with its CRLF to the
 * request's lines.
 */
static int
sl_add_header(struct sl_parser *P, unsigned line)
{
	const char *s = P->val.s, *colon;
	char q[SL_QUOTE_BUF];
	size_t i;

	colon = memchr(s, ':', P->val.len);
	for (i = 0; colon != NULL && s + i < colon; i++)
		if (!util_is_tchar((unsigned char)s[i]))
			break;
	if (colon == NULL || i == 0 || s + i < colon)
		return sl_error(P, line, "bad header '%s' (want "
		    "\"Name: value\")", sl_quote(q, s, P->val.len));
	for (i = 0; i < P->val.len; i++)
		if (s[i] == '\r' || s[i] == '\n' || s[i] == '\0')
			return sl_error(P, line, "CR, LF or NUL in header '%s'",
			    sl_quote(q, s, P->val.len));
	if (P->hdrs.len + P->val.len + 2 > SESSLOG_MAX_STR)
		return sl_error(P, line, "header lines longer than %lu bytes",
		    (unsigned long)SESSLOG_MAX_STR);
	sl_buf_add(&P->hdrs, s, P->val.len);
	sl_buf_add(&P->hdrs, "\r\n", 2);
	return 0;
}

/* Keeps a decoded extract= or check= value, after its kind (`k'). */
static int
sl_add_spec(struct sl_parser *P, char k, const char *name, unsigned line)
{
	if (P->val.len == 0)
		return sl_error(P, line, "empty %s=", name);
	if (memchr(P->val.s, '\0', P->val.len) != NULL)
		return sl_error(P, line, "NUL byte in %s=", name);
	if (P->specs.len + P->val.len + 2 > SESSLOG_MAX_STR)
		return sl_error(P, line, "extract= and check= longer than "
		    "%lu bytes", (unsigned long)SESSLOG_MAX_STR);
	sl_buf_putc(&P->specs, k);
	sl_buf_add(&P->specs, P->val.s, P->val.len + 1);
	return 0;
}

/* Parses "name=value" at the cursor into `r' and `think'. */
static int
sl_param(struct sl_parser *P, struct sesslog_req *r, double *think)
{
	const char *name = P->p;
	unsigned line = P->line;
	char q[SL_QUOTE_BUF];
	size_t i, len;

	while (!sl_at_word_end(P) && *P->p != '=')
		P->p++;
	len = P->p - name;
	if (sl_at_word_end(P))
		return sl_error(P, line, "missing '=' after '%s'",
		    sl_quote(q, name, len));
	P->p++;			/* the '=' */
	for (i = 0; i < nitems(sl_params); i++)
		if (strlen(sl_params[i].name) == len &&
		    memcmp(sl_params[i].name, name, len) == 0)
			break;
	if (i == nitems(sl_params))
		return sl_error(P, line, "unknown parameter '%s'",
		    sl_quote(q, name, len));
	if (sl_value(P) == -1)
		return -1;
	if (P->val.len > SESSLOG_MAX_STR)
		return sl_error(P, line, "value longer than %lu bytes",
		    (unsigned long)SESSLOG_MAX_STR);
	switch (sl_params[i].param) {
	case SL_METHOD:
		return sl_set_method(P, r, line);
	case SL_THINK:
		return sl_set_think(P, think, line);
	case SL_CONTENTS:
		sl_set_contents(P, r);
		return 0;
	case SL_HEADER:
		return sl_add_header(P, line);
	case SL_EXTRACT:
		r->nspecs++;
		return sl_add_spec(P, 'x', "extract", line);
	case SL_CHECK:
		r->nspecs++;
		return sl_add_spec(P, 'c', "check", line);
	}
	return 0;
}

/*
 * Returns array `a' of `n' elements of `size' with room for one more,
 * doubling its capacity `*cap' (from `first') when it is full.
 */
static void *
sl_grow(void *a, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return a;
	*cap = *cap == 0 ? first : *cap * 2;
	return xreallocarray(a, *cap, size);
}

/*
 * Files `r' in the log: into the open burst when `join' is set, else into
 * a new burst, opening a session first if needed.  `think' is the
 * request's think= (-1: none).
 */
static void
sl_add(struct sl_parser *P, const struct sesslog_req *r, double think,
    int join)
{
	struct sesslog *log = P->log;
	struct sesslog_sess *s;
	struct sesslog_burst *b;

	if (!P->open) {
		log->sess = sl_grow(log->sess, log->nsess, &P->sesscap,
		    sizeof(*log->sess), 16);
		memset(&log->sess[log->nsess++], 0, sizeof(*log->sess));
		P->open = 1;
	}
	s = &log->sess[log->nsess - 1];
	if (!join) {
		log->bursts = sl_grow(log->bursts, log->nbursts,
		    &P->burstcap, sizeof(*log->bursts), 64);
		b = &log->bursts[log->nbursts++];
		memset(b, 0, sizeof(*b));
		b->think = -1;
		s->nbursts++;
	}
	b = &log->bursts[log->nbursts - 1];
	log->reqs = sl_grow(log->reqs, log->nreqs, &P->reqcap,
	    sizeof(*log->reqs), 64);
	log->reqs[log->nreqs++] = *r;
	b->nreqs++;
	/* 0.9.0 lets think= on any line set the burst's think; last wins. */
	if (think >= 0)
		b->think = think;
	s->nreqs++;
}

/*
 * Once every request is in: gives the arrays their final size and points
 * each session at its bursts and each burst at its requests, in the order
 * they were added.
 */
static void
sl_finish(struct sesslog *log)
{
	size_t i, nb = 0, nr = 0;

	if (log->nsess == 0)
		return;
	log->sess = xreallocarray(log->sess, log->nsess, sizeof(*log->sess));
	log->bursts = xreallocarray(log->bursts, log->nbursts,
	    sizeof(*log->bursts));
	log->reqs = xreallocarray(log->reqs, log->nreqs, sizeof(*log->reqs));
	for (i = 0; i < log->nsess; i++) {
		log->sess[i].bursts = &log->bursts[nb];
		nb += log->sess[i].nbursts;
	}
	for (i = 0; i < log->nbursts; i++) {
		log->bursts[i].reqs = &log->reqs[nr];
		nr += log->bursts[i].nreqs;
	}
}

/* Parses the request whose logical line starts at the cursor. */
static int
sl_request(struct sl_parser *P, int indented, unsigned line)
{
	struct sesslog_req r;
	const char *uri = P->p;
	double think = -1;

	if (indented && !P->open)
		return sl_error(P, line, "indented request has no burst to "
		    "join (a session must start with an unindented line)");
	memset(&r, 0, sizeof(r));
	r.line = line;
	while (!sl_at_word_end(P))
		P->p++;
	if (P->p == uri)
		return sl_error(P, line, "empty URI");
	if (memchr(uri, '\0', P->p - uri) != NULL)
		return sl_error(P, line, "NUL byte in URI");
	if ((size_t)(P->p - uri) > SESSLOG_MAX_STR)
		return sl_error(P, line, "URI longer than %lu bytes",
		    (unsigned long)SESSLOG_MAX_STR);
	r.uri = sl_strndup(P->log, uri, P->p - uri);
	r.uri_len = (uint32_t)(P->p - uri);
	sl_buf_reset(&P->hdrs);
	sl_buf_reset(&P->specs);
	for (;;) {
		sl_skip_blanks(P);
		if (sl_at_eol(P))
			break;
		if (sl_param(P, &r, &think) == -1)
			return -1;
	}
	if (P->hdrs.len > 0) {
		r.hdrs = sl_strndup(P->log, P->hdrs.s, P->hdrs.len);
		r.hdrs_len = (uint32_t)P->hdrs.len;
	}
	if (P->specs.len > 0) {
		/* The last value's NUL is the copy's own. */
		r.specs = sl_strndup(P->log, P->specs.s, P->specs.len - 1);
		r.specs_len = (uint32_t)P->specs.len;
	}
	/* The request's own copy is for show: a float, clamped. */
	r.think = think > FLT_MAX ? FLT_MAX : (float)think;
	sl_add(P, &r, think, indented);
	return 0;
}

int
sesslog_parse(struct sesslog *log, const char *data, size_t len,
    const char *fname, char *errbuf, size_t errlen)
{
	struct sl_parser P;
	unsigned line;
	int indented, rv = 0;

	memset(log, 0, sizeof(*log));
	memset(&P, 0, sizeof(P));
	P.p = data;
	P.end = data + len;
	P.line = 1;
	P.fname = fname != NULL ? fname : "-";
	P.errbuf = errbuf;
	P.errlen = errlen;
	P.log = log;
	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	while (P.p < P.end) {
		if (*P.p == '#') {
			sl_next_line(&P);
			continue;
		}
		line = P.line;
		indented = *P.p == ' ' || *P.p == '\t';
		sl_skip_blanks(&P);
		if (sl_at_eol(&P))
			P.open = 0;	/* a blank line ends the session */
		else if (sl_request(&P, indented, line) == -1) {
			rv = -1;
			break;
		}
		sl_next_line(&P);
	}
	free(P.val.s);
	free(P.hdrs.s);
	free(P.specs.s);
	if (rv == -1)
		sesslog_free(log);
	else
		sl_finish(log);
	return rv;
}

int
sesslog_load(struct sesslog *log, const char *path, char *errbuf,
    size_t errlen)
{
	char *data;
	size_t len;
	int rv, e;

	memset(log, 0, sizeof(*log));
	if ((e = util_read_file(path, &data, &len)) != 0) {
		if (errbuf != NULL && errlen > 0)
			snprintf(errbuf, errlen, "%s: %s", path,
			    util_read_strerror(e));
		return -1;
	}
	rv = sesslog_parse(log, data, len, path, errbuf, errlen);
	free(data);
	if (rv == 0 && log->nsess == 0) {
		if (errbuf != NULL && errlen > 0)
			snprintf(errbuf, errlen, "%s: no sessions", path);
		sesslog_free(log);
		rv = -1;
	}
	return rv;
}

void
sesslog_free(struct sesslog *log)
{
	struct sesslog_block *b, *next;

	for (b = log->arena; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(log->sess);
	free(log->bursts);
	free(log->reqs);
	memset(log, 0, sizeof(*log));
}
