/*
 * Event bus: per event type, a growable array of (handler, context) pairs
 * run in subscription order.
 */
#include "config.h"

#include <stdlib.h>

#include "core/bus.h"
#include "lib/util.h"

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
