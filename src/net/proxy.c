/*
 * HTTP proxy helpers (see proxy.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "net/proxy.h"

#define PROXY_MAX_INTERIM	10	/* 1xx heads before the final one */

/*
 * The user information of the authority [s, end), up to its last '@':
 * *host is where the host starts.  Returns what is wrong, or NULL.
 */
static const char *
proxy_url_userpass(const char *s, const char *end, struct proxy_url *u,
    const char **host)
{
	const char *at = NULL, *p;

	for (p = s; p < end; p++)
		if (*p == '@')
			at = p;
	*host = s;
	if (at == NULL)
		return NULL;
	if (memchr(s, ':', (size_t)(at - s)) == NULL)
		return "the user information must be user:password";
	u->userpass = xmalloc((size_t)(at - s) + 1);
	memcpy(u->userpass, s, (size_t)(at - s));
	u->userpass[at - s] = '\0';
	*host = at + 1;
	return NULL;
}

/*
 * The host and port [host, end), the port after the first ':' (or the
 * bracketed address); what is in the brackets is taken as it is.
 */
static const char *
proxy_url_hostport(const char *host, const char *end, struct proxy_url *u)
{
	static const char bad[] = "expected [http://][user:password@]host"
	    "[:port]";
	const char *he, *colon;
	unsigned port = PROXY_DEFAULT_PORT;

	if (*host == '[') {
		if (util_url_bracket(++host, end, &he) != NULL)
			return bad;
		colon = he + 1 < end ? he + 1 : NULL;
		if (colon != NULL && *colon != ':')
			return bad;
	} else {
		colon = memchr(host, ':', (size_t)(end - host));
		he = colon != NULL ? colon : end;
		if (util_url_name(host, he) != NULL)
			return bad;
	}
	if (colon != NULL && util_url_port(colon + 1, end, &port) != 0)
		return "bad port (1 to 65535)";
	u->host = xmalloc((size_t)(he - host) + 1);
	memcpy(u->host, host, (size_t)(he - host));
	u->host[he - host] = '\0';
	u->port = port;
	return NULL;
}

int
proxy_url_parse(const char *s, struct proxy_url *u, char *errbuf,
    size_t errlen)
{
	const char *host, *end, *why;

	memset(u, 0, sizeof(*u));
	if (strncasecmp(s, "http://", 7) == 0)
		s += 7;
	else if (strstr(s, "://") != NULL) {
		snprintf(errbuf, errlen, "only http:// proxies are supported");
		return -1;
	}
	/* The authority ends at the first '/'; only a bare '/' may follow. */
	end = s + strcspn(s, "/?#");
	if (*end != '\0' && strcmp(end, "/") != 0)
		why = "a proxy URL has no path";
	else if (util_url_ctl(s, end, 1))
		why = "contains a space or control character";
	else if ((why = proxy_url_userpass(s, end, u, &host)) == NULL)
		why = proxy_url_hostport(host, end, u);
	if (why != NULL) {
		snprintf(errbuf, errlen, "%s", why);
		proxy_url_free(u);
		return -1;
	}
	return 0;
}

void
proxy_url_free(struct proxy_url *u)
{
	free(u->host);
	free(u->userpass);
	u->host = NULL;
	u->userpass = NULL;
}

/* Returns non-zero if `host' is `dom' or a name under it. */
static int
proxy_domain_match(const char *host, size_t hlen, const char *dom,
    size_t dlen)
{
	if (dlen > 0 && dom[0] == '.') {
		dom++;
		dlen--;
	}
	if (dlen == 0)
		return 0;
	if (hlen == dlen)
		return strncasecmp(host, dom, dlen) == 0;
	return hlen > dlen && host[hlen - dlen - 1] == '.' &&
	    strncasecmp(host + hlen - dlen, dom, dlen) == 0;
}

int
proxy_no_proxy(const char *list, const char *host)
{
	const char *e, *end, *c;
	size_t hlen, len;

	if (list == NULL)
		return 0;
	if (host[0] == '[') {
		host++;
		hlen = strcspn(host, "]");
	} else
		hlen = strlen(host);
	while (hlen > 0 && host[hlen - 1] == '.')
		hlen--;
	for (e = list; *e != '\0'; e = *end == ',' ? end + 1 : end) {
		end = e + strcspn(e, ",");
		while (e < end && isspace((unsigned char)*e))
			e++;
		len = (size_t)(end - e);
		while (len > 0 && isspace((unsigned char)e[len - 1]))
			len--;
		if (len == 1 && e[0] == '*')
			return 1;
		if (len > 0 && e[0] == '[') {
			e++;
			len = strcspn(e, "]") < len - 1 ? strcspn(e, "]") :
			    len - 1;
		} else if ((c = memchr(e, ':', len)) != NULL &&
		    memchr(c + 1, ':', len - (size_t)(c - e) - 1) == NULL)
			/* One colon: a port, which is not compared. */
			len = (size_t)(c - e);
		while (len > 0 && e[len - 1] == '.')
			len--;
		if (proxy_domain_match(host, hlen, e, len))
			return 1;
	}
	return 0;
}

/* Looks one exact name up in env. */
static const char *
proxy_env1(char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env != NULL && *env != NULL; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return (*env)[n + 1] != '\0' ? *env + n + 1 : NULL;
	return NULL;
}

const char *
proxy_env(char *const *env, const char *name)
{
	char up[64];
	const char *v;
	size_t i;

	if ((v = proxy_env1(env, name)) != NULL)
		return v;
	for (i = 0; name[i] != '\0' && i < sizeof(up) - 1; i++)
		up[i] = (char)toupper((unsigned char)name[i]);
	up[i] = '\0';
	return proxy_env1(env, up);
}

char *
proxy_basic(const char *userpass)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)userpass;
	size_t n = strlen(userpass), i, o = 6;
	char *s = xmalloc(6 + (n + 2) / 3 * 4 + 1);
	unsigned v;

	memcpy(s, "Basic ", 6);
	for (i = 0; i + 2 < n; i += 3) {
		v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
		s[o++] = b64[v >> 18 & 63];
		s[o++] = b64[v >> 12 & 63];
		s[o++] = b64[v >> 6 & 63];
		s[o++] = b64[v & 63];
	}
	if (n - i == 1) {
		v = (unsigned)p[i] << 16;
		s[o++] = b64[v >> 18 & 63];
		s[o++] = b64[v >> 12 & 63];
		s[o++] = '=';
		s[o++] = '=';
	} else if (n - i == 2) {
		v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8;
		s[o++] = b64[v >> 18 & 63];
		s[o++] = b64[v >> 12 & 63];
		s[o++] = b64[v >> 6 & 63];
		s[o++] = '=';
	}
	s[o] = '\0';
	return s;
}

char *
proxy_connect_req(const char *authority, const char *auth, const char *ua,
    size_t *len)
{
	size_t n = 2 * strlen(authority) + strlen(ua) + 64 +
	    (auth != NULL ? strlen(auth) + 32 : 0);
	char *s = xmalloc(n);
	int w;

	w = snprintf(s, n, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n%s%s%s"
	    "User-Agent: %s\r\n\r\n", authority, authority,
	    auth != NULL ? "Proxy-Authorization: " : "",
	    auth != NULL ? auth : "", auth != NULL ? "\r\n" : "", ua);
	*len = (size_t)w;
	return s;
}

/* The parser's states. */
enum {
	PR_PROTO,	/* "HTTP/1." */
	PR_MINOR,	/* its digit */
	PR_SP,		/* the space(s) before the status */
	PR_CODE,	/* three digits */
	PR_REASON,	/* the rest of the status line */
	PR_LINE_START,	/* a header line or the empty line */
	PR_LINE,	/* inside a header line */
	PR_END_CR,	/* the empty line's CR seen */
};

void
proxy_resp_init(struct proxy_resp *r, uint64_t max_head)
{
	memset(r, 0, sizeof(*r));
	r->state = PR_PROTO;
	r->max_head = max_head;
}

/* The end of a head: the final one, or a 1xx to skip. */
static enum proxy_resp_result
proxy_resp_head_end(struct proxy_resp *r)
{
	if (r->status >= 200)
		return PROXY_RESP_DONE;
	if (++r->interim > PROXY_MAX_INTERIM) {
		r->error = PROXY_RESP_INTERIM;
		return PROXY_RESP_ERROR;
	}
	r->state = PR_PROTO;
	r->pos = 0;
	r->status = 0;
	return PROXY_RESP_MORE;
}

/* What a byte does: the head goes on, ends, or is not one. */
enum { PB_NEXT, PB_END, PB_BAD };

/* A byte of the status line, up to its reason. */
static int
proxy_resp_status(struct proxy_resp *r, char ch)
{
	static const char proto[] = "HTTP/1.";

	switch (r->state) {
	case PR_PROTO:
		if (ch != proto[r->pos])
			return PB_BAD;
		if (++r->pos == sizeof(proto) - 1)
			r->state = PR_MINOR;
		return PB_NEXT;
	case PR_MINOR:
		if (ch < '0' || ch > '9')
			return PB_BAD;
		r->state = PR_SP;
		r->pos = 0;
		return PB_NEXT;
	case PR_SP:
		if (ch == ' ') {
			r->pos++;
			return PB_NEXT;
		}
		if (r->pos == 0 || ch < '0' || ch > '9')
			return PB_BAD;
		r->state = PR_CODE;
		r->pos = 0;
		/* FALLTHROUGH */
	default:	/* PR_CODE */
		if (r->pos < 3) {
			if (ch < '0' || ch > '9')
				return PB_BAD;
			r->status = r->status * 10 + (ch - '0');
			r->pos++;
			return PB_NEXT;
		}
		if (r->status < 100 || (ch != ' ' && ch != '\r' &&
		    ch != '\n'))
			return PB_BAD;
		r->state = ch == '\n' ? PR_LINE_START : PR_REASON;
		return PB_NEXT;
	}
}

/* A byte of a head. */
static int
proxy_resp_byte(struct proxy_resp *r, char ch)
{
	if (ch == '\0')
		return PB_BAD;
	switch (r->state) {
	case PR_REASON:
	case PR_LINE:
		if (ch == '\n')
			r->state = PR_LINE_START;
		return PB_NEXT;
	case PR_LINE_START:
		if (ch == '\n')
			return PB_END;
		r->state = ch == '\r' ? PR_END_CR : PR_LINE;
		return PB_NEXT;
	case PR_END_CR:
		return ch == '\n' ? PB_END : PB_BAD;
	default:
		return proxy_resp_status(r, ch);
	}
}

enum proxy_resp_result
proxy_resp_parse(struct proxy_resp *r, const char *data, size_t len,
    size_t *used)
{
	enum proxy_resp_result rv;
	size_t i;
	int b;

	*used = 0;
	if (r->error != PROXY_RESP_OK)
		return PROXY_RESP_ERROR;
	for (i = 0; i < len; i++) {
		if (++r->bytes > r->max_head) {
			r->error = PROXY_RESP_TOO_BIG;
			*used = i;
			return PROXY_RESP_ERROR;
		}
		if ((b = proxy_resp_byte(r, data[i])) == PB_BAD) {
			r->error = PROXY_RESP_BAD;
			*used = i;
			return PROXY_RESP_ERROR;
		}
		if (b == PB_END && (rv = proxy_resp_head_end(r)) !=
		    PROXY_RESP_MORE) {
			*used = i + 1;
			return rv;
		}
	}
	*used = len;
	return PROXY_RESP_MORE;
}

const char *
proxy_resp_strerror(enum proxy_resp_error e)
{
	switch (e) {
	case PROXY_RESP_OK:
		return "no error";
	case PROXY_RESP_BAD:
		return "not an HTTP/1.x reply head";
	case PROXY_RESP_TOO_BIG:
		return "reply head too large";
	case PROXY_RESP_INTERIM:
		return "too many interim (1xx) replies";
	}
	return "unknown error";
}
