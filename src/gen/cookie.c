/*
 * The per-session cookie jar: an array of "NAME=VALUE" strings kept in
 * first-set order, an open-addressing hash of their names (so that setting
 * a cookie does not scan the jar), the running length of the header they
 * make (so that the limits are checked without rendering it), and the
 * Cookie header built from them on demand.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/cookie.h"
#include "lib/util.h"

#define COOKIE_PREFIX		"Set-Cookie:"
#define COOKIE_PREFIX_LEN	(sizeof(COOKIE_PREFIX) - 1)
#define COOKIE_HDR		"Cookie: "
#define COOKIE_HDR_LEN		(sizeof(COOKIE_HDR) - 1)
#define COOKIE_SEP_LEN		2	/* "; " */
#define COOKIE_EOL_LEN		2	/* "\r\n" */
#define COOKIE_HASH_MIN		16	/* first table size, a power of 2 */

_Static_assert(COOKIE_JAR_MAX_COOKIES < UINT32_MAX, "slot type");

/* One stored cookie: "NAME=VALUE", NUL-terminated, NAME is namelen long. */
struct cookie {
	char	*text;
	size_t	 len;
	size_t	 namelen;
	uint32_t hash;
};

struct cookie_jar {
	struct cookie	*c;
	size_t		 n;
	size_t		 cap;
	/* Index + 1 of the cookie whose name hashes there, 0: empty. */
	uint32_t	*slots;
	size_t		 nslots;	/* 0 or a power of 2, > 2 * n */
	size_t		 textlen;	/* sum of c[].len */
	struct cookie_hdr *hdr;		/* cached Cookie header, or NULL */
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
	free(j->slots);
	free(j);
}

void
cookie_hdr_unref(struct cookie_hdr *h)
{
	if (h != NULL && --h->refs == 0)
		free(h);
}

/* Drops the cached header. */
static void
cookie_jar_invalidate(struct cookie_jar *j)
{
	cookie_hdr_unref(j->hdr);
	j->hdr = NULL;
}

/* The length of the Cookie header of `n' cookies of `textlen' bytes. */
static size_t
cookie_hdr_len(size_t n, size_t textlen)
{
	if (n == 0)
		return 0;
	return COOKIE_HDR_LEN + textlen + (n - 1) * COOKIE_SEP_LEN +
	    COOKIE_EOL_LEN;
}

/* FNV-1a over a cookie name. */
static uint32_t
cookie_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261U;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619U;
	}
	return h;
}

/*
 * Returns the slot holding the cookie named `name', or the empty slot
 * where it would go.  The table is never full (see cookie_jar_grow).
 */
static size_t
cookie_slot(const struct cookie_jar *j, const char *name, size_t len,
    uint32_t h)
{
	const struct cookie *c;
	size_t mask = j->nslots - 1, i;

	for (i = h & mask; j->slots[i] != 0; i = (i + 1) & mask) {
		c = &j->c[j->slots[i] - 1];
		if (c->hash == h && c->namelen == len &&
		    memcmp(c->text, name, len) == 0)
			break;
	}
	return i;
}

/* Makes room for one more name in the table: at most half full. */
static void
cookie_jar_grow(struct cookie_jar *j)
{
	size_t i, s;

	if (j->nslots > 2 * (j->n + 1))
		return;
	free(j->slots);
	j->nslots = j->nslots == 0 ? COOKIE_HASH_MIN : j->nslots * 2;
	j->slots = xcalloc(j->nslots, sizeof(*j->slots));
	for (i = 0; i < j->n; i++) {
		s = cookie_slot(j, j->c[i].text, j->c[i].namelen,
		    j->c[i].hash);
		j->slots[s] = (uint32_t)(i + 1);
	}
}

/*
 * Finds the name [*ns, *ns + *nlen) and the value [*vs, *vs + *vlen) of a
 * Set-Cookie line, both trimmed: 0 not a Set-Cookie line, -1 malformed,
 * 1 found.
 */
static int
cookie_line_split(const char *line, size_t len, const char **ns,
    size_t *nlen, const char **vs, size_t *vlen)
{
	const char *p, *end, *semi, *eq, *ne, *ve;

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
	*ns = p;
	ne = eq;
	util_trim(ns, &ne);
	*vs = eq + 1;
	ve = end;
	util_trim(vs, &ve);
	*nlen = ne - *ns;
	*vlen = ve - *vs;
	return *nlen == 0 ? -1 : 1;
}

/* Appends a new cookie, its text `text' of `tlen' bytes, name `nlen'. */
static void
cookie_jar_append(struct cookie_jar *j, char *text, size_t tlen,
    size_t nlen, uint32_t h)
{
	struct cookie *c;

	cookie_jar_grow(j);
	if (j->n == j->cap) {
		j->cap = j->cap == 0 ? 4 : j->cap * 2;
		j->c = xreallocarray(j->c, j->cap, sizeof(*j->c));
	}
	c = &j->c[j->n++];
	c->text = text;
	c->len = tlen;
	c->namelen = nlen;
	c->hash = h;
	/* After the append: a probe compares names through the index. */
	j->slots[cookie_slot(j, text, nlen, h)] = (uint32_t)j->n;
}

/* Stores the cookie of a Set-Cookie line; the contract is in cookie.h. */
int
cookie_jar_set(struct cookie_jar *j, const char *line, size_t len)
{
	const char *ns, *vs;
	struct cookie *c;
	size_t nlen, vlen, tlen, slot, n, textlen;
	uint32_t h;
	char *text;
	int rv;

	if ((rv = cookie_line_split(line, len, &ns, &nlen, &vs, &vlen)) != 1)
		return rv;
	tlen = nlen + 1 + vlen;

	/* Check the limits before anything changes. */
	h = cookie_hash(ns, nlen);
	c = NULL;
	if (j->nslots > 0 && j->slots[slot = cookie_slot(j, ns, nlen, h)] !=
	    0)
		c = &j->c[j->slots[slot] - 1];
	if (c != NULL) {
		n = j->n;
		textlen = j->textlen - c->len + tlen;
	} else {
		if (j->n >= COOKIE_JAR_MAX_COOKIES)
			return -2;
		n = j->n + 1;
		textlen = j->textlen + tlen;
	}
	if (tlen > COOKIE_JAR_MAX_HEADER ||
	    cookie_hdr_len(n, textlen) > COOKIE_JAR_MAX_HEADER)
		return -2;

	text = xmalloc(tlen + 1);
	memcpy(text, ns, nlen);
	text[nlen] = '=';
	memcpy(text + nlen + 1, vs, vlen);
	text[tlen] = '\0';
	cookie_jar_invalidate(j);
	j->textlen = textlen;
	if (c != NULL) {
		free(c->text);
		c->text = text;
		c->len = tlen;
		return 1;
	}
	cookie_jar_append(j, text, tlen, nlen, h);
	return 1;
}

size_t
cookie_jar_count(const struct cookie_jar *j)
{
	return j->n;
}

/* Builds the header on first use after a change, then serves the cache. */
struct cookie_hdr *
cookie_jar_hdr(struct cookie_jar *j)
{
	struct cookie_hdr *h;
	size_t i, total;
	char *p;

	if (j->n == 0)
		return NULL;
	if (j->hdr == NULL) {
		total = cookie_hdr_len(j->n, j->textlen);
		h = xmalloc(sizeof(*h) + total + 1);
		h->refs = 1;
		h->len = total;
		p = h->text;
		memcpy(p, COOKIE_HDR, COOKIE_HDR_LEN);
		p += COOKIE_HDR_LEN;
		for (i = 0; i < j->n; i++) {
			if (i > 0) {
				memcpy(p, "; ", COOKIE_SEP_LEN);
				p += COOKIE_SEP_LEN;
			}
			memcpy(p, j->c[i].text, j->c[i].len);
			p += j->c[i].len;
		}
		memcpy(p, "\r\n", COOKIE_EOL_LEN + 1);
		j->hdr = h;
	}
	j->hdr->refs++;
	return j->hdr;
}

const char *
cookie_jar_header(struct cookie_jar *j, size_t *len)
{
	struct cookie_hdr *h;

	if ((h = cookie_jar_hdr(j)) == NULL) {
		*len = 0;
		return NULL;
	}
	h->refs--;		/* the jar's own reference keeps it */
	*len = h->len;
	return h->text;
}

void
cookie_jar_clear(struct cookie_jar *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		free(j->c[i].text);
	j->n = 0;
	j->textlen = 0;
	if (j->nslots > 0)
		memset(j->slots, 0, j->nslots * sizeof(*j->slots));
	cookie_jar_invalidate(j);
}
