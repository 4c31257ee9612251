/*
 * Request bytes.  Everything that is the same for every request of a run
 * (protocol, User-Agent, Host, --add-header lines) is formatted once into a
 * template; a request is then a handful of iovecs pointing into it, so
 * issuing a call formats nothing and allocates nothing.
 */
#ifndef HTTPERF_NET_HTTP_REQ_H
#define HTTPERF_NET_HTTP_REQ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* What the template is built from. */
struct http_req_spec {
	const char	*method;	/* NULL: "GET" */
	const char	*uri;		/* default request target */
	/* Put before every URI: "http://host[:port]" for the absolute
	   form a proxy takes, or NULL (origin form). */
	const char	*target_prefix;
	int		 minor;		/* HTTP/1.minor: 0 or 1 */
	const char	*host;		/* Host value, NULL: no Host header */
	/* Proxy-Authorization value ("Basic ..."), or NULL. */
	const char	*proxy_auth;
	const char	*extra;		/* extra header lines (with CRLFs) */
	size_t		 extra_len;
	const char	*user_agent;	/* product token, e.g. "httperf/1.0" */
	const char	*body;		/* body of every request, or NULL */
	size_t		 body_len;
};

/* A prebuilt request template. */
struct http_req_tmpl {
	char		*full;		/* whole request, default method+URI */
	size_t		 full_len;
	char		*tail;		/* " HTTP/1.x\r\n" + fixed headers */
	size_t		 tail_len;
	char		*method;	/* default method */
	size_t		 method_len;
	char		*uri;		/* default URI */
	size_t		 uri_len;
	char		*prefix;	/* spec's target_prefix, or NULL */
	size_t		 prefix_len;
	char		*body;		/* default body (copied), or NULL */
	size_t		 body_len;
	char		*clen;		/* its "Content-Length: N" line */
	size_t		 clen_len;
};

/* Builds the template.  Free with http_req_tmpl_free(). */
void	http_req_tmpl_init(struct http_req_tmpl *t,
	    const struct http_req_spec *spec);

/* Frees what http_req_tmpl_init() allocated.  Harmless twice. */
void	http_req_tmpl_free(struct http_req_tmpl *t);

/*
 * Fills iov[] with a request: method (NULL: the default), URI (NULL: the
 * default) after the template's target prefix if any, the template's
 * fixed part, `nhdrs' per-request header lines
 * (each with its CRLF), the empty line, then the body.  A non-NULL `body'
 * is the request's own (the caller puts its Content-Length among hdrs);
 * with body NULL the template's body, if any, goes out with its
 * Content-Length.  The iovecs point into the template and the arguments,
 * which must outlive the write.  The body is always the last iovec.
 * Returns the number of iovecs used, or 0 if maxiov is too small.
 */
size_t	http_req_iov(const struct http_req_tmpl *t, const char *method,
	    size_t mlen, const char *uri, size_t ulen, const struct iovec *hdrs,
	    size_t nhdrs, const char *body, size_t blen, struct iovec *iov,
	    size_t maxiov);

/*
 * Returns the Host header value for `name' and `port': IPv6 literals in
 * brackets, ":port" appended unless port is `default_port' or `name'
 * already ends in a port.  The caller frees the string.
 */
char	*http_req_host(const char *name, unsigned port, unsigned default_port);

/*
 * Returns the Host header value of a run: --server-name exactly as given
 * when there is one (0.9.0 sent it so, and it may name a virtual host
 * that differs from what the connection reaches), else http_req_host()
 * of --server.  The caller frees the string.
 */
char	*http_req_host_for(const char *server, const char *server_name,
	    unsigned port, unsigned default_port);

#endif
