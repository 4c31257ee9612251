/*
 * Allocation wrappers.  Running out of memory in a load generator leaves
 * nothing trustworthy to report, so these print one line and exit.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

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

/*
 * Reads all of `path', whatever its size or content, into a new buffer of
 * *outlen bytes plus a NUL.  Pipes and character devices work too: only
 * read(2) tells where the end is.  Returns 0 or an errno value.
 */
int
util_read_file(const char *path, char **out, size_t *outlen)
{
	char *buf;
	size_t cap = 4096, len = 0;
	ssize_t n;
	int fd, e;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd == -1 && errno == EINTR);
	if (fd == -1)
		return errno;
	buf = xmalloc(cap);
	for (;;) {
		if (cap - len < 2) {
			if (cap > SIZE_MAX / 2) {
				e = EFBIG;
				goto fail;
			}
			cap *= 2;
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
