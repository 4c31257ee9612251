/*
 * Session objects: free list, reference counting and life-cycle events.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/bus.h"
#include "core/conn.h"
#include "core/sess.h"
#include "util.h"

static const union bus_arg sess_noarg = { .i = 0 };

struct sess *
sess_new(struct core *core, void *owner, uint64_t now)
{
	struct sess *s;

	if ((s = core->free_sess) != NULL)
		core->free_sess = s->next_free;
	else
		s = xmalloc(sizeof(*s));
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
	s->next_free = core->free_sess;
	core->free_sess = s;
}

void
sess_fail(struct sess *s, uint64_t now)
{
	if (s->failed)
		return;
	s->failed = 1;
	bus_signal(s->core->bus, BUS_SESS_FAILED, s, sess_noarg, now);
}

void
sess_free_all(struct core *core)
{
	struct sess *s;

	while ((s = core->free_sess) != NULL) {
		core->free_sess = s->next_free;
		free(s);
	}
}
