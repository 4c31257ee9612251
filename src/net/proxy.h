/*
 * HTTP proxies for the client: the --proxy / http_proxy URL, no_proxy
 * matching, the CONNECT request of a tunnel with its Basic credentials,
 * and a parser for the proxy's reply head to that request.  Library
 * style: nothing here prints or exits, and nothing does I/O.
 */
#ifndef HTTPERF_NET_PROXY_H
#define HTTPERF_NET_PROXY_H

#include <stddef.h>
#include <stdint.h>

/* The port of a proxy URL without one (curl's default). */
#define PROXY_DEFAULT_PORT	1080

/* A proxy, as a URL names it. */
struct proxy_url {
	char		*host;		/* name or address, no brackets */
	unsigned	 port;
	char		*userpass;	/* "user:pass" from the URL, or NULL */
};

/*
 * Parses a proxy: `[http://][user:pass@]host[:port][/]', host being a
 * name, an IPv4 address or a bracketed IPv6 address; port 1 to 65535,
 * PROXY_DEFAULT_PORT when left out.  The user information is taken as
 * it is (no %-decoding).  Returns 0 with *u filled (free it with
 * proxy_url_free()), or -1 with the problem in errbuf.
 */
int	proxy_url_parse(const char *s, struct proxy_url *u, char *errbuf,
	    size_t errlen);

/* Frees what proxy_url_parse() allocated.  Harmless twice. */
void	proxy_url_free(struct proxy_url *u);

/*
 * Returns non-zero when `host' is excluded from proxying by `list', a
 * no_proxy value: comma-separated entries (spaces around them ignored),
 * "*" matching every host; an entry matches the host itself and, with
 * or without a leading dot, every name under it ("example.com" and
 * ".example.com" both match "www.example.com").  Case-insensitive; an
 * entry's ":port" and brackets around an IPv6 literal are ignored.
 */
int	proxy_no_proxy(const char *list, const char *host);

/*
 * Returns the value of variable `name' in `env' (NULL-terminated
 * "NAME=value" strings, as environ), trying the lower-case name first and
 * then the upper-case one (http_proxy, then HTTP_PROXY); an empty value
 * counts as unset.  NULL: neither is set.
 */
const char *proxy_env(char *const *env, const char *name);

/*
 * Returns "Basic " followed by the base64 of `userpass' (the value of a
 * Proxy-Authorization field).  The caller frees it.
 */
char	*proxy_basic(const char *userpass);

/*
 * Returns the CONNECT request of a tunnel to `authority' (host:port, an
 * IPv6 literal in brackets): the request line, Host (the same authority),
 * Proxy-Authorization when `auth' (a proxy_basic() value) is not NULL,
 * User-Agent `ua', and the empty line.  *len is its length.  The caller
 * frees it.
 */
char	*proxy_connect_req(const char *authority, const char *auth,
	    const char *ua, size_t *len);

/* What proxy_resp_parse() says. */
enum proxy_resp_result {
	PROXY_RESP_MORE,	/* give it more bytes */
	PROXY_RESP_DONE,	/* a final reply head, status in `status' */
	PROXY_RESP_ERROR,	/* see `error' */
};

enum proxy_resp_error {
	PROXY_RESP_OK,
	PROXY_RESP_BAD,		/* not an HTTP/1.x reply head */
	PROXY_RESP_TOO_BIG,	/* the head passed the limit */
	PROXY_RESP_INTERIM,	/* too many 1xx heads */
};

/*
 * The parser of a proxy's reply head to CONNECT: a state machine over
 * the bytes, which keeps none of them, so no buffer holds what the proxy
 * sends; it stops at the end of the first final (non-1xx) head.  Set
 * max_head before the first call: the most bytes of heads accepted (the
 * 1xx ones included).
 */
struct proxy_resp {
	int		 state;
	unsigned	 pos;		/* in the part being matched */
	int		 status;	/* of the head being read */
	unsigned	 interim;	/* 1xx heads skipped */
	uint64_t	 bytes;		/* of heads so far */
	uint64_t	 max_head;
	enum proxy_resp_error error;
};

/* Starts a parse; `max_head' bytes at most. */
void	proxy_resp_init(struct proxy_resp *r, uint64_t max_head);

/*
 * Parses the next `len' bytes.  *used says how many it took: with
 * PROXY_RESP_DONE, the bytes after the head are not taken.
 */
enum proxy_resp_result proxy_resp_parse(struct proxy_resp *r,
	    const char *data, size_t len, size_t *used);

/* A short description of a parse error. */
const char *proxy_resp_strerror(enum proxy_resp_error e);

#endif
