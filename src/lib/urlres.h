/*
 * URL references as a page holds them, made absolute (RFC 3986, section
 * 5: reference resolution, with remove_dot_segments), and the test of
 * whether an absolute URL is one the run may fetch (same origin).
 */
#ifndef HTTPERF_LIB_URLRES_H
#define HTTPERF_LIB_URLRES_H

#include <stddef.h>

/*
 * Resolves the reference `ref' (`rlen' bytes) against the absolute URL
 * `base' (NUL-terminated, with a scheme) as RFC 3986 section 5.2 says
 * (strict: "http:g" is absolute), without the fragment, and with the
 * bytes a request target may not hold (controls, space, '"', '<', '>',
 * '`', and all over 0x7E) percent-encoded.  Returns a malloc'd string,
 * or NULL when `base' has no scheme.
 */
char	*urlres_resolve(const char *base, const char *ref, size_t rlen);

/* An origin the run fetches from: scheme, host (no brackets), port. */
struct urlres_origin {
	int		 https;
	const char	*host;
	unsigned	 port;
};

/*
 * Which of the `n' origins `o' the absolute URL `url' belongs to: the
 * same scheme (http or https), host (in any case) and port (the scheme's
 * when none is written).  Returns its index, with the request target
 * ("/path?query") in *target (malloc'd), or -1 when it is none of them,
 * of another scheme, or not a URL util_url_parse() takes.
 *
 * The run passes the origin of --server/--port/--ssl; several (a host of
 * --servers) need only a longer array.
 */
int	urlres_origin(const char *url, const struct urlres_origin *o,
	    size_t n, char **target);

#endif
