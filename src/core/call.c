/*
 * Call objects: creation from the core's pool, reference counting, and the
 * events that mark their birth and death.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/call.h"
#include "core/core.h"
#include "lib/util.h"

struct call *
call_new(struct core *core, uint64_t now)
{
	struct call *c;
	union bus_arg arg = { .i = 0 };

	c = core_pool_get(&core->calls);
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
	if (c->unprocessed != 0 && !c->replied) {
		/* Its connection may be long gone. */
		c->conn = NULL;
		arg.i = c->unprocessed;
		bus_signal(core->bus, BUS_CALL_FAILED, c, arg, now);
		arg.i = 0;
	}
	bus_signal(core->bus, BUS_CALL_DESTROYED, c, arg, now);
	free(c->owned);
	c->owned = NULL;
	free(c->tbuf.p);
	c->tbuf.p = NULL;
	free(c->rbody.p);
	free(c->rhead.p);
	c->rbody.p = c->rhead.p = NULL;
	core_pool_put(&core->calls, c);
}

void
call_keep_hdr(struct call *c, const char *a, size_t alen, const char *b,
    size_t blen)
{
	if (alen >= 5 && memcmp(a, "HTTP/", 5) == 0)
		c->rhead.len = 0;
	tmpl_buf_add(&c->rhead, a, alen);
	if (b != NULL) {
		tmpl_buf_add(&c->rhead, ": ", 2);
		tmpl_buf_add(&c->rhead, b, blen);
	}
	tmpl_buf_add(&c->rhead, "\r\n", 2);
}

void
call_keep_body(struct call *c, const char *p, size_t len)
{
	size_t room = CALL_BODY_MAX - c->rbody.len;

	if (len > room) {
		len = room;
		c->body_over = 1;
	}
	if (len > 0)
		tmpl_buf_add(&c->rbody, p, len);
}
