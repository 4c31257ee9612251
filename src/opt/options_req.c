/*
 * The options that make up the request and its source: --add-header and
 * --body with their escapes, the two files read at parse time
 * (--add-header-file, --body-file), and --myaddr.  Their rows are in
 * options_table.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/servers.h"
#include "lib/util.h"
#include "net/proxy.h"
#include "net/sock.h"
#include "opt/options_int.h"

/*
 * The --add-header and --body expander behind options_unescape().  When
 * `c' is not NULL, each unknown escape is also reported on its error
 * stream under the name of row `r'.
 */
static int
opt_unescape(const struct opt_ctx *c, const struct opt_row *r, const char *in,
    char **out, size_t *outlen, unsigned *nwarn, char *errbuf,
    size_t errlen)
{
	const char *p;
	char *buf, *q;
	unsigned v;
	int n;

	buf = xmalloc(strlen(in) + 1);	/* no escape grows: "\n" is 2 */
	q = buf;
	for (p = in; *p != '\0'; p++) {
		if (*p != '\\') {
			*q++ = *p;
			continue;
		}
		p++;
		switch (*p) {
		case '\0':
			snprintf(errbuf, errlen, "ends with a lone backslash");
			free(buf);
			return -1;
		case 'n':
			*q++ = '\r';
			*q++ = '\n';
			break;
		case 'r':
			*q++ = '\r';
			break;
		case 'a':		/* sic: line feed, as in 0.9.0 */
			*q++ = '\n';
			break;
		case '\\':
			*q++ = '\\';
			break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7':
			v = 0;
			for (n = 0; n < 3 && p[n] >= '0' && p[n] <= '7'; n++)
				v = v * 8 + (unsigned)(p[n] - '0');
			if (v > 0377) {
				snprintf(errbuf, errlen, "octal escape "
				    "\\%.3s is above \\377", p);
				free(buf);
				return -1;
			}
			*q++ = (char)v;
			p += n - 1;
			break;
		default:
			*q++ = *p;
			(*nwarn)++;
			if (c != NULL) {
				fprintf(c->err, "%s: --%s: unknown escape "
				    "'\\", c->o->prog, r->name);
				opt_put_escape_char(c->err,
				    (unsigned char)*p);
				fputs("' kept\n", c->err);
			}
			break;
		}
	}
	*q = '\0';
	*out = buf;
	*outlen = (size_t)(q - buf);
	return 0;
}

int
options_unescape(const char *in, char **out, size_t *outlen, unsigned *nwarn,
    char *errbuf, size_t errlen)
{
	return opt_unescape(NULL, NULL, in, out, outlen, nwarn, errbuf,
	    errlen);
}

/* Expands the escapes of `arg' into a new buffer, or says why not. */
static int
opt_expand(const struct opt_ctx *c, const struct opt_row *r, const char *arg,
    char **buf, size_t *len)
{
	char errbuf[128];
	unsigned nwarn = 0;

	if (opt_unescape(c, r, arg, buf, len, &nwarn, errbuf,
	    sizeof(errbuf)) == -1)
		return opt_fail(c, r, NULL, arg, "%s", errbuf);
	return 0;
}

/*
 * Checks that the expanded --add-header `buf' (len bytes) is whole
 * header lines: a CR only before an LF and an LF only after a CR (a bare
 * one inside a line would split or corrupt the request; a server may
 * read it as a line end or refuse the request), and no empty line (the
 * end of the header).  Returns NULL or what is wrong.
 */
static const char *
opt_header_check(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\r' && (i + 1 == len || buf[i + 1] != '\n'))
			return "a bare CR (\\r) in a header line; \\n ends "
			    "a line";
		if (buf[i] == '\n' && (i == 0 || buf[i - 1] != '\r'))
			return "a bare LF in a header line; \\n ends a line";
		if (buf[i] == '\n' && (i == 1 || (i >= 2 &&
		    buf[i - 2] == '\n')))
			return "an empty line would end the header";
	}
	return NULL;
}

/*
 * Appends one --add-header: raw text for the echo, expanded for the wire.
 * 0.9.0 sent the text as it was, so a header without its \n ran into the
 * next line (a malformed request); the missing line end is added here.
 */
int
opt_add_header(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct options *o = c->o;
	const char *why;
	char *buf;
	size_t len;

	if (opt_expand(c, r, arg, &buf, &len) == -1)
		return -1;
	if ((why = opt_header_check(buf, len)) != NULL) {
		free(buf);
		return opt_fail(c, r, NULL, arg, "%s", why);
	}
	if (len > 0 && buf[len - 1] != '\n') {
		buf = xrealloc(buf, len + 3);
		memcpy(buf + len, "\r\n", 3);
		len += 2;
	}
	o->add_header_raw = xreallocarray(o->add_header_raw,
	    o->n_add_header + 1, sizeof(*o->add_header_raw));
	o->add_header_raw[o->n_add_header++] = arg;
	o->add_header = xrealloc(o->add_header, o->add_header_len + len + 1);
	memcpy(o->add_header + o->add_header_len, buf, len + 1);
	o->add_header_len += len;
	free(buf);
	return 0;
}

/* Every --add-header as given, each quoted. */
void
opt_echo_add_header(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	size_t i;

	for (i = 0; i < o->n_add_header; i++)
		fprintf(out, " --%s='%s'", r->name, o->add_header_raw[i]);
}

/* Parses --body S: the same escapes as --add-header. */
int
opt_body(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct options *o = c->o;
	char *buf;
	size_t len;

	if (opt_expand(c, r, arg, &buf, &len) == -1)
		return -1;
	free(o->body);
	o->body = buf;
	o->body_len = len;
	o->body_raw = arg;
	return 0;
}

/* Reads the whole file an option names, or says why it cannot. */
static int
opt_read(const struct opt_ctx *c, const struct opt_row *r, const char *arg,
    char **buf, size_t *len)
{
	int e;

	if (*arg == '\0')
		return opt_fail(c, r, NULL, arg, "must not be empty");
	if ((e = util_read_file(arg, buf, len)) != 0)
		return opt_fail_file(c, r, arg, 0, NULL, "%s",
		    util_read_strerror(e));
	return 0;
}

/* Parses --body-file F: the body is F's bytes, read now and kept. */
int
opt_body_file(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct options *o = c->o;
	char *buf;
	size_t len;

	if (opt_read(c, r, arg, &buf, &len) == -1)
		return -1;
	free(o->body);
	o->body = buf;
	o->body_len = len;
	o->body_file = arg;
	return 0;
}

/*
 * Turns the text of an --add-header-file into header lines on the wire:
 * LF ends a line and a CR just before it (or at the very end) goes, empty
 * lines are skipped, and every other line must be "Name: value" with a
 * token for a name and no control character but tab; each comes out with
 * CR LF.  Upstream sent the raw bytes, so a file saved with bare LFs gave
 * a broken request.
 */
static int
opt_header_lines(const struct opt_ctx *c, const struct opt_row *r,
    const char *path, const char *in, size_t inlen, char **out,
    size_t *outlen)
{
	const char *p, *end = in + inlen, *eol, *next, *colon, *q, *why;
	char *buf, *w, *line;
	size_t lineno = 0;

	/* Output never exceeds twice the input plus CR LF and a NUL. */
	buf = xmalloc(2 * inlen + 3);
	w = buf;
	for (p = in; p < end; p = next) {
		lineno++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) != NULL)
			next = eol + 1;
		else
			eol = next = end;
		if (eol > p && eol[-1] == '\r')
			eol--;
		if (eol == p)
			continue;
		why = NULL;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (colon == NULL || colon == p)
			why = "not a header line, expected Name: value";
		for (q = p; why == NULL && q < colon; q++)
			if (!util_is_tchar((unsigned char)*q))
				why = "not a header line, expected Name: "
				    "value";
		for (q = colon; why == NULL && q < eol; q++)
			if (((unsigned char)*q < 0x20 && *q != '\t') ||
			    *q == 0x7f)
				why = "control character in the value";
		if (why != NULL) {
			line = xmalloc((size_t)(eol - p) + 1);
			memcpy(line, p, (size_t)(eol - p));
			line[eol - p] = '\0';
			opt_fail_file(c, r, path, lineno, line, "%s", why);
			free(line);
			free(buf);
			return -1;
		}
		memcpy(w, p, (size_t)(eol - p));
		w += eol - p;
		*w++ = '\r';
		*w++ = '\n';
	}
	*w = '\0';
	*out = buf;
	*outlen = (size_t)(w - buf);
	return 0;
}

/* Parses --add-header-file F: read and checked now, appended at the end. */
int
opt_add_header_file(struct opt_ctx *c, const struct opt_row *r,
    const char *arg)
{
	char *raw, *lines;
	size_t rawlen, len;
	int e;

	if (opt_read(c, r, arg, &raw, &rawlen) == -1)
		return -1;
	e = opt_header_lines(c, r, arg, raw, rawlen, &lines, &len);
	free(raw);
	if (e == -1)
		return -1;
	free(c->hdr_file);
	c->hdr_file = lines;
	c->hdr_file_len = len;
	c->o->add_header_file = arg;
	return 0;
}

/*
 * Checks the syntax of one --myaddr with the parser that later expands
 * it (net/sock.c): an IPv4 address, an IPv4 range A.B.C.D-E.F.G.H with
 * A.B.C.D <= E.F.G.H, an IPv6 address (with an optional %scope), or
 * something that can be a host name.  Whether the name resolves is
 * main's question.
 */
int
opt_myaddr(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct options *o = c->o;
	struct sock_src src;
	char errbuf[128];

	if (sock_parse_src(arg, &src, errbuf, sizeof(errbuf)) == -1)
		return opt_fail(c, r, NULL, arg, "%s", errbuf);
	o->myaddr = xreallocarray(o->myaddr, o->n_myaddr + 1,
	    sizeof(*o->myaddr));
	o->myaddr[o->n_myaddr++] = arg;
	return 0;
}

/*
 * --proxy: checks the URL with the parser setup.c uses
 * (net/proxy.c); whether the name resolves is main's question.
 */
int
opt_proxy(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	struct proxy_url u;
	char errbuf[128];

	if (proxy_url_parse(arg, &u, errbuf, sizeof(errbuf)) == -1)
		return opt_fail(c, r, NULL, arg, "%s", errbuf);
	proxy_url_free(&u);
	c->o->proxy = arg;
	return 0;
}

/*
 * --proxy as given, but a password in it as ***: the echo line and
 * --json are often shared.
 */
void
opt_echo_proxy(const struct options *o, const struct opt_row *r, FILE *out)
{
	const char *p = o->proxy, *q, *at = NULL, *end, *colon;

	if (p == NULL)
		return;
	q = strncasecmp(p, "http://", 7) == 0 ? p + 7 : p;
	end = q + strcspn(q, "/");
	for (; q < end; q++)
		if (*q == '@')
			at = q;
	q = strncasecmp(p, "http://", 7) == 0 ? p + 7 : p;
	if (at == NULL ||
	    (colon = memchr(q, ':', (size_t)(at - q))) == NULL) {
		fprintf(out, " --%s=%s", r->name, p);
		return;
	}
	fprintf(out, " --%s=%.*s:***%s", r->name, (int)(colon - p), p, at);
}

/* --proxy-user USER:PASS: a colon, no control character. */
int
opt_proxy_user(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	const unsigned char *p;

	if (strchr(arg, ':') == NULL)
		return opt_fail(c, r, NULL, arg, "expected USER:PASS");
	for (p = (const unsigned char *)arg; *p != '\0'; p++)
		if (*p < ' ' || *p == 0x7f)
			return opt_fail(c, r, NULL, arg,
			    "contains a control character");
	c->o->proxy_user = arg;
	return 0;
}

/* The user alone: the echo line (and --json) never show the password. */
void
opt_echo_proxy_user(const struct options *o, const struct opt_row *r,
    FILE *out)
{
	if (o->proxy_user != NULL)
		fprintf(out, " --%s=%.*s:***", r->name,
		    (int)strcspn(o->proxy_user, ":"), o->proxy_user);
}

/* --unix-socket: a path that fits a sockaddr_un (net/sock.c). */
int
opt_unix_socket(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	char errbuf[128];

	if (sock_unix_check(arg, errbuf, sizeof(errbuf)) == -1)
		return opt_fail(c, r, NULL, arg, "%s", errbuf);
	c->o->unix_socket = arg;
	return 0;
}

/*
 * --server: a host name or address, which goes into the Host header as
 * it is.  A URL or a HOST:PORT there (other tools take them) would fail
 * to resolve later with a puzzling message, so each is refused now, with
 * what to write instead.  A bare IPv6 address has several colons and
 * stays a host.
 */
int
opt_server(struct opt_ctx *c, const struct opt_row *r, const char *arg)
{
	static const struct opt_val word = { .kind = OPT_K_WORD };
	union opt_value v;
	const char *colon = strrchr(arg, ':'), *host = arg;
	size_t hlen;

	if (util_url_like(arg))
		return opt_fail(c, r, NULL, arg, "takes a host, not a URL: "
		    "give the URL as an argument on its own, or use --server "
		    "HOST --port N --uri PATH");
	if (colon != NULL && colon[1] != '\0' &&
	    strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	    (arg[0] == '[' ? colon[-1] == ']' : strchr(arg, ':') == colon)) {
		hlen = (size_t)(colon - arg);
		if (arg[0] == '[' && hlen >= 2) {
			host++;
			hlen -= 2;
		}
		return opt_fail(c, r, NULL, arg, "takes a host without a "
		    "port: use --server %.*s --port %s", (int)hlen, host,
		    colon + 1);
	}
	if (opt_parse_val(c, r, &word, arg, arg, &v) == -1)
		return -1;
	c->o->server = arg;
	return 0;
}

/* Every --myaddr as given. */
void
opt_echo_myaddr(const struct options *o, const struct opt_row *r, FILE *out)
{
	size_t i;

	for (i = 0; i < o->n_myaddr; i++)
		fprintf(out, " --%s=%s", r->name, o->myaddr[i]);
}

void
opt_append_header_file(struct opt_ctx *c)
{
	struct options *o = c->o;

	if (c->hdr_file_len == 0)
		return;
	o->add_header = xrealloc(o->add_header,
	    o->add_header_len + c->hdr_file_len + 1);
	memcpy(o->add_header + o->add_header_len, c->hdr_file,
	    c->hdr_file_len + 1);
	o->add_header_len += c->hdr_file_len;
}


int
opt_check_servers(const struct opt_ctx *c)
{
	const struct options *o = c->o;
	struct servers_list l;
	char err[512], msg[512];

	if (o->servers_file == NULL)
		return 0;
	if (servers_load(o->servers_file, o->port_given ? o->port : 0, o->ssl,
	    &l, err, sizeof(err)) == -1)
		return opt_fail(c, &opt_table[OPT_SERVERS], NULL, NULL, "%s",
		    util_escape(msg, sizeof(msg), err, strlen(err)));
	servers_free(&l);
	return 0;
}
