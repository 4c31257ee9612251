/*
 * Client socket helpers (see sock.h).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "net/sock.h"

#define SOCK_HOG_FIRST	1024
#define SOCK_HOG_LAST	65535
#define SOCK_RANGE_MAX	65536	/* addresses in one --myaddr range */

int
sock_resolve(const char *host, unsigned port, struct sockaddr_storage *ss,
    socklen_t *sslen, char *errbuf, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	char portstr[16];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(portstr, sizeof(portstr), "%u", port);
	/* Accept "[::1]" as well as "::1". */
	if (host[0] == '[') {
		char lit[INET6_ADDRSTRLEN + 2];
		size_t n = strlen(host);

		if (n >= 2 && host[n - 1] == ']' && n - 2 < sizeof(lit)) {
			memcpy(lit, host + 1, n - 2);
			lit[n - 2] = '\0';
			return sock_resolve(lit, port, ss, sslen, errbuf,
			    errlen);
		}
	}
	if ((rc = getaddrinfo(host, portstr, &hints, &res)) != 0) {
		snprintf(errbuf, errlen, "cannot resolve '%s': %s", host,
		    gai_strerror(rc));
		return -1;
	}
	/*
	 * A name with IPv4 and IPv6 addresses: take IPv4, as 0.9.0 did, so
	 * "localhost" keeps reaching servers that listen on 127.0.0.1 only.
	 * IPv6 is used for literals and names with only IPv6 addresses.
	 */
	for (ai = res; ai != NULL && ai->ai_family != AF_INET; ai = ai->ai_next)
		;
	if (ai == NULL)
		ai = res;
	if (ai->ai_addrlen > sizeof(*ss)) {
		freeaddrinfo(res);
		snprintf(errbuf, errlen, "cannot resolve '%s': address too "
		    "long", host);
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*sslen = ai->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int
sock_open(int family, const struct sock_opts *o)
{
	struct linger lg;
	int fd, one = 1, err;

	fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -1;
	if (family != AF_UNIX && setsockopt(fd, IPPROTO_TCP, TCP_NODELAY,
	    &one, sizeof(one)) == -1)
		goto fail;
	if (o->send_buffer > 0 && setsockopt(fd, SOL_SOCKET, SO_SNDBUF,
	    &o->send_buffer, sizeof(o->send_buffer)) == -1)
		goto fail;
	if (o->recv_buffer > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUF,
	    &o->recv_buffer, sizeof(o->recv_buffer)) == -1)
		goto fail;
	/* Allowed, sock_busy_poll_check() said: nothing to say if not. */
#ifdef SO_BUSY_POLL
	if (o->busy_poll > 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &o->busy_poll,
		    sizeof(o->busy_poll));
#endif
	if (o->close_with_reset) {
		lg.l_onoff = 1;
		lg.l_linger = 0;
		if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg,
		    sizeof(lg)) == -1)
			goto fail;
	}
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

int
sock_busy_poll_check(int usec)
{
#ifdef SO_BUSY_POLL
	int fd, r, err;

	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	r = setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &usec, sizeof(usec));
	err = errno;
	close(fd);
	errno = err;
	return r;
#else
	(void)usec;
	errno = ENOPROTOOPT;
	return -1;
#endif
}

int
sock_rcvlowat(int fd, int bytes)
{
	return setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &bytes, sizeof(bytes));
}

int
sock_hog_bind(int fd, int family, const struct sockaddr_storage *src,
    struct sock_hog *h)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	unsigned i, port, first, last;

	memset(&ss, 0, sizeof(ss));
	if (src != NULL) {
		ss = *src;
		family = ss.ss_family;
	} else if (family == AF_INET6) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_any;
	} else {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_ANY);
	}
	len = family == AF_INET6 ? sizeof(*sin6) : sizeof(*sin);
	/*
	 * Every port of the range once, from the cursor on, as 0.9.0 did: a
	 * previous run can leave tens of thousands in TIME_WAIT.  The cursor
	 * moves past the busy ones, so the next connection does not test
	 * them again; only a range that is full costs a whole sweep.
	 */
	first = h->first != 0 ? h->first : SOCK_HOG_FIRST;
	last = h->last != 0 ? h->last : SOCK_HOG_LAST;
	for (i = 0; first <= last && i <= last - first; i++) {
		if (h->next < first || h->next > last)
			h->next = first;
		port = h->next++;
		if (family == AF_INET6)
			sin6->sin6_port = htons((unsigned short)port);
		else
			sin->sin_port = htons((unsigned short)port);
		if (bind(fd, (struct sockaddr *)&ss, len) == 0)
			return 0;
		/* A port in use (TIME_WAIT, another program) is skipped. */
		if (errno != EADDRINUSE && errno != EACCES)
			return -1;
	}
	errno = EADDRNOTAVAIL;
	return -1;
}

int
sock_bind_next(int fd, int family, const struct sockaddr_storage *src,
    size_t nsrc, size_t *next, struct sock_hog *hog)
{
	size_t i, tries;

	if (nsrc == 0)
		return hog != NULL ? sock_hog_bind(fd, family, NULL, hog) : 0;
	if (hog == NULL)
		return sock_bind_src(fd, &src[(*next)++ % nsrc]);
	/*
	 * One address has 64,512 ports to one server: past that, the
	 * next address takes the connection, and only when all of them
	 * are full does it fail (addrunavail).
	 */
	for (tries = 0; tries < nsrc; tries++) {
		i = (*next)++ % nsrc;
		if (sock_hog_bind(fd, family, &src[i], &hog[i]) == 0)
			return 0;
		if (errno != EADDRNOTAVAIL)
			return -1;
	}
	errno = EADDRNOTAVAIL;
	return -1;
}

int
sock_bind_src(int fd, const struct sockaddr_storage *src)
{
	socklen_t len = src->ss_family == AF_INET6 ?
	    sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
#ifdef IP_BIND_ADDRESS_NO_PORT
	int one = 1;

	/* Not fatal: without it bind() picks the port at once. */
	(void)setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one,
	    sizeof(one));
#endif
	return bind(fd, (const struct sockaddr *)src, len);
}

int
sock_parse_addr(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		return 0;
	}
	return -1;
}

int
sock_unix_check(const char *path, char *errbuf, size_t errlen)
{
	struct sockaddr_un sun;

	if (*path == '\0') {
		snprintf(errbuf, errlen, "must not be empty");
		return -1;
	}
	if (strlen(path) >= sizeof(sun.sun_path)) {
		snprintf(errbuf, errlen, "a Unix socket path has at most %zu "
		    "bytes", sizeof(sun.sun_path) - 1);
		return -1;
	}
	return 0;
}

int
sock_unix_addr(const char *path, struct sockaddr_storage *ss,
    socklen_t *sslen, char *errbuf, size_t errlen)
{
	struct sockaddr_un *sun = (struct sockaddr_un *)ss;

	if (sock_unix_check(path, errbuf, errlen) == -1)
		return -1;
	memset(ss, 0, sizeof(*ss));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, strlen(path));
	*sslen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
	    strlen(path) + 1);
	return 0;
}

int
sock_unix_probe(const char *path, char *errbuf, size_t errlen)
{
	struct stat st;

	if (stat(path, &st) == -1) {
		snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(errbuf, errlen, "%s: not a socket", path);
		return -1;
	}
	return 0;
}

int
sock_connect(int fd, const struct sockaddr *sa, socklen_t salen)
{
	while (connect(fd, sa, salen) == -1) {
		if (errno == EINTR)
			continue;
		return errno;
	}
	return 0;
}

int
sock_error(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
		return errno;
	return err;
}

/* Adds without wrapping around: the counts come from the command line. */
static uint64_t
sock_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t
sock_sat_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

uint64_t
sock_nofile_want(uint64_t units, uint64_t conns_per_unit)
{
	if (conns_per_unit == 0)
		conns_per_unit = 1;
	return sock_sat_add(sock_sat_mul(units, conns_per_unit),
	    SOCK_NOFILE_RESERVE);
}

void
sock_nofile_plan(uint64_t cur, uint64_t max, uint64_t nr_open,
    uint64_t want, uint64_t *new_cur, uint64_t *new_max)
{
	/* The soft limit goes up to the hard one whatever the run. */
	*new_max = max;
	*new_cur = cur > max ? cur : max;
	/*
	 * Beyond the hard limit only as far as the run needs, and never
	 * past fs.nr_open, which the kernel refuses even to root.  Only a
	 * process with CAP_SYS_RESOURCE gets it: the caller tries.
	 */
	if (want > max && nr_open > max) {
		*new_max = want < nr_open ? want : nr_open;
		*new_cur = *new_max;
	}
}

int
sock_nofile_note(uint64_t old_cur, uint64_t cur, uint64_t want, char *buf,
    size_t len)
{
	if (cur < want) {
		if (cur > old_cur)
			snprintf(buf, len, "open files limit raised from %llu "
			    "to %llu, below the %llu this run may need: "
			    "connections beyond it count as fd-unavail",
			    (unsigned long long)old_cur,
			    (unsigned long long)cur, (unsigned long long)want);
		else
			snprintf(buf, len, "open files limit is %llu, below "
			    "the %llu this run may need: connections beyond "
			    "it count as fd-unavail",
			    (unsigned long long)cur, (unsigned long long)want);
		return 1;
	}
	/* Raising a limit the run did not need is not news. */
	if (cur > old_cur && old_cur < want) {
		snprintf(buf, len, "open files limit raised from %llu to %llu",
		    (unsigned long long)old_cur, (unsigned long long)cur);
		return 1;
	}
	return 0;
}

/* RLIM_INFINITY and friends as a plain count. */
static uint64_t
sock_rlim(rlim_t r)
{
	return r == RLIM_INFINITY ? UINT64_MAX : (uint64_t)r;
}

static rlim_t
sock_unrlim(uint64_t v)
{
	return v == UINT64_MAX ? RLIM_INFINITY : (rlim_t)v;
}

/* fs.nr_open, the ceiling of any RLIMIT_NOFILE; 0 when unknown. */
static uint64_t
sock_nr_open(void)
{
	FILE *f;
	unsigned long long v;

	if ((f = fopen("/proc/sys/fs/nr_open", "re")) == NULL)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

long
sock_raise_nofile(uint64_t want, char *note, size_t notelen)
{
	struct rlimit rl;
	uint64_t old_cur, cur, max;

	if (notelen > 0)
		note[0] = '\0';
	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return -1;
	old_cur = sock_rlim(rl.rlim_cur);
	sock_nofile_plan(old_cur, sock_rlim(rl.rlim_max), sock_nr_open(), want,
	    &cur, &max);
	if (cur != old_cur || max != sock_rlim(rl.rlim_max)) {
		struct rlimit nrl;

		nrl.rlim_cur = sock_unrlim(cur);
		nrl.rlim_max = sock_unrlim(max);
		if (setrlimit(RLIMIT_NOFILE, &nrl) == -1) {
			/* Not privileged: up to the hard limit, as always. */
			nrl.rlim_cur = nrl.rlim_max = rl.rlim_max;
			if (setrlimit(RLIMIT_NOFILE, &nrl) == -1)
				return -1;
		}
		rl = nrl;
	}
	(void)sock_nofile_note(old_cur, sock_rlim(rl.rlim_cur), want, note,
	    notelen);
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)LONG_MAX)
		return LONG_MAX;
	return (long)rl.rlim_cur;
}

/* Appends one address to a growing array. */
static void
sock_push(struct sockaddr_storage **arr, size_t *n,
    const struct sockaddr_storage *ss)
{
	*arr = xreallocarray(*arr, *n + 1, sizeof(**arr));
	(*arr)[(*n)++] = *ss;
}

/*
 * Checks an IPv4 range A.B.C.D-E.F.G.H, `dash' pointing at its '-'.
 * Returns 1 with the bounds set, 0 when the part before the dash is not
 * an IPv4 address (so the spec is no range), or -1 with a message.
 */
static int
sock_parse_range(const char *spec, const char *dash, struct sock_src *src,
    char *errbuf, size_t errlen)
{
	char first[INET_ADDRSTRLEN];
	struct in_addr lo, hi;
	size_t len = (size_t)(dash - spec);

	if (len >= sizeof(first))
		return 0;
	memcpy(first, spec, len);
	first[len] = '\0';
	if (inet_pton(AF_INET, first, &lo) != 1)
		return 0;
	if (inet_pton(AF_INET, dash + 1, &hi) != 1) {
		snprintf(errbuf, errlen, "range end is not an IPv4 address");
		return -1;
	}
	if (ntohl(lo.s_addr) > ntohl(hi.s_addr)) {
		snprintf(errbuf, errlen, "range start is above its end");
		return -1;
	}
	src->kind = SOCK_SRC_RANGE;
	src->lo = ntohl(lo.s_addr);
	src->hi = ntohl(hi.s_addr);
	return 1;
}

/* Checks an IPv6 literal with an optional, non-empty %scope. */
static int
sock_parse_v6(const char *spec, char *errbuf, size_t errlen)
{
	char buf[INET6_ADDRSTRLEN];
	struct in6_addr a6;
	size_t len = strcspn(spec, "%");

	if (len >= sizeof(buf) || (spec[len] == '%' && spec[len + 1] == '\0'))
		goto bad;
	memcpy(buf, spec, len);
	buf[len] = '\0';
	if (inet_pton(AF_INET6, buf, &a6) == 1)
		return 0;
bad:
	snprintf(errbuf, errlen, "not an IPv6 address");
	return -1;
}

int
sock_parse_src(const char *spec, struct sock_src *src, char *errbuf,
    size_t errlen)
{
	const unsigned char *p;
	const char *dash;
	struct in_addr a;
	int rc;

	memset(src, 0, sizeof(*src));
	if (*spec == '\0') {
		snprintf(errbuf, errlen, "must not be empty");
		return -1;
	}
	for (p = (const unsigned char *)spec; *p != '\0'; p++)
		if (*p <= ' ' || *p == 0x7f) {
			snprintf(errbuf, errlen,
			    "contains a space or control character");
			return -1;
		}
	if ((dash = strchr(spec, '-')) != NULL &&
	    (rc = sock_parse_range(spec, dash, src, errbuf, errlen)) != 0)
		return rc == 1 ? 0 : -1;
	src->kind = SOCK_SRC_ADDR;
	if (strchr(spec, ':') != NULL)
		return sock_parse_v6(spec, errbuf, errlen);
	if (spec[strspn(spec, "0123456789.")] == '\0') {
		if (inet_pton(AF_INET, spec, &a) == 1)
			return 0;
		snprintf(errbuf, errlen, "not an IPv4 address");
		return -1;
	}
	src->kind = SOCK_SRC_NAME;
	if (!isalnum((unsigned char)spec[0]) ||
	    spec[strspn(spec, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")] != '\0') {
		snprintf(errbuf, errlen, "not an address, range or host name");
		return -1;
	}
	return 0;
}

int
sock_expand_src(const char *spec, struct sockaddr_storage **arr, size_t *n,
    char *errbuf, size_t errlen)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct addrinfo hints, *res, *ai;
	struct sock_src src;
	uint32_t i;
	int rc;

	if (sock_parse_src(spec, &src, errbuf, errlen) == -1)
		return -1;
	if (src.kind == SOCK_SRC_ADDR && sock_parse_addr(spec, &ss) == 0) {
		sock_push(arr, n, &ss);
		return 0;
	}
	if (src.kind == SOCK_SRC_RANGE) {
		if (src.hi - src.lo >= SOCK_RANGE_MAX) {
			snprintf(errbuf, errlen, "'%s': a range must go "
			    "upwards and hold at most %d addresses", spec,
			    SOCK_RANGE_MAX);
			return -1;
		}
		for (i = src.lo;; i++) {
			memset(&ss, 0, sizeof(ss));
			sin->sin_family = AF_INET;
			sin->sin_addr.s_addr = htonl(i);
			sock_push(arr, n, &ss);
			if (i == src.hi)
				break;
		}
		return 0;
	}
	/* A name, or an IPv6 literal with a %scope that only it reads. */
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(spec, NULL, &hints, &res)) != 0) {
		snprintf(errbuf, errlen, "cannot resolve '%s': %s", spec,
		    gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(ss))
			continue;
		memset(&ss, 0, sizeof(ss));
		memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
		sock_push(arr, n, &ss);
	}
	freeaddrinfo(res);
	return 0;
}
