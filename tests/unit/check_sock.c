/*
 * Socket helpers: --myaddr address expansion, literal parsing, the
 * resolver on loopback names, and --hog's search for a free port.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <sys/resource.h>
#include <sys/socket.h>

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "net/sock.h"
#include "unit.h"

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

/*
 * Occupies ports lo..hi of the IPv4 wildcard address with bound sockets,
 * as TIME_WAIT leftovers would; a port someone else holds is busy too.
 * Returns how many sockets were opened (their fds in fds[]).
 */
static size_t
hog_occupy(unsigned lo, unsigned hi, int *fds)
{
	struct sockaddr_in sin;
	size_t n = 0;
	unsigned p;
	int fd;

	for (p = lo; p <= hi; p++) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ck_assert_int_ge(fd, 0);
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_ANY);
		sin.sin_port = htons((unsigned short)p);
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0)
			fds[n++] = fd;
		else {
			ck_assert_int_eq(errno, EADDRINUSE);
			close(fd);
		}
	}
	return n;
}

/* Runs sock_hog_bind() from `cursor' and returns the port it bound. */
static unsigned
hog_bind_from(unsigned cursor, int *fdp)
{
	struct sock_hog h = { .next = cursor };
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_msg(sock_hog_bind(fd, AF_INET, NULL, &h) == 0,
	    "sock_hog_bind from %u: %s", cursor, strerror(errno));
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	/* The cursor is past the port handed out. */
	ck_assert_uint_eq(h.next, (unsigned)ntohs(sin.sin_port) + 1);
	*fdp = fd;
	return ntohs(sin.sin_port);
}

/*
 * A run of 300 busy ports (more than the 256 once tried per connection)
 * right at the cursor: the next free port after the run is found.  The
 * ports are above Linux's ephemeral range, so nothing else takes them.
 */
START_TEST(test_hog_long_run)
{
	int fds[300], fd;
	size_t n, i;
	unsigned port;

	n = hog_occupy(61000, 61299, fds);
	port = hog_bind_from(61000, &fd);
	ck_assert_uint_ge(port, 61300);
	close(fd);
	for (i = 0; i < n; i++)
		close(fds[i]);
}
END_TEST

/* Busy from the cursor to the end of the range: the search wraps. */
START_TEST(test_hog_wraps)
{
	int fds[436], fd;
	size_t n, i;
	unsigned port;

	n = hog_occupy(65100, 65535, fds);
	port = hog_bind_from(65100, &fd);
	ck_assert_uint_ge(port, 1024);
	ck_assert_uint_lt(port, 65100);
	close(fd);
	for (i = 0; i < n; i++)
		close(fds[i]);
}
END_TEST

/* The address and port a socket is bound to. */
static void
bound_to(int fd, char *buf, size_t len, unsigned *port)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);

	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &sl), 0);
	ck_assert_ptr_ne(inet_ntop(AF_INET, &sin.sin_addr, buf,
	    (socklen_t)len), NULL);
	*port = ntohs(sin.sin_port);
}

/* Without --hog the --myaddr addresses take turns, port left to connect. */
START_TEST(test_bind_next_turns)
{
	struct sockaddr_storage *a = NULL;
	size_t n = 0, next = 0, i;
	char err[256], buf[64];
	unsigned port;
	int fd;

	ck_assert_int_eq(sock_expand_src("127.0.0.2-127.0.0.4", &a, &n, err,
	    sizeof(err)), 0);
	for (i = 0; i < 7; i++) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(sock_bind_next(fd, AF_INET, a, n, &next,
		    NULL), 0);
		bound_to(fd, buf, sizeof(buf), &port);
		ck_assert_str_eq(buf, i % 3 == 0 ? "127.0.0.2" :
		    i % 3 == 1 ? "127.0.0.3" : "127.0.0.4");
		close(fd);
	}
	ck_assert_uint_eq(next, 7);
	/* No source, no --hog: nothing bound. */
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_eq(sock_bind_next(fd, AF_INET, NULL, 0, &next, NULL), 0);
	bound_to(fd, buf, sizeof(buf), &port);
	ck_assert_uint_eq(port, 0);
	close(fd);
	free(a);
}
END_TEST

/*
 * --hog over two addresses with five ports each (62000..62004, above the
 * ephemeral range), the first one's all taken: every connection goes to
 * the second until it is full too, then EADDRNOTAVAIL (addrunavail).
 */
START_TEST(test_bind_next_hog_full)
{
	struct sockaddr_storage *a = NULL;
	struct sock_hog hog[2];
	struct sockaddr_in sin;
	size_t n = 0, next = 0, i;
	char err[256], buf[64];
	unsigned port, seen = 0;
	int busy[5], fds[6];

	ck_assert_int_eq(sock_expand_src("127.0.0.2-127.0.0.3", &a, &n, err,
	    sizeof(err)), 0);
	memset(hog, 0, sizeof(hog));
	for (i = 0; i < 2; i++) {
		hog[i].first = 62000;
		hog[i].last = 62004;
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(0x7f000002);
	for (i = 0; i < 5; i++) {
		busy[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		sin.sin_port = htons((unsigned short)(62000 + i));
		ck_assert_msg(bind(busy[i], (struct sockaddr *)&sin,
		    sizeof(sin)) == 0, "127.0.0.2:%zu: %s", 62000 + i,
		    strerror(errno));
	}
	for (i = 0; i < 5; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ck_assert_msg(sock_bind_next(fds[i], AF_INET, a, n, &next,
		    hog) == 0, "connection %zu: %s", i, strerror(errno));
		bound_to(fds[i], buf, sizeof(buf), &port);
		ck_assert_str_eq(buf, "127.0.0.3");
		ck_assert_uint_ge(port, 62000);
		ck_assert_uint_le(port, 62004);
		seen |= 1u << (port - 62000);
	}
	ck_assert_uint_eq(seen, 0x1f);
	fds[5] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_eq(sock_bind_next(fds[5], AF_INET, a, n, &next, hog),
	    -1);
	ck_assert_int_eq(errno, EADDRNOTAVAIL);
	for (i = 0; i < 6; i++)
		close(fds[i]);
	for (i = 0; i < 5; i++)
		close(busy[i]);
	free(a);
}
END_TEST

/* What a run needs: its units times their connections, plus a reserve. */
START_TEST(test_nofile_want)
{
	ck_assert_uint_eq(sock_nofile_want(100000, 1),
	    100000 + SOCK_NOFILE_RESERVE);
	ck_assert_uint_eq(sock_nofile_want(1, 0), 1 + SOCK_NOFILE_RESERVE);
	ck_assert_uint_eq(sock_nofile_want(1000, 4), 4000 + SOCK_NOFILE_RESERVE);
	/* Huge counts saturate rather than wrap to a small number. */
	ck_assert_uint_eq(sock_nofile_want(UINT64_MAX / 2, 4), UINT64_MAX);
	ck_assert_uint_eq(sock_nofile_want(UINT64_MAX, 1), UINT64_MAX);
}
END_TEST

/* The limits asked for, from the limits in force and fs.nr_open. */
START_TEST(test_nofile_plan)
{
	uint64_t cur, max;

	/* Enough under the hard limit: the soft one goes up to it. */
	sock_nofile_plan(1024, 524288, 1048576, 10064, &cur, &max);
	ck_assert_uint_eq(cur, 524288);
	ck_assert_uint_eq(max, 524288);
	/* More than the hard limit: both go up to what the run wants. */
	sock_nofile_plan(1024, 20000, 1048576, 100064, &cur, &max);
	ck_assert_uint_eq(cur, 100064);
	ck_assert_uint_eq(max, 100064);
	/* ... but not past fs.nr_open. */
	sock_nofile_plan(1024, 20000, 65536, 100064, &cur, &max);
	ck_assert_uint_eq(cur, 65536);
	ck_assert_uint_eq(max, 65536);
	/* nr_open unknown or not above the hard limit: the hard limit. */
	sock_nofile_plan(1024, 20000, 0, 100064, &cur, &max);
	ck_assert_uint_eq(cur, 20000);
	ck_assert_uint_eq(max, 20000);
	sock_nofile_plan(20000, 20000, 20000, 100064, &cur, &max);
	ck_assert_uint_eq(cur, 20000);
	ck_assert_uint_eq(max, 20000);
	/* Unlimited stays unlimited; a hard limit is never lowered. */
	sock_nofile_plan(1024, UINT64_MAX, 1048576, 100064, &cur, &max);
	ck_assert_uint_eq(cur, UINT64_MAX);
	ck_assert_uint_eq(max, UINT64_MAX);
	sock_nofile_plan(2000000, 2000000, 1048576, 100064, &cur, &max);
	ck_assert_uint_eq(cur, 2000000);
	ck_assert_uint_eq(max, 2000000);
}
END_TEST

/* The stderr line: only when it changed something or falls short. */
START_TEST(test_nofile_note)
{
	char buf[256];

	ck_assert_int_eq(sock_nofile_note(1024, 200064, 200064, buf,
	    sizeof(buf)), 1);
	ck_assert_str_eq(buf, "open files limit raised from 1024 to 200064");
	/* Raised, but the run fitted in the old limit: not news. */
	ck_assert_int_eq(sock_nofile_note(1024, 524288, 100, buf,
	    sizeof(buf)), 0);
	/* Nothing changed, enough. */
	ck_assert_int_eq(sock_nofile_note(20000, 20000, 10064, buf,
	    sizeof(buf)), 0);
	/* Short, raised or not. */
	ck_assert_int_eq(sock_nofile_note(20000, 20000, 100064, buf,
	    sizeof(buf)), 1);
	ck_assert_str_eq(buf, "open files limit is 20000, below the 100064 "
	    "this run may need: connections beyond it count as fd-unavail");
	ck_assert_int_eq(sock_nofile_note(1024, 20000, 100064, buf,
	    sizeof(buf)), 1);
	ck_assert_str_eq(buf, "open files limit raised from 1024 to 20000, "
	    "below the 100064 this run may need: connections beyond it "
	    "count as fd-unavail");
}
END_TEST

/* The real limit: at least the soft limit it had, and what it said. */
START_TEST(test_nofile_raise)
{
	struct rlimit rl0, rl;
	char note[256];
	long n;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl0), 0);
	n = sock_raise_nofile(64, note, sizeof(note));
	ck_assert_int_ge(n, 64);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_uint_eq(rl.rlim_cur, rl.rlim_max);
	ck_assert_uint_eq((uint64_t)n, (uint64_t)rl.rlim_cur);
	ck_assert_uint_ge(rl.rlim_max, rl0.rlim_max);
}
END_TEST

/* A socket option's value, as getsockopt() reports it. */
static int
sockopt(int fd, int opt)
{
	int v = -1;
	socklen_t len = sizeof(v);

	ck_assert_int_eq(getsockopt(fd, SOL_SOCKET, opt, &v, &len), 0);
	return v;
}

/*
 * By default the buffers are left to the kernel: the same sizes as a
 * socket nobody touched (so Linux still tunes them as the connection
 * goes); given sizes are set (Linux doubles them for its bookkeeping).
 */
START_TEST(test_buffers)
{
	struct sock_opts o;
	int fresh, fd;

	fresh = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fresh, 0);
	memset(&o, 0, sizeof(o));
	fd = sock_open(AF_INET, &o);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(sockopt(fd, SO_RCVBUF), sockopt(fresh, SO_RCVBUF));
	ck_assert_int_eq(sockopt(fd, SO_SNDBUF), sockopt(fresh, SO_SNDBUF));
	close(fd);
	o.recv_buffer = 16384;
	o.send_buffer = 4096;
	fd = sock_open(AF_INET, &o);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(sockopt(fd, SO_RCVBUF), 2 * 16384);
	ck_assert_int_eq(sockopt(fd, SO_SNDBUF), 2 * 4096);
	ck_assert_int_ne(sockopt(fresh, SO_RCVBUF), 2 * 16384);
	close(fd);
	close(fresh);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_literals);
	tcase_add_test(tc, test_buffers);
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_parse_addr);
	tcase_add_test(tc, test_resolve);
	tcase_add_test(tc, test_hog_long_run);
	tcase_add_test(tc, test_hog_wraps);
	tcase_add_test(tc, test_bind_next_turns);
	tcase_add_test(tc, test_bind_next_hog_full);
	tcase_add_test(tc, test_nofile_want);
	tcase_add_test(tc, test_nofile_plan);
	tcase_add_test(tc, test_nofile_note);
	tcase_add_test(tc, test_nofile_raise);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
