/*
 * The event loop: file descriptor readiness plus the timer wheel.
 *
 * One loop per process.  Backends (epoll, poll) sit behind a private
 * interface (loop_backend.h); both are compiled on Linux and chosen at
 * run time.  The loop sleeps until the next timer deadline and wakes
 * within microseconds of it, however long the sleep (the kernel's
 * slack on long timeouts is worked around in loop.c), and never
 * busy-polls unless asked to (loop_busy_poll()).
 */
#ifndef HTTPERF_CORE_LOOP_H
#define HTTPERF_CORE_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "core/timer.h"

#define LOOP_READ	0x1	/* interest in / readiness for reading */
#define LOOP_WRITE	0x2	/* interest in / readiness for writing */
#define LOOP_ERROR	0x4	/* reported only: error or hang-up on the fd */

enum loop_backend_kind {
	LOOP_BACKEND_AUTO,	/* the best one compiled in: epoll, else poll */
	LOOP_BACKEND_EPOLL,
	LOOP_BACKEND_POLL,
	LOOP_BACKEND_URING,	/* io_uring (liburing), when compiled in */
};

/* The name of the backend a loop runs on ("epoll", "poll", "io_uring"). */
struct loop;
const char	*loop_backend_name(const struct loop *l);

struct loop;

/*
 * Called when `fd' is ready.  `events' is a mask of LOOP_READ, LOOP_WRITE
 * and LOOP_ERROR; LOOP_ERROR may come with or without the others.  The
 * callback may change or delete any registration, including its own.
 */
typedef void loop_fd_cb(struct loop *l, int fd, int events, void *arg,
    uint64_t now);

/* Called once per loop turn, after fd dispatch and timers. */
typedef void loop_turn_cb(struct loop *l, void *arg, uint64_t now);

/*
 * Creates a loop with the given backend.  Returns NULL and writes a
 * message into errbuf when the backend is not available or fails.
 */
struct loop	*loop_new(enum loop_backend_kind kind, char *errbuf,
		    size_t errlen);

/* Frees the loop (not the fds registered in it).  NULL is ok. */
void		 loop_free(struct loop *l);

/*
 * Registers `fd' or changes its registration: `mask' is LOOP_READ and/or
 * LOOP_WRITE (0 keeps the fd registered with no interest).  The backend
 * is told only when the mask really changes.  No limit on fd numbers.
 * Returns 0, or -1 with errno set.
 */
int		 loop_set(struct loop *l, int fd, int mask, loop_fd_cb *cb,
		    void *arg);

/* Changes only the interest mask of a registered fd.  Returns 0 or -1. */
int		 loop_mask(struct loop *l, int fd, int mask);

/* Forgets `fd'.  Call before close(fd).  Harmless if not registered. */
void		 loop_del(struct loop *l, int fd);

/* Returns the timer wheel driven by this loop. */
struct timer_wheel *loop_timers(struct loop *l);

/*
 * Reads the clock now, makes it the turn's time from here on, and
 * returns it.  For the moments that are measured (a phase of a call or
 * connection ending): the time read after the wait is stale by whatever
 * the callbacks before took.
 */
uint64_t	 loop_clock(struct loop *l);

/* Returns the number of turns run so far. */
uint64_t	 loop_turns(const struct loop *l);

/* Sets the callback run at the end of every turn (NULL to remove). */
void		 loop_on_turn(struct loop *l, loop_turn_cb *cb, void *arg);

/*
 * Runs until loop_stop() is called, or until nothing is left to wait for
 * (no fd with interest and no timer).  A signal interrupts the sleep and
 * ends the turn early.  Returns 0, or -1 with errno on a backend failure.
 */
int		 loop_run(struct loop *l);

/* Makes loop_run() return at the end of the current turn. */
void		 loop_stop(struct loop *l);

/*
 * With `on', the loop never sleeps (--busy-poll): every turn asks the
 * backend for readiness without waiting, and a turn with nothing ready
 * fires the timers due and the on-turn hook as any other, so a signal
 * still ends the run.  Reaction to readiness within a turn's time, at
 * the cost of a whole CPU.
 */
void		 loop_busy_poll(struct loop *l, int on);

#endif
