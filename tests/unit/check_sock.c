/*
 * Socket helpers: --myaddr address expansion, literal parsing, and the
 * resolver on loopback names.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "net/sock.h"
#include "util.h"

/* Formats an address of the array as text. */
static const char *
addr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	if (ss->ss_family == AF_INET)
		return inet_ntop(AF_INET,
		    &((const struct sockaddr_in *)ss)->sin_addr, buf,
		    (socklen_t)len);
	return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)ss)->sin6_addr,
	    buf, (socklen_t)len);
}

START_TEST(test_literals)
{
	struct sockaddr_storage *a = NULL;
	size_t n = 0;
	char err[256], buf[64];

	ck_assert_int_eq(sock_expand_src("127.0.0.2", &a, &n, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(sock_expand_src("::1", &a, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(addr_str(&a[0], buf, sizeof(buf)), "127.0.0.2");
	ck_assert_int_eq(a[1].ss_family, AF_INET6);
	ck_assert_str_eq(addr_str(&a[1], buf, sizeof(buf)), "::1");
	free(a);
}
END_TEST

START_TEST(test_range)
{
	struct sockaddr_storage *a = NULL;
	size_t n = 0;
	char err[256], buf[64];

	ck_assert_int_eq(sock_expand_src("10.0.0.254-10.0.1.1", &a, &n, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(addr_str(&a[0], buf, sizeof(buf)), "10.0.0.254");
	ck_assert_str_eq(addr_str(&a[1], buf, sizeof(buf)), "10.0.0.255");
	ck_assert_str_eq(addr_str(&a[2], buf, sizeof(buf)), "10.0.1.0");
	ck_assert_str_eq(addr_str(&a[3], buf, sizeof(buf)), "10.0.1.1");
	ck_assert_int_eq(sock_expand_src("127.0.0.5-127.0.0.5", &a, &n, err,
	    sizeof(err)), 0);
	ck_assert_uint_eq(n, 5);
	free(a);
}
END_TEST

START_TEST(test_bad)
{
	struct sockaddr_storage *a = NULL;
	size_t n = 0;
	char err[256];

	/* Downwards and oversized ranges. */
	ck_assert_int_eq(sock_expand_src("10.0.0.9-10.0.0.1", &a, &n, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(sock_expand_src("10.0.0.0-10.2.0.0", &a, &n, err,
	    sizeof(err)), -1);
	ck_assert_ptr_ne(strstr(err, "range"), NULL);
	/* A name that cannot resolve (reserved TLD, no network needed). */
	ck_assert_int_eq(sock_expand_src("no-such-host.invalid", &a, &n, err,
	    sizeof(err)), -1);
	ck_assert_uint_eq(n, 0);
	free(a);
}
END_TEST

START_TEST(test_parse_addr)
{
	struct sockaddr_storage ss;

	ck_assert_int_eq(sock_parse_addr("192.0.2.1", &ss), 0);
	ck_assert_int_eq(ss.ss_family, AF_INET);
	ck_assert_int_eq(sock_parse_addr("2001:db8::1", &ss), 0);
	ck_assert_int_eq(ss.ss_family, AF_INET6);
	ck_assert_int_eq(sock_parse_addr("example", &ss), -1);
	ck_assert_int_eq(sock_parse_addr("1.2.3", &ss), -1);
}
END_TEST

START_TEST(test_resolve)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char err[256];

	ck_assert_int_eq(sock_resolve("127.0.0.1", 8080, &ss, &len, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(ss.ss_family, AF_INET);
	ck_assert_int_eq(ntohs(((struct sockaddr_in *)&ss)->sin_port), 8080);
	ck_assert_int_eq(sock_resolve("[::1]", 81, &ss, &len, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(ss.ss_family, AF_INET6);
	/* A name with IPv4 (and maybe IPv6) addresses is reached over IPv4. */
	ck_assert_int_eq(sock_resolve("localhost", 80, &ss, &len, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(ss.ss_family, AF_INET);
	ck_assert_int_eq(sock_resolve("no-such-host.invalid", 80, &ss, &len,
	    err, sizeof(err)), -1);
	ck_assert_ptr_ne(strstr(err, "no-such-host.invalid"), NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sock");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_literals);
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_parse_addr);
	tcase_add_test(tc, test_resolve);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
