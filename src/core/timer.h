/*
 * Hierarchical timer wheel on monotonic nanoseconds.
 *
 * Timers are embedded in their owners (connections, generators), so arming
 * one never allocates.  Add and cancel are O(1).  A timer fires no earlier
 * than its deadline; timer_wheel_next() tells the loop how long it may sleep.
 */
#ifndef HTTPERF_CORE_TIMER_H
#define HTTPERF_CORE_TIMER_H

#include <stddef.h>
#include <stdint.h>

struct timer;
struct timer_wheel;

/* Called when a timer expires; `now' is the time passed to the run. */
typedef void timer_cb(struct timer *t, uint64_t now);

/*
 * A timer.  Fields are private to timer.c; embed the struct and recover the
 * owner with containerof() in the callback.  `_wheel' is the wheel the timer
 * is armed in (NULL when not armed): timer_cancel() takes no wheel argument
 * but must still keep the wheel's count and slot bitmaps exact.
 */
struct timer {
	struct timer	*_next;
	struct timer	*_prev;
	uint64_t	 _expire;
	timer_cb	*_cb;
	struct timer_wheel *_wheel;
};

/*
 * Prepares a timer that is not armed.  Must be called once before use;
 * `cb' must not be NULL.
 */
void		timer_init(struct timer *t, timer_cb *cb);

/* Returns non-zero when the timer is armed (added and not yet fired). */
int		timer_is_armed(const struct timer *t);

/* Returns the absolute deadline of an armed timer. */
uint64_t	timer_expire(const struct timer *t);

/* Creates a wheel whose clock starts at `now'.  Never returns NULL. */
struct timer_wheel *timer_wheel_new(uint64_t now);

/*
 * Frees the wheel.  Timers still armed are disarmed without firing, so
 * cancelling them afterwards is harmless.  NULL is ok.
 */
void		timer_wheel_free(struct timer_wheel *w);

/*
 * Arms `t' to fire at the absolute time `expire' (ns).  An armed timer is
 * moved.  A deadline in the past fires on the next timer_wheel_run().
 */
void		timer_add(struct timer_wheel *w, struct timer *t,
		    uint64_t expire);

/* Disarms `t'.  Harmless on a timer that is not armed. */
void		timer_cancel(struct timer *t);

/*
 * Returns a time at or before the earliest armed deadline (the deadline
 * itself unless the earliest slot is crowded), or UINT64_MAX when nothing
 * is armed.  After timer_wheel_run(w, now) it is > now unless
 * a timer is already due, so a loop that sleeps until it never spins.
 */
uint64_t	timer_wheel_next(const struct timer_wheel *w);

/*
 * Fires, in deadline order, every timer whose deadline is <= now.  Callbacks
 * may add and cancel any timer, including their own; a timer added during
 * the run with a deadline <= now fires in the same run.  Returns the number
 * of timers fired.
 */
size_t		timer_wheel_run(struct timer_wheel *w, uint64_t now);

/* Returns the number of armed timers. */
size_t		timer_wheel_count(const struct timer_wheel *w);

#endif
