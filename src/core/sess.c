/*
 * Session objects: the core's pool, reference counting and life-cycle events.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/core.h"
#include "core/sess.h"
#include "lib/util.h"

static const union bus_arg sess_noarg = { .i = 0 };

struct sess *
sess_new(struct core *core, void *owner, uint64_t now)
{
	struct sess *s;

	s = core_pool_get(&core->sess);
	memset(s, 0, sizeof(*s));
	s->core = core;
	s->id = core->next_sess_id++;
	s->refs = 1;
	s->owner = owner;
	s->t_start = now;
	bus_signal(core->bus, BUS_SESS_NEW, s, sess_noarg, now);
	return s;
}

void
sess_ref(struct sess *s)
{
	s->refs++;
}

void
sess_unref(struct sess *s, uint64_t now)
{
	struct core *core = s->core;

	if (--s->refs > 0)
		return;
	bus_signal(core->bus, BUS_SESS_DESTROYED, s, sess_noarg, now);
	tls_slot_clear(&s->tls_slot);
	core_pool_put(&core->sess, s);
}

void
sess_fail(struct sess *s, uint64_t now)
{
	if (s->failed)
		return;
	s->failed = 1;
	bus_signal(s->core->bus, BUS_SESS_FAILED, s, sess_noarg, now);
}
