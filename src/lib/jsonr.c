/*
 * The JSON reader: a recursive descent parser over byte offsets (never
 * pointers past the text), its depth bounded by JV_MAX_DEPTH so the C
 * stack stays small, building a tree in an arena.
 *
 * The elements of an array, or members of an object, being parsed are
 * kept on a value stack (and a name stack) shared by every level; when
 * the container closes they move to one arena block of the exact size and
 * leave the stack.  Nodes are 24 bytes; strings and number texts are
 * packed in the arena without alignment.  An object of more than
 * JV_LINEAR members also gets an index of its members sorted by name,
 * for binary search and to find duplicate names in O(n log n); smaller
 * ones are searched linearly and checked for duplicates as each member
 * is read.  Reading the tree: jsonr_tree.c.
 *
 * Every allocation is counted against a budget (jv_parse_max()), so that
 * running out of memory, real or budgeted, takes the same error path and
 * the tests can fail every allocation in turn.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/jsonr_int.h"
#include "lib/util.h"

/* Arena chunk size; a larger allocation gets a chunk of its own. */
#define JV_CHUNK	((size_t)64 * 1024)
#define JV_ALIGN	((size_t)8)
/* Room for a duplicate name in its error message. */
#define JV_KEYSHOW	48

struct jv_chunk {
	struct jv_chunk		*next;
	size_t			 size;		/* of data */
	size_t			 used;
	/* data follows, aligned as the header is */
};
#define JV_CHUNK_DATA(c)	((char *)(c) + sizeof(struct jv_chunk))

/* What jv_parse() returns points at `root'. */
struct jv_doc {
	struct jv		 root;
	struct jv_chunk		*chunks;
};

/* An object member's name while its object is being read. */
struct jp_key {
	const char		*key;
	size_t			 len;
	size_t			 pos;		/* offset of its '"' */
};

struct jp {
	const unsigned char	*t;
	size_t			 len;
	size_t			 pos;
	unsigned		 depth;
	size_t			 budget;	/* bytes still allowed */
	struct jv_chunk		*chunks;
	struct jv		*vals;
	size_t			 nvals, capvals;
	struct jp_key		*keys;
	size_t			 nkeys, capkeys;
	char			*err;
	size_t			 errlen;
};

/*
 * Writes "line L, column C: MESSAGE" for byte offset `pos' into the
 * caller's buffer.  Returns -1 for the caller to return.
 */
static int __attribute__((format(printf, 3, 4)))
jp_fail(struct jp *jp, size_t pos, const char *fmt, ...)
{
	size_t i, line = 1, bol = 0;
	va_list ap;
	int n;

	if (jp->err == NULL || jp->errlen == 0)
		return -1;
	for (i = 0; i < pos && i < jp->len; i++)
		if (jp->t[i] == '\n') {
			line++;
			bol = i + 1;
		}
	n = snprintf(jp->err, jp->errlen, "line %zu, column %zu: ", line,
	    pos - bol + 1);
	if (n >= 0 && (size_t)n < jp->errlen) {
		va_start(ap, fmt);
		(void)vsnprintf(jp->err + n, jp->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int
jp_oom(struct jp *jp)
{
	return jp_fail(jp, jp->pos, "out of memory");
}

/* "expected WHAT, found X" for the byte at jp->pos. */
static int
jp_expected(struct jp *jp, const char *what)
{
	unsigned char c;

	if (jp->pos >= jp->len)
		return jp_fail(jp, jp->pos, "expected %s, found end of text",
		    what);
	c = jp->t[jp->pos];
	if (c > 0x20 && c < 0x7f)
		return jp_fail(jp, jp->pos, "expected %s, found '%c'", what,
		    c);
	return jp_fail(jp, jp->pos, "expected %s, found byte 0x%02x", what,
	    c);
}

/* malloc() within the budget. */
static void *
jp_malloc(struct jp *jp, size_t size)
{
	void *p;

	if (size > jp->budget)
		return NULL;
	if ((p = malloc(size)) != NULL)
		jp->budget -= size;
	return p;
}

/*
 * Grows stack *base of *cap elements of `size' bytes to hold one more
 * than `n'.  The budget is charged the growth; the old block is returned
 * to it when it is replaced.
 */
static int
jp_grow(struct jp *jp, void **base, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap != 0 ? *cap : 64;
	while (ncap <= n) {
		if (ncap > SIZE_MAX / 2 / size)
			return -1;
		ncap *= 2;
	}
	if ((ncap - *cap) * size > jp->budget)
		return -1;
	if ((p = realloc(*base, ncap * size)) == NULL)
		return -1;
	jp->budget -= (ncap - *cap) * size;
	*base = p;
	*cap = ncap;
	return 0;
}

/* `size' bytes from the arena, aligned to `align' (1 or JV_ALIGN). */
static void *
jp_alloc(struct jp *jp, size_t size, size_t align)
{
	struct jv_chunk *c = jp->chunks;
	size_t off, csize;

	if (c != NULL) {
		off = (c->used + align - 1) & ~(align - 1);
		if (off <= c->size && c->size - off >= size) {
			c->used = off + size;
			return JV_CHUNK_DATA(c) + off;
		}
	}
	csize = size > JV_CHUNK / 4 ? size : JV_CHUNK;
	if (csize > SIZE_MAX - sizeof(*c) ||
	    (c = jp_malloc(jp, sizeof(*c) + csize)) == NULL)
		return NULL;
	c->size = csize;
	c->used = size;
	if (csize == size && jp->chunks != NULL) {
		/* A block of its own: keep filling the current chunk. */
		c->next = jp->chunks->next;
		jp->chunks->next = c;
	} else {
		c->next = jp->chunks;
		jp->chunks = c;
	}
	return JV_CHUNK_DATA(c);
}

static void
jp_free_chunks(struct jv_chunk *c)
{
	struct jv_chunk *next;

	for (; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
}

static void
jp_skip_ws(struct jp *jp)
{
	unsigned char c;

	while (jp->pos < jp->len) {
		c = jp->t[jp->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		jp->pos++;
	}
}

static int
jp_isdigit(struct jp *jp, size_t pos)
{
	return pos < jp->len && jp->t[pos] >= '0' && jp->t[pos] <= '9';
}

/* The value of hex digit c, or -1. */
static int
jp_hex(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The 4 hex digits at pos (before `end'), or -1. */
static long
jp_hex4(struct jp *jp, size_t pos, size_t end)
{
	long v = 0;
	int i, h;

	for (i = 0; i < 4; i++) {
		if (pos + (size_t)i >= end ||
		    (h = jp_hex(jp->t[pos + (size_t)i])) < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/*
 * The length of the valid UTF-8 sequence at pos (before `end'), or 0.
 * Overlong forms, surrogates and code points past U+10FFFF are invalid.
 */
static size_t
jp_utf8(struct jp *jp, size_t pos, size_t end)
{
	const unsigned char *s = jp->t + pos;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;		/* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f;		/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		if (s[0] == 0xf0)
			lo = 0x90;		/* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f;		/* past U+10FFFF */
	} else
		return 0;
	if (end - pos < n)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* Writes code point cp as UTF-8 at d; returns the bytes written. */
static size_t
jp_put_utf8(char *d, unsigned long cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xc0 | (cp >> 6));
		d[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xe0 | (cp >> 12));
		d[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		d[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | (cp >> 18));
	d[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	d[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	d[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The string whose '"' is at jp->pos, decoded into the arena.  Its end is
 * found first; decoding never makes it longer (\uXXXX is 6 bytes for at
 * most 3, a surrogate pair 12 for 4), so its raw length bounds the copy.
 */
static int
jp_string(struct jp *jp, const char **out, size_t *outlen)
{
	size_t open = jp->pos, end, i, n;
	unsigned char c;
	long cp, lo;
	char *d, *s;

	for (end = open + 1; end < jp->len && jp->t[end] != '"'; end++)
		if (jp->t[end] == '\\')
			end++;
	if (end >= jp->len)
		return jp_fail(jp, open, "string not terminated");
	if ((s = jp_alloc(jp, end - open, 1)) == NULL)
		return jp_oom(jp);
	d = s;
	for (i = open + 1; i < end;) {
		c = jp->t[i];
		if (c < 0x20)
			return jp_fail(jp, i,
			    "control character 0x%02x in a string", c);
		if (c >= 0x80) {
			if ((n = jp_utf8(jp, i, end)) == 0)
				return jp_fail(jp, i, "invalid UTF-8");
			memcpy(d, jp->t + i, n);
			d += n;
			i += n;
			continue;
		}
		if (c != '\\') {
			*d++ = (char)c;
			i++;
			continue;
		}
		switch (jp->t[i + 1]) {
		case '"':	*d++ = '"'; break;
		case '\\':	*d++ = '\\'; break;
		case '/':	*d++ = '/'; break;
		case 'b':	*d++ = '\b'; break;
		case 'f':	*d++ = '\f'; break;
		case 'n':	*d++ = '\n'; break;
		case 'r':	*d++ = '\r'; break;
		case 't':	*d++ = '\t'; break;
		case 'u':
			if ((cp = jp_hex4(jp, i + 2, end)) < 0)
				return jp_fail(jp, i,
				    "\\u not followed by 4 hex digits");
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return jp_fail(jp, i,
				    "lone low surrogate \\u%04lx", cp);
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (i + 7 >= end || jp->t[i + 6] != '\\' ||
				    jp->t[i + 7] != 'u' ||
				    (lo = jp_hex4(jp, i + 8, end)) < 0xdc00 ||
				    lo > 0xdfff)
					return jp_fail(jp, i, "lone high "
					    "surrogate \\u%04lx", cp);
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				i += 6;
			}
			d += jp_put_utf8(d, (unsigned long)cp);
			i += 6;
			continue;
		default:
			if (jp->t[i + 1] > 0x20 && jp->t[i + 1] < 0x7f)
				return jp_fail(jp, i, "invalid escape \\%c",
				    jp->t[i + 1]);
			return jp_fail(jp, i, "invalid escape");
		}
		i += 2;
	}
	*d = '\0';
	*out = s;
	*outlen = (size_t)(d - s);
	jp->pos = end + 1;
	return 0;
}

/*
 * The number at jp->pos.  Its grammar is checked here; its value comes
 * from strtod(), which must take all of it (the program keeps the "C"
 * locale, so the decimal point is '.'; were it not, this is an error, not
 * a wrong value).
 */
static int
jp_number(struct jp *jp, struct jv *v)
{
	size_t start = jp->pos, p = jp->pos;
	char *text, *endp;
	double d;

	if (jp->t[p] == '-')
		p++;
	if (!jp_isdigit(jp, p)) {
		jp->pos = p;
		return jp_expected(jp, "a digit");
	}
	if (jp->t[p] == '0') {
		p++;
		if (jp_isdigit(jp, p))
			return jp_fail(jp, p - 1,
			    "number with a leading zero");
	} else
		while (jp_isdigit(jp, p))
			p++;
	if (p < jp->len && jp->t[p] == '.') {
		p++;
		if (!jp_isdigit(jp, p)) {
			jp->pos = p;
			return jp_expected(jp, "a digit after '.'");
		}
		while (jp_isdigit(jp, p))
			p++;
	}
	if (p < jp->len && (jp->t[p] == 'e' || jp->t[p] == 'E')) {
		p++;
		if (p < jp->len && (jp->t[p] == '+' || jp->t[p] == '-'))
			p++;
		if (!jp_isdigit(jp, p)) {
			jp->pos = p;
			return jp_expected(jp, "a digit in the exponent");
		}
		while (jp_isdigit(jp, p))
			p++;
	}
	if ((text = jp_alloc(jp, p - start + 1, 1)) == NULL)
		return jp_oom(jp);
	memcpy(text, jp->t + start, p - start);
	text[p - start] = '\0';
	d = strtod(text, &endp);
	if (endp != text + (p - start))
		return jp_fail(jp, start, "number not convertible");
	if (!isfinite(d))
		return jp_fail(jp, start,
		    "number out of the range of a double");
	v->type = JV_NUM;
	v->u.num.d = d;
	v->u.num.text = text;
	jp->pos = p;
	return 0;
}

static int
jp_literal(struct jp *jp, const char *word, struct jv *v)
{
	size_t n = strlen(word);

	if (jp->len - jp->pos < n || memcmp(jp->t + jp->pos, word, n) != 0)
		return jp_fail(jp, jp->pos, "invalid literal (not %s)", word);
	jp->pos += n;
	return 0;
}

static int	jp_value(struct jp *, struct jv *);

static int
jp_push(struct jp *jp, const struct jv *v)
{
	if (jp_grow(jp, (void **)&jp->vals, &jp->capvals, jp->nvals,
	    sizeof(*jp->vals)) != 0)
		return jp_oom(jp);
	jp->vals[jp->nvals++] = *v;
	return 0;
}

/* The array whose '[' is at jp->pos. */
static int
jp_array(struct jp *jp, struct jv *v)
{
	size_t base = jp->nvals, n, comma;
	struct jv elem;

	jp->pos++;
	jp_skip_ws(jp);
	if (jp->pos < jp->len && jp->t[jp->pos] == ']') {
		jp->pos++;
		v->type = JV_ARR;
		v->u.arr.items = NULL;
		v->u.arr.n = 0;
		return 0;
	}
	for (;;) {
		if (jp_value(jp, &elem) != 0 || jp_push(jp, &elem) != 0)
			return -1;
		jp_skip_ws(jp);
		if (jp->pos < jp->len && jp->t[jp->pos] == ']')
			break;
		if (jp->pos >= jp->len || jp->t[jp->pos] != ',')
			return jp_expected(jp, "',' or ']'");
		comma = jp->pos++;
		jp_skip_ws(jp);
		if (jp->pos < jp->len && jp->t[jp->pos] == ']')
			return jp_fail(jp, comma, "comma before ']'");
	}
	jp->pos++;
	n = jp->nvals - base;
	v->type = JV_ARR;
	v->u.arr.n = n;
	if (n > SIZE_MAX / sizeof(*v) ||
	    (v->u.arr.items = jp_alloc(jp, n * sizeof(*v), JV_ALIGN)) == NULL)
		return jp_oom(jp);
	memcpy(v->u.arr.items, jp->vals + base, n * sizeof(*v));
	jp->nvals = base;
	return 0;
}

/* Orders members by name length, then bytes, then place in the text. */
static int
jp_member_cmp(const void *a, const void *b)
{
	const struct jv_member *x = *(const struct jv_member *const *)a;
	const struct jv_member *y = *(const struct jv_member *const *)b;
	int c;

	if (x->keylen != y->keylen)
		return x->keylen < y->keylen ? -1 : 1;
	if ((c = memcmp(x->key, y->key, x->keylen)) != 0)
		return c;
	return x < y ? -1 : x > y;
}

static int
jp_dup(struct jp *jp, const char *key, size_t len, size_t pos)
{
	char show[JV_KEYSHOW];

	return jp_fail(jp, pos, "duplicate key \"%s\"",
	    util_escape(show, sizeof(show), key, len));
}

/*
 * Moves the n members on the stacks from vbase/kbase into the arena as
 * object v, with the sorted index when n > JV_LINEAR; a duplicate name
 * found there is reported at its second occurrence (the first one in the
 * text, were there several), as the linear check would.
 */
static int
jp_object_close(struct jp *jp, struct jv *v, size_t vbase, size_t kbase)
{
	size_t n = jp->nvals - vbase, i, j, dup = SIZE_MAX, size;
	const struct jv_member **idx;
	struct jv_member *m;

	size = sizeof(*m) + (n > JV_LINEAR ? sizeof(*idx) : 0);
	if (n > SIZE_MAX / size ||
	    (m = jp_alloc(jp, n * size, JV_ALIGN)) == NULL)
		return jp_oom(jp);
	for (i = 0; i < n; i++) {
		m[i].v = jp->vals[vbase + i];
		m[i].key = jp->keys[kbase + i].key;
		m[i].keylen = jp->keys[kbase + i].len;
	}
	v->type = JV_OBJ;
	v->u.obj.m = m;
	v->u.obj.n = n;
	if (n > JV_LINEAR) {
		idx = (const struct jv_member **)(void *)(m + n);
		for (i = 0; i < n; i++)
			idx[i] = &m[i];
		qsort(idx, n, sizeof(*idx), jp_member_cmp);
		for (i = 0; i + 1 < n; i++) {
			if (idx[i]->keylen != idx[i + 1]->keylen ||
			    memcmp(idx[i]->key, idx[i + 1]->key,
			    idx[i]->keylen) != 0)
				continue;
			j = (size_t)(idx[i + 1] - m);
			if (dup == SIZE_MAX || jp->keys[kbase + j].pos <
			    jp->keys[kbase + dup].pos)
				dup = j;
		}
		if (dup != SIZE_MAX)
			return jp_dup(jp, m[dup].key, m[dup].keylen,
			    jp->keys[kbase + dup].pos);
	}
	jp->nvals = vbase;
	jp->nkeys = kbase;
	return 0;
}

/* The object whose '{' is at jp->pos. */
static int
jp_object(struct jp *jp, struct jv *v)
{
	size_t vbase = jp->nvals, kbase = jp->nkeys, i, comma;
	struct jp_key k;
	struct jv val;

	jp->pos++;
	jp_skip_ws(jp);
	if (jp->pos < jp->len && jp->t[jp->pos] == '}') {
		jp->pos++;
		v->type = JV_OBJ;
		v->u.obj.m = NULL;
		v->u.obj.n = 0;
		return 0;
	}
	for (;;) {
		if (jp->pos >= jp->len || jp->t[jp->pos] != '"')
			return jp_expected(jp, "a member name");
		k.pos = jp->pos;
		if (jp_string(jp, &k.key, &k.len) != 0)
			return -1;
		if (jp->nkeys - kbase < JV_LINEAR)
			for (i = kbase; i < jp->nkeys; i++)
				if (jp->keys[i].len == k.len &&
				    memcmp(jp->keys[i].key, k.key, k.len) == 0)
					return jp_dup(jp, k.key, k.len,
					    k.pos);
		if (jp_grow(jp, (void **)&jp->keys, &jp->capkeys, jp->nkeys,
		    sizeof(*jp->keys)) != 0)
			return jp_oom(jp);
		jp->keys[jp->nkeys++] = k;
		jp_skip_ws(jp);
		if (jp->pos >= jp->len || jp->t[jp->pos] != ':')
			return jp_expected(jp, "':'");
		jp->pos++;
		jp_skip_ws(jp);
		if (jp_value(jp, &val) != 0 || jp_push(jp, &val) != 0)
			return -1;
		jp_skip_ws(jp);
		if (jp->pos < jp->len && jp->t[jp->pos] == '}')
			break;
		if (jp->pos >= jp->len || jp->t[jp->pos] != ',')
			return jp_expected(jp, "',' or '}'");
		comma = jp->pos++;
		jp_skip_ws(jp);
		if (jp->pos < jp->len && jp->t[jp->pos] == '}')
			return jp_fail(jp, comma, "comma before '}'");
	}
	jp->pos++;
	return jp_object_close(jp, v, vbase, kbase);
}

/* The value at jp->pos (white space skipped). */
static int
jp_value(struct jp *jp, struct jv *v)
{
	int rv;

	memset(v, 0, sizeof(*v));
	if (jp->pos >= jp->len)
		return jp_expected(jp, "a value");
	switch (jp->t[jp->pos]) {
	case '{':
	case '[':
		if (jp->depth >= JV_MAX_DEPTH)
			return jp_fail(jp, jp->pos,
			    "nested deeper than %d", JV_MAX_DEPTH);
		jp->depth++;
		rv = jp->t[jp->pos] == '{' ? jp_object(jp, v) :
		    jp_array(jp, v);
		jp->depth--;
		return rv;
	case '"':
		v->type = JV_STR;
		return jp_string(jp, &v->u.str.s, &v->u.str.len);
	case 't':
		v->type = JV_BOOL;
		v->u.b = 1;
		return jp_literal(jp, "true", v);
	case 'f':
		v->type = JV_BOOL;
		v->u.b = 0;
		return jp_literal(jp, "false", v);
	case 'n':
		v->type = JV_NULL;
		return jp_literal(jp, "null", v);
	default:
		if (jp->t[jp->pos] == '-' || jp_isdigit(jp, jp->pos))
			return jp_number(jp, v);
		return jp_expected(jp, "a value");
	}
}

struct jv *
jv_parse_max(const char *text, size_t len, size_t max, char *err,
    size_t errlen)
{
	struct jv_doc *doc = NULL;
	struct jp jp;
	struct jv root;
	int rv;

	memset(&jp, 0, sizeof(jp));
	jp.t = (const unsigned char *)text;
	jp.len = text != NULL ? len : 0;
	jp.budget = max;
	jp.err = err;
	jp.errlen = errlen;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (jp.len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		(void)jp_fail(&jp, 0, "byte order mark (not allowed in JSON)");
		return NULL;
	}
	jp_skip_ws(&jp);
	rv = jp_value(&jp, &root);
	if (rv == 0) {
		jp_skip_ws(&jp);
		if (jp.pos < jp.len)
			rv = jp_expected(&jp, "end of text after the value");
	}
	if (rv == 0 && (doc = jp_malloc(&jp, sizeof(*doc))) == NULL)
		rv = jp_oom(&jp);
	free(jp.vals);
	free(jp.keys);
	if (rv != 0) {
		jp_free_chunks(jp.chunks);
		return NULL;
	}
	doc->root = root;
	doc->chunks = jp.chunks;
	return &doc->root;
}

struct jv *
jv_parse(const char *text, size_t len, char *err, size_t errlen)
{
	return jv_parse_max(text, len, SIZE_MAX, err, errlen);
}

void
jv_free(struct jv *v)
{
	struct jv_doc *doc;

	if (v == NULL)
		return;
	doc = containerof(v, struct jv_doc, root);
	jp_free_chunks(doc->chunks);
	free(doc);
}
