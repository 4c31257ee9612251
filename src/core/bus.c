/*
 * Event bus: per event type, a growable array of (handler, context) pairs
 * run in subscription order.
 */
#include "config.h"

#include <stdlib.h>

#include "core/bus.h"
#include "util.h"

struct bus_sub {
	bus_handler	*h;
	void		*ctx;
};

struct bus_list {
	struct bus_sub	*subs;
	size_t		 n;
};

struct bus {
	struct bus_list	 ev[BUS_NEVENTS];
};

static const char *const bus_names[] = {
	[BUS_PERF_SAMPLE] = "perf-sample",
	[BUS_CONN_NEW] = "conn-new",
	[BUS_CONN_CONNECTING] = "conn-connecting",
	[BUS_CONN_CONNECTED] = "conn-connected",
	[BUS_CONN_FAILED] = "conn-failed",
	[BUS_CONN_TIMEOUT] = "conn-timeout",
	[BUS_CONN_CLOSED] = "conn-closed",
	[BUS_CONN_DESTROYED] = "conn-destroyed",
	[BUS_CALL_NEW] = "call-new",
	[BUS_CALL_ISSUE] = "call-issue",
	[BUS_CALL_SEND_START] = "call-send-start",
	[BUS_CALL_SEND_STOP] = "call-send-stop",
	[BUS_CALL_RECV_START] = "call-recv-start",
	[BUS_CALL_RECV_HDR] = "call-recv-hdr",
	[BUS_CALL_RECV_DATA] = "call-recv-data",
	[BUS_CALL_RECV_FOOTER] = "call-recv-footer",
	[BUS_CALL_RECV_STOP] = "call-recv-stop",
	[BUS_CALL_DESTROYED] = "call-destroyed",
	[BUS_SESS_NEW] = "sess-new",
	[BUS_SESS_FAILED] = "sess-failed",
	[BUS_SESS_DESTROYED] = "sess-destroyed",
};
_Static_assert(nitems(bus_names) == BUS_NEVENTS, "bus_names incomplete");

struct bus *
bus_new(void)
{
	return xcalloc(1, sizeof(struct bus));
}

void
bus_free(struct bus *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; i < BUS_NEVENTS; i++)
		free(b->ev[i].subs);
	free(b);
}

void
bus_subscribe(struct bus *b, enum bus_event ev, bus_handler *h, void *ctx)
{
	struct bus_list *l = &b->ev[ev];

	l->subs = xreallocarray(l->subs, l->n + 1, sizeof(*l->subs));
	l->subs[l->n].h = h;
	l->subs[l->n].ctx = ctx;
	l->n++;
}

void
bus_signal(struct bus *b, enum bus_event ev, void *obj, union bus_arg arg,
    uint64_t now)
{
	const struct bus_list *l = &b->ev[ev];
	size_t i;

	for (i = 0; i < l->n; i++)
		l->subs[i].h(l->subs[i].ctx, ev, obj, arg, now);
}

int
bus_wanted(const struct bus *b, enum bus_event ev)
{
	return b->ev[ev].n != 0;
}

const char *
bus_event_name(enum bus_event ev)
{
	if ((unsigned)ev >= BUS_NEVENTS)
		return "unknown";
	return bus_names[ev];
}
