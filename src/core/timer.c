/*
 * Hierarchical timer wheel: decides which timers are due and fires them in
 * deadline order.
 *
 * Time is cut into ticks of 1024 ns.  Level 0 has 64 slots one tick wide;
 * every level above has 64 slots, each as wide as the whole level below, so
 * seven levels reach 2^42 ticks (about 52 days) past the wheel's current
 * tick.  A timer sits at the lowest level where its tick differs from the
 * current tick, in the slot named by its tick's 6 bits at that level; a
 * deadline at or before the current tick goes to the current level-0 slot.
 * Deadlines beyond the top level are parked on an overflow list and re-filed
 * whenever the current tick enters a new top-level range.
 *
 * Each slot is a circular doubly linked list through the timers themselves
 * with a sentinel head, so add and cancel are O(1) and never allocate; a
 * 64-bit occupancy bitmap per level lets run and next skip empty slots with
 * one count-trailing-zeros.  The bitmaps are kept exact: unlinking the last
 * timer of a slot leaves the sentinel alone in the list, and the sentinel
 * knows its wheel and slot number.
 *
 * Invariant between calls: a timer at level L > 0 agrees with the current
 * tick on every bit above level L and is strictly later at level L; so a
 * level's slot at the current tick's index is empty, every level-L timer is
 * later than every level-(L-1) timer, and advancing the current tick into a
 * level-L slot only needs that slot re-filed ("cascaded") downwards.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/timer.h"
#include "lib/util.h"

#define TIMER_TICK_SHIFT	10	/* a level-0 slot is 1024 ns wide */
#define TIMER_SLOT_BITS		6
#define TIMER_NSLOTS		(1 << TIMER_SLOT_BITS)
#define TIMER_SLOT_MASK		((uint64_t)TIMER_NSLOTS - 1)
#define TIMER_NLEVELS		7
#define TIMER_SPAN_BITS		(TIMER_SLOT_BITS * TIMER_NLEVELS)
#define TIMER_NOSLOT		UINT64_MAX	/* id of a list without a bit */
#define TIMER_SCAN_MAX		64	/* longest list next() scans */

_Static_assert(TIMER_NSLOTS == 64, "occupancy bitmaps are one uint64_t");
_Static_assert(TIMER_SPAN_BITS + TIMER_TICK_SHIFT < 64,
    "the top level must not cover the whole clock");

struct timer_wheel {
	uint64_t	 bitmap[TIMER_NLEVELS];
	struct timer	 slots[TIMER_NLEVELS][TIMER_NSLOTS];
	struct timer	 overflow;	/* deadlines beyond the top level */
	uint64_t	 tick;		/* the current tick */
	uint64_t	 now;		/* latest time given to new or run */
	size_t		 count;		/* armed timers */
};

/*
 * The callback of every sentinel.  It is never called; comparing against it
 * tells a list head from a timer.
 */
static void
timer_sentinel(struct timer *t, uint64_t now)
{
	abort();
}

/* Makes `head' an empty list; `id' is its slot number or TIMER_NOSLOT. */
static void
timer_list_init(struct timer *head, struct timer_wheel *w, uint64_t id)
{
	head->_next = head;
	head->_prev = head;
	head->_expire = id;
	head->_cb = timer_sentinel;
	head->_wheel = w;
}

static int
timer_list_empty(const struct timer *head)
{
	return head->_next == head;
}

static void
timer_list_append(struct timer *head, struct timer *t)
{
	t->_prev = head->_prev;
	t->_next = head;
	head->_prev->_next = t;
	head->_prev = t;
}

/* Moves every timer of `src' to the empty list `dst', keeping the order. */
static void
timer_list_move(struct timer *dst, struct timer *src)
{
	if (timer_list_empty(src))
		return;
	dst->_next = src->_next;
	dst->_prev = src->_prev;
	dst->_next->_prev = dst;
	dst->_prev->_next = dst;
	src->_next = src;
	src->_prev = src;
}

static void
timer_bit_set(struct timer_wheel *w, uint64_t id)
{
	w->bitmap[id / TIMER_NSLOTS] |= UINT64_C(1) << (id % TIMER_NSLOTS);
}

static void
timer_bit_clear(struct timer_wheel *w, uint64_t id)
{
	w->bitmap[id / TIMER_NSLOTS] &= ~(UINT64_C(1) << (id % TIMER_NSLOTS));
}

/* Takes `t' out of its list; clears the slot's bit if it is now empty. */
static void
timer_unlink(struct timer *t)
{
	struct timer *prev = t->_prev, *next = t->_next;

	prev->_next = next;
	next->_prev = prev;
	t->_next = NULL;
	t->_prev = NULL;
	if (prev == next && prev->_cb == timer_sentinel &&
	    prev->_expire != TIMER_NOSLOT)
		timer_bit_clear(prev->_wheel, prev->_expire);
}

/* Files an armed, unlinked timer according to the current tick. */
static void
timer_wheel_place(struct timer_wheel *w, struct timer *t)
{
	uint64_t at = t->_expire >> TIMER_TICK_SHIFT, id;
	int level;

	if (at <= w->tick)
		id = w->tick & TIMER_SLOT_MASK;
	else {
		level = (63 - __builtin_clzll(at ^ w->tick)) / TIMER_SLOT_BITS;
		if (level >= TIMER_NLEVELS) {
			timer_list_append(&w->overflow, t);
			return;
		}
		id = (uint64_t)level * TIMER_NSLOTS +
		    ((at >> (level * TIMER_SLOT_BITS)) & TIMER_SLOT_MASK);
	}
	timer_list_append(&w->slots[id / TIMER_NSLOTS][id % TIMER_NSLOTS], t);
	timer_bit_set(w, id);
}

/* Re-files every timer of `head' (a slot or the overflow list). */
static void
timer_wheel_refile(struct timer_wheel *w, struct timer *head)
{
	struct timer tmp, *t;

	timer_list_init(&tmp, w, TIMER_NOSLOT);
	timer_list_move(&tmp, head);
	if (head->_expire != TIMER_NOSLOT)
		timer_bit_clear(w, head->_expire);
	while (!timer_list_empty(&tmp)) {
		t = tmp._next;
		timer_unlink(t);
		timer_wheel_place(w, t);
	}
}

void
timer_init(struct timer *t, timer_cb *cb)
{
	t->_next = NULL;
	t->_prev = NULL;
	t->_expire = 0;
	t->_cb = cb;
	t->_wheel = NULL;
}

int
timer_is_armed(const struct timer *t)
{
	return t->_wheel != NULL;
}

uint64_t
timer_expire(const struct timer *t)
{
	return t->_expire;
}

struct timer_wheel *
timer_wheel_new(uint64_t now)
{
	struct timer_wheel *w;
	int level, slot;

	w = xcalloc(1, sizeof(*w));
	for (level = 0; level < TIMER_NLEVELS; level++)
		for (slot = 0; slot < TIMER_NSLOTS; slot++)
			timer_list_init(&w->slots[level][slot], w,
			    (uint64_t)level * TIMER_NSLOTS + slot);
	timer_list_init(&w->overflow, w, TIMER_NOSLOT);
	w->tick = now >> TIMER_TICK_SHIFT;
	w->now = now;
	return w;
}

/* Disarms what is still armed, so a later timer_cancel() stays harmless. */
static void
timer_list_forget(struct timer *head)
{
	struct timer *t, *next;

	for (t = head->_next; t != head; t = next) {
		next = t->_next;
		t->_next = NULL;
		t->_prev = NULL;
		t->_wheel = NULL;
	}
}

void
timer_wheel_free(struct timer_wheel *w)
{
	int level, slot;

	if (w == NULL)
		return;
	for (level = 0; level < TIMER_NLEVELS; level++)
		for (slot = 0; slot < TIMER_NSLOTS; slot++)
			timer_list_forget(&w->slots[level][slot]);
	timer_list_forget(&w->overflow);
	free(w);
}

void
timer_add(struct timer_wheel *w, struct timer *t, uint64_t expire)
{
	timer_cancel(t);
	t->_expire = expire;
	t->_wheel = w;
	w->count++;
	timer_wheel_place(w, t);
}

void
timer_cancel(struct timer *t)
{
	if (t->_wheel == NULL)
		return;
	timer_unlink(t);
	t->_wheel->count--;
	t->_wheel = NULL;
}

/*
 * Returns the smallest deadline in `head', or `bound' if the list is longer
 * than TIMER_SCAN_MAX (so a crowded slot costs no more than a short one).
 * A deadline at or before `due' ends the scan early: nothing can be sooner
 * than "already due".
 */
static uint64_t
timer_list_min(const struct timer *head, uint64_t bound, uint64_t due,
    int capped)
{
	const struct timer *t;
	uint64_t min = UINT64_MAX;
	int n = 0;

	for (t = head->_next; t != head; t = t->_next) {
		if (capped && ++n > TIMER_SCAN_MAX)
			return bound;
		if (t->_expire < min)
			min = t->_expire;
		if (min <= due)
			break;
	}
	return min;
}

/*
 * The first occupied slot, searching levels upwards, holds the earliest
 * deadline.  The current level-0 slot is scanned in full, because it may
 * mix timers already due with ones later in the tick and only its minimum
 * is a bound that is both correct and past the last run's `now'.  Other
 * slots start after that `now', so their start is a valid fallback bound.
 */
uint64_t
timer_wheel_next(const struct timer_wheel *w)
{
	uint64_t bits, idx, start, top;
	int level, shift, s;

	if (w->count == 0)
		return UINT64_MAX;
	for (level = 0; level < TIMER_NLEVELS; level++) {
		shift = level * TIMER_SLOT_BITS;
		idx = (w->tick >> shift) & TIMER_SLOT_MASK;
		bits = w->bitmap[level] & (~UINT64_C(0) << idx);
		if (bits == 0)
			continue;
		s = __builtin_ctzll(bits);
		if (level == 0 && (uint64_t)s == idx)
			return timer_list_min(&w->slots[0][s], 0, w->now, 0);
		start = (w->tick >> (shift + TIMER_SLOT_BITS)
		    << (shift + TIMER_SLOT_BITS)) | ((uint64_t)s << shift);
		return timer_list_min(&w->slots[level][s],
		    start << TIMER_TICK_SHIFT, 0, 1);
	}
	top = (w->tick >> TIMER_SPAN_BITS) + 1;
	if (top >= UINT64_C(1) << (64 - TIMER_SPAN_BITS - TIMER_TICK_SHIFT))
		start = UINT64_MAX;
	else
		start = top << (TIMER_SPAN_BITS + TIMER_TICK_SHIFT);
	return timer_list_min(&w->overflow, start, 0, 1);
}

/*
 * Fires every due timer of the current level-0 slot.  Timers due later in
 * the same tick are kept aside on a local list so that callbacks adding
 * timers to this slot (deadline <= now) are still picked up by the loop,
 * and then put back.
 */
static size_t
timer_wheel_fire_slot(struct timer_wheel *w, uint64_t now)
{
	struct timer *head, kept, *t;
	size_t fired = 0;

	head = &w->slots[0][w->tick & TIMER_SLOT_MASK];
	timer_list_init(&kept, w, TIMER_NOSLOT);
	while (!timer_list_empty(head)) {
		t = head->_next;
		timer_unlink(t);
		if (t->_expire <= now) {
			t->_wheel = NULL;
			w->count--;
			t->_cb(t, now);
			fired++;
		} else
			timer_list_append(&kept, t);
	}
	if (!timer_list_empty(&kept)) {
		timer_list_move(head, &kept);
		timer_bit_set(w, head->_expire);
	}
	return fired;
}

/*
 * Moves the current tick forward to the next tick that may hold a timer,
 * but not past `target'; cascades the slot it enters.  Everything between
 * the old and the new tick is empty, which is what keeps the invariant.
 */
static void
timer_wheel_advance(struct timer_wheel *w, uint64_t target)
{
	uint64_t bits, idx, next;
	int level, shift, s;

	for (level = 0; level < TIMER_NLEVELS; level++) {
		shift = level * TIMER_SLOT_BITS;
		idx = (w->tick >> shift) & TIMER_SLOT_MASK;
		if (idx == TIMER_SLOT_MASK)
			continue;
		bits = w->bitmap[level] & (~UINT64_C(0) << (idx + 1));
		if (bits == 0)
			continue;
		s = __builtin_ctzll(bits);
		next = (w->tick >> (shift + TIMER_SLOT_BITS)
		    << (shift + TIMER_SLOT_BITS)) | ((uint64_t)s << shift);
		if (next > target) {
			w->tick = target;
			return;
		}
		w->tick = next;
		if (level > 0)
			timer_wheel_refile(w, &w->slots[level][s]);
		return;
	}
	if (!timer_list_empty(&w->overflow)) {
		next = ((w->tick >> TIMER_SPAN_BITS) + 1) << TIMER_SPAN_BITS;
		if (next > target) {
			w->tick = target;
			return;
		}
		w->tick = next;
		timer_wheel_refile(w, &w->overflow);
		return;
	}
	w->tick = target;
}

size_t
timer_wheel_run(struct timer_wheel *w, uint64_t now)
{
	uint64_t target;
	size_t fired = 0;

	if (now > w->now)
		w->now = now;
	target = now >> TIMER_TICK_SHIFT;
	if (target < w->tick)
		target = w->tick;
	for (;;) {
		fired += timer_wheel_fire_slot(w, now);
		if (w->tick >= target)
			break;
		timer_wheel_advance(w, target);
	}
	return fired;
}

size_t
timer_wheel_count(const struct timer_wheel *w)
{
	return w->count;
}
