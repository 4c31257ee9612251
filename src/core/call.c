/*
 * Call objects: creation from a free list, reference counting, and the
 * events that mark their birth and death.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/conn.h"
#include "util.h"

struct call *
call_new(struct core *core, uint64_t now)
{
	struct call *c;
	union bus_arg arg = { .i = 0 };

	if ((c = core->free_calls) != NULL)
		core->free_calls = c->next;
	else
		c = xmalloc(sizeof(*c));
	memset(c, 0, sizeof(*c));
	c->core = core;
	c->id = core->next_call_id++;
	c->refs = 1;
	bus_signal(core->bus, BUS_CALL_NEW, c, arg, now);
	return c;
}

void
call_ref(struct call *c)
{
	c->refs++;
}

void
call_unref(struct call *c, uint64_t now)
{
	struct core *core = c->core;
	union bus_arg arg = { .i = 0 };

	if (--c->refs > 0)
		return;
	bus_signal(core->bus, BUS_CALL_DESTROYED, c, arg, now);
	free(c->owned);
	c->owned = NULL;
	c->next = core->free_calls;
	core->free_calls = c;
}

void
call_free_all(struct core *core)
{
	struct call *c;

	while ((c = core->free_calls) != NULL) {
		core->free_calls = c->next;
		free(c);
	}
}
