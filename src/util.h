/*
 * Small helpers shared by every module: array size, container_of, and
 * allocation wrappers that never return NULL.
 */
#ifndef HTTPERF_UTIL_H
#define HTTPERF_UTIL_H

#include <stddef.h>

#ifndef nitems
#define nitems(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Recovers a pointer to the struct that embeds `ptr' as `member'. */
#define containerof(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * Allocation that cannot fail: on exhaustion a message goes to stderr and
 * the process exits with status 1 (nothing sensible can be measured then).
 */
void	*xmalloc(size_t size);
void	*xcalloc(size_t n, size_t size);
void	*xrealloc(void *p, size_t size);
void	*xreallocarray(void *p, size_t n, size_t size);
char	*xstrdup(const char *s);

/*
 * Reads all of `path', whatever its size or content, into a new buffer
 * (*out, freed by the caller) of *outlen bytes followed by a NUL.  Returns
 * 0 or an errno value.
 */
int	util_read_file(const char *path, char **out, size_t *outlen);

#endif
