/*
 * Request-oriented workload (see conn_gen.h).
 *
 * Per connection (its owner_data): [0] calls issued, [1] calls of the
 * current burst not yet destroyed, [2] calls of the burst that got a reply,
 * [3] calls of the burst that were queued.
 * A burst is issued when the connection is up and again when every call of
 * the previous burst has its reply; the last burst may be shorter than
 * --burst-length (0.9.0 hung then).  A connection is closed when its calls
 * are done or a burst came back incomplete.
 */
#include "config.h"

#include <stdint.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "core/loop.h"
#include "gen/conn_gen.h"
#include "util.h"

#define CG_ISSUED	0
#define CG_INFLIGHT	1
#define CG_REPLIED	2
#define CG_BURST	3

/* Issues the next burst of calls on `c'. */
static void
conn_gen_burst(struct conn_gen *g, struct conn *c, uint64_t now)
{
	uint64_t n, i;
	struct call *call;

	n = g->num_calls - c->owner_data[CG_ISSUED];
	if (n > g->burst_len)
		n = g->burst_len;
	c->owner_data[CG_INFLIGHT] = n;
	c->owner_data[CG_REPLIED] = 0;
	conn_ref(c);
	for (i = 0; i < n && c->state == CONN_CONNECTED; i++) {
		call = call_new(g->core, now);
		call->owner = g;
		c->owner_data[CG_ISSUED]++;
		if (conn_send(c, call, now) == -1) {
			/* Not sent: it never counts. */
			c->owner_data[CG_INFLIGHT]--;
			call->owner = NULL;
		}
		call_unref(call, now);
	}
	c->owner_data[CG_BURST] = c->owner_data[CG_INFLIGHT];
	if (c->state != CONN_CLOSED && c->owner_data[CG_INFLIGHT] == 0)
		conn_close(c, now);
	conn_unref(c, now);
}

/* Arrival: create and connect one connection. */
static int
conn_gen_tick(void *arg, uint64_t now)
{
	struct conn_gen *g = arg;
	struct conn *c;

	if (g->finished || g->draining || g->created >= g->num_conns)
		return -1;
	g->created++;
	c = conn_new(g->core, now);
	c->owner = g;
	conn_connect(c, now);
	return g->created >= g->num_conns ? -1 : 0;
}

/* Sequential mode: the next connection starts from the timer phase, so a
 * run of instant failures never recurses. */
static void
conn_gen_seq_fired(struct timer *t, uint64_t now)
{
	struct conn_gen *g = containerof(t, struct conn_gen, seq_timer);

	rate_gen_next(&g->rate, now);
}

static void
conn_gen_event(void *ctx, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	struct conn_gen *g = ctx;
	struct conn *c;
	struct call *call;

	switch (ev) {
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
		if (call->replied)
			c->owner_data[CG_REPLIED]++;
		if (--c->owner_data[CG_INFLIGHT] > 0)
			break;
		if (c->owner_data[CG_ISSUED] < g->num_calls &&
		    c->owner_data[CG_REPLIED] == c->owner_data[CG_BURST])
			conn_gen_burst(g, c, now);
		else
			conn_close(c, now);
		break;
	case BUS_CONN_DESTROYED:
		c = obj;
		if (c->owner != g)
			break;
		g->destroyed++;
		if (g->destroyed >= g->num_conns ||
		    (g->draining && g->destroyed >= g->created)) {
			if (!g->finished) {
				g->finished = 1;
				rate_gen_stop(&g->rate);
				g->done(g->done_arg, now);
			}
		} else if (rate_spec_rate(g->spec) == 0 && !g->finished &&
		    !g->draining) {
			timer_add(loop_timers(g->core->loop), &g->seq_timer,
			    now);
		}
		break;
	default:
		break;
	}
}

void
conn_gen_init(struct conn_gen *g, struct core *core, uint64_t num_conns,
    uint64_t num_calls, uint64_t burst_len, const struct rate_spec *spec,
    unsigned client_id, conn_gen_done_cb *done, void *done_arg)
{
	g->core = core;
	g->num_conns = num_conns;
	g->num_calls = num_calls;
	g->burst_len = burst_len;
	g->spec = spec;
	g->client_id = client_id;
	g->done = done;
	g->done_arg = done_arg;
	g->created = g->destroyed = 0;
	g->finished = 0;
	g->draining = 0;
	timer_init(&g->seq_timer, conn_gen_seq_fired);
	bus_subscribe(core->bus, BUS_CONN_CONNECTED, conn_gen_event, g);
	bus_subscribe(core->bus, BUS_CALL_DESTROYED, conn_gen_event, g);
	bus_subscribe(core->bus, BUS_CONN_DESTROYED, conn_gen_event, g);
}

void
conn_gen_start(struct conn_gen *g, uint64_t now)
{
	rate_gen_start(&g->rate, g->core->loop, g->spec, g->client_id,
	    conn_gen_tick, g, now);
}

void
conn_gen_stop(struct conn_gen *g)
{
	g->finished = 1;
	rate_gen_stop(&g->rate);
	timer_cancel(&g->seq_timer);
}

void
conn_gen_drain(struct conn_gen *g, uint64_t now)
{
	if (g->finished || g->draining)
		return;
	g->draining = 1;
	rate_gen_stop(&g->rate);
	timer_cancel(&g->seq_timer);
	if (g->destroyed >= g->created) {
		g->finished = 1;
		g->done(g->done_arg, now);
	}
}
