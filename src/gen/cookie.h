/*
 * A per-session cookie jar for --session-cookies: remembers the NAME=VALUE
 * pairs of Set-Cookie reply headers and renders them as one Cookie request
 * header.  Unlike 0.9.0 (one cookie per session, 256 bytes at most) it keeps
 * any number of cookies of any size, one per name.
 */
#ifndef HTTPERF_GEN_COOKIE_H
#define HTTPERF_GEN_COOKIE_H

#include <stddef.h>

struct cookie_jar;

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
 * malformed (no '=', empty NAME, or a NUL, CR or LF in the pair).
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

/* Forgets every cookie in `j'. */
void	cookie_jar_clear(struct cookie_jar *j);

#endif
