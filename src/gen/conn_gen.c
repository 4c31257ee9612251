/*
 * Request-oriented workload (see conn_gen.h).
 *
 * Per connection (its owner_data): [0] calls made, [1] calls of the
 * current burst queued and not yet destroyed, [2] calls of the burst still
 * to make, [3] set when the burst came back incomplete (a call not sent,
 * or destroyed without a reply).
 * A burst starts when the connection is up and again when every call of
 * the previous burst has its reply; the last burst may be shorter than
 * --burst-length (0.9.0 hung then).  Its calls are made as the connection
 * takes them: CG_BATCH when all before are written (conn->refill), so
 * that a burst of millions holds only the calls in flight, and the loop
 * goes on between batches (--runtime ends it on time).  A connection is
 * closed when its calls are done or a burst came back incomplete.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "gen/conn_gen.h"
#include "gen/generator.h"
#include "gen/workload.h"
#include "lib/util.h"

#define CG_ISSUED	0
#define CG_INFLIGHT	1
#define CG_LEFT		2
#define CG_CUT		3

#define CG_BATCH	64	/* calls made at a time */

struct conn_gen {
	struct core	*core;
	struct conn_gen_config cfg;
	struct workload	 wl;		/* units are connections */
	struct conn	*creating;	/* inside conn_connect() */
	int		 create_err;	/* its failure's cause, or 0 */
};

/*
 * Makes and queues up to CG_BATCH calls of the burst, when the connection
 * has written every call before (HTTP/2: has given each a stream).
 */
static void
conn_gen_fill(struct conn_gen *g, struct conn *c, uint64_t now)
{
	struct call *call;
	unsigned k;

	if (c->unsent != NULL)
		return;
	conn_ref(c);
	for (k = 0; k < CG_BATCH && c->owner_data[CG_LEFT] > 0 &&
	    !c->owner_data[CG_CUT] && c->state == CONN_CONNECTED; k++) {
		call = call_new(g->core, now);
		call->owner = g;
		/* The first call starts when the connection was meant to;
		   the later ones follow it (closed loop). */
		if (c->owner_data[CG_ISSUED] == 0)
			call->intended = c->intended;
		c->owner_data[CG_ISSUED]++;
		c->owner_data[CG_LEFT]--;
		c->owner_data[CG_INFLIGHT]++;
		if (conn_send(c, call, now) == -1) {
			/* Not sent: it never counts, nor do the rest. */
			c->owner_data[CG_INFLIGHT]--;
			c->owner_data[CG_CUT] = 1;
			call->owner = NULL;
		}
		call_unref(call, now);
	}
	if (c->state != CONN_CLOSED && c->owner_data[CG_CUT] &&
	    c->owner_data[CG_INFLIGHT] == 0)
		conn_close(c, now);
	conn_unref(c, now);
}

/* conn->refill: every call queued so far is written. */
static void
conn_gen_refill(struct conn *c, uint64_t now)
{
	conn_gen_fill(c->owner, c, now);
}

/* Starts the next burst of calls on `c'. */
static void
conn_gen_burst(struct conn_gen *g, struct conn *c, uint64_t now)
{
	uint64_t n;

	n = g->cfg.num_calls - c->owner_data[CG_ISSUED];
	if (n > g->cfg.burst_len)
		n = g->cfg.burst_len;
	c->owner_data[CG_INFLIGHT] = 0;
	c->owner_data[CG_LEFT] = n;
	c->owner_data[CG_CUT] = 0;
	conn_gen_fill(g, c, now);
}

/*
 * Arrival: create and connect one connection.  Returns -1 if it failed
 * at once for want of a descriptor or a local address: it never started.
 */
static int
conn_gen_create(void *arg, uint64_t idx, uint64_t intended, uint64_t now)
{
	struct conn_gen *g = arg;
	struct conn *c;

	c = conn_new(g->core, now);
	c->owner = g;
	c->refill = conn_gen_refill;
	c->intended = intended;
	g->creating = c;
	g->create_err = 0;
	conn_connect(c, now);
	g->creating = NULL;
	return workload_never_started(g->create_err) ? -1 : 0;
}

static void
conn_gen_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct conn_gen *g = ctx;
	struct conn *c;
	struct call *call;

	switch (ev) {
	case BUS_CONN_FAILED:
		if (obj == g->creating && g->create_err == 0)
			g->create_err = (int)arg.i;
		break;
	case BUS_CONN_CONNECTED:
		c = obj;
		if (c->owner == g)
			conn_gen_burst(g, c, now);
		break;
	case BUS_CALL_DESTROYED:
		call = obj;
		if (call->owner != g || (c = call->conn) == NULL ||
		    c->state != CONN_CONNECTED)
			break;
		if (!call->replied)
			c->owner_data[CG_CUT] = 1;
		c->owner_data[CG_INFLIGHT]--;
		if (c->owner_data[CG_LEFT] > 0 && !c->owner_data[CG_CUT]) {
			/* HTTP/2, whose calls wait for streams. */
			conn_gen_fill(g, c, now);
			break;
		}
		if (c->owner_data[CG_INFLIGHT] > 0)
			break;
		if (c->owner_data[CG_ISSUED] < g->cfg.num_calls &&
		    !c->owner_data[CG_CUT])
			conn_gen_burst(g, c, now);
		else
			conn_close(c, now);
		break;
	case BUS_CONN_DESTROYED:
		c = obj;
		if (c->owner == g)
			workload_destroyed(&g->wl, now);
		break;
	default:
		break;
	}
}

/* The generator interface (gen/generator.h). */

static int
conn_gen_init(void **state, const struct gen_env *env, char *err,
    size_t errlen)
{
	const struct conn_gen_config *cfg = env->cfg;
	struct conn_gen *g;

	g = xcalloc(1, sizeof(*g));
	g->core = env->core;
	g->cfg = *cfg;
	workload_init(&g->wl, env->core->loop, env->bus, cfg->rate,
	    cfg->client_id, cfg->num_clients, cfg->num_conns, conn_gen_create,
	    g, env->done, env->done_arg);
	bus_subscribe(env->bus, BUS_CONN_FAILED, conn_gen_event, g);
	bus_subscribe(env->bus, BUS_CONN_CONNECTED, conn_gen_event, g);
	bus_subscribe(env->bus, BUS_CALL_DESTROYED, conn_gen_event, g);
	bus_subscribe(env->bus, BUS_CONN_DESTROYED, conn_gen_event, g);
	*state = g;
	return 0;
}

static void
conn_gen_start(void *state, uint64_t now)
{
	struct conn_gen *g = state;

	workload_start(&g->wl, now);
}

static void
conn_gen_drain(void *state, uint64_t now)
{
	struct conn_gen *g = state;

	workload_drain(&g->wl, now);
}

static void
conn_gen_end(void *state, uint64_t end)
{
	struct conn_gen *g = state;

	workload_end(&g->wl, end);
}

static void
conn_gen_set_rate(void *state, double rate, uint64_t now)
{
	struct conn_gen *g = state;

	workload_set_rate(&g->wl, rate, now);
}

static void
conn_gen_stop(void *state)
{
	struct conn_gen *g = state;

	workload_stop(&g->wl);
}

const struct generator conn_gen_generator = {
	.name = "conn_gen",
	.init = conn_gen_init,
	.start = conn_gen_start,
	.drain = conn_gen_drain,
	.end = conn_gen_end,
	.set_rate = conn_gen_set_rate,
	.stop = conn_gen_stop,
	.fini = free,
};
