/*
 * Request templates and request iovecs (see http_req.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "net/http_req.h"

static const char http_req_crlf[] = "\r\n";

/* Appends len bytes to a growing buffer. */
static void
buf_add(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 1 > *cap) {
		while (*len + n + 1 > *cap)
			*cap = *cap ? *cap * 2 : 256;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static void
buf_str(char **buf, size_t *len, size_t *cap, const char *s)
{
	buf_add(buf, len, cap, s, strlen(s));
}

void
http_req_tmpl_init(struct http_req_tmpl *t, const struct http_req_spec *spec)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	const char *method = spec->method ? spec->method : "GET";

	memset(t, 0, sizeof(*t));
	t->method = xstrdup(method);
	t->method_len = strlen(method);
	t->uri = xstrdup(spec->uri);
	t->uri_len = strlen(spec->uri);
	if (spec->target_prefix != NULL) {
		t->prefix = xstrdup(spec->target_prefix);
		t->prefix_len = strlen(spec->target_prefix);
	}

	/* The fixed part, in 0.9.0's header order. */
	buf_str(&buf, &len, &cap, spec->minor == 0 ? " HTTP/1.0\r\n" :
	    " HTTP/1.1\r\n");
	buf_str(&buf, &len, &cap, "User-Agent: ");
	buf_str(&buf, &len, &cap, spec->user_agent);
	buf_str(&buf, &len, &cap, http_req_crlf);
	if (spec->minor == 0)
		buf_str(&buf, &len, &cap, "Connection: keep-alive\r\n");
	if (spec->host != NULL) {
		buf_str(&buf, &len, &cap, "Host: ");
		buf_str(&buf, &len, &cap, spec->host);
		buf_str(&buf, &len, &cap, http_req_crlf);
	}
	if (spec->proxy_auth != NULL) {
		buf_str(&buf, &len, &cap, "Proxy-Authorization: ");
		buf_str(&buf, &len, &cap, spec->proxy_auth);
		buf_str(&buf, &len, &cap, http_req_crlf);
	}
	if (spec->extra_len > 0)
		buf_add(&buf, &len, &cap, spec->extra, spec->extra_len);
	t->tail = buf;
	t->tail_len = len;

	if (spec->body != NULL) {
		char cl[64];

		t->body = xmalloc(spec->body_len + 1);
		memcpy(t->body, spec->body, spec->body_len);
		t->body[spec->body_len] = '\0';
		t->body_len = spec->body_len;
		snprintf(cl, sizeof(cl), "Content-Length: %zu\r\n",
		    spec->body_len);
		t->clen = xstrdup(cl);
		t->clen_len = strlen(cl);
	}

	/* The whole request for the common case of nothing per call. */
	buf = NULL;
	len = cap = 0;
	buf_add(&buf, &len, &cap, t->method, t->method_len);
	buf_add(&buf, &len, &cap, " ", 1);
	if (t->prefix != NULL)
		buf_add(&buf, &len, &cap, t->prefix, t->prefix_len);
	buf_add(&buf, &len, &cap, t->uri, t->uri_len);
	buf_add(&buf, &len, &cap, t->tail, t->tail_len);
	if (t->clen != NULL)
		buf_add(&buf, &len, &cap, t->clen, t->clen_len);
	buf_str(&buf, &len, &cap, http_req_crlf);
	t->full = buf;
	t->full_len = len;
}

void
http_req_tmpl_free(struct http_req_tmpl *t)
{
	free(t->full);
	free(t->tail);
	free(t->method);
	free(t->uri);
	free(t->prefix);
	free(t->body);
	free(t->clen);
	memset(t, 0, sizeof(*t));
}

size_t
http_req_iov(const struct http_req_tmpl *t, const char *method, size_t mlen,
    const char *uri, size_t ulen, const struct iovec *hdrs, size_t nhdrs,
    const char *body, size_t blen, struct iovec *iov, size_t maxiov)
{
	size_t n = 0, i;
	int tbody = body == NULL && t->body != NULL;

	if (method == NULL && uri == NULL && nhdrs == 0 && body == NULL) {
		if (maxiov < 1u + (t->body_len > 0))
			return 0;
		iov[n].iov_base = t->full;
		iov[n++].iov_len = t->full_len;
		if (t->body_len > 0) {
			iov[n].iov_base = t->body;
			iov[n++].iov_len = t->body_len;
		}
		return n;
	}
	if (tbody) {
		body = t->body;
		blen = t->body_len;
	}
	if (maxiov < 5 + (t->prefix != NULL) + nhdrs + (size_t)tbody +
	    (blen > 0))
		return 0;
	if (method == NULL) {
		method = t->method;
		mlen = t->method_len;
	}
	if (uri == NULL) {
		uri = t->uri;
		ulen = t->uri_len;
	}
	iov[n].iov_base = (void *)method;
	iov[n++].iov_len = mlen;
	iov[n].iov_base = (void *)" ";
	iov[n++].iov_len = 1;
	if (t->prefix != NULL) {
		iov[n].iov_base = t->prefix;
		iov[n++].iov_len = t->prefix_len;
	}
	iov[n].iov_base = (void *)uri;
	iov[n++].iov_len = ulen;
	iov[n].iov_base = t->tail;
	iov[n++].iov_len = t->tail_len;
	for (i = 0; i < nhdrs; i++)
		iov[n++] = hdrs[i];
	if (tbody) {
		iov[n].iov_base = t->clen;
		iov[n++].iov_len = t->clen_len;
	}
	iov[n].iov_base = (void *)http_req_crlf;
	iov[n++].iov_len = 2;
	if (blen > 0) {
		iov[n].iov_base = (void *)body;
		iov[n++].iov_len = blen;
	}
	return n;
}

/* Returns non-zero if `name' already ends in ":digits" after its host. */
static int
host_has_port(const char *name)
{
	const char *colon = strrchr(name, ':');
	const char *p;

	if (colon == NULL || colon[1] == '\0')
		return 0;
	/* A bare IPv6 literal has colons but no port. */
	if (name[0] != '[' && strchr(name, ':') != colon)
		return 0;
	if (name[0] == '[' && colon[-1] != ']')
		return 0;
	for (p = colon + 1; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

char *
http_req_host(const char *name, unsigned port, unsigned default_port)
{
	int v6 = name[0] != '[' && strchr(name, ':') != NULL;
	size_t len = strlen(name) + 16;
	char *s = xmalloc(len);

	if (host_has_port(name))
		snprintf(s, len, "%s", name);
	else if (port == default_port)
		snprintf(s, len, v6 ? "[%s]" : "%s", name);
	else
		snprintf(s, len, v6 ? "[%s]:%u" : "%s:%u", name, port);
	return s;
}

char *
http_req_host_for(const char *server, const char *server_name,
    unsigned port, unsigned default_port)
{
	if (server_name != NULL)
		return xstrdup(server_name);
	return http_req_host(server, port, default_port);
}
