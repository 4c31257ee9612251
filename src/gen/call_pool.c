/*
 * The request-rate workload's pool and queue (see call_pool.h).
 *
 * Everything the owner is asked to do (open, send, close, missed, done)
 * may come straight back into the pool: a connect refused at once closes
 * the connection inside ops->open, a write error inside ops->send, the
 * end of the URIs drains the pool inside ops->send, and done stops it.
 * So the pump never recurses: a nested call only asks the running pump
 * to go round again, and every loop re-reads the state it works on.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen/call_pool.h"
#include "lib/util.h"

#define NONE		SIZE_MAX
#define QUEUE_FIRST	64		/* first allocation of the queue */

static uint64_t
cp_id(const struct call_pool *p, size_t i)
{
	return (uint64_t)p->slots[i].gen << 32 | (uint64_t)i;
}

/* Returns the slot of `id', or NONE if it left the pool since. */
static size_t
cp_slot(const struct call_pool *p, uint64_t id)
{
	size_t i = (size_t)(id & 0xffffffffu);

	if (i >= p->nslots || p->slots[i].state == CALL_POOL_FREE ||
	    p->slots[i].gen != (uint32_t)(id >> 32))
		return NONE;
	return i;
}

/* Idle list: appended at the tail, taken from the head. */
static void
cp_idle_push(struct call_pool *p, size_t i)
{
	struct call_pool_slot *s = &p->slots[i];

	s->state = CALL_POOL_IDLE;
	s->next = NONE;
	s->prev = p->idle_tail;
	if (p->idle_tail != NONE)
		p->slots[p->idle_tail].next = i;
	else
		p->idle_head = i;
	p->idle_tail = i;
}

static void
cp_idle_push_front(struct call_pool *p, size_t i)
{
	struct call_pool_slot *s = &p->slots[i];

	s->state = CALL_POOL_IDLE;
	s->prev = NONE;
	s->next = p->idle_head;
	if (p->idle_head != NONE)
		p->slots[p->idle_head].prev = i;
	else
		p->idle_tail = i;
	p->idle_head = i;
}

static void
cp_idle_remove(struct call_pool *p, size_t i)
{
	struct call_pool_slot *s = &p->slots[i];

	if (s->prev != NONE)
		p->slots[s->prev].next = s->next;
	else
		p->idle_head = s->next;
	if (s->next != NONE)
		p->slots[s->next].prev = s->prev;
	else
		p->idle_tail = s->prev;
	s->prev = s->next = NONE;
}

/* Slot `i' takes no more requests: it is closing. */
static void
cp_dead(struct call_pool *p, size_t i)
{
	if (p->slots[i].state == CALL_POOL_DEAD)
		return;
	if (p->slots[i].state == CALL_POOL_IDLE)
		cp_idle_remove(p, i);
	p->slots[i].state = CALL_POOL_DEAD;
	p->ndead++;
}

/* Takes a slot for a new connection (the caller checked the cap). */
static size_t
cp_slot_new(struct call_pool *p)
{
	size_t i, ncap;

	if (p->free_head != NONE) {
		i = p->free_head;
		p->free_head = p->slots[i].next;
	} else {
		if (p->nslots == p->slots_cap) {
			ncap = p->slots_cap < 8 ? 8 : p->slots_cap * 2;
			if (ncap > p->max_conns)
				ncap = p->max_conns;
			p->slots = xreallocarray(p->slots, ncap,
			    sizeof(*p->slots));
			p->slots_cap = ncap;
		}
		i = p->nslots++;
		p->slots[i].gen = 0;
	}
	p->slots[i].state = CALL_POOL_OPENING;
	p->slots[i].user = NULL;
	p->slots[i].prev = p->slots[i].next = NONE;
	p->slots[i].inflight = 0;
	p->slots[i].cap = 1;
	p->slots[i].retire = 0;
	p->slots[i].burst_sent = 0;
	p->nopen++;
	p->nopening++;
	return i;
}

static void
cp_slot_free(struct call_pool *p, size_t i)
{
	struct call_pool_slot *s = &p->slots[i];

	/* Closed before its requests in flight were reported over. */
	p->nbusy -= s->inflight;
	p->ended += s->inflight;
	s->inflight = 0;
	if (s->state == CALL_POOL_DEAD)
		p->ndead--;
	s->state = CALL_POOL_FREE;
	s->gen++;
	s->user = NULL;
	s->prev = NONE;
	s->next = p->free_head;
	p->free_head = i;
	p->nopen--;
}

/* Appends to the queue; returns -1 if it is full. */
static int
cp_q_push(struct call_pool *p, uint64_t intended)
{
	uint64_t *nq;
	size_t ncap, i;

	if (p->qlen == p->queue_max)
		return -1;
	if (p->qlen == p->qcap) {
		ncap = p->qcap < QUEUE_FIRST ? QUEUE_FIRST : p->qcap * 2;
		if (ncap > p->queue_max)
			ncap = p->queue_max;
		nq = xreallocarray(NULL, ncap, sizeof(*nq));
		for (i = 0; i < p->qlen; i++)
			nq[i] = p->q[(p->qhead + i) % p->qcap];
		free(p->q);
		p->q = nq;
		p->qcap = ncap;
		p->qhead = 0;
	}
	p->q[(p->qhead + p->qlen) % p->qcap] = intended;
	p->qlen++;
	if (p->qlen > p->max_queued)
		p->max_queued = p->qlen;
	return 0;
}

static uint64_t
cp_q_pop(struct call_pool *p)
{
	uint64_t v = p->q[p->qhead];

	p->qhead = (p->qhead + 1) % p->qcap;
	p->qlen--;
	return v;
}

/* Counts `n' requests never sent. */
static void
cp_miss(struct call_pool *p, uint64_t n, uint64_t now)
{
	if (n == 0)
		return;
	p->missed += n;
	p->ops->missed(p->arg, n, now);
}

/* Every request is accounted for: tell the owner, once. */
static void
cp_check_done(struct call_pool *p, uint64_t now)
{
	if (p->finished || p->stopped || p->pumping)
		return;
	if (p->qlen > 0 || p->nbusy > 0)
		return;
	if (!p->draining && (p->total == 0 || p->made < p->total))
		return;
	p->finished = 1;
	p->ops->done(p->arg, now);
}

/* Returns how many waiting requests the connections on their way are
   counted for. */
static size_t
cp_covered(const struct call_pool *p)
{
	return p->nopening > SIZE_MAX / p->open_cap ? SIZE_MAX :
	    p->nopening * p->open_cap;
}

/*
 * Sends the waiting requests to the connections with room, oldest first
 * both (one with room left after it goes to the back of the line), then
 * opens connections for those still waiting, while the cap allows: one
 * for each open_cap requests no connection on its way will take.
 */
static void
cp_pump(struct call_pool *p, uint64_t now)
{
	uint64_t intended, id;
	size_t i;

	if (p->pumping) {
		p->again = 1;
		return;
	}
	p->pumping = 1;
	do {
		p->again = 0;
		while (!p->stopped && p->qlen > 0 && p->idle_head != NONE) {
			i = p->idle_head;
			cp_idle_remove(p, i);
			p->slots[i].state = CALL_POOL_BUSY;
			p->slots[i].inflight++;
			p->nbusy++;
			intended = cp_q_pop(p);
			id = cp_id(p, i);
			if (p->ops->send(p->arg, id, p->slots[i].user,
			    intended, now) == 0) {
				p->sent++;
				/* Room for more: the back of the line. */
				if (cp_slot(p, id) != i ||
				    p->slots[i].state != CALL_POOL_BUSY ||
				    p->slots[i].inflight >= p->slots[i].cap ||
				    (p->burst && ++p->slots[i].burst_sent >=
				    p->slots[i].cap))
					continue;
				/* A burst goes on: the front of the line. */
				if (p->burst)
					cp_idle_push_front(p, i);
				else
					cp_idle_push(p, i);
				continue;
			}
			/* Not sent (no URI for it, say): the connection has
			   that room again, first in line. */
			if (cp_slot(p, id) == i &&
			    p->slots[i].state == CALL_POOL_BUSY) {
				p->slots[i].inflight--;
				p->nbusy--;
				cp_idle_push_front(p, i);
			}
			cp_miss(p, 1, now);
		}
		while (!p->stopped && !p->draining &&
		    p->qlen > cp_covered(p) && p->nopen < p->max_conns) {
			i = cp_slot_new(p);
			p->opened++;
			p->ops->open(p->arg, cp_id(p, i), now);
		}
	} while (p->again && !p->stopped);
	p->pumping = 0;
	cp_check_done(p, now);
}

void
call_pool_init(struct call_pool *p, size_t max_conns, uint64_t total,
    size_t queue_max, const struct call_pool_ops *ops, void *arg)
{
	memset(p, 0, sizeof(*p));
	p->ops = ops;
	p->arg = arg;
	p->max_conns = max_conns > 0 ? max_conns : 1;
	if (p->max_conns > 0xffffffffu)
		p->max_conns = 0xffffffffu;
	p->total = total;
	p->queue_max = queue_max > 0 ? queue_max : 1;
	p->open_cap = 1;
	p->free_head = p->idle_head = p->idle_tail = NONE;
}

void
call_pool_expect(struct call_pool *p, size_t per_conn)
{
	p->open_cap = per_conn > 0 ? per_conn : 1;
}

void
call_pool_burst(struct call_pool *p)
{
	p->burst = 1;
}

/* Whether busy slot `s' takes requests again. */
static int
cp_room(const struct call_pool *p, const struct call_pool_slot *s)
{
	return p->burst ? s->inflight == 0 : s->inflight < s->cap;
}

void
call_pool_fini(struct call_pool *p)
{
	free(p->slots);
	free(p->q);
	p->slots = NULL;
	p->q = NULL;
	p->nslots = p->slots_cap = p->qcap = p->qlen = 0;
}

int
call_pool_wants(const struct call_pool *p)
{
	return !p->stopped && !p->draining && !p->finished &&
	    (p->total == 0 || p->made < p->total);
}

int
call_pool_arrival(struct call_pool *p, uint64_t intended, uint64_t now)
{
	if (!call_pool_wants(p))
		return -1;
	p->made++;
	if (cp_q_push(p, intended) == -1)
		cp_miss(p, 1, now);
	cp_pump(p, now);
	return p->total > 0 && p->made >= p->total ? -1 : 0;
}

void
call_pool_set_user(struct call_pool *p, uint64_t id, void *user)
{
	size_t i;

	if ((i = cp_slot(p, id)) != NONE)
		p->slots[i].user = user;
}

void
call_pool_set_capacity(struct call_pool *p, uint64_t id, size_t cap,
    uint64_t now)
{
	struct call_pool_slot *s;
	size_t i;

	if ((i = cp_slot(p, id)) == NONE)
		return;
	s = &p->slots[i];
	s->cap = cap > 0 ? cap : 1;
	if (s->state == CALL_POOL_IDLE && s->inflight >= s->cap) {
		cp_idle_remove(p, i);
		s->state = CALL_POOL_BUSY;
	} else if (s->state == CALL_POOL_BUSY && cp_room(p, s) &&
	    !p->stopped) {
		cp_idle_push(p, i);
		cp_pump(p, now);
	}
}

/*
 * Retires the connections above the most, one pass per state: the idle
 * ones first (closed now), then the busy ones (closed when their last
 * request ends), then those on their way (closed now).
 */
void
call_pool_set_max_conns(struct call_pool *p, size_t max_conns, uint64_t now)
{
	static const enum call_pool_state order[] = {
		CALL_POOL_IDLE, CALL_POOL_BUSY, CALL_POOL_OPENING,
	};
	struct call_pool_slot *s;
	uint64_t id;
	size_t k, i;

	p->max_conns = max_conns > 0 ? max_conns : 1;
	if (p->max_conns > 0xffffffffu)
		p->max_conns = 0xffffffffu;
	for (k = 0; k < nitems(order); k++)
		for (i = 0; i < p->nslots && !p->stopped &&
		    p->nopen - p->ndead > p->max_conns; i++) {
			s = &p->slots[i];
			if (s->state != order[k])
				continue;
			if (s->state == CALL_POOL_OPENING)
				p->nopening--;
			cp_dead(p, i);
			id = cp_id(p, i);
			if (s->inflight > 0)
				s->retire = 1;
			else
				p->ops->close(p->arg, id, s->user, now);
		}
	cp_pump(p, now);
}

void
call_pool_connected(struct call_pool *p, uint64_t id, uint64_t now)
{
	size_t i;

	if ((i = cp_slot(p, id)) == NONE ||
	    p->slots[i].state != CALL_POOL_OPENING)
		return;
	p->nopening--;
	cp_idle_push(p, i);
	cp_pump(p, now);
}

void
call_pool_call_done(struct call_pool *p, uint64_t id, int reusable,
    uint64_t now)
{
	struct call_pool_slot *s;
	size_t i;

	if ((i = cp_slot(p, id)) == NONE ||
	    p->slots[i].state == CALL_POOL_OPENING ||
	    p->slots[i].inflight == 0)
		return;
	s = &p->slots[i];
	s->inflight--;
	p->nbusy--;
	p->ended++;
	if (s->inflight == 0)
		s->burst_sent = 0;	/* the next burst */
	if (s->retire && s->inflight == 0) {
		/* Surplus (call_pool_set_max_conns): its last one ended. */
		s->retire = 0;
		p->ops->close(p->arg, id, s->user, now);
	} else if (!reusable || p->stopped) {
		/* It takes no more; those still in flight end with it. */
		cp_dead(p, i);
	} else if (s->state == CALL_POOL_BUSY && cp_room(p, s))
		cp_idle_push(p, i);
	cp_pump(p, now);
}

void
call_pool_closed(struct call_pool *p, uint64_t id, uint64_t now)
{
	size_t i;

	if ((i = cp_slot(p, id)) == NONE)
		return;
	switch (p->slots[i].state) {
	case CALL_POOL_OPENING:
		p->nopening--;
		cp_slot_free(p, i);
		/* It was opened for a request no other connection on its
		   way covers: that request fails with it. */
		if (!p->stopped && p->qlen > cp_covered(p)) {
			cp_q_pop(p);
			cp_miss(p, 1, now);
		}
		break;
	case CALL_POOL_IDLE:
		cp_idle_remove(p, i);
		cp_slot_free(p, i);
		break;
	default:
		cp_slot_free(p, i);
		break;
	}
	cp_pump(p, now);
}

void
call_pool_drain(struct call_pool *p, uint64_t now)
{
	uint64_t n;

	if (p->stopped || p->draining)
		return;
	p->draining = 1;
	n = p->qlen;
	p->qlen = 0;
	p->qhead = 0;
	cp_miss(p, n, now);
	cp_check_done(p, now);
}

void
call_pool_stop(struct call_pool *p, uint64_t now)
{
	uint64_t n, id;
	size_t i;

	if (p->stopped)
		return;
	p->stopped = 1;
	n = p->qlen;
	p->qlen = 0;
	p->qhead = 0;
	cp_miss(p, n, now);
	/* The idle ones close now, while their lifetimes still count;
	   each close comes back through call_pool_closed().  Those with
	   requests in flight (HTTP/2) are left as the busy ones are. */
	while ((i = p->idle_head) != NONE) {
		if (p->slots[i].inflight > 0) {
			cp_dead(p, i);
			continue;
		}
		id = cp_id(p, i);
		p->ops->close(p->arg, id, p->slots[i].user, now);
		/* An owner that did not report the close: forget it. */
		if (cp_slot(p, id) == i &&
		    p->slots[i].state == CALL_POOL_IDLE) {
			cp_idle_remove(p, i);
			cp_slot_free(p, i);
		}
	}
}
