/*
 * The per-session cookie jar: an array of "NAME=VALUE" strings kept in
 * first-set order, and the Cookie header built from them on demand.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/cookie.h"
#include "util.h"

#define COOKIE_PREFIX		"Set-Cookie:"
#define COOKIE_PREFIX_LEN	(sizeof(COOKIE_PREFIX) - 1)
#define COOKIE_HDR		"Cookie: "
#define COOKIE_HDR_LEN		(sizeof(COOKIE_HDR) - 1)

/* One stored cookie: "NAME=VALUE", NUL-terminated, NAME is namelen long. */
struct cookie {
	char	*text;
	size_t	 len;
	size_t	 namelen;
};

struct cookie_jar {
	struct cookie	*c;
	size_t		 n;
	size_t		 cap;
	char		*hdr;		/* cached Cookie header, or NULL */
	size_t		 hdrlen;
};

struct cookie_jar *
cookie_jar_new(void)
{
	return xcalloc(1, sizeof(struct cookie_jar));
}

void
cookie_jar_free(struct cookie_jar *j)
{
	if (j == NULL)
		return;
	cookie_jar_clear(j);
	free(j->c);
	free(j);
}

/* Drops the cached header. */
static void
cookie_jar_invalidate(struct cookie_jar *j)
{
	free(j->hdr);
	j->hdr = NULL;
	j->hdrlen = 0;
}

/* The blanks trimmed around cookie names and values. */
static int
cookie_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Narrows [*s, *e) by blanks on both sides. */
static void
cookie_trim(const char **s, const char **e)
{
	while (*s < *e && cookie_is_blank(**s))
		(*s)++;
	while (*e > *s && cookie_is_blank((*e)[-1]))
		(*e)--;
}

/* Stores the cookie of a Set-Cookie line; the contract is in cookie.h. */
int
cookie_jar_set(struct cookie_jar *j, const char *line, size_t len)
{
	const char *p, *end, *semi, *eq, *ns, *ne, *vs, *ve;
	struct cookie *c;
	size_t i, nlen, vlen;
	char *text;

	if (len < COOKIE_PREFIX_LEN ||
	    strncasecmp(line, COOKIE_PREFIX, COOKIE_PREFIX_LEN) != 0)
		return 0;
	p = line + COOKIE_PREFIX_LEN;
	end = line + len;
	semi = memchr(p, ';', end - p);
	if (semi != NULL)
		end = semi;
	if (memchr(p, '\0', end - p) != NULL ||
	    memchr(p, '\r', end - p) != NULL ||
	    memchr(p, '\n', end - p) != NULL)
		return -1;
	eq = memchr(p, '=', end - p);
	if (eq == NULL)
		return -1;
	ns = p;
	ne = eq;
	cookie_trim(&ns, &ne);
	vs = eq + 1;
	ve = end;
	cookie_trim(&vs, &ve);
	nlen = ne - ns;
	vlen = ve - vs;
	if (nlen == 0)
		return -1;

	text = xmalloc(nlen + 1 + vlen + 1);
	memcpy(text, ns, nlen);
	text[nlen] = '=';
	memcpy(text + nlen + 1, vs, vlen);
	text[nlen + 1 + vlen] = '\0';
	cookie_jar_invalidate(j);

	for (i = 0; i < j->n; i++) {
		c = &j->c[i];
		if (c->namelen == nlen && memcmp(c->text, ns, nlen) == 0) {
			free(c->text);
			c->text = text;
			c->len = nlen + 1 + vlen;
			return 1;
		}
	}
	if (j->n == j->cap) {
		j->cap = j->cap == 0 ? 4 : j->cap * 2;
		j->c = xreallocarray(j->c, j->cap, sizeof(*j->c));
	}
	c = &j->c[j->n++];
	c->text = text;
	c->len = nlen + 1 + vlen;
	c->namelen = nlen;
	return 1;
}

size_t
cookie_jar_count(const struct cookie_jar *j)
{
	return j->n;
}

/* Builds the header on first use after a change, then serves the cache. */
const char *
cookie_jar_header(struct cookie_jar *j, size_t *len)
{
	size_t i, total;
	char *p;

	if (j->n == 0) {
		*len = 0;
		return NULL;
	}
	if (j->hdr == NULL) {
		total = COOKIE_HDR_LEN + 2;
		for (i = 0; i < j->n; i++)
			total += j->c[i].len + (i > 0 ? 2 : 0);
		j->hdr = p = xmalloc(total + 1);
		memcpy(p, COOKIE_HDR, COOKIE_HDR_LEN);
		p += COOKIE_HDR_LEN;
		for (i = 0; i < j->n; i++) {
			if (i > 0) {
				memcpy(p, "; ", 2);
				p += 2;
			}
			memcpy(p, j->c[i].text, j->c[i].len);
			p += j->c[i].len;
		}
		memcpy(p, "\r\n", 3);
		j->hdrlen = total;
	}
	*len = j->hdrlen;
	return j->hdr;
}

void
cookie_jar_clear(struct cookie_jar *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		free(j->c[i].text);
	j->n = 0;
	cookie_jar_invalidate(j);
}
