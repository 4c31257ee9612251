/*
 * Portable poll(2) backend for loop.c.
 *
 * The kernel wants one dense pollfd array, so the backend keeps that array
 * plus a map from fd number to array index: changing or removing an fd is
 * O(1), removal moving the last entry into the hole.  ppoll() takes its
 * timeout as a timespec; without it the millisecond timeout of poll() is
 * rounded up, so a timer may fire late but never early.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/loop.h"
#include "core/loop_backend.h"
#include "lib/util.h"

struct loop_poll {
	struct pollfd	*pfds;
	size_t		 npfds;
	size_t		 pfdcap;
	size_t		*index;		/* fd -> pfds position + 1, 0: none */
	size_t		 nindex;
};

static void *
loop_poll_create(char *errbuf, size_t errlen)
{
	return xcalloc(1, sizeof(struct loop_poll));
}

static void
loop_poll_free(void *be)
{
	struct loop_poll *p = be;

	if (p == NULL)
		return;
	free(p->pfds);
	free(p->index);
	free(p);
}

static short
loop_poll_events(int mask)
{
	return (short)(((mask & LOOP_READ) ? POLLIN : 0) |
	    ((mask & LOOP_WRITE) ? POLLOUT : 0));
}

static void
loop_poll_del(void *be, int fd, int oldmask)
{
	struct loop_poll *p = be;
	size_t i, last;

	if (fd < 0 || (size_t)fd >= p->nindex || p->index[fd] == 0)
		return;
	i = p->index[fd] - 1;
	last = p->npfds - 1;
	if (i != last) {
		p->pfds[i] = p->pfds[last];
		p->index[p->pfds[i].fd] = i + 1;
	}
	p->npfds--;
	p->index[fd] = 0;
}

/* Adds, changes or (with newmask 0) removes the pollfd entry of `fd'. */
static int
loop_poll_set(void *be, int fd, int oldmask, int newmask)
{
	struct loop_poll *p = be;
	size_t n;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (newmask == 0) {
		loop_poll_del(be, fd, oldmask);
		return 0;
	}
	if ((size_t)fd >= p->nindex) {
		n = p->nindex * 2 > (size_t)fd ? p->nindex * 2 : (size_t)fd + 1;
		p->index = xreallocarray(p->index, n, sizeof(*p->index));
		memset(p->index + p->nindex, 0,
		    (n - p->nindex) * sizeof(*p->index));
		p->nindex = n;
	}
	if (p->index[fd] == 0) {
		if (p->npfds == p->pfdcap) {
			n = p->pfdcap == 0 ? 64 : p->pfdcap * 2;
			p->pfds = xreallocarray(p->pfds, n, sizeof(*p->pfds));
			p->pfdcap = n;
		}
		p->pfds[p->npfds].fd = fd;
		p->pfds[p->npfds].revents = 0;
		p->index[fd] = ++p->npfds;
	}
	p->pfds[p->index[fd] - 1].events = loop_poll_events(newmask);
	return 0;
}

static int
loop_poll_wait(struct loop_poll *p, uint64_t timeout)
{
#ifdef HAVE_PPOLL
	struct timespec ts;

	ts.tv_sec = (time_t)(timeout / CLOCK_NS_PER_SEC);
	ts.tv_nsec = (long)(timeout % CLOCK_NS_PER_SEC);
	return ppoll(p->pfds, p->npfds, timeout == UINT64_MAX ? NULL : &ts,
	    NULL);
#else
	uint64_t ms;

	if (timeout == UINT64_MAX)
		return poll(p->pfds, p->npfds, -1);
	ms = timeout / CLOCK_NS_PER_MSEC + (timeout % CLOCK_NS_PER_MSEC != 0);
	return poll(p->pfds, p->npfds, ms > INT_MAX ? INT_MAX : (int)ms);
#endif
}

static int
loop_poll_poll(void *be, uint64_t timeout, uint64_t deadline,
    struct loop_backend_event *ev, size_t nev)
{
	struct loop_poll *p = be;
	struct pollfd *pfd;
	size_t i, out;
	int r;

	if ((r = loop_poll_wait(p, timeout)) == -1)
		return -1;
	out = 0;
	for (i = 0; i < p->npfds && r > 0 && out < nev; i++) {
		pfd = &p->pfds[i];
		if (pfd->revents == 0)
			continue;
		r--;
		ev[out].fd = pfd->fd;
		ev[out].events = ((pfd->revents & POLLIN) ? LOOP_READ : 0) |
		    ((pfd->revents & POLLOUT) ? LOOP_WRITE : 0) |
		    ((pfd->revents & (POLLERR | POLLHUP | POLLNVAL)) ?
		    LOOP_ERROR : 0);
		out++;
	}
	return (int)out;
}

const struct loop_backend_ops loop_backend_poll = {
	.name = "poll",
	.create = loop_poll_create,
	.free = loop_poll_free,
	.set = loop_poll_set,
	.del = loop_poll_del,
	.poll = loop_poll_poll,
};
