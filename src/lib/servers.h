/*
 * --servers FILE: the list of targets a run spreads its connections over.
 * One target a line: `host', `host:port', `[v6]', `[v6]:port', a bare
 * IPv6 address, or an http:// or https:// URL (its path, other than "/",
 * becomes that target's default request URI); blank lines and lines whose
 * first non-blank is '#' are skipped; blanks (space, tab, CR) around a
 * target are ignored.  A file holding a NUL is upstream's (0.9.1) form:
 * entries are separated by NULs (and newlines).  At most SERVERS_MAX
 * targets.  A leaf library: it only parses, resolving is the caller's.
 */
#ifndef HTTPERF_LIB_SERVERS_H
#define HTTPERF_LIB_SERVERS_H

#include <stddef.h>

#define SERVERS_MAX		4096
#define SERVERS_FILE_MAX	((size_t)1 << 20)	/* 1 MiB */

struct servers_target {
	char		*host;		/* name or address, no brackets */
	unsigned	 port;
	int		 https;		/* an https:// URL */
	char		*uri;		/* a URL's path and query, NULL: none
					   (or "/") */
	size_t		 line;		/* where it was given */
};

struct servers_list {
	struct servers_target *t;
	size_t		 n;
};

/*
 * Parses `len' bytes of `buf' (named `file' in messages).  A target
 * without a port takes `port' when non-zero (--port), else 443 for an
 * https URL or when `ssl' is set, else 80.  Returns 0 with *l filled
 * (free it with servers_free()), or -1 with "FILE:LINE: problem" (the
 * line's text escaped) in err and nothing to free.  No target at all
 * is an error too.
 */
int	servers_parse(const char *buf, size_t len, const char *file,
	    unsigned port, int ssl, struct servers_list *l, char *err,
	    size_t errlen);

/* Reads file `path' (at most SERVERS_FILE_MAX bytes) and parses it. */
int	servers_load(const char *path, unsigned port, int ssl,
	    struct servers_list *l, char *err, size_t errlen);

/* Frees the list.  Harmless twice. */
void	servers_free(struct servers_list *l);

/*
 * Returns the index of the target whose host (ASCII case-insensitive)
 * and port are `host' and `port', or -1: is a URL's origin one of the
 * run's servers.
 */
long	servers_find(const struct servers_list *l, const char *host,
	    unsigned port);

#endif
