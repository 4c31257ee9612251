/*
 * The bounded HTML tokenizer of htmlscan.h: one pass over the page with
 * an index that never passes `len'; attribute values are kept as spans of
 * the page until their tag's '>' and decoded only when reported.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/htmlscan.h"

/* The attributes any reported tag reads. */
enum { A_SRC, A_SRCSET, A_HREF, A_REL, A_DATA, A_POSTER, A_N };

static const char *const attr_names[A_N] = {
	"src", "srcset", "href", "rel", "data", "poster"
};

struct span {
	const char	*p;
	size_t		 len;
	int		 set;
};

/* Tags whose one attribute is an object. */
static const struct {
	const char	*tag;
	int		 attr;
} simple_tags[] = {
	{ "script", A_SRC }, { "iframe", A_SRC }, { "frame", A_SRC },
	{ "source", A_SRC }, { "video", A_POSTER }, { "object", A_DATA },
	{ "embed", A_SRC },
};

/* Tags whose content is text up to their end tag. */
static const char *const raw_tags[] = {
	"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
	"noframes", "noscript",
};

struct scan {
	const char	*p;
	size_t		 len;
	size_t		 max;
	struct htmlscan	*r;
	int		 err;		/* memory ran out */
};

enum { D_REFS = 1, D_SRCSET = 2 };	/* decode(): how */

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

static int
is_alpha(int c)
{
	c = lower(c);
	return c >= 'a' && c <= 'z';
}

static int
is_ident(int c)
{
	return is_alpha(c) || (c >= '0' && c <= '9') || c == '-' ||
	    c == '_';
}

/* Whether the `n' bytes at `s' begin with lower-case `w', in any case. */
static int
iprefix(const char *s, size_t n, const char *w)
{
	size_t i, wl = strlen(w);

	if (wl > n)
		return 0;
	for (i = 0; i < wl; i++)
		if (lower((unsigned char)s[i]) != w[i])
			return 0;
	return 1;
}

static int
ieq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && iprefix(s, n, w);
}

/* Offset of `w' (exact bytes) in p[i, e), or e. */
static size_t
find(const char *p, size_t i, size_t e, const char *w)
{
	size_t wl = strlen(w);

	for (; i + wl <= e; i++) {
		const char *c = memchr(p + i, w[0], e - i - wl + 1);

		if (c == NULL)
			return e;
		i = (size_t)(c - p);
		if (memcmp(p + i, w, wl) == 0)
			return i;
	}
	return e;
}

/* Writes code point `c' (U+FFFD for what is not a scalar) as UTF-8. */
static size_t
utf8(unsigned long c, char *o)
{
	if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		c = 0xFFFD;
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xC0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xE0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		o[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	o[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

static int
digit(int c, int hex)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	if (hex && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * The character reference at s[0] == '&' of the `n' bytes at `s': its
 * UTF-8 in `o' (*on bytes, never more than it consumed) and the bytes
 * consumed, or 0 when there is none (the '&' is itself).
 */
static size_t
charref(const char *s, size_t n, char *o, size_t *on)
{
	static const struct {
		const char	*name;
		char		 c;
	} named[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	unsigned long v = 0;
	size_t i, k;
	int hex, d;

	for (k = 0; k < sizeof(named) / sizeof(named[0]); k++)
		if (iprefix(s, n, named[k].name)) {
			o[0] = named[k].c;
			*on = 1;
			return strlen(named[k].name);
		}
	if (n < 3 || s[1] != '#')
		return 0;
	hex = s[2] == 'x' || s[2] == 'X';
	for (i = hex ? 3 : 2; i < n && (d = digit(s[i], hex)) >= 0; i++)
		if (v <= 0x10FFFF)
			v = v * (hex ? 16 : 10) + (unsigned long)d;
	if (i == (hex ? 3u : 2u))
		return 0;
	if (i < n && s[i] == ';')
		i++;
	*on = utf8(v, o);
	return i;
}

/* Removes leading and trailing spaces and form feeds from b[0, *n). */
static void
trim(char *b, size_t *n)
{
	size_t i = 0;

	while (*n > 0 && (b[*n - 1] == ' ' || b[*n - 1] == '\f'))
		(*n)--;
	while (i < *n && (b[i] == ' ' || b[i] == '\f'))
		i++;
	memmove(b, b + i, *n - i);
	*n -= i;
}

/* The first candidate of a srcset in b[0, *n), in place. */
static void
first_candidate(char *b, size_t *n)
{
	size_t i = 0, e;

	while (i < *n && (b[i] == ',' || b[i] == ' ' || b[i] == '\f'))
		i++;
	for (e = i; e < *n && b[e] != ' ' && b[e] != '\f'; e++)
		;
	while (e > i && b[e - 1] == ',')
		e--;
	memmove(b, b + i, e - i);
	*n = e - i;
}

/*
 * The value at `s' (`n' bytes) decoded into a new string (*out, *outn),
 * without tabs, newlines, CRs and NULs, trimmed.  Returns 0, 1 when it is
 * longer than HTMLSCAN_MAX_URL (nothing allocated), -1 out of memory.
 */
static int
decode(const char *s, size_t n, int how, char **out, size_t *outn)
{
	size_t i = 0, o = 0, k, kn;
	char *b = malloc((n < HTMLSCAN_MAX_URL ? n : HTMLSCAN_MAX_URL) + 1);
	char tmp[4];

	if (b == NULL)
		return -1;
	while (i < n) {
		if (s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
		    s[i] == '\0') {
			i++;
			continue;
		}
		kn = 1;
		tmp[0] = s[i];
		k = (how & D_REFS) && s[i] == '&' ?
		    charref(s + i, n - i, tmp, &kn) : 0;
		i += k > 0 ? k : 1;
		if (kn == 1 && (tmp[0] == '\t' || tmp[0] == '\n' ||
		    tmp[0] == '\r'))
			continue;	/* from a reference: &#9; */
		if (o + kn > HTMLSCAN_MAX_URL) {
			free(b);
			return 1;
		}
		memcpy(b + o, tmp, kn);
		o += kn;
	}
	trim(b, &o);
	if (how & D_SRCSET)
		first_candidate(b, &o);
	b[o] = '\0';
	*out = b;
	*outn = o;
	return 0;
}

static int
push(struct htmlscan_list *l, char *s, size_t len, const char *tag)
{
	if (l->n == l->cap) {
		size_t cap = l->cap > 0 ? l->cap * 2 : 16;
		struct htmlscan_url *v = realloc(l->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].s = s;
	l->v[l->n].len = len;
	l->v[l->n].tag = tag;
	l->n++;
	return 0;
}

/* Reports the value `v' of `tag': what = 'o' object, 'l' link, 'b' base. */
static void
report(struct scan *sc, const struct span *v, int how, const char *tag,
    int what)
{
	struct htmlscan *r = sc->r;
	struct htmlscan_list *l = what == 'l' ? &r->links : &r->objects;
	char *s;
	size_t n;
	int rc;

	if (!v->set || sc->err)
		return;
	rc = decode(v->p, v->len, how, &s, &n);
	if (rc == 1)
		r->too_long++;
	if (rc != 0) {
		sc->err = rc == -1;
		return;
	}
	if (n == 0 || (what == 'b' && r->base != NULL)) {
		free(s);
		return;
	}
	if (what == 'b') {
		r->base = s;
		r->base_len = n;
		return;
	}
	if (l->n >= sc->max) {
		if (what == 'l')
			r->links_over++;
		else
			r->over++;
		free(s);
		return;
	}
	if (push(l, s, n, tag) == -1) {
		free(s);
		sc->err = 1;
	}
}

/* Whether the token list `v' holds stylesheet, preload or icon. */
static int
rel_fetched(const struct span *v)
{
	size_t i = 0, s;

	if (!v->set)
		return 0;
	while (i < v->len) {
		while (i < v->len && is_space((unsigned char)v->p[i]))
			i++;
		for (s = i; i < v->len && !is_space((unsigned char)v->p[i]);
		    i++)
			;
		if (ieq(v->p + s, i - s, "stylesheet") ||
		    ieq(v->p + s, i - s, "preload") ||
		    ieq(v->p + s, i - s, "icon"))
			return 1;
	}
	return 0;
}

/* What the start tag `name' with attributes `a' reports. */
static void
start_tag(struct scan *sc, const char *name, const struct span *a)
{
	size_t k;

	if (strcmp(name, "img") == 0) {
		if (a[A_SRCSET].set && a[A_SRCSET].len > 0)
			report(sc, &a[A_SRCSET], D_REFS | D_SRCSET, "img",
			    'o');
		else
			report(sc, &a[A_SRC], D_REFS, "img", 'o');
	} else if (strcmp(name, "link") == 0) {
		if (rel_fetched(&a[A_REL]))
			report(sc, &a[A_HREF], D_REFS, "link", 'o');
	} else if (strcmp(name, "a") == 0)
		report(sc, &a[A_HREF], D_REFS, "a", 'l');
	else if (strcmp(name, "base") == 0)
		report(sc, &a[A_HREF], D_REFS, "base", 'b');
	else
		for (k = 0; k < sizeof(simple_tags) / sizeof(simple_tags[0]);
		    k++)
			if (strcmp(name, simple_tags[k].tag) == 0)
				report(sc, &a[simple_tags[k].attr], D_REFS,
				    simple_tags[k].tag, 'o');
}

/*
 * The attribute at p[*i] (not a space, '/' or '>'): its name and value
 * into `a' when it is one of attr_names and the first of its name.
 * Returns 0, or -1 when the page ends inside it.
 */
static int
attribute(const char *p, size_t len, size_t *i, struct span *a)
{
	size_t ns = *i, ne, vs = 0, ve = 0, k;
	const char *q;

	for ((*i)++; *i < len && !is_space((unsigned char)p[*i]) &&
	    p[*i] != '/' && p[*i] != '>' && p[*i] != '='; (*i)++)
		;
	ne = *i;
	while (*i < len && is_space((unsigned char)p[*i]))
		(*i)++;
	if (*i < len && p[*i] == '=') {
		for ((*i)++; *i < len && is_space((unsigned char)p[*i]);
		    (*i)++)
			;
		if (*i >= len)
			return -1;
		if (p[*i] == '"' || p[*i] == '\'') {
			vs = *i + 1;
			q = memchr(p + vs, p[*i], len - vs);
			if (q == NULL)
				return -1;
			ve = (size_t)(q - p);
			*i = ve + 1;
		} else {
			for (vs = *i; *i < len &&
			    !is_space((unsigned char)p[*i]) && p[*i] != '>';
			    (*i)++)
				;
			ve = *i;
		}
	}
	for (k = 0; k < A_N; k++)
		if (ieq(p + ns, ne - ns, attr_names[k]) && !a[k].set) {
			a[k].p = p + vs;
			a[k].len = ve - vs;
			a[k].set = 1;
		}
	return 0;
}

/* Offset of the "</name" that ends raw text begun at `i', or len. */
static size_t
raw_end(const char *p, size_t len, size_t i, const char *name)
{
	size_t n = strlen(name), e;
	const char *lt;

	for (; i < len; i++) {
		lt = memchr(p + i, '<', len - i);
		if (lt == NULL)
			return len;
		i = (size_t)(lt - p);
		e = i + 2 + n;
		if (e <= len && p[i + 1] == '/' &&
		    iprefix(p + i + 2, n, name) && (e == len ||
		    is_space((unsigned char)p[e]) || p[e] == '/' ||
		    p[e] == '>'))
			return i;
	}
	return len;
}

/* A CSS string from its quote at p[i]: the offset past it. */
static size_t
css_string(const char *p, size_t i, size_t e)
{
	char q = p[i];

	for (i++; i < e && p[i] != q && p[i] != '\n'; i++)
		if (p[i] == '\\')
			i++;
	return i < e ? i + 1 : e;
}

/* url(...) at p[i] (after "url("): reports it; returns where to go on. */
static size_t
css_url(struct scan *sc, size_t i, size_t e)
{
	const char *p = sc->p;
	struct span v = { NULL, 0, 1 };
	size_t vs, ve;
	char q;

	while (i < e && is_space((unsigned char)p[i]))
		i++;
	if (i < e && (p[i] == '"' || p[i] == '\'')) {
		q = p[i];
		for (vs = ++i; i < e && p[i] != q && p[i] != '\n'; i++)
			if (p[i] == '\\')
				i++;
		if (i >= e || p[i] != q)
			return i < e ? i : e;
		ve = i++;
	} else {
		for (vs = i; i < e && p[i] != ')' && p[i] != '"' &&
		    p[i] != '\'' && p[i] != '(' &&
		    !is_space((unsigned char)p[i]); i++)
			;
		ve = i;
	}
	while (i < e && is_space((unsigned char)p[i]))
		i++;
	if (i >= e || p[i] != ')')
		return i;
	v.p = p + vs;
	v.len = ve - vs;
	report(sc, &v, 0, "style", 'o');
	return i + 1;
}

/* The url(...)s of the style sheet p[i, e). */
static void
css_urls(struct scan *sc, size_t i, size_t e)
{
	const char *p = sc->p;
	size_t s = i;

	while (i < e) {
		if (p[i] == '/' && i + 1 < e && p[i + 1] == '*') {
			i = find(p, i + 2, e, "*/");
			i = i < e ? i + 2 : e;
		} else if (p[i] == '"' || p[i] == '\'')
			i = css_string(p, i, e);
		else if (p[i] == '\\')
			i += 2;
		else if ((i == s || !is_ident((unsigned char)p[i - 1])) &&
		    iprefix(p + i, e - i, "url("))
			i = css_url(sc, i + 4, e);
		else
			i++;
	}
}

/* The start tag at p[i] == '<': returns the offset after it (and after
   its raw text), or len when the page ends inside it. */
static size_t
tag(struct scan *sc, size_t i)
{
	const char *p = sc->p;
	size_t len = sc->len, nl = 0, k, e;
	struct span a[A_N];
	char name[16];

	memset(a, 0, sizeof(a));
	for (i++; i < len && !is_space((unsigned char)p[i]) && p[i] != '/' &&
	    p[i] != '>'; i++, nl++)
		if (nl < sizeof(name) - 1)
			name[nl] = (char)lower((unsigned char)p[i]);
	name[nl < sizeof(name) ? nl : 0] = '\0';
	for (;;) {
		while (i < len && (is_space((unsigned char)p[i]) ||
		    p[i] == '/'))
			i++;
		if (i >= len)
			return len;
		if (p[i] == '>')
			break;
		if (attribute(p, len, &i, a) == -1)
			return len;
	}
	i++;
	start_tag(sc, name, a);
	for (k = 0; k < sizeof(raw_tags) / sizeof(raw_tags[0]); k++)
		if (strcmp(name, raw_tags[k]) == 0) {
			e = raw_end(p, len, i, name);
			if (strcmp(name, "style") == 0)
				css_urls(sc, i, e);
			return e;
		}
	return i;
}

/* Past the markup declaration, comment or CDATA at p[i] == '<', '!'. */
static size_t
declaration(const char *p, size_t len, size_t i)
{
	size_t j;

	if (iprefix(p + i + 2, len - i - 2, "--")) {
		j = i + 4;
		if (j < len && p[j] == '>')
			return j + 1;
		if (j + 1 < len && p[j] == '-' && p[j + 1] == '>')
			return j + 2;
		j = find(p, j, len, "-->");
		return j < len ? j + 3 : len;
	}
	if (len - i - 2 >= 7 && memcmp(p + i + 2, "[CDATA[", 7) == 0) {
		j = find(p, i + 9, len, "]]>");
		return j < len ? j + 3 : len;
	}
	j = find(p, i + 2, len, ">");
	return j < len ? j + 1 : len;
}

int
htmlscan(struct htmlscan *r, const char *page, size_t len, size_t max)
{
	struct scan sc = { page, len, max, r, 0 };
	const char *lt;
	size_t i = 0, j;

	memset(r, 0, sizeof(*r));
	while (i < len && !sc.err) {
		lt = memchr(page + i, '<', len - i);
		if (lt == NULL || (size_t)(lt - page) + 1 >= len)
			break;
		i = (size_t)(lt - page);
		if (is_alpha((unsigned char)page[i + 1]))
			i = tag(&sc, i);
		else if (page[i + 1] == '!')
			i = declaration(page, len, i);
		else if (page[i + 1] == '?' || page[i + 1] == '/') {
			j = find(page, i + 2, len, ">");
			i = j < len ? j + 1 : len;
		} else
			i++;
	}
	return sc.err ? -1 : 0;
}

static void
list_free(struct htmlscan_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].s);
	free(l->v);
}

void
htmlscan_free(struct htmlscan *r)
{
	list_free(&r->objects);
	list_free(&r->links);
	free(r->base);
	memset(r, 0, sizeof(*r));
}
