/*
 * --servers FILE's parser (see servers.h).  Every target goes through
 * util_url_parse(), the positional URL argument's parser: a plain
 * `host[:port]' is read as "http://host[:port]", so both forms check
 * names, brackets and ports alike.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/servers.h"
#include "lib/util.h"

/* Non-zero when the URL `url' names its port (not empty). */
static int
servers_port_given(const char *url)
{
	const char *a = strstr(url, "://") + 3, *end, *c;

	end = a + strcspn(a, "/?#");
	if (*a == '[') {
		c = memchr(a, ']', (size_t)(end - a));
		if (c == NULL)
			return 0;
		c++;
	} else
		c = a;
	c = memchr(c, ':', (size_t)(end - c));
	return c != NULL && c + 1 < end;
}

/*
 * Makes the URL an entry stands for: itself if it is one, else
 * "http://" before it (a bare IPv6 address in brackets).  Returns NULL
 * with *why set if the entry cannot be a target.
 */
static char *
servers_url(const char *s, size_t len, int *is_url, const char **why)
{
	char *copy = xstrndup(s, len), *url;
	const char *c;

	*is_url = util_url_like(copy);
	if (*is_url)
		return copy;
	if (strpbrk(copy, "/?#@") != NULL) {
		*why = "not a host, host:port, [IPv6]:port or http(s) URL";
		free(copy);
		return NULL;
	}
	c = strchr(copy, ':');
	url = xmalloc(len + 10);
	if (copy[0] != '[' && c != NULL && strchr(c + 1, ':') != NULL)
		snprintf(url, len + 10, "http://[%s]", copy);
	else
		snprintf(url, len + 10, "http://%s", copy);
	free(copy);
	return url;
}

/* Parses one entry [s, s + len) into *t.  Returns NULL or the problem. */
static const char *
servers_entry(const char *s, size_t len, unsigned port, int ssl,
    struct servers_target *t, char *why, size_t whylen)
{
	struct util_url u;
	const char *w = NULL;
	char *url;
	int is_url;

	url = servers_url(s, len, &is_url, &w);
	if (url == NULL)
		return w;
	if (util_url_parse(url, &u, why, whylen) == -1) {
		free(url);
		return why;
	}
	t->host = u.host;
	t->https = u.https;
	if (servers_port_given(url))
		t->port = u.port;
	else
		t->port = port != 0 ? port : u.https || (!is_url && ssl) ?
		    443 : 80;
	if (is_url && strcmp(u.target, "/") != 0)
		t->uri = u.target;
	else
		free(u.target);
	free(url);
	return NULL;
}

/* Says what is wrong with entry `n' of `file'. */
static void
servers_err(char *err, size_t errlen, const char *file, size_t n, int nul,
    const char *s, size_t len, const char *why)
{
	char text[96];

	util_escape(text, sizeof(text), s, len);
	snprintf(err, errlen, nul ? "%s: entry %zu: '%s': %s" :
	    "%s:%zu: '%s': %s", file, n, text, why);
}

void
servers_free(struct servers_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->t[i].host);
		free(l->t[i].uri);
	}
	free(l->t);
	l->t = NULL;
	l->n = 0;
}

int
servers_parse(const char *buf, size_t len, const char *file,
    unsigned port, int ssl, struct servers_list *l, char *err,
    size_t errlen)
{
	const char *p = buf, *end = buf + len, *s, *e, *why;
	int nul = memchr(buf, '\0', len) != NULL;
	size_t n = 0, cap = 0;
	char tmp[128];

	memset(l, 0, sizeof(*l));
	for (; p < end; p = e < end ? e + 1 : end) {
		n++;
		for (e = p; e < end && *e != '\n' && (!nul || *e != '\0'); e++)
			;
		s = p;
		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		for (p = e; p > s && (p[-1] == ' ' || p[-1] == '\t' ||
		    p[-1] == '\r'); p--)
			;
		if (s == p || *s == '#')
			continue;
		if (l->n == SERVERS_MAX) {
			snprintf(tmp, sizeof(tmp), "more than %d targets",
			    SERVERS_MAX);
			servers_err(err, errlen, file, n, nul, s,
			    (size_t)(p - s), tmp);
			goto fail;
		}
		if (l->n == cap) {
			cap = cap != 0 ? cap * 2 : 8;
			l->t = xreallocarray(l->t, cap, sizeof(*l->t));
		}
		memset(&l->t[l->n], 0, sizeof(l->t[l->n]));
		why = servers_entry(s, (size_t)(p - s), port, ssl, &l->t[l->n],
		    tmp, sizeof(tmp));
		if (why != NULL) {
			servers_err(err, errlen, file, n, nul, s,
			    (size_t)(p - s), why);
			goto fail;
		}
		l->t[l->n++].line = n;
	}
	if (l->n == 0) {
		snprintf(err, errlen, "%s: no target in it", file);
		goto fail;
	}
	return 0;
fail:
	servers_free(l);
	return -1;
}

int
servers_load(const char *path, unsigned port, int ssl,
    struct servers_list *l, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int e, rv;

	memset(l, 0, sizeof(*l));
	e = util_read_file_max(path, SERVERS_FILE_MAX, &buf, &len);
	if (e != 0) {
		snprintf(err, errlen, "%s: %s", path, e == UTIL_ETOOBIG ?
		    "larger than 1 MiB" : util_read_strerror(e));
		return -1;
	}
	rv = servers_parse(buf, len, path, port, ssl, l, err, errlen);
	free(buf);
	return rv;
}

long
servers_find(const struct servers_list *l, const char *host, unsigned port)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->t[i].port == port && strcasecmp(l->t[i].host,
		    host) == 0)
			return (long)i;
	return -1;
}
