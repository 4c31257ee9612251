/*
 * Unit tests for the pool and the queue of the request-rate workload
 * (gen/call_pool.h), driven by hand through fake owner operations that
 * record what the pool asked for: requests go out in arrival order, to
 * the connection idle longest; no more than max_conns connections, opened
 * only for waiting requests and reused; a connection that closes leaves
 * the pool and its queue moves on to other or new ones; a connection that
 * fails to open takes one request with it; the queue's cap; and every
 * request counted once, sent or missed, with done called exactly once.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "gen/call_pool.h"
#include "lib/util.h"
#include "unit.h"

#define NREC	256

/* What the pool asked of its owner. */
struct fx {
	struct call_pool p;
	uint64_t	 opens[NREC];		/* ids, in order */
	size_t		 nopens;
	uint64_t	 send_id[NREC];
	uint64_t	 send_t[NREC];		/* intended times, in order */
	size_t		 nsends;
	uint64_t	 closes[NREC];
	size_t		 ncloses;
	uint64_t	 missed;
	size_t		 nmissed_calls;
	int		 ndone;
	int		 refuse_send;	/* send returns -1 */
	int		 fail_open;	/* open fails at once, inside open */
	int		 quiet_close;	/* close does not report back */
	int		 stop_on_done;	/* done stops the pool, as main does */
};

static void
fx_open(void *arg, uint64_t id, uint64_t now)
{
	struct fx *f = arg;

	ck_assert_uint_lt(f->nopens, NREC);
	f->opens[f->nopens++] = id;
	call_pool_set_user(&f->p, id, f);
	if (f->fail_open)
		call_pool_closed(&f->p, id, now);
}

static int
fx_send(void *arg, uint64_t id, void *user, uint64_t intended, uint64_t now)
{
	struct fx *f = arg;

	ck_assert_ptr_eq(user, f);
	if (f->refuse_send)
		return -1;
	ck_assert_uint_lt(f->nsends, NREC);
	f->send_id[f->nsends] = id;
	f->send_t[f->nsends++] = intended;
	return 0;
}

static void
fx_close(void *arg, uint64_t id, void *user, uint64_t now)
{
	struct fx *f = arg;

	ck_assert_uint_lt(f->ncloses, NREC);
	f->closes[f->ncloses++] = id;
	if (!f->quiet_close)
		call_pool_closed(&f->p, id, now);
}

static void
fx_missed(void *arg, uint64_t n, uint64_t now)
{
	struct fx *f = arg;

	f->missed += n;
	f->nmissed_calls++;
}

static void
fx_done(void *arg, uint64_t now)
{
	struct fx *f = arg;

	f->ndone++;
	if (f->stop_on_done)
		call_pool_stop(&f->p, now);
}

static const struct call_pool_ops fx_ops = {
	.open = fx_open,
	.send = fx_send,
	.close = fx_close,
	.missed = fx_missed,
	.done = fx_done,
};

static struct fx *
fx_new(size_t max_conns, uint64_t total, size_t queue_max)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	call_pool_init(&f->p, max_conns, total, queue_max, &fx_ops, f);
	return f;
}

static void
fx_free(struct fx *f)
{
	call_pool_fini(&f->p);
	free(f);
}

/* Arrivals meant for t0, t0 + 1, ... (n of them). */
static void
arrive(struct fx *f, uint64_t t0, int n)
{
	int i;

	for (i = 0; i < n; i++)
		call_pool_arrival(&f->p, t0 + (uint64_t)i, 1000);
}

/* The request last sent on `id' ended; the connection stays. */
static void
reply(struct fx *f, uint64_t id)
{
	call_pool_call_done(&f->p, id, 1, 2000);
}

/* Requests wait in arrival order and go out in it over one connection. */
START_TEST(queue_order)
{
	struct fx *f = fx_new(1, 0, CALL_POOL_QUEUE_MAX);
	uint64_t c;
	size_t i;

	arrive(f, 10, 5);
	ck_assert_uint_eq(f->nopens, 1);
	ck_assert_uint_eq(f->nsends, 0);
	ck_assert_uint_eq(f->p.qlen, 5);
	c = f->opens[0];
	call_pool_connected(&f->p, c, 1500);
	ck_assert_uint_eq(f->nsends, 1);
	/* One request in flight per connection: the rest wait. */
	ck_assert_uint_eq(f->p.qlen, 4);
	for (i = 1; i < 5; i++) {
		reply(f, c);
		ck_assert_uint_eq(f->nsends, i + 1);
	}
	reply(f, c);
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(f->send_t[i], 10 + i);
		ck_assert_uint_eq(f->send_id[i], c);
	}
	ck_assert_uint_eq(f->nopens, 1);
	ck_assert_uint_eq(f->p.qlen, 0);
	ck_assert_uint_eq(f->p.max_queued, 5);
	ck_assert_uint_eq(f->p.sent, 5);
	ck_assert_uint_eq(f->p.ended, 5);
	ck_assert_uint_eq(f->missed, 0);
	ck_assert_int_eq(f->ndone, 0);		/* no total: runs on */
	fx_free(f);
}
END_TEST

/* Never more than max_conns connections, however long the queue. */
START_TEST(pool_cap)
{
	struct fx *f = fx_new(3, 0, CALL_POOL_QUEUE_MAX);
	size_t i;

	arrive(f, 0, 10);
	ck_assert_uint_eq(f->nopens, 3);
	ck_assert_uint_eq(f->p.nopen, 3);
	ck_assert_uint_eq(f->p.qlen, 10);
	for (i = 0; i < 3; i++)
		call_pool_connected(&f->p, f->opens[i], 1500);
	ck_assert_uint_eq(f->nsends, 3);
	ck_assert_uint_eq(f->p.nbusy, 3);
	ck_assert_uint_eq(f->p.qlen, 7);
	arrive(f, 100, 5);
	ck_assert_uint_eq(f->nopens, 3);
	ck_assert_uint_eq(f->p.qlen, 12);
	/* Drain it: still three connections, arrival order kept. */
	for (i = 0; f->nsends < 15; i++)
		reply(f, f->send_id[i]);
	ck_assert_uint_eq(f->nopens, 3);
	for (i = 0; i < 10; i++)
		ck_assert_uint_eq(f->send_t[i], i);
	for (i = 10; i < 15; i++)
		ck_assert_uint_eq(f->send_t[i], 100 + i - 10);
	fx_free(f);
}
END_TEST

/*
 * A connection opens only for a request no idle or opening connection
 * will take, and an idle one is reused; the one idle longest goes first.
 */
START_TEST(reuse)
{
	struct fx *f = fx_new(4, 0, CALL_POOL_QUEUE_MAX);
	uint64_t a, b;

	arrive(f, 1, 1);
	ck_assert_uint_eq(f->nopens, 1);
	arrive(f, 2, 1);			/* the first is not up yet */
	ck_assert_uint_eq(f->nopens, 2);
	a = f->opens[0];
	b = f->opens[1];
	call_pool_connected(&f->p, b, 1500);	/* b first: it takes 1 */
	call_pool_connected(&f->p, a, 1600);
	ck_assert_uint_eq(f->nsends, 2);
	ck_assert_uint_eq(f->send_id[0], b);
	ck_assert_uint_eq(f->send_t[0], 1);
	ck_assert_uint_eq(f->send_id[1], a);
	ck_assert_uint_eq(f->send_t[1], 2);
	reply(f, a);				/* a idle, then b */
	reply(f, b);
	arrive(f, 3, 1);
	arrive(f, 4, 1);
	arrive(f, 5, 1);
	ck_assert_uint_eq(f->nopens, 3);	/* only 5 needed one */
	ck_assert_uint_eq(f->send_id[2], a);
	ck_assert_uint_eq(f->send_id[3], b);
	ck_assert_uint_eq(f->p.qlen, 1);
	ck_assert_uint_eq(f->p.nopening, 1);
	/* a is free before the new one is up: it takes 5. */
	reply(f, a);
	ck_assert_uint_eq(f->send_id[4], a);
	ck_assert_uint_eq(f->send_t[4], 5);
	call_pool_connected(&f->p, f->opens[2], 1700);
	ck_assert_uint_eq(f->nsends, 5);
	ck_assert_uint_eq(f->p.nopen, 3);
	fx_free(f);
}
END_TEST

/*
 * A connection that closes leaves the pool: the requests waiting go to a
 * new connection (the cap allows it again), in order; its request in
 * flight has ended.
 */
START_TEST(closed_moves_queue)
{
	struct fx *f = fx_new(1, 0, CALL_POOL_QUEUE_MAX);
	uint64_t a, b;

	arrive(f, 1, 3);
	a = f->opens[0];
	call_pool_connected(&f->p, a, 1500);
	ck_assert_uint_eq(f->nsends, 1);
	/* The server closes it with 1 in flight (a reset, say). */
	call_pool_call_done(&f->p, a, 0, 1600);
	ck_assert_uint_eq(f->nopens, 1);	/* not yet closed */
	call_pool_closed(&f->p, a, 1600);
	ck_assert_uint_eq(f->p.nopen, 1);
	ck_assert_uint_eq(f->nopens, 2);
	b = f->opens[1];
	ck_assert_uint_ne(a, b);
	/* Events about the old one are stale now. */
	call_pool_connected(&f->p, a, 1650);
	call_pool_call_done(&f->p, a, 1, 1650);
	call_pool_closed(&f->p, a, 1650);
	ck_assert_uint_eq(f->nsends, 1);
	ck_assert_uint_eq(f->p.nopen, 1);
	call_pool_connected(&f->p, b, 1700);
	ck_assert_uint_eq(f->nsends, 2);
	ck_assert_uint_eq(f->send_id[1], b);
	ck_assert_uint_eq(f->send_t[1], 2);
	reply(f, b);
	ck_assert_uint_eq(f->send_t[2], 3);
	ck_assert_uint_eq(f->p.ended, 2);
	ck_assert_uint_eq(f->missed, 0);

	/* Closed while idle, by the server: nothing lost, nothing new. */
	reply(f, b);
	call_pool_closed(&f->p, b, 1800);
	ck_assert_uint_eq(f->p.nopen, 0);
	ck_assert_uint_eq(f->nopens, 2);
	/* The next arrival opens one. */
	arrive(f, 4, 1);
	ck_assert_uint_eq(f->nopens, 3);
	fx_free(f);
}
END_TEST

/* With two busy, one closing: its waiting requests go to the other. */
START_TEST(closed_other_takes)
{
	struct fx *f = fx_new(2, 0, CALL_POOL_QUEUE_MAX);
	uint64_t a, b;

	arrive(f, 1, 4);
	ck_assert_uint_eq(f->nopens, 2);
	a = f->opens[0];
	b = f->opens[1];
	call_pool_connected(&f->p, a, 1500);
	call_pool_connected(&f->p, b, 1500);
	ck_assert_uint_eq(f->p.qlen, 2);
	/* a fails with its request; before its replacement is up, b is
	   free and takes 3. */
	call_pool_closed(&f->p, a, 1600);
	ck_assert_uint_eq(f->p.ended, 1);
	ck_assert_uint_eq(f->nopens, 3);
	reply(f, b);
	ck_assert_uint_eq(f->send_id[2], b);
	ck_assert_uint_eq(f->send_t[2], 3);
	call_pool_connected(&f->p, f->opens[2], 1700);
	ck_assert_uint_eq(f->send_id[3], f->opens[2]);
	ck_assert_uint_eq(f->send_t[3], 4);
	ck_assert_uint_eq(f->missed, 0);
	fx_free(f);
}
END_TEST

/*
 * A connection that fails before it is up takes one waiting request with
 * it: against a server that refuses everything, one attempt per request,
 * and the run ends (here refused inside open, as conn_connect() does).
 */
START_TEST(open_fails)
{
	struct fx *f = fx_new(4, 5, CALL_POOL_QUEUE_MAX);

	f->fail_open = 1;
	arrive(f, 1, 5);
	ck_assert_uint_eq(f->nopens, 5);
	ck_assert_uint_eq(f->missed, 5);
	ck_assert_uint_eq(f->p.qlen, 0);
	ck_assert_uint_eq(f->p.nopen, 0);
	ck_assert_int_eq(f->ndone, 1);
	fx_free(f);
}
END_TEST

/* A late connect failure: the oldest waiting request is the one lost. */
START_TEST(open_fails_later)
{
	struct fx *f = fx_new(1, 0, CALL_POOL_QUEUE_MAX);

	arrive(f, 1, 3);
	ck_assert_uint_eq(f->nopens, 1);
	call_pool_closed(&f->p, f->opens[0], 1500);
	ck_assert_uint_eq(f->missed, 1);
	ck_assert_uint_eq(f->nopens, 2);
	call_pool_connected(&f->p, f->opens[1], 1600);
	ck_assert_uint_eq(f->send_t[0], 2);
	reply(f, f->opens[1]);
	ck_assert_uint_eq(f->send_t[1], 3);
	fx_free(f);
}
END_TEST

/* The queue's cap: arrivals above it are never sent, and counted. */
START_TEST(queue_cap)
{
	struct fx *f = fx_new(1, 10, 3);
	uint64_t c;
	int i;

	arrive(f, 1, 10);
	ck_assert_uint_eq(f->p.qlen, 3);
	ck_assert_uint_eq(f->missed, 7);
	ck_assert_uint_eq(f->p.made, 10);
	c = f->opens[0];
	call_pool_connected(&f->p, c, 1500);
	for (i = 0; i < 3; i++)
		reply(f, c);
	ck_assert_uint_eq(f->nsends, 3);
	ck_assert_uint_eq(f->send_t[0], 1);
	ck_assert_uint_eq(f->send_t[2], 3);
	ck_assert_uint_eq(f->p.sent + f->p.missed, 10);
	ck_assert_int_eq(f->ndone, 1);
	fx_free(f);
}
END_TEST

/*
 * The total: the arrival that reaches it says so, and done comes once,
 * after the last request ended; then stop closes the idle connections.
 */
START_TEST(total_done)
{
	struct fx *f = fx_new(2, 3, CALL_POOL_QUEUE_MAX);

	f->stop_on_done = 1;
	ck_assert_int_eq(call_pool_arrival(&f->p, 1, 1000), 0);
	ck_assert_int_eq(call_pool_arrival(&f->p, 2, 1000), 0);
	ck_assert_int_eq(call_pool_arrival(&f->p, 3, 1000), -1);
	ck_assert_int_eq(call_pool_arrival(&f->p, 4, 1000), -1);
	ck_assert_uint_eq(f->p.made, 3);
	call_pool_connected(&f->p, f->opens[0], 1500);
	call_pool_connected(&f->p, f->opens[1], 1500);
	reply(f, f->opens[0]);
	reply(f, f->opens[1]);
	ck_assert_int_eq(f->ndone, 0);
	reply(f, f->opens[0]);
	ck_assert_int_eq(f->ndone, 1);
	ck_assert_uint_eq(f->p.ended, 3);
	ck_assert_uint_eq(f->ncloses, 2);
	ck_assert_uint_eq(f->p.nopen, 0);
	ck_assert_uint_eq(f->missed, 0);
	call_pool_stop(&f->p, 3000);
	ck_assert_int_eq(f->ndone, 1);
	ck_assert_uint_eq(f->ncloses, 2);
	fx_free(f);
}
END_TEST

/*
 * Stopped (--runtime): the requests still waiting are missed, in one
 * count; the idle connections close, the busy ones are left to the core;
 * nothing more is sent or opened, and done never comes.
 */
START_TEST(stop_missed)
{
	struct fx *f = fx_new(2, 0, CALL_POOL_QUEUE_MAX);
	uint64_t a, b;

	arrive(f, 1, 6);
	a = f->opens[0];
	b = f->opens[1];
	call_pool_connected(&f->p, a, 1500);
	call_pool_connected(&f->p, b, 1500);
	reply(f, a);
	ck_assert_uint_eq(f->nsends, 3);
	ck_assert_uint_eq(f->p.qlen, 3);
	reply(f, a);
	ck_assert_uint_eq(f->p.qlen, 2);
	call_pool_stop(&f->p, 3000);
	ck_assert_uint_eq(f->missed, 2);
	ck_assert_uint_eq(f->nmissed_calls, 1);
	ck_assert_uint_eq(f->ncloses, 0);	/* both busy */
	reply(f, b);				/* late reply: no send */
	ck_assert_uint_eq(f->nsends, 4);
	ck_assert_int_eq(call_pool_arrival(&f->p, 99, 3000), -1);
	ck_assert_uint_eq(f->nopens, 2);
	ck_assert_int_eq(f->ndone, 0);
	call_pool_stop(&f->p, 3000);
	ck_assert_uint_eq(f->missed, 2);
	fx_free(f);

	/* Idle ones are closed, even by an owner that does not say so. */
	f = fx_new(2, 0, CALL_POOL_QUEUE_MAX);
	f->quiet_close = 1;
	arrive(f, 1, 2);
	call_pool_connected(&f->p, f->opens[0], 1500);
	call_pool_connected(&f->p, f->opens[1], 1500);
	reply(f, f->opens[0]);
	reply(f, f->opens[1]);
	call_pool_stop(&f->p, 3000);
	ck_assert_uint_eq(f->ncloses, 2);
	ck_assert_uint_eq(f->closes[0], f->opens[0]);
	ck_assert_uint_eq(f->p.nopen, 0);
	ck_assert_uint_eq(f->missed, 0);
	fx_free(f);
}
END_TEST

/* Drained (the URIs ran out): waiting ones missed, done after the last. */
START_TEST(drain)
{
	struct fx *f = fx_new(1, 0, CALL_POOL_QUEUE_MAX);
	uint64_t c;

	arrive(f, 1, 4);
	c = f->opens[0];
	call_pool_connected(&f->p, c, 1500);
	call_pool_drain(&f->p, 1600);
	ck_assert_uint_eq(f->missed, 3);
	ck_assert_int_eq(f->ndone, 0);
	ck_assert_int_eq(call_pool_arrival(&f->p, 9, 1600), -1);
	reply(f, c);
	ck_assert_uint_eq(f->nsends, 1);
	ck_assert_int_eq(f->ndone, 1);
	fx_free(f);

	/* Nothing in flight: done at once. */
	f = fx_new(1, 0, CALL_POOL_QUEUE_MAX);
	arrive(f, 1, 2);
	call_pool_drain(&f->p, 1600);
	ck_assert_uint_eq(f->missed, 2);
	ck_assert_int_eq(f->ndone, 1);
	fx_free(f);
}
END_TEST

/* A request the owner cannot send is missed; the connection stays first. */
START_TEST(send_refused)
{
	struct fx *f = fx_new(2, 0, CALL_POOL_QUEUE_MAX);
	uint64_t c;

	arrive(f, 1, 1);
	c = f->opens[0];
	f->refuse_send = 1;
	call_pool_connected(&f->p, c, 1500);
	ck_assert_uint_eq(f->missed, 1);
	ck_assert_uint_eq(f->p.nbusy, 0);
	ck_assert_uint_eq(f->p.idle_head, (size_t)(c & 0xffffffffu));
	f->refuse_send = 0;
	arrive(f, 2, 1);
	ck_assert_uint_eq(f->nsends, 1);
	ck_assert_uint_eq(f->send_id[0], c);
	ck_assert_uint_eq(f->nopens, 1);
	fx_free(f);
}
END_TEST

/* The queue grows past its first allocation across the ring's wrap. */
START_TEST(queue_wraps)
{
	struct fx *f = fx_new(1, 0, CALL_POOL_QUEUE_MAX);
	uint64_t c, want = 0;
	size_t i;

	arrive(f, 0, 50);
	c = f->opens[0];
	call_pool_connected(&f->p, c, 1500);
	for (i = 0; i < 40; i++)
		reply(f, c);
	arrive(f, 50, 150);	/* wraps, then grows */
	ck_assert_uint_eq(f->p.qlen, 159);
	for (i = 0; i < 159; i++) {
		reply(f, c);
		if (f->nsends >= NREC)
			break;
	}
	for (i = 0; i < f->nsends; i++, want++)
		ck_assert_uint_eq(f->send_t[i], want);
	ck_assert_uint_eq(f->nsends, 200);
	fx_free(f);
}
END_TEST

/*
 * Each request once (sched_stat.h, `requests'): the owner signals an
 * arrival only when call_pool_wants() says the pool takes it, and the
 * pool's `missed' only for requests it took: so taken = sent + missed,
 * whatever ended the run (total reached, drained, stopped), and an
 * arrival the pool refuses is never counted.
 */
START_TEST(wants_once)
{
	struct fx *f = fx_new(1, 6, CALL_POOL_QUEUE_MAX);
	uint64_t c;

	ck_assert(call_pool_wants(&f->p));
	arrive(f, 1, 4);
	c = f->opens[0];
	call_pool_connected(&f->p, c, 1500);	/* 1 sent, 3 wait */
	arrive(f, 5, 2);			/* the total: 6 taken */
	ck_assert(!call_pool_wants(&f->p));
	ck_assert_int_eq(call_pool_arrival(&f->p, 7, 1600), -1);
	ck_assert_uint_eq(f->p.made, 6);
	reply(f, c);				/* 2 sent */
	call_pool_stop(&f->p, 2100);		/* 4 waiting: missed */
	ck_assert(!call_pool_wants(&f->p));
	ck_assert_uint_eq(f->p.sent, 2);
	ck_assert_uint_eq(f->missed, 4);
	ck_assert_uint_eq(f->p.sent + f->missed, f->p.made);
	fx_free(f);

	/* Drained (the URIs ran out): no more arrivals taken. */
	f = fx_new(2, 0, CALL_POOL_QUEUE_MAX);
	arrive(f, 1, 3);
	call_pool_drain(&f->p, 1500);
	ck_assert(!call_pool_wants(&f->p));
	ck_assert_uint_eq(f->missed, 3);
	ck_assert_uint_eq(f->p.sent + f->missed, f->p.made);
	fx_free(f);
}
END_TEST

/*
 * HTTP/2: a connection carries up to its capacity at once, and one with
 * room left goes to the back of the line, so the requests are spread
 * over the connections; expect() counts a connection on its way for that
 * many waiting requests; a lower capacity holds the rest in the queue.
 */
START_TEST(streams)
{
	struct fx *f = fx_new(4, 0, CALL_POOL_QUEUE_MAX);
	uint64_t a, b;
	size_t i;

	call_pool_expect(&f->p, 3);
	arrive(f, 0, 3);
	ck_assert_uint_eq(f->nopens, 1);	/* one covers three */
	arrive(f, 3, 3);
	ck_assert_uint_eq(f->nopens, 2);
	a = f->opens[0];
	b = f->opens[1];
	call_pool_set_capacity(&f->p, a, 3, 1500);
	call_pool_connected(&f->p, a, 1500);
	ck_assert_uint_eq(f->nsends, 3);	/* a takes three at once */
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(f->send_id[i], a);
		ck_assert_uint_eq(f->send_t[i], i);
	}
	ck_assert_uint_eq(f->p.nbusy, 3);
	call_pool_set_capacity(&f->p, b, 3, 1500);
	call_pool_connected(&f->p, b, 1500);
	ck_assert_uint_eq(f->nsends, 6);
	ck_assert_uint_eq(f->p.qlen, 0);
	/* Both full: the next three wait (the cap allows two more, which
	   one connection on its way covers). */
	arrive(f, 6, 3);
	ck_assert_uint_eq(f->p.qlen, 3);
	ck_assert_uint_eq(f->nopens, 3);
	/* One ends on each: a gets 6, b 7, round the line. */
	reply(f, a);
	reply(f, b);
	ck_assert_uint_eq(f->send_id[6], a);
	ck_assert_uint_eq(f->send_id[7], b);
	/* a's limit drops to 1 (its SETTINGS): its 3 in flight stay, it
	   takes no more until they are down to 0. */
	call_pool_set_capacity(&f->p, a, 1, 1600);
	reply(f, a);
	reply(f, a);
	ck_assert_uint_eq(f->nsends, 8);
	reply(f, a);
	ck_assert_uint_eq(f->nsends, 9);
	ck_assert_uint_eq(f->send_id[8], a);
	ck_assert_uint_eq(f->send_t[8], 8);
	ck_assert_uint_eq(f->p.qlen, 0);
	/* b ends (GOAWAY) with 2 more in flight: it takes no more, they
	   still end, then it closes; every request counted once. */
	call_pool_call_done(&f->p, b, 0, 1700);
	ck_assert_uint_eq(f->p.slots[b & 0xffffffff].state, CALL_POOL_DEAD);
	reply(f, a);
	arrive(f, 9, 1);
	ck_assert_uint_eq(f->nsends, 10);
	ck_assert_uint_eq(f->send_id[9], a);
	reply(f, b);
	call_pool_closed(&f->p, b, 1800);	/* the last one with it */
	ck_assert_uint_eq(f->p.sent, 10);
	ck_assert_uint_eq(f->p.ended, 9);
	ck_assert_uint_eq(f->p.nbusy, 1);	/* 9, on a */
	ck_assert_uint_eq(f->missed, 0);
	fx_free(f);
}
END_TEST

/*
 * The closed loop's concurrency changes while the pool runs
 * (call_pool_set_max_conns): up, connections open for the requests
 * waiting; down, the idle ones close at once, the busy ones after their
 * request, and no new one opens while the closing ones still count.
 */
START_TEST(max_conns_change)
{
	struct fx *f = fx_new(2, 0, CALL_POOL_QUEUE_MAX);
	size_t i;

	arrive(f, 0, 2);
	ck_assert_uint_eq(f->nopens, 2);
	call_pool_connected(&f->p, f->opens[0], 1100);
	call_pool_connected(&f->p, f->opens[1], 1100);
	ck_assert_uint_eq(f->nsends, 2);
	arrive(f, 2, 2);			/* the cap: they wait */
	ck_assert_uint_eq(f->nopens, 2);
	call_pool_set_max_conns(&f->p, 4, 1200);
	ck_assert_uint_eq(f->nopens, 4);
	call_pool_connected(&f->p, f->opens[2], 1300);
	call_pool_connected(&f->p, f->opens[3], 1300);
	ck_assert_uint_eq(f->nsends, 4);
	/* 0 goes idle; down to 1: 0 closes now, two of the busy ones
	   after their requests. */
	reply(f, f->opens[0]);
	call_pool_set_max_conns(&f->p, 1, 1400);
	ck_assert_uint_eq(f->ncloses, 1);
	ck_assert_uint_eq(f->closes[0], f->opens[0]);
	ck_assert_uint_eq(f->p.nopen, 3);
	ck_assert_uint_eq(f->p.ndead, 2);
	arrive(f, 4, 1);			/* no room, no new one */
	ck_assert_uint_eq(f->nopens, 4);
	ck_assert_uint_eq(f->p.qlen, 1);
	for (i = 1; i < 4; i++)
		reply(f, f->opens[i]);
	/* Two closed after their request; the one left took the wait. */
	ck_assert_uint_eq(f->ncloses, 3);
	ck_assert_uint_eq(f->p.nopen, 1);
	ck_assert_uint_eq(f->p.ndead, 0);
	ck_assert_uint_eq(f->nsends, 5);
	ck_assert_uint_eq(f->send_id[4], f->opens[3]);
	ck_assert_uint_eq(f->p.qlen, 0);
	ck_assert_uint_eq(f->missed, 0);
	fx_free(f);
}
END_TEST

/*
 * Bursts (call_pool_burst): a connection takes up to its capacity at
 * once, then nothing until all of them have ended.
 */
START_TEST(bursts)
{
	struct fx *f = fx_new(1, 0, CALL_POOL_QUEUE_MAX);
	uint64_t a;

	call_pool_burst(&f->p);
	call_pool_expect(&f->p, 3);
	arrive(f, 0, 2);
	a = f->opens[0];
	call_pool_set_capacity(&f->p, a, 3, 1100);
	call_pool_connected(&f->p, a, 1100);
	ck_assert_uint_eq(f->nsends, 2);
	arrive(f, 2, 2);		/* the third of the burst goes out */
	ck_assert_uint_eq(f->nsends, 3);
	ck_assert_uint_eq(f->p.qlen, 1);
	reply(f, a);
	reply(f, a);
	ck_assert_uint_eq(f->nsends, 3);	/* the burst is not over */
	reply(f, a);
	ck_assert_uint_eq(f->nsends, 4);	/* the next burst */
	ck_assert_uint_eq(f->send_t[3], 3);
	arrive(f, 4, 3);
	ck_assert_uint_eq(f->nsends, 6);
	ck_assert_uint_eq(f->p.qlen, 1);
	/* A burst of 3 is over; the next one is cut short (2, the queue
	   is empty), and stays at most 3 although one of it ended. */
	reply(f, a);
	reply(f, a);
	reply(f, a);
	ck_assert_uint_eq(f->nsends, 7);
	arrive(f, 7, 1);
	ck_assert_uint_eq(f->nsends, 8);
	reply(f, a);
	arrive(f, 8, 2);
	ck_assert_uint_eq(f->nsends, 9);
	ck_assert_uint_eq(f->p.qlen, 1);
	fx_free(f);
}
END_TEST

static Suite *
call_rate_suite(void)
{
	Suite *s = suite_create("call_rate");
	TCase *tc = tcase_create("pool");

	tcase_add_test(tc, queue_order);
	tcase_add_test(tc, pool_cap);
	tcase_add_test(tc, reuse);
	tcase_add_test(tc, closed_moves_queue);
	tcase_add_test(tc, closed_other_takes);
	tcase_add_test(tc, open_fails);
	tcase_add_test(tc, open_fails_later);
	tcase_add_test(tc, queue_cap);
	tcase_add_test(tc, total_done);
	tcase_add_test(tc, stop_missed);
	tcase_add_test(tc, drain);
	tcase_add_test(tc, send_refused);
	tcase_add_test(tc, queue_wraps);
	tcase_add_test(tc, wants_once);
	tcase_add_test(tc, streams);
	tcase_add_test(tc, max_conns_change);
	tcase_add_test(tc, bursts);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(call_rate_suite());
}
