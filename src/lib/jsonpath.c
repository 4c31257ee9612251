/*
 * JSON path lookup (see jsonpath.h): a recursive descent over the bytes
 * that follows the path and skips everything else, checking the grammar
 * (RFC 8259) of what it reads.  Recursion is bounded by
 * JSONPATH_MAX_DEPTH; every read is checked against the end.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonpath.h"
#include "lib/util.h"

struct jp {
	const char	*p;
	const char	*end;
	unsigned	 depth;
	struct tmpl_buf	 key;		/* a member name, unescaped */
};

static int	jp_skip_value(struct jp *);

static void
jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
	    *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

/* Takes byte `c' (after blanks); returns 0, or -1 if it is not there. */
static int
jp_take(struct jp *j, char c)
{
	jp_ws(j);
	if (j->p == j->end || *j->p != c)
		return -1;
	j->p++;
	return 0;
}

static int
jp_hex4(const char *p, unsigned *v)
{
	unsigned i, d;

	*v = 0;
	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = (unsigned)(p[i] - '0');
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = (unsigned)(p[i] - 'a' + 10);
		else if (p[i] >= 'A' && p[i] <= 'F')
			d = (unsigned)(p[i] - 'A' + 10);
		else
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

/* Appends code point `cp' in UTF-8. */
static void
jp_utf8(struct tmpl_buf *out, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	tmpl_buf_add(out, u, n);
}

/*
 * Decodes a \u escape at j->p (just after the backslash and 'u'), with
 * its low surrogate if it is a high one; a lone surrogate becomes U+FFFD.
 */
static int
jp_unicode(struct jp *j, struct tmpl_buf *out)
{
	unsigned cp, lo;

	if (j->end - j->p < 4 || jp_hex4(j->p, &cp) == -1)
		return -1;
	j->p += 4;
	if (cp >= 0xd800 && cp <= 0xdbff && j->end - j->p >= 6 &&
	    j->p[0] == '\\' && j->p[1] == 'u' && jp_hex4(j->p + 2, &lo) == 0 &&
	    lo >= 0xdc00 && lo <= 0xdfff) {
		j->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xd800 && cp <= 0xdfff)
		cp = 0xfffd;
	if (out != NULL)
		jp_utf8(out, cp);
	return 0;
}

/*
 * Reads a string at j->p (its opening quote), appending its unescaped
 * bytes to `out' (NULL: only skips it).
 */
static int
jp_string(struct jp *j, struct tmpl_buf *out)
{
	const char *run;
	char c;

	if (j->p == j->end || *j->p != '"')
		return -1;
	j->p++;
	for (;;) {
		run = j->p;
		while (j->p < j->end && *j->p != '"' && *j->p != '\\' &&
		    (unsigned char)*j->p >= 0x20)
			j->p++;
		if (out != NULL && j->p > run)
			tmpl_buf_add(out, run, (size_t)(j->p - run));
		if (j->p == j->end || (unsigned char)*j->p < 0x20)
			return -1;
		if (*j->p++ == '"')
			return 0;
		if (j->p == j->end)
			return -1;
		switch ((c = *j->p++)) {
		case '"': case '\\': case '/':
			break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			if (jp_unicode(j, out) == -1)
				return -1;
			continue;
		default:
			return -1;
		}
		if (out != NULL)
			tmpl_buf_add(out, &c, 1);
	}
}

static size_t
jp_digits(struct jp *j)
{
	const char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return (size_t)(j->p - s);
}

/* A number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int
jp_number(struct jp *j)
{
	const char *s;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	s = j->p;
	if (jp_digits(j) == 0 || (*s == '0' && j->p - s > 1))
		return -1;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (jp_digits(j) == 0)
			return -1;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (jp_digits(j) == 0)
			return -1;
	}
	return 0;
}

static int
jp_word(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return -1;
	j->p += n;
	return 0;
}

/* Skips the members or elements of an object or array at j->p. */
static int
jp_skip_compound(struct jp *j)
{
	char close = *j->p == '{' ? '}' : ']';
	int obj = close == '}';

	if (++j->depth > JSONPATH_MAX_DEPTH)
		return -1;
	j->p++;
	if (jp_take(j, close) == 0)
		goto out;
	for (;;) {
		if (obj) {
			jp_ws(j);
			if (jp_string(j, NULL) == -1 || jp_take(j, ':') == -1)
				return -1;
		}
		if (jp_skip_value(j) == -1)
			return -1;
		if (jp_take(j, close) == 0)
			break;
		if (jp_take(j, ',') == -1)
			return -1;
	}
out:
	j->depth--;
	return 0;
}

/* Skips one value (after blanks). */
static int
jp_skip_value(struct jp *j)
{
	jp_ws(j);
	if (j->p == j->end)
		return -1;
	switch (*j->p) {
	case '{':
	case '[':
		return jp_skip_compound(j);
	case '"':
		return jp_string(j, NULL);
	case 't':
		return jp_word(j, "true");
	case 'f':
		return jp_word(j, "false");
	case 'n':
		return jp_word(j, "null");
	default:
		return jp_number(j);
	}
}

/*
 * Moves to the member named by `st' of the object at j->p (its '{'),
 * just after its ':'.  The first member of that name wins.
 */
static int
jp_member(struct jp *j, const struct jsonpath_step *st)
{
	if (jp_take(j, '{') == -1)
		return -1;
	jp_ws(j);
	if (j->p < j->end && *j->p == '}')
		return -1;
	for (;;) {
		jp_ws(j);
		j->key.len = 0;
		if (jp_string(j, &j->key) == -1 || jp_take(j, ':') == -1)
			return -1;
		if (j->key.len == st->len &&
		    memcmp(j->key.p, st->key, st->len) == 0)
			return 0;
		if (jp_skip_value(j) == -1 || jp_take(j, ',') == -1)
			return -1;
	}
}

/* Moves to element `st->len' of the array at j->p (its '['). */
static int
jp_element(struct jp *j, const struct jsonpath_step *st)
{
	size_t i;

	if (jp_take(j, '[') == -1)
		return -1;
	jp_ws(j);
	if (j->p < j->end && *j->p == ']')
		return -1;
	for (i = 0; i < st->len; i++)
		if (jp_skip_value(j) == -1 || jp_take(j, ',') == -1)
			return -1;
	return 0;
}

int
jsonpath_get(const struct jsonpath *p, const char *doc, size_t len,
    struct tmpl_buf *out)
{
	struct jp j;
	const char *start;
	size_t i, olen = out->len;
	int rv = -1;

	memset(&j, 0, sizeof(j));
	j.p = doc;
	j.end = doc + len;
	for (i = 0; i < p->n; i++) {
		if (++j.depth > JSONPATH_MAX_DEPTH)
			goto out;
		if ((p->steps[i].key != NULL ? jp_member(&j, &p->steps[i]) :
		    jp_element(&j, &p->steps[i])) == -1)
			goto out;
	}
	jp_ws(&j);
	if (j.p < j.end && *j.p == '"')
		rv = jp_string(&j, out);
	else {
		start = j.p;
		if ((rv = jp_skip_value(&j)) == 0)
			tmpl_buf_add(out, start, (size_t)(j.p - start));
	}
out:
	if (rv == -1 && out->p != NULL) {
		out->len = olen;
		out->p[olen] = '\0';
	}
	free(j.key.p);
	return rv;
}

static int
jp_cerr(char *err, size_t errlen, size_t *col, size_t at, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	*col = at + 1;
	return -1;
}

/* Reads "[N]" at s[*i]. */
static int
jp_cindex(struct jsonpath_step *st, const char *s, size_t len, size_t *i,
    char *err, size_t errlen, size_t *col)
{
	size_t at = *i, v = 0, nd = 0;

	for ((*i)++; *i < len && s[*i] >= '0' && s[*i] <= '9'; (*i)++, nd++) {
		if (v > (SIZE_MAX - 9) / 10)
			return jp_cerr(err, errlen, col, at, "index too large");
		v = v * 10 + (size_t)(s[*i] - '0');
	}
	if (nd == 0 || *i == len || s[*i] != ']')
		return jp_cerr(err, errlen, col, at, "bad index (want [N])");
	(*i)++;
	st->key = NULL;
	st->len = v;
	return 0;
}

int
jsonpath_compile(struct jsonpath *p, const char *s, size_t len, char *err,
    size_t errlen, size_t *col)
{
	size_t i = 0, k, at;
	char *t;

	memset(p, 0, sizeof(*p));
	if (len == 0)
		return jp_cerr(err, errlen, col, 0, "empty path");
	t = p->text = xmalloc(len + 1);
	k = 0;
	for (;;) {
		at = i;
		if (i < len && s[i] != '[') {
			if (p->n == JSONPATH_MAX_STEPS)
				goto steps;
			p->steps[p->n].key = t + k;
			while (i < len && s[i] != '.' && s[i] != '[') {
				if (s[i] == ']' || (s[i] == '\\' && i + 1 == len))
					goto bad;
				if (s[i] == '\\')
					i++;
				t[k++] = s[i++];
			}
			p->steps[p->n].len = (size_t)(t + k -
			    p->steps[p->n].key);
			if (p->steps[p->n].len == 0)
				goto empty;
			p->n++;
		} else if (i == len || p->n > 0)
			goto empty;
		while (i < len && s[i] == '[') {
			if (p->n == JSONPATH_MAX_STEPS)
				goto steps;
			if (jp_cindex(&p->steps[p->n], s, len, &i, err, errlen,
			    col) == -1)
				goto fail;
			p->n++;
		}
		if (i == len)
			return 0;
		if (s[i] != '.')
			goto bad;
		if (++i == len) {
			at = i;
			goto empty;
		}
	}
empty:
	jp_cerr(err, errlen, col, at, "empty key");
	goto fail;
bad:
	jp_cerr(err, errlen, col, i, "bad character in path");
	goto fail;
steps:
	jp_cerr(err, errlen, col, at, "path longer than 32 steps");
fail:
	jsonpath_free(p);
	return -1;
}

void
jsonpath_free(struct jsonpath *p)
{
	free(p->text);
	p->text = NULL;
	p->n = 0;
}
