/*
 * Data files (see datafile.h).
 *
 * Both readers unescape in place: the write position never passes the
 * read position (a value never grows when unescaped: a quote pair, a
 * backslash escape or a \u escape is always at least as long as what it
 * stands for), so the rows end up at the start of the file's buffer,
 * which is then shrunk to them.  The header's names are copied out into
 * a buffer of their own.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/datafile.h"
#include "lib/util.h"

/* The state of one parse. */
struct df {
	struct datafile	*d;
	char		*s;		/* the text, rewritten in place */
	size_t		 len;
	size_t		 r;		/* read position */
	size_t		 w;		/* write position */
	size_t		 line;		/* of position r, from 1 */
	size_t		 noff;		/* offsets pushed */
	size_t		 cap;
	const char	*name;
	char		*err;
	size_t		 errlen;
	/* JSON Lines: each column's value in the current line. */
	size_t		*vstart;
	size_t		*vlen;
	unsigned char	*seen;
	char		*scratch;
	size_t		 scratch_cap;
};

static int __attribute__((format(printf, 3, 4)))
df_fail(struct df *p, size_t line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "%s:%zu: ", p->name, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Records that a value starts at the write position. */
static void
df_push(struct df *p)
{
	if (p->noff == p->cap) {
		p->cap = p->cap == 0 ? 256 : p->cap * 2;
		p->d->off = xreallocarray(p->d->off, p->cap,
		    sizeof(*p->d->off));
	}
	p->d->off[p->noff++] = (uint32_t)p->w;
}

/* The first `n' values pushed become the header's names. */
static int
df_header(struct df *p, size_t n, size_t line)
{
	struct datafile *d = p->d;
	size_t i, j, len, base = d->off[0];

	d->ncols = n;
	d->names = xmalloc(p->w - base + 1);
	memcpy(d->names, p->s + base, p->w - base);
	d->names[p->w - base] = '\0';
	d->name_off = xreallocarray(NULL, n + 1, sizeof(*d->name_off));
	for (i = 0; i < n; i++)
		d->name_off[i] = d->off[i] - (uint32_t)base;
	d->name_off[n] = (uint32_t)(p->w - base);
	p->w = base;
	p->noff = 0;
	for (i = 0; i < n; i++) {
		len = d->name_off[i + 1] - d->name_off[i];
		if (len == 0)
			return df_fail(p, line, "column %zu has no name",
			    i + 1);
		for (j = 0; j < i; j++)
			if (d->name_off[j + 1] - d->name_off[j] == len &&
			    memcmp(d->names + d->name_off[j], d->names +
			    d->name_off[i], len) == 0)
				return df_fail(p, line, "column %zu has the "
				    "name of column %zu", i + 1, j + 1);
	}
	return 0;
}

long
datafile_col(const struct datafile *d, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < d->ncols; i++)
		if (d->name_off[i + 1] - d->name_off[i] == len &&
		    memcmp(d->names + d->name_off[i], name, len) == 0)
			return (long)i;
	return -1;
}

/* CSV: a field in double quotes, from its opening quote. */
static int
df_csv_quoted(struct df *p)
{
	size_t open = p->line;
	char ch;

	p->r++;
	for (;;) {
		if (p->r >= p->len)
			return df_fail(p, open, "a quoted field is not "
			    "closed");
		ch = p->s[p->r];
		if (ch == '"') {
			if (p->r + 1 < p->len && p->s[p->r + 1] == '"') {
				p->s[p->w++] = '"';
				p->r += 2;
				continue;
			}
			p->r++;
			break;
		}
		if (ch == '\n')
			p->line++;
		p->s[p->w++] = ch;
		p->r++;
	}
	if (p->r < p->len && p->s[p->r] != ',' && p->s[p->r] != '\n' &&
	    !(p->s[p->r] == '\r' && p->r + 1 < p->len &&
	    p->s[p->r + 1] == '\n'))
		return df_fail(p, p->line, "text after a closing quote "
		    "(a quote in a field is written \"\")");
	return 0;
}

/* CSV: a field without quotes. */
static int
df_csv_plain(struct df *p)
{
	char ch;

	while (p->r < p->len) {
		ch = p->s[p->r];
		if (ch == ',' || ch == '\n' || (ch == '\r' &&
		    p->r + 1 < p->len && p->s[p->r + 1] == '\n'))
			break;
		if (ch == '"')
			return df_fail(p, p->line, "a quote inside a field "
			    "without quotes (quote the field, and write the "
			    "quote \"\")");
		p->s[p->w++] = ch;
		p->r++;
	}
	return 0;
}

/*
 * CSV: one record, from position r at the start of a line that is not
 * blank.  Returns its number of fields, or -1.
 */
static long
df_csv_record(struct df *p)
{
	long n = 0;
	int rv;

	for (;;) {
		df_push(p);
		n++;
		if (p->r < p->len && p->s[p->r] == '"')
			rv = df_csv_quoted(p);
		else
			rv = df_csv_plain(p);
		if (rv == -1)
			return -1;
		if (p->r >= p->len)
			return n;
		if (p->s[p->r] == ',') {
			p->r++;
			continue;
		}
		p->r += p->s[p->r] == '\r' ? 2 : 1;
		p->line++;
		return n;
	}
}

/* Skips blank lines (LF or CRLF alone).  Returns 0 at the end. */
static int
df_skip_blank(struct df *p)
{
	for (;;) {
		if (p->r < p->len && p->s[p->r] == '\n')
			p->r++;
		else if (p->r + 1 < p->len && p->s[p->r] == '\r' &&
		    p->s[p->r + 1] == '\n')
			p->r += 2;
		else
			return p->r < p->len;
		p->line++;
	}
}

static int
df_csv(struct df *p, int head)
{
	size_t line;
	long n;

	if (!df_skip_blank(p))
		return 0;
	line = p->line;
	if ((n = df_csv_record(p)) == -1 || df_header(p, (size_t)n,
	    line) == -1)
		return -1;
	while (!head && df_skip_blank(p)) {
		line = p->line;
		if ((n = df_csv_record(p)) == -1)
			return -1;
		if ((size_t)n != p->d->ncols)
			return df_fail(p, line, "%ld field%s, the header has "
			    "%zu", n, n == 1 ? "" : "s", p->d->ncols);
		p->d->nrows++;
	}
	return 0;
}

/* JSON: skips blanks up to `end'. */
static void
df_ws(struct df *p, size_t end)
{
	while (p->r < end && (p->s[p->r] == ' ' || p->s[p->r] == '\t' ||
	    p->s[p->r] == '\r'))
		p->r++;
}

static int
df_hex4(const char *s, unsigned *out)
{
	unsigned v = 0, i, c;

	for (i = 0; i < 4; i++) {
		c = (unsigned char)s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return -1;
		v = v << 4 | c;
	}
	*out = v;
	return 0;
}

/* Writes code point `u' as UTF-8. */
static void
df_utf8(struct df *p, unsigned u)
{
	char *o = p->s + p->w;

	if (u < 0x80) {
		o[0] = (char)u;
		p->w += 1;
	} else if (u < 0x800) {
		o[0] = (char)(0xc0 | u >> 6);
		o[1] = (char)(0x80 | (u & 0x3f));
		p->w += 2;
	} else if (u < 0x10000) {
		o[0] = (char)(0xe0 | u >> 12);
		o[1] = (char)(0x80 | (u >> 6 & 0x3f));
		o[2] = (char)(0x80 | (u & 0x3f));
		p->w += 3;
	} else {
		o[0] = (char)(0xf0 | u >> 18);
		o[1] = (char)(0x80 | (u >> 12 & 0x3f));
		o[2] = (char)(0x80 | (u >> 6 & 0x3f));
		o[3] = (char)(0x80 | (u & 0x3f));
		p->w += 4;
	}
}

/* JSON: a \u escape at r (after the backslash's 'u'). */
static int
df_json_u(struct df *p, size_t end)
{
	unsigned u, lo;

	if (p->r + 4 > end || df_hex4(p->s + p->r, &u) == -1)
		return df_fail(p, p->line, "a \\u escape needs 4 hex digits");
	p->r += 4;
	if (u >= 0xdc00 && u <= 0xdfff)
		return df_fail(p, p->line, "a lone surrogate in a \\u escape");
	if (u >= 0xd800 && u <= 0xdbff) {
		if (p->r + 6 > end || p->s[p->r] != '\\' ||
		    p->s[p->r + 1] != 'u' ||
		    df_hex4(p->s + p->r + 2, &lo) == -1 ||
		    lo < 0xdc00 || lo > 0xdfff)
			return df_fail(p, p->line, "a lone surrogate in a "
			    "\\u escape");
		p->r += 6;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	}
	df_utf8(p, u);
	return 0;
}

/* JSON: a string at r (its opening quote), decoded at w. */
static int
df_json_str(struct df *p, size_t end)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	char ch;

	for (p->r++; p->r < end; ) {
		ch = p->s[p->r++];
		if (ch == '"')
			return 0;
		if ((unsigned char)ch < 0x20)
			return df_fail(p, p->line, "a control character in "
			    "a string");
		if (ch != '\\') {
			p->s[p->w++] = ch;
			continue;
		}
		if (p->r >= end)
			break;
		ch = p->s[p->r++];
		if (ch == 'u') {
			if (df_json_u(p, end) == -1)
				return -1;
		} else if (ch != '\0' && (e = strchr(from, ch)) != NULL)
			p->s[p->w++] = to[e - from];
		else
			return df_fail(p, p->line, "an invalid escape in a "
			    "string");
	}
	return df_fail(p, p->line, "a string is not closed");
}

/* JSON: a number (RFC 8259's grammar) or true or false, copied. */
static int
df_json_scalar(struct df *p, size_t end)
{
	size_t r = p->r, n;
	const char *s = p->s;

	if (end - r >= 4 && memcmp(s + r, "true", 4) == 0)
		r += 4;
	else if (end - r >= 5 && memcmp(s + r, "false", 5) == 0)
		r += 5;
	else {
		if (r < end && s[r] == '-')
			r++;
		if (r < end && s[r] == '0')
			r++;
		else if (r < end && s[r] >= '1' && s[r] <= '9')
			while (r < end && s[r] >= '0' && s[r] <= '9')
				r++;
		else
			return -1;
		if (r < end && s[r] == '.') {
			for (n = ++r; r < end && s[r] >= '0' && s[r] <= '9'; )
				r++;
			if (r == n)
				return -1;
		}
		if (r < end && (s[r] == 'e' || s[r] == 'E')) {
			if (++r < end && (s[r] == '+' || s[r] == '-'))
				r++;
			for (n = r; r < end && s[r] >= '0' && s[r] <= '9'; )
				r++;
			if (r == n)
				return -1;
		}
	}
	memmove(p->s + p->w, s + p->r, r - p->r);
	p->w += r - p->r;
	p->r = r;
	return 0;
}

/*
 * JSON Lines: the column of the key just decoded at kw (klen bytes):
 * on the first line a new one, later the one of that name.  Returns it,
 * or -1.
 */
static long
df_json_key(struct df *p, size_t kw, size_t klen, int first, size_t guess)
{
	struct datafile *d = p->d;
	const char *k = p->s + kw;
	size_t need;
	long c;

	if (first) {
		if (klen == 0)
			return df_fail(p, p->line, "an empty key");
		if ((c = datafile_col(d, k, klen)) >= 0)
			return df_fail(p, p->line, "the key '%.*s' is "
			    "there twice", (int)(klen > 64 ? 64 : klen), k);
		need = d->ncols == 0 ? 0 : d->name_off[d->ncols];
		d->names = xrealloc(d->names, need + klen + 1);
		memcpy(d->names + need, k, klen);
		d->names[need + klen] = '\0';
		d->name_off = xreallocarray(d->name_off, d->ncols + 2,
		    sizeof(*d->name_off));
		d->name_off[d->ncols] = (uint32_t)need;
		d->name_off[d->ncols + 1] = (uint32_t)(need + klen);
		p->vstart = xreallocarray(p->vstart, d->ncols + 1,
		    sizeof(*p->vstart));
		p->vlen = xreallocarray(p->vlen, d->ncols + 1,
		    sizeof(*p->vlen));
		p->seen = xrealloc(p->seen, d->ncols + 1);
		p->seen[d->ncols] = 0;
		return (long)d->ncols++;
	}
	if (guess < d->ncols && d->name_off[guess + 1] -
	    d->name_off[guess] == klen &&
	    memcmp(d->names + d->name_off[guess], k, klen) == 0)
		c = (long)guess;
	else if ((c = datafile_col(d, k, klen)) == -1)
		return df_fail(p, p->line, "the key '%.*s' is not one of "
		    "the first line's", (int)(klen > 64 ? 64 : klen), k);
	if (p->seen[c])
		return df_fail(p, p->line, "the key '%.*s' is there twice",
		    (int)(klen > 64 ? 64 : klen), k);
	return c;
}

/* JSON Lines: one member "key": value, at r. */
static int
df_json_member(struct df *p, size_t end, size_t base, int first,
    size_t i)
{
	size_t kw = p->w;
	long c;

	if (p->r >= end || p->s[p->r] != '"')
		return df_fail(p, p->line, "expected a key in quotes");
	if (df_json_str(p, end) == -1)
		return -1;
	if ((c = df_json_key(p, kw, p->w - kw, first, i)) == -1)
		return -1;
	p->w = kw;
	df_ws(p, end);
	if (p->r >= end || p->s[p->r++] != ':')
		return df_fail(p, p->line, "expected ':' after a key");
	df_ws(p, end);
	if (p->r < end && p->s[p->r] == '"') {
		if (df_json_str(p, end) == -1)
			return -1;
	} else if (df_json_scalar(p, end) == -1)
		return df_fail(p, p->line, "the value of '%s' is not a "
		    "string, a number, true or false", p->d->names +
		    p->d->name_off[c]);
	p->seen[c] = 1;
	p->vstart[c] = kw - base;
	p->vlen[c] = p->w - kw;
	return 0;
}

/*
 * JSON Lines: pushes the line's values (at base, in the order of the
 * text) in the order of the columns.
 */
static void
df_json_order(struct df *p, size_t base, size_t n)
{
	size_t i, len = p->w - base, at = 0;
	int sorted = 1;

	for (i = 0; i < p->d->ncols; i++) {
		sorted &= p->vstart[i] == at;
		at += p->vlen[i];
	}
	if (!sorted) {
		if (len > p->scratch_cap) {
			p->scratch_cap = len;
			p->scratch = xrealloc(p->scratch, len);
		}
		memcpy(p->scratch, p->s + base, len);
		p->w = base;
		for (i = 0; i < p->d->ncols; i++) {
			memcpy(p->s + p->w, p->scratch + p->vstart[i],
			    p->vlen[i]);
			p->w += p->vlen[i];
		}
	}
	p->w = base;
	for (i = 0; i < n; i++) {
		df_push(p);
		p->w += p->vlen[i];
	}
}

/* JSON Lines: one line that is not blank, [r, end). */
static int
df_json_line(struct df *p, size_t end, int first)
{
	size_t base = p->w, n = 0, i;

	if (p->seen != NULL)
		memset(p->seen, 0, p->d->ncols);
	df_ws(p, end);
	if (p->r >= end || p->s[p->r++] != '{')
		return df_fail(p, p->line, "not a JSON object");
	df_ws(p, end);
	if (p->r < end && p->s[p->r] == '}')
		p->r++;
	else
		for (;;) {
			if (df_json_member(p, end, base, first, n++) == -1)
				return -1;
			df_ws(p, end);
			if (p->r < end && p->s[p->r] == ',') {
				p->r++;
				df_ws(p, end);
				continue;
			}
			if (p->r < end && p->s[p->r++] == '}')
				break;
			return df_fail(p, p->line, "expected ',' or '}'");
		}
	df_ws(p, end);
	if (p->r < end)
		return df_fail(p, p->line, "text after the object");
	if (p->d->ncols == 0)
		return df_fail(p, p->line, "an object without any key");
	for (i = 0; i < p->d->ncols; i++)
		if (!p->seen[i])
			return df_fail(p, p->line, "the key '%s' is missing",
			    p->d->names + p->d->name_off[i]);
	df_json_order(p, base, p->d->ncols);
	return 0;
}

/* Blank: nothing but JSON's white space. */
static int
df_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

static int
df_jsonl(struct df *p, int head)
{
	const char *nl;
	size_t end;

	while (p->r < p->len) {
		nl = memchr(p->s + p->r, '\n', p->len - p->r);
		end = nl != NULL ? (size_t)(nl - p->s) : p->len;
		if (!df_blank(p->s + p->r, end - p->r)) {
			if (df_json_line(p, end, p->d->nrows == 0) == -1)
				return -1;
			p->d->nrows++;
			if (head)
				return 0;
		}
		p->r = end + 1;
		p->line++;
	}
	return 0;
}

int
datafile_is_jsonl(const char *path)
{
	size_t n = strlen(path);

	return (n >= 6 && strcmp(path + n - 6, ".jsonl") == 0) ||
	    (n >= 7 && strcmp(path + n - 7, ".ndjson") == 0);
}

/* After a parse: the sentinel offset, the buffers shrunk. */
static int
df_finish(struct df *p, int jsonl, int head)
{
	struct datafile *d = p->d;

	df_push(p);
	d->vals = xrealloc(p->s, p->w + 1);
	d->vals[p->w] = '\0';
	p->s = NULL;
	d->off = xreallocarray(d->off, p->noff, sizeof(*d->off));
	if (d->ncols == 0) {
		snprintf(p->err, p->errlen, "%s: no %s", p->name, jsonl ?
		    "line" : "header row");
		return -1;
	}
	if (d->nrows == 0 && !head) {
		snprintf(p->err, p->errlen, "%s: no data row after the header",
		    p->name);
		return -1;
	}
	return 0;
}

int
datafile_parse(struct datafile *d, char *text, size_t len, int jsonl,
    int head, const char *name, char *err, size_t errlen)
{
	struct df p;
	int rv;

	memset(d, 0, sizeof(*d));
	memset(&p, 0, sizeof(p));
	p.d = d;
	p.s = text;
	p.len = len;
	p.line = 1;
	p.name = name;
	p.err = err;
	p.errlen = errlen;
	if (len >= UINT32_MAX) {
		snprintf(err, errlen, "%s: too large", name);
		rv = -1;
	} else {
		/* A UTF-8 byte order mark. */
		if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
			p.r = 3;
		rv = jsonl ? df_jsonl(&p, head) : df_csv(&p, head);
		if (rv == 0)
			rv = df_finish(&p, jsonl, head);
	}
	free(p.s);
	free(p.vstart);
	free(p.vlen);
	free(p.seen);
	free(p.scratch);
	if (rv == -1)
		datafile_free(d);
	return rv;
}

/*
 * Reads at most DATAFILE_HEAD_MAX bytes of regular file `path' (of at
 * most UTIL_FILE_MAX).  Returns 0 or an error of util_read_file()'s.
 */
static int
df_read_head(const char *path, char **out, size_t *outlen)
{
	struct stat st;
	size_t len = 0;
	ssize_t n;
	char *buf, *nl;
	int fd, e;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	while (fd == -1 && errno == EINTR);
	if (fd == -1)
		return errno;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)UTIL_FILE_MAX) {
		(void)close(fd);
		/* The whole file's reader says what is wrong with it. */
		return util_read_file(path, out, outlen);
	}
	buf = xmalloc(DATAFILE_HEAD_MAX + 1);
	while (len < DATAFILE_HEAD_MAX) {
		n = read(fd, buf + len, DATAFILE_HEAD_MAX - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			e = errno;
			free(buf);
			(void)close(fd);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	(void)close(fd);
	/* Cut: only whole lines. */
	if (len == DATAFILE_HEAD_MAX &&
	    (nl = memrchr(buf, '\n', len)) != NULL)
		len = (size_t)(nl - buf) + 1;
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
}

int
datafile_load(struct datafile *d, const char *path, int head, char *err,
    size_t errlen)
{
	char *text;
	size_t len;
	int e;

	memset(d, 0, sizeof(*d));
	e = head ? df_read_head(path, &text, &len) :
	    util_read_file(path, &text, &len);
	if (e != 0) {
		snprintf(err, errlen, "%s: %s", path, util_read_strerror(e));
		return -1;
	}
	return datafile_parse(d, text, len, datafile_is_jsonl(path), head,
	    path, err, errlen);
}

void
datafile_free(struct datafile *d)
{
	free(d->vals);
	free(d->off);
	free(d->names);
	free(d->name_off);
	memset(d, 0, sizeof(*d));
}
