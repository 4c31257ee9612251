/*
 * A per-session cookie jar for --session-cookies: remembers the NAME=VALUE
 * pairs of Set-Cookie reply headers and renders them as one Cookie request
 * header.  Unlike 0.9.0 (one cookie per session, 256 bytes at most) it keeps
 * many cookies of any size, one per name, up to two limits per jar that a
 * server cannot raise: COOKIE_JAR_MAX_COOKIES cookies and a Cookie header of
 * COOKIE_JAR_MAX_HEADER bytes.  A Set-Cookie that would break either is
 * ignored (the jar keeps what it had) and reported as such, so the memory
 * and time a server can make a session spend on cookies are bounded; setting
 * a cookie costs O(1) on average and rendering the header O(its length).
 */
#ifndef HTTPERF_GEN_COOKIE_H
#define HTTPERF_GEN_COOKIE_H

#include <stddef.h>

/*
 * The limits, well above what browsers keep for one site (RFC 6265 asks
 * for at least 50 cookies of 4096 bytes; Chromium keeps 180, Firefox 150)
 * so that a test may still use big jars, but bounded.
 */
#define COOKIE_JAR_MAX_COOKIES	1000
#define COOKIE_JAR_MAX_HEADER	(256 * 1024)	/* "Cookie: ...\r\n" */

struct cookie_jar;

/*
 * A rendered Cookie header: "Cookie: n1=v1; n2=v2\r\n", `len' bytes plus a
 * NUL.  It is reference counted so that every request carrying it shares
 * one copy, and it outlives changes to the jar and the jar itself.
 */
struct cookie_hdr {
	unsigned	 refs;
	size_t		 len;
	char		 text[];
};

/* Returns a new empty jar (never NULL); free it with cookie_jar_free. */
struct cookie_jar *cookie_jar_new(void);

/* Frees `j' and everything it holds; NULL is allowed. */
void	cookie_jar_free(struct cookie_jar *j);

/*
 * Looks at one reply header line of `len' bytes without its EOL.  If it is
 * a Set-Cookie header (name case-insensitive, any blanks after the colon),
 * the text before the first ';' is split at its first '=' into NAME and
 * VALUE, each trimmed of blanks, and stored as "NAME=VALUE", replacing an
 * earlier cookie of the same (case-sensitive) NAME in its place; new names
 * go last.  Attributes (Path, Expires, ...) are ignored.  Returns 1 if
 * stored, 0 if the line is not a Set-Cookie header, -1 if it is one but
 * malformed (no '=', empty NAME, or a NUL, CR or LF in the pair), -2 if it
 * is ignored because the jar would then hold more than
 * COOKIE_JAR_MAX_COOKIES cookies or render a header longer than
 * COOKIE_JAR_MAX_HEADER bytes.  The jar is unchanged unless 1 is returned.
 */
int	cookie_jar_set(struct cookie_jar *j, const char *line, size_t len);

/* Returns the number of cookies in `j'. */
size_t	cookie_jar_count(const struct cookie_jar *j);

/*
 * Returns "Cookie: n1=v1; n2=v2\r\n" (all cookies, first-set order) and its
 * length in *len, or NULL with *len = 0 when `j' is empty.  The text is
 * owned by `j', built on demand and cached; it stays valid until the next
 * cookie_jar_set, cookie_jar_clear or cookie_jar_free.
 */
const char *cookie_jar_header(struct cookie_jar *j, size_t *len);

/*
 * The same header as a new reference (the jar keeps its own), or NULL
 * when `j' is empty; release it with cookie_hdr_unref.
 */
struct cookie_hdr *cookie_jar_hdr(struct cookie_jar *j);

/* Drops a reference to `h'; NULL is allowed. */
void	cookie_hdr_unref(struct cookie_hdr *h);

/* Forgets every cookie in `j'. */
void	cookie_jar_clear(struct cookie_jar *j);

#endif
