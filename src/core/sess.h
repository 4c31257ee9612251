/*
 * A session: a sequence of calls made on behalf of one user, over one or
 * more connections (--wsess, --wsesslog).  The core only knows its life
 * cycle (new, failed, destroyed) and a reference count; the session
 * workload keeps its own state in the private area it gets at creation.
 */
#ifndef HTTPERF_CORE_SESS_H
#define HTTPERF_CORE_SESS_H

#include <stddef.h>
#include <stdint.h>

#include "net/tls.h"

struct core;

struct sess {
	struct core	*core;
	uint64_t	 id;
	unsigned	 refs;
	int		 failed;	/* BUS_SESS_FAILED was signalled */
	uint64_t	 t_start;	/* ns, at creation */
	/* Scratch space for a statistics collector (counts it keeps from
	   the events of the session's connections and calls). */
	uint64_t	 stat_data[2];
	void		*owner;		/* the workload that made it */
	void		*priv;		/* the workload's state, owned by it */
	struct tls_slot	 tls_slot;	/* TLS session its connections resume */
	size_t		 data_row;	/* --data: its row (gen/data.c) */
};

/*
 * Creates a session with one reference held by the caller and signals
 * BUS_SESS_NEW.  Sessions come from the core's pool.
 */
struct sess	*sess_new(struct core *core, void *owner, uint64_t now);

/* Takes a reference. */
void		 sess_ref(struct sess *s);

/*
 * Drops a reference; the last one signals BUS_SESS_DESTROYED and recycles
 * the session.
 */
void		 sess_unref(struct sess *s, uint64_t now);

/*
 * Marks the session failed (once): signals BUS_SESS_FAILED.  The caller
 * then drops its reference as usual.
 */
void		 sess_fail(struct sess *s, uint64_t now);

#endif
