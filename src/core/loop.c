/*
 * The event loop: owns the fd registrations and the timer wheel, sleeps in
 * a backend until the next deadline or readiness, and dispatches.
 *
 * One turn: sleep (bounded by the earliest timer), read the clock once,
 * call the fd callbacks, fire the due timers, call the on-turn hook.  The
 * registration table is indexed by fd and grows without limit; backends
 * only ever hear about real mask changes.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/loop.h"
#include "core/loop_backend.h"
#include "core/timer.h"
#include "lib/util.h"

#define LOOP_MIN_EVENTS	64

struct loop_reg {
	loop_fd_cb	*cb;
	void		*arg;
	int		 mask;		/* interest: LOOP_READ | LOOP_WRITE */
	int		 used;		/* registered */
	unsigned int	 gen;		/* bumped whenever the owner changes */
};

struct loop {
	const struct loop_backend_ops *ops;
	void		*be;
	struct loop_reg	*regs;		/* indexed by fd */
	size_t		 nregs;
	size_t		 nactive;	/* registrations with a non-zero mask */
	struct loop_backend_event *events;
	size_t		 nevents;
	struct timer_wheel *timers;
	uint64_t	 now;
	uint64_t	 turns;
	loop_turn_cb	*turn_cb;
	void		*turn_arg;
	int		 stop;
	int		 busy;		/* never sleep (loop_busy_poll()) */
};

struct loop *
loop_new(enum loop_backend_kind kind, char *errbuf, size_t errlen)
{
	const struct loop_backend_ops *ops = NULL;
	struct loop *l;
	char dummy[1];
	void *be;

	if (errbuf == NULL || errlen == 0) {
		errbuf = dummy;
		errlen = sizeof(dummy);
	}
	switch (kind) {
	case LOOP_BACKEND_AUTO:
	case LOOP_BACKEND_EPOLL:
#ifdef HAVE_EPOLL_CREATE1
		ops = &loop_backend_epoll;
#else
		if (kind == LOOP_BACKEND_EPOLL) {
			snprintf(errbuf, errlen,
			    "the epoll backend is not compiled in");
			return NULL;
		}
		ops = &loop_backend_poll;
#endif
		break;
	case LOOP_BACKEND_POLL:
		ops = &loop_backend_poll;
		break;
	case LOOP_BACKEND_URING:
#ifdef HAVE_LIBURING
		ops = &loop_backend_uring;
#else
		snprintf(errbuf, errlen,
		    "the io_uring backend is not compiled in (liburing)");
		return NULL;
#endif
		break;
	}
	if (ops == NULL) {
		snprintf(errbuf, errlen, "unknown loop backend %d", (int)kind);
		return NULL;
	}
	if ((be = ops->create(errbuf, errlen)) == NULL)
		return NULL;
	l = xcalloc(1, sizeof(*l));
	l->ops = ops;
	l->be = be;
	l->now = clock_now();
	l->timers = timer_wheel_new(l->now);
	return l;
}

const char *
loop_backend_name(const struct loop *l)
{
	return l->ops->name;
}

void
loop_free(struct loop *l)
{
	if (l == NULL)
		return;
	l->ops->free(l->be);
	timer_wheel_free(l->timers);
	free(l->regs);
	free(l->events);
	free(l);
}

/* Makes the table reach `fd'; new entries are zero (unregistered). */
static void
loop_grow(struct loop *l, int fd)
{
	size_t n;

	if ((size_t)fd < l->nregs)
		return;
	n = l->nregs * 2 > (size_t)fd ? l->nregs * 2 : (size_t)fd + 1;
	if (n < 64)
		n = 64;
	l->regs = xreallocarray(l->regs, n, sizeof(*l->regs));
	memset(l->regs + l->nregs, 0, (n - l->nregs) * sizeof(*l->regs));
	l->nregs = n;
}

/* Tells the backend about a mask change, if it is one, and counts it. */
static int
loop_apply(struct loop *l, struct loop_reg *r, int fd, int mask)
{
	if (r->mask == mask)
		return 0;
	if (l->ops->set(l->be, fd, r->mask, mask) == -1)
		return -1;
	if (r->mask == 0)
		l->nactive++;
	else if (mask == 0)
		l->nactive--;
	r->mask = mask;
	return 0;
}

int
loop_set(struct loop *l, int fd, int mask, loop_fd_cb *cb, void *arg)
{
	struct loop_reg *r;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if ((mask & ~(LOOP_READ | LOOP_WRITE)) != 0 || cb == NULL) {
		errno = EINVAL;
		return -1;
	}
	loop_grow(l, fd);
	r = &l->regs[fd];
	if (loop_apply(l, r, fd, mask) == -1)
		return -1;
	/* Events read for the previous owner must not reach the new one. */
	if (!r->used || r->cb != cb || r->arg != arg)
		r->gen++;
	r->used = 1;
	r->cb = cb;
	r->arg = arg;
	return 0;
}

int
loop_mask(struct loop *l, int fd, int mask)
{
	if (fd < 0 || (size_t)fd >= l->nregs || !l->regs[fd].used) {
		errno = EBADF;
		return -1;
	}
	if ((mask & ~(LOOP_READ | LOOP_WRITE)) != 0) {
		errno = EINVAL;
		return -1;
	}
	return loop_apply(l, &l->regs[fd], fd, mask);
}

void
loop_del(struct loop *l, int fd)
{
	struct loop_reg *r;

	if (fd < 0 || (size_t)fd >= l->nregs || !l->regs[fd].used)
		return;
	r = &l->regs[fd];
	if (r->mask != 0) {
		l->ops->del(l->be, fd, r->mask);
		l->nactive--;
	}
	r->mask = 0;
	r->used = 0;
	r->cb = NULL;
	r->arg = NULL;
	r->gen++;
}

struct timer_wheel *
loop_timers(struct loop *l)
{
	return l->timers;
}

uint64_t
loop_clock(struct loop *l)
{
	uint64_t t = clock_now();

	if (t > l->now)
		l->now = t;
	return l->now;
}

uint64_t
loop_turns(const struct loop *l)
{
	return l->turns;
}

void
loop_on_turn(struct loop *l, loop_turn_cb *cb, void *arg)
{
	l->turn_cb = cb;
	l->turn_arg = arg;
}

void
loop_stop(struct loop *l)
{
	l->stop = 1;
}

void
loop_busy_poll(struct loop *l, int on)
{
	l->busy = on;
}

/*
 * Calls the callbacks of the `n' ready fds.  Any callback may delete,
 * change or re-register any fd and may grow the table, so each event is
 * checked against the table as it is now, never through a saved pointer:
 * the generation recorded right after the wait must still match (else the
 * fd was deleted, and maybe re-registered by a new owner, since), and only
 * events still wanted are passed on.  Reading and writing go together in
 * one call so the callback can read before it writes.
 */
static void
loop_dispatch(struct loop *l, int n)
{
	struct loop_backend_event *ev;
	struct loop_reg *r;
	int i, events;

	for (i = 0; i < n; i++) {
		ev = &l->events[i];
		if (ev->fd >= 0 && (size_t)ev->fd < l->nregs)
			ev->gen = l->regs[ev->fd].gen;
		else
			ev->fd = -1;
	}
	for (i = 0; i < n; i++) {
		ev = &l->events[i];
		if (ev->fd < 0)
			continue;
		r = &l->regs[ev->fd];
		if (!r->used || r->gen != ev->gen || r->mask == 0)
			continue;
		events = ev->events & r->mask;
		if (ev->events & LOOP_ERROR)
			events |= LOOP_ERROR;
		if (events == 0)
			continue;
		r->cb(l, ev->fd, events, r->arg, l->now);
	}
}

/*
 * Linux lets a poll(), ppoll() or epoll_pwait2() sleep end up to 0.1% of
 * its timeout late (0.5% for a niced process, at most 100 ms), a slack
 * that PR_SET_TIMERSLACK does not remove: 2 ms at a 2 s sleep, as much
 * lateness at --rate 0.5.  So a sleep longer than LOOP_EXACT_NS stops
 * short by 1/128 of its length, more than that slack, and the loop sleeps
 * again for the rest: each sleep ends before the deadline, and the last
 * one, under LOOP_EXACT_NS, is late by a microsecond at most.  A 2 s
 * sleep takes three waits; a readiness event ends it as before.
 */
#define LOOP_EXACT_NS		CLOCK_NS_PER_MSEC
#define LOOP_SHORT_SHIFT	7

/* Sleeps until `next' (UINT64_MAX: no timer) or readiness. */
static int
loop_wait(struct loop *l, uint64_t next)
{
	uint64_t t, timeout, nap;
	int n;

	/* Busy polling: a look without waiting, and the turn goes on. */
	if (l->busy)
		return l->ops->poll(l->be, 0, clock_now(), l->events,
		    l->nevents);
	for (;;) {
		t = clock_now();
		if (next == UINT64_MAX)
			timeout = UINT64_MAX;
		else
			timeout = next > t ? next - t : 0;
		nap = timeout;
		if (timeout != UINT64_MAX && timeout > LOOP_EXACT_NS)
			nap = timeout - (timeout >> LOOP_SHORT_SHIFT);
		n = l->ops->poll(l->be, nap,
		    nap == UINT64_MAX ? UINT64_MAX : t + nap,
		    l->events, l->nevents);
		if (n != 0 || nap == timeout)
			return n;
	}
}

/*
 * Turns until stopped or idle.  The sleep is computed against a fresh
 * clock reading, because the previous turn's callbacks took time; the
 * turn's `now' is read once, after the wait.
 */
int
loop_run(struct loop *l)
{
	size_t want;
	int n;

	for (;;) {
		if (l->nactive == 0 && timer_wheel_count(l->timers) == 0)
			return 0;
		want = l->nactive > LOOP_MIN_EVENTS ? l->nactive :
		    LOOP_MIN_EVENTS;
		if (l->nevents < want) {
			l->events = xreallocarray(l->events, want,
			    sizeof(*l->events));
			l->nevents = want;
		}
		n = loop_wait(l, timer_wheel_next(l->timers));
		if (n == -1) {
			if (errno != EINTR)
				return -1;
			n = 0;
		}
		l->now = clock_now();
		l->turns++;
		loop_dispatch(l, n);
		timer_wheel_run(l->timers, l->now);
		if (l->turn_cb != NULL)
			l->turn_cb(l, l->turn_arg, l->now);
		if (l->stop) {
			l->stop = 0;
			return 0;
		}
	}
}
