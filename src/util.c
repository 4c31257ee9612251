/*
 * Allocation wrappers.  Running out of memory in a load generator leaves
 * nothing trustworthy to report, so these print one line and exit.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
