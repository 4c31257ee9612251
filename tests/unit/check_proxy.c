/*
 * HTTP proxies and Unix sockets: the proxy URL and no_proxy parsers, the
 * environment lookup and --proxy-env's choice (setup.c), the request
 * bytes (absolute-form, CONNECT, Basic credentials), the parser of the
 * proxy's reply head to CONNECT, and --unix-socket's path checks.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/http_req.h"
#include "net/proxy.h"
#include "net/sock.h"
#include "opt/options.h"
#include "setup.h"
#include "unit.h"

/* Concatenates iovecs into a NUL-terminated string. */
static char *
join(const struct iovec *iov, size_t n)
{
	size_t len = 0, i;
	char *s, *p;

	for (i = 0; i < n; i++)
		len += iov[i].iov_len;
	p = s = malloc(len + 1);
	ck_assert_ptr_nonnull(s);
	for (i = 0; i < n; i++) {
		memcpy(p, iov[i].iov_base, iov[i].iov_len);
		p += iov[i].iov_len;
	}
	*p = '\0';
	return s;
}

START_TEST(test_absolute_form)
{
	struct http_req_spec spec = {
		.uri = "/a?b", .minor = 1, .host = "origin:8080",
		.user_agent = "ua/1", .target_prefix = "http://origin:8080",
		.proxy_auth = "Basic dTpw",
	};
	struct http_req_tmpl t;
	struct iovec hdrs[1], iov[16];
	size_t n;
	char *s;
	const char *want = "GET http://origin:8080/a?b HTTP/1.1\r\n"
	    "User-Agent: ua/1\r\nHost: origin:8080\r\n"
	    "Proxy-Authorization: Basic dTpw\r\n\r\n";

	http_req_tmpl_init(&t, &spec);
	ck_assert_str_eq(t.full, want);
	n = http_req_iov(&t, NULL, 0, NULL, 0, NULL, 0, NULL, 0, iov, 16);
	s = join(iov, n);
	ck_assert_str_eq(s, want);
	free(s);
	/* A URI of the call's own (--wlog, sessions) gets the prefix too. */
	hdrs[0].iov_base = (void *)"Cookie: c=1\r\n";
	hdrs[0].iov_len = strlen("Cookie: c=1\r\n");
	n = http_req_iov(&t, "HEAD", 4, "/x", 2, hdrs, 1, NULL, 0, iov, 16);
	s = join(iov, n);
	ck_assert_str_eq(s, "HEAD http://origin:8080/x HTTP/1.1\r\n"
	    "User-Agent: ua/1\r\nHost: origin:8080\r\n"
	    "Proxy-Authorization: Basic dTpw\r\nCookie: c=1\r\n\r\n");
	free(s);
	/* The prefix takes an iovec: one fewer is refused. */
	ck_assert_uint_eq(http_req_iov(&t, "HEAD", 4, "/x", 2, hdrs, 1, NULL,
	    0, iov, 6), 0);
	ck_assert_uint_eq(http_req_iov(&t, "HEAD", 4, "/x", 2, hdrs, 1, NULL,
	    0, iov, 7), 7);
	http_req_tmpl_free(&t);
}
END_TEST

START_TEST(test_basic)
{
	char *s;

	s = proxy_basic("Aladdin:open sesame");
	ck_assert_str_eq(s, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
	free(s);
	s = proxy_basic("u:p");
	ck_assert_str_eq(s, "Basic dTpw");
	free(s);
	s = proxy_basic("ab:");
	ck_assert_str_eq(s, "Basic YWI6");
	free(s);
	s = proxy_basic("a:bcd");
	ck_assert_str_eq(s, "Basic YTpiY2Q=");
	free(s);
}
END_TEST

START_TEST(test_connect_req)
{
	size_t len;
	char *s;

	s = proxy_connect_req("origin:443", NULL, "httperf/T", &len);
	ck_assert_str_eq(s, "CONNECT origin:443 HTTP/1.1\r\n"
	    "Host: origin:443\r\nUser-Agent: httperf/T\r\n\r\n");
	ck_assert_uint_eq(len, strlen(s));
	free(s);
	s = proxy_connect_req("[::1]:8443", "Basic dTpw", "httperf/T", &len);
	ck_assert_str_eq(s, "CONNECT [::1]:8443 HTTP/1.1\r\n"
	    "Host: [::1]:8443\r\nProxy-Authorization: Basic dTpw\r\n"
	    "User-Agent: httperf/T\r\n\r\n");
	ck_assert_uint_eq(len, strlen(s));
	free(s);
}
END_TEST

/* Feeds `s' to a new parser in pieces of `step' bytes. */
static enum proxy_resp_result
feed(struct proxy_resp *r, const char *s, size_t len, size_t step,
    uint64_t max, size_t *total)
{
	enum proxy_resp_result rv = PROXY_RESP_MORE;
	size_t off = 0, n, used;

	proxy_resp_init(r, max);
	*total = 0;
	while (off < len && rv == PROXY_RESP_MORE) {
		n = len - off < step ? len - off : step;
		rv = proxy_resp_parse(r, s + off, n, &used);
		ck_assert_uint_le(used, n);
		if (rv == PROXY_RESP_MORE)
			ck_assert_uint_eq(used, n);
		off += used;
		*total += used;
	}
	return rv;
}

START_TEST(test_resp)
{
	static const char ok[] = "HTTP/1.1 200 Connection established\r\n"
	    "Proxy-Agent: tinyproxy/1.11\r\nX: y\r\n\r\n";
	static const char ok10[] = "HTTP/1.0 200 OK\n\n";
	static const char refused[] = "HTTP/1.1 407 Proxy Authentication "
	    "Required\r\nProxy-Authenticate: Basic realm=\"p\"\r\n"
	    "Content-Length: 0\r\n\r\n";
	static const char interim[] = "HTTP/1.1 100 Continue\r\n\r\n"
	    "HTTP/1.1 200 OK\r\n\r\nTLS";
	struct proxy_resp r;
	size_t step, total;

	for (step = 1; step <= sizeof(ok); step++) {
		ck_assert_int_eq(feed(&r, ok, strlen(ok), step, 4096, &total),
		    PROXY_RESP_DONE);
		ck_assert_int_eq(r.status, 200);
		ck_assert_uint_eq(total, strlen(ok));
		ck_assert_int_eq(feed(&r, refused, strlen(refused), step,
		    4096, &total), PROXY_RESP_DONE);
		ck_assert_int_eq(r.status, 407);
		ck_assert_uint_eq(total, strlen(refused));
		/* Bytes after the final head are not taken. */
		ck_assert_int_eq(feed(&r, interim, strlen(interim), step,
		    4096, &total), PROXY_RESP_DONE);
		ck_assert_int_eq(r.status, 200);
		ck_assert_uint_eq(total, strlen(interim) - 3);
	}
	ck_assert_int_eq(feed(&r, ok10, strlen(ok10), 3, 4096, &total),
	    PROXY_RESP_DONE);
	ck_assert_int_eq(r.status, 200);
	/* Not finished: more wanted, whatever the size of the pieces. */
	ck_assert_int_eq(feed(&r, ok, strlen(ok) - 1, 7, 4096, &total),
	    PROXY_RESP_MORE);
}
END_TEST

START_TEST(test_resp_bad)
{
	static const char *const bad[] = {
		"SSH-2.0-OpenSSH\r\n",
		"HTTP/2 200\r\n\r\n",
		"HTTP/1.1 20 OK\r\n\r\n",
		"HTTP/1.1 2000 OK\r\n\r\n",
		"HTTP/1.1200 OK\r\n\r\n",
		"HTTP/1.1 099 X\r\n\r\n",
		"HTTP/1.1 200 OK\r\n\rX",
		"\r\n",
	};
	struct proxy_resp r;
	size_t i, total, used;
	char *big;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(feed(&r, bad[i], strlen(bad[i]), 1, 4096,
		    &total) == PROXY_RESP_ERROR, "accepted %s", bad[i]);
		ck_assert_int_eq(r.error, PROXY_RESP_BAD);
	}
	/* A NUL anywhere. */
	ck_assert_int_eq(feed(&r, "HTTP/1.1 200 O\0K\r\n\r\n", 21, 4, 4096,
	    &total), PROXY_RESP_ERROR);
	/* The bytes taken before the bad one, in one piece. */
	ck_assert_int_eq(r.error, PROXY_RESP_BAD);
	ck_assert_uint_eq(total, 14);
	ck_assert_int_eq(feed(&r, "HTTP/1.1 200X\r\n\r\n", 17, 100, 4096,
	    &total), PROXY_RESP_ERROR);
	ck_assert_uint_eq(total, 12);
	ck_assert_int_eq(feed(&r, "HTTP/1.1 \r\n", 11, 100, 4096, &total),
	    PROXY_RESP_ERROR);
	ck_assert_uint_eq(total, 9);
	ck_assert_int_eq(feed(&r, "HTTP/1.x 200\r\n", 14, 100, 4096,
	    &total), PROXY_RESP_ERROR);
	ck_assert_uint_eq(total, 7);
	/* Several spaces, no reason, bare LFs, a 1xx then the final one. */
	ck_assert_int_eq(feed(&r, "HTTP/1.1   204\r\n\r\nX", 19, 100, 4096,
	    &total), PROXY_RESP_DONE);
	ck_assert_int_eq(r.status, 204);
	ck_assert_uint_eq(total, 18);
	ck_assert_int_eq(feed(&r, "HTTP/1.0 101 x\nA: b\n\nHTTP/1.1 502\n\n",
	    35, 100, 4096, &total), PROXY_RESP_DONE);
	ck_assert_int_eq(r.status, 502);
	ck_assert_uint_eq(r.interim, 1);
	ck_assert_uint_eq(total, 35);
	/* One byte past the limit fails; exactly the limit passes. */
	ck_assert_int_eq(feed(&r, "HTTP/1.1 200 OK\r\n\r\n", 19, 5, 19,
	    &total), PROXY_RESP_DONE);
	ck_assert_int_eq(feed(&r, "HTTP/1.1 200 OK\r\n\r\n", 19, 5, 18,
	    &total), PROXY_RESP_ERROR);
	ck_assert_int_eq(r.error, PROXY_RESP_TOO_BIG);
	/* An endless head: header lines for ever, cut at the limit, and
	   the parser stays failed. */
	big = malloc(1 << 20);
	ck_assert_ptr_nonnull(big);
	memcpy(big, "HTTP/1.1 200 OK\r\n", 17);
	for (i = 17; i + 4 <= (1 << 20); i += 4)
		memcpy(big + i, "X:\r\n", 4);
	ck_assert_int_eq(feed(&r, big, i, 4096, 65536, &total),
	    PROXY_RESP_ERROR);
	ck_assert_int_eq(r.error, PROXY_RESP_TOO_BIG);
	ck_assert_uint_eq(total, 65536);
	ck_assert_int_eq(proxy_resp_parse(&r, "\r\n", 2, &used),
	    PROXY_RESP_ERROR);
	free(big);
	/* Endless 1xx heads. */
	proxy_resp_init(&r, 1 << 20);
	for (i = 0; i < 11; i++)
		if (proxy_resp_parse(&r, "HTTP/1.1 100 C\r\n\r\n", 18,
		    &used) != PROXY_RESP_MORE)
			break;
	ck_assert_uint_eq(i, 10);
	ck_assert_int_eq(r.error, PROXY_RESP_INTERIM);
	ck_assert_str_eq(proxy_resp_strerror(r.error),
	    "too many interim (1xx) replies");
}
END_TEST

START_TEST(test_url)
{
	struct proxy_url u;
	char err[128];

	ck_assert_int_eq(proxy_url_parse("proxy:3128", &u, err, sizeof(err)),
	    0);
	ck_assert_str_eq(u.host, "proxy");
	ck_assert_uint_eq(u.port, 3128);
	ck_assert_ptr_null(u.userpass);
	proxy_url_free(&u);
	ck_assert_int_eq(proxy_url_parse("http://u:p@10.0.0.1:8080/", &u, err,
	    sizeof(err)), 0);
	ck_assert_str_eq(u.host, "10.0.0.1");
	ck_assert_uint_eq(u.port, 8080);
	ck_assert_str_eq(u.userpass, "u:p");
	proxy_url_free(&u);
	ck_assert_int_eq(proxy_url_parse("HTTP://[::1]:3128", &u, err,
	    sizeof(err)), 0);
	ck_assert_str_eq(u.host, "::1");
	ck_assert_uint_eq(u.port, 3128);
	proxy_url_free(&u);
	ck_assert_int_eq(proxy_url_parse("proxy.example.com", &u, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(u.port, PROXY_DEFAULT_PORT);
	proxy_url_free(&u);
	/* The last '@' ends the user information. */
	ck_assert_int_eq(proxy_url_parse("a@b:c@h:1", &u, err, sizeof(err)),
	    0);
	ck_assert_str_eq(u.userpass, "a@b:c");
	ck_assert_str_eq(u.host, "h");
	proxy_url_free(&u);

	ck_assert_int_eq(proxy_url_parse("https://h:1", &u, err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err, "only http:// proxies are supported");
	ck_assert_int_eq(proxy_url_parse("h:0", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("h:65536", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("h:99999999999999999999", &u, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("h:", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("h:1x", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse(":80", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("[::1", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("[]:1", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("h:1/path", &u, err, sizeof(err)),
	    -1);
	ck_assert_int_eq(proxy_url_parse("user@h:1", &u, err, sizeof(err)),
	    -1);
	ck_assert_int_eq(proxy_url_parse("h o:1", &u, err, sizeof(err)), -1);
	ck_assert_int_eq(proxy_url_parse("h\r\n:1", &u, err, sizeof(err)), -1);
	ck_assert_ptr_null(u.host);
	ck_assert_ptr_null(u.userpass);
}
END_TEST

/* Edge inputs, each with what it gives: host port userpass, or an error. */
static const struct {
	const char	*in;
	const char	*want;
} url_edges[] = {
#define BADHOST	"expected [http://][user:password@]host[:port]"
#define BADPORT	"bad port (1 to 65535)"
	{ "h:", BADPORT }, { "h:0", BADPORT }, { "h:65536", BADPORT },
	{ "h:1x", BADPORT }, { "h:+1", BADPORT }, { "h:-1", BADPORT },
	{ "h:00080", "h 80 -" }, { "h:065535", "h 65535 -" },
	{ "", BADHOST }, { ":80", BADHOST }, { "http://", BADHOST },
	{ "h$x", BADHOST }, { "a]b", BADHOST }, { "h_x-y.z", "h_x-y.z 1080 -" },
	/* Brackets: what is inside is not checked. */
	{ "[::1", BADHOST }, { "[]", BADHOST }, { "[]:1", BADHOST },
	{ "[x]", "x 1080 -" }, { "[x]:5", "x 5 -" }, { "[::1]", "::1 1080 -" },
	{ "[::1]:", BADPORT }, { "[::1]x", BADHOST }, { "[::1]]", BADHOST },
	{ "[::1]:1:2", BADPORT }, { "[::1]:99999", BADPORT },
	/* Colons without brackets: the first one starts the port. */
	{ "a:b:c", BADPORT }, { "a::1", BADPORT }, { "::1", BADHOST },
	/* Scheme, path. */
	{ "ftp://h", "only http:// proxies are supported" },
	{ "HtTp://h:8", "h 8 -" }, { "http:/h", "a proxy URL has no path" },
	{ "h:1/path", "a proxy URL has no path" }, { "h:1/", "h 1 -" },
	{ "h/", "h 1080 -" }, { "h?x", "a proxy URL has no path" },
	{ "h#f", "a proxy URL has no path" },
	{ "h:1?", "a proxy URL has no path" },
	{ "h:1/a b", "a proxy URL has no path" },
	/* User information. */
	{ "user@h:1", "the user information must be user:password" },
	{ "@h", "the user information must be user:password" },
	{ ":@h", "h 1080 :" }, { "u:p@h", "h 1080 u:p" },
	{ "u:p@", BADHOST }, { "u:p@:1", BADHOST }, { "u:p@h@", BADHOST },
	{ "u:p@[::1]:8", "::1 8 u:p" }, { "u:p@h:", BADPORT },
	{ "user@h:1x", "the user information must be user:password" },
	/* Spaces and control characters, before everything but the path. */
	{ "h o:1", "contains a space or control character" },
	{ "u p:x@h", "contains a space or control character" },
	{ "h:1 ", "contains a space or control character" },
	{ "h\x7f", "contains a space or control character" },
	{ "u@h o", "contains a space or control character" },
	{ "ftp://h o", "only http:// proxies are supported" },
#undef BADHOST
#undef BADPORT
};

START_TEST(test_url_edges)
{
	struct proxy_url u;
	char err[128], got[160];
	int rv;

	err[0] = '\0';
	rv = proxy_url_parse(url_edges[_i].in, &u, err, sizeof(err));
	if (rv == 0)
		snprintf(got, sizeof(got), "%s %u %s", u.host, u.port,
		    u.userpass != NULL ? u.userpass : "-");
	else {
		ck_assert_int_eq(rv, -1);
		ck_assert_ptr_null(u.host);
		ck_assert_ptr_null(u.userpass);
		snprintf(got, sizeof(got), "%s", err);
	}
	ck_assert_msg(strcmp(got, url_edges[_i].want) == 0,
	    "\"%s\": \"%s\", not \"%s\"", url_edges[_i].in, got,
	    url_edges[_i].want);
	proxy_url_free(&u);
}
END_TEST

START_TEST(test_no_proxy)
{
	ck_assert_int_eq(proxy_no_proxy(NULL, "a.example.com"), 0);
	ck_assert_int_eq(proxy_no_proxy("", "a.example.com"), 0);
	ck_assert_int_eq(proxy_no_proxy("*", "anything"), 1);
	ck_assert_int_eq(proxy_no_proxy("example.com", "example.com"), 1);
	ck_assert_int_eq(proxy_no_proxy("example.com", "a.example.com"), 1);
	ck_assert_int_eq(proxy_no_proxy(".example.com", "a.example.com"), 1);
	ck_assert_int_eq(proxy_no_proxy(".example.com", "example.com"), 1);
	ck_assert_int_eq(proxy_no_proxy("example.com", "badexample.com"), 0);
	ck_assert_int_eq(proxy_no_proxy("example.com", "example.org"), 0);
	ck_assert_int_eq(proxy_no_proxy("EXAMPLE.com", "a.Example.COM."), 1);
	ck_assert_int_eq(proxy_no_proxy("foo, localhost ,bar", "localhost"),
	    1);
	ck_assert_int_eq(proxy_no_proxy("foo,,bar", "localhost"), 0);
	ck_assert_int_eq(proxy_no_proxy("127.0.0.1:8080", "127.0.0.1"), 1);
	ck_assert_int_eq(proxy_no_proxy("127.0.0.1", "127.0.0.10"), 0);
	ck_assert_int_eq(proxy_no_proxy("::1", "::1"), 1);
	ck_assert_int_eq(proxy_no_proxy("[::1]:80", "::1"), 1);
	ck_assert_int_eq(proxy_no_proxy("[::1]", "[::1]"), 1);
	ck_assert_int_eq(proxy_no_proxy("a.com,*x", "b.com"), 0);
}
END_TEST

START_TEST(test_env)
{
	char *env[] = { "no_proxy=", "HTTP_PROXY=upper:1", "https_proxy=",
	    "HTTPS_PROXY=sup:2", "http_proxyX=no", NULL };
	char *env2[] = { "http_proxy=lower:1", "HTTP_PROXY=upper:1", NULL };

	ck_assert_str_eq(proxy_env(env, "http_proxy"), "upper:1");
	/* Empty lower case: unset, the upper case one counts. */
	ck_assert_str_eq(proxy_env(env, "https_proxy"), "sup:2");
	ck_assert_ptr_null(proxy_env(env, "no_proxy"));
	ck_assert_str_eq(proxy_env(env2, "http_proxy"), "lower:1");
	ck_assert_ptr_null(proxy_env(NULL, "http_proxy"));
}
END_TEST

/* setup_proxy() on options with --proxy-env (or not) and an env. */
static void
pick(int ssl, int use_env, const char *proxy, const char *user,
    char *const *env, struct setup *s)
{
	struct options o;
	char err[256];

	options_init(&o);
	o.prog = "httperf";
	o.server = "origin.test";
	o.port = ssl ? 443 : 80;
	o.ssl = ssl;
	o.proxy_env = use_env;
	o.proxy = proxy;
	o.proxy_user = user;
	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(setup_proxy(s, &o, env, err, sizeof(err)), 0);
	options_free(&o);
}

START_TEST(test_setup_proxy)
{
	char *env[] = { "http_proxy=http://u:p@hp:3128/",
	    "HTTPS_PROXY=sp:3129", NULL };
	char *env_no[] = { "http_proxy=hp:3128", "NO_PROXY=.test", NULL };
	char *env_other[] = { "http_proxy=hp:3128", "no_proxy=other.test",
	    NULL };
	struct setup s;

	/* Without --proxy-env the environment is not read. */
	pick(0, 0, NULL, NULL, env, &s);
	ck_assert_ptr_null(s.proxy);
	setup_free(&s);
	pick(0, 1, NULL, NULL, env, &s);
	ck_assert_str_eq(s.proxy, "hp:3128");
	ck_assert_str_eq(s.prefix, "http://origin.test");
	ck_assert_str_eq(s.proxy_auth, "Basic dTpw");
	ck_assert_ptr_null(s.tunnel);
	setup_free(&s);
	pick(1, 1, NULL, NULL, env, &s);
	ck_assert_str_eq(s.proxy, "sp:3129");
	ck_assert_ptr_null(s.prefix);
	ck_assert_str_eq(s.tunnel, "CONNECT origin.test:443 HTTP/1.1\r\n"
	    "Host: origin.test:443\r\nUser-Agent: httperf/" PACKAGE_VERSION
	    "\r\n\r\n");
	ck_assert_uint_eq(s.tunnel_len, strlen(s.tunnel));
	setup_free(&s);
	/* no_proxy matching the server: direct; not matching: proxied. */
	pick(0, 1, NULL, NULL, env_no, &s);
	ck_assert_ptr_null(s.proxy);
	setup_free(&s);
	pick(0, 1, NULL, NULL, env_other, &s);
	ck_assert_str_eq(s.proxy, "hp:3128");
	setup_free(&s);
	/* --proxy-user wins over the URL's user; --proxy over nothing. */
	pick(1, 0, "[::1]:8", "x:y", NULL, &s);
	ck_assert_str_eq(s.proxy, "[::1]:8");
	ck_assert_str_eq(s.proxy_auth, "Basic eDp5");
	ck_assert_ptr_nonnull(strstr(s.tunnel,
	    "\r\nProxy-Authorization: Basic eDp5\r\n"));
	setup_free(&s);
	setup_free(&s);
}
END_TEST

START_TEST(test_unix_path)
{
	struct sockaddr_storage ss;
	struct sockaddr_un *sun = (struct sockaddr_un *)&ss;
	char err[256], path[sizeof(sun->sun_path) + 1], dir[] =
	    "/tmp/check_proxy.XXXXXX", sock[64], file[64];
	socklen_t len;
	int fd;

	ck_assert_int_eq(sock_unix_check("", err, sizeof(err)), -1);
	memset(path, 'a', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	/* 108 bytes do not fit with the NUL; 107 do. */
	ck_assert_int_eq(sock_unix_check(path, err, sizeof(err)), -1);
	ck_assert_int_eq(sock_unix_addr(path, &ss, &len, err, sizeof(err)),
	    -1);
	path[sizeof(path) - 2] = '\0';
	ck_assert_int_eq(sock_unix_check(path, err, sizeof(err)), 0);
	ck_assert_int_eq(sock_unix_addr("/run/x.sock", &ss, &len, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(ss.ss_family, AF_UNIX);
	ck_assert_str_eq(sun->sun_path, "/run/x.sock");
	ck_assert_uint_eq(len, sizeof(sa_family_t) + strlen("/run/x.sock") +
	    1);

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sock, sizeof(sock), "%s/s", dir);
	snprintf(file, sizeof(file), "%s/f", dir);
	ck_assert_int_eq(sock_unix_probe(sock, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "No such file"));
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(sock_unix_addr(sock, &ss, &len, err, sizeof(err)),
	    0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&ss, len), 0);
	ck_assert_int_eq(sock_unix_probe(sock, err, sizeof(err)), 0);
	close(fd);
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(sock_unix_probe(file, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "not a socket"));
	ck_assert_int_eq(sock_unix_probe(dir, err, sizeof(err)), -1);
	unlink(sock);
	unlink(file);
	rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("proxy");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_absolute_form);
	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_connect_req);
	tcase_add_test(tc, test_resp);
	tcase_add_test(tc, test_resp_bad);
	tcase_add_test(tc, test_url);
	tcase_add_loop_test(tc, test_url_edges, 0,
	    (int)(sizeof(url_edges) / sizeof(url_edges[0])));
	tcase_add_test(tc, test_no_proxy);
	tcase_add_test(tc, test_env);
	tcase_add_test(tc, test_setup_proxy);
	tcase_add_test(tc, test_unix_path);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
