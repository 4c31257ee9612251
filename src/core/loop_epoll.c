/*
 * Linux epoll(7) backend for loop.c, level-triggered.
 *
 * epoll_wait() counts its timeout in milliseconds, too coarse for a load
 * generator that paces requests in microseconds.  So the wait uses
 * epoll_pwait2() and its timespec when the C library has it and the kernel
 * accepts it (Linux 5.11+; ENOSYS switches it off for good).  Otherwise a
 * CLOCK_MONOTONIC timerfd armed at the absolute deadline sits in the epoll
 * set and epoll_wait() sleeps without a timeout until it or an fd is ready.
 * Without timerfd either, the millisecond timeout is rounded up, so a timer
 * may fire late but never early.
 */
#include "config.h"

#ifdef HAVE_EPOLL_CREATE1

#include <sys/epoll.h>
#ifdef HAVE_TIMERFD_CREATE
#include <sys/timerfd.h>
#endif

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/loop.h"
#include "core/loop_backend.h"
#include "lib/util.h"

/* epoll_event.data of the timerfd; user fds store their (>= 0) number. */
#define LOOP_EPOLL_TIMER	UINT64_MAX

struct loop_epoll {
	int			 epfd;
	int			 tfd;	/* -1 until the fallback needs it */
	int			 pwait2; /* epoll_pwait2() still usable */
	uint64_t		 armed;	/* timerfd deadline, UINT64_MAX: none */
	struct epoll_event	*evs;
	size_t			 nevs;
};

static void *
loop_epoll_create(char *errbuf, size_t errlen)
{
	struct loop_epoll *e;
	int fd;

	if ((fd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		snprintf(errbuf, errlen, "epoll_create1: %s", strerror(errno));
		return NULL;
	}
	e = xcalloc(1, sizeof(*e));
	e->epfd = fd;
	e->tfd = -1;
#ifdef HAVE_EPOLL_PWAIT2
	e->pwait2 = 1;
#endif
	e->armed = UINT64_MAX;
	return e;
}

/* Close errors are ignored: nothing is left that could be retried. */
static void
loop_epoll_free(void *be)
{
	struct loop_epoll *e = be;

	if (e == NULL)
		return;
	if (e->tfd != -1)
		(void)close(e->tfd);
	(void)close(e->epfd);
	free(e->evs);
	free(e);
}

static uint32_t
loop_epoll_events(int mask)
{
	return ((mask & LOOP_READ) ? EPOLLIN : 0) |
	    ((mask & LOOP_WRITE) ? EPOLLOUT : 0);
}

static void
loop_epoll_del(void *be, int fd, int oldmask)
{
	struct loop_epoll *e = be;

	if (oldmask == 0)
		return;
	/*
	 * ENOENT and EBADF mean the fd already left the set (closed before
	 * loop_del); there is nothing else an error could mean here.
	 */
	(void)epoll_ctl(e->epfd, EPOLL_CTL_DEL, fd, NULL);
}

/*
 * Mirrors a mask change into the epoll set.  An fd closed and reopened
 * behind the loop's back is out of the set (MOD gives ENOENT) or still in
 * it (ADD gives EEXIST); either way the other operation fixes it.
 */
static int
loop_epoll_set(void *be, int fd, int oldmask, int newmask)
{
	struct loop_epoll *e = be;
	struct epoll_event ev;
	int op;

	if (newmask == 0) {
		loop_epoll_del(be, fd, oldmask);
		return 0;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = loop_epoll_events(newmask);
	ev.data.u64 = (uint64_t)fd;
	op = oldmask == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
	if (epoll_ctl(e->epfd, op, fd, &ev) == 0)
		return 0;
	if (op == EPOLL_CTL_MOD && errno == ENOENT)
		op = EPOLL_CTL_ADD;
	else if (op == EPOLL_CTL_ADD && errno == EEXIST)
		op = EPOLL_CTL_MOD;
	else
		return -1;
	return epoll_ctl(e->epfd, op, fd, &ev);
}

#if defined(HAVE_EPOLL_PWAIT2) || defined(HAVE_TIMERFD_CREATE)
static struct timespec
loop_epoll_timespec(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / CLOCK_NS_PER_SEC);
	ts.tv_nsec = (long)(ns % CLOCK_NS_PER_SEC);
	return ts;
}
#endif

#ifdef HAVE_TIMERFD_CREATE
/* Creates the fallback timerfd and puts it in the epoll set. */
static int
loop_epoll_timer_open(struct loop_epoll *e)
{
	struct epoll_event ev;
	int fd;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fd == -1)
		return -1;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u64 = LOOP_EPOLL_TIMER;
	if (epoll_ctl(e->epfd, EPOLL_CTL_ADD, fd, &ev) == -1) {
		(void)close(fd);
		return -1;
	}
	e->tfd = fd;
	return 0;
}

/* Arms the timerfd at `deadline' (UINT64_MAX disarms); skips no-ops. */
static int
loop_epoll_timer_arm(struct loop_epoll *e, uint64_t deadline)
{
	struct itimerspec its;

	if (deadline == e->armed)
		return 0;
	if (e->tfd == -1 && loop_epoll_timer_open(e) == -1)
		return -1;
	memset(&its, 0, sizeof(its));
	/* An all-zero it_value would disarm; 1 ns is just as past. */
	if (deadline != UINT64_MAX)
		its.it_value = loop_epoll_timespec(deadline > 0 ? deadline : 1);
	if (timerfd_settime(e->tfd, TFD_TIMER_ABSTIME, &its, NULL) == -1)
		return -1;
	e->armed = deadline;
	return 0;
}

/* Consumes an expiry so the level-triggered timerfd stops reporting. */
static int
loop_epoll_timer_drain(struct loop_epoll *e)
{
	uint64_t ticks;

	e->armed = UINT64_MAX;
	for (;;) {
		if (read(e->tfd, &ticks, sizeof(ticks)) != -1)
			return 0;
		if (errno == EAGAIN)
			return 0;
		if (errno != EINTR)
			return -1;
	}
}
#endif

/* Waits with epoll_wait(), which has no timespec variant of its timeout. */
static int
loop_epoll_wait_ms(struct loop_epoll *e, uint64_t timeout, uint64_t deadline,
    int n)
{
#ifndef HAVE_TIMERFD_CREATE
	uint64_t ms;
#endif

	if (timeout == 0)
		return epoll_wait(e->epfd, e->evs, n, 0);
#ifdef HAVE_TIMERFD_CREATE
	if (loop_epoll_timer_arm(e, deadline) == -1)
		return -1;
	return epoll_wait(e->epfd, e->evs, n, -1);
#else
	if (timeout == UINT64_MAX)
		return epoll_wait(e->epfd, e->evs, n, -1);
	ms = timeout / CLOCK_NS_PER_MSEC + (timeout % CLOCK_NS_PER_MSEC != 0);
	return epoll_wait(e->epfd, e->evs, n, ms > INT_MAX ? INT_MAX : (int)ms);
#endif
}

static int
loop_epoll_poll(void *be, uint64_t timeout, uint64_t deadline,
    struct loop_backend_event *ev, size_t nev)
{
	struct loop_epoll *e = be;
	struct epoll_event *p;
	size_t want;
	int i, n, r, out;

	/* One more than asked for: the timerfd may take a place. */
	want = nev + 1 > INT_MAX ? INT_MAX : nev + 1;
	if (e->nevs < want) {
		e->evs = xreallocarray(e->evs, want, sizeof(*e->evs));
		e->nevs = want;
	}
	n = (int)want;
	r = -1;
#ifdef HAVE_EPOLL_PWAIT2
	if (e->pwait2) {
		struct timespec ts = loop_epoll_timespec(timeout);

		r = epoll_pwait2(e->epfd, e->evs, n,
		    timeout == UINT64_MAX ? NULL : &ts, NULL);
		if (r == -1 && errno == ENOSYS)
			e->pwait2 = 0;
	}
	if (!e->pwait2)
#endif
		r = loop_epoll_wait_ms(e, timeout, deadline, n);
	if (r == -1)
		return -1;
	out = 0;
	for (i = 0; i < r && (size_t)out < nev; i++) {
		p = &e->evs[i];
#ifdef HAVE_TIMERFD_CREATE
		if (p->data.u64 == LOOP_EPOLL_TIMER) {
			if (loop_epoll_timer_drain(e) == -1)
				return -1;
			continue;
		}
#endif
		ev[out].fd = (int)p->data.u64;
		ev[out].events = ((p->events & EPOLLIN) ? LOOP_READ : 0) |
		    ((p->events & EPOLLOUT) ? LOOP_WRITE : 0) |
		    ((p->events & (EPOLLERR | EPOLLHUP)) ? LOOP_ERROR : 0);
		out++;
	}
	return out;
}

const struct loop_backend_ops loop_backend_epoll = {
	.name = "epoll",
	.create = loop_epoll_create,
	.free = loop_epoll_free,
	.set = loop_epoll_set,
	.del = loop_epoll_del,
	.poll = loop_epoll_poll,
};

#endif /* HAVE_EPOLL_CREATE1 */
