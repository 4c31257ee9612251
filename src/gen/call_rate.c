/*
 * The request-rate workload (see call_rate.h): the arrival schedule, and
 * the pool of gen/call_pool.h wired to the core.
 *
 * A connection of the pool carries its pool id in owner_data[0]; a
 * request carries the id of the connection it went out on in
 * owner_data[0].  A request is created (BUS_CALL_NEW: the URI sources and
 * the request options fill it in) when it goes out, not when it arrives,
 * so that a waiting request costs 8 bytes, not a call; the URIs are still
 * handed out in the order of the arrivals, since the queue is FIFO.
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/conn_h2.h"
#include "core/loop.h"
#include "core/timer.h"
#include "gen/call_pool.h"
#include "gen/call_rate.h"
#include "gen/generator.h"
#include "gen/rate.h"
#include "lib/util.h"

#define CR_ID	0		/* owner_data[]: the pool id */

struct call_rate {
	struct core	*core;
	struct bus	*bus;
	const struct rate_spec *spec;
	unsigned	 client_id;
	unsigned	 num_clients;
	struct rate_gen	 rate;
	uint64_t	 until;		/* the run's end (UINT64_MAX: none) */
	struct call_pool pool;
	/* Connections closed, told to the pool from closed_timer, once
	   their sockets are: a replacement is not opened while the old
	   socket is still open (which made --max-connections N + 1). */
	uint64_t	*closed;
	size_t		 nclosed;
	size_t		 closed_cap;
	struct timer	 closed_timer;
	gen_done_cb	*done;
	void		*done_arg;
	int		 stopped;
	struct rate_spec own;		/* spec's copy once the rate changed */
	/* The closed loop (call_rate.h): its concurrency (0: a schedule),
	   and the requests in flight a connection carries, expected. */
	size_t		 conc;
	size_t		 h1_cap;	/* HTTP/1.1: --burst-length */
	size_t		 per_conn;
	/* The closed loop's pauses (core->call_delay): each a request
	   made when its timer fires, counted as made meanwhile. */
	struct cr_pause	*pauses;
	size_t		 npauses;
	size_t		 paused;
};

struct cr_pause {
	struct timer	 t;
	struct call_rate *g;
};

/*
 * Arrival, meant for the time the schedule kept in `due' (it has already
 * moved on to the next one when this runs).
 *
 * Each request is counted once by the schedule collector (sched_stat.h,
 * `requests'): BUS_ARRIVAL here, when the workload takes it in, so its
 * lateness is the workload's own delay (timer, loop) and not its wait in
 * the queue for a free connection, which a slow or frozen server causes
 * and the corrected reply time shows; and BUS_ARRIVAL_MISSED (the pool's
 * `missed') later only for requests taken in that never went out, which
 * the collector moves from made to never sent.  No request is both sent
 * and missed (call_pool.h), and no arrival the pool refuses is signalled.
 */
static int
call_rate_tick(void *arg, uint64_t now)
{
	struct call_rate *g = arg;
	union bus_arg a;
	uint64_t intended = g->rate.due;

	/* The run covers [start, end): nothing meant for the end or after
	   it is taken in (R requests a second for T s are R * T), not even
	   by a timer catching up after a stall. */
	if (intended >= g->until || !call_pool_wants(&g->pool))
		return -1;
	a.i = (long)intended;
	bus_signal(g->bus, BUS_ARRIVAL, NULL, a, now);
	return call_pool_arrival(&g->pool, intended, now);
}

/* The pool's requests of the owner (gen/call_pool.h). */

static void
call_rate_open(void *arg, uint64_t id, uint64_t now)
{
	struct call_rate *g = arg;
	struct conn *c;

	c = conn_new(g->core, now);
	c->owner = g;
	c->owner_data[CR_ID] = id;
	call_pool_set_user(&g->pool, id, c);
	conn_connect(c, now);
}

static int
call_rate_send(void *arg, uint64_t id, void *user, uint64_t intended,
    uint64_t now)
{
	struct call_rate *g = arg;
	struct conn *c = user;
	struct call *call;
	int rv;

	call = call_new(g->core, now);
	call->owner = g;
	call->owner_data[CR_ID] = id;
	call->intended = intended;
	if ((rv = conn_send(c, call, now)) == -1)
		call->owner = NULL;	/* not sent: it never counts */
	call_unref(call, now);
	return rv;
}

static void
call_rate_close(void *arg, uint64_t id, void *user, uint64_t now)
{
	conn_close(user, now);
}

static void
call_rate_missed(void *arg, uint64_t n, uint64_t now)
{
	struct call_rate *g = arg;
	union bus_arg a;

	if (g->conc > 0)		/* no schedule: nothing to count */
		return;
	a.i = (long)n;
	bus_signal(g->bus, BUS_ARRIVAL_MISSED, NULL, a, now);
}

/* A pause is over: its request is made now. */
static void
call_rate_pause_fired(struct timer *t, uint64_t now)
{
	struct cr_pause *pz = containerof(t, struct cr_pause, t);
	struct call_rate *g = pz->g;

	g->paused--;
	if (!g->stopped && call_pool_wants(&g->pool))
		(void)call_pool_arrival(&g->pool, now, now);
}

/*
 * Arms a pause until `due' in a free slot of the `want' the loop keeps;
 * -1 when none is free (the request is then made at once).
 */
static int
call_rate_pause(struct call_rate *g, uint64_t want, uint64_t due)
{
	size_t i;

	if (g->pauses == NULL) {
		g->npauses = (size_t)want;
		g->pauses = xcalloc(g->npauses, sizeof(*g->pauses));
		for (i = 0; i < g->npauses; i++) {
			timer_init(&g->pauses[i].t, call_rate_pause_fired);
			g->pauses[i].g = g;
		}
	}
	for (i = 0; i < g->npauses; i++)
		if (!timer_is_armed(&g->pauses[i].t)) {
			timer_add(loop_timers(g->core->loop),
			    &g->pauses[i].t, due);
			g->paused++;
			return 0;
		}
	return -1;
}

/* Cancels every pause (the run stops: their requests are never made). */
static void
call_rate_pauses_cancel(struct call_rate *g)
{
	size_t i;

	for (i = 0; i < g->npauses; i++)
		timer_cancel(&g->pauses[i].t);
	g->paused = 0;
}

/*
 * The closed loop: as many requests made and not over (waiting or in
 * flight) as the connections carry, conc * per_conn (at most the queue's
 * cap).  Each is made at once (no schedule), so its latency counts from
 * when it goes out.  At most that many are made per call, so a request
 * that is missed at once (its connection refuses it) cannot spin here:
 * the next event makes it again.
 */
static void
call_rate_refill(struct call_rate *g, uint64_t now)
{
	const struct call_pool *p = &g->pool;
	uint64_t want, have, d;

	if (g->conc == 0 || g->stopped)
		return;
	want = g->per_conn > p->queue_max / g->conc ? p->queue_max :
	    (uint64_t)g->conc * g->per_conn;
	have = p->made - p->ended - p->missed + g->paused;
	for (; have < want && call_pool_wants(p); have++) {
		if (g->core->call_delay != NULL &&
		    (d = g->core->call_delay(g->core->call_delay_arg, now)) > 0 &&
		    call_rate_pause(g, want, now + d) == 0)
			continue;
		if (call_pool_arrival(&g->pool, now, now) == -1)
			break;
	}
}

static void
call_rate_pool_done(void *arg, uint64_t now)
{
	struct call_rate *g = arg;

	rate_gen_stop(&g->rate);
	g->done(g->done_arg, now);
}

/* The closes of this turn, now that their sockets are closed. */
static void
call_rate_closed_fired(struct timer *t, uint64_t now)
{
	struct call_rate *g = containerof(t, struct call_rate, closed_timer);
	size_t i;

	/* The pool may open connections, and they may close again: each
	   close is appended and taken in this loop. */
	for (i = 0; i < g->nclosed; i++)
		call_pool_closed(&g->pool, g->closed[i], now);
	g->nclosed = 0;
	call_rate_refill(g, now);
}

/*
 * How many requests connection `c' carries at once: one on HTTP/1.1; on
 * HTTP/2 its stream limit, or until the server's SETTINGS say it, what is
 * expected of it (the calls above the limit then wait on the connection,
 * core/conn_h2.h, and go out as streams once the limit is known).
 */
static size_t
call_rate_capacity(const struct call_rate *g, const struct conn *c)
{
	unsigned n;

	if (c->h2 == NULL)
		return g->h1_cap;
	if ((n = h2_conn_streams(c)) > 0)
		return n;
	return g->core->cfg.max_streams > 0 ? g->core->cfg.max_streams :
	    H2_DEFAULT_STREAMS;
}

static const struct call_pool_ops call_rate_ops = {
	.open = call_rate_open,
	.send = call_rate_send,
	.close = call_rate_close,
	.missed = call_rate_missed,
	.done = call_rate_pool_done,
};

static void
call_rate_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct call_rate *g = ctx;
	struct conn *c;
	struct call *call;

	switch (ev) {
	case BUS_CONN_CONNECTED:
		c = obj;
		if (c->owner != g)
			break;
		/* --http2-fallback: the server speaks HTTP/1.1, so will the
		   connections opened from now on. */
		if (c->h2 == NULL && g->core->cfg.http2) {
			g->per_conn = g->h1_cap;
			call_pool_expect(&g->pool, g->h1_cap);
		}
		call_pool_set_capacity(&g->pool, c->owner_data[CR_ID],
		    call_rate_capacity(g, c), now);
		call_pool_connected(&g->pool, c->owner_data[CR_ID], now);
		break;
	case BUS_CALL_DESTROYED:
		/* Replied or failed: the connection is free again unless
		   it is closing (the server said so, or it failed). */
		call = obj;
		if (call->owner != g)
			break;
		c = call->conn;
		/* HTTP/2: the server's SETTINGS may have changed how many
		   streams the connection carries. */
		if (c != NULL && c->state == CONN_CONNECTED && c->h2 != NULL)
			call_pool_set_capacity(&g->pool,
			    call->owner_data[CR_ID], call_rate_capacity(g, c),
			    now);
		call_pool_call_done(&g->pool, call->owner_data[CR_ID],
		    c != NULL && c->state == CONN_CONNECTED && !c->draining,
		    now);
		call_rate_refill(g, now);
		break;
	case BUS_CONN_CLOSED:
		/* Its socket is closed after this event: the pool hears of
		   it from the timer, later in this turn (a deadline now
		   fires in this turn's, or this, run of the wheel). */
		c = obj;
		if (c->owner != g)
			break;
		if (g->nclosed == g->closed_cap) {
			g->closed_cap = g->closed_cap < 16 ? 16 :
			    g->closed_cap * 2;
			g->closed = xreallocarray(g->closed, g->closed_cap,
			    sizeof(*g->closed));
		}
		g->closed[g->nclosed++] = c->owner_data[CR_ID];
		if (!timer_is_armed(&g->closed_timer))
			timer_add(loop_timers(g->core->loop),
			    &g->closed_timer, now);
		break;
	default:
		break;
	}
}

/* The generator interface (gen/generator.h). */

static int
call_rate_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct call_rate_config *cfg = env->cfg;
	struct call_rate *g;

	if (cfg->concurrency == 0 &&
	    (cfg->rate == NULL || rate_spec_rate(cfg->rate) <= 0)) {
		snprintf(err, errlen, "needs a rate above 0");
		return -1;
	}
	g = xcalloc(1, sizeof(*g));
	g->core = env->core;
	g->bus = env->bus;
	g->spec = cfg->rate;
	g->client_id = cfg->client_id;
	g->num_clients = cfg->num_clients;
	g->done = env->done;
	g->done_arg = env->done_arg;
	g->until = UINT64_MAX;
	timer_init(&g->closed_timer, call_rate_closed_fired);
	g->conc = cfg->concurrency;
	g->h1_cap = g->conc == 0 || cfg->burst_len == 0 ? 1 :
	    cfg->burst_len > CALL_POOL_QUEUE_MAX ? CALL_POOL_QUEUE_MAX :
	    (size_t)cfg->burst_len;
	g->per_conn = g->h1_cap;
	call_pool_init(&g->pool, g->conc > 0 ? g->conc : cfg->max_conns > 0 ?
	    cfg->max_conns : CALL_RATE_DEFAULT_CONNS, cfg->total,
	    CALL_POOL_QUEUE_MAX, &call_rate_ops, g);
	/* HTTP/2: a connection on its way is counted for its streams (an
	   HTTP/1.1 one with --http2-fallback then takes one). */
	if (g->core->cfg.http2)
		g->per_conn = g->core->cfg.max_streams > 0 ?
		    g->core->cfg.max_streams : H2_DEFAULT_STREAMS;
	call_pool_expect(&g->pool, g->per_conn);
	if (g->h1_cap > 1)
		call_pool_burst(&g->pool);
	bus_subscribe(env->bus, BUS_CONN_CONNECTED, call_rate_event, g);
	bus_subscribe(env->bus, BUS_CALL_DESTROYED, call_rate_event, g);
	bus_subscribe(env->bus, BUS_CONN_CLOSED, call_rate_event, g);
	*state = g;
	return 0;
}

/*
 * The run ends at `end'.  Requests due before then that a stalled client
 * takes in late still count (late, and never sent if they are queued at
 * the stop); none meant for `end' or after it is taken in.
 */
static void
call_rate_end(void *state, uint64_t end)
{
	struct call_rate *g = state;

	if (end < g->until)
		g->until = end;
}

static void
call_rate_start(void *state, uint64_t now)
{
	struct call_rate *g = state;

	if (g->conc > 0) {		/* the closed loop: all at once */
		call_rate_refill(g, now);
		return;
	}
	/* The first arrival is now (or --client's offset later). */
	rate_gen_start(&g->rate, g->core->loop, g->spec, g->client_id,
	    g->num_clients, call_rate_tick, g, now);
	rate_gen_limit(&g->rate, RATE_TURN_MAX);
}

static void
call_rate_drain(void *state, uint64_t now)
{
	struct call_rate *g = state;

	rate_gen_stop(&g->rate);
	call_pool_drain(&g->pool, now);
}

/*
 * The run is over.  Requests due before its end that the schedule never
 * reached (it fell behind: RATE_TURN_MAX a turn) were never taken
 * in: they count as scheduled and never sent, in one BUS_ARRIVAL_MISSED
 * whose obj tells them from the requests taken in and never sent
 * (core/bus.h), at bounded cost (rate_gen_due()).
 */
static void
call_rate_stop(void *state)
{
	struct call_rate *g = state;
	uint64_t n, max;
	union bus_arg a;
	size_t i;

	if (g->stopped)
		return;
	g->stopped = 1;
	if (g->conc == 0 && g->until != UINT64_MAX && g->until > 0) {
		max = g->pool.total == 0 ? UINT64_MAX :
		    g->pool.total - g->pool.made;
		if (call_pool_wants(&g->pool) &&
		    (n = rate_gen_due(&g->rate, g->until - 1, max)) > 0) {
			a.i = n > (uint64_t)LONG_MAX ? LONG_MAX : (long)n;
			bus_signal(g->bus, BUS_ARRIVAL_MISSED, g, a, g->until);
		}
	}
	rate_gen_stop(&g->rate);
	call_pool_stop(&g->pool, loop_clock(g->core->loop));
	/* The closes not yet told, and those of the stop itself. */
	timer_cancel(&g->closed_timer);
	call_rate_pauses_cancel(g);
	for (i = 0; i < g->nclosed; i++)
		call_pool_closed(&g->pool, g->closed[i],
		    loop_clock(g->core->loop));
	g->nclosed = 0;
}

static void
call_rate_fini(void *state)
{
	struct call_rate *g = state;

	timer_cancel(&g->closed_timer);
	call_rate_pauses_cancel(g);
	free(g->pauses);
	call_pool_fini(&g->pool);
	free(g->closed);
	free(g);
}

/* --sweep: the schedule goes on at `rate' from now, on a copy of the spec. */
static void
call_rate_set_rate(void *state, double rate, uint64_t now)
{
	struct call_rate *g = state;

	if (g->stopped)
		return;
	if (g->conc != 0)
		return;
	g->spec = rate_gen_rescale(&g->rate, &g->own, rate, now);
}

void
closed_set_concurrency(void *state, unsigned n, uint64_t now)
{
	struct call_rate *g = state;

	if (g->conc == 0 || g->stopped || n == 0)
		return;
	g->conc = n;
	call_pool_set_max_conns(&g->pool, n, now);
	call_rate_refill(g, now);
}

const struct generator call_rate_generator = {
	.name = "call_rate",
	.init = call_rate_init,
	.start = call_rate_start,
	.drain = call_rate_drain,
	.end = call_rate_end,
	.set_rate = call_rate_set_rate,
	.stop = call_rate_stop,
	.fini = call_rate_fini,
};
