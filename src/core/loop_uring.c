/*
 * Linux io_uring backend for loop.c (liburing), level-triggered like the
 * epoll one.
 *
 * Each fd with an interest has one single-shot poll request in the ring.
 * Changes of interest and re-arming are only queued as submission
 * entries; the queue goes to the kernel with the wait itself, in one
 * io_uring_enter() a turn, whatever the number of fds that changed: where
 * epoll needs an epoll_ctl() per change and an epoll_wait(), this takes
 * one system call.  A poll request checks the fd's state when it is
 * armed, so an fd that is still readable after its callback fires again
 * at once: the semantics of level triggering, which loop.c and the
 * connections rely on.
 *
 * Completions carry the fd and a generation in their user data; the
 * generation moves on whenever an fd's request is cancelled, so a
 * completion of a request cancelled or of an fd closed and reused is
 * recognised and dropped.  The kernel may refuse io_uring (an old kernel,
 * a seccomp policy, io_uring_disabled): create then fails and loop.c
 * falls back to epoll.
 */
#include "config.h"

#ifdef HAVE_LIBURING

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <liburing.h>

#include "core/loop.h"
#include "core/loop_backend.h"
#include "lib/util.h"

/* Submission queue entries; the completion queue is twice as long, and
   the kernel keeps what overflows it (IORING_FEAT_NODROP). */
#define LOOP_URING_ENTRIES	4096

/* User data of the requests whose completions say nothing (removals). */
#define LOOP_URING_IGNORE	UINT64_MAX

struct loop_uring_fd {
	unsigned int	 gen;		/* of the armed request */
	int		 mask;		/* interest */
	int		 armed;		/* a poll request is in the ring */
	int		 fired;		/* on the re-arm list */
};

struct loop_uring {
	struct io_uring	 ring;
	struct loop_uring_fd *fds;	/* indexed by fd */
	size_t		 nfds;
	int		*rearm;		/* fds whose request fired */
	size_t		 nrearm, caprearm;
};

/*
 * Set-up flags, best first; a kernel that does not know one refuses it
 * with EINVAL and the next is tried.  Completions of poll requests are
 * posted by "task work" run in this thread: by default the kernel
 * interrupts the thread for it whenever a poll fires (an inter-processor
 * interrupt and a trip through the signal path each time), which made this
 * backend cost half as much CPU again as epoll per request.  With
 * DEFER_TASKRUN (Linux 6.1; needs SINGLE_ISSUER, one thread submitting:
 * ours) the work waits until the thread asks for completions, in
 * io_uring_enter() at the wait; COOP_TASKRUN (5.19) at least spares the
 * interrupt.
 */
static const unsigned loop_uring_flags[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

static void *
loop_uring_create(char *errbuf, size_t errlen)
{
	struct io_uring_params p;
	struct loop_uring *u;
	size_t i;
	int e = -EINVAL;

	u = xcalloc(1, sizeof(*u));
	for (i = 0; i < nitems(loop_uring_flags); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_CQSIZE | loop_uring_flags[i];
		p.cq_entries = 2 * LOOP_URING_ENTRIES;
		e = io_uring_queue_init_params(LOOP_URING_ENTRIES, &u->ring,
		    &p);
		if (e != -EINVAL)
			break;
	}
	if (e < 0) {
		snprintf(errbuf, errlen, "io_uring_setup: %s", strerror(-e));
		free(u);
		return NULL;
	}
	if (!(p.features & IORING_FEAT_NODROP)) {
		snprintf(errbuf, errlen, "io_uring: the kernel may drop "
		    "completions (no IORING_FEAT_NODROP)");
		io_uring_queue_exit(&u->ring);
		free(u);
		return NULL;
	}
	return u;
}

static void
loop_uring_free(void *be)
{
	struct loop_uring *u = be;

	if (u == NULL)
		return;
	io_uring_queue_exit(&u->ring);
	free(u->fds);
	free(u->rearm);
	free(u);
}

static struct loop_uring_fd *
loop_uring_fd(struct loop_uring *u, int fd)
{
	size_t n;

	if ((size_t)fd >= u->nfds) {
		n = u->nfds * 2 > (size_t)fd ? u->nfds * 2 : (size_t)fd + 1;
		if (n < 64)
			n = 64;
		u->fds = xreallocarray(u->fds, n, sizeof(*u->fds));
		memset(u->fds + u->nfds, 0, (n - u->nfds) * sizeof(*u->fds));
		u->nfds = n;
	}
	return &u->fds[fd];
}

/*
 * A free submission entry: when the queue is full, what it holds goes to
 * the kernel first.  NULL only if the kernel takes none of it.
 */
static struct io_uring_sqe *
loop_uring_sqe(struct loop_uring *u)
{
	struct io_uring_sqe *sqe;

	if ((sqe = io_uring_get_sqe(&u->ring)) != NULL)
		return sqe;
	if (io_uring_submit(&u->ring) < 0)
		return NULL;
	return io_uring_get_sqe(&u->ring);
}

static uint64_t
loop_uring_token(int fd, unsigned int gen)
{
	return (uint64_t)gen << 32 | (uint32_t)fd;
}

/* Queues the poll request of fd for its interest. */
static int
loop_uring_arm(struct loop_uring *u, int fd, struct loop_uring_fd *f)
{
	struct io_uring_sqe *sqe;
	unsigned events = 0;

	if ((sqe = loop_uring_sqe(u)) == NULL) {
		errno = EBUSY;
		return -1;
	}
	if (f->mask & LOOP_READ)
		events |= POLLIN;
	if (f->mask & LOOP_WRITE)
		events |= POLLOUT;
	io_uring_prep_poll_add(sqe, fd, events);
	io_uring_sqe_set_data64(sqe, loop_uring_token(fd, f->gen));
	f->armed = 1;
	return 0;
}

/* Queues the cancellation of fd's armed request, whose completions are
   then ignored. */
static void
loop_uring_disarm(struct loop_uring *u, int fd, struct loop_uring_fd *f)
{
	struct io_uring_sqe *sqe;

	if (!f->armed)
		return;
	if ((sqe = loop_uring_sqe(u)) != NULL) {
		io_uring_prep_poll_remove(sqe, loop_uring_token(fd, f->gen));
		io_uring_sqe_set_data64(sqe, LOOP_URING_IGNORE);
	}
	f->gen++;
	f->armed = 0;
}

static int
loop_uring_set(void *be, int fd, int oldmask, int newmask)
{
	struct loop_uring *u = be;
	struct loop_uring_fd *f = loop_uring_fd(u, fd);

	(void)oldmask;
	loop_uring_disarm(u, fd, f);
	f->mask = newmask;
	if (newmask == 0 || f->fired)
		return 0;	/* a fired fd is armed again before the wait */
	return loop_uring_arm(u, fd, f);
}

static void
loop_uring_del(void *be, int fd, int oldmask)
{
	struct loop_uring *u = be;
	struct loop_uring_fd *f;

	(void)oldmask;
	if ((size_t)fd >= u->nfds)
		return;
	f = &u->fds[fd];
	loop_uring_disarm(u, fd, f);
	f->mask = 0;
}

/* Arms again the fds whose request fired, if they still want events. */
static void
loop_uring_rearm(struct loop_uring *u)
{
	struct loop_uring_fd *f;
	size_t i;
	int fd;

	for (i = 0; i < u->nrearm; i++) {
		fd = u->rearm[i];
		f = &u->fds[fd];
		f->fired = 0;
		if (f->mask != 0 && !f->armed)
			(void)loop_uring_arm(u, fd, f);
	}
	u->nrearm = 0;
}

static int
loop_uring_poll(void *be, uint64_t timeout, uint64_t deadline,
    struct loop_backend_event *ev, size_t nev)
{
	struct loop_uring *u = be;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	struct loop_uring_fd *f;
	unsigned head, seen = 0;
	uint64_t data;
	size_t n = 0;
	int e, fd;

	(void)deadline;
	loop_uring_rearm(u);
	if (timeout == 0)
		e = io_uring_submit_and_get_events(&u->ring);
	else if (timeout == UINT64_MAX)
		e = io_uring_submit_and_wait(&u->ring, 1);
	else {
		ts.tv_sec = (long long)(timeout / 1000000000);
		ts.tv_nsec = (long long)(timeout % 1000000000);
		e = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts,
		    NULL);
		if (e == -ETIME)
			e = 0;
	}
	if (e < 0 && e != -EINTR && e != -EAGAIN && e != -EBUSY) {
		errno = -e;
		return -1;
	}
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		if (n == nev)
			break;
		seen++;
		data = io_uring_cqe_get_data64(cqe);
		if (data == LOOP_URING_IGNORE)
			continue;
		fd = (int)(uint32_t)data;
		if ((size_t)fd >= u->nfds)
			continue;
		f = &u->fds[fd];
		if ((unsigned int)(data >> 32) != f->gen || !f->armed)
			continue;	/* cancelled, or an earlier owner's */
		f->armed = 0;
		ev[n].fd = fd;
		ev[n].events = 0;
		if (cqe->res < 0)
			ev[n].events = LOOP_ERROR;
		else {
			if (cqe->res & (POLLIN | POLLHUP | POLLRDHUP))
				ev[n].events |= LOOP_READ;
			if (cqe->res & POLLOUT)
				ev[n].events |= LOOP_WRITE;
			if (cqe->res & (POLLERR | POLLHUP))
				ev[n].events |= LOOP_ERROR;
		}
		n++;
		if (!f->fired) {
			f->fired = 1;
			if (u->nrearm == u->caprearm) {
				u->caprearm = u->caprearm > 0 ?
				    2 * u->caprearm : 64;
				u->rearm = xreallocarray(u->rearm,
				    u->caprearm, sizeof(*u->rearm));
			}
			u->rearm[u->nrearm++] = fd;
		}
	}
	io_uring_cq_advance(&u->ring, seen);
	if (n == 0 && e == -EINTR) {
		errno = EINTR;
		return -1;
	}
	return (int)n;
}

const struct loop_backend_ops loop_backend_uring = {
	.name = "io_uring",
	.create = loop_uring_create,
	.free = loop_uring_free,
	.set = loop_uring_set,
	.del = loop_uring_del,
	.poll = loop_uring_poll,
};

#endif /* HAVE_LIBURING */
