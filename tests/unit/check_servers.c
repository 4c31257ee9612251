/*
 * lib/servers.c: --servers FILE's parser: every form of target, default
 * ports, comments, upstream's NUL-separated form, and every error with
 * its line.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/servers.h"
#include "unit.h"

/* Parses `len' bytes of `text' as file "f" with --port `port'. */
static int
parse(struct servers_list *l, const char *text, size_t len, unsigned port,
    int ssl, char *err, size_t errlen)
{
	err[0] = '\0';
	return servers_parse(text, len, "f", port, ssl, l, err, errlen);
}

static void
good(struct servers_list *l, const char *text, size_t len, unsigned port,
    int ssl)
{
	char err[256];

	ck_assert_msg(parse(l, text, len, port, ssl, err, sizeof(err)) == 0,
	    "%s", err);
}

/* Fails with exactly `want'. */
static void
bad(const char *text, size_t len, const char *want)
{
	struct servers_list l;
	char err[256];

	ck_assert_int_eq(parse(&l, text, len, 0, 0, err, sizeof(err)), -1);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(l.t);
	ck_assert_uint_eq(l.n, 0);
}

static void
expect(const struct servers_list *l, size_t i, const char *host,
    unsigned port, int https, const char *uri, size_t line)
{
	const struct servers_target *t = &l->t[i];

	ck_assert_uint_lt(i, l->n);
	ck_assert_str_eq(t->host, host);
	ck_assert_uint_eq(t->port, port);
	ck_assert_int_eq(t->https, https);
	if (uri == NULL)
		ck_assert_ptr_null(t->uri);
	else
		ck_assert_str_eq(t->uri, uri);
	ck_assert_uint_eq(t->line, line);
}

#define S(lit)	lit, sizeof(lit) - 1

START_TEST(test_forms)
{
	struct servers_list l;

	good(&l, S("# the fleet\n"
	    "a.example\n"
	    "\n"
	    "  b.example:8080  \r\n"
	    "[::1]:8081\n"
	    "[fe80::1]\n"
	    "::1\n"
	    "127.0.0.1:9\n"
	    "\t# indented comment\n"
	    "http://c.example\n"
	    "https://D.example:8443/x/y?q=1\n"
	    "HTTP://[::1]:81/\n"
	    "https://e.example:/p\n"
	    "last.example"), 0, 0);
	ck_assert_uint_eq(l.n, 11);
	expect(&l, 0, "a.example", 80, 0, NULL, 2);
	expect(&l, 1, "b.example", 8080, 0, NULL, 4);
	expect(&l, 2, "::1", 8081, 0, NULL, 5);
	expect(&l, 3, "fe80::1", 80, 0, NULL, 6);
	expect(&l, 4, "::1", 80, 0, NULL, 7);
	expect(&l, 5, "127.0.0.1", 9, 0, NULL, 8);
	expect(&l, 6, "c.example", 80, 0, NULL, 10);
	expect(&l, 7, "D.example", 8443, 1, "/x/y?q=1", 11);
	expect(&l, 8, "::1", 81, 0, NULL, 12);
	/* An empty port is the scheme's. */
	expect(&l, 9, "e.example", 443, 1, "/p", 13);
	expect(&l, 10, "last.example", 80, 0, NULL, 14);
	ck_assert_int_eq(servers_find(&l, "d.EXAMPLE", 8443), 7);
	ck_assert_int_eq(servers_find(&l, "d.example", 443), -1);
	ck_assert_int_eq(servers_find(&l, "::1", 81), 8);
	servers_free(&l);
	servers_free(&l);
}
END_TEST

/* A target without a port takes --port, else 443 with --ssl or https. */
START_TEST(test_default_port)
{
	struct servers_list l;

	good(&l, S("a\nb:81\nhttp://c\nhttps://d\nhttps://e:444\n"), 8000, 0);
	expect(&l, 0, "a", 8000, 0, NULL, 1);
	expect(&l, 1, "b", 81, 0, NULL, 2);
	expect(&l, 2, "c", 8000, 0, NULL, 3);
	expect(&l, 3, "d", 8000, 1, NULL, 4);
	expect(&l, 4, "e", 444, 1, NULL, 5);
	servers_free(&l);
	good(&l, S("a\nhttp://c\nhttps://d\n"), 0, 1);
	expect(&l, 0, "a", 443, 0, NULL, 1);
	expect(&l, 1, "c", 80, 0, NULL, 2);
	expect(&l, 2, "d", 443, 1, NULL, 3);
	servers_free(&l);
}
END_TEST

/* Upstream's form: NUL-separated, newlines tolerated, entries counted. */
START_TEST(test_nul)
{
	struct servers_list l;

	good(&l, S("a.example\0b.example:81\0\0c\n\0"), 0, 0);
	ck_assert_uint_eq(l.n, 3);
	expect(&l, 0, "a.example", 80, 0, NULL, 1);
	expect(&l, 1, "b.example", 81, 0, NULL, 2);
	expect(&l, 2, "c", 80, 0, NULL, 4);
	servers_free(&l);
	bad(S("a\0b:0\0"), "f: entry 2: 'b:0': bad port (1 to 65535)");
}
END_TEST

START_TEST(test_errors)
{
	char big[SERVERS_MAX * 2 + 8], want[128];
	size_t i;

	bad(S(""), "f: no target in it");
	bad(S("# only\n\n  \n"), "f: no target in it");
	bad(S("a\n\nb:99999\n"), "f:3: 'b:99999': bad port (1 to 65535)");
	bad(S("a\nb:x\n"), "f:2: 'b:x': bad port (1 to 65535)");
	bad(S("a/index.html\n"), "f:1: 'a/index.html': not a host, "
	    "host:port, [IPv6]:port or http(s) URL");
	bad(S("user@a\n"), "f:1: 'user@a': not a host, host:port, "
	    "[IPv6]:port or http(s) URL");
	bad(S("ftp://a/\n"), "f:1: 'ftp://a/': only http:// and https:// "
	    "URLs");
	bad(S("x\n[::1\n"), "f:2: '[::1': no ']' after the IPv6 address");
	bad(S("a b\n"), "f:1: 'a b': bad host (letters, digits, '-', '.' "
	    "and '_' only)");
	bad(S("\x01\n"), "f:1: '\\x01': bad host (letters, digits, '-', "
	    "'.' and '_' only)");
	/* One too many. */
	for (i = 0; i <= SERVERS_MAX; i++) {
		big[2 * i] = 'a';
		big[2 * i + 1] = '\n';
	}
	snprintf(want, sizeof(want), "f:%d: 'a': more than %d targets",
	    SERVERS_MAX + 1, SERVERS_MAX);
	bad(big, 2 * (SERVERS_MAX + 1), want);
}
END_TEST

START_TEST(test_max)
{
	static char big[SERVERS_MAX * 2];
	struct servers_list l;
	size_t i;

	for (i = 0; i < SERVERS_MAX; i++) {
		big[2 * i] = 'a';
		big[2 * i + 1] = '\n';
	}
	good(&l, big, sizeof(big), 0, 0);
	ck_assert_uint_eq(l.n, SERVERS_MAX);
	servers_free(&l);
}
END_TEST

START_TEST(test_load)
{
	char path[] = "/tmp/check_servers.XXXXXX", err[256];
	struct servers_list l;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "h:1\n", 4), 4);
	close(fd);
	ck_assert_int_eq(servers_load(path, 0, 0, &l, err, sizeof(err)), 0);
	expect(&l, 0, "h", 1, 0, NULL, 1);
	servers_free(&l);
	unlink(path);
	ck_assert_int_eq(servers_load(path, 0, 0, &l, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "No such file"));
	ck_assert_int_eq(servers_load("/dev/null", 0, 0, &l, err,
	    sizeof(err)), -1);
	ck_assert_str_eq(err, "/dev/null: no target in it");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("servers");
	TCase *tc = tcase_create("servers");

	tcase_add_test(tc, test_forms);
	tcase_add_test(tc, test_default_port);
	tcase_add_test(tc, test_nul);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_max);
	tcase_add_test(tc, test_load);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
