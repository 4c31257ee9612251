/*
 * Allocation wrappers (running out of memory in a load generator leaves
 * nothing trustworthy to report, so these print one line and exit), the
 * whole-file reader of the options that name a file, the escaping of
 * untrusted bytes quoted in messages, the token and blank rules of HTTP
 * that several parsers share, and the parser of a URL argument.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/util.h"

static void
oom(size_t size)
{
	fprintf(stderr, "httperf: out of memory (allocating %zu bytes)\n",
	    size);
	exit(1);
}

void *
xmalloc(size_t size)
{
	void *p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		oom(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		oom(n * size);
	return p;
}

void *
xrealloc(void *p, size_t size)
{
	if ((p = realloc(p, size == 0 ? 1 : size)) == NULL)
		oom(size);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(p, n * size);
}

char *
xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}

char *
xstrndup(const char *s, size_t len)
{
	char *d = xmalloc(len + 1);

	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/* Returns non-zero if `st' is /dev/null, which reads as an empty file. */
static int
util_is_dev_null(const struct stat *st)
{
	struct stat null;

	return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 &&
	    S_ISCHR(null.st_mode) && null.st_rdev == st->st_rdev;
}

/*
 * Reads all of `path' into a new buffer of *outlen bytes plus a NUL.  Only
 * a regular file (or /dev/null) is read: a directory, a device such as
 * /dev/zero or a FIFO could block or never end.  The open does not block either (a FIFO
 * without a writer would), and the size is checked against `max' before
 * and while reading, as the file may grow.  Returns 0, an errno value,
 * UTIL_ENOTREG or UTIL_ETOOBIG.
 */
int
util_read_file_max(const char *path, size_t max, char **out,
    size_t *outlen)
{
	struct stat st;
	char *buf;
	size_t cap, len = 0;
	ssize_t n;
	int fd, e;

	if (max > SIZE_MAX / 4)
		max = SIZE_MAX / 4;	/* so that cap below cannot wrap */
	do
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	while (fd == -1 && errno == EINTR);
	if (fd == -1)
		return errno;
	if (fstat(fd, &st) == -1) {
		e = errno;
		(void)close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode) && !util_is_dev_null(&st)) {
		(void)close(fd);
		return S_ISDIR(st.st_mode) ? EISDIR : UTIL_ENOTREG;
	}
	if (st.st_size < 0 || (uintmax_t)st.st_size > max) {
		(void)close(fd);
		return UTIL_ETOOBIG;
	}
	/* One read past the size sees the end, or that the file grew. */
	cap = (size_t)st.st_size + 2;
	buf = xmalloc(cap);
	for (;;) {
		if (cap - len < 2) {
			if (cap - 1 > max) {
				e = UTIL_ETOOBIG;
				goto fail;
			}
			cap = cap - 1 > max / 2 ? max + 2 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			e = errno;
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			e = UTIL_ETOOBIG;
			goto fail;
		}
	}
	(void)close(fd);
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
fail:
	free(buf);
	(void)close(fd);
	return e;
}

int
util_read_file(const char *path, char **out, size_t *outlen)
{
	return util_read_file_max(path, UTIL_FILE_MAX, out, outlen);
}

const char *
util_read_strerror(int e)
{
	switch (e) {
	case UTIL_ENOTREG:
		return "not a regular file";
	case UTIL_ETOOBIG:
		return "file too large (the limit is " UTIL_FILE_MAX_TEXT ")";
	default:
		return strerror(e);
	}
}

size_t
util_escape_char(char *tmp, unsigned char ch, int backslash)
{
	if (backslash && ch == '\\')
		return (size_t)snprintf(tmp, 5, "\\\\");
	if (ch == '\n')
		return (size_t)snprintf(tmp, 5, "\\n");
	if (ch == '\r')
		return (size_t)snprintf(tmp, 5, "\\r");
	if (ch == '\t')
		return (size_t)snprintf(tmp, 5, "\\t");
	if (ch < 0x20 || ch >= 0x7f)
		return (size_t)snprintf(tmp, 5, "\\x%02x", ch);
	tmp[0] = (char)ch;
	tmp[1] = '\0';
	return 1;
}

char *
util_escape(char *buf, size_t size, const char *s, size_t len)
{
	char tmp[5];
	size_t i, n, pos = 0, total = 0, room;

	if (size == 0)
		return buf;
	for (i = 0; i < len; i++)
		total += util_escape_char(tmp, (unsigned char)s[i], 0);
	/* What does not fit is cut at a whole escape and marked "...". */
	room = total < size ? size - 1 : size > 4 ? size - 4 : 0;
	for (i = 0; i < len; i++) {
		n = util_escape_char(tmp, (unsigned char)s[i], 0);
		if (pos + n > room)
			break;
		memcpy(buf + pos, tmp, n);
		pos += n;
	}
	if (i < len && size > 4) {
		memcpy(buf + pos, "...", 3);
		pos += 3;
	}
	buf[pos] = '\0';
	return buf;
}

void
util_put_escaped(FILE *f, const char *s, size_t len)
{
	char tmp[5];
	size_t i;

	for (i = 0; i < len; i++) {
		util_escape_char(tmp, (unsigned char)s[i], 0);
		fputs(tmp, f);
	}
}

const unsigned char util_tchar[256] = {
	['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1, ['\''] = 1,
	['*'] = 1, ['+'] = 1, ['-'] = 1, ['.'] = 1, ['^'] = 1, ['_'] = 1,
	['`'] = 1, ['|'] = 1, ['~'] = 1,
	['0' ... '9'] = 1, ['A' ... 'Z'] = 1, ['a' ... 'z'] = 1,
};

void
util_trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

int
util_url_like(const char *s)
{
	const char *p = s;

	if (!isalpha((unsigned char)*p))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' ||
	    *p == '.')
		p++;
	return strncmp(p, "://", 3) == 0;
}

int
util_url_ctl(const char *s, const char *e, int space)
{
	for (; s < e; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f ||
		    (space && *s == ' '))
			return 1;
	return 0;
}

int
util_url_port(const char *s, const char *e, unsigned *port)
{
	unsigned long v = 0;
	const char *p;

	for (p = s; p < e; p++) {
		if (*p < '0' || *p > '9' || v > 65535)
			break;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (p == s || p != e || v < 1 || v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

/* The host part [h, e) of an authority: a name or an IPv4 address. */
const char *
util_url_name(const char *h, const char *e)
{
	const char *p;

	if (h == e)
		return "no host";
	if (memchr(h, ':', (size_t)(e - h)) != NULL)
		return "an IPv6 address goes in brackets (http://[::1]:80/)";
	for (p = h; p < e; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.' &&
		    *p != '_')
			return "bad host (letters, digits, '-', '.' and '_' "
			    "only)";
	return NULL;
}

const char *
util_url_bracket(const char *h, const char *e, const char **he)
{
	if ((*he = memchr(h, ']', (size_t)(e - h))) == NULL)
		return "no ']' after the IPv6 address";
	if (*he == h)
		return "bad IPv6 address";
	return NULL;
}

/*
 * The host of the authority [a, e): [*h, *he), without brackets, and
 * *colon, the ':' before the port or NULL.  Returns what is wrong, or
 * NULL.
 */
static const char *
url_host(const char *a, const char *e, const char **h, const char **he,
    const char **colon)
{
	struct in6_addr a6;
	char lit[INET6_ADDRSTRLEN + 1];
	const char *why;
	size_t n;

	if (*a != '[') {
		*h = a;
		*colon = memchr(a, ':', (size_t)(e - a));
		*he = *colon != NULL ? *colon : e;
		if (*colon != NULL && memchr(*colon + 1, ':',
		    (size_t)(e - *colon - 1)) != NULL)
			*he = e;	/* an IPv6 address without brackets */
		return util_url_name(*h, *he);
	}
	*h = a + 1;
	if ((why = util_url_bracket(*h, e, he)) != NULL)
		return why;
	n = (size_t)(*he - *h);
	if (n >= sizeof(lit))
		return "bad IPv6 address";
	memcpy(lit, *h, n);
	lit[n] = '\0';
	if (inet_pton(AF_INET6, lit, &a6) != 1)
		return "bad IPv6 address";
	*colon = *he + 1;
	if (*colon < e && **colon != ':')
		return "expected ':' and a port after ']'";
	if (*colon == e)
		*colon = NULL;
	return NULL;
}

/*
 * The target from `s', the end of the authority: up to the fragment,
 * which is never sent.  Returns what is wrong, or NULL with u->target set.
 */
static const char *
url_target(const char *s, struct util_url *u)
{
	size_t n = strcspn(s, "#");

	if (util_url_ctl(s, s + n, 1))
		return "contains a space or control character";
	if (util_url_ctl(s + n, s + n + strlen(s + n), 0))
		return "contains a control character";
	if (*s == '/')
		u->target = xstrndup(s, n);
	else {
		/* Nothing, a query or a fragment: the path is "/". */
		u->target = xmalloc(n + 2);
		u->target[0] = '/';
		memcpy(u->target + 1, s, n);
		u->target[n + 1] = '\0';
	}
	return NULL;
}

int
util_url_parse(const char *s, struct util_url *u, char *errbuf,
    size_t errlen)
{
	const char *auth, *end, *h = NULL, *he = NULL, *colon = NULL, *why;

	memset(u, 0, sizeof(*u));
	if (strncasecmp(s, "http://", 7) == 0)
		auth = s + 7;
	else if (strncasecmp(s, "https://", 8) == 0) {
		auth = s + 8;
		u->https = 1;
	} else {
		snprintf(errbuf, errlen, "only http:// and https:// URLs");
		return -1;
	}
	u->port = u->https ? 443 : 80;
	end = auth + strcspn(auth, "/?#");
	if (memchr(auth, '@', (size_t)(end - auth)) != NULL)
		why = "user information (user@) is not supported; send "
		    "credentials with --add-header";
	else if ((why = url_host(auth, end, &h, &he, &colon)) != NULL)
		;
	/* An empty port is the scheme's (RFC 3986, section 3.2.3). */
	else if (colon != NULL && colon + 1 < end &&
	    util_url_port(colon + 1, end, &u->port) != 0)
		why = "bad port (1 to 65535)";
	else
		why = url_target(end, u);
	if (why != NULL) {
		snprintf(errbuf, errlen, "%s", why);
		return -1;
	}
	u->host = xstrndup(h, (size_t)(he - h));
	return 0;
}

void
util_url_free(struct util_url *u)
{
	free(u->host);
	free(u->target);
	u->host = NULL;
	u->target = NULL;
}

uint64_t
util_dtou64(double d)
{
	if (!(d > 0))
		return 0;	/* and NaN */
	/* 2^64 is exactly representable; UINT64_MAX as a double is 2^64. */
	if (d >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)d;
}
