/*
 * Request bytes: golden tests of the template and of the iovecs a call is
 * written from, and of the Host header value.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "net/http_req.h"
#include "unit.h"

/* Joins iovecs into one NUL-terminated string (caller frees). */
static char *
join(const struct iovec *iov, size_t n)
{
	size_t i, len = 0;
	char *s;

	for (i = 0; i < n; i++)
		len += iov[i].iov_len;
	s = xmalloc(len + 1);
	len = 0;
	for (i = 0; i < n; i++) {
		memcpy(s + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
	}
	s[len] = '\0';
	return s;
}

struct golden {
	const char	*name;
	const char	*method;
	const char	*uri;
	int		 minor;
	const char	*host;
	const char	*extra;
	const char	*want;
};

static const struct golden goldens[] = {
	{ "default 1.1", NULL, "/", 1, "localhost", NULL,
	    "GET / HTTP/1.1\r\nUser-Agent: httperf/T\r\nHost: localhost\r\n"
	    "\r\n" },
	{ "1.0 keep-alive", NULL, "/a", 0, "h:8080", NULL,
	    "GET /a HTTP/1.0\r\nUser-Agent: httperf/T\r\n"
	    "Connection: keep-alive\r\nHost: h:8080\r\n\r\n" },
	{ "no host, extra", "POST", "/p?q=1", 1, NULL, "X-A: 1\r\nX-B: 2\r\n",
	    "POST /p?q=1 HTTP/1.1\r\nUser-Agent: httperf/T\r\nX-A: 1\r\n"
	    "X-B: 2\r\n\r\n" },
	{ "head", "HEAD", "/x", 1, "[::1]:81", NULL,
	    "HEAD /x HTTP/1.1\r\nUser-Agent: httperf/T\r\nHost: [::1]:81\r\n"
	    "\r\n" },
};

START_TEST(test_golden_full)
{
	const struct golden *g = &goldens[_i];
	struct http_req_spec spec = {
		.method = g->method, .uri = g->uri, .minor = g->minor,
		.host = g->host, .extra = g->extra,
		.extra_len = g->extra ? strlen(g->extra) : 0,
		.user_agent = "httperf/T",
	};
	struct http_req_tmpl t;
	struct iovec iov[16];
	size_t n;
	char *s;

	http_req_tmpl_init(&t, &spec);
	ck_assert_str_eq(t.full, g->want);
	ck_assert_uint_eq(t.full_len, strlen(g->want));
	/* Nothing per call: one iovec, the prebuilt request. */
	n = http_req_iov(&t, NULL, 0, NULL, 0, NULL, 0, NULL, 0, iov, 16);
	ck_assert_uint_eq(n, 1);
	s = join(iov, n);
	ck_assert_str_eq(s, g->want);
	free(s);
	/* The same bytes when method and URI are given per call. */
	n = http_req_iov(&t, t.method, t.method_len, t.uri, t.uri_len, NULL,
	    0, NULL, 0, iov, 16);
	ck_assert_uint_gt(n, 1);
	s = join(iov, n);
	ck_assert_str_eq(s, g->want);
	free(s);
	http_req_tmpl_free(&t);
	http_req_tmpl_free(&t);
}
END_TEST

START_TEST(test_per_call)
{
	struct http_req_spec spec = {
		.uri = "/", .minor = 1, .host = "h", .user_agent = "ua/1",
	};
	struct http_req_tmpl t;
	struct iovec hdrs[2], iov[16];
	size_t n;
	char *s;

	hdrs[0].iov_base = (void *)"Cookie: a=b\r\n";
	hdrs[0].iov_len = strlen("Cookie: a=b\r\n");
	hdrs[1].iov_base = (void *)"Content-Length: 3\r\n";
	hdrs[1].iov_len = strlen("Content-Length: 3\r\n");
	http_req_tmpl_init(&t, &spec);
	n = http_req_iov(&t, "PUT", 3, "/u", 2, hdrs, 2, "abc", 3, iov, 16);
	s = join(iov, n);
	ck_assert_str_eq(s, "PUT /u HTTP/1.1\r\nUser-Agent: ua/1\r\nHost: h\r\n"
	    "Cookie: a=b\r\nContent-Length: 3\r\n\r\nabc");
	free(s);
	/* Too few iovecs: refused, not truncated. */
	ck_assert_uint_eq(http_req_iov(&t, "PUT", 3, "/u", 2, hdrs, 2, "abc",
	    3, iov, 6), 0);
	ck_assert_uint_eq(http_req_iov(&t, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
	    iov, 0), 0);
	http_req_tmpl_free(&t);
}
END_TEST

START_TEST(test_tmpl_body)
{
	struct http_req_spec spec = {
		.method = "POST", .uri = "/b", .minor = 1, .host = "h",
		.user_agent = "ua/1", .body = "{\"a\":1}", .body_len = 7,
	};
	struct http_req_tmpl t;
	struct iovec hdrs[1], iov[16];
	size_t n;
	char *s;

	http_req_tmpl_init(&t, &spec);
	/* The default request: headers, then the body as its own iovec. */
	n = http_req_iov(&t, NULL, 0, NULL, 0, NULL, 0, NULL, 0, iov, 16);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(iov[1].iov_len, 7);
	s = join(iov, n);
	ck_assert_str_eq(s, "POST /b HTTP/1.1\r\nUser-Agent: ua/1\r\nHost: h\r\n"
	    "Content-Length: 7\r\n\r\n{\"a\":1}");
	free(s);
	/* A per-call URI keeps the template body and its length. */
	n = http_req_iov(&t, NULL, 0, "/c", 2, NULL, 0, NULL, 0, iov, 16);
	s = join(iov, n);
	ck_assert_str_eq(s, "POST /c HTTP/1.1\r\nUser-Agent: ua/1\r\nHost: h\r\n"
	    "Content-Length: 7\r\n\r\n{\"a\":1}");
	free(s);
	/* A call's own body replaces it; its length comes with hdrs. */
	hdrs[0].iov_base = (void *)"Content-Length: 2\r\n";
	hdrs[0].iov_len = strlen("Content-Length: 2\r\n");
	n = http_req_iov(&t, NULL, 0, NULL, 0, hdrs, 1, "xy", 2, iov, 16);
	s = join(iov, n);
	ck_assert_str_eq(s, "POST /b HTTP/1.1\r\nUser-Agent: ua/1\r\nHost: h\r\n"
	    "Content-Length: 2\r\n\r\nxy");
	free(s);
	http_req_tmpl_free(&t);
}
END_TEST

static const struct {
	const char	*name;
	unsigned	 port;
	const char	*want;
} hosts[] = {
	{ "localhost", 80, "localhost" },
	{ "localhost", 8080, "localhost:8080" },
	{ "127.0.0.1", 443, "127.0.0.1:443" },
	{ "::1", 80, "[::1]" },
	{ "::1", 8080, "[::1]:8080" },
	{ "[::1]", 8080, "[::1]:8080" },
	{ "[::1]:99", 8080, "[::1]:99" },
	{ "example.test:81", 8080, "example.test:81" },
	{ "fe80::1", 81, "[fe80::1]:81" },
};

START_TEST(test_host)
{
	char *s = http_req_host(hosts[_i].name, hosts[_i].port, 80);

	ck_assert_str_eq(s, hosts[_i].want);
	free(s);
}
END_TEST

/* --server-name is sent exactly as given; --server gets the port. */
static const struct {
	const char	*server;
	const char	*server_name;
	unsigned	 port;
	const char	*want;
} host_fors[] = {
	{ "127.0.0.1", NULL, 8080, "127.0.0.1:8080" },
	{ "127.0.0.1", NULL, 80, "127.0.0.1" },
	{ "127.0.0.1", "example.test", 8080, "example.test" },
	{ "127.0.0.1", "example.test", 80, "example.test" },
	{ "::1", "::1", 8080, "::1" },
	{ "::1", "www:99", 8080, "www:99" },
	{ "::1", NULL, 8080, "[::1]:8080" },
};

START_TEST(test_host_for)
{
	char *s = http_req_host_for(host_fors[_i].server,
	    host_fors[_i].server_name, host_fors[_i].port, 80);

	ck_assert_str_eq(s, host_fors[_i].want);
	free(s);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("http_req");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_golden_full, 0, nitems(goldens));
	tcase_add_test(tc, test_per_call);
	tcase_add_test(tc, test_tmpl_body);
	tcase_add_loop_test(tc, test_host, 0, nitems(hosts));
	tcase_add_loop_test(tc, test_host_for, 0, nitems(host_fors));
	suite_add_tcase(s, tc);
	return unit_run(s);
}
