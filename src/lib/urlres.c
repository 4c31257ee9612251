/*
 * RFC 3986 section 5.2: a reference split into its five components
 * (5.2.1's regular expression of appendix B), transformed against the
 * base (5.2.2), the dots removed (5.2.4), recomposed (5.3).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/urlres.h"
#include "lib/util.h"

/* A component: `p' NULL when undefined (an empty one is defined). */
struct comp {
	const char	*p;
	size_t		 len;
};

struct ref {
	struct comp	 scheme, auth, path, query;
};

/* Appendix B: ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))? */
static void
split(const char *s, size_t n, struct ref *r)
{
	size_t i = 0, j;

	memset(r, 0, sizeof(*r));
	for (j = 0; j < n && strchr(":/?#", s[j]) == NULL; j++)
		;
	if (j > 0 && j < n && s[j] == ':') {
		r->scheme.p = s;
		r->scheme.len = j;
		i = j + 1;
	}
	if (n - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
		for (j = i + 2; j < n && strchr("/?#", s[j]) == NULL; j++)
			;
		r->auth.p = s + i + 2;
		r->auth.len = j - i - 2;
		i = j;
	}
	for (j = i; j < n && s[j] != '?' && s[j] != '#'; j++)
		;
	r->path.p = s + i;
	r->path.len = j - i;
	i = j;
	if (i < n && s[i] == '?') {
		for (j = i + 1; j < n && s[j] != '#'; j++)
			;
		r->query.p = s + i + 1;
		r->query.len = j - i - 1;
	}
}

/* Drops the last segment and its '/' (if any) from out[0, *o). */
static void
pop_segment(const char *out, size_t *o)
{
	while (*o > 0 && out[*o - 1] != '/')
		(*o)--;
	if (*o > 0)
		(*o)--;
}

/*
 * 5.2.4 remove_dot_segments of in[0, n) (a copy, which it edits) into
 * out (room for n bytes); returns the length of the result.
 */
static size_t
remove_dots(char *in, size_t n, char *out)
{
	size_t i = 0, j, m, o = 0;
	const char *s;

	while (i < n) {
		s = in + i;
		m = n - i;
		if (m >= 3 && memcmp(s, "../", 3) == 0)
			i += 3;
		else if (m >= 2 && memcmp(s, "./", 2) == 0)
			i += 2;
		else if (m >= 3 && memcmp(s, "/./", 3) == 0)
			i += 2;
		else if (m == 2 && memcmp(s, "/.", 2) == 0)
			in[++i] = '/';
		else if (m >= 4 && memcmp(s, "/../", 4) == 0) {
			i += 3;
			pop_segment(out, &o);
		} else if (m == 3 && memcmp(s, "/..", 3) == 0) {
			i += 2;
			in[i] = '/';
			pop_segment(out, &o);
		} else if ((m == 1 && s[0] == '.') ||
		    (m == 2 && memcmp(s, "..", 2) == 0))
			i = n;
		else {
			for (j = i + (s[0] == '/'); j < n && in[j] != '/'; j++)
				;
			memcpy(out + o, s, j - i);
			o += j - i;
			i = j;
		}
	}
	return o;
}

/* Appends c[0, n) to out at *o, percent-encoding what a target may not
   hold. */
static void
put(char *out, size_t *o, const char *c, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned char ch;
	size_t i;

	for (i = 0; i < n; i++) {
		ch = (unsigned char)c[i];
		if (ch <= 0x20 || ch >= 0x7F || ch == '"' || ch == '<' ||
		    ch == '>' || ch == '`') {
			out[(*o)++] = '%';
			out[(*o)++] = hex[ch >> 4];
			out[(*o)++] = hex[ch & 15];
		} else
			out[(*o)++] = (char)ch;
	}
}

/*
 * 5.2.2 for a reference without scheme or authority: the path (merged
 * with the base's per 5.2.3, dots removed) into `path' (room for both
 * paths and a '/'), and the query.
 */
static void
transform_path(const struct ref *b, const struct ref *r, char *tmp,
    struct comp *path, struct comp *query, char *pathbuf)
{
	size_t n = 0, k;
	const char *slash;

	*query = r->query;
	if (r->path.len == 0) {
		*path = b->path;
		if (r->query.p == NULL)
			*query = b->query;
		return;
	}
	if (r->path.p[0] != '/') {
		if (b->auth.p != NULL && b->path.len == 0)
			tmp[n++] = '/';
		else {
			slash = NULL;
			for (k = b->path.len; k > 0; k--)
				if (b->path.p[k - 1] == '/') {
					slash = b->path.p + k - 1;
					break;
				}
			if (slash != NULL) {
				n = (size_t)(slash - b->path.p) + 1;
				memcpy(tmp, b->path.p, n);
			}
		}
	}
	memcpy(tmp + n, r->path.p, r->path.len);
	n += r->path.len;
	path->p = pathbuf;
	path->len = remove_dots(tmp, n, pathbuf);
}

char *
urlres_resolve(const char *base, const char *ref, size_t rlen)
{
	struct ref b, r, t;
	size_t cap, o = 0;
	char *tmp, *pathbuf, *out;

	split(base, strlen(base), &b);
	if (b.scheme.p == NULL)
		return NULL;
	split(ref, rlen, &r);
	cap = b.path.len + r.path.len + 2;
	tmp = xmalloc(cap);
	pathbuf = xmalloc(cap);
	t = r;
	if (r.scheme.p != NULL || r.auth.p != NULL) {
		memcpy(tmp, r.path.p, r.path.len);
		t.path.p = pathbuf;
		t.path.len = remove_dots(tmp, r.path.len, pathbuf);
	} else {
		t.auth = b.auth;
		transform_path(&b, &r, tmp, &t.path, &t.query, pathbuf);
	}
	if (r.scheme.p == NULL)
		t.scheme = b.scheme;
	cap = 3 * (t.scheme.len + t.auth.len + t.path.len + t.query.len) +
	    8;
	out = xmalloc(cap);
	put(out, &o, t.scheme.p, t.scheme.len);
	out[o++] = ':';
	if (t.auth.p != NULL) {
		out[o++] = '/';
		out[o++] = '/';
		put(out, &o, t.auth.p, t.auth.len);
	}
	put(out, &o, t.path.p, t.path.len);
	if (t.query.p != NULL) {
		out[o++] = '?';
		put(out, &o, t.query.p, t.query.len);
	}
	out[o] = '\0';
	free(tmp);
	free(pathbuf);
	return out;
}

int
urlres_origin(const char *url, const struct urlres_origin *o, size_t n,
    char **target)
{
	struct util_url u;
	char err[128];
	size_t i;

	*target = NULL;
	if (util_url_parse(url, &u, err, sizeof(err)) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (u.https == o[i].https && u.port == o[i].port &&
		    strcasecmp(u.host, o[i].host) == 0) {
			*target = u.target;
			u.target = NULL;
			util_url_free(&u);
			return (int)i;
		}
	util_url_free(&u);
	return -1;
}
