/*
 * Private interface between loop.c and its readiness backends
 * (loop_epoll.c, loop_poll.c, loop_uring.c).  Include it only from those three files.
 *
 * loop.c owns the registrations and decides what to ask; a backend only
 * mirrors interest masks into the kernel and reports readiness.  Masks are
 * LOOP_READ/LOOP_WRITE; a mask of 0 means "not in the kernel set", so an
 * fd without interest cannot report hang-ups over and over.
 */
#ifndef HTTPERF_CORE_LOOP_BACKEND_H
#define HTTPERF_CORE_LOOP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

/* One ready fd as reported by a backend. */
struct loop_backend_event {
	int		 fd;
	int		 events;	/* LOOP_READ, LOOP_WRITE, LOOP_ERROR */
	unsigned int	 gen;		/* set by loop.c, not the backend */
};

struct loop_backend_ops {
	const char	*name;

	/* Returns private state, or NULL with a message in errbuf. */
	void		*(*create)(char *errbuf, size_t errlen);

	/* Frees the state from create().  NULL is ok. */
	void		 (*free)(void *be);

	/*
	 * Changes the interest of `fd' from `oldmask' to `newmask' (they
	 * differ): 0 -> x adds, x -> 0 removes, x -> y modifies.  Returns 0,
	 * or -1 with errno set.
	 */
	int		 (*set)(void *be, int fd, int oldmask, int newmask);

	/* Forgets `fd', whose interest was `oldmask' (0: nothing to do). */
	void		 (*del)(void *be, int fd, int oldmask);

	/*
	 * Waits until an fd is ready or `timeout' ns have passed (UINT64_MAX:
	 * no limit; 0: do not block).  `deadline' is the same instant as an
	 * absolute CLOCK_MONOTONIC time, for backends that sleep on a clock.
	 * Writes at most `nev' events and returns how many, or -1 with errno
	 * set (EINTR when a signal cut the wait short).
	 */
	int		 (*poll)(void *be, uint64_t timeout, uint64_t deadline,
			    struct loop_backend_event *ev, size_t nev);
};

#ifdef HAVE_EPOLL_CREATE1
extern const struct loop_backend_ops loop_backend_epoll;
#endif
extern const struct loop_backend_ops loop_backend_poll;
#ifdef HAVE_LIBURING
extern const struct loop_backend_ops loop_backend_uring;
#endif

#endif
